// The guide pages (a game's page, its how-to-play page): every `.guide-cards` holder is filled
// with the cards its `data-cards` names ("KH QH JH"), drawn by the tables' own cards.js from the
// pack `data-pack` names (French unless "spanish"), each named in the page's language.
import { cardImage } from "../table/cards.js";
import { loadCatalog } from "../live/i18n.js";

const lang = document.body.dataset.lang;

async function drawCards() {
  const holders = document.querySelectorAll(".guide-cards[data-cards]");
  if (!holders.length) return;
  const t = await loadCatalog(lang);
  for (const holder of holders) {
    const pack = holder.dataset.pack || "french";
    for (const code of holder.dataset.cards.split(/\s+/).filter(Boolean)) {
      holder.append(cardImage(code, t, pack));
    }
    holder.dataset.drawn = "true";
  }
}

drawCards();

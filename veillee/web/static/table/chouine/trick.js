// The trick in play, each card toward the seat that played it, its declaration beneath. A trick
// just gathered stays in view `pauseMs` (the server's trick_pause_ms), then slides to its
// winner; a card led during the pause replaces it at once. On load nothing gathered long ago is
// replayed.
import { cardImage } from "../cards.js";
import { declarationLabel } from "./words.js";

export class Trick {
  constructor(node, t, pauseMs) {
    Object.assign(this, { node, t, pauseMs });
    this.shownKey = null;
    this.gathering = false;
    this.timer = null;
  }

  card(entry, seat) {
    const wrap = document.createElement("div");
    wrap.className = `trick-card ${entry.seat === seat ? "mine" : "theirs"}`;
    wrap.append(cardImage(entry.card, this.t));
    const tag = document.createElement("span");
    tag.className = "trick-decl";
    if (entry.declaration) tag.textContent = declarationLabel(entry.declaration, this.t);
    else tag.hidden = true;
    wrap.append(tag);
    return wrap;
  }

  /** Show `deal`'s trick as seen from `seat`; `first`: the page has just loaded. */
  render(deal, seat, first) {
    const node = this.node;
    const last = deal.last_trick;
    const lastKey = last ? last.cards.map((c) => c.card).join(",") : null;
    if (first) this.shownKey = lastKey;
    if (deal.trick.length === 0 && last && this.pauseMs > 0 && !deal.outcome) {
      if (lastKey !== this.shownKey) {
        this.shownKey = lastKey;
        this.gathering = true;
        node.style.setProperty("--gather-delay", `${Math.max(0, this.pauseMs - 300)}ms`);
        node.classList.add("gathering", last.winner === seat ? "to-mine" : "to-theirs");
        node.replaceChildren(...last.cards.map((entry) => this.card(entry, seat)));
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.gathering = false;
          node.classList.remove("gathering", "to-mine", "to-theirs");
          node.replaceChildren();
        }, this.pauseMs);
        return;
      }
      if (this.gathering) return; // still on show
    }
    this.shownKey = lastKey ?? this.shownKey;
    clearTimeout(this.timer);
    this.gathering = false;
    node.classList.remove("gathering", "to-mine", "to-theirs");
    node.replaceChildren(...deal.trick.map((entry) => this.card(entry, seat)));
  }
}

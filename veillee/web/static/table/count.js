// The count after a partie (rules §7, §9): card points, each declaration, dix de der and the
// totals for both seats, both piles open; then "Next partie", or the match result.
import { cardImage } from "./cards.js";

function cell(tag, text, className) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
}

function row(label, values, className) {
  const tr = document.createElement("tr");
  if (className) tr.className = className;
  tr.append(cell("th", label));
  for (const value of values) tr.append(cell("td", value));
  return tr;
}

export function showCount(state, t) {
  const dialog = document.getElementById("count");
  const deal = state.view.deal;
  const match = state.view.match;
  const outcome = deal.outcome;
  const seat = state.seat;
  const seats = [seat, 1 - seat];
  const names = [t("chouine.table.you"), t("chouine.table.computer")];

  let title;
  if (outcome.chouine !== null && outcome.chouine !== undefined) {
    title = outcome.chouine === seat ? t("chouine.count.chouine_you") : t("chouine.count.chouine_computer");
  } else if (outcome.winner === null) {
    title = t("chouine.count.tie");
  } else {
    title = outcome.winner === seat ? t("chouine.count.you_win") : t("chouine.count.computer_wins");
  }
  document.getElementById("count-title").textContent = title;

  const table = document.getElementById("count-table");
  table.replaceChildren();
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  headRow.append(cell("th", ""));
  seats.forEach((s, i) => headRow.append(cell("th", names[i], outcome.winner === s ? "winner" : "")));
  head.append(headRow);
  const body = document.createElement("tbody");
  if (outcome.card_points) {
    body.append(row(t("chouine.count.card_points"), seats.map((s) => String(outcome.card_points[s]))));
  }
  // A seat that has nothing on a row shows a dash, as for dix de der: no blank cells.
  const none = t("chouine.count.none");
  seats.forEach((s, i) => {
    for (const decl of outcome.declarations[s]) {
      const values = [none, none];
      // A chouine has no count: it wins the partie (rules §9), so no "0" on its row.
      values[i] = decl.kind === "chouine" ? t("chouine.count.wins_partie") : String(decl.points);
      const suit = decl.suit ? t(`card.suit.${decl.suit}`) : "";
      const className = decl.kind === "chouine" ? "declaration chouine" : "declaration";
      body.append(row(t(`chouine.declname.${decl.kind}`, { suit }), values, className));
    }
  });
  if (outcome.totals) {
    body.append(row(t("chouine.count.dix_de_der"), seats.map((s) => (outcome.dix_de_der === s ? "10" : none))));
    body.append(row(t("chouine.count.total"), seats.map((s) => String(outcome.totals[s])), "total"));
  }
  table.append(head, body);

  const piles = document.getElementById("count-piles");
  piles.replaceChildren();
  if (outcome.chouine_cards) {
    const shown = document.createElement("div");
    shown.className = "pile";
    shown.append(cell("h3", t("chouine.count.chouine_cards")));
    for (const card of outcome.chouine_cards) shown.append(cardImage(card, t));
    piles.append(shown);
  }
  seats.forEach((s, i) => {
    const pile = document.createElement("div");
    pile.className = "pile";
    pile.dataset.testid = `pile-${i === 0 ? "mine" : "theirs"}`;
    pile.append(cell("h3", t("chouine.count.pile", { name: names[i] })));
    for (const card of outcome.piles?.[s] ?? []) pile.append(cardImage(card, t));
    piles.append(pile);
  });

  const result = document.getElementById("match-result");
  const next = document.getElementById("next-partie");
  const again = document.getElementById("new-match");
  if (match.over) {
    result.hidden = false;
    result.textContent = match.winner === seat
      ? t("chouine.match.you_win", { you: match.wins[seat], them: match.wins[1 - seat] })
      : t("chouine.match.computer_wins", { you: match.wins[seat], them: match.wins[1 - seat] });
    next.hidden = true;
    again.hidden = false;
  } else {
    result.hidden = true;
    next.hidden = false;
    again.hidden = true;
  }
  if (!dialog.open) dialog.showModal();
}

// The count after a partie (rules §7, §9): card points, each declaration, dix de der and the
// totals for both seats, both piles open; then "Next partie". The news is the heading: on the
// last screen of a match the match result heads it, and the partie's count follows. Every
// number comes from the view's outcome (docs/chouine-views.md).
import { cardImage } from "../cards.js";
import { el } from "../../live/dom.js";
import { openEndScreen, scoreRow, showReady } from "../end_screen.js";

// The other seat's words: the computer's, or (at a shared table) the friend's.
function words(state) {
  const friend = Boolean(state.seats) && state.seats[1 - state.seat] !== "computer";
  return friend
    ? { name: "friend.name", chouine: "friend.count.chouine", wins: "friend.count.wins", match: "friend.match.wins" }
    : {
      name: "chouine.table.computer",
      chouine: "chouine.count.chouine_computer",
      wins: "chouine.count.computer_wins",
      match: "chouine.match.computer_wins",
    };
}

function partieTitle(outcome, seat, t, other) {
  if (outcome.chouine !== null && outcome.chouine !== undefined) {
    return outcome.chouine === seat ? t("chouine.count.chouine_you") : t(other.chouine);
  }
  if (outcome.winner === null) return t("chouine.count.tie");
  return outcome.winner === seat ? t("chouine.count.you_win") : t(other.wins);
}

function matchTitle(match, seat, t, other) {
  const score = { you: match.wins[seat], them: match.wins[1 - seat] };
  return match.winner === seat ? t("chouine.match.you_win", score) : t(other.match, score);
}

// At a shared table the next partie (or match) comes once both have asked: the foot says who
// is waiting for whom.
function readyWords(state, t) {
  const ready = state.shared ? state.ready ?? [] : [];
  if (ready.includes(state.seat)) return t("friend.ready.waiting");
  if (!ready.includes(1 - state.seat)) return "";
  return state.view.match.over ? t("friend.ready.them_match") : t("friend.ready.them");
}

export function showCount(state, t) {
  const dialog = document.getElementById("count");
  const deal = state.view.deal;
  const match = state.view.match;
  const outcome = deal.outcome;
  const seat = state.seat;
  const seats = [seat, 1 - seat];
  const other = words(state);
  const names = [t("chouine.table.you"), t(other.name)];

  const head = document.getElementById("count-head");
  const title = el("h2", "", "");
  title.id = "count-title";
  if (match.over) {
    title.textContent = matchTitle(match, seat, t, other);
    title.className = "match-result";
    title.dataset.testid = "match-result";
    const partie = el("h3", "count-partie", t("chouine.count.partie", { partie: match.partie, result: partieTitle(outcome, seat, t, other) }));
    partie.dataset.testid = "count-partie";
    head.replaceChildren(title, partie);
  } else {
    title.textContent = partieTitle(outcome, seat, t, other);
    title.dataset.testid = "count-title";
    head.replaceChildren(title);
  }

  const table = document.getElementById("count-table");
  table.replaceChildren();
  const thead = document.createElement("thead");
  const headRow = document.createElement("tr");
  headRow.append(el("th", "", ""));
  seats.forEach((s, i) => headRow.append(el("th", outcome.winner === s ? "winner" : "", names[i])));
  thead.append(headRow);
  const body = document.createElement("tbody");
  if (outcome.card_points) {
    body.append(scoreRow(t("chouine.count.card_points"), seats.map((s) => String(outcome.card_points[s]))));
  }
  // A seat that has nothing on a row shows a dash, as for dix de der: no blank cells.
  const none = t("chouine.count.none");
  seats.forEach((s, i) => {
    for (const decl of outcome.declarations[s]) {
      const values = [none, none];
      // The chouine that ended the partie has no count: it won the partie (rules §9).
      const won = outcome.chouine === s && decl.kind === "chouine";
      values[i] = won ? t("chouine.count.wins_partie") : String(decl.points);
      const suit = decl.suit ? t(`card.suit.${decl.suit}`) : "";
      const className = won ? "declaration chouine" : "declaration";
      body.append(scoreRow(t(`chouine.declname.${decl.kind}`, { suit }), values, { className }));
    }
  });
  if (outcome.totals) {
    const dix = String(outcome.dix_de_der_points);
    body.append(scoreRow(t("chouine.count.dix_de_der"), seats.map((s) => (outcome.dix_de_der === s ? dix : none))));
    body.append(scoreRow(t("chouine.count.total"), seats.map((s) => String(outcome.totals[s])), { className: "total" }));
  }
  table.append(thead, body);

  const piles = document.getElementById("count-piles");
  piles.replaceChildren();
  if (outcome.chouine_cards) {
    const shown = document.createElement("div");
    shown.className = "pile";
    shown.append(el("h4", "", t("chouine.count.chouine_cards")));
    for (const card of outcome.chouine_cards) shown.append(cardImage(card, t));
    piles.append(shown);
  }
  seats.forEach((s, i) => {
    const pile = document.createElement("div");
    pile.className = "pile";
    pile.dataset.testid = `pile-${i === 0 ? "mine" : "theirs"}`;
    pile.append(el("h4", "", t("chouine.count.pile", { name: names[i] })));
    for (const card of outcome.piles?.[s] ?? []) pile.append(cardImage(card, t));
    piles.append(pile);
  });

  showReady(dialog, state, readyWords(state, t));
  openEndScreen(dialog, state);
  dialog.querySelector(".panel-body").scrollTop = 0;
}

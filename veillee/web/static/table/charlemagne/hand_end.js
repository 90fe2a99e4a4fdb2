// The hand-end screen: the contract and who bid it, made or not, why the hand stopped, tricks
// per side, the points scored and the match score; then "Deal the next hand". When the match
// is over its result is the heading, and the hand's count follows.
import { openEndScreen } from "../chat.js";

function cell(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function row(label, value, testid) {
  const tr = document.createElement("tr");
  tr.dataset.testid = testid;
  tr.append(cell("th", label), cell("td", value));
  return tr;
}

// At a shared table the next hand (or match) is dealt once every person has asked: the foot
// says whom it waits for, and the button of a seat that has asked waits too.
function renderReady(dialog, state, words) {
  const line = dialog.querySelector("#ready-line");
  const ready = state.shared ? state.ready : [];
  const mine = ready.includes(state.seat);
  const waiting = state.seats.flatMap((kind, seat) => (kind === "human" && !ready.includes(seat) ? [seat] : []));
  const names = waiting.map((seat) => words.seatLabel(state.view.deal, seat, state.seat));
  line.textContent = ready.length && names.length ? words.t("seats.ready.waiting", { names: names.join(", ") }) : "";
  line.hidden = !state.shared;
  dialog.querySelector("#next-hand").disabled = mine;
  dialog.querySelector("#new-match").disabled = mine;
}

export function showHandEnd(dialog, state, words) {
  const t = words.t;
  const { match, deal } = state.view;
  const outcome = deal.outcome;
  const me = state.seat;
  const mine = deal.teams[me];
  const $ = (id) => dialog.querySelector(`#${id}`);

  const over = match.over;
  $("end-title").textContent = over ? words.matchResult(state) : words.handHeadline(state);
  dialog.dataset.result = over ? "match" : outcome.made ? "made" : "failed";
  const sub = $("end-hand");
  sub.hidden = !over;
  sub.textContent = over ? words.handHeadline(state) : "";
  $("end-why").textContent = words.whyItEnded(state);
  const early = words.stoppedEarly(deal);
  $("end-early").textContent = early;
  $("end-early").hidden = !early;

  const table = $("end-table");
  table.replaceChildren(
    row(t("charlemagne.end.contract"), t("charlemagne.end.contract_by", {
      contract: words.contract(outcome.contract),
      name: words.who(deal, outcome.bidder, me),
    }), "end-contract"),
    row(t("charlemagne.end.result"), t(outcome.made ? "charlemagne.end.made" : "charlemagne.end.failed"), "end-result"),
    row(t("charlemagne.end.tricks"), t("charlemagne.end.tricks_value", { us: outcome.tricks[mine], them: outcome.tricks[1 - mine] }), "end-tricks"),
    row(t("charlemagne.end.points"), t("charlemagne.end.points_to", {
      points: outcome.points,
      side: words.side(deal, outcome.scoring_team, me),
    }), "end-points"),
    row(t("charlemagne.end.match"), t("charlemagne.end.match_score", {
      score: words.score(state),
      target: match.target,
    }), "end-match"),
  );
  $("next-hand").hidden = over;
  $("new-match").hidden = !over;
  renderReady(dialog, state, words);
  openEndScreen(dialog, state);
}

// The hand-end screen: the contract and who bid it, made or not, why the hand stopped, tricks
// per side, the points scored and the match score; then "Deal the next hand". When the match
// is over its result is the heading, and the hand's count follows.
import { openEndScreen, scoreRow, showReady } from "../end_screen.js";

// At a shared table the next hand (or match) is dealt once every person has asked: the foot
// says whom it waits for.
function readyWords(state, words) {
  const ready = state.shared ? state.ready : [];
  const waiting = state.seats.flatMap((kind, seat) => (kind === "human" && !ready.includes(seat) ? [seat] : []));
  const names = waiting.map((seat) => words.seatLabel(state.view.deal, seat, state.seat));
  return ready.length && names.length ? words.t("seats.ready.waiting", { names: names.join(", ") }) : "";
}

export function showHandEnd(dialog, state, words) {
  const t = words.t;
  const { match, deal } = state.view;
  const outcome = deal.outcome;
  const me = state.seat;
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
  // Each row: its words, then its value, and the row's test id.
  const rows = [
    ["charlemagne.end.contract", t("charlemagne.end.contract_by", {
      contract: words.contract(outcome.contract),
      name: words.who(deal, outcome.bidder, me),
    }), "end-contract"],
    ["charlemagne.end.result", t(outcome.made ? "charlemagne.end.made" : "charlemagne.end.failed"), "end-result"],
    ["charlemagne.end.tricks", words.tricksValue(state), "end-tricks"],
    ["charlemagne.end.points", t("charlemagne.end.points_to", {
      points: outcome.points,
      side: words.side(deal, outcome.scoring_team, me),
    }), "end-points"],
    ["charlemagne.end.match", t("charlemagne.end.match_score", {
      score: words.score(state),
      target: match.target,
    }), "end-match"],
  ];
  table.replaceChildren(...rows.map(([key, value, testid]) => scoreRow(t(key), [value], { testid })));
  showReady(dialog, state, readyWords(state, words));
  openEndScreen(dialog, state);
}

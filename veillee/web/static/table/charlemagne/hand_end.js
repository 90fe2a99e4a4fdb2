// The hand-end screen: the contract and who bid it, made or not, why the hand stopped, tricks
// per side, the points scored and the match score; then "Deal the next hand". When the match
// is over its result is the heading, and the hand's count follows.
import { openEndScreen, scoreRow, showReady } from "../end_screen.js";

// At a shared table the next hand (or match) is dealt once every person has asked: once one
// has, the foot says in a sentence whom it waits for, naming the seats as the table's other
// sentences do (Words.who): "Waiting for your partner…"; to a seat it waits for, "Waiting for
// you…", "Waiting for you, East and your partner…" (French puts "vous" first: "On vous
// attend…").
function readyWords(state, words) {
  const ready = state.shared ? state.ready : [];
  const me = state.seat;
  const deal = state.view.deal;
  const waiting = state.seats.flatMap((kind, seat) => (kind === "human" && !ready.includes(seat) ? [seat] : []));
  if (!ready.length || !waiting.length) return "";
  if (!waiting.includes(me)) return words.t("seats.ready.waiting", { names: words.whoAll(deal, waiting, me) });
  const names = words.whoAll(deal, [me, ...waiting.filter((seat) => seat !== me)], me);
  return words.plural("seats.ready.waiting_you", waiting.length, { names });
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

// The Charlemagne table page: renders the view the server sends (docs/charlemagne-views.md) and
// sends the player's choices (docs/protocol.md). It holds no rules: which actions are legal, and
// why a card may not be played, come with the view. Components, one per file, are under
// ./charlemagne/: the hand, the seats, the trick, the steps before the play, the hand-end screen,
// and the words.
import { cardName } from "./cards.js";
import { LiveConnection } from "../live/connection.js";
import { loadCatalog } from "../live/i18n.js";
import { Chat, hasChat } from "./chat.js";
import { setUpMenu } from "./menu.js";
import { Hand } from "./charlemagne/hand.js";
import { showHandEnd } from "./charlemagne/hand_end.js";
import { renderSeat } from "./charlemagne/seats.js";
import { Steps } from "./charlemagne/steps.js";
import { Trick } from "./charlemagne/trick.js";
import { Words, discardCount, place } from "./charlemagne/words.js";

const root = document.getElementById("table");
const $ = (id) => document.getElementById(id);
const tableId = root.dataset.tableId;
const lang = root.dataset.lang;
const trickPauseMs = Number(root.dataset.trickPauseMs || 0);
const tokenKey = `veillee.seat.${tableId}`;

let words = null;
let hand = null;
let steps = null;
let trick = null;
let conn = null;
let chat = null; // the table's chat, at a table of people (chat.js)
let current = null; // the last StateOut
let sending = false;
let connectionDown = false;
let picked = []; // cards chosen for a discard or the blind pass, in the order tapped
let pickedFor = null; // the version and phase the choice belongs to
const announced = new Set();

// ---- the refusal line: one message, cleared by the next state it no longer applies to ----

function showRefusal(text, kind) {
  const box = $("refusal");
  box.textContent = text;
  box.dataset.kind = kind;
  box.dataset.shown = "true";
}

function hideRefusal() {
  const box = $("refusal");
  box.textContent = "";
  box.dataset.shown = "false";
}

function announce(text) {
  if (text) $("live").textContent = text;
}

/** A reason code in words: the page's own sentence for Charlemagne, else the server's. */
function reasonText(code, fallback, deal) {
  const t = words.t;
  // Some reasons read better said for the step or the contract: "bid or pass first", or in a
  // Mulot (no trump suit named once the play has begun) that a joker may not be played.
  const variant = code === "wrong_phase" ? deal?.phase : deal?.phase === "play" && !deal.trump ? "jokers" : null;
  if (variant) {
    const key = `charlemagne.reason.${code}.${variant}`;
    if (t(key) !== key) return t(key);
  }
  const key = `charlemagne.reason.${code}`;
  const text = t(key);
  return text !== key ? text : fallback ?? t("reason.unknown");
}

// ---- sending -------------------------------------------------------------------------------

function send(change) {
  if (!conn) return;
  sending = true;
  root.dataset.state = "sending";
  hideRefusal();
  conn.send({ ...change, version: change.type === "new_match" ? undefined : current?.version });
}

function act(action) {
  if (connectionDown) {
    showRefusal(words.t("charlemagne.table.reconnecting"), "down");
    return;
  }
  if (sending) return;
  send({ type: "act", action });
}

// ---- the hand -------------------------------------------------------------------------------

function choosing(state) {
  const deal = state.view.deal;
  return deal.to_act === state.seat && (deal.phase === "discard" || deal.phase === "give");
}

function pickLimit(deal) {
  return deal.phase === "give" ? 1 : discardCount(deal);
}

function looksOf(state) {
  const deal = state.view.deal;
  const looks = {};
  const why = {};
  const mine = deal.to_act === state.seat;
  for (const card of deal.hand) {
    if (choosing(state)) {
      looks[card] = picked.includes(card) ? "picked" : "pick";
    } else if (mine && deal.phase === "play") {
      const reason = deal.refusals?.[card];
      looks[card] = reason ? "refused" : "pick";
      if (reason) why[card] = reasonText(reason, null, deal);
    } else if (mine) {
      looks[card] = "rest"; // the decision is in the middle of the table
      why[card] = reasonText(deal.refusals?.[card] ?? "wrong_phase", null, deal);
    } else {
      looks[card] = "rest";
      why[card] = notYourTurn(state);
    }
  }
  return { looks, why };
}

function notYourTurn(state) {
  const deal = state.view.deal;
  if (deal.to_act === null) return words.turnLine(state);
  return words.t("charlemagne.reason.not_your_turn_now", { turn: words.turnLine(state) });
}

function onTap(card) {
  const state = current;
  if (!state) return;
  const deal = state.view.deal;
  if (connectionDown) {
    showRefusal(words.t("charlemagne.table.reconnecting"), "down");
    return;
  }
  if (sending) return;
  if (choosing(state)) {
    const limit = pickLimit(deal);
    if (picked.includes(card)) {
      picked = picked.filter((c) => c !== card);
    } else if (picked.length >= limit) {
      showRefusal(words.plural("charlemagne.refusal.picked_enough", limit), "refused");
      return;
    } else {
      picked = [...picked, card];
    }
    hideRefusal();
    drawChoices(state);
    return;
  }
  const { looks, why } = looksOf(state);
  if (looks[card] === "pick") {
    hideRefusal();
    $("hand").querySelector(`[data-card="${card}"]`)?.classList.add("lifted");
    act(card);
    return;
  }
  showRefusal(why[card], looks[card]); // a dimmed or resting card changes nothing
}

function drawChoices(state) {
  const { looks, why } = looksOf(state);
  hand.render(state.view.deal.hand, looks, why);
  steps.render(state, picked);
}

// ---- rendering ------------------------------------------------------------------------------

function status(state) {
  const { match, deal } = state.view;
  if (match.over) return "match-over";
  if (deal.to_act === null) return "hand-over";
  return deal.to_act === state.seat ? "my-turn" : "waiting";
}

function renderInfo(state) {
  const deal = state.view.deal;
  $("score").textContent = words.score(state);
  $("score").setAttribute("aria-label", words.t("charlemagne.match.score_long", {
    score: words.score(state),
    target: state.view.match.target,
  }));
  $("match-line").textContent = words.matchLine(state);
  $("contract-line").textContent = words.contractLine(state);
  const trumps = words.trumpLine(deal);
  $("trump-line").textContent = trumps;
  $("tricks-line").textContent = deal.contract === null ? "" : words.tricksLine(state);
}

function renderMe(state) {
  const deal = state.view.deal;
  const me = state.seat;
  renderSeat($("seat-you"), me, state, words, state.seats);
  const note = $("hand-note");
  let text = "";
  if (deal.sitting_out === me && deal.hand.length === 0) {
    text = words.t("charlemagne.hand.sitting_out", { contract: words.contract(deal.contract) });
  } else if (deal.spread && deal.bidder === me) {
    text = words.t("charlemagne.hand.spread");
  }
  note.textContent = text;
  note.hidden = !text;
}

function announceNews(previous, state) {
  const deal = state.view.deal;
  const hand = state.view.match.hand;
  const me = state.seat;
  const news = [];
  for (const b of deal.bids) {
    const key = `${hand}:bid:${b.seat}`;
    if (!announced.has(key)) {
      announced.add(key);
      if (previous && b.seat !== me) {
        news.push(words.t("charlemagne.live.bid", { name: words.who(deal, b.seat, me), bid: words.bid(b.bid) }));
      }
    }
  }
  const played = [...(deal.last_trick?.cards ?? []), ...deal.trick];
  for (const entry of played) {
    const key = `${hand}:${entry.card}`;
    if (!announced.has(key)) {
      announced.add(key);
      if (previous && entry.seat !== me) {
        news.push(words.t("charlemagne.live.plays", { name: words.who(deal, entry.seat, me), card: cardName(entry.card, words.t) }));
      }
    }
  }
  const line = words.turnLine(state);
  if (!previous || words.turnLine(previous) !== line || news.length) news.push(line);
  announce(news.join(" "));
}

function render(state) {
  const previous = current;
  const moved = !previous || previous.version !== state.version;
  current = state;
  sending = false;
  const deal = state.view.deal;
  const me = state.seat;
  if (moved) hideRefusal(); // a refusal belongs to the state it was made in
  if (!choosing(state) || pickedFor !== `${state.view.match.hand}:${deal.phase}`) picked = [];
  pickedFor = choosing(state) ? `${state.view.match.hand}:${deal.phase}` : null;
  picked = picked.filter((c) => deal.hand.includes(c));

  root.dataset.version = String(state.version);
  root.dataset.phase = deal.phase;
  root.dataset.trick = String(deal.trick_number);
  root.dataset.trump = deal.trump ?? "";
  root.dataset.hand = String(state.view.match.hand);
  root.dataset.mode = deal.phase === "play" || deal.phase === "over" ? "play" : "steps";

  renderInfo(state);
  for (const seat of [0, 1, 2, 3]) {
    if (seat === me) continue;
    renderSeat($(`seat-${place(seat, me)}`), seat, state, words, state.seats);
  }
  renderMe(state);
  drawChoices(state);
  $("turn-line").textContent = connectionDown ? words.t("charlemagne.table.reconnecting") : words.turnLine(state);

  const end = $("hand-end");
  if (!deal.outcome && end.open) end.close();
  root.dataset.state = deal.outcome ? "waiting" : status(state);
  trick.render(state, !previous, () => {
    if (current !== state) return;
    if (deal.outcome) showHandEnd(end, state, words);
    root.dataset.state = status(state);
  });
  announceNews(previous, state);
}

// ---- connection status -----------------------------------------------------------------------

let bannerTimer = null;

function showStatus(kind) {
  const banner = $("banner");
  clearTimeout(bannerTimer);
  if (kind === "reconnecting") {
    connectionDown = true;
    root.dataset.connection = "down";
    banner.textContent = words.t("charlemagne.table.reconnecting");
    banner.hidden = false;
    $("turn-line").textContent = words.t("charlemagne.table.reconnecting");
  } else if (kind === "back") {
    connectionDown = false;
    root.dataset.connection = "up";
    banner.textContent = words.t("charlemagne.table.back");
    banner.hidden = false;
    hideRefusal(); // a "Reconnecting…" refusal from a tap while down is stale now
    if (current) $("turn-line").textContent = words.turnLine(current);
    bannerTimer = setTimeout(() => { banner.hidden = true; }, 1500);
  } else if (kind === "lost") {
    banner.hidden = true;
    $("lost").hidden = false;
    root.dataset.state = "lost";
  }
}

async function main() {
  setUpMenu($("menu"));
  const t = await loadCatalog(lang);
  words = new Words(t);
  const token = sessionStorage.getItem(tokenKey);
  if (!token) {
    showStatus("lost");
    return;
  }
  hand = new Hand($("hand"), t, onTap);
  steps = new Steps($("steps"), words, act);
  trick = new Trick($("trick"), $("last-trick"), words, trickPauseMs);
  const end = $("hand-end");
  end.addEventListener("cancel", (event) => event.preventDefault());
  end.addEventListener("close", () => hand.focusCurrent());
  $("next-hand").addEventListener("click", () => { end.close(); send({ type: "next" }); });
  $("new-match").addEventListener("click", () => { end.close(); send({ type: "new_match", options: {} }); });
  conn = new LiveConnection({
    path: `/ws/tables/${encodeURIComponent(tableId)}`,
    token,
    lang,
    snapshot: "state",
    onSnapshot: (state) => {
      if (!chat && hasChat(state)) {
        const seatName = (seat) => words.seatLabel(state.view.deal, seat, state.seat); // names never change
        chat = new Chat({ conn, t, lang, tableId, seat: state.seat, seatName });
      }
      render(state);
    },
    onError: (error) => {
      sending = false;
      for (const card of $("hand").querySelectorAll(".lifted")) card.classList.remove("lifted");
      if (current) root.dataset.state = status(current);
      const text = reasonText(error.code, error.message, current?.view.deal);
      showRefusal(text, "refused");
      announce(text);
    },
    onStatus: (kind) => showStatus(kind === "offline" ? "reconnecting" : kind),
  });
  conn.open();
}

main();

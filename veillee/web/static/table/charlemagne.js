// The Charlemagne table page: renders the view the server sends (docs/charlemagne-views.md) and
// sends the player's choices (docs/protocol.md). It holds no rules: which actions are legal, and
// why a card may not be played, come with the view. Components, one per file, are under
// ./charlemagne/: the hand, the seats, the trick, the steps before the play, the hand-end screen,
// and the words.
//
// At a shared table (docs/protocol.md §1b) the page first takes the seat its link names when
// this browser holds none (the token then lives in localStorage: reopening the link comes back
// to the seat), or says the seat is taken; while seats are open it shows the waiting screen,
// one link per open seat (seat_links.js) and, for the table's maker, the computer to fill one;
// then who is here, and who is ready for the next hand.
import { cardName } from "./cards.js";
import { LiveConnection } from "../live/connection.js";
import { loadCatalog } from "../live/i18n.js";
import { ConnectionBanner } from "./banner.js";
import { Chat, hasChat, typingField } from "./chat.js";
import { setUpMenu } from "./menu.js";
import { Voice, hasVoice } from "./voice.js";
import { Hand } from "./charlemagne/hand.js";
import { showHandEnd } from "./charlemagne/hand_end.js";
import { renderSeat } from "./charlemagne/seats.js";
import { Steps } from "./charlemagne/steps.js";
import { Trick } from "./charlemagne/trick.js";
import { Words, discardCount, place } from "./charlemagne/words.js";
import { SeatLinks, countDown } from "./seat_links.js";
import { linkSeat, lostWords, seatToken, takeSeat } from "./seats.js";

const root = document.getElementById("table");
const banner = new ConnectionBanner(document.getElementById("banner"), root);
const $ = (id) => document.getElementById(id);
const tableId = root.dataset.tableId;
const lang = root.dataset.lang;
const trickPauseMs = Number(root.dataset.trickPauseMs || 0);
const game = root.dataset.game;

let words = null;
let hand = null;
let steps = null;
let trick = null;
let conn = null;
let voice = null; // voice at a shared table (voice.js)
let chat = null; // the table's chat, at a table of people (chat.js)
let current = null; // the last StateOut
let sending = false;
let connectionDown = false;
let picked = []; // cards chosen for a discard or the blind pass, in the order tapped
let pickedFor = null; // the version and phase the choice belongs to
const announced = new Set();
let here = null; // the seats with a page open (shared tables), from the server's "presence"
let seatLinks = null;
let waitingTimer = null;
let askedNext = false; // this page asked for the next hand (or match) at a shared table: not dealt yet
const MAKER = 0; // the seat of whoever made a shared table (docs/protocol.md §1b)

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

// ---- sending -------------------------------------------------------------------------------

function send(change) {
  if (!conn) return;
  sending = true;
  if (!current?.seated.includes(false)) root.dataset.state = "sending"; // the waiting screen stays
  hideRefusal();
  // These go without a version: the seats' presses must not refuse each other.
  const unversioned = ["new_match", "next", "fill"].includes(change.type);
  conn.send({ ...change, version: unversioned ? undefined : current?.version });
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
      if (reason) why[card] = words.reason(reason, deal, undefined, card);
    } else if (mine) {
      looks[card] = "rest"; // the decision is in the middle of the table
      why[card] = words.reason(deal.refusals?.[card] ?? "wrong_phase", deal);
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
      const why = words.plural("charlemagne.refusal.picked_enough", limit);
      // Said where the player choosing looks: the discard's count, beside its button (the
      // blind pass, one card and no count, on the refusal line).
      if (deal.phase === "discard") {
        hideRefusal();
        steps.render(state, picked, why);
        announce(why);
      } else {
        showRefusal(why, "refused");
      }
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
  if (state.seated.includes(false)) return "seating";
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
  renderSeat($("seat-you"), me, state, words, state.seats, here);
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

function renderSeats(state) {
  for (const seat of [0, 1, 2, 3]) {
    if (seat === state.seat) continue;
    renderSeat($(`seat-${place(seat, state.seat)}`), seat, state, words, state.seats, here);
  }
  renderMe(state);
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
  renderSeats(state);
  const seating = renderSeating(state);
  // Before the hand is drawn: the waiting screen hides the table, and the hand is laid out for
  // the width it has once shown.
  root.dataset.state = deal.outcome && !seating ? "waiting" : status(state);
  drawChoices(state);
  $("turn-line").textContent = connectionDown ? words.t("charlemagne.table.reconnecting") : words.turnLine(state);

  const end = $("hand-end");
  if (!deal.outcome) askedNext = false;
  if (!deal.outcome && end.open) end.close();
  trick.render(state, !previous, () => {
    if (current !== state) return;
    if (deal.outcome) showHandEnd(end, readyShown(state), words);
    root.dataset.state = status(state);
  });
  announceNews(previous, state);
}

/** ``state`` as the hand-end screen shows it: once this page has asked for the next hand, its
 * seat counts as ready before the server says so (its button waits, the foot no longer names it). */
function readyShown(state) {
  if (!askedNext || state.ready.includes(state.seat)) return state;
  return { ...state, ready: [...state.ready, state.seat] };
}

/** Ask for the next hand (or match) at a shared table: said at once on the hand-end screen. */
function askForNext(end) {
  askedNext = true;
  showHandEnd(end, readyShown(current), words);
  send({ type: "next" });
}

// ---- a shared table: the seat links while seats are open, and who is here --------------------

/** The waiting screen while a seat is open; whether it is shown. */
function renderSeating(state) {
  const seating = state.seated.includes(false);
  const box = $("waiting");
  box.hidden = !seating;
  clearInterval(waitingTimer);
  if (!seating) return false;
  const t = words.t;
  const me = state.seat;
  const maker = me === MAKER;
  $("waiting-send").textContent = t(maker ? "seats.waiting.send" : "seats.waiting.guest");
  // Across the table first, then the left and the right opponents.
  const rows = [2, 1, 3].map((k) => {
    const seat = (me + k) % 4;
    const where = place(seat, me);
    let kind = "seated";
    if (!state.seated[seat]) kind = "open";
    else if (state.seats[seat] === "computer") kind = "computer";
    return {
      seat,
      place: where,
      label: t(`seats.place.${where}`),
      status: kind,
      url: `${root.dataset.link}?seat=${seat}`,
      shareText: t(`seats.share_text.${where}`),
    };
  });
  seatLinks.render(rows, maker);
  $("fill-note").hidden = !maker;
  waitingTimer = countDown($("waiting-time"), state.expires_at, t);
  return true;
}

function onPresence(seats) {
  const before = here;
  here = seats;
  if (!current || !current.shared) return;
  renderSeats(current);
  if (before === null) return;
  const deal = current.view.deal;
  const news = [];
  for (const seat of [1, 2, 3].map((k) => (current.seat + k) % 4)) {
    if (current.seats[seat] !== "human" || before.includes(seat) === here.includes(seat)) continue;
    const key = here.includes(seat) ? "seats.presence.back" : "seats.presence.went";
    news.push(words.t(key, { name: words.seatLabel(deal, seat, current.seat) }));
  }
  announce(news.join(" "));
}

/** No seat here yet: take the one this link names (or the lowest open one); the token, or null
 * once the page has said why not. */
async function sitDown() {
  const taken = await takeSeat(tableId, linkSeat(), root.dataset.seatRefusal);
  if (taken.token) return taken.token;
  const said = { seat_taken: "seats.taken", seat_computer: "seats.computer", table_full: "seats.full" };
  if (said[taken.code]) {
    $("taken-text").textContent = words.t(said[taken.code]);
    $("taken").hidden = false;
    root.dataset.state = "full";
  } else {
    showStatus("lost", taken.code);
  }
  return null;
}

// ---- connection status -----------------------------------------------------------------------

function showStatus(kind, why) {
  if (kind === "reconnecting") {
    connectionDown = true;
    banner.down(words.t("charlemagne.table.reconnecting"));
    $("turn-line").textContent = words.t("charlemagne.table.reconnecting");
  } else if (kind === "back") {
    connectionDown = false;
    banner.back(words.t("charlemagne.table.back"));
    hideRefusal(); // a "Reconnecting…" refusal from a tap while down is stale now
    if (current) $("turn-line").textContent = words.turnLine(current);
  } else if (kind === "lost") {
    banner.hide();
    clearInterval(waitingTimer);
    $("waiting").hidden = true;
    $("lost-text").textContent = words.t(lostWords(game, why));
    // A shared table nobody sat at within its time: say so.
    if (current && current.seated.includes(false)) $("lost-text").textContent = words.t("seats.waiting.expired");
    $("lost").hidden = false;
    root.dataset.state = "lost";
  }
}

async function main() {
  setUpMenu($("menu"));
  const t = await loadCatalog(lang);
  words = new Words(t);
  const token = seatToken(tableId) ?? (await sitDown());
  if (!token) return;
  seatLinks = new SeatLinks($("seat-links"), t, {
    onCopied: () => { $("copied").textContent = t("seats.copied"); },
    onFill: (seat) => send({ type: "fill", seats: [seat] }),
  });
  hand = new Hand($("hand"), t, onTap);
  steps = new Steps($("steps"), words, act, (text) => showRefusal(text, "refused"));
  trick = new Trick($("trick"), $("last-trick"), words, trickPauseMs);
  const end = $("hand-end");
  end.addEventListener("cancel", (event) => event.preventDefault());
  end.addEventListener("close", () => {
    if (!typingField()) hand.focusCurrent(); // a line being typed keeps the keyboard
  });
  // At a shared table the hand-end screen stays until every person is ready (its foot says for
  // whom it waits), and a new match is agreed the same way.
  $("next-hand").addEventListener("click", () => {
    if (current.shared) {
      askForNext(end);
      return;
    }
    end.close();
    send({ type: "next" });
  });
  $("new-match").addEventListener("click", () => {
    if (current.shared) {
      askForNext(end);
      return;
    }
    end.close();
    send({ type: "new_match", options: {} });
  });
  conn = new LiveConnection({
    path: `/ws/tables/${encodeURIComponent(tableId)}`,
    token,
    lang,
    snapshot: "state",
    onSnapshot: (state) => {
      if (!voice && hasVoice(state)) {
        const seatName = (seat) => words.seatLabel((current || state).view.deal, seat, state.seat);
        voice = new Voice({ conn, t, seat: state.seat, seats: state.seats.length, seatName });
      }
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
      if (askedNext) {
        // The request for the next hand was refused: the screen says again whom it waits for.
        askedNext = false;
        if ($("hand-end").open) showHandEnd($("hand-end"), current, words);
      }
      const text = words.reason(error.code, current?.view.deal, error.message);
      if (current && current.seated.includes(false)) $("copied").textContent = text;
      showRefusal(text, "refused");
      announce(text);
    },
    onStatus: (kind, why) => showStatus(kind === "offline" ? "reconnecting" : kind, why),
    onOther: (message) => {
      if (message.type === "presence") onPresence(message.here);
    },
  });
  conn.open();
}

main();

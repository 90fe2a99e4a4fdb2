// "Watch a partie go by" on a how-to page: Play makes a demonstration table (the computer on
// every seat, POST /api/demos) and watches it through the one table connection as its
// spectator, every hand face up. The page sets the pace: it asks for the next move ("step") a
// moment after showing the last one; Pause stops asking, Step asks once, Faster shortens the
// moment. Each move gets a caption built from the server's view (card points, declarations,
// the count come with it: the page holds no rules). The token lives in this page only: closing
// it closes the socket, and the server drops the table.
import { cardImage, cardName } from "../table/cards.js";
import { declarationLabel } from "../table/chouine/words.js";
import { LiveConnection } from "../live/connection.js";
import { loadCatalog } from "../live/i18n.js";
import { $, el } from "../live/dom.js";

const section = document.getElementById("watch-section");
const game = section.dataset.game;
const lang = document.body.dataset.lang;
const controls = { play: $("watch-play"), pause: $("watch-pause"), step: $("watch-step"), faster: $("watch-faster") };
const caption = $("watch-caption");
const board = $("watch-board");
// The human pace the tables use (settings bot_delay_ms, trick_pause_ms); Faster divides it.
const delayMs = Number(section.dataset.botDelayMs || 0);
const trickPauseMs = Number(section.dataset.trickPauseMs || 0);
const FASTER = 4;

let t = (key) => key;
let conn = null;
let current = null; // the last state shown
let timer = null;
let asking = false; // a step is on the wire (shown as the section's data-asking)
let paused = false;
let faster = false;
let over = false;

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function lower(text) {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

// ---- words ----------------------------------------------------------------------------------

function seatName(seat) {
  return game === "chouine" ? t(`guide.watch.chouine.seat.${seat}`) : t(`charlemagne.seat.${"NESW"[seat]}`);
}

function card(code) {
  return lower(cardName(code, t));
}

function cardList(codes) {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(codes.map(card));
}

// The caption of the card ``plays[index]``: a lead if it is the first card of its trick.
function playCaption(plays, index, brisques = true) {
  const play = plays[index];
  const kind = index === 0 || plays[index - 1].trick !== play.trick ? "lead" : "follow";
  const values = { name: seatName(play.seat), card: card(play.card), points: play.points };
  return t(brisques && play.brisque ? `guide.cap.${kind}.brisque` : `guide.cap.${kind}`, values);
}

function declarationWords(decl) {
  return lower(declarationLabel(decl, t));
}

// What happened between two Chouine views (the partie's), in words.
function chouineCaptions(before, after) {
  if (!before) {
    return [t("guide.cap.chouine.deal", { name: seatName(after.dealer), suit: t(`card.suit.${after.trump}`), card: card(after.turn_up) })];
  }
  const out = [];
  const swaps = after.taken_turn_ups.filter((taken) => taken.how === "swap");
  if (swaps.length > before.taken_turn_ups.filter((taken) => taken.how === "swap").length) {
    const swap = swaps[swaps.length - 1];
    out.push(t("guide.cap.swap", { name: seatName(swap.seat), card: card(swap.card) }));
  } else if (before.prompt && !after.prompt) {
    out.push(t("guide.cap.carry_on", { name: seatName(before.to_act) }));
  }
  for (let index = before.plays.length; index < after.plays.length; index += 1) {
    const play = after.plays[index];
    out.push(playCaption(after.plays, index));
    if (play.declaration) {
      const key = play.declaration.suit === after.trump ? "guide.cap.declare.trump" : "guide.cap.declare";
      out.push(t(key, { name: seatName(play.seat), declaration: declarationWords(play.declaration) }));
    }
  }
  if (after.tricks.length > before.tricks.length) {
    const trick = after.tricks[after.tricks.length - 1];
    out.push(t("guide.cap.chouine.trick", { name: seatName(trick.winner), n: trick.points }));
  }
  if (before.phase === 1 && after.phase === 2) out.push(t("guide.cap.talon_empty"));
  if (after.prompt && !before.prompt) out.push(t("guide.cap.prompt", { name: seatName(after.to_act) }));
  if (after.outcome && !before.outcome) {
    const result = after.outcome;
    if (result.chouine !== null && result.chouine !== undefined) {
      out.push(t("guide.cap.chouine.chouine", { name: seatName(result.chouine) }));
    } else if (result.winner === null) {
      out.push(t("guide.cap.chouine.tie", { a: result.totals[0] }));
    } else {
      const other = result.totals.find((_, seat) => seat !== result.winner);
      out.push(t("guide.cap.chouine.won", { name: seatName(result.winner), a: result.totals[result.winner], b: other }));
    }
  }
  return out;
}

function bidWords(bid) {
  return t(`charlemagne.bid.${bid}`);
}

// What happened between two Charlemagne views (the hand's), in words.
function charlemagneCaptions(before, after) {
  if (!before) return [t("guide.cap.charlemagne.deal", { name: seatName(after.dealer) })];
  const out = [];
  for (const { seat, bid } of after.bids.slice(before.bids.length)) {
    out.push(bid === "pass" ? t("guide.cap.pass", { name: seatName(seat) }) : t("guide.cap.bid", { name: seatName(seat), bid: bidWords(bid) }));
  }
  if (after.contract && !before.contract) {
    out.push(t("guide.cap.contract", { bid: bidWords(after.contract), name: seatName(after.bidder) }));
    if (after.sitting_out !== null) out.push(t("guide.cap.sits_out", { name: seatName(after.sitting_out) }));
  }
  if (after.choice && !before.choice) out.push(t(`guide.cap.choice.${after.choice}`, { name: seatName(after.bidder) }));
  if (after.kitty_count === 0 && before.kitty_count === 2 && after.kitty) {
    out.push(t("guide.cap.kitty", { name: seatName(after.bidder), cards: cardList(after.kitty) }));
  }
  if (after.blind_card && !before.blind_card) {
    out.push(t("guide.cap.blind", { name: seatName(after.sitting_out), card: card(after.blind_card) }));
  }
  if (after.discards.length && !before.discards.length) {
    out.push(t("guide.cap.discard", { name: seatName(after.bidder), cards: cardList(after.discards) }));
  }
  if (after.trump && !before.trump) out.push(t("guide.cap.trump", { name: seatName(after.bidder), suit: t(`card.suit.${after.trump}`) }));
  for (let index = before.plays.length; index < after.plays.length; index += 1) {
    out.push(playCaption(after.plays, index, false));
  }
  if (after.tricks.length > before.tricks.length) {
    const trick = after.tricks[after.tricks.length - 1];
    out.push(t("guide.cap.charlemagne.trick", { name: seatName(trick.winner), ns: after.tricks_won[0], ew: after.tricks_won[1] }));
  }
  if (after.outcome && !before.outcome) {
    const result = after.outcome;
    const values = { bid: bidWords(result.contract), points: result.points, team: t(`guide.cap.charlemagne.team.${result.scoring_team}`) };
    out.push(t(result.made ? "guide.cap.made" : "guide.cap.failed", values));
  }
  return out;
}

// ---- the board ------------------------------------------------------------------------------

function cardRow(codes, label) {
  const row = el("div", "watch-cards");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", label);
  for (const code of codes) row.append(cardImage(code, t));
  return row;
}

function seatBlock(deal, seat) {
  const block = el("div", "watch-seat");
  block.dataset.seat = String(seat);
  const name = seatName(seat);
  let label = seat === deal.dealer ? t("guide.watch.dealer", { name }) : name;
  if (deal.sitting_out === seat) label = t("guide.watch.sitting_out", { name });
  block.append(el("p", "watch-name", label));
  block.append(cardRow(deal.hands[seat], t("guide.watch.hand", { name })));
  const declarations = (deal.declarations || [])[seat] || [];
  if (declarations.length) {
    block.append(el("p", "watch-declarations", declarations.map((d) => declarationWords(d)).join(" · ")));
  }
  return block;
}

function middleBlock(deal) {
  const middle = el("div", "watch-middle");
  if (game === "chouine") {
    const talon = el("div", "watch-talon");
    // The talon's count with the trumps beneath, then the turn-up named as the trick's cards
    // are (it is no card played).
    const words = el("div", "watch-talon-words");
    words.append(
      el("p", "", t("guide.watch.talon", { n: deal.talon_count })),
      el("p", "watch-trumps", t("chouine.table.trump", { suit: t(`card.suit.${deal.trump}`) })),
    );
    talon.append(words);
    if (deal.turn_up) {
      const turnUp = el("figure", "watch-played watch-turn-up");
      turnUp.append(cardImage(deal.turn_up, t), el("figcaption", "", t("guide.watch.turn_up")));
      talon.append(turnUp);
    }
    middle.append(talon);
  } else if (deal.contract) {
    middle.append(el("p", "", t("guide.cap.contract", { bid: bidWords(deal.contract), name: seatName(deal.bidder) })));
  }
  const shown = deal.trick.length ? deal.trick : (deal.last_trick ? deal.last_trick.cards : []);
  const trick = el("div", "watch-trick");
  trick.setAttribute("role", "group");
  trick.setAttribute("aria-label", t("guide.watch.trick"));
  for (const { seat, card: code } of shown) {
    const played = el("figure", "watch-played");
    played.append(cardImage(code, t), el("figcaption", "", seatName(seat)));
    trick.append(played);
  }
  middle.append(trick);
  return middle;
}

function render(state) {
  const deal = state.view.deal;
  clear(board);
  // North at the top and South at the bottom; at four, West and East between them.
  const [top, sides, bottom] = deal.hands.length === 2 ? [[0], [], [1]] : [[0], [3, 1], [2]];
  for (const seat of top) board.append(seatBlock(deal, seat));
  if (sides.length) {
    const row = el("div", "watch-sides");
    for (const seat of sides) row.append(seatBlock(deal, seat));
    board.append(row);
  }
  board.append(middleBlock(deal));
  for (const seat of bottom) board.append(seatBlock(deal, seat));
  const appearing = board.hidden;
  board.hidden = false;
  if (appearing) bringIntoView();
}

// The board as it first appears, with the controls and the caption above it, brought into view
// when it falls below the fold (a phone: Play sits at the bottom of the screen). Once only: the
// reader scrolls as they like afterwards.
function bringIntoView() {
  const bottom = board.getBoundingClientRect().top + Math.min(board.offsetHeight, 200);
  if (bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  section.querySelector(".watch-controls").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

// ---- pace and controls ----------------------------------------------------------------------

function setControls() {
  const running = conn !== null && !over;
  controls.pause.disabled = !running;
  controls.step.disabled = !running;
  controls.faster.disabled = !running;
  controls.pause.setAttribute("aria-pressed", String(paused));
  controls.faster.setAttribute("aria-pressed", String(faster));
  section.dataset.state = over ? "over" : paused ? "paused" : running ? "playing" : "idle";
}

function schedule() {
  clearTimeout(timer);
  if (paused || over || !current) return;
  const deal = current.view.deal;
  const gathered = !deal.trick.length && deal.last_trick ? trickPauseMs : 0;
  timer = setTimeout(ask, (delayMs + gathered) / (faster ? FASTER : 1));
}

function setAsking(on) {
  asking = on;
  section.dataset.asking = String(on);
}

function ask() {
  if (asking || over || !conn || !current) return;
  setAsking(true);
  conn.send({ type: "step", version: current.version });
}

function show(state) {
  const before = current ? current.view.deal : null;
  current = state;
  setAsking(false);
  section.dataset.version = String(state.version);
  const deal = state.view.deal;
  const words = game === "chouine" ? chouineCaptions(before, deal) : charlemagneCaptions(before, deal);
  if (words.length) caption.textContent = words.join(" ");
  render(state);
  if (deal.outcome) finish();
  else schedule();
}

function finish() {
  over = true;
  // Nothing more to watch: closing the socket lets the server drop the table now.
  stop();
  $("watch-end").hidden = false;
  controls.play.textContent = t("guide.watch.again");
  setControls();
}

function stop() {
  clearTimeout(timer);
  if (conn) {
    conn.closed = true;
    conn.drop();
  }
  conn = null;
}

async function start() {
  stop();
  current = null;
  setAsking(false);
  over = false;
  paused = false;
  $("watch-end").hidden = true;
  $("watch-error").hidden = true;
  controls.play.disabled = true;
  try {
    const response = await fetch("/api/demos", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const demo = await response.json();
    conn = new LiveConnection({
      path: `/ws/tables/${demo.table_id}`,
      token: demo.token,
      lang,
      snapshot: "state",
      onSnapshot: show,
      onError: (message) => {
        setAsking(false);
        if (message.code === "deal_over") finish();
        else if (message.code !== "version_conflict") schedule();
      },
      onStatus: (status) => {
        if (status === "lost" && !over) {
          caption.textContent = t("guide.watch.lost");
          stop();
          setControls();
        }
      },
    });
    conn.open();
  } catch {
    $("watch-error").hidden = false;
  } finally {
    controls.play.disabled = false;
    setControls();
  }
}

controls.play.addEventListener("click", start);
controls.pause.addEventListener("click", () => {
  paused = !paused;
  setControls();
  schedule();
});
controls.step.addEventListener("click", () => {
  paused = true;
  setControls();
  clearTimeout(timer);
  ask();
});
controls.faster.addEventListener("click", () => {
  faster = !faster;
  setControls();
  schedule();
});
// Leaving the page ends the demonstration at once (the server drops its table).
window.addEventListener("pagehide", stop);

loadCatalog(lang).then((translate) => {
  t = translate;
  setControls();
});

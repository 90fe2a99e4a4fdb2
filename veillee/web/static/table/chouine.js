// The Chouine table page: renders the view the server sends (docs/chouine-views.md) and sends
// the player's choices. It holds no rules and no rule numbers: which cards may be played and
// how (with which declaration, for how many points, in which order), why the others may not,
// and what the count adds up to, all come with the view; the match lengths on offer come from
// the game's declaration (rendered into the page).
//
// At a shared table (two friends, docs/protocol.md §1b) the page also takes its seat through the
// link when this browser has none, shows the link and the time left while the other seat is
// open, whether the friend is here (presence), and who is ready for the next partie.
//
// Two lessons hold the page together (shared/UI.md): a message lives as long as the state it is
// about (a refusal goes with the version it was shown at), and nothing above the hand changes
// height while the player can tap (table.css reserves every row).
import { cardBack, cardButton, cardImage, cardLabel, cardName } from "./cards.js";
import { LiveConnection } from "../live/connection.js";
import { loadCatalog } from "../live/i18n.js";
import { ConnectionBanner } from "./banner.js";
import { Chat, hasChat, typingField } from "./chat.js";
import { showCount } from "./count.js";
import { setUpMenu } from "./menu.js";
import { countDown } from "./seat_links.js";
import { keepSeat, linkSeat, lostWords, seatToken, takeSeat } from "./seats.js";
import { Voice, hasVoice } from "./voice.js";

const root = document.getElementById("table");
const banner = new ConnectionBanner(document.getElementById("banner"), root);
const $ = (id) => document.getElementById(id);
const tableId = root.dataset.tableId;
const lang = root.dataset.lang;
const trickPauseMs = Number(root.dataset.trickPauseMs || 0);

let t = (key) => key;
let current = null; // the last StateOut
let conn = null;
let voice = null; // voice at a shared table (voice.js)
let chat = null; // the table's chat, at a table of people (chat.js)
let sending = false;
let gatherTimer = null;
let shownTrickKey = null;
let gathering = false;
const announced = new Set();
let restartChoice = null; // the restart waiting for the player's confirmation
let connectionDown = false;
const FROM_SERVER = "next state";
let refusalVersion = null; // the version the refusal on show is about (or FROM_SERVER)
let here = null; // the seats with a page open (shared tables), from the server's "presence"
let waitingTimer = null;

// Something of the match would be lost by a restart: a partie won, or a card played or declared.
function inProgress(state) {
  if (!state) return false;
  const { match, deal } = state.view;
  if (match.over) return false;
  return match.wins.some((w) => w > 0) || deal.trick_number > 1 || deal.trick.length > 0
    || deal.piles.some((p) => p > 0);
}

// A declaration as the view gives it ({kind, suit or null, points}) in words.
function declarationLabel(decl) {
  const suit = decl.suit ? t(`card.suit.${decl.suit}`) : "";
  return t(`chouine.decl.${decl.kind}`, { suit, points: decl.points });
}

// Whether the other seat is a person (a shared table) rather than the computer.
function friendly(state) {
  return state.seats[1 - state.seat] !== "computer";
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function announce(text) {
  $("live").textContent = text;
}

// A refusal is about the state on show: the next version clears it (see render). The server's
// refusals are about the state it sends right after them (unchanged, or the table as it now
// stands), so they live until the version after that one.
function showRefusal(text, about = current ? current.version : null) {
  const box = $("refusal");
  box.textContent = text;
  box.hidden = false;
  refusalVersion = about;
}

function hideRefusal() {
  $("refusal").hidden = true;
  refusalVersion = null;
}

// ---- sending -----------------------------------------------------------------------------

function send(change) {
  if (!conn) return;
  sending = true;
  root.dataset.state = "sending";
  hideRefusal();
  // "next" goes without a version: the two seats' presses must not refuse each other.
  const unversioned = change.type === "new_match" || change.type === "next";
  conn.send({ ...change, version: unversioned ? undefined : current?.version });
}

function play(action, card) {
  const button = $("hand").querySelector(`[data-card="${card}"]`);
  if (button) button.classList.add("lifted");
  send({ type: "act", action });
}

function choicesFor(card) {
  return current.view.deal.card_choices?.[card] ?? [];
}

// The ways to play ``card``, as the view orders them (a chouine first, the plain play last).
function chooseDeclaration(card, ways) {
  $("chooser-title").textContent = t("chouine.table.chooser.title", { card: cardName(card, t) });
  const box = $("chooser-options");
  clear(box);
  for (const way of ways) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = way.action;
    if (way.declaration) {
      button.className = "primary";
      button.dataset.testid = "declare-option";
      button.textContent = declarationLabel(way.declaration);
    } else {
      button.dataset.testid = "play-plain";
      button.textContent = t("chouine.table.chooser.plain");
    }
    button.addEventListener("click", () => { $("chooser").close(); play(way.action, card); });
    box.append(button);
  }
  $("chooser").showModal();
}

// While the connection is down the banner says so: a tap makes it speak up, and says nothing
// anywhere else (one message per fact).
function nudgeBanner() {
  announce(banner.nudge());
}

// A double click (or double tap) that played a card is one gesture: its second click says and
// sends nothing, whether the server has answered meanwhile (the hand has moved on under the
// finger) or not. So is a tap on the card this page is still sending: it is already on its way.
let lastTapPlayed = false;

function onCardClick(card, event) {
  if (event.detail > 1 && lastTapPlayed) return;
  lastTapPlayed = false;
  // While the connection is down a tap is not lost: a legal card is sent when it is back, made
  // on the version on show (the server refuses it, in words, if the table has moved on).
  if (connectionDown) nudgeBanner();
  if (sending && $("hand").querySelector(".lifted")?.dataset.card === card) return;
  const ways = choicesFor(card);
  if (sending || ways.length === 0) {
    const reason = sending ? "not_your_turn" : current.view.deal.refusals?.[card] ?? "not_your_turn";
    showRefusal(t(`reason.${reason}`));
    return; // a dimmed card changes nothing
  }
  hideRefusal();
  if (ways.length === 1) {
    lastTapPlayed = true;
    play(ways[0].action, card);
  } else chooseDeclaration(card, ways);
}

// ---- rendering ---------------------------------------------------------------------------

// Roving tabindex: exactly one card of the hand is tabbable. It stays on the card that had it
// (or on the card now at its place when that one was played), and focus comes back to the hand
// after each render when it was there before (a played card's button is gone, so focus fell out).
let rovingIndex = 0;
let focusInHand = false;

function renderHand(deal, mine) {
  const hand = $("hand");
  const before = [...hand.querySelectorAll("button.card")];
  const active = document.activeElement;
  const focusedIndex = before.indexOf(active);
  if (focusedIndex >= 0) rovingIndex = focusedIndex;
  const previousCard = before[rovingIndex]?.dataset.card;
  clear(hand);
  let tabbable = deal.hand.indexOf(previousCard);
  if (tabbable < 0) tabbable = Math.max(0, Math.min(rovingIndex, deal.hand.length - 1));
  rovingIndex = tabbable;
  deal.hand.forEach((card, index) => {
    const button = cardButton(card, t);
    const legal = mine && choicesFor(card).length > 0;
    const reason = deal.refusals?.[card] ?? "not_your_turn";
    button.dataset.legal = String(legal);
    // Two looks for two meanings: a card refused by a rule is dimmed, hatched and marked;
    // a hand at rest (not your turn) keeps its faces as they are.
    if (!legal && mine && reason !== "not_your_turn") button.classList.add("refused");
    button.tabIndex = index === tabbable ? 0 : -1;
    if (!legal) {
      const words = t(`reason.${reason}`);
      button.setAttribute("aria-disabled", "true");
      button.setAttribute("aria-label", cardLabel(card, t, words));
      button.title = words;
    }
    button.addEventListener("click", (event) => onCardClick(card, event));
    hand.append(button);
  });
  const lost = document.activeElement === null || document.activeElement === document.body;
  if (focusInHand && (focusedIndex >= 0 || lost) && !document.querySelector("dialog[open]")) {
    hand.querySelectorAll("button.card")[tabbable]?.focus();
  }
}

function trackHandFocus() {
  const hand = $("hand");
  hand.addEventListener("focusin", () => { focusInHand = true; });
  hand.addEventListener("focusout", (event) => {
    // Focus that goes nowhere (the button was removed, or a dialog took it and will give it
    // back) still belongs to the hand; focus moved elsewhere on purpose does not.
    const to = event.relatedTarget;
    if (to && !hand.contains(to) && !to.closest?.("dialog")) focusInHand = false;
  });
}

function onHandKey(event) {
  const cards = [...$("hand").querySelectorAll("button.card")];
  const index = cards.indexOf(document.activeElement);
  if (index < 0) return;
  let next = index;
  if (event.key === "ArrowRight") next = Math.min(cards.length - 1, index + 1);
  else if (event.key === "ArrowLeft") next = Math.max(0, index - 1);
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = cards.length - 1;
  else return;
  event.preventDefault();
  rovingIndex = next;
  cards.forEach((c, i) => { c.tabIndex = i === next ? 0 : -1; });
  cards[next].focus();
}

// A seat's declarations as compact chips (the cards shown say the suit); the full words for
// screen readers.
function renderDeclarations(list) {
  return list.map((decl) => {
    const li = document.createElement("li");
    li.dataset.kind = decl.kind;
    li.setAttribute("aria-label", declarationLabel(decl));
    const label = document.createElement("span");
    label.setAttribute("aria-hidden", "true");
    label.textContent = t(`chouine.declshort.${decl.kind}`, { points: decl.points });
    li.append(label);
    for (const card of decl.cards ?? []) li.append(cardImage(card, t));
    return li;
  });
}

function trickCard(entry, seat) {
  const wrap = document.createElement("div");
  wrap.className = `trick-card ${entry.seat === seat ? "mine" : "theirs"}`;
  wrap.append(cardImage(entry.card, t));
  const tag = document.createElement("span");
  tag.className = "trick-decl";
  if (entry.declaration) tag.textContent = declarationLabel(entry.declaration);
  else tag.hidden = true;
  wrap.append(tag);
  return wrap;
}

function renderTrick(deal, seat, first) {
  const trick = $("trick");
  const last = deal.last_trick;
  const lastKey = last ? last.cards.map((c) => c.card).join(",") : null;
  if (first) shownTrickKey = lastKey; // on load, no replay of a trick gathered long ago
  // A trick just gathered stays in view a moment, then slides to its winner.
  if (deal.trick.length === 0 && last && trickPauseMs > 0 && !deal.outcome) {
    if (lastKey !== shownTrickKey) {
      shownTrickKey = lastKey;
      gathering = true;
      clear(trick);
      trick.style.setProperty("--gather-delay", `${Math.max(0, trickPauseMs - 300)}ms`);
      trick.classList.add("gathering", last.winner === seat ? "to-mine" : "to-theirs");
      for (const entry of last.cards) trick.append(trickCard(entry, seat));
      clearTimeout(gatherTimer);
      gatherTimer = setTimeout(() => {
        gathering = false;
        trick.classList.remove("gathering", "to-mine", "to-theirs");
        clear(trick);
      }, trickPauseMs);
      return;
    }
    if (gathering) return; // still on show
  }
  shownTrickKey = lastKey ?? shownTrickKey;
  // A card led during the pause replaces the gathered trick at once.
  clearTimeout(gatherTimer);
  gathering = false;
  trick.classList.remove("gathering", "to-mine", "to-theirs");
  clear(trick);
  for (const entry of deal.trick) trick.append(trickCard(entry, seat));
}

function turnLine(state) {
  const deal = state.view.deal;
  const match = state.view.match;
  if (state.seated.includes(false)) return t("friend.waiting.title"); // the friend has not come yet
  if (match.over) return t("chouine.turn.match_over");
  if (deal.to_act === null) return t("chouine.turn.partie_over");
  if (deal.to_act !== state.seat) return friendly(state) ? t("friend.turn.friend") : t("chouine.turn.computer");
  if (deal.prompt === "seven") return t("chouine.turn.prompt");
  return deal.trick.length === 0 ? t("chouine.turn.lead") : t("chouine.turn.follow");
}

function renderMatch(state) {
  const match = state.view.match;
  const seat = state.seat;
  const other = 1 - seat;
  const scoreKey = friendly(state) ? "friend.match.score" : "chouine.match.score";
  $("score").textContent = t(scoreKey, { you: match.wins[seat], them: match.wins[other] });
  $("match-line").textContent = t("chouine.match.line", { best_of: match.best_of, partie: match.partie });
  // The menu offers every other match length the game has (rendered from its declaration).
  // Nobody restarts a shared table's match alone: a new match is agreed after the last count.
  for (const button of document.querySelectorAll("#menu [data-best-of]")) {
    button.hidden = state.shared || Number(button.dataset.bestOf) === match.best_of;
  }
}

// The waiting screen of a shared table with an open seat: the link to send, and the time left.
function renderSeating(state) {
  const seating = state.seated.includes(false);
  $("waiting").hidden = !seating;
  clearInterval(waitingTimer);
  if (!seating) return false; // the link box holds the table's link from the server (data-link)
  waitingTimer = countDown($("waiting-time"), state.expires_at, t);
  return true;
}

// Whether the friend's page is open: shown beside their name at a shared table.
function renderPresence() {
  const badge = $("opp-presence");
  if (!current || !current.shared || here === null) {
    badge.hidden = true;
    return;
  }
  const there = here.includes(1 - current.seat);
  badge.hidden = false;
  badge.dataset.here = String(there);
  // A mark (filled: here, hollow: away) and the word; where the row is narrow only the mark
  // shows, the word staying for screen readers and as the tooltip.
  const word = there ? t("friend.presence.here") : t("friend.presence.away");
  const mark = document.createElement("span");
  mark.className = "presence-mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = there ? "●" : "○";
  const words = document.createElement("span");
  words.className = "presence-word";
  words.textContent = word;
  badge.title = word;
  badge.replaceChildren(mark, words);
}

function onPresence(seats) {
  const before = here === null || !current ? null : here.includes(1 - current.seat);
  here = seats;
  renderPresence();
  if (!current || !current.shared || before === null) return;
  const now = here.includes(1 - current.seat);
  if (now !== before) announce(now ? t("friend.presence.back") : t("friend.presence.went"));
}

function render(state) {
  const previous = current;
  current = state;
  sending = false;
  // A message lives as long as its state: a refusal about an older version goes now.
  if (refusalVersion === FROM_SERVER) refusalVersion = state.version;
  else if (refusalVersion !== null && refusalVersion !== state.version) hideRefusal();
  const deal = state.view.deal;
  const match = state.view.match;
  const seat = state.seat;
  const other = 1 - seat;
  const mine = deal.to_act === seat;
  root.dataset.version = String(state.version);
  root.dataset.trick = String(deal.trick_number);
  root.dataset.trump = deal.trump;

  renderMatch(state);
  $("opp-name").textContent = friendly(state) ? t("friend.name") : t("chouine.table.computer");
  renderPresence();
  const seating = renderSeating(state);
  // Opponent.
  const backs = $("opp-hand");
  clear(backs);
  for (let i = 0; i < deal.hand_counts[other]; i += 1) backs.append(cardBack());
  backs.setAttribute("aria-label", t("chouine.table.opponent_cards", { n: deal.hand_counts[other] }));
  $("opp-piles").textContent = t("chouine.table.piles", { n: deal.piles[other] });
  $("my-piles").textContent = t("chouine.table.piles", { n: deal.piles[seat] });
  $("opp-declarations").replaceChildren(...renderDeclarations(deal.declarations[other]));
  $("my-declarations").replaceChildren(...renderDeclarations(deal.declarations[seat]));
  $("opp-last-trick").disabled = !deal.opponent_last_trick;
  $("my-tricks").disabled = deal.own_tricks.length === 0;

  // Talon and turn-up.
  const stack = $("talon-stack");
  clear(stack);
  if (deal.talon_count > 0) stack.append(cardBack());
  $("talon-count").textContent = t("chouine.table.talon", { n: deal.talon_count });
  const turnUp = $("turn-up");
  clear(turnUp);
  if (deal.turn_up) turnUp.append(cardImage(deal.turn_up, t));
  $("trump-line").textContent = t("chouine.table.trump", { suit: t(`card.suit.${deal.trump}`) });

  renderTrick(deal, seat, !previous);
  renderHand(deal, mine);

  $("swap").hidden = !(mine && deal.prompt !== "seven" && deal.legal.includes("swap"));

  const line = turnLine(state);
  $("turn-line").textContent = line;

  // Last-chance prompt.
  const prompt = $("prompt");
  if (mine && deal.prompt === "seven") {
    $("prompt-swap").disabled = !deal.legal.includes("swap");
    if (!prompt.open) prompt.showModal();
  } else if (prompt.open) prompt.close();
  if ($("chooser").open) $("chooser").close();
  // A restart asked about a match that has ended meanwhile no longer applies.
  if ($("restart").open && !inProgress(state)) {
    restartChoice = null;
    $("restart").close();
  }

  // The count.
  if (deal.outcome) showCount(state, t);
  else if ($("count").open) $("count").close();

  const ready = state.shared && state.ready.includes(seat);
  let status = "waiting";
  if (seating) status = "seating";
  else if (ready) status = "ready"; // waiting for the friend to be ready too
  else if (match.over) status = "match-over";
  else if (deal.to_act === null) status = "count";
  else if (mine && deal.prompt === "seven") status = "prompt";
  else if (mine) status = "my-turn";
  root.dataset.state = status;

  // Tell screen-reader users what the computer played, and whose turn it is.
  const played = [...deal.trick, ...(deal.last_trick?.cards ?? [])].filter((e) => e.seat !== seat);
  const news = [];
  for (const entry of played) {
    const key = `${match.partie}:${entry.card}`;
    if (!announced.has(key)) {
      announced.add(key);
      const plays = friendly(state) ? "friend.live.plays" : "chouine.live.computer_plays";
      if (previous) news.push(t(plays, { card: cardName(entry.card, t) }));
    }
  }
  if (!previous || turnLine(previous) !== line || news.length) news.push(line);
  announce(news.join(" "));
}

function openViewer(title, tricks) {
  $("viewer-title").textContent = title;
  const box = $("viewer-cards");
  clear(box);
  for (const trick of tricks) {
    const row = document.createElement("div");
    row.className = "viewer-trick";
    for (const card of trick) row.append(cardImage(card, t));
    box.append(row);
  }
  $("viewer").showModal();
}

function showStatus(status, why) {
  if (status === "reconnecting") {
    connectionDown = true;
    hideRefusal(); // whatever it said is about a table we cannot reach now
    banner.down(t("chouine.table.reconnecting"));
  } else if (status === "back") {
    connectionDown = false;
    banner.back(t("chouine.table.back"));
  } else if (status === "lost") {
    banner.hide();
    $("lost").querySelector("p").textContent = t(lostWords("chouine", why));
    // A shared table nobody sat at within its time: say so.
    if (current && current.seated.includes(false)) {
      $("lost").querySelector("p").textContent = t("friend.waiting.expired");
      clearInterval(waitingTimer);
      $("waiting").hidden = true;
    }
    $("lost").hidden = false;
    root.dataset.state = "lost";
  }
}

function restartAs(bestOf) {
  const restart = () => send({ type: "new_match", options: { best_of: bestOf } });
  if (!inProgress(current)) {
    restart();
    return;
  }
  // One tap must not throw a running match away: ask first, in the page.
  $("restart-title").textContent = t("chouine.table.restart.title", { best_of: bestOf });
  restartChoice = restart;
  $("restart").showModal();
}

// No seat here yet: this is a shared table's link. Take its open seat (seats.js keeps the
// token in localStorage), or say the table is full, or gone.
async function takeOpenSeat() {
  const taken = await takeSeat(tableId, linkSeat(), root.dataset.seatRefusal);
  if (taken.token) return taken.token;
  if (taken.code === "table_full") {
    $("full").hidden = false;
    root.dataset.state = "full";
  } else {
    showStatus("lost", taken.code);
  }
  return null;
}

async function copyLink() {
  const input = $("share-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select(); // no clipboard (a page served over plain http): copy by hand
    document.execCommand("copy");
  }
  $("copied").textContent = t("friend.waiting.copied");
}

function setUpSharing() {
  $("copy-link").addEventListener("click", copyLink);
  $("share-link").addEventListener("focus", () => $("share-link").select());
  const share = $("share-link-button");
  if (typeof navigator.share !== "function") return;
  share.hidden = false;
  share.addEventListener("click", () => {
    const text = t("friend.waiting.share_text", { best_of: current?.view.match.best_of ?? "" });
    navigator.share({ title: document.title, text, url: $("share-link").value }).catch(() => {});
  });
}

// "Leave the table" asks first: a shared seat is kept (the resume list finds it), a computer
// match is not.
function setUpLeave() {
  $("leave").addEventListener("click", (event) => {
    event.preventDefault();
    const shared = current ? current.shared : true;
    $("leave-text").textContent = shared ? t("friend.leave.shared") : t("friend.leave.computer");
    $("leave-confirm").showModal();
  });
  $("leave-yes").addEventListener("click", () => location.assign($("leave").href));
  $("leave-no").addEventListener("click", () => $("leave-confirm").close());
}

async function main() {
  t = await loadCatalog(lang);
  setUpMenu($("menu"));
  setUpLeave();
  setUpSharing();
  const token = seatToken(tableId) ?? (await takeOpenSeat());
  if (!token) return; // the page has said why
  $("hand").addEventListener("keydown", onHandKey);
  trackHandFocus();
  for (const id of ["chooser", "prompt", "viewer", "count", "restart"]) {
    $(id).addEventListener("close", () => {
      // (a line being typed in the chat keeps the keyboard)
      if (focusInHand && !typingField()) $("hand").querySelectorAll("button.card")[rovingIndex]?.focus();
    });
  }
  $("swap").addEventListener("click", () => send({ type: "act", action: "swap" }));
  $("prompt-swap").addEventListener("click", () => { $("prompt").close(); send({ type: "act", action: "swap" }); });
  $("prompt-continue").addEventListener("click", () => { $("prompt").close(); send({ type: "act", action: "continue" }); });
  // The prompt must be answered: Escape does not dismiss it.
  $("prompt").addEventListener("cancel", (event) => event.preventDefault());
  $("chooser-cancel").addEventListener("click", () => $("chooser").close());
  $("viewer-close").addEventListener("click", () => $("viewer").close());
  $("my-tricks").addEventListener("click", () => openViewer(t("chouine.table.my_tricks"), current.view.deal.own_tricks));
  $("opp-last-trick").addEventListener("click", () => {
    const trick = current.view.deal.opponent_last_trick;
    if (trick) openViewer(t("chouine.table.opponent_last_trick"), [trick]);
  });
  for (const button of document.querySelectorAll("#menu [data-best-of]")) {
    button.addEventListener("click", () => { if (current) restartAs(Number(button.dataset.bestOf)); });
  }
  $("restart-yes").addEventListener("click", () => {
    $("restart").close();
    const restart = restartChoice;
    restartChoice = null;
    if (restart) restart();
  });
  $("restart-no").addEventListener("click", () => { restartChoice = null; $("restart").close(); });
  // At a shared table the count stays until both are ready; its foot says who is.
  $("next-partie").addEventListener("click", () => {
    if (!current.shared) $("count").close();
    send({ type: "next" });
  });
  $("new-match").addEventListener("click", () => {
    if (current.shared) {
      send({ type: "next" }); // a new match once both ask, with the same length
      return;
    }
    $("count").close();
    send({ type: "new_match", options: { best_of: current.view.match.best_of } });
  });
  $("count").addEventListener("cancel", (event) => event.preventDefault());
  conn = new LiveConnection({
    path: `/ws/tables/${encodeURIComponent(tableId)}`,
    token,
    lang,
    snapshot: "state",
    onSnapshot: (state) => {
      if (!voice && hasVoice(state)) {
        const seatName = () => t("friend.name");
        voice = new Voice({ conn, t, seat: state.seat, seats: state.seats.length, seatName });
      }
      if (!chat && hasChat(state)) {
        chat = new Chat({ conn, t, lang, tableId, seat: state.seat, seatName: () => t("friend.name") });
      }
      render(state);
    },
    onError: (error) => {
      sending = false;
      if (current) root.dataset.state = current.view.deal.to_act === current.seat ? "my-turn" : "waiting";
      for (const card of $("hand").querySelectorAll(".lifted")) card.classList.remove("lifted");
      showRefusal(error.message, FROM_SERVER);
      announce(error.message);
    },
    onStatus: (status, why) => showStatus(status === "offline" ? "reconnecting" : status, why),
    onOther: (message) => {
      if (message.type === "presence") onPresence(message.here);
    },
  });
  conn.open();
}

main();

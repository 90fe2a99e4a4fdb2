// The one table page of every game (templates/table.html): it connects, says hello (and
// resumes at the version it has), sends the player's changes under their client ids, and
// renders each `state` the server sends (docs/protocol.md), holding no rule. Around the game's
// board it owns what every table has: the top bar (the game's name, the match score, the
// menu, leaving), the refusal line, the live region, who is here, the connection banner and
// what a tap does while the connection is down, the seat a link names, the waiting screen and
// its links, the chat and voice of a table of people, the end screens and the ready handshake,
// the hand and its keyboard play, and focus coming back after a dialog.
//
// A game supplies its board (static/table/<game>/board.js, started by its main.js): how its
// view is drawn and how a click becomes an action, and the facts the page reads from it. A
// behaviour that differs between games is a parameter the board declares, never a second copy;
// what the page says in the game's own words is the game's catalog's, `<game>.<phrase>` (say).
// The Board class's shape:
//
//   constructor(page)            find its elements, bind its own controls (they call page.act,
//                                page.play, page.refuse)
//   presenceMark                 whether a presence badge leads with a mark (see presence.js)
//   dealOver                     the table's data-state once a deal is over ("count", …)
//   endScreen                    {dialog, show(state), newMatchOptions(state)} (end_screen.js)
//   layOutHand(node)             optional: lays the hand out for its width (hand.js)
//   draw(state, previous, settled)   draw the view; call settled() once a just-finished trick
//                                has been shown (the end screen opens then)
//   drawPresence(state)          draw who is here again (page.presence.fill / badge)
//   hand(state)                  the hand's looks: {looks, why, choosing} (hand.js)
//   tap(card, state)             a card of the hand was tapped (not while a change is on its way)
//   turnLine(state), score(state) → {text, label}, news(state) → [{key, text}] (what the
//   others did, said once per key), seatName(seat, state), seatInSentence(seat, state) (the
//   seat named within a sentence: "your friend", "West"), seatRows(state) → [{seat, place,
//   label, shareText}] (the other seats on the waiting screen), reason(code, state, fallback)
//   (a refusal's words), gameState(state) (optional: a data-state of the game's own, or null)
//
// Friends come and go (comings.js): who has left, the computer standing in for them (its mark
// beside the seat, from presence.js), a seat given to someone new, and leaving for good (menu.js
// setUpLeave: the `leave` message, then this browser forgets the table). The opt-in to be told
// when it is one's turn (push.js) is offered once the seat is taken at a full table of people;
// the menu says the computer's level where it plays a seat.
import { LiveConnection } from "../live/connection.js";
import { $ } from "../live/dom.js";
import { loadCatalog } from "../live/i18n.js";
import { ConnectionBanner } from "./banner.js";
import { Chat, hasChat, typingField } from "./chat.js";
import { Comings, standInsAllowed, tableLeft } from "./comings.js";
import { EndScreen } from "./end_screen.js";
import { Hand } from "./hand.js";
import { fitGameName, setUpLeave, setUpMenu } from "./menu.js";
import { Presence } from "./presence.js";
import { TurnNotice } from "./push.js";
import { RefusalLine } from "./refusal.js";
import { Waiting, showLost, sitDown } from "./seating.js";
import { forgetSeat, seatToken } from "./seats.js";
import { Voice, hasVoice } from "./voice.js";

// These go without a version: the seats' presses must not refuse each other.
const UNVERSIONED = new Set(["new_match", "next", "fill", "stand_in", "give_seat", "leave"]);
const LEAVE_WAIT_MS = 3000; // how long leaving waits for the server to hear it

/** `text` beginning with a capital: a game's news may open with words said mid-sentence
 * elsewhere ("your partner plays…"). */
function sentence(text) {
  return text.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + text.slice(1);
}

/** Start the table page of the game whose board is `Board`. */
export function startTable(Board) {
  new TablePage(Board).start();
}

class TablePage {
  constructor(Board) {
    this.Board = Board;
    this.root = $("table");
    this.tableId = this.root.dataset.tableId;
    this.game = this.root.dataset.game;
    this.lang = this.root.dataset.lang;
    this.trickPauseMs = Number(this.root.dataset.trickPauseMs || 0);
    this.banner = new ConnectionBanner($("banner"), this.root);
    this.refusal = new RefusalLine($("refusal"));
    this.t = (key) => key;
    this.current = null; // the last StateOut
    this.conn = null;
    this.sending = false; // a change is on its way
    this.down = false; // the connection is down
    this.lastTapPlayed = false;
    this.announced = new Set(); // the news already said (Board.news keys)
    this.voice = null;
    this.chat = null;
    this.drawing = null; // the state being drawn, and whether the board has settled it
    this.lastCode = null; // the last refusal's code (a seat given away says why it is lost)
  }

  async start() {
    this.t = await loadCatalog(this.lang);
    this.board = new this.Board(this);
    this.presence = new Presence(this.t, this.board.presenceMark);
    this.waiting = new Waiting(this);
    this.comings = new Comings(this);
    setUpMenu($("menu"));
    fitGameName(document.querySelector(".topbar"));
    setUpLeave($("leave"), $("leave-confirm"), () => this.leaveWords(), () => this.leaveForGood());
    const token = seatToken(this.tableId) ?? (await sitDown(this));
    if (!token) return; // the page has said why
    this.turnNotice = new TurnNotice(this, token);
    this.hand = new Hand($("hand"), this.t, {
      onTap: (card, event) => this.tap(card, event),
      layout: this.board.layOutHand,
    });
    this.end = new EndScreen(this, this.board.endScreen);
    for (const dialog of this.root.querySelectorAll("dialog")) {
      // Focus goes back to the hand it came from (a line being typed in the chat keeps it).
      dialog.addEventListener("close", () => { if (!typingField()) this.hand.focusCurrent(); });
    }
    this.conn = new LiveConnection({
      path: `/ws/tables/${encodeURIComponent(this.tableId)}`,
      token,
      lang: this.lang,
      snapshot: "state",
      onSnapshot: (state) => this.snapshot(state),
      onError: (error) => this.refused(error),
      onStatus: (status, why) => this.status(status, why),
      onOther: (message) => {
        if (message.type === "presence") this.heardPresence(message.here);
      },
    });
    this.conn.open();
  }

  // ---- sending ------------------------------------------------------------------------------

  /** Send a change ({type, …}) made on the version on show. */
  send(change) {
    if (!this.conn) return;
    this.sending = true;
    if (!this.current?.seated.includes(false)) this.root.dataset.state = "sending"; // the waiting screen stays
    this.refusal.hide();
    this.conn.send({ ...change, version: UNVERSIONED.has(change.type) ? undefined : this.current?.version });
  }

  /** Take `action` (its text, docs/notation.md). While the connection is down it is not lost:
   * the connection sends it once back, made on the version on show (the server refuses it,
   * in words, if the table has moved on), and the page says it is reconnecting. A second
   * press while one is on its way is the same gesture: it says and sends nothing. */
  act(action) {
    if (this.down) this.nudge();
    if (this.sending) return;
    this.send({ type: "act", action });
  }

  /** Play `card` by `action`: it lifts towards the table until the server answers. */
  play(card, action) {
    if (this.sending) return;
    this.hand.lift(card);
    this.lastTapPlayed = true;
    this.act(action);
  }

  /** Say why a tap changes nothing (`kind`: "refused" or "rest"), until the next state. */
  refuse(text, kind) {
    this.refusal.show(text, kind, this.current?.version ?? null);
  }

  /** The page's `phrase` in the game's words (`<game>.<phrase>` in the catalogs: "Waiting for
   * your friend to join", "Waiting for the table to fill"). */
  say(phrase, values) {
    return this.t(`${this.game}.${phrase}`, values);
  }

  /** Say `text` in the live region (screen readers). */
  announce(text) {
    if (text) $("live").textContent = text;
  }

  // ---- taps -----------------------------------------------------------------------------------

  tap(card, event) {
    // A double click (or double tap) that played a card is one gesture: its second click says
    // and sends nothing, whether the server has answered meanwhile (the hand has moved on
    // under the finger) or not.
    if (event.detail > 1 && this.lastTapPlayed) return;
    this.lastTapPlayed = false;
    if (!this.current) return;
    if (this.down) this.nudge();
    if (this.sending) {
      if (this.hand.lifted() === card) return; // already on its way
      this.refuse(this.board.reason("not_your_turn", this.current), "rest");
      return;
    }
    this.board.tap(card, this.current);
  }

  /** A tap while the connection is down is answered: the banner and the turn line, which say
   * "Reconnecting…", speak up (one message for one fact, said where the player looks). */
  nudge() {
    const line = $("turn-line");
    line.classList.remove("nudge");
    void line.offsetWidth; // restart the animation
    line.classList.add("nudge");
    this.announce(this.banner.nudge());
  }

  // ---- leaving --------------------------------------------------------------------------------

  /** What leaving does, said before it is done: at a table of more than two the computer plays
   * the seat; at a table of two the match ends for both; a match against the computer lives
   * in its tab only. */
  leaveWords() {
    const state = this.current;
    if (state && !state.shared) return this.say("leave.computer");
    if (state && !standInsAllowed(state)) return this.t("leaving.confirm.end");
    return this.t("leaving.confirm.stand_in");
  }

  /** Leave for good: a shared table is told (`leave`; a moment is waited for its answer), and
   * this browser forgets the table (the resume list no longer finds it). */
  async leaveForGood() {
    if (this.conn && this.current?.shared && !tableLeft(this.current)) {
      await new Promise((resolve) => {
        this.conn.send({ type: "leave" }, resolve);
        setTimeout(resolve, LEAVE_WAIT_MS);
      });
    }
    forgetSeat(this.tableId);
  }

  // ---- rendering ------------------------------------------------------------------------------

  snapshot(state) {
    if (!this.voice && hasVoice(state)) {
      const seatName = (seat) => this.board.seatName(seat, this.current || state);
      this.voice = new Voice({ conn: this.conn, t: this.t, seat: state.seat, seats: state.seats.length, seatName });
    }
    if (!this.chat && hasChat(state)) {
      const seatName = (seat) => this.board.seatName(seat, this.current || state);
      this.chat = new Chat({ conn: this.conn, t: this.t, lang: this.lang, tableId: this.tableId, seat: state.seat, seatName });
    }
    this.render(state);
  }

  render(state) {
    const previous = this.current;
    this.current = state;
    this.sending = false;
    this.refusal.stateCame(state.version);
    this.root.dataset.version = String(state.version);
    const score = this.board.score(state);
    $("score").textContent = score.text;
    if (score.label) $("score").setAttribute("aria-label", score.label);
    this.drawLevel(state);
    const seating = this.waiting.render(state);
    this.end.stateCame(state);
    this.turnNotice.stateCame(state);
    // A deal just over waits for its last trick to be shown before its screen opens.
    this.root.dataset.state = state.view.deal.outcome && !seating ? "waiting" : this.stateOf(state);
    this.drawing = { state, settled: false };
    this.board.draw(state, previous, () => this.settled(state));
    this.drawHand();
    this.drawTurnLine();
    const comings = this.comings.stateCame(previous, state);
    if (tableLeft(state)) this.showLeft(state);
    this.announceNews(previous, state, comings);
    const { settled } = this.drawing;
    this.drawing = null;
    if (settled) this.settled(state);
  }

  /** The menu says the computer's level while the computer plays a seat of the table. */
  drawLevel(state) {
    const note = $("menu-level");
    note.hidden = !state.seats.includes("computer");
    note.textContent = this.t("table.level", { level: this.t(`level.${state.level}`) });
  }

  /** The board has shown `state`'s deal to its end: its screen may open. */
  settled(state) {
    if (this.drawing?.state === state) {
      this.drawing.settled = true; // once the page has drawn the rest
      return;
    }
    if (this.current !== state) return;
    this.end.settled(state);
    this.root.dataset.state = this.stateOf(state);
  }

  /** The hand as the board sees it now (also after a tap that changed a choice). */
  drawHand() {
    const { looks, why, choosing } = this.board.hand(this.current);
    this.hand.render(this.current.view.deal.hand, looks, why, choosing);
  }

  lineOf(state) {
    if (state.seated.includes(false)) return this.say("waiting.title");
    const away = this.awayToAct(state);
    if (away !== null) return this.t("leaving.turn_away", { name: this.comings.names(state)(away) });
    return this.board.turnLine(state);
  }

  /** The other person's seat whose turn it is while they have no page open (and the computer
   * does not play for them), or null: the turn line then says whom the table waits for. */
  awayToAct(state) {
    const seat = state.view.deal.to_act;
    if (seat === null || seat === undefined || seat === state.seat) return null;
    const { here } = this.presence;
    if (here === null || here.includes(seat) || state.stand_in.includes(seat)) return null;
    return this.presence.people(state).includes(seat) ? seat : null;
  }

  drawTurnLine() {
    const line = $("turn-line");
    line.textContent = this.down ? this.t("table.reconnecting") : this.lineOf(this.current);
  }

  /** The table's data-state for the tests and the styles: seating, ready (waiting for the
   * others' ready), match-over, the deal over, the game's own, my-turn or waiting. */
  stateOf(state) {
    const { match, deal } = state.view;
    if (state.seated.includes(false)) return "seating";
    if (tableLeft(state)) return "left";
    if (state.shared && state.ready.includes(state.seat)) return "ready";
    if (match.over) return "match-over";
    if (deal.to_act === null) return this.board.dealOver;
    return this.board.gameState?.(state) ?? (deal.to_act === state.seat ? "my-turn" : "waiting");
  }

  /** A friend left this table of two for good: say so where the table was. */
  showLeft(state) {
    const other = state.left.find((seat) => seat !== state.seat) ?? state.left[0];
    $("lost-text").textContent = this.t("leaving.left", { name: this.board.seatName(other, state) });
    $("lost").hidden = false;
  }

  /** Tell screen-reader users what the others did (and who came or went: `extra`), and whose
   * turn it is. */
  announceNews(previous, state, extra = []) {
    const news = [...extra];
    for (const { key, text } of this.board.news(state)) {
      if (this.announced.has(key)) continue;
      this.announced.add(key);
      if (previous) news.push(sentence(text));
    }
    const line = this.lineOf(state);
    if (!previous || this.lineOf(previous) !== line || news.length) news.push(line);
    this.announce(news.join(" "));
  }

  // ---- the server's answers ---------------------------------------------------------------------

  refused(error) {
    this.lastCode = error.code;
    this.sending = false;
    this.hand?.settle();
    const state = this.current;
    if (state) this.root.dataset.state = this.stateOf(state);
    this.end?.refused();
    const text = this.board.reason(error.code, state, error.message);
    if (state?.seated.includes(false)) $("copied").textContent = text; // the waiting screen's line
    this.refusal.fromServer(text);
    this.announce(text);
  }

  heardPresence(seats) {
    const state = this.current;
    const changes = this.presence.heard(seats, state);
    if (!state?.shared) return;
    this.comings.heardPresence(seats, state);
    this.board.drawPresence(state);
    if (!this.down) this.drawTurnLine(); // whom the table waits for, when they come or go
    // A seat whose person left for good is said once, where the table was (showLeft).
    const left = state.left ?? [];
    const news = changes.filter(({ seat }) => !left.includes(seat)).map(({ seat, here, first }) => {
      const phrase = here ? (first ? "presence.came" : "presence.back") : "presence.went";
      return this.say(phrase, { name: this.board.seatName(seat, state) });
    });
    this.announce(news.join(" "));
  }

  status(kind, why) {
    if (kind === "offline" || kind === "reconnecting") {
      this.down = true;
      this.refusal.hide(); // whatever it said is about a table we cannot reach now
      this.banner.down(this.t("table.reconnecting"));
      $("turn-line").textContent = this.t("table.reconnecting");
    } else if (kind === "back") {
      this.down = false;
      this.banner.back(this.t("table.back"));
      if (this.current) this.drawTurnLine();
    } else if (kind === "lost") {
      this.banner.hide();
      showLost(this, this.lastCode === "seat_given" ? this.lastCode : why);
    }
  }
}

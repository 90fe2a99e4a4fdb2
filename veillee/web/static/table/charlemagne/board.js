// The Charlemagne board in the one table page (../page.js): it draws the view the server sends
// (docs/charlemagne-views.md) and turns a click into an action (docs/notation.md). It holds no
// rules: which actions are legal, and why a card may not be played, come with the view.
// Components, one per file beside it: the seats, the trick, the steps before the play, the
// hand-end screen, the hand's layout, and the words.
//
// A card tap plays it, or (a discard, the blind pass) chooses it: the cards chosen are kept in
// the order tapped until the choice is confirmed in the steps, for the hand and phase they
// belong to.
import { $ } from "../../live/dom.js";
import { cardName } from "../cards.js";
import { layOutHand } from "./hand_layout.js";
import { showHandEnd } from "./hand_end.js";
import { renderSeat } from "./seats.js";
import { Steps } from "./steps.js";
import { Trick } from "./trick.js";
import { Words, discardCount, place } from "./words.js";

export class Board {
  presenceMark = false;
  dealOver = "hand-over";
  layOutHand = layOutHand;

  constructor(page) {
    this.page = page;
    this.say = new Words(page.t);
    this.picked = []; // cards chosen for a discard or the blind pass, in the order tapped
    this.pickedFor = null; // the hand and phase the choice belongs to
    this.steps = new Steps($("steps"), this.say, (action) => page.act(action), (text) => page.refuse(text, "refused"));
    this.trick = new Trick($("trick"), $("last-trick"), this.say, page.trickPauseMs);
    const dialog = $("hand-end");
    this.endScreen = {
      dialog,
      show: (state) => showHandEnd(dialog, state, this.say),
      newMatchOptions: () => ({}),
    };
  }

  // ---- what the page reads --------------------------------------------------------------------

  turnLine(state) {
    return this.say.turnLine(state);
  }

  score(state) {
    const text = this.say.score(state);
    const label = this.say.t("charlemagne.match.score_long", { score: text, target: state.view.match.target });
    return { text, label };
  }

  seatName(seat, state) {
    return this.say.seatLabel(state.view.deal, seat, state.seat);
  }

  /** The seat inside a sentence of the page's ("your partner has left"). */
  seatInSentence(seat, state) {
    return this.say.who(state.view.deal, seat, state.seat);
  }

  /** The other seats on the waiting screen: across the table first, then the left and the
   * right opponents. */
  seatRows(state) {
    const t = this.say.t;
    return [2, 1, 3].map((k) => {
      const seat = (state.seat + k) % 4;
      const where = place(seat, state.seat);
      return { seat, place: where, label: t(`seats.place.${where}`), shareText: t(`seats.share_text.${where}`) };
    });
  }

  reason(code, state, fallback) {
    return this.say.reason(code, state?.view.deal, fallback);
  }

  /** The others' bids and plays, for the live region. */
  news(state) {
    const deal = state.view.deal;
    const hand = state.view.match.hand;
    const me = state.seat;
    const t = this.say.t;
    const bids = deal.bids.filter((b) => b.seat !== me).map((b) => ({
      key: `${hand}:bid:${b.seat}`,
      text: t("charlemagne.live.bid", { name: this.say.who(deal, b.seat, me), bid: this.say.bid(b.bid) }),
    }));
    const plays = [...(deal.last_trick?.cards ?? []), ...deal.trick].filter((e) => e.seat !== me).map((e) => ({
      key: `${hand}:${e.card}`,
      text: t("charlemagne.live.plays", { name: this.say.who(deal, e.seat, me), card: cardName(e.card, t) }),
    }));
    return [...bids, ...plays];
  }

  // ---- the hand -------------------------------------------------------------------------------

  choosing(state) {
    const deal = state.view.deal;
    return deal.to_act === state.seat && (deal.phase === "discard" || deal.phase === "give");
  }

  hand(state) {
    const deal = state.view.deal;
    const looks = {};
    const why = {};
    const mine = deal.to_act === state.seat;
    const choosing = this.choosing(state);
    for (const card of deal.hand) {
      if (choosing) {
        looks[card] = this.picked.includes(card) ? "picked" : "pick";
      } else if (mine && deal.phase === "play") {
        const reason = deal.refusals?.[card];
        looks[card] = reason ? "refused" : "pick";
        if (reason) why[card] = this.say.reason(reason, deal, undefined, card);
      } else if (mine) {
        looks[card] = "rest"; // the decision is in the middle of the table
        why[card] = this.say.reason(deal.refusals?.[card] ?? "wrong_phase", deal);
      } else {
        looks[card] = "rest";
        why[card] = this.notYourTurn(state);
      }
    }
    return { looks, why, choosing };
  }

  notYourTurn(state) {
    if (state.view.deal.to_act === null) return this.say.turnLine(state);
    return this.say.t("charlemagne.reason.not_your_turn_now", { turn: this.say.turnLine(state) });
  }

  tap(card, state) {
    if (this.choosing(state)) {
      this.pick(card, state);
      return;
    }
    const { looks, why } = this.hand(state);
    if (looks[card] === "pick") this.page.play(card, card);
    else this.page.refuse(why[card], looks[card]); // a dimmed or resting card changes nothing
  }

  /** Choose `card` for the discard or the blind pass, or put it back. */
  pick(card, state) {
    const deal = state.view.deal;
    const limit = deal.phase === "give" ? 1 : discardCount(deal);
    if (this.picked.includes(card)) {
      this.picked = this.picked.filter((c) => c !== card);
    } else if (this.picked.length >= limit) {
      const why = this.say.plural("charlemagne.refusal.picked_enough", limit);
      // Said where the player choosing looks: the discard's count, beside its button (the
      // blind pass, one card and no count, on the refusal line).
      if (deal.phase === "discard") {
        this.page.refusal.hide();
        this.steps.render(state, this.picked, why);
        this.page.announce(why);
      } else {
        this.page.refuse(why, "refused");
      }
      return;
    } else {
      this.picked = [...this.picked, card];
    }
    this.page.refusal.hide();
    this.page.drawHand();
    this.steps.render(state, this.picked);
  }

  // ---- drawing --------------------------------------------------------------------------------

  draw(state, previous, settled) {
    const deal = state.view.deal;
    const hand = state.view.match.hand;
    const key = `${hand}:${deal.phase}`;
    if (!this.choosing(state) || this.pickedFor !== key) this.picked = [];
    this.pickedFor = this.choosing(state) ? key : null;
    this.picked = this.picked.filter((c) => deal.hand.includes(c));

    const root = this.page.root;
    root.dataset.phase = deal.phase;
    root.dataset.trick = String(deal.trick_number);
    root.dataset.trump = deal.trump ?? "";
    root.dataset.hand = String(hand);
    root.dataset.mode = deal.phase === "play" || deal.phase === "over" ? "play" : "steps";

    $("match-line").textContent = this.say.matchLine(state);
    $("contract-line").textContent = this.say.contractLine(state);
    $("trump-line").textContent = this.say.trumpLine(deal);
    $("tricks-line").textContent = deal.contract === null ? "" : this.say.tricksLine(state);
    this.drawPresence(state);
    this.drawNote(state);
    this.steps.render(state, this.picked);
    this.trick.render(state, !previous, settled);
  }

  /** The four seats (the other people's presence among them). */
  drawPresence(state) {
    for (const seat of [0, 1, 2, 3]) {
      renderSeat($(`seat-${place(seat, state.seat)}`), seat, state, this.say, this.page.presence);
    }
  }

  /** Why your hand is as it is: sitting out, or spread face up. */
  drawNote(state) {
    const deal = state.view.deal;
    const me = state.seat;
    let text = "";
    if (deal.sitting_out === me && deal.hand.length === 0) {
      text = this.say.t("charlemagne.hand.sitting_out", { contract: this.say.contract(deal.contract) });
    } else if (deal.spread && deal.bidder === me) {
      text = this.say.t("charlemagne.hand.spread");
    }
    $("hand-note").textContent = text;
    $("hand-note").hidden = !text;
  }
}

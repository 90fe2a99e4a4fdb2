// The middle of the table before the play: the auction (your bid buttons; a bid you may not
// make is struck through and, as a refused card, says why when tapped — the reason comes with
// the view — and changes nothing; the dealer stuck explained), the Gros Charlemagne choice, the blind pass, the discard
// (choose cards in the hand, then confirm; the count needed shown, and there why a card more is
// refused) and naming trumps. When
// another seat is deciding it says what is happening there. Buttons say what they do.
import { cardBack, cardImage } from "../cards.js";
import { discardCount, place } from "./words.js";
import { el } from "../../live/dom.js";

const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function button(text, testid, onClick, { primary = false, enabled = true, label } = {}) {
  const b = el("button", primary ? "primary" : "", text);
  b.type = "button";
  b.dataset.testid = testid;
  b.disabled = !enabled;
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

function cardsRow(label, cards, t) {
  const row = el("p", "step-cards");
  row.append(el("span", "step-cards-label", label));
  for (const card of cards) row.append(cardImage(card, t));
  return row;
}

export class Steps {
  constructor(node, words, act, refuse) {
    this.node = node;
    this.words = words;
    this.act = act; // act(actionText)
    this.refuse = refuse; // refuse(reasonInWords): shown on the refusal line, nothing sent
  }

  /** Fill the panel for ``state``; ``picked`` are the cards chosen in the hand so far;
   * ``refusal`` (words) a tap of the hand just refused, said on the discard's count, where the
   * player choosing looks, until the next tap or state. */
  render(state, picked, refusal = "") {
    const deal = state.view.deal;
    const me = state.seat;
    const mine = deal.to_act === me;
    const parts = mine ? this.decide(state, picked, refusal) : this.watch(state);
    this.node.dataset.step = deal.phase;
    this.node.dataset.mine = String(mine);
    this.node.replaceChildren(...parts);
  }

  decide(state, picked, refusal) {
    const deal = state.view.deal;
    const t = this.words.t;
    if (deal.phase === "auction") {
      // The turn line says "Your turn — bid or pass"; the heading is there for screen readers.
      const title = el("h2", "step-title sr-only", t("charlemagne.step.auction.title"));
      const grid = el("div", "bids");
      grid.dataset.testid = "bids";
      for (const bid of deal.ladder) {
        const label = bid === "pass" ? t("charlemagne.bid.pass") : this.words.contract(bid);
        const aria = bid === "pass" ? t("charlemagne.bid.pass") : t("charlemagne.step.auction.bid", { bid: label });
        const refusal = deal.bid_refusals?.[bid];
        const why = refusal ? this.words.reason(refusal, deal) : "";
        const b = button(label, `bid-${bid}`, () => (why ? this.refuse(why) : this.act(bid)), {
          label: why ? `${aria} — ${why}` : aria,
          primary: bid !== "pass",
        });
        if (why) {
          // Refused, not disabled: a tap explains (as a refused card does) and sends nothing.
          b.setAttribute("aria-disabled", "true");
          b.title = why;
        }
        b.dataset.look = why ? "refused" : "pick";
        b.dataset.bid = bid;
        grid.append(b);
      }
      const parts = [title];
      if (!deal.legal.includes("pass")) {
        const stuck = el("p", "step-note", t("charlemagne.step.auction.stuck"));
        stuck.dataset.testid = "dealer-stuck";
        parts.push(stuck);
      }
      parts.push(grid);
      return parts;
    }
    if (deal.phase === "choose") {
      const options = el("div", "options");
      options.append(
        button(t("charlemagne.step.choose.kitty"), "choose-kitty", () => this.act("kitty"), { primary: true }),
        button(t("charlemagne.step.choose.card"), "choose-card", () => this.act("card"), { primary: true }),
      );
      return [el("h2", "step-title", t("charlemagne.step.choose.title")), el("p", "step-note", t("charlemagne.step.choose.text")), options];
    }
    if (deal.phase === "give") {
      const note = el("p", "step-note", t("charlemagne.step.give.no_talk"));
      note.dataset.testid = "no-table-talk";
      return [
        el("h2", "step-title", t("charlemagne.step.give.title", { contract: this.words.contract(deal.contract) })),
        note,
        button(t("charlemagne.step.give.confirm"), "confirm-give", () => this.act(`give ${picked[0]}`), {
          primary: true,
          enabled: picked.length === 1,
        }),
      ];
    }
    if (deal.phase === "discard") {
      const n = discardCount(deal);
      // The count says how to go on: more cards to tap, or (all chosen) how to put one back.
      const count = picked.length < n
        ? this.words.plural("charlemagne.step.discard.count", n, { k: picked.length })
        : this.words.plural("charlemagne.step.discard.count_full", n);
      // The turn line says "discard 2 cards"; the heading is there for screen readers.
      const parts = [
        el("h2", "step-title sr-only", this.words.plural("charlemagne.step.discard.title", n)),
        counter(refusal || count, refusal ? "refused" : "count"),
      ];
      if (deal.kitty) parts.push(cardsRow(t("charlemagne.step.discard.kitty"), deal.kitty, t));
      if (deal.blind_card) parts.push(cardsRow(t("charlemagne.step.discard.blind"), [deal.blind_card], t));
      parts.push(
        button(this.words.plural("charlemagne.step.discard.confirm", n), "confirm-discard", () => this.act(`discard ${picked.join(" ")}`), {
          primary: true,
          enabled: picked.length === n,
        }),
      );
      return parts;
    }
    if (deal.phase === "trump") {
      const grid = el("div", "suits");
      for (const action of deal.legal) {
        const suit = action.split(" ")[1];
        const b = button(`${SUIT_SIGNS[suit]} ${t(`charlemagne.step.trump.${suit}`)}`, `trump-${suit}`, () => this.act(action), { primary: true });
        b.dataset.suit = suit;
        grid.append(b);
      }
      const parts = [el("h2", "step-title sr-only", t("charlemagne.step.trump.title")), grid];
      if (deal.discards) parts.push(cardsRow(t("charlemagne.step.trump.discarded"), deal.discards, t));
      return parts;
    }
    return [];
  }

  /** What the page shows while another seat decides (or nothing is asked). */
  watch(state) {
    const deal = state.view.deal;
    const me = state.seat;
    const t = this.words.t;
    const parts = [];
    if (deal.phase === "auction") {
      parts.push(el("h2", "step-title", t("charlemagne.step.auction.watch")));
      const list = el("ol", "auction-list");
      list.dataset.testid = "auction-list";
      for (const b of deal.bids) {
        list.append(el("li", "", t("charlemagne.step.auction.entry", { name: this.words.seatLabel(deal, b.seat, me), bid: this.words.bid(b.bid) })));
      }
      parts.push(list);
    } else if (deal.bidder !== null) {
      parts.push(el("h2", "step-title", this.words.contractLine(state)));
    }
    const kitty = el("p", "step-cards kitty");
    kitty.dataset.testid = "kitty";
    if (deal.kitty_count > 0) {
      kitty.append(el("span", "step-cards-label", this.words.plural("charlemagne.step.kitty_down", deal.kitty_count)));
      for (let i = 0; i < deal.kitty_count; i += 1) kitty.append(cardBack());
      parts.push(kitty);
    }
    if (deal.blind_card && place(deal.bidder, me) === "partner") {
      parts.push(cardsRow(t("charlemagne.step.gave"), [deal.blind_card], t));
    } else if (deal.card_passed && deal.bidder !== me) {
      parts.push(el("p", "step-note", t("charlemagne.step.card_passed")));
    }
    if (deal.choice) parts.push(el("p", "step-note", t(`charlemagne.step.choice.${deal.choice}`, { name: this.words.who(deal, deal.bidder, me) })));
    return parts;
  }
}

/** The discard's count line; ``look`` "refused" when it says why a tap was refused (framed as
 * the refusal line is). Two lines are kept for it: nothing below moves when its words change. */
function counter(text, look) {
  const p = el("p", "step-count", text);
  p.dataset.testid = "discard-count";
  p.dataset.look = look;
  p.setAttribute("aria-live", "polite");
  return p;
}

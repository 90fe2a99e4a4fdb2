// The trick in play, each card placed toward the seat that played it, and the last completed
// trick beside it (rules §12: public until the next trick is complete). A trick that has just
// been completed stays in the middle for ``pauseMs`` with its winner marked, then clears.
import { cardImage } from "../cards.js";
import { place } from "./words.js";

const PLACES = ["you", "left", "partner", "right"];

function keyOf(trick) {
  return trick ? trick.cards.map((c) => `${c.seat}${c.card}`).join(",") : "";
}

export class Trick {
  constructor(cross, last, words, pauseMs) {
    this.cross = cross;
    this.last = last;
    this.words = words;
    this.pauseMs = pauseMs;
    this.shownKey = null;
    this.timer = null;
    this.gathering = false;
    this.slots = {};
    for (const where of PLACES) {
      const slot = document.createElement("div");
      slot.className = `slot slot-${where}`;
      slot.dataset.place = where;
      this.slots[where] = slot;
    }
    cross.replaceChildren(...PLACES.map((p) => this.slots[p]));
  }

  /** Show ``state``'s trick; ``onSettled`` runs once a just-completed trick has been shown for
   * its pause (at once when there is nothing to pause for). ``first``: the page has just loaded,
   * so a trick completed long ago is not replayed. */
  render(state, first, onSettled) {
    const deal = state.view.deal;
    this.deal = deal;
    const key = keyOf(deal.last_trick);
    if (first) this.shownKey = key;
    this.renderLast(state);
    if (deal.trick.length === 0 && deal.last_trick && key !== this.shownKey && this.pauseMs > 0) {
      this.shownKey = key;
      this.fill(deal.last_trick.cards, state.seat, deal.last_trick.winner);
      this.cross.dataset.gathering = "true";
      this.gathering = true;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.gathering = false;
        this.cross.dataset.gathering = "false";
        this.fill([], state.seat, null);
        onSettled();
      }, this.pauseMs);
      return;
    }
    this.shownKey = key;
    if (this.gathering && deal.trick.length === 0) return; // still on show; onSettled will run
    clearTimeout(this.timer);
    this.gathering = false;
    this.cross.dataset.gathering = "false";
    this.fill(deal.trick, state.seat, null);
    onSettled();
  }

  fill(cards, me, winner) {
    const t = this.words.t;
    for (const where of PLACES) this.slots[where].replaceChildren();
    for (const entry of cards) {
      const slot = this.slots[place(entry.seat, me)];
      const image = cardImage(entry.card, t);
      const caption = document.createElement("span");
      caption.className = "slot-caption";
      caption.textContent = this.words.seatShort(this.deal, entry.seat, me);
      slot.append(image, caption);
      if (winner === entry.seat) {
        const tag = document.createElement("span");
        tag.className = "takes";
        tag.textContent = t("charlemagne.trick.takes");
        slot.append(tag);
      }
    }
    this.cross.dataset.count = String(cards.length);
  }

  renderLast(state) {
    const deal = state.view.deal;
    const t = this.words.t;
    const last = deal.last_trick;
    const label = document.createElement("span");
    label.className = "last-label";
    if (!last) {
      label.textContent = t("charlemagne.trick.last_none");
      this.last.replaceChildren(label);
      return;
    }
    label.textContent = t("charlemagne.trick.last", { name: this.words.who(deal, last.winner, state.seat) });
    const cards = document.createElement("span");
    cards.className = "last-cards";
    for (const entry of last.cards) {
      const image = cardImage(entry.card, t);
      image.dataset.seat = deal.seat_names[entry.seat];
      if (entry.seat === last.winner) image.dataset.winner = "true";
      cards.append(image);
    }
    this.last.replaceChildren(label, cards);
  }
}

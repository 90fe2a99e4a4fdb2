// The player's hand on the table page: one <button> per card (cards.js), each a whole tap
// target of at least 44 px. Its looks, told apart by shape and not by colour alone (each
// game's sheet draws them):
//   - "rest": not your turn, or not a card's moment: the faces as they are (data-look="rest");
//   - "refused": your turn but a rule refuses this card: marked (class `refused`, a badge);
//   - "pick": a card you may tap; "picked": chosen (a discard, a blind pass: aria-pressed).
// A card that may not be tapped says why in its title and accessible name.
//
// From the keyboard exactly one card is tabbable (roving tabindex); the arrow keys, Home and
// End move along the hand, Enter or Space taps. The tabbable card stays the one that had it (or
// the card now at its place when that one was played), and focus comes back to the hand after
// each drawing when it was there before (a played card's button is gone, so focus fell out).
import { cardButton, cardLabel } from "./cards.js";

export class Hand {
  /**
   * `node`: the hand's element (#hand); `t`: the translator; `onTap(card, event)`: a card was
   * tapped (or pressed from the keyboard); `layout(node)`, if given, lays the hand out for
   * the width it has (after each drawing and on resize).
   */
  constructor(node, t, { onTap, layout }) {
    Object.assign(this, { node, t, onTap, layout });
    this.focusIndex = 0;
    this.focusInHand = false;
    node.addEventListener("keydown", (event) => this.key(event));
    node.addEventListener("focusin", () => { this.focusInHand = true; });
    node.addEventListener("focusout", (event) => {
      // Focus that goes nowhere (the button was removed, or a dialog took it and will give it
      // back) still belongs to the hand; focus moved elsewhere on purpose does not.
      const to = event.relatedTarget;
      if (to && !node.contains(to) && !to.closest?.("dialog")) this.focusInHand = false;
    });
    if (layout) window.addEventListener("resize", () => layout(node));
  }

  /** Draw `cards`; `looks[card]` is "pick", "picked", "refused" or "rest" (the default),
   * `why[card]` the words for a card that may not be tapped; `choosing`: the cards are being
   * chosen (each a toggle). */
  render(cards, looks, why, choosing = false) {
    const before = [...this.node.querySelectorAll("button.card")];
    const focused = before.indexOf(document.activeElement);
    if (focused >= 0) this.focusIndex = focused;
    const previous = before[this.focusIndex]?.dataset.card;
    let tabbable = cards.indexOf(previous);
    if (tabbable < 0) tabbable = Math.max(0, Math.min(this.focusIndex, cards.length - 1));
    this.focusIndex = tabbable;
    const buttons = cards.map((card, index) => {
      const look = looks[card] ?? "rest";
      const button = cardButton(card, this.t);
      button.dataset.look = look;
      button.dataset.legal = String(look === "pick" || look === "picked");
      button.tabIndex = index === tabbable ? 0 : -1;
      if (choosing && look !== "rest") button.setAttribute("aria-pressed", String(look === "picked"));
      if (look === "refused" || look === "rest") {
        button.setAttribute("aria-disabled", "true");
        button.setAttribute("aria-label", cardLabel(card, this.t, why[card]));
        button.title = why[card];
      }
      if (look === "refused") {
        button.classList.add("refused");
        const badge = document.createElement("span");
        badge.className = "badge-refused";
        badge.setAttribute("aria-hidden", "true");
        button.append(badge);
      }
      button.addEventListener("click", (event) => this.onTap(card, event));
      return button;
    });
    this.node.replaceChildren(...buttons);
    this.node.dataset.look = Object.values(looks).includes("rest") || !cards.length ? "rest" : "turn";
    this.layout?.(this.node);
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (this.focusInHand && (focused >= 0 || lost) && !document.querySelector("dialog[open]")) {
      buttons[tabbable]?.focus();
    }
  }

  /** `card` is on its way to the table: it lifts until the server answers. */
  lift(card) {
    this.node.querySelector(`[data-card="${card}"]`)?.classList.add("lifted");
  }

  /** The card on its way, or null. */
  lifted() {
    return this.node.querySelector(".lifted")?.dataset.card ?? null;
  }

  /** The change was refused: every card comes back. */
  settle() {
    for (const card of this.node.querySelectorAll(".lifted")) card.classList.remove("lifted");
  }

  /** Give the focus back to the hand's tabbable card, if the hand had it (a dialog closed). */
  focusCurrent() {
    if (this.focusInHand) this.node.querySelectorAll("button.card")[this.focusIndex]?.focus();
  }

  key(event) {
    const cards = [...this.node.querySelectorAll("button.card")];
    const index = cards.indexOf(document.activeElement);
    if (index < 0) return;
    let next = index;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = Math.min(cards.length - 1, index + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = Math.max(0, index - 1);
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = cards.length - 1;
    else return;
    event.preventDefault();
    this.focusIndex = next;
    cards.forEach((c, i) => { c.tabIndex = i === next ? 0 : -1; });
    cards[next].focus();
  }
}

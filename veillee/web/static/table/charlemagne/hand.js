// The player's hand: one <button> per card, laid out so that every card is a whole tap target
// of at least 44 px (one row when they fit, else two), never overlapping and never scrolling
// sideways. Three looks, told apart by shape and not by colour alone:
//   - "rest": not your turn — cards sit lower, undimmed, in a dashed frame (data-look="rest");
//   - "refused": your turn but this card may not be played — dimmed, with a barred-circle badge;
//   - "pick": a card you may tap; "picked": chosen for a discard or the blind pass (raised, ticked).
// Arrow keys move along the hand (one card tabbable), Enter or Space taps.
import { cardButton, cardLabel } from "../cards.js";

const GAP = 4;
const MIN_TARGET = 44;

export class Hand {
  constructor(node, t, onTap) {
    this.node = node;
    this.t = t;
    this.onTap = onTap;
    this.focusIndex = 0;
    this.focusInHand = false;
    node.addEventListener("keydown", (event) => this.key(event));
    node.addEventListener("focusin", () => { this.focusInHand = true; });
    node.addEventListener("focusout", (event) => {
      const to = event.relatedTarget;
      if (to && !node.contains(to) && !to.closest?.("dialog")) this.focusInHand = false;
    });
    window.addEventListener("resize", () => this.layout());
  }

  /** Draw ``cards``; ``looks[card]`` is "pick", "picked", "refused" or "rest", ``why[card]``
   * the reason in words for a refused or resting card. */
  render(cards, looks, why) {
    const before = [...this.node.querySelectorAll("button.card")];
    const focused = before.indexOf(document.activeElement);
    if (focused >= 0) this.focusIndex = focused;
    const previous = before[this.focusIndex]?.dataset.card;
    let tabbable = cards.indexOf(previous);
    if (tabbable < 0) tabbable = Math.max(0, Math.min(this.focusIndex, cards.length - 1));
    this.focusIndex = tabbable;
    const buttons = cards.map((card, index) => {
      const button = cardButton(card, this.t);
      const look = looks[card] ?? "rest";
      button.dataset.look = look;
      button.dataset.legal = String(look === "pick" || look === "picked");
      button.tabIndex = index === tabbable ? 0 : -1;
      if (look === "picked" || look === "pick") button.setAttribute("aria-pressed", String(look === "picked"));
      if (look === "refused" || look === "rest") {
        button.setAttribute("aria-disabled", "true");
        button.setAttribute("aria-label", cardLabel(card, this.t, why[card]));
        button.title = why[card];
      }
      if (look === "refused") {
        const badge = document.createElement("span");
        badge.className = "badge-refused";
        badge.setAttribute("aria-hidden", "true");
        button.append(badge);
      }
      button.addEventListener("click", () => this.onTap(card));
      return button;
    });
    this.node.replaceChildren(...buttons);
    this.node.dataset.look = Object.values(looks).includes("rest") || !cards.length ? "rest" : "turn";
    this.layout();
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (this.focusInHand && (focused >= 0 || lost) && !document.querySelector("dialog[open]")) {
      buttons[tabbable]?.focus();
    }
  }

  /** One row when every card gets at least 44 px, two rows otherwise; the card size also keeps
   * the hand within about a quarter of the screen's height. */
  layout() {
    const n = this.node.children.length;
    if (!n) return;
    const width = this.node.clientWidth;
    const budget = window.innerHeight * (window.innerHeight < 500 ? 0.23 : window.innerHeight < 600 ? 0.23 : window.innerHeight < 700 ? 0.24 : 0.25);
    const fit = (cols) => (width - (cols - 1) * GAP) / cols;
    const oneRow = fit(n) >= MIN_TARGET;
    const cols = oneRow ? n : Math.ceil(n / 2);
    const rows = oneRow ? 1 : 2;
    const tallest = (budget - (rows - 1) * GAP) / rows / 1.5;
    const cardWidth = Math.max(MIN_TARGET, Math.floor(Math.min(96, fit(cols), tallest)));
    this.node.style.setProperty("--cols", String(cols));
    this.node.style.setProperty("--card-w", `${cardWidth}px`);
  }

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

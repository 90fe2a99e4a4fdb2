// The end screens of the table page: a deal's end (a Chouine partie's count, a Charlemagne
// hand's end) and the match's, which the game draws in its own dialog (`Board.endScreen`), and
// the page opens once the deal is over and its last trick has been shown, and closes once the
// next deal is on. Its buttons are the page's: "next" (data-end="next": the next partie or
// hand) and, once the match is over, "new-match" (data-end="new-match").
//
// Against the computer a button deals at once. At a shared table the next deal (or match)
// comes once every person has asked (`next`, sent without a version so that the seats' presses
// never refuse each other): the screen stays, its foot says whom it waits for, and from the
// click on this seat counts as ready (its button waits) before the server says so.
import { el } from "../live/dom.js";
import { hasChat, typingField } from "./chat.js";

/** Open a table's end screen `dialog` for `state` (its buttons for the match's moment): where
 * the table has a chat it is not modal, so that while it waits for everyone to be ready the
 * chat and the top bar stay in reach (the one we wait for is the one to ask); alone against
 * the computer it is modal. */
export function openEndScreen(dialog, state) {
  const over = state.view.match.over;
  dialog.querySelector('[data-end="next"]').hidden = over;
  dialog.querySelector('[data-end="new-match"]').hidden = !over;
  if (dialog.open) return;
  if (!hasChat(state)) {
    dialog.showModal();
    return;
  }
  // Opening moves the focus to the screen's first button: a line being typed keeps it.
  const typing = typingField();
  dialog.show();
  typing?.focus({ preventScroll: true });
  bringComings(dialog);
}

/** While a screen lies over the top of the table, the comings and goings laid there (who has
 * left, and the button that lets the computer play for them) come into it, at its end, so that
 * nothing the table asks of this seat is hidden under it; they go back once it closes. (The
 * push offer stays where it is: it comes unasked, and in the screen it would move the buttons
 * under the finger.) */
function bringComings(dialog) {
  const comings = document.querySelector(".notices > #comings");
  if (!comings) return;
  const mark = document.createComment("comings");
  comings.replaceWith(mark);
  dialog.append(comings);
  dialog.addEventListener("close", () => mark.replaceWith(comings), { once: true });
}

/** The end screen's foot at a shared table: `text` says whom the next deal waits for (the
 * game's words), and this seat's buttons wait once it has asked. */
export function showReady(dialog, state, text) {
  const line = dialog.querySelector(".ready-line");
  const asked = Boolean(state.shared) && state.ready.includes(state.seat);
  line.textContent = text;
  line.hidden = !state.shared;
  for (const button of dialog.querySelectorAll("[data-end]")) button.disabled = asked;
}

export class EndScreen {
  /**
   * `page`: the table page (its `current` state and `send`); `dialog`: the game's end screen;
   * `show(state)`: the game draws it for `state` and opens it (openEndScreen, showReady);
   * `newMatchOptions(state)`: the options of a new match against the computer.
   */
  constructor(page, { dialog, show, newMatchOptions }) {
    Object.assign(this, { page, dialog, show, newMatchOptions });
    this.asked = false; // this page asked for the next deal (or match): not dealt yet
    dialog.addEventListener("cancel", (event) => event.preventDefault()); // answered by a button
    dialog.querySelector('[data-end="next"]').addEventListener("click", () => this.next("next"));
    dialog.querySelector('[data-end="new-match"]').addEventListener("click", () => this.next("new_match"));
  }

  /** `state` as the screen shows it: once this page has asked for the next deal its seat
   * counts as ready before the server says so. */
  shown(state) {
    if (!this.asked || state.ready.includes(state.seat)) return state;
    return { ...state, ready: [...state.ready, state.seat] };
  }

  next(type) {
    const state = this.page.current;
    if (state.shared) {
      this.asked = true;
      this.show(this.shown(state));
      this.page.send({ type: "next" });
      return;
    }
    this.dialog.close();
    if (type === "next") this.page.send({ type: "next" });
    else this.page.send({ type: "new_match", options: this.newMatchOptions(state) });
  }

  /** A state has come: a screen whose deal is over no longer applies once the next is on. */
  stateCame(state) {
    if (state.view.deal.outcome) return;
    this.asked = false;
    if (this.dialog.open) this.dialog.close();
  }

  /** The deal of `state` is shown to its end (its last trick included): the screen opens. */
  settled(state) {
    if (state.view.deal.outcome) this.show(this.shown(state));
  }

  /** The request for the next deal was refused: the screen says again whom it waits for. */
  refused() {
    if (!this.asked) return;
    this.asked = false;
    if (this.dialog.open) this.show(this.page.current);
  }
}

/** A row of an end screen's table: `label` in its head cell, then a cell for each of `values`
 * (texts); `className` and `testid` mark the row when given. */
export function scoreRow(label, values, { className = "", testid } = {}) {
  const tr = el("tr", className);
  if (testid) tr.dataset.testid = testid;
  tr.append(el("th", "", label), ...values.map((value) => el("td", "", value)));
  return tr;
}

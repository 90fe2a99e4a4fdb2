// The refusal line of the table page: why a tap did nothing, or why the server refused a change,
// in the player's language (the page's words, or the server's, which it writes in the language
// the page said hello in). Its room is kept whether it shows or not (table_parts.html):
// nothing moves under the finger.
//
// A message lives as long as its state (shared/UI.md), one rule for every game: a refusal the
// page shows (a tapped card, a bid) is about the version on show, and the next version clears
// it; a refusal from the server is about the state the server sends right after it (the same
// version, or the table as it now stands), so it lives through that state and goes with the
// next one (docs/protocol.md §4). Going offline clears it too: it was about a table the page
// cannot reach now.

const NEXT_STATE = "next state";

export class RefusalLine {
  /** `box`: the refusal's element (#refusal). */
  constructor(box) {
    this.box = box;
    this.about = null; // the version the refusal on show is about, NEXT_STATE, or null
  }

  /** Show `text`, about `version` (the one on show); `kind` says whose "no" it is: "refused"
   * (a rule, or the server) or "rest" (not your turn), for the line's look (data-kind). */
  show(text, kind, version) {
    this.box.textContent = text;
    this.box.dataset.kind = kind;
    this.box.hidden = false;
    this.about = version;
  }

  /** Show the server's refusal `text`: it is about the state that follows it. */
  fromServer(text) {
    this.show(text, "refused", NEXT_STATE);
  }

  hide() {
    this.box.hidden = true;
    this.box.textContent = "";
    this.about = null;
  }

  /** A state of `version` has come: a refusal about an older one goes now. */
  stateCame(version) {
    if (this.about === NEXT_STATE) this.about = version;
    else if (this.about !== null && this.about !== version) this.hide();
  }
}

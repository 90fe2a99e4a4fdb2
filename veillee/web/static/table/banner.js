// The connection banner of a table page (LiveConnection's onStatus): "Reconnecting…" while the
// socket is down, "Back" for a moment once it is up again, nothing once the table is gone (the
// page shows its own screen then). It lies over the table: showing it moves nothing. The table
// element's `data-connection` says "down" or "up" for the page's styles and for tests.

const BACK_SHOWN_MS = 1500;

export class ConnectionBanner {
  /** `banner`: the banner element; `table`: the element whose `data-connection` it sets. */
  constructor(banner, table) {
    this.banner = banner;
    this.table = table;
    this.timer = null;
  }

  /** The socket is down: say `text` until it is back. */
  down(text) {
    this.show(text, "down");
  }

  /** The socket is back: say `text` for a moment. */
  back(text) {
    this.show(text, "up");
    this.timer = setTimeout(() => { this.banner.hidden = true; }, BACK_SHOWN_MS);
  }

  /** Make the banner speak up (a tap while the socket is down): its animation runs again;
   * returns what it says. */
  nudge() {
    this.banner.classList.remove("nudge");
    void this.banner.offsetWidth; // restart the animation
    this.banner.classList.add("nudge");
    return this.banner.textContent;
  }

  /** The table is gone: no banner. */
  hide() {
    clearTimeout(this.timer);
    this.banner.hidden = true;
  }

  show(text, connection) {
    clearTimeout(this.timer);
    this.table.dataset.connection = connection;
    this.banner.classList.remove("nudge");
    this.banner.textContent = text;
    this.banner.hidden = false;
  }
}

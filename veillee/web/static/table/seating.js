// Seats on the table page (docs/protocol.md §1b): a page opened without a seat token takes the
// seat its link names (or, the table's plain link, the open one), or says why it cannot: the
// seat is taken, the computer's, the table full ("taken" screen), or there is no table for it
// ("lost" screen). While a shared table's seats are open the page shows only the waiting
// screen: who sits where, the link of each open seat with Copy (and the phone's share sheet),
// for the table's maker a button that lets the computer play an open seat, and the time left.
// A table of two seats needs one link, the table's own: its plain link seats the one open seat,
// and it is in the page from its first frame (table.html). A table of more has one per seat.
import { $ } from "../live/dom.js";
import { SeatLinks, copyText, countDown } from "./seat_links.js";
import { linkGiven, linkSeat, lostWords, takeSeat } from "./seats.js";

const MAKER = 0; // the seat of whoever made a shared table (docs/protocol.md §1b)
const NO_SEAT = new Set(["seat_taken", "seat_computer", "table_full"]);

/** No seat here yet: take the one this page's link names (seats.js keeps the token in
 * localStorage). The token, or null once the page has said why not. */
export async function sitDown(page) {
  const taken = await takeSeat(page.tableId, linkSeat(), page.root.dataset.seatRefusal, linkGiven());
  if (taken.token) return taken.token;
  if (NO_SEAT.has(taken.code)) {
    $("taken-text").textContent = page.t(`reason.${taken.code}`);
    $("taken").hidden = false;
    page.root.dataset.state = "full";
  } else {
    showLost(page, taken.code);
  }
  return null;
}

/** The table is not (or no longer) there for this page: say why (`why`, a refusal's code or
 * the connection's "refused" / "gone"), with a way to start a match. */
export function showLost(page, why) {
  const seating = page.current?.seated.includes(false);
  page.waiting.stop();
  // A shared table nobody sat at within its time: say so.
  $("lost-text").textContent = seating ? page.say("waiting.expired") : page.t(lostWords(page.game, why));
  $("lost").hidden = false;
  page.root.dataset.state = "lost";
}

export class Waiting {
  /** The waiting screen of `page` (its words, board, `send`). */
  constructor(page) {
    this.page = page;
    this.timer = null;
    this.shareText = "";
    const copied = () => { $("copied").textContent = page.say("waiting.copied"); };
    this.seatLinks = new SeatLinks($("seat-links"), page.t, {
      onCopied: copied,
      onFill: (seat) => page.send({ type: "fill", seats: [seat] }),
    });
    const input = $("share-link");
    input.addEventListener("focus", () => input.select());
    $("copy-link").addEventListener("click", async () => {
      await copyText(input.value, input);
      copied();
    });
    const share = $("share-link-button");
    if (typeof navigator.share !== "function") return;
    share.hidden = false;
    share.addEventListener("click", () => {
      navigator.share({ title: document.title, text: this.shareText, url: input.value }).catch(() => {});
    });
  }

  /** Show the waiting screen while a seat of `state` is open; whether it is shown. */
  render(state) {
    const seating = state.seated.includes(false);
    this.stop();
    $("waiting").hidden = !seating;
    if (!seating) return false;
    const { t, board } = this.page;
    const maker = state.seat === MAKER;
    $("waiting-title").textContent = this.page.say("waiting.title");
    $("waiting-send").textContent = this.page.say(maker ? "waiting.send" : "waiting.guest");
    const link = this.page.root.dataset.link;
    const rows = board.seatRows(state).map((row) => ({
      ...row,
      status: !state.seated[row.seat] ? "open" : state.seats[row.seat] === "computer" ? "computer" : "seated",
      url: `${link}?seat=${row.seat}`,
    }));
    const two = state.seats.length === 2;
    $("table-link").hidden = !two;
    this.shareText = two ? rows[0]?.shareText ?? "" : "";
    this.seatLinks.render(two ? [] : rows, maker);
    $("fill-note").hidden = two || !maker;
    this.timer = countDown($("waiting-time"), state.expires_at, t);
    return true;
  }

  /** The screen is done with (the seats are taken, or the table is gone). */
  stop() {
    clearInterval(this.timer);
    $("waiting").hidden = true;
  }
}

// The seat links of a shared table's waiting screen, for any number of seats (docs/protocol.md
// §1b): one row per other seat saying who sits there (someone, the computer, nobody yet) and,
// while the seat is open, its own link with Copy (and the phone's share sheet where the browser
// has one), and for the table's maker a button that lets the computer play it. The rows are
// built again only when what they say changes, so a button does not move under the finger.
import { el } from "../live/dom.js";

/** Copy `text` to the clipboard; without one (a page served over plain http) select `input`
 * and copy by hand. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input.select();
    document.execCommand("copy");
  }
}

export class SeatLinks {
  /**
   * `list`: the <ul> to fill; `t`: the translator; `onCopied()` after a copy; `onFill(seat)`
   * when the maker gives a seat to the computer.
   */
  constructor(list, t, { onCopied, onFill }) {
    this.list = list;
    this.t = t;
    this.onCopied = onCopied;
    this.onFill = onFill;
    this.shown = null;
  }

  /**
   * `rows`: [{seat, place, label, status ("open" | "seated" | "computer"), url, shareText}],
   * in the order shown; `canFill`: whether this page may give open seats to the computer.
   */
  render(rows, canFill) {
    const key = JSON.stringify([rows.map((r) => [r.seat, r.status, r.label, r.url]), canFill]);
    if (key === this.shown) return;
    this.shown = key;
    this.list.replaceChildren(...rows.map((row) => this.row(row, canFill)));
  }

  row({ seat, place, label, status, url, shareText }, canFill) {
    const t = this.t;
    const li = el("li", "seat-link");
    li.dataset.testid = `seat-row-${place}`;
    li.dataset.status = status;
    const head = el("div", "seat-link-head");
    head.append(el("span", "seat-link-name", label), el("span", "seat-link-status", t(`seats.status.${status}`)));
    li.append(head);
    if (status !== "open") return li;
    const input = el("input", "share-link");
    input.type = "text";
    input.readOnly = true;
    input.value = url;
    input.dataset.testid = `seat-link-${place}`;
    input.setAttribute("aria-label", t("seats.link", { place: label }));
    input.addEventListener("focus", () => input.select());
    const buttons = el("div", "options");
    const copy = el("button", "primary", t("seats.copy"));
    copy.type = "button";
    copy.dataset.testid = `copy-${place}`;
    copy.setAttribute("aria-label", t("seats.copy_for", { place: label }));
    copy.addEventListener("click", async () => {
      await copyText(url, input);
      this.onCopied();
    });
    buttons.append(copy);
    if (typeof navigator.share === "function") {
      const share = el("button", "", t("seats.share"));
      share.type = "button";
      share.dataset.testid = `share-${place}`;
      share.setAttribute("aria-label", t("seats.share_for", { place: label }));
      share.addEventListener("click", () => {
        navigator.share({ title: document.title, text: shareText, url }).catch(() => {});
      });
      buttons.append(share);
    }
    if (canFill) {
      const fill = el("button", "", t("seats.fill"));
      fill.type = "button";
      fill.dataset.testid = `fill-${place}`;
      fill.setAttribute("aria-label", t("seats.fill_for", { place: label }));
      fill.addEventListener("click", () => this.onFill(seat));
      buttons.append(fill);
    }
    li.append(input, buttons);
    return li;
  }
}

/** Count down in `node`, every second, the time left until `expiresAt` (ISO 8601) for the
 * seats to be taken ("friend.waiting.time", then "friend.waiting.time_up"); returns the
 * interval's id, for clearInterval. */
export function countDown(node, expiresAt, t) {
  const tick = () => {
    const left = Math.max(0, Math.round((Date.parse(expiresAt) - Date.now()) / 1000));
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    node.textContent = left > 0 ? t("friend.waiting.time", { time }) : t("friend.waiting.time_up");
  };
  tick();
  return setInterval(tick, 1000);
}

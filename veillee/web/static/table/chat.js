// The chat of a table of people (issue 10; messages in docs/protocol.md §2): a side column on a
// desktop, a drawer on a phone opened from the top bar, whose button counts the lines not read.
// It rides the page's one LiveConnection: "chat_sync" after every (re)connect with the last line
// the page has (the server sends what is missing), "chat" to say a line (its answer comes here,
// not to the page's refusal line), "chat" messages with the lines. Every line is shown with
// textContent only: markup in it stays text.
//
// The drawer lies over the table and the button's badge is drawn over its corner: opening,
// closing and counting move nothing on the table (shared/UI.md, nothing moves under the finger).
import { el } from "../live/dom.js";

const DESKTOP = "(min-width: 1000px)";

/** The chat's two numbers, as the server set them in the table page (veillee/tables/chat.py,
 * the one source): `maxChars`, the longest line (the server judges; the input only helps), and
 * `kept`, the lines a table's chat keeps (a page open all evening shows the newest ones too,
 * and lets the older go). */
function limits() {
  const table = document.getElementById("table").dataset;
  return { maxChars: Number(table.chatMaxChars), kept: Number(table.chatKept) };
}

/** A speech bubble drawn in SVG (an emoji may have no glyph on the phone). */
function bubble() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "chat-icon");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z");
  svg.append(path);
  return svg;
}

/** Whether a table (a `state` message) has a chat: two or more of its seats are people's. */
export function hasChat(state) {
  return state.seats.filter((kind) => kind === "human").length >= 2;
}

/** The text field the person is typing in (the chat's line), or null: a screen that opens or
 * closes over the table leaves the keyboard there, so that its Enter sends the line (and does
 * not press a button, nor play a card). */
export function typingField() {
  const active = document.activeElement;
  return active?.matches?.("input, textarea") ? active : null;
}

export class Chat {
  /**
   * conn: the page's LiveConnection; t: its translator; lang: "fr" | "en"; tableId; seat: this
   * page's seat; seatName(seat): how the page calls a seat ("Partner", "Your friend").
   */
  constructor({ conn, t, lang, tableId, seat, seatName }) {
    Object.assign(this, { conn, t, seat, seatName }, limits());
    this.lastSeq = 0; // the newest line shown
    this.readKey = `veillee.chat.read.${tableId}`;
    this.readSeq = Number(this.stored(this.readKey) || 0); // the newest line seen, kept over reloads
    this.unread = 0;
    this.desktop = window.matchMedia(DESKTOP);
    this.clock = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" });
    this.build();
    conn.on("chat", (message) => this.receive(message.lines));
    conn.on("ready", () => this.sync());
    this.desktop.addEventListener("change", () => this.markRead());
    // Mounted on a socket that is ready already: its "ready" may have gone by, or may come just
    // after this (mounted from the first snapshot): one sync either way.
    this.firstSync = setTimeout(() => this.sync(), 0);
  }

  build() {
    const t = this.t;
    this.toggle = el("button", "chat-toggle");
    this.toggle.type = "button";
    this.toggle.dataset.testid = "chat-toggle";
    this.toggle.setAttribute("aria-controls", "chat");
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.append(bubble());
    this.badge = el("span", "chat-unread");
    this.badge.dataset.testid = "chat-unread";
    this.badge.hidden = true;
    this.toggle.append(this.badge);
    this.toggle.addEventListener("click", () => this.open());
    const bar = document.querySelector(".topbar");
    bar.insertBefore(this.toggle, bar.lastElementChild);

    this.panel = el("aside", "chat");
    this.panel.id = "chat";
    this.panel.dataset.testid = "chat";
    this.panel.setAttribute("aria-labelledby", "chat-title");
    const head = el("div", "chat-head");
    const title = el("h2", "chat-title", t("chat.title"));
    title.id = "chat-title";
    const close = el("button", "chat-close", "×");
    close.type = "button";
    close.dataset.testid = "chat-close";
    close.setAttribute("aria-label", t("chat.close"));
    close.addEventListener("click", () => this.close());
    head.append(title, close);
    this.list = el("ol", "chat-lines");
    this.list.dataset.testid = "chat-lines";
    this.list.setAttribute("aria-live", "polite");
    this.empty = el("p", "chat-empty", t("chat.empty"));
    this.notice = el("p", "chat-notice");
    this.notice.dataset.testid = "chat-notice";
    this.notice.setAttribute("role", "status");
    const form = el("form", "chat-form");
    this.input = el("input", "chat-input");
    Object.assign(this.input, { type: "text", maxLength: this.maxChars, autocomplete: "off" });
    this.input.placeholder = t("chat.placeholder");
    this.input.dataset.testid = "chat-input";
    this.input.setAttribute("aria-label", t("chat.input"));
    this.input.setAttribute("enterkeyhint", "send");
    this.input.addEventListener("input", () => this.say(""));
    const send = el("button", "chat-send primary", t("chat.send"));
    send.type = "submit";
    send.dataset.testid = "chat-send";
    form.append(this.input, send);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.panel.classList.contains("open")) this.close();
    });
    this.panel.append(head, this.list, this.empty, this.notice, form);
    document.body.append(this.panel);
    document.body.classList.add("with-chat");
    this.updateBadge();
  }

  stored(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null; // storage refused (a private window): unread counts start afresh
    }
  }

  /** Ask for the lines after the newest one shown (every (re)connect). */
  sync() {
    clearTimeout(this.firstSync);
    this.conn.post({ type: "chat_sync", after: this.lastSeq });
  }

  visible() {
    return this.desktop.matches || this.panel.classList.contains("open");
  }

  open() {
    this.panel.classList.add("open");
    this.toggle.setAttribute("aria-expanded", "true");
    this.markRead();
    this.list.scrollTop = this.list.scrollHeight;
    this.input.focus();
  }

  close() {
    this.panel.classList.remove("open");
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.focus();
  }

  /** Lines from the server, oldest first (a catch-up or lines just said). */
  receive(lines) {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    for (const line of lines) {
      if (line.seq <= this.lastSeq) continue; // had already
      this.lastSeq = line.seq;
      this.list.append(this.lineItem(line));
      if (line.seat !== this.seat && line.seq > this.readSeq) this.unread += 1;
    }
    while (this.list.children.length > this.kept) this.list.firstElementChild.remove();
    this.unread = Math.min(this.unread, this.kept); // no more unread lines than the page shows
    this.empty.hidden = this.lastSeq > 0;
    if (atBottom || this.visible()) this.list.scrollTop = this.list.scrollHeight;
    if (this.visible()) this.markRead();
    else this.updateBadge();
  }

  lineItem(line) {
    const item = el("li", line.seat === this.seat ? "chat-line mine" : "chat-line");
    item.dataset.seq = String(line.seq);
    item.dataset.seat = String(line.seat);
    const meta = el("span", "chat-meta");
    const who = el("span", "chat-who", line.seat === this.seat ? this.t("chat.you") : this.seatName(line.seat));
    const when = el("time", "chat-time", this.clock.format(new Date(line.at)));
    when.dateTime = line.at;
    meta.append(who, " ", when);
    const text = el("span", "chat-text", line.text);
    text.dataset.testid = "chat-text";
    item.append(meta, text);
    return item;
  }

  markRead() {
    if (!this.visible()) return;
    this.unread = 0;
    this.readSeq = Math.max(this.readSeq, this.lastSeq);
    try {
      localStorage.setItem(this.readKey, String(this.readSeq));
    } catch {
      // storage refused: the count is kept for this page only
    }
    this.updateBadge();
  }

  updateBadge() {
    const n = this.unread;
    this.badge.hidden = n === 0;
    this.badge.textContent = n > 99 ? "99+" : String(n);
    const label = n ? `${this.t("chat.open")} — ${this.t("chat.unread", { n })}` : this.t("chat.open");
    this.toggle.setAttribute("aria-label", label);
  }

  /** Show `text` (a refusal in the player's language) under the lines; "" clears it. */
  say(text) {
    this.notice.textContent = text;
  }

  submit() {
    const text = this.input.value;
    if (!text.trim()) {
      this.say(this.t("reason.chat_empty"));
      return;
    }
    this.input.value = "";
    this.say("");
    this.conn.send({ type: "chat", text }, (answer) => {
      if (answer.type !== "error") return;
      this.say(answer.message);
      if (!this.input.value) this.input.value = text; // refused: give it back to edit
    });
  }
}

// "Tell me when it's my turn" (issue 26), for every game's table page: at a table of people,
// once this browser's seat is taken and the table is full, the page offers it once (never at
// page load, never again unless asked from the menu). On yes: the browser's permission prompt,
// the table pages' service worker (/table-sw.js: sw.js beside this file, registered for the
// game's table pages, scope /<game>/table/, so that it never overlaps the sheet's /scores), a push
// subscription for the server's VAPID key (data-push-key), kept by the server with the seat
// (POST /api/tables/<id>/push). The menu switches it off (…/push/off) or on again. What this
// browser chose is kept per table in localStorage ("on" or "off"), never the subscription's
// keys.
import { $ } from "../live/dom.js";

const CHOICE = "veillee.push.";
const WORKER = "/table-sw.js";

/** Whether this browser can be told at all (a service worker, push, notifications). */
export function canPush() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The application server key (base64url) as the bytes `subscribe()` takes. */
function keyBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

export class TurnNotice {
  /** For `page` (its tableId, lang, t, root) with the seat's `token`. */
  constructor(page, token) {
    this.page = page;
    this.token = token;
    this.key = page.root.dataset.pushKey || "";
    this.menu = $("push-menu");
    this.offer = $("push-offer");
    this.status = $("push-status");
    this.offered = false;
    $("push-yes").addEventListener("click", () => this.switchOn());
    $("push-no").addEventListener("click", () => {
      this.choose("off");
      this.offer.hidden = true;
    });
    this.menu.addEventListener("click", () => (this.chosen() === "on" ? this.switchOff() : this.show(true)));
    // A tap elsewhere puts the offer (and the line that answered it) away, choosing nothing.
    document.addEventListener("pointerdown", (event) => {
      if (!this.offer.contains(event.target) && !this.menu.contains(event.target)) {
        this.offer.hidden = true;
        this.status.textContent = "";
      }
    });
  }

  chosen() {
    return localStorage.getItem(CHOICE + this.page.tableId);
  }

  choose(value) {
    localStorage.setItem(CHOICE + this.page.tableId, value);
    this.drawMenu();
  }

  drawMenu() {
    this.menu.textContent = this.page.t(this.chosen() === "on" ? "push.menu.off" : "push.menu.on");
  }

  /** A new state: offer once the seat sits at a full table of people. */
  stateCame(state) {
    const people = state.seats.filter((kind) => kind === "human").length;
    if (people < 2 || !this.key || !canPush()) return;
    this.menu.hidden = false;
    this.drawMenu();
    if (this.offered || state.seated.includes(false)) return;
    this.offered = true;
    if (this.chosen() === null) this.show(false);
  }

  /** Show the offer; `asked` (from the menu): its yes takes the focus (offered by itself, it
   * leaves the focus where the player is, in the hand). */
  show(asked = true) {
    this.offer.hidden = false;
    if (asked) $("push-yes").focus();
  }

  say(key) {
    this.status.textContent = this.page.t(key);
  }

  async switchOn() {
    this.offer.hidden = true;
    try {
      const allowed = await Notification.requestPermission();
      if (allowed !== "granted") {
        this.say("push.denied");
        return;
      }
      const registration = await navigator.serviceWorker.register(WORKER, { scope: `/${this.page.game}/table/` });
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(this.key) }));
      await this.post("push", { token: this.token, subscription: subscription.toJSON(), lang: this.page.lang });
      this.choose("on");
      this.say("push.on");
    } catch {
      this.say("push.failed");
    }
  }

  async switchOff() {
    try {
      await this.post("push/off", { token: this.token });
      this.choose("off");
      this.say("push.off");
    } catch {
      this.say("push.failed");
    }
  }

  async post(path, body) {
    const response = await fetch(`/api/tables/${encodeURIComponent(this.page.tableId)}/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`push ${path}: ${response.status}`);
  }
}

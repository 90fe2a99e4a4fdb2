// The live connection to one sheet: a websocket that says hello with the sheet token, follows
// the browser's online/offline state and reconnects by itself.
const RETRY_MS = [300, 1000, 2000, 5000];

export class SheetLink {
  /**
   * handlers: onSheet(view), onAck(msg), onError(msg), onNet("online" | "offline" | "reconnecting")
   */
  constructor(sheetId, token, handlers) {
    this.sheetId = sheetId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.ready = false;
    this.attempt = 0;
    this.timer = null;
  }

  start() {
    window.addEventListener("offline", () => this.goOffline());
    window.addEventListener("online", () => this.connect());
    if (navigator.onLine) this.connect();
    else this.handlers.onNet("offline");
  }

  goOffline() {
    clearTimeout(this.timer);
    this.ready = false;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this.handlers.onNet("offline");
  }

  connect() {
    clearTimeout(this.timer);
    if (this.ws) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/sheets/${encodeURIComponent(this.sheetId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "sheet") {
        const first = !this.ready;
        this.ready = true;
        this.attempt = 0;
        this.handlers.onSheet(msg.sheet);
        if (first) this.handlers.onNet("online");
      } else if (msg.type === "ack") {
        this.handlers.onAck(msg);
      } else if (msg.type === "error") {
        this.handlers.onError(msg);
      }
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      if (event.code === 4403 || event.code === 4400) return; // the token is refused: stay put
      if (!navigator.onLine) {
        this.handlers.onNet("offline");
        return;
      }
      this.handlers.onNet("reconnecting");
      const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Send `message` now if connected; false if not (the caller keeps or refuses it). */
  send(message) {
    if (!this.ready || !this.ws) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}

// One websocket to a table (docs/protocol.md): hello with the seat token and the version we
// have, reconnects with backoff, and re-sends an unanswered change under the same client id
// (the server acknowledges a repeated id without applying it twice).
//
// Trouble is noticed three ways: the socket closes; the browser says it went offline (a socket
// may stay "open" on a dead network for minutes); or the heartbeat goes unanswered.
const HEARTBEAT_MS = 10000;

export function newClientId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class TableConnection {
  constructor({ tableId, token, lang, onState, onError, onAck, onStatus }) {
    Object.assign(this, { tableId, token, lang, onState, onError, onAck, onStatus });
    this.version = null;
    this.pending = null;
    this.retries = 0;
    this.down = false;
    this.closed = false;
    this.socket = null;
    this.retryTimer = null;
    this.heartbeat = null;
    this.heard = true;
    window.addEventListener("offline", () => this.lose());
    window.addEventListener("online", () => {
      if (this.closed || !this.down) return;
      clearTimeout(this.retryTimer);
      this.open();
    });
  }

  open() {
    if (this.closed) return;
    if (!navigator.onLine) {
      this.lose(); // wait for the "online" event
      return;
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, version: this.version, lang: this.lang }));
      this.startHeartbeat(socket);
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.heard = true;
      this.receive(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (this.closed || this.socket !== socket) return;
      if (event.code === 4403 || event.code === 4404) {
        this.closed = true;
        this.stopHeartbeat();
        this.onStatus("lost");
        return;
      }
      this.lose();
    });
  }

  /** The connection is gone: say so, drop the socket, and try again (with backoff) once the
   * browser is online. */
  lose() {
    if (this.closed) return;
    this.stopHeartbeat();
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
    if (!this.down) {
      this.down = true;
      this.onStatus("reconnecting");
    }
    clearTimeout(this.retryTimer);
    if (!navigator.onLine) return;
    const wait = Math.min(5000, 300 * 2 ** this.retries);
    this.retries += 1;
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  startHeartbeat(socket) {
    this.stopHeartbeat();
    this.heard = true;
    this.heartbeat = setInterval(() => {
      if (this.socket !== socket) return;
      if (!this.heard) {
        this.lose(); // nothing came back since the last ping
        return;
      }
      this.heard = false;
      socket.send(JSON.stringify({ type: "ping" }));
    }, HEARTBEAT_MS);
  }

  stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  receive(message) {
    if (message.type === "state") {
      const wasDown = this.down;
      this.down = false;
      this.retries = 0;
      this.version = message.version;
      if (wasDown) this.onStatus("back");
      this.onState(message);
      if (wasDown && this.pending) this.socket.send(JSON.stringify(this.pending));
    } else if (message.type === "ack") {
      if (this.pending && this.pending.client_id === message.client_id) this.pending = null;
      this.onAck(message);
    } else if (message.type === "error") {
      if (message.code === "rate_limited" && this.pending && this.pending.client_id === message.client_id) {
        // Dropped, not refused: send the same change again a moment later.
        const pending = this.pending;
        setTimeout(() => {
          if (this.pending === pending && this.socket?.readyState === WebSocket.OPEN) {
            this.socket.send(JSON.stringify(pending));
          }
        }, 1000);
        return;
      }
      if (this.pending && this.pending.client_id === message.client_id) this.pending = null;
      this.onError(message);
    }
  }

  /** Send a change ({type: "act" | "next" | "new_match", …}); returns its client id. */
  send(change) {
    const message = { ...change, client_id: newClientId() };
    this.pending = message;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    return message.client_id;
  }
}

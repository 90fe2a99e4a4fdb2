// One websocket to a table (docs/protocol.md): hello with the seat token and the version we
// have, reconnects with backoff, and re-sends an unanswered change under the same client id
// (the server acknowledges a repeated id without applying it twice).
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
    this.closed = false;
    this.socket = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, version: this.version, lang: this.lang }));
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (this.closed || this.socket !== socket) return;
      if (event.code === 4403 || event.code === 4404) {
        this.closed = true;
        this.onStatus("lost");
        return;
      }
      this.onStatus("reconnecting");
      const wait = Math.min(5000, 300 * 2 ** this.retries);
      this.retries += 1;
      setTimeout(() => this.open(), wait);
    });
  }

  receive(message) {
    if (message.type === "state") {
      const wasDown = this.retries > 0;
      this.retries = 0;
      this.version = message.version;
      if (wasDown) this.onStatus("back");
      this.onState(message);
      if (wasDown && this.pending) this.socket.send(JSON.stringify(this.pending));
    } else if (message.type === "ack") {
      if (this.pending && this.pending.client_id === message.client_id) this.pending = null;
      this.onAck(message);
    } else if (message.type === "error") {
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

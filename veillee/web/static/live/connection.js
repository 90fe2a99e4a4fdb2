// The one websocket connection of the site's pages to a live record, a table or a score sheet
// (docs/protocol.md §2): hello with the token and the version the page has, reconnects with
// backoff, and sends the page's changes one at a time, in order, each under its client id until
// the server has answered it. A change sent again after a lost answer is acknowledged, never
// applied twice; one dropped by the rate limit (or refused as busy) is sent again a moment later.
//
// Trouble is noticed three ways: the socket closes; the browser says it went offline (a socket
// may stay "open" on a dead network for minutes); or the heartbeat goes unanswered.
//
// A hidden page (a background tab: the Page Visibility API's document.hidden) says so in a ping
// the moment it is hidden (and after its hello when it opens hidden), and again when it is
// shown: the browser throttles a hidden page's timers, so its heartbeat comes late, and the
// server allows it a longer silence than a shown page's (docs/protocol.md §2) rather than close
// its socket and show its seat away and back.
const HEARTBEAT_MS = 10000;
const RETRY_MS = 1000; // before sending again a change dropped as rate_limited or busy
const TRANSIENT = new Set(["rate_limited", "busy"]);
const FOR_GOOD = new Set([4403, 4404]); // token refused, record gone: trying again cannot help

/** A fresh client id for a change: 128 random bits, hex (works without a secure context). */
export function newClientId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class LiveConnection {
  /**
   * path: the socket's path ("/ws/tables/<id>", "/ws/sheets/<id>"); token: the seat or sheet
   * token; lang: "fr" | "en"; snapshot: the type of the message that carries the record
   * ("state", "sheet"; its `version` is the record's).
   * onSnapshot(message): the record as this page may see it.
   * onAck(message), onError(message): the server's answers; an error naming no change is about
   * the connection or a frame. A change dropped as rate_limited or busy is sent again instead.
   * onOther(message): any other message (a table's "presence").
   * onStatus(status): "online" (the first snapshot), "back" (the first snapshot after trouble),
   * "offline" (the browser is offline), "reconnecting", "lost" (the token was refused or the
   * record is gone: no more tries; a second argument says which, "refused" or "gone").
   * Other parts of the page (a table's chat) share the connection: `on(type, handler)` hears the
   * server's messages of another type, and "ready" (a socket's first snapshot, after every
   * reconnect); `post(frame)` sends a frame that is no change; `send(change, answered)` hands
   * the change's answer (ack or error) to `answered` instead of onAck/onError.
   * showsOwnChanges: the page shows its own changes before they are answered (the sheet's
   * pending rows), so a change it made on version v, waiting behind one of its own that the
   * server then stores as v + 1, was made on v + 1: its `version` moves on with it. (A change
   * by anyone else in between leaves it at v, to be refused as made on a version gone by.)
   */
  constructor({ path, token, lang, snapshot, onSnapshot, onAck, onError, onStatus, onOther, showsOwnChanges }) {
    Object.assign(this, { path, token, lang, snapshot, onSnapshot });
    this.showsOwnChanges = Boolean(showsOwnChanges);
    this.onAck = onAck || (() => {});
    this.onError = onError || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onOther = onOther || (() => {});
    this.version = null;
    this.queue = []; // changes not yet answered, oldest first; the first one is on the wire
    this.answers = new Map(); // client id -> who hears that change's answer (see send)
    this.listeners = new Map(); // message type (or "ready") -> handlers (see on)
    this.status = null;
    this.troubled = false; // trouble since the last snapshot
    this.retries = 0;
    this.closed = false;
    this.socket = null;
    this.ready = false; // a snapshot came on this socket: changes may go
    this.retryTimer = null;
    this.heartbeat = null;
    this.heard = true;
    document.addEventListener("visibilitychange", () => {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) this.ping(this.socket);
    });
    window.addEventListener("offline", () => this.lose());
    window.addEventListener("online", () => {
      if (this.closed || this.socket) return;
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
    const socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, version: this.version, lang: this.lang }));
      if (document.hidden) this.ping(socket);
      this.startHeartbeat(socket);
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.heard = true;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.closed || this.socket !== socket) return;
      if (FOR_GOOD.has(event.code)) {
        this.closed = true;
        this.drop();
        this.tell("lost", event.code === 4404 ? "gone" : "refused");
        return;
      }
      this.lose();
    });
  }

  tell(status, why) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status, why);
  }

  /** Forget the socket (closing it if need be). */
  drop() {
    this.stopHeartbeat();
    this.ready = false;
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
  }

  /** The connection is gone: say so, drop the socket, and try again (with backoff) once the
   * browser is online. */
  lose() {
    if (this.closed) return;
    this.drop();
    this.troubled = true;
    clearTimeout(this.retryTimer);
    if (!navigator.onLine) {
      this.tell("offline");
      return;
    }
    this.tell("reconnecting");
    // Backoff with jitter: pages dropped together (a server restart) do not all come back at
    // the same instant.
    const wait = Math.min(5000, 300 * 2 ** this.retries) * (0.5 + Math.random() / 2);
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
      this.ping(socket);
    }, HEARTBEAT_MS);
  }

  /** Ping on `socket`, saying whether the page is hidden (see the top of this file). */
  ping(socket) {
    socket.send(JSON.stringify({ type: "ping", hidden: document.hidden }));
  }

  stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  receive(message) {
    if (message.type === this.snapshot) {
      const first = !this.ready;
      this.ready = true;
      this.retries = 0;
      this.version = message.version;
      if (first) this.tell(this.troubled ? "back" : "online");
      this.troubled = false;
      this.onSnapshot(message);
      if (first) {
        this.emit("ready", message);
        this.transmit(); // the change in flight when the socket went, if any
      }
    } else if (message.type === "ack") {
      if (this.showsOwnChanges && !message.duplicate) this.rebase(message.version);
      const answered = this.answers.get(message.client_id);
      this.settle(message.client_id);
      (answered || this.onAck)(message);
    } else if (message.type === "error") {
      const head = this.queue[0];
      if (head && head.client_id === message.client_id && TRANSIENT.has(message.code)) {
        // Dropped, not refused: send the same change again a moment later.
        setTimeout(() => {
          if (this.queue[0] === head) this.transmit();
        }, RETRY_MS);
        return;
      }
      const answered = this.answers.get(message.client_id);
      if (message.client_id) this.settle(message.client_id);
      (answered || this.onError)(message);
    } else {
      this.onOther(message);
      this.emit(message.type, message);
    }
  }

  /** Call `handler(message)` for each message of `type` from the server that is not the
   * snapshot, an ack or an error; "ready": each socket's first snapshot. */
  on(type, handler) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(handler);
  }

  emit(type, message) {
    for (const handler of this.listeners.get(type) || []) handler(message);
  }

  /** Send `frame` now if the socket is ready (a frame that is no change of the record, and
   * that the page sends again on "ready" if need be); returns whether it went. `answered`, if
   * given, hears the errors naming the frame's `client_id` (a page part's refusals). */
  post(frame, answered) {
    if (!this.ready || this.socket?.readyState !== WebSocket.OPEN) return false;
    if (answered && frame.client_id) this.answers.set(frame.client_id, answered);
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** One of this page's changes was stored as `version`: the changes waiting behind it that
   * were made on the version just before it are now made on `version`. */
  rebase(version) {
    for (const change of this.queue) {
      if (change.version === version - 1) change.version = version;
    }
  }

  /** The change `clientId` is answered: forget it and send the next one. */
  settle(clientId) {
    const at = this.queue.findIndex((change) => change.client_id === clientId);
    if (at < 0) return;
    this.queue.splice(at, 1);
    this.answers.delete(clientId);
    if (at === 0) this.transmit();
  }

  /** Put the oldest unanswered change on the wire, if the socket is ready. */
  transmit() {
    if (this.ready && this.queue.length && this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(this.queue[0]));
    }
  }

  /** Send a change ({type, …}; a `client_id` is added unless it has one) after those not yet
   * answered; returns its client id. `answered(message)`, if given, hears its ack or error
   * in place of onAck / onError. */
  send(change, answered) {
    const message = { ...change, client_id: change.client_id || newClientId() };
    if (answered) this.answers.set(message.client_id, answered);
    this.queue.push(message);
    if (this.queue.length === 1) this.transmit();
    return message.client_id;
  }
}

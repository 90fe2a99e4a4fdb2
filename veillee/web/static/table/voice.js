// Voice at a shared table (docs/protocol.md §2c): a button in the top bar opens the voice panel
// (who is in voice, muted, speaking; Join voice, Mute, Leave voice), and the table's maker has
// the switch in the top-bar menu (in the panel on a page without a menu). The sound goes from
// browser to browser (WebRTC, one connection per pair of seats in voice); the table's socket
// only carries who is in voice and the connection set-up. The microphone is asked for when the
// player presses Join voice, never before.
//
// Of two seats in voice the lower one makes the offer, and tries a new connection (twice) when
// one fails or has not connected within the server's `connect_timeout_s`; then the page says
// no connection could be made. A seat's `join` id changes each time it joins (after a
// reconnect too): the others then set up a new connection with it. Each member's
// row says in words what its level meter shows (speaking), and its `data-connection` and
// `data-bytes-in` (from getStats) say how its connection is doing.

const POLL_MS = 300; // getStats: speaking levels and bytes received
const SPEAKING = 0.02; // audioLevel (0..1) above which a seat is shown speaking
const CANDIDATE_BATCH_MS = 50;
const MAX_CANDIDATES = 8; // per voice_signal (the server's limit)
const RETRIES = 2; // new connections tried after one failed, by the seat that offers
const CLIENT_ID = "voice"; // so that the server's refusals come back here

/** Whether a table has voice: a shared table (people only). */
export function hasVoice(state) {
  return Boolean(state.shared);
}

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** A microphone drawn in SVG (an emoji may be missing from a phone's fonts). */
function micIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  for (const [name, value] of Object.entries({ class: "voice-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" })) {
    svg.setAttribute(name, value);
  }
  const body = document.createElementNS(ns, "rect");
  for (const [name, value] of Object.entries({ x: "9", y: "3", width: "6", height: "11", rx: "3" })) body.setAttribute(name, value);
  const stand = document.createElementNS(ns, "path");
  stand.setAttribute("d", "M6 11a6 6 0 0 0 12 0M12 17v4M9 21h6");
  // muted: a slash across it (voice.css shows it), as well as the word
  const slash = document.createElementNS(ns, "path");
  slash.setAttribute("class", "voice-slash");
  slash.setAttribute("d", "M4 3L20 21");
  svg.append(body, stand, slash);
  return svg;
}

/** A microphone error in the player's words. */
function micError(error) {
  if (!window.isSecureContext) return "voice.error.insecure";
  if (!navigator.mediaDevices?.getUserMedia || !window.RTCPeerConnection) return "voice.error.unsupported";
  if (error && (error.name === "NotFoundError" || error.name === "OverconstrainedError")) return "voice.error.no_mic";
  return "voice.error.denied";
}

/** One connection with another seat in voice. */
class Peer {
  constructor(voice, seat, join, offers) {
    this.voice = voice;
    this.seat = seat;
    this.join = join;
    this.pending = []; // candidates heard before the remote description
    this.outbox = [];
    this.flushTimer = null;
    this.bytesIn = 0;
    this.level = 0; // the other seat's, as received
    this.ownLevel = 0; // this page's microphone, as sent
    this.closed = false;
    this.gaveUp = false; // not connected within the server's connect_timeout_s
    this.pc = new RTCPeerConnection({ iceServers: voice.iceServers });
    // The seat that offers adds the audio line; the other sends on the one the offer made.
    this.transceiver = null;
    if (offers) this.sendOn(this.pc.addTransceiver("audio", { direction: "sendrecv" }));
    this.audio = el("audio", { autoplay: "" });
    this.audio.hidden = true;
    voice.sound.append(this.audio);
    this.pc.addEventListener("icecandidate", (event) => {
      if (event.candidate && event.candidate.candidate) this.queueCandidate(event.candidate.toJSON());
    });
    this.pc.addEventListener("track", (event) => {
      this.audio.srcObject = event.streams[0] || new MediaStream([event.track]);
    });
    // A connection whose candidates never get through may stay "new" or "connecting" for
    // ever: not connected within the timeout, it counts as failed (tried again by the seat
    // that offers).
    this.giveUpTimer = voice.connectTimeoutMs > 0 ? setTimeout(() => {
      this.gaveUp = true;
      voice.peerChanged(this, true);
    }, voice.connectTimeoutMs) : null;
    this.pc.addEventListener("connectionstatechange", () => {
      if (this.pc.connectionState === "connected") clearTimeout(this.giveUpTimer);
      voice.peerChanged(this);
    });
  }

  get state() {
    const state = this.pc.connectionState;
    return this.gaveUp && state !== "connected" ? "failed" : state;
  }

  sendOn(transceiver) {
    this.transceiver = transceiver;
    transceiver.direction = "sendrecv";
    this.useTrack();
  }

  /** Send the microphone, or nothing while muted (no packets at all, not silence). */
  useTrack() {
    if (!this.transceiver) return;
    const track = this.voice.muted ? null : this.voice.track;
    this.transceiver.sender.replaceTrack(track).catch(() => {});
  }

  signal(fields) {
    this.voice.post({ type: "voice_signal", to: this.seat, to_join: this.join, ...fields });
  }

  queueCandidate(candidate) {
    this.outbox.push(candidate);
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), CANDIDATE_BATCH_MS);
  }

  flush() {
    this.flushTimer = null;
    while (this.outbox.length && !this.closed) {
      this.signal({ kind: "candidates", candidates: this.outbox.splice(0, MAX_CANDIDATES) });
    }
  }

  async offer() {
    await this.pc.setLocalDescription(await this.pc.createOffer());
    this.signal({ kind: "offer", sdp: this.pc.localDescription.sdp });
  }

  async hear(message) {
    if (message.kind === "offer") {
      await this.pc.setRemoteDescription({ type: "offer", sdp: message.sdp });
      if (!this.transceiver) this.sendOn(this.pc.getTransceivers()[0]);
      await this.pc.setLocalDescription(await this.pc.createAnswer());
      this.signal({ kind: "answer", sdp: this.pc.localDescription.sdp });
      await this.addPending();
    } else if (message.kind === "answer") {
      await this.pc.setRemoteDescription({ type: "answer", sdp: message.sdp });
      await this.addPending();
    } else if (message.kind === "candidates") {
      this.pending.push(...message.candidates);
      if (this.pc.remoteDescription) await this.addPending();
    }
  }

  async addPending() {
    for (const candidate of this.pending.splice(0)) {
      await this.pc.addIceCandidate(candidate).catch(() => {});
    }
  }

  /** Bytes received and the speaker's level, from getStats. */
  async poll() {
    if (this.closed) return;
    const stats = await this.pc.getStats();
    stats.forEach((report) => {
      if (report.type === "inbound-rtp" && report.kind === "audio") {
        this.bytesIn = report.bytesReceived || 0;
        this.level = report.audioLevel || 0;
      } else if (report.type === "media-source" && report.kind === "audio") {
        this.ownLevel = report.audioLevel || 0;
      }
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.flushTimer);
    clearTimeout(this.giveUpTimer);
    this.pc.close();
    this.audio.srcObject = null;
    this.audio.remove();
  }
}

export class Voice {
  /**
   * conn: the page's LiveConnection; t: the translator; seat: this page's seat; seats: how
   * many seats the table has; seatName(seat): a seat in words ("East", "Your friend").
   */
  constructor({ conn, t, seat, seats, seatName }) {
    Object.assign(this, { conn, t, seat, seats, seatName });
    this.enabled = false;
    this.maker = 0;
    this.members = new Map(); // seat -> {muted, join}
    this.joined = false; // this page pressed Join voice (and has not left)
    this.joining = false;
    this.joinId = null;
    this.iceServers = [];
    this.connectTimeoutMs = 0; // from voice_joined
    this.stream = null;
    this.track = null;
    this.muted = false;
    this.peers = new Map(); // seat -> Peer
    this.early = []; // signals heard before voice_joined
    this.tries = new Map(); // seat -> new connections tried after a failure
    this.ownLevel = 0;
    this.pollTimer = null;
    this.build();
    conn.on("voice", (message) => this.heardVoice(message));
    conn.on("voice_joined", (message) => this.heardJoined(message));
    conn.on("voice_signal", (message) => this.heardSignal(message));
    conn.on("ready", () => this.reconnected());
  }

  // ---- the page ------------------------------------------------------------------------

  build() {
    const t = this.t;
    this.root = el("details", { class: "voice", "data-testid": "voice", hidden: "" });
    this.summary = el("summary", { class: "voice-button", "data-testid": "voice-button" });
    this.summary.append(micIcon());
    this.summaryText = el("span", { class: "voice-button-text" }, t("voice.button"));
    this.summary.append(this.summaryText);
    const panel = el("div", { class: "voice-panel", role: "group", "aria-label": t("voice.title") });
    this.note = el("p", { class: "voice-note", "data-testid": "voice-note" });
    this.list = el("ul", { class: "voice-members", "data-testid": "voice-members" });
    this.joinButton = el("button", { type: "button", class: "primary", "data-testid": "voice-join" }, t("voice.join"));
    this.muteButton = el("button", { type: "button", "data-testid": "voice-mute", "aria-pressed": "false" }, t("voice.mute"));
    this.leaveButton = el("button", { type: "button", "data-testid": "voice-leave" }, t("voice.leave"));
    const actions = el("div", { class: "voice-actions" });
    actions.append(this.joinButton, this.muteButton, this.leaveButton);
    this.error = el("p", { class: "voice-error", "data-testid": "voice-error", role: "alert" });
    this.sound = el("div", { class: "voice-sound" });
    panel.append(this.note, this.list, actions, this.error, this.sound);
    this.root.append(this.summary, panel);
    this.switchButton = el("button", { type: "button", class: "menu-item", "data-testid": "voice-switch", "aria-pressed": "false" });
    const menuPanel = document.querySelector("#menu .menu-panel");
    if (menuPanel) {
      menuPanel.prepend(this.switchButton);
    } else {
      this.switchButton.className = "voice-switch";
      panel.prepend(this.switchButton);
    }
    const topbar = document.querySelector(".topbar");
    topbar.insertBefore(this.root, topbar.lastElementChild);
    this.joinButton.addEventListener("click", () => this.join());
    this.muteButton.addEventListener("click", () => this.setMuted(!this.muted));
    this.leaveButton.addEventListener("click", () => this.leave());
    this.switchButton.addEventListener("click", () => this.post({ type: "voice_switch", on: !this.enabled }));
    document.addEventListener("click", (event) => {
      if (this.root.open && !this.root.contains(event.target)) this.root.open = false;
    });
    this.root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.root.open) {
        this.root.open = false;
        this.summary.focus();
      }
    });
    this.render();
  }

  render() {
    const t = this.t;
    const isMaker = this.seat === this.maker;
    // The panel's button shows while voice is on (and always to the maker on a page whose
    // switch lives in the panel).
    this.root.hidden = !(this.enabled || (isMaker && !this.switchButton.classList.contains("menu-item")));
    this.switchButton.hidden = !isMaker;
    this.switchButton.textContent = t(this.enabled ? "voice.switch.off" : "voice.switch.on");
    this.switchButton.setAttribute("aria-pressed", String(this.enabled));
    this.note.textContent = t(this.enabled ? "voice.on_note" : "voice.off_note");
    this.note.hidden = this.joined;
    this.joinButton.hidden = !this.enabled || this.joined;
    this.joinButton.disabled = this.joining;
    this.muteButton.hidden = !this.joined;
    this.muteButton.textContent = t(this.muted ? "voice.unmute" : "voice.mute");
    this.muteButton.setAttribute("aria-pressed", String(this.muted));
    this.leaveButton.hidden = !this.joined;
    this.root.dataset.joined = String(this.joined);
    this.root.dataset.muted = String(this.joined && this.muted);
    this.summaryText.textContent = t(this.joined && this.muted ? "voice.state.muted" : "voice.button");
    this.renderMembers();
  }

  renderMembers() {
    const t = this.t;
    const rows = [];
    for (let seat = 0; seat < this.seats; seat += 1) {
      const member = this.members.get(seat);
      const peer = this.peers.get(seat);
      let state = "out";
      let level = 0;
      if (member) {
        state = member.muted ? "muted" : "in";
        level = seat === this.seat ? this.ownLevel : peer ? peer.level : 0;
        if (seat !== this.seat && this.joined && peer && peer.state !== "connected") {
          state = peer.state === "failed" ? "failed" : "connecting";
        } else if (!member.muted && level > SPEAKING) {
          state = "speaking";
        }
      }
      const name = seat === this.seat ? t("voice.you") : this.seatName(seat);
      const row = el("li", { class: "voice-member", "data-seat": String(seat), "data-state": state });
      if (peer) {
        row.dataset.connection = peer.state;
        row.dataset.bytesIn = String(peer.bytesIn);
      }
      const meter = el("span", { class: "voice-level", "aria-hidden": "true" });
      meter.style.setProperty("--level", String(Math.min(1, level * 4)));
      row.append(meter, el("span", { class: "voice-member-text" }, t("voice.member", { name, state: t(`voice.state.${state}`) })));
      rows.push(row);
    }
    this.list.replaceChildren(...rows);
  }

  showError(key, values) {
    this.error.textContent = key ? this.t(key, values) : "";
  }

  post(frame) {
    this.conn.post({ ...frame, client_id: CLIENT_ID }, (error) => this.refused(error));
  }

  refused(error) {
    if (error.type !== "error") return;
    // A signal that crossed a leave or a new join is dropped: the next voice message settles it.
    if (error.code === "voice_peer_not_joined") return;
    this.error.textContent = error.message;
    if (this.joining) {
      this.joining = false;
      this.stopMicrophone();
      this.joined = false;
      this.render();
    }
  }

  // ---- what the player does ------------------------------------------------------------

  async join() {
    if (this.joined || this.joining) return;
    this.showError(null);
    this.joining = true;
    this.render();
    try {
      if (!navigator.mediaDevices?.getUserMedia || !window.RTCPeerConnection) throw new Error("unsupported");
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
    } catch (error) {
      this.joining = false;
      this.showError(micError(error));
      this.render();
      return;
    }
    this.track = this.stream.getAudioTracks()[0];
    this.muted = false;
    this.joined = true;
    this.post({ type: "voice_join", muted: false });
    this.render();
    this.startPolling();
  }

  setMuted(muted) {
    if (!this.joined) return;
    this.muted = muted;
    if (this.track) this.track.enabled = !muted;
    for (const peer of this.peers.values()) peer.useTrack();
    this.post({ type: "voice_mute", muted });
    this.render();
  }

  leave() {
    if (!this.joined) return;
    this.post({ type: "voice_leave" });
    this.stop();
  }

  /** End this page's voice: every connection and the microphone. */
  stop() {
    for (const peer of this.peers.values()) peer.close();
    this.peers.clear();
    this.tries.clear();
    this.stopMicrophone();
    this.joined = false;
    this.joining = false;
    this.joinId = null;
    this.early = [];
    clearInterval(this.pollTimer);
    this.pollTimer = null;
    this.ownLevel = 0;
    this.render();
  }

  stopMicrophone() {
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.track = null;
  }

  // ---- what the server says ------------------------------------------------------------

  /** A new socket (the first, or after a reconnect): a page in voice joins again; the others
   * then set up new connections with it. */
  reconnected() {
    if (!this.joined) return;
    for (const peer of this.peers.values()) peer.close();
    this.peers.clear();
    this.joinId = null;
    this.joining = true;
    this.post({ type: "voice_join", muted: this.muted });
  }

  heardVoice(message) {
    const wasOn = this.enabled;
    this.enabled = message.enabled;
    this.maker = message.maker;
    this.members = new Map(message.members.map((m) => [m.seat, { muted: m.muted, join: m.join }]));
    if (!this.enabled && this.joined) {
      this.stop();
      if (this.seat !== this.maker) this.showError("voice.error.switched_off");
    }
    if (this.enabled && !wasOn && !this.joined && this.seat !== this.maker) {
      this.root.hidden = false;
      this.root.open = true; // voice was just switched on: show Join voice
    }
    const mine = this.members.get(this.seat);
    if (this.joined && this.joinId && (!mine || mine.join !== this.joinId)) {
      this.stop(); // this seat left voice from another page, or joined there
    }
    this.connectPeers();
    this.render();
  }

  heardJoined(message) {
    if (!this.joined) {
      this.post({ type: "voice_leave" }); // left before the answer came
      return;
    }
    this.joining = false;
    this.joinId = message.join;
    this.iceServers = message.ice_servers;
    this.connectTimeoutMs = message.connect_timeout_s * 1000;
    this.connectPeers();
    for (const signal of this.early.splice(0)) this.heardSignal(signal);
    this.render();
  }

  heardSignal(message) {
    if (!this.joined) return;
    if (!this.joinId) {
      this.early.push(message);
      return;
    }
    let peer = this.peers.get(message.from_seat);
    if (message.kind === "offer" && (!peer || peer.join !== message.from_join)) {
      peer?.close();
      peer = new Peer(this, message.from_seat, message.from_join, false);
      this.peers.set(message.from_seat, peer);
    }
    if (!peer || peer.join !== message.from_join) return;
    peer.hear(message).catch(() => this.peerChanged(peer, true));
  }

  /** One connection per other seat in voice, at its current join; the lower seat offers. */
  connectPeers() {
    if (!this.joined || !this.joinId) return;
    for (const [seat, peer] of this.peers) {
      const member = this.members.get(seat);
      if (!member || member.join !== peer.join) {
        peer.close();
        this.peers.delete(seat);
        this.tries.delete(seat);
      }
    }
    for (const [seat, member] of this.members) {
      if (seat === this.seat || this.peers.has(seat) || this.seat > seat) continue;
      this.startPeer(seat, member.join);
    }
  }

  startPeer(seat, join) {
    const peer = new Peer(this, seat, join, true);
    this.peers.set(seat, peer);
    peer.offer().catch(() => this.peerChanged(peer, true));
  }

  peerChanged(peer, failed = false) {
    if (peer.closed || this.peers.get(peer.seat) !== peer) return;
    if (failed || peer.state === "failed") {
      const tries = this.tries.get(peer.seat) || 0;
      if (this.seat < peer.seat && tries < RETRIES) {
        this.tries.set(peer.seat, tries + 1);
        peer.close();
        this.startPeer(peer.seat, peer.join);
        return;
      }
      this.showError("voice.error.no_connection", { name: this.seatName(peer.seat) });
    } else if (peer.state === "connected") {
      this.tries.delete(peer.seat);
      if (this.error.textContent === this.t("voice.error.no_connection", { name: this.seatName(peer.seat) })) {
        this.showError(null);
      }
    }
    this.renderMembers();
  }

  startPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = setInterval(() => this.poll(), POLL_MS);
  }

  async poll() {
    let own = 0;
    for (const peer of [...this.peers.values()]) {
      await peer.poll().catch(() => {});
      own = Math.max(own, peer.ownLevel || 0);
    }
    this.ownLevel = this.muted ? 0 : own;
    this.renderMembers();
  }
}

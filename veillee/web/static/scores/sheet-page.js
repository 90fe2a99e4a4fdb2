// The sheet page: rows, totals, the outcome pad, corrections, End match, sharing, offline entry.
import { LiveConnection, newClientId } from "../live/connection.js";
import { findSheet, remember } from "./mine.js";
import {
  drop,
  isOutbox,
  pending,
  push,
  refuse,
  refusedEntries,
  stored,
  storedVersions,
  waiting as queued,
} from "./outbox.js";
import { renderPad } from "./pad.js";
import { outcomeLabel, reason, seatName, t } from "./labels.js";
import { registerServiceWorker } from "./sw-register.js";

const $ = (id) => document.getElementById(id);
const sheetId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

// A link carries its token in the fragment (never sent to the server); keep it on this phone.
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("scorer")) remember({ id: sheetId, scorerToken: fragment.get("scorer") });
if (fragment.get("viewer")) remember({ id: sheetId, viewerToken: fragment.get("viewer") });
if (location.hash) history.replaceState(null, "", location.pathname);

const known = findSheet(sheetId) || {};
const token = known.scorerToken || known.viewerToken || null;
const scorer = Boolean(known.scorerToken);
let view = known.last || null;
let online = false;
const acked = new Map(); // client id -> version that stored it
let shownRows = -1; // rows on screen at the last render, to bring a new one into view
let shownVersion = -1; // the sheet's version at the last render
// A hand this phone entered just after another phone entered one it had not shown yet (two
// phones scoring the same hand at once): {mine, other}, the two rows' versions, until settled.
let twice = null;

// A viewer has no End match button: tell it the match is decided without telling it to tap.
function reasonFor(code) {
  return !scorer && code === "match_decided" ? t("scores.reason.match_decided_viewer") : reason(code);
}

function say(text) {
  $("refusal").textContent = text;
}

function pointsRow(side, points) {
  return side === 0 ? [points, 0] : [0, points];
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function refusedRow(entry) {
  const tr = document.createElement("tr");
  tr.className = "refused";
  const points = pointsRow(entry.side, entry.points);
  const why = document.createElement("td");
  why.colSpan = 4;
  why.className = "refused-why";
  const text = document.createElement("span");
  text.textContent = t("scores.refused", {
    side: view.sides[entry.side],
    outcome: outcomeLabel(entry.outcome, view.settings),
    points: Math.max(...points),
    reason: reason(entry.refused),
  });
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.className = "dismiss";
  dismiss.textContent = t("scores.dismiss");
  dismiss.addEventListener("click", () => {
    drop(sheetId, entry.client_id);
    render();
  });
  why.append(text, dismiss);
  tr.append(why);
  return tr;
}

function renderRows(waiting) {
  const body = $("rows");
  body.replaceChildren();
  const editable = scorer && !view.status.banked;
  view.status.rows.forEach((points, i) => {
    const tr = document.createElement("tr");
    tr.dataset.row = String(i);
    const hand = document.createElement("td");
    hand.className = "col-hand";
    if (editable) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "row-edit";
      button.textContent = String(i + 1);
      button.setAttribute("aria-label", t("scores.edit.title", { n: i + 1 }));
      button.addEventListener("click", () => openEdit(i));
      hand.append(button);
    } else {
      hand.textContent = String(i + 1);
    }
    const row = view.rows[i];
    if (twice && row && (row.version === twice.mine || row.version === twice.other)) {
      tr.classList.add("twice");
    }
    tr.append(hand, cell(seatName(view.status.dealers[i]), "col-dealer"));
    for (const side of [0, 1]) {
      const td = cell(String(points[side]), "col-side");
      if (row && row.side === side) td.title = outcomeLabel(row.outcome, view.settings);
      tr.append(td);
    }
    body.append(tr);
  });
  const start = view.status.rows.length;
  const nextDealer = view.status.next_dealer ?? view.first_dealer;
  waiting.forEach((entry, k) => {
    const tr = document.createElement("tr");
    tr.className = "pending";
    tr.title = t("scores.pending");
    const points = pointsRow(entry.side, entry.points);
    tr.append(
      cell(String(start + k + 1), "col-hand"),
      cell(seatName((nextDealer + k) % 4), "col-dealer"),
      cell(String(points[0]), "col-side"),
      cell(String(points[1]), "col-side"),
    );
    body.append(tr);
  });
  // entries the server refused on sync stay in sight, with the reason, until dismissed
  const refused = refusedEntries(sheetId);
  for (const entry of refused) body.append(refusedRow(entry));
  const count = start + waiting.length + refused.length;
  const grew = count > shownRows;
  shownRows = count;
  return grew;
}

// The dock (totals and pad) is fixed low on the screen: scroll so that the newest row sits just
// above it rather than behind it.
function bringIntoView(row) {
  if (!row) return;
  const dock = $("dock").getBoundingClientRect();
  const box = row.getBoundingClientRect();
  const top = Math.min(dock.top, window.innerHeight);
  if (box.bottom > top || box.top < 0) {
    window.scrollBy({ top: box.bottom - top + 4, behavior: "instant" });
  }
}

function matchState(waiting) {
  const st = view.status;
  const [a, b] = st.totals;
  const side = typeof st.result === "number" ? view.sides[st.result] : "";
  const high = Math.max(a, b);
  const low = Math.min(a, b);
  if (st.banked) {
    if (st.ended_early) {
      return st.result === "draw"
        ? t("scores.state.early_draw", { a, b })
        : t("scores.state.early_ahead", { side, a: high, b: low });
    }
    return st.result === "draw"
      ? t("scores.state.banked_draw", { a, b })
      : t("scores.state.banked_win", { side, a: high, b: low });
  }
  if (st.decided) {
    // only a scorer has an End match button to tap
    const who = scorer ? "" : "_viewer";
    return st.result === "draw"
      ? t(`scores.state.draw${who}`, { a, b })
      : t(`scores.state.decided${who}`, { side, a: high, b: low });
  }
  const n = st.rows.length + waiting.length + 1;
  const dealer = ((st.next_dealer ?? view.first_dealer) + waiting.length) % 4;
  const points = view.room?.points;
  if (points) {
    // A race to a number of points (no hand limit): the line says to how many, from the
    // server's room (the points each side still needs), so "Hand 6" of 5 hands reads right.
    const target = st.totals[0] + points[0];
    return t("scores.next_hand.race", { n, dealer: seatName(dealer), target });
  }
  if (view.room?.tie_break && waiting.length === 0) {
    return t("scores.next_hand.tie_break", { n, dealer: seatName(dealer) });
  }
  return t("scores.next_hand", { n, dealer: seatName(dealer) });
}

// §A2: the settings are shown on the sheet; built from the view, so any preset's settings show.
// Every setting is in the line, a live one (race to ten) too: the line is the sheet's summary,
// read on its own, and a scorer's switch for it is a control, not the summary.
function settingsLine() {
  const parts = [t(`scores.preset.${view.preset}`)];
  for (const [name, value] of Object.entries(view.settings)) {
    let shown;
    if (value === true || value === false) shown = t(value ? "scores.on" : "scores.off");
    else if (typeof value === "number") shown = String(value);
    else shown = t(`scores.setting.${name}.${value}`);
    parts.push(t("scores.setting_line", { name: t(`scores.setting.${name}`), value: shown }));
  }
  return parts.join(" · ");
}

// What the pad may offer with `waiting` entries not yet stored: the server's `room` says how many
// hands (or, racing to ten, how many points per side) can be queued before the match could be
// decided; past that the page waits for the server rather than guess the rules.
function offered(waiting) {
  const room = view.room || { hands: null, points: null };
  if (room.hands !== null && waiting.length >= room.hands) return [];
  if (room.points) {
    const queued = [0, 0];
    for (const entry of waiting) queued[entry.side] += entry.points;
    if (queued.some((p, side) => p >= room.points[side])) return [];
  }
  return view.entries;
}

function render() {
  if (!view) return;
  $("settings-line").textContent = settingsLine();
  const waiting = queued(sheetId);
  $("sheet").setAttribute("aria-busy", "false");
  $("side-name-0").textContent = view.sides[0];
  $("side-name-1").textContent = view.sides[1];
  const grew = renderRows(waiting);
  const totals = [...view.status.totals];
  for (const entry of waiting) totals[entry.side] += entry.points;
  $("total-0").textContent = String(totals[0]);
  $("total-1").textContent = String(totals[1]);
  $("match-state").textContent = matchState(waiting);
  showTwice();
  const banked = view.status.banked;
  const canWrite = scorer && !banked;
  const entries = canWrite ? offered(waiting) : [];
  // Nothing moves under the finger: when the pad empties while this phone still scores (the
  // last hand of the match entered, or as many entries waiting as the server's room allows), it
  // keeps its place, so the second tap of a double tap on an outcome lands on empty space, not
  // on Undo moved up into it (which undid the hand just entered).
  const pad = $("pad");
  const kept = canWrite && !entries.length && !pad.hidden ? pad.offsetHeight : 0;
  renderPad(pad, view.sides, entries, view.settings, enter);
  pad.style.minHeight = kept ? `${kept}px` : "";
  pad.hidden = !entries.length && !kept;
  const full = canWrite && view.entries.length > 0 && !entries.length;
  $("actions").hidden = !canWrite;
  $("undo").disabled = !view.can_undo || !online;
  $("end").disabled = !online;
  $("race-wrap").hidden = !canWrite;
  $("race").checked = Boolean(view.settings.race_to_ten);
  $("race").disabled = !online || view.status.decided;
  let note = banked ? t("scores.banked_read_only") : scorer ? "" : t("scores.read_only");
  if (full) note = t("scores.wait_for_server");
  $("read-only").textContent = note;
  $("read-only").hidden = !note;
  document.body.dataset.role = scorer ? "scorer" : "viewer";
  document.body.dataset.version = String(view.version);
  // a new row, or a new version of the sheet (a pending row replaced by the stored one, which
  // may be taller): keep the newest row in sight
  if (grew || view.version !== shownVersion) bringIntoView($("rows").lastElementChild);
  shownVersion = view.version;
}

// Whether `entry`, stored at `version`, was entered while another phone's hand was on its way
// (stored after the version this page showed, before this one): the two rows' versions, or null.
function enteredBeside(entry, version) {
  if (typeof entry.seen !== "number") return null;
  const mine = view.rows.find((row) => row.version === version);
  if (!mine) return null;
  const own = new Set(storedVersions(sheetId));
  const other = view.rows.findLast(
    (row) => row.version > entry.seen && row.version < version && !own.has(row.version),
  );
  return other ? { mine: version, other: other.version } : null;
}

function keep(next) {
  view = next;
  const kept = pending(sheetId);
  for (const [clientId, version] of acked) {
    if (version <= view.version) {
      const entry = kept.find((e) => e.client_id === clientId);
      if (entry) twice = enteredBeside(entry, version) || twice;
      drop(sheetId, clientId);
      acked.delete(clientId);
    }
  }
  remember({
    id: sheetId,
    sides: view.sides,
    totals: view.status.totals,
    banked: view.status.banked,
    preset: view.preset,
    last: view,
  });
  render();
}

// An entry goes into the phone's outbox first, then to the connection, which sends its changes
// one at a time, in order (each waits for its ack or refusal, so a long offline list never trips
// the server's rate limit) and sends again one the server dropped as busy.
const handed = new Set(); // client ids of the entries given to this page's connection

function hand(entry) {
  if (handed.has(entry.client_id)) return;
  handed.add(entry.client_id);
  link.send({ type: "add", client_id: entry.client_id, side: entry.side, outcome: entry.outcome });
}

function enter(side, outcome, points) {
  say("");
  const entry = { client_id: newClientId(), side, outcome, points, seen: view.version };
  push(sheetId, entry);
  render();
  hand(entry);
}

// Another tab of this phone kept, stored or refused an entry of this sheet: show the outbox as
// it now is (an entry that tab has stored is no longer pending here), and send the entries it
// kept as well, in case it never can (closed before the network came back). The server stores
// an entry once, whichever tab's copy comes first; the other is acknowledged as a repeat.
window.addEventListener("storage", (event) => {
  if (!token || !isOutbox(event.key, sheetId)) return;
  for (const entry of queued(sheetId)) hand(entry);
  render();
});

// Two phones entered a hand at once: say so beside the pad, with this phone's row to delete.
function showTwice() {
  const rowOf = (version) => view.rows.findIndex((row) => row.version === version);
  const mine = twice ? rowOf(twice.mine) : -1;
  const other = twice ? rowOf(twice.other) : -1;
  if (mine < 0 || other < 0 || view.status.banked || !scorer) twice = null;
  $("twice").hidden = !twice;
  if (!twice) return;
  const what = (i) => {
    const row = view.rows[i];
    const points = view.status.rows[i];
    return t("scores.twice.hand", {
      side: view.sides[row.side],
      outcome: outcomeLabel(row.outcome, view.settings),
      points: Math.max(...points),
    });
  };
  $("twice-text").textContent = t("scores.twice", {
    other: other + 1,
    other_hand: what(other),
    mine: mine + 1,
    mine_hand: what(mine),
  });
  $("twice-delete").textContent = t("scores.twice.delete", { n: mine + 1 });
  $("twice-delete").onclick = () => {
    if (change({ type: "delete", index: mine, row_version: twice.mine })) twice = null;
    render();
  };
}

// Corrections, undo, race to ten and End match need the network.
function change(message) {
  say("");
  if (link.ready) {
    link.send(message);
    return true;
  }
  say(t("scores.net.needed"));
  return false;
}

function openEdit(index) {
  const dialog = $("edit-dialog");
  $("edit-title").textContent = t("scores.edit.title", { n: index + 1 });
  const row = view.rows[index];
  $("edit-current").textContent = row
    ? t("scores.edit.current", {
        side: view.sides[row.side],
        outcome: outcomeLabel(row.outcome, view.settings),
        points: row.points,
      })
    : "";
  const choices = [0, 1].flatMap((side) => view.outcomes.map((o) => ({ side, ...o })));
  // A correction names the row as shown (its own version): if another phone has changed, moved
  // or deleted it meanwhile, the server refuses it and sends the sheet as it is.
  const shown = row ? row.version : -1;
  renderPad($("edit-pad"), view.sides, choices, view.settings, (side, outcome) => {
    dialog.close();
    change({ type: "edit", index, row_version: shown, side, outcome });
  });
  if (row) {
    const now = $("edit-pad").querySelector(
      `button[data-side="${row.side}"][data-outcome="${row.outcome}"]`,
    );
    if (now) {
      now.classList.add("current");
      now.setAttribute("aria-current", "true");
    }
  }
  $("edit-delete").onclick = () => {
    dialog.close();
    change({ type: "delete", index, row_version: shown });
  };
  dialog.showModal();
}

function links() {
  const here = findSheet(sheetId) || {};
  const base = `${location.origin}/scores/sheet/${encodeURIComponent(sheetId)}`;
  $("scorer-link").value = here.scorerToken ? `${base}#scorer=${here.scorerToken}` : "";
  $("viewer-link").value = here.viewerToken ? `${base}#viewer=${here.viewerToken}` : "";
  $("make-viewer").hidden = Boolean(here.viewerToken);
  $("copy-scorer").hidden = !$("scorer-link").value;
  $("copy-viewer").hidden = !$("viewer-link").value;
  $("copy-scorer").textContent = t("scores.copy");
  $("copy-viewer").textContent = t("scores.copy");
}

// Copy a link: the clipboard where the browser allows it (a secure context), else the text is
// selected so that the phone's own copy menu can take it.
async function copyLink(field, button) {
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(field.value);
    button.textContent = t("scores.copied");
  } catch {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length);
  }
}

async function makeViewer() {
  try {
    const response = await fetch(`/api/sheets/${encodeURIComponent(sheetId)}/viewers`, {
      method: "POST",
      headers: { authorization: `Bearer ${known.scorerToken}` },
    });
    const body = await response.json();
    if (!response.ok) {
      say(reason(body.code));
      return;
    }
    remember({ id: sheetId, viewerToken: body.viewer_token });
    links();
  } catch {
    say(reason("network"));
  }
}

// The network banner sticks to the top of the screen and takes its own room there: the sheet's
// column headings, which stick to the top as well, stick below it rather than under it.
new ResizeObserver(() => {
  const banner = $("net");
  const room = banner.hidden ? 0 : banner.getBoundingClientRect().height;
  document.body.style.setProperty("--net-room", `${room}px`);
}).observe($("net"));

function showNet(status) {
  if (status === "lost") return; // the token was refused or the sheet is gone: the error says so
  const state = status === "back" ? "online" : status;
  const banner = $("net");
  online = state === "online";
  if (state === "online") {
    if (!banner.hidden) {
      banner.textContent = t("scores.net.back");
      setTimeout(() => {
        if (online) banner.hidden = true;
      }, 1500);
    }
  } else {
    banner.textContent = t(state === "offline" ? "scores.net.offline" : "scores.net.reconnecting");
    banner.hidden = false;
  }
  document.body.dataset.net = state;
  render();
}

const link = new LiveConnection({
  path: `/ws/sheets/${encodeURIComponent(sheetId)}`,
  token,
  lang: document.documentElement.lang,
  snapshot: "sheet",
  showsOwnChanges: true, // pending rows are on the sheet: an undo after them undoes the last
  onSnapshot: (msg) => keep(msg.sheet),
  onAck(msg) {
    if (!msg.duplicate && pending(sheetId).some((e) => e.client_id === msg.client_id)) {
      stored(sheetId, msg.version); // one of this phone's hands is the row of that version
    }
    acked.set(msg.client_id, msg.version);
    if (view && msg.version <= view.version) keep(view);
  },
  onError(msg) {
    // a refused entry stays on the sheet as refused, with its reason, until dismissed (a
    // correction's client id is in no outbox, so this marks nothing)
    if (msg.client_id) refuse(sheetId, msg.client_id, msg.code);
    // A sheet that is gone (expired and swept) is gone for this phone too, even one that still
    // shows its last view; a refused link shows nothing of a sheet it never opened.
    if (!msg.client_id && (msg.code === "sheet_gone" || (msg.code === "bad_token" && !view))) {
      showMissing(reason(msg.code));
      return;
    }
    say(reasonFor(msg.code));
    render();
  },
  onStatus: showNet,
});

// Undo, End match and race to ten are about the whole sheet as shown: each says which version
// that was, and is refused (with the sheet as it is) if another phone has changed it since.
let endAsked = -1; // the version shown when End match asked for confirmation
$("undo").addEventListener("click", () => change({ type: "undo", version: view.version }));
$("end").addEventListener("click", () => {
  if (view && view.status.decided) change({ type: "end", version: view.version });
  else {
    endAsked = view ? view.version : -1;
    $("end-dialog").showModal();
  }
});
$("end-cancel").addEventListener("click", () => $("end-dialog").close());
$("end-yes").addEventListener("click", () => {
  $("end-dialog").close();
  change({ type: "end", version: endAsked });
});
$("race").addEventListener("change", (event) => {
  // the box shows the tap at once; the server's sheet (or refusal) settles it
  const value = event.target.checked;
  if (!change({ type: "setting", name: "race_to_ten", value, version: view.version })) render();
});
$("edit-cancel").addEventListener("click", () => $("edit-dialog").close());
$("twice-keep").addEventListener("click", () => {
  twice = null;
  render();
});
$("share").addEventListener("click", () => {
  links();
  $("share-dialog").showModal();
  // as tall as the link needs, so the whole of it can be read
  for (const field of [$("scorer-link"), $("viewer-link")]) {
    field.style.height = "auto";
    field.style.height = `${field.scrollHeight + 2}px`;
  }
});
$("share-close").addEventListener("click", () => $("share-dialog").close());
$("make-viewer").addEventListener("click", makeViewer);
$("copy-scorer").addEventListener("click", () => copyLink($("scorer-link"), $("copy-scorer")));
$("copy-viewer").addEventListener("click", () => copyLink($("viewer-link"), $("copy-viewer")));

// An unknown sheet, or one this browser holds no link for: only the message and a way on.
function showMissing(text) {
  $("sheet").hidden = true;
  $("dock").hidden = true;
  $("missing-text").textContent = text;
  $("missing").hidden = false;
}

registerServiceWorker();
if (!token) {
  showMissing(t("scores.no_token"));
} else {
  render();
  for (const entry of queued(sheetId)) hand(entry);
  link.open();
}

// The sheet page: rows, totals, the outcome pad, corrections, End match, sharing, offline entry.
import { SheetLink } from "./link.js";
import { findSheet, remember } from "./mine.js";
import { drop, newClientId, pending, push } from "./outbox.js";
import { renderPad } from "./pad.js";
import { outcomeLabel, reason, seatName, t } from "./strings.js";
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
    return st.result === "draw"
      ? t("scores.state.draw", { a, b })
      : t("scores.state.decided", { side, a: high, b: low });
  }
  const n = st.rows.length + waiting.length + 1;
  const dealer = ((st.next_dealer ?? view.first_dealer) + waiting.length) % 4;
  return t("scores.next_hand", { n, dealer: seatName(dealer) });
}

// §A2: the settings are shown on the sheet; built from the view, so any preset's settings show.
function settingsLine() {
  const parts = [t(`scores.preset.${view.preset}`)];
  for (const [name, value] of Object.entries(view.settings)) {
    if (view.live_settings.includes(name)) continue; // shown as a switch
    let shown;
    if (value === true || value === false) shown = t(value ? "scores.on" : "scores.off");
    else if (typeof value === "number") shown = String(value);
    else shown = t(`scores.setting.${name}.${value}`);
    parts.push(`${t(`scores.setting.${name}`)}: ${shown}`);
  }
  return parts.join(" · ");
}

function render() {
  if (!view) return;
  $("settings-line").textContent = settingsLine();
  const waiting = pending(sheetId);
  $("sheet").setAttribute("aria-busy", "false");
  $("side-name-0").textContent = view.sides[0];
  $("side-name-1").textContent = view.sides[1];
  renderRows(waiting);
  const totals = [...view.status.totals];
  for (const entry of waiting) totals[entry.side] += entry.points;
  $("total-0").textContent = String(totals[0]);
  $("total-1").textContent = String(totals[1]);
  $("match-state").textContent = matchState(waiting);
  const banked = view.status.banked;
  const canWrite = scorer && !banked;
  renderPad($("pad"), view.sides, canWrite ? view.entries : [], view.settings, enter);
  $("pad").hidden = !canWrite || !view.entries.length;
  $("actions").hidden = !canWrite;
  $("undo").disabled = !view.can_undo || !online;
  $("end").disabled = !online;
  $("race-wrap").hidden = !canWrite;
  $("race").checked = Boolean(view.settings.race_to_ten);
  $("race").disabled = !online || view.status.decided;
  const note = banked ? t("scores.banked_read_only") : scorer ? "" : t("scores.read_only");
  $("read-only").textContent = note;
  $("read-only").hidden = !note;
  document.body.dataset.role = scorer ? "scorer" : "viewer";
  document.body.dataset.version = String(view.version);
}

function keep(next) {
  view = next;
  for (const [clientId, version] of acked) {
    if (version <= view.version) {
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

// The outbox goes one entry at a time, in order: each waits for its ack (or refusal) before the
// next is sent, so a long offline list never trips the server's rate limit.
let inFlight = null;
const TRANSIENT = new Set(["busy", "too_many_messages"]);

function flush() {
  if (inFlight) return;
  const next = pending(sheetId).find((entry) => !acked.has(entry.client_id));
  if (!next) return;
  const sent = link.send({
    type: "add",
    client_id: next.client_id,
    side: next.side,
    outcome: next.outcome,
  });
  if (sent) inFlight = next.client_id;
}

function settle(clientId) {
  if (inFlight === clientId) inFlight = null;
  flush();
}

function enter(side, outcome, points) {
  say("");
  push(sheetId, { client_id: newClientId(), side, outcome, points });
  render();
  flush();
}

function change(message) {
  say("");
  if (link.send({ ...message, client_id: newClientId() })) return true;
  say(t("scores.net.needed"));
  return false;
}

function openEdit(index) {
  const dialog = $("edit-dialog");
  $("edit-title").textContent = t("scores.edit.title", { n: index + 1 });
  const choices = [0, 1].flatMap((side) => view.outcomes.map((o) => ({ side, ...o })));
  renderPad($("edit-pad"), view.sides, choices, view.settings, (side, outcome) => {
    dialog.close();
    change({ type: "edit", index, side, outcome });
  });
  $("edit-delete").onclick = () => {
    dialog.close();
    change({ type: "delete", index });
  };
  dialog.showModal();
}

function links() {
  const here = findSheet(sheetId) || {};
  const base = `${location.origin}/scores/sheet/${encodeURIComponent(sheetId)}`;
  $("scorer-link").value = here.scorerToken ? `${base}#scorer=${here.scorerToken}` : "";
  $("viewer-link").value = here.viewerToken ? `${base}#viewer=${here.viewerToken}` : "";
  $("make-viewer").hidden = Boolean(here.viewerToken);
}

async function makeViewer() {
  try {
    const response = await fetch(`/api/sheets/${encodeURIComponent(sheetId)}/viewers`, {
      method: "POST",
      headers: { authorization: `Bearer ${known.scorerToken}` },
    });
    const body = await response.json();
    if (!response.ok) {
      say(reason(body.reason));
      return;
    }
    remember({ id: sheetId, viewerToken: body.viewer_token });
    links();
  } catch {
    say(reason("network"));
  }
}

function showNet(state) {
  const banner = $("net");
  online = state === "online";
  if (!online) inFlight = null; // unanswered sends go again on the next connection
  if (state === "online") {
    if (!banner.hidden) {
      banner.textContent = t("scores.net.back");
      setTimeout(() => {
        if (online) banner.hidden = true;
      }, 1500);
    }
    flush();
  } else {
    banner.textContent = t(state === "offline" ? "scores.net.offline" : "scores.net.reconnecting");
    banner.hidden = false;
  }
  document.body.dataset.net = state;
  render();
}

const link = new SheetLink(sheetId, token, {
  onSheet: keep,
  onAck(msg) {
    acked.set(msg.client_id, msg.version);
    if (view && msg.version <= view.version) keep(view);
    settle(msg.client_id);
  },
  onError(msg) {
    // a refused entry leaves the outbox (the reason says why); a busy server gets it again
    if (msg.client_id && !TRANSIENT.has(msg.reason)) drop(sheetId, msg.client_id);
    say(reason(msg.reason));
    render();
    if (msg.client_id && TRANSIENT.has(msg.reason)) {
      setTimeout(() => settle(msg.client_id), 500);
    } else if (msg.client_id) {
      settle(msg.client_id);
    }
  },
  onNet: showNet,
});

$("undo").addEventListener("click", () => change({ type: "undo" }));
$("end").addEventListener("click", () => {
  if (view && view.status.decided) change({ type: "end" });
  else $("end-dialog").showModal();
});
$("end-cancel").addEventListener("click", () => $("end-dialog").close());
$("end-yes").addEventListener("click", () => {
  $("end-dialog").close();
  change({ type: "end" });
});
$("race").addEventListener("change", (event) => {
  // the box shows the tap at once; the server's sheet (or refusal) settles it
  if (!change({ type: "setting", name: "race_to_ten", value: event.target.checked })) render();
});
$("edit-cancel").addEventListener("click", () => $("edit-dialog").close());
$("share").addEventListener("click", () => {
  links();
  $("share-dialog").showModal();
});
$("share-close").addEventListener("click", () => $("share-dialog").close());
$("make-viewer").addEventListener("click", makeViewer);

registerServiceWorker();
if (!token) {
  $("read-only").textContent = t("scores.no_token");
  $("read-only").hidden = false;
  $("actions").hidden = true;
  $("race-wrap").hidden = true;
} else {
  render();
  link.start();
}

// The resume list (home page and game pages): every shared table this browser holds a seat at,
// built from the seat tokens in localStorage and one request that answers only for them
// (docs/protocol.md §1b). Each entry says the game, the score, whose turn it is (or that the
// friend left the table), the seats the computer stands in for, and the time left, and one tap
// returns to the seat. A table that has gone drops off with a short note, and
// its token is forgotten.
import { loadCatalog } from "../live/i18n.js";
import { forgetSeat, sharedSeats } from "./seats.js";

const MAX = 40; // the most seats one request may ask about

const box = document.getElementById("resume");

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/** Another seat's turn, where the game's table names the seat and what it is doing in its
 * turn line (`<game>.turn.other.<phase>`, with the seat's name `<game>.seat.<name>` from the
 * summary's `seat_names`; the partner's own words `<game>.turn.partner.<phase>`): the same
 * words, "West is bidding…", "Your partner is bidding…"; else `fallback`. */
function theirTurn(summary, t, fallback) {
  if (summary.partner !== null && summary.partner === summary.to_act) {
    const partnerKey = `${summary.game}.turn.partner.${summary.phase}`;
    const text = t(partnerKey);
    if (text !== partnerKey) return text;
  }
  const key = `${summary.game}.turn.other.${summary.phase}`;
  const name = t(`${summary.game}.seat.${summary.seat_names[summary.to_act]}`);
  const text = t(key, { name });
  return text !== key ? text : t(fallback);
}

/** Where the table is, in its game's own words (`friend.resume.<situation>.<game>`: your
 * friend and the partie at Chouine, the table and the hand at Charlemagne; another seat's turn
 * in the table's own words where it has them, theirTurn; after a deal, whether the next one
 * waits for this seat or for the others). */
function turnText(summary, t) {
  let situation;
  if (summary.seated.includes(false)) situation = "seating";
  else if (summary.match.over) situation = "match_over";
  else if (summary.to_act === null) {
    // the next deal waits for every person to ask for it: has this seat?
    situation = summary.ready.includes(summary.seat) ? "deal_over_ready" : "deal_over";
  }
  else situation = summary.to_act === summary.seat ? "your_turn" : "their_turn";
  const key = `friend.resume.${situation}.${summary.game}`;
  return situation === "their_turn" ? theirTurn(summary, t, key) : t(key);
}

/** Who has gone from the table, or null: the seats the computer plays for ("The computer plays
 * for West"), or at a table of two the friend who left it for good. */
function goneText(summary, t) {
  const others = (list) => (list ?? []).filter((seat) => seat !== summary.seat);
  if (summary.seats.length === 2) {
    return others(summary.left).length ? t("leaving.resume.left", { name: t("friend.name") }) : null;
  }
  const standIns = others(summary.stand_in);
  if (!standIns.length) return null;
  const names = standIns.map((seat) => t(`${summary.game}.seat.${summary.seat_names[seat]}`)).join(", ");
  return t("leaving.resume.stand_in", { names });
}

function timeLeft(expiresAt, t) {
  const seconds = Math.max(0, (Date.parse(expiresAt) - Date.now()) / 1000);
  if (seconds >= 3600) return t("friend.resume.hours", { n: Math.floor(seconds / 3600) });
  return t("friend.resume.minutes", { n: Math.max(1, Math.ceil(seconds / 60)) });
}

function entry(summary, t) {
  const li = document.createElement("li");
  li.className = "resume-item";
  li.dataset.testid = "resume-item";
  li.dataset.tableId = summary.table_id;
  const link = document.createElement("a");
  link.href = summary.url;
  link.className = "resume-link";
  link.append(span("resume-game", t(`home.${summary.game}`)));
  // The score as the game counts it for this seat's side, in the game's own words.
  const [mine, theirs] = summary.score;
  link.append(span("resume-score", t(`friend.resume.score.${summary.game}`, { mine, theirs })));
  const gone = goneText(summary, t);
  // A table a friend left for good has no turn to say: only that they left.
  if (!gone || summary.seats.length > 2) link.append(span("resume-turn", turnText(summary, t)));
  if (gone) {
    const mark = span("resume-stand-in", gone);
    mark.dataset.testid = "resume-gone";
    link.append(mark);
  }
  if (summary.expires_at) link.append(span("resume-time", timeLeft(summary.expires_at, t)));
  li.append(link);
  return li;
}

async function main() {
  if (!box) return;
  const seats = sharedSeats().slice(0, MAX);
  if (seats.length === 0) return;
  const t = await loadCatalog(document.body.dataset.lang);
  let answer;
  try {
    const response = await fetch("/api/tables/resume", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seats }),
    });
    if (!response.ok) return;
    answer = await response.json();
  } catch {
    return; // offline: the list comes back with the next visit
  }
  for (const tableId of answer.gone) forgetSeat(tableId);
  const list = document.getElementById("resume-list");
  list.replaceChildren(...answer.tables.map((summary) => entry(summary, t)));
  const note = document.getElementById("resume-note");
  if (answer.gone.length) {
    note.textContent = t("friend.resume.gone", { n: answer.gone.length });
    note.hidden = false;
  }
  box.hidden = false;
  box.dataset.ready = "true";
}

main();

// Where this browser keeps its seat tokens (docs/protocol.md §1, §1b): a computer table's in
// this tab's sessionStorage, a shared table's in localStorage under the same key,
// "veillee.seat.<table_id>" (a shared table survives closing the tab; the resume list is built
// from these).
const PREFIX = "veillee.seat.";

/** Keep the token of a seat at `tableId` (`shared`: in localStorage). */
export function keepSeat(tableId, token, shared) {
  (shared ? localStorage : sessionStorage).setItem(PREFIX + tableId, token);
}

/** The token this browser holds for `tableId`, or null. */
export function seatToken(tableId) {
  return localStorage.getItem(PREFIX + tableId) ?? sessionStorage.getItem(PREFIX + tableId);
}

/** Forget the seat at `tableId` (the table has gone). */
export function forgetSeat(tableId) {
  localStorage.removeItem(PREFIX + tableId);
  sessionStorage.removeItem(PREFIX + tableId);
}

/** Every shared-table seat this browser holds: [{table_id, token}]. */
export function sharedSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) seats.push({ table_id: key.slice(PREFIX.length), token: localStorage.getItem(key) });
  }
  return seats;
}

const KEY_PREFIX = "veillee.seat-key.";
const TRIES = 3; // a seat request whose answer was lost is sent again this often, same key

/** A new key for a seat request: 32 random bytes, URL-safe base64 (43 characters). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Sit at the shared table `tableId` (docs/protocol.md §1b): at `seat`, the one a seat link
 * names, or (null: the table's plain link) at its lowest open seat. The token is kept in
 * localStorage. Resolves to {token} once seated, else {code}: the refusal's code
 * ("seat_taken", "table_full", "table_gone", …) or "offline" when the request failed.
 * The request carries a key this tab keeps (sessionStorage) until it is answered: a request
 * whose answer was lost is sent again with it, a few times and after a reload too, and gets the
 * seat it took. `given`: the link's count of the seat (linkGiven). `foreseen` is the refusal
 * the page was served with (its `data-seat-refusal`): when there is one, nothing is asked (a
 * refused request shows in the console as a failed one), unless this tab has a request
 * unanswered (the seat it took is what made the table full).
 */
export async function takeSeat(tableId, seat = null, foreseen = "", given = 0) {
  let key = sessionStorage.getItem(KEY_PREFIX + tableId);
  if (foreseen && !key) return { code: foreseen };
  if (!key) {
    key = newKey();
    sessionStorage.setItem(KEY_PREFIX + tableId, key);
  }
  let response;
  for (let tried = 1; !response; tried += 1) {
    try {
      response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ...(seat === null ? {} : { seat }), ...(given ? { given } : {}), key }),
      });
    } catch {
      if (tried === TRIES) return { code: "offline" };
      await new Promise((done) => { setTimeout(done, 500 * tried); });
    }
  }
  const answer = await response.json().catch(() => ({}));
  if (response.status >= 500) return { code: answer.code ?? "unknown" }; // the key is kept
  sessionStorage.removeItem(KEY_PREFIX + tableId);
  if (response.status === 201) {
    keepSeat(tableId, answer.token, true);
    return { token: answer.token };
  }
  return { code: answer.code ?? "unknown" };
}

/**
 * The catalog key that says why this page has no seat at a table of `game`: `why` is the
 * refusal's code — "not_shared" (a match against the computer: its seat lives in the tab that
 * started it, and nobody else may take it), "table_gone" or the connection's "gone" (the table
 * has closed), "seat_given" (the seat was left or given to someone new), "table_left" (someone
 * left this table of two for good) — or anything else (the plain "not yours or no longer
 * exists").
 */
export function lostWords(game, why) {
  if (why === "seat_given") return "leaving.lost.given";
  if (why === "table_left") return "reason.table_left";
  if (why === "not_shared") return `${game}.table.lost.elsewhere`;
  if (why === "table_gone" || why === "gone") return `${game}.table.lost.gone`;
  return `${game}.table.lost`;
}

/** The seat a seat link names (`?seat=<n>` in the page's address), or null. */
export function linkSeat() {
  const seat = new URLSearchParams(location.search).get("seat");
  return seat !== null && /^\d{1,2}$/.test(seat) ? Number(seat) : null;
}

/** How often the seat a seat link names had been given to someone new when the link was made
 * (`&g=<n>`; 0 without it). */
export function linkGiven() {
  const given = new URLSearchParams(location.search).get("g");
  return given !== null && /^\d{1,2}$/.test(given) ? Number(given) : 0;
}

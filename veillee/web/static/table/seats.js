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

/**
 * Sit at the shared table `tableId` (docs/protocol.md §1b): at `seat`, the one a seat link
 * names, or (null: the table's plain link) at its lowest open seat. The token is kept in
 * localStorage. Resolves to {token} once seated, else {code}: the refusal's code
 * ("seat_taken", "table_full", "table_gone", …) or "offline" when the request failed.
 * `foreseen` is the refusal the page was served with (its `data-seat-refusal`): when there is
 * one, nothing is asked (a refused request shows in the console as a failed one).
 */
export async function takeSeat(tableId, seat = null, foreseen = "") {
  if (foreseen) return { code: foreseen };
  let response;
  try {
    response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats`, {
      method: "POST",
      headers: seat === null ? {} : { "Content-Type": "application/json" },
      body: seat === null ? undefined : JSON.stringify({ seat }),
    });
  } catch {
    return { code: "offline" };
  }
  if (response.status === 201) {
    const grant = await response.json();
    keepSeat(tableId, grant.token, true);
    return { token: grant.token };
  }
  const refusal = await response.json().catch(() => ({}));
  return { code: refusal.code ?? "unknown" };
}

/**
 * The catalog key that says why this page has no seat at a table of `game`: `why` is the
 * refusal's code — "not_shared" (a match against the computer: its seat lives in the tab that
 * started it, and nobody else may take it), "table_gone" or the connection's "gone" (the table
 * has closed) — or anything else (the plain "not yours or no longer exists").
 */
export function lostWords(game, why) {
  if (why === "not_shared") return `${game}.table.lost.elsewhere`;
  if (why === "table_gone" || why === "gone") return `${game}.table.lost.gone`;
  return `${game}.table.lost`;
}

/** The seat a seat link names (`?seat=<n>` in the page's address), or null. */
export function linkSeat() {
  const seat = new URLSearchParams(location.search).get("seat");
  return seat !== null && /^\d{1,2}$/.test(seat) ? Number(seat) : null;
}

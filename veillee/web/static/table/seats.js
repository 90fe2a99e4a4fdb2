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

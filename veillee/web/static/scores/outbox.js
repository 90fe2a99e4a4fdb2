// Hands entered on this phone and not yet acknowledged by the server, per sheet. Each has a
// client id, so sending one again after a lost acknowledgement never stores it twice. Every
// tab of the phone shares the outbox (localStorage); `isOutbox` tells a tab that another one
// changed it (a "storage" event).
const key = (sheetId) => `veillee.scores.outbox.${sheetId}`;

/** Whether the localStorage key `storageKey` is the outbox of sheet `sheetId` (null: all of
 * localStorage was cleared). */
export function isOutbox(storageKey, sheetId) {
  return storageKey === null || storageKey === key(sheetId);
}

/**
 * The entries of a sheet kept on this phone, oldest first: [{client_id, side, outcome, points,
 * refused?}]. An entry the server refused keeps its reason code in `refused` until dismissed.
 */
export function pending(sheetId) {
  try {
    const list = JSON.parse(localStorage.getItem(key(sheetId)) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function save(sheetId, list) {
  if (list.length) localStorage.setItem(key(sheetId), JSON.stringify(list));
  else localStorage.removeItem(key(sheetId));
}

/** Keep one more entry. */
export function push(sheetId, entry) {
  save(sheetId, [...pending(sheetId), entry]);
}

/** The entries still to be sent (not refused), oldest first. */
export function waiting(sheetId) {
  return pending(sheetId).filter((e) => !e.refused);
}

/** The entries the server refused, oldest first, each with its reason code in `refused`. */
export function refusedEntries(sheetId) {
  return pending(sheetId).filter((e) => e.refused);
}

/** Mark the entry with `clientId` as refused for `reason`: kept to be shown, never sent again. */
export function refuse(sheetId, clientId, reason) {
  save(
    sheetId,
    pending(sheetId).map((e) => (e.client_id === clientId ? { ...e, refused: reason } : e)),
  );
}

/** Forget the entry with `clientId` (stored by the server, or refused). */
export function drop(sheetId, clientId) {
  save(sheetId, pending(sheetId).filter((e) => e.client_id !== clientId));
}

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
 * seen, refused?}]. `seen` is the sheet's version the page showed when the hand was entered.
 * An entry the server refused keeps its reason code in `refused` until dismissed.
 */
export function pending(sheetId) {
  return readList(key(sheetId));
}

// A list kept in localStorage under `storageKey` ([] when missing or unreadable).
function readList(storageKey) {
  try {
    const list = JSON.parse(localStorage.getItem(storageKey) || "[]");
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

// The sheet versions that stored this phone's own entries (the newest few), so that a page
// opened again still tells its own rows from another phone's.
const storedKey = (sheetId) => `veillee.scores.stored.${sheetId}`;
const STORED_KEPT = 50;

/** The versions of the sheet at which this phone's entries were stored, oldest first. */
export function storedVersions(sheetId) {
  return readList(storedKey(sheetId));
}

/** Note that one of this phone's entries was stored at `version` of the sheet. */
export function stored(sheetId, version) {
  const list = storedVersions(sheetId).filter((v) => v !== version);
  list.push(version);
  localStorage.setItem(storedKey(sheetId), JSON.stringify(list.slice(-STORED_KEPT)));
}

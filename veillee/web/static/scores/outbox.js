// Hands entered on this phone and not yet acknowledged by the server, per sheet. Each has a
// client id, so sending one again after a lost acknowledgement never stores it twice.
const key = (sheetId) => `veillee.scores.outbox.${sheetId}`;

/** The waiting entries of a sheet, oldest first: [{client_id, side, outcome, points}]. */
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

/** Forget the entry with `clientId` (stored by the server, or refused). */
export function drop(sheetId, clientId) {
  save(sheetId, pending(sheetId).filter((e) => e.client_id !== clientId));
}

/** A fresh client id (128 random bits; works without a secure context). */
export function newClientId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// This browser's sheets (finished ones included), kept in localStorage with their tokens.
const KEY = "veillee.scores.mine";
const LIMIT = 200;

/** Every sheet this browser knows, most recently used first. */
export function allSheets() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The entry for sheet `id`, or null. */
export function findSheet(id) {
  return allSheets().find((s) => s.id === id) || null;
}

/** Merge `entry` (must hold `id`) into the list and move it to the front. */
export function remember(entry) {
  const list = allSheets();
  const at = list.findIndex((s) => s.id === entry.id);
  const merged = { ...(at >= 0 ? list[at] : {}), ...entry, updated: Date.now() };
  if (at >= 0) list.splice(at, 1);
  list.unshift(merged);
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, LIMIT)));
  return merged;
}

// The page's strings, embedded by the server as a JSON data block (works offline too).
const node = document.getElementById("scores-strings");
const strings = node ? JSON.parse(node.textContent) : {};

/** The string `key` with `{name}` placeholders filled from `values`; the key itself if missing. */
export function t(key, values = {}) {
  let text = strings[key] ?? key;
  for (const [name, value] of Object.entries(values)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** A refusal's reason code in words. */
export function reason(code) {
  return strings[`scores.reason.${code}`] ?? code;
}

/** The label of an outcome; with race to ten on, mordienne is the announced one (spec §A4). */
export function outcomeLabel(outcome, settings) {
  if (outcome === "mordienne" && settings && settings.race_to_ten) {
    return t("scores.outcome.mordienne.announced");
  }
  return t(`scores.outcome.${outcome}`);
}

/** A seat's name (0–3 clockwise: North, East, South, West). */
export function seatName(seat) {
  return t(`scores.seat.${seat}`);
}

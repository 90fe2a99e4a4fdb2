// The SquareScores pages' words: the page's translator (over the catalog the server embedded in
// the page, so that it works offline) and the labels built on it.
import { embeddedCatalog, translator } from "../live/i18n.js";

export const t = translator(document.documentElement.lang || "en", embeddedCatalog() || {});

/** A refusal's reason code in words: the sheets' own sentence, else the site's. */
export function reason(code) {
  for (const key of [`scores.reason.${code}`, `reason.${code}`]) {
    const text = t(key);
    if (text !== key) return text;
  }
  return code;
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

// Cards drawn as SVG by our own code: rank and suit in two corners, a large suit sign in the
// centre, court cards with their letter and a simple frame; the jokers (BJ, LJ) a star lettered
// BIG or LITTLE in the page's language. Each card is a <button>.
const SVG = "http://www.w3.org/2000/svg";

const SUIT_PATHS = {
  // Each suit sign fits a 20 × 24 box.
  H: "M10 22 C10 22 0 14 0 7 C0 3 3 0 6 0 C8 0 9.5 1.5 10 3 C10.5 1.5 12 0 14 0 C17 0 20 3 20 7 C20 14 10 22 10 22 Z",
  D: "M10 0 L19 12 L10 24 L1 12 Z",
  S: "M10 0 C10 0 0 8 0 14 C0 17.5 2.5 20 5.5 20 C7.5 20 9 19 9.5 17.5 L8 24 L12 24 L10.5 17.5 C11 19 12.5 20 14.5 20 C17.5 20 20 17.5 20 14 C20 8 10 0 10 0 Z",
  C: "M10 0 A5.2 5.2 0 0 1 14.2 8.3 A5.2 5.2 0 1 1 11 17 L12.5 24 L7.5 24 L9 17 A5.2 5.2 0 1 1 5.8 8.3 A5.2 5.2 0 0 1 10 0 Z",
};
const RED = new Set(["H", "D"]);
// The Spanish pack (Aluette: veillee/cards.py SPANISH_48): coins O, cups C, batons B, swords S,
// ranks A 2–9, J (sota), N (cavalière), K. Its signs and colours are its own; the codes overlap
// the French ones (C, S), so a picture says which pack it is drawn from.
const SPANISH_PATHS = {
  O: "M10 2 A10 10 0 1 1 9.99 2 Z M10 6 A6 6 0 1 0 10.01 6 Z",
  C: "M1 2 L19 2 C19 9 15 12 11.5 12.5 L11.5 18 L16 21 L16 24 L4 24 L4 21 L8.5 18 L8.5 12.5 C5 12 1 9 1 2 Z",
  B: "M7 1 C10 0 13 1 13 4 L12 23 C12 24 8 24 8 23 L7 4 Z",
  S: "M9 0 L11 0 L11.5 16 L16 16 L16 18 L11.5 18 L11.5 24 L8.5 24 L8.5 18 L4 18 L4 16 L8.5 16 Z",
};
const SPANISH_COURTS = new Set(["K", "N", "J"]);
const COURTS = new Set(["K", "Q", "J"]);
const JOKERS = new Set(["BJ", "LJ"]);

/** The points of a five-pointed star centred on (cx, cy), outer radius r. */
function starPoints(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 === 0 ? r : r * 0.42;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// Each printed word of a card is one text node; its repeats (the upside-down corner, a court
// card's large letter) are <use> copies of it, so the card's visible text is what its accessible
// name begins with (WCAG 2.5.3, label in name; axe's label-content-name-mismatch). A copy's font
// comes from where it is used: the index's text has none of its own (.card-index, .card-court).
let drawnIndexes = 0;

/** The corner index ``label`` at (7.5, ``y``) with ``sign`` beneath, drawn once upright and once
 * upside down; returns the upright text's id for further copies. */
function cornerIndexes(svg, label, y, sign) {
  drawnIndexes += 1;
  const id = `card-index-${drawnIndexes}`;
  const text = el("text", { id, x: 7.5, y, class: "card-rank", "text-anchor": "middle" });
  text.textContent = label;
  const upright = el("g", { class: "card-index" });
  upright.append(text, sign());
  const flipped = el("g", { class: "card-index", transform: "rotate(180 30 45)" });
  flipped.append(el("use", { href: `#${id}` }), sign());
  svg.append(upright, flipped);
  return id;
}

/** A court card's large letter at (30, 52): a copy of the corner index ``id``. */
function courtLetter(id) {
  return el("use", { href: `#${id}`, x: 22.5, y: 38, class: "card-court" });
}

function suitSign(suit, x, y, scale) {
  return el("path", { d: SUIT_PATHS[suit], transform: `translate(${x} ${y}) scale(${scale})` });
}

/** The short rank label in the page's language (FR: R D V; EN: K Q J; tens as "10"). */
export function rankLabel(rank, t) {
  return t(`card.short.${rank}`);
}

/** "Jack of hearts" / "Valet de cœur"; "Big joker" / "Grand joker"; with ``pack`` "spanish",
 * "Three of coins" / "Trois de deniers". */
export function cardName(code, t, pack = "french") {
  if (pack === "spanish") {
    return t("card.name", { rank: t(`card.spanish.rank.${code[0]}`), suit: t(`card.spanish.suit.${code[1]}`) });
  }
  if (JOKERS.has(code)) return t(`card.joker.${code}`);
  return t("card.name", { rank: t(`card.rank.${code[0]}`), suit: t(`card.suit.${code[1]}`) });
}

// A joker: a star lettered BIG or LITTLE (the Big one larger and red, the Little one black; the
// word tells them apart, not the colour), a small star and the word's initial in two corners.
// The word lies between the large star and the lower corner's star with room on either side
// (the corner star is above y 67.4 of the 90 units, the large star ends at y 51.6): it touched
// the corner star at the size of a phone's hand.
function jokerFace(code, t) {
  const big = code === "BJ";
  const svg = el("svg", { viewBox: "0 0 60 90", class: `card-face joker ${big ? "red" : "black"}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-paper" }));
  cornerIndexes(svg, t(`card.joker.short.${code}`), 13, () => el("polygon", { points: starPoints(7.5, 19.5, 3.8) }));
  svg.append(el("polygon", { points: starPoints(30, 37, big ? 18 : 14) }));
  // A space between the corner letter and the word, so the card's text reads "B BIG".
  svg.append(document.createTextNode(" "));
  const word = el("text", { x: 30, y: 63, class: "card-joker-word", "text-anchor": "middle", "font-size": 9, "font-weight": 700, "letter-spacing": 0.4 });
  word.textContent = t(`card.joker.word.${code}`);
  svg.append(word);
  return svg;
}

// A Spanish card: the same layout, its own suit signs, one colour per suit (the sign's shape,
// not the colour, tells the suits apart).
function spanishFace(code, t) {
  const [rank, suit] = [code[0], code[1]];
  const svg = el("svg", { viewBox: "0 0 60 90", class: `card-face spanish suit-${suit}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-paper" }));
  const label = t(`card.spanish.short.${rank}`);
  const sign = (x, y, scale) => el("path", { d: SPANISH_PATHS[suit], transform: `translate(${x} ${y}) scale(${scale})`, "fill-rule": "evenodd" });
  const id = cornerIndexes(svg, label, 14, () => sign(3.5, 17, 0.4));
  if (SPANISH_COURTS.has(rank)) {
    svg.append(el("rect", { x: 14, y: 18, width: 32, height: 54, rx: 3, class: "card-frame" }));
    svg.append(courtLetter(id), sign(24, 56, 0.6), sign(24, 21, 0.6));
  } else {
    svg.append(sign(17, 30, 1.3));
  }
  return svg;
}

/** "red" or "black": the colour a French card's suit is printed in (``code``, e.g. "QH"). */
export function suitColour(code) {
  return RED.has(code[1]) ? "red" : "black";
}

/** An <svg> face of ``code`` (60 × 90 units) from ``pack`` ("french", the default, or
 * "spanish"). */
export function cardFace(code, t, pack = "french") {
  if (pack === "spanish") return spanishFace(code, t);
  if (JOKERS.has(code)) return jokerFace(code, t);
  const [rank, suit] = [code[0], code[1]];
  const svg = el("svg", { viewBox: "0 0 60 90", class: `card-face ${suitColour(code)}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-paper" }));
  const label = rankLabel(rank, t);
  const id = cornerIndexes(svg, label, 14, () => suitSign(suit, 3.5, 17, 0.4));
  if (COURTS.has(rank)) {
    svg.append(el("rect", { x: 14, y: 18, width: 32, height: 54, rx: 3, class: "card-frame" }));
    svg.append(courtLetter(id), suitSign(suit, 24, 56, 0.6), suitSign(suit, 24, 21, 0.6));
  } else {
    svg.append(suitSign(suit, 17, 30, 1.3));
  }
  return svg;
}

/** A card back (one quiet pattern). */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 90", class: "card-back", "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "back-paper" }));
  svg.append(el("rect", { x: 6, y: 6, width: 48, height: 78, rx: 3, class: "back-frame" }));
  for (let i = 0; i < 6; i += 1) {
    svg.append(el("path", { d: `M6 ${12 + i * 12} L30 ${6 + i * 12} L54 ${12 + i * 12}`, class: "back-line" }));
  }
  return svg;
}

const SUIT_SIGNS = { H: "♥", D: "♦", S: "♠", C: "♣" };

/** What a card shows as text, in the page's language: its index and suit sign ("J♥", "10♦";
 * FR "V♥"); a joker, its letter and word ("B BIG"; FR "G GRAND"). */
export function cardIndex(code, t) {
  if (JOKERS.has(code)) return `${t(`card.joker.short.${code}`)} ${t(`card.joker.word.${code}`)}`;
  return `${rankLabel(code[0], t)}${SUIT_SIGNS[code[1]]}`;
}

/** A card button's accessible name: what the card shows, then its name ("J♥, Jack of hearts"),
 * so a voice-control user can say what they see; ``why`` (a refusal in words) follows a dash. */
export function cardLabel(code, t, why = "") {
  const label = `${cardIndex(code, t)}, ${cardName(code, t)}`;
  return why ? `${label} — ${why}` : label;
}

/** A <button> showing ``code``, named for screen readers ("J♥, Jack of hearts"). */
export function cardButton(code, t) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card";
  button.dataset.card = code;
  button.setAttribute("aria-label", cardLabel(code, t));
  button.append(cardFace(code, t));
  return button;
}

/** A small, non-interactive card picture with its name as alt text (``pack`` as for
 * :func:`cardFace`). */
export function cardImage(code, t, pack = "french") {
  const span = document.createElement("span");
  span.className = "mini-card";
  span.dataset.card = code;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(code, t, pack));
  span.append(cardFace(code, t, pack));
  return span;
}

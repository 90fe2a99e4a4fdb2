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

function suitSign(suit, x, y, scale) {
  return el("path", { d: SUIT_PATHS[suit], transform: `translate(${x} ${y}) scale(${scale})` });
}

/** The short rank label in the page's language (FR: R D V; EN: K Q J; tens as "10"). */
export function rankLabel(rank, t) {
  return t(`card.short.${rank}`);
}

/** "Jack of hearts" / "Valet de cœur"; "Big joker" / "Grand joker". */
export function cardName(code, t) {
  if (JOKERS.has(code)) return t(`card.joker.${code}`);
  return t("card.name", { rank: t(`card.rank.${code[0]}`), suit: t(`card.suit.${code[1]}`) });
}

// A joker: a star lettered BIG or LITTLE (the Big one larger and red, the Little one black; the
// word tells them apart, not the colour), a small star and the word's initial in two corners.
function jokerFace(code, t) {
  const big = code === "BJ";
  const svg = el("svg", { viewBox: "0 0 60 90", class: `card-face joker ${big ? "red" : "black"}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-paper" }));
  for (const flip of [false, true]) {
    const g = el("g", flip ? { transform: "rotate(180 30 45)" } : {});
    const text = el("text", { x: 7.5, y: 13, class: "card-rank", "text-anchor": "middle" });
    text.textContent = t(`card.joker.short.${code}`);
    g.append(text, el("polygon", { points: starPoints(7.5, 20, 4.5) }));
    svg.append(g);
  }
  svg.append(el("polygon", { points: starPoints(30, 39, big ? 19 : 14) }));
  const word = el("text", { x: 30, y: 69, class: "card-joker-word", "text-anchor": "middle", "font-size": 10, "font-weight": 700, "letter-spacing": 0.5 });
  word.textContent = t(`card.joker.word.${code}`);
  svg.append(word);
  return svg;
}

/** An <svg> face of ``code`` (60 × 90 units). */
export function cardFace(code, t) {
  if (JOKERS.has(code)) return jokerFace(code, t);
  const [rank, suit] = [code[0], code[1]];
  const svg = el("svg", { viewBox: "0 0 60 90", class: `card-face ${RED.has(suit) ? "red" : "black"}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-paper" }));
  const label = rankLabel(rank, t);
  for (const flip of [false, true]) {
    const g = el("g", flip ? { transform: "rotate(180 30 45)" } : {});
    const text = el("text", { x: 7.5, y: 14, class: "card-rank", "text-anchor": "middle" });
    text.textContent = label;
    g.append(text, suitSign(suit, 3.5, 17, 0.4));
    svg.append(g);
  }
  if (COURTS.has(rank)) {
    svg.append(el("rect", { x: 14, y: 18, width: 32, height: 54, rx: 3, class: "card-frame" }));
    const letter = el("text", { x: 30, y: 52, class: "card-court", "text-anchor": "middle" });
    letter.textContent = label;
    svg.append(letter, suitSign(suit, 24, 56, 0.6), suitSign(suit, 24, 21, 0.6));
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

/** A <button> showing ``code``, named for screen readers ("Jack of hearts"). */
export function cardButton(code, t) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card";
  button.dataset.card = code;
  button.setAttribute("aria-label", cardName(code, t));
  button.append(cardFace(code, t));
  return button;
}

/** A small, non-interactive card picture with its name as alt text. */
export function cardImage(code, t) {
  const span = document.createElement("span");
  span.className = "mini-card";
  span.dataset.card = code;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(code, t));
  span.append(cardFace(code, t));
  return span;
}

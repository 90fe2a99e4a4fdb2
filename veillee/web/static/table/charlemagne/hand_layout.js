// The Charlemagne hand's layout (up to ten cards after the kitty): every card a whole tap
// target of at least 44 px, one row when they fit, else two, never overlapping and never
// scrolling sideways; the card size also keeps the hand within about a quarter of the screen's
// height. The hand itself is the table page's (../hand.js).

const GAP = 4;
const MIN_TARGET = 44;

/** Lay out the hand `node` for the width it has (its --cols and --card-w). */
export function layOutHand(node) {
  const n = node.children.length;
  if (!n) return;
  const width = node.clientWidth;
  const budget = window.innerHeight * (window.innerHeight < 600 ? 0.23 : window.innerHeight < 700 ? 0.24 : 0.25);
  const fit = (cols) => (width - (cols - 1) * GAP) / cols;
  const oneRow = fit(n) >= MIN_TARGET;
  const cols = oneRow ? n : Math.ceil(n / 2);
  const rows = oneRow ? 1 : 2;
  const tallest = (budget - (rows - 1) * GAP) / rows / 1.5;
  const cardWidth = Math.max(MIN_TARGET, Math.floor(Math.min(96, fit(cols), tallest)));
  node.style.setProperty("--cols", String(cols));
  node.style.setProperty("--card-w", `${cardWidth}px`);
}

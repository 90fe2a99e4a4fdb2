// The outcome buttons: one tap per outcome, grouped by the side that scores it.
import { outcomeLabel, t } from "./labels.js";

/**
 * Fill `container` with one group per side; `choices` is [{side, outcome, points}].
 * `onPick(side, outcome, points)` is called on a tap.
 */
export function renderPad(container, sides, choices, settings, onPick) {
  container.replaceChildren();
  for (const side of [0, 1]) {
    const mine = choices.filter((c) => c.side === side);
    if (!mine.length) continue;
    const group = document.createElement("div");
    group.className = `pad-side pad-side-${side}`;
    group.setAttribute("role", "group");
    // the grid rows the side spans (subgrid), so the two sides' buttons line up across the pad:
    // its title and one a button, or on a short screen one a pair of buttons (scores.css)
    group.style.setProperty("--rows", String(mine.length + 1));
    group.style.setProperty("--pair-rows", String(Math.ceil(mine.length / 2) + 1));
    const title = document.createElement("p");
    title.className = "pad-title";
    title.textContent = t("scores.enter_for", { side: sides[side] });
    group.append(title);
    for (const choice of mine) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "outcome";
      button.dataset.side = String(side);
      button.dataset.outcome = choice.outcome;
      const label = document.createElement("span");
      label.textContent = outcomeLabel(choice.outcome, settings);
      const points = document.createElement("span");
      points.className = "points";
      points.textContent = `+${choice.points}`;
      button.append(label, points);
      button.setAttribute(
        "aria-label",
        `${sides[side]}: ${outcomeLabel(choice.outcome, settings)}, ${choice.points}`,
      );
      button.addEventListener("click", () => onPick(side, choice.outcome, choice.points));
      group.append(button);
    }
    container.append(group);
  }
}

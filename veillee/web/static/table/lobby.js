// The game page: one "Play against the computer — best of N" button per match length the game
// offers (the page renders them from the game's declaration). A button makes a computer table,
// keeps the seat token in this tab's sessionStorage (closing the tab ends the match) and opens
// the table.
const page = document.getElementById("game-page");
const buttons = [...page.querySelectorAll("button[data-best-of]")];

async function play(bestOf) {
  for (const button of buttons) button.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: page.dataset.game, options: { best_of: bestOf } }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const table = await response.json();
    sessionStorage.setItem(`veillee.seat.${table.table_id}`, table.token);
    location.assign(table.url);
  } catch {
    document.getElementById("play-error").hidden = false;
    for (const button of buttons) button.disabled = false;
  }
}

for (const button of buttons) {
  button.addEventListener("click", () => play(Number(button.dataset.bestOf)));
}

// The game page: "Play against the computer" buttons (Chouine: one per match length the game
// offers, rendered from the game's declaration), each with the table options it asks for as JSON
// in data-options. A button makes a computer table, keeps the seat token in this tab's
// sessionStorage (closing the tab ends the match) and opens the table.
const page = document.getElementById("game-page");
const buttons = [...page.querySelectorAll("button[data-options]")];

async function play(button) {
  for (const each of buttons) each.disabled = true;
  const options = JSON.parse(button.dataset.options);
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: page.dataset.game, options }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const table = await response.json();
    sessionStorage.setItem(`veillee.seat.${table.table_id}`, table.token);
    location.assign(table.url);
  } catch {
    document.getElementById("play-error").hidden = false;
    for (const each of buttons) each.disabled = false;
  }
}

for (const button of buttons) {
  button.addEventListener("click", () => play(button));
}

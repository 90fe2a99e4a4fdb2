// The game page: "Play against the computer" (and, for Chouine, "Best of 3" beside it) makes a
// computer table, keeps the seat token in this tab's sessionStorage (closing the tab ends the
// match) and opens the table. A button's data-best-of, when it has one, is the match option.
const page = document.getElementById("game-page");
const buttons = [...page.querySelectorAll(".play-choices button")];

async function play(button) {
  for (const each of buttons) each.disabled = true;
  const options = button.dataset.bestOf ? { best_of: Number(button.dataset.bestOf) } : {};
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

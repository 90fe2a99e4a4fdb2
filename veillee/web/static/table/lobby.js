// The game page: "Play against the computer" makes a computer table, keeps the seat token in
// this tab's sessionStorage (closing the tab ends the match) and opens the table.
const page = document.getElementById("game-page");
const play = document.getElementById("play-computer");

play.addEventListener("click", async () => {
  play.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: page.dataset.game }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const table = await response.json();
    sessionStorage.setItem(`veillee.seat.${table.table_id}`, table.token);
    location.assign(table.url);
  } catch {
    document.getElementById("play-error").hidden = false;
    play.disabled = false;
  }
});

// The game page's ways in, each button with the table options it asks for as JSON in
// data-options (rendered from the game's declaration):
// - "Play against the computer": a computer table; the seat token goes to this tab's
//   sessionStorage (closing the tab ends the match);
// - "with a friend" (data-shared): a shared table; the seat token goes to localStorage (the
//   table survives closing the tab, and the resume list finds it again), and the table page
//   shows the link to send while it waits for the friend.
// The computer's level checked in the level choice (where the game offers several) goes with
// either: a table of friends may be filled with computers, which play at it.
const page = document.getElementById("game-page");
const buttons = [...page.querySelectorAll("button[data-options]")];

async function play(button) {
  for (const each of buttons) each.disabled = true;
  const options = JSON.parse(button.dataset.options);
  const shared = button.dataset.shared === "true";
  const level = page.querySelector("input[name=level]:checked")?.value;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: page.dataset.game, options, shared, ...(level ? { level } : {}) }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const table = await response.json();
    // Loaded on the first tap, so that nothing stands between the page and its buttons.
    const { keepSeat } = await import("./seats.js");
    keepSeat(table.table_id, table.token, shared);
    location.assign(table.url);
  } catch {
    document.getElementById("play-error").hidden = false;
    for (const each of buttons) each.disabled = false;
  }
}

for (const button of buttons) {
  button.addEventListener("click", () => play(button));
}

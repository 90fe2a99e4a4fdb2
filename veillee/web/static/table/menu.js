// The top bar's menu of a table page, a <details> (it opens and closes without a script, and
// from the keyboard): closes after a choice, on Escape, and on a tap anywhere else. Its "Leave
// the table" asks first, in the page (the leave-confirm dialog).
export function setUpMenu(menu) {
  if (!menu) return;
  const summary = menu.querySelector("summary");
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
  menu.addEventListener("click", (event) => {
    if (event.target.closest(".menu-item")) menu.open = false;
  });
}

/**
 * The top bar's game name gives way to the score and the buttons a table adds (chat, voice):
 * where the bar leaves it too little room it is not shown at all, rather than shown cut.
 * Measured again whenever the room changes (a button shown or hidden, the phone turned).
 */
export function fitGameName(bar) {
  const name = bar?.querySelector(".topbar-game");
  const middle = bar?.querySelector(".topbar-middle");
  if (!name || !middle) return;
  const fit = () => {
    name.hidden = false;
    name.hidden = name.scrollWidth > name.clientWidth + 1;
  };
  const room = new ResizeObserver(fit);
  room.observe(middle); // it takes the room the name leaves, and gives it back
  room.observe(name);
}

/**
 * "Leave the table" (`link`, to the game's page) asks first in `dialog` (#leave-confirm, with
 * #leave-text, #leave-yes, #leave-no), saying what leaving does: `words()` at the moment of
 * the tap (a shared seat is kept and the resume list finds it; a match against the computer
 * lives in its tab only). Yes does `leaving()` (it tells the table and forgets it: page.js
 * leaveForGood), then leaves for the link's address: the one place every game leaves by.
 */
export function setUpLeave(link, dialog, words, leaving = async () => {}) {
  if (!link) return;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    dialog.querySelector("#leave-text").textContent = words();
    dialog.showModal();
  });
  const yes = dialog.querySelector("#leave-yes");
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    await leaving();
    location.assign(link.href);
  });
  dialog.querySelector("#leave-no").addEventListener("click", () => dialog.close());
}

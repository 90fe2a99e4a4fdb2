// The top bar's menu, a <details> (it opens and closes without a script, and from the
// keyboard): closes after a choice, on Escape, and on a tap anywhere else.
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

// Install the SquareScores service worker so the pages open and work without a network.
// The worker is registered for this build (the /static/<build>/ this script came from): a
// deploy gives it a new address, so the browser installs the new worker on the next load, and
// the new worker keeps the new build's files for offline use. Entries kept offline live in
// localStorage (outbox.js), which a new worker never touches.
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const build = new URL(import.meta.url).pathname.split("/")[2] ?? "";
  const query = /^[0-9a-f]{12}$/.test(build) ? `?build=${build}` : "";
  navigator.serviceWorker
    .register(`/scores/sw.js${query}`, { scope: "/scores" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // A worker that took over while this page was loading (the start page had just
      // installed it) has not claimed the page: ask it to, so the page works offline now.
      if (!navigator.serviceWorker.controller) registration.active?.postMessage("claim");
    })
    .catch(() => {
      // no service worker (private mode, insecure origin): the page still works online
    });
}

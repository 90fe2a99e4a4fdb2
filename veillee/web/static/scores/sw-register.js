// Install the SquareScores service worker so the pages open and work without a network.
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/scores/sw.js", { scope: "/scores" }).catch(() => {
    // no service worker (private mode, insecure origin): the page still works online
  });
}

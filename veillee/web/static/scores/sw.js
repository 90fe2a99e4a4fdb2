// SquareScores service worker: network first, the cache when there is no network, so a sheet
// opens and takes entries offline. The API and the websocket are never cached.
const CACHE = "squarescores-v1";
// Every sheet page is the same shell (the script reads the sheet id from the address), so one
// cached copy opens any sheet offline, even one first opened before this worker was running.
const SHEET_PAGES = "/scores/sheet/";
const SHEET_SHELL = "/scores/sheet/-";
const SHELL = [
  "/scores",
  SHEET_SHELL,
  "/static/css/site.css",
  "/static/scores/scores.css",
  "/static/scores/start-page.js",
  "/static/scores/sheet-page.js",
  "/static/scores/labels.js",
  "/static/scores/mine.js",
  "/static/scores/outbox.js",
  "/static/live/connection.js",
  "/static/live/i18n.js",
  "/static/scores/pad.js",
  "/static/scores/sw-register.js",
  "/static/scores/manifest.json",
  "/static/scores/icon.svg",
  "/static/scores/icon-maskable.svg",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  const key =
    request.mode === "navigate" && url.pathname.startsWith(SHEET_PAGES) ? SHEET_SHELL : request;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(key, { ignoreSearch: true }).then((hit) => hit || Response.error()),
      ),
  );
});

// SquareScores service worker, one per build (registered as /scores/sw.js?build=<build> by
// sw-register.js). Pages: network first, the cache when there is no network, so a sheet opens
// and takes entries offline. The build's files (/static/<build>/…) never change, so they come
// from the cache first. The API and the websocket are never cached. A new build's worker takes
// over at once and deletes the older builds' caches; entries kept offline are in localStorage
// (outbox.js), untouched.
const BUILD = new URL(self.location.href).searchParams.get("build") || "unversioned";
const CACHE = `squarescores-${BUILD}`;
const STATIC = BUILD === "unversioned" ? "/static/" : `/static/${BUILD}/`;
// Every sheet page is the same shell (the script reads the sheet id from the address), so one
// cached copy opens any sheet offline, even one first opened before this worker was running.
const SHEET_PAGES = "/scores/sheet/";
const SHEET_SHELL = "/scores/sheet/-";
const FILES = [
  "css/site.css",
  "favicon.svg",
  "scores/scores.css",
  "scores/start-page.js",
  "scores/sheet-page.js",
  "scores/labels.js",
  "scores/mine.js",
  "scores/outbox.js",
  "live/connection.js",
  "live/i18n.js",
  "scores/pad.js",
  "scores/sw-register.js",
  "scores/manifest.json",
  "scores/icon.svg",
  "scores/icon-maskable.svg",
];
const SHELL = ["/scores", SHEET_SHELL, ...FILES.map((file) => STATIC + file)];

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

// A page that loaded while this worker was taking over asks to be claimed (sw-register.js).
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

function fromNetwork(request, key) {
  return fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (url.pathname.startsWith(STATIC) && BUILD !== "unversioned") {
    event.respondWith(
      caches.match(request).then((hit) => hit || fromNetwork(request, request)),
    );
    return;
  }
  const key =
    request.mode === "navigate" && url.pathname.startsWith(SHEET_PAGES) ? SHEET_SHELL : request;
  event.respondWith(
    fromNetwork(request, key).catch(() =>
      caches.match(key, { ignoreSearch: true }).then((hit) => hit || Response.error()),
    ),
  );
});

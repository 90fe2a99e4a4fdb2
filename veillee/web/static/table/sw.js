// The table pages' service worker (served as /table-sw.js; push.js registers it for a game's
// table pages, scope /<game>/table/):
// it shows the "your turn" notifications the server pushes (issue 26) and, on a click, focuses
// a tab already open on that table or opens one. It serves no page and caches nothing (no
// fetch handler): the sheet's pages keep their own worker (/scores/sw.js, scope /scores).
// A push's data is JSON: {title, body, url, tag} (veillee/tables/notices.py), never a card.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil(
    self.registration.showNotification(data.title || "Veillée", {
      body: data.body || "",
      tag: data.tag || url,
      icon: "/favicon.ico",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opening = openTable(new URL(event.notification.data?.url || "/", self.location.origin));
  event.waitUntil(opening);
});

/** Focus a tab already on the table at `target` (a URL), else open one. */
async function openTable(target) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
  if (open) return open.focus();
  return self.clients.openWindow(target.href);
}

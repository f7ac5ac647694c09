// hupai's service worker (served at /sw.js by hupai.server.http.app_shell, which writes in this
// build's shell). It keeps one copy of the app's shell — the page, styles, scripts, icons — per build,
// so that an installed hupai opens with the network gone and says it is offline. Online, every file
// comes from the server as without a worker (so a page never mixes two builds); the copy answers only
// when the server cannot be reached. The API and the table's socket are never kept: the table is live.

const VERSION = "__SHELL_VERSION__";
const SHELL = ["__SHELL_FILES__"];
const CACHE = `hupai-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  // The whole shell of this build, or nothing: a file that fails to load fails the install, and the
  // worker before keeps serving its own complete copy.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // Older builds' copies go; this worker serves the pages already open from now on.
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("hupai-shell-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = request.mode === "navigate";
  if (!page && !SHELL.includes(url.pathname)) return; // the API, records, QR codes: live only
  event.respondWith(
    fetch(request).catch(async () => {
      const cache = await caches.open(CACHE);
      const kept = await cache.match(page ? "/" : url.pathname);
      return kept || Response.error();
    }),
  );
});

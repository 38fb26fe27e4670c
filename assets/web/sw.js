// The service worker (a module worker): the app loads, and shows the hunt and the player's
// state, with no network. The app shell and the hunt's state are fetched from the network first
// (so a game master's change is seen at once) and taken from the cache only when the network
// fails or is too slow; a claim link opened with no network gets the claim page from the cache,
// which keeps the claim in the outbox. Background Sync sends the outbox when the network
// returns, even with the app closed. Nothing of the game master's, no POST and no event stream
// is ever cached.
import * as outbox from "./offline/outbox.js";

const version = "v4";
const shellCache = "geoqr-shell-" + version;
// The player's pages and every module they import (the control room is not played offline).
const pages = ["/", "/claim.html", "/checkin.html"];
const modules = ["/app.js", "/claim.js", "/checkin.js",
  "/dom.js", "/words.js", "/session.js", "/api.js", "/hunt.js", "/codes.js", "/position.js", "/verdict.js", "/stream.js",
  "/map.js", "/typed-code-form.js",
  "/offline/outbox.js", "/offline/worker.js", "/offline/claims.js", "/offline/answers.js", "/offline/outbox-panel.js",
  "/app/join.js", "/app/whereabouts.js", "/app/tab-caches.js", "/app/tab-map.js", "/app/tab-scan.js",
  "/app/tab-collection.js", "/app/tab-trades.js", "/app/tab-board.js", "/app/course-card.js", "/app/challenge-card.js"];
const shell = [...pages, ...modules, "/app.css", "/app/course-card.css", "/app/challenge-card.css",
  "/favicon.ico", "/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png", "/icons/icon.svg",
  "/i18n/en.json", "/i18n/pt.json"];
// Leaflet is optional on a server (`geoqr serve` starts without it): cached when there.
const optional = ["/vendor/leaflet/leaflet.js", "/vendor/leaflet/leaflet.css"];
// The hunt's state the app reads with GET; each answer is the signed-in player's. The hunt's
// answer carries the code patterns that name a kept claim's cache.
const state = new Set(["/api/hunt", "/api/caches", "/api/me", "/api/me/collection", "/api/me/trackables", "/api/leaderboard", "/api/map"]);
// A found cache's question (or photo task), so it can be answered with no network.
const challenge = /^\/api\/caches\/[^/]+\/(challenge|photo-task)$/;
// How long the network may take before a cached copy is shown instead (it still updates the cache).
const patience = 4000;

self.addEventListener("install", event => {
  event.waitUntil((async () => {
    const cache = await caches.open(shellCache);
    await cache.addAll(shell);
    await Promise.all(optional.map(path => cache.add(path).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", event => {
  event.waitUntil((async () => {
    const current = new Set([shellCache, outbox.stateCache]);
    for (const name of await caches.keys()) if (name.startsWith("geoqr-") && !current.has(name)) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", event => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/admin") || url.pathname === "/api/live" || request.headers.get("Accept") === "text/event-stream") return;
  if (request.mode === "navigate" && /^\/[cC]\//.test(url.pathname)) {
    event.respondWith(networkFirst(request, shellCache, "/claim.html", false));
  } else if (state.has(url.pathname) || challenge.test(url.pathname)) {
    event.respondWith(networkFirst(request, outbox.stateCache, null, true));
  } else if (shell.includes(url.pathname) || optional.includes(url.pathname) || url.pathname === "/index.html") {
    event.respondWith(networkFirst(request, shellCache, url.pathname === "/index.html" ? "/" : null, true));
  }
});

/// The network's answer (kept in `cacheName` when `store`), else the cached one (`fallback`'s
/// when given): when the network fails, or has not answered within `patience` and a cached
/// copy exists.
async function networkFirst(request, cacheName, fallback, store) {
  const cache = await caches.open(cacheName);
  const cached = () => cache.match(fallback ?? request, { ignoreVary: true, ignoreSearch: fallback !== null });
  const network = fetch(request).then(async response => {
    if (store && response.ok) await cache.put(request, response.clone()).catch(() => {});   // a full disk: still answer
    return response;
  });
  return new Promise(resolve => {
    let answered = false;
    const answer = response => { if (response && !answered) { answered = true; resolve(response); } };
    network.then(answer, async () => answer((await cached()) ?? Response.error()));
    setTimeout(async () => answer(await cached()), patience);
  });
}

self.addEventListener("sync", event => {
  if (event.tag !== outbox.syncTag) return;
  // Claims still waiting make the sync fail, so the browser tries again later.
  event.waitUntil(outbox.flush().then(left => { if (left) throw new Error(`${left} claims still waiting`); }));
});

// A page asks the worker to send the outbox, so every page and Background Sync share one
// sender; the reply says how many claims are still waiting.
self.addEventListener("message", event => {
  if (event.data === "flush") event.waitUntil(outbox.flush().then(left => event.ports[0]?.postMessage(left)));
});

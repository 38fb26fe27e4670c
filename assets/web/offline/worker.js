// The service worker (sw.js) as a page sees it: registered, in a secure context only (Chrome
// itself refuses one on an untrusted, self-signed certificate, and then the page keeps claims
// while it is open); whether it controls the page; the hunt's state read through it, so the app
// opens with no network; and the outbox sent through it, one sender for every page and for
// Background Sync.
import { api } from "../api.js";
import { token } from "../session.js";
import * as outbox from "./outbox.js";

let registered = null;

/// The worker's registration, or null where there is none. Registered once per page, and as a
/// module worker on every page (registering the same script as a classic one would replace it).
export function register() {
  registered ??= registration();
  return registered;
}

function registration() {
  if (!window.isSecureContext || !navigator.serviceWorker?.register) return Promise.resolve(null);
  navigator.serviceWorker.addEventListener("controllerchange", warm);
  return navigator.serviceWorker.register("/sw.js", { type: "module" }).catch(() => null);
}

/// Whether a worker controls this page (and so keeps the app and its claims with no network).
export const controls = () => Boolean(navigator.serviceWorker?.controller);

/// Reads the hunt's state through the worker, which keeps it, so the app opens with no
/// network: when the player signs in or finds a cache, and when a worker first takes the page.
export function warm() {
  if (!controls() || !token()) return;
  for (const path of ["/api/hunt", "/api/map", "/api/me", "/api/caches", "/api/leaderboard"]) api("GET", path).catch(() => {});
}

/// Asks the worker to send the outbox when the network returns, even with the app closed.
export function sendLater() {
  register().then(registration => registration?.sync?.register(outbox.syncTag)).catch(() => {});
}

/// Sends what is waiting, through the worker when one controls the page, else from this page.
/// Resolves with how many claims are still waiting.
export function sendNow() {
  const controller = navigator.serviceWorker?.controller;
  if (!controller) return outbox.flush();
  return new Promise(resolve => {
    const reply = new MessageChannel();
    const timer = setTimeout(() => resolve(outbox.flush()), 20000);   // a worker that never answers
    reply.port1.onmessage = event => { clearTimeout(timer); resolve(event.data); };
    controller.postMessage("flush", [reply.port2]);
  });
}

// The outbox: claims (and answers to stations' questions) kept on the phone while it has no network, in IndexedDB, until they are
// sent. The pages and the service worker both import this module, so either can send what is
// waiting: the page when the network returns or the app opens, the worker when Background
// Sync wakes it. Each kept claim carries a random claimId, so the server records it once
// however often it arrives, and the time and place of its scan. Nothing here is of a page
// alone (no window, no localStorage): it runs in the worker too.
const database = "geoqr-outbox", waitingStore = "waiting", answeredStore = "answered";
/// The Background Sync tag that wakes the worker to send the outbox.
export const syncTag = "geoqr-outbox";
/// The channel that tells every page the outbox changed.
const channelName = "geoqr-outbox";
/// The service worker's cache of the hunt's state (GET answers), forgotten on sign-out.
export const stateCache = "geoqr-state-v1";

let opened = null;
function open() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(database, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(waitingStore, { keyPath: "claimId" });
      request.result.createObjectStore(answeredStore, { keyPath: "claimId" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => { opened = null; reject(request.error); };
  });
  return opened;
}

/// Runs `body(stores)` in one transaction over the named stores; resolves with what `body`
/// returned (an IDBRequest's result once the transaction has committed).
async function inTransaction(names, mode, body) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(names, mode);
    const stores = Object.fromEntries(names.map(n => [n, tx.objectStore(n)]));
    const result = body(stores);
    tx.oncomplete = () => resolve(result instanceof IDBRequest ? result.result : result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/// A random id the server takes (`^[A-Za-z0-9_-]{1,64}$`).
export function newClaimId() {
  if (self.crypto?.randomUUID) return self.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  self.crypto.getRandomValues(bytes);
  return [...bytes].map(b => b.toString(16).padStart(2, "0")).join("");
}

let channel = null;
const listeners = new Set();
/// Calls `listener()` whenever the outbox changes, here or in another page or the worker.
export function onChange(listener) {
  listeners.add(listener);
  if (!channel && self.BroadcastChannel) {
    channel = new BroadcastChannel(channelName);
    channel.onmessage = () => listeners.forEach(l => l());
  }
}
function changed() {
  listeners.forEach(l => l());
  if (self.BroadcastChannel) {
    const out = new BroadcastChannel(channelName);
    out.postMessage("changed");
    out.close();
  }
}

/// Keeps a claim that could not be sent: `claim` is `{code, method, latitude, longitude,
/// accuracy, claimId?}`, `sender` `{token, player, lang}`. The scan's time is now unless
/// `scannedAt` says otherwise.
export async function keep(claim, sender, scannedAt = new Date().toISOString()) {
  const entry = { ...claim, claimId: claim.claimId || newClaimId(), scannedAt,
    token: sender.token, player: sender.player ?? null, lang: sender.lang || "en" };
  await inTransaction([waitingStore], "readwrite", s => s[waitingStore].put(entry));
  changed();
  return entry;
}

const all = name => inTransaction([name], "readonly", s => s[name].getAll())
  .then(list => list.sort((a, b) => a.scannedAt.localeCompare(b.scannedAt)));
/// The claims waiting to be sent, oldest scan first.
export const waiting = () => all(waitingStore);
/// Claims sent since a page last showed them: each with its `answer` (the verdict) or its
/// `refusal` (`{status, error, message}`).
export const answered = () => all(answeredStore);
/// Forgets answered claims once a page has shown them.
export async function forget(claimIds) {
  if (!claimIds.length) return;
  await inTransaction([answeredStore], "readwrite", s => claimIds.forEach(id => s[answeredStore].delete(id)));
}
// Answers that mean "try again later" rather than "this claim is judged".
// The server says so (`retry`); an answer that is not the server's JSON (a proxy's 502 while
// geoqr restarts) is worth retrying when it is a server error.
const transient = (status, data) => data.retry ?? status >= 500;

/// Where a kept entry goes and what it says: a claim to /api/claims; an answer to a cache's
/// question (`kind: "answer"`) to the cache's answer, with the time it was answered.
function request(entry) {
  const { code, method, latitude, longitude, accuracy, claimId, scannedAt } = entry;
  if (entry.kind === "answer") {
    return { path: `/api/caches/${encodeURIComponent(entry.cache)}/answer`,
      body: { answer: entry.answer, answerId: claimId, answeredAt: scannedAt } };
  }
  return { path: "/api/claims", body: { code, method, latitude, longitude, accuracy, claimId, scannedAt } };
}

/// Sends one kept claim or answer. Resolves with "answered" (verdict or refusal, and the entry
/// has left the outbox) or "kept" (no network, or the server cannot judge it now).
async function send(entry) {
  const { claimId } = entry;
  const { path, body } = request(entry);
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": entry.lang, Authorization: "Bearer " + entry.token },
      body: JSON.stringify(body),
    });
  } catch { return "kept"; }
  let data = {};
  try { data = await response.json(); } catch { /* an empty or non-JSON body */ }
  if (!response.ok && transient(response.status, data)) return "kept";
  const { token, lang, ...kept } = entry;
  const result = { ...kept, sentAt: new Date().toISOString() };
  if (response.ok) result.answer = data;
  else result.refusal = { status: response.status, error: data.error ?? "", message: data.message || response.statusText };
  await inTransaction([waitingStore, answeredStore], "readwrite", s => {
    s[waitingStore].delete(claimId);
    s[answeredStore].put(result);
  });
  return "answered";
}

let flushing = null;
/// Sends every waiting claim, oldest scan first, and stops at the first that finds no
/// network. Resolves with how many are still waiting. One flush at a time per page or worker.
export function flush() {
  flushing ??= (async () => {
    try {
      let sent = 0, left = 0;
      const list = await waiting();
      for (const [i, entry] of list.entries()) {
        if ((await send(entry)) === "kept") { left = list.length - i; break; }
        sent++;
      }
      if (sent) changed();
      return left;
    } finally { flushing = null; }
  })();
  return flushing;
}

// The pages' side of playing with no network: registers the service worker, claims a code
// (kept in the outbox when the network fails), shows what is waiting and what was sent, sends
// the outbox when the network returns (the `online` event, the next open, every half minute,
// Background Sync), and wires the "type the code" form. Loaded after common.js and outbox.js.
"use strict";
GeoQR.outbox = (() => {
  const box = self.GeoQROutbox;
  const { el, t } = GeoQR;
  const $ = id => document.getElementById(id);
  let onAnswer = () => {};
  /// Cache names by id, filled by the app from its cache list; the claim page shows ids.
  const names = {};

  // ---- the service worker: only in a secure context; Chrome itself refuses one on an
  // untrusted (self-signed) certificate, and then the page keeps claims while it is open.
  const worker = window.isSecureContext && navigator.serviceWorker?.register
    ? navigator.serviceWorker.register("/sw.js").catch(() => null)
    : Promise.resolve(null);
  const offlineReady = () => Boolean(navigator.serviceWorker?.controller);
  /// Reads the hunt's state through the worker, which keeps it, so the app opens with no
  /// network: when the player signs in, and when a worker first takes the page.
  function warm() {
    if (!offlineReady() || !GeoQR.token()) return;
    for (const path of ["/api/hunt", "/api/map", "/api/me", "/api/caches", "/api/leaderboard"]) GeoQR.api("GET", path).catch(() => {});
  }
  navigator.serviceWorker?.addEventListener("controllerchange", () => { warm(); refresh(); });

  /// Claims with a code's text (`{code, method, latitude, longitude, accuracy}`). Resolves
  /// with `{answer}` (the verdict) or, when the network fails, `{kept}` (the outbox entry);
  /// throws the server's refusal as `GeoQR.api` does.
  async function claim(body) {
    const sending = { ...body, claimId: box.newClaimId() };
    if (navigator.onLine !== false) {
      try { return { answer: await GeoQR.api("POST", "/api/claims", sending) }; } catch (error) {
        if (error.code !== "offline") throw error;
      }
    }
    const kept = await box.keep(sending, { token: GeoQR.token(), player: GeoQR.player()?.id, lang: GeoQR.lang });
    worker.then(registration => registration?.sync?.register(box.syncTag)).catch(() => {});
    return { kept };
  }

  /// Sends what is waiting, through the service worker when one runs (one sender for every
  /// page and Background Sync), else from this page. Resolves with how many are still waiting.
  function send() {
    const controller = navigator.serviceWorker?.controller;
    if (!controller) return box.flush().finally(refresh);
    return new Promise(resolve => {
      const reply = new MessageChannel();
      const timer = setTimeout(() => resolve(box.flush()), 20000);   // a worker that never answers
      reply.port1.onmessage = event => { clearTimeout(timer); resolve(event.data); };
      controller.postMessage("flush", [reply.port2]);
    }).finally(refresh);
  }

  // ---- what is waiting, and what was sent ----
  const clock = time => new Date(time).toLocaleTimeString(GeoQR.lang);
  /// The cache a code names: `A1` of `GQ1.DEMO.A1.…` (or its URL form) and of a typed `A1-7KQ2-M9XD`.
  function cacheOf(code) {
    const text = code.toUpperCase().replace(/\s+/g, "");
    const id = /GQ1\.[^./]+\.([^./]+)\./.exec(text)?.[1] ?? /^(.+?)-?[0-9A-Z]{4}-?[0-9A-Z]{4}$/.exec(text)?.[1] ?? "?";
    return names[id] ? `${names[id]} (${id})` : id;
  }

  function waitingItem(entry) {
    return el("li", { "data-claim": entry.claimId, "data-method": entry.method }, el("div", { class: "grow" },
      el("strong", {}, cacheOf(entry.code)),
      el("div", { class: "muted" }, t("app.outbox.item", { method: t("app.gm.method." + entry.method),
        time: clock(entry.scannedAt), accuracy: Math.round(entry.accuracy ?? 0) }))));
  }

  /// A sent claim: which cache and when it was scanned, how late it arrived, then its verdict
  /// (or the server's sentence when it refused it).
  function answerElement(entry) {
    const late = entry.answer?.lateSeconds;
    const item = el("div", { class: "sent", "data-claim": entry.claimId, "data-late": late ?? "" },
      el("p", { class: "muted" }, t("app.outbox.sentLine", { cache: cacheOf(entry.code), time: clock(entry.scannedAt) })
        + (late ? " · " + t("app.outbox.late", { minutes: Math.max(1, Math.round(late / 60)) }) : "")));
    if (entry.answer) {
      const verdict = el("div");
      GeoQR.renderVerdict(verdict, entry.answer);
      item.append(...verdict.childNodes);
    } else {
      item.append(el("p", { class: "error", role: "alert", "data-error": entry.refusal.error }, entry.refusal.message));
    }
    return item;
  }

  // Renders one after another: changes come from this page, other pages and the worker.
  let queue = Promise.resolve();
  function refresh() { queue = queue.then(render, render); return queue; }
  async function render() {
    const [waiting, answered] = await Promise.all([box.waiting(), box.answered()]);
    const offline = navigator.onLine === false;
    const count = waiting.length;
    const banner = $("outbox-banner");
    if (banner) {
      banner.textContent = count ? t(count === 1 ? "app.outbox.waitingOne" : "app.outbox.waitingMany", { count })
        : offline ? t("app.outbox.offline") : "";
      banner.closest(".banner").classList.toggle("hidden", !count && !offline);
    }
    const panel = $("outbox");
    if (panel) {
      panel.classList.toggle("hidden", !count);
      $("outbox-count").textContent = count ? `(${count})` : "";
      $("outbox-notice").classList.toggle("hidden", !count || offlineReady());
      GeoQR.replace($("outbox-list"), ...waiting.map(waitingItem));
    }
    for (const entry of answered) onAnswer(entry, answerElement(entry));
    await box.forget(answered.map(e => e.claimId));
  }

  /// The page's way to show sent claims: `show(entry, element)` for each, once.
  function attach(show) {
    onAnswer = show;
    $("outbox-send")?.addEventListener("click", async () => {
      if (await send()) GeoQR.toast(t("app.outbox.stillWaiting"));
    });
    box.onChange(refresh);
    window.addEventListener("online", send);
    window.addEventListener("offline", refresh);
    setInterval(async () => { if ((await box.waiting()).length) send(); }, 30000);
    refresh();
    send();
  }

  // ---- "Can't scan? Type the code under the QR" ----
  /// Wires a typed-code form: `locate()` says where the phone is, `show(result)` gets
  /// `{answer}` or `{kept}`; refusals are one sentence in the form's alert.
  function typedForm(form, { locate, show }) {
    const input = form.querySelector("input"), error = form.querySelector("[role=alert]"), button = form.querySelector("button");
    form.addEventListener("submit", async event => {
      event.preventDefault();
      error.textContent = "";
      button.disabled = true;
      try {
        const here = await locate();
        const result = await claim({ code: input.value.trim(), method: "typed", ...here });
        input.value = "";
        show(result);
      } catch (problem) { error.textContent = problem.message; }
      finally { button.disabled = false; }
    });
  }

  return { claim, send, attach, typedForm, warm, names };
})();

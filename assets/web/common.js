// Shared by the app, the claim page and the control room: the words of the chosen language,
// API calls, the session kept in localStorage (so a reload keeps the player signed in), live
// news, and showing a claim's verdict.
"use strict";
const GeoQR = {
  // ---- language: English or Portuguese, from the switch, else the browser's languages ----
  languages: { en: "English", pt: "Português" },
  lang: (() => {
    const chosen = localStorage.getItem("geoqr.lang");
    if (chosen === "en" || chosen === "pt") return chosen;
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const base = tag.toLowerCase().split("-")[0];
      if (base === "pt" || base === "en") return base;
    }
    return "en";
  })(),
  words: {},

  /// The catalogue's sentence for `key`, with `{name}` placeholders filled from `vars`.
  t(key, vars = {}) {
    const template = GeoQR.words[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (vars[name] ?? `{${name}}`));
  },

  /// Puts the catalogue's words into every element that names a key: `data-i18n` (text),
  /// `data-i18n-label` (aria-label), `data-i18n-title` (the page title).
  translate(root = document) {
    document.documentElement.lang = GeoQR.lang;
    for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = GeoQR.t(node.dataset.i18n);
    for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", GeoQR.t(node.dataset.i18nLabel));
    const title = document.querySelector("title[data-i18n-title]");
    if (title) document.title = GeoQR.t(title.dataset.i18nTitle);
  },

  /// The language switch in a page's header: remembers the choice and reloads in it.
  languageSwitch(select) {
    if (!select) return;
    select.replaceChildren(...Object.entries(GeoQR.languages).map(([code, name]) =>
      GeoQR.el("option", { value: code, lang: code }, name)));
    select.value = GeoQR.lang;
    select.addEventListener("change", () => { localStorage.setItem("geoqr.lang", select.value); location.reload(); });
  },

  // ---- the player's session ----
  token() { return localStorage.getItem("geoqr.token"); },
  player() { try { return JSON.parse(localStorage.getItem("geoqr.player")); } catch { return null; } },
  save(signedIn) {
    localStorage.setItem("geoqr.token", signedIn.token);
    localStorage.setItem("geoqr.player", JSON.stringify(signedIn.player));
  },
  forget() { localStorage.removeItem("geoqr.token"); localStorage.removeItem("geoqr.player"); },

  async api(method, path, body, options = {}) {
    const headers = { "Accept-Language": GeoQR.lang };
    const token = options.token || GeoQR.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    let payload = body;
    if (body !== undefined && !(body instanceof Blob) && !(body instanceof FormData)) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    } else if (body instanceof Blob) {
      headers["Content-Type"] = body.type || "application/octet-stream";
    }
    let response;
    try { response = await fetch(path, { method, headers, body: payload }); } catch {
      throw Object.assign(new Error(GeoQR.t("app.error.offline")), { code: "offline" });
    }
    const text = await response.text();
    let data = {};
    try { data = text ? JSON.parse(text) : {}; } catch { data = { message: response.statusText }; }
    if (!response.ok) {
      const error = new Error(data.message || response.statusText);
      error.code = data.error; error.status = response.status;
      throw error;
    }
    return data;
  },

  /// Server-sent events read with fetch, so a token can go in a header rather than the URL:
  /// calls `on[name](data)` per event and reconnects after a drop, until `stop()`.
  listen(path, token, on) {
    // lastId: the last "id:" line heard, sent back as Last-Event-ID when the stream is opened
    // again (as EventSource does), so the server first tells what the dropped stream missed.
    let stopped = false, controller = null, lastId = null;
    (async function loop() {
      while (!stopped) {
        controller = new AbortController();
        try {
          const headers = { Authorization: "Bearer " + token };
          if (lastId !== null) headers["Last-Event-ID"] = lastId;
          const response = await fetch(path, { headers, signal: controller.signal });
          if (!response.ok) { on.error?.(response.status); if (response.status === 401 || response.status === 403) return; }
          else {
            on.open?.();
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = "";
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += value;
              let end;
              while ((end = buffer.indexOf("\n\n")) >= 0) {
                const block = buffer.slice(0, end); buffer = buffer.slice(end + 2);
                let name = "message", data = "";
                for (const line of block.split("\n")) {
                  if (line.startsWith("id: ")) lastId = line.slice(4);
                  else if (line.startsWith("event: ")) name = line.slice(7);
                  else if (line.startsWith("data: ")) data += line.slice(6);
                }
                if (data && on[name]) { try { on[name](JSON.parse(data)); } catch (error) { console.error(error); } }
              }
            }
          }
        } catch { /* a dropped connection: try again below */ }
        on.closed?.();
        if (!stopped) await new Promise(r => setTimeout(r, 3000));
      }
    })();
    return { stop() { stopped = true; controller?.abort(); } };
  },

  /// Replaces `container`'s children with `children`, unless they would read the same; the
  /// element that had the keyboard focus keeps it (found again by its data- attributes), so
  /// live updates never throw a keyboard user back to the top of the page.
  replace(container, ...children) {
    const next = GeoQR.el("div", {}, ...children);
    if (next.innerHTML === container.innerHTML) return;
    const active = container.contains(document.activeElement) ? document.activeElement : null;
    const selector = active && [...active.attributes].filter(a => a.name.startsWith("data-"))
      .map(a => `[${a.name}="${CSS.escape(a.value)}"]`).join("");
    container.replaceChildren(...next.childNodes);
    if (selector) container.querySelector(active.tagName.toLowerCase() + selector)?.focus();
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  },

  metres(m) {
    const n = m >= 1000 ? (m / 1000).toFixed(1) : String(Math.round(m));
    return (GeoQR.lang === "pt" ? n.replace(".", ",") : n) + (m >= 1000 ? " km" : " m");
  },

  /// "2 min ago", from a time and the server's clock.
  age(time, now = Date.now()) {
    const seconds = Math.max(0, Math.round((now - new Date(time).getTime()) / 1000));
    if (seconds < 60) return GeoQR.t("app.age.seconds", { n: seconds });
    if (seconds < 3600) return GeoQR.t("app.age.minutes", { n: Math.round(seconds / 60) });
    return GeoQR.t("app.age.hours", { n: (seconds / 3600).toFixed(1) });
  },

  // The verdict box: the message revealed on a find, or how far and which way to walk.
  renderVerdict(target, result) {
    target.replaceChildren();
    const box = GeoQR.el("div", { class: "verdict " + result.verdict, role: "status", "data-verdict": result.verdict });
    box.append(GeoQR.el("p", { class: "sentence" }, GeoQR.el("strong", {}, result.sentence)));
    if (result.message) box.append(GeoQR.el("p", { class: "message", id: "revealed" }, result.message));
    if (result.verdict === "too-far" && result.distanceM !== undefined) {
      const arrow = GeoQR.el("span", { class: "arrow", "aria-hidden": "true" }, "↑");
      arrow.style.transform = `rotate(${result.bearingDeg}deg)`;
      box.append(GeoQR.el("p", { class: "walk" }, arrow, " " + GeoQR.t("app.verdict.walk",
        { distance: GeoQR.metres(result.distanceM), direction: result.direction ?? "", bearing: Math.round(result.bearingDeg) })));
    }
    if (result.points) box.append(GeoQR.el("p", {}, GeoQR.t(result.firstToFind ? "app.verdict.pointsFirst" : "app.verdict.points",
      { points: result.points })));
    target.append(box);
  },

  toast(text) {
    const area = document.getElementById("toasts");
    if (!area) return;
    const t = GeoQR.el("div", { class: "toast", role: "status" }, text);
    area.append(t);
    setTimeout(() => t.remove(), 6000);
  },

  // One high-accuracy fix, for the claim page and photo claims.
  locate() {
    return new Promise((resolve, reject) => {
      if (!navigator.geolocation) return reject(new Error(GeoQR.t("app.location.none")));
      navigator.geolocation.getCurrentPosition(
        p => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
        e => reject(new Error(GeoQR.t("app.location.off", { reason: e.message }))),
        { enableHighAccuracy: true, timeout: 15000, maximumAge: 5000 });
    });
  },
};

/// Resolves once the chosen language's words are in and the page is translated.
GeoQR.ready = fetch(`/i18n/${GeoQR.lang}.json`)
  .then(r => (r.ok ? r.json() : {}))
  .catch(() => ({}))
  .then(words => { GeoQR.words = words; GeoQR.translate(); GeoQR.languageSwitch(document.getElementById("lang")); });

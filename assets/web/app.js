// The player's app: join, caches by distance with arrows, scan (camera frames or a photo),
// collection, trades, live leaderboard, reports. Live news arrives over server-sent events.
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const { el, api } = GeoQR;
  const state = { position: null, heading: null, caches: [], lastSent: 0, events: null, camera: null, standings: [] };

  // ---- joining and the session ----
  async function enter(path) {
    $("join-error").textContent = "";
    try {
      const signedIn = await api("POST", path, { name: $("name").value.trim(), pin: $("pin").value });
      GeoQR.save(signedIn);
      const pending = sessionStorage.getItem("geoqr.pendingClaim");
      if (pending) { sessionStorage.removeItem("geoqr.pendingClaim"); location.href = pending; return; }
      start();
    } catch (error) { $("join-error").textContent = error.message; }
  }
  $("join-form").addEventListener("submit", e => { e.preventDefault(); enter("/api/join"); });
  $("signin-button").addEventListener("click", () => { if ($("join-form").reportValidity()) enter("/api/signin"); });
  $("sign-out").addEventListener("click", () => { GeoQR.forget(); location.reload(); });

  async function start() {
    try { var me = await api("GET", "/api/me"); } catch (error) {
      if (error.status === 401) { GeoQR.forget(); return; }
      throw error;
    }
    $("join").classList.add("hidden");
    $("app").classList.remove("hidden");
    $("me").textContent = `${me.player.name} · ${me.points} pts`;
    listen();
    watchPosition();
    refreshCaches();
  }

  // ---- tabs ----
  for (const button of document.querySelectorAll("nav button")) {
    button.addEventListener("click", () => show(button.dataset.tab));
  }
  function show(tab) {
    for (const b of document.querySelectorAll("nav button")) b.toggleAttribute("aria-current", b.dataset.tab === tab);
    for (const s of document.querySelectorAll("[id^=tab-]")) s.classList.toggle("hidden", s.id !== "tab-" + tab);
    if (tab !== "scan") stopCamera();
    ({ caches: refreshCaches, collection: refreshCollection, trades: refreshTrades, board: refreshBoard })[tab]?.();
  }

  // ---- where am I, which way is north ----
  function watchPosition() {
    if (!navigator.geolocation) { $("where").textContent = "(no location in this browser)"; return; }
    navigator.geolocation.watchPosition(p => {
      state.position = { latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy };
      $("where").textContent = `(±${Math.round(p.coords.accuracy)} m)`;
      if (Date.now() - state.lastSent > 4000) refreshCaches();
    }, e => { $("where").textContent = "(location off: " + e.message + ")"; }, { enableHighAccuracy: true, maximumAge: 3000 });
    const onTurn = e => {
      const heading = e.webkitCompassHeading ?? (e.absolute && e.alpha !== null ? 360 - e.alpha : null);
      if (heading !== null && heading !== undefined) { state.heading = heading; turnArrows(); }
    };
    window.addEventListener("deviceorientationabsolute", onTurn);
    window.addEventListener("deviceorientation", onTurn);
  }

  // Lists can be in flight together (the first one asked before the phone knew where it was,
  // the next with its position): an answer older than one already shown is dropped, or the
  // list without distances could arrive last and stay.
  let listsAsked = 0, listShown = 0;
  async function refreshCaches() {
    const asked = ++listsAsked;
    try {
      let caches;
      if (state.position) {
        state.lastSent = Date.now();
        caches = (await api("POST", "/api/me/position", state.position)).caches;
      } else {
        caches = (await api("GET", "/api/caches")).caches;
      }
      if (asked < listShown) return;
      listShown = asked;
      state.caches = caches;
      renderCaches();
    } catch (error) { GeoQR.toast(error.message); }
  }

  function renderCaches() {
    const list = $("cache-list");
    list.replaceChildren(...state.caches.map(c => {
      const arrow = el("span", { class: "arrow", "aria-hidden": "true", "data-bearing": c.bearingDeg ?? "" }, c.bearingDeg === undefined ? "?" : "↑");
      const where = c.distanceM === undefined ? "distance unknown until your location is on"
        : `${GeoQR.metres(c.distanceM)} ${c.direction}`;
      const report = el("button", { type: "button", class: "secondary", "aria-label": `Report a problem with ${c.name}`,
        onclick: () => openReport(c) }, "⚠");
      return el("li", { "data-cache": c.id },
        arrow,
        el("div", { class: "grow" },
          el("strong", {}, c.name), " ", c.found ? el("span", { class: "found" }, "✓ found") : null,
          el("div", { class: "distance" }, where),
          el("div", { class: "muted" }, [c.trail ? "Trail: " + c.trail : null, `D${c.difficulty}/T${c.terrain}`, `${c.points} pts`,
            c.disabled ? "closed" : null, c.flagged ? "reported" : null].filter(Boolean).join(" · "))),
        report);
    }));
    turnArrows();
  }

  // With a compass the arrow points at the cache; without one it is drawn as on a map (north up).
  function turnArrows() {
    for (const arrow of document.querySelectorAll(".arrow[data-bearing]")) {
      if (arrow.dataset.bearing === "") continue;
      const angle = Number(arrow.dataset.bearing) - (state.heading ?? 0);
      arrow.style.transform = `rotate(${angle}deg)`;
    }
  }

  // ---- reports ----
  let reporting = null;
  function openReport(cache) {
    reporting = cache.id;
    $("report-cache").textContent = cache.name;
    $("report-form").classList.remove("hidden");
    $("report-kind").focus();
  }
  $("report-cancel").addEventListener("click", () => $("report-form").classList.add("hidden"));
  $("report-form").addEventListener("submit", async e => {
    e.preventDefault();
    try {
      await api("POST", "/api/reports", { cache: reporting, kind: $("report-kind").value, text: $("report-text").value });
      $("report-form").classList.add("hidden");
      GeoQR.toast("Report sent to the game master. Thank you!");
      refreshCaches();
    } catch (error) { GeoQR.toast(error.message); }
  });

  // ---- scanning ----
  $("camera-start").addEventListener("click", startCamera);
  $("camera-stop").addEventListener("click", stopCamera);

  async function startCamera() {
    const video = $("camera");
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false });
      video.srcObject = stream;
      await video.play();
    } catch (error) { $("scan-status").textContent = "No camera: " + error.message + " — upload a photo instead."; return; }
    video.classList.remove("hidden");
    $("camera-start").classList.add("hidden");
    $("camera-stop").classList.remove("hidden");
    $("scan-status").textContent = "Point the camera at the code…";
    const canvas = document.createElement("canvas");
    let busy = false;
    state.camera = setInterval(async () => {
      if (busy || !video.videoWidth) return;
      busy = true;
      try {
        const scale = Math.min(1, 640 / Math.max(video.videoWidth, video.videoHeight));
        canvas.width = Math.round(video.videoWidth * scale);
        canvas.height = Math.round(video.videoHeight * scale);
        canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
        const frame = await new Promise(r => canvas.toBlob(r, "image/jpeg", 0.85));
        const p = state.position;
        const query = p ? `?latitude=${p.latitude}&longitude=${p.longitude}&accuracy=${p.accuracy}` : "";
        const result = await api("POST", "/api/claims/frame" + query, frame);
        if (result.verdict !== "no-code") {
          stopCamera();
          GeoQR.renderVerdict($("scan-result"), result);
          refreshCaches();
        }
      } catch (error) { $("scan-status").textContent = error.message; }
      finally { busy = false; }
    }, 350);
  }

  function stopCamera() {
    if (state.camera) clearInterval(state.camera);
    state.camera = null;
    const video = $("camera");
    video.srcObject?.getTracks().forEach(t => t.stop());
    video.srcObject = null;
    video.classList.add("hidden");
    $("camera-start").classList.remove("hidden");
    $("camera-stop").classList.add("hidden");
    $("scan-status").textContent = "";
  }

  $("photo").addEventListener("change", async () => {
    const file = $("photo").files[0];
    if (!file) return;
    const form = new FormData();
    form.append("photo", file);
    if (state.position) for (const k of ["latitude", "longitude", "accuracy"]) form.append(k, String(state.position[k]));
    $("scan-status").textContent = "Reading the photo…";
    try {
      GeoQR.renderVerdict($("scan-result"), await api("POST", "/api/claims/photo", form));
      refreshCaches();
    } catch (error) { $("scan-result").replaceChildren(el("p", { class: "error" }, error.message)); }
    $("scan-status").textContent = "";
  });

  // ---- collection ----
  async function refreshCollection() {
    const [cards, carried] = await Promise.all([api("GET", "/api/me/collection"), api("GET", "/api/me/trackables")]);
    $("card-list").replaceChildren(...cards.cards.map(c => el("li", { "data-card": c.id }, el("div", { class: "grow" },
      el("strong", {}, c.cacheName), el("p", { class: "message" }, c.message),
      el("div", { class: "muted" }, `${new Date(c.foundAt).toLocaleString()}` +
        (c.foundLatitude !== undefined ? ` at ${c.foundLatitude.toFixed(5)}, ${c.foundLongitude.toFixed(5)}` : "") + ` · ${c.id}`)))));
    if (!cards.cards.length) $("card-list").append(el("li", {}, "No cards yet: find a cache!"));
    $("trackable-list").replaceChildren(...carried.trackables.map(t => el("li", {}, `${t.name} (${t.id})`)));
  }

  // ---- trades ----
  async function refreshTrades() {
    const me = GeoQR.player();
    const [players, mine, trades] = await Promise.all([api("GET", "/api/players"), api("GET", "/api/me/collection"), api("GET", "/api/trades")]);
    const select = $("trade-to");
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "" }, "— choose —"),
      ...players.players.filter(p => p.id !== me.id).map(p => el("option", { value: p.id }, p.name)));
    select.value = chosen;
    $("trade-give").replaceChildren(...mine.cards.map(c => checkbox("give", c.id, c.cacheName)));
    await refreshWanted();
    const line = (t, actions) => el("li", { "data-trade": t.id, "data-state": t.state }, el("div", { class: "grow" },
      el("strong", {}, `${t.id}: ${t.state}`), el("div", { class: "muted" }, `gives ${t.give.join(", ") || "nothing"} for ${t.receive.join(", ") || "nothing"}`)),
      ...(t.state === "open" ? actions : []));
    $("trades-in").replaceChildren(...trades.incoming.map(t => line(t, [
      el("button", { type: "button", onclick: () => answer(t.id, "accept") }, "Accept"),
      el("button", { type: "button", class: "secondary", onclick: () => answer(t.id, "decline") }, "Decline")])));
    $("trades-out").replaceChildren(...trades.outgoing.map(t => line(t, [
      el("button", { type: "button", class: "secondary", onclick: () => answer(t.id, "cancel") }, "Cancel")])));
  }
  function checkbox(group, id, label) {
    const input = el("input", { type: "checkbox", name: group, value: id, id: `${group}-${id}` });
    input.style.width = "auto"; input.style.minHeight = "auto";
    return el("label", { for: `${group}-${id}` }, input, ` ${label} (${id})`);
  }
  async function refreshWanted() {
    const other = $("trade-to").value;
    if (!other) { $("trade-receive").replaceChildren(); return; }
    const items = await api("GET", `/api/players/${encodeURIComponent(other)}/items`);
    $("trade-receive").replaceChildren(...items.items.map(i => checkbox("receive", i.id, i.name)));
  }
  $("trade-to").addEventListener("change", refreshWanted);
  $("trade-form").addEventListener("submit", async e => {
    e.preventDefault();
    $("trade-error").textContent = "";
    const picked = name => [...document.querySelectorAll(`input[name=${name}]:checked`)].map(i => i.value);
    try {
      await api("POST", "/api/trades", { to: $("trade-to").value, give: picked("give"), receive: picked("receive") });
      GeoQR.toast("Offer sent.");
      refreshTrades();
    } catch (error) { $("trade-error").textContent = error.message; }
  });
  async function answer(id, verb) {
    try { await api("POST", `/api/trades/${id}/${verb}`); } catch (error) { GeoQR.toast(error.message); }
    refreshTrades();
  }

  // ---- leaderboard ----
  async function refreshBoard() { state.standings = (await api("GET", "/api/leaderboard")).standings; renderBoard(); }
  function renderBoard() {
    const me = GeoQR.player();
    $("board").replaceChildren(...state.standings.map((s, i) => el("tr", { class: s.player === me?.id ? "me" : "", "data-player": s.player },
      el("td", {}, String(i + 1)), el("td", {}, s.name), el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds)))));
    const mine = state.standings.find(s => s.player === me?.id);
    if (mine) $("me").textContent = `${mine.name} · ${mine.points} pts`;
  }

  // ---- live news ----
  function listen() {
    if (state.events) state.events.close();
    const events = new EventSource("/api/live?token=" + encodeURIComponent(GeoQR.token()));
    state.events = events;
    events.addEventListener("leaderboard", e => { state.standings = JSON.parse(e.data); renderBoard(); });
    events.addEventListener("find", e => {
      const f = JSON.parse(e.data);
      if (f.player !== GeoQR.player()?.id) GeoQR.toast(`${f.name} found ${f.cacheName}!`);
    });
    events.addEventListener("trade-offer", e => { const t = JSON.parse(e.data); GeoQR.toast(`Trade ${t.id} offered`); refreshTradesIfOpen(); });
    events.addEventListener("trade-outcome", e => { const t = JSON.parse(e.data); GeoQR.toast(`Trade ${t.id}: ${t.state}`); refreshTradesIfOpen(); });
    events.addEventListener("broadcast", e => {
      const b = JSON.parse(e.data);
      $("broadcast").textContent = "Game master: " + b.message;
      $("broadcast").classList.remove("hidden");
    });
    events.addEventListener("proximity", e => {
      const p = JSON.parse(e.data);
      GeoQR.toast(`You are within ${Math.round(p.distanceM)} m of ${p.name} — look around!`);
    });
  }
  function refreshTradesIfOpen() { if (!$("tab-trades").classList.contains("hidden")) refreshTrades(); }

  api("GET", "/api/hunt").then(h => { $("hunt-name").textContent = h.name; document.title = h.name + " — GeoQR"; }).catch(() => {});
  if (GeoQR.token()) start();
})();

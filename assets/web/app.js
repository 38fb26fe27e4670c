// The player's app: join (with a team), caches by distance with arrows and progress, a map,
// scan (camera frames or a photo), collection, trades, live leaderboard (players or teams),
// paid hints, reports, the short code typed from a card, and claims kept while the phone has no
// network (offline.js). Live news arrives over server-sent events.
"use strict";
(async function () {
  const $ = id => document.getElementById(id);
  const { el, api, t } = GeoQR;
  const state = { position: null, heading: null, caches: [], hunt: null, events: null, camera: null,
    standings: [], teams: [], boardView: "players", map: null, tab: "caches" };
  await GeoQR.ready;
  // A claim kept offline and sent since shows in the Scan tab (in place of its "kept" notice).
  GeoQR.outbox.attach((entry, element) => {
    const kept = $("scan-result").querySelector(`[data-kept="${CSS.escape(entry.claimId)}"]`);
    if (kept) $("scan-result").replaceChildren(element); else $("outbox-sent").prepend(element);
    if (state.tab !== "scan") GeoQR.toast(t("app.outbox.answered"));
    if (GeoQR.token()) { refreshCaches(); GeoQR.outbox.warm(); }
  });
  $("outbox-banner").addEventListener("click", () => { show("scan"); $("outbox").scrollIntoView({ block: "nearest" }); });

  // ---- the hunt, and joining with a team ----
  try {
    state.hunt = await api("GET", "/api/hunt");
    $("hunt-name").textContent = state.hunt.name;
    document.title = state.hunt.name + " — GeoQR";
    if (state.hunt.teams?.length) {
      $("team").replaceChildren(el("option", { value: "" }, t("app.join.noTeam")),
        ...state.hunt.teams.map(name => el("option", { value: name }, name)));
      $("team").classList.remove("hidden");
      $("team-text").remove();
    } else {
      $("team").remove();
      $("team-text").id = "team";
    }
  } catch (error) { GeoQR.toast(error.message); }

  async function enter(path) {
    $("join-error").textContent = "";
    const body = { name: $("name").value.trim(), pin: $("pin").value };
    const team = $("team")?.value.trim();
    if (path === "/api/join" && team) body.team = team;
    try {
      const signedIn = await api("POST", path, body);
      GeoQR.save(signedIn);
      const pending = sessionStorage.getItem("geoqr.pendingClaim");
      if (pending) { sessionStorage.removeItem("geoqr.pendingClaim"); location.href = pending; return; }
      start();
    } catch (error) { $("join-error").textContent = error.message; }
  }
  $("join-form").addEventListener("submit", e => { e.preventDefault(); enter("/api/join"); });
  $("signin-button").addEventListener("click", () => {
    if ($("name").reportValidity() && $("pin").reportValidity()) enter("/api/signin");
  });
  $("sign-out").addEventListener("click", async () => {
    // The server ends the session too, so a copy of the token signs nobody in (offline: it
    // expires by itself 24 hours after its last use).
    await api("POST", "/api/signout").catch(() => {});
    GeoQR.forget();
    await window.caches?.delete(GeoQROutbox.stateCache).catch(() => {});   // the next player must not see this one's
    location.reload();
  });

  async function start() {
    let me;
    try { me = await api("GET", "/api/me"); } catch (error) {
      if (error.status === 401) { GeoQR.forget(); return; }
      throw error;
    }
    $("join").classList.add("hidden");
    $("app").classList.remove("hidden");
    showMe(me.player.name, me.points);
    GeoQR.outbox.warm();
    listen();
    watchPosition();
    refreshCaches();
    show(state.tab);
  }
  function showMe(name, points) { $("me").textContent = t("app.me", { name, points }); }

  // ---- tabs; on a wide screen the map stays beside the list ----
  const wide = window.matchMedia("(min-width: 60rem)");
  for (const button of document.querySelectorAll("nav button")) {
    button.addEventListener("click", () => show(button.dataset.tab));
  }
  wide.addEventListener("change", () => show(state.tab));
  function show(tab) {
    state.tab = tab;
    for (const b of document.querySelectorAll("nav button")) {
      if (b.dataset.tab === tab) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
    }
    const beside = wide.matches && (tab === "caches" || tab === "map");
    for (const s of document.querySelectorAll("[id^=tab-]")) {
      s.classList.toggle("hidden", !(s.id === "tab-" + tab || (beside && (s.id === "tab-caches" || s.id === "tab-map"))));
    }
    if (tab !== "scan") stopCamera();
    if (tab === "map" || beside) openMap();
    ({ caches: refreshCaches, collection: refreshCollection, trades: refreshTrades, board: refreshBoard })[tab]?.();
  }

  // ---- where am I, which way is north ----
  // Position updates come every second or so; the list is asked at most every 4 s, and the
  // last update inside that window is sent when it ends, so a player who stops walking still
  // sees the distance from where they stand.
  const throttle = 4000;
  let lastSent = 0, deferred = null;
  function positionChanged() {
    const wait = lastSent + throttle - Date.now();
    if (wait <= 0) { clearTimeout(deferred); deferred = null; refreshCaches(); }
    else if (!deferred) deferred = setTimeout(() => { deferred = null; refreshCaches(); }, wait);
    state.map?.showMe(state.position);
  }
  function watchPosition() {
    if (!navigator.geolocation) { $("where").textContent = t("app.location.none"); return; }
    navigator.geolocation.watchPosition(p => {
      state.position = { latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy };
      $("where").textContent = t("app.location.accuracy", { accuracy: Math.round(p.coords.accuracy) });
      positionChanged();
    }, e => { $("where").textContent = t("app.location.off", { reason: e.message }); },
    { enableHighAccuracy: true, maximumAge: 3000 });
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
        lastSent = Date.now();
        caches = (await api("POST", "/api/me/position", state.position)).caches;
      } else {
        caches = (await api("GET", "/api/caches")).caches;
      }
      showList(asked, caches);
    } catch (error) {
      // With no network the list stays as it was (the banner says why), or is the one the
      // service worker kept, without distances.
      if (error.code !== "offline") GeoQR.toast(error.message);
      else if (!state.caches.length) api("GET", "/api/caches").then(list => showList(asked, list.caches), () => {});
    }
  }
  function showList(asked, caches) {
    if (asked < listShown) return;
    listShown = asked;
    state.caches = caches;
    for (const c of caches) GeoQR.outbox.names[c.id] = c.name;
    renderCaches();
    state.map?.showCaches(state.caches, state.hunt?.trails);
  }

  function renderCaches() {
    const found = state.caches.filter(c => c.found).length;
    $("progress").textContent = t("app.caches.progress", { found, total: state.caches.length });
    GeoQR.replace($("cache-list"), ...state.caches.map(c => {
      const arrow = el("span", { class: "arrow", "aria-hidden": "true", "data-bearing": c.bearingDeg ?? "" }, c.bearingDeg === undefined ? "?" : "↑");
      const where = c.distanceM === undefined ? t("app.caches.noDistance") : `${GeoQR.metres(c.distanceM)} ${c.direction ?? ""}`;
      const report = el("button", { type: "button", class: "secondary", "aria-label": t("app.report.label", { name: c.name }),
        onclick: () => openReport(c) }, "⚠");
      return el("li", { "data-cache": c.id },
        arrow,
        el("div", { class: "grow" },
          el("strong", {}, c.name), " ", c.found ? el("span", { class: "found" }, "✓ " + t("app.caches.found")) : null,
          el("div", { class: "distance" }, where),
          el("div", { class: "muted" }, [c.trail ? t("app.caches.trail", { trail: c.trail }) : null, `D${c.difficulty}/T${c.terrain}`,
            t("app.caches.points", { points: c.points }), c.disabled ? t("app.caches.closed") : null,
            c.flagged ? t("app.caches.reported") : null].filter(Boolean).join(" · ")),
          hint(c)),
        report);
    }));
    turnArrows();
  }

  // A free hint is shown; a paid one is revealed on request, once its price is confirmed.
  function hint(c) {
    if (c.hint) return el("div", { class: "hint" }, t("app.hint.shown", { hint: c.hint }));
    if (!c.hintCost) return null;   // the server prices a hint only where paying would help
    return el("button", { type: "button", class: "secondary small", "data-hint": c.id, onclick: async () => {
      if (!confirm(t("app.hint.confirm", { name: c.name, cost: c.hintCost }))) return;
      try {
        const revealed = await api("POST", `/api/caches/${encodeURIComponent(c.id)}/hint`);
        c.hint = revealed.hint; c.hintRevealed = true;
        renderCaches();
      } catch (error) { GeoQR.toast(error.message); }
    } }, t("app.hint.buy", { cost: c.hintCost }));
  }

  // With a compass the arrow points at the cache; without one it is drawn as on a map (north up).
  function turnArrows() {
    for (const arrow of document.querySelectorAll(".arrow[data-bearing]")) {
      if (arrow.dataset.bearing === "") continue;
      const angle = Number(arrow.dataset.bearing) - (state.heading ?? 0);
      arrow.style.transform = `rotate(${angle}deg)`;
    }
  }

  // ---- the map ----
  async function openMap() {
    if (!state.map) {
      state.map = "opening";
      state.map = await GeoQR.HuntMap.make($("map"));
      if (!state.map) return;
      state.map.showCaches(state.caches, state.hunt?.trails);
      state.map.showMe(state.position);
    }
    if (state.map !== "opening") state.map?.shown();
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
      const body = { cache: reporting, kind: $("report-kind").value, text: $("report-text").value };
      const file = $("report-photo").files[0];
      if (file) body.photo = await new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result).split(",", 2)[1]);
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(file);
      });
      await api("POST", "/api/reports", body);
      $("report-form").classList.add("hidden");
      $("report-form").reset();
      GeoQR.toast(t("app.report.thanks"));
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
    } catch (error) { $("scan-status").textContent = t("app.scan.noCamera", { reason: error.message }); return; }
    video.classList.remove("hidden");
    $("camera-start").classList.add("hidden");
    $("camera-stop").classList.remove("hidden");
    $("scan-status").textContent = t("app.scan.aim");
    const canvas = document.createElement("canvas");
    const detector = await phoneDecoder();
    let busy = false;
    state.camera = setInterval(async () => {
      if (busy || !video.videoWidth) return;
      busy = true;
      try {
        if (detector) {
          const [code] = await detector.detect(video);
          if (code?.rawValue) { stopCamera(); await claimScanned(code.rawValue); }
          return;
        }
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
    }, detector ? 250 : 350);
  }

  // A phone that reads QR codes itself (BarcodeDetector) sends only the text, which also
  // works with no network (the claim waits in the outbox); others send frames to the server.
  async function phoneDecoder() {
    if (!("BarcodeDetector" in window)) return null;
    try {
      const formats = await BarcodeDetector.getSupportedFormats();
      return formats.includes("qr_code") ? new BarcodeDetector({ formats: ["qr_code"] }) : null;
    } catch { return null; }
  }
  // A fresh fix where the code is read; the last one watched if the phone gives none now.
  const here = () => GeoQR.locate().catch(error => state.position ?? Promise.reject(error));
  async function claimScanned(text) {
    try { showOutcome(await GeoQR.outbox.claim({ code: text, method: "camera", ...(await here()) })); } catch (error) {
      $("scan-result").replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
    }
  }
  /// A claim's verdict, or the notice that it is kept until the network returns.
  function showOutcome(outcome) {
    if (outcome.kept) {
      $("scan-result").replaceChildren(el("p", { class: "kept", role: "status", "data-kept": outcome.kept.claimId }, t("app.outbox.kept")));
      return;
    }
    GeoQR.renderVerdict($("scan-result"), outcome.answer);
    refreshCaches();
    GeoQR.outbox.warm();   // the player's points and finds as the app will open with no network
  }
  GeoQR.outbox.typedForm($("typed-form"), { locate: here, show: showOutcome });

  function stopCamera() {
    if (state.camera) clearInterval(state.camera);
    state.camera = null;
    const video = $("camera");
    video.srcObject?.getTracks().forEach(track => track.stop());
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
    $("scan-status").textContent = t("app.scan.reading");
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
      el("div", { class: "muted" }, new Date(c.foundAt).toLocaleString(GeoQR.lang) +
        (c.foundLatitude !== undefined ? ` · ${c.foundLatitude.toFixed(5)}, ${c.foundLongitude.toFixed(5)}` : "") + ` · ${c.id}`)))));
    if (!cards.cards.length) $("card-list").append(el("li", {}, t("app.collection.empty")));
    $("trackable-list").replaceChildren(...carried.trackables.map(tr => el("li", {}, `${tr.name} (${tr.id})`)));
  }

  // ---- trades ----
  async function refreshTrades() {
    const me = GeoQR.player();
    const [players, mine, trades] = await Promise.all([api("GET", "/api/players"), api("GET", "/api/me/collection"), api("GET", "/api/trades")]);
    const select = $("trade-to");
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "" }, t("app.trades.choose")),
      ...players.players.filter(p => p.id !== me.id).map(p => el("option", { value: p.id }, p.name)));
    select.value = chosen;
    $("trade-give").replaceChildren(...mine.cards.map(c => checkbox("give", c.id, c.cacheName)));
    await refreshWanted();
    const line = (tr, actions) => el("li", { "data-trade": tr.id, "data-state": tr.state }, el("div", { class: "grow" },
      el("strong", {}, `${tr.id}: ${t("app.trades.state." + tr.state)}`),
      el("div", { class: "muted" }, t("app.trades.terms", { give: tr.give.join(", ") || "—", receive: tr.receive.join(", ") || "—" }))),
      ...(tr.state === "open" ? actions : []));
    GeoQR.replace($("trades-in"), ...trades.incoming.map(tr => line(tr, [
      el("button", { type: "button", onclick: () => answer(tr.id, "accept") }, t("app.trades.accept")),
      el("button", { type: "button", class: "secondary", onclick: () => answer(tr.id, "decline") }, t("app.trades.decline"))])));
    GeoQR.replace($("trades-out"), ...trades.outgoing.map(tr => line(tr, [
      el("button", { type: "button", class: "secondary", onclick: () => answer(tr.id, "cancel") }, t("app.cancel"))])));
  }
  function checkbox(group, id, label) {
    const input = el("input", { type: "checkbox", name: group, value: id, id: `${group}-${id}`, class: "check" });
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
      GeoQR.toast(t("app.trades.sent"));
      refreshTrades();
    } catch (error) { $("trade-error").textContent = error.message; }
  });
  async function answer(id, verb) {
    try { await api("POST", `/api/trades/${id}/${verb}`); } catch (error) { GeoQR.toast(error.message); }
    refreshTrades();
  }

  // ---- leaderboard: players, or teams ----
  async function refreshBoard() {
    const board = await api("GET", "/api/leaderboard");
    state.standings = board.standings; state.teams = board.teams ?? [];
    renderBoard();
  }
  for (const [id, view] of [["board-players", "players"], ["board-teams", "teams"]]) {
    $(id).addEventListener("click", () => { state.boardView = view; refreshBoard(); });
  }
  function renderBoard() {
    const me = GeoQR.player();
    const teams = state.boardView === "teams";
    $("board-players").setAttribute("aria-pressed", String(!teams));
    $("board-teams").setAttribute("aria-pressed", String(teams));
    $("board-who").textContent = t(teams ? "app.board.team" : "app.board.player");
    const rows = teams
      ? state.teams.map((s, i) => el("tr", { class: s.team === me?.team ? "me" : "", "data-team": s.team },
          el("td", {}, String(i + 1)), el("td", {}, t("app.board.teamLine", { team: s.team, players: s.players })),
          el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds))))
      : state.standings.map((s, i) => el("tr", { class: s.player === me?.id ? "me" : "", "data-player": s.player },
          el("td", {}, String(i + 1)), el("td", {}, s.name + (s.team ? ` (${s.team})` : "")),
          el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds))));
    GeoQR.replace($("board"), ...rows);
    if (teams && !rows.length) $("board").append(el("tr", {}, el("td", { colspan: 4 }, t("app.board.noTeams"))));
    const mine = state.standings.find(s => s.player === me?.id);
    if (mine) showMe(mine.name, mine.points);
  }

  // ---- live news ----
  function listen() {
    if (state.events) state.events.close();
    const events = new EventSource("/api/live?token=" + encodeURIComponent(GeoQR.token()));
    state.events = events;
    events.addEventListener("leaderboard", e => {
      state.standings = JSON.parse(e.data);
      if (state.boardView === "teams" && state.tab === "board") refreshBoard(); else renderBoard();
    });
    events.addEventListener("find", e => {
      const f = JSON.parse(e.data);
      if (f.player !== GeoQR.player()?.id) GeoQR.toast(t("app.news.found", { name: f.name, cache: f.cacheName }));
    });
    events.addEventListener("trade-offer", e => { GeoQR.toast(t("app.news.tradeOffered", { id: JSON.parse(e.data).id })); refreshTradesIfOpen(); });
    events.addEventListener("trade-outcome", e => {
      const tr = JSON.parse(e.data);
      GeoQR.toast(t("app.news.tradeOutcome", { id: tr.id, state: t("app.trades.state." + tr.state) }));
      refreshTradesIfOpen();
    });
    events.addEventListener("broadcast", e => {
      const b = JSON.parse(e.data);
      const text = b.running === undefined ? b.message : t(b.running ? "app.news.started" : "app.news.stopped");
      $("broadcast").textContent = t("app.news.broadcast", { message: text });
      $("broadcast").classList.remove("hidden");
    });
    // The server would not replay what a long absence missed: load the state afresh.
    events.addEventListener("fresh-state", () => { refreshCaches(); show(state.tab); });
    // A refused stream (429: too many opened) is not retried by EventSource: open it again later.
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED && state.events === events) setTimeout(() => { if (state.events === events) listen(); }, 15000);
    });
    events.addEventListener("proximity", e => {
      const p = JSON.parse(e.data);
      GeoQR.toast(t("app.news.near", { distance: GeoQR.metres(p.distanceM), name: p.name }));
    });
  }
  function refreshTradesIfOpen() { if (!$("tab-trades").classList.contains("hidden")) refreshTrades(); }

  if (GeoQR.token()) start();
})();

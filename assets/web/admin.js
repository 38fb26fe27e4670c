// The game master's control room: the caches and each player's last position on a map, the
// claims as they are judged, each station's health, the courses' split tables and who is still
// out (admin/courses.js), the photos sent for photo tasks (admin/photo-tasks.js), and every
// act of the game master. The admin token comes in the link's #fragment (never sent to the
// server in a URL) and is kept for this tab only; live news comes over the token-checked
// stream /api/admin/live.
import { $, el, replace } from "./dom.js";
import { age, lang, metres, ready, t } from "./words.js";
import { api as askServer } from "./api.js";
import { hunt } from "./hunt.js";
import { listen } from "./stream.js";
import { HuntMap } from "./map.js";
import { courseRoom } from "./admin/courses.js";
import { photoTaskRoom } from "./admin/photo-tasks.js";

const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
if (fromLink) { sessionStorage.setItem("geoqr.admin", fromLink); history.replaceState(null, "", location.pathname); }
const token = sessionStorage.getItem("geoqr.admin");
const api = (method, path, body) => askServer(method, path, body, { token });
const fail = error => { $("admin-error").textContent = error.message; };
const state = { overview: null, names: {}, skew: 0, map: null, hunt: null, feed: [] };
const serverNow = () => Date.now() - state.skew;
const note = text => { $("admin-note").textContent = text; };
const courses = courseRoom({ api, fail, note });
const photoTasks = photoTaskRoom({ api, token, now: () => serverNow(), note, fail });

// Refreshes overlap (a claim's news, an act, the timer): an answer older than one already
// shown is dropped, or a page could go back to a cache closed a moment ago.
let asked = 0, shown = 0;
async function refresh() {
  const mine = ++asked;
  courses.refresh();
  photoTasks.refresh();
  try {
    const [o, stations] = await Promise.all([api("GET", "/api/admin/overview"), api("GET", "/api/admin/stations")]);
    if (mine < shown) return;
    shown = mine;
    state.overview = o;
    state.skew = Date.now() - new Date(o.now).getTime();
    state.names = Object.fromEntries(o.players.map(p => [p.id, p.name]));
    $("admin-error").textContent = "";
    const players = t(o.players.length === 1 ? "app.gm.playersOne" : "app.gm.playersMany", { count: o.players.length });
    $("status").textContent = t(o.running ? "app.gm.running" : "app.gm.stopped", { players, live: o.listeners });
    $("start").disabled = o.running; $("stop").disabled = !o.running;
    renderMap(o);
    renderStations(stations.stations, o);
    renderPlayers(o);
    renderReports(o);
    replace($("flags"), ...o.flags.map(f => el("li", {}, t("app.gm.flag",
      { kind: f.kind, name: state.names[f.player] ?? f.player, find: f.find, detail: f.detail }))));
    if (!o.flags.length) $("flags").append(el("li", { class: "muted" }, t("app.gm.none")));
    replace($("standings"), ...o.standings.map(s => el("tr", { "data-player": s.player }, el("td", {}, String(s.rank)),
      el("td", {}, s.name + (s.team ? ` (${s.team})` : "")), el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds)))));
    renderFinds(o);
  } catch (error) { fail(error); }
}
let soon = null;
function refreshSoon() { if (!soon) soon = setTimeout(() => { soon = null; refresh(); }, 700); }

// ---- the map ----
async function renderMap(o) {
  if (!state.map) {
    state.map = "opening";
    state.hunt = await hunt().catch(() => null);
    if (state.hunt) $("hunt-name").textContent = "· " + state.hunt.name;
    state.map = await HuntMap.make($("gm-map"));
  }
  if (!state.map || state.map === "opening") return;
  // Each cache says whether it is found (finds that count) and closed: the server decides both.
  state.map.showCaches(o.caches, state.hunt?.trails ?? []);
  state.map.showPlayers(o.positions, state.names, serverNow());
}

// ---- claims as they happen ----
function addClaim(c) {
  // A stream that resumes after a drop tells the claims the control room missed, and may
  // tell again one it heard just before: one line per player, cache, verdict and scan second.
  const key = [c.player, c.cache ?? "", c.verdict, Math.floor(Date.parse(c.scanTime) / 1000)].join("|");
  if ([...$("feed").children].some(li => li.dataset.key === key)) return;
  const line = el("li", { class: c.refused ? "refused" : "accepted", "data-verdict": c.verdict, "data-key": key },
    el("time", { datetime: c.at }, new Date(c.at).toLocaleTimeString(lang)), " ",
    el("strong", {}, c.name + (c.team ? ` (${c.team})` : "")), " · ",
    el("span", { class: "verdict-code" }, t("app.verdict." + c.verdict)), " · ",
    (c.cacheName ?? c.cache ?? "?") + (c.distanceM !== undefined && c.distanceM !== null ? ` · ${metres(c.distanceM)}` : "") +
      ` · ${t("app.gm.method." + c.method)}`,
    // A claim kept on a phone with no network, sent later: judged at its scan's time and place.
    c.lateSeconds ? el("span", { class: "late", "data-late": c.lateSeconds }, " · " + t("app.gm.late", { minutes: Math.max(1, Math.round(c.lateSeconds / 60)) })) : null);
  $("feed").prepend(line);
  while ($("feed").children.length > 100) $("feed").lastChild.remove();
}

// ---- station health ----
function renderStations(stations, o) {
  replace($("stations"), ...stations.map(s => {
    const refused = Object.entries(s.refused ?? {}).map(([verdict, n]) => `${t("app.verdict." + verdict)} ${n}`).join(", ") || "—";
    const health = s.disabled ? el("span", { class: "closed" }, t("app.gm.closed"))
      : s.warning ? el("span", { class: "warning", role: "note" }, "⚠ " + s.warning) : el("span", { class: "ok" }, t("app.gm.ok"));
    return el("tr", { "data-station": s.id, class: s.warning && !s.disabled ? "warn" : "" },
      el("th", { scope: "row" }, `${s.id} ${s.name}`), el("td", {}, String(s.finds)), el("td", {}, refused),
      el("td", {}, String(s.openReports)), el("td", {}, s.lastFind ? age(s.lastFind, serverNow()) : "—"), el("td", {}, health),
      el("td", {}, el("button", { type: "button", class: "secondary small", "data-toggle": s.id,
        onclick: () => act("POST", `/api/admin/caches/${s.id}/${s.disabled ? "enable" : "disable"}`, { reason: t("app.gm.byGM") },
          t(s.disabled ? "app.gm.reopened" : "app.gm.closedNote", { name: s.name })) },
        t(s.disabled ? "app.gm.reopen" : "app.gm.close", { name: s.name }))));
  }));
}

// ---- players, grouped by team ----
function renderPlayers(o) {
  const points = Object.fromEntries(o.standings.map(s => [s.player, s]));
  const where = Object.fromEntries(o.positions.map(p => [p.player, p]));
  const checked = Object.fromEntries((o.readiness ?? []).map(c => [c.player, c]));
  const phone = c => {
    if (!c) return null;
    const missing = ["secure", "camera", "location", "offline", "wakeLock"].filter(part => !c[part]);
    return el("span", { class: "readiness " + (missing.length ? "warn" : "ok"), "data-ready": missing.length ? "no" : "yes" },
      " · " + t("app.gm.readiness") + ": " + (missing.length
        ? t("app.gm.notReady", { parts: missing.map(part => t("app.checkin." + part)).join(", ") })
        : t("app.gm.ready")));
  };
  // The server groups the players and sums each team (TeamGroup); the page only shows them.
  const byID = Object.fromEntries(o.players.map(p => [p.id, p]));
  replace($("players"), ...o.teams.map(group => {
    const team = group.team ?? "", players = group.players.map(id => byID[id]).filter(Boolean);
    return el("section", { class: "team", "data-team": team },
      el("h3", {}, (team || t("app.gm.noTeam")) + " · " + t("app.caches.points", { points: group.points })),
      el("ul", { class: "list" }, ...players.map(p => {
        const fix = where[p.id];
        const seen = fix ? t("app.gm.seen", { age: age(fix.at, serverNow()), accuracy: Math.round(fix.accuracyM ?? 0) }) : t("app.gm.notSeen");
        return el("li", { "data-player": p.id }, el("div", { class: "grow" }, el("strong", {}, p.name), ` ${p.id} · `,
          t("app.caches.points", { points: points[p.id]?.points ?? 0 }), " · ", el("span", { class: "muted" }, seen),
          phone(checked[p.id]) ?? ""),
          el("button", { type: "button", class: "secondary small", "data-adjust": p.id, onclick: () => {
            const amount = Number(prompt(t("app.gm.adjustAsk", { name: p.name })));
            if (!Number.isInteger(amount) || amount === 0) return;
            const reason = prompt(t("app.gm.reasonAsk"));
            if (reason) act("POST", `/api/admin/players/${p.id}/points`, { amount, reason }, t("app.gm.adjusted", { name: p.name, amount }));
          } }, t("app.gm.adjust")),
          el("button", { type: "button", class: "secondary small", "data-reset": p.id, onclick: () => {
            const pin = prompt(t("app.gm.pinAsk", { name: p.name }));
            if (pin) act("POST", `/api/admin/players/${p.id}/pin`, { pin }, t("app.gm.pinDone", { name: p.name }));
          } }, t("app.gm.resetPIN")),
          el("button", { type: "button", class: "secondary small", "data-forget": p.id, onclick: () => {
            if (confirm(t("app.gm.forgetAsk", { name: p.name }))) {
              act("POST", `/api/admin/players/${p.id}/forget`, undefined, t("app.gm.forgotten", { name: p.name }));
            }
          } }, t("app.gm.forget")));
      })));
  }));
  if (!o.players.length) $("players").append(el("p", { class: "muted" }, t("app.gm.noPlayers")));
}

// ---- reports, with their photos ----
function renderReports(o) {
  replace($("reports"), ...o.reports.map(r => el("li", { "data-report": r.id },
    r.photoSHA256 ? photo(r) : null,
    el("div", { class: "grow" }, el("strong", {}, `${r.cache} · ${t("app.report." + reportKey(r.kind))}`),
      el("div", {}, r.text || "—"), el("div", { class: "muted" }, `${state.names[r.player] ?? r.player} · ${age(r.filed, serverNow())}`)),
    el("button", { type: "button", class: "secondary small", onclick: () => {
      const resolution = prompt(t("app.gm.resolveAsk"), t("app.gm.checked"));
      if (resolution) act("POST", `/api/admin/reports/${r.id}/resolve`, { resolution });
    } }, t("app.gm.resolve")))));
  if (!o.reports.length) $("reports").append(el("li", { class: "muted" }, t("app.gm.none")));
}
const reportKey = kind => kind === "wrong-coordinates" ? "wrongCoordinates" : kind;
// Fetched once per report (the token goes in a header), then drawn from the kept copy.
const photos = new Map();
function photo(report) {
  const img = el("img", { class: "report-photo", alt: t("app.gm.photoOf", { cache: report.cache }), "data-photo": report.id });
  if (photos.has(report.id)) { img.src = photos.get(report.id); return img; }
  fetch(`/api/admin/reports/${report.id}/photo`, { headers: { Authorization: "Bearer " + token } })
    .then(r => (r.ok ? r.blob() : null)).then(b => {
      if (!b) return;
      photos.set(report.id, URL.createObjectURL(b));
      document.querySelector(`img[data-photo="${report.id}"]`)?.setAttribute("src", photos.get(report.id));
    });
  return img;
}

function renderFinds(o) {
  replace($("finds"), ...o.finds.slice().reverse().map(f => el("li", { "data-find": f.id }, el("div", { class: "grow" },
    `${f.id} · ${state.names[f.player] ?? f.player} → ${f.cache} (${t("app.gm.method." + f.method)})` +
      (f.voidReason ? ` · ${t("app.gm.voided", { reason: f.voidReason })}` : "")),
    f.voidReason ? null : el("button", { type: "button", class: "secondary small", onclick: () => {
      const reason = prompt(t("app.gm.voidAsk", { find: f.id }));
      if (reason) act("POST", `/api/admin/finds/${f.id}/void`, { reason }, t("app.gm.voidDone", { find: f.id }));
    } }, t("app.gm.void")))));
}

async function act(method, path, body, done) {
  $("admin-note").textContent = "";
  try { await api(method, path, body); if (done) $("admin-note").textContent = done; } catch (error) { fail(error); }
  refresh();
}

/// Wires the acts, the downloads and the live news, and loads the hunt's state.
function openControlRoom() {
  $("start").addEventListener("click", () => act("POST", "/api/admin/hunt/start", undefined, t("app.news.started")));
  $("stop").addEventListener("click", () => act("POST", "/api/admin/hunt/stop", undefined, t("app.news.stopped")));
  $("broadcast-form").addEventListener("submit", e => {
    e.preventDefault();
    act("POST", "/api/admin/broadcast", { message: $("broadcast-text").value }, t("app.gm.broadcastSent"));
    $("broadcast-text").value = "";
  });
  // Downloads go through fetch: the token is a header, never part of a link.
  const downloads = { "export-finds": "/api/admin/results/finds.csv", "export-standings": "/api/admin/results/standings.csv",
    "export": "/api/admin/ledger", "export-private": "/api/admin/ledger?private=1" };
  for (const [id, path] of Object.entries(downloads)) {
    $(id).addEventListener("click", async e => {
      e.preventDefault();
      try {
        const response = await fetch(path, { headers: { Authorization: "Bearer " + token } });
        if (!response.ok) throw new Error((await response.json()).message);
        const url = URL.createObjectURL(await response.blob());
        Object.assign(el("a", { href: url, download: $(id).dataset.file }), {}).click();
      } catch (error) { fail(error); }
    });
  }

  listen("/api/admin/live", { token,
    opened: () => { $("status").classList.remove("offline"); },
    dropped: () => { $("status").classList.add("offline"); },
    refused: status => fail(new Error(t(status === 401 || status === 403 ? "app.gm.needLink" : "app.error.offline"))),
    news: {
      claim: c => { addClaim(c); refreshSoon(); },
      course: () => courses.refresh(),   // a mass start or a disqualification
      "photo-tasks": () => photoTasks.refresh(),   // a photo sent or judged
      position: fix => {
        if (!state.overview) return;
        state.overview.positions = state.overview.positions.filter(p => p.player !== fix.player).concat([fix]);
        state.map?.showPlayers?.(state.overview.positions, state.names, serverNow());
      },
      player: refreshSoon, stations: refreshSoon, standings: refreshSoon, readiness: refreshSoon,
      "fresh-state": refreshSoon,   // away too long for the missed news to be told: load it all again
    },
  });
  refresh();
  setInterval(refresh, 30000);
  // Ages on the map grow while nothing new comes.
  setInterval(() => { if (state.overview && state.map?.showPlayers) state.map.showPlayers(state.overview.positions, state.names, serverNow()); }, 10000);
}

await ready;
if (token) openControlRoom(); else fail(new Error(t("app.gm.needLink")));

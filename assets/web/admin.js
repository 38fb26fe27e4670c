// The game master's page. The admin token comes in the link's #fragment (never sent to the
// server in a URL) and is kept for this tab only.
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const { el } = GeoQR;
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromLink) { sessionStorage.setItem("geoqr.admin", fromLink); history.replaceState(null, "", location.pathname); }
  const token = sessionStorage.getItem("geoqr.admin");
  const api = (method, path, body) => GeoQR.api(method, path, body, { token });
  const fail = error => { $("admin-error").textContent = error.message; };

  async function refresh() {
    try {
      const o = await api("GET", "/api/admin/overview");
      // The cache list is public: asked without the admin token, which is not a player's.
      const caches = (await GeoQR.api("GET", "/api/caches")).caches;
      $("status").textContent = `${o.running ? "running" : "stopped"} · ${o.players.length} players · ${o.listeners} live`;
      const names = Object.fromEntries(o.players.map(p => [p.id, p.name]));
      $("standings").replaceChildren(...o.standings.map(s => el("tr", {}, el("td", {}, s.name), el("td", {}, String(s.points)), el("td", {}, String(s.finds)))));
      $("reports").replaceChildren(...o.reports.map(r => el("li", {}, el("div", { class: "grow" }, `${r.cache}: ${r.kind} — ${r.text} (${names[r.player] ?? r.player})`),
        el("button", { type: "button", onclick: () => act("POST", `/api/admin/reports/${r.id}/resolve`, { resolution: "checked" }) }, "Resolve"))));
      $("players").replaceChildren(...o.players.map(p => el("li", {}, el("div", { class: "grow" }, `${p.id} ${p.name}` + (p.team ? ` (${p.team})` : "")),
        el("button", { type: "button", class: "secondary", onclick: () => {
          const pin = prompt(`New PIN for ${p.name} (4 characters or more). Tell it to them in person.`);
          if (pin) act("POST", `/api/admin/players/${p.id}/pin`, { pin }, `${p.name} has a new PIN; any lockout is lifted.`); } }, "Reset PIN"))));
      $("flags").replaceChildren(...o.flags.map(f => el("li", {}, `${f.kind}: ${names[f.player] ?? f.player} ${f.find} — ${f.detail}`)));
      $("finds").replaceChildren(...o.finds.slice().reverse().map(f => el("li", {}, el("div", { class: "grow" },
        `${f.id} ${names[f.player] ?? f.player} → ${f.cache} (${f.method})` + (f.voidReason ? ` void: ${f.voidReason}` : "")),
        f.voidReason ? null : el("button", { type: "button", class: "secondary", onclick: () => {
          const reason = prompt("Reason for voiding " + f.id); if (reason) act("POST", `/api/admin/finds/${f.id}/void`, { reason }); } }, "Void"))));
      $("caches").replaceChildren(...caches.map(c => {
        const off = o.disabled.includes(c.id);
        return el("li", {}, el("div", { class: "grow" }, `${c.id} ${c.name}` + (off ? " (closed)" : "")),
          el("button", { type: "button", class: "secondary", onclick: () => act("POST", `/api/admin/caches/${c.id}/${off ? "enable" : "disable"}`, { reason: "game master" }) }, off ? "Open" : "Close"));
      }));
    } catch (error) { fail(error); }
  }
  async function act(method, path, body, done) {
    $("admin-note").textContent = "";
    try { await api(method, path, body); if (done) $("admin-note").textContent = done; } catch (error) { fail(error); }
    refresh();
  }

  $("start").addEventListener("click", () => act("POST", "/api/admin/hunt/start"));
  $("stop").addEventListener("click", () => act("POST", "/api/admin/hunt/stop"));
  $("broadcast-form").addEventListener("submit", e => { e.preventDefault(); act("POST", "/api/admin/broadcast", { message: $("broadcast-text").value }); $("broadcast-text").value = ""; });
  $("export").addEventListener("click", async e => {
    e.preventDefault();
    const response = await fetch("/api/admin/ledger", { headers: { Authorization: "Bearer " + token } });
    const url = URL.createObjectURL(await response.blob());
    Object.assign(document.createElement("a"), { href: url, download: "ledger.jsonl" }).click();
  });
  if (!token) fail(new Error("Open this page with the admin link geoqr serve printed."));
  else { refresh(); setInterval(refresh, 10000); }
})();

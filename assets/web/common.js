// Shared by the app, the claim page and the game-master page: API calls, the session kept
// in localStorage (so a reload keeps the player signed in), and showing a claim's verdict.
"use strict";
const GeoQR = {
  token() { return localStorage.getItem("geoqr.token"); },
  player() { try { return JSON.parse(localStorage.getItem("geoqr.player")); } catch { return null; } },
  save(signedIn) {
    localStorage.setItem("geoqr.token", signedIn.token);
    localStorage.setItem("geoqr.player", JSON.stringify(signedIn.player));
  },
  forget() { localStorage.removeItem("geoqr.token"); localStorage.removeItem("geoqr.player"); },

  async api(method, path, body, options = {}) {
    const headers = {};
    const token = options.token || GeoQR.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    let payload = body;
    if (body !== undefined && !(body instanceof Blob) && !(body instanceof FormData)) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    } else if (body instanceof Blob) {
      headers["Content-Type"] = body.type || "application/octet-stream";
    }
    const response = await fetch(path, { method, headers, body: payload });
    const text = await response.text();
    const data = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const error = new Error(data.message || response.statusText);
      error.code = data.error; error.status = response.status;
      throw error;
    }
    return data;
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null) node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  },

  metres(m) { return m >= 1000 ? (m / 1000).toFixed(1) + " km" : Math.round(m) + " m"; },

  // The verdict box: the message revealed on a find, or how far and which way to walk.
  renderVerdict(target, result) {
    target.replaceChildren();
    const box = GeoQR.el("div", { class: "verdict " + result.verdict, role: "status", "data-verdict": result.verdict });
    box.append(GeoQR.el("p", { class: "sentence" }, GeoQR.el("strong", {}, result.sentence)));
    if (result.message) box.append(GeoQR.el("p", { class: "message", id: "revealed" }, result.message));
    if (result.verdict === "too-far" && result.distanceM !== undefined) {
      const arrow = GeoQR.el("span", { class: "arrow", "aria-hidden": "true" }, "↑");
      arrow.style.transform = `rotate(${result.bearingDeg}deg)`;
      box.append(GeoQR.el("p", { class: "walk" }, arrow, ` Walk ${GeoQR.metres(result.distanceM)} ${result.direction} (bearing ${Math.round(result.bearingDeg)}°).`));
    }
    if (result.points) box.append(GeoQR.el("p", {}, `+${result.points} points` + (result.firstToFind ? " — first to find!" : "")));
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
      if (!navigator.geolocation) return reject(new Error("this browser gives no location"));
      navigator.geolocation.getCurrentPosition(
        p => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
        e => reject(new Error("no location: " + e.message)),
        { enableHighAccuracy: true, timeout: 15000, maximumAge: 5000 });
    });
  },
};

// The map of the player's app and of the control room, with Leaflet as geoqr serves it (no
// CDN: a hunt may have no internet). The basemap is what `geoqr serve --tiles/--mbtiles` set;
// without one the map still shows the caches, trails, players and a scale on a plain ground.
// Leaflet writes a string it is given (tooltip, popup, attribution) as HTML, and these strings
// come from players, the hunt file and the tile source: the map gives it DOM nodes only.
import { el } from "./dom.js";
import { api } from "./api.js";
import { age, t } from "./words.js";

/// A tooltip's or popup's content: the text in a span, which Leaflet shows as written.
export const tip = text => el("span", {}, String(text));

/// Leaflet, loaded the first time a map opens: it is most of the app's weight, and a phone that
/// never opens the map does without it (the service worker keeps it for a map with no network).
/// The control room's page loads it itself. True once `L` is there.
let leaflet = null;
function loadLeaflet() {
  if (window.L) return Promise.resolve(true);
  const loaded = (tag, attributes) => new Promise(done =>
    document.head.append(el(tag, { ...attributes, onload: () => done(true), onerror: () => done(false) })));
  leaflet ??= Promise.all([loaded("link", { rel: "stylesheet", href: "/vendor/leaflet/leaflet.css" }),
    loaded("script", { src: "/vendor/leaflet/leaflet.js" })]).then(() => Boolean(window.L));
  return leaflet;
}

export class HuntMap {
  /// A map in `container`; `config` is `GET /api/map`'s answer.
  constructor(container, config) {
    this.container = container;
    this.map = L.map(container, { zoomSnap: 0.5, attributionControl: false });
    const tiles = config?.tiles;
    if (tiles) {
      L.tileLayer(tiles.url, { minZoom: tiles.minZoom ?? 0, maxNativeZoom: tiles.maxZoom ?? 19, maxZoom: 20 }).addTo(this.map);
      // The tile source's credit, as text in Leaflet's attribution box (its own control takes HTML).
      if (tiles.attribution) {
        const credit = L.control({ position: "bottomright" });
        credit.onAdd = () => el("div", { class: "leaflet-control-attribution leaflet-control" }, tiles.attribution);
        credit.addTo(this.map);
      }
      container.dataset.basemap = tiles.url.startsWith("/") ? "mbtiles" : "online";
    } else {
      container.classList.add("plain");
      container.dataset.basemap = "none";
    }
    L.control.scale({ imperial: false, maxWidth: 120 }).addTo(this.map);
    this.caches = L.layerGroup().addTo(this.map);
    this.trails = L.layerGroup().addTo(this.map);
    this.people = L.layerGroup().addTo(this.map);
    this.fitted = false;
    // Until the user moves the map, it keeps everything drawn in view; after, it stays put.
    this.userMoved = false;
    for (const event of ["mousedown", "touchstart", "wheel", "keydown"]) {
      container.addEventListener(event, () => { this.userMoved = true; }, { passive: true });
    }
  }

  /// The map's configuration from the server (basemap or none), and whether Leaflet loaded.
  static async make(container) {
    if (!await loadLeaflet()) {
      container.replaceChildren(el("p", { class: "error" }, t("app.map.noLeaflet")));
      return null;
    }
    const config = await api("GET", "/api/map").catch(() => ({ tiles: null }));
    return new HuntMap(container, config);
  }

  /// Draws the caches (found and not found told apart; closed ones dashed), ordered trails as
  /// lines, and marks the next cache of each ordered trail (the server says which: `next`).
  /// `caches` carry latitude/longitude.
  showCaches(caches, trails = []) {
    this.caches.clearLayers();
    this.trails.clearLayers();
    const byID = Object.fromEntries(caches.filter(c => c.latitude !== undefined).map(c => [c.id, c]));
    const next = new Set(caches.filter(c => c.next).map(c => c.id));
    for (const trail of trails.filter(t => t.ordered)) {
      const points = trail.caches.map(id => byID[id]).filter(Boolean);
      if (points.length > 1) {
        L.polyline(points.map(c => [c.latitude, c.longitude]), { className: "trail-line", weight: 4, dashArray: "8 6" })
          .bindTooltip(tip(trail.name)).addTo(this.trails);
      }
    }
    for (const c of Object.values(byID)) {
      const state = c.disabled ? "closed" : c.found ? "found" : "unfound";
      const label = t(`app.map.cache.${state}`, { name: c.name }) + (next.has(c.id) ? " · " + t("app.map.next") : "");
      // Each marker's classes name it (`cache-A1`): Leaflet draws it only once the map has a view.
      L.circleMarker([c.latitude, c.longitude], { radius: next.has(c.id) ? 12 : 9,
        className: `cache-marker cache-${c.id} ${state}` + (next.has(c.id) ? " next" : ""), weight: 3 })
        .bindTooltip(tip(label), { permanent: next.has(c.id), direction: "top" }).addTo(this.caches);
    }
    this.fit();
  }

  /// Draws the player's own position with its accuracy circle.
  showMe(position) {
    this.me?.remove(); this.meRing?.remove();
    if (!position) return;
    const at = [position.latitude, position.longitude];
    this.meRing = L.circle(at, { radius: position.accuracy || 0, className: "me-accuracy", weight: 1 }).addTo(this.people);
    this.me = L.circleMarker(at, { radius: 7, className: "me-marker", weight: 3 })
      .bindTooltip(tip(t("app.map.you", { accuracy: Math.round(position.accuracy || 0) }))).addTo(this.people);
    this.fit();
  }

  /// The control room's players: a marker per last position with its age and accuracy.
  showPlayers(fixes, names, now) {
    this.people.clearLayers();
    for (const f of fixes) {
      const at = [f.latitude, f.longitude];
      if (f.accuracyM) L.circle(at, { radius: f.accuracyM, className: "player-accuracy", weight: 1 }).addTo(this.people);
      const label = t("app.gm.playerAt", { name: names[f.player] ?? f.player, age: age(f.at, now),
        accuracy: Math.round(f.accuracyM ?? 0) });
      L.circleMarker(at, { radius: 7, className: `player-marker player-${f.player}`, weight: 3 })
        .bindTooltip(tip(label), { permanent: true, direction: "right", className: "player-label" }).addTo(this.people);
    }
    this.fit();
  }

  /// Frames everything drawn (caches and people) until the user moves the map; a view that
  /// already shows it all is left alone, so the map does not jump at every update.
  fit() {
    if (this.userMoved || !this.container.offsetWidth) return;
    const bounds = L.latLngBounds([]);
    for (const group of [this.caches, this.people]) group.eachLayer(l => l.getLatLng && bounds.extend(l.getLatLng()));
    if (!bounds.isValid()) return;
    if (this.fitted && this.map.getBounds().contains(bounds)) return;
    this.map.fitBounds(bounds.pad(0.15), { maxZoom: 18 });
    this.fitted = true;
  }

  /// Leaflet measures its container when shown: call after a hidden map becomes visible.
  shown() { this.map.invalidateSize(); this.fitted = false; this.fit(); }
}

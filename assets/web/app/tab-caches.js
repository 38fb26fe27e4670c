// The Caches tab: the hunt's caches, nearest first, each with its distance and an arrow that
// points at it, its hint (a paid one revealed on request, once its price is confirmed), and a
// button to report it ("missing", "damaged"…) in the tab's report form, and, once found, its
// question or photo task (app/challenge-card.js); above them, how many the player has found.
import { $, el, replace, toast } from "../dom.js";
import { api, base64 } from "../api.js";
import { openChallenge } from "./challenge-card.js";
import { metres, t } from "../words.js";
import { lastHeading, lastPosition } from "./whereabouts.js";

let caches = [];
const listeners = [];

/// Calls `listener(caches)` with each list shown (the map draws it, the outbox names its caches).
export const onList = listener => { listeners.push(listener); };

// Position updates come every second or so; the list is asked at most every 4 s, and the
// last update inside that window is sent when it ends, so a player who stops walking still
// sees the distance from where they stand.
const throttle = 4000;
let lastSent = 0, deferred = null;

/// The player moved: the list is asked again, with the new distances.
export function moved() {
  const wait = lastSent + throttle - Date.now();
  if (wait <= 0) { clearTimeout(deferred); deferred = null; refresh(); }
  else if (!deferred) deferred = setTimeout(() => { deferred = null; refresh(); }, wait);
}

// Lists can be in flight together (the first one asked before the phone knew where it was,
// the next with its position): an answer older than one already shown is dropped, or the
// list without distances could arrive last and stay.
let listsAsked = 0, listShown = 0;

/// Asks the server for the list (from where the player stands, when the phone says) and shows it.
export async function refresh() {
  const asked = ++listsAsked;
  try {
    let list;
    if (lastPosition()) {
      lastSent = Date.now();
      list = (await api("POST", "/api/me/position", lastPosition())).caches;
    } else {
      list = (await api("GET", "/api/caches")).caches;
    }
    showList(asked, list);
  } catch (error) {
    // With no network the list stays as it was (the banner says why), or is the one the
    // service worker kept, without distances.
    if (error.code !== "offline") toast(error.message);
    else if (!caches.length) api("GET", "/api/caches").then(kept => showList(asked, kept.caches), () => {});
  }
}

// A cache found since the last list that asks something of its finder opens its card.
let foundBefore = null;

function showList(asked, list) {
  if (asked < listShown) return;
  listShown = asked;
  caches = list;
  const newlyFound = foundBefore ? list.find(c => c.found && c.challenge && !foundBefore.has(c.id)) : null;
  foundBefore = new Set(list.filter(c => c.found).map(c => c.id));
  if (newlyFound) openChallenge(newlyFound);
  render();
  for (const listener of listeners) listener(caches);
}

function render() {
  const found = caches.filter(c => c.found).length;
  $("progress").textContent = t("app.caches.progress", { found, total: caches.length });
  replace($("cache-list"), ...caches.map(c => {
    const arrow = el("span", { class: "arrow", "aria-hidden": "true", "data-bearing": c.bearingDeg ?? "" }, c.bearingDeg === undefined ? "?" : "↑");
    const where = c.distanceM === undefined ? t("app.caches.noDistance") : `${metres(c.distanceM)} ${c.direction ?? ""}`;
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
        hint(c), challenge(c)),
      report);
  }));
  turnArrows();
}

// A found cache's question or photo task (the server says which, to its finders only).
function challenge(c) {
  if (!c.challenge) return null;
  const photo = c.challenge === "photo";
  return el("button", { type: "button", class: "small", "data-challenge": c.id,
    "aria-label": t(photo ? "app.challenge.openPhotoLabel" : "app.challenge.openLabel", { name: c.name }),
    onclick: () => openChallenge(c) }, t(photo ? "app.challenge.openPhoto" : "app.challenge.open"));
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
      render();
    } catch (error) { toast(error.message); }
  } }, t("app.hint.buy", { cost: c.hintCost }));
}

/// Turns the arrows: with a compass each points at its cache; without one it is drawn as on a
/// map (north up).
export function turnArrows() {
  for (const arrow of document.querySelectorAll(".arrow[data-bearing]")) {
    if (arrow.dataset.bearing === "") continue;
    const angle = Number(arrow.dataset.bearing) - (lastHeading() ?? 0);
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
    const body = { cache: reporting, kind: $("report-kind").value, text: $("report-text").value };
    const file = $("report-photo").files[0];
    if (file) body.photo = await base64(file);
    await api("POST", "/api/reports", body);
    $("report-form").classList.add("hidden");
    $("report-form").reset();
    toast(t("app.report.thanks"));
    refresh();
  } catch (error) { toast(error.message); }
});

// Where the player stands, watched while the app is open (for the list's distances, the map's
// own marker, and a claim's place when the phone gives no fresh fix), and which way the phone
// faces (the list's arrows point at the caches with a compass).
import { $ } from "../dom.js";
import { t } from "../words.js";
import { locate } from "../position.js";

let position = null, fixedAt = 0, heading = null, lost = false;

/// The last position watched (`{latitude, longitude, accuracy}`), or null, and null again once
/// the phone has lost its fix: the server is told where the player is only while the phone
/// knows (the game master's still-out list must not see an old fix as new).
export const lastPosition = () => lost ? null : position;

/// The last position watched even when the fix is lost since: where a claim from the camera
/// or a photo was most likely made (as ``here`` falls back to it).
export const lastKnownPosition = () => position;

/// The compass's heading in degrees from north, or null without a compass.
export const lastHeading = () => heading;

/// Watches the phone: `moved(position)` at each new fix, `turned(heading)` at each turn; `#where`
/// says how accurate the fix is, or why there is none.
export function watch({ moved, turned }) {
  if (!navigator.geolocation) { $("where").textContent = t("app.location.none"); return; }
  navigator.geolocation.watchPosition(p => {
    lost = false;
    fixedAt = Date.now();
    position = { latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy };
    $("where").textContent = t("app.location.accuracy", { accuracy: Math.round(p.coords.accuracy) });
    moved(position);
  }, e => { lost = true; $("where").textContent = t("app.location.off", { reason: e.message }); },
  { enableHighAccuracy: true, maximumAge: 3000 });
  const onTurn = e => {
    const compass = e.webkitCompassHeading ?? (e.absolute && e.alpha !== null ? 360 - e.alpha : null);
    if (compass !== null && compass !== undefined) { heading = compass; turned(heading); }
  };
  window.addEventListener("deviceorientationabsolute", onTurn);
  window.addEventListener("deviceorientation", onTurn);
}

/// How long a code's claim waits for a fresh fix before a recent watched one stands in for it.
const freshFixWait = 3000;
/// How old a watched fix may be to stand in for a fresh one.
const recentFix = 60000;

/// Where a code is read: a fresh fix, or, when the phone has given none within 3 s, the fix
/// watched within the last minute (a phone under a roof or with a cold GPS can take its full
/// 15 s to answer a fresh request, while the player who typed a code stares at the button);
/// with no recent fix, the fresh one is awaited, and if the phone gives none, the last one
/// watched.
export function here() {
  const fresh = locate();
  const recent = new Promise(resolve => setTimeout(() => {
    if (!lost && position && Date.now() - fixedAt < recentFix) resolve(position);
  }, freshFixWait));
  return Promise.race([fresh, recent]).catch(error => position ?? Promise.reject(error));
}

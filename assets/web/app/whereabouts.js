// Where the player stands, watched while the app is open (for the list's distances, the map's
// own marker, and a claim's place when the phone gives no fresh fix), and which way the phone
// faces (the list's arrows point at the caches with a compass).
import { $ } from "../dom.js";
import { t } from "../words.js";
import { locate } from "../position.js";

let position = null, heading = null, lost = false;

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

/// A fresh fix where a code is read; the last one watched if the phone gives none now.
export const here = () => locate().catch(error => position ?? Promise.reject(error));

// Where the phone is, in one high-accuracy fix: for a claim by link, by typed code or by camera.
import { t } from "./words.js";

/// `{latitude, longitude, accuracy}`; rejects with a sentence when the phone will not say.
export function locate() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new Error(t("app.location.none")));
    navigator.geolocation.getCurrentPosition(
      p => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
      e => reject(new Error(t("app.location.off", { reason: e.message }))),
      { enableHighAccuracy: true, timeout: 15000, maximumAge: 5000 });
  });
}

// The phone check a player runs at the briefing (/checkin.html): in about 30 seconds it tries
// everything the hunt will need (a secure page, a live camera frame, a location fix good
// enough to claim, offline play, keeping the screen awake), says in one line each what to fix,
// and tells the game master's control room how the phone did.
import { $ } from "./dom.js";
import { ready, t } from "./words.js";
import { api } from "./api.js";
import { token } from "./session.js";
import { register } from "./offline/worker.js";

const results = {};

function show(check, ok, detail) {
  results[check] = ok;
  const row = document.querySelector(`#checks li[data-check=${check}]`);
  row.dataset.ok = ok ? "yes" : "no";
  row.querySelector(".mark").textContent = ok ? "✓" : "✗";
  row.querySelector(".detail").textContent = detail;
}

// Each check resolves to [ok, one line]; none takes longer than its own limit.
function withTimeout(promise, ms, fallback) {
  return Promise.race([promise, new Promise(resolve => setTimeout(() => resolve(fallback), ms))]);
}

async function secure() {
  return window.isSecureContext ? [true, t("app.checkin.secureOk")] : [false, t("app.checkin.secureFix")];
}

async function camera() {
  if (!navigator.mediaDevices?.getUserMedia) return [false, t("app.checkin.cameraNone")];
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  } catch (error) {
    return [false, t(error.name === "NotAllowedError" ? "app.checkin.cameraDenied" : "app.checkin.cameraNone")];
  }
  const video = $("checkin-camera");
  video.srcObject = stream;
  video.classList.remove("hidden");
  try {
    await video.play();
    // A live frame: the video reports a size once a frame has arrived.
    const framed = await withTimeout(new Promise(resolve => {
      const look = () => (video.videoWidth > 0 ? resolve(true) : requestAnimationFrame(look));
      look();
    }), 8000, false);
    return framed ? [true, t("app.checkin.cameraOk", { width: video.videoWidth, height: video.videoHeight })]
                  : [false, t("app.checkin.cameraNoFrame")];
  } finally {
    setTimeout(() => { stream.getTracks().forEach(track => track.stop()); video.classList.add("hidden"); }, 1500);
  }
}

// Watches the position until its accuracy is good enough to claim (50 m), or 20 s pass.
function location() {
  if (!navigator.geolocation) return Promise.resolve([false, t("app.location.none"), null]);
  return new Promise(resolve => {
    let best = null, denied = false, done = false, watch = null;
    const finish = () => {
      if (done) return;
      done = true;
      if (watch !== null) navigator.geolocation.clearWatch(watch);
      if (denied) resolve([false, t("app.checkin.locationDenied"), null]);
      else if (best === null) resolve([false, t("app.checkin.locationNone"), null]);
      else if (best <= 50) resolve([true, t("app.checkin.locationOk", { accuracy: Math.round(best) }), best]);
      else resolve([false, t("app.checkin.locationPoor", { accuracy: Math.round(best) }), best]);
    };
    watch = navigator.geolocation.watchPosition(p => {
      best = Math.min(best ?? Infinity, p.coords.accuracy);
      if (best <= 20) finish();
    }, error => {
      if (error.code === error.PERMISSION_DENIED) { denied = true; finish(); }
    }, { enableHighAccuracy: true, maximumAge: 0, timeout: 20000 });
    setTimeout(finish, 20000);
  });
}

async function offline() {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return [false, t("app.checkin.offlineFix")];
  const registration = await withTimeout(navigator.serviceWorker.getRegistration("/"), 5000, null);
  const active = registration?.active
    || (await withTimeout(register().then(registration => registration && navigator.serviceWorker.ready), 8000, null))?.active;
  if (!active) return [false, t("app.checkin.offlineFix")];
  const storage = await navigator.storage?.estimate?.().catch(() => null);
  if (storage && storage.quota - storage.usage < 5 * 1024 * 1024) return [false, t("app.checkin.storageFull")];
  return [true, t("app.checkin.offlineOk")];
}

async function wakeLock() {
  if (!navigator.wakeLock) return [false, t("app.checkin.wakeLockNone")];
  try {
    const lock = await navigator.wakeLock.request("screen");
    await lock.release();
    return [true, t("app.checkin.wakeLockOk")];
  } catch {
    return [false, t("app.checkin.wakeLockNone")];
  }
}

async function run() {
  $("checkin-start").disabled = true;
  $("checkin-summary").textContent = t("app.checkin.running");
  for (const li of document.querySelectorAll("#checks li")) { li.dataset.ok = ""; li.querySelector(".mark").textContent = "…"; }
  const [s, c, l, o, w] = await Promise.all([secure(), camera(), location(), offline(), wakeLock()]);
  show("secure", ...s); show("camera", ...c); show("location", l[0], l[1]); show("offline", ...o); show("wakeLock", ...w);
  const passed = Object.values(results).every(Boolean);
  $("checkin-summary").textContent = t(passed ? "app.checkin.ready" : "app.checkin.notReady");
  $("checkin-start").disabled = false;
  $("checkin-start").textContent = t("app.checkin.again");
  if (token()) {
    await api("POST", "/api/me/readiness", {
      secure: results.secure, camera: results.camera, location: results.location, offline: results.offline,
      wakeLock: results.wakeLock, accuracy: l[2],
    }).catch(() => {});
  } else {
    $("checkin-summary").append(" ", t("app.checkin.joinToTell"));
  }
}

await ready;
$("checkin-start").addEventListener("click", run);

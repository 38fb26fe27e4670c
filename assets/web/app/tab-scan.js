// The Scan tab: the rear camera reads a cache's code (the phone itself where it can, sending
// only the code's text, which also works with no network; else frames go to the server), or a
// photo of it is sent; the typed-code form and the outbox panel sit below (app.js puts them in).
import { $, el } from "../dom.js";
import { api } from "../api.js";
import { t } from "../words.js";
import { renderOutcome, renderVerdict } from "../verdict.js";
import { claim } from "../offline/claims.js";
import { warm } from "../offline/worker.js";
import { refresh as refreshCaches } from "./tab-caches.js";
import { here, lastKnownPosition } from "./whereabouts.js";

let camera = null;

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
  camera = setInterval(async () => {
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
      const p = lastKnownPosition();
      const query = p ? `?latitude=${p.latitude}&longitude=${p.longitude}&accuracy=${p.accuracy}` : "";
      const result = await api("POST", "/api/claims/frame" + query, frame);
      if (result.verdict !== "no-code") {
        stopCamera();
        renderVerdict($("scan-result"), result);
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

async function claimScanned(text) {
  try { showOutcome(await claim({ code: text, method: "camera", ...(await here()) })); } catch (error) {
    $("scan-result").replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
  }
}

/// Shows a claim's verdict, or the notice that it is kept until the network returns.
export function showOutcome(outcome) {
  renderOutcome($("scan-result"), outcome);
  if (outcome.kept) return;
  refreshCaches();
  warm();   // the player's points and finds as the app will open with no network
}

function stopCamera() {
  if (camera) clearInterval(camera);
  camera = null;
  const video = $("camera");
  video.srcObject?.getTracks().forEach(track => track.stop());
  video.srcObject = null;
  video.classList.add("hidden");
  $("camera-start").classList.remove("hidden");
  $("camera-stop").classList.add("hidden");
  $("scan-status").textContent = "";
}

/// The player left the tab: the camera stops.
export const leave = stopCamera;

$("photo").addEventListener("change", async () => {
  const file = $("photo").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("photo", file);
  const p = lastKnownPosition();
  if (p) for (const k of ["latitude", "longitude", "accuracy"]) form.append(k, String(p[k]));
  $("scan-status").textContent = t("app.scan.reading");
  try {
    renderVerdict($("scan-result"), await api("POST", "/api/claims/photo", form));
    refreshCaches();
  } catch (error) { $("scan-result").replaceChildren(el("p", { class: "error" }, error.message)); }
  $("scan-status").textContent = "";
});

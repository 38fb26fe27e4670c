// The page a code's URL form opens (/C/GQ1.…): ask the browser where it is, then claim.
"use strict";
(async function () {
  const status = document.getElementById("claim-status");
  const result = document.getElementById("claim-result");
  const retry = document.getElementById("claim-retry");
  const code = decodeURIComponent(location.pathname.replace(/^\/[cC]\//, "")).toUpperCase();
  const { t } = GeoQR;
  await GeoQR.ready;

  async function claim() {
    retry.classList.add("hidden");
    if (!GeoQR.token()) {
      sessionStorage.setItem("geoqr.pendingClaim", location.pathname);
      status.textContent = t("app.claim.joinFirst");
      return;
    }
    try {
      status.textContent = t("app.claim.locating");
      const here = await GeoQR.locate();
      status.textContent = t("app.claim.claiming", { accuracy: Math.round(here.accuracy) });
      const verdict = await GeoQR.api("POST", "/api/claims", { code, method: "link", ...here });
      status.textContent = "";
      GeoQR.renderVerdict(result, verdict);
    } catch (error) {
      status.textContent = "";
      result.replaceChildren(GeoQR.el("p", { class: "error", role: "alert" }, error.message));
      retry.classList.remove("hidden");
    }
  }
  retry.addEventListener("click", claim);
  claim();
})();

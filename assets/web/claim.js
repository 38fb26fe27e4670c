// The page a code's URL form opens (/C/GQ1.…): ask the browser where it is, then claim. With
// no network the claim is kept on the phone and its verdict shown here when it is sent; when
// the code cannot be claimed, the player may type the short code printed under the QR.
"use strict";
(async function () {
  const $ = id => document.getElementById(id);
  const status = $("claim-status"), result = $("claim-result"), retry = $("claim-retry"), typed = $("typed-form");
  const code = decodeURIComponent(location.pathname.replace(/^\/[cC]\//, "")).toUpperCase();
  const { t, el } = GeoQR;
  // The claims this page kept: their verdicts replace the "kept" notice when they are sent.
  const mine = new Set();
  await GeoQR.ready;
  GeoQR.outbox.attach((entry, element) => {
    if (mine.has(entry.claimId)) result.replaceChildren(element); else $("outbox-sent").prepend(element);
  });

  function show(outcome) {
    status.textContent = "";
    if (outcome.kept) {
      mine.add(outcome.kept.claimId);
      result.replaceChildren(el("p", { class: "kept", role: "status", "data-kept": outcome.kept.claimId }, t("app.outbox.kept")));
      return;
    }
    GeoQR.renderVerdict(result, outcome.answer);
    // A damaged or misprinted QR: the code printed under it may still work.
    typed.classList.toggle("hidden", !outcome.answer.offerTypedCode);
  }

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
      show(await GeoQR.outbox.claim({ code, method: "link", ...here }));
    } catch (error) {
      status.textContent = "";
      result.replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
      retry.classList.remove("hidden");
      typed.classList.remove("hidden");
    }
  }
  GeoQR.outbox.typedForm(typed, { locate: GeoQR.locate, show });
  retry.addEventListener("click", claim);
  claim();
})();

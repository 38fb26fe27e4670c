// The page a code's URL form opens (/C/GQ1.…): ask the browser where it is, then claim. With
// no network the claim is kept on the phone and its verdict shown here when it is sent; when
// the code cannot be claimed, the player may type the short code printed under the QR.
import { $, el } from "./dom.js";
import { ready, t } from "./words.js";
import { token } from "./session.js";
import { locate } from "./position.js";
import { renderOutcome } from "./verdict.js";
import { typedCodeForm } from "./typed-code-form.js";
import { claim as claimOrKeep } from "./offline/claims.js";
import { outboxPanel } from "./offline/outbox-panel.js";

const status = $("claim-status"), result = $("claim-result"), retry = $("claim-retry"), typed = $("typed-form");
const code = decodeURIComponent(location.pathname.replace(/^\/[cC]\//, "")).toUpperCase();
await ready;
outboxPanel($("outbox-panel"), { heading: "h2" });
typedCodeForm(typed, { heading: "h2", locate, show });
retry.addEventListener("click", claim);
claim();

function show(outcome) {
  status.textContent = "";
  renderOutcome(result, outcome);
  // A damaged or misprinted QR: the code printed under it may still work.
  if (outcome.answer) typed.classList.toggle("hidden", !outcome.answer.offerTypedCode);
}

async function claim() {
  retry.classList.add("hidden");
  if (!token()) {
    sessionStorage.setItem("geoqr.pendingClaim", location.pathname);
    status.textContent = t("app.claim.joinFirst");
    return;
  }
  try {
    status.textContent = t("app.claim.locating");
    const here = await locate();
    status.textContent = t("app.claim.claiming", { accuracy: Math.round(here.accuracy) });
    show(await claimOrKeep({ code, method: "link", ...here }));
  } catch (error) {
    status.textContent = "";
    result.replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
    retry.classList.remove("hidden");
    typed.classList.remove("hidden");
  }
}

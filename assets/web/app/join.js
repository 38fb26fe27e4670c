// Joining the hunt (a name, a PIN, and a team where the hunt has teams), signing in again on
// another phone with the same name and PIN, and signing out.
import { $, el } from "../dom.js";
import { api } from "../api.js";
import { t } from "../words.js";
import * as session from "../session.js";
import { stateCache } from "../offline/outbox.js";

/// The team field: a list of the hunt's teams, or a free text where the hunt names none.
export function offerTeams(teams) {
  if (teams?.length) {
    $("team").replaceChildren(el("option", { value: "" }, t("app.join.noTeam")), ...teams.map(name => el("option", { value: name }, name)));
    $("team").classList.remove("hidden");
    $("team-text").remove();
  } else {
    $("team").remove();
    $("team-text").id = "team";
  }
}

/// What the hunt promises about positions and forgetting (`GET /api/hunt`'s
/// `positionRetentionHours`), under the form.
export function sayRetention(hours) {
  if (typeof hours !== "number") return;
  $("retention").textContent = hours > 0 ? t("app.join.retention", { hours: hours.toLocaleString(document.documentElement.lang || undefined) })
    : t("app.join.retentionNone");
}

/// Wires the join form and the sign-out button; `signedIn()` opens the app.
export function setUpJoin(signedIn) {
  async function enter(path) {
    $("join-error").textContent = "";
    const body = { name: $("name").value.trim(), pin: $("pin").value };
    const team = $("team")?.value.trim();
    if (path === "/api/join" && team) body.team = team;
    try {
      session.save(await api("POST", path, body));
      // A claim link opened before joining: back to it.
      const pending = sessionStorage.getItem("geoqr.pendingClaim");
      if (pending) { sessionStorage.removeItem("geoqr.pendingClaim"); location.href = pending; return; }
      signedIn();
    } catch (error) { $("join-error").textContent = error.message; }
  }
  $("join-form").addEventListener("submit", e => { e.preventDefault(); enter("/api/join"); });
  $("signin-button").addEventListener("click", () => {
    if ($("name").reportValidity() && $("pin").reportValidity()) enter("/api/signin");
  });
  $("sign-out").addEventListener("click", async () => {
    // The server ends the session too, so a copy of the token signs nobody in (offline: it
    // expires by itself 24 hours after its last use).
    await api("POST", "/api/signout").catch(() => {});
    session.forget();
    await window.caches?.delete(stateCache).catch(() => {});   // the next player must not see this one's
    location.reload();
  });
}

// A claim's outcome as the page shows it: the verdict the server gave (the message revealed on
// a find, or how far and which way to walk), or the notice that the claim is kept on the phone.
import { el } from "./dom.js";
import { metres, t } from "./words.js";

/// Shows the server's verdict (`POST /api/claims`'s answer) in `target`.
export function renderVerdict(target, result) {
  target.replaceChildren();
  const box = el("div", { class: "verdict " + result.verdict, role: "status", "data-verdict": result.verdict });
  box.append(el("p", { class: "sentence" }, el("strong", {}, result.sentence)));
  if (result.message) box.append(el("p", { class: "message", id: "revealed" }, result.message));
  if (result.verdict === "too-far" && result.distanceM !== undefined) {
    const arrow = el("span", { class: "arrow", "aria-hidden": "true" }, "↑");
    arrow.style.transform = `rotate(${result.bearingDeg}deg)`;
    box.append(el("p", { class: "walk" }, arrow, " " + t("app.verdict.walk",
      { distance: metres(result.distanceM), direction: result.direction ?? "", bearing: Math.round(result.bearingDeg) })));
  }
  if (result.points) box.append(el("p", {}, t(result.firstToFind ? "app.verdict.pointsFirst" : "app.verdict.points",
    { points: result.points })));
  target.append(box);
}

/// Shows a claim's outcome in `target`: `{answer}` (the verdict) or `{kept}` (the outbox entry,
/// whose verdict the outbox panel puts in the notice's place once it is sent).
export function renderOutcome(target, outcome) {
  if (outcome.kept) {
    target.replaceChildren(el("p", { class: "kept", role: "status", "data-kept": outcome.kept.claimId }, t("app.outbox.kept")));
  } else {
    renderVerdict(target, outcome.answer);
  }
}

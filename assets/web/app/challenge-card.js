// The challenge card of the Caches tab: a found cache's question (its choices as buttons, or a
// text field; its points, penalty and tries left; the result of each answer) or its photo task
// (a photo taken and sent, then waiting, approved with its points, or rejected with the game
// master's reason). An answer given with no network waits in the outbox (offline/answers.js)
// and shows here as waiting. Everything shown is the server's word, put in as text.
import { $, el, replace, toast } from "../dom.js";
import { api, base64 } from "../api.js";
import { lang, t } from "../words.js";
import * as answers from "../offline/answers.js";
import * as outbox from "../offline/outbox.js";

let open = null;       // the cache shown: {id, name, challenge}
let result = null;     // the last answer's outcome line, kept across a redraw
const host = () => $("challenge");

/// Shows `cache`'s question or photo task (`cache.challenge` is "question" or "photo").
export async function openChallenge(cache) {
  if (open?.id !== cache.id) result = null;
  open = cache;
  await refresh();
  host().scrollIntoView({ block: "nearest" });
}

/// Asks the server again for the card shown (after news, or when the outbox changed).
export async function refresh(cacheID) {
  if (!open || (cacheID && cacheID !== open.id)) return;
  const id = encodeURIComponent(open.id);
  try {
    if (open.challenge === "photo") showPhotoTask(await api("GET", `/api/caches/${id}/photo-task`));
    else showQuestion(await api("GET", `/api/caches/${id}/challenge`), await answers.waitingFor(open.id));
  } catch (error) { toast(error.message); }
}
outbox.onChange(() => { if (open?.challenge === "question") refresh(); });

function close() {
  open = null; result = null;
  host().classList.add("hidden");
  replace(host());
}

function card(titleKey, ...body) {
  host().classList.remove("hidden");
  replace(host(), el("h3", { id: "challenge-title" }, t(titleKey, { name: open.name })), ...body,
    el("p", {}, el("button", { type: "button", class: "secondary small", id: "challenge-close", onclick: close }, t("app.challenge.close"))));
}

// ---- a question ----
function showQuestion(q, waiting) {
  const rules = t(q.penalty ? "app.challenge.rules" : "app.challenge.rulesNoPenalty",
    { points: q.points, penalty: q.penalty, left: q.triesLeft, tries: q.tries });
  const state = q.solved ? el("p", { class: "result right", "data-state": "solved" }, t("app.challenge.solved"))
    : q.triesLeft <= 0 ? el("p", { class: "result wrong", "data-state": "closed" }, t("app.challenge.closed"))
    : waiting.length ? null : form(q);
  card("app.challenge.title",
    el("p", { class: "question" }, q.question),
    el("p", { class: "muted", id: "challenge-rules" }, rules),
    ...waiting.map(w => el("p", { class: "result waiting", "data-state": "waiting" },
      t("app.challenge.waiting", { answer: w.answer, time: new Date(w.scannedAt).toLocaleTimeString(lang) }))),
    result, state);
}

function form(q) {
  if (q.choices.length) {
    return el("div", { class: "choices", role: "group", "aria-label": t("app.challenge.choices") },
      ...q.choices.map(choice => el("button", { type: "button", class: "secondary", "data-choice": choice,
        onclick: () => send(choice) }, choice)));
  }
  const input = el("input", { id: "challenge-answer", maxlength: "100", autocomplete: "off", required: true });
  return el("form", { id: "challenge-form", onsubmit: e => { e.preventDefault(); send(input.value); } },
    el("label", { for: "challenge-answer" }, t("app.challenge.answer")), input,
    el("p", {}, el("button", { type: "submit" }, t("app.challenge.send"))));
}

async function send(text) {
  if (!text.trim()) return;
  try {
    const sent = await answers.answer(open.id, text);
    if (sent.answer) {
      const a = sent.answer;
      result = el("p", { class: "result " + (a.correct ? "right" : "wrong"), role: "status", "data-correct": String(a.correct) },
        a.correct ? t("app.challenge.right", { points: a.points }) : t("app.challenge.wrongSent", { points: a.points }));
    }
    await refresh();
  } catch (error) { toast(error.message); }
}

// ---- a photo task ----
function showPhotoTask(task) {
  const outcome = {
    pending: () => el("p", { class: "result waiting", "data-state": "pending" }, t("app.challenge.pending")),
    approved: () => el("p", { class: "result right", "data-state": "approved" }, t("app.challenge.approved", { points: task.pointsWon })),
    rejected: () => el("p", { class: "result wrong", "data-state": "rejected" }, t("app.challenge.rejected", { reason: task.reason ?? "" })),
  }[task.state]?.() ?? null;
  const canSend = task.state !== "approved" && task.state !== "pending" && task.photosLeft > 0;
  card("app.challenge.photoTitle",
    el("p", { class: "question" }, task.task),
    el("p", { class: "muted", id: "challenge-rules" }, task.state === "approved" ? t("app.challenge.photoPoints", { points: task.points })
      : t("app.challenge.photoRules", { points: task.points, left: task.photosLeft })),
    outcome,
    task.state === "rejected" ? el("p", {}, t(task.photosLeft ? "app.challenge.tryAgain" : "app.challenge.noPhotosLeft")) : null,
    canSend ? photoForm() : null);
}

function photoForm() {
  const input = el("input", { id: "challenge-photo", type: "file", accept: "image/*", capture: "environment" });
  return el("form", { id: "challenge-photo-form", onsubmit: async e => {
    e.preventDefault();
    const file = input.files[0];
    if (!file) { toast(t("app.challenge.choosePhoto")); return; }
    const button = e.target.querySelector("button");
    button.disabled = true;
    try {
      await api("POST", `/api/caches/${encodeURIComponent(open.id)}/photo`, { photo: await base64(file) });
      toast(t("app.challenge.photoSent"));
      await refresh();
    } catch (error) { toast(error.message); button.disabled = false; }
  } }, el("label", { for: "challenge-photo" }, t("app.challenge.photo")), input,
    el("p", {}, el("button", { type: "submit", id: "challenge-photo-send" }, t("app.challenge.sendPhoto"))));
}

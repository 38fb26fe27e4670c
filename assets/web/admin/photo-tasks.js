// The control room's photo tasks: the photos finders sent, waiting ones first (the photo, who
// sent it for which cache and task, when), each with Approve and Reject (a reason the player
// reads); the judged ones below with their outcome. Every state is the server's.
import { $, el, replace } from "../dom.js";
import { age, t } from "../words.js";

/// The Photo tasks section of the control room, asking the server with `api` (the admin's) and
/// fetching photos with `token`; `note` says what an act did, `fail` what went wrong.
///
///     const photoTasks = photoTaskRoom({ api, token, now: () => Date.now(), note, fail });
///     photoTasks.refresh();   // again on the stream's "photo-tasks" news
export function photoTaskRoom({ api, token, now, note, fail }) {
  let asked = 0, shown = 0;
  const photos = new Map();   // object URLs, fetched once per photo (the token goes in a header)

  async function refresh() {
    const mine = ++asked;
    try {
      const { photos: list } = await api("GET", "/api/admin/photo-tasks");
      if (mine < shown) return;
      shown = mine;
      render(list);
    } catch (error) { fail(error); }
  }

  async function judge(sent, verdict, body, done) {
    try { await api("POST", `/api/admin/photo-tasks/${sent.submission.id}/${verdict}`, body); note(done); } catch (error) { fail(error); }
    refresh();
  }

  function render(list) {
    const waiting = list.filter(p => p.submission.state === "pending");
    const judged = list.filter(p => p.submission.state !== "pending");
    replace($("photo-waiting"), ...waiting.map(p => el("li", { "data-submission": p.submission.id },
      picture(p), el("div", { class: "grow" }, facts(p), rejectForm(p)))));
    if (!waiting.length) $("photo-waiting").append(el("li", { class: "muted" }, t("app.gm.noPhotos")));
    replace($("photo-judged"), ...judged.map(p => el("li", { "data-submission": p.submission.id, "data-state": p.submission.state },
      picture(p), el("div", { class: "grow" }, facts(p), el("p", { class: p.submission.state === "approved" ? "found" : "error" },
        p.submission.state === "approved" ? t("app.gm.approved", { points: p.submission.points })
          : t("app.gm.rejectedBecause", { reason: p.submission.reason ?? "" }))))));
  }

  function facts(p) {
    return el("div", {}, el("strong", {}, t("app.gm.photoFor", { name: p.name, cache: `${p.cacheName} (${p.submission.cache})` })),
      el("div", {}, t("app.gm.photoTask", { task: p.task })),
      el("div", { class: "muted" }, `${p.submission.id} · ` + t("app.gm.photoSent", { age: age(p.submission.submitted, now()) })));
  }

  function rejectForm(p) {
    const id = `reject-${p.submission.id}`;
    const reason = el("input", { id, maxlength: "200", required: true, "data-reason": p.submission.id });
    return el("form", { class: "judge", onsubmit: e => {
      e.preventDefault();
      judge(p, "reject", { reason: reason.value }, t("app.gm.rejectedNote", { id: p.submission.id }));
    } },
      el("button", { type: "button", "data-approve": p.submission.id,
        onclick: () => judge(p, "approve", {}, t("app.gm.approvedNote", { id: p.submission.id })) }, t("app.gm.approve")),
      el("label", { for: id }, t("app.gm.rejectReason")), reason,
      el("button", { type: "submit", class: "secondary", "data-reject": p.submission.id }, t("app.gm.reject")));
  }

  function picture(p) {
    const id = p.submission.id;
    const img = el("img", { class: "task-photo", alt: t("app.gm.photoAlt", { name: p.name, cache: p.cacheName }), "data-photo": id });
    if (photos.has(id)) { img.src = photos.get(id); return img; }
    fetch(p.photoURL, { headers: { Authorization: "Bearer " + token } })
      .then(r => (r.ok ? r.blob() : null)).then(b => {
        if (!b) return;
        photos.set(id, URL.createObjectURL(b));
        document.querySelector(`img[data-photo="${id}"]`)?.setAttribute("src", photos.get(id));
      }, () => {});
    return img;
  }

  return { refresh };
}

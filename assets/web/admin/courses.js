// The control room's courses: a split table per course (rank, runner, status, time, a score
// course's points and penalty, then each control's split with its leg under it), the mass
// start of a course that has no start code, disqualifying a runner with a reason, and who is
// still out (last seen, where, overdue past the hunt's warning). Every figure is the server's.
import { $, el, replace } from "../dom.js";
import { age, duration, lang, t } from "../words.js";

/// The Courses section of the control room, asking the server with `api` (the admin's); `note`
/// says what an act did, `fail` what went wrong. Refreshes itself every 15 s.
///
///     const courses = courseRoom({ api, note: text => …, fail: error => … });
///     courses.refresh();
export function courseRoom({ api, note, fail }) {
  let asked = 0, shown = 0, timer = null;

  async function refresh() {
    timer ??= setInterval(refresh, 15000);
    const mine = ++asked;
    try {
      const [results, out] = await Promise.all([api("GET", "/api/admin/courses"), api("GET", "/api/admin/still-out")]);
      if (mine < shown) return;
      shown = mine;
      $("courses-section").classList.toggle("hidden", !results.courses.length);
      renderCourses(results);
      renderStillOut(out, results.courses);
    } catch (error) { if (error.status !== 404) fail(error); }   // 404: a server without courses
  }

  async function act(path, body, done) {
    try { await api("POST", path, body); note(done); } catch (error) { fail(error); }
    refresh();
  }

  function renderCourses({ board, courses }) {
    const cards = Object.fromEntries(courses.map(c => [c.id, c]));
    replace($("courses"), ...board.courses.map(results => {
      const card = cards[results.course];
      const score = results.kind === "score";
      const names = Object.fromEntries((card?.controls ?? []).map(c => [c.id, c.name]));
      const col = (text, cls) => el("th", { scope: "col", class: cls ?? "" }, ...[text].flat());
      const head = el("tr", {}, col("#"), col(t("app.course.name")), col(t("app.board.team")),
        col(t("app.course.statusHeading")), col(t("app.course.time")),
        ...(score ? ["app.course.points", "app.course.penalty", "app.course.score"].map(k => col(t(k), "number")) : []),
        ...results.controls.map(id => col([id, el("span", { class: "control-name" }, names[id] ?? "")], "split")),
        col(el("span", { class: "visually-hidden" }, t("app.gm.actions"))));
      const rows = results.lines.map(line => runnerRow(line, results, board, score));
      const title = "course-" + results.course;
      return el("section", { class: "course-results", "data-course": results.course, "aria-labelledby": title },
        el("h3", { id: title }, results.name, " ", el("span", { class: "muted" }, t("app.course.kind." + results.kind))),
        start(card, board),
        rows.length ? el("div", { class: "scroll" }, el("table", { class: "splits" }, el("thead", {}, head), el("tbody", {}, ...rows)))
          : el("p", { class: "muted" }, t("app.gm.noRunners")));
    }));
  }

  // A start code, the mass start's time, or the button that gives it.
  function start(card, board) {
    if (!card) return null;
    if (card.start) return el("p", {}, t("app.gm.startsAt", { id: card.start.id, name: card.start.name }));
    const given = card.massStart ?? board.massStarts[card.id];
    if (given) return el("p", { class: "mass-started", "data-started": given }, t("app.gm.massStarted",
      { time: new Date(given).toLocaleTimeString(lang) }));
    return el("p", {}, el("button", { type: "button", "data-mass-start": card.id, onclick: () => {
      if (confirm(t("app.gm.massStartAsk", { name: card.name }))) {
        act(`/api/admin/courses/${encodeURIComponent(card.id)}/start`, undefined, t("app.gm.massStartDone", { name: card.name }));
      }
    } }, t("app.gm.massStart")));
  }

  function runnerRow({ rank, run }, results, board, score) {
    const runner = board.runners[run.player] ?? { name: run.player };
    const splits = Object.fromEntries(run.splits.map(s => [s.control, s]));
    const time = run.elapsed !== undefined ? duration(run.elapsed)
      : run.status === "running" ? duration((Date.parse(board.time) - Date.parse(run.start)) / 1000) + " …" : "—";
    return el("tr", { "data-player": run.player, "data-status": run.status, class: "status-" + run.status },
      el("td", { "data-rank": rank ?? "" }, rank === undefined ? "" : String(rank)),
      el("th", { scope: "row" }, runner.name), el("td", {}, runner.team ?? ""),
      el("td", { class: "status" }, t("app.course.status." + run.status)),
      el("td", { class: "time", "data-elapsed": run.elapsed ?? "" }, time),
      ...(score ? [run.points, run.penalty ? "−" + run.penalty : "0", run.score].map((n, i) =>
        el("td", { class: "number", "data-field": ["points", "penalty", "score"][i] }, String(n))) : []),
      ...results.controls.map(id => {
        const s = splits[id];
        return el("td", { class: "split", "data-control": id, "data-time": s?.time ?? "" }, ...(s?.time === undefined ? ["—"]
          : [el("span", {}, duration(s.time)), el("span", { class: "leg" }, "+" + duration(s.leg ?? s.time))]));
      }),
      el("td", {}, run.status === "disqualified" ? null : el("button", { type: "button", class: "secondary small",
        "data-disqualify": run.player, "aria-label": t("app.gm.disqualifyLabel", { name: runner.name }), onclick: () => {
          const reason = prompt(t("app.gm.disqualifyAsk", { name: runner.name, course: results.name }));
          if (reason) act(`/api/admin/courses/${encodeURIComponent(results.course)}/disqualify`, { player: run.player, reason },
            t("app.gm.disqualifyDone", { name: runner.name }));
        } }, t("app.gm.disqualify"))));
  }

  function renderStillOut(out, courses) {
    const names = Object.fromEntries(courses.map(c => [c.id, c.name]));
    const now = Date.parse(out.now);
    $("still-out-note").textContent = t("app.gm.stillOutNote", { minutes: out.warningMinutes });
    replace($("still-out"), ...out.runners.map(r => el("tr", { "data-player": r.player, class: r.overdue ? "overdue" : "",
      "data-overdue": String(r.overdue) },
      el("th", { scope: "row" }, r.name + (r.team ? ` (${r.team})` : "")),
      el("td", {}, names[r.course] ?? r.course),
      el("td", {}, age(r.lastSeen, now), r.overdue ? el("strong", { class: "overdue-mark" }, " ⚠ " + t("app.gm.overdue")) : null),
      el("td", {}, r.latitude === undefined ? "—" : el("a", { href: osm(r.latitude, r.longitude), target: "_blank", rel: "noopener" },
        `${r.latitude.toFixed(5)}, ${r.longitude.toFixed(5)}`)))));
    if (!out.runners.length) $("still-out").append(el("tr", {}, el("td", { colspan: 4, class: "muted" }, t("app.gm.nobodyOut"))));
  }

  const osm = (lat, lon) => `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`;

  return { refresh };
}

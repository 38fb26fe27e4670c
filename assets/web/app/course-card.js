// The course card at the top of the Caches tab, for a hunt with courses: before a start, each
// course and how it starts (a start code to punch, or the game master's mass start); on a
// course, the running time (ticking from the server's clock, not the phone's), the next
// control of a line course or a score course's points and time left, and the splits punched;
// once finished, the status, time and score the server judged.
import { $, el, replace } from "../dom.js";
import { api } from "../api.js";
import { clockTime, duration, t } from "../words.js";

// The card's looks come with it (only a hunt with courses needs them), before it is first drawn.
await new Promise(done => document.head.append(
  el("link", { rel: "stylesheet", href: "/app/course-card.css", onload: done, onerror: done })));

let answer = null, skew = 0, timer = null;
const serverNow = () => Date.now() - skew;
const since = time => (serverNow() - Date.parse(time)) / 1000;

// Refreshes overlap (a find's news, the list after a claim): an older answer is dropped.
let asked = 0, shown = 0;

/// Asks the server for the player's courses and run, and shows them; with no network the card
/// stays as it was.
export async function refresh() {
  const mine = ++asked;
  let got;
  try { got = await api("GET", "/api/me/course"); } catch { return; }
  if (mine < shown) return;
  shown = mine;
  show(got);
}

/// Shows an answer of `GET /api/me/course`.
export function show(got) {
  // The server tells its time to the second, and the answer takes a while to come: each
  // answer's offset is late by up to a second, so the smallest kept is the closest (a clock
  // then never steps back), unless the phone's own clock was set meanwhile.
  const offset = Date.now() - Date.parse(got.now);
  skew = answer && Math.abs(offset - skew) < 5000 ? Math.min(skew, offset) : offset;
  answer = got;
  render();
}

function render() {
  const card = $("course");
  const courses = answer?.courses ?? [];
  card.classList.toggle("hidden", !courses.length);
  if (!courses.length) return;
  const run = answer.run, course = run && courses.find(c => c.id === run.course);
  replace(card, ...(course ? onCourse(course, run, answer.next) : beforeStart(courses)));
  tick();
  timer ??= setInterval(tick, 1000);
}

const control = c => `${c.id} ${c.name}`;
const facts = c => [t("app.course.kind." + c.kind), t("app.course.controls", { count: c.controls.length }),
  c.timeLimitSeconds ? t("app.course.limit", { minutes: Math.round(c.timeLimitSeconds / 60) }) : null,
  c.kind === "score" && c.penaltyPerMinute ? t("app.course.penaltyRule", { per: c.penaltyPerMinute }) : null].filter(Boolean).join(" · ");

// Which courses there are and how each starts; a mass start given runs the clock already.
function beforeStart(courses) {
  return [el("h2", { id: "course-title" }, t("app.course.courses")),
    el("ul", { class: "courses" }, ...courses.map(c => el("li", { "data-course": c.id },
      el("strong", {}, c.name), " ", el("span", { class: "muted" }, facts(c)),
      el("div", { class: "start" }, c.start ? t("app.course.startCode", { id: c.start.id, name: c.start.name })
        : c.massStart ? t("app.course.massGiven", { time: clockTime(c.massStart) }) : t("app.course.massWaiting")),
      !c.start && c.massStart ? clock(c.massStart) : null,
      el("div", { class: "muted" }, t("app.course.finishAt", { id: c.finish.id, name: c.finish.name })))))];
}

function clock(start) {
  return el("p", { class: "clock" }, el("span", {}, t("app.course.runningTime")), " ",
    el("strong", { role: "timer", "data-since": start, class: "course-clock" }, duration(since(start))));
}

function onCourse(course, run, next) {
  const names = Object.fromEntries(course.controls.map(c => [c.id, c]));
  const named = id => control(names[id] ?? { id, name: "" });
  return [el("h2", { id: "course-title" }, course.name), el("p", { class: "muted facts" }, facts(course)),
    ...(run.status === "running" ? running(course, run, next, named) : [finished(course, run)]),
    ...splits(run, named)];
}

// The clock, then a line course's next control, or a score course's points and time left.
function running(course, run, next, named) {
  const figure = (cls, label, value, attrs = {}) => el("p", { class: cls }, el("span", {}, label), " ", el("strong", attrs, value));
  if (course.kind === "line") {
    return [clock(run.start), next ? figure("next", t("app.course.next"), named(next), { "data-next": next })
      : el("p", { class: "next" }, t("app.course.toFinish", { id: course.finish.id, name: course.finish.name }))];
  }
  const parts = [clock(run.start), figure("tally", t("app.course.pointsSoFar"), String(run.points), { "data-points": run.points })];
  if (course.timeLimitSeconds) {
    const left = figure("left", t("app.course.timeLeft"), "", { "data-left": "" });
    Object.assign(left.dataset, { limit: course.timeLimitSeconds, start: run.start });
    parts.push(left, el("p", { class: "over warning hidden", "data-per": course.penaltyPerMinute }));
  }
  return parts;
}

// The status the server judged, the time, and a score course's score (points less penalty).
function finished(course, run) {
  const line = [el("strong", { class: "status", "data-status": run.status }, t("app.course.status." + run.status))];
  if (run.elapsed !== undefined) {
    line.push(" · ", t("app.course.time"), " ", el("strong", { "data-elapsed": run.elapsed }, duration(run.elapsed)));
  }
  if (course.kind === "score") {
    line.push(" · ", t("app.course.score"), " ", el("strong", { "data-score": run.score }, String(run.score)));
    if (run.penalty) line.push(` (${run.points} − ${run.penalty})`);
  }
  return el("p", { class: "result" }, ...line);
}

// The controls punched so far, in the order run, each with its time and leg.
function splits(run, named) {
  const punched = run.splits.filter(s => s.time !== undefined);
  return [el("h3", {}, t("app.course.splits")), punched.length
    ? el("ol", { class: "splits" }, ...punched.map(s => el("li", { "data-control": s.control },
        el("span", { class: "grow" }, named(s.control)), " ", el("strong", {}, duration(s.time)), " ",
        el("span", { class: "muted" }, t("app.course.leg", { time: duration(s.leg ?? s.time) })))))
    : el("p", { class: "muted" }, t("app.course.noSplits"))];
}

// Every second: the running times, and a score course's time left (or how far over, with
// the course's penalty rule).
function tick() {
  for (const node of document.querySelectorAll("#course [data-since]")) {
    node.textContent = duration(since(node.dataset.since));
  }
  const left = document.querySelector("#course .left");
  if (!left) return;
  const remaining = Number(left.dataset.limit) - since(left.dataset.start);
  const over = document.querySelector("#course .over");
  left.classList.toggle("hidden", remaining < 0);
  over.classList.toggle("hidden", remaining >= 0);
  if (remaining >= 0) left.querySelector("[data-left]").textContent = duration(remaining);
  else over.textContent = "⚠ " + t("app.course.overBy", { time: duration(-remaining), per: over.dataset.per });
}

// The big screen, for a projector: the standings, the teams, the latest finds and each course's
// results with its splits, one panel at a time, cycling by itself every 12 s and asking the
// server (`GET /api/board`) every 5 s. The board link's token comes in the #fragment, is kept
// for this tab only and taken out of the address bar (as the control room's token is). Space
// pauses the cycle; the arrow keys move through it.
import { $, el, replace } from "./dom.js";
import { age, duration, lang, ready, t } from "./words.js";
import { api } from "./api.js";

const fromLink = new URLSearchParams(location.hash.slice(1)).get("board");
if (fromLink) { sessionStorage.setItem("geoqr.board", fromLink); history.replaceState(null, "", location.pathname); }
const token = sessionStorage.getItem("geoqr.board");

const every = { ask: 5000, panel: 12000 };
// Rows a panel shows at once on a 1080-line screen; a longer list takes several panels.
const rows = { standings: 10, teams: 10, course: 10 };
let board = null, skew = 0, asked = 0, steps = [], current = null, paused = false, turn = null;
const serverNow = () => Date.now() - skew;

// ---- asking the server ----
async function ask() {
  const mine = ++asked;
  try {
    const answer = await api("GET", "/api/board", undefined, { token });
    if (mine !== asked) return;
    board = answer;
    skew = Date.now() - Date.parse(answer.time);
    $("stale").textContent = "";
    show();
  } catch (error) {
    if (error.status === 401 || error.status === 403) return refuse();
    if (board) $("stale").textContent = t("app.screen.stale", { time: new Date(board.time).toLocaleTimeString(lang) });
  }
}

function refuse() {
  board = null;
  $("board-error").textContent = t("app.screen.badLink");
  $("board-error").classList.remove("hidden");
  $("panel").classList.add("hidden");
  document.querySelector("footer").classList.add("hidden");
}

// ---- the panels: each a step of the cycle (a long list is several steps) ----
function plan(b) {
  const planned = [];
  const paged = (key, title, list, size, draw) => {
    const pages = Math.max(1, Math.ceil(list.length / size));
    for (let p = 0; p < pages; p++) {
      planned.push({ key: `${key}/${p}`, title, page: pages > 1 ? t("app.screen.page", { page: p + 1, pages }) : "",
        draw: () => draw(list.slice(p * size, (p + 1) * size)) });
    }
  };
  paged("standings", t("app.screen.standings"), b.standings, rows.standings * 2, standings);
  if (b.teams.length) paged("teams", t("app.screen.teams"), b.teams, rows.teams, teams);
  planned.push({ key: "latest", title: t("app.screen.latest"), page: "", draw: () => latest(b.latest) });
  for (const course of b.courses) {
    paged("course-" + course.id, course.name, course.lines, rows.course, lines => results(course, lines));
  }
  return planned;
}

function show() {
  steps = plan(board);
  let at = steps.findIndex(s => s.key === current);
  if (at < 0) at = 0;
  current = steps[at].key;
  $("board-error").classList.add("hidden");
  $("panel").classList.remove("hidden");
  document.querySelector("footer").classList.remove("hidden");
  $("hunt-name").textContent = board.hunt;
  document.title = board.hunt + " — GeoQR";
  $("facts").textContent = t("app.screen.players", { count: board.players }) + " · " +
    new Date(board.time).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  const step = steps[at];
  replace($("panel"), el("h2", { id: "panel-title" }, step.title, step.page ? el("span", { class: "page" }, step.page) : null),
    step.draw());
  $("panel").dataset.step = step.key;
  replace($("steps"), ...steps.map(s => el("li", { "aria-current": s.key === current ? "step" : null },
    el("span", { class: "visually-hidden" }, s.title + (s.page ? " " + s.page : "")))));
}

function move(by) {
  if (!board) return;
  const at = steps.findIndex(s => s.key === current);
  current = steps[(at + by + steps.length) % steps.length].key;
  show();
  restartBar();
}

function restartBar() {
  clearTimeout(turn);
  const bar = $("bar");
  bar.classList.remove("running");
  void bar.offsetWidth;   // the animation starts again from empty
  if (paused) return;
  bar.classList.add("running");
  turn = setTimeout(() => move(1), every.panel);
}

// ---- what each panel shows (text only: every name is the server's) ----
const table = (head, body, attrs = {}) => el("table", attrs,
  el("thead", {}, el("tr", {}, ...head.map(([text, cls]) => el("th", { scope: "col", class: cls ?? "" }, text)))),
  el("tbody", {}, ...body));
const who = (name, team) => [el("span", { class: "name" }, name), ...(team ? [" ", el("span", { class: "team" }, team)] : [])];

function standings(list) {
  if (!list.length) return el("p", { class: "empty" }, t("app.screen.noPlayers"));
  const half = [list.slice(0, rows.standings), list.slice(rows.standings)].filter(h => h.length);
  return el("div", { class: "columns" }, ...half.map(part => table(
    [["#", "rank"], [t("app.board.player")], [t("app.board.points"), "number"], [t("app.board.finds"), "number"]],
    part.map(s => el("tr", { class: s.rank <= 3 ? "top" : "" }, el("td", { class: "rank" }, String(s.rank)),
      el("td", {}, ...who(s.name, s.team)), el("td", { class: "number points" }, String(s.points)),
      el("td", { class: "number" }, String(s.finds)))))));
}

function teams(list) {
  return table([["#", "rank"], [t("app.board.team")], [t("app.board.points"), "number"], [t("app.board.finds"), "number"]],
    list.map(s => el("tr", {}, el("td", { class: "rank" }, String(s.rank)),
      el("td", {}, el("span", { class: "name" }, s.team), " ",
        el("span", { class: "team" }, t("app.screen.players", { count: s.players }))),
      el("td", { class: "number points" }, String(s.points)), el("td", { class: "number" }, String(s.finds)))));
}

function latest(list) {
  if (!list.length) return el("p", { class: "empty" }, t("app.screen.noFinds"));
  return el("ul", { class: "latest" }, ...list.map(f => el("li", {},
    el("span", { class: "when" }, age(f.time, serverNow())),
    el("span", { class: "what" }, ...who(f.name, f.team), " ", el("span", { class: "verb" }, t("app.screen.found")), " ",
      el("strong", {}, f.cache)),
    el("span", { class: "number points" }, "+" + f.points),
    f.firstToFind ? el("span", { class: "first" }, "★ " + t("app.screen.firstToFind")) : null)));
}

function results(course, lines) {
  if (!lines.length) return el("p", { class: "empty" }, t("app.screen.noRunners"));
  const score = course.kind === "score";
  const anyTeam = course.lines.some(l => l.team);
  // Up to ten controls show their splits; a longer course shows its results only.
  const controls = course.controls.length <= 10 ? course.controls : [];
  const head = [["#", "rank"], [t("app.course.name")], [t("app.course.statusHeading")], [t("app.course.time"), "number"],
    ...(score ? [[t("app.course.score"), "number"], [t("app.course.penalty"), "number"]] : []),
    ...controls.map(id => [id, "number split"])];
  return table(head, lines.map(line => {
    const splits = Object.fromEntries(line.splits.map(s => [s.control, s]));
    return el("tr", { class: "status-" + line.status, "data-status": line.status },
      el("td", { class: "rank" }, line.rank === undefined ? "" : String(line.rank)),
      el("td", {}, ...who(line.name, anyTeam ? line.team : null)),
      el("td", { class: "status" }, t("app.course.status." + line.status)),
      el("td", { class: "number" }, line.elapsed === undefined ? "—" : duration(line.elapsed)),
      ...(score ? [el("td", { class: "number points" }, String(line.score)),
        el("td", { class: "number" }, line.penalty ? "−" + line.penalty : "0")] : []),
      ...controls.map(id => el("td", { class: "number split" },
        splits[id]?.time === undefined ? "—" : duration(splits[id].time))));
  }), { class: "results" + (controls.length > 7 ? " many" : "") });
}

// ---- start ----
await ready;
if (!token) refuse();
else {
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = t(paused ? "app.screen.play" : "app.screen.pause");
    restartBar();
  });
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") move(1);
    else if (e.key === "ArrowLeft") move(-1);
    else if (e.key === " " && e.target === document.body) { e.preventDefault(); $("pause").click(); }
  });
  await ask();
  restartBar();
  setInterval(ask, every.ask);
  // Ages ("2 min ago") grow between answers.
  setInterval(() => { if (board && current === "latest") show(); }, 15000);
}

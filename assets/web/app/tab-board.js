// The Board tab: the leaderboard, of players or of teams, kept live by the hunt's stream; the
// header's line of the player's own points follows it.
import { $, el, replace } from "../dom.js";
import { api } from "../api.js";
import { t } from "../words.js";
import { player } from "../session.js";

let standings = [], teams = [], view = "players";

/// Asks for the leaderboard (players and teams) and shows it.
export async function refresh() {
  const board = await api("GET", "/api/leaderboard");
  standings = board.standings; teams = board.teams ?? [];
  render();
}

/// The players' standings the live stream sent: shown at once; the teams' view, open, is asked
/// again (the stream carries players only).
export function heard(list) {
  standings = list;
  if (view === "teams" && !$("tab-board").classList.contains("hidden")) refresh(); else render();
}

/// The header's line: the player's name and points.
export function showMe(name, points) { $("me").textContent = t("app.me", { name, points }); }

for (const [id, shown] of [["board-players", "players"], ["board-teams", "teams"]]) {
  $(id).addEventListener("click", () => { view = shown; refresh(); });
}

function render() {
  const me = player();
  const byTeam = view === "teams";
  $("board-players").setAttribute("aria-pressed", String(!byTeam));
  $("board-teams").setAttribute("aria-pressed", String(byTeam));
  $("board-who").textContent = t(byTeam ? "app.board.team" : "app.board.player");
  const rows = byTeam
    ? teams.map((s, i) => el("tr", { class: s.team === me?.team ? "me" : "", "data-team": s.team },
        el("td", {}, String(i + 1)), el("td", {}, t("app.board.teamLine", { team: s.team, players: s.players })),
        el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds))))
    : standings.map((s, i) => el("tr", { class: s.player === me?.id ? "me" : "", "data-player": s.player },
        el("td", {}, String(i + 1)), el("td", {}, s.name + (s.team ? ` (${s.team})` : "")),
        el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds))));
  replace($("board"), ...rows);
  if (byTeam && !rows.length) $("board").append(el("tr", {}, el("td", { colspan: 4 }, t("app.board.noTeams"))));
  const mine = standings.find(s => s.player === me?.id);
  if (mine) showMe(mine.name, mine.points);
}

// The Board tab: the top of the leaderboard and the player's own place, kept live by the hunt's
// stream (`standings`: the top ten and how many play, the same for every phone; `rank`: this
// player's place, who is just ahead and behind, and their team's place, when it changes). The whole leaderboard, and
// the teams', is a request away: the stream never carries it, so a phone's bytes do not grow
// with the number of players. The header's line of the player's own points follows `rank`.
import { $, el, replace } from "../dom.js";
import { api } from "../api.js";
import { t } from "../words.js";
import { player } from "../session.js";

let top = null, players = 0, mine = null, everyone = null, teams = [], view = "players";

/// The tab was opened: the live top when the stream has sent one, otherwise the whole
/// leaderboard asked for (the stream not open yet, or the phone offline: the service worker
/// answers with the last one).
export async function refresh() {
  if (view === "teams" || (top === null && everyone === null)) await fetchAll();
  render();
}

async function fetchAll() {
  const board = await api("GET", "/api/leaderboard");
  everyone = board.standings; teams = board.teams ?? [];
  players = everyone.length;
  if (top === null) top = everyone.slice(0, 10);
}

/// The top the live stream sent.
export function heard(standings) {
  top = standings.top; players = standings.players;
  if (!$("tab-board").classList.contains("hidden") && view === "players") render();
}

/// The player's own place the live stream sent.
export function heardRank(rank) {
  mine = rank;
  const me = player();
  if (me) showMe(me.name, rank.points);
  const team = $("board-team");
  team.classList.toggle("hidden", !rank.team);
  if (rank.team) team.textContent = t("app.board.myTeam", { team: rank.team.name, rank: rank.team.rank, teams: rank.team.teams, points: rank.team.points });
  if (!$("tab-board").classList.contains("hidden") && view === "players") render();
}

/// The header's line: the player's name and points.
export function showMe(name, points) { $("me").textContent = t("app.me", { name, points }); }

for (const [id, shown] of [["board-players", "players"], ["board-teams", "teams"]]) {
  $(id).addEventListener("click", () => { view = shown; if (shown === "players") everyone = null; refresh(); });
}
$("board-all").addEventListener("click", async () => {
  if (everyone) everyone = null; else await fetchAll();
  render();
});

function row(rank, s, me) {
  return el("tr", { class: s.player === me?.id ? "me" : "", "data-player": s.player },
    el("td", {}, String(rank)), el("td", {}, s.name + (s.team ? ` (${s.team})` : "")),
    el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds)));
}

function render() {
  const me = player();
  const byTeam = view === "teams";
  $("board-players").setAttribute("aria-pressed", String(!byTeam));
  $("board-teams").setAttribute("aria-pressed", String(byTeam));
  $("board-who").textContent = t(byTeam ? "app.board.team" : "app.board.player");
  let rows;
  if (byTeam) {
    // Each line's rank is the server's (players or teams level in points and finds share one,
    // as on the big screen); a leaderboard a phone kept from before its server told ranks has
    // none, and is numbered in its order.
    rows = teams.map((s, i) => el("tr", { class: s.team === me?.team ? "me" : "", "data-team": s.team },
      el("td", {}, String(s.rank ?? i + 1)), el("td", {}, t("app.board.teamLine", { team: s.team, players: s.players })),
      el("td", { class: "points" }, String(s.points)), el("td", {}, String(s.finds))));
  } else {
    const list = everyone ?? top ?? [];
    rows = list.map((s, i) => row(s.rank ?? i + 1, s, me));
    // Below the top: a gap, then the player's own line, from their rank. (A player level with
    // the tenth shares their rank but is not in the top: whether the line is in it says so.)
    if (!everyone && mine && me && !list.some(s => s.player === me.id)) {
      if (mine.rank > list.length + 1) rows.push(el("tr", { class: "gap" }, el("td", { colspan: 4 }, "…")));
      rows.push(row(mine.rank, { player: me.id, name: me.name, team: me.team, points: mine.points, finds: mine.finds }, me));
    }
  }
  replace($("board"), ...rows);
  if (byTeam && !rows.length) $("board").append(el("tr", {}, el("td", { colspan: 4 }, t("app.board.noTeams"))));
  const all = $("board-all");
  all.classList.toggle("hidden", byTeam || players <= (top?.length ?? 0));
  all.textContent = everyone ? t("app.board.showTop") : t("app.board.showAll", { count: players });
  const line = (everyone ?? top ?? []).find(s => s.player === me?.id);
  if (line && !mine) showMe(line.name, line.points);
}

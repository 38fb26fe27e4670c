// The player's app: join (with a team), then six tabs, each a module of app/ (the caches by
// distance with arrows, hints and reports, under the course card of a hunt with courses; the
// map; scanning; the collection; trades; the live leaderboard), the typed-code form and the
// outbox of claims kept while the phone has no network, and live news over the hunt's event
// stream. This module wires them.
import { $, toast } from "./dom.js";
import { metres, ready, t } from "./words.js";
import { api } from "./api.js";
import * as session from "./session.js";
import { hunt } from "./hunt.js";
import { listen } from "./stream.js";
import { typedCodeForm } from "./typed-code-form.js";
import { outboxPanel } from "./offline/outbox-panel.js";
import { warm } from "./offline/worker.js";
import { offerTeams, sayRetention, setUpJoin } from "./app/join.js";
import * as whereabouts from "./app/whereabouts.js";
import * as cachesTab from "./app/tab-caches.js";
import * as challengeCard from "./app/challenge-card.js";
import * as mapTab from "./app/tab-map.js";
import * as scanTab from "./app/tab-scan.js";
import * as collectionTab from "./app/tab-collection.js";
import * as tradesTab from "./app/tab-trades.js";
import * as boardTab from "./app/tab-board.js";

let tab = "caches", theHunt = null, stream = null;
await ready;

// The outbox panel sits in the Scan tab: a kept claim's answer, sent while the player is on
// another tab, is told in a toast, and the list and the state the worker keeps are read again.
const panel = outboxPanel($("outbox-panel"), { heading: "h3", banner: $("outbox-banner"), answered: () => {
  if (tab !== "scan") toast(t("app.outbox.answered"));
  if (session.token()) { cachesTab.refresh(); warm(); }
} });
$("outbox-banner").addEventListener("click", () => { show("scan"); $("outbox").scrollIntoView({ block: "nearest" }); });
typedCodeForm($("typed-form"), { heading: "h3", locate: whereabouts.here, show: scanTab.showOutcome });
cachesTab.onList(list => { mapTab.showCaches(list, theHunt?.trails); panel.nameCaches(list); foundNow(list); });

// The course card, for a hunt with courses: its module and words are fetched only then (the
// hunt's courses are fixed while it is served, so a hunt without is asked once).
const courseCard = {
  module: null, none: false,
  async refresh() {
    if (this.module) return this.module.refresh();
    if (this.none) return;
    let answer;
    try { answer = await api("GET", "/api/me/course"); } catch { return; }
    if (!answer.courses?.length) { this.none = true; return; }
    this.module ??= await import("./app/course-card.js");
    this.module.show(answer);
  },
};

// However a claim was made (a link, the camera, a typed code, the outbox), a new find shows in
// the list: the course card is asked again then.
let found = null;
function foundNow(list) {
  const count = list.filter(c => c.found).length;
  if (found !== null && count !== found) courseCard.refresh();
  found = count;
}

// ---- the hunt, and joining it ----
try {
  theHunt = await hunt();
  $("hunt-name").textContent = theHunt.name;
  document.title = theHunt.name + " — GeoQR";
  offerTeams(theHunt.teams);
  sayRetention(theHunt.positionRetentionHours);
} catch (error) { toast(error.message); }
setUpJoin(start);

async function start() {
  let me;
  try { me = await api("GET", "/api/me"); } catch (error) {
    if (error.status === 401) { session.forget(); return; }
    throw error;
  }
  $("join").classList.add("hidden");
  $("app").classList.remove("hidden");
  boardTab.showMe(me.player.name, me.points);
  warm();
  listenToNews();
  whereabouts.watch({ moved: position => { cachesTab.moved(); mapTab.showMe(position); }, turned: cachesTab.turnArrows });
  cachesTab.refresh();
  courseCard.refresh();
  show(tab);
}

// ---- tabs; on a wide screen the map stays beside the list ----
const wide = window.matchMedia("(min-width: 60rem)");
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => show(button.dataset.tab));
}
wide.addEventListener("change", () => show(tab));
function show(next) {
  tab = next;
  for (const b of document.querySelectorAll("nav button")) {
    if (b.dataset.tab === tab) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
  }
  const beside = wide.matches && (tab === "caches" || tab === "map");
  for (const s of document.querySelectorAll("[id^=tab-]")) {
    s.classList.toggle("hidden", !(s.id === "tab-" + tab || (beside && (s.id === "tab-caches" || s.id === "tab-map"))));
  }
  if (tab !== "scan") scanTab.leave();
  if (tab === "map" || beside) mapTab.open();
  ({ caches: cachesTab.refresh, collection: collectionTab.refresh, trades: tradesTab.refresh, board: boardTab.refresh })[tab]?.();
}

// ---- live news ----
function listenToNews() {
  stream?.stop();
  // The player's stream takes the token in its query (the server reads it there for this stream).
  const token = session.token();
  stream = listen("/api/live?token=" + encodeURIComponent(token), { token, news: {
    standings: boardTab.heard,
    rank: boardTab.heardRank,
    // This player's own find, made elsewhere (another tab, the outbox): the list, then the course card.
    find: f => { if (f.player === session.player()?.id) cachesTab.refresh(); },
    // Everyone's finds, a digest at most twice a second: one toast for the latest made by
    // someone else, with how many there were.
    finds: d => {
      const me = session.player()?.id;
      const others = d.finds.filter(f => f.player !== me);
      const latest = others[others.length - 1];
      if (!latest) return;
      const count = d.count - (d.finds.length - others.length);
      toast(count > 1 ? t("app.news.foundMany", { name: latest.name, cache: latest.cacheName, count })
                      : t("app.news.found", { name: latest.name, cache: latest.cacheName }));
    },
    course: () => courseCard.refresh(),   // a mass start, or this runner disqualified
    "photo-task": p => { toast(t("app.news.photoJudged", { cache: p.cache })); challengeCard.refresh(p.cache); },
    "trade-offer": offer => { toast(t("app.news.tradeOffered", { id: offer.id })); tradesTab.refreshIfOpen(); },
    "trade-outcome": trade => {
      toast(t("app.news.tradeOutcome", { id: trade.id, state: t("app.trades.state." + trade.state) }));
      tradesTab.refreshIfOpen();
    },
    broadcast: b => {
      const text = b.running === undefined ? b.message : t(b.running ? "app.news.started" : "app.news.stopped");
      $("broadcast").textContent = t("app.news.broadcast", { message: text });
      $("broadcast").classList.remove("hidden");
      if (b.running !== undefined) courseCard.refresh();   // a stopped hunt ends every course
    },
    // The server would not replay what a long absence missed: load the state afresh.
    "fresh-state": () => { cachesTab.refresh(); courseCard.refresh(); show(tab); },
    proximity: p => toast(t("app.news.near", { distance: metres(p.distanceM), name: p.name })),
  } });
}

if (session.token()) start();

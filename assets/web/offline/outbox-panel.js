// The outbox panel of the app's Scan tab and of the claim page: the claims waiting on this
// phone (and, in the app, a banner on every tab that says how many), a button to send them
// now, and each sent claim's answer, shown once: in place of the "kept" notice the page showed
// for it, else at the top of the answers. It sends what is waiting when the network returns
// (the `online` event), when the page opens and every half minute, besides Background Sync.
import { el, replace, toast } from "../dom.js";
import { lang, t } from "../words.js";
import { renderVerdict } from "../verdict.js";
import { cacheOf, learnCodePatterns } from "../codes.js";
import * as outbox from "./outbox.js";
import { controls, register, sendNow } from "./worker.js";

/// Fills `host` (an empty element where the page shows the outbox) with the panel, its title a
/// heading of level `heading` ("h2", "h3"), and starts sending. `banner` is the app's banner
/// button (or null); `answered(entry)` hears of each sent claim once it is shown.
/// Returns `{nameCaches(caches)}`: cache names to show beside the ids the codes name.
export function outboxPanel(host, { heading, banner = null, answered = () => {} }) {
  const count = el("span", { id: "outbox-count" });
  const notice = el("p", { id: "outbox-notice", class: "notice hidden", role: "note" }, t("app.outbox.needsWorker"));
  const list = el("ul", { id: "outbox-list", class: "list" });
  const send = el("button", { type: "button", id: "outbox-send", class: "secondary", onclick: async () => {
    if (await sendAndShow()) toast(t("app.outbox.stillWaiting"));
  } }, t("app.outbox.sendNow"));
  const panel = el("section", { id: "outbox", class: "outbox hidden", "aria-labelledby": "outbox-title" },
    el(heading, { id: "outbox-title" }, el("span", {}, t("app.outbox.title")), " ", count), notice, list, send);
  const sent = el("div", { id: "outbox-sent", "aria-live": "polite" });
  host.replaceChildren(panel, sent);

  const names = {};
  const cacheName = code => {
    const id = cacheOf(code);
    return names[id] ? `${names[id]} (${id})` : id;
  };
  const clock = time => new Date(time).toLocaleTimeString(lang);

  function waitingItem(entry) {
    if (entry.kind === "answer") {
      return el("li", { "data-claim": entry.claimId, "data-answer": entry.cache }, el("div", { class: "grow" },
        el("strong", {}, names[entry.cache] ? `${names[entry.cache]} (${entry.cache})` : entry.cache),
        el("div", { class: "muted" }, t("app.outbox.answerItem", { answer: entry.answer, time: clock(entry.scannedAt) }))));
    }
    return el("li", { "data-claim": entry.claimId, "data-method": entry.method }, el("div", { class: "grow" },
      el("strong", {}, cacheName(entry.code)),
      el("div", { class: "muted" }, t("app.outbox.item", { method: t("app.gm.method." + entry.method),
        time: clock(entry.scannedAt), accuracy: Math.round(entry.accuracy ?? 0) }))));
  }

  /// A sent claim: which cache and when it was scanned, how late it arrived, then its verdict
  /// (or the server's sentence when it refused it).
  function answerElement(entry) {
    if (entry.kind === "answer") return answerToQuestion(entry);
    const late = entry.answer?.lateSeconds;
    const item = el("div", { class: "sent", "data-claim": entry.claimId, "data-late": late ?? "" },
      el("p", { class: "muted" }, t("app.outbox.sentLine", { cache: cacheName(entry.code), time: clock(entry.scannedAt) })
        + (late ? " · " + t("app.outbox.late", { minutes: Math.max(1, Math.round(late / 60)) }) : "")));
    if (entry.answer) {
      const verdict = el("div");
      renderVerdict(verdict, entry.answer);
      item.append(...verdict.childNodes);
    } else {
      item.append(el("p", { class: "error", role: "alert", "data-error": entry.refusal.error }, entry.refusal.message));
    }
    return item;
  }

  /// A sent answer to a station's question: right (+points) or wrong, or the server's refusal.
  function answerToQuestion(entry) {
    const cache = names[entry.cache] ? `${names[entry.cache]} (${entry.cache})` : entry.cache;
    const a = entry.answer;
    const outcome = a ? el("p", { class: a.correct ? "found" : "error", "data-correct": String(a.correct) },
      a.correct ? t("app.challenge.right", { points: a.points })
        : t("app.challenge.wrongSent", { points: a.points }))
      : el("p", { class: "error", role: "alert", "data-error": entry.refusal.error }, entry.refusal.message);
    return el("div", { class: "sent", "data-claim": entry.claimId, "data-answer": entry.cache },
      el("p", { class: "muted" }, t("app.outbox.answerLine", { cache, time: clock(entry.scannedAt) })), outcome);
  }

  function showAnswer(entry) {
    const element = answerElement(entry);
    const kept = document.querySelector(`[data-kept="${CSS.escape(entry.claimId)}"]`);
    if (kept) kept.parentElement.replaceChildren(element); else sent.prepend(element);
    answered(entry);
  }

  // Answers wait for the code patterns (or for the hunt to fail to answer), so each names its
  // cache when it is shown, the only time it is.
  let patternsAsked = false;
  learnCodePatterns().finally(() => { patternsAsked = true; refresh(); });

  // Renders one after another: changes come from this page, other pages and the worker.
  let queue = Promise.resolve();
  function refresh() { queue = queue.then(render, render); return queue; }
  async function render() {
    const [waiting, answers] = await Promise.all([outbox.waiting(), patternsAsked ? outbox.answered() : []]);
    const offline = navigator.onLine === false;
    const n = waiting.length;
    if (banner) {
      banner.textContent = n ? t(n === 1 ? "app.outbox.waitingOne" : "app.outbox.waitingMany", { count: n })
        : offline ? t("app.outbox.offline") : "";
      banner.closest(".banner").classList.toggle("hidden", !n && !offline);
    }
    panel.classList.toggle("hidden", !n);
    count.textContent = n ? `(${n})` : "";
    notice.classList.toggle("hidden", !n || controls());
    replace(list, ...waiting.map(waitingItem));
    answers.forEach(showAnswer);
    await outbox.forget(answers.map(e => e.claimId));
  }

  const sendAndShow = () => sendNow().finally(refresh);
  register();
  navigator.serviceWorker?.addEventListener("controllerchange", refresh);
  outbox.onChange(refresh);
  window.addEventListener("online", sendAndShow);
  window.addEventListener("offline", refresh);
  setInterval(async () => { if ((await outbox.waiting()).length) sendAndShow(); }, 30000);
  refresh();
  sendAndShow();

  return {
    /// Names the caches of `caches` (`[{id, name}]`, the app's list) in the panel.
    nameCaches(caches) {
      for (const c of caches) names[c.id] = c.name;
      refresh();
    },
  };
}

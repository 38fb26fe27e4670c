// The Trades tab: offer cards to another player for some of theirs, and answer the offers
// made to the player (accept, decline) or cancel one's own.
import { $, el, replace, toast } from "../dom.js";
import { api } from "../api.js";
import { t } from "../words.js";
import { player } from "../session.js";

/// Asks for the players, the player's cards and the trades, and shows them.
export async function refresh() {
  const me = player();
  const [players, mine, trades] = await Promise.all([api("GET", "/api/players"), api("GET", "/api/me/collection"), api("GET", "/api/trades")]);
  const select = $("trade-to");
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "" }, t("app.trades.choose")),
    ...players.players.filter(p => p.id !== me.id).map(p => el("option", { value: p.id }, p.name)));
  select.value = chosen;
  $("trade-give").replaceChildren(...mine.cards.map(c => checkbox("give", c.id, c.cacheName)));
  await refreshWanted();
  const line = (tr, actions) => el("li", { "data-trade": tr.id, "data-state": tr.state }, el("div", { class: "grow" },
    el("strong", {}, `${tr.id}: ${t("app.trades.state." + tr.state)}`),
    el("div", { class: "muted" }, t("app.trades.terms", { give: tr.give.join(", ") || "—", receive: tr.receive.join(", ") || "—" }))),
    ...(tr.state === "open" ? actions : []));
  replace($("trades-in"), ...trades.incoming.map(tr => line(tr, [
    el("button", { type: "button", onclick: () => answer(tr.id, "accept") }, t("app.trades.accept")),
    el("button", { type: "button", class: "secondary", onclick: () => answer(tr.id, "decline") }, t("app.trades.decline"))])));
  replace($("trades-out"), ...trades.outgoing.map(tr => line(tr, [
    el("button", { type: "button", class: "secondary", onclick: () => answer(tr.id, "cancel") }, t("app.cancel"))])));
}

/// Shows the trades again when the tab is open (news of an offer or an answer arrived).
export function refreshIfOpen() { if (!$("tab-trades").classList.contains("hidden")) refresh(); }

function checkbox(group, id, label) {
  const input = el("input", { type: "checkbox", name: group, value: id, id: `${group}-${id}`, class: "check" });
  return el("label", { for: `${group}-${id}` }, input, ` ${label} (${id})`);
}

// The other player's cards and trackables, to ask for.
async function refreshWanted() {
  const other = $("trade-to").value;
  if (!other) { $("trade-receive").replaceChildren(); return; }
  const items = await api("GET", `/api/players/${encodeURIComponent(other)}/items`);
  $("trade-receive").replaceChildren(...items.items.map(i => checkbox("receive", i.id, i.name)));
}

async function answer(id, verb) {
  try { await api("POST", `/api/trades/${id}/${verb}`); } catch (error) { toast(error.message); }
  refresh();
}

$("trade-to").addEventListener("change", refreshWanted);
$("trade-form").addEventListener("submit", async e => {
  e.preventDefault();
  $("trade-error").textContent = "";
  const picked = name => [...document.querySelectorAll(`input[name=${name}]:checked`)].map(i => i.value);
  try {
    await api("POST", "/api/trades", { to: $("trade-to").value, give: picked("give"), receive: picked("receive") });
    toast(t("app.trades.sent"));
    refresh();
  } catch (error) { $("trade-error").textContent = error.message; }
});

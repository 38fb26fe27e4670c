// The Collection tab: the cards of the caches the player found (each with the message it
// revealed, when and where), and the trackables the player carries.
import { $, el } from "../dom.js";
import { api } from "../api.js";
import { lang, t } from "../words.js";

/// Asks for the cards and the trackables and shows them.
export async function refresh() {
  const [cards, carried] = await Promise.all([api("GET", "/api/me/collection"), api("GET", "/api/me/trackables")]);
  $("card-list").replaceChildren(...cards.cards.map(c => el("li", { "data-card": c.id }, el("div", { class: "grow" },
    el("strong", {}, c.cacheName), el("p", { class: "message" }, c.message),
    el("div", { class: "muted" }, new Date(c.foundAt).toLocaleString(lang) +
      (c.foundLatitude !== undefined ? ` · ${c.foundLatitude.toFixed(5)}, ${c.foundLongitude.toFixed(5)}` : "") + ` · ${c.id}`)))));
  if (!cards.cards.length) $("card-list").append(el("li", {}, t("app.collection.empty")));
  $("trackable-list").replaceChildren(...carried.trackables.map(tr => el("li", {}, `${tr.name} (${tr.id})`)));
}

// The words of the chosen language (English or Portuguese: the page's switch, else the
// browser's languages), put into the page's `data-i18n` elements, and the numbers and ages
// written as that language writes them.
import { $, el } from "./dom.js";

const languages = { en: "English", pt: "Português" };

/// The language the pages speak: "en" or "pt".
export const lang = (() => {
  const chosen = localStorage.getItem("geoqr.lang");
  if (chosen === "en" || chosen === "pt") return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "pt" || base === "en") return base;
  }
  return "en";
})();

let words = {};

/// The catalogue's sentence for `key`, with `{name}` placeholders filled from `vars`:
/// `t("app.me", { name, points })`.
export function t(key, vars = {}) {
  const template = words[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (vars[name] ?? `{${name}}`));
}

/// Puts the catalogue's words into every element that names a key: `data-i18n` (text),
/// `data-i18n-label` (aria-label), `data-i18n-title` (the page title).
function translate(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  const title = document.querySelector("title[data-i18n-title]");
  if (title) document.title = t(title.dataset.i18nTitle);
}

/// The language switch in a page's header: remembers the choice and reloads in it.
function languageSwitch(select) {
  if (!select) return;
  select.replaceChildren(...Object.entries(languages).map(([code, name]) => el("option", { value: code, lang: code }, name)));
  select.value = lang;
  select.addEventListener("change", () => { localStorage.setItem("geoqr.lang", select.value); location.reload(); });
}

/// Resolves once the chosen language's words are in and the page is translated: a page
/// awaits it before it writes a word.
export const ready = fetch(`/i18n/${lang}.json`)
  .then(r => (r.ok ? r.json() : {}))
  .catch(() => ({}))
  .then(catalogue => { words = catalogue; translate(); languageSwitch($("lang")); });

/// A distance: "40 m", "1.2 km" ("1,2 km" in Portuguese).
export function metres(m) {
  const n = m >= 1000 ? (m / 1000).toFixed(1) : String(Math.round(m));
  return (lang === "pt" ? n.replace(".", ",") : n) + (m >= 1000 ? " km" : " m");
}

/// "2 min ago", from a time and the server's clock.
export function age(time, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - new Date(time).getTime()) / 1000));
  if (seconds < 60) return t("app.age.seconds", { n: seconds });
  if (seconds < 3600) return t("app.age.minutes", { n: Math.round(seconds / 60) });
  return t("app.age.hours", { n: (seconds / 3600).toFixed(1) });
}

/// A running or finished time: "4:05", "1:02:09" (seconds, rounded down).
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const two = n => String(n).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${Math.floor(s / 60)}:${two(s % 60)}`;
}

/// A time of day, as the language writes it: "10:02".
export const clockTime = time => new Date(time).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });

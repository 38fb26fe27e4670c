// "Can't scan? Type the code under the QR": the form of the app's Scan tab and of the claim
// page. The code goes to the server as typed (it reads any case, and spaces for hyphens); with
// no network the claim is kept in the outbox; a refusal is the server's sentence in the form.
import { el } from "./dom.js";
import { t } from "./words.js";
import { claim } from "./offline/claims.js";

/// Fills `form` (an empty `<form id="typed-form">` where the page shows it) with the typed-code
/// form: a heading of level `heading` ("h2", "h3"), the field and its button. `locate()` says
/// where the phone is; `show(outcome)` gets `{answer}` or `{kept}`.
export function typedCodeForm(form, { heading, locate, show }) {
  const input = el("input", { id: "typed-code", name: "code", autocapitalize: "characters", inputmode: "text", autocomplete: "off",
    autocorrect: "off", spellcheck: "false", maxlength: "40", required: true });
  const button = el("button", { type: "submit" }, t("app.typed.send"));
  const error = el("p", { id: "typed-error", class: "error", role: "alert" });
  form.classList.add("typed");
  form.setAttribute("aria-labelledby", "typed-title");
  form.replaceChildren(el(heading, { id: "typed-title" }, t("app.typed.title")),
    el("label", { for: "typed-code" }, t("app.typed.label")), input, button, error);
  form.addEventListener("submit", async event => {
    event.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      const here = await locate();
      const outcome = await claim({ code: input.value.trim(), method: "typed", ...here });
      input.value = "";
      show(outcome);
    } catch (problem) { error.textContent = problem.message; }
    finally { button.disabled = false; }
  });
}

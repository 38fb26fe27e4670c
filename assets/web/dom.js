// The page's elements: found by id, made from a tag, attributes and children (a child string
// is text, never markup), a list replaced without losing the keyboard focus, and the toasts
// that come and go.

/// The element whose id is `id`, or null: `$("typed-code").value`.
export const $ = id => document.getElementById(id);

/// A new element: `el("li", { "data-cache": c.id, onclick: open }, el("strong", {}, c.name), " ✓")`.
/// An `on…` attribute is an event listener; `true` is an empty attribute; false, null and
/// undefined leave it out.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/// Replaces `container`'s children with `children`, unless they would read the same. The
/// element that had the keyboard focus keeps it, and a field keeps what was typed in it (each
/// found again by its tag and data- attributes), so live updates never throw a keyboard user
/// back to the top of the page nor wipe a reason half written.
export function replace(container, ...children) {
  const next = el("div", {}, ...children);
  if (next.innerHTML === container.innerHTML) return;
  const active = container.contains(document.activeElement) ? document.activeElement : null;
  const typed = [...container.querySelectorAll("input, textarea")]
    .filter(f => f.value !== f.defaultValue && identity(f)).map(f => [identity(f), f.value]);
  const focus = active && identity(active);
  const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  container.replaceChildren(...next.childNodes);
  for (const [selector, value] of typed) {
    const field = container.querySelector(selector);
    if (field) field.value = value;
  }
  const again = focus && container.querySelector(focus);
  if (again) {
    again.focus();
    if (caret && caret[0] !== null) try { again.setSelectionRange(...caret); } catch { /* a field without a caret */ }
  }
}

/// A selector finding `node` again in a list made anew: its tag and its data- attributes, or
/// null when it has none.
function identity(node) {
  const data = [...node.attributes].filter(a => a.name.startsWith("data-"))
    .map(a => `[${a.name}="${CSS.escape(a.value)}"]`).join("");
  return data ? node.tagName.toLowerCase() + data : null;
}

/// A line of news in the page's `#toasts` for six seconds.
export function toast(text) {
  const area = $("toasts");
  if (!area) return;
  const line = el("div", { class: "toast", role: "status" }, text);
  area.append(line);
  setTimeout(() => line.remove(), 6000);
}

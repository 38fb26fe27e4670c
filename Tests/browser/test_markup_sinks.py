"""A static guard over assets/web/**/*.js (every module, in every folder): no script hands a
string it did not write itself to a place where the browser or Leaflet reads HTML (issue 24,
section 4), so the next change cannot bring a player's name back into markup unnoticed. test_markup.py checks the pages themselves.

Refused, unless the value is a constant literal ("", "…" with no `${}`):
  `x.innerHTML = v`, `+=`, `outerHTML = v`, `insertAdjacentHTML(…, v)`, `document.write(v)`,
  `createContextualFragment(v)`, `setHTMLUnsafe(v)`, `parseFromString(v, …)`, `srcdoc`, and
  Leaflet's HTML-taking calls `bindTooltip(v)`, `bindPopup(v)`, `setContent(v)`,
  `setTooltipContent(v)`, `setPopupContent(v)`, `addAttribution(v)`, `setPrefix(v)`,
  `L.tooltip/L.popup({content: v})` and a layer's `attribution: v` option.
Leaflet's calls also take `tip(text)`, map.js's (the text in a span, a DOM node), in map.js or in
a module that imports it from map.js (`import { tip } from "./map.js"`, under its name or an alias).
Reading `innerHTML` (as dom.js's `replace` compares two lists) is allowed.
Runs its own rules over known good and bad lines first, so a guard that stopped matching fails.
Prints 'N passed, N failed' and exits non-zero on any finding.
"""
import glob, os, re, sys

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "web")

# Calls whose first argument (or, for insertAdjacentHTML, second) Leaflet or the DOM parses as HTML.
CALLS = {"bindTooltip": 0, "bindPopup": 0, "setContent": 0, "setTooltipContent": 0, "setPopupContent": 0,
         "addAttribution": 0, "setPrefix": 0, "insertAdjacentHTML": 1, "write": 0, "writeln": 0,
         "createContextualFragment": 0, "setHTMLUnsafe": 0, "parseFromString": 0}
ASSIGNED = re.compile(r"\.(innerHTML|outerHTML|srcdoc)\s*(\+?=)(?!=)")
OPTIONS = re.compile(r"\b(attribution|content)\s*:")


def tip_names(code):
    """The names under which `code` holds map.js's `tip`: its own (map.js defines it) or imported."""
    names = {"tip"} if re.search(r"^export\s+(?:const|function)\s+tip\b", code, re.M) else set()
    for imported in re.findall(r"import\s*\{([^}]*)\}\s*from\s*[\"'](?:\.{1,2}/)+map\.js[\"']", code):
        for part in imported.split(","):
            found = re.fullmatch(r"\s*tip(?:\s+as\s+(\w+))?\s*", part)
            if found:
                names.add(found.group(1) or "tip")
    return names


def node(value, tips):
    """map.js's `tip(…)` (under one of the names `tips`) and nothing after it: a node Leaflet shows
    as it is (the text in a span)."""
    called = re.match(r"(\w+)\(", value)
    if not called or called.group(1) not in tips:
        return False
    depth = 0
    for i, c in enumerate(blank_strings(value)):
        depth += (c == "(") - (c == ")")
        if depth == 0 and c == ")":
            return i == len(value) - 1
    return False


def code_only(source):
    """`source` with its comments blanked (strings, templates and line numbers kept)."""
    out, i, n = [], 0, len(source)
    while i < n:
        c, two = source[i], source[i:i + 2]
        if two == "//":
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i)); i = end
        elif two == "/*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", source[i:end])); i = end
        elif c in "\"'`":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            out.append(source[i:j + 1]); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def blank_strings(code):
    """`code` with the insides of its strings and templates blanked, so a call written in a
    string is not taken for one (positions kept)."""
    return re.sub(r"(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)",
                  lambda m: m.group(0)[0] + re.sub(r"[^\n]", " ", m.group(0)[1:-1]) + m.group(0)[-1], code)


def argument(code, start, index=0):
    """The text of argument `index` of the call whose "(" is at `start`; the value of an
    assignment or option when `index` is None (up to the next top-level `,`, `;`, `}` or `)`)."""
    depth, i, current, args = 0, start + (1 if index is not None else 0), [], []
    while i < len(code):
        c = code[i]
        if c in "\"'`":
            j = i + 1
            while j < len(code) and code[j] != c:
                j += 2 if code[j] == "\\" else 1
            current.append(code[i:j + 1]); i = j + 1; continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (c == "," or (index is None and c in ";\n")):
            args.append("".join(current)); current = []
            if index is None or len(args) > index:
                break
            i += 1; continue
        current.append(c); i += 1
    args.append("".join(current))
    return args[index or 0].strip() if len(args) > (index or 0) else ""


def constant(value):
    """A literal the script wrote itself: a quoted string, a template with no `${}`, a number,
    false/null/undefined."""
    if re.fullmatch(r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')", value):
        return True
    if re.fullmatch(r"`[^`]*`", value) and "${" not in value:
        return True
    return re.fullmatch(r"(false|null|undefined|\d+)", value) is not None


def findings(source, name="source"):
    code = code_only(source)
    bare = blank_strings(code)
    tips = tip_names(code)
    line = lambda at: code.count("\n", 0, at) + 1
    found = []
    for m in ASSIGNED.finditer(bare):
        value = argument(code, m.end(), None)
        if not constant(value):
            found.append(f"{name}:{line(m.start())}: {m.group(1)} {m.group(2)} {value[:60]}")
    for m in re.finditer(r"\b(" + "|".join(CALLS) + r")\s*\(", bare):
        call = m.group(1)
        if call in ("write", "writeln") and not re.search(r"document\s*\.\s*$", bare[:m.start()]):
            continue
        value = argument(code, m.end() - 1, CALLS[call])
        if not constant(value) and not (node(value, tips) and call not in ("insertAdjacentHTML", "write", "writeln",
                                                                           "createContextualFragment", "setHTMLUnsafe",
                                                                           "parseFromString", "setPrefix")):
            found.append(f"{name}:{line(m.start())}: {call}({value[:60]})")
    for m in OPTIONS.finditer(bare):
        value = argument(code, m.end(), None)
        if not constant(value) and not node(value, tips):
            found.append(f"{name}:{line(m.start())}: {m.group(1)}: {value[:60]}")
    return found


GOOD = [
    'node.textContent = player.name;',
    'if (next.innerHTML === container.innerHTML) return;',
    'box.innerHTML = "";',
    'import { tip } from "./map.js"; marker.bindTooltip(tip(label), { permanent: true });',
    'import { HuntMap, tip as text } from "../map.js"; line.bindTooltip(text(name));',
    'export const tip = text => el("span", {}, String(text)); marker.bindTooltip(tip(label));',
    'line.bindTooltip("Trail");',
    'map.attributionControl.setPrefix(false);',
    'const url = "https://e.vil/x"; // bindTooltip(name) in a comment',
    'L.tileLayer(url, { minZoom: 0 });',
    'const s = `bindPopup(${name})`;',
]
BAD = [
    'row.innerHTML = `<b>${p.name}</b>`;',
    'row.innerHTML += name;',
    'row.outerHTML = html;',
    'list.insertAdjacentHTML("beforeend", item);',
    'document.write(name);',
    'marker.bindTooltip(label, { permanent: true });',
    'marker.bindTooltip(`${c.name}`);',
    'marker.bindPopup(p.name + " here");',
    'tooltip.setContent(label);',
    'map.attributionControl.addAttribution(tiles.attribution);',
    'L.tileLayer(url, { attribution: tiles.attribution, minZoom: 0 });',
    'L.popup({ content: name });',
    'marker.bindPopup(GeoQR.el("b", {}, name).outerHTML);',
    'marker.bindPopup(GeoQR.tip(name).outerHTML);',
    'import { tip } from "./map.js"; marker.bindPopup(tip(name).outerHTML);',
    'marker.bindTooltip(tip(label));',
    'import { tip } from "./tooltips.js"; marker.bindTooltip(tip(label));',
]


def main():
    failed = 0
    for sample in GOOD:
        if findings(sample):
            failed += 1
            print(f"FAIL the guard refuses a safe line: {sample} -> {findings(sample)}")
    for sample in BAD:
        if not findings(sample):
            failed += 1
            print(f"FAIL the guard lets through: {sample}")
    print(("ok   " if not failed else "FAIL ") + f"the guard's own samples ({len(GOOD)} safe, {len(BAD)} unsafe)")
    files = sorted(glob.glob(os.path.join(WEB, "**", "*.js"), recursive=True))
    assert files, f"no scripts in {WEB}"
    found = [f for path in files for f in findings(open(path, encoding="utf-8").read(), "assets/web/" + os.path.relpath(path, WEB))]
    for f in found:
        print("FAIL " + f)
    if not found:
        print(f"ok   no HTML sink takes a non-literal value in {len(files)} scripts")
    failures = (1 if failed else 0) + (1 if found else 0)
    print(f"{2 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

// Which cache a code names, read with the hunt's own code patterns: `GET /api/hunt` carries
// `codePatterns`, regular expressions (ECMAScript source) whose group 1 is the cache id, run in
// order on the code upper-cased without white space. The code formats are the server's: none is
// written here. The service worker keeps the hunt's answer, so a phone with no network still
// names the caches of the claims it keeps.
import { hunt } from "./hunt.js";

let patterns = [];
let learning = null;

/// Resolves once the hunt's code patterns are known, or could not be read (asked again at the
/// next call then).
export function learnCodePatterns() {
  learning ??= hunt().then(
    answer => { patterns = (answer.codePatterns ?? []).flatMap(compiled); },
    () => { learning = null; });
  return learning;
}

/// The id of the cache `code` names (`A1` of `GQ1.DEMO.A1.…`, of its URL form, of a typed
/// `a1-7kq2 m9xd`), or "?" when no pattern reads it.
export function cacheOf(code) {
  const text = code.toUpperCase().replace(/\s+/g, "");
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return match[1] ?? "?";
  }
  return "?";
}

function compiled(source) {
  try { return [new RegExp(source)]; } catch { return []; }   // a pattern this browser cannot read names nothing
}

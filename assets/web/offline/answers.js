// An answer to a station's question: sent at once, or, when the network fails, kept in the
// outbox with its id and the time it was answered, to be sent when the network returns (the
// server counts it once, at that time).
import { api } from "../api.js";
import * as session from "../session.js";
import { lang } from "../words.js";
import * as outbox from "./outbox.js";
import { sendLater } from "./worker.js";

/// Answers `cache`'s question with `text`. Resolves with `{answer}` (the server's
/// `{correct, points, state}`) or, when the network fails, `{kept}` (the outbox entry);
/// throws the server's refusal as `api` does.
export async function answer(cache, text) {
  const answerId = outbox.newClaimId();
  if (navigator.onLine !== false) {
    try { return { answer: await api("POST", `/api/caches/${encodeURIComponent(cache)}/answer`, { answer: text, answerId }) }; } catch (error) {
      if (error.code !== "offline") throw error;
    }
  }
  const kept = await outbox.keep({ kind: "answer", cache, answer: text, claimId: answerId },
    { token: session.token(), player: session.player()?.id, lang });
  sendLater();
  return { kept };
}

/// The answers to `cache`'s question still waiting in the outbox, oldest first.
export async function waitingFor(cache) {
  return (await outbox.waiting()).filter(e => e.kind === "answer" && e.cache === cache);
}

// A claim by a code's text (a link's, a typed one, one the phone's camera read): sent at once,
// or, when the network fails, kept in the outbox with the time and place of its scan, to be
// sent when the network returns.
import { api } from "../api.js";
import * as session from "../session.js";
import { lang } from "../words.js";
import * as outbox from "./outbox.js";
import { sendLater } from "./worker.js";

/// Claims with `{code, method, latitude, longitude, accuracy}`. Resolves with `{answer}` (the
/// verdict) or, when the network fails, `{kept}` (the outbox entry); throws the server's
/// refusal as `api` does.
export async function claim(body) {
  const sending = { ...body, claimId: outbox.newClaimId() };
  if (navigator.onLine !== false) {
    try { return { answer: await api("POST", "/api/claims", sending) }; } catch (error) {
      if (error.code !== "offline") throw error;
    }
  }
  const kept = await outbox.keep(sending, { token: session.token(), player: session.player()?.id, lang });
  sendLater();
  return { kept };
}

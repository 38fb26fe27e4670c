// The hunt server's JSON API, asked in the page's language as the signed-in player (or with
// the token a caller gives, as the control room does).
import { lang, t } from "./words.js";
import { token as playerToken } from "./session.js";

/// The answer's JSON: `await api("POST", "/api/trades", { to, give, receive })`. A body that is
/// a Blob or FormData goes as it is, anything else as JSON. Throws the server's refusal as an
/// Error with its sentence, `code` (the API's `error`) and `status`; with no network, an Error
/// whose `code` is "offline".
export async function api(method, path, body, options = {}) {
  const headers = { "Accept-Language": lang };
  const token = options.token || playerToken();
  if (token) headers["Authorization"] = "Bearer " + token;
  let payload = body;
  if (body !== undefined && !(body instanceof Blob) && !(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  } else if (body instanceof Blob) {
    headers["Content-Type"] = body.type || "application/octet-stream";
  }
  let response;
  try { response = await fetch(path, { method, headers, body: payload }); } catch {
    throw Object.assign(new Error(t("app.error.offline")), { code: "offline" });
  }
  const text = await response.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch { data = { message: response.statusText }; }
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.error; error.status = response.status;
    throw error;
  }
  return data;
}

/// A file's bytes as base64, for a JSON body's `photo`: `{ photo: await base64(input.files[0]) }`.
export function base64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(",", 2)[1]);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

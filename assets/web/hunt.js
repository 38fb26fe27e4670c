// The hunt as `GET /api/hunt` tells it (name, teams, trails, code patterns…), asked once per page.
import { api } from "./api.js";

let asked = null;

/// The hunt's answer; asked again after a failure.
export function hunt() {
  asked ??= api("GET", "/api/hunt").catch(error => { asked = null; throw error; });
  return asked;
}

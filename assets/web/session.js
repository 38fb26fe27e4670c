// The player's session, kept in localStorage so a reload keeps the player signed in.

/// The sign-in token, or null.
export const token = () => localStorage.getItem("geoqr.token");

/// The signed-in player (`{id, name, team}`), or null.
export function player() {
  try { return JSON.parse(localStorage.getItem("geoqr.player")); } catch { return null; }
}

/// Keeps the answer of a join or a sign-in (`{token, player}`).
export function save(signedIn) {
  localStorage.setItem("geoqr.token", signedIn.token);
  localStorage.setItem("geoqr.player", JSON.stringify(signedIn.player));
}

/// Signs out on this phone.
export function forget() {
  localStorage.removeItem("geoqr.token");
  localStorage.removeItem("geoqr.player");
}

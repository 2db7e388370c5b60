// The API client: every request of the UI goes through api(); a refusal becomes an Error whose
// message is a plain sentence in the page's language (err.code, err.status, err.detail: the
// server's own message). meta() and gameInfo(): /api/meta, fetched once.

import { t, language } from "/static/i18n.js";

// The server's error codes in plain words (docs/web.md lists them). The engines explain an illegal
// move in English; the English page shows that reason, the others the plain sentence.
const ERROR_TEXT = {
  malformed_json: "The request could not be read.",
  bad_request: "The request is incomplete.",
  bad_options: "These game options are not valid.",
  option_not_allowed: "This option cannot be used in the browser.",
  bad_seats: "The seats are not valid.",
  seed_not_allowed: "A seed can only be chosen for games without invited players.",
  bad_ply: "There is no such move in this game.",
  bad_time_control: "This clock setting is not valid.",
  out_of_time: "Your time ran out.",
  wrong_token: "This browser holds no seat in this game.",
  not_creator: "Only the creator of the game can do that.",
  hints_off: "Hints are off in this game.",
  no_such_seat: "This game has no such seat.",
  game_not_found: "There is no such game.",
  not_found: "Not found.",
  stale_action: "The game moved on in the meantime: look and try again.",
  not_your_turn: "It is not your turn",
  waiting_for_players: "The game starts once every invited player has joined.",
  game_over: "The game is over.",
  game_abandoned: "Nobody moved in this game for a long time: it was set aside and cannot go on.",
  no_hint: "There is nothing to hint at.",
  cannot_undo: "This cannot be taken back.",
  not_finished: "The AI's view is shown once the game is over.",
  seat_taken: "This seat is taken already.",
  seek_gone: "This offer to play is no longer open.",
  own_seek: "This is your own offer: wait for somebody to accept it.",
  out_of_range: "The ratings are outside the range asked for.",
  no_invitation: "This seat has no invitation.",
  rate_limited: "Too many requests: wait a moment.",
  invitation_used: "This invitation has been used already.",
  invitation_revoked: "This invitation was withdrawn.",
  conflict: "The game changed at the same moment: reload the page.",
  body_too_large: "The request is too large.",
  illegal_action: "This move is not allowed here.",
  bad_notation: "This move cannot be read.",
  invalid_request: "The request is not valid.",
  internal_error: "Something went wrong on the server.",
  storage_unavailable: "The server cannot save right now: try again shortly.",
  bad_rated: "A rated game needs a clock, no hints, and one seat for you at most.",
  bad_username: "A username has 3 to 20 letters, digits, '_' or '-'.",
  weak_password: "This password is too weak: use at least 10 characters, not a common password.",
  username_taken: "This username is taken already.",
  bad_credentials: "Unknown username or wrong password.",
  sign_in_required: "Sign in first.",
  csrf: "Your session could not be confirmed: reload the page.",
  wrong_password: "The password is wrong.",
  user_not_found: "There is no member of this name.",
  no_such_pool: "There is no such rating list.",
  already_seated: "You hold a seat of this rated game already.",
  busy: "The server is busy: try again in a moment.",
  ai_unavailable: "The AI is not available right now: try again.",
  bad_passkey: "The passkey's answer could not be checked.",
  challenge_expired: "The passkey request has expired: try again.",
  wrong_passkey: "This passkey is not one of yours.",
  passkey_not_found: "There is no such passkey on your account.",
  passkey_taken: "This passkey is registered already.",
  too_many_passkeys: "You have the most passkeys allowed: remove one first.",
  bad_challenge: "You cannot challenge yourself.",
  challenge_refused: "This member does not accept challenges from you.",
  not_challenged: "Only the member challenged can answer this challenge.",
  not_challenger: "Only the challenger can cancel this challenge.",
  challenge_not_found: "There is no such challenge.",
  too_many_challenges: "You have too many open challenges: cancel one first.",
  challenge_gone: "This challenge is no longer open.",
  lesson_not_found: "There is no such lesson.",
  unknown_lesson: "This lesson is not known.",
};
export function plainError(code, status, detail) {
  if (!(code in ERROR_TEXT)) return t("request failed ({status})", { status });
  const plain = t(ERROR_TEXT[code]);
  if (language === "en" && detail && (code === "illegal_action" || code === "bad_notation")) {
    return `${plain} ${capitalise(plainHelp(detail))}.`.replace(/\.\.$/, ".");
  }
  return plain;
}

// The signed-in member's CSRF token (member.js sets it at sign-in and page load): every request that
// changes something carries it, as the server asks of signed-in requests (docs/accounts.md).
let csrfToken = null;
export function setCsrfToken(token) { csrfToken = token || null; }

export async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: { ...(options.headers || {}) } };
  if (csrfToken && !["GET", "HEAD"].includes(init.method)) init.headers["X-CSRF-Token"] = csrfToken;
  if (options.body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const err = new Error(plainError(data && data.error, response.status, data && data.message));
    err.detail = (data && data.message) || null;
    err.code = data && data.error;
    err.status = response.status;
    throw err;
  }
  return data;
}

// the interface speaks to players: no ruling IDs (finding 9); the rules pages cite none either
export function plainHelp(text) {
  return String(text || "").replace(/\(?\b[A-Z]{3}-[A-Z]+\d+[a-z]?\b\)?:?\s*/g, "").replace(/\s+\)/g, ")").replace(/^\s*[-:]\s*/, "").trim();
}
export function capitalise(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

let metaCache = null;
export async function meta() {
  if (!metaCache) metaCache = await api("/api/meta");
  return metaCache;
}

export async function gameInfo(gameName) {
  return (await meta()).games.find((g) => g.name === gameName) || null;
}

// Palaestra browser UI: no build step, one ES module plus one renderer module per game.
//
// Routes (in the URL hash, so tokens never reach server logs):
//   #/                      home: new game, my games, games to watch
//   #/game/ID               play or watch a game (live over the websocket)
//   #/join/ID/TOKEN         take the seat of an invitation link, then #/game/ID
//   #/replay/ID[/PLY]       step through a game
//
// A game's renderer is the module /games/NAME/web/board.js (served from the game's own package
// folder); it exports createBoard(container, helpers) -> {update(view, ctx), destroy()}.

import { t, gameT, playerName, language, LANGUAGES, loadCatalogue, setLanguage } from "/static/i18n.js";
import { el, svg, PLAYER_COLOURS, lastTurns, lastMover } from "/static/dom.js";
import { clockFields, clockBadge, tickClocks, autoplayText, controlText, timeoutsTag } from "/static/clock.js";

const app = document.getElementById("app");
const toastEl = document.getElementById("toast");
const connEl = document.getElementById("conn");

// --- small helpers (el, svg, lastTurns, lastMover: dom.js) -----------------------------------------
let toastTimer = null;
let currentGame = null; // the game on screen: a refusal's rule link goes to its rules page
// A message for a person. Refusals are in plain words in the page's language (finding 9); the
// server's own message, which cites the rulings it applied (a ruling ID), stays at hand as the
// toast's tooltip and as a small link to the game's rules page.
function toast(message, error = false, detail = null) {
  toastEl.replaceChildren(String(message));
  toastEl.removeAttribute("title");
  const rulings = detail ? detail.match(RULING) : null;
  if (detail) toastEl.title = detail;
  if (rulings && currentGame) {
    toastEl.append(" ", el("a", { class: "rule-ref", href: `/rules/${currentGame}?lang=${language}`, target: "_blank",
      title: rulings.join(", "), "data-rulings": rulings.join(" ") }, t("rules")));
  }
  toastEl.className = "toast show" + (error ? " error" : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toastEl.className = "toast"; }, error ? 6000 : 2500);
}
const RULING = /\b[A-Z]{3}-[A-Z]+\d+[a-z]?\b/g;

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
  game_over: "The game is over.",
  game_abandoned: "Nobody moved in this game for a long time: it was set aside and cannot go on.",
  no_hint: "There is nothing to hint at.",
  cannot_undo: "This cannot be taken back.",
  not_finished: "The AI's view is shown once the game is over.",
  seat_taken: "This seat is taken already.",
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
};
export function plainError(code, status, detail) {
  if (!(code in ERROR_TEXT)) return t("request failed ({status})", { status });
  const plain = t(ERROR_TEXT[code]);
  if (language === "en" && detail && (code === "illegal_action" || code === "bad_notation")) {
    return `${plain} ${capitalise(plainHelp(detail))}.`.replace(/\.\.$/, ".");
  }
  return plain;
}

async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: { ...(options.headers || {}) } };
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

// --- what this browser knows: its seats' tokens, invitations it made, its name --------------------
const STORE_KEY = "palaestra.games";
function loadMine() {
  try { return JSON.parse(localStorage.getItem(STORE_KEY) || "{}"); } catch { return {}; }
}
function saveMine(mine) { localStorage.setItem(STORE_KEY, JSON.stringify(mine)); }
function mineOf(id) {
  const mine = loadMine();
  return mine[id] || { tokens: {}, invites: {} };
}
function rememberGame(id, entry) {
  const mine = loadMine();
  mine[id] = { tokens: {}, invites: {}, ...(mine[id] || {}), ...entry, at: Date.now() };
  saveMine(mine);
}
function myName() { return localStorage.getItem("palaestra.name") || ""; }

let metaCache = null;
async function meta() {
  if (!metaCache) metaCache = await api("/api/meta");
  return metaCache;
}

async function gameInfo(gameName) {
  return (await meta()).games.find((g) => g.name === gameName) || null;
}

// a game's renderer module, and its own stylesheet (a <link>, as the CSP allows), loaded once
const renderers = {};
async function rendererFor(gameName) {
  if (gameName in renderers) return renderers[gameName];
  const info = await gameInfo(gameName);
  let mod = null;
  if (info && info.stylesheet && !document.querySelector(`link[href="${info.stylesheet}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: info.stylesheet }));
  }
  if (info && info.renderer) {
    try { mod = await import(info.renderer); } catch (err) { console.error("renderer failed", err); }
  }
  renderers[gameName] = mod;
  return mod;
}

function textBoard(container) {
  const pre = el("pre", { class: "text-board" });
  container.append(pre);
  return { update(view) { pre.textContent = view.text; }, destroy() {} };
}

// Keyboard and screen readers: every clickable board element (a legal target, a piece to select,
// the selected one: class "selected") becomes a focusable button with a name; Enter or Space clicks it. The
// boards redraw themselves, so this runs after every redraw (a MutationObserver) and gives the
// focus back to the same field, cell, space or connection when it is still a target.
const KEYS = ["data-field", "data-cell", "data-space", "data-conn", "data-from", "data-code", "data-action"];
function keyOf(node) {
  for (const k of KEYS) if (node.hasAttribute(k)) return `${k}=${node.getAttribute(k)}`;
  return null;
}
function nameOf(node) {
  const move = node.getAttribute("data-move");
  if (move) return t("play {move}", { move });
  const title = [...node.children].find((c) => c.tagName === "title");
  const what = title ? title.textContent : (node.getAttribute("data-pick") || node.getAttribute("data-from") || node.getAttribute("data-conn") || "");
  return t("select {what}", { what });
}
export function keyboardBoard(box) {
  let lastKey = null;
  let hadFocus = false;
  const apply = () => {
    for (const svgRoot of box.querySelectorAll("svg[role=img]")) svgRoot.setAttribute("role", "group");
    const targets = box.querySelectorAll("svg .target, svg [data-pick], svg [data-from], svg .selected");
    for (const node of targets) {
      if (node.closest("[tabindex]") && node.closest("[tabindex]") !== node) continue;
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", nameOf(node));
    }
    if (hadFocus && !box.contains(document.activeElement)) {
      const again = lastKey && [...box.querySelectorAll("[tabindex]")].find((n) => keyOf(n) === lastKey);
      const first = again || box.querySelector("svg [tabindex]");
      if (first) first.focus();
    }
    hadFocus = false;
  };
  new MutationObserver(() => queueMicrotask(apply)).observe(box, { childList: true, subtree: true });
  box.addEventListener("keydown", (event) => {
    const node = event.target;
    if ((event.key !== "Enter" && event.key !== " ") || node.namespaceURI !== SVGNS || node.getAttribute("role") !== "button") return;
    event.preventDefault();
    lastKey = keyOf(node);
    hadFocus = true;
    node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
  apply();
}

async function makeBoard(gameName, container) {
  keyboardBoard(container);
  const mod = await rendererFor(gameName);
  const helpers = { el, svg, PLAYER_COLOURS, toast, lastTurns, lastMover, t: await gameT(await gameInfo(gameName)), playerName };
  if (mod && mod.createBoard) {
    try { return mod.createBoard(container, helpers); } catch (err) { console.error(err); }
  }
  return textBoard(container);
}

// --- routing -----------------------------------------------------------------------------------------
let cleanup = () => {};
// One route at a time, in the order asked: a page still loading (the home page waiting for
// /api/meta, say) would otherwise draw itself over the page of a newer hash.
let routing = Promise.resolve();
function route() {
  routing = routing.then(showRoute);
  return routing;
}
async function showRoute() {
  cleanup();
  cleanup = () => {};
  currentGame = null;
  connEl.className = "conn";
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  try {
    if (parts[0] === "game" && parts[1]) await gamePage(parts[1]);
    else if (parts[0] === "join" && parts[1] && parts[2]) await joinPage(parts[1], parts[2]);
    else if (parts[0] === "replay" && parts[1]) await replayPage(parts[1], parts[2] ? Number(parts[2]) : null);
    else await homePage();
  } catch (err) {
    app.replaceChildren(el("div", { class: "card" }, el("h2", { text: t("Something went wrong") }),
      el("p", { text: err.message }), el("a", { href: "#/" }, t("Back home"))));
  }
}
window.addEventListener("hashchange", route);

// --- home ----------------------------------------------------------------------------------------------
async function homePage() {
  const m = await meta();
  const newCard = el("section", { class: "card", id: "new-game" }, el("h2", { text: t("New game") }));
  const mineCard = el("section", { class: "card", id: "my-games" }, el("h2", { text: t("My games") }));
  const watchCard = el("section", { class: "card", id: "watch-games" }, el("h2", { text: t("Watch") }));
  app.replaceChildren(el("div", { class: "cards" }, newCard, mineCard, watchCard));
  buildNewGameForm(newCard, m);

  const games = await api("/api/games?limit=100");
  const mine = loadMine();
  const mineList = el("ul", { class: "list" });
  const watchList = el("ul", { class: "list" });
  for (const g of games) {
    const entry = mine[g.id];
    const who = g.seats.map((s) => seatName(s) || playerName(s.player_name)).join(" · ");
    const item = el("li", { "data-game": g.id },
      el("a", { href: `#/game/${g.id}` }, `${g.title} #${g.id}`),
      el("span", { class: `tag ${g.status}`, text: g.status === "finished" ? t("finished") : g.status === "abandoned" ? t("abandoned") : movesText(g.moves_played ?? g.ply), "data-moves": g.moves_played ?? g.ply }),
      el("span", { class: "muted small", text: who }),
      g.status === "finished" ? el("a", { class: "small", href: `#/replay/${g.id}` }, t("replay")) : null);
    if (entry) mineList.append(item);
    else if (g.status === "active") watchList.append(item);
  }
  // games not listed in the lobby (private ones) are known from this browser's own list
  const listed = new Set(games.map((g) => g.id));
  for (const [gid, entry] of Object.entries(mine)) {
    if (listed.has(gid)) continue;
    mineList.append(el("li", { "data-game": gid }, el("a", { href: `#/game/${gid}` }, `${entry.game || t("game")} #${gid}`)));
  }
  mineCard.append(mineList.children.length ? mineList : el("p", { class: "muted", text: t("No games yet.") }));
  watchCard.append(watchList.children.length ? watchList : el("p", { class: "muted", text: t("Nobody is playing right now.") }));
}

// the interface speaks to players: no ruling IDs (finding 9); the rules pages cite none either
export function plainHelp(text) {
  return String(text || "").replace(/\(?\b[A-Z]{3}-[A-Z]+\d+[a-z]?\b\)?:?\s*/g, "").replace(/\s+\)/g, ")").replace(/^\s*[-:]\s*/, "").trim();
}
// each game option in words for players (finding 9): the label and explanation the game declares
// (GameInfo.web.option_texts, in its own catalogue); else its name and the engine's help, without
// ruling IDs
function optionLabel(o, gt) {
  if (o.label) return gt(o.label);
  const name = o.name.replace(/_/g, " ");
  return name[0].toUpperCase() + name.slice(1);
}
function optionHelp(o, gt) {
  return o.explain ? gt(o.explain) : plainHelp(o.help);
}

function buildNewGameForm(card, m) {
  const form = el("form", { id: "new-game-form" });
  const gameSelect = el("select", { name: "game", id: "game-select" },
    m.games.map((g) => el("option", { value: g.name, text: g.title })));  // in the games' menu order
  const nameInput = el("input", { name: "name", placeholder: t("your name"), id: "your-name", value: myName(), maxlength: 40 });
  const optionsBox = el("div", { id: "options" });
  const seatsBox = el("div", { id: "seats" });
  const clock = clockFields(m.time_controls);  // issue 21: an optional clock
  form.append(
    el("div", { class: "field" }, el("label", { for: "game-select", text: t("Game") }), gameSelect),
    el("div", { class: "field" }, el("label", { for: "your-name", text: t("Your name") }), nameInput),
    optionsBox,
    clock.box,
    el("h3", { text: t("Seats") }),
    seatsBox,
    el("div", { class: "field" }, el("button", { type: "submit", id: "start" }, t("Start game"))));
  card.append(form);

  const info = () => m.games.find((g) => g.name === gameSelect.value);
  const optionInputs = {};

  function seatCount() {
    const g = info();
    const p = g.players_option ? optionInputs[g.players_option] : null;
    const count = p ? Number(p.value) : g.seatings[0].players;
    return g.seatings.find((s) => s.players === count) || g.seatings[0];
  }

  // what the game's own module says about the form (formRules: an option that needs another one,
  // seats named or reordered by a variant); asked again whenever an option changes (findings 1 and 10)
  let formModule = null;
  let formT = t; // the chosen game's texts
  function formValues() {
    const values = {};
    for (const [name, input] of Object.entries(optionInputs)) values[name] = input.type === "checkbox" ? input.checked : input.value;
    return values;
  }
  function adapted(seating) {
    const rules = formModule && formModule.formRules ? formModule.formRules(formValues(), seating.names) : {};
    for (const [name, input] of Object.entries(optionInputs)) {
      const why = rules.disabled && rules.disabled[name];
      input.disabled = Boolean(why);
      if (why && input.type === "checkbox") input.checked = false;
      const note = optionsBox.querySelector(`[data-note="${name}"]`);
      if (note) note.textContent = why ? formT(why) : "";
    }
    return { names: rules.names || seating.names, teams: rules.teams || null };
  }

  function drawSeats() {
    const seating = seatCount();
    const { names, teams } = adapted(seating);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren();
    names.forEach((name, i) => {
      const select = el("select", { name: `seat${i}`, "data-seat": i },
        el("option", { value: "me", text: t("me") }),
        el("option", { value: "friend", text: t("a friend (link)") }),
        m.ai_levels.map((lv) => el("option", { value: `ai:${lv}`, text: t("AI: {level}", { level: t(lv) }) })));
      if (i > 0) {
        const preferred = ["casual", "beginner", "random"].find((lv) => m.ai_levels.includes(lv));
        select.value = preferred ? `ai:${preferred}` : "friend";
      }
      if (previous.length === names.length && previous[i]) select.value = previous[i];
      seatsBox.append(el("div", { class: "seat-row", "data-seat-name": name },
        el("label", { class: "who", for: `seat-select-${i}` }, playerName(name),
          teams ? el("span", { class: "tag team", "data-team": teams[i], text: formT(teams[i]) }) : null), select));
      select.id = `seat-select-${i}`;
    });
  }

  async function drawOptions() {
    const g = info();
    delete optionsBox.dataset.game;  // set again once drawn: choosing the same game again redraws it
    const module = await rendererFor(g.name);
    const texts = await gameT(g);
    if (info() !== g) return;  // another game was chosen meanwhile: its draw sets the form's rules
    formModule = module;
    formT = texts;
    optionsBox.replaceChildren();
    for (const key of Object.keys(optionInputs)) delete optionInputs[key];
    for (const o of g.options) {
      if (o.kind === "dict") continue;  // a document option (a board document): through the API only
      let input;
      const id = `opt-${o.name}`;
      const smallRange = o.kind === "int" && o.minimum !== null && o.minimum !== undefined
        && o.maximum !== null && o.maximum !== undefined && o.maximum - o.minimum <= 8;
      if (o.kind === "bool") {
        input = el("input", { type: "checkbox", id, name: o.name });
        input.checked = Boolean(o.default);
      } else if (smallRange && o.name === g.players_option) {  // a list, as for games with fixed choices (finding 10)
        const counts = [];
        for (let n = o.minimum; n <= o.maximum; n++) counts.push(n);
        input = el("select", { id, name: o.name }, counts.map((n) => el("option", { value: String(n), text: String(n) })));
        input.value = String(o.default ?? g.seatings[0].players);
      } else if (o.choices) {
        input = el("select", { id, name: o.name },
          (o.default === null ? [el("option", { value: "", text: t("(random)") })] : []),
          o.choices.map((c) => el("option", { value: String(c), text: String(c) })));
        input.value = o.default === null ? "" : String(o.default);
      } else if (o.kind === "int") {
        input = el("input", { type: "number", id, name: o.name, min: o.minimum, max: o.maximum, value: o.default ?? "" });
      } else {
        input = el("input", { type: "text", id, name: o.name, value: o.default ?? "", placeholder: "(default)" });
      }
      optionInputs[o.name] = input;
      optionsBox.append(el("div", { class: "field" },
        el("label", { for: id, text: optionLabel(o, formT) }), input,
        el("span", { class: "muted small", id: `${id}-help`, text: optionHelp(o, formT) }),
        el("span", { class: "note small", "data-note": o.name, role: "status" })));
      input.addEventListener("change", drawSeats);
    }
    drawSeats();
    optionsBox.dataset.game = g.name;  // drawn for this game (what a test waits for)
  }

  // the form is drawn for the chosen game after its renderer and texts are loaded: a submit waits
  // for that, so it never reads the options of the game chosen before
  let drawn = drawOptions();
  gameSelect.addEventListener("change", () => { drawn = drawOptions(); });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await drawn;
    const g = info();
    localStorage.setItem("palaestra.name", nameInput.value.trim());
    const options = {};
    for (const o of g.options) {
      const input = optionInputs[o.name];
      if (input === undefined) continue;
      if (o.kind === "bool") { if (input.checked !== Boolean(o.default)) options[o.name] = input.checked; continue; }
      if (input.value === "") continue;
      const value = o.kind === "int" ? Number(input.value) : input.value;
      if (value !== o.default) options[o.name] = value;
    }
    const choices = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const seats = choices.map((c) => {
      if (c === "me") return { kind: "human", joined: true, name: nameInput.value.trim() || null };
      if (c === "friend") return { kind: "human" };
      return { kind: "ai", level: c.slice(3) };
    });
    try {
      const body = { game: g.name, options, seats };
      const timeControl = clock.value();
      if (timeControl) body.time_control = timeControl;
      const created = await api("/api/games", { method: "POST", body });
      const tokens = {};
      const invites = {};
      created.seats.forEach((s, i) => {
        if (s.token) tokens[i] = s.token;
        else if (s.invite) invites[i] = location.origin + location.pathname + s.invite.replace(/^\//, "");
      });
      rememberGame(created.id, { tokens, invites, creator: created.creator_token, game: g.name });
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      toast(err.message, true, err.detail);
    }
  });
}

// --- joining by link -------------------------------------------------------------------------------------
async function joinPage(id, token) {
  let name = myName();
  if (!name) name = await askName(id);  // the guest is asked for a name once (finding 11)
  // the invitation code is used up: the seat's own token comes back
  const result = await api(`/api/games/${id}/join`, { method: "POST", body: { code: token, name: name || null } });
  const entry = mineOf(id);
  entry.tokens[result.seat] = result.token;
  rememberGame(id, { tokens: entry.tokens, game: result.game.game });
  location.replace(`#/game/${id}`);
}

function askName(id) {
  return new Promise((resolve) => {
    const input = el("input", { id: "join-name", name: "name", maxlength: 40, autocomplete: "nickname", required: true });
    const form = el("form", { class: "card", id: "join-form" },
      el("h2", { text: t("Join the game") }),
      el("div", { class: "field" }, el("label", { for: "join-name", text: t("Your name") }), input),
      el("div", { class: "field" }, el("button", { type: "submit", id: "join-start" }, t("Join"))));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      localStorage.setItem("palaestra.name", name);
      resolve(name);
    });
    app.replaceChildren(form);
    input.focus();
  });
}

// --- a game, live ------------------------------------------------------------------------------------------
let seatColours = PLAYER_COLOURS;
function seatColour(i) { return seatColours[i % seatColours.length]; }

async function gamePage(id) {
  let view = await api(`/api/games/${id}`);
  currentGame = view.game;
  const mine = mineOf(id);
  const myTokens = mine.tokens || {};
  const mySeats = Object.keys(myTokens).map(Number);

  const boardBox = el("div", { class: "board-wrap", id: "board" });
  const playersBox = el("ul", { class: "players", id: "players" });
  const statusBox = el("div", { class: "status", id: "status" });
  // on a phone the side panel is under the board: whose turn it is shows above it too (finding 13)
  const statusTop = el("div", { class: "status status-top", id: "status-top", "aria-hidden": "true" });
  const resultBox = el("div", { id: "result" });
  const legalBox = el("div", { class: "legal", id: "legal" });
  const legalCard = el("details", { class: "card", id: "legal-card" }, el("summary", { text: t("Legal moves") }), legalBox);
  const movesBox = el("ol", { class: "moves", id: "moves" });
  const hintList = el("ol", { class: "hints", id: "hints" });
  const hintButton = el("button", { class: "secondary", id: "hint", type: "button", title: t("the AI's best moves in this position") }, t("Hint"));
  const resignButton = el("button", { class: "secondary", id: "resign", type: "button" }, t("Resign"));
  const undoButton = el("button", { class: "secondary", id: "undo", type: "button", title: t("take back your last action of this turn") }, t("Undo"));
  const invitesBox = el("div", { id: "invites" });
  const clockLine = el("div", { class: "muted small", id: "clock-control" });
  const actions = el("div", { class: "card" }, el("div", { class: "field" }, undoButton, hintButton, resignButton), hintList);

  app.replaceChildren(el("div", { class: "game" },
    el("div", {}, el("h2", {}, `${view.title} `, el("span", { class: "muted small", text: `#${view.id}` }), " ",
      el("a", { class: "small rules-link", id: "rules-link", href: `/rules/${view.game}?lang=${language}`, target: "_blank", rel: "noopener" }, t("Rules"))),
    statusTop, resultBox, boardBox),
    el("aside", { class: "side" },
      el("div", { class: "card" }, statusBox, playersBox, clockLine),
      invitesBox,
      legalCard,
      mySeats.length ? actions : el("p", { class: "muted small", text: t("You are watching this game.") }),
      el("div", { class: "card" }, el("h3", { text: t("Moves") }), movesBox,
        el("p", { class: "small" }, el("a", { href: `#/replay/${id}` }, t("replay")), " · ",
          el("a", { href: `/api/games/${id}/record`, target: "_blank" }, t("record (JSON)")))))));

  const board = await makeBoard(view.game, boardBox);
  seatColours = board.colours || PLAYER_COLOURS;
  const info = await gameInfo(view.game);
  const gt = await gameT(info); // the game's own texts
  undoButton.hidden = !(info && info.undo);  // games whose rules allow taking actions back
  if (board.custom === undefined) legalCard.open = !(await rendererFor(view.game));

  // invitations this browser made
  const gameModule = await rendererFor(view.game);
  for (const [seat, url] of Object.entries(mine.invites || {})) {
    const input = el("input", { readonly: true, value: url, "data-seat": seat });
    invitesBox.append(el("div", { class: "card invite-card", "data-seat": seat },
      el("div", { class: "small", text: t("Invitation for {name}:", { name: playerName(view.seats[seat].player_name) }) }),
      el("div", { class: "invite" }, input,
        el("button", { type: "button", class: "secondary", onclick: async () => {
          input.select();
          try { await navigator.clipboard.writeText(url); toast(t("Link copied")); } catch { document.execCommand("copy"); toast(t("Link copied")); }
        } }, t("Copy")))));
  }

  let pending = false;

  async function play(action) {
    if (pending) return;
    const player = view.current_player;
    const token = myTokens[player];
    if (!token) { toast(t("It is not your turn"), true); return; }
    pending = true;
    try {
      const next = await api(`/api/games/${id}/actions`, { method: "POST", body: { token, ply: view.ply, action } });
      pending = false;
      if (next.version >= view.version) view = next;
      draw();
    } catch (err) {
      pending = false;
      toast(err.message, true, err.detail);
      const current = await api(`/api/games/${id}?version=${view.version}`);
      if (current.version >= view.version) view = current;
      draw();
    }
  }

  undoButton.addEventListener("click", async () => {
    if (pending) return;
    const token = myTokens[view.undo];
    if (!token) return;
    pending = true;
    try {
      const next = await api(`/api/games/${id}/undo`, { method: "POST", body: { token, ply: view.ply } });
      if (next.version >= view.version) view = next;
    } catch (err) {
      toast(err.message, true, err.detail);
      const current = await api(`/api/games/${id}?version=${view.version}`);
      if (current.version >= view.version) view = current;
    }
    pending = false;
    draw();
  });

  hintButton.addEventListener("click", async () => {
    const token = myTokens[view.current_player];
    if (!token) { toast(t("Hints are for your own turn"), true); return; }
    hintList.replaceChildren(el("li", { class: "muted", text: t("thinking…") }));
    try {
      const hints = await api(`/api/games/${id}/hint?top=3`, { headers: { "X-Seat-Token": token } });
      hintList.replaceChildren(...hints.map((h) => el("li", {}, `${h.move} `, el("span", { class: "muted", text: `(${h.value.toFixed(2)}, ${h.agent})` }))));
    } catch (err) {
      hintList.replaceChildren();
      toast(err.message, true, err.detail);
    }
  });

  resignButton.addEventListener("click", async () => {
    const seat = mySeats.includes(view.current_player) ? view.current_player : mySeats[0];
    if (!confirm(t("Resign for {name}? The game ends.", { name: playerName(view.seats[seat].player_name) }))) return;
    try {
      view = await api(`/api/games/${id}/resign`, { method: "POST", body: { token: myTokens[seat] } });
      draw();
    } catch (err) { toast(err.message, true, err.detail); }
  });

  function draw() {
    const autoplay = autoplayText(view);  // the AI plays a turn whose time ran out
    const myTurn = view.status === "active" && mySeats.includes(view.current_player) && !autoplay;
    // players and scores
    const teams = gameModule && gameModule.teamsOf ? gameModule.teamsOf(view) : null;
    // an invitation whose guest has joined is done: hide it (finding 11)
    for (const card of invitesBox.querySelectorAll(".invite-card")) {
      const seat = view.seats[Number(card.dataset.seat)];
      card.hidden = Boolean(seat && seat.joined);
    }
    playersBox.replaceChildren(...view.seats.map((s, i) => el("li", { class: i === view.current_player ? "to-move" : "", "data-seat": i },
      el("span", { class: "swatch", style: `background:${seatColour(i)}` }),
      el("span", {}, playerName(s.player_name), seatName(s) && !isDefaultAiName(s) ? el("span", { class: "muted small", text: ` ${seatName(s)}` }) : null,
        s.kind === "ai" ? el("span", { class: "tag", text: t("AI: {level}", { level: t(s.level) }) }) : null,
        mySeats.includes(i) ? el("span", { class: "tag", text: t("you") }) : null,
        s.kind === "human" && !s.joined ? el("span", { class: "tag", text: t("invited") }) : null,
        teams ? el("span", { class: "tag team", "data-team": teams[i], text: gt(teams[i]) }) : null),
      timeoutsTag(view, i),
      clockBadge(view, i),
      el("span", { class: "score", text: formatScore(view.scores[i]) }))));
    clockLine.textContent = view.clock ? controlText(view.clock.control) : "";
    // status
    statusBox.className = "status" + (myTurn ? " mine" : "");
    if (view.status === "finished") statusBox.textContent = t("Game over");
    else if (view.status === "abandoned") statusBox.textContent = t("Abandoned: nobody moved for a long time");
    else if (view.current_player === -1) statusBox.textContent = t("Drawing…");
    else if (autoplay) statusBox.textContent = autoplay;
    else if (myTurn) statusBox.textContent = t("Your turn ({name})", { name: playerName(view.to_move) });
    else {
      const seat = view.seats[view.current_player];
      statusBox.textContent = seat && seat.kind === "ai" ? t("{name} (AI) is thinking…", { name: playerName(view.to_move) }) : t("Waiting for {name}", { name: playerName(view.to_move) });
    }
    statusTop.textContent = statusBox.textContent;
    statusTop.className = statusBox.className + " status-top";
    const running = view.clock && view.clock.seats.find((c) => c.running);
    if (running) statusTop.append(" ", clockBadge(view, running.seat));  // on a phone, above the board
    statusBox.dataset.ply = view.ply;
    statusBox.dataset.version = view.version;
    statusBox.dataset.mine = myTurn ? "1" : "0";
    // result
    if (view.status === "finished" && view.result) {
      const outcome = outcomeFor(view.result, mySeats, view.seats.length);
      resultBox.replaceChildren(el("div", { class: outcome ? `result ${outcome}` : "result", id: "result-banner", "data-outcome": outcome || "" },
        el("div", { text: resultText(view.result, view.seats, Boolean(teams)), title: plainHelp(view.result.text), "data-engine-text": view.result.text }),
        el("div", { class: "small", text: t("Scores: {list}", { list: view.seats.map((s, i) => `${playerName(s.player_name)} ${formatScore(view.result.scores[i])}`).join(", ") }) }),
        el("div", { class: "small" }, el("a", { href: `#/replay/${id}` }, t("Replay this game")), " · ", el("a", { href: "#/" }, t("New game")))));
    } else if (view.status === "active" && view.dead_position) {
      resultBox.replaceChildren(el("div", { class: "result", id: "dead-notice" },
        el("div", { text: t("Nobody can win outright any more.") }),
        el("div", { class: "small", text: t("Play goes on to the move limit (move {ply} of {max}); then the scores decide. A player may resign to end it now.", { ply: view.ply, max: view.max_plies }) })));
    } else resultBox.replaceChildren();
    // moves
    movesBox.replaceChildren(...view.moves.map((mv) => el("li", { class: mv.player < 0 ? "chance" : "" },
      mv.player >= 0 ? `${playerName(view.seats[mv.player].player_name)}: ` : "", mv.move)));
    movesBox.scrollTop = movesBox.scrollHeight;
    // legal moves as buttons (always available; boards add clicking on the board itself)
    legalBox.replaceChildren(...(myTurn ? view.legal : []).map((l) => el("button", { type: "button", "data-action": l.action, "data-move": l.move, onclick: () => play(l.action) }, l.move)));
    hintButton.disabled = !myTurn;
    const canUndo = myTurn && view.undo !== null && view.undo !== undefined && mySeats.includes(view.undo);
    undoButton.disabled = !canUndo;
    resignButton.disabled = view.status !== "active";
    if (!myTurn) hintList.replaceChildren();
    board.update(view, { interactive: myTurn && !pending, legal: myTurn ? view.legal : [], play, mySeats, replay: false });
  }
  draw();

  // live updates
  let socket = null;
  let closed = false;
  let retry = 500;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws`);
    socket.addEventListener("open", () => { if (!closed) connEl.className = "conn on"; retry = 500; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      // every change raises the version: the same version (the socket's first message, mostly) is
      // the game as drawn, and drawing it again would take the keyboard's focus off the board
      if (message.type === "state" && message.game.version > view.version) { view = message.game; draw(); }
    });
    socket.addEventListener("close", () => {
      if (closed) return;  // this page was left: the dot belongs to the next one (finding 12)
      connEl.className = "conn off";
      setTimeout(connect, retry = Math.min(retry * 2, 10000));
    });
  }
  connect();
  const ping = setInterval(() => { if (socket && socket.readyState === 1) socket.send('{"type":"ping"}'); }, 25000);
  const stopClocks = tickClocks(app, () => view.clock && view.clock.control);
  cleanup = () => { closed = true; clearInterval(ping); stopClocks(); if (socket) socket.close(); board.destroy && board.destroy(); };
}

// mark move N (0-based) of a move list as the current one and scroll the list to it (finding 8)
function followList(list, index) {
  [...list.children].forEach((li, i) => {
    li.classList.toggle("current", i === index);
    if (i === index) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  const item = list.children[index];
  if (!item) { list.scrollTop = 0; return; }
  const top = item.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

// The result in words, in the page's language, from the result's numbers (the engines' own
// sentence, in English and citing rulings, is the tooltip): who won, who shares, a draw, who resigned.
export function resultText(result, seats, together = false) {
  const names = seats.map((s) => playerName(s.player_name));
  if (result.resigned !== undefined && result.resigned !== null) return t("{name} resigned", { name: names[result.resigned] });
  if (result.timeout !== undefined && result.timeout !== null) return t("{name} ran out of time and loses", { name: names[result.timeout] });
  const returns = result.returns || [];
  const best = Math.max(...returns);
  const winners = returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
  if (!returns.length || winners.length === returns.length) return t("Draw");
  const list = winners.map((i) => names[i]).join(t(" and "));
  if (winners.length === 1) return t("{name} wins", { name: list });
  return together ? t("{names} win together", { names: list }) : t("{names} share the win", { names: list });
}
// How the game ended for this browser's seats: "won", "lost" or "drawn"; null for a spectator and
// in hot seat (every seat is this browser's), where the banner stays neutral.
export function outcomeFor(result, mySeats, seatCount) {
  const returns = result.returns || [];
  if (!mySeats.length || mySeats.length === seatCount || returns.length !== seatCount) return null;
  const best = Math.max(...returns);
  if (returns.every((r) => r === best)) return "drawn";
  return mySeats.some((i) => returns[i] === best) ? "won" : "lost";
}
// a seat's own name; the server names AI seats "AI (level)" in English: said in the page's language
function seatName(seat) {
  const m = seat.name ? /^AI \((\w+)\)$/.exec(seat.name) : null;
  return m && seat.kind === "ai" ? t("AI ({level})", { level: t(m[1]) }) : seat.name;
}
// the players panel says "AI: level" in a tag already
function isDefaultAiName(seat) { return seat.kind === "ai" && /^AI \(\w+\)$/.test(seat.name || ""); }
function movesText(n) { return n === 1 ? t("1 move") : t("{n} moves", { n }); }

function formatScore(x) {
  if (x === undefined || x === null) return "";
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}
function capitalise(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

// --- replay viewer -----------------------------------------------------------------------------------------
async function replayPage(id, startPly) {
  const game = await api(`/api/games/${id}`);
  currentGame = game.game;
  const gameModule = await rendererFor(game.game);
  const together = Boolean(gameModule && gameModule.teamsOf && gameModule.teamsOf(game)); // partners win together
  const total = game.ply;
  let ply = startPly === null || Number.isNaN(startPly) ? total : Math.max(0, Math.min(total, startPly));
  const boardBox = el("div", { class: "board-wrap", id: "board" });
  const slider = el("input", { type: "range", min: 0, max: total, value: ply, id: "replay-slider" });
  const label = el("span", { id: "replay-ply" });
  const lastMove = el("div", { class: "muted", id: "replay-move" });
  const scores = el("ul", { class: "players" });
  const movesBox = el("ol", { class: "moves", id: "replay-moves" });
  const finished = game.status === "finished";
  const aiBox = el("div", { id: "ai-view" });
  const aiToggle = el("input", { type: "checkbox", id: "ai-view-toggle", disabled: !finished });
  let aiOn = false;
  aiToggle.addEventListener("change", () => { aiOn = aiToggle.checked; show(); });
  const go = (n) => { ply = Math.max(0, Math.min(total, n)); slider.value = ply; show(); };
  app.replaceChildren(el("div", { class: "game" },
    el("div", {}, el("h2", {}, t("Replay: {title}", { title: game.title }) + " ", el("span", { class: "muted small", text: `#${id}` }), " ",
        el("a", { class: "small rules-link", id: "rules-link", href: `/rules/${game.game}?lang=${language}`, target: "_blank", rel: "noopener" }, t("Rules"))),
      el("div", { class: "replay-bar" },
        el("button", { type: "button", class: "secondary", id: "replay-first", title: t("first move"), "aria-label": t("first move"), onclick: () => go(0) }, "|◀"),
        el("button", { type: "button", class: "secondary", id: "replay-prev", title: t("previous move"), "aria-label": t("previous move"), onclick: () => go(ply - 1) }, "◀"),
        slider,
        el("button", { type: "button", class: "secondary", id: "replay-next", title: t("next move"), "aria-label": t("next move"), onclick: () => go(ply + 1) }, "▶"),
        el("button", { type: "button", class: "secondary", id: "replay-last", title: t("last move"), "aria-label": t("last move"), onclick: () => go(total) }, "▶|"),
        label),
      lastMove, boardBox),
    el("aside", { class: "side" },
      el("div", { class: "card" }, el("h3", { text: t("Score") }), scores),
      el("div", { class: "card" }, el("label", { class: "small" }, aiToggle,
        " " + (finished ? t("Show the AI's view of each move") : t("The AI's view of the moves is shown once the game is over"))), aiBox),
      game.result ? el("div", { class: "card", text: resultText(game.result, game.seats, together), title: plainHelp(game.result.text) }) : null,
      el("div", { class: "card" }, el("h3", { text: t("Moves") }), movesBox),
      el("a", { href: `#/game/${id}` }, t("Back to the game")))));
  movesBox.replaceChildren(...game.moves.map((mv, i) => el("li", { class: mv.player < 0 ? "chance" : "", style: "cursor:pointer", onclick: () => go(i + 1) },
    mv.player >= 0 ? `${playerName(game.seats[mv.player].player_name)}: ` : "", mv.move)));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", onKey);
  function onKey(e) { if (e.key === "ArrowLeft") go(ply - 1); if (e.key === "ArrowRight") go(ply + 1); }
  const board = await makeBoard(game.game, boardBox);
  seatColours = board.colours || PLAYER_COLOURS;
  let token = 0;
  async function show() {
    const mine = ++token;
    const r = await api(`/api/games/${id}/replay?ply=${ply}`);
    if (mine !== token) return;
    // the label, the move and the list change together, once the position is known (finding 16)
    label.textContent = t("move {n} / {total}", { n: ply, total });
    lastMove.textContent = r.last_move ? `${r.last_move.player >= 0 ? playerName(game.seats[r.last_move.player].player_name) + ": " : ""}${r.last_move.move}` : t("start");
    label.dataset.ply = ply;
    followList(movesBox, ply - 1);
    scores.replaceChildren(...game.seats.map((s, i) => el("li", {}, el("span", { class: "swatch", style: `background:${seatColour(i)}` }), playerName(s.player_name), el("span", { class: "score", text: formatScore(r.scores[i]) }))));
    const toMove = r.current_player >= 0 ? game.seats[r.current_player].player_name : r.current_player === -1 ? "chance" : null;
    const view = { ...game, ply, to_move: toMove, state: r.state, text: r.text, scores: r.scores, current_player: r.current_player, legal: [], moves: game.moves.slice(0, ply), status: ply === total ? game.status : "active" };
    board.update(view, { interactive: false, legal: [], play: () => {}, mySeats: [], replay: true });
    await showAi(mine);
  }
  // the AI's view of the move that led to this position (computed on demand by the server)
  async function showAi(mine) {
    aiBox.replaceChildren();
    if (!aiOn || ply === 0) return;
    aiBox.append(el("p", { class: "muted small", text: t("the AI is looking at this move…") }));
    let a;
    try { a = await api(`/api/games/${id}/analysis?ply=${ply - 1}&top=3`); } catch (err) { aiBox.replaceChildren(el("p", { class: "small", text: err.message })); return; }
    if (mine !== token) return;
    const who = a.player >= 0 ? playerName(game.seats[a.player].player_name) : t("chance");
    if (a.chance) { aiBox.replaceChildren(el("p", { class: "small", text: t("Move {n}: a chance draw ({move}).", { n: ply, move: a.played.move }) })); return; }
    const verdict = a.played_rank === 1 ? t("the AI's first choice")
      : a.played_rank ? t("the AI's choice #{rank} of {of} (value {value})", { rank: a.played_rank, of: a.of, value: a.played_value.toFixed(2) })
        : t("not among the {of} moves the AI looked at", { of: a.of });
    aiBox.replaceChildren(
      el("p", { class: "small", id: "ai-verdict" }, el("strong", { text: `${t("Move {n}, {name}", { n: ply, name: who })}: ${a.played.move}` }), " ", t("is {verdict}.", { verdict })),
      el("ol", { class: "hints", id: "ai-top" }, a.top.map((top) => el("li", { class: top.action === a.played.action ? "played" : "" },
        `${top.move} `, el("span", { class: "muted", text: `(${top.value.toFixed(2)})` })))),
      el("p", { class: "muted small", text: t("values: expected outcome for {name}, -1 to 1 ({agent})", { name: who, agent: a.agent }) }));
  }
  await show();
  cleanup = () => { document.removeEventListener("keydown", onKey); board.destroy && board.destroy(); };
}

// the header's language choice; the page is drawn again in the new language
function languagePicker() {
  const select = document.getElementById("lang");
  if (!select) return;
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, text: name })));
  select.value = language;
  select.setAttribute("aria-label", t("Language"));
  connEl.title = t("live connection");
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    select.setAttribute("aria-label", t("Language"));
    connEl.title = t("live connection");
    route();
  });
}

await loadCatalogue();
languagePicker();
route();
// the header names the games there are (in menu order)
meta().then((m) => { document.getElementById("tagline").textContent = m.games.map((g) => g.title).join(" · "); }, () => {});

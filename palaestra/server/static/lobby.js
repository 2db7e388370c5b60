// The lobby on the home page (issue 29): "Play now" for each game, the open seeks with an Accept
// button, the public games being played (to watch); all live over /api/lobby/ws. A seek this
// browser posted is held by its websocket (it ends a minute after the page is left) and polled, so
// the page moves to the game as soon as somebody takes it.

import { t, playerName } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { rememberGame, myName } from "/static/state.js";
import { toast, seatName, movesText } from "/static/ui.js";
import { controlText } from "/static/clock.js";
import { me } from "/static/member.js";

// a guest's own secret (X-Guest-Token): tells this browser's seeks apart from others'
function guestToken() {
  let token = localStorage.getItem("palaestra.guest");
  if (!token) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("palaestra.guest", token);
  }
  return token;
}

// a guest who gave no name is "Guest" (the server's word), in the page's language
function guestName(name) { return name === "Guest" ? t("Guest") : name; }
function withRating(name, rating) { return rating === null || rating === undefined ? name : `${name} (${rating})`; }

// onOther(message): each message of the socket is also given to it (the challenges, issue 29)
export function buildLobby(lobbyCard, watchCard, m, mine, onLeave, onOther = null) {
  const headers = { "X-Guest-Token": guestToken() };
  const seekList = el("ul", { class: "list", id: "seek-list" });
  const noSeeks = el("p", { class: "muted", id: "no-seeks", text: t("No open seeks.") });
  const watchList = el("ul", { class: "list", id: "watch-list" });
  const noGames = el("p", { class: "muted", text: t("Nobody is playing right now.") });
  const waitingBox = el("p", { id: "seeking", hidden: true }, t("Waiting for an opponent…"), " ",
    el("button", { type: "button", id: "cancel-seek", onclick: () => cancel() }, t("Cancel")));
  // what "Play now" asks for: a clock (a preset, or none) and, for members, a rated game
  const presets = (m.time_controls && m.time_controls.presets) || [];
  const clockSelect = el("select", { id: "lobby-clock" },
    el("option", { value: "", text: t("No clock") }),
    presets.map((p, i) => el("option", { value: String(i), text: controlText(p) })));
  const ratedInput = el("input", { type: "checkbox", id: "lobby-rated" });
  ratedInput.addEventListener("change", () => {  // a rated game needs a clock
    const none = clockSelect.querySelector('option[value=""]');
    none.disabled = ratedInput.checked;
    if (ratedInput.checked && clockSelect.value === "") {
      const fischer = presets.findIndex((p) => p.type === "fischer");
      clockSelect.value = String(fischer >= 0 ? fischer : 0);
    }
  });
  const choices = el("div", { class: "field", id: "play-now-choices" },
    el("label", { for: "lobby-clock", text: t("Clock") }), clockSelect,
    me() && presets.length ? [el("label", { for: "lobby-rated", text: t("Rated") }), ratedInput] : null);
  const buttons = el("div", { class: "field", id: "play-now" },
    m.games.map((g) => el("button", { type: "button", "data-game": g.name, onclick: () => playNow(g) },
      t("Play now: {game}", { game: g.title }))));
  lobbyCard.append(choices, buttons, waitingBox, el("h3", { text: t("Open seeks") }), seekList, noSeeks);
  watchCard.append(watchList, noGames);

  const seeks = new Map();  // id -> SEEK
  const games = new Map();  // id -> SUMMARY
  let waiting = null;  // { id, token, game } of the seek this page waits on
  let socket = null;
  let closed = false;
  let retry = 500;
  let poller = null;

  function drawSeeks() {
    seekList.replaceChildren(...[...seeks.values()].map(seekItem));
    noSeeks.hidden = seeks.size > 0;
  }
  function seekItem(s) {
    const mineToo = waiting && waiting.id === s.id;
    const names = s.seated.map((p) => withRating(p.member ? p.name : guestName(p.name), p.rating)).join(", ");
    return el("li", { "data-seek": s.id },
      el("strong", { text: s.title }),
      el("span", { class: "small", text: ` ${t("{name} seeks a game", { name: names })} ` }),
      el("span", { class: "tag", text: s.rated ? t("rated") : t("unrated") }),
      s.time_control ? el("span", { class: "muted small", text: ` ${controlText(s.time_control)} ` }) : null,
      s.players > 2 ? el("span", { class: "muted small", text: ` ${s.seated.length}/${s.players} ` }) : null,
      mineToo ? null : el("button", { type: "button", class: "accept-seek", onclick: () => accept(s) }, t("Accept")));
  }
  function drawGames() {
    const shown = [...games.values()].filter((g) => !mine[g.id] && g.status === "active");
    watchList.replaceChildren(...shown.map((g) => el("li", { "data-game": g.id },
      el("a", { href: `#/game/${g.id}` }, `${g.title} #${g.id}`),
      el("span", { class: `tag ${g.status}`, text: movesText(g.moves_played ?? g.ply), "data-moves": g.moves_played ?? g.ply }),
      g.rated ? el("span", { class: "tag", text: t("rated") }) : null,
      g.clock ? el("span", { class: "muted small", text: ` ${controlText(g.clock.control)} ` }) : null,
      el("span", { class: "muted small", text: g.seats.map((s, i) => withRating(seatName(s) || playerName(s.player_name), (g.ratings || [])[i])).join(" · ") }))));
    noGames.hidden = shown.length > 0;
  }

  // --- to the game ------------------------------------------------------------------------------
  function enter(gameId, seat, token, gameName) {
    // fromSeek: if the game is aborted, its page looks for the seek posted again
    rememberGame(gameId, { tokens: { [seat]: token }, game: gameName, fromSeek: true });
    waiting = null;
    location.hash = `#/game/${gameId}`;
  }
  function wait(seekToken, seek) {
    waiting = { id: seek.id, token: seekToken, game: seek.game };
    waitingBox.hidden = false;
    buttons.hidden = choices.hidden = true;
    hold();
    clearInterval(poller);
    poller = setInterval(check, 3000);  // also when the websocket is away
    drawSeeks();
  }
  async function check() {
    if (!waiting) return;
    const current = waiting;
    try {
      const seek = await api(`/api/seeks/${current.id}`, { headers: { "X-Seek-Token": current.token } });
      if (seek.token && waiting === current) enter(seek.game_id, seek.seat, seek.token, current.game);
      else if (!["open", "starting", "started"].includes(seek.status)) stopWaiting();
    } catch (err) { /* the next check tries again */ }
  }
  function stopWaiting() {
    waiting = null;
    clearInterval(poller);
    waitingBox.hidden = true;
    buttons.hidden = choices.hidden = false;
    drawSeeks();
  }
  function hold() {
    if (waiting && socket && socket.readyState === 1) {
      socket.send(JSON.stringify({ type: "hold", id: waiting.id, seek_token: waiting.token }));
    }
  }
  function answered(answer) {
    if (answer.game) enter(answer.game, answer.seat, answer.token, answer.seek ? answer.seek.game : null);
    else wait(answer.seek_token, answer.seek);
  }

  // --- what the buttons do ----------------------------------------------------------------------
  async function playNow(g) {
    const players = g.seatings[0].players;
    const body = { game: g.name, options: {}, players, rated: ratedInput.checked };
    if (clockSelect.value !== "") body.time_control = presets[Number(clockSelect.value)];
    if (myName()) body.name = myName();
    try {
      const answer = await api("/api/lobby/play-now", { method: "POST", body, headers });
      if (answer.game) enter(answer.game, answer.seat, answer.token, g.name);
      else answered(answer);
    } catch (err) { toast(err.message, true, err.detail); }
  }
  async function accept(s) {
    const body = myName() ? { name: myName() } : {};
    try {
      const answer = await api(`/api/seeks/${s.id}/accept`, { method: "POST", body, headers });
      if (answer.game) enter(answer.game, answer.seat, answer.token, s.game);
      else answered(answer);
    } catch (err) { toast(err.message, true, err.detail); }
  }
  async function cancel() {
    if (!waiting) return;
    const current = waiting;
    try {
      await api(`/api/seeks/${current.id}`, { method: "DELETE", headers: { "X-Seek-Token": current.token } });
    } catch (err) { if (err.status !== 410) toast(err.message, true, err.detail); }
    stopWaiting();
  }

  // --- live -------------------------------------------------------------------------------------
  function onMessage(message) {
    if (onOther) onOther(message);
    if (message.type === "lobby") {
      seeks.clear();
      games.clear();
      for (const s of message.seeks) seeks.set(s.id, s);
      for (const g of message.games) games.set(g.id, g);
      drawSeeks();
      drawGames();
    } else if (message.type === "seek") {
      if (message.seek.status === "open") seeks.set(message.seek.id, message.seek);
      drawSeeks();
    } else if (message.type === "seek_gone") {
      seeks.delete(message.id);
      drawSeeks();
      if (waiting && waiting.id === message.id) {
        if (message.game) check();
        else stopWaiting();
      }
    } else if (message.type === "game") {
      games.set(message.game.id, message.game);
      drawGames();
    }
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/lobby/ws`);
    socket.addEventListener("open", () => { retry = 500; hold(); });
    socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (closed) return;
      retry = Math.min(retry * 2, 10000);
      setTimeout(() => { if (!closed) connect(); }, retry);
    });
  }
  connect();
  // a game page whose game (made from a seek) was aborted by the other side: its seek is back in
  // the lobby, and this page waits on it (holds it, polls it) as on one it posted
  const again = sessionStorage.getItem("palaestra.seekAgain");
  if (again) {
    sessionStorage.removeItem("palaestra.seekAgain");
    try {
      const { seek, token } = JSON.parse(again);
      if (seek && token && seek.status === "open") wait(token, seek);
    } catch { /* not ours: nothing to wait on */ }
  }
  const ping = setInterval(() => { if (socket && socket.readyState === 1) socket.send('{"type":"ping"}'); }, 25000);
  onLeave(() => { closed = true; clearInterval(ping); clearInterval(poller); if (socket) socket.close(); });
}

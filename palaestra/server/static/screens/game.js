// The game screen (#/game/ID): play or watch a game, live over its websocket. This module holds the
// screen's state (the view, this browser's seats, a request in flight), its requests (play, refuse,
// undo, hint, resign) and puts the parts together on each change; the parts drawn from the view
// alone are in game-panels.js, the hints in hints.js, the board in boards.js, the socket in socket.js.

import { t, gameT, language } from "/static/i18n.js";
import { el, lastMover } from "/static/dom.js";
import { api, gameInfo, plainError } from "/static/api.js";
import { mineOf, page, rememberGame, setSeatColours } from "/static/state.js";
import { toast, moveLine, moveLabel, describer, personName, colourName } from "/static/ui.js";
import { makeBoard, rendererFor } from "/static/boards.js";
import { live } from "/static/socket.js";
import { tickClocks, autoplayText, controlText, clockBadge } from "/static/clock.js";
import { unjoinedSeats, playerRows, statusText, resultBanner, gameAsText, download } from "/static/screens/game-panels.js";
import { createHints } from "/static/screens/hints.js";
import { memberSeats } from "/static/member.js";
import { turnSignal } from "/static/turnsignal.js";
import { playSound } from "/static/sounds.js";
import { viewerSeat, seatTurn, turnBoard } from "/static/orientation.js";
import { confirmKind, confirmParts } from "/static/confirmmove.js";

export default async function gamePage({ id }, { root, onLeave }) {
  let view = await api(`/api/games/${id}`);
  page.game = view.game;
  const mine = mineOf(id);
  const myTokens = mine.tokens || {};
  // this browser's seats: by token, and by account for a signed-in member (issue 28): a member acts
  // without a token (the session cookie and its CSRF token say who)
  const mySeats = [...new Set([...Object.keys(myTokens).map(Number), ...memberSeats(view)])];
  const withToken = (seat, body) => (myTokens[seat] ? { token: myTokens[seat], ...body } : body);

  // the game's own parts (its module, texts, moves in words), known once its renderer is loaded
  let gameModule = null;
  let gt = t;
  let describe = () => null;

  // --- the screen's elements ---------------------------------------------------------------------
  const boardBox = el("div", { class: "board-wrap", id: "board" });
  const playersBox = el("ul", { class: "players", id: "players" });
  // whose turn is a live region, and the moves of the others are announced (finding 12)
  const statusBox = el("div", { class: "status", id: "status", role: "status", "aria-live": "polite" });
  const announceBox = el("div", { class: "sr-only", id: "announce", "aria-live": "polite" });
  // on a phone the side panel is under the board: whose turn it is shows above it too
  const statusTop = el("div", { class: "status status-top", id: "status-top", "aria-hidden": "true" });
  const resultBox = el("div", { id: "result" });
  const legalBox = el("div", { class: "legal", id: "legal" });
  const legalCard = el("details", { class: "card", id: "legal-card" }, el("summary", { text: t("Legal moves") }), legalBox);
  const movesBox = el("ol", { class: "moves", id: "moves" });
  const hintList = el("ol", { class: "hints", id: "hints" });
  const hintHead = el("p", { class: "muted small", id: "hint-head" });
  const hintButton = el("button", { class: "secondary", id: "hint", type: "button", title: t("the AI's best moves in this position") }, t("Hint"));
  const hintsOff = el("p", { class: "muted small", id: "hints-off", hidden: true, text: t("Hints are off in this game.") });
  const resignButton = el("button", { class: "secondary", id: "resign", type: "button" }, t("Resign"));
  // issue 29: abort before every seat moved, claim the win from a player who is gone, rematch
  const abortButton = el("button", { class: "secondary", id: "abort", type: "button", hidden: true, title: t("end the game without a result: not every player has moved yet") }, t("Abort"));
  const claimButton = el("button", { class: "secondary", id: "claim", type: "button", hidden: true, title: t("your opponent's connections have all been gone for a minute") }, t("Claim the win"));
  const rematchButton = el("button", { id: "rematch", type: "button", hidden: true }, t("Rematch"));
  const undoButton = el("button", { class: "secondary", id: "undo", type: "button", title: t("take back your last action of this turn") }, t("Undo"));
  const invitesBox = el("div", { id: "invites" });
  const clockLine = el("div", { class: "muted small", id: "clock-control" });
  const actions = el("div", { class: "card" }, el("div", { class: "field" }, undoButton, hintButton, resignButton, abortButton, claimButton, rematchButton), hintsOff, hintHead, hintList);
  // on a phone the board can be zoomed to tap its fields (finding 11)
  const zoomButton = el("button", { type: "button", class: "secondary small zoom", id: "board-zoom", "aria-pressed": "false", onclick: () => {
    zoomButton.setAttribute("aria-pressed", String(boardBox.classList.toggle("zoomed")));
  } }, t("Zoom the board"));
  // the board turned to this browser's side, and half round more on request (issue 30)
  let flipped = false;
  const flipButton = el("button", { type: "button", class: "secondary small flip", id: "flip-board", "aria-pressed": "false", onclick: () => {
    flipped = !flipped;
    flipButton.setAttribute("aria-pressed", String(flipped));
    orient();
  } }, t("Flip board"));
  // a move waits for Confirm before it is sent (issue 30): by default in correspondence games
  const confirming = confirmParts(confirmKind(view), () => draw());
  // downloads with a file name (finding 9: the JSON opened in a tab): the record, the moves as text
  const exports = el("p", { class: "small export" }, el("a", { href: `#/replay/${id}` }, t("replay")), " · ",
    el("a", { href: `/api/games/${id}/record`, download: `palaestra-${view.game}-${id}.json`, id: "export-json" }, t("record (JSON)")), " · ",
    el("a", { href: "#", id: "export-text", role: "button", onclick: (event) => {
      event.preventDefault();
      download(gameAsText(view, { describe, gameModule, gt }), `palaestra-${view.game}-${id}.txt`);
    } }, t("moves (text)")));

  root.replaceChildren(el("div", { class: "game" },
    el("div", {}, el("h1", { class: "screen-title" }, `${view.title} `, el("span", { class: "muted small", text: `#${view.id}` }), " ", zoomButton, " ", flipButton, " ",
      view.rated ? el("span", { class: "tag rated", id: "rated-tag", title: t("this game counts on the players' ratings") }, t("Rated")) : null, " ",
      el("a", { class: "small rules-link", id: "rules-link", href: `/rules/${view.game}?lang=${language}&game=${id}`, target: "_blank", rel: "noopener" }, t("Rules"))),
    statusTop, resultBox, confirming.bar, boardBox, announceBox),
    el("aside", { class: "side" },
      el("div", { class: "card" }, statusBox, playersBox, clockLine),
      invitesBox,
      legalCard,
      mySeats.length ? actions : el("p", { class: "muted small", text: t("You are watching this game.") }),
      mySeats.length ? el("div", { class: "card small" }, confirming.toggle) : null,
      el("div", { class: "card" }, el("h2", { class: "h3", text: t("Moves") }), movesBox, exports))));

  // --- the game's own parts: its board, texts and module --------------------------------------------
  const board = await makeBoard(view.game, boardBox);
  setSeatColours(board.colours, board.colourNames);
  const info = await gameInfo(view.game);
  gt = await gameT(info); // the game's own texts
  gameModule = await rendererFor(view.game);
  undoButton.hidden = !(info && info.undo) || view.rated;  // games whose rules allow taking actions back
  if (board.custom === undefined) legalCard.open = !gameModule;
  // a move in words: the game's own sentence (its module's describeMove), else its notation
  describe = describer(gameModule, gt);
  const moveText = (move) => moveLabel(move, describe);

  // a link in a read-only field with a button that copies it
  const copyField = (url, attrs) => {
    const input = el("input", { readonly: true, value: url, ...attrs });
    return el("div", { class: "invite" }, input,
      el("button", { type: "button", class: "secondary", onclick: async () => {
        input.select();
        try { await navigator.clipboard.writeText(url); toast(t("Link copied")); } catch { document.execCommand("copy"); toast(t("Link copied")); }
      } }, t("Copy")));
  };
  // invitations this browser made
  for (const [seat, url] of Object.entries(mine.invites || {})) {
    invitesBox.append(el("div", { class: "card invite-card", "data-seat": seat },
      el("div", { class: "small", text: t("Invitation for {name}:", { name: colourName(view.seats[seat]) }) }),
      copyField(url, { "data-seat": seat })));
  }
  // a public game's link for spectators (issue 29): the game's page alone, never a seat's token
  // (a browser without this game's tokens watches it)
  if (view.public) {
    const watchUrl = `${location.origin}/#/game/${encodeURIComponent(id)}`;
    invitesBox.append(el("div", { class: "card", id: "watch-link" },
      el("div", { class: "small", text: t("Share to watch: anyone with this link can watch the game.") }),
      copyField(watchUrl, { id: "watch-url", "aria-label": t("Link to watch this game") })));
  }

  // --- requests ------------------------------------------------------------------------------------
  let pending = false;
  let askedPly = null;  // the position of a move waiting for Confirm
  let askedAction = null;  // and that move
  // the game again from the server, after a refusal (at least as new as the one on screen)
  async function reload() {
    const current = await api(`/api/games/${id}?version=${view.version}`);
    if (current.version >= view.version) view = current;
  }

  async function play(action) {
    if (pending) return;
    const player = view.current_player;
    if (!mySeats.includes(player)) { toast(t("It is not your turn"), true); return; }
    if (confirming.waiting()) return;  // one move waits for Confirm at a time
    if (confirming.on()) {
      // the move waits on the page, pending, until it is confirmed (the board takes no clicks)
      const legal = view.legal.find((l) => l.action === action);
      const ply = view.ply;
      askedPly = ply;
      askedAction = action;
      const asked = confirming.ask(legal ? moveText(legal.move) : String(action));
      draw();
      const ok = await asked;
      askedPly = null;
      askedAction = null;
      if (!ok || view.ply !== ply) { draw(); return; }
    }
    pending = true;
    try {
      const next = await api(`/api/games/${id}/actions`, { method: "POST", body: withToken(player, { ply: view.ply, action }) });
      pending = false;
      if (next.version >= view.version) view = next;
    } catch (err) {
      pending = false;
      toast(err.message, true, err.detail);
      await reload();
    }
    draw();
  }

  // A click on the board that it does not offer as a move (a field no monk can reach, a cube that
  // cannot go there): the board names the move the player tried and the server says why it is not
  // allowed (finding 3: such clicks did nothing). Nothing changes; the board is drawn again.
  async function refuse(move) {
    const player = view.current_player;
    if (pending || !mySeats.includes(player)) return;
    pending = true;
    try {
      const next = await api(`/api/games/${id}/actions`, { method: "POST", body: withToken(player, { ply: view.ply, move }) });
      if (next.version >= view.version) view = next;  // it was allowed after all: played
    } catch (err) {
      // a move the engine cannot even read ("B and m16 are not neighbours") is not allowed either
      const code = err.code === "bad_notation" ? "illegal_action" : err.code;
      toast(plainError(code, err.status, err.detail), true, err.detail);
    }
    pending = false;
    draw();
  }

  undoButton.addEventListener("click", async () => {
    if (pending) return;
    if (!mySeats.includes(view.undo)) return;
    pending = true;
    try {
      const next = await api(`/api/games/${id}/undo`, { method: "POST", body: withToken(view.undo, { ply: view.ply }) });
      if (next.version >= view.version) view = next;
    } catch (err) {
      toast(err.message, true, err.detail);
      await reload();
    }
    pending = false;
    draw();
  });

  let turnIsMine = false;
  const hints = createHints({ board: boardBox, list: hintList, head: hintHead, isMyTurn: () => turnIsMine, play, moveText });
  hintButton.addEventListener("click", async () => {
    const token = myTokens[view.current_player];
    if (!token) { toast(t("Hints are for your own turn"), true); return; }
    hints.thinking();
    try {
      hints.show(await api(`/api/games/${id}/hint?top=3`, { headers: { "X-Seat-Token": token } }), view.ply);
    } catch (err) {
      hints.clear();
      toast(err.message, true, err.detail);
    }
  });

  resignButton.addEventListener("click", async () => {
    const seat = mySeats.includes(view.current_player) ? view.current_player : mySeats[0];
    if (!confirm(t("Resign for {name}? The game ends.", { name: personName(view.seats[seat]) }))) return;
    try {
      view = await api(`/api/games/${id}/resign`, { method: "POST", body: withToken(seat, {}) });
      draw();
    } catch (err) { toast(err.message, true, err.detail); }
  });

  async function endingCall(path, seat) {
    try {
      view = await api(`/api/games/${id}/${path}`, { method: "POST", body: withToken(seat, {}) });
      draw();
    } catch (err) { toast(err.message, true, err.detail); }
  }
  let abortedHere = false;
  abortButton.addEventListener("click", () => {
    if (!confirm(t("Abort this game? It ends without a result."))) return;
    abortedHere = true;
    endingCall("abort", mySeats[0]);
  });

  // issue 29: a game made from a seek, aborted by the other side while this page is open: the seek
  // is back in the lobby (its id: the game's and "a"; a place's secret: its seat token there), and
  // the page goes to the lobby to wait on it
  const activeAtLoad = view.status === "active";
  let lookedForSeek = false;
  async function seekAgain() {
    if (lookedForSeek || abortedHere || !activeAtLoad || !mine.fromSeek) return;
    lookedForSeek = true;
    for (const seat of mySeats) {
      const token = myTokens[seat];
      if (!token) continue;
      try {
        const seek = await api(`/api/seeks/${id}a`, { headers: { "X-Seek-Token": token } });
        if (seek.status !== "open") continue;
        sessionStorage.setItem("palaestra.seekAgain", JSON.stringify({ seek, token }));
        toast(t("The game was aborted: your seek is back in the lobby."));
        location.hash = "#/";
        return;
      } catch { /* no seek for this seat (it was not posted again): stay on the game */ }
    }
  }
  claimButton.addEventListener("click", () => endingCall("claim", mySeats[0]));

  // a rematch: every seat of this page agrees; once the new game is made each seat's answer
  // gives its seat and token there, and the page moves to it
  let moving = false;
  const acceptedAtLoad = Boolean(view.rematch && view.rematch.game);  // an old game: no jump
  async function rematch() {
    if (moving) return;
    moving = true;
    try {
      let made = null;
      const tokens = {};
      for (const seat of mySeats) {
        const answer = await api(`/api/games/${id}/rematch`, { method: "POST", body: withToken(seat, {}) });
        if (answer.game) {
          made = answer.game;
          if (answer.token) tokens[answer.seat] = answer.token;
        }
      }
      if (made) {
        rememberGame(made, { tokens, game: view.game });
        location.hash = `#/game/${made}`;
        return;
      }
      view = await api(`/api/games/${id}`);
      draw();
    } catch (err) { toast(err.message, true, err.detail); }
    moving = false;
  }
  rematchButton.addEventListener("click", rematch);

  // --- drawing: everything from the view, on every change --------------------------------------------
  let announced = null;  // the moves already on screen
  function draw() {
    const autoplay = autoplayText(view);  // the AI plays a turn whose time ran out
    const unjoined = unjoinedSeats(view);
    const myTurn = view.status === "active" && mySeats.includes(view.current_player) && !autoplay && !unjoined.length;
    const teams = gameModule && gameModule.teamsOf ? gameModule.teamsOf(view) : null;
    // an invitation whose guest has joined is done: hide it
    for (const card of invitesBox.querySelectorAll(".invite-card")) {
      const seat = view.seats[Number(card.dataset.seat)];
      card.hidden = Boolean(seat && seat.joined);
    }
    playersBox.replaceChildren(...playerRows(view, { mySeats, teams, gt }));
    clockLine.textContent = view.clock ? controlText(view.clock.control) : "";
    statusBox.className = "status" + (myTurn ? " mine" : "");
    statusBox.textContent = statusText(view, { myTurn, unjoined, autoplay });
    statusTop.textContent = statusBox.textContent;
    statusTop.className = statusBox.className + " status-top";
    const running = view.clock && view.clock.seats.find((c) => c.running);
    if (running) statusTop.append(" ", clockBadge(view, running.seat));  // on a phone, above the board
    statusBox.dataset.ply = view.ply;
    statusBox.dataset.version = view.version;
    statusBox.dataset.mine = myTurn ? "1" : "0";
    const banner = resultBanner(view, { id, mySeats, teams, gameModule, gt });
    resultBox.replaceChildren(...(banner ? [banner] : []));
    // the moves the others made since the last drawing, said to screen readers
    const fresh = view.moves.slice(announced).filter((mv) => mv.player >= 0 && !mySeats.includes(mv.player));
    if (announced !== null && fresh.length) announceBox.textContent = fresh.map((mv) => moveLine(mv, view.seats, describe)).join(". ");
    announced = view.moves.length;
    movesBox.replaceChildren(...view.moves.map((mv) => el("li", { class: mv.player < 0 ? "chance" : "", "data-move": mv.move, title: mv.move },
      moveLine(mv, view.seats, describe))));
    movesBox.scrollTop = movesBox.scrollHeight;
    // legal moves as buttons (always available; boards add clicking on the board itself)
    legalBox.replaceChildren(...(myTurn && !confirming.waiting() ? view.legal : []).map((l) => el("button", { type: "button", "data-action": l.action, "data-move": l.move, title: l.move, onclick: () => play(l.action) }, moveText(l.move))));
    hintButton.disabled = !myTurn;
    hintButton.hidden = !view.hints;  // a game between people whose creator did not allow them
    hintsOff.hidden = Boolean(view.hints);
    undoButton.disabled = !(myTurn && view.undo !== null && view.undo !== undefined && mySeats.includes(view.undo));
    resignButton.disabled = view.status !== "active";
    const playing = mySeats.length > 0;
    const moved = new Set(view.moves.map((mv) => mv.player));
    abortButton.hidden = !(playing && view.status === "active" && view.seats.some((s) => !moved.has(s.seat)));
    const absent = view.seats[view.current_player];
    claimButton.hidden = !(playing && view.status === "active" && view.clock && absent && absent.kind === "human" && !mySeats.includes(view.current_player));
    const offer = view.rematch;
    rematchButton.hidden = !(playing && view.status === "finished" && view.seats.every((s) => s.kind !== "human" || s.joined));
    rematchButton.disabled = Boolean(offer && mySeats.includes(offer.offered_by) && !offer.game);
    rematchButton.textContent = offer && !offer.game
      ? (mySeats.includes(offer.offered_by) ? t("Rematch offered") : t("Accept rematch"))
      : t("Rematch");
    if (offer && offer.game && playing && !acceptedAtLoad) rematch();  // accepted: on to the new game
    if (view.status === "finished" && view.result && view.result.termination === "abort" && playing) seekAgain();
    if (!myTurn || hints.ply !== view.ply) hints.clear();
    turnIsMine = myTurn;
    if (askedPly !== null && askedPly !== view.ply) confirming.cancel();  // the game moved on
    // a move waiting for Confirm is the one move the board shows (its piece and where it goes,
    // marked "pending"), and the board takes no clicks meanwhile
    const asking = confirming.waiting();
    const offered = !myTurn ? [] : asking ? view.legal.filter((l) => l.action === askedAction) : view.legal;
    board.update(view, { interactive: myTurn && !pending, legal: offered, play, refuse: asking ? null : refuse, mySeats, replay: false });
    boardBox.classList.toggle("asking", asking);
    if (asking) for (const node of boardBox.querySelectorAll(`[data-action="${askedAction}"]`)) node.classList.add("pending");
    orient();
    hints.mark();
    turnSignal(myTurn);
    sound();
  }

  // the board turned to this browser's side (the game's turnFor), flipped on request
  const viewer = viewerSeat(mySeats, view.seats.length);
  function orient() { turnBoard(boardBox, seatTurn(gameModule, view, viewer) + (flipped ? 180 : 0)); }

  // a sound for every new move: this browser's, the others', the end of the game (sounds.js)
  let heard = null;
  function sound() {
    const count = view.moves.length;
    if (heard !== null && count > heard) {
      const mover = lastMover(view.moves.slice(heard));
      if (view.status === "finished") playSound("end");
      else if (mover !== null) playSound(mySeats.includes(mover) ? "mine" : "other");
    }
    heard = count;
  }
  draw();

  // live updates: every change raises the version; the same version (the socket's first message,
  // mostly) is the game as drawn, and drawing it again would take the keyboard's focus off the board
  const closeSocket = live(id, (game) => { if (game.version > view.version) { view = game; draw(); } },
    () => Object.values(myTokens).map((token) => ({ type: "seat", token })));
  const stopClocks = tickClocks(root, () => view.clock && view.clock.control);
  onLeave(() => { closeSocket(); stopClocks(); confirming.cancel(); turnSignal(false); if (board.destroy) board.destroy(); });
}

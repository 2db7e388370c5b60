// The game screen (#/game/ID): play or watch a game, live over its websocket. The board is the
// game's renderer (boards.js); the side panel has whose turn, the players and scores, invitations,
// the legal moves, undo, hint, resign and the move list.

import { t, gameT, playerName, language } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, gameInfo, plainError, plainHelp } from "/static/api.js";
import { mineOf, page, setSeatColours, seatColour } from "/static/state.js";
import { toast, resultText, endReason, outlook, moveLine, moveLabel, describer, outcomeFor, seatName, isDefaultAiName, formatScore } from "/static/ui.js";
import { makeBoard, rendererFor } from "/static/boards.js";
import { live } from "/static/socket.js";
import { clockBadge, tickClocks, autoplayText, controlText, timeoutsTag } from "/static/clock.js";

export default async function gamePage({ id }, { root, onLeave }) {
  let view = await api(`/api/games/${id}`);
  page.game = view.game;
  const mine = mineOf(id);
  const myTokens = mine.tokens || {};
  const mySeats = Object.keys(myTokens).map(Number);

  const boardBox = el("div", { class: "board-wrap", id: "board" });
  const playersBox = el("ul", { class: "players", id: "players" });
  // whose turn is a live region, and the moves of the others are announced (finding 12)
  const statusBox = el("div", { class: "status", id: "status", role: "status", "aria-live": "polite" });
  const announceBox = el("div", { class: "sr-only", id: "announce", "aria-live": "polite" });
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
  const hintsOff = el("p", { class: "muted small", id: "hints-off", hidden: true, text: t("Hints are off in this game.") });
  const hintHead = el("p", { class: "muted small", id: "hint-head" });
  const actions = el("div", { class: "card" }, el("div", { class: "field" }, undoButton, hintButton, resignButton), hintsOff, hintHead, hintList);

  root.replaceChildren(el("div", { class: "game" },
    el("div", {}, el("h2", {}, `${view.title} `, el("span", { class: "muted small", text: `#${view.id}` }), " ",
      el("button", { type: "button", class: "secondary small zoom", id: "board-zoom", "aria-pressed": "false", onclick: (event) => {
        const on = boardBox.classList.toggle("zoomed");
        event.currentTarget.setAttribute("aria-pressed", String(on));
      } }, t("Zoom the board")), " ",
      el("a", { class: "small rules-link", id: "rules-link", href: `/rules/${view.game}?lang=${language}&game=${id}`, target: "_blank", rel: "noopener" }, t("Rules"))),
    statusTop, resultBox, boardBox, announceBox),
    el("aside", { class: "side" },
      el("div", { class: "card" }, statusBox, playersBox, clockLine),
      invitesBox,
      legalCard,
      mySeats.length ? actions : el("p", { class: "muted small", text: t("You are watching this game.") }),
      el("div", { class: "card" }, el("h3", { text: t("Moves") }), movesBox,
        el("p", { class: "small export" }, el("a", { href: `#/replay/${id}` }, t("replay")), " · ",
          // downloads with a file name (finding 9: the JSON opened in a tab): the record, and the
          // moves as text to read
          el("a", { href: `/api/games/${id}/record`, download: `palaestra-${view.game}-${id}.json`, id: "export-json" }, t("record (JSON)")), " · ",
          el("a", { href: "#", id: "export-text", role: "button", onclick: (event) => { event.preventDefault(); downloadText(); } }, t("moves (text)")))))));

  // the game as text for people: title, players, every move (in words, with its notation), result
  function downloadText() {
    const names = view.seats.map((seat) => playerName(seat.player_name) + (seatName(seat) ? ` (${seatName(seat)})` : ""));
    const lines = [`${view.title} #${view.id}`, t("Players: {list}", { list: names.join(", ") })];
    if (view.clock) lines.push(t("Clock: {control}", { control: controlText(view.clock.control) }));
    lines.push("");
    view.moves.forEach((mv, i) => {
      const line = moveLine(mv, view.seats, describe);
      lines.push(`${i + 1}. ${line}${line.includes(mv.move) ? "" : ` [${mv.move}]`}`);
    });
    if (view.result) {
      const reason = endReason(view, gameModule, gt);
      lines.push("", `${resultText(view.result, view.seats, Boolean(gameModule && gameModule.teamsOf && gameModule.teamsOf(view)))}${reason ? ` (${reason})` : ""}`);
      lines.push(t("Scores: {list}", { list: view.seats.map((seat, i) => `${playerName(seat.player_name)} ${formatScore(view.result.scores[i])}`).join(", ") }));
    }
    const link = el("a", { href: URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/plain;charset=utf-8" })), download: `palaestra-${view.game}-${id}.txt` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }

  const board = await makeBoard(view.game, boardBox);
  setSeatColours(board.colours);
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

  // A click on the board that it does not offer as a move (a field no monk can reach, a cube that
  // cannot go there): the board names the move the player tried and the server says why it is not
  // allowed (finding 3: such clicks did nothing). Nothing changes; the board is drawn again.
  async function refuse(move) {
    const token = myTokens[view.current_player];
    if (pending || !token) return;
    pending = true;
    try {
      const next = await api(`/api/games/${id}/actions`, { method: "POST", body: { token, ply: view.ply, move } });
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
    hintHead.textContent = t("thinking…");
    hintList.replaceChildren();
    try {
      const hints = await api(`/api/games/${id}/hint?top=3`, { headers: { "X-Seat-Token": token } });
      showHints(hints);
    } catch (err) {
      hintList.replaceChildren();
      hintHead.textContent = "";
      toast(err.message, true, err.detail);
    }
  });

  // Hints in words (finding 6: they were "B-h1 (0.03, strong)"): who suggests them, how the
  // position looks for the player after each, a button that plays it; the first is marked on the
  // board (its target, else the piece that makes it), again after every redraw.
  let hinted = [];
  function showHints(hints) {
    hinted = hints.map((h) => h);
    hinted.ply = view.ply;
    hintHead.textContent = hints.length ? t("The AI ({level}) suggests:", { level: t(hints[0].agent) }) : "";
    if (!hints.length) { hintList.replaceChildren(); markHints(); return; }
    hintList.replaceChildren(
      ...hints.map((h, i) => el("li", { "data-hint": h.action, "data-move": h.move, class: i === 0 ? "hint best" : "hint" },
        el("span", { class: "hint-move", text: moveText(h.move) }), " ",
        el("span", { class: "muted small", text: outlook(h.value) }), " ",
        el("button", { type: "button", class: "secondary small", onclick: () => play(h.action) }, t("Play")))));
    markHints();
  }
  function markHints() {
    for (const node of boardBox.querySelectorAll(".hinted")) node.classList.remove("hinted");
    const best = hinted[0];
    if (!best || !myTurnNow()) return;
    let nodes = [...boardBox.querySelectorAll(`[data-action="${best.action}"]`)];
    if (!nodes.length) {  // a move of two clicks: the piece to pick first ("a2-b4": the cube on a2)
      const from = String(best.move).split("-")[0];
      nodes = [...boardBox.querySelectorAll("[data-from], [data-pick]")].filter((n) => (n.getAttribute("data-from") || n.getAttribute("data-pick")) === from);
    }
    for (const node of nodes) node.classList.add("hinted");
  }
  new MutationObserver(() => { if (hinted.length && !boardBox.querySelector(".hinted")) markHints(); })
    .observe(boardBox, { childList: true, subtree: true });

  resignButton.addEventListener("click", async () => {
    const seat = mySeats.includes(view.current_player) ? view.current_player : mySeats[0];
    if (!confirm(t("Resign for {name}? The game ends.", { name: playerName(view.seats[seat].player_name) }))) return;
    try {
      view = await api(`/api/games/${id}/resign`, { method: "POST", body: { token: myTokens[seat] } });
      draw();
    } catch (err) { toast(err.message, true, err.detail); }
  });

  let turnIsMine = false;
  let announced = null;  // the moves already on screen
  const myTurnNow = () => turnIsMine;
  // a move in words: the game's own sentence (its module's describeMove), else its notation
  const describe = describer(gameModule, gt);
  const moveText = (move) => moveLabel(move, describe);

  function draw() {
    const autoplay = autoplayText(view);  // the AI plays a turn whose time ran out
    // nobody plays before every invited friend has joined (finding 14): their clocks do not run either
    const unjoined = view.status === "active" ? view.seats.filter((s) => s.kind === "human" && !s.joined) : [];
    const myTurn = view.status === "active" && mySeats.includes(view.current_player) && !autoplay && !unjoined.length;
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
    else if (unjoined.length) {
      statusBox.textContent = t("Waiting for {names} to join", { names: unjoined.map((s) => playerName(s.player_name)).join(t(" and ")) });
    } else if (view.current_player === -1) statusBox.textContent = t("Drawing…");
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
        el("div", { id: "result-winner", text: resultText(view.result, view.seats, Boolean(teams)), title: plainHelp(view.result.text), "data-engine-text": view.result.text }),
        el("div", { id: "result-reason", text: endReason(view, gameModule, gt) || "" }),
        el("div", { class: "small", text: t("Scores: {list}", { list: view.seats.map((s, i) => `${playerName(s.player_name)} ${formatScore(view.result.scores[i])}`).join(", ") }) }),
        el("div", { class: "small" }, el("a", { href: `#/replay/${id}` }, t("Replay this game")), " · ", el("a", { href: "#/" }, t("New game")))));
    } else if (view.status === "active" && view.dead_position) {
      resultBox.replaceChildren(el("div", { class: "result", id: "dead-notice" },
        el("div", { text: t("Nobody can win outright any more.") }),
        el("div", { class: "small", text: t("Play goes on to the move limit (move {ply} of {max}); then the scores decide. A player may resign to end it now.", { ply: view.ply, max: view.max_plies }) })));
    } else resultBox.replaceChildren();
    // the moves the others made since the last drawing, said to screen readers
    const fresh = view.moves.slice(announced).filter((mv) => mv.player >= 0 && !mySeats.includes(mv.player));
    if (announced !== null && fresh.length) announceBox.textContent = fresh.map((mv) => moveLine(mv, view.seats, describe)).join(". ");
    announced = view.moves.length;
    // moves
    movesBox.replaceChildren(...view.moves.map((mv) => el("li", { class: mv.player < 0 ? "chance" : "", "data-move": mv.move, title: mv.move },
      moveLine(mv, view.seats, describe))));
    movesBox.scrollTop = movesBox.scrollHeight;
    // legal moves as buttons (always available; boards add clicking on the board itself)
    legalBox.replaceChildren(...(myTurn ? view.legal : []).map((l) => el("button", { type: "button", "data-action": l.action, "data-move": l.move, title: l.move, onclick: () => play(l.action) }, moveText(l.move))));
    hintButton.disabled = !myTurn;
    hintButton.hidden = !view.hints;  // a game between people whose creator did not allow them
    hintsOff.hidden = Boolean(view.hints);
    const canUndo = myTurn && view.undo !== null && view.undo !== undefined && mySeats.includes(view.undo);
    undoButton.disabled = !canUndo;
    resignButton.disabled = view.status !== "active";
    if (!myTurn || hinted.ply !== view.ply) { hinted = []; hintList.replaceChildren(); hintHead.textContent = ""; }
    turnIsMine = myTurn;
    board.update(view, { interactive: myTurn && !pending, legal: myTurn ? view.legal : [], play, refuse, mySeats, replay: false });
    markHints();
  }
  draw();

  // live updates: every change raises the version; the same version (the socket's first message,
  // mostly) is the game as drawn, and drawing it again would take the keyboard's focus off the board
  const closeSocket = live(id, (game) => { if (game.version > view.version) { view = game; draw(); } });
  const stopClocks = tickClocks(root, () => view.clock && view.clock.control);
  onLeave(() => { closeSocket(); stopClocks(); if (board.destroy) board.destroy(); });
}

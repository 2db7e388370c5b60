// The replay screen (#/replay/ID[/PLY]): step through a game (buttons, slider, arrow keys, the move
// list); on a finished game, the AI's view of each move.

import { t, gameT, playerName, language } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, gameInfo, plainHelp } from "/static/api.js";
import { page, setSeatColours, seatColour } from "/static/state.js";
import { resultText, endReason, followList, formatScore, describer, moveLine, moveLabel, personName } from "/static/ui.js";
import { makeBoard, rendererFor } from "/static/boards.js";

export default async function replayPage({ id, ply: plyPart }, { root, onLeave }) {
  const startPly = plyPart ? Number(plyPart) : null;
  const game = await api(`/api/games/${id}`);
  page.game = game.game;
  const gameModule = await rendererFor(game.game);
  const gt = await gameT(await gameInfo(game.game));
  const together = Boolean(gameModule && gameModule.teamsOf && gameModule.teamsOf(game)); // partners win together
  const total = game.ply;
  let ply = startPly === null || Number.isNaN(startPly) ? total : Math.max(0, Math.min(total, startPly));
  const boardBox = el("div", { class: "board-wrap", id: "board" });
  const slider = el("input", { type: "range", min: 0, max: total, value: ply, id: "replay-slider", "aria-label": t("move shown") });
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
  root.replaceChildren(el("div", { class: "game" },
    el("div", {}, el("h1", { class: "screen-title" }, t("Replay: {title}", { title: game.title }) + " ", el("span", { class: "muted small", text: `#${id}` }), " ",
        el("a", { class: "small rules-link", id: "rules-link", href: `/rules/${game.game}?lang=${language}&game=${id}`, target: "_blank", rel: "noopener" }, t("Rules"))),
      el("div", { class: "replay-bar" },
        el("button", { type: "button", class: "secondary", id: "replay-first", title: t("first move"), "aria-label": t("first move"), onclick: () => go(0) }, "|◀"),
        el("button", { type: "button", class: "secondary", id: "replay-prev", title: t("previous move"), "aria-label": t("previous move"), onclick: () => go(ply - 1) }, "◀"),
        slider,
        el("button", { type: "button", class: "secondary", id: "replay-next", title: t("next move"), "aria-label": t("next move"), onclick: () => go(ply + 1) }, "▶"),
        el("button", { type: "button", class: "secondary", id: "replay-last", title: t("last move"), "aria-label": t("last move"), onclick: () => go(total) }, "▶|"),
        label),
      lastMove, boardBox),
    el("aside", { class: "side" },
      el("div", { class: "card" }, el("h2", { class: "h3", text: t("Score") }), scores),
      el("div", { class: "card" }, el("label", { class: "small" }, aiToggle,
        " " + (finished ? t("Show the AI's view of each move") : t("The AI's view of the moves is shown once the game is over"))), aiBox),
      game.result ? el("div", { class: "card", id: "replay-result", title: plainHelp(game.result.text) }, el("div", { text: resultText(game.result, game.seats, together) }),
        el("div", { class: "small", text: endReason(game, gameModule, gt) || "" })) : null,
      el("div", { class: "card" }, el("h2", { class: "h3", text: t("Moves") }), movesBox),
      el("a", { href: `#/game/${id}` }, t("Back to the game")))));
  const describe = describer(gameModule, gt);
  movesBox.replaceChildren(...game.moves.map((mv, i) => el("li", { class: mv.player < 0 ? "chance" : "", style: "cursor:pointer", "data-move": mv.move, title: mv.move, onclick: () => go(i + 1) },
    moveLine(mv, game.seats, describe))));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", onKey);
  function onKey(e) { if (e.key === "ArrowLeft") go(ply - 1); if (e.key === "ArrowRight") go(ply + 1); }
  const board = await makeBoard(game.game, boardBox);
  setSeatColours(board.colours, board.colourNames);
  let token = 0;
  async function show() {
    const mine = ++token;
    const r = await api(`/api/games/${id}/replay?ply=${ply}`);
    if (mine !== token) return;
    // the label, the move and the list change together, once the position is known (finding 16)
    label.textContent = t("move {n} / {total}", { n: ply, total });
    lastMove.textContent = r.last_move ? moveLine(r.last_move, game.seats, describe) : t("start");
    label.dataset.ply = ply;
    followList(movesBox, ply - 1);
    scores.replaceChildren(...game.seats.map((s, i) => el("li", {}, el("span", { class: "swatch", style: `background:${seatColour(i)}` }), personName(s), el("span", { class: "score", text: formatScore(r.scores[i]) }))));
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
    const who = a.player >= 0 ? personName(game.seats[a.player]) : t("chance");
    if (a.chance) { aiBox.replaceChildren(el("p", { class: "small", text: t("Move {n}: a chance draw ({move}).", { n: ply, move: a.played.move }) })); return; }
    const verdict = a.played_rank === 1 ? t("the AI's first choice")
      : a.played_rank ? t("the AI's choice #{rank} of {of} (value {value})", { rank: a.played_rank, of: a.of, value: a.played_value.toFixed(2) })
        : t("not among the {of} moves the AI looked at", { of: a.of });
    aiBox.replaceChildren(
      el("p", { class: "small", id: "ai-verdict" }, el("strong", { text: `${t("Move {n}, {name}", { n: ply, name: who })}: ${moveLabel(a.played.move, describe)}` }), " ", t("is {verdict}.", { verdict })),
      el("ol", { class: "hints", id: "ai-top" }, a.top.map((top) => el("li", { class: top.action === a.played.action ? "played" : "" },
        `${moveLabel(top.move, describe)} `, el("span", { class: "muted", text: `(${top.value.toFixed(2)})` })))),
      el("p", { class: "muted small", text: t("values: expected outcome for {name}, -1 to 1 ({agent})", { name: who, agent: a.agent }) }));
  }
  await show();
  onLeave(() => { document.removeEventListener("keydown", onKey); if (board.destroy) board.destroy(); });
}

// Hints on the game screen (finding 6: they were "B-h1 (0.03, strong)"): who suggests them, each
// move in words with how the position then looks for the player and a button that plays it; the
// best one is marked on the board (its target, else the piece that makes it), again after every
// redraw of the board.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { outlook } from "/static/ui.js";

// createHints({board, list, head, isMyTurn, play, moveText}) -> {show(hints, ply), clear(), mark(), ply}
export function createHints({ board, list, head, isMyTurn, play, moveText }) {
  let hinted = [];
  let hintedPly = null;
  function mark() {
    for (const node of board.querySelectorAll(".hinted")) node.classList.remove("hinted");
    const best = hinted[0];
    if (!best || !isMyTurn()) return;
    let nodes = [...board.querySelectorAll(`[data-action="${best.action}"]`)];
    if (!nodes.length) {  // a move of two clicks: the piece to pick first ("a2-b4": the cube on a2)
      const from = String(best.move).split("-")[0];
      nodes = [...board.querySelectorAll("[data-from], [data-pick]")].filter((n) => (n.getAttribute("data-from") || n.getAttribute("data-pick")) === from);
    }
    for (const node of nodes) node.classList.add("hinted");
  }
  new MutationObserver(() => { if (hinted.length && !board.querySelector(".hinted")) mark(); })
    .observe(board, { childList: true, subtree: true });
  return {
    thinking() { head.textContent = t("thinking…"); list.replaceChildren(); },
    show(hints, ply) {
      hinted = hints.slice();
      hintedPly = ply;
      head.textContent = hints.length ? t("The AI ({level}) suggests:", { level: t(hints[0].agent) }) : "";
      list.replaceChildren(...hints.map((h, i) => el("li", { "data-hint": h.action, "data-move": h.move, class: i === 0 ? "hint best" : "hint" },
        el("span", { class: "hint-move", text: moveText(h.move) }), " ",
        el("span", { class: "muted small", text: outlook(h.value) }), " ",
        el("button", { type: "button", class: "secondary small", onclick: () => play(h.action) }, t("Play")))));
      mark();
    },
    clear() { hinted = []; hintedPly = null; list.replaceChildren(); head.textContent = ""; },
    get ply() { return hintedPly; },
    mark,
  };
}

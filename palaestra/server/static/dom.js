// DOM helpers shared by the app (app.js), the rules pages (rules.js) and the game renderers (which
// get them through createBoard's helpers).

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const SVGNS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const PLAYER_COLOURS = ["#d84315", "#1565c0", "#2e7d32", "#6a1b9a"];

// The last turn of each player: the run of moves that player made last, chance draws in between
// skipped ({player: [move text, ...]}; the boards mark them, the side panel lists them).
export function lastTurns(moves) {
  const turns = {};
  let current = null;
  let run = [];
  for (const mv of moves) {
    if (mv.player < 0) continue;
    if (mv.player !== current) { if (current !== null) turns[current] = run; current = mv.player; run = []; }
    run.push(mv.move);
  }
  if (current !== null) turns[current] = run;
  return turns;
}
// the player who moved last (chance left out), or null
export function lastMover(moves) {
  for (let i = moves.length - 1; i >= 0; i--) if (moves[i].player >= 0) return moves[i].player;
  return null;
}

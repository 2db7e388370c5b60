// The board of a game: its renderer (the module /games/NAME/web/board.js, served from the game's own
// package folder: createBoard(container, helpers) -> {update(view, ctx), destroy()}), or the text
// of the position for a game without one; and the keyboard support every board gets.

import { gameT, playerName, t } from "/static/i18n.js";
import { el, svg, SVGNS, PLAYER_COLOURS, lastTurns, lastMover } from "/static/dom.js";
import { gameInfo, capitalise } from "/static/api.js";
import { toast, describer, personName } from "/static/ui.js";

// a game's renderer module, and its own stylesheet (a <link>, as the CSP allows), loaded once
const renderers = {};
export async function rendererFor(gameName) {
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
function nameOf(node, describe) {
  const move = node.getAttribute("data-move");
  if (move) return describe(move) ? capitalise(describe(move)) : t("play {move}", { move });  // in words (finding 7)
  const title = [...node.children].find((c) => c.tagName === "title");
  const what = title ? title.textContent : (node.getAttribute("data-pick") || node.getAttribute("data-from") || node.getAttribute("data-conn") || "");
  return t("select {what}", { what });
}
export function keyboardBoard(box, naming = { describe: () => null }) {
  let lastKey = null;
  let hadFocus = false;
  const apply = () => {
    for (const svgRoot of box.querySelectorAll("svg[role=img]")) svgRoot.setAttribute("role", "group");
    const targets = box.querySelectorAll("svg .target, svg [data-pick], svg [data-from], svg .selected");
    for (const node of targets) {
      if (node.closest("[tabindex]") && node.closest("[tabindex]") !== node) continue;
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", nameOf(node, naming.describe));
    }
    // the places of the board that are no button are images with their name (finding 12: an
    // empty cell read "a1", an opponent's cube a bare "3"): the renderer's <title>
    for (const node of box.querySelectorAll("svg g[data-cell], svg g[data-field], svg g[data-space]")) {
      if (node.getAttribute("role") === "button" || node.querySelector("[tabindex]")) continue;
      const title = [...node.children].find((c) => c.tagName === "title");
      if (!title) continue;
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", title.textContent);
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
  // the focus ring: a whole box around the focused element, drawn in the board (finding 12: the
  // browser's outline of an SVG element showed only part of a box)
  box.addEventListener("focusin", (event) => {
    const node = event.target;
    for (const ring of box.querySelectorAll(".focus-ring")) ring.remove();
    if (node.namespaceURI !== SVGNS || !node.hasAttribute("tabindex") || typeof node.getBBox !== "function") return;
    const b = node.getBBox();
    const host = node.tagName === "g" ? node : node.parentNode;
    host.append(svg("rect", { class: "focus-ring", x: b.x - 4, y: b.y - 4, width: b.width + 8, height: b.height + 8, rx: 6, "aria-hidden": "true" }));
  });
  box.addEventListener("focusout", () => { for (const ring of box.querySelectorAll(".focus-ring")) ring.remove(); });
  apply();
}

export async function makeBoard(gameName, container) {
  const naming = { describe: () => null };
  keyboardBoard(container, naming);
  const mod = await rendererFor(gameName);
  const gt = await gameT(await gameInfo(gameName));
  naming.describe = describer(mod, gt);
  // a player by the engine's name ("player 1 (S)"), as people see them: the name the player chose,
  // else the colour (issue 30, finding 8), from the seats of the view drawn last
  let seats = [];
  const named = (name) => {
    const seat = seats.find((s) => s.player_name === name);
    return seat ? personName(seat) : playerName(name);
  };
  const helpers = { el, svg, PLAYER_COLOURS, toast, lastTurns, lastMover, t: gt, playerName: named };
  if (mod && mod.createBoard) {
    try {
      const board = mod.createBoard(container, helpers);
      const update = board.update.bind(board);
      board.update = (view, ctx) => { seats = view.seats || []; return update(view, ctx); };
      return board;
    } catch (err) { console.error(err); }
  }
  return textBoard(container);
}


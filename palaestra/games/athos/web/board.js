// Athos board for the Palaestra web UI (an ES module; no build step).
//
// The map comes from the server (view.web, made by ./view.py from the board file in use):
// ordinary fields in doubled hex coordinates (row 1 is the broad bottom edge, ATH-B1), the five
// start fields A-E under it and the summit above it. Drawn: terrains, tiles (rubble dark with
// stones of rubble, open tiles in full colour with a tile edge), monks by player (ATH-B3), Athos
// stones, start fields and the summit with the arrived monks.
//
// Playing (every move goes to the server, which decides legality):
//   movement (ATH-T1..T6): click one of your monks' fields (selected automatically when there is
//     only one), then a highlighted field; "Flip a tile" switches to flipping (4 points, ATH-T5);
//     "End movement" ends the phase (unused points lapse).
//   Athos stone (ATH-T7): "Use an Athos stone": click a tile to relocate, then its new field, then
//     the tile for the stone (or directly the stone's tile when no tile can be relocated).
//   placement (ATH-T8): click highlighted free fields; counts per terrain under the board.
//   "End turn" asks for confirmation (ATH-T9). "Undo" (side panel) takes back your own actions of
//   this turn; the server checks and stores it.

const TERRAIN_COLOURS = {
  meadow: "#9ccc65", forest: "#33691e", olive: "#b5a642", heath: "#ba68c8", vine: "#ef8a3c",
};
const SPARE = ["#90a4ae", "#8d6e63", "#4db6ac", "#f06292", "#7986cb"];
const PLAYER = ["#d55e00", "#1f4e9c", "#009e73", "#f0e442"]; // red, blue, green, yellow (engine names), Okabe–Ito shades: apart for colour-blind players
const R = 20; // hex radius
const W = (Math.sqrt(3) / 2) * R; // half the width of a hex: one doubled column
const BONUS = [3, 3, 2, 2, 1]; // ATH-T6
// the phases of a turn, in words for players (the status said "phase: stone", finding 6)
// texts translated through variables (t(name)), listed so that the catalogue test sees them
export const VARIABLE_TEXTS = [
  "meadow", "forest", "olive", "heath", "vine", "rubble tile", "open tile",
  "team A+B", "team D+E", "teams need 4 players",
];
const PHASES = {
  move: "moving monks",
  stone: "placing tiles (an Athos stone may come first)",
  relocated: "putting the Athos stone on a tile",
  place: "placing tiles",
  handicap: "placing handicap tiles",
};

function terrainColour(name, i) { return TERRAIN_COLOURS[name] || SPARE[i % SPARE.length]; }

function mix(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const m = (c) => Math.round(c + (255 - c) * amount);
  return `rgb(${m(n >> 16)},${m((n >> 8) & 255)},${m(n & 255)})`;
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// the moves of the legal list, by kind
function classify(legal) {
  const steps = {}; // from -> {to: action}
  const flips = {}; // field -> action
  const relocs = {}; // from -> {to: action}
  const stones = {}; // field -> action
  const places = {}; // field -> action
  const opens = {}; // field -> action
  let endMove = null;
  let endTurn = null;
  for (const l of legal) {
    let m;
    if ((m = /^flip (\w+)$/.exec(l.move))) flips[m[1]] = l.action;
    else if ((m = /^relocate (\w+)>(\w+)$/.exec(l.move))) (relocs[m[1]] ||= {})[m[2]] = l.action;
    else if ((m = /^stone (\w+)$/.exec(l.move))) stones[m[1]] = l.action;
    else if ((m = /^place (\w+) open$/.exec(l.move))) opens[m[1]] = l.action;
    else if ((m = /^place (\w+)$/.exec(l.move))) places[m[1]] = l.action;
    else if (l.move === "end-move") endMove = l.action;
    else if (l.move === "end-turn") endTurn = l.action;
    else if ((m = /^(\w+)-(\w+)$/.exec(l.move))) (steps[m[1]] ||= {})[m[2]] = l.action;
  }
  return { steps, flips, relocs, stones, places, opens, endMove, endTurn };
}

export function createBoard(container, helpers) {
  const { el, svg } = helpers;
  const t = helpers.t || ((x) => x);
  const pn = helpers.playerName || ((x) => x);
  const root = svg("svg", { role: "img", "aria-label": t("Athos board") });
  const bar = el("div", { class: "board-extra", id: "athos-bar" });
  const counts = el("div", { class: "board-extra small", id: "athos-counts" });
  container.append(root, bar, counts);
  // what the player has picked on the board (reset when the position changes)
  let mode = null; // null (default of the phase) | "flip" | "stone" | "open"
  let from = null; // selected monk field (movement) or tile to relocate (stone)
  let confirming = false;
  let seenVersion = null;
  let last = null;
  let follow = null; // the field a monk just stepped to: it stays selected (finding 7)
  let showLast = true; // mark the other players' last turns
  let stepping = null; // {player, k}: one player's last turn shown up to its move k (on request)

  function update(view, ctx) {
    last = [view, ctx];
    const data = view.web;
    if (!data) { root.replaceChildren(); bar.textContent = t("(no board data)"); return; }
    const pos = view.state.position;
    const version = `${view.id}:${view.version}:${view.ply}`;
    if (version !== seenVersion) { seenVersion = version; from = null; confirming = false; stepping = null; if (mode === "flip" || mode === "open") mode = null; }
    // the monk that just stepped stays selected once the board is ours again after that one step
    // (a live update may come first, while the move is still on its way: not interactive yet)
    if (follow && view.ply !== follow.ply) follow = null;
    else if (follow && ctx.interactive) { from = follow.field; follow = null; }
    const legal = ctx.interactive ? classify(ctx.legal) : classify([]);
    const phase = pos.phase;
    const me = view.current_player;

    // --- geometry -----------------------------------------------------------------------------
    const fields = data.fields; // [name, col, row, terrain index]
    const maxRow = Math.max(...fields.map((f) => f[2]));
    const minCol = Math.min(...fields.map((f) => f[1]));
    const maxCol = Math.max(...fields.map((f) => f[1]));
    const at = {};
    for (const [name, col, row] of fields) at[name] = [col * W, (maxRow - row) * 1.5 * R];
    const mean = (names) => names.reduce((s, n) => s + at[n][0], 0) / Math.max(1, names.length);
    const bottom = (maxRow - 1) * 1.5 * R;
    const startAt = {};
    for (const letter of "ABCDE") startAt[letter] = [mean(data.starts[letter] || []), bottom + 2.4 * R];
    const summitX = mean(data.summit);
    const summitY = -2.6 * R;
    const x0 = minCol * W - 2 * R;
    const x1 = maxCol * W + 2 * R;
    const y0 = summitY - 2.2 * R;
    const y1 = bottom + 4 * R;
    root.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
    const centre = (name) => (name in startAt ? startAt[name] : name === "summit" ? [summitX, summitY] : at[name]);

    // --- the position -----------------------------------------------------------------------------
    const tiles = {};
    for (const tile of pos.tiles) tiles[tile.field] = tile;
    const stones = {};
    for (const s of pos.stones) stones[s.field] = s.player;
    const monksAt = {};
    pos.monks.forEach((ms, p) => ms.forEach((f) => (monksAt[f] ||= []).push(p)));

    // --- what a click does now ------------------------------------------------------------------------
    const dest = {}; // field -> {action, move}: one click plays
    const pick = {}; // field -> true: one click selects
    const inMove = phase === "move";
    if (inMove && mode !== "flip") {
      const sources = Object.keys(legal.steps);
      if (from && !(from in legal.steps)) from = null;
      if (!from && sources.length === 1) from = sources[0];
      for (const f of sources) if (f !== from) pick[f] = true;
      if (from) for (const [to, a] of Object.entries(legal.steps[from])) dest[to] = { action: a, move: `${from}-${to}` };
    } else if (inMove && mode === "flip") {
      for (const [f, a] of Object.entries(legal.flips)) dest[f] = { action: a, move: `flip ${f}` };
    } else if (phase === "relocated" || (phase === "stone" && mode === "stone")) {
      const canReloc = Object.keys(legal.relocs).length > 0;
      if (canReloc) {
        if (from && !(from in legal.relocs)) from = null;
        for (const f of Object.keys(legal.relocs)) if (f !== from) pick[f] = true;
        if (from) for (const [to, a] of Object.entries(legal.relocs[from])) dest[to] = { action: a, move: `relocate ${from}>${to}` };
      } else {
        for (const [f, a] of Object.entries(legal.stones)) dest[f] = { action: a, move: `stone ${f}` };
      }
    } else if (phase === "handicap" && mode === "open") {
      for (const [f, a] of Object.entries(legal.opens)) dest[f] = { action: a, move: `place ${f} open` };
    } else {
      for (const [f, a] of Object.entries(legal.places)) dest[f] = { action: a, move: `place ${f}` };
    }
    const many = Object.keys(dest).length > 12;
    const select = (f) => { from = from === f ? null : f; rerender(); };
    const lastField = lastTarget(view);

    // --- drawing --------------------------------------------------------------------------------------
    root.replaceChildren();
    root.append(svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, fill: "#f4ecd8", rx: 18 }));
    // the mountain behind the summit
    const sx = data.summit.map((n) => at[n][0]);
    root.append(svg("path", {
      d: `M${Math.min(...sx) - 2 * R} ${-R} L${summitX} ${summitY - 1.9 * R} L${Math.max(...sx) + 2 * R} ${-R} Z`,
      fill: "#d7ccc8", stroke: "#8d6e63", "stroke-width": 2,
    }));

    for (const [name, col, row, ti] of fields) {
      const [cx, cy] = at[name];
      const terrain = data.terrains[ti];
      const colour = terrainColour(terrain, ti);
      const tile = tiles[name];
      const g = svg("g", { "data-field": name, "data-terrain": terrain });
      g.append(svg("polygon", { points: hexPoints(cx, cy, R), fill: mix(colour, 0.55), stroke: "#fffaf0", "stroke-width": 1.5 }));
      if (tile) {
        const tc = terrainColour(tile.terrain, data.terrains.indexOf(tile.terrain));
        g.setAttribute("data-tile", tile.side);
        if (tile.side === "rubble") {
          g.append(svg("polygon", { points: hexPoints(cx, cy, R * 0.86), fill: "#5d4037", stroke: tc, "stroke-width": 3.5 }));
          for (const [dx, dy, r] of [[-6, -4, 3.4], [5, -6, 2.6], [2, 5, 3.8], [-5, 6, 2.2], [8, 3, 2.4]]) {
            g.append(svg("circle", { cx: cx + dx, cy: cy + dy, r, fill: "#a1887f", "fill-opacity": 0.6 }));
          }
          if (!monksAt[name] && !(name in stones)) {  // the label stays readable on rubble (finding 6)
            g.append(svg("text", { x: cx, y: cy + 3, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#fff", text: name }));
          }
        } else {
          g.append(svg("polygon", { points: hexPoints(cx, cy, R * 0.86), fill: tc, stroke: "#fff", "stroke-width": 2 }));
        }
      } else if (!monksAt[name] && !(name in stones)) {
        g.append(svg("text", { x: cx, y: cy + 3, "text-anchor": "middle", "font-size": 8, fill: "#000000d9", text: name }));
      }
      const monks = monksAt[name] ? ", " + t("monks: {list}", { list: monksAt[name].map((p) => pn(view.seats[p] ? view.seats[p].player_name : String(p))).join(", ") }) : "";
      g.append(svg("title", { text: `${name}: ${t(terrain)}${tile ? ", " + t(tile.side === "rubble" ? "rubble tile" : "open tile") : ""}${name in stones ? ", " + t("Athos stone") : ""}${monks}` }));
      if (name in stones) drawStone(g, cx, cy, stones[name]);
      if (monksAt[name]) drawMonks(g, cx, cy, monksAt[name], R);
      if (name === lastField) g.append(svg("polygon", { points: hexPoints(cx, cy, R - 2), fill: "none", class: "last" }));
      mark(g, name, cx, cy, () => hexPoints(cx, cy, R - 1));
      root.append(g);
    }
    // start fields (ATH-B1): one field each, any number of monks
    for (const letter of "ABCDE") {
      const [cx, cy] = startAt[letter];
      const seat = data.seats.indexOf(letter);
      const g = svg("g", { "data-field": letter, class: "start" });
      g.append(svg("rect", { x: cx - 1.6 * R, y: cy - 1.1 * R, width: 3.2 * R, height: 2.2 * R, rx: 8,
        fill: seat >= 0 ? mix(PLAYER[seat % 4], 0.75) : "#e0d6c2", stroke: seat >= 0 ? PLAYER[seat % 4] : "#a1917a", "stroke-width": 2 }));
      g.append(svg("text", { x: cx - 1.2 * R, y: cy - 0.35 * R, "font-size": 13, "font-weight": 700, fill: "#3e2723", text: letter }));
      g.append(svg("title", { text: t("start field {letter}", { letter }) + (seat >= 0 && view.seats[seat] ? ` (${pn(view.seats[seat].player_name)})` : "") }));
      if (monksAt[letter]) drawMonks(g, cx + 0.25 * R, cy + 0.1 * R, monksAt[letter], R);
      mark(g, letter, cx, cy, null, [cx - 1.6 * R, cy - 1.1 * R, 3.2 * R, 2.2 * R]);
      root.append(g);
    }
    // the summit (ATH-T6): arrived monks in arrival order
    {
      const g = svg("g", { "data-field": "summit", class: "summit" });
      g.append(svg("ellipse", { cx: summitX, cy: summitY, rx: 4.2 * R, ry: 1.3 * R, fill: "#fff8e1", stroke: "#6d4c41", "stroke-width": 2.5 }));
      g.append(svg("text", { x: summitX, y: summitY - 0.55 * R, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#4e342e", text: "Athos" }));
      pos.arrivals.forEach((p, i) => {
        const x = summitX - 3.2 * R + i * 0.78 * R;
        g.append(svg("circle", { cx: x, cy: summitY + 0.35 * R, r: 0.32 * R, fill: PLAYER[p % 4], stroke: "#fff", "stroke-width": 1.5, "data-arrival": i + 1 }));
      });
      g.append(svg("title", { text: t("summit: {n} arrived", { n: pos.arrivals.length }) }));
      mark(g, "summit", summitX, summitY, null, null, [summitX, summitY, 4.2 * R, 1.3 * R]);
      root.append(g);
    }

    // the last turn of every other player: steps as arrows, tiles placed, flipped or moved and
    // Athos stones outlined, in the player's colour (finding 5)
    const turns = helpers.lastTurns(view.moves);
    const shownTurns = Object.entries(turns).filter(([p]) => Number(p) !== me || view.status === "finished");
    if (showLast) {
      for (const [p, allMoves] of shownTurns) {
        if (stepping && stepping.player !== p) continue;
        const moves = stepping ? allMoves.slice(0, stepping.k + 1) : allMoves;
        const colour = PLAYER[Number(p) % 4];
        const layer = svg("g", { "data-last-turn": p, "pointer-events": "none" });
        for (const mv of moves) {
          let m;
          if ((m = /^(\w+)-(\w+)$/.exec(mv)) && centre(m[1]) && centre(m[2])) {
            const [[x1, y1], [x2, y2]] = [centre(m[1]), centre(m[2])];
            layer.append(svg("line", { x1, y1, x2, y2, stroke: colour, "stroke-width": 3.5, "stroke-linecap": "round", "stroke-dasharray": "5 3", "data-last-step": mv }));
            layer.append(svg("circle", { cx: x2, cy: y2, r: 3.5, fill: colour }));
          } else if ((m = /^(?:flip|place|stone) (\w+)(?: open)?$/.exec(mv) || /^relocate \w+>(\w+)$/.exec(mv)) && at[m[1]]) {
            const [cx, cy] = at[m[1]];
            layer.append(svg("polygon", { points: hexPoints(cx, cy, R - 3), fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": "3 2", "data-last-field": m[1] }));
          }
        }
        root.append(layer);
      }
    }

    function mark(g, name, cx, cy, hex, rect, ellipse) {
      const outline = (cls) => hex ? svg("polygon", { points: hex(), class: cls, fill: "none" })
        : rect ? svg("rect", { x: rect[0], y: rect[1], width: rect[2], height: rect[3], rx: 8, class: cls, fill: "none" })
          : svg("ellipse", { cx: ellipse[0], cy: ellipse[1], rx: ellipse[2], ry: ellipse[3], class: cls, fill: "none" });
      if (name === from) g.append(outline("selected"));
      if (dest[name]) {
        g.classList.add("target");
        g.setAttribute("data-action", dest[name].action);
        g.setAttribute("data-move", dest[name].move);
        if (many) {  // most fields (placing tiles): a ring keeps the terrain colours readable
          const o = outline("target-ring");
          o.setAttribute("stroke", "#e65100");
          o.setAttribute("stroke-width", 2.5);
          o.setAttribute("pointer-events", "none");
          g.append(o);
        } else {
          g.append(outline("target-mark"));
          g.append(svg("circle", { cx, cy, r: 4, fill: "#e65100", "pointer-events": "none" }));
        }
        g.addEventListener("click", () => {
          const step = /^\w+-(\w+)$/.exec(dest[name].move);
          from = null;
          follow = step && step[1] !== "summit" ? { field: step[1], ply: view.ply + 1 } : null;
          ctx.play(dest[name].action);
        });
      } else if (pick[name]) {
        g.classList.add("target");
        g.setAttribute("data-pick", name);
        const o = outline("pick");
        o.setAttribute("stroke", "#ffb300");
        o.setAttribute("stroke-width", 4);
        g.append(o);
        g.addEventListener("click", () => select(name));
      } else if (name === from) {
        g.addEventListener("click", () => select(name));
        g.style.cursor = "pointer";
      } else if (ctx.interactive && ctx.refuse) {
        g.addEventListener("click", () => refuse(name));
      }
    }

    // a click on a field that is no move now: the move it would be goes to the server, which says
    // why it is not allowed (finding 3); a field that names no move is explained here
    function refuse(name) {
      if (inMove && mode === "flip") return ctx.refuse(`flip ${name}`);
      if (inMove) {
        if (from) return ctx.refuse(`${from}-${name}`);
        return helpers.toast(t("No monk of yours can move from {field}: pick one of the highlighted monks", { field: name }), true);
      }
      if (phase === "relocated" || (phase === "stone" && mode === "stone")) {
        if (from) return ctx.refuse(`relocate ${from}>${name}`);
        if (Object.keys(legal.relocs).length) return helpers.toast(t("Pick one of the highlighted tiles to relocate"), true);
        return ctx.refuse(`stone ${name}`);
      }
      return ctx.refuse(phase === "handicap" && mode === "open" ? `place ${name} open` : `place ${name}`);
    }

    function drawMonks(g, cx, cy, players, r) {
      const n = players.length;
      const cols = Math.min(n, 3);
      players.forEach((p, i) => {
        const row = Math.floor(i / 3);
        const x = cx + (i % 3 - (cols - 1) / 2) * 0.62 * r;
        const y = cy + (row - (Math.ceil(n / 3) - 1) / 2) * 0.62 * r;
        g.append(svg("circle", { cx: x, cy: y, r: 0.34 * r, fill: PLAYER[p % 4], stroke: "#222", "stroke-width": 1.4, "data-monk": p }));
      });
    }

    function drawStone(g, cx, cy, player) {
      const s = 0.42 * R;
      g.append(svg("path", { d: `M${cx} ${cy - s - 4} l${s} ${s} l${-s} ${s} l${-s} ${-s} Z`, fill: "#cfd8dc", stroke: PLAYER[player % 4], "stroke-width": 3, "data-stone": player }));
    }

    // --- the panel under the board ---------------------------------------------------------------------
    bar.replaceChildren();
    const mine = ctx.interactive;
    if (phase === "move" || phase === "handicap" || mine) {
      const who = view.seats[me] ? pn(view.seats[me].player_name) : "";
      if (phase === "move") {
        const bonus = pos.arrivals.length < BONUS.length ? BONUS[pos.arrivals.length] : 0;
        bar.append(el("span", { class: "points", id: "athos-points", "data-points": pos.points },
          el("strong", { text: `${pos.points}` }), " " + t(pos.points === 1 ? "movement point left ({name})" : "movement points left ({name})", { name: who }),
          el("span", { class: "muted small", text: bonus ? " · " + t("next arrival +{n}", { n: bonus }) : "" })));
      } else if (phase === "handicap") {
        bar.append(el("span", { class: "small", text: t("Handicap: {name} places {n} more tile(s), either side up", { name: who, n: pos.handicap_left }) }));
      }
    }
    if (mine) {
      if (phase === "move") {
        if (Object.keys(legal.flips).length) {
          bar.append(el("button", { type: "button", class: "secondary mode" + (mode === "flip" ? " on" : ""), id: "athos-flip",
            onclick: () => { mode = mode === "flip" ? null : "flip"; from = null; rerender(); } },
          mode === "flip" ? t("Back to moving") : t("Flip a tile ({n} points)", { n: data.flip_cost })));
        }
        if (legal.endMove !== null) {
          bar.append(el("button", { type: "button", class: "secondary", id: "athos-end-move", "data-action": legal.endMove, "data-move": "end-move",
            onclick: () => ctx.play(legal.endMove) }, pos.points ? t("End movement ({n} points unused)", { n: pos.points }) : t("End movement")));
        } else {
          bar.append(el("span", { class: "small", text: t("A field holds two monks: move one of them on") }));
        }
        bar.append(el("span", { class: "small muted", text: from ? t("Monk on {field}: pick a highlighted field", { field: from }) : mode === "flip" ? t("Pick a tile to flip") : t("Pick one of your monks") }));
      } else if (phase === "stone" || phase === "relocated") {
        const canStone = Object.keys(legal.relocs).length || Object.keys(legal.stones).length;
        if (phase === "stone" && canStone) {
          bar.append(el("button", { type: "button", class: "secondary mode" + (mode === "stone" ? " on" : ""), id: "athos-stone",
            onclick: () => { mode = mode === "stone" ? null : "stone"; from = null; rerender(); } },
          mode === "stone" ? t("Place tiles instead") : t("Use an Athos stone ({n} left)", { n: pos.stones_left[me] })));
          bar.append(el("span", { class: "small muted explain", id: "athos-stone-help", text: t("An Athos stone: first move a tile to a free field, then put the stone on a tile; that tile is never flipped or moved again.") }));
        }
        if (phase === "relocated" || mode === "stone") {
          bar.append(el("span", { class: "small muted", text: phase === "relocated" ? t("Put the Athos stone on a tile")
            : Object.keys(legal.relocs).length ? (from ? t("Tile on {field}: pick its new field", { field: from }) : t("Pick a tile to relocate")) : t("Pick the tile for the stone") }));
        }
      } else if (phase === "handicap") {
        const box = el("input", { type: "checkbox", id: "athos-open" });
        box.checked = mode === "open";
        box.addEventListener("change", () => { mode = box.checked ? "open" : null; rerender(); });
        bar.append(el("label", { class: "small" }, box, " " + t("open side up")));
      }
      if (legal.endTurn !== null) {
        if (!confirming) {
          bar.append(el("button", { type: "button", class: "target", id: "athos-end-turn",
            onclick: () => { confirming = true; rerender(); } }, t("End turn")));
        } else {
          bar.append(el("span", { class: "confirm" },
            el("span", { class: "small", text: t("End your turn? It cannot be undone.") + " " }),
            el("button", { type: "button", id: "athos-confirm-end", "data-action": legal.endTurn, "data-move": "end-turn",
              onclick: () => { confirming = false; ctx.play(legal.endTurn); } }, t("Yes, end turn")),
            el("button", { type: "button", class: "secondary", onclick: () => { confirming = false; rerender(); } }, t("Not yet"))));
        }
      }
    }

    // per-terrain placement counts (ATH-T8) and supply (ATH-B3)
    counts.replaceChildren();
    const onBoard = {};
    for (const tile of pos.tiles) onBoard[tile.terrain] = (onBoard[tile.terrain] || 0) + 1;
    const placed = pos.placed || {};
    const total = Object.values(placed).reduce((a, b) => a + b, 0);
    const table = el("table", { class: "athos-terrains", id: "athos-terrains" },
      el("tr", {}, el("th", { text: t("terrain") }), el("th", { text: t("placed this turn") }), el("th", { text: t("supply") })),
      data.terrains.map((name, i) => el("tr", { "data-terrain": name },
        el("td", {}, el("span", { class: "swatch", style: `display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;background:${terrainColour(name, i)}` }), t(name)),
        el("td", { class: "placed", text: `${placed[name] || 0} / ${data.max_per_terrain}` }),
        el("td", { class: "supply", text: `${data.tiles_per_terrain - (onBoard[name] || 0)}` }))),
      el("tr", {}, el("td", { text: t("all") }), el("td", { id: "athos-placed-total", text: `${total} / ${data.max_tiles}` }), el("td", {})));
    counts.append(table);
    const info = el("div", { class: "small" },
      el("div", { id: "athos-phase", text: `${t("Round {n}", { n: pos.round })}${pos.final_round ? " " + t("(final round)") : ""} · ${PHASES[phase] ? t(PHASES[phase]) : phase}` }),
      el("div", { text: t("Athos stones left: {list}", { list: view.seats.map((s, p) => `${pn(s.player_name)} ${pos.stones_left[p]}`).join(" · ") }) }),
      el("div", { text: t("Arrived: {list}", { list: view.seats.map((s, p) => `${pn(s.player_name)} ${3 - pos.monks[p].length}/3`).join(" · ") }) }),
      pos.arrivals.length ? el("div", { id: "athos-arrivals", text: t("Arrival order (bonus points): {list}", { list: pos.arrivals.map((p, i) =>
        `${i + 1}. ${view.seats[p] ? pn(view.seats[p].player_name) : p}${i < BONUS.length ? ` +${BONUS[i]}` : ""}`).join(" · ") }) }) : null);
    counts.append(info);
    if (shownTurns.length) {
      const toggle = el("input", { type: "checkbox", id: "athos-show-last" });
      toggle.checked = showLast;
      toggle.addEventListener("change", () => { showLast = toggle.checked; rerender(); });
      counts.append(el("div", { class: "small last-turns", id: "athos-last-turns" },
        el("label", {}, toggle, " " + t("Show the last turns on the board")),
        shownTurns.map(([p, moves]) => el("div", { "data-player": p },
          el("span", { class: "swatch", style: `display:inline-block;width:.7rem;height:.7rem;border-radius:50%;margin-right:.3rem;background:${PLAYER[Number(p) % 4]}` }),
          `${view.seats[p] ? pn(view.seats[p].player_name) : p}: `,
          // the moves in words, each with its notation (finding 18: the notation was English)
          moves.flatMap((m, i) => [i ? "; " : "", el("span", { "data-move": m, title: m, text: say(m) })]), " ",
          stepper(p, moves)))));
    }

    // the last turn step by step: ◀ ▶ walk through its moves on the board, "all" shows them all
    function stepper(p, moves) {
      const go = (k) => { stepping = k === null ? null : { player: p, k: Math.max(0, Math.min(moves.length - 1, k)) }; showLast = true; rerender(); };
      if (!stepping || stepping.player !== p) {
        return el("button", { type: "button", class: "secondary small step", onclick: () => go(0) }, t("step by step"));
      }
      return el("span", { class: "stepper" },
        el("button", { type: "button", class: "secondary small step-prev", "aria-label": t("previous move"), onclick: () => go(stepping.k - 1) }, "◀"),
        el("span", { class: "step-at", "data-move": moves[stepping.k], text: ` ${t("move {n} / {total}", { n: stepping.k + 1, total: moves.length })}: ${say(moves[stepping.k])} ` }),
        el("button", { type: "button", class: "secondary small step-next", "aria-label": t("next move"), onclick: () => go(stepping.k + 1) }, "▶"),
        el("button", { type: "button", class: "secondary small step-all", onclick: () => go(null) }, t("all")));
    }

    function say(move) { return describeMove(move, t) || move; }
    function rerender() { if (last) update(last[0], last[1]); }
  }

  return { colours: PLAYER, update, destroy() { root.remove(); bar.remove(); counts.remove(); } };
}

function lastTarget(view) {
  const mv = view.moves.length ? view.moves[view.moves.length - 1].move : "";
  const m = /^(?:\w+-(\w+)|flip (\w+)|place (\w+)(?: open)?|stone (\w+)|relocate \w+>(\w+))$/.exec(mv);
  return m ? m.slice(1).find(Boolean) : null;
}

// --- the new-game form and the players panel (findings 1 and 10) ----------------------------------
// Teams (a variant for 4 players): A+B play against D+E, and the seats go A, D, B, E: the form
// shows the names the seats will really have, and the partners.
const TEAM_ORDER = ["A", "D", "B", "E"];

export function formRules(values, names) {
  const players = Number(values.players || names.length);
  const disabled = {};
  if (players !== 4) disabled.teams = "teams need 4 players";
  if (values.teams && players === 4) {
    return {
      disabled,
      names: names.map((n, i) => n.replace(/\((\w)\)/, `(${TEAM_ORDER[i]})`)),
      teams: TEAM_ORDER.map((letter) => ("AB".includes(letter) ? "team A+B" : "team D+E")),
    };
  }
  return { disabled };
}

// the team of each seat of a game, or null without teams
export function teamsOf(view) {
  if (!view.options || !view.options.teams || !view.web) return null;
  return view.web.seats.map((letter) => ("AB".includes(letter) ? "team A+B" : "team D+E"));
}

// A move in words for people, without its subject ("moves a monk from start field B to h1"); the
// notation stays in the records (finding 7). The app says who: "Ann moves a monk …".
export function describeMove(move, t) {
  const field = (f) => (f === "summit" ? t("the summit") : /^[A-E]$/.test(f) ? t("start field {letter}", { letter: f }) : f);
  let m;
  if ((m = /^(\w+)-(\w+)$/.exec(move))) return t("moves a monk from {from} to {to}", { from: field(m[1]), to: field(m[2]) });
  if ((m = /^flip (\w+)$/.exec(move))) return t("flips the tile on {field}", { field: m[1] });
  if ((m = /^relocate (\w+)>(\w+)$/.exec(move))) return t("moves the tile on {from} to {to} (Athos stone)", { from: m[1], to: m[2] });
  if ((m = /^stone (\w+)$/.exec(move))) return t("puts an Athos stone on {field}", { field: m[1] });
  if ((m = /^place (\w+)( open)?(?: (\w+))?$/.exec(move))) {
    if (m[3]) return t("places a {terrain} tile on {field}", { terrain: t(m[3]), field: m[1] });
    return m[2] ? t("places a tile open side up on {field}", { field: m[1] }) : t("places a tile on {field}", { field: m[1] });
  }
  if (move === "end-move") return t("ends the movement");
  if (move === "end-turn") return t("ends the turn");
  return null;
}

// The new-game form (finding 4): the expert settings go under "More options", and options whose
// values are seats or editions are offered by name.
export const EXPERT_OPTIONS = ["handicap_player", "handicap_tiles", "bare_stone", "round_limit", "order", "rules"];
export function optionChoices(option, seatNames, t) {
  if (option.name === "handicap_player") return [["", t("nobody")], ...seatNames.map((name, i) => [String(i), name])];
  if (option.name === "rules" && option.choices) return option.choices.map((c) => [String(c), c === option.default ? t("{version} (newest)", { version: c }) : String(c)]);
  return null;
}

// Archimedes board for the Palaestra web UI (an ES module; no build step).
//
// The hexagon of 96 triangular cells, the cubes with their distance (ARC-M1: cubes in the three
// rows through the cell), the goal sides tinted in the colour of the player who aims there.
// Playing: click one of your highlighted cubes (its three rows light up), then a highlighted cell.
// The 96 cells [name, x, y, z] and the six sides, transcribed from ../board.txt (ARC-B1, ARC-B2).
const CELLS = [["a1",-4,-1,3],["a2",-4,0,3],["a3",-4,0,2],["a4",-4,1,2],["a5",-4,1,1],["a6",-4,2,1],["a7",-4,2,0],["a8",-4,3,0],["a9",-4,3,-1],["b1",-3,-2,3],["b2",-3,-1,3],["b3",-3,-1,2],["b4",-3,0,2],["b5",-3,0,1],["b6",-3,1,1],["b7",-3,1,0],["b8",-3,2,0],["b9",-3,2,-1],["b10",-3,3,-1],["b11",-3,3,-2],["c1",-2,-3,3],["c2",-2,-2,3],["c3",-2,-2,2],["c4",-2,-1,2],["c5",-2,-1,1],["c6",-2,0,1],["c7",-2,0,0],["c8",-2,1,0],["c9",-2,1,-1],["c10",-2,2,-1],["c11",-2,2,-2],["c12",-2,3,-2],["c13",-2,3,-3],["d1",-1,-4,3],["d2",-1,-3,3],["d3",-1,-3,2],["d4",-1,-2,2],["d5",-1,-2,1],["d6",-1,-1,1],["d7",-1,-1,0],["d8",-1,0,0],["d9",-1,0,-1],["d10",-1,1,-1],["d11",-1,1,-2],["d12",-1,2,-2],["d13",-1,2,-3],["d14",-1,3,-3],["d15",-1,3,-4],["e1",0,-4,3],["e2",0,-4,2],["e3",0,-3,2],["e4",0,-3,1],["e5",0,-2,1],["e6",0,-2,0],["e7",0,-1,0],["e8",0,-1,-1],["e9",0,0,-1],["e10",0,0,-2],["e11",0,1,-2],["e12",0,1,-3],["e13",0,2,-3],["e14",0,2,-4],["e15",0,3,-4],["f1",1,-4,2],["f2",1,-4,1],["f3",1,-3,1],["f4",1,-3,0],["f5",1,-2,0],["f6",1,-2,-1],["f7",1,-1,-1],["f8",1,-1,-2],["f9",1,0,-2],["f10",1,0,-3],["f11",1,1,-3],["f12",1,1,-4],["f13",1,2,-4],["g1",2,-4,1],["g2",2,-4,0],["g3",2,-3,0],["g4",2,-3,-1],["g5",2,-2,-1],["g6",2,-2,-2],["g7",2,-1,-2],["g8",2,-1,-3],["g9",2,0,-3],["g10",2,0,-4],["g11",2,1,-4],["h1",3,-4,0],["h2",3,-4,-1],["h3",3,-3,-1],["h4",3,-3,-2],["h5",3,-2,-2],["h6",3,-2,-3],["h7",3,-1,-3],["h8",3,-1,-4],["h9",3,0,-4]];
const SIDES = {"S":["a2","a4","a6","a8"],"N":["h2","h4","h6","h8"],"SE":["a9","b11","c13","d15"],"NW":["e1","f1","g1","h1"],"SW":["a1","b1","c1","d1"],"NE":["e15","f13","g11","h9"]};

const OPPOSITE = { S: "N", N: "S", NE: "SW", SW: "NE", NW: "SE", SE: "NW" };
const COLOURS = ["#d55e00", "#1f4e9c", "#009e73"]; // Okabe–Ito: apart for colour-blind players (tests/server/test_palette.py)
// the colours by name, for players who chose none ("orange (S)" rather than "player 1 (S)")
const COLOUR_NAMES = ["orange", "blue", "green"];
// the degrees the board turns so that a side is at the bottom (S is drawn there; SE at the lower
// right: 60° clockwise brings it down)
const TURN = { S: 0, SE: 60, NE: 120, N: 180, NW: -120, SW: -60 };
const S = 60;
const H = (S * Math.sqrt(3)) / 2;

function corners(x, y, z) {
  const cx = ((y - z) * S) / 2;
  const up = x + y + z === -1;
  const bottom = -x * H; // SVG y grows downwards: row x = -4 (a) at the bottom
  const top = bottom - H;
  return up
    ? [[cx - S / 2, bottom], [cx + S / 2, bottom], [cx, top]]
    : [[cx - S / 2, top], [cx + S / 2, top], [cx, bottom]];
}

export function createBoard(container, helpers) {
  const { el, svg } = helpers;
  const t = helpers.t || ((x) => x);
  const nameOf = (p) => (helpers.playerName || ((x) => x))(view_seats[p].player_name);
  let view_seats = [];
  const root = svg("svg", { viewBox: `${-4.2 * S} ${-4.2 * H} ${8.4 * S} ${8.4 * H}`, role: "img", "aria-label": t("Archimedes board") });
  const info = el("div", { class: "board-extra", id: "arc-extra" });
  container.append(root, info);
  const byName = Object.fromEntries(CELLS.map((c) => [c[0], c]));
  let selected = null;

  function update(view, ctx) {
    const pos = view.state.position;
    view_seats = view.seats;
    const details = view.score_details || {};
    const cubeAt = {};
    pos.cubes.forEach((cells, p) => cells.forEach((name, i) => {
      const d = details.cubes && details.cubes[p] && details.cubes[p][i];
      cubeAt[name] = { player: p, distance: d ? d.distance : null, arrived: d ? d.arrived : false };
    }));
    const moves = {};
    const others = [];
    for (const l of ctx.interactive ? ctx.legal : []) {
      const m = /^(\w+)-(\w+)$/.exec(l.move);
      if (m) (moves[m[1]] ||= {})[m[2]] = l.action;
      else others.push(l);
    }
    if (selected && !(selected in moves)) selected = null;
    if (!selected && Object.keys(moves).length === 1) selected = Object.keys(moves)[0];
    // goal cells: player p starts on the side in its name and aims for the opposite side
    const goalOf = {};
    view.seats.forEach((seat, p) => {
      const m = /\((\w+)\)\s*$/.exec(seat.player_name);
      if (m && OPPOSITE[m[1]]) for (const name of SIDES[OPPOSITE[m[1]]]) goalOf[name] = p;
    });
    const sel = selected ? byName[selected] : null;
    const lastPair = lastMove(view); // [from, to] of the last move: both are marked
    const last = lastPair ? lastPair[1] : null;
    const centres = {};

    root.replaceChildren();
    for (const [name, x, y, z] of CELLS) {
      const pts = corners(x, y, z);
      const inRow = sel && (x === sel[1] || y === sel[2] || z === sel[3]);
      let fill = (x + y + z === -1) ? "#f3ead8" : "#e9dcc3";
      if (name in goalOf) fill = tint(COLOURS[goalOf[name] % 3]);
      if (inRow) fill = "#fff1b8";
      const g = svg("g", { "data-cell": name });
      g.append(svg("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill, stroke: "#a89676", "stroke-width": 1.2 }));
      const [cx, cy] = centroid(pts);
      centres[name] = [cx, cy];
      if (lastPair && name === lastPair[0]) {
        g.setAttribute("data-last", "from");
        g.append(svg("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", class: "last" }));
      }
      if (name === last) g.setAttribute("data-last", "to");
      const cube = cubeAt[name];
      if (cube) {
        const c = COLOURS[cube.player % 3];
        const mine = name in moves;
        g.append(svg("rect", { x: cx - 14, y: cy - 14, width: 28, height: 28, rx: 4, fill: c,
          stroke: name === selected ? "#ffb300" : name === last ? "#6a1b9a" : "#0008", "stroke-width": name === selected || name === last ? 4 : 1.5 }));
        g.append(svg("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: "#fff",
          text: cube.arrived ? "✓" : cube.distance ?? "" }));
        g.prepend(svg("title", { text: t("{cell}: cube of {name}, {state}", { cell: name, name: nameOf(cube.player), state: cube.arrived ? t("arrived") : t("distance {n}", { n: cube.distance }) }) }));
        if (mine) {
          g.classList.add(...(name === selected ? ["cube-selected", "selected"] : ["target"]));
          g.setAttribute("data-from", name);
          g.style.cursor = "pointer";
          g.addEventListener("click", () => { selected = name === selected ? null : name; update(view, ctx); });
          if (name !== selected) g.append(svg("rect", { x: cx - 18, y: cy - 18, width: 36, height: 36, rx: 6, fill: "none", stroke: "#ffb300", "stroke-width": 3, "pointer-events": "none" }));
        }
      } else {
        g.append(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, fill: "#5c5040", text: name }));
        // its name for screen readers (finding 12: it read only "a1")
        g.prepend(svg("title", { text: name in goalOf ? t("{cell}: empty, a goal of {name}", { cell: name, name: nameOf(goalOf[name]) }) : t("{cell}: empty", { cell: name }) }));
      }
      if (selected && moves[selected] && name in moves[selected]) {
        g.classList.add("target");
        g.setAttribute("data-action", moves[selected][name]);
        g.setAttribute("data-move", `${selected}-${name}`);
        g.style.cursor = "pointer";
        g.append(svg("circle", { cx, cy, r: 12, class: "target-mark" }));
        g.addEventListener("click", () => { const a = moves[selected][name]; selected = null; ctx.play(a); });
      } else if (ctx.interactive && ctx.refuse && !(name in moves)) {
        // no move: the cube it would be, or the cell a selected cube cannot reach, is explained
        // (finding 3): an opponent's or a stuck cube here, the server's reason for a cell
        g.addEventListener("click", () => {
          if (cube && cube.player !== view.current_player) helpers.toast(t("This cube belongs to {name}: pick one of your highlighted cubes", { name: nameOf(cube.player) }), true);
          else if (cube && !selected) helpers.toast(t("This cube cannot move now"), true);
          else if (selected) ctx.refuse(`${selected}-${name}`);
          else helpers.toast(t("Pick one of your highlighted cubes"), true);
        });
      }
      root.append(g);
    }
    if (lastPair && centres[lastPair[0]] && centres[lastPair[1]]) {
      const [[x1, y1], [x2, y2]] = [centres[lastPair[0]], centres[lastPair[1]]];
      root.append(svg("line", { x1, y1, x2, y2, class: "last-path", "pointer-events": "none" }));
    }
    info.replaceChildren();
    if (ctx.interactive) {
      info.append(el("span", { class: "small", text: selected
        ? t("Cube on {cell}: distance {n}; pick where it goes", { cell: selected, n: cubeAt[selected] ? cubeAt[selected].distance : "?" })
        : Object.keys(moves).length ? t("Pick one of your highlighted cubes") : "" }));
    }
    for (const l of others) {
      info.append(el("button", { type: "button", class: "secondary target", "data-action": l.action, "data-move": l.move, title: l.move, onclick: () => ctx.play(l.action) }, l.move === "pass" ? t("Pass") : l.move));
    }
    if (details.arrived) {
      info.append(el("span", { class: "small muted", style: "margin-left:auto",
        text: t("arrived: {list}", { list: details.arrived.map((n, p) => `${nameOf(p)} ${n}/4`).join(" · ") }) }));
    }
  }

  return { colours: COLOURS, colourNames: COLOUR_NAMES, update, destroy() { root.remove(); info.remove(); } };
}

function centroid(pts) {
  return [(pts[0][0] + pts[1][0] + pts[2][0]) / 3, (pts[0][1] + pts[1][1] + pts[2][1]) / 3];
}

function tint(hex) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * 0.72);
  return `rgb(${mix(n >> 16)},${mix((n >> 8) & 255)},${mix(n & 255)})`;
}

function lastMove(view) {
  const m = view.moves.length ? /^(\w+)-(\w+)$/.exec(view.moves[view.moves.length - 1].move) : null;
  return m ? [m[1], m[2]] : null;
}

// Why a finished game ended, in the page's language (the result banner's second line, finding 2):
// the engine ranks by cubes home at the move limit and when every player passed (ARC-M6).
export function resultReason(view, t) {
  const details = view.score_details || {};
  const home = (details.arrived || []).join("–");
  const position = (view.state && view.state.position) || {};
  if (view.result && view.result.termination === "adjudication") return t("No cube can reach a goal any more: ranked by cubes home ({home})", { home });
  if (details.ended === "limit") return t("The move limit of {n} moves was reached: ranked by cubes home ({home})", { n: position.move_limit, home });
  if (details.ended === "passes") return t("Every player passed in a row: ranked by cubes home ({home})", { home });
  if (details.ended === "home") return t("All four cubes home");
  return null;
}

// A move in words for people, without its subject; the notation stays in the records (finding 7).
export function describeMove(move, t) {
  const m = /^(\w+)-(\w+)$/.exec(move);
  if (m) return t("moves a cube from {from} to {to}", { from: m[1], to: m[2] });
  if (move === "pass") return t("passes");
  return null;
}

// The new-game form (finding 4): the expert settings go under "More options".
export const EXPERT_OPTIONS = ["move_limit"];

// The board turned so that the seat's own side (its start, named in the player's name) is at the
// bottom (issue 30): static/orientation.js turns the drawing by these degrees.
export function turnFor(view, seat) {
  const m = view.seats[seat] ? /\((\w+)\)\s*$/.exec(view.seats[seat].player_name) : null;
  return m && m[1] in TURN ? TURN[m[1]] : 0;
}

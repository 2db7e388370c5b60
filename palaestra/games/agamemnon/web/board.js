// Agamemnon board for the Palaestra web UI (an ES module; no build step).
//
// createBoard(container, helpers) -> {update(view, ctx), destroy()}
//   view: the server's game view (view.state is AgamemnonState.to_json(); view.score_details has
//         the live strings); ctx: {interactive, legal: [{action, move}], play(action), replay}.
// Placing: pick one of the drawn tiles (chips under the board), then click a highlighted space.
// Warp: click a highlighted connection at the Warp, then its partner; "No swap" keeps them.

const GEOMETRY = {"front":{"spaces":[[382,50],[517,54],[192,182],[85,261],[327,168],[551,180],[182,303],[50,393],[438,250],[329,282],[655,266],[270,400],[153,479],[477,379],[385,483],[615,391],[207,578],[106,609],[507,534],[332,614],[639,518],[252,720],[148,743],[534,654],[422,717],[659,656],[255,831],[497,806],[389,847],[631,792],[615,923],[474,950]],"connections":[[0,1],[0,4],[1,5],[2,4],[2,6],[2,3],[3,6],[3,7],[4,8],[4,9],[5,10],[5,8],[6,11],[7,12],[8,13],[8,9],[9,11],[10,15],[11,14],[11,12],[12,16],[12,17],[13,15],[13,14],[14,18],[14,19],[15,20],[16,19],[16,17],[17,22],[18,20],[18,23],[19,24],[19,21],[20,25],[21,26],[21,22],[22,26],[23,25],[23,24],[24,27],[24,28],[25,29],[26,28],[27,29],[27,28],[28,31],[29,30],[30,31]]},"loom":{"spaces":[[261,58],[396,50],[173,161],[60,245],[321,174],[521,122],[171,303],[50,387],[440,240],[317,318],[580,246],[216,423],[118,517],[533,358],[417,433],[670,365],[242,569],[116,650],[517,504],[387,575],[657,518],[326,690],[197,771],[589,630],[463,703],[735,632],[385,821],[261,901],[586,768],[732,777],[511,892],[386,950],[648,883]],"connections":[[0,1],[0,2],[0,4],[1,4],[1,5],[2,3],[2,4],[2,6],[3,6],[3,7],[4,8],[4,9],[5,8],[5,10],[6,7],[6,9],[6,11],[7,12],[8,9],[8,10],[8,13],[9,11],[9,14],[10,13],[10,15],[11,12],[11,16],[12,16],[12,17],[13,14],[13,15],[13,18],[14,18],[14,19],[15,20],[16,17],[16,19],[16,21],[17,22],[18,19],[18,20],[18,23],[19,21],[19,24],[20,23],[20,25],[21,22],[21,24],[21,26],[22,27],[23,24],[23,25],[23,28],[24,26],[24,28],[25,29],[26,27],[26,30],[26,31],[27,31],[28,29],[28,30],[28,32],[29,32],[30,31],[30,32]]}};

const KIND_COLOURS = { strength: "#c62828", force: "#00838f", leadership: "#f9a825", empty: "#cfc6b4" };
// the kinds' initials on the connections, in the page's language (the key's first letter in English)
const KIND_INITIAL = { strength: "S (initial of strength)", force: "F (initial of force)", leadership: "L (initial of leadership)" };
const PLAYER = ["#e65100", "#263238"];
// texts translated through variables (t(name)), listed so that the catalogue test sees them
export const VARIABLE_TEXTS = [
  "strength", "force", "leadership", "Warp", "Weft",
  "S (initial of strength)", "F (initial of force)", "L (initial of leadership)",
  "leaders", "weavers", "warriors",
];
const SPEARS = { A: 1, B: 3, C: 4, D: 3, E: 2, W1: 1, W2: 2, W3: 3, WARP: 0, WEFT: 0 };
const LABEL = { WARP: "Warp", WEFT: "Weft", W1: "1", W2: "2", W3: "3" };

export function createBoard(container, helpers) {
  const { el, svg } = helpers;
  const t = helpers.t || ((x) => x);
  const root = svg("svg", { viewBox: "0 0 1000 1000", role: "img", "aria-label": t("Agamemnon board") });
  const info = el("div", { class: "board-extra", id: "aga-extra" });
  const legend = el("div", { class: "board-extra small muted legend" },
    ...Object.entries(KIND_COLOURS).filter(([k]) => k !== "empty").map(([k, c]) =>
      el("span", {}, el("span", { style: `display:inline-block;width:1.4rem;height:.35rem;background:${c};vertical-align:middle;margin-right:.25rem` }), t(k))),
    el("span", {}, t("thin centre line: who controls the string")));
  container.append(root, info, legend);
  let selectedCode = null;
  let firstConn = null;

  function update(view, ctx) {
    const st = view.state.state;
    const side = view.options.loom ? "loom" : "front";
    const geo = GEOMETRY[side];
    const pos = geo.spaces;
    const xs = pos.map((p) => p[0]);
    const ys = pos.map((p) => p[1]);
    const [x0, y0] = [Math.min(...xs) - 50, Math.min(...ys) - 50];
    const [w, h] = [Math.max(...xs) + 50 - x0, Math.max(...ys) + 50 - y0];
    root.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
    const legal = ctx.interactive ? ctx.legal : [];
    // legal moves by shape
    const placements = {};  // code -> {space: action}
    const swaps = [];       // {a: "x-y", b: "u-v", action}
    const others = [];
    for (const l of legal) {
      let m = /^(\w+)@(\d+)$/.exec(l.move);
      if (m) { (placements[m[1]] ||= {})[Number(m[2])] = l.action; continue; }
      m = /^swap (\d+-\d+) (\d+-\d+)$/.exec(l.move);
      if (m) { swaps.push({ a: m[1], b: m[2], action: l.action }); continue; }
      others.push(l);
    }
    const codes = Object.keys(placements);
    if (!codes.includes(selectedCode)) selectedCode = codes[0] || null;
    const swapKeys = new Set(swaps.flatMap((s) => [s.a, s.b]));
    if (firstConn && !swapKeys.has(firstConn)) firstConn = null;

    // strings: who controls each connection
    const controller = {};
    for (const s of (view.score_details && view.score_details.strings) || []) {
      if (s.controller === null || s.controller === undefined) continue;
      for (const [a, b] of s.connections) controller[`${Math.min(a, b)}-${Math.max(a, b)}`] = s.controller;
    }
    const tiles = {};
    for (const [space, owner, code] of st.tiles) tiles[space] = { owner, code };
    // the last turn of the player who moved last: its placed tiles and its swapped connections
    const lastTurn = helpers.lastTurns(view.moves)[helpers.lastMover(view.moves)] || [];
    const lastSpaces = new Set();
    const lastConns = new Set();
    for (const mv of lastTurn) {
      let m = /^\w+@(\d+)$/.exec(mv);
      if (m) lastSpaces.add(Number(m[1]));
      m = /^swap (\d+)-(\d+) (\d+)-(\d+)$/.exec(mv);
      if (m) {
        const [a, b, c, d] = m.slice(1).map(Number);
        lastConns.add(`${Math.min(a, b)}-${Math.max(a, b)}`);
        lastConns.add(`${Math.min(c, d)}-${Math.max(c, d)}`);
      }
    }

    root.replaceChildren();
    root.append(svg("rect", { x: x0, y: y0, width: w, height: h, fill: "#efe4cc", rx: 24 }));
    // connections
    geo.connections.forEach(([a, b], i) => {
      const kind = st.kinds[i] || "empty";
      const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
      const [x1, y1] = pos[a];
      const [x2, y2] = pos[b];
      const g = svg("g", { "data-conn": key });
      g.append(svg("line", { x1, y1, x2, y2, stroke: KIND_COLOURS[kind], "stroke-width": 16, "stroke-linecap": "round",
        "stroke-dasharray": kind === "empty" ? "6 10" : null }));
      if (key in controller) g.append(svg("line", { x1, y1, x2, y2, stroke: PLAYER[controller[key]], "stroke-width": 5 }));
      if (lastConns.has(key)) {
        g.setAttribute("data-last", "swap");
        g.append(svg("line", { x1, y1, x2, y2, class: "last-path", "stroke-width": 24, "pointer-events": "none" }));
      }
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      if (KIND_INITIAL[kind]) g.append(svg("text", { x: mx, y: my + 5, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#fff", stroke: "#0006", "stroke-width": 0.6, "data-initial": kind, text: t(KIND_INITIAL[kind]).charAt(0) }));
      const swappable = firstConn ? swaps.some((s) => (s.a === firstConn && s.b === key) || (s.b === firstConn && s.a === key)) : swapKeys.has(key);
      if (swappable || key === firstConn) {
        const hit = svg("line", { x1, y1, x2, y2, stroke: key === firstConn ? "#6a1b9a" : "#ffb300", "stroke-opacity": 0.75, "stroke-width": 30,
          "stroke-linecap": "round", class: key === firstConn ? "conn-selected selected" : "target", "data-conn": key,
          onclick: () => clickConn(key, ctx, swaps) });
        g.append(hit);
      }
      root.append(g);
    });
    // spaces and tiles
    pos.forEach(([x, y], s) => {
      const g = svg("g", { "data-space": s });
      const out = st.out_of_play === s;
      g.append(svg("circle", { cx: x, cy: y, r: 30, fill: out ? "#bdb5a6" : "#fbf6ea", stroke: "#6d5d45", "stroke-width": 2 }));
      if (out) g.append(svg("path", { d: `M${x - 18} ${y - 18}L${x + 18} ${y + 18}M${x + 18} ${y - 18}L${x - 18} ${y + 18}`, stroke: "#6d5d45", "stroke-width": 3 }));
      const tile = tiles[s];
      if (lastSpaces.has(s)) g.setAttribute("data-last", "placed");
      if (tile) drawTile(g, x, y, tile, lastSpaces.has(s));
      else if (!out) g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, fill: "#5c5040", text: s }));
      // the space's name for screen readers (finding 12: an empty one read as a bare number)
      g.prepend(svg("title", { text: out ? t("space {n}: out of play", { n: s })
        : tile ? t("space {n}: {tile} of {name}", { n: s, tile: tileName(tile.code, t) + (SPEARS[tile.code] ? ` (${t("{n} spears", { n: SPEARS[tile.code] })})` : ""), name: helpers.playerName(view.seats[tile.owner] ? view.seats[tile.owner].player_name : String(tile.owner)) })
          : t("space {n}: empty", { n: s }) }));
      if (selectedCode && placements[selectedCode] && s in placements[selectedCode]) {
        g.append(svg("circle", { cx: x, cy: y, r: 30, class: "target-mark" }));
        g.classList.add("target");
        g.setAttribute("data-action", placements[selectedCode][s]);
        g.setAttribute("data-move", `${selectedCode}@${s}`);
        // a tap target of about 44 px on a phone, larger than the drawn space (finding 13)
        g.append(svg("circle", { cx: x, cy: y, r: 50, fill: "transparent", class: "hit" }));
        g.addEventListener("click", () => ctx.play(placements[selectedCode][s]));
      }
      root.append(g);
    });
    if (st.warp !== null && st.warp !== undefined) {
      const [x, y] = pos[st.warp];
      root.append(svg("circle", { cx: x, cy: y, r: 40, fill: "none", stroke: "#6a1b9a", "stroke-width": 4, "stroke-dasharray": "8 5" }));
    }

    // the panel under the board: drawn tiles, choices, pools
    info.replaceChildren();
    const hand = st.hand || [];
    if (codes.length) {
      info.append(el("span", { class: "small", text: t("Place:") }));
      for (const code of codes) {
        const chip = el("button", { type: "button", class: code === selectedCode ? "chip" : "chip secondary", "data-code": code,
          onclick: () => { selectedCode = code; update(view, ctx); } }, tileName(code, t));
        info.append(chip);
      }
    } else if (hand.length) {
      info.append(el("span", { class: "small", id: "aga-drawn", text: view.to_move && view.to_move !== "chance" ? t("Drawn ({name}): {tiles}", { name: helpers.playerName(view.to_move), tiles: hand.map((c) => tileName(c, t)).join(", ") }) : t("Drawn: {tiles}", { tiles: hand.map((c) => tileName(c, t)).join(", ") }) }));
    }
    if (swaps.length) {
      info.append(el("span", { class: "small", text: firstConn ? t("Swap {conn} with…", { conn: firstConn }) : t("Warp: pick two connections to swap") }));
      info.append(el("span", { class: "small muted explain", id: "aga-warp-help", text: t("A Warp may swap two threads of different kinds at its space.") }));
    }
    if (others.some((l) => l.move.startsWith("stack "))) {
      info.append(el("span", { class: "small muted explain", id: "aga-oracle-help", text: t("Oracle: name the stack of your next draw: leaders (A–E), weavers (Warp, Weft) or warriors.") }));
    }
    for (const l of others) {
      info.append(el("button", { type: "button", class: "secondary target", "data-action": l.action, "data-move": l.move,
        onclick: () => ctx.play(l.action) }, buttonText(l.move, t)));
    }
    if (firstConn) info.append(el("button", { type: "button", class: "secondary", onclick: () => { firstConn = null; update(view, ctx); } }, t("Cancel")));
    const pools = st.pools || [];
    info.append(el("span", { class: "small muted", style: "margin-left:auto" },
      pools.map((p, i) => t("{name}: {n} left", { name: view.seats[i] ? helpers.playerName(view.seats[i].player_name) : i, n: p.length })).join(" · "),
      st.aside && st.aside.length ? " · " + t("aside: {tiles}", { tiles: st.aside.map((c) => tileName(c, t)).join(", ") }) : ""));
  }

  function clickConn(key, ctx, swaps) {
    if (!firstConn || firstConn === key) {
      firstConn = firstConn === key ? null : key;
      ctx.rerender();
      return;
    }
    const swap = swaps.find((s) => (s.a === firstConn && s.b === key) || (s.b === firstConn && s.a === key));
    if (swap) { firstConn = null; ctx.play(swap.action); } else { firstConn = key; ctx.rerender(); }
  }

  function drawTile(g, x, y, tile, last) {
    const fill = PLAYER[tile.owner];
    g.append(svg("circle", { cx: x, cy: y, r: 27, fill, stroke: last ? "#6a1b9a" : "#000", "stroke-width": last ? 5 : 1.5 }));
    const leader = /^[A-E]$/.test(tile.code);
    const weaver = tile.code === "WARP" || tile.code === "WEFT";
    g.append(svg("text", { x, y: y + (weaver ? 5 : 4), "text-anchor": "middle", "font-size": weaver ? 14 : 20, "font-weight": 700,
      fill: "#fff", text: leader ? tile.code : tile.code === "WARP" || tile.code === "WEFT" ? t(LABEL[tile.code]) : LABEL[tile.code] }));
    const spears = SPEARS[tile.code];
    for (let i = 0; i < spears; i++) {
      const angle = Math.PI / 2 + (i - (spears - 1) / 2) * 0.45;
      g.append(svg("circle", { cx: x + 19 * Math.cos(angle), cy: y + 19 * Math.sin(angle), r: 3, fill: "#ffd54f" }));
    }
  }

  const board = {
    colours: PLAYER,
    update(view, ctx) {
      ctx.rerender = () => update(view, ctx);
      update(view, ctx);
    },
    destroy() { root.remove(); info.remove(); legend.remove(); },
  };
  return board;
}

function tileName(code, t = (x) => x) {
  if (/^[A-E]$/.test(code)) return t("leader {code}", { code });
  if (/^W\d$/.test(code)) return t("warrior {n}", { n: code[1] });
  return code === "WARP" ? t("Warp") : code === "WEFT" ? t("Weft") : code;
}

// A move in words for people, without its subject ("places warrior 1 on space 31"); the notation
// stays in the records (finding 7). Chance moves ("draw W1") are said without one too.
const STACK_WORDS = { leaders: "leaders", weavers: "weavers", warriors: "warriors" };
export function describeMove(move, t) {
  let m;
  if ((m = /^(\w+)@(\d+)$/.exec(move))) return t("places {tile} on space {n}", { tile: tileName(m[1], t), n: m[2] });
  if ((m = /^draw (\w+)$/.exec(move))) return t("a draw: {tile}", { tile: tileName(m[1], t) });
  if ((m = /^aside (\w+)$/.exec(move))) return t("sets {tile} aside", { tile: tileName(m[1], t) });
  if ((m = /^stack (\w+)$/.exec(move))) return t("names the stack of the {stack} for the next draw", { stack: STACK_WORDS[m[1]] ? t(STACK_WORDS[m[1]]) : m[1] });
  if ((m = /^swap (\d+-\d+) (\d+-\d+)$/.exec(move))) return t("swaps the threads {a} and {b} (Warp)", { a: m[1], b: m[2] });
  if (move === "noswap") return t("swaps no threads (Warp)");
  if ((m = /^setup (\S+)$/.exec(move))) return t("sets up the loom: {classes}", { classes: m[1] });
  return null;
}

// The new-game form (finding 4): the expert settings go under "More options", and options whose
// values are seats, editions or loom classes are offered in words.
export const EXPERT_OPTIONS = ["setup", "first", "rules"];
export function optionChoices(option, seatNames, t) {
  if (option.name === "first") return seatNames.map((name, i) => [String(i), t("{name} begins", { name })]);
  if (option.name === "rules" && option.choices) return option.choices.map((c) => [String(c), c === option.default ? t("{version} (newest)", { version: c }) : String(c)]);
  if (option.name === "setup" && option.choices) {
    return option.choices.map((c) => {
      const [strength, force, leadership] = String(c).split(",");
      return [String(c), t("strength {strength} · force {force} · leadership {leadership}", { strength, force, leadership })];
    });
  }
  return null;
}

// the label of a move's button under the board, in words (finding 18: "aside WARP", "stack leaders")
function buttonText(move, t) {
  let m;
  if (move === "noswap") return t("No swap");
  if ((m = /^stack (\w+)$/.exec(move))) return t("Next draw from the {stack}", { stack: STACK_WORDS[m[1]] ? t(STACK_WORDS[m[1]]) : m[1] });
  if ((m = /^aside (\w+)$/.exec(move))) return t("Set {tile} aside", { tile: tileName(m[1], t) });
  const words = describeMove(move, t);
  return words ? words[0].toUpperCase() + words.slice(1) : move;
}

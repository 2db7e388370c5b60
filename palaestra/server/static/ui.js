// Small pieces every screen uses: the toast, and what the page says about games in words (results,
// seats, move counts, scores), in the page's language.

import { t, language, playerName } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { page, seatColourName } from "/static/state.js";
import { capitalise } from "/static/api.js";

const toastEl = document.getElementById("toast");
let toastTimer = null;
// A message for a person. Refusals are in plain words in the page's language (finding 9); the
// server's own message, which cites the rulings it applied (a ruling ID), stays at hand as the
// toast's tooltip and as a small link to the game's rules page.
export function toast(message, error = false, detail = null) {
  toastEl.replaceChildren(String(message));
  toastEl.removeAttribute("title");
  const rulings = detail ? detail.match(RULING) : null;
  if (detail) toastEl.title = detail;
  if (rulings && page.game) {
    toastEl.append(" ", el("a", { class: "rule-ref", href: `/rules/${page.game}?lang=${language}`, target: "_blank",
      title: rulings.join(", "), "data-rulings": rulings.join(" ") }, t("rules")));
  }
  toastEl.className = "toast show" + (error ? " error" : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toastEl.className = "toast"; }, error ? 6000 : 2500);
}
const RULING = /\b[A-Z]{3}-[A-Z]+\d+[a-z]?\b/g;

// mark move N (0-based) of a move list as the current one and scroll the list to it (finding 8)
export function followList(list, index) {
  [...list.children].forEach((li, i) => {
    li.classList.toggle("current", i === index);
    if (i === index) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  const item = list.children[index];
  if (!item) { list.scrollTop = 0; return; }
  const top = item.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

// The result in words, in the page's language, from the result's numbers (the engines' own
// sentence, in English and citing rulings, is the tooltip): who won, who shares, a draw; after a
// resignation or a flag fall too, who won (finding 2: it said only who resigned). Why the game
// ended is resultReason's.
export function resultText(result, seats, together = false) {
  const names = seats.map(personName);
  const returns = result.returns || [];
  const best = Math.max(...returns);
  const winners = returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
  if (!returns.length || winners.length === returns.length) return t("Draw");
  const list = winners.map((i) => names[i]).join(t(" and "));
  if (winners.length === 1) return t("{name} wins", { name: list });
  return together ? t("{names} win together", { names: list }) : t("{names} share the win", { names: list });
}
// Why the game ended, when a seat ended it, from the result's termination (docs/formats.md): a
// resignation, a flag fall, a seat that left (its win claimed), an abort; null otherwise.
export function resultReason(result, seats) {
  const names = seats.map(personName);
  const who = result.seat !== undefined && result.seat !== null ? names[result.seat] : null;
  switch (result.termination) {
    case "resignation": return who ? t("{name} resigned", { name: who }) : t("a player resigned");
    case "time": return who ? t("{name} ran out of time and loses", { name: who }) : t("a player ran out of time");
    case "abandonment": return who ? t("{name} left the game", { name: who }) : t("a player left the game");
    case "abort": return who ? t("{name} aborted the game", { name: who }) : t("the game was aborted");
    default: return null;
  }
}
// Why the game ended where it was not a seat: the game's own words (its renderer's
// resultReason(view, t): how its rules ended it), else the termination's: adjudicated, the move limit.
export function endReason(view, gameModule, gt) {
  const own = resultReason(view.result, view.seats);
  if (own) return own;
  if (gameModule && gameModule.resultReason) {
    try {
      const game = gameModule.resultReason(view, gt);
      if (game) return game;
    } catch (err) { console.error(err); }
  }
  if (view.result.termination === "adjudication") return t("the result could no longer change");
  if (view.result.termination === "move_limit") return t("the move limit was reached");
  return null;
}
// How the game ended for this browser's seats: "won", "lost" or "drawn"; null for a spectator and
// in hot seat (every seat is this browser's), where the banner stays neutral.
export function outcomeFor(result, mySeats, seatCount) {
  const returns = result.returns || [];
  if (!mySeats.length || mySeats.length === seatCount || returns.length !== seatCount) return null;
  const best = Math.max(...returns);
  if (returns.every((r) => r === best)) return "drawn";
  return mySeats.some((i) => returns[i] === best) ? "won" : "lost";
}
// a seat's own name; the server names AI seats "AI (level)" in English: said in the page's language
export function seatName(seat) {
  const m = seat.name ? /^AI \((\w+)\)$/.exec(seat.name) : null;
  return m && seat.kind === "ai" ? t("AI ({level})", { level: t(m[1]) }) : seat.name;
}
// the players panel says "AI: level" in a tag already
export function isDefaultAiName(seat) { return seat.kind === "ai" && /^AI \(\w+\)$/.test(seat.name || ""); }
export function movesText(n) { return n === 1 ? t("1 move") : t("{n} moves", { n }); }

export function formatScore(x) {
  if (x === undefined || x === null) return "";
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}


// how the position looks for a player after a move, from the AI's value (-1 lost .. 1 won)
export function outlook(value) {
  if (value > 0.6) return t("winning");
  if (value > 0.2) return t("good for you");
  if (value >= -0.2) return t("about even");
  if (value >= -0.6) return t("difficult");
  return t("hard to save");
}

// --- moves in words (finding 7: the list and the labels spoke the engine's notation) ---------------
// A seat's person: the name a member or guest chose, else the seat's colour in the page's
// language (issue 30, finding 8: the status and the banner said "player 1 (S)"): the engine's
// name ("red (A)") translated, or where the engine numbers its players ("player 1 (S)") the
// colour the board draws it in ("orange (S)", from the board's colourNames).
export function personName(seat) {
  if (!seat) return "";
  return seat.kind === "human" && seat.name ? seat.name : colourName(seat);
}
export function colourName(seat) {
  const word = seat.seat === undefined ? null : seatColourName(seat.seat);
  const numbered = /^player \d+(.*)$/.exec(seat.player_name || "");
  return word && numbered ? t(word) + numbered[1] : playerName(seat.player_name);
}
// the seats an invitation still waits for, by name: the name the host gave, else "your friend"
export function invitedNames(seats) {
  const named = seats.filter((s) => s.name).map((s) => s.name);
  const unnamed = seats.length - named.length;
  if (unnamed) named.push(unnamed === 1 ? t("your friend") : t("your friends"));
  return named.join(t(" and "));
}
// describe(move) -> the move in words without its subject ("moves a cube from a2 to b4"), from the
// game's module (its describeMove(move, t)), or null: the notation is all there is
export function describer(gameModule, gt) {
  if (!gameModule || typeof gameModule.describeMove !== "function") return () => null;
  return (move) => {
    try { return gameModule.describeMove(move, gt) || null; } catch (err) { console.error(err); return null; }
  };
}
// a move of the list: "Ann moves a cube from a2 to b4"; a chance move "Draws warrior 1"; without
// words "player 1 (S): a2-b4" (the notation stays in the element's data-move and title)
export function moveLine(mv, seats, describe) {
  const words = describe(mv.move);
  const who = mv.player >= 0 && seats[mv.player] ? personName(seats[mv.player]) : null;
  if (!words) return who ? `${who}: ${mv.move}` : mv.move;
  return capitalise(who ? t("{name} {action}", { name: who, action: words }) : words);
}
// a move on a button or in a hint: "Moves a cube from a2 to b4", else its notation
export function moveLabel(move, describe) {
  const words = describe(move);
  return words ? capitalise(words) : move;
}

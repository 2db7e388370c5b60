// What this browser knows and what the page is showing: the seats' tokens and the invitations this
// browser made (localStorage), the player's name, the game on screen and its seat colours.

import { PLAYER_COLOURS } from "/static/dom.js";

// --- what this browser knows: its seats' tokens, invitations it made, its name --------------------
const STORE_KEY = "palaestra.games";
export function loadMine() {
  try { return JSON.parse(localStorage.getItem(STORE_KEY) || "{}"); } catch { return {}; }
}
function saveMine(mine) { localStorage.setItem(STORE_KEY, JSON.stringify(mine)); }
export function mineOf(id) {
  const mine = loadMine();
  return mine[id] || { tokens: {}, invites: {} };
}
export function rememberGame(id, entry) {
  const mine = loadMine();
  mine[id] = { tokens: {}, invites: {}, ...(mine[id] || {}), ...entry, at: Date.now() };
  saveMine(mine);
}
export function myName() { return localStorage.getItem("palaestra.name") || ""; }
export function setMyName(name) { localStorage.setItem("palaestra.name", name); }

// --- the page on screen --------------------------------------------------------------------------
// the game on screen (a refusal's rule link goes to its rules page); null off a game's pages
export const page = { game: null };

// the seat colours of the board on screen (its renderer may have its own)
let seatColours = PLAYER_COLOURS;
// the board's names of those colours ("orange", "blue"), for seats the engine calls "player 1 (S)"
let colourNames = null;
export function setSeatColours(colours, names = null) { seatColours = colours || PLAYER_COLOURS; colourNames = names || null; }
export function seatColourName(i) { return colourNames ? colourNames[i % colourNames.length] : null; }
export function seatColour(i) { return seatColours[i % seatColours.length]; }

// The rules pages' examples (/rules/GAME): each figure is a position the server played on the
// engine (the game's web/rules_examples.py, made views by palaestra/server/rules_examples.py), drawn
// by the game's own renderer exactly as a game screen draws it, with the game's own texts. The
// positions come as JSON in a data block (<script type="application/json">, which is never
// executed, so the Content-Security-Policy's script-src 'self' holds).

import { gameT, playerName, loadCatalogue } from "/static/i18n.js";
import { el, svg, PLAYER_COLOURS, lastTurns, lastMover } from "/static/dom.js";

const data = JSON.parse(document.getElementById("rules-examples").textContent);
const lang = await loadCatalogue(document.documentElement.lang); // the page's language, chosen by the server
const t = await gameT({ name: document.getElementById("rules").dataset.game, catalogues: { [lang]: data.catalogue } });
let mod = null;
try { mod = await import(data.renderer); } catch (err) { console.error("renderer failed", err); }
const helpers = { el, svg, PLAYER_COLOURS, toast() {}, lastTurns, lastMover, t, playerName };
for (const example of data.examples) {
  const box = document.querySelector(`[data-example="${example.id}"]`);
  if (!box || !mod || !mod.createBoard) continue;
  const board = mod.createBoard(box, helpers);
  // highlighted moves (a cube's targets) are shown, never played: clicking does nothing
  const ctx = { interactive: example.show.length > 0, legal: example.show, play() {}, mySeats: [], replay: false, rerender() {} };
  board.update(example.view, ctx);
  box.dataset.drawn = "true";
}
document.body.dataset.examples = "drawn";

// The board turned to the player's side (issue 30): a game's renderer may say by how many degrees
// its board turns so that a seat's own side is at the bottom (its module's turnFor(view, seat);
// without it the board stays as drawn), and the "Flip board" control turns it half round more.
// The turning is CSS only (style.css, ".board-wrap.turned"): the board's <svg> rotates, and its
// texts turn back so that they stay upright; the renderers draw as they always do.

// the seat whose side is at the bottom: this browser's only seat (or its first, when it holds some
// but not all); none for a spectator and in hot seat
export function viewerSeat(mySeats, seatCount) {
  return mySeats.length && mySeats.length < seatCount ? Math.min(...mySeats) : null;
}

// the degrees the board turns for the seat (0 without a renderer's turnFor)
export function seatTurn(gameModule, view, seat) {
  if (seat === null || !gameModule || typeof gameModule.turnFor !== "function") return 0;
  try { return Number(gameModule.turnFor(view, seat)) || 0; } catch (err) { console.error(err); return 0; }
}

// turn the board in box by degrees (the seat's turn, plus 180 when flipped)
export function turnBoard(box, degrees) {
  const turn = ((degrees % 360) + 360) % 360;
  box.classList.toggle("turned", turn !== 0);
  box.style.setProperty("--turn", `${turn}deg`);
  box.dataset.turn = String(turn);
}

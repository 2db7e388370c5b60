"""The text view of an Agamemnon state for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.games.agamemnon.game import (
    CODES,
    END,
    KIND_LETTERS,
    NUM_TURNS,
    PLACE,
    PLAYER_NAMES,
    SETUP,
    SETUP_NAMES,
    SPEARS,
    STACK,
    STACK_NAMES,
    SWAP,
    TURN_TILES,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonState

_OWNER_MARK = ("o", "b")


def _tile(state: AgamemnonState, s: int) -> str:
    if s == state._out:
        return "(out of play)"
    if state._owner[s] < 0:
        return "."
    return f"{_OWNER_MARK[state._owner[s]]}:{CODES[state._code[s]]}"


def render(state: AgamemnonState, labels: bool = False) -> str:
    game = state.game
    board = game.board
    lines: list[str] = []
    variants = [name for name, on in (("oracle", game.oracle), ("defying the gods", game.defying)) if on]
    head = f"Agamemnon — {board.side} board"
    if state._setup >= 0:
        head += f" (set-up {SETUP_NAMES[state._setup]})"
    if variants:
        head += " — " + ", ".join(variants)
    lines.append(head)
    who = PLAYER_NAMES[state._mover]
    if state._phase == END:
        lines.append(f"Game over after {state._placed} tiles: {state.result_text()}")
    elif state._phase == SETUP:
        lines.append("The loom set-up is drawn first.")
    else:
        t = state._turn
        status = f"Turn {t + 1}/{NUM_TURNS}: {who} to "
        if state._phase == SWAP:
            status += f"choose the Warp's swap on space {state._warp} (or noswap)"
        elif state._phase == STACK:
            status += f"name the stack of the next draw, then place {state._todo} tile(s)"
        else:
            status += f"place {state._todo} of {TURN_TILES[t]} tile(s)"
        lines.append(status)
    p0, p1 = state._points()
    lines.append(f"Score: orange {p0} — black {p1}")
    for p in (0, 1):
        left = state.pool(p)
        what = "left to place" if game.defying else "to draw"
        line = f"{PLAYER_NAMES[p]:>6} ({_OWNER_MARK[p]}): {len(left):2d} {what}: {' '.join(left) or '-'}"
        if p == state._mover and state._phase != END:
            if state._hand:
                line += f" | drawn: {' '.join(CODES[c] for c in state._hand)}"
            if state._aside:
                line += f" | set aside: {' '.join(CODES[c] for c in state._aside)}"
            if state._pending:
                line += f" | stacks named: {' '.join(STACK_NAMES[x] for x in state._pending)}"
        lines.append(line)
    if state._phase == PLACE and state._redraw_allowed() and any(c in (8, 9) for c in state._hand):
        lines.append("A drawn weaver may be set aside for a fresh draw (aside WARP / aside WEFT).")
    if state._phase == SETUP:
        return "\n".join(lines)
    lines.append("")
    lines.append("space tile      connections (S strength, F force, L leadership, - empty)")
    kinds = state._kinds
    for s in range(board.num_spaces):
        conns = []
        for c in board.incident[s]:
            a, b = board.connections[c]
            conns.append(f"{b if a == s else a}{KIND_LETTERS[kinds[c]]}")
        lines.append(f"{s:>4}  {_tile(state, s):<9} {' '.join(conns)}")
    lines.append("")
    lines.append("strings with tiles (kind, points, controller, connections):")
    shown = 0
    for string in state.strings():
        conns_list = string["connections"]
        ends = {x for ab in conns_list for x in ab}
        if not any(state._owner[x] >= 0 for x in ends):
            continue
        shown += 1
        ctrl = string["controller"]
        owner = PLAYER_NAMES[ctrl] if ctrl is not None else "tied"
        path = " ".join(f"{a}-{b}" for a, b in conns_list)
        lines.append(f"  {string['kind'][0].upper()} {len(conns_list):2d} {owner:<6} {path}")
    if not shown:
        lines.append("  (none yet)")
    if labels:
        lines.append("")
        lines.append(
            "o: orange (Trojans), b: black (Greeks); tiles A-E leaders (A highest), W1-W3 warriors, "
            "WARP/WEFT weavers"
        )
        spears = ", ".join(f"{c}={n}" for c, n in zip(CODES, SPEARS, strict=True))
        lines.append(f"spears: {spears}")
    return "\n".join(lines)

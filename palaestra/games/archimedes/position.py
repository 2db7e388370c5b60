"""The Archimedes position document (docs/archimedes.md): reading and writing it.

``{"game": "archimedes", "players": 2, "revisit": false, "move_limit": 1000,
"cubes": [["a2", "a4", "a6", "a8"], ["h2", "h4", "h6", "h8"]], "to_move": 0, "passes": 0,
"ply": 0}``; only ``game`` and ``cubes`` are required. ``ArchimedesGame.state_from_position``
reads one with the checks below; ``ArchimedesState.to_position`` writes one with
:func:`position_of`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from palaestra.core.errors import PositionError
from palaestra.core.game import OptionValue, is_int
from palaestra.games.archimedes.moves import cell_help

if TYPE_CHECKING:
    from palaestra.games.archimedes.game import ArchimedesGame
    from palaestra.games.archimedes.rules import ArchimedesState

POSITION_KEYS = (
    "game",
    "options",
    "players",
    "revisit",
    "move_limit",
    "cubes",
    "to_move",
    "passes",
    "ply",
    "format",
)
#: the options a position may set (the others are the game's own)
_POSITION_OPTIONS = ("players", "revisit", "move_limit")


def read_document(doc: object) -> tuple[Mapping[str, Any], list[list[Any]]]:
    """The document and its ``cubes`` lists: :class:`PositionError` for another game, an unknown
    field or cubes that are not one list per player."""
    if not isinstance(doc, Mapping):
        raise PositionError("a position is a JSON object")
    if doc.get("game", "archimedes") != "archimedes":
        raise PositionError(f"this position is of {doc.get('game')!r}, not archimedes")
    unknown = sorted(set(doc) - set(POSITION_KEYS))
    if unknown:
        raise PositionError(
            f"unknown field {unknown[0]!r} in an archimedes position (fields: {', '.join(POSITION_KEYS)})"
        )
    cubes = doc.get("cubes")
    if not isinstance(cubes, list) or not all(isinstance(c, list) for c in cubes):
        raise PositionError("'cubes' is a list with one list of cell names per player")
    return doc, cubes


def read_options(
    doc: Mapping[str, Any], cubes: list[list[Any]], options: Mapping[str, OptionValue | None]
) -> dict[str, object]:
    """The game options of the position: ``options`` (the game's), then the document's
    ``options`` object, then its top-level fields; the player count from the cubes if unset."""
    out: dict[str, object] = {k: v for k, v in options.items() if k in ("revisit", "move_limit")}
    given = doc.get("options", {})
    if not isinstance(given, Mapping):
        raise PositionError("'options' is a JSON object")
    out.update(given)
    out.update({key: doc[key] for key in _POSITION_OPTIONS if key in doc})
    if "players" not in out:
        out["players"] = len(cubes) if len(cubes) in (2, 3) else options["players"]
    return out


def read_cubes(game: ArchimedesGame, cubes: list[list[Any]]) -> list[int]:
    """The cells of the cubes, four per player in player order (ARC-S1, ARC-S2)."""
    n = game.num_players
    if len(cubes) != n:
        raise PositionError(f"'cubes' has {len(cubes)} lists, one per player: {n} are needed")
    board = game.board
    pos: list[int] = []
    owner: dict[int, int] = {}
    for p, cells in enumerate(cubes):
        who = game.player_name(p)
        if len(cells) != game.cubes_per_player:
            raise PositionError(f"{who} has {len(cells)} cubes, not {game.cubes_per_player}")
        for name in cells:
            if not isinstance(name, str) or name.strip().lower() not in board.index:
                raise PositionError(f"{who}: {name!r} is not a cell of the board ({cell_help(board)})")
            c = board.index[name.strip().lower()]
            if c in owner:
                raise PositionError(f"two cubes on {board.names[c]} ({game.player_name(owner[c])} and {who})")
            owner[c] = p
            pos.append(c)
    home = [p for p in range(n) if all(game.goal_mask[p] >> c & 1 for c in game.cubes_of(pos, p))]
    if len(home) > 1:
        raise PositionError(" and ".join(game.player_name(p) for p in home) + " all have four cubes home")
    return pos


def _whole_number(doc: Mapping[str, Any], key: str, low: int, high: int | None, what: str) -> int:
    value = doc.get(key, 0)
    if not is_int(value):
        raise PositionError(f"{key!r} is a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        raise PositionError(f"{what}, not {value}")
    return value


def read_turn(doc: Mapping[str, Any], players: int) -> tuple[int, int, int]:
    """``(to_move, passes, ply)``: the player to move, the passes in a row (ARC-M6), the plies."""
    to_move = _whole_number(
        doc, "to_move", 0, players - 1, f"'to_move' is a player number from 0 to {players - 1}"
    )
    passes = _whole_number(doc, "passes", 0, players, f"'passes' (passes in a row) is from 0 to {players}")
    ply = _whole_number(doc, "ply", 0, None, "'ply' is 0 or more")
    return to_move, passes, ply


def check_passes(state: ArchimedesState) -> None:
    """The players who passed just before had no move here (ARC-M6): the position is static."""
    if state.end_reason == "home":
        return
    n = state.game.num_players
    for back in range(1, state.passes + 1):
        p = (state.to_move - back) % n
        passed = state.moves_of(p)
        if passed:
            raise PositionError(
                f"'passes' is {state.passes}, but {state.game.player_name(p)} has a legal move here "
                f"({state.action_to_string(passed[0])}) and cannot have passed"
            )


def position_of(state: ArchimedesState) -> dict[str, Any]:
    """The position document of ``state``."""
    g = state.game
    return {
        "game": g.name,
        "players": g.num_players,
        "revisit": g.revisit,
        "move_limit": g.move_limit,
        "cubes": [state.cubes(p) for p in range(g.num_players)],
        "to_move": state.to_move,
        "passes": state.passes,
        "ply": state.ply,
    }

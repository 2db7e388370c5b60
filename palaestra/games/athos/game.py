"""The Athos game: its options and set-up (ATH-B1..B3 the board, ATH-S1, ATH-S2 the seats, ATH-V1
teams, ATH-V2 handicap, ATH-V3 bare stone), its action space and its documents; and the public
names of Athos where earlier versions kept them. The rules of play are in rules.py.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Mapping
from typing import Any, ClassVar

from palaestra.core.errors import OptionError, PositionError, RecordError
from palaestra.core.game import RULES_ORIGINAL, Game, Option, is_int, rules_option
from palaestra.games.athos import display, position
from palaestra.games.athos.board import START_LETTERS, Board, load_board
from palaestra.games.athos.constants import (
    BONUS,
    COLOURS,
    FIRST_TEAM,
    FLIP_COST,
    LIMITS,
    MAX_HANDICAP,
    MAX_PLAYERS,
    MAX_ROUND_LIMIT,
    MAX_TURN_ACTIONS,
    MONKS,
    MOVEMENT_POINTS,
    PHASE_NAMES,
    ROUND_LIMIT,
    STARTS,
    STONES,
    TEAM_ORDER,
    TILES_PER_TERRAIN,
    Phase,
    Side,
)
from palaestra.games.athos.layout import LAYOUT_OPTION, layout_board
from palaestra.games.athos.moves import Move, action_layout, encode, move_table
from palaestra.games.athos.rules import AthosState

# the phases and tile sides under their earlier names
HANDICAP, MOVE, STONE, RELOCATED, PLACE, OVER = Phase
NONE, OPEN, RUBBLE = Side

__all__ = [
    "BONUS",
    "FLIP_COST",
    "HANDICAP",
    "LIMITS",
    "MONKS",
    "MOVE",
    "MOVEMENT_POINTS",
    "NONE",
    "OPEN",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "RELOCATED",
    "RUBBLE",
    "STONE",
    "STONES",
    "TILES_PER_TERRAIN",
    "AthosGame",
    "AthosState",
    "Phase",
    "Side",
]


@functools.lru_cache(maxsize=8)
def _cached_board(path: str | None, stamp: tuple[int, int] | None) -> Board:
    return load_board(path)


def _board(path: str | None) -> Board:
    """The board of a file, loaded once per version of it (a file changed on disk, same path, is
    read again: the cache key has its modification time and size)."""
    if path is None:
        return _cached_board(None, None)
    try:
        info = os.stat(path)
    except OSError:
        return load_board(path)  # raises BoardFileError naming the file
    return _cached_board(path, (info.st_mtime_ns, info.st_size))


class AthosGame(Game):
    """Athos for 2-4 players; variants ATH-V1 (teams), ATH-V2 (handicap), ATH-V3 (bare stone)."""

    name: ClassVar[str] = "athos"
    title: ClassVar[str] = "Athos"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (ATH-S1)", minimum=min(STARTS), maximum=MAX_PLAYERS),
        Option("teams", bool, False, "ATH-V1 teams: 4 players, A+B against D+E, seats A, D, B, E"),
        Option(
            "handicap_player",
            int,
            None,
            "ATH-V2: the seat (0 = first) that places handicap tiles",
            minimum=0,
            maximum=MAX_PLAYERS - 1,
        ),
        Option(
            "handicap_tiles",
            int,
            None,
            "ATH-V2: how many handicap tiles (at least 2; 0 = off)",
            minimum=0,
            maximum=MAX_HANDICAP,
        ),
        Option("bare_stone", bool, False, "ATH-V3: an Athos stone may stand on a bare free field"),
        Option(
            "round_limit",
            int,
            ROUND_LIMIT,
            "ATH-E3: the game ends after this many rounds",
            minimum=1,
            maximum=MAX_ROUND_LIMIT,
        ),
        Option("order", str, None, "ATH-S2: seat order as start-field letters, e.g. DB or ECA"),
        Option("board", str, None, "a board file (default: Palaestra's own board)", server=False),
        LAYOUT_OPTION,
        rules_option(),
    )

    # --- set-up: ATH-B1..B3, ATH-S1, ATH-S2, ATH-V1..V3 ----------------------------------------
    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        chosen = self.options
        n = int(chosen["players"])  # type: ignore[arg-type]
        self._players = n
        #: ATH-V1: the team variant (the option ``teams``; who plays with whom: :meth:`teams`)
        self.team_variant = bool(chosen["teams"])
        if self.team_variant and n != len(TEAM_ORDER):
            raise OptionError(f"the team variant (ATH-V1) needs 4 players, not {n}")
        handicap = self._handicap(chosen["handicap_tiles"], chosen["handicap_player"])
        self.handicap_tiles, self.handicap_player = handicap
        self.bare_stone = bool(chosen["bare_stone"])
        #: the rulings of 2026-11-23: one stone per tile (ATH-T7), handicap tiles of the field's
        #: terrain (ATH-V2), every side below the winners shares one rank (before ATH-E4)
        self.original_rules = chosen["rules"] == RULES_ORIGINAL
        self.round_limit = int(chosen["round_limit"])  # type: ignore[arg-type]
        self.seats = self._seat_order(chosen["order"])
        board_path = chosen["board"]
        self.board = _board(str(board_path) if board_path is not None else None)
        if chosen["layout"] is not None:  # the board as data: a shipped name or a document
            self.board = layout_board(chosen["layout"], board_path)
        b = self.board
        #: node id of each seat's start field
        self.start_of = [b.start_ids[START_LETTERS.index(s)] for s in self.seats]
        #: side of each seat: the player itself, or its team (0: A+B, 1: D+E)
        self.side_of = [
            (0 if s in FIRST_TEAM else 1) if self.team_variant else p for p, s in enumerate(self.seats)
        ]
        self.num_sides = len(set(self.side_of))
        self.members = [[p for p in range(n) if self.side_of[p] == s] for s in range(self.num_sides)]
        self.max_tiles, self.max_per_terrain = LIMITS[n]
        #: the action space (moves.py), and the move of every id decoded through it once
        self.action_space = action_layout(b)
        #: the first id of each segment of the action space, by name (for the fast generator)
        self.first_id = {segment.name: segment.start for segment in self.action_space}
        self.moves = move_table(b)
        #: the steps out of every node, as ``(node entered, action id, node left)``
        self.steps_from = tuple(tuple((v, e, u) for v, e in b.out[u]) for u in range(b.size))

    def _handicap(self, tiles: object, who: object) -> tuple[int, int]:
        """ATH-V2: the number of handicap tiles (0: none) and the seat that places them (-1)."""
        count = tiles if isinstance(tiles, int) else 0
        seat = who if isinstance(who, int) else None
        if count == 1:
            raise OptionError("a handicap (ATH-V2) is at least 2 tiles")
        if count and seat is None:
            raise OptionError("handicap_tiles needs handicap_player: the seat that places them (ATH-V2)")
        if seat is not None and not count:
            raise OptionError("handicap_player needs handicap_tiles (at least 2) (ATH-V2)")
        n = self._players
        if seat is not None and seat >= n:
            raise OptionError(f"handicap_player is a seat from 0 to {n - 1}, not {seat}")
        return count, -1 if seat is None else seat

    def _seat_order(self, order: object) -> str:
        """ATH-S1, ATH-S2, ATH-V1: the start field of each seat, in seat order."""
        n = self._players
        default = TEAM_ORDER if self.team_variant else STARTS[n]
        if order is None:
            return default
        seats = str(order).upper().replace(",", "").replace(" ", "")
        if sorted(seats) != sorted(default):
            raise OptionError(
                f"order lists the start fields {', '.join(sorted(default))} for {n} players "
                f"(ATH-S1), each once, not {order!r}"
            )
        if self.team_variant and any(
            (a in FIRST_TEAM) == (b in FIRST_TEAM) for a, b in itertools.pairwise(seats)
        ):
            raise OptionError(f"in the team variant the seat order alternates teams (ATH-V1), not {order!r}")
        return seats

    @property
    def num_players(self) -> int:
        return self._players

    def num_distinct_actions(self) -> int:
        return self.action_space.size

    def decode(self, action: int) -> Move:
        """The typed move of an action id, through the action layout (``self.moves``: every id
        decoded once per board); ``ValueError`` for an id outside it."""
        if not is_int(action) or not 0 <= action < self.action_space.size:
            raise ValueError(f"{action!r} is not an action of this game (0 to {self.action_space.size - 1})")
        return self.moves[action]

    def encode(self, move: Move) -> int:
        """The action id of a typed move (the inverse of :meth:`decode`)."""
        if not isinstance(move, Move):
            raise ValueError(f"{move!r} is not a move of {self.name}")
        try:
            return encode(move, self.action_space, self.board)
        except (KeyError, ValueError):  # a step between non-neighbours, a field off the board
            raise ValueError(f"{move!r} is not a move on this board") from None

    def max_game_length(self) -> int:
        return self.handicap_tiles + self.round_limit * self._players * MAX_TURN_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        return display.observation_shape(self)

    def team_name(self, side: int) -> str:
        """The start fields of a side: ``A+B`` (ATH-V1), or the one field of a player."""
        return "+".join(sorted(self.seats[p] for p in self.members[side]))

    def player_name(self, player: int) -> str:
        if 0 <= player < self._players:
            return f"{COLOURS[player]} ({self.seats[player]})"
        return f"player {player}"

    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """ATH-V1: the seats of each side (A+B, then D+E) in the team variant; else ``None``."""
        if not self.team_variant:
            return None
        return tuple(tuple(seats) for seats in self.members)

    def new_initial_state(self, seed: int | None = None) -> AthosState:
        return AthosState(self, seed)

    # --- states from documents (position.py) ---------------------------------------------------
    def _state_from_dict(self, doc: Mapping[str, Any]) -> AthosState:
        saved = doc.get("position")
        if not isinstance(saved, Mapping):
            raise RecordError("a saved Athos state holds its position in 'position'")
        try:
            state = self._from_position(saved)
        except PositionError as err:
            raise RecordError(f"the saved state's position is wrong: {err}") from None
        history = doc.get("history", [])
        if not isinstance(history, list) or not all(isinstance(a, int) for a in history):
            raise RecordError("'history' is a list of action ids")
        state.history = list(history)
        seed = doc.get("seed")
        state.seed = seed if isinstance(seed, int) else None
        return state

    def state_from_position(self, doc: Mapping[str, Any]) -> AthosState:
        if not isinstance(doc, Mapping):
            raise PositionError("a position is a JSON object")
        if doc.get("game", "athos") != "athos":
            raise PositionError(f"this position is of {doc.get('game')!r}, not 'athos'")
        options = doc.get("options")
        game: AthosGame = self
        if options is not None:
            if not isinstance(options, Mapping):
                raise PositionError("'options' is a JSON object")
            try:
                other = AthosGame(**options)
            except OptionError as err:
                raise PositionError(f"the position's options: {err}") from None
            if other != self:
                game = other
        return game._from_position(doc)

    def _from_position(self, doc: Mapping[str, Any]) -> AthosState:
        state = AthosState(self)
        position.read_position(state, doc)
        return state

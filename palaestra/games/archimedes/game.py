"""The Archimedes game: its options, its set-up (ARC-B1, ARC-B2, ARC-S1, ARC-S2), its action space
and its documents. The rules of play are in rules.py (``ArchimedesState``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from palaestra.core.errors import IllegalActionError, PositionError, RecordError
from palaestra.core.game import Game, Option, is_int
from palaestra.games.archimedes import display, heuristic, moves, position
from palaestra.games.archimedes._fast import MoveGenerator
from palaestra.games.archimedes.board import OPPOSITE, Board, default_board
from palaestra.games.archimedes.moves import Kind, Move
from palaestra.games.archimedes.rules import (
    CUBES,
    DEFAULT_MOVE_LIMIT,
    HOME,
    LIMIT,
    PASSES,
    START_SIDES,
    ArchimedesState,
)

__all__ = [
    "CUBES",
    "DEFAULT_MOVE_LIMIT",
    "HOME",
    "LIMIT",
    "PASSES",
    "START_SIDES",
    "ArchimedesGame",
    "ArchimedesState",
]


class ArchimedesGame(Game):
    """Archimedes for 2 or 3 players (ARC-S1, ARC-S2)."""

    name: ClassVar[str] = "archimedes"
    title: ClassVar[str] = "Archimedes"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (2 or 3)", choices=(2, 3)),
        Option(
            "revisit",
            bool,
            False,
            "paths may enter a cell more than once (ARC-M2 game option; never end on the start)",
        ),
        Option(
            "move_limit",
            int,
            DEFAULT_MOVE_LIMIT,
            "the game ends after this many plies, passes included (software limit; ranked as in ARC-M6)",
            minimum=1,
            maximum=10_000_000,
        ),
    )

    # --- set-up: ARC-B1, ARC-B2, ARC-S1, ARC-S2 ------------------------------------------------
    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.board: Board = default_board()
        b = self.board
        n = self.num_players
        #: the number of players (``num_players``, as a plain attribute for speed)
        self.players = n
        self.cubes_per_player = CUBES
        self.size = b.size
        #: the action ids (``moves.layout``): a cube's move ``start * size + end``, then the pass
        self.layout = moves.layout(b)
        #: the action id of a pass
        self.pass_action = self.layout[Kind.PASS].start
        # the fast paths read a move's cells as divmod(action, size): the layout must put them there
        assert self.layout[Kind.MOVE].start == 0 and self.pass_action == b.size * b.size
        self.revisit = bool(self.options["revisit"])
        limit = self.options["move_limit"]
        assert isinstance(limit, int)
        self.move_limit: int = limit
        self.start_sides = START_SIDES[n]
        self.goal_sides = tuple(OPPOSITE[s] for s in self.start_sides)
        self.start_mask: tuple[int, ...] = tuple(b.side_mask(s) for s in self.start_sides)
        self.goal_mask: tuple[int, ...] = tuple(b.side_mask(s) for s in self.goal_sides)
        self.all_mask = b.all_mask
        #: ``rows_mask[c]``: the three rows through cell ``c`` (ARC-M1; the board's, kept here for speed)
        self.rows_mask = b.rows_mask
        #: ARC-M3: a cube on cell ``c`` keeps every other cube out of ``block_mask[c]`` (the cell
        #: and its neighbours)
        self.block_mask: tuple[int, ...] = tuple((1 << c) | b.neighbour_mask[c] for c in range(b.size))
        #: the path tables and memos that make the path rulings cheap (ARC-M2, ARC-M4)
        self.move_generator = MoveGenerator(b, self.goal_mask, self.revisit, max_steps=CUBES * n)
        #: :meth:`MoveGenerator.ends`, bound once (the rules ask it for every cube they move)
        self.ends = self.move_generator.ends
        #: what the heuristic knows of each player's goal side (made on first use by heuristic)
        self.goal_plans: list[heuristic.GoalPlan] | None = None

    def cubes_of(self, pos: list[int], player: int) -> list[int]:
        """The cells of ``player``'s cubes in the flat list of cells ``pos``."""
        return pos[CUBES * player : CUBES * (player + 1)]

    @property
    def num_players(self) -> int:
        players = self.options["players"]
        assert isinstance(players, int)
        return players

    def num_distinct_actions(self) -> int:
        return self.layout.size

    # --- moves and their ids: the one place they meet (moves.py) -------------------------------
    def decode(self, action: int) -> Move:
        """The :class:`~palaestra.games.archimedes.moves.Move` of an action id; ``ValueError`` for
        an id outside the action space."""
        Game.decode(self, action)  # the core's check and message for a bad id
        return moves.decode(action, self.layout)

    def encode(self, move: Move) -> int:
        """The action id of ``move``; ``ValueError`` for anything that is no move of this board."""
        if not isinstance(move, Move) or not isinstance(move.kind, Kind):
            raise ValueError(f"{move!r} is not a move of {self.name}")
        try:
            return moves.encode(move, self.layout)
        except ValueError:
            raise ValueError(f"{move!r} is not a move of {self.name}: a cell outside the board") from None

    def max_game_length(self) -> int:
        return self.move_limit

    def observation_shape(self) -> tuple[int, ...]:
        return display.observation_shape(self)

    def player_name(self, player: int) -> str:
        return f"player {player + 1} ({self.start_sides[player]})"

    def new_initial_state(self, seed: int | None = None) -> ArchimedesState:
        """ARC-S1, ARC-S2: every player's cubes on the rim cells of its start side; player 1 begins."""
        pos = [c for side in self.start_sides for c in self.board.sides[side]]
        return ArchimedesState(self, pos, seed=seed)

    # --- states from documents ---------------------------------------------------------------
    def _state_from_dict(self, doc: Mapping[str, Any]) -> ArchimedesState:
        start = doc.get("start")
        history = doc.get("history", [])
        if not isinstance(history, list) or not all(is_int(a) for a in history):
            raise RecordError("'history' of a saved state is a list of action ids")
        try:
            state = (
                self.new_initial_state(doc.get("seed")) if start is None else self.state_from_position(start)
            )
        except PositionError as err:
            raise RecordError(f"the saved state's start position is broken: {err}") from None
        state.seed = doc.get("seed")
        for i, action in enumerate(history):
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise RecordError(f"action {i + 1} of the saved state does not replay: {err}") from None
        saved = doc.get("position")
        if saved is not None and saved != state.to_position():
            raise RecordError("the saved position differs from the one its history gives")
        return state

    def state_from_position(self, doc: Mapping[str, Any]) -> ArchimedesState:
        """A state from a position document (``position.py``, docs/archimedes.md)."""
        state = position.read_position(self, doc)
        state._origin = state.to_position()
        return state

"""The Agamemnon game: its options, boards and facts, and states from documents (AGA-B1, AGA-B2,
AGA-V1..V3, the rules version). The rules of play are in ``rules.py``; this module also keeps the
public names where earlier versions had them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from palaestra.core.errors import OptionError
from palaestra.core.game import RULES_ORIGINAL, Game, Option, is_int, rules_option
from palaestra.games.agamemnon import _fast, display, moves, position, saved, warps
from palaestra.games.agamemnon.board import CLASS_NAMES, KIND_NAMES, Board, load_boards
from palaestra.games.agamemnon.moves import CHANCE_LAYOUT, Move, action_layout
from palaestra.games.agamemnon.rules import AgamemnonState
from palaestra.games.agamemnon.tiles import (
    NUM_PLAYERS,
    PLAYER_NAMES,
    SET_ASIDE_TURNS,
    SETUP_NAMES,
    SUPPLY,
    TOTAL_TILES,
    WARP,
    WEFT,
)

__all__ = ["CLASS_NAMES", "KIND_NAMES", "AgamemnonGame", "AgamemnonState", "Board"]


class AgamemnonGame(Game):
    """Agamemnon for two players; variants Loom (AGA-V1), Oracle (AGA-V2), Defying the gods (AGA-V3)."""

    name: ClassVar[str] = "agamemnon"
    title: ClassVar[str] = "Agamemnon"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (Agamemnon is for 2)", choices=(2,)),
        Option("loom", bool, False, "AGA-V1 Loom: play on the loom side of the board"),
        Option(
            "oracle", bool, False, "AGA-V2 Oracle: name the stack (leaders/weavers/warriors) of each draw"
        ),
        Option("defying", bool, False, "AGA-V3 Defying the gods: open tiles, choose which to place"),
        Option(
            "setup",
            str,
            None,
            "loom set-up (implies the loom): the classes of strength, force and leadership, "
            "e.g. I,II,III (unset: drawn at random)",
            choices=SETUP_NAMES,
        ),
        Option("first", int, 0, "the starting player (0 orange, 1 black)", choices=(0, 1)),
        rules_option(),
    )

    # --- set-up: AGA-B1, AGA-B2, AGA-V1 (the rules of it are in rules.py) ---------------------------
    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if self.options["setup"] is not None:
            # a loom set-up implies the loom (so that a position's options {"setup": ...} load)
            if "loom" in options and self.options["loom"] is False:
                raise OptionError("option 'setup' (the loom set-up) needs the loom variant")
            self.options["loom"] = True
        self.loom = bool(self.options["loom"])
        self.oracle = bool(self.options["oracle"])
        self.defying = bool(self.options["defying"])
        first = self.options["first"]
        self.first = first if isinstance(first, int) else 0
        setup = self.options["setup"]
        self.setup_index = SETUP_NAMES.index(str(setup)) if setup is not None else -1
        self.board: Board = load_boards()["loom" if self.loom else "front"]
        #: the player actions (moves.py)
        self.layout = action_layout(len(self.board.pairs))
        #: the move of every player action id and of every chance outcome id, decoded once (the
        #: engine decodes at every action: ``decode``)
        self.moves, self.chance_moves = moves.all_moves(self.layout)
        #: both ends of each connection as a space mask
        self.ends = tuple((1 << a) | (1 << b) for a, b in self.board.connections)
        #: the rulings of 2026-11-23 let a Warp move a string tile onto any empty connection
        self.any_warp_target = self.options["rules"] == RULES_ORIGINAL
        self._targets: dict[int, int] = {}
        self._maps_cache: dict[tuple[int, ...], _fast.KindMaps] = {}
        #: the strings cache shared by every assignment of string tiles on this game (_fast.KindMaps)
        self.strings_memo: dict[int, _fast.Strings] = {}
        #: the connection kinds and the out-of-play space a game starts with (None: the loom
        #: set-up is drawn first)
        self.start_kinds: tuple[int, ...] | None = None
        self.start_out = -1
        self._start: AgamemnonState | None = None
        if not self.loom:
            self.start_kinds = self.board.labels
        elif self.setup_index >= 0:
            self.start_kinds, self.start_out = self.setup_kinds(self.setup_index)

    def setup_kinds(self, index: int) -> tuple[tuple[int, ...], int]:
        """AGA-B2: the connection kinds and the out-of-play space of loom set-up ``index``
        (:func:`warps.setup_kinds`)."""
        return warps.setup_kinds(self.board, index)

    def warp_targets(self, out: int) -> int:
        """AGA-T4, AGA-B2 (amended 2026-11-25): the connections (a mask) onto which a loom Warp may
        move a string tile when they are empty: those printed with the fourth class of the set-up
        (the class of the out-of-play space ``out``'s connections) that do not touch ``out``."""
        targets = self._targets.get(out)
        if targets is None:
            targets = self._targets[out] = warps.warp_targets(self.board, out, self.any_warp_target)
        return targets

    def kind_maps(self, kinds: tuple[int, ...]) -> _fast.KindMaps:
        """The fast scoring's maps of ``kinds`` (memoised per game: they only depend on the board)."""
        maps = self._maps_cache.get(kinds)
        if maps is None:
            if len(self._maps_cache) > 64:
                self._maps_cache.clear()
            maps = _fast.KindMaps.build(self.board, kinds, self.strings_memo)
            self._maps_cache[kinds] = maps
        return maps

    # --- moves and action ids (moves.py) ---------------------------------------------------------
    def decode(self, action: object, chance: bool = False) -> Move:
        """The move of a player's action id, or with ``chance`` of a chance outcome's id (the two
        share the integers, as in OpenSpiel: ``moves.py``); ``ValueError`` outside the space."""
        table = self.chance_moves if chance else self.moves
        if type(action) is int and 0 <= action < len(table):
            return table[action]
        if is_int(action) and 0 <= action < len(table):  # an int subclass (e.g. from numpy)
            return table[int(action)]
        what = "a chance outcome" if chance else "an action id"
        raise ValueError(f"{action!r} is not {what} of {self.name} (0 to {len(table) - 1})")

    def encode(self, move: Move) -> int:
        """The action id of ``move`` (a chance outcome's for ``draw`` and ``setup``)."""
        try:
            return moves.encode(move, self.layout)
        except (ValueError, TypeError, AttributeError):
            raise ValueError(f"{move!r} is not a move of {self.name}") from None

    # --- facts ---------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return NUM_PLAYERS

    def num_distinct_actions(self) -> int:
        return self.layout.size

    def max_chance_outcomes(self) -> int:
        return CHANCE_LAYOUT.size

    def max_game_length(self) -> int:
        # the set-up draw; per tile at most a stack named, a draw and the placement; a swap
        # decision per Warp; in each of a player's first two turns each of its weavers set aside
        # at most once (set-aside tiles stay out until the turn's first placement, AGA-T3), each
        # with the set-aside, a stack named and a fresh draw
        per_tile = per_set_aside = 3
        warps = NUM_PLAYERS * SUPPLY[WARP]
        set_asides = SET_ASIDE_TURNS * (SUPPLY[WARP] + SUPPLY[WEFT]) * per_set_aside
        return 1 + per_tile * TOTAL_TILES + warps + set_asides

    def observation_shape(self) -> tuple[int, ...]:
        return (display.OBS_SIZE,)

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player] if player in (0, 1) else f"player {player}"

    # --- states --------------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> AgamemnonState:
        """The start of a game: a copy of the game's start state, made once (searches and random
        games start many games; the start's board, free spaces and maps are the same each time)."""
        if self._start is None:
            self._start = AgamemnonState(self)
        state = self._start.clone()
        state.seed = seed
        return state

    def _state_from_dict(self, doc: Mapping[str, Any]) -> AgamemnonState:
        seed, history, setting = saved.read_saved(self, doc)
        state = AgamemnonState(self, seed, setting)
        state.history = history
        return state

    def state_from_position(self, doc: Mapping[str, Any]) -> AgamemnonState:
        """A state from a position document (``position.py``, docs/agamemnon.md)."""
        game, setting = position.read_position(self, doc)
        return AgamemnonState(game, None, setting)

"""Agamemnon (Günter Cornett, Osprey Games 2016): the rules, in the order of RULINGS.md (AGA-*).

Set-up (AGA-C1 tiles, AGA-B1/AGA-B2 boards, AGA-V1 loom), the turn (AGA-T1 placements, AGA-T2
draws, AGA-T3 set-asides, AGA-V2 Oracle, AGA-V3 Defying the gods), Warp and Weft (AGA-T4, AGA-T5),
the end and the scoring (AGA-SC1..SC4). :meth:`AgamemnonState.problem` is the one place an
action's legality is decided; ``legal_actions`` is a generator the tests check against it over the
whole action space. The scoring as the rulings word it is ``scoring.py``; the live score comes
from the bit masks of ``_fast.py``, which the tests check against it. The game object (options,
facts): ``game.py``; tiles, turns and phases as facts: ``tiles.py``; notation: ``moves.py``;
position documents: ``position.py``; saved states: ``saved.py``; ``evaluate`` and ``outlook``:
``heuristic.py``; the text board and the observation: ``display.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from palaestra.core.errors import IllegalActionError, NotationError
from palaestra.core.game import CHANCE, TERMINAL, State, is_int
from palaestra.games.agamemnon import display, heuristic, moves, position, saved, scoring
from palaestra.games.agamemnon._fast import (
    LIVE_POINTS_0,
    LIVE_POINTS_1,
    NUM_MASKS,
    KindMaps,
    live_score,
    mark,
    masks_of,
    points,
    update_live_score,
)
from palaestra.games.agamemnon._search import one_order, playout_scores, tiles_to_place
from palaestra.games.agamemnon.board import (
    CLASS_NAMES,
    EMPTY,
    FORCE,
    KIND_NAMES,
    LEADERSHIP,
    MAX_SPACES,
    STRENGTH,
    Board,
)
from palaestra.games.agamemnon.moves import (
    ASIDE_WARP,
    ASIDE_WEFT,
    CHANCE_LAYOUT,
    NOSWAP,
    SETUP_START,
    STACK_START,
    SWAP_START,
)
from palaestra.games.agamemnon.tiles import (
    CODES,
    NUM_CODES,
    NUM_PLAYERS,
    PHASE_NAMES,
    PLAYER_NAMES,
    SET_ASIDE_CODES,
    SET_ASIDE_TURNS,
    SETUP_NAMES,
    SETUPS,
    STACK_CODES,
    STACK_NAMES,
    STACK_OF,
    SUPPLY,
    TOTAL_TILES,
    TURN_TILES,
    WARP,
    Phase,
    Stack,
    mover_of_turn,
)

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame

# The phases as plain ints for the hot paths: comparing exact ints is faster than comparing enum
# members, and a global read is several times faster than ``Phase.PLACE``.
SETUP, STACK, DRAW, PLACE, SWAP, END = (int(phase) for phase in Phase)


# --- set-up: AGA-B2, AGA-T4 ----------------------------------------------------------------------
def setup_kinds(board: Board, index: int) -> tuple[tuple[int, ...], int]:
    """AGA-B2: the connection kinds and the out-of-play space of loom set-up ``index``: the
    classes it names carry strength, force and leadership; the fourth is empty, and the one space
    whose connections are all of the fourth class is out of play."""
    s_cls, f_cls, l_cls = SETUPS[index]
    empty_cls = (set(range(len(CLASS_NAMES))) - {s_cls, f_cls, l_cls}).pop()
    kind_of = {s_cls: STRENGTH, f_cls: FORCE, l_cls: LEADERSHIP, empty_cls: EMPTY}
    return tuple(kind_of[x] for x in board.labels), board.out_of_play(empty_cls)


def warp_targets(board: Board, out: int, any_target: bool) -> int:
    """AGA-T4, AGA-B2 (amended 2026-11-25): the connections (a mask) onto which a loom Warp may
    move a string tile when they are empty: those printed with the fourth class of the set-up (the
    class of the out-of-play space ``out``'s connections) that do not touch ``out``. By the rulings
    of 2026-11-23 (``any_target``): every empty connection."""
    if any_target:
        return (1 << board.num_connections) - 1
    if out < 0:
        return 0
    empty_class = board.labels[board.incident[out][0]]
    return sum(
        1 << c
        for c, (a, b) in enumerate(board.connections)
        if board.labels[c] == empty_class and out not in (a, b)
    )


class AgamemnonState(State):
    """A position of Agamemnon with its history."""

    game: AgamemnonGame

    # --- set-up: AGA-C1, AGA-B2 ------------------------------------------------------------------
    def __init__(
        self, game: AgamemnonGame, seed: int | None = None, setting: position.Setting | None = None
    ) -> None:
        """The start of a game (AGA-C1: each player's fifteen tiles in its pool; AGA-B2: a loom
        set-up not fixed is drawn first), or the state a position or a saved state describes."""
        super().__init__(game, seed)
        n = game.board.num_spaces
        # the fields in the order clone() copies them (see there)
        self._owner = [-1] * n  # the player of the tile on each space
        self._code = [-1] * n  # the code of the tile on each space
        #: tiles left per code, player ``p``'s at ``NUM_CODES * p``
        self._pools = list(SUPPLY) * NUM_PLAYERS
        self._hand: list[int] = []  # the mover's drawn tiles not yet placed
        self._aside: list[int] = []  # weavers set aside this turn (AGA-T3)
        self._named: list[int] = []  # Oracle stacks named for the coming draws (AGA-V2)
        self._masks = [0] * NUM_MASKS
        self._turn = 0
        self._to_place = 0  # tiles the mover still places this turn
        self._warp = -1  # the space of the Warp awaiting its swap
        self._placed = 0
        self._mover = game.first
        self._live: list[Any] | None = None  # the live score (_fast.py), built on demand
        self._setup = game.setup_index
        self._kinds: tuple[int, ...] = ()  # the kind of string tile on each connection
        self._maps: KindMaps | None = None
        self._out = -1
        self._free: list[int] = []  # the spaces in play without a tile
        self._phase: int = SETUP
        if setting is not None:
            self._arrange(setting)
        elif game.start_kinds is not None:
            self._set_board(game.start_kinds, game.start_out)
            self._start_turn()

    def _arrange(self, setting: position.Setting) -> None:
        self._setup = setting.setup
        for space, player, code in setting.tiles:
            self._owner[space] = player
            self._code[space] = code
        self._masks = masks_of(setting.tiles)
        self._placed = len(setting.tiles)
        self._set_board(setting.kinds, setting.out)
        self._pools = [n for pool in setting.pools for n in pool]
        self._hand = list(setting.hand)
        self._aside = list(setting.aside)
        self._named = list(setting.named)
        self._turn = setting.turn
        self._to_place = setting.to_place
        self._mover = setting.mover
        self._warp = setting.warp
        if setting.phase is None:
            self._next_draw()
        else:
            self._phase = int(setting.phase)

    def _set_board(self, kinds: tuple[int, ...], out: int) -> None:
        self._live = None
        self._kinds = kinds
        self._maps = self.game.kind_maps(kinds)
        self._out = out
        self._free = [s for s in range(len(self._owner)) if s != out and self._owner[s] < 0]

    # --- the turn: AGA-T1, AGA-T2, AGA-T3, AGA-V2, AGA-V3 ---------------------------------------------
    def _start_turn(self) -> None:
        """AGA-T1: the players take turns, one tile in the first turn, then two, one in the last;
        the game ends when 30 tiles are down."""
        if self._placed >= TOTAL_TILES:
            self._phase = END
            return
        self._mover = mover_of_turn(self._turn, self.game.first)
        self._to_place = TURN_TILES[self._turn]
        self._next_draw()

    def _next_draw(self) -> None:
        """AGA-T2: all of the turn's tiles are drawn before the first is placed; AGA-V2: with the
        Oracle, the stack of every draw is named first; AGA-V3: Defying the gods draws nothing."""
        if self.game.defying:
            self._phase = PLACE
            return
        need = self._to_place - len(self._hand)
        if need <= 0:
            self._phase = PLACE
        elif self.game.oracle and len(self._named) < need:
            self._phase = STACK
        else:
            self._phase = DRAW

    def may_set_aside(self) -> bool:
        """AGA-T3: a weaver may be set aside in a player's first two turns, before placing."""
        return (
            self._turn < SET_ASIDE_TURNS
            and self._to_place == TURN_TILES[self._turn]
            and not self.game.defying
        )

    def _stack_available(self, stack: int) -> bool:
        """AGA-V2: a stack may be named while it holds more tiles than it is already named for."""
        start = NUM_CODES * self._mover
        return sum(self._pools[start + c] for c in STACK_CODES[stack]) > self._named.count(stack)

    def _draw_counts(self) -> list[int]:
        """AGA-T2: each tile left in the mover's pool (AGA-V2: in the stack named) is equally likely."""
        start = NUM_CODES * self._mover
        counts = self._pools[start : start + NUM_CODES]
        if self._named:
            stack = self._named[0]
            return [n if STACK_OF[c] == stack else 0 for c, n in enumerate(counts)]
        return counts

    # --- legality (AGA-T1..T4, AGA-B2, AGA-V2, AGA-V3): the one place it is decided ----------------
    def problem(self, action: int) -> str | None:
        """None when ``action`` is legal here; else why not, citing the ruling."""
        phase = self._phase
        if phase == PLACE:
            if not 0 <= action < NOSWAP:
                return self._set_aside_problem(action)
            # (a placement's id is code * MAX_SPACES + space: the layout's "place" segment)
            # AGA-T1: a tile goes on a free space in play; AGA-T2: one of the tiles drawn; AGA-V3:
            # with Defying the gods, any tile left
            code, space = divmod(action, MAX_SPACES)
            if space >= len(self._owner):
                return f"there is no space {space}"
            if space == self._out:
                return f"space {space} is out of play"
            if self._owner[space] >= 0:
                return f"space {space} is taken"
            if self.game.defying:
                return (
                    None if self._pools[NUM_CODES * self._mover + code] else f"you have no {CODES[code]} left"
                )
            return None if code in self._hand else self._not_drawn(code)
        if phase == DRAW:
            return self._draw_problem(action)
        if phase == SWAP:
            return self._swap_decision_problem(action)
        if phase == STACK:
            return self._stack_problem(action)
        if phase == SETUP:
            if SETUP_START <= action < CHANCE_LAYOUT.size:
                return None
            return f"{action} is not a loom set-up (set-ups are {SETUP_START}..{CHANCE_LAYOUT.size - 1})"
        return "the game is over"

    def _not_drawn(self, code: int) -> str:
        drawn = " ".join(CODES[x] for x in self._hand)
        return f"you have not drawn a {CODES[code]} (your drawn tiles: {drawn})"

    def _set_aside_problem(self, action: int) -> str | None:
        """AGA-T3: a drawn weaver may be set aside in the player's first two turns, before the
        turn's first placement."""
        if action not in (ASIDE_WARP, ASIDE_WEFT):
            return self._not_now(action)
        code = SET_ASIDE_CODES[action - ASIDE_WARP]
        if self.game.defying:
            return "with Defying the gods nothing is drawn, so nothing is set aside"
        if self._turn >= SET_ASIDE_TURNS:
            return "weavers may be set aside only in a player's first two turns (AGA-T3)"
        if self._to_place != TURN_TILES[self._turn]:
            return "weavers may be set aside only before the turn's first tile is placed (AGA-T3)"
        return None if code in self._hand else f"you have not drawn a {CODES[code]}"

    def _draw_problem(self, action: int) -> str | None:
        """AGA-T2: a tile of the mover's pool is drawn; AGA-V2: from the stack named."""
        if not 0 <= action < NUM_CODES:
            return f"{action} is not a tile to draw: {moves.what_now(self)}"
        named = self._named
        if self._pools[NUM_CODES * self._mover + action] > 0 and (not named or STACK_OF[action] == named[0]):
            return None
        who = PLAYER_NAMES[self._mover]
        if action in self._aside:
            return f"{who}'s {CODES[action]} is set aside and cannot be drawn again this turn"
        where = f"the {STACK_NAMES[self._named[0]]} stack" if self._named else "the pool"
        return f"{who} has no {CODES[action]} left in {where}"

    def _stack_problem(self, action: int) -> str | None:
        """AGA-V2: the stack named must hold a tile for the draw."""
        if not STACK_START <= action < STACK_START + len(Stack):
            return self._not_now(action)
        stack = action - STACK_START
        if self._stack_available(stack):
            return None
        return f"{PLAYER_NAMES[self._mover]}'s {STACK_NAMES[stack]} stack has no tile left for this draw"

    def _swap_decision_problem(self, action: int) -> str | None:
        """AGA-T4: after placing a Warp its player swaps two connections at its space, or not."""
        if action == NOSWAP:
            return None
        if not SWAP_START <= action < self.game.layout.size:
            return self._not_now(action)
        c1, c2, space = self.game.board.pairs[action - SWAP_START]
        why: str | None = f"the connections must both touch space {self._warp}, the Warp's space"
        if space == self._warp:
            why = self._swap_problem(c1, c2)
        return None if why is None else f"{self.action_to_string(action)}: {why}"

    def _swap_problem(self, c1: int, c2: int) -> str | None:
        """AGA-T4: the two connections carry different kinds; a string tile moves onto an empty
        connection only of the set-up's fourth class, away from the out-of-play space (AGA-B2)."""
        k1, k2 = self._kinds[c1], self._kinds[c2]
        if k1 == k2:
            same = "are empty" if k1 == EMPTY else f"carry {KIND_NAMES[k1]}"
            return f"both connections {same}, swapping them changes nothing (write 'noswap')"
        empty = c1 if k1 == EMPTY else c2 if k2 == EMPTY else -1
        if empty < 0 or self.game.warp_targets(self._out) >> empty & 1:
            return None
        board = self.game.board
        a, b = board.connections[empty]
        if self._out in (a, b):
            why = f"{a}-{b} touches the out-of-play space {self._out} (AGA-B2)"
        else:
            why = f"{a}-{b} is of class {CLASS_NAMES[board.labels[empty]]}, left empty by an earlier Warp"
        return f"a string tile may move only onto an empty connection of the fourth class (AGA-T4): {why}"

    def _not_now(self, action: int) -> str:
        try:
            text = moves.player_action_text(self, action)
        except NotationError as err:
            return str(err)
        return f"{text} is not possible now: {moves.what_now(self)}"

    def is_legal(self, action: int) -> bool:
        return self.problem(action) is None

    def explain_illegal(self, action: object) -> str:
        if not is_int(action):
            return f"{action!r} is not an action (actions are whole numbers)"
        return super().explain_illegal(action)

    # --- the actions: generated fast (the tests check them against problem) ---------------------------
    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == PLACE:
            if self.game.defying:
                start = NUM_CODES * self._mover
                pools = self._pools
                codes = [c for c in range(NUM_CODES) if pools[start + c]]
            else:
                codes = sorted(set(self._hand))
            free = self._free
            out: list[int] = []
            for code in codes:
                base = code * MAX_SPACES
                out.extend([base + s for s in free])
            if self.may_set_aside():  # AGA-T3
                out.extend(ASIDE_WARP + i for i, code in enumerate(SET_ASIDE_CODES) if code in self._hand)
            return out
        if phase == DRAW:
            return [c for c, n in enumerate(self._draw_counts()) if n]
        if phase == SWAP:
            return self._swaps()
        if phase == STACK:
            return [STACK_START + stack for stack in range(len(Stack)) if self._stack_available(stack)]
        if phase == SETUP:
            return list(range(SETUP_START, CHANCE_LAYOUT.size))
        return []

    def search_actions(self) -> list[int]:
        """AGA-T2: of two different tiles in hand only the lower code's placements (``_search.py``;
        with Defying the gods, AGA-V3, nothing is drawn: the hand is empty, every placement stays)."""
        actions = self.legal_actions()
        return one_order(actions, self._hand) if self._phase == PLACE else actions

    def _swaps(self) -> list[int]:
        """AGA-T4: ``noswap`` and the swaps of the pairs at the Warp's space that are allowed."""
        pairs = self.game.board.pairs
        allowed = [
            p for p in self.game.board.pairs_at[self._warp] if self._swap_problem(*pairs[p][:2]) is None
        ]
        return [NOSWAP] + [SWAP_START + p for p in allowed]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if phase == DRAW:
            counts = self._draw_counts()
            total = sum(counts)
            return [(c, n / total) for c, n in enumerate(counts) if n]
        if phase == SETUP:
            p = 1.0 / len(SETUPS)
            return [(SETUP_START + i, p) for i in range(len(SETUPS))]
        return []

    def apply_action(self, action: int) -> None:
        """The core's contract (an illegal action raises and changes nothing), checked by ``problem``."""
        if type(action) is not int or self.problem(action) is not None:
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self.history.append(action)

    def apply_legal(self, action: int) -> None:
        """The core's fast path for searches (no check), which ``apply_action`` above would block."""
        self._apply(action)
        self.history.append(action)

    # --- playing: placement (AGA-T1), draws (AGA-T2, T3, V2), Warp (AGA-T4), the end (AGA-T1) -------
    def _apply(self, action: int) -> None:
        phase = self._phase
        if phase == PLACE:
            if action < NOSWAP:
                self._place(action)  # the most frequent action
            else:  # AGA-T3: a fresh draw replaces the weaver set aside
                code = SET_ASIDE_CODES[action - ASIDE_WARP]
                self._hand.remove(code)
                self._aside.append(code)
                self._next_draw()
        elif phase == DRAW:
            self._pools[NUM_CODES * self._mover + action] -= 1
            self._hand.append(action)
            if self._named:
                self._named.pop(0)
            self._next_draw()
        elif phase == SWAP:
            self._swap(action)
        elif phase == STACK:
            self._named.append(action - STACK_START)
            need = self._to_place - len(self._hand)
            self._phase = STACK if len(self._named) < need else DRAW
        elif phase == SETUP:  # AGA-B2
            self._setup = action - SETUP_START
            self._set_board(*self.game.setup_kinds(self._setup))
            self._start_turn()
        else:
            raise IllegalActionError("the game is over")  # pragma: no cover

    def _place(self, action: int) -> None:
        code, space = divmod(action, MAX_SPACES)
        player = self._mover
        if self.game.defying:
            self._pools[NUM_CODES * player + code] -= 1
        else:
            self._hand.remove(code)
            if self._aside:  # AGA-T3: set-aside tiles go back after the turn's draws
                for x in self._aside:
                    self._pools[NUM_CODES * player + x] += 1
                self._aside = []
        self._owner[space] = player
        self._code[space] = code
        mark(self._masks, space, player, code)
        self._free.remove(space)
        if self._live is not None:
            assert self._maps is not None
            update_live_score(self._live, self._maps, self._masks, self.game.ends, space)
        self._placed += 1
        self._to_place -= 1
        if code == WARP:  # AGA-T4: its player decides on a swap first
            self._warp = space
            self._phase = SWAP
        else:
            self._after_placement()

    def _swap(self, action: int) -> None:
        """AGA-T4: the Warp swaps the string tiles of two connections at its space (or not)."""
        if action != NOSWAP:
            c1, c2, _ = self.game.board.pairs[action - SWAP_START]
            assert self._maps is not None
            self._maps = self._maps.swapped(self.game.board, c1, c2)
            self._kinds = self._maps.kinds
            self._live = None
        self._warp = -1
        self._after_placement()

    def _after_placement(self) -> None:
        if self._to_place == 0:
            self._turn += 1
            self._start_turn()
        else:
            self._next_draw()

    def clone(self) -> AgamemnonState:
        """An independent copy. Written out field by field, in the order ``__init__`` sets them, on
        purpose: an object whose ``__dict__`` is filled otherwise (``update``, ``copy.copy``) loses
        CPython's shared-key layout, and every later attribute read is slower (searches clone all
        the time); a test checks that every field is copied."""
        new = object.__new__(AgamemnonState)
        new.game = self.game
        new.seed = self.seed
        new.history = self.history.copy()
        new._owner = self._owner.copy()
        new._code = self._code.copy()
        new._pools = self._pools.copy()
        new._hand = self._hand.copy()
        new._aside = self._aside.copy()
        new._named = self._named.copy()
        new._masks = self._masks.copy()
        new._turn = self._turn
        new._to_place = self._to_place
        new._warp = self._warp
        new._placed = self._placed
        new._mover = self._mover
        new._live = None if self._live is None else self._live.copy()
        new._setup = self._setup
        new._kinds = self._kinds  # a tuple
        new._maps = self._maps  # shared: a Warp swap makes new maps
        new._out = self._out
        new._free = self._free.copy()
        new._phase = self._phase
        return new

    # --- facts of the position ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self._phase
        if phase == DRAW or phase == SETUP:  # noqa: SIM109 (no tuple built: speed)
            return CHANCE
        if phase == END:
            return TERMINAL
        return self._mover

    def is_chance_node(self) -> bool:
        return self._phase == DRAW or self._phase == SETUP

    def is_terminal(self) -> bool:
        return self._phase == END

    @property
    def phase(self) -> str:
        """``setup``, ``stack``, ``draw``, ``place``, ``warp`` or ``end``."""
        return PHASE_NAMES[self._phase]

    @property
    def mover(self) -> int:
        """The player whose turn it is (also while their tiles are drawn)."""
        return self._mover

    @property
    def turn(self) -> int:
        """The turn, from 0 (AGA-T1; 16 once the game is over)."""
        return self._turn

    @property
    def to_place(self) -> int:
        """Tiles the mover still places this turn."""
        return self._to_place

    @property
    def hand(self) -> list[str]:
        """The tiles drawn and not yet placed this turn."""
        return [CODES[c] for c in self._hand]

    @property
    def aside(self) -> list[str]:
        """The weavers set aside this turn (AGA-T3)."""
        return [CODES[c] for c in self._aside]

    @property
    def named_stacks(self) -> list[str]:
        """The Oracle stacks named for the coming draws (AGA-V2)."""
        return [STACK_NAMES[st] for st in self._named]

    @property
    def tiles_placed(self) -> int:
        return self._placed

    @property
    def warp_space(self) -> int | None:
        """The space of the Warp whose swap is being chosen (AGA-T4)."""
        return self._warp if self._warp >= 0 else None

    @property
    def setup_name(self) -> str | None:
        """The loom set-up (``I,II,III``), None on the front or before it is drawn."""
        return SETUP_NAMES[self._setup] if self._setup >= 0 else None

    @property
    def out_of_play(self) -> int | None:
        """The loom's out-of-play space (None on the front)."""
        return self._out if self._out >= 0 else None

    def pool_counts(self, player: int) -> list[int]:
        """``player``'s tiles left per code (see :meth:`pool`)."""
        return self._pools[NUM_CODES * player : NUM_CODES * (player + 1)]

    def pool(self, player: int) -> list[str]:
        """``player``'s tiles not yet drawn (or, with Defying the gods, not yet placed)."""
        return [CODES[c] for c, n in enumerate(self.pool_counts(player)) for _ in range(n)]

    def connection_kinds(self) -> list[tuple[int, int, str]]:
        """Every connection with the kind of string tile it carries now ([] before the set-up)."""
        if not self._kinds:
            return []
        conns = self.game.board.connections
        return [(a, b, KIND_NAMES[k]) for (a, b), k in zip(conns, self._kinds, strict=True)]

    def tile_at(self, space: int) -> tuple[int, str] | None:
        if 0 <= space < len(self._owner) and self._owner[space] >= 0:
            return self._owner[space], CODES[self._code[space]]
        return None

    def tiles(self) -> list[tuple[int, int, str]]:
        """The tiles on the board: (space, player, code), by space."""
        return [(s, p, CODES[self._code[s]]) for s, p in enumerate(self._owner) if p >= 0]

    # --- scoring and the end: AGA-SC1..SC4, AGA-T5 (readable: scoring.py; quick: _fast.py) ----------
    def strings_by_the_rules(self) -> list[scoring.String]:
        """Every string with its controller, by the rules as written (:func:`scoring.strings`)."""
        return scoring.strings(self.game.board, self._kinds, self._owner, self._code)

    def strings(self) -> list[dict[str, Any]]:
        """Every string as in ``score_details``: kind, connections, controller (None when tied)."""
        return [string.as_json(self.game.board) for string in self.strings_by_the_rules()]

    def score_details(self) -> dict[str, Any]:
        return {"scores": self.scores(), "strings": self.strings()}

    def live_score(self) -> list[Any]:
        """The live score of ``_fast.py`` (points of each player, the soft value of ``evaluate``,
        per part), built on the first request and kept up to date from then on; read only."""
        if self._live is None:
            if self._maps is None:  # the loom set-up is not drawn yet: nothing to keep
                return [0, 0, 0.0]
            self._live = live_score(self._maps, self._masks, self.game.ends)
        return self._live

    def _points(self) -> tuple[int, int]:
        """AGA-SC4: the connections of the strings each player controls."""
        live = self._live
        if live is None:
            if self._phase == END and self._maps is not None:
                # a finished game is scored once, from scratch (cheaper than the live score; kept
                # as totals only: nothing changes any more)
                p0, p1 = points(self._maps, self._masks, self.game.ends)
                self._live = [p0, p1, 0.0]
                return p0, p1
            live = self.live_score()
        return live[LIVE_POINTS_0], live[LIVE_POINTS_1]

    def scores(self) -> list[float]:
        p0, p1 = self._points()
        return [float(p0), float(p1)]

    def returns(self) -> list[float]:
        """AGA-SC4: at the end, more points wins; equal points is a draw."""
        if self._phase != END:
            return [0.0, 0.0]
        p0, p1 = self._points()
        return [1.0, -1.0] if p0 > p1 else [-1.0, 1.0] if p1 > p0 else [0.0, 0.0]

    def playout_scores(self, rng: random.Random) -> list[float]:
        """End scores of a random playout where no Warp swaps, drawn at once (``_search.py``)."""
        if self._phase == END or self._maps is None:  # over, or the loom set-up still to draw
            return super().playout_scores(rng)
        tiles = tiles_to_place(self._pools, self._mover, self._hand + self._aside)
        return playout_scores(self._maps, self._masks, self._free, tiles, self.game.ends, rng.random)

    def evaluate(self) -> list[float]:
        """The live score margin plus a soft share of every contested string (:func:`heuristic.evaluate`)."""
        if self._phase == END:
            return self.returns()
        live = self._live
        return heuristic.evaluate(self.live_score() if live is None else live)

    # --- notation (moves.py) -------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return moves.action_text(self, action)

    def string_to_action(self, text: str) -> int:
        return moves.action_of_text(self, text)

    # --- views (display.py) and documents (position.py, saved.py) ----------------------------------
    def render(self, labels: bool = False) -> str:
        return display.render(self, labels)

    def observation_tensor(self, player: int) -> list[float]:
        return display.observation_tensor(self, player)

    def fast_position(self) -> tuple[KindMaps | None, list[int], list[int]]:
        """For the heuristics: the fast scoring's maps, masks and the free spaces (read only)."""
        return self._maps, self._masks, self._free

    def _to_dict(self) -> dict[str, Any]:
        return saved.saved_fields(self)

    def to_position(self) -> dict[str, Any]:
        return position.position_of(self)

"""Agamemnon (Günter Cornett, Osprey Games 2016): the rules, in the order of RULINGS.md (AGA-*).

Each ruling of a move is stated once, as a predicate of the state that changes nothing, in the
chapter of the rulebook it belongs to: the turn (AGA-B2 and AGA-T1 the free spaces, AGA-T2 the
tiles drawn and the draw, AGA-T3 setting aside, AGA-V2 the Oracle's stacks, AGA-V3 Defying the
gods) in ``turns.py``; the loom set-up and the Warp (AGA-B2, AGA-T4) in ``warps.py``.
:class:`AgamemnonState` composes them. :meth:`~AgamemnonState.candidates` names the kinds of move
the phase admits and applies no ruling; :meth:`~AgamemnonState.problem` checks one typed move
(``moves.Move``) against the rulings of its kind, in the rulebook's order, for a sentence that
cites the ruling; ``legal_actions`` is built, kind by kind, from the sets the same predicates
allow (the free spaces, the tiles that may be placed, the draw counts, the swaps at the Warp). No
batch generator states a rule again: what makes the predicates cheap is data kept up to date by
play (the free spaces, the hand), the board's index of Warp pairs by space and the game's memo of
Warp targets. The tests check ``legal_actions`` against ``problem`` over the whole action space.
Action ids are the edge: ``AgamemnonGame.decode``/``encode`` (through the layouts of
``moves.py``) turn them into moves and back.

Play (the turn, AGA-T1; draws, AGA-T2, T3, V2; the Warp's swap, AGA-T4) is :meth:`_apply`. The
end and the score (AGA-SC1..SC4, AGA-T5) are ``ending.py``: the scoring as the rulings word it
is ``scoring.py``, the live score comes from the bit masks of ``_fast.py``, which the tests check
against it. The game object (options,
facts): ``game.py``; tiles, turns and phases as facts: ``tiles.py``; notation: ``moves.py``;
position documents: ``position.py``; saved states: ``saved.py``; ``evaluate`` and ``outlook``:
``heuristic.py``; the text board and the observation: ``display.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.core.cloning import COPY, clone_by_fields
from palaestra.core.errors import IllegalActionError
from palaestra.core.game import CHANCE, TERMINAL, is_int
from palaestra.games.agamemnon import display, moves, position, saved
from palaestra.games.agamemnon._fast import (
    NUM_MASKS,
    KindMaps,
    mark,
    masks_of,
    update_live_score,
)
from palaestra.games.agamemnon._search import one_order
from palaestra.games.agamemnon.board import KIND_NAMES, MAX_SPACES
from palaestra.games.agamemnon.ending import EndRules
from palaestra.games.agamemnon.moves import (
    ASIDE_WARP,
    CHANCE_LAYOUT,
    NOSWAP,
    SETUP_START,
    STACK_START,
    SWAP_START,
    Kind,
    Move,
)
from palaestra.games.agamemnon.tiles import (
    CODES,
    NUM_CODES,
    NUM_PLAYERS,
    PHASE_NAMES,
    SET_ASIDE_CODES,
    SETUP_NAMES,
    SETUPS,
    STACK_NAMES,
    SUPPLY,
    TOTAL_TILES,
    TURN_TILES,
    WARP,
    Phase,
    mover_of_turn,
)
from palaestra.games.agamemnon.turns import TurnRules
from palaestra.games.agamemnon.warps import WarpRules

if TYPE_CHECKING:
    from palaestra.games.agamemnon.game import AgamemnonGame

# The phases as plain ints for the hot paths: comparing exact ints is faster than comparing enum
# members, and a global read is several times faster than ``Phase.PLACE``.
SETUP, STACK, DRAW, PLACE, SWAP, END = (int(phase) for phase in Phase)
# the kinds of move likewise
PLACE_MOVE, ASIDE_MOVE, SWAP_MOVE = Kind.PLACE, Kind.ASIDE, Kind.SWAP
STACK_MOVE, DRAW_MOVE = Kind.STACK, Kind.DRAW

#: the candidates: the kinds of move each phase admits, by phase, in the layout's order (the phase
#: alone decides: no ruling)
CANDIDATES: tuple[tuple[Kind, ...], ...] = (
    (Kind.SETUP,),  # SETUP: the loom set-up is drawn
    (Kind.STACK,),  # STACK: the mover names an Oracle stack
    (Kind.DRAW,),  # DRAW: a tile is drawn
    (Kind.PLACE, Kind.ASIDE),  # PLACE: the mover places a tile or sets a weaver aside
    (Kind.NOSWAP, Kind.SWAP),  # SWAP: the mover decides on the Warp's swap
    (),  # END
)


class AgamemnonState(TurnRules, WarpRules, EndRules):
    """A position of Agamemnon with its history."""

    game: AgamemnonGame

    # --- set-up: AGA-C1, AGA-B2 ------------------------------------------------------------------
    def __init__(
        self, game: AgamemnonGame, seed: int | None = None, setting: position.Setting | None = None
    ) -> None:
        """The start of a game (AGA-C1: each player's fifteen tiles in its pool; AGA-B2: a loom
        set-up not fixed is drawn first), or the state a position or a saved state describes.
        Every state has the same fields in the same order (``clone`` relies on it)."""
        super().__init__(game, seed)
        n = game.board.num_spaces
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
        self._setup = game.setup_index
        self._out = -1
        self._free: list[int] = []  # the spaces in play without a tile (TurnRules.free_spaces)
        self._phase: int = SETUP
        self._set_kinds(None)
        if setting is not None:
            self._arrange(setting)
        elif game.start_kinds is not None:
            self._set_board(game.start_kinds, game.start_out)
            self._start_turn()

    def _set_kinds(self, maps: KindMaps | None) -> None:
        """The one place where what follows from the string tiles on the connections is set, and
        what was derived from them forgotten: the fast scoring's maps of a board set up or of a
        Warp's swap, the kinds they hold, and the live score (built again on demand, ``_fast.py``;
        a placement keeps it up to date)."""
        self._maps = maps
        self._kinds: tuple[int, ...] = () if maps is None else maps.kinds
        self._live: list[Any] | None = None

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
        """The board set up: its string tiles, its out-of-play space and so its free spaces."""
        self._out = out
        self._free = [s for s in range(len(self._owner)) if self.space_problem(s) is None]
        self._set_kinds(self.game.kind_maps(kinds))

    # --- legality: candidates, problem() composed of the rulings, legal_actions() from both -------
    def candidates(self) -> tuple[Kind, ...]:
        """The kinds of move the phase admits (:data:`CANDIDATES`; none once the game is over),
        before any ruling."""
        return CANDIDATES[self._phase]

    def problem(self, move: Move) -> str | None:
        """None when ``move`` is legal here; else why not, citing the ruling: a candidate
        (:meth:`candidates`) checked against the rulings of its kind, in the rulebook's order
        (``turns.py``, ``warps.py``)."""
        kind = move.kind
        if kind not in CANDIDATES[self._phase]:  # candidates(), read in place (speed)
            return self._not_now(move)
        if kind == PLACE_MOVE:  # AGA-T1 and AGA-B2 (the space), AGA-T2 or AGA-V3 (the tile)
            return self.space_problem(move.space) or self.tile_problem(move.tile)
        if kind == DRAW_MOVE:  # AGA-T2, AGA-V2
            return self.draw_problem(move.tile)
        if kind == SWAP_MOVE:  # AGA-T4
            why = self.swap_problem(move.pair)
            return None if why is None else f"{moves.format_move(move, self.game.board)}: {why}"
        if kind == ASIDE_MOVE:  # AGA-T3
            return self.set_aside_problem(move.tile)
        if kind == STACK_MOVE:  # AGA-V2
            return self.stack_problem(move.stack)
        return None  # noswap (AGA-T4: the Warp may swap nothing); any loom set-up (AGA-B2)

    def _not_now(self, move: Move) -> str:
        if self._phase == END:
            return "the game is over"
        return f"{moves.format_move(move, self.game.board)} is not possible now: {moves.what_now(self)}"

    def move_of(self, action: object) -> Move:
        """The move of an id: at a chance node the ids are chance outcomes (``moves.py``). The
        tables of ``AgamemnonGame.decode`` are read in place for a plain id (speed)."""
        chance = self.is_chance_node()
        table = self.game.chance_moves if chance else self.game.moves
        if type(action) is int and 0 <= action < len(table):
            return table[action]
        return self.game.decode(action, chance)

    def is_legal(self, action: int) -> bool:
        return self.action_problem(action) is None

    def explain_illegal(self, action: object) -> str:
        if not is_int(action):
            return f"{action!r} is not an action (actions are whole numbers)"
        return super().explain_illegal(action)

    def legal_actions(self) -> list[int]:
        """The ids of the candidates the rulings allow, in the layout's order: each kind's moves
        from the predicates of its rulings (the sets they allow), which :meth:`problem` asks one
        move at a time; the tests check the two against each other over the whole action space."""
        phase = self._phase
        if phase == PLACE:
            return self._placing_actions()
        if phase == DRAW:  # AGA-T2, AGA-V2: the chance outcomes
            return [c for c, n in enumerate(self.draw_counts()) if n]
        if phase == SWAP:  # AGA-T4
            return [NOSWAP] + [SWAP_START + p for p in self.allowed_swaps()]
        if phase == STACK:  # AGA-V2
            return [STACK_START + stack for stack in self.stacks_available()]
        if phase == SETUP:  # AGA-B2: the chance outcomes
            return list(range(SETUP_START, CHANCE_LAYOUT.size))
        return []

    def _placing_actions(self) -> list[int]:
        """The placements: each tile that may be placed (AGA-T2, AGA-V3) on each free space in play
        (AGA-T1, AGA-B2); then the weavers that may be set aside (AGA-T3)."""
        free = self._free  # free_spaces(), read in place (speed)
        out: list[int] = []
        codes = self.placeable_tiles()
        for code in codes if len(codes) < 2 else sorted(set(codes)):
            base = code * MAX_SPACES  # the ids of the layout's "place": code * MAX_SPACES + space
            out.extend([base + s for s in free])
        if self.set_aside_time_problem() is None:
            out.extend(ASIDE_WARP + SET_ASIDE_CODES.index(code) for code in self.set_aside_tiles())
        return out

    def search_actions(self) -> list[int]:
        """AGA-T2: of two different tiles in hand only the lower code's placements (``_search.py``;
        with Defying the gods, AGA-V3, nothing is drawn: the hand is empty, every placement stays)."""
        actions = self.legal_actions()
        return one_order(actions, self._hand) if self._phase == PLACE else actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if phase == DRAW:
            counts = self.draw_counts()
            total = sum(counts)
            return [(c, n / total) for c, n in enumerate(counts) if n]
        if phase == SETUP:
            p = 1.0 / len(SETUPS)
            return [(SETUP_START + i, p) for i in range(len(SETUPS))]
        return []

    def apply_action(self, action: int) -> None:
        """The core's contract (an illegal action raises and changes nothing), checked by ``problem``."""
        phase = self._phase  # action_problem(action), written out (speed)
        table = self.game.chance_moves if phase == DRAW or phase == SETUP else self.game.moves  # noqa: SIM109
        if type(action) is not int or not 0 <= action < len(table) or self.problem(table[action]) is not None:
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self.history.append(action)

    def apply_legal(self, action: int) -> None:
        """The core's fast path for searches (no check), which ``apply_action`` above would block."""
        self._apply(action)
        self.history.append(action)

    # --- the turn: AGA-T1, AGA-T2, AGA-T3, AGA-T4, AGA-V2, AGA-V3 ----------------------------------
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

    def _apply(self, action: int) -> None:
        phase = self._phase
        if phase == PLACE:
            move = self.game.moves[action]
            if move.kind is PLACE_MOVE:
                self._place(move.tile, move.space)  # the most frequent action
            else:  # AGA-T3: a fresh draw replaces the weaver set aside
                self._hand.remove(move.tile)
                self._aside.append(move.tile)
                self._next_draw()
        elif phase == DRAW:
            code = self.game.chance_moves[action].tile
            self._pools[NUM_CODES * self._mover + code] -= 1
            self._hand.append(code)
            if self._named:
                self._named.pop(0)
            self._next_draw()
        elif phase == SWAP:
            self._swap(self.game.moves[action].pair)
        elif phase == STACK:
            self._named.append(self.game.moves[action].stack)
            need = self._to_place - len(self._hand)
            self._phase = STACK if len(self._named) < need else DRAW
        elif phase == SETUP:  # AGA-B2
            self._setup = self.game.chance_moves[action].setup
            self._set_board(*self.game.setup_kinds(self._setup))
            self._start_turn()
        else:
            raise IllegalActionError("the game is over")  # pragma: no cover

    def _place(self, code: int, space: int) -> None:
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

    def _swap(self, pair: int) -> None:
        """AGA-T4: the Warp swaps the string tiles of two connections at its space (or not: -1)."""
        if pair >= 0:
            c1, c2, _ = self.game.board.pairs[pair]
            assert self._maps is not None
            self._set_kinds(self._maps.swapped(self.game.board, c1, c2))
        self._warp = -1
        self._after_placement()

    def _after_placement(self) -> None:
        if self._to_place == 0:
            self._turn += 1
            self._start_turn()
        else:
            self._next_draw()

    def clone(self) -> AgamemnonState:
        """An independent copy: every field of this state, with new lists for the ones play changes
        in place (:data:`OWN_COPY`); the fast scoring's maps are shared (a Warp's swap makes new
        ones). The copying function is written from the state's own fields
        (:func:`palaestra.core.cloning.clone_by_fields`) at the first clone, and replaces this
        method: every state has the fields ``__init__`` sets, in that order."""
        return clone_by_fields(self, OWN_COPY)

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


#: the fields a move changes in place: a clone gets copies of them (the live score may be None)
OWN_COPY = {
    **{
        name: COPY
        for name in ("history", "_owner", "_code", "_pools", "_hand", "_aside", "_named", "_masks", "_free")
    },
    "_live": "None if {v} is None else {v}.copy()",
}

"""The Athos engine: every ruling ATH-* of RULINGS.md on the core protocol.

A turn is a sequence of small actions (docs/athos.md): monk steps and flips in the movement phase,
``end-move``, optionally an Athos stone (``relocate f>g`` then ``stone h``), tile placements, and
``end-turn``. The path rule ATH-P1 is checked with one depth-first search from the summit per
state (cut vertices of the open graph whose cut-off part holds a monk), after a constant-time local
test on the ring of six neighbours that settles most candidate fields without any search.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping
from typing import Any, ClassVar

from palaestra.core.errors import (
    NotationError,
    OptionError,
    PositionError,
    RecordError,
)
from palaestra.core.game import (
    RULES_ORIGINAL,
    TERMINAL,
    Game,
    Option,
    State,
    returns_from_ranks,
    rules_option,
)
from palaestra.games.athos.board import START_LETTERS, Board, load_board
from palaestra.games.athos.layout import LAYOUT_OPTION, layout_board

# tile sides
NONE, OPEN, RUBBLE = 0, 1, 2
# phases
HANDICAP, MOVE, STONE, RELOCATED, PLACE, OVER = range(6)
PHASE_NAMES = ("handicap", "move", "stone", "relocated", "place", "over")

MOVEMENT_POINTS = 6  # ATH-T1
FLIP_COST = 4  # ATH-T5
BONUS = (3, 3, 2, 2, 1)  # ATH-T6
TILES_PER_TERRAIN = 16  # ATH-B3
MONKS = 3  # ATH-B3
STONES = 2  # ATH-B3, ATH-T7
# ATH-T8: players -> (tiles per turn, tiles per terrain per turn)
LIMITS = {2: (8, 2), 3: (5, 2), 4: (4, 1)}
# ATH-S1: players -> start fields in default seat order (ATH-S2); ATH-V1 teams: A, D, B, E
STARTS = {2: "BD", 3: "ACE", 4: "ABDE"}
TEAM_ORDER = "ADBE"
COLOURS = ("red", "blue", "green", "yellow")
# most actions in one turn: 14 steps (6 points + 8 bonus), end-move, relocate, stone, 8 tiles, end-turn
MAX_TURN_ACTIONS = 26
# boards with more nodes than this use the iterative path-rule search (Python's call stack)
RECURSIVE_SEARCH_NODES = 600


def _runs(mask: int) -> int:
    """Number of cyclic runs of set bits in a 6-bit ring mask."""
    if mask == 63:
        return 1
    return sum(1 for i in range(6) if mask >> i & 1 and not mask >> ((i + 5) % 6) & 1)


RUNS = tuple(_runs(m) for m in range(64))


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
        Option("players", int, 2, "number of players (ATH-S1)", minimum=2, maximum=4),
        Option("teams", bool, False, "ATH-V1 teams: 4 players, A+B against D+E, seats A, D, B, E"),
        Option(
            "handicap_player",
            int,
            None,
            "ATH-V2: the seat (0 = first) that places handicap tiles",
            minimum=0,
            maximum=3,
        ),
        Option(
            "handicap_tiles",
            int,
            None,
            "ATH-V2: how many handicap tiles (at least 2; 0 = off)",
            minimum=0,
            maximum=80,
        ),
        Option("bare_stone", bool, False, "ATH-V3: an Athos stone may stand on a bare free field"),
        Option(
            "round_limit", int, 150, "ATH-E3: the game ends after this many rounds", minimum=1, maximum=100000
        ),
        Option("order", str, None, "ATH-S2: seat order as start-field letters, e.g. DB or ECA"),
        Option("board", str, None, "a board file (default: Palaestra's own board)", server=False),
        LAYOUT_OPTION,
        rules_option(),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        o = self.options
        n = int(o["players"])  # type: ignore[arg-type]
        self._players = n
        self.teams = bool(o["teams"])
        if self.teams and n != 4:
            raise OptionError(f"the team variant (ATH-V1) needs 4 players, not {n}")
        tiles = o["handicap_tiles"]
        who = o["handicap_player"]
        self.handicap_tiles = int(tiles) if tiles else 0  # type: ignore[arg-type]
        if self.handicap_tiles == 1:
            raise OptionError("a handicap (ATH-V2) is at least 2 tiles")
        if self.handicap_tiles and who is None:
            raise OptionError("handicap_tiles needs handicap_player: the seat that places them (ATH-V2)")
        if who is not None and not self.handicap_tiles:
            raise OptionError("handicap_player needs handicap_tiles (at least 2) (ATH-V2)")
        if who is not None and int(who) >= n:  # type: ignore[arg-type]
            raise OptionError(f"handicap_player is a seat from 0 to {n - 1}, not {who}")
        self.handicap_player = int(who) if who is not None else -1  # type: ignore[arg-type]
        self.bare_stone = bool(o["bare_stone"])
        #: the rulings of 2026-11-23: one stone per tile (ATH-T7), handicap tiles of the field's
        #: terrain (ATH-V2), every side below the winners shares one rank (before ATH-E4)
        self.original_rules = o["rules"] == RULES_ORIGINAL
        self.round_limit = int(o["round_limit"])  # type: ignore[arg-type]
        default = TEAM_ORDER if self.teams else STARTS[n]
        order = o["order"]
        if order is None:
            seats = default
        else:
            seats = str(order).upper().replace(",", "").replace(" ", "")
            if sorted(seats) != sorted(default):
                raise OptionError(
                    f"order lists the start fields {', '.join(sorted(default))} for {n} players "
                    f"(ATH-S1), each once, not {order!r}"
                )
            if self.teams and any(
                (seats[i] in "AB") == (seats[i + 1] in "AB") for i in range(len(seats) - 1)
            ):
                raise OptionError(
                    f"in the team variant the seat order alternates teams (ATH-V1), not {order!r}"
                )
        self.seats = seats
        board_path = o["board"]
        self.board = _board(str(board_path) if board_path is not None else None)
        if o["layout"] is not None:  # the board as data: a shipped name or a document
            self.board = layout_board(o["layout"], board_path)
        b = self.board
        #: node id of each seat's start field
        self.start_of = [b.start_ids[START_LETTERS.index(s)] for s in seats]
        #: side of each seat: the player itself, or its team (0: A+B, 1: D+E)
        self.side_of = [(0 if s in "AB" else 1) if self.teams else p for p, s in enumerate(seats)]
        self.num_sides = 2 if self.teams else n
        self.members = [[p for p in range(n) if self.side_of[p] == s] for s in range(self.num_sides)]
        self.max_tiles, self.max_per_terrain = LIMITS[n]
        # action layout
        N = b.n
        self.A_FLIP = len(b.edges)
        self.A_END_MOVE = self.A_FLIP + N
        self.A_RELOC = self.A_END_MOVE + 1
        self.A_STONE = self.A_RELOC + N * N
        self.A_PLACE = self.A_STONE + N
        self.A_OPEN = self.A_PLACE + N
        self.A_END_TURN = self.A_OPEN + N
        #: ATH-V2 handicap tiles of another terrain than the field's: (terrain * N + f) * 2 + open
        self.A_HANDICAP = self.A_END_TURN + 1
        self._num_actions = self.A_HANDICAP + 2 * len(b.terrains) * N

    @property
    def num_players(self) -> int:
        return self._players

    def num_distinct_actions(self) -> int:
        return self._num_actions

    def max_game_length(self) -> int:
        return self.handicap_tiles + self.round_limit * self._players * MAX_TURN_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        return (14 * self.board.size + 37,)

    def team_name(self, side: int) -> str:
        """The start fields of a side: ``A+B`` (ATH-V1), or the one field of a player."""
        return "+".join(sorted(self.seats[p] for p in self.members[side]))

    def player_name(self, player: int) -> str:
        if 0 <= player < self._players:
            return f"{COLOURS[player]} ({self.seats[player]})"
        return f"player {player}"

    def new_initial_state(self, seed: int | None = None) -> AthosState:
        return AthosState(self, seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> AthosState:
        position = doc.get("position")
        if not isinstance(position, Mapping):
            raise RecordError("a saved Athos state holds its position in 'position'")
        try:
            state = self._from_position(position)
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
        return AthosState.from_position(self, doc)


class AthosState(State):
    """One Athos position. Node ids and action ids: see docs/athos.md."""

    game: AthosGame

    def __init__(self, game: AthosGame, seed: int | None = None, *, empty: bool = False) -> None:
        super().__init__(game, seed)
        self.board = game.board
        if empty:
            return
        b = self.board
        n = game.num_players
        self.tile = [NONE] * b.size
        self.tterr = [-1] * b.size
        self.rubble = [False] * b.size
        #: open neighbours of every node (kept up to date by _set_tile)
        self.oadj: list[tuple[int, ...]] = list(b.adj)
        self.stone = [-1] * b.size
        #: (field, player) of each stone put on a field that already held one (ATH-T7)
        self.stacked: list[tuple[int, int]] = []
        self.occ = [0] * b.size
        self.monks: list[list[int]] = [[game.start_of[p]] * MONKS for p in range(n)]
        for p in range(n):
            self.occ[game.start_of[p]] += MONKS
        self.arrivals: list[int] = []
        self.stones_left = [STONES] * n
        self.supply = [TILES_PER_TERRAIN] * len(b.terrains)
        self.seat = 0
        self.round = 1
        self.phase = MOVE
        self.points = MOVEMENT_POINTS
        self.placed = [0] * len(b.terrains)
        self.placed_total = 0
        #: number of ordinary fields holding more than one monk (only while moving, ATH-T3)
        self.crowd = 0
        self.unused: list[int | None] = [None] * n
        self.finishers: list[int] = []
        self.final_round = False
        self.handicap_left = 0
        self._struct: tuple[list[int], dict[int, list[tuple[int, int]]]] | None = None
        self._crit: frozenset[int] | None = None
        self._dist: list[int] | None = None
        self._reloc: dict[int, tuple[list[int], frozenset[int]]] = {}
        self._tiles: list[int] | None = None
        if game.handicap_tiles:
            self.phase = HANDICAP
            self.handicap_left = game.handicap_tiles
            self.seat = game.handicap_player

    # --- copying -----------------------------------------------------------------------------
    def clone(self) -> AthosState:
        c = AthosState(self.game, self.seed, empty=True)
        c.history = self.history[:]
        c.tile = self.tile[:]
        c.tterr = self.tterr[:]
        c.rubble = self.rubble[:]
        c.oadj = self.oadj[:]
        c.stone = self.stone[:]
        c.stacked = self.stacked[:]
        c.occ = self.occ[:]
        c.monks = [m[:] for m in self.monks]
        c.arrivals = self.arrivals[:]
        c.stones_left = self.stones_left[:]
        c.supply = self.supply[:]
        c.seat = self.seat
        c.round = self.round
        c.phase = self.phase
        c.points = self.points
        c.placed = self.placed[:]
        c.placed_total = self.placed_total
        c.crowd = self.crowd
        c.unused = self.unused[:]
        c.finishers = self.finishers[:]
        c.final_round = self.final_round
        c.handicap_left = self.handicap_left
        c._struct = self._struct
        c._crit = self._crit
        c._dist = self._dist
        c._reloc = {}
        c._tiles = self._tiles
        return c

    def _changed(self) -> None:
        self._struct = None
        self._crit = None
        self._dist = None
        self._reloc = {}

    # --- whose turn --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    # --- the path rule (ATH-P1) ----------------------------------------------------------------
    def _structure(self) -> tuple[list[int], dict[int, list[tuple[int, int]]]]:
        """One depth-first search from the summit over the open fields (cached per tile layout).

        Returns the discovery number of every node (0: not reachable) and, for each node ``c``, the
        pre-order intervals ``[start, end)`` of its DFS children whose subtree is cut off from the
        summit when ``c`` becomes rubble (``low >= disc[c]``: Tarjan's cut-vertex condition).
        """
        if self._struct is None and self.board.size > RECURSIVE_SEARCH_NODES:
            self._struct = self._structure_iterative()
        if self._struct is None:
            oadj = self.oadj
            disc = [0] * self.board.size
            sep: dict[int, list[tuple[int, int]]] = {}
            count = 1

            def visit(v: int) -> int:
                # returns low[v]; recursion depth is bounded by the board's size
                nonlocal count
                count += 1
                d = disc[v] = count
                low = d
                for w in oadj[v]:
                    dw = disc[w]
                    if not dw:
                        lw = visit(w)
                        if lw < low:
                            low = lw
                        if lw >= d:
                            interval = (disc[w], count + 1)
                            if v in sep:
                                sep[v].append(interval)
                            else:
                                sep[v] = [interval]
                    elif dw < low:  # the parent edge too: harmless for cut vertices
                        low = dw
                return low

            root = self.board.summit
            disc[root] = 1
            for w in oadj[root]:
                if not disc[w]:
                    visit(w)
            self._struct = (disc, sep)
        return self._struct

    def _structure_iterative(self) -> tuple[list[int], dict[int, list[tuple[int, int]]]]:
        """:meth:`_structure` without recursion, for boards too large for Python's call stack."""
        b = self.board
        oadj = self.oadj
        size = b.size
        disc = [0] * size
        low = [0] * size
        sep: dict[int, list[tuple[int, int]]] = {}
        root = b.summit
        disc[root] = low[root] = 1
        t = 1
        stack = [(root, -1, iter(oadj[root]))]
        while stack:
            v, p, it = stack[-1]
            for w in it:
                dw = disc[w]
                if not dw:
                    t += 1
                    disc[w] = low[w] = t
                    stack.append((w, v, iter(oadj[w])))
                    break
                if dw < low[v]:  # the parent edge too: harmless for cut vertices
                    low[v] = dw
            else:
                stack.pop()
                if p >= 0:
                    lv = low[v]
                    if lv < low[p]:
                        low[p] = lv
                    if lv >= disc[p]:
                        interval = (disc[v], t + 1)
                        if p in sep:
                            sep[p].append(interval)
                        else:
                            sep[p] = [interval]
        return disc, sep

    def _critical(self) -> frozenset[int]:
        """Fields that, made rubble, would cut a monk in play off the summit (cached per state)."""
        if self._crit is None:
            disc, sep = self._structure()
            marks = [disc[v] for ms in self.monks for v in ms]
            crit: set[int] = set()
            for c, intervals in sep.items():
                for lo, hi in intervals:
                    if any(lo <= m < hi for m in marks):
                        crit.add(c)
                        break
            self._crit = frozenset(crit)
        return self._crit

    def _locally_safe(self, f: int, opened: int = -1) -> bool:
        """True if rubble on ``f`` cannot disconnect anything: its open neighbours form one arc."""
        b = self.board
        if b.special_neighbour[f]:
            return False
        rubble = self.rubble
        mask = 0
        bit = 1
        for j in b.ring[f]:
            if j >= 0 and (not rubble[j] or j == opened):
                mask |= bit
            bit <<= 1
        return RUNS[mask] <= 1

    def _block_ok(self, f: int) -> bool:
        """ATH-P1 for making the free field ``f`` rubble now."""
        crit = self._crit
        if crit is not None:
            return f not in crit
        if self._struct is None and self._locally_safe(f):
            return True
        disc, sep = self._struct or self._structure()
        intervals = sep.get(f)
        if not intervals:
            return True
        for ms in self.monks:
            for v in ms:
                m = disc[v]
                for lo, hi in intervals:
                    if lo <= m < hi:
                        return False
        return True

    def _flips_ok(self, flippable: list[int], out: list[int]) -> None:
        """Add the flips of ``flippable`` (tiles without monk or stone) allowed by ATH-P1 to
        ``out``: rubble may always be opened; an open tile may be turned if the local test says so,
        or else the one search per tile layout (made at the first tile the local test leaves open)
        shows that it cuts no monk off."""
        base = self.game.A_FLIP
        tile = self.tile
        crit = self._crit
        if crit is not None:
            out.extend(base + f for f in flippable if tile[f] == RUBBLE or f not in crit)
            return
        k = 0
        if self._struct is None:
            safe = self._locally_safe
            for f in flippable:
                if tile[f] == RUBBLE or safe(f):
                    out.append(base + f)
                    k += 1
                else:
                    break
            else:
                return
        disc, sep = self._structure()
        marks = [disc[v] for ms in self.monks for v in ms]
        for f in flippable[k:]:
            if tile[f] == OPEN:
                intervals = sep.get(f)
                if intervals and any(lo <= m < hi for lo, hi in intervals for m in marks):
                    continue
            out.append(base + f)

    def _reloc_ok(self, f: int, g: int) -> bool:
        """ATH-P1 for relocating the rubble tile on ``f`` to the free field ``g``.

        If ``g`` is not critical now, opening ``f`` can only help. Otherwise the open fields without
        ``g`` are split into components once per ``g``; the relocation is legal iff ``f`` touches the
        summit's component and every component that holds a monk.
        """
        if g not in self._critical():
            return True
        info = self._reloc.get(g)
        if info is None:
            b = self.board
            oadj = self.oadj
            rubble = self.rubble
            label = [-1] * b.size
            label[g] = -2
            k = 0
            for start in range(b.size):
                if label[start] != -1 or rubble[start]:
                    continue
                label[start] = k
                stack = [start]
                while stack:
                    u = stack.pop()
                    for w in oadj[u]:
                        if label[w] == -1:
                            label[w] = k
                            stack.append(w)
                k += 1
            info = (label, frozenset({label[b.summit]} | {label[v] for ms in self.monks for v in ms}))
            self._reloc[g] = info
        labels, need = info
        return need <= {labels[w] for w in self.board.adj[f]}

    def distances(self) -> list[int]:
        """Shortest open-path distance of every node to the summit (-1: cut off)."""
        if self._dist is None:
            b = self.board
            dist = [-1] * b.size
            dist[b.summit] = 0
            frontier = [b.summit]
            oadj = self.oadj
            d = 0
            while frontier:
                d += 1
                nxt = []
                for u in frontier:
                    for w in oadj[u]:
                        if dist[w] < 0:
                            dist[w] = d
                            nxt.append(w)
                frontier = nxt
            self._dist = dist
        return self._dist

    def path_rule_holds(self) -> bool:
        """ATH-P1: every monk in play has an open path to the summit."""
        dist = self.distances()
        return all(dist[v] >= 0 for ms in self.monks for v in ms)

    # --- movement (ATH-T1..T6) ------------------------------------------------------------------
    def _can_clear(self, x: int, pts: int) -> bool:
        """Can a monk leave the doubled field ``x`` for a legal end field within ``pts`` steps?"""
        if pts <= 0:
            return False
        b = self.board
        n = b.n
        adj = b.adj
        rubble = self.rubble
        occ = self.occ
        seen = {x}
        frontier = [x]
        for _ in range(pts):
            nxt = []
            for u in frontier:
                for w in adj[u]:
                    if w in seen or rubble[w]:
                        continue
                    if w >= n or occ[w] == 0:
                        return True
                    seen.add(w)
                    nxt.append(w)
            frontier = nxt
            if not frontier:
                return False
        return False

    def _crowded(self) -> list[int]:
        """Ordinary fields holding more than one monk now (during a movement phase only the
        mover's monks can make them: ATH-T3 allows them until the movement ends)."""
        occ = self.occ
        n = self.board.n
        out: list[int] = []
        for v in self.monks[self.seat]:
            if v < n and occ[v] >= 2 and v not in out:
                out.append(v)
        return out

    @property
    def double(self) -> int:
        """The first ordinary field holding more than one monk (-1: none)."""
        crowded = self._crowded()
        return crowded[0] if crowded else -1

    def _resolvable(self) -> bool:
        """ATH-T3: can the mover still end the movement with no ordinary field holding two monks?"""
        crowded = self._crowded()
        if not crowded:
            return True
        if self.points <= 0:
            return False
        if len(crowded) == 1 and self.occ[crowded[0]] == 2 and self._can_clear(crowded[0], self.points):
            return True
        return self._resolution_search()

    def _resolution_search(self) -> bool:
        """Exact answer of :meth:`_resolvable`: a search over the mover's possible continuations
        (steps, arrivals with their bonus, flips of rubble to open), made only when the quick test
        of one doubled field fails. Flips to rubble never help and are left out."""
        b = self.board
        n = b.n
        adj = b.adj
        summit = b.summit
        rubble = self.rubble
        stone = self.stone
        me = self.seat
        others = self.occ[:]
        for v in self.monks[me]:
            others[v] -= 1
        seen: set[tuple[tuple[int, ...], int, int, frozenset[int]]] = set()

        def crowded(pos: tuple[int, ...]) -> bool:
            last = -1
            for v in pos:
                if v < n and (others[v] or v == last):
                    return True
                last = v
            return False

        def flips(pos: tuple[int, ...], pts: int, opened: frozenset[int]) -> list[int]:
            # rubble worth opening touches a field some monk reaches with the points left after it
            reach = set(pos)
            frontier = list(pos)
            for _ in range(pts - FLIP_COST):
                nxt = []
                for u in frontier:
                    for w in adj[u]:
                        if w not in reach and (not rubble[w] or w in opened) and w != summit:
                            reach.add(w)
                            nxt.append(w)
                frontier = nxt
            return sorted(
                {w for u in reach for w in adj[u] if rubble[w] and w not in opened and stone[w] < 0}
            )

        dists: dict[frozenset[int], list[int]] = {}

        def to_summit(opened: frozenset[int]) -> list[int]:
            # rubble-free distances to the summit with the opened tiles (-1: no way)
            dist = dists.get(opened)
            if dist is None:
                dist = [-1] * b.size
                dist[summit] = 0
                frontier = [summit]
                d = 0
                while frontier:
                    d += 1
                    nxt = []
                    for u in frontier:
                        for w in adj[u]:
                            if dist[w] < 0 and (not rubble[w] or w in opened):
                                dist[w] = d
                                nxt.append(w)
                    frontier = nxt
                dists[opened] = dist
            return dist

        def search(pos: tuple[int, ...], pts: int, k: int, opened: frozenset[int]) -> bool:
            key = (pos, pts, k, opened)
            if key in seen:
                return False
            seen.add(key)
            if not crowded(pos):
                return True
            if pts <= 0:
                return False
            dist = to_summit(opened)
            for i, u in enumerate(pos):
                if i and pos[i - 1] == u:
                    continue
                # a monk alone on its field moves only to arrive (for the bonus) along a shortest
                # way: leaving room never beats passing through, since monks never block
                alone = u >= n or not (others[u] or (i + 1 < len(pos) and pos[i + 1] == u))
                if alone and not 0 < dist[u] <= pts:
                    continue
                rest = pos[:i] + pos[i + 1 :]
                for v in adj[u]:
                    if rubble[v] and v not in opened:
                        continue
                    if alone and dist[v] != dist[u] - 1:
                        continue
                    if v == summit:
                        gain = BONUS[k] if k < len(BONUS) else 0
                        if search(rest, pts - 1 + gain, k + 1, opened):
                            return True
                    elif search(tuple(sorted((*rest, v))), pts - 1, k, opened):
                        return True
            if pts >= FLIP_COST:
                for f in flips(pos, pts, opened):
                    if search(pos, pts - FLIP_COST, k, opened | {f}):
                        return True
            return False

        return search(tuple(sorted(self.monks[me])), self.points, len(self.arrivals), frozenset())

    def _bonus(self) -> int:
        k = len(self.arrivals)
        return BONUS[k] if k < len(BONUS) else 0

    def _step_problem(self, u: int, v: int) -> str | None:
        """Why the current player may not step a monk from ``u`` to the neighbour ``v`` (None: legal)."""
        b = self.board
        names = b.names
        ms = self.monks[self.seat]
        if u not in ms:
            return f"no monk of yours stands on {names[u]}"
        if self.points < 1:
            return "no movement points left"
        if self.rubble[v]:
            return f"field {names[v]} holds rubble (ATH-T2)"
        occ = self.occ
        if (v >= b.n or occ[v] == 0) and not self.crowd:
            return None
        # try the step in place: can the movement still end without two monks on a field?
        pts = self.points
        i = ms.index(u)
        arrive = v == b.summit
        occ[u] -= 1
        if arrive:
            self.points = pts - 1 + self._bonus()
            del ms[i]
            self.arrivals.append(self.seat)
        else:
            self.points = pts - 1
            ms[i] = v
            occ[v] += 1
        try:
            if self._resolvable():
                return None
            crowded = ", ".join(names[x] for x in self._crowded())
        finally:
            self.points = pts
            if arrive:
                self.arrivals.pop()
                ms.insert(i, u)
            else:
                ms[i] = u
                occ[v] -= 1
            occ[u] += 1
        return (
            f"after this step the monks on {crowded} could not be separated with the points left, "
            "and no ordinary field may hold two monks when the movement ends (ATH-T3)"
        )

    def _flip_problem(self, f: int) -> str | None:
        names = self.board.names
        if self.points < FLIP_COST:
            return f"a flip costs {FLIP_COST} movement points, you have {self.points} (ATH-T5)"
        if self.tile[f] == NONE:
            return f"field {names[f]} has no tile to flip"
        if self.occ[f]:
            return f"a monk stands on {names[f]}: its tile cannot be flipped (ATH-T5)"
        if self.stone[f] >= 0:
            return f"an Athos stone protects the tile on {names[f]} (ATH-T5, ATH-T7)"
        to_rubble = self.tile[f] == OPEN
        if to_rubble and not self._block_ok(f):
            return f"rubble on {names[f]} would cut a monk off from the summit (ATH-P1)"
        crowded = self._crowded() if self.crowd else []
        if crowded:
            pts = self.points
            self.rubble[f] = to_rubble
            self.points = pts - FLIP_COST
            try:
                ok = self._resolvable()
            finally:
                self.rubble[f] = not to_rubble
                self.points = pts
            if not ok:
                return (
                    f"after the flip the monks on {', '.join(names[x] for x in crowded)} could not be "
                    "separated, and no ordinary field may hold two monks when the movement ends (ATH-T3)"
                )
        return None

    # --- placement (ATH-T7, ATH-T8, ATH-V2, ATH-V3) ---------------------------------------------
    def _free(self, f: int) -> bool:
        """No tile, no monk, no stone (a bare stone of ATH-V3 keeps tiles off), ordinary field."""
        return self.tile[f] == NONE and self.occ[f] == 0 and self.stone[f] < 0

    def _place_problem(self, f: int, open_side: bool = False, tt: int = -1) -> str | None:
        """Why a tile (of terrain ``tt``, -1: the field's) may not be placed on ``f`` now."""
        b = self.board
        names = b.names
        t = b.terrain[f] if tt < 0 else tt
        terrain = b.terrains[t]
        if tt >= 0:
            if self.phase != HANDICAP:
                return f"tiles are placed on fields of their own terrain (ATH-T8): write 'place {names[f]}'"
            if self.game.original_rules:
                return "by the rulings of 2026-11-23 a handicap tile is of the field's terrain (ATH-V2)"
            if tt == b.terrain[f]:
                side = " open" if open_side else ""
                return f"a tile of the field's own terrain is written 'place {names[f]}{side}'"
        if self.tile[f] != NONE:
            return f"field {names[f]} already holds a tile"
        if self.occ[f]:
            return f"a monk stands on {names[f]}"
        if self.stone[f] >= 0:
            return f"an Athos stone stands on {names[f]}: no tile may be placed there (ATH-V3)"
        if self.supply[t] == 0:
            return f"the {terrain} tiles are used up (ATH-T8)"
        if self.phase != HANDICAP:
            if open_side:
                return "tiles are placed rubble side up (ATH-T8)"
            if self.placed_total >= self.game.max_tiles:
                return f"only {self.game.max_tiles} tiles per turn (ATH-T8)"
            if self.placed[t] >= self.game.max_per_terrain:
                per = self.game.max_per_terrain
                return f"only {per} tile{'s' if per > 1 else ''} per terrain per turn ({terrain}, ATH-T8)"
        if not open_side and not self._block_ok(f):
            return f"rubble on {names[f]} would cut a monk off from the summit (ATH-P1)"
        return None

    def _place_actions(self, out: list[int]) -> None:
        g = self.game
        b = self.board
        tile = self.tile
        occ = self.occ
        stone = self.stone
        base = g.A_PLACE
        cands = [
            f
            for t, fields in enumerate(b.fields_of_terrain)
            if self.supply[t] and self.placed[t] < g.max_per_terrain
            for f in fields
            if not tile[f] and not occ[f] and stone[f] < 0
        ]
        if self._crit is None and self._struct is None and len(cands) <= 40:
            # few candidates: the local test on each is cheaper than a search, which is made
            # only if some candidate is not settled by it
            safe = self._locally_safe
            if all(safe(f) for f in cands):
                out.extend(base + f for f in cands)
                return
        # one search serves every candidate
        crit = self._critical()
        out.extend(base + f for f in cands if f not in crit)

    def _handicap_actions(self) -> list[int]:
        """ATH-V2: a tile of any terrain left in the supply on any free field, either side up."""
        g = self.game
        b = self.board
        N = b.n
        others = [] if g.original_rules else [t for t in range(len(b.terrains)) if self.supply[t]]
        out = []
        for f in range(N):
            if not self._free(f):
                continue
            own = b.terrain[f]
            rubble_ok = self._block_ok(f)
            if self.supply[own]:
                if rubble_ok:
                    out.append(g.A_PLACE + f)
                out.append(g.A_OPEN + f)
            for t in others:
                if t != own:
                    base = g.A_HANDICAP + 2 * (t * N + f)
                    if rubble_ok:
                        out.append(base)
                    out.append(base + 1)
        return out

    def _relocations(self, any_one: bool = False) -> list[int]:
        """The legal relocations (``any_one``: stop at the first one found)."""
        g = self.game
        N = self.board.n
        tile = self.tile
        occ = self.occ
        stone = self.stone
        movable = [f for f in self._tiled() if not occ[f] and stone[f] < 0]
        if not movable:
            return []
        free = [x for x in range(N) if not tile[x] and not occ[x] and stone[x] < 0]
        out: list[int] = []
        for f in movable:
            base = g.A_RELOC + f * N
            if tile[f] == OPEN:
                out.extend(base + x for x in free)
            else:
                crit = self._critical()
                ok = self._reloc_ok
                out.extend(base + x for x in free if x not in crit or ok(f, x))
            if any_one and out:
                break
        return out

    def _stone_targets(self) -> list[int]:
        """ATH-T7: any tile, one with a stone too; ATH-V3: a free bare field (one with a stone too)."""
        g = self.game
        out = []
        for f in range(self.board.n):
            if self.stone[f] >= 0 and g.original_rules:
                continue
            if self.tile[f] != NONE or (g.bare_stone and self.occ[f] == 0):
                out.append(g.A_STONE + f)
        return out

    # --- legal actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        phase = self.phase
        g = self.game
        if phase == MOVE:
            b = self.board
            out: list[int] = []
            occ = self.occ
            crowded = self._crowded() if self.crowd else []
            if self.points >= 1:
                rubble = self.rubble
                plain = not crowded
                n = b.n
                for u in set(self.monks[self.seat]):
                    for v, e in b.out[u]:
                        if rubble[v]:
                            continue
                        if (plain and (v >= n or occ[v] == 0)) or self._step_problem(u, v) is None:
                            out.append(e)
            if self.points >= FLIP_COST:
                base = g.A_FLIP
                stone = self.stone
                flippable = [f for f in self._tiled() if not occ[f] and stone[f] < 0]
                if crowded:
                    out.extend(base + f for f in flippable if self._flip_problem(f) is None)
                else:
                    self._flips_ok(flippable, out)
            if not crowded:
                out.append(g.A_END_MOVE)
            out.sort()
            return out
        if phase == STONE:
            out = []
            if self.stones_left[self.seat]:
                reloc = self._relocations()
                out.extend(reloc if reloc else self._stone_targets())
            if self.placed_total < g.max_tiles:
                self._place_actions(out)
            out.append(g.A_END_TURN)
            out.sort()
            return out
        if phase == PLACE:
            out = []
            if self.placed_total < g.max_tiles:
                self._place_actions(out)
            out.append(g.A_END_TURN)
            out.sort()
            return out
        if phase == RELOCATED:
            return self._stone_targets()
        if phase == HANDICAP:
            return sorted(self._handicap_actions())
        return []

    def is_legal(self, action: int) -> bool:
        return self._problem(action) is None

    def _problem(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        g = self.game
        b = self.board
        names = b.names
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < g._num_actions:
            return f"{action!r} is not an action of this game"
        phase = self.phase
        if phase == OVER:
            return "the game is over"
        kind, x, y = self._decode(action)
        if kind == "step" or kind == "flip" or kind == "end-move":
            if phase != MOVE:
                return f"the movement phase is over ({self._phase_text()})"
            if kind == "step":
                return self._step_problem(x, y)
            if kind == "flip":
                return self._flip_problem(x)
            if self.crowd:
                fields = ", ".join(names[x] for x in self._crowded())
                return f"{fields} holds two monks; the movement cannot end so (ATH-T3)"
            return None
        if kind == "end-turn":
            if phase in (STONE, PLACE):
                return None
            if phase == MOVE:
                return "end the movement first (end-move)"
            if phase == RELOCATED:
                return "after a relocation the Athos stone must be put (ATH-T7)"
            return "the handicap tiles are placed first (ATH-V2)"
        if kind == "relocate":
            if phase == RELOCATED:
                return "only one tile is relocated per Athos stone (ATH-T7)"
            if phase != STONE:
                return self._stone_time()
            if not self.stones_left[self.seat]:
                return "you have no Athos stone left (ATH-T7)"
            f = x
            if self.tile[f] == NONE:
                return f"field {names[f]} has no tile to relocate"
            if self.occ[f]:
                return f"a monk stands on the tile on {names[f]} (ATH-T7)"
            if self.stone[f] >= 0:
                return f"an Athos stone protects the tile on {names[f]} (ATH-T7)"
            if y == f:
                return "a relocated tile goes to another field (ATH-T7)"
            if self.tile[y] != NONE:
                return f"field {names[y]} already holds a tile"
            if self.occ[y]:
                return f"a monk stands on {names[y]}"
            if self.stone[y] >= 0:
                return f"an Athos stone stands on {names[y]}: no tile may go there (ATH-V3)"
            if self.tile[f] == RUBBLE and not self._reloc_ok(f, y):
                return f"rubble on {names[y]} would cut a monk off from the summit (ATH-P1)"
            return None
        if kind == "stone":
            if phase not in (STONE, RELOCATED):
                return self._stone_time()
            if not self.stones_left[self.seat]:
                return "you have no Athos stone left (ATH-T7)"
            if self.stone[x] >= 0 and g.original_rules:
                return f"an Athos stone already stands on {names[x]} (rulings of 2026-11-23)"
            if self.tile[x] == NONE:
                if not g.bare_stone:
                    return f"field {names[x]} has no tile; the stone goes on a tile (ATH-T7)"
                if self.occ[x]:
                    return f"a monk stands on the bare field {names[x]} (ATH-V3)"
            if phase == STONE and self._relocations(any_one=True):
                return "first relocate a tile (relocate f>g), then put the stone (ATH-T7)"
            return None
        # place / place open
        open_side = kind == "open"
        if phase == HANDICAP:
            return self._place_problem(x, open_side, y)
        if phase == MOVE:
            return "end the movement first (end-move), then place tiles (ATH-T8)"
        if phase == RELOCATED:
            return "after a relocation the Athos stone must be put (ATH-T7)"
        return self._place_problem(x, open_side, y)

    def explain_illegal(self, action: object) -> str:
        problem = self._problem(action)
        if problem is None:
            return f"{self.action_to_string(action)} is legal"  # type: ignore[arg-type]
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < self.game._num_actions:
            return f"{self.action_to_string(action)}: {problem}"
        return problem

    def _stone_time(self) -> str:
        return (
            "an Athos stone is used after the movement and before any tile is placed "
            f"(ATH-T7; {self._phase_text()})"
        )

    def _phase_text(self) -> str:
        return {
            HANDICAP: "handicap tiles are being placed",
            MOVE: "it is the movement phase",
            STONE: "the movement has ended",
            RELOCATED: "a tile was relocated, the stone is to be put",
            PLACE: "tiles are being placed",
            OVER: "the game is over",
        }[self.phase]

    # --- applying ------------------------------------------------------------------------------
    def _decode(self, action: int) -> tuple[str, int, int]:
        g = self.game
        N = self.board.n
        if action < g.A_FLIP:
            u, v = self.board.edges[action]
            return "step", u, v
        if action < g.A_END_MOVE:
            return "flip", action - g.A_FLIP, -1
        if action == g.A_END_MOVE:
            return "end-move", -1, -1
        if action < g.A_STONE:
            f, x = divmod(action - g.A_RELOC, N)
            return "relocate", f, x
        if action < g.A_PLACE:
            return "stone", action - g.A_STONE, -1
        if action < g.A_OPEN:
            return "place", action - g.A_PLACE, -1
        if action < g.A_END_TURN:
            return "open", action - g.A_OPEN, -1
        if action == g.A_END_TURN:
            return "end-turn", -1, -1
        # a handicap tile of another terrain (ATH-V2): the terrain comes third
        t, rest = divmod(action - g.A_HANDICAP, 2 * N)
        f, open_side = divmod(rest, 2)
        return ("open" if open_side else "place"), f, t

    def _tiled(self) -> list[int]:
        """The ordinary fields holding a tile, in order (cached per tile layout)."""
        if self._tiles is None:
            tile = self.tile
            self._tiles = [f for f in self.board.ordinary if tile[f]]
        return self._tiles

    def _set_tile(self, f: int, side: int, terrain: int) -> None:
        self._tiles = None
        self.tile[f] = side
        self.tterr[f] = terrain
        blocked = side == RUBBLE
        if self.rubble[f] != blocked:
            rubble = self.rubble
            rubble[f] = blocked
            adj = self.board.adj
            oadj = self.oadj
            for u in adj[f]:
                oadj[u] = tuple(w for w in adj[u] if not rubble[w])

    def _apply(self, action: int) -> None:
        g = self.game
        b = self.board
        if action < g.A_FLIP:  # step
            u, v = b.edges[action]
            p = self.seat
            ms = self.monks[p]
            ms.remove(u)
            occ = self.occ
            occ[u] -= 1
            if occ[u] == 1 and u < b.n:
                self.crowd -= 1  # ATH-T3: u no longer holds two monks
            self.points -= 1
            if v == b.summit:  # ATH-T6
                self.points += self._bonus()
                self.arrivals.append(p)
                self._crit = None  # a monk left play
                side = g.side_of[p]
                if side not in {g.side_of[q] for q in self.finishers} and all(
                    not self.monks[q] for q in g.members[side]
                ):
                    self.finishers.append(p)
                    self.final_round = True  # ATH-E1
            else:
                ms.append(v)
                occ[v] += 1
                if occ[v] == 2 and v < b.n:
                    self.crowd += 1
                self._crit = None  # the path analysis depends on where monks stand
            if self._reloc:
                self._reloc = {}
            return
        if action < g.A_END_MOVE:  # flip
            f = action - g.A_FLIP
            self.points -= FLIP_COST
            self._set_tile(f, OPEN if self.tile[f] == RUBBLE else RUBBLE, self.tterr[f])
            self._changed()
            return
        if action == g.A_END_MOVE:
            self.unused[self.seat] = self.points
            self.points = 0
            self.phase = STONE
            return
        if action < g.A_STONE:  # relocate
            f, x = divmod(action - g.A_RELOC, b.n)
            self._set_tile(x, self.tile[f], self.tterr[f])
            self._set_tile(f, NONE, -1)
            self.phase = RELOCATED
            self._changed()
            return
        if action < g.A_PLACE:  # stone
            f = action - g.A_STONE
            if self.stone[f] >= 0:  # ATH-T7: on a tile that carries one already
                self.stacked.append((f, self.seat))
            else:
                self.stone[f] = self.seat
            self.stones_left[self.seat] -= 1
            self.phase = PLACE
            self._reloc = {}
            return
        if action < g.A_END_TURN or action > g.A_END_TURN:  # place (rubble or open)
            if action > g.A_END_TURN:  # a handicap tile of another terrain (ATH-V2)
                t, rest = divmod(action - g.A_HANDICAP, 2 * b.n)
                f, side = divmod(rest, 2)
                open_side = side == 1
            else:
                open_side = action >= g.A_OPEN
                f = action - (g.A_OPEN if open_side else g.A_PLACE)
                t = b.terrain[f]
            self._set_tile(f, OPEN if open_side else RUBBLE, t)
            self.supply[t] -= 1
            self._changed()
            if self.phase == HANDICAP:
                self.handicap_left -= 1
                if self.handicap_left == 0 or not self._handicap_actions():
                    self._start_turn(0)
                return
            self.placed[t] += 1
            self.placed_total += 1
            self.phase = PLACE
            return
        # end of turn (ATH-T9)
        if self.seat == g.num_players - 1:
            if self.final_round or self.round >= g.round_limit:  # ATH-E1, ATH-E3
                self.phase = OVER
                return
            self.round += 1
            self._start_turn(0)
        else:
            self._start_turn(self.seat + 1)

    def _start_turn(self, seat: int) -> None:
        self.seat = seat
        self.phase = MOVE
        self.points = MOVEMENT_POINTS
        self.placed = [0] * len(self.board.terrains)
        self.placed_total = 0
        self.handicap_left = 0

    # --- results (ATH-E1..E3) ----------------------------------------------------------------------
    def side_arrived(self, side: int) -> int:
        return sum(MONKS - len(self.monks[p]) for p in self.game.members[side])

    def side_distance(self, side: int) -> int:
        """Sum of the shortest open-path distances of the side's monks in play to the summit."""
        dist = self.distances()
        return sum(dist[v] for p in self.game.members[side] for v in self.monks[p])

    def side_ranks(self) -> list[int]:
        """Rank of each side (0 best) at the end: the winners of ATH-E2 first and the others below
        them as in ATH-E3 (ATH-E4); with nobody finished, ATH-E3 (monks arrived, distance sum)."""
        g = self.game
        sides = range(g.num_sides)
        keys = [(-self.side_arrived(s), self.side_distance(s)) for s in sides]
        if not self.finishers:
            return [sum(1 for k in keys if k < keys[s]) for s in sides]
        value = {g.side_of[p]: self.unused[p] or 0 for p in self.finishers}
        best = max(value.values())
        won = [value.get(s, -1) == best for s in sides]
        if g.original_rules:  # before ATH-E4 every other side shared the next rank
            return [0 if won[s] else 1 for s in sides]
        return [0 if won[s] else 1 + sum(1 for o in sides if not won[o] and keys[o] < keys[s]) for s in sides]

    def returns(self) -> list[float]:
        g = self.game
        if self.phase != OVER:
            return [0.0] * g.num_players
        ranks = self.side_ranks()
        return returns_from_ranks([ranks[g.side_of[p]] for p in range(g.num_players)])

    def scores(self) -> list[float]:
        g = self.game
        return [float(self.side_arrived(g.side_of[p])) for p in range(g.num_players)]

    def score_details(self) -> dict[str, Any]:
        g = self.game
        return {
            "scores": self.scores(),
            "arrived": [MONKS - len(self.monks[p]) for p in range(g.num_players)],
            "distances": [self.side_distance(g.side_of[p]) for p in range(g.num_players)],
            "arrivals": [g.player_name(p) for p in self.arrivals],
            "round": self.round,
            "final_round": self.final_round,
        }

    def result_text(self) -> str:
        if self.phase != OVER:
            return "the game is not over"
        g = self.game
        ranks = self.side_ranks()
        winners = [s for s in range(g.num_sides) if ranks[s] == 0]
        names = [" and ".join(g.player_name(p) for p in g.members[s]) for s in winners]
        how = "" if self.finishers else f" after the round limit of {g.round_limit} (ATH-E3)"
        if len(winners) == g.num_sides and not self.finishers:
            return "draw" + how
        if len(winners) == 1:
            verb = "win" if g.teams else "wins"
            return f"{names[0]} {verb}{how}"
        return " and ".join(names) + " share the win" + how

    def flip_distances(self) -> list[int]:
        """Distance of every node to the summit for the AI, counting rubble as passable at a cost.

        Entering an open field (or the summit) costs 1, entering a rubble tile 5 (flip it open
        for 4 points, then step, ATH-T5), and a rubble tile under an Athos stone cannot be
        entered (it is never flipped again, ATH-T7). A wall of rubble then lengthens a path by at
        most what it costs to flip through it. Used by :meth:`evaluate` only; the rules use
        :meth:`distances`.
        """
        b = self.board
        inf = 1 << 20
        dist = [inf] * b.size
        summit = b.summit
        dist[summit] = 0
        rubble = self.rubble
        stone = self.stone
        adj = b.adj
        buckets: list[list[int]] = [[summit]]
        d = 0
        while d < len(buckets):
            for w in buckets[d]:
                if dist[w] != d:
                    continue
                if rubble[w]:
                    if stone[w] >= 0:
                        continue
                    nd = d + FLIP_COST + 1
                else:
                    nd = d + 1
                for v in adj[w]:
                    if nd < dist[v]:
                        dist[v] = nd
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(v)
            d += 1
        return dist

    def evaluate(self) -> list[float]:
        """How far each side is from the summit against the opponents, in (-1, 1).

        A side's remaining distance is the sum over its monks in play of :meth:`flip_distances`
        (arrived monks count 0): rubble counts as a detour or as the flip through it, whichever
        is shorter. A side that has brought in all its monks counts minus half the movement
        points its finisher kept (ATH-E2 ranks such sides by those points; during that player's
        movement phase, the points left). The value is ``tanh(diff / (30 * members))`` of the
        difference between the opponents' mean and the own side's: it does not saturate, so a
        search still tells a large lead from a larger one.
        """
        g = self.game
        if self.phase == OVER:
            return self.returns()
        fd = self.flip_distances()
        monks = self.monks
        rem = [float(sum(fd[v] for p in g.members[s] for v in monks[p])) for s in range(g.num_sides)]
        for p in self.finishers:
            kept = self.points if (self.phase == MOVE and self.seat == p) else (self.unused[p] or 0)
            rem[g.side_of[p]] = -0.5 * kept
        out = []
        for p in range(g.num_players):
            s = g.side_of[p]
            others = [rem[o] for o in range(g.num_sides) if o != s]
            diff = sum(others) / len(others) - rem[s]
            out.append(math.tanh(diff / (30.0 * len(g.members[s]))))
        return out

    # --- notation --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < g._num_actions:
            raise NotationError(f"{action!r} is not an Athos action id")
        names = self.board.names
        kind, x, y = self._decode(action)
        if kind == "step":
            return f"{names[x]}-{names[y]}"
        if kind == "flip":
            return f"flip {names[x]}"
        if kind == "relocate":
            return f"relocate {names[x]}>{names[y]}"
        if kind == "stone":
            return f"stone {names[x]}"
        terrain = f" {self.board.terrains[y]}" if kind in ("place", "open") and y >= 0 else ""
        if kind == "place":
            return f"place {names[x]}{terrain}"
        if kind == "open":
            return f"place {names[x]} open{terrain}"
        return kind

    def _field(self, text: str, ordinary: bool = True) -> int:
        f = self.board.field(text)
        if f < 0:
            raise NotationError(
                f"{text!r} is not a field of this board (fields look like g7; start fields A-E)"
            )
        if ordinary and f >= self.board.n:
            raise NotationError(
                f"{self.board.names[f]} is a start field or the summit, not an ordinary field"
            )
        return f

    def string_to_action(self, text: str) -> int:
        g = self.game
        b = self.board
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a move")
        t = " ".join(text.strip().lower().split())
        if t in ("end-move", "end move", "endmove", "stop", "done"):
            return g.A_END_MOVE
        if t in ("end-turn", "end turn", "endturn", "end", "pass"):
            return g.A_END_TURN
        words = t.split(" ")
        if words[0] == "flip" and len(words) == 2:
            return g.A_FLIP + self._field(words[1])
        if words[0] == "stone" and len(words) == 2:
            return g.A_STONE + self._field(words[1])
        if words[0] == "place" and len(words) in (2, 3, 4):
            f = self._field(words[1])
            rest = words[2:]
            tt = -1
            if rest and rest[-1] in b.terrains:  # a handicap tile of another terrain (ATH-V2)
                tt = b.terrains.index(rest.pop())
            if len(rest) > 1 or (rest and rest[0] not in ("rubble", "open")):
                raise NotationError(
                    f"a tile is placed 'rubble' or 'open' side up, optionally of a terrain "
                    f"({', '.join(b.terrains)}), not {' '.join(rest)!r}"
                )
            open_side = rest == ["open"]
            if tt < 0:
                return (g.A_OPEN if open_side else g.A_PLACE) + f
            return g.A_HANDICAP + 2 * (tt * b.n + f) + int(open_side)
        if words[0] == "relocate":
            rest = " ".join(words[1:]).replace(">", " ").split()
            if len(rest) != 2:
                raise NotationError("a relocation is written 'relocate g7>h9'")
            f, x = self._field(rest[0]), self._field(rest[1])
            return g.A_RELOC + f * b.n + x
        if len(words) == 1 and "-" in t:
            a, _, c = t.partition("-")
            u, v = self._field(a, False), self._field(c, False)
            e = b.edge_id.get((u, v))
            if e is None:
                raise NotationError(
                    f"{b.names[u]} and {b.names[v]} are not neighbours: a step goes to an adjacent field"
                )
            return e
        raise NotationError(
            f"cannot read {text!r}: moves are a step 'g7-h8', 'flip g7', 'end-move', "
            "'relocate g7>h9', 'stone h9', 'place g7' ('place g7 open', 'place g7 forest' in a handicap), "
            "'end-turn'"
        )

    # --- views ------------------------------------------------------------------------------------
    def _cell(self, f: int) -> str:
        b = self.board
        letter = b.terrains[b.terrain[f]][0]
        side = self.tile[f]
        mark = "#" if side == RUBBLE else ("." if side == OPEN else " ")
        monks = "".join(str(p + 1) for p, ms in enumerate(self.monks) for v in ms if v == f)
        if self.stone[f] >= 0:
            inner = (monks[:1] or mark) + "*"
        elif monks:
            inner = monks[:2] if len(monks) > 1 else monks + mark
        else:
            inner = mark * 2
        return letter + inner

    def render(self, labels: bool = False) -> str:
        g = self.game
        b = self.board
        lines: list[str] = []
        width = 2 * (b.max_col + 2)
        pad = 4 if labels else 0
        summit_text = "summit: " + (
            " ".join(str(p + 1) for p in self.arrivals) if self.arrivals else "no arrivals yet"
        )
        lines.append(" " * pad + summit_text.center(width))
        if labels:
            header = [" "] * width
            for c in range(b.min_col, b.max_col + 1):
                header[2 * c] = chr(ord("a") + c)
            lines.append(" " * pad + "".join(header).rstrip())
        for r in range(b.max_row, b.min_row - 1, -1):
            row = [" "] * (width + 2)
            for c in range(b.min_col, b.max_col + 1):
                f = b.by_coord.get((c, r))
                if f is None:
                    continue
                cell = self._cell(f)
                for k, ch in enumerate(cell):
                    row[2 * c + k] = ch
            prefix = f"{r:>3} " if labels else ""
            lines.append(prefix + "".join(row).rstrip())
        starts = []
        for s, sid in zip(START_LETTERS, b.start_ids, strict=True):
            monks = "".join(str(p + 1) for p, ms in enumerate(self.monks) for v in ms if v == sid)
            starts.append(f"[{s}:{monks or '-'}]")
        lines.append(" " * pad + " ".join(starts).center(width).rstrip())
        lines.append("")
        legend = ", ".join(f"{t[0]} {t}" for t in b.terrains)
        lines.append(f"terrain: {legend}; ## rubble, .. open tile, * Athos stone, digits: monks")
        players = []
        for p in range(g.num_players):
            arrived = MONKS - len(self.monks[p])
            team = f", team {g.team_name(g.side_of[p])}" if g.teams else ""
            players.append(
                f"{p + 1} = {g.player_name(p)}{team}: {arrived} arrived, {self.stones_left[p]} stones"
            )
        lines.extend(players)
        if g.teams:
            lines.append(
                "; ".join(
                    f"team {g.team_name(t)}: {self.side_arrived(t)} of {MONKS * len(g.members[t])} arrived"
                    for t in range(g.num_sides)
                )
            )
        supply = ", ".join(f"{t} {self.supply[i]}" for i, t in enumerate(b.terrains))
        lines.append(f"supply: {supply}")
        if self.phase == OVER:
            lines.append(f"game over after round {self.round}: {self.result_text()}")
            return "\n".join(lines)
        who = g.player_name(self.seat)
        if self.phase == HANDICAP:
            lines.append(f"handicap (ATH-V2): {who} places {self.handicap_left} more tile(s)")
            return "\n".join(lines)
        final = " (final round)" if self.final_round else ""
        lines.append(f"round {self.round}{final}, {who} to play, {PHASE_NAMES[self.phase]} phase")
        if self.phase == MOVE:
            lines.append(f"movement points left: {self.points}")
        else:
            placed = ", ".join(f"{t} {self.placed[i]}" for i, t in enumerate(b.terrains))
            lines.append(
                f"tiles placed this turn: {self.placed_total} of {g.max_tiles} "
                f"(at most {g.max_per_terrain} per terrain): {placed}"
            )
        return "\n".join(lines)

    def observation_tensor(self, player: int) -> list[float]:
        g = self.game
        b = self.board
        size = b.size
        n = g.num_players
        planes = [0.0] * (14 * size)
        for f in range(b.n):
            planes[b.terrain[f] * size + f] = 1.0
        for s in b.start_ids:
            planes[5 * size + s] = 1.0
        planes[6 * size + b.summit] = 1.0
        for f in range(b.n):
            if self.tile[f] == RUBBLE:
                planes[7 * size + f] = 1.0
            elif self.tile[f] == OPEN:
                planes[8 * size + f] = 1.0
            if self.stone[f] >= 0:
                planes[9 * size + f] = 1.0
        for k in range(n):
            p = (player + k) % n
            for v in self.monks[p]:
                planes[(10 + k) * size + v] += 1.0 / MONKS
        extra = [0.0] * 37
        if self.phase != OVER:
            extra[(self.seat - player) % n] = 1.0
        extra[4 + self.phase] = 1.0
        extra[10] = self.points / 14.0
        for t in range(5):
            extra[11 + t] = self.placed[t] / 2.0
            extra[17 + t] = self.supply[t] / TILES_PER_TERRAIN
        extra[16] = self.placed_total / 8.0
        for k in range(n):
            p = (player + k) % n
            extra[22 + k] = self.stones_left[p] / STONES
            extra[26 + k] = (MONKS - len(self.monks[p])) / MONKS
        extra[30] = len(self.arrivals) / 12.0
        extra[31] = self.round / g.round_limit
        extra[32] = 1.0 if self.final_round else 0.0
        extra[33] = self.handicap_left / 80.0
        extra[34] = 1.0 if self.crowd else 0.0
        extra[35] = 1.0 if g.teams else 0.0
        extra[36] = 1.0 if g.bare_stone else 0.0
        return planes + extra

    # --- positions ----------------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        g = self.game
        b = self.board
        names = b.names
        tiles = [
            {
                "field": names[f],
                "side": "rubble" if self.tile[f] == RUBBLE else "open",
                "terrain": b.terrains[self.tterr[f]],
            }
            for f in range(b.n)
            if self.tile[f] != NONE
        ]
        stones = [{"field": names[f], "player": self.stone[f]} for f in range(b.n) if self.stone[f] >= 0]
        stones += [{"field": names[f], "player": p} for f, p in self.stacked]
        return {
            "game": "athos",
            "options": {k: v for k, v in g.options.items() if v is not None},
            "round": self.round,
            "to_move": self.seat,
            "phase": PHASE_NAMES[self.phase],
            "points": self.points,
            "tiles": tiles,
            "stones": stones,
            "stones_left": list(self.stones_left),
            "monks": [sorted((names[v] for v in ms), key=lambda x: b.field(x)) for ms in self.monks],
            "arrivals": list(self.arrivals),
            "placed": {b.terrains[t]: k for t, k in enumerate(self.placed) if k},
            "unused": list(self.unused),
            "finishers": list(self.finishers),
            "final_round": self.final_round,
            "handicap_left": self.handicap_left,
        }

    def _to_dict(self) -> dict[str, Any]:
        return {"position": self.to_position()}

    @classmethod
    def from_position(cls, game: AthosGame, doc: Mapping[str, Any]) -> AthosState:
        return _position_to_state(game, doc)


def _whole(x: object) -> bool:
    """A JSON whole number (not a boolean)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _int(doc: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = doc.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"'{key}' is a whole number from {low} to {high}, not {value!r}")
    return value


def _position_to_state(game: AthosGame, doc: Mapping[str, Any]) -> AthosState:
    b = game.board
    n = game.num_players
    names = b.names
    s = AthosState(game)
    s.occ = [0] * b.size
    s.monks = [[] for _ in range(n)]

    def field(x: object, what: str, ordinary: bool = True) -> int:
        if not isinstance(x, str) or b.field(x) < 0:
            raise PositionError(f"{what}: {x!r} is not a field of this board")
        f = b.field(x)
        if ordinary and f >= b.n:
            raise PositionError(f"{what}: {names[f]} is not an ordinary field")
        return f

    tiles = doc.get("tiles", [])
    if not isinstance(tiles, list):
        raise PositionError("'tiles' is a list of {field, side, terrain}")
    counts = [0] * len(b.terrains)
    for item in tiles:
        if not isinstance(item, Mapping):
            raise PositionError("each tile is an object {field, side, terrain}")
        f = field(item.get("field"), "tile")
        if s.tile[f] != NONE:
            raise PositionError(f"two tiles on {names[f]}")
        side = item.get("side", "rubble")
        if side not in ("rubble", "open"):
            raise PositionError(f"the tile on {names[f]} has side 'rubble' or 'open', not {side!r}")
        terr = item.get("terrain", b.terrains[b.terrain[f]])
        if terr not in b.terrains:
            raise PositionError(f"the tile on {names[f]} has unknown terrain {terr!r}")
        t = b.terrains.index(terr)
        counts[t] += 1
        s._set_tile(f, RUBBLE if side == "rubble" else OPEN, t)
    for t, k in enumerate(counts):
        if k > TILES_PER_TERRAIN:
            raise PositionError(f"{k} {b.terrains[t]} tiles; there are only {TILES_PER_TERRAIN} (ATH-B3)")
        s.supply[t] = TILES_PER_TERRAIN - k
    stones = doc.get("stones", [])
    if not isinstance(stones, list):
        raise PositionError("'stones' is a list of {field, player}")
    used = [0] * n
    for item in stones:
        if not isinstance(item, Mapping):
            raise PositionError("each stone is an object {field, player}")
        f = field(item.get("field"), "stone")
        p = item.get("player")
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < n:
            raise PositionError(f"the stone on {names[f]} names player {p!r}; players are 0 to {n - 1}")
        if s.tile[f] == NONE and not game.bare_stone:
            raise PositionError(f"the stone on {names[f]} stands on no tile (only ATH-V3 allows that)")
        if s.stone[f] < 0:
            s.stone[f] = p
        elif game.original_rules:
            raise PositionError(f"two stones on {names[f]} (the rulings of 2026-11-23 allow one, ATH-T7)")
        else:
            s.stacked.append((f, p))
        used[p] += 1
    left = doc.get("stones_left", [STONES - u for u in used])
    if not isinstance(left, list) or len(left) != n or not all(_whole(x) for x in left):
        raise PositionError(f"'stones_left' is a list of {n} whole numbers")
    for p in range(n):
        if left[p] < 0 or left[p] + used[p] > STONES:
            raise PositionError(
                f"player {p} has {used[p]} stone(s) on the board and {left[p]} left; a player has {STONES}"
            )
    s.stones_left = list(left)
    arrivals = doc.get("arrivals", [])
    if not isinstance(arrivals, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n for p in arrivals
    ):
        raise PositionError(f"'arrivals' lists the player (0 to {n - 1}) of each arrival in order")
    s.arrivals = list(arrivals)
    monks = doc.get("monks")
    if monks is None:
        monks = [[game.seats[p]] * MONKS for p in range(n)]
    if not isinstance(monks, list) or len(monks) != n:
        raise PositionError(f"'monks' lists the fields of each of the {n} players' monks in play")
    for p in range(n):
        if not isinstance(monks[p], list):
            raise PositionError(f"'monks' of player {p} is a list of fields")
        for x in monks[p]:
            f = field(x, f"a monk of player {p}", ordinary=False)
            if f == b.summit:
                raise PositionError("arrived monks are listed in 'arrivals', not on the summit")
            if s.rubble[f]:
                raise PositionError(f"a monk of player {p} stands on rubble ({names[f]})")
            s.monks[p].append(f)
            s.occ[f] += 1
        if len(s.monks[p]) + arrivals.count(p) != MONKS:
            raise PositionError(
                f"player {p} has {len(s.monks[p])} monk(s) in play and {arrivals.count(p)} arrived; "
                f"a player has {MONKS}"
            )
    phase_name = doc.get("phase", "move")
    if phase_name not in PHASE_NAMES:
        raise PositionError(f"'phase' is one of {', '.join(PHASE_NAMES)}, not {phase_name!r}")
    s.phase = PHASE_NAMES.index(phase_name)
    s.seat = _int(doc, "to_move", 0, 0, n - 1)
    s.round = _int(doc, "round", 1, 1, game.round_limit)
    s.points = _int(doc, "points", MOVEMENT_POINTS if s.phase == MOVE else 0, 0, 14)
    doubles = [f for f in range(b.n) if s.occ[f] >= 2]
    s.crowd = len(doubles)
    if doubles:
        if s.phase != MOVE:
            raise PositionError(f"{names[doubles[0]]} holds more than one monk (ATH-T3)")
        for f in doubles:
            if f not in s.monks[s.seat]:
                raise PositionError(
                    f"{names[f]} holds more than one monk and none of the player to move (ATH-T3)"
                )
        if not s._resolvable():
            raise PositionError(
                f"{', '.join(names[f] for f in doubles)}: monks that cannot be separated with the "
                "points left (ATH-T3)"
            )
    placed = doc.get("placed", {})
    if not isinstance(placed, Mapping):
        raise PositionError("'placed' maps terrain names to the tiles placed this turn")
    for terr, k in placed.items():
        if terr not in b.terrains:
            raise PositionError(f"'placed' names unknown terrain {terr!r}")
        if not _whole(k) or not 0 <= k <= game.max_per_terrain:
            raise PositionError(f"'placed' of {terr} is 0 to {game.max_per_terrain} (ATH-T8), not {k!r}")
        s.placed[b.terrains.index(terr)] = k
    s.placed_total = sum(s.placed)
    if s.placed_total > game.max_tiles:
        raise PositionError(f"{s.placed_total} tiles placed this turn; at most {game.max_tiles} (ATH-T8)")
    if s.placed_total and s.phase not in (PLACE, OVER):
        raise PositionError("tiles were placed this turn, so the phase is 'place'")
    unused = doc.get("unused", [None] * n)
    if (
        not isinstance(unused, list)
        or len(unused) != n
        or not all(u is None or (isinstance(u, int) and not isinstance(u, bool) and u >= 0) for u in unused)
    ):
        raise PositionError(f"'unused' lists {n} whole numbers or nulls")
    s.unused = list(unused)
    # ATH-E1, ATH-V1: a side finishes with the arrival that brings in its last monk; that arrival's
    # player is the finisher whose points the tie-break counts (ATH-E2)
    completed: list[int] = []
    count = [0] * game.num_sides
    for p in arrivals:
        side = game.side_of[p]
        count[side] += 1
        if count[side] == MONKS * len(game.members[side]):
            completed.append(p)
    finishers = doc.get("finishers", completed)
    if not isinstance(finishers, list) or not all(_whole(p) and 0 <= p < n for p in finishers):
        raise PositionError("'finishers' lists the players who brought in their side's last monk")
    if finishers != completed:
        raise PositionError(
            f"'finishers' is {finishers}, but by 'arrivals' the arrivals that completed a side were "
            f"those of players {completed} (ATH-E1, ATH-V1)"
        )
    s.finishers = list(finishers)
    final = doc.get("final_round", bool(finishers))
    if not isinstance(final, bool):
        raise PositionError("'final_round' is true or false")
    if final != bool(finishers):
        raise PositionError(
            "'final_round' is true exactly when a side has brought in all its monks (ATH-E1), "
            f"and 'arrivals' say {'one has' if finishers else 'none has'}"
        )
    s.final_round = final
    s.handicap_left = _int(doc, "handicap_left", 0, 0, 80)
    if s.phase == HANDICAP and s.handicap_left == 0:
        raise PositionError("in the handicap phase 'handicap_left' is at least 1")
    if s.phase != HANDICAP and s.handicap_left:
        raise PositionError("'handicap_left' is 0 outside the handicap phase")
    s._changed()
    if not s.path_rule_holds():
        cut = [names[v] for ms in s.monks for v in ms if s.distances()[v] < 0]
        raise PositionError(f"the monk on {cut[0]} has no open path to the summit (ATH-P1)")
    _check_reachable(s)
    return s


def _check_reachable(s: AthosState) -> None:
    """Refuse a position no game can reach, where the engine's legal_actions() and apply_action()
    could disagree or leave a player stuck (issue 16); the checks of the fields themselves are
    made while reading them."""
    game = s.game
    b = s.board
    names = b.names
    n = game.num_players
    seat, phase = s.seat, s.phase
    # ATH-T3: only the mover's monks share an ordinary field, and only while moving
    for f in range(b.n):
        others = sum(1 for p in range(n) if p != seat for v in s.monks[p] if v == f)
        if others > 1:
            raise PositionError(
                f"{names[f]} holds {others} monks of players not to move: their movement has ended, "
                "and then no ordinary field holds two monks (ATH-T3)"
            )
    # ATH-T1, ATH-T6: the points left are 6 plus this turn's arrival bonuses (this turn's arrivals
    # are some of the mover's last ones), less a step per arrival at least; end-move leaves none
    if phase not in (MOVE, HANDICAP) and s.points:
        raise PositionError(
            f"points are left only in the movement phase, not in phase '{PHASE_NAMES[phase]}'"
        )
    if phase == MOVE:
        most = points = MOVEMENT_POINTS
        i = len(s.arrivals)
        while i and s.arrivals[i - 1] == seat:
            i -= 1
            points += (BONUS[i] if i < len(BONUS) else 0) - 1
            most = max(most, points)
        if s.points > most:
            raise PositionError(
                f"{s.points} movement points: a turn has {MOVEMENT_POINTS} plus the bonuses of its "
                f"arrivals, each made with a step (ATH-T1, ATH-T6): at most {most} here"
            )
    if phase == RELOCATED:
        if not s.stones_left[seat]:
            raise PositionError(
                "phase 'relocated': the player to move has no Athos stone left to put (ATH-T7)"
            )
        if not any(s.tile[f] != NONE and s.stone[f] < 0 and not s.occ[f] for f in range(b.n)):
            raise PositionError(
                "phase 'relocated': a tile was just relocated, so some tile has no stone and no monk (ATH-T7)"
            )
    # ATH-T8: the tiles placed this turn are on the board
    for t, k in enumerate(s.placed):
        on_board = sum(1 for f in range(b.n) if s.tile[f] != NONE and s.tterr[f] == t)
        if k > on_board:
            raise PositionError(
                f"'placed': {k} {b.terrains[t]} tiles placed this turn, but {on_board} are on the board"
            )
    if s.finishers and seat < s.finishers[0]:
        raise PositionError(
            f"the final round began with the arrival of player {s.finishers[0]}'s last monk, so seat "
            f"{seat}, before it in the round, has had its turn (ATH-E1)"
        )
    # ATH-E2: a finisher's movement phase has ended (end-move wrote its points) unless it is still on
    if any(s.unused[p] is None and (p != seat or phase != MOVE) for p in s.finishers):
        raise PositionError("'unused' gives the points each finisher kept when its movement ended (ATH-E2)")
    if phase == OVER and (s.seat != n - 1 or not (s.finishers or s.round == game.round_limit)):
        raise PositionError(
            "phase 'over': the game ends with the last seat's turn (to_move "
            f"{n - 1}) of the round in which a side finished (ATH-E1) or of the round limit (ATH-E3)"
        )
    if phase == HANDICAP:
        if not game.handicap_tiles or seat != game.handicap_player:
            raise PositionError(
                "phase 'handicap': the options name no handicap, or another seat places it (ATH-V2)"
            )
        if s.handicap_left > game.handicap_tiles:
            raise PositionError(f"phase 'handicap': the handicap is {game.handicap_tiles} tiles (ATH-V2)")
        if not s._handicap_actions():
            raise PositionError("phase 'handicap': no free field can take a tile, so the handicap is over")

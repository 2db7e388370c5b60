"""What the AI and the adjudication know of an Archimedes position beyond the rules.

* :func:`hemmed_in` and :func:`can_arrive`: sound tests of what can never happen again (the
  state's ``settled_result`` and ``dead_position`` rest on them);
* :class:`GoalPlan`: per player, which goal cells can still be filled, and in what order;
* :func:`evaluate`: the heuristic value of a position (``ArchimedesState.evaluate``).

Sets of cells are int bit masks (bit ``i`` is cell ``i`` of the board file).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from palaestra.core.game import set_bits

if TYPE_CHECKING:
    from palaestra.games.archimedes.game import ArchimedesGame
    from palaestra.games.archimedes.rules import ArchimedesState

#: weights of the raw value of a player in :func:`evaluate`
PROGRESS, ARRIVED, MOBILITY = 0.6, 0.25, 0.15
#: the cost of a goal cell held by a cube of a player with no move, and by a cube unable to move
HELD, IDLE = 0.12, 0.08
#: the cost of each cube that can no longer arrive (and the value of each that can, once dead)
LOST = 0.4
#: once nobody can win, the weight of the raw value beside the cubes that can still arrive
DEAD_RAW = 0.25
#: legal moves per cube that count as full mobility
MOVES_PER_CUBE = 4.0
#: the ``entry`` tables kept per goal plan for sets of closed cells
_CLOSED_TABLES = 256


def blocked(cells: int, block_mask: tuple[int, ...]) -> int:
    """The cells (a mask) that no cube may enter while cubes stand on ``cells``: those cells and
    the cells next to them (ARC-M3); ``block_mask`` is the game's."""
    out = 0
    for c in set_bits(cells):
        out |= block_mask[c]
    return out


def flood(seeds: int, allowed: int, neighbours: tuple[tuple[int, ...], ...]) -> int:
    """The cells reached from the cells ``seeds`` (a mask of ``allowed`` cells) by steps to
    neighbouring ``allowed`` cells: the connected regions of ``allowed`` that hold the seeds."""
    region = seeds
    stack = set_bits(seeds)
    while stack:
        x = stack.pop()
        for m in neighbours[x]:
            if allowed >> m & 1 and not region >> m & 1:
                region |= 1 << m
                stack.append(m)
    return region


def hemmed_in(state: ArchimedesState) -> int:
    """Cells (a mask) of the cubes that have not arrived and can never move again.

    Arrived cubes never move (ARC-M5), and no cube may enter a cell next to another cube
    (ARC-M3): a cube whose every neighbouring cell is taken by, or touches, a cube that never
    moves is stuck for good, and so is a group of cubes that hem each other in (the largest
    such group: start from every cube, drop any that has a neighbouring cell free of the
    others, repeat). Whose turn it is and ARC-M7 do not matter: no later move frees them."""
    g = state.game
    block = g.block_mask
    nmask = g.board.neighbour_mask
    goal = g.goal_mask
    fixed = 0  # blocks of the arrived cubes
    candidates: list[int] = []
    for i, c in enumerate(state.cells):
        if goal[i // g.cubes_per_player] >> c & 1:
            fixed |= block[c]
        else:
            candidates.append(c)
    while candidates:
        k = len(candidates)
        after = [0] * (k + 1)  # after[i]: blocks of candidates[i:]
        for i in range(k - 1, -1, -1):
            after[i] = after[i + 1] | block[candidates[i]]
        keep: list[int] = []
        before = fixed
        for i, c in enumerate(candidates):
            if not nmask[c] & ~(before | after[i + 1]):
                keep.append(c)
            before |= block[c]
        if len(keep) == k:
            break
        candidates = keep
    return sum(1 << c for c in candidates)


def can_arrive(state: ArchimedesState) -> list[bool]:
    """Per player: whether one of its cubes might still arrive (ARC-M5), as far as the cells that
    no cube may ever enter again tell (a sound test: False is certain).

    A cube that never moves again (arrived, or :func:`hemmed_in`) keeps every cube out of its
    cell and the cells next to it for good (ARC-M3). Any other cube can only ever be in the
    connected region of the remaining cells that it touches now, moving or not (that region
    only shrinks as more cubes stop for good), so it can arrive only on a goal cell of its
    player in that region. Distances, other cubes that may move away and ARC-M7 are ignored:
    they can only forbid more."""
    return list(arrivals(state))


def arrivals(state: ArchimedesState) -> Iterator[bool]:
    """:func:`can_arrive` player by player, each worked out only when asked for (``any`` of it,
    the test of a settled game after every action, mostly stops at the first player)."""
    g = state.game
    stuck = hemmed_in(state)
    goal = g.goal_mask
    fixed = stuck  # the cells of the cubes that never move again
    for i, c in enumerate(state.cells):
        if goal[i // g.cubes_per_player] >> c & 1:
            fixed |= 1 << c
    allowed = g.board.all_mask & ~blocked(fixed, g.block_mask)
    nmask = g.board.neighbour_mask
    for p in range(g.num_players):
        seeds = 0  # the open cells next to the player's cubes that may still move
        for c in state.cube_cells(p):
            if not (goal[p] >> c & 1 or stuck >> c & 1):
                seeds |= nmask[c] & allowed
        yield reaches(seeds, allowed, g.board.neighbours, goal[p])


def reaches(seeds: int, allowed: int, neighbours: tuple[tuple[int, ...], ...], target: int) -> bool:
    """Whether :func:`flood` from ``seeds`` reaches a cell of ``target``; stops when it does."""
    if seeds & target:
        return True
    region = seeds
    stack = set_bits(seeds)
    while stack:
        x = stack.pop()
        for m in neighbours[x]:
            if allowed >> m & 1 and not region >> m & 1:
                if target >> m & 1:
                    return True
                region |= 1 << m
                stack.append(m)
    return False


class GoalPlan:
    """What :func:`evaluate` knows of one player's goal side (made once per game and player):
    for every set of filled goal cells (a cell mask), the most cubes that can still arrive and
    the goal cells that can be filled next without lowering that number (``table``;
    :meth:`entry` for the same with cells closed for good by cubes hemmed in); the steps from
    every cell to a set of goal cells (made on first use)."""

    def __init__(self, game: ArchimedesGame, player: int) -> None:
        board = game.board
        self.game = game
        self.goals = set_bits(game.goal_mask[player])
        self.board = board
        goal_distance = board.distances_to(game.goal_mask[player])
        #: the steps from the start side to the goal side: the most a cube has to go
        self.far = max(goal_distance[c] for c in set_bits(game.start_mask[player]))
        self._distances: dict[int, tuple[int, ...]] = {}
        self.table: dict[int, tuple[int, int]] = self._solve_all(0)
        #: ``entry`` tables for other closed cells, made on first use
        self._closed_tables: dict[int, dict[int, tuple[int, int]]] = {}

    def _enterable(self, filled: int, closed: int) -> int:
        """Goal cells a cube can still reach from the open board with ``filled`` held for good
        and the ``closed`` cells never to be entered."""
        neighbours = self.board.neighbours
        closed |= blocked(filled, self.game.block_mask)
        allowed = self.board.all_mask & ~closed
        # the largest region of cells a cube may cross (the open board)
        best, seen = 0, 0
        for c in range(self.board.size):
            if allowed >> c & 1 and not seen >> c & 1:
                region = flood(1 << c, allowed, neighbours)
                seen |= region
                if region.bit_count() > best.bit_count():
                    best = region
        return sum(
            1 << gc
            for gc in self.goals
            if not closed >> gc & 1 and any(best >> m & 1 for m in neighbours[gc])
        )

    def _solve_all(self, closed: int) -> dict[int, tuple[int, int]]:
        table: dict[int, tuple[int, int]] = {}

        def solve(filled: int) -> int:
            if filled in table:
                return table[filled][0]
            following = {gc: solve(filled | 1 << gc) for gc in set_bits(self._enterable(filled, closed))}
            cap = max(following.values(), default=filled.bit_count())
            good = sum(1 << gc for gc, v in following.items() if v == cap)
            table[filled] = (cap, good)
            return cap

        goals = self.goals
        for k in range(1 << len(goals)):
            solve(sum(1 << gc for i, gc in enumerate(goals) if k >> i & 1))
        return table

    def entry(self, filled: int, closed: int) -> tuple[int, int]:
        """``table[filled]`` when the ``closed`` cells can never be entered (cubes hemmed in)."""
        if not closed:
            return self.table[filled]
        table = self._closed_tables.get(closed)
        if table is None:
            if len(self._closed_tables) >= _CLOSED_TABLES:
                self._closed_tables.clear()
            table = self._closed_tables[closed] = self._solve_all(closed)
        return table[filled]

    def distances(self, targets: int) -> tuple[int, ...]:
        """Steps from every cell to the nearest cell of ``targets`` (ignoring cubes)."""
        dist = self._distances.get(targets)
        if dist is None:
            dist = self._distances[targets] = self.board.distances_to(targets)
        return dist


def goal_plans(game: ArchimedesGame) -> list[GoalPlan]:
    """The :class:`GoalPlan` of every player of ``game``, made on first use and kept on the game."""
    plans = game.goal_plans
    if plans is None:
        plans = game.goal_plans = [GoalPlan(game, p) for p in range(game.num_players)]
    return plans


def prospects(state: ArchimedesState, stuck: int) -> list[tuple[int, int, int]]:
    """Per player, with the hemmed-in cubes ``stuck``: its goal cells filled (a mask), the most
    cubes it can still have home (``cap``) and the goal cells to fill next (a mask)."""
    g = state.game
    cubes = g.cubes_per_player
    pos = state.cells
    plans = g.goal_plans or goal_plans(g)
    closed = blocked(stuck, g.block_mask)
    out = []
    for p in range(g.players):
        goal = g.goal_mask[p]
        filled = 0
        lost = 0
        for c in pos[cubes * p : cubes * (p + 1)]:
            if goal >> c & 1:
                filled |= 1 << c
            elif stuck >> c & 1:
                lost += 1
        cap, targets = plans[p].entry(filled, closed)
        out.append((filled, min(cap, g.cubes_per_player - lost), targets))
    return out


def dead_position(state: ArchimedesState) -> bool:
    """No player can bring all its cubes home any more (ARC-E1): see the state's method."""
    cubes = state.game.cubes_per_player
    return all(cap < cubes for _, cap, _ in prospects(state, hemmed_in(state)))


def _mobility(state: ArchimedesState, stuck: int) -> tuple[list[int], int, list[int]]:
    """Per player its number of legal moves now; the cells of the cubes that can move now (a
    mask); per player the cells its cubes take or touch if it has no move (else 0)."""
    g = state.game
    cubes = g.cubes_per_player
    pos = state.cells
    mover = state.current_player
    cached = state.cached_legal_actions()  # the mover's moves, when generated already
    counts: list[int] = []
    movable = 0
    waiting: list[int] = []
    for p in range(g.players):
        if p == mover and cached is not None:
            count = 0 if cached[0] == g.pass_action else len(cached)
            if count:
                for a in cached:
                    movable |= 1 << a // g.size  # the start cell of a move's id (moves.layout)
        else:
            count = 0
            for c, moves in state.cube_moves(p):
                count += len(moves)
                movable |= 1 << c
        counts.append(count)
        wait = 0
        if not count:
            home = g.goal_mask[p]
            for c in pos[cubes * p : cubes * (p + 1)]:
                if not home >> c & 1 and not stuck >> c & 1:
                    wait |= g.block_mask[c]
        waiting.append(wait)
    return counts, movable, waiting


def evaluate(state: ArchimedesState) -> list[float]:
    """Per player in [-1, 1]: its raw value minus the raw value of the other player (with three
    players: of the best other player), clamped (the state's ``evaluate`` documents the terms)."""
    g = state.game
    n = g.players
    cubes = g.cubes_per_player
    plans = g.goal_plans or goal_plans(g)
    occupied = state.occupied()
    pos = state.cells
    stuck = hemmed_in(state)
    counts, movable, waiting = _mobility(state, stuck)
    raw = []
    caps: list[int] = []
    for p, (filled, cap, targets) in enumerate(prospects(state, stuck)):
        plan = plans[p]
        goal = g.goal_mask[p]
        home = filled.bit_count()
        free_targets = targets & ~occupied
        dist = plan.distances(free_targets or targets or goal & ~filled or goal)
        far = plan.far
        to_go = 0
        for c in pos[cubes * p : cubes * (p + 1)]:
            if not goal >> c & 1:
                d = dist[c]
                to_go += d if d < far else far
        progress = 1.0 - to_go / (cubes * far)
        mobility = min(1.0, counts[p] / (MOVES_PER_CUBE * (cubes - home)))
        # goal cells taken or touched by the cubes of another player who has no move now
        others_waiting = 0
        for q in range(n):
            if q != p:
                others_waiting |= waiting[q]
        held = (goal & ~filled & others_waiting).bit_count()
        idle = (goal & occupied & ~filled & ~movable & ~stuck).bit_count()
        raw.append(
            PROGRESS * progress + ARRIVED * home / cubes + MOBILITY * mobility - HELD * held - IDLE * idle
        )
        caps.append(cap)
    dead = max(caps) < cubes
    state.note_dead_position(dead)
    if dead:
        # nobody can win any more: the move limit will rank by cubes home, and each player
        # can bring home all it still can in the plies left; what counts is the caps
        value = [LOST * cap + DEAD_RAW * r for cap, r in zip(caps, raw, strict=True)]
    else:
        value = [r - LOST * (cubes - cap) for cap, r in zip(caps, raw, strict=True)]
    if n == 2:
        diff = max(-1.0, min(1.0, value[0] - value[1]))
        return [diff, -diff]
    return [max(-1.0, min(1.0, value[p] - max(value[q] for q in range(n) if q != p))) for p in range(n)]

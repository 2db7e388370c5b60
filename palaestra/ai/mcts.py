"""Monte Carlo tree search (UCT) over the core protocol, for every game.

* **Players.** max^n: every node keeps the sum of the returns of *every* player over the
  simulations through it, and a decision node picks the child that is best for its own mover
  (``returns()`` / ``evaluate()`` are per-player, so teams and 3-4 players need nothing special).
* **Chance.** Chance nodes are explicit tree nodes; a simulation samples their outcome with the
  probabilities of ``chance_outcomes()``, so the statistics of a chance node are an average
  weighted by probability.
* **Budget.** ``iterations`` (simulations per worker) and/or ``time`` (seconds per move); the
  search stops at whichever comes first. Iteration budgets are reproducible for a seed.
  ``turn_time`` (seconds) bounds a whole turn made of several actions of the same player:
  a call that directly follows the agent's own action for the same player (the history is the
  last one plus that action) gets what is left of the turn's time, at least 5% of it.
  ``clock=cpu`` counts these seconds as CPU time of the searching thread (``time.thread_time``),
  for comparisons at equal CPU time on a shared machine; the default ``wall`` counts real time.
* **Simulations.** From the new leaf, a rollout plays random actions (with probability
  ``epsilon`` the greedy one-ply action instead) for at most ``rollout_depth`` actions, then scores
  the state with ``evaluate()`` (``rollout_depth=None``: play to the end; ``0``: evaluate the leaf).
  With ``rollout=playout`` the leaf is judged instead by the game's playout to the end
  (``State.playout_scores``, which a game may draw at once), each player's value the graded margin
  ``tanh((own - best other score) / margin_scale)`` (:func:`margin_values`), mixed with the sign
  of the result itself by ``win_share``. ``margin_spread=K`` sets the scale of each search
  instead: K times the standard deviation of the mover's margin over :data:`PILOT_PLAYOUTS`
  playouts from the root (at least :data:`MIN_MARGIN_SCALE` points), so the value keeps one shape
  over a whole game: early, when the end is wide open, a margin of a few points is worth little;
  late, when the playouts end a few points apart, the same points decide the game and the value
  is close to the result itself. A reused subtree keeps the values it was given at the scale of
  the search before (the spread changes little from one move to the next). ``terminal=result``
  values a leaf where the game is over by its result (``returns()``, as a random rollout's end
  is) instead of the graded margin of its scores: nothing is uncertain there any more, and the
  result is what is played for.
* **Searched actions.** The tree tries ``State.search_actions()``: the legal actions less those
  that only reach the same positions in another order (two tiles of one turn placed the other way
  round).
* **Wide nodes.** ``widen=C`` turns on progressive widening: a decision node visited ``n`` times
  has at most ``ceil(C * (n + 1) ** widen_alpha)`` children. Actions enter in the order given by
  ``order``: ``random`` (shuffled with the seed) or ``eval`` (actions judged by one-ply
  ``evaluate`` enter first, best first: all of them at the root, a random sample of ``eval_cap``
  at other nodes; the others follow at random).
  This keeps games whose turns are many small actions from spreading the tree thin.
* **Contempt.** ``contempt=X`` lowers the searching player's value of a simulation that ends in
  a dead position (``State.dead_position()``: nobody can win any more, only the move limit will
  rank the players) by X, the other players' values unchanged: a player that expects to be the
  stronger one does not steer into a drawn-out game when it judges itself about level or a
  little behind.
* **Tree reuse.** Between moves the agent keeps the subtree reached by the actions played since
  its last search (checked against the history and the position itself).
* **Root parallelism.** ``workers=N`` forks N-1 processes that search copies of the tree with
  their own seeds; the visit counts and values of the root's children are added up.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from time import perf_counter, thread_time
from typing import Any, ClassVar

from palaestra.ai.base import Agent, game_heuristic, register_agent
from palaestra.ai.greedy import action_values
from palaestra.core.errors import OptionError
from palaestra.core.game import CHANCE, TERMINAL, Game, State, is_int, sample_outcome


class Node:
    """One node of the search tree: the state reached by the actions from the root."""

    __slots__ = ("children", "outcomes", "player", "untried", "values", "visits")

    def __init__(self, player: int, num_players: int) -> None:
        self.player = player
        self.children: dict[int, Node] = {}
        self.untried: list[int] | None = None
        self.outcomes: list[tuple[int, float]] | None = None
        self.visits = 0
        self.values = [0.0] * num_players

    def mean(self, player: int) -> float:
        return self.values[player] / self.visits if self.visits else 0.0

    def size(self) -> int:
        """Number of nodes of this subtree."""
        count = 0
        stack = [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children.values())
        return count


@dataclass
class SearchStats:
    """What the last search did."""

    iterations: int = 0
    reused_visits: int = 0
    seconds: float = 0.0
    workers: int = 1
    budget: float | None = None  # the time budget of the search (seconds), None: iterations only
    margin_scale: float | None = None  # the scale of the playout margins (rollout=playout)


RootStats = dict[int, tuple[int, float]]


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _whole_at_least(low: int) -> Callable[[object], bool]:
    return lambda v: is_int(v) and v >= low


def _seconds(v: object) -> bool:
    return v is None or (_number(v) and float(v) > 0)  # type: ignore[arg-type]


def _between(low: float, high: float) -> Callable[[object], bool]:
    return lambda v: _number(v) and low <= float(v) <= high  # type: ignore[arg-type]


#: parameter -> (the check of a given value, what it must be: for the message)
_CHECKS: dict[str, tuple[Callable[[object], bool], str]] = {
    "iterations": (lambda v: v is None or _whole_at_least(1)(v), "a whole number of at least 1"),
    "time": (_seconds, "a number of seconds above 0"),
    "turn_time": (_seconds, "a number of seconds above 0"),
    "c": (_number, "a number"),
    "rollout_depth": (lambda v: v is None or _whole_at_least(0)(v), "0 or more (or none)"),
    "epsilon": (_between(0.0, 1.0), "between 0 and 1"),
    "widen": (lambda v: v is None or (_number(v) and float(v) > 0), "above 0 (or none)"),  # type: ignore[arg-type]
    "widen_alpha": (_number, "a number"),
    "order": (lambda v: v in ("random", "eval"), "random or eval"),
    "eval_cap": (_whole_at_least(1), "a whole number of at least 1"),
    "workers": (_whole_at_least(1), "a whole number of at least 1"),
    "reuse": (lambda v: isinstance(v, bool) or v in (0, 1), "true or false"),
    "contempt": (_between(0.0, 2.0), "between 0 and 2"),
    "clock": (lambda v: v in ("wall", "cpu"), "wall or cpu"),
    "heuristic": (lambda v: v is None or isinstance(v, str), "the name of a heuristic of the game"),
    "rollout": (lambda v: v in ("random", "playout"), "random or playout"),
    "margin_scale": (lambda v: _number(v) and float(v) > 0, "a number above 0"),  # type: ignore[arg-type]
    "win_share": (_between(0.0, 1.0), "between 0 and 1"),
    "margin_spread": (_between(0.0, 10.0), "between 0 and 10 (0: the fixed margin_scale)"),
    "terminal": (lambda v: v in ("margin", "result"), "margin or result"),
}
_FLOATS = (
    "time",
    "turn_time",
    "c",
    "epsilon",
    "widen",
    "widen_alpha",
    "contempt",
    "margin_scale",
    "win_share",
    "margin_spread",
)


@dataclass(frozen=True)
class MCTSSettings:
    """The parameters of an :class:`MCTSAgent` (the module docstring says what each does).

    Without ``iterations``, ``time`` or ``turn_time`` a search makes 1000 iterations.
    :meth:`parse` is the one place they are checked."""

    iterations: int | None = None
    time: float | None = None
    c: float = 1.4
    rollout_depth: int | None = None
    epsilon: float = 0.0
    widen: float | None = None
    widen_alpha: float = 0.5
    order: str = "random"
    eval_cap: int = 24
    workers: int = 1
    reuse: bool = True
    turn_time: float | None = None
    contempt: float = 0.0
    clock: str = "wall"
    heuristic: str | None = None
    rollout: str = "random"
    margin_scale: float = 6.0
    win_share: float = 0.0
    margin_spread: float = 0.0
    terminal: str = "margin"

    @classmethod
    def parse(cls, params: Mapping[str, object]) -> MCTSSettings:
        """Settings from parameters (an agent spec's, or keywords); a parameter that is unknown
        or out of range raises :class:`OptionError` naming it and what it must be."""
        values = dict(params)
        for name, value in values.items():
            if name not in _CHECKS:
                raise OptionError(f"mcts has no parameter {name!r} (parameters: {', '.join(_CHECKS)})")
            check, wanted = _CHECKS[name]
            if not check(value):
                raise OptionError(f"mcts: {name} is {wanted}, not {value!r}")
        for name in _FLOATS:
            if values.get(name) is not None:
                values[name] = float(values[name])  # type: ignore[arg-type]
        if "reuse" in values:
            values["reuse"] = bool(values["reuse"])
        if all(values.get(k) is None for k in ("iterations", "time", "turn_time")):
            values["iterations"] = 1000
        return cls(**values)  # type: ignore[arg-type]


class MCTSAgent(Agent):
    """UCT with chance nodes, max^n values, progressive widening, tree reuse and root workers."""

    name = "mcts"
    #: the parameters it takes (the levels pass on only these): the fields of :class:`MCTSSettings`
    PARAMETERS: ClassVar[frozenset[str]] = frozenset(_CHECKS)

    def __init__(self, seed: int | None = None, settings: MCTSSettings | None = None, **params: Any) -> None:
        """``MCTSAgent(seed, iterations=500, c=1.2)``: the parameters of :class:`MCTSSettings`
        (checked by its one parser), or ``settings`` already made."""
        super().__init__(seed)
        s = settings if settings is not None else MCTSSettings.parse(params)
        self.settings = s
        self.iterations, self.time, self.turn_time, self.clock = s.iterations, s.time, s.turn_time, s.clock
        self.c, self.rollout_depth, self.epsilon, self.contempt = s.c, s.rollout_depth, s.epsilon, s.contempt
        self.widen, self.widen_alpha, self.order, self.eval_cap = s.widen, s.widen_alpha, s.order, s.eval_cap
        self.workers, self.reuse = s.workers, s.reuse
        #: the game's named heuristic (``game_heuristic``) instead of ``State.evaluate``
        self.heuristic = s.heuristic
        #: the leaf value: random actions then ``evaluate`` (``random``), or the game's playout
        self.playout, self.margin_scale, self.win_share = s.rollout == "playout", s.margin_scale, s.win_share
        self.margin_spread, self.terminal_result = s.margin_spread, s.terminal == "result"
        self._scale = s.margin_scale  # the margin scale of the search under way
        self._value: Callable[[State], list[float]] = _evaluate
        self._value_for: Game | None = None
        #: what ``time`` and ``turn_time`` count: wall seconds, or CPU seconds of the searching thread
        self._now = thread_time if s.clock == "cpu" else perf_counter
        self._budget = self.time if self.turn_time is None else min(self.time or math.inf, self.turn_time)
        self._turn_next: list[int] | None = None  # the history right after our last action
        self._turn_player = -1
        self._turn_spent = 0.0
        self._root: Node | None = None
        self._root_state: State | None = None
        self.last = SearchStats()

    # --- the agent protocol ------------------------------------------------------------------
    def reset(self) -> None:
        super().reset()
        self._root = None
        self._root_state = None
        self._turn_next = None
        self.last = SearchStats()

    def select_action(self, state: State) -> int:
        start = self._now()
        player = state.current_player
        spent = 0.0
        if self.turn_time is not None:
            if (
                self._turn_next is not None
                and player == self._turn_player
                and state.history == self._turn_next
            ):
                spent = self._turn_spent  # the same turn goes on
            self._budget = min(self.time or math.inf, max(self.turn_time - spent, 0.05 * self.turn_time))
        actions = state.search_actions()
        action = actions[0] if len(actions) == 1 else self._ranked(self._search(state), player)[0][0]
        if self.turn_time is not None:
            self._turn_next = [*state.history, action]
            self._turn_player = player
            self._turn_spent = spent + self._now() - start
        return action

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        """The most visited actions with their mean value for the mover (in [-1, 1])."""
        if self.turn_time is not None:
            self._budget = min(self.time or math.inf, self.turn_time)
        ranked = self._ranked(self._search(state), state.current_player)
        return [(a, value) for a, _visits, value in ranked[:top]]

    @property
    def root(self) -> Node | None:
        """The root of the last search (for inspection and tests)."""
        return self._root

    # --- search ------------------------------------------------------------------------------
    @staticmethod
    def _ranked(stats: RootStats, player: int) -> list[tuple[int, int, float]]:
        rows = [(a, n, (w / n if n else 0.0)) for a, (n, w) in stats.items()]
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return rows

    def _search(self, state: State) -> RootStats:
        if state.is_terminal() or state.is_chance_node():
            raise OptionError("the search needs a state where a player is to move")
        start = self._now()  # the time budget counts from here
        root = self._prepare(state)
        reused = root.visits
        mover = state.current_player
        workers = self.workers
        forked: list[tuple[Any, Connection]] = []
        if workers > 1:
            base = _root_stats(root, mover)
            seeds = [self.rng.randrange(2**62) for _ in range(workers - 1)]
            if "fork" in mp.get_all_start_methods():
                ctx = mp.get_context("fork")
                for worker_seed in seeds:
                    receiver, sender = ctx.Pipe(duplex=False)
                    proc = ctx.Process(
                        target=self._worker, args=(root, state, worker_seed, sender), daemon=True
                    )
                    proc.start()
                    sender.close()
                    forked.append((proc, receiver))
            extra: list[RootStats] = []
        iterations = self._run(root, state, start)
        stats = _root_stats(root, mover)
        if workers > 1:
            for proc, receiver in forked:
                try:
                    extra.append(receiver.recv())
                except EOFError:
                    raise RuntimeError("an MCTS worker process died") from None
                finally:
                    receiver.close()
                    proc.join()
            if not forked:  # no fork on this platform: search the seeds one after the other
                saved = self.rng
                for worker_seed in seeds:
                    import random

                    self.rng = random.Random(worker_seed)
                    copy = _copy_tree(root)
                    self._run(copy, state, self._now())
                    extra.append(_root_stats(copy, mover))
                self.rng = saved
            for worker_stats in extra:
                for a, (n, w) in worker_stats.items():
                    n0, w0 = base.get(a, (0, 0.0))
                    n1, w1 = stats.get(a, (0, 0.0))
                    stats[a] = (n1 + n - n0, w1 + w - w0)
        scale = self._scale if self.playout else None
        self.last = SearchStats(iterations, reused, self._now() - start, workers, self._budget, scale)
        return stats

    def _prepare(self, state: State) -> Node:
        """Make ready to search ``state``: the game's heuristic, the root (reused or new, its
        untried actions judged for ``order=eval``) and the playouts' margin scale."""
        if self.heuristic is not None and self._value_for is not state.game:
            self._value = game_heuristic(state.game, self.heuristic)
            self._value_for = state.game
        root = self._root_for(state)
        if self.order == "eval" and root.untried and len(root.untried) > 1:
            # a reused root was judged as an inner node (a sample): judge all its untried actions
            root.untried = self._judged(state, root.untried)
        if self.playout:
            self._scale = self._margin_scale(state) if self.margin_spread else self.margin_scale
        return root

    def _margin_scale(self, state: State) -> float:
        """``margin_spread`` times the standard deviation of the mover's playout margin from
        ``state`` (:data:`PILOT_PLAYOUTS` playouts), at least :data:`MIN_MARGIN_SCALE`."""
        mover = state.current_player
        margins = [margin(state.playout_scores(self.rng), mover) for _ in range(PILOT_PLAYOUTS)]
        return max(MIN_MARGIN_SCALE, self.margin_spread * statistics.pstdev(margins))

    def _worker(self, root: Node, state: State, seed: int, sender: Connection) -> None:
        import random

        self.rng = random.Random(seed)
        self._run(root, state, self._now())
        sender.send(_root_stats(root, state.current_player))
        sender.close()

    def _run(self, root: Node, state: State, start: float) -> int:
        limit = self.iterations
        deadline = start + self._budget if self._budget is not None else None
        done = 0
        now = self._now
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and now() >= deadline:
                break
            self._iterate(root, state)
            done += 1
        return done

    def _root_for(self, state: State) -> Node:
        """The reused subtree for ``state`` if the last search's tree leads to it, else a new root."""
        root = None
        old = self._root_state
        if self.reuse and self._root is not None and old is not None and state.game == old.game:
            h_old, h_new = old.history, state.history
            if len(h_new) >= len(h_old) and h_new[: len(h_old)] == h_old:
                node: Node | None = self._root
                for a in h_new[len(h_old) :]:
                    assert node is not None
                    node = node.children.get(a)
                    if node is None:
                        break
                if node is not None and node.player == state.current_player:
                    replay = old.clone()
                    for a in h_new[len(h_old) :]:
                        replay.apply_action(a)
                    if replay.to_json() == state.to_json():
                        root = node
        if root is None:
            root = Node(state.current_player, state.game.num_players)
        self._root = root
        self._root_state = state.clone()
        return root

    def _iterate(self, root: Node, root_state: State) -> None:
        state = root_state.clone()
        rng = self.rng
        node = root
        path = [root]
        num_players = len(root.values)
        while node.player >= 0 or node.player == CHANCE:
            if node.player == CHANCE:
                if node.outcomes is None:
                    node.outcomes = state.chance_outcomes()
                a = sample_outcome(node.outcomes, rng)
                state.apply_legal(a)
                child = node.children.get(a)
                if child is None:
                    child = Node(state.current_player, num_players)
                    node.children[a] = child
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = self._expansion_order(state, everything=node is root)
            if node.untried and (
                self.widen is None
                or len(node.children) < math.ceil(self.widen * (node.visits + 1) ** self.widen_alpha)
            ):
                a = node.untried.pop()
                state.apply_legal(a)
                child = Node(state.current_player, num_players)
                node.children[a] = child
                path.append(child)
                break
            if not node.children:  # a player to move without actions: treat as a leaf
                break
            p = node.player
            explore = self.c * math.sqrt(math.log(node.visits))
            best_value = -math.inf
            best_action = -1
            best_child = node
            inverse_roots = (
                _INVERSE_ROOTS if node.visits < len(_INVERSE_ROOTS) else _inverse_roots(node.visits)
            )
            for a, ch in node.children.items():
                visits = ch.visits
                value = ch.values[p] / visits + explore * inverse_roots[visits]
                if value > best_value:
                    best_value, best_action, best_child = value, a, ch
            state.apply_legal(best_action)
            node = best_child
            path.append(node)
        result = self._rollout(state)
        if self.contempt and root.player >= 0 and state.dead_position():
            result = list(result)
            result[root.player] -= self.contempt
        for nd in path:
            nd.visits += 1
            v = nd.values
            for i in range(num_players):
                v[i] += result[i]

    def _expansion_order(self, state: State, everything: bool = False) -> list[int]:
        """The legal actions in the reverse of the order they enter the tree (``pop()`` takes next).

        With ``order=eval`` the root's actions are all judged (``everything``), other nodes' a
        random sample of ``eval_cap``."""
        actions = state.search_actions()
        self.rng.shuffle(actions)  # random order, and random among equal values below
        if self.order == "eval" and len(actions) > 1:
            # judge at most eval_cap actions (a random sample); they enter first, best first
            cap = len(actions) if everything else self.eval_cap
            rest = actions[:-cap] if len(actions) > cap else []
            actions = rest + self._judged(state, actions[-cap:])
        return actions

    def _judged(self, state: State, actions: list[int]) -> list[int]:
        """``actions`` sorted by the mover's one-ply ``evaluate`` (best last; stable for ties)."""
        player = state.current_player
        values = {}
        value = self._value
        for a in actions:
            child = state.clone()
            child.apply_legal(a)
            values[a] = value(child)[player] if not child.is_terminal() else child.returns()[player]
        return sorted(actions, key=lambda a: values[a])

    def _rollout(self, state: State) -> list[float]:
        if self.playout:
            if self.terminal_result and state.is_terminal():
                return state.returns()
            return margin_values(state.playout_scores(self.rng), self._scale, self.win_share)
        rng = self.rng
        randrange = rng.randrange
        limit = self.rollout_depth
        epsilon = self.epsilon
        depth = 0
        while True:
            player = state.current_player
            if player == TERMINAL:
                return state.returns()
            if limit is not None and depth >= limit:
                return _clamped(self._value(state))
            if player == CHANCE:
                a = sample_outcome(state.chance_outcomes(), rng)
            elif epsilon > 0.0 and rng.random() < epsilon:
                values = action_values(state, chance_depth=0)
                best = max(v for _, v in values)
                a = rng.choice([x for x, v in values if v == best])
            else:
                actions = state.legal_actions()
                a = actions[randrange(len(actions))]
            state.apply_legal(a)
            depth += 1


#: the playouts from the root that measure the spread of its margins (``margin_spread``)
PILOT_PLAYOUTS = 64
#: the least margin scale ``margin_spread`` sets (points): near the end, where the playouts all end
#: alike, a margin of one point is worth tanh(2) = 0.96, nearly the result itself
MIN_MARGIN_SCALE = 0.5

#: ``1 / sqrt(n)`` for the visit counts of most searches (UCB's exploration term, looked up)
_INVERSE_ROOTS = [0.0] + [1.0 / math.sqrt(n) for n in range(1, 1 << 16)]


def _inverse_roots(visits: int) -> list[float]:
    """The table of ``1 / sqrt(n)`` extended past ``visits`` (searches of over 65,535 visits)."""
    start = len(_INVERSE_ROOTS)
    _INVERSE_ROOTS.extend(1.0 / math.sqrt(n) for n in range(start, 2 * visits + 1))
    return _INVERSE_ROOTS


def margin_values(scores: list[float], scale: float, win_share: float = 0.0) -> list[float]:
    """Each player's value of end scores, in [-1, 1]: ``win_share`` of the result's sign (won 1,
    drawn 0, lost -1) plus the rest of ``tanh((own score - best other score) / scale)``, the sign
    graded by the margin (``scale`` points give 0.76). A player alone is measured against 0."""
    values = []
    for i in range(len(scores)):
        d = margin(scores, i)
        values.append(win_share * ((d > 0) - (d < 0)) + (1.0 - win_share) * math.tanh(d / scale))
    return values


def margin(scores: list[float], player: int) -> float:
    """``player``'s score less the best score of the others (0 for the others of a player alone)."""
    return scores[player] - max((x for j, x in enumerate(scores) if j != player), default=0.0)


def _evaluate(state: State) -> list[float]:
    return state.evaluate()


def _clamped(values: list[float]) -> list[float]:
    return [min(1.0, max(-1.0, float(v))) for v in values]


def _root_stats(root: Node, player: int) -> RootStats:
    return {a: (ch.visits, ch.values[player]) for a, ch in root.children.items()}


def _copy_tree(node: Node) -> Node:
    copy = Node(node.player, len(node.values))
    copy.visits = node.visits
    copy.values = list(node.values)
    copy.untried = list(node.untried) if node.untried is not None else None
    copy.outcomes = node.outcomes
    copy.children = {a: _copy_tree(ch) for a, ch in node.children.items()}
    return copy


register_agent("mcts", MCTSAgent)

"""Monte Carlo tree search (UCT) over the core protocol, for every game, made of injected parts.

As in OpenSpiel's ``mcts.py``, the search is given its parts: an *evaluator* that says what a new
leaf is worth (:mod:`palaestra.ai.evaluators`: random rollouts, the static value, the game's
playout), a *selection policy* that picks the child to follow at a node of the tree
(:class:`UCB1`) and an *expansion* that says which untried actions enter the tree and when
(:class:`Expansion`: the order, progressive widening). :class:`MCTSSettings` is the one place
where an agent spec's parameters (``mcts:iterations=300,rollout_depth=0,c=0.02``) are checked and
made into those parts; ``MCTSAgent(seed, evaluator=..., selection=...)`` takes parts made
elsewhere.

* **Players.** max^n: every node keeps the sum of the returns of *every* player over the
  simulations through it, and a decision node picks the child that is best for its own mover
  (``returns()`` / ``evaluate()`` are per-player, so teams and 3-4 players need nothing special).
* **Chance.** Chance nodes are explicit tree nodes; a simulation samples their outcome with the
  probabilities of ``chance_outcomes()``, so the statistics of a chance node are an average
  weighted by probability.
* **Budget.** ``iterations`` (simulations per worker) and/or ``time`` (seconds per move); the
  search stops at whichever comes first. Iteration budgets are reproducible for a seed.
  ``clock=cpu`` counts these seconds as CPU time of the searching thread (``time.thread_time``),
  for comparisons at equal CPU time on a shared machine; the default ``wall`` counts real time.
* **Leaves** (the evaluator). ``rollout=random`` (the default): random actions (with probability
  ``epsilon`` the greedy one-ply one) for at most ``rollout_depth`` actions, then the static value
  (``evaluate()``, or the game's ``heuristic``); ``rollout_depth=0`` judges the leaf itself.
  ``rollout=playout``: the game's playout to the end valued by its margin at ``margin_scale``
  points, a finished game by its result with ``terminal=result``. ``contempt=X`` lowers the
  searching player's value of a leaf in a dead position by X.
* **Searched actions.** The tree tries ``State.search_actions()``: the legal actions less those
  that only reach the same positions in another order (two tiles of one turn placed the other way
  round).
* **Wide nodes** (the expansion). ``widen=C`` turns on progressive widening: a decision node
  visited ``n`` times has at most ``ceil(C * (n + 1) ** widen_alpha)`` children. Actions enter in
  the order given by ``order``: ``random`` (shuffled with the seed) or ``eval`` (actions judged by
  their one-ply static value enter first, best first: all of them at the root, a random sample of
  ``eval_cap`` at other nodes; the others follow at random).
* **Tree reuse.** Between moves the agent keeps the subtree reached by the actions played since
  its last search (checked against the history and the position itself).
* **Root parallelism.** ``workers=N`` forks N-1 processes that search copies of the tree with
  their own seeds; the visit counts and values of the root's children are added up.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from time import perf_counter, thread_time
from typing import Any, ClassVar, Protocol

from palaestra.ai.base import Agent, register_agent
from palaestra.ai.evaluators import (
    Contempt,
    Evaluator,
    HeuristicEvaluator,
    PlayoutEvaluator,
    RolloutEvaluator,
    StaticValue,
)
from palaestra.core.errors import OptionError
from palaestra.core.game import CHANCE, State, is_int, sample_outcome


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


RootStats = dict[int, tuple[int, float]]


# --- the selection policy and the expansion --------------------------------------------------
class SelectionPolicy(Protocol):
    """Picks the child to follow at a decision node whose actions have all entered the tree (or
    that may take no more for now); the node has children and at least one visit."""

    def choose(self, node: Node) -> tuple[int, Node]: ...


@dataclass(frozen=True)
class UCB1:
    """UCB1 for the node's own mover ``p``: ``Q_p(child) + c * sqrt(ln N(node) / N(child))``,
    with ``Q_p`` the child's mean value for ``p`` in [-1, 1] (max^n); the first best in the
    children's order on ties."""

    c: float = 1.4

    def choose(self, node: Node) -> tuple[int, Node]:
        p = node.player
        visits = node.visits
        explore = self.c * math.sqrt(math.log(visits))
        inverse_roots = _INVERSE_ROOTS if visits < len(_INVERSE_ROOTS) else _inverse_roots(visits)
        best_value = -math.inf
        best_action = -1
        best_child = node
        for a, ch in node.children.items():
            n = ch.visits
            value = ch.values[p] / n + explore * inverse_roots[n]
            if value > best_value:
                best_value, best_action, best_child = value, a, ch
        return best_action, best_child


@dataclass(frozen=True)
class Expansion:
    """Which untried actions of a decision node enter the tree, and when.

    ``widen``: progressive widening, a node visited ``n`` times has at most
    ``ceil(widen * (n + 1) ** alpha)`` children (``None``: every action enters before UCB
    chooses). ``judge``: the actions judged by their one-ply static value (``value``) enter
    first, best first: all of the root's, a random sample of ``cap`` at other nodes (``None``:
    in random order)."""

    widen: float | None = None
    alpha: float = 0.5
    judge: StaticValue | None = None
    cap: int = 24

    def admits(self, node: Node) -> bool:
        """Whether ``node`` may take another child now."""
        return self.widen is None or len(node.children) < math.ceil(
            self.widen * (node.visits + 1) ** self.alpha
        )

    def order(self, state: State, rng: random.Random, everything: bool = False) -> list[int]:
        """The actions to search in the reverse of the order they enter (``pop()`` takes next);
        ``everything``: judge them all (the root)."""
        actions = state.search_actions()
        rng.shuffle(actions)  # random order, and random among equal values below
        if self.judge is not None and len(actions) > 1:
            cap = len(actions) if everything else self.cap
            rest = actions[:-cap] if len(actions) > cap else []
            actions = rest + self.judged(state, actions[-cap:])
        return actions

    def judged(self, state: State, actions: list[int]) -> list[int]:
        """``actions`` sorted by the mover's one-ply static value (best last; stable for ties)."""
        assert self.judge is not None
        player = state.current_player
        values = {}
        value = self.judge.fn
        for a in actions:
            child = state.clone()
            child.apply_legal(a)
            values[a] = value(child)[player] if not child.is_terminal() else child.returns()[player]
        return sorted(actions, key=lambda a: values[a])

    def prepare(self, root: Node, state: State) -> None:
        """Before a search: a reused root was judged as an inner node (a sample): judge all of
        its untried actions."""
        if self.judge is not None:
            self.judge.prepare(state.game)
            if root.untried and len(root.untried) > 1:
                root.untried = self.judged(state, root.untried)


# --- the settings ----------------------------------------------------------------------------
def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _whole_at_least(low: int) -> Callable[[object], bool]:
    return lambda v: is_int(v) and v >= low


def _between(low: float, high: float) -> Callable[[object], bool]:
    return lambda v: _number(v) and low <= float(v) <= high  # type: ignore[arg-type]


#: parameter -> (the check of a given value, what it must be: for the message)
_CHECKS: dict[str, tuple[Callable[[object], bool], str]] = {
    "iterations": (lambda v: v is None or _whole_at_least(1)(v), "a whole number of at least 1"),
    "time": (lambda v: v is None or (_number(v) and float(v) > 0), "a number of seconds above 0"),  # type: ignore[arg-type]
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
    "terminal": (lambda v: v in ("margin", "result"), "margin or result"),
}
_FLOATS = ("time", "c", "epsilon", "widen", "widen_alpha", "contempt", "margin_scale")
#: parameters removed (issue 32): no level used them and they measured no gain (docs/ai.md)
_REMOVED = {
    "margin_spread": "a margin scale from the spread of the root's playouts",
    "win_share": "a share of the result's sign mixed into the playout's margin",
    "turn_time": "a time budget shared by the actions of one turn",
}


@dataclass(frozen=True)
class MCTSSettings:
    """The parameters of an :class:`MCTSAgent` (the module docstring says what each does).

    Without ``iterations`` or ``time`` a search makes 1000 iterations. :meth:`parse` is the one
    place they are checked; :meth:`evaluator`, :meth:`selection` and :meth:`expansion` make the
    search's parts from them."""

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
    contempt: float = 0.0
    clock: str = "wall"
    heuristic: str | None = None
    rollout: str = "random"
    margin_scale: float = 6.0
    terminal: str = "margin"

    @classmethod
    def parse(cls, params: Mapping[str, object]) -> MCTSSettings:
        """Settings from parameters (an agent spec's, or keywords); a parameter that is unknown
        or out of range raises :class:`OptionError` naming it and what it must be."""
        values = dict(params)
        for name, value in values.items():
            if name in _REMOVED:
                raise OptionError(
                    f"mcts: {name} ({_REMOVED[name]}) was removed: it measured no gain (docs/ai.md)"
                )
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
        if all(values.get(k) is None for k in ("iterations", "time")):
            values["iterations"] = 1000
        return cls(**values)  # type: ignore[arg-type]

    def evaluator(self, value: StaticValue | None = None) -> Evaluator:
        """The leaf evaluator: the game's playout (``rollout=playout``), the static value
        (``rollout_depth=0``) or random rollouts; with ``contempt`` wrapped in :class:`Contempt`."""
        value = value if value is not None else StaticValue(self.heuristic)
        inner: Evaluator
        if self.rollout == "playout":
            inner = PlayoutEvaluator(self.margin_scale, terminal_result=self.terminal == "result")
        elif self.rollout_depth == 0:
            inner = HeuristicEvaluator(value)
        else:
            inner = RolloutEvaluator(value, self.rollout_depth, self.epsilon)
        return Contempt(inner, self.contempt) if self.contempt else inner

    def selection(self) -> SelectionPolicy:
        return UCB1(self.c)

    def expansion(self, value: StaticValue | None = None) -> Expansion:
        judge = (
            (value if value is not None else StaticValue(self.heuristic)) if self.order == "eval" else None
        )
        return Expansion(self.widen, self.widen_alpha, judge, self.eval_cap)


# --- the agent -------------------------------------------------------------------------------
class MCTSAgent(Agent):
    """UCT with chance nodes, max^n values, tree reuse and root workers, searching with the
    parts it is given (an :class:`~palaestra.ai.evaluators.Evaluator`, a selection policy and an
    :class:`Expansion`), by default those its settings make."""

    name = "mcts"
    #: the parameters it takes (the levels pass on only these): the fields of :class:`MCTSSettings`
    PARAMETERS: ClassVar[frozenset[str]] = frozenset(_CHECKS)

    def __init__(
        self,
        seed: int | None = None,
        settings: MCTSSettings | None = None,
        *,
        evaluator: Evaluator | None = None,
        selection: SelectionPolicy | None = None,
        expansion: Expansion | None = None,
        **params: Any,
    ) -> None:
        """``MCTSAgent(seed, iterations=500, c=1.2)``: the parameters of :class:`MCTSSettings`
        (checked by its one parser), or ``settings`` already made; ``evaluator``, ``selection``
        and ``expansion`` replace the parts the settings make."""
        super().__init__(seed)
        s = settings if settings is not None else MCTSSettings.parse(params)
        self.settings = s
        value = StaticValue(s.heuristic)  # one static value for the leaves and the order
        self.evaluator = evaluator if evaluator is not None else s.evaluator(value)
        self.selection = selection if selection is not None else s.selection()
        self.expansion = expansion if expansion is not None else s.expansion(value)
        #: what ``time`` counts: wall seconds, or CPU seconds of the searching thread
        self._now = thread_time if s.clock == "cpu" else perf_counter
        self._root: Node | None = None
        self._root_state: State | None = None
        self.last = SearchStats()

    # --- the agent protocol ------------------------------------------------------------------
    def reset(self) -> None:
        super().reset()
        self._root = None
        self._root_state = None
        self.last = SearchStats()

    def select_action(self, state: State) -> int:
        actions = state.search_actions()
        if len(actions) == 1:
            return actions[0]
        return self._ranked(self._search(state), state.current_player)[0][0]

    def analyse(self, state: State, top: int = 3) -> list[tuple[int, float]]:
        """The most visited actions with their mean value for the mover (in [-1, 1])."""
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
        self.evaluator.prepare(state)
        root = self._root_for(state)
        self.expansion.prepare(root, state)
        reused = root.visits
        mover = state.current_player
        workers = self.settings.workers
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
        self.last = SearchStats(iterations, reused, self._now() - start, workers, self.settings.time)
        return stats

    def _worker(self, root: Node, state: State, seed: int, sender: Connection) -> None:
        self.rng = random.Random(seed)
        self._run(root, state, self._now())
        sender.send(_root_stats(root, state.current_player))
        sender.close()

    def _run(self, root: Node, state: State, start: float) -> int:
        limit = self.settings.iterations
        budget = self.settings.time
        deadline = start + budget if budget is not None else None
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
        if self.settings.reuse and self._root is not None and old is not None and state.game == old.game:
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
        """One simulation: down the tree by the selection policy (chance nodes sampled) to a new
        leaf, which the evaluator judges; every node on the way adds the values."""
        state = root_state.clone()
        rng = self.rng
        expansion = self.expansion
        choose = self.selection.choose
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
                node.untried = expansion.order(state, rng, everything=node is root)
            if node.untried and expansion.admits(node):
                a = node.untried.pop()
                state.apply_legal(a)
                child = Node(state.current_player, num_players)
                node.children[a] = child
                path.append(child)
                break
            if not node.children:  # a player to move without actions: treat as a leaf
                break
            a, node = choose(node)
            state.apply_legal(a)
            path.append(node)
        result = self.evaluator.evaluate(state, rng)
        for nd in path:
            nd.visits += 1
            v = nd.values
            for i in range(num_players):
                v[i] += result[i]


#: ``1 / sqrt(n)`` for the visit counts of most searches (UCB's exploration term, looked up)
_INVERSE_ROOTS = [0.0] + [1.0 / math.sqrt(n) for n in range(1, 1 << 16)]


def _inverse_roots(visits: int) -> list[float]:
    """The table of ``1 / sqrt(n)`` extended past ``visits`` (searches of over 65,535 visits)."""
    start = len(_INVERSE_ROOTS)
    _INVERSE_ROOTS.extend(1.0 / math.sqrt(n) for n in range(start, 2 * visits + 1))
    return _INVERSE_ROOTS


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

"""The arena: play many games between agents and measure their strength.

``run_match(game, ["strong", "casual"], 200, seed=1)`` plays 200 games with the seats rotated,
and returns a :class:`MatchResult` whose ``table()`` shows, per agent: seat-games played, wins,
draws and losses, average score (``State.scores``), score fraction and an Elo difference with a
95% confidence interval.

Seats. With ``k`` agents and ``P`` seats (``2 <= k <= P``), game ``i`` puts agent
``(s + i) mod k`` in seat ``s``: over every block of ``k`` games each agent sits in each seat
equally often (with ``k < P`` an agent holds several seats of a game; each seat counts as one
seat-game). The games of one block share their seed, so they start from the same set-up.

Outcomes. A seat *wins* when its return is the single best of the game, *draws* when it shares the
best return, and *loses* otherwise. Its *score fraction* is ``(return + 1) / 2``: 1 for a win,
1/2 for a draw, 0 for a loss with two players; with more players, the share of opponents beaten
(ties half), since returns come from ``returns_from_ranks``.

Elo. With ``x_1 .. x_m`` an agent's score fractions and ``E`` their mean, the Elo difference to
the field (the average opponent it met) is ``D = 400 * log10(E / (1 - E))``. The 95% interval
transforms ``E -/+ 1.96 * s / sqrt(m)`` (``s`` the sample standard deviation of the ``x_i``) the
same way. ``E`` of 0 or 1 gives an infinite difference, shown as ``-inf`` / ``+inf`` (``null`` in
JSON).

Adjudication. A game whose result can no longer change, whatever is played (``State.settled_result``:
a race game where no piece can reach its goal any more), ends there with that result, the
one it would have at its end; ``adjudicate=False`` plays such games on.

Failures. An agent that raises, returns an action not in ``legal_actions()`` or takes longer than
``move_time_limit`` seconds for a move loses that game: the game stops, the failing seat ranks
last and the others share first place. Failures are listed in the result, never raised. A game
whose rules raise (a bug of the game, not of an agent) is reported as an error and left out of the
statistics.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import random
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter, thread_time
from typing import Any

from palaestra.ai.base import Agent, make_agent
from palaestra.core.chance import ChanceSource
from palaestra.core.driver import Driver
from palaestra.core.errors import OptionError
from palaestra.core.game import Game, State, is_int, returns_from_ranks
from palaestra.core.outcome import Termination
from palaestra.core.record import Record

Z95 = 1.959963984540054


@dataclass
class Failure:
    """An agent that failed a game (``kind``: exception, illegal, timeout) or a game error."""

    game: int
    seat: int | None
    agent: int | None
    kind: str
    message: str

    def to_json(self, timings: bool = False) -> dict[str, Any]:
        """The match as JSON; ``timings`` adds each game's CPU seconds and longest move per seat."""
        return {
            "game": self.game,
            "seat": self.seat,
            "agent": self.agent,
            "kind": self.kind,
            "message": self.message,
        }


@dataclass
class GameOutcome:
    """One game of a match; ``returns``/``scores`` are per seat (``None`` after a game error)."""

    index: int
    seed: int
    seats: list[int]
    returns: list[float] | None
    scores: list[float] | None
    moves: int
    failure: Failure | None = None
    record: str | None = None
    #: why the game ended (None: a game error ended it)
    termination: Termination | None = None
    #: per seat: decisions the agent made, CPU seconds of the arena's thread they took, and the
    #: longest decision in wall seconds (measurements, not part of the result: they vary by machine)
    decisions: list[int] | None = None
    cpu: list[float] | None = None
    longest: list[float] | None = None

    @property
    def settled(self) -> bool:
        """Adjudicated: ended where its result could no longer change."""
        return self.termination is Termination.ADJUDICATION

    def to_json(self, timings: bool = False) -> dict[str, Any]:
        """The game as JSON; ``timings`` adds ``cpu`` and ``longest`` (they vary from run to run)."""
        out = {
            "index": self.index,
            "seed": self.seed,
            "seats": self.seats,
            "returns": self.returns,
            "scores": self.scores,
            "moves": self.moves,
            "termination": None if self.termination is None else self.termination.value,
            "failure": self.failure.to_json() if self.failure else None,
            "record": self.record,
            "decisions": self.decisions,
        }
        if timings:
            out["cpu"] = self.cpu
            out["longest"] = self.longest
        return out


@dataclass
class AgentStats:
    """The statistics of one agent over a match (counted per seat-game)."""

    agent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    failures: int = 0
    score_sum: float = 0.0
    fractions: list[float] = field(default_factory=list)

    @property
    def average_score(self) -> float | None:
        return self.score_sum / self.games if self.games else None

    @property
    def score_fraction(self) -> float | None:
        return sum(self.fractions) / len(self.fractions) if self.fractions else None

    def elo(self) -> tuple[float | None, float | None, float | None]:
        """Elo difference to the field and its 95% interval (see the module docstring)."""
        if not self.fractions:
            return None, None, None
        mean, half = mean_interval(self.fractions)
        return elo_from_fraction(mean), elo_from_fraction(mean - half), elo_from_fraction(mean + half)

    def to_json(self) -> dict[str, Any]:
        elo, lo, hi = self.elo()
        return {
            "agent": self.agent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "failures": self.failures,
            "average_score": self.average_score,
            "score_fraction": self.score_fraction,
            "elo": _finite(elo),
            "elo_low": _finite(lo),
            "elo_high": _finite(hi),
        }


def mean_interval(fractions: list[float]) -> tuple[float, float]:
    """The mean of ``fractions`` and the half-width of its 95% interval, ``1.96 * s / sqrt(m)``
    (``inf`` for a single value)."""
    m = len(fractions)
    mean = sum(fractions) / m
    if m < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in fractions) / (m - 1)
    return mean, Z95 * math.sqrt(var / m)


def elo_from_fraction(fraction: float) -> float:
    """``400 * log10(f / (1 - f))``, with ``-inf`` at or below 0 and ``+inf`` at or above 1."""
    if fraction <= 0.0:
        return -math.inf
    if fraction >= 1.0:
        return math.inf
    return 400.0 * math.log10(fraction / (1.0 - fraction))


def _finite(x: float | None) -> float | None:
    if x is None or math.isinf(x):
        return None
    return round(x, 1)


def _fmt_elo(x: float | None) -> str:
    if x is None:
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


@dataclass
class MatchResult:
    """The games of a match and the statistics per agent."""

    game: str
    options: dict[str, Any]
    agents: list[str]
    n: int
    seed: int
    outcomes: list[GameOutcome]

    @property
    def failures(self) -> list[Failure]:
        return [o.failure for o in self.outcomes if o.failure is not None]

    def stats(self) -> list[AgentStats]:
        """One :class:`AgentStats` per agent, in the order of ``agents``."""
        out = [AgentStats(spec) for spec in self.agents]
        for o in self.outcomes:
            if o.failure is not None and o.failure.agent is not None:
                out[o.failure.agent].failures += 1
            if o.returns is None or o.scores is None:
                continue
            best = max(o.returns)
            sharing = sum(1 for r in o.returns if r == best)
            for seat, agent in enumerate(o.seats):
                st = out[agent]
                r = o.returns[seat]
                st.games += 1
                if r == best and sharing == 1:
                    st.wins += 1
                elif r == best:
                    st.draws += 1
                else:
                    st.losses += 1
                st.score_sum += o.scores[seat]
                st.fractions.append((r + 1.0) / 2.0)
        return out

    def table(self) -> str:
        title = f"{self.game}"
        set_options = {k: v for k, v in self.options.items() if v is not None and v is not False}
        if set_options:
            title += " (" + ", ".join(f"{k}={v}" for k, v in set_options.items()) + ")"
        played = sum(1 for o in self.outcomes if o.returns is not None)
        lines = [f"{title}: {played} of {self.n} games, seed {self.seed}"]
        width = max(5, *(len(a) for a in self.agents))
        lines.append(
            f"{'agent':<{width}}  {'games':>5}  {'wins':>5}  {'draws':>5}  {'losses':>6}  "
            f"{'avg score':>9}  {'score%':>6}  Elo diff [95% CI]"
        )
        for st in self.stats():
            elo, lo, hi = st.elo()
            avg = f"{st.average_score:9.2f}" if st.average_score is not None else f"{'-':>9}"
            frac = f"{100 * st.score_fraction:6.1f}" if st.score_fraction is not None else f"{'-':>6}"
            lines.append(
                f"{st.agent:<{width}}  {st.games:>5}  {st.wins:>5}  {st.draws:>5}  {st.losses:>6}  "
                f"{avg}  {frac}  {_fmt_elo(elo)} [{_fmt_elo(lo)}, {_fmt_elo(hi)}]"
            )
        failures = self.failures
        if failures:
            lines.append(f"failures: {len(failures)}")
            for f in failures[:10]:
                who = self.agents[f.agent] if f.agent is not None else "game"
                seat = f" (seat {f.seat})" if f.seat is not None else ""
                lines.append(f"  game {f.game}: {who}{seat} {f.kind}: {f.message}")
            if len(failures) > 10:
                lines.append(f"  ... and {len(failures) - 10} more")
        return "\n".join(lines)

    def to_json(self, timings: bool = False) -> dict[str, Any]:
        """The match as JSON; ``timings`` adds each game's CPU seconds and longest move per seat."""
        return {
            "game": self.game,
            "options": {k: v for k, v in self.options.items() if v is not None},
            "agents": list(self.agents),
            "n": self.n,
            "seed": self.seed,
            "stats": [st.to_json() for st in self.stats()],
            "failures": [f.to_json() for f in self.failures],
            "games": [o.to_json(timings) for o in self.outcomes],
        }


def seat_assignment(k: int, num_players: int, index: int) -> list[int]:
    """Agent index per seat for game ``index`` of a match of ``k`` agents."""
    return [(s + index) % k for s in range(num_players)]


def derive_seed(*parts: object) -> int:
    """A reproducible 31-bit seed from the parts (stable across runs and processes)."""
    return random.Random(":".join(str(p) for p in parts)).randrange(2**31)


class _MoveTimeout(Exception):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise _MoveTimeout


class _SeatFailed(Exception):
    """An agent failed its move (raised, illegal action, too slow): it loses the game."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class _Seats:
    """The agents of one game as the driver's seats (palaestra/core/driver.py): each decision is
    timed, checked against ``legal_actions()`` and the time limit; a failure raises
    :class:`_SeatFailed`. With a time limit on the main thread, SIGALRM stops a move that runs
    far over it (``move_time_limit`` plus at least a second)."""

    def __init__(self, index: int, agents: list[Agent], seats: list[int], limit: float | None) -> None:
        self.index, self.agents, self.seats, self.limit = index, agents, seats, limit
        n = len(agents)
        self.decisions, self.cpu, self.longest = [0] * n, [0.0] * n, [0.0] * n
        self.hard_stop = (
            limit is not None
            and threading.current_thread() is threading.main_thread()
            and hasattr(signal, "setitimer")
        )

    def seat(self, seat: int) -> Callable[[State], int]:
        return lambda state: self.decide(seat, state)

    def fail(self, seat: int, kind: str, message: str) -> _SeatFailed:
        return _SeatFailed(Failure(self.index, seat, self.seats[seat], kind, message))

    def decide(self, seat: int, state: State) -> int:
        start, cpu_start = perf_counter(), thread_time()
        try:
            action = self._ask(self.agents[seat], state)
        except _MoveTimeout:
            raise self.fail(seat, "timeout", f"stopped after {perf_counter() - start:.1f} s") from None
        except Exception as err:
            raise self.fail(seat, "exception", f"{type(err).__name__}: {err}") from None
        elapsed = perf_counter() - start
        self.decisions[seat] += 1
        self.cpu[seat] += thread_time() - cpu_start
        self.longest[seat] = max(self.longest[seat], elapsed)
        if self.limit is not None and elapsed > self.limit:
            raise self.fail(seat, "timeout", f"took {elapsed:.2f} s for a move (limit {self.limit:g} s)")
        if not is_int(action) or action not in state.legal_actions():
            raise self.fail(seat, "illegal", f"played {action!r}: {state.explain_illegal(action)}")
        return action

    def _ask(self, agent: Agent, state: State) -> int:
        if not self.hard_stop:
            return agent.select_action(state.clone())
        assert self.limit is not None
        signal.setitimer(signal.ITIMER_REAL, self.limit + max(1.0, self.limit))
        try:
            return agent.select_action(state.clone())
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    @contextmanager
    def playing(self) -> Iterator[None]:
        """The game's time: the alarm handler installed (with a hard stop); agents closed after."""
        old_handler: Any = signal.signal(signal.SIGALRM, _on_alarm) if self.hard_stop else None
        try:
            yield
        finally:
            if self.hard_stop:
                signal.signal(signal.SIGALRM, old_handler)
            for agent in self.agents:
                agent.close()


def _drive(driver: Driver, index: int, limit: int) -> Failure | None:
    """Play the driver's game to its end; the failure that stopped it, if any."""
    try:
        while not driver.over:
            if len(driver.state.history) >= limit:
                return Failure(index, None, None, "game-error", f"no end after {limit} actions")
            driver.step()
    except _SeatFailed as failed:
        return failed.failure
    except Exception as err:  # the game itself failed
        return Failure(index, None, None, "game-error", f"{type(err).__name__}: {err}")
    return None


def _returns_and_scores(
    driver: Driver, failure: Failure | None
) -> tuple[list[float] | None, list[float] | None]:
    """Per seat: the game's returns (a failing seat ranks last), and its scores; ``None`` for a
    game error."""
    n = driver.state.game.num_players
    if failure is not None and failure.seat is None:
        return None, None
    try:
        scores = [float(x) for x in driver.state.scores()]
    except Exception:
        scores = [0.0] * n
    if failure is not None:
        return returns_from_ranks([1 if s == failure.seat else 0 for s in range(n)]), scores
    if driver.result is not None:
        return list(driver.result.returns), scores
    return [float(x) for x in driver.state.returns()], scores


def play_game(
    game: Game,
    agents: list[str],
    index: int,
    match_seed: int,
    record_dir: Path | None = None,
    move_time_limit: float | None = None,
    adjudicate: bool = True,
) -> GameOutcome:
    """Play game ``index`` of a match (the unit of work of :func:`run_match`): the core driver
    with the agents as its seats, chance drawn by the one seeding rule from the game's seed."""
    k = len(agents)
    seats = seat_assignment(k, game.num_players, index)
    seed = derive_seed(match_seed, "game", index // k)
    chance = ChanceSource.from_seed(seed)  # the one rule: the draws and each seat's agent's seed
    players = [make_agent(agents[a], seed=chance.agent_seed(s)) for s, a in enumerate(seats)]
    for agent in players:
        agent.reset()
    record = Record.start(game, [agents[a] for a in seats], seed) if record_dir is not None else None
    table = _Seats(index, players, seats, move_time_limit)
    driver = Driver(
        game.new_initial_state(seed),
        chance,
        {s: table.seat(s) for s in range(game.num_players)},
        record=record,
        adjudicate=adjudicate,
    )
    with table.playing():
        failure = _drive(driver, index, game.max_game_length())
    returns, scores = _returns_and_scores(driver, failure)
    path = None
    if record is not None and record_dir is not None:
        target = Path(record_dir) / f"game-{index:05d}.json"
        record.save(target)
        path = str(target)
    return GameOutcome(
        index,
        seed,
        seats,
        returns,
        scores,
        len(driver.state.history),
        failure,
        path,
        None if driver.result is None else driver.result.termination,
        table.decisions,
        [round(x, 4) for x in table.cpu],
        [round(x, 4) for x in table.longest],
    )


def lost_game(game: Game, agents: list[str], index: int, match_seed: int, err: Exception) -> GameOutcome:
    """The outcome of game ``index`` whose worker failed (a process or a Ray task): a game error."""
    k = len(agents)
    return GameOutcome(
        index,
        derive_seed(match_seed, "game", index // k),
        seat_assignment(k, game.num_players, index),
        None,
        None,
        0,
        Failure(index, None, None, "game-error", f"{type(err).__name__}: {err}"),
    )


def run_match(
    game: Game,
    agents: list[str],
    n: int,
    *,
    workers: int = 1,
    seed: int | None = None,
    record_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    move_time_limit: float | None = None,
    adjudicate: bool = True,
    ray: str | None = None,
) -> MatchResult:
    """Play ``n`` games of ``game`` between the agent specs (seats rotated; see the module doc).

    ``workers`` games are played at once in separate processes. ``seed`` makes the match
    reproducible (agents with time budgets aside); ``None`` draws one, kept in the result.
    ``record_dir`` receives one record per game (``game-00000.json`` ...). ``adjudicate``
    ends a game as soon as its result can no longer change (``State.settled_result``) with that
    result, as it would end at the move limit; without it such games play on to the end.
    ``ray`` plays the games as Ray tasks (:mod:`palaestra.ai.cluster`): ``"local"`` on a cluster
    of ``workers`` CPUs started here for the match, or the address of a running cluster; the
    games and results are those of the same match in one process.
    """
    _check_match(game, agents, n, workers)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
    if progress is not None:
        progress(0, n)
    outcomes: list[GameOutcome]
    if ray is not None:
        from palaestra.ai.cluster import play_games_on_ray

        outcomes = play_games_on_ray(
            game,
            agents,
            n,
            seed,
            address=ray,
            workers=workers,
            record_dir=record_dir,
            move_time_limit=move_time_limit,
            adjudicate=adjudicate,
            progress=progress,
        )
    else:
        args = (record_dir, move_time_limit, adjudicate)
        outcomes = _play_games(game, agents, n, seed, workers, args, progress)
    return MatchResult(
        game.name, dict(game.options), list(agents), n, seed, [o for o in outcomes if o is not None]
    )


def _check_match(game: Game, agents: list[str], n: int, workers: int) -> None:
    """Refuse a match that cannot be played, before playing (a bad spec is the caller's mistake)."""
    if not 2 <= len(agents) <= game.num_players and not (len(agents) == 1 == game.num_players):
        raise OptionError(f"{game.name} has {game.num_players} seats: give 2 to {game.num_players} agents")
    if n < 1:
        raise OptionError("a match has at least 1 game")
    if workers < 1:
        raise OptionError("workers is at least 1")
    for spec in agents:
        make_agent(spec, seed=0)


def _play_games(
    game: Game,
    agents: list[str],
    n: int,
    seed: int,
    workers: int,
    args: tuple[Path | None, float | None, bool],
    progress: Callable[[int, int], None] | None,
) -> list[GameOutcome]:
    """The ``n`` games in this process, or in ``workers`` processes (``args``: the rest of
    :func:`play_game`'s arguments), in game order."""
    outcomes: list[GameOutcome | None] = [None] * n
    done = 0
    if workers == 1 or n == 1:
        for i in range(n):
            outcomes[i] = play_game(game, agents, i, seed, *args)
            done += 1
            if progress is not None:
                progress(done, n)
        return [o for o in outcomes if o is not None]
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=min(workers, n), mp_context=ctx) as pool:
        futures: dict[Future[GameOutcome], int] = {
            pool.submit(play_game, game, agents, i, seed, *args): i for i in range(n)
        }
        for fut in as_completed(futures):
            i = futures[fut]
            try:
                outcomes[i] = fut.result()
            except Exception as err:  # the worker process died
                outcomes[i] = lost_game(game, agents, i, seed, err)
            done += 1
            if progress is not None:
                progress(done, n)
    return [o for o in outcomes if o is not None]

"""Help from the AI and looking back: hints for the seat to move, the AI's view of the moves of a
finished game, and the position after any ply. Every search runs in the bounded search pool
(palaestra/server/service/pool.py: worker threads, fair between games), or, with a
``searcher`` (``palaestra serve --redis-url``), on a ``palaestra worker`` process: the checks
(token, hints allowed, game over) are made here, the search there (palaestra/server/worker.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from palaestra.ai import make_agent
from palaestra.ai.base import Agent
from palaestra.core.errors import OptionError, RecordError
from palaestra.server.service.errors import DomainError
from palaestra.server.service.pool import ChildCall, SearchPool
from palaestra.server.service.searching import analyse_move, hint, played_spec, position
from palaestra.server.service.session import Session, who
from palaestra.server.service.sessions import Sessions

T = TypeVar("T")

#: AI levels offered in the UI, strongest last; only those ``make_agent`` knows are offered.
AI_LEVELS = ("random", "beginner", "casual", "strong", "expert")
#: the agent asked for hints (falls back to the strongest level that exists)
HINT_LEVELS = ("strong", "casual", "beginner", "random")
#: the AI's view of the moves of a finished game: the strong agent on a small budget
ANALYSIS_SPECS = {"strong": "strong:iterations=150,rollout_depth=6"}


def available_levels() -> list[str]:
    levels = []
    for level in AI_LEVELS:
        try:
            make_agent(level, seed=0)
        except OptionError:
            continue
        except Exception:  # a level that fails to build is not offered
            continue
        levels.append(level)
    return levels


class Searcher(Protocol):
    """Runs a search of the :class:`Analyst` elsewhere: ``ask("hint", game_id, top)`` or
    ``ask("analysis", game_id, ply)`` answers what ``Analyst.hint_search`` / ``analysis_search``
    would, or raises :class:`DomainError`."""

    async def ask(self, kind: str, game_id: str, arg: int) -> Any: ...


class Analyst:
    """Hints, analysis and replays of the games of a :class:`Sessions`."""

    def __init__(
        self,
        sessions: Sessions,
        levels: list[str],
        agent_factory: Callable[[str, int | None], Agent] = make_agent,
        searcher: Searcher | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        self.pool = pool or SearchPool()
        self.sessions = sessions
        self.levels = levels
        self.agent_factory = agent_factory
        self.searcher = searcher

    async def hint(self, game_id: str, token: str, top: int) -> list[dict[str, Any]]:
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: self._may_hint(s, token))
        if self.searcher is not None:
            ranked: list[dict[str, Any]] = await self.searcher.ask("hint", game_id, top)
            return ranked
        return await self.hint_search(session, top)

    async def _may_hint(self, session: Session, token: str) -> None:
        if session.seat_of(token) is None:
            raise DomainError("wrong_token", "hints are for the players of this game")
        if not session.hints_allowed():
            raise DomainError(
                "hints_off", "hints are off in a game between people (the creator may allow them)"
            )
        if self.searcher is not None:
            self._hintable(session)

    @staticmethod
    def _hintable(session: Session) -> None:
        state = session.state
        if session.status == "abandoned":
            session.check_playable()  # 409 game_abandoned
        if state.is_terminal() or state.is_chance_node() or session.status != "active":
            raise DomainError("no_hint", "there is no move to hint at now")

    async def hint_search(self, session: Session, top: int) -> list[dict[str, Any]]:
        """The hint agent's ``top`` moves in the game's position now."""
        self._hintable(session)
        state = session.state.clone()
        level = next((lv for lv in HINT_LEVELS if lv in self.levels), "random")
        args = (
            self.agent_factory,
            played_spec(level, state.game),
            session.seed + session.ply,
            position(state),
            top,
        )
        ranked = await self.pool.run(session.id, self._work(hint, args))
        return [
            {"action": a, "move": state.action_to_string(a), "value": float(v), "agent": level}
            for a, v in ranked
        ]

    async def analysis(self, game_id: str, ply: int, top: int) -> dict[str, Any]:
        """The AI's view of move ``ply + 1`` of a finished game: the strong agent (small budget) on
        the position before it, its top moves and how the move played ranks among them."""
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: _analysable(s, ply))
        cached = session.analyses.get(ply)
        if cached is not None and len(cached["top"]) >= min(top, cached["of"]):
            return _trim(cached, top)
        if self.searcher is not None:
            result: dict[str, Any] = await self.searcher.ask("analysis", game_id, ply)
        else:
            result = await self.analysis_search(session, ply)
        session.analyses[ply] = result
        return _trim(result, top)

    async def analysis_search(self, session: Session, ply: int) -> dict[str, Any]:
        """The AI's view of move ``ply + 1`` of a finished game (its 10 best moves)."""
        if session.status != "finished" or not 0 <= ply < len(session.record.moves):
            raise DomainError("not_finished", "the AI's view of the moves is shown once the game is over")
        moves = session.record.moves
        record = session.record
        spec = next((ANALYSIS_SPECS.get(lv, lv) for lv in HINT_LEVELS if lv in self.levels), "random")

        try:
            state = await asyncio.to_thread(record.replay, ply)
        except RecordError as err:
            raise DomainError("broken_game", str(err)) from None
        move = moves[ply]
        played = state.string_to_action(move.move)
        out: dict[str, Any] = {
            "ply": ply,
            "player": move.player,
            "to_move": who(session.game, move.player),
            "played": {"action": played, "move": move.move},
            "agent": None,
            "top": [],
            "of": 0,
            "played_rank": None,
            "played_value": None,
            "chance": state.is_chance_node(),
        }
        if state.is_chance_node():
            return out
        args = (self.agent_factory, position(state), played_spec(spec, state.game), session.seed + ply)
        ranked = await self.pool.run(session.id, self._work(analyse_move, args))
        values = {a: float(v) for a, v in ranked}
        order = [a for a, _ in ranked]
        out["agent"] = spec
        out["of"] = len(ranked)
        out["top"] = [
            {"action": a, "move": state.action_to_string(a), "value": values[a]} for a in order[:10]
        ]
        if played in values:
            out["played_rank"] = order.index(played) + 1
            out["played_value"] = values[played]
        return out

    def _work(self, fn: Callable[..., T], args: tuple[Any, ...]) -> Callable[[], T]:
        """``fn(*args)`` as the pool's work: a :class:`ChildCall` (run in a search child when the
        pool has processes) if the agents are the levels' (``make_agent``), else a plain call."""
        if self.agent_factory is make_agent:
            return ChildCall(fn, args)
        return lambda: fn(*args)

    async def replay(self, game_id: str, ply: int) -> dict[str, Any]:
        """The position after the first ``ply`` moves of a game."""
        session = await self.sessions.get(game_id)
        await self.sessions.judge(session, lambda s: _replayable(s, ply))
        rec = session.record

        def build() -> dict[str, Any]:
            try:
                state = rec.replay(ply)
            except RecordError as err:
                raise DomainError("broken_game", str(err)) from None
            return {
                "ply": ply,
                "moves": len(rec.moves),
                "last_move": rec.moves[ply - 1].to_json() if ply > 0 else None,
                "current_player": state.current_player,
                "scores": state.scores(),
                "state": state.to_json(),
                "text": state.render(),
            }

        return await asyncio.to_thread(build)


async def _analysable(session: Session, ply: int) -> None:
    if session.status != "finished":
        raise DomainError("not_finished", "the AI's view of the moves is shown once the game is over")
    moves = session.record.moves
    if not 0 <= ply < len(moves):
        raise DomainError("bad_ply", f"the game has moves 0 to {len(moves) - 1}, not {ply}")


async def _replayable(session: Session, ply: int) -> None:
    if ply > session.ply:
        raise DomainError("bad_ply", f"the game has {session.ply} moves, not {ply}")


def _trim(analysis: dict[str, Any], top: int) -> dict[str, Any]:
    return {**analysis, "top": analysis["top"][:top]}

"""The games being played: server-authoritative state, seats, AI and chance, persistence, pushes.

The hub talks to games only through the core protocol (``palaestra.core.game``) and keeps a core
:class:`~palaestra.core.record.Record` of every game. Every change goes the same way:

1. under the game's lock, the action is checked (token, turn, ply, legality) and applied to a
   *copy* of the state and the record;
2. the copy is written to the database (one transaction) — only then
3. it replaces the game's state in memory, is pushed to every websocket, and the caller gets it.

Chance nodes are sampled on the server from ``random.Random(f"{seed}:{ply}")``, so a restarted
server draws exactly what it would have drawn; the outcome is a move of the record like any other.
AI seats play in worker threads (``asyncio.to_thread``), so the event loop stays responsive.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import json
import logging
import random
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from palaestra.ai import make_agent
from palaestra.ai.base import Agent
from palaestra.core.errors import NotationError, OptionError, PalaestraError, RecordError
from palaestra.core.game import CHANCE, Game, State, returns_from_ranks
from palaestra.core.record import Record, now
from palaestra.core.registry import game_class, load_game
from palaestra.server import fairness
from palaestra.server.broker import Broker
from palaestra.server.db import StorageError, Store, StoredGame, VersionConflict
from palaestra.server.webhooks import can_undo, web_data, web_module

log = logging.getLogger("palaestra.server")

#: AI levels offered in the UI, strongest last; only those ``make_agent`` knows are offered.
AI_LEVELS = ("random", "beginner", "casual", "strong", "expert")
#: the agent asked for hints (falls back to the strongest level that exists)
HINT_LEVELS = ("strong", "casual", "beginner", "random")
#: the AI's view of the moves of a finished game: the strong agent on a small budget
ANALYSIS_SPECS = {"strong": "strong:iterations=150,rollout_depth=6"}
#: how many positions before the last actions a session keeps in memory for undo
UNDO_DEPTH = 64


@dataclass
class Created:
    """What only the creator of a game learns: their token(s), the invitation codes."""

    creator_token: str
    tokens: list[str | None] = field(default_factory=list)  # the creator's own seats
    invites: list[str | None] = field(default_factory=list)  # codes of the seats offered to friends


def _same(a: str, b: str) -> bool:
    return secrets.compare_digest(a, b)


class ApiError(Exception):
    """An error for the client: HTTP status, a short code and a message for a person."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


#: what a game id looks like (anything else is not a game: 404 without asking the database)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def load_server_game(name: str, options: Mapping[str, Any]) -> Game:
    """A game for the web app: only options a game marks as server-safe (``Option.server``), so a
    request can never name a file on the server; a bad option is a 400 ``bad_options``."""
    try:
        cls = game_class(name)
    except (PalaestraError, ImportError, AttributeError, TypeError) as err:
        raise ApiError(400, "bad_options", str(err)) from None
    refused = [o.name for o in cls.OPTIONS if not o.server and options.get(o.name) is not None]
    if refused:
        raise ApiError(
            400,
            "option_not_allowed",
            f"option {refused[0]!r} of {cls.title} names a file on the server; the web app offers "
            "only what the game ships",
        )
    try:
        return load_game(name, **options)
    except PalaestraError as err:
        raise ApiError(400, "bad_options", str(err)) from None
    except (TypeError, ValueError) as err:
        raise ApiError(400, "bad_options", f"bad options: {err}") from None


def showable(doc: Any) -> bool:
    """True if ``doc`` can be sent as JSON (a row holding a lone surrogate cannot)."""
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError):
        return False
    return True


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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """A seat: its player's token (hash), and for a seat offered to a friend its invitation.

    ``invite`` is None (no invitation: the creator's seat or an AI), ``"open"``, ``"used"`` (the
    friend joined: ``invite_hash`` still names the code, so a second use says so) or
    ``"revoked"``; ``revoked`` holds the hashes of earlier codes of the seat."""

    kind: str  # "human" or "ai"
    name: str
    level: str | None = None
    token_hash: str | None = None
    joined: bool = False
    creator: bool = False  # held by the game's creator (hot seat)
    invite_hash: str | None = None
    invite: str | None = None
    revoked: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token_hash": self.token_hash,
            "joined": self.joined,
            "creator": self.creator,
            "invite_hash": self.invite_hash,
            "invite": self.invite,
            "revoked": list(self.revoked),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Seat:
        joined = bool(doc.get("joined", False))
        token_hash = doc.get("token_hash")
        invite = doc.get("invite")
        invite_hash = doc.get("invite_hash")
        if "invite" not in doc and doc.get("kind") == "human" and not joined:
            # a seat stored before invitations: its old token is the (open) invitation code
            invite, invite_hash, token_hash = "open", token_hash, None
        return cls(
            str(doc["kind"]),
            str(doc.get("name", "")),
            doc.get("level"),
            token_hash,
            joined,
            bool(doc.get("creator", joined and doc.get("kind") == "human")),
            invite_hash,
            invite,
            [str(h) for h in doc.get("revoked", [])],
        )

    def public(self, index: int, game: Game) -> dict[str, Any]:
        return {
            "seat": index,
            "player_name": game.player_name(index),
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "joined": self.joined,
            "invitation": self.invite,
        }


@dataclass
class Session:
    """One game being played (or finished) with its subscribers."""

    id: str
    game: Game
    seats: list[Seat]
    seed: int
    state: State
    record: Record
    status: str  # "active" | "finished"
    created_at: datetime
    updated_at: datetime
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: when this process last used the game (time.monotonic), for eviction
    touched: float = field(default_factory=time.monotonic)
    subscribers: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    agents: dict[int, Agent] = field(default_factory=dict)
    runner: asyncio.Task[None] | None = None
    version: int = 0  # bumped on every change (action, undo, seats, resignation); stored
    #: (state before, action) of the latest actions, newest last, for undo (not stored: after a
    #: restart the state before is rebuilt from the record)
    undo_stack: list[tuple[State, int]] = field(default_factory=list)
    #: the AI's view of finished games' moves, by ply (computed on demand)
    analyses: dict[int, dict[str, Any]] = field(default_factory=dict)
    public: bool = False  # listed in the lobby
    hints: bool = False  # the creator allows hints between people
    creator_hash: str | None = None
    #: the chance secret (None: a game from before issue 17, drawing from its seed)
    secret: str | None = None

    def adopt(self, row: Session) -> None:
        """Take over what ``row`` (the same game, just loaded from the database) holds: another
        process changed the game. Subscribers, lock and agents stay."""
        self.seats = row.seats
        self.state = row.state
        self.record = row.record
        self.status = row.status
        self.updated_at = row.updated_at
        self.version = row.version
        self.undo_stack = row.undo_stack
        self.public = row.public
        self.hints = row.hints
        self.secret = row.secret
        self.analyses.clear()

    @property
    def seed_chosen(self) -> bool:
        return self.secret is None or self.secret.startswith("seed:")

    def hints_allowed(self) -> bool:
        """Hints only where they help nobody against another person: against the AI, in hot seat
        (every human seat is the creator's), or when the creator allowed them."""
        return self.hints or all(s.kind != "human" or s.creator for s in self.seats)

    def chance_rng(self, ply: int) -> random.Random:
        if self.secret is None:
            return random.Random(f"{self.seed}:{ply}")
        return fairness.chance_rng(self.secret, ply)

    def chance(self) -> dict[str, Any] | None:
        return fairness.chance_doc(self.secret, revealed=self.status != "active")

    def record_json(self) -> dict[str, Any]:
        """The game record, with the chance commitment (and the secret once the game is over)."""
        doc = self.record.to_json()
        chance = self.chance()
        if chance is not None:
            doc["chance"] = chance
        return doc

    @property
    def ply(self) -> int:
        return len(self.record.moves)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return index
        return None

    def waiting_for_server(self) -> bool:
        """True if the next action is the server's (chance or an AI seat)."""
        if self.status != "active" or self.state.is_terminal():
            return False
        player = self.state.current_player
        return player == CHANCE or (0 <= player < len(self.seats) and self.seats[player].kind == "ai")

    def undo_seat(self) -> int | None:
        """The seat that may take back the last action now (None: nothing to undo).

        Only an action of the seat still to move, while the game goes on, and only if the game's
        ``can_undo`` hook allows it (see palaestra/server/webhooks.py). Known from the undo stack
        of this session (rebuilt from the record when a game is loaded mid-turn)."""
        if self.status != "active" or not self.record.moves or not self.undo_stack:
            return None
        player = self.state.current_player
        if self.record.moves[-1].player != player or not 0 <= player < len(self.seats):
            return None
        if self.seats[player].kind != "human":
            return None
        before, action = self.undo_stack[-1]
        if len(before.history) != self.ply - 1:
            return None
        return player if can_undo(before, action, self.state) else None

    # --- views ------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Everything a client shows: the same for players and spectators (tokens never appear)."""
        state = self.state
        player = state.current_player
        human_to_move = (
            self.status == "active"
            and not state.is_terminal()
            and 0 <= player < len(self.seats)
            and self.seats[player].kind == "human"
        )
        legal = (
            [{"action": a, "move": state.action_to_string(a)} for a in state.legal_actions()]
            if human_to_move
            else []
        )
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": {k: v for k, v in self.game.options.items() if v is not None},
            "num_players": self.game.num_players,
            "seats": [seat.public(i, self.game) for i, seat in enumerate(self.seats)],
            "seed": self.seed if self.seed_chosen else None,
            "chance": self.chance(),
            "hints": self.hints_allowed(),
            "public": self.public,
            "ply": self.ply,
            "version": self.version,
            "status": self.status,
            "current_player": player,
            "to_move": _who(self.game, player),
            "scores": state.scores(),
            "score_details": _jsonable(state.score_details()),
            "dead_position": state.dead_position(),
            "max_plies": self.game.max_game_length(),
            "result": self.record.result,
            "moves": [m.to_json() for m in self.record.moves],
            "legal": legal,
            "undo": self.undo_seat() if human_to_move else None,
            "web": web_data(self.game),
            "state": state.to_json(),
            "text": state.render(),
            "created": self.created_at.isoformat(timespec="seconds"),
            "updated": self.updated_at.isoformat(timespec="seconds"),
        }

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": {k: v for k, v in self.game.options.items() if v is not None},
            "seats": [seat.public(i, self.game) for i, seat in enumerate(self.seats)],
            "ply": self.ply,
            "moves_played": sum(1 for m in self.record.moves if m.player >= 0),  # chance draws left out
            "status": self.status,
            "to_move": _who(self.game, self.state.current_player),
            "result": self.record.result,
            "updated": self.updated_at.isoformat(timespec="seconds"),
        }


def _who(game: Game, player: int) -> str | None:
    if player == CHANCE:
        return "chance"
    if 0 <= player < game.num_players:
        return game.player_name(player)
    return None


def _jsonable(value: Any) -> Any:
    """Score details as plain JSON (tuples to lists, unknown objects to strings)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


class MoveQueue(Protocol):
    """Where the server's moves are played when not in this process: ``submit`` asks for the next
    chance or AI move of a game at ``version`` (palaestra/server/worker.py: an arq job)."""

    async def submit(self, game_id: str, version: int) -> bool: ...


class Hub:
    """All sessions of one server, backed by a :class:`Store`.

    With a shared ``broker`` (Redis, docs/deploy.md) other processes change the same games: every
    request checks the row's version first and reloads a game that moved on, every change is
    announced to the other processes, and a notice from them reloads the game and pushes it to the
    websockets held here. With a ``queue`` the server's own moves (AI searches, chance draws) are
    jobs for ``palaestra worker`` processes, never played in this one."""

    def __init__(
        self,
        store: Store,
        *,
        ai_delay: float = 0.4,
        agent_factory: Callable[[str, int | None], Agent] = make_agent,
        broker: Broker | None = None,
        queue: MoveQueue | None = None,
    ) -> None:
        self.store = store
        self.broker = broker or Broker()
        self.queue = queue
        self._background: set[asyncio.Task[Any]] = set()
        self.ai_delay = ai_delay
        self.agent_factory = agent_factory
        self.sessions: dict[str, Session] = {}
        self._load_lock = asyncio.Lock()
        self.levels = available_levels()
        self._closing = False
        #: games untouched this long (seconds) and not watched are dropped from memory
        self.idle_seconds = 300.0
        self.evict_every = 30.0
        self._sweeper: asyncio.Task[None] | None = None
        #: called after every applied action (the app counts them for /metrics)
        self.on_action: Callable[[], None] = lambda: None
        #: waits between tries of a server move that could not be stored (the last one repeats)
        self.retry_delays: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)

    # --- start and stop ---------------------------------------------------------------------
    async def start(self) -> None:
        """Resume unfinished games whose next move is the server's (AI or chance): each active
        game is looked at once and kept in memory only if it has such a move to play; the others
        are loaded again on demand. Then idle games are evicted every ``evict_every`` seconds."""
        await self.broker.start(self._on_notice)
        for game_id in await asyncio.to_thread(self.store.ids, "active"):
            try:
                session = await self.get(game_id)
            except ApiError as err:
                log.error("cannot resume game %s: %s", game_id, err.message)
                continue
            self._kick(session)
            if not session.waiting_for_server():
                self._evict(session)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def _idle(self, session: Session, now: float) -> bool:
        return (
            not session.subscribers
            and not session.lock.locked()
            and (session.runner is None or session.runner.done())
            and now - session.touched >= self.idle_seconds
        )

    def _evict(self, session: Session) -> None:
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]

    def evict_idle(self) -> int:
        """Drop the games nobody watched or changed for ``idle_seconds`` (memory stays bounded:
        they are loaded again from the database on the next request). Returns how many."""
        now = time.monotonic()
        idle = [s for s in self.sessions.values() if self._idle(s, now)]
        for session in idle:
            self._evict(session)
        return len(idle)

    async def _sweep(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.evict_every)
            self.evict_idle()

    async def stop(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        runners = [s.runner for s in self.sessions.values() if s.runner is not None]
        for task in runners:
            task.cancel()
        for task in runners:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for session in self.sessions.values():
            for queue in list(session.subscribers):
                queue.put_nowait({"type": "closing"})
        for task in list(self._background):
            task.cancel()
        await self.broker.stop()

    # --- loading ----------------------------------------------------------------------------
    async def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is not None:
            session.touched = time.monotonic()
            if self.broker.shared:  # another process may have changed it: one indexed read
                stored_version = await asyncio.to_thread(self.store.version, game_id)
                if stored_version != session.version:
                    async with session.lock:
                        await self._reload(session)
            return session
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, "game_not_found", "there is no game with this id")
        async with self._load_lock:
            session = self.sessions.get(game_id)
            if session is not None:
                return session
            stored = await asyncio.to_thread(self.store.get, game_id)
            if stored is None:
                raise ApiError(404, "game_not_found", f"there is no game {game_id!r}")
            session = await asyncio.to_thread(_session_from_stored, stored)
            self.sessions[game_id] = session
            return session

    # --- creating and joining ---------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seats: list[Mapping[str, Any]],
        seed: int | None = None,
        *,
        public: bool = False,
        hints: bool = False,
    ) -> tuple[Session, Created]:
        """A new game. The creator gets the tokens of the seats they hold (``joined``), an
        invitation code for each other human seat, and a creator token (to manage invitations)."""
        game = load_server_game(game_name, options)
        if len(seats) != game.num_players:
            raise ApiError(
                400,
                "bad_seats",
                f"{game.title} with these options has {game.num_players} players, "
                f"but {len(seats)} seats were given",
            )
        created = Created(secrets.token_urlsafe(18))
        made: list[Seat] = []
        for index, spec in enumerate(seats):
            kind = spec.get("kind", "human")
            name = str(spec.get("name") or "")
            token: str | None = None
            code: str | None = None
            if kind == "human" and spec.get("joined", False):
                token = secrets.token_urlsafe(18)
                made.append(Seat("human", name, None, hash_token(token), True, creator=True))
            elif kind == "human":
                code = secrets.token_urlsafe(18)
                made.append(
                    Seat("human", name, None, None, False, invite_hash=hash_token(code), invite="open")
                )
            elif kind == "ai":
                level = str(spec.get("level") or "random")
                if level not in self.levels:
                    raise ApiError(
                        400,
                        "bad_seats",
                        f"seat {index + 1}: unknown AI level {level!r} (levels: {', '.join(self.levels)})",
                    )
                made.append(Seat("ai", name or f"AI ({level})", level, None, True))
            else:
                raise ApiError(400, "bad_seats", f"seat {index + 1}: kind is 'human' or 'ai', not {kind!r}")
            created.tokens.append(token)
            created.invites.append(code)
        if seed is not None and any(s.invite is not None for s in made):
            raise ApiError(
                400,
                "seed_not_allowed",
                "a chosen seed would let you foresee the draws against an invited player; "
                "seeds are for hot seat and games against the AI",
            )
        secret = fairness.new_secret() if seed is None else fairness.seeded_secret(seed)
        agent_seed = seed if seed is not None else secrets.randbits(31)
        state = game.new_initial_state(seed)
        record = Record.start(game, [s.name or game.player_name(i) for i, s in enumerate(made)], seed)
        stamp = datetime.now(UTC)
        game_id = secrets.token_hex(6)
        creator_hash = hash_token(created.creator_token)
        session = Session(
            game_id,
            game,
            made,
            agent_seed,
            state,
            record,
            "active",
            stamp,
            stamp,
            public=public,
            hints=hints,
            creator_hash=creator_hash,
            secret=secret,
        )
        stored = StoredGame(
            game_id,
            game.name,
            record.options,
            [s.to_json() for s in made],
            agent_seed,
            0,
            "active",
            record.to_json(),
            state.to_json(),
            stamp,
            stamp,
            0,
            public=public,
            hints=hints,
            creator_hash=creator_hash,
            secret=secret,
        )
        await asyncio.to_thread(self.store.insert, stored)
        self.sessions[game_id] = session
        self._kick(session)
        return session, created

    async def join(self, game_id: str, code: str, name: str | None) -> tuple[int, str]:
        """Take the seat of an invitation: the code is used up, the joiner gets a fresh token."""
        session = await self.get(game_id)
        async with session.lock:
            if session.status != "active":
                raise ApiError(409, "game_over", "the game is over: nobody can join it any more")
            digest = hash_token(code)
            seat = next(
                (
                    i
                    for i, s in enumerate(session.seats)
                    if s.invite_hash is not None and _same(s.invite_hash, digest)
                ),
                None,
            )
            if seat is None:
                if any(any(_same(h, digest) for h in s.revoked) for s in session.seats):
                    raise ApiError(
                        410, "invitation_revoked", "this invitation was withdrawn by the game's creator"
                    )
                raise ApiError(403, "wrong_token", "this link does not belong to a seat of this game")
            if session.seats[seat].invite == "used":
                raise ApiError(410, "invitation_used", "this invitation was used already: the seat is taken")
            if session.seats[seat].invite == "revoked":
                raise ApiError(
                    410, "invitation_revoked", "this invitation was withdrawn by the game's creator"
                )
            token = secrets.token_urlsafe(18)
            new_seats = copy.deepcopy(session.seats)
            taken = new_seats[seat]
            taken.joined = True
            taken.invite = "used"
            taken.token_hash = hash_token(token)
            if name:
                taken.name = name
            await self._write_seats(session, new_seats)
        await self._broadcast(session)
        return seat, token

    async def reinvite(self, game_id: str, creator_token: str, seat: int, *, new: bool) -> str | None:
        """The creator withdraws a seat's unused invitation and (``new``) issues a fresh code."""
        session = await self.get(game_id)
        async with session.lock:
            if session.creator_hash is None or not _same(session.creator_hash, hash_token(creator_token)):
                raise ApiError(403, "not_creator", "only the game's creator manages its invitations")
            if not 0 <= seat < len(session.seats):
                raise ApiError(404, "no_such_seat", f"the game has seats 0 to {len(session.seats) - 1}")
            if session.status != "active":
                raise ApiError(409, "game_over", "the game is over")
            current = session.seats[seat]
            if current.kind != "human" or current.creator:
                raise ApiError(409, "no_invitation", "this seat is not offered by invitation")
            if current.invite == "used" or current.joined:
                raise ApiError(409, "seat_taken", "the invitation was used: the seat is taken")
            new_seats = copy.deepcopy(session.seats)
            changed = new_seats[seat]
            if changed.invite_hash is not None:
                changed.revoked.append(changed.invite_hash)
            code = secrets.token_urlsafe(18) if new else None
            changed.invite_hash = hash_token(code) if code is not None else None
            changed.invite = "open" if code is not None else "revoked"
            await self._write_seats(session, new_seats)
        await self._broadcast(session)
        return code

    # --- playing ----------------------------------------------------------------------------
    async def act(self, game_id: str, token: str, ply: int, action: int | None, move: str | None) -> Session:
        if (action is None) == (move is None):
            raise ApiError(400, "bad_request", "give exactly one of 'action' (a number) or 'move'")
        session = await self.get(game_id)
        try:
            await self._act(session, token, ply, action, move)
        except ApiError as err:
            if err.code != "conflict":
                raise
            # another process changed the game since we read it: we reloaded it, so judge the
            # action again on the current state (it may still be right, or now stale)
            await self._act(session, token, ply, action, move)
        await self._broadcast(session)
        self._kick(session)
        return session

    async def _act(
        self, session: Session, token: str, ply: int, action: int | None, move: str | None
    ) -> None:
        async with session.lock:
            seat = session.seat_of(token)
            if seat is None:
                raise ApiError(403, "wrong_token", "this token does not belong to a seat of this game")
            if session.status != "active" or session.state.is_terminal():
                raise ApiError(409, "game_over", "the game is over")
            if ply != session.ply:
                raise ApiError(
                    409,
                    "stale_action",
                    f"this action was meant for move {ply}, but the game is at move {session.ply}; "
                    "reload and try again",
                )
            if session.state.current_player != seat:
                raise ApiError(
                    409,
                    "not_your_turn",
                    f"it is {_who(session.game, session.state.current_player)}'s turn, "
                    f"not {session.game.player_name(seat)}'s",
                )
            state = session.state
            if move is not None:
                try:
                    action = state.string_to_action(move)
                except NotationError as err:
                    raise ApiError(422, "bad_notation", str(err)) from None
                except PalaestraError as err:
                    raise ApiError(422, "illegal_action", str(err)) from None
            assert action is not None
            if not state.is_legal(action):
                raise ApiError(422, "illegal_action", state.explain_illegal(action))
            await self._apply(session, action)

    async def resign(self, game_id: str, token: str) -> Session:
        """The seat gives up: it ranks last, the others share the rest (see docs/web.md)."""
        session = await self.get(game_id)
        async with session.lock:
            seat = session.seat_of(token)
            if seat is None:
                raise ApiError(403, "wrong_token", "this token does not belong to a seat of this game")
            if session.status != "active" or session.state.is_terminal():
                raise ApiError(409, "game_over", "the game is over")
            record = copy.deepcopy(session.record)
            ranks = [1 if p == seat else 0 for p in range(session.game.num_players)]
            who = session.game.player_name(seat)
            record.result = {
                "returns": returns_from_ranks(ranks),
                "scores": session.state.scores(),
                "text": f"{who} resigned",
                "resigned": seat,
            }
            record.ended = now()
            await self._write(session, session.state, record, "finished")
        await self._broadcast(session)
        return session

    async def undo(self, game_id: str, token: str, ply: int) -> Session:
        """Take back the seat's own last action of the current turn, where the game allows it.

        The record loses that move (it never happened for the other players: nobody moved since,
        and undoable actions reveal nothing), so the stored record stays replayable; the game's
        ``version`` still goes up, so every client sees the change."""
        session = await self.get(game_id)
        async with session.lock:
            seat = session.seat_of(token)
            if seat is None:
                raise ApiError(403, "wrong_token", "this token does not belong to a seat of this game")
            if session.status != "active" or session.state.is_terminal():
                raise ApiError(409, "game_over", "the game is over")
            if ply != session.ply:
                raise ApiError(
                    409,
                    "stale_action",
                    f"this undo was meant for move {ply}, but the game is at move {session.ply}; "
                    "reload and try again",
                )
            moves = session.record.moves
            if not moves or moves[-1].player != seat or session.state.current_player != seat:
                raise ApiError(409, "cannot_undo", "only your own last action, while it is still your turn")
            if session.undo_stack and len(session.undo_stack[-1][0].history) == session.ply - 1:
                before, action = session.undo_stack[-1]
                from_stack = True
            else:
                before, action = await asyncio.to_thread(_state_before_last, session.record)
                from_stack = False
            if not can_undo(before, action, session.state):
                raise ApiError(
                    409, "cannot_undo", f"{moves[-1].move} cannot be taken back (the rules do not allow it)"
                )
            record = copy.deepcopy(session.record)
            record.moves.pop()
            record.result = None
            record.ended = None
            await self._write(session, before.clone(), record, "active")
            if from_stack:
                session.undo_stack.pop()
        await self._broadcast(session)
        return session

    async def analysis(self, game_id: str, ply: int, top: int) -> dict[str, Any]:
        """The AI's view of move ``ply + 1`` of a finished game: the strong agent (small budget) on
        the position before it, its top moves and how the move played ranks among them."""
        session = await self.get(game_id)
        if session.status != "finished":
            raise ApiError(409, "not_finished", "the AI's view of the moves is shown once the game is over")
        moves = session.record.moves
        if not 0 <= ply < len(moves):
            raise ApiError(400, "bad_ply", f"the game has moves 0 to {len(moves) - 1}, not {ply}")
        cached = session.analyses.get(ply)
        if cached is not None and len(cached["top"]) >= min(top, cached["of"]):
            return _trim(cached, top)
        record = session.record
        spec = next((ANALYSIS_SPECS.get(lv, lv) for lv in HINT_LEVELS if lv in self.levels), "random")

        def build() -> dict[str, Any]:
            try:
                state = record.replay(ply)
            except RecordError as err:
                raise ApiError(500, "broken_game", str(err)) from None
            move = moves[ply]
            played = state.string_to_action(move.move)
            out: dict[str, Any] = {
                "ply": ply,
                "player": move.player,
                "to_move": _who(session.game, move.player),
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
            legal = state.legal_actions()
            agent = self.agent_factory(spec, session.seed + ply)
            ranked = agent.analyse(state, min(len(legal), 50))
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

        result = await asyncio.to_thread(build)
        session.analyses[ply] = result
        return _trim(result, top)

    # --- the server's own moves ---------------------------------------------------------------
    def _kick(self, session: Session) -> None:
        if self._closing or not session.waiting_for_server():
            return
        if self.queue is not None:  # a job for a worker process (its retries make it safe)
            self._in_background(self._submit(session.id, session.version))
            return
        if session.runner is not None and not session.runner.done():
            return
        session.runner = asyncio.get_running_loop().create_task(self._run_server_moves(session))

    async def _run_server_moves(self, session: Session) -> None:
        """Play chance and AI moves until a human is to move or the game ends."""
        try:
            while session.waiting_for_server():
                if not await self.server_move(session):
                    return  # another process moved this game on: whoever loads it continues it
                await self._broadcast(session)
        except asyncio.CancelledError:
            raise
        except Exception:  # an engine or agent bug must not kill the server
            log.exception("server moves of game %s stopped", session.id)

    async def server_move(self, session: Session) -> bool:
        """Draw the chance outcome or search the AI's move, and store it (not pushed yet). False
        if the row moved on without us (the session then holds the current row)."""
        ply = session.ply
        player = session.state.current_player
        if player == CHANCE:
            action = session.state.sample_chance(session.chance_rng(ply))
        else:
            agent = self._agent(session, player)
            snapshot = session.state.clone()
            action, _ = await asyncio.gather(
                asyncio.to_thread(agent.select_action, snapshot), asyncio.sleep(self.ai_delay)
            )
        return await self._store_server_move(session, ply, action)

    async def _submit(self, game_id: str, version: int) -> None:
        assert self.queue is not None
        try:
            await self.queue.submit(game_id, version)
        except Exception:  # Redis down: the workers' sweep finds the game (docs/deploy.md)
            log.exception("game %s: the server move could not be queued", game_id)

    def _in_background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _store_server_move(self, session: Session, ply: int, action: int) -> bool:
        """Apply and store an AI or chance move; a failed write (database down, disk full) is
        retried with exponential back-off (``retry_delays``) until it succeeds, so the game goes on
        by itself once the database is back. False if the row moved on without us (a lost race:
        the session was dropped from the cache, the next request loads the current row)."""
        attempt = 0
        while True:
            try:
                async with session.lock:
                    if session.ply != ply or not session.waiting_for_server():
                        return True  # the game moved on (a resignation): the caller looks again
                    await self._apply(session, action)
                return True
            except StorageError:
                delay = self.retry_delays[min(attempt, len(self.retry_delays) - 1)]
                attempt += 1
                log.warning(
                    "game %s: the move could not be stored (try %d); again in %.1f s",
                    session.id,
                    attempt,
                    delay,
                )
                await asyncio.sleep(delay)
            except ApiError as err:
                if err.code == "conflict":
                    return False
                raise

    def _agent(self, session: Session, player: int) -> Agent:
        agent = session.agents.get(player)
        if agent is None:
            level = session.seats[player].level or "random"
            agent = self.agent_factory(level, session.seed + 7919 * (player + 1))
            session.agents[player] = agent
        return agent

    async def hint(self, game_id: str, token: str, top: int) -> list[dict[str, Any]]:
        session = await self.get(game_id)
        if session.seat_of(token) is None:
            raise ApiError(403, "wrong_token", "hints are for the players of this game")
        if not session.hints_allowed():
            raise ApiError(
                403, "hints_off", "hints are off in a game between people (the creator may allow them)"
            )
        state = session.state.clone()
        if state.is_terminal() or state.is_chance_node() or session.status != "active":
            raise ApiError(409, "no_hint", "there is no move to hint at now")
        level = next((lv for lv in HINT_LEVELS if lv in self.levels), "random")
        agent = self.agent_factory(level, session.seed + session.ply)
        ranked = await asyncio.to_thread(agent.analyse, state, top)
        return [
            {"action": a, "move": state.action_to_string(a), "value": float(v), "agent": level}
            for a, v in ranked
        ]

    # --- writing ----------------------------------------------------------------------------
    async def _apply(self, session: Session, action: int) -> None:
        """Apply a legal action to copies, commit them, then make them current (lock held)."""
        before = session.state
        state = before.clone()
        record = copy.deepcopy(session.record)
        record.apply(state, action)  # ends the record when the game is over or its result settled
        status = "finished" if record.over else "active"
        await self._write(session, state, record, status)
        self.on_action()
        session.undo_stack.append((before, action))
        del session.undo_stack[:-UNDO_DEPTH]

    async def _lost_race(self, session: Session) -> ApiError:
        """The row moved on without this process (another process, or a write we thought failed):
        take the row, the single arbiter, as it is now (lock held), and push it here."""
        try:
            changed = await self._reload(session)
        except (StorageError, ApiError):
            changed = False
            if self.sessions.get(session.id) is session:  # the next request loads the row
                del self.sessions[session.id]
        if changed:
            self._in_background(self._push(session))
        return ApiError(409, "conflict", "the game was changed by another request; reload it and try again")

    async def _reload(self, session: Session) -> bool:
        """Bring a loaded game up to its row (lock held); True if the row had moved on."""
        stored = await asyncio.to_thread(self.store.get, session.id)
        if stored is None or stored.version == session.version:
            return False
        session.adopt(await asyncio.to_thread(_session_from_stored, stored))
        return True

    async def _write(self, session: Session, state: State, record: Record, status: str) -> None:
        """Store first (version-guarded), then change memory. A database failure raises
        StorageError (a clean 503 at the edge), a lost race a 409 ``conflict``."""
        try:
            await asyncio.to_thread(
                self.store.update,
                session.id,
                expect_version=session.version,
                version=session.version + 1,
                ply=len(record.moves),
                status=status,
                record=record.to_json(),
                snapshot=state.to_json(),
            )
        except VersionConflict:
            raise await self._lost_race(session) from None
        session.state = state
        session.record = record
        session.status = status
        session.updated_at = datetime.now(UTC)
        session.version += 1

    async def _write_seats(self, session: Session, seats: list[Seat]) -> None:
        try:
            await asyncio.to_thread(
                self.store.update_seats,
                session.id,
                [s.to_json() for s in seats],
                expect_version=session.version,
                version=session.version + 1,
            )
        except VersionConflict:
            raise await self._lost_race(session) from None
        session.seats = seats
        session.updated_at = datetime.now(UTC)
        session.version += 1

    # --- pushing ----------------------------------------------------------------------------
    def subscribe(self, session: Session) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        session.subscribers.add(queue)
        return queue

    def unsubscribe(self, session: Session, queue: asyncio.Queue[dict[str, Any]]) -> None:
        session.subscribers.discard(queue)

    async def watch(self, session: Session) -> asyncio.Queue[dict[str, Any]]:
        """Subscribe to a game's changes, those of other processes included (a shared broker hears
        of them before this returns, so the state sent next is never older than a push)."""
        await self.broker.watch(session.id)
        return self.subscribe(session)

    async def unwatch(self, session: Session, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self.unsubscribe(session, queue)
        await self.broker.unwatch(session.id)

    async def _broadcast(self, session: Session) -> None:
        """Push a change made here to this process's websockets, and tell the other processes."""
        await self._push(session)
        if self.broker.shared:
            try:
                await self.broker.publish(session.id, session.version)
            except Exception:  # stored already: the others see it on their next read
                log.exception("game %s: the change could not be announced", session.id)

    async def _push(self, session: Session) -> None:
        if not session.subscribers:
            return
        message = {"type": "state", "game": session.view()}
        for queue in list(session.subscribers):
            queue.put_nowait(message)

    def _on_notice(self, game_id: str, version: int | None) -> None:
        """Another process changed ``game_id`` (to ``version``; None: perhaps): reload and push."""
        session = self.sessions.get(game_id)
        if session is None or (version is not None and version <= session.version):
            return
        self._in_background(self._follow(session))

    async def _follow(self, session: Session) -> None:
        try:
            async with session.lock:
                changed = await self._reload(session)
        except (StorageError, ApiError) as err:
            log.warning("game %s changed elsewhere but cannot be reloaded: %s", session.id, err)
            return
        if changed:
            await self._push(session)

    # --- listing ----------------------------------------------------------------------------
    async def list_games(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.summaries, limit)
        out = []
        for row in rows:
            try:
                item = self._summary(row)
            except Exception:
                log.exception("game %r cannot be listed; left out of the lobby", row.get("id"))
                continue
            if not showable(item):
                log.error("game %r holds text that cannot be shown; left out of the lobby", row.get("id"))
                continue
            out.append(item)
        return out

    def _summary(self, row: Mapping[str, Any]) -> dict[str, Any]:
        session = self.sessions.get(row["id"])
        if session is not None:
            return session.summary()
        game = load_server_game(row["game"], row["options"])
        seats = [Seat.from_json(s) for s in row["seats"]]
        return {
            "id": row["id"],
            "game": game.name,
            "title": game.title,
            "options": row["options"],
            "seats": [s.public(i, game) for i, s in enumerate(seats)],
            "ply": row["ply"],
            "status": row["status"],
            "to_move": None,
            "result": None,
            "updated": _iso(row["updated_at"]),
        }


def _state_before_last(record: Record) -> tuple[State, int]:
    """The state before the record's last move, and that move's action."""
    try:
        before = record.replay(len(record.moves) - 1)
        return before, before.string_to_action(record.moves[-1].move)
    except (RecordError, PalaestraError) as err:
        raise ApiError(500, "broken_game", f"the game does not replay: {err}") from None


def _trim(analysis: dict[str, Any], top: int) -> dict[str, Any]:
    return {**analysis, "top": analysis["top"][:top]}


def _iso(value: Any) -> str:
    return value.isoformat(timespec="seconds") if isinstance(value, datetime) else str(value)


def _session_from_stored(stored: StoredGame) -> Session:
    """Rebuild a session: the snapshot if it agrees with the record, else a replay of the record."""
    try:
        game = load_server_game(stored.game, stored.options)
    except ApiError as err:
        raise ApiError(500, "broken_game", f"game {stored.id} cannot be loaded: {err.message}") from None
    try:
        record = Record.from_json(stored.record)
    except RecordError as err:
        raise ApiError(500, "broken_game", f"game {stored.id} has a broken record: {err}") from None
    state: State | None = None
    try:
        state = game.state_from_json(stored.snapshot)
        if len(state.history) != len(record.moves):
            state = None
    except Exception:
        state = None
    if state is None:
        try:
            state = record.replay()
        except RecordError as err:
            raise ApiError(500, "broken_game", f"game {stored.id} does not replay: {err}") from None
    seats = [Seat.from_json(s) for s in stored.seats]
    created = _aware(stored.created_at)
    updated = _aware(stored.updated_at)
    undo_stack: list[tuple[State, int]] = []
    moves = record.moves
    if (
        stored.status == "active"
        and moves
        and moves[-1].player == state.current_player
        and hasattr(web_module(game.name), "can_undo")
    ):
        # a turn in progress of a game with undo: rebuild the state before its last action now, so
        # the view can offer the undo at once (one replay, only for turns in progress)
        with contextlib.suppress(ApiError):
            undo_stack.append(_state_before_last(record))
    return Session(
        stored.id,
        game,
        seats,
        stored.seed,
        state,
        record,
        stored.status,
        created,
        updated,
        version=stored.version,
        undo_stack=undo_stack,
        public=stored.public,
        hints=stored.hints,
        creator_hash=stored.creator_hash,
        secret=stored.secret,
    )


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)

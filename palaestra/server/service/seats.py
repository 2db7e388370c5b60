"""Creating games and managing their seats: tokens, single-use invitations, the creator's rights.

Who holds what (docs/web.md, "Security model"):

- the creator gets a *creator token* (manage invitations) and the seat tokens of the seats they
  hold themselves (``joined``); for every other human seat an *invitation code*;
- joining uses the code up and gives the joiner a fresh seat token that nobody else learns;
- the creator can withdraw an unused invitation and issue a new one; a used or withdrawn code
  says so (410). Only hashes of tokens and codes are stored.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from palaestra.core.game import Game
from palaestra.core.record import Record
from palaestra.server import fairness
from palaestra.server.account_store import Account, seat_players
from palaestra.server.service.clock import Clock, TimeControl
from palaestra.server.service.errors import DomainError
from palaestra.server.service.persistence import load_server_game
from palaestra.server.service.ratings import anchor_rating, pool_of
from palaestra.server.service.session import Seat, Session, hash_token, same_secret
from palaestra.server.service.sessions import Sessions


@dataclass
class Created:
    """What only the creator of a game learns: their token(s), the invitation codes."""

    creator_token: str
    tokens: list[str | None] = field(default_factory=list)  # the creator's own seats
    invites: list[str | None] = field(default_factory=list)  # codes of the seats offered to friends


@dataclass(frozen=True)
class Held:
    """A seat taken in the lobby (issue 29): the hash of its token (the lobby makes the token and
    hands it out), the account that holds it (None: a guest) and the name shown."""

    token_hash: str
    account: Account | None
    name: str


class SeatService:
    """Creates games and hands out their seats."""

    def __init__(self, sessions: Sessions, levels: list[str], kick: Callable[[Session], None]) -> None:
        self.sessions = sessions
        #: the AI levels a seat may have
        self.levels = levels
        #: starts the server's moves of a new game (AI or chance first)
        self.kick = kick

    async def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seats: list[Mapping[str, Any]],
        seed: int | None = None,
        *,
        public: bool = False,
        hints: bool = False,
        time_control: Mapping[str, Any] | None = None,
        rated: bool = False,
        member: Account | None = None,
        held: Sequence[Held | str] | None = None,
        game_id: str | None = None,
    ) -> tuple[Session, Created]:
        """A new game. The creator gets the tokens of the seats they hold (``joined``), an
        invitation code for each other human seat, and a creator token (to manage invitations).
        ``time_control`` (bounds checked by the API's model) gives the game a clock. A signed-in
        creator (``member``) holds their seats by account too; ``rated`` makes a rated game
        (docs/accounts.md: accounts only, a clock, no undo, no hints, no chosen seed). A rated game
        is always ``public`` (listed for spectators, issue 29). ``held``: a game of the lobby,
        every seat a person's, taken already (``seats`` is not used; a rematch's may hold AI levels,
        ``str``, for its AI seats); ``game_id``: the id the lobby
        chose for it (stored with the seek first, so a game made by a process that died before
        it could say so is found)."""
        public = public or rated
        game = load_server_game(game_name, options)
        control = self._time_control(time_control, seats)
        if held is not None:
            seats = [
                {"kind": "human", "joined": True} if isinstance(h, Held) else {"kind": "ai", "level": h}
                for h in held
            ]
        if rated:
            check_rated_seats(game, seats, control, seed, hints, member, held)
        if len(seats) != game.num_players:
            raise DomainError(
                "bad_seats",
                f"{game.title} with these options has {game.num_players} players, "
                f"but {len(seats)} seats were given",
            )
        made, created = self._seats(seats, member) if held is None else self._held(held)
        if seed is not None and any(s.invite is not None for s in made):
            raise DomainError(
                "seed_not_allowed",
                "a chosen seed would let you foresee the draws against an invited player; "
                "seeds are for hot seat and games against the AI",
            )
        secret = fairness.new_secret() if seed is None else fairness.seeded_secret(seed)
        # the stored seed (a random one unless chosen: hints, analysis); the AI seats' agents are
        # seeded from the secret by the one rule (palaestra/core/chance.py, runner.py)
        stored_seed = seed if seed is not None else secrets.randbits(31)
        state = game.new_initial_state(seed)
        record = Record.start(game, [s.name or game.player_name(i) for i, s in enumerate(made)], seed)
        stamp = datetime.now(UTC)
        game_id = game_id or secrets.token_hex(6)
        creator_hash = hash_token(created.creator_token)
        session = Session(
            game_id,
            game,
            made,
            stored_seed,
            state,
            record,
            "active",
            stamp,
            stamp,
            public=public,
            hints=hints,
            creator_hash=creator_hash,
            secret=secret,
            rated=rated,
        )
        if control is not None:
            now = self.sessions.now()
            clock = Clock.new(control, game.num_players, now)
            session.clock = clock.advance(session.timed_seat(state, "active", made), now)
        players = [(i, s.account) for i, s in enumerate(made) if s.account is not None]
        then = seat_players(game_id, game.name, players, stamp)
        await self.sessions.insert(session, then, None if member is None else member.id)
        self.kick(session)
        return session, created

    def _seats(self, seats: list[Mapping[str, Any]], member: Account | None) -> tuple[list[Seat], Created]:
        """The seats of a new game, and what only its creator learns: the tokens of the seats
        they hold (bound to their account when signed in), the invitation codes of the others."""
        created = Created(secrets.token_urlsafe(18))
        made: list[Seat] = []
        for index, spec in enumerate(seats):
            kind = spec.get("kind", "human")
            name = str(spec.get("name") or "")
            token: str | None = None
            code: str | None = None
            if kind == "human" and spec.get("joined", False):
                token = secrets.token_urlsafe(18)
                seat = Seat("human", name, None, hash_token(token), True, creator=True)
                if member is not None:
                    seat.account, seat.member, seat.name = member.id, member.username, member.username
                made.append(seat)
            elif kind == "human":
                code = secrets.token_urlsafe(18)
                made.append(
                    Seat("human", name, None, None, False, invite_hash=hash_token(code), invite="open")
                )
            elif kind == "ai":
                level = str(spec.get("level") or "random")
                if level not in self.levels:
                    raise DomainError(
                        "bad_seats",
                        f"seat {index + 1}: unknown AI level {level!r} (levels: {', '.join(self.levels)})",
                    )
                made.append(Seat("ai", name or f"AI ({level})", level, None, True))
            else:
                raise DomainError("bad_seats", f"seat {index + 1}: kind is 'human' or 'ai', not {kind!r}")
            created.tokens.append(token)
            created.invites.append(code)
        return made, created

    @staticmethod
    def _held(held: Sequence[Held | str]) -> tuple[list[Seat], Created]:
        """The seats of a lobby game: each held by its taker, by the token the lobby made (and by
        account for a member); nobody is the creator (there are no invitations to manage), and no
        token is told here (the lobby tells each taker theirs)."""
        created = Created(secrets.token_urlsafe(18))
        made = []
        for h in held:
            if isinstance(h, str):  # an AI seat of a rematch
                made.append(Seat("ai", f"AI ({h})", h, None, True))
                created.tokens.append(None)
                created.invites.append(None)
                continue
            seat = Seat("human", h.name, None, h.token_hash, True)
            if h.account is not None:
                seat.account, seat.member, seat.name = h.account.id, h.account.username, h.account.username
            made.append(seat)
            created.tokens.append(None)
            created.invites.append(None)
        return made, created

    def _time_control(
        self, doc: Mapping[str, Any] | None, seats: list[Mapping[str, Any]]
    ) -> TimeControl | None:
        """The game's time control; the AI that plays a turn whose time ran out is the level
        chosen, else the level of the game's first AI seat, else the gentlest offered."""
        if not doc:
            return None
        level = doc.get("ai_level")
        if level is not None and level not in self.levels:
            raise DomainError(
                "bad_time_control",
                f"unknown AI level {level!r} for turns out of time (levels: {', '.join(self.levels)})",
            )
        if doc.get("on_timeout") == "ai" and level is None:
            chosen = [
                s.get("level") for s in seats if s.get("kind") == "ai" and s.get("level") in self.levels
            ]
            gentle = next(
                (lv for lv in ("casual", "beginner", "random") if lv in self.levels), self.levels[0]
            )
            level = chosen[0] if chosen else gentle
        return TimeControl.from_json({**doc, "ai_level": level})

    async def join(
        self, game_id: str, code: str, name: str | None, member: Account | None = None
    ) -> tuple[int, str]:
        """Take the seat of an invitation: the code is used up, the joiner gets a fresh token
        (and a signed-in joiner holds the seat by account too)."""
        session = await self.sessions.get(game_id)
        joined = await self.sessions.judge(session, lambda s: self._join(s, code, name, member))
        await self.sessions.broadcast(session)
        self.kick(session)  # the game waited for this player: an AI or chance to move plays now
        return joined

    async def invitation(self, game_id: str, code: str) -> tuple[Session, int, str]:
        """What an invitation code offers, without using it up: the game, the seat and whether
        the code is ``"open"``, ``"used"`` or ``"revoked"`` (the join page says so before the
        guest types a name). A code of no seat of the game is 403 ``wrong_token``."""
        session = await self.sessions.get(game_id)
        digest = hash_token(code)
        for i, s in enumerate(session.seats):
            if s.invite_hash is not None and same_secret(s.invite_hash, digest):
                return session, i, s.invite or "open"
        for i, s in enumerate(session.seats):
            if any(same_secret(h, digest) for h in s.revoked):
                return session, i, "revoked"
        raise DomainError("wrong_token", "this link does not belong to a seat of this game")

    async def _join(
        self, session: Session, code: str, name: str | None, member: Account | None
    ) -> tuple[int, str]:
        async with session.lock:
            session.check_playable("the game is over: nobody can join it any more")
            if session.rated and member is None:
                raise DomainError("sign_in_required", "a rated game is for members: sign in to join it")
            digest = hash_token(code)
            seat = next(
                (
                    i
                    for i, s in enumerate(session.seats)
                    if s.invite_hash is not None and same_secret(s.invite_hash, digest)
                ),
                None,
            )
            if seat is None:
                if any(any(same_secret(h, digest) for h in s.revoked) for s in session.seats):
                    raise DomainError(
                        "invitation_revoked", "this invitation was withdrawn by the game's creator"
                    )
                raise DomainError("wrong_token", "this link does not belong to a seat of this game")
            if session.seats[seat].invite == "used":
                raise DomainError("invitation_used", "this invitation was used already: the seat is taken")
            if session.seats[seat].invite == "revoked":
                raise DomainError("invitation_revoked", "this invitation was withdrawn by the game's creator")
            token = secrets.token_urlsafe(18)
            new_seats = copy.deepcopy(session.seats)
            taken = new_seats[seat]
            taken.joined = True
            taken.invite = "used"
            taken.token_hash = hash_token(token)
            if name:
                taken.name = name
            then = None
            if member is not None:
                if session.rated and any(s.account == member.id for s in session.seats):
                    raise DomainError("already_seated", "you hold a seat of this rated game already")
                taken.account, taken.member, taken.name = member.id, member.username, member.username
                then = seat_players(session.id, session.game.name, [(seat, member.id)], datetime.now(UTC))
            await self.sessions.commit(session, session.seated(new_seats), then)
        return seat, token

    async def claim(self, game_id: str, token: str, member: Account) -> int:
        """A guest who signed up binds a seat they hold by token to their account (its games
        appear on their profile; they act from any device). The token keeps working."""
        session = await self.sessions.get(game_id)
        return await self.sessions.judge(session, lambda s: self._claim(s, token, member))

    async def _claim(self, session: Session, token: str, member: Account) -> int:
        async with session.lock:
            seat = session.seat_of(token)
            if seat is None:
                raise DomainError("wrong_token", "this token does not belong to a seat of this game")
            held = session.seats[seat]
            if held.account == member.id:
                return seat
            if held.account is not None:
                raise DomainError("seat_taken", "this seat is held by another member")
            new_seats = copy.deepcopy(session.seats)
            new_seats[seat].account, new_seats[seat].member = member.id, member.username
            then = seat_players(session.id, session.game.name, [(seat, member.id)], datetime.now(UTC))
            await self.sessions.commit(session, session.seated(new_seats), then)
        await self.sessions.broadcast(session)
        return seat

    async def reinvite(self, game_id: str, creator_token: str, seat: int, *, new: bool) -> str | None:
        """The creator withdraws a seat's unused invitation and (``new``) issues a fresh code."""
        session = await self.sessions.get(game_id)
        code = await self.sessions.judge(session, lambda s: self._reinvite(s, creator_token, seat, new))
        await self.sessions.broadcast(session)
        return code

    async def _reinvite(self, session: Session, creator_token: str, seat: int, new: bool) -> str | None:
        async with session.lock:
            if session.creator_hash is None or not same_secret(
                session.creator_hash, hash_token(creator_token)
            ):
                raise DomainError("not_creator", "only the game's creator manages its invitations")
            if not 0 <= seat < len(session.seats):
                raise DomainError("no_such_seat", f"the game has seats 0 to {len(session.seats) - 1}")
            session.check_playable()
            current = session.seats[seat]
            if current.kind != "human" or current.creator:
                raise DomainError("no_invitation", "this seat is not offered by invitation")
            if current.invite == "used" or current.joined:
                raise DomainError("seat_taken", "the invitation was used: the seat is taken")
            new_seats = copy.deepcopy(session.seats)
            changed = new_seats[seat]
            if changed.invite_hash is not None:
                changed.revoked.append(changed.invite_hash)
            code = secrets.token_urlsafe(18) if new else None
            changed.invite_hash = hash_token(code) if code is not None else None
            changed.invite = "open" if code is not None else "revoked"
            await self.sessions.commit(session, session.seated(new_seats))
        return code


def check_rated(
    seats: list[Mapping[str, Any]],
    control: TimeControl | None,
    seed: int | None,
    hints: bool,
    member: Account | None,
) -> None:
    """The rules of a rated game (docs/accounts.md): the creator is signed in and holds one seat
    at most, every other person joins signed in, there is a clock, no hints and no chosen seed."""

    def refuse(why: str) -> DomainError:
        return DomainError("bad_rated", f"a rated game {why}")

    if member is None:
        raise DomainError("sign_in_required", "a rated game is for members: sign in to create one")
    if control is None:
        raise refuse("needs a clock (time_control)")
    if hints:
        raise refuse("allows no hints")
    if seed is not None:
        raise refuse("draws its own chance secret: no chosen seed")
    own = sum(1 for s in seats if s.get("kind", "human") == "human" and s.get("joined", False))
    if own > 1:
        raise refuse("has one member in each human seat: hold one seat, invite the others")
    if not any(s.get("kind", "human") == "human" for s in seats):
        raise refuse("needs a person in it")


def check_anchors(game: Game, seats: list[Mapping[str, Any]]) -> None:
    """A rated game against the AI needs the level's fixed rating in the game's pool (measured
    by the arena and declared by the game, ``GameInfo.ai_ratings``; docs/accounts.md)."""
    pool = pool_of(game)
    for spec in seats:
        if spec.get("kind") == "ai":
            level = str(spec.get("level") or "random")
            try:
                anchor_rating(pool.id, level)
            except KeyError:
                raise DomainError(
                    "bad_rated", f"the AI level {level!r} has no rating in {pool.title}: play it casual"
                ) from None


def check_rated_seats(
    game: Game,
    seats: list[Mapping[str, Any]],
    control: TimeControl | None,
    seed: int | None,
    hints: bool,
    member: Account | None,
    held: Sequence[Held | str] | None,
) -> None:
    """The rules of a rated game (docs/accounts.md) for a game created by a member (``held`` is
    None) or made by the lobby from its seats taken (every one a member's, issue 29)."""
    if held is None:
        check_rated(seats, control, seed, hints, member)
    elif control is None or any(isinstance(h, Held) and h.account is None for h in held):
        raise DomainError("bad_rated", "a rated game needs a clock and members in every seat")
    check_anchors(game, seats)

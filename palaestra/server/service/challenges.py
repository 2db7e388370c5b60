"""Challenges to a named member (issue 29, part 4; docs/web.md, "Challenges"), as on Lichess.

A member offers another member a game (its options, clock, rated or casual); the challenged member
accepts it (the game starts at once, made by the lobby's path for games of people who met here:
:meth:`SeekService.make_game`), declines it with a reason from :data:`DECLINE_REASONS`, or lets it
expire; the challenger may cancel it while it is open. Members choose who may challenge them
(everyone, people they have played, nobody).

Every answer is an update guarded by the challenge's version and status
(palaestra/server/challenge_store.py): of two accepts at once, in one process or two, exactly one
makes a game; the other is told the challenge is no longer open (410 ``challenge_gone``).

Both members see every change live on their lobby websockets, in this process and (through the
broker's lobby channel) in the others: ``{"type": "challenge", "challenge": CHALLENGE}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, get_args

from palaestra.core.errors import PalaestraError
from palaestra.core.registry import game_info
from palaestra.server.account_store import Account, AccountStore
from palaestra.server.challenge_store import (
    ACCEPTED,
    CANCELLED,
    DECLINED,
    EXPIRED,
    FAILED,
    FROM_CHOICES,
    FROM_NOBODY,
    FROM_PLAYED,
    OPEN,
    STARTING,
    ChallengeConflict,
    ChallengeStore,
    StoredChallenge,
)
from palaestra.server.db import Then
from palaestra.server.service.errors import DomainError
from palaestra.server.service.periodic import Periodic
from palaestra.server.service.seats import Held
from palaestra.server.service.seeks import RETRIES, SeekService, Wanted
from palaestra.server.service.session import hash_token

log = logging.getLogger("palaestra.server.challenges")

#: every pushed challenge message starts so (the lobby channel carries it beside the seeks')
PREFIX = '{"type": "challenge"'

DeclineReason = Literal[
    "generic", "later", "too_fast", "too_slow", "time_control", "rated", "casual", "game", "options"
]
#: why a challenge is declined (the reason's id, and its text as the challenger reads it)
DECLINE_REASONS: dict[str, str] = {
    "generic": "I am not accepting challenges at the moment.",
    "later": "This is not the right time for me, please ask again later.",
    "too_fast": "This time control is too fast for me, please challenge again with a slower game.",
    "too_slow": "This time control is too slow for me, please challenge again with a faster game.",
    "time_control": "I am not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual challenge instead.",
    "game": "I am not accepting challenges to this game right now.",
    "options": "I am not accepting challenges with these options, please try others.",
}
assert tuple(DECLINE_REASONS) == get_args(DeclineReason)

#: how long a challenge waits for its answer: a real-time game's 20 minutes, a correspondence
#: game's (or one without a clock) a day
REAL_TIME_SECONDS = 20 * 60.0
SLOW_SECONDS = 24 * 3600.0
#: the most open challenges one member may have made
MAX_OPEN = 20


def gone(challenge: StoredChallenge, now: datetime) -> DomainError:
    status = challenge.status_at(now)
    return DomainError("challenge_gone", f"this challenge is no longer open ({status})")


class ChallengeService(Periodic):
    """Challenges between members, and their live pushes, of one process."""

    swept = "challenges"

    def __init__(self, store: ChallengeStore, accounts: AccountStore, lobby: SeekService) -> None:
        self.store = store
        self.accounts = accounts
        self.lobby = lobby
        #: the time (tests set a clock of their own)
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        self.real_time_seconds = REAL_TIME_SECONDS
        self.slow_seconds = SLOW_SECONDS
        #: answered challenges stay in their members' lists this long (seconds)
        self.recent_seconds = 3600.0
        #: what else a new challenge writes in its transaction (given it, the challenger's name
        #: and the game's title): the challenged member's notification (notifications.py); and
        #: what to call once it is committed (has it sent)
        self.on_made: Callable[[StoredChallenge, str, str], Then | None] = lambda c, name, title: None
        self.after_made: Callable[[], None] = lambda: None
        #: an accepted challenge whose game is not stored this long (seconds) after the accept
        #: failed (its process died while making it): the sweep says so
        self.starting_grace = 60.0
        #: the lobby websockets of each signed-in member in this process
        self.subscribers: dict[int, set[asyncio.Queue[str]]] = {}

    def meta(self) -> dict[str, Any]:
        """What ``/api/meta`` says of challenges."""
        return {
            "decline_reasons": [{"id": k, "text": v} for k, v in DECLINE_REASONS.items()],
            "expire_seconds": {"real_time": self.real_time_seconds, "slow": self.slow_seconds},
            "challenges_from": list(FROM_CHOICES),
        }

    # --- live changes -----------------------------------------------------------------------
    def subscribe(self, account_id: int, queue: asyncio.Queue[str]) -> None:
        self.subscribers.setdefault(account_id, set()).add(queue)

    def unsubscribe(self, account_id: int, queue: asyncio.Queue[str]) -> None:
        queues = self.subscribers.get(account_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.subscribers[account_id]

    def on_message(self, message: str) -> bool:
        """A lobby channel message: a challenge's is pushed to its two members' websockets here
        (True); any other is not ours (False)."""
        if not message.startswith(PREFIX):
            return False
        try:
            doc = json.loads(message)
            members = [int(a) for a in doc.pop("for")]
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("a challenge message that is not ours: %r", message[:200])
            return True
        out = json.dumps(doc)
        for account_id in members:
            for queue in list(self.subscribers.get(account_id, ())):
                queue.put_nowait(out)
        return True

    async def _push(self, challenge: StoredChallenge) -> None:
        """Both members' websockets, in every process, learn the challenge as it is now."""
        doc = await self.doc(challenge)
        members = [challenge.challenger_id, challenge.challenged_id]
        message = json.dumps({"type": "challenge", "challenge": doc, "for": members})
        self.on_message(message)
        await self.lobby.feed.broker.publish_lobby(message)

    async def _announce(self, challenge: StoredChallenge) -> None:
        """A challenge was made: the challenged member is told so beyond their open pages (the
        "a challenge for you" notification, issue 29 part 9: queued with the challenge by
        ``on_made``, sent from here once committed)."""
        self.after_made()

    # --- reading ----------------------------------------------------------------------------
    async def doc(self, challenge: StoredChallenge) -> dict[str, Any]:
        names = await asyncio.to_thread(
            self.accounts.names, [challenge.challenger_id, challenge.challenged_id]
        )
        try:
            title = game_info(challenge.game).title
        except PalaestraError:  # a game no longer offered here: its challenge is still listed
            title = challenge.game
        status = challenge.status_at(self.now())
        return {
            "id": challenge.id,
            "from": names.get(challenge.challenger_id),
            "to": names.get(challenge.challenged_id),
            "game": challenge.game,
            "title": title,
            "options": challenge.options,
            "time_control": challenge.time_control,
            "rated": challenge.rated,
            "public": challenge.public or challenge.rated,
            "status": status,
            "decline_reason": challenge.decline_reason,
            "decline_text": None
            if challenge.decline_reason is None
            else DECLINE_REASONS.get(challenge.decline_reason),
            "created": challenge.created_at.isoformat(),
            "expires": challenge.expires_at.isoformat(),
            "game_id": challenge.game_id if status == ACCEPTED else None,
            "challenger_seat": challenge.challenger_seat if status == ACCEPTED else None,
        }

    async def listing(self, member: Account) -> dict[str, list[dict[str, Any]]]:
        """The member's challenges: ``incoming`` (open ones made to them) and ``outgoing`` (the
        ones they made, open or answered in the last ``recent_seconds``), newest first."""
        now = self.now()
        since = now - timedelta(seconds=self.recent_seconds)
        found = await asyncio.to_thread(self.store.of_member, member.id, since)
        incoming, outgoing = [], []
        for challenge in found:
            is_open = challenge.status_at(now) == OPEN
            if challenge.challenged_id == member.id and is_open:
                incoming.append(await self.doc(challenge))
            elif challenge.challenger_id == member.id and (
                is_open or (challenge.answered_at or challenge.expires_at) >= since
            ):
                outgoing.append(await self.doc(challenge))
        return {"incoming": incoming, "outgoing": outgoing}

    async def export(self, member: Account) -> dict[str, Any]:
        """What the account's export holds of challenges: who may challenge the member, and
        their challenges made and received (the newest 1000)."""
        epoch = datetime(1970, 1, 1, tzinfo=UTC)
        found = await asyncio.to_thread(self.store.of_member, member.id, epoch, 1000)
        return {
            "challenges_from": await self.challenges_from(member),
            "challenges": [await self.doc(c) for c in found],
        }

    async def _get(self, challenge_id: str, member: Account) -> StoredChallenge:
        """A challenge the member made or received (404 for any other: nobody learns of others')."""
        challenge = await asyncio.to_thread(self.store.get, challenge_id)
        if challenge is None or member.id not in (challenge.challenger_id, challenge.challenged_id):
            raise DomainError("challenge_not_found", "you have no challenge with this id")
        return challenge

    async def get(self, challenge_id: str, member: Account) -> dict[str, Any]:
        return await self.doc(await self._get(challenge_id, member))

    # --- making -----------------------------------------------------------------------------
    def lifetime(self, time_control: Mapping[str, Any] | None) -> float:
        """Seconds a challenge waits: a day for a slow game (correspondence, or no clock), 20
        minutes for a real-time one."""
        if time_control is None or time_control.get("type") == "correspondence":
            return self.slow_seconds
        return self.real_time_seconds

    async def create(
        self,
        member: Account,
        to: str,
        wanted: Wanted,
        public: bool = True,
    ) -> dict[str, Any]:
        """Challenge the member named ``to`` to the game ``wanted`` (two players)."""
        challenged = await asyncio.to_thread(self.accounts.by_name, to)
        if challenged is None:
            raise DomainError("user_not_found", f"no member is named {to!r}")
        if challenged.closed:
            raise DomainError("user_not_found", f"{challenged.username} closed their account")
        if challenged.id == member.id:
            raise DomainError("bad_challenge", "you cannot challenge yourself")
        await self._may_challenge(member, challenged)
        full, _ = self.lobby.check(replace(wanted, players=2, member=member))
        now = self.now()
        if await asyncio.to_thread(self.store.open_count, member.id, now) >= MAX_OPEN:
            raise DomainError(
                "too_many_challenges",
                f"you have {MAX_OPEN} open challenges: cancel one or wait for answers",
            )
        clock = None if wanted.time_control is None else dict(wanted.time_control)
        challenge = StoredChallenge(
            secrets.token_hex(6),
            member.id,
            challenged.id,
            wanted.game,
            full,
            clock,
            wanted.rated,
            public or wanted.rated,
            now,
            now + timedelta(seconds=self.lifetime(clock)),
            OPEN,
        )
        then = self.on_made(challenge, member.username, game_info(wanted.game).title)
        await asyncio.to_thread(self.store.insert, challenge, then)
        await self._push(challenge)
        await self._announce(challenge)
        return await self.doc(challenge)

    async def _may_challenge(self, member: Account, challenged: Account) -> None:
        """The challenged member's choice of who may challenge them (403 ``challenge_refused``)."""
        choice = await asyncio.to_thread(self.store.challenges_from, challenged.id)
        if choice == FROM_NOBODY:
            raise DomainError("challenge_refused", f"{challenged.username} does not accept challenges")
        if choice == FROM_PLAYED and not await asyncio.to_thread(
            self.store.have_played, member.id, challenged.id
        ):
            raise DomainError(
                "challenge_refused",
                f"{challenged.username} accepts challenges only from people they have played",
            )

    async def challenges_from(self, member: Account) -> str:
        """Who may challenge the member: ``everyone``, ``played`` or ``nobody``."""
        return await asyncio.to_thread(self.store.challenges_from, member.id)

    async def set_challenges_from(self, member: Account, choice: str) -> None:
        await asyncio.to_thread(self.store.set_challenges_from, member.id, choice)

    # --- answering --------------------------------------------------------------------------
    async def accept(self, challenge_id: str, member: Account) -> dict[str, Any]:
        """The challenged member accepts: the game is made at once → ``{"game", "seat",
        "token", "challenge"}`` (the challenger holds their seat by account, and learns the game
        from the pushed challenge or their list)."""
        for _ in range(RETRIES):
            challenge = await self._open(challenge_id, member, challenged=True)
            challenger = await asyncio.to_thread(self.accounts.by_id, challenge.challenger_id)
            if challenger is None or challenger.closed:
                with contextlib.suppress(ChallengeConflict):
                    await self._end(challenge, FAILED)
                raise DomainError("challenge_gone", "the challenger's account is closed")
            mine = random.SystemRandom().randrange(2)
            try:  # the game's id is stored first: a game made by a process that died is found
                taken = await asyncio.to_thread(
                    self.store.change,
                    challenge,
                    status=STARTING,
                    game_id=secrets.token_hex(6),
                    challenger_seat=1 - mine,
                    answered_at=self.now(),
                )
            except ChallengeConflict:
                continue
            token = secrets.token_urlsafe(18)
            seats = {
                1 - mine: Held(hash_token(secrets.token_urlsafe(18)), challenger, challenger.username),
                mine: Held(hash_token(token), member, member.username),
            }
            held: list[Held | str] = [seats[0], seats[1]]
            assert taken.game_id is not None
            try:
                session = await self.lobby.make_game(
                    taken.game,
                    taken.options,
                    taken.time_control,
                    taken.rated,
                    held,
                    taken.game_id,
                    public=taken.public,
                )
            except DomainError:
                with contextlib.suppress(ChallengeConflict):
                    await self._end(taken, FAILED)
                raise
            await self.lobby.feed.announce_game(session)
            with contextlib.suppress(ChallengeConflict):  # else a sweep found the game first
                taken = await self._end(taken, ACCEPTED)
            return {
                "game": session.id,
                "seat": mine,
                "token": token,
                "challenge": await self.doc(replace(taken, status=ACCEPTED)),
            }
        raise DomainError("conflict", "the challenge was changed by other requests at the same time")

    async def decline(self, challenge_id: str, member: Account, reason: str) -> dict[str, Any]:
        if reason not in DECLINE_REASONS:
            raise DomainError("bad_request", f"reasons: {', '.join(DECLINE_REASONS)}")
        return await self._answer(challenge_id, member, DECLINED, reason)

    async def cancel(self, challenge_id: str, member: Account) -> dict[str, Any]:
        return await self._answer(challenge_id, member, CANCELLED, None)

    async def _answer(
        self, challenge_id: str, member: Account, status: str, reason: str | None
    ) -> dict[str, Any]:
        for _ in range(RETRIES):
            challenge = await self._open(challenge_id, member, challenged=status == DECLINED)
            try:
                ended = await self._end(challenge, status, reason)
            except ChallengeConflict:
                continue
            return await self.doc(ended)
        raise DomainError("conflict", "the challenge was changed by other requests at the same time")

    async def _open(self, challenge_id: str, member: Account, *, challenged: bool) -> StoredChallenge:
        """The open challenge that ``member`` may answer: as the challenged (accept, decline) or
        as the challenger (cancel)."""
        challenge = await self._get(challenge_id, member)
        if challenged and member.id != challenge.challenged_id:
            raise DomainError(
                "not_challenged", "this is your own challenge: only the member challenged answers it"
            )
        if not challenged and member.id != challenge.challenger_id:
            raise DomainError("not_challenger", "only the challenger may cancel a challenge")
        now = self.now()
        if challenge.status == OPEN and challenge.expires_at <= now:
            with contextlib.suppress(ChallengeConflict):
                await self._end(challenge, EXPIRED)
        if challenge.status_at(now) != OPEN:
            raise gone(challenge, now)
        return challenge

    async def _end(
        self, challenge: StoredChallenge, status: str, reason: str | None = None
    ) -> StoredChallenge:
        values: dict[str, Any] = {"status": status}
        if challenge.answered_at is None:
            values["answered_at"] = self.now()
        if reason is not None:
            values["decline_reason"] = reason
        ended = await asyncio.to_thread(self.store.change, challenge, **values)
        await self._push(ended)
        return ended

    # --- expiry -----------------------------------------------------------------------------
    async def sweep(self) -> int:
        """End the open challenges past their time (``expired``); say of those accepted
        ``starting_grace`` seconds ago whose game was not said to be made (the process making it
        died, or is still at it) that it was (``accepted``) or was not (``failed``). Each change is guarded:
        of several processes sweeping at once, one writes it and pushes it."""
        now = self.now()
        done = 0
        for challenge in await asyncio.to_thread(
            self.store.stale, now, now - timedelta(seconds=self.starting_grace)
        ):
            status = EXPIRED
            if challenge.status == STARTING:
                assert challenge.game_id is not None
                made = await asyncio.to_thread(self.lobby.store.store.version, challenge.game_id)
                status = FAILED if made is None else ACCEPTED
            with contextlib.suppress(ChallengeConflict):
                await self._end(challenge, status)
                done += 1
        return done

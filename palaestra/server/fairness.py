"""Chance nobody can predict and everybody can verify (issue 17; the proof is in docs/web.md).

Every game has a secret (256 random bits from :mod:`secrets`) that no view shows. At creation the
view publishes its SHA-256, the *commitment*. The draw at ply ``p`` (a chance node: a tile, a
set-up) is ``state.sample_chance(random.Random(f"{secret}:{p}"))``: a function of the secret and the
ply only, never of the moves: the one chance-seeding rule of every driver
(palaestra/core/chance.py) with the secret as its key. When the game is over its record
(``GET /api/games/ID/record``) reveals the secret under ``"chance"``, and ``palaestra replay``
checks the commitment and every draw (:func:`verify`).

A seed chosen by a client (allowed only where no human opponent can be disadvantaged: hot seat or
against the AI) becomes the secret ``"seed:N"``, so such a game is reproducible from its seed.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from palaestra.core.chance import CHANCE_RULE, ChanceSource, seed_key
from palaestra.core.driver import check_draws
from palaestra.core.errors import PalaestraError
from palaestra.core.record import Record

#: the scheme named in views and records: the one chance-seeding rule keyed by the secret
SCHEME = f"{CHANCE_RULE}: sha256(secret) commitment; draw at ply p from random.Random(f'{{secret}}:{{p}}')"


def new_secret() -> str:
    return secrets.token_hex(32)


def seeded_secret(seed: int) -> str:
    """The secret of a game whose creator chose the seed: the key the one chance rule gives the
    seed everywhere (``palaestra play --seed``, the arena), so it draws the same outcomes."""
    return seed_key(seed)


def commitment(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def chance_rng(secret: str, ply: int) -> random.Random:
    """The generator of the draw at ``ply`` (Python seeds a string through SHA-512: the same on
    every platform and version of Python 3)."""
    return ChanceSource(secret).rng(ply)


def chance_doc(secret: str | None, revealed: bool) -> dict[str, Any] | None:
    """What views and records say about the draws: the commitment, and the secret once revealed."""
    if secret is None:
        return None
    return {"scheme": SCHEME, "commitment": commitment(secret), "secret": secret if revealed else None}


@dataclass
class Verdict:
    fair: bool
    draws: int
    message: str


def verify(record: Record, chance: Mapping[str, Any]) -> Verdict:
    """Check a finished game's draws against its revealed secret and the published commitment."""
    secret, promised = chance.get("secret"), chance.get("commitment")
    if not isinstance(secret, str) or not isinstance(promised, str):
        return Verdict(False, 0, "the record does not reveal the chance secret (is the game over?)")
    if commitment(secret) != promised.lower():
        return Verdict(False, 0, "the revealed secret does not match the commitment published at the start")
    try:
        draws, problem = check_draws(record, ChanceSource(secret))
    except PalaestraError as err:
        return Verdict(False, 0, f"the record does not replay: {err}")
    if problem is not None:
        return Verdict(False, draws, problem.replace("the rule gives", "the secret gives"))
    return Verdict(True, draws, f"all {draws} draws follow from the committed secret")

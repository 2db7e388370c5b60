"""The one chance-seeding rule: which outcome a chance node draws, given a seed or a secret.

A state holds no random generator (docs/core.md, *Chance*); whoever drives a game draws its
chance outcomes, and every driver (``palaestra play``, the web app, the arena, the PettingZoo
environment, ``State.sample_chance()`` without a generator) draws them by this one rule::

    outcome at ply p = state.sample_chance(random.Random(f"{key}:{p}"))

``p`` is the number of actions applied before the chance node (``len(state.history)``, chance
outcomes included) and ``key`` is ``f"seed:{seed}"`` for a game started with a seed, or the web
app's per-game secret (palaestra/server/fairness.py: its SHA-256 is published when the game is
created, the secret in the record at its end). A seeded web game's secret is ``f"seed:{seed}"``,
so the same seed draws the same outcomes in the terminal, the web app and the arena. A draw is a
function of the key and the ply only: never of the moves before it, of the process, or of where
a game was interrupted and resumed. (Python seeds ``random.Random`` with a string through
SHA-512: the same on every platform and version of Python 3.)

Records name the rule they were drawn under (``"chance_rule"``, docs/formats.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from palaestra.core.game import State

#: the name of the rule above, written into every record (``Record.chance_rule``)
CHANCE_RULE = "palaestra-chance-1"


def seed_key(seed: int | None) -> str:
    """The key of a game started with ``seed`` (``None`` counts as 0)."""
    return f"seed:{0 if seed is None else seed}"


@dataclass(frozen=True)
class ChanceSource:
    """Draws a game's chance outcomes by the one rule from its key (a seed's or a secret)."""

    key: str

    @classmethod
    def from_seed(cls, seed: int | None) -> ChanceSource:
        return cls(seed_key(seed))

    def rng(self, ply: int) -> random.Random:
        """The generator of the draw at ``ply``."""
        return random.Random(f"{self.key}:{ply}")

    def draw(self, state: State) -> int:
        """The outcome of the chance node ``state`` (raises ``IllegalActionError`` elsewhere)."""
        return state.sample_chance(self.rng(len(state.history)))

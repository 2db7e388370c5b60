"""The one seeding rule: which outcome a chance node draws, and the seed of each seat's agent,
given a seed or a secret.

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

Agents are seeded by one rule from the same key: the agent that plays seat ``s`` (an AI seat of
``palaestra play --vs``, of the arena, of the web app) is made with the seed
``agent_seed(key, s) = random.Random(f"{key}:agent:{s}").randrange(2**31)``, so the same seed
plays the same game everywhere: the same draws and the same agents' choices. A web game without a
chosen seed seeds its AI from its secret, so its AI's choices are as unforeseeable as its draws.
Records store the moves, not agents' seeds: this rule changes no record's replay.
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


def agent_seed(key: str, seat: int) -> int:
    """The seed of the agent that plays ``seat`` in the game of ``key`` (a seed's or a secret)."""
    return random.Random(f"{key}:agent:{seat}").randrange(2**31)


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

    def agent_seed(self, seat: int) -> int:
        """The seed of the agent that plays ``seat`` (:func:`agent_seed` of this key)."""
        return agent_seed(self.key, seat)

    def draw(self, state: State) -> int:
        """The outcome of the chance node ``state`` (raises ``IllegalActionError`` elsewhere)."""
        return state.sample_chance(self.rng(len(state.history)))

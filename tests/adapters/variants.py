"""Which option combinations the adapter tests play for each real game.

Every combination of the game's variants (bool options) with every player count, plus the
options that keep a random game short enough for a test (a small round or move limit).
"""

from __future__ import annotations

import itertools
from typing import Any

from palaestra.core.errors import OptionError
from palaestra.core.game import Game
from palaestra.core.registry import game_class

REAL_GAMES = ("agamemnon", "archimedes", "athos")

#: options that keep random games short in tests (only those a game declares are used)
SHORT_GAME = {"round_limit": 3, "move_limit": 80}

#: variants that are not bool options, played once each besides the bool combinations
EXTRA_VARIANTS: dict[str, list[dict[str, Any]]] = {
    # ATH-V2 handicap tiles; ATH-S2 seat order
    "athos": [{"players": 3, "handicap_player": 1, "handicap_tiles": 3}, {"players": 2, "order": "DB"}],
    # AGA-V1 loom with a given set-up (AGA-B2) instead of one drawn at random
    "agamemnon": [{"loom": True, "setup": "I,II,III"}, {"first": 1}],
}


def player_counts(cls: type[Game]) -> list[int]:
    for option in cls.OPTIONS:
        if option.name == "players":
            if option.choices is not None:
                return sorted(int(c) for c in option.choices)
            if option.minimum is not None and option.maximum is not None:
                return list(range(option.minimum, option.maximum + 1))
    return [cls().num_players]


def combinations(name: str) -> list[dict[str, Any]]:
    """Every variant combination with every player count, with the short-game options.

    A game that cannot be imported gives one entry ``{"unavailable": reason}`` so that its tests
    fail with the reason instead of vanishing from the run. Combinations the game refuses
    (``OptionError``: variants that exclude each other) are not games and are left out.
    """
    try:
        cls = game_class(name)
    except Exception as err:  # the test reports it
        return [{"unavailable": f"{type(err).__name__}: {err}"}]
    declared = {o.name for o in cls.OPTIONS}
    variants = [o.name for o in cls.OPTIONS if o.is_variant]
    short = {k: v for k, v in SHORT_GAME.items() if k in declared}
    out = []
    for players in player_counts(cls):
        for values in itertools.product((False, True), repeat=len(variants)):
            options: dict[str, Any] = dict(zip(variants, values, strict=True))
            if "players" in declared:
                options["players"] = players
            options.update(short)
            try:
                cls(**options)
            except OptionError:
                continue
            out.append(options)
    for extra in EXTRA_VARIANTS.get(name, []):
        out.append({**{k: v for k, v in extra.items() if k in declared}, **short})
    return out


def ids(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"


def richest(name: str) -> dict[str, Any]:
    """The combination with the most players and the most variants on."""
    return max(
        combinations(name),
        key=lambda o: (o.get("players", 0), sum(1 for v in o.values() if v is True)),
    )

"""The movement phase against a brute-force reference of the rules (ATH-T1..T6).

The reference follows RULINGS.md literally: any number of fields may hold several monks while the
player moves (ATH-T3), a step costs 1 and may not enter rubble (ATH-T2), a flip costs 4 and is
refused under a monk or a stone or when rubble would cut a monk off (ATH-T5, ATH-P1), an arrival
adds its bonus at once (ATH-T6), and the movement may end only when no ordinary field holds two
monks. On crowded random positions the engine must reach exactly the same ends of the movement
phase (monks, points left, tiles), and offer exactly the steps and flips after which the movement
can still end (docs/athos.md, readings).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import NONE, OPEN, RUBBLE, STONE, AthosState

from .helpers import all_reach_summit, cut_off_monks

pytestmark = pytest.mark.slow

Outcome = tuple[tuple[int, ...], int, tuple[int, ...]]


def _key(s: AthosState) -> tuple[Any, ...]:
    return (tuple(sorted(s.monks[s.seat])), s.points, tuple(s.tile), len(s.arrivals))


def engine_ends(s: AthosState) -> set[Outcome]:
    """Every end of the movement phase the engine's legal actions reach from ``s``."""
    ends: set[Outcome] = set()
    seen: set[tuple[Any, ...]] = set()
    end_move = s.game.action_space.encode("end_move")

    def walk(state: AthosState) -> None:
        k = _key(state)
        if k in seen:
            return
        seen.add(k)
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            if a == end_move:
                assert child.phase == STONE
                ends.add((tuple(sorted(state.monks[state.seat])), state.points, tuple(state.tile)))
            else:
                walk(child)

    walk(s)
    return ends


class Reference:
    """The movement phase of ``s`` by the rules alone (uses only the board and the position)."""

    def __init__(self, s: AthosState) -> None:
        self.b = s.board
        self.me = s.seat
        self.others = [v for p, ms in enumerate(s.monks) if p != s.seat for v in ms]
        self.stones = {f for f in range(self.b.n) if s.stone[f] >= 0}
        self.memo: dict[tuple[Any, ...], set[Outcome]] = {}

    def key(self, s: AthosState) -> tuple[Any, ...]:
        return (tuple(sorted(s.monks[self.me])), s.points, tuple(s.tile), len(s.arrivals))

    def moves(self, key: tuple[Any, ...]) -> list[tuple[str, tuple[Any, ...]]]:
        """The steps and flips the rules allow from ``key`` (ATH-T1, T2, T5, T6, P1) and where
        each leads; nothing about ATH-T3 (it only constrains the end)."""
        b = self.b
        mine, points, tiles, arrived = key
        occupied = [*self.others, *mine]
        out = []
        if points >= 1:
            for i, u in enumerate(mine):
                if i and mine[i - 1] == u:
                    continue
                rest = mine[:i] + mine[i + 1 :]
                for v in b.adj[u]:
                    if v < b.n and tiles[v] == RUBBLE:  # ATH-T2
                        continue
                    name = f"{b.names[u]}-{b.names[v]}"
                    if v == b.summit:  # ATH-T6
                        gain = (3, 3, 2, 2, 1)[arrived] if arrived < 5 else 0
                        out.append((name, (rest, points - 1 + gain, tiles, arrived + 1)))
                    else:
                        out.append((name, (tuple(sorted((*rest, v))), points - 1, tiles, arrived)))
        if points >= 4:  # ATH-T5
            for f in range(b.n):
                if tiles[f] == NONE or f in occupied or f in self.stones:
                    continue
                flipped = list(tiles)
                flipped[f] = OPEN if tiles[f] == RUBBLE else RUBBLE
                rubble = [x for x in range(b.n) if flipped[x] == RUBBLE]
                if flipped[f] == RUBBLE and not all_reach_summit(b, rubble, occupied):  # ATH-P1
                    continue
                out.append((f"flip {b.names[f]}", (mine, points - 4, tuple(flipped), arrived)))
        return out

    def can_end(self, key: tuple[Any, ...]) -> bool:
        """ATH-T3: no ordinary field holds two monks."""
        counts: dict[int, int] = {}
        for v in [*self.others, *key[0]]:
            counts[v] = counts.get(v, 0) + 1
        return all(c <= 1 for v, c in counts.items() if v < self.b.n)

    def ends(self, key: tuple[Any, ...]) -> set[Outcome]:
        """Every end of the movement reachable from ``key`` (empty: a dead end)."""
        if key in self.memo:
            return self.memo[key]
        out: set[Outcome] = set()
        self.memo[key] = out
        if self.can_end(key):
            out.add((key[0], key[1], key[2]))
        for _, child in self.moves(key):
            out |= self.ends(child)
        return out


def crowded_position(game: AthosGame, rng: random.Random) -> AthosState:
    """Monks of both players packed in a small area (bottom or top of the board), some tiles."""
    b = game.board
    top = rng.random() < 0.5
    rows = (13, 14, 15, 16) if top else (1, 2, 3)
    area = [f for f in range(b.n) if b.rows[f] in rows]
    rng.shuffle(area)
    mine = area[:3] if rng.random() < 0.7 else [*area[:2], game.start_of[0]]
    theirs = area[3:6]
    tiles = []
    for f in area[6 : 6 + rng.randint(3, 9)]:
        tiles.append({"field": b.names[f], "side": "rubble" if rng.random() < 0.7 else "open"})
    arrivals = sorted(rng.sample([0, 1, 1, 1], rng.randint(0, 2))) if top else []
    doc: dict[str, Any] = {
        "game": "athos",
        "monks": [[b.names[f] for f in mine], [b.names[f] for f in theirs]],
        "tiles": tiles,
        "points": rng.choice([2, 3, 4, 5]),
    }
    # keep the document consistent with the arrivals: drop monks that arrived
    for p in arrivals:
        doc["monks"][p] = doc["monks"][p][1:]
    doc["arrivals"] = arrivals
    return game.state_from_position(doc)


def _position(seed: int) -> AthosState | None:
    game = AthosGame()
    rng = random.Random(seed)
    for _ in range(20):
        try:
            return crowded_position(game, rng)
        except Exception:  # an inconsistent random document (a monk cut off ...): draw again
            continue
    return None


@pytest.mark.parametrize("seed", range(20))
def test_ath_t3_engine_reaches_every_end_of_movement_the_rules_allow(seed: int) -> None:
    s = _position(seed)
    assert s is not None
    assert cut_off_monks(s) == []
    ref = Reference(s)
    assert engine_ends(s) == ref.ends(ref.key(s))


@pytest.mark.parametrize("seed", range(100, 120))
def test_ath_t3_legal_steps_and_flips_are_exactly_those_with_a_legal_end(seed: int) -> None:
    """In every state of the movement phase the engine reaches, it offers exactly the steps and
    flips after which the movement can still end by the rules, and end-move exactly when it may."""
    s = _position(seed)
    assert s is not None
    ref = Reference(s)
    game = s.game
    frontier = [s]
    seen = set()
    while frontier:
        state = frontier.pop()
        key = ref.key(state)
        if key in seen:
            continue
        seen.add(key)
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        expected = {name for name, child in ref.moves(key) if ref.ends(child)}
        if ref.can_end(key):
            expected.add("end-move")
        assert legal == expected, (state.to_position(), legal ^ expected)
        for a in state.legal_actions():
            if a != game.action_space.encode("end_move"):
                child = state.clone()
                child.apply_action(a)
                frontier.append(child)
    assert len(seen) > 10

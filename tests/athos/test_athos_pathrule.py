"""ATH-P1 against a brute-force reference on dense random positions.

Random playouts rarely come near a sealed corridor, so these tests build crowded boards (many rubble
tiles, monks scattered all over) and compare every placement, flip and relocation the engine offers
or refuses with a plain search from the summit on the position after the action (helpers.
cut_off_monks). Each candidate is also asked of a fresh copy of the state, so that every cached and
uncached path of the engine's path-rule test (local ring test, one search per state, critical set)
is exercised.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.games.athos import AthosGame, _fast
from palaestra.games.athos.game import NONE, OPEN, PHASE_NAMES, RUBBLE, AthosState

from .helpers import all_reach_summit, cut_off_monks

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dense_position(game: AthosGame, rng: random.Random, phase: str) -> dict[str, Any]:
    """A crowded legal position: monks anywhere, rubble added while the path rule allows it."""
    b = game.board
    n = game.num_players
    ordinary = list(range(b.n))
    rng.shuffle(ordinary)
    monk_fields: list[list[int]] = []
    arrivals: list[int] = []
    k = 0
    for p in range(n):
        fields = []
        for _ in range(3):
            r = rng.random()
            if r < 0.15 and (p == 0 or arrivals.count(p) < 2):
                # only seat 0 may have finished: the final round goes on from the finisher (ATH-E1)
                arrivals.append(p)
            elif r < 0.25:
                fields.append(game.start_of[p])
            else:
                fields.append(ordinary[k])
                k += 1
        monk_fields.append(fields)
    all_monks = [f for fs in monk_fields for f in fs]
    rubble: set[int] = set()
    tiles: list[dict[str, Any]] = []
    per_terrain = [0] * 5
    target = rng.randint(30, 75)
    for f in ordinary[k:]:
        if len(tiles) >= target:
            break
        t = rng.randrange(5) if rng.random() < 0.3 else b.terrain[f]
        if per_terrain[t] >= 16:
            continue
        side = "open" if rng.random() < 0.2 else "rubble"
        if side == "rubble":
            if not all_reach_summit(game.board, rubble | {f}, all_monks):
                continue
            rubble.add(f)
        per_terrain[t] += 1
        tiles.append({"field": b.names[f], "side": side, "terrain": b.terrains[t]})
    # an Athos stone now and then
    stones = []
    stones_left = [2] * n
    tiled = [x["field"] for x in tiles]
    for p in range(n):
        if tiled and rng.random() < 0.4:
            name = rng.choice(tiled)
            if all(s["field"] != name for s in stones):
                stones.append({"field": name, "player": p})
                stones_left[p] -= 1
    doc: dict[str, Any] = {
        "game": "athos",
        "monks": [[b.names[f] for f in fs] for fs in monk_fields],
        "arrivals": arrivals,
        "tiles": tiles,
        "stones": stones,
        "stones_left": stones_left,
        "phase": phase,
        "points": 4 if phase == "move" else 0,
    }
    if arrivals.count(0) == 3 and phase != "move":
        # seat 0 (to move) finished and its movement is over: the points it kept (ATH-E2)
        doc["unused"] = [0] + [None] * (n - 1)
    return doc


def _after(state: AthosState, action: int) -> list[int]:
    child = state.clone()
    child._apply(action)
    return cut_off_monks(child)


def _check_placements(game: AthosGame, doc: dict[str, Any]) -> int:
    state = game.state_from_position(doc)
    b = game.board
    legal = set(state.legal_actions())
    checked = 0
    for f in range(b.n):
        if state.tile[f] != NONE or state.occupants[f] or state.stone[f] >= 0:
            continue
        if not state.supply[b.terrain[f]]:
            continue
        a = game.action_space.encode("place", f)
        expect = not _after(state, a)
        assert (a in legal) == expect, state.action_to_string(a)
        fresh = game.state_from_position(doc)  # no cache at all
        assert fresh.is_legal(a) == expect, state.action_to_string(a)
        checked += 1
    return checked


def _check_flips(game: AthosGame, doc: dict[str, Any]) -> int:
    state = game.state_from_position(doc)
    b = game.board
    legal = set(state.legal_actions())
    checked = 0
    for f in range(b.n):
        if state.tile[f] == NONE or state.occupants[f] or state.stone[f] >= 0:
            continue
        a = game.action_space.encode("flip", f)
        expect = state.tile[f] == RUBBLE or not _after(state, a)
        assert (a in legal) == expect, state.action_to_string(a)
        assert game.state_from_position(doc).is_legal(a) == expect, state.action_to_string(a)
        checked += 1
    return checked


def _check_relocations(game: AthosGame, doc: dict[str, Any], rng: random.Random) -> int:
    state = game.state_from_position(doc)
    b = game.board
    legal = set(state.legal_actions())
    bare = [f for f in range(b.n) if not state.occupants[f] and state.stone[f] < 0]
    free = [g for g in bare if state.tile[g] == NONE]
    movable = [f for f in bare if state.tile[f] != NONE]
    checked = 0
    for f in movable:
        for g in free:
            a = game.action_space.encode("relocate", f, g)
            expect = state.tile[f] == OPEN or not _after(state, a)
            assert (a in legal) == expect, state.action_to_string(a)
            checked += 1
    # a sample asked of fresh states (the per-target component labelling from scratch)
    for f in rng.sample(movable, min(4, len(movable))):
        for g in rng.sample(free, min(10, len(free))):
            a = game.action_space.encode("relocate", f, g)
            expect = state.tile[f] == OPEN or not _after(state, a)
            assert game.state_from_position(doc).is_legal(a) == expect, state.action_to_string(a)
    return checked


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_ath_p1_placements_match_brute_force_on_dense_boards(players: int, seed: int) -> None:
    game = AthosGame(players=players)
    rng = random.Random(seed)
    doc = dense_position(game, rng, "place")
    assert _check_placements(game, doc) > 0


@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_ath_p1_flips_match_brute_force_on_dense_boards(seed: int) -> None:
    game = AthosGame(players=3)
    rng = random.Random(seed)
    doc = dense_position(game, rng, "move")
    # flips are checked with no doubled field: drop monks onto distinct fields only (the generator
    # already does), so the only reason to refuse a flip here is ATH-P1 or ATH-T5
    assert _check_flips(game, doc) > 0


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_ath_p1_relocations_match_brute_force_on_dense_boards(seed: int) -> None:
    game = AthosGame(players=2)
    rng = random.Random(seed)
    doc = dense_position(game, rng, "stone")
    state = game.state_from_position(doc)
    if not state.stones_left[0]:
        doc["stones_left"] = [1, doc["stones_left"][1]]
        doc["stones"] = [s for s in doc["stones"] if s["player"] != 0]
    assert _check_relocations(game, doc, rng) > 0


def test_ath_p1_dense_reference_finds_refusals() -> None:
    """The generator really reaches positions where the path rule refuses something."""
    refused = 0
    for seed in range(20):
        game = AthosGame(players=4)
        state = game.state_from_position(dense_position(game, random.Random(seed), "place"))
        legal = set(state.legal_actions())
        for f in range(game.board.n):
            a = game.action_space.encode("place", f)
            if a not in legal and "ATH-P1" in state.explain_illegal(a):
                refused += 1
    assert refused > 0


@pytest.mark.slow
def test_ath_p1_cut_search_on_a_board_larger_than_the_call_stack(tmp_path: Path) -> None:
    """The cut-vertex search has no recursion: on a board of 1,287 fields (deeper than Python's
    call stack) the critical fields are those a plain search finds."""
    cells = [(c, r) for r in range(1, 100) for c in range(26) if (c + r) % 2 == 0]
    terrains = ["meadow", "forest", "olive", "heath", "vine"]
    bottom = [f"{chr(97 + c)}1" for c, r in cells if r == 1]
    top = [f"{chr(97 + c)}99" for c, r in cells if r == 99]
    doc = {
        "format": 1,
        "terrains": terrains,
        "fields": [{"col": c, "row": r, "terrain": terrains[(c + r) % 5]} for c, r in cells],
        "starts": {letter: [bottom[2 * k]] for k, letter in enumerate("ABCDE")},
        "summit": top[3:10],
    }
    path = tmp_path / "large.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    game = AthosGame(board=str(path))
    b = game.board
    assert b.n == len(cells) > sys.getrecursionlimit()
    rng = random.Random(5)
    monks = [b.names[f] for f in rng.sample(range(b.n), 6)]
    monk_fields = [b.field(m) for m in monks]
    # rubble around each monk but on one neighbour (which becomes critical), then anywhere
    walls = [w for m in monk_fields for w in b.adj[m][1:] if w < b.n]
    rubble: set[int] = set()
    tiles = []
    for f in walls + rng.sample(range(b.n), 400):
        if f not in monk_fields and f not in rubble and all_reach_summit(b, rubble | {f}, monk_fields):
            rubble.add(f)
            tiles.append({"field": b.names[f], "terrain": terrains[len(tiles) % 5]})
            if len(tiles) == 5 * 16:
                break
    state = game.state_from_position(
        {"game": "athos", "tiles": tiles, "monks": [monks[:3], monks[3:]], "phase": "place"}
    )
    critical = _fast.critical_fields(state)
    free = set(range(b.n)) - rubble - set(monk_fields)
    cut = {f for f in free if not all_reach_summit(b, rubble | {f}, monk_fields)}
    assert critical & free == cut and len(cut) >= 3


def reference_after_movement(state: AthosState) -> set[str]:
    """The legal actions after the movement by the rules alone (ATH-T7, ATH-T8, ATH-T9, ATH-P1,
    ATH-V2, ATH-V3), with a plain search for the path rule."""
    game = state.game
    b = game.board
    names = b.names
    rubble = {f for f in range(b.n) if state.tile[f] == RUBBLE}
    monks = [v for ms in state.monks for v in ms]
    occupied = set(monks)
    stones = {f for f in range(b.n) if state.stone[f] >= 0}
    tiles = {f for f in range(b.n) if state.tile[f] != NONE}
    free = [f for f in range(b.n) if f not in tiles and f not in occupied and f not in stones]
    supply = {t: 16 - sum(1 for f in tiles if state.tile_terrain[f] == t) for t in range(5)}
    out: set[str] = set()
    phase = PHASE_NAMES[state.phase]
    if phase == "handicap":  # ATH-V2 (amended 2026-11-25): any free field, a tile of any terrain
        for f in free:
            blocks = all_reach_summit(game.board, rubble | {f}, monks)
            for t in range(5):
                if supply[t]:
                    terrain = "" if t == b.terrain[f] else f" {b.terrains[t]}"
                    out.add(f"place {names[f]} open{terrain}")
                    if blocks:
                        out.add(f"place {names[f]}{terrain}")
        return out
    # ATH-T7 (amended 2026-11-25): any tile, one that carries a stone too
    stone_targets = {f"stone {names[f]}" for f in tiles}
    if game.bare_stone:  # ATH-V3: a free bare field, one with a bare stone too
        stone_targets |= {f"stone {names[f]}" for f in free + sorted(stones - tiles - occupied)}
    if phase == "relocated":
        return stone_targets
    if phase == "stone" and state.stones_left[state.seat]:  # ATH-T7: relocate first if possible
        relocations = set()
        for f in tiles:
            if f in occupied or f in stones:
                continue
            for g in free:
                if state.tile[f] == OPEN or all_reach_summit(game.board, (rubble - {f}) | {g}, monks):
                    relocations.add(f"relocate {names[f]}>{names[g]}")
        out |= relocations or stone_targets
    placed = list(state.placed)
    if sum(placed) < game.max_tiles:  # ATH-T8
        for f in free:
            t = b.terrain[f]
            if (
                supply[t]
                and placed[t] < game.max_per_terrain
                and all_reach_summit(game.board, rubble | {f}, monks)
            ):
                out.add(f"place {names[f]}")
    out.add("end-turn")  # ATH-T9
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "bare_stone": True},
        {"players": 4},
        {"players": 4, "teams": True, "bare_stone": True, "handicap_player": 1, "handicap_tiles": 5},
    ],
    ids=["2", "3-bare", "4", "teams-bare-handicap"],
)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_ath_t7_t8_actions_after_the_movement_match_a_reference(options: dict[str, Any], seed: int) -> None:
    """Stone, relocation, placement (limits, supplies, ATH-P1), end of turn and handicap actions
    of crowded random positions, against the rules applied by hand."""
    game = AthosGame(**options)
    rng = random.Random(seed)
    phases = ["stone", "relocated", "place"] + (["handicap"] if game.handicap_tiles else [])
    phase = rng.choice(phases)
    doc = dense_position(game, rng, phase)
    if phase == "place":
        per = game.max_per_terrain
        doc["placed"] = {t: rng.randint(0, per) for t in game.board.terrains if rng.random() < 0.5}
        for t in doc["placed"]:  # ATH-T8: the tiles placed this turn are on the board
            doc["placed"][t] = min(doc["placed"][t], sum(1 for x in doc["tiles"] if x["terrain"] == t))
        while sum(doc["placed"].values()) > game.max_tiles:
            doc["placed"].popitem()
    if phase == "handicap":  # before the first turn (ATH-V2): the monks at the start, no stone
        start = game.new_initial_state().to_position()
        doc.update(monks=start["monks"], arrivals=[], stones=[], stones_left=start["stones_left"])
        doc.pop("unused", None)
        doc["handicap_left"] = 2
        doc["to_move"] = game.handicap_player
    elif rng.random() < 0.3 and phase != "relocated":  # a relocation uses a stone still to put (ATH-T7)
        doc["stones_left"] = [0] * game.num_players
        doc["stones"] = []
    state = game.state_from_position(doc)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert legal == reference_after_movement(state)

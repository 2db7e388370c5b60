"""The Athos position loader (issue 16): the finisher of a team (ATH-V1, ATH-E2), impossible
positions refused with a message, and a property test: every position the loader accepts has
legal_actions() and apply_action() agreeing, is never stuck, and its saved states load again."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palaestra.core.errors import IllegalActionError, PositionError
from palaestra.games.athos import AthosGame
from palaestra.games.athos.game import PHASE_NAMES, AthosState

from .helpers import position

# --- impossible positions, each refused with a message (issue 16) ------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        # ATH-T7: after a relocation the stone must be put, so one must be left ...
        (
            {"phase": "relocated", "stones_left": [0, 2], "tiles": [{"field": "c6", "side": "open"}]},
            "no Athos stone left to put",
        ),
        # ... and the relocated tile carries no stone
        (
            {
                "phase": "relocated",
                "tiles": [{"field": "c6", "side": "open"}],
                "stones": [{"field": "c6", "player": 1}],
            },
            "some tile has no stone and no monk",
        ),
        # ATH-T3: two monks of players not to move on one field (the mover's third one with them)
        ({"phase": "move", "monks": [["k2", "B", "B"], ["k2", "k2", "D"]]}, "2 monks of players not to move"),
        # ATH-E1: the final round only once a side has finished, and always then
        ({"final_round": True}, "'final_round' is true exactly when"),
        (
            {"monks": [[], ["D", "D", "D"]], "arrivals": [0, 0, 0], "final_round": False},
            "'final_round' is true exactly when",
        ),
        # ATH-T1, ATH-T6: 14 points with no arrival this turn (a step would then overflow them)
        ({"phase": "move", "points": 14}, "at most 6 here"),
        (
            {"phase": "move", "points": 9, "monks": [["B", "B"], ["D", "D", "D"]], "arrivals": [0]},
            "at most 8",
        ),
        ({"phase": "place", "points": 3}, "points are left only in the movement phase"),
        # ATH-E1, ATH-E3: the game ends at the end of a round, with a finisher or the round limit
        ({"phase": "over"}, "phase 'over'"),
        (
            {"phase": "over", "to_move": 1, "monks": [[], ["D", "D", "D"]], "arrivals": [0, 0, 0]},
            "'unused' gives the points",
        ),
        # ATH-E1: the final round goes on from the finisher's seat to the last one
        (
            {"to_move": 0, "monks": [["B", "B", "B"], []], "arrivals": [1, 1, 1], "unused": [None, 3]},
            "seat 0, before it in the round",
        ),
        # ATH-T8: the tiles placed this turn are on the board
        ({"phase": "place", "placed": {"vine": 1}}, "1 vine tiles placed this turn, but 0"),
        # ATH-V2: a handicap phase needs the handicap options
        ({"phase": "handicap", "handicap_left": 2}, "the options name no handicap"),
        # ATH-V1: finishers that contradict the arrivals
        ({"monks": [[], ["D", "D", "D"]], "arrivals": [0, 0, 0], "finishers": []}, "completed a side"),
    ],
)
def test_impossible_positions_are_refused_with_a_message(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        position(**fields)


def test_ath_v1_e2_a_team_finishes_with_the_arrival_that_brings_in_its_sixth_monk() -> None:
    game = AthosGame(players=4, teams=True)
    # A (seat 0) brings in its third monk first, B (seat 2) the team's sixth: B is the finisher
    s = position(
        game,
        options={"players": 4, "teams": True},
        to_move=3,
        phase="place",
        monks=[[], ["D", "D", "D"], [], ["E", "E", "E"]],
        arrivals=[0, 2, 0, 2, 0, 2],
        unused=[6, None, 1, None],
    )
    assert s.finishers == [2] and s.final_round
    s.apply_action(s.string_to_action("end-turn"))
    assert s.is_terminal() and s.result_text() == "red (A) and green (B) win"


# --- the property test ------------------------------------------------------------------------------


def documents(draw: st.DrawFn) -> tuple[dict[str, Any], AthosGame]:
    """A position document that the rules may or may not reach (mostly close to reachable ones)."""
    players = draw(st.sampled_from([2, 3, 4]))
    options: dict[str, Any] = {"players": players, "round_limit": 40}
    if players == 4 and draw(st.booleans()):
        options["teams"] = True
    if draw(st.booleans()):
        options["bare_stone"] = True
    if draw(st.integers(0, 3)) == 0:
        options["handicap_player"] = draw(st.integers(0, players - 1))
        options["handicap_tiles"] = draw(st.integers(2, 6))
    game = AthosGame(**options)
    b = game.board
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    ordinary = list(range(b.n))
    tiled = rng.sample(ordinary, draw(st.integers(0, 30)))
    tiles = []
    for f in tiled:
        tile: dict[str, Any] = {"field": b.names[f], "side": rng.choice(["rubble", "open"])}
        if rng.random() < 0.1:
            tile["terrain"] = rng.choice(b.terrains)
        tiles.append(tile)
    stones = []
    left = [2] * players
    for _ in range(draw(st.integers(0, 3))):
        p = rng.randrange(players)
        if left[p] and tiled:
            f = rng.choice(tiled) if rng.random() < 0.8 else rng.choice(ordinary)
            stones.append({"field": b.names[f], "player": p})
            left[p] -= 1
    starts = [b.names[s] for s in b.start_ids]
    near = [b.names[f] for f in ordinary if f not in tiled or rng.random() < 0.2]
    monks: list[list[str]] = []
    arrived: list[int] = []
    for p in range(players):
        ms = []
        for _ in range(3):
            r = rng.random()
            if r < 0.25:
                arrived.append(p)
            elif r < 0.45:
                ms.append(game.seats[p] if rng.random() < 0.8 else rng.choice(starts))
            else:
                ms.append(rng.choice(near))
        monks.append(ms)
    rng.shuffle(arrived)
    phase = draw(st.sampled_from(PHASE_NAMES))
    doc: dict[str, Any] = {
        "game": "athos",
        "options": options,
        "round": draw(st.integers(1, 40)),
        "to_move": draw(st.integers(0, players - 1)),
        "phase": phase,
        "tiles": tiles,
        "stones": stones,
        "monks": monks,
        "arrivals": arrived,
        "unused": [rng.choice([None, 0, 2, 5]) for _ in range(players)],
    }
    if phase == "move":
        doc["points"] = draw(st.integers(0, 14))
    elif rng.random() < 0.1:
        doc["points"] = rng.randint(0, 3)
    if phase == "place" and tiles:
        doc["placed"] = {rng.choice(b.terrains): 1}
    if phase == "handicap":
        doc["handicap_left"] = draw(st.integers(1, 6))
    if rng.random() < 0.1:
        doc["final_round"] = rng.random() < 0.5
    if rng.random() < 0.1:
        doc["finishers"] = rng.sample(range(players), rng.randint(0, 2))
    if rng.random() < 0.2:
        doc["stones_left"] = [rng.randint(0, 2) for _ in range(players)]
    return doc, game


def check_agreement(s: AthosState, rng: random.Random) -> None:
    """legal_actions() and apply_action() agree; no legal action only at the end; saved states
    and positions of the state load again."""
    game = s.game
    legal = s.legal_actions()
    assert legal or s.is_terminal(), s.to_position()
    assert not legal or not s.is_terminal()
    listed = set(legal)
    for a in rng.sample(legal, min(len(legal), 20)):
        c = s.clone()
        c.apply_action(a)  # every listed action applies
    others = [rng.randrange(game.num_distinct_actions()) for _ in range(20)]
    for a in others:
        if a not in listed:
            assert not s.is_legal(a)
            with pytest.raises(IllegalActionError):
                s.clone().apply_action(a)
    again = game.state_from_json(s.to_json())
    assert again.to_position() == s.to_position() and again.legal_actions() == legal
    assert game.state_from_position(s.to_position()).to_position() == s.to_position()


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_accepted_position_has_legal_actions_and_apply_action_agreeing(data: st.DataObject) -> None:
    doc, game = documents(data.draw)
    try:
        s = game.state_from_position(doc)
    except PositionError as err:
        assert str(err)  # refused with a message
        return
    rng = random.Random(len(doc["tiles"]))
    for _ in range(12):  # and so on for a few random actions from there
        check_agreement(s, rng)
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(
    "change",
    [
        {"monks": [["S0"] * 3, ["S1"] * 2], "arrivals": [1]},
        {"round": 2},
        {"stones": [{"field": "k8", "player": 0}]},
        {"monks": [["S0", "S0", "k2"], ["S1"] * 3]},
    ],
)
def test_ath_v2_a_handicap_position_is_before_the_first_turn(change: dict[str, Any]) -> None:
    """ATH-V2: the handicap is placed before the first turn, so a position in the handicap phase
    has no arrival, no stone, no monk off its start field and is in round 1 (hypothesis found a
    handicap position with arrivals accepted, whose game then saved a state it refused to load)."""
    game = AthosGame(handicap_tiles=2, handicap_player=1)
    base: dict[str, Any] = {"to_move": 1, "phase": "handicap", "handicap_left": 2, "tiles": [{"field": "k8"}]}
    start = game.state_from_position(base)
    assert PHASE_NAMES[start.phase] == "handicap" and start.legal_actions()
    if "monks" in change:  # S0, S1: the seats' start fields
        names = {f"S{p}": game.seats[p] for p in range(2)}
        change = {**change, "monks": [[names.get(m, m) for m in ms] for ms in change["monks"]]}
    with pytest.raises(PositionError, match="before the first turn"):
        game.state_from_position({**base, **change})

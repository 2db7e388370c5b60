"""Turns, drawing, set-aside, variants, notation and messages (AGA-C1, AGA-T1..T4, AGA-B2, AGA-V1..V3)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from palaestra.core.errors import IllegalActionError, NotationError, OptionError
from palaestra.core.game import CHANCE, TERMINAL, random_playout
from palaestra.core.registry import load_game
from palaestra.games.agamemnon import AgamemnonGame, AgamemnonState
from palaestra.games.agamemnon.display import OBS_SIZE
from palaestra.games.agamemnon.tiles import SETUP_NAMES

FULL_SET = ["A", "B", "C", "D", "E", "W1", "W1", "W1", "W2", "W2", "W3", "WARP", "WARP", "WEFT", "WEFT"]


def play(state: AgamemnonState, *moves: str) -> AgamemnonState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def outcomes(state: AgamemnonState) -> dict[str, float]:
    return {state.action_to_string(a)[5:]: p for a, p in state.chance_outcomes()}


def position(tiles: list[tuple[int, int, str]], **fields: Any) -> AgamemnonState:
    options = fields.pop("options", {})
    doc: dict[str, Any] = {
        "game": "agamemnon",
        "board": fields.pop("board", "front"),
        "options": options,
        "tiles": [{"space": s, "player": p, "tile": t} for s, p, t in tiles],
    }
    doc.update(fields)
    return AgamemnonGame().state_from_position(doc)


def random_game(game: AgamemnonGame, seed: int) -> AgamemnonState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    random_playout(state, rng)
    return state


# --- AGA-C1 components --------------------------------------------------------------------------


def test_aga_c1_each_player_has_the_fifteen_tiles() -> None:
    state = AgamemnonGame().new_initial_state()
    assert state.pool(0) == FULL_SET
    assert state.pool(1) == FULL_SET
    game = load_game("agamemnon")
    assert [game.player_name(p) for p in (0, 1)] == ["orange", "black"]
    assert game.num_players == 2


def test_aga_c1_spears_decide_strength() -> None:
    # strength {0-4, 4-9, 8-9, 9-11}: C (4 spears) beats W3 (3); B (3) ties W3 (3); E (2) + W1 (1) = 3
    c_vs_w3 = position([(4, 0, "C"), (9, 1, "W3")], to_move=1)
    b_vs_w3 = position([(4, 0, "B"), (9, 1, "W3")], to_move=1)
    two_vs_one = position([(4, 0, "E"), (0, 0, "W1"), (9, 1, "W3"), (30, 1, "W1")], to_move=0)

    def strength_controller(state: AgamemnonState) -> int | None:
        (string,) = [x for x in state.strings() if [4, 9] in x["connections"]]
        return string["controller"]  # type: ignore[no-any-return]

    assert strength_controller(c_vs_w3) == 0
    assert strength_controller(b_vs_w3) is None
    assert strength_controller(two_vs_one) is None  # 3 spears each; 0-1 joins the string
    # the leader on 4 also holds leadership {2-4, 4-8} (2 points) for orange
    assert c_vs_w3.scores() == [6.0, 0.0]
    assert b_vs_w3.scores() == [2.0, 0.0]
    assert two_vs_one.scores() == [2.0, 2.0]  # and black's W1 on 30 holds 29-30 30-31


# --- AGA-T1 turns -------------------------------------------------------------------------------


def turns_of(state: AgamemnonState) -> list[tuple[int, int]]:
    """(player, tiles placed) per turn, replayed from the history (turns alternate players)."""
    replay = state.game.new_initial_state()
    merged: list[tuple[int, int]] = []
    for action in state.history:
        placing = replay.phase == "place" and action < 330
        player = replay.current_player
        replay.apply_action(action)
        if placing:
            if merged and merged[-1][0] == player:
                merged[-1] = (player, merged[-1][1] + 1)
            else:
                merged.append((player, 1))
    return merged


@pytest.mark.parametrize("first", [0, 1])
def test_aga_t1_one_tile_then_two_each_then_one_by_the_second_player(first: int) -> None:
    state = random_game(AgamemnonGame(first=first), seed=first)
    second = 1 - first
    expected = [(first, 1)] + [(first if t % 2 == 0 else second, 2) for t in range(1, 15)] + [(second, 1)]
    assert turns_of(state) == expected
    assert state.tiles_placed == 30
    assert state.pool(0) == [] and state.pool(1) == []
    assert sum(1 for s in range(32) if state.tile_at(s) is None) == 2
    assert state.current_player == TERMINAL


def test_aga_t1_the_last_turn_places_one_tile_on_one_of_three_free_spaces() -> None:
    rng = random.Random(5)
    state = AgamemnonGame().new_initial_state()
    while state.tiles_placed < 29 or state.phase in ("warp", "draw"):
        random_playout(state, rng, 1)
    assert state.phase == "place" and state.current_player == 1
    assert len(state.hand) == 1
    spaces = {a % 33 for a in state.legal_actions()}
    assert len(spaces) == 3


def test_aga_t1_loom_leaves_the_out_of_play_space_and_two_more_empty() -> None:
    state = random_game(AgamemnonGame(loom=True), seed=11)
    out = state.out_of_play
    assert out is not None
    empty = [s for s in range(33) if state.tile_at(s) is None]
    assert len(empty) == 3 and out in empty


# --- AGA-T2 drawing -------------------------------------------------------------------------------


def test_aga_t2_drawing_is_a_chance_node_weighted_by_the_pool() -> None:
    state = AgamemnonGame().new_initial_state()
    assert state.current_player == CHANCE and state.mover == 0
    probs = outcomes(state)
    assert probs == pytest.approx({c: n / 15 for c, n in Counter(FULL_SET).items()})
    assert sum(probs.values()) == pytest.approx(1.0)
    play(state, "draw W1")
    assert state.current_player == 0 and state.hand == ["W1"]
    play(state, "W1@5")
    # black's turn: two draws from black's own full pool
    assert state.current_player == CHANCE and state.mover == 1
    assert outcomes(state)["W1"] == pytest.approx(3 / 15)
    play(state, "draw W1")
    assert outcomes(state)["W1"] == pytest.approx(2 / 14)  # without replacement
    play(state, "draw A")
    assert state.current_player == 1 and state.hand == ["W1", "A"]
    # either order: both drawn tiles can be placed first
    legal = {state.action_to_string(a).split("@")[0] for a in state.legal_actions()}
    assert legal == {"W1", "A"}
    play(state, "A@0", "W1@1")
    assert state.pool(1).count("W1") == 2 and "A" not in state.pool(1)


# --- AGA-T3 the weaver redraw -----------------------------------------------------------------------


def test_aga_t3_a_drawn_weaver_may_be_set_aside_for_a_fresh_draw() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw WARP")
    assert "aside WARP" in [state.action_to_string(a) for a in state.legal_actions()]
    play(state, "aside WARP")
    assert state.current_player == CHANCE
    assert outcomes(state)["WARP"] == pytest.approx(1 / 14)  # the set-aside Warp is not in the pool
    play(state, "draw WARP", "aside WARP")  # a fresh weaver may be set aside again
    assert "WARP" not in outcomes(state)
    play(state, "draw W2")
    assert state.hand == ["W2"]
    assert state.pool(0).count("WARP") == 0  # still set aside during the turn
    play(state, "W2@3")
    # after the turn's draws the set-aside tiles are back in the pool
    assert state.pool(0).count("WARP") == 2
    assert len(state.pool(0)) == 14


def test_aga_t3_no_set_aside_after_the_first_placement_of_the_turn() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw A", "A@0", "draw W1", "draw WEFT")
    assert "aside WEFT" in [state.action_to_string(a) for a in state.legal_actions()]
    play(state, "W1@1")
    aside = state.string_to_action("aside WEFT")
    assert aside not in state.legal_actions()
    assert "before the turn's first tile" in state.explain_illegal(aside)


def test_aga_t3_only_in_a_players_first_two_turns() -> None:
    state = play(
        AgamemnonGame().new_initial_state(),
        "draw A", "A@0",  # orange turn 1
        "draw A", "draw B", "A@1", "B@2",  # black turn 1
        "draw B", "draw WEFT",  # orange turn 2: may still set aside
    )  # fmt: skip
    assert state.string_to_action("aside WEFT") in state.legal_actions()
    play(state, "B@3", "WEFT@4")
    play(state, "draw C", "draw WARP")  # black turn 2
    assert state.string_to_action("aside WARP") in state.legal_actions()
    play(state, "C@5", "WARP@6", "noswap")
    play(state, "draw C", "draw WARP")  # orange turn 3: no more
    aside = state.string_to_action("aside WARP")
    assert aside not in state.legal_actions()
    assert "first two turns" in state.explain_illegal(aside)


def test_aga_t3_only_weavers_can_be_set_aside() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw W3")
    aside = state.string_to_action("aside WEFT")
    assert aside not in state.legal_actions()
    assert state.explain_illegal(aside) == "you have not drawn a WEFT"
    with pytest.raises(NotationError):
        state.string_to_action("aside W3")


# --- AGA-T4 Warp decision ------------------------------------------------------------------------


def test_aga_t4_placing_a_warp_asks_its_player_for_a_swap() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw WARP", "WARP@4")
    assert state.phase == "warp" and state.current_player == 0
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert legal[0] == "noswap" and all(x.startswith("swap ") for x in legal[1:])
    play(state, "noswap")
    assert state.mover == 1 and state.current_player == CHANCE


# --- AGA-B2 / AGA-V1 loom set-up ------------------------------------------------------------------


def test_aga_b2_aga_v1_loom_set_up_drawn_at_random_from_24() -> None:
    state = AgamemnonGame(loom=True).new_initial_state()
    assert state.phase == "setup" and state.current_player == CHANCE
    outs = state.chance_outcomes()
    assert len(outs) == 24 and all(p == pytest.approx(1 / 24) for _, p in outs)
    names = [state.action_to_string(a) for a, _ in outs]
    assert len(set(names)) == 24 and "setup I,II,III" in names
    play(state, "setup I,II,III")
    assert state.out_of_play == 31  # IV is empty
    kinds = Counter(k for _, _, k in state.connection_kinds())
    assert kinds == {"strength": 19, "force": 15, "leadership": 17, "empty": 15}
    play(state, "draw A")
    action = state.string_to_action("A@31")
    assert action not in state.legal_actions()
    assert state.explain_illegal(action) == "space 31 is out of play"


def test_aga_b2_before_the_loom_set_up_is_drawn_no_connection_carries_a_string_tile() -> None:
    state = AgamemnonGame(loom=True).new_initial_state()
    assert state.phase == "setup"
    assert state.connection_kinds() == [] and state.strings() == [] and state.scores() == [0.0, 0.0]


@pytest.mark.parametrize("setup", SETUP_NAMES)
def test_aga_b2_every_set_up_fills_three_classes_and_leaves_one_space_out(setup: str) -> None:
    state = AgamemnonGame(loom=True, setup=setup).new_initial_state()
    assert state.phase == "draw"
    classes = setup.split(",")
    empty = ({"I", "II", "III", "IV"} - set(classes)).pop()
    assert state.out_of_play == {"IV": 31, "III": 32, "II": 3, "I": 15}[empty]
    labels = state.game.board.labels
    names = ("I", "II", "III", "IV")
    kind_of = dict(zip(classes, ("strength", "force", "leadership"), strict=True))
    for (_, _, kind), label in zip(state.connection_kinds(), labels, strict=True):
        assert kind == kind_of.get(names[label], "empty")


def test_options_are_checked() -> None:
    with pytest.raises(OptionError, match="needs the loom"):
        AgamemnonGame(loom=False, setup="I,II,III")
    implied = AgamemnonGame(setup="I,II,III")  # a set-up implies the loom
    assert implied.loom and implied == AgamemnonGame(loom=True, setup="I,II,III")
    with pytest.raises(OptionError):
        AgamemnonGame(loom=True, setup="I,I,II")
    with pytest.raises(OptionError):
        AgamemnonGame(players=3)
    with pytest.raises(OptionError):
        AgamemnonGame(first=2)
    assert AgamemnonGame(first="1").first == 1


# --- AGA-V2 Oracle --------------------------------------------------------------------------------


def test_aga_v2_oracle_names_the_stack_of_every_draw_before_drawing() -> None:
    state = AgamemnonGame(oracle=True).new_initial_state()
    assert state.phase == "stack" and state.current_player == 0
    assert "orange to name the stack of the next draw" in state.render()
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "stack leaders",
        "stack weavers",
        "stack warriors",
    ]
    play(state, "stack leaders")
    assert outcomes(state) == pytest.approx({c: 1 / 5 for c in "ABCDE"})
    play(state, "draw C", "C@7")
    # black names both stacks first, then both tiles are drawn
    play(state, "stack weavers", "stack weavers")
    assert state.current_player == CHANCE
    assert outcomes(state) == pytest.approx({"WARP": 0.5, "WEFT": 0.5})
    play(state, "draw WARP")
    assert outcomes(state) == pytest.approx({"WARP": 1 / 3, "WEFT": 2 / 3})
    play(state, "draw WEFT")
    assert state.current_player == 1 and sorted(state.hand) == ["WARP", "WEFT"]


def test_aga_v2_an_exhausted_stack_cannot_be_named() -> None:
    # 11 tiles: orange (first) has placed 5 (turns 1, 3, 5), black 6 (turns 2, 4, 6)
    tiles = [(s, 0, c) for s, c in zip(range(5), ["A", "B", "C", "D", "E"], strict=True)]
    tiles += [(s, 1, c) for s, c in zip(range(10, 16), ["W1", "W1", "W1", "W2", "W2", "W3"], strict=True)]
    state = position(tiles, options={"oracle": True}, to_move=0)
    assert state.phase == "stack"
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert legal == ["stack weavers", "stack warriors"]
    leaders = state.string_to_action("stack leaders")
    assert "leaders stack has no tile left" in state.explain_illegal(leaders)
    # orange still has six warriors: the warriors stack can be named for both draws
    play(state, "stack warriors", "stack warriors")
    assert state.current_player == CHANCE


def test_aga_v2_aga_t3_oracle_set_aside_names_a_stack_for_the_fresh_draw() -> None:
    state = play(AgamemnonGame(oracle=True).new_initial_state(), "stack weavers", "draw WEFT", "aside WEFT")
    assert state.phase == "stack"
    play(state, "stack weavers")
    assert outcomes(state) == pytest.approx({"WARP": 2 / 3, "WEFT": 1 / 3})


# --- AGA-V3 Defying the gods ------------------------------------------------------------------------


def test_aga_v3_defying_has_no_chance_and_any_remaining_tile_may_be_placed() -> None:
    game = AgamemnonGame(defying=True)
    state = game.new_initial_state()
    assert state.current_player == 0
    assert len(state.legal_actions()) == 10 * 32  # ten kinds of tile on 32 spaces
    play(state, "C@12")
    assert "C" not in state.pool(0) and len(state.pool(0)) == 14
    play(state, "C@0")  # black's own C
    play(state, "W1@1")
    c_again = state.string_to_action("C@20")
    assert c_again not in state.legal_actions()
    assert state.explain_illegal(c_again) == "you have no C left"
    taken = state.string_to_action("W2@12")
    assert state.explain_illegal(taken) == "space 12 is taken"
    final = random_game(game, seed=4)
    assert final.tiles_placed == 30


def test_aga_v3_no_chance_node_in_a_whole_game() -> None:
    rng = random.Random(2)
    state = AgamemnonGame(defying=True, oracle=True).new_initial_state()
    while not state.is_terminal():
        assert not state.is_chance_node()
        state.apply_action(rng.choice(state.legal_actions()))


# --- notation and messages ------------------------------------------------------------------------


def test_notation_errors_are_helpful() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw W2")
    with pytest.raises(NotationError, match="CODE@SPACE"):
        state.string_to_action("hello")
    with pytest.raises(NotationError, match="unknown tile 'X9'"):
        state.string_to_action("X9@3")
    with pytest.raises(NotationError, match="there is no space 40"):
        state.string_to_action("W2@40")
    with pytest.raises(NotationError, match="there is no connection 0-9"):
        state.string_to_action("swap 0-9 0-1")
    with pytest.raises(NotationError, match="do not touch a common space"):
        state.string_to_action("swap 0-1 30-31")
    with pytest.raises(IllegalActionError, match="no tile is being drawn"):
        state.string_to_action("draw A")
    with pytest.raises(NotationError, match="setup S,F,L"):
        state.string_to_action("setup I,I,I")
    assert state.string_to_action(" w2 @ 12 ") == state.string_to_action("W2@12")
    chance = AgamemnonGame().new_initial_state()
    with pytest.raises(IllegalActionError, match="being drawn"):
        chance.string_to_action("A@5")  # the id 5 would read "draw W1" at a chance node


def test_explain_illegal_is_precise() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw W2", "W2@12", "draw A", "draw B")
    assert state.explain_illegal(state.string_to_action("A@12")) == "space 12 is taken"
    assert state.explain_illegal(state.string_to_action("C@13")).startswith("you have not drawn a C")
    assert "not possible now" in state.explain_illegal(state.string_to_action("noswap"))
    assert "whole numbers" in state.explain_illegal("A@1")
    with pytest.raises(IllegalActionError, match="space 12 is taken"):
        state.apply_action(state.string_to_action("A@12"))
    chance = AgamemnonGame().new_initial_state()
    play(chance, "draw C", "C@0", "draw C")
    assert chance.explain_illegal(chance.string_to_action("draw C")) == "black has no C left in the pool"


def test_action_ids_and_spaces() -> None:
    game = AgamemnonGame()
    loom = AgamemnonGame(loom=True)
    assert game.num_distinct_actions() == 336 + len(game.board.pairs)
    assert loom.num_distinct_actions() == 336 + len(loom.board.pairs)
    assert game.max_chance_outcomes() == loom.max_chance_outcomes() == 34
    assert game.observation_shape() == (OBS_SIZE,)


def test_observation_is_from_the_players_side() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw W2", "W2@12")
    mine = state.observation_tensor(0)
    theirs = state.observation_tensor(1)
    assert len(mine) == OBS_SIZE
    assert mine[12 * 22 + 6] == 1.0 and mine[12 * 22 + 16] == 0.0  # own W2 on 12
    assert theirs[12 * 22 + 16] == 1.0 and theirs[12 * 22 + 6] == 0.0  # opponent's W2 on 12
    assert mine[32 * 22 + 21] == 1.0  # space 32 does not exist on the front
    assert all(0.0 <= x <= 3.0 for x in mine + theirs)


def test_render_shows_tiles_kinds_score_and_pools() -> None:
    state = play(AgamemnonGame().new_initial_state(), "draw W2", "W2@12", "draw A", "draw WEFT")
    text = state.render()
    assert "o:W2" in text
    assert "Score: orange" in text
    assert "drawn: A WEFT" in text
    assert "13 to draw" in text and "14 to draw" in text
    assert " 12  o:W2      7S 11L 16S 17F" in text
    assert "labels" not in text and "Trojans" in state.render(labels=True)
    assert "set-up" in AgamemnonGame(loom=True).new_initial_state().render()
    defying = play(AgamemnonGame(defying=True).new_initial_state(), "C@12")
    assert "orange (o): 14 left to place: A B D E" in defying.render()


def test_aga_t1_aga_t4_a_warp_as_the_last_tile_still_gets_its_swap_before_the_end() -> None:
    # 29 tiles down: orange all 15 (spaces 0-14), black all but one Warp (15-28); black holds it
    orange = ["A", "B", "C", "D", "E", "W1", "W1", "W1", "W2", "W2", "W3", "WARP", "WARP", "WEFT", "WEFT"]
    black = [c for c in orange if c != "WARP"] + ["WARP"]
    tiles = [(s, 0, c) for s, c in enumerate(orange)] + [(15 + i, 1, c) for i, c in enumerate(black)]
    state = position(tiles, to_move=1, hand=["WARP"])
    assert state.phase == "place" and state.current_player == 1
    assert sorted({a % 33 for a in state.legal_actions()}) == [29, 30, 31]  # one of the 3 free spaces
    play(state, "WARP@29")
    assert state.phase == "warp" and not state.is_terminal()
    play(state, "swap 25-29 29-30")  # leadership 25-29 and strength 29-30 change places
    kinds = {(a, b): k for a, b, k in state.connection_kinds()}
    assert kinds[(25, 29)] == "strength" and kinds[(29, 30)] == "leadership"
    assert state.is_terminal() and state.tiles_placed == 30

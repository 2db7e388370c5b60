"""GameInfo, register_game and the action layout (palaestra/core/info.py, layout.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from palaestra.ai.levels import LEVELS, level_spec
from palaestra.core.errors import OptionError
from palaestra.core.info import CliFlag, GameInfo
from palaestra.core.layout import ActionLayout
from palaestra.core.registry import (
    game_class,
    game_info,
    game_infos,
    game_names,
    load_game,
    register_game,
    unregister_game,
)

from .nim import NimGame


# --- the action layout -------------------------------------------------------------------------
def test_layout_numbers_segments_in_order_row_major() -> None:
    layout = ActionLayout(("step", (4,)), ("end", ()), ("empty", (0,)), ("move", (3, 5)))
    assert layout.size == len(layout) == 4 + 1 + 0 + 15
    assert [s.start for s in layout] == [0, 4, 5, 5]
    assert layout.encode("step", 3) == 3
    assert layout.encode("end") == 4
    assert layout.encode("move", 0, 0) == 5
    assert layout.encode("move", 1, 2) == 5 + 5 + 2
    assert layout.decode(4) == ("end", ())
    assert layout.decode(19) == ("move", (2, 4))
    assert layout.segment_of(5).name == "move"  # the empty segment owns no id
    assert 19 in layout["move"] and 4 not in layout["move"]


def test_layout_refuses_what_is_outside() -> None:
    layout = ActionLayout(("a", (2,)), ("b", (2, 2)))
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        layout.encode("b", 0, 2)
    with pytest.raises(ValueError, match="takes 2 coordinate"):
        layout.encode("b", 1)
    with pytest.raises(ValueError, match="outside the action space"):
        layout.decode(6)
    with pytest.raises(ValueError, match="outside the action space"):
        layout.decode(True)
    with pytest.raises(KeyError, match="no segment 'c'"):
        layout.encode("c")
    with pytest.raises(ValueError, match="declared twice"):
        ActionLayout(("a", (1,)), ("a", (2,)))


shapes = st.lists(st.tuples(st.integers(0, 5), st.integers(1, 4)), min_size=1, max_size=5)


@given(shapes)
def test_layout_decode_inverts_encode_over_the_whole_space(dims: list[tuple[int, int]]) -> None:
    layout = ActionLayout(*((f"s{i}", (a, b)) for i, (a, b) in enumerate(dims)))
    seen = []
    for segment in layout:
        for x in range(segment.shape[0]):
            for y in range(segment.shape[1]):
                action = layout.encode(segment.name, x, y)
                assert layout.decode(action) == (segment.name, (x, y))
                seen.append(action)
    assert seen == list(range(layout.size))  # every id once, in order


# --- GameInfo and the registry -----------------------------------------------------------------
def test_game_info_checks_what_it_declares() -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        GameInfo("Nim", "Nim", NimGame)
    with pytest.raises(ValueError, match="player_counts"):
        GameInfo("nim", "Nim", NimGame, player_counts=())
    with pytest.raises(ValueError, match="low <= high"):
        GameInfo("nim", "Nim", NimGame, observation_bounds=(1.0, 0.0))
    with pytest.raises(ValueError, match="declared twice"):
        GameInfo("nim", "Nim", NimGame, cli_flags=(CliFlag("x", "stones"), CliFlag("x", "coin")))
    with pytest.raises(TypeError, match="is named 'nim'"):
        GameInfo("other", "Nim", NimGame).game_class()


def test_register_game_adds_a_game_and_refuses_a_clash() -> None:
    info = GameInfo(
        "pile",
        "Pile",
        "tests.core.nim:NimGame",
        player_counts=(2,),
        levels={"strong": "greedy", "expert/2": "mcts:iterations=7"},
    )
    with pytest.raises(TypeError, match="is named 'nim'"):
        register_game(info)
        game_class("pile")
    unregister_game("pile")
    try:
        renamed = GameInfo("nim2", "Nim", NimGame)
        register_game(renamed)
        assert register_game(renamed) == "nim2"  # the same entry twice is harmless
        with pytest.raises(OptionError, match="registered already"):
            register_game(GameInfo("nim2", "Nim two", NimGame))
        with pytest.raises(TypeError, match=r"its info .nim2."):
            game_class("nim2")  # the class is named nim: the entry is refused on use
    finally:
        unregister_game("nim2")
    assert "nim2" not in game_names()


def test_levels_come_from_what_the_game_declares() -> None:
    info = GameInfo("nim", "Nim", NimGame, levels={"strong": "greedy", "expert/2": "mcts:iterations=7"})
    register_game(info, replace=True)
    assert level_spec("strong", "nim", 2) == "greedy"
    assert level_spec("expert", "nim", 2) == "mcts:iterations=7"
    assert level_spec("expert", "nim", 3) == LEVELS["expert"]  # not declared for 3: generic
    assert level_spec("beginner", "nim", 2) == LEVELS["beginner"]
    assert level_spec("casual", "unregistered", 2) == LEVELS["casual"]
    with pytest.raises(OptionError, match="unknown level"):
        level_spec("grandmaster", "nim", 2)


def test_the_real_games_declare_their_facts() -> None:
    infos = {i.name: i for i in game_infos()}
    assert {"agamemnon", "archimedes", "athos"} <= set(infos)
    for name, info in infos.items():
        cls = game_class(name)
        assert info.game_class() is cls and info.title == cls.title
        for count in info.player_counts:
            game = load_game(name, **info.options_for_players(count))
            assert game.num_players == count
            state = game.new_initial_state(1)
            low, high = info.observation_bounds
            assert all(low <= x <= high for x in state.observation_tensor(0))
        with pytest.raises(OptionError, match="players, not 9"):
            info.options_for_players(9)
        for flag in info.cli_flags:
            assert any(o.name == flag.option for o in cls.OPTIONS)
    assert game_info("athos").web.stylesheet == "board.css"

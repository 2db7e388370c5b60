"""The registry finds the games through the entry points of ``palaestra.games`` (issue 32;
palaestra/core/registry.py). tests/fourth/test_plugin.py installs a real plug-in; these tests
check the reading of the entry points themselves, with the metadata replaced."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from palaestra.core import registry

ROOT = Path(__file__).resolve().parents[2]


class Dist:
    def __init__(self, name: str) -> None:
        self.name = name


def point(name: str, value: str, dist: str) -> Any:
    found = EntryPoint(name, value, registry.GROUP)
    return found._for(Dist(dist))  # type: ignore[arg-type]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A registry that has read no entry point yet (restored after the test)."""
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "_INFOS", {})
    yield


def test_palaestra_declares_each_game_folder_as_an_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project["project"]["entry-points"]["palaestra.games"]
    folders = sorted(p.name for p in (ROOT / "palaestra" / "games").iterdir() if (p / "info.py").is_file())
    assert sorted(declared) == folders
    assert declared == {name: f"palaestra.games.{name}.info:INFO" for name in folders}
    for name in folders:
        assert registry.game_info(name).name == name


def test_an_installed_entry_point_is_a_game_and_is_imported_on_first_use(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    points = [
        point("athos", "palaestra.games.athos.info:INFO", "palaestra"),
        point("Ladder", "palaestra_ladder.info:INFO", "palaestra-ladder"),
        point("broken", "no_such_module.info:INFO", "palaestra-broken"),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: [p for p in points if p.group == group])
    assert registry.plugin_entries() == {
        "athos": "palaestra.games.athos.info:INFO",
        "ladder": "palaestra_ladder.info:INFO",
        "broken": "no_such_module.info:INFO",
    }
    assert registry.game_names() == ["athos", "broken", "ladder"]  # read, nothing imported yet
    assert registry.game_info("ladder").title == "Ladder"
    with pytest.raises(ModuleNotFoundError):
        registry.game_info("broken")
    assert [i.name for i in registry.game_infos()] == ["athos", "ladder"]  # a broken game is left out


def test_a_registered_game_keeps_its_name_and_the_first_of_two_declarations_wins(
    fresh: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    points = [
        point("ladder", "palaestra_ladder.info:INFO", "palaestra-ladder"),
        point("ladder", "other_ladder.info:INFO", "other-ladder"),
        point("athos", "palaestra.games.athos.info:INFO", "palaestra"),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    with caplog.at_level("WARNING", logger="palaestra"):
        assert registry.plugin_entries()["ladder"] == "palaestra_ladder.info:INFO"
    assert "declared twice" in caplog.text and "other_ladder.info:INFO" in caplog.text
    monkeypatch.setitem(registry._GAMES, "athos", "tests.core.nim:NimGame")  # before the reading
    with pytest.raises(TypeError, match="calls itself 'nim'"):
        registry.game_info("athos")  # the registered entry, not the entry point


def test_without_palaestras_own_entry_points_its_game_folders_are_its_games(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout that was not installed (or before the entry points were declared)."""
    monkeypatch.setattr(
        registry,
        "entry_points",
        lambda group: [point("ladder", "palaestra_ladder.info:INFO", "palaestra-ladder")],
    )
    folders = sorted(p.name for p in (ROOT / "palaestra" / "games").iterdir() if (p / "info.py").is_file())
    assert registry.game_names() == sorted([*folders, "ladder"])
    assert registry.plugin_entries()[folders[0]] == f"palaestra.games.{folders[0]}.info:INFO"

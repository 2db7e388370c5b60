"""The runnable example of docs/research.md (examples/openspiel_mcts_vs_random.py), tiny settings."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")  # the research extra; CI installs it

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts_vs_random.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_mcts_vs_random", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_evaluates_mcts_against_random(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    result = example.main(
        ["--game", "archimedes", "--games", "2", "--simulations", "2", "--option", "move_limit=16"]
    )
    assert result["games"] == 2
    assert result["wins"] + result["draws"] + result["losses"] == 2
    assert -1.0 <= result["mean_return"] <= 1.0
    assert result["game"] == "palaestra_archimedes(move_limit=16,players=2,revisit=False)"
    assert "MCTS (2 simulations) vs random over 2 games" in capsys.readouterr().out


def test_example_handles_chance_and_options() -> None:
    example = load_example()
    result = example.evaluate("agamemnon", {"oracle": True}, games=1, simulations=2, rollout_limit=10)
    assert result["games"] == 1 and "oracle=True" in result["game"]


def test_example_runs_as_a_script() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--game",
            "archimedes",
            "--games",
            "1",
            "--simulations",
            "2",
            "--option",
            "move_limit=8",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "MCTS (2 simulations) vs random over 1 games" in done.stdout


def test_example_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    with pytest.raises(SystemExit):
        example.main(["--option", "players"])
    assert "KEY=VALUE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        example.main(["--simulations", "1"])
    assert "at least 2 simulations" in capsys.readouterr().err


def test_overhead_example_measures_every_interface(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLE.with_name("adapter_overhead.py")
    spec = importlib.util.spec_from_file_location("adapter_overhead", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = module.main(["--game", "ladder", "--games", "3", "--option", "target=6"])
    assert set(results["ladder"]) == {"engine", "openspiel", "pettingzoo"}
    assert all(rate > 0 for rate in results["ladder"].values())
    # the three interfaces play the same number of actions for the same seed
    counts = {
        label: run("ladder", {"target": 6}, 3, 0)
        for label, run in (
            ("engine", module.engine_games),
            ("openspiel", module.openspiel_games),
        )
    }
    assert counts["engine"] == counts["openspiel"]
    assert "ladder" in capsys.readouterr().out

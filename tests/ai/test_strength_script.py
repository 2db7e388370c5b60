"""benchmarks/strength.py: reading pairings whose agent names hold a ``-``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["strength_script"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("pair", "upper", "lower"),
    [
        ("expert-strong", "expert", "strong"),
        ("expert-openspiel-mcts:time=1", "expert", "openspiel-mcts:time=1"),
        ("openspiel-mcts:simulations=50-random", "openspiel-mcts:simulations=50", "random"),
        ("mcts:time=1,clock=cpu-openspiel-mcts:time=10", "mcts:time=1,clock=cpu", "openspiel-mcts:time=10"),
    ],
)
def test_split_pair_cuts_where_both_sides_are_agents(
    strength: ModuleType, pair: str, upper: str, lower: str
) -> None:
    assert strength.split_pair(pair) == (upper, lower)

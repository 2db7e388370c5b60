"""benchmarks/strength_report.py: the pooling behind the strength tables of docs/ai.md."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from palaestra.ai.arena import mean_interval

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength_report.py"


@pytest.fixture(scope="module")
def sr() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_report", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["strength_report"] = module
    spec.loader.exec_module(module)
    return module


def summary_row(fractions: list[float], pair: str = "expert-strong", setup: str = "g/2") -> dict[str, object]:
    """A row as strength.py wrote it before rows carried their fractions."""
    mean, half = mean_interval(fractions)
    return {
        "setup": setup,
        "pair": pair,
        "games": len(fractions),
        "seat_games": len(fractions),
        "score": mean,
        "score_half": half if len(fractions) > 1 else None,
        "wins": fractions.count(1.0),
        "draws": fractions.count(0.5),
        "losses": fractions.count(0.0),
    }


def test_pooled_rows_equal_one_match_of_all_their_games(sr: ModuleType) -> None:
    a = [1.0, 1.0, 0.5, 0.0, 1.0]
    b = [1.0, 0.0, 1.0, 0.5]
    c = [0.25]  # a single seat-game (3 players: one opponent beaten... half of one)
    rows = [
        {**summary_row(a), "fractions": a},  # a new row: exact fractions
        summary_row(b),  # an old row: sum and squares from score and score_half
        {**summary_row(c), "wins": 0, "losses": 1, "fractions": c},
    ]
    pooled = sr.pool(rows)[("g/2", "expert-strong")]
    mean, half = mean_interval(a + b + c)
    assert pooled.m == pooled.games == 10
    assert (pooled.wins, pooled.draws, pooled.losses) == (5, 2, 3)
    assert math.isclose(pooled.mean, mean) and math.isclose(pooled.mean, 6.25 / 10)
    assert pooled.half is not None and math.isclose(pooled.half, half)


def test_pairings_outside_the_ladder_are_left_out(sr: ModuleType) -> None:
    rows = [summary_row([1.0, 0.0], pair="mcts:iterations=50-greedy"), summary_row([1.0, 1.0])]
    assert list(sr.pool(rows)) == [("g/2", "expert-strong")]


def test_win_rate_lower_bound_is_clopper_pearson(sr: ModuleType) -> None:
    # every game won: 0.05 ** (1 / n); 150 games all won show 98% at 95% confidence, 100 do not
    assert math.isclose(sr.win_rate_lower_bound(150, 150), 0.05 ** (1 / 150))
    assert sr.win_rate_lower_bound(150, 150) > 0.98 > sr.win_rate_lower_bound(100, 100)
    # 9 of 10: the 5% quantile of Beta(9, 2), 0.6058 (tables of the exact binomial interval)
    assert abs(sr.win_rate_lower_bound(9, 10) - 0.6058) < 1e-4
    assert sr.win_rate_lower_bound(0, 10) == 0.0


def test_verdicts(sr: ModuleType) -> None:
    pools = sr.pool(
        [
            summary_row([1.0] * 7 + [0.0] * 3, pair="strong-casual"),  # 70%, the interval reaches 40%
            summary_row([1.0] * 6, pair="casual-beginner"),  # all won, but 6 games bound it at 60.7%
            summary_row([1.0] * 7, pair="beginner-random"),  # 7 games all won: bound 65.2%
            summary_row([1.0] * 49 + [0.5], pair="expert-random"),  # 98% won
        ]
    )
    assert sr.verdict(pools[("g/2", "strong-casual")]) == "**no**"
    assert sr.verdict(pools[("g/2", "casual-beginner")]) == "too few games"
    assert sr.verdict(pools[("g/2", "beginner-random")]) == "yes"
    assert sr.verdict(pools[("g/2", "expert-random")]).endswith(": yes")
    assert "won 49 of 50 (98.0%" in sr.verdict(pools[("g/2", "expert-random")])


def test_report_from_files(sr: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    rows = [
        summary_row([1.0, 0.5, 1.0, 1.0], pair="expert-strong"),
        summary_row([0.0, 1.0], pair="strong-casual"),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    text = sr.report(sr.read_rows([str(path)]))
    assert "| g/2 | expert-strong | 4 | 87.5% [" in text
    assert "| g/2 | beginner-random | 0 | — | — | not measured |" in text
    # the matrix: strong against casual, expert against strong, the rest not measured
    assert "| strong | — | — | 50.0% ±98.0 (2) |  |" in text
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"setup": "g/2"}\nnot json\n')
    with pytest.raises(SystemExit, match=r"bad.jsonl:2: not a JSON row"):
        sr.read_rows([str(bad)])


def test_the_pairings_table_pools_probes_margins_and_cpu_per_decision(sr: ModuleType) -> None:
    """``--pairings``: explicit agent specs are kept (the ladder tables leave them out); the point
    margin pools every game's margin, the CPU per decision is weighted by the rows' games."""
    probe = "expert-openspiel-mcts:time=0.3"
    rows = [
        {
            **summary_row([1.0, 0.0], pair=probe),
            "margins": [4.0, -2.0],
            "cpu_per_decision": 0.3,
            "lower_cpu_per_decision": 0.2,
        },
        {
            **summary_row([1.0, 1.0, 1.0, 0.5], pair=probe),
            "margins": [6.0, 2.0, 3.0, 0.0],
            "cpu_per_decision": 0.6,
            "lower_cpu_per_decision": 0.5,
        },
    ]
    assert sr.pool(rows) == {}  # not ladder names
    pooled = sr.pool(rows, ladder_only=False)[("g/2", probe)]
    mean, half = mean_interval([4.0, -2.0, 6.0, 2.0, 3.0, 0.0])
    assert sr.margin_text(pooled) == f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"
    assert sr.cpu_text(pooled) == f"{(2 * 0.3 + 4 * 0.6) / 6:.3f}, {(2 * 0.2 + 4 * 0.5) / 6:.3f}"
    table = sr.pairings({("g/2", probe): pooled})
    assert f"| g/2 | `{probe}` | 6 | " in table and "| 5/1/0 |" not in table and "| 4/1/1 |" in table

"""The arena on the small games: statistics worked out by hand, seat rotation, failures, records."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from palaestra_ladder.rules import LadderGame

from palaestra.ai.arena import elo_from_fraction, run_match, seat_assignment
from palaestra.core.errors import OptionError
from palaestra.core.outcome import Termination
from palaestra.core.record import Record
from tests.ai.games import DuelGame, LeadGame, TTTGame


def test_hand_computed_duel_statistics() -> None:
    # Duel: seat 0 adds 1 to its number. const:value=6 against const:value=5, 10 games, seats
    # rotated: A in seat 0 -> 7 vs 5, A wins; A in seat 1 -> 6 vs 6, draw.
    # A: 5 wins, 5 draws, 0 losses; scores 7 and 6 -> average 6.5; B: 5 and 6 -> 5.5.
    # Score fractions of A: five 1s and five 0.5s -> E = 0.75, Elo = 400 log10(3) = 190.85.
    # Sample sd = sqrt(10 * 0.25^2 / 9) = 0.26352, s.e. = 0.083333, half width = 1.96 * se
    # = 0.163330 -> E in [0.586670, 0.913330] -> Elo in [60.8, 409.1]. B mirrors A.
    result = run_match(DuelGame(), ["const:value=6", "const:value=5"], 10, seed=3)
    a, b = result.stats()
    assert (a.games, a.wins, a.draws, a.losses) == (10, 5, 5, 0)
    assert (b.games, b.wins, b.draws, b.losses) == (10, 0, 5, 5)
    assert a.average_score == pytest.approx(6.5) and b.average_score == pytest.approx(5.5)
    assert a.score_fraction == pytest.approx(0.75) and b.score_fraction == pytest.approx(0.25)
    elo, lo, hi = a.elo()
    assert elo == pytest.approx(190.85, abs=0.01)
    assert lo == pytest.approx(60.8, abs=0.1) and hi == pytest.approx(409.1, abs=0.1)
    elo_b, lo_b, hi_b = b.elo()
    assert elo_b == pytest.approx(-190.85, abs=0.01)
    assert lo_b == pytest.approx(-409.1, abs=0.1) and hi_b == pytest.approx(-60.8, abs=0.1)
    assert [o.seats for o in result.outcomes[:3]] == [[0, 1], [1, 0], [0, 1]]
    assert result.failures == []
    table = result.table()
    assert "const:value=6" in table and "+191 [+61, +409]" in table and "6.50" in table
    doc = result.to_json()
    json.dumps(doc)
    assert doc["stats"][0]["elo"] == pytest.approx(190.8, abs=0.1)
    assert doc["stats"][0]["wins"] == 5 and len(doc["games"]) == 10


def test_all_wins_give_an_infinite_elo() -> None:
    result = run_match(DuelGame(), ["const:value=9", "const:value=0"], 4, seed=1)
    a, b = result.stats()
    assert a.wins == 4 and b.losses == 4
    assert a.elo()[0] == math.inf and b.elo()[0] == -math.inf
    assert result.to_json()["stats"][0]["elo"] is None
    assert "+inf" in result.table()
    assert elo_from_fraction(0.5) == 0.0


def test_seats_rotate_fairly() -> None:
    assert seat_assignment(3, 3, 0) == [0, 1, 2]
    assert seat_assignment(3, 3, 1) == [1, 2, 0]
    assert seat_assignment(2, 3, 1) == [1, 0, 1]
    result = run_match(LadderGame(players=3, target=7), ["random", "greedy", "const:value=1"], 9, seed=5)
    counts = {(seat, agent): 0 for seat in range(3) for agent in range(3)}
    for o in result.outcomes:
        for seat, agent in enumerate(o.seats):
            counts[(seat, agent)] += 1
    assert set(counts.values()) == {3}
    assert all(st.games == 9 for st in result.stats())


def test_fewer_agents_than_seats_fill_the_seats_in_turn() -> None:
    result = run_match(LadderGame(players=3, target=7), ["random", "greedy"], 4, seed=5)
    assert [st.games for st in result.stats()] == [6, 6]  # seat-games: 2+1+2+1 each
    with pytest.raises(OptionError):
        run_match(TTTGame(), ["random", "random", "random"], 2)
    with pytest.raises(OptionError):
        run_match(TTTGame(), ["random", "no-such-agent"], 2)


def test_matches_are_reproducible_and_workers_agree() -> None:
    specs = ["mcts:iterations=30,rollout_depth=3", "greedy:epsilon=0.3"]
    one = run_match(LadderGame(target=8), specs, 6, seed=11).to_json()
    again = run_match(LadderGame(target=8), specs, 6, seed=11).to_json()
    parallel = run_match(LadderGame(target=8), specs, 6, seed=11, workers=2).to_json()
    assert one == again == parallel
    other = run_match(LadderGame(target=8), specs, 6, seed=12).to_json()
    assert other["games"] != one["games"]


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    run_match(TTTGame(), ["random", "random"], 5, seed=1, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(i, 5) for i in range(6)]


@pytest.mark.parametrize(
    ("spec", "kind", "params"),
    [
        ("boom", "exception", {}),
        ("cheat", "illegal", {}),
        ("sleepy:pause=0.3", "timeout", {"move_time_limit": 0.05}),
    ],
)
def test_failing_agents_lose_and_are_reported(spec: str, kind: str, params: dict[str, float]) -> None:
    result = run_match(TTTGame(), [spec, "random"], 4, seed=2, **params)  # type: ignore[arg-type]
    bad, good = result.stats()
    assert len(result.failures) == 4
    assert all(f.kind == kind and f.agent == 0 for f in result.failures)
    assert (bad.losses, bad.failures, good.wins) == (4, 4, 4)
    assert kind in result.table()
    assert result.to_json()["failures"][0]["kind"] == kind


def test_failure_with_three_players_ranks_the_failing_seat_last() -> None:
    result = run_match(LadderGame(players=3), ["cheat", "random", "random"], 3, seed=1)
    for o in result.outcomes:
        assert o.failure is not None and o.returns is not None
        bad_seat = o.seats.index(0)
        assert o.returns[bad_seat] == -1.0
        assert all(r == 0.5 for s, r in enumerate(o.returns) if s != bad_seat)


def test_records_are_saved_and_replay(tmp_path: Path) -> None:
    result = run_match(LadderGame(target=6), ["greedy", "random"], 3, seed=4, record_dir=tmp_path)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for o, path in zip(result.outcomes, files, strict=True):
        assert o.record == str(path)
        rec = Record.load(path)
        assert rec.players == [["greedy", "random"][a] for a in o.seats]
        state = rec.replay()
        rec.check_result(state)
        assert state.returns() == o.returns
        assert len(rec.moves) == o.moves


def test_a_settled_game_is_adjudicated_with_the_result_it_would_end_with(tmp_path: Path) -> None:
    # Lead: const:value=1 scores every turn, const:value=0 never. After 6 of the 10 plies the
    # scorer leads 3-0 and the other has 2 turns left, in either seat: settled, the scorer wins
    played = run_match(LeadGame(), ["const:value=1", "const:value=0"], 2, seed=3, adjudicate=False)
    result = run_match(LeadGame(), ["const:value=1", "const:value=0"], 2, seed=3, record_dir=tmp_path)
    assert [o.moves for o in played.outcomes] == [10, 10]
    assert [o.moves for o in result.outcomes] == [6, 6]
    assert [o.settled for o in result.outcomes] == [True, True]
    assert [o.returns for o in result.outcomes] == [o.returns for o in played.outcomes]
    assert [st.wins for st in result.stats()] == [2, 0]
    assert result.to_json()["games"][0]["termination"] == "adjudication"
    assert [o.termination for o in played.outcomes] == [Termination.RULES, Termination.RULES]
    for o in result.outcomes:
        assert o.record is not None
        rec = Record.load(o.record)
        assert rec.outcome is not None and rec.outcome.termination is Termination.ADJUDICATION
        assert list(rec.outcome.returns) == o.returns
        state = rec.replay()
        assert not state.is_terminal()
        rec.check_result(state)  # the replayed position gives the same settled result


def test_match_command_adjudicates_unless_told_not_to() -> None:
    from typer.testing import CliRunner

    from palaestra.cli import app

    runner = CliRunner()
    base = ["match", "lead", "--agents", "const:value=1,const:value=0", "-n", "2", "--seed", "3", "--json"]
    for flags, moves, ended in (([], 6, "adjudication"), (["--no-adjudicate"], 10, "rules")):
        out = runner.invoke(app, base + flags)
        assert out.exit_code == 0, out.output
        games = json.loads(out.output)["games"]
        assert [(g["moves"], g["termination"], g["returns"]) for g in games] == [
            (moves, ended, [1.0, -1.0]),
            (moves, ended, [-1.0, 1.0]),
        ]


def test_outcomes_count_each_seats_decisions_and_time() -> None:
    result = run_match(TTTGame(), ["mcts:iterations=200", "random"], 2, seed=3)
    for o in result.outcomes:
        assert o.decisions is not None and o.cpu is not None and o.longest is not None
        assert sum(o.decisions) == o.moves  # tic-tac-toe: no chance, every action a decision
        assert abs(o.decisions[0] - o.decisions[1]) <= 1
        searcher = o.seats.index(0)
        assert o.cpu[searcher] > o.cpu[1 - searcher] >= 0.0  # 200 simulations against a coin
        assert o.longest[searcher] > 0.0
        assert "cpu" not in o.to_json() and o.to_json(timings=True)["cpu"] == o.cpu

"""A tiny game for testing the research adapters before (and beside) the real games.

"Race to N": players take turns adding 1 or 2 to a shared total; whoever brings the total to the
target (or beyond) wins, every other player loses (``returns_from_ranks``). With the ``dice``
variant a chance node follows every move and adds 0 or 1 (a coin). Options cover every kind the
adapters must map: an int player count, an int target, a bool variant and a str option whose
default is ``None``. Notation: ``+1``, ``+2``; chance outcomes ``coin 0`` / ``coin 1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from palaestra.core.errors import NotationError
from palaestra.core.game import CHANCE, TERMINAL, Game, Option, State, returns_from_ranks
from palaestra.core.info import GameInfo


class RaceGame(Game):
    name = "race"
    title = "Race"
    OPTIONS = (
        Option("players", int, 2, "players", minimum=2, maximum=3),
        Option("target", int, 5, "total to reach", minimum=2, maximum=20),
        Option("dice", bool, False, "a coin after every move adds 0 or 1"),
        Option("label", str, None, "a free text shown by render"),
    )

    @property
    def num_players(self) -> int:
        return int(self.options["players"])  # type: ignore[arg-type]

    @property
    def target(self) -> int:
        return int(self.options["target"])  # type: ignore[arg-type]

    def num_distinct_actions(self) -> int:
        return 3  # ids 1 and 2 are moves; 0 is never legal for a player

    def max_chance_outcomes(self) -> int:
        return 2 if self.options["dice"] else 0

    def max_game_length(self) -> int:
        return 2 * self.target

    def observation_shape(self) -> tuple[int, ...]:
        return (self.num_players + self.target + 1,)

    def new_initial_state(self, seed: int | None = None) -> RaceState:
        return RaceState(self, seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> RaceState:
        state = RaceState(self, doc.get("seed"))
        for action in doc["history"]:
            state.apply_action(int(action))
        return state


class RaceState(State):
    game: RaceGame

    def __init__(self, game: RaceGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.total = 0
        self.mover = 0
        self.coin_due = False
        self.winner: int | None = None

    @property
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.coin_due else self.mover

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.coin_due:
            return [0, 1]
        return [1, 2]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if self.coin_due and self.winner is None else []

    def _apply(self, action: int) -> None:
        if self.coin_due:
            self.coin_due = False
            self.total += action
        else:
            self.total += action
            self.mover = (self.mover + 1) % self.game.num_players
            self.coin_due = bool(self.game.options["dice"])
        if self.total >= self.game.target:
            # the player whose move (or whose move's coin) reached the target wins
            self.winner = (self.mover - 1) % self.game.num_players
            self.coin_due = False

    def action_to_string(self, action: int) -> str:
        if self.coin_due:
            return f"coin {action}"
        return f"+{action}"

    def string_to_action(self, text: str) -> int:
        text = text.strip()
        if text in ("+1", "+2"):
            return int(text[1])
        if text in ("coin 0", "coin 1"):
            return int(text[-1])
        raise NotationError(f"cannot read {text!r}: write '+1' or '+2'")

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.winner is None:
            return [0.0] * n
        return returns_from_ranks([0 if p == self.winner else 1 for p in range(n)])

    def scores(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.num_players)]

    def render(self, labels: bool = False) -> str:
        label = self.game.options["label"]
        head = f"{label}: " if label else ""
        if self.winner is not None:
            return f"{head}total {self.total}/{self.game.target}, player {self.winner} won"
        who = "coin" if self.coin_due else f"player {self.mover}"
        return f"{head}total {self.total}/{self.game.target}, {who} to move"

    def observation_tensor(self, player: int) -> list[float]:
        n = self.game.num_players
        out = [0.0] * (n + self.game.target + 1)
        if self.winner is None:
            out[self.mover] = 1.0
        out[n + min(self.total, self.game.target)] = 1.0
        return out

    def observation_string(self, player: int) -> str:
        return f"player {player} sees: {self.render()}"

    def _to_dict(self) -> dict[str, Any]:
        return {"total": self.total}


#: what the test game declares: 2 or 3 players, set by its ``players`` option
INFO = GameInfo("race", "Race", RaceGame, player_counts=(2, 3), players_option="players")

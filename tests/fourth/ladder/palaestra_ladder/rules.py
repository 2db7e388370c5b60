"""Ladder, in rulebook order.

Set-up: every player stands on rung 0 of a ladder of ``target`` rungs; the first player begins.

Turn: the player to move climbs 1 or 2 rungs (``step 1``, ``step 2``). Unless that reached the
top, a die then gives the same player a bonus of 0, 1 or 2 rungs (a chance node: ``bonus 0``
with probability 1/2, ``bonus 1`` and ``bonus 2`` with 1/4 each), and the next player moves.
Variant ``calm``: no die, a turn is one step (a game without chance).

End: the first player on or above rung ``target`` wins; every other player loses.

Its options cover every kind of option the research adapters map: an int player count, an int
target, a bool variant and a text (``label``, a name shown on the board) whose default is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from palaestra.core.errors import NotationError
from palaestra.core.game import CHANCE, TERMINAL, Game, Option, State, returns_from_ranks

BONUS = ((0, 0.5), (1, 0.25), (2, 0.25))


class LadderGame(Game):
    name = "ladder"
    title = "Ladder"
    OPTIONS = (
        Option("players", int, 2, "players", minimum=2, maximum=3),
        Option("target", int, 10, "rungs to climb", minimum=3, maximum=30),
        Option("calm", bool, False, "no bonus die: a turn is one step"),
        Option("label", str, None, "a name for the ladder, shown on the board"),
    )

    @property
    def num_players(self) -> int:
        return int(self.options["players"])  # type: ignore[arg-type]

    @property
    def target(self) -> int:
        return int(self.options["target"])  # type: ignore[arg-type]

    def num_distinct_actions(self) -> int:
        return 3  # 1 and 2 are steps; 0 is never a player's action

    @property
    def calm(self) -> bool:
        return bool(self.options["calm"])

    def max_chance_outcomes(self) -> int:
        return 0 if self.calm else len(BONUS)

    def max_game_length(self) -> int:
        # a turn: a step and (unless calm) a bonus, at least one rung
        return (1 if self.calm else 2) * self.target * self.num_players

    def observation_shape(self) -> tuple[int, ...]:
        return (2 * self.num_players,)  # the rungs, then the mover (one-hot)

    def player_name(self, player: int) -> str:
        return ("red", "blue", "green")[player]

    def new_initial_state(self, seed: int | None = None) -> LadderState:
        return LadderState(self, seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> LadderState:
        state = LadderState(self, doc.get("seed"))
        state.rungs = [int(r) for r in doc["rungs"]]
        state.mover, state.bonus_due = int(doc["mover"]), bool(doc["bonus_due"])
        state.winner = doc["winner"]
        state.history = [int(a) for a in doc["history"]]
        return state


class LadderState(State):
    game: LadderGame

    def __init__(self, game: LadderGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.rungs = [0] * game.num_players
        self.mover = 0
        self.bonus_due = False
        self.winner: int | None = None

    @property
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.bonus_due else self.mover

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        return [a for a, _ in BONUS] if self.bonus_due else [1, 2]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(BONUS) if self.bonus_due and self.winner is None else []

    def _apply(self, action: int) -> None:
        self.rungs[self.mover] += action
        if self.rungs[self.mover] >= self.game.target:
            self.winner = self.mover
        elif self.bonus_due or self.game.calm:
            self.bonus_due = False
            self.mover = (self.mover + 1) % self.game.num_players
        else:
            self.bonus_due = True

    def action_to_string(self, action: int) -> str:
        return f"{'bonus' if self.bonus_due else 'step'} {action}"

    def string_to_action(self, text: str) -> int:
        word, _, number = text.strip().partition(" ")
        if word in ("step", "bonus") and number.strip() in ("0", "1", "2"):
            return int(number)
        raise NotationError(f"cannot read {text!r}: write 'step 1' or 'step 2'")

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0] * self.game.num_players
        return returns_from_ranks([0 if p == self.winner else 1 for p in range(self.game.num_players)])

    def scores(self) -> list[float]:
        return [float(r) for r in self.rungs]

    def evaluate(self) -> list[float]:
        """The AI's estimate: each player's lead over the average, in ladders (sums to 0)."""
        if self.winner is not None:
            return self.returns()
        mean = sum(self.rungs) / len(self.rungs)
        return [(r - mean) / self.game.target for r in self.rungs]

    def render(self, labels: bool = False) -> str:
        label = self.game.options["label"]
        rungs = "  ".join(f"{self.game.player_name(p)} {r}" for p, r in enumerate(self.rungs))
        return f"{f'{label}: ' if label else ''}ladder of {self.game.target}: {rungs}"

    def observation_tensor(self, player: int) -> list[float]:
        mover = [
            1.0 if p == self.mover and self.winner is None else 0.0 for p in range(self.game.num_players)
        ]
        return [float(min(r, 40)) for r in self.rungs] + mover

    def observation_string(self, player: int) -> str:
        return f"{self.game.player_name(player)} sees: {self.render()}"

    def _to_dict(self) -> dict[str, Any]:
        return {"rungs": self.rungs, "mover": self.mover, "bonus_due": self.bonus_due, "winner": self.winner}

    def clone(self) -> LadderState:
        other = LadderState(self.game, self.seed)
        other.rungs, other.mover, other.bonus_due = list(self.rungs), self.mover, self.bonus_due
        other.winner, other.history = self.winner, list(self.history)
        return other

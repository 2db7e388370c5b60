"""A tiny game for testing the core, the CLI and the records without the real games.

Two players take 1 or 2 stones in turn from a pile; whoever takes the last stone wins. A chance
node at the start decides who begins (coin toss). Notation: ``take 1``, ``take 2``; chance
outcomes ``first 0`` / ``first 1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from palaestra.core.errors import IllegalActionError, NotationError, PositionError
from palaestra.core.game import CHANCE, TERMINAL, Game, Option, State
from palaestra.core.info import GameInfo, WebAssets


class NimGame(Game):
    name = "nim"
    title = "Nim"
    OPTIONS = (
        Option("stones", int, 7, "stones in the pile", minimum=1, maximum=50),
        Option("players", int, 2, "players", choices=(2,)),
        Option("coin", bool, False, "toss a coin for the first player"),
    )

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return 3

    def max_chance_outcomes(self) -> int:
        return 2

    def max_game_length(self) -> int:
        return int(self.options["stones"] or 0) + 1  # type: ignore[arg-type]

    def observation_shape(self) -> tuple[int, ...]:
        return (1,)

    def new_initial_state(self, seed: int | None = None) -> NimState:
        return NimState(self, seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> NimState:
        s = NimState(self, doc.get("seed"))
        s.pile = int(doc["pile"])
        s.to_move = int(doc["to_move"])
        s.history = list(doc["history"])
        return s

    def state_from_position(self, doc: Mapping[str, Any]) -> NimState:
        pile = doc.get("pile")
        if not isinstance(pile, int) or pile < 0:
            raise PositionError("'pile' is a whole number of stones, 0 or more")
        s = NimState(self, None)
        s.pile = pile
        s.to_move = int(doc.get("to_move", 0))
        return s


class NimState(State):
    game: NimGame

    def __init__(self, game: NimGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.pile: int = int(game.options["stones"])  # type: ignore[arg-type]
        self.to_move = CHANCE if game.options["coin"] else 0

    @property
    def current_player(self) -> int:
        if self.pile == 0:
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [0, 1]
        return [a for a in (1, 2) if a <= self.pile]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if self.is_chance_node() else []

    def problem(self, action: int) -> str | None:
        if not self.is_terminal() and action in (1, 2) and action > self.pile:
            return f"only {self.pile} stone{'s' if self.pile != 1 else ''} left"
        return super().problem(action)

    def _apply(self, action: int) -> None:
        if self.to_move == CHANCE:
            self.to_move = action
            return
        self.pile -= action
        self.winner = self.to_move
        self.to_move = 1 - self.to_move

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return f"first {action}"
        return f"take {action}"

    def string_to_action(self, text: str) -> int:
        words = text.split()
        if len(words) == 2 and words[0] == "first" and words[1] in ("0", "1"):
            return int(words[1])
        if len(words) == 2 and words[0] == "take" and words[1] in ("1", "2"):
            return int(words[1])
        if len(words) == 2 and words[0] == "take":
            raise IllegalActionError("take 1 or 2 stones")
        raise NotationError(f"cannot read {text!r}: write 'take 1' or 'take 2'")

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        last = 1 - self.to_move
        return [1.0 if p == last else -1.0 for p in range(2)]

    def scores(self) -> list[float]:
        return [float(x) for x in self.returns()]

    def render(self, labels: bool = False) -> str:
        return f"pile: {'o' * self.pile} ({self.pile})"

    def observation_tensor(self, player: int) -> list[float]:
        return [float(self.pile)]

    def _to_dict(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move}

    def to_position(self) -> dict[str, Any]:
        return {"game": "nim", "pile": self.pile, "to_move": self.to_move}


#: what the test game declares: 2 players; the observation is the pile (up to 50 stones); no
#: renderer (the web app shows its text board) but its option in words for players
INFO = GameInfo(
    "nim",
    "Nim",
    NimGame,
    player_counts=(2,),
    players_option="players",
    observation_bounds=(0, 50),
    web=WebAssets(renderer=None, option_texts={"stones": ("Stones", "stones on the table at the start")}),
)

"""Small games for testing the agents and the arena without the real games: each is a probe of one
behaviour of the agents. The tests play a whole game with chance, with two or three players, on
the toy game Ladder (tests/fourth/ladder/, which has an ``evaluate``; it replaced the dice race and
the three-player nim of this module).

* ``ttt`` — tic-tac-toe. Actions 0-8 (cells row by row), notation ``c4``. evaluate: lines still
  open for one player and not the other, scaled into [-0.5, 0.5].
* ``bet`` — one move then one chance node: ``safe`` wins with probability 0.9, ``risky`` with 0.3.
* ``duel`` — each of two players names a number 0-9 in turn; seat 0 gets a bonus of 1; the
  higher total wins, equal totals draw. Scores are the totals.
* ``stall`` — seat 0 plays ``stall`` (0) or ``fight`` (1), then seat 1 plays 0 and the game
  ends drawn. After ``stall`` the position is dead (``dead_position()``: nobody can win) and
  ``evaluate`` gives seat 0 a little (0.1); after ``fight`` it says 0 (contempt tests).
* ``wide`` — one player names ``width`` numbers one after another (a turn of several actions
  among many), then the game ends; the return is the mean of the numbers scaled into [-1, 1].
* ``lead`` — two players take turns, ten actions in all, each ``0`` or ``1`` (a point); more
  points win. Its result is settled (``settled_result()``) as soon as the player behind could not
  draw level even by scoring every turn left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from palaestra.core.errors import NotationError
from palaestra.core.game import CHANCE, TERMINAL, Game, Option, State, returns_from_ranks


class SmallGame(Game):
    """Common plumbing of the test games."""

    state_class: ClassVar[type[SmallState]]
    players: ClassVar[int] = 2

    @property
    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return 10

    def max_game_length(self) -> int:
        return 100

    def observation_shape(self) -> tuple[int, ...]:
        return (1,)

    def new_initial_state(self, seed: int | None = None) -> SmallState:
        return self.state_class(self, seed)

    def _state_from_dict(self, doc: Mapping[str, Any]) -> SmallState:
        s = self.state_class(self, doc.get("seed"))
        for a in doc["history"]:
            s.apply_action(int(a))
        return s


class SmallState(State):
    def render(self, labels: bool = False) -> str:
        return repr(self._to_dict())

    def observation_tensor(self, player: int) -> list[float]:
        return [0.0]

    def action_to_string(self, action: int) -> str:
        return f"c{action}"

    def string_to_action(self, text: str) -> int:
        if text.startswith("c") and text[1:].isdigit():
            return int(text[1:])
        raise NotationError(f"cannot read {text!r}")

    def scores(self) -> list[float]:
        return self.returns()

    def _to_dict(self) -> dict[str, Any]:
        return {}


# --- tic-tac-toe ----------------------------------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TTTGame(SmallGame):
    name = "ttt"
    title = "Tic-tac-toe"

    def max_game_length(self) -> int:
        return 9


class TTTState(SmallState):
    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.board = [-1] * 9

    def clone(self) -> TTTState:
        s = TTTState.__new__(TTTState)
        s.game, s.seed, s.history, s.board = self.game, self.seed, list(self.history), list(self.board)
        return s

    def winner(self) -> int | None:
        b = self.board
        for x, y, z in LINES:
            if b[x] >= 0 and b[x] == b[y] == b[z]:
                return b[x]
        return None

    @property
    def current_player(self) -> int:
        if self.winner() is not None or len(self.history) == 9:
            return TERMINAL
        return len(self.history) % 2

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i in range(9) if self.board[i] < 0]

    def _apply(self, action: int) -> None:
        self.board[action] = len(self.history) % 2

    def returns(self) -> list[float]:
        w = self.winner()
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def evaluate(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        b = self.board
        open_ = [0, 0]
        for line in LINES:
            owners = {b[i] for i in line} - {-1}
            if len(owners) == 1:
                open_[owners.pop()] += 1
        v = (open_[0] - open_[1]) / 16
        return [v, -v]

    def _to_dict(self) -> dict[str, Any]:
        return {"board": self.board}


TTTGame.state_class = TTTState


# --- bet ------------------------------------------------------------------------------------------
class BetGame(SmallGame):
    name = "bet"
    title = "Bet"

    def max_chance_outcomes(self) -> int:
        return 2


class BetState(SmallState):
    """Action 0 = safe (win 90%), 1 = risky (win 30%); chance 1 = win, 0 = lose."""

    @property
    def current_player(self) -> int:
        return (0, CHANCE, TERMINAL)[min(len(self.history), 2)]

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        p = 0.9 if self.history[0] == 0 else 0.3
        return [(0, 1 - p), (1, p)]

    def _apply(self, action: int) -> None:
        pass

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.history[1] == 1 else [-1.0, 1.0]


BetGame.state_class = BetState


# --- duel (arena statistics) -----------------------------------------------------------------------
class DuelGame(SmallGame):
    name = "duel"
    title = "Duel"


class DuelState(SmallState):
    @property
    def current_player(self) -> int:
        return TERMINAL if len(self.history) == 2 else len(self.history)

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(range(10))

    def _apply(self, action: int) -> None:
        pass

    def scores(self) -> list[float]:
        h = self.history
        return [float(h[0] + 1) if h else 1.0, float(h[1]) if len(h) > 1 else 0.0]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.scores()
        return returns_from_ranks([0 if a >= b else 1, 0 if b >= a else 1])


DuelGame.state_class = DuelState


# --- wide: a turn of several actions among many --------------------------------------------------
class WideGame(SmallGame):
    name = "wide"
    title = "Wide"
    players = 1
    OPTIONS = (
        Option("width", int, 3, "actions in the turn", minimum=1, maximum=10),
        Option("choices", int, 60, "numbers to choose from", minimum=2, maximum=500),
    )

    def num_distinct_actions(self) -> int:
        return int(self.options["choices"])  # type: ignore[arg-type]


class WideState(SmallState):
    @property
    def current_player(self) -> int:
        return TERMINAL if len(self.history) >= int(self.game.options["width"]) else 0  # type: ignore[arg-type]

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(range(int(self.game.options["choices"])))  # type: ignore[arg-type]

    def _apply(self, action: int) -> None:
        pass

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0]
        top = int(self.game.options["choices"]) - 1  # type: ignore[arg-type]
        return [2 * sum(self.history) / (len(self.history) * top) - 1]

    def evaluate(self) -> list[float]:
        if not self.history:
            return [0.0]
        top = int(self.game.options["choices"]) - 1  # type: ignore[arg-type]
        return [2 * sum(self.history) / (len(self.history) * top) - 1]


WideGame.state_class = WideState


# --- stall: a dead position that looks a little better ---------------------------------------------
class StallGame(SmallGame):
    name = "stall"
    title = "Stall"


class StallState(SmallState):
    @property
    def current_player(self) -> int:
        return (0, 1, TERMINAL)[min(len(self.history), 2)]

    def legal_actions(self) -> list[int]:
        return [[0, 1], [0], []][min(len(self.history), 2)]

    def _apply(self, action: int) -> None:
        pass

    def dead_position(self) -> bool:
        return not self.is_terminal() and self.history[:1] == [0]

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def evaluate(self) -> list[float]:
        if not self.is_terminal() and self.history[:1] == [0]:
            return [0.1, -0.1]
        return [0.0, 0.0]


StallGame.state_class = StallState


# --- lead: a result settled before the end --------------------------------------------------------
class LeadGame(SmallGame):
    name = "lead"
    title = "Lead"


class LeadState(SmallState):
    PLIES = 10

    @property
    def current_player(self) -> int:
        return TERMINAL if len(self.history) >= self.PLIES else len(self.history) % 2

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1]

    def _apply(self, action: int) -> None:
        pass

    def scores(self) -> list[float]:
        return [float(sum(self.history[p::2])) for p in (0, 1)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.scores()
        return returns_from_ranks([0 if a >= b else 1, 0 if b >= a else 1])

    def settled_result(self) -> tuple[list[float], str] | None:
        if self.is_terminal():
            return None
        a, b = self.scores()
        left = self.PLIES - len(self.history)
        turns = [(left + (len(self.history) % 2 == p)) // 2 for p in (0, 1)]  # turns left per player
        if a - b > turns[1]:
            return [1.0, -1.0], "player 1 wins (settled)"
        if b - a > turns[0]:
            return [-1.0, 1.0], "player 2 wins (settled)"
        return None


LeadGame.state_class = LeadState

GAMES: dict[str, type[SmallGame]] = {
    g.name: g for g in (TTTGame, BetGame, DuelGame, WideGame, StallGame, LeadGame)
}

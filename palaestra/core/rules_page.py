"""A game's rules page for players: its text in each language and the rulebook's examples.

A game declares both in its :class:`~palaestra.core.info.WebAssets` (``rules``, ``examples``), in
modules of its own ``web/`` folder; the web app serves them at ``/rules/NAME``
(``palaestra/server/rules_pages.py``) without knowing the game.

- The text (:data:`RulesPages`): per language a title, an introduction and sections of short
  paragraphs, in plain text (the page escapes it), written for players: no ruling IDs.
- The examples (:class:`Example`): positions reached by playing moves in the game's notation on a
  fresh state (:class:`Script`), so that a figure can never show a position the rules forbid; a
  caption per language, whose numbers and field names the game may take from the position reached;
  the index of the section the figure follows; the legal actions to highlight. The web app draws
  each one with the game's own board renderer, as a game screen would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from palaestra.core.game import Game, State
from palaestra.core.registry import load_game


class RulesText(TypedDict):
    """One language's rules page: ``sections`` are ``(heading, [paragraph, ...])``."""

    title: str
    intro: str
    sections: list[tuple[str, list[str]]]


#: language code -> that language's page
RulesPages = Mapping[str, RulesText]


@dataclass(frozen=True)
class Example:
    """One figure of a rules page: the position after ``moves`` (each ``{"player", "move"}``), the
    section it follows (``after``, an index), its caption per language, the actions to highlight."""

    id: str
    after: int
    state: State
    moves: tuple[dict[str, Any], ...]
    caption: Mapping[str, str]
    show: tuple[int, ...] = ()

    @property
    def game(self) -> Game:
        return self.state.game


class Script:
    """A fresh state (seed 0) of a registered game and the moves played on it, in notation."""

    def __init__(self, game_name: str, **options: object) -> None:
        self.game = load_game(game_name, **options)
        self.state: State = self.game.new_initial_state(seed=0)
        self.moves: list[dict[str, Any]] = []

    def legal(self) -> list[str]:
        """The legal moves now (at a chance node, its outcomes), in notation."""
        state = self.state
        if state.is_chance_node():
            return [state.action_to_string(a) for a, _ in state.chance_outcomes()]
        return [state.action_to_string(a) for a in state.legal_actions()]

    def play(self, move: str) -> str:
        """Play ``move`` (notation); an illegal one raises the engine's error."""
        player = self.state.current_player
        self.state.apply_action(self.state.string_to_action(move))
        self.moves.append({"player": player, "move": move})
        return move

    def play_first(self, accept: Callable[[str], bool], key: Callable[[str], Any] = str) -> str | None:
        """Play the first legal move (in ``key`` order) that ``accept`` takes; None if there is none."""
        chosen = sorted((m for m in self.legal() if accept(m)), key=key)
        return self.play(chosen[0]) if chosen else None

    def shown(self, accept: Callable[[str], bool]) -> tuple[int, ...]:
        """The legal actions whose notation ``accept`` takes (to highlight in a figure)."""
        state = self.state
        return tuple(a for a in state.legal_actions() if accept(state.action_to_string(a)))

    def example(self, id: str, after: int, caption: Mapping[str, str], show: tuple[int, ...] = ()) -> Example:
        """The position reached so far as a figure (a copy: the script may play on)."""
        return Example(id, after, self.state.clone(), tuple(dict(m) for m in self.moves), dict(caption), show)

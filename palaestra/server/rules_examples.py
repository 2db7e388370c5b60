"""The rules pages' figures: each game's rulebook examples as the views its board renderer draws.

A game declares its examples (``WebAssets.examples``: positions played on the engine, with captions
in three languages; :mod:`palaestra.core.rules_page`). Here each becomes a :class:`Figure`: the VIEW
a game screen would get from the server (the fields the renderers read), the legal moves to
highlight and the captions. The rules page (``rules_pages.py``) embeds the figures as JSON;
``static/rules.js`` draws them with the game's renderer (``/games/NAME/web/board.js``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from palaestra.core.game import State
from palaestra.core.registry import game_info
from palaestra.core.rules_page import Example
from palaestra.server.game_hooks import web_data
from palaestra.server.service.view import jsonable


@dataclass(frozen=True)
class Figure:
    """One figure of a rules page: a position's view, what to highlight, and its caption."""

    id: str
    after: int  # the index of the rules page's section the figure follows
    view: dict[str, Any]
    caption: Mapping[str, str]
    show: list[dict[str, Any]] = field(default_factory=list)  # legal moves to highlight

    def to_json(self, lang: str) -> dict[str, Any]:
        return {"id": self.id, "view": self.view, "show": self.show, "caption": self.caption[lang]}


def view_of(example: Example) -> dict[str, Any]:
    """What a game screen gets from the server for the example's position."""
    return position_view(example.state, [dict(m) for m in example.moves], "example")


def position_view(
    state: State, moves: list[dict[str, Any]], view_id: str, legal: bool = False
) -> dict[str, Any]:
    """What a game screen gets from the server for ``state`` reached by ``moves`` (each
    ``{"player", "move"}``) in a game without seats of people (a figure, a lesson); ``legal``: the
    legal moves of the player to move are listed (a board the player may click)."""
    game = state.game
    player = state.current_player
    return {
        "id": view_id,
        "game": game.name,
        "title": game.title,
        "options": {k: v for k, v in game.options.items() if v is not None},
        "num_players": game.num_players,
        "seats": [
            {"seat": i, "player_name": game.player_name(i), "kind": "human", "name": None}
            for i in range(game.num_players)
        ],
        "ply": len(moves),
        "version": len(moves),
        "status": "finished" if state.is_terminal() else "active",
        "current_player": player,
        "to_move": game.player_name(player) if 0 <= player < game.num_players else None,
        "scores": state.scores(),
        "score_details": jsonable(state.score_details()),
        "moves": moves,
        "legal": [{"action": a, "move": state.action_to_string(a)} for a in state.legal_actions()]
        if legal and player >= 0
        else [],
        "web": web_data(game),
        "state": state.to_json(),
    }


def figure(example: Example) -> Figure:
    shown = [{"action": a, "move": example.state.action_to_string(a)} for a in example.show]
    return Figure(example.id, example.after, view_of(example), example.caption, shown)


@cache
def examples(game: str) -> list[Figure]:
    """The figures of ``game``'s rules page in page order (none for a game without any)."""
    return [figure(e) for e in game_info(game).rules_examples()]


__all__ = ["Figure", "examples", "figure", "position_view", "view_of"]

"""The browser UI: the page, static files, each game's ``web/`` renderer, and what the UI needs to
know of the games (``games_meta``, served by ``/api/meta``)."""

from __future__ import annotations

import importlib
from importlib import resources
from pathlib import Path as FilePath
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from palaestra.core.errors import PalaestraError
from palaestra.core.game import Game
from palaestra.core.registry import game_class, game_names, load_game
from palaestra.server.service.errors import ApiError
from palaestra.server.webhooks import web_module

STATIC = FilePath(str(resources.files("palaestra.server") / "static"))
#: files a game may ship in its ``web/`` folder
WEB_SUFFIXES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}

router = APIRouter(include_in_schema=False)


class SafeStaticFiles(StaticFiles):
    """Static files where a path the file system cannot take (``%00``) is a 404, not a 500."""

    async def get_response(self, path: str, scope: Any) -> Response:
        if "\x00" in path:
            raise StarletteHTTPException(404, "no such file")
        try:
            return await super().get_response(path, scope)
        except (ValueError, OSError):
            raise StarletteHTTPException(404, "no such file") from None


def _option_doc(option: Any) -> dict[str, Any]:
    return {
        "name": option.name,
        "kind": option.kind.__name__,
        "default": option.default,
        "help": option.help,
        "choices": list(option.choices) if option.choices is not None else None,
        "minimum": option.minimum,
        "maximum": option.maximum,
    }


def game_web_dir(name: str) -> FilePath | None:
    """The ``web/`` folder of a game's package, if it has one (found from the game's module)."""
    try:
        cls = game_class(name)
    except (PalaestraError, ImportError, AttributeError, TypeError):
        return None
    module = importlib.import_module(cls.__module__)
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    try:
        folder = FilePath(str(resources.files(package) / "web"))
    except (ModuleNotFoundError, TypeError):
        return None
    return folder if folder.is_dir() else None


def games_meta() -> list[dict[str, Any]]:
    """What the UI needs to offer a game: options, player counts with seat names, renderer."""
    out = []
    for name in game_names():
        try:
            cls = game_class(name)
            default = load_game(name)
        except Exception:  # a game that does not import yet is left out
            continue
        counts: list[int] = []
        players = next((o for o in cls.OPTIONS if o.name == "players"), None)
        if players is not None and players.choices:
            counts = [int(c) for c in players.choices]  # type: ignore[arg-type]
        elif players is not None and players.minimum is not None and players.maximum is not None:
            counts = list(range(players.minimum, players.maximum + 1))
        seatings = []
        for count in counts or [default.num_players]:
            try:
                game: Game = load_game(name, players=count) if counts else default
            except PalaestraError:
                continue
            seatings.append(
                {"players": game.num_players, "names": [game.player_name(i) for i in range(game.num_players)]}
            )
        web = game_web_dir(name)
        out.append(
            {
                "name": name,
                "title": cls.title,
                "options": [_option_doc(o) for o in cls.OPTIONS if o.server],
                "seatings": seatings,
                "renderer": f"/games/{name}/web/board.js" if web and (web / "board.js").is_file() else None,
                "undo": hasattr(web_module(name), "can_undo"),
            }
        )
    return out


@router.get("/games/{name}/web/{path:path}", include_in_schema=False)
async def game_web(name: str, path: str) -> Response:
    folder = game_web_dir(name) if "\x00" not in name + path else None
    if folder is None:
        raise ApiError(404, "not_found", f"{name} has no web renderer")
    target = (folder / path).resolve()
    inside = folder.resolve() in target.parents
    if not inside or target.suffix not in WEB_SUFFIXES or not target.is_file():
        raise ApiError(404, "not_found", f"no file {path!r} for {name}")
    return FileResponse(target, media_type=WEB_SUFFIXES[target.suffix], headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
async def index() -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

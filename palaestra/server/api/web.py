"""The browser UI: the page, static files, each game's ``web/`` renderer, and what the UI needs to
know of the games (``games_meta``, served by ``/api/meta``)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path as FilePath
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from palaestra.core.errors import PalaestraError
from palaestra.core.game import Game
from palaestra.core.info import GameInfo
from palaestra.core.registry import game_class, game_info, game_infos, load_game
from palaestra.i18n import LANGUAGES
from palaestra.server.game_hooks import has_undo
from palaestra.server.service.errors import DomainError

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


def _option_doc(option: Any, texts: Mapping[str, tuple[str, str]]) -> dict[str, Any]:
    label, explain = texts.get(option.name, (None, None))
    return {
        "name": option.name,
        "kind": option.kind.__name__,
        "default": option.default,
        "help": option.help,
        "label": label,
        "explain": explain,
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


def web_assets(name: str) -> dict[str, Any]:
    """The URLs of the files a game declares in ``GameInfo.web`` that its ``web/`` folder has: the
    renderer, its stylesheet, and its catalogue per language (English needs none)."""
    web = game_info(name).web
    folder = game_web_dir(name)

    def url(file: str | None) -> str | None:
        return f"/games/{name}/web/{file}" if folder and file and (folder / file).is_file() else None

    pattern = web.catalogue
    catalogues = (
        {lang: url(pattern.format(lang=lang)) for lang in LANGUAGES if lang != "en"} if pattern else {}
    )
    return {
        "renderer": url(web.renderer),
        "stylesheet": url(web.stylesheet),
        "catalogues": {lang: u for lang, u in catalogues.items() if u},
    }


def _seatings(info: GameInfo) -> list[dict[str, Any]]:
    """The player counts the game is played with, each with its seats' names."""
    seatings = []
    for count in info.player_counts:
        try:
            game: Game = load_game(info.name, **info.options_for_players(count))
        except PalaestraError:
            continue
        seatings.append(
            {"players": game.num_players, "names": [game.player_name(i) for i in range(game.num_players)]}
        )
    return seatings


def games_meta() -> list[dict[str, Any]]:
    """What the UI needs to offer a game, in menu order (``GameInfo.menu_rank``): options with their
    texts for players, player counts with seat names, the files of its ``web/`` folder."""
    out = []
    for info in game_infos():
        try:
            options = info.options()
            seatings = _seatings(info)
        except Exception:  # a game that does not import yet is left out
            continue
        out.append(
            {
                "name": info.name,
                "title": info.title,
                "options": [_option_doc(o, info.web.option_texts) for o in options if o.server],
                "players_option": info.players_option,
                "seatings": seatings,
                **web_assets(info.name),
                "undo": has_undo(info.name),
                "learn": info.web.lessons is not None,  # a course at /learn/NAME
            }
        )
    return out


@router.get("/games/{name}/web/{path:path}", include_in_schema=False)
async def game_web(name: str, path: str) -> Response:
    folder = game_web_dir(name) if "\x00" not in name + path else None
    if folder is None:
        raise DomainError("not_found", f"{name} has no web renderer")
    target = (folder / path).resolve()
    inside = folder.resolve() in target.parents
    if not inside or target.suffix not in WEB_SUFFIXES or not target.is_file():
        raise DomainError("not_found", f"no file {path!r} for {name}")
    return FileResponse(target, media_type=WEB_SUFFIXES[target.suffix], headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
async def index() -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


# Pages of the UI at real paths (issue 28), so that their links can be shared as they are: the same
# page, whose router reads the path (router.js). Everything else of the UI lives in the fragment.
@router.get("/@/{name}", include_in_schema=False)
async def profile_page(name: str) -> Response:
    return await index()


@router.get("/leaderboard", include_in_schema=False)
@router.get("/leaderboard/{pool}", include_in_schema=False)
async def leaderboard_page(pool: str | None = None) -> Response:
    return await index()


@router.get("/learn", include_in_schema=False)
@router.get("/learn/{game}", include_in_schema=False)
async def learn_page(game: str | None = None) -> Response:
    return await index()

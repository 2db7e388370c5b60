"""The ASGI app of ``palaestra serve``: the HTTP API, the websockets and the browser UI.

The API is documented by its OpenAPI schema (``/openapi.json``, browsable at ``/docs``) and in
docs/web.md. Every error is JSON ``{"error": CODE, "message": TEXT}`` with a fitting status.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException

from palaestra import __version__
from palaestra.core.errors import PalaestraError, RecordError
from palaestra.core.game import Game
from palaestra.core.registry import game_class, game_names, load_game
from palaestra.i18n import LANGUAGES
from palaestra.server.api.edge import BodyLimit, SecurityHeaders
from palaestra.server.api.guards import Guards, RateLimited, limit
from palaestra.server.api.models import CreateGame, JoinSeat, Resign, SubmitAction, Undo
from palaestra.server.broker import make_broker
from palaestra.server.db import StorageError, Store, default_database_url
from palaestra.server.hub import ApiError, Hub
from palaestra.server.rules_pages import router as rules_router
from palaestra.server.settings import Settings
from palaestra.server.webhooks import web_module

log = logging.getLogger("palaestra.server")
STATIC = FilePath(str(resources.files("palaestra.server") / "static"))
#: files a game may ship in its ``web/`` folder
WEB_SUFFIXES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}


# --- helpers -------------------------------------------------------------------------------------
def _error(status: int, code: str, message: str) -> JSONResponse:
    # a message may quote what the client sent: never let its bad text break the answer
    safe = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": code, "message": safe}, status_code=status)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


class SafeStaticFiles(StaticFiles):
    """Static files where a path the file system cannot take (``%00``) is a 404, not a 500."""

    async def get_response(self, path: str, scope: Any) -> Response:
        if "\x00" in path:
            raise StarletteHTTPException(404, "no such file")
        try:
            return await super().get_response(path, scope)
        except (ValueError, OSError):
            raise StarletteHTTPException(404, "no such file") from None


def _invite(game_id: str, code: str | None) -> str | None:
    """The invitation link: the code stays in the URL fragment (never sent to the server)."""
    return f"/#/join/{game_id}/{code}" if code else None


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
            counts = [int(c) for c in players.choices]
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


# --- the app -------------------------------------------------------------------------------------
def create_app(
    database_url: str | None = None,
    *,
    ai_delay: float = 0.4,
    settings: Settings | None = None,
    redis_url: str | None = None,
) -> FastAPI:
    """The app on a database (default: SQLite in the user's data directory). With ``redis_url``
    it is one of many processes on one database (docs/deploy.md): changes are announced over Redis
    and the server's moves are jobs for ``palaestra worker`` processes."""
    url = database_url or default_database_url()
    config = settings or Settings.from_env()
    guards = Guards(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url, pool_size=config.db_pool_size, max_overflow=config.db_max_overflow)
        app.state.store = store
        await asyncio.to_thread(store.migrate)
        queue = None
        if redis_url:
            from palaestra.server.worker import ArqQueue

            queue = ArqQueue(redis_url)
            await queue.start()
        hub = Hub(store, ai_delay=ai_delay, broker=make_broker(redis_url), queue=queue)
        app.state.hub = hub
        hub.on_action = guards.actions.inc
        hub.idle_seconds = config.idle_evict_seconds
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            if queue is not None:
                await queue.stop()
            store.close()

    app = FastAPI(
        title="Palaestra",
        version=__version__,
        description="Play Athos, Archimedes and Agamemnon: games, seats, actions, records, live updates.",
        lifespan=lifespan,
    )
    app.state.guards = guards

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    # --- errors ------------------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def api_error(request: Request, err: ApiError) -> JSONResponse:
        response = _error(err.status, err.code, err.message)
        if isinstance(err, RateLimited):
            response.headers["Retry-After"] = str(err.retry_after)
        return response

    @app.middleware("http")
    async def measure(request: Request, call_next: Any) -> Response:
        start = time.perf_counter()
        response: Response = await call_next(request)
        route = request.scope.get("route")
        template = getattr(route, "path", "other") if route is not None else "other"
        guards.latency.labels(request.method, template, str(response.status_code)).observe(
            time.perf_counter() - start
        )
        return response

    @app.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse)
    async def metrics(request: Request) -> Response:
        hub = hub_of(request)
        guards.loaded.set(len(hub.sessions))
        guards.active.set(sum(1 for s in hub.sessions.values() if s.status == "active"))
        return Response(generate_latest(guards.registry), media_type=CONTENT_TYPE_LATEST)

    @app.exception_handler(StorageError)
    async def storage_error(request: Request, err: StorageError) -> JSONResponse:
        return _error(503, "storage_unavailable", str(err))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, err: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error(500, "internal_error", "an unexpected error; it has been logged")

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, err: RequestValidationError) -> JSONResponse:
        problems = err.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return _error(400, "malformed_json", "the request body is not valid JSON")
        if any(tuple(p.get("loc", ())) == ("body",) for p in problems):
            return _error(400, "malformed_json", "the request body must be a JSON object")
        parts = []
        for p in problems[:3]:
            where = ".".join(str(x) for x in p.get("loc", ()) if x != "body")
            parts.append(f"{where or 'body'}: {p.get('msg', 'invalid')}")
        return _error(422, "invalid_request", "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        return _error(err.status_code, HTTP_CODES.get(err.status_code, "http_error"), str(err.detail))

    # --- operations ----------------------------------------------------------------------------
    @app.get("/healthz", summary="Alive: the process answers (no database access)")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get(
        "/readyz",
        summary="Ready: the database answers",
        responses={503: {"description": "the database does not answer"}},
    )
    async def readyz(request: Request) -> dict[str, str]:
        store: Store = request.app.state.store
        await asyncio.to_thread(store.ping)  # StorageError: 503 storage_unavailable
        return {"status": "ready"}

    # --- meta and listing --------------------------------------------------------------------
    @app.get("/api/meta", summary="Games, their options and seatings, AI levels")
    async def meta(request: Request) -> dict[str, Any]:
        games = await asyncio.to_thread(games_meta)
        return {
            "version": __version__,
            "games": games,
            "ai_levels": hub_of(request).levels,
            "languages": list(LANGUAGES),  # of the UI and the rules pages (issue 21)
        }

    @app.get("/api/games", summary="Recent games (to watch or resume)")
    async def list_games(
        request: Request, limit: Annotated[int, Query(ge=1, le=200)] = 50
    ) -> list[dict[str, Any]]:
        return await hub_of(request).list_games(limit)

    @app.post("/api/games", status_code=201, summary="Create a game", dependencies=[Depends(limit("create"))])
    async def create_game(request: Request, body: CreateGame) -> dict[str, Any]:
        hub = hub_of(request)
        session, created = await hub.create(
            body.game,
            {k: v for k, v in body.options.items() if v is not None},
            [s.model_dump() for s in body.seats],
            body.seed,
            public=body.public,
            hints=body.hints,
        )
        seats = [
            {
                "seat": i,
                "kind": session.seats[i].kind,
                "token": token,
                "invite": _invite(session.id, code),
            }
            for i, (token, code) in enumerate(zip(created.tokens, created.invites, strict=True))
        ]
        return {
            "id": session.id,
            "creator_token": created.creator_token,
            "seats": seats,
            "game": session.view(),
        }

    @app.get("/api/games/{game_id}", summary="The state of a game (for players and spectators)")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        return (await hub_of(request).get(game_id)).view()

    @app.get("/api/games/{game_id}/legal", summary="The legal actions of the human seat to move")
    async def legal(request: Request, game_id: str) -> dict[str, Any]:
        view = (await hub_of(request).get(game_id)).view()
        return {"ply": view["ply"], "current_player": view["current_player"], "legal": view["legal"]}

    @app.post("/api/games/{game_id}/join", summary="Take the seat of an invitation (uses the code up)")
    async def join(request: Request, game_id: str, body: JoinSeat) -> dict[str, Any]:
        hub = hub_of(request)
        seat, token = await hub.join(game_id, body.code, body.name)
        return {"seat": seat, "token": token, "game": (await hub.get(game_id)).view()}

    @app.post(
        "/api/games/{game_id}/seats/{seat}/invitation",
        summary="Creator: withdraw a seat's unused invitation and issue a new one",
    )
    async def reinvite(
        request: Request,
        game_id: str,
        seat: Annotated[int, Path(ge=0, le=16)],
        x_creator_token: Annotated[str, Header(max_length=64, description="the creator token")],
    ) -> dict[str, Any]:
        code = await hub_of(request).reinvite(game_id, x_creator_token, seat, new=True)
        return {"seat": seat, "invite": _invite(game_id, code)}

    @app.delete(
        "/api/games/{game_id}/seats/{seat}/invitation",
        summary="Creator: withdraw a seat's unused invitation",
    )
    async def revoke(
        request: Request,
        game_id: str,
        seat: Annotated[int, Path(ge=0, le=16)],
        x_creator_token: Annotated[str, Header(max_length=64, description="the creator token")],
    ) -> dict[str, Any]:
        await hub_of(request).reinvite(game_id, x_creator_token, seat, new=False)
        return {"seat": seat, "invite": None}

    @app.post(
        "/api/games/{game_id}/actions",
        summary="Play an action for a seat",
        dependencies=[Depends(limit("actions"))],
    )
    async def act(request: Request, game_id: str, body: SubmitAction) -> dict[str, Any]:
        session = await hub_of(request).act(game_id, body.token, body.ply, body.action, body.move)
        return session.view()

    @app.post("/api/games/{game_id}/resign", summary="Resign a seat (ends the game)")
    async def resign(request: Request, game_id: str, body: Resign) -> dict[str, Any]:
        return (await hub_of(request).resign(game_id, body.token)).view()

    @app.post(
        "/api/games/{game_id}/undo",
        summary="Take back your own last action of this turn",
        dependencies=[Depends(limit("actions"))],
    )
    async def undo(request: Request, game_id: str, body: Undo) -> dict[str, Any]:
        return (await hub_of(request).undo(game_id, body.token, body.ply)).view()

    @app.get(
        "/api/games/{game_id}/analysis",
        summary="The AI's view of a move of a finished game (strong agent, small budget)",
        dependencies=[Depends(limit("analysis"))],
    )
    async def analysis(
        request: Request,
        game_id: str,
        ply: Annotated[int, Query(ge=0, description="moves before the one analysed")],
        top: Annotated[int, Query(ge=1, le=10)] = 3,
    ) -> dict[str, Any]:
        return await hub_of(request).analysis(game_id, ply, top)

    @app.get("/api/games/{game_id}/record", summary="The game record (core record JSON, format 1)")
    async def record(request: Request, game_id: str) -> dict[str, Any]:
        return (await hub_of(request).get(game_id)).record_json()

    @app.get("/api/games/{game_id}/replay", summary="The position after the first PLY moves")
    async def replay(request: Request, game_id: str, ply: Annotated[int, Query(ge=0)]) -> dict[str, Any]:
        session = await hub_of(request).get(game_id)
        if ply > session.ply:
            raise ApiError(400, "bad_ply", f"the game has {session.ply} moves, not {ply}")
        rec = session.record

        def build() -> dict[str, Any]:
            try:
                state = rec.replay(ply)
            except RecordError as err:
                raise ApiError(500, "broken_game", str(err)) from None
            return {
                "ply": ply,
                "moves": len(rec.moves),
                "last_move": rec.moves[ply - 1].to_json() if ply > 0 else None,
                "current_player": state.current_player,
                "scores": state.scores(),
                "state": state.to_json(),
                "text": state.render(),
            }

        return await asyncio.to_thread(build)

    @app.get(
        "/api/games/{game_id}/hint",
        summary="The strong agent's top moves for the seat to move",
        dependencies=[Depends(limit("hints"))],
    )
    async def hint(
        request: Request,
        game_id: str,
        x_seat_token: Annotated[str | None, Header(description="a seat's secret token")] = None,
        top: Annotated[int, Query(ge=1, le=10)] = 3,
    ) -> list[dict[str, Any]]:
        if not x_seat_token:
            raise ApiError(403, "wrong_token", "hints are for players: send the X-Seat-Token header")
        return await hub_of(request).hint(game_id, x_seat_token, top)

    # --- websocket ---------------------------------------------------------------------------
    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        hub = hub_of(websocket)
        if not guards.open_socket(websocket):
            await websocket.accept()
            await websocket.close(code=1013, reason="too many websockets; try again later")
            return
        try:
            await serve_socket(websocket, hub, game_id)
        finally:
            guards.close_socket(websocket)

    async def serve_socket(websocket: WebSocket, hub: Hub, game_id: str) -> None:
        try:
            session = await hub.get(game_id)
        except ApiError as err:
            await websocket.accept()
            await websocket.send_json({"type": "error", "error": err.code, "message": err.message})
            await websocket.close(code=4404)
            return
        await websocket.accept()
        queue = await hub.watch(session)
        await hub.get(game_id)  # changed elsewhere before we listened? (then reloaded in place)
        await websocket.send_json({"type": "state", "game": session.view()})

        async def send() -> None:
            while True:
                message = await queue.get()
                if message.get("type") == "closing":
                    await websocket.close(code=1001)
                    return
                await websocket.send_json(message)

        async def receive() -> None:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:  # a binary frame: say why, and close properly
                    await websocket.close(code=1003, reason="text frames only")
                    return
                try:
                    incoming = json.loads(text)
                except json.JSONDecodeError:
                    incoming = None
                if isinstance(incoming, dict) and incoming.get("type") == "ping":
                    queue.put_nowait({"type": "pong"})
                else:
                    queue.put_nowait(
                        {
                            "type": "error",
                            "error": "bad_message",
                            "message": 'send {"type": "ping"} only; play through the HTTP API',
                        }
                    )

        tasks = [asyncio.create_task(send()), asyncio.create_task(receive())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except WebSocketDisconnect:
            pass
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                    await task
            await hub.unwatch(session, queue)

    # --- the browser UI ----------------------------------------------------------------------
    @app.get("/games/{name}/web/{path:path}", include_in_schema=False)
    async def game_web(name: str, path: str) -> Response:
        folder = game_web_dir(name) if "\x00" not in name + path else None
        if folder is None:
            raise ApiError(404, "not_found", f"{name} has no web renderer")
        target = (folder / path).resolve()
        inside = folder.resolve() in target.parents
        if not inside or target.suffix not in WEB_SUFFIXES or not target.is_file():
            raise ApiError(404, "not_found", f"no file {path!r} for {name}")
        return FileResponse(
            target, media_type=WEB_SUFFIXES[target.suffix], headers={"Cache-Control": "no-cache"}
        )

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.include_router(rules_router)  # /rules/GAME (palaestra/server/rules_pages.py)
    app.mount("/static", SafeStaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    return app

"""The websocket of a game: the state after every change, pushed to players and spectators.

A client receives ``{"type": "state", "game": VIEW}`` at once and after every change; it may send
``{"type": "ping"}`` (answered ``{"type": "pong"}``). Closing codes: 1001 the server shuts down,
1003 a binary frame, 1013 too many websockets (per client or in all), 4404 no such game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from palaestra.server.api.deps import get_guards, get_hub
from palaestra.server.service.errors import ApiError
from palaestra.server.service.hub import Hub

router = APIRouter()


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    guards = get_guards(websocket)
    if not guards.open_socket(websocket):
        await websocket.accept()
        await websocket.close(code=1013, reason="too many websockets; try again later")
        return
    try:
        await serve_socket(websocket, get_hub(websocket), game_id)
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
    queue = await hub.sessions.watch(session)
    await websocket.send_text(session.state_message())

    async def send() -> None:
        while True:
            message = await queue.get()
            if isinstance(message, str):  # a state, encoded once for all sockets
                await websocket.send_text(message)
                continue
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
        await hub.sessions.unwatch(session, queue)

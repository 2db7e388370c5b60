"""Running the app under uvicorn with a graceful end for websockets.

On SIGTERM or Ctrl+C uvicorn closes every open websocket itself with code 1012 ("service
restart") before the app's shutdown runs. :class:`Server` first tells the app's websockets that the
server goes away, so each closes with 1001 ("going away", what docs/web.md promises and what the
UI reconnects on), and only then lets uvicorn shut down.

:class:`WebSocketProtocol` is uvicorn's websocket protocol, except that a client which goes on
sending after the app closed its socket is dropped at once (issue 31).
"""

from __future__ import annotations

import socket
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from palaestra.server.app import close_websockets

#: websocket paths served without permessage-deflate (:meth:`WebSocketProtocol.handle_connect`)
UNCOMPRESSED = frozenset({"/api/lobby/ws"})


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (``websockets``, sans-I/O; what uvicorn picks by default),
    which after the app closes a socket keeps reading, and throwing away, whatever the client
    sends until it answers the close or 10 s pass. A flooding client that reads nothing never sees
    the close: the server went on parsing its frames for those 10 s (issue 31, finding 3: the
    others' p95 stayed at seconds although every flooding socket was closed). Here a message that
    arrives after the close drops the connection at once (the close frame went out before it), and
    a client that sends nothing gets 2 s to answer the close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = 2.0

    def handle_connect(self, event: Request) -> None:
        """The lobby's websocket without permessage-deflate: it fans each change out to every
        lobby page, and each socket compresses with a zlib context of its own, so nothing of one
        socket's work serves another: compressing was some 30 % of the server's CPU per message
        sent, for messages of under a kilobyte (docs/benchmarks.md, "Lobby under load")."""
        if urlsplit(event.path).path in UNCOMPRESSED:
            self.conn.available_extensions = []
        super().handle_connect(event)

    def send_receive_event_to_app(self) -> None:
        if self.close_sent:
            self.frames = []
            self.transport.close()
            return
        super().send_receive_event_to_app()


class Server(uvicorn.Server):
    """uvicorn's server; at shutdown the app's websockets close with 1001 first."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.palaestra_app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await close_websockets(self.palaestra_app)
        await super().shutdown(sockets)


#: the largest websocket frame uvicorn reads at all (its default is 16 MiB; more if
#: ``ws_max_message_bytes`` is more): a frame past it closes the socket with 1009 before the app
#: sees it. Messages past ``ws_max_message_bytes`` (4 KiB) are closed with 1008 and counted by the
#: app (palaestra/server/api/realtime.py); this bounds what one socket can make the server buffer
#: before then (uvicorn reads at most 32 frames ahead)
WS_MAX_FRAME = 64 * 1024


def run(app: FastAPI, host: str, port: int, log_level: str = "info", access_log: bool = False) -> None:
    """Serve ``app`` until SIGINT/SIGTERM (like ``uvicorn.run``). uvicorn's access log (a line
    per request) is off unless ``access_log``: formatting and writing it was some 3 % of the
    server's CPU per action (docs/benchmarks.md); errors are still logged."""
    guards = getattr(app.state, "guards", None)
    frame = max(WS_MAX_FRAME, guards.settings.ws_max_message_bytes if guards is not None else 0)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log,
        ws=WebSocketProtocol,
        ws_max_size=frame,
    )
    Server(config, app).run()

"""Issue 17 finding 10: a real ``palaestra serve`` process (uvicorn, palaestra/server/serving.py)
asked to stop (SIGTERM) closes its open websockets with code 1001 ("going away"), not uvicorn's
1012, and every socket gets its close frame. (A binary frame's close frame, 1003, is tested in
tests/server/test_hardening.py.)"""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.server_process import ServerProcess

pytestmark = pytest.mark.services


def test_stopping_the_server_closes_every_websocket_with_1001(db_url: str) -> None:
    server = ServerProcess(db_url).start()
    try:
        body = {"game": "nim", "seats": [{"kind": "human", "joined": True}] * 2}
        gid = httpx.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
        ws_url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        sockets = [connect(ws_url, open_timeout=10).__enter__() for _ in range(3)]
        for ws in sockets:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
        assert server.proc is not None
        server.proc.terminate()  # SIGTERM, as a service manager stops it
        for ws in sockets:
            try:
                while True:
                    ws.recv(timeout=10)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None, "no close frame"
                assert closed.rcvd.code == 1001, closed.rcvd
            ws.close()
        # uvicorn ends by raising the signal it caught again, after a clean shutdown
        assert server.proc.wait(timeout=20) in (0, -15)
    finally:
        server.stop()

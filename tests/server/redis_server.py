"""A throwaway Redis server for the tests, started from Debian's ``redis-server``.

It listens on a Unix socket in a temporary folder (no TCP port, so no port to race for), keeps
nothing on disk, and is stopped (and its folder removed) by ``stop()``. Without ``redis-server``
installed the tests that need it fail with a message saying what to install: they are not skipped.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

INSTALL_HINT = "the Redis tests need Debian's Redis server: apt-get install redis-server"


class RedisServer:
    """``start()`` a server, ``url`` to reach it, ``stop()`` at the end (``kill()`` as a crash)."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError(INSTALL_HINT)
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="palaestra-redis-"))
        self.socket = self.root / "redis.sock"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--unixsocketperm",
                "700",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
                "--logfile",
                str(self.root / "log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + 20
        while not self.ping():
            if self.proc.poll() is not None:
                log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}: {log[-2000:]}")
            if time.monotonic() > end:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)
        return self

    def ping(self) -> bool:
        import redis

        if not self.socket.exists():
            return False
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def halt(self) -> None:
        """Stop the server but keep its folder (``start()`` again on the same socket)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.socket.unlink(missing_ok=True)

    def stop(self) -> None:
        try:
            self.halt()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

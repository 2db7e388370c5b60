"""A real server process on a free port (for the restart and browser tests)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _env() -> dict[str, str]:
    # every browser of the tests is the same client (127.0.0.1): lift the per-client rate limits
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for what in ("CREATE", "ACTIONS", "HINTS", "ANALYSIS"):
        env.setdefault(f"PALAESTRA_RATE_{what}", "10000/minute")
    return env


class ServerProcess:
    def __init__(self, db_url: str, ai_delay: float = 0.0, redis_url: str | None = None) -> None:
        self.db_url = db_url
        self.ai_delay = ai_delay
        self.redis_url = redis_url
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        args = [str(self.port), self.db_url, str(self.ai_delay)]
        if self.redis_url:
            args.append(self.redis_url)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.server.launch", *args], cwd=ROOT, env=_env()
        )
        end = time.monotonic() + 60
        while True:
            try:
                if httpx.get(self.url + "/api/meta", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            if time.monotonic() > end:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    def kill(self) -> None:
        """Stop the process at once (SIGKILL: no shutdown, as in a crash)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class WorkerProcess:
    """``palaestra worker`` (with the tests' game ``nim``), its log in ``log``."""

    def __init__(
        self, db_url: str, redis_url: str, log: Path, ai_delay: float = 0.0, job_timeout: float = 3.0
    ):
        self.args = ["worker", db_url, redis_url, str(ai_delay), str(job_timeout)]
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.server.launch", *self.args],
                cwd=ROOT,
                env=_env(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        end = time.monotonic() + 60
        while "worker ready" not in self.log.read_text(errors="replace"):
            if self.proc.poll() is not None:
                raise RuntimeError(f"the worker exited with {self.proc.returncode}: {self.log.read_text()}")
            if time.monotonic() > end:
                raise RuntimeError("the worker did not start")
            time.sleep(0.05)
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

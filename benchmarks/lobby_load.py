"""The lobby under load (issue 29): seeks seen across processes, and what the lobby costs the games.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/lobby_load.py [--database postgres|sqlite]
        [--seeks 1000] [--sockets 500] [--probe-rate 4] [--alone-probes 200]
        [--games 50] [--seconds 30] [--probe-life 2] [--profile DIR]

Starts a throwaway Redis (tests/server/redis_server.py) and two ``palaestra serve --redis-url``
processes on one database (a throwaway PostgreSQL cluster, tests/server/postgres.py, fsync on; or
one SQLite file), started as benchmarks/server_load.py starts them (per-client limits lifted).
Then, in one run:

1. **Games alone**: the game load of server_load.py (``--games`` games between two people, each
   player sending a random legal move as fast as the answers come; a game's two seats talk to
   different processes): game actions/s for ``--seconds``.
2. **The lobby** is set up by a client process of its own (so that its CPU is not the game
   client's): ``--sockets`` lobby websockets opened, half on each process, then ``--seeks`` open
   seeks posted (guests), each through the process of one socket, which holds it at once
   (``{"type": "hold"}``, as the poster's page does), so none of them ends while the run lasts.
3. **Seeks alone**: ``--alone-probes`` probe seeks are posted on process A at ``--probe-rate`` a
   second and each withdrawn ``--probe-life`` seconds later (every probe is two changes pushed to
   every socket). Its latency: from the moment the POST is sent to A to the moment the seek's
   message arrives on a websocket of B: on the first of B's sockets, and on *every* one of B's
   sockets (the figure the aim is read on: p99 over every probe and socket).
4. **Games with the lobby**: the game load again while the probes go on at the same rate: actions/s,
   and the probes' latency under that load.
5. **Games alone, again** (the lobby client gone): the machine's drift shows between 1 and 5.

Printed: the figures of each step, and the ratio of the actions/s of 4 to the mean of 1 and 5;
with each probe step the CPU seconds of the lobby client and (step 3) of the servers, and each
per lobby message received (a message is one change pushed to one socket).
Aims of the issue: p99 ≤ 200 ms, ratio ≥ 0.8. The machine is shared: read the load average too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import server_load

ROOT = Path(__file__).resolve().parents[1]
SEEK = {"game": "archimedes", "options": {}, "players": 2}
#: a probe's name, found in the raw text of a socket's message (no JSON parsing per message)
PROBE = re.compile(r'^\{"type": "seek", .*"name": "probe-(\d+)"')


# --- the lobby client (a process of its own) -----------------------------------------------------
class LobbyClient:
    """The seeks, the sockets and the probes, against ``urls[0]`` (A) and ``urls[1]`` (B)."""

    def __init__(self, urls: list[str], args: argparse.Namespace) -> None:
        self.urls, self.args = urls, args
        self.clients = [httpx.AsyncClient(base_url=u, timeout=60) for u in urls]
        self.sockets: list[tuple[int, ClientConnection]] = []
        self.readers: list[asyncio.Task[None]] = []
        #: probe number -> when its POST was sent, and when it was answered
        self.sent: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        #: probe number -> (socket index -> when its message arrived)
        self.seen: dict[int, dict[int, float]] = {}
        self.messages = 0
        #: holds answered, by their "ok"
        self.held: dict[bool, int] = {}
        self.errors: dict[str, int] = {}
        self.probes = 0

    async def send(self, client: httpx.AsyncClient, method: str, path: str, **kw: Any) -> httpx.Response:
        """A request, once more if the connection was closed under us (uvicorn closes a
        connection idle for 5 s, which a pooled one may be: as server_load.Load.post)."""
        try:
            return await client.request(method, path, **kw)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            self.error("retried after a closed connection")
            return await client.request(method, path, **kw)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    async def open_sockets(self) -> None:
        """``--sockets`` lobby websockets, 8 opened at a time, each read from then on."""
        queue = list(range(self.args.sockets))

        async def opener() -> None:
            while queue:
                k = queue.pop()
                url = "ws" + self.urls[k % 2][4:] + "/api/lobby/ws"
                ws = await ws_connect(url, max_size=2**24, open_timeout=60)
                first = json.loads(await ws.recv())
                assert first["type"] == "lobby", first
                self.sockets.append((k, ws))
                self.readers.append(asyncio.create_task(self.read(k, ws)))

        await asyncio.gather(*(opener() for _ in range(8)))
        self.sockets.sort(key=lambda pair: pair[0])

    async def post_seeks(self) -> None:
        """``--seeks`` open seeks, 16 requests at a time, each posted through the process of the
        socket ``i mod --sockets`` and held by that socket at once (as a poster's page does)."""
        queue = list(range(self.args.seeks))
        sockets = dict(self.sockets)

        async def poster() -> None:
            while queue:
                i = queue.pop()
                k = i % len(sockets)
                body = {**SEEK, "name": f"seek-{i}"}
                headers = {"X-Guest-Token": f"guest-{i}"}
                r = await self.send(self.clients[k % 2], "POST", "/api/seeks", json=body, headers=headers)
                r.raise_for_status()
                hold = {"type": "hold", "id": r.json()["id"], "seek_token": r.json()["seek_token"]}
                await sockets[k].send(json.dumps(hold))

        await asyncio.gather(*(poster() for _ in range(16)))
        end = time.monotonic() + 120
        while sum(self.held.values()) < self.args.seeks and time.monotonic() < end:
            await asyncio.sleep(0.1)
        if self.held != {True: self.args.seeks}:
            raise RuntimeError(f"holds answered: {self.held} of {self.args.seeks}")

    async def read(self, k: int, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                arrived = time.perf_counter()
                self.messages += 1
                text = raw if isinstance(raw, str) else raw.decode()
                if text.startswith('{"type": "held"'):
                    ok = bool(json.loads(text)["ok"])
                    self.held[ok] = self.held.get(ok, 0) + 1
                if "probe-" not in text:
                    continue
                found = PROBE.match(text)
                if found is not None:
                    self.seen.setdefault(int(found.group(1)), {}).setdefault(k, arrived)
        except Exception as err:  # a socket dropped: counted, the run goes on
            self.error(f"socket {type(err).__name__}")

    async def probe(self, n: int) -> None:
        """Post probe ``n`` on A, withdraw it ``--probe-life`` seconds later."""
        headers = {"X-Guest-Token": f"probe-{n}"}
        body = {**SEEK, "name": f"probe-{n}"}
        self.sent[n] = time.perf_counter()
        try:
            r = await self.send(self.clients[0], "POST", "/api/seeks", json=body, headers=headers)
            self.answered[n] = time.perf_counter()
            if r.status_code != 201:
                self.error(f"post {r.status_code}")
                return
            await asyncio.sleep(self.args.probe_life)
            seek = r.json()
            headers = {"X-Seek-Token": seek["seek_token"]}
            gone = await self.send(self.clients[n % 2], "DELETE", f"/api/seeks/{seek['id']}", headers=headers)
            if gone.status_code != 200:
                self.error(f"delete {gone.status_code}")
        except httpx.HTTPError as err:
            self.error(f"probe {type(err).__name__}")

    async def probing(self, count: int | None, stop: asyncio.Event) -> list[int]:
        """Probes at ``--probe-rate`` a second: ``count`` of them, or until ``stop``."""
        numbers: list[int] = []
        tasks: list[asyncio.Task[None]] = []
        interval = 1.0 / self.args.probe_rate
        next_at = time.monotonic()
        while (count is None or len(numbers) < count) and not stop.is_set():
            n = self.probes
            self.probes += 1
            numbers.append(n)
            tasks.append(asyncio.create_task(self.probe(n)))
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await asyncio.gather(*tasks)
        await asyncio.sleep(1.0)  # the last messages
        return numbers

    def figures(self, numbers: list[int], seconds: float) -> dict[str, Any]:
        on_b = [k for k, _ in self.sockets if k % 2 == 1]
        on_a = [k for k, _ in self.sockets if k % 2 == 0]
        first_b: list[float] = []
        last_b: list[float] = []
        every_b: list[float] = []
        every_a: list[float] = []
        missing = 0
        for n in numbers:
            arrivals = self.seen.get(n, {})
            delays_b = [arrivals[k] - self.sent[n] for k in on_b if k in arrivals]
            every_a += [arrivals[k] - self.sent[n] for k in on_a if k in arrivals]
            missing += len(on_b) - len(delays_b)
            if delays_b:
                every_b += delays_b
                first_b.append(min(delays_b))
                if len(delays_b) == len(on_b):
                    last_b.append(max(delays_b))
        answers = [self.answered[n] - self.sent[n] for n in numbers if n in self.answered]
        return {
            "probes": len(numbers),
            "post_answered_ms": server_load.percentiles(answers),
            "seconds": round(seconds, 1),
            "seen_on_b_first_ms": server_load.percentiles(first_b),
            "seen_on_b_every_socket_ms": server_load.percentiles(every_b),
            "seen_on_all_of_b_ms": server_load.percentiles(last_b),
            "seen_on_a_every_socket_ms": server_load.percentiles(every_a),
            "missed_on_b": missing,
            "messages_received": self.messages,
            "errors": dict(self.errors),
        }


async def lobby_client(urls: list[str], args: argparse.Namespace) -> None:
    """The lobby client's process: set up, say ``ready``, then obey the lines on stdin:
    ``alone`` (``--alone-probes`` probes, then their figures), ``load`` (probes until ``stop``,
    then their figures), ``quit``."""
    client = LobbyClient(urls, args)
    begun = time.perf_counter()
    await client.open_sockets()
    opened = time.perf_counter()
    await client.post_seeks()
    setup = {
        "sockets_opened_s": round(opened - begun, 1),
        "seeks_posted_and_held_s": round(time.perf_counter() - opened, 1),
        "sockets": len(client.sockets),
    }
    client.messages = 0  # the setup's own messages are not the probes'
    print(json.dumps({"ready": setup}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode().strip()
        if line in ("quit", ""):
            break
        stop = asyncio.Event()
        start, cpu = time.perf_counter(), time.process_time()
        if line == "alone":
            numbers = await client.probing(args.alone_probes, stop)
        else:  # "load": until "stop"
            task = asyncio.create_task(client.probing(None, stop))
            await reader.readline()
            stop.set()
            numbers = await task
        figures = client.figures(numbers, time.perf_counter() - start)
        cpu = time.process_time() - cpu
        figures["client_cpu_s"] = round(cpu, 2)
        figures["client_us_per_message"] = round(1e6 * cpu / max(1, client.messages), 1)
        client.errors.clear()
        print(json.dumps(figures), flush=True)
        client.messages = 0
    for task in client.readers:
        task.cancel()
    for _, ws in client.sockets:
        await ws.close()
    for http in client.clients:
        await http.aclose()


# --- the run -------------------------------------------------------------------------------------
def game_load(urls: list[str], pids: list[int], args: argparse.Namespace) -> dict[str, Any]:
    """One timed run of server_load.py's game load against both processes."""
    load_args = server_load.parse_args(
        ["--games", str(args.games), "--seconds", str(args.seconds), "--spectators", "0", "--seed", "1"]
        + (["--profile", args.profile] if args.profile else [])
    )
    result: dict[str, Any] = asyncio.run(
        server_load.Load(urls, load_args).run(server_load.Meter(pids, load_args.profile))
    )
    return result


class Lobby:
    """The lobby client's process, driven by lines on its stdin."""

    def __init__(self, urls: list[str], args: argparse.Namespace) -> None:
        command = [sys.executable, __file__, "--lobby-client", *urls]
        for flag in ("seeks", "sockets", "probe_rate", "probe_life", "alone_probes"):
            command += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )

    def answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the lobby client exited ({self.proc.wait()})")
        doc: dict[str, Any] = json.loads(line)
        return doc

    def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.poll() is None:
            with_timeout = 30
            try:
                self.say("quit")
                self.proc.wait(timeout=with_timeout)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(timeout=10)


def servers_cpu(pids: list[int]) -> float:
    return sum(server_load.proc_cpu_s(pid) for pid in pids)


def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    infra = server_load.Infrastructure()
    processes: list[server_load.Process] = []
    try:
        redis_url = infra.broker()
        db_url = f"sqlite:///{folder / 'lobby.sqlite3'}" if args.database == "sqlite" else infra.database()
        env = {"PALAESTRA_SEEK_LEAVE_SECONDS": str(args.leave_seconds)}
        processes.append(server_load.serve(folder, db_url, redis_url, env=env).start())  # migrates
        processes.append(server_load.serve(folder, db_url, redis_url, env=env).start())
        urls, pids = [p.url for p in processes], [p.pid for p in processes]
        out: dict[str, Any] = {"database": args.database}
        out["games_alone"] = game_load(urls, pids, args)
        lobby = Lobby(urls, args)
        try:
            out["lobby_setup"] = lobby.answer()["ready"]
            cpu = servers_cpu(pids)
            lobby.say("alone")
            out["seeks_alone"] = alone = lobby.answer()
            spent = servers_cpu(pids) - cpu
            alone["server_cpu_s"] = round(spent, 2)
            alone["server_us_per_message"] = round(1e6 * spent / max(1, alone["messages_received"]), 1)
            lobby.say("load")
            out["games_with_lobby"] = game_load(urls, pids, args)
            lobby.say("stop")
            out["seeks_under_game_load"] = lobby.answer()
        finally:
            lobby.close()
        out["games_alone_again"] = game_load(urls, pids, args)
    finally:
        for process in processes:
            process.stop()
        infra.stop()
    alone = (out["games_alone"]["actions_per_s"] + out["games_alone_again"]["actions_per_s"]) / 2
    out["ratio"] = round(out["games_with_lobby"]["actions_per_s"] / alone, 3) if alone else None
    return out


def show(out: dict[str, Any]) -> None:
    keys = ("actions_per_s", "latency_ms", "errors", "server_cpu_s", "loadavg")
    for step in ("games_alone", "lobby_setup", "seeks_alone", "games_with_lobby", "seeks_under_game_load"):
        print(f"== {step}")
        doc = out[step]
        for key, value in doc.items():
            if step.startswith("games") and key not in keys:
                continue
            print(f"  {key:28} {value}")
    again = out["games_alone_again"]
    print(f"== games_alone_again\n  {'actions_per_s':28} {again['actions_per_s']}")
    print(f"  {'loadavg':28} {again['loadavg']}")
    p99 = (out["seeks_under_game_load"]["seen_on_b_every_socket_ms"] or {}).get("p99")
    print(f"== aims: p99 on every socket of B under the game load {p99} ms (≤ 200)")
    print(f"   ratio of actions/s with the lobby to without {out['ratio']} (≥ 0.8)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    p.add_argument("--seeks", type=int, default=1000, help="open seeks posted first (and held)")
    p.add_argument("--sockets", type=int, default=500, help="lobby websockets, half on each process")
    p.add_argument("--probe-rate", type=float, default=4.0, help="probe seeks posted a second")
    p.add_argument("--probe-life", type=float, default=2.0, help="a probe is withdrawn this long after")
    p.add_argument("--alone-probes", type=int, default=200, help="probes without the game load")
    p.add_argument("--games", type=int, default=50, help="games of the game load")
    p.add_argument("--seconds", type=float, default=30.0, help="length of each timed game run")
    p.add_argument(
        "--leave-seconds", type=float, default=60.0, help="the servers' PALAESTRA_SEEK_LEAVE_SECONDS"
    )
    p.add_argument("--profile", metavar="DIR", help="sample the servers with py-spy into DIR")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    p.add_argument("--lobby-client", nargs=2, metavar="URL", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.lobby_client:
        asyncio.run(lobby_client(args.lobby_client, args))
        return
    print(
        f"# {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        flush=True,
    )
    folder = Path(tempfile.mkdtemp(prefix="palaestra-lobby-load-"))
    try:
        out = run(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(out), flush=True)
    else:
        show(out)


if __name__ == "__main__":
    main()

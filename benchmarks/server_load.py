"""Load on the web app: N games played at once over HTTP, spectators on websockets.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/server_load.py --mode sqlite [--games 100]
        [--seconds 20] [--rate 0] [--max-requests 50000] [--spectators 1] [--game archimedes]

Modes (each starts its own servers on 127.0.0.1, in a temporary folder, and stops them after):

- ``sqlite``: one ``palaestra serve`` process on a SQLite file (WAL);
- ``postgres``: one process on a throwaway PostgreSQL cluster (Debian's binaries, started like the
  tests': tests/server/postgres.py; fsync on, as in production);
- ``cluster``: two ``palaestra serve --redis-url`` processes and one ``palaestra worker`` on
  PostgreSQL + a throwaway Redis (tests/server/redis_server.py). The clients spread their requests
  over both processes (a game's two seats talk to different processes, spectators sit on the
  other one), so every push of a move made through one process to a socket of the other is a
  cross-process push, whose latency is reported apart;
- ``--flood N`` (with a load mode): one more client, a process of its own, opens N websockets on
  the first game and sends ``--flood-bytes`` pings on each as fast as they go, reading nothing
  (issue 31, finding 3; a socket the server closes connects again after ``--flood-reconnect``
  seconds); the others' latencies show what it costs them, and the servers' RSS is read again
  ``--flood-settle`` seconds after the run;
- ``idle``: ``--idle-games`` games (default 4,000) created (with ``--idle-moves K``: hot-seat games,
  K random moves played in each), then idle: the server's RSS right after
  creating them, once idle games were evicted, and after a restart (with its start-up time).

``--url URL`` (repeatable) targets servers already running instead (only 127.0.0.1/localhost: this
is a load generator, never to be pointed at somebody else's machine); lift their rate limits and
websocket caps first (``PALAESTRA_RATE_ACTIONS``, ``PALAESTRA_WS_PER_CLIENT``: see docs/web.md) and
give ``--pid`` (repeatable) to have their RSS and CPU time measured.

Every game is a game between two people: the creator's seat and a seat taken through the
invitation, each with its own token. A game's player picks a uniformly random legal move from the
view the previous answer carried and sends it (``ply`` included), as fast as the answers come
(``--rate 0``: the server's capacity, a closed loop of ``--games`` players) or paced so that all
games together offer ``--rate`` actions per second (players who think: the latency at that load).
A finished game is replaced by a new one. The run stops after ``--seconds`` or ``--max-requests``.

Printed: actions/s, latency p50/p95/p99/max of the actions, errors by code, push latency (from
the answer to the mover to the state arriving on a spectator's socket; cross-process apart), the
server processes' RSS and CPU seconds (``/proc``), this client's CPU seconds, and the load average
of the machine before and after (on a shared machine, read the figures with it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[1]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}


# --- servers -------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """One client (127.0.0.1) plays every game: lift the per-client limits for the run."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for what in ("CREATE", "ACTIONS", "HINTS", "ANALYSIS"):
        env[f"PALAESTRA_RATE_{what}"] = "1000000/minute"
    env["PALAESTRA_WS_PER_CLIENT"] = "100000"
    env["PALAESTRA_WS_TOTAL"] = "100000"
    env.update(extra or {})
    return env


class Process:
    """A ``palaestra`` command of ours (``serve`` or ``worker``), its output in a log file."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str], port: int | None = None) -> None:
        self.args, self.log, self.env, self.port = args, log, env, port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Process:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "palaestra.cli", *self.args],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        end = time.monotonic() + 120
        while not self._ready():
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.args[0]} exited: {self.log.read_text(errors='replace')[-2000:]}")
            if time.monotonic() > end:
                raise RuntimeError(f"{self.args[0]} did not start")
            time.sleep(0.05)
        return self

    def _ready(self) -> bool:
        if self.port is None:  # a worker: ready once it says so
            return "worker ready" in self.log.read_text(errors="replace")
        try:
            return httpx.get(self.url + "/readyz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def serve(
    folder: Path, db_url: str, redis_url: str | None = None, env: dict[str, str] | None = None
) -> Process:
    port = free_port()
    args = ["serve", "--port", str(port), "--database-url", db_url]
    if redis_url:
        args += ["--redis-url", redis_url]
    return Process(args, folder / f"serve-{port}.log", server_env(env), port)


def worker(folder: Path, db_url: str, redis_url: str) -> Process:
    args = ["worker", "--redis-url", redis_url, "--database-url", db_url, "--ai-delay", "0"]
    return Process(args, folder / "worker.log", server_env())


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def proc_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Infrastructure:
    """PostgreSQL and Redis for a mode, started here (the tests' throwaway helpers)."""

    def __init__(self) -> None:
        self.postgres: Any = None
        self.redis: Any = None

    def database(self) -> str:
        sys.path.insert(0, str(ROOT))
        from tests.server.postgres import PostgresServer

        self.postgres = PostgresServer().start(fsync=True, max_connections=120)
        url: str = self.postgres.new_database()
        return url

    def broker(self) -> str:
        sys.path.insert(0, str(ROOT))
        from tests.server.redis_server import RedisServer

        self.redis = RedisServer().start()
        return str(self.redis.url)

    def stop(self) -> None:
        for part in (self.redis, self.postgres):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.stop()


# --- the load --------------------------------------------------------------------------------------
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    other_requests: int = 0  # creating, joining, reading a view while the server moves
    games_finished: int = 0
    #: (game id, version) -> (time the mover got its answer, index of the process it talked to)
    acked: dict[tuple[str, int], tuple[float, int]] = field(default_factory=dict)
    #: (game id, version, time seen, index of the spectator's process)
    pushed: list[tuple[str, int, float, int]] = field(default_factory=list)


@dataclass
class Game:
    id: str
    tokens: list[str]
    view: dict[str, Any]


class Load:
    """``games`` players and their spectators against ``urls``, spread as described above."""

    def __init__(self, urls: list[str], args: argparse.Namespace) -> None:
        self.urls = urls
        self.args = args
        self.stats = Stats()
        self.rng = random.Random(args.seed)
        # one small pool per game and process: httpx looks through its pool on every request, so one
        # pool of hundreds of connections costs the client more CPU than the server's work
        self.pools: dict[tuple[int, int], httpx.AsyncClient] = {}
        self.stop_at = 0.0
        self.running = False

    def client(self, game_index: int, seat: int) -> tuple[httpx.AsyncClient, int]:
        # --spread seat: a game's two seats talk to different processes (the worst case: every
        # action is news to the other process); --spread game: all of a game's requests go to one
        # process (a balancer hashing the game id), only its spectator sits on another;
        # --spread affinity: its spectators too (what deploy/nginx/palaestra.conf does)
        index = (game_index + (seat if self.args.spread == "seat" else 0)) % len(self.urls)
        pool = self.pools.get((game_index, index))
        if pool is None:
            pool = httpx.AsyncClient(base_url=self.urls[index], timeout=30)
            self.pools[(game_index, index)] = pool
        return pool, index

    def budget_left(self) -> bool:
        return (
            self.running and time.monotonic() < self.stop_at and self.stats.requests < self.args.max_requests
        )

    async def create(self, game_index: int) -> Game:
        client, _ = self.client(game_index, 0)
        seats = [{"kind": "human", "joined": True, "name": "A"}, {"kind": "human", "name": "B"}]
        body = {"game": self.args.game, "options": json.loads(self.args.options), "seats": seats}
        r = await client.post("/api/games", json=body)
        r.raise_for_status()
        doc = r.json()
        code = doc["seats"][1]["invite"].rsplit("/", 1)[1]
        joiner, _ = self.client(game_index, 1)
        j = await joiner.post(f"/api/games/{doc['id']}/join", json={"code": code, "name": "B"})
        j.raise_for_status()
        self.stats.other_requests += 2
        return Game(doc["id"], [doc["seats"][0]["token"], j.json()["token"]], j.json()["game"])

    async def wait_for_people(self, game: Game, game_index: int) -> None:
        """The server is to move (chance, AI): read the view until a person is to move."""
        client, _ = self.client(game_index, 0)
        while self.budget_left() and game.view["status"] == "active" and not game.view["legal"]:
            await asyncio.sleep(0.02)
            r = await client.get(f"/api/games/{game.id}")
            self.stats.other_requests += 1
            if r.status_code == 200:
                game.view = r.json()

    async def act(self, game: Game, game_index: int) -> None:
        view = game.view
        seat = view["current_player"]
        choice = self.rng.choice(view["legal"])
        client, index = self.client(game_index, seat)
        body = {"token": game.tokens[seat], "ply": view["ply"], "action": choice["action"]}
        sent = time.perf_counter()
        try:
            r = await self.post(client, f"/api/games/{game.id}/actions", body)
        except httpx.HTTPError as err:
            self.stats.errors[type(err).__name__] += 1
            return
        answered = time.perf_counter()
        self.stats.requests += 1
        if r.status_code == 200:
            self.stats.latencies.append(answered - sent)
            game.view = r.json()
            self.stats.acked[(game.id, game.view["version"])] = (answered, index)
            return
        try:
            code = r.json().get("error", str(r.status_code))
        except ValueError:
            code = str(r.status_code)
        self.stats.errors[f"{r.status_code} {code}"] += 1
        fresh = await client.get(f"/api/games/{game.id}")
        self.stats.other_requests += 1
        if fresh.status_code == 200:
            game.view = fresh.json()

    async def post(self, client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> httpx.Response:
        """POST, once more if the connection was closed under us: the server closes a connection
        idle for 5 s (uvicorn's keep-alive), which a game's pool may be after the set-up. A request
        that did arrive is refused the second time as stale, which the player handles."""
        try:
            return await client.post(path, json=body)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            self.stats.errors["retried after a closed connection"] += 1
            return await client.post(path, json=body)

    async def player(self, game_index: int, game: Game) -> None:
        interval = self.args.games / self.args.rate if self.args.rate > 0 else 0.0
        next_at = time.monotonic() + self.rng.random() * interval
        while self.budget_left():
            if game.view["status"] != "active":
                self.stats.games_finished += 1
                game = await self.create(game_index)
                await self.spectate_all(game_index, game.id)
            if not game.view["legal"]:
                await self.wait_for_people(game, game_index)
                continue
            if interval:
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                next_at = max(next_at + interval, time.monotonic() - interval)
            if self.budget_left():
                await self.act(game, game_index)

    async def spectate_all(self, game_index: int, game_id: str) -> None:
        for k in range(self.args.spectators):
            shift = 0 if self.args.spread == "affinity" else k + 1  # else not the first seat's process
            index = (game_index + shift) % len(self.urls)
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            task = asyncio.create_task(self.spectator(index, game_id, ready))
            self.spectators.append(task)
            await ready

    async def spectator(self, index: int, game_id: str, ready: asyncio.Future[None]) -> None:
        url = "ws" + self.urls[index][4:] + f"/api/games/{game_id}/ws"
        try:
            async with ws_connect(url, max_size=2**24, open_timeout=30) as ws:
                async for raw in ws:
                    seen = time.perf_counter()
                    message = json.loads(raw)
                    if message.get("type") == "state":
                        if not ready.done():
                            ready.set_result(None)
                        self.stats.pushed.append((game_id, message["game"]["version"], seen, index))
        except Exception as err:  # a dropped socket is an error of the run, not of this client
            if not ready.done():
                ready.set_exception(err)
            elif self.running:
                self.stats.errors[f"websocket {type(err).__name__}"] += 1

    async def run(self, meter: Meter) -> dict[str, Any]:
        self.spectators: list[asyncio.Task[None]] = []
        games = []
        for i in range(self.args.games):  # set up (not timed)
            game = await self.create(i)
            await self.spectate_all(i, game.id)
            games.append(game)
        flooder = None
        if self.args.flood:  # its own process: its loop must not slow this client's players
            url = "ws" + self.urls[0][4:] + f"/api/games/{games[0].id}/ws"
            command = [sys.executable, __file__, "--flood-only", url, "--flood", str(self.args.flood)]
            command += ["--flood-bytes", str(self.args.flood_bytes), "--seconds", str(self.args.seconds)]
            command += ["--flood-reconnect", str(self.args.flood_reconnect)]
            flooder = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
        self.running = True
        meter.start()
        start, cpu = time.perf_counter(), time.process_time()
        self.stop_at = time.monotonic() + self.args.seconds
        await asyncio.gather(*(self.player(i, g) for i, g in enumerate(games)))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        flooded = json.loads((await flooder.communicate())[0]) if flooder is not None else None
        await asyncio.sleep(0.5)  # the last pushes
        self.running = False
        result = self.report(elapsed, cpu)
        meter.stop(result)
        if flooded is not None:
            result["flood"] = flooded
            await asyncio.sleep(self.args.flood_settle)
            result[f"server_rss_mb_{self.args.flood_settle:g}s_later"] = {
                pid: round(proc_rss_mb(pid), 1) for pid in meter.pids
            }
        for task in self.spectators:
            task.cancel()
        await asyncio.gather(*self.spectators, return_exceptions=True)
        for pool in self.pools.values():
            await pool.aclose()
        return result

    def report(self, elapsed: float, client_cpu: float) -> dict[str, Any]:
        stats = self.stats
        local: list[float] = []
        cross: list[float] = []
        for game_id, version, seen, index in stats.pushed:
            acked = stats.acked.get((game_id, version))
            if acked is None:
                continue  # the state at connecting, or a change nobody here made
            delay = max(0.0, seen - acked[0])
            (local if index == acked[1] else cross).append(delay)
        return {
            "actions": len(stats.latencies),
            "seconds": round(elapsed, 2),
            "actions_per_s": round(len(stats.latencies) / elapsed, 1),
            "latency_ms": percentiles(stats.latencies),
            "errors": dict(stats.errors),
            "other_requests": stats.other_requests,
            "games_finished": stats.games_finished,
            "push_ms": percentiles(local),
            "cross_push_ms": percentiles(cross),
            "client_cpu_s": round(client_cpu, 2),
        }


def percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"n": len(ordered), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": at(1.0)}


# --- the flooding client (--flood, issue 31) --------------------------------------------------------
async def flood(url: str, sockets: int, size: int, seconds: float, reconnect: float) -> dict[str, int]:
    """``sockets`` websockets on ``url``, each sending ``size``-byte pings as fast as the socket
    takes them and reading nothing, for ``seconds``; a socket the server closes connects again
    after ``reconnect`` seconds. Returns what was sent and how often a socket was closed."""
    ping = json.dumps({"type": "ping", "pad": "x" * max(0, size - 30)})
    counts = {"pings_sent": 0, "sockets_closed": 0}
    stop_at = time.monotonic() + seconds

    async def one() -> None:
        while time.monotonic() < stop_at:
            try:
                async with ws_connect(url, max_size=2**24, open_timeout=30, max_queue=4) as ws:
                    while time.monotonic() < stop_at:
                        await ws.send(ping)
                        counts["pings_sent"] += 1
            except Exception:
                counts["sockets_closed"] += 1
                await asyncio.sleep(reconnect)

    tasks = [asyncio.create_task(one()) for _ in range(sockets)]
    await asyncio.wait(tasks, timeout=seconds + 5)
    for task in tasks:
        task.cancel()
    return counts


# --- the modes ------------------------------------------------------------------------------------
class Meter:
    """The servers' CPU seconds and RSS (``/proc``) over the timed part of a run; with ``profile``
    (a folder) py-spy samples each server meanwhile (collapsed stacks, one file per process)."""

    def __init__(self, pids: list[int], profile: str | None = None) -> None:
        self.pids, self.profile = pids, profile
        self.cpu: dict[int, float] = {}
        self.spies: list[subprocess.Popen[bytes]] = []
        self.load = 0.0

    def start(self) -> None:
        self.load = os.getloadavg()[0]
        self.cpu = {pid: proc_cpu_s(pid) for pid in self.pids}
        if self.profile is not None:
            self.spies = [spy(pid, Path(self.profile)) for pid in self.pids]

    def stop(self, result: dict[str, Any]) -> None:
        result["server_cpu_s"] = {pid: round(proc_cpu_s(pid) - self.cpu[pid], 2) for pid in self.pids}
        for process in self.spies:
            process.send_signal(signal.SIGINT)  # py-spy writes what it has
            process.wait(timeout=60)
        result["server_rss_mb"] = {pid: round(proc_rss_mb(pid), 1) for pid in self.pids}
        result["loadavg"] = [round(self.load, 2), round(os.getloadavg()[0], 2)]
        if result.get("actions"):
            total_cpu = sum(result["server_cpu_s"].values())
            result["server_cpu_ms_per_action"] = round(1000 * total_cpu / result["actions"], 2)


def spy(pid: int, folder: Path) -> subprocess.Popen[bytes]:
    """py-spy (``pip install py-spy``; not a dependency of the project) sampling ``pid``."""
    folder.mkdir(parents=True, exist_ok=True)
    binary = shutil.which("py-spy") or "py-spy"
    out = folder / f"{pid}.txt"
    command = [
        binary,
        "record",
        "--pid",
        str(pid),
        "--format",
        "raw",
        "--rate",
        "100",
        "--gil",
        "-o",
        str(out),
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_load(mode: str, args: argparse.Namespace, folder: Path, infra: Infrastructure) -> dict[str, Any]:
    processes: list[Process] = []
    try:
        if args.url:
            urls, pids = args.url, args.pid
        else:
            processes = start_servers(mode, folder, infra)
            urls = [p.url for p in processes if p.port is not None]
            pids = [p.pid for p in processes]
        result = asyncio.run(Load(urls, args).run(Meter(pids, args.profile)))
    finally:
        for process in processes:
            process.stop()
    result["mode"] = mode
    return result


def start_servers(mode: str, folder: Path, infra: Infrastructure) -> list[Process]:
    if mode == "sqlite":
        return [serve(folder, f"sqlite:///{folder / 'load.sqlite3'}").start()]
    db_url = infra.database()
    if mode == "postgres":
        return [serve(folder, db_url).start()]
    redis_url = infra.broker()
    first = serve(folder, db_url, redis_url).start()  # migrates the database
    return [first, serve(folder, db_url, redis_url).start(), worker(folder, db_url, redis_url).start()]


def run_idle(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Create ``--idle-games`` games, then measure the server's memory as they idle."""
    db_url = f"sqlite:///{folder / 'idle.sqlite3'}"
    env = {"PALAESTRA_IDLE_EVICT_SECONDS": str(args.idle_evict)}
    server = serve(folder, db_url, env=env).start()
    result: dict[str, Any] = {
        "mode": "idle",
        "games": args.idle_games,
        "moves_each": args.idle_moves,
        "rss_mb_at_start": proc_rss_mb(server.pid),
    }
    try:
        created, seconds = asyncio.run(create_many(server.url, args))
        result["create_per_s"] = round(created / seconds, 1)
        result["rss_mb_after_create"] = round(proc_rss_mb(server.pid), 1)
        result["loaded_after_create"] = loaded_games(server.url)
        if args.idle_only_create:  # the figure of the games in memory only
            result["loadavg"] = round(os.getloadavg()[0], 2)
            return result
        end = time.monotonic() + args.idle_evict + 90
        while loaded_games(server.url) > 0 and time.monotonic() < end:
            time.sleep(1)
        result["loaded_when_idle"] = loaded_games(server.url)
        result["rss_mb_when_idle"] = round(proc_rss_mb(server.pid), 1)
    finally:
        server.stop()
    again = serve(folder, db_url, env=env)
    begun = time.perf_counter()
    again.start()
    try:
        result["restart_s"] = round(time.perf_counter() - begun, 2)
        result["rss_mb_after_restart"] = round(proc_rss_mb(again.pid), 1)
        result["loaded_after_restart"] = loaded_games(again.url)
    finally:
        again.stop()
    result["loadavg"] = round(os.getloadavg()[0], 2)
    return result


async def create_many(url: str, args: argparse.Namespace) -> tuple[int, float]:
    """Create ``--idle-games`` games; with ``--idle-moves K`` each is a hot-seat game in which K
    random legal moves are played (issue 31: a game played holds more than one nobody moved in)."""
    joined = args.idle_moves > 0
    seats = [{"kind": "human", "joined": True}, {"kind": "human", "joined": joined}]
    body = {"game": args.game, "options": json.loads(args.options), "seats": seats}
    count = 0
    rng = random.Random(args.seed)
    start = time.perf_counter()
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def creator(share: int) -> None:
            nonlocal count
            for _ in range(share):
                r = await client.post("/api/games", json=body)
                r.raise_for_status()
                created = r.json()
                view = created["game"]
                for _ in range(args.idle_moves):
                    if not view["legal"]:
                        break
                    token = created["seats"][view["current_player"]]["token"]
                    action = rng.choice(view["legal"])["action"]
                    move = {"token": token, "ply": view["ply"], "action": action}
                    answer = await client.post(f"/api/games/{created['id']}/actions", json=move)
                    answer.raise_for_status()
                    view = answer.json()
                count += 1

        parallel = 8
        shares = [args.idle_games // parallel + (i < args.idle_games % parallel) for i in range(parallel)]
        await asyncio.gather(*(creator(s) for s in shares))
    return count, time.perf_counter() - start


def loaded_games(url: str) -> int:
    for line in httpx.get(url + "/metrics", timeout=30).text.splitlines():
        if line.startswith("palaestra_games_loaded "):
            return int(float(line.split()[1]))
    return -1


# --- the command -----------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", default="sqlite", choices=["sqlite", "postgres", "cluster", "idle", "all"])
    p.add_argument("--games", type=int, default=100, help="games played at once")
    p.add_argument("--seconds", type=float, default=20.0, help="length of the timed run")
    p.add_argument("--max-requests", type=int, default=50_000, help="stop after this many actions sent")
    p.add_argument("--rate", type=float, default=0.0, help="actions/s offered by all games (0: flat out)")
    p.add_argument("--spectators", type=int, default=1, help="websockets per game")
    p.add_argument(
        "--spread", choices=["seat", "game", "affinity"], default="seat", help="cluster: see Load.client"
    )
    p.add_argument("--flood", type=int, default=0, help="websockets of one client flooding pings (issue 31)")
    p.add_argument("--flood-bytes", type=int, default=20_000, help="the size of a flooding ping")
    p.add_argument("--flood-settle", type=float, default=60.0, help="RSS measured again this long after")
    p.add_argument("--flood-reconnect", type=float, default=1.0, help="a closed flooding socket waits this")
    p.add_argument("--flood-only", metavar="WS_URL", help=argparse.SUPPRESS)  # the flooding process
    p.add_argument("--game", default="archimedes")
    p.add_argument("--options", default="{}", help="the game's options, JSON")
    p.add_argument("--idle-games", type=int, default=4000)
    p.add_argument("--idle-moves", type=int, default=0, help="idle mode: moves played in each game")
    p.add_argument(
        "--idle-only-create",
        action="store_true",
        help="idle mode: stop once created",
    )
    p.add_argument("--idle-evict", type=float, default=120.0, help="idle mode: PALAESTRA_IDLE_EVICT_SECONDS")
    p.add_argument("--url", action="append", default=[], help="a running server (127.0.0.1 only)")
    p.add_argument("--pid", action="append", type=int, default=[], help="its process id (RSS, CPU)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", metavar="DIR", help="sample the servers with py-spy into DIR")
    p.add_argument("--json", action="store_true", help="print one JSON line per mode")
    args = p.parse_args(argv)
    for url in args.url:
        if urlsplit(url).hostname not in LOCAL_HOSTS:
            p.error(f"{url}: only servers on this machine (127.0.0.1) may be loaded")
    return args


def show(result: dict[str, Any]) -> None:
    print(f"== {result['mode']}  (load average {result.get('loadavg')})")
    for key, value in result.items():
        if key not in ("mode", "loadavg"):
            print(f"  {key:28} {value}")


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.flood_only:
        counts = asyncio.run(
            flood(args.flood_only, args.flood, args.flood_bytes, args.seconds, args.flood_reconnect)
        )
        print(json.dumps(counts), flush=True)
        return
    modes = ["sqlite", "postgres", "cluster", "idle"] if args.mode == "all" else [args.mode]
    print(
        f"# {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    for mode in modes:
        folder = Path(tempfile.mkdtemp(prefix=f"palaestra-load-{mode}-"))
        infra = Infrastructure()
        try:
            result = run_idle(args, folder) if mode == "idle" else run_load(mode, args, folder, infra)
        finally:
            infra.stop()
            shutil.rmtree(folder, ignore_errors=True)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            show(result)


if __name__ == "__main__":
    main()

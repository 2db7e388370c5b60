"""Sign-ins under load (issue 28): the Argon2id cost, and game actions while people sign in.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/signin_load.py [--seconds 15] [--games 50]
        [--signins 50] [--accounts 100] [--hash-nice 10]

1. The cost of one Argon2id hash and verification with the server's parameters (OWASP's: 19 MiB,
   2 iterations, 1 lane), wall and CPU milliseconds, in this process.
2. One ``palaestra serve`` on SQLite (benchmarks/server_load.py starts it, per-client limits
   lifted, sign-in limits too); ``--accounts`` members sign up first (not timed).
3. Three timed runs, back to back, each ``--seconds`` long: (a) the game load of server_load.py
   alone (``--games`` games between two people, each player sending a random legal move as fast
   as the answers come: the server's capacity); (b) the same game load while a client signs in
   ``--signins`` times a second (paced, random members, right passwords; each answer checked);
   (c) sign-ins alone, as fast as they are answered, 8 at a time (the sign-in capacity). The
   sign-ins are sent by a process of their own, so they take no CPU from the game load's client.

Printed: actions/s of (a) and (b) and their ratio, the sign-ins/s reached in (b) and (c) with their
latency p50/p99 and errors, the server's CPU seconds in each run and the load average. The machine
is shared and noisy: compare the ratio within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher

sys.path.insert(0, str(Path(__file__).resolve().parent))
import server_load

from palaestra.server.service.passwords import OWASP_MEMORY_KIB, OWASP_PARALLELISM, OWASP_TIME_COST

PASSWORD = "benchmark passphrase"


def argon2_cost(rounds: int = 20) -> dict[str, float]:
    hasher = PasswordHasher(
        time_cost=OWASP_TIME_COST, memory_cost=OWASP_MEMORY_KIB, parallelism=OWASP_PARALLELISM
    )
    wall, cpu = time.perf_counter(), time.process_time()
    digest = ""
    for _ in range(rounds):
        digest = hasher.hash(PASSWORD)
    hash_wall, hash_cpu = time.perf_counter() - wall, time.process_time() - cpu
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        hasher.verify(digest, PASSWORD)
    return {
        "hash_ms": round(hash_wall / rounds * 1000, 1),
        "hash_cpu_ms": round(hash_cpu / rounds * 1000, 1),
        "verify_ms": round((time.perf_counter() - wall) / rounds * 1000, 1),
        "verify_cpu_ms": round((time.process_time() - cpu) / rounds * 1000, 1),
        "memory_mib": OWASP_MEMORY_KIB / 1024,
    }


async def sign_up_all(url: str, count: int) -> list[str]:
    names = [f"bench{i:05d}" for i in range(count)]
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        for chunk in range(0, count, 8):
            answers = await asyncio.gather(
                *(
                    client.post("/api/account", json={"username": n, "password": PASSWORD})
                    for n in names[chunk : chunk + 8]
                )
            )
            for answer in answers:
                answer.raise_for_status()
    return names


class SignIns:
    """Sign-ins paced at ``rate`` a second (0: as fast as answered, ``parallel`` at a time)."""

    def __init__(self, url: str, names: list[str], rate: float, parallel: int = 8) -> None:
        self.url, self.names, self.rate, self.parallel = url, names, rate, parallel
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.rng = random.Random(7)

    async def one(self, client: httpx.AsyncClient) -> None:
        start = time.perf_counter()
        try:
            r = await client.post(
                "/api/session", json={"username": self.rng.choice(self.names), "password": PASSWORD}
            )
        except httpx.HTTPError as err:
            self.errors[type(err).__name__] += 1
            return
        if r.status_code == 200 and r.json().get("csrf_token"):
            self.latencies.append(time.perf_counter() - start)
        else:
            self.errors[f"{r.status_code} {r.json().get('error', '')}"] += 1

    async def run(self, seconds: float) -> dict[str, Any]:
        limits = httpx.Limits(max_connections=200)
        async with httpx.AsyncClient(base_url=self.url, timeout=60, limits=limits) as client:
            start = time.monotonic()
            end = start + seconds
            if self.rate > 0:
                tasks, sent = [], 0
                while time.monotonic() < end:
                    due = start + sent / self.rate
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                    tasks.append(asyncio.create_task(self.one(client)))
                    sent += 1
                await asyncio.gather(*tasks)
            else:

                async def lane() -> None:
                    while time.monotonic() < end:
                        await self.one(client)

                await asyncio.gather(*(lane() for _ in range(self.parallel)))
            took = time.monotonic() - start
        done = sorted(self.latencies)
        return {
            "signins_per_s": round(len(done) / took, 1),
            "p50_ms": round(done[len(done) // 2] * 1000, 1) if done else None,
            "p99_ms": round(done[int(len(done) * 0.99)] * 1000, 1) if done else None,
            "errors": dict(self.errors),
        }


def signin_client(url: str, names: list[str], rate: float, seconds: float) -> subprocess.Popen[str]:
    """The sign-ins of a run, sent by a process of their own (its JSON result on stdout)."""
    listing = Path(tempfile.mkstemp(prefix="palaestra-names-")[1])
    listing.write_text("\n".join(names))
    command = [sys.executable, __file__, "--client", url, "--names", str(listing)]
    command += ["--signins", str(rate), "--seconds", str(seconds)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def finish(child: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = child.communicate(timeout=600)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


async def games(url: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    load_args = server_load.parse_args(
        ["--games", str(args.games), "--seconds", str(args.seconds), "--spectators", "0"]
    )
    return await server_load.Load([url], load_args).run(server_load.Meter([pid]))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=15.0)
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--signins", type=float, default=50.0, help="sign-ins a second during run (b)")
    p.add_argument("--accounts", type=int, default=100)
    p.add_argument("--hash-nice", type=int, default=10, help="the server's PALAESTRA_HASH_NICE")
    p.add_argument("--client", metavar="URL", help=argparse.SUPPRESS)  # the sign-in process
    p.add_argument("--names", metavar="FILE", help=argparse.SUPPRESS)  # its members
    args = p.parse_args(argv)
    if args.client:
        names = Path(args.names).read_text().split()
        Path(args.names).unlink()
        print(json.dumps(asyncio.run(SignIns(args.client, names, args.signins).run(args.seconds))))
        return
    print(
        f"# {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    print("argon2id:", argon2_cost())
    folder = Path(tempfile.mkdtemp(prefix="palaestra-signin-"))
    env = {
        "PALAESTRA_RATE_SIGNIN_ACCOUNT": "1000000/minute",
        "PALAESTRA_RATE_SIGNIN_CLIENT": "1000000/minute",
        "PALAESTRA_RATE_SIGNUP": "1000000/minute",
        "PALAESTRA_HASH_QUEUE": "512",
        "PALAESTRA_HASH_NICE": str(args.hash_nice),
    }
    server = server_load.serve(folder, f"sqlite:///{folder / 'signin.sqlite3'}", env=env).start()
    try:
        names = asyncio.run(sign_up_all(server.url, args.accounts))
        alone = asyncio.run(games(server.url, server.pid, args))
        child = signin_client(server.url, names, args.signins, args.seconds + 3)
        mixed = asyncio.run(games(server.url, server.pid, args))
        mixed["signins"] = finish(child)
        capacity = finish(signin_client(server.url, names, 0, args.seconds))
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    keys = ("actions_per_s", "latency_ms", "server_cpu_s", "server_cpu_ms_per_action", "loadavg")
    print("(a) games alone:        ", {k: alone.get(k) for k in keys})
    print("(b) games + sign-ins:   ", {k: mixed.get(k) for k in keys})
    print("    sign-ins meanwhile: ", mixed["signins"])
    print("(c) sign-ins alone:     ", capacity)
    print(f"ratio of actions/s (b)/(a): {mixed['actions_per_s'] / alone['actions_per_s']:.2f}")


if __name__ == "__main__":
    main()

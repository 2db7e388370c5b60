"""Games are plug-ins (issue 32): the toy game Ladder, a package of its own (tests/fourth/ladder/,
with its own ``pyproject.toml``), is installed into a throwaway virtual environment and found
there through its entry point of the group ``palaestra.games``, with nothing registered by hand.
In that environment it is listed and played by the command line (``palaestra games``, ``play``,
``match``: the arena), served by ``palaestra serve`` with an AI seat, played by a ``palaestra
worker`` over Redis, and wrapped by both research adapters (OpenSpiel, PettingZoo).

The environment is made offline: ``python -m venv`` sees this test run's packages (Palaestra of
this checkout, its dependencies, setuptools) through a ``.pth`` file, and ``pip install --no-deps
--no-build-isolation --no-index`` builds and installs the game's package into it. Only the game's
package is new there: the tests' own copy of it (``pythonpath`` in pyproject.toml) is not on that
environment's path.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from palaestra.core.record import Record
from palaestra.core.registry import register_game, unregister_game
from tests.server.redis_server import RedisServer
from tests.server.server_process import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(__file__).resolve().parent / "ladder"


@dataclass
class Venv:
    """The throwaway environment with the game's package installed."""

    folder: Path
    python: Path
    work: Path

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["HOME"] = env["XDG_DATA_HOME"] = str(self.work)  # records and databases stay here
        return env

    def run(self, *args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """``python -m palaestra ARGS`` (the ``palaestra`` command) in the environment."""
        return self.python_run("-m", "palaestra", *args, stdin=stdin, timeout=timeout)

    def python_run(
        self, *args: str, stdin: str = "", timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.work,
            env=self.env(),
            timeout=timeout,
        )

    def start(self, *args: str, log: Path) -> subprocess.Popen[bytes]:
        with log.open("ab") as out:
            return subprocess.Popen(
                [str(self.python), "-m", "palaestra", *args],
                cwd=self.work,
                env=self.env(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    folder = tmp_path_factory.mktemp("plugin")
    work = folder / "work"
    work.mkdir()
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(folder / "venv")],
        check=True,
    )
    python = folder / "venv" / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # this checkout first, then this run's site-packages (never the tests' copy of the game)
    paths = [str(ROOT), *site.getsitepackages()]
    (Path(purelib) / "palaestra-under-test.pth").write_text("\n".join(paths) + "\n")
    source = folder / "palaestra-ladder"  # a copy: the build writes beside its sources
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    found = Venv(folder / "venv", python, work)
    pip = found.python_run(
        "-m",
        "pip",
        "install",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        str(source),
        timeout=300,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return found


def checked(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_installed_package_is_found_by_its_entry_point_and_listed(venv: Venv) -> None:
    where = (
        "from importlib.metadata import entry_points; import palaestra, palaestra_ladder; "
        "ep, = [e for e in entry_points(group='palaestra.games') if e.name == 'ladder']; "
        "print(ep.dist.name, ep.value); print(palaestra_ladder.__file__); print(palaestra.__file__)"
    )
    dist, module, palaestra = checked(venv.python_run("-c", where)).splitlines()
    assert dist == "palaestra-ladder palaestra_ladder.info:INFO"
    assert Path(module).is_relative_to(venv.folder)  # the installed copy, not the tests'
    assert Path(palaestra).is_relative_to(ROOT)  # the checkout under test
    listed = checked(venv.run("games"))
    assert "ladder — Ladder (2, 3 players)" in listed
    assert listed.count(" players)") >= 4  # the three games of the package are still there
    # and without the package, the same Palaestra knows no such game
    assert "ladder" not in checked(subprocess_games_without_plugin(venv))


def subprocess_games_without_plugin(venv: Venv) -> subprocess.CompletedProcess[str]:
    """``palaestra games`` by this run's interpreter (where the package is not installed)."""
    env = venv.env()
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "palaestra", "games"], capture_output=True, text=True, cwd=venv.work, env=env
    )


def test_the_cli_plays_it_against_the_ai_and_the_arena_matches_it(venv: Venv) -> None:
    path = venv.work / "game.json"
    args = ["play", "ladder", "--vs", "strong", "--seat", "0", "--seed", "5", "--record", str(path)]
    checked(venv.run(*args, stdin="step 1\n" * 40))
    record = Record.load(path)
    assert record.result is not None and record.game == "ladder"
    assert {m.player for m in record.moves} >= {0, 1}  # the AI moved
    assert [m.move for m in record.moves if m.player == 0] == ["step 1"] * sum(
        1 for m in record.moves if m.player == 0
    )
    replayed = checked(venv.run("replay", str(path)))
    assert "ladder of 10:" in replayed and "result:" in replayed

    out = checked(
        venv.run("match", "ladder", "--agents", "random,strong", "-n", "4", "--seed", "2", "--json")
    )
    result = json.loads(out)
    assert result["n"] == 4 and result["failures"] == []
    assert sum(s["games"] for s in result["stats"]) == 8


ADAPTERS = """
import json, random
from palaestra.adapters import openspiel
from palaestra.adapters.pettingzoo import env
from pettingzoo.test import api_test

game = openspiel.load("ladder", players=3, target=5)
state = game.new_initial_state()
rng = random.Random(3)
while not state.is_terminal():
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
api_test(env(game="ladder", players=3), num_cycles=40)
print(json.dumps({"type": game.get_type().short_name, "returns": state.returns()}))
"""


def test_both_research_adapters_wrap_it(venv: Venv) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    out = json.loads(checked(venv.python_run("-c", ADAPTERS)).splitlines()[-1])
    assert out["type"] == "palaestra_ladder"
    assert sorted(out["returns"]) == [-0.5, -0.5, 1.0]  # one winner of three


def api(url: str, method: str, path: str, body: Any = None) -> Any:
    answer = httpx.request(method, url + path, json=body, timeout=10)
    assert answer.status_code < 300, answer.text
    return answer.json()


def serve(venv: Venv, db_url: str, log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = venv.start("serve", "--port", str(port), "--database-url", db_url, *extra, log=log)
    url = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/api/meta", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, log.read_text(errors="replace")
        assert time.monotonic() < end, "the server did not start"
        time.sleep(0.1)


def play_against_the_ai(url: str) -> tuple[str, dict[str, Any]]:
    """A game of Ladder with an AI seat: seat 0 climbs one rung a turn; its id and its record."""
    meta = api(url, "GET", "/api/meta")
    ladder = next(g for g in meta["games"] if g["name"] == "ladder")
    assert {o["name"] for o in ladder["options"]} == {"players", "target", "calm", "label"}
    seats = [{"kind": "human", "joined": True}, {"kind": "ai", "level": "strong"}]
    created = api(url, "POST", "/api/games", {"game": "ladder", "options": {"target": 5}, "seats": seats})
    gid, token = created["id"], created["seats"][0]["token"]
    end = time.monotonic() + 90
    while (view := api(url, "GET", f"/api/games/{gid}"))["status"] != "finished":
        assert time.monotonic() < end, f"gave up waiting; last view: {view}"
        if view["current_player"] == 0:
            api(
                url,
                "POST",
                f"/api/games/{gid}/actions",
                {"token": token, "ply": view["ply"], "move": "step 1"},
            )
        else:
            time.sleep(0.05)
    record: dict[str, Any] = api(url, "GET", f"/api/games/{gid}/record")
    return gid, record


def stopped(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def check_played(record: dict[str, Any]) -> None:
    assert record["game"] == "ladder" and record["result"] is not None
    assert any(m["player"] == 1 for m in record["moves"])  # the AI seat moved
    assert any(m["player"] == -1 for m in record["moves"])  # and chance was drawn
    register_game("palaestra_ladder.info:INFO")  # the tests' copy, to replay the record here
    try:
        parsed = Record.from_json(record)
        state = parsed.replay()
        parsed.check_result(state)
        assert state.is_terminal()
    finally:
        unregister_game("ladder")


@pytest.mark.services  # a `palaestra serve` process
def test_the_web_app_serves_it_with_an_ai_seat(venv: Venv) -> None:
    proc, url = serve(venv, f"sqlite:///{venv.work / 'web.sqlite3'}", venv.work / "serve.log")
    try:
        check_played(play_against_the_ai(url)[1])
    finally:
        stopped(proc)


@pytest.mark.services  # Redis, `palaestra serve` and `palaestra worker` processes
def test_a_worker_plays_its_ai_seat_over_redis(venv: Venv) -> None:
    broker = RedisServer().start()
    db_url = f"sqlite:///{venv.work / 'cluster.sqlite3'}"
    log = venv.work / "worker.log"
    server, url = serve(venv, db_url, venv.work / "cluster.log", "--redis-url", broker.url)
    worker = venv.start(
        "worker", "--redis-url", broker.url, "--database-url", db_url, "--ai-delay", "0", log=log
    )
    try:
        end = time.monotonic() + 60
        while "worker ready" not in log.read_text(errors="replace"):
            assert worker.poll() is None and time.monotonic() < end, log.read_text(errors="replace")
            time.sleep(0.05)
        gid, record = play_against_the_ai(url)
        check_played(record)
    finally:
        stopped(server)
        stopped(worker)
        broker.stop()
    ai_ply = next(i for i, m in enumerate(record["moves"]) if m["player"] == 1)
    assert f"move:{gid}:{ai_ply}:server_move" in log.read_text(errors="replace")  # the worker's job

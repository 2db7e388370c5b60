"""The deployment of docs/deploy.md: the files under deploy/ are well formed and agree with each
other and with the command line, and processes that start together migrate one after the other."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml

from palaestra.server.db import Store
from tests.server.postgres import PostgresServer

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_processes_starting_together_migrate_one_after_the_other(postgres: PostgresServer) -> None:
    """Four processes' migrations at the same moment on a fresh PostgreSQL database: all succeed
    (without the advisory lock the losers fail creating the same table), one schema at head."""
    url = postgres.new_database()
    stores = [Store(url) for _ in range(4)]
    start = threading.Barrier(len(stores))
    failures: list[BaseException] = []

    def migrate(store: Store) -> None:
        start.wait()
        try:
            store.migrate()
        except BaseException as err:
            failures.append(err)

    threads = [threading.Thread(target=migrate, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    end = time.monotonic() + 60
    for t in threads:
        t.join(timeout=max(0.1, end - time.monotonic()))
    try:
        assert not any(t.is_alive() for t in threads), "the migrations wait for each other for ever"
        assert not failures, failures
        with stores[0].engine.connect() as conn:
            versions = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
            assert len(versions) == 1
            assert conn.execute(sa.text("SELECT count(*) FROM games")).scalar() == 0
    finally:
        for store in stores:
            store.close()


# --- the files under deploy/ ------------------------------------------------------------------------
def test_the_compose_file_wires_two_web_processes_and_workers_to_one_database_and_redis() -> None:
    doc = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = doc["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "proxy"}
    for name, service in services.items():
        for needed in service.get("depends_on", {}):
            assert needed in services, f"{name} depends on a service that does not exist: {needed}"
    web, worker = services["web"], services["worker"]
    assert web["deploy"]["replicas"] >= 2 and worker["deploy"]["replicas"] >= 1
    assert "palaestra serve" in web["command"][-1] and "--host 0.0.0.0" in web["command"][-1]
    assert "palaestra worker" in worker["command"][-1]
    for service in (web, worker):
        env = service["environment"]
        assert env["PALAESTRA_DATABASE_URL"].startswith("postgresql://")
        assert "@postgres:5432/" in env["PALAESTRA_DATABASE_URL"]
        assert env["PALAESTRA_REDIS_URL"].startswith("redis://redis:")
        assert '--database-url "$$PALAESTRA_DATABASE_URL"' in service["command"][-1]
        assert (DEPLOY / service["build"]["dockerfile"].removeprefix("deploy/")).exists()
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "/readyz" in " ".join(web["healthcheck"]["test"])
    mounted = services["proxy"]["volumes"][0].split(":")[0]
    assert (DEPLOY / mounted).is_file()
    assert services["redis"]["command"][:1] == ["redis-server"]


def _unit(name: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in (DEPLOY / "systemd" / name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        assert key and key not in current, f"{name}: {line!r}"
        current[key] = value
    return sections


def _env_file() -> dict[str, str]:
    pairs = {}
    for line in (DEPLOY / "systemd" / "palaestra.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            pairs[key] = value
    return pairs


def test_the_systemd_units_run_real_commands_of_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each unit's ExecStart is a command line the CLI accepts (after systemd fills in the
    variables of palaestra.env and the instance), and the settings of the env file exist."""
    from typer.main import get_command

    from palaestra.cli import app
    from palaestra.server.settings import Settings

    env = _env_file()
    for key, value in env.items():  # systemd passes the env file to the process
        monkeypatch.setenv(key, value)
    cli = get_command(app)
    for name, command in (("palaestra-web@.service", "serve"), ("palaestra-worker@.service", "worker")):
        unit = _unit(name)
        assert set(unit) == {"Unit", "Service", "Install"}
        service = unit["Service"]
        assert service["EnvironmentFile"] == "/etc/palaestra/palaestra.env"
        assert service["Restart"] == "always" and service["KillSignal"] == "SIGTERM"
        words = service["ExecStart"].replace("%i", "8001").split()
        assert words[0].endswith("/bin/palaestra") and words[1] == command
        args = [re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], w) for w in words[2:]]
        sub = cli.commands[command]  # type: ignore[attr-defined]
        ctx = sub.make_context(command, args)  # raises on an unknown or bad option
        assert ctx.params["database_url"] == env["PALAESTRA_DATABASE_URL"]
        assert ctx.params["redis_url"] == env["PALAESTRA_REDIS_URL"]
    settings = {f"PALAESTRA_{f.upper()}" for f in Settings.model_fields}
    for key in env:  # the address to listen on is an option only; the URLs are settings too
        if key.startswith("PALAESTRA_") and key != "PALAESTRA_BIND":
            assert key in settings, key


def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    """``systemd-analyze verify`` (from systemd, here and on every host that runs the units) on
    copies whose program and environment file point at this machine's."""
    analyze = shutil.which("systemd-analyze")
    assert analyze is not None, "systemd-analyze is part of systemd: apt-get install systemd"
    palaestra = shutil.which("palaestra") or str(Path(sys.executable).parent / "palaestra")
    (tmp_path / "palaestra.env").write_text((DEPLOY / "systemd" / "palaestra.env").read_text())
    for name in ("palaestra-web@.service", "palaestra-worker@.service"):
        text = (DEPLOY / "systemd" / name).read_text()
        text = text.replace("/opt/palaestra/venv/bin/palaestra", palaestra)
        text = text.replace("/etc/palaestra/palaestra.env", str(tmp_path / "palaestra.env"))
        text = text.replace("User=palaestra", "User=root").replace("Group=palaestra", "Group=root")
        (tmp_path / name).write_text(text)
    for instance in ("palaestra-web@8001.service", "palaestra-worker@1.service"):
        done = subprocess.run(
            [analyze, "verify", str(tmp_path / instance)], capture_output=True, text=True, timeout=60
        )
        complaints = [
            line
            for line in (done.stdout + done.stderr).splitlines()
            if str(tmp_path) in line or "palaestra" in line
        ]
        assert done.returncode == 0 and not complaints, done.stdout + done.stderr


def _blocks_balanced(text: str) -> bool:
    depth = 0
    for char in re.sub(r'"[^"]*"|#.*', "", text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def test_the_nginx_configuration_proxies_websockets_and_hides_metrics() -> None:
    from palaestra.server.settings import Settings

    for name in ("palaestra.conf", "compose.conf"):
        text = (DEPLOY / "nginx" / name).read_text()
        assert _blocks_balanced(text), name
        assert re.search(r"upstream palaestra \{[^}]*server \S+:\d+", text), name
        # affinity by game: the same key for a game's actions, views and websocket
        assert "hash $palaestra_game consistent;" in text
        key = re.search(r"map \$uri \$palaestra_game \{\s*~(\S+)\s+\$game;", text)
        assert key is not None, name
        for path in ("/api/games/Ab3_x-9/actions", "/api/games/Ab3_x-9/ws", "/api/games/Ab3_x-9"):
            found = re.match(key.group(1).replace("?<game>", "?P<game>"), path)
            assert found is not None and found.group("game") == "Ab3_x-9", path
        assert re.match(key.group(1).replace("?<game>", "?P<game>"), "/api/games") is None
        ws = re.search(r"location ~ \^(\S+)\$ \{([^}]*)\}", text)
        assert ws is not None, name
        pattern, block = ws.group(1), ws.group(2)
        assert re.fullmatch(pattern, "/api/games/Ab3_x-9/ws") and not re.fullmatch(pattern, "/api/games/a/b")
        assert "proxy_set_header Upgrade $http_upgrade;" in block
        assert "proxy_set_header Connection $connection_upgrade;" in block
        assert "proxy_http_version 1.1;" in block
        assert int(re.search(r"proxy_read_timeout (\d+)s;", block).group(1)) > 25  # type: ignore[union-attr]
        size = re.search(r"client_max_body_size (\d+)k;", text)
        assert size is not None and int(size.group(1)) * 1024 == Settings().max_body_bytes
        assert re.search(r"location = /metrics \{\s*return 404;", text), name
        assert all(s.endswith(";") or s.endswith("{") or s.endswith("}") for s in _statements(text)), name
    conf = (DEPLOY / "nginx" / "palaestra.conf").read_text()
    ports = re.findall(r"server 127\.0\.0\.1:(\d+)", conf)
    assert ports == ["8001", "8002"]  # the instances of palaestra-web@ in docs/deploy.md


def _statements(text: str) -> list[str]:
    lines = [re.sub(r"#.*", "", line).strip() for line in text.splitlines()]
    return [line for line in lines if line]


@pytest.mark.slow
def test_the_caddyfile_balances_over_the_web_processes_by_readiness() -> None:
    from palaestra.server.app import create_app

    text = (DEPLOY / "Caddyfile").read_text()
    assert _blocks_balanced(text)
    proxy = re.search(r"reverse_proxy ([^{]+)\{([^}]*)\}", text)
    assert proxy is not None
    assert proxy.group(1).split() == ["127.0.0.1:8001", "127.0.0.1:8002"]
    health = re.search(r"health_uri (\S+)", proxy.group(2))
    assert health is not None
    paths = set(create_app("sqlite://").openapi()["paths"])
    assert health.group(1) in paths and "/metrics" in paths
    assert "respond /metrics 404" in text


def test_metrics_of_a_process_include_its_memory_and_cpu(tmp_path: Path) -> None:
    """What docs/deploy.md says to watch on every process: its RSS, CPU time and open files
    next to the app's own metrics."""
    from fastapi.testclient import TestClient

    from palaestra.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.sqlite3'}")) as client:
        text = client.get("/metrics").text
    values = {line.split()[0]: float(line.split()[1]) for line in text.splitlines() if line[:1] != "#"}
    assert values["process_resident_memory_bytes"] > 10 * 2**20
    assert values["process_cpu_seconds_total"] > 0
    assert values["process_open_fds"] > 0
    assert "palaestra_games_loaded" in values and "palaestra_websockets" in values

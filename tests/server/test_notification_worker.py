"""Notifications sent by ``palaestra worker`` (issue 29, part 9): exactly one e-mail when the
worker is killed (SIGKILL) in the middle of sending it, and the page's count heard across
processes over Redis."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from palaestra.server.api.auth import COOKIE
from palaestra.server.app import create_app
from palaestra.server.settings import Settings
from tests.server.accounts_helpers import BLITZ, sign_up
from tests.server.notify_helpers import Mailbox, SmtpServer, correspondence_game, settings, wait_until
from tests.server.redis_server import RedisServer
from tests.server.server_process import WorkerProcess
from tests.server.test_notifications import rows


def test_a_worker_killed_mid_send_leaves_exactly_one_email(
    db_url: str, redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mailbox = Mailbox(stall_first=True)
    with SmtpServer(mailbox) as smtp:
        for name, value in {
            "SMTP_URL": smtp.url,
            "NOTIFY_CLAIM_SECONDS": "2",
            "NOTIFY_POLL_SECONDS": "0.3",
            "NOTIFY_RETRY_SECONDS": "0.5",
        }.items():
            monkeypatch.setenv(f"PALAESTRA_{name}", value)
        first = WorkerProcess(db_url, redis_server.url, tmp_path / "first.log").start()
        second = None
        config = Settings.from_env()
        try:
            with TestClient(
                create_app(db_url, ai_delay=0.0, settings=config, redis_url=redis_server.url)
            ) as client:
                alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
                settings(
                    alice, language="de", email="alice@example.org", channels={"game_ended": {"email": True}}
                )
                client.cookies.set(COOKIE, bob.cookie)
                with client.websocket_connect("/api/notifications/ws") as socket:
                    client.cookies.clear()
                    assert socket.receive_json() == {"type": "notifications", "unread": 0}
                    gid = correspondence_game(alice, bob, time_control=BLITZ)
                    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
                    assert mailbox.stalled.wait(20), (tmp_path / "first.log").read_text()
                    first.kill()  # SIGKILL while the server holds the message's DATA
                    mailbox.release.set()
                    second = WorkerProcess(db_url, redis_server.url, tmp_path / "second.log").start()
                    wait_until(lambda: len(mailbox.messages) == 1, timeout=30, what="the e-mail")
                    # bob's page row was sent by a worker: this process heard it over Redis
                    assert socket.receive_json() == {"type": "notifications", "unread": 1}
                email = next(r for r in rows(client) if r["channel"] == "email")
                wait_until(
                    lambda: next(r for r in rows(client) if r["channel"] == "email")["status"] == "sent"
                )
                time.sleep(3.0)  # longer than a claim: nobody sends it again
                assert len(mailbox.messages) == 1 and mailbox.attempts == 2
                (message,) = mailbox.messages
                assert message["To"] == "alice@example.org" and message["Subject"] == "Partie beendet: Nim"
                assert message["Message-ID"].startswith(f"<notification.{email['id']}.")
                assert next(r for r in rows(client) if r["channel"] == "email")["tries"] == 2
        finally:
            first.stop()
            if second is not None:
                second.stop()


def test_a_worker_stopped_mid_send_finishes_and_records_it(
    redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM (a deploy): arq cancels the worker's jobs, but the message under way is sent to its
    end and marked sent before the worker goes, so no other worker sends it again."""
    db_url = f"sqlite:///{tmp_path / 'palaestra.sqlite3'}"
    mailbox = Mailbox(stall_first=True)
    with SmtpServer(mailbox) as smtp:
        for name, value in {
            "SMTP_URL": smtp.url,
            "NOTIFY_CLAIM_SECONDS": "4",
            "NOTIFY_POLL_SECONDS": "0.3",
        }.items():
            monkeypatch.setenv(f"PALAESTRA_{name}", value)
        first = WorkerProcess(db_url, redis_server.url, tmp_path / "first.log").start()
        second = None
        try:
            with TestClient(
                create_app(db_url, ai_delay=0.0, settings=Settings.from_env(), redis_url=redis_server.url)
            ) as client:
                alice, bob = sign_up(client, "alice"), sign_up(client, "bobby")
                settings(alice, email="alice@example.org", channels={"game_ended": {"email": True}})
                gid = correspondence_game(alice, bob, time_control=BLITZ)
                assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
                assert mailbox.stalled.wait(20), (tmp_path / "first.log").read_text()
                assert first.proc is not None
                first.proc.terminate()  # SIGTERM while the server holds the message's DATA
                time.sleep(0.5)
                mailbox.release.set()
                first.proc.wait(timeout=30)

                def email_row() -> dict[str, object]:
                    return next(r for r in rows(client) if r["channel"] == "email")

                assert email_row()["status"] == "sent", (tmp_path / "first.log").read_text()
                second = WorkerProcess(db_url, redis_server.url, tmp_path / "second.log").start()
                time.sleep(6.0)  # past the claim and arq's lease: nothing sends it again
                assert len(mailbox.messages) == 1 and mailbox.attempts == 1
        finally:
            first.stop()
            if second is not None:
                second.stop()

"""AI and chance moves as jobs: ``palaestra worker`` processes play them from a Redis queue (arq).

With ``--redis-url`` a web process never searches: when a game waits for the server (an AI seat
or a chance draw is next) it enqueues a job ``server_move(game_id)`` under the id
``move:GAME:VERSION``, and answers. Hints and the AI's view of finished games are jobs too
(``search``), whose answer the web process waits for (``search_timeout``; then 503
``ai_unavailable``). A worker takes the job, loads the game from the database,
plays one move (a chance draw or an AI search) and stores it under the version guard, announces the
change (pub/sub, palaestra/server/broker.py), and enqueues the next job if the server is to move
again. One move a job keeps the queue fair between games: an AI-against-AI game goes to the back
of the queue after each move.

Why nothing is lost (docs/deploy.md says why arq):

- arq runs a job *pessimistically*: the job stays in the queue while it runs, under an
  "in progress" key. arq lets that key expire ``job_timeout + 10`` seconds after the job was taken
  (some 70 s: a killed worker's game stalled that long, issue 31 finding 6); our worker
  (:class:`LeasedWorker`) gives it a lease of ``LEASE`` seconds instead and renews it every third
  of that while the job runs: a heartbeat. A worker killed mid-search (kill -9, a lost host) stops
  renewing; once the lease runs out (within ``LEASE`` seconds) the next worker to poll runs the
  job again. A worker stopped with SIGTERM gives its jobs back at once.
- The job id makes a move asked for twice (by two web processes, or a web process and a sweep) one
  job; the version guard of the row makes a job run twice (a retry after a crash that happened
  after the write) store the move once: the second run finds the game moved on.
- Every worker also sweeps every ``sweep_every`` seconds: an active game waiting for the server
  with no job (Redis lost it, or a web process died between storing a person's move and
  enqueueing) gets one.
- Notifications (issue 29) are jobs too: ``notify(row)`` sends one row of the outbox
  (palaestra/server/service/delivery.py: claimed, sent, marked). Every ``notify_poll_seconds``
  each worker enqueues the rows due (a job lost, a retry, a row whose sender died).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from palaestra.server.broker import Broker, RedisBroker
from palaestra.server.db import StorageError, Store
from palaestra.server.service.errors import DomainError
from palaestra.server.service.hub import Hub
from palaestra.server.settings import Settings

log = logging.getLogger("palaestra.server.worker")

#: the arq queue of the server's moves (a sorted set in Redis)
QUEUE_NAME = "palaestra:moves"
JOB_NAME = "server_move"
SEARCH_JOB = "search"
#: the job that sends one notification of the outbox (issue 29; palaestra/server/service/delivery.py)
NOTIFY_JOB = "notify"
#: a job still running after this long is stopped and counted as failed (the sweep asks again);
#: also, a job of a killed worker is run again this long plus 10 seconds after it was taken
JOB_TIMEOUT = 60.0
#: how long a web process waits for the answer of a hint or analysis job
SEARCH_TIMEOUT = 30.0
#: the lease of a running job (seconds): its "in progress" key expires this long after the last
#: renewal (every third of it), so the job of a killed worker is run again within this long
LEASE = 6.0


def job_id(game_id: str, version: int) -> str:
    """One job for one move: the game and the version it is to be played on."""
    return f"move:{game_id}:{version}"


def _settings(redis_url: str) -> Any:
    from arq.connections import RedisSettings

    return RedisSettings.from_dsn(redis_url)


class ArqQueue:
    """The web processes' side: enqueue server moves (``Hub(queue=...)``) and searches for hints
    and analysis (``Hub(searcher=...)``)."""

    def __init__(self, redis_url: str, *, search_timeout: float = SEARCH_TIMEOUT) -> None:
        self.redis_url = redis_url
        self.search_timeout = search_timeout
        self.pool: Any = None
        self.submitted = 0

    async def start(self) -> None:
        from arq import create_pool

        self.pool = await create_pool(_settings(self.redis_url), default_queue_name=QUEUE_NAME)

    async def submit(self, game_id: str, version: int) -> bool:
        """Ask for the next server move of ``game_id`` at ``version``; False if that job is queued
        or running already."""
        if self.pool is None:
            await self.start()
        job = await self.pool.enqueue_job(JOB_NAME, game_id, _job_id=job_id(game_id, version))
        self.submitted += 1
        return job is not None

    async def notify(self, row_id: int) -> None:
        """Have a worker send the notification ``row_id`` of the outbox (one job per row at a
        time; a row whose job is queued or running already is not asked for twice)."""
        if self.pool is None:
            await self.start()
        await self.pool.enqueue_job(NOTIFY_JOB, row_id, _job_id=f"notify:{row_id}")

    async def ask(self, kind: str, game_id: str, arg: int) -> Any:
        """A hint or analysis, searched by a worker; 503 ``ai_unavailable`` if none answers in
        ``search_timeout`` seconds (the job then expires unstarted)."""
        if self.pool is None:
            await self.start()
        unavailable = DomainError("ai_unavailable", "no AI worker answered in time; try again in a moment")
        try:
            job = await self.pool.enqueue_job(SEARCH_JOB, kind, game_id, arg, _expires=self.search_timeout)
            answer = await job.result(timeout=self.search_timeout, poll_delay=0.05)
        except Exception as err:  # Redis away, the job failed or timed out
            log.warning("a %s search for game %s got no answer: %r", kind, game_id, err)
            raise unavailable from None
        if not isinstance(answer, dict):
            raise unavailable
        if "error" in answer:
            *_, code, message = answer[
                "error"
            ]  # [code, message] (a worker before 2026-11: [status, code, message])
            raise DomainError(str(code), str(message))
        return answer["result"]

    async def queued(self) -> int:
        """Jobs waiting or running (for /metrics)."""
        if self.pool is None:
            return 0
        return int(await self.pool.zcard(QUEUE_NAME))

    async def stop(self) -> None:
        if self.pool is not None:
            await self.pool.aclose()
            self.pool = None


class Runtime:
    """What a worker process holds: the store, a hub without websockets, the queue to go on."""

    def __init__(self, hub: Hub, queue: ArqQueue) -> None:
        self.hub = hub
        self.queue = queue
        self.moves = 0

    async def play(self, game_id: str) -> str:
        """One server move of ``game_id`` (if it is the server's turn), then the next job."""
        hub = self.hub
        try:
            session = await hub.get(game_id)  # checks the row's version: always the current game
        except DomainError as err:
            return f"not played: {err.message}"
        if not session.waiting_for_server():
            return "not the server's turn"
        if await hub.moves.play_one(session):
            self.moves += 1
            await hub.sessions.broadcast(session)  # announce it: the web processes push it
        if session.waiting_for_server():
            await self.queue.submit(game_id, session.version)
        return f"at version {session.version}"

    async def sweep(self) -> int:
        """Enqueue a job for every active game that waits for the server (a job that exists
        already is not doubled). Returns how many games wait."""
        hub = self.hub
        waiting = 0
        for game_id in await asyncio.to_thread(hub.store.ids, "active"):
            try:
                session = await hub.get(game_id)
            except (DomainError, StorageError) as err:
                log.error("sweep: cannot load game %s: %s", game_id, err)
                continue
            if session.waiting_for_server():
                waiting += 1
                await self.queue.submit(game_id, session.version)
            elif not session.subscribers:
                hub.sessions.evict(session)
        hub.evict_idle()
        return waiting


async def server_move(ctx: dict[str, Any], game_id: str) -> str:
    """The arq job: one move of the server in ``game_id``."""
    runtime: Runtime = ctx["palaestra"]
    return await runtime.play(game_id)


async def search(ctx: dict[str, Any], kind: str, game_id: str, arg: int) -> dict[str, Any]:
    """The arq job of a hint (``arg``: how many moves) or an analysis (``arg``: the ply): the
    answer, or the error for the client (``{"error": [code, message]}``)."""
    runtime: Runtime = ctx["palaestra"]
    analyst = runtime.hub.analyst
    try:
        session = await runtime.hub.get(game_id)
        if kind == "hint":
            return {"result": await analyst.hint_search(session, arg)}
        if kind == "analysis":
            return {"result": await analyst.analysis_search(session, arg)}
    except DomainError as err:
        return {"error": [err.code, err.message]}
    return {"error": ["bad_request", f"no search {kind!r}"]}


async def notify(ctx: dict[str, Any], row_id: int) -> str:
    """The arq job of one notification: claim it, send it, mark it (delivery.py; a row another
    sender holds is left to it, a failed try is put off and found again by the sweep)."""
    runtime: Runtime = ctx["palaestra"]
    return await runtime.hub.notifications.deliverer.deliver(row_id)


def _leased_worker_class() -> Any:
    """:class:`LeasedWorker`, made when first needed (arq is imported by workers only)."""
    from arq.constants import in_progress_key_prefix
    from arq.worker import Worker

    class LeasedWorker(Worker):
        """arq's worker with a heartbeat: a running job's "in progress" key lives ``lease``
        seconds and is renewed every ``lease / 3`` seconds by a task of its own (not the polling
        loop), so it outlives a long search but not a dead worker."""

        def __init__(self, *args: Any, lease: float = LEASE, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.lease = lease
            self.in_progress_timeout_s = lease  # what arq sets the key to when it takes a job
            self.renewals = 0

        async def main(self) -> None:
            renewer = asyncio.get_running_loop().create_task(self._renew_forever())
            try:
                await super().main()
            finally:
                renewer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await renewer

        async def close(self) -> None:
            """Before arq's close (which waits for the cancelled jobs), let the notifications
            under way be sent to their end and recorded (delivery.py, ``drain``)."""
            runtime: Runtime | None = self.ctx.get("palaestra") if self.ctx else None
            if runtime is not None:
                deliverer = runtime.hub.notifications.deliverer
                with contextlib.suppress(Exception):
                    await deliverer.drain(deliverer.claim / 2)
            await super().close()

        async def renew(self) -> None:
            """Extend the lease of every job this worker runs (a key deleted because the job
            ended is left alone: ``PEXPIRE`` of a missing key does nothing)."""
            running = [job_id for job_id, task in self.tasks.items() if not task.done()]
            if not running or self._pool is None:
                return
            pipe = self.pool.pipeline(transaction=False)
            for job_id in running:
                pipe.pexpire(in_progress_key_prefix + job_id, int(self.lease * 1000))
            await pipe.execute()
            self.renewals += 1

        async def _renew_forever(self) -> None:
            while True:
                await asyncio.sleep(self.lease / 3)
                try:
                    await self.renew()
                except asyncio.CancelledError:
                    raise
                except Exception as err:  # Redis away: the next beat tries again
                    log.warning("cannot renew the leases of running jobs: %s", err)

    return LeasedWorker


def make_worker(
    database_url: str,
    redis_url: str,
    *,
    ai_delay: float = 0.0,
    jobs: int = 2,
    job_timeout: float = JOB_TIMEOUT,
    sweep_every: float = 30.0,
    burst: bool = False,
    poll_delay: float = 0.05,
    lease: float = LEASE,
) -> Any:
    """An arq worker for the server's moves (``.run()`` it, or ``await .async_run()``); a job of
    a worker that died is run again within ``lease`` seconds (:class:`LeasedWorker`)."""
    from arq.worker import func

    sweeper: list[asyncio.Task[None]] = []

    async def startup(ctx: dict[str, Any]) -> None:
        store = Store(database_url)
        await asyncio.to_thread(store.migrate)
        broker: Broker = RedisBroker(redis_url, follow=False)  # every job reads the row's version
        queue = ArqQueue(redis_url)
        queue.pool = ctx["redis"]  # the worker's own connection pool
        hub = Hub(store, ai_delay=ai_delay, broker=broker, queue=queue, search_workers=jobs)
        hub.notifications.configure(Settings.from_env())
        hub.notifications.enqueue = queue.notify
        await broker.start(lambda game_id, version, state: None)  # announces only; hears nothing
        await hub.notifications.start(send=False)
        runtime = Runtime(hub, queue)
        ctx["palaestra"] = runtime
        loop = asyncio.get_running_loop()
        sweeper.append(loop.create_task(_sweep_forever(runtime, sweep_every)))
        sweeper.append(loop.create_task(_notify_forever(runtime, hub.notifications.poll)))
        log.info("worker ready: %d moves at once, jobs time out after %.0f s", jobs, job_timeout)

    async def shutdown(ctx: dict[str, Any]) -> None:
        for task in sweeper:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        runtime: Runtime | None = ctx.get("palaestra")
        if runtime is not None:
            await runtime.hub.sessions.broker.stop()
            runtime.hub.store.close()

    return _leased_worker_class()(
        lease=lease,
        functions=[
            func(server_move, name=JOB_NAME, timeout=job_timeout),
            # the answer is kept a minute for the web process that waits for it
            func(search, name=SEARCH_JOB, timeout=job_timeout, keep_result=60, max_tries=1),
            func(notify, name=NOTIFY_JOB, timeout=job_timeout),
        ],
        redis_settings=_settings(redis_url),
        queue_name=QUEUE_NAME,
        on_startup=startup,
        on_shutdown=shutdown,
        max_jobs=jobs,
        job_timeout=job_timeout,
        keep_result=0,  # the job id is free again once done: the same move can be asked for again
        max_tries=20,
        poll_delay=poll_delay,
        burst=burst,
        health_check_interval=10,
    )


async def _sweep_forever(runtime: Runtime, every: float) -> None:
    while True:
        try:
            waiting = await runtime.sweep()
            if waiting:
                log.info("sweep: %d games wait for the server", waiting)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sweep failed; again in %.0f s", every)
        await asyncio.sleep(every)


async def _notify_forever(runtime: Runtime, every: float) -> None:
    """Every ``every`` seconds, a job for each notification due (new, to try again, or held by a
    sender that died: its claim ran out)."""
    notifications = runtime.hub.notifications
    while True:
        try:
            for row_id in await notifications.sweep():
                await runtime.queue.notify(row_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the notifications sweep failed; again in %.0f s", every)
        await asyncio.sleep(every)


def run_worker(database_url: str, redis_url: str, **options: Any) -> None:
    """Run a worker until SIGINT/SIGTERM (its running jobs go back to the queue)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    make_worker(database_url, redis_url, **options).run()

"""A sweep run every few seconds in the background of a web process (the lobby's seeks, the
challenges that expire): started with the app, cancelled when it stops. A sweep that fails (the
database away) is logged, and the next turn tries again."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger("palaestra.server")


class Periodic:
    """Calls :meth:`sweep` every :meth:`every` seconds between :meth:`start` and :meth:`stop`."""

    #: what a failed sweep's log line names ("seeks", "challenges")
    swept = "records"
    _task: asyncio.Task[None] | None = None

    def every(self) -> float:
        return 10.0

    async def sweep(self) -> int:
        raise NotImplementedError

    async def run(self) -> None:
        every = self.every()
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception as err:  # the database is away: the next sweep tries again
                log.warning("%s could not be swept now: %s", self.swept, err)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

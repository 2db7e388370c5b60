"""Start the web app in its own process for tests:
``python -m tests.server.launch PORT DB_URL [AI_DELAY [REDIS_URL]]``, or a worker:
``python -m tests.server.launch worker DB_URL REDIS_URL AI_DELAY JOB_TIMEOUT``.

It registers the core's test game ``nim`` first (as the tests' conftest does) and plays AI moves
without the UI's pause.
"""

from __future__ import annotations

import sys

from palaestra.core import registry
from palaestra.server.app import create_app
from palaestra.server.serving import run


def main() -> None:
    registry._GAMES["nim"] = "tests.core.nim:INFO"
    if sys.argv[1] == "worker":
        from palaestra.server.worker import run_worker

        db_url, redis_url, ai_delay, job_timeout = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
        run_worker(db_url, redis_url, ai_delay=float(ai_delay), job_timeout=float(job_timeout))
        return
    port, url = int(sys.argv[1]), sys.argv[2]
    ai_delay = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    redis_url = sys.argv[4] if len(sys.argv) > 4 else None
    app = create_app(url, ai_delay=ai_delay, redis_url=redis_url)
    run(app, "127.0.0.1", port, log_level="warning")  # as `palaestra serve` runs it


if __name__ == "__main__":
    main()

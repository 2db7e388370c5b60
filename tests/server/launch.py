"""Start the web app in its own process for tests: ``python -m tests.server.launch PORT DB_URL``.

It registers the core's test game ``nim`` first (as the tests' conftest does) and plays AI moves
without the UI's pause.
"""

from __future__ import annotations

import sys

import uvicorn

from palaestra.core import registry
from palaestra.server.app import create_app


def main() -> None:
    port, url = int(sys.argv[1]), sys.argv[2]
    ai_delay = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    registry._GAMES["nim"] = "tests.core.nim:INFO"
    uvicorn.run(create_app(url, ai_delay=ai_delay), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()

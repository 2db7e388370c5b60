"""Giving freed memory back to the system (issue 31).

CPython frees a string or a buffer of more than 512 bytes (a websocket message, a game's view as
JSON, a row read from the database) with the C library's ``free``. glibc keeps such memory in its
heaps for reuse and returns it to the system only from the top of a heap: after a burst (a flood
of 20 kB websocket messages, thousands of games loaded and evicted) the process's RSS stayed where
the burst left it, although the memory was free. ``malloc_trim(0)`` hands every free page of
glibc's heaps back. The server calls it after each sweep of idle games (every 30 s, in a worker
thread); elsewhere than glibc (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger("palaestra.server")


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _malloc_trim()


def release_free_memory() -> bool:
    """Return the C heap's free pages to the system; True if the C library could (glibc)."""
    if _TRIM is None:
        return False
    return bool(_TRIM(0))

"""Pacing the computer's moves in a widget: a short visible pause, or at once in scripts and tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


def schedule(delay: float | None, step: Callable[[], None], run_now: Callable[[], None], handle: Any = None) -> Any:
    """Call ``step`` after ``delay`` seconds on the running event loop (the kernel's).

    With ``delay=None``, or where there is no event loop, ``run_now`` runs at once
    (synchronously).  Returns the new timer handle (cancelling ``handle``), or None.
    """
    if delay is None:
        run_now()
        return None
    try:
        loop = asyncio.get_event_loop()
    except RuntimeError:  # pragma: no cover - no loop: play synchronously
        run_now()
        return None
    if handle is not None:
        handle.cancel()
    return loop.call_later(delay, step)

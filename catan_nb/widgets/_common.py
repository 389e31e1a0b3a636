"""What the game widgets share: pacing the computer's moves, and saving and loading through the engine."""

from __future__ import annotations

import asyncio
import functools
import html
import numbers
from collections.abc import Callable
from typing import Any

from ..errors import CatanError


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


def guarded(method: Callable) -> Callable:
    """Never let an exception escape a widget callback (issue 9).

    Jupyter would print the traceback into its log and leave the widget frozen; instead the
    message goes to the widget's status line (``self.message``) and the game stays as it was
    (the engine refuses before changing anything).
    """

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - a callback must not raise
            text = str(exc) if isinstance(exc, CatanError) else f"{type(exc).__name__}: {exc}"
            self.message = f"⚠ {html.escape(text)}"
            try:
                self.refresh()
            except Exception:  # pragma: no cover - the refresh itself failed: leave the message
                pass
            return None

    return wrapper


def check_seat_index(value: Any, n: int, name: str) -> int:
    """A seat number 0..n-1 given as a Python or numpy integer (not a bool), else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) < n:
        raise ValueError(f"{name} must be a seat number 0..{n - 1}, not {value!r}")
    return int(value)


class SavesGames:
    """Save and Load buttons for a widget holding ``self.game`` (engine JSON, atomic writes).

    A subclass sets ``game_class`` (the engine class whose ``load`` reads the file) and
    may override :meth:`_incompatible` and :meth:`_loaded`.
    """

    game_class: Any = None

    @guarded
    def save(self, path: str | None = None) -> None:
        """Save the game (engine JSON) to the file named in the widget; a bad path is reported, not raised."""
        path = path if path is not None else self.save_path.value
        if not isinstance(path, str) or not path.strip():
            self.message = "⚠ name the file to save to"
            self.refresh()
            return
        try:
            self.game.save(path)
        except OSError as err:
            self.message = f"⚠ cannot save to {html.escape(str(path))}: {html.escape(err.strerror or str(err))}"
            self.refresh()
            return
        self.message = f"saved to {html.escape(str(path))}"
        self.refresh()

    @guarded
    def load(self, path: str | None = None) -> None:
        """Load a game saved by :meth:`save`; any problem with the file is shown, the game is kept."""
        path = path if path is not None else self.save_path.value
        if not isinstance(path, str) or not path.strip():
            self.message = "⚠ name the file to load"
            self.refresh()
            return
        try:
            game = self.game_class.load(path)
        except (CatanError, OSError, ValueError) as err:
            self.message = f"⚠ {html.escape(str(err))}"
            self.refresh()
            return
        why = self._incompatible(game)
        if why:
            self.message = f"⚠ {html.escape(str(path))} {why}"
            self.refresh()
            return
        self.game = game
        self.message = f"loaded {html.escape(str(path))}"
        self._loaded()

    def _incompatible(self, game: Any) -> str | None:
        """Why ``game`` cannot be shown here, or None."""
        return None if game.n == len(self.seats) else f"holds a game for {game.n} player(s)"

    def _loaded(self) -> None:
        self.refresh()

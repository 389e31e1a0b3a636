"""What the game widgets share: pacing the computer's moves, and saving and loading through the engine."""

from __future__ import annotations

import asyncio
import html
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


class SavesGames:
    """Save and Load buttons for a widget holding ``self.game`` (engine JSON, atomic writes).

    A subclass sets ``game_class`` (the engine class whose ``load`` reads the file) and
    may override :meth:`_incompatible` and :meth:`_loaded`.
    """

    game_class: Any = None

    def save(self, path: str | None = None) -> None:
        """Save the game (engine JSON) to the file named in the widget."""
        path = path or self.save_path.value
        self.game.save(path)
        self.message = f"saved to {html.escape(str(path))}"
        self.refresh()

    def load(self, path: str | None = None) -> None:
        """Load a game saved by :meth:`save`; the engine's error is shown if the file is bad."""
        path = path or self.save_path.value
        try:
            game = self.game_class.load(path)
        except CatanError as err:
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

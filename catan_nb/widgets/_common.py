"""What the game widgets share: pacing the computer's moves, and saving and loading through the engine."""

from __future__ import annotations

import asyncio
import functools
import html
import numbers
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..errors import CatanError

#: The stylesheet of :func:`beside`: an autosized figure fills its box's width; a box and the panel beside
#: it wrap under each other when the notebook is narrow (JupyterLab at 1024x700 with the file browser open
#: leaves a notebook about 590 px wide), and an HTML table too wide for its panel scrolls inside it.
_BESIDE_CSS = """<style>
.catan-figure-box > * { width: 100% !important; }
.catan-figure-box, .catan-beside-panel { min-width: 0; }
.catan-scroll { overflow: auto; max-height: 340px; max-width: 100%; }
.catan-scroll table td { white-space: nowrap; }
</style>"""


def refit(figure: Any, delays: tuple[float, ...] = (0.3, 1.5)) -> None:
    """Ask a figure widget's browser view to size itself to its box, now and after ``delays`` seconds.

    The first view draws before the notebook has laid its box out (plotly.js then takes 700 px and
    caches that as the figure's "initial" size, so a relayout to ``width=None`` brings it back):
    a relayout to ``autosize`` alone measures the box again.  Call it when the view first reports in.
    """
    figure._send_relayout_msg({"autosize": True})
    try:
        loop = asyncio.get_event_loop()
    except RuntimeError:  # pragma: no cover - no event loop: nothing to wait for
        return
    for d in delays:
        loop.call_later(d, lambda: figure._send_relayout_msg({"autosize": True}))


def figure_box(figure: Any, css: str = "") -> W.Box:
    """A box whose width an autosized figure widget fills (see :func:`beside`)."""
    box = W.Box([figure], layout=W.Layout(width="100%", min_width="0"))
    box.add_class("catan-figure-box")
    if css:
        box.add_class(css)
    return box


def beside(main: W.Widget, panel: W.Widget, *, basis: str = "480px", panel_basis: str = "320px",
           panel_max: str = "440px", main_max: str = "820px") -> W.Box:
    """``main`` with ``panel`` beside it, the panel going under it when there is no room (flex wrap): ``main``
    grows from ``basis`` up to ``main_max``, the panel from ``panel_basis`` up to ``panel_max``; neither
    shrinks under 260 px nor sticks out of the notebook.  Comes with the stylesheet :func:`figure_box` needs."""
    for w, b, top in ((main, basis, main_max), (panel, panel_basis, panel_max)):
        w.layout.flex = f"1 1 {b}"
        w.layout.min_width = "260px"
        w.layout.max_width = top
        w.layout.width = "auto"
    panel.add_class("catan-beside-panel")
    row = W.HBox([main, panel], layout=W.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))
    return W.VBox([W.HTML(_BESIDE_CSS), row], layout=W.Layout(width="100%"))


def figure_beside(figure: Any, panel: W.Widget, **kw) -> W.Box:
    """An autosized figure widget with ``panel`` beside it (see :func:`beside`)."""
    return beside(figure_box(figure), panel, **kw)


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

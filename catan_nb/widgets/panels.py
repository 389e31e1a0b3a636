"""Pieces of the game table, and the plug-in point for rule modules.

The table is a list of panels.  A panel is any object with

* ``build(table) -> ipywidgets.Widget`` (or ``None``: nothing to show): create its widgets (once);
* ``refresh(table, legal)``: redraw them from the engine's state and the legal actions;

and, optionally,

* ``bar(table) -> ipywidgets.Widget`` (or ``None``): controls for the table's action bar, beside
  the board under the status line: a decision that holds the game up (a gold pick) or buttons
  used every turn (city improvements); called once, after ``build``;

and, optionally, what the module adds to the table's shared cards (the table shows what the
game's modules declare, and nothing else):

* ``costs(table, seat)``: rows of the building-cost card, ``(key, label, counts per good)``; a
  row whose key is a piece kind's name replaces that kind's own row;
* ``columns(table)``: scoreboard columns, ``(header, tooltip, cell)`` with ``cell(seat) -> str``
  showing only what every player may know (A-15);
* ``badges(table, seat)``: marks after a seat's scoreboard row (a special card it holds).

A rule module supplies its own panels by registering a panel class under its name
(:func:`register_panel`); the table adds the panels of every module its game uses, so the table
itself holds no code for any module.  Panels only read the engine's public API and play actions
through ``table.play(action)``.

:class:`Stepper` is the small ``− n +`` counter used for trades and discards.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..viz.plugins import registrar

__all__ = ["Panel", "Stepper", "register_panel", "module_panels", "MODULE_PANELS", "button", "chip", "show", "badge",
           "counts"]

#: Panel classes of each rule module, by module name.
MODULE_PANELS: dict[str, list[type]] = {}


#: Class decorator: show this panel at every table whose game uses rule module ``module``.
register_panel = registrar(MODULE_PANELS, "table panel")


def module_panels(game) -> list:
    """New panel objects for the modules of ``game`` (in the order the modules are listed)."""
    from . import module_panels as _  # noqa: F401  (the built-in modules' panels register themselves)

    return [cls() for m in game.modules for cls in MODULE_PANELS.get(m.name, ())]


class Panel:
    """Base class of the table's panels (see the module docstring).

    ``handles`` lists the action types the panel has its own controls for; the table's
    "More actions" list leaves them out.
    """

    title = ""
    handles: tuple[type, ...] = ()

    def build(self, table) -> W.Widget:  # pragma: no cover - overridden
        raise NotImplementedError

    def refresh(self, table, legal: list) -> None:  # pragma: no cover - overridden
        pass

    def bar(self, table) -> W.Widget | None:
        """Controls for the action bar beside the board (``None``: none)."""
        return None

    def costs(self, table, seat: int) -> list[tuple[str, str, tuple[int, ...]]]:
        """Rows of the building-cost card for ``seat``: ``(key, label, counts per good)``."""
        return []

    def columns(self, table) -> list[tuple[str, str, Callable[[int], Any]]]:
        """Scoreboard columns: ``(header, tooltip, cell)``, ``cell(seat)`` public information only."""
        return []

    def badges(self, table, seat: int) -> str:
        """HTML marks after ``seat``'s scoreboard row."""
        return ""


def badge(short: str, title: str) -> str:
    """A small dark label for a special card on the scoreboard (``"LR"``: Longest Road)."""
    return (f"<span title='{html.escape(title)}' style='display:inline-block;padding:0 4px;border-radius:4px;"
            f"background:#333;color:#fff;font-size:10px'>{html.escape(short)}</span>")


def counts(game, by_name) -> tuple[int, ...]:
    """Counts per good of ``game`` from a ``{good name: count}`` mapping (a printed cost)."""
    return tuple(int(by_name.get(str(g), 0)) for g in game.goods)


def button(label: str, css: str, style: str = "", tooltip: str = "") -> W.Button:
    """A table button with a stable CSS class (for tests and the browser)."""
    b = W.Button(description=label, tooltip=tooltip or label, layout=W.Layout(width="auto", height="32px"))
    b.add_class("catan-btn")
    b.add_class(css)
    b._catan_style = style
    b.button_style = style
    return b


def show(widget: W.Widget, visible: bool) -> None:
    """Show or hide a widget (hidden widgets take no room)."""
    widget.layout.display = None if visible else "none"


def enable(b: W.Button, on: bool) -> None:
    """Enable or disable a button; a disabled button loses its colour so it looks disabled."""
    b.disabled = not on
    b.button_style = getattr(b, "_catan_style", "") if on else ""


RESOURCE_COLOURS = {
    "lumber": "#2f7d32", "brick": "#c8643b", "wool": "#8dc35a", "grain": "#e8b923", "ore": "#7d8a96",
    "cloth": "#8e5ea2", "coin": "#c9a227", "paper": "#b8a987",
}


def chip(name: str, count: int | str | None = None, *, dim: bool = False) -> str:
    """A resource card as a coloured chip (HTML)."""
    colour = RESOURCE_COLOURS.get(str(name), "#777")
    # a number is a count of cards ("ore ×3"); a string is a note ("ore 2:1")
    suffix = "" if count is None else (f" ×{count}" if isinstance(count, int) else f" {html.escape(count)}")
    text = f"{html.escape(str(name))}{suffix}"
    fg = "#fff" if str(name) in ("lumber", "brick", "ore", "cloth") else "#1a1a1a"
    opacity = "0.35" if dim else "1"
    return (f"<span class='catan-chip' style='display:inline-block;padding:1px 7px;margin:1px 2px;border-radius:9px;"
            f"background:{colour};color:{fg};font-size:12px;opacity:{opacity}'>{text}</span>")


class Stepper:
    """A ``− n +`` counter for one resource (trades, discards); ``value`` reads and sets it."""

    def __init__(self, label: str, css: str, *, maximum: int = 19, on_change: Callable[[], None] | None = None):
        self.maximum = maximum
        self._value = 0
        self._on_change = on_change
        self.minus = W.Button(description="−", layout=W.Layout(width="28px", height="26px", padding="0"))
        self.plus = W.Button(description="+", layout=W.Layout(width="28px", height="26px", padding="0"))
        self.label = W.HTML(layout=W.Layout(width="86px"))
        self.name = label
        self.minus.on_click(lambda _: self._step(-1))
        self.plus.on_click(lambda _: self._step(1))
        self.widget = W.HBox([self.minus, self.label, self.plus], layout=W.Layout(align_items="center"))
        self.widget.add_class(css)
        self._draw()

    @property
    def value(self) -> int:
        return self._value

    @value.setter
    def value(self, v: Any) -> None:
        try:
            v = int(v)
        except (TypeError, ValueError):
            v = 0
        self._value = max(0, min(self.maximum, v))
        self._draw()
        if self._on_change:
            self._on_change()

    def _step(self, d: int) -> None:
        self.value = self._value + d

    def cap(self, maximum: int) -> None:
        """Bound the counter by ``maximum`` (what the hand holds), lowering the value if needed; no callback."""
        self.maximum = max(0, int(maximum))
        if self._value > self.maximum:
            self._value = self.maximum
        self._draw()

    def reset(self) -> None:
        """Back to 0, without calling back."""
        self._value = 0
        self._draw()

    def _draw(self) -> None:
        self.label.value = f"{chip(self.name)} <b>{self._value}</b>"
        self.minus.disabled = self._value <= 0
        self.plus.disabled = self._value >= self.maximum


def counts_of(steppers) -> tuple[int, ...]:
    """The values of a row of steppers."""
    return tuple(int(s.value) for s in steppers)


#: Pixels between the centres of two neighbouring hexes the table's board keeps at least (issue 37: a map
#: drawn smaller is unreadable and its hexes are hard to hit); the narrow layout takes the width for it.
HEX_GAP_PX = 62
#: Pixels around the plot inside the board's box (the table's figure margins, both sides).
BOARD_MARGIN_PX = 8


def _board_size(fig: Any) -> tuple[float, int, int]:
    """The island's proportions (height / width) and the least box (width, height) in pixels that keeps
    neighbouring hexes :data:`HEX_GAP_PX` apart."""
    (x0, x1), (y0, y1) = fig.layout.xaxis.range, fig.layout.yaxis.range
    ratio = min(1.3, max(0.5, (y1 - y0) / (x1 - x0)))
    hexes = next((t for t in fig.data if t.name == "hexes"), None)
    pts = list(zip(hexes.x, hexes.y)) if hexes is not None and hexes.x else []
    gap = min((((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(pts) for b in pts[i + 1:]),
              default=0.0) or 3 ** 0.5
    scale = HEX_GAP_PX / gap
    return ratio, round((x1 - x0) * scale) + BOARD_MARGIN_PX, round((y1 - y0) * scale) + BOARD_MARGIN_PX


def shape_class(fig: Any, board: Any = None) -> str:
    """The CSS class of a table whose board is ``fig`` (see :func:`board_shape`)."""
    ratio, w, h = _board_size(fig)
    return f"catan-map-{round(100 * ratio)}-{w}-{h}"


def board_shape(fig: Any, board: Any = None) -> str:
    """The stylesheet that fits the table to its island: the board's box takes the island's proportions (New
    York is wide, a Seafarers map square and large), is never so small that neighbouring hexes come closer
    than :data:`HEX_GAP_PX`, and the board keeps a column that wide beside the action bar, or the table
    stacks the action bar above the board (the narrow layout) when the notebook is narrower than that."""
    ratio, w, h = _board_size(fig)
    cls = shape_class(fig, board)
    wide = max(861, w + 311)  # the board's least width, the side's (300 px) and the gap
    return (f"<style>.catan-table.{cls} .catan-board {{ aspect-ratio: 1 / {ratio:.2f}; min-height: {h}px; }}\n"
            f"@container (min-width: {wide}px) {{ .catan-table.{cls} .catan-main {{ grid-template-columns: "
            f"minmax({w}px, 1fr) minmax(300px, 460px); }} }}\n"
            f"@container (max-width: {wide - 1}px) {{ .catan-table.{cls} .catan-main {{ grid-template-columns: "
            f"minmax(0, 1fr); grid-template-areas: 'action' 'board' 'side'; grid-template-rows: auto auto auto; }}\n"
            f"  .catan-table.{cls} .catan-action {{ max-height: 150px; }}\n"
            f"  .catan-table.{cls} .catan-action.catan-discarding {{ max-height: none; }}\n"
            f"  .catan-table.{cls} .catan-side {{ display: grid !important; grid-template-columns: "
            f"repeat(auto-fill, minmax(280px, 1fr)); gap: 0 10px; align-items: start; }}\n"
            f"  .catan-table.{cls} .catan-side > .catan-scoreboard {{ grid-column: 1 / -1; }} }}</style>")


def style_block() -> W.HTML:
    """The table's stylesheet (no external fonts).

    The table is a grid that follows its own width (container queries).  Wide (a notebook at 1600 px):
    the board on the left, the action bar (status line, choices, dice and the buttons of the moment)
    on the right with the other cards under it.  Narrower (a notebook at 1024x700 with JupyterLab's file
    browser open is about 590 px wide): the action bar above the board, the board as tall as the screen
    leaves beside it, the cards below, so that a whole turn needs no scrolling.  The action bar never
    grows past what the screen leaves (150 px above the board when narrow): a tall one (the discard
    steppers of eight goods, a long list of choices) scrolls by itself under its status line, which
    stays in view, and the board stays on screen.
    """
    return W.HTML("""<style>
.catan-table { width: 100%; max-width: 1500px; font-size: 13px; container-type: inline-size; }
.catan-table .widget-html-content { line-height: 1.4; }
.catan-table .catan-main { display: grid !important; gap: 4px 10px; align-items: start; width: 100%; overflow: visible;
  grid-template-columns: minmax(0, 1fr) minmax(340px, 460px);
  grid-template-areas: "board action" "board side"; grid-template-rows: auto 1fr; }
.catan-board-col { grid-area: board; min-width: 0; overflow: visible; }
.catan-action { grid-area: action; min-width: 0; max-height: calc(100vh - 120px); overflow-y: auto; }
.catan-action > * { flex-shrink: 0; }  /* a tall action bar scrolls; its parts never squash (issue 37) */
.catan-action.catan-discarding { max-height: none; }
.catan-table .catan-scoreboard table { border-collapse: collapse; }
.catan-table .catan-scoreboard td, .catan-table .catan-scoreboard th { padding: 1px 3px; overflow-wrap: anywhere; }
.catan-action > .catan-status { position: sticky; top: 0; z-index: 2; background: var(--jp-layout-color0, #fff); }
.catan-side { grid-area: side; min-width: 0; overflow: visible; }
.catan-board { width: 100%; aspect-ratio: 1 / 0.95; max-height: calc(100vh - 120px); min-height: 260px; overflow: hidden; }
.catan-board > * { width: 100% !important; height: 100% !important; }
.catan-legend { font-size: 11px; padding: 0 4px; }
.catan-key { white-space: nowrap; margin-right: 8px; }
.catan-swatch { display: inline-block; width: 18px; height: 9px; border: 1px solid #5b4a33; vertical-align: middle;
  margin-right: 3px; }
.catan-table .widget-button, .catan-table .jupyter-button { margin: 2px; }
.catan-btn.jupyter-button:disabled, .catan-btn.widget-button:disabled { opacity: 0.38; cursor: not-allowed; }
.catan-choices .catan-choice { width: 100%; height: auto !important; min-height: 30px; white-space: normal;
  text-align: left; line-height: 1.3; padding: 3px 8px; }
.catan-turn-bar .catan-dice { margin-right: 6px; }
.catan-card { border: 1px solid #bbb; border-radius: 6px; padding: 4px 8px; margin: 3px 0; background: #fcfcf8; }
.catan-log { max-height: 210px; overflow-y: auto; }
.catan-die { display: inline-block; width: 28px; height: 28px; border: 2px solid #333; border-radius: 6px;
  background: #fff; margin-right: 4px; text-align: center; line-height: 24px; font-weight: bold; font-size: 18px; }
.catan-die.red { border-color: #b00020; color: #b00020; }
@container (max-width: 860px) {
  .catan-table .catan-main { grid-template-columns: minmax(0, 1fr); grid-template-areas: "action" "board" "side";
    grid-template-rows: auto auto auto; }
  .catan-board { max-height: calc(100vh - 250px); }
  .catan-action { max-height: 150px; }
  .catan-action.catan-discarding { max-height: none; }
  .catan-table .catan-side > .catan-scoreboard { grid-column: 1 / -1; }
  .catan-table .catan-side { display: grid !important; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr));
    gap: 0 10px; align-items: start; }
}
</style>""")

"""The Dice Game sheet as a plotly figure: a pure function of a sheet or a game.

Everything is drawn from the sheet file's own coordinates (``xy``, ``segment``,
``hexes``; DG-SHEET-6 is a GAP, so they are a replaceable proposal).  Each trace
has a stable ``name`` so that the dice table can update it in place
(:func:`dice_sheet_traces` recomputes the dynamic ones).

Examples
--------
>>> from catan_nb.dicegame import DiceSheet
>>> fig = dice_sheet_figure(DiceSheet.normal())
>>> [t.name for t in fig.data if t.name in DYNAMIC_SHEET_TRACES]
['roads-built', 'road-marks', 'structures', 'swaps', 'highlight']
>>> fig.layout.yaxis.scaleanchor
'x'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import plotly.graph_objects as go

from ..constants import Terrain
from ..dicegame.constants import Kind, Variant, cost_text
from ..dicegame.game import DiceGame
from ..dicegame.sheet import DiceSheet
from .palette import palette

__all__ = [
    "dice_sheet_figure",
    "dice_sheet_traces",
    "sheet_mimebundle",
    "DYNAMIC_SHEET_TRACES",
    "SEAT_COLOURS",
]

#: Traces that :func:`dice_sheet_traces` recomputes, in figure order.
DYNAMIC_SHEET_TRACES = ("roads-built", "road-marks", "structures", "swaps", "highlight")
#: Colour of each seat's marks (red, blue, orange, green).
SEAT_COLOURS = ("#d62728", "#1f5fbf", "#ff8c1a", "#2ca02c")
_SYMBOL = {Kind.SETTLEMENT: "triangle-up", Kind.CITY: "square", Kind.KNIGHT: "circle"}
_LETTER = {Kind.ROAD: "R", Kind.SETTLEMENT: "S", Kind.CITY: "C", Kind.KNIGHT: "K"}
_INK = "#3b3024"
_BLANK = "#fffdf5"


def _split(source, player: int | None) -> tuple[DiceSheet, DiceGame | None, int]:
    if isinstance(source, DiceSheet):
        return source, None, 0
    if isinstance(source, DiceGame):
        return source.sheet, source, source.current if player is None else player
    raise TypeError(f"dice_sheet_figure needs a DiceSheet or a DiceGame, not {type(source).__name__}")


def _hex_outline(x: float, y: float) -> tuple[list[float], list[float]]:
    angles = [math.radians(30 + 60 * k) for k in range(7)]
    return [x + math.cos(a) for a in angles], [y + math.sin(a) for a in angles]


def _label(sheet: DiceSheet, i: int) -> str:
    s = sheet.structures[i]
    if sheet.variant is Variant.NORMAL:
        return str(s.points)
    return _LETTER.get(s.kind, "")


def _hover(sheet: DiceSheet, i: int, built: bool) -> str:
    s = sheet.structures[i]
    unit = "points" if sheet.variant is Variant.NORMAL else "VP"
    lines = [f"<b>{s.id}</b> {s.kind}: {s.points} {unit}", f"cost {cost_text(s.cost)}"]
    if s.needs:
        lines.append("needs " + ", ".join(s.needs))
    for w in sheet.swaps:
        if s.id in w.knights:
            lines.append(f"swap {w.id}: one die to {w.resource or 'any resource'} once per game")
    lines.append("built" if built else "not built")
    return "<br>".join(lines)


def _swap_xy(sheet: DiceSheet, w: int) -> tuple[float, float]:
    pts = [sheet[k].xy for k in sheet.swaps[w].knights]
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts) - 0.42


def dice_sheet_traces(
    source, player: int | None = None, *, highlight: Iterable[str] = (), palette_name: str = "standard",
) -> dict[str, dict[str, Any]]:
    """The dynamic traces' properties (built marks, used swaps, highlights), by trace name.

    Parameters
    ----------
    source : DiceSheet or DiceGame
    player : int, optional
        Whose sheet (default: the game's current player).
    highlight : iterable of str
        Structure ids to ring (legal builds).
    """
    sheet, game, p = _split(source, player)
    pal = palette(palette_name)
    built = game.built[p] if game is not None else sheet.start_mask
    used = game.swaps_used[p] if game is not None else 0
    colour = SEAT_COLOURS[p % len(SEAT_COLOURS)]
    rx: list = []
    ry: list = []
    for i, s in enumerate(sheet.structures):
        if s.segment is not None and built >> i & 1:
            (x0, y0), (x1, y1) = s.segment
            rx += [x0, x1, None]
            ry += [y0, y1, None]
    roads = [i for i, s in enumerate(sheet.structures) if s.kind is Kind.ROAD]
    others = [i for i, s in enumerate(sheet.structures) if s.kind in _SYMBOL]
    swap_text, swap_colour = [], []
    for w, spec in enumerate(sheet.swaps):
        name = str(spec.resource) if spec.resource is not None else "any"
        m = sheet.swap_masks[w]
        if used >> w & 1:
            swap_text.append(f"<s>{name}</s> used")
            swap_colour.append("#444444")
        elif built & m == m:
            swap_text.append(f"<b>⇄ {name}</b>")
            swap_colour.append(colour)
        else:
            swap_text.append(f"⇄ {name}")
            swap_colour.append(_INK)
    hl = [h for h in highlight if h in sheet.index]
    return {
        "roads-built": dict(x=rx, y=ry, line=dict(color=colour, width=7)),
        "road-marks": dict(
            marker=dict(color=[colour if built >> i & 1 else _BLANK for i in roads]),
            hovertext=[_hover(sheet, i, bool(built >> i & 1)) for i in roads],
        ),
        "structures": dict(
            marker=dict(color=[colour if built >> i & 1 else _BLANK for i in others]),
            textfont=dict(color=["white" if built >> i & 1 else _INK for i in others]),
            hovertext=[_hover(sheet, i, bool(built >> i & 1)) for i in others],
        ),
        "swaps": dict(text=swap_text, textfont=dict(color=swap_colour)),
        "highlight": dict(
            x=[sheet[h].xy[0] for h in hl],
            y=[sheet[h].xy[1] for h in hl],
            customdata=hl,
            hovertext=[f"build {h} ({sheet[h].kind}, {cost_text(sheet[h].cost)})" for h in hl],
            marker=dict(color=pal["highlight"]),
        ),
    }


def dice_sheet_figure(
    source, player: int | None = None, *, highlight: Iterable[str] = (), palette_name: str = "standard",
    title: str | None = None, height: int = 460,
) -> go.Figure:
    """A plotly figure of a Dice Game sheet, or of one player's marks on it.

    Parameters
    ----------
    source : DiceSheet or DiceGame
    player : int, optional
        Whose sheet to draw (default: the game's current player).
    highlight : iterable of str
        Structure ids to ring, for example the legal builds.
    palette_name : {"standard", "colorblind"}
    title : str, optional
    height : int

    Returns
    -------
    plotly.graph_objects.Figure
        Equal aspect ratio, no axes.  Roads are lines with a mark at their
        middle ("road-marks"), settlements triangles, cities squares, knights
        circles; each mark carries its points (normal) or letter (Plus), so
        nothing relies on colour alone.  Clickable traces carry the structure
        ids in ``customdata``.
    """
    sheet, game, p = _split(source, player)
    pal = palette(palette_name)
    traces: list[dict[str, Any]] = []
    for terrain in Terrain:
        xs: list = []
        ys: list = []
        for h in sheet.hexes:
            if h.terrain is terrain:
                x, y = _hex_outline(*h.xy)
                xs += x + [None]
                ys += y + [None]
        if xs:
            tr = dict(type="scatter", x=xs, y=ys, mode="lines", fill="toself", fillcolor=pal["terrain"][terrain],
                      opacity=0.55, line=dict(color="#8a7a60", width=1), name=f"hex:{terrain}", hoverinfo="skip",
                      showlegend=False)
            pattern = pal["pattern"].get(terrain)
            if pattern:
                tr["fillpattern"] = dict(shape=pattern, fgcolor="rgba(0,0,0,0.25)", size=8)
            traces.append(tr)
    if sheet.hexes:
        traces.append(dict(
            type="scatter", mode="text", name="hex-labels", hoverinfo="skip", showlegend=False,
            x=[h.xy[0] for h in sheet.hexes], y=[h.xy[1] + 0.62 for h in sheet.hexes],
            text=[str(h.terrain) for h in sheet.hexes], textfont=dict(size=10, color="#5b4a33"),
        ))
    rx: list = []
    ry: list = []
    for s in sheet.structures:
        if s.kind is Kind.ROAD:
            (x0, y0), (x1, y1) = s.segment  # type: ignore[misc]
            rx += [x0, x1, None]
            ry += [y0, y1, None]
    traces.append(dict(type="scatter", mode="lines", name="roads", x=rx, y=ry, hoverinfo="skip", showlegend=False,
                       line=dict(color="#b9ab8f", width=5, dash="dot")))
    start = sheet.structures[sheet.start]
    (x0, y0), (x1, y1) = start.segment  # type: ignore[misc]
    traces.append(dict(type="scatter", mode="lines+text", name="start-road", x=[x0, x1], y=[y0, y1],
                       text=["start", ""], textposition="bottom center", hoverinfo="skip", showlegend=False,
                       line=dict(color=_INK, width=7)))
    dyn = dice_sheet_traces(source, player, highlight=highlight, palette_name=palette_name)
    traces.append(dict(type="scatter", mode="lines", name="roads-built", hoverinfo="skip", showlegend=False,
                       **dyn["roads-built"]))
    roads = [s for s in sheet.structures if s.kind is Kind.ROAD]
    traces.append(dict(
        type="scatter", mode="markers+text", name="road-marks", hoverinfo="text", showlegend=False,
        x=[s.xy[0] for s in roads], y=[s.xy[1] for s in roads], customdata=[s.id for s in roads],
        text=[_label(sheet, sheet.index[s.id]) if sheet.variant is Variant.NORMAL else "" for s in roads],
        textfont=dict(size=9, color=_INK), textposition="middle center",
        hovertext=dyn["road-marks"]["hovertext"],
        marker=dict(symbol="diamond", size=15, opacity=1, line=dict(color=_INK, width=1), color=dyn["road-marks"]["marker"]["color"]),
    ))
    others = [i for i, s in enumerate(sheet.structures) if s.kind in _SYMBOL]
    traces.append(dict(
        type="scatter", mode="markers+text", name="structures", hoverinfo="text", showlegend=False,
        x=[sheet.structures[i].xy[0] for i in others], y=[sheet.structures[i].xy[1] for i in others],
        customdata=[sheet.structures[i].id for i in others],
        text=[_label(sheet, i) for i in others], textposition="middle center",
        textfont=dict(size=11, **dyn["structures"]["textfont"]),
        hovertext=dyn["structures"]["hovertext"],
        marker=dict(symbol=[_SYMBOL[sheet.structures[i].kind] for i in others],
                    size=[30 if sheet.structures[i].kind is Kind.CITY else 26 for i in others],
                    line=dict(color=_INK, width=2), opacity=1, color=dyn["structures"]["marker"]["color"]),
    ))
    sx = [_swap_xy(sheet, w) for w in range(len(sheet.swaps))]
    traces.append(dict(type="scatter", mode="text", name="swaps", hoverinfo="skip", showlegend=False,
                       x=[p_[0] for p_ in sx], y=[p_[1] for p_ in sx], text=dyn["swaps"]["text"],
                       textfont=dict(size=10, **{"color": dyn["swaps"]["textfont"]["color"]})))
    traces.append(dict(
        type="scatter", mode="markers", name="highlight", hoverinfo="text", showlegend=False,
        x=dyn["highlight"]["x"], y=dyn["highlight"]["y"], customdata=dyn["highlight"]["customdata"],
        hovertext=dyn["highlight"]["hovertext"],
        marker=dict(symbol="circle-open", size=36, line=dict(width=4), color=dyn["highlight"]["marker"]["color"]),
    ))
    if title is None:
        title = sheet.name if game is None else f"{sheet.name}: seat {p}"
    xs_all = [s.xy[0] for s in sheet.structures] + [h.xy[0] for h in sheet.hexes]
    ys_all = [s.xy[1] for s in sheet.structures] + [h.xy[1] for h in sheet.hexes]
    layout = dict(
        title=dict(text=title, x=0.02, font=dict(size=14)),
        height=height,
        margin=dict(l=8, r=8, t=36, b=8),
        plot_bgcolor=pal["sea"],
        paper_bgcolor="white",
        showlegend=False,
        hovermode="closest",
        clickmode="event",
        dragmode=False,
        xaxis=dict(visible=False, range=[min(xs_all) - 1.1, max(xs_all) + 1.1], fixedrange=True),
        yaxis=dict(visible=False, range=[min(ys_all) - 1.1, max(ys_all) + 1.1], scaleanchor="x", scaleratio=1,
                   fixedrange=True),
    )
    return go.Figure(data=traces, layout=layout)


def sheet_mimebundle(source, include=None, exclude=None) -> dict:
    """A notebook display bundle for a DiceSheet or DiceGame: its sheet figure, plus a text fallback."""
    from .board import figure_bundle

    return figure_bundle(dice_sheet_figure(source), source, include, exclude)

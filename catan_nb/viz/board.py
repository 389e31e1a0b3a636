"""The board figure: a pure function from a board or game to a plotly figure.

Every trace has a stable ``name`` so that a widget can find it and update it in
place (:func:`trace_index`, :func:`dynamic_traces`).  Static traces (hexes,
tokens, harbours) never change during a game; dynamic ones (roads, buildings,
robber, highlights) are recomputed by :func:`dynamic_traces`.

Examples
--------
>>> from catan_nb import Board
>>> fig = board_figure(Board.beginner())
>>> fig.layout.yaxis.scaleanchor
'x'
>>> trace_index(fig, "intersections") >= 0
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from .. import hexgrid
from ..board import Board
from ..constants import Building, Terrain, pips, roll_probability
from .palette import TERRAIN_LABEL, palette
from .plugins import layers_for

__all__ = ["board_figure", "dynamic_traces", "mimebundle", "trace_index", "hex_hover", "node_hover", "DYNAMIC_TRACES",
           "hex_centre", "hex_outline", "path_midpoint", "path_ends", "paths_xy"]

SQRT3 = math.sqrt(3)
#: Names of the traces :func:`dynamic_traces` recomputes, in figure order.
DYNAMIC_TRACES = (
    "road:<seat>",
    "road-fill:<seat>",
    "longest-road",
    "building:<seat>",
    "highlight-paths",
    "highlight-hexes",
    "intersections",
    "highlight-nodes",
    "buildings",
    "robber",
    "hex-labels",
)


def _board_and_game(source) -> tuple[Board, Any]:
    if isinstance(source, Board):
        return source, None
    board = getattr(source, "board", None)
    if isinstance(board, Board):
        return board, source
    raise TypeError(f"board_figure needs a Board or a Game, not {type(source).__name__}")


def hex_outline(board: Board, hex_id: int) -> tuple[list[float], list[float]]:
    """The closed outline of hex ``hex_id`` in figure coordinates: ``(xs, ys)``, the first corner again at the end."""
    corners = hexgrid.hex_corners(board.axial(hex_id))
    pts = [hexgrid.to_plane(corners[c]) for c in hexgrid.CORNER_NAMES]
    pts.append(pts[0])
    return [p[0] for p in pts], [p[1] for p in pts]


def hex_centre(board: Board, hex_id: int) -> tuple[float, float]:
    """The centre of hex ``hex_id`` in figure coordinates (where a layer draws a marker on a hex).

    Examples
    --------
    >>> b = Board.beginner()
    >>> x, y = hex_centre(b, 0)
    >>> all(isinstance(c, float) for c in (x, y))
    True
    """
    return hexgrid.to_plane(hexgrid.hex_centre(board.axial(hex_id)))


def path_ends(board: Board, path: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of path ``path`` in figure coordinates (its intersections' positions)."""
    pos = board.graph.nodes
    a, b = board.path_nodes(path)
    return pos[a]["pos"], pos[b]["pos"]


def path_midpoint(board: Board, path: int) -> tuple[float, float]:
    """The middle of path ``path`` in figure coordinates (where a layer draws a marker on a path).

    Examples
    --------
    >>> b = Board.beginner()
    >>> (x0, y0), (x1, y1) = path_ends(b, 0)
    >>> path_midpoint(b, 0) == ((x0 + x1) / 2, (y0 + y1) / 2)
    True
    """
    (x0, y0), (x1, y1) = path_ends(board, path)
    return (x0 + x1) / 2, (y0 + y1) / 2


def paths_xy(board: Board, paths: Iterable[int]) -> tuple[list, list]:
    """The line segments of ``paths`` as one plotly trace's ``x`` and ``y`` (``None`` between two
    paths): how roads, ships and highlighted paths are drawn."""
    xs: list = []
    ys: list = []
    for e in paths:
        (x0, y0), (x1, y1) = path_ends(board, e)
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return xs, ys


_hex_outline, _hex_centre = hex_outline, hex_centre  # the names the figure's own code uses


def _fmt(x: Fraction | float) -> str:
    return f"{float(x):.3f}"


def hex_hover(board: Board, hex_id: int) -> str:
    """Hover text of a hex: position, terrain, token, pips and probability."""
    t = board.hexes[hex_id]
    lines = [f"<b>hex {t.id}</b> ({t.row},{t.col}) {TERRAIN_LABEL[t.terrain]}"]
    if t.token:
        p = roll_probability(t.token)
        lines.append(f"token {t.token}: {'●' * pips(t.token)} ({pips(t.token)}/36 = {float(p):.3f} per roll)")
        lines.append(f"produces {t.resource}; a settlement here expects {_fmt(p)} cards per roll")
    else:
        lines.append("produces nothing")
    return "<br>".join(lines)


def node_hover(board: Board, node: int, game=None) -> str:
    """Hover text of an intersection: adjacent hexes, pips, expected production, harbour, building."""
    hexes = board.intersection_hexes(node)
    exp = board.expected_production(node)
    total = sum(exp.values(), Fraction(0))
    lines = [f"<b>intersection {node}</b>"]
    for t in hexes:
        tok = f" {t.token} {'●' * t.pips}" if t.token else ""
        lines.append(f"({t.row},{t.col}) {TERRAIN_LABEL[t.terrain]}{tok}")
    lines.append(f"pips: {sum(t.pips for t in hexes)}; expected cards/roll: {_fmt(total)}")
    if exp:
        lines.append(", ".join(f"{r} {_fmt(v)}" for r, v in sorted(exp.items(), key=lambda kv: kv[0].value)))
    h = board.graph.nodes[node]["harbour"]
    if h is not None:
        lines.append(f"harbour {h.label}")
    if game is not None:
        b = game.building_at(node)
        if b is not None:
            owner, kind = b
            lines.append(f"{game.colours[owner]}'s {kind} (seat {owner})")
    return "<br>".join(lines)


def _building_outline(x: float, y: float, city: bool) -> tuple[list[float], list[float]]:
    """A house (settlement) or a house with a tower (city) around an intersection, as a closed polygon."""
    if city:
        w, h, t = 0.24, 0.16, 0.34  # a wide base and a tower with its own roof on the left
        pts = [(x - w, y - h), (x + w, y - h), (x + w, y + 0.02), (x + 0.02, y + 0.02), (x + 0.02, y + h),
               (x - w / 2 + 0.01, y + t), (x - w, y + h), (x - w, y - h)]
    else:
        w, h, r = 0.15, 0.11, 0.27
        pts = [(x - w, y - h), (x + w, y - h), (x + w, y + h * 0.6), (x, y + r), (x - w, y + h * 0.6), (x - w, y - h)]
    return [p[0] for p in pts], [p[1] for p in pts]


def dynamic_traces(
    source,
    *,
    highlight_nodes: Iterable[int] = (),
    highlight_paths: Iterable[int] = (),
    highlight_hexes: Iterable[int] = (),
    heat: Mapping[int, float] | None = None,
    heat_title: str = "value",
    longest_road: int | None = None,
    palette_name: str = "standard",
    legal: list | None = None,
) -> dict[str, dict[str, Any]]:
    """Properties of the dynamic traces for ``source`` (a Board or Game), by trace name.

    A widget applies them to its FigureWidget in one ``batch_update``.  The figure layers of
    the game's rule modules (:mod:`catan_nb.viz.plugins`) add theirs, given ``legal``, the
    legal actions of the seat to act (default: none).
    """
    board, game = _board_and_game(source)
    pal = palette(palette_name)
    g = board.graph
    pos = g.nodes
    out: dict[str, dict[str, Any]] = {}
    # Roads: one polyline (with gaps) per player, drawn twice: a dark outline and the colour.
    if game is not None:
        for p in range(game.n):
            x, y = paths_xy(board, sorted(game.roads[p]))
            out[f"road:{p}"] = dict(x=x, y=y)
            out[f"road-fill:{p}"] = dict(x=x, y=y)
    lr_paths = game.longest_road_path(longest_road) if (game is not None and longest_road is not None) else []
    x, y = paths_xy(board, lr_paths)
    out["longest-road"] = dict(x=x, y=y)
    x, y = paths_xy(board, highlight_paths)
    out["highlight-paths"] = dict(x=x, y=y)
    hx: list = []
    hy: list = []
    for h in highlight_hexes:
        xs, ys = _hex_outline(board, h)
        hx += xs + [None]
        hy += ys + [None]
    out["highlight-hexes"] = dict(x=hx, y=hy)
    n = g.number_of_nodes()
    if heat is not None:
        values = [heat.get(v) for v in range(n)]
        out["intersections"] = dict(
            marker=dict(
                color=[float("nan") if v is None else float(v) for v in values],
                colorscale=pal["heat"],
                showscale=True,
                # A fixed place in a fixed right margin: the board does not move when the
                # metric (and so the width of the tick labels) changes.
                colorbar=dict(title=dict(text=heat_title, side="right"), thickness=14, x=1.0, xanchor="left",
                              xpad=6, len=0.85),
                size=[13 if v is not None else 6 for v in values],
                line=dict(width=1, color="#333"),
            )
        )
    else:
        out["intersections"] = dict(
            marker=dict(color="rgba(255,255,255,0.55)", size=7, showscale=False, line=dict(width=1, color="#555"))
        )
    hn = sorted(set(highlight_nodes))
    out["highlight-nodes"] = dict(x=[pos[v]["pos"][0] for v in hn], y=[pos[v]["pos"][1] for v in hn], customdata=hn)
    bx, by, bcol, btext, bhover = [], [], [], [], []
    shapes: dict[int, tuple[list, list]] = {}
    if game is not None:
        for p in range(game.n):
            shapes[p] = ([], [])
        for v in range(n):
            b = game.building_at(v)
            if b is None:
                continue
            o, kind = b
            x0, y0 = pos[v]["pos"]
            bx.append(x0)
            by.append(y0)
            bcol.append(pal["player"][game.colours[o]])
            btext.append("C" if kind is Building.CITY else "S")
            bhover.append(f"{str(game.colours[o]).title()}'s {kind} (seat {o}) at intersection {v}")
            xs, ys = _building_outline(x0, y0, kind is Building.CITY)
            shapes[o][0].extend(xs + [None])
            shapes[o][1].extend(ys + [None])
        for p, (xs, ys) in shapes.items():
            out[f"building:{p}"] = dict(x=xs, y=ys)
    out["buildings"] = dict(
        x=bx,
        y=by,
        text=btext,
        hovertext=bhover,
        marker=dict(color="rgba(0,0,0,0)", size=[24 if t == "C" else 18 for t in btext]),
    )
    robber = game.robber if game is not None else board.robber_start
    rx, ry = _hex_centre(board, robber)
    out["robber"] = dict(x=[rx - 0.42], y=[ry + 0.05], hovertext=[f"robber on hex {robber}"])
    # Terrain names follow the game's hexes (a hex revealed from the fog shows what it is, SF-3).
    terrains = game.hex_terrain if game is not None else [t.terrain for t in board.hexes]
    out["hex-labels"] = dict(text=[TERRAIN_LABEL.get(terrains[t.id], str(terrains[t.id]))
                                   for t in board.hexes if t.is_land])
    if game is not None:
        live = _live_hovers(game)
        if live is not None:  # a hex revealed from the fog or a token moved: hover says what is there now
            out["intersections"]["hovertext"], out["hexes"] = live[0], {"hovertext": live[1]}
        for layer in layers_for(game):
            out.update(layer.dynamic(game, pal, list(legal or ())))
    return out


def _live_hovers(game) -> tuple[list[str], list[str]] | None:
    """Hover texts of the intersections and the hexes as the game's hexes are now (SF-3 fog revealed,
    SF-16 and CK-PC-4 tokens moved), or None when every hex is as printed."""
    board = game.board
    now = [(game.hex_terrain[h.id], game.hex_token[h.id] or None) for h in board.hexes]
    if all(h.terrain is t and h.token == k for h, (t, k) in zip(board.hexes, now)):
        return None

    def hex_line(h):
        t, k = now[h]
        tile = board.hexes[h]
        return f"({tile.row},{tile.col}) {TERRAIN_LABEL.get(t, str(t))}" + (f" {k} {'●' * pips(k)}" if k else "")

    nodes = []
    for v in range(board.graph.number_of_nodes()):
        hexes = game.topology.node_hexes[v]
        total = sum(float(roll_probability(now[h][1])) for h in hexes if now[h][1] and now[h][0].resource is not None)
        lines = [f"<b>intersection {v}</b>", *(hex_line(h) for h in hexes),
                 f"pips: {sum(pips(now[h][1]) for h in hexes if now[h][1])}; expected cards/roll: {total:.3f}"]
        hb = board.graph.nodes[v]["harbour"]
        if hb is not None:
            lines.append(f"harbour {hb.label}")
        b = game.building_at(v)
        if b is not None:
            lines.append(f"{game.colours[b[0]]}'s {b[1]} (seat {b[0]})")
        nodes.append("<br>".join(lines))
    hexes = []
    for tile in board.hexes:
        t, k = now[tile.id]
        lines = [f"<b>hex {tile.id}</b> {hex_line(tile.id)}"]
        if k and t.resource is not None:
            lines.append(f"produces {t.resource}; a settlement here expects {float(roll_probability(k)):.3f} cards per roll")
        else:
            lines.append("produces nothing")
        hexes.append("<br>".join(lines))
    return nodes, hexes


#: Right margin (px) kept for the colour bar of a heat map: fixed, so the board never shifts.
HEAT_MARGIN = 110


def board_figure(
    source,
    *,
    highlight_nodes: Iterable[int] = (),
    highlight_paths: Iterable[int] = (),
    highlight_hexes: Iterable[int] = (),
    heat: Mapping[int, float] | None = None,
    heat_title: str = "value",
    longest_road: int | None = None,
    palette_name: str = "standard",
    node_ids: bool = False,
    title: str | None = None,
    height: int = 620,
    legal: list | None = None,
) -> go.Figure:
    """A plotly figure of a board or a game position.

    Parameters
    ----------
    source : Board or Game
        What to draw; a game adds its roads, buildings and robber.
    highlight_nodes, highlight_paths, highlight_hexes : iterables of ids
        Intersections, paths or hexes to mark (legal moves, a selection).
    heat : mapping of intersection id to number, optional
        Colours intersections by value, with a colour bar titled ``heat_title``.
    longest_road : int, optional
        A seat whose longest road is drawn highlighted.
    palette_name : {"standard", "colorblind"}
        Colours; the colour-blind palette adds patterns to the hexes.
    node_ids : bool
        Print intersection ids next to the intersections.
    title : str, optional
    height : int
    legal : list of Action, optional
        The legal actions of the seat to act, for the figure layers of the game's rule
        modules (:mod:`catan_nb.viz.plugins`), which draw their own pieces and targets.

    Returns
    -------
    plotly.graph_objects.Figure
        Equal aspect ratio, no axes; every trace named (see :data:`DYNAMIC_TRACES`).
    """
    board, game = _board_and_game(source)
    pal = palette(palette_name)
    g = board.graph
    traces: list[dict[str, Any]] = []
    # --- hexes, one trace per terrain so that the legend names them
    for terrain in Terrain:
        xs: list = []
        ys: list = []
        for t in board.hexes:
            if t.terrain is terrain:
                x, y = _hex_outline(board, t.id)
                xs += x + [None]
                ys += y + [None]
        if not xs:
            continue
        tr = dict(
            type="scatter",
            x=xs,
            y=ys,
            mode="lines",
            fill="toself",
            fillcolor=pal["terrain"][terrain],
            line=dict(color="#5b4a33", width=2),
            name=TERRAIN_LABEL[terrain],
            hoverinfo="skip",
            meta="hex",
        )
        pattern = pal["pattern"].get(terrain)
        if pattern:
            tr["fillpattern"] = dict(shape=pattern, fgcolor="rgba(0,0,0,0.35)", size=8)
        traces.append(tr)
    # --- the rule modules' layers that belong under the pieces (a hex revealed from the fog, SF-3)
    layers = layers_for(game) if game is not None else []
    under = [layer for layer in layers if getattr(layer, "below", False)]
    # (their dynamic properties are computed with the others below and filled in at the end)
    under_at = len(traces)
    # --- tokens and hex labels (also the click target of a hex)
    cx, cy, text, colour, hover, sizes, rims = [], [], [], [], [], [], []
    lx_, ly_, ltext, lcol = [], [], [], []
    for t in board.hexes:
        x, y = _hex_centre(board, t.id)
        cx.append(x)
        cy.append(y)
        hot = t.token in (6, 8)
        if t.token:
            text.append(f"<b>{t.token}</b><br><span style='font-size:9px'>{'•' * t.pips}</span>")
            colour.append(pal["hot_token"] if hot else pal["token"])
        else:
            text.append("")
            colour.append(pal["token"])
        rims.append(pal["hot_token"] if hot else "#5b4a33")
        hover.append(hex_hover(board, t.id))
        sizes.append(32 if t.token else 1)  # a disc that leaves the terrain in view (issue 37)
        if t.is_land:
            lx_.append(x)
            ly_.append(y - 0.58)
            ltext.append(TERRAIN_LABEL.get(t.terrain, str(t.terrain)))
            lcol.append(pal["label_dark"] if t.terrain in pal["dark_terrains"] else pal["label"])
    traces.append(
        dict(
            type="scatter",
            x=cx,
            y=cy,
            mode="markers+text",
            text=text,
            textposition="middle center",
            textfont=dict(color=colour, size=14),
            marker=dict(size=sizes, color=pal["token_disc"], opacity=1,
                        line=dict(color=rims, width=[2.5 if r != "#5b4a33" else 1 for r in rims])),
            hovertext=hover,
            hoverinfo="text",
            name="hexes",
            showlegend=False,
            customdata=[t.id for t in board.hexes],
        )
    )
    hexes_at = len(traces) - 1  # its hover text follows the game's hexes (filled in below)
    # --- the rest of each hex's area as a click target (issue 37): six invisible points half-way from its
    # centre to its corners, so a click anywhere on a hex finds it (a corner's or a side's own point is nearer)
    hit_x: list[float] = []
    hit_y: list[float] = []
    hit_ids: list[int] = []
    for t in board.hexes:
        x, y = _hex_centre(board, t.id)
        ox, oy = _hex_outline(board, t.id)
        for qx, qy in list(zip(ox, oy))[:6]:
            hit_x.append(x + 0.5 * (qx - x))
            hit_y.append(y + 0.5 * (qy - y))
            hit_ids.append(t.id)
    traces.append(dict(type="scatter", x=hit_x, y=hit_y, mode="markers", name="hex-area", showlegend=False,
                       hoverinfo="none", customdata=hit_ids,
                       marker=dict(size=12, color="rgba(0,0,0,0)", line=dict(width=0))))
    traces.append(
        dict(type="scatter", x=lx_, y=ly_, mode="text", textfont=dict(color=lcol, size=10),
             hoverinfo="skip", name="hex-labels", showlegend=False,
             text=ltext if game is None else [TERRAIN_LABEL.get(game.hex_terrain[t.id], str(game.hex_terrain[t.id]))
                                              for t in board.hexes if t.is_land])
    )
    # --- harbours: a marker off the coast and dotted links to their two intersections
    hx_, hy_, htext, lx, ly = [], [], [], [], []
    for h in board.harbours:
        a, b = board.path_nodes(h.path)
        (x0, y0), (x1, y1) = g.nodes[a]["pos"], g.nodes[b]["pos"]
        (hid,) = set(g.nodes[a]["hexes"]) & set(g.nodes[b]["hexes"])
        hcx, hcy = _hex_centre(board, hid)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = mx - hcx, my - hcy
        norm = math.hypot(dx, dy) or 1
        px, py = mx + 0.55 * dx / norm, my + 0.55 * dy / norm
        hx_.append(px)
        hy_.append(py)
        htext.append("3:1" if h.resource is None else f"2:1<br>{h.resource}")
        lx += [x0, px, x1, None]
        ly += [y0, py, y1, None]
    traces.append(
        dict(type="scatter", x=lx, y=ly, mode="lines", line=dict(color="#7a5c3a", width=2, dash="dot"),
             hoverinfo="skip", name="harbour-links", showlegend=False)
    )
    traces.append(
        dict(
            type="scatter",
            x=hx_,
            y=hy_,
            mode="markers+text",
            text=htext,
            textfont=dict(size=9),
            marker=dict(size=30, color="#fffaf0", line=dict(color="#7a5c3a", width=1.5), symbol="circle"),
            hovertext=[f"harbour {h.label} on path {h.path}" for h in board.harbours],
            hoverinfo="text",
            name="harbours",
            showlegend=False,
        )
    )
    # --- paths: clickable midpoints
    mx, my, mtext = [], [], []
    for e in range(g.number_of_edges()):
        a, b = board.path_nodes(e)
        (x0, y0), (x1, y1) = g.nodes[a]["pos"], g.nodes[b]["pos"]
        mx.append((x0 + x1) / 2)
        my.append((y0 + y1) / 2)
        mtext.append(f"path {e}: intersections {a}-{b}")
    traces.append(
        dict(type="scatter", x=mx, y=my, mode="markers", marker=dict(size=9, color="rgba(0,0,0,0)"),
             hovertext=mtext, hoverinfo="text", name="paths", showlegend=False, customdata=list(range(len(mx))))
    )
    # --- dynamic traces (values filled below)
    dyn = dynamic_traces(
        source,
        highlight_nodes=highlight_nodes,
        highlight_paths=highlight_paths,
        highlight_hexes=highlight_hexes,
        heat=heat,
        heat_title=heat_title,
        longest_road=longest_road,
        palette_name=palette_name,
        legal=legal,
    )
    # The Longest Road glows *under* the roads, so every road keeps its owner's colour.
    traces.append(dict(type="scatter", mode="lines", line=dict(color=pal["longest"], width=20), opacity=0.75,
                       hoverinfo="skip", name="longest-road", showlegend=False, **dyn["longest-road"]))
    if game is not None:
        for p in range(game.n):
            traces.append(dict(type="scatter", mode="lines", name=f"road:{p}", showlegend=False, hoverinfo="skip",
                               line=dict(color="#111", width=9), **dyn[f"road:{p}"]))
            traces.append(dict(type="scatter", mode="lines", name=f"road-fill:{p}", showlegend=False,
                               hoverinfo="skip", line=dict(color=pal["player"][game.colours[p]], width=6),
                               **dyn[f"road-fill:{p}"]))
    traces.append(dict(type="scatter", mode="lines", line=dict(color=pal["highlight"], width=9), opacity=0.55,
                       hoverinfo="skip", name="highlight-paths", showlegend=False, **dyn["highlight-paths"]))
    traces.append(dict(type="scatter", mode="lines", line=dict(color=pal["highlight"], width=5),
                       hoverinfo="skip", name="highlight-hexes", showlegend=False, **dyn["highlight-hexes"]))
    nodes = list(range(g.number_of_nodes()))
    traces.append(
        dict(
            type="scatter",
            x=[g.nodes[v]["pos"][0] for v in nodes],
            y=[g.nodes[v]["pos"][1] for v in nodes],
            mode="markers+text" if node_ids else "markers",
            text=[str(v) for v in nodes] if node_ids else None,
            textposition="top right",
            textfont=dict(size=8),
            hovertext=[node_hover(board, v, game) for v in nodes],
            hoverinfo="text",
            name="intersections",
            showlegend=False,
            customdata=nodes,
        ) | dyn["intersections"]
    )
    traces[hexes_at].update(dyn.get("hexes", {}))
    traces.append(dict(type="scatter", mode="markers", name="highlight-nodes", showlegend=False, hoverinfo="skip",
                       marker=dict(size=17, color="rgba(0,0,0,0)", line=dict(color=pal["highlight"], width=3)),
                       **dyn["highlight-nodes"]))
    if game is not None:
        for p in range(game.n):
            traces.append(dict(type="scatter", mode="lines", name=f"building:{p}", showlegend=False, hoverinfo="skip",
                               fill="toself", fillcolor=pal["player"][game.colours[p]],
                               line=dict(color="#111", width=1.8), **dyn[f"building:{p}"]))
    traces.append(dict(type="scatter", mode="markers+text", name="buildings", showlegend=False, hoverinfo="text",
                       textfont=dict(size=9, color="#000"), **{k: v for k, v in dyn["buildings"].items() if k != "marker"},
                       marker=dict(line=dict(width=0), **dyn["buildings"]["marker"])))
    # --- the rule modules' layers: their pieces and targets, drawn by the module that adds them
    for layer in layers:
        made = [{"showlegend": False, **tr, **dyn.get(tr["name"], {})} for tr in layer.traces(game, pal)]
        if layer in under:
            traces[under_at:under_at] = made
            under_at += len(made)
        else:
            traces.extend(made)
    traces.append(dict(type="scatter", mode="markers+text", name="robber", showlegend=False, hoverinfo="text",
                       text=["R"], textfont=dict(color="white", size=11),
                       marker=dict(size=22, color="#222", symbol="pentagon"), **dyn["robber"]))
    # --- player legend entries (colour and name), so colours are explained
    if game is not None:
        for p, c in enumerate(game.colours):
            traces.append(dict(type="scatter", x=[None], y=[None], mode="markers", name=f"{str(c).title()} (seat {p})",
                               marker=dict(size=12, color=pal["player"][c], line=dict(color="#111", width=1))))
    xs_all = [v["pos"][0] for _, v in g.nodes(data=True)]
    ys_all = [v["pos"][1] for _, v in g.nodes(data=True)]
    # Room around the island: a little, and enough for the harbour markers off its coast (a map framed by
    # sea has them inside the frame, so its hexes get the figure's whole width; issue 37).
    beyond = max((max(min(xs_all) - x, x - max(xs_all), min(ys_all) - y, y - max(ys_all)) for x, y in zip(hx_, hy_)),
                 default=-1.0)
    pad = max(0.35, beyond + 0.5)
    layout = dict(
        title=dict(text=title) if title else None,
        height=height,
        margin=dict(l=10, r=HEAT_MARGIN if heat is not None else 10, t=40 if title else 10, b=40,
                    autoexpand=heat is None),
        plot_bgcolor=pal["sea"],
        paper_bgcolor="white",
        # constrain="domain": the island keeps its ranges and the plot area shrinks to fit, so a
        # figure resized in the browser (autosize) always shows the whole island as large as it fits.
        xaxis=dict(visible=False, range=[min(xs_all) - pad, max(xs_all) + pad], fixedrange=True, constrain="domain"),
        yaxis=dict(visible=False, range=[min(ys_all) - pad, max(ys_all) + pad], scaleanchor="x", scaleratio=1,
                   fixedrange=True, constrain="domain"),
        # traceorder "normal" always: plotly.js would switch to "grouped" (one tall column) as soon as a
        # visible trace had a legend group, and squeeze the board (issue 25 item 3).
        legend=dict(orientation="h", x=0.5, xanchor="center", y=0, yanchor="top", bgcolor="rgba(255,255,255,0.85)",
                    font=dict(size=10), traceorder="normal"),
        hovermode="closest",
        dragmode=False,
        clickmode="event",
    )
    return go.Figure(data=traces, layout=layout)


def figure_bundle(fig, source, include=None, exclude=None) -> dict:
    """A notebook display bundle of ``fig`` (plotly's own, else its mimetype) with ``repr(source)`` as text."""
    import plotly.io as pio

    bundle = fig._repr_mimebundle_(include, exclude) or pio.renderers["plotly_mimetype"].to_mimebundle(fig.to_dict())
    bundle["text/plain"] = repr(source)
    return bundle


def mimebundle(source, include=None, exclude=None) -> dict:
    """A notebook display bundle for a Board or Game: its board figure, plus a text fallback."""
    return figure_bundle(board_figure(source), source, include, exclude)


def trace_index(fig, name: str) -> int:
    """Index of the trace called ``name`` in ``fig.data`` (-1 if absent)."""
    for i, t in enumerate(fig.data):
        if t.name == name:
            return i
    return -1

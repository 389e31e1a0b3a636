"""Printable pages for a first lesson without screens: the board, a worksheet and the teacher's sheet.

Students predict, roll real dice, tally the totals and mark two settlements on the paper board; lesson 9
then checks their tallies and their choice.  The pages are drawn for a black-and-white printer (issue 39):
light hexes told apart by a pattern and their name, numbers in circles of at least 10 pt, nothing darker
than the text.  The students' worksheet asks for a prediction before anything else and holds no count of
the 36 outcomes: those are on the teacher's sheet, for after the rolling.

:func:`printable_board`, :func:`tally_worksheet` and :func:`teacher_sheet` are ordinary plotly figures sized
to the paper; :func:`write_printables` writes them as PDF and PNG files with kaleido, the ``[image]`` extra
(``pip install "catan-nb[image]"``; it drives a Chromium: Debian's ``/usr/bin/chromium`` will do).  Ready-made PDFs for A4 and Letter ship in ``notebooks/printables/``
(``docs/tools/make_printables.py`` writes them), so a class needs neither.

Examples
--------
>>> from catan_nb import Board
>>> fig = printable_board(Board.beginner(), paper="Letter")
>>> (fig.layout.width, fig.layout.height) == paper_size("Letter")
True
>>> paper_size("A4")
(794, 1123)
>>> min(PRINT_TEXT_PX.values()) * PT_PER_PX >= 10    # every text on the pages: at least 10 pt
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

import plotly.graph_objects as go

from ..analysis.probability import Hits, dice_sum_distribution
from ..board import Board
from ..constants import Terrain, pips
from .board import hex_centre, hex_outline
from .palette import TERRAIN_LABEL

__all__ = ["PAPERS", "PRINT_FILL", "PRINT_PATTERN", "PRINT_TEXT_PX", "PT_PER_PX", "TEXT_COLOUR", "paper_size",
           "printable_board", "tally_worksheet", "teacher_sheet", "write_printables", "PAGES"]

#: Paper sizes in millimetres (portrait): ISO A4 and US Letter.
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
#: The pages :func:`write_printables` writes, by file name.
PAGES = ("board", "worksheet", "teacher_sheet")

_PX_PER_MM = 96 / 25.4  # CSS pixels, which the PDF export maps to 1/96 inch
#: Points per CSS pixel in the PDF (72 points and 96 pixels to the inch).
PT_PER_PX = 72 / 96
#: The text: black, and every fill on the pages is far lighter (a black-and-white printer keeps it legible).
TEXT_COLOUR = "#000000"
#: Light fills, one per terrain: each is told apart in grey by its pattern (:data:`PRINT_PATTERN`) and name.
PRINT_FILL = {
    Terrain.FOREST: "#e2efe0",
    Terrain.HILLS: "#f5e1d6",
    Terrain.PASTURE: "#eef6e0",
    Terrain.FIELDS: "#fbf2d2",
    Terrain.MOUNTAINS: "#e6e8ec",
    Terrain.DESERT: "#ffffff",
    Terrain.GOLD: "#fbefc8",
    Terrain.FOG: "#eeeeee",
    Terrain.SEA: "#ffffff",
}
#: Fill patterns (plotly's shapes), a different one per producing terrain; the desert stays blank.
PRINT_PATTERN = {
    Terrain.FOREST: "|",
    Terrain.HILLS: "+",
    Terrain.PASTURE: ".",
    Terrain.FIELDS: "-",
    Terrain.MOUNTAINS: "x",
    Terrain.GOLD: "/",
    Terrain.FOG: "\\",
}
_PATTERN_INK = "#b3b3b3"
#: The 6 and the 8, red on the tokens: a dark red, which a black-and-white printer makes dark grey.
RED_NUMBER = "#a00000"  # light grey lines: the pattern shows without hiding the numbers
#: Text sizes on the pages, in CSS pixels (times :data:`PT_PER_PX` for points).
PRINT_TEXT_PX = {"intersection": 14, "token": 22, "token dots": 14, "terrain": 14, "harbour": 14, "body": 15,
                 "table": 16, "title": 22}


def paper_size(paper: str) -> tuple[int, int]:
    """Width and height of a portrait page in CSS pixels (1/96 inch), the unit of the PDF export."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    w, h = PAPERS[paper]
    return round(w * _PX_PER_MM), round(h * _PX_PER_MM)


def _page(paper: str, title: str) -> go.Figure:
    width, height = paper_size(paper)
    fig = go.Figure()
    fig.update_layout(width=width, height=height, paper_bgcolor="white", plot_bgcolor="white", showlegend=False,
                      font=dict(color=TEXT_COLOUR, family="Arial, Helvetica, sans-serif"),
                      title=dict(text=title, font=dict(size=PRINT_TEXT_PX["title"], color=TEXT_COLOUR), x=0.5,
                                 y=1 - 24 / height, yanchor="top"))
    return fig


# ---------------------------------------------------------------- the board
def printable_board(board: Board, *, paper: str = "A4", title: str | None = None) -> go.Figure:
    """The board on one page, every intersection numbered, for marking settlements with a pencil.

    Hexes are light and carry a pattern and the name of their terrain; the number tokens carry their dots
    (pips), as on the printed tokens, so students can add up what an intersection collects without a screen.
    Each intersection's number sits in its own white circle (10.5 pt), which harbour lines never cross;
    the desert has no token and no mark.  The island fills the page's width.
    """
    width, height = paper_size(paper)
    top, bottom, side = 64, 110, 10
    g = board.graph
    fig = _page(paper, title or f"{board.name}: mark your two settlements")
    # harbour labels off the coast, then the axis ranges: the island and the labels, as large as the page allows
    harbours = []
    for h in board.harbours:
        a, b = board.path_nodes(h.path)
        (x0, y0), (x1, y1) = g.nodes[a]["pos"], g.nodes[b]["pos"]
        (hid,) = set(g.nodes[a]["hexes"]) & set(g.nodes[b]["hexes"])
        cx, cy = hex_centre(board, hid)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        norm = math.hypot(mx - cx, my - cy) or 1
        px, py = mx + 0.8 * (mx - cx) / norm, my + 0.8 * (my - cy) / norm
        harbours.append((h, (x0, y0), (x1, y1), (px, py)))
    xs = [p[0] for _, p in g.nodes(data="pos")] + [h[3][0] for h in harbours]
    ys = [p[1] for _, p in g.nodes(data="pos")] + [h[3][1] for h in harbours]
    pad = 0.5
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    scale = min((width - 2 * side) / (x1 - x0), (height - top - bottom) / (y1 - y0))  # px per board unit
    extra_x = ((width - 2 * side) / scale - (x1 - x0)) / 2
    extra_y = (height - top - bottom) / scale - (y1 - y0)
    above = max(0.0, (extra_y - 100 / scale) / 2)  # the island and the instructions under it, centred on the page
    fig.update_layout(
        margin=dict(l=side, r=side, t=top, b=bottom),
        xaxis=dict(visible=False, range=[x0 - extra_x, x1 + extra_x], fixedrange=True),
        yaxis=dict(visible=False, range=[y0 - extra_y + above, y1 + above], fixedrange=True, scaleanchor="x",
                   scaleratio=1),
    )
    # hexes: one trace per terrain, a light fill and a pattern
    for terrain in Terrain:
        hx, hy = [], []
        for t in board.hexes:
            if t.terrain is terrain and t.is_land:
                x, y = hex_outline(board, t.id)
                hx += x + [None]
                hy += y + [None]
        if not hx:
            continue
        trace = dict(x=hx, y=hy, mode="lines", fill="toself", fillcolor=PRINT_FILL.get(terrain, "#ffffff"),
                     line=dict(color=TEXT_COLOUR, width=1.5), hoverinfo="skip", name=TERRAIN_LABEL[terrain])
        if PRINT_PATTERN.get(terrain):
            trace["fillpattern"] = dict(shape=PRINT_PATTERN[terrain], fgcolor=_PATTERN_INK, bgcolor=PRINT_FILL[terrain],
                                        size=10, solidity=0.15)
        fig.add_scatter(**trace)
    # harbour lines (under everything round), then the terrain names, tokens, harbour labels and intersections
    lx, ly = [], []
    for _, a, b, (px, py) in harbours:
        lx += [a[0], px, b[0], None]
        ly += [a[1], py, b[1], None]
    fig.add_scatter(x=lx, y=ly, mode="lines", line=dict(color=TEXT_COLOUR, width=1.2, dash="dot"), hoverinfo="skip",
                    name="harbour lines")
    land = [t for t in board.hexes if t.is_land]
    fig.add_scatter(x=[hex_centre(board, t.id)[0] for t in land], y=[hex_centre(board, t.id)[1] - 0.62 for t in land],
                    mode="text", text=[TERRAIN_LABEL.get(t.terrain, str(t.terrain)) for t in land],
                    textfont=dict(size=PRINT_TEXT_PX["terrain"], color=TEXT_COLOUR), hoverinfo="skip", name="terrain")
    tokens = [t for t in board.hexes if t.token]
    disc = 0.78 * scale  # a token's diameter in px: about half a hex
    fig.add_scatter(
        x=[hex_centre(board, t.id)[0] for t in tokens], y=[hex_centre(board, t.id)[1] + 0.06 for t in tokens],
        mode="markers+text", marker=dict(size=disc, color="white", line=dict(color=TEXT_COLOUR, width=1.5)),
        text=[f"<b>{t.token}</b><br><span style='font-size:{PRINT_TEXT_PX['token dots']}px'>{'●' * pips(t.token)}</span>"
              for t in tokens],
        # 6 and 8 in dark red, as on the tokens: dark grey in black and white
        textfont_color=[RED_NUMBER if t.token in (6, 8) else TEXT_COLOUR for t in tokens],
        textfont=dict(size=PRINT_TEXT_PX["token"]), textposition="middle center", hoverinfo="skip", name="tokens")
    for h, _, _, (px, py) in harbours:  # a white box sized to its text, over the end of its two lines
        fig.add_annotation(x=px, y=py, text="3:1" if h.resource is None else f"2:1<br>{h.resource}", showarrow=False,
                           bgcolor="white", bordercolor=TEXT_COLOUR, borderwidth=1.2, borderpad=3,
                           font=dict(size=PRINT_TEXT_PX["harbour"], color=TEXT_COLOUR))
    nodes = sorted(g.nodes)
    fig.add_scatter(
        x=[g.nodes[v]["pos"][0] for v in nodes], y=[g.nodes[v]["pos"][1] for v in nodes], mode="markers+text",
        marker=dict(size=PRINT_TEXT_PX["intersection"] * 1.9, color="white", line=dict(color=TEXT_COLOUR, width=1)),
        text=[str(v) for v in nodes], textposition="middle center",
        textfont=dict(size=PRINT_TEXT_PX["intersection"], color=TEXT_COLOUR), hoverinfo="skip", name="intersections")
    fig.add_annotation(
        text=("Write your initials beside two intersections (the numbers in circles) that are <b>not</b> next to each "
              "other.<br>Beside each, add up the dots of the numbers it touches.<br><br>"
              "Names: ______________________________   Our intersections: ______ and ______"),
        xref="x", yref="y", x=(x0 + x1) / 2, y=y0, yshift=-10, yanchor="top", showarrow=False, align="center",
        font=dict(size=PRINT_TEXT_PX["body"], color=TEXT_COLOUR))
    return fig


# ---------------------------------------------------------------- the students' worksheet
def _box(fig: go.Figure, y_top: float, y_bottom: float, heading: str, lines: list[str], height: int) -> None:
    """A framed box across the page (paper coordinates, 0 at the bottom) with a heading and lines of text."""
    fig.add_shape(type="rect", xref="paper", yref="paper", x0=0, x1=1, y0=y_bottom, y1=y_top,
                  line=dict(color=TEXT_COLOUR, width=1.2), fillcolor="white", layer="below")
    text = f"<b>{heading}</b><br>" + "<br>".join(lines)
    fig.add_annotation(text=text, xref="paper", yref="paper", x=0.015, y=y_top - 8 / height, xanchor="left",
                       yanchor="top", showarrow=False, align="left", font=dict(size=PRINT_TEXT_PX["body"], color=TEXT_COLOUR))


def tally_worksheet(*, paper: str = "A4", rolls: int = 36) -> go.Figure:
    """The students' worksheet for ``rolls`` rolls of two dice, in the order they work.

    A prediction box first (before any roll); a tally table with one row per total (tally marks, the pair's
    count, the class's total); what the tallies show; and room to add up the dots of the two settlements
    marked on the board.  It gives no count of the 36 outcomes: the class discovers which totals are common,
    and the teacher's sheet (:func:`teacher_sheet`) brings the counts afterwards.
    """
    if isinstance(rolls, bool) or not isinstance(rolls, int) or rolls < 1:
        raise ValueError(f"rolls must be a whole number of rolls, 1 or more, not {rolls!r}")
    width, height = paper_size(paper)
    top, bottom, side = 60, 30, 40
    fig = _page(paper, f"Two dice, {rolls} rolls: which total comes up most?")
    fig.update_layout(margin=dict(l=side, r=side, t=top, b=bottom))
    inner = height - top - bottom
    blank = "_" * 10

    def at(px_from_top: float) -> float:  # paper y of a point px below the top of the plot area
        return 1 - px_from_top / inner

    _box(fig, at(0), at(128), "1 · Before rolling, predict", [
        "Names: ____________________________________________",
        f"Which total will come up most often? {blank}   Which least often? {blank}",
        f"Why do you think so? {'_' * 52}",
        f"In {rolls} rolls, how many 7s do you expect? {blank}   How many 12s? {blank}",
    ], inner)
    table_top, head_h = 140, 30
    row_h = min(48, (inner - 140 - head_h - 16 - 12 - 128 - 12 - 150 - 8) // 11)  # what the page leaves for tallies
    table_h = head_h + 11 * row_h + 12  # plotly draws a table a little taller than its rows
    fig.add_trace(go.Table(
        domain=dict(x=[0, 1], y=[at(table_top + table_h), at(table_top)]),
        columnwidth=[60, 330, 90, 110],
        header=dict(values=["<b>total</b>", "<b>tally: one mark per roll</b>", "<b>our count</b>", "<b>class total</b>"],
                    height=head_h, font=dict(size=PRINT_TEXT_PX["table"], color=TEXT_COLOUR), fill_color="white",
                    line=dict(color=TEXT_COLOUR, width=1.2), align="center"),
        cells=dict(values=[list(range(2, 13)), [""] * 11, [""] * 11, [""] * 11], height=row_h,
                   font=dict(size=PRINT_TEXT_PX["table"] + 2, color=TEXT_COLOUR), fill_color="white",
                   line=dict(color=TEXT_COLOUR, width=1), align="center"),
    ))
    after = table_top + table_h + 4
    _box(fig, at(after), at(after + 128), "2 · After rolling", [
        f"Our counts add up to {blank} (should be {rolls}).   The class rolled {blank} times in all.",
        f"Which totals came up most in our tally? {'_' * 14}   In the class total? {'_' * 14}",
        f"Was the prediction right? {'_' * 56}",
        f"Is a total that did not come up at all impossible? {'_' * 34}",
    ], inner)
    spots = after + 140
    _box(fig, at(spots), at(min(spots + 150, inner)), "3 · Our two settlements (from the board)", [
        "Intersection ______ : dots ____ + ____ + ____ = ______",
        "Intersection ______ : dots ____ + ____ + ____ = ______",
        f"Together: ______ dots, about that many cards in 36 rolls.   With our {rolls} rolls: ______ cards",
        "Which intersection would collect more? Why? _________________________________",
    ], inner)
    return fig


# ---------------------------------------------------------------- the teacher's sheet
def teacher_sheet(*, paper: str = "A4", rolls: int = 36) -> go.Figure:
    """For the teacher, after the rolling: the 36 outcomes of two dice, and each total's ways and expected count.

    A 6 x 6 grid of the totals (first die down, second across), then per total its ways out of 36, its dots
    on a number token, and the count fair dice give on average in ``rolls`` rolls (``ways × rolls / 36``), with
    a column left blank for the class's number of rolls.
    """
    if isinstance(rolls, bool) or not isinstance(rolls, int) or rolls < 1:
        raise ValueError(f"rolls must be a whole number of rolls, 1 or more, not {rolls!r}")
    width, height = paper_size(paper)
    top, bottom, side = 60, 30, 40
    fig = _page(paper, "For the teacher: the 36 outcomes of two dice")
    fig.update_layout(margin=dict(l=side, r=side, t=top, b=bottom))
    inner = height - top - bottom

    def at(px_from_top: float) -> float:
        return 1 - px_from_top / inner

    grid_top = 26
    grid_h = 30 + 6 * 34 + 12
    fig.add_annotation(text="first die (down) + second die (across)", xref="paper", yref="paper", x=0.5,
                       y=at(grid_top - 4), yanchor="bottom", showarrow=False,
                       font=dict(size=PRINT_TEXT_PX["body"], color=TEXT_COLOUR))
    fig.add_trace(go.Table(
        domain=dict(x=[0.15, 0.85], y=[at(grid_top + grid_h), at(grid_top)]),
        header=dict(values=["<b>+</b>"] + [f"<b>{b}</b>" for b in range(1, 7)], height=30,
                    font=dict(size=PRINT_TEXT_PX["table"], color=TEXT_COLOUR), fill_color="white",
                    line=dict(color=TEXT_COLOUR, width=1.2), align="center"),
        cells=dict(values=[[f"<b>{a}</b>" for a in range(1, 7)]] + [[a + b for a in range(1, 7)] for b in range(1, 7)],
                   height=34, font=dict(size=PRINT_TEXT_PX["table"], color=TEXT_COLOUR), fill_color="white",
                   line=dict(color=TEXT_COLOUR, width=1), align="center"),
    ))
    dist = dice_sum_distribution()
    ways = [int(dist[t] * 36) for t in dist]
    expected = [dist[t] * rolls for t in dist]
    table_top = grid_top + grid_h + 20
    table_h = 44 + 11 * 34 + 12
    fig.add_trace(go.Table(
        domain=dict(x=[0, 1], y=[at(table_top + table_h), at(table_top)]),
        columnwidth=[60, 90, 110, 130, 150],
        header=dict(values=["<b>total</b>", "<b>ways out of 36</b>", "<b>dots on its token</b>",
                            f"<b>expected in {rolls} rolls</b>", "<b>expected in the class's ___ rolls</b>"],
                    height=44, font=dict(size=PRINT_TEXT_PX["table"] - 1, color=TEXT_COLOUR), fill_color="white",
                    line=dict(color=TEXT_COLOUR, width=1.2), align="center"),
        cells=dict(values=[list(dist), ways, ["no token (robber)" if t == 7 else "●" * pips(t) for t in dist],
                           [f"{float(e):g}" if e.denominator == 1 else f"{float(e):.2f}" for e in expected], [""] * 11],
                   height=34, font=dict(size=PRINT_TEXT_PX["table"], color=TEXT_COLOUR), fill_color="white",
                   line=dict(color=TEXT_COLOUR, width=1), align="center"),
    ))
    notes = table_top + table_h + 4
    most = max(dist, key=dist.get)
    rare = [t for t in dist if dist[t] == min(dist.values())]
    exactly = Hits(most, rolls=rolls, exactly=round(dist[most] * rolls)).exact() if dist[most] * rolls % 1 == 0 else None
    none = Hits(rare[-1], rolls=rolls, at_most=0).exact()
    _box(fig, at(notes), at(min(notes + 150, inner)), "Talking points", [
        f"Count the grid: each total comes up as often as it appears in it: {most} in {int(dist[most] * 36)} squares, "
        f"{' and '.join(map(str, rare))} in one each.",
        "Expected in n rolls = ways × n / 36: an average over many classes, not a promise for one pair.",
        (f"Exactly {dist[most] * rolls} rolls of {most} in {rolls} happens with probability {float(exactly):.3f} only; "
         if exactly is not None else "")
        + f"no {rare[-1]} at all in {rolls} rolls, {float(none):.3f}.",
        "The dots on a number token are its ways out of 36: an intersection's dots are its cards per 36 rolls.",
    ], inner)
    return fig


def write_printables(
    folder: str | Path,
    board: Board | None = None,
    *,
    papers: Iterable[str] = ("A4", "Letter"),
    formats: Iterable[str] = ("pdf", "png"),
    rolls: int = 36,
) -> list[Path]:
    """Write the board, the worksheet and the teacher's sheet for every paper size and format; the paths written.

    Files are named ``board_A4.pdf``, ``worksheet_Letter.png``, ``teacher_sheet_A4.pdf``, ... .  Needs kaleido
    (``pip install "catan-nb[image]"``) and a Chromium (kaleido finds ``/usr/bin/chromium``;
    ``plotly_get_chrome`` downloads one).  PNG files are rendered at twice the page's pixel size, for print.
    The PDFs of the beginner board ship ready in ``notebooks/printables/``.

    Raises
    ------
    MissingImageExtra
        kaleido is not installed: the message names the ``[image]`` extra and how to install it.
    """
    import plotly.io as pio  # kaleido is needed only here

    from .image import require_image_extra

    require_image_extra("writing the printable pages")

    board = board if board is not None else Board.beginner()
    folder = Path(folder)
    formats = list(formats)
    bad = [f for f in formats if f not in ("pdf", "png")]
    if bad:
        raise ValueError(f"formats are 'pdf' and 'png', not {bad[0]!r}")
    figs, paths, sizes, scales = [], [], [], []
    for paper in papers:
        pages = {"board": printable_board(board, paper=paper), "worksheet": tally_worksheet(paper=paper, rolls=rolls),
                 "teacher_sheet": teacher_sheet(paper=paper, rolls=rolls)}
        for name in PAGES:
            for fmt in formats:
                figs.append(pages[name])
                paths.append(folder / f"{name}_{paper}.{fmt}")
                sizes.append(paper_size(paper))
                scales.append(2 if fmt == "png" else 1)
    folder.mkdir(parents=True, exist_ok=True)
    pio.write_images(figs, paths, width=[w for w, _ in sizes], height=[h for _, h in sizes], scale=scales)  # one browser
    return paths

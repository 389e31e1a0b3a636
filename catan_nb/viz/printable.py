"""Printable pages for a first lesson without screens: the board and a tally worksheet, at A4 and Letter.

Students roll real dice, tally the totals on the worksheet and mark two settlements on the paper board;
then lesson 9 checks their tallies and their choice.  :func:`printable_board` and
:func:`tally_worksheet` are ordinary plotly figures sized to the paper; :func:`write_printables` writes
them as PDF and PNG files with kaleido, the ``[image]`` extra (``pip install "catan-nb[image]"``; it drives a
Chromium: Debian's ``/usr/bin/chromium`` will do).

Examples
--------
>>> from catan_nb import Board
>>> fig = printable_board(Board.beginner(), paper="Letter")
>>> (fig.layout.width, fig.layout.height) == paper_size("Letter")
True
>>> paper_size("A4")
(794, 1123)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import plotly.graph_objects as go

from ..analysis.probability import dice_sum_distribution
from ..board import Board
from ..constants import pips
from .board import board_figure

__all__ = ["PAPERS", "paper_size", "printable_board", "tally_worksheet", "write_printables"]

#: Paper sizes in millimetres (portrait): ISO A4 and US Letter.
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}

_PX_PER_MM = 96 / 25.4  # CSS pixels, which the PDF export maps to 1/96 inch


def paper_size(paper: str) -> tuple[int, int]:
    """Width and height of a portrait page in CSS pixels (1/96 inch), the unit of the PDF export."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    w, h = PAPERS[paper]
    return round(w * _PX_PER_MM), round(h * _PX_PER_MM)


def printable_board(board: Board, *, paper: str = "A4", title: str | None = None) -> go.Figure:
    """The board on one page, every intersection numbered, for marking settlements with a pencil.

    The number tokens carry their pips (dots), as on the printed tokens, so students can add up what an
    intersection collects without a screen.
    """
    width, height = paper_size(paper)
    fig = board_figure(board, node_ids=True, title=title or f"{board.name}: mark your two settlements", height=height)
    fig.update_layout(
        width=width,
        height=height,
        margin=dict(l=30, r=30, t=80, b=150),
        paper_bgcolor="white",
        plot_bgcolor="white",  # no sea: it saves ink
        showlegend=False,
    )
    fig.add_annotation(
        text=("Write your initials on two intersections (the small numbers), not next to each other.<br>"
              "Under each, add up the dots of the numbers it touches: that many cards in 36 rolls, on average."),
        xref="paper", yref="paper", x=0.5, y=-0.08, showarrow=False, align="center", font=dict(size=13),
    )
    return fig


def tally_worksheet(*, paper: str = "A4", rolls: int = 36) -> go.Figure:
    """A tally sheet for ``rolls`` rolls of two dice: one row per total, with its ways out of 36.

    Columns: the total, its dots (ways out of 36), room for tally marks, the count, and the count
    fair dice give on average in ``rolls`` rolls — left blank for students to fill in, or to check.
    """
    width, height = paper_size(paper)
    dist = dice_sum_distribution()
    totals = list(dist)
    dots = ["●" * pips(t) if t != 7 else "●" * 6 for t in totals]
    ways = [int(dist[t] * 36) for t in totals]
    table = go.Table(
        columnwidth=[40, 70, 260, 60, 110],
        header=dict(values=["<b>total</b>", "<b>ways /36</b>", "<b>tally</b>", "<b>count</b>",
                            f"<b>expected in {rolls}</b>"],
                    height=34, font=dict(size=15), fill_color="#eeeeee", align="center"),
        cells=dict(values=[totals, [f"{d} {w}" for d, w in zip(dots, ways)], [""] * 11, [""] * 11, [""] * 11],
                   height=56, font=dict(size=16), align=["center", "left", "left", "center", "center"]),
    )
    fig = go.Figure(table)
    fig.update_layout(
        width=width,
        height=height,
        margin=dict(l=40, r=40, t=120, b=200),
        paper_bgcolor="white",
        title=dict(text=f"Roll two dice {rolls} times and tally each total", font=dict(size=22), x=0.5),
    )
    fig.add_annotation(
        text=("Names: ______________________________<br><br>"
              "1. Before rolling: which total will come up most often? How many 12s do you expect?<br>"
              f"2. Fill in the last column: ways × {rolls} / 36.<br>"
              "3. Which totals came up more often than expected? Is that proof the dice are unfair?"),
        xref="paper", yref="paper", x=0.0, y=-0.02, yanchor="top", showarrow=False, align="left", font=dict(size=14),
    )
    return fig


def write_printables(
    folder: str | Path,
    board: Board | None = None,
    *,
    papers: Iterable[str] = ("A4", "Letter"),
    formats: Iterable[str] = ("pdf", "png"),
    rolls: int = 36,
) -> list[Path]:
    """Write the board and the worksheet for every paper size and format; the paths written.

    Files are named ``board_A4.pdf``, ``worksheet_Letter.png``, ... .  Needs kaleido, the ``[image]``
    extra (``pip install "catan-nb[image]"``), and a Chromium (kaleido finds ``/usr/bin/chromium``;
    ``plotly_get_chrome`` downloads one).  PNG files are rendered at twice the page's pixel size, for print.

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
        pages = (("board", printable_board(board, paper=paper)), ("worksheet", tally_worksheet(paper=paper, rolls=rolls)))
        for name, fig in pages:
            for fmt in formats:
                figs.append(fig)
                paths.append(folder / f"{name}_{paper}.{fmt}")
                sizes.append(paper_size(paper))
                scales.append(2 if fmt == "png" else 1)
    folder.mkdir(parents=True, exist_ok=True)
    pio.write_images(figs, paths, width=[w for w, _ in sizes], height=[h for _, h in sizes], scale=scales)  # one browser
    return paths

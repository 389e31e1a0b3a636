"""Charts and small HTML tables for the explorers: pure functions of data, no widgets.

The dice lab draws one figure with two panels (:func:`dice_lab_figure`): the
share of each two-dice total beside its exact probability, and the running
mean of the totals beside the expected mean with a band of two standard
errors.  :func:`dice_lab_traces` recomputes the changing traces by name, so a
widget can update its ``FigureWidget`` in place (as :func:`dynamic_traces`
does for the board).  The HTML helpers render analysis results
(:class:`~catan_nb.analysis.placement.PlacementScore`,
:class:`~catan_nb.analysis.placement.OpeningPair`,
:class:`~catan_nb.analysis.probability.ChiSquareResult`) as tables.

Examples
--------
>>> import numpy as np
>>> fig = dice_lab_figure(np.array([7, 7, 6, 8, 2]))
>>> [t.name for t in fig.data] == list(DICE_LAB_TRACES)
True
>>> dice_lab_traces(np.array([7, 7, 6, 8, 2]))["rolled"]["y"][5]   # two 7s out of 5 rolls
0.4
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..analysis.probability import dice_sum_distribution

__all__ = [
    "DICE_LAB_TRACES",
    "dice_lab_figure",
    "dice_lab_traces",
    "running_mean_points",
    "chi_square_html",
    "score_breakdown_html",
    "openings_table_html",
]

#: Names of the traces of :func:`dice_lab_figure`, in figure order.
DICE_LAB_TRACES = ("rolled", "exact", "band low", "expected ± 2 s.e.", "expected mean", "running mean")

_TOTALS = tuple(range(2, 13))
_PARTS = ("production", "diversity", "scarcity", "harbour", "numbers")


def _parts_of(row: Any) -> dict[str, float]:
    """A score's parts (``row.parts``, or the five classic parts of an older row)."""
    parts = getattr(row, "parts", None)
    return dict(parts) if parts is not None else {p: getattr(row, p) for p in _PARTS}


def _moments(exact: Mapping[int, Fraction]) -> tuple[float, float]:
    mean = sum((t * p for t, p in exact.items()), Fraction(0))
    var = sum(((t - mean) ** 2 * p for t, p in exact.items()), Fraction(0))
    return float(mean), math.sqrt(float(var))


def running_mean_points(totals: Sequence[int] | np.ndarray, max_points: int = 400) -> tuple[list[int], list[float]]:
    """The running mean after ``k`` rolls, at up to ``max_points`` values of ``k`` spaced evenly on a log scale.

    Parameters
    ----------
    totals : sequence of int
        Dice totals in the order rolled.
    max_points : int
        Every ``k`` is kept while there are at most this many rolls.

    Returns
    -------
    (list of int, list of float)
        ``k`` (1-based number of rolls, increasing, always ending at the last roll) and the mean of the
        first ``k`` totals.

    Examples
    --------
    >>> running_mean_points([2, 4, 6])
    ([1, 2, 3], [2.0, 3.0, 4.0])
    >>> k, m = running_mean_points(list(range(1, 1001)), max_points=10)
    >>> k[0], k[-1], len(k) <= 10
    (1, 1000, True)
    """
    x = np.asarray(totals, dtype=np.int64)
    n = int(x.size)
    if n == 0:
        return [], []
    if n <= max_points:
        ks = np.arange(1, n + 1)
    else:
        ks = np.unique(np.round(np.geomspace(1, n, max_points)).astype(np.int64))
    csum = np.cumsum(x)
    means = csum[ks - 1] / ks
    return ks.tolist(), means.tolist()


def dice_lab_traces(
    totals: Sequence[int] | np.ndarray, *, exact: Mapping[int, Fraction] | None = None, max_points: int = 400
) -> dict[str, dict[str, Any]]:
    """Properties of the dice lab's changing traces for the rolls so far, by trace name.

    Parameters
    ----------
    totals : sequence of int
        Two-dice totals (2..12) in the order rolled.
    exact : mapping of int to Fraction, optional
        The distribution the rolls are compared with (default: two fair dice).
    max_points : int
        Points of the running-mean curve (see :func:`running_mean_points`).

    Returns
    -------
    dict
        ``"rolled"`` (share of each total; the counts in ``customdata``), ``"band low"`` and
        ``"expected ± 2 s.e."`` (the expected mean -+ two standard errors, ``2 sigma / sqrt(k)``),
        ``"expected mean"`` and ``"running mean"``.
    """
    exact = dict(exact or dice_sum_distribution())
    x = np.asarray(totals, dtype=np.int64)
    n = int(x.size)
    counts = np.bincount(x, minlength=13)[2:13] if n else np.zeros(11, dtype=np.int64)
    share = (counts / n).tolist() if n else [0.0] * 11
    hover = []
    for t, c, s in zip(_TOTALS, counts.tolist(), share):
        p = exact.get(t, Fraction(0))
        hover.append(
            f"total {t}: {c} of {n} rolls ({s:.3f})<br>exact {p} = {float(p):.3f}; expected {float(p) * n:.1f} rolls"
        )
    mean, sigma = _moments(exact)
    ks, means = running_mean_points(x, max_points)
    half = [2 * sigma / math.sqrt(k) for k in ks]
    return {
        "rolled": dict(x=list(_TOTALS), y=share, hovertext=hover, customdata=counts.tolist()),
        "band low": dict(x=ks, y=[mean - h for h in half]),
        "expected ± 2 s.e.": dict(x=ks, y=[mean + h for h in half]),
        "expected mean": dict(x=[ks[0], ks[-1]] if ks else [], y=[mean, mean] if ks else []),
        "running mean": dict(x=ks, y=means),
    }


def dice_lab_figure(
    totals: Sequence[int] | np.ndarray = (),
    *,
    exact: Mapping[int, Fraction] | None = None,
    height: int = 380,
    max_points: int = 400,
) -> go.Figure:
    """The dice lab figure: the histogram of totals against the exact curve, and the running mean.

    Parameters
    ----------
    totals : sequence of int
        Two-dice totals rolled so far (may be empty).
    exact : mapping of int to Fraction, optional
        Default: two fair dice (:func:`~catan_nb.analysis.probability.dice_sum_distribution`).
    height : int
    max_points : int

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels in one figure (one ``FigureWidget`` per page behaves best in Voila); traces named as in
        :data:`DICE_LAB_TRACES`.

    Examples
    --------
    >>> fig = dice_lab_figure()
    >>> fig.data[1].name, len(fig.data[1].y)
    ('exact', 11)
    >>> fig.layout.xaxis2.type
    'log'
    """
    exact = dict(exact or dice_sum_distribution())
    dyn = dice_lab_traces(totals, exact=exact, max_points=max_points)
    mean, _ = _moments(exact)
    fig = make_subplots(
        rows=1, cols=2, column_widths=[0.5, 0.5], horizontal_spacing=0.1,
        subplot_titles=("share of each total vs. the exact probability", "running mean of the totals"),
    )
    fig.add_trace(go.Bar(name="rolled", marker=dict(color="#4c78a8"), hoverinfo="text", **dyn["rolled"]), row=1, col=1)
    fig.add_trace(
        go.Scatter(
            name="exact", x=list(exact), y=[float(p) for p in exact.values()], mode="lines+markers",
            line=dict(color="#e45756", width=3), marker=dict(size=8),
            hovertext=[f"total {t}: exact {p} = {float(p):.3f}" for t, p in exact.items()], hoverinfo="text",
        ),
        row=1, col=1,
    )
    band = dict(mode="lines", line=dict(width=0, color="rgba(228,87,86,0.2)"), hoverinfo="skip")
    fig.add_trace(go.Scatter(name="band low", showlegend=False, **band, **dyn["band low"]), row=1, col=2)
    fig.add_trace(
        go.Scatter(name="expected ± 2 s.e.", fill="tonexty", fillcolor="rgba(228,87,86,0.18)", **band,
                   **dyn["expected ± 2 s.e."]),
        row=1, col=2,
    )
    fig.add_trace(
        go.Scatter(name="expected mean", mode="lines", line=dict(color="#e45756", dash="dash", width=2),
                   hovertext=f"expected mean {mean:g}", hoverinfo="text", **dyn["expected mean"]),
        row=1, col=2,
    )
    fig.add_trace(
        go.Scatter(name="running mean", mode="lines", line=dict(color="#4c78a8", width=2),
                   hovertemplate="after %{x} rolls: mean %{y:.3f}<extra></extra>", **dyn["running mean"]),
        row=1, col=2,
    )
    fig.update_xaxes(title_text="total of two dice", tickmode="array", tickvals=list(_TOTALS), row=1, col=1)
    fig.update_yaxes(title_text="share of rolls", rangemode="tozero", row=1, col=1)
    fig.update_xaxes(title_text="rolls (log scale)", type="log", row=1, col=2)
    fig.update_yaxes(title_text="mean total", row=1, col=2)
    fig.update_layout(
        height=height, margin=dict(l=50, r=20, t=50, b=40), bargap=0.15, hovermode="closest",
        legend=dict(orientation="h", y=-0.22, x=0), paper_bgcolor="white", plot_bgcolor="#f7f7f7",
    )
    return fig


# ============================================================================ HTML tables


def _f(x: float, digits: int = 3) -> str:
    return f"{x:.{digits}f}"


def chi_square_html(result: Any, *, alpha: float = 0.05) -> str:
    """A chi-square result as a sentence and a small table of bins.

    Parameters
    ----------
    result : ChiSquareResult or None
        From :func:`~catan_nb.analysis.probability.chi_square_test`; ``None`` when there are too few rolls.
    alpha : float
        Significance level named in the sentence.

    Examples
    --------
    >>> from catan_nb.analysis import chi_square_test
    >>> "p =" in chi_square_html(chi_square_test([7, 6, 8, 5, 9, 7, 4, 10, 7, 3] * 10))
    True
    >>> chi_square_html(None)
    '<i>chi-square test: roll more dice first (it needs about 5 expected rolls in every bin)</i>'
    """
    if result is None:
        return "<i>chi-square test: roll more dice first (it needs about 5 expected rolls in every bin)</i>"
    verdict = (
        f"<b style='color:#a33'>p &lt; {alpha}</b>: unusual for fair dice (fair dice do this {alpha:.0%} of the time)"
        if result.p_value < alpha
        else f"p ≥ {alpha}: consistent with fair dice"
    )
    pooled = " (rare totals pooled so every bin expects at least 5)" if result.pooled else ""
    rows = "".join(
        f"<tr><td>{html.escape(b.label)}</td><td>{b.observed}</td><td>{_f(b.expected, 1)}</td>"
        f"<td>{_f(b.contribution, 2)}</td></tr>"
        for b in result.bins
    )
    return (
        f"<b>chi-square test</b> of {result.n} rolls: χ² = {_f(result.statistic, 2)}, "
        f"{result.dof} degrees of freedom{pooled}, p = {_f(result.p_value, 3)} → {verdict}."
        "<details><summary>bins</summary><table style='font-size:12px'>"
        "<tr><th>total</th><th>observed</th><th>expected</th><th>(O−E)²/E</th></tr>"
        f"{rows}</table></details>"
    )


def score_breakdown_html(row: Any, *, rank: int | None = None, of: int | None = None, production: Any = None) -> str:
    """One intersection's placement score as a table of its parts (they sum to the score).

    Parameters
    ----------
    row : PlacementScore
        From :func:`~catan_nb.analysis.placement.score_intersections`.
    rank, of : int, optional
        Its place among the scored intersections.
    production : Production, optional
        From :func:`~catan_nb.analysis.production.node_production`: adds the risk lines
        (standard deviation, chance of any card per roll).

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.analysis import score_intersections
    >>> text = score_breakdown_html(score_intersections(Board.beginner())[0], rank=1, of=54)
    >>> "production" in text and "rank 1 of 54" in text
    True
    """
    where = f" — rank {rank} of {of}" if rank is not None and of is not None else ""
    res = ", ".join(str(r) for r in row.resources) or "nothing"
    toks = ", ".join(str(t) for t in row.tokens) or "none"
    shown = {p: x for p, x in _parts_of(row).items() if x or p == "production"}
    parts = "".join(
        f"<tr><td>{p}</td><td style='text-align:right'>{_f(x)}</td></tr>" for p, x in shown.items()
    )
    goods = getattr(row, "goods", None) or {}
    kind = getattr(row, "kind", "settlement")
    lines = [
        f"<b>intersection {int(row.node)}</b>{where}",
        f"resources: {html.escape(res)}; numbers: {toks}; pips: {row.pips}"
        + (f"; harbour {html.escape(row.harbour_label)}" if row.harbour_label else ""),
    ]
    if goods:
        lines.append(f"a {html.escape(kind)} collects per roll: " + html.escape(
            ", ".join(f"{g} {x:.3f}" if g != "choice" else f"{x:.3f} of one's choice" for g, x in goods.items())))
    lines.append(
        "<table style='font-size:12px'><tr><th>part</th><th>value</th></tr>"
        f"{parts}<tr style='border-top:1px solid #888'><td><b>score</b></td>"
        f"<td style='text-align:right'><b>{_f(row.score)}</b></td></tr></table>")
    city = getattr(row, "city_score", None)
    if city is not None:
        lines.append(f"as the founding city (CK-SETUP-1): score {_f(city)}")
    if production is not None:
        lines.append(
            f"cards per roll: mean {float(production.total):.3f}, standard deviation {production.std:.3f}; "
            f"P(any card on a roll) = {production.p_any} = {float(production.p_any):.3f}"
        )
    return "<br>".join(lines)


def _place(board: Any, node: Any) -> str:
    """An intersection as a table cell: by its hexes when the board is known, its number on hover."""
    n = int(node)
    if board is None:
        return str(n)
    from .text import place_of_node

    return f"<span title='intersection {n}'>{html.escape(place_of_node(board, n))}</span>"


def openings_table_html(pairs: Sequence[Any], *, selected: int | None = None, title: str = "", board: Any = None) -> str:
    """Opening pairs (best first) as a table: rank, the two intersections, score and its parts.

    Parameters
    ----------
    pairs : sequence of OpeningPair
        From :func:`~catan_nb.analysis.placement.rank_openings`.
    selected : int, optional
        Index of a row to show in bold.
    title : str
    board : Board, optional
        Describe each intersection by its hexes, as players see the board
        (``"forest 3 · mountains 8 · pasture 5"``), the intersection number on hover;
        without it, the intersection numbers.

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.analysis import rank_openings
    >>> text = openings_table_html(rank_openings(Board.beginner(), 0, top=3))
    >>> text.count("<tr>")   # a header and three rows
    4
    >>> "mountains" in openings_table_html(rank_openings(Board.beginner(), 0, top=3), board=Board.beginner())
    True
    """
    shown = [k for k in (_parts_of(pairs[0]) if pairs else {p: 0 for p in _PARTS})
             if k == "production" or any(_parts_of(p)[k] for p in pairs)]
    head = "".join(f"<th>{h}</th>" for h in ("#", "first", "second", "score", *shown, "pips", "resources", "others take"))
    rows = []
    for i, p in enumerate(pairs):
        style = " style='font-weight:bold;background:#fde'" if i == selected else ""
        cells = [str(i + 1), _place(board, p.first), _place(board, p.second), _f(p.score)]
        parts = _parts_of(p)
        cells += [_f(parts[k]) for k in shown]
        others = ("; ".join(_place(board, v) for v in p.opponent_picks) if p.opponent_picks
                  else "<i>no one: the seat places twice in a row</i>")
        cells += [str(p.pips), html.escape(", ".join(str(r) for r in p.resources)), others]
        rows.append(f"<tr{style}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    cap = f"<b>{html.escape(title)}</b>" if title else ""
    return f"{cap}<table style='font-size:12px'><tr>{head}</tr>" + "".join(rows) + "</table>"

"""Explorers for the lessons: the dice lab, placement values and longest roads, one widget each.

Each explorer is one ipywidgets box around ONE ``FigureWidget``, built from a
complete figure and then updated in place in ``batch_update`` (see
``shared/JUPYTER.md``).  They hold no rules and no statistics of their own:

* :class:`DiceLab` rolls seeded dice and asks
  :func:`~catan_nb.analysis.probability.dice_sum_distribution` and
  :func:`~catan_nb.analysis.probability.chi_square_test`;
* :class:`PlacementExplorer` draws
  :func:`~catan_nb.analysis.placement.placement_heat`, explains one intersection with
  :func:`~catan_nb.analysis.placement.score_intersections` and lists
  :func:`~catan_nb.analysis.placement.rank_openings`;
* :class:`LongestRoadExplorer` builds through :meth:`Game.play` (the engine
  decides what is legal) and explains with
  :func:`~catan_nb.analysis.longest_road.longest_road` and
  :func:`~catan_nb.analysis.longest_road.explain_longest_road`.

Every control has a stable CSS class for browser tests (``dicelab-roll``,
``placement-metric``, ``lr-undo``...), and every click has a method
(``roll``, ``click_node``, ``click_path``, ``press``) for tests and scripts.

Examples
--------
>>> lab = DiceLab(seed=1)
>>> lab.roll(100)
>>> len(lab.totals), lab.counts[7] > 0
(100, True)
>>> lab.press("reset"); len(lab.totals)
0
"""

from __future__ import annotations

import copy
import dataclasses
import html
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from ..analysis.bots import WeightedBot
from ..analysis.expansion_odds import (
    event_counts,
    event_die_distribution,
    event_face_name,
    progress_draws_observed,
    progress_odds,
)
from ..analysis.longest_road import cut_lengths, explain_longest_road, longest_road, path_kinds, route_title
from ..analysis.placement import PLACEMENT_METRICS as _PLACEMENT_METRICS
from ..analysis.placement import (
    PlacementWeights,
    study_game,
    placement_heat,
    rank_openings,
    score_intersections,
)
from ..analysis.probability import (
    ChiSquareResult,
    chi_square_test,
    dice_sum_distribution,
)
from ..analysis.production import node_production, player_production
from ..board import Board
from ..constants import LONGEST_ROAD_MIN
from ..errors import CatanError
from ..rules import (
    EndTurn,
    Game,
    Phase,
    RollDice,
    Rules,
)
from ..rules.game_pieces import path_ground
from ..rules.modules.cities_knights import EVENT_FACES, MAX_LEVEL, TRACK_COLOUR, TRACKS, progress_numbers
from ..viz import board_figure, dynamic_traces
from ..viz.charts import (
    chi_square_html,
    dice_lab_figure,
    dice_lab_traces,
    openings_table_html,
    score_breakdown_html,
)
from ..viz.palette import palette
from ..viz.text import place_of_node
from ._figure import FigureWidget
from ._common import figure_beside, refit

__all__ = ["DiceLab", "PlacementExplorer", "LongestRoadExplorer", "PLACEMENT_METRICS"]

#: Heat-map metrics of :class:`PlacementExplorer` (names :func:`placement_heat` accepts) and their labels;
#: a game's explorer lists those its rule modules give values (commodities and the founding city in
#: Cities & Knights, points for settling on Seafarers maps...).
PLACEMENT_METRICS: Mapping[str, str] = _PLACEMENT_METRICS


def _button(label: str, css: str, style: str = "", tooltip: str = "") -> W.Button:
    b = W.Button(description=label, tooltip=tooltip or label, button_style=style, layout=W.Layout(width="auto"))
    b.add_class(css)
    return b


class _FigureHost:
    """One FigureWidget made from a complete figure, updated in place by trace name."""

    figure: go.FigureWidget
    widget: W.Box
    buttons: dict[str, W.Button]

    def _host(self, fig: go.Figure) -> None:
        # Build the complete figure first, then wrap it: a view that connects late (Voila)
        # renders the widget's initial data.
        fig.update_layout(autosize=True, width=None)  # as wide as its box (see figure_beside)
        self.figure = FigureWidget(fig)
        self._view_alive = False
        self.figure.observe(
            self._on_view_message, names=["_js2py_layoutDelta", "_js2py_traceDeltas", "_js2py_relayout", "_js2py_restyle"]
        )
        self._idx = {t.name: i for i, t in enumerate(self.figure.data)}

    def _on_view_message(self, change) -> None:
        if change["new"] is not None and not self._view_alive:
            self._view_alive = True
            # The first view draws before the notebook has laid its box out: size it to its box again.
            refit(self.figure)

    def _apply(self, props: Mapping[str, Mapping[str, Any]]) -> None:
        with self.figure.batch_update():
            for name, p in props.items():
                i = self._idx.get(name)
                if i is not None:
                    self.figure.data[i].update(p, overwrite=False)
        if not self._view_alive:
            # In-place updates travel as transient messages; until a browser view has reported in,
            # keep the synced initial data current too, so a late view (Voila) draws the latest state.
            self.figure._widget_data = copy.deepcopy(self.figure._data)

    def trace(self, name: str):
        """The figure's trace called ``name``."""
        return self.figure.data[self._idx[name]]

    def press(self, name: str) -> None:
        """Press a button by its key, as a click would."""
        self.buttons[name].click()

    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)


# ============================================================================ dice lab

_FAIR_CDF = np.arange(1, 7) / 6
#: The dice sets of :class:`DiceLab`: how many dice each rolls (the number dice first).
DICE_LAB_SETS: Mapping[str, int] = {"two": 2, "cities_knights": 3}


def _share(count: int, n: int) -> str:
    return f"{count / n:.3f} ({count:,})" if n else "–"


def _exact(p) -> str:
    return f"{p} ≈ {float(p):.3f}"


def _event_table_html(rows: Sequence[Mapping[str, Any]], n: int) -> str:
    """The event die's faces: exact chance beside the observed share (CK-COMP-1)."""
    body = "".join(f"<tr><td>{html.escape(r['face'])}</td><td>{_exact(r['exact'])}</td><td>{_share(r['observed'], n)}</td></tr>"
                   for r in rows)
    return ("<b>event die</b> (CK-COMP-1)<table style='font-size:12px'>"
            "<tr><th>face</th><th>exact</th><th>rolled</th></tr>" f"{body}</table>")


def _progress_table_html(rows: Sequence[Mapping[str, Any]], n: int) -> str:
    """Progress-card odds per improvement level: exact per roll beside the share of these rolls that drew."""
    head = "".join(f"<th>{TRACK_COLOUR[t]}</th>" for t in TRACKS)
    body = "".join(
        f"<tr><td>{r['level']}</td><td>{r['red']}</td><td>{_exact(r['exact'][TRACKS[0]])}</td>"
        + "".join(f"<td>{_share(r['observed'][t], n)}</td>" for t in TRACKS) + "</tr>"
        for r in rows
    )
    return ("<b>progress cards per roll</b> (CK-PROG-1, CK-IMP-2): a track at level <i>n</i> draws a card of its "
            "colour when the event die shows its gate and the red die 1 to <i>n</i>+1"
            "<table style='font-size:12px'><tr><th>level</th><th>red die</th><th>exact, each colour</th>"
            f"{head}</tr>{body}</table>")


class DiceLab(_FigureHost):
    """Roll two dice, a few or many at a time, and watch the law of large numbers.

    One figure shows the share of each total beside its exact probability and
    the running mean beside the expected mean (7) with a band of two standard
    errors; below it, the chi-square test of the rolls against fair dice.

    With ``dice="cities_knights"`` the lab rolls the three dice of Cities & Knights together: the red
    and the yellow number dice (their sum makes the histogram) and the event die.  Beside the figure,
    two small tables put the exact odds of
    :func:`~catan_nb.analysis.expansion_odds.event_die_distribution` and
    :func:`~catan_nb.analysis.expansion_odds.progress_odds` (a progress card per roll at each
    improvement level) next to what the rolls so far gave.

    Parameters
    ----------
    seed : int
        Seed of the dice (a numpy ``Generator``); reset starts again from the seed in the seed box.
    dice : {"two", "cities_knights"}
        Two number dice, or the red, yellow and event dice of Cities & Knights.
    n : int
        Rolls per press of "Roll n" (editable in the widget).
    many : int
        Rolls per press of the "many" button.
    loaded : sequence of 6 floats, optional
        Relative weights of the first die's faces 1..6 when the "loaded" box is ticked
        (default: a 6 twice as likely as each other face).  The exact curve and the test
        still describe fair dice: the lab shows how many rolls it takes to notice.
    max_rolls : int
        Rolls kept at most (memory stays small).
    height : int

    Attributes
    ----------
    totals : numpy.ndarray
        Every total rolled, in order.
    chi_square : ChiSquareResult or None
        The test of :attr:`totals` (``None`` while there are too few rolls).

    Examples
    --------
    >>> lab = DiceLab(seed=3, n=50)
    >>> lab.press("roll"); lab.press("roll")
    >>> len(lab.totals), round(sum(lab.trace("rolled").y), 6)
    (100, 1.0)
    >>> again = DiceLab(seed=3); again.roll(100)
    >>> bool((again.totals == lab.totals).all())       # same seed, same rolls
    True
    >>> ck = DiceLab(seed=3, dice="cities_knights"); ck.roll(600)
    >>> ck.dice.shape, ck.event_table[0]["face"], ck.event_table[0]["observed"] > 250   # about half are ships
    ((600, 3), 'ship', True)
    >>> row = ck.progress_table[1]                    # a track at level 2: the gate and a red 1, 2 or 3
    >>> row["red"], str(row["exact"][TRACKS[0]])
    ('1–3', '1/12')
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        dice: str = "two",
        n: int = 10,
        many: int = 1000,
        loaded: Sequence[float] | None = None,
        max_rolls: int = 2_000_000,
        height: int = 380,
    ):
        if dice not in DICE_LAB_SETS:
            raise ValueError(f"dice is one of {', '.join(map(repr, DICE_LAB_SETS))}, not {dice!r}")
        self.dice_set = dice
        self._n_dice = DICE_LAB_SETS[dice]
        self.seed = int(seed)
        self.max_rolls = int(max_rolls)
        self.many = int(many)
        weights = np.asarray(loaded if loaded is not None else (1, 1, 1, 1, 1, 2), dtype=float)
        if weights.shape != (6,) or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError(f"loaded needs six non-negative face weights, not {loaded!r}")
        self.loaded_weights = weights / weights.sum()
        self.exact = dice_sum_distribution()
        self.message = ""
        self._rng = np.random.default_rng(self.seed)
        self._dice = np.zeros((0, self._n_dice), dtype=np.int8)
        self.chi_square: ChiSquareResult | None = None
        self._host(dice_lab_figure(exact=self.exact, height=height))
        self.event_table: list[dict[str, Any]] = []
        self.progress_table: list[dict[str, Any]] = []

        self.n_box = W.BoundedIntText(value=int(n), min=1, max=self.max_rolls, description="n",
                                      layout=W.Layout(width="150px")).add_class("dicelab-n")
        self.seed_box = W.IntText(value=self.seed, description="seed", layout=W.Layout(width="150px")).add_class("dicelab-seed")
        self.loaded_box = W.Checkbox(value=False, description="load the first die", indent=False,
                                     layout=W.Layout(width="auto")).add_class("dicelab-loaded")
        b = {
            "roll_one": _button("Roll once", "dicelab-roll-one"),
            "roll": _button("Roll n", "dicelab-roll", style="primary"),
            "roll_many": _button(f"Roll {self.many:,}", "dicelab-roll-many"),
            "reset": _button("Reset", "dicelab-reset", style="warning"),
        }
        self.buttons = b
        b["roll_one"].on_click(lambda _: self._safely(self.roll, 1))
        b["roll"].on_click(lambda _: self._safely(self.roll))
        b["roll_many"].on_click(lambda _: self._safely(self.roll, self.many))
        b["reset"].on_click(lambda _: self._safely(self.reset))
        self.status = W.HTML().add_class("dicelab-status")
        self.chi_box = W.HTML().add_class("dicelab-chi")
        controls = W.HBox([b["roll_one"], self.n_box, b["roll"], b["roll_many"], b["reset"], self.seed_box, self.loaded_box])
        if self._n_dice == 3:
            self.ck_box = W.HTML().add_class("dicelab-ck")
            self.ck_box.add_class("catan-scroll")
            middle = figure_beside(self.figure, self.ck_box)
        else:
            self.ck_box = None
            middle = self.figure
        self.widget = W.VBox([controls, self.status, middle, self.chi_box]).add_class("dicelab")
        self.refresh()

    def _safely(self, action: Callable, *args) -> None:
        """Run a button's action; no exception escapes a widget callback: it becomes the status message."""
        try:
            action(*args)
        except Exception as exc:  # noqa: BLE001 - a callback must not raise
            self.message = f"⚠ {type(exc).__name__}: {exc}"
            try:
                self.refresh()
            except Exception:  # pragma: no cover - the refresh itself failed: leave the message
                pass

    # ------------------------------------------------------------------ state
    @property
    def dice(self) -> np.ndarray:
        """Every roll so far as an ``(n, 2)`` array of die faces; ``(n, 3)`` with the Cities & Knights dice
        (red, yellow, event)."""
        return self._dice.copy()

    @property
    def totals(self) -> np.ndarray:
        """The number dice's sum of every roll (the event die aside)."""
        return self._dice[:, :2].sum(axis=1, dtype=np.int64)

    @property
    def counts(self) -> dict[int, int]:
        """Rolls of each total 2..12."""
        c = np.bincount(self.totals, minlength=13)
        return {t: int(c[t]) for t in range(2, 13)}

    @property
    def mean(self) -> float | None:
        return float(self.totals.mean()) if len(self._dice) else None

    # ------------------------------------------------------------------ actions
    def roll(self, k: int | None = None) -> None:
        """Roll the two dice ``k`` times (default: the number in the ``n`` box)."""
        k = int(self.n_box.value if k is None else k)
        if k < 1:
            raise ValueError(f"roll at least once, not {k}")
        room = self.max_rolls - len(self._dice)
        if room <= 0:
            self.message = f"⚠ the lab keeps at most {self.max_rolls:,} rolls: press Reset"
            self.refresh()
            return
        k = min(k, room)
        # One uniform number per die, turned into a face by the inverse CDF: the same seed gives the
        # same rolls however they are batched (10 x 10 or 100 at once), loaded or not.
        u = self._rng.random((k, self._n_dice))
        first_cdf = np.cumsum(self.loaded_weights) if self.loaded_box.value else _FAIR_CDF
        faces = np.stack([np.searchsorted(first_cdf if i == 0 else _FAIR_CDF, u[:, i], side="right")
                          for i in range(self._n_dice)], axis=1)
        faces = (np.minimum(faces, 5) + 1).astype(np.int8)
        self._dice = np.concatenate([self._dice, faces])
        self.message = ""
        self.refresh()

    def reset(self) -> None:
        """Forget every roll and start again from the seed in the seed box."""
        seed = int(self.seed_box.value)
        if seed < 0:
            raise ValueError(f"the seed is a whole number 0 or more, not {seed}")
        self.seed = seed
        self._rng = np.random.default_rng(self.seed)
        self._dice = np.zeros((0, self._n_dice), dtype=np.int8)
        self.message = ""
        self.refresh()

    def refresh(self) -> None:
        """Redraw the figure and the texts from the rolls."""
        totals = self.totals
        try:
            self.chi_square = chi_square_test(totals.tolist())
        except ValueError:
            self.chi_square = None
        self._apply(dice_lab_traces(totals, exact=self.exact))
        n = len(totals)
        if n:
            if self._n_dice == 3:
                last = " (red+yellow event): " + ", ".join(f"{a}+{b} {event_face_name(EVENT_FACES[e]).split(' (')[0]}"
                                                           for a, b, e in self._dice[-5:].tolist())
            else:
                last = ": " + ", ".join(f"{a}+{b}" for a, b in self._dice[-5:].tolist())
            text = (f"<b>{n:,} rolls</b> · mean {self.mean:.3f} (expected 7) · "
                    f"7s: {self.counts[7]:,} ({self.counts[7] / n:.3f}; exact 1/6 = 0.167) · last{last}")
        else:
            text = "<b>no rolls yet</b> — press a roll button"
        if self._n_dice == 3:
            self._refresh_cities_knights()
        if self.loaded_box.value:
            text += " · <i>first die loaded</i>"
        if self.message:
            text += f"<br><span style='color:#a33'>{html.escape(self.message)}</span>"
        self.status.value = text
        self.chi_box.value = chi_square_html(self.chi_square)

    def _refresh_cities_knights(self) -> None:
        """The event die's and the progress cards' tables: exact odds beside the rolls so far."""
        dice, n = self._dice, len(self._dice)
        seen = event_counts(dice)
        self.event_table = [{"face": event_face_name(k), "exact": p, "observed": seen[k]}
                            for k, p in event_die_distribution().items()]
        self.progress_table = []
        for level in range(1, MAX_LEVEL + 1):
            at = (level,) * len(TRACKS)
            reds = progress_numbers(level)
            self.progress_table.append({
                "level": level, "red": f"{reds[0]}–{reds[-1]}",
                "exact": progress_odds(at).by_track, "observed": progress_draws_observed(dice, at)})
        self.ck_box.value = _event_table_html(self.event_table, n) + "<br>" + _progress_table_html(self.progress_table, n)

    def __repr__(self) -> str:
        extra = ", Cities & Knights dice" if self._n_dice == 3 else ""
        return f"<DiceLab seed={self.seed}{extra}: {len(self._dice)} rolls>"


# ============================================================================ placement explorer


def _source_game(source: Board | Game) -> Game | None:
    return source if isinstance(source, Game) else None


class PlacementExplorer(_FigureHost):
    """Where to build: a heat map of placement values, the parts of one intersection's score, the best openings.

    Click an intersection to see its score broken into its parts
    (:func:`score_intersections`) and its risk (:func:`node_production`); pick the
    heat-map metric and the seat whose top openings (:func:`rank_openings`) are
    listed; pick an opening to mark both its intersections on the board.

    Parameters
    ----------
    source : Board or Game, optional
        Default: the beginner board.  In a game, only intersections the distance rule leaves
        free are scored, and openings need the founding phase.
    seat : int
        Seat whose openings are ranked (changeable in the widget).
    players : int
        Players, with a board.
    metric : str
        Initial heat-map metric: a key of :data:`PLACEMENT_METRICS` or of ``metrics``.
    metrics : mapping of str to callable, optional
        Extra heat maps: ``name -> f(source) -> {intersection: value}`` (e.g. a risk measure).
    weights : PlacementWeights, optional
    top : int
        Openings listed.
    palette_name : {"standard", "colorblind"}
    height : int

    Examples
    --------
    >>> from catan_nb import Board
    >>> ex = PlacementExplorer(Board.beginner(), seat=1)
    >>> ex.click_node(20); ex.selected_node
    20
    >>> "intersection 20" in ex.breakdown.value
    True
    >>> ex.metric_box.value = "pips"; max(ex.heat.values())
    11.0
    >>> len(ex.openings), ex.openings[0].score >= ex.openings[-1].score
    (10, True)
    """

    def __init__(
        self,
        source: Board | Game | None = None,
        *,
        seat: int = 0,
        players: int = 4,
        metric: str = "score",
        metrics: Mapping[str, Callable[[Any], Mapping[int, float]]] | None = None,
        weights: PlacementWeights | None = None,
        top: int = 10,
        palette_name: str = "standard",
        height: int = 560,
    ):
        self.source = Board.beginner() if source is None else source
        game = _source_game(self.source)
        self.board = self.source.board if game is not None else self.source
        self.players = game.n if game is not None else int(players)
        # what is drawn and studied: the game, or the board as the game its file names (its modules' layers)
        self.game = game if game is not None else study_game(self.board, self.players)
        self.weights = weights
        self.top = int(top)
        self.palette_name = palette_name
        self.extra_metrics = dict(metrics or {})
        rows = score_intersections(self.source, weights=weights, players=self.players)
        # only the metrics this game gives values to (commodities in Cities & Knights, island points...)
        # the points within reach before their weight, where the score weighs them 0 (tokens with the Erie Canal)
        unweighed = not any(r.parts.get("targets") for r in rows)
        useful = {k: v for k, v in PLACEMENT_METRICS.items()
                  if k in ("score", "production", "pips", "opening", metric)
                  or (k == "city_score" and rows and rows[0].city_score is not None)
                  or any(r.parts.get(k) for r in rows)
                  or (k == "reach" and unweighed
                      and any(placement_heat(self.source, k, players=self.players, weights=weights).values()))}
        names = {**useful, **{k: k for k in self.extra_metrics}}
        if metric not in names:
            raise ValueError(f"unknown metric {metric!r}; expected one of {', '.join(names)}")
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not in a {self.players}-player game")
        self.metric_titles = names
        self.selected_node: int | None = None
        self.selected_pair: int | None = None
        self.message = ""
        self._openings: dict[int, list] = {}
        self.scores = {int(r.node): r for r in rows}
        self._rank = {int(r.node): i + 1 for i, r in enumerate(rows)}
        self.metric, self.seat = metric, int(seat)
        self.heat = self._heat(metric)
        self._host(board_figure(self.game, heat=self.heat, heat_title=self._title(metric), palette_name=palette_name,
                                height=height))
        self.figure.data[self._idx["intersections"]].on_click(self._on_node_click)

        self.metric_box = W.Dropdown(options=[(v, k) for k, v in names.items()], value=metric, description="heat map",
                                     layout=W.Layout(width="300px")).add_class("placement-metric")
        self.seat_box = W.Dropdown(options=[(f"seat {p}", p) for p in range(self.players)], value=self.seat,
                                   description="openings of", layout=W.Layout(width="220px")).add_class("placement-seat")
        self.pair_box = W.Select(options=[], rows=min(self.top, 10), description="opening",
                                 layout=W.Layout(width="420px")).add_class("placement-pairs")
        self.breakdown = W.HTML().add_class("placement-breakdown")
        self.openings_html = W.HTML().add_class("placement-openings")
        self.notice = W.HTML().add_class("placement-notice")
        self.buttons = {"clear": _button("Clear selection", "placement-clear")}
        self.buttons["clear"].on_click(lambda _: self.clear())
        self.metric_box.observe(lambda ch: self.set_metric(ch["new"]), "value")
        self.seat_box.observe(lambda ch: self.set_seat(ch["new"]), "value")
        self._filling = False
        self.pair_box.observe(lambda ch: None if self._filling else self.select_pair(ch["new"]), "value")
        self.pair_box.layout.width = "100%"
        side = W.VBox([self.breakdown, self.pair_box])
        # Playouts: the listed openings ranked by games of bots (good play or random play).
        self.playout_bot = W.Dropdown(options=[("value bots (good play)", "value"), ("random bots", "random")],
                                      value="value", description="play out by", layout=W.Layout(width="260px"),
                                      style={"description_width": "80px"}).add_class("placement-playout-bot")
        self.playout_games = W.BoundedIntText(value=12, min=1, max=2000, description="games each",
                                              layout=W.Layout(width="160px"),
                                              style={"description_width": "80px"}).add_class("placement-playout-games")
        self.buttons["playout"] = _button("Rank the top 5 by playouts", "placement-playout", "info")
        self.buttons["playout"].on_click(lambda _: self.play_out(self.playout_bot.value, self.playout_games.value))
        self.playout_html = W.HTML().add_class("placement-playout-result")
        playouts = W.VBox([W.HBox([self.playout_bot, self.playout_games, self.buttons["playout"]]), self.playout_html])
        self.widget = W.VBox(
            [W.HBox([self.metric_box, self.seat_box, self.buttons["clear"]]), self.notice,
             figure_beside(self.figure, side, basis="460px", panel_basis="300px"), self.openings_html, playouts]
        ).add_class("placement-explorer")
        self._fill_openings()
        self.refresh()

    # ------------------------------------------------------------------ analysis calls
    def _title(self, metric: str) -> str:
        return self.metric_titles[metric] + (f" (seat {self.seat})" if metric == "opening" else "")

    def _heat(self, metric: str) -> dict[int, float]:
        if metric in self.extra_metrics:
            return {int(k): float(v) for k, v in self.extra_metrics[metric](self.source).items()}
        try:
            return placement_heat(self.source, metric, seat=self.seat, players=self.players, weights=self.weights)
        except ValueError as err:  # e.g. openings of a game past its founding phase
            self.message = f"⚠ {err}"
            return {}

    @property
    def openings(self) -> list:
        """The top openings of the chosen seat, best first (``[]`` if they cannot be ranked)."""
        if self.seat not in self._openings:
            try:
                self._openings[self.seat] = rank_openings(
                    self.source, self.seat, players=self.players, weights=self.weights, top=self.top
                )
            except ValueError as err:
                self.message = f"⚠ {err}"
                self._openings[self.seat] = []
        return self._openings[self.seat]

    # ------------------------------------------------------------------ controls
    def play_out(self, bot: str = "value", playouts: int = 12, top: int = 5, seed: int = 0) -> list:
        """Rank the ``top`` listed openings by seeded playouts of ``bot`` (``"value"``: good play,
        ``"random"``); the table under the board shows win rates with their 95% intervals.

        Returns the :class:`~catan_nb.analysis.placement.OpeningSimulation` rows, best first.
        """
        from ..analysis.placement import simulate_openings

        pairs = [(int(p.first), int(p.second)) for p in self.openings[:top]]
        if not pairs:
            self.playout_html.value = "<i>no openings to play out</i>"
            return []
        self.playout_html.value = f"<i>playing {len(pairs) * playouts} games…</i>"
        rows = simulate_openings(self.source, self.seat, pairs=pairs, playouts=int(playouts), seed=seed, bot=bot,
                                 players=self.players, progress=False)
        heur = {(int(p.first), int(p.second)): i + 1 for i, p in enumerate(self.openings)}
        body = "".join(
            f"<tr><td>{i + 1}</td><td>{heur.get((int(r.first), int(r.second)), '')}</td>"
            f"<td>{html.escape(place_of_node(self.board, int(r.first)))} + "
            f"{html.escape(place_of_node(self.board, int(r.second)))}</td>"
            f"<td>{r.win_rate.estimate:.2f}</td><td>[{r.win_rate.low:.2f}, {r.win_rate.high:.2f}]</td>"
            f"<td>{r.vp.estimate:.1f}</td></tr>"
            for i, r in enumerate(rows))
        who = "value bots (good play)" if bot == "value" else f"{bot} bots"
        self.playout_html.value = (
            f"<b>The same openings ranked by {playouts} games each of {who}</b> (seat {self.seat}; "
            "the same dice and bot seeds for every opening)<div class='catan-scroll'><table style='font-size:12px'>"
            "<tr><th>#</th><th>score rank</th><th>opening</th><th>win rate</th><th>95% interval</th>"
            "<th>VP at the end</th></tr>" + body + "</table></div>")
        return rows

    def set_metric(self, metric: str) -> None:
        """Colour the intersections by ``metric``."""
        if metric not in self.metric_titles:
            raise ValueError(f"unknown metric {metric!r}")
        self.metric = metric
        self.message = ""
        self.heat = self._heat(metric)
        if self.metric_box.value != metric:
            self.metric_box.value = metric  # observer re-enters with the same metric: harmless
        self.refresh()

    def set_seat(self, seat: int) -> None:
        """List the openings of ``seat``."""
        self.seat = int(seat)
        self.selected_pair = None
        self.message = ""
        if self.metric == "opening":
            self.heat = self._heat("opening")
        self._fill_openings()
        self.refresh()

    def select_pair(self, index: int | None) -> None:
        """Mark opening number ``index`` (0 = best) on the board."""
        self.selected_pair = None if index is None else int(index)
        if self.pair_box.value != self.selected_pair:
            self.pair_box.value = self.selected_pair
        self.refresh()

    def click_node(self, node: int) -> None:
        """A click on an intersection: show its score breakdown."""
        self.selected_node = int(node)
        self.refresh()

    def clear(self) -> None:
        """Forget the selected intersection and opening."""
        self.selected_node = None
        self.select_pair(None)

    def _on_node_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return  # plotly calls every trace's handler; only the clicked one has points
        self.click_node(points.point_inds[0])

    # ------------------------------------------------------------------ drawing
    def _fill_openings(self) -> None:
        pairs = self.openings
        opts = [(f"{i + 1}. {place_of_node(self.board, int(p.first))}  +  {place_of_node(self.board, int(p.second))}"
                 f"   (score {p.score:.3f})", i) for i, p in enumerate(pairs)]
        if self.selected_pair is not None and self.selected_pair >= len(opts):
            self.selected_pair = None
        self._filling = True  # new options make the Select pick a value of its own: ignore it
        try:
            self.pair_box.options = opts
            self.pair_box.value = self.selected_pair
        finally:
            self._filling = False

    def _breakdown_html(self) -> str:
        v = self.selected_node
        if v is None:
            return "<i>Click an intersection to see its score broken into parts.</i>"
        prod = node_production(self.board, v)
        row = self.scores.get(v)
        if row is None:
            return (f"<b>intersection {v}</b>: not free to found a building on (distance rule, B-BUILD-7, or "
                    f"outside the scenario's founding spaces)<br>cards per roll: {float(prod.total):.3f}")
        # the exact risk lines hold where the base game's yields are the spot's (not with gold, fog, commodities)
        plain = abs(sum(row.goods.values()) - float(prod.total)) < 1e-3 and "choice" not in row.goods
        text = score_breakdown_html(row, rank=self._rank[v], of=len(self.scores), production=prod if plain else None)
        best = next((p for p in self.openings if int(p.first) == v), None)
        if best is not None:
            text += (f"<br>best listed opening of seat {self.seat} starting here: then "
                     f"{html.escape(place_of_node(self.board, int(best.second)))} ({best.score:.3f})")
        if self.metric != "score" and v in self.heat:
            text += f"<br>heat map ({html.escape(self._title(self.metric))}): {self.heat[v]:.3f}"
        return text

    def refresh(self) -> None:
        """Redraw the heat map, the marks and the texts."""
        marks = set() if self.selected_node is None else {self.selected_node}
        pairs = self.openings
        if self.selected_pair is not None and self.selected_pair < len(pairs):
            p = pairs[self.selected_pair]
            marks |= {int(p.first), int(p.second)}
        dyn = dynamic_traces(self.game, heat=self.heat, heat_title=self._title(self.metric),
                             highlight_nodes=sorted(marks), palette_name=self.palette_name)
        self._apply(dyn)
        self.breakdown.value = self._breakdown_html()
        self.openings_html.value = "<div class='catan-scroll'>" + openings_table_html(
            pairs, selected=self.selected_pair, board=self.board,
            title=f"Top {len(pairs)} openings of seat {self.seat} (snake order, greedy opponents; "
                  "pick one above to mark it on the board)"
        ) + "</div>"  # a narrow notebook scrolls the table (issue 25 item 12), rows stay one line high
        self.notice.value = f"<span style='color:#a33'>{html.escape(self.message)}</span>" if self.message else ""

    def __repr__(self) -> str:
        return f"<PlacementExplorer metric={self.metric!r} seat={self.seat} selected={self.selected_node}>"


# ============================================================================ longest road explorer

class _SandboxError(Exception):
    """The sandbox cannot set up a build (not a rule: the engine's own errors are CatanError)."""


#: Dice totals tried, in order, when the explorer passes turns: the rarest first.
_QUIET_ORDER = (2, 12, 3, 11, 4, 10, 5, 9, 6, 8)


def _quiet_roll(game: Game) -> RollDice:
    """A roll that changes nothing but the turn, as the engine plays it out on a copy.

    Totals that pay no one (asked of the production analysis) first, the rarest first; the dice a
    module adds (the event die, CK-BAR-4) take each face in turn.  The first roll after which the
    game waits for the active player's build phase with every module state and every hand as they
    were is taken; failing that, one that leaves the module states alone (no barbarian step, no
    progress card), then one that leaves the hands alone, else the first that reaches the build phase.
    """
    paying: set[int] = set()
    for p in range(game.n):
        paying |= set(player_production(game, p).by_roll)
    totals = [t for t in _QUIET_ORDER if t not in paying] + [t for t in _QUIET_ORDER if t in paying]
    hands = [list(h) for h in game.hands]
    ext = copy.deepcopy(game.ext)
    best: tuple[int, RollDice] | None = None
    for total in totals:
        a = max(1, total - 6)
        for extra in itertools.product(range(1, 7), repeat=game.n_dice - 2):
            roll = RollDice(dice=(a, total - a, *extra))
            trial = game.copy()
            try:
                trial.play(roll)
            except CatanError:
                continue
            if trial.phase is not Phase.MAIN:
                continue
            rank = 2 * (trial.ext != ext) + (trial.hands != hands)
            if rank == 0:
                return roll
            if best is None or rank < best[0]:
                best = (rank, roll)
    return best[1] if best is not None else RollDice(dice=(1, 1, *[1] * (game.n_dice - 2)))


def _site_fields(action) -> list[str]:
    """Names of the fields of an action that hold a plain int (a path or an intersection id)."""
    if not dataclasses.is_dataclass(action):
        return []
    return [f.name for f in dataclasses.fields(action) if type(getattr(action, f.name)) is int]


class LongestRoadExplorer(_FigureHost):
    """Build roads, ships, settlements and knights by clicking, and watch the longest road and what breaks it.

    Pick a player, click a path to build a road for them (a ship on a sea path, in a
    Seafarers game), click an intersection to found a settlement (or to upgrade
    their settlement to a city).  Where the game has more pieces that matter to the
    road (ships, SF-8; knights that break roads, CK-KN-7), the *piece* buttons pick
    what a click builds ("auto": a road where one may go, else a ship; a settlement
    or city).  The engine decides what is legal (the build is one of
    :meth:`Game.legal_actions`: a road must connect, a settlement needs a road and the
    distance rule) and its message says why a build was refused.  The selected
    player's longest road (trade route) is drawn in yellow, opponent pieces that
    break it are ringed, and the text explains it (:func:`explain_longest_road`).

    The explorer is a sandbox: it passes turns with dice that change nothing but the
    turn and hands the player the cost of each build from the bank just before the
    engine checks and applies it.  A high victory-point target keeps the sandbox game
    from ending.

    Parameters
    ----------
    source : Board or Game, optional
        Default: the beginner board with its starting pieces.  A board without starting
        pieces is founded by bots; a game is copied (it must be past its founding phase).
    player : int
        The selected player.
    seed : int
        Seed of the game (and of the founding bots).
    players : int
        Players, with a board.
    rules : Rules, optional
        With a board: the rules to play (default: the board's own, :meth:`Rules.for_board`:
        a Seafarers map brings ships); the victory-point target is the sandbox's.
    palette_name : {"standard", "colorblind"}
    height : int

    Attributes
    ----------
    game : Game
        The sandbox game.
    report : LongestRoad
        :func:`longest_road` of the selected player.
    kinds : tuple of str
        The pieces a click may build: every path kind, then the buildings and the other
        pieces that block roads (the piece buttons' choices besides "auto").

    Examples
    --------
    >>> from catan_nb import Board
    >>> lr = LongestRoadExplorer(Board.beginner(), player=0)
    >>> lr.build_chain(13, 18, 23, 29, 34, 28)          # red extends 13-18 to meet 22-28
    True
    >>> lr.report.length
    6
    >>> lr.select_player(2); lr.build_chain(17, 23) and lr.click_node(23)   # white cuts it at 23
    True
    >>> lr.select_player(0); lr.report.length, [b.node for b in lr.report.breaks]
    (4, [23])
    >>> lr.undo(); lr.report.length
    6
    """

    VP_TARGET = 99

    def __init__(
        self,
        source: Board | Game | None = None,
        *,
        player: int = 0,
        seed: int = 0,
        players: int = 4,
        rules: Rules | None = None,
        palette_name: str = "standard",
        height: int = 560,
    ):
        self.game = self._sandbox(Board.beginner() if source is None else source, seed, players, rules)
        if not 0 <= player < self.game.n:
            raise ValueError(f"seat {player} is not in this {self.game.n}-player game")
        self._start = self.game.copy()
        self._undo: list[Game] = []
        self.player = int(player)
        self.palette_name = palette_name
        self.message = ""
        g = self.game
        self.path_kinds = path_kinds(g)
        self.kinds = self.path_kinds + tuple(
            k.name for k in g.kinds if k is not None and k.site == "node" and (k.building or k.blocks) and k.cost
        )
        self.report = longest_road(g, self.player)
        self._host(board_figure(g, longest_road=self.player, palette_name=palette_name, height=height))
        self.figure.data[self._idx["intersections"]].on_click(self._on_node_click)
        self.figure.data[self._idx["paths"]].on_click(self._on_path_click)

        pal = palette(palette_name)["player"]
        self.player_box = W.ToggleButtons(
            options=[(f"{p} {g.colours[p]}", p) for p in range(g.n)], value=self.player,
            description="build for", style={"button_width": "90px"},
        ).add_class("lr-player")
        # The piece buttons matter only where "auto" (a road; a settlement or city) is not all there is.
        more = len(self.path_kinds) > 1 or any(
            k is not None and k.site == "node" and k.blocks and not k.building and k.cost for k in g.kinds)
        self.piece_box = W.ToggleButtons(
            options=[("auto", "auto"), *((k, k) for k in self.kinds)], value="auto", description="piece",
            style={"button_width": "80px"}, layout=W.Layout(display=None if more else "none"),
        ).add_class("lr-piece")
        self._swatches = {p: pal[c] for p, c in enumerate(g.colours)}
        self.show_legal = W.Checkbox(value=True, indent=False, layout=W.Layout(width="auto"),
                                     description=f"mark where the player can build a {' or '.join(self.path_kinds)}",
                                     ).add_class("lr-show-legal")
        self.show_cuts = W.Checkbox(value=False, description="mark where an opponent could cut the road", indent=False,
                                    layout=W.Layout(width="auto")).add_class("lr-show-cuts")
        self.buttons = {"undo": _button("Undo", "lr-undo"), "reset": _button("Reset", "lr-reset", style="warning")}
        self.buttons["undo"].on_click(lambda _: self.undo())
        self.buttons["reset"].on_click(lambda _: self.reset())
        self.player_box.observe(lambda ch: self.select_player(ch["new"]), "value")
        self.show_legal.observe(lambda _: self.refresh(), "value")
        self.show_cuts.observe(lambda _: self.refresh(), "value")
        self.text = W.HTML().add_class("lr-text")
        self.notice = W.HTML().add_class("lr-notice")
        self.widget = W.VBox(
            [W.HBox([self.player_box, self.buttons["undo"], self.buttons["reset"]]), self.piece_box,
             W.HBox([self.show_legal, self.show_cuts]), self.notice,
             figure_beside(self.figure, W.VBox([self.text]), basis="460px", panel_basis="300px", panel_max="420px")]
        ).add_class("lr-explorer")
        self.refresh()

    # ------------------------------------------------------------------ the sandbox game
    @classmethod
    def _sandbox(cls, source: Board | Game, seed: int, players: int, rules: Rules | None = None) -> Game:
        if isinstance(source, Game):
            game = source.copy()
            if game.in_founding:
                raise ValueError("the longest-road explorer needs a game past its founding phase")
            game.vp_target = max(game.vp_target, cls.VP_TARGET)  # a sandbox: the copy plays on
            return game
        # a scenario board plays its modules (SF-13); given rules must name them (Game checks)
        rules = (Rules.for_board(source, vp_to_win=cls.VP_TARGET) if rules is None
                 else dataclasses.replace(rules, vp_to_win=cls.VP_TARGET))
        if players in source.start_seats:
            return Game(source, players=players, seed=seed, start="beginner", rules=rules)
        game = Game(source, players=players, seed=seed, rules=rules)
        bots = [WeightedBot(seed=seed * 31 + p) for p in range(players)]
        for _ in range(100 * players):  # the founding, and whatever it asks (a gold pick...), to the first roll
            if game.phase is Phase.ROLL or game.is_over:
                break
            game.play(bots[game.current_player].choose(game))
        return game

    @staticmethod
    def _to_turn(game: Game, player: int) -> None:
        """Pass turns (quiet dice, end turn) until ``player`` may build."""
        for _ in range(3 * game.n + 3):
            if game.phase is Phase.MAIN and game.current_player == player:
                return
            if game.phase is Phase.ROLL:
                game.play(_quiet_roll(game))
            elif game.phase is Phase.MAIN:
                game.play(EndTurn())
            else:
                raise _SandboxError(f"the sandbox cannot pass turns in phase {game.phase.value}")
        raise _SandboxError(f"seat {player} never got a turn")  # pragma: no cover - defensive

    @staticmethod
    def _grant(game: Game, player: int, cost: Sequence[int]) -> None:
        """Move what ``player`` lacks of ``cost`` from the bank to their hand (the cards stay conserved)."""
        need = [max(0, c - h) for c, h in zip(cost, game.hand(player).values())]
        try:
            game.deal(player, need)
        except CatanError:
            raise _SandboxError("the bank has run out of a card the build needs; press Reset") from None

    @staticmethod
    def _placing(game: Game, player: int, kind: str, site: int):
        """The engine's legal action that puts a new piece of ``kind`` of ``player`` on ``site``.

        Found among :meth:`Game.legal_actions` by what each does to a copy of the game, so any
        module's build action serves (a ship, a knight...).  None of them: the same action for
        ``site`` (as one that places ``kind`` elsewhere shows it), for the engine to refuse with its
        rule; else the engine's placement check; else a :class:`_SandboxError`.
        """
        k = game.kind_id[kind]
        have = game.placed[k][player]

        def places(a) -> int | None:  # where ``a`` puts one new piece of ``kind`` (None: it does not)
            trial = game.copy()
            trial.apply(a)
            new = trial.placed[k][player] - have
            # one piece more: a moved piece (a ship, SF-9; a knight, CK-KN-5) is no build
            return next(iter(new)) if len(new) == 1 and len(trial.placed[k][player]) == len(have) + 1 else None

        legal = [(a, names) for a in game.legal_actions() if (names := _site_fields(a))]
        for a, names in legal:
            if any(getattr(a, n) == site for n in names) and places(a) == site:
                return a
        like = None
        for a, names in legal:  # the same kind of action elsewhere, moved to ``site``
            at = places(a)
            if at is not None:
                like = next((dataclasses.replace(a, **{n: site}) for n in names if getattr(a, n) == at), None)
                if like is not None:
                    break
        if like is not None:
            return like  # not legal: the engine's check says why
        game.check_spot(None, player, kind, site)  # the engine's placement rules name the rule broken
        where = "path" if game.kinds[k].site == "path" else "intersection"  # type: ignore[union-attr]
        sites = game.candidates(player, kind)
        if site not in sites:
            allowed = f"{where}s {', '.join(map(str, sites[:12]))}{'...' if len(sites) > 12 else ''}" if sites else "none"
            raise _SandboxError(f"a {kind} of seat {player} may not go on {where} {site} now (where the engine allows "
                                f"one, limits aside: {allowed})")
        raise _SandboxError(f"the engine offers seat {player} no {kind} now ({game.pieces_left(player)[kind]} in supply; "
                            "a module's limit may hold)")

    def _path_kinds_for(self, path: int) -> list[str]:
        """Path kinds for an "auto" click on ``path``: those whose ground it is first (roads on land, SF-2;
        ships by the sea, SF-6), in the registry's order."""
        g = self.game
        if not 0 <= path < g.topology.n_edges:
            return list(self.path_kinds)  # the engine names the missing path (B-BOARD-3)
        fits = [k for k in self.path_kinds if (ok := path_ground(g.topology, g.kinds[g.kind_id[k]])) is None or ok[path]]
        return fits + [k for k in self.path_kinds if k not in fits]

    def _node_kind_for(self, node: int, player: int) -> str:
        """The piece an "auto" click on ``node`` builds: the upgrade of ``player``'s piece there (a city on
        their settlement, B-BUILD-9), else the first building that upgrades nothing (a settlement)."""
        g = self.game
        here = g.piece_at(node) if 0 <= node < g.topology.n_nodes else None
        kinds = [k for k in g.kinds if k is not None and k.site == "node"]
        if here is not None and here[0] == player:
            up = next((k.name for k in kinds if k.upgrade_of == here[1]), None)
            if up is not None:
                return up
        return next(k.name for k in kinds if k.building and k.upgrade_of is None)

    def _attempt(self, kinds: Sequence[str], site: int, player: int | None) -> bool:
        """Build the first of ``kinds`` the engine accepts on ``site`` for ``player``; else show why the first
        was refused.  Nothing raises: a click must not (JUPYTER.md)."""
        try:
            return self._try_kinds(kinds, site, player)
        except Exception as err:  # noqa: BLE001 - a bug shows as a message, never escapes a click
            self.message = f"⚠ {type(err).__name__}: {err}"
            self.refresh()
            return False

    def _try_kinds(self, kinds: Sequence[str], site: int, player: int | None) -> bool:
        p = self.player if player is None else int(player)
        first: Exception | None = None
        for kind in kinds:
            trial = self.game.copy()
            try:
                if kind not in trial.kind_id:
                    raise _SandboxError(f"this game has no {kind}; its pieces: {', '.join(self.kinds)}")
                if trial.is_over:
                    raise _SandboxError("the game is over")
                self._to_turn(trial, p)
                self._grant(trial, p, trial.cost(kind))
                trial.play(self._placing(trial, p, kind, int(site)))
            except (CatanError, _SandboxError) as err:
                first = first or err
                continue
            self._undo.append(self.game)
            self.game = trial
            self.message = ""
            self.refresh()
            return True
        self.message = f"⚠ {first}"
        self.refresh()
        return False

    def _legal_paths(self) -> list[int]:
        """Paths where the selected player may put a piece of any path kind now (the engine's candidates)."""
        g, p = self.game, self.player
        left = g.pieces_left(p)
        return sorted({e for k in self.path_kinds if left[k] > 0 for e in g.candidates(p, k)})

    # ------------------------------------------------------------------ actions
    def build(self, kind: str, site: int, player: int | None = None) -> bool:
        """Build a piece of ``kind`` (``"road"``, ``"ship"``, ``"knight"``...) on ``site`` (a path or an
        intersection) for ``player`` (default: the selected one), if the engine allows it.

        Examples
        --------
        White's knight (Cities & Knights) cuts red's road at 23, as a settlement would (CK-KN-7):

        >>> from catan_nb import Board
        >>> from catan_nb.rules import Rules
        >>> lr = LongestRoadExplorer(Board.beginner(), rules=Rules(modules=("cities_knights",)))
        >>> lr.build_chain(13, 18, 23, 29, 34, 28) and lr.build_chain(17, 23, player=2)
        True
        >>> lr.build("knight", 23, player=2), lr.report.length, lr.report.breaks[0].piece
        (True, 4, 'knight')
        """
        return self._attempt([kind], site, player)

    def build_road(self, path: int, player: int | None = None) -> bool:
        """Build a road on ``path`` for ``player`` (default: the selected one), if the engine allows it."""
        return self.build("road", path, player)

    def build_path(self, path: int, player: int | None = None, kind: str | None = None) -> bool:
        """Build a piece of path ``kind`` on ``path``; ``None``: the first kind the engine accepts there
        (a road on land, else a ship)."""
        if kind is not None:
            return self.build(kind, path, player)
        return self._attempt(self._path_kinds_for(int(path)), path, player)

    def build_chain(self, *nodes: int, player: int | None = None, kind: str | None = None) -> bool:
        """Build pieces along consecutive intersections (``build_chain(13, 18, 23)``), stopping at a refusal.

        ``kind``: ``"road"``, ``"ship"``...; ``None``: each path's first kind the engine accepts."""
        p = self.player if player is None else player
        for a, b in zip(nodes, nodes[1:]):
            e = self.game.board.path_between(a, b)
            here = self.game.piece_on(e)
            if here is not None and here[0] == p and kind in (None, here[1]):
                continue
            if not self.build_path(e, player, kind):
                return False
        return True

    def build_settlement(self, node: int, player: int | None = None) -> bool:
        """Found a settlement on ``node`` for ``player`` (default: the selected one), if the engine allows it."""
        return self.build("settlement", node, player)

    def build_city(self, node: int, player: int | None = None) -> bool:
        """Upgrade ``player``'s settlement on ``node`` to a city, if the engine allows it."""
        return self.build("city", node, player)

    def click_path(self, path: int) -> bool:
        """A click on a path: the piece picked (a path kind), or "auto" (a road, else a ship)."""
        kind = self.piece_box.value
        return self.build_path(path, kind=kind if kind in self.path_kinds else None)

    def click_node(self, node: int) -> bool:
        """A click on an intersection: the piece picked (a knight...), or "auto": a settlement there
        (a city on the player's own settlement)."""
        kind = self.piece_box.value
        if kind == "auto" or kind in self.path_kinds:
            kind = self._node_kind_for(int(node), self.player)
        return self.build(kind, node)

    def select_player(self, player: int) -> None:
        """Build for (and explain the roads of) ``player``."""
        if not 0 <= player < self.game.n:
            raise ValueError(f"seat {player} is not in this {self.game.n}-player game")
        self.player = int(player)
        if self.player_box.value != self.player:
            self.player_box.value = self.player
        self.message = ""
        self.refresh()

    def undo(self) -> None:
        """Take back the last build."""
        if self._undo:
            self.game = self._undo.pop()
            self.message = ""
        else:
            self.message = "nothing to undo"
        self.refresh()

    def reset(self) -> None:
        """Back to the starting position."""
        self.game = self._start.copy()
        self._undo.clear()
        self.message = ""
        self.refresh()

    def _on_node_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return
        self.click_node(points.point_inds[0])

    def _on_path_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return
        self.click_path(points.point_inds[0])

    # ------------------------------------------------------------------ drawing
    @property
    def cuts(self) -> dict[int, int]:
        """Where one more opponent settlement would shorten the selected player's road, and to what."""
        return cut_lengths(self.game, self.player)

    def refresh(self) -> None:
        """Redraw the pieces, the longest road, the marks and the explanation."""
        g, p = self.game, self.player
        self.report = longest_road(g, p)
        cuts = self.cuts
        marks = {b.node for b in self.report.breaks}
        if self.show_cuts.value:
            marks |= set(cuts)
        legal = self._legal_paths() if self.show_legal.value else []
        self._apply(dynamic_traces(g, longest_road=p, highlight_nodes=sorted(marks), highlight_paths=legal,
                                   palette_name=self.palette_name))
        sw = (f"<span style='display:inline-block;width:12px;height:12px;background:{self._swatches[p]};"
              "border:1px solid #111'></span>")
        title = route_title(g)
        lengths = ", ".join(f"{g.colours[q]} {n}" for q, n in enumerate(g.road_lengths()))
        holder = g.longest_road_holder
        card = (f"{title} card: {g.colours[holder]} (seat {holder})" if holder is not None
                else f"{title} card: nobody yet (it needs a length of at least {LONGEST_ROAD_MIN})")
        cut_text = ", ".join(f"{v} → {n}" for v, n in cuts.items()) or "nowhere"
        self.text.value = (
            f"{sw} <b>{g.colours[p]} (seat {p}): {title.lower()} {self.report.length}</b>"
            f"<pre style='font-size:12px;white-space:pre-wrap'>{html.escape(explain_longest_road(g, p), quote=False)}</pre>"
            f"{title.lower()[len('longest '):]} lengths: {lengths}<br>{card}<br>"
            f"an opponent settlement would cut {g.colours[p]}'s {title.lower()[len('longest '):]} at: {cut_text}"
        )
        self.notice.value = f"<span style='color:#a33'>{html.escape(self.message)}</span>" if self.message else ""

    def __repr__(self) -> str:
        return f"<LongestRoadExplorer player={self.player}: {route_title(self.game).lower()} {self.report.length}>"

"""Classroom widgets for the lessons: design a board and score it, weigh the placement score
yourself, and test your own dice.

Each is a small ipywidgets panel over the analysis layer; their callbacks never raise (the
message shows in the panel), and every number they show comes from the library.

Examples
--------
>>> from catan_nb import Board
>>> w = ScoreWeights(Board.beginner())
>>> w.set_weights(production=1.0, diversity=0.0, scarcity=0.0, special_harbour=0.0, generic_harbour=0.0, numbers=0.0,
...               roads=0.0, cities=0.0, cards=0.0)
>>> w.ranking()[0][0] in {28, 31}
True
>>> sheet = DiceWorksheet()
>>> sheet.test_text("7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7")
>>> sheet.result.p_value < 0.05
True
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import replace
from pathlib import Path

import ipywidgets as W
import plotly.graph_objects as go

from ..analysis.fairness import fairness_report, red_adjacency_random_tokens
from ..analysis.placement import PlacementWeights, score_intersections
from ..analysis.probability import chi_square_counts, chi_square_test, dice_sum_distribution, parse_rolls
from ..analysis.production import placement_production
from ..board import Board
from ..constants import BASE_TOKEN_LETTERS, LAND_TERRAINS
from ..errors import CatanError, InputError
from ..viz import board_figure, dynamic_traces
from ._figure import FigureWidget
from ._common import guarded

__all__ = ["ScoreWeights", "BoardDesigner", "DiceWorksheet", "TallySheet", "describe_node"]


def describe_node(board: Board, node: int) -> str:
    """An intersection as players see it: its hexes, e.g. ``"forest 3 · mountains 8 · pasture 5"``."""
    parts = [f"{t.terrain}{' ' + str(t.token) if t.token else ''}" for t in board.intersection_hexes(node)]
    return " · ".join(parts) + (" (coast)" if len(parts) < 3 else "")


# ---------------------------------------------------------------- build the score yourself
class ScoreWeights:
    """Sliders for the weights of the placement score, the ranking they give, and a heat map.

    Students set how much each part counts (production, diversity, scarcity, harbours, numbers)
    and watch the best intersections change, before comparing with the library's weights.
    """

    #: The weights a spot's score uses on a base board (the rule modules' and the pairs' own aside).
    PARTS = ("production", "diversity", "scarcity", "special_harbour", "generic_harbour", "numbers",
             "roads", "cities", "cards")

    def __init__(self, board: Board, *, top: int = 8):
        if not isinstance(board, Board):
            raise ValueError(f"ScoreWeights shows a Board, not {type(board).__name__}")
        if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 54:
            raise ValueError(f"top must be 1..54, not {top!r}")
        self.board = board
        self.top = top
        self.message = ""
        start = PlacementWeights()
        self.sliders = {
            name: W.FloatSlider(value=getattr(start, name), min=min(0.0, 2 * getattr(start, name)),
                                max=max(1.0, 2 * getattr(start, name)),
                                step=0.01, description=name.replace("_", " "), continuous_update=False,
                                style={"description_width": "120px"}, layout=W.Layout(width="360px"))
            for name in self.PARTS
        }
        for s in self.sliders.values():
            s.observe(lambda _: self.refresh(), "value")
        self.reset_button = W.Button(description="Use the library's weights")
        self.reset_button.on_click(lambda _: self.reset())
        self.table = W.HTML()
        self.figure = FigureWidget(board_figure(board, heat=self._heat(), heat_title="score", height=420))
        self.widget = W.HBox([W.VBox([*self.sliders.values(), self.reset_button, self.table]), self.figure])
        self.refresh()

    @property
    def weights(self) -> PlacementWeights:
        """The weights the sliders show."""
        return replace(PlacementWeights(), **{k: float(s.value) for k, s in self.sliders.items()})

    def set_weights(self, **values: float) -> None:
        """Move sliders (as a student would), e.g. ``set_weights(diversity=0.0)``."""
        for k, v in values.items():
            if k not in self.sliders:
                raise ValueError(f"unknown part {k!r}; expected one of {', '.join(self.PARTS)}")
            self.sliders[k].value = float(v)
        self.refresh()

    def reset(self) -> None:
        """Back to the library's weights."""
        self.set_weights(**{k: getattr(PlacementWeights(), k) for k in self.PARTS})

    def ranking(self) -> list[tuple[int, float, str]]:
        """The best intersections under the sliders' weights: ``(node, score, hexes)``."""
        rows = score_intersections(self.board, weights=self.weights)
        return [(int(r.node), r.score, describe_node(self.board, r.node)) for r in rows[: self.top]]

    def _heat(self) -> dict[int, float]:
        return {int(r.node): r.score for r in score_intersections(self.board, weights=self.weights)}

    @guarded
    def refresh(self) -> None:
        rows = "".join(f"<tr><td>{i + 1}</td><td>{html.escape(d)}</td><td>{s:.3f}</td></tr>"
                       for i, (_, s, d) in enumerate(self.ranking()))
        note = f"<p>{self.message}</p>" if self.message else ""
        self.table.value = (f"{note}<table><tr><th>#</th><th>intersection (its hexes)</th><th>score</th></tr>"
                            f"{rows}</table>")
        props = dynamic_traces(self.board, heat=self._heat(), heat_title="score")
        names = {t.name: i for i, t in enumerate(self.figure.data)}
        with self.figure.batch_update():
            for name in ("intersections",):
                if name in names:
                    self.figure.data[names[name]].update(props[name], overwrite=False)
        self.message = ""

    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)


# ---------------------------------------------------------------- design a board, score it
class BoardDesigner:
    """Lay the terrain and the numbers of the base island yourself, and score the board.

    One dropdown per hex for its terrain and one for its number; **Shuffle** lays a random board,
    **Spiral numbers** lays the official lettered spiral on the terrain shown.  The report shows
    the pips per resource, red numbers side by side, and the snake draft's spread, beside the
    exact chance that random tokens would put two red numbers together.
    """

    def __init__(self, board: Board | None = None, *, seed: int = 0):
        board = board or Board.random(seed=seed)
        if not isinstance(board, Board) or tuple(board.rows) != (3, 4, 5, 4, 3) or len(board.hexes) != 19:
            raise ValueError("the designer lays out the base island (rows 3, 4, 5, 4, 3)")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        self.rng = random.Random(seed)
        self.message = ""
        self.board = board
        terrains = [(str(t), t) for t in LAND_TERRAINS]
        numbers = [("—", None)] + [(str(k), k) for k in sorted(set(BASE_TOKEN_LETTERS))]
        self.terrain_boxes, self.token_boxes = [], []
        rows = []
        for t in board.hexes:
            tb = W.Dropdown(options=terrains, value=t.terrain, layout=W.Layout(width="110px"))
            nb = W.Dropdown(options=numbers, value=t.token, layout=W.Layout(width="60px"))
            self.terrain_boxes.append(tb)
            self.token_boxes.append(nb)
            rows.append(W.HBox([W.Label(f"({t.row},{t.col})", layout=W.Layout(width="50px")), tb, nb]))
        self.shuffle_button = W.Button(description="Shuffle")
        self.shuffle_button.on_click(lambda _: self.shuffle())
        self.spiral_button = W.Button(description="Spiral numbers")
        self.spiral_button.on_click(lambda _: self.spiral())
        self.score_button = W.Button(description="Score my board", button_style="primary")
        self.score_button.on_click(lambda _: self.score())
        self.report = W.HTML()
        self.figure = FigureWidget(board_figure(board, height=420))
        self.widget = W.HBox([W.VBox([W.HBox([self.shuffle_button, self.spiral_button, self.score_button]),
                                      W.GridBox(rows, layout=W.Layout(grid_template_columns="repeat(2, 240px)"))]),
                              W.VBox([self.figure, self.report])])
        self.score()

    def _data(self) -> dict:
        data = self.board.to_dict()
        data["layout"] = "custom"
        data.pop("start", None)
        for h, tb, nb in zip(data["hexes"], self.terrain_boxes, self.token_boxes):
            h["terrain"], h["token"] = str(tb.value), nb.value
        desert = next(((h["row"], h["col"]) for h in data["hexes"] if h["terrain"] == "desert"), None)
        data["robber"] = list(desert) if desert else [data["hexes"][0]["row"], data["hexes"][0]["col"]]
        return data

    @guarded
    def shuffle(self) -> None:
        """A random board: terrain shuffled, numbers on the spiral."""
        self._show(Board.random(seed=self.rng.randrange(2**31)))

    @guarded
    def spiral(self) -> None:
        """The official numbers (B-SETUP-11..13) on the terrain the dropdowns show."""
        from ..board import lay_tokens

        rows = (3, 4, 5, 4, 3)
        terrain_at = {(t.row, t.col): tb.value for t, tb in zip(self.board.hexes, self.terrain_boxes)}
        tokens = lay_tokens(rows, terrain_at, BASE_TOKEN_LETTERS)
        for t, nb in zip(self.board.hexes, self.token_boxes):
            nb.value = tokens.get((t.row, t.col))
        self.score()

    def _show(self, board: Board) -> None:
        self.board = board
        for t, tb, nb in zip(board.hexes, self.terrain_boxes, self.token_boxes):
            tb.value, nb.value = t.terrain, t.token
        self.score()

    @guarded
    def score(self) -> None:
        """Check the board the dropdowns describe and report how fair it is."""
        try:
            board = Board.from_dict(self._data(), source="your board")
        except CatanError as err:
            self.report.value = f"<p>⚠ {html.escape(str(err))}</p>"
            return
        self.board = board
        rep = fairness_report(board)
        pips = ", ".join(f"{r} {k}" for r, k in rep.resource_pips.items())
        random_red = red_adjacency_random_tokens()
        self.report.value = (
            f"<p><b>pips per resource</b>: {html.escape(pips)}</p>"
            f"<p><b>6 and 8 side by side</b>: {len(rep.red_adjacent)} pair(s) "
            f"(random numbers put two red numbers together {float(random_red.probability):.0%} of the time; "
            f"the spiral never does)</p>"
            f"<p><b>snake draft</b> (greedy seats, two settlements each): cards per roll by seat "
            f"{', '.join(f'{float(x):.3f}' for x in rep.draft.production)} — spread {float(rep.draft.spread):.3f}</p>"
        )
        fig = board_figure(board, height=420)
        with self.figure.batch_update():
            self.figure.update(data=fig.data, overwrite=True)
        self.message = ""

    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)


# ---------------------------------------------------------------- your own dice
class DiceWorksheet:
    """A chi-square worksheet for the class's own rolls (or a saved game's dice history).

    Type the totals rolled (``"7 5 8 ..."``, or pairs ``"3+4 2+5"``), or load a saved game; the
    worksheet states the hypotheses, lays out observed against expected counts, gives the degrees
    of freedom and the p-value, and says what the result means at the 5% level.

    What cannot be tested — a word, a total no two dice make, ``7.5``, fewer than 10 rolls — is
    shown in the panel, naming the roll, and the previous table and verdict are cleared, so an old
    result is never read as the new one.

    Examples
    --------
    >>> sheet = DiceWorksheet()
    >>> sheet.test_text("7 8 6 " * 10)
    >>> sheet.result.n, sheet.message
    (30, '')
    >>> sheet.test_text("7 8 13 6")
    >>> sheet.result is None, "Roll 3: 13 is not a two-dice total" in sheet.output.value
    (True, True)
    """

    ALPHA = 0.05

    def __init__(self):
        self.message = ""
        self.result = None
        self.rolls: list[int] = []
        self.text = W.Textarea(placeholder="the totals rolled, e.g. 7 5 8 11 6 ...", layout=W.Layout(width="420px"))
        self.path = W.Text(placeholder="or a saved game: catan_game.json", layout=W.Layout(width="300px"))
        self.test_button = W.Button(description="Test these rolls", button_style="primary")
        self.test_button.on_click(lambda _: self.test_text(self.text.value))
        self.load_button = W.Button(description="Load a game's dice")
        self.load_button.on_click(lambda _: self.load_game(self.path.value))
        self.output = W.HTML()
        self.widget = W.VBox([self.text, W.HBox([self.test_button, self.path, self.load_button]), self.output])

    def _clear(self) -> None:
        self.message = ""
        self.result = None
        self.rolls = []

    def refresh(self) -> None:
        """Show the message of a refused input (the previous table and verdict are gone)."""
        if self.message:
            self.result = None
            self.rolls = []
            self.output.value = (
                f"<p style='color:#b00020'><b>Not tested.</b> {self.message}</p>"
                "<p>Type the totals rolled, separated by spaces or commas (pairs like 3+4 work too), "
                "at least 10 of them, and press <b>Test these rolls</b> again.</p>"
            )

    @guarded
    def test_text(self, text: str) -> None:
        """Parse the rolls typed and test them."""
        self._clear()
        if not isinstance(text, str):
            raise InputError("Type the totals rolled.")
        try:
            parsed = parse_rolls(text)
        except ValueError as err:  # a word, 7.5, a 13: named in plain words, without "ValueError"
            raise InputError(f"{str(err)[0].upper()}{str(err)[1:]}.") from None
        rolls = [r if isinstance(r, int) else sum(r) for r in parsed]
        self._test(rolls, "the rolls typed")

    @guarded
    def load_game(self, path: str) -> None:
        """Test the dice history of a saved game."""
        from ..rules import Game

        self._clear()
        game = Game.load(path)
        self._test([a + b for a, b, *_ in game.dice_history], f"the game in {Path(path).name}")

    def _test(self, rolls: list[int], what: str) -> None:
        if len(rolls) < 10:
            raise InputError(f"{len(rolls)} rolls are too few for a chi-square test: roll at least 30 (more is better).")
        self.rolls = rolls
        res = self.result = chi_square_test(rolls)
        table = res.table()
        head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
        # expected counts and shares with three decimals, as the printed table (16.667, not 16.67 or 16.7)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(f'{x:.3f}' if isinstance(x, float) else str(x))}</td>"
                                        for x in row) + "</tr>" for row in table.rows)
        verdict = (
            f"p = {res.p_value:.3f} is below {self.ALPHA}: <b>reject H0</b>. Fair dice would give a result this far "
            f"from the expected counts less than {self.ALPHA:.0%} of the time — evidence that these dice are not fair "
            "(or a rare accident: one class in twenty will see this with fair dice)."
            if res.p_value < self.ALPHA else
            f"p = {res.p_value:.3f} is not below {self.ALPHA}: <b>fail to reject H0</b>. These rolls are consistent "
            "with fair dice. That does not prove the dice fair: a small bias needs many more rolls to show."
        )
        pooled = " Totals with small expected counts were pooled so that every expected count is at least 5." if res.pooled else ""
        self.output.value = (
            f"<p><b>Data</b>: {res.n} rolls from {html.escape(what)}.</p>"
            "<p><b>H0</b>: the dice are fair (each total with its probability (6 − |7 − t|)/36). "
            "<b>H1</b>: they are not.</p>"
            f"<table><tr>{head}</tr>{body}</table>"
            f"<p><b>Degrees of freedom</b>: {res.dof} (categories − 1).{pooled}</p>"
            f"<p>{verdict}</p>"
        )

    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)



# ---------------------------------------------------------------- the unplugged start
class TallySheet:
    """Check a paper worksheet: the tallies of real dice, and the two settlements marked on the paper board.

    Type the count of each total (from the tally column) and the two intersections marked on the printed
    board (:mod:`catan_nb.viz.printable`).  The sheet gives the expected count of each total in that many
    rolls (fair dice), the difference, a chi-square test when there are enough rolls, and for the
    settlements: whether they obey the distance rule (B-BUILD-7), their dots (pips), what they collect on
    average in that many rolls, and what they would have collected with the rolls the students made.

    Examples
    --------
    >>> from catan_nb import Board
    >>> sheet = TallySheet(Board.beginner())
    >>> sheet.check([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], "31 49")
    >>> sheet.result["rolls"], sheet.result["expected"][7], sheet.result["spots"][31]["pips"]
    (36, Fraction(6, 1), 11)
    >>> sheet.result["cards"]   # what 31 and 49 would have collected with these rolls
    18
    >>> sheet.check([1, 2, 3], "31 49")
    >>> sheet.result is None, "11 counts" in sheet.output.value
    (True, True)
    """

    TOTALS = tuple(range(2, 13))

    def __init__(self, board: Board | None = None):
        self.board = board if board is not None else Board.beginner()
        self.message = ""
        self.result = None
        self.boxes = {t: W.BoundedIntText(value=0, min=0, max=10_000, description=str(t),
                                          layout=W.Layout(width="120px")) for t in self.TOTALS}
        self.spots = W.Text(placeholder="our two intersections, e.g. 31 49", layout=W.Layout(width="260px"))
        self.button = W.Button(description="Check our tallies", button_style="primary")
        self.button.on_click(lambda _: self.check([self.boxes[t].value for t in self.TOTALS], self.spots.value))
        self.output = W.HTML()
        self.widget = W.VBox([W.HBox(list(self.boxes.values())[:6]), W.HBox(list(self.boxes.values())[6:]),
                              W.HBox([self.spots, self.button]), self.output])

    def refresh(self) -> None:
        """Show the message of a refused input (the previous result is gone)."""
        if self.message:
            self.result = None
            self.output.value = f"<p style='color:#b00020'><b>Not checked.</b> {self.message}</p>"

    @guarded
    def check(self, counts, spots: str = "") -> None:
        """Check tallies (11 counts, totals 2 to 12, or a dict) and the settlements (intersection ids as text)."""
        self.message, self.result = "", None
        if isinstance(counts, dict):
            counts = [counts.get(t, 0) for t in self.TOTALS]
        counts = list(counts)
        if len(counts) != len(self.TOTALS):
            raise InputError(f"Type 11 counts, one for each total from 2 to 12 (there are {len(counts)}).")
        if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
            raise InputError("Each count is a whole number of rolls: 0, 1, 2 and so on.")
        n = sum(counts)
        if n == 0:
            raise InputError("No rolls counted yet: type how many times each total came up.")
        for t, c in zip(self.TOTALS, counts):
            self.boxes[t].value = c
        dist = dice_sum_distribution()
        expected = {t: n * dist[t] for t in self.TOTALS}
        nodes = [int(x) for x in re.findall(r"-?\d+", spots or "")]
        last = self.board.graph.number_of_nodes() - 1
        if nodes and (len(nodes) != 2 or not all(0 <= v <= last for v in nodes)):
            raise InputError(f"Type two intersections, numbers from 0 to {last} like 31 49 (you typed {spots.strip()}).")
        result = {"rolls": n, "counts": dict(zip(self.TOTALS, counts)), "expected": expected, "spots": {}}
        rows = "".join(
            f"<tr><td>{t}</td><td>{c}</td><td>{float(expected[t]):.1f}</td><td>{c - float(expected[t]):+.1f}</td></tr>"
            for t, c in zip(self.TOTALS, counts)
        )
        html_out = [
            f"<p><b>{n} rolls.</b> Fair dice give each total on average (ways out of 36) × {n} / 36 times.</p>",
            "<table><tr><th>total</th><th>your count</th><th>expected</th><th>difference</th></tr>" + rows + "</table>",
        ]
        if n >= 10:
            test = chi_square_counts(counts, [float(dist[t]) for t in self.TOTALS], values=self.TOTALS, unit="rolls")
            result["test"] = test
            html_out.append(
                f"<p>Chi-square test (lesson 16): p = {test.p_value:.3f}"
                + (" — below 0.05: unusual for fair dice (or a rare accident)." if test.p_value < 0.05 else
                   " — these counts are what fair dice often give.")
                + (" With so few rolls only a very unfair pair of dice would show." if n < 180 else "") + "</p>")
        if nodes:
            a, b = nodes
            if a == b:
                raise InputError(f"{a} and {b} are the same intersection: choose two different ones.")
            if b in self.board.graph.adj[a]:  # B-BUILD-7, said for the class
                raise InputError(f"{a} and {b} are next to each other: settlements need an empty corner between "
                                 "them (the distance rule). Choose another intersection.")
            prod = placement_production(self.board, nodes)
            cards = sum(c * sum(prod.by_roll.get(t, {}).values()) for t, c in zip(self.TOTALS, counts))
            for v in nodes:
                p = placement_production(self.board, [v])
                result["spots"][v] = {"hexes": describe_node(self.board, v), "pips": p.pips}
            result["cards"] = cards
            # Not the board's best intersection: finding it is the lesson's question 3 (issue 39).
            html_out.append(
                "<p><b>Your settlements.</b> " + "; ".join(
                    f"{v}: {html.escape(d['hexes'])}, {d['pips']} dots" for v, d in result["spots"].items())
                + f". Together {prod.pips} dots: on average {float(prod.total * n):.1f} cards in {n} rolls. "
                f"With your rolls they would have collected <b>{cards}</b>.</p>")
        self.result = result
        self.output.value = "".join(html_out)

    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)

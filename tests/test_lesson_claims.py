"""Every number a lesson's text states is checked against the library (issue 10).

Each claim is a phrase that must appear in the notebook's markdown and a check computing it.  If a
lesson is edited or the library changes, the claim fails here rather than misleading a class.
(Numbers printed by code cells are computed by the cells themselves.)
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from math import comb
from pathlib import Path

import pytest

from catan_nb import Board, Game
from catan_nb.analysis import Hits, PlacementWeights, RollsUntil, Streak, dice_sum_distribution
from catan_nb.analysis import node_production, placement_production, score_intersections, token_production
from catan_nb.analysis.fairness import red_adjacency_random_tokens, red_adjacency_spiral, resource_pips
from catan_nb.analysis.longest_road import cut_lengths
from catan_nb.analysis.probability import estimate_proportion
from catan_nb.constants import Resource
from catan_nb.dicegame import Face, Kind, keep_probability, reach_probability

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def markdown(name: str) -> str:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def r3(x) -> float:
    return round(float(x), 3)


SIGMA = float(sum((t - 7) ** 2 * p for t, p in dice_sum_distribution().items())) ** 0.5
BEGINNER = Board.beginner()
NOT_EIGHT = [t for t in range(2, 13) if t != 8]


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The interval simulate_openings reports for k wins in n games."""
    from catan_nb.analysis.probability import estimate_proportion

    e = estimate_proportion(k, n)
    return e.low, e.high


def _tie_at_top():
    rows = score_intersections(BEGINNER, weights=PlacementWeights.production_only())
    return sorted(int(r.node) for r in rows if r.score == rows[0].score)


def _red_line_cuts():
    from catan_nb.widgets.explorers import LongestRoadExplorer

    demo = LongestRoadExplorer(BEGINNER, player=0)
    demo.build_chain(13, 18, 23, 29, 34, 28, 22, 16)
    return demo.game.longest_road(0), cut_lengths(demo.game, 0)


CLAIMS = {
    "18_cities_knights_barbarians": [
        ("On average 14 rolls", lambda: __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() == 14),
        ("$14/4 = 3.5$", lambda: __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() / 4 == F(7, 2)),
        ("8 (the barbarians' strength is the 8 cities", lambda: __import__(
            "catan_nb.analysis.barbarians", fromlist=["x"]).knights_to_hold(8, 0) == 8),
        ("the barbarians land every three", lambda: 3 <= __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() / 4 <= 4),
    ],
    "01_engine_tour": [
        ("Four intersections tie at 11 pips (11/36 cards per roll): 28, 31, 39 and 44", lambda: _tie_at_top() == [28, 31, 39, 44]),
    ],
    "10_dice_and_large_numbers": [
        ("6 ways out\nof 36", lambda: dice_sum_distribution()[7] == F(6, 36)),
        ("$6 \\times 6 = 36$", lambda: len(dice_sum_distribution()) == 11 and sum(dice_sum_distribution().values()) == 1),
        ("(6/36 = 1/6)", lambda: dice_sum_distribution()[7] == F(1, 6) == max(dice_sum_distribution().values())),
        ("$(35/36)^{36} \\approx 0.363$", lambda: r3(Hits(12, rolls=36, at_most=0).exact()) == 0.363),
        ("\\approx 2{,}333$ rolls", lambda: round((2 * SIGMA / 0.1) ** 2) == 2333),
    ],
    "11_expected_value_where_to_build": [
        ("$2 + 5 + 4 = 11$ pips", lambda: node_production(BEGINNER, 31).pips == 11),
        ("$11/36 \\approx 0.306$", lambda: node_production(BEGINNER, 31).total == F(11, 36) and r3(F(11, 36)) == 0.306),
        ("$14/36 \\approx 0.389$", lambda: token_production([6, 8, 5]).total == F(14, 36) and r3(F(14, 36)) == 0.389),
        ("Four spots tie at 11 pips", lambda: _tie_at_top() == [28, 31, 39, 44]),
        ("With the full score 31 comes first", lambda: score_intersections(BEGINNER)[0].node == 31),
        ("a pip is $1/36 \\approx 0.028$", lambda: r3(F(1, 36)) == 0.028),
        ("With 16 games an interval is about ±0.2 wide", lambda: all(
            0.15 <= (_wilson(k, 16)[1] - _wilson(k, 16)[0]) / 2 <= 0.25 for k in range(2, 15))),
        ("four times the games halves it", lambda: abs(
            (_wilson(32, 64)[1] - _wilson(32, 64)[0]) / (_wilson(8, 16)[1] - _wilson(8, 16)[0]) - 0.5) < 0.05),
    ],
    "12_risk_variance_robber": [
        ("$22/36$ cards per roll", lambda: placement_production(BEGINNER, cities=[31]).total
         == placement_production(BEGINNER, settlements=[31, 44]).total == F(22, 36)),
        ("both pay one card with probability 5/36", lambda: token_production([8]).distribution
         == token_production([3, 4]).distribution and token_production([8]).p_any == F(5, 36)),
        ("(10/36 against 5/36)", lambda: token_production([6, 8]).p_any == F(10, 36) and token_production([8, 8]).p_any == F(5, 36)),
        ("less than half the\n  variance", lambda: token_production([6, 8]).variance < token_production([8, 8]).variance / 2),
        ("About 0.224 for one fixed stretch", lambda: r3(Hits(8, rolls=10, at_most=0).exact()) == 0.224),
        ("about 0.97 somewhere in 70 rolls", lambda: round(float(Streak(10, rolls=70, totals=NOT_EIGHT).exact()), 2) == 0.97),
        ("61 overlapping stretches", lambda: 70 - 10 + 1 == 61),
        ("$1 - (5/6)^3 \\approx 0.421$", lambda: r3(1 - F(5, 6) ** 3) == 0.421),
        ("gives $91/216$", lambda: Hits(7, rolls=3).exact() == F(91, 216)),
        ("more than\ntwice D's", lambda: token_production([8, 8]).variance > 2 * token_production([6, 8]).variance),
    ],
    "13_longest_road_graphs": [
        ("54 intersections and 72 paths", lambda: (BEGINNER.graph.number_of_nodes(), BEGINNER.graph.number_of_edges()) == (54, 72)),
        ("gives `{23: 5, 29: 4}`", lambda: _red_line_cuts() == (7, {23: 5, 29: 4})),
    ],
    "14_what_simulation_tells_us": [
        ("spans about ±0.13", lambda: round(estimate_proportion(10, 40).half_width, 2) == 0.13),
        ("\\approx 288$ games", lambda: round(1.96 ** 2 * 0.25 * 0.75 / 0.05 ** 2) == 288),
    ],
    "15_is_this_board_fair": [
        ("$\\binom{18}{4} = 3060$", lambda: comb(18, 4) == 3060),
        ("50,160 of the 58,140 set-ups (about 86%)", lambda: (red_adjacency_random_tokens().favourable,
                                                             red_adjacency_random_tokens().total) == (50160, 58140)
         and round(float(red_adjacency_random_tokens().probability), 2) == 0.86),
        ("0 of 114 set-ups", lambda: (red_adjacency_spiral().favourable, red_adjacency_spiral().total) == (0, 114)),
        ("Wool and ore, with 10 pips each", lambda: sorted(resource_pips(BEGINNER).items(), key=lambda kv: kv[1])[:2]
         == [(Resource.WOOL, 10), (Resource.ORE, 10)] and sorted(resource_pips(BEGINNER).values())[2] > 10),
    ],
    "16_your_own_dice": [
        ("$n \\ge 180$", lambda: 180 * dice_sum_distribution()[2] == 5),
    ],
    "20_dice_game_conditional": [
        ("\\approx 0.418", lambda: r3(reach_probability(Kind.ROAD, n_dice=6, rolls_left=1, gold=False)) == 0.418),
        ("engine's 0.570", lambda: r3(reach_probability(Kind.ROAD, n_dice=6, rolls_left=1)) == 0.570),
        ("from about 0.92 to about\n0.98", lambda: round(float(1 - (1 - reach_probability(Kind.ROAD, rolls_left=1)) ** 3), 2) == 0.92
         and round(float(reach_probability(Kind.ROAD)), 2) == 0.98),
    ],
    "21_dice_game_stopping": [
        ("gives 29/72", lambda: keep_probability(Kind.CITY, HAND, [0, 1, 2], 2) == keep_probability(Kind.CITY, HAND, [0, 1, 2, 4], 2)
         == F(29, 72)),
        ("about +0.36 for a city (0.22 to 0.58", lambda: (round(float(reach_probability(Kind.CITY)), 2),
                                                         round(float(reach_probability(Kind.CITY, swaps=[Resource.ORE])), 2),
                                                         round(float(reach_probability(Kind.CITY, swaps=[Resource.ORE]) - reach_probability(Kind.CITY)), 2))
         == (0.22, 0.58, 0.36)),
    ],
    "30_six_players": [
        ("from 19 to 30 hexes (two deserts, 28 number tokens, 11 harbours)", lambda: _x56_components()),
        ("24 cards of each resource and the deck 34", lambda: (Game(Board.five_six(), players=6, seed=1).bank_per_resource,
                                                             Game(Board.five_six(), players=6, seed=1).deck_total) == (24, 34)),
        ("$(5/6)^6 = 15625/46656 \\approx 0.335$", lambda: F(5, 6) ** 6 == F(15625, 46656) and r3(F(15625, 46656)) == 0.335),
        ("a little over 40%", lambda: 0.40 < float(1 - F(5, 6) ** 3) < 0.45),
    ],
}

HAND = [Face.ORE, Face.ORE, Face.GRAIN, Face.WOOL, Face.GOLD, Face.BRICK]


def _x56_components() -> bool:
    b = Board.five_six()
    land = [t for t in b.hexes if t.is_land]
    return (len(BEGINNER.hexes), len(land), sum(t.token is None for t in land),
            sum(t.token is not None for t in land), len(b.harbours)) == (19, 30, 2, 28, 11)


@pytest.mark.parametrize("name", sorted(CLAIMS))
def test_every_stated_number_holds(name):
    text = markdown(name)
    for phrase, check in CLAIMS[name]:
        assert phrase in text, f"{name}: the text no longer says {phrase!r}"
        assert check(), f"{name}: {phrase!r} is not what the library computes"


def test_every_lesson_opens_with_a_goal_and_a_prediction():
    """Issue 10: each lesson states its goal and asks for a prediction before computing."""
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if path.stem.startswith("02_"):
            continue  # the game table (also the Voila app)
        text = markdown(path.stem)
        assert "**Goal.**" in text.split("##")[0], path.name
        assert "## Predict first" in text, path.name
        assert "<details>" in text, path.name
        teacher = NOTEBOOKS / "teacher" / f"{path.stem}.md"
        if not path.stem.startswith("01_"):
            assert teacher.exists(), f"no teacher notes for {path.name}"
            notes = teacher.read_text(encoding="utf-8")
            for part in ("Learning goals", "Prerequisites", "45-minute plan", "Answer key", "misconceptions", "Extension"):
                assert part in notes, (teacher.name, part)


def test_waiting_times_quoted_in_lesson_12():
    w = RollsUntil(8)
    assert w.exact() == F(36, 5) and w.median() == 5 and w.quantile(0.9) == 16

"""Dice and probability: exact values against hand-derived fractions, simulations within their intervals."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, play_game
from catan_nb.analysis.probability import (
    Estimate,
    ExpectedHits,
    Hits,
    RollsUntil,
    RollTotal,
    Streak,
    chi2_sf,
    chi_square_test,
    compare,
    dice_sum_distribution,
    estimate_mean,
    estimate_proportion,
    hit_distribution,
    rolls_until_distribution,
    token_odds,
)
from catan_nb.constants import pips, roll_probability

F = Fraction
WAYS = {t: 6 - abs(7 - t) for t in range(2, 13)}


# ------------------------------------------------------------------ exact distributions
def test_two_dice_distribution_by_hand():
    d = dice_sum_distribution()
    assert list(d) == list(range(2, 13))
    assert d[7] == F(1, 6) and d[2] == d[12] == F(1, 36) and d[6] == d[8] == F(5, 36)
    assert sum(d.values()) == 1
    assert all(d[t] == roll_probability(t) for t in d)


def test_n_dice_for_comparison():
    assert dice_sum_distribution(1) == {f: F(1, 6) for f in range(1, 7)}
    three = dice_sum_distribution(3)
    assert three[3] == F(1, 216) and three[10] == three[11] == F(27, 216) and sum(three.values()) == 1
    assert dice_sum_distribution(2, sides=4)[5] == F(4, 16)
    with pytest.raises(ValueError):
        dice_sum_distribution(0)


def test_token_odds_are_pips_over_36():
    rows = token_odds()
    assert [r.token for r in rows] == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
    for r in rows:
        assert r.pips == pips(r.token) and r.probability == F(r.pips, 36)
    assert sum(r.probability for r in rows) == 1 - F(1, 6)
    assert rows[4].to_dict()["probability"] == "5/36"


def test_single_roll_events():
    assert RollTotal(7).exact() == F(1, 6)
    assert RollTotal((6, 8)).exact() == F(10, 36)
    assert RollTotal([2, 12]).exact() == F(1, 18)
    with pytest.raises(ValueError, match="2..12"):
        RollTotal(13)
    with pytest.raises(ValueError):
        RollTotal([])


def test_hits_by_hand():
    assert Hits(7, rolls=3, at_most=0).exact() == F(5, 6) ** 3  # no 7 in 3 rolls
    assert Hits(7, rolls=3).exact() == 1 - F(5, 6) ** 3  # at least one 7
    assert Hits((6, 8), rolls=3).exact() == 1 - F(26, 36) ** 3  # at least one 6 or 8
    assert Hits(7, rolls=10, at_least=2, at_most=2).exact() == 45 * F(1, 6) ** 2 * F(5, 6) ** 8
    assert Hits(12, rolls=1).exact() == F(1, 36)
    assert Hits(7, rolls=4, at_least=5).exact() == 0
    assert Hits(7, rolls=3, at_most=0).label == "P(no roll of 7 in 3 rolls)"
    assert Hits((6, 8), rolls=3).label == "P(at least one 6-or-8 in 3 rolls)"
    with pytest.raises(ValueError, match="at_least"):
        Hits(7, rolls=3, at_least=2, at_most=1)
    with pytest.raises(ValueError, match="roll"):
        Hits(7, rolls=0)


def test_hit_distribution_is_binomial():
    d = hit_distribution(7, 4)
    assert d == {k: math.comb(4, k) * F(1, 6) ** k * F(5, 6) ** (4 - k) for k in range(5)}
    assert sum(d.values()) == 1
    assert ExpectedHits(7, 60).exact() == 10
    assert ExpectedHits(7, 60).variance() == 60 * F(1, 6) * F(5, 6)
    assert sum(k * p for k, p in hit_distribution((6, 8), 9).items()) == ExpectedHits((6, 8), 9).exact()


def test_rolls_until_first_seven():
    assert RollsUntil(7).exact() == 6
    assert RollsUntil((2, 12)).exact() == 18
    d = rolls_until_distribution(7, up_to=4)
    assert d == {1: F(1, 6), 2: F(5, 36), 3: F(25, 216), 4: F(125, 1296)}
    assert 1 - sum(rolls_until_distribution(7, 10).values()) == F(5, 6) ** 10


def _brute_streak(length, n, totals):
    out = F(0)
    for seq in itertools.product(range(2, 13), repeat=n):
        best = cur = 0
        prev = None
        for x in seq:
            cur = (cur + 1 if x == prev else 1) if totals is None else (cur + 1 if x in totals else 0)
            prev = x
            best = max(best, cur)
        if best >= length:
            out += math.prod(F(WAYS[x], 36) for x in seq)
    return out


@pytest.mark.parametrize("length,n", [(1, 2), (2, 2), (2, 3), (3, 3), (2, 4), (3, 4)])
@pytest.mark.parametrize("totals", [None, frozenset({7}), frozenset({6, 8})])
def test_streak_dp_matches_enumeration(length, n, totals):
    assert Streak(length, n, totals).exact() == _brute_streak(length, n, totals)


def test_streak_by_hand():
    assert Streak(3, 3, 7).exact() == F(1, 216)  # three 7s in three rolls
    assert Streak(2, 2).exact() == sum(F(w, 36) ** 2 for w in WAYS.values())  # the second roll repeats the first
    assert Streak(5, 4).exact() == 0
    assert Streak(1, 10).exact() == 1
    # two 7s in a row within 3 rolls: 77x or x77 minus 777 counted twice
    assert Streak(2, 3, 7).exact() == 2 * F(1, 36) - F(1, 216)


# ------------------------------------------------------------------ simulation beside exact
EVENTS = [
    RollTotal(7),
    RollTotal((6, 8)),
    Hits(7, rolls=3, at_most=0),
    Hits((6, 8), rolls=3),
    Hits(7, rolls=10, at_least=2, at_most=2),
    ExpectedHits(7, 60),
    RollsUntil(7),
    RollsUntil(12),
    Streak(3, 30),
    Streak(2, 20, 7),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.label)
def test_simulation_interval_covers_exact(event):
    est = event.simulate(trials=4_000, seed=11)
    assert isinstance(est, Estimate) and est.n == 4_000
    assert est.exact == event.exact()
    assert est.low <= est.estimate <= est.high
    assert est.covers, est
    assert est.method == ("wilson" if event.kind == "proportion" else "t")


def test_simulation_is_seeded():
    e = Hits((6, 8), rolls=5)
    assert e.simulate(1_000, seed=3) == e.simulate(1_000, seed=3)
    assert e.simulate(1_000, seed=3).estimate != e.simulate(1_000, seed=4).estimate
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    assert e.simulate(500, g1) == e.simulate(500, g2)


def test_long_runs_are_chunked():
    est = Streak(4, 400, None).simulate(trials=6_000, seed=5)  # 4.8 million dice, drawn in chunks
    assert est.covers and est.n == 6_000


def test_compare_table():
    rows = compare(EVENTS[:4], trials=2_000, seed=1)
    assert [r.label for r in rows] == [e.label for e in EVENTS[:4]]
    assert all(r.covers for r in rows)
    d = rows[2].to_dict()
    assert d["exact"] == "125/216" and d["exact_value"] == pytest.approx(125 / 216) and d["covers"] is True
    assert set(d) >= {"event", "estimate", "low", "high", "n", "confidence"}
    assert "125/216" in repr(rows[2]) and "95% CI" in repr(rows[2])
    assert "~0." in repr(Streak(4, 100).simulate(100, seed=0))  # a huge fraction is shown as a decimal


def test_wilson_interval_by_hand():
    e = estimate_proportion(50, 100)
    assert e.estimate == 0.5
    assert e.low == pytest.approx(0.40383, abs=1e-5) and e.high == pytest.approx(0.59617, abs=1e-5)
    zero = estimate_proportion(0, 20)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.16113, abs=1e-5)
    assert estimate_proportion(10, 10).high == 1.0
    for n in (1, 3, 7, 1000, 123457):  # the bounds never cross the estimate at 0 or n successes
        assert estimate_proportion(0, n).low == 0.0 and estimate_proportion(n, n).high == 1.0
        assert estimate_proportion(0, n).high > 0 and estimate_proportion(n, n).low < 1
    assert estimate_proportion(5, 10, exact=F(1, 2)).covers
    assert estimate_proportion(5, 10).covers is None
    wider = estimate_proportion(50, 100, confidence=0.99)
    assert wider.low < e.low and wider.high > e.high
    with pytest.raises(ValueError):
        estimate_proportion(11, 10)
    with pytest.raises(ValueError):
        estimate_proportion(1, 10, confidence=1.5)


@pytest.mark.parametrize("df,t", [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423)])
def test_t_interval_matches_tables(df, t):
    values = list(range(df + 1))
    e = estimate_mean(values)
    s = float(np.std(values, ddof=1))
    assert e.half_width == pytest.approx(t * s / math.sqrt(df + 1), rel=2e-3)


def test_mean_of_one_value():
    e = estimate_mean([4.0])
    assert e.estimate == 4.0 and e.low == -math.inf
    with pytest.raises(ValueError):
        estimate_mean([])


# ------------------------------------------------------------------ chi-square
def test_chi2_sf_closed_forms():
    for x in (0.1, 1.0, 4.0, 10.0, 30.0, 80.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
        assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-12)
    # textbook critical values at the 5% level
    for dof, crit in [(1, 3.841459), (5, 11.070498), (8, 15.507313), (10, 18.307038)]:
        assert chi2_sf(crit, dof) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(0, 3) == 1.0
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_perfect_rolls_fit_perfectly():
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)] * 5  # 180 rolls in exact proportion
    res = chi_square_test(rolls)
    assert res.statistic == pytest.approx(0) and res.p_value == pytest.approx(1) and res.n == 180
    assert res.of == "sum" and not res.pooled and res.dof == 10


def test_faces_by_hand():
    # 60 dice: one face 5 times, one 15 times, the rest 10: chi2 = (25 + 25) / 10 = 5 on 5 dof
    faces = [1] * 5 + [2] * 10 + [3] * 10 + [4] * 10 + [5] * 10 + [6] * 15
    res = chi_square_test(faces, of="faces")
    assert res.statistic == pytest.approx(5.0) and res.dof == 5
    assert res.p_value == pytest.approx(0.4158801869955079, rel=1e-9)
    pairs = [(faces[2 * i], faces[2 * i + 1]) for i in range(30)]
    assert chi_square_test(pairs, of="faces").statistic == pytest.approx(5.0)


def test_pooling_of_small_expected_counts():
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]  # 36 rolls: expected 1, 2, 3, ... 6 ... 1
    res = chi_square_test(rolls)
    assert res.pooled and [b.values for b in res.bins] == [(2, 3, 4), (5, 6), (7,), (8, 9), (10, 11, 12)]
    assert res.dof == 4 and all(b.expected >= 5 for b in res.bins)
    assert sum(b.observed for b in res.bins) == 36
    assert res.table()[0] == {"values": "2-4", "observed": 6, "expected": pytest.approx(6.0), "(O-E)^2/E": pytest.approx(0)}
    assert res.table()[-1]["values"] == "total" and res.table()[-1]["(O-E)^2/E"] == pytest.approx(res.statistic, abs=1e-3)
    unpooled = chi_square_test(rolls, min_expected=0)
    assert unpooled.dof == 10 and not unpooled.pooled
    with pytest.raises(ValueError, match="fewer than two bins"):
        chi_square_test([(3, 4)] * 4)


def test_loaded_dice_are_detected():
    res = chi_square_test([7] * 50 + [6] * 20 + [8] * 20 + [2] * 10)
    assert res.p_value < 1e-6
    assert "ChiSquareResult of sum" in repr(res) and res.to_dict()["dof"] == res.dof


def test_bad_rolls_are_named():
    with pytest.raises(ValueError, match="roll 2: "):
        chi_square_test([(1, 2), (0, 3)])
    with pytest.raises(ValueError, match="two-dice total"):
        chi_square_test([1])
    with pytest.raises(ValueError, match="of must be"):
        chi_square_test([7], of="dice")


def test_game_dice_history():
    game = play_game(Game(Board.random(seed=5), players=4, seed=5), [RandomBot(p) for p in range(4)])
    res = chi_square_test(game)
    assert res.n == len(game.dice_history) > 50
    assert chi_square_test(game.dice_history) == res
    assert chi_square_test(game, of="faces").n == 2 * res.n


def test_false_alarm_rate_of_fair_dice():
    """Fair dice fail the 5% test about 5% of the time: the rate lies in its simulated interval."""
    rng = np.random.default_rng(2024)
    reps, alarms = 300, 0
    for _ in range(reps):
        dice = rng.integers(1, 7, size=(180, 2))
        alarms += chi_square_test(dice.sum(axis=1).tolist()).p_value < 0.05
    est = estimate_proportion(alarms, reps, exact=F(1, 20))
    assert est.covers, est


def test_hits_bounds_read_as_a_student_means_them():
    """Issue 10: at_most alone is 0..at_most, at_least alone is at_least..rolls (against enumeration)."""
    import itertools

    def brute(totals, rolls, lo, hi):
        ways = {t: 6 - abs(7 - t) for t in range(2, 13)}
        p = F(0)
        for seq in itertools.product(range(2, 13), repeat=rolls):
            k = sum(t in totals for t in seq)
            if lo <= k <= hi:
                w = 1
                for t in seq:
                    w *= ways[t]
                p += F(w, 36**rolls)
        return p

    for totals, rolls in (({8}, 3), ({6, 8}, 3), ({7}, 4)):
        for k in range(rolls + 1):
            assert Hits(totals, rolls=rolls, at_most=k).exact() == brute(totals, rolls, 0, k)
            assert Hits(totals, rolls=rolls, at_least=k).exact() == brute(totals, rolls, k, rolls)
        assert Hits(totals, rolls=rolls).exact() == brute(totals, rolls, 1, rolls)
    assert Hits(8, rolls=72, at_most=1).label == "P(at most 1 roll of 8 in 72 rolls)"
    assert Hits(8, rolls=72, at_most=1).exact() > Hits(8, rolls=72, at_least=1, at_most=1).exact()


def test_waiting_time_median_and_quantiles_are_exact():
    """Issue 10: median and quantiles of the rolls until a hit, checked against the cumulative sums."""
    for totals in (7, 8, (6, 8), 12, 2):
        w = RollsUntil(totals)
        p = sum(F(6 - abs(7 - t), 36) for t in ([totals] if isinstance(totals, int) else totals))
        for q in (F(1, 10), F(1, 4), F(1, 2), F(3, 4), F(9, 10), F(99, 100)):
            k = w.quantile(q)
            cdf = lambda n: 1 - (1 - p) ** n  # noqa: E731
            assert cdf(k) >= q and (k == 1 or cdf(k - 1) < q), (totals, q, k)
        assert w.median() == w.quantile(F(1, 2))
    assert RollsUntil(8).median() == 5 and RollsUntil(7).median() == 4
    with pytest.raises(ValueError):
        RollsUntil(8).quantile(1)


def test_rank_correlation_matches_its_definition_on_generated_samples():
    """Spearman's rho as the Pearson correlation of mid-ranks, checked against a brute-force computation
    (every pair of items: concordance counted in Fractions is Kendall's, so compare with the classic
    formula 1 - 6 sum d^2 / (n (n^2 - 1)) where there are no ties)."""
    import random
    from fractions import Fraction

    from catan_nb.analysis.probability import rank_correlation, ranks

    rng = random.Random(7)
    for n in range(3, 12):
        for _ in range(20):
            x = rng.sample(range(100), n)
            y = rng.sample(range(100), n)
            rx = {v: i for i, v in enumerate(sorted(x))}
            ry = {v: i for i, v in enumerate(sorted(y))}
            d2 = sum((rx[a] - ry[b]) ** 2 for a, b in zip(x, y))
            exact = 1 - Fraction(6 * d2, n * (n * n - 1))
            assert rank_correlation(x, y) == pytest.approx(float(exact), abs=1e-12)
    # ties share the mean of their ranks
    assert ranks([5, 1, 5, 5, 0]) == [3.0, 1.0, 3.0, 3.0, 0.0]
    assert rank_correlation([1, 1, 1], [1, 2, 3]) != rank_correlation([1, 1, 1], [1, 2, 3])  # nan: no spread
    with pytest.raises(ValueError):
        rank_correlation([1, 2], [1])


def test_chi_square_tables_show_expected_counts_as_computed_by_hand():
    """Issue 39 item 7: the expected counts read 16.667 and 473.833 (n p to three decimals), not 16.670 and
    473.830, in the lessons' tables and the DiceWorksheet, where students compute (O - E)^2 / E by hand."""
    from catan_nb.analysis.probability import chi_square_counts, chi_square_test
    from catan_nb.widgets.classroom import DiceWorksheet

    rng = np.random.default_rng(39)
    for n in (600, 613, 2843, 97):
        res = chi_square_test(list(rng.integers(2, 13, size=n)))
        rows = res.table().rows
        for b, row in zip(res.bins, rows):
            assert row[2] == round(n * sum(float(roll_probability(v)) for v in b.values), 3)
        assert rows[-1][2] == n
    seats = chi_square_counts([470, 458, 490, 480, 492, 453], unit="finished games", min_expected=0)
    assert {row[2] for row in seats.table().rows[:-1]} == {473.833} and "473.833" in str(seats.table())
    sheet = DiceWorksheet()
    sheet.test_text(" ".join(str(t) for t in rng.integers(2, 13, size=600)))
    assert "<td>16.667</td>" in sheet.output.value and "<td>100.000</td>" in sheet.output.value

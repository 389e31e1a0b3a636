"""Stored opening playouts (lesson 19) and the rank agreement of a score with playouts.

The stored runs are checked against the script that made them: the pairs are the day's ranking at the stored
places (with the stored weights), and sampled games replay to the stored results (test_lesson_claims).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from catan_nb.analysis.opening_runs import StoredOpenings, ck_game, rank_agreement, stored_ck_openings
from catan_nb.analysis.placement import rank_openings
from catan_nb.analysis.probability import estimate_proportion


def _spearman(x, y) -> float:
    """Spearman's rho from scratch: Pearson's correlation of average ranks (ties share the mean place)."""
    def avg_ranks(v):
        v = list(v)
        out = [0.0] * len(v)
        for i, a in enumerate(v):
            less = sum(b < a for b in v)
            equal = sum(b == a for b in v)
            out[i] = less + (equal + 1) / 2
        return np.array(out)

    rx, ry = avg_ranks(x), avg_ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    den = math.sqrt(float((rx * rx).sum() * (ry * ry).sum()))
    return float((rx * ry).sum() / den) if den else math.nan


def test_rank_agreement_is_spearman_of_the_means_and_resamples_seeds_together():
    rng = np.random.default_rng(7)
    for trial in range(20):
        pairs, games = int(rng.integers(3, 9)), int(rng.integers(4, 30))
        scores = rng.normal(size=pairs).round(2).tolist()
        if trial % 2:
            outcomes = rng.integers(0, 2, size=(pairs, games))              # wins
        else:
            outcomes = rng.integers(2, 14, size=(pairs, games))             # victory points
        e = rank_agreement(scores, outcomes.tolist(), resamples=60, seed=trial)
        expected = _spearman(scores, outcomes.mean(axis=1))
        assert (math.isnan(e.estimate) and math.isnan(expected)) or e.estimate == pytest.approx(expected)
        # the bootstrap, done by hand: one draw of games for every pair
        draw = np.random.default_rng(trial)
        values = []
        for _ in range(60):
            idx = draw.integers(0, games, size=games)
            r = _spearman(scores, outcomes[:, idx].mean(axis=1))
            if not math.isnan(r):
                values.append(r)
        if values:
            assert e.low == pytest.approx(np.quantile(values, 0.025))
            assert e.high == pytest.approx(np.quantile(values, 0.975))
            assert -1 <= e.low <= e.high <= 1
        assert e.n == games and e.method == "bootstrap"


def test_rank_agreement_limits_and_errors():
    same = rank_agreement([3, 2, 1], [[5, 6], [3, 4], [1, 2]], resamples=50)
    assert (same.estimate, same.low, same.high) == (1.0, 1.0, 1.0)
    assert rank_agreement([1, 2, 3], [[5, 6], [3, 4], [1, 2]], resamples=50).estimate == -1.0
    for scores, outcomes in (([1, 2], [[1, 0, 1]]), ([1, 2], [[1], [0]]), ([1], [1, 0])):
        with pytest.raises(ValueError):
            rank_agreement(scores, outcomes)
    with pytest.raises(ValueError):
        rank_agreement([1, 2], [[1, 0], [0, 1]], confidence=1.5)


def test_stored_runs_hold_what_the_script_chose():
    """The pairs are the ranking of the stored day (stored weights) at the stored places, with its scores."""
    runs = stored_ck_openings()
    assert [r.board_seed for r in runs] == [None, 19]
    assert {(len(r.pairs), r.playouts) for r in runs} == {(10, 60)}  # docs/cities_knights.md says so
    for run in runs:
        assert run.modules == ("cities_knights",) and run.players == 4 and run.bot == "value"
        assert len(run.pairs) == len(run.ranks) == len(run.scores) == len(run.wins) == len(run.vps)
        assert all(len(w) == len(v) == run.playouts for w, v in zip(run.wins, run.vps))
        assert list(run.ranks) == sorted(set(run.ranks))
        ranked = rank_openings(run.game(), run.seat, weights=run.weights)
        for rank, pair, score in zip(run.ranks, run.pairs, run.scores):
            p = ranked[rank]
            assert (int(p.first), int(p.second)) == pair and p.score == pytest.approx(score, abs=1e-6)
            assert p.kinds == ("settlement", "city")  # CK-SETUP-1
        for w, v in zip(run.wins, run.vps):
            assert all(vp >= 13 for won, vp in zip(w, v) if won)  # a win is 13 points (CK-VP-1)
            assert all(0 <= vp for vp in v)


def test_stored_runs_report_wilson_intervals_and_tables():
    run = stored_ck_openings()[0]
    sims = run.simulations()
    table = run.table()
    assert len(sims) == len(table) == len(run.pairs)
    for sim, row, wins in zip(sims, table, run.wins):
        e = estimate_proportion(sum(wins), len(wins))
        assert (sim.win_rate.low, sim.win_rate.high) == (e.low, e.high) == (row["low"], row["high"])
        assert row["wins"] == sum(wins) and row["mean_vp"] == pytest.approx(sim.vp.estimate)
    now = run.ranked_now()
    for hit, row in zip(now, table):
        assert hit is None or (row["rank"] == hit[0] + 1 and row["score"] == hit[1].score)


def test_ck_game_founds_a_settlement_then_a_city():
    g = ck_game(19)
    assert g.rules.modules == ("cities_knights",) and g.n == 4
    assert (g.founding_building(0, False)[0], g.founding_building(0, True)[0]) == ("settlement", "city")
    assert isinstance(stored_ck_openings()[1], StoredOpenings) and stored_ck_openings()[1].game().board == g.board

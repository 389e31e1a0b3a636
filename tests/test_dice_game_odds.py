"""Exact odds of the Dice Game, checked against brute force and seeded simulation."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from functools import lru_cache

import pytest

from catan_nb.constants import Resource
from catan_nb.dicegame import Kind, best_keep, best_keep_table, keep_probability, reach_probability, target_cost
from catan_nb.dicegame.constants import FACES
from catan_nb.dicegame.odds import feasible, hand_counts, multisets, solver
from catan_nb.dicegame.policies import (
    GreedyStopPolicy,
    RandomKeepPolicy,
    TargetPolicy,
    exact_expected_score,
    simulate_solitaire,
)

from test_dice_game_rules import F


# ---------------------------------------------------------------- an independent brute force
def can_pay(faces: tuple[int, ...], cost, swaps: tuple, gold: bool) -> bool:
    """Exhaustive search over every sequence of gold trades and swaps (no shortcuts)."""

    @lru_cache(maxsize=None)
    def rec(fs: tuple[int, ...], sw: tuple) -> bool:
        if all(fs.count(r) >= cost[r] for r in range(5)):
            return True
        if gold and fs.count(5) >= 2:
            rest = list(fs)
            rest.remove(5)
            rest.remove(5)
            for r in range(5):
                if rec(tuple(sorted(rest + [r])), sw):
                    return True
        for k, s in enumerate(sw):
            others = sw[:k] + sw[k + 1:]
            for d in set(fs):
                for r in (range(5) if s is None else [s]):
                    if r != d:
                        rest = list(fs)
                        rest.remove(d)
                        if rec(tuple(sorted(rest + [r])), others):
                            return True
        return False

    return rec(tuple(sorted(faces)), tuple(swaps))


def brute_force(cost, n: int, rolls: int, swaps=(), gold=True, hand=None) -> Fraction:
    """Best-keep probability by enumerating index-level keeps and ordered outcomes."""
    sw = tuple(None if s is None else Resource.parse(s).value for s in swaps)

    @lru_cache(maxsize=None)
    def value(fs: tuple[int, ...], r: int) -> Fraction:
        best = Fraction(int(can_pay(fs, cost, sw, gold)))
        if r == 0:
            return best
        for mask in range((1 << n) - 1):  # every keep but keeping all
            kept = [fs[i] for i in range(n) if mask >> i & 1]
            j = n - len(kept)
            total = sum(value(tuple(sorted(kept + list(o))), r - 1) for o in itertools.product(range(6), repeat=j))
            best = max(best, Fraction(total, 6**j))
        return best

    if hand is not None:
        return value(tuple(sorted(f.value for f in hand)), rolls)
    total = sum(value(tuple(sorted(o)), rolls - 1) for o in itertools.product(range(6), repeat=n))
    return Fraction(total, 6**n)


@pytest.mark.parametrize(
    "target, n, rolls, swaps, gold",
    [
        (Kind.ROAD, 2, 3, (), True),
        (Kind.ROAD, 2, 3, (), False),
        (Kind.ROAD, 3, 3, (), True),
        (Kind.ROAD, 3, 2, ("ore",), True),
        (Kind.KNIGHT, 3, 3, (), True),
        (Kind.KNIGHT, 3, 3, (None,), True),
        (Kind.KNIGHT, 3, 1, ("wool", "grain"), False),
        ((0, 0, 0, 0, 2), 2, 3, (), True),
    ],
)
def test_exact_odds_match_brute_force_on_small_cases(target, n, rolls, swaps, gold):
    """The multiset DP equals an index-level brute force (every keep, every ordered outcome)."""
    cost = target_cost(target)
    exact = reach_probability(target, n_dice=n, rolls_left=rolls, swaps=swaps, gold=gold)
    assert isinstance(exact, Fraction)
    assert exact == brute_force(cost, n, rolls, swaps, gold)


def test_exact_odds_from_a_hand_match_brute_force():
    for hand, target, r in [(F("ore wool gold"), Kind.KNIGHT, 2), (F("brick brick gold"), Kind.ROAD, 1),
                            (F("grain wool ore lumber"), Kind.SETTLEMENT, 1)]:
        assert reach_probability(target, hand, rolls_left=r) == brute_force(target_cost(target), len(hand), r,
                                                                            hand=hand)


def test_feasibility_matches_the_exhaustive_search():
    """Gold trades (DG-GOLD-2) and swaps (DG-KNIGHT-1, DG-KNIGHT-4) in the success test, against brute force."""
    rng = random.Random(5)
    costs = [target_cost(k) for k in (Kind.ROAD, Kind.SETTLEMENT, Kind.CITY, Kind.KNIGHT)] + [
        target_cost([Kind.ROAD, Kind.KNIGHT])]
    swap_sets = [(), (4,), (None,), (2, 3), (4, None), (None, None)]
    for m in multisets(6):
        faces = tuple(f for f in range(6) for _ in range(m[f]))
        for cost in costs:
            sw = rng.choice(swap_sets)
            for gold in (True, False):
                fixed = [0] * 5
                for s in sw:
                    if s is not None:
                        fixed[s] += 1
                anyc = sum(s is None for s in sw)
                assert feasible(m, cost, tuple(fixed), anyc, gold) == can_pay(faces, cost, sw, gold), (m, cost, sw)


def test_closed_forms():
    """P(road in one roll of six dice, gold ignored) = 1 - 2 (5/6)^6 + (4/6)^6; a city needs luck."""
    p = reach_probability(Kind.ROAD, n_dice=6, rolls_left=1, gold=False)
    assert p == 1 - 2 * Fraction(5, 6) ** 6 + Fraction(4, 6) ** 6
    one, three = (reach_probability(Kind.ROAD, rolls_left=r) for r in (1, 3))
    assert one < reach_probability(Kind.ROAD, rolls_left=2) < three < 1
    assert reach_probability(Kind.KNIGHT, n_dice=3, rolls_left=1, gold=False) == Fraction(6, 216)
    # a target that cannot fit in the dice
    assert reach_probability(Kind.SETTLEMENT, n_dice=3) == 0
    assert reach_probability(Kind.CITY, F("ore ore ore grain grain gold"), rolls_left=0) == 1


def test_swaps_and_gold_only_help():
    base = reach_probability(Kind.CITY)
    with_ore = reach_probability(Kind.CITY, swaps=[Resource.ORE])
    with_any = reach_probability(Kind.CITY, swaps=[None])
    no_gold = reach_probability(Kind.CITY, gold=False)
    assert no_gold < base < with_ore <= with_any
    from catan_nb.dicegame import DiceSheet

    k1 = DiceSheet.normal().swaps[0]
    assert reach_probability(Kind.CITY, swaps=[k1]) == with_ore


def test_best_keep_is_the_best_of_all_keeps():
    """For sample hands the advised keep gives its probability, and no keep (index subset) does better."""
    rng = random.Random(11)
    for _ in range(12):
        hand = [rng.choice(FACES) for _ in range(6)]
        for target in (Kind.ROAD, Kind.SETTLEMENT, Kind.CITY, [Kind.ROAD, Kind.KNIGHT]):
            for r in (1, 2):
                advice = best_keep(target, hand, r)
                assert keep_probability(target, hand, advice.keep if not advice.stop else range(6), r) \
                    == advice.probability
                assert advice.probability == reach_probability(target, hand, rolls_left=r)
                others = max(keep_probability(target, hand, [i for i in range(6) if m >> i & 1], r)
                             for m in range(64))
                assert others == advice.probability
                assert [hand[i] for i in advice.keep] == list(advice.faces)


def test_keeping_everything_means_stopping():
    hand = F("brick lumber ore ore ore ore")
    assert keep_probability(Kind.ROAD, hand, range(6), 2) == 1
    assert best_keep(Kind.ROAD, hand, 2).stop
    assert str(best_keep(Kind.ROAD, hand, 2)) == "stop: 100.0% (gold trades counted)"
    with pytest.raises(ValueError):
        keep_probability(Kind.ROAD, hand, [0], 0)
    with pytest.raises(ValueError):
        keep_probability(Kind.ROAD, hand, [7], 1)


def test_best_keep_table_covers_every_roll():
    table = best_keep_table(Kind.SETTLEMENT)
    assert len(table) == 462
    fresh = sum(Fraction(math.factorial(6) // math.prod(math.factorial(list(f).count(x)) for x in set(f)), 6**6)
                * a.probability for f, a in table.items())
    assert fresh == reach_probability(Kind.SETTLEMENT)
    for faces, advice in table.items():
        assert set(advice.keep) <= set(range(6)) and advice.probability == reach_probability(
            Kind.SETTLEMENT, faces, rolls_left=2)


def test_exact_odds_agree_with_seeded_simulation():
    """Playing the advised keeps with real dice (seeded) reaches the target about as often as the exact odds say."""
    rng = random.Random(2024)
    for target, swaps, trials in ((Kind.CITY, (), 3000), (Kind.SETTLEMENT, (Resource.WOOL,), 2000)):
        exact = float(reach_probability(target, swaps=swaps))
        hits = 0
        for _ in range(trials):
            hand = [rng.choice(FACES) for _ in range(6)]
            for r in (2, 1):
                advice = best_keep(target, hand, r, swaps=swaps)
                if advice.stop:
                    break
                hand = [hand[i] if i in advice.keep else rng.choice(FACES) for i in range(6)]
            hits += reach_probability(target, hand, rolls_left=0, swaps=swaps) == 1
        sd = math.sqrt(exact * (1 - exact) / trials)
        assert abs(hits / trials - exact) < 4 * sd, (target, hits / trials, exact)


def test_plus_turns_with_fewer_dice():
    """DGP-8 turns roll 3-5 dice; the same DP covers them."""
    for n in (3, 4, 5):
        s = solver(Kind.ROAD, n)
        assert len(s.success) == len(multisets(n))
    assert reach_probability(Kind.ROAD, n_dice=3) < reach_probability(Kind.ROAD, n_dice=6)
    assert reach_probability(Kind.ROAD, F("brick gold gold"), rolls_left=0) == 1


def test_hand_counts_and_target_costs():
    assert hand_counts(F("ore gold gold")) == (0, 0, 0, 0, 1, 2)
    assert target_cost(["road", "road"]) == (2, 2, 0, 0, 0)
    assert target_cost((0, 0, 0, 2, 3)) == (0, 0, 0, 2, 3)
    with pytest.raises(ValueError):
        target_cost((0, 0, 0, -1, 3))
    with pytest.raises(ValueError):
        solver(Kind.ROAD, n_dice=7)
    with pytest.raises(ValueError):
        reach_probability(Kind.ROAD, rolls_left=0)


# ================================================================ policies over a solitaire game
def test_exact_expected_score_of_one_turn_matches_simulation():
    """Exact expected score of the first turn vs the mean of seeded single-turn games (4 standard errors)."""
    for policy, games in ((GreedyStopPolicy(), 2000), (TargetPolicy(), 600)):
        exact = float(exact_expected_score(policy, turns=1))
        est = simulate_solitaire(policy, games=games, seed=77, turns=1)
        assert abs(est.mean - exact) < 4 * est.sd / math.sqrt(est.n), (type(policy).__name__, exact, str(est))


def test_exact_expected_score_two_turns_and_limits():
    two = exact_expected_score(GreedyStopPolicy(), turns=2)
    one = exact_expected_score(GreedyStopPolicy(), turns=1)
    assert isinstance(two, Fraction) and two > one
    with pytest.raises(ValueError, match="max_states"):
        exact_expected_score(GreedyStopPolicy(), turns=3, max_states=1)
    with pytest.raises(ValueError, match="deterministic"):
        exact_expected_score(RandomKeepPolicy(1))


def test_keeping_well_beats_stopping_at_once_over_whole_games():
    """Over whole solitaire games (simulated, with 95% intervals) keeping for a target beats never rerolling."""
    target = simulate_solitaire(TargetPolicy(), games=25, seed=3)
    greedy = simulate_solitaire(GreedyStopPolicy(), games=25, seed=3)
    rand = simulate_solitaire(lambda s: RandomKeepPolicy(s), games=25, seed=3)
    assert target.low > greedy.high and target.low > rand.high
    assert greedy.mean in greedy and "95% CI" in str(greedy)


def test_a_lone_gold_ties_with_rerolling_it_and_gold_trades_are_labelled():
    """Issue 10: keeping a lone gold is a tie broken toward keeping, not an advantage; tables say
    whether gold trades count (a road in one roll: 0.570 with them, 0.418 without)."""
    hand = F("ore ore grain wool gold brick")
    advice = best_keep(Kind.CITY, hand, 2)
    with_gold = keep_probability(Kind.CITY, hand, [0, 1, 2, 4], 2)
    without = keep_probability(Kind.CITY, hand, [0, 1, 2], 2)
    assert with_gold == without == advice.probability == Fraction(29, 72)
    assert F("ore ore grain") in advice.tied or tuple(sorted(F("ore ore grain"), key=lambda f: f.value)) in advice.tied
    assert "gold trades counted" in str(advice)
    assert "no gold trades" in str(best_keep(Kind.CITY, hand, 2, gold=False))
    one_roll = reach_probability(Kind.ROAD, n_dice=6, rolls_left=1)
    no_gold = reach_probability(Kind.ROAD, n_dice=6, rolls_left=1, gold=False)
    assert round(float(one_roll), 3) == 0.570 and round(float(no_gold), 3) == 0.418

"""Every number a lesson's text or its teacher notes state is checked against the library (issues 10, 27).

Each claim is a phrase that must appear in the notebook's markdown (or the teacher notes) and a check
computing it.  If a lesson is edited or the library changes, the claim fails here rather than misleading
a class.  (Numbers printed by code cells are computed by the cells themselves.)  Phrases are compared
with their whitespace collapsed, so re-wrapping a paragraph does not break them.
"""

from __future__ import annotations

import json
import statistics
from fractions import Fraction as F
from functools import lru_cache
from math import comb
from pathlib import Path

import nbformat
import networkx as nx
import numpy as np
import pytest

from catan_nb import Board, Game
from catan_nb.analysis import Hits, PlacementWeights, RollsUntil, Streak, dice_sum_distribution
from catan_nb.analysis import node_production, placement_production, rank_openings, score_intersections, token_production
from catan_nb.analysis.fairness import red_adjacency_random_tokens, red_adjacency_spiral, resource_pips
from catan_nb.analysis.longest_road import cut_lengths
from catan_nb.analysis.probability import estimate_proportion
from catan_nb.constants import Resource, pips
from catan_nb.dicegame import Face, Kind, keep_probability, reach_probability

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def markdown(name: str) -> str:
    """The text of a lesson: its teacher's edition (the lesson and its answers) where it has one."""
    teacher = NOTEBOOKS / "teacher" / f"{name}_teacher.ipynb"
    path = teacher if teacher.exists() else NOTEBOOKS / f"{name}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def notes(name: str) -> str:
    return (NOTEBOOKS / "teacher" / f"{name}.md").read_text(encoding="utf-8")


def flat(text: str) -> str:
    return " ".join(text.split())


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


@lru_cache(maxsize=None)
def _bot_turns() -> dict[str, list[int]]:
    """Lesson 1's check: turns of 20 games on the same boards and seeds, by bot."""
    from catan_nb.analysis import RandomBot, ValueBot, WeightedBot, play_game

    return {bot.__name__: [play_game(Game(Board.random(seed=s), players=4, seed=s),
                                     [bot(seed=10 * s + p) for p in range(4)]).turn for s in range(20)]
            for bot in (WeightedBot, RandomBot, ValueBot)}


def _lesson1_turns() -> bool:
    from catan_nb.analysis.probability import paired_difference

    t = _bot_turns()
    w, r, v = (statistics.mean(t[k]) for k in ("WeightedBot", "RandomBot", "ValueBot"))
    d = paired_difference(t["RandomBot"], t["WeightedBot"])
    return (round(r), round(w), round(r / w, 1), round(v), d.paired.low < 0 < d.paired.high,
            0.3 <= v / w < 0.37) == (310, 257, 1.2, 88, True, True)


@lru_cache(maxsize=None)
def _lesson14() -> tuple:
    from catan_nb.analysis import simulate
    from catan_nb.analysis.probability import paired_difference

    r = simulate(40, players=4, bots="random", seed=1, workers=1, progress=False)
    m = simulate(40, players=4, bots=("weighted", "random", "random", "random"), seed=1, workers=1, progress=False)
    wins = sum(x.winner == 0 for x in m.records)
    tail = sum(comb(40, k) * 0.25 ** k * 0.75 ** (40 - k) for k in range(wins, 41))
    d = paired_difference([x.winner == 0 for x in m.records], [x.winner == 0 for x in r.records])
    return wins, round(tail, 3), d.a_better, d.b_better, round(d.sign_test_p, 2)


def _distinct_numbers_same_distribution() -> bool:
    """Lesson 12: at equal pips, every spot with all-different numbers (1 to 3 hexes) has one distribution."""
    from itertools import combinations

    tokens = [t for t in range(2, 13) if t != 7]
    seen: dict[int, dict] = {}
    for k in (1, 2, 3):
        for combo in combinations(tokens, k):
            p = token_production(list(combo))
            if seen.setdefault(p.pips, p.distribution) != p.distribution:
                return False
    return token_production([8, 8]).distribution != token_production([6, 8]).distribution


def _robber_top() -> bool:
    from catan_nb.analysis.production import robber_table

    rows = robber_table(Game(BEGINNER, players=4, seed=1, start="beginner"), seat=0)
    top = [(e.label.split(") ")[1], e.harm(0)) for e in rows[:5]]
    hills6 = next(e for e in rows if e.label.endswith("hills 6"))
    return (top == [("hills 10", F(1, 6)), ("fields 4", F(1, 6)), ("mountains 8", F(5, 36)), ("forest 8", F(5, 36)),
                    ("fields 6", F(5, 36))] and hills6.harm(0) == 0 and hills6.losses[0] == F(5, 36))


def _cut_at_34() -> bool:
    from catan_nb.widgets.explorers import LongestRoadExplorer

    demo = LongestRoadExplorer(BEGINNER, player=0)
    demo.build_chain(13, 18, 23, 29, 34, 28, 22, 16)
    g = demo.game
    return (39 in BEGINNER.graph.adj[34] and g.building_at(39)[0] == 1
            and cut_lengths(g, 0, distance_rule=False)[34] == 4 and 34 not in cut_lengths(g, 0))


def _longest_trail(graph, blocked=()) -> int:
    best = 0

    def walk(v, used, length):
        nonlocal best
        best = max(best, length)
        if length and v in blocked:
            return
        for w in graph[v]:
            e = frozenset((v, w))
            if e not in used:
                walk(w, used | {e}, length + 1)

    for v in graph:
        walk(v, frozenset(), 0)
    return best


@lru_cache(maxsize=None)
def _six_roads() -> tuple[int, int, int, int]:
    """Teacher notes 13: connected sets of six paths on the beginner board, by longest trail."""
    g = BEGINNER.graph
    adj: dict[frozenset, set] = {frozenset(e): set() for e in g.edges()}
    for v in g.nodes:
        inc = [frozenset((v, w)) for w in g[v]]
        for x in inc:
            adj[x].update(y for y in inc if y != x)
    level = {frozenset([e]) for e in adj}
    for _ in range(5):
        level = {s | {e} for s in level for e in set().union(*(adj[x] for x in s)) - s}
    lengths = [_longest_trail(nx.Graph([tuple(e) for e in s])) for s in level]
    spider = nx.Graph([(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])
    return len(level), min(lengths), lengths.count(4), _longest_trail(spider, blocked={0})


def _fog() -> tuple:
    from catan_nb import Terrain
    from catan_nb.analysis.seafarers import fog_expected_cards, fog_odds
    from catan_nb.constants import pips
    from catan_nb.rules.modules.fog import FOG_ISLANDS

    board = Board.load(FOG_ISLANDS)
    main = [t for t in board.hexes if t.terrain is not Terrain.FOG and t.token]
    diff = fog_expected_cards(board) - sum(F(pips(t.token), 36) for t in main) / len(main)
    best_two = sorted(fog_odds(board), key=lambda tile: -pips(tile[1]))[:2]
    return diff, r3(fog_expected_cards(board)), r3(fog_expected_cards(board, best_two))


def _balanced_example() -> bool:
    from catan_nb.analysis.fairness import (NO_ADJACENT_EQUAL, balanced_board, check_constraints, fairness_report,
                                            max_draft_spread, resource_pips_between)
    from catan_nb.analysis.fairness import NO_ADJACENT_RED as RED

    wanted = [RED, NO_ADJACENT_EQUAL, resource_pips_between(10, 13), max_draft_spread(0.05)]
    b = balanced_board(seed=3, constraints=wanted)
    r = fairness_report(b)
    return all(check_constraints(b, wanted).values()) and float(r.draft.spread) < 0.05 and not r.red_adjacent


@lru_cache(maxsize=None)
def _dice_power_60() -> tuple[float, float, float]:
    """Teacher notes 16: power at 60 rolls against one die loaded on 6, by what is tested."""
    from catan_nb.analysis import chi_square_test

    loaded = np.array([1, 1, 1, 1, 1, 2]) / 7
    rng = np.random.default_rng(16)
    caught = np.zeros(3)
    n = 600
    for _ in range(n):
        a = rng.choice(np.arange(1, 7), size=60, p=loaded)
        b = rng.integers(1, 7, size=60)
        caught += [chi_square_test(list(zip(a, b))).p_value < 0.05,
                   chi_square_test(list(zip(a, b)), of="faces").p_value < 0.05,
                   chi_square_test(list(a), of="faces").p_value < 0.05]
    return tuple(caught / n)


@lru_cache(maxsize=None)
def _peeking() -> tuple[float, float, float, float]:
    """Lessons 10 and 16: fair dice looked at 20 times against once, with the seeds the lessons use."""
    from catan_nb.analysis.probability import peeking_false_alarm

    return tuple(peeking_false_alarm(looks=k, step=n, experiments=4000, seed=seed).estimate
                 for seed in (10, 16) for k, n in ((20, 50), (1, 1000)))


def _quarter_and_twentieth() -> bool:
    twenty_10, once_10, twenty_16, once_16 = _peeking()
    return all(0.2 <= x <= 0.3 for x in (twenty_10, twenty_16)) and all(0.04 <= x <= 0.06 for x in (once_10, once_16))


@lru_cache(maxsize=None)
def _power_600():
    """Lesson 10's check cell: 2,000 experiments of 600 rolls with one die loaded on 6, one test each."""
    from catan_nb.analysis import chi_square_test

    loaded = np.array([1, 1, 1, 1, 1, 2]) / 7
    r = np.random.default_rng(5)
    caught = sum(chi_square_test(list(zip(r.choice(np.arange(1, 7), size=600, p=loaded),
                                          r.integers(1, 7, size=600)))).p_value < 0.05 for _ in range(2000))
    return estimate_proportion(caught, 2000)


def _noncentral_power(n: int, alpha: float = 0.05) -> float:
    """The same power without simulation: the chi-square statistic of n rolls of the loaded pair is about
    noncentral chi-square with 10 degrees of freedom and noncentrality n * sum((q - p)^2 / p).  Both are
    computed here from scratch (even degrees of freedom have a closed-form tail)."""
    import math

    def tail(x: float, k: int) -> float:  # P(chi-square with k (even) degrees of freedom > x)
        term, total = 1.0, 0.0
        for i in range(k // 2):
            term = term * (x / 2) / i if i else 1.0
            total += term
        return math.exp(-x / 2) * total

    lo, hi = 0.0, 100.0
    for _ in range(100):
        lo, hi = ((lo + hi) / 2, hi) if tail((lo + hi) / 2, 10) > alpha else (lo, (lo + hi) / 2)
    p = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) / 36 for t in range(2, 13)}
    q = {t: sum((2 if a == 6 else 1) / 7 / 6 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in p}
    lam = n * sum((q[t] - p[t]) ** 2 / p[t] for t in p)
    return sum(math.exp(-lam / 2 + j * math.log(lam / 2) - math.lgamma(j + 1)) * tail(lo, 10 + 2 * j) for j in range(150))


def _eight_in_ten() -> bool:
    """Lesson 10 exercise 5 (b): "about 8 times in 10" (20,000 experiments give 0.82 +- 0.005)."""
    e = _power_600()
    return round(e.estimate, 1) == 0.8 and 0.75 < e.low and e.high < 0.86 and round(_noncentral_power(600), 1) == 0.8


def _more_than_a_quarter() -> bool:
    """Lesson 16: twenty looks at fair dice raise a false alarm in more than a quarter of 4,000 classes (the
    interval leaves 1/4 out), one test after 1,000 rolls in about one in twenty."""
    from catan_nb.analysis.probability import peeking_false_alarm

    twenty = peeking_false_alarm(looks=20, step=50, experiments=4000, seed=16)
    once = peeking_false_alarm(looks=1, step=1000, experiments=4000, seed=16)
    return twenty.low > 0.25 and twenty.high < 0.3 and once.low < 0.05 < once.high


@lru_cache(maxsize=None)
def _fog_over_a_game(rolls: int = 70) -> tuple:
    """Teacher notes 17: a fog hex against a known 8, per roll and over a game, from the mixture's own
    distribution (a binomial per tile, weighted by the tile's chance), not from the law of total variance."""
    from catan_nb.analysis.seafarers import fog_odds
    from catan_nb.rules.modules.fog import FOG_ISLANDS

    odds = fog_odds(Board.load(FOG_ISLANDS))

    def moments(mixture):  # mixture: [(weight, p)]: the cards of `rolls` rolls, exact
        dist: dict[int, F] = {}
        for w, p in mixture:
            for k in range(rolls + 1):
                dist[k] = dist.get(k, 0) + w * comb(rolls, k) * p ** k * (1 - p) ** (rolls - k)
        mean = sum(k * q for k, q in dist.items())
        return mean, sum((k - mean) ** 2 * q for k, q in dist.items())

    fog = [(w, F(pips(token), 36)) for (_, token), w in odds.items()]
    eight = [(F(1), F(5, 36))]
    per_roll = [sum(w * p for w, p in m) - sum(w * p for w, p in m) ** 2 for m in (fog, eight)]  # Bernoulli mixtures
    (mf, vf), (m8, v8) = moments(fog), moments(eight)
    return (r3(per_roll[0]), r3(per_roll[1]), round(float(vf) ** 0.5, 2), round(float(v8) ** 0.5, 2),
            round(float(mf), 1), round(float(m8), 1))


def _waits() -> dict:
    """Lesson 11, section 7: expected rolls to a settlement and a city for seat 0's four openings."""
    from catan_nb.analysis.waiting import starting_hand, wait_to_afford

    return {(a, b): tuple(round(float(wait_to_afford(BEGINNER, build, settlements=[a, b],
                                                      hand=starting_hand(BEGINNER, b)).expected_rolls()), 1)
                          for build in ("settlement", "city"))
            for a, b in ((31, 49), (25, 45), (40, 49), (49, 40))}


def _seat_runs() -> tuple:
    from catan_nb.analysis.simulation import stored_seat_runs

    runs = stored_seat_runs()
    halves = [(r["high"] - r["low"]) / 2 for run in runs.values() for r in run.win_rates()]
    return (runs[4].games, runs[6].games, round(runs[4].seat_test().p_value, 2), round(runs[6].seat_test().p_value, 2),
            0.012 < min(halves) and max(halves) < 0.017)


def _scarcity_alone() -> bool:
    """Lesson 11: the four 11-pip spots differ in the full score only by scarcity (and 28 by diversity)."""
    classic = PlacementWeights.classic()  # sections 2-7 of the lesson use the first, hand-set score
    parts = {r.node: r for r in score_intersections(BEGINNER, weights=classic)}
    a, b, c, d = (parts[v] for v in (31, 39, 44, 28))
    same = all(x.production == a.production and x.numbers == a.numbers and x.harbour == 0 for x in (a, b, c, d))
    return (same and a.diversity == b.diversity == c.diversity > d.diversity and a.scarcity > max(b.scarcity, c.scarcity)
            and a.diversity + a.scarcity > d.diversity + d.scarcity
            and score_intersections(BEGINNER, weights=classic)[0].node == 31)


def _classic_top4() -> list:
    return rank_openings(BEGINNER, 0, top=4, weights=PlacementWeights.classic())


def _bright_for_every_seat() -> set[int]:
    from catan_nb.analysis import placement_heat

    sets = []
    for seat in range(4):
        heat = placement_heat(BEGINNER, "opening", seat=seat, weights=PlacementWeights.classic())
        sets.append(set(sorted(heat, key=lambda v: -heat[v])[:8]))
    return set.intersection(*sets)


def _best_pairs() -> tuple[int, list]:
    g = BEGINNER.graph
    dots = {v: node_production(BEGINNER, v).pips for v in g.nodes}
    pairs = {(a, b): dots[a] + dots[b] for a in g.nodes for b in g.nodes if a < b and b not in g.adj[a]}
    best = max(pairs.values())
    return best, sorted(p for p in pairs if pairs[p] == best)


@lru_cache(maxsize=None)
def _ck19():
    """Lesson 19: the Cities & Knights game on the beginner board, its spots, rows and seat 0's ranking."""
    from catan_nb.analysis.opening_runs import ck_game
    from catan_nb.analysis.spots import SpotTable

    game = ck_game()
    return game, SpotTable(game), score_intersections(game), rank_openings(game, 0)


def _ck_city_exact(v: int) -> tuple[F, F]:
    """Lesson 19: a founding city's resource and commodity cards per roll at ``v``, exactly, from the engine's
    yields (CK-COM-2), checked against the spot table the lesson prints."""
    game, spots, _, _ = _ck19()
    res = com = F(0)
    for h in game.topology.node_hexes[v]:
        if game.hex_token[h]:
            for i, k in game.collects("city", h):
                x = k * F(pips(game.hex_token[h]), 36)
                if isinstance(game.goods[i], Resource):
                    res += x
                else:
                    com += x
    assert abs(float(res) - spots.resource_cards("city")[v]) < 1e-12
    assert abs(float(com) - spots.commodity_cards("city")[v]) < 1e-12
    return res, com


def _ck19_gain() -> tuple[int, list[tuple[int, int, int]], float]:
    """Lesson 19, section 3: of the 8 spots that gain most as a city, how many get more commodity than extra
    resource cards; the 3 that gain least (producing hexes, pips); the rank correlation of the two scores."""
    from catan_nb.analysis.probability import rank_correlation

    game, spots, rows, _ = _ck19()
    extra_res = spots.resource_cards("city") - spots.resource_cards("settlement")
    extra_com = spots.commodity_cards("city")
    by_gain = sorted(rows, key=lambda r: (-(r.city_score - r.score), r.node))
    more = sum(extra_com[int(r.node)] > extra_res[int(r.node)] for r in by_gain[:8])
    least = []
    for r in by_gain[-3:]:
        hexes = [h for h in game.topology.node_hexes[int(r.node)] if game.hex_token[h]]
        least.append((int(r.node), len(hexes), sum(pips(game.hex_token[h]) for h in hexes)))
    return more, least, rank_correlation([r.score for r in rows], [r.city_score for r in rows])


def _ck19_best_city_taken() -> bool:
    """Lesson 19, question 3: the best founding-city spot is not free for seat 0's city: an opponent takes it
    before, or seat 0's own settlement stands next to it (B-BUILD-7); so the best pair's city is elsewhere."""
    game, _, rows, ranked = _ck19()
    best_city = int(max(rows, key=lambda r: (r.city_score, -r.node)).node)
    best = ranked[0]
    gone = best_city in best.opponent_picks or best_city in game.topology.node_neighbours[int(best.first)]
    return gone and int(best.second) != best_city


@lru_cache(maxsize=None)
def _ck19_agreement() -> dict:
    """Lesson 19, section 6, as its cell computes it: per board, rho of today's score with wins and VPs (2000
    bootstrap samples, seed 19), and the paired VP difference of today's first and last pair."""
    from catan_nb.analysis.opening_runs import rank_agreement, stored_ck_openings
    from catan_nb.analysis.probability import paired_difference

    out = {}
    for run in stored_ck_openings():
        now = run.ranked_now()
        keep = [i for i, hit in enumerate(now) if hit is not None]
        scores = [now[i][1].score for i in keep]
        order = sorted(keep, key=lambda i: -now[i][1].score)
        out[run.board_seed] = {
            "wins": rank_agreement(scores, [run.wins[i] for i in keep], resamples=2000, seed=19),
            "vps": rank_agreement(scores, [run.vps[i] for i in keep], resamples=2000, seed=19),
            "first_last": paired_difference(run.vps[order[0]], run.vps[order[-1]]).paired,
        }
    return out


def _ck19_stored(board_seed, pair) -> tuple[int, int]:
    """Lesson 19: a stored pair's rank when the run was made (1 = best) and its wins."""
    from catan_nb.analysis.opening_runs import stored_ck_openings

    run = next(r for r in stored_ck_openings() if r.board_seed == board_seed)
    i = run.pairs.index(pair)
    return run.ranks[i] + 1, sum(run.wins[i])


def _ck19_top_miss(board_seed) -> tuple:
    """Lesson 19: on a board, the pair that won most games against the day's favourite, game by game: (pair, its
    place, its wins, the favourite, its wins, games won by only the one, by only the other, sign test p)."""
    from catan_nb.analysis.opening_runs import stored_ck_openings
    from catan_nb.analysis.probability import paired_difference

    run = next(r for r in stored_ck_openings() if r.board_seed == board_seed)
    fav = run.ranks.index(0)
    most = max(range(len(run.pairs)), key=lambda i: (sum(run.wins[i]), -i))
    d = paired_difference(run.wins[most], run.wins[fav])
    return (run.pairs[most], run.ranks[most] + 1, sum(run.wins[most]), run.pairs[fav], sum(run.wins[fav]),
            d.a_better, d.b_better, round(d.sign_test_p, 2))


def _rho(board_seed, what) -> tuple[float, float, float]:
    e = _ck19_agreement()[board_seed][what]
    return tuple(round(x, 2) for x in (e.estimate, e.low, e.high))


CLAIMS = {
    "09_unplugged_start": [
        ("$6 \\times 36 / 36 = 6$", lambda: 36 * dice_sum_distribution()[7] == 6),
        ("Less than one pair in five: $P(\\text{exactly six 7s in 36 rolls}) \\approx 0.176$", lambda: r3(
            Hits(7, rolls=36, exactly=6).exact()) == 0.176),
        ("Six is the most likely count", lambda: max(range(37), key=lambda k: Hits(7, rolls=36, exactly=k).exact()) == 6),
        ("$(35/36)^{36} \\approx 0.363$", lambda: r3(Hits(12, rolls=36, at_most=0).exact()) == 0.363),
        ("two or more see none in about 9 classes out of 10", lambda: round(float(
            1 - sum(comb(10, k) * Hits(12, rolls=36, at_most=0).exact() ** k
                    * (1 - Hits(12, rolls=36, at_most=0).exact()) ** (10 - k) for k in (0, 1))), 1) == 0.9),
        ("Four intersections touch 11 dots each (28, 31, 39 and 44)", lambda: _tie_at_top() == [28, 31, 39, 44]),
        ("any two of them that are not neighbours give 22 dots", lambda: _best_pairs()[0] == 22),
        ("39 and 44 are neighbours, so the distance rule forbids that pair; the other five pairs are allowed",
         lambda: 44 in BEGINNER.graph.adj[39] and _best_pairs()[1] == [(28, 31), (28, 39), (28, 44), (31, 39), (31, 44)]),
    ],
    "17_seafarers_fog_and_gold": [
        ("one card in more than a thousand rolls", lambda: _fog()[0] == F(1, 1296)),
        ("a game has about a hundred", lambda: 80 <= statistics.mean(_bot_turns()["ValueBot"]) <= 110),
        ("about 0.079 cards per roll against 0.090 before", lambda: _fog()[1:] == (0.09, 0.079)),
    ],
    "18_cities_knights_barbarians": [
        ("the most likely rolls for the attack (12 and 13) earlier than the mean", lambda: __import__(
            "catan_nb.analysis.probability", fromlist=["x"]).most_likely(__import__(
                "catan_nb.analysis.barbarians", fromlist=["x"]).arrival_distribution(horizon=40)) == (12, 13)
         and __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() > 13),
        ("12 and 13, exactly tied", lambda: __import__("catan_nb.analysis.probability", fromlist=["x"]).most_likely(
            __import__("catan_nb.analysis.barbarians", fromlist=["x"]).arrival_distribution(horizon=40)) == (12, 13)),
        ("On average 14 rolls", lambda: __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() == 14),
        ("$14/4 = 3.5$", lambda: __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() / 4 == F(7, 2)),
        ("8 (the barbarians' strength is the 8 cities", lambda: __import__(
            "catan_nb.analysis.barbarians", fromlist=["x"]).knights_to_hold(8, 0) == 8),
        ("the barbarians land every three", lambda: 3 <= __import__("catan_nb.analysis.barbarians", fromlist=["x"]).expected_rolls() / 4 <= 4),
    ],
    "19_cities_knights_openings": [
        ("**31** (forest\n3, mountains 8, pasture 5) and **44** (mountains 3, hills 5, fields 6)", lambda: [
            sorted((str(_ck19()[0].hex_terrain[h]), _ck19()[0].hex_token[h]) for h in _ck19()[0].topology.node_hexes[v]
                   if _ck19()[0].hex_token[h]) for v in (31, 44)] == [
            [("forest", 3), ("mountains", 8), ("pasture", 5)], [("fields", 6), ("hills", 5), ("mountains", 3)]]),
        ("both touch 11 pips", lambda: node_production(BEGINNER, 31).pips == node_production(BEGINNER, 44).pips == 11),
        ("At 31: $11/36 \\approx 0.306$ resource cards and $11/36 \\approx 0.306$ commodities per roll",
         lambda: _ck_city_exact(31) == (F(11, 36), F(11, 36)) and r3(F(11, 36)) == 0.306),
        ("At 44: $20/36 \\approx 0.556$ resource cards and only $2/36 \\approx 0.056$ commodities",
         lambda: _ck_city_exact(44) == (F(20, 36), F(2, 36)) and (r3(F(20, 36)), r3(F(2, 36))) == (0.556, 0.056)),
        ("Both collect $22/36$ cards per roll in\nall, twice a settlement's $11/36$", lambda: sum(_ck_city_exact(31))
         == sum(_ck_city_exact(44)) == F(22, 36) == 2 * node_production(BEGINNER, 31).total),
        ("then seats 1, 2 and 3 place their settlements, and 3, 2\nand 1 their cities — six buildings", lambda: __import__(
            "catan_nb.analysis.placement", fromlist=["x"]).founding_order(4) == (0, 1, 2, 3, 3, 2, 1, 0)
         and len(rank_openings(_ck19()[0], 0, top=1)[0].opponent_picks) == 6),
        ("the six best by the score of the day and four further down\nthe ranking (10th, 25th, 50th and 100th)",
         lambda: all(r.ranks == (0, 1, 2, 3, 4, 5, 9, 24, 49, 99) for r in __import__(
             "catan_nb.analysis.opening_runs", fromlist=["x"]).stored_ck_openings())),
        ("(13 points, at most 400 turns) 60 times", lambda: __import__(
            "catan_nb.rules.modules.cities_knights", fromlist=["x"]).VP_TARGET == 13 and all(
            (r.max_turns, r.playouts) == (400, 60) for r in __import__(
                "catan_nb.analysis.opening_runs", fromlist=["x"]).stored_ck_openings())),
        ("stopped at\n400 turns", lambda: all(r.max_turns == 400 for r in __import__(
            "catan_nb.analysis.opening_runs", fromlist=["x"]).stored_ck_openings())),
        ("On the beginner board the score and the games agree: both bootstrap intervals of $\\rho$ lie above 0",
         lambda: min(_ck19_agreement()[None]["wins"].low, _ck19_agreement()[None]["vps"].low) > 0),
        ("($\\rho$ for the wins 0.80, interval 0.56 to 0.89)", lambda: _rho(None, "wins") == (0.80, 0.56, 0.89)),
        ("the pair the score puts first among the ten beats the\n  pair it puts last game by game",
         lambda: _ck19_agreement()[None]["first_last"].low > 0),
        ("The pair placed 100th, 0 + 41, won none of its 60 games", lambda: _ck19_stored(None, (0, 41)) == (100, 0)),
        ("$\\rho$ for the wins is 0.17 with a wide interval (−0.33 to 0.68)", lambda: _rho(19, "wins") == (0.17, -0.33, 0.68)),
        ("The victory points, a finer measure,\n  still agree ($\\rho$ 0.64, its interval above 0), and first beats last by about 2 points a game",
         lambda: _rho(19, "vps")[0] == 0.64 and _ck19_agreement()[19]["vps"].low > 0
         and round(_ck19_agreement()[19]["first_last"].estimate) == 2 and _ck19_agreement()[19]["first_last"].low > 0),
        ("25 + 36, placed 2nd, won 27 of 60 against the favourite's 18, but the games won by only one of\n  them split 16 to 7, p = 0.09",
         lambda: _ck19_top_miss(None) == ((25, 36), 2, 27, (25, 41), 18, 16, 7, 0.09)),
        ("not even the 0.05 bar of a comparison fixed in advance", lambda: _ck19_top_miss(None)[-1] > 0.05),
        ("On the random board 13 + 14, placed 6th, won 20 against 15, p = 0.44",
         lambda: _ck19_top_miss(19)[:5] == ((13, 14), 6, 20, (45, 34), 15) and _ck19_top_miss(19)[-1] == 0.44),
        ("the score put 25 + 41 first, and 25 + 36 won 27 games to its 18", lambda: _ck19_top_miss(None)[:5] == (
            (25, 36), 2, 27, (25, 41), 18)),
        ("among ten pairs there are 45 comparisons", lambda: comb(10, 2) == 45),
        ("most of the 8 spots at the top of\nthe gain table get more commodity than extra resource cards", lambda: _ck19_gain()[0] >= 5),
        ("The spots that gain least touch a single producing\nhex with few pips", lambda: all(
            k == 1 and p <= 3 for _, k, p in _ck19_gain()[1])),
        ("(a rank correlation above\n0.9)", lambda: _ck19_gain()[2] > 0.9),
        ("the greedy model gives the best spots to them — or seat 0's own settlement, next to the spot, shuts it\nby the distance rule",
         _ck19_best_city_taken),
        ("so the best pair's city is a spot further down the city list", _ck19_best_city_taken),
        ("about ±0.11 (15 wins of 60)", lambda: round(estimate_proportion(15, 60).half_width, 2) == 0.11),
        ("needs about 288 games", lambda: round(1.96 ** 2 * 0.25 * 0.75 / 0.05 ** 2) == 288),
        ("\\approx 576$ games per pair", lambda: round(2 * 1.96 ** 2 * 0.25 * 0.75 / 0.05 ** 2) == 576),
        ("Of the games won by only one of the two, 25 + 36 won 16 and 25 + 41\nwon 7: the sign test gives p = 0.09",
         lambda: _ck19_top_miss(None)[5:] == (16, 7, 0.09)),
        ("among 45 (Bonferroni bar 0.0011)", lambda: comb(10, 2) == 45 and round(0.05 / 45, 4) == 0.0011),
        ("both intervals of $\\rho$ lie above 0 and first\nbeats last by a clear paired margin",
         lambda: min(_ck19_agreement()[None]["wins"].low, _ck19_agreement()[None]["vps"].low,
                     _ck19_agreement()[None]["first_last"].low) > 0),
        ("($\\rho$ 0.17, interval −0.33 to\n0.68)", lambda: _rho(19, "wins") == (0.17, -0.33, 0.68)),
    ],
    "01_engine_tour": [
        ("7 has six ways but no number token", lambda: dice_sum_distribution()[7] == F(6, 36)
         and all(t.token != 7 for b in (BEGINNER, Board.random(seed=1)) for t in b.hexes)),
        ("Four intersections tie at 11 pips (11/36 cards per roll): 28, 31, 39 and 44", lambda: _tie_at_top() == [28, 31, 39, 44]),
        ("310 turns on average for random bots against 257 for weighted bots: about 1.2 times as long", _lesson1_turns),
        ("the interval of the difference (game by game) still contains 0", _lesson1_turns),
        ("about a third of the weighted bots' turns (88 on average)", _lesson1_turns),
    ],
    "10_dice_and_large_numbers": [
        ("6 ways out\nof 36", lambda: dice_sum_distribution()[7] == F(6, 36)),
        ("$6 \\times 6 = 36$", lambda: len(dice_sum_distribution()) == 11 and sum(dice_sum_distribution().values()) == 1),
        ("(6/36 = 1/6)", lambda: dice_sum_distribution()[7] == F(1, 6) == max(dice_sum_distribution().values())),
        ("$(35/36)^{36} \\approx 0.363$", lambda: r3(Hits(12, rolls=36, at_most=0).exact()) == 0.363),
        ("a fraction of 56 digits over 57", lambda: "56 digits over 57" in str(Hits(12, rolls=36, at_most=0).exact())),
        ("\\approx 2{,}333$ rolls", lambda: round((2 * SIGMA / 0.1) ** 2) == 2333),
        ("value bots finish one in about 90", lambda: 80 <= statistics.mean(_bot_turns()["ValueBot"]) <= 100),
        ("falls below 0.05 at least once in about a quarter of the runs", _quarter_and_twentieth),
        ("against one run in twenty for a single test", _quarter_and_twentieth),
        ("the test catches this loaded die about 8 times in 10", _eight_in_ten),
        ("at most about 2 percentage points", lambda: round(max(
            abs(sum((2 if a == 6 else 1) / 7 / 6 for a in range(1, 7) for b in range(1, 7) if a + b == t) - float(p))
            for t, p in dice_sum_distribution().items()), 2) == 0.02),
    ],
    "11_expected_value_where_to_build": [
        ("$2 + 5 + 4 = 11$ pips", lambda: node_production(BEGINNER, 31).pips == 11),
        ("$11/36 \\approx 0.306$", lambda: node_production(BEGINNER, 31).total == F(11, 36) and r3(F(11, 36)) == 0.306),
        ("$14/36 \\approx 0.389$", lambda: token_production([6, 8, 5]).total == F(14, 36) and r3(F(14, 36)) == 0.389),
        ("Four spots tie at 11 pips", lambda: _tie_at_top() == [28, 31, 39, 44]),
        ("a pip is $1/36 \\approx 0.028$", lambda: r3(F(1, 36)) == 0.028),
        ("With 16 games each interval is about ±0.2 wide", lambda: all(
            0.15 <= (_wilson(k, 16)[1] - _wilson(k, 16)[0]) / 2 <= 0.25 for k in range(2, 15))),
        ("Sixteen games leave each win rate's interval about ±0.2 wide", lambda: all(
            0.15 <= (_wilson(k, 16)[1] - _wilson(k, 16)[0]) / 2 <= 0.25 for k in range(2, 15))),
        ("for seat 0, 40 + 49 and 49 + 40", lambda: [(p.first, p.second) for p in _classic_top4()][2:]
         == [(40, 49), (49, 40)] and _classic_top4()[2].score == _classic_top4()[3].score),
        ("The score's favourite, 31 + 49", lambda: (_classic_top4()[0].first, _classic_top4()[0].second) == (31, 49)),
        ("The lesser of ore and grain (`cities`) has the largest weight, with the least of ore, grain and wool\n(`cards`) close behind",
         lambda: sorted(("roads", "cities", "cards"), key=lambda k: -getattr(PlacementWeights(), k))[:2] == ["cities", "cards"]
         and PlacementWeights().cities - PlacementWeights().cards < 0.1 * PlacementWeights().cities),
        ("What puts 31 alone at the top is **scarcity** alone", _scarcity_alone),
        ("ore and wool (10 pips each, lesson 15)", lambda: sorted(resource_pips(BEGINNER).items(), key=lambda kv: kv[1])[:2]
         == [(Resource.WOOL, 10), (Resource.ORE, 10)]),
        ("28, 33, 40 and 49 are among the eight brightest for every seat", lambda: _bright_for_every_seat() == {28, 33, 40, 49}),
        ("The score's favourite, 31 + 49, is the slowest of the four to a settlement", lambda: max(
            _waits(), key=lambda k: _waits()[k][0]) == (31, 49)),
        ("neither 31 nor 49 touches a hills hex", lambda: not any(
            BEGINNER.hexes[h].terrain.name == "HILLS" for v in (31, 49) for h in BEGINNER.topology.node_hexes[v])),
        ("pays for a city after about 9 rolls on average, the soonest of the four", lambda: _waits()[49, 40][1] == 9.1
         and min(_waits(), key=lambda k: _waits()[k][1]) == (49, 40)),
        ("40 + 49 starts with a grain and a wool and waits about 15.5", lambda: _waits()[40, 49][1] == 15.5),
        ("With trades about 14.5 rolls on average", lambda: _waits()[31, 49][0] == 14.5),
        ("up to $8 \\times 5\\% = 40\\%$", lambda: 2 * 2 * 2 == 8 and round(8 * 0.05, 2) == 0.4),
        ("$0.05/8 \\approx 0.006$", lambda: round(0.05 / 8, 3) == 0.006),
        ("(18 pips, 0.5 cards per roll)", lambda: placement_production(BEGINNER, settlements=[31, 49]).total == F(1, 2)),
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
        ("At equal pips every such spot has the *same* distribution, however many hexes it touches",
         _distinct_numbers_same_distribution),
        ("carry only 3 pips each (hills 10 and fields 4, tied)", _robber_top),
        ("$2 \\times 3/36 = 1/6$ each", _robber_top),
        ("The 8s and the fields 6 touch one opponent's settlement each: $5/36$, less", _robber_top),
        ("the hills 6, scores nothing", _robber_top),
    ],
    "13_longest_road_graphs": [
        ("54 intersections and 72 paths", lambda: (BEGINNER.graph.number_of_nodes(), BEGINNER.graph.number_of_edges()) == (54, 72)),
        ("gives `{23: 5, 29: 4}`", lambda: _red_line_cuts() == (7, {23: 5, 29: 4})),
        ("34 is next to blue's settlement at 39", _cut_at_34),
    ],
    "14_what_simulation_tells_us": [
        ("spans about ±0.13", lambda: round(estimate_proportion(10, 40).half_width, 2) == 0.13),
        ("\\approx 288$ games", lambda: round(1.96 ** 2 * 0.25 * 0.75 / 0.05 ** 2) == 288),
        ("15 wins of 40 or more would happen with probability about 0.054", lambda: _lesson14()[:2] == (15, 0.054)),
        ("won 10 games the random bot lost and lost 4 it won (a sign test gives p = 0.18)",
         lambda: _lesson14()[2:] == (10, 4, 0.18)),
    ],
    "15_is_this_board_fair": [
        ("$\\binom{18}{4} = 3060$", lambda: comb(18, 4) == 3060),
        ("50,160 of the 58,140 set-ups (about 86%)", lambda: (red_adjacency_random_tokens().favourable,
                                                             red_adjacency_random_tokens().total) == (50160, 58140)
         and round(float(red_adjacency_random_tokens().probability), 2) == 0.86),
        ("0 of 114 set-ups", lambda: (red_adjacency_spiral().favourable, red_adjacency_spiral().total) == (0, 114)),
        ("no red neighbours and a draft spread below 0.05 cards per roll", _balanced_example),
        ("touching two 6s, it gets as many cards on average, but only on the 5 rolls of a 6", lambda: token_production(
            [6, 6]).total == token_production([6, 8]).total and token_production([6, 6]).p_any == F(5, 36)
         and token_production([6, 8]).p_any == F(10, 36)),
        ("Wool and ore, with 10 pips each", lambda: sorted(resource_pips(BEGINNER).items(), key=lambda kv: kv[1])[:2]
         == [(Resource.WOOL, 10), (Resource.ORE, 10)] and sorted(resource_pips(BEGINNER).values())[2] > 10),
    ],
    "16_your_own_dice": [
        ("$n \\ge 180$", lambda: 180 * dice_sum_distribution()[2] == 5),
        ("Twenty looks turn one false alarm in twenty into more than one in four", _more_than_a_quarter),
        ("more than a quarter with twenty looks (section 1)", _more_than_a_quarter),
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
        ("$1 - 0.95^{10} \\approx 0.40$", lambda: round(1 - 0.95 ** 10, 2) == 0.40),
        ("3,000 games at each player count", lambda: _seat_runs()[:2] == (3000, 3000)),
        ("p ≈ 0.97 at four players and 0.73 at six", lambda: _seat_runs()[2:4] == (0.97, 0.73)),
        # issue 39 item 2: the goal says what the lesson does (no interval compares six players with four)
        ("ask whether the seat you sit in matters: one chi-square test at four players and one at six", lambda: sorted(
            __import__("catan_nb.analysis.simulation", fromlist=["x"]).stored_seat_runs()) == [4, 6] and all(
            run.seat_test().dof == players - 1 for players, run in __import__(
                "catan_nb.analysis.simulation", fromlist=["x"]).stored_seat_runs().items())),
    ],
}


def _ck_yields() -> dict:
    """What a Cities & Knights city takes from each terrain, by the terrain's name (CK-COM-2)."""
    from catan_nb.rules.modules.cities_knights import CITY_YIELDS

    return {str(t): goods for t, goods in CITY_YIELDS.items()}


#: The numbers of the exit tickets' answers (issue 39), by lesson: checked with the other claims.
EXIT_CLAIMS = {
    "01_engine_tour": [
        ("54 intersections and 72 paths on the base island", lambda: (BEGINNER.graph.number_of_nodes(),
                                                                       BEGINNER.graph.number_of_edges()) == (54, 72)),
        ("6, with 5 ways against 3 for 10: 2 more ways out of 36", lambda: (36 * dice_sum_distribution()[6],
                                                                             36 * dice_sum_distribution()[10]) == (5, 3)),
    ],
    "09_unplugged_start": [
        ("more of the 36 outcomes of two dice give it (6 of them) than any other total", lambda: sorted(
            dice_sum_distribution().values())[-1] == F(6, 36) > sorted(dice_sum_distribution().values())[-2]
         and max(dice_sum_distribution(), key=dice_sum_distribution().get) == 7),
        ("exactly six happens to less than one pair in five", lambda: Hits(7, rolls=36, exactly=6).exact() < F(1, 5)),
        ("$4 + 5 + 3 = 12$ dots: about 12 cards in 36 rolls", lambda: (pips(5), pips(8), pips(10)) == (4, 5, 3)
         and 36 * token_production([5, 8, 10]).total == 12),
    ],
    "10_dice_and_large_numbers": [
        ("$3/36 = 1/12$: three of the 36 outcomes, (1,3), (2,2) and (3,1)", lambda: dice_sum_distribution()[4] == F(1, 12)
         and [(a, b) for a in range(1, 7) for b in range(1, 7) if a + b == 4] == [(1, 3), (2, 2), (3, 1)]),
        ("ten times narrower than after 100 rolls", lambda: (10_000 / 100) ** 0.5 == 10),
        ("one class in twenty with fair dice gets p < 0.05 too", _quarter_and_twentieth),
    ],
    "11_expected_value_where_to_build": [
        ("Pips $3 + 4 + 3 = 10$, so $10/36 \\approx 0.278$ cards per roll", lambda: token_production([4, 9, 10]).pips == 10
         and r3(token_production([4, 9, 10]).total) == 0.278),
        ("six picks before seat 0's second", lambda: __import__(
            "catan_nb.analysis.placement", fromlist=["x"]).founding_order(4).index(0, 1) - 1 == 6),
    ],
    "12_risk_variance_robber": [
        ("The same mean, 10/36 cards per roll", lambda: token_production([6, 8]).total == token_production([6, 6]).total
         == F(10, 36)),
        ("two cards on the same 5 rolls in 36 and nothing on the others; X pays one card on 10 rolls in 36", lambda:
         token_production([6, 6]).distribution == {0: F(31, 36), 2: F(5, 36)} and token_production([6, 8]).p_any == F(10, 36)),
        ("$(31/36)^6 \\approx 0.408$", lambda: Hits(6, rolls=6, at_most=0).exact() == F(31, 36) ** 6
         and r3(F(31, 36) ** 6) == 0.408),
    ],
    "14_what_simulation_tells_us": [
        ("Four times as many, about 160", lambda: abs(estimate_proportion(40, 160).half_width
                                                      - estimate_proportion(10, 40).half_width / 2) < 0.003),
        ("12 wins of 40 is well within what a fair 25% gives (its interval contains 0.25)", lambda: estimate_proportion(
            12, 40).low < 0.25 < estimate_proportion(12, 40).high),
    ],
    "15_is_this_board_fair": [
        ("collects on 10 rolls in 36 from those two hexes alone", lambda: token_production([6, 8]).p_any == F(10, 36)),
    ],
    "16_your_own_dice": [
        ("$60 \\times 6/36 = 10$", lambda: 60 * dice_sum_distribution()[7] == 10),
    ],
    "17_seafarers_fog_and_gold": [
        ("\\frac{11}{144} \\approx 0.076$ cards per roll", lambda: F(1, 4) * token_production([6]).total + F(3, 4)
         * token_production([3]).total == F(11, 144) and r3(F(11, 144)) == 0.076),
    ],
    "18_cities_knights_barbarians": [
        ("2 rolls: the mean wait for a chance of 1/2", lambda: __import__(
            "catan_nb.analysis.barbarians", fromlist=["x"]).SHIP_CHANCE == F(1, 2) and RollsUntil(7).exact() == 6),
        ("$1 - (1/2)^2 = 3/4$", lambda: __import__("catan_nb.analysis.barbarians", fromlist=["x"]).attack_within(
            2, position=__import__("catan_nb.rules.modules.cities_knights", fromlist=["x"]).BARBARIAN_TRACK - 1) == F(3, 4)),
        ("Catan: a tie goes to Catan", lambda: __import__("catan_nb.analysis.barbarians", fromlist=["x"]).knights_to_hold(
            6, 6) == 0 and __import__("catan_nb.analysis.barbarians", fromlist=["x"]).knights_to_hold(6, 5) == 1),
    ],
    "19_cities_knights_openings": [
        ("One lumber and one paper", lambda: [(str(g), k) for g, k in _ck_yields()["forest"]] == [("lumber", 1), ("paper", 1)]),
        ("$2 \\times (5 + 4)/36 = 1/2$ resource card per roll (fields and hills give their resource twice)",
         lambda: all([k for _, k in _ck_yields()[t]] == [2] for t in ("fields", "hills"))
         and 2 * token_production([8, 5]).total == F(1, 2) and (pips(8), pips(5)) == (5, 4)),
        ("with 60 games a win rate near 0.25 is known only to about ±0.11", lambda: round(
            estimate_proportion(15, 60).half_width, 2) == 0.11),
    ],
    "20_dice_game_conditional": [
        ("$1 - (5/6)^6 \\approx 0.665$", lambda: r3(1 - F(5, 6) ** 6) == 0.665),
    ],
    "21_dice_game_stopping": [
        ("A turn without a build scores −2", lambda: __import__("catan_nb.dicegame.constants", fromlist=["x"]).NO_BUILD_PENALTY
         == -2),
    ],
    "30_six_players": [
        ("$1 - (5/6)^4 = 671/1296 \\approx 0.518$", lambda: 1 - F(5, 6) ** 4 == F(671, 1296) and r3(F(671, 1296)) == 0.518),
    ],
}
for _name, _claims in EXIT_CLAIMS.items():
    CLAIMS.setdefault(_name, []).extend(_claims)



#: Numbers the teacher notes state outside their answer keys (the keys are the teacher's editions' answers,
#: checked above with the lessons).
NOTE_CLAIMS = {
    "09_unplugged_start": [
        ("(more than a third of fair pairs see none)", lambda: Hits(12, rolls=36, at_most=0).exact() > F(1, 3)),
        ("a 2 and a 12 add one dot each", lambda: pips(2) == pips(12) == 1),
    ],
    "01_engine_tour": [
        ("(54 and 72)", lambda: (BEGINNER.graph.number_of_nodes(), BEGINNER.graph.number_of_edges()) == (54, 72)),
        ("$54 - 72 + 20 = 2$", lambda: BEGINNER.graph.number_of_nodes() - BEGINNER.graph.number_of_edges()
         + len(BEGINNER.hexes) + 1 == 2),
        ("their games last about three times as long as the value bots'", lambda: all(
            2.5 <= statistics.mean(_bot_turns()[b]) / statistics.mean(_bot_turns()["ValueBot"]) <= 3.6
            for b in ("WeightedBot", "RandomBot"))),
    ],
    "02_play_a_game": [
        ("$10 \\times 10/36 \\approx 2.8$ times in ten rolls", lambda: round(10 * 10 / 36, 1) == 2.8
         and token_production([6, 8]).p_any == F(10, 36)),
        ("only about 1 time in 10", lambda: 0.06 <= _dice_power_60()[0] <= 0.15),
        ("$5/36 \\approx 0.14$ cards per roll", lambda: token_production([6]).total == F(5, 36) and round(5 / 36, 2) == 0.14),
        ("every $36/5 = 7.2$ rolls — about one every two rounds at four players", lambda: F(36, 5) == F(72, 10)
         and round(7.2 / 4) == 2),
    ],
    "10_dice_and_large_numbers": [
        ("with twenty looks fair dice fail about a quarter of the time", _quarter_and_twentieth),
        ('against "about a quarter"', _quarter_and_twentieth),
    ],
    "11_expected_value_where_to_build": [
        ("a 2 and a 12 add two pips only", lambda: pips(2) + pips(12) == 2),
    ],
    "12_risk_variance_robber": [
        ("a 22% drought chance", lambda: round(float(Hits(8, rolls=10, at_most=0).exact()), 2) == 0.22),
    ],
    "13_longest_road_graphs": [
        ("Of the 3,649 connected sets of six paths on the board, 606 have a longest trail of exactly 4 and none less",
         lambda: _six_roads()[:3] == (3649, 4, 606)),
        ("bring it down to 2", lambda: _six_roads()[3] == 2),
    ],
    "14_what_simulation_tells_us": [
        ("from about 0.22 to 0.50 and contains 0.25", lambda: (round(estimate_proportion(14, 40).low, 2),
                                                              round(estimate_proportion(14, 40).high, 2)) == (0.22, 0.50)),
    ],
    "16_your_own_dice": [
        ("fail at least once in more than a quarter of classes", _more_than_a_quarter),
        ("about 4 times in 10, against about 1 in 10 for the totals", lambda: 0.33 <= _dice_power_60()[2] <= 0.47
         and 0.06 <= _dice_power_60()[0] <= 0.15),
        ("dilutes the loaded one (about 2 in 10)", lambda: 0.15 <= _dice_power_60()[1] <= 0.27),
    ],
    "17_seafarers_fog_and_gold": [
        ("the smaller variance (0.082 against 0.120 cards²)", lambda: _fog_over_a_game()[:2] == (0.082, 0.12)),
        ("a standard deviation of 3.04 against 2.89 for the known 8", lambda: _fog_over_a_game()[2:4] == (3.04, 2.89)),
        ("a smaller mean (6.3 cards against 9.7)", lambda: _fog_over_a_game()[4:] == (6.3, 9.7)),
    ],
    "18_cities_knights_barbarians": [
        ("$E_i = 2 + E_{i+1}$", lambda: 1 / __import__("catan_nb.analysis.barbarians", fromlist=["x"]).SHIP_CHANCE == 2),
    ],
    "19_cities_knights_openings": [
        ("(1,200 games: a good half hour on one core)", lambda: sum(len(r.pairs) * r.playouts for r in __import__(
            "catan_nb.analysis.opening_runs", fromlist=["x"]).stored_ck_openings()) == 1200),
    ],
    "20_dice_game_conditional": [
        ("derive 0.418 on the board; then the engine's 0.570", lambda: (
            r3(reach_probability(Kind.ROAD, n_dice=6, rolls_left=1, gold=False)), r3(reach_probability(Kind.ROAD, n_dice=6, rolls_left=1)))
         == (0.418, 0.570)),
    ],
    "21_dice_game_stopping": [
        ("gives the same 29/72", lambda: keep_probability(Kind.CITY, HAND, [0, 1, 2], 2)
         == keep_probability(Kind.CITY, HAND, [0, 1, 2, 4], 2) == F(29, 72)),
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
    text = flat(markdown(name))
    for phrase, check in CLAIMS[name]:
        assert flat(phrase) in text, f"{name}: the text no longer says {phrase!r}"
        assert check(), f"{name}: {phrase!r} is not what the library computes"


@pytest.mark.parametrize("name", sorted(NOTE_CLAIMS))
def test_every_number_in_the_teacher_notes_holds(name):
    text = flat(notes(name))
    for phrase, check in NOTE_CLAIMS[name]:
        assert flat(phrase) in text, f"teacher notes {name}: the text no longer says {phrase!r}"
        assert check(), f"teacher notes {name}: {phrase!r} is not what the library computes"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.rglob("*.ipynb")), ids=lambda p: p.name)
def test_every_notebook_is_valid_and_committed_clean(path):
    """Issue 25 item 13, issue 27: valid nbformat (no outputs on markdown cells), outputs cleared, no widget state."""
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert nb.nbformat == 4 and all(c.get("id") for c in nb.cells), path.name
    for c in nb.cells:
        if c.cell_type == "code":
            assert c.outputs == [] and c.execution_count is None, (path.name, c.id, "commit with outputs cleared")
    assert "widgets" not in nb.metadata, (path.name, "saved widget state: clear it before committing")


def test_lesson_1s_table_draws_the_ways_as_dots():
    """Issue 39 item 6: lesson 1 says the dots count the ways out of 36, and its table prints them for every total,
    7 included (six dots, no number token)."""
    import contextlib
    import io

    cells = nbformat.read(NOTEBOOKS / "01_engine_tour.ipynb", as_version=4).cells
    code = next(c.source for c in cells if c.cell_type == "code" and "roll_probability" in c.source and "for total" in c.source)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})
    lines = {int(line.split()[0]): line for line in out.getvalue().splitlines()}
    assert sorted(lines) == list(range(2, 13))
    for total, line in lines.items():
        assert line.count("●") == 36 * dice_sum_distribution()[total], line
    assert lines[7].count("●") == 6


def test_the_stored_seat_runs_replay():
    """Lesson 30 reads stored winners: a sample of games, replayed, has the same winners."""
    from catan_nb.analysis.simulation import stored_seat_runs

    for run in stored_seat_runs().values():
        assert run.games == len(run.winners) and run.check([7, 1234, run.games - 1])


def test_the_stored_openings_are_lesson_11s_playouts():
    """Lesson 11, section 6, reads stored playouts (issue 39: the value bots' games take too long for a class):
    they are the score's four best openings; the random bots' are what a live call returns, row for row, and a
    sample of the value bots' games, replayed, gives the stored results (all of them: on demand)."""
    from catan_nb.analysis import simulate_openings
    from catan_nb.analysis.placement import StoredOpenings, stored_openings

    runs = stored_openings()
    top4 = [(int(p.first), int(p.second)) for p in _classic_top4()]
    assert sorted(runs) == ["random", "value"] and all(list(run.pairs) == top4 for run in runs.values())
    assert all(run.playouts == 16 and run.seed == 11 and run.weights == "classic" for run in runs.values())
    assert simulate_openings(progress=False, **runs["random"].call()) == runs["random"].rows()
    assert runs["value"].check([15])  # the lesson replays game 0, this test another
    assert all(StoredOpenings.decode(run.encode()) == run.results for run in runs.values())
    wrong = StoredOpenings(**{**runs["random"].__dict__, "results": tuple(
        tuple((not w, u, f, v) for w, u, f, v in pair) for pair in runs["random"].results)})
    assert not wrong.check([0])


@pytest.mark.on_demand
def test_all_the_stored_value_bot_openings_replay():
    from catan_nb.analysis import simulate_openings
    from catan_nb.analysis.placement import stored_openings

    run = stored_openings()["value"]
    assert simulate_openings(progress=False, **run.call()) == run.rows()


def test_the_stored_openings_of_lesson_19_replay():
    """Lesson 19 reads stored playouts: a sample of games, replayed, has the same results (one per board)."""
    from catan_nb.analysis.opening_runs import stored_ck_openings

    runs = stored_ck_openings()
    assert runs[0].check(9, [59]) and runs[1].check(1, [7])


def test_every_lesson_opens_with_a_goal_and_a_prediction():
    """Issue 10: each lesson states its goal and asks for a prediction before computing; issue 27: each has
    teacher notes and a level line, and its answers live in its teacher's edition."""
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        text = markdown(path.stem)
        assert "**Goal.**" in text.split("##")[0], path.name
        teacher = NOTEBOOKS / "teacher" / f"{path.stem}.md"
        assert teacher.exists(), f"no teacher notes for {path.name}"
        notes = teacher.read_text(encoding="utf-8")
        for part in ("Learning goals", "Prerequisites", "45-minute plan", "Answer key", "misconceptions", "Extension"):
            assert part in notes, (teacher.name, part)
        assert f"]({teacher.name})" in (NOTEBOOKS / "teacher" / "README.md").read_text(encoding="utf-8"), teacher.name
        if path.stem.startswith("02_"):
            continue  # the game table (also the Voila app): its questions are answered in the teacher notes
        assert "*Level:" in text.split("##")[0], path.name
        assert "## Predict first" in text or "**Predict first" in text, path.name
        assert (NOTEBOOKS / "teacher" / f"{path.stem}_teacher.ipynb").exists(), f"no teacher's edition of {path.name}"


def test_waiting_times_quoted_in_lesson_12():
    w = RollsUntil(8)
    assert w.exact() == F(36, 5) and w.median() == 5 and w.quantile(0.9) == 16

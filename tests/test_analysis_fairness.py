"""Board fairness measures and the balanced-board generator."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from catan_nb import Board
from catan_nb.analysis.fairness import (
    DEFAULT_CONSTRAINTS,
    NO_ADJACENT_EQUAL,
    NO_ADJACENT_RED,
    RED_NUMBERS,
    BoardConstraintError,
    Constraint,
    Layout,
    adjacent_hex_pairs,
    balanced_board,
    check_constraints,
    fairness_report,
    max_intersection_pips,
    max_resource_cluster,
    no_adjacent_numbers,
    resource_pips,
    resource_pips_between,
    snake_draft,
)
from catan_nb.analysis.placement import PlacementWeights, score_intersections
from catan_nb.analysis.probability import estimate_mean
from catan_nb.analysis.production import placement_production
from catan_nb.board import BASE_ROWS, lay_tokens
from catan_nb.constants import BASE_TERRAIN_COUNTS, BASE_TOKEN_LETTERS, RESOURCES, Resource, Terrain
from catan_nb.errors import CatanError


def board_with(changes: dict[tuple[int, int], tuple[str, int | None]]) -> Board:
    data = Board.beginner().to_dict()
    data["layout"] = "custom"  # a teaching position: not the base component counts
    for h in data["hexes"]:
        if (h["row"], h["col"]) in changes:
            h["terrain"], h["token"] = changes[(h["row"], h["col"])]
    return Board.from_dict(data)


# ------------------------------------------------------------------ measures
def test_resource_pips_by_hand():
    board = Board.beginner()
    rp = resource_pips(board)
    # ore: (1,1) 10, (3,5) 8, (4,2) 3 -> 3 + 5 + 2
    assert rp[Resource.ORE] == 10
    # lumber: (1,3) 9, (3,2) 11, (3,4) 3, (4,1) 8 -> 4 + 2 + 2 + 5
    assert rp[Resource.LUMBER] == 13
    assert sum(rp.values()) == sum(6 - abs(7 - t) for t in BASE_TOKEN_LETTERS) == 58
    assert RED_NUMBERS == (6, 8)


def test_red_and_equal_neighbours():
    board = Board.beginner()
    assert NO_ADJACENT_RED(board) and NO_ADJACENT_EQUAL(board)
    # put an 8 beside the 6 on (2,2), and a 10 beside the 10 on (1,1)
    hot = board_with({(2, 3): ("pasture", 8), (1, 2): ("pasture", 10)})
    six, eight = hot.hex_at(2, 2).id, hot.hex_at(2, 3).id
    ten_a, ten_b = hot.hex_at(1, 1).id, hot.hex_at(1, 2).id
    report = fairness_report(hot)
    assert (six, eight) in report.red_adjacent
    assert (ten_a, ten_b) in report.equal_adjacent
    assert not NO_ADJACENT_RED(hot) and not NO_ADJACENT_EQUAL(hot)
    assert not no_adjacent_numbers([10])(hot) and no_adjacent_numbers([2, 12])(hot)
    red = adjacent_hex_pairs(hot, lambda a, b: a.token in RED_NUMBERS and b.token in RED_NUMBERS)
    assert red == report.red_adjacent


def test_intersection_pip_cap():
    board = board_with({(1, 1): ("mountains", 8), (1, 2): ("pasture", 5)})  # (2,2) N: 8 + 5 + 6 = 14 pips
    assert not max_intersection_pips(13)(board) and max_intersection_pips(14)(board)
    report = fairness_report(board)
    assert report.best_intersections[0] == (board.node_at((2, 2), "N"), 14)
    inland = [v for v in board.graph if len(board.graph.nodes[v]["hexes"]) == 3]
    lowest = min(sum(t.pips for t in board.intersection_hexes(v)) for v in inland)
    assert report.worst_intersections[0][1] == lowest
    assert len(report.best_intersections) == len(report.worst_intersections) == 3


def test_clusters():
    # three forests in a row: (1,1), (1,2), (1,3)
    board = board_with({(1, 1): ("forest", 10), (1, 2): ("forest", 2)})
    report = fairness_report(board)
    assert report.largest_cluster[Resource.LUMBER] >= 3
    assert not max_resource_cluster(2)(board)
    lay = Layout.of(board)
    pairs = list(lay.hex_pairs())
    assert len(pairs) == 42  # sides shared by two land hexes on the base island
    same = sum(1 for h, k in pairs if lay.terrains[h] is lay.terrains[k] and lay.terrains[h] is not Terrain.DESERT)
    assert report.same_resource_adjacent == same


def test_expected_same_resource_pairs_against_shuffles():
    """Expected adjacent same-resource pairs of a random shuffle: exact formula beside seeded shuffles."""
    board = Board.beginner()
    report = fairness_report(board)
    counts = Counter(t.terrain for t in board.hexes if t.resource is not None)
    exact = Fraction(42 * sum(c * (c - 1) for c in counts.values()), 19 * 18)
    assert report.same_resource_expected == pytest.approx(float(exact)) and exact == Fraction(112, 19)
    lay = Layout.of(board)
    pairs = np.array(list(lay.hex_pairs()))
    rng = np.random.default_rng(8)
    codes = np.array([list(Terrain).index(t) for t in lay.terrains])
    desert = list(Terrain).index(Terrain.DESERT)
    samples = []
    for _ in range(4000):
        perm = rng.permutation(codes)
        a, b = perm[pairs[:, 0]], perm[pairs[:, 1]]
        samples.append(int(((a == b) & (a != desert)).sum()))
    assert estimate_mean(samples, exact=exact).covers


def test_snake_draft():
    board = Board.random(seed=6)
    d = snake_draft(board, 4)
    assert len(d.picks) == 4 and all(len(p) == 2 for p in d.picks)
    placed = [v for p in d.picks for v in p]
    assert len(set(placed)) == 8
    for i, v in enumerate(placed):
        assert not any(board.graph.has_edge(v, w) for w in placed[i + 1 :])  # distance rule
    assert d.picks[0][0] == score_intersections(board)[0].node
    assert d.production == tuple(placement_production(board, p).total for p in d.picks)
    assert d.spread == max(d.production) - min(d.production)
    by_pips = snake_draft(board, 3, weights=PlacementWeights.production_only())
    assert len(by_pips.picks) == 3
    assert placement_production(board, [by_pips.picks[0][0]]).pips == max(r.pips for r in score_intersections(board))
    assert set(d.to_dict()) == {"seat 0", "seat 1", "seat 2", "seat 3", "spread"}


def test_report_row_and_repr():
    report = fairness_report(Board.beginner())
    row = report.to_dict()
    assert row["board"] == "beginner" and row["pips ore"] == 10 and row["red_adjacent"] == 0
    assert row["resource_spread"] == report.resource_spread == 3
    assert row["draft_spread"] == pytest.approx(float(report.draft.spread))
    assert "FairnessReport 'beginner'" in repr(report)


# ------------------------------------------------------------------ constraints
def test_constraints_are_named_and_checkable():
    assert [c.name for c in DEFAULT_CONSTRAINTS] == ["no_adjacent_6_8", "no_adjacent_equal_numbers"]
    assert max_intersection_pips(11).depends_on == "tokens"
    assert max_resource_cluster(2).depends_on == "terrain"
    assert resource_pips_between(8, 16).name == "resource_pips_between(8,16)"
    assert check_constraints(Board.beginner(), [max_intersection_pips(10), resource_pips_between(10, 13)]) == {
        "max_intersection_pips(10)": False,
        "resource_pips_between(10,13)": True,
    }
    with pytest.raises(ValueError, match="depends_on"):
        Constraint("x", lambda lay: True, depends_on="numbers")


# ------------------------------------------------------------------ balanced boards
def _spiral_corner(board: Board):
    """The corner from which the board's tokens follow the spiral (B-SETUP-12), or None."""
    terrain_at = {(t.row, t.col): t.terrain for t in board.hexes}
    tokens = {(t.row, t.col): t.token for t in board.hexes if t.token}
    for corner in [(1, 1), (1, 3), (3, 1), (3, 5), (5, 1), (5, 3)]:
        if lay_tokens(BASE_ROWS, terrain_at, BASE_TOKEN_LETTERS, corner) == tokens:
            return corner
    return None


def _is_base_setup(board: Board) -> bool:
    terrains = Counter(t.terrain for t in board.hexes)
    tokens = sorted(t.token for t in board.hexes if t.token)
    desert = next(t for t in board.hexes if t.terrain is Terrain.DESERT)
    return (
        terrains == Counter(dict(BASE_TERRAIN_COUNTS))
        and tokens == sorted(BASE_TOKEN_LETTERS)
        and board.robber_start == desert.id  # B-SETUP-14
        and desert.token is None
        and len(board.harbours) == 9
    )


@pytest.mark.parametrize("seed", range(6))
def test_balanced_board_follows_the_setup_rules(seed):
    board = balanced_board(seed=seed)
    assert _is_base_setup(board)
    assert all(c(board) for c in DEFAULT_CONSTRAINTS)
    corner = _spiral_corner(board)
    assert corner is not None and f"corner {corner}" in " ".join(board.to_dict()["notes"])
    assert board.name == f"balanced-{seed}"


def test_balanced_board_is_seeded_and_saves():
    a, b, c = balanced_board(seed=7), balanced_board(seed=7), balanced_board(seed=8)
    assert a == b and a != c
    assert Board.from_dict(a.to_dict()) == a
    assert _spiral_corner(balanced_board(seed=7, start_corner=(5, 3))) == (5, 3)


def test_pip_cap_under_the_spiral():
    cons = [NO_ADJACENT_RED, max_intersection_pips(11), max_resource_cluster(2)]
    board = balanced_board(seed=3, constraints=cons)
    assert all(check_constraints(board, cons).values())
    assert _spiral_corner(board) is not None
    assert max(sum(t.pips for t in board.intersection_hexes(v)) for v in board.graph) <= 11


def test_shuffled_tokens_when_the_spiral_cannot():
    cons = [NO_ADJACENT_RED, max_intersection_pips(10)]  # no spiral layout keeps every corner at 10 pips
    with pytest.raises(BoardConstraintError) as err:
        balanced_board(seed=0, constraints=cons, tokens="spiral")
    assert err.value.constraint == "max_intersection_pips(10)" and err.value.tries == 0
    assert "spiral" in str(err.value) and isinstance(err.value, CatanError)
    board = balanced_board(seed=0, constraints=cons)
    assert _is_base_setup(board) and all(check_constraints(board, cons).values())
    assert any("shuffled" in n for n in board.to_dict()["notes"])
    forced = balanced_board(seed=1, tokens="shuffle")
    assert any("tokens='shuffle'" in n for n in forced.to_dict()["notes"]) and _is_base_setup(forced)


def test_max_tries_names_the_failing_constraint():
    cons = [NO_ADJACENT_RED, max_resource_cluster(1), resource_pips_between(11, 12)]
    with pytest.raises(BoardConstraintError, match="in 50 tries") as err:
        balanced_board(seed=2, constraints=cons, max_tries=50)
    e = err.value
    assert e.tries == 50 and set(e.failures) == {c.name for c in cons}
    assert e.constraint == max(e.failures, key=e.failures.get)
    assert str(e).startswith(e.constraint + ":")


def test_custom_constraint_and_bad_arguments():
    ore_rich = Constraint(
        "ore_at_least_12", lambda lay: sum(
            (6 - abs(7 - tok)) for t, tok in zip(lay.terrains, lay.tokens) if t.resource is Resource.ORE
        ) >= 12, "both"
    )
    board = balanced_board(seed=5, constraints=[*DEFAULT_CONSTRAINTS, ore_rich])
    assert resource_pips(board)[Resource.ORE] >= 12
    assert "ore_at_least_12" in board.to_dict()["notes"][0]
    with pytest.raises(ValueError, match="corner"):
        balanced_board(seed=1, start_corner=(3, 3))
    with pytest.raises(ValueError, match="tokens"):
        balanced_board(seed=1, tokens="random")
    assert set(RESOURCES) == set(resource_pips(board))


def test_red_adjacency_exact_counts_match_brute_force_and_simulation():
    """Issue 10: the chance that a 6 or 8 touches another, counted exactly, checked two other ways."""
    import itertools
    import random as _random

    from catan_nb.analysis.fairness import red_adjacency_random_tokens, red_adjacency_spiral
    from catan_nb.analysis.probability import estimate_proportion

    exact = red_adjacency_random_tokens()
    # An independent count: hex neighbours from the board graph (hexes sharing a path), bitmasks.
    board = Board.beginner()
    n = len(board.hexes)
    nb = [0] * n
    for a, b, data in board.graph.edges(data=True):
        hs = board.graph.nodes[a]["hexes"]
        for x in hs:
            for y in board.graph.nodes[b]["hexes"]:
                if x != y and x in board.graph.nodes[b]["hexes"] and y in hs:
                    nb[x] |= 1 << y
                    nb[y] |= 1 << x
    fav = tot = 0
    for desert in range(n):
        free = [i for i in range(n) if i != desert]
        for reds in itertools.combinations(free, 4):
            mask = sum(1 << i for i in reds)
            tot += 1
            fav += any(nb[i] & mask for i in reds)
    assert (fav, tot) == (exact.favourable, exact.total) == (50160, 58140)
    # And a simulation: shuffle terrain and tokens as a person would.
    rng = _random.Random(5)
    tokens = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]
    hits = 0
    trials = 4000
    for _ in range(trials):
        desert = rng.randrange(n)
        free = [i for i in range(n) if i != desert]
        rng.shuffle(tokens)
        red = {h for h, t in zip(free, tokens) if t in (6, 8)}
        hits += any(nb[h] & sum(1 << r for r in red if r != h) for h in red)
    est = estimate_proportion(hits, trials, exact=exact.probability)
    assert est.covers
    # The spiral never puts two red numbers side by side, wherever the desert and the corner.
    spiral = red_adjacency_spiral()
    assert spiral.total == 19 * 6 and spiral.favourable == 0
    for seed in range(30):
        b = Board.random(seed=seed)
        assert not adjacent_hex_pairs(b, lambda x, y: x.token in (6, 8) and y.token in (6, 8))

"""Placement value: explained scores, opening pairs in snake order, playouts and the heat map."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from catan_nb import Board, Game, Resource
from catan_nb.analysis.placement import (
    FOUNDING_WIDE,
    PAIR_PARTS,
    PART_TERMS,
    SPOT_PARTS,
    OpeningPair,
    PlacementScore,
    PlacementWeights,
    founding_order,
    pace,
    placement_figure,
    placement_heat,
    rank_openings,
    score_intersections,
    simulate_openings,
)
from catan_nb.analysis.production import node_production
from catan_nb.constants import COSTS, RESOURCES
from catan_nb.rules import RollDice, Rules

PARTS = SPOT_PARTS


@pytest.fixture(scope="module")
def board() -> Board:
    return Board.random(seed=3)


def reference_terms(board: Board, nodes, rivals: list[list[int]] | None = None) -> dict[str, Fraction]:
    """The score's terms recomputed from their definitions, in plain Python with Fractions (base game:
    settlements; ``nodes`` are a spot or a pair founded in that order; ``rivals`` each rival's spots)."""
    def cards(vs):
        e = {r: Fraction(0) for r in RESOURCES}
        for v in vs:
            for r, x in node_production(board, v).per_resource.items():
                e[r] += x
        return e

    e = cards(nodes)
    L, B, Wo, G, O = (e[r] for r in (Resource.LUMBER, Resource.BRICK, Resource.WOOL, Resource.GRAIN, Resource.ORE))
    tokens = set()
    for v in nodes:
        tokens |= {t.token for t in board.intersection_hexes(v) if t.token}
    supply = {r: Fraction(sum(t.pips for t in board.hexes if t.resource is r), 36) for r in RESOURCES}
    mean = sum(supply.values()) / 5
    rarity = {r: mean / supply[r] - 1 for r in RESOURCES}
    harbours = {board.graph.nodes[v]["harbour"] for v in nodes} - {None}
    special = {h.resource for h in harbours if h.resource is not None}
    generic = any(h.resource is None for h in harbours)
    rates = [2 if r in special else 3 if generic else 4 for r in RESOURCES]
    grow = [a + b for a, b in zip(COSTS["settlement"], COSTS["city"])]
    out = {
        "pace": 1 / reference_rolls([e[r] for r in RESOURCES], 0, rates, grow) if any(e.values()) else Fraction(0),
        "production": sum(e.values()),
        "diversity": Fraction(sum(1 for x in e.values() if x)),
        "roads": min(L, B), "cities": min(O, G), "cards": min(O, G, Wo),
        # B-BUILD-1: the cards of the resources a city costs (ore and grain), a pair's term only
        "city_goods": sum(e[r] for r, c in zip(RESOURCES, COSTS["city"]) if c) if len(nodes) == 2 else Fraction(0),
        "scarcity": sum(e[r] * rarity[r] for r in RESOURCES),
        "special_harbour": sum(e[r] for r in special),
        "generic_harbour": any(h.resource is None for h in harbours) * sum(e.values()),
        "numbers": Fraction(len(tokens)),
        "start": Fraction(sum(1 for t in board.intersection_hexes(nodes[-1]) if t.resource is not None)
                          if len(nodes) == 2 else 0),
    }
    if rivals:
        out["rivals"] = -sum(sum(cards(vs).values()) for vs in rivals) / len(rivals)
        out["rival_diversity"] = -Fraction(sum(sum(1 for x in cards(vs).values() if x) for vs in rivals), len(rivals))
    if len(nodes) == 2:
        out.update(reference_founding_terms(board, nodes, [v for vs in (rivals or []) for v in vs]))
        if not rivals:  # no founding modelled: the rivals' parts are nothing
            out["shared"] = out["market"] = out["frontier"] = Fraction(0)
        else:
            out["rival_best"] = -max(reference_own_score(board, vs) for vs in rivals)
    return out


def reference_own_score(board: Board, nodes, w: PlacementWeights = PlacementWeights()) -> Fraction:
    """A seat's founding scored on its own: every term but those of the whole founding (``rival_best``)."""
    t = reference_terms(board, nodes)
    return sum(Fraction(getattr(w, k)) * x for k, x in t.items() if k not in FOUNDING_WIDE)


def reference_rolls(cards, picks, rates, cost) -> Fraction:
    """The fewest rolls after which ``cards`` per roll (and ``picks`` of one's choice) pay for ``cost``, the
    surplus traded at ``rates``: exactly, with Fractions, on the breakpoints of the piecewise linear balance
    (B-TRADE-6..9, B-BUILD-1)."""
    cards, cost = [Fraction(x) for x in cards], [Fraction(x) for x in cost]
    picks = Fraction(picks)

    def balance(t):  # cards the bank would still owe at time t (>= 0: the purchase is paid)
        return picks * t + sum((x * t - c) / k if x * t >= c else x * t - c for x, c, k in zip(cards, cost, rates))

    points = sorted({Fraction(0)} | {c / x for x, c in zip(cards, cost) if x})
    for lo, hi in zip(points, points[1:] + [None]):
        if hi is not None and balance(hi) < 0:
            continue
        # linear between lo and hi: balance(lo) + slope * (t - lo) = 0
        slope = picks + sum(x / k if x * lo >= c and x else x for x, c, k in zip(cards, cost, rates))
        return lo if balance(lo) >= 0 else lo - balance(lo) / slope
    raise AssertionError("unreachable")


def test_pace_is_the_exact_fluid_time_on_generated_flows():
    """B-TRADE-6..9, B-BUILD-1: ``pace`` against an exact solver, on random flows, picks, rates and costs."""
    import numpy as np

    rng = np.random.default_rng(36)
    for _ in range(300):
        n = int(rng.integers(1, 7))
        cards = rng.choice([0, 1, 2, 3, 4, 5], size=(n, 5)) / 36 * rng.integers(0, 2, size=(n, 5))
        picks = rng.choice([0, 0, 1, 2], size=n) / 36
        rates = rng.choice([2, 3, 4], size=(n, 5))
        cost = rng.integers(0, 4, size=5)
        cost[rng.integers(0, 5)] += 1
        got = pace(cards, picks, rates, cost.astype(float))
        for i in range(n):
            flow = [Fraction(int(round(x * 36)), 36) for x in cards[i]]
            pick = Fraction(int(round(picks[i] * 36)), 36)
            if not any(flow) and not pick:
                assert got[i] == 0
                continue
            want = 1 / reference_rolls(flow, pick, rates[i].tolist(), cost.tolist())
            assert got[i] == pytest.approx(float(want), rel=1e-9), (cards[i], picks[i], rates[i], cost)


def test_pace_rises_with_cards_and_with_better_rates():
    """More cards, or a better rate for a resource, never slow the purchase down (B-TRADE-6..9)."""
    import numpy as np

    rng = np.random.default_rng(7)
    cost = np.array([1.0, 1, 1, 3, 3])
    cards = rng.integers(0, 6, size=(200, 5)) / 36
    rates = rng.choice([3, 4], size=(200, 5)).astype(float)
    base = pace(cards, np.zeros(200), rates, cost)
    more = cards.copy()
    more[np.arange(200), rng.integers(0, 5, 200)] += 1 / 36
    assert (pace(more, np.zeros(200), rates, cost) >= base - 1e-12).all()
    better = rates.copy()
    better[np.arange(200), rng.integers(0, 5, 200)] = 2
    assert (pace(cards, np.zeros(200), better, cost) >= base - 1e-12).all()
    assert (pace(cards, np.full(200, 1 / 36), rates, cost) > base).all()


def reference_founding_terms(board: Board, pair, others) -> dict[str, Fraction]:
    """``apart``, ``room``, ``shared`` and ``market`` of a pair from their definitions, by breadth-first
    search on the board's graph (base game: every edge takes a road, every intersection is a site)."""
    import networkx as nx

    g = board.graph
    a, b = pair
    steps = nx.single_source_shortest_path_length(g, a, cutoff=3)
    apart = steps.get(b, 4)
    closed = _closed(board, [*pair, *others])
    two = {v for s in pair for v, d in nx.single_source_shortest_path_length(g, s, cutoff=2).items() if d == 2}
    room = len(two - closed)
    theirs = {t.id for v in others for t in board.intersection_hexes(v)}
    shared = sum(Fraction(t.pips, 36) for v in pair for t in board.intersection_hexes(v)
                 if t.id in theirs and t.resource is not None and t.token)
    total = {r: Fraction(0) for r in RESOURCES}
    mine = {r: Fraction(0) for r in RESOURCES}
    for v in [*pair, *others]:
        for r, x in node_production(board, v).per_resource.items():
            total[r] += x
            if v in pair:
                mine[r] += x
    made = [r for r in RESOURCES if total[r]]
    mean = sum(total[r] for r in made) / len(made)
    market = sum(mine[r] * (mean / total[r] - 1) for r in made)
    # frontier: the free sites the pair's roads reach first (fewer steps than any rival building, within 5),
    # each a settlement's cards per roll, halved per step beyond two
    def dist(sources):
        d = {}
        for s in sources:
            for v, k in nx.single_source_shortest_path_length(g, s, cutoff=5).items():
                d[v] = min(d.get(v, 6), k)
        return d

    mine_d, their_d = dist(pair), dist(others)
    frontier = sum(sum(node_production(board, v).per_resource.values()) * Fraction(1, 2 ** max(d - 2, 0))
                   for v, d in mine_d.items() if v not in closed and d < their_d.get(v, 6))
    return {"apart": Fraction(apart), "room": Fraction(room), "shared": -shared, "market": market,
            "frontier": frontier}


def reference_parts(board: Board, nodes, w: PlacementWeights = PlacementWeights(),
                    rivals: list[list[int]] | None = None) -> dict[str, float]:
    t = {k: float(x) for k, x in reference_terms(board, nodes, rivals).items()}
    out = {part: sum(getattr(w, k) * t.get(k, 0.0) for k in PART_TERMS[part]) for part in PAIR_PARTS}
    if len(nodes) == 1:
        del out["start"], out["rivals"], out["room"]
    return out


# ------------------------------------------------------------------ single intersections
def test_every_intersection_scored_with_parts_that_sum(board):
    rows = score_intersections(board)
    assert len(rows) == 54 and {r.node for r in rows} == set(range(54))
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)
    for r in rows:
        assert r.score == pytest.approx(sum(r.parts.values()), abs=1e-12)
        ref = reference_parts(board, [r.node])
        for part in PARTS:
            assert getattr(r, part) == pytest.approx(ref[part], abs=1e-12), (r.node, part)
        assert r.pips == node_production(board, r.node).pips
        assert r.production == pytest.approx(PlacementWeights().production * r.pips / 36)


def test_rows_sort_and_tabulate(board):
    rows = score_intersections(board)
    assert [r.score for r in sorted(rows, reverse=True)] == [r.score for r in rows]
    ties = [(a.node, b.node) for a, b in zip(rows, rows[1:]) if a.score == b.score]
    assert all(a < b for a, b in ties)  # equal scores: lower intersection id first
    d = rows[0].to_dict()
    assert set(PARTS) <= set(d) and d["node"] == rows[0].node and isinstance(d["resources"], str)
    harbour_rows = [r for r in rows if r.harbour_label]
    assert harbour_rows and all(":1" in r.harbour_label for r in harbour_rows)


def test_node_touching_6_8_5_has_production_14_36():
    data = Board.beginner().to_dict()
    data["layout"] = "custom"  # a teaching position: not the base component counts
    for h in data["hexes"]:
        if (h["row"], h["col"]) == (1, 1):
            h["terrain"], h["token"] = "mountains", 8
        if (h["row"], h["col"]) == (1, 2):
            h["terrain"], h["token"] = "pasture", 5
    b = Board.from_dict(data)
    v = b.node_at((2, 2), "N")
    (row,) = [r for r in score_intersections(b) if r.node == v]
    w = PlacementWeights()
    assert row.pips == 14 and row.production == pytest.approx(w.production * 14 / 36)
    assert row.diversity == pytest.approx(3 * w.diversity) and row.numbers == pytest.approx(3 * w.numbers)
    assert row.resources == (Resource.BRICK, Resource.WOOL, Resource.ORE) and row.tokens == (5, 6, 8)


def test_weights_are_a_parameter(board):
    only = score_intersections(board, weights=PlacementWeights.production_only())
    assert all(r.score == r.production and not any(x for p, x in r.parts.items() if p != "production") for r in only)
    assert [r.pips for r in only] == sorted((r.pips for r in only), reverse=True)
    doubled = score_intersections(board, weights=PlacementWeights(diversity=2 * PlacementWeights().diversity))
    by_node = {r.node: r for r in score_intersections(board)}
    assert all(r.diversity == pytest.approx(2 * by_node[r.node].diversity) for r in doubled)


def test_harbour_part():
    board = Board.beginner()
    rows = {r.node: r for r in score_intersections(board)}
    w = PlacementWeights()
    # 10: 2:1 lumber beside (1,3) forest 9 and (2,4) hills 10 -> 4/36 of lumber
    assert rows[10].harbour == pytest.approx(w.special_harbour * 4 / 36) and rows[10].harbour_label == "2:1 lumber"
    # 33: 3:1 beside (3,1) fields 9 and (4,1) forest 8 -> (4 + 5)/36 of every resource
    assert rows[33].harbour == pytest.approx(w.generic_harbour * 9 / 36)
    # 26: 2:1 brick beside mountains only: no synergy
    assert rows[26].harbour == 0


def test_game_respects_the_distance_rule():
    game = Game(Board.beginner(), players=4, seed=0, start="beginner")
    rows = score_intersections(game)
    free = {v for v in range(54) if not game.blocked[v]}
    assert {r.node for r in rows} == free and len(free) < 54 - 8


# ------------------------------------------------------------------ opening pairs
def test_founding_order_is_a_snake():
    assert founding_order(4) == (0, 1, 2, 3, 3, 2, 1, 0)
    assert founding_order(3, 2) == (2, 0, 1, 1, 0, 2)
    with pytest.raises(ValueError):
        founding_order(4, 4)


def test_all_pairs_without_opponents(board):
    pairs = rank_openings(board, seat=0, opponents="none")
    assert len(pairs) == 54 * 53 // 2 - 72  # every pair of intersections that are not neighbours
    adj = board.graph
    for p in pairs:
        assert p.first < p.second and not adj.has_edge(p.first, p.second) and p.opponent_picks == ()
    assert [p.score for p in pairs] == sorted((p.score for p in pairs), reverse=True)


def test_pair_parts_are_taken_over_both_settlements(board):
    pairs = rank_openings(board, seat=1, opponents="none")
    for p in pairs[:25] + pairs[-25:] + pairs[500:525]:
        assert p.score == pytest.approx(sum(p.parts.values()), abs=1e-12)
        ref = reference_parts(board, [p.first, p.second])
        for part in PAIR_PARTS:
            assert getattr(p, part) == pytest.approx(ref[part], abs=1e-12), part
        assert p.rivals == 0  # no opponents modelled
        assert p.pips == node_production(board, p.first).pips + node_production(board, p.second).pips
    d = pairs[0].to_dict()
    assert d["first"] == pairs[0].first and set(PARTS) <= set(d)


def test_B_TRADE_6_pace_of_spots_and_pairs_reads_their_cards_and_harbours(board):
    """The ``pace`` term of spots and pairs, harbour pairs among them, against the exact reference."""
    from catan_nb.analysis.placement import opening_terms

    harbour = [v for v in range(54) if board.graph.nodes[v]["harbour"] is not None]
    pairs = sorted({(min(a, b), max(a, b)) for a in harbour[:6] for b in (0, 10, 20, 33, 47)
                    if not board.graph.has_edge(a, b) and a != b})
    terms = opening_terms(board, 0, pairs, opponents="none")
    for i, pair in enumerate(pairs):
        assert terms["pace"][i] == pytest.approx(float(reference_terms(board, list(pair))["pace"]), rel=1e-9), pair
    weights = PlacementWeights.production_only()
    for row in score_intersections(board, weights=PlacementWeights(**{**weights.__dict__, "pace": 1.0})):
        assert row.sets == pytest.approx(float(reference_terms(board, [row.node])["pace"]), rel=1e-9), row.node


def test_B_SETUP_19_pairs_with_greedy_rivals_count_what_the_rivals_found(board):
    """Seat 1's pairs: seat 0 founds first, seats 2, 3, 3, 2 between, seat 0 again after (snake order)."""
    pairs = rank_openings(board, seat=1)
    order = [r.node for r in score_intersections(board)]

    def greedy(blocked, k):
        picks = []
        for _ in range(k):
            v = next(v for v in order if v not in blocked)
            picks.append(v)
            blocked |= {v, *board.graph.adj[v]}
        return picks

    for p in pairs[:15] + pairs[-5:]:
        (s0,) = greedy(set(), 1)
        between = greedy(_closed(board, [s0, p.first]), 4)
        assert list(p.opponent_picks) == between
        (s0b,) = greedy(_closed(board, [s0, p.first, *between, p.second]), 1)
        rivals = [[s0, s0b], [between[0], between[3]], [between[1], between[2]]]
        ref = reference_parts(board, [p.first, p.second], rivals=rivals)
        for part in PAIR_PARTS:
            assert getattr(p, part) == pytest.approx(ref[part], abs=1e-12), part


def test_B_SETUP_15_the_strongest_rival_founding_weighs_against_a_pair(board):
    """``rival_best``: the best of the rivals' own founding scores, each rival's two buildings found in snake
    order by the greedy model (B-SETUP-15, B-SETUP-16), checked against Fractions; it enters the ``rivals``
    part with its weight and changes which pairs lead."""
    w = PlacementWeights(rival_best=0.5)
    pairs = rank_openings(board, seat=0, weights=w)
    for p in pairs[:10] + pairs[-3:]:
        rivals = _rival_sites(p, 4)
        ref = reference_terms(board, [p.first, p.second], rivals=rivals)
        assert ref["rival_best"] == -max(reference_own_score(board, vs) for vs in rivals) < 0
        want = reference_parts(board, [p.first, p.second], w, rivals=rivals)
        assert p.rivals == pytest.approx(want["rivals"], abs=1e-12)
        assert p.score == pytest.approx(sum(want.values()), abs=1e-12)
    without = [(p.first, p.second) for p in rank_openings(board, seat=0, weights=replace(w, rival_best=0.0))[:20]]
    assert [(p.first, p.second) for p in pairs[:20]] != without
    assert PlacementWeights().rival_best == 0.8  # adopted on 2026-11-29, in the place of ``rivals`` (the README)
    plain = rank_openings(board, seat=0, top=20)
    assert [(p.first, p.second, p.score) for p in plain] == [
        (p.first, p.second, p.score) for p in rank_openings(board, seat=0, top=20, weights=replace(w, rival_best=0.8))]


def _rival_sites(pair: OpeningPair, players: int) -> list[list[int]]:
    """Seat 0's rivals' founding sites: seats 1..n-1 found between its two picks, there and back."""
    between = list(pair.opponent_picks)
    n = players - 1
    return [[between[q], between[2 * n - 1 - q]] for q in range(n)]


def _greedy_reference(board: Board, blocked: set[int], k: int) -> list[int]:
    order = [r.node for r in score_intersections(board)]
    picks = []
    for _ in range(k):
        v = next(v for v in order if v not in blocked)
        picks.append(v)
        blocked |= {v, *board.graph.adj[v]}
    return picks


def _closed(board: Board, nodes) -> set[int]:
    out = set()
    for v in nodes:
        out |= {v, *board.graph.adj[v]}
    return out


@pytest.mark.parametrize("seat,before,between", [(0, 0, 6), (1, 1, 4), (2, 2, 2), (3, 3, 0)])
def test_greedy_opponents_in_snake_order(board, seat, before, between):
    pairs = rank_openings(board, seat=seat, players=4)
    taken_before = _greedy_reference(board, set(), before)
    firsts = {p.first for p in pairs}
    assert not firsts & _closed(board, taken_before)
    for p in pairs[:40]:
        assert len(p.opponent_picks) == between
        assert list(p.opponent_picks) == _greedy_reference(board, _closed(board, [*taken_before, p.first]), between)
        assert p.second not in _closed(board, [*taken_before, p.first, *p.opponent_picks])
    # the best pair without opponents is out of reach when the greedy seats would take its second spot
    assert pairs[0].score <= rank_openings(board, seat=seat, opponents="none")[0].score


def test_three_players_and_starting_seat(board):
    pairs = rank_openings(board, seat=0, players=3, starting_seat=1)  # order 1, 2, 0, 0, 2, 1
    assert pairs and all(len(p.opponent_picks) == 0 for p in pairs)
    assert len(rank_openings(board, seat=1, players=3, starting_seat=1)[0].opponent_picks) == 4
    assert len(rank_openings(board, seat=0, top=5)) == 5


def test_openings_in_a_game_under_way(board):
    game = Game(board, players=4, seed=2)
    for _ in range(2):  # seats 0 and 1 found a settlement and a road each
        game.play(game.legal_actions()[0])
        game.play(game.legal_actions()[0])
    pairs = rank_openings(game, seat=2)
    blocked = {v for v in range(54) if game.blocked[v]}
    assert all(p.first not in blocked and p.second not in blocked for p in pairs)
    assert all(len(p.opponent_picks) == 2 for p in pairs)
    # seat 0 still to place its second settlement: its first is fixed
    while game.current_player != 0 or len(game.occupied) < 7:
        game.play(game.legal_actions()[0])
    mine = [v for v in game.occupied if game.node_owner[v] == 0]
    pairs = rank_openings(game, seat=0)
    assert {p.first for p in pairs} == set(mine) and all(p.opponent_picks == () for p in pairs)
    assert {p.second for p in pairs} == {v for v in range(54) if not game.blocked[v]}
    with pytest.raises(ValueError, match="seat 1 has placed both"):
        rank_openings(game, seat=1)


def test_openings_only_in_the_founding_phase():
    game = Game(Board.beginner(), players=4, seed=0, start="beginner")
    with pytest.raises(ValueError, match="founding phase"):
        rank_openings(game, seat=0)
    with pytest.raises(ValueError, match="opponents"):
        rank_openings(Board.beginner(), opponents="smart")
    with pytest.raises(TypeError):
        score_intersections("beginner")  # type: ignore[arg-type]


def test_score_and_rank_types():
    """Scores and ranks come back typed (their speed is measured in benchmarks/, never asserted)."""
    board = Board.random(seed=11)
    rows = score_intersections(board)
    pairs = rank_openings(board, seat=0)
    assert rows and pairs and isinstance(rows[0], PlacementScore) and isinstance(pairs[0], OpeningPair)


# ------------------------------------------------------------------ playouts
@pytest.mark.parametrize("modules", [(), ("cities_knights",)])
def test_B_END_3_each_playout_names_its_winning_seat(modules):
    """``winners``: the seat that reached the points to win in each playout (B-END-3), ``None`` where the playout
    stopped at ``max_turns``; the studied seat's wins and unfinished playouts agree with it, in the compiled kernel's
    base game and the engine's Cities & Knights alike, and the same seeds give the same winners."""
    game = Game(Board.random(seed=4), players=4, seed=2, rules=Rules(modules=modules))
    kw = dict(seat=1, top=1 if modules else 2, playouts=3 if modules else 6, seed=3, progress=False,
              bot="value" if modules else "random", max_turns=300 if modules else 150)
    rows = simulate_openings(game, **kw)
    seen = set()
    for r in rows:
        assert len(r.winners) == r.playouts
        assert all(w is None or 0 <= w < game.n for w in r.winners)
        assert [w == 1 for w in r.winners] == list(r.wins)
        assert sum(w is None for w in r.winners) == r.unfinished
        seen |= set(r.winners)
    assert seen - {None, 1}  # the other seats win some too
    assert [r.winners for r in simulate_openings(game, **kw)] == [r.winners for r in rows]


def test_simulated_openings_are_seeded_and_carry_intervals(board):
    kw = dict(seat=1, top=2, playouts=3, seed=5, progress=False)
    rows = simulate_openings(board, **kw)
    assert len(rows) == 2 and [r.to_dict() for r in rows] == [r.to_dict() for r in simulate_openings(board, **kw)]
    top2 = {(p.first, p.second): p.score for p in rank_openings(board, seat=1, top=2)}
    for r in rows:
        assert (r.first, r.second) in top2 and r.heuristic == top2[(r.first, r.second)]
        assert r.playouts == 3 and r.fallbacks == 0 and r.unfinished == 0
        assert 0 <= r.win_rate.low <= r.win_rate.estimate <= r.win_rate.high <= 1 and r.win_rate.n == 3
        assert r.vp.low <= r.vp.estimate <= r.vp.high and r.vp.estimate >= 2
        assert r.win_rate.method == "wilson" and r.vp.method == "t"
    assert rows[0].win_rate.estimate >= rows[1].win_rate.estimate


def test_simulated_openings_from_a_game_with_given_pairs():
    game = Game(Board.beginner(), players=3, seed=4)
    game.play(game.legal_actions()[0])
    game.play(game.legal_actions()[0])
    pair = (rank_openings(game, seat=1)[0].first, rank_openings(game, seat=1)[0].second)
    rows = simulate_openings(game, seat=1, pairs=[pair], playouts=2, seed=1, progress=False, bot="random", max_turns=30)
    (r,) = rows
    assert (r.first, r.second) == pair and r.heuristic is None and r.playouts == 2
    assert r.unfinished <= 2
    bots = simulate_openings(game, seat=1, pairs=[pair], playouts=2, seed=1, progress=False, opponents="bot", max_turns=30)
    assert bots[0].playouts == 2
    with pytest.raises(ValueError, match="opponents"):
        simulate_openings(game, seat=1, opponents="none", progress=False)


def test_second_settlement_already_taken_falls_back():
    board = Board.beginner()
    best_single = score_intersections(board)[0].node
    far = next(r.node for r in score_intersections(board)[5:] if not board.graph.has_edge(r.node, best_single) and r.node != best_single)
    # seat 3 plans the best single spot, but seat 0 (greedy) founds there first
    rows = simulate_openings(board, seat=3, pairs=[(far, best_single)], playouts=1, seed=0, progress=False, max_turns=5)
    assert rows[0].fallbacks == 1


# ------------------------------------------------------------------ heat map
def test_heat_values(board):
    rows = score_intersections(board)
    heat = placement_heat(board)
    assert heat == {r.node: r.score for r in rows}
    assert placement_heat(board, "pips") == {r.node: float(r.pips) for r in rows}
    opening = placement_heat(board, "opening", seat=2)
    pairs = rank_openings(board, seat=2)
    assert set(opening) == {p.first for p in pairs}
    assert max(opening.values()) == pairs[0].score
    for v, s in opening.items():
        assert s == max(p.score for p in pairs if p.first == v)
    with pytest.raises(ValueError, match="unknown metric"):
        placement_heat(board, "beauty")


def test_heat_map_figure():
    from catan_nb.viz import trace_index

    game = Game(Board.beginner(), players=4, seed=0, start="beginner")
    game.play(RollDice(dice=(2, 3)))
    fig = placement_figure(game, "production")
    nodes = fig.data[trace_index(fig, "intersections")]
    assert nodes.marker.colorbar.title.text == "cards/roll"
    colours = list(nodes.marker.color)
    free = [v for v in range(54) if not game.blocked[v]]
    assert all(colours[v] == colours[v] for v in free)  # a number, not NaN
    assert all(colours[v] != colours[v] for v in range(54) if game.blocked[v])  # NaN: no heat
    assert len(fig.data[trace_index(fig, "buildings")].x) == 8
    fig2 = placement_figure(Board.beginner(), "opening", seat=1, heat_title="my title")
    assert fig2.data[trace_index(fig2, "intersections")].marker.colorbar.title.text == "my title"


def test_openings_by_good_play_on_a_pool_match_the_serial_run():
    """Issue 13 item 6: openings ranked by value-bot playouts, the same playout for playout on an
    executor (a Dask client works the same way: map, then gather)."""
    from concurrent.futures import ProcessPoolExecutor

    board = Board.beginner()
    kw = dict(seat=0, top=2, playouts=3, seed=5, progress=False, bot="value", max_turns=300)
    serial = simulate_openings(board, **kw)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = simulate_openings(board, client=pool, **kw)
    assert [r.to_dict() for r in serial] == [r.to_dict() for r in pooled]
    assert all(r.unfinished == 0 for r in serial)  # value bots finish their games

    class FakeDask:  # the Dask API the function uses: map(..., pure=False) then gather
        def map(self, fn, jobs, pure=True):
            assert pure is False
            return [fn(j) for j in jobs]

        def gather(self, futures):
            return futures

    assert [r.to_dict() for r in simulate_openings(board, client=FakeDask(), **kw)] == [r.to_dict() for r in serial]
    with pytest.raises(ValueError, match="unknown bot"):
        simulate_openings(board, bot="genius", **{k: v for k, v in kw.items() if k != "bot"})

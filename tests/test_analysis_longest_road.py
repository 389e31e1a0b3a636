"""catan_nb.analysis.longest_road: networks, longest roads and what breaks them (B-LR-1..3, B-LR-8).

Positions are played on the beginner board with the beginner start (seat 0 red,
1 blue, 2 white, 3 orange; red to roll), with forced quiet dice and cards dealt
from the bank.  Intersection ids (``*R`` marks a starting settlement; starting
roads: red 13-18 and 22-28, blue 14-19 and 34-39, white 12-17 and 25-31,
orange 35-40 and 36-41)::

    row Y=+2:        0       1       2
    row Y=+1:     3      4       5       6
    row Y=-1:     7      8       9      10
    row Y=-2:  11    12*W   13*R    14*B    15
    row Y=-4:  16    17      18      19      20
    row Y=-5: 21  22*R   23      24    25*W   26
    row Y=-7: 27  28     29      30      31    32
    row Y=-8:   33   34      35      36      37
    row Y=-10:  38  39*B   40*O   41*O     42

The random-game cross-check compares every answer with an independent brute
force: the longest road is the largest subset of a player's roads that is
connected, has an Euler trail (0 or 2 odd intersections) and never passes
through an opponent's building; networks are networkx connected components.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from helpers import deal

from catan_nb import Board, Building, Game, Resource
from catan_nb.analysis.bots import RandomBot, WeightedBot
from catan_nb.analysis.longest_road import (
    LongestRoad,
    RoadBreak,
    cut_lengths,
    explain_longest_road,
    longest_road,
    longest_road_figure,
    longest_roads,
    path_kinds,
    road_breaks,
    road_networks,
    route_title,
    trail_nodes,
)
from catan_nb.rules import BuildCity, BuildRoad, BuildSettlement, EndTurn, Phase, RollDice

BOARD = Board.beginner()
T = BOARD.topology
RED, BLUE, WHITE, ORANGE = 0, 1, 2, 3
QUIET_DICE = (1, 1)


# ============================================================================ position helpers


def p_(a: int, b: int) -> int:
    return BOARD.path_between(a, b)


def chain(*nodes: int) -> list[int]:
    return [p_(a, b) for a, b in zip(nodes, nodes[1:])]


def ring(hex_id: int) -> list[int]:
    """The six paths around a hex."""
    nodes = set(T.hex_nodes[hex_id])
    return sorted(e for e, (a, b) in enumerate(T.edge_nodes) if a in nodes and b in nodes)


def new_game() -> Game:
    return Game(BOARD, players=4, seed=7, start="beginner")


def to_main(g: Game, p: int) -> None:
    for _ in range(4 * g.n + 2):
        if g.active_player == p and g.phase is Phase.MAIN:
            return
        # a module's own dice (the event die) show a city gate: no barbarian step (CK-BAR-4)
        g.play(RollDice(dice=QUIET_DICE + (4,) * (g.n_dice - 2)) if g.phase is Phase.ROLL else EndTurn())
    raise AssertionError("did not reach the seat's build phase")


def build_roads(g: Game, p: int, paths) -> None:
    """Seat ``p`` builds every path not yet its own, in whichever order they connect (B-BUILD-4)."""
    to_main(g, p)
    todo = [e for e in dict.fromkeys(paths) if g.road_owner(e) != p]
    while todo:
        deal(g, p, lumber=1, brick=1)
        legal = set(g.legal_actions())
        e = next((e for e in todo if BuildRoad(e) in legal), todo[0])
        g.play(BuildRoad(e))
        todo.remove(e)


def settle(g: Game, p: int, v: int) -> None:
    to_main(g, p)
    deal(g, p, lumber=1, brick=1, wool=1, grain=1)
    g.play(BuildSettlement(v))


def check_report(g: Game, r: LongestRoad) -> None:
    """The report agrees with the engine and describes a real road."""
    assert r.length == g.longest_road(r.player) == len(r.road)
    assert list(r.road) == g.longest_road_path(r.player)
    assert r.nodes == trail_nodes(T, r.road)
    assert len(r.nodes) == (r.length + 1 if r.length else 0)
    blocked = {v for v in range(T.n_nodes) if g.node_owner[v] not in (-1, r.player)}
    assert not blocked & set(r.nodes[1:-1]), "the road runs through an opponent's building"
    for a, b, e in zip(r.nodes, r.nodes[1:], r.road):
        assert set(T.edge_nodes[e]) == {a, b} and g.road_owner(e) == r.player
    assert max((n.length for n in r.networks), default=0) == r.length
    assert sorted(e for n in r.networks for e in n.paths) == sorted(g.roads[r.player])
    assert r.holder == (g.longest_road_holder == r.player)


# ============================================================================ rulebook anchors (B-LR-8)


def test_starting_position_two_networks_each():
    g = new_game()
    reports = longest_roads(g)
    assert [r.length for r in reports] == [1, 1, 1, 1]
    assert [n.nodes for n in reports[RED].networks] == [(13, 18), (22, 28)]
    assert road_networks(g, RED) == reports[RED].networks
    for r in reports:
        check_report(g, r)
        assert len(r.networks) == 2 and r.breaks == () and not r.holder
    assert cut_lengths(g, RED) == {}


def test_B_LR_8_line_of_six_with_a_side_branch():
    """B-LR-8: a network of 6 roads in a line plus one side branch has length 6."""
    g = new_game()
    build_roads(g, RED, chain(28, 22, 16, 11, 7, 3, 0) + chain(22, 17))
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 6 and r.holder
    net = r.networks[0]
    assert len(net.paths) == 7 and net.length == 6 == net.length_unbroken
    assert net.breaks == () and net.pieces == (net.paths,)
    ends = {r.nodes[0], r.nodes[-1]}
    assert 0 in ends and ends & {17, 28}  # the branch or the line's end, not both
    assert [n.nodes for n in r.networks[1:]] == [(13, 18)]


def test_B_LR_8_line_of_seven_cut_after_its_second_road():
    """B-LR-8: a line of 7 roads cut by an opponent's settlement after its 2nd road has length 5."""
    g = new_game()
    build_roads(g, RED, chain(13, 18, 23, 29, 34, 28, 22, 16))
    assert longest_road(g, RED).length == 7
    build_roads(g, WHITE, chain(17, 23))
    # where a settlement would cut the line; 18, 28 and 34 are next to a building (B-BUILD-3)
    assert cut_lengths(g, RED) == {23: 5, 29: 4}
    assert cut_lengths(g, RED, distance_rule=False) == {18: 6, 23: 5, 29: 4, 34: 4, 28: 5}
    settle(g, WHITE, 23)
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 5 and set(r.nodes[::5]) == {23, 16}
    assert r.breaks == (
        RoadBreak(
            player=RED,
            owner=WHITE,
            node=23,
            building=Building.SETTLEMENT,
            network=0,
            sides=(5, 2),
            length=5,
            length_without=7,
            network_length=5,
            network_length_without=7,
        ),
    )
    assert r.breaks[0].cost == 2 and r.length_unbroken == 7
    net = r.networks[0]
    assert net.breaks == (23,) and [len(p) for p in net.pieces] == [5, 2]
    assert set(net.pieces[1]) == set(chain(13, 18, 23))
    assert road_breaks(g, RED) == r.breaks
    text = explain_longest_road(g, RED)
    assert "red: longest road 5" in text and "white's settlement at 23" in text and "(5+2)" in text
    assert "without it: 7" in text
    # a city is still a break
    to_main(g, WHITE)
    deal(g, WHITE, ore=3, grain=2)
    g.play(BuildCity(23))
    (b,) = road_breaks(g, RED)
    assert b.building is Building.CITY and b.length_without == 7


# ============================================================================ ends, passes, forks, loops


def test_road_ending_at_an_opponent_building_is_not_a_break():
    """B-LR-2: a road may end at an opponent's building; it counts, and nothing is broken."""
    g = new_game()
    build_roads(g, RED, chain(18, 13, 9, 14))  # 9-14 ends at blue's settlement
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 3 and r.breaks == ()
    assert 14 in r.networks[0].nodes and r.networks[0].breaks == ()
    assert set(r.nodes[::3]) == {18, 14}


def test_building_passed_through_splits_and_two_breaks_by_different_owners():
    """B-LR-2: orange at 29 splits red's 8-road line 5+3; blue at 4 cuts the other side again."""
    g = new_game()
    build_roads(g, RED, chain(11, 16, 22, 28, 34, 29, 23, 18, 13))
    assert longest_road(g, RED).length == 8 and g.longest_road_holder == RED
    build_roads(g, ORANGE, chain(40, 35, 29))
    settle(g, ORANGE, 29)
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 5 and r.holder  # still longest (B-LR-6)
    (b,) = r.breaks
    assert (b.owner, b.node, b.sides, b.length_without) == (ORANGE, 29, (5, 3), 8)
    # red grows on from 13; blue then settles at 4, inside red's road
    build_roads(g, RED, chain(13, 8, 4, 0))
    assert longest_road(g, RED).length == 6
    build_roads(g, BLUE, chain(14, 9, 5, 1, 4))
    settle(g, BLUE, 4)
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 5
    assert len(r.networks) == 1 and r.networks[0].breaks == (4, 29)
    assert sorted(len(p) for p in r.networks[0].pieces) == [1, 5, 5]
    at = {b.node: b for b in r.breaks}
    assert (at[29].owner, at[29].sides, at[29].length_without) == (ORANGE, (5, 5), 10)
    assert (at[4].owner, at[4].sides, at[4].length_without) == (BLUE, (5, 1), 6)
    assert r.length_unbroken == 11


def test_fork_counts_the_two_longest_arms():
    """B-LR-1: a Y with arms 3, 2 and 2 has length 5; the network keeps all 7 roads."""
    g = new_game()
    build_roads(g, RED, chain(18, 13, 8, 4) + chain(18, 23, 17) + chain(18, 24, 19))
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 5 and len(r.networks[0].paths) == 7 and r.breaks == ()
    assert r.nodes[0] == 4 or r.nodes[-1] == 4  # the long arm is always in


def test_figure_eight_and_a_building_that_opens_a_loop():
    """Two rings joined by a bridge: all 13 roads; an opponent on one ring opens it (11) without splitting."""
    g = new_game()
    top, bottom = ring(BOARD.hex_at(1, 2).id), ring(BOARD.hex_at(3, 3).id)  # rings through 13 and 18
    build_roads(g, RED, top + chain(13, 18) + bottom)
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 13 and len(r.networks) == 2 and len(r.networks[0].paths) == 13
    build_roads(g, ORANGE, chain(41, 36, 30))
    settle(g, ORANGE, 30)
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 11  # 30-35-29-23-18, the bridge, round the top ring
    (b,) = r.breaks
    assert (b.node, b.sides, b.length_without, b.cost) == (30, (11,), 13, 2)
    assert len(r.networks[0].pieces) == 1  # opened, not split
    assert {r.nodes[0], r.nodes[-1]} == {30, 13}


def test_theta_with_a_tail():
    """Two rings sharing a path, plus a tail: four odd intersections, so one road is left out: 11 of 12."""
    g = new_game()
    theta = sorted(set(ring(BOARD.hex_at(3, 2).id)) | set(ring(BOARD.hex_at(3, 3).id)))
    assert len(theta) == 11
    build_roads(g, RED, theta)
    r = longest_road(g, RED)
    check_report(g, r)
    assert len(r.networks) == 1 and len(r.networks[0].paths) == 12  # 13-18 is the tail
    assert r.length == 11 == brute_length(sorted(g.roads[RED]), set())


def test_loop_with_an_opponent_on_it_starts_and_ends_there():
    """B-LR-2: a ring of 6 with an opponent's settlement on it still counts 6: it starts and ends there.

    With red's tail 13-18 the ring is 7 (13-18, then round); orange at 30 leaves the ring alone (6):
    going out along the tail would mean passing 30.
    """
    g = new_game()
    build_roads(g, RED, ring(BOARD.hex_at(3, 3).id))
    build_roads(g, ORANGE, chain(41, 36, 30))
    settle(g, ORANGE, 30)
    r = longest_road(g, RED)
    check_report(g, r)
    assert r.length == 6 and r.nodes[0] == r.nodes[-1] == 30
    (b,) = r.breaks
    assert (b.node, b.sides, b.length_without, b.cost) == (30, (6,), 7, 1)


def test_longest_road_figure_marks_the_breaking_buildings():
    from catan_nb.viz import trace_index

    g = new_game()
    build_roads(g, RED, chain(11, 16, 22, 28, 34, 29, 23, 18, 13))
    build_roads(g, ORANGE, chain(40, 35, 29))
    settle(g, ORANGE, 29)
    fig = longest_road_figure(g, RED, palette_name="colorblind")
    assert list(fig.data[trace_index(fig, "highlight-nodes")].customdata) == [29]
    lr = fig.data[trace_index(fig, "longest-road")]
    assert len(lr.x) == 3 * 5  # five segments, each (x0, x1, None)
    assert fig.layout.title.text == "red: longest road 5"
    fig = longest_road_figure(g, RED, highlight_nodes=[3], title="mine")
    assert list(fig.data[trace_index(fig, "highlight-nodes")].customdata) == [3]


def test_trail_nodes_rejects_a_broken_sequence():
    assert trail_nodes(T, []) == ()
    assert trail_nodes(T, [p_(13, 18)]) == (13, 18)
    assert trail_nodes(T, chain(23, 18, 13)) == (23, 18, 13)
    with pytest.raises(ValueError):
        trail_nodes(T, [p_(13, 18), p_(22, 28)])


# ============================================================================ brute-force cross-check


def brute_length(paths: list[int], blocked: set[int]) -> int:
    """Largest subset of ``paths`` that is one road: connected, an Euler trail, no opponent passed."""
    ends = {d["id"]: (a, b) for a, b, d in BOARD.graph.edges(data=True)}
    best = 0
    graph = nx.Graph()
    graph.add_edges_from(ends[e] for e in paths)
    for comp in nx.connected_components(graph):
        mine = [e for e in paths if ends[e][0] in comp]
        for k in range(len(mine), best, -1):
            if any(_is_road([ends[e] for e in sub], blocked) for sub in itertools.combinations(mine, k)):
                best = k
                break
    return best


def _is_road(pairs: list[tuple[int, int]], blocked: set[int]) -> bool:
    deg: dict[int, int] = {}
    for a, b in pairs:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    odd = sum(d % 2 for d in deg.values())
    if odd not in (0, 2):
        return False
    on_blocked = [deg[v] for v in blocked if v in deg]
    # an opponent's intersection may only be an end: degree 1 (an odd end), or degree 2 when the
    # road is a closed loop that starts and ends there (and then it is the only one on the road)
    if any(d > 2 for d in on_blocked) or (2 in on_blocked and (odd or len(on_blocked) > 1)):
        return False
    seen, stack = {pairs[0][0]}, [pairs[0][0]]
    adj: dict[int, list[int]] = {}
    for a, b in pairs:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    while stack:
        for w in adj[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return len(seen) == len(deg)


def split_pieces(paths, ends, cut) -> list[tuple[int, ...]]:
    """Parts of a network once every intersection in ``cut`` is split into one end per road."""
    graph = nx.Graph()
    for e in paths:
        a, b = ((v, e) if v in cut else v for v in ends[e])
        graph.add_edge(a, b, id=e)
    return sorted(tuple(sorted(d["id"] for *_, d in graph.subgraph(c).edges(data=True))) for c in nx.connected_components(graph))


def _brute_from(start: int, paths: list[int], blocked: set[int]) -> int:
    """Largest subset of ``paths`` that is one road with an end at ``start`` (B-LR-1..2), by subsets."""
    ends = {d["id"]: (a, b) for a, b, d in BOARD.graph.edges(data=True)}
    for k in range(len(paths), 0, -1):
        for sub in itertools.combinations(paths, k):
            pairs = [ends[e] for e in sub]
            if not _is_road(pairs, blocked):
                continue
            deg: dict[int, int] = {}
            for a, b in pairs:
                deg[a] = deg.get(a, 0) + 1
                deg[b] = deg.get(b, 0) + 1
            odd = [v for v, d in deg.items() if d % 2]
            if odd:  # an open trail runs between the two odd intersections
                ok = start in odd
            else:  # a loop starts anywhere, but at its opponent's intersection if it has one
                on_blocked = [v for v in deg if v in blocked]
                ok = start in deg and on_blocked in ([], [start])
            if ok:
                return k
    return 0


def test_B_LR_1_longest_trail_from_one_end_agrees_with_brute_force():
    """``longest_trail_from`` (the engine's recount after a road ends on a new intersection) equals the
    largest road with an end at that intersection, on 300 random networks with random blocks."""
    from catan_nb.rules.longest_road import longest_trail_from

    rng = random.Random(17)
    for _ in range(300):
        start_edge = rng.randrange(T.n_edges)
        net, size = {start_edge}, rng.randint(1, 10)
        while len(net) < size:  # a connected network grown edge by edge
            v = rng.choice([v for e in net for v in T.edge_nodes[e]])
            net.add(rng.choice(T.node_edges[v]))
        nodes = sorted({v for e in net for v in T.edge_nodes[e]})
        blocked = set(rng.sample(nodes, rng.randint(0, min(2, len(nodes)))))
        start = rng.choice(nodes)
        got = longest_trail_from(start, net, T.edge_nodes, T.node_edges, blocked)
        assert got == _brute_from(start, sorted(net), blocked), (sorted(net), blocked, start)


def _lazy_games():
    """Seeded games: the base game, Seafarers (roads and ships, SF-8) on the islands scenario, Helpers."""
    from catan_nb.board import BOARDS_DIR
    from catan_nb.rules import Rules

    islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
    for seed in range(40):
        yield seed, Game(Board.random(seed=seed), players=4, seed=seed)
    for seed in range(12):
        yield seed, Game(islands, players=3 + seed % 2, seed=seed, rules=Rules(modules=("seafarers",)))
    for seed in range(20):  # the Explorer moves roads (H-CARD-9)
        yield seed, Game(Board.random(seed=seed), players=4, seed=seed, rules=Rules(modules=("helpers",)))


def test_B_LR_1_lazy_recount_after_many_roads_equals_a_fresh_count():
    """The engine recounts a stale length only from what the pieces added since it was last known can
    have changed (their fresh ends, the networks of pieces joining two known intersections); several
    pieces may pile up between two looks: it equals a count from scratch (B-LR-1..3, SF-8).

    The lengths are looked at only now and then (as a bot or the Longest Road card needs them),
    so that several roads or ships are built between two looks.
    """
    from catan_nb.rules.longest_road import longest_trail

    looked = piled = 0
    for seed, game in _lazy_games():
        bots = [RandomBot(seed=seed * 10 + p) for p in range(game.n)]
        look = random.Random(seed)
        t = game.topology
        building = [bool(k and k.building) for k in game.kinds]
        blocks = [bool(k and k.blocks) for k in game.kinds]
        before = [0] * game.n
        while not game.is_over and game.turn < 1500:
            acts = game.legal_actions()
            game.apply(acts[int(bots[game.current_player].rng.random() * len(acts))])
            if look.random() < 0.03:
                now = [sum(1 for o in game.edge_owner if o == p) for p in range(game.n)]
                piled += sum(1 for p in range(game.n) if now[p] - before[p] > 1)
                before = now
                for p in range(game.n):
                    want = longest_trail(
                        [e for e, o in enumerate(game.edge_owner) if o == p], t.edge_nodes, t.node_edges,
                        [v for v, o in enumerate(game.node_owner) if o >= 0 and o != p and blocks[game.node_kind[v]]],
                        edge_kind=game.edge_kind,
                        switch=[v for v, o in enumerate(game.node_owner) if o == p and building[game.node_kind[v]]],
                    )[0]
                    assert game.longest_road(p) == want, (seed, len(game.log), p)
                    looked += 1
    assert looked > 600 and piled > 150  # several pieces built between two looks, often


def test_brute_force_agrees_on_the_hand_built_shapes():
    assert brute_length(chain(13, 18, 23, 29, 34, 28, 22, 16), {23}) == 5
    assert brute_length(ring(9), {30}) == 6
    assert brute_length(ring(9) + chain(18, 13), {30}) == 6
    assert brute_length(ring(9) + chain(18, 13), {13}) == 7
    assert brute_length(ring(9) + chain(18, 13), {18}) == 6


def _snapshots(seed: int):
    """Positions along one seeded bot game (several per game, up to the end).

    Random play rarely settles inside an opponent's road, so each snapshot also
    comes as a what-if copy with opponents' settlements put on one to three
    intersections inside players' roads (the distance rule ignored: the
    analysis is geometry).
    """
    board = Board.random(seed=seed) if seed % 2 else BOARD
    g = Game(board, players=4, seed=seed, start="founding" if seed % 2 else "beginner")
    bots = [(WeightedBot if p % 2 else RandomBot)(seed=31 * seed + p) for p in range(4)]
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
        if rng.random() < 0.01 or g.is_over:
            yield g
            yield _what_if(g, rng)


def _what_if(g: Game, rng: random.Random) -> Game:
    t = g.board.topology
    c = g.copy()
    inner = sorted(
        (v, p)
        for p in range(g.n)
        for v in g.road_nodes[p]
        if g.node_owner[v] < 0 and sum(1 for e in t.node_edges[v] if g.edge_owner[e] == p) >= 2
    )
    for v, p in rng.sample(inner, min(len(inner), rng.randint(1, 3))):
        if c.node_owner[v] < 0:
            c.node_owner[v] = rng.choice([q for q in range(g.n) if q != p])
            c.node_kind[v] = rng.choice([1, 2])
    c.update_longest_road(range(c.n), broken=True)  # the engine recounts every length
    return c


@pytest.mark.parametrize("seed", range(6))
def test_random_games_agree_with_engine_and_brute_force(seed):
    """Every report, network, break and cut on seeded bot games equals an independent recount."""
    breaks_seen = 0
    for g in _snapshots(seed):
        t = g.board.topology
        ends = {d["id"]: (a, b) for a, b, d in g.board.graph.edges(data=True)}
        for p in range(g.n):
            r = longest_road(g, p)
            check_report(g, r)
            roads = sorted(g.roads[p])
            blocked = {v for v in range(t.n_nodes) if g.node_owner[v] not in (-1, p)}
            assert r.length == brute_length(roads, blocked)
            graph = nx.Graph()
            graph.add_edges_from((ends[e] + ({"id": e},) for e in roads))
            comps = sorted(sorted(d["id"] for _, _, d in graph.subgraph(c).edges(data=True)) for c in nx.connected_components(graph))
            assert sorted(list(n.paths) for n in r.networks) == comps
            for i, net in enumerate(r.networks):
                sub = graph.subgraph(net.nodes)
                assert net.breaks == tuple(sorted(v for v in net.nodes if v in blocked and sub.degree(v) >= 2))
                assert net.length == brute_length(list(net.paths), blocked)
                assert net.length_unbroken == brute_length(list(net.paths), set())
                assert sorted(net.pieces) == split_pieces(net.paths, ends, set(net.breaks))
            for b in r.breaks:
                breaks_seen += 1
                net = r.networks[b.network]
                assert b.owner == g.node_owner[b.node] != p and b.node in net.breaks
                assert b.network_length_without == brute_length(list(net.paths), blocked - {b.node})
                assert b.length_without == brute_length(roads, blocked - {b.node})
                assert b.length == r.length
                touching = [pc for pc in net.pieces if any(b.node in ends[e] for e in pc)]
                assert b.sides == tuple(sorted((brute_length(list(pc), blocked) for pc in touching), reverse=True))
            cuts = cut_lengths(g, p, distance_rule=False)
            assert all(g.node_owner[v] == -1 and after < r.length for v, after in cuts.items())
            for v in sorted(cuts)[::4]:  # a sample: the brute force is slow on big networks
                assert cuts[v] == brute_length(roads, blocked | {v})
    assert breaks_seen >= 5


def test_road_breaks_name_a_knight_that_blocks_a_road():
    """B-LR-2, CK-KN-7 (issue 24's audit: a piece-kind id was read as a Building): a Cities & Knights
    knight splitting a road is a break with ``building`` None and ``piece`` "knight"; the analysis
    once raised ValueError (kind id 4 is no Building)."""
    from catan_nb.analysis.longest_road import explain_longest_road, road_breaks
    from catan_nb.rules import Rules

    board = Board.beginner()
    g = Game(board, players=4, seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
    for a, b in ((18, 23), (23, 29)):
        g.place(0, "road", board.path_between(a, b))  # red 13-18-23-29
    g.place(1, "knight", 23)  # blue's knight cuts it at 23
    (b,) = road_breaks(g, 0)
    assert (b.node, b.owner, b.building, b.piece, b.sides, b.length_without) == (23, 1, None, "knight", (2, 1), 3)
    assert "blue's knight at 23" in explain_longest_road(g, 0)


# ============================================================================ every module: ships (SF-8), knights (CK-KN-7)
#
# The analysis asks the engine what its trail counts (Game.trail_inputs): every path kind, opponents'
# blocking pieces, kinds joined only at the player's own building.  These tests hold it to the
# engine's lengths on random games of Seafarers, Cities & Knights and both, and take every reported
# breaking piece off a copy of the game to check ``length_without`` against the engine's recount.


def _islands() -> Board:
    from catan_nb.rules.modules.seafarers import ISLANDS

    return Board.load(ISLANDS)


ISLANDS_BOARD = _islands()


def _module_game(module: str, seed: int) -> Game:
    from catan_nb.rules import Rules

    if module == "seafarers":
        return Game(ISLANDS_BOARD, players=3 + seed % 2, seed=seed, rules=Rules.for_board(ISLANDS_BOARD))
    if module == "cities_knights":
        return Game(Board.random(seed=seed), players=4, seed=seed, rules=Rules(modules=("cities_knights",)))
    return Game(ISLANDS_BOARD, players=3 + seed % 2, seed=seed,
                rules=Rules.for_board(ISLANDS_BOARD, modules=("cities_knights",)))


def _without(g: Game, v: int) -> Game:
    """A copy of ``g`` with every piece on intersection ``v`` taken off by the engine (a city goes back to
    its settlement first, then that goes)."""
    c = g.copy()
    while c.node_owner[v] >= 0:
        c.remove(c.kinds[c.node_kind[v]].name, v)
    return c


def _with_blocker(g: Game, q: int, kind: str, v: int) -> Game:
    c = g.copy()
    c.place(q, kind, v)
    return c


def brute_trail(g: Game, p: int, paths) -> int:
    """The longest trail through ``paths`` of ``p`` by walking every trail (an independent count): no path
    twice, never through an opponent's blocking piece (B-LR-2, CK-KN-7), from one kind to another only at
    ``p``'s own building (SF-8)."""
    t = g.topology
    mine = set(paths)
    building = {v for v, o in enumerate(g.node_owner) if o == p and g.kinds[g.node_kind[v]].building}
    blocked = {v for v, o in enumerate(g.node_owner) if o >= 0 and o != p and g.kinds[g.node_kind[v]].blocks}
    best = 0

    def walk(v, used, kind, length):
        nonlocal best
        best = max(best, length)
        if length and v in blocked:
            return
        for e in t.node_edges[v]:
            if e in mine and e not in used and (kind is None or g.edge_kind[e] == kind or v in building):
                a, b = t.edge_nodes[e]
                walk(b if a == v else a, used | {e}, g.edge_kind[e], length + 1)

    for v in {x for e in mine for x in t.edge_nodes[e]}:
        walk(v, frozenset(), None, 0)
    return best


def check_against_engine(g: Game, brute_up_to: int = 12) -> int:
    """Every seat's report equals the engine; every break's ``length_without`` is the engine's length with
    the piece taken off a copy; small networks equal an independent walk.  Returns the breaks seen."""
    t = g.topology
    seen = 0
    for p in range(g.n):
        r = longest_road(g, p)
        mine = sorted(e for e, o in enumerate(g.edge_owner) if o == p)  # every path kind
        assert r.length == g.longest_road(p) == g.road_lengths()[p] == len(r.road)
        assert list(r.road) == g.longest_road_path(p) and r.nodes == trail_nodes(t, r.road)
        assert r.road_kinds == tuple(g.kinds[g.edge_kind[e]].name for e in r.road)
        assert max((n.length for n in r.networks), default=0) == r.length
        assert sorted(e for n in r.networks for e in n.paths) == mine
        for n in r.networks:
            assert n.kinds == tuple(g.kinds[g.edge_kind[e]].name for e in n.paths)
            if len(n.paths) <= brute_up_to:
                assert n.length == brute_trail(g, p, n.paths), (p, n)
        for v in r.joins:  # SF-8: the road changes kind only at the player's own building
            assert g.node_owner[v] == p and g.kinds[g.node_kind[v]].building
        for b in r.breaks:
            seen += 1
            assert b.owner == g.node_owner[b.node] != p and g.kinds[g.node_kind[b.node]].blocks
            assert b.piece == g.kinds[g.node_kind[b.node]].name and b.is_building == (b.piece in ("settlement", "city"))
            assert b.length_without == _without(g, b.node).longest_road(p), (p, b)
            assert b.length == r.length <= b.length_without
        other = (p + 1) % g.n
        for v, after in list(cut_lengths(g, p, distance_rule=False).items())[:3]:  # a new blocking piece there
            assert _with_blocker(g, other, "settlement", v).longest_road(p) == after < r.length, (p, v)
    return seen


def _play_and_check(module: str, seed: int, steps: int) -> tuple[int, set[str]]:
    """A seeded bot game of ``module``; every few actions, the check on the position and on what-if copies
    with an opponent's settlement (and, with knights, a knight) placed inside a player's network."""
    g = _module_game(module, seed)
    bots = [(WeightedBot if q % 2 else RandomBot)(seed=17 * seed + q) for q in range(g.n)]
    rng = random.Random(seed)
    t = g.topology
    breaks, kinds = 0, set()
    blockers = [k.name for k in g.kinds if k is not None and k.site == "node" and k.blocks and not k.upgrade_of]
    for step in range(steps):
        if g.is_over:
            break
        g.apply(bots[g.current_player].choose(g))
        if step % 40 != 39:
            continue
        breaks += check_against_engine(g)
        kinds |= {g.kinds[k].name for k in set(g.edge_kind) if k}
        inner = sorted((v, p) for p in range(g.n) for v in g.road_nodes[p] if g.node_owner[v] < 0 and t.node_land[v]
                       and sum(1 for e in t.node_edges[v] if g.edge_owner[e] == p) >= 2)
        for v, p in rng.sample(inner, min(2, len(inner))):
            what_if = _with_blocker(g, rng.choice([q for q in range(g.n) if q != p]), rng.choice(blockers), v)
            breaks += check_against_engine(what_if)
            for r in longest_roads(what_if):
                kinds |= {b.piece for b in r.breaks}
                kinds |= {f"broken {k}" for b in r.breaks for k in r.networks[b.network].kinds}
    return breaks, kinds


@pytest.mark.parametrize("seed", range(3))
def test_SF_8_random_seafarers_games_agree_with_the_engine(seed):
    """SF-8, B-LR-2: on the islands scenario, roads and ships together, every break checked by removal."""
    breaks, kinds = _play_and_check("seafarers", seed, 2000)
    assert breaks > 0 and {"road", "ship", "settlement", "broken ship"} <= kinds


@pytest.mark.parametrize("seed", range(3))
def test_CK_KN_7_random_cities_knights_games_agree_with_the_engine(seed):
    """CK-KN-7, B-LR-2: knights and buildings break roads alike; every break checked by removal."""
    breaks, kinds = _play_and_check("cities_knights", seed, 2000)
    assert breaks > 0 and {"road", "knight"} <= kinds


@pytest.mark.parametrize("seed", range(3))
def test_SF_8_CK_KN_7_random_cities_knights_seafarers_games_agree_with_the_engine(seed):
    """SF-8 with CK-KN-7: ships, roads, knights and buildings at once."""
    breaks, kinds = _play_and_check("both", seed, 2000)
    assert breaks > 0 and {"road", "ship", "knight", "broken ship"} <= kinds


# ---------------------------------------------------------------------------- hand-built Seafarers positions


def _ring_from(g: Game, hx: int, start: int) -> list[int]:
    """The six sides of hex ``hx`` in order round it from intersection ``start``."""
    t = g.topology
    out, at = [], start
    while len(out) < 6:
        e = next(e for e in t.hex_edges[hx] if at in t.edge_nodes[e] and e not in out)
        out.append(e)
        at = next(x for x in t.edge_nodes[e] if x != at)
    return out


def _coast_corner(g: Game) -> tuple[int, int, int, list[int], list[int]]:
    """A land intersection ``v`` on a coastal side between a land hex and a sea hex (all sides free),
    with two roads' worth of land sides from ``v`` round the land hex and two ships' worth of sea sides
    round the sea hex, the other way: (v, land hex, sea hex, land sides, sea sides)."""
    t = g.topology
    for v in range(t.n_nodes):
        if not (t.node_land[v] and t.node_sea[v]):
            continue
        for e in t.node_edges[v]:
            if not (t.edge_land[e] and t.edge_sea[e]):
                continue
            both = [h for h in range(t.n_hexes) if e in t.hex_edges[h]]
            land = next((h for h in both if t.hex_land[h]), None)
            sea = next((h for h in both if not t.hex_land[h]), None)
            if land is None or sea is None:
                continue
            roads = [f for f in _ring_from(g, land, v) if f != e][:2]
            ships = [f for f in _ring_from(g, sea, v) if f != e][:2]
            if roads[0] not in t.node_edges[v]:
                roads = [f for f in reversed(_ring_from(g, land, v)) if f != e][:2]
            if ships[0] not in t.node_edges[v]:
                ships = [f for f in reversed(_ring_from(g, sea, v)) if f != e][:2]
            if all(t.edge_sea[f] for f in ships) and roads[0] in t.node_edges[v] and ships[0] in t.node_edges[v]:
                return v, land, sea, roads, ships
    raise AssertionError("no coastal corner")


def _empty_islands(players: int = 3) -> Game:
    """The islands scenario before its founding: an empty board to put pieces on (Game.place)."""
    from catan_nb.rules import Rules

    return Game(ISLANDS_BOARD, players=players, seed=5, rules=Rules.for_board(ISLANDS_BOARD))


def test_SF_8_a_road_and_a_ship_join_through_the_players_building():
    """SF-8: two roads and two ships meeting at the player's own settlement are one trade route of 4."""
    g = _empty_islands()
    v, _, _, roads, ships = _coast_corner(g)
    g.place(0, "settlement", v)
    for e in roads:
        g.place(0, "road", e)
    for e in ships:
        g.place(0, "ship", e)
    r = longest_road(g, 0)
    assert r.length == 4 == g.longest_road(0)
    assert sorted(r.road_kinds) == ["road", "road", "ship", "ship"] and r.joins == (v,) and r.apart == ()
    (net,) = r.networks
    assert net.joins == (v,) and net.paths_of("ship") == tuple(sorted(ships)) and net.paths_of("road") == tuple(sorted(roads))
    text = explain_longest_road(g, 0)
    assert text.startswith(f"{g.colours[0]}: longest trade route 4 (") and "2 roads, 2 ships" in text
    assert f"join at its own settlement at {v} (SF-8)" in text
    check_against_engine(g)


def test_SF_8_a_road_and_a_ship_meeting_with_no_building_do_not_join():
    """SF-7, SF-8: the same pieces with no settlement of the player's at the meeting point are two
    networks of 2; an opponent's settlement there joins nothing either."""
    g = _empty_islands()
    v, _, _, roads, ships = _coast_corner(g)
    for e in roads:
        g.place(0, "road", e)
    for e in ships:
        g.place(0, "ship", e)
    r = longest_road(g, 0)
    assert r.length == 2 == g.longest_road(0) and r.joins == () and r.apart == (v,)
    assert sorted(n.kinds for n in r.networks) == [("road", "road"), ("ship", "ship")]
    assert "do not join (SF-8)" in explain_longest_road(g, 0)
    g.place(1, "settlement", v)
    r = longest_road(g, 0)
    assert r.length == 2 == g.longest_road(0) and r.breaks == ()  # each network ends there: nothing is split
    check_against_engine(g)


def test_SF_8_B_LR_2_a_ship_route_is_broken_by_an_opponents_settlement():
    """B-LR-2 for ships: five ships round a sea hex through a land corner; an opponent's settlement on the
    corner splits the route, and taking it off gives the engine's 5 back."""
    g = _empty_islands()
    t = g.topology
    for hx in range(t.n_hexes):
        if t.hex_land[hx]:
            continue
        ring_nodes = t.hex_nodes[hx]
        corner = next((v for v in ring_nodes if t.node_land[v]), None)
        if corner is None:
            continue
        ring = _ring_from(g, hx, corner)
        route = ring[-1:] + ring[:4]  # five sides; the corner is the route's first inner intersection
        break
    for e in route:
        g.place(0, "ship", e)
    assert longest_road(g, 0).length == 5 == g.longest_road(0)
    g.place(1, "settlement", corner)
    r = longest_road(g, 0)
    assert r.length == 4 == g.longest_road(0)
    (b,) = r.breaks
    assert (b.node, b.owner, b.piece, b.building, b.sides, b.length_without) == (corner, 1, "settlement",
                                                                                  Building.SETTLEMENT, (4, 1), 5)
    assert r.networks[0].paths_of("ship") == tuple(sorted(route)) and len(r.networks[0].pieces) == 2
    assert _without(g, corner).longest_road(0) == b.length_without
    assert f"{g.colours[1]}'s settlement at {corner} splits network 0 (4+1); without it: 5." in explain_longest_road(g, 0)
    assert cut_lengths(g, 0, distance_rule=False) == {v: n for v, n in cut_lengths(g, 0, distance_rule=False).items()
                                                      if g.node_owner[v] < 0}
    check_against_engine(g)


def test_SF_8_figure_draws_the_trade_route_over_roads_and_ships():
    """The figure's glow follows the engine's route through roads and ships; ships are drawn by the
    Seafarers layer, the title names the Longest Trade Route."""
    from catan_nb.viz import trace_index

    g = _empty_islands()
    v, _, _, roads, ships = _coast_corner(g)
    g.place(0, "settlement", v)
    for e in roads + ships:
        g.place(0, "road" if e in roads else "ship", e)
    fig = longest_road_figure(g, 0)
    assert fig.layout.title.text == f"{g.colours[0]}: longest trade route 4"
    lr = fig.data[trace_index(fig, "longest-road")]
    assert sum(1 for x in lr.x if x is None) == 4
    ship_trace = fig.data[trace_index(fig, "seafarers:ship:0")]
    assert sum(1 for x in ship_trace.x if x is None) == 2
    road_trace = fig.data[trace_index(fig, "road:0")]
    assert sum(1 for x in road_trace.x if x is None) == 2


# ---------------------------------------------------------------------------- hand-built Cities & Knights positions


def test_CK_KN_7_a_knight_breaks_a_road_and_walls_and_metropolises_change_nothing():
    """CK-KN-7: an opponent's knight splits a road like a building (taking it off gives the engine's length
    back); the player's own knight splits nothing; a city wall (CK-WALL-1) and a metropolis (CK-IMP-4) on
    a breaking city leave every length as it was."""
    from catan_nb.rules import Rules
    from catan_nb.rules.modules.cities_knights import BuildWall, ImproveCity, Track

    g = Game(BOARD, players=4, seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
    for e in chain(18, 23, 29, 34, 28):
        g.place(RED, "road", e)
    assert longest_road(g, RED).length == 6 == g.longest_road(RED)
    g.place(RED, "knight", 29)  # one's own knight: nothing breaks (B-LR-3)
    assert longest_road(g, RED).length == 6 and road_breaks(g, RED) == ()
    g.place(WHITE, "knight", 23)
    r = longest_road(g, RED)
    (b,) = r.breaks
    assert (b.node, b.piece, b.building, b.is_building, b.sides, b.length_without) == (23, "knight", None, False, (4, 2), 6)
    assert r.length == 4 == g.longest_road(RED) and _without(g, 23).longest_road(RED) == 6
    assert "white's knight at 23 splits network 0 (4+2); without it: 6." in explain_longest_road(g, RED)
    check_against_engine(g)
    # a white city on 23 instead, then its wall and a metropolis: still the same break, the same lengths
    g.remove("knight", 23)
    g.place(WHITE, "settlement", 23)
    g.place(WHITE, "city", 23)
    before = [longest_road(g, p) for p in range(g.n)]
    assert before[RED].breaks[0].piece == "city" and before[RED].length == 4
    to_main(g, WHITE)
    g.deal(WHITE, {Resource.BRICK: 2})
    g.play(BuildWall(23))
    cloth = next(good for good in g.goods if str(good) == "cloth")
    for level in range(1, 5):
        g.deal(WHITE, {cloth: level})
        g.play(ImproveCity(Track.TRADE))
        while g.phase is not Phase.MAIN:  # the metropolis goes on a city (CK-IMP-4)
            g.play(next(a for a in g.legal_actions() if getattr(a, "node", None) == 23))
    assert 23 in g.ext["cities_knights"]["walls"][WHITE]
    assert g.ext["cities_knights"]["metropolis"][0] == [WHITE, 23]
    after = [longest_road(g, p) for p in range(g.n)]
    assert [(r.length, r.breaks, r.networks) for r in after] == [(r.length, r.breaks, r.networks) for r in before]
    check_against_engine(g)


# ---------------------------------------------------------------------------- a module's own pieces


@pytest.fixture
def canal_module():
    """A test module adding a path piece of its own, a canal on land paths: no rule of it is known to the
    analysis; the engine's trail counts it with the roads, joined only at the player's own building.
    Registered for the test only."""
    from catan_nb.rules.modules import MODULES, Module, register
    from catan_nb.rules.pieces import PieceKind

    name = "test_lr_canals"
    canal = PieceKind("canal", "path", limit=5, cost={"brick": 2}, land=True, owner=name)
    register(type("Canals", (Module,), {"name": name, "pieces": (canal,)}))
    try:
        yield name
    finally:
        MODULES.pop(name)


def test_B_LR_1_SF_8_a_modules_own_path_piece_counts_where_the_engine_counts_it(canal_module):
    """Path kinds are the engine's registry, not names: a module's canal joins roads only at the player's
    building (as ships do, SF-8), and its networks, breaks and lengths equal the engine's."""
    from catan_nb.rules import Rules

    g = Game(BOARD, players=4, seed=1, start="beginner", rules=Rules(modules=(canal_module,)))
    assert path_kinds(g) == ("road", "canal") and route_title(g) == "Longest Road"
    for e in chain(18, 23, 29):
        g.place(RED, "road", e)
    for e in chain(13, 8, 4):
        g.place(RED, "canal", e)  # meets red's road 13-18 at red's settlement on 13: one trail
    r = longest_road(g, RED)
    assert r.length == 5 == g.longest_road(RED) and r.joins == (13,) and r.apart == ()
    text = explain_longest_road(g, RED)
    assert "join at its own settlement at 13 (SF-8)" in text and "2 canals, 3 roads" not in text
    assert text.startswith("red: longest road 5 (intersections ") and "3 roads, 2 canals" in text
    for e in chain(29, 35):
        g.place(RED, "canal", e)  # a canal at the end of red's road with no building there: no join
    r = longest_road(g, RED)
    assert r.length == 5 == g.longest_road(RED) and r.apart == (29,)
    assert sorted(tuple(sorted(n.kinds)) for n in r.networks) == [
        ("canal",), ("canal", "canal", "road", "road", "road"), ("road",)]  # and red's start road 22-28
    g.place(WHITE, "settlement", 8)  # cuts the canal line
    r = longest_road(g, RED)
    (b,) = r.breaks
    assert (b.node, b.piece, b.sides, b.length_without) == (8, "settlement", (4, 1), 5)
    check_against_engine(g)


def test_B_LR_2_a_piece_that_does_not_block_breaks_nothing():
    """B-LR-2 is about pieces that block: the example module's loom (no ``blocks``) on an intersection inside
    an opponent's road breaks nothing, for the engine and the analysis alike."""
    from catan_nb.examples import shearing
    from catan_nb.rules import Rules

    g = Game(BOARD, players=4, seed=1, start="beginner", rules=Rules(modules=(shearing.NAME,)))
    for e in chain(18, 23, 29, 34):
        g.place(RED, "road", e)
    g.place(WHITE, "loom", 23)
    r = longest_road(g, RED)
    assert r.length == 4 == g.longest_road(RED) and r.breaks == ()  # 13-18-23-29-34, through the loom
    assert cut_lengths(g, RED, distance_rule=False) == {18: 3, 29: 3}  # the loom holds 23: no settlement there
    check_against_engine(g)

"""The second shipped example, :mod:`catan_nb.examples.toll_bridges` (issue 38, part 3).

It uses the hooks a module author lacked: a path piece that joins roads (``PieceKind.joins``), a
public good (``GoodRules(public=True)``) and a site surcharge (``site_surcharge``), with
``allowed_sites`` and ``check_site``.  Checked here: whole random games keep the invariants and
their saves round-trip, what is listed is what ``play`` accepts, the views hide the hands and
show the silver, and each hook does what the module says.
"""

from __future__ import annotations

import random

import pytest

from catan_nb import Board, Game, RollDice
from catan_nb.analysis import RandomBot
from catan_nb.errors import IllegalActionError
from catan_nb.examples.toll_bridges import NAME, BuildBridge, Purse
from catan_nb.rules import BuildRoad, BuildSettlement, Rules, longest_trail

from helpers import deal, empty_hands
from invariants import Checker
from test_legal_equals_play import check_position

RULES = Rules(modules=(NAME,))


def _random_game(seed: int, turns: int = 120, every=None) -> Game:
    g = Game(Board.beginner(), seed=seed, rules=RULES)
    bots = [RandomBot(100 * seed + q) for q in range(g.n)]
    while not g.is_over and g.turn < turns:
        g.play(bots[g.current_player].choose(g))
        if every is not None:
            every(g)
    return g


def _main_phase(seed: int = 4) -> Game:
    g = Game(Board.beginner(), seed=seed, start="beginner", rules=RULES)
    g.play(RollDice(dice=(2, 2)))
    return g


def _bridges(g: Game) -> list[int]:
    return [e for e in range(g.topology.n_edges) if g.edge_owner[e] >= 0 and g.kinds[g.edge_kind[e]].name == "bridge"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_the_invariants_and_their_saves_round_trip(seed):
    checks = {}

    def every(g):
        if "checker" not in checks:
            checks["checker"] = Checker(g)
        checks["checker"]()

    g = _random_game(seed, every=every)
    assert Game.from_json(g.to_json()).state() == g.state()
    mid = Game.from_json(g.to_json())
    assert mid.log == g.log


def test_random_games_build_bridges_and_earn_silver():
    games = [_random_game(s) for s in (1, 2, 3, 4)]
    built = sum(len(_bridges(g)) for g in games)
    assert built > 0
    for g in games:
        silver = g.good_index(Purse.SILVER)
        assert sum(h[silver] for h in g.hands) + g.bank[silver] == 20


def test_what_is_listed_is_what_play_accepts():
    positions = []

    def keep(g):
        if len(g.log) % 23 == 0:
            positions.append(g.copy())

    for seed in (5, 6):
        _random_game(seed, turns=60, every=keep)
    g = _main_phase()
    deal(g, 0, brick=3, ore=3, lumber=2, wool=2, grain=2)
    positions.append(g)
    assert any(isinstance(a, BuildBridge) for p in positions for a in p.legal_actions())
    problems = [f"log {len(p.log)}: {msg}" for i, p in enumerate(positions)
                for msg in check_position(p, random.Random(i), {"positions": 0, "candidates": 0, "accepted": 0,
                                                                 "refused": 0, "known": 0})]
    assert not problems, problems[:20]


def test_views_hide_the_hands_and_show_the_silver():
    g = _main_phase()
    silver = g.good_index(Purse.SILVER)
    g.gain(1, silver, 3)
    deal(g, 1, ore=2)
    other = g.copy()  # seats 1 and 3 swap a card of different goods: their totals are the same
    give = next(r for r in range(5) if other.hands[1][r])
    take = next(r for r in range(5) if other.hands[3][r] and r != give)
    other.transfer(1, 3, [1 if r == give else 0 for r in range(g.n_goods)])
    other.transfer(3, 1, [1 if r == take else 0 for r in range(g.n_goods)])
    assert other.hands[1] != g.hands[1]
    for q in (0, 2):
        a, b = g.view(q), other.view(q)
        assert a == b
        assert a.public_goods == {Purse.SILVER: (0, 3, 0, 0)}
        assert a.hand == g.hand(q)
    assert g.view(1).public_goods[Purse.SILVER][1] == 3 and g.view(1).hand[Purse.SILVER] == 3
    richer = g.copy()
    richer.gain(1, silver, 1)
    assert richer.view(2).public_goods != g.view(2).public_goods  # the silver is public
    for seed in range(10):  # a determinisation deals the hidden cards again and keeps the silver
        d = g.determinized(2, seed)
        assert [h[silver] for h in d.hands] == [h[silver] for h in g.hands]


def test_a_bridge_continues_a_road_and_longest_road_runs_across_it():
    g = _main_phase()
    t = g.topology
    p = 0
    empty_hands(g)
    road = next(e for e in sorted(g.roads[p]) if any(g.node_owner[v] < 0 for v in t.edge_nodes[e]))
    v = next(v for v in t.edge_nodes[road] if g.node_owner[v] < 0)
    inland = [e for e in t.node_edges[v] if g.edge_owner[e] < 0 and not t.edge_sea[e]]
    assert inland
    e1 = inland[0]
    assert BuildBridge(e1) not in g.legal_actions()  # not affordable yet
    deal(g, p, brick=1, ore=1)
    assert BuildBridge(e1) in g.legal_actions()
    g.play(BuildBridge(e1))
    assert g.hands[p][g.good_index(Purse.SILVER)] == 2
    w = next(x for x in t.edge_nodes[e1] if x != v)
    e2 = next(e for e in t.node_edges[w] if g.edge_owner[e] < 0)
    deal(g, p, brick=1, lumber=1)
    assert BuildRoad(e2) in g.legal_actions()  # a road goes on from the bridge, no settlement between
    g.play(BuildRoad(e2))
    inputs = g.trail_inputs(p)
    assert longest_trail(edge_nodes=t.edge_nodes, node_edges=t.node_edges, **inputs)[0] == g.longest_road(p)
    assert {road, e1, e2} <= set(g.longest_road_path(p))


def test_a_bridge_is_never_built_along_the_coast():
    g = _main_phase()
    deal(g, 0, brick=3, ore=3)
    t = g.topology
    # a road of seat 0 that ends on the coast (set up as a test position)
    e, x, f = next((e, x, f) for e in range(t.n_edges) if t.edge_sea[e] and g.edge_owner[e] < 0
                   for x in t.edge_nodes[e] if g.node_owner[x] < 0
                   for f in t.node_edges[x] if f != e and g.edge_owner[f] < 0)
    g.place(0, "road", f)
    coast = [e]
    assert e in g.candidates(0, "road")  # the engine's way there is open: the module's rule refuses
    listed = {a.path for a in g.legal_actions() if isinstance(a, BuildBridge)}
    assert listed and not listed & set(coast)
    before = g.state()
    with pytest.raises(IllegalActionError) as e:
        g.play(BuildBridge(coast[0]))
    assert e.value.rule == "EX-BRIDGE-1" and g.state() == before


def test_a_settlement_at_a_bridge_pays_the_toll_in_silver():
    g = _main_phase()
    t = g.topology
    p = 0
    empty_hands(g)
    # a bridge of seat 0 from the end of one of its roads, then a road beyond it
    road = next(e for e in sorted(g.roads[p]) if any(g.node_owner[v] < 0 for v in t.edge_nodes[e]))
    v = next(v for v in t.edge_nodes[road] if g.node_owner[v] < 0)
    e1 = next(e for e in t.node_edges[v] if g.edge_owner[e] < 0 and not t.edge_sea[e])
    g.place(p, "bridge", e1)
    head = [x for x in t.edge_nodes[e1] if g.blocked[x] == 0 and t.node_land[x]]
    assert head, "no free bridgehead in this position"
    spot = head[0]
    silver = g.good_index(Purse.SILVER)
    assert g.site_cost(p, "settlement", spot)[silver] == 1
    deal(g, p, brick=1, lumber=1, wool=1, grain=1)
    assert BuildSettlement(spot) not in g.legal_actions()
    before = g.state()
    with pytest.raises(IllegalActionError) as e:
        g.play(BuildSettlement(spot))
    assert e.value.rule == "B-BUILD-1" and "silver" in str(e.value) and g.state() == before
    g.gain(p, silver, 1)
    assert BuildSettlement(spot) in g.legal_actions()
    g.play(BuildSettlement(spot))
    assert sum(g.hands[p]) == 0 and g.bank[silver] == 20


def test_the_table_shows_the_bridge_cost_the_silver_column_and_clickable_bridges():
    import re

    from catan_nb.widgets import GameTable

    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=4, start="beginner",
                  bot_delay=None, rules=RULES)
    assert "bridge" in re.sub("<[^>]+>", "", t.cost_box.value).lower()
    heads = re.findall(r"<th title='[^']*'>([^<]+)</th>", t.scoreboard.value)
    assert "Silver" in heads, heads
    names = {tr.name for tr in t.figure.data}
    assert {f"{NAME}:bridges", f"{NAME}:bridge-targets"} <= names

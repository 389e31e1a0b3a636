"""The placement hooks of docs/modules.md (issue 38, part 3): the founding flag and the site surcharge.

* ``allowed_sites`` and ``check_site`` receive ``founding`` (B-SETUP-15..17) instead of a module
  reading the phase; the old ``candidates`` and ``check_place`` hooks still work and warn.
* ``site_surcharge`` adds a cost at some sites: the engine lists only the sites a hand can pay for,
  refuses the others with B-BUILD-1 and the game unchanged, and pays it with the piece; free and
  founding pieces pay nothing.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from catan_nb import Board, Game, Resource, RollDice
from catan_nb.constants import Good, GoodRules
from catan_nb.analysis import RandomBot, play_game
from catan_nb.errors import IllegalActionError
from catan_nb.rules import BuildRoad, BuildSettlement, Rules
from catan_nb.rules.modules import MODULES, Module, register

from helpers import deal, empty_hands

BOARDS = Path(__file__).resolve().parent.parent / "boards"


def _coastal(game, v: int) -> bool:
    t = game.topology
    return any(t.edge_sea[e] for e in t.node_edges[v])


CALLS: list[tuple[str, bool]] = []


@pytest.fixture
def toll():
    """The guide's ``Toll`` module: no founding settlement on the coast, a coastal settlement costs 1 wool more."""

    class Toll(Module):
        name = "test_toll"

        def allowed_sites(self, game, player, kind, sites, founding):
            CALLS.append((kind, founding))
            if kind == "settlement" and founding:
                return [v for v in sites if not _coastal(game, v)]
            return sites

        def check_site(self, game, action, player, kind, site, founding):
            if kind == "settlement" and founding and _coastal(game, site):
                raise IllegalActionError("TOLL-1", f"intersection {site} is on the coast", action)

        def site_surcharge(self, game, player, kind, site):
            if kind == "settlement" and _coastal(game, site):
                return {"wool": 1}
            return None

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new hooks raise no deprecation warning
        register(Toll)
    CALLS.clear()
    yield Toll
    MODULES.pop("test_toll", None)


def _founded(rules: Rules, seed: int = 4) -> Game:
    g = Game(Board.beginner(), seed=seed, rules=rules)
    while g.phase.value.startswith("founding"):
        g.play(g.legal_actions()[0])
    return g


def test_allowed_sites_gets_the_founding_flag(toll):
    g = Game(Board.beginner(), seed=1, rules=Rules(modules=("test_toll",)))
    listed = g.legal_actions()
    assert ("settlement", True) in CALLS
    coast = [v for v in range(g.topology.n_nodes) if _coastal(g, v) and g.topology.node_land[v]]
    assert coast and not any(a.node in coast for a in listed)
    before = g.state()
    with pytest.raises(IllegalActionError) as e:
        g.play(BuildSettlement(coast[0]))
    assert e.value.rule == "TOLL-1" and g.state() == before
    g = _founded(Rules(modules=("test_toll",)))
    g.play(RollDice(dice=(2, 2)))
    CALLS.clear()
    g.candidates(g.current_player, "settlement")
    g.candidates(g.current_player, "road")
    assert CALLS and all(not founding for _, founding in CALLS)


def test_a_site_surcharge_is_listed_checked_and_paid(toll):
    g = _founded(Rules(modules=("test_toll",)))
    g.play(RollDice(dice=(2, 2)))
    p = g.current_player
    empty_hands(g)
    # give the seat a road network that reaches the coast and one inland spot
    t = g.topology
    coast = next((v for v in range(t.n_nodes) if _coastal(g, v) and t.node_land[v] and g.blocked[v] == 0), None)
    inland = next((v for v in range(t.n_nodes) if not _coastal(g, v) and t.node_land[v] and g.blocked[v] == 0), None)
    assert coast is not None and inland is not None
    for v in (coast, inland):
        e = t.node_edges[v][0]
        if g.edge_owner[e] < 0:
            g.place(p, "road", e)
    spots = g.candidates(p, "settlement")
    assert coast in spots and inland in spots
    assert g.site_cost(p, "settlement", coast) == tuple(
        c + (1 if i == Resource.WOOL.value else 0) for i, c in enumerate(g.cost("settlement")))
    assert g.site_cost(p, "settlement", inland) == g.cost("settlement")
    deal(g, p, brick=1, lumber=1, wool=1, grain=1)
    listed = {a.node for a in g.legal_actions() if isinstance(a, BuildSettlement)}
    assert inland in listed and coast not in listed
    before = g.state()
    with pytest.raises(IllegalActionError) as e:
        g.play(BuildSettlement(coast))
    assert e.value.rule == "B-BUILD-1" and "1 wool" in str(e.value) and g.state() == before
    deal(g, p, wool=1)
    assert coast in {a.node for a in g.legal_actions() if isinstance(a, BuildSettlement)}
    g.play(BuildSettlement(coast))
    assert sum(g.hands[p]) == 0  # the cost and the surcharge paid


def test_a_deprecated_placement_hook_still_filters_and_warns():
    class Old(Module):
        name = "test_old_hooks"

        def candidates(self, game, player, kind, sites):
            return [e for e in sites if e % 2 == 0] if kind == "road" else sites

        def check_place(self, game, action, player, kind, site):
            if kind == "road" and site % 2:
                raise IllegalActionError("OLD-1", f"path {site} is odd", action)

    with pytest.warns(DeprecationWarning, match="allowed_sites"):
        register(Old)
    try:
        g = Game(Board.beginner(), seed=2, rules=Rules(modules=("test_old_hooks",)))
        g.play(g.legal_actions()[0])
        roads = [a.path for a in g.legal_actions() if isinstance(a, BuildRoad)]
        assert roads and all(e % 2 == 0 for e in roads)
        odd = next(e for e in g.topology.node_edges[g.stack[-1].data] if e % 2)
        with pytest.raises(IllegalActionError) as e:
            g.play(BuildRoad(odd))
        assert e.value.rule == "OLD-1"
    finally:
        MODULES.pop("test_old_hooks", None)


def test_the_toll_module_plays_whole_games_and_saves_round_trip(toll):
    for seed in (1, 2):
        g = Game(Board.beginner(), seed=seed, rules=Rules(modules=("test_toll",)))
        play_game(g, [RandomBot(10 * seed + q) for q in range(4)], max_turns=150)
        assert Game.from_json(g.to_json()).state() == g.state()
        assert all(not _coastal(g, v) for v in g.occupied[:8])  # the founding settlements stayed inland


# ---------------------------------------------------------------- path kinds that join directly
@pytest.fixture
def bridge():
    """A bridge: a path piece on land declared to join roads (``PieceKind.joins``)."""
    from catan_nb.rules.pieces import PIECES, PieceKind

    kind = PieceKind("test_bridge", "path", limit=3, cost={"ore": 1}, joins=("road",), owner="test_bridge")

    class Bridges(Module):
        name = "test_bridge"
        pieces = (kind,)

    register(Bridges)
    yield kind
    MODULES.pop("test_bridge", None)
    PIECES.pop("test_bridge", None)


def _free_end(g: Game, p: int, e: int) -> int | None:
    """The end of path ``e`` with no piece on it, if any."""
    return next((v for v in g.topology.edge_nodes[e] if g.node_owner[v] < 0), None)


def test_a_bridge_carries_a_road_on_and_the_trail_runs_across_it(bridge):
    from catan_nb.rules import longest_trail

    g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("test_bridge",)))
    t = g.topology
    p = 0
    road = next(e for e in sorted(g.roads[p]) if _free_end(g, p, e) is not None)
    v = _free_end(g, p, road)
    assert v not in [w for w in range(t.n_nodes) if g.node_owner[w] == p]  # no building where they meet
    e1 = next(e for e in t.node_edges[v] if g.edge_owner[e] < 0)
    assert e1 in g.candidates(p, "test_bridge")  # a bridge continues a road with no building between
    g.place(p, "test_bridge", e1)
    w = next(x for x in t.edge_nodes[e1] if x != v)
    e2 = next(e for e in t.node_edges[w] if g.edge_owner[e] < 0)
    assert e2 in g.candidates(p, "road")  # and a road continues the bridge
    g.place(p, "road", e2)
    inputs = g.trail_inputs(p)
    assert inputs["edge_kind"] is None  # roads and bridges all join: counted as one kind
    n = longest_trail(edge_nodes=t.edge_nodes, node_edges=t.node_edges, **inputs)[0]
    assert n == g.longest_road(p) and {road, e1, e2} <= set(g.longest_road_path(p))


def test_the_engine_counts_joined_kinds_with_a_third_kind_apart():
    """``joins`` pairs given to the trail search: a road, a bridge joined to roads, and a ship that
    joins neither meets the others only at a building (SF-8)."""
    from catan_nb.rules import longest_trail

    edge_nodes = [(0, 1), (1, 2), (2, 3)]
    node_edges = [[0], [0, 1], [1, 2], [2]]
    road, ship, bridge = 3, 4, 5
    kinds = [road, bridge, ship]
    assert longest_trail({0, 1, 2}, edge_nodes, node_edges, edge_kind=kinds, joins={(road, bridge)})[0] == 2
    assert longest_trail({0, 1, 2}, edge_nodes, node_edges, edge_kind=kinds, joins={(road, bridge)}, switch={2})[0] == 3
    assert longest_trail({0, 1, 2}, edge_nodes, node_edges, edge_kind=kinds)[0] == 1


def test_seafarers_declares_no_joins_and_counts_as_before():
    board = Board.load(BOARDS / "seafarers_islands.json")
    g = Game(board, seed=3, rules=Rules.for_board(board))
    play_game(g, [RandomBot(q) for q in range(g.n)], max_turns=60)
    assert not any(k.joins for k in g.kinds if k is not None)
    for p in range(g.n):
        assert g.trail_inputs(p)["joins"] == frozenset()


# ---------------------------------------------------------------- a public good
class _Purse(Good):
    TEST_COIN = 0


@pytest.fixture
def coins():
    class Coins(Module):
        name = "test_coins"
        goods = (_Purse.TEST_COIN,)
        good_rules = {_Purse.TEST_COIN: GoodRules(public=True, stolen=False, discarded=False, bank_trade=False)}

        def components(self, game, comps):
            comps["bank"][_Purse.TEST_COIN] = 20

    register(Coins)
    yield _Purse.TEST_COIN
    MODULES.pop("test_coins", None)


def test_a_public_good_is_shown_per_seat_and_kept_by_determinisation(coins):
    g = Game(Board.beginner(), seed=5, start="beginner", rules=Rules(modules=("test_coins",)))
    c = g.good_index(coins)
    assert g.public_goods == (c,)
    for q, k in enumerate((2, 0, 5, 1)):
        g.gain(q, c, k)
    deal(g, 1, ore=2, grain=1)
    deal(g, 2, brick=3)
    view = g.view(0)
    assert view.public_goods == {coins: (2, 0, 5, 1)}
    assert view.hand[coins] == 2 and coins in g.view(3).public_goods
    hidden = [r for r in range(g.n_goods) if r != c]
    for seed in range(20):
        d = g.determinized(0, seed)
        assert [h[c] for h in d.hands] == [h[c] for h in g.hands]  # public: where it is
        assert d.hands[0] == g.hands[0]
        assert [sum(h[r] for r in hidden) for h in d.hands] == [sum(h[r] for r in hidden) for h in g.hands]
        assert sum(d.hands[q][r] for q in (1, 2, 3) for r in hidden) == sum(g.hands[q][r] for q in (1, 2, 3)
                                                                            for r in hidden)
    assert any(determinised.hands[1] != g.hands[1] for determinised in (g.determinized(0, s) for s in range(20)))


def test_no_good_of_the_base_game_is_public():
    g = Game(Board.beginner(), seed=5, start="beginner", rules=Rules(modules=("cities_knights",)))
    assert g.public_goods == () and g.view(0).public_goods == {}


# ---------------------------------------------------------------- one name per concept, old names kept
def test_player_view_card_counts_and_its_deprecated_name():
    g = Game(Board.beginner(), seed=5, start="beginner", rules=Rules(modules=("cities_knights",)))
    v = g.view(1)
    assert v.card_counts == tuple(sum(h) for h in g.hands)  # every good: commodities too
    with pytest.warns(DeprecationWarning, match="card_counts"):
        assert v.resource_counts == v.card_counts


def test_the_deprecated_legal_builds_hook_still_lists_a_modules_builds():
    from catan_nb.rules import EndTurn

    class OldBuilds(Module):
        name = "test_old_builds"

        def legal_builds(self, game, player, out):
            out.append(EndTurn())  # stands for a module's purchase

    with pytest.warns(DeprecationWarning, match="module_builds"):
        register(OldBuilds)
    try:
        g = Game(Board.beginner(), seed=2, start="beginner", rules=Rules(modules=("test_old_builds",)))
        out: list = []
        g.legal_builds(0, out)
        assert out.count(EndTurn()) == 1
    finally:
        MODULES.pop("test_old_builds", None)


def test_filter_sites_applies_the_modules_filters(toll):
    g = Game(Board.beginner(), seed=1, rules=Rules(modules=("test_toll",)))
    land = [v for v in range(g.topology.n_nodes) if g.topology.node_land[v]]
    assert g.filter_sites(0, "settlement", land) == land
    assert g.filter_sites(0, "settlement", land, founding=True) == [v for v in land if not _coastal(g, v)]


def test_the_guides_toll_example_runs_as_printed():
    import re

    guide = (Path(__file__).resolve().parent.parent / "docs" / "modules.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", guide, flags=re.S) if "class Toll(Module)" in b)
    namespace = {"Module": Module, "IllegalActionError": IllegalActionError}
    exec(compile(block, "docs/modules.md", "exec"), namespace)  # noqa: S102 - the guide's own code
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register(namespace["Toll"])
    try:
        g = Game(Board.beginner(), seed=3, rules=Rules(modules=("toll",)))
        assert not any(_coastal(g, a.node) for a in g.legal_actions())
        play_game(g, [RandomBot(q) for q in range(4)], max_turns=80)
        assert Game.from_json(g.to_json()).state() == g.state()
    finally:
        MODULES.pop("toll", None)

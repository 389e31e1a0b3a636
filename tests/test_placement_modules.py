"""Placement value in every rule module: the score, the openings and the explorer read the modules'
declared knowledge (the bots' features), and differ from the base game where a module changes a spot's worth."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from catan_nb import Board, Game
from catan_nb.analysis.placement import (
    PAIR_PARTS,
    NodeTable,
    SPOT_PARTS,
    PlacementWeights,
    opening_terms,
    placement_heat,
    placement_weights,
    rank_openings,
    score_intersections,
    simulate_openings,
)
from catan_nb.analysis.seafarers import fog_odds
from catan_nb.analysis.spots import GOLD_WORTH, SpotTable
from catan_nb.analysis.value_bot import ValueBot
from catan_nb.board import BOARDS_DIR
from catan_nb.constants import Commodity, Resource, Terrain, pips
from catan_nb.rules import BuildCity, Phase, Rules
from catan_nb.rules.modules.cities_knights import CITY_YIELDS
from catan_nb.rules.modules.gold_fields import gold_board
from catan_nb.rules.modules.seafarers import islands

W = PlacementWeights()


def scenario(name: str, players: int = 4, seed: int = 1) -> Game:
    board = Board.load(BOARDS_DIR / name)
    return Game(board, players=players, seed=seed, rules=Rules.for_board(board))


def by_node(rows) -> dict:
    return {int(r.node): r for r in rows}


def parts_sum(row) -> float:
    return sum(row.parts.values())


# ------------------------------------------------------------------ gold (SF-1)
def _retile(board: Board, hx: int, terrain: Terrain) -> Board:
    data = board.to_dict()
    data["hexes"][hx]["terrain"] = terrain.value
    if terrain is Terrain.DESERT:
        data["hexes"][hx].pop("token", None)
    data["layout"] = "custom"
    return Board.from_dict(data, source="test")


def test_SF_1_a_gold_field_is_a_pick_of_ones_choice_worth_more_than_a_desert():
    board = Board.random(seed=4)
    hx = next(h.id for h in board.hexes if h.token == 6)
    gold = Game(gold_board(board, hx), seed=1, rules=Rules(modules=("gold_fields",)))
    desert = Game(_retile(board, hx, Terrain.DESERT), seed=1)
    touching = [v for v in range(54) if hx in gold.topology.node_hexes[v]]
    g, d = by_node(score_intersections(gold)), by_node(score_intersections(desert))
    dear = by_node(score_intersections(gold, weights=replace(placement_weights(gold), gold=2.0)))
    assert W.gold == GOLD_WORTH  # by default a pick is worth what the bots take it to be
    for v in touching:
        picks = pips(6) / 36  # a settlement's picks per roll
        extra = GOLD_WORTH * picks  # at the bots' worth of a choice
        assert g[v].production == pytest.approx(d[v].production + W.production * extra)
        assert g[v].production == pytest.approx(d[v].production + W.gold * picks)
        assert dear[v].production == pytest.approx(d[v].production + 2.0 * picks)  # the weight is the worth
        assert g[v].score > d[v].score and g[v].goods["choice"] == pytest.approx(picks, abs=1e-4)
    # openings on the gold climb: the best one touching the gold field ranks higher than the same pair
    # beside a desert
    ranked_gold = [(int(p.first), int(p.second)) for p in rank_openings(gold, 0, opponents="none")]
    ranked_desert = [(int(p.first), int(p.second)) for p in rank_openings(desert, 0, opponents="none")]
    pair = next(p for p in ranked_gold if set(p) & set(touching))
    assert ranked_gold.index(pair) < ranked_desert.index(pair)


# ------------------------------------------------------------------ Cities & Knights (CK-SETUP-1, CK-COM-2)
def test_CK_SETUP_1_openings_found_a_settlement_then_a_city_with_its_commodities():
    board = Board.beginner()
    ck = Game(board, seed=1, rules=Rules(modules=("cities_knights",)))
    base = Game(board, seed=1)
    pairs = rank_openings(ck, 0, top=30)
    assert all(p.kinds == ("settlement", "city") for p in pairs)
    assert rank_openings(base, 0, top=1)[0].kinds == ("settlement", "settlement")
    t = board.topology
    for p in pairs:
        # the city's commodities, computed from the rule module's own table (CK-COM-2)
        com = sum(Fraction(k * pips(board.hexes[h].token), 36)
                  for h in t.node_hexes[p.second] if board.hexes[h].token
                  for g, k in CITY_YIELDS.get(board.hexes[h].terrain, ()) if isinstance(g, Commodity))
        assert p.commodities == pytest.approx(placement_weights(ck).commodities * float(com))
        assert p.score == pytest.approx(sum(p.parts.values()), abs=1e-12)
    assert any(p.commodities > 0 for p in pairs)
    # the module's bot features set a commodity's worth: the value bot's, a card and a half (placement_weights)
    assert placement_weights(ck).commodities == 1.5 and placement_weights(base).commodities == W.commodities == 1.0


def test_CK_COM_2_a_mountains_city_is_worth_its_coin_in_cities_and_knights():
    board = Board.beginner()
    ck_weights = placement_weights(Game(board, seed=1, rules=Rules(modules=("cities_knights",))))
    # the base game scored with C&K's weights: what differs is then the module's yields alone
    ck, base = (score_intersections(Game(board, seed=1, rules=Rules(modules=m)), weights=w)
                for m, w in ((("cities_knights",), None), ((), ck_weights)))
    ck, base = by_node(ck), by_node(base)
    t = board.topology
    mountains = [v for v in range(54) if any(board.hexes[h].terrain is Terrain.MOUNTAINS for h in t.node_hexes[v])]
    fields_only = [v for v in range(54) if {board.hexes[h].terrain for h in t.node_hexes[v]} <= {Terrain.FIELDS, Terrain.HILLS}]
    for v in mountains:
        row = ck[v]
        assert row.city_score is not None and "coin" in SpotTable(ck_game := Game(board, seed=1, rules=Rules(
            modules=("cities_knights",)))).describe(v, "city")
        assert base[v].city_score is None  # the base game founds no city
        assert row.score == pytest.approx(base[v].score)  # as a settlement, the same spot
    for v in fields_only:  # hills and fields give no commodity: the city is worth its resources only
        assert SpotTable(ck_game).commodity_cards("city")[v] == 0
    # a mountains city is worth more in C&K than its settlement, by its commodities
    v = mountains[0]
    assert ck[v].city_score > ck[v].score


# ------------------------------------------------------------------ Seafarers (SF-13, SF-3, SF-14, SF-15)
def _founded(game: Game) -> Game:
    bots = [ValueBot(s) for s in range(game.n)]
    while game.phase.value.startswith("founding"):
        game.apply(bots[game.current_player].choose(game))
    return game


def test_SF_13_a_spot_on_a_foreign_island_earns_its_special_points():
    game = _founded(scenario("seafarers_islands.json"))
    seat = 0
    rows = by_node(score_intersections(game, seat=seat))
    groups = islands(game.board)
    st = game.ext["seafarers"]
    home = set(st["home"][seat])
    t = game.topology
    foreign = {v for i, g in enumerate(groups) if i not in home for h in g for v in t.hex_nodes[h]}
    per = game.board.scenario["foreign_island_vp"]
    assert any(v in foreign for v in rows)
    for v, r in rows.items():
        assert r.bonus == pytest.approx(W.bonus * per if v in foreign else 0.0)
    # the same spots on the same board without the module's points: no bonus at all
    plain = by_node(score_intersections(game.board, players=4))
    assert all(r.bonus == 0 for r in plain.values())  # in the founding, where one founds is home (SF-12)


def fog_everywhere() -> Game:
    """The fog map with founding next to fog allowed (without ``scenario.founding_in_fog``)."""
    data = Board.load(BOARDS_DIR / "seafarers_fog.json").to_dict()
    data["scenario"].pop("founding_in_fog")
    return Game(Board.from_dict(data, source="fog, founding anywhere"), players=4, seed=1)


def test_SF_3_a_fog_hex_counts_at_its_expectation_from_the_hidden_stack():
    game = fog_everywhere()
    tab = SpotTable(game)
    fog = [h for h, tr in enumerate(game.hex_terrain) if tr is Terrain.FOG]
    assert fog
    odds = fog_odds(game)
    expect = sum(float(p) * pips(tok) / 36 for (terrain, tok), p in odds.items() if tok and terrain.resource is not None)
    choice = sum(float(p) * pips(tok) / 36 for (terrain, tok), p in odds.items() if tok and terrain is Terrain.GOLD)
    for h in fog:
        row = tab._hex_row("settlement", h)
        assert row[tab.resource_cols].sum() == pytest.approx(expect)
        assert row[-1] == pytest.approx(choice)
    rows = by_node(score_intersections(game))
    # a spot touching only fog and sea is worth its expectation, not nothing and not a certainty
    t = game.topology
    only_fog = [v for v in rows if t.node_hexes[v] and all(h in fog for h in t.node_hexes[v])]
    assert only_fog
    for v in only_fog:
        n = len(t.node_hexes[v])
        assert rows[v].production == pytest.approx(W.production * n * (expect + GOLD_WORTH * choice))


def test_SF_14_harbour_points_count_toward_the_harbour_master():
    game = scenario("seafarers_harbours.json")
    rows = by_node(score_intersections(game))
    t = game.topology
    harbours = [v for v in rows if t.node_harbour[v] is not None]
    assert harbours and all(rows[v].bonus > 0 for v in harbours)
    assert all(rows[v].bonus == 0 for v in rows if t.node_harbour[v] is None)


def test_SF_15_a_small_island_hex_without_a_token_is_worth_the_tokens_to_come():
    game = scenario("seafarers_great_catan.json")
    small = [h for h in game.ext["great_catan"]["small"] if not game.hex_token[h]
             and game.hex_terrain[h].resource is not None]
    assert small
    tab = SpotTable(game)
    for h in small:
        assert tab._hex_row("settlement", h)[tab.resource_cols].sum() > 0


# ------------------------------------------------------------------ Corsica / New York (SC-5, SC-10)
def test_SC_5_SC_10_openings_keep_to_localities_and_value_the_tokens_near():
    game = scenario("corsica.json")
    tab = SpotTable(game)
    sites = set(np.flatnonzero(tab.sites).tolist())
    fresh = game.candidates(0, "settlement", founding=True)
    assert sites == set(fresh) and len(sites) < sum(game.topology.node_land)
    pairs = rank_openings(game, 0, top=50)
    assert pairs and all(int(p.first) in sites and int(p.second) in sites for p in pairs)
    rows = score_intersections(game)
    assert {int(r.node) for r in rows} <= sites
    tokens = [v for v, o in game.ext["corsica_new_york"]["tokens"] if o is None]
    assert tokens and any(r.targets > 0 for r in rows)
    near = max(rows, key=lambda r: r.targets)
    assert near.targets <= W.targets * 1.5  # a token is 1 VP: the best one plus half the next


def test_ERIE_2_SC_10_with_the_canal_the_score_weighs_the_tokens_in_reach_0():
    game = scenario("new_york.json")
    assert game.rules.modules == ("corsica_new_york", "erie_canal")
    assert placement_weights(game).targets == 0.0 and placement_weights(scenario("corsica.json")).targets == W.targets
    rows = score_intersections(game)
    assert rows and all(r.targets == 0.0 for r in rows)  # a part weighed 0 ...
    assert any(r.targets > 0 for r in score_intersections(game, weights=W))  # ... of a term the score still has
    pairs = rank_openings(game, 0, top=10)
    terms = opening_terms(game, 0, [(p.first, p.second) for p in pairs])
    assert terms["targets"].max() > 0 and all(p.targets == 0.0 for p in pairs)
    heat = placement_heat(game, "reach")  # drawn unweighed
    assert max(heat.values()) == pytest.approx(max(r.targets for r in score_intersections(game, weights=W)) / W.targets)


def test_SC_6_on_the_scenario_maps_the_score_weighs_pace():
    """Roads only on marked paths (SC-6): Corsica and New York weigh ``pace`` (6), the base game and Seafarers 0;
    the pairs' scores are their terms weighed so, best first, and differ from the scores with ``pace`` at 0."""
    assert W.pace == 0.0
    for name in ("corsica.json", "new_york.json"):
        game = scenario(name)
        w = placement_weights(game)
        assert w.pace == 6.0
        pairs = rank_openings(game, 0, top=15)
        t = opening_terms(game, 0, [(p.first, p.second) for p in pairs])
        assert t["pace"].min() > 0
        scores = np.array([p.score for p in pairs])
        again = sum(getattr(w, k) * t[k] for k in t)
        assert np.allclose(scores, again) and list(scores) == sorted(scores, reverse=True)
        assert any(abs(a.score - b.score) > 1e-9
                   for a, b in zip(pairs, rank_openings(game, 0, top=15, weights=replace(w, pace=0.0))))
    assert placement_weights(scenario("seafarers_islands.json")).pace == 0.0


# ------------------------------------------------------------------ five or six players (X56)
def test_X56_openings_with_five_players_model_eight_picks_between():
    game = Game(Board.five_six(), players=5, seed=1)
    pairs = rank_openings(game, 0, top=5)
    assert pairs and all(len(p.opponent_picks) == 8 for p in pairs)
    assert all(p.rivals < 0 for p in pairs)


# ------------------------------------------------------------------ every module: score, terms, heat
SETUPS = {
    "base": lambda: Game(Board.random(seed=2), seed=1),
    "friends": lambda: Game(Board.random(seed=2), seed=1, rules=Rules(modules=("friends",))),
    "helpers": lambda: Game(Board.random(seed=2), seed=1, rules=Rules(modules=("helpers",))),
    "cities_knights": lambda: Game(Board.random(seed=2), seed=1, rules=Rules(modules=("cities_knights",))),
    "seafarers": lambda: scenario("seafarers_islands.json"),
    "fog": lambda: scenario("seafarers_fog.json"),
    "great_catan": lambda: scenario("seafarers_great_catan.json"),
    "harbour_master": lambda: scenario("seafarers_harbours.json"),
    "corsica": lambda: scenario("corsica.json"),
    "new_york": lambda: scenario("new_york.json"),
    "five_six": lambda: Game(Board.five_six(), players=5, seed=1),
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_B_SETUP_15_score_openings_and_terms_agree_in_every_module(name):
    game = SETUPS[name]()
    rows = score_intersections(game)
    assert rows and all(abs(r.score - parts_sum(r)) < 1e-9 for r in rows)
    assert set(rows[0].parts) == set(SPOT_PARTS)
    pairs = rank_openings(game, 0, top=10)
    assert pairs and set(pairs[0].parts) == set(PAIR_PARTS)
    t = opening_terms(game, 0, [(p.first, p.second) for p in pairs])
    for i, p in enumerate(pairs):
        w = placement_weights(game)
        assert p.score == pytest.approx(sum(getattr(w, k) * x[i] for k, x in t.items()), abs=1e-9)
    heat = placement_heat(game, "score")
    assert heat and max(heat.values()) == pytest.approx(rows[0].score)


def test_B_SETUP_17_playouts_found_the_planned_city_in_cities_and_knights():
    game = Game(Board.beginner(), seed=3, rules=Rules(modules=("cities_knights",)))
    best = rank_openings(game, 0, top=1)[0]
    from catan_nb.analysis.placement import NodeTable, _opening_founding, _spec

    tab = NodeTable(game)
    orders = {k: tab.greedy_order[k] for k in dict.fromkeys(tab.kinds)}
    job = (_spec(game), 0, int(best.first), int(best.second), False, "greedy", "value", orders, 5, 7, (1, 2, 3, 4), False)
    g, _, fell_back = _opening_founding(job)
    assert not fell_back and g.rules.modules == ("cities_knights",)
    assert g.piece_at(int(best.first)) == (0, "settlement") and g.piece_at(int(best.second)) == (0, "city")
    assert any(isinstance(a, BuildCity) for a in g.log)
    rows = simulate_openings(game, 0, pairs=[(best.first, best.second)], playouts=1, bot="value", max_turns=3,
                             progress=False)
    assert rows[0].playouts == 1 and rows[0].fallbacks == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_SF_1_playouts_found_the_planned_pair_when_a_gold_pick_comes_between(seed):
    # A rival's second founding settlement on a gold field raises a pick (SF-1) before the seat's own second
    # settlement: the playout must still found the planned pair, not hand the seat's pick to its bot.
    rng = np.random.default_rng(seed)
    board = Board.random(seed=seed)
    numbered = [h.id for h in board.hexes if h.token]
    game = Game(gold_board(board, *sorted(rng.choice(numbered, 3, replace=False).tolist())), seed=seed,
                rules=Rules(modules=("gold_fields",)))
    from catan_nb.analysis.placement import NodeTable, _opening_founding, _spec
    from catan_nb.rules.modules.gold_fields import PickGold

    tab = NodeTable(game)
    orders = {k: tab.greedy_order[k] for k in dict.fromkeys(tab.kinds)}
    picked = 0
    for pair in rank_openings(game, 0, top=6):
        first, second = int(pair.first), int(pair.second)
        job = (_spec(game), 0, first, second, False, "greedy", "value", orders, 5, 7, (1, 2, 3, 4), False)
        g, _, fell_back = _opening_founding(job)
        assert not g.in_founding and g.phase is not None
        mine = sorted(v for v in g.occupied if g.node_owner[v] == 0)
        assert fell_back or mine == sorted((first, second)), (pair, mine)
        picked += any(isinstance(a, PickGold) for a in g.log)
    assert picked  # the case the test is about happened


def test_B_SETUP_15_in_founding_lasts_through_a_gold_pick():
    board = Board.random(seed=4)
    game = Game(gold_board(board, *[h.id for h in board.hexes if h.token]), seed=4, rules=Rules(modules=("gold_fields",)))
    phases, ranked = [], 0
    while game.in_founding:
        phases.append(game.phase)
        mine = [v for v in game.occupied if game.node_owner[v] == 0]
        if game.phase.value == "gold_pick" and len(mine) == 1:  # the seat's second pick is still to come
            best = rank_openings(game, 0, top=3)
            assert best and all(int(p.first) == mine[0] for p in best)
            assert score_intersections(game)  # the founding's free sites, not the game's later ones
            ranked += 1
        game.apply(ValueBot(seed=1).choose(game))
    assert any(ph.value == "gold_pick" for ph in phases) and game.phase.value == "roll" and ranked


def test_SF_13_playouts_of_a_scenario_board_play_its_rules():
    board = Board.load(BOARDS_DIR / "seafarers_islands.json")
    rows = simulate_openings(board, 0, top=1, playouts=1, bot="random", max_turns=2, progress=False)
    assert rows[0].playouts == 1
    from catan_nb.analysis.placement import _spec, study_game

    assert _spec(study_game(board))[2].modules == ("seafarers",)


# ------------------------------------------------------------------ the placement explorer on every module
@pytest.mark.parametrize("name", ["cities_knights", "fog", "harbour_master", "corsica", "new_york", "five_six"])
def test_the_placement_explorer_studies_every_modules_game(name):
    from catan_nb.widgets import PlacementExplorer

    game = SETUPS[name]()
    ex = PlacementExplorer(game, top=5)
    rows = score_intersections(game)
    best = int(rows[0].node)
    ex.click_node(best)
    assert f"intersection {best}" in ex.breakdown.value and "collects per roll" in ex.breakdown.value
    assert len(ex.openings) == 5 and ex.openings[0].score == rank_openings(game, 0, top=1)[0].score
    metrics = set(ex.metric_titles)
    if name == "cities_knights":
        assert "city_score" in metrics and "founding city" in ex.breakdown.value
        ex.set_metric("city_score")
        assert ex.heat and max(ex.heat.values()) == pytest.approx(max(r.city_score for r in rows))
    if name == "harbour_master":
        assert "bonus" in metrics
    if name == "corsica":
        assert "targets" in metrics and "reach" not in metrics
    if name == "new_york":  # the tokens in reach (SC-10): weighed 0 in the score with the canal, still drawn
        assert "targets" not in metrics and "reach" in metrics
        ex.set_metric("reach")
        assert ex.heat and max(ex.heat.values()) > 0
    elif name not in ("fog", "corsica"):
        assert "reach" not in metrics
    if name == "fog":  # the fog layer is drawn: the explorer shows the game, not the bare board
        assert any("fog" in (t.name or "") for t in ex.figure.data)
    assert "commodities" not in metrics  # a settlement collects no commodity (CK-COM-2)


def test_the_placement_explorer_on_a_scenario_board_shows_its_game():
    from catan_nb.widgets import PlacementExplorer

    board = Board.load(BOARDS_DIR / "seafarers_fog.json")
    ex = PlacementExplorer(board)
    assert set(Rules.for_board(board).modules) <= set(ex.game.rules.modules)
    assert any("fog" in (t.name or "") for t in ex.figure.data)


@pytest.mark.parametrize("name", ["fog", "corsica", "cities_knights"])
def test_heat_maps_are_drawn_with_the_modules_own_layers(name):
    from catan_nb.analysis.placement import placement_figure
    from catan_nb.viz import board_figure

    game = SETUPS[name]()
    heat_fig = placement_figure(game, "score")
    plain = board_figure(game)
    layers = {t.name for t in plain.data}
    assert layers <= {t.name for t in heat_fig.data}  # the module's own layers, as on its table
    if name == "fog":  # a scenario board is drawn as the game its file names
        assert {t.name for t in placement_figure(game.board, "score").data} >= layers


def test_SF_3_which_resource_a_fog_hex_gives_is_not_read_from_its_average():
    """A fog hex is one tile: its expected cards count in production, but the resources a spot collects at
    all (diversity) and the sets count the chance that it turns out to give each resource, not a little of
    every resource at once."""
    game = fog_everywhere()
    t = game.topology
    fog = {h for h, tr in enumerate(game.hex_terrain) if tr is Terrain.FOG}
    odds = fog_odds(game)
    q = {r: sum(float(p) for (terrain, tok), p in odds.items() if terrain.resource is r) for r in
         (tr.resource for tr in Terrain if tr.resource is not None)}
    only_fog = [v for v in range(t.n_nodes) if t.node_hexes[v] and set(t.node_hexes[v]) <= fog]
    assert only_fog
    assert all(len(x) == 0 for x in opening_terms(game, 0, []).values())
    from catan_nb.analysis.placement import NodeTable

    tab = NodeTable(game)
    tt = tab.terms(np.array(only_fog))
    for i, v in enumerate(only_fog):
        k = len(t.node_hexes[v])
        assert tt["diversity"][i] == pytest.approx(sum(1 - (1 - x) ** k for x in q.values()))
        assert tt["roads"][i] == tt["cities"][i] == tt["cards"][i] == 0
        assert tt["production"][i] > 0
    # the best spots of the fog map lie where the tiles show: a spot of three known hexes comes first
    best = score_intersections(game)[0]
    assert not set(t.node_hexes[int(best.node)]) & fog
    # on the shipped map the founding stands on land that shows its tile: no fog-only spot is scored
    shipped = {int(r.node) for r in score_intersections(scenario("seafarers_fog.json"))}
    assert shipped and not shipped & set(only_fog)


# ------------------------------------------------------------------ the whole founding's terms, every module
def _module_games():
    yield "base", Game(Board.random(seed=8), players=4, seed=1)
    yield "five_six", Game(Board.five_six(), players=5, seed=1)
    from catan_nb.rules.modules.seafarers import random_islands

    board = random_islands(3, players=4)
    yield "seafarers", Game(board, players=4, seed=1, rules=Rules(modules=("seafarers",)))
    yield "cities_knights", Game(Board.beginner(), players=4, seed=1, rules=Rules(modules=("cities_knights",)))


@pytest.mark.parametrize("name,game", list(_module_games()), ids=lambda x: x if isinstance(x, str) else "")
def test_founding_terms_recomputed_by_breadth_first_search_in_every_module(name, game):
    """``room`` (free sites two path steps away once all have founded, B-BUILD-7), ``apart``, ``shared`` and
    ``market`` of the top pairs, recomputed from the game's topology: paths are the edges a road (land) or a
    ship (sea, SF-5) may use; rivals' buildings are the modelled opponents' picks."""
    t = game.topology
    sites = SpotTable(game).sites
    seat = 0
    pairs = rank_openings(game, seat, top=12)
    terms = opening_terms(game, seat, [(p.first, p.second) for p in pairs])
    paths = {v: set() for v in range(t.n_nodes)}
    for e, (u, v) in enumerate(t.edge_nodes):
        if t.edge_land[e] or (name == "seafarers" and t.edge_sea[e]):
            paths[u].add(v)
            paths[v].add(u)

    def steps(src, graph, cap):
        seen, frontier = {src: 0}, [src]
        for d in range(1, cap + 1):
            frontier = [w for u in frontier for w in graph[u] if w not in seen and not seen.update({w: d})]
        return seen

    near = {v: set(t.node_neighbours[v]) for v in range(t.n_nodes)}
    for i, p in enumerate(pairs):
        a, b = int(p.first), int(p.second)
        picks = [int(v) for v in p.opponent_picks]
        rivals = picks  # seat 0 founds first and last: every rival's two picks lie between (B-SETUP-15, B-SETUP-16)
        closed = set()
        for v in (a, b, *rivals):
            closed |= {v, *near[v]}
        two = {v for s in (a, b) for v, d in steps(s, paths, 2).items() if d == 2}
        room = sum(1 for v in two if sites[v] and v not in closed)
        assert terms["room"][i] == room, (name, a, b)
        assert terms["apart"][i] == min(steps(a, near, 3).get(b, 4), 4)
        # frontier: free sites the pair reaches in fewer path steps than every rival building (within 5), each a
        # settlement's cards per roll, halved per step beyond two
        mine = {v: min(steps(a, paths, 5).get(v, 6), steps(b, paths, 5).get(v, 6)) for v in range(t.n_nodes)}
        theirs = {v: min([steps(r, paths, 5).get(v, 6) for r in rivals] or [6]) for v in range(t.n_nodes)}
        cards = NodeTable(game, seat=seat, players=game.n).production_of(np.arange(t.n_nodes), "settlement")
        want = sum(cards[v] * 0.5 ** max(mine[v] - 2, 0) for v in range(t.n_nodes)
                   if sites[v] and v not in closed and mine[v] < theirs[v] and mine[v] < 6)
        assert terms["frontier"][i] == pytest.approx(want, abs=1e-12), (name, a, b)
        assert terms["shared"][i] <= 0 and np.isfinite(terms["market"][i])
        own_hexes = {h for v in (a, b) for h in t.node_hexes[v]}
        if not own_hexes & {h for v in rivals for h in t.node_hexes[v]}:
            assert terms["shared"][i] == 0
        # rival_best: the best rival's own founding, scored as that seat's pair with no opponents modelled
        n = game.n - 1
        assert terms["rival_best"][i] == pytest.approx(-max(
            _own_score(game, q + 1, (picks[q], picks[2 * n - 1 - q])) for q in range(n)), abs=1e-12), (name, a, b)


def _own_score(game, seat, pair) -> float:
    """A seat's founding pair scored on its own: its terms but those that read the others' founding, weighted."""
    from catan_nb.analysis.placement import FOUNDING_WIDE, NodeTable

    w = placement_weights(game)
    t = NodeTable(game, seat=seat, players=game.n).terms(np.array([pair[0]]), np.array([pair[1]]))
    return sum(getattr(w, k) * float(x[0]) for k, x in t.items() if k not in FOUNDING_WIDE)


@pytest.mark.parametrize("name,game", list(_module_games()), ids=lambda x: x if isinstance(x, str) else "")
def test_seat_terms_give_every_seat_its_own_founding_in_every_module(name, game):
    """``seat_terms``: column 0 is the studied seat's own terms (as ``opening_terms`` gives them); column ``q`` is
    the pair the modelled opponents give seat ``q`` (its picks in the snake order, B-SETUP-15, B-SETUP-16),
    scored by that seat's own spot table, with ``room`` recomputed by breadth-first search (B-BUILD-7, SF-5) and
    no rival part; in the base game the production is the sum of the pips over 36 of the two sites' hexes."""
    from catan_nb.analysis.placement import FOUNDING_WIDE, NodeTable, seat_terms

    t = game.topology
    sites = SpotTable(game).sites
    pairs = rank_openings(game, 0, top=6)
    wanted = [(int(p.first), int(p.second)) for p in pairs]
    every = seat_terms(game, 0, wanted)
    mine = opening_terms(game, 0, wanted)
    n = game.n
    assert every["production"].shape == (len(wanted), n)
    for k in mine:
        if k in ("rivals", "rival_diversity", "rival_best", "position"):
            assert not every[k].any()
        else:
            assert every[k][:, 0] == pytest.approx(mine[k], abs=1e-12), (name, k)
    paths = {v: set() for v in range(t.n_nodes)}
    for e, (u, v) in enumerate(t.edge_nodes):
        if t.edge_land[e] or (name == "seafarers" and t.edge_sea[e]):
            paths[u].add(v)
            paths[v].add(u)

    def two_steps(src):
        seen, frontier = {src: 0}, [src]
        for d in (1, 2):
            frontier = [w for u in frontier for w in paths[u] if w not in seen and not seen.update({w: d})]
        return {v for v, d in seen.items() if d == 2}

    for i, p in enumerate(pairs):
        picks = [int(v) for v in p.opponent_picks]
        founding = {0: wanted[i], **{q: (picks[q - 1], picks[2 * (n - 1) - q]) for q in range(1, n)}}
        closed = {w for pair in founding.values() for v in pair for w in (v, *t.node_neighbours[v])}
        for q in range(1, n):
            a, b = founding[q]
            own = NodeTable(game, seat=q, players=n).terms(np.array([a]), np.array([b]))
            for k, x in own.items():
                if k not in FOUNDING_WIDE:
                    assert every[k][i, q] == pytest.approx(float(x[0]), abs=1e-12), (name, q, k)
            room = sum(1 for v in two_steps(a) | two_steps(b) if sites[v] and v not in closed)
            assert every["room"][i, q] == room, (name, q)
            if name == "base":
                pip = sum(pips(game.hex_token[h]) for v in (a, b) for h in t.node_hexes[v] if game.hex_token[h])
                assert every["production"][i, q] == pytest.approx(pip / 36)


def test_B_BUILD_1_city_goods_weighs_a_pairs_cards_toward_a_city_and_leaves_the_rivals_model_alone():
    """``city_goods``: a pair's cards per roll of the resources a city costs (B-BUILD-1: ore and grain), a gold
    field's pick counting as one of them (SF-1); a pair's term only, so the single-spot order the modelled
    rivals found by does not move when its weight does."""
    board = Board.random(seed=6)
    game = Game(board, seed=6)
    tab = NodeTable(game)
    wanted = [(int(p.first), int(p.second)) for p in rank_openings(game, 0, top=15)]
    terms = opening_terms(game, 0, wanted)
    for i, (a, b) in enumerate(wanted):
        ore_grain = sum(pips(t.token) for v in (a, b) for t in board.intersection_hexes(v)
                        if t.token and t.resource in (Resource.ORE, Resource.GRAIN)) / 36
        assert terms["city_goods"][i] == pytest.approx(ore_grain, abs=1e-12)
    assert not tab.terms(np.arange(tab.n))["city_goods"].any()  # no spot part
    heavy = replace(W, city_goods=3.0)
    assert NodeTable(game, heavy).greedy_order == tab.greedy_order
    ranked = rank_openings(game, 0, top=40, weights=heavy)
    picks = {(p.first, p.second): p.opponent_picks for p in rank_openings(game, 0, top=None)}
    assert all(p.opponent_picks == picks[(p.first, p.second)] for p in ranked)
    og = opening_terms(game, 0, [(p.first, p.second) for p in ranked])["city_goods"]
    assert og[:10].mean() > terms["city_goods"][:10].mean()  # the heavier weight leads with more ore and grain
    # a gold field's pick counts as one card toward a city
    hx = next(h.id for h in board.hexes if h.token == 8 and h.resource not in (Resource.ORE, Resource.GRAIN))
    gold = Game(gold_board(board, hx), seed=6, rules=Rules(modules=("gold_fields",)))
    a = next(v for v in range(54) if hx in gold.topology.node_hexes[v])
    b = next(v for v in range(54) if v not in (a, *gold.topology.node_neighbours[a]) and hx not in gold.topology.node_hexes[v])
    with_gold = opening_terms(gold, 0, [(a, b)], weights=W)["city_goods"][0]
    plain = opening_terms(game, 0, [(a, b)], weights=W)["city_goods"][0]
    assert with_gold == pytest.approx(plain + pips(8) / 36, abs=1e-12)


# ------------------------------------------------------------------ position: the bots' own worth of the founding
def _played_founding(game: Game, seat: int, pair, between) -> Game:
    """The founding rebuilt by hand: the seat's pair and the modelled rivals' sites in snake order (B-SETUP-15,
    B-SETUP-16), every founding road (B-SETUP-17) the value bot's, seeded as the first playout of seed 0."""
    from catan_nb.analysis.placement import founding_order

    rng = np.random.default_rng(0)
    game_seed = int(rng.integers(0, 2**62, size=1)[0])
    bot_seeds = rng.integers(0, 2**62, size=(1, game.n)).tolist()[0]
    g = Game(game.board, players=game.n, seed=game_seed, rules=game.rules)
    bots = [ValueBot(s) for s in bot_seeds]
    first_at = founding_order(game.n).index(seat)
    sites = iter([*between[:first_at], pair[0], *between[first_at:], pair[1]])
    while g.in_founding:
        if g.phase is Phase.FOUNDING_SETTLEMENT:
            v = next(sites)
            g.apply(next(a for a in g.legal_actions() if getattr(a, "node", None) == v))
        else:
            g.apply(bots[g.current_player].choose(g))
    return g


def test_B_SETUP_17_position_weighs_the_value_bots_worth_of_the_founding_played_out():
    """``position``: the value bot's ``position_value`` of the seat once every seat has founded, less the best
    other seat's, the founding played with the modelled rivals' sites (B-SETUP-15, B-SETUP-16) and the bot's
    founding roads (B-SETUP-17).  ``rank_openings`` weighs it for its best ``POSITION_SHORTLIST`` pairs by the
    other parts and lists them first; a pair's term, so the single-spot order does not move."""
    from catan_nb.analysis.placement import POSITION_SHORTLIST
    from catan_nb.analysis.value_bot import position_value

    game = Game(Board.random(seed=4), seed=4)
    plain = rank_openings(game, 0, top=None)
    assert not any(p.position for p in plain)  # 0 by default in the base game
    for p in plain[:3]:  # seat 0 of four: the six rival sites all come between its two picks
        g = _played_founding(game, 0, (p.first, p.second), list(p.opponent_picks))
        assert [int(v) for v in g.occupied if g.node_owner[v] != 0] == [int(v) for v in p.opponent_picks]
        worth = [position_value(g, q) for q in range(g.n)]
        term = opening_terms(game, 0, [(p.first, p.second)])["position"][0]
        assert term == pytest.approx(worth[0] - max(worth[1:]), abs=1e-9)
    heavy = replace(W, position=0.002)
    assert NodeTable(game, heavy).greedy_order == NodeTable(game).greedy_order
    ranked = rank_openings(game, 0, top=None, weights=heavy)
    short = {(p.first, p.second) for p in plain[:POSITION_SHORTLIST]}
    assert {(p.first, p.second) for p in ranked[:POSITION_SHORTLIST]} == short  # the shortlist ranks first
    assert not any(p.position for p in ranked[POSITION_SHORTLIST:])
    head = ranked[:POSITION_SHORTLIST]
    assert [p.score for p in head] == sorted((p.score for p in head), reverse=True)
    t = opening_terms(game, 0, [(p.first, p.second) for p in head[:8]], weights=heavy)
    for i, p in enumerate(head[:8]):
        assert p.position == pytest.approx(0.002 * t["position"][i], abs=1e-12)
        assert p.score == pytest.approx(sum(p.parts.values()), abs=1e-9)
        assert p.score == pytest.approx(sum(getattr(heavy, k) * x[i] for k, x in t.items()), abs=1e-9)
    assert rank_openings(game, 0, top=5, weights=heavy) == ranked[:5]  # the same, whatever top is asked


@pytest.mark.parametrize("name", ["cities_knights", "seafarers", "corsica"])
def test_CK_SETUP_1_SF_13_position_plays_each_modules_own_founding(name):
    """The founding the ``position`` term plays is the module's: a city in the second round (CK-SETUP-1), a
    scenario board's rules (SF-13), the seat's pair and the modelled rivals' sites as a hand-built founding
    has them, the bot's worth read with the module's features."""
    from catan_nb.analysis.value_bot import position_value

    game = SETUPS[name]()
    p = rank_openings(game, 0, top=1)[0]
    g = _played_founding(game, 0, (p.first, p.second), list(p.opponent_picks))
    assert g.piece_at(int(p.second)) == (0, "city" if name == "cities_knights" else "settlement")  # CK-SETUP-1
    worth = [position_value(g, q) for q in range(g.n)]
    term = opening_terms(game, 0, [(p.first, p.second)])["position"][0]
    assert term == pytest.approx(worth[0] - max(worth[1:]), abs=1e-9)


def test_B_BUILD_7_frontier_weighs_the_sites_a_pairs_roads_reach_first_and_leaves_the_rivals_model_alone():
    """``frontier``: the free founding sites (B-BUILD-7) a pair reaches in fewer path steps than any rival's
    building, each a settlement's cards per roll halved per step beyond two.  A pair's term only (no spot part),
    so the modelled rivals' order does not move with its weight; the base game and five or six players weigh it,
    and so do the modules where it was measured (the Erie Canal, ERIE-2: the roads race for the canal
    localities; the helpers); the other expansions do not."""
    game = Game(Board.random(seed=9), seed=9)
    tab = NodeTable(game)
    assert not tab.terms(np.arange(tab.n))["frontier"].any()
    heavy = replace(W, frontier=2.0)
    assert NodeTable(game, heavy).greedy_order == tab.greedy_order
    picks = {(p.first, p.second): p.opponent_picks for p in rank_openings(game, 0, top=None)}
    ranked = rank_openings(game, 0, top=30, weights=heavy)
    assert all(p.opponent_picks == picks[(p.first, p.second)] for p in ranked)
    t = opening_terms(game, 0, [(p.first, p.second) for p in ranked], weights=heavy)
    assert (t["frontier"] >= 0).all() and t["frontier"].any()
    light = opening_terms(game, 0, [(p.first, p.second) for p in rank_openings(game, 0, top=30)])["frontier"]
    assert t["frontier"][:10].mean() > light[:10].mean()  # the heavier weight leads with more room to race for
    assert W.frontier > 0 and placement_weights(SETUPS["five_six"]()).frontier == W.frontier
    for name in ("seafarers", "cities_knights", "friends", "corsica", "great_catan"):
        assert placement_weights(SETUPS[name]()).frontier == 0.0, name
    assert placement_weights(SETUPS["new_york"]()).frontier == 0.1  # the Erie Canal's roads race for its localities
    assert placement_weights(SETUPS["helpers"]()).frontier == W.frontier  # measured with the helpers too

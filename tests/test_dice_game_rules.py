"""Catan Dice Game rules, normal and Plus: one or more tests per DG-* and DGP-* rule id.

Positions are a game, a few structures marked as built, and a list of actions
whose dice are given (``Roll(faces=...)``), so nothing depends on luck.
"""

from __future__ import annotations

from collections import Counter

import pytest

from catan_nb.constants import Resource
from catan_nb.dicegame import (
    COSTS,
    Build,
    DiceGame,
    DicePhase,
    DiceSheet,
    EndTurn,
    Face,
    Kind,
    Roll,
    Stop,
    Swap,
    TradeGold,
    Variant,
)
from catan_nb.dicegame.constants import FACES, N_DICE, TURNS
from catan_nb.errors import IllegalActionError


# ---------------------------------------------------------------- helpers (also used by the other dice tests)
def F(text: str) -> tuple[Face, ...]:
    """Faces from words: ``F("ore ore gold")``."""
    return tuple(Face.parse(w) for w in text.split())


def game_with(built=(), *, players=1, variant="normal", seed=0, player=0) -> DiceGame:
    """A new game with some structures of ``player`` marked as built (a position)."""
    g = DiceGame(players, variant=variant, seed=seed)
    g.built[player] |= g.sheet.mask(built)
    return g


def roll(g: DiceGame, text: str, keep=()) -> None:
    g.play(Roll(keep=tuple(keep), faces=F(text)))


def raises(g: DiceGame, action, rule: str) -> IllegalActionError:
    """The action raises ``rule`` and leaves the state exactly as it was."""
    before = g.state()
    with pytest.raises(IllegalActionError) as info:
        g.play(action)
    assert info.value.rule == rule, str(info.value)
    assert g.state() == before
    return info.value


def empty_turn(g: DiceGame) -> None:
    g.play(Roll())
    g.play(EndTurn())


# ================================================================ 12.1 components, setup, turn
def test_DG_COMP_1_six_dice_with_five_resources_and_gold():
    """DG-COMP-1: 6 resource dice, each with wool, grain, brick, ore, lumber and gold."""
    assert N_DICE == 6
    assert {str(f) for f in FACES} == {"wool", "grain", "brick", "ore", "lumber", "gold"}
    assert [f.resource for f in FACES] == [*Resource, None]
    g = DiceGame(seed=1)
    g.play(Roll())
    assert len(g.dice) == 6 and all(isinstance(f, Face) for f in g.dice)
    raises(DiceGame(seed=1), Roll(faces=("diamond",) * 6), "API")  # not a face: refused at the boundary
    g = DiceGame(seed=1)
    g.play(Roll(faces=("ore",) * 6))  # face names are parsed (strings only at the edges)
    assert g.dice == [Face.ORE] * 6


def test_DG_COMP_2_two_sided_sheet_normal_and_plus():
    """DG-COMP-2: one double-sided sheet: the front for the normal game, the back for Plus."""
    front, back = DiceSheet.normal(), DiceSheet.plus()
    assert front.variant is Variant.NORMAL and back.variant is Variant.PLUS
    assert DiceGame(1).sheet == front and DiceGame(2, variant="plus").sheet == back


def test_DG_COMP_3_player_counts():
    """DG-COMP-3: the normal game is for 1-4 players, Plus for 2-4. Decision A-18."""
    for n in (1, 2, 3, 4):
        assert DiceGame(n).n == n
    for n in (2, 3, 4):
        assert DiceGame(n, variant="plus").n == n
    for bad in (0, 5):
        with pytest.raises(ValueError, match="DG-COMP-3"):
            DiceGame(bad)
    with pytest.raises(ValueError, match="DGP-1"):
        DiceGame(1, variant="plus")


def test_DG_SETUP_1_variant_side_and_starting_player():
    """DG-SETUP-1: players choose the variant, take that side of the sheet, and a starting player."""
    g = DiceGame(3, variant=Variant.PLUS, starting_seat=2)
    assert g.sheet.variant is Variant.PLUS and g.current_player == 2
    with pytest.raises(ValueError, match="DG-SETUP-1"):
        DiceGame(2, variant="normal", sheet=DiceSheet.plus())
    with pytest.raises(ValueError, match="DG-TURN-1"):
        DiceGame(2, starting_seat=2)


def test_DG_TURN_1_starting_player_then_clockwise():
    """DG-TURN-1: the starting player goes first, then play passes clockwise."""
    g = DiceGame(3, seed=2, starting_seat=1)
    order = []
    for _ in range(6):
        order.append(g.current_player)
        empty_turn(g)
    assert order == [1, 2, 0, 1, 2, 0]
    assert list(g.iter_players()) == [1, 2, 0]


def test_DG_ROLL_1_first_roll_uses_all_six_dice():
    """DG-ROLL-1: the first roll of a turn rolls all 6 dice; nothing can be kept or built before it."""
    g = DiceGame(seed=3)
    assert g.legal_actions() == [Roll()]
    raises(g, Roll(keep=(0,)), "DG-ROLL-1")
    raises(g, Build("R0"), "DG-ROLL-1")
    raises(g, EndTurn(), "DG-ROLL-1")
    raises(g, Stop(), "DG-ROLL-1")
    raises(g, TradeGold(Resource.ORE), "DG-ROLL-1")
    g.play(Roll())
    assert len(g.dice) == 6 and g.rolls == 1


def test_DG_ROLL_2_three_rolls_any_subset_including_set_aside_dice():
    """DG-ROLL-2: at most 3 rolls; after the 1st and 2nd any subset may be rerolled, even dice set aside."""
    g = DiceGame(seed=4)
    roll(g, "ore ore ore wool wool wool")
    roll(g, "brick lumber gold", keep=(0, 1, 2))  # set the ores aside
    assert g.dice == list(F("ore ore ore brick lumber gold"))
    roll(g, "grain grain", keep=(3, 4, 5, 2))  # reroll two ores that were set aside
    assert g.dice == list(F("grain grain ore brick lumber gold"))
    assert g.rolls == 3 and g.phase is DicePhase.BUILD
    rolls = [a for a in DiceGame(seed=1).legal_actions() if isinstance(a, Roll)]
    assert rolls == [Roll()]
    g2 = DiceGame(seed=5)
    g2.play(Roll())
    keeps = {a.keep for a in g2.legal_actions() if isinstance(a, Roll)}
    assert len(keeps) == 2**6 - 1  # every subset but keeping all six (that is stopping)
    raises(g2, Roll(keep=tuple(range(6))), "DG-ROLL-2")
    raises(g2, Roll(keep=(0, 0)), "DG-ROLL-2")
    raises(g2, Roll(keep=(6,)), "DG-ROLL-2")
    raises(g2, Roll(keep=(0,), faces=F("ore")), "DG-ROLL-2")


def test_DG_ROLL_3_faces_fixed_after_third_roll_or_stopping():
    """DG-ROLL-3: after the 3rd roll or stopping, faces change only by swaps and gold trades."""
    g = DiceGame(seed=6)
    for _ in range(3):
        g.play(Roll())
    raises(g, Roll(), "DG-ROLL-3")
    g2 = DiceGame(seed=6)
    roll(g2, "brick lumber ore ore gold gold")
    g2.play(Stop())
    raises(g2, Roll(keep=(0, 1)), "DG-ROLL-3")
    raises(g2, Stop(), "DG-ROLL-3")
    g2.play(TradeGold(Resource.ORE))  # a gold trade still changes a face
    assert g2.dice[4] is Face.ORE
    # building after the first roll stops the rolling too
    g3 = DiceGame(seed=6)
    roll(g3, "brick lumber ore ore gold gold")
    g3.play(Build("R0"))
    assert g3.phase is DicePhase.BUILD and g3.rolls_left == 0
    raises(g3, Roll(keep=(0,)), "DG-ROLL-3")


def test_DG_ROLL_4_every_face_equally_likely():
    """DG-ROLL-4: every face has probability 1/6 (seeded games' dice pass a chi-square test)."""
    counts = Counter()
    for seed in range(400):
        g = DiceGame(seed=seed)
        g.play(Roll())
        counts.update(g.dice)
    n = sum(counts.values())
    chi2 = sum((counts[f] - n / 6) ** 2 / (n / 6) for f in FACES)
    assert chi2 < 20.52  # 99.9% quantile of chi-square with 5 degrees of freedom
    from catan_nb.dicegame.odds import reach_probability

    assert reach_probability((0, 0, 0, 0, 1), n_dice=1, rolls_left=1, gold=False) == pytest.approx(1 / 6)


def test_DG_RES_1_each_die_pays_for_one_build():
    """DG-RES-1: each die provides one resource and pays for one build only."""
    g = DiceGame(seed=7)
    roll(g, "brick lumber ore ore gold wool")
    g.play(Build("R0"))
    assert g.spent == [True, True, False, False, False, False]
    assert g.hand() == (0, 0, 1, 0, 2, 1)
    raises(g, Build("R1"), "DG-BUILD-1")  # the brick and lumber are spent
    g.built[0] |= g.sheet.mask(["K1"])
    raises(g, Swap("K1", die=0), "DG-RES-1")


def test_DG_RES_2_unused_resources_are_lost():
    """DG-RES-2: resources left at the end of a turn are lost; nothing carries over."""
    g = DiceGame(2, seed=8)
    roll(g, "brick lumber brick lumber ore ore")
    g.play(Build("R0"))
    g.play(EndTurn())
    assert g.dice == [] and g.hand() == (0,) * 6
    assert g.current_player == 1 and g.rolls == 0


# ================================================================ 12.2 building
def test_DG_BUILD_1_costs():
    """DG-BUILD-1: road brick+lumber, settlement +wool+grain, city 3 ore + 2 grain, knight ore+wool+grain."""
    assert COSTS[Kind.ROAD] == (1, 1, 0, 0, 0)
    assert COSTS[Kind.SETTLEMENT] == (1, 1, 1, 1, 0)
    assert COSTS[Kind.CITY] == (0, 0, 0, 2, 3)
    assert COSTS[Kind.KNIGHT] == (0, 0, 1, 1, 1)
    g = DiceGame(seed=9)
    roll(g, "ore wool wool grain grain brick")
    g.play(Build("K1"))  # ore + wool + grain
    assert g.hand() == (0, 1, 1, 1, 0, 0)
    raises(g, Build("K2"), "DG-BUILD-1")
    err = raises(g, Build("R0"), "DG-BUILD-1")
    assert "lumber+brick" in str(err)


def test_DG_BUILD_2_several_builds_per_turn():
    """DG-BUILD-2: any number of builds per turn if the dice cover them."""
    g = DiceGame(seed=10)
    roll(g, "brick lumber ore wool ore ore")
    roll(g, "grain gold", keep=(0, 1, 2, 3))
    g.play(Build("R0"))
    g.play(Build("K1"))
    assert g.turn_points() == 2 and g.hand() == (0, 0, 0, 0, 0, 1)


def test_DG_BUILD_3_road_built_earlier_opens_a_settlement_the_same_turn():
    """DG-BUILD-3: builds happen in order; a road built this turn opens the way for a settlement."""
    g = game_with(["R0", "S3"], seed=11)
    roll(g, "brick lumber brick lumber wool grain")
    raises(g, Build("S4"), "DG-BUILD-6")  # R2 not built yet
    g.play(Build("R2"))
    g.play(Build("S4"))
    assert g.is_built(0, "S4")


def test_DG_BUILD_4_start_road_prebuilt_and_roads_join_built_roads():
    """DG-BUILD-4: the start road is built, free and worth nothing; every road joins a built road."""
    g = DiceGame(seed=12)
    assert g.built_ids(0) == ["START"] and g.sheet["START"].points == 0
    roll(g, "brick lumber brick lumber ore ore")
    raises(g, Build("START"), "DG-BUILD-4")
    raises(g, Build("R1"), "DG-BUILD-4")
    g.play(Build("R0"))
    g.play(Build("R1"))
    assert g.turn_points() == 2


def test_DG_BUILD_5_settlements_and_cities_never_block_roads():
    """DG-BUILD-5: built or not, settlements and cities never block road building."""
    g = game_with(["R0", "R2"], seed=13)  # S4 (at the end of R2) and S3 are not built
    roll(g, "brick lumber brick lumber brick lumber")
    g.play(Build("R3"))
    g.play(Build("R5"))
    g.play(Build("R4"))  # passes C12's spot
    assert not g.is_built(0, "S4") and g.is_built(0, "R5")


def test_DG_BUILD_6_settlement_needs_road_and_value_order():
    """DG-BUILD-6: a settlement needs a built road to it and settlements go 3, 4, 5, 7, 9, 11."""
    g = game_with(["R0", "R2", "R3", "R5"], seed=14)
    roll(g, "brick lumber wool grain ore ore")
    err = raises(g, Build("S4"), "DG-BUILD-6")
    assert "S3" in str(err)
    raises(g, Build("S5"), "DG-BUILD-6")
    g.play(Build("S3"))
    g.play(EndTurn())
    roll(g, "brick lumber wool grain ore ore")
    g.play(Build("S4"))
    assert g.turn_points() == 4 and g.track[0] == [3]
    g2 = game_with(["S3", "S4", "S5", "R0", "R2", "R3", "R5", "R6"], seed=14)
    roll(g2, "brick lumber wool grain ore ore")
    err = raises(g2, Build("S7"), "DG-BUILD-6")
    assert "R7" in str(err)
    assert [s for s, _ in sorted(((s.points, s.id) for s in DiceSheet.normal().structures
                                  if s.kind is Kind.SETTLEMENT))] == [3, 4, 5, 7, 9, 11]


def test_DG_BUILD_7_city_needs_road_and_value_order_not_an_upgrade():
    """DG-BUILD-7: a city needs a built road and cities go 7, 12, 20, 30; a city is not an upgrade."""
    g = game_with(["R0", "R1", "R2", "R3", "R4"], seed=15)
    roll(g, "ore ore ore grain grain gold")
    raises(g, Build("C12"), "DG-BUILD-7")  # C7 first
    g.play(Build("C7"))  # no settlement needed: city spaces are separate
    assert g.turn_points() == 7
    g2 = DiceGame(seed=15)
    roll(g2, "ore ore ore grain grain gold")
    err = raises(g2, Build("C7"), "DG-BUILD-7")
    assert "R1" in str(err)
    assert not any(DiceSheet.normal()[n].kind is Kind.SETTLEMENT for c in ("C7", "C12", "C20", "C30")
                   for n in DiceSheet.normal()[c].needs)


def test_DG_BUILD_8_knights_in_order_without_roads():
    """DG-BUILD-8: knights are built in order 1 to 6 and need no road."""
    g = DiceGame(seed=16)
    roll(g, "ore wool grain ore wool grain")
    raises(g, Build("K2"), "DG-BUILD-8")
    g.play(Build("K1"))
    g.play(Build("K2"))
    assert g.turn_points() == 3 and g.built_ids(0) == ["START", "K1", "K2"]


def test_DG_BUILD_9_each_symbol_once():
    """DG-BUILD-9: each symbol can be built only once."""
    g = game_with(["R0"], seed=17)
    roll(g, "brick lumber ore ore ore ore")
    raises(g, Build("R0"), "DG-BUILD-9")
    raises(g, Build("X9"), "DG-SHEET-1")


# ================================================================ 12.3 the sheet as a graph
def test_DG_SHEET_1_nodes():
    """DG-SHEET-1: START, R0-R15, settlements 3-11, cities 7-30, knights K1-K6; ids carry their value."""
    sheet = DiceSheet.normal()
    assert set(sheet.graph.nodes) == (
        {"START"} | {f"R{i}" for i in range(16)} | {"S3", "S4", "S5", "S7", "S9", "S11"}
        | {"C7", "C12", "C20", "C30"} | {f"K{i}" for i in range(1, 7)}
    )
    for s in sheet.structures:
        if s.kind in (Kind.SETTLEMENT, Kind.CITY, Kind.KNIGHT):
            assert s.id[1:] == str(s.points)
        if s.kind is Kind.ROAD:
            assert s.points == 1


def test_DG_SHEET_2_road_dependencies():
    """DG-SHEET-2: the road dependency table."""
    table = {"R0": "START", "R1": "R0", "R2": "R0", "R3": "R2", "R4": "R3", "R5": "R3", "R6": "R5", "R7": "R6",
             "R8": "R7", "R9": "R8", "R10": "R9", "R11": "R10", "R12": "R7", "R13": "R12", "R14": "R13",
             "R15": "R14"}
    g = DiceSheet.normal().graph
    for road, need in table.items():
        assert list(g.successors(road)) == [need]
        assert g.edges[road, need]["rule"] == "DG-BUILD-4"


def test_DG_SHEET_3_building_access_and_value_orders():
    """DG-SHEET-3: S3<-START, S4<-R2, S5<-R5, S7<-R7, S9<-R9, S11<-R11; C7<-R1, C12<-R4, C20<-R13, C30<-R15."""
    access = {"S3": "START", "S4": "R2", "S5": "R5", "S7": "R7", "S9": "R9", "S11": "R11",
              "C7": "R1", "C12": "R4", "C20": "R13", "C30": "R15"}
    sheet = DiceSheet.normal()
    g = sheet.graph
    for s, road in access.items():
        roads = [n for n in g.successors(s) if sheet[n].kind in (Kind.ROAD, Kind.START)]
        assert roads == [road]
    order = [("S4", "S3"), ("S5", "S4"), ("S7", "S5"), ("S9", "S7"), ("S11", "S9"),
             ("C12", "C7"), ("C20", "C12"), ("C30", "C20")] + [(f"K{i + 1}", f"K{i}") for i in range(1, 6)]
    for a, b in order:
        assert g.has_edge(a, b)
    assert g.number_of_edges() == 16 + 10 + len(order)


def test_DG_SHEET_4_road_tree_and_c30_anchor():
    """DG-SHEET-4: the roads form a tree, so each structure has one road path; C30 needs R0, R2, R3, R5, R6, R7, R12..R15."""
    import networkx as nx

    sheet = DiceSheet.normal()
    roads = sheet.graph.subgraph([s.id for s in sheet.structures if s.kind in (Kind.ROAD, Kind.START)])
    assert nx.is_tree(roads.to_undirected())
    assert sheet.road_path("C30") == ["R0", "R2", "R3", "R5", "R6", "R7", "R12", "R13", "R14", "R15"]
    assert sheet.road_path("S3") == [] and sheet.road_path("R4") == ["R0", "R2", "R3", "R4"]
    # building along the anchor path from scratch works road by road
    g = DiceGame(seed=18)
    for r in sheet.road_path("C30"):
        assert r in g.buildable()
        g.built[0] |= sheet.mask([r])


def test_DG_SHEET_5_knight_swap_resources():
    """DG-SHEET-5: K1 ore, K2 grain, K3 wool, K4 lumber, K5 brick, K6 any resource."""
    sheet = DiceSheet.normal()
    swaps = {w.id: (w.knights, w.resource) for w in sheet.swaps}
    assert swaps == {
        "K1": (("K1",), Resource.ORE), "K2": (("K2",), Resource.GRAIN), "K3": (("K3",), Resource.WOOL),
        "K4": (("K4",), Resource.LUMBER), "K5": (("K5",), Resource.BRICK), "K6": (("K6",), None),
    }
    g = DiceGame(seed=1)
    g.play(Roll())
    raises(g, Swap("K9", 0, Resource.ORE), "DG-SHEET-5")


def test_DG_SHEET_6_positions_are_replaceable_data(tmp_path):
    """DG-SHEET-6 (GAP): positions are data in the sheet file; moving them changes the drawing, not the rules."""
    import json

    from catan_nb.viz.dice_sheet import dice_sheet_figure

    sheet = DiceSheet.normal()
    assert any("DG-SHEET-6" in n and "PROPOSAL" in n for n in sheet.notes)
    data = sheet.to_dict()
    for s in data["structures"]:
        s["xy"] = [s["xy"][0] + 10, s["xy"][1]]
    path = tmp_path / "moved.json"
    path.write_text(json.dumps(data))
    moved = DiceSheet.load(path)
    assert moved.graph.edges == sheet.graph.edges
    fig = dice_sheet_figure(moved)
    xs = next(t for t in fig.data if t.name == "structures").x
    assert min(xs) > 10
    g = DiceGame(sheet=moved, seed=3)
    g.play(Roll())
    assert DiceGame(seed=3).legal_actions() == DiceGame(sheet=moved, seed=3).legal_actions()


def test_DG_SHEET_7_highest_possible_total_145():
    """DG-SHEET-7: 16 roads + 39 + 69 + 21 = 145."""
    sheet = DiceSheet.normal()
    by_kind = Counter()
    for s in sheet.structures:
        by_kind[s.kind] += s.points
    assert (by_kind[Kind.ROAD], by_kind[Kind.SETTLEMENT], by_kind[Kind.CITY], by_kind[Kind.KNIGHT]) == (16, 39, 69, 21)
    assert sheet.max_points() == 145


# ================================================================ 12.4 knights, gold, scoring, end
def test_DG_KNIGHT_1_one_time_swap_after_rolling_the_rulebook_example():
    """DG-KNIGHT-1: a built knight turns any one die to its resource, once per game (the ore-knight city example)."""
    g = game_with(["K1", "R0", "R1"], players=1, seed=19)
    roll(g, "ore ore grain grain gold wool")
    g.play(Stop())
    raises(g, Swap("K1", 5, Resource.GRAIN), "DG-KNIGHT-1")  # K1 turns a die to ore only
    raises(g, Swap("K1", 0), "DG-KNIGHT-1")  # die 0 already shows ore
    g.play(Swap("K1", 5))  # the wool becomes ore
    assert g.dice[5] is Face.ORE and g.swaps_used[0] == 1
    g.play(Build("C7"))
    g.play(EndTurn())
    roll(g, "wool wool wool wool wool wool")
    raises(g, Swap("K1", 0), "DG-KNIGHT-1")  # crossed out: once per game
    g2 = DiceGame(seed=19)
    roll(g2, "wool wool wool wool wool wool")
    err = raises(g2, Swap("K1", 0), "DG-KNIGHT-1")
    assert "K1" in str(err)
    raises(DiceGame(seed=19), Swap("K1", 0), "DG-ROLL-1")


def test_DG_KNIGHT_2_knight_six_swaps_to_any_resource():
    """DG-KNIGHT-2: knight 6 swaps a die to any resource the player names."""
    g = game_with([f"K{i}" for i in range(1, 7)], seed=20)
    roll(g, "wool wool wool wool wool wool")
    g.play(Stop())
    raises(g, Swap("K6", 0), "DG-KNIGHT-2")
    g.play(Swap("K6", 0, Resource.BRICK))
    assert g.dice[0] is Face.BRICK
    assert {a.resource for a in g.legal_actions() if isinstance(a, Swap) and a.swap == "K6"} == set()


def test_DG_KNIGHT_3_several_swaps_per_turn_at_most_six_per_game():
    """DG-KNIGHT-3: a turn may contain several swaps; a game has at most 6, one per knight."""
    g = game_with([f"K{i}" for i in range(1, 7)], seed=21)
    roll(g, "gold gold gold gold gold gold")
    g.play(Stop())
    for k, res in zip(range(1, 7), ["ore", "grain", "wool", "lumber", "brick", "ore"]):
        g.play(Swap(f"K{k}", k - 1, Resource.parse(res)))
    assert g.hand() == (1, 1, 1, 1, 2, 0)
    assert not [a for a in g.legal_actions() if isinstance(a, Swap)]
    assert len(g.sheet.swaps) == 6


def test_DG_KNIGHT_4_swap_the_turn_the_knight_is_built_and_gold_may_be_given_up():
    """DG-KNIGHT-4: a knight's swap may be used in the turn it is built, after it is built; the die may show gold.
    Decision A-17."""
    g = DiceGame(seed=22)
    roll(g, "ore wool grain gold brick brick")
    g.play(Stop())
    raises(g, Swap("K1", 3), "DG-KNIGHT-1")  # not built yet
    g.play(Build("K1"))
    g.play(Swap("K1", 3))  # the gold die becomes ore
    assert g.dice[3] is Face.ORE


def test_DG_GOLD_1_gold_pays_for_nothing():
    """DG-GOLD-1: gold cannot pay for anything directly."""
    g = DiceGame(seed=23)
    roll(g, "brick gold ore ore ore ore")
    err = raises(g, Build("R0"), "DG-GOLD-1")
    assert "DG-GOLD-2" in str(err)


def test_DG_GOLD_2_two_gold_buy_one_resource_repeatable_lone_gold_useless():
    """DG-GOLD-2: two gold dice buy one resource (one turned, one set aside); repeatable; a lone gold is useless."""
    g = game_with(["R0", "R1"], seed=24)
    roll(g, "ore ore grain grain gold gold")  # the rulebook's example: 2 ore, 2 grain, 2 gold -> city
    g.play(TradeGold(Resource.ORE))
    assert g.dice[4] is Face.ORE and g.spent[5] and g.hand() == (0, 0, 0, 2, 3, 0)
    g.play(Build("C7"))
    assert g.turn_points() == 7
    g2 = DiceGame(seed=24)
    roll(g2, "gold gold gold gold gold brick")
    g2.play(TradeGold(Resource.LUMBER))
    g2.play(TradeGold(Resource.WOOL))
    assert g2.hand() == (1, 1, 1, 0, 0, 1)
    raises(g2, TradeGold(Resource.ORE), "DG-GOLD-2")


def test_DG_SCORE_1_points_per_build():
    """DG-SCORE-1: road 1, settlements and cities and knights as printed."""
    sheet = DiceSheet.normal()
    assert {s.id: s.points for s in sheet.structures if s.kind is not Kind.ROAD} == {
        "START": 0, "S3": 3, "S4": 4, "S5": 5, "S7": 7, "S9": 9, "S11": 11, "C7": 7, "C12": 12, "C20": 20,
        "C30": 30, "K1": 1, "K2": 2, "K3": 3, "K4": 4, "K5": 5, "K6": 6,
    }


def test_DG_SCORE_2_turn_sum_in_the_next_box_the_rulebook_example():
    """DG-SCORE-2: a turn's points are summed into the next box (settlement 3; two roads 2; road + knight 2)."""
    g = DiceGame(seed=25)
    roll(g, "brick lumber wool grain ore ore")
    g.play(Build("S3"))
    g.play(EndTurn())
    roll(g, "brick lumber brick lumber ore ore")
    g.play(Build("R0"))
    g.play(Build("R2"))
    g.play(EndTurn())
    roll(g, "lumber brick wool ore grain gold")
    g.play(Build("R3"))
    g.play(Build("K1"))
    g.play(EndTurn())
    assert g.track[0] == [3, 2, 2] and g.score(0) == 7


def test_DG_SCORE_3_no_build_scores_minus_two():
    """DG-SCORE-3: a turn without a build scores -2 (a cross)."""
    g = DiceGame(seed=26)
    roll(g, "ore ore ore ore ore ore")
    g.play(EndTurn())
    assert g.track[0] == [None] and g.score(0) == -2


def test_DG_SCORE_4_final_score_sums_boxes_with_crosses():
    """DG-SCORE-4: the final score is the sum of all 15 boxes, each cross -2."""
    g = DiceGame(seed=27)
    roll(g, "brick lumber wool grain ore ore")
    g.play(Build("S3"))
    g.play(EndTurn())
    for _ in range(TURNS - 1):
        roll(g, "ore ore ore ore ore ore")
        g.play(EndTurn())
    assert g.is_over and g.score(0) == 3 - 2 * 14


def test_DG_END_1_game_ends_after_fifteen_turns_each():
    """DG-END-1: the game ends when every player has had 15 turns."""
    g = DiceGame(2, seed=28)
    for _ in range(2 * TURNS - 1):
        empty_turn(g)
    assert not g.is_over and g.current_player == 1
    empty_turn(g)
    assert g.is_over and [len(t) for t in g.track] == [15, 15]
    assert g.legal_actions() == []
    raises(g, Roll(), "DG-END-1")


def test_DG_END_2_tied_players_share_the_win():
    """DG-END-2 (GAP/DECISION): with equal totals the tied players share the win. Decision A-20."""
    g = DiceGame(3, seed=29)
    for t in range(3 * TURNS):
        if g.current_player == 2 and t < 3:
            roll(g, "brick lumber ore ore ore ore")
            g.play(Build("R0"))
            g.play(EndTurn())
        else:
            empty_turn(g)
    assert g.score(0) == g.score(1) == -30 and g.score(2) == 1 - 28
    assert g.winners == (2,)
    g2 = DiceGame(2, seed=29)
    for _ in range(2 * TURNS):
        empty_turn(g2)
    assert g2.winners == (0, 1)


# ================================================================ 12.5 Plus
def plus_game(players=2, seed=0) -> DiceGame:
    return DiceGame(players, variant="plus", seed=seed)


def mark(g: DiceGame, p: int, ids) -> None:
    g.built[p] |= g.sheet.mask(ids)


def test_DGP_1_plus_players_and_same_roll_rules():
    """DGP-1: Plus is for 2-4 players on the back; rolling and building follow the normal rules."""
    with pytest.raises(ValueError, match="DGP-1"):
        DiceGame(1, variant="plus")
    g = plus_game()
    assert g.sheet.variant is Variant.PLUS
    roll(g, "brick lumber ore")
    roll(g, "gold", keep=(0, 1))
    roll(g, "gold", keep=(0, 1))
    raises(g, Roll(keep=(0, 1)), "DG-ROLL-3")
    g.play(Build("R0"))
    raises(g, Build("R1"), "DG-BUILD-1")


def test_DGP_2_no_points_on_structures_first_to_ten_vp_wins():
    """DGP-2: structures carry no points; the first player to 10 VP wins."""
    sheet = DiceSheet.plus()
    assert all(s.points == 0 for s in sheet.structures if s.kind in (Kind.ROAD, Kind.KNIGHT, Kind.START))
    g = plus_game(seed=1)
    mark(g, 0, ["S1", "S2", "S4", "C1", "C2", "C3", "R0", "R2", "R3", "R5"])
    assert g.vp(0) == 9 and not g.is_over
    roll(g, "brick lumber wool")
    assert g.vp(0) == 9


def test_DGP_3_settlement_one_city_two_vp():
    """DGP-3: a settlement is worth 1 VP and a city 2 VP."""
    sheet = DiceSheet.plus()
    assert {s.points for s in sheet.structures if s.kind is Kind.SETTLEMENT} == {1}
    assert {s.points for s in sheet.structures if s.kind is Kind.CITY} == {2}
    g = plus_game(seed=2)
    mark(g, 0, ["R0", "R1"])
    g.turn = 4  # six dice
    roll(g, "brick lumber wool grain ore ore")
    g.play(Build("S1"))
    assert g.vp(0) == 1
    g.play(EndTurn())
    empty_turn(g)
    roll(g, "ore ore ore grain grain gold")
    g.play(Build("C1"))
    assert g.vp(0) == 3


def test_DGP_4_largest_army_first_to_three_passes_only_to_strictly_more():
    """DGP-4: the first to build 3 knights holds the Largest Army (2 VP); it passes only to strictly more knights."""
    g = plus_game(seed=3)
    g.turn = 4
    mark(g, 0, ["K-ore", "K-grain"])
    roll(g, "ore wool grain gold gold gold")
    g.play(Build("K-wool"))
    assert g.largest_army_holder == 0 and g.vp(0) == 2
    g.play(EndTurn())
    mark(g, 1, ["K-ore", "K-grain"])
    roll(g, "ore wool grain ore wool grain")
    g.play(Build("K-wool"))
    assert g.largest_army_holder == 0 and g.vp(1) == 0  # 3 is not strictly more than 3
    g.play(Build("K-lumber"))
    assert g.largest_army_holder == 1 and g.vp(1) == 2 and g.vp(0) == 0


def test_DGP_5_used_knights_still_count_for_the_army():
    """DGP-5: every built knight counts for the army, its swap used or not."""
    g = plus_game(seed=4)
    g.turn = 4
    mark(g, 0, ["K-ore", "K-grain"])
    roll(g, "ore wool grain wool gold gold")
    g.play(Build("K-wool"))
    g.play(Swap("K-ore", 3))
    assert g.knights(0) == 3 and g.largest_army_holder == 0
    g.play(EndTurn())
    mark(g, 1, ["K-ore", "K-grain"])
    roll(g, "ore wool grain ore ore ore")
    g.play(Build("K-wool"))
    assert g.largest_army_holder == 0


def test_DGP_6_longest_road_first_to_five_passes_only_to_strictly_longer():
    """DGP-6: the first to a 5-road line holds the Longest Road (2 VP); it passes only to a strictly longer road."""
    g = plus_game(seed=5)
    g.turn = 4
    mark(g, 0, ["R0", "R2", "R3", "R5"])
    roll(g, "brick lumber ore ore ore ore")
    g.play(Build("R6"))
    assert g.road_length(0) == 5 and g.longest_road_holder == 0 and g.vp(0) == 2
    g.play(EndTurn())
    mark(g, 1, ["R0", "R2", "R3", "R5"])
    roll(g, "brick lumber brick lumber ore ore")
    g.play(Build("R6"))
    assert g.longest_road_holder == 0  # 5 is not longer than 5
    g.play(Build("R7"))
    assert g.longest_road_holder == 1 and g.vp(1) == 2 and g.vp(0) == 0
    g2 = plus_game(seed=5)
    g2.turn = 4
    mark(g2, 0, ["R0", "R1", "R2", "R3"])  # five roads built counting R4, but the line is only 4 long
    roll(g2, "brick lumber ore ore ore ore")
    g2.play(Build("R4"))
    assert g2.road_length(0) == 4 and g2.longest_road_holder is None


def test_DGP_7_road_length_line_only_forks_excluded_start_not_counted():
    """DGP-7: only connected roads in a line count, forks excluded (the worked example is 6); the start road is not counted.
    Decision A-19."""
    sheet = DiceSheet.plus()
    assert sheet.road_length(["START"]) == 0
    assert sheet.road_length(["R0"]) == 1
    line = ["R0", "R2", "R3", "R5", "R6", "R7"]
    assert sheet.road_length(line) == 6
    assert sheet.road_length(line + ["R1", "R4"]) == 6  # the forks R1 and R4 do not lengthen it
    assert sheet.road_length(line + ["R8", "R9", "R12"]) == 8
    assert sheet.road_length(["R0", "R1", "R2"]) == 2  # R1 and R2 fork at the end of R0
    assert sheet.road_length(line[:-1] + ["R7", "R8", "R12", "R13"]) == 8


def test_DGP_8_dice_grow_from_three_to_six():
    """DGP-8: turn t of the game rolls min(6, t + 2) dice. Decision A-19."""
    g = plus_game(players=2, seed=6)
    seen = []
    for _ in range(6):
        g.play(Roll())
        seen.append(len(g.dice))
        g.play(EndTurn())
    assert seen == [3, 4, 5, 6, 6, 6]


def test_DGP_9_any_order_but_roads_still_needed():
    """DGP-9: settlements, cities and knights in any order; settlements and cities still need road access."""
    g = plus_game(seed=7)
    g.turn = 4
    mark(g, 0, ["R0", "R2", "R3", "R5", "R1", "R4"])
    roll(g, "brick lumber wool grain ore wool")
    g.play(Build("S3"))  # before S1 and S2
    assert g.is_built(0, "S3")
    g.play(EndTurn())
    empty_turn(g)
    roll(g, "ore ore ore grain grain gold")
    g.play(Build("C2"))  # before C1
    g.play(EndTurn())
    empty_turn(g)
    roll(g, "ore wool grain brick lumber wool")
    g.play(Build("K-brick"))  # any knight first
    raises(g, Build("S4"), "DG-BUILD-6")  # R7 not built
    assert not any(e[1].startswith("S") for e in g.sheet.graph.out_edges("S3"))


def test_DGP_10_desert_pair_gives_one_any_swap_after_both_built():
    """DGP-10: the two desert knights give one swap to any resource, once, only after both are built."""
    sheet = DiceSheet.plus()
    desert = next(w for w in sheet.swaps if len(w.knights) == 2)
    assert desert.resource is None
    g = plus_game(seed=8)
    g.turn = 4
    mark(g, 0, [desert.knights[0]])
    roll(g, "wool wool wool wool wool wool")
    raises(g, Swap(desert.id, 0, Resource.ORE), "DGP-10")
    g.play(EndTurn())
    empty_turn(g)
    mark(g, 0, [desert.knights[1]])
    roll(g, "wool wool wool wool wool wool")
    g.play(Swap(desert.id, 0, Resource.ORE))
    assert g.dice[0] is Face.ORE
    raises(g, Swap(desert.id, 1, Resource.ORE), "DGP-10")


def test_DGP_11_no_turn_limit_no_penalty_ends_at_ten_vp_at_once():
    """DGP-11 (DECISION): no 15-turn limit, no -2; the game ends as soon as the active player reaches 10 VP.
    Decision A-19."""
    g = plus_game(seed=9)
    for _ in range(2 * TURNS + 4):
        empty_turn(g)
    assert not g.is_over and g.track[0][:3] == [0, 0, 0] and g.score(0) == 0
    g2 = plus_game(seed=9)
    g2.turn = 4
    mark(g2, 0, ["S1", "S2", "S4", "C1", "C2", "C3", "R0", "R2", "R3", "R5"])
    roll(g2, "brick lumber wool grain ore ore")
    g2.play(Build("S3"))
    assert g2.is_over and g2.winners == (0,) and g2.vp(0) == 10
    raises(g2, EndTurn(), "DGP-11")


def test_DGP_12_plus_sheet_is_the_normal_topology_without_values():
    """DGP-12 (GAP/PROPOSAL): the Plus sheet uses the DG-SHEET-2/3 topology without values and value orders,
    one knight per resource hex plus the two desert knights."""
    normal, plus = DiceSheet.normal(), DiceSheet.plus()
    rename = {"S3": "S1", "S4": "S2", "S5": "S3", "S7": "S4", "S9": "S5", "S11": "S6",
              "C7": "C1", "C12": "C2", "C20": "C3", "C30": "C4"}
    for s in normal.structures:
        if s.kind in (Kind.ROAD, Kind.START, Kind.SETTLEMENT, Kind.CITY):
            other = plus[rename.get(s.id, s.id)]
            roads = [n for n in s.needs if normal[n].kind in (Kind.ROAD, Kind.START)]
            assert list(other.needs) == roads
    knights = [s for s in plus.structures if s.kind is Kind.KNIGHT]
    assert len(knights) == 7 and all(not k.needs for k in knights)
    assert {w.resource for w in plus.swaps if len(w.knights) == 1} == set(Resource)
    assert any("DGP-12" in n and "PROPOSAL" in n for n in plus.notes)


SPEC_IDS = (
    [f"DG-COMP-{i}" for i in range(1, 4)] + ["DG-SETUP-1", "DG-TURN-1"] + [f"DG-ROLL-{i}" for i in range(1, 5)]
    + ["DG-RES-1", "DG-RES-2"] + [f"DG-BUILD-{i}" for i in range(1, 10)] + [f"DG-SHEET-{i}" for i in range(1, 8)]
    + [f"DG-KNIGHT-{i}" for i in range(1, 5)] + ["DG-GOLD-1", "DG-GOLD-2"] + [f"DG-SCORE-{i}" for i in range(1, 5)]
    + ["DG-END-1", "DG-END-2"] + [f"DGP-{i}" for i in range(1, 13)]
)


def test_every_dice_rule_id_has_a_named_test():
    """Coverage: each of the 51 DG-* and DGP-* ids of RULES.md section 12 names a test here, in its docstring."""
    assert len(SPEC_IDS) == 51
    tests = {n: f for n, f in globals().items() if n.startswith("test_") and callable(f)}
    for rid in SPEC_IDS:
        assert any(rid.replace("-", "_") + "_" in n and rid in (f.__doc__ or "") for n, f in tests.items()), rid

"""Cities & Knights (RULES.md section 17) as positions: components and commodities, improvements
and metropolises, knights, the event die and the barbarians, progress draws, every progress card,
walls, the merchant, the target and the rules with Seafarers."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import deal, empty_hands
from invariants import Checker

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, ValueBot
from catan_nb.constants import Commodity, Resource, Terrain
from catan_nb.errors import IllegalActionError, SaveFileError
from catan_nb.rules import BuildRoad, EndTurn, MaritimeTrade, Phase, RollDice, Rules
from catan_nb.rules.modules import cities_knights as cks
from catan_nb.rules.modules.cities_knights import (
    AQUEDUCT, DECKS, DEFENDER_DRAW, LOSE_CITY, RETREAT, RETURN_PROGRESS, ActivateKnight, BuildWall, ChaseRobber,
    DisplaceKnight, DrawProgress, HireKnight, ImproveCity, LoseCity, MoveKnight, PlayProgress, PlayProgressGood,
    PlayProgressNode, PlaySmith, PromoteKnight, RetreatKnight,
    ReturnProgress, TakeAqueduct, Track, barbarian_strength, catan_strength, improvement_cost, knights)

RULES = Rules(modules=("cities_knights",))
CLOTH, COIN, PAPER = 5, 6, 7


def ck_game(players: int = 4, seed: int = 1) -> Game:
    """The beginner start with Cities & Knights; seat 0 in its main phase after a quiet roll, hands empty."""
    g = Game(Board.beginner(), players=players, seed=seed, start="beginner", rules=RULES)
    g.play(RollDice(dice=(1, 1, 4)))  # a 2 and the yellow gate: nobody has an improvement
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    empty_hands(g)
    for h in g.hands:
        for i in range(5, g.n_goods):
            g.bank[i] += h[i]
            h[i] = 0
    return g


def st(g: Game) -> dict:
    return g.ext["cities_knights"]


def give(g: Game, p: int, good, k: int = 1) -> None:
    i = g.good_index(good)
    g.bank[i] -= k
    g.hands[p][i] += k


def settlements(g: Game, p: int) -> list[int]:
    return sorted(g.placed[g.kind_id["settlement"]][p])


def make_city(g: Game, p: int, v: int | None = None) -> int:
    """Upgrade one of ``p``'s settlements (a test position)."""
    v = settlements(g, p)[0] if v is None else v
    g.place(p, "city", v)
    return v


def to_roll(g: Game, seat: int, phase: Phase = Phase.ROLL) -> None:
    """End turns with quiet rolls (a 2, the yellow gate) until ``seat`` is in ``phase`` (about to roll)."""
    while not (g.current_player == seat and g.phase is phase):
        acts = g.legal_actions()
        if g.phase is Phase.ROLL:
            g.play(RollDice(dice=(1, 1, 4)))
        elif EndTurn() in acts:
            g.play(EndTurn())
        else:
            g.play(acts[0])


def finish_turns(g: Game, seat: int) -> None:
    """Play on with quiet rolls until ``seat`` is in its main phase."""
    to_roll(g, seat, Phase.MAIN)


# ------------------------------------------------------------------------------- CK-COMP, CK-COM
def test_ck_comp_1_components_replace_the_development_deck():
    """CK-COMP-1: 12 cards of each commodity, three progress decks of 18, six Defender cards; no
    development deck, no Largest Army. CK-PROG-3: each deck's composition."""
    g = Game(Board.beginner(), players=4, seed=1, start="beginner", rules=RULES)
    assert [str(x) for x in g.goods[5:]] == ["cloth", "coin", "paper"]
    assert [g.bank_per_good[i] for i in (CLOTH, COIN, PAPER)] == [12, 12, 12]
    assert sum(g.deck) == 0 and "development" not in [m.name for m in g.modules]
    decks = st(g)["decks"]
    for track in Track:
        assert sorted(decks[track.value]) == sorted(c for c, k in DECKS[track].items() for _ in range(k))
        assert len(decks[track.value]) == 18
    assert st(g)["defender_left"] == 6


@pytest.mark.parametrize("terrain,gains", [
    (Terrain.FOREST, {Resource.LUMBER: 1, Commodity.PAPER: 1}),
    (Terrain.PASTURE, {Resource.WOOL: 1, Commodity.CLOTH: 1}),
    (Terrain.MOUNTAINS, {Resource.ORE: 1, Commodity.COIN: 1}),
    (Terrain.FIELDS, {Resource.GRAIN: 2}),
    (Terrain.HILLS, {Resource.BRICK: 2}),
])
def test_ck_com_1_2_cities_collect_commodities(terrain, gains):
    """CK-COM-1, CK-COM-2: a city collects 1 resource + 1 commodity from forest, pasture and
    mountains, 2 grain from fields, 2 brick from hills; a settlement as in the base game.  Checked
    against a recount over every building of the seat."""
    g = ck_game()
    t = g.topology
    hx = next(h.id for h in g.board.hexes if h.terrain is terrain and h.token and h.id != g.robber)
    v = next(v for v in t.hex_nodes[hx] if g.node_owner[v] < 0 and not g.blocked[v] and t.node_land[v])
    g.place(0, "settlement", v)
    make_city(g, 0, v)
    token = g.hex_token[hx]
    to_roll(g, 1)
    before = list(g.hands[0])
    g.play(RollDice(dice=(min(6, token - 1), token - min(6, token - 1), 4)))
    got = [a - b for a, b in zip(g.hands[0], before)]
    expected = [0] * g.n_goods
    table = {Terrain.FOREST: ((Resource.LUMBER, 1), (Commodity.PAPER, 1)),
             Terrain.PASTURE: ((Resource.WOOL, 1), (Commodity.CLOTH, 1)),
             Terrain.MOUNTAINS: ((Resource.ORE, 1), (Commodity.COIN, 1)),
             Terrain.FIELDS: ((Resource.GRAIN, 2),), Terrain.HILLS: ((Resource.BRICK, 2),)}
    for w, o in enumerate(g.node_owner):
        b = g.building_at(w)
        if o != 0 or b is None:
            continue
        for h in t.node_hexes[w]:
            terr = g.hex_terrain[h]
            if g.hex_token[h] != token or h == g.robber or terr.resource is None:
                continue
            if b[1].name == "CITY":
                for good, k in table[terr]:
                    expected[g.good_index(good)] += k
            else:
                expected[terr.resource.value] += 1
    assert got == expected
    for good, k in gains.items():
        assert got[g.good_index(good)] >= k


def test_ck_com_3_ck_imp_1_a_level_costs_its_number_in_the_tracks_commodity():
    """CK-COM-3, CK-IMP-1: cloth pays for trade, coin for politics, paper for science; level n costs n."""
    g = ck_game()
    with pytest.raises(IllegalActionError, match="CK-IMP-1"):
        g.play(ImproveCity(Track.SCIENCE))  # no city yet (DECISION)
    make_city(g, 0)
    with pytest.raises(IllegalActionError, match="B-BUILD-1"):
        g.play(ImproveCity(Track.SCIENCE))
    give(g, 0, Commodity.PAPER, 3)
    give(g, 0, Commodity.CLOTH, 1)
    assert improvement_cost(g, 0, Track.SCIENCE)[PAPER] == 1
    g.play(ImproveCity(Track.SCIENCE))
    assert improvement_cost(g, 0, Track.SCIENCE)[PAPER] == 2
    g.play(ImproveCity(Track.SCIENCE))
    g.play(ImproveCity(Track.TRADE))
    assert st(g)["levels"][0] == [1, 0, 2] and g.hands[0][PAPER] == 0 and g.hands[0][CLOTH] == 0


# ------------------------------------------------------------------------------ CK-IMP-2, CK-PROG
@pytest.mark.parametrize("level,red,draws", [(1, 2, True), (1, 3, False), (2, 3, True), (3, 5, False), (4, 5, True)])
def test_ck_imp_2_ck_prog_1_progress_cards_on_the_gate_and_the_red_die(level, red, draws):
    """CK-IMP-2: at level n the red-die numbers 1..n+1 earn a card; CK-PROG-1: on the event die's
    gate of that colour."""
    g = ck_game()
    st(g)["levels"][1][Track.SCIENCE.value] = level
    to_roll(g, 1)
    hand = len(st(g)["hands"][1]) + len(st(g)["vp_cards"][1])
    g.play(RollDice(dice=(red, 1 if red != 6 else 2, 6)))  # green gate
    got = len(st(g)["hands"][1]) + len(st(g)["vp_cards"][1]) - hand
    assert got == (1 if draws else 0)
    g2 = ck_game()
    st(g2)["levels"][1][Track.SCIENCE.value] = level
    to_roll(g2, 1)
    g2.play(RollDice(dice=(red, 1 if red != 6 else 2, 5)))  # the blue gate: no science card
    assert not st(g2)["hands"][1] and not st(g2)["vp_cards"][1]


def test_ck_prog_2_ck_pc_8_the_hand_limit_and_the_vp_cards():
    """CK-PROG-2: a fifth progress card is given back (a decision); CK-PC-8: Printer and
    Constitution are played at once for 1 VP and do not count."""
    g = ck_game()
    s = st(g)
    s["hands"][0] = sorted(["crane", "mining", "smith", "medicine"])
    deck = s["decks"][Track.SCIENCE.value]
    deck.remove("printer")
    deck.append("printer")  # the next science card is the Printer
    s["levels"][0][Track.SCIENCE.value] = 1
    vp = g.vp(0)
    to_roll(g, 0)
    g.play(RollDice(dice=(1, 2, 6)))
    assert s["vp_cards"][0] == ["printer"] and g.vp(0) == vp + 1 and len(s["hands"][0]) == 4
    deck.remove("irrigation")
    deck.append("irrigation")
    g.play(EndTurn())
    to_roll(g, 0)
    g.play(RollDice(dice=(1, 2, 6)))
    assert g.phase is RETURN_PROGRESS and len(s["hands"][0]) == 5
    with pytest.raises(IllegalActionError, match="CK-PROG-2"):
        g.play(ReturnProgress("spy"))
    g.play(ReturnProgress("crane"))
    assert len(s["hands"][0]) == 4 and s["decks"][Track.SCIENCE.value][0] == "crane"


# ------------------------------------------------------------------------------------ CK-IMP-3..5
def test_ck_imp_3_trading_house_fortress_aqueduct():
    """CK-IMP-3: trade 3 trades commodities 2:1; politics 3 allows mighty knights (CK-KN-3);
    science 3 gives a resource to a player who got nothing on a roll, not on a 7."""
    g = ck_game()
    s = st(g)
    assert g.rates(0)[CLOTH] == 4
    s["levels"][0][Track.TRADE.value] = 3
    assert g.rates(0)[CLOTH] == 2 and g.rates(0)[Resource.ORE.value] >= 2
    s["levels"][2][Track.SCIENCE.value] = 3
    to_roll(g, 1)
    g.play(RollDice(dice=(1, 1, 4)))  # a 2: seat 2 gets nothing
    assert g.phase is AQUEDUCT and g.current_player == 2
    g.play(TakeAqueduct(Resource.ORE))
    assert g.hands[2][Resource.ORE.value] == 1 and g.phase is Phase.MAIN
    g.play(EndTurn())
    g.play(RollDice(dice=(3, 4, 4)))  # a 7: no Aqueduct
    while g.phase is not Phase.MAIN:
        assert g.phase is not AQUEDUCT
        g.play(g.legal_actions()[0])


def test_ck_imp_4_5_metropolis_first_to_four_lost_only_to_the_first_to_five():
    """CK-IMP-4: the first to level 4 turns a city into a metropolis (+2 VP); CK-IMP-5: it moves
    only when another player reaches level 5 first."""
    g = ck_game()
    s = st(g)
    make_city(g, 0)
    make_city(g, 1)
    s["levels"][0][Track.POLITICS.value] = 3
    s["levels"][1][Track.POLITICS.value] = 3
    give(g, 0, Commodity.COIN, 4)
    vp = g.vp(0)
    g.play(ImproveCity(Track.POLITICS))
    assert s["metropolis"][Track.POLITICS.value] == [0, sorted(g.placed[g.kind_id["city"]][0])[0]]
    assert g.vp(0) == vp + 2
    finish_turns(g, 1)
    give(g, 1, Commodity.COIN, 9)
    g.play(ImproveCity(Track.POLITICS))  # level 4: the metropolis stays with seat 0
    assert s["metropolis"][Track.POLITICS.value][0] == 0
    g.play(ImproveCity(Track.POLITICS))  # level 5 first: it moves
    assert s["metropolis"][Track.POLITICS.value][0] == 1 and g.vp(0) == vp


# ------------------------------------------------------------------------------------- CK-KN
def own_free_road_node(g: Game, p: int) -> int:
    return g.candidates(p, "knight")[0]


def test_ck_kn_1_2_3_hire_and_promote():
    """CK-KN-1: a basic knight for 1 ore + 1 wool on a free intersection on one's roads; CK-KN-2:
    promotions one level a turn, at most 2 per level; CK-KN-3: mighty only with the Fortress."""
    g = ck_game()
    v = own_free_road_node(g, 0)
    far = next(w for w in range(g.topology.n_nodes) if w not in g.road_nodes[0] and g.node_owner[w] < 0)
    deal(g, 0, ore=6, wool=6)
    with pytest.raises(IllegalActionError, match="CK-KN-1"):
        g.play(HireKnight(far))
    g.play(HireKnight(v))
    assert knights(g, 0) == [[v, 0, 1, False, False, False]] and g.hands[0][4] == 5
    g.play(PromoteKnight(v))
    with pytest.raises(IllegalActionError, match="CK-KN-2"):
        g.play(PromoteKnight(v))  # once a turn
    g.play(EndTurn())
    finish_turns(g, 0)
    with pytest.raises(IllegalActionError, match="CK-KN-3"):
        g.play(PromoteKnight(v))
    st(g)["levels"][0][Track.POLITICS.value] = 3
    g.play(PromoteKnight(v))
    assert knights(g, 0)[0][2] == 3
    with pytest.raises(IllegalActionError, match="CK-KN-2"):
        g.play(PromoteKnight(v))  # mighty is the top


def test_ck_kn_4_5_activate_then_act_from_the_next_turn():
    """CK-KN-4: activating costs 1 grain; CK-KN-5: a knight activated this turn cannot act; a move
    along one's roads makes it inactive."""
    g = ck_game()
    v = own_free_road_node(g, 0)
    deal(g, 0, ore=1, wool=1, grain=1)
    g.play(HireKnight(v))
    t = g.topology
    e = next(e for e in t.node_edges[v] if g.edge_owner[e] < 0 and t.edge_land[e])
    g.place(0, "road", e)  # a road on from the knight: somewhere to move to
    with pytest.raises(IllegalActionError, match="CK-KN-5"):
        g.play(MoveKnight(v, v + 1))  # not active
    g.play(ActivateKnight(v))
    assert catan_strength(g, 0) == 1 and g.hands[0][Resource.GRAIN.value] == 0
    assert not any(isinstance(a, MoveKnight) for a in g.legal_actions())
    free = [w for w in sorted(g.road_nodes[0]) if g.node_owner[w] < 0 and w != v]
    with pytest.raises(IllegalActionError, match="CK-KN-5"):
        g.play(MoveKnight(v, free[0]))  # activated this turn
    g.play(EndTurn())
    finish_turns(g, 0)
    moves = [a for a in g.legal_actions() if isinstance(a, MoveKnight)]
    assert moves
    g.play(moves[0])
    assert knights(g, 0)[0][0] == moves[0].to_node and not knights(g, 0)[0][3]  # inactive after acting


def test_ck_kn_5_6_displace_a_weaker_knight_which_retreats():
    """CK-KN-5: an active knight displaces a weaker opponent's knight on its roads; CK-KN-6: the
    displaced knight's owner moves it to a free connected intersection, or it leaves the board."""
    g = ck_game()
    t = g.topology
    # seat 0's strong active knight, seat 1's basic knight on seat 0's road network
    v = own_free_road_node(g, 0)
    g.place(0, "knight", v)
    st(g)["knights"].append([v, 0, 2, True, False, False])
    road = next(e for e in t.node_edges[v] if g.edge_owner[e] < 0 and t.edge_land[e])
    g.place(0, "road", road)
    w = next(x for x in t.edge_nodes[road] if x != v)
    g.place(1, "knight", w)
    st(g)["knights"].append([w, 1, 1, False, False, False])
    st(g)["knights"].sort()
    assert DisplaceKnight(v, w) in g.legal_actions()
    g.play(DisplaceKnight(v, w))
    assert g.phase is RETREAT and g.current_player == 1
    options = g.legal_actions()
    assert all(isinstance(a, RetreatKnight) for a in options)
    g.play(options[0])
    assert g.phase is Phase.MAIN and g.node_owner[w] == 0
    if options[0].to_node is None:
        assert not knights(g, 1)  # CK-KN-6: nowhere to go, it leaves the board
    else:
        assert knights(g, 1)[0][0] == options[0].to_node


def test_ck_kn_7_a_knight_blocks_roads_and_breaks_longest_road():
    """CK-KN-7: an opponent's knight blocks roads through its intersection and breaks trails there,
    like a settlement (checked against the trail recount with the knight as a block)."""
    from catan_nb.rules import longest_trail

    g = ck_game()
    t = g.topology
    for v in g.candidates(0, "knight"):
        out = [e for e in t.node_edges[v] if g.edge_owner[e] < 0 and t.edge_land[e]
               and not set(t.edge_nodes[e]) - {v} <= g.road_nodes[0]]
        if out:
            break
    assert set(out) <= set(g.candidates(0, "road"))
    g.place(0, "road", out[0])  # seat 0's road now runs through v
    g.place(1, "knight", v)
    st(g)["knights"].append([v, 1, 1, False, False, False])
    st(g)["knights"].sort()
    assert not set(out[1:]) & set(g.candidates(0, "road"))  # CK-KN-7: no road through the knight
    roads = [e for e, o in enumerate(g.edge_owner) if o == 0]
    blocked = {w for w, o in enumerate(g.node_owner) if o not in (-1, 0)}
    assert v in blocked
    assert g.longest_road(0) == longest_trail(roads, t.edge_nodes, t.node_edges, blocked)[0]


def test_ck_kn_5_chase_the_robber_only_after_the_first_attack():
    """CK-KN-5: an active knight chases the robber off a hex next to it; CK-BAR-4: not before the
    barbarians' first attack."""
    g = ck_game()
    t = g.topology
    v = next(x for x in g.candidates(0, "knight"))
    g.robber = t.node_hexes[v][0]
    g.place(0, "knight", v)
    st(g)["knights"].append([v, 0, 1, True, False, False])
    assert not any(isinstance(a, ChaseRobber) for a in g.legal_actions())
    st(g)["attacks"] = 1
    chases = [a for a in g.legal_actions() if isinstance(a, ChaseRobber)]
    assert chases
    g.play(chases[0])
    assert g.robber == chases[0].to_hex and not knights(g, 0)[0][3]


# ------------------------------------------------------------------------------------ CK-BAR
def test_ck_bar_4_ships_move_and_the_robber_waits():
    """CK-BAR-4: the ship moves a step on each ship face; a 7 before the first attack only makes
    players discard."""
    g = ck_game()
    to_roll(g, 1)
    g.play(RollDice(dice=(1, 2, 1)))
    assert st(g)["barbarians"] == 1
    g.play(EndTurn())
    deal(g, 3, ore=9)
    g.play(RollDice(dice=(3, 4, 2)))
    assert st(g)["barbarians"] == 2
    while g.phase is not Phase.MAIN:
        assert g.phase is not Phase.MOVE_ROBBER
        g.play(g.legal_actions()[0])


def _to_attack(g: Game) -> None:
    st(g)["barbarians"] = 6
    to_roll(g, 1)


def test_ck_bar_1_2_catan_loses_the_least_contributors_lose_a_city():
    """CK-BAR-1: barbarians = cities (a metropolis once), Catan = active knights; CK-BAR-2: the
    least contributors with an ordinary city lose one (their choice; its wall too); then every
    knight is inactive (CK-BAR-4)."""
    g = ck_game()
    c0 = make_city(g, 0)
    c1 = make_city(g, 1)
    make_city(g, 2)
    st(g)["walls"][1].append(c1)
    v = own_free_road_node(g, 0)
    g.place(0, "knight", v)
    st(g)["knights"].append([v, 0, 1, True, False, False])
    assert barbarian_strength(g) == 3 and catan_strength(g) == 1
    _to_attack(g)
    g.play(RollDice(dice=(1, 2, 3)))
    assert g.phase is LOSE_CITY
    losers = []
    while g.phase is LOSE_CITY:
        p = g.current_player
        losers.append(p)
        with pytest.raises(IllegalActionError, match="CK-BAR-2"):
            g.play(LoseCity(c0))
        g.play(g.legal_actions()[0])
    assert sorted(losers) == [1, 2]  # seat 0 contributed 1, seats 1 and 2 nothing; seat 3 has no city
    assert c1 not in st(g)["walls"][1] and g.building_at(c1)[1].name == "SETTLEMENT"
    assert not any(r[3] for r in st(g)["knights"]) and st(g)["barbarians"] == 0 and st(g)["attacks"] == 1



def test_ck_bar_2_A32_the_least_contributors_are_weakest_by_strength_not_by_count():
    """CK-BAR-2, A-32: the players who lose a city are those whose active knights add up to the least
    strength, not those with the fewest knights: one mighty knight (strength 3) outweighs two basic
    ones (2), so the owner of the two basic knights loses a city."""
    g = ck_game()
    free = [v for v in range(g.topology.n_nodes)
            if g.node_owner[v] < 0 and all(g.node_owner[w] < 0 for w in g.topology.node_neighbours[v])]
    for p in (0, 1):
        for v in settlements(g, p):
            make_city(g, p, v)
    extra = free[0], next(v for v in free if v != free[0] and v not in g.topology.node_neighbours[free[0]])
    for p, v in zip((0, 1), extra):
        g.place(p, "city", v)  # three cities each: the barbarians' 6 beat Catan's 5
    v = own_free_road_node(g, 0)
    g.place(0, "knight", v)
    st(g)["knights"].append([v, 0, 3, True, False, False])
    for v in g.candidates(1, "knight")[:2]:
        g.place(1, "knight", v)
        st(g)["knights"].append([v, 1, 1, True, False, False])
    assert barbarian_strength(g) == 6 and (catan_strength(g, 0), catan_strength(g, 1)) == (3, 2)
    assert len(knights(g, 0)) < len(knights(g, 1))
    _to_attack(g)
    g.play(RollDice(dice=(1, 2, 3)))
    losers = []
    while g.phase is LOSE_CITY:
        losers.append(g.current_player)
        g.play(g.legal_actions()[0])
    assert losers == [1]

def test_ck_bar_3_a_single_defender_or_a_tie_draws_progress_cards():
    """CK-BAR-3: a tie goes to Catan; the single top contributor takes a Defender card (1 VP); tied
    top contributors each draw a progress card of their chosen colour."""
    g = ck_game()
    make_city(g, 0)
    v = own_free_road_node(g, 0)
    g.place(0, "knight", v)
    st(g)["knights"].append([v, 0, 1, True, False, False])
    _to_attack(g)
    vp = g.vp(0)
    g.play(RollDice(dice=(1, 2, 3)))  # 1 city against 1 knight: a tie goes to Catan
    assert st(g)["defender"][0] == 1 and g.vp(0) == vp + 1 and st(g)["defender_left"] == 5
    g2 = ck_game()
    for p in (0, 1):
        w = own_free_road_node(g2, p)
        g2.place(p, "knight", w)
        st(g2)["knights"].append([w, p, 2, True, False, False])
    st(g2)["knights"].sort()
    _to_attack(g2)
    g2.play(RollDice(dice=(1, 2, 3)))
    drawn = []
    while g2.phase is DEFENDER_DRAW:
        drawn.append(g2.current_player)
        g2.play(DrawProgress(Track.TRADE))
    assert sorted(drawn) == [0, 1] and sum(st(g2)["defender"]) == 0
    assert all(len(st(g2)["hands"][p]) + len(st(g2)["vp_cards"][p]) == 1 for p in (0, 1))


# -------------------------------------------------------------------------------- CK-WALL, CK-VP
def test_ck_wall_1_walls_under_cities_raise_the_hand_limit():
    """CK-WALL-1: 2 brick, only under one's own city, one per city, 3 per player, +2 cards safe on a 7."""
    g = ck_game()
    s0 = settlements(g, 0)
    deal(g, 0, brick=8)
    with pytest.raises(IllegalActionError, match="CK-WALL-1"):
        g.play(BuildWall(s0[0]))
    c = make_city(g, 0)
    limit = g.hand_limit(0)
    g.play(BuildWall(c))
    assert g.hand_limit(0) == limit + 2 and g.hands[0][1] == 6
    with pytest.raises(IllegalActionError, match="CK-WALL-1"):
        g.play(BuildWall(c))


def test_ck_vp_1_ck_sf_1_targets():
    """CK-VP-1: 13 VP; CK-SF-1: the Seafarers scenario's own target + 2 (the islands' 12 -> 14; every
    scenario in test_ck_sf_1_the_scenario_target_rises_by_two)."""
    from catan_nb.rules.modules.seafarers import ISLANDS

    assert Game(Board.beginner(), players=4, seed=1, rules=RULES).vp_target == 13
    g = Game(Board.load(ISLANDS), players=4, seed=1, rules=Rules(modules=("seafarers", "cities_knights")))
    assert g.vp_target == 12 + 2


# ------------------------------------------------------------------------------- bad input, views
def test_illegal_actions_leave_the_game_unchanged():
    """Every check raises IllegalActionError with a rule id, and nothing is half-applied."""
    g = ck_game()
    before = g.state()
    for a in (HireKnight(10_000), HireKnight(-1), PromoteKnight(0), ActivateKnight(3), MoveKnight(0, 1),
              DisplaceKnight(0, 1), ImproveCity(Track.TRADE), BuildWall(0), LoseCity(0), TakeAqueduct(Resource.ORE),
              DrawProgress(Track.SCIENCE), ReturnProgress("spy"), RetreatKnight(None), ChaseRobber(0, 0, 1)):
        with pytest.raises(IllegalActionError) as err:
            g.play(a)
        assert err.value.rule.startswith(("CK-", "B-"))
        assert g.state() == before


def test_progress_hands_are_hidden_and_dealt_again():
    """CK-PROG: the decks and the other players' progress cards are hidden; how many of each colour
    a player holds is public, so a determinisation keeps the counts and the observer's own cards."""
    g = ck_game()
    s = st(g)
    s["hands"][1] = sorted(["spy", "crane"])
    s["hands"][0] = ["mining"]
    v = g.view(0).modules["cities_knights"]
    assert v["hand"] == ["mining"] and v["hand_sizes"][1] == 2 and "spy" not in str(v)
    twin = g.determinized(0, seed=3)
    t = st(twin)
    assert t["hands"][0] == ["mining"] and len(t["hands"][1]) == 2
    assert sum(c in DECKS[Track.POLITICS] for c in t["hands"][1]) == 1
    assert replace(twin.view(0), legal_actions=()) == replace(g.view(0), legal_actions=())


@pytest.mark.parametrize("seed,modules,board", [(1, ("cities_knights",), "random"), (2, ("cities_knights",), "random"),
                                                (3, ("seafarers", "cities_knights"), "islands")])
def test_cities_knights_games_end_with_invariants_and_replay(seed, modules, board):
    """Complete games (value bots, and the module with Seafarers) with the invariants after every
    action: goods per kind, knights per level, walls, one metropolis per track, barbarian strength
    recounted; save/load and replay identical."""
    from catan_nb.rules.modules.seafarers import ISLANDS

    b = Board.load(ISLANDS) if board == "islands" else Board.random(seed=seed)
    g = Game(b, players=3 + seed % 2, seed=seed, rules=Rules(modules=modules))
    bots = [ValueBot(seed=q) if (q + seed) % 2 else RandomBot(seed=q) for q in range(g.n)]
    check = Checker(g)
    while not g.is_over and g.turn < 3000:
        g.play(bots[g.current_player].choose(g))
        check()
    assert g.is_over and g.vp(g.winner) >= g.vp_target
    assert Game.from_json(g.to_json()).state() == g.state()
    assert g.replay().state() == g.state()


# ------------------------------------------------------------------------------- progress cards


def holding(g: Game, *cards: str) -> None:
    """Seat 0 holds ``cards`` (taken from their decks: a test position)."""
    s = st(g)
    for c in cards:
        deck = next(d for d in s["decks"] if c in d)
        deck.remove(c)
        s["hands"][0].append(c)
    s["hands"][0].sort()


def test_ck_pc_5_6_irrigation_and_mining_pay_two_per_hex_not_doubled_by_cities():
    """CK-PC-5, CK-PC-6: 2 grain per fields hex (2 ore per mountains hex) next to at least one of the
    player's buildings; cities do not double it; the card goes under its deck."""
    g = ck_game()
    make_city(g, 0)
    holding(g, "irrigation", "mining")
    t = g.topology
    mine = [v for v, o in enumerate(g.node_owner) if o == 0 and g.building_at(v)]
    fields = {h for v in mine for h in t.node_hexes[v] if g.hex_terrain[h] is Terrain.FIELDS}
    mountains = {h for v in mine for h in t.node_hexes[v] if g.hex_terrain[h] is Terrain.MOUNTAINS}
    g.play(PlayProgress("irrigation"))
    g.play(PlayProgress("mining"))
    assert g.hands[0][Resource.GRAIN.value] == 2 * len(fields)
    assert g.hands[0][Resource.ORE.value] == 2 * len(mountains)
    assert st(g)["hands"][0] == [] and st(g)["decks"][Track.SCIENCE.value][0] in ("irrigation", "mining")
    with pytest.raises(IllegalActionError, match="CK-PROG-1"):
        g.play(PlayProgress("mining"))  # no longer held


def test_ck_pc_17_warlord_activates_every_knight():
    """CK-PC-17: all the player's knights active, free."""
    g = ck_game()
    for v in g.candidates(0, "knight")[:2]:
        g.place(0, "knight", v)
        st(g)["knights"].append([v, 0, 1, False, False, False])
    st(g)["knights"].sort()
    holding(g, "warlord")
    g.play(PlayProgress("warlord"))
    assert all(r[3] for r in knights(g, 0)) and catan_strength(g, 0) == 2 and sum(g.hands[0]) == 0


def test_ck_pc_23_24_resource_and_trade_monopoly():
    """CK-PC-23: each opponent gives 2 of the named resource, or 1 if that is all; CK-PC-24: each
    gives 1 of the named commodity if they have one."""
    g = ck_game()
    deal(g, 1, ore=3)
    deal(g, 2, ore=1)
    give(g, 1, Commodity.COIN, 2)
    holding(g, "resource_monopoly", "trade_monopoly")
    with pytest.raises(IllegalActionError, match="CK-PC-23"):
        g.play(PlayProgressGood("resource_monopoly", Commodity.COIN))
    g.play(PlayProgressGood("resource_monopoly", Resource.ORE))
    assert g.hands[0][Resource.ORE.value] == 3 and g.hands[1][Resource.ORE.value] == 1 and g.hands[2][4] == 0
    g.play(PlayProgressGood("trade_monopoly", Commodity.COIN))
    assert g.hands[0][COIN] == 1 and g.hands[1][COIN] == 1


def test_ck_pc_3_7_engineer_and_medicine():
    """CK-PC-3: a free city wall; CK-PC-7: a settlement becomes a city for 2 ore + 1 grain."""
    g = ck_game()
    c = make_city(g, 0)
    v = settlements(g, 0)[0]
    holding(g, "engineer", "medicine")
    with pytest.raises(IllegalActionError, match="CK-PC-3"):
        g.play(PlayProgressNode("engineer", v))  # a settlement, not a city
    g.play(PlayProgressNode("engineer", c))
    assert st(g)["walls"][0] == [c] and sum(g.hands[0]) == 0
    with pytest.raises(IllegalActionError, match="B-BUILD-1"):
        g.play(PlayProgressNode("medicine", v))
    deal(g, 0, ore=2, grain=1)
    g.play(PlayProgressNode("medicine", v))
    assert g.building_at(v)[1].name == "CITY" and sum(g.hands[0]) == 0


def test_ck_pc_10_smith_promotes_two_knights_keeping_their_state():
    """CK-PC-10: up to 2 knights one level each, free; strong to mighty needs the Fortress; each
    keeps its active state."""
    g = ck_game()
    a, b = g.candidates(0, "knight")[:2]
    for v, lvl, active in ((a, 1, True), (b, 2, False)):
        g.place(0, "knight", v)
        st(g)["knights"].append([v, 0, lvl, active, False, False])
    st(g)["knights"].sort()
    holding(g, "smith")
    with pytest.raises(IllegalActionError, match="CK-PC-10"):
        g.play(PlaySmith((a, b)))  # no Fortress for the strong one
    assert PlaySmith((a,)) in g.legal_actions()
    st(g)["levels"][0][Track.POLITICS.value] = 3
    g.play(PlaySmith((a, b)))
    levels = {r[0]: (r[2], r[3]) for r in knights(g, 0)}
    assert levels == {a: (2, True), b: (3, False)}


# ---------------------------------------------------------------- the other progress cards (issue 15)
def knight_at(g: Game, p: int, v: int, level: int = 1, active: bool = False) -> None:
    """Put ``p``'s knight on ``v`` (a test position)."""
    g.place(p, "knight", v)
    st(g)["knights"].append([v, p, level, active, False, False])
    st(g)["knights"].sort()


def hex_of_seats(g: Game, *seats: int) -> int:
    """A land hex (not the robber's) with buildings of exactly ``seats`` around it."""
    t = g.topology
    for h in range(t.n_hexes):
        if t.hex_land[h] and h != g.robber and set(g.hex_players(h)) == set(seats):
            return h
    raise LookupError(seats)


def test_ck_pc_1_alchemist_sets_the_number_dice_before_the_roll_only():
    """CK-PC-1: played before the roll (the only card that may be): both number dice set, even to 7;
    the event die is rolled and resolved first (here the barbarians land before production)."""
    g = ck_game()
    holding(g, "alchemist")
    with pytest.raises(IllegalActionError, match="CK-PC-1"):
        g.play(cks.PlayAlchemist(3, 4))  # after the roll
    to_roll(g, 0)
    acts = [a for a in g.legal_actions() if isinstance(a, cks.PlayAlchemist)]
    assert len(acts) == 36 and cks.PlayAlchemist(3, 4) in acts
    with pytest.raises(IllegalActionError, match="CK-PC-1"):
        g.play(cks.PlayAlchemist(7, 1))
    st(g)["barbarians"] = 6
    before = [sum(h) for h in g.hands]
    g.play(cks.PlayAlchemist(2, 4, event=2))
    assert g.dice_history[-1] == (2, 4, 2) and st(g)["attacks"] == 1 and "alchemist" not in st(g)["hands"][0]
    assert isinstance(g.log[-1], cks.PlayAlchemist) and g.log[-1].event == 2
    assert [sum(h) for h in g.hands] != before or g.phase is not Phase.MAIN  # the 6 was produced after
    r = Game(Board.beginner(), seed=4, start="beginner", rules=RULES)  # played, drawn and replayed
    cks_hand = st(r)["hands"][0]
    deck = next(d for d in st(r)["decks"] if "alchemist" in d)
    deck.remove("alchemist")
    cks_hand.append("alchemist")
    r.play(cks.PlayAlchemist(3, 4))
    assert r.dice_history[-1][:2] == (3, 4) and 1 <= r.dice_history[-1][2] <= 6


def test_ck_pc_2_crane_one_improvement_costs_one_commodity_less():
    """CK-PC-2: one improvement this turn costs 1 commodity less (a first level is free); two Cranes
    cannot be combined; it lasts the turn."""
    g = ck_game()
    make_city(g, 0)
    holding(g, "crane", "crane")
    g.play(PlayProgress("crane"))
    assert improvement_cost(g, 0, Track.SCIENCE)[PAPER] == 0
    with pytest.raises(IllegalActionError, match="CK-PC-2"):
        g.play(PlayProgress("crane"))
    g.play(ImproveCity(Track.SCIENCE))  # free
    assert st(g)["levels"][0][Track.SCIENCE.value] == 1 and improvement_cost(g, 0, Track.SCIENCE)[PAPER] == 2
    g.play(PlayProgress("crane"))
    g.play(EndTurn())
    assert st(g)["crane"] is None and improvement_cost(g, 0, Track.TRADE)[CLOTH] == 1


def test_ck_pc_4_inventor_swaps_two_tokens_but_never_2_6_8_12():
    """CK-PC-4: any two number tokens except 2, 6, 8 and 12 (the robber's hex included); production
    follows the tokens."""
    g = ck_game()
    holding(g, "inventor")
    tok = g.hex_token
    fixed = next(h for h in range(g.topology.n_hexes) if tok[h] in (6, 8))
    a, b = [h for h in range(g.topology.n_hexes) if tok[h] and tok[h] not in (2, 6, 8, 12)][:2]
    assert not any(isinstance(x, cks.PlayInventor) and fixed in (x.first, x.second) for x in g.legal_actions())
    with pytest.raises(IllegalActionError, match="CK-PC-4"):
        g.play(cks.PlayInventor(a, fixed))
    with pytest.raises(IllegalActionError, match="CK-PC-4"):
        g.play(cks.PlayInventor(a, a))
    ta, tb = tok[a], tok[b]
    g.play(cks.PlayInventor(a, b))
    assert (g.hex_token[a], g.hex_token[b]) == (tb, ta)
    takers = {q for q in g.hex_players(a)}
    if takers:  # rolling a's new number pays around a
        to_roll(g, 1)
        before = [sum(h) for h in g.hands]
        g.play(RollDice(dice=(tb - min(tb - 1, 6), min(tb - 1, 6), 1)))
        assert all(sum(g.hands[q]) > before[q] for q in takers)


def test_ck_pc_9_road_building_two_free_roads_apart_ships_with_seafarers():
    """CK-PC-9: 2 free roads that need not touch each other (each on the player's network); with
    Seafarers ships are allowed as in SF-17."""
    g = ck_game()
    holding(g, "road_building")
    g.play(PlayProgress("road_building"))
    assert g.phase is cks.ROAD_BUILDING and cks.EndRoadBuilding() in g.legal_actions()
    roads = g.candidates(0, "road")
    first = roads[0]
    apart = next(e for e in roads if not set(g.topology.edge_nodes[e]) & set(g.topology.edge_nodes[first]))
    g.play(BuildRoad(first))
    g.play(BuildRoad(apart))
    assert g.phase is Phase.MAIN and {first, apart} <= g.roads[0] and sum(g.hands[0]) == 0
    from catan_nb.rules.modules.seafarers import ISLANDS

    s = Game(Board.load(ISLANDS), players=3, seed=1, rules=Rules(modules=("seafarers", "cities_knights")))
    assert set(s.free_kinds(cks.ROAD_BUILDING)) == {"road", "ship"}


def test_ck_pc_11_bishop_robs_everyone_on_the_new_hex_after_the_first_attack():
    """CK-PC-11: the robber moves and 1 random card goes from each player with a building there;
    like the robber, not before the first attack (CK-BAR-4)."""
    g = ck_game()
    holding(g, "bishop")
    with pytest.raises(IllegalActionError, match="CK-BAR-4"):
        g.play(cks.PlayBishop(0))
    st(g)["attacks"] = 1
    h = next(x for x in range(g.topology.n_hexes) if g.topology.hex_land[x] and x != g.robber
             and len(set(g.hex_players(x)) - {0}) >= 2)
    victims = sorted(set(g.hex_players(h)) - {0})
    for q in victims:
        deal(g, q, ore=1, wool=1)
    with pytest.raises(IllegalActionError, match="B-ROB-7"):
        g.play(cks.PlayBishop(h, stolen=(Resource.BRICK,) * len(victims)))
    g.play(cks.PlayBishop(h))
    assert g.robber == h and sum(g.hands[0]) == len(victims)
    assert all(sum(g.hands[q]) == 1 for q in victims)
    assert len(g.log[-1].stolen) == len(victims)


def test_ck_pc_12_deserter_removes_a_knight_and_brings_one_like_it():
    """CK-PC-12: the opponent removes a knight of their choice; the player may place one of the same
    strength and state free (mighty even without the Fortress), or a basic one when none of that
    strength is left."""
    g = ck_game()
    theirs = g.candidates(1, "knight")[:2]
    knight_at(g, 1, theirs[0], 3, True)
    knight_at(g, 1, theirs[1], 1, False)
    holding(g, "deserter", "deserter")
    with pytest.raises(IllegalActionError, match="CK-PC-12"):
        g.play(cks.PlayDeserter(2))  # no knight
    g.play(cks.PlayDeserter(1))
    assert g.phase is cks.DESERTER and g.current_player == 1
    with pytest.raises(IllegalActionError, match="CK-PC-12"):
        g.play(cks.RemoveKnight(settlements(g, 1)[0]))
    g.play(cks.RemoveKnight(theirs[0]))  # their choice: the mighty one
    assert g.phase is cks.DESERTER_PLACE and g.current_player == 0
    spot = g.candidates(0, "knight")[0]
    g.play(cks.PlaceDeserter(spot))
    assert knights(g, 0) == [[spot, 0, 3, True, True, False]] and st(g)["levels"][0][1] == 0
    assert [r[0] for r in knights(g, 1)] == [theirs[1]]
    t = g.topology
    for e in list(g.candidates(0, "road"))[:2]:  # room on seat 0's roads
        if g.edge_owner[e] < 0 and all(g.node_owner[v] < 0 for v in t.edge_nodes[e] if v not in g.road_nodes[0]):
            g.place(0, "road", e)
    knight_at(g, 0, g.candidates(0, "knight")[0], 1)  # two basics already: the next deserter cannot come
    knight_at(g, 0, g.candidates(0, "knight")[0], 1)
    g.play(cks.PlayDeserter(1))
    g.play(cks.RemoveKnight(theirs[1]))
    assert g.legal_actions() == [cks.PlaceDeserter(None)]
    g.play(cks.PlaceDeserter(None))
    assert g.phase is Phase.MAIN and not knights(g, 1)


def test_ck_pc_13_diplomat_removes_an_open_road_and_may_replace_ones_own():
    """CK-PC-13: an open road (nothing of its owner's at one end) is removed; the owner's trail is
    recounted; one's own road may go again at once, free."""
    g = ck_game()
    holding(g, "diplomat", "diplomat")
    t = g.topology
    r = min(g.roads[1])
    end = next(v for v in t.edge_nodes[r] if g.node_owner[v] != 1)
    g.place(1, "road", next(e for e in t.node_edges[end] if g.edge_owner[e] < 0))  # r is closed now
    opens = cks.open_roads(g)
    closed = r
    assert closed not in opens
    with pytest.raises(IllegalActionError, match="CK-PC-13"):
        g.play(cks.PlayDiplomat(closed))
    theirs = next(e for e in opens if g.edge_owner[e] == 1)
    g.play(cks.PlayDiplomat(theirs))
    assert g.edge_owner[theirs] == -1 and g.phase is Phase.MAIN
    Checker(g)()  # trails recounted from scratch equal the cached ones
    mine = next(e for e in cks.open_roads(g) if g.edge_owner[e] == 0)
    g.play(cks.PlayDiplomat(mine))
    assert g.phase is cks.DIPLOMAT_ROAD and BuildRoad(mine) in g.legal_actions()
    assert cks.EndRoadBuilding() in g.legal_actions()
    other = next(e for e in g.candidates(0, "road") if e != mine)
    g.play(BuildRoad(other))
    assert g.edge_owner[other] == 0 and g.phase is Phase.MAIN and sum(g.hands[0]) == 0


def test_ck_pc_14_intrigue_displaces_a_knight_on_ones_roads():
    """CK-PC-14: an opponent's knight on an intersection of the player's roads is displaced without
    a knight of one's own; its owner moves it (CK-KN-6)."""
    g = ck_game()
    v = next(w for w in g.road_nodes[0] if g.node_owner[w] < 0 and w in g.candidates(0, "knight"))
    knight_at(g, 1, v, 2, True)
    t = g.topology
    g.place(1, "road", next(e for e in t.node_edges[v] if g.edge_owner[e] < 0))  # somewhere to retreat to
    knight_at(g, 2, g.candidates(2, "knight")[0], 1)
    holding(g, "intrigue")
    with pytest.raises(IllegalActionError, match="CK-PC-14"):
        g.play(cks.PlayIntrigue(knights(g, 2)[0][0]))  # not on seat 0's roads
    g.play(cks.PlayIntrigue(v))
    assert g.phase is RETREAT and g.current_player == 1 and g.node_owner[v] == -1
    spots = [a.to_node for a in g.legal_actions()]
    assert spots and v not in spots
    g.play(RetreatKnight(spots[0]))
    assert knights(g, 1)[0][:4] == [spots[0], 1, 2, True] and g.phase is Phase.MAIN


def test_ck_pc_15_saboteur_halves_the_hands_of_everyone_level_or_ahead():
    """CK-PC-15: every player with as many VP as the player or more discards half of their resources
    plus commodities, rounded down (A-03); players behind keep theirs. Decision A-34."""
    g = ck_game()
    make_city(g, 2)  # seat 2 ahead; seats 1 and 3 level with seat 0 (2 VP each)
    g.place(3, "settlement", next(v for v in g.candidates(3, "settlement", founding=True)))
    g.remove("settlement", settlements(g, 1)[0])  # seat 1 behind
    for q in (1, 2, 3):
        deal(g, q, ore=3, wool=2)
        give(g, q, Commodity.COIN, 2)
    holding(g, "saboteur")
    g.play(PlayProgress("saboteur"))
    owed = {}
    while g.phase is not Phase.MAIN:
        assert g.phase is Phase.DISCARD
        owed.setdefault(g.current_player, g.stack[-1].data)
        g.play(g.legal_actions()[0])
    assert owed == {2: 3, 3: 3} and sum(g.hands[1]) == 7


def test_ck_pc_16_spy_looks_and_takes_a_progress_card():
    """CK-PC-16: look at an opponent's progress cards and take one (VP cards are face up, never
    taken); while looking the player sees that hand, and a determinisation keeps it."""
    g = ck_game()
    s = st(g)
    for c in ("smith", "bishop"):
        next(d for d in s["decks"] if c in d).remove(c)
        s["hands"][1].append(c)
    holding(g, "spy")
    g.play(cks.PlaySpy(1))
    assert g.phase is cks.SPY and g.view(0).modules["cities_knights"]["spied"] == (1, ["smith", "bishop"])
    assert "spied" not in g.view(2).modules["cities_knights"]
    twin = g.determinized(0, seed=5)
    assert st(twin)["hands"][1] == ["smith", "bishop"] or sorted(st(twin)["hands"][1]) == ["bishop", "smith"]
    with pytest.raises(IllegalActionError, match="CK-PC-16"):
        g.play(cks.SpyTake("printer"))
    g.play(cks.SpyTake("bishop"))
    assert s["hands"][0] == ["bishop"] and s["hands"][1] == ["smith"]


def test_ck_pc_18_wedding_gifts_from_everyone_ahead():
    """CK-PC-18: each player with more VP gives 2 resources or commodities of their choice, or 1 if
    that is all they have; players level or behind give nothing."""
    g = ck_game()
    make_city(g, 1)
    make_city(g, 2)
    deal(g, 1, ore=3)
    deal(g, 2, wool=1)
    deal(g, 3, grain=4)
    holding(g, "wedding")
    g.play(PlayProgress("wedding"))
    seen = []
    while g.phase is cks.WEDDING:
        seen.append((g.current_player, g.stack[-1].data))
        g.play(g.legal_actions()[0])
    assert seen[0] == (1, 2) and (2, 1) in seen
    assert g.hands[0][Resource.ORE.value] == 2 and g.hands[0][Resource.WOOL.value] == 1 and sum(g.hands[3]) == 4


def test_ck_pc_19_commercial_harbor_a_resource_for_a_commodity_once_per_turn():
    """CK-PC-19: each opponent with a commodity takes a resource from the player and gives a
    commodity of their choice; one with none is skipped (the player keeps the card); each opponent
    once per turn."""
    g = ck_game()
    deal(g, 0, lumber=3)
    give(g, 1, Commodity.CLOTH)
    give(g, 3, Commodity.PAPER, 2)
    holding(g, "commercial_harbor", "commercial_harbor")
    g.play(PlayProgress("commercial_harbor"))
    assert g.phase is cks.HARBOR_OFFER and g.stack[-1].data == (1, 3)
    g.play(cks.HarborOffer(Resource.LUMBER))
    assert g.phase is cks.HARBOR_REPLY and g.current_player == 1
    g.play(cks.HarborReply(Commodity.CLOTH))
    g.play(cks.HarborOffer(Resource.LUMBER))
    with pytest.raises(IllegalActionError, match="CK-PC-19"):
        g.play(cks.HarborReply(Commodity.CLOTH))
    g.play(cks.HarborReply(Commodity.PAPER))
    assert g.phase is Phase.MAIN and g.hands[0][CLOTH] == 1 and g.hands[0][PAPER] == 1
    assert g.hands[0][Resource.LUMBER.value] == 1 and g.hands[2][Resource.LUMBER.value] == 0
    g.play(PlayProgress("commercial_harbor"))  # seats 1 and 3 traded already this turn
    assert g.phase is Phase.MAIN


def test_ck_pc_20_master_merchant_looks_at_a_richer_hand_and_takes_two():
    """CK-PC-20: only from a player with more VP; the player sees their resources and commodities
    and takes 2 of their choice."""
    g = ck_game()
    deal(g, 1, ore=2, brick=1)
    holding(g, "master_merchant")
    with pytest.raises(IllegalActionError, match="CK-PC-20"):
        g.play(cks.PlayMasterMerchant(1))  # level on VP
    make_city(g, 1)
    g.play(cks.PlayMasterMerchant(1))
    assert g.phase is cks.MASTER_MERCHANT
    assert g.view(0).modules["cities_knights"]["looked"] == (1, list(g.hands[1]))
    twin = g.determinized(0, seed=2)
    assert twin.hands[1] == g.hands[1]
    with pytest.raises(IllegalActionError, match="CK-PC-20"):
        g.play(cks.TakeGoods(tuple(int(i == 4) for i in range(8))))  # 1 card, not 2
    g.play(cks.TakeGoods(tuple(2 * (i == 4) for i in range(8))))
    assert g.hands[0][4] == 2 and g.hands[1][4] == 0 and g.phase is Phase.MAIN


def test_ck_pc_21_ck_mer_1_the_merchant_trades_two_for_one_and_holds_a_vp():
    """CK-PC-21: the merchant goes on a land hex next to one of the player's buildings; CK-MER-1:
    its controller trades that hex's resource 2:1 (for commodities too) and holds 1 VP; playing a
    Merchant takes control of it."""
    g = ck_game()
    holding(g, "merchant")
    desert = next(h for h in range(g.topology.n_hexes) if g.hex_terrain[h] is Terrain.DESERT)
    far = next(h for h in range(g.topology.n_hexes) if g.topology.hex_land[h] and 0 not in g.hex_players(h)
               and g.hex_terrain[h].resource is not None)
    for bad in (desert, far):
        with pytest.raises(IllegalActionError, match="CK-PC-21"):
            g.play(cks.PlayMerchant(bad))
    h = next(x for x in range(g.topology.n_hexes) if 0 in g.hex_players(x) and g.hex_terrain[x].resource is not None)
    r = g.hex_terrain[h].resource
    vp = g.vp(0)
    g.play(cks.PlayMerchant(h))
    assert g.vp(0) == vp + 1 and g.maritime_rate(0, r) == 2
    deal(g, 0, **{r.name.lower(): 2})
    g.play(MaritimeTrade(r, Commodity.COIN))
    assert g.hands[0][COIN] == 1
    g.play(EndTurn())
    finish_turns(g, 1)
    s = st(g)
    next(d for d in s["decks"] if "merchant" in d).remove("merchant")
    s["hands"][1].append("merchant")
    h1 = next(x for x in range(g.topology.n_hexes) if 1 in g.hex_players(x) and g.hex_terrain[x].resource is not None)
    g.play(cks.PlayMerchant(h1))
    assert g.vp(0) == vp and s["merchant"] == [1, h1]


def test_ck_pc_22_merchant_fleet_two_for_one_for_the_turn():
    """CK-PC-22: one chosen resource or commodity trades 2:1 with the bank for the rest of the turn."""
    g = ck_game()
    holding(g, "merchant_fleet")
    g.play(PlayProgressGood("merchant_fleet", Commodity.CLOTH))
    assert g.maritime_rate(0, Commodity.CLOTH) == 2 and g.maritime_rate(0, Resource.ORE) == 4
    g.play(EndTurn())
    assert g.maritime_rate(0, Commodity.CLOTH) == 4


def test_ck_sf_1_gold_pays_a_city_resources_only_and_takes_no_merchant():
    """CK-SF-1: a city next to a gold field picks 2 resources (never commodities); the merchant
    cannot stand on a gold field."""
    from catan_nb.rules.modules.gold_fields import GOLD_PICK, PickGold, gold_board

    probe = Game(Board.beginner(), seed=1, start="beginner", rules=RULES)
    v = settlements(probe, 0)[0]
    h = next(x for x in probe.topology.node_hexes[v] if probe.hex_token[x] not in (None, 0))
    board = gold_board(Board.beginner(), h)
    g = Game(board, seed=1, start="beginner", rules=Rules(modules=("gold_fields", "cities_knights")))
    g.place(0, "city", v)
    tok = g.hex_token[h]
    g.play(RollDice(dice=(tok - min(tok - 1, 6), min(tok - 1, 6), 1)))
    while g.phase is GOLD_PICK and g.current_player != 0:
        g.play(g.legal_actions()[0])
    assert g.phase is GOLD_PICK and g.stack[-1].data >= 2
    picks = [a for a in g.legal_actions() if isinstance(a, PickGold)]
    assert picks and all(isinstance(a.resource, Resource) for a in picks)
    with pytest.raises(IllegalActionError):
        g.play(PickGold(Commodity.CLOTH))
    holding(g, "merchant")
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="CK-SF-1"):
        g.play(cks.PlayMerchant(h))


def test_the_table_plays_progress_cards_knights_and_the_merchant():
    """Issue 15 item 7: at the table a player hires a knight on a ringed spot, activates it with a
    click, plays progress cards from the list (each choice labelled by its places or cards), sees
    the merchant on the board and in the panel; the log says what happened."""
    from catan_nb.widgets import GameTable
    from catan_nb.widgets.table import describe

    g = Game(Board.beginner(), players=4, seed=3, start="beginner", rules=RULES)
    t = GameTable(g, seats=["human"] * 4, bot_delay=None)
    holding(g, "alchemist", "merchant", "inventor")
    t.refresh()
    alchemy = [a for a in t.special_actions() if isinstance(a, cks.PlayAlchemist)]
    assert len(alchemy) == 36 and len({describe(a, g) for a in alchemy}) == 36
    t.special.value = cks.PlayAlchemist(1, 1)
    t.press("special")
    assert g.dice_history[-1][:2] == (1, 1) and "Alchemist" in t.log_box.value
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    empty_hands(g)
    deal(g, 0, ore=1, wool=1, grain=1)
    t.refresh()
    layer = next(la for la in t.layers if type(la).__name__ == "KnightLayer")
    assert t.click_layer(layer, "cities_knights:hire", 0)
    assert len(knights(g, 0)) == 1 and "hired a knight" in t.log_box.value
    assert t.click_layer(layer, "cities_knights:knights", 0)  # lists the knight's moves (issue 37)
    activate = next(b for b in t.choice_buttons.children if "activate" in b.description)
    activate.click()
    assert knights(g, 0)[0][3]  # active
    inventions = [a for a in t.special_actions() if isinstance(a, cks.PlayInventor)]
    assert len({describe(a, g) for a in inventions}) == len(inventions) > 1
    merchant = next(a for a in t.special_actions() if isinstance(a, cks.PlayMerchant))
    t.special.value = merchant
    t.press("special")
    drawn = t.figure.data[t._idx["cities_knights:merchant"]]
    assert len(drawn.x) == 1
    panel = next(p for p in t.panels if type(p).__name__ == "CitiesKnightsPanel")
    assert "merchant" in panel.html.value and "placed the merchant on" in t.log_box.value


# ------------------------------------------------------------------ issue 24: the independent audit
def _listing_is_checking(g: Game, actions) -> None:
    """Each of ``actions`` is accepted by ``play`` on a copy exactly when ``legal_actions()`` lists it."""
    listed = set(g.legal_actions())
    for a in actions:
        c = g.copy()
        try:
            c.play(a)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == (a in listed), (a, accepted)


def _knight_actions(g: Game, v: int) -> list:
    """Every move, displacement and chase a knight on ``v`` of the current seat could try."""
    t = g.topology
    out = [MoveKnight(v, w) for w in range(t.n_nodes) if w != v]
    out += [DisplaceKnight(v, r[0]) for r in st(g)["knights"] if r[1] != g.current_player]
    out += [ChaseRobber(v, g.robber, h) for h in range(t.n_hexes) if h != g.robber]
    return out


def test_ck_kn_5_ck_pc_17_knights_the_warlord_activates_act_from_the_next_turn():
    """Issue 24 item 3 (CK-KN-5 with CK-PC-17): a knight activated this turn cannot act this turn,
    whoever activated it: the Warlord's knights neither move, displace nor chase the robber until
    the next turn; a knight that was active already acts.  Listing and checking agree (the audit's
    repro: 4 players, Board.random(seed=1), seed 1, value bots 10-13, action 322 Warlord, 323
    ChaseRobber with a knight inactive before the card)."""
    g = ck_game()
    t = g.topology
    v, w = g.candidates(0, "knight")[:2]
    knight_at(g, 0, v, 2, False)  # inactive: the Warlord activates it
    knight_at(g, 0, w, 2, True)   # active since an earlier turn
    for x in (v, w):  # a road on from each knight (somewhere to move) and the robber beside it
        e = next((e for e in t.node_edges[x] if g.edge_owner[e] < 0 and t.edge_land[e]), None)
        if e is not None:
            g.place(0, "road", e)
    knight_at(g, 1, g.candidates(1, "knight")[0], 1, False)  # a weaker knight somewhere
    st(g)["attacks"] = 1
    g.robber = next(h for h in t.node_hexes[v] if t.hex_land[h])
    holding(g, "warlord")
    g.play(PlayProgress("warlord"))
    assert all(r[3] for r in knights(g, 0))
    acting = (MoveKnight, DisplaceKnight, ChaseRobber)
    listed = [a for a in g.legal_actions() if isinstance(a, acting)]
    assert not [a for a in listed if getattr(a, "from_node", getattr(a, "node", None)) == v]
    assert any(isinstance(a, MoveKnight) and a.from_node == w for a in listed)
    free = [y for y in _free_nodes(g, 0) if y != v]
    with pytest.raises(IllegalActionError, match="CK-KN-5"):
        g.play(MoveKnight(v, free[0]))
    with pytest.raises(IllegalActionError, match="CK-KN-5"):
        g.play(ChaseRobber(v, g.robber, next(h for h in g.robber_targets() if h != g.robber)))
    _listing_is_checking(g, _knight_actions(g, v) + _knight_actions(g, w)[:40])
    g.play(EndTurn())
    finish_turns(g, 0)
    assert any(isinstance(a, acting) and getattr(a, "from_node", getattr(a, "node", None)) == v
               for a in g.legal_actions())


def _free_nodes(g: Game, p: int) -> list[int]:
    return sorted(y for y in g.road_nodes[p] if g.node_owner[y] < 0 and g.topology.node_land[y])


def test_ck_kn_5_ck_pc_12_a_deserter_placed_active_acts_from_the_next_turn():
    """CK-PC-12 keeps the removed knight's state; CK-KN-5 (DECISION, docs/cities_knights.md): an
    active deserter is placed this turn, so like a knight activated this turn it acts from the next."""
    g = ck_game()
    theirs = g.candidates(1, "knight")[0]
    knight_at(g, 1, theirs, 1, True)
    holding(g, "deserter")
    g.play(cks.PlayDeserter(1))
    g.play(cks.RemoveKnight(theirs))
    spot = g.candidates(0, "knight")[0]
    t = g.topology
    e = next((e for e in t.node_edges[spot] if g.edge_owner[e] < 0 and t.edge_land[e]), None)
    if e is not None:
        g.place(0, "road", e)
    g.play(cks.PlaceDeserter(spot))
    assert knights(g, 0)[0][:4] == [spot, 0, 1, True]
    assert not any(isinstance(a, MoveKnight) for a in g.legal_actions())
    _listing_is_checking(g, _knight_actions(g, spot))


def test_ck_kn_2_ck_pc_10_one_level_per_knight_per_turn_by_smith_or_promotion():
    """Issue 24 item 4 (CK-KN-2): a knight rises at most one level a turn, whether by PromoteKnight
    or the Smith: a knight the Smith promoted is not promoted again that turn (by PromoteKnight or a
    second Smith), and a promoted knight is not the Smith's.  The audit's repro: 4 players,
    Board.random(seed=4), random bots 40-43, action 2357 PlaySmith((34, 35)), 2359 PromoteKnight(35)."""
    g = ck_game()
    a, b = g.candidates(0, "knight")[:2]
    for v in (a, b):
        knight_at(g, 0, v, 1, False)
    st(g)["levels"][0][Track.POLITICS.value] = 3
    deal(g, 0, ore=4, wool=4)
    holding(g, "smith", "smith")
    g.play(PlaySmith((a,)))
    assert PromoteKnight(a) not in g.legal_actions() and PromoteKnight(b) in g.legal_actions()
    with pytest.raises(IllegalActionError, match="CK-KN-2"):
        g.play(PromoteKnight(a))
    assert not any(isinstance(x, PlaySmith) and a in x.nodes for x in g.legal_actions())
    with pytest.raises(IllegalActionError, match="CK-KN-2"):
        g.play(PlaySmith((a,)))
    g.play(PromoteKnight(b))  # the other knight, by PromoteKnight: then not by the Smith
    assert not any(isinstance(x, PlaySmith) for x in g.legal_actions())
    with pytest.raises(IllegalActionError, match="CK-KN-2"):
        g.play(PlaySmith((b,)))
    _listing_is_checking(g, [PromoteKnight(a), PromoteKnight(b), PlaySmith((a,)), PlaySmith((b,)),
                             PlaySmith((a, b))])
    assert sorted(r[2] for r in knights(g, 0)) == [2, 2]
    g.play(EndTurn())
    finish_turns(g, 0)
    assert PlaySmith((a, b)) in g.legal_actions()
    g.play(PlaySmith((a, b)))
    assert sorted(r[2] for r in knights(g, 0)) == [3, 3]


@pytest.mark.parametrize("order", [("gold_fields", "cities_knights"), ("cities_knights", "gold_fields")])
def test_ck_imp_3_sf_1_a_gold_pick_is_income_so_no_aqueduct(order):
    """Issue 24 item 5 (CK-IMP-3 with SF-1): the Aqueduct is for a player who received nothing on the
    roll; a gold pick is something received, so a player whose only income is a gold pick takes no
    Aqueduct (the audit: islands with gold fields 20 and 23, 4 players, seed 4, action 372, roll
    (6, 6, 3)).  A player with nothing at all still takes it."""
    from catan_nb.rules.modules.gold_fields import GOLD_PICK, gold_board

    probe = Game(Board.beginner(), seed=1, start="beginner", rules=RULES)
    t = probe.topology
    hand = {p: [h for v in settlements(probe, p) for h in t.node_hexes[v]] for p in range(4)}
    # a hex of seat 2 with a number that none of seat 2's other hexes has, and no hex of seat 3 has
    h = next(x for x in hand[2] if probe.hex_token[x] and x != probe.robber
             and sum(probe.hex_token[y] == probe.hex_token[x] for y in hand[2]) == 1
             and not any(probe.hex_token[y] == probe.hex_token[x] for y in hand[3]))
    g = Game(gold_board(Board.beginner(), h), seed=1, start="beginner", rules=Rules(modules=order))
    empty_hands(g)
    for p in (2, 3):
        st(g)["levels"][p][Track.SCIENCE.value] = 3
    tok = g.hex_token[h]
    g.play(RollDice(dice=(tok - min(tok - 1, 6), min(tok - 1, 6), 4)))
    owed = {d.player for d in g.stack if d.phase is GOLD_PICK}
    aqueduct = {d.player for d in g.stack if d.phase is AQUEDUCT}
    assert 2 in owed and 2 not in aqueduct and 3 in aqueduct


SEA_TARGETS = [("seafarers_islands.json", 12), ("seafarers_fog.json", 12), ("seafarers_harbours.json", 14),
               ("seafarers_great_catan.json", 13)]


@pytest.mark.parametrize("name,own", SEA_TARGETS)
def test_ck_sf_1_the_scenario_target_rises_by_two(name, own):
    """Issue 24 item 6 (CK-SF-1): with Seafarers every scenario's own target rises by 2 (islands and
    fog 14, the Harbour Master 16, Great Catan 15), not a flat 15; Rules(vp_to_win) still decides."""
    from catan_nb.board import BOARDS_DIR

    board = Board.load(BOARDS_DIR / name)
    assert board.scenario["vp_to_win"] == own
    plain = Game(board, players=4, seed=1, rules=Rules.for_board(board))
    ck = Game(board, players=4, seed=1, rules=Rules.for_board(board, modules=("cities_knights",)))
    assert plain.vp_target == own and ck.vp_target == own + 2
    fixed = Game(board, players=4, seed=1, rules=Rules.for_board(board, modules=("cities_knights",), vp_to_win=9))
    assert fixed.vp_target == 9


def test_ck_sf_1_without_a_scenario_target_the_ck_target_stands():
    """CK-SF-1, CK-VP-1 (DECISION, docs/cities_knights.md): Seafarers on a board that names no target
    plays to C&K's own 13."""
    g = Game(Board.beginner(), players=4, seed=1, rules=Rules(modules=("seafarers", "cities_knights")))
    assert g.board.scenario.get("vp_to_win") is None and g.vp_target == 13


def test_ck_bar_1_a_42_metropolis_counts_double_option():
    """Issue 24 item 7 (CK-BAR-1, A-42): Rules(metropolis_counts_double=True) exists (default False):
    with it a city carrying a metropolis counts twice toward the barbarians' strength; the option is
    saved and loaded with the game."""
    assert Rules().metropolis_counts_double is False
    rules = Rules(modules=("cities_knights",), metropolis_counts_double=True)
    assert Rules.from_dict(rules.to_dict()) == rules and rules.to_dict()["metropolis_counts_double"] is True
    for double in (False, True):
        g = Game(Board.beginner(), players=4, seed=1, start="beginner",
                 rules=Rules(modules=("cities_knights",), metropolis_counts_double=double))
        saved = g.to_dict()
        assert Game.from_json(g.to_json()).rules.metropolis_counts_double is double
        c = make_city(g, 0)
        make_city(g, 1)
        st(g)["metropolis"][Track.SCIENCE.value] = [0, c]
        assert barbarian_strength(g) == 2 + double
    with pytest.raises(SaveFileError, match="metropolis_counts_double"):
        Game.from_json({**saved, "rules": {**saved["rules"], "metropolis_counts_double": 2}})


def test_ck_setup_1_the_second_founding_piece_is_a_city():
    """Issue 24 item 10 (CK-SETUP-1): in the first round a settlement and a road; in the second
    (reverse order) a city and a road.  The city pays 1 resource per producing hex (as B-SETUP-19
    does for a settlement) and no commodity.  Listing and checking agree; the game replays."""
    from catan_nb.rules import BuildCity, BuildSettlement

    g = Game(Board.beginner(), players=4, seed=1, rules=RULES)
    t = g.topology
    nodes = range(t.n_nodes)
    while g.phase is Phase.FOUNDING_SETTLEMENT or g.phase is Phase.FOUNDING_ROAD:
        p = g.current_player
        if g.phase is Phase.FOUNDING_ROAD:
            g.play(g.legal_actions()[0])
            continue
        second = len(g.occupied) >= g.n
        acts = g.legal_actions()
        assert acts and all(type(a) is (BuildCity if second else BuildSettlement) for a in acts)
        wrong = BuildSettlement(acts[0].node) if second else BuildCity(acts[0].node)
        with pytest.raises(IllegalActionError, match="CK-SETUP-1" if second else "B-SETUP-15"):
            g.play(wrong)
        if p == 0:
            _listing_is_checking(g, [BuildSettlement(v) for v in nodes] + [BuildCity(v) for v in nodes])
        v = acts[-1].node
        before = list(g.hands[p])
        g.play(acts[-1])
        got = [x - y for x, y in zip(g.hands[p], before)]
        assert g.building_at(v)[1].name == ("CITY" if second else "SETTLEMENT")
        producing = sum(1 for h in t.node_hexes[v] if t.hex_resource[h] >= 0)
        assert sum(got) == (producing if second else 0) and not any(got[len(Resource):])  # no commodity
    assert g.phase is Phase.ROLL
    assert g.n_settlements == [1] * 4 and g.n_cities == [1] * 4 and [g.vp(p) for p in range(4)] == [3] * 4
    assert barbarian_strength(g) == 4
    assert g.replay().state() == g.state()


def test_ck_setup_1_ck_sf_1_the_founding_city_may_take_a_ship():
    """CK-SETUP-1 with Seafarers: the road beside the founding city may be a ship (SF-6)."""
    from catan_nb.rules import BuildCity
    from catan_nb.rules.modules.seafarers import ISLANDS, BuildShip

    g = Game(Board.load(ISLANDS), players=3, seed=1, rules=Rules(modules=("seafarers", "cities_knights")))
    while len(g.occupied) < g.n or g.phase is Phase.FOUNDING_ROAD:
        g.play(g.legal_actions()[0])
    assert g.phase is Phase.FOUNDING_SETTLEMENT
    for a in g.legal_actions():
        assert isinstance(a, BuildCity)
        c = g.copy()
        c.play(a)
        ships = [x for x in c.legal_actions() if isinstance(x, BuildShip)]
        if ships:
            break
    else:
        raise AssertionError("no coastal founding city")
    p = c.current_player
    c.play(ships[0])
    assert c.building_at(a.node)[1].name == "CITY" and c.piece_on(ships[0].path) == (p, "ship")


# -------------------------------------------- issue 24: decisions written down (docs/cities_knights.md)
def test_decision_b_rob_2_commodities_count_toward_the_discard_limit():
    """DECISION (B-ROB-2, CK-COM-1): commodities are cards in hand, so they count toward the 7's limit
    and may be discarded (half of resources plus commodities, rounded down, A-03)."""
    from catan_nb.rules.modules.robber import DISCARD

    g = ck_game()
    to_roll(g, 1)
    deal(g, 2, ore=3, grain=3)
    give(g, 2, Commodity.CLOTH, 2)  # 6 resources + 2 commodities: 8 cards, over 7
    g.play(RollDice(dice=(3, 4, 4)))
    while g.phase is DISCARD and g.current_player != 2:
        g.play(g.legal_actions()[0])
    assert g.phase is DISCARD and g.current_player == 2 and g.stack[-1].data == 4
    assert any(a.cards[CLOTH] == 1 for a in g.legal_actions())
    before = g.hands[2][CLOTH]
    g.play(next(a for a in g.legal_actions() if a.cards[CLOTH] == 1))
    assert g.hands[2][CLOTH] == before - 1


@pytest.mark.parametrize("commodity", [
    Commodity.CLOTH, Commodity.COIN, Commodity.PAPER])
def test_decision_b_trade_7_a_generic_harbour_trades_commodities_3_to_1(commodity):
    """DECISION (B-TRADE-7, CK-IMP-3): a generic 3:1 harbour applies to commodities too; a resource's
    2:1 harbour does not.  (The Trading House's 2:1 is CK-IMP-3's own.)"""
    g = ck_game()
    t = g.topology
    assert all(g.maritime_rate(3, r) == 4 for r in Resource)
    for v in range(t.n_nodes):
        if t.node_harbour[v] is None or g.blocked[v] or not t.node_land[v]:
            continue
        c = g.copy()
        c.place(3, "settlement", v)
        if all(c.maritime_rate(3, r) == 3 for r in Resource):  # a generic harbour
            assert c.maritime_rate(3, commodity) == 3
            break
    else:
        raise AssertionError("no free generic harbour")
    for v in range(t.n_nodes):  # a 2:1 resource harbour leaves commodities at 4:1
        if t.node_harbour[v] is not None and not g.blocked[v] and t.node_land[v]:
            c = g.copy()
            c.place(3, "settlement", v)
            if min(c.maritime_rate(3, r) for r in Resource) == 2:
                assert all(c.maritime_rate(3, x) == 4 for x in Commodity)
                break


def test_decision_ck_imp_4_an_untaken_metropolis_waits_for_the_next_to_reach_it():
    """DECISION (CK-IMP-4): a player reaching level 4 with no city free for the metropolis (all their
    cities carry one) does not take it; it waits for the next player to reach level 4 (or 5) with a
    free city."""
    g = ck_game()
    s = st(g)
    c0 = make_city(g, 0)
    make_city(g, 1)
    s["metropolis"][Track.POLITICS.value] = [0, c0]  # seat 0's only city already carries one
    s["levels"][0][Track.POLITICS.value] = 4
    s["levels"][0][Track.SCIENCE.value] = 3
    s["levels"][1][Track.SCIENCE.value] = 3
    give(g, 0, Commodity.PAPER, 4)
    g.play(ImproveCity(Track.SCIENCE))  # level 4, no free city: nobody takes it
    assert s["metropolis"][Track.SCIENCE.value] is None and s["levels"][0][Track.SCIENCE.value] == 4
    h = g.copy()
    finish_turns(g, 1)
    give(g, 1, Commodity.PAPER, 4)
    g.play(ImproveCity(Track.SCIENCE))  # the next to reach level 4 with a free city takes it
    assert s["metropolis"][Track.SCIENCE.value][0] == 1
    c1 = make_city(h, 0)  # or seat 0, with a city of its own free now, on reaching level 5
    give(h, 0, Commodity.PAPER, 5)
    h.play(ImproveCity(Track.SCIENCE))
    assert h.ext["cities_knights"]["metropolis"][Track.SCIENCE.value] == [0, c1]


def test_decision_ck_pc_13_an_open_road_counts_only_its_owners_pieces():
    """DECISION (CK-PC-13): an open road has nothing of its owner's at one end; an opponent's road or
    knight there does not close it (the Diplomat may remove it)."""
    g = ck_game()
    t = g.topology
    r, v = next((e, v) for e in sorted(g.roads[1]) for v in t.edge_nodes[e]
                if g.node_owner[v] != 1 and not any(f != e and g.edge_owner[f] == 1 for f in t.node_edges[v])
                and g.node_owner[v] < 0)
    assert r in cks.open_roads(g)
    other = next(e for e in t.node_edges[v] if g.edge_owner[e] < 0 and t.edge_land[e])
    g.place(2, "road", other)  # an opponent's road at the open end
    knight_at(g, 2, v)  # and an opponent's knight on it
    assert r in cks.open_roads(g)
    holding(g, "diplomat")
    assert cks.PlayDiplomat(r) in g.legal_actions()
    g.play(cks.PlayDiplomat(r))
    assert g.edge_owner[r] == -1


def test_decision_ck_kn_1_a_knight_may_be_hired_where_only_ships_reach():
    """DECISION (CK-KN-1 with SF-6): a knight goes on a free intersection on the player's roads or
    ships, so one reached only by a ship takes a knight too."""
    from catan_nb.rules.modules.seafarers import ISLANDS

    g = Game(Board.load(ISLANDS), players=3, seed=2, rules=Rules(modules=("seafarers", "cities_knights")))
    bots = [RandomBot(q) for q in range(3)]
    while g.phase is not Phase.ROLL:
        g.play(bots[g.current_player].choose(g))
    t = g.topology
    ship = g.kind_id["ship"]
    for p in range(3):
        for e in g.candidates(p, "ship"):
            w = next((x for x in t.edge_nodes[e] if x not in g.road_nodes[p]), None)
            if w is not None and t.node_land[w] and g.node_owner[w] < 0:
                g.place(p, "ship", e)
                assert g.placed[ship][p] and w in g.candidates(p, "knight")
                assert not any(g.edge_owner[f] == p and g.edge_kind[f] != ship for f in t.node_edges[w])
                return
    raise AssertionError("no ship to a free coast")


def test_decision_ck_bar_4_the_pirate_waits_for_the_first_attack_like_the_robber():
    """DECISION (CK-BAR-4 with SF-10): before the barbarians' first attack a 7 moves neither the robber
    nor the pirate (players only discard); after it, the pirate may move."""
    from catan_nb.rules.modules.seafarers import ISLANDS, MovePirate, pirate

    g = Game(Board.load(ISLANDS), players=3, seed=2, rules=Rules(modules=("seafarers", "cities_knights")))
    bots = [RandomBot(q) for q in range(3)]
    while g.phase is not Phase.ROLL:
        g.play(bots[g.current_player].choose(g))
    robber, ship = g.robber, pirate(g)
    g.play(RollDice(dice=(3, 4, 4)))
    while g.phase is not Phase.MAIN:
        assert g.phase is not Phase.MOVE_ROBBER
        g.play(g.legal_actions()[0])
    assert (g.robber, pirate(g)) == (robber, ship)
    g.play(EndTurn())
    st(g)["attacks"] = 1
    g.play(RollDice(dice=(3, 4, 4)))
    while g.phase is not Phase.MOVE_ROBBER:
        g.play(g.legal_actions()[0])
    assert any(isinstance(a, MovePirate) for a in g.legal_actions())


def test_ck_pc_16_ck_pc_20_spy_and_master_merchant_need_a_card_to_take():
    """Issue 24 (listing equals checking): the Spy (CK-PC-16) and the Master Merchant (CK-PC-20) were
    accepted against a player with nothing to take although ``legal_actions`` leaves those players
    out; found by tests/test_legal_equals_play.py (Seafarers + C&K, action 2250)."""
    g = ck_game()
    make_city(g, 1)  # seat 1 ahead on VP, with no cards of any kind
    holding(g, "spy", "master_merchant")
    acts = g.legal_actions()
    assert cks.PlaySpy(1) not in acts and cks.PlayMasterMerchant(1) not in acts
    before = g.state()
    with pytest.raises(IllegalActionError, match="CK-PC-16"):
        g.play(cks.PlaySpy(1))
    with pytest.raises(IllegalActionError, match="CK-PC-20"):
        g.play(cks.PlayMasterMerchant(1))
    assert g.state() == before
    deal(g, 1, ore=1)
    st(g)["hands"][1].append(next(d for d in st(g)["decks"] if "bishop" in d).pop(
        next(d for d in st(g)["decks"] if "bishop" in d).index("bishop")))
    assert cks.PlaySpy(1) in g.legal_actions() and cks.PlayMasterMerchant(1) in g.legal_actions()
    g.play(cks.PlaySpy(1))
    assert g.phase is cks.SPY

"""Seafarers, the rest of RULES.md section 16 as positions: SF-2 (coast), SF-4 (treasure), SF-6/SF-7
(founding ships), SF-13 (scenario data), SF-15/SF-16 (Great Catan), SF-17 (Road Building with ships
only), the shipped scenario files and the 5-6 player sea maps."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import networkx as nx
import pytest
from helpers import deal, empty_hands
from invariants import Checker

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot
from catan_nb.board import BOARDS_DIR
from catan_nb.errors import BoardFileError, IllegalActionError
from catan_nb.rules import BuildRoad, BuildSettlement, EndTurn, MoveRobber, Phase, PlayRoadBuilding, RollDice, Rules
from catan_nb.rules.modules.development import ROAD_BUILDING
from catan_nb.rules.modules.fog import FOG_ISLANDS
from catan_nb.rules.modules.gold_fields import GOLD_PICK, PickGold
from catan_nb.rules.modules.great_catan import (GREAT_CATAN, MOVE_TOKEN, SUPPLY_SIZE, MoveNumberToken, main_hexes,
                                                small_hexes, token_sources)
from catan_nb.rules.modules.seafarers import ISLANDS, BuildShip, island_vp, random_islands
from catan_nb.rules.modules.treasure import DEFAULT_TREASURE, TreasureKind, treasure_spots

FOG = Board.load(FOG_ISLANDS)


def _fog_anywhere() -> Board:
    """The fog map with founding next to fog allowed (``scenario.founding_in_fog`` left out)."""
    data = FOG.to_dict()
    data["scenario"].pop("founding_in_fog", None)
    return Board.from_dict(data, source="fog map, founding next to fog")


#: The fog map where the founding may stand next to fog (the shipped map founds on known land: SF-3 PROPOSAL).
FOG_ANYWHERE = _fog_anywhere()
GREAT = Board.load(GREAT_CATAN)
HARBOURS = BOARDS_DIR / "seafarers_harbours.json"


def to_main(g: Game, *, inland: bool = True) -> Game:
    """Play the founding (settlements on intersections of three land hexes when ``inland``), then
    roll a 2 and answer whatever it asks until seat 0 is in its main phase; empty the hands."""
    t = g.topology
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        acts = g.legal_actions()
        if g.phase is Phase.FOUNDING_SETTLEMENT:
            best = max(len(t.node_hexes[a.node]) for a in acts) if inland else 0
            g.play(next(a for a in acts if len(t.node_hexes[a.node]) >= best))
        else:
            g.play(next(a for a in acts if isinstance(a, BuildRoad)))
    g.play(RollDice(dice=(1, 1)))
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    empty_hands(g)
    return g


# ---------------------------------------------------------------------------------------- SF-2
def test_sf2_roads_follow_the_coast_and_settlements_stand_where_land_meets_sea():
    """SF-2: a coastal path (land on one side, sea on the other) takes a road or a ship; a settlement
    may stand on an intersection touching the sea, in the founding and after."""
    board = Board.load(ISLANDS)
    g = Game(board, players=3, seed=4, rules=Rules.for_board(board))
    t = g.topology
    coastal = [a.node for a in g.legal_actions() if t.node_sea[a.node]]
    assert coastal  # SF-2: founding on the coast
    v = coastal[0]
    g.play(BuildSettlement(v))
    coast_paths = [e for e in t.node_edges[v] if t.edge_land[e] and t.edge_sea[e]]
    assert coast_paths
    legal = g.legal_actions()
    for e in coast_paths:  # SF-2 roads follow the coast; SF-6 ships too
        assert BuildRoad(e) in legal and BuildShip(e) in legal


# ------------------------------------------------------------------------------ SF-6, SF-7 founding ships
def test_sf7_a_founding_ship_leaves_the_settlement_just_placed():
    """SF-6 (placed like roads) and SF-7 (a route starts at the player's building): in the founding a
    ship may replace the road, on a sea path at the settlement just placed, and nowhere else."""
    board = Board.load(ISLANDS)
    g = Game(board, players=3, seed=4, rules=Rules.for_board(board))
    t = g.topology
    v = next(a.node for a in g.legal_actions() if t.node_sea[a.node])
    g.play(BuildSettlement(v))
    ships = [a for a in g.legal_actions() if isinstance(a, BuildShip)]
    assert ships and all(v in t.edge_nodes[a.path] and t.edge_sea[a.path] for a in ships)
    far = next(e for e in range(t.n_edges) if t.edge_sea[e] and v not in t.edge_nodes[e])
    before = g.state()
    with pytest.raises(IllegalActionError, match="B-SETUP-17"):  # placed like a founding road (SF-6)
        g.play(BuildShip(far))
    inland = [e for e in t.node_edges[v] if not t.edge_sea[e]]
    for e in inland:
        with pytest.raises(IllegalActionError, match="SF-6: path .* borders no sea"):
            g.play(BuildShip(e))
    assert g.state() == before  # nothing half-applied
    g.play(ships[0])
    assert g.piece_on(ships[0].path) == (0, "ship") and g.phase is Phase.FOUNDING_SETTLEMENT
    assert g.current_player == 1  # the founding passes on
    assert g.pieces_left(0)["ship"] == 14 and g.pieces_left(0)["road"] == 15


def test_sf2_sf6_b_setup_17_each_founding_refusal_names_its_own_rule():
    """Issue 24 item 9: a founding road on a sea path next to the settlement just placed touches it, so
    B-SETUP-17 is not the reason: a road needs land (SF-2), a ship may go there (SF-6).  Every other
    founding refusal names its own rule too, and leaves the game as it was."""
    board = Board.load(ISLANDS)
    g = Game(board, players=3, seed=1, rules=Rules(modules=("seafarers",)))
    t = g.topology
    at_sea = next(x for x in range(t.n_nodes) if not t.node_land[x])
    before = g.state()
    with pytest.raises(IllegalActionError, match="SF-2: intersection .* touches no land"):
        g.play(BuildSettlement(at_sea))
    assert g.state() == before
    v = next(a.node for a in g.legal_actions()
             if any(t.edge_sea[e] and not t.edge_land[e] for e in t.node_edges[a.node]))
    g.play(BuildSettlement(v))
    sea = next(e for e in t.node_edges[v] if t.edge_sea[e] and not t.edge_land[e])
    before = g.state()
    with pytest.raises(IllegalActionError, match=r"SF-2: path .* borders only sea: a road needs land; build a ship"):
        g.play(BuildRoad(sea))
    far = next(e for e in range(t.n_edges) if t.edge_land[e] and v not in t.edge_nodes[e])
    with pytest.raises(IllegalActionError, match="B-SETUP-17: a founding road must touch"):
        g.play(BuildRoad(far))
    for bad in (-1, t.n_edges):
        with pytest.raises(IllegalActionError, match="B-BOARD-3"):
            g.play(BuildRoad(bad))
    assert g.state() == before
    g.play(BuildShip(sea))  # the right piece for that path
    assert g.piece_on(sea) == (0, "ship")
    w = next(a.node for a in g.legal_actions())
    g.play(BuildSettlement(w))
    with pytest.raises(IllegalActionError, match="B-BUILD-3: path .* already holds a ship of seat 0"):
        g.play(BuildShip(sea))
    with pytest.raises(IllegalActionError, match="B-BUILD-3: path .* already holds a ship of seat 0"):
        g.play(BuildRoad(sea))


def test_sf7_founding_ships_play_whole_games():
    """SF-7: games whose founding uses ships end, with the invariants after every action."""
    board = Board.load(ISLANDS)
    for seed in range(2):
        g = Game(board, players=3, seed=seed, rules=Rules.for_board(board))
        bots = [RandomBot(seed=seed * 3 + q) for q in range(3)]
        check = Checker(g)
        while not g.is_over and g.turn < 2000:
            acts = g.legal_actions()
            ships = [a for a in acts if isinstance(a, BuildShip)]
            g.play(ships[0] if g.phase is Phase.FOUNDING_ROAD and ships else bots[g.current_player].choose(g))
            check()
        assert g.is_over
        assert Game.from_json(g.to_json()).state() == g.state()


# ---------------------------------------------------------------------------------------- SF-17
def _fill_roads(g: Game, p: int) -> None:
    """Place ``p``'s remaining roads along free land paths joined to its network (a test position)."""
    t = g.topology
    while g.pieces_left(p)["road"]:
        e = next(e for e in g.candidates(p, "road"))
        g.place(p, "road", e)
    assert not g.pieces_left(p)["road"] and t.n_edges


def test_sf17_road_building_with_no_road_left_places_ships():
    """SF-17: with Seafarers the card's two free pieces may be ships, so a player with no road left
    (B-COMP-12) but a ship spot may still play it."""
    g = to_main(Game(Board.load(ISLANDS), players=3, seed=3, rules=Rules(modules=("seafarers",))), inland=False)
    _fill_roads(g, 0)
    g.dev[0][1] += 1  # a Road Building card held since an earlier turn
    g.deck[1] -= 1
    assert g.candidates(0, "ship") and PlayRoadBuilding() in g.legal_actions()
    g.play(PlayRoadBuilding())
    legal = g.legal_actions()
    assert g.phase is ROAD_BUILDING and not any(isinstance(a, BuildRoad) for a in legal)
    g.play(next(a for a in legal if isinstance(a, BuildShip)))
    g.play(next(a for a in g.legal_actions() if isinstance(a, BuildShip)))
    assert g.phase is Phase.MAIN and g.pieces_left(0)["ship"] == 13


def test_sf17_without_seafarers_no_road_means_no_road_building():
    """B-COMP-12 still holds in the base game: no road in supply, no Road Building."""
    g = to_main(Game(Board.beginner(), players=3, seed=3))
    _fill_roads(g, 0)
    g.dev[0][1] += 1
    g.deck[1] -= 1
    assert PlayRoadBuilding() not in g.legal_actions()
    with pytest.raises(IllegalActionError, match="B-COMP-12"):
        g.play(PlayRoadBuilding())


# ---------------------------------------------------------------------------------------- SF-4
def treasure_position(kind: TreasureKind, *, seed: int = 1):
    """Seat 0 in its main phase with a settlement next to a treasure spot and the top token ``kind``.

    Returns the game, the spot and the path from the settlement to it."""
    g = to_main(Game(FOG, players=3, seed=seed, rules=Rules.for_board(FOG)))
    t = g.topology
    for v in treasure_spots(g):
        for e in t.node_edges[v]:
            w = next(x for x in t.edge_nodes[e] if x != v)
            if g.node_owner[w] < 0 and t.node_land[w] and all(g.node_owner[x] < 0 for x in t.node_neighbours[w]):
                g.place(0, "settlement", w)  # a test position: seat 0 has settled next to the spot
                stack = g.ext["treasure"]["stack"]
                stack[stack.index(kind.value)], stack[-1] = stack[-1], stack[stack.index(kind.value)]
                return g, v, e
    raise AssertionError("no free intersection next to a treasure spot")


def fog_paid(g: Game, before: int) -> int:
    """Cards SF-3 paid for the fog hexes revealed since ``before`` reveals (1 per producing hex)."""
    from catan_nb import Terrain

    return sum(Terrain.parse(t).resource is not None for _, t, _ in g.ext["fog"]["revealed"][before:])


def test_sf4_gold_treasure_lets_the_finder_pick_two_resources():
    """SF-4 (treasure: gold) with SF-1's picks: 2 resources of the finder's choice."""
    g, v, e = treasure_position(TreasureKind.GOLD)
    deal(g, 0, wool=1, lumber=1)
    seen = len(g.ext["fog"]["revealed"])
    g.play(BuildShip(e))
    bonus = fog_paid(g, seen)  # the ship also reached the fog hex (SF-3)
    assert v not in treasure_spots(g) and g.ext["treasure"]["found"][-1] == [v, 0, "gold"]
    assert g.phase is GOLD_PICK and g.current_player == 0 and g.stack[-1].data == 2
    g.play(PickGold("ore"))
    g.play(PickGold("ore"))
    assert g.phase is Phase.MAIN and g.hands[0][4] >= 2 and sum(g.hands[0]) == 2 + bonus


def test_sf4_resources_treasure_draws_two_cards_from_the_bank():
    """SF-4 (treasure: resources): 2 cards drawn at random from the bank (seeded)."""
    g, v, e = treasure_position(TreasureKind.RESOURCES)
    deal(g, 0, brick=1, lumber=1)
    seen = len(g.ext["fog"]["revealed"])
    g.play(BuildRoad(e))  # a road reaches it as well as a ship
    assert sum(g.hands[0]) == 2 + fog_paid(g, seen)
    assert g.phase is Phase.MAIN and v not in treasure_spots(g)


def test_sf4_development_card_treasure_is_not_playable_this_turn():
    """SF-4 (treasure: a development card), B-TURN-5: drawn free, played from the next turn on."""
    g, v, e = treasure_position(TreasureKind.DEVELOPMENT_CARD)
    deck = sum(g.deck)
    deal(g, 0, wool=1, lumber=1)
    seen = len(g.ext["fog"]["revealed"])
    g.play(BuildShip(e))
    assert sum(g.deck) == deck - 1 and sum(g.dev[0]) == 1 and g.dev_new[0] == g.dev[0]
    assert sum(g.hands[0]) == fog_paid(g, seen)


def test_sf4_free_paths_treasure_places_two_roads_or_ships():
    """SF-4 (treasure: free roads or ships), SF-17: two free pieces, roads or ships."""
    g, v, e = treasure_position(TreasureKind.FREE_PATHS)
    deal(g, 0, wool=1, lumber=1)
    seen = len(g.ext["fog"]["revealed"])
    g.play(BuildShip(e))
    assert g.phase is ROAD_BUILDING and g.stack[-1].data == 2
    legal = g.legal_actions()
    assert any(isinstance(a, BuildShip) for a in legal) and any(isinstance(a, BuildRoad) for a in legal)
    g.play(next(a for a in legal if isinstance(a, BuildShip)))
    g.play(next(a for a in g.legal_actions() if isinstance(a, (BuildShip, BuildRoad))))
    assert g.phase is Phase.MAIN and sum(g.hands[0]) == fog_paid(g, seen)


def test_sf4_founding_pieces_pass_treasure_by():
    """SF-4 PROPOSAL: a founding road or ship does not claim a treasure; the next piece there does."""
    g = Game(FOG_ANYWHERE, players=3, seed=1, rules=Rules.for_board(FOG_ANYWHERE))
    t = g.topology
    for v in treasure_spots(g):
        for e in t.node_edges[v]:
            w = next(x for x in t.edge_nodes[e] if x != v)
            if BuildSettlement(w) in g.legal_actions():
                g.play(BuildSettlement(w))
                g.play(BuildRoad(e))
                assert v in treasure_spots(g) and not g.ext["treasure"]["found"]
                return
    raise AssertionError("no founding spot next to a treasure")


def test_sf4_the_treasure_stack_is_hidden_and_dealt_again_in_determinisations():
    """SF-4: nobody sees the treasure stack: a view shows how many tokens are left; a
    determinisation deals them again and shows the same."""
    g = Game(FOG, players=4, seed=2, rules=Rules.for_board(FOG))
    bots = [RandomBot(seed=q) for q in range(4)]
    check = Checker(g)
    while not g.is_over and g.turn < 300:
        g.apply(bots[g.current_player].choose(g))
        check()
        if g.turn % 20 == 0:
            v = g.view(1)
            mod = v.modules["treasure"]
            assert set(mod) == {"spots", "hidden", "found"} and mod["hidden"] == len(g.ext["treasure"]["stack"])
            twin = g.determinized(1, seed=g.turn)
            assert replace(twin.view(1), legal_actions=()) == replace(v, legal_actions=())
    found = g.ext["treasure"]["found"]
    assert len(found) + len(g.ext["treasure"]["stack"]) == len(FOG.scenario["treasure"])


def test_sf4_the_default_mix_is_data():
    """SF-4 is a GAP: without ``scenario.treasure`` the stack is DEFAULT_TREASURE (our proposal)."""
    data = json.loads(FOG_ISLANDS.read_text())
    del data["scenario"]["treasure"]
    board = Board.from_dict(data, source="no-mix.json")
    g = Game(board, players=3, seed=1, rules=Rules.for_board(board))
    assert sorted(g.ext["treasure"]["stack"]) == sorted(k.value for k in DEFAULT_TREASURE)


# ---------------------------------------------------------------------------------- SF-15, SF-16
def great_game(players: int = 4, seed: int = 1) -> Game:
    return to_main(Game(GREAT, players=players, seed=seed, rules=Rules.for_board(GREAT)))


def reach(g: Game, p: int, hx: int) -> None:
    """Seat ``p`` settles (a test position) at a corner of small-island hex ``hx`` and sails a ship
    onto one of its sides, by a played BuildShip."""
    t = g.topology
    for v in t.hex_nodes[hx]:
        if g.node_owner[v] >= 0 or any(g.node_owner[w] >= 0 for w in t.node_neighbours[v]):
            continue
        sides = [e for e in t.node_edges[v] if e in t.hex_edges[hx] and t.edge_sea[e] and g.edge_owner[e] < 0]
        if sides:
            g.place(p, "settlement", v)
            deal(g, p, wool=1, lumber=1)
            g.play(BuildShip(sides[0]))
            return
    raise AssertionError(f"no way to reach hex {hx}")


@pytest.mark.parametrize("players", [3, 4])
def test_sf15_the_first_tokens_come_from_the_supply(players):
    """SF-15: a ship reaching a token-less small-island hex gives it a token: the first 4 (3 players)
    or 5 (4 players) from the supply."""
    g = great_game(players)
    small = small_hexes(g)
    assert all(g.hex_token[h] == 0 for h in small) and len(g.ext["great_catan"]["supply"]) == SUPPLY_SIZE[players]
    supply = sorted(GREAT.scenario["great_catan"]["supply"][str(players)])
    main_tokens = sorted(g.hex_token[h] for h in main_hexes(g))
    given = []
    for hx in small[: SUPPLY_SIZE[players]]:
        reach(g, 0, hx)
        assert g.hex_token[hx] > 0 and g.phase is Phase.MAIN
        given.append(g.hex_token[hx])
    assert sorted(given) == supply and sorted(g.hex_token[h] for h in main_hexes(g)) == main_tokens


def test_sf16_then_the_active_player_moves_a_main_island_token():
    """SF-16: with the supply empty, the active player must move a token from the main island, from
    a hex where they have a building (condition 1, met here); a wrong hex is refused, unchanged."""
    g = great_game(4)
    small = small_hexes(g)
    for hx in small[:5]:
        reach(g, 0, hx)
    target = small[5]
    reach(g, 0, target)
    assert g.phase is MOVE_TOKEN and g.current_player == 0 and g.stack[-1].data == target
    sources, kept = token_sources(g, 0, target)
    assert kept == 3 and sources
    assert {a.from_hex for a in g.legal_actions()} == set(sources)
    wrong = next(h for h in main_hexes(g) if h not in sources)
    before = g.state()
    with pytest.raises(IllegalActionError, match="SF-16"):
        g.play(MoveNumberToken(wrong))
    assert g.state() == before
    src = sources[0]
    token = g.hex_token[src]
    g.play(MoveNumberToken(src))
    assert g.hex_token[src] == 0 and g.hex_token[target] == token and g.phase is Phase.MAIN
    # B-PROD-1: the moved token produces on its new hex, and no longer on the old one
    assert target in g.topology.token_hexes[token] or g.hex_token[target] == token


def _sources_brute_force(g: Game, p: int, to_hex: int) -> tuple[set[int], int]:
    """SF-16 recomputed independently from the board's networkx graph and the hexes' positions."""
    graph = g.board.graph
    main = set()
    todo = [g.board.hex_at(*GREAT.scenario["great_catan"]["main"]).id]
    land = {t.id for t in g.board.hexes if t.is_land}
    while todo:  # the main island: land hexes joined through shared intersections
        h = todo.pop()
        if h in main:
            continue
        main.add(h)
        for v in graph.nodes:
            if h in graph.nodes[v]["hexes"]:
                todo.extend(x for x in graph.nodes[v]["hexes"] if x in land and x not in main)
    corners = {h: {v for v in graph.nodes if h in graph.nodes[v]["hexes"]} for h in land}
    buildings = {v: g.building_at(v) for v in graph.nodes if g.building_at(v)}
    tokens = {h: g.hex_token[h] for h in land}
    numbered = [h for h in sorted(main) if tokens[h]]
    small = set(small_hexes(g))
    near = [h for h in land if h != to_hex and len(corners[h] & corners[to_hex]) == 2 and h in small]

    def c1(h):
        return any(buildings.get(v, (None,))[0] == p for v in corners[h])

    def c2(h):
        return all(any(tokens[x] and x != h for x in land if v in corners[x]) for v in corners[h] if v in buildings)

    def c3(h):
        return not any({tokens[h], tokens[x]} == {6, 8} for x in near)

    for k, conds in enumerate([(c1, c2, c3), (c2, c3), (c3,), ()]):
        ok = {h for h in numbered if all(c(h) for c in conds)}
        if ok:
            return ok, 3 - k
    return set(), 0


def test_sf16_sources_and_the_dropping_order_match_brute_force():
    """SF-16: the three conditions and their dropping order (first to third), checked against an
    independent recount on positions from random games, with tokens moved off on purpose to make
    the later conditions bite."""
    compared = kept_seen = 0
    seen: set[int] = set()
    for seed in range(4):
        g = Game(GREAT, players=3 + seed % 2, seed=seed, rules=Rules.for_board(GREAT))
        rng = random.Random(seed)
        while not g.is_over and g.turn < 80:
            acts = g.legal_actions()
            g.play(rng.choice(acts))
            if len(g.log) % 7 == 0:
                if rng.random() < 0.5:  # strip main-island tokens to stress condition 2
                    for h in rng.sample(main_hexes(g), 4):
                        g.set_hex(h, token=0)
                if rng.random() < 0.3:  # put a red token on a small island to stress condition 3
                    g.set_hex(rng.choice(small_hexes(g)), token=rng.choice((6, 8)))
                for p in (g.current_player,):
                    for hx in small_hexes(g):
                        got, kept = token_sources(g, p, hx)
                        want = _sources_brute_force(g, p, hx)
                        assert (set(got), kept) == want, (seed, p, hx)
                        compared += 1
                        seen.add(kept)
        kept_seen += 1
    assert compared > 200 and {3, 2} <= seen


def test_sf16_conditions_are_dropped_first_to_third():
    """SF-16: when no token meets all three conditions, the first is dropped, then the second, then
    the third; shown on a position with a single numbered hex left on the main island."""
    g = great_game(4)
    t = g.topology
    main = main_hexes(g)
    mine = {h for h in main if any(g.node_owner[v] == 0 and g.building_at(v) for v in t.hex_nodes[h])}
    theirs = next(h for h in main if h not in mine and g.hex_token[h]
                  and any(g.node_owner[v] == 1 for v in t.hex_nodes[h]))
    for h in main:
        if h != theirs:
            g.set_hex(h, token=0)
    to_hex = small_hexes(g)[0]
    g.set_hex(theirs, token=5)
    # seat 0 has no building on it: condition 1 fails; seat 1's building would keep no number: 2 fails
    assert token_sources(g, 0, to_hex) == ([theirs], 1)
    # a 6 where an 8 waits next to the small hex: the third fails too, and is dropped last
    near = next(h for h in small_hexes(g) if h != to_hex and len(set(t.hex_nodes[h]) & set(t.hex_nodes[to_hex])) == 2)
    g.set_hex(near, token=8)
    g.set_hex(theirs, token=6)
    assert token_sources(g, 0, to_hex) == ([theirs], 0)
    g.set_hex(theirs, token=0)
    assert token_sources(g, 0, to_hex) == ([], 0)  # nothing left to move: the hex stays bare


def test_sf15_sf16_great_catan_games_end_with_invariants_and_replay():
    """SF-15, SF-16 in whole games with 3 and 4 players: tokens conserved, replay identical."""
    for seed, players in ((1, 3), (2, 4)):
        g = Game(GREAT, players=players, seed=seed, rules=Rules.for_board(GREAT))
        total = sum(g.hex_token) + sum(g.ext["great_catan"]["supply"])
        bots = [RandomBot(seed=seed * 10 + q) for q in range(players)]
        check = Checker(g)
        while not g.is_over and g.turn < 3000:
            g.play(bots[g.current_player].choose(g))
            check()
            assert sum(g.hex_token) + sum(g.ext["great_catan"]["supply"]) == total  # tokens conserved
        assert g.is_over
        assert Game.from_json(g.to_json()).state() == g.state()


def test_great_catan_founds_on_the_main_island():
    """Scenario data (SF-13 GAP proposal): founding settlements stand on the main island."""
    g = Game(GREAT, players=3, seed=1, rules=Rules.for_board(GREAT))
    main = set(main_hexes(g))
    assert all(set(g.topology.node_hexes[a.node]) & main for a in g.legal_actions())
    t = g.topology  # issue 24 item 9: the refusal names the scenario's rule, not B-SETUP-17
    off = next(v for v in range(t.n_nodes) if t.node_land[v] and not set(t.node_hexes[v]) & main)
    before = g.state()
    with pytest.raises(IllegalActionError, match="SF-15: intersection .* is off the main island"):
        g.play(BuildSettlement(off))
    assert g.state() == before


# ---------------------------------------------------------------------------------------- SF-13
def test_sf13_scenario_files_bring_their_modules_targets_and_seat_counts():
    """SF-13 (GAP: our own scenarios as data): each shipped scenario names its modules, target and
    player counts; a count it is not for is refused naming the field."""
    for name, modules, target in (("seafarers_islands", ("seafarers",), 12),
                                  ("seafarers_fog", ("seafarers", "fog", "treasure"), 12),
                                  ("seafarers_harbours", ("seafarers", "harbour_master"), 14),
                                  ("seafarers_great_catan", ("great_catan",), 13)):
        board = Board.load(BOARDS_DIR / f"{name}.json")
        rules = Rules.for_board(board)
        assert rules.modules == modules
        for players in (3, 4):
            g = Game(board, players=players, seed=1, rules=rules)
            assert g.vp_target == target
        with pytest.raises(BoardFileError) as err:
            Game(board, players=5, seed=1, rules=rules)
        assert err.value.field in ("scenario.players", "players") or "great_catan" in rules.modules


def test_sf13_sf14_the_harbour_master_scenario_pays_harbour_points_on_small_islands():
    """SF-14 on the harbour scenario: harbours on the small islands; SF-13 foreign-island VP."""
    board = Board.load(HARBOURS)
    g = to_main(Game(board, players=3, seed=2, rules=Rules.for_board(board)))
    t = g.topology
    from catan_nb.rules.modules.seafarers import island_of, islands

    main = max(range(len(islands(board))), key=lambda i: len(islands(board)[i]))
    spot = next(v for v in range(t.n_nodes) if t.node_harbour[v] is not None and island_of(board, v) not in (None, main)
                and g.node_owner[v] < 0 and all(g.node_owner[w] < 0 for w in t.node_neighbours[v]))
    vp = g.vp(0)
    g.place(0, "settlement", spot)
    assert island_vp(g, 0) == 1 and g.vp(0) == vp + 1 + 1  # the settlement and SF-13's special point
    from catan_nb.rules.modules.harbour_master import harbour_points

    assert harbour_points(g, 0) >= 1  # SF-14: a settlement on a small island's harbour scores


# ------------------------------------------------------------------------------------ 5-6 players
@pytest.mark.parametrize("players", [5, 6])
def test_five_six_players_on_a_random_sea_map(players):
    """X56 with Seafarers: the random sea map around the 5-6 island plays whole games, the Special
    Building Phase listing ships too."""
    board = random_islands(7, players=players)
    g = Game(board, players=players, seed=7, rules=Rules.for_board(board))
    assert "five_six" in [m.name for m in g.modules]
    bots = [RandomBot(seed=q) for q in range(players)]
    check = Checker(g)
    ships_in_sbp = False
    while not g.is_over and g.turn < 3000:
        if g.phase.value == "special_building" and any(isinstance(a, BuildShip) for a in g.legal_actions()):
            ships_in_sbp = True
        g.play(bots[g.current_player].choose(g))
        check()
    assert g.is_over
    assert Game.from_json(g.to_json()).state() == g.state()
    with pytest.raises(BoardFileError, match="scenario.players"):
        Game(board, players=4, seed=1, rules=Rules.for_board(board))
    del ships_in_sbp  # reached or not depending on the dice; listed by the module's legal_builds hook


# ------------------------------------------------------------------------------------ bad files
def _edited(tmp_path, source, edit):
    data = json.loads(source.read_text())
    edit(data)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("edit,field", [
    (lambda d: d["nodes"].append({"hex": [5, 3], "corner": "N", "treasure": True}), "nodes.treasure"),  # no fog there
    (lambda d: d["nodes"].__setitem__(0, {**d["nodes"][0], "treasure": "yes"}), "nodes.treasure"),
    (lambda d: d["scenario"].__setitem__("treasure", ["gold", "diamonds"]), "scenario.treasure[1]"),
    (lambda d: d["scenario"].__setitem__("treasure", ["gold"]), "scenario.treasure"),
    (lambda d: d["scenario"].__setitem__("treasure", "gold"), "scenario.treasure"),
    (lambda d: d["scenario"].__setitem__("modules", ["seafarers", "dragons"]), "scenario.modules"),
])
def test_bad_treasure_data_names_the_file_and_the_field(tmp_path, edit, field):
    path = _edited(tmp_path, FOG_ISLANDS, edit)
    with pytest.raises(BoardFileError) as err:
        board = Board.load(path)
        Game(board, players=3, seed=1, rules=Rules.for_board(board) if field == "scenario.modules"
             else Rules(modules=("seafarers", "treasure")))
    assert err.value.field == field and str(path) in str(err.value)


@pytest.mark.parametrize("edit,field", [
    (lambda d: d["scenario"].pop("tokens_later"), "hexes[2].token"),   # token-less hexes need the scenario's say
    (lambda d: d["scenario"].pop("great_catan"), "scenario.great_catan"),
    (lambda d: d["scenario"]["great_catan"].__setitem__("main", [1, 1]), "scenario.great_catan.main"),  # sea
    (lambda d: d["scenario"]["great_catan"].__setitem__("main", [40, 1]), "scenario.great_catan.main"),
    (lambda d: d["scenario"]["great_catan"]["supply"].__setitem__("4", [3, 4]), "scenario.great_catan.supply.4"),
    (lambda d: d["scenario"]["great_catan"]["supply"].__setitem__("4", [3, 4, 7, 5, 9]),
     "scenario.great_catan.supply.4[2]"),
    (lambda d: d["scenario"]["great_catan"].__setitem__("supply", {}), "scenario.great_catan.supply"),
    (lambda d: d["scenario"].__setitem__("players", [4, "five"]), "scenario.players"),
])
def test_bad_great_catan_data_names_the_file_and_the_field(tmp_path, edit, field):
    path = _edited(tmp_path, GREAT_CATAN, edit)
    with pytest.raises(BoardFileError) as err:
        Game(Board.load(path), players=4, seed=1, rules=Rules(modules=("great_catan",)))
    assert err.value.field == field and str(path) in str(err.value)


def test_great_catan_needs_its_scenario():
    with pytest.raises(BoardFileError, match="scenario.great_catan"):
        Game(Board.load(ISLANDS), players=4, seed=1, rules=Rules(modules=("great_catan",)))


def test_random_sea_maps_for_every_count_have_separate_fair_islands():
    """The generator's fairness checks (B-SETUP-12's red numbers on the small islands, two resources
    per island, islands apart) for 3-6 players, seeded."""
    from catan_nb import hexgrid
    from catan_nb.rules.modules.seafarers import islands

    for players in (3, 4, 5, 6):
        for seed in range(8):
            b = random_islands(seed, players=players)
            assert b.to_dict() == random_islands(seed, players=players).to_dict()
            groups = islands(b)
            main = max(groups, key=len)
            assert len(main) == (30 if players > 4 else 19)
            axial = {t.id: hexgrid.offset_to_axial(t.row, t.col, b.rows) for t in b.hexes}
            steps = set(hexgrid.NEIGHBOUR_STEPS.values())
            small = [g for g in groups if g is not main]
            assert len(small) == (4 if players > 4 else 3)
            for grp in small:
                assert len({b.hexes[h].terrain for h in grp}) >= 2
                reds = [axial[h] for h in grp if b.hexes[h].token in (6, 8)]
                assert not any((q[0] - r[0], q[1] - r[1]) in steps for r in reds for q in reds)
            g = nx.Graph()
            g.add_nodes_from(range(len(b.hexes)))
            assert all(len(set(a) & set(c)) == 0 for i, a in enumerate(groups) for c in groups[i + 1:])


def _with_start(ships_red: list[dict]) -> dict:
    """The islands map with a beginner-style start: red and blue settled, red with starting ships."""
    data = json.loads(ISLANDS.read_text())
    data["start"] = {
        "seats": {"3": ["red", "blue", "white"]},
        "pieces": {
            "red": {"settlements": [{"hex": [4, 6], "corner": "N", "letter": "A"}, {"hex": [5, 1], "corner": "N"}],
                    "roads": [{"hex": [3, 5], "side": "E"}, {"hex": [4, 1], "side": "SW"}], "ships": ships_red},
            "blue": {"settlements": [{"hex": [4, 4], "corner": "N", "letter": "A"}, {"hex": [4, 5], "corner": "N"}],
                     "roads": [{"hex": [3, 3], "side": "E"}, {"hex": [3, 4], "side": "E"}]},
            "white": {"settlements": [{"hex": [4, 4], "corner": "SE", "letter": "A"}, {"hex": [4, 5], "corner": "SE"}],
                      "roads": [{"hex": [4, 4], "side": "E"}, {"hex": [4, 5], "side": "E"}]},
        },
    }
    return data


def test_sf6_sf7_a_scenario_may_start_with_ships():
    """SF-5..7: starting ships in a scenario file's start, on sea paths leaving the colour's settlement."""
    board = Board.from_dict(_with_start([{"hex": [3, 6], "side": "SW"}]), source="start-ships.json")
    g = Game(board, players=3, seed=1, start="beginner", rules=Rules(modules=("seafarers",)))
    e = board.path_on((3, 6), "SW")
    assert g.piece_on(e) == (0, "ship") and g.pieces_left(0)["ship"] == 14
    assert Game(board, players=3, seed=1, start="beginner").piece_on(e) == (0, "ship")  # the board's own (SF-13)
    bare = _with_start([{"hex": [3, 6], "side": "SW"}])
    del bare["scenario"]["modules"]  # a board that names no module: none with ships
    with pytest.raises(BoardFileError, match="start.pieces.red.ships"):
        Game(Board.from_dict(bare, source="start-ships.json"), players=3, seed=1, start="beginner")


@pytest.mark.parametrize("ships,field,rule", [
    ([{"hex": [4, 4], "side": "W"}], "start.pieces.red.ships[0]", "SF-6"),      # a ship on land
    ([{"hex": [1, 1], "side": "W"}], "start.pieces.red.ships[0]", "SF-7"),      # a ship out at sea, no route
    ([{"hex": [3, 6], "side": "SW"}] * 2, "start.pieces.red.ships[1]", "already"),  # two on one path
    ([{"hex": [3, 6], "side": "Q"}], "start.pieces.red.ships[0].side", ""),
])
def test_bad_starting_ships_name_the_file_and_the_field(ships, field, rule):
    with pytest.raises(BoardFileError) as err:
        Board.from_dict(_with_start(ships), source="start-ships.json")
    assert err.value.field.startswith(field) and "start-ships.json" in str(err.value) and rule in str(err.value)


def test_great_catan_and_treasure_at_the_table():
    """Issue 14 item 10 for SF-4 and SF-16: the table draws treasure stars and token-less small
    islands, and a click on a ringed main-island token moves it; the log says so."""
    from catan_nb.widgets import GameTable

    g = great_game(4)
    small = small_hexes(g)
    for hx in small[:6]:
        reach(g, 0, hx)
    assert g.phase is MOVE_TOKEN
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    layer = next(la for la in table.layers if type(la).__name__ == "GreatCatanLayer")
    waiting = table.figure.data[table._idx["great_catan:waiting"]]
    assert len(waiting.x) == len(small) - 5  # five tokens brought; the sixth hex waits for its move
    sources = table.figure.data[table._idx["great_catan:sources"]]
    assert sorted(sources.customdata) == sorted(token_sources(g, 0, small[5])[0])
    src = sources.customdata[0]
    assert table.click_layer(layer, "great_catan:sources", 0)
    assert g.phase is Phase.MAIN and g.hex_token[src] == 0 and g.hex_token[small[5]] > 0
    assert f"moved the {g.hex_token[small[5]]} of " in table.log_box.value and "on a small island" in table.log_box.value
    moved = table.figure.data[table._idx["great_catan:tokens"]]
    assert len(moved.x) == 7  # six brought, one taken away
    assert len(table.figure.data[table._idx["great_catan:waiting"]].x) == len(small) - 6
    fog_table = GameTable(Game(FOG, players=3, seed=1, rules=Rules.for_board(FOG)), seats=["human"] * 3, bot_delay=None)
    stars = fog_table.figure.data[fog_table._idx["treasure:spots"]]
    assert len(stars.x) == 6


@pytest.mark.parametrize("path", [GREAT_CATAN, FOG_ISLANDS, HARBOURS])
def test_value_bots_play_every_new_scenario_to_the_end(path):
    """Issue 14 item 10: bots play every scenario to the end (the value bot, three seats)."""
    from catan_nb.analysis import ValueBot

    board = Board.load(path)
    g = Game(board, players=3, seed=5, rules=Rules.for_board(board))
    bots = [ValueBot(seed=q) for q in range(3)]
    while not g.is_over and g.turn < 600:
        g.play(bots[g.current_player].choose(g))
    assert g.is_over and g.vp(g.winner) >= g.vp_target


def _naive_mixed(mine, edge_nodes, node_edges, blocked, kind, switch) -> int:
    """Every trail from every intersection, kind changes only at ``switch``, never through ``blocked``."""
    best = 0

    def dfs(v, used, k, n):
        nonlocal best
        best = max(best, n)
        if n and v in blocked:
            return
        for e in node_edges[v]:
            if e not in mine or e in used or (n and kind[e] != k and v not in switch):
                continue
            a, b = edge_nodes[e]
            dfs(b if a == v else a, used | {e}, kind[e], n + 1)

    for v in {x for e in mine for x in edge_nodes[e]}:
        dfs(v, frozenset(), -1, 0)
    return best


def test_sf8_mixed_trails_match_an_exhaustive_search_on_random_networks():
    """SF-8 / B-LR-1..3: the trade route search (split intersections, one-kind search) equals an
    exhaustive search over every trail on random road-and-ship networks of a real board."""
    from catan_nb.rules import longest_trail

    board = Board.load(ISLANDS)
    t = board.topology
    rng = random.Random(8)
    for _ in range(300):
        start = rng.randrange(t.n_edges)
        mine, frontier = {start}, [start]
        size = rng.randint(1, 14)
        while len(mine) < size and frontier:  # a connected random network grown from one path
            e = rng.choice(frontier)
            nxt = [f for v in t.edge_nodes[e] for f in t.node_edges[v] if f not in mine]
            if not nxt:
                frontier.remove(e)
                continue
            f = rng.choice(nxt)
            mine.add(f)
            frontier.append(f)
        kind = {e: rng.choice((3, 5)) for e in range(t.n_edges)}
        nodes = sorted({v for e in mine for v in t.edge_nodes[e]})
        switch = {v for v in nodes if rng.random() < 0.3}
        blocked = {v for v in nodes if v not in switch and rng.random() < 0.15}
        kinds = [kind[e] for e in range(t.n_edges)]
        got = longest_trail(mine, t.edge_nodes, t.node_edges, blocked, edge_kind=kinds, switch=switch)
        assert got[0] == _naive_mixed(mine, t.edge_nodes, t.node_edges, blocked, kind, switch)
        assert len(got[1]) == got[0] and set(got[1]) <= mine


# ------------------------------------------------------------------ decisions (docs/scenarios.md)
def test_decision_sf3_sf15_fog_and_token_less_hexes_are_reached_only_through_a_side():
    """DECISION (SF-3, SF-15: "reaches"): a fog hex is reached by a road or ship on one of its sides, a
    Great Catan token-less hex by a ship on one of its sides; a settlement at a corner reaches
    neither, so it may stand next to unrevealed fog (collecting nothing from it until revealed)."""
    from catan_nb import Terrain
    from catan_nb.rules.modules.fog import fog_hexes, hidden

    g = Game(FOG_ANYWHERE, players=3, seed=1, rules=Rules.for_board(FOG_ANYWHERE))
    t = g.topology
    fog = set(fog_hexes(g))
    v = next(a.node for a in g.legal_actions() if set(t.node_hexes[a.node]) & fog)
    hx = next(h for h in t.node_hexes[v] if h in fog)
    g.play(BuildSettlement(v))  # a founding settlement next to the fog
    assert hidden(g) == len(fog) and g.hex_terrain[hx] is Terrain.FOG
    side = next((e for e in t.node_edges[v] if e in t.hex_edges[hx]), None)
    acts = g.legal_actions()
    piece = BuildRoad(side) if BuildRoad(side) in acts else BuildShip(side)
    g.play(piece)  # the founding piece on its side reaches it (SF-3)
    assert g.hex_terrain[hx] is not Terrain.FOG and hidden(g) == len(fog) - 1

    h = Game(GREAT, players=3, seed=1, rules=Rules(modules=("great_catan",)))
    to_main(h, inland=False)
    t = h.topology
    small = set(small_hexes(h))
    for hx in sorted(small):  # a corner of a token-less hex and a sea path off it, not one of its sides
        corner = next((c for c in t.hex_nodes[hx] if not h.blocked[c] and h.node_owner[c] < 0 and any(
            t.edge_sea[e] and e not in t.hex_edges[hx] and h.edge_owner[e] < 0 for e in t.node_edges[c])), None)
        if corner is not None:
            break
    off = next(e for e in t.node_edges[corner] if t.edge_sea[e] and e not in t.hex_edges[hx])
    h.place(0, "ship", off)  # a route there, set up directly
    assert not h.hex_token[hx]
    deal(h, 0, brick=1, lumber=1, wool=1, grain=1)
    h.play(BuildSettlement(corner))
    assert h.node_owner[corner] == 0 and not h.hex_token[hx]  # the settlement reached nothing
    side = next(e for e in t.node_edges[corner] if e in t.hex_edges[hx] and t.edge_sea[e])
    deal(h, 0, wool=1, lumber=1)
    h.play(BuildShip(side))
    assert h.hex_token[hx] or h.phase is MOVE_TOKEN  # a ship on its side did (SF-15, SF-16)


def test_decision_sf9_an_opponents_building_between_two_ships_does_not_end_the_route():
    """DECISION (SF-9): a ship is the last of its route when one end holds neither another of the
    player's ships nor their building; an opponent's building between two of the player's ships
    does not make the ship before it a last one (it is not at an open end)."""
    from test_rules_seafarers import coastal_game

    from catan_nb.rules.modules.seafarers import movable_ships

    g = coastal_game()
    t = g.topology
    taken = {y for y in range(t.n_nodes) if g.node_owner[y] >= 0}
    near = taken | {z for y in taken for z in t.node_neighbours[y]}

    def sea_steps(y, used):
        return [e for e in t.node_edges[y] if t.edge_sea[e] and g.edge_owner[e] < 0 and e not in used]

    found = None
    for v in sorted(g.placed[g.kind_id["settlement"]][0]):
        for e1 in sea_steps(v, ()):
            w = next(y for y in t.edge_nodes[e1] if y != v)
            for e2 in sea_steps(w, (e1,)):
                x = next(y for y in t.edge_nodes[e2] if y != w)
                if x in near or not t.node_land[x] or x == v:
                    continue
                for e3 in sea_steps(x, (e1, e2)):
                    y = next(z for z in t.edge_nodes[e3] if z != x)
                    if y not in near and y not in (v, w):
                        found = (e1, e2, e3, x)
                        break
                if found:
                    break
            if found:
                break
        if found:
            break
    e1, e2, e3, x = found
    for e in (e1, e2, e3):
        g.place(0, "ship", e)
    g.place(1, "settlement", x)  # seat 1 settles between seat 0's second and third ships
    assert movable_ships(g, 0) == [e3]  # e2 is not at an open end: e3 goes on beyond x


def test_decision_sf10_the_pirate_starts_off_the_board_and_the_robber_never_enters_fog(tmp_path):
    """DECISIONS: the pirate starts off the board unless the scenario's ``pirate`` names a sea hex
    (SF-10); the robber may not go to a fog hex (SF-3: it produces nothing until revealed, B-ROB-5)."""
    from catan_nb.rules.modules.fog import fog_hexes
    from catan_nb.rules.modules.seafarers import pirate

    g = Game(FOG, players=3, seed=1)  # the board's own modules: seafarers, fog, treasure (SF-13)
    assert pirate(g) is None and "pirate" not in FOG.scenario
    data = json.loads(FOG_ISLANDS.read_text())
    data["scenario"]["pirate"] = [1, 1]
    path = tmp_path / "pirate.json"
    path.write_text(json.dumps(data))
    b = Board.load(path)
    h = Game(b, players=3, seed=1)
    assert pirate(h) == b.hex_at(1, 1).id
    g = to_main(g, inland=False)
    fog = fog_hexes(g)
    assert fog and not set(fog) & set(g.robber_targets())
    g.play(EndTurn())
    g.play(RollDice(dice=(3, 4)))
    while g.phase is Phase.DISCARD:
        g.play(g.legal_actions()[0])
    assert g.phase is Phase.MOVE_ROBBER
    assert not any(isinstance(a, MoveRobber) and a.hex in fog for a in g.legal_actions())
    before = g.state()
    with pytest.raises(IllegalActionError, match="B-ROB-5"):
        g.play(MoveRobber(fog[0]))
    assert g.state() == before

"""SF-5..9, SF-8, SF-17: ships, shipping routes and the Longest Trade Route, tested as positions
on the shipped islands scenario (boards/seafarers_islands.json, our own GAP proposal)."""

from __future__ import annotations


import pytest
from helpers import deal, empty_hands
from invariants import Checker

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, ValueBot, play_game
from catan_nb.errors import IllegalActionError
from catan_nb.rules import BuildRoad, EndTurn, Phase, PlayRoadBuilding, RollDice, Rules
from catan_nb.rules.modules.seafarers import ISLANDS, BuildShip, MoveShip, movable_ships, ship_moves

BOARD = Board.load(ISLANDS)


def coastal_game(players: int = 4) -> Game:
    """Founding done on coastal intersections; seat 0 to act in its main phase, hands empty."""
    g = Game(BOARD, players=players, seed=3, rules=Rules(modules=("seafarers",)))
    t = g.topology
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        acts = g.legal_actions()
        if g.phase is Phase.FOUNDING_SETTLEMENT:
            coast = [a for a in acts if t.node_sea[a.node]]
            g.play(coast[0] if coast else acts[0])
        else:
            g.play(acts[0])
    g.play(RollDice(dice=(1, 1)))
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    empty_hands(g)
    return g


def advance(g: Game, seat: int, phase: Phase) -> None:
    """Play on (roll, end the turn, or the first legal move of a 7) until ``seat`` is in ``phase``."""
    while not (g.current_player == seat and g.phase is phase):
        acts = g.legal_actions()
        g.play(next((a for a in acts if isinstance(a, (RollDice, EndTurn))), acts[0]))


def sea_paths_from(g: Game, v: int) -> list[int]:
    return [e for e in g.topology.node_edges[v] if g.topology.edge_sea[e] and g.edge_owner[e] < 0]


def my_coast_node(g: Game, p: int = 0) -> int:
    return next(v for v in sorted(g.placed[g.kind_id["settlement"]][p]) if sea_paths_from(g, v))


def test_sf5_a_ship_costs_wool_and_lumber_and_there_are_15():
    g = coastal_game()
    v = my_coast_node(g)
    e = sea_paths_from(g, v)[0]
    with pytest.raises(IllegalActionError, match="B-BUILD-1"):
        g.play(BuildShip(e))
    deal(g, 0, wool=1, lumber=1)
    g.play(BuildShip(e))
    assert g.piece_on(e) == (0, "ship") and sum(g.hands[0]) == 0 and g.pieces_left(0)["ship"] == 14


def test_sf6_ships_only_on_paths_that_border_the_sea():
    g = coastal_game()
    t = g.topology
    inland = next(e for e in range(t.n_edges) if t.edge_land[e] and not t.edge_sea[e] and g.edge_owner[e] < 0)
    deal(g, 0, wool=1, lumber=1)
    with pytest.raises(IllegalActionError, match="SF-6"):
        g.play(BuildShip(inland))
    assert all(t.edge_sea[a.path] for a in g.legal_actions() if isinstance(a, BuildShip))


def test_sf7_routes_start_at_a_building_and_never_join_a_road():
    g = coastal_game()
    t = g.topology
    v = my_coast_node(g)
    deal(g, 0, wool=3, lumber=3)
    e = sea_paths_from(g, v)[0]
    g.play(BuildShip(e))
    far = next(x for x in t.edge_nodes[e] if x != v)
    # the next ship continues from the ship's open end
    nxt = [f for f in sea_paths_from(g, far)]
    assert nxt and all(BuildShip(f) in g.legal_actions() for f in nxt)
    # a ship may not start at the end of one of the player's roads with no building there
    road_ends = {x for r in g.placed[g.kind_id["road"]][0] for x in t.edge_nodes[r]}
    bare = [x for x in road_ends if g.node_owner[x] < 0]
    for x in bare:
        for f in sea_paths_from(g, x):
            if not any(f in t.node_edges[y] for y in g.reach[g.kind_id["ship"]][0]):
                with pytest.raises(IllegalActionError, match="B-BUILD-4"):
                    g.play(BuildShip(f))
    # and a road never continues a ship: no BuildRoad from the ship's open end
    deal(g, 0, brick=1)
    assert not any(isinstance(a, BuildRoad) and far in t.edge_nodes[a.path] and g.node_owner[far] < 0
                   and not (set(t.node_edges[far]) & g.placed[g.kind_id["road"]][0])
                   for a in g.legal_actions())


def _brute_trail(g: Game, p: int) -> int:
    """The longest trail of roads and ships by brute force: every ordering of simple trails (SF-8)."""
    t = g.topology
    mine = [e for e, o in enumerate(g.edge_owner) if o == p]
    building = {v for v, o in enumerate(g.node_owner) if o == p and g.kinds[g.node_kind[v]].building}
    blocked = {v for v, o in enumerate(g.node_owner) if o >= 0 and o != p and g.kinds[g.node_kind[v]].blocks}
    best = 0

    def dfs(v, used, last_kind, length):
        nonlocal best
        best = max(best, length)
        if v in blocked and length:
            return
        for e in t.node_edges[v]:
            if e in used or e not in mine:
                continue
            k = g.edge_kind[e]
            if last_kind is not None and k != last_kind and v not in building:
                continue  # SF-8: kinds meet only at the player's own building
            a, b = t.edge_nodes[e]
            dfs(b if a == v else a, used | {e}, k, length + 1)

    for v in {x for e in mine for x in t.edge_nodes[e]}:
        dfs(v, frozenset(), None, 0)
    return best


@pytest.mark.parametrize("seed", range(8))
def test_sf8_the_trade_route_counts_roads_and_ships_through_a_building_brute_force(seed):
    g = Game(BOARD, players=3, seed=seed, rules=Rules(modules=("seafarers",)))
    bots = [RandomBot(seed=seed * 3 + q) for q in range(3)]
    steps = 0
    while not g.is_over and steps < 1500:
        g.apply(bots[g.current_player].choose(g))
        steps += 1
        if steps % 100 == 0:
            for p in range(3):
                assert g.longest_road(p) == _brute_trail(g, p), (seed, steps, p)


def test_sf9_move_the_last_ship_of_an_open_route_once_a_turn_not_built_this_turn():
    g = coastal_game()
    t = g.topology
    v = my_coast_node(g)
    deal(g, 0, wool=2, lumber=2)
    e1 = sea_paths_from(g, v)[0]
    g.play(BuildShip(e1))
    assert movable_ships(g, 0) == []  # built this turn
    with pytest.raises(IllegalActionError, match="SF-9"):
        g.play(MoveShip(e1, e1))
    far = next(x for x in t.edge_nodes[e1] if x != v)
    e2 = sea_paths_from(g, far)[0]
    g.play(BuildShip(e2))
    # next turn of seat 0
    g.play(EndTurn())
    while not (g.current_player == 0 and g.phase is Phase.MAIN):
        acts = g.legal_actions()
        g.play(next((a for a in acts if isinstance(a, (RollDice, EndTurn))), acts[0]))
    assert movable_ships(g, 0) == [e2]  # only the open end of the route: e1 is held by e2 and the settlement
    moves = [a for a in g.legal_actions() if isinstance(a, MoveShip)]
    assert moves and all(m.from_path == e2 for m in moves)
    with pytest.raises(IllegalActionError, match="SF-9"):
        g.play(MoveShip(e1, moves[0].to_path))
    before = g.to_json()
    for bad in (MoveShip(t.n_edges + 5, moves[0].to_path), MoveShip(-1, moves[0].to_path), MoveShip(True, 0),
                MoveShip(e2, t.n_edges), MoveShip(e2, -2)):  # found by the fuzzer: an IndexError, or -1 read as the last path
        with pytest.raises(IllegalActionError, match="B-BOARD-3|API"):
            g.play(bad)
    assert g.to_json() == before
    g.play(moves[0])
    assert g.edge_owner[e2] < 0 and g.piece_on(moves[0].to_path) == (0, "ship")
    assert not any(isinstance(a, MoveShip) for a in g.legal_actions())  # one move a turn
    with pytest.raises(IllegalActionError, match="SF-9"):
        g.play(MoveShip(moves[0].to_path, e2))


def test_sf17_road_building_places_roads_or_ships():
    g = coastal_game()
    v = my_coast_node(g)
    g.dev[0][1] += 1  # a Road Building card held since an earlier turn
    g.deck[1] -= 1
    g.play(PlayRoadBuilding())
    ships = [a for a in g.legal_actions() if isinstance(a, BuildShip)]
    roads = [a for a in g.legal_actions() if isinstance(a, BuildRoad)]
    assert ships and roads
    g.play(next(a for a in ships if a.path in sea_paths_from(g, v)))
    g.play(next(a for a in g.legal_actions() if isinstance(a, BuildRoad)))
    assert g.phase is Phase.MAIN and sum(g.hands[0]) == 0  # both free


def test_sf13_the_scenario_target_is_data():
    g = Game(BOARD, players=4, seed=1, rules=Rules(modules=("seafarers",)))
    assert g.vp_target == BOARD.scenario["vp_to_win"] == 12


@pytest.mark.parametrize("seed", range(3))
def test_seafarers_games_end_with_invariants_and_replay(seed):
    g = Game(BOARD, players=4 if seed % 2 else 3, seed=seed, rules=Rules(modules=("seafarers",)))
    bots = [ValueBot(seed=seed * 4 + q) for q in range(g.n)]
    check = Checker(g)
    check()
    while not g.is_over and g.turn < 600:
        g.play(bots[g.current_player].choose(g))
        check()
    assert g.is_over
    assert Game.from_json(g.to_json()).state() == g.state() == g.replay().state()


def test_ships_are_drawn_and_built_by_a_click_at_the_table():
    """Issue 14 item 10 (first part): ships drawn apart from roads; a click on a ringed sea path builds one."""
    from catan_nb.widgets import GameTable

    g = coastal_game()
    t = GameTable(g, seats=["human"] * 4, bot_delay=None)
    names = [d.name for d in t.figure.data]
    assert "seafarers:ship:0" in names and "seafarers:ship-targets" in names
    assert t.figure.data[t._idx["seafarers:ship:0"]].line.dash == "dot"  # roads are solid
    deal(g, 0, wool=1, lumber=1)
    t.refresh()
    targets = t.figure.data[t._idx["seafarers:ship-targets"]]
    assert len(targets.x) > 0
    layer = next(la for la in t.layers if type(la).__name__ == "ShipLayer")
    path = targets.customdata[0]
    assert t.click_layer(layer, "seafarers:ship-targets", 0)
    assert g.piece_on(path) == (0, "ship")
    assert len(t.figure.data[t._idx["seafarers:boat:0"]].x) == 1
    assert any("built a ship" in line and "path" not in line for line in t.log_lines[-2:]), t.log_lines[-3:]


def _seven_for(g: Game) -> None:
    """Seat to act rolls a 7 and settles the discards."""
    g.play(RollDice(dice=(3, 4)))
    while g.phase is Phase.DISCARD:
        g.play(g.legal_actions()[0])


def test_sf10_sf11_the_pirate_on_sea_steals_from_ship_owners_and_blockades():
    from catan_nb.rules.modules.seafarers import MovePirate, pirate, pirate_victims

    g = coastal_game()
    t = g.topology
    v = my_coast_node(g)
    deal(g, 0, wool=2, lumber=2)
    e1 = sea_paths_from(g, v)[0]
    g.play(BuildShip(e1))
    sea_hex = next(h for h in t.hexes_of_path(e1) if not t.hex_land[h]) if hasattr(t, "hexes_of_path") else \
        next(h for h in range(t.n_hexes) if not t.hex_land[h] and e1 in t.hex_edges[h])
    g.play(EndTurn())
    # seat 1 rolls a 7 and may move the pirate instead of the robber (SF-10)
    while g.current_player != 1 or g.phase is not Phase.ROLL:
        g.play(next(a for a in g.legal_actions() if isinstance(a, (RollDice, EndTurn))))
    deal(g, 0, ore=1)
    _seven_for(g)
    assert g.phase is Phase.MOVE_ROBBER and g.current_player == 1
    pirates = [a for a in g.legal_actions() if isinstance(a, MovePirate)]
    assert pirates and all(not t.hex_land[a.hex] for a in pirates)
    with pytest.raises(IllegalActionError, match="SF-10"):
        g.play(MovePirate(next(h for h in range(t.n_hexes) if t.hex_land[h])))
    assert 0 in pirate_victims(g, sea_hex)
    cards = sum(g.hands[0])
    g.play(MovePirate(sea_hex, 0))
    assert pirate(g) == sea_hex and sum(g.hands[0]) == cards - 1 and g.phase is Phase.MAIN
    assert isinstance(g.log[-1], MovePirate) and g.log[-1].stolen is not None
    # SF-11: no ship may be built on the pirate hex's edges, and ships next to it cannot move
    assert not any(isinstance(a, BuildShip) and a.path in t.hex_edges[sea_hex] for a in g.legal_actions())
    g.play(EndTurn())
    while not (g.current_player == 0 and g.phase is Phase.MAIN):
        g.play(next(a for a in g.legal_actions() if isinstance(a, (RollDice, EndTurn))))
    assert e1 not in movable_ships(g, 0)


def test_sf12_sf13_home_and_foreign_islands_and_their_points():
    from catan_nb.rules.modules.seafarers import island_of, island_vp, islands

    groups = islands(BOARD)
    assert sorted(len(x) for x in groups) == [2, 3, 3, 19]  # the main island and three small ones
    g = coastal_game()
    t = g.topology
    founded = {island_of(BOARD, v) for v in g.placed[g.kind_id["settlement"]][0]}
    home = g.ext["seafarers"]["home"][0]
    assert set(home) == founded and island_vp(g, 0) == 0  # SF-12: where one founds is home
    vp = g.vp(0)
    foreign = next(i for i in range(len(groups)) if i not in home
                   and any(island_of(BOARD, v) == i and t.node_land[v] and not g.blocked[v] for v in range(t.n_nodes)))
    spots = [v for v in range(t.n_nodes) if island_of(BOARD, v) == foreign and t.node_land[v]]
    first = next(v for v in spots if not g.blocked[v])
    g.place(0, "settlement", first)  # reached by ship (set up directly)
    assert g.ext["seafarers"]["settled"][0] == [foreign]
    assert island_vp(g, 0) == BOARD.scenario["foreign_island_vp"] == 2
    assert g.vp(0) == vp + 1 + 2
    second = next((v for v in spots if not g.blocked[v]), None)
    if second is not None:
        g.place(0, "settlement", second)  # a second settlement on the same island earns nothing more
        assert island_vp(g, 0) == 2


@pytest.mark.parametrize("seed", range(12))
def test_random_islands_are_seeded_separate_and_fair(seed):
    """Issue 14 item 9: a seeded random sea map with the base boards' fairness checks."""
    from catan_nb.rules.modules.seafarers import islands, random_islands

    b = random_islands(seed)
    assert b.to_dict() == random_islands(seed).to_dict()
    groups = islands(b)
    assert len(groups) == 4 and sorted(len(x) for x in groups)[-1] == 19  # three small islands apart from the main one
    t = b.topology
    for group in groups:
        if len(group) == 19:
            continue
        assert len({b.hexes[h].terrain for h in group}) >= 2
        reds = [h for h in group if b.hexes[h].token in (6, 8)]
        for i, h in enumerate(reds):  # no two red numbers touch
            assert not any(set(t.hex_nodes[h]) & set(t.hex_nodes[g]) for g in reds[i + 1:])
    if seed < 3:
        g = play_game(Game(b, players=3 + seed % 2, seed=seed, rules=Rules(modules=("seafarers",))),
                      [ValueBot(seed=q) for q in range(3 + seed % 2)], max_turns=500)
        assert g.is_over


def test_a_ship_moved_and_the_pirate_moved_by_clicking_at_the_table():
    """Issue 14 item 10: click a movable ship, then its new place; click a sea hex for the pirate, then the victim."""
    from catan_nb.rules.modules.seafarers import MovePirate
    from catan_nb.widgets import GameTable

    g = coastal_game()
    t = g.topology
    v = my_coast_node(g)
    deal(g, 0, wool=2, lumber=2)
    e1 = sea_paths_from(g, v)[0]
    g.play(BuildShip(e1))
    g.play(EndTurn())
    advance(g, 0, Phase.MAIN)
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    layer = next(la for la in table.layers if type(la).__name__ == "ShipLayer")
    movable = table.figure.data[table._idx["seafarers:movable"]]
    assert e1 in list(movable.customdata)
    index = list(movable.customdata).index(e1)
    assert table.click_layer(layer, "seafarers:movable", index)
    assert table.pending_choices and table.buttons["cancel_choice"].layout.display is None
    # issue 25 item 6: the ship's destinations ring on the board, and a click on one moves it
    ends = table.figure.data[table._idx["seafarers:destinations"]]
    assert sorted(ends.customdata) == sorted(a.to_path for a in table.pending_choices)
    assert "ringed destination" in table.status.value and not table.choice_buttons.children
    target = ends.customdata[0]
    assert table.click_layer(layer, "seafarers:destinations", 0)
    assert g.piece_on(target) == (0, "ship") and g.edge_owner[e1] < 0 and not table.pending_choices
    # the pirate: a 7, then a click on a sea hex and a choice of victim (or none)
    g.play(EndTurn())
    advance(g, 1, Phase.ROLL)
    g.play(RollDice(dice=(3, 4)))
    while g.phase is Phase.DISCARD:
        g.play(g.legal_actions()[0])
    table.refresh()
    seas = table.figure.data[table._idx["seafarers:pirate-targets"]]
    assert len(seas.x) > 0 and all(not t.hex_land[h] for h in seas.customdata)
    hx = seas.customdata[0]
    assert table.click_layer(layer, "seafarers:pirate-targets", 0)
    if g.phase is Phase.MOVE_ROBBER:  # several options there: pick one from the list
        table.choice_buttons.children[0].click()
    assert g.ext["seafarers"]["pirate"] == hx and isinstance(g.log[-1], MovePirate)


def test_sf9_x56_sbp_1_a_ship_built_in_the_special_building_phase_moves_in_its_owners_next_turn():
    """Issue 24 item 8 (SF-9 with X56-SBP-1): a ship built in the Special Building Phase after seat 0's
    turn belongs to that turn, so its owner (seat 1, next to play) may move it in their own turn.
    The audit's repro was ``random_islands(201, players=6)``, seed 201 (ship 232 at action 1413)."""
    from catan_nb.rules.modules.five_six import EndSpecialBuild
    from catan_nb.rules.modules.seafarers import random_islands

    g = Game(random_islands(201, players=6), players=6, seed=201, rules=Rules(modules=("seafarers",)))
    t = g.topology
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):  # coastal settlements, land roads
        acts = g.legal_actions()
        if g.phase is Phase.FOUNDING_SETTLEMENT:
            coast = [a for a in acts if sea_paths_from(g, a.node)]
            g.play(coast[0] if coast else acts[0])
        else:
            g.play(next(a for a in acts if isinstance(a, BuildRoad)))
    g.play(RollDice(dice=(2, 2)))
    empty_hands(g)
    v = my_coast_node(g, 1)
    e = sea_paths_from(g, v)[0]
    g.play(EndTurn())  # seat 0's turn ends; the Special Building Phase begins with seat 1
    assert g.phase.value == "special_build" and g.current_player == 1
    deal(g, 1, wool=1, lumber=1)
    g.play(BuildShip(e))
    while g.phase.value == "special_build":
        g.play(EndSpecialBuild())
    assert g.active_player == 1
    g.play(RollDice(dice=(2, 2)))
    assert movable_ships(g, 1) == [e]  # its route is open at the far end
    moves = [a for a in g.legal_actions() if isinstance(a, MoveShip)]
    assert moves and all(m.from_path == e for m in moves)
    g.play(moves[0])
    assert g.edge_owner[e] < 0 and g.piece_on(moves[0].to_path) == (1, "ship")
    # a ship built in one's own turn still waits for the next (SF-9)
    g.play(EndTurn())
    advance(g, 2, Phase.MAIN)
    deal(g, 2, wool=1, lumber=1)
    w = my_coast_node(g, 2)
    f = sea_paths_from(g, w)[0]
    g.play(BuildShip(f))
    assert f not in movable_ships(g, 2)
    with pytest.raises(IllegalActionError, match="SF-9"):
        g.play(MoveShip(f, next(x for x in sea_paths_from(g, w) if x != f)))


def _around(g: Game, hx: int, v: int, u: int) -> list[int]:
    """The sides of hex ``hx`` from intersection ``v`` round to ``u`` the long way (not the side v-u)."""
    t = g.topology
    sides = [e for e in t.hex_edges[hx] if set(t.edge_nodes[e]) != {v, u}]
    out, at = [], v
    while at != u:
        e = next(e for e in sides if at in t.edge_nodes[e] and e not in out)
        out.append(e)
        at = next(x for x in t.edge_nodes[e] if x != at)
    return out


def _coast_pair(g: Game, p: int = 0):
    """Put a settlement of ``p`` on a free intersection ``v`` with a coastal side ``v``-``u`` between
    land hex ``land`` and sea hex ``sea`` whose sides are all free and whose other corners hold no
    building (a test position)."""
    t = g.topology
    for v in range(t.n_nodes):
        if g.blocked[v] or g.node_owner[v] >= 0 or not t.node_land[v]:
            continue
        for e in t.node_edges[v]:
            if not (t.edge_land[e] and t.edge_sea[e]):
                continue
            u = next(x for x in t.edge_nodes[e] if x != v)
            both = [h for h in range(t.n_hexes) if e in t.hex_edges[h]]
            land = next((h for h in both if t.hex_land[h]), None)
            sea = next((h for h in both if not t.hex_land[h]), None)
            if land is None or sea is None:
                continue
            nodes = set(t.hex_nodes[land]) | set(t.hex_nodes[sea])
            if all(g.edge_owner[f] < 0 for h in (land, sea) for f in t.hex_edges[h]) and \
                    all(g.node_owner[x] < 0 and not any(g.node_owner[y] >= 0 for y in t.node_neighbours[x]) for x in nodes):
                g.place(p, "settlement", v)
                return v, u, e, land, sea
    raise AssertionError("no free coastal side")


def test_sf7_decision_a_ship_never_ends_where_the_players_road_ends_nor_a_road_where_their_ship_ends():
    """SF-7 DECISION (the strict reading, docs/scenarios.md): "a ship may never join a road directly;
    roads and ships meet only at a settlement or city".  A ship may not end at an empty intersection
    where the player's own road ends, a road not where their ship ends; listing and checking agree;
    a settlement built there joins them."""
    g = coastal_game()
    t = g.topology
    v, u, side, land, sea = _coast_pair(g)
    # a road on the coastal side v-u; ships round the sea hex from v: the last would end at u
    g.place(0, "road", side)
    ships = _around(g, sea, v, u)
    for e in ships[:-1]:
        g.place(0, "ship", e)
    last = ships[-1]
    deal(g, 0, wool=1, lumber=1)
    assert BuildShip(last) not in g.legal_actions() and last not in g.candidates(0, "ship")
    before = g.state()
    with pytest.raises(IllegalActionError, match="SF-7: a ship on path .* would meet seat 0's road at intersection"):
        g.play(BuildShip(last))
    assert g.state() == before
    # no ship may move there either (listed and checked alike): a branch ship off the route, free to move
    route_nodes = {y for e in ships[:-1] for y in t.edge_nodes[e]} - {v}
    branch = next(f for y in sorted(route_nodes) for f in t.node_edges[y] if t.edge_sea[f] and g.edge_owner[f] < 0
                  and f != last and not set(t.edge_nodes[f]) & ({u, v} | {z for z in t.node_neighbours[u]}))
    g.place(0, "ship", branch)
    assert branch in movable_ships(g, 0)
    assert not any(isinstance(a, MoveShip) and a.to_path == last for a in ship_moves(g, 0))
    with pytest.raises(IllegalActionError, match="SF-7: a ship on path .* would meet seat 0's road"):
        g.play(MoveShip(branch, last))
    # vice versa: roads round the land hex from v, the last would end where the ship on v-u ends
    h = coastal_game()
    v, u, side, land, sea = _coast_pair(h)
    h.place(0, "ship", side)
    roads = _around(h, land, v, u)
    for e in roads[:-1]:
        h.place(0, "road", e)
    deal(h, 0, brick=1, lumber=1)
    assert BuildRoad(roads[-1]) not in h.legal_actions()
    with pytest.raises(IllegalActionError, match="SF-7: a road on path .* would meet seat 0's ship"):
        h.play(BuildRoad(roads[-1]))
    # unless a settlement stands there: a road and a ship route from v meeting at a far intersection x
    k = coastal_game()
    v, x, road_route, ship_route = _meeting_routes(k)
    for e in road_route:
        k.place(0, "road", e)
    for e in ship_route[:-1]:
        k.place(0, "ship", e)
    deal(k, 0, wool=2, lumber=2, brick=1, grain=1)
    with pytest.raises(IllegalActionError, match="SF-7"):
        k.play(BuildShip(ship_route[-1]))
    from catan_nb.rules import BuildSettlement

    k.play(BuildSettlement(x))  # the building joins them (SF-7, SF-8)
    assert BuildShip(ship_route[-1]) in k.legal_actions()
    k.play(BuildShip(ship_route[-1]))
    assert k.longest_road(0) == len(road_route) + len(ship_route)  # one trade route, a loop through v and x (SF-8)


def _meeting_routes(g: Game, p: int = 0):
    """Put a settlement of ``p`` at ``v`` and find a land route and an edge-disjoint sea route from ``v``
    to an intersection ``x`` two or more paths away where a settlement may stand (a test position)."""
    from collections import deque

    t = g.topology
    near = {y for y in range(t.n_nodes) if g.node_owner[y] >= 0 or any(g.node_owner[z] >= 0 for z in t.node_neighbours[y])}

    def route(start, ok, avoid_edges, avoid_nodes):
        prev = {start: None}
        todo = deque([start])
        while todo:
            a = todo.popleft()
            for e in t.node_edges[a]:
                b = next(y for y in t.edge_nodes[e] if y != a)
                if ok[e] and g.edge_owner[e] < 0 and e not in avoid_edges and b not in prev and b not in avoid_nodes:
                    prev[b] = (a, e)
                    todo.append(b)
        return prev

    def path_to(prev, x):
        out = []
        while prev[x] is not None:
            x, e = prev[x]
            out.append(e)
        return out[::-1]

    for v in range(t.n_nodes):
        if v in near or not t.node_land[v] or not t.node_sea[v]:
            continue
        by_land = route(v, t.edge_land, set(), near)
        for x in sorted(by_land, key=lambda y: len(path_to(by_land, y))):
            if x == v or x in t.node_neighbours[v] or not t.node_land[x] or not t.node_sea[x]:
                continue
            road_route = path_to(by_land, x)
            inner = {y for e in road_route for y in t.edge_nodes[e]} - {v, x}
            by_sea = route(v, t.edge_sea, set(road_route), near | inner)
            if x in by_sea and len(road_route) <= 4:
                g.place(p, "settlement", v)
                return v, x, road_route, path_to(by_sea, x)
    raise AssertionError("no meeting routes")


def _blockaded_ship_path(g: Game, p: int) -> tuple[int, int]:
    """A path where ``p`` may build a ship now, and a sea hex it borders (to put the pirate on)."""
    t = g.topology
    for e in g.candidates(p, "ship"):
        for h in range(t.n_hexes):
            if not t.hex_land[h] and e in t.hex_edges[h]:
                return e, h
    raise AssertionError("no ship path next to a sea hex")


def _refused_sf11(g: Game, action) -> None:
    before = g.state()
    with pytest.raises(IllegalActionError, match="SF-11") as info:
        g.play(action)
    assert "pirate" in str(info.value) and str(action.path) in str(info.value)
    assert g.state() == before


def test_sf11_no_ship_is_built_on_the_pirate_hex_edges_in_main_road_building_and_special_building():
    """Issue 24 item 2 (SF-11): ``legal_actions`` left the pirate hex's edges out, but ``play`` accepted a
    ship there in the main phase, in Road Building and in the Special Building Phase (X56-SBP-2)."""
    g = coastal_game()
    e, hx = _blockaded_ship_path(g, 0)
    g.ext["seafarers"]["pirate"] = hx
    deal(g, 0, wool=1, lumber=1)
    assert BuildShip(e) not in g.legal_actions()
    _refused_sf11(g, BuildShip(e))  # the main phase
    g.dev[0][1] += 1  # a Road Building card held since an earlier turn
    g.deck[1] -= 1
    g.play(PlayRoadBuilding())
    assert g.phase is Phase.ROAD_BUILDING and BuildShip(e) not in g.legal_actions()
    _refused_sf11(g, BuildShip(e))  # Road Building (SF-17)
    # the Special Building Phase: 5 players on a random sea map
    from catan_nb.rules.modules.seafarers import random_islands

    g = Game(random_islands(7, players=5), players=5, seed=7, rules=Rules(modules=("seafarers",)))
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        acts = g.legal_actions()
        g.play(next((a for a in acts if isinstance(a, BuildShip)), acts[0]))
    advance(g, g.current_player, Phase.MAIN)
    g.play(EndTurn())
    assert g.phase is Phase.SPECIAL_BUILD
    q = g.current_player
    e, hx = _blockaded_ship_path(g, q)
    g.ext["seafarers"]["pirate"] = hx
    deal(g, q, wool=1, lumber=1)
    assert BuildShip(e) not in g.legal_actions()
    _refused_sf11(g, BuildShip(e))
    g.ext["seafarers"]["pirate"] = None
    g.play(BuildShip(e))  # the same ship, the pirate gone

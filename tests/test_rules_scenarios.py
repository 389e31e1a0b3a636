"""The Corsica and New York scenarios and the Erie Canal (RULES.md section 15) as positions on our
proposal boards (SC-13 is a GAP: ``boards/corsica.json``, ``boards/new_york.json``)."""

from __future__ import annotations

import json
from collections import deque

import pytest
from helpers import deal, empty_hands
from invariants import Checker

from catan_nb import Board, Game, Resource
from catan_nb.errors import BoardFileError, IllegalActionError
from catan_nb.rules import BuildRoad, BuildSettlement, EndTurn, MoveRobber, Phase, RollDice, Rules
from catan_nb.rules.modules import corsica_new_york as cny
from catan_nb.rules.modules import erie_canal as erie

CORSICA, NEW_YORK = Board.load(cny.CORSICA), Board.load(cny.NEW_YORK)


def founded(board: Board, players: int = 4, seed: int = 1) -> Game:
    """The scenario after a founding by the first legal choices; seat 0 in its main phase, hands empty."""
    g = Game(board, players=players, seed=seed, rules=Rules.for_board(board))
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        g.play(g.legal_actions()[0])
    g.play(RollDice(dice=(1, 1)))
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    empty_hands(g)
    return g


def road_path(g: Game, start: int, goal, *, through=(), player: int = 0) -> list[int]:
    """The free paths marked for roads on a way from ``start`` to the first node with ``goal(v)``
    (along ``player``'s roads or free ones), through no locality (except those in ``through``)."""
    d = cny.scenario_data(g.board)
    t = g.topology
    places = cny.localities(g)
    prev = {start: None}
    q = deque([start])
    while q:
        v = q.popleft()
        if v != start and goal(v):
            out = []
            while prev[v] is not None:
                out.append(prev[v][1])
                v = prev[v][0]
            return [e for e in out[::-1] if g.edge_owner[e] < 0]
        if v != start and v in places and v not in through and g.node_owner[v] != player:
            continue  # never through an empty locality (SC-7) or an opponent's
        for e in t.node_edges[v]:
            if not d.road_ok[e] or g.edge_owner[e] not in (-1, player):
                continue
            w = next(x for x in t.edge_nodes[e] if x != v)
            if w not in prev:
                prev[w] = (v, e)
                q.append(w)
    raise LookupError("no path")


# ------------------------------------------------------------------------------ the boards
@pytest.mark.parametrize("board,vp,canal", [(CORSICA, 11, 0), (NEW_YORK, 9, 5)])
def test_sc_1_3_4_13_the_boards_carry_every_mark(board, vp, canal):
    """SC-1: the scenario's own board and no harbours; SC-13 (GAP, our proposals): locality spaces,
    marked road paths, red paths with rates, VP
    intersections (SC-3: 11 on Corsica, 9 on New York), links (SC-9), the robber's spot (SC-4)."""
    d = cny.scenario_data(board)
    assert len(d.vp_nodes) == vp and len(d.canal) == canal and len(d.localities) >= 12
    assert d.red and all(r[0] in (2, 3) for r in d.red.values()) and sum(d.road_ok) > 30
    assert any(board.graph.nodes[v].get("links") for v in d.localities)
    assert board.hexes[board.robber_start].terrain.value == "desert"
    assert not board.harbours  # red paths instead (SC-8)
    g = Game(board, players=4, seed=1, rules=Rules.for_board(board))
    assert g.robber == board.robber_start and g.phase is Phase.FOUNDING_SETTLEMENT  # SC-4


def test_sc_2_the_other_side_is_data():
    """SC-2 (GAP): our proposal for the other side is the same map with other numbers. Decision A-30."""
    b = cny.with_side(CORSICA, "B")
    assert [h.token for h in b.hexes] != [h.token for h in CORSICA.hexes]
    assert sorted(h.token for h in b.hexes if h.token) == sorted(h.token for h in CORSICA.hexes if h.token)
    assert cny.scenario_data(b).localities == cny.scenario_data(CORSICA).localities
    with pytest.raises(BoardFileError, match="scenario.sides"):
        cny.with_side(CORSICA, "C")


@pytest.mark.parametrize("players,target,tokens", [(3, 13, 11), (4, 12, 11), (5, 10, 0), (6, 10, 0)])
def test_sc_3_11_12_tokens_and_targets_by_player_count(players, target, tokens):
    """SC-3: tokens on every VP intersection with 3-4 players; SC-11: none with 5-6; SC-12: 13/12/10."""
    g = Game(CORSICA, players=players, seed=1, rules=Rules.for_board(CORSICA))
    assert g.vp_target == target and len(g.ext[cny.NAME]["tokens"]) == tokens


# ------------------------------------------------------------------------------ placement
def test_sc_5_settlements_only_on_localities():
    """SC-5: founding and later, settlements stand only on locality spaces. Decision A-30."""
    g = Game(CORSICA, players=4, seed=1, rules=Rules.for_board(CORSICA))
    places = cny.localities(g)
    assert {a.node for a in g.legal_actions()} <= places
    off = next(v for v in g.board.land_nodes if v not in places and g.blocked[v] == 0)
    with pytest.raises(IllegalActionError, match="SC-5"):
        g.play(BuildSettlement(off))
    vp_node = cny.scenario_data(CORSICA).vp_nodes[0]
    with pytest.raises(IllegalActionError, match="SC-5"):
        g.play(BuildSettlement(vp_node))  # holds its token with 4 players


def test_sc_11_vp_intersections_are_localities_with_five_or_six():
    """SC-11 (DECISION): with 5-6 players VP intersections are ordinary locality spaces. Decision A-29."""
    g = Game(CORSICA, players=5, seed=1, rules=Rules.for_board(CORSICA))
    vp_nodes = set(cny.scenario_data(CORSICA).vp_nodes)
    assert vp_nodes & {a.node for a in g.legal_actions()}
    g.play(BuildSettlement(min(vp_nodes & {a.node for a in g.legal_actions()})))
    assert g.phase is Phase.FOUNDING_ROAD


def test_sc_6_roads_only_on_marked_paths():
    """SC-6: roads only on paths marked with a rectangle, in the founding too."""
    g = Game(CORSICA, players=4, seed=1, rules=Rules.for_board(CORSICA))
    g.play(g.legal_actions()[0])
    d = cny.scenario_data(CORSICA)
    v = g.stack[-1].data
    assert all(d.road_ok[a.path] for a in g.legal_actions())
    unmarked = [e for e in g.topology.node_edges[v] if not d.road_ok[e]]
    if unmarked:
        with pytest.raises(IllegalActionError, match="SC-6"):
            g.play(BuildRoad(unmarked[0]))
    g = founded(CORSICA)
    deal(g, 0, lumber=1, brick=1)
    t = g.topology
    bad, lead = next((e, f) for e in range(t.n_edges) if not d.road_ok[e] and t.edge_land[e] and g.edge_owner[e] < 0
                     for v in t.edge_nodes[e] if g.node_owner[v] < 0
                     for f in t.node_edges[v] if d.road_ok[f] and g.edge_owner[f] < 0)
    g.place(0, "road", lead)  # a road of seat 0 leading to the unmarked path
    with pytest.raises(IllegalActionError, match="SC-6"):
        g.play(BuildRoad(bad))


def test_sc_7_no_road_on_from_an_empty_locality():
    """SC-7: a road that reaches an empty locality goes on from it only once a settlement stands there."""
    g = founded(CORSICA)
    places = cny.localities(g)
    way = None
    for home in sorted(g.placed[g.kind_id["settlement"]][0]):
        try:
            way = road_path(g, home, lambda v: v in places and g.blocked[v] == 0)
            break
        except LookupError:
            continue
    for e in way:
        g.place(0, "road", e)
    target = next(v for v in g.topology.edge_nodes[way[-1]] if v in places)
    d = cny.scenario_data(g.board)
    onward = [e for e in g.topology.node_edges[target] if d.road_ok[e] and g.edge_owner[e] < 0]
    deal(g, 0, lumber=3, brick=3, wool=1, grain=1)
    with pytest.raises(IllegalActionError, match="SC-7"):
        g.play(BuildRoad(onward[0]))
    assert BuildRoad(onward[0]) not in g.legal_actions()
    g.play(BuildSettlement(target))
    g.play(BuildRoad(onward[0]))
    assert g.edge_owner[onward[0]] == 0


def test_sc_7_an_opponents_building_at_the_other_end_does_not_open_the_way():
    """SC-7 with B-BUILD-5: a path between an empty locality reached by the player's road and an
    opponent's building is not a continuation from either end."""
    g = founded(CORSICA)
    d = cny.scenario_data(g.board)
    t = g.topology
    places = cny.localities(g)
    for e in range(t.n_edges):  # a marked path: empty locality at one end, a free intersection at the other
        if not d.road_ok[e] or g.edge_owner[e] >= 0:
            continue
        a, b = t.edge_nodes[e]
        for loc, far in ((a, b), (b, a)):
            if loc in places and g.node_owner[loc] < 0 and far not in places and g.node_owner[far] < 0 \
                    and g.blocked[far] == 0:
                lead = next((f for f in t.node_edges[loc] if f != e and d.road_ok[f] and g.edge_owner[f] < 0), None)
                theirs = next((f for f in t.node_edges[far] if f != e and g.edge_owner[f] < 0), None)
                if lead is None or theirs is None:
                    continue
                g.place(0, "road", lead)  # seat 0 reaches the empty locality
                g.place(0, "road", theirs)  # and touches the far end too ...
                g.place(1, "settlement", far)  # ... where an opponent now stands
                assert e not in g.candidates(0, "road")
                deal(g, 0, lumber=1, brick=1)
                with pytest.raises(IllegalActionError, match="SC-7|B-BUILD"):
                    g.play(BuildRoad(e))
                return
    pytest.skip("no such path on this board")


# ------------------------------------------------------------------------------ what roads earn
def test_sc_8_a_red_path_gives_its_rate_for_the_rest_of_the_game():
    """SC-8: a road on a red path: 3:1, or 2:1 for the resource shown, for the rest of the game."""
    g = founded(CORSICA)
    d = cny.scenario_data(g.board)
    e, (ratio, res) = next((e, r) for e, r in sorted(d.red.items()) if r[1] is not None and g.edge_owner[e] < 0
                           and g.maritime_rate(0, Resource(r[1])) > 2)
    good = Resource(res)
    other = next(q for q in range(1, 4) if g.maritime_rate(q, good) > 2)
    before = g.maritime_rate(other, good)
    g.place(0, "road", e)
    assert g.maritime_rate(0, good) == 2 and g.maritime_rate(other, good) == before
    g.play(EndTurn())
    assert g.maritime_rate(0, good) == 2  # the rest of the game
    generic = next((e for e, r in d.red.items() if r[1] is None and g.edge_owner[e] < 0), None)
    if generic is not None:
        g.place(0, "road", generic)
        assert all(g.maritime_rate(0, r) <= 3 for r in Resource)


def test_sc_9_a_linked_locality_collects_and_can_be_robbed_there():
    """SC-9: a settlement collects from the hexes linked to its locality, touched or not."""
    g = founded(CORSICA)
    d = cny.scenario_data(g.board)
    v = next(x for x in sorted(d.localities) if g.board.graph.nodes[x].get("links") and g.blocked[x] == 0)
    h = g.board.graph.nodes[v]["links"][0]
    assert h not in g.board.graph.nodes[v]["hexes"] and h in g.topology.node_hexes[v]
    g.place(1, "settlement", v)
    tok = g.hex_token[h]
    g.play(EndTurn())
    before = g.hands[1][g.hex_terrain[h].resource.value]
    g.play(RollDice(dice=(tok - min(tok - 1, 6), min(tok - 1, 6))))
    if g.robber != h:
        assert g.hands[1][g.hex_terrain[h].resource.value] >= before + 1
    assert 1 in g.hex_players(h)  # and so a robber there can rob it


def test_sc_10_the_first_road_to_a_vp_intersection_takes_its_token():
    """SC-10: the first player to reach a VP intersection with a road takes its token (1 VP)."""
    g = founded(CORSICA)
    vp_nodes = set(cny.scenario_data(g.board).vp_nodes)
    places = cny.localities(g)
    free = [v for v, o in g.ext[cny.NAME]["tokens"] if o is None]
    for home in sorted(g.placed[g.kind_id["settlement"]][0]):
        for goal in free:
            try:
                way = road_path(g, home, lambda v, goal=goal: v == goal, through=places)
            except LookupError:
                continue
            start = set(g.topology.edge_nodes[way[-1]]) - {goal}
            if not (start & places and g.node_owner[next(iter(start))] < 0):  # SC-7 aside
                break
        else:
            continue
        break
    for e in way[:-1]:
        g.place(0, "road", e)
    vp = g.vp(0)
    deal(g, 0, lumber=1, brick=1)
    g.play(BuildRoad(way[-1]))
    node = next(v for v in g.topology.edge_nodes[way[-1]] if v in vp_nodes)
    taken = [r for r in g.ext[cny.NAME]["tokens"] if r[1] is not None]
    assert any(r[1] is not None for r in taken)  # founding roads reach tokens too
    assert g.vp(0) == vp + 1 and [node, 0] in g.ext[cny.NAME]["tokens"]
    Checker(g)()


# ------------------------------------------------------------------------------ the Erie Canal
def test_erie_1_3_the_supply_and_the_new_york_board_only():
    """ERIE-1: 12 canal tokens in a supply, on the New York board only (its canal localities);
    ERIE-3: none won in the founding."""
    g = founded(NEW_YORK)
    st = g.ext[erie.NAME]
    assert st["supply"] == 12 and st["tokens"] == [0] * 4
    with pytest.raises(BoardFileError, match="ERIE"):
        Game(CORSICA, players=4, seed=1, rules=Rules(modules=("corsica_new_york", "erie_canal")))


def _canal_link(g: Game):
    d = cny.scenario_data(g.board)
    for a in sorted(d.canal):
        try:
            way = road_path(g, a, lambda v: v in d.canal and v != a)
        except LookupError:
            continue
        return a, way
    raise LookupError("no canal link")


def test_erie_2_6_linking_two_canal_localities_earns_one_token_once():
    """ERIE-2: roads directly linking two canal localities (through no other locality, whoever
    owns them) earn 1 token; ERIE-6: once per pair and player, none once the supply is empty. Decision A-31."""
    g = founded(NEW_YORK)
    a, way = _canal_link(g)
    for e in way[:-1]:
        g.place(0, "road", e)
    deal(g, 0, lumber=1, brick=1)
    g.play(BuildRoad(way[-1]))
    st = g.ext[erie.NAME]
    assert st["tokens"][0] == 1 and st["supply"] == 11 and len(st["earned"][0]) == 1
    assert (min(a, st["earned"][0][0][1]), ) and erie.linked_pairs(g, 0)
    g.place(0, "road", next(e for e in range(g.topology.n_edges) if g.edge_owner[e] < 0
                            and cny.scenario_data(g.board).road_ok[e] and set(g.topology.edge_nodes[e]) & g.road_nodes[0]))
    assert st["tokens"][0] == 1  # the same pair pays once
    st["supply"] = 0
    h = founded(NEW_YORK)
    h.ext[erie.NAME]["supply"] = 0
    a, way = _canal_link(h)
    for e in way:
        h.place(1, "road", e)
    assert h.ext[erie.NAME]["tokens"][1] == 0


def test_erie_4_a_token_played_gives_two_for_one_for_the_turn():
    """ERIE-4: a played token names a resource, 2:1 for any bank card this turn; then back to the supply."""
    g = founded(NEW_YORK)
    st = g.ext[erie.NAME]
    st["tokens"][0], st["supply"] = 1, 11
    before = g.maritime_rate(0, Resource.ORE)
    g.play(erie.PlayCanal(Resource.ORE))
    assert g.maritime_rate(0, Resource.ORE) == 2 and st["tokens"][0] == 0
    with pytest.raises(IllegalActionError, match="ERIE-4"):
        g.play(erie.PlayCanal(Resource.ORE))
    g.play(EndTurn())
    assert g.maritime_rate(0, Resource.ORE) == before > 2 and st["supply"] == 12


def test_erie_5_6_tokens_trade_like_resources_but_are_not_cards():
    """ERIE-5: tokens are traded between players; ERIE-6: never discarded, stolen or monopolised
    (they are not in the hand). Decision A-31."""
    g = founded(NEW_YORK)
    st = g.ext[erie.NAME]
    st["tokens"][0], st["supply"] = 2, 10
    deal(g, 1, grain=1)
    g.play(erie.OfferCanal(1, 1, (0, 0, 0, 1, 0)))
    assert g.phase is erie.CANAL_ANSWER and g.current_player == 1
    g.play(erie.AnswerCanal(True))
    assert st["tokens"] == [1, 1, 0, 0] and g.hands[0][Resource.GRAIN.value] == 1
    with pytest.raises(IllegalActionError, match="ERIE-5"):
        g.play(erie.OfferCanal(2, -1, (1, 0, 0, 0, 0)))  # seat 2 has none
    assert sum(g.hands[0]) == 1  # the token is not a card: a 7 or a thief cannot reach it


def test_erie_7_the_canal_localities_are_board_data():
    """ERIE-7 (GAP): the localities next to the canal are those the board marks ``canal``."""
    d = cny.scenario_data(NEW_YORK)
    assert d.canal and all(d.kinds[v] == "canal" for v in d.canal)


# ------------------------------------------------------------------------------ bad files
@pytest.mark.parametrize("edit,field", [
    (lambda d: d["nodes"].append({"hex": [9, 9], "corner": "N", "locality": "town"}), "nodes["),
    (lambda d: d["nodes"][0].update(links=[[8, 1]]), "nodes[0].links[0]"),
    (lambda d: d["paths"][0].update(red=True), "paths[0].rate"),
])
def test_bad_scenario_files_name_the_file_and_the_field(edit, field, tmp_path):
    """A settlement space off the graph, a link to a missing hex, a red path without a rate."""
    data = json.loads(cny.CORSICA.read_text())
    edit(data)
    path = tmp_path / "corsica-bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardFileError) as err:
        Board.load(path)
    assert err.value.field.startswith(field) and "corsica-bad.json" in str(err.value)


@pytest.mark.parametrize("board,players", [(b, n) for b in (CORSICA, NEW_YORK) for n in (3, 4, 5, 6)])
def test_value_bots_play_the_scenarios_to_the_end(board, players):
    """Bots play both scenarios for 3-6 players to the end; save/load and replay identical."""
    from catan_nb.analysis import ValueBot

    g = Game(board, players=players, seed=players, rules=Rules.for_board(board))
    bots = [ValueBot(seed=q) for q in range(players)]
    check = Checker(g)
    while not g.is_over and g.turn < 800:
        g.play(bots[g.current_player].choose(g))
        check()
    assert g.is_over and g.vp(g.winner) >= g.vp_target
    assert Game.from_json(g.to_json()).state() == g.state()


def test_the_table_draws_the_scenario_and_keeps_the_canal_score():
    """Issue 16 item 4: localities, canal localities, road paths, red paths with their rates, VP
    intersections with their tokens and links are drawn; canal tokens are on the scoreboard and
    played or offered from the table's list of moves."""
    from catan_nb.widgets import GameTable
    from catan_nb.widgets.table import describe

    g = founded(NEW_YORK)
    t = GameTable(g, seats=["human"] * 4, bot_delay=None)
    d = cny.scenario_data(NEW_YORK)
    data = {tr.name: tr for tr in t.figure.data}
    assert len(data["corsica_new_york:localities"].x) + len(data["corsica_new_york:canal"].x) == len(d.localities)
    assert len(data["corsica_new_york:rates"].text) == len(d.red) and "2:1" in " ".join(data["corsica_new_york:rates"].text)
    assert len(data["corsica_new_york:vp"].x) == len(d.vp_nodes)
    assert [x for x in data["corsica_new_york:links"].x if x is None]  # a dotted link per linked locality
    panel = next(p for p in t.panels if type(p).__name__ == "ScenarioPanel")
    assert "canal tokens" in panel.html.value and "12 tokens in the supply" in panel.html.value
    g.ext[erie.NAME]["tokens"][0], g.ext[erie.NAME]["supply"] = 1, 11
    t.refresh()
    plays = [a for a in t.special_actions() if isinstance(a, erie.PlayCanal)]
    assert len(plays) == 5 and "canal token" in describe(plays[0], g)
    t.special.value = erie.PlayCanal(Resource.ORE)
    t.press("special")
    assert "played a canal token" in t.log_box.value and "in play" in panel.html.value
    # ERIE-5 at the table: seat 0 has no token left; seat 1 gives one for a grain
    g.ext[erie.NAME]["tokens"][1] = 1
    g.ext[erie.NAME]["supply"] -= 1
    deal(g, 0, grain=1)
    t.refresh()
    assert not any(isinstance(a, erie.OfferCanal) for a in t.special_actions())  # the panel's own form
    panel.partner.value, panel.direction.value, panel.card.value = 1, -1, Resource.GRAIN.value
    t.press("canal_offer")
    assert g.phase is erie.CANAL_ANSWER and panel.answer_row.layout.display is None
    assert "offers 1 grain for 1 canal token" in panel.answer_note.value
    t.press("canal_accept")
    assert g.ext[erie.NAME]["tokens"][:2] == [1, 0] and g.hands[1][Resource.GRAIN.value] >= 1
    assert "accepted the canal trade" in t.log_box.value


def test_erie_2_linked_pairs_match_networkx_on_random_networks():
    """ERIE-2 cross-checked: the pairs a player's roads link, through no other locality, equal
    networkx's connectivity on the board graph restricted to those roads with every other locality
    cut out, over 300 random road networks (20 marked paths near the canal, some localities settled
    by others)."""
    import random

    import networkx as nx

    d = cny.scenario_data(NEW_YORK)
    t = NEW_YORK.topology
    near = sorted({e for c in d.canal for v in [c] + list(t.node_neighbours[c])
                   for w in [v] + list(t.node_neighbours[v]) for e in t.node_edges[w] if d.road_ok[e]})
    rng = random.Random(5)
    found = 0
    for trial in range(300):
        g = Game(NEW_YORK, players=4, seed=trial, rules=Rules.for_board(NEW_YORK))
        mine = rng.sample(near, 20)
        for e in mine:
            g.place(0, "road", e)
        places = cny.localities(g)
        sub = nx.Graph([g.board.path_nodes(e) for e in mine])
        want = set()
        for a in sorted(d.canal):
            for b in sorted(d.canal):
                if a < b and a in sub and b in sub:
                    inner = sub.subgraph([v for v in sub if v in (a, b) or v not in places])
                    if nx.has_path(inner, a, b):
                        want.add((a, b))
        assert erie.linked_pairs(g, 0) == want, trial
        found += bool(want)
    assert found > 20  # the networks do link canal localities


def test_erie_3_a_link_made_in_the_founding_never_pays():
    """ERIE-3 (with ERIE-6): two canal localities linked by founding roads earn nothing, then or
    later (a constructed position: the roads are placed as founding pieces)."""
    g = Game(NEW_YORK, players=4, seed=1, rules=Rules.for_board(NEW_YORK))
    a, way = _canal_link(g)
    for e in way:
        g.place(0, "road", e, founding=True)
    pair = sorted(erie.linked_pairs(g, 0))[0]
    st = g.ext[erie.NAME]
    assert st["tokens"][0] == 0 and list(pair) in st["earned"][0]
    spare = next(e for e in range(g.topology.n_edges) if g.edge_owner[e] < 0 and
                 cny.scenario_data(NEW_YORK).road_ok[e] and set(g.topology.edge_nodes[e]) & g.road_nodes[0])
    g.place(0, "road", spare)
    assert st["tokens"][0] == 0 and st["supply"] == 12


# ------------------------------------------------------------------ decisions (docs/scenarios.md)
def test_decision_sc_10_a_founding_road_takes_the_vp_token_it_reaches():
    """DECISION (SC-10, "the first player to reach a VP intersection with a road"): a founding road
    is a road, so one that reaches a VP intersection takes its Catan token (1 VP)."""
    g = Game(CORSICA, players=4, seed=1, rules=Rules.for_board(CORSICA))
    d = cny.scenario_data(CORSICA)
    t = g.topology
    vp_nodes = set(d.vp_nodes)
    v, e = next((a.node, e) for a in g.legal_actions() for e in t.node_edges[a.node]
                 if d.road_ok[e] and set(t.edge_nodes[e]) & vp_nodes)
    x = next(y for y in t.edge_nodes[e] if y in vp_nodes)
    g.play(BuildSettlement(v))
    assert BuildRoad(e) in g.legal_actions()
    g.play(BuildRoad(e))
    assert [x, 0] in g.ext[cny.NAME]["tokens"] and g.vp(0) == 2  # the settlement and the token


def test_decision_sc_9_the_robber_on_a_linked_hex_robs_a_locality_only_linked_to_it():
    """DECISION (SC-9: a locality collects from the hexes linked to it): the robber on a linked hex
    blocks it and may steal from a player whose only building there is linked, not touching."""
    g = founded(CORSICA)
    t = g.topology
    d = cny.scenario_data(g.board)
    v, h = next((x, hx) for x in sorted(d.localities) if g.board.graph.nodes[x].get("links") and not g.blocked[x]
                for hx in g.board.graph.nodes[x]["links"])
    assert h not in g.board.graph.nodes[v]["hexes"] and not any(h in t.node_hexes[y] for y in t.node_neighbours[v]
                                                                  if g.node_owner[y] == 1)
    g.place(1, "settlement", v)
    assert not any(g.node_owner[y] == 1 and y != v for y in t.hex_nodes[h])  # seat 1 is only linked to h
    g.play(EndTurn())
    g.play(RollDice(dice=(1, 2)))  # seat 1's turn: a 3
    g.play(EndTurn())
    empty_hands(g)
    deal(g, 1, ore=1)
    g.play(RollDice(dice=(3, 4)))  # seat 2 rolls a 7
    while g.phase is Phase.DISCARD:
        g.play(g.legal_actions()[0])
    if g.robber == h:
        pytest.skip("the robber stands on the linked hex already")
    assert MoveRobber(h, 1) in g.legal_actions()
    ore = g.hands[2][Resource.ORE.value]
    g.play(MoveRobber(h, 1))
    assert sum(g.hands[1]) == 0 and g.hands[2][Resource.ORE.value] == ore + 1


# ------------------------------------------------------------------ a game nobody can win (issue 24 item 13)
def test_sc_13_new_york_has_room_for_six():
    """SC-13 (GAP, our proposal map): New York holds 27 locality spaces, all two paths apart so that
    every one of them can hold a settlement, and 36 with 5-6 players (SC-11: VP intersections too)."""
    d = cny.scenario_data(NEW_YORK)
    t = NEW_YORK.topology
    assert len(d.localities) == 27
    assert not any(w in d.localities for v in d.localities for w in t.node_neighbours[v])
    g = Game(NEW_YORK, players=6, seed=1, rules=Rules.for_board(NEW_YORK))
    assert len(cny.localities(g)) == 36


def test_sc_13_decision_a_game_nobody_can_win_ends_with_the_leader_winning():
    """DECISION (docs/scenarios.md, ``cny.STALL_RULE``): when a turn would begin and no player can
    reach the target any more, the game ends and the player with the most VP wins.  The audit's
    repro: the 24-locality New York map, 6 players, seed 128, ``RandomBot(1280 + q)``: every
    locality taken or cut off, the deck empty, the best at 9 of 10 VP; it ran to 20,000 turns."""
    from pathlib import Path

    from catan_nb.analysis import RandomBot

    board = Board.load(Path(__file__).parent / "fixtures" / "new_york_24_localities.json")
    g = Game(board, players=6, seed=128, rules=Rules(modules=("corsica_new_york", "erie_canal")))
    assert cny.best_vp(g, 0) is None and cny.can_reach_target(g)  # cards to draw: anything may happen
    bots = [RandomBot(1280 + q) for q in range(6)]
    while not g.is_over and g.turn < 2000:
        g.apply(bots[g.current_player].choose(g))
    assert g.is_over and g.ext[cny.NAME]["stalled"]
    assert not any(g.deck) and not cny.can_reach_target(g)
    assert all(cny.best_vp(g, p) < g.vp_target for p in range(6))
    vps = [g.vp(p) for p in range(6)]
    assert max(vps) < g.vp_target and g.vp(g.winner) == max(vps)
    assert g.legal_actions() == []
    Checker(g)()
    assert g.replay().state() == g.state() and Game.from_json(g.to_json()).winner == g.winner

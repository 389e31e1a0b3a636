"""The engine as a platform for rule modules (issue 11).

* Modules use only the public API: no private member of ``Game`` is touched outside
  the engine's own files, ``catan_nb/rules/game.py`` and its parts ``game_*.py`` (an AST scan of the
  package and the tests).
* No branch on a module or variant name in the core (an AST scan for module names as strings).
* A small complete example module (``catan_nb.examples.shearing``) adds a new good, a piece kind,
  a decision, actions, a yield and a VP target, and plays random games to the end with every
  invariant holding, through copies, saves and replays.
* Saves written before the change still load and replay to the same position.
* Boards are graph first: sea hexes, paths between sea hexes, node and path attributes from the
  file, links to hexes an intersection does not touch (SC-9), hex state held by the game.
* Longest trails over several path kinds switch kind only at the player's buildings (SF-8),
  checked against an independent brute force.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from invariants import Checker

from catan_nb.examples import shearing as example_module
from catan_nb.examples.shearing import LOOM, BuildLoom, Textile, TakeFleece

from catan_nb import Board, Game, Terrain, hexgrid
from catan_nb.analysis import RandomBot
from catan_nb.constants import DevCard, Resource
from catan_nb.rules import Phase, Rules, RollDice, longest_trail
from catan_nb.rules.game_codec import SAVE_VERSION
from catan_nb.rules.longest_road import longest_trail_from
from catan_nb.rules.modules import BUILTIN, MODULES, resolve

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "catan_nb"
FIXTURES = Path(__file__).parent / "fixtures"


# ---------------------------------------------------------------- the public API only
#: The engine: ``Game`` in game.py and the parts mixed into it (issue 28 item 3).
ENGINE = [PACKAGE / "rules" / "game.py", *sorted((PACKAGE / "rules").glob("game_*.py"))]


def _game_members() -> set[str]:
    g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("friends", "helpers")))
    names = set(vars(g)) | {n for cls in Game.__mro__ for n in vars(cls)}
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_no_private_game_member_is_used_outside_the_engine():
    """Issue 11: modules, analysis, widgets and tests use the documented public API of Game."""
    private = _game_members()
    allowed = {*ENGINE, *(PACKAGE / "dicegame").glob("*.py")}  # the Dice Game is its own engine
    offenders = []
    for path in [*PACKAGE.rglob("*.py"), *Path(__file__).parent.rglob("*.py")]:
        if path in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in private:
                base = node.value
                if isinstance(base, ast.Name) and base.id in ("self", "cls") or node.attr.endswith("_"):
                    continue
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert not offenders, offenders


CORE = [*ENGINE, *(PACKAGE / "rules" / n for n in ("phase.py", "pieces.py", "actions.py", "longest_road.py"))]
CORE += [PACKAGE / "board.py", PACKAGE / "rules" / "modules" / "__init__.py"]


def _module_name_uses(tree: ast.AST, names: set[str]) -> list[tuple[int, str]]:
    """Comparisons with a module name (``== "friends"``, ``in ("five_six", ...)``) and ``ext["name"]``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                elts = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
                for e in elts:
                    if isinstance(e, ast.Constant) and e.value in names:
                        out.append((node.lineno, f"compares with {e.value!r}"))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "ext":
            if isinstance(node.slice, ast.Constant) and node.slice.value in names:
                out.append((node.lineno, f"ext[{node.slice.value!r}]"))
    return out


def test_no_branch_on_a_module_name_in_the_core():
    """Issue 11: the core never branches on a rule module (no `if "friends" in ...`, no `ext["helpers"]`)."""
    names = set(MODULES)
    found = [f"{path.name}:{line} {what}" for path in CORE
             for line, what in _module_name_uses(ast.parse(path.read_text(encoding="utf-8")), names)]
    assert not found, found


def test_the_base_game_is_made_of_replaceable_builtin_modules():
    assert {"production", "robber", "trade", "development"} <= set(BUILTIN)
    assert resolve((), 4)[: len(BUILTIN)] == tuple(BUILTIN)
    assert "five_six" in resolve((), 5)  # X56-GEN-1 through the module's own declaration


def _vp_on_roll_module(name: str, declared):
    """A test module whose hooks give the active player 10 VP on a roll of 8, declaring ``declared``."""
    from catan_nb.rules.modules import Module, register

    class VpOnRoll(Module):
        vp_actions = declared

        def init(self, game):
            game.ext[name] = {"bonus": [0] * game.n}

        def on_roll(self, game, total):
            if total == 8:
                game.ext[name]["bonus"][game.active_player] += 10

        def vp(self, game, player, visible):
            return game.ext[name]["bonus"][player]

    VpOnRoll.name = name
    register(VpOnRoll)
    return VpOnRoll


@pytest.mark.parametrize("declared, wins_at_once", [(None, True), ((RollDice,), True), ((), False)])
def test_B_END_3_win_checked_after_every_action_a_module_may_change_VP_in(declared, wins_at_once):
    """A module that does not declare ``vp_actions`` keeps the win check after every action; one that
    declares the roll gets it after the roll; the declaration is what the engine goes by."""
    name = f"test_vp_on_roll_{0 if declared is None else len(declared) + 1}"
    _vp_on_roll_module(name, declared)
    try:
        g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=(name,)))
        g.apply(RollDice((3, 5)))
        assert g.is_over is wins_at_once and g.vp(0) >= g.vp_target
    finally:
        MODULES.pop(name)


def test_vp_actions_must_be_action_classes():
    with pytest.raises(TypeError, match="vp_actions"):
        _vp_on_roll_module("test_bad_vp_actions", ("RollDice",))
    assert "test_bad_vp_actions" not in MODULES


# ---------------------------------------------------------------- the example module
def test_example_module_extends_goods_pieces_and_decisions():
    g = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=(example_module.NAME,)))
    assert g.goods[-1] is Textile.YARN and len(g.hands[0]) == 6 and g.bank[5] == 12
    assert g.vp_target == 11 and "loom" in g.pieces_left(0) and g.cost("loom") == (1, 0, 2, 0, 0, 0)
    # Yields: a settlement on pasture collects cloth beside wool (the module's yields hook).
    pasture = next(t for t in g.board.hexes if t.terrain is Terrain.PASTURE and t.token and
                   any(g.node_owner[v] >= 0 for v in g.board.hex_intersections(t.id)))
    roll = (1, pasture.token - 1) if pasture.token <= 7 else (6, pasture.token - 6)
    before = list(g.bank)
    g.play(RollDice(roll))
    assert g.bank[5] < before[5]
    # A loom: built by the checked path, counted for VP as a piece kind.
    p = g.current_player
    g.deal(p, {Resource.WOOL: 2, Resource.LUMBER: 1})
    site = g.candidates(p, "loom")[0]
    vp = g.vp(p)
    g.play(BuildLoom(site))
    assert g.piece_at(site) == (p, "loom") and g.vp(p) == vp + LOOM.vp
    assert g.copy().state() == g.state()


def test_example_module_decision_on_the_stack():
    g = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=(example_module.NAME,)))
    for p in range(g.n):  # everyone gets a loom by the public API
        g.place(p, "loom", g.candidates(p, "loom")[0])
    g.play(RollDice((1, 1)))
    assert g.phase is Phase.FLEECE_CHOICE and [d.player for d in reversed(g.stack)][:4] == [0, 1, 2, 3]
    for _ in range(4):
        g.play(TakeFleece(Resource.ORE))
    assert g.phase is Phase.MAIN


@pytest.mark.parametrize("seed", range(6))
def test_example_module_random_games_keep_invariants(seed):
    rng = random.Random(seed)
    g = Game(Board.random(seed=seed), seed=seed, rules=Rules(modules=(example_module.NAME,)))
    bots = [RandomBot(rng.random(), offers=seed % 2 == 0) for _ in range(g.n)]
    check = Checker(g)
    while not g.is_over and g.turn < 1500:
        a = bots[g.current_player].choose(g)
        (g.play if seed % 2 else g.apply)(a)
        check()
        assert g.bank[5] + sum(h[5] for h in g.hands) == 12  # yarn is conserved
        looms = [sum(1 for v, o in enumerate(g.node_owner) if o == p and g.node_kind[v] == g.kind_id["loom"])
                 for p in range(g.n)]
        assert all(k <= LOOM.limit for k in looms)
    assert g.is_over
    assert g.replay().state() == g.state()


# ---------------------------------------------------------------- saves from before the change
SAVES = sorted((FIXTURES / "saves_v0").glob("*.json"))
SAVES = [p for p in SAVES if not p.name.endswith(".facts.json")]


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_saves_from_before_the_platform_still_load(path):
    """Issue 11: saved games written by the engine before the change replay to the same position."""
    g = Game.load(path)
    facts = json.loads(path.with_name(path.stem + ".facts.json").read_text())
    assert g.winner == facts["winner"] and g.turn == facts["turn"] and len(g.log) == facts["actions"]
    assert g.phase.value == facts["phase"] and g.current_player == facts["current"]
    assert [g.vp(p) for p in range(g.n)] == facts["vp"]
    assert [list(h) for h in g.hands] == facts["hands"] and list(g.bank) == facts["bank"]
    assert g.longest_road_holder == facts["longest_road_holder"]
    assert g.largest_army_holder == facts["largest_army_holder"]
    assert g.road_lengths() == facts["road_lengths"] and list(g.deck) == facts["deck"]
    assert {str(v): [o, g.node_kind[v]] for v, o in enumerate(g.node_owner) if o >= 0} == facts["buildings"]
    assert {str(e): o for e, o in enumerate(g.edge_owner) if o >= 0} == facts["roads"]


# ---------------------------------------------------------------- saves of format version 1
SAVES_V1 = sorted(p for p in (FIXTURES / "saves_v1").glob("*.json") if not p.name.endswith(".facts.json"))


@pytest.mark.parametrize("path", SAVES_V1, ids=lambda p: p.stem)
def test_saves_of_version_1_still_load_with_their_digest(path):
    """Issue 28 item 2: the development cards moved into ``ext`` (save format 2); a save written
    before (version 1, its digest over the game's own deck, hands and knights) still loads, its
    digest checked the old way, and the cards read through the accessors are those it held."""
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["digest"]
    g = Game.load(path)
    facts = json.loads(path.with_name(path.stem + ".facts.json").read_text())
    assert g.digest(version=1) == facts["digest"] and len(g.log) == facts["actions"]
    assert [[g.dev_cards(p)[c] for c in DevCard] for p in range(g.n)] == facts["dev"]
    assert [[g.dev_cards(p, new=True)[c] for c in DevCard] for p in range(g.n)] == facts["dev_new"]
    assert [g.knights_played(p) for p in range(g.n)] == facts["knights"]
    assert g.largest_army_holder == facts["largest_army_holder"] and list(g.deck) == facts["deck"]
    assert [g.vp(p) for p in range(g.n)] == facts["vp"] and [list(h) for h in g.hands] == facts["hands"]
    again = Game.from_json(g.to_json())  # saved again: format 2, its own digest
    assert json.loads(g.to_json())["version"] == SAVE_VERSION and again.state() == g.state()


# ---------------------------------------------------------------- graph-first boards
def island_with_sea() -> dict:
    """Three land hexes in a triangle, in a frame of sea, with file attributes on nodes and paths."""
    rows = [3, 4, 3]
    land = {(1, 2): ("forest", 6), (2, 2): ("hills", 8), (2, 3): ("fields", 5)}
    hexes = []
    for r, n in enumerate(rows, 1):
        for c in range(1, n + 1):
            t, tok = land.get((r, c), ("sea", None))
            hexes.append({"row": r, "col": c, "terrain": t, "token": tok})
    return {
        "name": "islet", "rows": rows, "hexes": hexes, "harbours": [], "robber": [2, 2],
        "nodes": [{"hex": [3, 1], "corner": "N", "locality": "standard", "links": [[1, 2]]},
                  {"hex": [2, 2], "corner": "N", "vp": True}],
        "paths": [{"hex": [2, 2], "side": "W", "road": True, "rate": {"ratio": 2, "resource": "ore"}}],
        "scenario": {"pirate": [1, 1]},
    }


def test_sea_hexes_are_on_the_board_graph():
    data = island_with_sea()
    b = Board.from_dict(data)
    t = b.topology
    g = b.graph
    # Independent geometry: corners and sides of the land hexes, straight from hexgrid.
    land_ax = [hexgrid.offset_to_axial(h["row"], h["col"], data["rows"]) for h in data["hexes"] if h["terrain"] != "sea"]
    all_ax = [hexgrid.offset_to_axial(h["row"], h["col"], data["rows"]) for h in data["hexes"]]
    corners = {c for ax in land_ax for c in hexgrid.hex_corners(ax).values()}
    sides = [hexgrid.side_of(ax, sd) for ax in land_ax for sd in hexgrid.SIDE_NAMES]
    every_corner = {c for ax in all_ax for c in hexgrid.hex_corners(ax).values()}
    assert len(b.hexes) == 10 and sum(h.is_land for h in b.hexes) == 3
    assert len(b.land_nodes) == len(corners) == 13 and len(b.land_paths) == len(set(sides)) == 15
    assert g.number_of_nodes() == len(every_corner) > len(b.land_nodes)  # corners between sea hexes exist
    sea_only = [e for e in range(t.n_edges) if not t.edge_land[e]]
    assert sea_only and all(t.edge_sea[e] for e in sea_only)  # paths between two sea hexes
    inner = [e for e in range(t.n_edges) if t.edge_land[e] and not t.edge_sea[e]]
    assert len(inner) == len(sides) - len(set(sides)) == 3  # between two land hexes
    coast = [e for e in range(t.n_edges) if t.edge_land[e] and t.edge_sea[e]]
    assert len(coast) == 12 and all(g.edges[b.path_nodes(e)]["coastal"] for e in coast)


def test_file_attributes_and_links_reach_the_graph_and_production():
    b = Board.from_dict(island_with_sea())
    v = b.node_at((3, 1), "N")
    forest = b.hex_at(1, 2).id
    assert not set(b.graph.nodes[v]["hexes"]) & {forest}  # it does not touch the forest ...
    assert b.graph.nodes[v]["locality"] == "standard" and b.graph.nodes[v]["links"] == (forest,)
    assert forest in b.topology.node_hexes[v] and v in b.hex_intersections(forest)  # ... but collects from it (SC-9)
    assert b.graph.nodes[b.node_at((2, 2), "N")]["vp"] is True
    e = b.path_on((2, 2), "W")
    assert b.graph.edges[b.path_nodes(e)]["rate"] == {"ratio": 2, "resource": "ore"}
    assert b.scenario == {"pirate": [1, 1]}
    assert Board.from_dict(b.to_dict()) == b
    # A settlement on the linked intersection collects from the hex it does not touch.
    g = Game(b, players=3, seed=1)
    g.place(0, "settlement", v)
    assert g.produce(6) == {0: [1, 0, 0, 0, 0]}  # the linked forest


def test_hex_state_lives_in_the_game():
    b = Board.beginner()
    g = Game(b, seed=1, start="beginner")
    hx = next(t.id for t in b.hexes if t.token == 8 and any(g.node_owner[v] >= 0 for v in b.hex_intersections(t.id)))
    other = g.copy()
    g.set_hex(hx, token=3)
    assert b.hexes[hx].token == 8 and g.hex_token[hx] == 3 and other.hex_token[hx] == 8
    assert g.produce(8) != other.produce(8)  # the index follows the hex state
    g.set_hex(hx, terrain=Terrain.DESERT)
    assert g.hex_terrain[hx] is Terrain.DESERT and b.hexes[hx].terrain is not Terrain.DESERT
    assert Game(b, seed=1, start="beginner").hex_token[hx] == 8


def test_base_islands_keep_their_counts():
    assert (len(Board.beginner().land_nodes), len(Board.beginner().land_paths)) == (54, 72)
    b = Board.five_six()
    assert (len(b.land_nodes), len(b.land_paths)) == (80, 109)


# ---------------------------------------------------------------- trails over several path kinds
def _brute(edges, edge_nodes, kind, blocked, switch, starts=None) -> int:
    """Every trail (from one of ``starts``, or anywhere) by exhaustive search over sequences of distinct edges."""
    best = 0

    def walk(v, used, last_kind, length):
        nonlocal best
        best = max(best, length)
        if length and v in blocked:
            return
        for e in edges:
            if e in used or v not in edge_nodes[e]:
                continue
            if length and kind[e] != last_kind and v not in switch:
                continue
            a, b = edge_nodes[e]
            walk(b if a == v else a, used | {e}, kind[e], length + 1)

    for v in {x for e in edges for x in edge_nodes[e]} if starts is None else starts:
        walk(v, frozenset(), None, 0)
    return best


@pytest.mark.parametrize("seed", range(40))
def test_mixed_trails_match_brute_force(seed):
    """SF-8: roads and ships count together only where they meet at the player's building."""
    rng = random.Random(seed)
    board = Board.beginner()
    t = board.topology
    start = rng.randrange(t.n_edges)
    edges = {start}
    while len(edges) < rng.randint(3, 9):
        e = rng.choice(sorted(edges))
        nxt = [f for v in t.edge_nodes[e] for f in t.node_edges[v] if f not in edges]
        if nxt:
            edges.add(rng.choice(nxt))
    kind = [0] * t.n_edges
    for e in edges:
        kind[e] = rng.choice((3, 4))
    nodes = sorted({v for e in edges for v in t.edge_nodes[e]})
    switch = set(rng.sample(nodes, rng.randint(0, len(nodes))))
    free = [v for v in nodes if v not in switch]
    blocked = set(rng.sample(free, min(len(free), rng.randint(0, 2))))
    got, path = longest_trail(edges, t.edge_nodes, t.node_edges, blocked, edge_kind=kind, switch=switch)
    assert got == _brute(edges, t.edge_nodes, kind, blocked, switch)
    assert len(path) == got and len(set(path)) == got
    same = [3] * t.n_edges
    plain = longest_trail(edges, t.edge_nodes, t.node_edges, blocked)[0]
    assert longest_trail(edges, t.edge_nodes, t.node_edges, blocked, edge_kind=same, switch=())[0] == plain
    # From given starts (the engine's recount from the fresh ends of new pieces, B-LR-1, SF-8).
    for starts in ([rng.choice(nodes)], rng.sample(nodes, min(3, len(nodes))), [max(nodes) + 1000]):
        want = _brute(edges, t.edge_nodes, kind, blocked, switch, starts=starts)
        assert longest_trail_from(starts, edges, t.edge_nodes, t.node_edges, blocked, edge_kind=kind,
                                  switch=switch) == want, (sorted(edges), starts)


def test_B_LR_1_trails_from_given_ends_are_remembered_exactly():
    """B-LR-1, SF-8: ``longest_trail_from`` remembers a count by board, pieces, blocks, kinds, switch
    points and starts: the same network handed in other containers and orders gives what a count from
    scratch gives (the path too), a path handed out is the caller's own, and another board's graph is
    counted anew."""
    from catan_nb.rules import longest_road

    boards = [Board.beginner().topology, Board.random(seed=3).topology]  # the same ids, other objects
    rng = random.Random(11)
    for _ in range(120):
        t = rng.choice(boards)
        edges = {rng.randrange(t.n_edges)}
        while len(edges) < rng.randint(1, 9):
            e = rng.choice(sorted(edges))
            edges.update(rng.sample([f for v in t.edge_nodes[e] for f in t.node_edges[v]], 1))
        nodes = sorted({v for e in edges for v in t.edge_nodes[e]})
        kind = [rng.choice((3, 4)) for _ in range(t.n_edges)] if rng.random() < 0.5 else None
        switch = set(rng.sample(nodes, rng.randint(0, len(nodes)))) if kind else set()
        blocked = set(rng.sample(nodes, min(len(nodes), rng.randint(0, 2))))
        starts = rng.sample(nodes, min(len(nodes), rng.randint(1, 3)))
        want = longest_road._count_from(list(starts), set(edges), t.edge_nodes, t.node_edges, set(blocked), kind,
                                        set(switch), True)
        for pieces in (set(edges), sorted(edges), sorted(edges, reverse=True), frozenset(edges)):
            got = longest_trail_from(starts, pieces, t.edge_nodes, t.node_edges, sorted(blocked), edge_kind=kind,
                                     switch=sorted(switch), with_path=True)
            assert got == (want[0], list(want[1])), (sorted(edges), starts)
            got[1].append(-1)  # the caller's own list
            assert longest_trail_from(starts, pieces, t.edge_nodes, t.node_edges, blocked, edge_kind=kind,
                                      switch=switch) == want[0]
        # the same pieces with one block more or less, or other starts: counted for what they are
        other = blocked ^ {rng.choice(nodes)}
        again = rng.sample(nodes, min(len(nodes), 2))
        for b, s in ((other, starts), (blocked, again)):
            assert longest_trail_from(s, edges, t.edge_nodes, t.node_edges, b, edge_kind=kind, switch=switch) == \
                longest_road._count_from(list(s), set(edges), t.edge_nodes, t.node_edges, b, kind, set(switch), False)


@pytest.mark.parametrize("where", ["cities_knights", "seafarers_great_catan.json", "seafarers_fog.json"])
def test_CK_PC_4_a_token_moved_reindexes_what_a_full_reindex_gives(where):
    """CK-PC-4, SF-15, SF-3: a token moved (the Inventor's swap, Great Catan's tokens) re-indexes only which
    hexes produce on each number, a hex revealed everything: after every action of seeded value-bot
    games (and every swap offered, on a copy), what each number pays to whom is what a copy re-indexed
    from scratch pays."""
    from catan_nb.analysis import ValueBot
    from catan_nb.board import BOARDS_DIR

    if where == "cities_knights":
        g = Game(Board.random(seed=4), seed=4, rules=Rules(modules=("cities_knights",)))
    else:
        board = Board.load(BOARDS_DIR / where)
        # the fog map founds on the main island (SF-3's founding_in_fog): seed 5 reaches the fog by turn 13
        g = Game(board, seed=5 if where == "seafarers_fog.json" else 4, rules=Rules.for_board(board))
    if where == "cities_knights":  # every seat holds an Inventor from the start (CK-PC-4)
        for hand in g.ext["cities_knights"]["hands"]:
            hand.append("inventor")
    bots = [ValueBot(seed=40 + q) for q in range(g.n)]
    moved = 0

    def same_index(game):
        fresh = game.copy()  # re-indexed from scratch: a hex given its own terrain again
        fresh.set_hex(0, terrain=fresh.hex_terrain[0])
        for total in range(2, 13):  # what every number pays, to whom
            a, b = game.copy(), fresh.copy()
            if a.produce(total) != b.produce(total) or a.hands != b.hands or a.bank != b.bank:
                return False
        return True

    while not g.is_over and g.turn < 40:
        for a in g.legal_actions():
            if type(a).__name__ in ("PlayInventor", "MoveNumberToken"):  # on a copy: every swap offered
                c = g.copy()
                c.apply(a)
                moved += c.hex_token != g.hex_token
                assert same_index(c), a
        tokens = list(g.hex_token)
        g.apply(bots[g.current_player].choose(g))
        moved += g.hex_token != tokens
        assert same_index(g)
    assert moved, "no token moved"


def test_candidates_without_a_piece_match_a_copy_with_it_removed_and_refuse_bad_paths():
    """``Game.candidates(..., without=path)`` (a piece about to move: SF-9, H-CARD-9) is what a copy of
    the game with that piece removed lists; a value that is not a path id is refused by name."""
    checked = 0
    for seed in range(6):
        game = Game(Board.random(seed=seed), players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.turn < 120:
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])
            if game.turn % 10 == 0:
                for p in range(game.n):
                    for e in sorted(game.roads[p]):
                        probe = game.copy()
                        probe.remove("road", e)
                        assert game.candidates(p, "road", without=e) == probe.candidates(p, "road")
                        checked += 1
    assert checked > 200
    for bad in ("3", 3.0, True, -1, 10_000):
        with pytest.raises(ValueError, match="without"):
            game.candidates(0, "road", without=bad)

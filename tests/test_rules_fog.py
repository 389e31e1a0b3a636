"""SF-3: fog hexes, revealed by a road or ship reaching them (boards/seafarers_fog.json, our proposal)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import with_modules
from invariants import Checker

from catan_nb import Board, Game, Terrain
from catan_nb.analysis import RandomBot
from catan_nb.rules import Rules
from catan_nb.rules.modules.fog import FOG_ISLANDS, fog_hexes, hidden

#: The fog alone: the scenario's board without its treasure (which tests/test_rules_sea_scenarios.py plays).
BOARD = with_modules(Board.load(FOG_ISLANDS), "seafarers", "fog")
RULES = Rules(modules=("seafarers", "fog"))


def test_sf3_reaching_a_fog_hex_reveals_it_and_pays_the_revealer():
    g = Game(BOARD, players=3, seed=2, rules=RULES)
    bots = [RandomBot(seed=q) for q in range(3)]
    before = None
    while not g.is_over and hidden(g) == len(BOARD.scenario["fog"]):
        before = g.copy()
        g.apply(bots[g.current_player].choose(g))
    assert hidden(g) == len(BOARD.scenario["fog"]) - 1
    hx = next(h for h in fog_hexes(before) if g.hex_terrain[h] is not Terrain.FOG)
    action = g.log[-1]
    assert type(action).__name__ in ("BuildRoad", "BuildShip")
    assert hx in [h for h in range(g.topology.n_hexes) if action.path in g.topology.hex_edges[h]]
    actor = before.current_player
    r = g.hex_terrain[hx].resource
    if r is not None:  # SF-3: the revealer takes 1 of its resource, besides paying for the piece
        kind = "road" if type(action).__name__ == "BuildRoad" else "ship"
        free = before.phase.value == "road_building" or before.phase.value.startswith("founding")
        paid = 0 if free else before.cost(kind)[r.value]
        assert g.hands[actor][r.value] == before.hands[actor][r.value] - paid + 1
    assert g.hex_token[hx] > 0 or g.hex_terrain[hx] is Terrain.DESERT


def test_sf3_fog_produces_nothing_and_the_robber_cannot_go_there():
    g = Game(BOARD, players=3, seed=1, rules=RULES)
    fog = set(fog_hexes(g))
    assert fog and not fog & set(g.robber_targets())


@pytest.mark.parametrize("seed", range(3))
def test_sf3_the_hidden_stack_is_never_in_a_view_nor_in_a_determinisation(seed):
    g = Game(BOARD, players=4, seed=seed, rules=RULES)
    bots = [RandomBot(seed=seed * 4 + q) for q in range(4)]
    check = Checker(g)
    checked = 0
    while not g.is_over and g.turn < 400:
        g.apply(bots[g.current_player].choose(g))
        check()
        if g.turn % 25 == 0:
            v = g.view(0)
            assert "stack" not in str(v.modules["fog"]) and v.modules["fog"]["hidden_tiles"] == hidden(g)
            twin = g.determinized(0, seed=checked + 100)  # the fog stack dealt again
            assert replace(twin.view(0), legal_actions=()) == replace(v, legal_actions=())
            assert twin.determinized(0, seed=5).state() == g.determinized(0, seed=5).state()
            checked += 1
    assert checked
    assert Game.from_json(g.to_json()).state() == g.state() == g.replay().state()


def test_sf3_a_revealed_hex_is_drawn_with_its_terrain_and_number():
    from catan_nb.viz import dynamic_traces

    g = Game(BOARD, players=3, seed=2, rules=RULES)
    bots = [RandomBot(seed=q) for q in range(3)]
    assert all(not v["x"] for k, v in dynamic_traces(g).items() if k.startswith("fog:revealed"))
    while hidden(g) == len(BOARD.scenario["fog"]):
        g.apply(bots[g.current_player].choose(g))
    dyn = dynamic_traces(g)
    hx = next(h for h in range(g.topology.n_hexes) if g.topology.hex_terrain[h] is Terrain.FOG
              and g.hex_terrain[h] is not Terrain.FOG)
    assert dyn[f"fog:revealed:{g.hex_terrain[hx].value}"]["x"]
    if g.hex_token[hx]:
        assert any(f"<b>{g.hex_token[hx]}</b>" in t for t in dyn["fog:tokens"]["text"])


def _scenario_board(tmp_path, **changes):
    import json

    data = json.loads(FOG_ISLANDS.read_text())
    data["scenario"].update(changes)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    return Board.load(path), path


@pytest.mark.parametrize("change,field", [
    (dict(fog=[["forest", 5]]), "scenario.fog"),                      # fewer tiles than fog hexes
    (dict(fog=[["sea", None]] * 8), "scenario.fog[0]"),              # a fog tile is land
    (dict(fog=[["forest", 7]] * 8), "scenario.fog[0]"),              # no 7 token
    (dict(fog=[["desert", 5]] * 8), "scenario.fog[0]"),              # a desert carries no token
    (dict(fog="forest"), "scenario.fog"),
    (dict(pirate=[5, 5]), "scenario.pirate"),                        # the pirate on land
    (dict(pirate=[42, 1]), "scenario.pirate"),                       # not a hex
    (dict(vp_to_win="twelve"), "scenario.vp_to_win"),
])
def test_bad_scenario_data_names_the_file_and_the_field(tmp_path, change, field):
    from catan_nb.errors import BoardFileError

    board, path = _scenario_board(tmp_path, **change)
    with pytest.raises(BoardFileError) as err:
        Game(board, players=3, seed=1)  # the board's own modules (SF-13)
    assert err.value.field == field and str(path) in str(err.value)


# ------------------------------------------------------------------ founding on the known land (SF-3 PROPOSAL)
def _fog_board(founding_in_fog):
    from catan_nb import Board
    from catan_nb.rules.modules.fog import FOG_ISLANDS

    data = Board.load(FOG_ISLANDS).to_dict()
    if founding_in_fog is None:
        data["scenario"].pop("founding_in_fog", None)
    else:
        data["scenario"]["founding_in_fog"] = founding_in_fog
    return Board.from_dict(data, source="test fog board")


def test_SF_3_the_fog_map_founds_on_land_that_shows_its_tile():
    from catan_nb import Game
    from catan_nb.errors import IllegalActionError
    from catan_nb.rules import BuildSettlement, Phase

    game = Game(_fog_board(False), players=4, seed=2)
    t = game.topology
    fog_only = [v for v in range(t.n_nodes) if t.node_hexes[v]
                and all(game.hex_terrain[h].value == "fog" for h in t.node_hexes[v])]
    assert fog_only
    legal = {a.node for a in game.legal_actions() if isinstance(a, BuildSettlement)}
    assert legal and not legal & set(fog_only)
    for v in fog_only:  # listing equals checking: refused, naming the rule, nothing changed
        before = game.state()
        with pytest.raises(IllegalActionError, match="SF-3") as err:
            game.play(BuildSettlement(v))
        assert err.value.rule == "SF-3" and game.state() == before
    # after the founding, the fogged islands are settled as any island (the rule binds the founding only)
    from catan_nb.analysis.value_bot import ValueBot

    bots = [ValueBot(s) for s in range(4)]
    while game.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        game.play(bots[game.current_player].choose(game))
    assert not set(game.occupied) & set(fog_only)


def test_SF_3_a_fog_board_without_the_field_founds_next_to_fog_and_a_bad_field_is_named():
    from catan_nb import Game
    from catan_nb.errors import BoardFileError
    from catan_nb.rules import BuildSettlement

    game = Game(_fog_board(None), players=4, seed=2)
    t = game.topology
    legal = {a.node for a in game.legal_actions() if isinstance(a, BuildSettlement)}
    assert any(all(game.hex_terrain[h].value == "fog" for h in t.node_hexes[v]) for v in legal)
    with pytest.raises(BoardFileError, match="scenario.founding_in_fog"):
        Game(_fog_board("no"), players=4, seed=2)

"""Issue 25 items 3, 6, 8 and 12: the board and the action bar of the game table, through its handlers.

* item 3: a fog reveal leaves the figure's layout as it was (no legend group turning plotly.js's legend
  into a tall column, no legend inside the table's figure at all);
* item 6: a ship moves by a click on it (ringed) and a click on one of its ringed destinations; a
  path that could take a road or a ship asks "Which one?" in the action bar beside the board, and the
  status line says so; Cancel drops the choice;
* item 8: a click on a red path's rate label is a click on that path (New York);
* item 12: the status line, the dice and the turn's buttons sit together in the action bar.
"""

from __future__ import annotations

import re

from helpers import deal
from table_driver import HumanDriver

from catan_nb import Board, Game
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import BuildRoad, BuildSettlement, EndTurn, Phase, RollDice, Rules
from catan_nb.rules.modules.seafarers import ISLANDS, BuildShip, MoveShip
from catan_nb.viz import board_figure
from catan_nb.widgets import GameTable


def plain(html_text: str) -> str:
    return re.sub("<[^>]+>", "", html_text)


def _coastal_table() -> GameTable:
    """Seafarers islands, founding on the coast, seat 0 (human, the others too: hot seat) in its main phase."""
    g = Game(Board.load(ISLANDS), players=4, seed=3, rules=Rules(modules=("seafarers",)))
    t = g.topology
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        acts = g.legal_actions()
        coast = [a for a in acts if g.phase is Phase.FOUNDING_SETTLEMENT and t.node_sea[a.node]]
        g.play(coast[0] if coast else acts[0])
    g.play(RollDice(dice=(1, 1)))
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    for h in g.hands:
        for r in range(len(h)):
            g.bank[r] += h[r]
            h[r] = 0
    return GameTable(g, seats=["human"] * 4, bot_delay=None)


def test_a_fog_reveal_keeps_the_layout_of_the_figure():
    """Item 3 (SF-3): revealing a fog hex draws it, and changes nothing else in the figure's layout."""
    board = Board.load(BOARDS_DIR / "seafarers_fog.json")
    t = GameTable(board, seats=["human", "bot", "bot", "bot"], seed=5, bot_delay=None, rules=Rules.for_board(board))
    layout = t.figure.layout.to_plotly_json()
    assert layout["showlegend"] is False  # the table's legend is HTML under the board
    revealed = [i for i, tr in enumerate(t.figure.data) if tr.name.startswith("fog:revealed:")]
    assert revealed and not any(len(t.figure.data[i].x or ()) for i in revealed)
    HumanDriver(t, seed=5).play(400, until=lambda t: len(t.game.ext["fog"]["revealed"]) >= 1)
    assert t.game.ext["fog"]["revealed"], "no fog revealed"
    assert any(len(t.figure.data[i].x or ()) for i in revealed), "the revealed hex is drawn"
    after = t.figure.layout.to_plotly_json()
    after["hovermode"] = layout["hovermode"]  # a click turns hover off until the refresh that follows
    assert after == layout
    # plotly.js turns a horizontal legend into one tall column as soon as a visible trace has a legend
    # group: no trace has one, and the order is pinned for every board figure (lessons draw the legend).
    assert not any(tr.legendgroup for tr in t.figure.data)
    fig = board_figure(t.game)
    assert fig.layout.legend.traceorder == "normal" and fig.layout.legend.orientation == "h"
    assert not any(tr.legendgroup for tr in fig.data)


def test_a_ship_moves_by_a_click_on_it_then_on_a_ringed_destination():
    """Item 6 (SF-7): the ship rings, a click on it rings its destinations (only them), the status line says
    to click one; Cancel gives the board back; a click on a destination moves the ship."""
    table = _coastal_table()
    g = table.game
    v = next(v for v in sorted(g.placed[g.kind_id["settlement"]][0])
             if any(g.topology.edge_sea[e] and g.edge_owner[e] < 0 for e in g.topology.node_edges[v]))
    e1 = next(e for e in g.topology.node_edges[v] if g.topology.edge_sea[e] and g.edge_owner[e] < 0)
    deal(g, 0, wool=1, lumber=1)
    assert table.click_path(e1) or table.pending_choices
    if table.pending_choices:  # a coast: a road or a ship
        table.choice_buttons.children[[type(a) for a in table.pending_choices].index(BuildShip)].click()
    assert g.piece_on(e1) == (0, "ship")
    for _ in range(4):  # round the table back to seat 0
        table.press("end")
        table.press("roll")
        while g.phase is not Phase.MAIN:
            table.play(g.legal_actions()[0])
    layer = next(la for la in table.layers if type(la).__name__ == "ShipLayer")
    movable = table.figure.data[table._idx["seafarers:movable"]]
    ends = table.figure.data[table._idx["seafarers:destinations"]]
    assert e1 in movable.customdata and not ends.x
    assert "a ringed ship to move it" in plain(table.status.value)
    moves = sorted(a.to_path for a in g.legal_actions() if isinstance(a, MoveShip) and a.from_path == e1)
    assert table.click_layer(layer, "seafarers:movable", list(movable.customdata).index(e1))
    assert sorted(ends.customdata) == moves and list(movable.customdata) == [e1]
    assert not table.figure.data[table._idx["highlight-nodes"]].x  # nothing else is ringed meanwhile
    status = plain(table.status.value)
    assert "click a ringed destination for the ship (or Cancel)" in status, status
    # the status line says where to click; no list of buttons; Cancel beside the turn's buttons
    assert table.choice_box.layout.display == "none" and not table.choice_buttons.children
    assert table.buttons["cancel_choice"] in table.turn_bar.children
    assert table.buttons["cancel_choice"].layout.display is None
    table.press("cancel_choice")
    assert not table.pending_choices and not ends.x and table.buttons["cancel_choice"].layout.display == "none"
    assert table.click_layer(layer, "seafarers:movable", list(movable.customdata).index(e1))
    target = ends.customdata[-1]
    # a click there lands on the path under the ring as well (plotly picks either): it moves the ship too,
    # even where a new ship could be built
    deal(g, 0, wool=1, lumber=1)
    assert BuildShip(target) in g.legal_actions()
    assert table.click_path(target)
    assert g.piece_on(target) == (0, "ship") and g.edge_owner[e1] < 0 and isinstance(g.log[-1], MoveShip)
    assert not table.pending_choices and "moved a ship" in table.log_box.value


def test_a_path_for_a_road_or_a_ship_asks_which_one_beside_the_board():
    """Item 6: the choice sits in the action bar with the status line, which says to choose."""
    g = Game(Board.load(ISLANDS), players=4, seed=3, rules=Rules(modules=("seafarers",)))
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    t = g.topology

    def coastal(v):
        c = g.copy()
        c.play(BuildSettlement(v))
        return any({BuildRoad(e), BuildShip(e)} <= set(c.legal_actions()) for e in t.node_edges[v])

    v = next(a.node for a in g.legal_actions() if t.node_sea[a.node] and coastal(a.node))
    assert table.click_node(v)
    both = [e for e in t.node_edges[v] if {BuildRoad(e), BuildShip(e)} <= set(g.legal_actions())]
    assert both, "a coastal path beside the founding settlement takes a road or a ship"
    assert table.click_path(both[0])
    assert {type(a) for a in table.pending_choices} == {BuildRoad, BuildShip}
    assert table.choice_box in table.action_bar.children and table.choice_box.layout.display is None
    assert "Which one?" in table.choice_title.value
    labels = [b.description for b in table.choice_buttons.children]
    assert len(labels) == 2 and any("road" in x for x in labels) and any("ship" in x for x in labels), labels
    assert "choose which move you mean (Which one?)" in plain(table.status.value)
    # only that path stays marked on the board while the player chooses
    assert len([x for x in table.figure.data[table._idx["highlight-paths"]].x if x is not None]) == 2
    ship = table.choice_buttons.children[[type(a) for a in table.pending_choices].index(BuildShip)]
    ship.click()
    assert g.piece_on(both[0]) == (0, "ship") and not table.pending_choices


def test_a_click_on_a_red_paths_rate_is_a_click_on_the_path():
    """Item 8 (SC-8): the rate label lies over the middle of its red path; clicking it builds the road."""
    from catan_nb.rules.modules.corsica_new_york import scenario_data

    board = Board.load(BOARDS_DIR / "new_york.json")
    g = Game(board, players=4, seed=2, rules=Rules.for_board(board))
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    reds = sorted(scenario_data(board).red)
    ends = {v: e for e in reds for v in g.topology.edge_nodes[e]}
    v = next(a.node for a in g.legal_actions() if isinstance(a, BuildSettlement) and a.node in ends)
    assert table.click_node(v)
    e = ends[v]
    assert BuildRoad(e) in g.legal_actions()
    layer = next(la for la in table.layers if "corsica_new_york:rates" in la.clickable)
    rates = table.figure.data[table._idx["corsica_new_york:rates"]]
    assert list(rates.customdata) == reds
    i = reds.index(e)
    assert "red path" in rates.hovertext[i]
    other = next(j for j, f in enumerate(reds) if BuildRoad(f) not in g.legal_actions())
    assert not table.click_layer(layer, "corsica_new_york:rates", other)  # not a legal road: inert
    assert table.click_layer(layer, "corsica_new_york:rates", i)
    assert g.edge_owner[e] == 0 and not table.message
    # the labels are drawn over the pieces (no number disc covers them)
    names = [tr.name for tr in table.figure.data]
    assert names.index("corsica_new_york:rates") > names.index("hexes")


def test_the_action_bar_holds_the_status_the_dice_and_the_turns_buttons():
    """Item 12: what a turn needs is in the action bar beside the board; the rest goes to the side cards."""
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=4, start="beginner", bot_delay=None)
    bar = t.action_bar.children
    for w in (t.status, t.turn_bar, t.robber_row, t.choice_box, t.discard_panel, t.response_row, t.special_row,
              t.module_bar):
        assert w in bar
    assert t.dice_box in t.turn_bar.children and t.turn_row in t.turn_bar.children
    side = t.widget.children[-1].children[2].children
    for w in (t.trade_panel, t.hand_box, t.cost_box, t.scoreboard, t.log_box):
        assert w in side
    t.press("roll")
    assert t.buttons["end"].layout.display is None or t.game.phase is not Phase.MAIN


def test_module_decisions_go_to_the_action_bar():
    """Item 12: a gold pick, the improvement buttons and a canal answer are beside the board; Cities &
    Knights' track card stays with the side cards."""
    from catan_nb.rules.modules.gold_fields import gold_board

    gold = GameTable(gold_board(Board.beginner(), 4, 10), seats=["human"] * 4, seed=1, bot_delay=None,
                     rules=Rules(modules=("gold_fields",)))
    assert [c for c in gold.module_bar.children] and "catan-gold-ore" in gold.module_bar.children[0].children[1].children[4]._dom_classes
    ck = GameTable(Board.beginner(), seats=["human"] * 4, seed=1, bot_delay=None, rules=Rules(modules=("cities_knights",)))
    assert any("catan-improve" in w._dom_classes for w in ck.module_bar.children)
    assert ck.modules_vbox.children and not any("catan-improve" in w._dom_classes for w in ck.modules_vbox.children)
    ny = Board.load(BOARDS_DIR / "new_york.json")
    erie = GameTable(ny, seats=["human"] * 4, seed=1, bot_delay=None, rules=Rules.for_board(ny))
    assert any(erie.buttons["canal_accept"] in getattr(w, "children", ()) for w in erie.module_bar.children)
    assert EndTurn  # (the turn's own buttons are the table's)


def test_the_log_says_the_rate_a_red_path_gave():
    """Item 8 (SC-8): a road on a red path: the log says the bank rate its builder now has."""
    from catan_nb.rules.modules.corsica_new_york import scenario_data

    board = Board.load(BOARDS_DIR / "new_york.json")
    g = Game(board, players=4, seed=2, rules=Rules.for_board(board))
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    d = scenario_data(board)
    ends = {v: e for e in sorted(d.red) for v in g.topology.edge_nodes[e]}
    v = next(a.node for a in g.legal_actions() if isinstance(a, BuildSettlement) and a.node in ends)
    table.click_node(v)
    table.click_path(ends[v])
    ratio, res = d.red[ends[v]]
    what = "any resource" if res is None else str(g.goods[res])
    assert f"Red now trades {what} {ratio}:1 with the bank (red path, SC-8)" in plain(table.log_box.value)


def test_hover_texts_follow_a_revealed_hex():
    """Item 3 (SF-3): after a reveal the hover of the hex and of its intersections names what is there."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "browser"))
    import positions

    g, path = positions.fog()
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    hexes = table.figure.data[table._idx["hexes"]]
    n = len(g.ext["fog"]["revealed"])
    table.click_path(path)
    if table.pending_choices:
        table.choice_buttons.children[[type(a) for a in table.pending_choices].index(BuildShip)].click()
    hx, terrain, _ = g.ext["fog"]["revealed"][n]
    assert str(terrain) in hexes.hovertext[hx] and "fog" not in hexes.hovertext[hx].split("<br>")[0]
    nodes = table.figure.data[table._idx["intersections"]]
    v = g.topology.hex_nodes[hx][0]
    assert str(terrain) in nodes.hovertext[v]
    assert "fog" not in board_figure(g).data[table._idx["hexes"]].hovertext[hx].split("<br>")[0]


def _points(*inds):
    from plotly.callbacks import Points

    return Points(point_inds=list(inds), xs=[], ys=[], trace_name="hex-area", trace_index=0)


def test_a_click_anywhere_on_a_hex_moves_the_robber_there():
    """Issue 37 item 4 (B-ROB-3): the hex-area points (six per hex, half-way to its corners) are each nearer their
    own hex's centre than any other's, and a click on any of them is a click on that hex."""
    import math

    g = Game(Board.beginner(), players=4, seed=5, start="beginner")
    g.play(RollDice(dice=(3, 4)))  # a 7; the beginner hands hold under 8 cards: no discards
    assert g.phase is Phase.MOVE_ROBBER
    table = GameTable(g, seats=["human", "bot", "bot", "bot"], bot_delay=None)
    area = table.figure.data[table._idx["hex-area"]]
    hexes = table.figure.data[table._idx["hexes"]]
    centres = list(zip(hexes.x, hexes.y))
    assert sorted(area.customdata) == sorted(h.id for h in g.board.hexes for _ in range(6))
    for (x, y), h in zip(zip(area.x, area.y), area.customdata):
        nearest = min(range(len(centres)), key=lambda i: math.dist((x, y), centres[i]))
        assert hexes.customdata[nearest] == h
    target = g.legal_actions()[0].hex
    for k in [i for i, h in enumerate(area.customdata) if h == target][:3]:
        t = GameTable(g.copy(), seats=["human", "bot", "bot", "bot"], bot_delay=None)
        t._on_hex_area_click(None, _points(k))
        assert t.pending_hex == target or t.game.robber == target, plain(t.status.value)
    table._on_hex_area_click(None, _points())  # plotly calls every trace's handler; the others get no points
    assert table.game.phase is Phase.MOVE_ROBBER

"""The lesson explorers driven through their callbacks (buttons, dropdowns, plotly clicks).

Positions for the longest-road explorer are on the beginner board with the
beginner start (see tests/test_analysis_longest_road.py for the intersection
map: red's starting roads are 13-18 and 22-28, white's 12-17 and 25-31).
"""

from __future__ import annotations

import numpy as np
import pytest
from plotly.callbacks import Points

from catan_nb import Board, Building, Game
from catan_nb.analysis import chi_square_test, longest_road, placement_heat, rank_openings, score_intersections
from catan_nb.rules import BuildRoad, Phase
from catan_nb.viz.charts import DICE_LAB_TRACES, dice_lab_traces, running_mean_points
from catan_nb.widgets.explorers import PLACEMENT_METRICS, DiceLab, LongestRoadExplorer, PlacementExplorer

BOARD = Board.beginner()
RED, BLUE, WHITE, ORANGE = 0, 1, 2, 3


def click(explorer, trace_name, index):
    """Feed the handlers what plotly sends for a click on one point (every trace's handler is called)."""
    for i, t in enumerate(explorer.figure.data):
        inds = [index] if t.name == trace_name else []
        pts = Points(point_inds=inds, xs=[], ys=[], trace_name=t.name, trace_index=i)
        for cb in t._click_callbacks:
            cb(t, pts, None)


def segments(explorer, name):
    return sum(1 for x in (explorer.trace(name).x or ()) if x is None)


def classes(widget):
    """Every CSS class in a widget tree."""
    out = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        out |= classes(child)
    return out


def p_(a, b):
    return BOARD.path_between(a, b)


def cards(game):
    return sum(game.bank) + sum(sum(h) for h in game.hands)


# ============================================================================ DiceLab


def test_dicelab_buttons_update_histogram_mean_and_test():
    lab = DiceLab(seed=5, n=20, many=1000)
    assert lab.chi_square is None and "roll more" in lab.chi_box.value
    assert [t.name for t in lab.figure.data] == list(DICE_LAB_TRACES)
    assert sum(lab.trace("rolled").y) == 0
    lab.press("roll_one")
    assert len(lab.totals) == 1
    lab.press("roll")
    assert len(lab.totals) == 21
    lab.n_box.value = 7
    lab.press("roll")
    assert len(lab.totals) == 28
    lab.press("roll_many")
    n = len(lab.totals)
    assert n == 1028
    counts = lab.counts
    assert sum(counts.values()) == n
    assert list(lab.trace("rolled").customdata) == [counts[t] for t in range(2, 13)]
    assert lab.trace("rolled").y[5] == pytest.approx(counts[7] / n)
    assert lab.trace("running mean").x[-1] == n
    assert lab.trace("running mean").y[-1] == pytest.approx(lab.mean)
    assert lab.trace("exact").y[5] == pytest.approx(1 / 6)
    # the test result is the analysis API's, on the same rolls
    assert lab.chi_square is not None
    expected = chi_square_test(lab.totals.tolist())
    assert lab.chi_square.statistic == pytest.approx(expected.statistic)
    assert f"{lab.chi_square.p_value:.3f}" in lab.chi_box.value
    assert f"{n:,} rolls" in lab.status.value


def test_dicelab_is_seeded_and_reset_starts_again():
    a = DiceLab(seed=11)
    for _ in range(10):
        a.roll(7)
    b = DiceLab(seed=11)
    b.roll(70)
    assert np.array_equal(a.dice, b.dice)  # batching does not change the rolls
    first = a.dice
    a.press("reset")
    assert len(a.totals) == 0 and sum(a.trace("rolled").y) == 0 and list(a.trace("running mean").x) == []
    a.roll(70)
    assert np.array_equal(a.dice, first)
    a.seed_box.value = 12
    a.press("reset")
    a.roll(70)
    assert a.seed == 12 and not np.array_equal(a.dice, first)
    assert set(np.unique(a.dice)) <= set(range(1, 7))


def test_dicelab_loaded_die_is_detected_with_enough_rolls():
    fair = DiceLab(seed=2)
    fair.roll(20_000)
    loaded = DiceLab(seed=2)
    loaded.loaded_box.value = True
    loaded.roll(20_000)
    assert fair.chi_square.p_value > 0.001
    assert loaded.chi_square.p_value < 1e-6
    assert (loaded.dice[:, 0] == 6).mean() == pytest.approx(2 / 7, abs=0.02)
    assert (loaded.dice[:, 1] == 6).mean() == pytest.approx(1 / 6, abs=0.02)
    assert "unusual for fair dice" in loaded.chi_box.value and "loaded" in loaded.status.value


def test_dicelab_caps_its_memory_and_checks_arguments():
    lab = DiceLab(seed=0, max_rolls=50)
    lab.roll(40)
    lab.roll(40)
    assert len(lab.totals) == 50
    lab.roll(1)
    assert len(lab.totals) == 50 and "at most 50" in lab.status.value
    with pytest.raises(ValueError):
        lab.roll(0)
    with pytest.raises(ValueError):
        DiceLab(loaded=(1, 2, 3))


def test_dicelab_widget_classes_and_late_view_data():
    lab = DiceLab(seed=1)
    assert {"dicelab", "dicelab-roll", "dicelab-roll-one", "dicelab-roll-many", "dicelab-reset", "dicelab-n",
            "dicelab-seed", "dicelab-loaded", "dicelab-status", "dicelab-chi"} <= classes(lab.widget)
    lab.roll(30)
    # no browser view yet: the synced initial data follows the updates (Voila connects late)
    synced = next(t for t in lab.figure._widget_data if t["name"] == "rolled")
    assert list(synced["customdata"]) == [lab.counts[t] for t in range(2, 13)]


def test_running_mean_points_and_traces():
    ks, means = running_mean_points(np.array([12] * 5000), max_points=50)
    assert ks[0] == 1 and ks[-1] == 5000 and len(ks) <= 50 and ks == sorted(set(ks))
    assert all(m == 12 for m in means)
    dyn = dice_lab_traces(np.array([2, 12]))
    assert dyn["rolled"]["y"][0] == 0.5 and dyn["rolled"]["y"][-1] == 0.5
    lo, hi = dyn["band low"]["y"], dyn["expected ± 2 s.e."]["y"]
    assert all(a < 7 < b for a, b in zip(lo, hi))
    assert hi[0] - 7 == pytest.approx(2 * (35 / 6) ** 0.5)  # two standard deviations after one roll


# ============================================================================ PlacementExplorer


def test_placement_click_shows_score_breakdown():
    ex = PlacementExplorer(BOARD, seat=0)
    rows = {int(r.node): r for r in score_intersections(BOARD)}
    assert "Click an intersection" in ex.breakdown.value
    click(ex, "intersections", 39)
    assert ex.selected_node == 39
    row = rows[39]
    text = ex.breakdown.value
    assert "intersection 39" in text
    for part, x in row.parts.items():  # every part that counts, with its value
        if x or part == "production":
            assert f"<td>{part}</td><td style='text-align:right'>{x:.3f}</td>" in text
        else:
            assert f"<td>{part}</td>" not in text
    assert f"<b>{row.score:.3f}</b>" in text
    assert "P(any card on a roll) = 11/36" in text  # forest 8, mountains 3, hills 5
    assert list(ex.trace("highlight-nodes").customdata) == [39]
    click(ex, "paths", 3)  # paths are not clickable here: nothing changes
    assert ex.selected_node == 39
    ex.press("clear")
    assert ex.selected_node is None and list(ex.trace("highlight-nodes").customdata) == []


def test_placement_metric_dropdown_recolours_the_board():
    ex = PlacementExplorer(BOARD)
    shown = [v for _, v in ex.metric_box.options]
    assert set(shown) <= set(PLACEMENT_METRICS) and {"score", "production", "pips", "opening", "sets"} <= set(shown)
    assert "commodities" not in shown and "city_score" not in shown  # no module gives them values here
    for metric in ("pips", "production", "opening", "score"):
        ex.metric_box.value = metric
        heat = placement_heat(BOARD, metric, seat=0)
        assert ex.heat == heat
        colours = ex.trace("intersections").marker.color
        for v in range(54):
            if v in heat:
                assert colours[v] == pytest.approx(heat[v])
            else:
                assert np.isnan(colours[v])
        assert ex.trace("intersections").marker.colorbar.title.text.startswith(PLACEMENT_METRICS[metric])
    with pytest.raises(ValueError):
        ex.set_metric("beauty")


def test_placement_seat_dropdown_and_openings_table():
    ex = PlacementExplorer(BOARD, seat=0)
    for seat in (0, 3):
        ex.seat_box.value = seat
        want = rank_openings(BOARD, seat, top=10)
        assert [(p.first, p.second) for p in ex.openings] == [(p.first, p.second) for p in want]
        assert len(ex.pair_box.options) == 10
        # openings are described by their hexes (the board shows no intersection numbers), the number on hover
        from catan_nb.viz.text import place_of_node

        first = f"<span title='intersection {int(want[0].first)}'>{place_of_node(BOARD, int(want[0].first))}</span>"
        assert first in ex.openings_html.value
        if seat == 3:  # 3 of 4 places twice in a row in the snake order: the column says so, not empty
            assert "places twice in a row" in ex.openings_html.value
    ex.pair_box.value = 2
    p = ex.openings[2]
    assert ex.selected_pair == 2
    assert sorted(ex.trace("highlight-nodes").customdata) == sorted({int(p.first), int(p.second)})
    assert "background:#fde" in ex.openings_html.value
    # the opening heat map follows the seat
    ex.metric_box.value = "opening"
    ex.seat_box.value = 1
    assert ex.heat == placement_heat(BOARD, "opening", seat=1) and ex.selected_pair is None


def test_placement_custom_metric_and_game_source():
    from catan_nb.analysis import node_production

    risk = {"std of cards/roll": lambda b: {v: node_production(b, v).std for v in b.graph}}
    ex = PlacementExplorer(BOARD, metrics=risk, metric="std of cards/roll")
    assert ex.heat[39] == pytest.approx(node_production(BOARD, 39).std)
    assert ("std of cards/roll", "std of cards/roll") in ex.metric_box.options
    game = Game(BOARD, players=4, seed=1, start="beginner")
    ex = PlacementExplorer(game, metric="opening")
    assert ex.openings == [] and "founding phase" in ex.notice.value
    free = {int(r.node) for r in score_intersections(game)}
    assert 13 not in free
    ex.click_node(13)
    assert "not free" in ex.breakdown.value
    assert {"placement-explorer", "placement-metric", "placement-seat", "placement-pairs",
            "placement-breakdown", "placement-openings", "placement-clear"} <= classes(ex.widget)


# ============================================================================ LongestRoadExplorer


def test_longest_road_by_clicks_and_a_refused_road():
    lr = LongestRoadExplorer(BOARD, player=RED, seed=1)
    g0 = lr.game
    hands = [list(h) for h in g0.hands]
    assert lr.report.length == 1 and segments(lr, "longest-road") == 1
    legal = {e for e in range(72) if BuildRoad(e) in _legal_roads_of(lr.game, RED)}
    assert segments(lr, "highlight-paths") == len(legal) > 0
    for a, b in [(13, 18), (18, 23), (23, 29), (29, 34), (34, 28)]:
        e = p_(a, b)
        if lr.game.road_owner(e) is None:
            click(lr, "paths", e)
            assert lr.game.road_owner(e) == RED, lr.notice.value
    assert lr.report.length == 6 == lr.game.longest_road(RED)
    assert segments(lr, "longest-road") == 6
    assert lr.game.longest_road_holder == RED and "holds the Longest Road card" in lr.text.value
    assert g0.road_owner(p_(18, 23)) is None  # the explorer worked on a copy
    before = lr.game.state()
    click(lr, "paths", p_(0, 3))  # far from red's roads: the engine refuses
    assert lr.game.state() == before
    assert "B-BUILD" in lr.notice.value
    assert cards(lr.game) == 95
    # turns are passed with dice that pay no one: the hands of seats that did not build are untouched
    white_road = min(a.path for a in _legal_roads_of(lr.game, WHITE) if isinstance(a, BuildRoad))
    assert lr.build_road(white_road, player=WHITE) and lr.build_road(p_(16, 22), player=RED)
    assert len(lr.game.dice_history) >= 4 and lr.game.current_player == RED
    assert [lr.game.hands[q] for q in (BLUE, ORANGE)] == [hands[q] for q in (BLUE, ORANGE)]


def _legal_roads_of(game, player):
    trial = game.copy()
    LongestRoadExplorer._to_turn(trial, player)
    LongestRoadExplorer._grant(trial, player, (1, 1, 0, 0, 0))
    return set(trial.legal_actions())


def test_settlement_breaks_the_road_and_is_explained():
    """B-LR-8: a line of 7 roads cut by an opponent's settlement after its 2nd road has length 5."""
    lr = LongestRoadExplorer(BOARD, player=RED)
    assert lr.build_chain(13, 18, 23, 29, 34, 28, 22, 16)
    assert lr.report.length == 7
    lr.player_box.value = WHITE
    assert lr.player == WHITE
    assert lr.build_chain(12, 17, 23)
    click(lr, "intersections", 23)
    assert lr.game.building_at(23) == (WHITE, lr.game.building_at(23)[1])
    lr.select_player(RED)
    r = lr.report
    assert r.length == 5 and [b.node for b in r.breaks] == [23] and r.breaks[0].sides == (5, 2)
    assert r == longest_road(lr.game, RED)
    assert "white's settlement at 23" in lr.text.value and "(5+2)" in lr.text.value
    assert "without it: 7" in lr.text.value
    assert 23 in list(lr.trace("highlight-nodes").customdata)
    assert segments(lr, "longest-road") == 5
    lr.show_cuts.value = True
    assert set(lr.cuts) <= set(lr.trace("highlight-nodes").customdata)
    lr.press("undo")
    assert lr.game.building_at(23) is None and lr.report.length == 7
    lr.press("reset")
    assert lr.report.length == 1 and lr.game.road_owner(p_(18, 23)) is None
    lr.press("undo")
    assert "nothing to undo" in lr.notice.value


def test_refused_settlement_and_city_upgrade():
    lr = LongestRoadExplorer(BOARD, player=WHITE)
    before = lr.game.state()
    assert lr.click_node(0) is False  # no white road there
    assert lr.game.state() == before and "B-BUILD" in lr.notice.value
    red_settlement = next(v for v in range(54) if lr.game.building_at(v) and lr.game.building_at(v)[0] == RED)
    lr.select_player(RED)
    assert lr.click_node(red_settlement) is True
    assert lr.game.building_at(red_settlement) == (RED, Building.CITY)
    assert cards(lr.game) == 95


def test_explorer_sources_and_classes():
    lr = LongestRoadExplorer(Board.random(seed=4), seed=4)
    assert lr.game.phase in (Phase.ROLL, Phase.MAIN) and len(lr.game.occupied) == 8
    assert lr.game.vp_target == LongestRoadExplorer.VP_TARGET
    with pytest.raises(ValueError, match="founding"):
        LongestRoadExplorer(Game(BOARD, players=4, seed=1))
    game = Game(BOARD, players=4, seed=1, start="beginner")
    lr = LongestRoadExplorer(game, player=BLUE)
    assert lr.game is not game and lr.player == BLUE
    with pytest.raises(ValueError):
        lr.select_player(7)
    assert {"lr-explorer", "lr-player", "lr-undo", "lr-reset", "lr-show-legal", "lr-show-cuts", "lr-text",
            "lr-notice"} <= classes(lr.widget)


def test_placement_explorer_ranks_openings_by_playouts():
    """Issue 13 item 6: the explorer plays the listed openings out with value bots (or random ones)."""
    ex = PlacementExplorer(BOARD, seat=0)
    rows = ex.play_out("value", playouts=2, top=2)
    assert len(rows) == 2 and "win rate" in ex.playout_html.value and "95% interval" in ex.playout_html.value
    ex.playout_bot.value = "random"
    ex.playout_games.value = 1
    ex.buttons["playout"].click()
    assert "random bots" in ex.playout_html.value


# ---------------------------------------------------------------------------- every module: ships (SF-8), knights (CK-KN-7)


def _line(lr, kind, start, n):
    """Build ``n`` pieces of ``kind`` in a line from intersection ``start`` through the explorer, each the
    engine's candidate at the line's open end that leads to an intersection the player has not touched."""
    g = lr.game
    t = g.topology
    at, built = start, []
    for _ in range(n):
        touched = lr.game.road_nodes[lr.player] | set(lr.game.placed[lr.game.kind_id["settlement"]][lr.player])
        e = next(e for e in lr.game.candidates(lr.player, kind) if at in t.edge_nodes[e]
                 and not set(t.edge_nodes[e]) - {at} <= touched)
        assert lr.build(kind, e), lr.message
        built.append(e)
        at = next(x for x in t.edge_nodes[e] if x != at)
    return built


def test_SF_8_explorer_builds_ships_and_roads_and_shows_the_trade_route():
    """SF-8: in the islands scenario the sandbox builds ships (on sea paths) and roads through the engine;
    a line of roads and a line of ships meeting at the player's own settlement count as one route."""
    from catan_nb.rules import Rules
    from catan_nb.rules.modules.seafarers import ISLANDS

    board = Board.load(ISLANDS)
    lr = LongestRoadExplorer(board, player=RED, seed=1, players=3)
    g = lr.game
    t = g.topology
    assert g.rules.modules == Rules.for_board(board).modules and "ship" in lr.kinds
    assert lr.piece_box.layout.display is None and "lr-piece" in classes(lr.widget)
    assert "ship" in lr.show_legal.description
    marked = set(g.candidates(RED, "road")) | set(g.candidates(RED, "ship"))  # the engine's sites, both kinds
    assert segments(lr, "highlight-paths") == len(marked) > len(set(g.candidates(RED, "road")))
    # red's founding road leaves a settlement with room for a ship: a line of ships from the settlement,
    # a line of roads on from the road's far end; they meet at the settlement: one route (SF-8)
    road_kind = g.kind_id["road"]
    v, r0 = next((x, e) for x in sorted(g.placed[g.kind_id["settlement"]][RED]) for e in t.node_edges[x]
                 if e in g.placed[road_kind][RED] and any(f in g.candidates(RED, "ship") for f in t.node_edges[x]))
    ships = _line(lr, "ship", v, 3)
    assert all(lr.game.piece_on(e) == (RED, "ship") for e in ships)
    r = lr.report
    assert r.length == 4 == lr.game.longest_road(RED) and r.joins == (v,)
    assert sorted(r.road_kinds) == ["road", "ship", "ship", "ship"]
    assert segments(lr, "seafarers:ship:0") == len(lr.game.placed[lr.game.kind_id["ship"]][RED]) >= 3
    assert segments(lr, "longest-road") == 4
    assert "longest trade route 4" in lr.text.value and f"join at its own settlement at {v}" in lr.text.value
    roads = _line(lr, "road", next(x for x in t.edge_nodes[r0] if x != v), 2)
    r = lr.report
    assert r.length == 6 == lr.game.longest_road(RED) and set(r.road) == {r0, *roads, *ships}
    assert segments(lr, "longest-road") == 6 and f"Longest Trade Route card: {g.colours[RED]}" in lr.text.value
    # "auto" is a ship where only a ship may go; the engine refuses a ship on a land-only path (SF-6)
    state = lr.game.state()
    inland = next(e for e in range(t.n_edges) if t.edge_land[e] and not t.edge_sea[e] and lr.game.edge_owner[e] < 0)
    lr.piece_box.value = "ship"
    click(lr, "paths", inland)
    assert lr.game.state() == state and "SF-6" in lr.notice.value
    lr.piece_box.value = "auto"
    sea = next(e for e in lr.game.candidates(RED, "ship") if e not in lr.game.candidates(RED, "road"))
    click(lr, "paths", sea)
    assert lr.game.piece_on(sea) == (RED, "ship") and lr.notice.value == ""
    far = next(e for e in range(t.n_edges) if not t.edge_land[e] and lr.game.edge_owner[e] < 0
               and e not in lr.game.candidates(RED, "ship"))
    assert lr.click_path(far) is False and "B-BUILD-4" in lr.notice.value
    assert cards(lr.game) == cards(g)  # granted from the bank: every card is still there


def test_CK_KN_7_explorer_places_a_knight_that_breaks_a_road():
    """CK-KN-7: in a Cities & Knights sandbox an opponent's knight, hired through the engine, breaks the
    road like a settlement; the quiet dice never move the barbarians (CK-BAR-4); refusals are messages."""
    from catan_nb.rules import Rules

    lr = LongestRoadExplorer(BOARD, player=RED, rules=Rules(modules=("cities_knights",)))
    assert "knight" in lr.kinds and "ship" not in lr.kinds and lr.piece_box.layout.display is None
    assert lr.build_chain(13, 18, 23, 29, 34, 28)
    assert lr.report.length == 6 == lr.game.longest_road(RED)
    lr.select_player(WHITE)
    assert lr.build_chain(17, 23)
    lr.piece_box.value = "knight"
    click(lr, "intersections", 23)
    assert lr.game.piece_at(23) == (WHITE, "knight"), lr.notice.value
    lr.select_player(RED)
    r = lr.report
    assert r.length == 4 == lr.game.longest_road(RED)
    (b,) = r.breaks
    assert (b.node, b.piece, b.owner, b.sides, b.length_without) == (23, "knight", WHITE, (4, 2), 6)
    assert "white's knight at 23 splits network 0 (4+2); without it: 6." in lr.text.value
    assert 23 in list(lr.trace("highlight-nodes").customdata)
    assert lr.game.ext["cities_knights"]["barbarians"] == 0  # every turn passed with a city gate
    # refused: the engine's own rule; nothing escapes a click, even a wrong index or a piece not in play
    state = lr.game.state()
    lr.select_player(WHITE)
    assert lr.click_node(0) is False and "CK-KN-1" in lr.notice.value
    assert lr.click_node(10**6) is False and "B-BOARD-3" in lr.notice.value
    assert lr.click_path(-5) is False and lr.notice.value
    assert lr.build("ship", 3) is False and "no ship" in lr.notice.value
    assert lr.game.state() == state
    lr.press("undo")
    lr.select_player(RED)
    assert lr.report.length == 6 and lr.report.breaks == ()

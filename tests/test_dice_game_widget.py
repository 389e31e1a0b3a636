"""The dice table driven through its callbacks (dice, buttons, sheet clicks), checking engine, figure and odds."""

from __future__ import annotations

import pytest
from plotly.callbacks import Points

from catan_nb.constants import Resource
from catan_nb.dicegame import Build, DiceGame, DicePhase, Face, Kind, Roll, best_keep, keep_probability
from catan_nb.widgets.dice_table import TARGETS, DiceTable

from test_dice_game_rules import F


def trace(table, name):
    return table.figure.data[table._idx[name]]


def click(table, trace_name, index):
    """Feed the handlers what plotly sends for a click on one point (every trace's handler is called)."""
    for t in table.figure.data:
        inds = [index] if t.name == trace_name else []
        pts = Points(point_inds=inds, xs=[], ys=[], trace_name=t.name, trace_index=table._idx[t.name])
        for cb in t._click_callbacks:
            cb(t, pts, None)


def table_with(faces=None, built=(), seats=("human",), **kw) -> DiceTable:
    game = DiceGame(len(seats), seed=kw.pop("seed", 1), variant=kw.pop("variant", "normal"))
    game.built[0] |= game.sheet.mask(built)
    if faces:
        game.play(Roll(faces=F(faces)))
    return DiceTable(list(seats), game=game, bot_delay=None, **kw)


def test_roll_keep_and_roll_again_with_the_buttons():
    t = DiceTable(["human"], seed=4, bot_delay=None)
    fig = t.figure
    assert t.buttons["roll"].description == "Roll 6 dice" and t.buttons["end"].disabled
    assert "P(road this turn" in t.odds_box.value
    t.press("roll")
    first = list(t.game.dice)
    assert t.game.rolls == 1 and t.buttons["roll"].description == "Roll (1/3 rolled)"
    t.dice_buttons[2].click()
    t.dice_buttons[4].click()
    assert t.kept == {2, 4}
    assert t.dice_buttons[2].description == f"3: ✓ {first[2]}" and t.dice_buttons[2].button_style == "success"
    t.dice_buttons[4].click()
    assert t.kept == {2}
    t.press("roll")
    assert t.game.log[-1].keep == (2,) and t.game.dice[2] is first[2] and t.game.rolls == 2
    assert t.figure is fig  # updated in place


def test_odds_panel_shows_the_current_keep_against_the_best():
    t = table_with("brick ore ore wool grain gold", target="city")
    t.toggle_die(1)
    t.toggle_die(2)
    o = t.odds_now()
    assert o["current"] == keep_probability(TARGETS["city"], t.game.dice, [1, 2], 2)
    assert o["best"] == best_keep(TARGETS["city"], t.game.dice, 2)
    assert f"{float(o['best'].probability):.1%}" in t.odds_box.value
    assert f"{float(o['current']):.1%}" in t.odds_box.value
    t.target.value = "road"
    assert t.odds_now()["best"] == best_keep(Kind.ROAD, t.game.dice, 2)
    t.count_swaps.value = False
    assert "best" in t.odds_now()


def test_click_a_highlighted_structure_builds_it():
    t = table_with("brick lumber wool grain ore ore")
    hl = list(trace(t, "highlight").customdata)
    assert hl == [a.structure for a in t.game.legal_actions() if isinstance(a, Build)]
    assert set(hl) == {"R0", "S3", "K1"}
    click(t, "highlight", hl.index("S3"))
    assert t.game.is_built(0, "S3") and t.game.phase is DicePhase.BUILD
    assert t.game.turn_points() == 3 and "score" in t.figure.layout.title.text
    ids = list(trace(t, "structures").customdata)
    assert trace(t, "structures").marker.color[ids.index("S3")] != "#fffdf5"
    assert list(trace(t, "highlight").customdata) == []  # the rest cannot pay for anything


def test_illegal_click_shows_the_rule_and_changes_nothing():
    t = table_with("brick lumber wool grain ore ore")
    before = t.game.state()
    click(t, "structures", list(trace(t, "structures").customdata).index("S4"))
    assert "DG-BUILD-6" in t.notice.value and t.game.state() == before
    click(t, "road-marks", 5)  # R5
    assert "DG-BUILD-4" in t.notice.value and t.game.state() == before
    for i in range(6):
        t.toggle_die(i)
    t.press("roll")  # keeping all six rolls nothing
    assert "DG-ROLL-2" in t.notice.value and t.game.state() == before


def test_swap_and_gold_buttons():
    t = table_with("ore ore grain grain gold wool", built=["K1", "R0", "R1"])
    t.press("stop")
    swap = next(b for b in t.swap_box.children if "dg-swap-K1" in b._dom_classes)
    swap.click()
    assert "click the die" in t.notice.value
    t.toggle_die(5)  # after rolling, a die click picks the die to turn
    assert t.selected_die == 5 and t.dice_buttons[5].button_style == "warning"
    swap = next(b for b in t.swap_box.children if "dg-swap-K1" in b._dom_classes)
    swap.click()
    assert t.game.dice[5] is Face.ORE and t.game.swaps_used[0] == 1
    assert not t.swap_box.children
    t2 = table_with("ore ore grain grain gold gold", built=["R0", "R1"])
    assert not t2.buttons["gold"].disabled
    t2.gold_resource.value = Resource.ORE
    t2.press("gold")
    assert t2.game.hand() == (0, 0, 0, 2, 3, 0) and t2.buttons["gold"].disabled
    assert t2.dice_buttons[5].description == "6: gold (used)"
    assert list(trace(t2, "highlight").customdata) == ["C7"]


def test_any_swap_uses_the_resource_dropdown():
    t = table_with("wool wool wool wool wool wool", built=[f"K{i}" for i in range(1, 7)])
    t.press("stop")
    assert t.swap_resource.layout.display is None
    t.toggle_die(0)
    t.swap_resource.value = Resource.BRICK
    next(b for b in t.swap_box.children if "dg-swap-K6" in b._dom_classes).click()
    assert t.game.dice[0] is Face.BRICK


def test_game_against_the_computer():
    """The computer plays its whole turn by itself; the human's turn comes back; the track fills."""
    t = DiceTable(["human", "computer"], seed=8, bot_delay=None)
    t.press("roll")
    t.press("end")
    g = t.game
    assert g.current == 0 and len(g.track[0]) == 1 and len(g.track[1]) == 1
    assert t.kept == set() and "✗" in t.track_box.value
    assert "roll" in t.status.value.lower()
    for _ in range(14):
        t.press("roll")
        t.press("end")
    assert g.is_over and "win" in t.status.value
    assert g.score(1) > g.score(0)


def test_computer_starts_and_plus_variant():
    t = DiceTable(["computer", "human"], variant="plus", seed=3, bot_delay=None)
    g = t.game
    assert g.current == 1 and len(g.track[0]) == 1
    t.press("roll")
    assert len(g.dice) == 4  # DGP-8: the game's second turn rolls 4 dice
    assert sum(b.layout.display != "none" for b in t.dice_buttons) == 4
    assert "Victory points" in t.track_box.value


def test_save_and_load_buttons(tmp_path):
    t = DiceTable(["human"], seed=5, bot_delay=None, save_path=str(tmp_path / "d.json"))
    t.press("roll")
    t.toggle_die(0)
    t.press("save")
    assert "saved" in t.notice.value
    state = t.game.state()
    t.press("roll")
    t.press("load")
    assert t.game.state() == state and t.kept == set()
    (tmp_path / "d.json").write_text("{}")
    t.press("load")
    assert "format" in t.notice.value


def test_bad_arguments():
    with pytest.raises(ValueError):
        DiceTable(["human", "robot"])
    with pytest.raises(ValueError):
        DiceTable(["human"], target="castle")
    with pytest.raises(ValueError):
        DiceTable(["human", "human"], game=DiceGame(1))
    assert "DiceTable" in repr(DiceTable(["human"], seed=1, bot_delay=None))


def test_the_log_names_the_pieces_built():
    """Issue 25 item 11: "built road 1", "built settlement 3", never the sheet's ids (R0, S3)."""
    from catan_nb.dicegame.actions import Build

    t = DiceTable(["human", "computer"], seed=4, bot_delay=None)
    assert t.piece_name("R0") == "road 1" and t.piece_name("S3") == "settlement 3" and t.piece_name("C7") == "city 7"
    assert t._describe(Build("R0")) == "built road 1"

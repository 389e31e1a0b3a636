"""No exception escapes a widget callback (issue 9): nonsense in every callback and field leaves the
game as it was and shows a message; constructor arguments are checked with a clear ValueError."""

from __future__ import annotations

import numpy as np
import pytest

from catan_nb import Board
from catan_nb.widgets import DiceTable, GameTable

JUNK = [-1, 10**9, None, "x", 1.5, True, np.int64(-3), [], {}, "", float("nan")]


@pytest.fixture
def table():
    return GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=1, bot_delay=None)


def _same(table, before):
    assert table.game.state() == before


def test_clicks_with_nonsense_change_nothing(table):
    before = table.game.state()
    for value in JUNK:
        for click in (table.click_node, table.click_path, table.click_hex):
            click(value)
            _same(table, before)
        table._choose_victim(value)
        _same(table, before)


def test_every_button_with_nonsense_fields_never_raises(table):
    for name in table.buttons:
        if name in ("save", "load"):
            continue
        for counts in (table.offer_give, table.offer_get, table.discard_counts):
            for box in counts:
                try:
                    box.value = 99
                except Exception:  # the widget itself may refuse the value: that is fine
                    pass
        table.press(name)  # must not raise, whatever the phase


@pytest.mark.parametrize("path", ["", "/", "/nonexistent-folder/x.json", ".", "\0bad"])
def test_save_and_load_to_bad_places_show_a_message(table, path, tmp_path):
    before = table.game.state()
    table.save(path)
    assert table.message.startswith("⚠")
    table.load(path)
    assert table.message.startswith("⚠")
    _same(table, before)


def test_load_of_corrupt_files_keeps_the_game(table, tmp_path):
    before = table.game.state()
    for i, content in enumerate([b"", b"[", b"[]", b"\xff\xfe\x00x", b"{" * 3000, b'{"format": "catan_nb.game"}']):
        path = tmp_path / f"bad{i}.json"
        path.write_bytes(content)
        table.load(str(path))
        assert table.message.startswith("⚠"), content
        _same(table, before)


@pytest.mark.parametrize("kwargs", [dict(viewer=9), dict(viewer=-1), dict(viewer=True), dict(viewer="me"),
                                    dict(bot_delay=-1), dict(bot_delay="slow"), dict(palette_name="neon"),
                                    dict(save_path=None), dict(seats="human"), dict(seats=["human", "robot", "bot"])])
def test_game_table_arguments_are_checked(kwargs):
    args = {"seats": ["human", "bot", "bot", "bot"], "seed": 1, "bot_delay": None, **kwargs}
    with pytest.raises(ValueError):
        GameTable(Board.beginner(), **args)


def test_dice_table_click_die_out_of_range_is_ignored():
    d = DiceTable(["human", "computer"], seed=1, bot_delay=None)
    d.press("roll")
    before = d.game.state()
    for value in (-1, 6, 99, "a", None, True, 1.5):
        d.click_die(value)
    assert all(0 <= i < len(d.game.dice) for i in d.kept) and d.game.state() == before
    d.refresh()  # a later refresh works (it raised before the fix)
    for bad in (dict(bot_delay=-2), dict(save_path=3), dict(seats=[])):
        with pytest.raises(ValueError):
            DiceTable(**{"seats": ["human"], "seed": 1, "bot_delay": None, **bad})


def test_classroom_widgets_callbacks_and_arguments(tmp_path):
    """Issue 10's classroom widgets: nonsense input shows a message, never raises."""
    from catan_nb.widgets import BoardDesigner, DiceWorksheet, ScoreWeights

    w = ScoreWeights(Board.beginner())
    w.set_weights(production=1.0, diversity=0.0, scarcity=0.0, special_harbour=0.0, generic_harbour=0.0, numbers=0.0,
                  roads=0.0, cities=0.0, cards=0.0)
    assert [n for n, _, _ in w.ranking()[:4]] and all(isinstance(d, str) for _, _, d in w.ranking())
    with pytest.raises(ValueError):
        w.set_weights(luck=1.0)
    with pytest.raises(ValueError):
        ScoreWeights("beginner")
    d = BoardDesigner(seed=3)
    d.token_boxes[0].value = None  # a producing hex without a number: the rules refuse, the panel says why
    d.score()
    assert "⚠" in d.report.value
    d.shuffle()
    assert "pips per resource" in d.report.value
    with pytest.raises(ValueError):
        BoardDesigner(Board.five_six())
    s = DiceWorksheet()
    for junk in ("", "hello", "7 7 13", "0+7", None, "1 " * 5):
        s.test_text(junk)
        assert s.message.startswith("⚠")
    s.test_text(" ".join(["2 3 4 5 6 7 8 9 10 11 12 7 6 8 7"] * 4))
    assert s.result is not None and "fail to reject" in s.output.value
    s.load_game(str(tmp_path / "missing.json"))
    assert s.message.startswith("⚠")

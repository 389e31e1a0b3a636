"""Issue 25: every module's table played by a human seat through the table's own handlers.

A human seat (seat 0) plays against bots through :class:`table_driver.HumanDriver` (buttons, board
clicks, panels, layers, steppers; never ``game.play``) for a number of decisions, in every module:
the base game, 6 players with Friends and Helpers, each Seafarers scenario file, gold fields, Cities
& Knights alone and with Seafarers, Corsica with 5 players, New York with the Erie Canal.

Hidden information (item 2, B-SETUP-7, A-15): while it plays, what the human sees never depends on
another seat's hidden cards.  Three checks:

* the widgets are rendered, then the game is replaced by a determinisation for the human's seat
  (every other seat's hand, development and progress cards dealt again: same counts, other
  contents) and rendered again: every string of every widget (HTML, buttons, options, the board
  figure's text and hover text) must be the same;
* every log sentence about a card drawn, stolen, discarded or passed between two other seats reads
  the same when that card is changed;
* no hand of another seat is listed.
"""

from __future__ import annotations

import difflib
import random

import pytest
from table_driver import HumanDriver, perturbed, shown

from catan_nb import Board
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import Rules
from catan_nb.rules.modules.gold_fields import gold_board
from catan_nb.viz.text import narrate, snapshot
from catan_nb.widgets import GameTable


def _sea(name, extra=()):
    def make(seed):
        board = Board.load(BOARDS_DIR / f"{name}.json")
        return board, Rules.for_board(board, modules=extra), 4
    return make


#: Every module's table: a board, its rules and the number of seats.
TABLES = {
    "base 4p": lambda seed: (Board.random(seed=seed), Rules(), 4),
    "6p friends+helpers": lambda seed: (Board.five_six(), Rules(modules=("friends", "helpers")), 6),
    "seafarers islands": _sea("seafarers_islands"),
    "seafarers fog+treasure": _sea("seafarers_fog"),
    "seafarers harbour master": _sea("seafarers_harbours"),
    "seafarers great catan": _sea("seafarers_great_catan"),
    "gold fields": lambda seed: (gold_board(Board.beginner(), 4, 10), Rules(modules=("gold_fields",)), 4),
    "cities & knights": lambda seed: (Board.beginner(), Rules(modules=("cities_knights",)), 4),
    "cities & knights + seafarers": _sea("seafarers_islands", ("cities_knights",)),
    "corsica 5p": lambda seed: (Board.load(BOARDS_DIR / "corsica.json"), Rules.for_board(Board.load(BOARDS_DIR / "corsica.json")), 5),
    "new york + erie": lambda seed: (Board.load(BOARDS_DIR / "new_york.json"), Rules.for_board(Board.load(BOARDS_DIR / "new_york.json")), 4),
}


def make_table(name: str, seed: int = 5) -> GameTable:
    board, rules, n = TABLES[name](seed)
    t = GameTable(board, seats=["human"] + ["bot"] * (n - 1), seed=seed, bot_delay=None, rules=rules)
    t.explain_box.value = True  # the bots' reasons are in the log too
    return t


def assert_view_ignores_hidden_cards(t: GameTable, seed: int) -> None:
    """The widgets with the real game and with a determinisation for the viewer read the same."""
    viewer = t.viewer_seat()
    if viewer is None:  # the game is over: everything may be shown
        return
    real = t.game
    first = shown(t.widget)
    try:
        t.game = real.determinized(viewer, seed)
        t.refresh()
        second = shown(t.widget)
    finally:
        t.game = real
        t.refresh()
    if first != second:
        diff = "\n".join(list(difflib.unified_diff(first.splitlines(), second.splitlines(), lineterm="", n=0))[:12])
        raise AssertionError(f"the table shows another seat's hidden cards (seat {viewer} views):\n{diff}")
    text = t.hand_box.value
    assert all(f"seat {q}:" not in text for q in range(real.n) if q != viewer), text


def watch_the_log(t: GameTable, rng: random.Random) -> tuple[list, list]:
    """Check every log sentence as it is written: a hidden card changed, the sentence read by the
    viewer stays the same (unless the viewer took part).  Returns the kinds checked and the leaks
    found (recorded, not raised: the table turns an exception in a callback into its status line)."""
    checked, leaks = [], []
    apply = t._apply

    def wrapped(action):
        before = snapshot(t.game)
        apply(action)
        viewer = t._log_viewer()
        if viewer is None:
            return
        g = t.game
        logged = g.log[-1]
        alt = perturbed(g, logged, rng)
        involved = {before["current"], before["active"], g.current_player, getattr(logged, "victim", None)}
        if alt is None or viewer in involved:
            return
        said, other = narrate(g, logged, before, viewer, t.seats), narrate(g, alt, before, viewer, t.seats)
        if said != other:
            leaks.append((logged, said, other))
        checked.append(type(logged).__name__)

    t._apply = wrapped
    return checked, leaks


@pytest.mark.parametrize("name", list(TABLES))
def test_a_human_plays_every_modules_table_seeing_only_its_own_cards(name):
    """Item 2 and the issue's check: a human seat plays through the table's handlers; no error it did
    not cause, no stall, and no other seat's hidden card anywhere in its widgets or its log."""
    t = make_table(name)
    assert t.viewer == 0  # hidden information by default: the one human seat's view
    rng = random.Random(1)
    checked, leaks = watch_the_log(t, rng)
    d = HumanDriver(t, seed=2)
    for k in range(12):
        d.play(6)
        assert not leaks, f"the log names another seat's hidden card: {leaks[0]}"
        assert_view_ignores_hidden_cards(t, seed=100 + k)
        if t.game.is_over:
            break
        why = [x for x in t.log_lines if x.startswith("  why:")]
        assert not [x for x in why if "next best:" in x], why[-3:]  # the runners-up tell what a bot holds
    assert d.done.get("RollDice", 0) + d.done.get("BuildSettlement", 0) > 0, d.done
    assert checked, "no log sentence about another seat's hidden card was checked"
    assert not d.unreachable, d.unreachable

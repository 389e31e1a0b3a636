"""Real browser: Seafarers at the game table — a ship built, moved, and the pirate moved, by clicking.

The test writes its own notebook: the islands scenario with the founding done on the coast, the
cards for two ships and a knight given to seat 0, so that the clicks come at once (issue 14's
browser check).  The four seats are human (hot seat), so every move is a click.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .lab import (CHROMIUM, OUTPUT, PLOT_POINT_JS, TRACE_COUNT_JS, browser_page, click_at, jupyterlab,
                  one_cell_notebook, point_of, run_all_cells)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]

SETUP = '''
from catan_nb import Board, Game, Resource
from catan_nb.rules import EndTurn, Phase, RollDice, Rules
from catan_nb.rules.modules.seafarers import ISLANDS
from catan_nb.widgets import GameTable

g = Game(Board.load(ISLANDS), players=4, seed=5, rules=Rules(modules=("seafarers",)))  # no 7 in the next four rolls
t = g.topology
while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
    acts = g.legal_actions()
    coast = [a for a in acts if g.phase is Phase.FOUNDING_SETTLEMENT and t.node_sea[a.node]]
    g.play(coast[0] if coast else acts[0])
g.play(RollDice(dice=(1, 1)))
while g.phase is not Phase.MAIN:
    g.play(g.legal_actions()[0])
for h in g.hands:
    for r in range(5):
        g.bank[r] += h[r]
        h[r] = 0
g.deal(0, {Resource.WOOL: 2, Resource.LUMBER: 2})
g.dev[0][0] += 1  # a knight held from an earlier turn, for the pirate
g.deck[0] -= 1
table = GameTable(g, seats=["human"] * 4, bot_delay=None)
table
'''


def _wait(page, js, args, want, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.evaluate(js, args) == want:
            return
        time.sleep(0.2)
    raise AssertionError(f"{args}: wanted {want}, have {page.evaluate(js, args)}")


def _click_trace(page, name):
    click_at(page, point_of(page, PLOT_POINT_JS, [name, 0]))


def test_a_ship_built_moved_and_the_pirate_moved_by_clicks():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with jupyterlab([], extra={"seafarers.ipynb": one_cell_notebook(SETUP)}) as (url, _root), browser_page() as page:
        page.goto(f"{url}/lab/tree/seafarers.ipynb")
        run_all_cells(page, ".catan-table .js-plotly-plot")
        page.wait_for_selector(".catan-status", timeout=30_000)
        # Build a ship: a ringed sea path.
        _wait(page, TRACE_COUNT_JS, ["seafarers:boat:0"], 0)
        _click_trace(page, "seafarers:ship-targets")
        _wait(page, TRACE_COUNT_JS, ["seafarers:boat:0"], 1)
        page.screenshot(path=str(OUTPUT / "seafarers-01-ship.png"))
        # End the turn; the other three seats (human here) roll and end until seat 0 has rolled again.
        for _ in range(4):
            page.click(".catan-end-turn")
            deadline = time.time() + 30
            while "rolls the dice" not in page.inner_text(".catan-status"):
                assert time.time() < deadline, page.inner_text(".catan-status")
                time.sleep(0.2)
            page.click(".catan-roll")
            deadline = time.time() + 30
            while "trades and builds" not in (status := page.inner_text(".catan-status")):
                if "discards" in status or "robber" in status or "pirate" in status:
                    pytest.skip("a 7 came up on the way back to seat 0; the callback test covers this path")
                assert time.time() < deadline, status
                time.sleep(0.2)
            if "Red trades and builds" in status:
                break
        # Move the ship: click it (ringed), then the first destination offered.
        _wait(page, TRACE_COUNT_JS, ["seafarers:movable"], 1, timeout=30)
        _click_trace(page, "seafarers:movable")
        page.wait_for_selector(".catan-choice", timeout=30_000)
        page.screenshot(path=str(OUTPUT / "seafarers-02-move-choices.png"))
        page.locator(".catan-choice").first.click()
        _wait(page, TRACE_COUNT_JS, ["seafarers:movable"], 0, timeout=30)  # one move a turn
        assert "moved a ship" in page.inner_text(".catan-log")
        page.screenshot(path=str(OUTPUT / "seafarers-03-moved.png"))
        # The pirate: play the knight, click a ringed sea hex, then the victim (or nobody).
        page.click(".catan-knight")
        _wait(page, TRACE_COUNT_JS, ["seafarers:pirate"], 0)
        deadline = time.time() + 30
        while not page.evaluate(TRACE_COUNT_JS, ["seafarers:pirate-targets"]):
            assert time.time() < deadline, "no pirate targets after the knight"
            time.sleep(0.2)
        _click_trace(page, "seafarers:pirate-targets")
        deadline = time.time() + 30
        while page.evaluate(TRACE_COUNT_JS, ["seafarers:pirate"]) == 0:
            if page.locator(".catan-choice").count():
                page.locator(".catan-choice").first.click()
                time.sleep(0.5)
            assert time.time() < deadline, "the pirate never moved"
            time.sleep(0.2)
        assert "moved the pirate" in page.inner_text(".catan-log")
        page.screenshot(path=str(OUTPUT / "seafarers-04-pirate.png"))

"""Real browser: Cities & Knights at the game table — a knight hired and activated by clicks on the
board, then a barbarian attack resolved from the table's controls (issue 15's browser check).

The notebook is written by the test: the beginner start with the module, seat 0 holding the cards
for a knight and its activation, two cities on the board and the barbarians' ship one step from
the island, and a seed whose next roll shows a ship (so the attack comes at once).  The four seats
are human (hot seat): every move is a click.
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
from catan_nb.widgets import GameTable


def position(seed):
    g = Game(Board.beginner(), players=4, seed=seed, start="beginner", rules=Rules(modules=("cities_knights",)))
    g.play(RollDice(dice=(1, 1, 4)))
    for h in g.hands:
        for r in range(len(h)):
            g.bank[r] += h[r]
            h[r] = 0
    for p in (1, 2):  # two cities against one knight: the barbarians will win
        g.place(p, "city", sorted(g.placed[g.kind_id["settlement"]][p])[0])
    g.ext["cities_knights"]["barbarians"] = 6
    g.deal(0, {Resource.ORE: 1, Resource.WOOL: 1, Resource.GRAIN: 1})
    return g


for seed in range(1, 200):  # the next roll (seat 1's) shows a ship and no 7
    probe = position(seed)
    probe.play(EndTurn())
    probe.play(RollDice())
    if probe.dice_history[-1][2] <= 3 and sum(probe.dice_history[-1][:2]) != 7:
        break
g = position(seed)
table = GameTable(g, seats=["human"] * 4, bot_delay=None)
table
'''

FILL_JS = """
([traceName]) => {
  const gd = document.querySelector('.catan-table .js-plotly-plot');
  const trace = gd && gd.data ? gd.data.find(d => d.name === traceName) : null;
  const c = trace && trace.marker ? trace.marker.color : null;
  return Array.isArray(c) ? c[0] : c;
}
"""


def _until(check, what: str, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while not check():
        assert time.time() < deadline, what
        time.sleep(0.2)


def test_a_knight_hired_and_activated_and_an_attack_resolved_by_clicks():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with jupyterlab([], extra={"cities_knights.ipynb": one_cell_notebook(SETUP)}) as (url, _root), browser_page() as page:
        page.goto(f"{url}/lab/tree/cities_knights.ipynb")
        run_all_cells(page, ".catan-table .js-plotly-plot")
        page.wait_for_selector(".catan-status", timeout=30_000)
        # Hire: click a ringed intersection on seat 0's roads.
        assert page.evaluate(TRACE_COUNT_JS, ["cities_knights:knights"]) == 0
        click_at(page, point_of(page, PLOT_POINT_JS, ["cities_knights:hire", 0]))
        _until(lambda: page.evaluate(TRACE_COUNT_JS, ["cities_knights:knights"]) == 1, "no knight after the click")
        assert page.evaluate(FILL_JS, ["cities_knights:knights"]) == "white"  # hollow: inactive
        page.screenshot(path=str(OUTPUT / "ck-01-hired.png"))
        # Activate: click the knight (its only move now).
        click_at(page, point_of(page, PLOT_POINT_JS, ["cities_knights:knights", 0]))
        _until(lambda: page.evaluate(FILL_JS, ["cities_knights:knights"]) != "white", "the knight stayed inactive")
        _until(lambda: "activated the knight" in page.inner_text(".catan-log"), "the log never told the activation")
        page.screenshot(path=str(OUTPUT / "ck-02-active.png"))
        # End the turn; seat 1 rolls a ship: the barbarians land (2 cities against 1 knight).
        page.click(".catan-end-turn")
        _until(lambda: "rolls the dice" in page.inner_text(".catan-status"), "seat 1 never came to roll")
        page.click(".catan-roll")
        _until(lambda: "loses a city" in page.inner_text(".catan-status"), "no city lost to the barbarians")
        page.screenshot(path=str(OUTPUT / "ck-03-attack.png"))
        # Each loser picks the city from the table's list of moves, then presses Play.
        for _ in range(2):
            _until(lambda: page.locator(".catan-special select option").count() > 0, "no city to choose")
            page.click(".catan-special-play")
            time.sleep(0.5)
        _until(lambda: "trades and builds" in page.inner_text(".catan-status"), "the attack never resolved")
        text = page.inner_text(".catan-table")
        assert "attacks so far 1" in text and "pillaged" in page.inner_text(".catan-log")
        page.screenshot(path=str(OUTPUT / "ck-04-resolved.png"))

"""Real browser, busy machine: every table notebook draws its board and fits at 1024x700 (issue 37).

Each notebook with a game table (02, 17, the Cities & Knights and Seafarers tables the README builds,
and lesson 18's figures) is opened in JupyterLab with the file browser open while two processes keep
the CPU busy, run with Run All, and measured (``geometry.py``): every plotly figure on the page has its
traces (item 1: blank boards when plotly's widget code loaded slowly), every card holds its content, no
control is under 24 px high, the parts of the action bar do not overlap, neighbouring hexes are at
least 60 px apart (item 4).  Screenshots: ``test-output/browser/busy-<notebook>-<size>-<run>.png``.

CI runs each notebook once at 1024x700 (about a minute each); ``-m on_demand`` adds 1400x900 and
``CATAN_NB_BUSY_RUNS`` (default 3 on demand) page loads per notebook.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from .geometry import TABLE_JS, busy, problems
from .lab import CHROMIUM, OUTPUT, browser_page, jupyterlab, one_cell_notebook, run_all_cells, wait_cells_done

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]

CK = """
from IPython.display import display
from catan_nb import Board
from catan_nb.rules import Rules
from catan_nb.widgets import GameTable

table = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=1, rules=Rules(modules=("cities_knights",)))
display(table)
# a game played to its end: the scoreboard at its widest (every module column and badge)
over = GameTable(Board.beginner(), seats=["bot:easy"] * 4, seed=3, rules=Rules(modules=("cities_knights",)), bot_delay=None)
assert over.game.is_over
over
"""
SF = """
from catan_nb import Board
from catan_nb.board import BOARDS_DIR
from catan_nb.widgets import GameTable

table = GameTable(Board.load(BOARDS_DIR / "seafarers_islands.json"), seats=["human", "bot", "bot", "bot"], seed=1)
table
"""
NOTEBOOKS = {
    "02_play_a_game.ipynb": None,
    "17_seafarers_fog_and_gold.ipynb": None,
    "18_cities_knights_barbarians.ipynb": None,
    "cities_knights_table.ipynb": CK,
    "seafarers_table.ipynb": SF,
}
#: Every plotly figure on the page, and how many traces plotly.js drew in it.
FIGURES_JS = "() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => (gd.data || []).length)"
SIZES = [pytest.param((1024, 700), id="1024x700"),
         pytest.param((1400, 900), id="1400x900", marks=pytest.mark.on_demand)]


def _runs(request) -> int:
    on_demand = "on_demand" in (request.config.getoption("-m") or "") or os.environ.get("CATAN_NB_ON_DEMAND") == "1"
    return int(os.environ.get("CATAN_NB_BUSY_RUNS", "3" if on_demand else "1"))


def _open(page, url: str, name: str) -> None:
    page.goto(f"{url}/lab/tree/{name}")
    # a plain plotly figure is drawn on the output element itself, a FigureWidget or a table inside it
    run_all_cells(page, ".jp-OutputArea-output.js-plotly-plot, .jp-OutputArea-output .js-plotly-plot", timeout=420,
                  state="attached")
    wait_cells_done(page, timeout=420)
    if not page.locator(".jp-FileBrowser").is_visible():  # as a new user has it
        page.keyboard.press("Control+Shift+F")
        page.wait_for_selector(".jp-FileBrowser", state="visible", timeout=10_000)


def _figures_drawn(page, timeout: float = 90) -> list[int]:
    """The traces of every figure, once plotly.js has drawn them all (or the timeout passed)."""
    deadline = time.time() + timeout
    while True:
        counts = page.evaluate(FIGURES_JS)
        if (counts and all(counts)) or time.time() > deadline:
            return counts
        time.sleep(1.0)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_every_table_notebook_draws_and_fits_on_a_busy_machine(name, size, request):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    label = f"busy-{Path(name).stem}-{size[0]}x{size[1]}"
    extra = {name: one_cell_notebook(NOTEBOOKS[name])} if NOTEBOOKS[name] else None
    found, report = [], []
    with busy(2), jupyterlab([] if extra else [name], extra=extra) as (url, _root):
        for run in range(_runs(request)):
            with browser_page(viewport=size) as page:
                _open(page, url, name)
                counts = _figures_drawn(page)
                tables = page.evaluate("() => document.querySelectorAll('.catan-table').length")
                for i in range(tables):
                    page.evaluate(f"() => document.querySelectorAll('.catan-table')[{i}].scrollIntoView({{block: 'start'}})")
                    time.sleep(1.0)
                    root = f".catan-table.t{i}"
                    page.evaluate(f"() => document.querySelectorAll('.catan-table')[{i}].classList.add('t{i}')")
                    geo = page.evaluate(TABLE_JS, [root])
                    found += problems(geo, f"{label} run {run} table {i}")
                    report.append({"run": run, "table": i, "traces": geo and geo["traces"], "gap": geo and geo["gap"],
                                   "board": geo and geo["board"]})
                page.screenshot(path=str(OUTPUT / f"{label}-{run}.png"))
                report.append({"run": run, "figures": counts})
                if not counts or not all(counts):
                    found.append(f"{label} run {run}: a figure without traces: {counts}")
    (OUTPUT / f"{label}.json").write_text(json.dumps(report, indent=1))
    assert not found, "\n".join(found)

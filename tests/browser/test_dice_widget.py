"""Real browser: the dice notebook in JupyterLab, in Debian's chromium driven by Playwright.

Runs notebooks/21_dice_game_stopping.ipynb, rolls, keeps a die, rolls again, and checks
the result on the page and in the engine (through the table's Save button and
the engine's JSON).  Screenshots go to test-output/browser/ (ignored by git).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .lab import CHROMIUM, OUTPUT, browser_page, jupyterlab, run_all_cells

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]

NOTEBOOK = "21_dice_game_stopping.ipynb"


def text(page, selector: str) -> str:
    return page.inner_text(f".dg-table {selector}").strip()


def wait_text(page, selector: str, ok, timeout: float = 60) -> str:
    deadline = time.time() + timeout
    last = ""
    while time.time() < deadline:
        last = text(page, selector)
        if ok(last):
            return last
        time.sleep(0.25)
    raise AssertionError(f"{selector} never matched; last text {last!r}")


def test_dice_notebook_keep_a_die_and_roll():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with jupyterlab([NOTEBOOK]) as (url, root), browser_page() as page:
        page.goto(f"{url}/lab/tree/{NOTEBOOK}")
        run_all_cells(page, ".dg-table .js-plotly-plot")
        page.wait_for_selector(".dg-table .dg-roll", timeout=30_000)
        page.locator(".dg-table .dg-track").scroll_into_view_if_needed()
        page.screenshot(path=str(OUTPUT / "dice-01-opened.png"))
        assert "Roll 6 dice" in text(page, ".dg-roll")

        page.click(".dg-table .dg-roll")
        wait_text(page, ".dg-roll", lambda t: "1/3" in t)
        label = text(page, ".dg-die-0")
        assert label.startswith("1: "), label  # dice are numbered from 1, as players count
        first = label[3:]
        assert first in {"lumber", "brick", "wool", "grain", "ore", "gold"}
        page.screenshot(path=str(OUTPUT / "dice-02-rolled.png"))

        page.click(".dg-table .dg-die-0")
        wait_text(page, ".dg-die-0", lambda t: t.startswith("1: ✓"))
        wait_text(page, ".dg-odds", lambda t: "your choice (keep dice 1)" in t)
        page.screenshot(path=str(OUTPUT / "dice-03-kept.png"))

        page.click(".dg-table .dg-roll")
        wait_text(page, ".dg-roll", lambda t: "2/3" in t)
        assert text(page, ".dg-die-0") == f"1: ✓ {first}"  # the kept die did not change
        page.screenshot(path=str(OUTPUT / "dice-04-rolled-again.png"))

        # The engine state, through the table's own Save button and the engine's JSON.
        from catan_nb.dicegame import DiceGame, Roll
        from catan_nb.errors import SaveFileError

        save = root / "dice_game.json"
        page.click(".dg-table .dg-save")
        deadline = time.time() + 30
        while True:  # the kernel writes the file; wait until it is complete
            try:
                game = DiceGame.load(save)
                break
            except SaveFileError:
                if time.time() > deadline:
                    raise
                time.sleep(0.3)
        rolls = [a for a in game.log if isinstance(a, Roll)]
        assert len(rolls) == 2 and rolls[1].keep == (0,)
        assert str(game.dice[0]) == first and game.rolls == 2
        # the sheet figure is drawn, with the legal builds ringed (or none) and the start road
        n_points = page.evaluate(
            "() => { const gd = document.querySelector('.dg-table .js-plotly-plot');"
            " return gd.data.find(d => d.name === 'structures').x.length; }"
        )
        assert n_points == 16

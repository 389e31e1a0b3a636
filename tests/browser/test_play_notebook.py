"""Real browser: JupyterLab in Debian's chromium, driven by Playwright.

Opens the play notebook, runs it, places a founding settlement and road by
clicking the board, presses a button, and checks the engine state (through the
table's Save button and the engine's JSON) and the drawn figure.
Screenshots go to test-output/browser/ (ignored by git).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .lab import CHROMIUM, OUTPUT, PLOT_POINT_JS, SEGMENT_MID_JS, TRACE_LEN_JS, browser_page, click_at, point_of, jupyterlab, run_all_cells

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]


def status(page) -> str:
    return page.inner_text(".catan-status")


def wait_status(page, text: str, timeout: float = 60) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = status(page)
        if text in s:
            return s
        time.sleep(0.3)
    raise AssertionError(f"status never showed {text!r}; last: {status(page)!r}")


def place_by_click(page, shot_prefix: str) -> None:
    """Click the first highlighted intersection, then the first highlighted path."""
    wait_status(page, "Red places a founding settlement")
    n_before = page.evaluate(TRACE_LEN_JS, ["buildings"])
    for attempt in range(3):
        pt = point_of(page, PLOT_POINT_JS, ["highlight-nodes", attempt])
        click_at(page, pt)
        try:
            wait_status(page, "Red places a road", timeout=30)  # a loaded kernel can be slow to answer
            break
        except AssertionError:
            if "Red places a road" in status(page):
                break
            continue
    else:
        raise AssertionError("the settlement click did not register")
    assert page.evaluate(TRACE_LEN_JS, ["buildings"]) == n_before + 1
    page.screenshot(path=str(OUTPUT / f"{shot_prefix}-settlement.png"))
    for attempt in range(3):
        pt = point_of(page, SEGMENT_MID_JS, ["highlight-paths"])
        click_at(page, pt)
        deadline = time.time() + 30
        while time.time() < deadline and "Red places a road" in status(page):
            time.sleep(0.3)
        if "Red places a road" not in status(page):
            break
    else:
        raise AssertionError("the road click did not register")
    page.screenshot(path=str(OUTPUT / f"{shot_prefix}-road.png"))


def test_play_notebook_founding_by_clicks_then_roll():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with jupyterlab(["02_play_a_game.ipynb"]) as (url, root), browser_page() as page:
        page.goto(f"{url}/lab/tree/02_play_a_game.ipynb")
        run_all_cells(page, ".catan-table .js-plotly-plot")
        page.wait_for_selector(".catan-status", timeout=30_000)
        page.screenshot(path=str(OUTPUT / "01-opened.png"))
        place_by_click(page, "02-first")
        # Bots place their pieces by themselves; then seat 0 places its second pair.
        place_by_click(page, "03-second")
        wait_status(page, "Red rolls the dice", timeout=60)
        assert page.evaluate(TRACE_LEN_JS, ["buildings"]) == 8
        page.click(".catan-roll")
        deadline = time.time() + 30
        while time.time() < deadline and "not rolled yet" in page.inner_text(".catan-dice"):
            time.sleep(0.3)
        assert "not rolled yet" not in page.inner_text(".catan-dice")
        page.screenshot(path=str(OUTPUT / "04-rolled.png"))
        # The engine state, through the table's own Save button and the engine's JSON.
        save = root / "catan_game.json"
        page.click(".catan-save")
        from catan_nb import Game, SaveFileError

        deadline = time.time() + 30
        while True:  # the kernel writes the file; wait until it is complete
            try:
                game = Game.from_json(save.read_text())
                break
            except (OSError, SaveFileError):
                if time.time() > deadline:
                    raise
                time.sleep(0.3)
        assert game.n_settlements[0] == 2 and len(game.roads[0]) == 2
        assert sum(game.n_settlements) == 8
        assert len(game.dice_history) >= 1

"""Real browser: the dice lab of lesson 10 in JupyterLab, in Debian's chromium driven by Playwright.

Opens notebooks/10_dice_and_large_numbers.ipynb, runs every cell, presses the
dice lab's buttons and reads the drawn histogram back from the plotly div.
Screenshots go to test-output/browser/ (ignored by git).
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

NOTEBOOK = "10_dice_and_large_numbers.ipynb"

#: What the browser drew: rolls counted by the histogram (its customdata) and the bar heights.
HISTOGRAM_JS = """
() => {
  const gd = document.querySelector('.dicelab .js-plotly-plot');
  if (!gd || !gd.data) return null;
  const t = gd.data.find(d => d.name === 'rolled');
  if (!t || !t.customdata) return null;
  const counts = Array.from(t.customdata, Number);
  return {rolls: counts.reduce((a, b) => a + b, 0), counts: counts, shares: Array.from(t.y, Number),
          meanPoints: (gd.data.find(d => d.name === 'running mean').x || []).length};
}
"""


def histogram(page) -> dict | None:
    return page.evaluate(HISTOGRAM_JS)


def wait_rolls(page, n: int, timeout: float = 30) -> dict:
    deadline = time.time() + timeout
    h = None
    while time.time() < deadline:
        h = histogram(page)
        if h and h["rolls"] == n:
            return h
        time.sleep(0.3)
    raise AssertionError(f"the histogram never showed {n} rolls; last: {h}")


def test_dice_lab_roll_button_updates_the_histogram():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with jupyterlab([NOTEBOOK]) as (url, root), browser_page() as page:
        page.goto(f"{url}/lab/tree/{NOTEBOOK}")
        run_all_cells(page, ".dicelab .js-plotly-plot")
        page.wait_for_selector(".dicelab-status", timeout=30_000)
        before = wait_rolls(page, 0)
        assert before["shares"] == [0] * 11 and before["meanPoints"] == 0
        page.screenshot(path=str(OUTPUT / "explorers-01-dicelab.png"))

        page.click(".dicelab .dicelab-roll")  # "Roll n" with n = 10 in the lesson
        after = wait_rolls(page, 10)
        assert after["counts"] != before["counts"]
        assert abs(sum(after["shares"]) - 1) < 1e-9
        assert after["meanPoints"] == 10
        assert "10 rolls" in page.inner_text(".dicelab-status")

        page.click(".dicelab .dicelab-roll-many")
        many = wait_rolls(page, 1010)
        assert all(m >= a for m, a in zip(many["counts"], after["counts"]))
        assert "chi-square test" in page.inner_text(".dicelab-chi")
        page.screenshot(path=str(OUTPUT / "explorers-02-dicelab-rolled.png"))

        page.click(".dicelab .dicelab-reset")
        wait_rolls(page, 0)

"""Real browser: the dice lab of lesson 10 in JupyterLab, in Debian's chromium driven by Playwright.

Opens notebooks/10_dice_and_large_numbers.ipynb, runs every cell, presses the
dice lab's buttons and reads the drawn histogram back from the plotly div.
Screenshots go to test-output/browser/ (ignored by git).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .lab import CHROMIUM, OUTPUT, browser_page, jupyterlab, run_all_cells, wait_cells_done

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


PLOT_BOX_JS = """
() => {
  const gd = document.querySelector('.placement-explorer .js-plotly-plot');
  if (!gd || !gd._fullLayout || !gd._fullLayout.xaxis) return null;
  const t = gd.data.find(d => d.name === 'intersections');
  return {x: gd._fullLayout.xaxis._offset, w: gd._fullLayout.xaxis._length,
          y: gd._fullLayout.yaxis._offset, h: gd._fullLayout.yaxis._length,
          bar: t && t.marker && t.marker.colorbar && t.marker.colorbar.title ? t.marker.colorbar.title.text : null};
}
"""


def test_placement_explorer_board_does_not_shift_when_the_metric_changes():
    """Issue 12 item 10: the heat map's colour bar sits in a fixed margin."""
    notebook = "11_expected_value_where_to_build.ipynb"
    with jupyterlab([notebook]) as (url, _root), browser_page() as page:
        page.goto(f"{url}/lab/tree/{notebook}")
        run_all_cells(page, ".placement-explorer .js-plotly-plot")
        wait_cells_done(page)  # the figure fits itself to its box once the kernel handles the view's messages
        time.sleep(2.0)
        page.locator(".placement-explorer").first.scroll_into_view_if_needed()
        deadline = time.time() + 60
        box = None
        while time.time() < deadline and not box:
            box = page.evaluate(PLOT_BOX_JS)
            time.sleep(0.3)
        select = page.locator(".placement-explorer .placement-metric select").first
        seen = [box]
        for label in [o for o in select.locator("option").all_inner_texts() if o][:4]:
            select.select_option(label=label)
            deadline = time.time() + 30
            while time.time() < deadline:
                now = page.evaluate(PLOT_BOX_JS)
                if now and now["bar"] != seen[-1]["bar"]:
                    break
                time.sleep(0.2)
            seen.append(page.evaluate(PLOT_BOX_JS))
        page.screenshot(path=str(OUTPUT / "explorers-03-placement.png"))
        assert len({s["bar"] for s in seen}) >= 3, seen
        assert len({(round(s["x"]), round(s["w"]), round(s["y"]), round(s["h"])) for s in seen}) == 1, seen

"""Real browser: the lessons' widgets in a narrow notebook (issue 25 item 12).

JupyterLab at 1024x700 with its file browser open leaves a notebook about 590 px wide.  There, the
placement explorer of lesson 11 shows its board and its breakdown panel (neither squeezed to
nothing), its openings table scrolls inside a box instead of growing thousands of pixels tall, and
the Dice Game table of lesson 21 keeps its sheet, dice and buttons inside the notebook.
Screenshots go to ``test-output/browser/narrow-*.png``.
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

#: Boxes of a widget's parts (page pixels): the output area it is in, its figures, visible buttons, and
#: the parts named by CSS class.
GEOMETRY_JS = """
([root, parts]) => {
  const r = el => { if (!el) return null; const b = el.getBoundingClientRect();
    return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height}; };
  const w = document.querySelector(root);
  const area = w.closest('.jp-OutputArea-output');
  const out = {area: r(area), figures: [...w.querySelectorAll('.js-plotly-plot')].map(r),
    buttons: [...w.querySelectorAll('button')].filter(b => b.offsetParent !== null).map(b => ({text: b.innerText, ...r(b)}))};
  for (const p of parts) out[p] = r(w.querySelector(p));
  return out;
}
"""


def _open_file_browser(page) -> None:
    if not page.locator(".jp-FileBrowser").is_visible():
        page.keyboard.press("Control+Shift+F")
        page.wait_for_selector(".jp-FileBrowser", state="visible", timeout=10_000)


def _inside(geo: dict, label: str) -> None:
    area = geo["area"]
    assert area["width"] < 700, (label, "the notebook is narrow with the file browser open", area)
    for f in geo["figures"]:
        assert f["left"] >= area["left"] - 1 and f["right"] <= area["right"] + 1, (label, "figure cut", f, area)
    for b in geo["buttons"]:
        assert b["left"] >= area["left"] - 1 and b["right"] <= area["right"] + 1, (label, "button off the side", b)


def test_the_lessons_widgets_fit_a_narrow_notebook():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    placement, dice = "11_expected_value_where_to_build.ipynb", "21_dice_game_stopping.ipynb"
    with jupyterlab([placement, dice]) as (url, _root), browser_page(viewport=(1024, 700)) as page:
        page.goto(f"{url}/lab/tree/{placement}")
        run_all_cells(page, ".placement-explorer .js-plotly-plot")
        wait_cells_done(page)
        _open_file_browser(page)
        page.locator(".placement-explorer").first.scroll_into_view_if_needed()
        time.sleep(1.5)
        parts = [".catan-figure-box", ".catan-beside-panel", ".placement-openings", ".placement-breakdown"]
        geo = page.evaluate(GEOMETRY_JS, [".placement-explorer", parts])
        page.screenshot(path=str(OUTPUT / "narrow-placement.png"))
        _inside(geo, "placement")
        assert geo[".catan-beside-panel"]["width"] >= 250, ("the breakdown panel has room", geo)
        assert geo[".catan-figure-box"]["width"] >= 280, geo
        assert geo[".placement-openings"]["height"] <= 420, ("the openings table scrolls", geo[".placement-openings"])

        page.goto(f"{url}/lab/tree/{dice}")
        run_all_cells(page, ".dg-table .js-plotly-plot")
        wait_cells_done(page)
        _open_file_browser(page)
        page.wait_for_selector(".dg-table .dg-roll", timeout=30_000)
        page.click(".dg-table .dg-roll")
        deadline = time.time() + 60
        while "1/3" not in page.inner_text(".dg-table .dg-roll"):
            assert time.time() < deadline, page.inner_text(".dg-table .dg-roll")
            time.sleep(0.25)
        page.locator(".dg-table .dg-die-0").scroll_into_view_if_needed()
        time.sleep(1.0)
        geo = page.evaluate(GEOMETRY_JS, [".dg-table", [".dg-track", ".dg-odds"]])
        page.screenshot(path=str(OUTPUT / "narrow-dice-game.png"))
        _inside(geo, "dice game")
        for part in (".dg-track", ".dg-odds"):
            box = geo[part]
            assert box["right"] <= geo["area"]["right"] + 1, (part, box)

"""Real browser: the game table on a laptop screen and on a large one (issue 12).

JupyterLab with its file browser open, at 1024x700 and at 1600x1000:

* nothing is clipped: the board, the action bar, the side cards and every visible button lie inside
  the notebook's horizontal extent (the page scrolls vertically), and no button's label is cut;
* the board grows with the window; the action bar (status line, dice, the turn's buttons) stays
  beside it at both sizes, and with the table scrolled to its top the board, the status line and
  the buttons are all on screen together: a whole turn needs no scrolling (issue 25 item 12);
* a whole human turn by clicks: two founding placements on the board, a roll, the end of the turn;
* the click-to-visible latency of a build and of a roll is measured in the browser and printed
  (also written to ``test-output/browser/latency-<size>.json``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .lab import (CHROMIUM, OUTPUT, PLOT_POINT_JS, SEGMENT_MID_JS, TRACE_LEN_JS, browser_page, click_at,
                  jupyterlab, point_of, run_all_cells)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]

#: Geometry of the table's parts and of every visible button, in page pixels.
GEOMETRY_JS = """
() => {
  const r = el => { const b = el.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height}; };
  const table = document.querySelector('.catan-table');
  const area = table.closest('.jp-OutputArea-output') || table.parentElement;
  const buttons = [...table.querySelectorAll('button')].filter(b => b.offsetParent !== null).map(b => ({
    text: b.innerText.trim(), ...r(b), cut: b.scrollWidth > b.clientWidth + 1}));
  return {viewport: {width: window.innerWidth, height: window.innerHeight}, area: r(area), table: r(table),
          board: r(table.querySelector('.catan-board .js-plotly-plot')), side: r(table.querySelector('.catan-side')),
          action: r(table.querySelector('.catan-action')), status: r(table.querySelector('.catan-status')),
          legend: r(table.querySelector('.catan-legend')),
          turn: [...table.querySelectorAll('.catan-action .catan-btn')].filter(b => b.offsetParent !== null).map(r),
          log: r(table.querySelector('.catan-log')), buttons};
}
"""

DICE_JS = "() => (document.querySelector('.catan-dice') || {innerText: ''}).innerText"


def _status(page) -> str:
    return page.inner_text(".catan-status")


def _wait_status(page, text: str, timeout: float = 90) -> None:
    deadline = time.time() + timeout
    while text not in _status(page):
        assert time.time() < deadline, f"waited for {text!r}; status: {_status(page)!r}"
        time.sleep(0.2)


def _check_nothing_clipped(geo: dict, label: str) -> None:
    area = geo["area"]
    right = min(area["right"], geo["viewport"]["width"])
    for part, least in (("board", 440), ("side", 250), ("action", 300)):
        box = geo[part]
        assert box["width"] >= least, (label, part, box)
        assert box["left"] >= area["left"] - 1 and box["right"] <= right + 1, (label, part, box, area)
    for b in geo["buttons"]:
        assert b["right"] <= right + 1 and b["left"] >= area["left"] - 1, (label, "button off the side", b)
        assert not b["cut"], (label, "button label cut", b)
    assert geo["log"]["height"] <= 260, (label, "the log grows instead of scrolling", geo["log"])


def _check_a_turn_on_one_screen(geo: dict, label: str, wide: bool) -> None:
    """The board, the status line and the action bar's buttons on screen together: the action bar beside
    the board on a wide screen, above it on a narrow one."""
    height = geo["viewport"]["height"]
    board, action = geo["board"], geo["action"]
    if wide:
        assert action["left"] >= board["right"] - 1, (label, "the action bar is beside the board", board, action)
    else:
        assert action["bottom"] <= board["top"] + 1, (label, "the action bar is above the board", board, action)
    assert board["top"] >= 0 and board["bottom"] <= height + 1, (label, "the whole board on screen", board)
    assert geo["status"]["top"] >= 0 and geo["status"]["bottom"] <= height, (label, "status on screen", geo["status"])
    for b in geo["turn"]:
        assert 0 <= b["top"] and b["bottom"] <= height, (label, "a button of the turn off the screen", b)


def _build_latency(page) -> float:
    """Click a highlighted intersection; seconds until the new building is drawn."""
    n = page.evaluate(TRACE_LEN_JS, ["buildings"])
    pt = point_of(page, PLOT_POINT_JS, ["highlight-nodes", 0])
    page.mouse.move(pt["x"], pt["y"])
    time.sleep(0.25)
    page.mouse.move(pt["x"] + 0.5, pt["y"] + 0.5)
    time.sleep(0.25)
    t0 = time.perf_counter()
    page.mouse.click(pt["x"] + 0.5, pt["y"] + 0.5)
    page.wait_for_function(f"() => ({TRACE_LEN_JS})(['buildings']) > {n}", timeout=30_000, polling="raf")
    return time.perf_counter() - t0


def _place_road(page) -> None:
    for _ in range(3):
        click_at(page, point_of(page, SEGMENT_MID_JS, ["highlight-paths"]))
        deadline = time.time() + 30
        while time.time() < deadline and "Red places a road" in _status(page):
            time.sleep(0.2)
        if "Red places a road" not in _status(page):
            return
    raise AssertionError("the road click did not register: " + _status(page))


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)], ids=["1024x700", "1600x1000"])
def test_table_fits_and_plays_a_turn(size):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    label = f"{size[0]}x{size[1]}"
    with jupyterlab(["02_play_a_game.ipynb"]) as (url, _root), browser_page(viewport=size) as page:
        page.goto(f"{url}/lab/tree/02_play_a_game.ipynb")
        run_all_cells(page, ".catan-table .js-plotly-plot")
        page.wait_for_selector(".catan-status", timeout=30_000)
        # The file browser is open, as a new user has it.
        if not page.locator(".jp-FileBrowser").is_visible():
            page.keyboard.press("Control+Shift+F")
            page.wait_for_selector(".jp-FileBrowser", state="visible", timeout=10_000)
        top = "() => document.querySelector('.catan-table').scrollIntoView({block: 'start'})"
        page.evaluate(top)
        time.sleep(1.0)
        geo = page.evaluate(GEOMETRY_JS)
        page.screenshot(path=str(OUTPUT / f"table-{label}.png"))
        _check_nothing_clipped(geo, label)
        _check_a_turn_on_one_screen(geo, label, wide=size[0] >= 1600)
        if size[0] >= 1600:
            assert geo["board"]["width"] >= 600, ("the board grows with the window", geo)
        # A whole human turn by clicks.
        _wait_status(page, "Red places a founding settlement")
        latencies = {"build": [], "roll": []}
        for _ in range(2):
            _wait_status(page, "Red places a founding settlement", timeout=120)
            latencies["build"].append(_build_latency(page))
            _wait_status(page, "Red places a road")
            _place_road(page)
        _wait_status(page, "Red rolls the dice", timeout=180)
        before = page.evaluate(DICE_JS)
        t0 = time.perf_counter()
        page.click(".catan-roll")
        page.wait_for_function(f"() => ({DICE_JS})() !== {json.dumps(before)}", timeout=30_000, polling="raf")
        latencies["roll"].append(time.perf_counter() - t0)
        deadline = time.time() + 60
        while "Red trades and builds" not in _status(page):
            if "moves the robber" in _status(page) or "discards" in _status(page):
                break  # a 7 on the first roll: the turn goes on through the robber (covered elsewhere)
            assert time.time() < deadline, _status(page)
            time.sleep(0.2)
        page.evaluate(top)
        time.sleep(0.5)
        geo = page.evaluate(GEOMETRY_JS)
        page.screenshot(path=str(OUTPUT / f"table-{label}-main.png"))
        _check_nothing_clipped(geo, label + " after the roll")
        _check_a_turn_on_one_screen(geo, label + " after the roll", wide=size[0] >= 1600)
        if "Red trades and builds" in _status(page):
            page.click(".catan-end-turn")
            _wait_status(page, "is playing", timeout=30)
        figures = {k: [round(v * 1000) for v in vs] for k, vs in latencies.items()}
        (OUTPUT / f"latency-{label}.json").write_text(json.dumps(figures))
        print(f"click-to-visible at {label} (ms): build {figures['build']}, roll {figures['roll']}")

"""The README's Voila command serves the play notebook as an app, and the board is playable there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .lab import CHROMIUM, OUTPUT, PLOT_POINT_JS, TRACE_LEN_JS, browser_page, click_at, point_of, voila

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]


def test_voila_app_renders_and_takes_a_click():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with voila("02_play_a_game.ipynb") as (url, _root), browser_page() as page:
        page.goto(url, timeout=120_000)
        page.wait_for_selector(".catan-table .js-plotly-plot", timeout=240_000)
        page.wait_for_selector(".catan-status", timeout=30_000)
        assert "place a founding settlement" in page.inner_text(".catan-status")
        before = page.evaluate(TRACE_LEN_JS, ["buildings"])
        for attempt in range(3):
            click_at(page, point_of(page, PLOT_POINT_JS, ["highlight-nodes", attempt]))
            deadline = time.time() + 30
            while time.time() < deadline and page.evaluate(TRACE_LEN_JS, ["buildings"]) == before:
                time.sleep(0.3)
            if page.evaluate(TRACE_LEN_JS, ["buildings"]) > before:
                break
        assert page.evaluate(TRACE_LEN_JS, ["buildings"]) == before + 1
        assert "founding road" in page.inner_text(".catan-status")
        page.screenshot(path=str(OUTPUT / "voila.png"))

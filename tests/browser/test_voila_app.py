"""The README's app command (`catan-nb app`, Voila) serves the game table, offline, and the board is playable there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .lab import CHROMIUM, OUTPUT, PLOT_POINT_JS, TRACE_LEN_JS, browser_page, catan_app, click_at, point_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]


def test_voila_app_renders_and_takes_a_click():
    """Issue 12 item 8: the app is the table only, and nothing leaves loopback (it works offline)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with catan_app() as (url, _root), browser_page(offline=True) as page:
        console = []
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        page.goto(url, timeout=120_000)
        page.wait_for_selector(".catan-table .js-plotly-plot", timeout=240_000)
        page.wait_for_selector(".catan-status", timeout=30_000)
        assert "Red places a founding settlement" in page.inner_text(".catan-status")
        before = page.evaluate(TRACE_LEN_JS, ["buildings"])
        for attempt in range(3):
            click_at(page, point_of(page, PLOT_POINT_JS, ["highlight-nodes", attempt]))
            deadline = time.time() + 30
            while time.time() < deadline and page.evaluate(TRACE_LEN_JS, ["buildings"]) == before:
                time.sleep(0.3)
            if page.evaluate(TRACE_LEN_JS, ["buildings"]) > before:
                break
        assert page.evaluate(TRACE_LEN_JS, ["buildings"]) == before + 1
        assert "Red places a road" in page.inner_text(".catan-status")
        page.screenshot(path=str(OUTPUT / "voila.png"))
        assert page.blocked == [], f"requests that would leave the machine: {page.blocked}"
        body = page.inner_text("body")
        assert "Goal" not in body and "print(" not in body and "Traceback" not in body, body[:500]
        assert page.locator(".jp-RenderedMarkdown").count() == 0  # no notebook prose in the app
        noisy = [c for c in console if "_xsrf" in c or "fontawesome" in c.lower() or "font-awesome" in c.lower()]
        assert not noisy, noisy

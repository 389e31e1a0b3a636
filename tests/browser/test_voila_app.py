"""The README's app command (`catan-nb app`, Voila) serves the game table, offline, and the board is playable there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .lab import CHROMIUM, OUTPUT, PLOT_POINT_JS, TRACE_LEN_JS, browser_page, catan_app, click_at, free_port, point_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]


def test_voila_app_renders_and_takes_a_click():
    """Issue 12 item 8: the app is the table only, and nothing leaves loopback (it works offline)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with catan_app() as (url, _root), browser_page(viewport=(1600, 1000), offline=True) as page:
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
        # issue 25 item 13: the legend is whole, under the board (HTML, not inside the figure's margin)
        box = page.evaluate("""() => { const r = s => document.querySelector(s).getBoundingClientRect();
            const l = r('.catan-legend'), b = r('.catan-board .js-plotly-plot');
            const el = document.querySelector('.catan-legend');
            return {top: l.top, bottom: l.bottom, height: l.height, board: b.bottom, cut: el.scrollHeight > el.clientHeight + 1,
                    text: el.innerText}; }""")
        assert box["top"] >= box["board"] - 1 and box["height"] > 10 and not box["cut"], box
        assert "Orange" in box["text"] and "forest" in box["text"], box
        assert page.blocked == [], f"requests that would leave the machine: {page.blocked}"
        body = page.inner_text("body")
        assert "Goal" not in body and "print(" not in body and "Traceback" not in body, body[:500]
        assert page.locator(".jp-RenderedMarkdown").count() == 0  # no notebook prose in the app
        noisy = [c for c in console if "_xsrf" in c or "fontawesome" in c.lower() or "font-awesome" in c.lower()]
        assert not noisy, noisy


def test_sigterm_stops_the_app_with_voila_and_its_kernels(tmp_path):
    """Issue 25 item 13: `catan-nb app` stopped by SIGTERM stops Voila and the kernel it started."""
    from catan_nb.cli import _alive, descendants

    port = free_port()
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "HOME", "IPYTHONDIR"):
        (tmp_path / var).mkdir()
        env[var] = str(tmp_path / var)
    code = ("from catan_nb.cli import main; raise SystemExit(main(['app', '--no-browser', '--port', "
            f"'{port}']))")
    app = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        page = ""
        while time.time() < deadline and "catan" not in page:
            try:  # Voila runs the app notebook in a kernel to answer this request
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=120).read().decode()
            except OSError:
                assert app.poll() is None, "the app ended"
                time.sleep(0.5)
        assert "catan" in page
        tree = descendants(app.pid)
        kernels = [p for p in tree if "ipykernel" in Path(f"/proc/{p}/cmdline").read_text()]
        assert len(tree) >= 2 and kernels, ("Voila and a kernel run under the app", tree)
        app.send_signal(signal.SIGTERM)
        assert app.wait(timeout=40) == 0
        survivors = [p for p in tree if _alive(p)]
        assert not survivors, [Path(f"/proc/{p}/cmdline").read_text() for p in survivors]
    finally:
        if app.poll() is None:
            app.kill()

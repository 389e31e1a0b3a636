"""Start JupyterLab on loopback for browser tests, and drive Debian's chromium with Playwright.

See shared/JUPYTER.md for the traps this avoids (fresh config dirs, announcements
toast, clicking plotly points with a real mouse event, no `playwright install`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output" / "browser"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _server(kind: str, notebooks: list[str], argv, env_extra: dict | None = None, extra: dict | None = None):
    """Run a Jupyter server of some kind on 127.0.0.1 over copies of ``notebooks``.

    ``argv(port, root)`` gives the command line.  Fresh config, data, runtime and
    home folders keep the test away from the user's settings.  Yields (url, root).
    """
    tmp = Path(tempfile.mkdtemp(prefix=f"catan-{kind}-"))
    root = tmp / "nb"
    root.mkdir()
    for name in notebooks:
        shutil.copy(ROOT / "notebooks" / name, root / name)
    for name, text in (extra or {}).items():  # notebooks a test writes itself (a prepared position)
        (root / name).write_text(text, encoding="utf-8")
    env = dict(os.environ)
    env.update(env_extra or {})
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("HOME", "home"), ("IPYTHONDIR", "ipython")):
        (tmp / sub).mkdir()
        env[var] = str(tmp / sub)
    (tmp / "config" / "labconfig").mkdir()
    (tmp / "config" / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    port = free_port()
    log_path = tmp / f"{kind}.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(argv(port, root), env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    try:
        deadline = time.time() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"{kind} did not start: {log_path.read_text()[-2000:]}")
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}", root
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def jupyterlab(notebooks: list[str], extra: dict | None = None):
    """A JupyterLab server on 127.0.0.1 serving copies of ``notebooks`` (and ``extra`` {name: text});
    yields (url, root_dir)."""
    return _server(
        "lab",
        notebooks,
        lambda port, root: [
            sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={port}",
            "--ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}",
            "--ServerApp.disable_check_xsrf=True",
        ],
        extra=extra,
    )


def catan_app():
    """``catan-nb app`` (the game table, the offline Voila template) on 127.0.0.1; yields (url, root_dir)."""
    from catan_nb.cli import app_command

    _, env = app_command()
    return _server(
        "voila",
        [],
        lambda port, root: app_command(port=port, extra=["--no-browser", "--Voila.ip=127.0.0.1",
                                                          "--ServerApp.token="])[0],
        env_extra={"JUPYTER_PATH": env["JUPYTER_PATH"]},
    )


def voila(notebook: str):
    """Serve one notebook as an app with Voila on 127.0.0.1; yields (url, root_dir)."""
    return _server(
        "voila",
        [notebook],
        lambda port, root: [
            sys.executable, "-m", "voila", str(root / notebook), "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--ServerApp.token=",
        ],
    )


@contextlib.contextmanager
def browser_page(viewport: tuple[int, int] = (1500, 1100), offline: bool = False):
    """A Playwright page in Debian's chromium (never `playwright install`).

    ``offline=True`` aborts every request that would leave loopback and records it in
    ``page.blocked`` (a list of URLs).
    """
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="catan-chromium-")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": viewport[0], "height": viewport[1]},
        )
        try:
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.blocked = []
            if offline:
                def _route(route):
                    host = urlsplit(route.request.url).hostname or ""
                    if route.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
                        route.continue_()
                    else:
                        page.blocked.append(route.request.url)
                        route.abort()

                ctx.route("**/*", _route)
            yield page
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


def dismiss_dialogs(page, settle: float = 1.0) -> list[str]:
    """Close any JupyterLab dialog that would catch the next click, and return what each said.

    A page opened after another notebook ran may ask first (a kernel to pick, a file changed on disk, a
    workspace restored with the earlier notebook): the dialog's default button answers it, as a person who
    presses Enter would.  The texts are kept on ``page.dialogs`` and printed, so a failing run shows them.
    """
    seen = []
    end = time.time() + settle
    while True:
        dialog = page.locator(".jp-Dialog")
        if dialog.count():
            text = " ".join(dialog.first.inner_text().split())
            seen.append(text)
            print(f"[browser] dismissing a JupyterLab dialog: {text[:200]}")
            accept = dialog.first.locator("button.jp-mod-accept")
            if accept.count():
                accept.first.click(timeout=10_000)
            else:
                page.keyboard.press("Escape")
            time.sleep(0.5)
            end = time.time() + settle
            continue
        if time.time() >= end:
            break
        time.sleep(0.25)
    page.dialogs = getattr(page, "dialogs", []) + seen
    return seen


def run_all_cells(page, ready_selector: str, timeout: float = 240, state: str = "visible") -> None:
    """Run the open notebook through the menu (Run, then Run All Cells) until ``ready_selector`` shows.

    Waits for the kernel to be idle first; runs again once if the output never appears.  ``state="attached"``
    waits for the output to be on the page only: Run All leaves the view at the last cell, and JupyterLab does
    not lay out the cells far above it (a lesson that ends in text has its figures out of view).
    """
    page.wait_for_selector(".jp-CodeCell .jp-InputArea-editor", timeout=120_000)
    page.wait_for_selector("text=| Idle", timeout=180_000)
    deadline = time.time() + timeout
    for attempt in range(2):
        try:
            dismiss_dialogs(page)
            page.get_by_role("menuitem", name="Run", exact=True).click(timeout=30_000)
            page.get_by_role("menuitem", name="Run All Cells", exact=True).first.click(timeout=30_000)
            page.wait_for_selector(ready_selector, timeout=max(1.0, (deadline - time.time()) / (2 - attempt)) * 1000,
                                   state=state)
            return
        except Exception:
            page.screenshot(path=str(OUTPUT / f"run-all-attempt-{attempt}.png"))
            if attempt:
                raise


def wait_cells_done(page, timeout: float = 300) -> None:
    """Wait until no cell of the open notebook is queued or running (no ``[*]`` prompt): a widget's first
    messages are handled by the kernel only once the cells after it have run."""
    page.wait_for_function(
        "() => ![...document.querySelectorAll('.jp-InputPrompt')].some(p => p.innerText.includes('[*]'))",
        timeout=timeout * 1000, polling=500)


PLOT_POINT_JS = """
([traceName, pointIndex]) => {
  const gd = document.querySelector('.catan-table .js-plotly-plot');
  if (!gd || !gd.data || !gd._fullLayout || !gd._fullLayout.xaxis) return null;
  const trace = gd.data.find(d => d.name === traceName);
  if (!trace || !trace.x || trace.x.length <= pointIndex) return null;
  let x = trace.x[pointIndex], y = trace.y[pointIndex];
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  const px = box.left + fl.xaxis._offset + fl.xaxis.l2p(x), py = box.top + fl.yaxis._offset + fl.yaxis.l2p(y);
  return (Number.isFinite(px) && Number.isFinite(py)) ? {x: px, y: py} : null;
}
"""

SEGMENT_MID_JS = """
([traceName]) => {
  const gd = document.querySelector('.catan-table .js-plotly-plot');
  if (!gd || !gd.data || !gd._fullLayout || !gd._fullLayout.xaxis) return null;
  const trace = gd.data.find(d => d.name === traceName);
  if (!trace || !trace.x || trace.x.length < 2) return null;
  const x = (trace.x[0] + trace.x[1]) / 2, y = (trace.y[0] + trace.y[1]) / 2;
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  const px = box.left + fl.xaxis._offset + fl.xaxis.l2p(x), py = box.top + fl.yaxis._offset + fl.yaxis.l2p(y);
  return (Number.isFinite(px) && Number.isFinite(py)) ? {x: px, y: py} : null;
}
"""

TRACE_LEN_JS = """
([traceName]) => {
  const gd = document.querySelector('.catan-table .js-plotly-plot');
  const trace = gd && gd.data ? gd.data.find(d => d.name === traceName) : null;
  return trace && trace.x ? trace.x.length : 0;
}
"""

#: Points of a trace that are drawn (``null`` separates line segments).
TRACE_COUNT_JS = """
([traceName]) => {
  const gd = document.querySelector('.catan-table .js-plotly-plot');
  const trace = gd && gd.data ? gd.data.find(d => d.name === traceName) : null;
  return trace && trace.x ? trace.x.filter(x => x !== null).length : 0;
}
"""


def one_cell_notebook(source: str) -> str:
    """A notebook (JSON text) with one code cell, for a test that sets up its own position."""
    cell = {"cell_type": "code", "execution_count": None, "id": "setup", "metadata": {}, "outputs": [],
            "source": source.strip().splitlines(True)}
    return json.dumps({"cells": [cell], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                                    "name": "python3"}},
                       "nbformat": 4, "nbformat_minor": 5})


SCROLL_INTO_VIEW_JS = """
() => {
  const gd = document.querySelector('.catan-table .js-plotly-plot');
  if (!gd) return false;
  const box = gd.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth) return false;
  gd.scrollIntoView({block: 'center', inline: 'center'});
  return true;
}
"""


def point_of(page, js: str, args: list, timeout: float = 90) -> dict:
    """Pixel of a plotly point, waiting until plotly has laid the figure out.

    The table is scrolled into view first: a lesson may put it below the first screen,
    and a mouse click outside the viewport lands nowhere.
    """
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.evaluate(SCROLL_INTO_VIEW_JS):
            time.sleep(0.5)
        pt = page.evaluate(js, args)
        if pt and 0 <= pt["x"] < page.viewport_size["width"] and 0 <= pt["y"] < page.viewport_size["height"]:
            return pt
        time.sleep(0.5)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"no-point-{args[0]}.png"))
    raise AssertionError(f"plotly point {args} never got a position")


def click_at(page, pt) -> None:
    """A real mouse click at a pixel: move, let plotly's throttled hover settle, click."""
    page.mouse.move(pt["x"], pt["y"])
    time.sleep(0.25)
    page.mouse.move(pt["x"] + 0.5, pt["y"] + 0.5)
    time.sleep(0.25)
    page.mouse.click(pt["x"] + 0.5, pt["y"] + 0.5)


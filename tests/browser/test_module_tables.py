"""Real browser: a human seat at every expansion's table (issue 25, "How it is checked").

Per module (Seafarers, gold fields, Cities & Knights, New York with the Erie Canal), in JupyterLab at
1024x700 with the file browser open (1600x1000 on demand: ``-m on_demand``), seat 0 is played by
clicks only, the other seats by bots:

* the founding of a new game (New York: its road laid by a click on a red path's rate label, item 8);
* a 7 with a discard through the steppers, then the robber (Seafarers: the pirate) and a victim;
* each piece the module adds: a ship moved (click it, then a ringed destination) and built; a gold
  pick; a knight hired and activated, a city improvement and a progress card; a canal token played;
* Seafarers with fog: a ship reveals a fog hex, and the board and its legend keep their size (item 3).

The 7 and the pieces start from prepared positions (``positions.py``: one notebook cell builds the
three tables).  Screenshots go to ``test-output/browser/<module>-<size>-NN-*.png``, the times per click
to ``test-output/browser/<module>-<size>.json``.

The whole-game runs (Cities & Knights, a Seafarers scenario) are on demand too: ``-m on_demand``.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from .geometry import TABLE_JS, problems
from .human import ON_SEGMENTS_JS, Seat
from .lab import CHROMIUM, browser_page, jupyterlab, one_cell_notebook, run_all_cells, wait_cells_done

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed (.ci/run installs it)"),
]

POSITIONS = Path(__file__).with_name("positions.py")
SIZES = [pytest.param((1024, 700), id="1024x700"),
         pytest.param((1600, 1000), id="1600x1000", marks=pytest.mark.on_demand)]


def _notebook(kind: str) -> str:
    return one_cell_notebook(POSITIONS.read_text() + f"""
from IPython.display import display
for t in tables({kind!r}):
    display(t.widget)
""")


def _open(page, url: str, name: str) -> None:
    page.goto(f"{url}/lab/tree/{name}")
    run_all_cells(page, ".catan-table.t-pieces .js-plotly-plot", timeout=300)
    wait_cells_done(page)
    if not page.locator(".jp-FileBrowser").is_visible():  # as a new user has it
        page.keyboard.press("Control+Shift+F")
        page.wait_for_selector(".jp-FileBrowser", state="visible", timeout=10_000)
    time.sleep(1.0)


def _founding(page, kind: str, label: str) -> Seat:
    s = Seat(page, "t-found", f"{label}-founding")
    if kind == "new_york":  # the first road on a red path, laid by a click on its rate label (item 8)
        s.until(lambda: s.count("highlight-nodes") > 0, "the founding rings", 120)
        ends = page.evaluate(ON_SEGMENTS_JS, [s.root, "highlight-nodes", "corsica_new_york:red-paths"])
        assert ends, "no founding intersection on a red path"
        rates_js = """([root, i]) => { const gd = document.querySelector(root + ' .catan-board .js-plotly-plot');
            const n = gd.data.find(d => d.name === 'highlight-nodes'), r = gd.data.find(d => d.name === 'corsica_new_york:red-paths');
            const x = n.x[i], y = n.y[i]; let seg = 0;
            for (let k = 0; k < r.x.length; k += 3, seg++)
              for (const j of [k, k + 1]) if (Math.abs(r.x[j] - x) < 1e-6 && Math.abs(r.y[j] - y) < 1e-6) return seg;
            return -1; }"""
        seg = page.evaluate(rates_js, [s.root, ends[0]])

        def on_label():
            n = s.count("road:0", parts=True)
            s.click_point("corsica_new_york:rates", seg, then=lambda: s.count("road:0", parts=True) > n,
                          what="the road on the red path", kind="build")

        s.found(node=ends[0], on_path=on_label)
        assert "(red path, SC-8)" in s.log(), s.log()
    else:
        s.found(road_words=("ship",) if kind == "seafarers" else ("road",))
    s.shot("first-settlement-and-road")
    s.found()
    s.wait_status("Red rolls the dice", "rolls the dice", timeout=120)
    s.shot("founded")
    assert s.count("buildings") >= 8
    return s


def _seven(page, kind: str, label: str) -> Seat:
    s = Seat(page, "t-seven", f"{label}-seven")
    d = s.text(".catan-dice")
    s.press(".catan-roll", then=lambda: s.text(".catan-dice") != d, what="the roll", kind="roll")
    s.until(lambda: s.visible(".catan-discard-panel .catan-discard"), "the discard panel")
    s.shot("discard")
    # issue 37 item 2: the discard panel whole (every stepper and the Discard button at least 24 px high,
    # inside its card, clear of the dice row), with the file browser open at 1024 px
    page.evaluate("([root]) => document.querySelector(root + ' .catan-discard-panel').scrollIntoView({block: 'center'})",
                  [s.root])
    time.sleep(0.5)
    found = problems(page.evaluate(TABLE_JS, [s.root]), f"{label} discard")
    assert not found, "\n".join(found)
    steppers = page.evaluate("""([root]) => [...document.querySelectorAll(root + " .catan-discard-panel .widget-hbox[class*='catan-discard-']")]
        .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().height)""", [s.root])
    assert len(steppers) >= 5 and min(steppers) >= 24, steppers
    owed = s.discard()
    assert owed == 4
    status = s.wait_status("robber")
    if kind == "seafarers":
        assert "pirate" in status, status  # SF-10: the status line names both (item 7)
    s.shot("robber-or-pirate")
    s.rob(prefer_pirate=kind == "seafarers")
    s.wait_status("trades and builds")
    log = s.log()
    assert "discarded" in log and ("moved the pirate" in log if kind == "seafarers" else "moved the robber" in log), log
    s.shot("robbed")
    return s


def _pieces(page, kind: str, label: str) -> Seat:
    s = Seat(page, "t-pieces", f"{label}-pieces")
    if kind == "seafarers":
        assert s.count("seafarers:movable") == 1
        s.click_point("seafarers:movable", 0, then=lambda: s.count("seafarers:destinations") > 0,
                      what="the ship's destinations ringed")
        assert "ringed destination" in s.status() and s.visible(".catan-cancel-choice")
        s.shot("ship-destinations")
        s.click_point("seafarers:destinations", 0, then=lambda: "moved a ship" in s.log(), what="the ship moved",
                      kind="move")
        n = s.count("seafarers:boat:0")
        s.click_point("seafarers:ship-targets", 0, then=lambda: s.count("seafarers:boat:0") > n, what="a ship built",
                      kind="build")
        s.shot("ship-moved-and-built")
    elif kind == "gold":
        s.press(".catan-roll", then=lambda: s.visible("[class*='catan-gold-']"), what="the gold pick", kind="roll")
        assert "gold field" in s.status() or "gold field" in s.text(".catan-module-bar")
        s.shot("gold-pick")
        assert s.gold() >= 1
        s.wait_status("trades and builds")
        assert "from a gold field" in s.log(), s.log()
        s.shot("gold-taken")
    elif kind == "cities_knights":
        s.click_point("cities_knights:hire", 0, then=lambda: s.count("cities_knights:knights") == 1,
                      what="a knight hired", kind="build")
        n = len(s.log())
        s.click_point("cities_knights:knights", 0, then=lambda: len(s.log()) != n
                      or s.visible(".catan-choices .catan-choice"), what="the knight's moves")
        s.choose("activate")
        s.until(lambda: "activated the knight" in s.log(), "the knight activated")
        s.shot("knight-active")
        n = len(s.log())
        s.press(".catan-improve-trade", then=lambda: len(s.log()) != n, what="trade improved")
        assert "improved" in s.log() or "trade" in s.log()
        s.select_special("irrigation")
        assert "rrigation" in s.log(), s.log()
        s.shot("improved-and-progress")
    elif kind == "new_york":
        s.select_special("canal")
        assert "played a canal token" in s.log(), s.log()
        s.shot("canal-token")
    return s


FOG_JS = """([root]) => {
  const el = document.querySelector(root), gd = el.querySelector('.catan-board .js-plotly-plot');
  const path = +[...el.classList].find(c => c.startsWith('reveal-')).slice(7);
  const paths = gd.data.find(d => d.name === 'paths');
  const r = e => { const b = e.getBoundingClientRect(); return [Math.round(b.width), Math.round(b.height)]; };
  return {index: Array.from(paths.customdata).indexOf(path), plot: [gd._fullLayout._size.w, gd._fullLayout._size.h],
          board: r(gd), legend: r(el.querySelector('.catan-legend')),
          revealed: gd.data.filter(d => d.name.startsWith('fog:revealed:')).reduce((n, d) => n + (d.x || []).length, 0)};
}"""


def _fog(page, label: str) -> Seat:
    """Item 3 (SF-3): a ship reveals a fog hex; the board and its legend keep their size and place."""
    s = Seat(page, "t-fog", f"{label}-fog")
    before = page.evaluate(FOG_JS, [s.root])
    assert before["index"] >= 0, before
    s.shot("before-the-reveal")
    s.click_point("paths", before["index"], then=lambda: "the fog lifts" in s.log()
                  or s.visible(".catan-choices .catan-choice"), what="the ship next to the fog", kind="build")
    s.choose("ship")
    s.until(lambda: "the fog lifts" in s.log(), "the reveal in the log")
    s.until(lambda: page.evaluate(FOG_JS, [s.root])["revealed"] > before["revealed"], "the revealed hex drawn")
    time.sleep(1.0)
    after = page.evaluate(FOG_JS, [s.root])
    s.shot("after-the-reveal")
    for key in ("plot", "board", "legend"):
        assert after[key] == before[key], (key, before, after)
    return s


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", ["seafarers", "gold", "cities_knights", "new_york"])
def test_a_human_plays_the_modules_pieces_by_clicks(kind, size):
    label = f"{kind}-{size[0]}x{size[1]}"
    name = f"{kind}.ipynb"
    with jupyterlab([], extra={name: _notebook(kind)}) as (url, _root), browser_page(viewport=size) as page:
        _open(page, url, name)
        seats = [_pieces(page, kind, label), _seven(page, kind, label), _founding(page, kind, label)]
        if kind == "seafarers":
            seats.append(_fog(page, label))
        times = {}
        for s in seats:
            for k, v in s.times.items():
                times.setdefault(k, []).extend(v)
        summary = Seat(page, None, label)
        summary.times = times
        data = summary.write(label)
        print(f"{label}: times per click {data['times']}")


# ---------------------------------------------------------------------- whole games, on demand
GAME = """
from catan_nb import Board
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import Rules
from catan_nb.widgets import GameTable

board = {board}
table = GameTable(board, seats=["human", "bot", "bot", "bot"], seed={seed}, rules={rules}, bot_delay=0.0)
table
"""


@pytest.mark.on_demand
@pytest.mark.parametrize("kind", ["cities_knights", "seafarers"])
def test_a_human_finishes_a_whole_game_by_clicks(kind):
    """A whole game to the end, seat 0 by clicks (a random policy among what the table shows), the bots
    between its turns skipped with "Skip to my turn"; the round count and the time per bot round."""
    if kind == "cities_knights":
        src = GAME.format(board="Board.beginner()", seed=11, rules='Rules(modules=("cities_knights",))')
    else:
        src = GAME.format(board='Board.load(BOARDS_DIR / "seafarers_islands.json")', seed=11, rules="Rules.for_board(board)")
    label = f"game-{kind}"
    with jupyterlab([], extra={"game.ipynb": one_cell_notebook(src)}) as (url, _root), \
            browser_page(viewport=(1024, 700)) as page:
        page.goto(f"{url}/lab/tree/game.ipynb")
        run_all_cells(page, ".catan-table .js-plotly-plot")
        wait_cells_done(page)
        s = Seat(page, None, label)
        rng = random.Random(5)
        t0 = time.perf_counter()
        bots = 0.0
        rounds = 0
        done: dict[str, int] = {}
        while time.perf_counter() - t0 < 3600:
            status = s.status()
            m = re.search(r"Round (\d+)", status)
            if m:
                rounds = max(rounds, int(m.group(1)))
            t1 = time.perf_counter()
            what = s.play_turn(rng)
            if what in ("skip", "wait"):
                bots += time.perf_counter() - t1
            done[what.split()[0]] = done.get(what.split()[0], 0) + 1
            if what == "over":
                break
            if sum(done.values()) % 50 == 0:
                s.shot("progress")
        s.shot("game-over")
        assert "wins with" in s.status(), s.status()
        total = time.perf_counter() - t0
        data = s.write(label, {"rounds": rounds, "seconds": round(total), "bot_seconds_per_round": round(bots / max(1, rounds), 2),
                              "decisions": done})
        print(f"{label}: {rounds} rounds in {total:.0f} s; bots {bots / max(1, rounds):.1f} s a round; {data}")

"""A human at one game table in the browser: read what the table shows, click what a person would.

:class:`Seat` addresses one table on the page by a CSS class of its widget (several tables may share a
notebook), finds plotly points by trace name (plotly.js's own axes give their pixels), and clicks
them with a real mouse event (see shared/JUPYTER.md).  Each action returns the seconds from the
click to its visible effect, so the tests can report the time per click.

:meth:`Seat.play_turn` is a whole-game policy for the on-demand runs: it settles whatever decision the
table shows (discards, the robber or the pirate, a gold pick, a choice, a trade offer, a module's
list of moves), builds sometimes, and ends its turns; while bots play it presses "Skip to my turn".
"""

from __future__ import annotations

import json
import random
import re
import time

from .lab import OUTPUT

#: The pixel of point ``i`` of trace ``name`` (a plotly "markers" trace), or null.
POINT_JS = """
([root, name, i]) => {
  const gd = document.querySelector(root + ' .catan-board .js-plotly-plot');
  if (!gd || !gd.data || !gd._fullLayout || !gd._fullLayout.xaxis) return null;
  const t = gd.data.find(d => d.name === name);
  if (!t || !t.x) return null;
  const pts = [];
  for (let k = 0; k < t.x.length; k++) if (t.x[k] !== null && t.x[k] !== undefined) pts.push([t.x[k], t.y[k]]);
  if (pts.length <= i) return null;
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  return {x: box.left + fl.xaxis._offset + fl.xaxis.l2p(pts[i][0]), y: box.top + fl.yaxis._offset + fl.yaxis.l2p(pts[i][1])};
}
"""

#: The middle of segment ``i`` (or the centre of polygon ``i``) of a "lines" trace whose parts are
#: separated by nulls.
PART_JS = """
([root, name, i]) => {
  const gd = document.querySelector(root + ' .catan-board .js-plotly-plot');
  if (!gd || !gd.data || !gd._fullLayout || !gd._fullLayout.xaxis) return null;
  const t = gd.data.find(d => d.name === name);
  if (!t || !t.x) return null;
  const parts = [[]];
  for (let k = 0; k < t.x.length; k++) {
    if (t.x[k] === null || t.x[k] === undefined) { if (parts[parts.length - 1].length) parts.push([]); }
    else parts[parts.length - 1].push([t.x[k], t.y[k]]);
  }
  const ps = parts.filter(p => p.length);
  if (ps.length <= i) return null;
  let p = ps[i];
  if (p.length > 2 && p[0][0] === p[p.length - 1][0] && p[0][1] === p[p.length - 1][1]) p = p.slice(0, -1);
  const x = p.reduce((s, q) => s + q[0], 0) / p.length, y = p.reduce((s, q) => s + q[1], 0) / p.length;
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  return {x: box.left + fl.xaxis._offset + fl.xaxis.l2p(x), y: box.top + fl.yaxis._offset + fl.yaxis.l2p(y)};
}
"""

#: How many drawn points (or null-separated parts, for lines) a trace has.
COUNT_JS = """
([root, name, parts]) => {
  const gd = document.querySelector(root + ' .catan-board .js-plotly-plot');
  const t = gd && gd.data ? gd.data.find(d => d.name === name) : null;
  if (!t || !t.x) return 0;
  if (!parts) return t.x.filter(x => x !== null && x !== undefined).length;
  let n = 0, open = false;
  for (const x of t.x) { if (x === null || x === undefined) open = false; else if (!open) { n++; open = true; } }
  return n;
}
"""

#: Points of trace ``name`` that lie on an endpoint of a segment of trace ``other`` (indices).
ON_SEGMENTS_JS = """
([root, name, other]) => {
  const gd = document.querySelector(root + ' .catan-board .js-plotly-plot');
  const t = gd.data.find(d => d.name === name), o = gd.data.find(d => d.name === other);
  const ends = new Set();
  for (let k = 0; k < o.x.length; k++) if (o.x[k] !== null) ends.add(o.x[k].toFixed(3) + ',' + o.y[k].toFixed(3));
  const out = [];
  for (let k = 0; k < t.x.length; k++) if (ends.has(t.x[k].toFixed(3) + ',' + t.y[k].toFixed(3))) out.push(k);
  return out;
}
"""

VISIBLE_JS = """
([root, css]) => [...document.querySelectorAll(root + ' ' + css)].filter(e => e.offsetParent !== null)
  .map(e => ({text: e.innerText.trim(), disabled: !!e.disabled}))
"""


class Seat:
    """Seat 0 of the table whose widget carries CSS class ``css`` (``None``: the only table on the page)."""

    def __init__(self, page, css: str | None = None, label: str = "table"):
        self.page = page
        self.root = f".catan-table.{css}" if css else ".catan-table"
        self.label = label
        self.times: dict[str, list[float]] = {}
        self.shots = 0

    # ------------------------------------------------------------------ reading
    def text(self, css: str) -> str:
        loc = self.page.locator(f"{self.root} {css}")
        return loc.first.inner_text() if loc.count() else ""

    def status(self) -> str:
        return self.text(".catan-status")

    def log(self) -> str:
        return self.text(".catan-log")

    def count(self, trace: str, parts: bool = False) -> int:
        return self.page.evaluate(COUNT_JS, [self.root, trace, parts])

    def visible(self, css: str) -> list[dict]:
        return self.page.evaluate(VISIBLE_JS, [self.root, css])

    def until(self, check, what, timeout: float = 60) -> float:
        """Wait for ``check()``; the seconds it took (``what``: a text, or a function giving it at the timeout)."""
        t0 = time.perf_counter()
        while not check():
            if time.perf_counter() - t0 > timeout:
                self.shot("timeout")
                what = what() if callable(what) else what
                raise AssertionError(f"{self.label}: waited {timeout} s for {what}; status: {self.status()!r}")
            time.sleep(0.05)
        return time.perf_counter() - t0

    def wait_status(self, *texts: str, timeout: float = 60) -> str:
        self.until(lambda: any(t in self.status() for t in texts), f"status with {texts}", timeout)
        return self.status()

    def shot(self, name: str) -> None:
        """A screenshot with the table's top (its status line) at the top of the notebook."""
        OUTPUT.mkdir(parents=True, exist_ok=True)
        self.page.evaluate("([root]) => document.querySelector(root).scrollIntoView({block: 'start'})", [self.root])
        time.sleep(0.3)
        self.shots += 1
        self.page.screenshot(path=str(OUTPUT / f"{self.label}-{self.shots:02d}-{name}.png"))

    def no_error(self) -> None:
        notice = self.text(".catan-notice")
        assert "⚠" not in notice, f"{self.label}: the table shows an error: {notice}"

    # ------------------------------------------------------------------ clicking
    def _pixel(self, js: str, trace: str, i: int, timeout: float = 30) -> dict:
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.page.evaluate(
                "([root]) => { const gd = document.querySelector(root + ' .catan-board .js-plotly-plot');"
                " const b = gd.getBoundingClientRect(); if (b.top < 0 || b.bottom > window.innerHeight)"
                " gd.scrollIntoView({block: 'center'}); }", [self.root])
            pt = self.page.evaluate(js, [self.root, trace, i])
            vw, vh = self.page.viewport_size["width"], self.page.viewport_size["height"]
            if pt and 0 <= pt["x"] < vw and 0 <= pt["y"] < vh:
                return pt
            time.sleep(0.3)
        self.shot(f"no-point-{trace.replace(':', '-')}")
        raise AssertionError(f"{self.label}: no point {i} of {trace} on screen")

    def _mouse(self, pt: dict) -> float:
        """Move there, let plotly's throttled hover settle, click; the time of the click."""
        self.page.mouse.move(pt["x"], pt["y"])
        time.sleep(0.2)
        self.page.mouse.move(pt["x"] + 0.5, pt["y"] + 0.5)
        time.sleep(0.2)
        t0 = time.perf_counter()
        self.page.mouse.click(pt["x"] + 0.5, pt["y"] + 0.5)
        return t0

    def click_point(self, trace: str, i: int = 0, *, then, what: str, kind: str = "board click") -> float:
        """Click point ``i`` of ``trace``; wait for ``then()``; record and return the seconds it took."""
        return self._timed(kind, lambda: self._mouse(self._pixel(POINT_JS, trace, i)), then, what)

    def click_part(self, trace: str, i: int = 0, *, then, what: str, kind: str = "board click") -> float:
        """Click the middle of segment (or polygon) ``i`` of a lines trace."""
        return self._timed(kind, lambda: self._mouse(self._pixel(PART_JS, trace, i)), then, what)

    def press(self, css: str, *, then, what: str, kind: str = "button") -> float:
        """Click the visible button ``css`` of the table."""
        # On a loaded machine a table's buttons may show late (CI once waited 30 s in vain for a 7's roll):
        # wait longer, and if it never shows say what the table shows instead (status, notice, a screenshot).
        self.until(lambda: self.visible(css), lambda: f"the button {css} (in the page: "
                   f"{self.page.locator(f'{self.root} {css}').count()}; notice: {self.text('.catan-notice')!r})",
                   timeout=120)
        loc = self.page.locator(f"{self.root} {css}").filter(visible=True).first
        loc.scroll_into_view_if_needed(timeout=30_000)
        return self._timed(kind, lambda: loc.click(timeout=30_000), then, what)

    def _timed(self, kind: str, act, then, what: str, retries: int = 2) -> float:
        for attempt in range(retries + 1):
            t0 = time.perf_counter()
            t0 = act() or t0  # a board click times from the click itself, not from moving the mouse there
            try:
                self.until(then, what, timeout=20 if attempt < retries else 60)
            except AssertionError:
                if attempt == retries:
                    raise
                continue  # plotly's throttled hover sent the click elsewhere: once more
            dt = time.perf_counter() - t0
            self.times.setdefault(kind, []).append(dt)
            self.no_error()
            return dt
        raise AssertionError("unreachable")

    def choose(self, *words: str) -> bool:
        """Click the "Which one?" button whose label has one of ``words`` (or the first); False if none shows."""
        buttons = self.visible(".catan-choices .catan-choice")
        if not buttons:
            return False
        labels = [b["text"] for b in buttons]
        pick = next((i for i, x in enumerate(labels) if any(w in x.lower() for w in words)), 0)
        before = self.status()
        self._timed("choice", lambda: self.page.locator(f"{self.root} .catan-choices .catan-choice").nth(pick).click(),
                    lambda: not self.visible(".catan-choices .catan-choice") or self.status() != before, "the choice taken")
        return True

    def select_special(self, word: str) -> str:
        """Pick the "More actions" entry with ``word`` and press Play; returns its label."""
        sel = self.page.locator(f"{self.root} .catan-special select").first
        labels = sel.locator("option").all_inner_texts()
        label = next(x for x in labels if word.lower() in x.lower())
        sel.select_option(label=label)
        n = len(self.log())
        self.press(".catan-special-play", then=lambda: len(self.log()) != n, what=f"{label} played")
        return label

    # ------------------------------------------------------------------ decisions
    def discard(self) -> int:
        """B-ROB-2 with the steppers: '+' on the goods held until the owed number is chosen, then Discard."""
        title = self.text(".catan-discard-panel")
        owed = int(re.search(r"discards (\d+) card", title).group(1))
        chosen = 0
        steppers = self.page.locator(f"{self.root} .catan-discard-panel .widget-hbox[class*='catan-discard-']")
        for i in range(steppers.count()):
            plus = steppers.nth(i).locator("button").nth(1)
            while chosen < owed and plus.is_visible() and not plus.is_disabled():
                plus.click()
                chosen += 1
                self.until(lambda: f"{chosen} of {owed} chosen" in self.text(".catan-discard-panel"), "the count")
        assert chosen == owed, (chosen, owed)
        self.press(".catan-discard", then=lambda: not self.visible(".catan-discard-panel .catan-discard"),
                   what="the discard done")
        return owed

    def rob(self, prefer_pirate: bool = False) -> None:
        """Move the robber (a highlighted hex) or the pirate (a ringed sea hex), then pick a victim."""
        before = self.status()
        if prefer_pirate and self.count("seafarers:pirate-targets"):
            self.click_point("seafarers:pirate-targets", 0, then=lambda: self.status() != before, what="the pirate moved")
        else:
            self.click_part("highlight-hexes", 0, then=lambda: self.status() != before, what="the robber's hex")
        if self.visible("[class*='catan-steal-']"):
            s = self.status()
            self.press("[class*='catan-steal-']", then=lambda: self.status() != s, what="the victim")
        elif self.visible(".catan-no-steal"):
            s = self.status()
            self.press(".catan-no-steal", then=lambda: self.status() != s, what="nobody robbed")
        self.choose("rob", "steal")

    def gold(self) -> int:
        """SF-1: press the gold pick buttons until the pick is done."""
        css = "[class*='catan-gold-']"
        n = 0
        while self.visible(css):
            s = self.text(".catan-module-bar")
            self.press(css, then=lambda: self.text(".catan-module-bar") != s or not self.visible(css), what="a gold pick")
            n += 1
            # The bar may tell of the pick a moment before its buttons go (a run once pressed again after the last
            # pick and waited in vain): buttons still there a few seconds on are the next pick's.
            settle = time.perf_counter() + 5
            while time.perf_counter() < settle and self.visible(css):
                time.sleep(0.2)
        return n

    def found(self, road_words=("road",), node: int = 0, on_path=None) -> None:
        """A founding settlement (or city) on highlighted intersection ``node``, then its road: a highlighted
        path, a ringed sea path, or ``on_path()`` (another click that stands for it)."""
        self.until(lambda: self.count("highlight-nodes") > 0 and "Red" in self.status(), "Red's founding", 120)
        n = self.count("buildings")
        self.click_point("highlight-nodes", node, then=lambda: self.count("buildings") > n, what="the settlement",
                         kind="build")
        self.until(lambda: self.count("highlight-paths", parts=True) or self.count("seafarers:ship-targets"),
                   "the road's paths")
        before = self.status()
        if on_path is not None:
            on_path()
        elif self.count("highlight-paths", parts=True):
            self.click_part("highlight-paths", 0, then=lambda: self.status() != before, what="the road", kind="build")
        else:
            self.click_point("seafarers:ship-targets", 0, then=lambda: self.status() != before, what="the ship",
                             kind="build")
        self.choose(*road_words)
        self.gold()

    # ------------------------------------------------------------------ a whole game (on demand)
    def play_turn(self, rng: random.Random) -> str:
        """One decision of seat 0 (or a wait while bots play); returns what it did."""
        status = self.status()
        if "wins with" in status:
            return "over"
        if "is playing" in status:
            if self.visible(".catan-skip:not([disabled])"):
                try:  # the bots may reach the human's turn first: then the button is gone
                    self.page.locator(f"{self.root} .catan-skip").first.click(timeout=2000)
                except Exception:  # noqa: BLE001 - playwright's TimeoutError
                    pass
                return "skip"
            time.sleep(0.2)
            return "wait"
        if self.visible(".catan-choices .catan-choice"):
            self.choose()
            return "choice"
        if self.visible(".catan-cancel-choice") and self.count("seafarers:destinations"):  # a ship's destinations
            before = self.status()
            self.click_point("seafarers:destinations", 0, then=lambda: self.status() != before, what="a destination")
            return "destination"
        if self.visible(".catan-discard-panel .catan-discard"):
            self.discard()
            return "discard"
        if self.visible("[class*='catan-steal-']") or self.visible(".catan-no-steal:not([disabled])"):
            s = self.status()
            css = "[class*='catan-steal-']" if self.visible("[class*='catan-steal-']") else ".catan-no-steal"
            self.press(css, then=lambda: self.status() != s, what="the victim")
            return "victim"
        if self.visible("[class*='catan-gold-']"):
            self.gold()
            return "gold"
        for css in (".catan-decline", ".catan-canal-decline", ".catan-end-sbp"):
            if any(not b["disabled"] for b in self.visible(css)):
                s = self.status()
                self.press(css, then=lambda: self.status() != s, what=css)
                return css
        if "robber" in status or "pirate" in status:
            if self.count("highlight-hexes", parts=True) or self.count("seafarers:pirate-targets"):
                self.rob(prefer_pirate=rng.random() < 0.3)
                return "robber"
        if any(not b["disabled"] for b in self.visible(".catan-roll")):
            d = self.text(".catan-dice")
            self.press(".catan-roll", then=lambda: self.text(".catan-dice") != d or self.status() != status,
                       what="the roll", kind="roll")
            return "roll"
        if "founding" in status or "places" in status:
            if self.count("highlight-nodes"):
                self.found()
                return "found"
            if self.count("highlight-paths", parts=True):
                self.click_part("highlight-paths", 0, then=lambda: self.status() != status, what="a road")
                self.choose()
                return "road"
        end = [b for b in self.visible(".catan-end-turn") if not b["disabled"]]
        builds = [t for t in ("highlight-nodes", "cities_knights:hire", "seafarers:ship-targets") if self.count(t)]
        if end and builds and rng.random() < 0.5:
            t = rng.choice(builds)
            n = len(self.log())
            self.click_point(t, rng.randrange(self.count(t)), then=lambda: len(self.log()) != n or self.status() != status,
                             what=f"a build on {t}", kind="build")
            self.choose()
            return f"build {t}"
        if end and self.count("highlight-paths", parts=True) and rng.random() < 0.4:
            n = len(self.log())
            self.click_part("highlight-paths", rng.randrange(self.count("highlight-paths", parts=True)),
                            then=lambda: len(self.log()) != n or self.status() != status, what="a road", kind="build")
            self.choose()
            return "road"
        special = [b for b in self.visible(".catan-special-play") if not b["disabled"]]
        if special and (not end or rng.random() < 0.2):
            n, s = len(self.log()), status
            self.press(".catan-special-play", then=lambda: len(self.log()) != n or self.status() != s,
                       what="a module's move")
            return "special"
        if end:
            self.press(".catan-end-turn", then=lambda: self.status() != status, what="the turn ended", kind="end turn")
            return "end"
        time.sleep(0.2)
        return "wait"

    def report(self) -> dict:
        """Times per click (ms): median and worst, by kind."""
        out = {}
        for k, v in self.times.items():
            s = sorted(v)
            out[k] = {"clicks": len(s), "median_ms": round(1000 * s[len(s) // 2]), "max_ms": round(1000 * s[-1])}
        return out

    def write(self, name: str, extra: dict | None = None) -> dict:
        data = {"times": self.report(), **(extra or {})}
        OUTPUT.mkdir(parents=True, exist_ok=True)
        (OUTPUT / f"{name}.json").write_text(json.dumps(data, indent=1))
        return data

"""What a person sees of a game table in the browser, measured (issue 37's checks), and a busy machine.

:data:`TABLE_JS` measures one table (a CSS selector): the board's traces as plotly.js drew them, the
centres of its hexes in pixels, and every card, control and part of the action bar.  :func:`problems`
turns a measurement into the list of what a person would find wrong (empty when all is well):

* a board without traces (the blank board of item 1);
* a card whose content sticks out of it, or is cut by it (a table wider than its card: item 3);
* a part of the table beyond the notebook's width or the window's;
* a visible control (button, list, text box) under 24 px high (the squashed discard button: item 2);
* two parts of the action bar overlapping;
* neighbouring hexes less than 60 px apart (an unreadable map: item 4).

:func:`busy` starts processes that keep the CPU busy (the machine of the issue had a load of 9 on two
cores) and stops them afterwards.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys

#: The least height of a control a person clicks (px), and the least distance of two hex centres (px).
MIN_CONTROL = 24
MIN_HEX_GAP = 60

TABLE_JS = """
([root]) => {
  const table = document.querySelector(root);
  if (!table) return null;
  const r = el => { const b = el.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height}; };
  const shown = el => { const b = el.getBoundingClientRect(); const s = getComputedStyle(el);
                        return b.width > 0 && b.height > 0 && s.visibility !== 'hidden' && el.offsetParent !== null; };
  const label = el => (el.innerText || el.value || el.className || '').toString().trim().slice(0, 40);
  const area = table.closest('.jp-OutputArea-output') || table.closest('.jp-Cell') || table.parentElement;
  const gd = table.querySelector('.catan-board .js-plotly-plot');
  let traces = 0, hexes = [], gap = null;
  if (gd && gd.data && gd._fullLayout && gd._fullLayout.xaxis) {
    traces = gd.data.length;
    const t = gd.data.find(d => d.name === 'hexes');
    const fl = gd._fullLayout, box = gd.getBoundingClientRect();
    if (t && t.x) for (let i = 0; i < t.x.length; i++)
      hexes.push([box.left + fl.xaxis._offset + fl.xaxis.l2p(t.x[i]), box.top + fl.yaxis._offset + fl.yaxis.l2p(t.y[i])]);
    for (let i = 0; i < hexes.length; i++) for (let j = i + 1; j < hexes.length; j++) {
      const d = Math.hypot(hexes[i][0] - hexes[j][0], hexes[i][1] - hexes[j][1]);
      if (gap === null || d < gap) gap = d;
    }
  } else if (gd && gd.data) traces = gd.data.length;
  // A card's content must lie inside it; content inside a scrolling box of the card counts only across
  // (a log that scrolls down is fine; a table cut at the side is not).
  const cards = [];
  for (const card of table.querySelectorAll('.catan-card')) {
    if (!shown(card)) continue;
    const cb = r(card), out = [];
    for (const el of card.querySelectorAll('*')) {
      if (!shown(el) || el.closest('.js-plotly-plot')) continue;
      let scroller = null;
      for (let p = el.parentElement; p && p !== card; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (['auto', 'scroll', 'hidden'].includes(s.overflowY) && p.scrollHeight > p.clientHeight + 1) { scroller = p; break; }
      }
      const b = r(el);
      const across = b.left < cb.left - 1 || b.right > cb.right + 1;
      const down = !scroller && (b.top < cb.top - 1 || b.bottom > cb.bottom + 1);
      if (across || down) out.push({el: el.tagName + '.' + (el.className || '').toString().slice(0, 60), text: label(el), box: b});
    }
    const cut = card.scrollWidth > card.clientWidth + 1;
    cards.push({card: (card.className || '').toString().slice(0, 80), box: cb, out: out.slice(0, 5), n_out: out.length, cut});
  }
  // a check box counts with its label (the whole row is clickable)
  const controls = [...table.querySelectorAll('button, select, input, textarea')].filter(shown).map(el => {
    const hit = el.type === 'checkbox' ? (el.closest('.widget-checkbox') || el.closest('label') || el) : el;
    return {tag: el.tagName, text: label(hit), ...r(hit)}; });
  const action = table.querySelector('.catan-action');
  const parts = action ? [...action.children].filter(shown).map(el => ({cls: (el.className || '').toString().slice(0, 60), ...r(el)})) : [];
  return {viewport: {width: window.innerWidth, height: window.innerHeight}, area: r(area), table: r(table),
          board: gd ? r(gd) : null, traces, hexes: hexes.length, gap, cards, controls, parts};
}
"""


def problems(geo: dict | None, label: str) -> list[str]:
    """What a person would find wrong in a measurement of :data:`TABLE_JS` (empty: nothing)."""
    if geo is None:
        return [f"{label}: no table on the page"]
    out = []
    if not geo["traces"]:
        out.append(f"{label}: the board has no traces (a blank board)")
    right = min(geo["area"]["right"], geo["viewport"]["width"])
    left = geo["area"]["left"]
    for c in geo["cards"]:
        if c["n_out"]:
            out.append(f"{label}: {c['n_out']} part(s) stick out of the card {c['card']!r}: {c['out'][:2]}")
        if c["cut"]:
            out.append(f"{label}: the card {c['card']!r} cuts its content at the side")
        if c["box"]["right"] > right + 1 or c["box"]["left"] < left - 1:
            out.append(f"{label}: the card {c['card']!r} reaches past the notebook ({c['box']}, area right {right})")
    for b in geo["controls"]:
        if b["height"] < MIN_CONTROL - 0.5:
            out.append(f"{label}: the control {b['tag']} {b['text']!r} is {b['height']:.0f} px high")
        if b["right"] > right + 1 or b["left"] < left - 1:
            out.append(f"{label}: the control {b['text']!r} is off the side")
    parts = geo["parts"]
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            if min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1 and \
                    min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1:
                out.append(f"{label}: {a['cls']!r} and {b['cls']!r} overlap in the action bar")
    if geo["gap"] is not None and geo["gap"] < MIN_HEX_GAP:
        out.append(f"{label}: neighbouring hexes are {geo['gap']:.0f} px apart (at least {MIN_HEX_GAP})")
    return out


@contextlib.contextmanager
def busy(processes: int = 2):
    """Keep ``processes`` CPU-bound processes running for the duration (a loaded machine)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        yield hogs
    finally:
        for h in hogs:
            h.kill()
            h.wait()

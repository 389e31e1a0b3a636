"""The prepared positions of the per-module browser tests (tests/browser/positions.py), checked without a
browser: each is what the browser test expects, and the clicks it makes there are legal and do what it
waits for (through the table's own handlers)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))
import positions as P  # noqa: E402

from catan_nb.rules import Discard, MoveRobber, Phase  # noqa: E402


def _quiet(t):
    t.bot_delay = None  # bots move at once (synchronously) here


@pytest.mark.parametrize("kind", P.KINDS)
def test_the_seven_rolls_a_seven_and_seat_0_discards_4_then_robs(kind):
    found, seven, pieces = P.tables(kind)[:3]
    for t in (found, seven, pieces):
        _quiet(t)
    assert found.game.phase is Phase.FOUNDING_SETTLEMENT and found.legal()
    g = seven.game
    seven.press("roll")
    assert sum(g.dice_history[-1][:2]) == 7
    assert seven.discard_panel.layout.display is None and g.discards_owed()[0] == 4
    seven.discard_counts[0].value = 2
    seven.discard_counts[1].value = 2
    seven.press("discard")
    assert isinstance(g.log[-1], Discard)
    seven.run_bots()
    legal = seven.legal()
    assert any(isinstance(a, MoveRobber) for a in legal), sorted({type(a).__name__ for a in legal})
    if kind == "seafarers":
        assert seven.figure.data[seven._idx["seafarers:pirate-targets"]].x
        assert "pirate" in seven.status.value


def test_the_pieces_positions_offer_what_the_browser_clicks():
    _, _, sf, fog = P.tables("seafarers")
    assert len(sf.figure.data[sf._idx["seafarers:movable"]].x) == 1
    assert len(sf.figure.data[sf._idx["seafarers:ship-targets"]].x) > 0
    path = int(next(c for c in fog.widget._dom_classes if c.startswith("reveal-"))[7:])
    n = len(fog.game.ext["fog"]["revealed"])
    fog.click_path(path)
    if fog.pending_choices:
        fog.choice_buttons.children[[type(a).__name__ for a in fog.pending_choices].index("BuildShip")].click()
    assert len(fog.game.ext["fog"]["revealed"]) == n + 1 and "the fog lifts" in fog.log_box.value
    _, _, gold = P.tables("gold")
    _quiet(gold)
    gold.press("roll")
    assert gold.game.phase.value == "gold_pick" and gold.module_bar.children[0].layout.display is None
    _, _, ck = P.tables("cities_knights")
    names = {type(a).__name__ for a in ck.legal()}
    assert {"HireKnight", "ImproveCity", "PlayProgress"} <= names
    assert any("rrigation" in label for label, _ in ck.special.options)
    _, _, ny = P.tables("new_york")
    assert any("canal" in label for label, _ in ny.special.options)

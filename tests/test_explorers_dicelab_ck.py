"""DiceLab with the Cities & Knights dice (red, yellow and event die), driven through its callbacks
(no browser), in the style of tests/test_explorers.py: rolling, reset, and the tables' numbers
equal the exact functions of catan_nb.analysis.expansion_odds."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from catan_nb.analysis import chi_square_test, event_die_distribution, progress_odds
from catan_nb.rules.modules.cities_knights import EVENT_FACES, MAX_LEVEL, TRACKS
from catan_nb.widgets.explorers import DiceLab


def classes(widget):
    out = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        out |= classes(child)
    return out


def widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from widgets(child)


def test_CK_COMP_1_dicelab_rolls_the_three_dice_from_its_seed():
    lab = DiceLab(seed=9, n=25, many=500, dice="cities_knights")
    assert lab.dice.shape == (0, 3) and "no rolls yet" in lab.status.value
    lab.press("roll_one")
    lab.press("roll")
    lab.press("roll_many")
    assert lab.dice.shape == (526, 3) and set(np.unique(lab.dice)) <= set(range(1, 7))
    assert np.array_equal(lab.totals, lab.dice[:, 0] + lab.dice[:, 1])  # the event die is no number die
    assert list(lab.trace("rolled").customdata) == [lab.counts[t] for t in range(2, 13)]
    assert lab.chi_square.statistic == pytest.approx(chi_square_test(lab.totals.tolist()).statistic)
    # seeded: batching does not change the rolls; reset starts again from the seed box
    again = DiceLab(seed=9, dice="cities_knights")
    again.roll(526)
    assert np.array_equal(again.dice, lab.dice)
    first = lab.dice
    lab.press("reset")
    assert lab.dice.shape == (0, 3) and all(r["observed"] == 0 for r in lab.event_table)
    lab.roll(526)
    assert np.array_equal(lab.dice, first)
    assert "red+yellow event" in lab.status.value and "526 rolls" in lab.status.value
    assert "Cities & Knights" in repr(lab)


def test_CK_PROG_1_CK_IMP_2_dicelab_tables_equal_the_exact_functions():
    lab = DiceLab(seed=4, dice="cities_knights")
    lab.roll(3000)
    red, event = lab.dice[:, 0], lab.dice[:, 2]
    n = len(red)
    exact_event = event_die_distribution()
    assert [r["exact"] for r in lab.event_table] == list(exact_event.values())
    for row, kind in zip(lab.event_table, exact_event):
        faces = [f for f, k in EVENT_FACES.items() if k is kind]
        assert row["observed"] == int(np.isin(event, faces).sum())
        assert f"{row['exact']} ≈ {float(row['exact']):.3f}" in lab.ck_box.value
        assert f"{row['observed'] / n:.3f} ({row['observed']:,})" in lab.ck_box.value
    assert [r["level"] for r in lab.progress_table] == list(range(1, MAX_LEVEL + 1))
    for row in lab.progress_table:
        level = row["level"]
        odds = progress_odds((level,) * 3)
        assert row["exact"] == odds.by_track
        assert f"{odds.by_track[TRACKS[0]]} ≈ {float(odds.by_track[TRACKS[0]]):.3f}" in lab.ck_box.value
        for t in TRACKS:
            # an independent count: the gate of t and a red die of at most level + 1
            gate = [f for f, k in EVENT_FACES.items() if k is t]
            want = int((np.isin(event, gate) & (red <= level + 1)).sum())
            assert row["observed"][t] == want
            assert f"{want / n:.3f} ({want:,})" in lab.ck_box.value
            # the observed share is near the exact chance (a 4-sigma band)
            p = float(odds.by_track[t])
            assert abs(want / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    assert lab.progress_table[0]["red"] == "1–2" and lab.progress_table[-1]["red"] == "1–6"
    assert lab.progress_table[-1]["exact"][TRACKS[2]] == Fraction(1, 6)


def test_dicelab_cities_knights_layout_classes_and_the_loaded_red_die():
    lab = DiceLab(seed=2, dice="cities_knights")
    assert {"dicelab", "dicelab-ck", "dicelab-roll", "dicelab-reset"} <= classes(lab.widget)
    assert lab.figure in list(widgets(lab.widget)) and lab.ck_box in list(widgets(lab.widget))
    plain = DiceLab(seed=2)
    assert plain.ck_box is None and "dicelab-ck" not in classes(plain.widget) and plain.dice.shape == (0, 2)
    lab.loaded_box.value = True
    lab.roll(20_000)
    assert (lab.dice[:, 0] == 6).mean() == pytest.approx(2 / 7, abs=0.02)  # the red die is the loaded one
    assert (lab.dice[:, 2] == 6).mean() == pytest.approx(1 / 6, abs=0.02)
    with pytest.raises(ValueError, match="cities_knights"):
        DiceLab(dice="three")


def test_dicelab_callbacks_never_raise():
    for dice in ("two", "cities_knights"):
        lab = DiceLab(seed=1, max_rolls=30, dice=dice)
        lab.seed_box.value = -5
        lab.press("reset")  # a negative seed: a message, the rolls kept
        assert lab.message.startswith("⚠") and "seed" in lab.status.value and lab.seed == 1
        lab.seed_box.value = 3
        lab.press("reset")
        assert lab.seed == 3 and lab.message == ""
        for name in ("roll_one", "roll", "roll_many", "roll_many"):
            lab.press(name)  # past max_rolls: a message, no exception
        assert len(lab.totals) == 30 and "at most 30" in lab.status.value

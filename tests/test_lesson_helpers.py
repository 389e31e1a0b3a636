"""The analysis helpers the lessons call for their statistics (issue 27).

Paired comparisons of openings played on common random numbers, one chi-square test across seats, the
optional-stopping control, the mode with its ties, a draft-spread constraint for balanced boards, and the
stored seat runs of lesson 30.
"""

from __future__ import annotations

import re

from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from catan_nb import Board
from catan_nb.analysis import rank_openings, simulate
from catan_nb.analysis.fairness import (
    NO_ADJACENT_RED,
    balanced_board,
    check_constraints,
    max_draft_spread,
    snake_draft,
)
from catan_nb.analysis.placement import NodeTable, _opening_game, _spec, study_game
from catan_nb.analysis.probability import (
    _pool,
    chi2_critical,
    chi2_sf,
    chi_square_counts,
    chi_square_test,
    most_likely,
    paired_difference,
    peeking_false_alarm,
)
from catan_nb.analysis.simulation import StoredWinners, stored_seat_runs
from catan_nb.constants import roll_probability


# ---------------------------------------------------------------- paired comparisons
def test_paired_difference_is_the_interval_of_the_differences():
    rng = np.random.default_rng(1)
    luck = rng.normal(size=200)
    a = luck + rng.normal(size=200) + 0.3
    b = luck + rng.normal(size=200)
    d = paired_difference(a, b)
    assert d.paired.estimate == pytest.approx(float(np.mean(a - b)))
    assert d.correlation > 0.3
    # shared luck: the paired interval is narrower, and the unpaired design needs more games
    assert d.paired.half_width < d.unpaired.half_width and d.games_ratio > 1.5
    assert d.games_ratio == pytest.approx((a.var(ddof=1) + b.var(ddof=1)) / (a - b).var(ddof=1))


def test_paired_difference_on_wins_is_a_sign_test_on_the_discordant_games():
    a = [1] * 9 + [0] * 1 + [1] * 5 + [0] * 5
    b = [0] * 9 + [1] * 1 + [1] * 5 + [0] * 5
    d = paired_difference(a, b)
    assert (d.a_better, d.b_better) == (9, 1)
    # two-sided exact binomial: P(X <= 1 or X >= 9 | 10, 1/2) = 22/1024
    assert d.sign_test_p == pytest.approx(22 / 1024)
    assert paired_difference([1, 0, 1], [1, 0, 1]).sign_test_p == 1.0


def test_paired_difference_refuses_unpaired_data():
    with pytest.raises(ValueError, match="same length"):
        paired_difference([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="two pairs"):
        paired_difference([1], [2])


def test_openings_are_played_on_the_same_dice():
    """Common random numbers: playout j rolls the same dice, roll for roll, after every opening."""
    board = Board.beginner()
    (a1, a2), (b1, b2) = [(int(p.first), int(p.second)) for p in rank_openings(board, 0, top=2)]
    seeds = (12345, (1, 2, 3, 4))
    study = study_game(board)
    orders = {"settlement": NodeTable(study).greedy_order["settlement"]}

    def game(first, second):
        return _opening_game((_spec(study), 0, first, second, False, "greedy", "random", orders, 60, *seeds, False))[0]

    g, h = game(a1, a2), game(b1, b2)
    k = min(len(g.dice_history), len(h.dice_history))
    assert k > 20 and g.dice_history[:k] == h.dice_history[:k]
    assert game(a1, a2).state() == g.state()  # and the playout is reproducible


def test_simulate_openings_keeps_each_playout():
    from catan_nb.analysis import simulate_openings

    rows = simulate_openings(Board.beginner(), 0, top=2, playouts=3, seed=2, bot="random", max_turns=40, progress=False)
    for r in rows:
        assert len(r.wins) == len(r.vps) == 3
        assert sum(r.wins) == round(r.win_rate.estimate * 3) and np.mean(r.vps) == pytest.approx(r.vp.estimate)


# ---------------------------------------------------------------- chi-square
def test_chi_square_counts_is_the_textbook_statistic():
    res = chi_square_counts([10, 20, 30], [0.2, 0.3, 0.5])
    expected = [12, 18, 30]
    assert res.statistic == pytest.approx(sum((o - e) ** 2 / e for o, e in zip([10, 20, 30], expected)))
    assert res.dof == 2 and res.p_value == pytest.approx(chi2_sf(res.statistic, 2))
    assert "60 counts" in str(res.table())


def test_chi_square_counts_refuses_nonsense():
    with pytest.raises(ValueError):
        chi_square_counts([3])
    with pytest.raises(ValueError):
        chi_square_counts([3, -1])
    with pytest.raises(ValueError):
        chi_square_counts([3, 4], [0.5, 0.6])
    with pytest.raises(ValueError):
        chi_square_counts([2.5, 4])


def test_chi2_critical_inverts_the_survival_function():
    for dof in (1, 3, 8, 10):
        x = chi2_critical(0.05, dof)
        assert chi2_sf(x, dof) == pytest.approx(0.05, abs=1e-9)


def test_seat_test_counts_the_finished_games():
    r = simulate(12, players=3, bots="weighted", seed=4, max_turns=400, workers=1, progress=False)
    res = r.seat_test()
    assert res.n == r.games - r.unfinished and res.dof == 2


# ---------------------------------------------------------------- optional stopping
def test_peeking_uses_the_worksheet_test_look_by_look():
    """The vectorised control agrees with chi_square_test run after every look."""
    rng = np.random.default_rng(7)
    for n in (20, 50, 180, 400):
        rolls = list(map(tuple, rng.integers(1, 7, size=(n, 2))))
        res = chi_square_test(rolls)
        values = list(range(2, 13))
        bins = _pool(values, [n * float(roll_probability(v)) for v in values], [0] * 11, 5.0)
        assert [b.values for b in bins] == [b.values for b in res.bins]
        assert (res.p_value < 0.05) == (res.statistic > chi2_critical(0.05, res.dof))


def test_looking_twenty_times_inflates_false_alarms():
    once = peeking_false_alarm(looks=1, step=1000, experiments=2000, seed=3)
    twenty = peeking_false_alarm(looks=20, step=50, experiments=2000, seed=3)
    assert once.low < 0.05 < once.high
    assert 0.2 < twenty.estimate < 0.32  # "about a quarter of the time" (lessons 10 and 16)
    assert "once, after 1000 rolls" in once.label and "20 looks" in twenty.label


# ---------------------------------------------------------------- the mode with its ties
def test_most_likely_reports_ties():
    from catan_nb.analysis.barbarians import arrival_distribution

    dist = arrival_distribution(horizon=40)
    assert most_likely(dist) == (12, 13) and dist[12] == dist[13] == F(231, 2048)
    assert most_likely({1: 0.2, 2: 0.5, 3: 0.3}) == (2,)
    with pytest.raises(ValueError):
        most_likely({})


# ---------------------------------------------------------------- balanced boards
def test_max_draft_spread_holds_on_the_board_balanced_board_returns():
    wanted = [NO_ADJACENT_RED, max_draft_spread(0.05)]
    for seed in (3, 8):
        for shuffle in (False, True):
            b = balanced_board(seed=seed, constraints=wanted, shuffle_harbours=shuffle)
            assert all(check_constraints(b, wanted).values())
            assert float(snake_draft(b).spread) <= 0.05


def test_default_constraints_are_still_only_reds_and_equal_numbers():
    """Lesson 15 says so: the defaults (and the boards they give) did not change."""
    from catan_nb.analysis.fairness import DEFAULT_CONSTRAINTS

    assert [c.name for c in DEFAULT_CONSTRAINTS] == ["no_adjacent_6_8", "no_adjacent_equal_numbers"]
    assert balanced_board(seed=3) == balanced_board(seed=3, constraints=DEFAULT_CONSTRAINTS)


# ---------------------------------------------------------------- stored runs
def test_stored_winners_round_trip():
    r = simulate(5, players=3, bots="weighted", seed=9, max_turns=60, workers=1, progress=False)
    run = StoredWinners.from_result(r)
    assert run.wins() == tuple(sum(x.winner == p for x in r.records) for p in range(3))
    assert run.finished == r.games - r.unfinished and run.check(range(5))
    assert len(run.encode()) == 5


def test_stored_seat_runs_are_what_lesson_30_says():
    runs = stored_seat_runs()
    assert {p: (run.games, run.bots, run.seed, run.max_turns) for p, run in runs.items()} == {
        4: (3000, "weighted", 30, 400), 6: (3000, "weighted", 30, 400)}


# ---------------------------------------------------------------- the API as students type it
def test_chi_square_test_takes_what_students_have():
    pairs = [(1, 6), (2, 5), (3, 3), (4, 4), (6, 6), (1, 1)] * 10
    base = chi_square_test(pairs)
    assert chi_square_test(np.array(pairs)).statistic == base.statistic                       # numpy pairs
    assert chi_square_test(np.array([a + b for a, b in pairs])).statistic == base.statistic   # numpy totals
    assert chi_square_test(" ".join(f"{a}+{b}" for a, b in pairs)).statistic == base.statistic  # pasted pairs
    totals = ", ".join(str(a + b) for a, b in pairs)
    assert chi_square_test(totals).statistic == base.statistic                                # pasted totals
    assert chi_square_test([float(a + b) for a, b in pairs]).statistic == base.statistic      # 7.0 is 7
    assert chi_square_test(np.array(pairs), of="faces").n == 2 * len(pairs)


@pytest.mark.parametrize("bad, message", [
    ([7.5] + [7] * 20, "roll 1: 7.5 is not a whole number"),
    ("7 7 7.5 7", "roll 3: '7.5' is not a whole number"),
    ("7 seven 7", "roll 2: 'seven' is not a number"),
    ("7 13 7", "roll 2: 13 is not a two-dice total"),
    ("3+4 0+4", "roll 2: '0\\+4' is not a roll of two dice"),
    (np.zeros((3, 3)), "roll 1: .* is not a pair of dice"),
    ([True] * 20, "roll 1: True is not a number"),
])
def test_chi_square_test_refuses_clearly(bad, message):
    with pytest.raises(ValueError, match=message):
        chi_square_test(bad)


def test_estimate_proportion_takes_a_share_and_says_observed():
    from catan_nb.analysis.probability import estimate_proportion

    assert estimate_proportion(0.35, 40) == estimate_proportion(14, 40)
    assert estimate_proportion(14.0, 40) == estimate_proportion(14, 40)
    assert "observed 0.3500" in repr(estimate_proportion(14, 40)) and "exact" not in repr(estimate_proportion(14, 40))
    with pytest.raises(ValueError, match="not a whole number: give the count"):
        estimate_proportion(0.333, 40)
    with pytest.raises(ValueError, match="neither a count"):
        estimate_proportion(1.5, 40)
    with pytest.raises(ValueError, match="number of trials"):
        estimate_proportion(3, 4.5)
    from catan_nb.analysis import RollTotal

    assert "simulated" in repr(RollTotal(7).simulate(100, seed=1))


def test_hits_exactly():
    from catan_nb.analysis import Hits

    assert Hits(7, rolls=10, exactly=2).exact() == Hits(7, rolls=10, at_least=2, at_most=2).exact()
    assert Hits(7, rolls=10, exactly=0).label == "P(no roll of 7 in 10 rolls)"
    assert Hits(7, rolls=10, exactly=2).simulate(2000, seed=3).covers
    with pytest.raises(ValueError, match="contradicts"):
        Hits(7, rolls=10, exactly=2, at_most=1)
    with pytest.raises(ValueError, match="0..10"):
        Hits(7, rolls=10, exactly=11)


def test_streak_says_which_totals_make_the_run():
    from catan_nb.analysis import Streak

    drought = Streak(10, rolls=70, without=8)
    assert drought.exact() == Streak(10, rolls=70, totals=[t for t in range(2, 13) if t != 8]).exact()
    assert drought.label == "P(10+ rolls in a row with no 8, somewhere in 70 rolls)"
    assert Streak(3, rolls=60, totals=7).label == "P(3+ rolls in a row, each a 7, somewhere in 60 rolls)"
    assert Streak(3, rolls=60).label == "P(3+ equal totals in a row, somewhere in 60 rolls)"
    assert drought.simulate(3000, seed=2).covers
    with pytest.raises(ValueError, match="not both"):
        Streak(3, rolls=10, totals=7, without=8)


def test_long_exact_fractions_print_as_decimals():
    import pickle

    from catan_nb.analysis import Hits
    from catan_nb.analysis.probability import Exact

    x = Hits(12, rolls=36, at_most=0).exact()
    assert isinstance(x, Exact) and x == F(35, 36) ** 36
    assert str(x).startswith("≈0.3627100331") and "56 digits over 57" in repr(x)
    assert str(x.fraction) == str(F(35, 36) ** 36) and len(str(x.fraction)) == 114
    assert pickle.loads(pickle.dumps(x)) == x and type(1 - x) is F
    assert repr(Hits(7, rolls=3).exact()) == "Fraction(91, 216)" and str(Hits(7, rolls=3).exact()) == "91/216"


def test_keep_probability_accepts_faces():
    from catan_nb.dicegame import Face, Kind, keep_probability

    hand = [Face.ORE, Face.ORE, Face.GRAIN, Face.WOOL, Face.GOLD, Face.BRICK]
    by_position = keep_probability(Kind.CITY, hand, [0, 1, 2], 2)
    assert keep_probability(Kind.CITY, hand, [Face.ORE, Face.ORE, Face.GRAIN], 2) == by_position
    assert keep_probability(Kind.CITY, hand, ["ore", "grain", "ore"], 2) == by_position == F(29, 72)
    with pytest.raises(ValueError, match="no more ore"):
        keep_probability(Kind.CITY, hand, [Face.ORE] * 3, 2)
    with pytest.raises(ValueError, match="not both"):
        keep_probability(Kind.CITY, hand, [0, Face.ORE], 2)


def test_dice_worksheet_shows_its_errors_and_clears_the_old_verdict():
    from catan_nb.widgets.classroom import DiceWorksheet

    sheet = DiceWorksheet()
    sheet.test_text("7 8 6 5 9 7 4 10 7 6 8 " * 4)
    assert sheet.result is not None and "Degrees of freedom" in sheet.output.value
    for typo, shown in (("7 8 13 6 " * 5, "Roll 3: 13 is not a two-dice total"),
                        ("7 eight 6 " * 5, "Roll 2: &#x27;eight&#x27; is not a number"),
                        ("7 8 6", "3 rolls are too few")):
        sheet.test_text(typo)
        assert sheet.result is None and sheet.rolls == []
        assert shown in sheet.output.value and "Degrees of freedom" not in sheet.output.value
        assert "Error" not in sheet.output.value  # a sentence, no exception name (issue 39 item 10)
        sheet.test_text("7 8 6 5 9 7 4 10 7 6 8 " * 4)  # a good table again
        assert sheet.message == "" and "Degrees of freedom" in sheet.output.value
    sheet.load_game("/nonexistent/game.json")
    assert sheet.result is None and "Not tested" in sheet.output.value


# ---------------------------------------------------------------- from expected value to decisions
def _simulated_wait(w, trials, seed):
    """The same model rolled out: roll until the hand can pay (with bank trades at the chain's rates)."""
    from catan_nb.constants import COSTS

    rng = np.random.default_rng(seed)
    cost, out = COSTS[w.build], []
    for _ in range(trials):
        hand, k = list(w.start), 0
        while True:
            missing = sum(max(0, n - x) for n, x in zip(cost, hand))
            credit = sum(max(0, x - n) // r for x, n, r in zip(hand, cost, w.rates)) if w.rates else 0
            if missing <= credit:
                break
            k += 1
            gain = w.cards_by_total.get(int(rng.integers(1, 7) + rng.integers(1, 7)), (0,) * 5)
            hand = [x + g for x, g in zip(hand, gain)]
        out.append(k)
    return np.array(out)


@pytest.mark.parametrize("first, second, build, trades", [
    (49, 40, "city", True), (31, 49, "settlement", True), (25, 45, "city", False)])
def test_the_wait_for_a_build_is_the_chain_rolled_out(first, second, build, trades):
    from catan_nb.analysis.probability import estimate_mean
    from catan_nb.analysis.waiting import starting_hand, wait_to_afford

    board = Board.beginner()
    w = wait_to_afford(board, build, settlements=[first, second], hand=starting_hand(board, second), trades=trades)
    sim = _simulated_wait(w, 1500, seed=first)
    assert estimate_mean(sim, confidence=0.999).low <= float(w.expected_rolls()) <= estimate_mean(sim, confidence=0.999).high
    curve = [float(p) for p in w.curve(100)]
    assert abs(curve[10] - np.mean(sim <= 10)) < 0.05 and w.cdf(10) == w.curve(10)[10]
    assert curve[0] == 0 and curve == sorted(curve) and curve[100] > 0.99
    # the mean is the sum of the tail probabilities
    assert sum(1 - p for p in curve) == pytest.approx(float(w.expected_rolls()), rel=1e-2)


def test_the_wait_knows_what_cannot_be_paid():
    from catan_nb.analysis.waiting import bank_rates, starting_hand, wait_to_afford

    board = Board.beginner()
    assert starting_hand(board, 49) == (0, 0, 1, 1, 0) and bank_rates(board, [49]) == (4, 4, 4, 2, 4)
    never = wait_to_afford(board, "settlement", settlements=[31, 49], trades=False)   # no brick
    assert not never.reachable and never.expected_rolls() == float("inf") and never.median() is None
    assert "never" in repr(never)
    ready = wait_to_afford(board, "road", settlements=[31], hand=(1, 1, 0, 0, 0))
    assert ready.expected_rolls() == 0 and ready.median() == 0
    with pytest.raises(ValueError, match="build must be"):
        wait_to_afford(board, "castle", settlements=[31])
    # a city collects two cards: it never waits longer than a settlement in its place
    s = wait_to_afford(board, "city", settlements=[40, 49]).expected_rolls()
    c = wait_to_afford(board, "city", settlements=[49], cities=[40]).expected_rolls()
    assert c < s


# ---------------------------------------------------------------- the unplugged start
def test_printable_pages_are_sized_to_the_paper():
    from catan_nb.viz.printable import PAPERS, paper_size, printable_board, tally_worksheet, teacher_sheet

    assert paper_size("A4") == (794, 1123) and paper_size("Letter") == (816, 1056)
    for paper in PAPERS:
        for fig in (printable_board(Board.beginner(), paper=paper), tally_worksheet(paper=paper), teacher_sheet(paper=paper)):
            assert (fig.layout.width, fig.layout.height) == paper_size(paper)
    sheet = tally_worksheet(rolls=60)
    assert list(sheet.data[0].cells.values[0]) == list(range(2, 13)) and "60" in sheet.layout.title.text
    with pytest.raises(ValueError, match="paper must be"):
        paper_size("A5")
    with pytest.raises(ValueError, match="rolls"):
        tally_worksheet(rolls=0)


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG) of a #rrggbb colour."""
    rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _colours(fig) -> tuple[list[str], list[str]]:
    """The fill colours and the text colours a printable page uses."""
    def named(c):
        return {"white": "#ffffff", "black": "#000000"}.get(c, c)

    fills, texts = [], []
    for t in fig.data:
        if t.type == "table":
            for part in (t.header, t.cells):
                fills += [named(c) for c in ([part.fill.color] if isinstance(part.fill.color, str) else part.fill.color)]
                texts += [named(c) for c in ([part.font.color] if isinstance(part.font.color, str) else part.font.color)]
            continue
        if t.fill:
            fills.append(named(t.fillcolor))
        if t.fillpattern and t.fillpattern.bgcolor:
            fills.append(named(t.fillpattern.bgcolor))
        if t.marker and t.marker.color is not None and "markers" in (t.mode or ""):
            fills += [named(c) for c in ([t.marker.color] if isinstance(t.marker.color, str) else t.marker.color)]
        if "text" in (t.mode or "") and t.textfont.color is not None:
            texts += [named(c) for c in ([t.textfont.color] if isinstance(t.textfont.color, str) else t.textfont.color)]
    for a in fig.layout.annotations:
        if a.bgcolor:
            fills.append(named(a.bgcolor))
        texts.append(named(a.font.color))
    fills += [named(sh.fillcolor) for sh in fig.layout.shapes if sh.fillcolor]
    return fills, texts


def test_printable_pages_print_in_black_and_white():
    """Issue 39: light fills only (each far lighter than the black text), a pattern and a name per terrain,
    intersection numbers of at least 10 pt in their own circles, no mark on the desert, the island across the
    page; the worksheet holds no count of the 36 outcomes (the teacher's sheet does) and asks for a prediction
    first."""
    from catan_nb import Terrain
    from catan_nb.analysis import dice_sum_distribution
    from catan_nb.viz.printable import (PRINT_PATTERN, PRINT_TEXT_PX, PT_PER_PX, paper_size, printable_board,
                                        tally_worksheet, teacher_sheet)

    board = Board.random(seed=39)
    pages = [printable_board(board, paper=p) for p in ("A4", "Letter")] + [tally_worksheet(), teacher_sheet()]
    for fig in pages:
        fills, texts = _colours(fig)
        assert fills and texts
        assert min(_luminance(c) for c in fills) >= 0.7, sorted(fills, key=_luminance)[:3]
        assert max(_luminance(c) for c in texts) <= 0.12, sorted(texts, key=_luminance)[-3:]
    fig = pages[0]
    names = {t.name: t for t in fig.data}
    producing = {t.terrain for t in board.hexes if t.is_land and t.terrain is not Terrain.DESERT}
    assert len({PRINT_PATTERN[t] for t in producing}) == len(producing)
    assert all(names[str(t)].fillpattern.shape == PRINT_PATTERN[t] for t in producing if str(t) in names)
    assert sorted(names["terrain"].text) == sorted(str(t.terrain) for t in board.hexes if t.is_land)
    nodes = names["intersections"]
    assert nodes.textfont.size * PT_PER_PX >= 10 and nodes.marker.size > 1.5 * nodes.textfont.size
    assert list(nodes.text) == [str(v) for v in sorted(board.graph.nodes)]
    assert min(PRINT_TEXT_PX.values()) * PT_PER_PX >= 10
    desert = [t for t in board.hexes if t.terrain is Terrain.DESERT]
    assert len(names["tokens"].x) == sum(1 for t in board.hexes if t.token) and all(t.token is None for t in desert)
    xs = [x for x in nodes.x]
    span = (max(xs) - min(xs)) / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
    assert span > 0.7, span  # the island spans most of the page's width
    # the students' worksheet: prediction first, then the tally; no ways, dots or fractions of 36
    sheet = tally_worksheet(paper="Letter")
    words = " ".join(str(a.text) for a in sheet.layout.annotations) + " ".join(
        str(v) for t in sheet.data for v in list(t.header.values) + [x for col in t.cells.values for x in col])
    assert not re.search(r"ways|/ ?36|●|expected", words), re.search(r"ways|/ ?36|●|expected", words).group()
    boxes = sorted(sheet.layout.annotations, key=lambda a: -a.y)
    assert "predict" in boxes[0].text.lower() and boxes[0].y > sheet.data[0].domain.y[1]
    # the teacher's sheet: the 36 outcomes and each total's ways, as the library counts them
    teacher = teacher_sheet(rolls=36)
    grid, table = teacher.data
    assert [list(col) for col in grid.cells.values[1:]] == [[a + b for a in range(1, 7)] for b in range(1, 7)]
    dist = dice_sum_distribution()
    assert list(table.cells.values[1]) == [int(36 * dist[t]) for t in dist] == [sum(
        1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in dist]
    assert paper_size("A4") == (teacher.layout.width, teacher.layout.height)


def test_write_printables_makes_a4_and_letter_pages(tmp_path):
    """The PDF pages have the paper's size (points: A4 595 x 842, Letter 612 x 792).  Needs kaleido's Chromium."""
    import shutil

    from catan_nb.viz.printable import write_printables

    if not (shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")):
        pytest.skip("no Chromium for kaleido")
    paths = write_printables(tmp_path, papers=("A4", "Letter"), formats=("pdf",))
    assert [p.name for p in paths] == [f"{page}_{paper}.pdf" for paper in ("A4", "Letter")
                                       for page in ("board", "worksheet", "teacher_sheet")]
    for p in paths:
        assert _page_size(p) == pytest.approx((595.3, 841.9) if "A4" in p.name else (612, 792), abs=1.5), p.name


def _page_size(path) -> tuple[float, float]:
    """Width and height in points of a PDF's first page (its MediaBox)."""
    box = [float(x) for x in re.search(rb"MediaBox\s*\[([^\]]*)\]", path.read_bytes()).group(1).split()]
    return box[2] - box[0], box[3] - box[1]


PRINTABLES = Path(__file__).resolve().parent.parent / "notebooks" / "printables"


def _pgm(path) -> np.ndarray:
    """A binary greyscale PGM (what pdftoppm -gray writes) as an array."""
    data = path.read_bytes()
    magic, w, h, _, pixels = data.split(maxsplit=4)
    assert magic == b"P5"
    return np.frombuffer(pixels[-int(w) * int(h):], dtype=np.uint8).reshape(int(h), int(w)).astype(int)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_shipped_printables_exist_render_and_print_in_black_and_white(paper, tmp_path):
    """Issue 39: notebooks/printables/ holds the board, the worksheet and the teacher's sheet as PDFs, at the
    paper's size, made by the current code (docs/tools/make_printables.py --check); each page renders with
    pdftoppm, and in grey every filled area is far lighter than the text."""
    import shutil
    import subprocess
    import sys

    for page in ("board", "worksheet", "teacher_sheet"):
        path = PRINTABLES / f"{page}_{paper}.pdf"
        assert path.exists(), path
        assert _page_size(path) == pytest.approx((595.3, 841.9) if paper == "A4" else (612, 792), abs=1.5), path.name
    tool = Path(__file__).resolve().parent.parent / "docs" / "tools" / "make_printables.py"
    out = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, f"{out.stdout}{out.stderr}: run python docs/tools/make_printables.py"
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    for page in ("board", "worksheet", "teacher_sheet"):
        subprocess.run(["pdftoppm", "-r", "50", "-gray", "-f", "1", "-l", "1", str(PRINTABLES / f"{page}_{paper}.pdf"),
                        str(tmp_path / page)], check=True, timeout=60)
        grey = _pgm(next(tmp_path.glob(f"{page}*.pgm")))
        assert grey.shape[0] > 300 and grey.min() <= 60, page  # rendered, with black text on it
        # a filled area: where a 5 x 5 window is flat (text and lines are not); every one is light
        pad = np.pad(grey, 2, mode="edge")
        windows = np.stack([pad[i:i + grey.shape[0], j:j + grey.shape[1]] for i in range(5) for j in range(5)])
        flat = windows.max(axis=0) - windows.min(axis=0) <= 12
        assert flat.mean() > 0.3 and grey[flat].min() >= 200, (page, grey[flat].min())


def test_tally_sheet_checks_tallies_and_settlements():
    from catan_nb.widgets.classroom import TallySheet

    sheet = TallySheet(Board.beginner())
    counts = [2, 1, 3, 5, 4, 7, 6, 3, 2, 2, 1]
    sheet.check(counts, "28 31")
    r = sheet.result
    assert r["rolls"] == 36 and r["expected"][2] == 1 and r["spots"][28]["pips"] == r["spots"][31]["pips"] == 11
    prod = placement_production_of(Board.beginner(), [28, 31])
    assert r["cards"] == sum(c * sum(prod.by_roll.get(t, {}).values()) for t, c in zip(range(2, 13), counts))
    assert "test" in r and "Your settlements" in sheet.output.value
    assert "best" not in sheet.output.value  # which intersection is best is question 3 of lesson 9
    for bad, shown in (([1] * 10, "Type 11 counts"), ([0] * 11, "No rolls counted yet"), ([-1] + [3] * 10, "whole number"),
                       ((counts, "39 44"), "distance rule"), ((counts, "31 99"), "Type two intersections"),
                       ((counts, "31 31"), "the same intersection")):
        args = bad if isinstance(bad, tuple) else (bad,)
        sheet.check(*args)
        assert sheet.result is None and shown in sheet.output.value, shown
        # issue 39: a sentence for a class, no exception name ("ValueError: 31 and 31 are next to each other")
        assert not re.search(r"[A-Z][a-z]+Error|B-BUILD|Traceback", sheet.output.value), sheet.output.value


@pytest.mark.parametrize("seed", range(4))
def test_the_worksheets_refuse_typing_mistakes_in_plain_sentences(seed):
    """Issue 39 item 10: whatever a class types, TallySheet and DiceWorksheet answer with a sentence a
    12-year-old reads (no exception name, no rule id), and keep no result."""
    import random

    from catan_nb.widgets.classroom import DiceWorksheet, TallySheet

    rng = random.Random(seed)
    sheet, dice = TallySheet(Board.beginner()), DiceWorksheet()
    words = ["31", "31", "7", "0", "53", "54", "-3", "x", "7.5", "13", "3+4", "12", "", " "]
    for _ in range(25):
        spots = " ".join(rng.choice(words) for _ in range(rng.randint(0, 3)))
        counts = [rng.choice([0, 0, 1, 3, -1]) for _ in range(rng.choice([11, 11, 10]))]
        sheet.check(counts, spots)
        dice.test_text(" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))))
        for w in (sheet, dice):
            if w.result is None:
                assert w.message.startswith("⚠") or "Not" in w.output.value
                assert not re.search(r"[A-Z][a-z]+Error|B-BUILD|Traceback", w.output.value + w.message), w.message
    sheet.check({7: 6, 8: 5, 6: 5})
    assert sheet.result["rolls"] == 16 and sheet.result["spots"] == {}


def placement_production_of(board, nodes):
    from catan_nb.analysis import placement_production

    return placement_production(board, nodes)

"""The engine benchmarks run and print their figures on the last line (issue 17), on tiny inputs.

Nothing here asserts a timing: only that each script still runs against the current engine and
ends with the line its docstring promises (README, Performance).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from catan_nb.analysis.placement import PlacementWeights

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

CASES = [
    ("engine.py", ["--games", "2"], r"^games/s: [\d.]+  games/cpu_s: [\d.]+  actions/game: \d+  turns/game: \d+$"),
    ("copy.py", ["--actions", "150", "--repeat", "20"], r"^copy_us: [\d.]+  determinized_us: [\d.]+$"),
    ("modules.py", ["--games", "1", "--only", "base", "seafarers", "helpers"],
     r"^us/action: base [\d.]+  seafarers [\d.]+  helpers [\d.]+$"),
    ("loop_floor.py", ["--games", "2"], r"floor_us"),
    ("openings_speed.py", ["--top", "1", "--playouts", "1"], r"^ck_cpu_s: [\d.]+  seafarers_cpu_s: [\d.]+  games: 1$"),
    ("placement_validity.py", ["--cases", "1", "--top", "3", "--playouts", "2", "--bootstrap", "10", "--set", "pace=1"],
     r"^module: base  mean_rho: \S+ \[\S+, \S+\]  cases: 1  playouts: 2  half_width: [\d.]+  over_boards: \[\S+, \S+\]$"),
    ("lessons.py", ["--student", "09"], r"^slowest_cpu_s: [\d.]+  lesson: 09_unplugged_start  cell: \S+  lessons: 1$"),
    ("engine_playouts.py", ["--games", "1", "--turns", "2"],
     r"^ck_s_per_game: [\d.]+  sf_s_per_game: [\d.]+  base_s_per_game: [\d.]+$"),
]


@pytest.mark.parametrize("script, args, last", CASES, ids=[c[0] for c in CASES])
def test_benchmark_prints_its_figures_on_the_last_line(script, args, last):
    out = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300,
                         cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert re.search(last, out.stdout.strip().splitlines()[-1]), out.stdout[-500:]


@pytest.mark.xdist_group("fast")  # beside tests/test_fast.py's worker: one compile of the kernel's job, not two at once
def test_fast_benchmark_prints_whole_process_figures_on_the_last_line():
    """benchmarks/fast.py --process (issue 40): the loop's figures, then the whole process's."""
    pytest.importorskip("numba")
    out = subprocess.run([sys.executable, str(BENCH / "fast.py"), "--games", "3", "--process"], capture_output=True,
                         text=True, timeout=900, cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    last = (r"^games/s: [\d.]+  games/cpu_s: [\d.]+  actions/game: \d+  turns/game: \d+  "
            r"process_cpu_s: [\d.]+  process_games/cpu_s: [\d.]+$")
    assert re.search(last, out.stdout.strip().splitlines()[-1]), out.stdout[-500:]


def test_placement_fit_collects_refreshes_and_fits_with_two_workers(tmp_path):
    """benchmarks/placement_fit.py: a tiny run on two workers (each builds its own game), then a refit of the
    stored pairs with today's terms (``--refresh``); the last line is the cross-validated fit."""
    data = tmp_path / "fit.jsonl"
    common = [sys.executable, str(BENCH / "placement_fit.py"), "--data", str(data)]
    out = subprocess.run([*common, "--boards", "2", "--seed", "5000", "--top", "3", "--random", "1", "--playouts", "2",
                          "--workers", "2"], capture_output=True, text=True, timeout=600, cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = data.read_text().splitlines()
    assert len(rows) == 8 and all('"board_seed"' in r and '"room"' in r for r in rows)
    out = subprocess.run([*common, "--fit-only", "--refresh"], capture_output=True, text=True, timeout=600,
                         cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert re.search(r"^cv_top20_rho: \S+  weights: production=1 ", out.stdout.strip().splitlines()[-1]), out.stdout[-500:]
    out = subprocess.run([*common, "--fit-only", "--scan", "pace=0,1"], capture_output=True, text=True, timeout=600,
                         cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert re.search(r"^scan pace: 0=\S+ 1=\S+$", out.stdout.strip().splitlines()[-1]), out.stdout[-500:]
    assert all('"winners"' in r and '"seat_terms"' in r for r in rows)
    out = subprocess.run([*common, "--fit-only", "--refresh", "--seats"], capture_output=True, text=True, timeout=600,
                         cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "seat offsets: +0.000 " in out.stdout, out.stdout[-500:]
    assert re.search(r"^cv_top20_rho: \S+  weights: production=1 ", out.stdout.strip().splitlines()[-1]), out.stdout[-500:]


def test_placement_fit_seats_recovers_a_generated_logit():
    """placement_fit.fit_seats: winners drawn from a known multinomial logit of generated seat terms (each seat's
    chance ``exp(u_q) / sum exp(u_p)``) give back its weights and seat offsets, within a few standard errors."""
    import importlib.util

    import numpy as np

    spec = importlib.util.spec_from_file_location("placement_fit", BENCH / "placement_fit.py")
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)
    rng = np.random.default_rng(7)
    names = ["production", "pace", "room"]
    true_w, true_off = np.array([3.0, -20.0, 0.1]), np.array([0.0, -0.2, 0.1, 0.3])
    data = {}
    for board in range(40):
        rows = []
        for _ in range(25):
            x = np.column_stack([rng.normal(0.5, 0.1, 4), rng.normal(0.04, 0.01, 4), rng.integers(0, 9, 4)])
            u = x @ true_w + true_off
            p = np.exp(u - u.max())
            winners = rng.choice(4, size=60, p=p / p.sum()).tolist()
            rows.append({"seat": 0, "wins": [w == 0 for w in winners], "winners": winners,
                         "seat_terms": {k: x[:, i].tolist() for i, k in enumerate(names)}})
        data[board] = rows
    w, off = fit.fit_seats(data, names, lam=0.0)
    assert np.all(np.abs(w - true_w) < [0.3, 2.5, 0.01]), w
    assert np.all(np.abs(off - true_off) < 0.05), off
    shrunk, _ = fit.fit_seats(data, names, lam=1.0)
    assert np.all(np.abs(shrunk) < np.abs(w))  # the ridge penalty pulls the weights towards 0


def test_placement_validity_compare_plays_a_weighting_that_reorders_spots_where_the_rivals_follow_it():
    """placement_validity.py --compare: a weight of a spot part (``pace`` at 20) changes the order the modelled
    rivals found by, so its pairs are played where the rivals follow that order: its rank correlation is a plain
    run's with ``--set pace=20``, playout for playout; a pair weight (``room``) shares the game's world."""
    common = [sys.executable, str(BENCH / "placement_validity.py"), "--cases", "1", "--seed", "2", "--top", "5",
              "--playouts", "3"]
    plain = subprocess.run([*common, "--bootstrap", "10", "--set", "pace=20"], capture_output=True, text=True,
                           timeout=300, cwd=BENCH.parent)
    assert plain.returncode == 0, plain.stderr[-2000:]
    rho = float(re.search(r"mean_rho: (\S+)", plain.stdout).group(1))
    room = f"{PlacementWeights().room:g}"  # the default: the plain run's
    out = subprocess.run([*common, "--compare", "pace=0,20,0", "--compare", f"room={room},{room},0"], capture_output=True,
                         text=True, timeout=300, cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = [x for x in out.stdout.splitlines() if x.startswith("case 2 ")]
    assert len(lines) == 3 and "rivals by its own order" in lines[1], out.stdout[-1500:]
    assert "rivals by its own order" not in lines[0] + lines[2]
    found = re.search(rf"^compare pace=20,room={room}: mean_rho (\S+)", out.stdout, re.M)
    assert found and float(found.group(1)) == pytest.approx(rho, abs=1e-3), out.stdout[-1500:]


def test_placement_validity_compare_reuses_a_dump_and_agrees_with_a_plain_run(tmp_path):
    """placement_validity.py --compare: with the game's own value among those tried, its rank correlation is the
    plain run's, and its pairs' playouts come from the plain run's --dump (no pair played again)."""
    dump = tmp_path / "plain.jsonl"
    common = [sys.executable, str(BENCH / "placement_validity.py"), "--cases", "1", "--top", "4", "--playouts", "3"]
    plain = subprocess.run([*common, "--bootstrap", "10", "--dump", str(dump)], capture_output=True, text=True,
                           timeout=300, cwd=BENCH.parent)
    assert plain.returncode == 0, plain.stderr[-2000:]
    rho = re.search(r"mean_rho: (\S+)", plain.stdout).group(1)
    out = subprocess.run([*common, "--compare", "pace=0", "--cache", str(dump)], capture_output=True, text=True,
                         timeout=300, cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "(union 4 pairs, 0 played)" in out.stdout, out.stdout[-1000:]
    last = out.stdout.strip().splitlines()[-1]
    assert re.search(r"^compare pace=0: mean_rho \S+  per case \S+  picks [\d./]+$", last), last
    assert float(re.search(r"mean_rho (\S+)", last).group(1)) == pytest.approx(float(rho), abs=1e-3)


def test_placement_validity_compares_several_weights_changed_together():
    """placement_validity.py --compare repeated: the k-th values of every name make one weighting, printed by name;
    lists of unequal length are a one-line usage error."""
    common = [sys.executable, str(BENCH / "placement_validity.py"), "--cases", "1", "--top", "3", "--playouts", "2"]
    out = subprocess.run([*common, "--compare", "pace=0,1", "--compare", "rivals=1,0.5"], capture_output=True,
                         text=True, timeout=300, cwd=BENCH.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    last = out.stdout.strip().splitlines()[-2:]
    assert last[0].startswith("compare pace=0,rivals=1: mean_rho "), last
    assert last[1].startswith("compare pace=1,rivals=0.5: mean_rho "), last
    assert "against pace=0,rivals=1: rho " in last[1] and " best 20 " in last[1] and "against" not in last[0], last
    bad = subprocess.run([*common, "--compare", "pace=0,1", "--compare", "rivals=1"], capture_output=True,
                         text=True, timeout=300, cwd=BENCH.parent)
    assert bad.returncode == 2 and "as many values (pace: 2, rivals: 1)" in bad.stderr, bad.stderr[-500:]
    assert "Traceback" not in bad.stderr

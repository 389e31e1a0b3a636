"""The ``play`` job built ahead of time (issue 40: start-up): the same games as numba's jitted
kernel, a process that loads it imports no numba, and where it cannot be built the jit plays."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from catan_nb import Board  # noqa: E402
from catan_nb.fast import _aot, _compile  # noqa: E402
from catan_nb.fast import layout as L  # noqa: E402
from catan_nb.fast._cached import random_tables  # noqa: E402
from catan_nb.fast._features import N_FEATURES  # noqa: E402
from catan_nb.fast.tables import board_row, setup  # noqa: E402
from helpers import run_python  # noqa: E402

pytestmark = pytest.mark.xdist_group("fast")  # the worker that compiles the kernel builds it too


@pytest.fixture(scope="module")
def built():
    """The built job (built here if this machine has none yet), or a skip where it cannot be."""
    job = _aot.job("play")
    if not isinstance(job, _aot._Job):
        pytest.skip("the play job cannot be built ahead of time here (see its .failed marker)")
    return job


def _args(players: int, G: int, policies, seed: int, log_rows: int):
    tmpl, T = random_tables("five_six" if players > 4 else "base", players)
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, 2**63, G).astype(np.uint64)
    seats = rng.integers(0, players, G).astype(np.int64)
    codes = np.array([[policies[(i + j) % len(policies)] for j in range(players)] for i in range(G)], np.int64)
    from catan_nb.fast import value_weights

    W = value_weights() if L.POL_VALUE in policies else np.zeros(N_FEATURES)
    logs = np.zeros((G, log_rows, 2), np.int32)
    results = np.zeros((G, L.R_HEAD + L.R_SEAT * players), np.int64)
    rows = np.zeros((G, 2 * int(T[L.P_NAMES.index("HEXES")]) + int(T[L.P_NAMES.index("NODES")]) + 1), np.int64)
    return T, tmpl, seeds, seats, codes, W, logs, results, rows


@pytest.mark.parametrize("players, policies, G", [
    (3, [L.POL_RANDOM], 40), (4, [L.POL_RANDOM, L.POL_WEIGHTED], 40), (4, [L.POL_VALUE, L.POL_RANDOM], 4),
    (5, [L.POL_WEIGHTED], 20), (6, [L.POL_RANDOM], 20),
])
def test_the_built_module_plays_the_jitted_kernels_games(built, players, policies, G):
    """Games on boards drawn in the kernel, action for action (their logs), board for board and
    result for result, with random seeds, starting seats and mixed policies."""
    jit = _compile.kernel()
    out = []
    for entry in (built.play_random_boards, jit.play_random_boards):
        T, tmpl, seeds, seats, codes, W, logs, results, rows = _args(players, G, policies, players, 3000)
        entry(T, tmpl, seeds, seats, codes, W, -1, 100_000, logs, results, rows)
        out.append((logs, results, rows))
    assert (out[0][1][:, L.R_ACTIONS] > 0).all()
    for a, b in zip(*out):
        assert np.array_equal(a, b)


def test_the_built_module_plays_given_boards_as_the_jit_does(built):
    jit = _compile.kernel()
    boards = [Board.random(seed=s) for s in (3, 4, 5)]
    s = setup(boards[0], 4, None)
    out = []
    for entry in (built.play_games, jit.play_games):
        G = 12
        rows = np.stack([board_row(boards[i % 3]) for i in range(G)]).astype(np.int64)
        seeds = np.arange(100, 100 + G, dtype=np.uint64)
        seats = np.arange(G, dtype=np.int64) % 4
        codes = np.full((G, 4), L.POL_WEIGHTED, np.int64)
        logs = np.zeros((G, 2000, 2), np.int32)
        results = np.zeros((G, L.R_HEAD + L.R_SEAT * 4), np.int64)
        entry(s.T, seeds, seats, rows, codes, np.zeros(N_FEATURES), 40, 100_000, logs, results)
        out.append((logs, results))
    for a, b in zip(*out):
        assert np.array_equal(a, b)


def test_arguments_it_was_not_built_for_go_to_the_jit(built):
    """A results array in Fortran order, a read-only template: the jit plays them, and its writes
    reach the caller's arrays."""
    T, tmpl, seeds, seats, codes, W, logs, results, rows = _args(4, 6, [L.POL_RANDOM], 7, 0)
    built.play_random_boards(T, tmpl, seeds, seats, codes, W, -1, 100_000, logs, results, rows)
    F = np.asfortranarray(np.zeros_like(results))
    ro = tmpl.copy()
    ro.flags.writeable = False
    rows2 = np.zeros_like(rows)
    built.play_random_boards(T, ro, seeds, seats, codes, W, -1, 100_000, logs, F, rows2)
    assert np.array_equal(F, results) and np.array_equal(rows2, rows)


def test_a_process_that_plays_imports_no_numba(built):
    code = (
        "import sys\n"
        "import catan_nb.fast as fast\n"
        "b = fast.play('random', 4, seeds=[0, 1, 2])\n"
        "print(sorted(m for m in ('numba', 'llvmlite', 'catan_nb.fast.kernel', 'networkx') if m in sys.modules),"
        " len(b), fast.compiled('play_games'), fast.compiled('play_random_boards'))\n"
    )
    out = run_python(code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[] 3 True True"
    assert "compiling" not in out.stderr


def test_catan_nb_aot_0_plays_through_the_jit(monkeypatch):
    monkeypatch.setenv("CATAN_NB_AOT", "0")
    monkeypatch.setattr(_aot, "_JOBS", {})
    assert _aot.job("play") is _compile.kernel()


def test_a_build_that_fails_falls_back_to_the_jit_and_says_why(tmp_path, monkeypatch, capsys):
    """No C compiler (here: numba.pycc.CC refuses): the notice ends as stopped, a marker names the
    error, the jit plays, and the next process does not try again."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba says pycc is pending deprecation
        import numba.pycc

    tries = []

    class NoCompiler:
        def __init__(self, *args, **kwargs):
            tries.append(1)
            raise RuntimeError("no C compiler here")

    monkeypatch.setattr(numba.pycc, "CC", NoCompiler)
    monkeypatch.setattr(_aot, "folder", lambda: tmp_path)
    monkeypatch.setattr(_aot, "_JOBS", {})
    monkeypatch.delenv("CATAN_NB_AOT", raising=False)
    assert _aot.job("play") is _compile.kernel()
    marker = _aot._path("play").with_suffix(".failed")
    assert "no C compiler here" in marker.read_text()
    err = capsys.readouterr().err
    assert "compiling the simulator (play)" in err and "compile stopped" in err
    monkeypatch.setattr(_aot, "_JOBS", {})
    assert _aot.job("play") is _compile.kernel() and len(tries) == 1
    assert not _aot.built("play")


def test_the_module_is_named_by_its_sources_and_machine(monkeypatch):
    k = _aot.key()
    assert len(k) == 20 and k == _aot.key()
    assert {"kernel.py", "layout.py"} <= set(_aot.SOURCES)
    assert _aot._path("play").name.startswith(f"catan_nb_aot_play.{k}")
    monkeypatch.setattr(_aot, "_KEY", [])
    monkeypatch.setattr(_aot, "FORMAT", _aot.FORMAT + 1)
    assert _aot.key() != k
    monkeypatch.setattr(_aot, "_KEY", [])
    monkeypatch.setattr(_aot, "FORMAT", _aot.FORMAT - 1)
    monkeypatch.setattr(_aot, "_machine", lambda: "another CPU")
    assert _aot.key() != k


def test_the_folder_follows_numba_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert _aot.folder() == tmp_path / "catan_nb"


def test_a_folder_it_cannot_write_builds_nothing(tmp_path, monkeypatch):
    """Nowhere to keep the module: the jit plays at once (no compile for a file it could not keep)."""
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setattr(_aot, "folder", lambda: blocker / "cache")
    monkeypatch.setattr(_aot, "_JOBS", {})
    monkeypatch.delenv("CATAN_NB_AOT", raising=False)
    monkeypatch.setattr(_aot, "_build", lambda *a: pytest.fail("built where it cannot be kept"))
    assert _aot.job("play") is _compile.kernel()


def test_a_build_replaces_this_pythons_older_builds_only(built, tmp_path, monkeypatch):
    """A new build removes this Python's stale builds, not another Python's sharing the folder."""
    import importlib.machinery

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    stale = tmp_path / f"catan_nb_aot_play.0123456789abcdef0123{suffix}"
    other = tmp_path / "catan_nb_aot_play.0123456789abcdef0123.cpython-399-x86_64-linux-gnu.so"
    for f in (stale, other):
        f.write_bytes(b"")
    monkeypatch.setattr(_aot, "folder", lambda: tmp_path)
    monkeypatch.setattr(_aot, "_JOBS", {})
    monkeypatch.delenv("CATAN_NB_AOT", raising=False)
    assert isinstance(_aot.job("play"), _aot._Job) and _aot.built("play")
    assert not stale.exists() and other.exists()

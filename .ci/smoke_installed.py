"""Smoke test of the package installed from a wheel, run from a folder outside the repository.

Loads every shipped board and sheet, plays a game to the end, saves and reloads it, draws a
figure, and runs the command-line tool.  Exits non-zero on the first failure.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import importlib
import pkgutil

import catan_nb
OPTIONAL = {"numba", "gymnasium", "pettingzoo", "dask", "distributed", "kaleido", "voila", "jupyterlab"}
# Every module of the installed package imports (a subpackage missing from the wheel fails here).
for info in pkgutil.walk_packages(catan_nb.__path__, "catan_nb."):
    if info.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(info.name)
    except ImportError as exc:  # only an optional extra (rl, fast, dask...) may be missing
        if "catan-nb[" not in str(exc) and getattr(exc, "name", None) not in OPTIONAL:
            raise
from catan_nb import Board, DiceSheet, Game
from catan_nb.analysis import RandomBot, play_game
from catan_nb.board import BOARDS_DIR
from catan_nb.viz import board_figure

here = Path.cwd().resolve()
package = Path(catan_nb.__file__).resolve().parent
assert "site-packages" in str(package), f"not the installed package: {package}"
assert not (here / "catan_nb").exists(), "run this outside the repository"
boards = sorted(BOARDS_DIR.glob("*.json"))
assert boards, f"no board files in {BOARDS_DIR}"
for path in boards:
    data = json.loads(path.read_text(encoding="utf-8"))
    if path.name.endswith(".schema.json"):
        continue
    if "structures" in data:
        DiceSheet.load(path)
    else:
        Board.load(path)
print(f"loaded {len(boards)} shipped files from {BOARDS_DIR}")
game = play_game(Game(Board.beginner(), players=4, seed=1, start="beginner"), [RandomBot(s) for s in range(4)])
assert game.is_over
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "game.json"
    game.save(path)
    assert Game.load(path).state() == game.state()
    fig = board_figure(game)
    assert fig.data, "empty figure"
    out = subprocess.run([sys.executable, "-m", "catan_nb", "openings", "--board", "beginner", "--top", "3"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip(), "the CLI printed nothing"
    bad = subprocess.run([sys.executable, "-m", "catan_nb", "longest-road", str(Path(tmp) / "missing.json")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
# The example rule module ships with the package: a new good, saved and loaded (issue 28).
from catan_nb.examples import shearing  # noqa: E402
from catan_nb.rules import Rules  # noqa: E402

game = play_game(Game(Board.beginner(), players=4, seed=2, start="beginner", rules=Rules(modules=(shearing.NAME,))),
                 [RandomBot(s) for s in range(4)])
assert game.is_over and shearing.Textile.YARN in game.goods
assert Game.from_json(game.to_json()).state() == game.state()
# The app's notebook and Voila template are package data too.
from catan_nb.cli import app_command  # noqa: E402

argv, env = app_command()
assert Path(argv[-1]).is_file(), argv
assert (Path(env["JUPYTER_PATH"].split(os.pathsep)[0]) / "voila/templates/catan/index.html.j2").is_file(), env
# The compiled simulator is an extra (numba): without it the analysis plays through the engine and
# says once how to install it (issue 29).
import warnings  # noqa: E402

from catan_nb import fast  # noqa: E402
from catan_nb.analysis import simulate  # noqa: E402

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    runs = [simulate(2, players=3, bots="weighted", seed=1, max_turns=30, workers=1, progress=False) for _ in range(2)]
assert runs[0] == runs[1] and len(runs[0].records) == 2
said = [w for w in caught if issubclass(w.category, fast.FastUnavailableWarning)]
assert not said, said  # a few quick games play in the engine either way and say nothing (issue 39)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(2):  # a job the kernel would have played: without numba, said once how to install it
        fast.wanted(work=10 * fast.COMPILE_SECONDS, job="play")
said = [w for w in caught if issubclass(w.category, fast.FastUnavailableWarning)]
assert len(said) == (0 if fast.available() else 1), said
assert fast.available() or 'catan-nb[fast]' in str(said[0].message)
# The rules reference ships its data (issue 38): every family loads, and a refusal explains its rule.
from catan_nb import IllegalActionError, reference  # noqa: E402
from catan_nb.rules import describe  # noqa: E402

assert len(reference.rules()) >= 378 and describe("B-BUILD-6"), "the rules reference is empty"
assert IllegalActionError("B-BUILD-7", "x").explanation == describe("B-BUILD-7")
print("installed-package smoke test passed")

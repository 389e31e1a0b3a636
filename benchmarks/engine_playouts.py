"""CPU seconds per whole value-bot game in the Python rule engine, per set-up.

Usage::

    python benchmarks/engine_playouts.py                 # 3 games per set-up
    python benchmarks/engine_playouts.py --games 5 --only cities_knights --only seafarers
    python benchmarks/engine_playouts.py --out /tmp/d.json     # record the games' digests
    python benchmarks/engine_playouts.py --check /tmp/d.json   # ... and compare (exit 1 on a difference)

Each set-up plays ``--games`` seeded games of four :class:`ValueBot` from the founding (at most
``--turns`` turns, default 400, as :func:`~catan_nb.analysis.placement.simulate_openings`) with
:func:`~catan_nb.analysis.bots.play_game`, so in the Python engine (never the compiled simulator):

* ``base``: ``Board.random(seed)``, the base game;
* ``cities_knights``: ``Board.random(seed)`` with ``Rules(modules=("cities_knights",))``;
* ``seafarers``: ``boards/seafarers_islands.json`` with ``Rules.for_board``;
* ``fog``: ``boards/seafarers_fog.json`` with ``Rules.for_board``.

It prints the CPU seconds (``time.process_time``) per game of each set-up and a digest of its games
(the action logs and final states: a speed-up must not move it); the last line is
``ck_s_per_game: X  sf_s_per_game: Y  base_s_per_game: Z``.
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout's catan_nb

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis.bots import play_game  # noqa: E402
from catan_nb.analysis.value_bot import ValueBot  # noqa: E402
from catan_nb.board import BOARDS_DIR  # noqa: E402
from catan_nb.rules import Rules  # noqa: E402

#: Set-up name -> how to make its game of a seed.
SETUPS = {
    "base": lambda seed: Game(Board.random(seed=seed), players=4, seed=seed),
    "cities_knights": lambda seed: Game(Board.random(seed=seed), players=4, seed=seed,
                                        rules=Rules(modules=("cities_knights",))),
    "seafarers": lambda seed: _scenario("seafarers_islands.json", seed),
    "fog": lambda seed: _scenario("seafarers_fog.json", seed),
}
#: The short names of the last line.
SHORT = {"cities_knights": "ck", "seafarers": "sf", "base": "base"}


def _scenario(name: str, seed: int) -> Game:
    board = Board.load(BOARDS_DIR / name)
    return Game(board, players=4, seed=seed, rules=Rules.for_board(board))


def play(name: str, games: int, turns: int) -> tuple[float, str, float]:
    """CPU seconds per game of set-up ``name``, the digest of its games and their mean length in turns."""
    h = hashlib.sha256()
    cpu = 0.0
    n_turns = 0
    for i in range(games):
        seed = 1 + 101 * i
        g = SETUPS[name](seed)
        bots = [ValueBot(seed=seed * 7 + q) for q in range(g.n)]
        t = time.process_time()
        play_game(g, bots, max_turns=turns)
        cpu += time.process_time() - t
        n_turns += g.turn
        for a in g.log:
            h.update(repr(a).encode())
            h.update(b"\n")
        h.update(g.digest().encode())
    return cpu / games, h.hexdigest()[:16], n_turns / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--turns", type=int, default=400)
    ap.add_argument("--only", action="append", choices=list(SETUPS))
    ap.add_argument("--out")
    ap.add_argument("--check")
    a = ap.parse_args()
    names = a.only or list(SETUPS)
    ref = json.load(open(a.check)) if a.check else {}
    per, digests, bad = {}, {}, 0
    for name in names:
        per[name], digests[name], turns = play(name, a.games, a.turns)
        status = ""
        if a.check and name in ref:
            same = ref[name] == digests[name]
            bad += not same
            status = "same" if same else f"DIFFERENT (was {ref[name]})"
        print(f"{name:15s} {per[name]:6.2f} s cpu/game  ({a.games} games, {turns:.0f} turns)  {digests[name]} {status}",
              flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(digests, f, indent=1)
    print("  ".join(f"{SHORT[k]}_s_per_game: {per[k]:.2f}" if k in per else f"{SHORT[k]}_s_per_game: -"
                    for k in ("cities_knights", "seafarers", "base")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

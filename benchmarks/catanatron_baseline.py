"""catanatron's RandomPlayer games/s, for a side-by-side comparison with benchmarks/engine.py.

catanatron is not a project dependency.  Install it in a scratch environment
outside this repository and run this script with that environment's python::

    python3 -m venv /tmp/catanatron-venv
    /tmp/catanatron-venv/bin/pip install catanatron==3.2.1
    /tmp/catanatron-venv/bin/python benchmarks/catanatron_baseline.py --games 200 --seed 1

The last line has the same form as benchmarks/engine.py's.  catanatron counts
the founding placements as turns, and ends a game without a winner after 1000.
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)  # catanatron treats seed=0 as "no seed"
    args = ap.parse_args()
    from catanatron import Color, Game, RandomPlayer

    colours = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    actions = turns = unfinished = 0
    start = time.perf_counter()
    for i in range(args.games):
        game = Game([RandomPlayer(c) for c in colours], seed=args.seed + i)
        if game.play() is None:
            unfinished += 1
        actions += len(game.state.actions)
        turns += game.state.num_turns
    elapsed = time.perf_counter() - start
    print(f"games: {args.games}  seconds: {elapsed:.2f}  without a winner: {unfinished}")
    print(f"games/s: {args.games / elapsed:.1f}  actions/game: {actions / args.games:.0f}  turns/game: {turns / args.games:.0f}")


if __name__ == "__main__":
    main()

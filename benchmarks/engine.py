"""Engine throughput: complete random-bot games in one process.

Usage::

    python benchmarks/engine.py --games 200 --players 4 --seed 1

Each game is played on its own seeded variable-setup board by bots that pick
uniformly among the legal actions (domestic offers excluded), through the
engine's fast path (``Game.apply``).  The last line is
``games/s: X  games/cpu_s: Y  actions/game: Z  turns/game: W`` (wall and CPU time of the loop).  ``turns/game`` counts regular
turns (the founding phase excluded).

To compare with catanatron 3.2.1 side by side, install it in a scratch virtual
environment outside this repository and run ``benchmarks/catanatron_baseline.py``
with that environment's python (see the README's Performance section); for fastcatan 2.0.0 (a
C++ engine, Python >= 3.12) ``benchmarks/fastcatan_baseline.py`` likewise.
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import statistics
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis import RandomBot  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4, choices=(3, 4))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    boards = [Board.random(seed=args.seed + i) for i in range(args.games)]
    for b in boards:
        b.topology  # derived once per board, outside the timed loop (as in play)
    actions, turns, wins = [], [], [0] * args.players
    start, cpu = time.perf_counter(), time.process_time()
    for i, board in enumerate(boards):
        game = Game(board, players=args.players, seed=args.seed + i)
        bots = [RandomBot(seed=(args.seed + i) * 10 + p) for p in range(args.players)]
        while not game.is_over:
            acts = game.legal_actions()
            game.apply(acts[int(bots[game.current_player].rng.random() * len(acts))])
        actions.append(len(game.log))
        turns.append(game.turn)
        wins[game.winner] += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"games: {args.games}  players: {args.players}  seed: {args.seed}  seconds: {elapsed:.2f}  cpu seconds: {cpu:.2f}")
    print(f"wins by seat: {wins}")
    print(f"actions/game median: {statistics.median(actions):.0f}  turns/game median: {statistics.median(turns):.0f}")
    print(
        f"games/s: {args.games / elapsed:.1f}  games/cpu_s: {args.games / cpu:.1f}  actions/game: {statistics.mean(actions):.0f}  "
        f"turns/game: {statistics.mean(turns):.0f}"
    )


if __name__ == "__main__":
    main()

"""Engine throughput: complete random-bot games in one process.

Usage::

    python benchmarks/engine.py --games 200 --players 4 --seed 1

Each game is played on its own seeded variable-setup board by bots that pick
uniformly among the legal actions (domestic offers excluded), through the
engine's fast path (``Game.apply``).  The last line is
``games/s: X  actions/game: Y  turns/game: Z``.  ``turns/game`` counts regular
turns (the founding phase excluded).

To compare with catanatron 3.2.1 side by side, install it in a scratch virtual
environment outside this repository and run ``benchmarks/catanatron_baseline.py``
with that environment's python (see the README's Performance section).
"""

from __future__ import annotations

import argparse
import statistics
import sys
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
    start = time.perf_counter()
    for i, board in enumerate(boards):
        game = Game(board, players=args.players, seed=args.seed + i)
        bots = [RandomBot(seed=(args.seed + i) * 10 + p) for p in range(args.players)]
        while not game.is_over:
            acts = game.legal_actions()
            game.apply(acts[int(bots[game.current_player].rng.random() * len(acts))])
        actions.append(len(game.log))
        turns.append(game.turn)
        wins[game.winner] += 1
    elapsed = time.perf_counter() - start
    print(f"games: {args.games}  players: {args.players}  seed: {args.seed}  seconds: {elapsed:.2f}")
    print(f"wins by seat: {wins}")
    print(f"actions/game median: {statistics.median(actions):.0f}  turns/game median: {statistics.median(turns):.0f}")
    print(
        f"games/s: {args.games / elapsed:.1f}  actions/game: {statistics.mean(actions):.0f}  "
        f"turns/game: {statistics.mean(turns):.0f}"
    )


if __name__ == "__main__":
    main()

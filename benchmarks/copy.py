"""Cost of ``Game.copy()`` for a mid-game base position (what search bots pay per node).

Usage::

    python benchmarks/copy.py --seed 1 --actions 400 --repeat 5000

Plays ``--actions`` random legal actions of a 4-player game on a seeded board (a mid-game
position: roads, settlements, cities, cards in hand, a long log), then times ``copy()`` and,
for comparison, ``determinized()``.  The last line is ``copy_us: X  determinized_us: Y``.
"""

from __future__ import annotations

import os
import sys

# This file is named like the standard library's ``copy``: take its folder off the path first.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import argparse  # noqa: E402
import timeit  # noqa: E402

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis import RandomBot  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--actions", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=5000)
    args = ap.parse_args(argv)
    game = Game(Board.random(seed=args.seed), players=4, seed=args.seed)
    bots = [RandomBot(args.seed * 10 + p) for p in range(4)]
    while not game.is_over and len(game.log) < args.actions:
        game.apply(bots[game.current_player].choose(game))
    print(f"position: {len(game.log)} actions, turn {game.turn}, phase {game.phase.value}, "
          f"pieces {sum(o >= 0 for o in game.node_owner)} buildings / {sum(o >= 0 for o in game.edge_owner)} roads")
    best = min(timeit.repeat(game.copy, number=args.repeat, repeat=5)) / args.repeat
    det = min(timeit.repeat(lambda: game.determinized(0, seed=1), number=max(1, args.repeat // 10), repeat=5))
    det /= max(1, args.repeat // 10)
    print(f"copy_us: {best * 1e6:.1f}  determinized_us: {det * 1e6:.1f}")


if __name__ == "__main__":
    main()

"""The floor of benchmarks/engine.py: its driving loop alone, with the engine taken out.

Usage::

    python benchmarks/loop_floor.py --games 50 --seed 1

The games of ``engine.py`` (same boards, seeds and bots) are played once to record every list
of legal actions.  The same loop (``is_over``, ``legal_actions()``, the bot's draw, ``apply``)
then runs over a stand-in game that hands back the recorded lists and does nothing else.  What
it costs per action is what no engine, however fast, can save from the figure ``engine.py``
prints; the rest is the engine's.  The last line is
``floor_us: X  engine_us: Y  engine_share: Z`` (microseconds per action, CPU time).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis import RandomBot  # noqa: E402


class _Replay:
    """Stands in for a Game in the benchmark loop: hands back recorded legal lists."""

    def __init__(self, lists: list[list], seats: list[int]):
        self._lists, self._seats, self._i = lists, seats, 0

    @property
    def is_over(self) -> bool:
        return self._i >= len(self._lists)

    @property
    def current_player(self) -> int:
        return self._seats[self._i]

    def legal_actions(self) -> list:
        return self._lists[self._i]

    def apply(self, action) -> None:
        self._i += 1


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    boards = [Board.random(seed=args.seed + i) for i in range(args.games)]
    for b in boards:
        b.topology
    recorded, actions = [], 0
    cpu = time.process_time()
    for i, board in enumerate(boards):
        game = Game(board, players=4, seed=args.seed + i)
        bots = [RandomBot(seed=(args.seed + i) * 10 + p) for p in range(4)]
        lists, seats = [], []
        while not game.is_over:
            acts = game.legal_actions()
            lists.append(acts)
            seats.append(game.current_player)
            game.apply(acts[int(bots[game.current_player].rng.random() * len(acts))])
        recorded.append((lists, seats))
        actions += len(lists)
    engine = time.process_time() - cpu
    cpu = time.process_time()
    for i, (lists, seats) in enumerate(recorded):  # the loop of engine.py, verbatim
        game = _Replay(lists, seats)
        bots = [RandomBot(seed=(args.seed + i) * 10 + p) for p in range(4)]
        while not game.is_over:
            acts = game.legal_actions()
            game.apply(acts[int(bots[game.current_player].rng.random() * len(acts))])
    floor = time.process_time() - cpu
    print(f"games: {args.games}  actions: {actions}  loop with the engine: {engine:.2f} cpu s  loop alone: {floor:.2f} cpu s")
    print(f"floor_us: {floor / actions * 1e6:.2f}  engine_us: {(engine - floor) / actions * 1e6:.2f}  "
          f"engine_share: {(engine - floor) / engine:.2f}")


if __name__ == "__main__":
    main()

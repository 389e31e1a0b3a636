"""Board-figure build time and in-place update time after an action, in Python.

Usage::

    python benchmarks/ui.py --repeat 50

``build_ms``: median time of ``board_figure(game)`` on a mid-game position.
``update_ms``: median time for a GameTable to apply one action and update its
FigureWidget in place (``batch_update``) plus its other widgets.  The last line is
``build_ms: X  update_ms: Y``.
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
from catan_nb.analysis import WeightedBot, play_game  # noqa: E402
from catan_nb.viz import board_figure  # noqa: E402
from catan_nb.widgets import GameTable  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    game = Game(Board.random(seed=args.seed), players=4, seed=args.seed)
    play_game(game, [WeightedBot(p) for p in range(4)], max_turns=30)
    board_figure(game)  # warm-up: first plotly import and validators
    builds = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        board_figure(game, longest_road=game.longest_road_holder)
        builds.append((time.perf_counter() - t) * 1000)

    def updates(view_connected: bool) -> list[float]:
        table = GameTable(Board.random(seed=args.seed), seats=["human"] * 4, seed=args.seed, bot_delay=None)
        table._view_alive = view_connected  # as once a browser view has reported in
        bots = [WeightedBot(100 + p) for p in range(4)]
        out = []
        g = table.game
        while len(out) < args.repeat and not g.is_over:
            action = bots[g.current_player].choose(g)
            t = time.perf_counter()
            table._play(action)  # engine move + figure batch_update + controls
            out.append((time.perf_counter() - t) * 1000)
        return out

    before_view = updates(False)
    updates = updates(True)
    print(f"figure builds: {len(builds)}  table updates: {len(updates)}")
    print(f"update_ms before a browser view connects (also refreshes the synced initial data): "
          f"{statistics.median(before_view):.1f}")
    print(f"build_ms p90: {statistics.quantiles(builds, n=10)[-1]:.1f}  update_ms p90: {statistics.quantiles(updates, n=10)[-1]:.1f}")
    print(f"build_ms: {statistics.median(builds):.1f}  update_ms: {statistics.median(updates):.1f}")


if __name__ == "__main__":
    main()

"""CPU seconds of ``simulate_openings(game, 0, top=3, playouts=20, bot="value")`` on the expansions' games.

Usage::

    python benchmarks/openings_speed.py                   # C&K and a Seafarers scenario, top 3 x 20 playouts
    python benchmarks/openings_speed.py --playouts 5      # a quick look

The games are played by the rule engine (the compiled simulator covers the base game only): the
value bots' whole games after each founding.  Targets (issue 36): under 60 CPU seconds on a Cities &
Knights game, under 30 on a Seafarers scenario.  The last line is
``ck_cpu_s: X  seafarers_cpu_s: Y  games: N``.
"""

from __future__ import annotations

import os
import sys

sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis.placement import simulate_openings  # noqa: E402
from catan_nb.board import BOARDS_DIR  # noqa: E402
from catan_nb.rules import Rules  # noqa: E402


def timed(game: Game, top: int, playouts: int, seed: int) -> tuple[float, list]:
    start = time.process_time()
    rows = simulate_openings(game, 0, top=top, playouts=playouts, bot="value", seed=seed, progress=False)
    return time.process_time() - start, rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--playouts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    ck = Game(Board.random(seed=args.seed), players=4, seed=args.seed, rules=Rules(modules=("cities_knights",)))
    sea = Game(Board.load(BOARDS_DIR / "seafarers_islands.json"), players=4, seed=args.seed)
    out = {}
    for name, game in (("ck", ck), ("seafarers", sea)):
        cpu, rows = timed(game, args.top, args.playouts, args.seed)
        out[name] = cpu
        games = args.top * args.playouts
        print(f"{name}: {game.rules.modules}: {games} games in {cpu:.1f} CPU s ({cpu / games:.2f} s a game); "
              f"best {int(rows[0].first)}+{int(rows[0].second)} won {rows[0].win_rate.estimate:.2f}", flush=True)
    print(f"ck_cpu_s: {out['ck']:.1f}  seafarers_cpu_s: {out['seafarers']:.1f}  games: {args.top * args.playouts}")


if __name__ == "__main__":
    main()

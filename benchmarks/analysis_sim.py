"""Simulation throughput: complete bot games per second with 1 and with 2 worker processes.

Usage::

    python benchmarks/analysis_sim.py --games 200 --players 4 --seed 1 --bots random

Runs :func:`catan_nb.analysis.simulation.simulate` twice with the same options,
``workers=1`` (in this process) and ``workers=2`` (a process pool, its start-up
included in the time), checks that both give identical records, and prints
the throughput.  Each game builds its own random board and plays to the end
(or ``--max-turns``).  The last line is
``sim_games_per_s_1: Y  sim_games_per_s_2: Z``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb.analysis.simulation import simulate  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random", help="random or weighted")
    ap.add_argument("--max-turns", type=int, default=None)
    args = ap.parse_args(argv)

    opts = dict(players=args.players, bots=args.bots, seed=args.seed, max_turns=args.max_turns, progress=False)
    simulate(2, workers=1, **opts)  # imports and first-call costs outside the timed runs
    rates = {}
    results = {}
    for workers in (1, 2):
        start = time.perf_counter()
        results[workers] = simulate(args.games, workers=workers, **opts)
        elapsed = time.perf_counter() - start
        rates[workers] = args.games / elapsed
        r = results[workers]
        print(f"workers: {workers}  games: {args.games}  seconds: {elapsed:.2f}  unfinished: {r.unfinished}")
    same = results[1] == results[2]
    print(f"identical records with 1 and 2 workers: {same}")
    if not same:
        raise SystemExit("results differ between 1 and 2 workers")
    print(f"speed-up: {rates[2] / rates[1]:.2f}x")
    print(f"sim_games_per_s_1: {rates[1]:.1f}  sim_games_per_s_2: {rates[2]:.1f}")


if __name__ == "__main__":
    main()

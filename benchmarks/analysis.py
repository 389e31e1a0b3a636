"""Analysis speed in one run: placement (score and rank every opening) and simulation throughput.

Usage::

    python benchmarks/analysis.py --seed 1 --repeat 20 --games 200 --players 4 --bots random

1. Placement: on a variable-setup base
   board (``Board.random(seed)``, topology derived outside the timed part), the
   median of ``--repeat`` runs of
   :func:`~catan_nb.analysis.placement.score_intersections` (every
   intersection) and of :func:`~catan_nb.analysis.placement.rank_openings`
   (seat 0, greedy opponents: every legal ordered pair).  Target: under 0.5 s.
2. Simulation:
   :func:`~catan_nb.analysis.simulation.simulate` of ``--games`` complete bot
   games with ``workers=1`` (this process) and ``workers=2`` (a process pool,
   its start-up included), checking that both give identical records.

The last line is exactly
``rank_openings_s: X  sim_games_per_s_1: Y  sim_games_per_s_2: Z``.
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

from catan_nb import Board  # noqa: E402
from catan_nb.analysis.placement import rank_openings, score_intersections  # noqa: E402
from catan_nb.analysis.simulation import simulate  # noqa: E402


def median_time(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def placement(seed: int, repeat: int, seat: int, players: int) -> tuple[float, float]:
    board = Board.random(seed=seed)
    board.topology  # derived once per board, as in use
    rows = score_intersections(board)
    pairs = rank_openings(board, seat, players=players)
    score_s = median_time(lambda: score_intersections(board), repeat)
    rank_s = median_time(lambda: rank_openings(board, seat, players=players), repeat)
    print(f"board: {board.name}  intersections scored: {len(rows)}  opening pairs ranked: {len(pairs)}  repeat: {repeat}")
    print(f"best intersection: {rows[0].node} ({rows[0].score:.3f})  best pair: {pairs[0].first}+{pairs[0].second} "
          f"({pairs[0].score:.3f})")
    print(f"score_all_s: {score_s:.4f}  rank_openings_s: {rank_s:.4f}  both: {score_s + rank_s:.4f} (target < 0.5)")
    return score_s, rank_s


def simulation(games: int, players: int, seed: int, bots: str, max_turns: int | None) -> dict[int, float]:
    opts = dict(players=players, bots=bots, seed=seed, max_turns=max_turns, progress=False)
    simulate(2, workers=1, **opts)  # imports and first-call costs outside the timed runs
    rates: dict[int, float] = {}
    results = {}
    for workers in (1, 2):
        start = time.perf_counter()
        results[workers] = simulate(games, workers=workers, **opts)
        elapsed = time.perf_counter() - start
        rates[workers] = games / elapsed
        print(f"workers: {workers}  games: {games}  seconds: {elapsed:.2f}  unfinished: {results[workers].unfinished}")
    same = results[1] == results[2]
    print(f"identical records with 1 and 2 workers: {same}  speed-up: {rates[2] / rates[1]:.2f}x")
    if not same:
        raise SystemExit("results differ between 1 and 2 workers")
    return rates


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=20, help="placement timings: median of this many runs")
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--players", type=int, default=4, choices=(3, 4))
    ap.add_argument("--games", type=int, default=200, help="simulated games per worker setting")
    ap.add_argument("--bots", default="random", help="random or weighted")
    ap.add_argument("--max-turns", type=int, default=None)
    args = ap.parse_args(argv)

    _, rank_s = placement(args.seed, args.repeat, args.seat, args.players)
    rates = simulation(args.games, args.players, args.seed, args.bots, args.max_turns)
    print(f"rank_openings_s: {rank_s:.4f}  sim_games_per_s_1: {rates[1]:.1f}  sim_games_per_s_2: {rates[2]:.1f}")


if __name__ == "__main__":
    main()

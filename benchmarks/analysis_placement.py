"""Placement analysis speed: score every intersection and rank every opening pair.

Usage::

    python benchmarks/analysis_placement.py --seed 1 --repeat 20

On a variable-setup base board (``Board.random(seed)``, topology derived
outside the timed part), times :func:`~catan_nb.analysis.placement.score_intersections`
and :func:`~catan_nb.analysis.placement.rank_openings` (seat 0 of 4, greedy
opponents: every legal ordered pair) and prints the median of ``--repeat``
runs.  The target for the analysis issue is under 0.5 s for both together.
The last line is ``score_all_s: X  rank_openings_s: Y``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board  # noqa: E402
from catan_nb.analysis.placement import rank_openings, score_intersections  # noqa: E402


def _median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--players", type=int, default=4, choices=(3, 4))
    args = ap.parse_args(argv)

    board = Board.random(seed=args.seed)
    board.topology  # derived once per board, as in use
    rows = score_intersections(board)
    pairs = rank_openings(board, args.seat, players=args.players)
    score_s = _median_time(lambda: score_intersections(board), args.repeat)
    rank_s = _median_time(lambda: rank_openings(board, args.seat, players=args.players), args.repeat)
    print(f"board: {board.name}  intersections scored: {len(rows)}  opening pairs ranked: {len(pairs)}  repeat: {args.repeat}")
    print(f"best intersection: {rows[0].node} ({rows[0].score:.3f})  best pair: {pairs[0].first}+{pairs[0].second} ({pairs[0].score:.3f})")
    print(f"score_all_s: {score_s:.4f}  rank_openings_s: {rank_s:.4f}")


if __name__ == "__main__":
    main()

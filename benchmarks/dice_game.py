"""Dice Game speed: exact best-keep tables and whole solitaire games.

Usage::

    python benchmarks/dice_game.py --games 100 --policy target --seed 1

1. The best-keep table of every build target (road, settlement, city, knight)
   for six dice from a fresh turn: the exact DP from cold caches (index tables
   included), then the advice for each of the 462 possible first rolls.
   Target: under 1 s for all four.
2. Seeded solitaire games (normal game, 15 turns) played by a simple policy
   through the engine's fast path (``DiceGame.apply``).

The last line is ``best_keep_table_s: X  solitaire_games_per_s: Y``.
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

from catan_nb.dicegame import Kind, best_keep_table, reach_probability  # noqa: E402
from catan_nb.dicegame import odds  # noqa: E402
from catan_nb.dicegame.policies import GreedyStopPolicy, RandomKeepPolicy, TargetPolicy, simulate_solitaire  # noqa: E402

POLICIES = {
    "target": lambda seed: TargetPolicy(),
    "greedy": lambda seed: GreedyStopPolicy(),
    "random": lambda seed: RandomKeepPolicy(seed),
}
TARGETS = (Kind.ROAD, Kind.SETTLEMENT, Kind.CITY, Kind.KNIGHT)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--policy", choices=sorted(POLICIES), default="target")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    odds._solver.cache_clear()
    odds._universe.cache_clear()
    start = time.perf_counter()
    tables = {k: best_keep_table(k) for k in TARGETS}
    table_s = time.perf_counter() - start
    for k in TARGETS:
        print(f"{str(k):<11} P(fresh turn) = {float(reach_probability(k)):.4f}  table rows: {len(tables[k])}")
    print(f"best-keep tables for {len(TARGETS)} targets: {table_s:.3f} s (target < 1 s)")

    policy = POLICIES[args.policy](args.seed)
    simulate_solitaire(policy, games=3, seed=args.seed + 10_000)  # warm the policy's odds tables
    start = time.perf_counter()
    est = simulate_solitaire(policy, games=args.games, seed=args.seed)
    elapsed = time.perf_counter() - start
    print(f"policy: {args.policy}  games: {args.games}  seed: {args.seed}  seconds: {elapsed:.2f}  mean score: {est}")
    print(f"best_keep_table_s: {table_s:.3f}  solitaire_games_per_s: {args.games / elapsed:.1f}")


if __name__ == "__main__":
    main()

"""fastcatan's games per CPU-second with random play, for a paired run with benchmarks/engine.py.

fastcatan (a C++ engine with Python bindings; it needs Python >= 3.12) is not a dependency of
catan_nb.  Install it in a scratch environment outside this repository and run this script with
that environment's python::

    python3.12 -m venv /tmp/fcvenv
    /tmp/fcvenv/bin/pip install fastcatan==2.0.0
    /tmp/fcvenv/bin/python benchmarks/fastcatan_baseline.py --games 200 --seed 1

Each game is reset with its own seed (fastcatan's variable board) and played to the end by a
uniform random choice among the legal actions, domestic trades left out as in
benchmarks/engine.py (maritime trades stay in), in one Python loop calling ``legal_actions`` and
``step``, as our benchmark does.  The last line has benchmarks/engine.py's form, with the
process's CPU seconds: ``games/s: X  games/cpu_s: Y  actions/game: Z  turns/game: W``; with
``--process``, then ``process_cpu_s: P  process_games/cpu_s: Q`` (the whole process from the
interpreter's start, as ``benchmarks/fast.py --process`` prints its own).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import random
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--process", action="store_true",
                    help="also the whole process's CPU from the interpreter's start (benchmarks/fast.py --process)")
    args = ap.parse_args()
    import fastcatan as fc

    domestic = range(fc.action.TRADE_ADD_GIVE_BASE, fc.action.TRADE_CANCEL + 1)  # offers and their answers
    actions, turns, unfinished = [], [], 0
    env = fc.Env()
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(args.games):
        env.reset(args.seed + i)
        rng = random.Random((args.seed + i) * 10)
        n = 0
        while not env.done and n < 20000:
            acts = [a for a in env.legal_actions() if a not in domestic] or env.legal_actions()
            env.step(acts[int(rng.random() * len(acts))])
            n += 1
        unfinished += env.winner == fc.NO_PLAYER
        actions.append(n)
        turns.append(env.turn_count)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"games: {args.games}  seed: {args.seed}  seconds: {wall:.2f}  cpu seconds: {cpu:.2f}  unfinished: {unfinished}")
    print(f"actions/game median: {statistics.median(actions):.0f}  turns/game median: {statistics.median(turns):.0f}")
    last = (f"games/s: {args.games / wall:.1f}  games/cpu_s: {args.games / cpu:.1f}  "
            f"actions/game: {statistics.mean(actions):.0f}  turns/game: {statistics.mean(turns):.0f}")
    if args.process:
        process_cpu = time.process_time()  # from the interpreter's start: import fastcatan included
        last += f"  process_cpu_s: {process_cpu:.2f}  process_games/cpu_s: {args.games / process_cpu:.1f}"
    print(last)


if __name__ == "__main__":
    main()

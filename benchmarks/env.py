"""Throughput of the PettingZoo environment: steps per CPU-second with random masked actions.

Usage::

    python benchmarks/env.py --episodes 5 --players 4 --seed 0

Each episode is reset with its own seed and played to the end, every seat picking uniformly
among the actions its mask allows, through ``env.last()`` (observation and mask) and
``env.step()``, as a learner's loop does.  Needs the ``rl`` extra.  The last line is
``steps/cpu_s: X  steps: N  episodes: E``.
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

import numpy as np  # noqa: E402

from catan_nb.envs import CatanAECEnv  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=5)
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    env = CatanAECEnv(players=args.players)
    rng = np.random.default_rng(args.seed)
    steps = 0
    cpu = time.process_time()
    for ep in range(args.episodes):
        env.reset(seed=args.seed + ep)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    cpu = time.process_time() - cpu
    print(f"steps/cpu_s: {steps / cpu:.0f}  steps: {steps}  episodes: {args.episodes}")


if __name__ == "__main__":
    main()

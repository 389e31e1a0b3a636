"""Compiled simulator throughput: complete kernel games in one process (issue 29).

Usage::

    python benchmarks/fast.py --games 2000 --players 4 --seed 1
    python benchmarks/fast.py --games 2000 --fastcatan /tmp/fcvenv/bin/python   # paired with fastcatan
    python benchmarks/fast.py --games 200 --policy value --engine 20             # against the engine's value bot
    python benchmarks/fast.py --env 64                                           # the vectorised environment
    python benchmarks/fast.py --games 2000 --process                             # whole-process CPU (issue 40)

Each game is played by :func:`catan_nb.fast.play` from its founding to the end, every seat
choosing uniformly among the legal actions (``--policy random``: domestic offers left out, as in
``benchmarks/engine.py``), on a variable-setup board drawn in the kernel from the game's seed the
way :meth:`Board.random` lays one out (``--boards kernel``, the default: board making is timed, as
fastcatan's ``reset`` times its own), or on ``Board.random(seed + i)`` built before the timed loop
(``--boards engine``, as ``benchmarks/engine.py`` does).  Needs the ``fast`` extra (numba).

Printed first: the start-up (import, and the first call: the compile on a machine's first run, the
cache load after) and, with ``--fastcatan PYTHON``, fastcatan's line from
``benchmarks/fastcatan_baseline.py`` run by that interpreter right after ours, with the ratio of
games per CPU second; with ``--engine N``, N games of the engine's own bots of the same policy
(:class:`~catan_nb.analysis.RandomBot`, :class:`~catan_nb.analysis.WeightedBot`,
``ValueBot(offers=False)``) and the ratio; with ``--env N``, steps per CPU second of
:class:`catan_nb.fast.vector_env.CatanVectorEnv` with N games against ``CatanAECEnv``.

With ``--process`` the figure is what a user's process pays: no warm-up call (the batch's own call
loads the compiled job from numba's cache, or compiles it), and the process's CPU seconds from the
start of the interpreter (imports, cache load, the games) on the last line; with ``--fastcatan``,
fastcatan's script is run with ``--process`` too and the ratio is of whole-process figures.

The last line is ``benchmarks/engine.py``'s: ``games/s: X  games/cpu_s: Y  actions/game: Z  turns/game: W``
(wall and CPU time of the loop; ``turns/game`` counts regular turns), with ``--process`` followed by
``process_cpu_s: P  process_games/cpu_s: Q`` (the whole process, from the interpreter's start).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import re
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

T0 = time.perf_counter()
import numpy as np  # noqa: E402

from catan_nb.fast import available, play  # noqa: E402  (the engine's layers only where used: issue 40)

IMPORT_S = time.perf_counter() - T0


def _rate(line: str, name: str = "games/cpu_s") -> float:
    return float(re.search(rf"(?<![\w_]){re.escape(name)}: ([0-9.]+)", line).group(1))


def _engine_games(args, boards) -> tuple[float, float, list[int]]:
    """Engine games of the same policy on the same boards: (wall s, CPU s, actions per game)."""
    from catan_nb import Game
    from catan_nb.analysis import RandomBot, WeightedBot
    from catan_nb.analysis.value_bot import ValueBot

    make = {"random": RandomBot, "weighted": WeightedBot,
            "value": lambda seed: ValueBot(seed=seed, offers=False)}[args.policy]
    actions = []
    wall, cpu = time.perf_counter(), time.process_time()
    for i, board in enumerate(boards):
        game = Game(board, players=args.players, seed=args.seed + i)
        bots = [make((args.seed + i) * 10 + p) for p in range(args.players)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        actions.append(len(game.log))
    return time.perf_counter() - wall, time.process_time() - cpu, actions


def _env(args) -> None:
    """Steps per CPU second of the vectorised environment against CatanAECEnv's, random masked actions."""
    from catan_nb.envs import CatanAECEnv
    from catan_nb.fast.vector_env import CatanVectorEnv

    rng = np.random.default_rng(args.seed)
    env = CatanVectorEnv(args.env, players=args.players)
    obs, info = env.reset(seed=args.seed)
    obs = env.step(_masked(rng, obs["action_mask"]))[0]  # compile or load outside the timed loop
    steps = 0
    cpu = time.process_time()
    for _ in range(args.env_steps):
        obs, reward, term, trunc, info = env.step(_masked(rng, obs["action_mask"]))
        steps += args.env
    vec = steps / (time.process_time() - cpu)
    aec = CatanAECEnv(players=args.players)
    n = 0
    cpu = time.process_time()
    ep = 0
    while n < 20_000:
        aec.reset(seed=args.seed + ep)
        ep += 1
        for _agent in aec.agent_iter():
            o, _r, t, tr, _i = aec.last()
            if t or tr:
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
            n += 1
    base = n / (time.process_time() - cpu)
    print(f"vector env: {args.env} games, {vec:.0f} steps/cpu_s; CatanAECEnv {base:.0f} steps/cpu_s; "
          f"ratio {vec / base:.1f}x")


def _masked(rng, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per game (masks: int8[games, actions])."""
    u = rng.random(masks.shape) * masks
    return u.argmax(axis=1)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="random", choices=("random", "weighted", "value"))
    ap.add_argument("--boards", default="kernel", choices=("kernel", "engine"))
    ap.add_argument("--fastcatan", metavar="PYTHON", help="a python with fastcatan 2.0.0: pair the run with its baseline")
    ap.add_argument("--engine", type=int, default=0, metavar="N", help="also play N engine games of the same policy")
    ap.add_argument("--env", type=int, default=0, metavar="N", help="measure the vectorised environment with N games")
    ap.add_argument("--env-steps", type=int, default=300)
    ap.add_argument("--process", action="store_true",
                    help="whole-process CPU from the interpreter's start, no warm-up call (what a user's process pays)")
    args = ap.parse_args(argv)
    if not available():
        sys.exit('benchmarks/fast.py needs the fast extra: pip install "catan-nb[fast]"')
    layout = "five_six" if args.players > 4 else "base"

    if args.process:
        print(f"start-up: import {IMPORT_S:.2f} s; process CPU before the games {time.process_time():.2f} s "
              "(the batch's call loads the compiled job)")
    else:
        t = time.perf_counter()
        play("random", args.players, seeds=[0], policies=args.policy)  # compile, or load the compiled cache
        first = time.perf_counter() - t
        print(f"start-up: import {IMPORT_S:.2f} s, first call {first:.2f} s (compiles on a machine's first run, "
              "then loads the cache)")
    if args.env:
        _env(args)

    seeds = np.arange(args.seed, args.seed + args.games, dtype=np.uint64)
    boards = None
    if args.boards == "engine":
        from catan_nb import Board

        boards = [Board.random(seed=int(s), layout=layout) for s in seeds]
        for b in boards:
            b.topology  # derived once per board, outside the timed loop (as benchmarks/engine.py does)
    start, cpu = time.perf_counter(), time.process_time()
    batch = play("random" if boards is None else boards, args.players, seeds=seeds, policies=args.policy)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    process_cpu = time.process_time()  # the whole process so far, from the interpreter's start
    wins = np.bincount(batch.winner[batch.winner >= 0], minlength=args.players).tolist()
    ours = args.games / (process_cpu if args.process else cpu)
    print(f"games: {args.games}  players: {args.players}  seed: {args.seed}  policy: {args.policy}  "
          f"boards: {args.boards}  seconds: {elapsed:.2f}  cpu seconds: {cpu:.2f}  unfinished: {(batch.winner < 0).sum()}")
    print(f"wins by seat: {wins}")
    print(f"actions/game median: {statistics.median(batch.actions.tolist()):.0f}  "
          f"turns/game median: {statistics.median(batch.turns.tolist()):.0f}")
    if args.fastcatan:
        games = args.games if args.process else min(args.games, 500)  # whole processes: the same games
        cmd = [args.fastcatan, str(ROOT / "benchmarks" / "fastcatan_baseline.py"), "--games", str(games),
               "--seed", str(args.seed), *(["--process"] if args.process else [])]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip().splitlines()
        print(f"fastcatan 2.0.0: {out[-1]}")
        theirs = _rate(out[-1], "process_games/cpu_s" if args.process else "games/cpu_s")
        print(f"ratio ({'whole-process ' if args.process else ''}games/cpu_s): {ours / theirs:.1f}x fastcatan")
    if args.engine:
        from catan_nb import Board

        eb = [Board.random(seed=int(s), layout=layout) for s in seeds[:args.engine]]
        for b in eb:
            b.topology
        wall, ecpu, eacts = _engine_games(args, eb)
        print(f"engine ({args.policy} bots): {args.engine / ecpu:.2f} games/cpu_s, "
              f"actions/game {statistics.mean(eacts):.0f}; "
              f"ratio {args.games / cpu / (args.engine / ecpu):.0f}x the engine (the games' loops)")
    last = (f"games/s: {args.games / elapsed:.1f}  games/cpu_s: {args.games / cpu:.1f}  "
            f"actions/game: {batch.actions.mean():.0f}  turns/game: {batch.turns.mean():.0f}")
    if args.process:
        last += f"  process_cpu_s: {process_cpu:.2f}  process_games/cpu_s: {args.games / process_cpu:.1f}"
    print(last)


if __name__ == "__main__":
    main()

"""Check that six-player games on a scenario board all end (issue 24 item 13; SC-13's proposal maps).

Run from the repository root::

    python docs/tools/scenario_games_end.py                      # New York + Erie Canal, 1,000 + 600 games
    python docs/tools/scenario_games_end.py --board corsica --random 200 --weighted 100

Game ``s`` is seeded ``s`` and its seats ``RandomBot(10 * s + q)`` (or ``WeightedBot``), as in the
audit that found the stalls (seed 128 with ``RandomBot(1280 + q)`` never ended before).  Each game
runs to its end or to ``--limit`` turns, over at most two processes.  It prints, per bot kind, the
games that did not end, how many ended under the DECISION for a game nobody can win
(``corsica_new_york.STALL_RULE``, ``docs/scenarios.md``), and the median and largest number of turns.
It exits with status 1 if any game did not end.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, WeightedBot
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import Rules

_ARGS: argparse.Namespace | None = None


def _one(job: tuple[str, int]) -> tuple[str, int, bool, bool, int, bool]:
    kind, s = job
    a = _ARGS
    board = Board.load(a.board if a.board.endswith(".json") else BOARDS_DIR / f"{a.board}.json")
    g = Game(board, players=a.players, seed=s, rules=Rules.for_board(board))
    bot = RandomBot if kind == "random" else WeightedBot
    bots = [bot(10 * s + q) for q in range(g.n)]
    while not g.is_over and g.turn < a.limit:
        g.apply(bots[g.current_player].choose(g))
    stalled = bool(g.ext["corsica_new_york"].get("stalled"))
    reached = g.is_over and g.vp(g.winner) >= g.vp_target
    return kind, s, g.is_over, stalled, g.turn, reached


def _init(args: argparse.Namespace) -> None:
    global _ARGS
    _ARGS = args


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--board", default="new_york", help="a scenario board of boards/ (new_york, corsica) or a file")
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--random", type=int, default=1000, help="games of random bots")
    p.add_argument("--weighted", type=int, default=600, help="games of weighted bots")
    p.add_argument("--limit", type=int, default=20000, help="turns before a game counts as never ending")
    p.add_argument("--processes", type=int, default=2)
    args = p.parse_args(argv)
    jobs = [("random", s) for s in range(args.random)] + [("weighted", s) for s in range(args.weighted)]
    t0 = time.time()
    with Pool(min(2, args.processes), initializer=_init, initargs=(args,)) as pool:
        results = pool.map(_one, jobs, chunksize=10)
    bad = 0
    for kind in ("random", "weighted"):
        rows = [r for r in results if r[0] == kind]
        if not rows:
            continue
        open_ = [r[1] for r in rows if not r[2]]
        stalled = [r[1] for r in rows if r[3]]
        turns = [r[4] for r in rows if r[2]]
        bad += len(open_)
        print(f"{args.board}, {args.players} players, {kind} bots: {len(rows)} games, {len(rows) - len(open_)} ended "
              f"({len(rows) - len(open_) - len(stalled)} at the target, {len(stalled)} under the stall rule"
              f"{': seeds ' + str(stalled[:10]) if stalled else ''}), {len(open_)} not ended by turn {args.limit}"
              f"{': seeds ' + str(open_[:10]) if open_ else ''}; turns median {statistics.median(turns) if turns else '-'}, "
              f"max {max(turns) if turns else '-'}")
    print(f"{time.time() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

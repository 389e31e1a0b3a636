"""The bot ladder: each bot against three copies of another, seats rotated, win rates with intervals.

Usage::

    python benchmarks/ladder.py --games 400 --workers 2 --iterations 200
    python benchmarks/ladder.py --games 40            # a quick look

Each match plays ``--games`` 4-player games of the base game on seeded random boards. In game
``i`` the hero sits in seat ``i % 4`` (so every seat, first included, is played equally often)
and the three other seats are copies of the opponent bot; every bot is seeded from the game's
seed, so the same command prints the same table.  A game that reaches ``--max-turns`` turns
without a winner counts as a loss for the hero.

Matches (hero vs three of):

* ``search_vs_value``: :class:`SearchBot` (``--iterations`` per decision) vs :class:`ValueBot`;
* ``value_vs_weighted``: :class:`ValueBot` vs :class:`WeightedBot`;
* ``value_vs_random``: :class:`ValueBot` vs :class:`RandomBot` (``--all`` only);
* ``weighted_vs_random``: :class:`WeightedBot` vs :class:`RandomBot` (``--all`` only).

Par is 25% (one seat in four). Intervals are 95% Wilson score intervals. The table is printed
and written to ``--output`` (Markdown, default ``test-output/ladder.md``); the last line is
``search_vs_value: X  value_vs_weighted: Y`` (win rates as fractions).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis.bots import RandomBot, WeightedBot, play_game  # noqa: E402
from catan_nb.analysis.search_bot import SearchBot  # noqa: E402
from catan_nb.analysis.value_bot import ValueBot  # noqa: E402

MATCHES = {
    "search_vs_value": ("search", "value"),
    "value_vs_weighted": ("value", "weighted"),
    "value_vs_random": ("value", "random"),
    "weighted_vs_random": ("weighted", "random"),
}


def make_bot(kind: str, seed: int, iterations: int):
    if kind == "search":
        return SearchBot(seed=seed, iterations=iterations)
    if kind == "value":
        return ValueBot(seed=seed)
    if kind == "weighted":
        return WeightedBot(seed=seed)
    if kind == "random":
        return RandomBot(seed=seed)
    raise ValueError(kind)


def play_one(args: tuple) -> tuple[str, int, bool, int, float]:
    """One game of a match: (match, game index, hero won, turns, seconds)."""
    match, i, seed, iterations, max_turns = args
    hero, other = MATCHES[match]
    game_seed = seed * 1_000_003 + i
    seat = i % 4
    bots = [make_bot(hero if q == seat else other, game_seed * 7 + q, iterations) for q in range(4)]
    t = time.perf_counter()
    g = play_game(Game(Board.random(seed=game_seed), players=4, seed=game_seed), bots, max_turns=max_turns)
    return match, i, g.winner == seat, g.turn, time.perf_counter() - t


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of k wins in n games (the library's own estimate)."""
    from catan_nb.analysis.probability import estimate_proportion

    if n == 0:
        return 0.0, 1.0
    e = estimate_proportion(k, n)
    return e.low, e.high


def run(matches, games: int, seed: int, iterations: int, workers: int, max_turns: int) -> dict:
    jobs = [(m, i, seed, iterations, max_turns) for m in matches for i in range(games)]
    results: dict[str, list] = {m: [] for m in matches}
    done = 0
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for r in pool.map(play_one, jobs, chunksize=1):
                results[r[0]].append(r)
                done += 1
                if done % max(1, len(jobs) // 20) == 0:
                    print(f"  {done}/{len(jobs)} games", file=sys.stderr, flush=True)
    else:
        for j in jobs:
            r = play_one(j)
            results[r[0]].append(r)
    return results


def table(results: dict, iterations: int) -> str:
    rows = ["| match | hero | opponents (x3) | games | hero wins | win rate | 95% interval | turns/game | s/game |",
            "|---|---|---|---:|---:|---:|---|---:|---:|"]
    for m, rs in results.items():
        hero, other = MATCHES[m]
        n = len(rs)
        k = sum(1 for r in rs if r[2])
        lo, hi = wilson(k, n)
        turns = sum(r[3] for r in rs) / max(n, 1)
        secs = sum(r[4] for r in rs) / max(n, 1)
        label = f"search ({iterations} it.)" if hero == "search" else hero
        rows.append(f"| {m} | {label} | {other} | {n} | {k} | {k / max(n, 1):.3f} | [{lo:.3f}, {hi:.3f}] | "
                    f"{turns:.0f} | {secs:.2f} |")
    return "\n".join(rows)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per match (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=200, help="search iterations per decision (default 200)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=400)
    ap.add_argument("--all", action="store_true", help="also the matches against the random bot")
    ap.add_argument("--only", choices=list(MATCHES), action="append", help="run only these matches")
    ap.add_argument("--output", default=str(Path(__file__).resolve().parent.parent / "test-output" / "ladder.md"))
    args = ap.parse_args(argv)
    matches = args.only or (list(MATCHES) if args.all else ["search_vs_value", "value_vs_weighted"])
    t = time.time()
    results = run(matches, args.games, args.seed, args.iterations, args.workers, args.max_turns)
    text = table(results, args.iterations)
    head = (f"Bot ladder: {args.games} games per match, seed {args.seed}, seats rotated, par 0.250 "
            f"({time.time() - t:.0f} s)\n\n")
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(head + text + "\n")
    print(head + text)
    rate = {m: sum(1 for r in rs if r[2]) / max(len(rs), 1) for m, rs in results.items()}
    print(f"search_vs_value: {rate.get('search_vs_value', float('nan')):.3f}  "
          f"value_vs_weighted: {rate.get('value_vs_weighted', float('nan')):.3f}")


if __name__ == "__main__":
    main()

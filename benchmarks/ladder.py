"""The bot ladder: each bot against copies of another, seats rotated, win rates with intervals.

Usage::

    python benchmarks/ladder.py --games 400 --workers 2 --iterations 200
    python benchmarks/ladder.py --games 40            # a quick look
    python benchmarks/ladder.py --module cities_knights --games 200 --only value_vs_weighted
    python benchmarks/ladder.py --scenario boards/new_york.json --games 200
    python benchmarks/ladder.py --module five_six --players 5

Each match plays ``--games`` games on seeded boards. In game ``i`` the hero sits in seat
``i % players`` (so every seat, first included, is played equally often) and the other seats are
copies of the opponent bot; every bot is seeded from the game's seed, so the same command prints
the same table.  A game that reaches ``--max-turns`` turns without a winner counts as a loss for
the hero (the table counts such games in its ``capped`` column).

What is played (:func:`setup_for`): the base game on a seeded random board by default;
``--module NAME`` (repeatable) plays on that rule module's rules and board (:data:`MODULE_SETUPS`:
a seeded random board, a seeded random Seafarers map, or the module's shipped scenario);
``--scenario FILE`` plays a board file with the modules it asks for (``Rules.for_board``), with
any ``--module`` on top.  ``--players`` sets the number of seats (default 4, or the least the
rules allow).

Matches (hero vs copies of):

* ``search_vs_value``: :class:`SearchBot` (``--iterations`` per decision) vs :class:`ValueBot`;
* ``value_vs_weighted``: :class:`ValueBot` vs :class:`WeightedBot`;
* ``value_vs_random``: :class:`ValueBot` vs :class:`RandomBot` (``--all`` only);
* ``weighted_vs_random``: :class:`WeightedBot` vs :class:`RandomBot` (``--all`` only).

Par is one seat in ``players``. Intervals are 95% Wilson score intervals. The table is printed
and written to ``--output`` (Markdown, default ``test-output/ladder.md``); the last line is
``search_vs_value: X  value_vs_weighted: Y`` (win rates as fractions).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis.bots import RandomBot, WeightedBot, play_game  # noqa: E402
from catan_nb.analysis.search_bot import SearchBot  # noqa: E402
from catan_nb.analysis.value_bot import ValueBot  # noqa: E402
from catan_nb.board import BOARDS_DIR  # noqa: E402
from catan_nb.rules import Rules  # noqa: E402
from catan_nb.rules.modules import MODULES  # noqa: E402

MATCHES = {
    "search_vs_value": ("search", "value"),
    "value_vs_weighted": ("value", "weighted"),
    "value_vs_random": ("value", "random"),
    "weighted_vs_random": ("weighted", "random"),
}

#: The board each rule module is played on by ``--module NAME``: (modules chosen, board) where the
#: board is ``None`` (a seeded random board, the 5-6 layout for 5-6 players), ``"islands"`` (a
#: seeded random Seafarers map, :func:`~catan_nb.rules.modules.seafarers.random_islands`),
#: ``"gold"`` (a seeded random board with two of its numbered hexes turned gold fields) or a
#: shipped scenario file of ``boards/`` (its own modules come with it).
MODULE_SETUPS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "base": ((), None),
    "five_six": ((), None),
    "friends": (("friends",), None),
    "helpers": (("helpers",), None),
    "gold_fields": (("gold_fields",), "gold"),
    "seafarers": (("seafarers",), "islands"),
    "harbour_master": ((), "seafarers_harbours.json"),
    "fog": ((), "seafarers_fog.json"),
    "treasure": ((), "seafarers_fog.json"),
    "great_catan": ((), "seafarers_great_catan.json"),
    "cities_knights": (("cities_knights",), None),
    "corsica_new_york": ((), "corsica.json"),
    "erie_canal": ((), "new_york.json"),
}


@dataclass(frozen=True)
class Setup:
    """What a match is played on: rule modules, a board source and the number of seats (picklable)."""

    modules: tuple[str, ...] = ()
    board: str | None = None  # None, "islands", "gold", or a board file path
    players: int = 4

    @property
    def label(self) -> str:
        mods = "+".join(self.modules)
        if self.board is None:
            where = ""
        elif self.board in ("islands", "gold"):
            where = f" on {self.board}"
        else:
            where = f" on {Path(self.board).name}"
        return f"{mods or ('scenario' if where else 'base')}{where}, {self.players} players"

    def game(self, seed: int) -> Game:
        """The game of ``seed``: its board and rules (deterministic)."""
        board = self._board(seed)
        rules = Rules.for_board(board, modules=self.modules)
        return Game(board, players=self.players, seed=seed, rules=rules)

    def _board(self, seed: int) -> Board:
        layout = "five_six" if self.players > 4 else "base"
        if self.board is None:
            return Board.random(seed=seed, layout=layout)
        if self.board == "islands":
            from catan_nb.rules.modules.seafarers import random_islands

            return random_islands(seed, players=self.players)
        if self.board == "gold":
            from catan_nb.rules.modules.gold_fields import gold_board

            b = Board.random(seed=seed, layout=layout)
            numbered = [h.id for h in b.hexes if h.token]
            return gold_board(b, *sorted(random.Random(seed).sample(numbered, 2)))
        return Board.load(self.board)


def setup_for(modules: list[str] | None = None, scenario: str | None = None, players: int | None = None) -> Setup:
    """The :class:`Setup` of ``--module`` names and a ``--scenario`` file (see the module docstring).

    Raises
    ------
    ValueError
        For a module name that does not exist.
    """
    modules = list(modules or [])
    chosen: list[str] = []
    board = scenario
    for name in modules:
        if name not in MODULE_SETUPS and name not in MODULES:
            raise ValueError(f"unknown module {name!r}; expected one of {', '.join(sorted(MODULE_SETUPS))}")
        mods, where = MODULE_SETUPS.get(name, ((name,), None))
        chosen += [m for m in mods if m not in chosen]
        if board is None and where is not None:
            board = where if where in ("islands", "gold") else str(BOARDS_DIR / where)
    if players is None:
        allowed = [MODULES[m].players for m in chosen if MODULES[m].players] + (
            [(5, 6)] if "five_six" in modules else [])
        players = 4 if all(4 in a for a in allowed) else min(set.intersection(*map(set, allowed)))
    return Setup(tuple(chosen), board, players)


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


def play_one(args: tuple) -> tuple[str, int, bool, int, float, bool]:
    """One game of a match: (match, game index, hero won, turns, seconds, capped)."""
    match, i, seed, iterations, max_turns, *rest = args
    setup = rest[0] if rest else Setup()
    hero, other = MATCHES[match]
    game_seed = seed * 1_000_003 + i
    n = setup.players
    seat = i % n
    bots = [make_bot(hero if q == seat else other, game_seed * 7 + q, iterations) for q in range(n)]
    t = time.perf_counter()
    g = play_game(setup.game(game_seed), bots, max_turns=max_turns)
    return match, i, g.winner == seat, g.turn, time.perf_counter() - t, not g.is_over


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of k wins in n games (the library's own estimate)."""
    from catan_nb.analysis.probability import estimate_proportion

    if n == 0:
        return 0.0, 1.0
    e = estimate_proportion(k, n)
    return e.low, e.high


def run(matches, games: int, seed: int, iterations: int, workers: int, max_turns: int,
        setup: Setup | None = None) -> dict:
    setup = setup or Setup()
    jobs = [(m, i, seed, iterations, max_turns, setup) for m in matches for i in range(games)]
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


def table(results: dict, iterations: int, players: int = 4) -> str:
    rows = [f"| match | hero | opponents (x{players - 1}) | games | hero wins | win rate | 95% interval | turns/game "
            "| median turns | capped | s/game |",
            "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for m, rs in results.items():
        hero, other = MATCHES[m]
        n = len(rs)
        k = sum(1 for r in rs if r[2])
        lo, hi = wilson(k, n)
        turns = sum(r[3] for r in rs) / max(n, 1)
        median = statistics.median(r[3] for r in rs) if rs else 0
        capped = sum(1 for r in rs if len(r) > 5 and r[5])
        secs = sum(r[4] for r in rs) / max(n, 1)
        label = f"search ({iterations} it.)" if hero == "search" else hero
        rows.append(f"| {m} | {label} | {other} | {n} | {k} | {k / max(n, 1):.3f} | [{lo:.3f}, {hi:.3f}] | "
                    f"{turns:.0f} | {median:g} | {capped} | {secs:.2f} |")
    return "\n".join(rows)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per match (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=200, help="search iterations per decision (default 200)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=400)
    ap.add_argument("--module", action="append", metavar="NAME",
                    help=f"play on this rule module's rules and board (repeatable): {', '.join(MODULE_SETUPS)}")
    ap.add_argument("--scenario", metavar="FILE", help="play on this board file with the modules it asks for")
    ap.add_argument("--players", type=int, help="seats (default 4, or the least the rules allow)")
    ap.add_argument("--all", action="store_true", help="also the matches against the random bot")
    ap.add_argument("--only", choices=list(MATCHES), action="append", help="run only these matches")
    ap.add_argument("--output", default=str(Path(__file__).resolve().parent.parent / "test-output" / "ladder.md"))
    args = ap.parse_args(argv)
    setup = setup_for(args.module, args.scenario, args.players)
    matches = args.only or (list(MATCHES) if args.all else ["search_vs_value", "value_vs_weighted"])
    t = time.time()
    results = run(matches, args.games, args.seed, args.iterations, args.workers, args.max_turns, setup)
    text = table(results, args.iterations, setup.players)
    head = (f"Bot ladder: {setup.label}; {args.games} games per match, seed {args.seed}, seats rotated, "
            f"par {1 / setup.players:.3f} ({time.time() - t:.0f} s)\n\n")
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(head + text + "\n")
    print(head + text)
    rate = {m: sum(1 for r in rs if r[2]) / max(len(rs), 1) for m, rs in results.items()}
    print(f"search_vs_value: {rate.get('search_vs_value', float('nan')):.3f}  "
          f"value_vs_weighted: {rate.get('value_vs_weighted', float('nan')):.3f}")


if __name__ == "__main__":
    main()

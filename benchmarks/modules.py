"""Engine cost per action with each rule module: the base game beside its variants and expansions.

Usage::

    python benchmarks/modules.py --games 20 --seed 1
    python benchmarks/modules.py --only seafarers cities_knights

Each variant plays ``--games`` complete random-bot games (uniform among the legal actions,
domestic offers excluded, as in ``engine.py``) through the fast path (``Game.apply``), on a
seeded variable-setup board or on the scenario's shipped board.  Games of Cities & Knights
stop after ``--max-turns`` turns: random bots seldom defend against the barbarians, so some
never end.  One line per variant, then the last line ``us/action: base X friends Y ...``
(CPU microseconds per action: listing the legal actions and applying one).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis import RandomBot  # noqa: E402
from catan_nb.board import BOARDS_DIR  # noqa: E402
from catan_nb.rules import Rules  # noqa: E402

#: name -> (modules, players, shipped board file or None for a seeded random board, rule options)
VARIANTS: dict[str, tuple[tuple[str, ...], int, str | None, dict]] = {
    "base": ((), 4, None, {}),
    "five_six": ((), 6, None, {}),
    "friends": (("friends",), 4, None, {}),
    "helpers": (("helpers",), 4, None, {}),
    "harbour_master": (("harbour_master",), 4, None, {}),
    "seafarers": (("seafarers",), 3, "seafarers_islands.json", {}),
    "cities_knights": (("cities_knights",), 4, None, {"vp_to_win": 8}),
    "corsica": (("corsica_new_york",), 4, "corsica.json", {}),
    "new_york": (("corsica_new_york", "erie_canal"), 4, "new_york.json", {}),
}


def run(name: str, games: int, seed: int, max_turns: int) -> tuple[float, float, float]:
    """(CPU microseconds per action, actions per game, games per CPU-second) of one variant."""
    modules, players, board_file, options = VARIANTS[name]
    rules = Rules(modules=modules, **options)
    shipped = Board.load(BOARDS_DIR / board_file) if board_file else None
    layout = "five_six" if players > 4 else "base"
    boards = [shipped or Board.random(seed=seed + i, layout=layout) for i in range(games)]
    for b in boards:
        b.topology  # derived once per board, outside the timed loop
    actions = 0
    cpu = 0.0
    for i, board in enumerate(boards):
        game = Game(board, players=players, seed=seed + i, rules=rules)
        bots = [RandomBot(seed=(seed + i) * 10 + p) for p in range(players)]
        start = time.process_time()
        while not game.is_over and game.turn < max_turns:
            acts = game.legal_actions()
            game.apply(acts[int(bots[game.current_player].rng.random() * len(acts))])
        cpu += time.process_time() - start
        actions += len(game.log)
    return cpu / actions * 1e6, actions / games, games / cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=2000)
    ap.add_argument("--only", nargs="+", choices=sorted(VARIANTS), default=list(VARIANTS))
    args = ap.parse_args(argv)
    figures = {}
    for name in args.only:
        us, per_game, rate = run(name, args.games, args.seed, args.max_turns)
        figures[name] = us
        print(f"{name:15s} us/action {us:7.2f}  actions/game {per_game:6.0f}  games/cpu_s {rate:7.1f}", flush=True)
    print("us/action: " + "  ".join(f"{k} {v:.2f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()

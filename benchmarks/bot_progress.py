"""How far bots get in a game: VP, cities and cards in hand after N rounds each.

Usage::

    python benchmarks/bot_progress.py --games 20 --rounds 11

Each of ``--games`` seeded 4-player games on a random board is played by four bots of one kind
until every seat has had ``--rounds`` turns (or the game ends).  The last line is
``value: VP x cities y cards z  weighted: VP x cities y cards z`` (means over every seat).
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import statistics
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb import Board, Game  # noqa: E402
from catan_nb.analysis import ValueBot, WeightedBot  # noqa: E402


def progress(make, games: int, rounds: int) -> tuple[float, float, float]:
    vps, cities, cards = [], [], []
    for s in range(games):
        g = Game(Board.random(seed=s), seed=s)
        bots = [make(seed=s * 4 + q) for q in range(4)]
        while not g.is_over and g.turn <= rounds * 4:
            g.apply(bots[g.current_player].choose(g))
        vps += [g.vp(q) for q in range(4)]
        cities += [g.n_cities[q] for q in range(4)]
        cards += [sum(g.hands[q]) for q in range(4)]
    return statistics.mean(vps), statistics.mean(cities), statistics.mean(cards)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args(argv)
    out = []
    for name, make in (("value", ValueBot), ("weighted", WeightedBot)):
        vp, ci, ca = progress(make, args.games, args.rounds)
        out.append(f"{name}: VP {vp:.1f} cities {ci:.1f} cards {ca:.1f}")
    print("  ".join(out))


if __name__ == "__main__":
    main()

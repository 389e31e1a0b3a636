"""Play the stored opening runs of lesson 19 (where to found in Cities & Knights) and store their results.

Run from the repository root: ``python docs/tools/make_ck_openings.py``.  On each board of ``BOARDS`` (a
Cities & Knights game of four players: a settlement, then a city, CK-SETUP-1) it ranks seat 0's opening pairs
by the placement score of the day (:func:`~catan_nb.analysis.placement.rank_openings`), keeps the pairs at the
places ``RANKS`` of that ranking (the best few, and a few further down so the run spans good and middling
openings), and plays every pair ``PLAYOUTS`` times with value bots
(:func:`~catan_nb.analysis.placement.simulate_openings`, ``max_turns=MAX_TURNS``).

Playout ``j`` of every pair is its own call, ``simulate_openings(..., playouts=1, seed=base + j)``: every pair
is played on the same seeds and dice (common random numbers), and any single playout can be replayed alone
(:meth:`StoredOpenings.check <catan_nb.analysis.opening_runs.StoredOpenings.check>`, which the test suite
runs on a sample).  The weights of the day are stored with the pairs: they decide where the modelled
opponents found, so a replay uses them, whatever the defaults have become since.

It writes ``catan_nb/analysis/_ck_openings.py``, read by
:func:`~catan_nb.analysis.opening_runs.stored_ck_openings`.  One process, about 1.2 CPU seconds a game:
``len(BOARDS) * len(RANKS) * PLAYOUTS`` games (about half an hour).
"""

from __future__ import annotations

import pprint
import sys
import textwrap
import time
from dataclasses import asdict
from pathlib import Path

from catan_nb.analysis.opening_runs import ck_game
from catan_nb.analysis.placement import placement_weights, rank_openings, simulate_openings

ROOT = Path(__file__).resolve().parents[2]
#: The boards: ``None`` for the beginner board, else the seed of ``Board.random``; each with its base seed.
BOARDS = ((None, 19_000), (19, 19_100))
SEAT = 0
#: Places in the day's ranking (0 = the best pair).
RANKS = (0, 1, 2, 3, 4, 5, 9, 24, 49, 99)
PLAYOUTS = 60
MAX_TURNS = 400
BOT = "value"


def run(board_seed: int | None, base: int) -> dict:
    game = ck_game(board_seed)
    weights = placement_weights(game)
    ranked = rank_openings(game, SEAT, weights=weights)
    chosen = [ranked[r] for r in RANKS]
    pairs = [(int(p.first), int(p.second)) for p in chosen]
    ends: list[list[str]] = [[] for _ in pairs]
    vps: list[list[int]] = [[] for _ in pairs]
    start = time.process_time()
    for j in range(PLAYOUTS):
        sims = simulate_openings(game, SEAT, pairs=pairs, playouts=1, seed=base + j, bot=BOT, weights=weights,
                                 max_turns=MAX_TURNS, progress=False)
        by = {(int(s.first), int(s.second)): s for s in sims}
        for i, pair in enumerate(pairs):
            s = by[pair]
            if s.fallbacks:
                raise SystemExit(f"pair {pair} fell back in playout {j}: the greedy model and the playout disagree")
            ends[i].append("1" if s.wins[0] else "-" if s.unfinished else "0")
            vps[i].append(int(s.vps[0]))
        print(f"board {board_seed}: playout {j + 1}/{PLAYOUTS}, {time.process_time() - start:.0f} CPU s",
              file=sys.stderr, flush=True)
    return {"board": board_seed, "modules": tuple(game.rules.modules), "players": game.n, "seat": SEAT, "bot": BOT,
            "seed": base, "max_turns": MAX_TURNS, "weights": asdict(weights), "ranks": RANKS,
            "scores": tuple(round(p.score, 6) for p in chosen), "pairs": tuple(pairs),
            "ends": tuple("".join(row) for row in ends),
            "vps": tuple(tuple(row) for row in vps)}


def main() -> None:
    runs = [run(board, base) for board, base in BOARDS]
    body = "\n".join(textwrap.indent(pprint.pformat(r, width=116, sort_dicts=False), "    ") + "," for r in runs)
    (ROOT / "catan_nb" / "analysis" / "_ck_openings.py").write_text(
        '"""Stored opening playouts of lesson 19, written by docs/tools/make_ck_openings.py: do not edit."""\n\n'
        "# One run per board: the simulate_openings call (playout j: seed + j), the weights of the day, each pair's\n"
        "# place in that day's ranking and score, and per pair one character per playout (1 won, 0 lost, - no winner\n"
        "# by max_turns) and the seat's VPs at the end.\n"
        f"RUNS = (\n{body}\n)\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()

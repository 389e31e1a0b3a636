"""Play the openings of lesson 11's section 6 ahead of time and store every playout (issue 39).

Run from the repository root: ``python docs/tools/make_opening_runs.py``.  Seat 0's four best openings on
the beginner board by the first, hand-set score (``PlacementWeights.classic()``), 16 playouts each on common
seeds (seed 11), with random bots and with value bots: the value bots' games take about 20 CPU seconds, more
than a class should wait for one cell.  It writes ``catan_nb/analysis/_opening_runs.py``, which
:func:`catan_nb.analysis.placement.stored_openings` reads; a playout depends only on the seed, its number and
the pair, so the lesson and the test suite replay some of them to confirm the file
(``StoredOpenings.check``).
"""

from __future__ import annotations

import sys
import time
from pprint import pformat
from pathlib import Path

from catan_nb import Board
from catan_nb.analysis.placement import PlacementWeights, StoredOpenings, rank_openings

ROOT = Path(__file__).resolve().parents[2]
BOARD, SEAT, TOP, PLAYOUTS, SEED, WEIGHTS, MAX_TURNS = "beginner", 0, 4, 16, 11, "classic", 400
BOTS = ("random", "value")


def main() -> None:
    board = getattr(Board, BOARD)()
    pairs = [(int(p.first), int(p.second)) for p in rank_openings(board, SEAT, top=TOP, weights=PlacementWeights.classic())]
    lines = []
    for bot in BOTS:
        start = time.process_time()
        run = StoredOpenings.play(BOARD, SEAT, pairs, PLAYOUTS, SEED, bot, WEIGHTS, MAX_TURNS)
        print(f"{bot} bots: {len(pairs)} openings x {PLAYOUTS} playouts in {time.process_time() - start:.1f} CPU s",
              file=sys.stderr)
        options = dict(board=BOARD, seat=SEAT, pairs=run.pairs, playouts=PLAYOUTS, seed=SEED, weights=WEIGHTS,
                       max_turns=MAX_TURNS)
        parts = "\n".join(f"            {part.strip()!r}," for part in run.encode().split("|"))
        shown = pformat(options, width=110, sort_dicts=False).replace("\n", "\n        ")
        lines.append(f"    {bot!r}: (\n        {shown},\n        ' | '.join((\n{parts}\n        ))),")
    body = "\n".join(lines)
    (ROOT / "catan_nb" / "analysis" / "_opening_runs.py").write_text(
        '"""Playouts of lesson 11, section 6, written by docs/tools/make_opening_runs.py: do not edit."""\n\n'
        "# bot: (options of the simulate_openings call, results: per pair (|), per playout w/l/u + VP (+ * fell back))\n"
        f"RUNS = {{\n{body}\n}}\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()

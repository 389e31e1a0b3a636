"""Play the long runs of lesson 30 (does the seat matter at four and at six players?) and store their winners.

Run from the repository root: ``python docs/tools/make_seat_runs.py``.  It plays ``GAMES`` games of
weighted bots at 4 and at 6 players with ``simulate(..., seed=SEED, max_turns=MAX_TURNS)`` and writes
``catan_nb/analysis/_seat_runs.py``: the winner of every game, one character per game.  The lesson reads
them through :func:`catan_nb.analysis.simulation.stored_seat_runs`; game ``i`` depends only on the seed and
``i``, so the lesson and the test suite replay a few of them to confirm the file
(``StoredWinners.check``).  A few minutes on two cores.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from catan_nb.analysis.simulation import StoredWinners, simulate

ROOT = Path(__file__).resolve().parents[2]
GAMES = 3000
SEED = 30
MAX_TURNS = 400
BOTS = "weighted"


def main(workers: int = 2) -> None:
    lines = []
    for players in (4, 6):
        start = time.perf_counter()
        result = simulate(GAMES, players=players, bots=BOTS, seed=SEED, max_turns=MAX_TURNS, workers=workers,
                          progress=False)
        run = StoredWinners.from_result(result)
        print(f"{players} players: {GAMES} games in {time.perf_counter() - start:.0f} s; wins {run.wins()}",
              file=sys.stderr)
        text = run.encode()
        chunks = "\n".join(f"            {text[i:i + 100]!r}" for i in range(0, len(text), 100))
        lines.append(f"    {players}: ({BOTS!r}, {SEED}, {MAX_TURNS}, (\n{chunks}\n        )),")
    body = "\n".join(lines)
    (ROOT / "catan_nb" / "analysis" / "_seat_runs.py").write_text(
        '"""Winners of the stored runs of lesson 30, written by docs/tools/make_seat_runs.py: do not edit."""\n\n'
        "# players: (bots, seed, max_turns, one character per game: the winning seat, or '-' for none)\n"
        f"RUNS = {{\n{body}\n}}\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()

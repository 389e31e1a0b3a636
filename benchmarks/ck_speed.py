"""CPU seconds of the value bot and the search bot in Cities & Knights (issue 26).

Usage::

    python benchmarks/ck_speed.py            # a C&K game of 4 ValueBots; 6 SearchBot(200) decisions

Prints the CPU seconds (``time.process_time``) of one seeded value-bot game and per search decision
on six seeded positions of turn 40 (the positions of ``/work/wt/prof_ck.py``).
"""

from __future__ import annotations

import os
import sys
import time

sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import setup_for  # noqa: E402

sys.path.pop(0)

from catan_nb.analysis import ValueBot, play_game  # noqa: E402
from catan_nb.analysis.search_bot import SearchBot  # noqa: E402
from catan_nb.rules import Phase  # noqa: E402


def main() -> None:
    s = setup_for(["cities_knights"])
    g = s.game(1_000_004)
    t = time.process_time()
    g = play_game(g, [ValueBot(seed=q) for q in range(4)])
    print(f"value game: {time.process_time() - t:.2f} s cpu, {g.turn} turns, {len(g.log)} actions")
    g = s.game(1_000_003)
    bots = [ValueBot(seed=q) for q in range(4)]
    while g.turn < 40 and not g.is_over:
        g.play(bots[g.current_player].choose(g))
    pos = []
    while len(pos) < 6 and not g.is_over:
        p = g.current_player
        if g.phase is Phase.MAIN and p == g.active_player and len(g.legal_actions()) > 1:
            pos.append(g.copy())
        g.play(bots[p].choose(g))
    sb = SearchBot(seed=3, iterations=200)
    sb.choose(pos[0].copy())  # imports and warm-up
    t = time.process_time()
    for q in pos:
        sb.choose(q)
    print(f"search decision: {(time.process_time() - t) / len(pos):.3f} s cpu (SearchBot(iterations=200), 6 positions)")


if __name__ == "__main__":
    main()

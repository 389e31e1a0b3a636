"""Digests of seeded bot games in every module of ``ladder.MODULE_SETUPS`` (a performance change must not move one).

Usage::

    python benchmarks/bot_identity.py --out /tmp/before.json           # record
    python benchmarks/bot_identity.py --check /tmp/before.json         # compare (exit 1 on a difference)
    python benchmarks/bot_identity.py --only cities_knights --check /tmp/before.json

Each module plays ``--value`` seeded games of four :class:`ValueBot` (at most ``--turns`` turns) and
``--search`` short games with one ``SearchBot(iterations=30)`` (at most ``--search-turns`` turns); each
game's digest is a hash of its action log and of its final state (:meth:`Game.digest`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import MODULE_SETUPS, setup_for  # noqa: E402

sys.path.pop(0)

from catan_nb.analysis.bots import play_game  # noqa: E402
from catan_nb.analysis.search_bot import SearchBot  # noqa: E402
from catan_nb.analysis.value_bot import ValueBot  # noqa: E402


def digest(g) -> str:
    h = hashlib.sha256()
    for a in g.log:
        h.update(repr(a).encode())
        h.update(b"\n")
    h.update(g.digest().encode())
    return f"{len(g.log)}:{h.hexdigest()[:16]}"


def run(name: str, n_value: int, turns: int, n_search: int, search_turns: int) -> dict[str, str]:
    setup = setup_for([name])
    out = {}
    for i in range(n_value):
        seed = 1000 + 17 * i
        g = setup.game(seed)
        g = play_game(g, [ValueBot(seed=seed * 7 + q) for q in range(setup.players)], max_turns=turns)
        out[f"value{i}"] = digest(g)
    for i in range(n_search):
        seed = 5000 + 31 * i
        g = setup.game(seed)
        n = setup.players
        bots = [SearchBot(seed=seed * 7 + q, iterations=30) if q == i % n else ValueBot(seed=seed * 7 + q)
                for q in range(n)]
        g = play_game(g, bots, max_turns=search_turns)
        out[f"search{i}"] = digest(g)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append")
    ap.add_argument("--value", type=int, default=3)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--search", type=int, default=1)
    ap.add_argument("--search-turns", type=int, default=8)
    ap.add_argument("--out")
    ap.add_argument("--check")
    a = ap.parse_args()
    names = a.only or list(MODULE_SETUPS)
    ref = json.load(open(a.check)) if a.check else {}
    res, bad = {}, 0
    for name in names:
        t = time.process_time()
        res[name] = run(name, a.value, a.turns, a.search, a.search_turns)
        status = ""
        if a.check:
            status = "same" if ref.get(name) == res[name] else f"DIFFERENT (was {ref.get(name)})"
            bad += status != "same"
        print(f"{name:18s} {time.process_time() - t:7.1f}s cpu {res[name]} {status}", flush=True)
    if a.out:
        json.dump(res, open(a.out, "w"), indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

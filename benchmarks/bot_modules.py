"""Bots in every rule module: how long their games last, what they do, and that every game ends.

Usage::

    python benchmarks/bot_modules.py --games 40                      # value bots, every module
    python benchmarks/bot_modules.py --games 40 --only cities_knights seafarers
    python benchmarks/bot_modules.py --games 20 --only cities_knights+seafarers   # modules together
    python benchmarks/bot_modules.py --ends --games 30 --max-turns 20000   # random and weighted bots, 3-6 seats

Value-bot games (default): ``--games`` 4-player games of value bots on each module's setup (the
same as ``benchmarks/ladder.py --module NAME``), seeded; one line per module with the median
turns, its ratio to the base game's, the games that reached ``--max-turns``, and the behaviour
figures of the module:

* Seafarers maps: games with a ship built, games with a foreign island settled (SF-13), ships per game;
* Cities & Knights: improvement levels, tracks at level 3 or more (an ability, CK-IMP-3),
  metropolises, barbarian attacks, attacks repelled (none of the defenders lost a city), cities
  lost, Defender points per game; the first attack's figures (games in which it was repelled, cities
  lost in it, Catan's and the barbarians' strengths, its turn);
* New York: canal tokens earned (paid by the supply) and played per game, games with a token
  played (ERIE-2, ERIE-4); Corsica and New York: Catan tokens taken (SC-10); Friends: Catan
  tokens (F-GUILD-5).

With ``--ends``: games of random bots and of weighted bots with every player count each module
allows (3 to 6), until a winner or ``--max-turns``; one line per module, bot and player count with
the median and longest game and any game that reached the cap.  The last line is
``capped: N`` (games that did not end), or ``median ratio: X`` (the largest module median over
the base game's) for value-bot games.
"""

from __future__ import annotations

import os
import sys

sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb.analysis.bots import RandomBot, WeightedBot, play_game  # noqa: E402
from catan_nb.analysis.value_bot import ValueBot  # noqa: E402


def _ladder():
    spec = importlib.util.spec_from_file_location("ladder", Path(__file__).resolve().parent / "ladder.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ladder", mod)
    spec.loader.exec_module(mod)
    return mod


ladder = _ladder()


def behaviour(g) -> Counter:
    """The behaviour figures of one finished game (see the module docstring)."""
    out: Counter = Counter()
    names = Counter(type(a).__name__ for a in g.log)
    ext = g.ext
    if "seafarers" in ext:
        out["games_with_ships"] += names["BuildShip"] > 0
        out["games_foreign_island"] += any(ext["seafarers"]["settled"])
        out["ships"] += names["BuildShip"]
    if "cities_knights" in ext:
        st = ext["cities_knights"]
        out["improvement_levels"] += sum(map(sum, st["levels"]))
        out["tracks_level3"] += sum(x >= 3 for lv in st["levels"] for x in lv)  # a level-3 ability (CK-IMP-3)
        out["metropolises"] += sum(m is not None for m in st["metropolis"])
        out["attacks"] += st["attacks"]
        out["attacks_repelled"] += _repelled(g)
        out["cities_lost"] += names["LoseCity"]
        out["defender_points"] += sum(st["defender"])
    if "erie_canal" in ext:
        # every token paid (ERIE-2) is held at the end or was played (ERIE-4; trades move them between seats)
        out["canal_tokens_earned"] += sum(ext["erie_canal"]["tokens"]) + names["PlayCanal"]
        out["canal_tokens_played"] += names["PlayCanal"]
        out["games_canal_played"] += names["PlayCanal"] > 0
    if "corsica_new_york" in ext:
        out["catan_tokens_taken"] += sum(o is not None for _, o in ext["corsica_new_york"]["tokens"])
    if "friends" in ext:
        out["friends_catan_tokens"] += sum(ext["friends"]["catan_tokens"])
    return out


def value_games(name: str, games: int, seed: int, max_turns: int) -> tuple[list[int], int, Counter, float]:
    """(turns of each game, games capped, behaviour totals, seconds) of value-bot games on a module."""
    setup = ladder.setup_for(None if name == "base" else name.split("+"))
    turns, capped, beh = [], 0, Counter()
    t = time.perf_counter()
    for i in range(games):
        gs = seed * 1_000_003 + i
        g = setup.game(gs)
        bots = [ValueBot(seed=gs * 7 + q) for q in range(setup.players)]
        first = None
        while not g.is_over and g.turn <= max_turns:  # play_game, watching for the first barbarian attack
            g.apply(bots[g.current_player].choose(g))
            if first is None and "cities_knights" in g.ext and g.ext["cities_knights"]["attacks"]:
                first = (g.turn, dict(g.ext["cities_knights"]["last_attack"]))
        turns.append(g.turn)
        capped += not g.is_over
        beh.update(behaviour(g))
        if first is not None:
            beh.update(first_attack(*first))
    return turns, capped, beh, time.perf_counter() - t


def first_attack(turn: int, record: dict) -> Counter:
    """Figures of a game's first barbarian attack from its record (CK-BAR-1..3): repelled or not, the
    cities lost, Catan's strength against the barbarians', and the turn it came."""
    out: Counter = Counter()
    out["first_attack_repelled"] += "losers" not in record
    out["first_attack_cities_lost"] += len(record.get("losers", ()))
    out["first_attack_catan"] += record["catan"]
    out["first_attack_barbarians"] += record["barbarians"]
    out["first_attack_turn"] += turn
    return out


def _repelled(g) -> int:
    """Barbarian attacks in which Catan won (CK-BAR-3), counted from the log: an attack lost makes
    someone choose a city to lose (CK-BAR-2), so the attacks that were lost are the runs of
    LoseCity decisions."""
    attacks = g.ext["cities_knights"]["attacks"]
    lost, prev = 0, None
    for a in g.log:
        n = type(a).__name__
        if n == "LoseCity" and prev != "LoseCity":
            lost += 1
        prev = n
    return attacks - lost


def end_games(name: str, kind: str, players: int, games: int, seed: int, max_turns: int):
    """(turns, capped seeds, seconds) of random or weighted bots' games, or None if the count is not allowed."""
    try:
        setup = ladder.setup_for(None if name == "base" else name.split("+"), None, players)
        setup.game(0)
    except Exception:  # noqa: BLE001 - a player count the module or its board does not allow
        return None
    make = RandomBot if kind == "random" else WeightedBot
    turns, capped = [], []
    t = time.perf_counter()
    for i in range(games):
        gs = seed * 1_000_003 + i
        g = play_game(setup.game(gs), [make(seed=gs * 7 + q) for q in range(players)], max_turns=max_turns)
        turns.append(g.turn)
        if not g.is_over:
            capped.append(gs)
    return turns, capped, time.perf_counter() - t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=500)
    ap.add_argument("--only", nargs="+", metavar="NAME",
                    help=f"modules ({', '.join(ladder.MODULE_SETUPS)}), or several joined by + (cities_knights+seafarers)")
    ap.add_argument("--ends", action="store_true", help="random and weighted bots with 3-6 seats: does every game end?")
    args = ap.parse_args(argv)
    names = args.only or list(ladder.MODULE_SETUPS)
    for name in names:
        ladder.setup_for(name.split("+"))  # an unknown name fails here
    if args.ends:
        total_capped = 0
        for name in names:
            for kind in ("random", "weighted"):
                for players in (3, 4, 5, 6):
                    if name == "five_six" and players < 5:
                        continue  # the base game's (the five-six board is for 5 and 6)
                    got = end_games(name, kind, players, args.games, args.seed, args.max_turns)
                    if got is None:
                        continue
                    turns, capped, secs = got
                    total_capped += len(capped)
                    print(f"{name:17s} {kind:8s} {players} players: median {statistics.median(turns):7.1f} "
                          f"longest {max(turns):6d} capped {len(capped)} {capped[:5]} ({secs:.0f} s)", flush=True)
        print(f"capped: {total_capped}")
        return
    base = None
    worst = 0.0
    for name in (["base"] if "base" not in names else []) + names:
        turns, capped, beh, secs = value_games(name, args.games, args.seed, args.max_turns)
        med = statistics.median(turns)
        if name == "base":
            base = med
        ratio = med / base if base else float("nan")
        if name != "base":
            worst = max(worst, ratio)
        figs = " ".join(f"{k}={v / args.games:.2f}" for k, v in sorted(beh.items()))
        print(f"{name:17s} median {med:6.1f} ({ratio:.2f} x base) capped {capped}  {figs} ({secs:.0f} s)", flush=True)
    print(f"median ratio: {worst:.2f}")


if __name__ == "__main__":
    main()

"""Does the placement score predict good play?  Rank correlation of the score with value-bot playouts.

Usage::

    python benchmarks/placement_validity.py --playouts 400 --workers 2                 # base game
    python benchmarks/placement_validity.py --module cities_knights --playouts 40 --workers 2
    python benchmarks/placement_validity.py --module fog --cases 3 --playouts 60

For each case (seeded boards, as ``benchmarks/ladder.py`` plays the module; a shipped scenario map
is studied from seats 0, 1, 2... in turn instead), the analytic top ``--top`` opening pairs of the
seat (:func:`~catan_nb.analysis.placement.rank_openings`) are played out ``--playouts`` times each by
value bots (:func:`~catan_nb.analysis.placement.simulate_openings`: the module's own rules, the
compiled kernel where it covers them, the same seeds for every pair).  Per case it prints Spearman's
rank correlation between the score and the win rate, with a bootstrap interval (playouts resampled,
the same ones for every pair, 1000 times), the win rates' typical 95% half-width, the score's picks
(the mean win rate of its best 20, 5 and 1 pairs: a score may order its top 20 well and still choose a
poorer 20 than another), and the mean over the cases with its bootstrap interval.  It also prints how far the playouts agree with themselves (the win
rates of the even against the odd playouts, stepped up to the whole run): the square root of that
reliability is about the best rank correlation any score could reach with these playouts.  Board seeds start at ``--seed`` (default 1: clear of the seeds the
weights were fitted on, 1000 and up).

``--skip K`` leaves out the first K cases (on a shipped map, its first K seats: ``--cases 4 --skip 3`` studies
seat 3 alone).

``--set NAME=VALUE`` (repeatable) changes one weight on top of the game's own (a module's weights
tried before they are adopted); ``--set base`` takes every weight the game's modules change back to
the base game's except ``commodities``.

``--dump FILE`` writes one JSON line per pair (case, seat, the pair, its score, parts and terms, win rate, mean VP
and each playout's result) for a closer look or a fit of a module's weights.

``--compare NAME=V1,V2,...`` measures several values of one weight on the same playouts: per case, each value's
top ``--top`` pairs are ranked, the union of them is played out once, in one world (the rivals found by the game's
own weights, with ``--set``'s changes), and each value's rank correlation and picks are printed as a plain run of
that value would.  A value that orders the single spots otherwise (a spot part's weight: the rivals would pick
other sites if it were adopted, and in the game's world its second sites may be taken first) plays its pairs
where the rivals found by its own order, as a plain run with ``--set`` would (its lines say ``rivals by its own
order``); values that order the spots alike share those playouts.  Its best pairs then meet other rivals, so its
picks are not comparable with the others': its rank correlation is.  (Before 2026-11-29 every value was played in
the game's world.)  ``--cache FILE`` (repeatable) reuses the
playouts of earlier ``--dump`` files (same module, case, seat, playouts and world; a dump written with ``--set``
records it) instead of playing those pairs again.  Repeated, ``--compare`` changes several weights together: the
k-th values of every name make the k-th weighting tried (``--compare production=1,2.5 --compare rivals=1,-2``
compares the game's weights with a fitted set).  Its last lines are ``compare NAME=V[,NAME2=V2]: mean_rho ...
picks ...``; each weighting after the first adds its difference from the first, case by case, with an interval
that draws the cases again (``against ...: rho D [LO, HI]  best 20 D [LO, HI]``).

``--weights classic`` measures the first, hand-set score (:meth:`PlacementWeights.classic
<catan_nb.analysis.placement.PlacementWeights.classic>`; its greedy opponents pick by it too).

The last line is ``module: NAME  mean_rho: X [LO, HI]  cases: K  playouts: P  half_width: H  over_boards: [LO, HI]``.
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from dataclasses import fields, replace  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb.analysis.placement import (  # noqa: E402
    NodeTable,
    PlacementWeights,
    placement_weights,
    opening_terms,
    rank_openings,
    simulate_openings,
)
from catan_nb.analysis.probability import rank_correlation  # noqa: E402

sys.path.insert(0, _HERE)
from ladder import setup_for  # noqa: E402

# off the path again (if ladder left it there): a process that loads this file keeps the standard library's copy
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]


def cases(module: list[str], n: int, seed: int, players: int | None, skip: int = 0):
    """``(case, game, seat)``: seeded boards, or a shipped map's seats in turn, the first ``skip`` left out."""
    setup = setup_for(module, players=players)
    fixed = setup.board not in (None, "islands", "gold")
    for k in range(skip, n):
        s = seed + k
        game = setup.game(seed if fixed else s)
        yield s, game, (k % game.n if fixed else 0), setup.label


def changed(game, weights: PlacementWeights | None, changes: list[str]) -> PlacementWeights | None:
    """``weights``, or the game's own with ``--set``'s changes (``base``: the base game's but commodities)."""
    if not changes:
        return weights
    out = weights or placement_weights(game)
    for text in changes:
        if text == "base":
            out = replace(PlacementWeights(), commodities=out.commodities)
            continue
        name, _, value = text.partition("=")
        out = replace(out, **{name: float(value)})
    return out


def picks(rates: np.ndarray) -> str:
    """How good the score's own picks are: the mean win rate of its best 20 (or all), 5 and 1 pairs, best first.
    A score can order its top 20 well and still choose a poorer 20 than another: read both."""
    return "/".join(f"{rates[:k].mean():.3f}" for k in (len(rates), 5, 1))


def against(per: list[list[dict]], first: int, k: int, draws: int, rng: np.random.Generator) -> str:
    """Weighting ``k`` less weighting ``first``, case by case (the same playouts): the mean difference of the rank
    correlation and of the best 20's mean win rate, each with a 95% interval drawing the cases again (``draws``
    times).  The best 20's win rate averages hundreds of games and moves far less from case to case than a rank
    correlation of 20 noisy win rates: it often tells two weightings apart where the correlation cannot."""
    d = np.array([[res[k]["rho"] - res[first]["rho"], res[k]["rates"].mean() - res[first]["rates"].mean()]
                  for res in per])
    boot = d[rng.integers(0, len(d), (draws, len(d)))].mean(axis=1)
    lo, hi = np.nanpercentile(boot, [2.5, 97.5], axis=0)
    mean = np.nanmean(d, axis=0)
    return (f"rho {mean[0]:+.3f} [{lo[0]:+.3f}, {hi[0]:+.3f}]  best 20 {mean[1]:+.3f} [{lo[1]:+.3f}, {hi[1]:+.3f}]"
            " (cases drawn again)")


def _pairs(ranked) -> list[tuple[int, int]]:
    """``(first, second)`` of each ranked pair, as plain ints (dictionary keys, JSON)."""
    return [(int(p.first), int(p.second)) for p in ranked]


def _dump(path: str, module: str, world: str, rows: list[dict]) -> None:
    """Append one JSON line per pair, with the module and the world (``--set``) its playouts were played in."""
    with open(path, "a") as f:
        f.writelines(json.dumps({"module": module, "world": world, **row}) + "\n" for row in rows)


def study(case, game, seat, top: int, playouts: int, pool, boot: int, rng: np.random.Generator,
          weights: PlacementWeights | None = None) -> dict:
    ranked = rank_openings(game, seat, top=top, weights=weights)
    pairs = _pairs(ranked)
    sims = simulate_openings(game, seat, pairs=pairs, playouts=playouts, bot="value", seed=case, progress=False,
                             client=pool, weights=weights)
    by = {(int(r.first), int(r.second)): r for r in sims}
    wins = np.array([by[p].wins for p in pairs], dtype=float)  # pairs x playouts, the same seeds per column
    score = np.array([p.score for p in ranked])
    rates = wins.mean(axis=1)
    rho = rank_correlation(score, rates)
    draws = [rank_correlation(score, wins[:, rng.integers(0, playouts, playouts)].mean(axis=1)) for _ in range(boot)]
    half = float(np.median([(by[p].win_rate.high - by[p].win_rate.low) / 2 for p in pairs]))
    # How far the playouts agree with themselves: the rank correlation of the win rates of the even and of the
    # odd playouts, stepped up to the whole run (Spearman-Brown).  A score that ordered the pairs by their true
    # win rates would correlate with the measured ones at about the square root of that: the ceiling.
    split = rank_correlation(wins[:, 0::2].mean(axis=1), wins[:, 1::2].mean(axis=1))
    reliability = 2 * split / (1 + split) if split == split and split > -1 else float("nan")
    terms = opening_terms(game, seat, pairs, weights=weights)
    rows = [{"case": case, "seat": seat, "first": a, "second": b, "score": p.score, "parts": p.parts,
             "terms": {k: float(v[i]) for k, v in terms.items()},
             "win_rate": float(rates[i]), "vp": by[(a, b)].vp.estimate, "wins": [bool(w) for w in by[(a, b)].wins]}
            for i, (p, (a, b)) in enumerate(zip(ranked, pairs))]
    return {"case": case, "seat": seat, "rho": rho, "boot": np.array(draws), "half": half, "rates": rates,
            "unfinished": sum(by[p].unfinished for p in pairs), "reliability": reliability, "rows": rows}


def _cached(files: list[str], name: str, playouts: int) -> dict:
    """Earlier dumps' playouts by ``(world, case, seat, first, second)``: those of the same module and length."""
    out = {}
    for file in files:
        with open(file) as f:
            for line in f:
                r = json.loads(line)
                if r["module"] == name and len(r["wins"]) == playouts:
                    out[(r.get("world", ""), r["case"], r["seat"], r["first"], r["second"])] = r["wins"]
    return out


def _orders(game, seat: int, weights: PlacementWeights) -> tuple:
    """The sites the modelled rivals found on, best first, for each founding building: what a playout's rivals
    follow (``simulate_openings``' greedy opponents)."""
    tab = NodeTable(game, weights, seat=seat, players=game.n)
    return tuple(tuple(tab.greedy_order[k]) for k in dict.fromkeys(tab.kinds))


def compare(case, game, seat, top: int, playouts: int, pool, world: PlacementWeights,
            variants: list[dict[str, float]], cache: dict, world_text: str = "") -> tuple[list[dict], list[dict]]:
    """Each weighting of ``variants`` (weights changed on ``world``): its top pairs, their scores and win rates.
    The union of the pairs is played once in ``world`` (the rivals found by its weights, ``world_text`` in a dump);
    a weighting that orders the single spots otherwise plays its pairs where the rivals found by its own order (as
    they would if it were adopted; in ``world`` its second sites may be taken first).  Returns a result per
    weighting and a row per pair and world."""
    tried = [replace(world, **v) for v in variants]
    keys = [_label(v) for v in variants]
    ranked = [rank_openings(game, seat, top=top, weights=w) for w in tried]
    home = _orders(game, seat, world)
    worlds: dict[tuple, tuple[str, PlacementWeights]] = {home: (world_text, world)}
    where = []
    for key, w in zip(keys, tried):
        order = _orders(game, seat, w)
        worlds.setdefault(order, (f"{world_text} | rivals by {key}", w))
        where.append(worlds[order][0])
    wins: dict[tuple[str, tuple[int, int]], list[bool]] = {}
    played = 0
    for text, w in worlds.values():
        union = list(dict.fromkeys(pair for r, at in zip(ranked, where) if at == text for pair in _pairs(r)))
        wins.update({(text, p): cache[(text, case, seat, *p)] for p in union if (text, case, seat, *p) in cache})
        todo = [p for p in union if (text, p) not in wins]
        if todo:
            sims = simulate_openings(game, seat, pairs=todo, playouts=playouts, bot="value", seed=case,
                                     progress=False, client=pool, weights=w)
            wins.update({(text, (int(r.first), int(r.second))): [bool(x) for x in r.wins] for r in sims})
            played += len(todo)
    results = []
    for key, rows, at in zip(keys, ranked, where):
        rates = np.array([np.mean(wins[(at, p)]) for p in _pairs(rows)])
        results.append({"value": key, "rho": rank_correlation(np.array([p.score for p in rows]), rates),
                        "rates": rates, "played": played, "own_world": at != world_text})
    scores = [dict(zip(_pairs(r), (p.score for p in r))) for r in ranked]
    # a pair's terms as the first weighting that ranks it models the rivals (another's may take its second site)
    terms: dict[tuple[int, int], dict[str, float]] = {}
    for w, s in zip(tried, scores):
        mine = [p for p in s if p not in terms]
        if mine:
            t = opening_terms(game, seat, mine, weights=w)
            terms.update({p: {k: float(x[i]) for k, x in t.items()} for i, p in enumerate(mine)})
    rows = [{"case": case, "seat": seat, "first": a, "second": b, "world": text, "terms": terms[(a, b)],
             "scores": {k: s.get((a, b)) for k, s, at in zip(keys, scores, where) if at == text},
             "win_rate": float(np.mean(x)), "wins": [bool(v) for v in x]}
            for (text, (a, b)), x in wins.items()]
    return results, rows


def _label(variant: dict[str, float]) -> str:
    """A weighting's name in the output and the dump: ``pace=6``, or ``production=2,rivals=-1``."""
    return ",".join(f"{k}={v:g}" for k, v in variant.items())


def _variants(texts: list[str], error) -> list[dict[str, float]]:
    """``--compare``'s arguments as weightings: the k-th values of every name make the k-th (``error``, the
    parser's, on bad input)."""
    known = {f.name for f in fields(PlacementWeights)}
    columns: dict[str, list[float]] = {}
    for text in texts:
        cname, _, values = text.partition("=")
        try:
            columns[cname] = [float(v) for v in values.split(",")]
        except ValueError:
            error(f"--compare wants NAME=V1,V2,... (numbers), not {text!r}")
        if cname not in known:
            error(f"--compare: no weight named {cname!r}")
    if len({len(v) for v in columns.values()}) > 1:
        error("--compare: every weight compared needs as many values ("
              + ", ".join(f"{k}: {len(v)}" for k, v in columns.items()) + ")")
    count = len(next(iter(columns.values())))
    return [{k: v[i] for k, v in columns.items()} for i in range(count)]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", action="append", default=[], help="rule module (repeatable); default the base game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--cases", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip", type=int, default=0, help="leave out the first SKIP cases (a shipped map's first seats)")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--playouts", type=int, default=400)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a weight changed on top of the game's (repeatable); 'base': the base game's weights")
    ap.add_argument("--weights", choices=("default", "classic"), default="default",
                    help="the library's weights (fitted), or the first hand-set ones (PlacementWeights.classic())")
    ap.add_argument("--dump", default=None, metavar="FILE", help="write each pair's score, parts and playouts (JSON lines)")
    ap.add_argument("--compare", action="append", default=[], metavar="NAME=V1,V2,...",
                    help="several values of one weight on the same playouts, the rivals founding by the game's "
                         "weights (repeatable: the k-th values of every name make one weighting)")
    ap.add_argument("--cache", action="append", default=[], metavar="FILE",
                    help="with --compare: reuse the playouts of earlier --dump files")
    args = ap.parse_args(argv)
    weights = PlacementWeights.classic() if args.weights == "classic" else None
    rng = np.random.default_rng(12345)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    out = []
    label = "base"
    name = "+".join(args.module) or "base"
    start = time.time()
    world_text = ",".join((["classic"] if args.weights == "classic" else []) + args.set)  # what a dump was played in
    if args.compare:
        variants = _variants(args.compare, ap.error)
        cache = _cached(args.cache, name, args.playouts)
        per: list[list[dict]] = []
        try:
            for case, game, seat, label in cases(args.module, args.cases, args.seed, args.players, args.skip):
                world = changed(game, weights, args.set) or placement_weights(game)
                res, rows = compare(case, game, seat, args.top, args.playouts, pool, world, variants, cache,
                                    world_text)
                per.append(res)
                for r in res:
                    print(f"case {case} seat {seat} {r['value']}: rho {r['rho']:+.3f}  picks {picks(r['rates'])}"
                          f"  (union {len(rows)} pairs, {r['played']} played)" + ("  rivals by its own order" if
                          r["own_world"] else "") + f"  {time.time() - start:.0f} s", flush=True)
                if args.dump:
                    _dump(args.dump, name, world_text, rows)
        finally:
            if pool is not None:
                pool.shutdown()
        print(f"{label}: top {args.top} pairs by each value of {','.join(variants[0])}, {args.playouts} value-bot playouts a pair, "
              f"{len(per)} cases, the rivals founding by the game's weights" + (" with " + world_text if world_text else "")
              + " (or by a weighting's own order of the spots, where it differs)")
        for k, v in enumerate(variants):
            rhos = [res[k]["rho"] for res in per]
            n = min(len(res[k]["rates"]) for res in per)
            print(f"compare {_label(v)}: mean_rho {np.mean(rhos):+.3f}  per case "
                  + " ".join(f"{x:+.2f}" for x in rhos)
                  + "  picks " + picks(np.mean([res[k]["rates"][:n] for res in per], axis=0))
                  + (f"  against {_label(variants[0])}: {against(per, 0, k, args.bootstrap, rng)}" if k else ""))
        return
    try:
        for case, game, seat, label in cases(args.module, args.cases, args.seed, args.players, args.skip):
            r = study(case, game, seat, args.top, args.playouts, pool, args.bootstrap, rng,
                      changed(game, weights, args.set))
            lo, hi = np.nanpercentile(r["boot"], [2.5, 97.5])
            print(f"case {case} seat {seat}: rho {r['rho']:+.3f} [{lo:+.3f}, {hi:+.3f}]  win rates "
                  f"{r['rates'].min():.2f}..{r['rates'].max():.2f} (each +-{r['half']:.3f})  picks {picks(r['rates'])}"
                  f"  reliability {r['reliability']:.2f}  unfinished {r['unfinished']}  {time.time() - start:.0f} s",
                  flush=True)
            out.append(r)
            if args.dump:
                _dump(args.dump, name, world_text, r["rows"])
    finally:
        if pool is not None:
            pool.shutdown()
    mean = float(np.mean([r["rho"] for r in out]))
    draws = np.vstack([r["boot"] for r in out])  # cases x playout draws
    lo, hi = np.nanpercentile(np.nanmean(draws, axis=0), [2.5, 97.5])
    # boards drawn again too: each draw takes len(out) cases with replacement, each with one of its playout draws
    pick = rng.integers(0, len(out), (draws.shape[1], len(out)))
    over = np.nanmean(draws[pick, np.arange(draws.shape[1])[:, None]], axis=1)
    blo, bhi = np.nanpercentile(over, [2.5, 97.5])
    half = float(np.median([r["half"] for r in out]))
    rel = float(np.nanmean([r["reliability"] for r in out]))
    print("per case: " + " ".join(f"{r['case']}:{r['rho']:+.3f}" for r in out))
    named = f"{args.weights} weights" + (" with " + ", ".join(args.set) if args.set else "")
    print(f"{label}: top {args.top} pairs by the {named}, {args.playouts} value-bot playouts a pair, "
          f"{len(out)} cases")
    print("the score's picks (mean win rate of its best 20, 5 and 1 pairs, over the cases): "
          + picks(np.mean([r["rates"][:min(len(x["rates"]) for x in out)] for r in out], axis=0)))
    print(f"the playouts' own split-half reliability (even against odd playouts, stepped up): {rel:.3f}; a score "
          f"ranking the pairs by their true win rates would reach about rho {max(rel, 0) ** 0.5:.3f}")
    print(f"module: {name}  mean_rho: {mean:.3f} [{lo:.3f}, {hi:.3f}]  cases: {len(out)}  playouts: {args.playouts}"
          f"  half_width: {half:.3f}  over_boards: [{blo:.3f}, {bhi:.3f}]")


if __name__ == "__main__":
    main()

"""Fit the placement score's weights to value-bot playouts: the data behind ``PlacementWeights``.

Usage::

    python benchmarks/placement_fit.py --boards 30 --seed 1000 --playouts 80 --workers 2 --data fit.jsonl
    python benchmarks/placement_fit.py --data fit.jsonl --fit-only          # refit from collected playouts
    python benchmarks/placement_fit.py --data fit.jsonl --fit-only --refresh  # terms recomputed by today's code
    python benchmarks/placement_fit.py --module cities_knights --boards 12 --playouts 24 --data ck.jsonl

For each seeded board (``--module``: the module's board and rules, as ``benchmarks/ladder.py``
plays them; a shipped scenario map is played from each seat in turn instead of on new boards),
seat 0's opening pairs are sampled (the ``--top`` best by the current score and ``--random``
others), and every pair is played out ``--playouts`` times by value bots
(:func:`~catan_nb.analysis.placement.simulate_openings`, the same seeds for every pair: common random
numbers).  Each pair's terms (:meth:`NodeTable.terms
<catan_nb.analysis.placement.NodeTable.terms>`, one per ``PlacementWeights`` field) and its wins are
written to ``--data`` (JSON lines; a run adds to the file, boards already there are skipped).

``--drop NAME`` leaves a term out of the fit (it keeps its default weight): a term the fit's maps
cannot weigh (the number diversity of fog hexes, whose tokens are hidden).

``--refresh`` recomputes every stored pair's terms with today's code and weights (a new term, or
opponents who now pick otherwise; a pair the modelled opponents no longer leave free is dropped) before
fitting.

The fit is a ridge regression of each pair's win rate on its terms *within* a board (board means
removed: what matters is which pair to take on a given board), on each board's ``--fit-top`` best pairs
by the score of the day (the score must order the top, where a player chooses), the weights scaled so that
``production`` is 1 (the score stays in cards per roll).  Cross-validation leaves boards out in
folds and prints, per held-out board, the rank correlation between the fitted score and the win
rate among the 20 best pairs by the fitted score.

``--scan NAME=V1,V2,...`` keeps today's weights and tries one of them at each value: the mean top-20 rank
correlation over the stored boards for each (one weight chosen on the fit's boards, the rest kept; how
``pace`` was set).  Its last line is ``scan NAME: V1=RHO1 V2=RHO2 ...``.

The last line is ``cv_top20_rho: X  weights: name=value ...``.
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from dataclasses import fields  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catan_nb.analysis.placement import (  # noqa: E402
    PlacementWeights,
    opening_terms,
    placement_weights,
    rank_openings,
    simulate_openings,
)
from catan_nb.analysis.probability import rank_correlation  # noqa: E402

sys.path.insert(0, _HERE)
from ladder import setup_for  # noqa: E402

TERMS = [f.name for f in fields(PlacementWeights)]


def cases(module: list[str], boards: int, seed: int, players: int | None):
    """``(case id, game, seat)`` of the study: seeded boards, or a shipped map's seats in turn."""
    setup = setup_for(module, players=players)
    fixed = setup.board not in (None, "islands", "gold")
    for k in range(boards):
        s = seed + k
        game = setup.game(seed if fixed else s)
        seat = k % game.n if fixed else 0
        yield s, game, seat, (seed if fixed else s)


def collect_one(args) -> list[dict]:
    """Play out one case's sampled pairs; its rows (terms and wins per pair)."""
    case, module, players, seat, top, n_random, playouts, board_seed = args
    game = setup_for(module, players=players).game(board_seed)  # built here: a game does not pickle
    ranked = rank_openings(game, seat)
    rng = random.Random(case)
    rest = ranked[top:]
    chosen = ranked[:top] + rng.sample(rest, min(n_random, len(rest)))
    pairs = [(int(p.first), int(p.second)) for p in chosen]
    sims = simulate_openings(game, seat, pairs=pairs, playouts=playouts, bot="value", seed=case, progress=False)
    by = {(int(r.first), int(r.second)): r for r in sims}
    terms = opening_terms(game, seat, pairs)
    rows = []
    for i, (p, pair) in enumerate(zip(chosen, pairs)):
        r = by[pair]
        rows.append({"case": case, "board_seed": board_seed, "seat": seat, "first": pair[0], "second": pair[1], "rank": i, "score": p.score,
                     "terms": {k: float(v[i]) for k, v in terms.items()}, "wins": [int(x) for x in r.wins]})
    return rows


def load(path: Path) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                out.setdefault(row["case"], []).append(row)
    return out


def refresh(data: dict[int, list[dict]], module: list[str], players: int | None) -> dict[int, list[dict]]:
    """The stored pairs with their terms recomputed by today's code (pairs no longer possible dropped)."""
    setup = setup_for(module, players=players)
    fixed = setup.board not in (None, "islands", "gold")
    out: dict[int, list[dict]] = {}
    for case, rows in data.items():
        game = setup.game(rows[0].get("board_seed", case) if fixed else case)
        seat = rows[0]["seat"]
        can = {(int(p.first), int(p.second)) for p in rank_openings(game, seat)}
        keep = [r for r in rows if (r["first"], r["second"]) in can]
        if not keep:
            continue
        terms = opening_terms(game, seat, [(r["first"], r["second"]) for r in keep])
        out[case] = [{**r, "terms": {k: float(v[i]) for k, v in terms.items()}} for i, r in enumerate(keep)]
    return out


def design(rows: list[dict], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    X = np.array([[r["terms"].get(k, 0.0) for k in names] for r in rows])
    y = np.array([np.mean(r["wins"]) for r in rows])
    return X, y


def fit(data: dict[int, list[dict]], names: list[str], lam: float) -> np.ndarray:
    """Ridge regression within boards (board means removed), on standardised terms."""
    Xs, ys = [], []
    for rows in data.values():
        X, y = design(rows, names)
        Xs.append(X - X.mean(axis=0))
        ys.append(y - y.mean())
    X, y = np.vstack(Xs), np.concatenate(ys)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    Z = X / sd
    w = np.linalg.solve(Z.T @ Z + lam * len(y) * np.eye(len(names)), Z.T @ y)
    return w / sd


def top20_rho(rows: list[dict], names: list[str], w: np.ndarray) -> float:
    X, y = design(rows, names)
    pred = X @ w
    top = np.argsort(-pred, kind="stable")[:20]
    return rank_correlation(pred[top], y[top])


def cross_validate(data: dict[int, list[dict]], names: list[str], lam: float,
                   test_data: dict[int, list[dict]] | None = None, folds: int = 5) -> list[float]:
    """Per held-out board, the top-20 rank correlation of a fit on the other boards (``test_data``: the
    held-out boards' pairs, default ``data``)."""
    test_data = test_data or data
    keys = sorted(data)
    out = []
    for f in range(folds):
        test = keys[f::folds]
        train = {k: v for k, v in data.items() if k not in test}
        if not train:
            continue
        w = fit(train, names, lam)
        out += [top20_rho(test_data[k], names, w) for k in test]
    return out


def scan(data: dict[int, list[dict]], spec: str, today: PlacementWeights) -> None:
    """Print the mean top-20 rank correlation over ``data``'s boards with ``today``'s weights (the module's) and
    one weight at each of the values ``spec`` (``NAME=V1,V2,...``) names."""
    name, _, values = spec.partition("=")
    if name not in TERMS:
        raise SystemExit(f"--scan: {name!r} is not a weight; expected one of {', '.join(TERMS)}")
    out = []
    for value in (float(v) for v in values.split(",")):
        w = np.array([value if k == name else getattr(today, k) for k in TERMS])
        rho = float(np.mean([top20_rho(rows, TERMS, w) for rows in data.values()]))
        print(f"{name}={value:g}: mean top-20 rank correlation {rho:.3f} over {len(data)} boards", flush=True)
        out.append(f"{value:g}={rho:.3f}")
    print(f"scan {name}: " + " ".join(out))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", action="append", default=[], help="rule module (repeatable); default the base game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1000, help="first board seed (keep clear of the validity seeds)")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--random", type=int, default=20)
    ap.add_argument("--playouts", type=int, default=80)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--data", type=Path, default=Path("test-output/placement_fit.jsonl"))
    ap.add_argument("--fit-only", action="store_true")
    ap.add_argument("--refresh", action="store_true", help="recompute the stored pairs' terms with today's code")
    ap.add_argument("--fit-top", type=int, default=40, help="fit on each board's best pairs by the stored rank")
    ap.add_argument("--lam", type=float, default=0.03, help="ridge penalty (on standardised terms)")
    ap.add_argument("--scan", default=None, metavar="NAME=V1,V2,...",
                    help="today's weights with one of them at each value: the mean top-20 rank correlation of each")
    ap.add_argument("--drop", action="append", default=[],
                    help="a term left out of the fit (repeatable): it keeps its default weight")
    args = ap.parse_args(argv)
    args.data.parent.mkdir(parents=True, exist_ok=True)
    data = load(args.data)
    if not args.fit_only:
        todo = [(c, args.module, args.players, s, args.top, args.random, args.playouts, bs)
                for c, _g, s, bs in cases(args.module, args.boards, args.seed, args.players) if c not in data]
        start = time.time()
        with open(args.data, "a") as out:
            if args.workers > 1:
                with ProcessPoolExecutor(args.workers) as pool:
                    for rows in pool.map(collect_one, todo):
                        out.write("".join(json.dumps(r) + "\n" for r in rows))
                        out.flush()
                        print(f"case {rows[0]['case']}: {len(rows)} pairs, {time.time() - start:.0f} s", flush=True)
            else:
                for job in todo:
                    rows = collect_one(job)
                    out.write("".join(json.dumps(r) + "\n" for r in rows))
                    out.flush()
                    print(f"case {rows[0]['case']}: {len(rows)} pairs, {time.time() - start:.0f} s", flush=True)
        data = load(args.data)
    if args.refresh:
        data = refresh(data, args.module, args.players)
    if len(data) < 2:
        raise SystemExit("need at least two boards of data to fit")
    every = data
    if args.scan:
        seed = next(iter(every.values()))[0].get("board_seed", next(iter(every)))
        scan(every, args.scan, placement_weights(setup_for(args.module, players=args.players).game(seed)))
        return
    data = {k: [r for r in rows if r["rank"] < args.fit_top] for k, rows in every.items()}
    some = next(iter(data.values()))
    names = [k for k in TERMS if any(abs(r["terms"].get(k, 0.0)) > 0 for rows in data.values() for r in rows)]
    names = [k for k in names if np.std([r["terms"].get(k, 0.0) for rows in data.values() for r in rows]) > 0
             and k not in args.drop]
    cv = cross_validate(data, names, args.lam, every)
    w = fit(data, names, args.lam)
    scale = w[names.index("production")] if "production" in names else 1.0
    weights = {k: float(x / scale) for k, x in zip(names, w)}
    old = [rank_correlation([r["score"] for r in rows if r["rank"] < 20], [np.mean(r["wins"]) for r in rows if r["rank"] < 20])
           for rows in data.values()]
    print(f"boards: {len(data)}  pairs: {sum(len(v) for v in data.values())}  playouts a pair: {len(some[0]['wins'])}")
    print(f"current score, top 20 by it: mean rank correlation {np.mean(old):.3f}")
    print("cross-validated, held-out boards: " + " ".join(f"{x:.2f}" for x in cv))
    print("cv_top20_rho: %.3f  weights: %s" % (np.mean(cv), " ".join(f"{k}={v:.4g}" for k, v in weights.items())))


if __name__ == "__main__":
    main()

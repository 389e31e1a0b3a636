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

``--seats`` fits on every seat's result instead: each playout says which seat won (four results a game with four
players, where the win rate of the seat studied reads one), so the fit is a multinomial logit of the winner on every
seat's own terms (:func:`~catan_nb.analysis.placement.seat_terms`: the pairs the modelled opponents found), with an
offset per seat; the studied seat's pairs are ranked by the chance the model gives it.  It prints the temperature
(the logit of a card per roll) and the offsets, and weights scaled as the other fit's.  Data collected before
2026-11-29 has no winners: collect it again.

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
    seat_terms,
    simulate_openings,
)
from catan_nb.analysis.probability import rank_correlation  # noqa: E402

sys.path.insert(0, _HERE)
from ladder import setup_for  # noqa: E402

# off the path again (if ladder left it there): a process that loads this file keeps the standard library's copy
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

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
    every = seat_terms(game, seat, pairs)
    rows = []
    for i, (p, pair) in enumerate(zip(chosen, pairs)):
        r = by[pair]
        rows.append({"case": case, "board_seed": board_seed, "seat": seat, "first": pair[0], "second": pair[1], "rank": i, "score": p.score,
                     "terms": {k: float(v[i]) for k, v in terms.items()}, "wins": [int(x) for x in r.wins],
                     "winners": list(r.winners), "seat_terms": {k: v[i].tolist() for k, v in every.items()}})
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
        pairs = [(r["first"], r["second"]) for r in keep]
        terms = opening_terms(game, seat, pairs)
        out[case] = [{**r, "terms": {k: float(v[i]) for k, v in terms.items()}} for i, r in enumerate(keep)]
        if all("winners" in r for r in keep):  # data that can be fitted on every seat's result (--seats)
            every = seat_terms(game, seat, pairs)
            for i, r in enumerate(out[case]):
                r["seat_terms"] = {k: v[i].tolist() for k, v in every.items()}
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


def seat_design(rows: list[dict], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Every seat's terms, ``(rows, seats, terms)``, and the playouts each seat won, ``(rows, seats)``."""
    X = np.array([[[r["seat_terms"][k][q] for k in names] for q in range(len(r["seat_terms"][names[0]]))]
                  for r in rows])
    C = np.zeros(X.shape[:2])
    for i, r in enumerate(rows):
        for w in r["winners"]:
            if w is not None:
                C[i, w] += 1
    return X, C


def _log_sum_exp(u: np.ndarray) -> np.ndarray:
    """``log(sum(exp(u)))`` over the seats (the last axis), without overflow."""
    top = u.max(axis=-1, keepdims=True)
    return top[..., 0] + np.log(np.exp(u - top).sum(axis=-1))


def fit_seats(data: dict[int, list[dict]], names: list[str], lam: float) -> tuple[np.ndarray, np.ndarray]:
    """A multinomial logit of each playout's winner on every seat's own terms (``seat_terms``), with an offset per
    seat: seat ``q`` wins with probability ``exp(u_q) / sum_p exp(u_p)``, ``u_q = w . terms_q + offset_q``.  Fitted
    by Newton's method on standardised terms, ``lam`` a ridge penalty per game on ``w`` (not on the offsets).
    Returns ``w`` (per unit of each term: ``production``'s entry is the logit of a card per roll) and the offsets
    (seat 0's is 0)."""
    parts = [seat_design(rows, names) for rows in data.values()]
    X = np.concatenate([x for x, _ in parts])
    C = np.concatenate([c for _, c in parts])
    n_rows, seats, k = X.shape
    flat = X.reshape(-1, k)
    mu, sd = flat.mean(axis=0), flat.std(axis=0)
    sd[sd == 0] = 1.0
    Z = np.concatenate([(X - mu) / sd, np.broadcast_to(np.eye(seats)[:, 1:], (n_rows, seats, seats - 1))], axis=2)
    games = C.sum()
    penalty = np.r_[np.full(k, lam * games), np.zeros(seats - 1)]
    theta = np.zeros(k + seats - 1)
    tot = C.sum(axis=1)

    def loss(t: np.ndarray) -> float:
        u = Z @ t
        return -float((C * u).sum() - (tot * _log_sum_exp(u)).sum()) + 0.5 * float(penalty @ (t * t))

    for _ in range(50):
        u = Z @ theta
        P = np.exp(u - _log_sum_exp(u)[:, None])
        grad = -np.einsum("rs,rsk->k", C - tot[:, None] * P, Z) + penalty * theta
        mean = np.einsum("rs,rsk->rk", P, Z)
        hess = np.einsum("r,rs,rsk,rsl->kl", tot, P, Z, Z) - np.einsum("r,rk,rl->kl", tot, mean, mean) + np.diag(penalty)
        step = np.linalg.solve(hess + 1e-9 * np.eye(len(theta)), grad)
        now, a = loss(theta), 1.0
        while loss(theta - a * step) > now and a > 1e-6:
            a /= 2
        theta = theta - a * step
        if np.abs(a * step).max() < 1e-9:
            break
    return theta[:k] / sd, np.r_[0.0, theta[k:]]


def seats_top20_rho(rows: list[dict], names: list[str], w: np.ndarray, offsets: np.ndarray) -> float:
    """The top-20 rank correlation of the studied seat's modelled chance (its log) with its win rate."""
    X, _ = seat_design(rows, names)
    u = X @ w + offsets[: X.shape[1]]
    pred = u[:, rows[0]["seat"]] - _log_sum_exp(u)
    y = np.array([np.mean(r["wins"]) for r in rows])
    top = np.argsort(-pred, kind="stable")[:20]
    return rank_correlation(pred[top], y[top])


def seats(data: dict[int, list[dict]], every: dict[int, list[dict]], names: list[str], lam: float,
          folds: int = 5) -> None:
    """Fit on every seat's result (:func:`fit_seats`), cross-validated with boards left out; print the weights."""
    if not all("winners" in r and "seat_terms" in r for rows in data.values() for r in rows):
        raise SystemExit("--seats: the data has no winners of every playout; collect it again with today's script")
    # the terms that vary from seat to seat (seat_terms leaves the rivals' own parts at 0)
    names = [k for k in names if np.std([x for rows in data.values() for r in rows for x in r["seat_terms"][k]]) > 0]
    keys = sorted(data)
    cv = []
    for f in range(folds):
        test = keys[f::folds]
        train = {k: v for k, v in data.items() if k not in test}
        if train:
            w, off = fit_seats(train, names, lam)
            cv += [seats_top20_rho(every[k], names, w, off) for k in test]
    w, off = fit_seats(data, names, lam)
    scale = w[names.index("production")] if "production" in names else 1.0
    print(f"boards: {len(data)}  games: {sum(len(r['winners']) for rows in data.values() for r in rows)}  "
          f"(every seat's result)")
    print(f"temperature: {scale:.3g} logits per card per roll  seat offsets: " + " ".join(f"{x:+.3f}" for x in off))
    print("cross-validated, held-out boards: " + " ".join(f"{x:.2f}" for x in cv))
    print("cv_top20_rho: %.3f  weights: %s" % (np.mean(cv), " ".join(f"{k}={x / scale:.4g}" for k, x in zip(names, w))))


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
    ap.add_argument("--seats", action="store_true",
                    help="fit on every seat's result: a multinomial logit of each playout's winner on every seat's terms")
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
    if args.seats:
        seats(data, every, names, args.lam)
        return
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

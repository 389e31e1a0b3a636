"""Stored opening playouts: runs of :func:`~catan_nb.analysis.placement.simulate_openings` too long for a lesson.

A lesson may ask whether the placement score ranks openings as games do, but playing a few hundred Cities &
Knights games takes longer than a class.  ``docs/tools/make_ck_openings.py`` plays them once, seeded, and
stores each pair's results; :func:`stored_ck_openings` reads them back as :class:`StoredOpenings`.  Each
playout is its own seeded call, so :meth:`StoredOpenings.check` can replay any of them and confirm it: the
numbers are computed, only ahead of time.

:func:`rank_agreement` measures how well a score ranks what the playouts measured: Spearman's rank
correlation with a bootstrap interval over the playouts (resampled together across the pairs, which were
played on the same seeds).

Examples
--------
>>> run = stored_ck_openings()[0]
>>> run.game().rules.modules, len(run.pairs) == len(run.wins) == len(run.vps)
(('cities_knights',), True)
>>> all(len(w) == run.playouts for w in run.wins)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..board import Board, NodeId
from ..rules import Game, Rules
from .placement import OpeningPair, OpeningSimulation, PlacementWeights, rank_openings, simulate_openings
from .probability import Estimate, estimate_mean, estimate_proportion, rank_correlation
from .table import Table

__all__ = ["StoredOpenings", "stored_ck_openings", "ck_game", "rank_agreement"]


def ck_game(board_seed: int | None = None, players: int = 4) -> Game:
    """A Cities & Knights game in its founding phase: on the beginner board (``board_seed=None``) or on
    ``Board.random(seed=board_seed)``.

    Examples
    --------
    >>> g = ck_game()
    >>> g.rules.modules, g.founding_building(0, True)[0]   # the second founding building is a city (CK-SETUP-1)
    (('cities_knights',), 'city')
    """
    return Game(_board(board_seed), players=players, seed=0, rules=Rules(modules=("cities_knights",)))


def _board(board_seed: int | None) -> Board:
    return Board.beginner() if board_seed is None else Board.random(seed=board_seed)


@dataclass(frozen=True)
class StoredOpenings:
    """The playouts of a few opening pairs of one seat on one board, and the call that played them.

    Playout ``j`` of every pair is ``simulate_openings(game, seat, pairs=[pair], playouts=1, seed=seed + j,
    bot=bot, weights=weights, max_turns=max_turns)``: all pairs are played on the same seeds and dice.

    Attributes
    ----------
    board_seed : int or None
        ``None``: the beginner board; else the seed of ``Board.random``.
    modules : tuple of str
    players, seat, seed, max_turns : int
    bot : str
    weights : PlacementWeights
        The weights of the day the run was made: they decide where the modelled opponents found.
    ranks : tuple of int
        Each pair's place in that day's :func:`~catan_nb.analysis.placement.rank_openings` (0 = the best).
    scores : tuple of float
        Each pair's placement score that day.
    pairs : tuple of (int, int)
        The seat's settlement, then its second founding building.
    wins : tuple of tuple of bool
        Per pair, playout by playout: whether the seat won.
    vps : tuple of tuple of int
        Per pair, playout by playout: the seat's victory points at the end.
    unfinished : tuple of tuple of bool
        Per pair, playout by playout: whether the game reached ``max_turns`` with no winner (not won).
    """

    board_seed: int | None
    modules: tuple[str, ...]
    players: int
    seat: int
    bot: str
    seed: int
    max_turns: int
    weights: PlacementWeights
    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    pairs: tuple[tuple[int, int], ...]
    wins: tuple[tuple[bool, ...], ...]
    vps: tuple[tuple[int, ...], ...]
    unfinished: tuple[tuple[bool, ...], ...]

    @property
    def playouts(self) -> int:
        """Playouts per pair."""
        return len(self.wins[0]) if self.wins else 0

    @property
    def name(self) -> str:
        """The board in words."""
        return "the beginner board" if self.board_seed is None else f"Board.random(seed={self.board_seed})"

    def game(self) -> Game:
        """The game the pairs were studied in (its founding phase)."""
        return Game(_board(self.board_seed), players=self.players, seed=0, rules=Rules(modules=self.modules))

    def simulations(self, confidence: float = 0.95) -> list[OpeningSimulation]:
        """Each pair's results as :func:`~catan_nb.analysis.placement.simulate_openings` reports them (the
        win rate with its Wilson interval, the mean VP with its t interval), in stored order; ``heuristic``
        is the score of the day."""
        out = []
        for (a, b), score, wins, vps, open_ in zip(self.pairs, self.scores, self.wins, self.vps, self.unfinished):
            label = f"seat {self.seat} founds {a}+{b}"
            out.append(OpeningSimulation(
                NodeId(a), NodeId(b), score,
                estimate_proportion(sum(wins), len(wins), label=f"P(win | {label})", confidence=confidence,
                                    simulated=True),
                estimate_mean(vps, label=f"VP at the end | {label}", confidence=confidence, simulated=True),
                len(wins), sum(open_), 0, wins, vps))
        return out

    def ranked_now(self, weights: PlacementWeights | None = None) -> list[tuple[int, OpeningPair] | None]:
        """Each pair's place and entry in today's :func:`~catan_nb.analysis.placement.rank_openings` (the
        game's weights, or ``weights``); ``None`` for a pair it no longer lists (new weights may let the
        modelled opponents take its second site first)."""
        ranked = rank_openings(self.game(), self.seat, weights=weights)
        at = {(int(p.first), int(p.second)): (i, p) for i, p in enumerate(ranked)}
        return [at.get(pair) for pair in self.pairs]

    def table(self, weights: PlacementWeights | None = None, confidence: float = 0.95) -> Table:
        """One row per pair: its rank when the run was made (1 = the best), today's rank and score, the win
        rate with its Wilson interval, the mean VP, and the games stopped at ``max_turns`` with no winner
        (counted as not won)."""
        now = self.ranked_now(weights)
        rows = []
        for (a, b), then, hit, sim in zip(self.pairs, self.ranks, now, self.simulations(confidence)):
            rows.append((f"{a} + {b}", then + 1, None if hit is None else hit[0] + 1, None if hit is None else hit[1].score,
                         sum(sim.wins), sim.win_rate.estimate, sim.win_rate.low, sim.win_rate.high, sim.vp.estimate,
                         sim.unfinished))
        cols = ("pair", "rank_then", "rank", "score", "wins", "win_rate", "low", "high", "mean_vp", "unfinished")
        title = (f"{self.name}: seat {self.seat}'s pairs, {self.playouts} {self.bot}-bot games each "
                 f"({confidence:.0%} Wilson interval)")
        return Table(cols, rows, title=title)

    def call(self, j: int) -> dict[str, Any]:
        """The keyword arguments of the :func:`~catan_nb.analysis.placement.simulate_openings` call of playout ``j``."""
        return {"seat": self.seat, "playouts": 1, "seed": self.seed + j, "bot": self.bot, "weights": self.weights,
                "max_turns": self.max_turns, "progress": False}

    def check(self, pair_index: int, playouts: Iterable[int]) -> bool:
        """Replay playouts of pair ``pair_index`` and confirm their stored results.

        Examples
        --------
        >>> stored_ck_openings()[0].check(0, [0])   # doctest: +SKIP
        True
        """
        game = self.game()
        pair = self.pairs[pair_index]
        for j in playouts:
            (sim,) = simulate_openings(game, pairs=[pair], **self.call(j))
            stored = (self.wins[pair_index][j], self.vps[pair_index][j], self.unfinished[pair_index][j], 0)
            if (sim.wins[0], sim.vps[0], bool(sim.unfinished), sim.fallbacks) != stored:
                return False
        return True


def _weights_of_the_day(stored: dict[str, float]) -> PlacementWeights:
    """The stored weights; a term added since weighs nothing (it was not in that day's score)."""
    return PlacementWeights(**{**{f.name: 0.0 for f in fields(PlacementWeights)}, **stored})


def _run(d: dict[str, Any]) -> StoredOpenings:
    return StoredOpenings(
        d["board"], tuple(d["modules"]), d["players"], d["seat"], d["bot"], d["seed"], d["max_turns"],
        _weights_of_the_day(d["weights"]), tuple(d["ranks"]), tuple(d["scores"]),
        tuple((int(a), int(b)) for a, b in d["pairs"]), tuple(tuple(c == "1" for c in e) for e in d["ends"]),
        tuple(tuple(v) for v in d["vps"]), tuple(tuple(c == "-" for c in e) for e in d["ends"]))


def stored_ck_openings() -> tuple[StoredOpenings, ...]:
    """The stored opening runs of lesson 19, one per board (made by ``docs/tools/make_ck_openings.py``).

    Examples
    --------
    >>> runs = stored_ck_openings()
    >>> [r.board_seed for r in runs]
    [None, 19]
    """
    from ._ck_openings import RUNS

    return tuple(_run(d) for d in RUNS)


def rank_agreement(scores: Sequence[float], outcomes: Sequence[Sequence[float]], *, resamples: int = 2000,
                   seed: int = 0, confidence: float = 0.95) -> Estimate:
    """How well ``scores`` rank the pairs by their mean outcome: Spearman's rank correlation, with a
    percentile bootstrap interval over the playouts.

    Parameters
    ----------
    scores : sequence of float
        One score per pair.
    outcomes : sequence of sequences
        Per pair, playout by playout (1/0 for a win, or victory points); every pair the same number of
        playouts, playout ``j`` of each played on the same seeds.
    resamples : int
        Bootstrap samples: each draws the playouts with replacement, the same draw for every pair (they
        share their seeds, so their luck is resampled together).
    seed : int
    confidence : float

    Returns
    -------
    Estimate
        ``estimate`` the rank correlation of the scores with the mean outcomes, ``low``/``high`` the
        bootstrap interval (samples where the outcomes have no spread are left out), ``method``
        ``"bootstrap"``.

    Examples
    --------
    >>> e = rank_agreement([3, 2, 1], [[1, 1, 1, 0], [1, 0, 1, 0], [0, 0, 0, 1]], resamples=200)
    >>> e.estimate, e.low <= e.estimate <= e.high
    (1.0, True)
    """
    y = np.asarray(outcomes, dtype=float)
    if y.ndim != 2 or y.shape[0] != len(scores) or y.shape[1] < 2:
        raise ValueError(f"need one row of at least two playouts per score, not an array of shape {y.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    x = [float(s) for s in scores]
    rho = rank_correlation(x, y.mean(axis=1).tolist())
    rng = np.random.default_rng(seed)
    n = y.shape[1]
    draws = []
    for _ in range(resamples):
        r = rank_correlation(x, y[:, rng.integers(0, n, size=n)].mean(axis=1).tolist())
        if not math.isnan(r):
            draws.append(r)
    tail = (1 - confidence) / 2
    low, high = (float(np.quantile(draws, q)) for q in (tail, 1 - tail)) if draws else (math.nan, math.nan)
    label = f"rank correlation of {len(x)} scores with {n} playouts each"
    return Estimate(label, None, rho, low, high, n, confidence, "bootstrap", True)

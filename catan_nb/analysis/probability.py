"""Dice and probability: exact distributions beside seeded simulations.

Everything exact is a :class:`fractions.Fraction`.  Every event a lesson asks
about is a small frozen dataclass with two methods: ``exact()`` gives the
probability (or expectation) as a Fraction, ``simulate(trials, seed)`` rolls
the dice with a numpy ``Generator`` and returns an :class:`Estimate` holding the
exact value, the simulated one and its confidence interval side by side.

Events
------
:class:`RollTotal`
    One roll lands on a total (or one of several totals).
:class:`Hits`
    The number of rolls, out of ``rolls``, that land on the totals is between
    ``at_least`` and ``at_most`` ("at least one 6 or 8 in 3 rolls",
    "no 7 in 3 rolls", "exactly two 7s in 10 turns").
:class:`ExpectedHits`
    The mean number of such rolls ("how many 7s in 60 turns?").
:class:`RollsUntil`
    The mean number of rolls up to and including the first hit.
:class:`Streak`
    A run of at least ``length`` consecutive rolls that are all equal, or all
    on the given totals.

Examples
--------
>>> dice_sum_distribution()[7]
Fraction(1, 6)
>>> Hits(7, rolls=3, at_most=0).exact()
Fraction(125, 216)
>>> est = Hits((6, 8), rolls=3).simulate(trials=2_000, seed=1)
>>> est.exact, est.covers
(Fraction(3635, 5832), True)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

import numpy as np

from ..constants import pips, roll_probability

__all__ = [
    "Exact",
    "Event",
    "Estimate",
    "TokenOdds",
    "RollTotal",
    "Hits",
    "ExpectedHits",
    "RollsUntil",
    "Streak",
    "ChiSquareBin",
    "ChiSquareResult",
    "dice_sum_distribution",
    "token_odds",
    "hit_distribution",
    "rolls_until_distribution",
    "estimate_proportion",
    "estimate_mean",
    "compare",
    "chi_square_test",
    "chi_square_counts",
    "parse_rolls",
    "chi2_sf",
    "chi2_critical",
    "most_likely",
    "PairedDifference",
    "paired_difference",
    "peeking_false_alarm",
    "ranks",
    "rank_correlation",
]

#: Dice totals as the analysis functions accept them: one total or several.
Totals = Union[int, Iterable[int]]
Seed = Union[int, np.random.Generator, None]

#: Largest number of dice values drawn at once (keeps memory small for long runs).
_CHUNK = 2_000_000


# ============================================================== exact values
class Exact(Fraction):
    """An exact probability or expectation: a :class:`~fractions.Fraction` that prints short.

    Exact answers about many rolls are fractions with dozens of digits (no 12 in 36 rolls is
    ``35**36 / 36**36``, 56 digits over 57).  An ``Exact`` prints such a fraction as a decimal and
    says how long it is; ``.fraction`` (or ``str(x.fraction)``) gives every digit.  Short fractions
    print as usual, and an ``Exact`` is a ``Fraction`` in every computation.

    Examples
    --------
    >>> Hits(7, rolls=3, at_most=0).exact()
    Fraction(125, 216)
    >>> x = Hits(12, rolls=36, at_most=0).exact()
    >>> x
    Exact(≈0.3627100331, a fraction of 56 digits over 57: .fraction shows it)
    >>> x == Fraction(35, 36) ** 36, len(str(x.fraction))
    (True, 114)
    """

    #: Fractions longer than this (numerator and denominator digits together) print as decimals.
    LONG = 24

    def _long(self) -> bool:
        return len(str(self.numerator)) + len(str(self.denominator)) > self.LONG

    @property
    def fraction(self) -> Fraction:
        """The value as a plain Fraction (it prints every digit)."""
        return Fraction(self.numerator, self.denominator)

    def _describe(self) -> str:
        return (f"≈{float(self):.10g}, a fraction of {len(str(abs(self.numerator)))} digits over "
                f"{len(str(self.denominator))}: .fraction shows it")

    def __repr__(self) -> str:
        return f"Exact({self._describe()})" if self._long() else repr(self.fraction)

    def __str__(self) -> str:
        return f"{self._describe()}" if self._long() else str(self.fraction)

    def __reduce__(self):
        return (type(self), (self.numerator, self.denominator))


# ============================================================== exact distributions
def dice_sum_distribution(n: int = 2, sides: int = 6) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``n`` fair dice with ``sides`` faces.

    Parameters
    ----------
    n : int
        Number of dice (Catan rolls two; one or three are there for comparison).
    sides : int
        Faces per die.

    Returns
    -------
    dict of int to Fraction
        ``{total: probability}`` for every reachable total, in increasing order.

    Examples
    --------
    >>> d = dice_sum_distribution()
    >>> d[2], d[7], sum(d.values())
    (Fraction(1, 36), Fraction(1, 6), Fraction(1, 1))
    >>> max(dice_sum_distribution(3).items(), key=lambda kv: kv[1])
    (10, Fraction(1, 8))

    Notes
    -----
    Repeated convolution of integer counts: O(n^2 sides^2).
    """
    if n < 1 or sides < 1:
        raise ValueError(f"need at least one die with at least one face, got n={n}, sides={sides}")
    counts = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for s, c in counts.items():
            for f in range(1, sides + 1):
                nxt[s + f] = nxt.get(s + f, 0) + c
        counts = nxt
    total = sides**n
    return {s: Fraction(c, total) for s, c in sorted(counts.items())}


@dataclass(frozen=True)
class TokenOdds:
    """One number token: its pips (ways out of 36) and probability per roll."""

    token: int
    pips: int
    probability: Fraction

    @property
    def per_100_rolls(self) -> float:
        """Expected times the token comes up in 100 rolls."""
        return float(self.probability * 100)

    def to_dict(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "pips": self.pips,
            "probability": str(self.probability),
            "p": float(self.probability),
            "per_100_rolls": self.per_100_rolls,
        }


def token_odds() -> list[TokenOdds]:
    """Pips and probability of every number token (2..12 without 7), as table rows.

    Examples
    --------
    >>> rows = token_odds()
    >>> [(r.token, r.pips) for r in rows][:3]
    [(2, 1), (3, 2), (4, 3)]
    >>> sum(r.probability for r in rows)   # every roll but a 7 pays something
    Fraction(5, 6)
    """
    return [TokenOdds(t, pips(t), roll_probability(t)) for t in range(2, 13) if t != 7]


def _totals(totals: Totals) -> frozenset[int]:
    ts = frozenset([totals] if isinstance(totals, (int, np.integer)) else (int(t) for t in totals))
    if not ts:
        raise ValueError("give at least one dice total")
    bad = sorted(t for t in ts if not 2 <= t <= 12)
    if bad:
        raise ValueError(f"two dice total 2..12, not {bad}")
    return ts


def _p(ts: frozenset[int]) -> Fraction:
    return sum((roll_probability(t) for t in ts), Fraction(0))


def _label(ts: frozenset[int]) -> str:
    s = sorted(ts)
    return str(s[0]) if len(s) == 1 else "-or-".join(str(t) for t in s)


def hit_distribution(totals: Totals, rolls: int) -> dict[int, Fraction]:
    """Exact distribution of how many of ``rolls`` rolls land on ``totals`` (binomial).

    Examples
    --------
    >>> d = hit_distribution(7, 3)   # number of 7s in 3 turns
    >>> d[0], d[3]
    (Fraction(125, 216), Fraction(1, 216))
    """
    p = _p(_totals(totals))
    return {k: math.comb(rolls, k) * p**k * (1 - p) ** (rolls - k) for k in range(rolls + 1)}


def rolls_until_distribution(totals: Totals, up_to: int = 20) -> dict[int, Fraction]:
    """Exact probability that the first roll on ``totals`` is roll ``k``, for ``k = 1..up_to`` (geometric).

    Examples
    --------
    >>> d = rolls_until_distribution(7, up_to=3)
    >>> d[1], d[2]
    (Fraction(1, 6), Fraction(5, 36))
    """
    p = _p(_totals(totals))
    return {k: (1 - p) ** (k - 1) * p for k in range(1, up_to + 1)}


# ============================================================== estimates
_Z_CACHE: dict[float, float] = {}


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    z = _Z_CACHE.get(confidence)
    if z is None:
        z = _Z_CACHE[confidence] = NormalDist().inv_cdf(0.5 + confidence / 2)
    return z


def _t_quantile(q: float, df: int) -> float:
    """Student t quantile: exact for df 1 and 2, a Cornish-Fisher expansion beyond (error < 1e-3 for df >= 3)."""
    if df == 1:
        return math.tan(math.pi * (q - 0.5))
    if df == 2:
        return (2 * q - 1) / math.sqrt(2 * q * (1 - q))
    z = NormalDist().inv_cdf(q)
    v = float(df)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def _fmt_exact(x: Fraction | None) -> str:
    if x is None:
        return "unknown"
    if x.denominator == 1:
        return f"{x}"
    if len(str(x)) > 21:  # long fractions (e.g. out of 36**100) are shown as decimals only
        return f"~{float(x):.4f}"
    return f"{x} = {float(x):.4f}"


@dataclass(frozen=True, repr=False)
class Estimate:
    """An exact value beside a simulated estimate and its confidence interval.

    Attributes
    ----------
    label : str
        What was estimated, e.g. ``"P(at least one 7 in 3 rolls)"``.
    exact : Fraction or None
        The exact value, when known.
    estimate : float
        The simulated value (a proportion or a mean).
    low, high : float
        The confidence interval.
    n : int
        Number of simulated trials.
    confidence : float
        Confidence level of the interval, e.g. 0.95.
    method : str
        ``"wilson"`` (a proportion) or ``"t"`` (a mean).
    simulated : bool
        Whether the estimate comes from a simulation (``Event.simulate``) rather than from
        counts observed by hand (``estimate_proportion(14, 40)``); only the wording changes.
    """

    label: str
    exact: Fraction | None
    estimate: float
    low: float
    high: float
    n: int
    confidence: float = 0.95
    method: str = "wilson"
    simulated: bool = False

    @property
    def covers(self) -> bool | None:
        """Whether the interval contains the exact value (``None`` if it is unknown)."""
        if self.exact is None:
            return None
        return self.low <= float(self.exact) <= self.high

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, Any]:
        """A flat row for a table (``pandas.DataFrame([e.to_dict() for e in estimates])``)."""
        return {
            "event": self.label,
            "exact": None if self.exact is None else _fmt_exact(self.exact).split(" = ")[0],
            "exact_value": None if self.exact is None else float(self.exact),
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "n": self.n,
            "confidence": self.confidence,
            "method": self.method,
            "covers": self.covers,
        }

    def __repr__(self) -> str:
        exact = "" if self.exact is None else f"exact {_fmt_exact(self.exact)}; "
        what = "simulated" if self.simulated else "observed"
        return (
            f"<Estimate {self.label}: {exact}{what} {self.estimate:.4f} "
            f"({self.confidence:.0%} CI {self.low:.4f}..{self.high:.4f}, n={self.n})>"
        )


def estimate_proportion(
    successes: int | float,
    n: int,
    *,
    exact: Fraction | None = None,
    label: str = "p",
    confidence: float = 0.95,
    simulated: bool = False,
) -> Estimate:
    """A proportion with its Wilson score interval.

    The Wilson interval stays inside [0, 1] and behaves well near 0 and 1,
    where the plain normal interval does not.

    Parameters
    ----------
    successes : int or float
        How many of the ``n`` trials succeeded (an int), or the share that did
        (a float between 0 and 1 whose ``n``-fold is a whole number: 0.35 of 40
        is 14).
    n : int
        Trials.
    exact : Fraction, optional
        The true value, when known (then ``covers`` says whether the interval holds it).
    label : str
    confidence : float
    simulated : bool
        The counts come from a simulation (only the printed wording changes).

    Examples
    --------
    >>> e = estimate_proportion(50, 100, exact=Fraction(1, 2))
    >>> round(e.low, 4), round(e.high, 4), e.covers
    (0.4038, 0.5962, True)
    >>> estimate_proportion(0.35, 40)             # a share: 14 of 40
    <Estimate p: observed 0.3500 (95% CI 0.2213..0.5049, n=40)>
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"n is the number of trials, a whole number of at least 1, not {n!r}")
    n = int(n)
    if isinstance(successes, bool):
        raise ValueError(f"successes must be a count or a share, not {successes!r}")
    if isinstance(successes, (float, np.floating)) and not float(successes).is_integer():
        share = float(successes)
        if not 0 <= share <= 1:
            raise ValueError(f"{successes!r} is neither a count of successes (a whole number) nor a share (0 to 1)")
        count = share * n
        if abs(count - round(count)) > 1e-9 * max(1, n):
            raise ValueError(
                f"a share of {successes!r} of {n} trials is {count:g} successes, not a whole number: "
                f"give the count (e.g. estimate_proportion({round(count)}, {n}))"
            )
        successes = round(count)
    elif isinstance(successes, (float, np.floating)):
        successes = int(successes)  # a whole number given as a float: a count
    elif not isinstance(successes, (int, np.integer)):
        raise ValueError(f"successes must be a count or a share, not {successes!r}")
    successes = int(successes)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, not {successes}")
    z = _z(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # Rounding may leave a bound a hair past the estimate at 0 or n successes: the interval always holds it.
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes == n else max(p, min(1.0, centre + half))
    return Estimate(label, exact, p, low, high, n, confidence, "wilson", simulated)


def estimate_mean(
    values: Sequence[float] | np.ndarray,
    *,
    exact: Fraction | None = None,
    label: str = "mean",
    confidence: float = 0.95,
    simulated: bool = False,
) -> Estimate:
    """A sample mean with its Student-t interval (normal for large samples).

    Examples
    --------
    >>> e = estimate_mean([1, 2, 3, 4, 5], exact=Fraction(3))
    >>> e.estimate, round(e.low, 3), round(e.high, 3)
    (3.0, 1.037, 4.963)
    """
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n == 0:
        raise ValueError("need at least one value")
    m = float(x.mean())
    if n == 1:
        return Estimate(label, exact, m, -math.inf, math.inf, 1, confidence, "t", simulated)
    s = float(x.std(ddof=1))
    _z(confidence)  # validates the level
    t = _t_quantile(0.5 + confidence / 2, n - 1)
    half = t * s / math.sqrt(n)
    return Estimate(label, exact, m, m - half, m + half, n, confidence, "t", simulated)


def _rng(seed: Seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _roll_totals(rng: np.random.Generator, trials: int, rolls: int) -> np.ndarray:
    """A ``(trials, rolls)`` int8 array of two-dice totals."""
    d = rng.integers(1, 7, size=(trials, rolls, 2), dtype=np.int8)
    return d.sum(axis=2, dtype=np.int8)


def _chunks(trials: int, rolls: int):
    size = max(1, _CHUNK // max(1, 2 * rolls))
    done = 0
    while done < trials:
        k = min(size, trials - done)
        yield k
        done += k


def _mask(ts: frozenset[int]) -> np.ndarray:
    m = np.zeros(13, dtype=bool)
    m[list(ts)] = True
    return m


def _max_run(flags_or_equal: np.ndarray) -> np.ndarray:
    """Longest run of True along axis 1 (one loop over the columns, vectorised over trials)."""
    trials, cols = flags_or_equal.shape
    cur = np.zeros(trials, dtype=np.int32)
    best = np.zeros(trials, dtype=np.int32)
    for j in range(cols):
        col = flags_or_equal[:, j]
        cur = np.where(col, cur + 1, 0)
        np.maximum(best, cur, out=best)
    return best


class Event:
    """A dice event with an exact value and a seeded simulation.

    Subclasses (:class:`RollTotal`, :class:`Hits`, :class:`ExpectedHits`,
    :class:`RollsUntil`, :class:`Streak`) give ``label``, ``exact()`` and how
    one trial is rolled; ``kind`` is ``"proportion"`` (a probability) or
    ``"mean"`` (an expectation).
    """

    kind = "proportion"

    @property
    def label(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def exact(self) -> Fraction:  # pragma: no cover - overridden
        raise NotImplementedError

    def _rolls(self) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def _outcome(self, totals: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def _samples(self, rng: np.random.Generator, trials: int) -> np.ndarray:
        rolls = self._rolls()
        return np.concatenate([self._outcome(_roll_totals(rng, k, rolls)) for k in _chunks(trials, rolls)])

    def simulate(self, trials: int = 10_000, seed: Seed = 0, *, confidence: float = 0.95) -> Estimate:
        """Estimate the event by rolling two dice ``trials`` times over (seeded).

        Parameters
        ----------
        trials : int
            Independent repetitions.
        seed : int or numpy.random.Generator
            Where the dice come from; the same seed gives the same estimate.
        confidence : float
            Level of the confidence interval.

        Returns
        -------
        Estimate
            With ``.exact`` filled in, a Wilson interval for a probability or a
            t interval for a mean.
        """
        if trials < 1:
            raise ValueError("need at least one trial")
        x = self._samples(_rng(seed), int(trials))
        if self.kind == "proportion":
            return estimate_proportion(int(x.sum()), x.size, exact=self.exact(), label=self.label, confidence=confidence,
                                       simulated=True)
        return estimate_mean(x, exact=self.exact(), label=self.label, confidence=confidence, simulated=True)


@dataclass(frozen=True)
class RollTotal(Event):
    """One roll of two dice lands on ``totals``.

    Examples
    --------
    >>> RollTotal(7).exact()
    Fraction(1, 6)
    >>> RollTotal((6, 8)).label
    'P(roll 6-or-8)'
    """

    totals: Totals

    def __post_init__(self):
        object.__setattr__(self, "totals", _totals(self.totals))

    @property
    def label(self) -> str:
        return f"P(roll {_label(self.totals)})"

    def exact(self) -> Fraction:
        return Exact(_p(self.totals))

    def _rolls(self) -> int:
        return 1

    def _outcome(self, totals: np.ndarray) -> np.ndarray:
        return _mask(self.totals)[totals[:, 0]]


@dataclass(frozen=True)
class Hits(Event):
    """Between ``at_least`` and ``at_most`` of ``rolls`` rolls land on ``totals``.

    Parameters
    ----------
    totals : int or iterable of int
        The totals that count as a hit.
    rolls : int
        Number of rolls (turns).
    at_least : int, optional
        Fewest hits.  Alone, it means "at least ``at_least``" (up to every roll).
    at_most : int, optional
        Most hits.  Alone, it means "at most ``at_most``" (from zero hits);
        ``at_most=0`` is "no hit at all".
    exactly : int, optional
        Exactly this many hits (the same as ``at_least=exactly, at_most=exactly``).

    With no bound the event is "at least one hit"; with both, the range
    ``at_least..at_most``.

    Examples
    --------
    >>> Hits(7, rolls=3, at_most=0).exact() == Fraction(5, 6) ** 3
    True
    >>> Hits((6, 8), rolls=1).exact()
    Fraction(5, 18)
    >>> Hits(8, rolls=72, at_most=1).label     # at most one: zero or one 8
    'P(at most 1 roll of 8 in 72 rolls)'
    >>> Hits(8, rolls=72, at_most=1).exact() == Hits(8, rolls=72, at_most=0).exact() + Hits(8, rolls=72, at_least=1, at_most=1).exact()
    True
    >>> Hits(7, rolls=10, at_least=2).exact() == 1 - Hits(7, rolls=10, at_most=1).exact()
    True
    >>> Hits(7, rolls=10, at_least=2, at_most=2).label
    'P(exactly 2 rolls of 7 in 10 rolls)'
    >>> Hits(7, rolls=10, exactly=2) == Hits(7, rolls=10, at_least=2, at_most=2)
    True
    """

    totals: Totals
    rolls: int
    at_least: int | None = None
    at_most: int | None = None
    exactly: int | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "totals", _totals(self.totals))
        if self.rolls < 1:
            raise ValueError("need at least one roll")
        if self.exactly is not None:
            k = self.exactly
            if any(b is not None and b != k for b in (self.at_least, self.at_most)):
                raise ValueError(f"exactly={k} contradicts at_least={self.at_least}, at_most={self.at_most}")
            if not 0 <= k <= self.rolls:
                raise ValueError(f"exactly must be in 0..{self.rolls} hits, not {k}")
            object.__setattr__(self, "at_least", k)
            object.__setattr__(self, "at_most", k)
        lo = self.at_least if self.at_least is not None else (0 if self.at_most is not None else 1)
        object.__setattr__(self, "at_least", lo)
        if lo < 0 or (self.at_most is not None and self.at_most < lo):
            raise ValueError(f"need 0 <= at_least <= at_most, got at_least={lo}, at_most={self.at_most}")

    @property
    def label(self) -> str:
        t, n, lo, hi = _label(self.totals), self.rolls, self.at_least, self.at_most
        if hi == 0:
            what = f"no roll of {t}"
        elif hi is None:
            what = f"at least one {t}" if lo == 1 else f"at least {lo} rolls of {t}"
        elif lo == hi:
            what = f"exactly {lo} rolls of {t}" if lo != 1 else f"exactly 1 roll of {t}"
        elif lo == 0:
            what = f"at most {hi} roll{'s' if hi != 1 else ''} of {t}" if hi != 1 else f"at most 1 roll of {t}"
        else:
            what = f"{lo} to {hi} rolls of {t}"
        return f"P({what} in {n} rolls)"

    def exact(self) -> Fraction:
        hi = self.rolls if self.at_most is None else min(self.at_most, self.rolls)
        d = hit_distribution(self.totals, self.rolls)
        return Exact(sum((d[k] for k in range(max(0, self.at_least), hi + 1)), Fraction(0)))

    def _rolls(self) -> int:
        return self.rolls

    def _outcome(self, totals: np.ndarray) -> np.ndarray:
        k = _mask(self.totals)[totals].sum(axis=1)
        hi = self.rolls if self.at_most is None else self.at_most
        return (k >= self.at_least) & (k <= hi)


@dataclass(frozen=True)
class ExpectedHits(Event):
    """Mean number of the ``rolls`` rolls that land on ``totals`` (binomial mean ``rolls * p``).

    Examples
    --------
    >>> ExpectedHits(7, rolls=60).exact()   # 7s in a 60-turn game
    Fraction(10, 1)
    """

    totals: Totals
    rolls: int
    kind = "mean"

    def __post_init__(self):
        object.__setattr__(self, "totals", _totals(self.totals))

    @property
    def label(self) -> str:
        return f"E(rolls of {_label(self.totals)} in {self.rolls} rolls)"

    def exact(self) -> Fraction:
        return Exact(self.rolls * _p(self.totals))

    def variance(self) -> Fraction:
        """Exact variance ``rolls * p * (1 - p)``."""
        p = _p(self.totals)
        return self.rolls * p * (1 - p)

    def _rolls(self) -> int:
        return self.rolls

    def _outcome(self, totals: np.ndarray) -> np.ndarray:
        return _mask(self.totals)[totals].sum(axis=1)


@dataclass(frozen=True)
class RollsUntil(Event):
    """Mean number of rolls up to and including the first roll on ``totals`` (geometric mean ``1/p``).

    Examples
    --------
    >>> RollsUntil(7).exact()
    Fraction(6, 1)
    >>> RollsUntil(12).exact()
    Fraction(36, 1)
    """

    totals: Totals
    kind = "mean"

    def __post_init__(self):
        object.__setattr__(self, "totals", _totals(self.totals))

    @property
    def label(self) -> str:
        return f"E(rolls until the first {_label(self.totals)})"

    def exact(self) -> Fraction:
        return Exact(1 / _p(self.totals))

    def cdf(self, k: int) -> Fraction:
        """Exact ``P(first hit within k rolls) = 1 - (1 - p)**k``."""
        if k < 1:
            return Fraction(0)
        return 1 - (1 - _p(self.totals)) ** k

    def quantile(self, q: float | Fraction) -> int:
        """The smallest number of rolls ``k`` with ``P(first hit within k rolls) >= q`` (exact).

        Examples
        --------
        >>> RollsUntil(8).quantile(0.5), RollsUntil(8).median()   # half the time within 5 rolls
        (5, 5)
        >>> RollsUntil(8).quantile(0.9)                           # and 90% within 16
        16
        >>> RollsUntil(7).cdf(4) >= Fraction(1, 2) > RollsUntil(7).cdf(3)
        True
        """
        q = Fraction(q).limit_denominator(10**12) if isinstance(q, float) else Fraction(q)
        if not 0 < q < 1:
            raise ValueError(f"a quantile is strictly between 0 and 1, not {q}")
        miss = 1 - _p(self.totals)
        # (1 - p)**k <= 1 - q: k >= log(1 - q) / log(1 - p); step to the exact boundary.
        k = max(1, int(math.floor(math.log(float(1 - q)) / math.log(float(miss)))) - 1)
        while self.cdf(k) < q:
            k += 1
        while k > 1 and self.cdf(k - 1) >= q:
            k -= 1
        return k

    def median(self) -> int:
        """The median number of rolls until the first hit (:meth:`quantile` of 1/2)."""
        return self.quantile(Fraction(1, 2))

    def _samples(self, rng: np.random.Generator, trials: int) -> np.ndarray:
        # Roll in blocks until every trial has seen a hit; the dice decide, not a geometric draw.
        mask = _mask(self.totals)
        block = max(8, int(4 / float(_p(self.totals))))
        parts = []
        for k in _chunks(trials, block):
            out = np.zeros(k, dtype=np.int64)
            waiting = np.arange(k)
            offset = 0
            while waiting.size:
                hit = mask[_roll_totals(rng, waiting.size, block)]
                any_hit = hit.any(axis=1)
                out[waiting[any_hit]] = offset + hit[any_hit].argmax(axis=1) + 1
                waiting = waiting[~any_hit]
                offset += block
            parts.append(out)
        return np.concatenate(parts)


@dataclass(frozen=True)
class Streak(Event):
    """A run of at least ``length`` consecutive rolls, somewhere within ``rolls`` rolls.

    Say what makes the run in one of three ways:

    - ``totals``: the totals that **continue** the run — every roll of the run
      lands on one of them, and any other total breaks it (three 7s in a row:
      ``totals=7``; four rolls in a row of 6 or 8: ``totals=(6, 8)``);
    - ``without``: the totals that **break** the run — a drought, every roll of
      the run avoids them (ten rolls in a row with no 8: ``without=8``);
    - neither: a run of **equal** totals, whichever (three 5s in a row).

    Examples
    --------
    >>> Streak(2, rolls=2, totals=7).exact()
    Fraction(1, 36)
    >>> Streak(2, rolls=2).exact()   # the second roll repeats the first
    Fraction(73, 648)
    >>> round(float(Streak(3, rolls=60, totals=7).exact()), 3)   # three 7s in a row in a game
    0.204
    >>> drought = Streak(10, rolls=70, without=8)
    >>> drought.label
    'P(10+ rolls in a row with no 8, somewhere in 70 rolls)'
    >>> drought.exact() == Streak(10, rolls=70, totals=[t for t in range(2, 13) if t != 8]).exact()
    True

    Notes
    -----
    Exact dynamic programme over (last total, current run length) in integer
    counts out of ``36**rolls``: O(rolls * 11 * length).
    """

    length: int
    rolls: int
    totals: Totals | None = None
    without: Totals | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.without is not None:
            if self.totals is not None:
                raise ValueError("give the totals that continue the run (totals=) or those that break it (without=), not both")
            breaks = _totals(self.without)
            object.__setattr__(self, "without", breaks)
            rest = frozenset(range(2, 13)) - breaks
            if not rest:
                raise ValueError("without= every total leaves no roll to make a run")
            object.__setattr__(self, "totals", rest)
        elif self.totals is not None:
            object.__setattr__(self, "totals", _totals(self.totals))
        if self.length < 1 or self.rolls < 1:
            raise ValueError("length and rolls must be at least 1")

    @property
    def label(self) -> str:
        n, L = self.rolls, self.length
        if self.without is not None:
            return f"P({L}+ rolls in a row with no {_label(self.without)}, somewhere in {n} rolls)"
        if self.totals is None:
            return f"P({L}+ equal totals in a row, somewhere in {n} rolls)"
        return f"P({L}+ rolls in a row, each a {_label(self.totals)}, somewhere in {n} rolls)"

    def exact(self) -> Fraction:
        L, n = self.length, self.rolls
        if L > n:
            return Exact(0)
        ways = {t: 6 - abs(7 - t) for t in range(2, 13)}  # out of 36
        if self.totals is not None:
            w = sum(ways[t] for t in self.totals)
            state = [1] + [0] * (L - 1)  # state[r]: weight of sequences whose current run has length r
            done = 0
            for _ in range(n):
                total_live = sum(state)
                nxt = [0] * L
                nxt[0] = total_live * (36 - w)
                for r in range(L - 1):
                    nxt[r + 1] = state[r] * w
                done = done * 36 + state[L - 1] * w
                state = nxt
            return Exact(done, 36**n)
        if L == 1:
            return Exact(1)
        # run[t][r]: weight of sequences ending in total t with a current run of r + 1 equal totals (r < L - 1).
        run = {t: [wt] + [0] * (L - 2) for t, wt in ways.items()}
        done = 0  # weight of sequences that already hold a run of L
        for _ in range(n - 1):
            end = {t: sum(rt) for t, rt in run.items()}
            live = sum(end.values())
            done = done * 36 + sum(run[t][L - 2] * wt for t, wt in ways.items())
            nxt = {}
            for t, wt in ways.items():
                row = [(live - end[t]) * wt] + [0] * (L - 2)
                for r in range(L - 2):
                    row[r + 1] = run[t][r] * wt
                nxt[t] = row
            run = nxt
        return Exact(done, 36**n)

    def _rolls(self) -> int:
        return self.rolls

    def _outcome(self, totals: np.ndarray) -> np.ndarray:
        if self.totals is not None:
            flags = _mask(self.totals)[totals]
            return _max_run(flags) >= self.length
        if self.length == 1:
            return np.ones(totals.shape[0], dtype=bool)
        eq = totals[:, 1:] == totals[:, :-1]
        return _max_run(eq) >= self.length - 1


def compare(events: Iterable[Event], *, trials: int = 10_000, seed: Seed = 0, confidence: float = 0.95) -> list[Estimate]:
    """Simulate several events with one seeded generator: a table of exact beside simulated.

    Examples
    --------
    >>> rows = compare([RollTotal(7), Hits(7, rolls=3, at_most=0)], trials=1_000, seed=2)
    >>> [r.label for r in rows]
    ['P(roll 7)', 'P(no roll of 7 in 3 rolls)']
    >>> all(r.covers for r in rows)
    True
    """
    rng = _rng(seed)
    return [e.simulate(trials, rng, confidence=confidence) for e in events]


# ============================================================== chi-square
def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(100_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    # Lentz's continued fraction for the upper incomplete gamma (Numerical Recipes, gcf).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, dof: int) -> float:
    """Survival function of the chi-square distribution: P(X >= x) for ``dof`` degrees of freedom.

    Computed as the regularized upper incomplete gamma function Q(dof/2, x/2),
    by its power series below ``a + 1`` and Lentz's continued fraction above
    (no scipy needed).

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05
    >>> round(chi2_sf(4.0, 2), 12) == round(math.exp(-2.0), 12)
    True
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if x <= 0:
        return 1.0
    a, y = dof / 2, x / 2
    if y < a + 1:
        return max(0.0, 1.0 - _gamma_p_series(a, y))
    return min(1.0, _gamma_q_fraction(a, y))


@dataclass(frozen=True)
class ChiSquareBin:
    """One category of a chi-square test (several pooled values when expected counts are small)."""

    values: tuple[int, ...]
    observed: int
    expected: float

    @property
    def contribution(self) -> float:
        """``(observed - expected)**2 / expected``."""
        return (self.observed - self.expected) ** 2 / self.expected

    @property
    def label(self) -> str:
        v = self.values
        return str(v[0]) if len(v) == 1 else f"{v[0]}-{v[-1]}"

    def to_dict(self) -> dict[str, Any]:
        return {"values": self.label, "observed": self.observed, "expected": self.expected, "contribution": self.contribution}


@dataclass(frozen=True, repr=False)
class ChiSquareResult:
    """A chi-square goodness-of-fit test of recorded rolls against fair dice.

    Attributes
    ----------
    statistic : float
        Sum over the bins of ``(observed - expected)**2 / expected``.
    dof : int
        Degrees of freedom: bins after pooling, minus one.
    p_value : float
        ``P(chi2(dof) >= statistic)``: small values (e.g. below 0.05) are
        evidence against fair dice.
    n : int
        Rolls (or dice, for ``of="faces"``) counted.
    of : str
        ``"sum"``, ``"faces"``, or ``"counts"`` (:func:`chi_square_counts`).
    bins : tuple of ChiSquareBin
        The categories actually compared, after pooling.
    unit : str
        What was counted, for the table's title (``"rolls"``, ``"dice"``, ``"games"``...).
    """

    statistic: float
    dof: int
    p_value: float
    n: int
    of: str
    bins: tuple[ChiSquareBin, ...]
    unit: str = ""

    @property
    def pooled(self) -> bool:
        """Whether some values were pooled because their expected counts were small."""
        return any(len(b.values) > 1 for b in self.bins)

    def table(self) -> "Table":
        """Observed, expected and ``(O - E)**2 / E`` per category, with the total: the test laid out.

        Examples
        --------
        >>> res = chi_square_test([1, 2, 3, 4, 5, 6] * 10, of="faces")
        >>> print(res.table())   # doctest: +NORMALIZE_WHITESPACE
        chi-square: 60 dice, 5 degrees of freedom, p = 1.0000
        values  observed  expected  (O-E)^2/E
             1        10    10.000      0.000
             2        10    10.000      0.000
             3        10    10.000      0.000
             4        10    10.000      0.000
             5        10    10.000      0.000
             6        10    10.000      0.000
         total        60    60.000      0.000
        """
        from .table import Table

        rows = [(b.label, b.observed, round(b.expected, 3), round(b.contribution, 3)) for b in self.bins]
        rows.append(("total", self.n, round(sum(b.expected for b in self.bins), 3), round(self.statistic, 3)))
        what = self.unit or ("rolls" if self.of == "sum" else "dice")
        title = f"chi-square: {self.n} {what}, {self.dof} degrees of freedom, p = {self.p_value:.4f}"
        return Table(("values", "observed", "expected", "(O-E)^2/E"), rows, title=title)

    def to_dict(self) -> dict[str, Any]:
        return {"of": self.of, "n": self.n, "statistic": self.statistic, "dof": self.dof, "p_value": self.p_value, "bins": len(self.bins)}

    def __repr__(self) -> str:
        pooled = ", pooled" if self.pooled else ""
        return (
            f"<ChiSquareResult of {self.of}: chi2={self.statistic:.3f}, dof={self.dof}, "
            f"p={self.p_value:.4f}, n={self.n}{pooled}>"
        )


def _pool(values: list[int], expected: list[float], observed: list[int], min_expected: float) -> list[ChiSquareBin]:
    """Merge the bin with the smallest expected count into its smaller neighbour until all reach ``min_expected``."""
    groups = [[i] for i in range(len(values))]
    exp = list(expected)
    while len(groups) > 1:
        k = min(range(len(groups)), key=lambda i: (exp[i], i))
        if exp[k] >= min_expected:
            break
        if k == 0:
            j = 1
        elif k == len(groups) - 1:
            j = k - 1
        else:
            j = k - 1 if exp[k - 1] <= exp[k + 1] else k + 1
        lo, hi = min(j, k), max(j, k)
        groups[lo:hi + 1] = [groups[lo] + groups[hi]]
        exp[lo:hi + 1] = [exp[lo] + exp[hi]]
    return [
        ChiSquareBin(tuple(values[i] for i in g), sum(observed[i] for i in g), sum(expected[i] for i in g)) for g in groups
    ]


def _whole(value: Any, what: str) -> int:
    """A whole number given as an int, a numpy integer or a float with nothing after the point."""
    if isinstance(value, bool):
        raise ValueError(f"{what}: {value!r} is not a number")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if float(value).is_integer():
            return int(value)
        raise ValueError(f"{what}: {value!r} is not a whole number (dice show whole numbers)")
    if isinstance(value, str):
        return _whole(parse_rolls(value)[0] if "+" in value else _token(value, what), what)
    raise ValueError(f"{what}: {value!r} is not a number")


def _token(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        try:
            float(text)
        except ValueError:
            raise ValueError(f"{what}: {text!r} is not a number") from None
        raise ValueError(f"{what}: {text!r} is not a whole number (dice show whole numbers)") from None


def parse_rolls(text: str, *, of: str = "sum") -> list:
    """The rolls in a text typed or pasted by a student: totals, or pairs written ``3+4``.

    Numbers are separated by spaces, commas, semicolons or new lines.  Anything
    else — a word, ``7.5``, a total no two dice can make — is refused with a
    message naming it, rather than skipped or rounded.

    Parameters
    ----------
    text : str
    of : {"sum", "faces"}
        ``"sum"``: totals 2..12 (a pair counts as its total); ``"faces"``:
        single faces 1..6 (a pair counts as its two faces).

    Returns
    -------
    list
        Totals (int), or for pairs ``(a, b)`` tuples, in order.

    Examples
    --------
    >>> parse_rolls("7 5, 8; 3+4  6 + 6")
    [7, 5, 8, (3, 4), (6, 6)]
    >>> parse_rolls("7 seven 8")
    Traceback (most recent call last):
    ...
    ValueError: roll 2: 'seven' is not a number
    >>> parse_rolls("7 7.5")
    Traceback (most recent call last):
    ...
    ValueError: roll 2: '7.5' is not a whole number (dice show whole numbers)
    """
    if of not in ("sum", "faces"):
        raise ValueError(f"of must be 'sum' or 'faces', not {of!r}")
    lo, hi = (2, 12) if of == "sum" else (1, 6)
    out: list = []
    tokens = [t for t in re.split(r"[\s,;]+", re.sub(r"\s*\+\s*", "+", text.strip())) if t]
    for i, token in enumerate(tokens, start=1):
        what = f"roll {i}"
        if "+" in token:
            parts = token.split("+")
            if len(parts) != 2 or not all(parts):
                raise ValueError(f"{what}: {token!r} is not a pair of dice like 3+4")
            a, b = (_token(x, what) for x in parts)
            if not (1 <= a <= 6 and 1 <= b <= 6):
                raise ValueError(f"{what}: {token!r} is not a roll of two dice (faces 1..6)")
            out.append((a, b))
            continue
        v = _token(token, what)
        if not lo <= v <= hi:
            name = "a two-dice total" if of == "sum" else "a die face"
            raise ValueError(f"{what}: {v} is not {name} ({lo}..{hi})")
        out.append(v)
    return out


def chi_square_test(rolls: Any, *, of: str = "sum", min_expected: float = 5.0) -> ChiSquareResult:
    """Test recorded rolls against fair dice with a chi-square goodness-of-fit test.

    Parameters
    ----------
    rolls : Game, str, array, or iterable of (int, int) or of int
        A game (its ``dice_history``), dice pairs (tuples, lists, or a numpy
        array of shape ``(n, 2)``), totals (2..12; for ``of="faces"``, single
        die faces 1..6), or the same pasted as text (``"7 5 8, 3+4"``, see
        :func:`parse_rolls`).  Values must be whole numbers: ``7.5`` is refused.
    of : {"sum", "faces"}
        Compare the totals with the two-dice distribution (11 categories), or
        every single die with the uniform distribution (6 categories).
    min_expected : float
        Pooling threshold.  The chi-square approximation needs expected counts
        of about 5 or more, so neighbouring values are pooled: the bin with the
        smallest expected count is merged with the smaller of its neighbours
        until every bin expects at least ``min_expected`` (ties go to the lower
        value).  For the totals this pools the rare tails (2 with 3, 12 with
        11, ...) when there are few rolls.  ``0`` disables pooling.

    Returns
    -------
    ChiSquareResult

    Raises
    ------
    ValueError
        For a value that no die can show (or not a whole number), or too few
        rolls to leave two bins.

    Examples
    --------
    >>> res = chi_square_test([(1, 6), (2, 5), (3, 3), (4, 4), (6, 6), (1, 1)] * 20)
    >>> res.dof, res.pooled          # 120 rolls: 2-3 and 11-12 are pooled
    (8, True)
    >>> res.p_value < 0.001          # far too many doubles for fair dice
    True
    >>> chi_square_test(np.array([[1, 6], [2, 5], [3, 3]] * 20)).n      # a numpy array of pairs
    60
    >>> chi_square_test("7 6 8 5 7 9 4 7 10 3 " * 4).n                 # pasted text
    40
    >>> chi_square_test([7.5, 7, 8])
    Traceback (most recent call last):
    ...
    ValueError: roll 1: 7.5 is not a whole number (dice show whole numbers)
    """
    if of not in ("sum", "faces"):
        raise ValueError(f"of must be 'sum' or 'faces', not {of!r}")
    history = getattr(rolls, "dice_history", rolls)
    if isinstance(history, str):
        history = parse_rolls(history, of=of)
    elif isinstance(history, np.ndarray) and history.ndim not in (1, 2):
        raise ValueError(f"an array of rolls is a list of totals or of pairs (n, 2), not shape {history.shape}")
    data: list[int] = []
    lo, hi = (2, 12) if of == "sum" else (1, 6)
    for i, r in enumerate(history, start=1):
        what = f"roll {i}"
        if isinstance(r, (tuple, list, np.ndarray)):
            if len(r) != 2:
                raise ValueError(f"{what}: {r!r} is not a pair of dice")
            a, b = (_whole(d, what) for d in r)
            if not (1 <= a <= 6 and 1 <= b <= 6):
                raise ValueError(f"{what}: {(a, b)} is not a pair of die faces 1..6")
            if of == "sum":
                data.append(a + b)
            else:
                data.extend((a, b))
        else:
            v = _whole(r, what)
            if not lo <= v <= hi:
                raise ValueError(f"{what}: {v} is not a {'two-dice total' if of == 'sum' else 'die face'} ({lo}..{hi})")
            data.append(v)
    n = len(data)
    if of == "sum":
        values = list(range(2, 13))
        probs = [float(roll_probability(v)) for v in values]
    else:
        values = list(range(1, 7))
        probs = [1 / 6] * 6
    counts = [0] * len(values)
    for v in data:
        counts[v - values[0]] += 1
    expected = [n * p for p in probs]
    bins = _pool(values, expected, counts, min_expected) if n else []
    if len(bins) < 2:
        raise ValueError(f"{n} rolls leave fewer than two bins with an expected count of {min_expected}; record more rolls")
    stat = sum(b.contribution for b in bins)
    dof = len(bins) - 1
    return ChiSquareResult(stat, dof, chi2_sf(stat, dof), n, of, tuple(bins), "rolls" if of == "sum" else "dice")


def chi2_critical(alpha: float, dof: int) -> float:
    """The value a chi-square statistic must exceed for ``p < alpha``: ``chi2_sf(x, dof) == alpha``.

    Examples
    --------
    >>> round(chi2_critical(0.05, 1), 4), round(chi2_critical(0.05, 10), 3)
    (3.8415, 18.307)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    lo, hi = 0.0, float(dof)
    while chi2_sf(hi, dof) > alpha:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, dof) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def chi_square_counts(
    observed: Sequence[int],
    probabilities: Sequence[float] | None = None,
    *,
    values: Sequence[int] | None = None,
    unit: str = "counts",
    min_expected: float = 5.0,
) -> ChiSquareResult:
    """One chi-square goodness-of-fit test of counts against the shares they should have.

    The test for "do these categories differ at all?": one p-value for every
    category at once, where reading one confidence interval per category
    would give each category its own chance of a false alarm.

    Parameters
    ----------
    observed : sequence of int
        A count per category (wins per seat, rolls per total...).
    probabilities : sequence of float, optional
        The share of each category under the null hypothesis (default: equal shares).
    values : sequence of int, optional
        The categories' names in the table (default ``0, 1, 2, ...``, e.g. seats).
    unit : str
        What was counted, for the table's title (``"games"``).
    min_expected : float
        Neighbouring categories are pooled until each expects at least this
        many (as in :func:`chi_square_test`); ``0`` disables pooling.

    Examples
    --------
    >>> res = chi_square_counts([30, 25, 22, 23], unit="games")   # wins of four seats
    >>> res.dof, round(res.statistic, 2), round(res.p_value, 3)
    (3, 1.52, 0.678)
    """
    counts = [int(c) for c in observed]
    if len(counts) < 2 or any(c < 0 for c in counts) or any(c != o for c, o in zip(counts, observed)):
        raise ValueError(f"observed must be two or more whole counts >= 0, not {list(observed)!r}")
    k = len(counts)
    probs = [1 / k] * k if probabilities is None else [float(x) for x in probabilities]
    if len(probs) != k or any(x <= 0 for x in probs) or abs(sum(probs) - 1) > 1e-9:
        raise ValueError(f"probabilities must be {k} positive shares summing to 1, not {probabilities!r}")
    names = list(range(k)) if values is None else [int(v) for v in values]
    n = sum(counts)
    if n == 0:
        raise ValueError("nothing was counted")
    bins = _pool(names, [n * x for x in probs], counts, min_expected)
    if len(bins) < 2:
        raise ValueError(f"{n} {unit} leave fewer than two bins with an expected count of {min_expected}")
    stat = sum(b.contribution for b in bins)
    dof = len(bins) - 1
    return ChiSquareResult(stat, dof, chi2_sf(stat, dof), n, "counts", tuple(bins), unit)


def most_likely(distribution: dict[Any, Any]) -> tuple[Any, ...]:
    """Every value of highest probability, in order: the mode, with its ties.

    ``max(d, key=d.get)`` returns one value and hides a tie; this returns them all.

    Examples
    --------
    >>> most_likely(dice_sum_distribution())
    (7,)
    >>> most_likely({12: Fraction(231, 2048), 13: Fraction(231, 2048), 14: Fraction(429, 4096)})
    (12, 13)
    """
    if not distribution:
        raise ValueError("an empty distribution has no mode")
    top = max(distribution.values())
    return tuple(v for v, p in distribution.items() if p == top)


@dataclass(frozen=True, repr=False)
class PairedDifference:
    """Two results measured in pairs (the same game seeds, the same students), compared pair by pair.

    Attributes
    ----------
    label : str
    n : int
        Pairs.
    mean_a, mean_b : float
    paired : Estimate
        The mean of ``a - b`` over the pairs with its t interval: the right
        interval when each pair shares its luck.
    unpaired : Estimate
        The same difference of means with the interval of two independent
        samples (Welch): what one would report ignoring the pairs.
    correlation : float
        Pearson's r between ``a`` and ``b`` across the pairs (nan when a side
        is constant): how much luck each pair shares.
    a_better, b_better : int
        Pairs where ``a > b`` and where ``b > a`` (for win/loss results: the
        games only one of the two won).
    sign_test_p : float
        Exact two-sided sign test on the pairs that differ (for 0/1 results,
        McNemar's exact test): the chance of a split at least this uneven if
        neither side were better.
    variance_a, variance_b, variance_difference : float
        Sample variances of ``a``, ``b`` and ``a - b``.
    """

    label: str
    n: int
    mean_a: float
    mean_b: float
    paired: Estimate
    unpaired: Estimate
    correlation: float
    a_better: int
    b_better: int
    sign_test_p: float
    variance_a: float = math.nan
    variance_b: float = math.nan
    variance_difference: float = math.nan

    @property
    def games_ratio(self) -> float:
        """How many times more pairs an independent-samples design needs for an interval as narrow.

        ``(Var a + Var b) / Var(a - b)``, which is ``1 / (1 - r)`` when both
        sides have the same variance: above 1 when the pairs share luck (r > 0),
        below 1 when they are negatively correlated.
        """
        return (self.variance_a + self.variance_b) / self.variance_difference if self.variance_difference > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        return {
            "comparison": self.label, "pairs": self.n, "mean_a": self.mean_a, "mean_b": self.mean_b,
            "difference": self.paired.estimate, "paired_low": self.paired.low, "paired_high": self.paired.high,
            "unpaired_low": self.unpaired.low, "unpaired_high": self.unpaired.high, "correlation": self.correlation,
            "a_better": self.a_better, "b_better": self.b_better, "sign_test_p": self.sign_test_p,
        }

    def __repr__(self) -> str:
        c = self.paired.confidence
        return (
            f"<PairedDifference {self.label}: {self.mean_a:.3f} - {self.mean_b:.3f} = {self.paired.estimate:+.3f}; "
            f"paired {c:.0%} CI {self.paired.low:+.3f}..{self.paired.high:+.3f}, unpaired {self.unpaired.low:+.3f}.."
            f"{self.unpaired.high:+.3f}; r = {self.correlation:.2f}; a better in {self.a_better}, b in {self.b_better} "
            f"(sign test p = {self.sign_test_p:.3f}); n={self.n}>"
        )


def _sign_test(k: int, m: int) -> float:
    """Two-sided exact binomial test of ``k`` successes in ``m`` trials against 1/2."""
    if m == 0:
        return 1.0
    tail = sum(math.comb(m, i) for i in range(min(k, m - k) + 1))
    return min(1.0, 2 * tail / 2**m)


def paired_difference(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    label: str = "a - b",
    confidence: float = 0.95,
) -> PairedDifference:
    """Compare two results measured in pairs: the interval of their difference, pair by pair.

    Two openings played on the same game seeds, or a class's scores before
    and after: pair ``i`` of ``a`` and of ``b`` share their luck.  The right
    question is then "is the difference ``a - b`` away from 0?", answered by
    an interval of the mean difference.  (Reading two separate intervals is
    not a test: they may overlap while the difference is clear.)  Pairing
    helps by as much as the pairs share luck: ``Var(a - b) = Var a + Var b -
    2 Cov(a, b)``, so an interval as narrow needs ``games_ratio`` times more
    games without the pairs.

    Parameters
    ----------
    a, b : sequences of numbers, same length
        Result ``i`` of each side (1/0 for won/lost, victory points, ...).
    label : str
    confidence : float

    Returns
    -------
    PairedDifference

    Examples
    --------
    >>> a = [1, 1, 0, 1, 1, 0, 1, 1, 1, 1]
    >>> b = [1, 0, 0, 1, 0, 0, 1, 0, 1, 1]
    >>> d = paired_difference(a, b, label="wins A - wins B")
    >>> d.paired.estimate, d.a_better, d.b_better, round(d.sign_test_p, 3)
    (0.3, 3, 0, 0.25)
    >>> d.paired.half_width < d.unpaired.half_width   # the pairs share luck (r > 0)
    True
    """
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"a and b must be two sequences of the same length, not shapes {x.shape} and {y.shape}")
    n = int(x.size)
    if n < 2:
        raise ValueError("need at least two pairs")
    d = x - y
    paired = estimate_mean(d, label=f"mean of {label} (paired)", confidence=confidence)
    va, vb = float(x.var(ddof=1)), float(y.var(ddof=1))
    se = math.sqrt((va + vb) / n)
    if se > 0:
        df = (va / n + vb / n) ** 2 / ((va / n) ** 2 / (n - 1) + (vb / n) ** 2 / (n - 1))
        t = _t_quantile(0.5 + confidence / 2, max(1, int(df)))
    else:
        t = _t_quantile(0.5 + confidence / 2, n - 1)
    diff = float(x.mean() - y.mean())
    unpaired = Estimate(f"{label} (unpaired)", None, diff, diff - t * se, diff + t * se, n, confidence, "t")
    r = float(np.corrcoef(x, y)[0, 1]) if va > 0 and vb > 0 else math.nan
    a_better, b_better = int((d > 0).sum()), int((d < 0).sum())
    return PairedDifference(label, n, float(x.mean()), float(y.mean()), paired, unpaired, r, a_better, b_better,
                            _sign_test(a_better, a_better + b_better), va, vb, float(d.var(ddof=1)))


def peeking_false_alarm(
    looks: int = 20,
    step: int = 50,
    *,
    experiments: int = 2_000,
    alpha: float = 0.05,
    seed: Seed = 0,
    confidence: float = 0.95,
) -> Estimate:
    """How often *fair* dice fail the chi-square test at least once when the test is repeated as the rolls come in.

    Each experiment rolls fair dice and runs :func:`chi_square_test` on the
    totals after ``step``, ``2 * step``, ... ``looks * step`` rolls, stopping
    at the first ``p < alpha``: the "roll until it looks significant" habit.
    Every look is a fresh chance of a false alarm, so the share of fair dice
    declared unfair grows far above ``alpha``.  With ``looks=1`` it is the
    test run once, at ``step`` rolls fixed in advance: about ``alpha``.

    Parameters
    ----------
    looks : int
        Times the p-value is looked at.
    step : int
        Rolls between two looks.
    experiments : int
        Fair-dice experiments simulated.
    alpha : float
        The significance level.
    seed : int or numpy.random.Generator
    confidence : float
        Level of the interval around the simulated share.

    Returns
    -------
    Estimate
        The share of experiments with some ``p < alpha``, with its Wilson interval.

    Examples
    --------
    >>> once = peeking_false_alarm(looks=1, step=1000, experiments=1000, seed=1)
    >>> often = peeking_false_alarm(looks=20, step=50, experiments=1000, seed=1)
    >>> once.low < 0.05 < once.high, often.low > 0.15
    (True, True)

    Notes
    -----
    The statistic, its pooling and the degrees of freedom are those of
    :func:`chi_square_test` (a test checks that they agree look by look),
    computed for every experiment at once with numpy.
    """
    if looks < 1 or step < 1 or experiments < 1:
        raise ValueError("looks, step and experiments must be at least 1")
    rng = _rng(seed)
    values = list(range(2, 13))
    probs = np.array([float(roll_probability(v)) for v in values])
    counts = np.zeros((experiments, 11), dtype=np.int64)
    alarm = np.zeros(experiments, dtype=bool)
    for look in range(1, looks + 1):
        totals = _roll_totals(rng, experiments, step).astype(np.int64) - 2
        flat = (np.arange(experiments, dtype=np.int64)[:, None] * 11 + totals).ravel()
        counts += np.bincount(flat, minlength=experiments * 11).reshape(experiments, 11)
        n = look * step
        bins = _pool(values, list(n * probs), [0] * 11, 5.0)
        if len(bins) < 2:
            continue  # too few rolls for a test yet: chi_square_test would refuse them
        stat = np.zeros(experiments)
        for b in bins:
            idx = [v - 2 for v in b.values]
            o = counts[:, idx].sum(axis=1)
            stat += (o - b.expected) ** 2 / b.expected
        alarm |= stat > chi2_critical(alpha, len(bins) - 1)
    when = f"once, after {step} rolls" if looks == 1 else f"in {looks} looks, one every {step} rolls"
    label = f"P(fair dice reach p < {alpha} {when})"
    return estimate_proportion(int(alarm.sum()), experiments, label=label, confidence=confidence, simulated=True)


def ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value, 0 for the smallest, ties sharing the mean of their ranks.

    Examples
    --------
    >>> ranks([0.3, 0.1, 0.3, 0.2])
    [2.5, 0.0, 2.5, 1.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def rank_correlation(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation of two equally long sequences: the Pearson correlation of their
    ranks (ties share a rank), from -1 (opposite orders) to 1 (the same order).  ``nan`` when either
    has no spread.

    Examples
    --------
    >>> rank_correlation([1, 2, 3, 4], [10, 20, 30, 40]), rank_correlation([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(rank_correlation([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]), 3)
    0.8
    """
    if len(x) != len(y):
        raise ValueError(f"need sequences of one length, not {len(x)} and {len(y)}")
    rx, ry = np.array(ranks(list(x))), np.array(ranks(list(y)))
    rx, ry = rx - rx.mean(), ry - ry.mean()
    den = float(np.sqrt((rx * rx).sum() * (ry * ry).sum()))
    return float((rx * ry).sum() / den) if den > 0 else float("nan")

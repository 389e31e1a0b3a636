"""Exact odds of the Dice Game: reaching a build within the remaining rolls.

The question: with these dice showing and ``r`` rolls left, what is the chance
of paying for a target (one build, or several builds at once, whose costs add
up because each die pays for one build only, DG-RES-1) if the player always
keeps the best dice?  The answer is a :class:`fractions.Fraction`, computed by
dynamic programming over dice *multisets* (the order of the dice never
matters): with ``m`` the faces showing,

- ``V(m, 0) = S(m)``, 1 if the faces pay for the target, else 0;
- ``V(m, r) = max(S(m), max over kept sub-multisets k of m, k != m, of
  E[V(k + roll(n - |k|), r - 1)])``.

Keeping every die means stopping.  A fresh turn is ``E[V(roll(n), 2)]``
(DG-ROLL-1: the first roll uses every die).

What is modelled, after the last roll (DG-ROLL-3):

- gold trades, two gold dice for one resource of any kind (DG-GOLD-2), if
  ``gold=True``;
- knight swaps passed in ``swaps`` (a resource, or ``None`` for a swap to any
  resource: the "?" knight and the Plus desert pair), each turning one die not
  needed for the target, gold included (DG-KNIGHT-4).  They are treated as free
  for this turn: their once-per-game cost (DG-KNIGHT-1) is the caller's
  decision.  A knight built during the turn is not counted.

Every probability is exact: the DP runs on integers over the common denominator
``6 ** (n * rolls)`` and returns fractions.  Tables are cached per (cost, dice,
swaps, gold); a 6-dice target takes a few milliseconds.

Examples
--------
>>> from catan_nb.dicegame import Face, Kind
>>> reach_probability(Kind.ROAD, n_dice=6, rolls_left=1)   # one roll of six dice, gold trades counted
Fraction(1663, 2916)
>>> round(float(reach_probability(Kind.ROAD)), 3)          # three rolls, keeping well
0.978
>>> advice = best_keep(Kind.CITY, [Face.ORE, Face.ORE, Face.GRAIN, Face.WOOL, Face.GOLD, Face.BRICK], rolls_left=2)
>>> advice.keep, round(float(advice.probability), 3)
((0, 1, 2, 4), 0.403)
>>> [str(f) for f in advice.faces], len(advice.tied)       # keeping the lone gold ties with rerolling it
(['ore', 'ore', 'grain', 'gold'], 1)

Keeping the lone gold gives exactly the same chance as rolling it again (29/72 either way): the
gold helps only with a second gold, and a rerolled die is as likely to bring that as the kept
gold is to meet one.  Ties are broken toward keeping more dice; ``KeepAdvice.tied`` lists the
other keeps that do as well.  Every probability here counts gold trades (``gold=True``, the
default) unless ``gold=False`` is given, and says so (``KeepAdvice.gold``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np

from ..constants import Resource
from .constants import COSTS, FACES, MAX_ROLLS, N_DICE, Face, Kind

__all__ = [
    "Hand",
    "KeepAdvice",
    "KeepSolver",
    "target_cost",
    "swap_key",
    "solver",
    "reach_probability",
    "keep_probability",
    "best_keep",
    "best_keep_table",
    "multisets",
    "feasible",
]

#: Counts of faces (lumber, brick, wool, grain, ore, gold): a multiset of dice.
Hand = tuple[int, int, int, int, int, int]
Cost = tuple[int, int, int, int, int]
NF = len(FACES)


def target_cost(target) -> Cost:
    """The summed cost of a target: a :class:`Kind`, a kind name, or several of them.

    A 5-tuple of counts (lumber, brick, wool, grain, ore) is taken as it is.

    Examples
    --------
    >>> target_cost(Kind.ROAD)
    (1, 1, 0, 0, 0)
    >>> target_cost(["road", "settlement"])
    (2, 2, 1, 1, 0)
    """
    if isinstance(target, (Kind, str)):
        return COSTS[Kind.parse(target)]
    items = list(target)
    if len(items) == 5 and all(isinstance(x, int) and not isinstance(x, bool) for x in items):
        if any(x < 0 for x in items):
            raise ValueError(f"a cost cannot be negative: {tuple(items)}")
        return tuple(items)  # type: ignore[return-value]
    total = [0] * 5
    for t in items:
        for r, c in enumerate(COSTS[Kind.parse(t)]):
            total[r] += c
    return tuple(total)  # type: ignore[return-value]


def swap_key(swaps: Iterable) -> tuple[Cost, int]:
    """Normalise swaps (resources, ``None`` for any, or ``KnightSwap`` objects) to (fixed counts, any count)."""
    fixed = [0] * 5
    anyc = 0
    for w in swaps:
        r = getattr(w, "resource", w)
        if r is None or r == "any":
            anyc += 1
        else:
            fixed[Resource.parse(r).value] += 1
    return tuple(fixed), anyc  # type: ignore[return-value]


def feasible(hand: Hand, cost: Cost, fixed: Cost = (0, 0, 0, 0, 0), anyc: int = 0, gold: bool = True) -> bool:
    """Can these faces pay ``cost`` after gold trades and the given swaps?

    Deficits are covered by swaps to the missing resource, swaps to any
    resource and pairs of gold; every swap turns a die the cost does not need
    (a surplus resource or a gold die not used in a trade).

    Examples
    --------
    >>> feasible((0, 1, 0, 0, 0, 2), (1, 1, 0, 0, 0))       # brick + 2 gold pays for a road
    True
    >>> feasible((0, 1, 0, 0, 0, 2), (1, 1, 0, 0, 0), gold=False)
    False
    """
    deficit = surplus = f = 0
    for r in range(5):
        d = cost[r] - hand[r]
        if d > 0:
            deficit += d
            f += min(d, fixed[r])
        else:
            surplus -= d
    if deficit == 0:
        return True
    g = hand[5]
    cap = f + anyc
    for y in range(0, (g // 2 if gold else 0) + 1):
        left = deficit - y
        if left <= 0 or (left <= cap and left <= surplus + g - 2 * y):
            return True
    return False


@lru_cache(maxsize=None)
def multisets(size: int) -> tuple[Hand, ...]:
    """Every multiset of ``size`` dice as face counts, in a fixed order."""
    out = []
    for combo in itertools.combinations_with_replacement(range(NF), size):
        c = [0] * NF
        for f in combo:
            c[f] += 1
        out.append(tuple(c))
    return tuple(out)


def _multinomial(c: Sequence[int]) -> int:
    out = factorial(sum(c))
    for x in c:
        out //= factorial(x)
    return out


class _Universe:
    """Index tables for ``n`` dice: full hands, kept sub-hands, roll transitions."""

    def __init__(self, n: int):
        self.n = n
        self.full = multisets(n)
        self.full_index = {m: i for i, m in enumerate(self.full)}
        self.subs: list[Hand] = [m for size in range(n + 1) for m in multisets(size)]
        self.sub_index = {k: i for i, k in enumerate(self.subs)}
        self.sizes = [sum(k) for k in self.subs]
        # transitions[k] = [(full index of k + o, weight)] with sum(weight) = 6 ** n
        self.transitions: list[list[tuple[int, int]]] = []
        for k in self.subs:
            j = n - sum(k)
            scale = 6 ** (n - j)
            row = []
            for o in multisets(j):
                m = tuple(a + b for a, b in zip(k, o))
                row.append((self.full_index[m], _multinomial(o) * scale))
            self.transitions.append(row)
        # proper sub-hands of each full hand (keeping everything is stopping), larger keeps first
        self.keeps: list[list[int]] = []
        for m in self.full:
            ks = [self.sub_index[k] for k in itertools.product(*(range(c + 1) for c in m)) if k != m]
            ks.sort(key=lambda k: -self.sizes[k])
            self.keeps.append(ks)
        self.empty = self.sub_index[(0,) * NF]
        # Dense integer forms for numpy.  Every numerator stays below 6 ** (3 * n) <= 6 ** 18 < 2 ** 63.
        self.matrix = np.zeros((len(self.subs), len(self.full)), dtype=np.int64)
        for k, row in enumerate(self.transitions):
            for i, wt in row:
                self.matrix[k, i] = wt
        width = max(len(ks) for ks in self.keeps)
        sentinel = len(self.subs)  # points at a -1 appended to W
        self.keep_table = np.full((len(self.full), width), sentinel, dtype=np.int64)
        for i, ks in enumerate(self.keeps):
            self.keep_table[i, : len(ks)] = ks


@lru_cache(maxsize=None)
def universe(n: int) -> _Universe:
    """Every hand of ``n`` dice and the tables over them (built once per ``n``)."""
    return _Universe(n)


_universe = universe  # the name this file uses


class KeepSolver:
    """The DP tables of one target for ``n`` dice (cached by :func:`solver`).

    Attributes
    ----------
    cost : tuple
    n : int
    success : list of int
        ``S(m)`` per full hand (index into :func:`multisets` ``(n)``).
    value : list of list of int
        ``value[r][m]``: numerator of ``V(m, r)`` over ``6 ** (n * r)``.
    best : list of list of int
        ``best[r][m]``: the kept sub-hand (index into the universe's ``subs``), or -1 to stop.
    """

    def __init__(self, cost: Cost, n: int, fixed: Cost, anyc: int, gold: bool, rolls: int = MAX_ROLLS - 1):
        self.cost, self.n, self.fixed, self.anyc, self.gold = cost, n, fixed, anyc, gold
        u = self.u = _universe(n)
        success = np.array([1 if feasible(m, cost, fixed, anyc, gold) else 0 for m in u.full], dtype=np.int64)
        self.success: list[int] = success.tolist()
        self.value: list[list[int]] = [self.success]
        self.best: list[list[int]] = [[-1] * len(u.full)]
        self.w: list[list[int]] = []
        rows = np.arange(len(u.full))
        prev = success
        for r in range(1, rolls + 1):
            w = u.matrix @ prev  # W(k, r - 1) for every kept sub-hand k
            cand = np.append(w, -1)[u.keep_table]
            pos = cand.argmax(axis=1)  # the first maximum: the keep with the most dice
            top = cand[rows, pos]
            stop_value = success * 6 ** (n * r)
            stop = stop_value >= top  # ties go to stopping
            prev = np.where(stop, stop_value, top)
            self.w.append(w.tolist())
            self.value.append(prev.tolist())
            self.best.append(np.where(stop, -1, u.keep_table[rows, pos]).tolist())
        # W at the empty keep, one stage further: the fresh turn
        self.fresh_numerator = int(u.matrix[u.empty] @ prev)

    def fresh(self) -> Fraction:
        """Probability from a fresh turn: the first roll uses every die, then ``len(value) - 1`` more rolls."""
        return Fraction(self.fresh_numerator, 6 ** (self.n * len(self.value)))

    def probability(self, hand: Hand, rolls_left: int) -> Fraction:
        """``V(hand, rolls_left)`` under the best keeps."""
        r = self._r(rolls_left)
        return Fraction(self.value[r][self.u.full_index[hand]], 6 ** (self.n * r))

    def keep_value(self, hand: Hand, kept: Hand, rolls_left: int) -> Fraction:
        """Probability when keeping ``kept`` now and playing best afterwards (keeping all = stopping)."""
        r = self._r(rolls_left)
        if kept == hand:
            return Fraction(self.success[self.u.full_index[hand]])
        if r == 0:
            raise ValueError("no rolls are left: the only choice is to stop")
        return Fraction(self.w[r - 1][self.u.sub_index[kept]], 6 ** (self.n * r))

    def best_kept(self, hand: Hand, rolls_left: int) -> Hand:
        """The best sub-hand to keep (``hand`` itself means stop)."""
        r = self._r(rolls_left)
        k = self.best[r][self.u.full_index[hand]]
        return hand if k < 0 else self.u.subs[k]

    def _r(self, rolls_left: int) -> int:
        if not 0 <= rolls_left < len(self.value):
            raise ValueError(f"rolls_left must be 0..{len(self.value) - 1} for dice already rolled, not {rolls_left}")
        return rolls_left


@lru_cache(maxsize=512)
def _solver(cost: Cost, n: int, fixed: Cost, anyc: int, gold: bool) -> KeepSolver:
    return KeepSolver(cost, n, fixed, anyc, gold)


def solver(target, n_dice: int = N_DICE, swaps: Iterable = (), gold: bool = True) -> KeepSolver:
    """The cached DP tables for a target (see :class:`KeepSolver`)."""
    if not 1 <= n_dice <= N_DICE:
        raise ValueError(f"n_dice must be 1..{N_DICE}, not {n_dice}")
    fixed, anyc = swap_key(swaps)
    return _solver(target_cost(target), n_dice, fixed, anyc, bool(gold))


def hand_counts(faces: Iterable) -> Hand:
    """Face counts of some dice: ``hand_counts([Face.ORE, "gold"]) == (0, 0, 0, 0, 1, 1)``."""
    c = [0] * NF
    for f in faces:
        c[Face.parse(f).value] += 1
    return tuple(c)  # type: ignore[return-value]


@dataclass(frozen=True)
class KeepAdvice:
    """The best keep for some dice: which to keep, what they show, the probability it gives.

    ``stop`` is true when keeping every die (that is, stopping) is best.  ``gold`` says whether
    the probability counts gold trades (DG-GOLD-2).  ``tied`` holds the faces of the other keeps
    that give exactly the same probability (the advice breaks ties toward keeping more dice).
    """

    keep: tuple[int, ...]
    faces: tuple[Face, ...]
    probability: Fraction
    stop: bool
    gold: bool = True
    tied: tuple[tuple[Face, ...], ...] = ()

    def __str__(self) -> str:
        what = "stop" if self.stop else ("reroll everything" if not self.keep else
                                         "keep " + ", ".join(str(f) for f in self.faces))
        tie = f", tied with {len(self.tied)} other keep{'s' if len(self.tied) > 1 else ''}" if self.tied else ""
        gold = "gold trades counted" if self.gold else "no gold trades"
        return f"{what}: {float(self.probability):.1%}{tie} ({gold})"


def _indices_for(faces: Sequence[Face], kept: Hand) -> tuple[int, ...]:
    """Die indices showing the kept multiset (the lowest indices of each face)."""
    need = list(kept)
    out = []
    for i, f in enumerate(faces):
        if need[f.value]:
            need[f.value] -= 1
            out.append(i)
    return tuple(out)


def reach_probability(
    target, hand: Sequence | None = None, rolls_left: int | None = None, *, n_dice: int | None = None,
    swaps: Iterable = (), gold: bool = True,
) -> Fraction:
    """Exact probability of paying for ``target`` within the remaining rolls, keeping the best dice.

    Parameters
    ----------
    target : Kind, str or sequence of them, or a 5-tuple cost
        One build, or several to pay for together.
    hand : sequence of Face, optional
        The dice showing.  ``None``: a fresh turn, nothing rolled yet.
    rolls_left : int, optional
        Rolls still allowed: with a hand 0-2 (default 2); for a fresh turn 1-3
        (default 3), counting the first roll.
    n_dice : int, optional
        Dice of a fresh turn (default 6; Plus turns may roll fewer, DGP-8).
    swaps : iterable
        Knight swaps available: resources, ``None`` for any, or ``KnightSwap``.
    gold : bool
        Allow gold trades (DG-GOLD-2).

    Notes
    -----
    The first call for a (target, dice, swaps) builds the DP tables: about
    12,000 integer multiply-adds per roll stage for 6 dice; later calls are
    lookups.

    Examples
    --------
    >>> reach_probability(Kind.CITY, [Face.ORE] * 3 + [Face.GRAIN] * 2 + [Face.GOLD], rolls_left=0)
    Fraction(1, 1)
    >>> reach_probability(Kind.KNIGHT, n_dice=3, rolls_left=1)   # three dice, one roll: 3!/6^3
    Fraction(1, 36)
    """
    if hand is None:
        n = N_DICE if n_dice is None else n_dice
        r = MAX_ROLLS if rolls_left is None else rolls_left
        if not 1 <= r <= MAX_ROLLS:
            raise ValueError(f"a fresh turn has 1..{MAX_ROLLS} rolls, not {r}")
        s = solver(target, n, swaps, gold)
        if r == MAX_ROLLS:
            return s.fresh()
        # first roll, then r - 1 more: E over the first roll of V(m, r - 1)
        u = s.u
        num = sum(wt * s.value[r - 1][i] for i, wt in u.transitions[u.empty])
        return Fraction(num, 6 ** (n * r))
    faces = [Face.parse(f) for f in hand]
    s = solver(target, len(faces), swaps, gold)
    return s.probability(hand_counts(faces), MAX_ROLLS - 1 if rolls_left is None else rolls_left)


def _keep_indices(faces: Sequence[Face], keep: Iterable) -> list[int]:
    """The positions of the dice kept, given as positions (0-based) or as faces (one die per face named)."""
    items = list(keep)
    if all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in items):
        idx = sorted({int(k) for k in items})
        if any(not 0 <= i < len(faces) for i in idx):
            raise ValueError(f"keep {idx} names dice outside 0..{len(faces) - 1}")
        return idx
    if any(isinstance(k, (int, np.integer)) for k in items):
        raise ValueError(f"keep names dice either by position (0..{len(faces) - 1}) or by face, not both: {items!r}")
    free = list(range(len(faces)))
    idx = []
    for k in items:
        face = Face.parse(k)
        at = next((i for i in free if faces[i] is face), None)
        if at is None:
            shown = ", ".join(str(f) for f in faces)
            raise ValueError(f"keep {[str(Face.parse(x)) for x in items]}: the hand ({shown}) has no more {face} to keep")
        free.remove(at)
        idx.append(at)
    return sorted(idx)


def keep_probability(
    target, hand: Sequence, keep: Iterable, rolls_left: int, *, swaps: Iterable = (), gold: bool = True,
) -> Fraction:
    """Exact probability of reaching ``target`` if the dice ``keep`` are kept now.

    The other dice are rolled and the best keeps are played afterwards.  Keeping
    every die means stopping: the probability is then 1 or 0.

    Parameters
    ----------
    target : Kind
    hand : sequence of Face (or face names)
    keep : iterable of int, or of Face
        The dice kept: their positions in ``hand`` (0-based), or their faces —
        ``[Face.ORE, Face.ORE]`` (or ``["ore", "ore"]``) keeps two dice showing ore.
    rolls_left : int
    swaps : iterable
        Knights' swaps still available.
    gold : bool
        Count gold trades (two gold for any resource).

    Examples
    --------
    >>> hand = [Face.BRICK, Face.ORE, Face.ORE, Face.ORE, Face.ORE, Face.ORE]
    >>> keep_probability(Kind.ROAD, hand, keep=[0], rolls_left=1)   # a lumber or two gold among 5 dice
    Fraction(19, 27)
    >>> keep_probability(Kind.ROAD, hand, keep=[Face.BRICK], rolls_left=1)   # the same keep, by face
    Fraction(19, 27)
    """
    faces = [Face.parse(f) for f in hand]
    keep = _keep_indices(faces, keep)
    s = solver(target, len(faces), swaps, gold)
    return s.keep_value(hand_counts(faces), hand_counts(faces[i] for i in keep), rolls_left)


def best_keep(target, hand: Sequence, rolls_left: int, *, swaps: Iterable = (), gold: bool = True) -> KeepAdvice:
    """The best dice to keep for ``target`` and the probability that keep gives.

    Ties go to stopping, then to keeping more dice.

    Examples
    --------
    >>> hand = [Face.LUMBER, Face.LUMBER, Face.GOLD, Face.WOOL, Face.GRAIN, Face.ORE]
    >>> str(best_keep(Kind.SETTLEMENT, hand, rolls_left=2))
    'keep lumber, gold, wool, grain: 80.2% (gold trades counted)'
    """
    faces = [Face.parse(f) for f in hand]
    s = solver(target, len(faces), swaps, gold)
    return _advice(s, tuple(faces), rolls_left, bool(gold))


def _advice(s: KeepSolver, faces: tuple[Face, ...], rolls_left: int, gold: bool) -> KeepAdvice:
    """The best keep for these faces, with every other keep that ties with it."""
    h = hand_counts(faces)
    kept = s.best_kept(h, rolls_left)
    best = s.probability(h, rolls_left)
    tied = []
    if rolls_left > 0 and kept != h:
        subs = {tuple(min(h[i], c[i]) for i in range(len(h))) for c in itertools.product(*(range(k + 1) for k in h))}
        for sub in sorted(subs, key=lambda c: (-sum(c), c)):
            if sub != kept and s.keep_value(h, sub, rolls_left) == best:
                tied.append(tuple(f for f in FACES for _ in range(sub[f.value])))
    idx = _indices_for(faces, kept)
    return KeepAdvice(idx, tuple(faces[i] for i in idx), best, kept == h, gold, tuple(tied))


def best_keep_table(
    target, n_dice: int = N_DICE, *, rolls_left: int = MAX_ROLLS - 1, swaps: Iterable = (), gold: bool = True,
) -> dict[tuple[Face, ...], KeepAdvice]:
    """The best keep for every possible roll of ``n_dice`` (sorted faces -> advice).

    With the default ``rolls_left=2`` this is the table after the first roll of a fresh turn.

    Examples
    --------
    >>> table = best_keep_table(Kind.ROAD, n_dice=2)
    >>> len(table), str(table[(Face.LUMBER, Face.GOLD)])
    (21, 'keep lumber: 30.6% (gold trades counted)')
    """
    s = solver(target, n_dice, swaps, gold)
    out = {}
    for m in s.u.full:
        faces = tuple(f for f in FACES for _ in range(m[f.value]))
        out[faces] = _advice(s, faces, rolls_left, bool(gold))
    return out

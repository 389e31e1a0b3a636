"""How long until a hand can pay for a build: an exact Markov chain on the cards in hand.

Expected production (cards per roll) says how rich an opening is; a player decides by *when* they can
build.  :func:`wait_to_afford` answers that exactly for one player's buildings.  Every roll of the dice
adds what the buildings collect on that total (B-PROD-1); the chain stops as soon as the hand can pay the
cost (B-BUILD-1) — with the cards themselves, or, with ``trades=True``, also by trading surplus cards
with the bank at the best rate the buildings' harbours give (4:1, 3:1 at a generic harbour, 2:1 for the
resource of a special one; B-TRADE-6..9).

The state is what matters of the hand: of each needed resource, how many up to the cost; of every
resource, the surplus cards not yet making a full trade; and the trades already in reach (at most the
cards the build still needs).  Every state is reached by counting, and the expected wait is exact (a
fraction).

The model keeps what the dice do and leaves out what other players do: no trades between players, no
spending on anything else, no robber blocking a hex or stealing, no discards on a 7.  Each player's
turn is one roll, so with four players a round is four rolls.

Examples
--------
>>> from catan_nb import Board
>>> b = Board.beginner()
>>> wait_to_afford(b, "settlement", settlements=[31, 49], trades=False).reachable   # no brick, no trade
False
>>> round(float(wait_to_afford(b, "settlement", settlements=[31, 49]).expected_rolls()), 1)
19.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..board import Board
from ..constants import COSTS, RESOURCES, HarbourKind, Resource, roll_probability
from .probability import Exact
from .production import placement_production

__all__ = ["BuildWait", "wait_to_afford", "starting_hand", "bank_rates"]

#: B-TRADE-6..8: cards given to the bank for one card, without a harbour, at a generic one, at a special one.
BANK_RATE, GENERIC_RATE, SPECIAL_RATE = 4, 3, 2

State = tuple[tuple[int, ...], tuple[int, ...], int]


@dataclass(frozen=True, eq=False)
class BuildWait:
    """The rolls until a hand can pay for ``build``: an absorbing Markov chain, solved exactly.

    Attributes
    ----------
    build : str
        A key of :data:`catan_nb.constants.COSTS` ("road", "settlement", "city", "development_card").
    cost : tuple of int
        Cards of each resource the build costs, by ``Resource.value``.
    start : tuple of int
        Cards of each resource in hand at the start.
    cards_by_total : dict of int to tuple of int
        Cards of each resource the buildings collect when the dice show each total.
    rates : tuple of int or None
        Bank rate for each resource, or ``None``: no trades.
    """

    build: str
    cost: tuple[int, ...]
    start: tuple[int, ...]
    cards_by_total: dict[int, tuple[int, ...]]
    rates: tuple[int, ...] | None = None

    # ------------------------------------------------------------------ the chain
    @cached_property
    def _missing_max(self) -> int:
        return sum(self.cost)

    def _norm(self, counts, credit: int = 0) -> State:
        held = tuple(min(c, n) for c, n in zip(counts, self.cost))
        extra = [c - h for c, h in zip(counts, held)]
        if self.rates is None:
            return held, (0,) * len(held), 0
        credit += sum(e // r for e, r in zip(extra, self.rates))
        rem = tuple(e % r for e, r in zip(extra, self.rates))
        return held, rem, min(credit, self._missing_max)

    def _done(self, s: State) -> bool:
        held, _, credit = s
        return sum(n - h for n, h in zip(self.cost, held)) <= credit

    @cached_property
    def _gains(self) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
        zero = (0,) * len(RESOURCES)
        out: dict[tuple[int, ...], Fraction] = {}
        for t in range(2, 13):
            g = self.cards_by_total.get(t, zero)
            out[g] = out.get(g, Fraction(0)) + roll_probability(t)
        return tuple((p, g) for g, p in out.items())

    def _step(self, s: State, gain: tuple[int, ...]) -> State:
        held, rem, credit = s
        return self._norm([h + r + g for h, r, g in zip(held, rem, gain)], credit)

    @cached_property
    def _start(self) -> State:
        return self._norm(self.start)

    @cached_property
    def _chain(self) -> dict[State, tuple[tuple[State, Fraction], ...]]:
        """Every state reachable from the start, with where one roll takes it (absorbing states: nowhere)."""
        chain: dict[State, tuple[tuple[State, Fraction], ...]] = {}
        todo = [self._start]
        while todo:
            s = todo.pop()
            if s in chain:
                continue
            if self._done(s):
                chain[s] = ()
                continue
            nxt: dict[State, Fraction] = {}
            for p, g in self._gains:
                t = self._step(s, g)
                nxt[t] = nxt.get(t, Fraction(0)) + p
            chain[s] = tuple(nxt.items())
            todo.extend(t for t in nxt if t not in chain)
        return chain

    def _potential(self, s: State) -> int:
        """Cards gathered so far (a trade counted at its rate): a roll never lowers it."""
        held, rem, credit = s
        return sum(held) + sum(rem) + credit * max(self.rates or (1,))

    @cached_property
    def _expected(self) -> dict[State, Fraction | None]:
        """Expected rolls from every reachable state (``None``: the build is never paid for from there)."""
        e: dict[State, Fraction | None] = {}
        pending = dict(self._chain)
        # A roll never takes a card away: a state's successors are solved before it (fixed point, in order).
        while pending:
            progress = False
            for s, moves in list(pending.items()):
                if not moves:
                    e[s] = Fraction(0)
                elif all(t == s or t in e for t, _ in moves):
                    stay = sum((p for t, p in moves if t == s), Fraction(0))
                    later = [(t, p) for t, p in moves if t != s]
                    if stay == 1 or any(e[t] is None for t, _ in later):
                        e[s] = None
                    else:
                        e[s] = (1 + sum((p * e[t] for t, p in later), Fraction(0))) / (1 - stay)
                else:
                    continue
                del pending[s]
                progress = True
            if not progress:  # pragma: no cover - a roll never lowers the hand, so this cannot happen
                raise RuntimeError("the chain has a cycle")
        return e

    # ------------------------------------------------------------------ answers
    @property
    def states(self) -> int:
        """States of the chain reachable from the start."""
        return len(self._chain)

    @property
    def reachable(self) -> bool:
        """Whether the hand ever pays for the build (its buildings produce, or trade for, every card needed)."""
        return self._expected[self._start] is not None

    def expected_rolls(self) -> Fraction | float:
        """Expected number of rolls until the hand can pay (``math.inf`` if it never can)."""
        e = self._expected[self._start]
        return math.inf if e is None else Exact(e)

    def expected_rounds(self, players: int = 4) -> Fraction | float:
        """The same in rounds of ``players`` turns (one roll each)."""
        e = self.expected_rolls()
        return e if e == math.inf else Exact(e / players)

    def _walk(self):
        dist = {self._start: Fraction(1)}
        while True:
            yield sum((p for s, p in dist.items() if self._done(s)), Fraction(0))
            nxt: dict[State, Fraction] = {}
            for s, p in dist.items():
                for t, q in (((s, Fraction(1)),) if self._done(s) else self._chain[s]):
                    nxt[t] = nxt.get(t, Fraction(0)) + p * q
            dist = nxt

    def cdf(self, k: int) -> Fraction:
        """Exact probability that the hand can pay within ``k`` rolls."""
        return self.curve(max(0, k))[-1]

    def curve(self, up_to: int) -> list[Fraction]:
        """``[cdf(0), cdf(1), ..., cdf(up_to)]`` in one pass (for a plot).

        Examples
        --------
        >>> from catan_nb import Board
        >>> c = wait_to_afford(Board.beginner(), "city", settlements=[49, 40], hand=(0, 0, 0, 2, 1)).curve(8)
        >>> c[0], c == sorted(c), c[8] >= 0.5
        (Fraction(0, 1), True, True)
        """
        out = []
        for i, p in enumerate(self._walk()):
            out.append(Exact(p))
            if i >= up_to:
                return out
        raise AssertionError  # pragma: no cover

    def quantile(self, q: float | Fraction, *, limit: int = 500) -> int | None:
        """The fewest rolls ``k`` with ``P(can pay within k rolls) >= q`` (``None`` if never, or beyond ``limit``).

        Examples
        --------
        >>> from catan_nb import Board
        >>> w = wait_to_afford(Board.beginner(), "city", settlements=[31, 49])
        >>> w.quantile(0.5) <= w.quantile(0.9)
        True
        """
        q = Fraction(q).limit_denominator(10**12) if isinstance(q, float) else Fraction(q)
        if not 0 < q <= 1:
            raise ValueError(f"a quantile is between 0 and 1, not {q}")
        if not self.reachable:
            return None
        for k, p in enumerate(self._walk()):
            if p >= q:
                return k
            if k >= limit:
                return None
        raise AssertionError  # pragma: no cover

    def median(self) -> int | None:
        """The median number of rolls."""
        return self.quantile(Fraction(1, 2))

    def to_dict(self) -> dict[str, Any]:
        return {"build": self.build, "trades": self.rates is not None, "expected_rolls": float(self.expected_rolls()),
                "median": self.median(), "reachable": self.reachable}

    def __repr__(self) -> str:
        how = "with bank trades" if self.rates is not None else "without trades"
        if not self.reachable:
            return f"<BuildWait {self.build} {how}: never (the buildings never bring every card it needs)>"
        return (f"<BuildWait {self.build} {how}: {float(self.expected_rolls()):.1f} rolls on average "
                f"(median {self.median()})>")


def starting_hand(board: Board, second: int) -> tuple[int, ...]:
    """The cards the second founding settlement pays at once (B-SETUP-19): one per producing hex it touches.

    Examples
    --------
    >>> from catan_nb import Board
    >>> starting_hand(Board.beginner(), 49)   # fields 6 and pasture 11: a grain and a wool
    (0, 0, 1, 1, 0)
    """
    hand = [0] * len(RESOURCES)
    t = board.topology
    for h in t.node_hexes[second]:
        r = t.hex_resource[h]
        if r >= 0:
            hand[r] += 1
    return tuple(hand)


def bank_rates(board: Board, buildings: Iterable[int]) -> tuple[int, ...]:
    """The best bank rate for each resource with buildings on these intersections (B-TRADE-6..9).

    Examples
    --------
    >>> from catan_nb import Board
    >>> bank_rates(Board.beginner(), [31])          # no harbour: 4:1 for everything
    (4, 4, 4, 4, 4)
    """
    codes = {board.topology.node_harbour[v] for v in buildings}
    base = GENERIC_RATE if HarbourKind.GENERIC in codes else BANK_RATE
    return tuple(SPECIAL_RATE if r in codes else base for r in RESOURCES)


def wait_to_afford(
    board: Board,
    build: str = "settlement",
    *,
    settlements: Iterable[int] = (),
    cities: Iterable[int] = (),
    hand: Iterable[int] | dict[Resource, int] | None = None,
    trades: bool = True,
    robber: int | None = None,
) -> BuildWait:
    """How many rolls until the cards from these buildings pay for ``build``: exact, by a Markov chain.

    Parameters
    ----------
    board : Board
    build : {"road", "settlement", "city", "development_card"}
        What to pay for (B-BUILD-1 costs).
    settlements, cities : iterables of intersection ids
        The player's buildings (a city collects two cards).
    hand : counts by resource, optional
        Cards already in hand (a tuple by ``Resource.value`` or a dict), e.g. the starting cards of the
        second founding settlement (:func:`starting_hand`).  Default: none.
    trades : bool
        Let the player trade surplus cards with the bank, at the best rate its buildings' harbours give
        (:func:`bank_rates`), as soon as that pays for the build.
    robber : hex id, optional
        A hex that produces nothing throughout.

    Returns
    -------
    BuildWait
        ``expected_rolls()`` (exact), ``cdf(k)``, ``median()``, ``quantile(q)``.

    Examples
    --------
    >>> from catan_nb import Board
    >>> b = Board.beginner()
    >>> first = wait_to_afford(b, "city", settlements=[40, 49], hand=starting_hand(b, 49))
    >>> second = wait_to_afford(b, "city", settlements=[40, 49], hand=starting_hand(b, 40))
    >>> first.expected_rolls() > second.expected_rolls()   # the order of the two settlements matters
    True

    Notes
    -----
    The states are counted from the start (a few hundred to a few thousand for a settlement or a
    city); a roll never lowers the cards gathered, so the expected waits come from one
    back-substitution in exact fractions.
    """
    if build not in COSTS:
        raise ValueError(f"build must be one of {', '.join(COSTS)}, not {build!r}")
    s, c = list(settlements), list(cities)
    prod = placement_production(board, s, c, robber=robber)
    cards = {t: tuple(x.get(r, 0) for r in RESOURCES) for t, x in prod.by_roll.items()}
    if hand is None:
        start = (0,) * len(RESOURCES)
    elif isinstance(hand, dict):
        start = tuple(int(hand.get(r, 0)) for r in RESOURCES)
    else:
        start = tuple(int(x) for x in hand)
        if len(start) != len(RESOURCES) or min(start) < 0:
            raise ValueError(f"hand must give {len(RESOURCES)} counts >= 0 (by Resource.value), not {hand!r}")
    rates = bank_rates(board, s + c) if trades else None
    return BuildWait(build, tuple(COSTS[build]), start, cards, rates)

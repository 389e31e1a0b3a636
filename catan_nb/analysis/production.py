"""Production: how many cards a set of buildings collects per roll, exactly.

A settlement takes one card and a city two from each adjacent producing hex
whose number is rolled (B-PROD-1..8), unless the robber stands on it
(B-ROB-10).  Over the eleven dice totals that gives the exact distribution of
cards per roll, so the mean, the variance and the chance of receiving anything
are Fractions.  The bank running short (B-COMP-14) is ignored: these are the
cards the board promises, not what a nearly empty bank can pay.

Examples
--------
>>> from catan_nb import Board
>>> board = Board.beginner()
>>> node_production(board, 39).total      # (4,1) forest 8, (4,2) mountains 3, (5,1) hills 5
Fraction(11, 36)
>>> placement_production(board, settlements=[39], cities=[0]).total   # + a city on (1,1) mountains 10
Fraction(17, 36)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..board import Board, HexId
from ..constants import RESOURCES, Resource, roll_probability

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Game

__all__ = [
    "Production",
    "RobberEffect",
    "placement_production",
    "node_production",
    "player_production",
    "robber_effect",
    "robber_table",
    "token_production",
]

_TOTALS = tuple(range(2, 13))


@dataclass(frozen=True, repr=False)
class Production:
    """Cards per roll collected by a set of buildings, as exact fractions.

    Attributes
    ----------
    per_resource : dict of Resource to Fraction
        Expected cards of each resource per roll (all five resources present).
    total : Fraction
        Expected cards per roll, all resources together.
    variance : Fraction
        Variance of the number of cards on one roll.
    p_any : Fraction
        Probability of receiving at least one card on a roll.
    distribution : dict of int to Fraction
        Probability of receiving exactly ``k`` cards on a roll.
    by_roll : dict of int to dict of Resource to int
        Cards received on each dice total that pays anything.
    """

    per_resource: dict[Resource, Fraction]
    total: Fraction
    variance: Fraction
    p_any: Fraction
    distribution: dict[int, Fraction]
    by_roll: dict[int, dict[Resource, int]]

    @property
    def std(self) -> float:
        """Standard deviation of the cards on one roll."""
        return float(self.variance) ** 0.5

    @property
    def pips(self) -> int:
        """Expected cards per roll in pips (ways out of 36): ``36 * total``."""
        return int(self.total * 36)

    def to_dict(self) -> dict[str, Any]:
        """A flat row of floats for a table (one column per resource)."""
        row: dict[str, Any] = {"total": float(self.total), "variance": float(self.variance), "p_any": float(self.p_any)}
        row.update({str(r): float(v) for r, v in self.per_resource.items()})
        return row

    def __repr__(self) -> str:
        res = ", ".join(f"{r} {v}" for r, v in self.per_resource.items() if v)
        return (
            f"<Production {self.total} = {float(self.total):.3f} cards/roll (variance {float(self.variance):.3f}, "
            f"P(any) {self.p_any}) [{res or 'nothing'}]>"
        )


def _check_nodes(board: Board, nodes: Iterable[int], what: str) -> list[int]:
    out = []
    n = board.topology.n_nodes
    for v in nodes:
        v = int(v)
        if not 0 <= v < n:
            raise ValueError(f"{what}: intersection {v} is not on board {board.name!r} (0..{n - 1})")
        out.append(v)
    return out


def _production(board: Board, multiplier: dict[int, int], robber: int | None) -> Production:
    t = board.topology
    cards = {k: [0] * len(RESOURCES) for k in _TOTALS}
    for v, m in multiplier.items():
        for h in t.node_hexes[v]:
            r, tok = t.hex_resource[h], t.hex_token[h]
            if h == robber or r < 0 or not tok:
                continue
            cards[tok][r] += m
    return _from_cards(cards)


def token_production(tokens: Iterable[int], resources: Iterable[Resource] | None = None, *, city: bool = False) -> Production:
    """Production of a spot touching hexes with these numbers, on no particular board.

    For questions such as "an 8 alone against a 3 and a 4" or "two 8s against an 8 and a 6".

    Parameters
    ----------
    tokens : iterable of int
        The number on each hex the spot touches (2-12, not 7).
    resources : iterable of Resource, optional
        What each hex produces (default: a different resource for each hex).
    city : bool
        A city collects two cards from each hex.

    Examples
    --------
    >>> token_production([8]).distribution == token_production([3, 4]).distribution   # same pips, same risk
    True
    >>> token_production([8, 8]).p_any, token_production([6, 8]).p_any                  # same pips, not the same
    (Fraction(5, 36), Fraction(5, 18))
    """
    tokens = [int(k) for k in tokens]
    for k in tokens:
        if not 2 <= k <= 12 or k == 7:
            raise ValueError(f"a number token shows 2-6 or 8-12, not {k}")
    res = list(resources) if resources is not None else list(RESOURCES[: len(tokens)])
    if len(res) != len(tokens):
        raise ValueError(f"{len(tokens)} tokens need {len(tokens)} resources, not {len(res)}")
    cards = {k: [0] * len(RESOURCES) for k in _TOTALS}
    for k, r in zip(tokens, res):
        cards[k][Resource.parse(r).value] += 2 if city else 1
    return _from_cards(cards)


def _from_cards(cards: dict[int, list[int]]) -> Production:
    per = {res: Fraction(0) for res in RESOURCES}
    dist: dict[int, Fraction] = {}
    mean = second = p_any = Fraction(0)
    by_roll: dict[int, dict[Resource, int]] = {}
    for k in _TOTALS:
        p = roll_probability(k)
        c = cards[k]
        s = sum(c)
        dist[s] = dist.get(s, Fraction(0)) + p
        if s:
            by_roll[k] = {RESOURCES[r]: x for r, x in enumerate(c) if x}
            p_any += p
            mean += p * s
            second += p * s * s
            for r, x in enumerate(c):
                if x:
                    per[RESOURCES[r]] += p * x
    return Production(per, mean, second - mean * mean, p_any, dict(sorted(dist.items())), by_roll)


def placement_production(
    board: Board, settlements: Iterable[int] = (), cities: Iterable[int] = (), *, robber: int | None = None
) -> Production:
    """Production of a hypothetical placement: settlements and cities on chosen intersections.

    No rule is checked (a lesson may ask about any set of intersections), but
    an intersection may not be both a settlement and a city.

    Parameters
    ----------
    board : Board
    settlements, cities : iterables of intersection ids
    robber : hex id, optional
        A hex that produces nothing (``None``: the robber blocks nothing, as
        on the desert at the start).

    Returns
    -------
    Production

    Examples
    --------
    >>> from catan_nb import Board
    >>> p = placement_production(Board.beginner(), settlements=[39])
    >>> p.p_any, p.distribution[0]
    (Fraction(11, 36), Fraction(25, 36))

    Notes
    -----
    O(buildings + 11): the work is done per dice total.
    """
    s = _check_nodes(board, settlements, "settlements")
    c = _check_nodes(board, cities, "cities")
    both = sorted(set(s) & set(c))
    if both:
        raise ValueError(f"intersection {both[0]} cannot hold both a settlement and a city")
    mult = {v: 1 for v in s}
    mult.update({v: 2 for v in c})
    return _production(board, mult, robber)


def node_production(board: Board, node: int, *, city: bool = False, robber: int | None = None) -> Production:
    """Production of one settlement (or city) on ``node``.

    Examples
    --------
    >>> from catan_nb import Board
    >>> board = Board.beginner()
    >>> node_production(board, 39).per_resource[Resource.LUMBER]   # forest 8: 5/36
    Fraction(5, 36)
    >>> node_production(board, 39, city=True).total
    Fraction(11, 18)
    """
    return placement_production(board, [] if city else [node], [node] if city else [], robber=robber)


def player_production(game: "Game", player: int, *, robber: bool = True) -> Production:
    """Production of one seat's settlements and cities in a game.

    Parameters
    ----------
    game : Game
    player : int
        The seat.
    robber : bool
        Leave out the hex the robber stands on now (default) or ignore it.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> player_production(game, 1).total > 0
    True
    """
    if not 0 <= player < game.n:
        raise ValueError(f"seat {player} is not in this {game.n}-player game")
    kinds = game.kinds  # a node piece's kind id is no card count: settlement 1, city 2, a C&K knight 0
    mult = {v: kinds[k].produces for v, (o, k) in enumerate(zip(game.node_owner, game.node_kind))
            if o == player and kinds[k].produces}
    return _production(game.board, mult, game.robber if robber else None)


@dataclass(frozen=True)
class RobberEffect:
    """What the robber on one hex takes: expected cards per roll each seat loses.

    Attributes
    ----------
    hex : HexId
    label : str
        The hex as the rulebook names it, e.g. ``"(3,4) forest 3"``.
    token : int or None
    resource : Resource or None
    losses : dict of int to Fraction
        Expected cards per roll lost by each seat (every seat present, 0 if untouched).
    total : Fraction
        Lost by all seats together.
    """

    hex: HexId
    label: str
    token: int | None
    resource: Resource | None
    losses: dict[int, Fraction]
    total: Fraction

    def harm(self, seat: int) -> Fraction:
        """What the other seats lose minus what ``seat`` itself loses (the robber mover's view)."""
        return self.total - 2 * self.losses.get(seat, Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "hex": int(self.hex),
            "label": self.label,
            "token": self.token,
            "resource": None if self.resource is None else str(self.resource),
            "total": float(self.total),
        }
        row.update({f"seat {p}": float(x) for p, x in self.losses.items()})
        return row


def robber_effect(game: "Game", hex_id: int) -> RobberEffect:
    """Expected production each seat loses while the robber stands on ``hex_id``.

    Measured against the hex being free; a city loses twice what a
    settlement does (B-ROB-10, B-PROD-3).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> eff = robber_effect(game, game.board.hex_at(4, 2).id)   # mountains 3: blue and orange
    >>> {p: x for p, x in eff.losses.items() if x}
    {1: Fraction(1, 18), 3: Fraction(1, 18)}
    """
    board = game.board
    t = board.topology
    if not 0 <= hex_id < t.n_hexes:
        raise ValueError(f"hex {hex_id} is not on board {board.name!r} (0..{t.n_hexes - 1})")
    tile = board.hexes[hex_id]
    p = roll_probability(tile.token) if tile.token and tile.resource is not None else Fraction(0)
    losses = {q: Fraction(0) for q in range(game.n)}
    kinds = game.kinds
    for v in t.hex_nodes[hex_id]:
        o = game.node_owner[v]
        if o >= 0:
            losses[o] += p * kinds[game.node_kind[v]].produces  # cards, not the piece's kind id
    return RobberEffect(HexId(hex_id), tile.label, tile.token, tile.resource, losses, sum(losses.values(), Fraction(0)))


def robber_table(game: "Game", seat: int | None = None) -> list[RobberEffect]:
    """The robber's effect on every hex, most harmful first.

    Parameters
    ----------
    game : Game
    seat : int, optional
        Rank by harm to the other seats minus harm to ``seat`` (where should
        ``seat`` move the robber?); by default rank by the total loss.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> best = robber_table(game, seat=0)[0]
    >>> best.losses[0], best.total > 0
    (Fraction(0, 1), True)
    """
    rows = [robber_effect(game, h) for h in range(len(game.board.hexes))]
    key = (lambda e: (-e.total, e.hex)) if seat is None else (lambda e: (-e.harm(seat), e.hex))
    return sorted(rows, key=key)

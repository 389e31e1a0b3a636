"""Chance in the expansions, exactly: the Cities & Knights dice, the Aqueduct, gold fields and fog.

Every figure is a :class:`fractions.Fraction` and every rule comes from the engine's own modules
(one place per rule constant): the event die's faces are
:data:`~catan_nb.rules.modules.cities_knights.EVENT_FACES`, the red-die numbers of an improvement
level :func:`~catan_nb.rules.modules.cities_knights.progress_numbers`, the Aqueduct's condition
:func:`~catan_nb.rules.modules.cities_knights.aqueduct_seats` and a gold field's picks
:func:`~catan_nb.rules.modules.gold_fields.gold_owed`.

Cities & Knights (RULES.md section 17)
    :func:`event_die_distribution` and :func:`cities_knights_dice` (the three dice together);
    :func:`progress_odds`: the chance per roll that a player with improvement levels
    ``(trade, politics, science)`` draws a progress card of each colour (CK-PROG-1, CK-IMP-2), the
    expected cards per roll or per round and the chance of a card within ``k`` rolls;
    :func:`progress_draws_observed` and :func:`event_counts` count what a list of rolled dice gives;
    :func:`aqueduct_odds`: how often the Aqueduct pays a seat (CK-IMP-3).  The barbarians' arrival
    is :mod:`catan_nb.analysis.barbarians` (e.g. :func:`~catan_nb.analysis.barbarians.attack_within`).
Seafarers (RULES.md section 16)
    :func:`gold_odds`: a seat's gold picks per roll (SF-1); :func:`fog_token_odds`,
    :func:`fog_reveals_odds` and :func:`fog_resource_within`: what the next fog reveals hold (SF-3),
    on top of :mod:`catan_nb.analysis.seafarers`.

Examples
--------
>>> from catan_nb.rules.modules.cities_knights import Track
>>> event_die_distribution()[None], event_die_distribution()[Track.SCIENCE]   # a ship, the green gate
(Fraction(1, 2), Fraction(1, 6))
>>> odds = progress_odds((1, 0, 3))          # trade level 1, politics 0, science 3
>>> odds.by_track[Track.TRADE], odds.by_track[Track.SCIENCE], odds.any_colour
(Fraction(1, 18), Fraction(1, 9), Fraction(1, 6))
>>> aqueduct_odds([(6, 1), (8, 2)]).chance   # a settlement on a 6 and a city on an 8: no 6, 7 or 8
Fraction(5, 9)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from ..constants import Resource, Terrain, roll_probability
from ..rules.modules.cities_knights import (
    ABILITY_LEVEL,
    EVENT_FACES,
    MAX_LEVEL,
    TRACK_COLOUR,
    TRACKS,
    Track,
    aqueduct_seats,
    progress_numbers,
)
from ..rules.modules.cities_knights import NAME as CK_NAME
from ..rules.modules.gold_fields import NAME as GOLD_NAME
from ..rules.modules.gold_fields import gold_owed
from .probability import dice_sum_distribution
from .seafarers import fog_tiles, resource_name

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Game

__all__ = [
    "event_die_distribution",
    "event_face_name",
    "cities_knights_dice",
    "improvement_levels",
    "ProgressOdds",
    "progress_odds",
    "progress_draws_observed",
    "event_counts",
    "AqueductOdds",
    "aqueduct_odds",
    "GoldOdds",
    "gold_odds",
    "fog_token_odds",
    "fog_reveals_odds",
    "fog_resource_within",
]

_TOTALS = tuple(range(2, 13))
#: The sum of the number dice on which nothing is produced (B-PROD-1): no Aqueduct either (CK-IMP-3).
_SEVEN = 7


# ================================================================ Cities & Knights dice
def _die() -> dict[int, Fraction]:
    """One fair number die (the red or the yellow one)."""
    return dice_sum_distribution(1)


def event_die_distribution() -> dict[Track | None, Fraction]:
    """P(the event die shows each face kind): ``None`` for the barbarians' ship, a :class:`Track`
    for the city gate of that colour (CK-COMP-1; the engine's ``EVENT_FACES``).

    Examples
    --------
    >>> {event_face_name(f): str(p) for f, p in event_die_distribution().items()}
    {'ship': '1/2', 'yellow gate (trade)': '1/6', 'blue gate (politics)': '1/6', 'green gate (science)': '1/6'}
    """
    out: dict[Track | None, Fraction] = {}
    for face in EVENT_FACES.values():
        out[face] = out.get(face, Fraction(0)) + Fraction(1, len(EVENT_FACES))
    return out


def event_face_name(face: Track | None) -> str:
    """A face kind of the event die by name: ``"ship"`` or the gate's colour and track.

    Examples
    --------
    >>> event_face_name(None), event_face_name(Track.POLITICS)
    ('ship', 'blue gate (politics)')
    """
    return "ship" if face is None else f"{TRACK_COLOUR[face]} gate ({face})"


def cities_knights_dice() -> dict[tuple[int, int, int], Fraction]:
    """The joint distribution of one Cities & Knights roll: ``(red, yellow, event)`` die faces.

    The three dice are independent and fair: each of the 216 outcomes has probability 1/216.  The
    engine rolls them in this order (the red die first, the event die third); ``EVENT_FACES`` maps
    the event die's face to a ship or a gate.

    Examples
    --------
    >>> d = cities_knights_dice()
    >>> len(d), d[(6, 1, 4)], sum(d.values())
    (216, Fraction(1, 216), Fraction(1, 1))
    """
    die = _die()
    ev = Fraction(1, len(EVENT_FACES))
    return {(r, y, e): die[r] * die[y] * ev for r, y, e in product(die, die, EVENT_FACES)}


def _levels(levels: Any) -> tuple[int, int, int]:
    if isinstance(levels, Mapping):
        levels = tuple(levels.get(t, 0) for t in TRACKS)
    try:
        out = tuple(levels)
    except TypeError:
        out = ()
    if len(out) != len(TRACKS) or any(isinstance(x, bool) or not isinstance(x, (int, np.integer))
                                      or not 0 <= x <= MAX_LEVEL for x in out):
        raise ValueError(f"improvement levels are {len(TRACKS)} whole numbers 0..{MAX_LEVEL} "
                         f"(trade, politics, science; CK-IMP-1), not {levels!r}")
    return tuple(int(x) for x in out)  # type: ignore[return-value]


def _ck_state(game: "Game") -> dict:
    st = getattr(game, "ext", {}).get(CK_NAME)
    if st is None:
        raise ValueError(f"the game does not play with the {CK_NAME!r} module (RULES.md section 17)")
    return st


def _seat(game: "Game", seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < game.n:
        raise ValueError(f"seat must be one of 0..{game.n - 1} of this {game.n}-player game, not {seat!r}")
    return int(seat)


def improvement_levels(game: "Game", seat: int) -> tuple[int, int, int]:
    """A seat's improvement levels ``(trade, politics, science)`` in a Cities & Knights game.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
    >>> improvement_levels(g, 0)
    (0, 0, 0)
    """
    return tuple(_ck_state(game)["levels"][_seat(game, seat)])  # type: ignore[return-value]


@dataclass(frozen=True)
class ProgressOdds:
    """A player's progress-card draws (CK-PROG-1, CK-IMP-2), exact, per roll of the three dice.

    On every roll (each player's turn, a 7 included) the event die may show a city gate; every
    player with that colour's track at level ``n >= 1`` then draws a card of the colour if the red
    die shows 1..n+1.  Only one gate shows, so a roll draws at most one card per player.  These
    are draws while the decks last: a card drawn over the hand limit (CK-PROG-2) is still drawn,
    then one is given back; the Alchemist (CK-PC-1), which sets the number dice, is left out.

    Attributes
    ----------
    levels : tuple of int
        ``(trade, politics, science)``.
    by_track : dict of Track to Fraction
        P(a card of that colour on one roll).
    any_colour : Fraction
        P(a card of any colour on one roll), also the expected cards per roll.
    """

    levels: tuple[int, int, int]
    by_track: dict[Track, Fraction]
    any_colour: Fraction

    def _p(self, track: Track | str | None) -> Fraction:
        return self.any_colour if track is None else self.by_track[Track.parse(track)]

    def expected(self, rolls: int = 1, track: Track | str | None = None) -> Fraction:
        """Expected cards in ``rolls`` rolls (of one colour, or of any)."""
        if isinstance(rolls, bool) or not isinstance(rolls, int) or rolls < 0:
            raise ValueError(f"rolls is a number of rolls (0 or more), not {rolls!r}")
        return rolls * self._p(track)

    def per_round(self, players: int, track: Track | str | None = None) -> Fraction:
        """Expected cards in one round of ``players`` turns: every turn is a roll, and every player draws
        on every roll, not only on their own."""
        return self.expected(players, track)

    def within(self, k: int, track: Track | str | None = None) -> Fraction:
        """P(at least one card, of one colour or of any, within ``k`` rolls): the rolls are independent."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k is a number of rolls (0 or more), not {k!r}")
        return 1 - (1 - self._p(track)) ** k

    def rolls_until(self, track: Track | str | None = None) -> Fraction:
        """Expected rolls up to and including the first card (a geometric law); infinite odds raise."""
        p = self._p(track)
        if not p:
            raise ValueError(f"with levels {self.levels} a card of that colour is never drawn: its track is at level 0")
        return 1 / p


def progress_odds(levels: Sequence[int] | Mapping[Track, int] | "Game", seat: int | None = None) -> ProgressOdds:
    """The chance per roll of drawing a progress card of each colour (CK-PROG-1, CK-IMP-2).

    Parameters
    ----------
    levels : sequence of 3 ints, mapping of Track to int, or Game
        Improvement levels ``(trade, politics, science)``, each 0..5; or a Cities & Knights game,
        with ``seat``.
    seat : int, optional
        The seat whose levels to read from the game.

    Returns
    -------
    ProgressOdds

    Examples
    --------
    >>> o = progress_odds((5, 5, 5))             # every level at the top: any gate draws
    >>> o.any_colour, o.per_round(4), o.within(2)
    (Fraction(1, 2), Fraction(2, 1), Fraction(3, 4))
    >>> progress_odds((0, 2, 0)).by_track[Track.POLITICS]   # the blue gate and a red 1, 2 or 3
    Fraction(1, 12)

    Notes
    -----
    P(colour) = P(the event die shows its gate) x P(the red die shows one of the level's numbers):
    the two dice are independent.
    """
    if seat is not None:
        levels = improvement_levels(levels, seat)  # type: ignore[arg-type]
    elif hasattr(levels, "ext"):
        raise ValueError("progress_odds(game, seat): name the seat whose levels to read")
    lv = _levels(levels)
    die, gates = _die(), event_die_distribution()
    by_track = {t: gates.get(t, Fraction(0)) * sum((die[r] for r in progress_numbers(lv[i]) if r in die), Fraction(0))
                for i, t in enumerate(TRACKS)}
    return ProgressOdds(lv, by_track, sum(by_track.values(), Fraction(0)))


def progress_draws_observed(dice: Any, levels: Sequence[int] | Mapping[Track, int]) -> dict[Track, int]:
    """How many cards of each colour a player with ``levels`` draws on these rolls.

    Parameters
    ----------
    dice : array-like of shape (n, 3)
        Rolled ``(red, yellow, event)`` faces, one row per roll.
    levels : sequence of 3 ints or mapping of Track to int

    Examples
    --------
    >>> progress_draws_observed([(1, 5, 4), (3, 2, 4), (2, 2, 1), (6, 6, 6)], (1, 0, 5))
    {Track.TRADE: 1, Track.POLITICS: 0, Track.SCIENCE: 1}
    """
    lv = _levels(levels)
    a = np.asarray(dice, dtype=np.int64).reshape(-1, 3)
    red, event = a[:, 0], a[:, 2]
    out = {}
    for i, t in enumerate(TRACKS):
        faces = [f for f, g in EVENT_FACES.items() if g is t]
        out[t] = int((np.isin(event, faces) & np.isin(red, list(progress_numbers(lv[i])))).sum())
    return out


def event_counts(dice: Any) -> dict[Track | None, int]:
    """How often each face kind of the event die came up in these rolls (``None``: a ship).

    Parameters
    ----------
    dice : array-like of shape (n, 3)
        Rolled ``(red, yellow, event)`` faces, one row per roll.

    Examples
    --------
    >>> {event_face_name(k): c for k, c in event_counts([(1, 2, 1), (3, 3, 2), (6, 1, 6)]).items()}
    {'ship': 2, 'yellow gate (trade)': 0, 'blue gate (politics)': 0, 'green gate (science)': 1}
    """
    event = np.asarray(dice, dtype=np.int64).reshape(-1, 3)[:, 2]
    out = dict.fromkeys(event_die_distribution(), 0)
    for face, kind in EVENT_FACES.items():
        out[kind] += int((event == face).sum())
    return out


# ================================================================ the Aqueduct (CK-IMP-3)
@dataclass(frozen=True)
class AqueductOdds:
    """How often the Aqueduct pays (CK-IMP-3): a roll other than 7 that gives the player nothing.

    Attributes
    ----------
    received : dict of int to int
        Cards (and gold picks) the buildings collect on each dice total 2..12 (0 on a 7).
    pays_on : tuple of int
        The totals on which the Aqueduct pays.
    chance : Fraction
        P(the Aqueduct pays on one roll).
    cards_per_roll : Fraction
        Expected Aqueduct cards per roll (one card each time it pays, so equal to ``chance``).
    production : Fraction
        Expected cards per roll from the buildings.
    with_aqueduct : Fraction
        ``production + cards_per_roll``.
    holds : bool or None
        Whether the seat holds the Aqueduct now (science level 3 or more); ``None`` for a list of
        (token, cards) pairs.
    """

    received: dict[int, int]
    pays_on: tuple[int, ...]
    chance: Fraction
    cards_per_roll: Fraction
    production: Fraction
    with_aqueduct: Fraction
    holds: bool | None = None

    def within(self, k: int) -> Fraction:
        """P(the Aqueduct pays at least once in ``k`` rolls)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k is a number of rolls (0 or more), not {k!r}")
        return 1 - (1 - self.chance) ** k


def _aqueduct(received: dict[int, int], pays_on: Iterable[int], holds: bool | None) -> AqueductOdds:
    pays = tuple(sorted(pays_on))
    chance = sum((roll_probability(t) for t in pays), Fraction(0))
    production = sum((roll_probability(t) * k for t, k in received.items()), Fraction(0))
    return AqueductOdds(dict(sorted(received.items())), pays, chance, chance, production, production + chance, holds)


def aqueduct_odds(source: Iterable[tuple[int | None, int]] | "Game", seat: int | None = None) -> AqueductOdds:
    """How often the Aqueduct pays a player, exactly (CK-IMP-3).

    Parameters
    ----------
    source : Game or iterable of (token, cards) pairs
        A Cities & Knights game, with ``seat``; or what a player's buildings collect, one pair per
        (hex, building): the hex's number token (``None`` for none) and the cards it gives (1 for a
        settlement, 2 for a city).
    seat : int, optional
        The seat, for a game.

    Returns
    -------
    AqueductOdds

    Notes
    -----
    For a game, each total 2..12 is produced on a copy of the game by the engine itself
    (:meth:`~catan_nb.rules.game.Game.produce`: the robber's hex, the bank's limits, commodities,
    gold picks), and the engine's :func:`~catan_nb.rules.modules.cities_knights.aqueduct_seats` says
    whether the Aqueduct pays, with the seat counted as holding it (science level 3 or more; ``holds``
    tells whether it does now), so that a player can ask what reaching level 3 would bring.  The
    buildings are taken as they stand: a barbarian attack on the same roll is left out.  For pairs,
    the bank is taken to hold every card.

    Examples
    --------
    >>> aqueduct_odds([(5, 1), (9, 1), (None, 1)]).pays_on       # a 5 and a 9 (and the desert)
    (2, 3, 4, 6, 8, 10, 11, 12)
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
    >>> a = aqueduct_odds(g, 0)
    >>> a.holds, a.chance, a.with_aqueduct > a.production
    (False, Fraction(7, 18), True)
    """
    if hasattr(source, "produce") and hasattr(source, "copy"):
        game = source
        _ck_state(game)
        p = _seat(game, seat)
        science = TRACKS.index(Track.SCIENCE)
        holds = _ck_state(game)["levels"][p][science] >= ABILITY_LEVEL
        gold = any(m.name == GOLD_NAME for m in game.modules)
        received, pays = {_SEVEN: 0}, []
        for total in _TOTALS:
            if total == _SEVEN:
                continue
            c = game.copy()
            lv = _ck_state(c)["levels"][p]
            lv[science] = max(lv[science], ABILITY_LEVEL)  # as if the seat held the Aqueduct
            got = c.produce(total)
            received[total] = sum(got.get(p, ())) + (gold_owed(c, total).get(p, 0) if gold else 0)
            if p in aqueduct_seats(c, total):
                pays.append(total)
        return _aqueduct(received, pays, holds)
    if seat is not None:
        raise ValueError("seat goes with a game, not with (token, cards) pairs")
    received = dict.fromkeys(_TOTALS, 0)
    try:
        pairs = list(source)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"aqueduct_odds needs a game or (token, cards) pairs, not {source!r}") from None
    for pair in pairs:
        try:
            token, cards = pair
        except (TypeError, ValueError):
            raise ValueError(f"each building's hex is a (token, cards) pair, not {pair!r}") from None
        if isinstance(cards, bool) or not isinstance(cards, (int, np.integer)) or cards < 0:
            raise ValueError(f"cards is a whole number 0 or more, not {cards!r} in {pair!r}")
        if token is None:
            continue
        if isinstance(token, bool) or not isinstance(token, (int, np.integer)) or token not in received or token == _SEVEN:
            raise ValueError(f"a number token shows 2-6 or 8-12 (or None), not {token!r} in {pair!r}")
        received[int(token)] += int(cards)
    return _aqueduct(received, (t for t in _TOTALS if t != _SEVEN and not received[t]), None)


# ================================================================ gold fields (SF-1)
@dataclass(frozen=True)
class GoldOdds:
    """A seat's gold picks per roll (SF-1): 1 per settlement and 2 per city next to a rolled gold field.

    Attributes
    ----------
    by_total : dict of int to int
        Picks on each dice total that gives any.
    distribution : dict of int to Fraction
        P(exactly ``k`` picks on one roll).
    expected : Fraction
        Expected picks per roll.
    variance : Fraction
        Variance of the picks on one roll.
    p_any : Fraction
        P(at least one pick on a roll).
    """

    by_total: dict[int, int]
    distribution: dict[int, Fraction]
    expected: Fraction
    variance: Fraction
    p_any: Fraction


def gold_odds(game: "Game", seat: int) -> GoldOdds:
    """A seat's gold picks per roll in a game, exactly (SF-1), by the engine's
    :func:`~catan_nb.rules.modules.gold_fields.gold_owed`: the buildings as they stand, the robber's hex
    paying nothing (B-ROB-5).  The bank is taken to hold every card (B-COMP-14 aside).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> from catan_nb.rules.modules.gold_fields import gold_board
    >>> g = Game(gold_board(Board.beginner(), 4), seed=1, start="beginner", rules=Rules(modules=("gold_fields",)))
    >>> o = gold_odds(g, 0)                   # a settlement on the gold field with the 6
    >>> o.by_total, o.distribution, o.expected
    ({6: 1}, {0: Fraction(31, 36), 1: Fraction(5, 36)}, Fraction(5, 36))
    """
    p = _seat(game, seat)
    by_total = {t: k for t in _TOTALS if (k := gold_owed(game, t).get(p, 0))}
    dist: dict[int, Fraction] = {}
    for t in _TOTALS:
        k = by_total.get(t, 0)
        dist[k] = dist.get(k, Fraction(0)) + roll_probability(t)
    mean = sum((k * q for k, q in dist.items()), Fraction(0))
    second = sum((k * k * q for k, q in dist.items()), Fraction(0))
    return GoldOdds(by_total, dict(sorted(dist.items())), mean, second - mean * mean, 1 - dist.get(0, Fraction(0)))


# ================================================================ fog (SF-3)
_FOG_BY = ("resource", "terrain", "token", "tile")


def _fog_key(tile: tuple[Terrain, int | None], by: str):
    terrain, token = tile
    return {"resource": resource_name(terrain), "terrain": terrain, "token": token, "tile": tile}[by]


def _fog_counts(source, revealed, by: str) -> tuple[Counter, int]:
    if by not in _FOG_BY:
        raise ValueError(f"by is one of {', '.join(_FOG_BY)}, not {by!r}")
    tiles = fog_tiles(source)
    for t, k in revealed:
        tiles.remove((Terrain.parse(t), k))
    return Counter(_fog_key(t, by) for t in tiles), len(tiles)


def _order(key) -> tuple:
    """Kinds in a stable order: names and terrains alphabetically, tokens by value, ``None`` last."""
    if key is None:
        return (1, "", 0)
    if isinstance(key, tuple):
        return (0, str(key[0]), key[1] or 0)
    return (0, "", key) if isinstance(key, int) else (0, str(key), 0)


def fog_token_odds(source, revealed: Iterable[tuple[str | Terrain, int | None]] = ()) -> dict[int | None, Fraction]:
    """P(the next fog hex has each number token), ``None`` for a tile without one (SF-3).

    ``source`` is a board (then ``revealed`` lists the tiles already turned over) or a game (its
    revealed tiles are known), as for :func:`~catan_nb.analysis.seafarers.fog_odds`.

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
    >>> odds = fog_token_odds(Board.load(FOG_ISLANDS))
    >>> odds[10], sum(odds.values())
    (Fraction(1, 4), Fraction(1, 1))
    """
    counts, n = _fog_counts(source, revealed, "token")
    return {k: Fraction(c, n) for k, c in sorted(counts.items(), key=lambda kv: _order(kv[0]))} if n else {}


def fog_reveals_odds(source, k: int, revealed: Iterable[tuple[str | Terrain, int | None]] = (), *,
                     by: str = "resource") -> dict[tuple[tuple[Any, int], ...], Fraction]:
    """The distribution of what the next ``k`` fog reveals hold together (SF-3), drawn without
    replacement from the tiles still hidden: a multivariate hypergeometric law.

    Parameters
    ----------
    source : Board or Game
    k : int
        Reveals, 0 up to the tiles still hidden.
    revealed : iterable of (terrain, token)
        Tiles already turned over (for a board).
    by : {"resource", "terrain", "token", "tile"}
        What to count: the resource name (as
        :func:`~catan_nb.analysis.seafarers.fog_resource_odds`), the terrain, the token or the tile.

    Returns
    -------
    dict
        ``{((kind, count), ...): probability}``, the kinds with a count of at least 1, in order.

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
    >>> d = fog_reveals_odds(Board.load(FOG_ISLANDS), 2)
    >>> d[(("grain", 2),)], d[(("brick", 1), ("wool", 1))], sum(d.values())
    (Fraction(1, 28), Fraction(1, 28), Fraction(1, 1))

    Notes
    -----
    P(counts x) = prod C(c_i, x_i) / C(n, k) over the kinds, with ``c_i`` tiles of kind ``i`` among the
    ``n`` hidden; the number of outcomes is at most C(k + kinds - 1, k).
    """
    counts, n = _fog_counts(source, revealed, by)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= n:
        raise ValueError(f"k is a number of reveals 0..{n} (the tiles still hidden), not {k!r}")
    kinds = sorted(counts, key=_order)
    total = comb(n, k)
    out: dict[tuple[tuple[Any, int], ...], Fraction] = {}

    def walk(i: int, left: int, ways: int, chosen: tuple) -> None:
        if i == len(kinds):
            if left == 0:
                out[chosen] = Fraction(ways, total)
            return
        for x in range(min(left, counts[kinds[i]]) + 1):
            walk(i + 1, left - x, ways * comb(counts[kinds[i]], x), chosen + (((kinds[i], x),) if x else ()))

    walk(0, k, 1, ())
    return out


def fog_resource_within(source, kind: Any, k: int, revealed: Iterable[tuple[str | Terrain, int | None]] = (), *,
                        by: str = "resource") -> Fraction:
    """P(at least one of the next ``k`` fog reveals is of ``kind``) (SF-3): ``1 - C(n - c, k) / C(n, k)``.

    ``kind`` is a resource name by default (``"ore"``, ``"gold (any)"``, ``"nothing"``); with ``by`` a
    terrain, a token or a tile, as in :func:`fog_reveals_odds`.

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
    >>> b = Board.load(FOG_ISLANDS)
    >>> fog_resource_within(b, "ore", 1), fog_resource_within(b, "ore", 2), fog_resource_within(b, 8, 3, by="token")
    (Fraction(1, 4), Fraction(13, 28), Fraction(3, 8))
    """
    revealed = list(revealed)
    counts, n = _fog_counts(source, revealed, by)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= n:
        raise ValueError(f"k is a number of reveals 0..{n} (the tiles still hidden), not {k!r}")
    if by == "resource" and isinstance(kind, Resource):
        kind = str(kind)
    elif by == "terrain":
        kind = Terrain.parse(kind)
    return 1 - Fraction(comb(n - counts.get(kind, 0), k), comb(n, k))

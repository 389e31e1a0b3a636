"""When will the barbarians land?  The Cities & Knights ship track as a Markov chain (CK-BAR-4).

The event die shows a ship on three faces of six (CK-COMP-1), so each roll moves the barbarians'
ship one step with probability 1/2; after the 7th step they attack and the ship goes home.  The
position on the track is a Markov chain with an absorbing end: the number of rolls to an attack
follows a negative binomial law, which :func:`arrival_distribution` computes exactly by stepping the
chain, :func:`expected_rolls` by first-step analysis, and :func:`simulate_arrivals` /
:func:`engine_arrivals` check by simulation (the second with the rule engine's own event die).
:func:`arrival_negative_binomial` is the same law in closed form, and :func:`attack_within` the
chance that the attack comes within ``k`` rolls; each takes the ship's ``position`` on the track
(:func:`track_position` reads it from a game), so a table can ask "how soon from here?".

Examples
--------
>>> expected_rolls()
Fraction(14, 1)
>>> d = arrival_distribution()
>>> min(k for k, p in d.items() if p > 0), d[7] == Fraction(1, 2) ** 7
(7, True)
>>> attack_within(3, position=5)           # two steps to go: at least two ships in three rolls
Fraction(1, 2)
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

from ..rules.modules.cities_knights import BARBARIAN_TRACK, EVENT_FACES
from ..rules.modules.cities_knights import NAME as CK_NAME

__all__ = ["SHIP_CHANCE", "arrival_distribution", "expected_rolls", "rolls_for_chance", "simulate_arrivals",
           "engine_arrivals", "knights_to_hold", "arrival_negative_binomial", "attack_within", "track_position"]

#: CK-COMP-1: three ship faces out of six on the event die.
SHIP_CHANCE = Fraction(sum(1 for face in EVENT_FACES.values() if face is None), len(EVENT_FACES))


def _check_position(position: int, track: int) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < track:
        raise ValueError(f"the ship's position is a step 0..{track - 1} of the {track}-step track (CK-BAR-4), "
                         f"not {position!r}")
    return position


def track_position(game) -> int:
    """The steps the barbarians' ship has taken on the track in a Cities & Knights game (0 after an attack).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
    >>> track_position(g)
    0
    """
    st = getattr(game, "ext", {}).get(CK_NAME)
    if st is None:
        raise ValueError("the barbarians' track is Cities & Knights' (CK-BAR-4): the game does not play with "
                         f"the {CK_NAME!r} module")
    return st["barbarians"]


def arrival_distribution(track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE,
                         horizon: int = 80, *, position: int = 0) -> dict[int, Fraction]:
    """``P(the attack comes on roll k)`` for ``k = 1..horizon``, exact, by stepping the chain.

    The state is the ship's position ``0..track-1``; a roll moves it one step with probability
    ``p_ship``; from ``track - 1`` that step is the attack.  ``position`` is where the ship is now
    (the steps it has already taken, :func:`track_position`).

    Examples
    --------
    >>> arrival_distribution(horizon=3, position=6)      # one step to go: a geometric law
    {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 8)}
    """
    state = [Fraction(0)] * track
    state[_check_position(position, track)] = Fraction(1)
    out: dict[int, Fraction] = {}
    for k in range(1, horizon + 1):
        new = [Fraction(0)] * track
        hit = Fraction(0)
        for i, p in enumerate(state):
            if not p:
                continue
            new[i] += p * (1 - p_ship)
            if i + 1 == track:
                hit += p * p_ship
            else:
                new[i + 1] += p * p_ship
        out[k] = hit
        state = new
    return out


def expected_rolls(track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE, *, position: int = 0) -> Fraction:
    """Expected rolls from step ``position`` (the start by default) to an attack, by first-step analysis.

    From step ``i`` a roll costs 1 and leads to ``i + 1`` with probability ``p`` or stays:
    ``E[i] = 1 + p E[i+1] + (1 - p) E[i]``, so ``E[i] = 1/p + E[i+1]`` with ``E[track] = 0``.

    Examples
    --------
    >>> expected_rolls(position=4)          # three steps to go, two rolls a step
    Fraction(6, 1)
    """
    e = Fraction(0)
    for _ in range(track - _check_position(position, track)):
        e = 1 / p_ship + e
    return e


def arrival_negative_binomial(k: int, track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE, *,
                              position: int = 0) -> Fraction:
    """``P(the attack comes on roll k)`` in closed form: roll ``k`` brings the last of the ``s`` ships
    still to come (``s = track - position``), a negative binomial law
    ``C(k - 1, s - 1) p^s (1 - p)^(k - s)`` (0 for ``k < s``).

    The same numbers as :func:`arrival_distribution`, which steps the chain instead.

    Examples
    --------
    >>> arrival_negative_binomial(7) == Fraction(1, 2) ** 7, arrival_negative_binomial(6)
    (True, Fraction(0, 1))
    >>> all(arrival_negative_binomial(k) == p for k, p in arrival_distribution(horizon=30).items())
    True
    """
    s = track - _check_position(position, track)
    if k < s:
        return Fraction(0)
    return comb(k - 1, s - 1) * p_ship ** s * (1 - p_ship) ** (k - s)


def attack_within(k: int, position: int = 0, track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE) -> Fraction:
    """``P(the barbarians attack within the next k rolls)`` from step ``position`` of the track (CK-BAR-4).

    The chance of at least ``s = track - position`` ships in ``k`` rolls, a binomial tail; in a game,
    ``position`` is :func:`track_position` and the rolls are every player's.

    Examples
    --------
    >>> attack_within(14)                    # from the start, within the mean waiting time: more than half
    Fraction(2477, 4096)
    >>> attack_within(4, position=6)         # one step to go: 1 - (1/2)**4
    Fraction(15, 16)
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k is a number of rolls (0 or more), not {k!r}")
    s = track - _check_position(position, track)
    return sum((comb(k, j) * p_ship ** j * (1 - p_ship) ** (k - j) for j in range(s, k + 1)), Fraction(0))


def rolls_for_chance(chance: float, track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE, *,
                     position: int = 0) -> int:
    """The fewest rolls after which the attack has come with at least ``chance`` (from step ``position``)."""
    total = Fraction(0)
    for k, p in arrival_distribution(track, p_ship, horizon=400, position=position).items():
        total += p
        if total >= chance:
            return k
    raise ValueError(f"no horizon reaches {chance}")


def simulate_arrivals(n: int, seed: int, track: int = BARBARIAN_TRACK) -> list[int]:
    """Rolls to an attack in ``n`` simulated voyages of the ship, with a seeded event die."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        rolls = steps = 0
        while steps < track:
            rolls += 1
            if EVENT_FACES[rng.randint(1, 6)] is None:
                steps += 1
        out.append(rolls)
    return out


def engine_arrivals(rolls: int, seed: int) -> list[int]:
    """Rolls between attacks in a real Cities & Knights game of ``rolls`` rolls (the engine's own
    event die; every other decision answered with the first legal action, and turns ended at once)."""
    from ..board import Board
    from ..rules import EndTurn, Phase, RollDice, Rules
    from ..rules.game import Game

    g = Game(Board.beginner(), players=4, seed=seed, start="beginner", rules=Rules(modules=("cities_knights",)))
    st = g.ext["cities_knights"]
    out, since, attacks = [], 0, 0
    for _ in range(rolls):
        while g.phase is not Phase.ROLL:
            acts = g.legal_actions()
            g.play(EndTurn() if EndTurn() in acts else acts[0])
        g.play(RollDice())
        since += 1
        if st["attacks"] > attacks:
            attacks = st["attacks"]
            out.append(since)
            since = 0
    return out


def knights_to_hold(cities: int, others: int = 0) -> int:
    """CK-BAR-1, CK-BAR-2: the active knights' strength still needed for Catan to hold (a tie holds)
    when the board has ``cities`` cities and the other players bring ``others``."""
    return max(0, cities - others)

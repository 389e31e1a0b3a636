"""When will the barbarians land?  The Cities & Knights ship track as a Markov chain (CK-BAR-4).

The event die shows a ship on three faces of six (CK-COMP-1), so each roll moves the barbarians'
ship one step with probability 1/2; after the 7th step they attack and the ship goes home.  The
position on the track is a Markov chain with an absorbing end: the number of rolls to an attack
follows a negative binomial law, which :func:`arrival_distribution` computes exactly by stepping the
chain, :func:`expected_rolls` by first-step analysis, and :func:`simulate_arrivals` /
:func:`engine_arrivals` check by simulation (the second with the rule engine's own event die).

Examples
--------
>>> expected_rolls()
Fraction(14, 1)
>>> d = arrival_distribution()
>>> min(k for k, p in d.items() if p > 0), d[7] == Fraction(1, 2) ** 7
(7, True)
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..rules.modules.cities_knights import BARBARIAN_TRACK, EVENT_FACES

__all__ = ["SHIP_CHANCE", "arrival_distribution", "expected_rolls", "rolls_for_chance", "simulate_arrivals",
           "engine_arrivals", "knights_to_hold"]

#: CK-COMP-1: three ship faces out of six on the event die.
SHIP_CHANCE = Fraction(sum(1 for face in EVENT_FACES.values() if face is None), len(EVENT_FACES))


def arrival_distribution(track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE,
                         horizon: int = 80) -> dict[int, Fraction]:
    """``P(the attack comes on roll k)`` for ``k = 1..horizon``, exact, by stepping the chain.

    The state is the ship's position ``0..track-1``; a roll moves it one step with probability
    ``p_ship``; from ``track - 1`` that step is the attack.
    """
    state = [Fraction(0)] * track
    state[0] = Fraction(1)
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


def expected_rolls(track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE) -> Fraction:
    """Expected rolls from the start to an attack, by first-step analysis.

    From step ``i`` a roll costs 1 and leads to ``i + 1`` with probability ``p`` or stays:
    ``E[i] = 1 + p E[i+1] + (1 - p) E[i]``, so ``E[i] = 1/p + E[i+1]`` with ``E[track] = 0``.
    """
    e = Fraction(0)
    for _ in range(track):
        e = 1 / p_ship + e
    return e


def rolls_for_chance(chance: float, track: int = BARBARIAN_TRACK, p_ship: Fraction = SHIP_CHANCE) -> int:
    """The fewest rolls after which the attack has come with at least ``chance``."""
    total = Fraction(0)
    for k, p in arrival_distribution(track, p_ship, horizon=400).items():
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

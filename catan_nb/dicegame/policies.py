"""Simple Dice Game players, whole-game simulation and exact expected scores.

A policy is any object with ``choose(game) -> DiceAction`` returning a legal
action for ``game.current_player`` (the computer opponent of the dice table is
one).  The three here share one build planner and differ in how they keep dice:

- :class:`GreedyStopPolicy` never rerolls: it stops after the first roll;
- :class:`TargetPolicy` picks, at each roll, the target (a next structure, or a
  structure plus one it opens) with the best value times exact probability of
  reaching it (:mod:`.odds`), and keeps the best dice for it;
- :class:`RandomKeepPolicy` keeps a random subset of the dice (seeded).

After rolling, :func:`plan_builds` searches the build sequences the faces can
pay for (gold trades first, then knight swaps, DG-GOLD-2, DG-KNIGHT-1) and
plays the one worth most: points (normal game, avoiding the -2 cross) or VP
plus a little for roads and knights (Plus).

:func:`simulate_solitaire` plays seeded solitaire games and reports the mean
score with a 95% confidence interval; :func:`exact_expected_score` computes the
exact expectation of a deterministic policy over the first few turns by
enumerating every roll (the full 15 turns are out of reach: the sheet states
multiply).

Examples
--------
>>> from catan_nb.dicegame import DiceGame
>>> game = play_dice_game(DiceGame(players=1, seed=4), [TargetPolicy()])
>>> game.is_over, len(game.track[0])
(True, 15)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from .actions import Build, DiceAction, EndTurn, Roll, Stop, Swap, TradeGold
from .constants import NO_BUILD_PENALTY, TURNS, Kind, Variant
from .game import DiceGame, DicePhase
from .odds import Hand, solver, universe as _universe

__all__ = [
    "DicePolicy",
    "Plan",
    "plan_builds",
    "GreedyStopPolicy",
    "TargetPolicy",
    "RandomKeepPolicy",
    "play_dice_game",
    "Estimate",
    "simulate_solitaire",
    "exact_expected_score",
]

#: A swap spent now is a swap lost for later turns (DG-KNIGHT-1): plans pay this much per swap.
SWAP_PENALTY = 0.3


class DicePolicy(Protocol):
    """Anything that picks a legal action for the game's current player."""

    def choose(self, game: DiceGame) -> DiceAction: ...


# ============================================================================ build planning
@dataclass(frozen=True)
class Plan:
    """A sequence of steps for the rest of a turn and what it is worth.

    Steps are ``("gold", r)``, ``("swap", w, face, r)`` (swap number ``w`` turns a
    die showing ``face`` to resource ``r``) and ``("build", i)`` (structure index).
    """

    steps: tuple[tuple, ...]
    value: float
    points: int
    built: int
    swaps_used: int


def _build_value(game: DiceGame, i: int) -> float:
    sh = game.sheet
    kind = sh.kinds[i]
    if game.variant is Variant.PLUS:
        return sh.points[i] + (0.5 if kind in (Kind.ROAD, Kind.KNIGHT) else 0.0)
    return sh.points[i] + (0.05 if kind is Kind.ROAD else 0.0)


def _ready_swaps(sheet, built: int, used: int) -> list[int]:
    return [w for w, m in enumerate(sheet.swap_masks) if built & m == m and not used >> w & 1]


def _pay(sheet, pool: list[int], cost, built: int, used: int):
    """Pay ``cost`` from ``pool`` with gold pairs first, then swaps; None if impossible."""
    pool = list(pool)
    steps: list[tuple] = []
    deficit = [max(0, cost[r] - pool[r]) for r in range(5)]
    for r in range(5):
        while deficit[r] and pool[5] >= 2:
            steps.append(("gold", r))
            pool[5] -= 2
            pool[r] += 1
            deficit[r] -= 1
    if any(deficit):
        ready = _ready_swaps(sheet, built, used)
        for r in range(5):
            while deficit[r]:
                fixed = [w for w in ready if sheet.swaps[w].resource is not None and sheet.swaps[w].resource.value == r]
                anys = [w for w in ready if sheet.swaps[w].resource is None]
                if not (fixed or anys):
                    return None
                w = (fixed or anys)[0]
                # fodder: a gold die first, then the resource with the largest surplus
                if pool[5] > 0:
                    face = 5
                else:
                    surplus = [(pool[f] - cost[f], -f) for f in range(5) if f != r and pool[f] > cost[f]]
                    if not surplus:
                        return None
                    face = -max(surplus)[1]
                steps.append(("swap", w, face, r))
                ready.remove(w)
                used |= 1 << w
                pool[face] -= 1
                pool[r] += 1
                deficit[r] -= 1
    for r in range(5):
        pool[r] -= cost[r]
    return pool, steps, used


def plan_builds(game: DiceGame, hand: Hand | None = None, built: int | None = None, used: int | None = None) -> Plan:
    """The most valuable sequence of builds the unspent dice can pay for (current player).

    ``hand``, ``built`` and ``used`` default to the game's; pass them to plan
    for a hypothetical position (the exact enumerator does).

    Examples
    --------
    >>> from catan_nb.dicegame import DiceGame, Roll, Face
    >>> g = DiceGame(seed=1)
    >>> g.play(Roll(faces=(Face.BRICK, Face.GOLD, Face.GOLD, Face.ORE, Face.WOOL, Face.GRAIN)))
    >>> plan = plan_builds(g)          # two gold buy the lumber of settlement S3
    >>> plan.steps, g.sheet.ids(plan.built), plan.points
    ((('gold', 0), ('build', 17)), ['START', 'S3'], 3)
    """
    sh = game.sheet
    p = game.current
    hand = game.hand() if hand is None else hand
    built = game.built[p] if built is None else built
    used = game.swaps_used[p] if used is None else used
    normal = game.variant is Variant.NORMAL
    best: list = [(-1e9,)]

    def rec(pool, b, u, steps, value, points, nswaps, depth):
        score = value - SWAP_PENALTY * nswaps + (-NO_BUILD_PENALTY if normal and steps else 0)
        key = (round(score, 9), -len(steps))
        if key > best[0][:2]:
            best[0] = (*key, Plan(tuple(steps), score, points, b, u))
        if depth == 0:
            return
        for i in range(len(sh.structures)):
            if b >> i & 1 or sh.needs_mask[i] & ~b:
                continue
            paid = _pay(sh, pool, sh.costs[i], b, u)
            if paid is None:
                continue
            new_pool, conv, new_u = paid
            n_sw = sum(1 for s in conv if s[0] == "swap")
            rec(new_pool, b | 1 << i, new_u, steps + conv + [("build", i)], value + _build_value(game, i),
                points + sh.points[i], nswaps + n_sw, depth - 1)

    rec(list(hand), built, used, [], 0.0, 0, 0, 6)
    return best[0][2]


def _step_action(game: DiceGame, step: tuple) -> DiceAction:
    from ..constants import Resource

    if step[0] == "build":
        return Build(game.sheet.structures[step[1]].id)
    if step[0] == "gold":
        return TradeGold(Resource(step[1]))
    _, w, face, r = step
    die = next(d for d in game.unspent() if game.dice[d].value == face)
    return Swap(game.sheet.swaps[w].id, die, Resource(r))


class _Planner:
    """Shared build phase: follow the best plan, one action per call, then end the turn."""

    def __init__(self) -> None:
        self._plan_game: DiceGame | None = None
        self._plan_key: tuple | None = None
        self._steps: list[tuple] = []

    def _build_phase(self, game: DiceGame) -> DiceAction:
        # the rest of the plan is reused only for the very game and position it was made for
        if game is not self._plan_game or (game.turn, len(game.log)) != self._plan_key:
            self._steps = list(plan_builds(game).steps)
        if not self._steps:
            self._plan_game = self._plan_key = None
            return EndTurn()
        step = self._steps.pop(0)
        self._plan_game, self._plan_key = game, (game.turn, len(game.log) + 1)
        return _step_action(game, step)

    def keep_counts(self, game: DiceGame, hand: Hand, rolls_left: int) -> Hand:
        """The sub-hand to keep (``hand`` itself: stop).  Pure in (sheet state, hand, rolls left)."""
        raise NotImplementedError

    def choose(self, game: DiceGame) -> DiceAction:
        if game.phase is DicePhase.ROLL:
            if game.rolls == 0:
                return Roll()
            hand = game.hand()
            kept = self.keep_counts(game, hand, game.rolls_left)
            if kept == hand:
                return Stop()
            need = list(kept)
            keep = []
            for i, f in enumerate(game.dice):
                if need[f.value]:
                    need[f.value] -= 1
                    keep.append(i)
            return Roll(keep=tuple(keep))
        return self._build_phase(game)


class GreedyStopPolicy(_Planner):
    """Never reroll: stop after the first roll and build the most valuable plan.

    Examples
    --------
    >>> from catan_nb.dicegame import DiceGame
    >>> g = DiceGame(seed=2)
    >>> p = GreedyStopPolicy()
    >>> g.play(p.choose(g)); p.choose(g)
    Stop()
    """

    def keep_counts(self, game: DiceGame, hand: Hand, rolls_left: int) -> Hand:
        return hand


class RandomKeepPolicy(_Planner):
    """Keep each die with probability ``keep_rate`` (seeded), stop with probability ``stop_rate``."""

    def __init__(self, seed: int | random.Random | None = 0, keep_rate: float = 0.5, stop_rate: float = 0.2):
        super().__init__()
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.keep_rate = keep_rate
        self.stop_rate = stop_rate

    def keep_counts(self, game: DiceGame, hand: Hand, rolls_left: int) -> Hand:
        if self.rng.random() < self.stop_rate:
            return hand
        faces = [f for f in range(6) for _ in range(hand[f])]
        kept = [0] * 6
        for f in faces:
            if self.rng.random() < self.keep_rate:
                kept[f] += 1
        return hand if sum(kept) == sum(hand) else tuple(kept)  # type: ignore[return-value]


class TargetPolicy(_Planner):
    """Keep the best dice for the most promising target, by exact odds.

    At every keep decision the candidates are the structures buildable now and
    the pairs "a structure and one it opens" (a road and the settlement behind
    it, two roads in a row, the next two knights); each is scored by its value
    (points, plus 2 for avoiding the cross in the normal game) times the exact
    probability of reaching it with the remaining rolls, given the dice
    showing and the swaps available.  The dice kept are the best keep for the
    winner (:func:`catan_nb.dicegame.best_keep`).

    Parameters
    ----------
    use_swaps : bool
        Count available knight swaps in the odds (the planner uses them anyway).
    """

    def __init__(self, use_swaps: bool = True):
        super().__init__()
        self.use_swaps = use_swaps
        self._sheet = None
        self._cands: dict[tuple, list[tuple[float, tuple]]] = {}

    def candidates(self, game: DiceGame, built: int, used: int) -> list[tuple[float, tuple]]:
        """(value, cost) of every candidate target from a sheet state."""
        if game.sheet is not self._sheet:
            self._sheet, self._cands = game.sheet, {}
        key = (built, used)
        if key in self._cands:
            return self._cands[key]
        sh = game.sheet
        bonus = -NO_BUILD_PENALTY if game.variant is Variant.NORMAL else 0
        out: dict[tuple, float] = {}
        for i in range(len(sh.structures)):
            if built >> i & 1 or sh.needs_mask[i] & ~built:
                continue
            vi = _build_value(game, i)
            ci = sh.costs[i]
            out[ci] = max(out.get(ci, -1.0), vi + bonus)
            b2 = built | 1 << i
            for j in range(len(sh.structures)):
                if b2 >> j & 1 or sh.needs_mask[j] & ~b2 or not sh.needs_mask[j] >> i & 1:
                    continue
                cj = tuple(a + b for a, b in zip(ci, sh.costs[j]))
                out[cj] = max(out.get(cj, -1.0), vi + _build_value(game, j) + bonus)
        cands = sorted(((v, c) for c, v in out.items()), key=lambda t: (-t[0], t[1]))
        if len(self._cands) > 4096:
            self._cands.clear()
        self._cands[key] = cands
        return cands

    def target(self, game: DiceGame, hand: Hand, rolls_left: int, built: int | None = None, used: int | None = None):
        """The chosen (value, cost, solver) for these dice."""
        p = game.current
        built = game.built[p] if built is None else built
        used = game.swaps_used[p] if used is None else used
        swaps = [game.sheet.swaps[w] for w in _ready_swaps(game.sheet, built, used)] if self.use_swaps else []
        n = sum(hand)
        best = None
        for value, cost in self.candidates(game, built, used):
            s = solver(cost, n, swaps)
            score = value * s.probability(hand, rolls_left)
            if best is None or score > best[0]:
                best = (score, cost, s)
        return best

    def keep_counts(self, game: DiceGame, hand: Hand, rolls_left: int, built: int | None = None,
                    used: int | None = None) -> Hand:
        best = self.target(game, hand, rolls_left, built, used)
        if best is None or rolls_left == 0:
            return hand
        return best[2].best_kept(hand, rolls_left)


# ============================================================================ playing and simulating
def play_dice_game(game: DiceGame, policies: Sequence[DicePolicy], *, checked: bool = False,
                   max_actions: int = 100_000) -> DiceGame:
    """Let one policy per seat play until the game is over (or ``max_actions``)."""
    step = game.play if checked else game.apply
    for _ in range(max_actions):
        if game.is_over:
            break
        step(policies[game.current].choose(game))
    return game


@dataclass(frozen=True)
class Estimate:
    """A simulated mean with its 95% confidence interval (normal approximation)."""

    mean: float
    sd: float
    n: int
    low: float
    high: float

    def __contains__(self, x: float) -> bool:
        return self.low <= float(x) <= self.high

    def __str__(self) -> str:
        return f"{self.mean:.2f} (95% CI {self.low:.2f} to {self.high:.2f}, n={self.n})"


def _estimate(xs: Sequence[float]) -> Estimate:
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.959963984540054 * sd / math.sqrt(n)
    return Estimate(mean, sd, n, mean - half, mean + half)


def simulate_solitaire(
    policy: DicePolicy | Callable[[int], DicePolicy], games: int = 100, *, seed: int = 0, turns: int = TURNS,
) -> Estimate:
    """Mean solitaire score of a policy over seeded games (game ``i`` has seed ``seed + i``).

    ``policy`` may be a factory ``f(seed) -> policy`` (for seeded random
    policies).  ``turns`` < 15 scores only the first turns (for checking
    :func:`exact_expected_score`).

    Examples
    --------
    >>> est = simulate_solitaire(GreedyStopPolicy(), games=20, seed=1)
    >>> est.n, est.low <= est.mean <= est.high
    (20, True)
    """
    scores = []
    for g in range(games):
        pol = policy(seed + g) if callable(policy) and not hasattr(policy, "choose") else policy
        game = DiceGame(players=1, seed=seed + g)
        while not game.is_over and len(game.track[0]) < turns:
            game.apply(pol.choose(game))
        scores.append(game.score(0))
    return _estimate(scores)


def _final_distribution(policy, game: DiceGame, built: int, used: int) -> dict[int, int]:
    """Exact distribution of the final faces of one turn (full-hand index -> weight over 6**(3n))."""
    n = game.n_dice
    u = _universe(n)
    one = 6**n
    active = {i: wt * one * one for i, wt in u.transitions[u.empty]}  # first roll, scaled to 6**(3n)
    done: dict[int, int] = {}
    for rolls_left in (2, 1):
        nxt: dict[int, int] = {}
        for i, wt in active.items():
            hand = u.full[i]
            kept = policy.keep_counts(game, hand, rolls_left, built, used) if isinstance(policy, TargetPolicy) \
                else policy.keep_counts(game, hand, rolls_left)
            if kept == hand:  # stop: the faces are final (DG-ROLL-3)
                done[i] = done.get(i, 0) + wt
                continue
            base = wt // one
            for j, w2 in u.transitions[u.sub_index[kept]]:
                nxt[j] = nxt.get(j, 0) + base * w2
        active = nxt
    for i, wt in active.items():
        done[i] = done.get(i, 0) + wt
    return done


def exact_expected_score(policy: DicePolicy, turns: int = 1, *, max_states: int = 64) -> Fraction:
    """Exact expected solitaire score (normal game) of a deterministic policy over the first ``turns`` turns.

    Every roll outcome is enumerated (462 multisets per roll of six dice); the
    sheet states reached after each turn are carried with their exact
    probabilities.  Feasible for one or two turns: the number of states grows
    with every turn, and ``max_states`` stops the computation (``ValueError``)
    before it runs away.  Use :func:`simulate_solitaire` for whole games.

    Examples
    --------
    >>> round(float(exact_expected_score(GreedyStopPolicy(), turns=1)), 3)
    0.818
    """
    if isinstance(policy, RandomKeepPolicy):
        raise ValueError("exact expectations need a deterministic policy")
    game = DiceGame(players=1, seed=0)
    states: dict[tuple[int, int], Fraction] = {(game.built[0], 0): Fraction(1)}
    total = Fraction(0)
    u = _universe(game.n_dice)
    denom = 6 ** (3 * game.n_dice)
    for _ in range(turns):
        if len(states) > max_states:
            raise ValueError(f"{len(states)} sheet states exceed max_states={max_states}: simulate instead")
        nxt: dict[tuple[int, int], Fraction] = {}
        for (built, used), p in states.items():
            dist = _final_distribution(policy, game, built, used)
            acc: dict[tuple[int, int], int] = {}
            points = 0
            for i, wt in dist.items():
                plan = plan_builds(game, u.full[i], built, used)
                pts = plan.points if any(s[0] == "build" for s in plan.steps) else NO_BUILD_PENALTY
                points += wt * pts
                k = (plan.built, plan.swaps_used)
                acc[k] = acc.get(k, 0) + wt
            total += p * Fraction(points, denom)
            for k, wt in acc.items():
                nxt[k] = nxt.get(k, Fraction(0)) + p * Fraction(wt, denom)
        states = nxt
    return total

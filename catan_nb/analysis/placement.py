"""Placement value: an explained score for every intersection and every opening pair.

The score of a settlement (or of a pair of founding settlements) is a sum of
parts, each in "cards per roll" units so they can be compared:

``production``
    Expected cards per roll (pips / 36), times ``weights.production``.
``diversity``
    Number of different resources produced, times ``weights.diversity``.
``scarcity``
    Expected cards of each resource weighted by how rare that resource is on
    this board: ``sum_r E_r * (mean_pips / board_pips_r - 1)``, times
    ``weights.scarcity``.  Positive for the board's scarce resources, negative
    for plentiful ones.
``harbour``
    A 2:1 harbour pays ``weights.special_harbour`` times the expected cards of
    its own resource; a 3:1 harbour pays ``weights.generic_harbour`` times the
    expected cards of every resource.
``numbers``
    Number of different tokens touched (a spread of numbers pays more evenly),
    times ``weights.numbers``.

For a pair the parts are taken over both settlements together (the union of
their resources and numbers, the sum of their production), so a pair that
covers five resources beats two copies of the same good spot.

:func:`rank_openings` ranks the pairs a seat can found in snake order
(B-SETUP-15, B-SETUP-16): the seat's first pick, then the other seats' picks,
then its second.  The other seats are modelled as greedy by the same score
(``opponents="greedy"``), so only pairs whose second settlement is likely to
be still free are listed.  :func:`simulate_openings` checks the top pairs by
seeded bot playouts.

Examples
--------
>>> from catan_nb import Board
>>> board = Board.random(seed=3)
>>> rows = score_intersections(board)
>>> best = rows[0]
>>> best.score == best.production + best.diversity + best.scarcity + best.harbour + best.numbers
True
>>> pairs = rank_openings(board, seat=0, players=4)
>>> pairs[0].first in {r.node for r in rows}
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..board import Board, NodeId
from ..constants import RESOURCES, HarbourKind, Resource
from ..rules import BuildSettlement, Game, Phase, RollDice
from .bots import RandomBot, WeightedBot
from .probability import Estimate, estimate_mean, estimate_proportion
from .value_bot import ValueBot

__all__ = [
    "PlacementWeights",
    "PlacementScore",
    "OpeningPair",
    "OpeningSimulation",
    "founding_order",
    "score_intersections",
    "rank_openings",
    "simulate_openings",
    "placement_heat",
    "placement_figure",
]

_N_RES = len(RESOURCES)
_POP = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)
_PARTS = ("production", "diversity", "scarcity", "harbour", "numbers")


@dataclass(frozen=True)
class PlacementWeights:
    """Weights of the placement score's parts (all in cards-per-roll units).

    Parameters
    ----------
    production : float
        Per expected card per roll.  A pip is 1/36 = 0.028 cards per roll.
    diversity : float
        Per different resource produced (default 0.03, about one pip).
    scarcity : float
        Multiplies ``sum_r E_r * (mean_pips / board_pips_r - 1)``.
    special_harbour : float
        Per expected card per roll of a 2:1 harbour's own resource.
    generic_harbour : float
        Per expected card per roll of any resource, with a 3:1 harbour.
    numbers : float
        Per different number token touched.

    Examples
    --------
    >>> PlacementWeights(diversity=0.0).production
    1.0
    >>> PlacementWeights.production_only().scarcity
    0.0
    """

    production: float = 1.0
    diversity: float = 0.03
    scarcity: float = 1.0
    special_harbour: float = 0.5
    generic_harbour: float = 0.1
    numbers: float = 0.01

    @classmethod
    def production_only(cls) -> "PlacementWeights":
        """Score by expected cards per roll alone (every other part weighted 0)."""
        return cls(1.0, 0.0, 0.0, 0.0, 0.0, 0.0)


DEFAULT_WEIGHTS = PlacementWeights()


@dataclass(frozen=True, order=True)
class PlacementScore:
    """One intersection's placement score and the parts it is the sum of.

    Rows sort by score (then node); ``sorted(rows, reverse=True)`` is best first.
    """

    score: float
    node: NodeId
    production: float
    diversity: float
    scarcity: float
    harbour: float
    numbers: float
    pips: int
    resources: tuple[Resource, ...] = field(compare=False)
    tokens: tuple[int, ...] = field(compare=False)
    harbour_label: str | None = field(compare=False, default=None)

    def to_dict(self) -> dict[str, Any]:
        """A flat row for a table."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["node"] = int(self.node)
        d["resources"] = ", ".join(str(r) for r in self.resources)
        d["tokens"] = ", ".join(str(t) for t in self.tokens)
        return d


@dataclass(frozen=True, order=True)
class OpeningPair:
    """A seat's two founding settlements (``first`` placed first) and the pair's score.

    ``opponent_picks`` are the settlements the modelled opponents take between
    the two picks (empty with ``opponents="none"``).
    """

    score: float
    first: NodeId
    second: NodeId
    production: float
    diversity: float
    scarcity: float
    harbour: float
    numbers: float
    pips: int
    resources: tuple[Resource, ...] = field(compare=False)
    opponent_picks: tuple[NodeId, ...] = field(compare=False, default=())

    def to_dict(self) -> dict[str, Any]:
        """A flat row for a table."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["first"], d["second"] = int(self.first), int(self.second)
        d["resources"] = ", ".join(str(r) for r in self.resources)
        d["opponent_picks"] = ", ".join(str(v) for v in self.opponent_picks)
        return d


class NodeTable:
    """Per-intersection data derived once from a board, as numpy arrays."""

    def __init__(self, board: Board, weights: PlacementWeights):
        t = board.topology
        n = t.n_nodes
        self.board = board
        self.weights = weights
        self.n = n
        self.neighbours = t.node_neighbours
        pip = np.zeros((n, _N_RES), dtype=np.int64)
        tokmask = np.zeros(n, dtype=np.int64)
        for v in range(n):
            for h in t.node_hexes[v]:
                r, tok = t.hex_resource[h], t.hex_token[h]
                if r >= 0 and tok:
                    pip[v, r] += 6 - abs(7 - tok)
                    tokmask[v] |= 1 << tok
        self.pips = pip
        self.expected = pip / 36.0
        self.resmask = (pip > 0).astype(np.int64) @ (1 << np.arange(_N_RES, dtype=np.int64))
        self.tokmask = tokmask
        special = np.zeros((n, _N_RES), dtype=np.int64)
        generic = np.zeros(n, dtype=bool)
        for v, code in enumerate(t.node_harbour):
            if code is HarbourKind.GENERIC:
                generic[v] = True
            elif code is not None:
                special[v, RESOURCES.index(code)] = 1
        self.special = special
        self.generic = generic
        board_pips = np.zeros(_N_RES)
        for h in range(t.n_hexes):
            r, tok = t.hex_resource[h], t.hex_token[h]
            if r >= 0 and tok:
                board_pips[r] += 6 - abs(7 - tok)
        self.board_pips = board_pips
        mean = board_pips.sum() / _N_RES
        with np.errstate(divide="ignore", invalid="ignore"):
            self.rarity = np.where(board_pips > 0, mean / board_pips - 1.0, 0.0)
        self.single = self.parts(np.arange(n))
        # Greedy order: best single score first, ties by node id.
        self.greedy_order = [int(v) for v in np.lexsort((np.arange(n), -self.single[-1]))]

    def parts(self, a: np.ndarray, b: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """The five parts and the score for nodes ``a`` (or pairs ``a``, ``b``)."""
        w = self.weights
        if b is None:
            e, res, tok = self.expected[a], self.resmask[a], self.tokmask[a]
            special, generic = self.special[a], self.generic[a]
        else:
            e = self.expected[a] + self.expected[b]
            res = self.resmask[a] | self.resmask[b]
            tok = self.tokmask[a] | self.tokmask[b]
            special = np.minimum(self.special[a] + self.special[b], 1)
            generic = self.generic[a] | self.generic[b]
        total = e.sum(axis=1)
        production = w.production * total
        diversity = w.diversity * _POP[res]
        scarcity = w.scarcity * (e @ self.rarity)
        harbour = w.special_harbour * (e * special).sum(axis=1) + w.generic_harbour * (generic * total)
        numbers = w.numbers * _POP[tok]
        score = production + diversity + scarcity + harbour + numbers
        return production, diversity, scarcity, harbour, numbers, score

    def close(self, blocked: list[bool], v: int) -> None:
        blocked[v] = True
        for w in self.neighbours[v]:
            blocked[w] = True

    def greedy(self, blocked: list[bool], k: int) -> tuple[list[int], list[bool]]:
        """``k`` picks, each the best free intersection by single score (B-BUILD-7 respected)."""
        blocked = list(blocked)
        picks: list[int] = []
        if k <= 0:
            return picks, blocked
        for v in self.greedy_order:
            if not blocked[v]:
                picks.append(v)
                self.close(blocked, v)
                if len(picks) == k:
                    break
        return picks, blocked


def _resources(mask: int) -> tuple[Resource, ...]:
    return tuple(r for r in RESOURCES if mask >> r.value & 1)


def _board_and_game(source: Board | Game) -> tuple[Board, Game | None]:
    if isinstance(source, Board):
        return source, None
    if isinstance(source, Game):
        return source.board, source
    raise TypeError(f"need a Board or a Game, not {type(source).__name__}")


def _blocked(board: Board, game: Game | None) -> list[bool]:
    if game is None:
        return [False] * board.topology.n_nodes
    return [b > 0 for b in game.blocked]


def score_intersections(source: Board | Game, *, weights: PlacementWeights | None = None) -> list[PlacementScore]:
    """Score every intersection where a settlement may be founded, best first.

    Parameters
    ----------
    source : Board or Game
        On a board every intersection is scored; in a game only those the
        distance rule leaves free (B-BUILD-7, B-SETUP-17).  Road connection
        is not required, as in the founding phase.
    weights : PlacementWeights, optional

    Returns
    -------
    list of PlacementScore
        Best first; each row's parts sum to its score.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> board = Board.beginner()
    >>> len(score_intersections(board))
    54
    >>> game = Game(board, players=4, seed=0, start="beginner")
    >>> len(score_intersections(game)) < 54
    True

    Notes
    -----
    Per-intersection data is derived once (O(intersections)); the parts are
    numpy vector operations.
    """
    board, game = _board_and_game(source)
    tab = NodeTable(board, weights or DEFAULT_WEIGHTS)
    return _rows(tab, [v for v, b in enumerate(_blocked(board, game)) if not b])


def _rows(tab: NodeTable, nodes: Sequence[int]) -> list[PlacementScore]:
    t = tab.board.topology
    prod, div, scar, harb, num, score = (x.tolist() for x in tab.single)
    pips = tab.pips.sum(axis=1).tolist()
    rows = []
    for v in nodes:
        h = tab.board.graph.nodes[v]["harbour"]
        tokens = tuple(sorted(t.hex_token[x] for x in t.node_hexes[v] if t.hex_token[x]))
        rows.append(
            PlacementScore(
                score[v], NodeId(v), prod[v], div[v], scar[v], harb[v], num[v], int(pips[v]),
                _resources(int(tab.resmask[v])), tokens, None if h is None else h.label,
            )
        )
    rows.sort(key=lambda r: (-r.score, r.node))
    return rows


def founding_order(players: int, starting_seat: int = 0) -> tuple[int, ...]:
    """Seats in the order they found settlements: round 1 in turn order, round 2 reversed (B-SETUP-15, B-SETUP-16).

    Examples
    --------
    >>> founding_order(4)
    (0, 1, 2, 3, 3, 2, 1, 0)
    >>> founding_order(3, starting_seat=1)
    (1, 2, 0, 0, 2, 1)
    """
    if players < 1 or not 0 <= starting_seat < players:
        raise ValueError(f"starting_seat must be in 0..{players - 1}")
    order = [(starting_seat + i) % players for i in range(players)]
    return tuple(order + order[::-1])


def _founding_state(
    source: Board | Game, seat: int, players: int, starting_seat: int
) -> tuple[Board, Game | None, tuple[int, ...], list[int], int | None]:
    """Board, game, founding order, indices of the seat's remaining picks, its first settlement if placed."""
    board, game = _board_and_game(source)
    placed: list[int] = []
    if game is not None:
        if game.phase not in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
            raise ValueError(f"openings are ranked in the founding phase; this game is in {game.phase.value}")
        players, starting_seat = game.n, game.starting_seat
        placed = list(game.occupied)
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not in a {players}-player game")
    order = founding_order(players, starting_seat)
    done = len(placed)
    mine = [i for i in range(done, len(order)) if order[i] == seat]
    if not mine:
        raise ValueError(f"seat {seat} has placed both founding settlements")
    first = None
    if len(mine) == 1:
        first = next(v for v in placed if game is not None and game.node_owner[v] == seat)
    return board, game, order, [i - done for i in mine], first


def rank_openings(
    source: Board | Game,
    seat: int = 0,
    *,
    players: int = 4,
    starting_seat: int = 0,
    weights: PlacementWeights | None = None,
    opponents: str = "greedy",
    top: int | None = None,
) -> list[OpeningPair]:
    """Rank the founding pairs of ``seat`` in snake order by the placement score, best first.

    Parameters
    ----------
    source : Board or Game
        A board (nothing placed yet), or a game in its founding phase (the
        settlements already placed are respected; if ``seat`` has placed its
        first settlement, only its second is chosen).
    seat : int
        The seat whose openings are ranked.
    players, starting_seat : int
        Used with a board (a game has its own).
    weights : PlacementWeights, optional
    opponents : {"greedy", "none"}
        ``"greedy"``: every other seat takes the best free intersection by
        single score when its turn comes, so the first pick must survive the
        seats before it and the second pick the ``2 * (players - 1 - k)``
        picks between (k = the seat's place in the order).  ``"none"``: every
        pair of intersections free now and not adjacent, each listed once
        (``first < second``).
    top : int, optional
        Keep only the best ``top`` pairs.

    Returns
    -------
    list of OpeningPair
        Best first; each pair's parts sum to its score.

    Examples
    --------
    >>> from catan_nb import Board
    >>> pairs = rank_openings(Board.beginner(), seat=3, players=4)
    >>> p = pairs[0]
    >>> p.second in p.opponent_picks, len(p.opponent_picks)   # seat 3 picks twice in a row
    (False, 0)
    >>> len(rank_openings(Board.beginner(), seat=0, players=4)[0].opponent_picks)
    6

    Notes
    -----
    Exact enumeration: O(intersections^2) pairs, scored with numpy in one pass.
    """
    if opponents not in ("greedy", "none"):
        raise ValueError(f"opponents must be 'greedy' or 'none', not {opponents!r}")
    board, game, order, mine, fixed_first = _founding_state(source, seat, players, starting_seat)
    tab = NodeTable(board, weights or DEFAULT_WEIGHTS)
    blocked = _blocked(board, game)
    greedy = opponents == "greedy"
    if greedy:
        _, blocked = tab.greedy(blocked, mine[0])
    a_list: list[int] = []
    b_list: list[int] = []
    opp: list[tuple[NodeId, ...]] = []
    if fixed_first is not None:
        firsts = [fixed_first]
        between = 0
    else:
        firsts = [v for v in range(tab.n) if not blocked[v]]
        between = mine[1] - mine[0] - 1 if greedy else 0
    for a in firsts:
        after = list(blocked)
        if fixed_first is None:
            tab.close(after, a)
        picks, after = tab.greedy(after, between)
        picks_t = tuple(NodeId(v) for v in picks)
        for b in range(tab.n):
            if after[b] or (not greedy and fixed_first is None and b < a):
                continue
            a_list.append(a)
            b_list.append(b)
            opp.append(picks_t)
    if not a_list:
        return []
    A, B = np.array(a_list), np.array(b_list)
    prod, div, scar, harb, num, score = tab.parts(A, B)
    pips = (tab.pips[A] + tab.pips[B]).sum(axis=1)
    res = tab.resmask[A] | tab.resmask[B]
    idx = np.lexsort((B, A, -score))
    if top is not None:
        idx = idx[:top]
    cols = [x.tolist() for x in (prod, div, scar, harb, num, score, pips, res)]
    prod_l, div_l, scar_l, harb_l, num_l, score_l, pips_l, res_l = cols
    return [
        OpeningPair(
            score_l[i], NodeId(a_list[i]), NodeId(b_list[i]), prod_l[i], div_l[i], scar_l[i], harb_l[i], num_l[i],
            int(pips_l[i]), _resources(res_l[i]), opp[i],
        )
        for i in idx.tolist()
    ]


# ============================================================== simulation
@dataclass(frozen=True)
class OpeningSimulation:
    """Seeded bot playouts after a seat founds ``first`` and ``second``.

    Attributes
    ----------
    first, second : NodeId
    heuristic : float or None
        The pair's placement score, when it came from :func:`rank_openings`.
    win_rate : Estimate
        Share of playouts the seat won, with its Wilson interval.
    vp : Estimate
        The seat's mean victory points at the end, with its t interval.
    playouts : int
    unfinished : int
        Playouts stopped at ``max_turns`` with no winner (counted as not won).
    fallbacks : int
        Playouts where a planned settlement was taken first and the seat took
        the best free intersection instead.
    wins, vps : tuple
        Each playout's result (won or not; the seat's VP at the end), in seed
        order: playout ``j`` of every pair of one call used the same seeds and
        the same dice, so results of two pairs can be compared playout by
        playout (:func:`~catan_nb.analysis.probability.paired_difference`).
    """

    first: NodeId
    second: NodeId
    heuristic: float | None
    win_rate: Estimate
    vp: Estimate
    playouts: int
    unfinished: int
    fallbacks: int
    wins: tuple[bool, ...] = ()
    vps: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": int(self.first),
            "second": int(self.second),
            "heuristic": self.heuristic,
            "win_rate": self.win_rate.estimate,
            "win_low": self.win_rate.low,
            "win_high": self.win_rate.high,
            "vp": self.vp.estimate,
            "vp_low": self.vp.low,
            "vp_high": self.vp.high,
            "playouts": self.playouts,
            "unfinished": self.unfinished,
            "fallbacks": self.fallbacks,
        }


_BOTS: dict[str, Callable[[int], Any]] = {"weighted": WeightedBot, "random": RandomBot, "value": ValueBot}
#: The bots behind the names (catan_nb.fast plays these, and only while _BOTS still maps to them).
_DEFAULT_BOTS = dict(_BOTS)


def _fresh_game(board: Board, game: Game | None, players: int, starting_seat: int, seed: int) -> Game:
    if game is None:
        return Game(board, players=players, seed=seed, starting_seat=starting_seat)
    g = Game(board, players=game.n, seed=seed, rules=game.rules, starting_seat=game.starting_seat, colours=game.colours)
    for a in game.log:  # founding actions carry no chance: the replay is exact
        g.apply(a)
    return g


#: Mixed into a playout's game seed to seed its dice, a stream of their own (common random numbers).
_DICE_STREAM = 0x5EED_D1CE


def _opening_game(job: tuple) -> tuple[Game, bool]:
    """The game of one playout of :func:`simulate_openings`, played out, and whether the seat fell back.

    The dice come from their own generator, seeded by the game seed: the k-th roll of playout j
    is the same whatever the opening, even after the openings have led to different cards,
    trades and steals (which draw on the game's generator).
    """
    g, bots, fell_back = _opening_founding(job)
    max_turns, game_seed = job[11], job[12]
    dice = random.Random(game_seed ^ _DICE_STREAM)
    while not g.is_over and (max_turns is None or g.turn <= max_turns):
        a = bots[g.current_player].choose(g)
        if isinstance(a, RollDice) and a.dice is None:
            a = RollDice(tuple(dice.randint(1, 6) for _ in range(g.n_dice)))
        g.apply(a)
    return g, fell_back


def _opening_founding(job: tuple) -> tuple[Game, list, bool]:
    """The founding of one playout: the game after it, the bots, and whether the seat fell back."""
    (board, game, n, starting_seat, seat, first, second, second_only, opponents, bot, weights, max_turns,
     game_seed, bot_seeds, _) = job
    make_bot = _BOTS[bot] if isinstance(bot, str) else bot
    tab = NodeTable(board, weights or DEFAULT_WEIGHTS)
    g = _fresh_game(board, game, n, starting_seat, game_seed)
    bots = [make_bot(s) for s in bot_seeds]
    todo = [second] if second_only else [first, second]
    fell_back = False
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        p = g.current_player
        if g.phase is Phase.FOUNDING_ROAD or (p != seat and opponents == "bot"):
            g.apply(bots[p].choose(g))
            continue
        if p == seat:
            v = todo.pop(0)
            if g.blocked[v]:
                v, fell_back = next(w for w in tab.greedy_order if not g.blocked[w]), True
        else:
            v = next(w for w in tab.greedy_order if not g.blocked[w])
        g.apply(BuildSettlement(v))
    return g, bots, fell_back


def _use_fast(board: Board, game: Game | None, n: int, bot: Any, playouts: int) -> bool:
    """Whether the playouts play on in the compiled simulator after their founding: numba installed,
    a bot named ``"weighted"``, ``"random"`` or ``"value"``, rules it covers, and a job worth it
    (:func:`catan_nb.fast.wanted`)."""
    if not isinstance(bot, str) or _BOTS.get(bot) is not _DEFAULT_BOTS.get(bot):
        return False
    from .. import fast

    if bot not in fast.EXACT_POLICIES:
        return False
    rules = game.rules if game is not None else None  # None: the board's own (a scenario's modules, SF-13)
    if fast.covered(rules, n, board=board) is not None:
        return False
    return fast.wanted(fast.engine_seconds(playouts, bot, n), "play_from")


def _opening_playout(job: tuple) -> tuple[bool, bool, bool, int]:
    """One playout of :func:`simulate_openings`: (won, unfinished, fell back, VP at the end).

    After the founding, the compiled simulator plays the game on when it can (numba installed,
    a bot named ``"weighted"``, ``"random"`` or ``"value"``, rules it covers): its games are the
    engine's, draw for draw (:func:`catan_nb.fast.play_on`), so the result is the same."""
    seat, bot, max_turns, game_seed, use_fast = job[4], job[9], job[11], job[12], job[14]
    if use_fast:
        from .. import fast

        g, bots, fell_back = _opening_founding(job)
        end = fast.play_on(g, bot, bots=bots, rng=game_seed, dice=game_seed ^ _DICE_STREAM, max_turns=max_turns)
        winner = end["winner"]
        return winner == seat, winner is None, fell_back, end["vp"][seat]
    g, fell_back = _opening_game(job)
    return g.winner == seat, g.winner is None, fell_back, g.vp(seat)


def simulate_openings(
    source: Board | Game,
    seat: int = 0,
    *,
    pairs: Iterable[tuple[int, int]] | None = None,
    top: int = 3,
    playouts: int = 20,
    players: int = 4,
    starting_seat: int = 0,
    seed: int = 0,
    bot: str | Callable[[int], Any] = "weighted",
    opponents: str = "greedy",
    weights: PlacementWeights | None = None,
    max_turns: int = 400,
    confidence: float = 0.95,
    progress: bool = True,
    client: Any = None,
) -> list[OpeningSimulation]:
    """Estimate how well ``seat`` does after founding each of a few pairs, by seeded bot playouts.

    Parameters
    ----------
    source : Board or Game
        As for :func:`rank_openings`.
    seat : int
    pairs : iterable of (first, second), optional
        Pairs to try; by default the ``top`` pairs of :func:`rank_openings`.
    top : int
    playouts : int
        Games per pair (keep it small in a lesson: 20 games give an interval
        of about +-0.2 on a win rate).
    players, starting_seat : int
        Used with a board.
    seed : int
        Every game seed, bot seed and dice seed comes from it.  Each pair is
        played with the same game, bot and dice seeds (common random numbers):
        playout ``j`` rolls the same dice in the same order after every pair,
        so differences between pairs are not just different dice.  Compare
        two pairs playout by playout (``wins``, ``vps``; see
        :func:`~catan_nb.analysis.probability.paired_difference`).
    bot : {"weighted", "random", "value"} or callable
        The bots that play every seat after the founding settlements (and
        place every founding road); a callable takes a seed and returns a bot.
        ``"value"`` (:class:`~catan_nb.analysis.value_bot.ValueBot`) ranks the
        openings by good play; ``"random"`` by play that ignores the board.
    opponents : {"greedy", "bot"}
        How the other seats found their settlements: the best free
        intersection by placement score (as :func:`rank_openings` assumes), or
        the bot's choice.
    weights : PlacementWeights, optional
    max_turns : int
        A playout with no winner after this many turns counts as not won.
    confidence : float
    progress : bool
        Show a tqdm progress bar.
    client : dask.distributed.Client or concurrent.futures.Executor, optional
        Run the playouts there (a Dask cluster, or a process pool); the results are
        identical to a run in this process, playout for playout.  ``bot`` must then be
        a name or a picklable callable.

    Returns
    -------
    list of OpeningSimulation
        Highest win rate first.

    Examples
    --------
    >>> from catan_nb import Board
    >>> rows = simulate_openings(Board.beginner(), seat=0, top=1, playouts=2, progress=False, max_turns=40)
    >>> rows[0].playouts, 0 <= rows[0].win_rate.low <= rows[0].win_rate.high <= 1
    (2, True)
    """
    from tqdm.auto import tqdm  # imported here: tqdm.auto may pull in notebook widgets

    if opponents not in ("greedy", "bot"):
        raise ValueError(f"opponents must be 'greedy' or 'bot', not {opponents!r}")
    if isinstance(bot, str) and bot not in _BOTS:
        raise ValueError(f"unknown bot {bot!r}; expected one of {', '.join(_BOTS)} or a callable")
    board, game, order, mine, fixed_first = _founding_state(source, seat, players, starting_seat)
    n = game.n if game is not None else players
    heuristic: dict[tuple[int, int], float] = {}
    if pairs is None:
        ranked = rank_openings(source, seat, players=players, starting_seat=starting_seat, weights=weights, top=top)
        plan = [(int(p.first), int(p.second)) for p in ranked]
        heuristic = {pair: p.score for pair, p in zip(plan, ranked)}
    else:
        plan = [(int(a), int(b)) for a, b in pairs]
    rng = np.random.default_rng(seed)
    game_seeds = rng.integers(0, 2**62, size=playouts).tolist()
    bot_seeds = rng.integers(0, 2**62, size=(playouts, n)).tolist()
    use_fast = _use_fast(board, game, n, bot, len(plan) * playouts)
    jobs = [(board, game, n, starting_seat, seat, first, second, fixed_first is not None, opponents, bot,
             weights, max_turns, game_seeds[j], bot_seeds[j], use_fast) for first, second in plan for j in range(playouts)]
    desc = f"openings of seat {seat}"
    if client is None:
        results = [_opening_playout(job) for job in tqdm(jobs, desc=desc, disable=not progress)]
    elif hasattr(client, "gather"):  # a Dask client: futures, then gather (in job order)
        results = client.gather(client.map(_opening_playout, jobs, pure=False))
    else:  # a concurrent.futures executor
        results = list(tqdm(client.map(_opening_playout, jobs), total=len(jobs), desc=desc, disable=not progress))
    out = []
    for k, (first, second) in enumerate(plan):
        rows = results[k * playouts:(k + 1) * playouts]
        wins = sum(r[0] for r in rows)
        unfinished = sum(r[1] for r in rows)
        fallbacks = sum(r[2] for r in rows)
        vps = [r[3] for r in rows]
        label = f"seat {seat} founds {first}+{second}"
        out.append(
            OpeningSimulation(
                NodeId(first), NodeId(second), heuristic.get((first, second)),
                estimate_proportion(wins, playouts, label=f"P(win | {label})", confidence=confidence, simulated=True),
                estimate_mean(vps, label=f"VP at the end | {label}", confidence=confidence, simulated=True),
                playouts, unfinished, fallbacks, tuple(bool(r[0]) for r in rows), tuple(int(v) for v in vps),
            )
        )
    out.sort(key=lambda r: (-r.win_rate.estimate, -r.vp.estimate, r.first, r.second))
    return out


# ============================================================== heat map
_HEAT_TITLES = {
    "score": "placement score",
    "production": "cards/roll",
    "diversity": "resource diversity",
    "scarcity": "scarcity bonus",
    "harbour": "harbour synergy",
    "numbers": "number diversity",
    "pips": "pips",
    "opening": "best opening pair",
}


def placement_heat(
    source: Board | Game, metric: str = "score", *, seat: int = 0, players: int = 4, weights: PlacementWeights | None = None
) -> dict[int, float]:
    """A value per intersection for a heat map.

    Parameters
    ----------
    source : Board or Game
    metric : str
        ``"score"`` or one of its parts (``"production"``, ``"diversity"``,
        ``"scarcity"``, ``"harbour"``, ``"numbers"``), ``"pips"``, or
        ``"opening"``: the score of the best pair of ``seat`` that starts on the
        intersection (see :func:`rank_openings`).
    seat, players : int
        For ``"opening"``.
    weights : PlacementWeights, optional

    Returns
    -------
    dict of int to float
        Only intersections where a settlement may be founded.

    Examples
    --------
    >>> from catan_nb import Board
    >>> heat = placement_heat(Board.beginner(), "pips")
    >>> max(heat.values())
    11.0
    """
    if metric not in _HEAT_TITLES:
        raise ValueError(f"unknown metric {metric!r}; expected one of {', '.join(_HEAT_TITLES)}")
    if metric == "opening":
        heat: dict[int, float] = {}
        for p in rank_openings(source, seat, players=players, weights=weights):
            heat.setdefault(int(p.first), p.score)  # best first: the first hit is the best pair
        return heat
    return {int(r.node): float(getattr(r, metric)) for r in score_intersections(source, weights=weights)}


def placement_figure(
    source: Board | Game,
    metric: str = "score",
    *,
    seat: int = 0,
    players: int = 4,
    weights: PlacementWeights | None = None,
    **figure_kwargs: Any,
) -> Any:
    """The board figure (a ``plotly.graph_objects.Figure``) with intersections coloured by a placement metric.

    ``board_figure(source, heat=placement_heat(...), heat_title=...)``; extra
    keyword arguments go to :func:`catan_nb.viz.board_figure`.

    Examples
    --------
    >>> from catan_nb import Board
    >>> fig = placement_figure(Board.beginner(), "production")
    >>> fig.data[0] is not None
    True
    """
    from ..viz import board_figure  # the analysis layer imports the viz layer only here

    heat = placement_heat(source, metric, seat=seat, players=players, weights=weights)
    title = _HEAT_TITLES[metric] + (f" (seat {seat})" if metric == "opening" else "")
    figure_kwargs.setdefault("heat_title", title)
    return board_figure(source, heat=heat, **figure_kwargs)

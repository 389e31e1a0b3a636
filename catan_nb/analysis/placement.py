"""Placement value: an explained score for every intersection and every opening pair, in every rule module.

The score of a spot (or of a seat's two founding buildings) is a sum of parts, each in "cards per
roll" units so they can be compared.  What a spot yields comes from one model shared with the bots
(:class:`~catan_nb.analysis.spots.SpotTable`): the engine's yields per piece, and what the game's
rule modules declare in their bot features (a gold field's pick, a fog hex's expectation, island
and harbour points, Catan tokens to reach), so the score names no module.

``production``
    Expected resource cards per roll, times ``weights.production``, and the picks of one's choice per roll
    (a gold field, SF-1) times ``weights.gold``, their worth in cards (by default
    :data:`~catan_nb.analysis.spots.GOLD_WORTH`, the bots' own).
``commodities``
    Expected commodity cards per roll (a Cities & Knights city, CK-COM-2), times ``weights.commodities``.
``diversity``
    Number of different resources produced, times ``weights.diversity``.
``sets``
    The cards of the purchases a player makes most: ``weights.roads`` times the lesser of lumber and
    brick per roll, ``weights.cities`` times the lesser of ore and grain, ``weights.cards`` times the
    least of ore, grain and wool (a pick of one's choice shared among a set's cards); and
    ``weights.pace`` times how soon the spot's cards pay for a settlement and a city together, trading
    what is left over at its harbours' rates (:func:`pace`); for a pair, ``weights.city_goods`` times its
    cards of the resources a city costs (ore and grain, B-BUILD-1; a pick of one's choice counts as one).
``scarcity``
    Expected cards of each resource weighted by how rare that resource is on
    this board: ``sum_r E_r * (mean_supply / supply_r - 1)``, times
    ``weights.scarcity``.  Positive for the board's scarce resources, negative
    for plentiful ones.
``harbour``
    A 2:1 harbour pays ``weights.special_harbour`` times the expected cards of
    its own resource; a 3:1 harbour pays ``weights.generic_harbour`` times the
    expected cards of every resource.
``numbers``
    Number of different tokens touched (a spread of numbers pays more evenly),
    times ``weights.numbers``.
``bonus``
    Victory points settling the spot earns beyond production (a foreign island's special points,
    SF-13; harbour points toward the Harbour Master, SF-14), times ``weights.bonus``.
``targets``
    Victory points worth reaching from the spot (a Catan token, SC-10; treasure, SF-4; a fog hex to
    reveal, SF-3), discounted by the path pieces still to build, times ``weights.targets``.

A pair adds two parts:

``start``
    Cards the second founding building brings at once (B-SETUP-19), times ``weights.start``.
``room``
    Room to grow once everyone has founded: the free founding sites two path steps from the pair
    (where the next settlement can go, B-BUILD-7), times ``weights.room``, and how far apart the two
    buildings stand (steps between neighbouring intersections, at most 4), times ``weights.apart``; and the
    frontier: the settlement cards per roll of every free founding site the pair reaches in fewer path steps
    than any rival's building does, halved for each step beyond two (``weights.frontier``).
``rivals``
    What the modelled opponents found instead (the strongest rival's own founding score,
    ``weights.rival_best``: a seat wins by outscoring the best of the others; the average rival's
    production, ``weights.rivals``, 0 by default, and resources), with a minus sign: a first pick that takes a rich spot from the others counts.  Two more
    terms read the whole founding: the pair's cards from hexes a rival also touches (``weights.shared``, minus: one
    robber hurts both, and the rival wants the same cards), and the pair's cards of each resource
    weighted by how rare the founding left it (``weights.market``: ``sum_r E_r * (mean_T / T_r - 1)``,
    ``T_r`` every founding building's cards of resource ``r``).
``position``
    The value bot's own worth of the seat's position once every seat has founded, less the best rival's
    (:func:`~catan_nb.analysis.value_bot.position_value`: the one model of every module's features that the
    bots play by), times ``weights.position``.  The founding is played as a playout plays it; one bot
    evaluation per pair, so :func:`rank_openings` works it out for the best :data:`POSITION_SHORTLIST` pairs by
    the other parts only, and ranks those first.  Weighed 0 everywhere: measured, it ordered the top 20
    worse (the README has the figures); :func:`opening_terms` reports it for a fit.

For a pair the parts are taken over both buildings together (the union of their resources and
numbers, the sum of their production, each with the piece the founding places: a settlement, then a
city in Cities & Knights, CK-SETUP-1), so a pair that covers five resources beats two copies of the
same good spot.  The default weights were fitted to value-bot playouts (``benchmarks/placement_fit.py``;
the measured agreement is in the README); a rule module may change them where it changes what matters
(:attr:`~catan_nb.analysis.bot_features.ModuleFeatures.placement_weights`).

:func:`rank_openings` ranks the pairs a seat can found in snake order
(B-SETUP-15, B-SETUP-16): the seat's first pick, then the other seats' picks,
then its second.  The other seats are modelled as greedy by the same score
(``opponents="greedy"``), so only pairs whose second building is likely to
be still free are listed.  :func:`simulate_openings` checks the top pairs by
seeded bot playouts of the game's own rules.

A :class:`~catan_nb.board.Board` is studied with the rules its file names (:meth:`Rules.for_board
<catan_nb.rules.Rules.for_board>`); a :class:`~catan_nb.rules.Game` with its own.

Examples
--------
>>> from catan_nb import Board
>>> board = Board.random(seed=3)
>>> rows = score_intersections(board)
>>> best = rows[0]
>>> abs(best.score - sum(best.parts.values())) < 1e-12
True
>>> pairs = rank_openings(board, seat=0, players=4)
>>> pairs[0].first in {r.node for r in rows}
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import reduce
from operator import or_
from typing import Any

import numpy as np

from ..board import Board, NodeId
from ..constants import RESOURCES, Resource
from ..rules import BuildCity, BuildSettlement, Game, Phase, RollDice, Rules
from .bot_features import features_for
from .bots import RandomBot, WeightedBot
from .probability import Estimate, estimate_mean, estimate_proportion
from .spots import GOLD_WORTH, SPOT_VP, SpotTable, steps_within
from .value_bot import ValueBot, position_value
from .waiting import BANK_RATE, GENERIC_RATE, SPECIAL_RATE

__all__ = [
    "PlacementWeights",
    "PlacementScore",
    "OpeningPair",
    "OpeningSimulation",
    "StoredOpenings",
    "stored_openings",
    "SPOT_PARTS",
    "PAIR_PARTS",
    "PLACEMENT_METRICS",
    "founding_order",
    "opening_terms",
    "seat_terms",
    "pace",
    "placement_weights",
    "study_game",
    "score_intersections",
    "rank_openings",
    "simulate_openings",
    "placement_heat",
    "placement_figure",
]

_N_RES = len(RESOURCES)
_POP = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)
#: The parts of a spot's score, in the order tables show them.
SPOT_PARTS = ("production", "commodities", "diversity", "sets", "scarcity", "harbour", "numbers", "bonus", "targets")
#: The parts of an opening pair's score: a spot's, then the founding's own.
PAIR_PARTS = SPOT_PARTS + ("start", "room", "rivals", "position")
#: The terms (:class:`PlacementWeights` fields) each part sums, each times its weight.
PART_TERMS = {
    "production": ("production", "gold"), "commodities": ("commodities",), "diversity": ("diversity",),
    "sets": ("roads", "cities", "cards", "city_goods", "pace"), "scarcity": ("scarcity",), "harbour": ("special_harbour", "generic_harbour"),
    "numbers": ("numbers",), "bonus": ("bonus",), "targets": ("targets",), "start": ("start",),
    "room": ("room", "apart", "frontier"), "rivals": ("rivals", "rival_diversity", "rival_best", "shared", "market"),
    "position": ("position",),
}
#: The terms that read the whole founding (the others' buildings); a seat's own founding score leaves them out.
FOUNDING_WIDE = ("room", "rivals", "rival_diversity", "rival_best", "shared", "market", "position", "frontier")
#: The ``frontier`` term's reach: sites up to ``FRONTIER_CAP - 1`` path steps from a founding building count.
FRONTIER_CAP = 6
#: How many pairs, the best by every other part, :func:`rank_openings` weighs the ``position`` term for (a bot
#: evaluation of a played founding each, where the other terms are arithmetic on the table).
POSITION_SHORTLIST = 60
_LUMBER, _BRICK, _WOOL, _GRAIN, _ORE = (r.value for r in (Resource.LUMBER, Resource.BRICK, Resource.WOOL,
                                                         Resource.GRAIN, Resource.ORE))


@dataclass(frozen=True)
class PlacementWeights:
    """Weights of the placement score's parts (all in cards-per-roll units).

    Parameters
    ----------
    production : float
        Per expected resource card per roll.  A pip is 1/36 = 0.028 cards per roll.
    gold : float
        Per expected pick of one's choice per roll (a gold field, SF-1): what a pick is worth, in the
        units of ``production``.  Default :data:`~catan_nb.analysis.spots.GOLD_WORTH` (1.2), the bots'
        worth of a pick; part of the ``production`` part.
    diversity : float
        Per different resource produced.
    scarcity : float
        Multiplies ``sum_r E_r * (mean_supply / supply_r - 1)``.
    special_harbour : float
        Per expected card per roll of a 2:1 harbour's own resource.
    generic_harbour : float
        Per expected resource card per roll, with a 3:1 harbour.
    numbers : float
        Per different number token touched.
    commodities : float
        Per expected commodity card per roll (CK-COM-2).
    roads, cities, cards : float
        Per expected card per roll of the lesser of lumber and brick, of ore and grain, and of ore,
        grain and wool.
    city_goods : float
        Per expected card per roll of the resources a city costs (ore and grain, B-BUILD-1; a pick of one's
        choice counts as one of them), pairs only.
    pace : float
        Per settlement-and-city per roll: one over the rolls the cards need to pay for both (:func:`pace`).
    bonus : float
        Per victory point a spot earns beyond production (SF-13, SF-14).
    targets : float
        Per victory point worth reaching from the spot, discounted (SC-10, SF-4).
    start : float
        Per card the second founding building brings (B-SETUP-19; pairs only).
    rivals : float
        Per expected card per roll of the average rival's founding, subtracted (pairs only).
    rival_diversity : float
        Per resource the average rival collects, subtracted (pairs only).
    rival_best : float
        Per unit of the best rival's own founding score, subtracted (pairs only): the score of the strongest
        other seat's two founding buildings by these weights' spot parts, its ``start`` and ``apart`` (a
        seat wins by beating the strongest rival, not the average one).
    room : float
        Per free founding site two path steps from the pair once every seat has founded (pairs only).
    apart : float
        Per step between neighbouring intersections from one founding building to the other, at most 4
        (pairs only).
    frontier : float
        Per settlement card per roll of the free founding sites (B-BUILD-7) the pair reaches in fewer path
        steps than any rival's founding building, each halved for every step beyond two, up to
        ``FRONTIER_CAP - 1`` steps (pairs only): the sites the seat's roads would win a race to.
    shared : float
        Per expected card per roll the pair takes from hexes a rival's founding building also touches,
        subtracted (pairs only).
    market : float
        Multiplies ``sum_r E_r * (mean_T / T_r - 1)``, ``T_r`` the cards of resource ``r`` per roll of every
        founding building (pairs only): scarcity as the founding leaves it.
    position : float
        Per unit of the value bot's worth of the seat's position once every seat has founded, less the best
        rival's (:func:`~catan_nb.analysis.value_bot.position_value`, pairs only): the founding played as a
        playout plays it (the modelled rivals' sites, every founding road the value bot's, one fixed seed).
        Worked out for the best :data:`POSITION_SHORTLIST` pairs by the other parts (:func:`rank_openings`), or
        for the pairs asked (:func:`opening_terms`).  0 by default and in every module: the playouts of the base
        game, five players and the Seafarers islands ordered the top 20 worse with it.

    Notes
    -----
    The defaults of the base game's terms were fitted to value-bot playouts: 35 seeded random boards
    (seeds 1000-1014 and 2000-2019), on each 60 of seat 0's pairs played out 80 times each, a ridge
    regression of the win rate on the terms within each board, on each board's 40 best pairs by the score
    of the day, scaled so that ``production`` is 1 (``benchmarks/placement_fit.py --refresh --fit-top 40
    --lam 0.1``); every module plays with them but where its bot features change one (``placement_weights``).
    ``pace`` weighs 0: it helped on the fit's boards, not on boards it never saw (the README has the figures);
    the Corsica and New York maps weigh it 6.  Five pair terms were set on 2026-11-29 from what the playouts
    of 114 boards said the fitted score missed (``city_goods`` 0.2, ``rival_best`` 0.8 in the place of
    ``rivals``, ``rival_diversity`` 0.032, ``room`` 0.009): on boards 67-78, never looked at, the score's top
    20 rank correlation with the value-bot win rate rose from 0.31 to 0.43 (``placement_validity.py --seed 67
    --cases 12 --compare``; the README has every figure).  None of them is a spot's part, so the modelled
    rivals found as before.  Five or six players gained with them too; the expansions ordered their top 20
    worse with them and keep the earlier pair terms
    (:data:`~catan_nb.analysis.bot_features.EARLIER_PAIR_WEIGHTS`, in their ``placement_weights``).
    ``frontier`` 0.05 was set later that day: of the candidate terms read against what the score left over among
    its top 20, it was the one that stood out on two sets of boards (a partial correlation of +0.15 on the 78 boards
    above, +0.14 on 40 boards 3000-3039 played 40 pairs deep); on boards 4000-4023, never looked at, the top 20
    rank correlation went from 0.420 to 0.447 (``placement_validity.py --seed 4000 --cases 24 --compare
    frontier=0,0.05``) and on boards 6000-6023 from 0.444 to 0.461; on five players' boards 11-20 it stayed at
    0.425.  ``position`` weighs 0: the same runs ordered worse with it (0.405 and 0.354).
    ``gold`` is the bots' worth of a pick: 1.6 and 2 ordered the top 20 worse on gold maps 1-12 (``placement_validity.py --module gold_fields --compare gold=1.2,1.6,2``,
    run before ``--compare`` played a value where the rivals follow its own order of the spots: some of its pairs
    were taken first; the README has the figures).
    ``bonus`` and ``targets`` are the bots' worth of a point earned by settling or reaching a spot
    (:data:`~catan_nb.analysis.value_bot.SPOT_VP`; 0 with the Erie Canal); a commodity card counts as a card,
    and Cities & Knights' bot features raise it to the value bot's own worth of one.

    Examples
    --------
    >>> PlacementWeights(diversity=0.0).production
    1.0
    >>> PlacementWeights.production_only().scarcity
    0.0
    """

    production: float = 1.0
    gold: float = GOLD_WORTH
    diversity: float = 0.033
    scarcity: float = 0.52
    special_harbour: float = 0.38
    generic_harbour: float = 0.098
    numbers: float = -0.0073
    commodities: float = 1.0
    roads: float = 0.69
    cities: float = 0.79
    cards: float = 0.75
    city_goods: float = 0.2
    pace: float = 0.0
    bonus: float = SPOT_VP
    targets: float = SPOT_VP
    start: float = 0.016
    rivals: float = 0.0
    rival_diversity: float = 0.032
    rival_best: float = 0.8
    room: float = 0.009
    apart: float = 0.025
    frontier: float = 0.05
    shared: float = 0.21
    market: float = 0.2
    position: float = 0.0

    @classmethod
    def classic(cls) -> "PlacementWeights":
        """The hand-set weights of the score's first version (lesson 11 builds it): production, diversity
        0.03, scarcity 1, harbours 0.5 and 0.1, numbers 0.01, and nothing for sets, the founding's start
        or the rivals.

        Examples
        --------
        >>> PlacementWeights.classic().scarcity, PlacementWeights.classic().cards
        (1.0, 0.0)
        """
        zero = {f.name: 0.0 for f in fields(cls)}
        return cls(**{**zero, "production": 1.0, "gold": GOLD_WORTH, "diversity": 0.03, "scarcity": 1.0,
                      "special_harbour": 0.5, "generic_harbour": 0.1, "numbers": 0.01, "commodities": 1.0,
                      "bonus": SPOT_VP, "targets": SPOT_VP})

    @classmethod
    def production_only(cls) -> "PlacementWeights":
        """Score by expected cards per roll alone (every other part weighted 0)."""
        return cls(**{f.name: {"production": 1.0, "gold": GOLD_WORTH}.get(f.name, 0.0) for f in fields(cls)})


DEFAULT_WEIGHTS = PlacementWeights()


def placement_weights(game: Game, weights: PlacementWeights | None = None) -> PlacementWeights:
    """The weights of ``game``: ``weights`` if given, else the defaults with what the game's rule modules
    change (:attr:`~catan_nb.analysis.bot_features.ModuleFeatures.placement_weights`).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> placement_weights(Game(Board.beginner(), seed=1)) == PlacementWeights()
    True
    """
    if weights is not None:
        return weights
    changes: dict[str, float] = {}
    for m in features_for(game):
        changes.update(m.placement_weights)
    return replace(DEFAULT_WEIGHTS, **changes) if changes else DEFAULT_WEIGHTS


@dataclass(frozen=True, order=True)
class PlacementScore:
    """One intersection's placement score and the parts it is the sum of.

    Rows sort by score (then node); ``sorted(rows, reverse=True)`` is best first.  ``kind`` is the
    building scored (the seat's first founding building); where the founding places a city in its
    second round (CK-SETUP-1), ``city_score`` is the spot's score as that city.
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
    commodities: float = field(compare=False, default=0.0)
    sets: float = field(compare=False, default=0.0)
    bonus: float = field(compare=False, default=0.0)
    targets: float = field(compare=False, default=0.0)
    kind: str = field(compare=False, default="settlement")
    city_score: float | None = field(compare=False, default=None)
    goods: Mapping[str, float] = field(compare=False, default_factory=dict)

    @property
    def parts(self) -> dict[str, float]:
        """The parts in :data:`SPOT_PARTS` order (they sum to :attr:`score`)."""
        return {p: getattr(self, p) for p in SPOT_PARTS}

    def explain(self) -> str:
        """The score in words: what the spot collects and which parts count most.

        Examples
        --------
        >>> print(score_intersections(Board.beginner())[0].explain())  # doctest: +ELLIPSIS
        intersection ...: a settlement collects ... per roll; score ... (...)
        """
        goods = ", ".join(f"{g} {x:.3f}" for g, x in self.goods.items()) or "nothing"
        big = sorted(((abs(x), p, x) for p, x in self.parts.items() if x), reverse=True)[:4]
        parts = ", ".join(f"{p} {x:+.3f}" for _, p, x in big)
        text = f"intersection {int(self.node)}: a {self.kind} collects {goods} per roll; score {self.score:.3f} ({parts})"
        if self.city_score is not None:
            text += f"; as the founding city {self.city_score:.3f}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A flat row for a table."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "goods"}
        d["node"] = int(self.node)
        d["resources"] = ", ".join(str(r) for r in self.resources)
        d["tokens"] = ", ".join(str(t) for t in self.tokens)
        return d


@dataclass(frozen=True, order=True)
class OpeningPair:
    """A seat's two founding buildings (``first`` placed first) and the pair's score.

    ``opponent_picks`` are the buildings the modelled opponents found between the two picks (empty
    with ``opponents="none"``); ``kinds`` the two buildings (a settlement, then a city in Cities &
    Knights, CK-SETUP-1).
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
    commodities: float = field(compare=False, default=0.0)
    sets: float = field(compare=False, default=0.0)
    bonus: float = field(compare=False, default=0.0)
    targets: float = field(compare=False, default=0.0)
    start: float = field(compare=False, default=0.0)
    rivals: float = field(compare=False, default=0.0)
    kinds: tuple[str, str] = field(compare=False, default=("settlement", "settlement"))
    room: float = field(compare=False, default=0.0)
    position: float = field(compare=False, default=0.0)

    @property
    def parts(self) -> dict[str, float]:
        """The parts in :data:`PAIR_PARTS` order (they sum to :attr:`score`)."""
        return {p: getattr(self, p) for p in PAIR_PARTS}

    def to_dict(self) -> dict[str, Any]:
        """A flat row for a table."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["first"], d["second"] = int(self.first), int(self.second)
        d["resources"] = ", ".join(str(r) for r in self.resources)
        d["opponent_picks"] = ", ".join(str(v) for v in self.opponent_picks)
        d["kinds"] = " + ".join(self.kinds)
        return d


def study_game(source: Board | Game, players: int = 4, starting_seat: int = 0) -> Game:
    """The game a placement question is asked about: ``source`` itself, or a new game on a board with
    the rules its file names (:meth:`Rules.for_board <catan_nb.rules.Rules.for_board>`; a 5-6 player
    board needs ``players`` 5 or 6).

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
    >>> study_game(Board.load(FOG_ISLANDS)).rules.modules
    ('seafarers', 'fog', 'gold_fields', 'treasure')
    """
    if isinstance(source, Game):
        return source
    if isinstance(source, Board):
        return Game(source, players=players, seed=0, starting_seat=starting_seat, rules=Rules.for_board(source))
    raise TypeError(f"need a Board or a Game, not {type(source).__name__}")


class NodeTable:
    """Per-intersection data of a game's founding pieces for one seat, derived once, as numpy arrays.

    Built on :class:`~catan_nb.analysis.spots.SpotTable` (the one model of a spot's worth); holds each
    founding building's yields, the spots' parts and the greedy orders the modelled opponents pick by.
    """

    def __init__(self, source: Board | Game, weights: PlacementWeights | None = None, *, seat: int = 0,
                 players: int = 4, starting_seat: int = 0):
        game = study_game(source, players, starting_seat)
        self.game = game
        self.board = game.board
        self.weights = self.w = placement_weights(game, weights)
        self.spots = sp = SpotTable(game, seat)
        self.n = n = sp.n
        self.neighbours = game.topology.node_neighbours
        self.kinds = sp.founding_kinds
        self.sites = sp.sites
        t = game.topology
        rc, cc = sp.resource_cols, sp.commodity_cols
        self.res: dict[str, np.ndarray] = {}
        self.any: dict[str, np.ndarray] = {}
        self.com: dict[str, np.ndarray] = {}
        self.resmask: dict[str, np.ndarray] = {}
        # what the hexes that show their tile give: the parts that depend on *which* resource a hex gives
        # (resources collected, sets) read these, not a hidden hex's average over the resources (SF-3)
        self.cres: dict[str, np.ndarray] = {}
        self.cany: dict[str, np.ndarray] = {}
        for kind in dict.fromkeys(("settlement", *self.kinds)):
            y = sp.yields(kind)
            self.res[kind] = y[:, rc]
            self.any[kind] = y[:, -1]
            self.com[kind] = y[:, cc].sum(axis=1) if cc else np.zeros(n)
            c = sp.yields(kind, certain=True) if sp.hidden else y
            self.cres[kind] = c[:, rc]
            self.cany[kind] = c[:, -1]
            self.resmask[kind] = (c[:, rc] > 0).astype(np.int64) @ (1 << np.arange(len(rc), dtype=np.int64))
        self.none = sp.none
        #: What a settlement and a city cost together, in resources (B-BUILD-1): the ``pace`` term's purchase.
        city = np.array(game.cost("city"), dtype=float)[rc]
        self.grow = np.array(game.cost("settlement"), dtype=float)[rc] + city
        #: The resources a city costs (B-BUILD-1): the ``city_goods`` term's cards.
        self.city_goods = city > 0
        pip = np.zeros(n, dtype=np.int64)
        for v in range(n):
            for h in t.node_hexes[v]:
                tok = game.hex_token[h]
                if tok and game.collects("settlement", h):
                    pip[v] += 6 - abs(7 - tok)
        self.pips = pip
        self.tokmask = sp.tokens
        self.special, self.generic = sp.special, sp.generic
        self.rarity = _rarity(sp.supply)
        # B-SETUP-19: the second founding building takes a card from each resource hex around it
        self.start_cards = np.array([sum(1 for h in t.node_hexes[v] if t.hex_resource[h] >= 0) for v in range(n)])
        self.bonus, self.near = sp.bonus, sp.near
        # the whole founding's terms (pairs): intersections as bits of Python ints
        self.closure = [(1 << v) | sum(1 << w for w in set(self.neighbours[v])) for v in range(n)]
        self.site_bits = sum(1 << v for v in range(n) if self.sites[v])
        #: Fewest path steps (roads, or ships where a module sails) between intersections, at most FRONTIER_CAP.
        self.path_steps = _steps(sp.paths(), n, FRONTIER_CAP)
        self.ring2 = [sum(1 << int(u) for u in np.flatnonzero(row == 2)) for row in self.path_steps]
        self.steps = _steps(self.neighbours, n, 4)
        self.settlement_cards = self.production_of(np.arange(n), "settlement")  # the frontier's worth of a site
        self.hex_cards = {kind: [{h: sp.hex_cards(kind, h) for h in t.node_hexes[v]} for v in range(n)]
                          for kind in dict.fromkeys(("settlement", *self.kinds))}
        self.single: dict[str, dict[str, np.ndarray]] = {}
        self.greedy_order: dict[str, list[int]] = {}
        ids = np.arange(n)
        for kind in dict.fromkeys(self.kinds):
            parts = self.parts(ids, kinds=(kind, kind))
            self.single[kind] = parts
            order = np.lexsort((ids, -parts["score"]))
            self.greedy_order[kind] = [int(v) for v in order if self.sites[v]]

    def production_of(self, nodes: np.ndarray, kind: str) -> np.ndarray:
        """Resource cards per roll (a pick of one's choice at its worth) of a ``kind`` at each of ``nodes``."""
        w = self.w
        worth = w.gold / w.production if w.production else GOLD_WORTH
        return self.res[kind][nodes].sum(axis=1) + worth * self.any[kind][nodes]

    def terms(self, a: np.ndarray, b: np.ndarray | None = None, *, kinds: tuple[str, str] | None = None,
              rival_prod: np.ndarray | None = None, rival_div: np.ndarray | None = None,
              founding: Mapping[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The score's terms before weighting, one per :class:`PlacementWeights` field, for spots ``a``
        (or pairs ``a``, ``b``: ``a`` founded first); a part is its weights times its terms
        (:data:`PART_TERMS`).  ``founding``: the terms that read the whole founding (``room``,
        ``shared``, ``market``: :meth:`founding_terms`), zero if not given."""
        k1, k2 = kinds or self.kinds
        if b is None:
            e, anyc, com = self.res[k1][a], self.any[k1][a], self.com[k1][a]
            ce, cany = self.cres[k1][a], self.cany[k1][a]
            res, tok = self.resmask[k1][a], self.tokmask[a]
            none = self.none[a]
            special, generic = self.special[a], self.generic[a]
            bonus, near = self.bonus[a], self.near[a]
            start = np.zeros(len(a))
        else:
            e = self.res[k1][a] + self.res[k2][b]
            anyc = self.any[k1][a] + self.any[k2][b]
            com = self.com[k1][a] + self.com[k2][b]
            ce = self.cres[k1][a] + self.cres[k2][b]
            cany = self.cany[k1][a] + self.cany[k2][b]
            res = self.resmask[k1][a] | self.resmask[k2][b]
            none = self.none[a] * self.none[b]
            tok = self.tokmask[a] | self.tokmask[b]
            special = np.minimum(self.special[a] + self.special[b], 1)
            generic = self.generic[a] | self.generic[b]
            bonus = self.bonus[a] + self.bonus[b]
            hi, lo = np.maximum(self.near[a], self.near[b]), np.minimum(self.near[a], self.near[b])
            near = hi + 0.5 * lo
            start = self.start_cards[b].astype(float)
        # a pick of one's choice (SF-1) shared among the cards of a set; sets count the hexes that show
        # their tile, and a hidden hex adds the chance that it brings a resource not collected yet
        half, third = cany / 2, cany / 3
        rates = np.where(special > 0, SPECIAL_RATE, np.where(generic, GENERIC_RATE, BANK_RATE)[:, None])
        got = ((res[:, None] >> np.arange(ce.shape[1])) & 1).astype(bool)
        zero = np.zeros(len(a))
        return {
            "production": e.sum(axis=1),
            "gold": anyc,
            "commodities": com,
            "diversity": _POP[res] + np.where(got, 0.0, 1.0 - none).sum(axis=1),
            "roads": np.minimum(ce[:, _LUMBER], ce[:, _BRICK]) + half,
            "cities": np.minimum(ce[:, _ORE], ce[:, _GRAIN]) + half,
            "cards": np.minimum(np.minimum(ce[:, _ORE], ce[:, _GRAIN]), ce[:, _WOOL]) + third,
            "city_goods": e[:, self.city_goods].sum(axis=1) + anyc if b is not None else zero,
            "pace": pace(ce, cany, rates, self.grow),
            "scarcity": e @ self.rarity,
            "special_harbour": (e * special).sum(axis=1),
            "generic_harbour": generic * e.sum(axis=1),
            "numbers": _POP[tok].astype(float),
            "bonus": bonus,
            "targets": near,
            "start": start,
            "rivals": -rival_prod if rival_prod is not None else zero,
            "rival_diversity": -rival_div if rival_div is not None else zero,
            "rival_best": founding.get("rival_best", zero) if founding else zero,
            "room": founding["room"] if founding else zero,
            "apart": self.steps[a, b].astype(float) if b is not None else zero,
            "shared": founding["shared"] if founding else zero,
            "market": founding["market"] if founding else zero,
            "position": founding.get("position", zero) if founding else zero,
            "frontier": founding.get("frontier", zero) if founding else zero,
        }

    def parts(self, a: np.ndarray, b: np.ndarray | None = None, *, kinds: tuple[str, str] | None = None,
              rival_prod: np.ndarray | None = None, rival_div: np.ndarray | None = None,
              founding: Mapping[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The parts and the score for spots ``a`` (or pairs ``a``, ``b``: ``a`` founded first)."""
        t = self.terms(a, b, kinds=kinds, rival_prod=rival_prod, rival_div=rival_div, founding=founding)
        w = self.w
        out = {part: sum(getattr(w, name) * t[name] for name in PART_TERMS[part])
               for part in (SPOT_PARTS if b is None else PAIR_PARTS)}
        score = np.zeros(len(a))
        for x in out.values():
            score = score + x
        out["score"] = score
        return out

    def founding_terms(self, a: int, b: int, rivals: Sequence[tuple[int, str]],
                       taken: int) -> tuple[float, float, float, float]:
        """``(room, shared, market, frontier)`` of the pair ``a``, ``b`` once every seat has founded: ``rivals``
        the other seats' founding buildings (site, building), ``taken`` the intersections closed by every
        founding building (bits: a building and its neighbours, B-BUILD-7)."""
        k1, k2 = self.kinds
        room = bin((self.ring2[a] | self.ring2[b]) & self.site_bits & ~taken).count("1")
        theirs: set[int] = set()
        total = self.res[k1][a] + self.res[k2][b]
        for v, kind in rivals:
            theirs.update(self.hex_cards[kind][v])
            total = total + self.res[kind][v]
        shared = sum(x for h, x in self.hex_cards[k1][a].items() if h in theirs)
        shared += sum(x for h, x in self.hex_cards[k2][b].items() if h in theirs)
        market = float((self.res[k1][a] + self.res[k2][b]) @ _rarity(total))
        return float(room), -float(shared), market, self.frontier(a, b, [v for v, _ in rivals], taken)

    def frontier(self, a: int, b: int, rivals: Sequence[int], taken: int) -> float:
        """The ``frontier`` term of the pair ``a``, ``b`` against the ``rivals``' founding buildings, ``taken``
        the intersections every founding building closes (bits, as :meth:`founding_terms` has them)."""
        cap = FRONTIER_CAP
        mine = np.minimum(self.path_steps[a], self.path_steps[b])
        theirs = self.path_steps[list(rivals)].min(axis=0) if len(rivals) else np.full(self.n, cap)
        free_bits = self.site_bits & ~taken
        free = np.unpackbits(np.frombuffer(free_bits.to_bytes((self.n + 7) // 8, "little"), dtype=np.uint8),
                             bitorder="little")[: self.n].astype(bool)
        won = free & (mine < theirs) & (mine < cap)
        return float((self.settlement_cards[won] * 0.5 ** np.maximum(mine[won] - 2, 0)).sum())

    def close(self, blocked: list[bool], v: int) -> None:
        blocked[v] = True
        for w in self.neighbours[v]:
            blocked[w] = True

    def pick(self, blocked: list[bool], kind: str) -> int | None:
        """The best free founding site for a ``kind`` by single score, or ``None``."""
        return next((v for v in self.greedy_order[kind] if not blocked[v]), None)

    def greedy(self, blocked: list[bool], k: int, kinds: Sequence[str] | None = None) -> tuple[list[int], list[bool]]:
        """``k`` picks, each the best free founding site by single score (B-BUILD-7 respected); the
        ``i``-th pick is a ``kinds[i]`` (default: the first founding building)."""
        blocked = list(blocked)
        picks: list[int] = []
        for i in range(k):
            v = self.pick(blocked, kinds[i] if kinds is not None else self.kinds[0])
            if v is None:
                break
            picks.append(v)
            self.close(blocked, v)
        return picks, blocked


def pace(cards: np.ndarray, picks: np.ndarray, rates: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Purchases of ``cost`` per roll, for rows of production trading their surplus at the bank: ``1 / T``.

    ``T`` is the fewest rolls after which a steady flow of ``cards`` (expected cards of each resource
    per roll, one row per spot or pair) and ``picks`` (cards of one's choice per roll, SF-1) pays for
    ``cost``, the cards left over beyond it given to the bank at ``rates`` (cards for one, per resource,
    B-TRADE-6..9).  It is the fluid limit of :func:`~catan_nb.analysis.waiting.wait_to_afford`: no
    luck, no hand limit, trades as early as the cards allow.  A row that produces nothing has pace 0.

    Parameters
    ----------
    cards : ndarray, shape (m, resources)
    picks : ndarray, shape (m,)
    rates : ndarray, shape (m, resources) or (resources,)
    cost : ndarray, shape (resources,)

    Returns
    -------
    ndarray, shape (m,)

    Examples
    --------
    A settlement and a city cost 1, 1, 1, 3 and 3 cards.  With four cards of each resource per roll,
    the ore and grain would take 3/4 of a roll, but the lumber, brick and wool left over buy the
    missing ones at 4:1 after 27/44 of a roll; with lumber alone at one card per roll, 33 rolls (32
    lumber for 8 cards, one to keep).

    >>> cost = np.array([1.0, 1, 1, 3, 3])
    >>> float(1 / pace(np.full((1, 5), 4.0), np.zeros(1), np.full(5, 4.0), cost)[0]) * 44
    27.0...
    >>> float(1 / pace(np.array([[1.0, 0, 0, 0, 0]]), np.zeros(1), np.full(5, 4.0), cost)[0])
    33.0...
    """
    cards = np.asarray(cards, dtype=float)
    picks = np.asarray(picks, dtype=float)
    rates = np.broadcast_to(np.asarray(rates, dtype=float), cards.shape)
    cost = np.asarray(cost, dtype=float)
    # The cards still owed at time t fall linearly between the times each resource has paid its own cost
    # (``stop``): after it, its cards count at the bank's rate.  Take the first stretch at whose end nothing
    # is owed any more, and solve the line there.
    with np.errstate(divide="ignore", invalid="ignore"):
        stop = np.where(cards > 0, cost / cards, np.inf)
    ends = np.sort(stop, axis=1)
    found = np.zeros(len(cards), dtype=bool)
    t = np.zeros(len(cards))
    start = np.zeros(len(cards))
    for k in range(cards.shape[1] + 1):
        end = ends[:, k] if k < cards.shape[1] else np.full(len(cards), np.inf)
        paid = stop <= start[:, None]  # resources past their own cost on this stretch
        slope = picks + np.where(paid, cards / rates, cards).sum(axis=1)
        owed = np.where(paid, cost / rates, cost).sum(axis=1)
        with np.errstate(invalid="ignore"):
            here = ~found & (slope > 0) & (slope * end >= owed)
        t = np.where(here, np.clip(owed / np.where(slope > 0, slope, 1.0), start, end), t)
        found |= here
        start = np.where(np.isfinite(end), end, start)
    return np.where(found & (t > 0), 1.0 / np.where(t > 0, t, 1.0), 0.0)


def _best_rival(tab: NodeTable, rival_sites: Sequence[tuple[tuple[int, ...], ...]]) -> np.ndarray:
    """Per pair, the best founding score among the rivals (``rival_sites``: each rival's founding sites, in
    the order founded): a rival's two buildings scored as a pair, a rival with one building as that spot, by
    every weighted term but those of :data:`FOUNDING_WIDE`.  0 without rivals."""
    w = tab.w

    def own(t: Mapping[str, np.ndarray]) -> list[float]:
        return sum(getattr(w, k) * x for k, x in t.items() if k not in FOUNDING_WIDE).tolist()

    twos = sorted({s[:2] for sites in rival_sites for s in sites if len(s) >= 2})
    ones = sorted({s[:1] for sites in rival_sites for s in sites if len(s) == 1})
    worth: dict[tuple[int, ...], float] = {}
    if twos:
        worth.update(zip(twos, own(tab.terms(np.array([s[0] for s in twos]), np.array([s[1] for s in twos])))))
    if ones:
        worth.update(zip(ones, own(tab.terms(np.array([s[0] for s in ones])))))
    return np.array([max((worth[s[:2]] for s in sites), default=0.0) for sites in rival_sites], dtype=float)


def _rarity(supply: np.ndarray) -> np.ndarray:
    """How rare each resource is against the mean of those produced: ``mean / supply_r - 1`` (0 for one
    nobody produces).  On the board's supply for ``scarcity``; on the founding's for ``market``."""
    made = supply > 0
    if not made.any():
        return np.zeros(len(supply))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(made, supply[made].mean() / supply - 1.0, 0.0)


def _steps(neighbours, n: int, cap: int) -> np.ndarray:
    """``(n, n)``: the fewest steps between two intersections, at most ``cap``."""
    out = np.full((n, n), cap, dtype=np.int64)
    for v in range(n):
        for w, d in steps_within(neighbours, v, cap - 1).items():
            out[v, w] = d
    return out


def _resources(mask: int) -> tuple[Resource, ...]:
    return tuple(r for r in RESOURCES if mask >> r.value & 1)


def _blocked(tab: NodeTable, game: Game | None) -> list[bool]:
    """Where no founding building may go now: outside the founding sites, or next to a building."""
    out = [not s for s in tab.sites.tolist()]
    if game is not None:
        out = [o or b > 0 for o, b in zip(out, game.blocked)]
    return out


def _source_game(source: Board | Game) -> Game | None:
    if isinstance(source, Game):
        return source
    if isinstance(source, Board):
        return None
    raise TypeError(f"need a Board or a Game, not {type(source).__name__}")


def score_intersections(source: Board | Game, *, weights: PlacementWeights | None = None, seat: int | None = None,
                        players: int = 4) -> list[PlacementScore]:
    """Score every intersection where a building may be founded, best first.

    Parameters
    ----------
    source : Board or Game
        On a board every founding site is scored (every land intersection, or a scenario's spaces:
        SC-5), with the rules the board's file names; in a game only those the distance rule leaves
        free (B-BUILD-7, B-SETUP-17).  Road connection is not required, as in the founding phase.
    weights : PlacementWeights, optional
        Default: :func:`placement_weights` of the game.
    seat : int, optional
        Whose bonuses count (a foreign island's points, SF-13): default the seat to act, or 0.
    players : int
        With a board.

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
    game = _source_game(source)
    if seat is None:
        seat = game.current_player if game is not None else 0
    tab = NodeTable(source, weights, seat=seat, players=players)
    free = [not b for b in _blocked(tab, game)]
    if game is not None and not game.in_founding:
        free = _free_after_founding(tab.game, seat)
    return _rows(tab, [v for v, ok in enumerate(free) if ok])


def _free_after_founding(game: Game, seat: int) -> list[bool]:
    """After the founding: free land intersections clear of buildings, within the modules' spaces."""
    t = game.topology
    free = [v for v in range(t.n_nodes) if not game.blocked[v] and t.node_land[v] and game.node_owner[v] < 0]
    free = game.filter_sites(seat, "settlement", free)  # the modules' spaces (SC-5)
    out = [False] * t.n_nodes
    for v in free:
        out[v] = True
    return out


def _rows(tab: NodeTable, nodes: Sequence[int]) -> list[PlacementScore]:
    t = tab.game.topology
    k1, k2 = tab.kinds
    single = {p: x.tolist() for p, x in tab.single[k1].items()}
    city = tab.single[k2]["score"].tolist() if k2 != k1 else None
    pips = tab.pips.tolist()
    rows = []
    for v in nodes:
        h = tab.board.graph.nodes[v]["harbour"]
        tokens = tuple(sorted(tab.game.hex_token[x] for x in t.node_hexes[v] if tab.game.hex_token[x]))
        rows.append(
            PlacementScore(
                single["score"][v], NodeId(v), single["production"][v], single["diversity"][v], single["scarcity"][v],
                single["harbour"][v], single["numbers"][v], int(pips[v]),
                _resources(int(tab.resmask[k1][v])), tokens, None if h is None else h.label,
                commodities=single["commodities"][v], sets=single["sets"][v], bonus=single["bonus"][v],
                targets=single["targets"][v], kind=k1, city_score=None if city is None else city[v],
                goods=tab.spots.describe(v, k1),
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
    """Board, game, founding order, indices of the seat's remaining picks, its first building if placed."""
    game = _source_game(source)
    board = game.board if game is not None else source
    placed: list[int] = []
    if game is not None:
        if not game.in_founding:  # a gold field's pick between two founding settlements is within it
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


def _round_kind(tab: NodeTable, index: int, players: int) -> str:
    """The building founded at place ``index`` of the founding order (round 2 from ``players`` on)."""
    return tab.kinds[1] if index >= players else tab.kinds[0]


def _enumerate(source: Board | Game, seat: int, players: int, starting_seat: int, weights: PlacementWeights | None,
               greedy: bool, only: set[tuple[int, int]] | None = None, every_term: bool = False) -> tuple:
    """The pairs ``seat`` may found (``only`` those, if given), with the modelled opponents' picks: the
    table, ``greedy``, the firsts, the seconds, the picks between, and the rivals' production and
    resources per pair.  The best rival's score is worked out where it weighs, or for ``every_term``."""
    board, game, order, mine, fixed_first = _founding_state(source, seat, players, starting_seat)
    tab = NodeTable(source, weights, seat=seat, players=players, starting_seat=starting_seat)
    n_players = tab.game.n
    done = len(game.occupied) if game is not None else 0
    blocked = _blocked(tab, game)
    alike = tab.kinds[0] == tab.kinds[1]
    # Every modelled pick: (place in the founding order, seat, site).  Those already placed are real.
    fixed: list[tuple[int, int]] = []
    if game is not None:
        for v in game.occupied:
            if game.node_owner[v] != seat:
                fixed.append((game.node_owner[v], v))
    kinds_at = [_round_kind(tab, i + done, n_players) for i in range(len(order) - done)]
    seats_at = list(order[done:])
    before: list[tuple[int, int]] = []
    if greedy:
        for i in range(mine[0]):
            v = tab.pick(blocked, kinds_at[i])
            if v is None:
                break
            before.append((seats_at[i], v))
            tab.close(blocked, v)
    a_list: list[int] = []
    b_list: list[int] = []
    opp: list[tuple[NodeId, ...]] = []
    rival_prod: list[float] = []
    rival_div: list[float] = []
    room: list[float] = []
    shared: list[float] = []
    market: list[float] = []
    frontier: list[float] = []
    rival_sites: list[tuple[tuple[int, ...], ...]] = []
    seat_sites: list[dict[int, tuple[int, ...]]] = []
    taken0 = 0
    for v in (game.occupied if game is not None else ()):
        taken0 |= tab.closure[v]
    for _, v in before:
        taken0 |= tab.closure[v]
    prod_of = {k: tab.production_of(np.arange(tab.n), k).tolist() for k in dict.fromkeys(tab.kinds)}
    mask_of = {k: tab.resmask[k].tolist() for k in dict.fromkeys(tab.kinds)}
    n_rivals = max(n_players - 1, 1)
    if fixed_first is not None:
        firsts = [fixed_first]
        between_idx: list[int] = []
    else:
        firsts = [v for v in range(tab.n) if not blocked[v]]
        between_idx = list(range(mine[0] + 1, mine[1])) if greedy else []
    after_idx = list(range(mine[-1] + 1, len(seats_at))) if greedy else []
    if only is not None:
        firsts = [a for a in firsts if any(x == a for x, _ in only)]
    for a in firsts:
        after_a = list(blocked)
        if fixed_first is None:
            tab.close(after_a, a)
        between: list[tuple[int, int]] = []
        for i in between_idx:
            v = tab.pick(after_a, kinds_at[i])
            if v is None:
                break
            between.append((seats_at[i], v))
            tab.close(after_a, v)
        picks_t = tuple(NodeId(v) for _, v in between)
        base_picks = fixed + before + between
        taken_a = taken0 | tab.closure[a]
        for _, v in between:
            taken_a |= tab.closure[v]
        for b in range(tab.n):
            if after_a[b] or (not greedy and fixed_first is None and alike and b < a):
                continue
            if only is not None and (a, b) not in only:
                continue
            later: list[tuple[int, int]] = []
            if after_idx:
                after_b = list(after_a)
                tab.close(after_b, b)
                for i in after_idx:
                    v = tab.pick(after_b, kinds_at[i])
                    if v is None:
                        break
                    later.append((seats_at[i], v))
                    tab.close(after_b, v)
            a_list.append(a)
            b_list.append(b)
            opp.append(picks_t)
            prod = 0.0
            masks: dict[int, int] = {}
            theirs: list[tuple[int, str]] = []
            sites_of: dict[int, tuple[int, ...]] = {}
            taken = taken_a | tab.closure[b]
            for q, v in base_picks + later:
                kind = tab.kinds[1] if masks.get(q) is not None else tab.kinds[0]
                prod += prod_of[kind][v]
                masks[q] = masks.get(q, 0) | mask_of[kind][v]
                theirs.append((v, kind))
                sites_of[q] = sites_of.get(q, ()) + (v,)
                taken |= tab.closure[v]
            rival_sites.append(tuple(sites_of.values()))
            seat_sites.append({seat: (a, b), **sites_of})
            if greedy:
                rival_prod.append(prod / n_rivals)
                rival_div.append(sum(_POP[m] for m in masks.values()) / n_rivals)
            r, sh, mk, fr = tab.founding_terms(a, b, theirs, taken)
            room.append(r)
            frontier.append(fr if greedy else 0.0)
            shared.append(sh if greedy else 0.0)  # the rivals' parts read a modelled founding only
            market.append(mk if greedy else 0.0)
    founding = {"room": np.array(room, dtype=float), "shared": np.array(shared, dtype=float),
                "market": np.array(market, dtype=float), "frontier": np.array(frontier, dtype=float),
                "rival_best": (-_best_rival(tab, rival_sites) if greedy and (every_term or tab.w.rival_best)
                               else np.zeros(len(room)))}
    return tab, greedy, a_list, b_list, opp, rival_prod, rival_div, founding, seat_sites


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
        A board (nothing placed yet; studied with the rules its file names), or a game in its
        founding phase (the buildings already placed are respected; if ``seat`` has placed its first
        building, only its second is chosen).
    seat : int
        The seat whose openings are ranked.
    players, starting_seat : int
        Used with a board (a game has its own).
    weights : PlacementWeights, optional
    opponents : {"greedy", "none"}
        ``"greedy"``: every other seat takes the best free site by single score (as the building of
        its round) when its turn comes, so the first pick must survive the seats before it and the
        second pick the ``2 * (players - 1 - k)`` picks between (k = the seat's place in the order);
        the ``rivals`` part weighs what they found.  ``"none"``: every pair of sites free now and not
        adjacent, each listed once (``first < second`` where both buildings are alike).
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
    tab, greedy, a_list, b_list, opp, rival_prod, rival_div, founding, _ = _enumerate(
        source, seat, players, starting_seat, weights, opponents == "greedy")
    if not a_list:
        return []
    A, B = np.array(a_list), np.array(b_list)
    parts = tab.parts(A, B, rival_prod=np.array(rival_prod) if greedy else None,
                      rival_div=np.array(rival_div) if greedy else None, founding=founding)
    k1, k2 = tab.kinds
    pips = tab.pips[A] + tab.pips[B]
    res = tab.resmask[k1][A] | tab.resmask[k2][B]
    score = parts["score"]
    if greedy and tab.w.position:
        # the second stage: the bot's worth of the played founding, for the best pairs by every other part
        short = np.lexsort((B, A, -score))[:max(POSITION_SHORTLIST, top or 0)]
        pos = np.zeros(len(score))
        pos[short] = tab.w.position * _position(source, seat, [(a_list[i], b_list[i]) for i in short.tolist()],
                                                players, starting_seat, weights)
        parts["position"] = pos
        parts["score"] = score = score + pos
        later = np.ones(len(score), dtype=bool)
        later[short] = False
        idx = np.lexsort((B, A, -score, later))
    else:
        idx = np.lexsort((B, A, -score))
    if top is not None:
        idx = idx[:top]
    cols = {p: x.tolist() for p, x in parts.items()}
    pips_l, res_l = pips.tolist(), res.tolist()
    return [
        OpeningPair(
            cols["score"][i], NodeId(a_list[i]), NodeId(b_list[i]), cols["production"][i], cols["diversity"][i],
            cols["scarcity"][i], cols["harbour"][i], cols["numbers"][i], int(pips_l[i]), _resources(res_l[i]), opp[i],
            commodities=cols["commodities"][i], sets=cols["sets"][i], bonus=cols["bonus"][i],
            targets=cols["targets"][i], start=cols["start"][i], rivals=cols["rivals"][i], kinds=(k1, k2),
            room=cols["room"][i], position=cols["position"][i],
        )
        for i in idx.tolist()
    ]


def opening_terms(
    source: Board | Game,
    seat: int,
    pairs: Iterable[tuple[int, int]],
    *,
    players: int = 4,
    starting_seat: int = 0,
    weights: PlacementWeights | None = None,
    opponents: str = "greedy",
) -> dict[str, np.ndarray]:
    """The score's terms before weighting (one array per :class:`PlacementWeights` field, a row per pair
    in the order given), with the opponents modelled as :func:`rank_openings` models them: what a fit
    of the weights (``benchmarks/placement_fit.py``) or a student's own score starts from.

    Raises
    ------
    ValueError
        A pair ``seat`` cannot found.

    Examples
    --------
    >>> from catan_nb import Board
    >>> board = Board.beginner()
    >>> best = rank_openings(board, 0, top=1)[0]
    >>> t = opening_terms(board, 0, [(best.first, best.second)])
    >>> w = PlacementWeights()
    >>> bool(abs(sum(getattr(w, k) * x[0] for k, x in t.items()) - best.score) < 1e-9)
    True
    """
    if opponents not in ("greedy", "none"):
        raise ValueError(f"opponents must be 'greedy' or 'none', not {opponents!r}")
    wanted = [(int(a), int(b)) for a, b in pairs]
    if not wanted:
        return {f.name: np.zeros(0) for f in fields(PlacementWeights)}
    tab, greedy, a_list, b_list, _, rp, rd, founding, _ = _enumerate(
        source, seat, players, starting_seat, weights, opponents == "greedy", only=set(wanted), every_term=True)
    order = np.array(_places(a_list, b_list, wanted, seat), dtype=np.int64)
    t = tab.terms(np.array(a_list), np.array(b_list), rival_prod=np.array(rp) if greedy else None,
                  rival_div=np.array(rd) if greedy else None, founding=founding)
    out = {k: v[order] for k, v in t.items()}
    if greedy:
        out["position"] = _position(source, seat, wanted, players, starting_seat, weights)
    return out


#: The seed of the founding the ``position`` term plays (its roads are the value bot's): that of a first playout of
#: ``simulate_openings(..., seed=0)``.
_POSITION_SEED = 0


def _position(source: Board | Game, seat: int, pairs: Sequence[tuple[int, int]], players: int, starting_seat: int,
              weights: PlacementWeights | None) -> np.ndarray:
    """The ``position`` term of each pair: the founding played as a playout of :func:`simulate_openings` plays it
    (``seed`` :data:`_POSITION_SEED`: the seat's pair, the modelled rivals' sites, every road the value bot's), then
    the value bot's :func:`~catan_nb.analysis.value_bot.position_value` of the seat less the best other seat's."""
    if not pairs:
        return np.zeros(0)
    _, _, jobs = _opening_jobs(source, seat, pairs, None, 1, players, starting_seat, _POSITION_SEED, "value", "greedy",
                               weights, None)
    out = []
    for job in jobs:
        g, _, _ = _opening_founding(job)
        worth = [position_value(g, q) for q in range(g.n)]
        out.append(worth[seat] - max((x for q, x in enumerate(worth) if q != seat), default=0.0))
    return np.array(out, dtype=float)


def _places(a_list: list[int], b_list: list[int], wanted: list[tuple[int, int]], seat: int) -> list[int]:
    """Where each wanted pair stands among the enumerated ones; ``ValueError`` naming the first that is not."""
    at = {pair: i for i, pair in enumerate(zip(a_list, b_list))}
    missing = [pair for pair in wanted if pair not in at]
    if missing:
        raise ValueError(f"seat {seat} cannot found {missing[0][0]} then {missing[0][1]} here")
    return [at[pair] for pair in wanted]


def seat_terms(
    source: Board | Game,
    seat: int,
    pairs: Iterable[tuple[int, int]],
    *,
    players: int = 4,
    starting_seat: int = 0,
    weights: PlacementWeights | None = None,
) -> dict[str, np.ndarray]:
    """Every seat's own founding terms when ``seat`` founds each of ``pairs`` and the others found as
    :func:`rank_openings` models them (each takes the best free site by single score in its turn).

    One array of shape ``(pairs, players)`` per :class:`PlacementWeights` field: row ``i`` is the founding
    that follows ``pairs[i]``, column ``q`` seat ``q``'s two buildings (its first-round site first).  The
    terms that read the rest of the founding (``room``, ``shared``, ``market``, ``frontier``) read it from that seat's
    place; ``rivals``, ``rival_diversity``, ``rival_best`` and ``position`` are 0, since a model of every seat reads the
    rivals from the other columns.  A seat the model leaves without two sites has a row of zeros.  What a
    fit of the weights on every seat's result starts from (``benchmarks/placement_fit.py --seats``): each
    playout says which seat won (:attr:`OpeningSimulation.winners`), not only whether ``seat`` did.

    Examples
    --------
    Seat 2 of three on a random board; the pair is any it may found (``ValueError`` otherwise):

    >>> from catan_nb import Board
    >>> pair = [(p.first, p.second) for p in rank_openings(Board.random(seed=2), 2, players=3, top=2)]
    >>> t = seat_terms(Board.random(seed=2), 2, pair, players=3)
    >>> t["production"].shape, bool(t["rivals"].any())
    ((2, 3), False)
    >>> own = opening_terms(Board.random(seed=2), 2, pair, players=3)
    >>> bool((t["production"][:, 2] == own["production"]).all() and (t["room"][:, 2] == own["room"]).all())
    True
    """
    wanted = [(int(a), int(b)) for a, b in pairs]
    names = [f.name for f in fields(PlacementWeights)]
    tab, _, a_list, b_list, _, _, _, _, seat_sites = _enumerate(source, seat, players, starting_seat, weights, True,
                                                                 only=set(wanted))
    n = tab.game.n
    out = {k: np.zeros((len(wanted), n)) for k in names}
    if not wanted:
        return out
    foundings = [seat_sites[i] for i in _places(a_list, b_list, wanted, seat)]
    # the intersections every founding building closes (itself and its neighbours, B-BUILD-7), per founding
    closed = [reduce(or_, (tab.closure[v] for sites in f.values() for v in sites), 0) for f in foundings]
    wide = ("room", "shared", "market", "frontier")
    for q in range(n):
        rows = [i for i, f in enumerate(foundings) if len(f.get(q, ())) >= 2]
        if not rows:
            continue
        t = tab.terms(np.array([foundings[i][q][0] for i in rows]), np.array([foundings[i][q][1] for i in rows]))
        found = np.array([tab.founding_terms(
            foundings[i][q][0], foundings[i][q][1],
            [(v, tab.kinds[min(j, 1)]) for p, sites in foundings[i].items() if p != q for j, v in enumerate(sites)],
            closed[i]) for i in rows], dtype=float)
        for k in names:
            if k in wide:
                out[k][rows, q] = found[:, wide.index(k)]
            elif k not in FOUNDING_WIDE:
                out[k][rows, q] = t[k]
    return out


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
    winners : tuple
        The seat that won each playout (``None`` when unfinished), in the same order: what a fit that reads
        every seat's result starts from (``benchmarks/placement_fit.py --seats``).  Empty for stored runs; rows
        compare equal without them.
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
    winners: tuple[int | None, ...] = field(default=(), compare=False)

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


def _spec(study: Game) -> tuple:
    """What a playout needs of the studied game to start again, picklable: board, seats, rules, starting
    seat, colours and the founding actions already played."""
    return (study.board, study.n, study.rules, study.starting_seat, study.colours, tuple(study.log))


def _fresh_game(spec: tuple, seed: int) -> Game:
    """A playout's game: the studied game's board, seats and rules (a board's own, SF-13, SC-13), with
    the founding actions already played replayed (they carry no chance: the replay is exact)."""
    board, n, rules, starting_seat, colours, log = spec
    g = Game(board, players=n, seed=seed, rules=rules, starting_seat=starting_seat, colours=colours)
    for a in log:
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
    max_turns, game_seed = job[8], job[9]
    dice = random.Random(game_seed ^ _DICE_STREAM)
    while not g.is_over and (max_turns is None or g.turn <= max_turns):
        a = bots[g.current_player].choose(g)
        if isinstance(a, RollDice) and a.dice is None:
            a = RollDice(tuple(dice.randint(1, 6) for _ in range(g.n_dice)))
        g.apply(a)
    return g, fell_back


def _opening_founding(job: tuple) -> tuple[Game, list, bool]:
    """The founding of one playout: the game after it, the bots, and whether the seat fell back.

    The seat founds its planned sites with the building of each round (a settlement, then a city in
    Cities & Knights, CK-SETUP-1); where a site is no longer legal it takes the best legal one by the
    score.  The other seats found by the score (``opponents="greedy"``, the table's ``orders``: the
    sites best first for each building) or by their bot."""
    (spec, seat, first, second, second_only, opponents, bot, orders, max_turns, game_seed, bot_seeds, _) = job
    make_bot = _BOTS[bot] if isinstance(bot, str) else bot
    g = _fresh_game(spec, game_seed)
    bots = [make_bot(s) for s in bot_seeds]
    todo = [second] if second_only else [first, second]
    fell_back = False
    while g.in_founding:  # a gold field's pick (SF-1) may come between two founding settlements
        p = g.current_player
        if g.phase is not Phase.FOUNDING_SETTLEMENT or (p != seat and opponents == "bot"):
            g.apply(bots[p].choose(g))
            continue
        legal = {a.node: a for a in g.legal_actions() if isinstance(a, (BuildSettlement, BuildCity))}
        kind = "city" if isinstance(next(iter(legal.values())), BuildCity) else "settlement"
        order = orders.get(kind) or next(iter(orders.values()))
        if p == seat:
            v = todo.pop(0)
            if v not in legal:
                v, fell_back = next((w for w in order if w in legal), next(iter(legal))), True
        else:
            v = next((w for w in order if w in legal), next(iter(legal)))
        g.apply(legal[v])
    return g, bots, fell_back


def _use_fast(study: Game, bot: Any, playouts: int) -> bool:
    """Whether the playouts play on in the compiled simulator after their founding: numba installed,
    a bot named ``"weighted"``, ``"random"`` or ``"value"``, rules it covers, and a job worth it
    (:func:`catan_nb.fast.wanted`)."""
    if not isinstance(bot, str) or _BOTS.get(bot) is not _DEFAULT_BOTS.get(bot):
        return False
    from .. import fast

    if bot not in fast.EXACT_POLICIES:
        return False
    if fast.covered(study.rules, study.n, board=study.board) is not None:
        return False
    return fast.wanted(fast.engine_seconds(playouts, bot, study.n), "play_from")


def _opening_playout(job: tuple) -> tuple[bool, bool, bool, int, int | None]:
    """One playout of :func:`simulate_openings`: (won, unfinished, fell back, VP at the end, the winning seat).

    After the founding, the compiled simulator plays the game on when it can (numba installed,
    a bot named ``"weighted"``, ``"random"`` or ``"value"``, rules it covers): its games are the
    engine's, draw for draw (:func:`catan_nb.fast.play_on`), so the result is the same."""
    seat, bot, max_turns, game_seed, use_fast = job[1], job[6], job[8], job[9], job[11]
    if use_fast:
        from .. import fast

        g, bots, fell_back = _opening_founding(job)
        end = fast.play_on(g, bot, bots=bots, rng=game_seed, dice=game_seed ^ _DICE_STREAM, max_turns=max_turns)
        winner = end["winner"]
        return winner == seat, winner is None, fell_back, end["vp"][seat], winner
    g, fell_back = _opening_game(job)
    return g.winner == seat, g.winner is None, fell_back, g.vp(seat), g.winner


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

    Every playout plays the game's own rules (a board's: those its file names): the seat founds its
    pair with the buildings of each round (a settlement, then a city in Cities & Knights, CK-SETUP-1),
    and the bots play on.  The compiled simulator (:mod:`catan_nb.fast`) plays on where it covers the
    rules (the base game, five or six players), the rule engine everywhere else.

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

    plan, heuristic, jobs = _opening_jobs(source, seat, pairs, top, playouts, players, starting_seat, seed, bot,
                                          opponents, weights, max_turns)
    desc = f"openings of seat {seat}"
    if client is None:
        results = [_opening_playout(job) for job in tqdm(jobs, desc=desc, disable=not progress)]
    elif hasattr(client, "gather"):  # a Dask client: futures, then gather (in job order)
        results = client.gather(client.map(_opening_playout, jobs, pure=False))
    else:  # a concurrent.futures executor
        results = list(tqdm(client.map(_opening_playout, jobs), total=len(jobs), desc=desc, disable=not progress))
    return _opening_rows(seat, plan, heuristic, results, playouts, confidence)


def _opening_jobs(source, seat, pairs, top, playouts, players, starting_seat, seed, bot, opponents, weights,
                  max_turns) -> tuple[list[tuple[int, int]], dict, list[tuple]]:
    """The pairs :func:`simulate_openings` plays, their scores, and one job per playout (pair by pair)."""
    if opponents not in ("greedy", "bot"):
        raise ValueError(f"opponents must be 'greedy' or 'bot', not {opponents!r}")
    if isinstance(bot, str) and bot not in _BOTS:
        raise ValueError(f"unknown bot {bot!r}; expected one of {', '.join(_BOTS)} or a callable")
    board, game, order, mine, fixed_first = _founding_state(source, seat, players, starting_seat)
    study = study_game(source, players, starting_seat)
    n = study.n
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
    use_fast = _use_fast(study, bot, len(plan) * playouts)
    tab = NodeTable(study, weights, seat=seat)
    orders = {kind: tab.greedy_order[kind] for kind in dict.fromkeys(tab.kinds)}
    spec = _spec(study)
    jobs = [(spec, seat, first, second, fixed_first is not None, opponents, bot, orders, max_turns, game_seeds[j],
             bot_seeds[j], use_fast) for first, second in plan for j in range(playouts)]
    return plan, heuristic, jobs


def _opening_rows(seat: int, plan: list[tuple[int, int]], heuristic: dict, results: list[tuple], playouts: int,
                  confidence: float) -> list[OpeningSimulation]:
    """:func:`simulate_openings`' rows from its playouts' results (pair by pair), highest win rate first."""
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
                tuple(None if r[4] is None else int(r[4]) for r in rows) if all(len(r) > 4 for r in rows) else (),
            )
        )
    out.sort(key=lambda r: (-r.win_rate.estimate, -r.vp.estimate, r.first, r.second))
    return out


@dataclass(frozen=True)
class StoredOpenings:
    """The playouts of a :func:`simulate_openings` call, played ahead of time and stored game by game.

    For a lesson whose playouts take longer than a class should wait (lesson 11, section 6, with value
    bots): :meth:`rows` gives what the call returns, and :meth:`check` replays some of the playouts to
    confirm the stored results (playout ``j`` depends only on the seed, ``j`` and the pair).  Made by
    ``docs/tools/make_opening_runs.py``; read with :func:`stored_openings`.

    Attributes
    ----------
    board : str
        The board, by the name of its :class:`~catan_nb.board.Board` constructor (``"beginner"``).
    seat, pairs, playouts, seed, bot, max_turns
        The options of the call (greedy opponents, four players, seat 0 starting).
    weights : str
        ``"classic"`` (:meth:`PlacementWeights.classic`) or ``"fitted"`` (``PlacementWeights()``).
    results : tuple
        For each pair, each playout's ``(won, unfinished, fell back, VP at the end)``.
    """

    board: str
    seat: int
    pairs: tuple[tuple[int, int], ...]
    playouts: int
    seed: int
    bot: str
    weights: str
    max_turns: int
    results: tuple[tuple[tuple[bool, bool, bool, int], ...], ...]

    def call(self) -> dict[str, Any]:
        """The arguments of the :func:`simulate_openings` call that made the playouts."""
        weights = {"classic": PlacementWeights.classic, "fitted": PlacementWeights}[self.weights]()
        return {"source": getattr(Board, self.board)(), "seat": self.seat, "pairs": self.pairs,
                "playouts": self.playouts, "seed": self.seed, "bot": self.bot, "weights": weights,
                "max_turns": self.max_turns}

    def rows(self, confidence: float = 0.95) -> list[OpeningSimulation]:
        """What the call returns: one row per pair, highest win rate first."""
        flat = [r for pair in self.results for r in pair]
        return _opening_rows(self.seat, list(self.pairs), {}, flat, self.playouts, confidence)

    def check(self, playouts: Iterable[int]) -> bool:
        """Replay the playouts ``playouts`` of every pair and confirm their stored results.

        Examples
        --------
        >>> stored_openings()["random"].check([0])
        True
        """
        c = self.call()
        _, _, jobs = _opening_jobs(c["source"], self.seat, self.pairs, None, self.playouts, 4, 0, self.seed,
                                   self.bot, "greedy", c["weights"], self.max_turns)
        wanted = list(playouts)
        return all(tuple(_opening_playout(jobs[k * self.playouts + j]))[:4] == tuple(self.results[k][j])
                   for k in range(len(self.pairs)) for j in wanted)

    @classmethod
    def play(cls, board: str, seat: int, pairs: Iterable[tuple[int, int]], playouts: int, seed: int, bot: str,
             weights: str, max_turns: int = 400) -> "StoredOpenings":
        """Play the playouts (as :func:`simulate_openings` would) and keep every result."""
        stored = cls(board, seat, tuple((int(a), int(b)) for a, b in pairs), playouts, seed, bot, weights, max_turns, ())
        c = stored.call()
        _, _, jobs = _opening_jobs(c["source"], seat, stored.pairs, None, playouts, 4, 0, seed, bot, "greedy",
                                   c["weights"], max_turns)
        flat = [tuple(_opening_playout(job)) for job in jobs]
        results = tuple(tuple((bool(w), bool(u), bool(f), int(v)) for w, u, f, v, _ in flat[k * playouts:(k + 1) * playouts])
                        for k in range(len(stored.pairs)))
        return replace(stored, results=results)

    def encode(self) -> str:
        """The results as text, one word per playout: ``w`` won, ``l`` lost, ``u`` unfinished, then the VP,
        and ``*`` when the seat fell back; pairs separated by ``|``."""
        return " | ".join(" ".join(("w" if w else "u" if u else "l") + str(v) + ("*" if f else "") for w, u, f, v in pair)
                          for pair in self.results)

    @staticmethod
    def decode(text: str) -> tuple[tuple[tuple[bool, bool, bool, int], ...], ...]:
        """The results that :meth:`encode` wrote."""
        return tuple(tuple((w[0] == "w", w[0] == "u", w.endswith("*"), int(w[1:].rstrip("*"))) for w in part.split())
                     for part in text.split("|"))


def stored_openings() -> dict[str, StoredOpenings]:
    """Lesson 11's playouts of seat 0's four best openings on the beginner board, by bot (``"random"``,
    ``"value"``): 16 games each on common seeds, stored by ``docs/tools/make_opening_runs.py``.

    Examples
    --------
    >>> runs = stored_openings()
    >>> sorted(runs), runs["value"].playouts, len(runs["value"].rows())
    (['random', 'value'], 16, 4)
    """
    from ._opening_runs import RUNS

    return {bot: StoredOpenings(results=StoredOpenings.decode(text), bot=bot, **options)
            for bot, (options, text) in RUNS.items()}


# ============================================================== heat map
_HEAT_TITLES = {
    "score": "placement score",
    "production": "cards/roll",
    "commodities": "commodities/roll",
    "diversity": "resource diversity",
    "sets": "sets (roads, cities, cards)",
    "scarcity": "scarcity bonus",
    "harbour": "harbour synergy",
    "numbers": "number diversity",
    "bonus": "points for settling",
    "targets": "targets within reach",
    "reach": "points within reach (not weighed)",
    "city_score": "score as the founding city",
    "pips": "pips",
    "opening": "best opening pair",
}
#: Heat-map metrics, by name, with their titles.
PLACEMENT_METRICS = dict(_HEAT_TITLES)


def placement_heat(
    source: Board | Game, metric: str = "score", *, seat: int = 0, players: int = 4, weights: PlacementWeights | None = None
) -> dict[int, float]:
    """A value per intersection for a heat map.

    Parameters
    ----------
    source : Board or Game
    metric : str
        ``"score"`` or one of its parts (:data:`SPOT_PARTS`), ``"city_score"`` (where the
        founding places a city: CK-SETUP-1), ``"pips"``, ``"reach"``: the victory points worth reaching
        from the spot before any weight (Catan tokens, SC-10; treasure, SF-4; fog to reveal, SF-3: the
        ``targets`` term, shown where its weight is 0 too), or ``"opening"``: the score of the best
        pair of ``seat`` that starts on the intersection (see :func:`rank_openings`).
    seat : int
        Whose openings (``"opening"``) and bonuses count.
    players : int
        With a board.
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
    rows = score_intersections(source, weights=weights, seat=seat, players=players)
    if metric == "city_score":
        return {int(r.node): float(r.city_score) for r in rows if r.city_score is not None}
    if metric == "reach":
        near = NodeTable(source, weights, seat=seat, players=players).near
        return {int(r.node): float(near[int(r.node)]) for r in rows}
    return {int(r.node): float(getattr(r, metric)) for r in rows}


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

    ``board_figure(game, heat=placement_heat(...), heat_title=...)``, drawn with the game's rule
    modules' own layers (gold fields, fog, tokens: a board is drawn as the game its file names);
    extra keyword arguments go to :func:`catan_nb.viz.board_figure`.

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
    shown = source if isinstance(source, Game) or not Rules.for_board(source).modules else study_game(source, players)
    return board_figure(shown, heat=heat, **figure_kwargs)

"""A value-function bot: greedy over explainable features of the position.

:class:`ValueBot` plays every legal action on a copy of the game in which what it cannot see
has been dealt again (:meth:`Game.determinized`), scores the result with :func:`position_value`
and plays the best.  The score is a weighted sum of features a Catan player would name:

======================  =====================================================================
feature                 meaning
======================  =====================================================================
``vp``                  victory points (own, hidden VP cards included: the bot knows its own)
``production``          expected cards per roll (settlements 1, cities 2; the robber's hex pays nothing)
``enemy_production``    the same for the average opponent (taking a contested spot, the robber)
``diversity``           how many of the five resources the player collects
``harbours``            2:1 harbours on resources it produces, 3:1 harbours
``spots``               the best free settlement spots its roads (and ships) reach or nearly reach,
                        each worth its production and what settling it earns besides (a
                        foreign island's special points...), less for every path piece still to build
``targets``             intersections worth reaching with a path piece (a Catan token, treasure, a
                        canal locality), discounted the same way
``buildable``           how many free spots a settlement could go on now
``road``                its longest road against the best opponent's (the Longest Road race)
``army``                knights played and playable (the Largest Army race)
``hand``                cards towards the next build it can make (city, settlement, road, a module's)
``risk_7``              cards above the discard limit, weighted by the chance of a 7
``dev``                 development cards held
``card``                cards in hand, up to the limit
======================  =====================================================================

Every rule module of the game adds its own features, declared in
:mod:`catan_nb.analysis.bot_features` (a registry keyed by module name: Seafarers' ships toward
foreign islands, the pirate, gold and fog; Cities & Knights' improvements, metropolis race,
knights against the barbarians and progress cards; the scenarios' tokens and canals; Friends'
favours; the helper held), so the bot names no module.  An action that pushes the bot's own
decisions (Road Building's free roads, a metropolis to place) is weighed by them played out, and a
card that lowers a price or a rate this turn by the best action it allows next.

Weights live in :data:`DEFAULT_WEIGHTS` (documented there) and the modules' classes, and can be
replaced per bot.  The robber goes where it hurts the leader most and steals from the leader (a
module weighs its own robber-like moves: the pirate); trades are answered by value (a fair offer
that helps the bot is accepted; nothing goes to a player about to win), and offered one for one when a
card short of a city, a settlement or a module's urgent purchase (:data:`URGENT_BUILD`).  Each choice carries its
reasons as data, :attr:`Choice.reasons`: the weighted changes of the features that moved most.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.analysis.bots import play_game
>>> g = play_game(Game(Board.beginner(), seed=3, start="beginner"), [ValueBot(seed=s) for s in range(4)])
>>> g.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import repeat
from operator import mul

from ..constants import RESOURCES, DevCard, Terrain
from ..rules import (
    AcceptTrade,
    Action,
    ConfirmTrade,
    DeclineTrade,
    EndTurn,
    Game,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    RollDice,
)
from .bot_features import Context, ModuleFeatures, best_two, features_for

__all__ = ["ValueBot", "position_value", "features", "weights_for", "DEFAULT_WEIGHTS", "URGENT_BUILD", "Choice"]

N_RES = len(RESOURCES)
#: How much a free spot (or a target) counts by the path pieces still to build to reach it.
SPOT_DISCOUNT = (1.0, 0.5, 0.25, 0.15, 0.1, 0.07, 0.05, 0.035)
#: The base game's reach: spots up to two roads away.
BASE_REACH = 2
#: A victory point earned by settling a spot or reaching a target, on the spots' scale (cards per roll).
SPOT_VP = 0.3
#: A card of one's choice (a gold field's pick) against a given resource.
GOLD_WORTH = 1.2
#: A rule module's purchase wanted as much as a city (its ``builds`` weight): the bot offers a trade for it.
URGENT_BUILD = 1.5
#: Chance of a 7 on a roll.
P7 = 6 / 36

#: Default weights of :func:`position_value`; each feature is described in the module docstring.
#: Tuned by hand on seeded games: against catanatron's value-function bot through
#: ``benchmarks/vs_catanatron.py``'s bridge, then checked with ``benchmarks/ladder.py``.
#: The rule modules' features and weights are declared in :mod:`catan_nb.analysis.bot_features`.
DEFAULT_WEIGHTS: dict[str, float] = {
    "vp": 1000.0,               # a victory point: above everything else
    "production": 500.0,        # per expected card per roll (a settlement on 11 pips: 0.31, so about 150)
    "enemy_production": -200.0,  # per expected card per roll of the average opponent
    "diversity": 6.0,           # per resource collected at all
    "harbours": 5.0,            # a 2:1 harbour on a produced resource (3:1: a third of it)
    "spots": 150.0,             # production of the two best free spots, x1 if buildable now, x1/2 one road away, x1/4 two
    "targets": 150.0,           # the best intersections worth reaching (a token...), in VP x SPOT_VP, discounted like spots
    "buildable": 30.0,          # free spots where a settlement can go now (at most 2 counted)
    "road": 10.0,               # per road segment of lead in the Longest Road race (capped at 3)
    "army": 6.0,                # per knight played or held, while the Largest Army race is open
    "hand": 14.0,               # progress towards the best next build (city, settlement, road)
    "risk_7": 3.0,              # per card above the limit, times P(7)
    "dev": 5.0,                 # per development card held (knights are counted in army too)
    "card": 1.0,                # per card in hand (a card is worth a little whatever it is)
}


@dataclass(frozen=True)
class Choice:
    """One action the bot weighed, its value, and the reasons: ``(feature, weighted change)`` pairs of
    the features that moved most from the position before (see :meth:`ValueBot.explain`)."""

    action: Action
    value: float
    reasons: tuple[tuple[str, float], ...] = ()


_RES_INDEX = {t: (-1 if t.resource is None else t.resource.value) for t in Terrain}
#: Hex yields and intersection productions by board, hexes and robber (a search meets the same ones often).
_YIELDS: dict[tuple, tuple] = {}
#: Per piece-kind table and modules: what a piece of each kind id collects, and the path kinds.
_KINDS: dict[tuple, tuple] = {}


def _chance(token: int) -> float:
    return (6 - abs(7 - token)) / 36


def _yields(game: Game, mods) -> tuple[list[tuple], dict[int, float], dict[int, tuple], dict[tuple, tuple]]:
    """Each hex's ``((good, chance per roll), ...)`` now (the robber's hex yields nothing; the modules
    price what the base game cannot), and memos under it of each intersection's spot score, of
    its producing hexes' yields and of the production sums of :func:`_production`."""
    t = game.topology
    last = _LAST_YIELDS
    if last[0] is t and last[1] is mods and last[2] == game.robber and last[3] == game.hex_terrain \
            and last[4] == game.hex_token:  # the hexes of the last call (a decision's positions mostly share them)
        hit = last[5]
        return hit[1], hit[2], hit[3], hit[4]
    key = (id(t), game.robber, tuple(game.hex_terrain), tuple(game.hex_token), mods)
    hit = _YIELDS.get(key)
    if hit is None or hit[0] is not t:
        if len(_YIELDS) >= 4096:
            _YIELDS.clear()
        hy: list[tuple] = []
        robber = game.robber
        for h, terrain in enumerate(game.hex_terrain):  # the hexes now (a fog hex revealed, SF-3)
            r, tok = _RES_INDEX[terrain], game.hex_token[h]
            if h == robber:
                hy.append(())
            elif r >= 0 and tok:
                hy.append(((r, _chance(tok)),))
            else:  # no resource or no token: a module may know better (gold, fog, a token to come)
                y: tuple = ()
                for m in mods:
                    got = m.hex_yield(game, h)
                    if got is not None:
                        y = tuple(got)
                        break
                hy.append(y)
        hit = _YIELDS[key] = (t, hy, {}, {}, {})
    last[:] = [t, mods, key[1], list(key[2]), list(key[3]), hit]
    return hit[1], hit[2], hit[3], hit[4]


#: The last :func:`_yields` asked: topology, feature objects, robber, terrains, tokens and the memo entry.
_LAST_YIELDS: list = [None] * 6


def _node_prod(bd, hy, v: int) -> tuple[list[float], float]:
    prod = [0.0] * N_RES
    anyc = 0.0
    for h in bd.node_hexes[v]:
        for r, p in hy[h]:
            if r >= 0:
                prod[r] += p
            else:
                anyc += p
    return prod, anyc


def _spot_score(prod: list[float], anyc: float = 0.0) -> float:
    return sum(prod) + GOLD_WORTH * anyc + 0.02 * sum(1 for x in prod if x > 0)


def _kinds(game: Game, mods) -> tuple[list[int], list[tuple[int, str, tuple[bool, ...]]]]:
    """What a piece of each kind id collects, and each buildable path kind's ``(id, name, allowed paths)``."""
    t = game.topology
    key = (id(game.kinds), id(t), mods)
    hit = _KINDS.get(key)
    if hit is None or hit[0] is not game.kinds:
        produces = tuple([pk.produces if pk is not None else 0 for pk in game.kinds])
        paths = []
        for k, pk in enumerate(game.kinds):
            if pk is None or pk.site != "path" or not pk.cost:
                continue
            ok = [(pk.land and a) or (pk.sea and b) for a, b in zip(t.edge_land, t.edge_sea)]
            for m in mods:
                allowed = m.path_filter(game, pk.name)
                if allowed is not None:
                    ok = [x and e in allowed for e, x in enumerate(ok)]
            adj = tuple(tuple((e, b if a == v else a) for e in t.node_edges[v] if ok[e]
                              for a, b in (t.edge_nodes[e],)) for v in range(t.n_nodes))
            paths.append((k, pk.name, adj))
        blocks = [bool(pk is not None and pk.blocks) for pk in game.kinds]
        hit = _KINDS[key] = (game.kinds, t, produces, paths, blocks)
    return hit[2], hit[3], hit[4]


def _reach(game: Game, player: int, paths, blocks, depth: int, left: dict[str, int] | None = None) -> dict[int, int]:
    """Path pieces ``player`` needs to reach each intersection within ``depth`` (0: reached now), along
    each path kind it can still build, never through an opponent's blocking piece (B-BUILD-5);
    ``left`` is ``game.pieces_left(player)`` if known."""
    owner, nkind = game.node_owner, game.node_kind
    eo = game.edge_owner
    if left is None:
        left = game.pieces_left(player)
    own = [v for v in game.occupied if owner[v] == player]
    dist: dict[int, int] = {}
    for k, name, adj in paths:
        start = set(game.reach[k][player])
        n_left = left.get(name, 0)
        if n_left > 0:
            start.update(own)
        fresh = not dist  # every intersection this kind finds is new to ``dist``
        for v in start:
            dist[v] = 0
        if n_left <= 0:
            continue
        seen = set(start)
        add = seen.add
        frontier = list(start)
        for d in range(1, min(depth, n_left) + 1):
            nxt = []
            push = nxt.append
            for v in frontier:
                o = owner[v]
                if o >= 0 and o != player and blocks[nkind[v]]:
                    continue  # an opponent's building or knight cuts the way (B-BUILD-5, CK-KN-7)
                for e, u in adj[v]:
                    if eo[e] < 0 and u not in seen:
                        add(u)
                        push(u)
                        if fresh or dist.get(u, 99) > d:
                            dist[u] = d
            frontier = nxt
    return dist


class _Plan:
    """What :func:`features` needs of a game that its copies share (its pieces, modules and board)."""

    __slots__ = ("kinds", "modules", "topology", "mods", "produces", "paths", "blocks", "depth", "candidates",
                 "settlement", "bonus_mods", "target_mods", "build_mods", "feature_mods")

    def __init__(self, game: Game) -> None:
        self.kinds, self.modules, self.topology = game.kinds, game.modules, game.topology
        self.mods = mods = features_for(game)
        self.produces, self.paths, self.blocks = _kinds(game, mods)
        self.depth = max([BASE_REACH] + [m.reach for m in mods])
        #: The rule modules that limit where a piece may go, in their order.
        self.candidates = tuple(m for m in game.modules if m.overrides("allowed_sites") or m.overrides("candidates"))
        self.settlement = game.kind_id.get("settlement")
        # the feature objects that add something (the others' methods give nothing: skipped)
        self.bonus_mods, self.target_mods, self.build_mods, self.feature_mods = (
            tuple(m for m in mods if getattr(type(m), name) is not getattr(ModuleFeatures, name))
            for name in ("spot_bonus", "targets", "builds", "features"))


#: The last plan made, and the plans by ids of what they depend on (each holding it alive).
_PLANS: dict[tuple, _Plan] = {}
_LAST_PLAN: list = [None]


def _plan(game: Game) -> _Plan:
    mods = features_for(game)  # (a new tuple once a module's features are registered)
    p = _LAST_PLAN[0]
    if p is not None and p.kinds is game.kinds and p.modules is game.modules and p.topology is game.topology \
            and p.mods is mods:
        return p
    key = (id(game.kinds), id(game.modules), id(game.topology))
    p = _PLANS.get(key)
    if p is None or p.kinds is not game.kinds or p.modules is not game.modules or p.topology is not game.topology \
            or p.mods is not mods:
        if len(_PLANS) >= 256:
            _PLANS.clear()
        p = _PLANS[key] = _Plan(game)
    _LAST_PLAN[0] = p
    return p


#: Per seat (and number of seats), the pieces and hexes of its last :func:`features` and what they
#: gave: the production sums, the pieces left, the reach and the road lengths (they read nothing else),
#: and its settlement spots with the free intersections and the spot bonuses they were valued with.
_LAST_BOARD: dict[tuple[int, int], list] = {}

#: :func:`_reach` results by their inputs: the candidate positions of one decision mostly share them.
_REACH: dict[tuple, tuple] = {}


def _reach_memo(game: Game, player: int, paths, blocks, depth: int, left: dict[str, int],
                owner_t: tuple, kind_t: tuple, eo_t: tuple) -> dict[int, int]:
    """:func:`_reach`, memoised on everything it reads: the intersections' owners and kinds
    (``owner_t``, ``kind_t``, ``eo_t``: tuples of ``game.node_owner``, ``game.node_kind`` and
    ``game.edge_owner``), the buildings, the player's reach and pieces left of every path kind.  A new
    dict each call."""
    reach = game.reach
    key = (id(paths), player, depth, owner_t, kind_t, tuple(game.occupied), eo_t,
           tuple([(frozenset(reach[k][player]), left.get(name, 0)) for k, name, _ in paths]))
    hit = _REACH.get(key)
    if hit is None or hit[0] is not paths or hit[1] is not blocks:
        if len(_REACH) >= 4096:
            _REACH.clear()
        hit = _REACH[key] = (paths, blocks, _reach(game, player, paths, blocks, depth, left))
    return hit[2].copy()


#: Every seat's longest road by the pieces on the board (a pure function of them, B-LR-1..3, SF-8).
_LENGTHS: dict[tuple, tuple] = {}


def _road_lengths(game: Game, plan: _Plan, board: tuple) -> list[int]:
    """``game.road_lengths()``, memoised on ``board``: the number of seats and the tuples of the
    intersections' owners and kinds and of the paths' owners and kinds, all a trail depends on (the candidate positions of a decision,
    and of the next ones, recount the same networks).  Read only."""
    hit = _LENGTHS.get(board)
    if hit is None or hit[0] is not plan:
        if len(_LENGTHS) >= 4096:
            _LENGTHS.clear()
        hit = _LENGTHS[board] = (plan, game.road_lengths())
    return hit[1]


def _production(game: Game, player: int, produces: tuple, hy: list, node_yields: dict, memo: dict,
                owner_t: tuple, kind_t: tuple) -> tuple[list[float], float, float]:
    """The player's expected cards per roll by resource, its cards of choice (gold) per roll, and the
    opponents' total, from the buildings on the board (``owner_t``, ``kind_t``: tuples of the
    intersections' owners and kinds); memoised in ``memo`` (of the hexes now, :func:`_yields`) on
    all it reads.  The list is the caller's own."""
    key = (player, owner_t, kind_t, tuple(game.occupied), produces)
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= 4096:
            memo.clear()
        prod = [0.0] * N_RES
        anyc = 0.0
        others = 0.0  # the opponents' expected cards per roll
        for v in sorted(game.occupied):  # the buildings, in intersection order
            k = produces[kind_t[v]]
            if k:
                terms = node_yields.get((v, k))
                if terms is None:  # what a piece collecting k at v adds: to its owner, to the opponents' sum
                    rp = node_yields.get(v)
                    if rp is None:  # (good, chance) of each producing hex at v, in hex order
                        rp = node_yields[v] = tuple(x for h in game.topology.node_hexes[v] for x in hy[h])
                    terms = node_yields[(v, k)] = (tuple((r, k * p) for r, p in rp),
                                                   tuple(k * p * (1.0 if r >= 0 else GOLD_WORTH) for r, p in rp))
                if owner_t[v] == player:
                    for r, x in terms[0]:
                        if r >= 0:
                            prod[r] += x
                        else:
                            anyc += x
                else:
                    for x in terms[1]:
                        others += x
        hit = memo[key] = (tuple(prod), anyc, others)
    return list(hit[0]), hit[1], hit[2]


def features(game: Game, player: int, ctx: Context | None = None) -> dict[str, float]:
    """The features of :func:`position_value` for ``player`` (see the module docstring), the rule
    modules' own included (:mod:`catan_nb.analysis.bot_features`)."""
    plan = _plan(game)
    mods = plan.mods
    bd = plan.topology  # plain data derived once from the graph
    hy, spot_score, node_yields, prod_memo = _yields(game, mods)
    produces, paths, blocks = plan.produces, plan.paths, plan.blocks
    owner = game.node_owner
    last = _LAST_BOARD.get((player, game.n))
    if last is not None and last[0] is plan and last[1] == owner and last[2] == game.node_kind \
            and last[3] == game.edge_owner and last[4] == game.edge_kind and last[5] == game.occupied \
            and last[6] == game.robber and last[7] == game.hex_terrain and last[8] == game.hex_token:
        # the pieces and hexes of the player's last position (a decision's positions mostly share them)
        prod, anyc, others = list(last[9]), last[10], last[11]
        left, dist, lengths = last[12], last[13].copy(), last[14]
        spot_memo = last[15]
    else:
        owner_t, kind_t = tuple(owner), tuple(game.node_kind)
        prod, anyc, others = _production(game, player, produces, hy, node_yields, prod_memo, owner_t, kind_t)
        left = game.pieces_left(player)
        eo_t = tuple(game.edge_owner)
        dist = _reach_memo(game, player, paths, blocks, plan.depth, left, owner_t, kind_t, eo_t)
        if -1 in game.road_length:  # a trail the engine has yet to recount (it counts lazily)
            lengths = _road_lengths(game, plan, (game.n, owner_t, kind_t, eo_t, tuple(game.edge_kind)))
        else:
            lengths = game.road_lengths()
        last = _LAST_BOARD[(player, game.n)] = [
            plan, list(owner_t), list(kind_t), list(eo_t), game.edge_kind[:], game.occupied[:], game.robber,
            game.hex_terrain[:], game.hex_token[:], tuple(prod), anyc, others, left, dist.copy(), lengths, None]
        spot_memo = None
    rates = game.rates(player)
    production = sum(prod) + GOLD_WORTH * anyc
    diversity = 0
    harbours = 0.0
    for r in range(N_RES):
        if prod[r] > 0:
            diversity += 1
            if rates[r] == 2:
                harbours += 1.0
    harbours += 0.33 if min(rates[:N_RES]) == 3 else 0.0
    if ctx is None:
        ctx = Context(player)
    ctx.prod, ctx.any = prod, anyc
    # Reachable spots: free intersections within the bot's reach of the player's network.
    spots = targets = 0.0
    buildable = 0
    ctx.dist = dist
    if left.get("settlement", 0) > 0:
        blocked, land = game.blocked, bd.node_land
        free = [v for v in dist if not blocked[v] and land[v] and owner[v] < 0]
        if plan.candidates:  # the modules' own limits on settlements built later (scenario spaces, SC-5)
            free = game.filter_sites(player, "settlement", free)
        bonuses = [b for b in (m.spot_bonus(game, player) for m in plan.bonus_mods) if b]
        if spot_memo is not None and spot_memo[0] == free and spot_memo[1] == bonuses:
            # the same spots, reached the same way and worth the same as in the last position
            vals, spots, buildable = list(spot_memo[2]), spot_memo[3], spot_memo[4]
        else:
            vals = []
            for v in free:
                score = spot_score.get(v)
                if score is None:
                    score = spot_score[v] = _spot_score(*_node_prod(bd, hy, v))
                d = dist[v]
                if bonuses:
                    bonus = 0.0
                    for b in bonuses:
                        bonus += b.get(v, 0.0)
                    vals.append(((score + SPOT_VP * bonus) * SPOT_DISCOUNT[d], v, d))
                else:  # score + SPOT_VP * 0.0 is score
                    vals.append((score * SPOT_DISCOUNT[d], v, d))
                if d == 0:
                    buildable += 1
            vals.sort(reverse=True)
            spots = sum([x[0] for x in vals[:2]])
            buildable = min(2, buildable)
            last[15] = (free, bonuses, tuple(vals), spots, buildable)
        ctx.spots = vals
    if plan.target_mods:
        tv = []
        for m in plan.target_mods:
            for v, worth in m.targets(game, player).items():
                d = dist.get(v)
                if d:  # reached (d == 0): collected already
                    tv.append(SPOT_VP * worth * SPOT_DISCOUNT[d])
        targets = best_two(tv) if tv else 0.0
    mine = lengths[player]
    if mine >= 3:
        best_other = max([lengths[q] for q in range(game.n) if q != player], default=0)
        road = max(-3, min(3, mine - best_other))
    else:
        road = 0
    held = game.dev_counts(player)  # by DevCard value
    knights_held = held[_KNIGHT]
    army_open = game.largest_army_holder != player
    army = (game.knights_played(player) + 0.5 * knights_held) if army_open else 0.0
    total = sum(game.discardable(player))  # what a 7 counts: commodities too (CK-COM-1), not goods kept out (B-ROB-2)
    progress = 0.0
    builds = []
    if left.get("city", 0) > 0 and game.placed[plan.settlement][player]:
        builds.append((game.cost("city"), 1.3))
    if left.get("settlement", 0) > 0:
        builds.append((game.cost("settlement"), 1.2 if spots > 0 else 0.2))
    if left.get("road", 0) > 0:
        builds.append((game.cost("road"), 0.45))
    for m in plan.build_mods:
        builds += m.builds(game, player)
    full = game.hands[player]
    for cost, weight in builds:
        hit = _NEEDS.get(cost) if type(cost) is tuple else None
        if hit is None:
            hit = (sum(cost), tuple((r, c) for r, c in enumerate(cost) if c))
            if type(cost) is tuple:
                if len(_NEEDS) >= 4096:
                    _NEEDS.clear()
                _NEEDS[cost] = hit
        need = hit[0]
        if need:
            have = 0
            for r, c in hit[1]:
                have += full[r] if full[r] < c else c
            x = weight * (have / need) ** 2
            if x > progress:
                progress = x
    limit = game.hand_limit(player)
    risk = max(0, total - limit) * P7
    dev = sum(held)
    out = {
        "vp": float(game.vp(player)), "production": production, "enemy_production": others / max(game.n - 1, 1),
        "diversity": float(diversity),
        "harbours": harbours, "spots": spots, "buildable": float(buildable), "road": float(road), "army": float(army), "hand": progress,
        "risk_7": -risk, "dev": float(dev), "card": float(min(total, limit)),
    }
    if targets:
        out["targets"] = targets
    for m in plan.feature_mods:
        out.update(m.features(game, player, ctx))
    return out


_KNIGHT = DevCard.KNIGHT.value
def _forget() -> None:
    """Empty every memo of this module (for tests: what a memo gives must be what a fresh computation
    gives)."""
    for memo in (_YIELDS, _KINDS, _REACH, _LENGTHS, _PLANS, _LAST_BOARD, _NEEDS, _WEIGHTS):
        memo.clear()
    _LAST_YIELDS[:] = [None] * 6
    _LAST_PLAN[0] = None


_WEIGHTS: dict[tuple, dict[str, float]] = {}
#: A build's cost (counts per good) -> (cards it needs, its ``(good, count)`` pairs of nonzero counts).
_NEEDS: dict[tuple, tuple[int, tuple[tuple[int, int], ...]]] = {}


def weights_for(game: Game, weights: Mapping[str, float] | None = None) -> dict[str, float]:
    """The weights of a game: its modules' declared weights (:mod:`~catan_nb.analysis.bot_features`),
    then :data:`DEFAULT_WEIGHTS`, or ``weights``, on top.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> w = weights_for(Game(Board.beginner(), rules=Rules(modules=("cities_knights",))))
    >>> w["vp"], w["improvements"] > 0
    (1000.0, True)
    """
    mods = features_for(game)
    key = (mods, None if weights is None else tuple(weights.items()))
    hit = _WEIGHTS.get(key)
    if hit is None:
        if len(_WEIGHTS) > 256:
            _WEIGHTS.clear()
        hit = {}
        for m in mods:
            hit.update(m.weights)
        hit.update(DEFAULT_WEIGHTS if weights is None else weights)
        _WEIGHTS[key] = hit
    return hit


def position_value(game: Game, player: int, weights: Mapping[str, float] | None = None) -> float:
    """The bot's score of a position for ``player``: the weighted sum of :func:`features` with
    :func:`weights_for` the game (``weights`` replace :data:`DEFAULT_WEIGHTS`)."""
    if game.is_over:
        return 1e6 if game.winner == player else -1e6
    w = weights_for(game, weights)
    return _score(w, features(game, player))


def _score(w: Mapping[str, float], f: Mapping[str, float]) -> float:
    """The weighted sum of features ``f``, in their order (missing weights count 0)."""
    return sum(map(mul, map(w.get, f, repeat(0.0)), f.values()))


def _reasons(w: Mapping[str, float], before: Mapping[str, float], after: Mapping[str, float],
             top: int = 4) -> tuple[tuple[str, float], ...]:
    """The features that changed most from ``before`` to ``after``, weighted: ``(name, change)`` pairs."""
    ch = [(k, w.get(k, 0.0) * (v - before.get(k, 0.0))) for k, v in after.items()]
    ch += [(k, -w.get(k, 0.0) * v) for k, v in before.items() if k not in after]
    ch = [(k, round(x, 2)) for k, x in ch if abs(x) >= 0.005]
    ch.sort(key=lambda kx: -abs(kx[1]))
    return tuple(ch[:top])


#: The founding phase's decisions (B-SETUP-17): weighed without playing out what follows (and, by the
#: search bot, with the weights the game's modules give the founding).
FOUNDING_PHASES = (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD)
#: Phases whose decisions are not played out after an action: the turn's own, and the founding's.
_NO_CHAIN = (Phase.MAIN, Phase.ROLL, *FOUNDING_PHASES)


def _one_for_one(game: Game, hand: list[int], cost, offered: frozenset | None = None) -> OfferTrade | None:
    """A one-for-one offer for the one card ``hand`` lacks of ``cost`` (counts per good), giving the card
    it holds most beyond the cost; ``None`` unless exactly one card short with a surplus to give.

    A further offer in the same turn (B-TRADE-2, B-TRADE-5) passes ``offered``, the goods offered
    already: it gives a surplus card not among them, else two surplus cards (the most plentiful first)."""
    k = len(cost)
    missing = [r for r in range(k) if hand[r] < cost[r]]
    if len(missing) != 1 or cost[missing[0]] - hand[missing[0]] != 1:
        return None
    surplus = {r: hand[r] - cost[r] for r in range(k) if hand[r] > cost[r]}
    g_vec = [0] * game.n_goods  # commodities too (CK-COM-1)
    fresh = [r for r in surplus if offered is None or r not in offered]
    if fresh:
        g_vec[max(fresh, key=lambda r: surplus[r])] = 1
    elif offered is not None and sum(surplus.values()) >= 2:
        for _ in range(2):
            g_vec[max(surplus, key=lambda r: surplus[r] - g_vec[r])] += 1
    else:
        return None
    w_vec = tuple(1 if r == missing[0] else 0 for r in range(game.n_goods))
    return OfferTrade(tuple(g_vec), w_vec)


def steal_value(victim_vp: int, victim_cards: int) -> float:
    """The worth of stealing from a player with ``victim_vp`` visible points and ``victim_cards`` cards."""
    return 2.0 + 0.8 * victim_vp + 0.2 * min(victim_cards, 8)


class ValueBot:
    """Greedy over :func:`position_value`, deciding only on what its seat may know.

    Parameters
    ----------
    seed : int or random.Random
        The bot's own generator (determinisations and ties).
    weights : mapping, optional
        Replaces :data:`DEFAULT_WEIGHTS` (missing keys count 0); the rule modules' own weights
        (:mod:`~catan_nb.analysis.bot_features`) apply unless named here.
    offers : bool
        Make one-for-one domestic offers when one card short of a build.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> g = Game(Board.beginner(), seed=1)
    >>> bot = ValueBot(seed=0)
    >>> type(bot.choose(g)).__name__
    'BuildSettlement'
    >>> [type(c.action).__name__ for c in bot.explain(g, top=2)]
    ['BuildSettlement', 'BuildSettlement']
    """

    def __init__(self, seed: int | random.Random | None = 0, weights: Mapping[str, float] | None = None,
                 *, offers: bool = True):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        self.offers = offers
        self.last: list[Choice] = []

    # ------------------------------------------------------------------ the choice
    def choose(self, game: Game) -> Action:
        """The action to play for ``game.current_player``."""
        ranked = self.explain(game, top=None)
        return ranked[0].action

    def explain(self, game: Game, top: int | None = 3) -> list[Choice]:
        """The legal actions weighed, best first (``top`` of them), with their values (and, for the best
        three, their :attr:`~Choice.reasons`)."""
        me = game.current_player
        acts = game.legal_actions()
        if len(acts) == 1:
            self.last = [Choice(acts[0], 0.0)]
            if self.offers and game.phase is Phase.MAIN and game.can_trade():
                offer = self.module_offer_for(game, me)  # nothing else to do: ask for what a module wants
                if offer is not None:
                    self.last.insert(0, Choice(offer, 0.5))
            return self.last
        phase = game.phase
        if phase is Phase.TRADE_RESPONSE:
            ranked = self._answer(game, me, acts)
        elif phase is Phase.TRADE_CONFIRM:
            ranked = self._confirm(game, me, acts)
        elif phase is Phase.MOVE_ROBBER:
            ranked = self._robber(game, me, acts)
        else:
            ranked = self._by_value(game, me, acts)
            if self.offers and phase is Phase.MAIN and game.can_trade():
                offer = self.offer_for(game, me)
                if offer is not None and ranked[0].value <= self._base + 1e-9:
                    ranked.insert(0, Choice(offer, ranked[0].value + 0.5))
                elif offer is None and ranked[0].value <= self._base + 1e-5:  # nothing better to do (ties jitter)
                    offer = self.module_offer_for(game, me)
                    if offer is not None:
                        ranked.insert(0, Choice(offer, ranked[0].value + 0.5))
        self.last = ranked if top is None else ranked[:top]
        return self.last

    def _by_value(self, game: Game, me: int, acts: list[Action]) -> list[Choice]:
        d = game.determinized(me, self.rng.getrandbits(32))
        d.road_lengths()  # counted once here (a cache of the game's), not again in every copy below
        w = weights_for(d, self.weights)
        mods = features_for(d)
        ahead = tuple(t for m in mods for t in m.lookahead)
        before = features(d, me)
        self._base = base = _score(w, before)
        choosers = tuple(m for m in mods if type(m).choice_value is not ModuleFeatures.choice_value)
        phase = game.phase
        chain = phase not in FOUNDING_PHASES  # the decisions an action pushes are played out (not in the founding)
        out = []
        seen: list[dict | None] = []
        for a in acts:
            if isinstance(a, RollDice):
                out.append(Choice(a, base))
                seen.append(None)
                continue
            c = d.copy()
            c.apply(a)
            if chain and c.current_player == me and c.phase is not phase and c.phase not in _NO_CHAIN:
                c = self._own_decisions(c, me, w)  # e.g. the free roads of Road Building, a metropolis to place
            if c.is_over:
                v, f = (1e6 if c.winner == me else -1e6), None
            else:
                f = features(c, me)
                v = _score(w, f)
                if ahead and isinstance(a, ahead) and any(m.needs_lookahead(d, me, a) for m in mods):
                    v = max(v, self._follow_up(c, me, w))
            if isinstance(a, PlayKnight) and phase is Phase.ROLL:
                # before the roll: worth it when the robber sits on the bot's own production
                v += 8.0 if self._robbed(game, me) else -4.0
            for m in choosers:  # (the others' bonus is 0.0)
                v += m.choice_value(d, me, a)
            out.append(Choice(a, v + self.rng.random() * 1e-6))
            seen.append(f)
        order = sorted(range(len(out)), key=lambda i: -out[i].value)
        ranked = [out[i] for i in order]
        for j, i in enumerate(order[:3]):  # the reasons of the best three: what moved most
            f = seen[i]
            why = (("win", 1e6),) if f is None and out[i].value >= 1e6 else (
                () if f is None else _reasons(w, before, f))
            ranked[j] = Choice(ranked[j].action, ranked[j].value, why)
        return ranked

    def greedy(self, game: Game, limit: int | None = 24) -> Action:
        """The best action for ``game.current_player`` by the value of the position it leads to, on
        ``game`` itself: for a game that is a determinisation already (the search bot's playouts),
        with no further deal, no playing-out of the decisions it pushes and no reasons.  With more
        than ``limit`` legal actions, a random ``limit`` of them are weighed (ending the turn always)."""
        me = game.current_player
        acts = game.legal_actions()
        if len(acts) == 1:
            return acts[0]
        if limit is not None and len(acts) > limit:
            end = [a for a in acts if isinstance(a, EndTurn)]
            acts = self.rng.sample(acts, limit) + end
        phase = game.phase
        if phase is Phase.TRADE_RESPONSE:
            return self._answer(game, me, acts)[0].action
        if phase is Phase.TRADE_CONFIRM:
            return self._confirm(game, me, acts)[0].action
        if phase is Phase.MOVE_ROBBER:
            return self._robber(game, me, acts)[0].action
        w = weights_for(game, self.weights)
        game.road_lengths()  # counted once here (a cache of the game's), not again in every copy below
        best, best_v = acts[0], -1e18
        for a in acts:
            if isinstance(a, RollDice):
                v = position_value(game, me, w)
                if v > best_v:
                    best, best_v = a, v
                continue
            c = game.copy()
            c.apply(a)
            v = position_value(c, me, w) + self.rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best

    def _own_decisions(self, c: Game, me: int, w: Mapping[str, float], limit: int = 4) -> Game:
        """Play the bot's own decisions an action pushed (greedily, at most ``limit``; the robber by
        :meth:`_robber`), to value the action by what it leads to."""
        for _ in range(limit):
            if c.is_over or c.current_player != me or c.phase in (Phase.MAIN, Phase.ROLL):
                break
            acts = c.legal_actions()
            if not acts:
                break
            if c.phase is Phase.MOVE_ROBBER:
                c = c.copy()
                c.apply(self._robber(c, me, acts)[0].action)
                continue
            best, best_v = None, -1e18
            c.road_lengths()  # counted once, not in every copy
            for b in acts[:40]:
                c2 = c.copy()
                c2.apply(b)
                v = position_value(c2, me, w)
                if v > best_v:
                    best, best_v = c2, v
            c = best
        return c

    def _follow_up(self, c: Game, me: int, w: Mapping[str, float]) -> float:
        """The best value after one more action of the bot's this turn (for :attr:`ModuleFeatures.lookahead`)."""
        if c.is_over or c.current_player != me:
            return -1e9
        best = -1e9
        c.road_lengths()  # counted once, not in every copy
        for b in c.legal_actions()[:150]:
            c2 = c.copy()
            c2.apply(b)
            v = position_value(c2, me, w)
            best = max(best, v)
        return best

    @staticmethod
    def _robbed(game: Game, me: int) -> bool:
        topo = game.topology
        return any(game.node_owner[v] == me for v in topo.hex_nodes[game.robber])

    # ------------------------------------------------------------------ the robber
    def _robber(self, game: Game, me: int, acts: list[Action]) -> list[Choice]:
        """Block the leader's best hex, not the bot's own; steal from the leader with cards.  Another
        robber-like piece (the pirate, SF-10) is weighed by its module's features."""
        vis = [game.vp(q, visible=True) for q in range(game.n)]
        cards = [sum(h) for h in game.hands]
        topo = game.topology
        mods = features_for(game)
        out = []
        for a in acts:
            if not isinstance(a, MoveRobber):
                v = None
                for m in mods:
                    v = m.robber_value(game, me, a)
                    if v is not None:
                        break
                out.append(Choice(a, (-1e9 if v is None else v) + self.rng.random() * 1e-6,
                                  () if v is None else (("robber", round(v, 2)),)))
                continue
            h = a.hex
            t = game.hex_token[h]
            pips = (6 - abs(7 - t)) if t else 0
            hurt = 0.0
            for v in topo.hex_nodes[h]:
                o = game.node_owner[v]
                if o < 0:
                    continue
                pk = game.kinds[game.node_kind[v]]
                k = pk.produces if pk is not None and pk.produces else 0
                hurt += (-3.0 if o == me else 1.0 + 0.35 * vis[o]) * k * pips
            steal = 0.0
            if a.victim is not None:
                steal = steal_value(vis[a.victim], cards[a.victim])
            extra = 0.0
            for m in mods:
                extra += m.robber_value(game, me, a) or 0.0
            why = tuple((k, round(x, 2)) for k, x in (("hurt", hurt), ("steal", steal), ("module", extra)) if x)
            out.append(Choice(a, hurt + steal + extra + self.rng.random() * 1e-6, why))
        out.sort(key=lambda c: -c.value)
        return out

    # ------------------------------------------------------------------ trades
    def _hand_value(self, game: Game, me: int, hand: list[int]) -> float:
        c = game.copy()
        c.hands[me][:len(hand)] = hand
        return position_value(c, me, self.weights)

    def _answer(self, game: Game, me: int, acts: list[Action]) -> list[Choice]:
        give_by_offerer, get_by_offerer = game.trade_offer
        offerer = game.active_player
        hand = list(game.hands[me])
        after = [hand[r] + give_by_offerer[r] - get_by_offerer[r] for r in range(len(hand))]
        ok = all(x >= 0 for x in after) and AcceptTrade() in acts
        gain = (self._hand_value(game, me, after) - self._hand_value(game, me, hand)) if ok else -1.0
        near_win = game.vp(offerer, visible=True) >= game.vp_target - 2
        accept = ok and gain > 0.5 and not near_win
        return [Choice(AcceptTrade() if accept else DeclineTrade(), gain),
                Choice(DeclineTrade() if accept else AcceptTrade(), -gain)][: 1 if AcceptTrade() not in acts else 2]

    def _confirm(self, game: Game, me: int, acts: list[Action]) -> list[Choice]:
        partners = [a for a in acts if isinstance(a, ConfirmTrade)]
        vis = [game.vp(q, visible=True) for q in range(game.n)]
        ranked = sorted(partners, key=lambda a: vis[a.partner])  # help the weakest partner
        out = [Choice(a, 1.0 - 0.01 * i) for i, a in enumerate(ranked)]
        out += [Choice(a, -1.0) for a in acts if not isinstance(a, ConfirmTrade)]
        return out

    def offer_for(self, game: Game, me: int) -> OfferTrade | None:
        """One-for-one when exactly one card short of a city or settlement, giving a surplus card."""
        if getattr(self, "_offered_turn", None) == (game.turn, me):
            return None  # one offer a turn
        offer = self.offer_toward_build(game, me)
        if offer is not None:
            self._offered_turn = (game.turn, me)
        return offer

    @staticmethod
    def offer_toward_build(game: Game, me: int, offered: frozenset | None = None) -> OfferTrade | None:
        """The offer for the one card ``me`` lacks of a city, else of a settlement (with a spot for it),
        or ``None``: one surplus card for it; with ``offered`` (the goods offered already this turn) a
        surplus card not among them, else two.  Whether and how often to offer is the caller's choice
        (:meth:`offer_for`: once a turn)."""
        hand = list(game.hands[me][:N_RES])
        for build in ("city", "settlement"):
            if build == "settlement" and not game.candidates(me, "settlement"):
                continue
            offer = _one_for_one(game, hand, game.cost(build)[:N_RES], offered)
            if offer is not None:
                return offer
        return None

    def module_offer_for(self, game: Game, me: int) -> OfferTrade | None:
        """One-for-one when exactly one card short of a rule module's purchase the bot wants as much as a
        city (a :meth:`~catan_nb.analysis.bot_features.ModuleFeatures.builds` weight of at least
        :data:`URGENT_BUILD`: a knight before the barbarians land...), giving a surplus card; once a turn."""
        if getattr(self, "_module_offered_turn", None) == (game.turn, me):
            return None
        hand = list(game.hands[me])
        for m in features_for(game):
            for cost, weight in m.builds(game, me):
                if weight >= URGENT_BUILD:
                    offer = _one_for_one(game, hand, cost)
                    if offer is not None:
                        self._module_offered_turn = (game.turn, me)
                        return offer
        return None

    def __repr__(self) -> str:
        return "ValueBot()"


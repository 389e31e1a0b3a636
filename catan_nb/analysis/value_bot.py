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
``spots``               the best free settlement spots its roads reach (or nearly reach)
``buildable``           how many free spots a settlement could go on now
``road``                its longest road against the best opponent's (the Longest Road race)
``army``                knights played and playable (the Largest Army race)
``hand``                cards towards the next city, settlement or road
``risk_7``              cards above the discard limit, weighted by the chance of a 7
``dev``                 development cards held
``improvements``        Cities & Knights: city improvement levels (a level 3 ability counts again)
``knights``             Cities & Knights: knight strength
``active_knights``      Cities & Knights: active knight strength, counting more as the barbarians
                        come near (CK-BAR-1)
``threat``              Cities & Knights: the chance-weighted loss of a city when the barbarians
                        would win with the player among the least contributors (CK-BAR-2)
``progress``            Cities & Knights: progress cards held
======================  =====================================================================

Weights live in :data:`DEFAULT_WEIGHTS` (documented there) and can be replaced per bot.
The robber goes where it hurts the leader most and steals from the leader; trades are answered
by value (a fair offer that helps the bot is accepted; nothing goes to a player about to win).

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

from ..constants import RESOURCES, DevCard, Terrain
from ..rules import (
    AcceptTrade,
    Action,
    BuyDevelopmentCard,
    ConfirmTrade,
    DeclineTrade,
    Game,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    RollDice,
)

__all__ = ["ValueBot", "position_value", "features", "DEFAULT_WEIGHTS", "Choice"]

N_RES = len(RESOURCES)
#: How much a free spot counts by the roads still to build to reach it (0, 1, 2).
SPOT_DISCOUNT = (1.0, 0.5, 0.25)
#: Chance of a 7 on a roll.
P7 = 6 / 36
#: Cards per settlement / city (B-PROD-2).
_YIELD = {1: 1, 2: 2}

#: Default weights of :func:`position_value`; each feature is described in the module docstring.
#: Tuned by hand on seeded games: against catanatron's value-function bot through
#: ``benchmarks/vs_catanatron.py``'s bridge, then checked with ``benchmarks/ladder.py``.
DEFAULT_WEIGHTS: dict[str, float] = {
    "vp": 1000.0,               # a victory point: above everything else
    "production": 500.0,        # per expected card per roll (a settlement on 11 pips: 0.31, so about 150)
    "enemy_production": -200.0,  # per expected card per roll of the average opponent
    "diversity": 6.0,           # per resource collected at all
    "harbours": 5.0,            # a 2:1 harbour on a produced resource (3:1: a third of it)
    "spots": 150.0,             # production of the two best free spots, x1 if buildable now, x1/2 one road away, x1/4 two
    "buildable": 30.0,          # free spots where a settlement can go now (at most 2 counted)
    "road": 10.0,               # per road segment of lead in the Longest Road race (capped at 3)
    "army": 6.0,                # per knight played or held, while the Largest Army race is open
    "hand": 14.0,               # progress towards the best next build (city, settlement, road)
    "risk_7": 3.0,              # per card above the limit, times P(7)
    "dev": 5.0,                 # per development card held (knights are counted in army too)
    "card": 1.0,                # per card in hand (a card is worth a little whatever it is)
    "improvements": 110.0,      # C&K: per improvement level (+1 level's worth at level 3: the ability)
    "knights": 45.0,            # C&K: per knight strength
    "active_knights": 15.0,     # C&K: per active strength, times how near the barbarians' ship is
    "threat": -700.0,           # C&K: per expected city lost to the barbarians (about a VP and its production)
    "progress": 5.0,            # C&K: per progress card held (its play is valued by what it does)
}


@dataclass(frozen=True)
class Choice:
    """One action the bot weighed, and its value (see :meth:`ValueBot.explain`)."""

    action: Action
    value: float


def _hex_yield(game: Game) -> list[tuple[int, float]]:
    """(resource, chance per roll) of each hex now (the robber's hex yields nothing)."""
    out = []
    robber = game.robber
    for h, terrain in enumerate(game.hex_terrain):  # the hexes now (a fog hex revealed, SF-3)
        r, t = _RES_INDEX[terrain], game.hex_token[h]
        if r < 0 or not t or h == robber:
            out.append((-1, 0.0))
        else:
            out.append((r, (6 - abs(7 - t)) / 36))
    return out


_RES_INDEX = {t: (-1 if t.resource is None else t.resource.value) for t in Terrain}
#: Hex yields and intersection productions by board, hexes and robber (a search meets the same ones often).
_YIELDS: dict[tuple, tuple] = {}


def _yields(game: Game) -> tuple[list[tuple[int, float]], dict[int, float], dict[int, tuple]]:
    """:func:`_hex_yield` of the game now, and memos under it of each intersection's :func:`_spot_score`
    and of its producing hexes' ``(resource, chance)``."""
    t = game.topology
    key = (id(t), game.robber, tuple(game.hex_terrain), tuple(game.hex_token))
    hit = _YIELDS.get(key)
    if hit is None or hit[0] is not t:
        if len(_YIELDS) >= 4096:
            _YIELDS.clear()
        hit = _YIELDS[key] = (t, _hex_yield(game), {}, {})
    return hit[1], hit[2], hit[3]


def _node_prod(bd, hy, v: int) -> list[float]:
    prod = [0.0] * N_RES
    for h in bd.node_hexes[v]:
        r, p = hy[h]
        if r >= 0 and r < N_RES:
            prod[r] += p
    return prod


def _spot_score(prod: list[float]) -> float:
    return sum(prod) + 0.02 * sum(1 for x in prod if x > 0)


def features(game: Game, player: int) -> dict[str, float]:
    """The features of :func:`position_value` for ``player`` (see the module docstring)."""
    bd = game.topology  # plain data derived once from the graph
    hy, spot_score, node_yields = _yields(game)
    owner, kind = game.node_owner, game.node_kind
    prod = [0.0] * N_RES
    others = 0.0  # the opponents' expected cards per roll
    rates = game.rates(player)
    for v in sorted(game.occupied):  # the buildings, in intersection order
        k = _YIELD.get(kind[v])
        if k is not None:
            rp = node_yields.get(v)
            if rp is None:  # (resource, chance) of each producing hex at v, in hex order
                rp = node_yields[v] = tuple(x for x in (hy[h] for h in bd.node_hexes[v]) if 0 <= x[0] < N_RES)
            if owner[v] == player:
                for r, p in rp:
                    prod[r] += k * p
            else:
                for r, p in rp:
                    others += k * p
    production = sum(prod)
    diversity = sum(1 for x in prod if x > 0)
    harbours = sum((1.0 if rates[r] == 2 and prod[r] > 0 else 0.0) for r in range(N_RES))
    harbours += 0.33 if min(rates[:N_RES]) == 3 else 0.0
    # Reachable spots: free intersections (distance rule) within two paths of the player's network.
    spots = 0.0
    buildable = 0
    if game.pieces_left(player).get("settlement", 0) > 0:
        # Taken: a piece on the intersection or next to it.  The engine counts buildings so already;
        # other pieces on intersections (knights, CK-KN-1) are added.
        blocked = [b > 0 for b in game.blocked]
        for k, pk in enumerate(game.kinds):
            if pk is not None and pk.site == "node" and not pk.building:
                for sites in game.placed[k]:
                    for v in sites:
                        blocked[v] = True
                        for u in bd.node_neighbours[v]:
                            blocked[u] = True
        start = [v for v in game.road_nodes[player]] or [v for v in range(bd.n_nodes) if owner[v] == player]
        dist = {v: 0 for v in start}
        frontier = list(start)
        eo = game.edge_owner
        for d in (1, 2):
            nxt = []
            for v in frontier:
                if owner[v] >= 0 and owner[v] != player:
                    continue  # an opponent's building cuts the way (B-BUILD-5)
                for e in bd.node_edges[v]:
                    if eo[e] >= 0 and eo[e] != player:
                        continue
                    a, b = bd.edge_nodes[e]
                    u = b if a == v else a
                    if u not in dist:
                        dist[u] = d
                        nxt.append(u)
            frontier = nxt
        free = [(v, d) for v, d in dist.items() if not blocked[v] and bd.node_land[v]]
        vals = []
        for v, d in free:
            score = spot_score.get(v)
            if score is None:
                score = spot_score[v] = _spot_score(_node_prod(bd, hy, v))
            vals.append(score * SPOT_DISCOUNT[d])
        vals.sort(reverse=True)
        spots = sum(vals[:2])
        buildable = min(2, sum(1 for _, d in free if d == 0))
    lengths = game.road_lengths()
    best_other = max((lengths[q] for q in range(game.n) if q != player), default=0)
    road = max(-3, min(3, lengths[player] - best_other)) if lengths[player] >= 3 else 0
    held = game.dev_cards(player)
    knights_held = held[DevCard.KNIGHT]
    army_open = game.largest_army_holder != player
    army = (game.knights_played(player) + 0.5 * knights_held) if army_open else 0.0
    total = sum(game.discardable(player))  # what a 7 counts: commodities too (CK-COM-1), not goods kept out (B-ROB-2)
    progress = 0.0
    builds = [(game.cost(b), w) for b, w in (("city", 1.3), ("settlement", 1.2 if spots > 0 else 0.2), ("road", 0.45))]
    ck = game.ext.get("cities_knights")
    if ck is not None:
        builds += _ck_builds(game, player)
    full = game.hands[player]
    for cost, weight in builds:
        need = sum(cost)
        have = sum([min(full[r], c) for r, c in enumerate(cost) if c])
        progress = max(progress, weight * (have / need) ** 2 if need else 0.0)
    limit = game.hand_limit(player)
    risk = max(0, total - limit) * P7
    dev = sum(held.values())
    extra = _ck_features(game, player, ck) if ck is not None else {}
    return {**extra, 
        "vp": float(game.vp(player)), "production": production, "enemy_production": others / max(game.n - 1, 1),
        "diversity": float(diversity),
        "harbours": harbours, "spots": spots, "buildable": float(buildable), "road": float(road), "army": float(army), "hand": progress,
        "risk_7": -risk, "dev": float(dev), "card": float(min(total, limit)),
    }


def _ck_builds(game: Game, player: int) -> list[tuple[tuple[int, ...], float]]:
    """Cities & Knights purchases toward which a hand makes progress: the cheapest improvement, a knight."""
    from ..rules.modules.cities_knights import MAX_LEVEL, TRACKS, improvement_cost

    ck = game.ext["cities_knights"]
    out = []
    if game.placed[game.kind_id["city"]][player]:
        costs = [improvement_cost(game, player, t) for i, t in enumerate(TRACKS) if ck["levels"][player][i] < MAX_LEVEL]
        if costs:
            out.append((min(costs, key=sum), 1.2))
    out.append((game.cost("knight"), 0.6))
    return out


def _ck_features(game: Game, player: int, ck: dict) -> dict[str, float]:
    """The Cities & Knights features (see the module docstring)."""
    from ..rules.modules.cities_knights import ABILITY_LEVEL, BARBARIAN_TRACK, barbarian_strength, catan_strength

    levels = ck["levels"][player]
    improvements = sum(levels) + sum(1 for x in levels if x >= ABILITY_LEVEL)
    near = ck["barbarians"] / BARBARIAN_TRACK
    mine = [r for r in ck["knights"] if r[1] == player]
    knights = sum(r[2] for r in mine)
    active = near * sum(r[2] for r in mine if r[3])
    threat = 0.0
    city = game.kind_id["city"]
    metro = {m[1] for m in ck["metropolis"] if m is not None}
    exposed = [q for q in range(game.n) if any(v not in metro for v in game.placed[city][q])]
    if player in exposed and barbarian_strength(game) > catan_strength(game):
        contrib = {q: catan_strength(game, q) for q in exposed}
        if contrib[player] == min(contrib.values()):
            threat = near ** 2
    return {"improvements": float(improvements), "knights": float(knights), "active_knights": float(active),
            "threat": threat,
            "progress": float(len(ck["hands"][player]))}


def position_value(game: Game, player: int, weights: Mapping[str, float] | None = None) -> float:
    """The bot's score of a position for ``player``: the weighted sum of :func:`features`."""
    w = DEFAULT_WEIGHTS if weights is None else weights
    f = features(game, player)
    if game.is_over:
        return 1e6 if game.winner == player else -1e6
    return sum(w.get(k, 0.0) * v for k, v in f.items())


class ValueBot:
    """Greedy over :func:`position_value`, deciding only on what its seat may know.

    Parameters
    ----------
    seed : int or random.Random
        The bot's own generator (determinisations and ties).
    weights : mapping, optional
        Replaces :data:`DEFAULT_WEIGHTS` (missing keys count 0).
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
        """The legal actions weighed, best first (``top`` of them), with their values."""
        me = game.current_player
        acts = game.legal_actions()
        if len(acts) == 1:
            self.last = [Choice(acts[0], 0.0)]
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
        self.last = ranked if top is None else ranked[:top]
        return self.last

    def _by_value(self, game: Game, me: int, acts: list[Action]) -> list[Choice]:
        d = game.determinized(me, self.rng.getrandbits(32))
        self._base = position_value(d, me, self.weights)
        out = []
        for a in acts:
            if isinstance(a, RollDice):
                out.append(Choice(a, self._base))
                continue
            c = d.copy()
            c.apply(a)
            v = position_value(c, me, self.weights)
            if isinstance(a, BuyDevelopmentCard):
                v += 0.0  # the card drawn in this determinisation is already counted
            if isinstance(a, PlayKnight) and game.phase is Phase.ROLL:
                # before the roll: worth it when the robber sits on the bot's own production
                v += 8.0 if self._robbed(game, me) else -4.0
            out.append(Choice(a, v + self.rng.random() * 1e-6))
        out.sort(key=lambda c: -c.value)
        return out

    @staticmethod
    def _robbed(game: Game, me: int) -> bool:
        topo = game.topology
        return any(game.node_owner[v] == me for v in topo.hex_nodes[game.robber])

    # ------------------------------------------------------------------ the robber
    def _robber(self, game: Game, me: int, acts: list[Action]) -> list[Choice]:
        """Block the leader's best hex, not the bot's own; steal from the leader with cards."""
        vis = [game.vp(q, visible=True) for q in range(game.n)]
        cards = [sum(h) for h in game.hands]
        topo = game.topology
        out = []
        for a in acts:
            if not isinstance(a, MoveRobber):
                if hasattr(a, "hex") and hasattr(a, "victim"):  # another robber-like piece (the pirate, SF-10)
                    steal = 0.0 if a.victim is None else 2.0 + 0.8 * vis[a.victim] + 0.2 * min(cards[a.victim], 8)
                    out.append(Choice(a, steal + self.rng.random() * 1e-6))
                else:
                    out.append(Choice(a, -1e9))
                continue
            h = a.hex
            t = game.hex_token[h]
            pips = (6 - abs(7 - t)) if t else 0
            hurt = 0.0
            for v in topo.hex_nodes[h]:
                o = game.node_owner[v]
                if o < 0:
                    continue
                k = _YIELD.get(game.node_kind[v], 1)
                hurt += (-3.0 if o == me else 1.0 + 0.35 * vis[o]) * k * pips
            steal = 0.0
            if a.victim is not None:
                steal = 2.0 + 0.8 * vis[a.victim] + 0.2 * min(cards[a.victim], 8)
            out.append(Choice(a, hurt + steal + self.rng.random() * 1e-6))
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
        hand = list(game.hands[me][:N_RES])
        if getattr(self, "_offered_turn", None) == (game.turn, me):
            return None  # one offer a turn
        for build in ("city", "settlement"):
            cost = game.cost(build)[:N_RES]
            if build == "settlement" and not game.candidates(me, "settlement"):
                continue
            missing = [r for r in range(N_RES) if hand[r] < cost[r]]
            if len(missing) != 1 or cost[missing[0]] - hand[missing[0]] != 1:
                continue
            surplus = [r for r in range(N_RES) if hand[r] > cost[r]]
            if not surplus:
                continue
            give = max(surplus, key=lambda r: hand[r] - cost[r])
            g_vec = tuple(1 if r == give else 0 for r in range(game.n_goods))  # commodities too (CK-COM-1)
            w_vec = tuple(1 if r == missing[0] else 0 for r in range(game.n_goods))
            self._offered_turn = (game.turn, me)
            return OfferTrade(g_vec, w_vec)
        return None

    def __repr__(self) -> str:
        return "ValueBot()"


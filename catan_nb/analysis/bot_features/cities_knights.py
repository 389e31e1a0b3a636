"""Cities & Knights (RULES.md section 17): what the value bot weighs beyond the base game.

======================  =====================================================================
feature                 meaning
======================  =====================================================================
``improvements``        city improvement levels, more for the higher levels of one track (a
                        level-3 ability counts again, CK-IMP-3)
``metropolis_race``     the lead toward a metropolis not yet held by the player: the first to
                        level 4 takes one (CK-IMP-4), the first to level 5 takes it over (CK-IMP-5)
``commodities``         expected commodity cards per roll (cities on forest, pasture, mountains; CK-COM-2)
``knights``             knight strength
``active_knights``      active knight strength, counting more as the barbarians come near (CK-BAR-1)
``threat``              the chance-weighted loss of a city when the barbarians would win with the
                        player among the least contributors (CK-BAR-2): an attack before the player's
                        next turn meets the knights active now, one in the rounds after meets every
                        knight held, activated in time (CK-KN-4), so a knight is hired ahead
``defender``            the chance-weighted Defender of Catan point, when Catan would win with the
                        player the single strongest (CK-BAR-3)
``progress``            progress cards held, each by what it is worth to hold (:data:`CARD_WORTH`)
======================  =====================================================================

Progress cards are played when what they do (the position after, its decisions played out)
is worth more than holding them; the Alchemist is weighed before the roll, and a card that lowers a
price or a rate this turn (the Crane, the Merchant Fleet) by the best action it allows next.  A
bank trade for grain when the barbarians are near and would win is weighed by the knight it
activates next (CK-KN-4, CK-BAR-2).  With no knight and an attack the barbarians would win likely within
the window, a knight is a purchase wanted as much as a city (and, with a knight idle, the grain that
activates it): the bot trades at the bank toward it and offers a one-for-one trade for the card it
lacks (CK-KN-1, CK-KN-4).
"""

from __future__ import annotations

from math import comb

from ...constants import Commodity, Resource, Terrain
from ...rules import MaritimeTrade, Phase
from ...rules.modules.cities_knights import (
    ACTIVATE_COST,
    BARBARIAN_TRACK,
    CITY_YIELDS,
    MAX_LEVEL,
    METROPOLIS_LEVEL,
    NAME,
    TRACK_COMMODITY,
    TRACKS,
    HireKnight,
    ImproveCity,
    PlayProgress,
    PlayProgressGood,
    PromoteKnight,
    barbarian_strength,
    catan_strength,
)
from ..value_bot import DEFAULT_WEIGHTS as _BOT_WEIGHTS
from . import EARLIER_PAIR_WEIGHTS, ModuleFeatures, register_features

#: The value bot's weight of an expected card per roll, the unit the placement score's weights are in.
BOT_PRODUCTION = _BOT_WEIGHTS["production"]

#: What a level of one track is worth, by level (a level-3 ability counted in: CK-IMP-3).
LEVEL_WORTH = (0.0, 1.0, 2.2, 4.0, 5.2, 6.2)
#: What holding each progress card is worth, in the ``progress`` feature's units (a card's play is
#: weighed by what it does; holding it keeps the choice of when).
CARD_WORTH = {
    "alchemist": 2.0, "crane": 1.0, "engineer": 1.5, "inventor": 1.0, "irrigation": 0.5, "medicine": 2.0,
    "mining": 0.5, "road_building": 1.0, "smith": 1.0,
    "bishop": 0.5, "deserter": 1.0, "diplomat": 0.3, "intrigue": 0.3, "saboteur": 0.5, "spy": 0.5,
    "warlord": 1.5, "wedding": 0.5,
    "commercial_harbor": 0.5, "master_merchant": 0.5, "merchant": 1.5, "merchant_fleet": 0.5,
    "resource_monopoly": 0.8, "trade_monopoly": 0.5,
}
#: Turns, on average, before the event die moves the barbarians: half its faces are ships (CK-BAR-4).
_SHIP_FACES = 0.5


#: Commodity cards a city collects from each terrain (CK-COM-2).
_COMMODITY: dict[Terrain, int] = {t: sum(k for g, k in gains if isinstance(g, Commodity)) for t, gains in CITY_YIELDS.items()}


#: Per set of goods (a game's ``goods``), the costs of :func:`_track_cost`.
_COSTS: dict[tuple, dict[tuple, tuple[int, ...]]] = {}


def _track_costs(game) -> dict[tuple, tuple[int, ...]]:
    """``(track, k) -> k`` cards of ``track``'s commodity as counts per good, for the goods of ``game``
    (:func:`improvement_cost` without the state); one table per set of goods, made as asked."""
    goods = game.goods
    last = _LAST_COSTS
    if last[0] is goods:
        return last[1]
    hit = _COSTS.get(goods)
    if hit is None:
        hit = _COSTS[goods] = {}
    last[:] = [goods, hit]
    return hit


_LAST_COSTS: list = [None, None]


def _track_cost(game, track, k: int, table: dict | None = None) -> tuple[int, ...]:
    """``k`` cards of ``track``'s commodity, as counts per good (:func:`improvement_cost` without the state)."""
    if table is None:
        table = _track_costs(game)
    hit = table.get((track, k))
    if hit is None:
        cost = [0] * game.n_goods
        cost[game.good_index(TRACK_COMMODITY[track])] = k
        hit = table[(track, k)] = tuple(cost)
    return hit


def _activation_wanted(game, player: int) -> bool:
    """Whether the barbarians are at most two steps away, would win (CK-BAR-2), and ``player`` has an
    inactive knight (CK-KN-4): a trade for the activation's cost is worth its follow-up."""
    ck = game.ext[NAME]
    if BARBARIAN_TRACK - ck["barbarians"] > 2 or barbarian_strength(game) <= catan_strength(game):
        return False
    return any(r[1] == player and not r[3] for r in ck["knights"])


def _loses(player: int, contrib: list[int], exposed: list[int], strength: int) -> float:
    """1.0 if ``player`` loses a city to barbarians of ``strength`` against knights of ``contrib`` per seat:
    Catan is weaker and the player is among the tied lowest of the seats with an ordinary city (CK-BAR-2)."""
    if strength <= sum(contrib) or player not in exposed:
        return 0.0
    return 1.0 if contrib[player] == min(contrib[q] for q in exposed) else 0.0


#: The good that activates a knight (CK-KN-4).
ACTIVATE_GOOD = next(iter(ACTIVATE_COST))
_ACTIVATE_RESOURCE = Resource.parse(ACTIVATE_GOOD)
#: The metropolis row while nobody holds one (CK-IMP-4).
_NO_METROPOLIS = [None] * len(TRACKS)
#: :meth:`CitiesKnightsFeatures.features` by everything it reads.
_MEMO: dict[tuple, tuple] = {}
#: Rounds beyond the player's next turn in which the knights it holds count as activated in time.
WINDOW_ROUNDS = 2
_CHANCE: dict[tuple[int, int], float] = {}


def attack_chance(rolls: int, steps_left: int) -> float:
    """The chance the barbarians land within ``rolls`` rolls ``steps_left`` steps away: half the event die's
    faces are ships (CK-BAR-4), so a binomial tail.

    >>> attack_chance(4, 1), attack_chance(4, 3), attack_chance(4, 7)
    (0.9375, 0.3125, 0.0)
    """
    key = (rolls, steps_left)
    hit = _CHANCE.get(key)
    if hit is None:
        hit = _CHANCE[key] = sum(comb(rolls, k) for k in range(max(steps_left, 0), rolls + 1)) / 2 ** rolls
    return hit


def rolls_before_turn(game, player: int) -> int:
    """Rolls still to come before ``player`` can next build: up to and including the roll that opens its
    next turn (an attack is resolved before production, CK-BAR-4)."""
    n = game.n
    rolled = game.phase is not Phase.ROLL
    k = (player - game.active_player) % n
    if k == 0 and rolled:
        k = n
    return k + (0 if rolled else 1)


def _defence_wanted(game, player: int) -> str | None:
    """``"hire"`` when the barbarians would beat Catan in an attack likely within the window, and ``player``
    (with an ordinary city) holds no knight; ``"activate"`` when :func:`_activation_wanted`; else ``None``
    (CK-KN-1, CK-KN-4, CK-BAR-2).  A purchase the bot offers trades for."""
    ck = game.ext[NAME]
    if barbarian_strength(game) <= catan_strength(game) or not game.placed[game.kind_id["city"]][player]:
        return None
    mine = [r for r in ck["knights"] if r[1] == player]
    if not mine:
        rolls = rolls_before_turn(game, player) + WINDOW_ROUNDS * game.n
        return "hire" if attack_chance(rolls, BARBARIAN_TRACK - ck["barbarians"]) >= 0.25 else None
    # _activation_wanted, the strengths compared already
    if BARBARIAN_TRACK - ck["barbarians"] > 2:
        return None
    return "activate" if any(not r[3] for r in mine) else None


@register_features(NAME)
class CitiesKnightsFeatures(ModuleFeatures):
    """Improvements and the metropolis race, knights against the barbarians, progress cards."""

    weights = {
        "improvements": 95.0,       # per unit of LEVEL_WORTH summed over the tracks
        "metropolis_race": 450.0,   # per unit of lead (1: level 4 within reach, first)
        "commodities": 250.0,       # per expected commodity card per roll
        "knights": 40.0,            # per knight strength
        "active_knights": 15.0,     # per active strength, times how near the barbarians' ship is
        "threat": -900.0,           # per expected city lost to the barbarians (a VP, its production and more)
        "defender": 350.0,          # per expected Defender point
        "progress": 10.0,           # per unit of CARD_WORTH held
    }
    #: The placement score counts a commodity card at the value bot's worth of one against a resource card:
    #: the card itself and its ``commodities`` weight (CK-COM-2).  Its pair terms are the expansions' earlier ones
    #: (:data:`EARLIER_PAIR_WEIGHTS`: boards 1-3 ordered 0.247 with them, 0.107 with the base game's new ones);
    #: every other weight is the base game's (fitted on base-game playouts): on boards 1 and 2 they ranked the 20 best C&K openings as value-bot
    #: playouts did at 0.51 and 0.29 (30 playouts a pair), against -0.05 and 0.39 for the older base fit this
    #: module kept before (``benchmarks/placement_validity.py --module cities_knights``).  Replaceable data:
    #: a fit on C&K playouts (``benchmarks/placement_fit.py --module cities_knights``) may change more.
    placement_weights = {**EARLIER_PAIR_WEIGHTS, "commodities": 1.0 + weights["commodities"] / BOT_PRODUCTION}
    preferences = {ImproveCity: 15.0, HireKnight: 2.0, PromoteKnight: 2.0}
    lookahead = (PlayProgressGood, PlayProgress, MaritimeTrade)

    def needs_lookahead(self, game, player: int, action) -> bool:
        if isinstance(action, MaritimeTrade):  # a trade for the knight, or the grain that activates it, before the attack
            wanted = _defence_wanted(game, player)
            if wanted == "hire":
                return game.cost("knight")[game.good_index(action.get)] > 0
            return wanted == "activate" and str(action.get) in ACTIVATE_COST
        if isinstance(action, PlayProgress):
            return action.card == "crane"  # CK-PC-2: the next improvement costs 1 less
        if isinstance(action, PlayProgressGood) and action.card == "merchant_fleet":  # CK-PC-22
            return game.hands[player][game.good_index(action.good)] >= 2
        return False

    def builds(self, game, player: int) -> list[tuple[tuple[int, ...], float]]:
        ck = game.ext[NAME]
        out = []
        levels = ck["levels"][player]
        has_city = game.placed[game.kind_id["city"]][player]
        if has_city:
            top = max(levels)
            crane = ck["crane"] == player
            table = _track_costs(game)
            for i, t in enumerate(TRACKS):
                level = levels[i]
                if level < MAX_LEVEL:
                    cost = table.get((t, level + 1 - crane)) or _track_cost(game, t, level + 1 - crane, table)
                    out.append((cost, 1.3 if level == top else 0.9))
        knight = game.cost("knight")
        out.append((knight, 0.6))
        wanted = _defence_wanted(game, player) if has_city else None  # (None without an ordinary city)
        if wanted == "hire":
            out.append((knight, 1.6))
        elif wanted == "activate":
            grain = [0] * game.n_goods
            grain[game.good_index(_ACTIVATE_RESOURCE)] = ACTIVATE_COST[ACTIVATE_GOOD]
            out.append((tuple(grain), 1.6))
        return out

    def features(self, game, player: int, ctx) -> dict[str, float]:
        # Memoised on all it reads (a decision's positions mostly share it); a new dict each call.
        ck = game.ext[NAME]
        metropolis = ck["metropolis"]
        grain = game.good_index(_ACTIVATE_RESOURCE)
        key = (player, game.n, game.phase is Phase.ROLL, game.active_player, ck["barbarians"],
               tuple(map(tuple, ck["levels"])), None if metropolis == _NO_METROPOLIS else repr(metropolis),
               tuple(map(tuple, ck["knights"])), tuple(ck["hands"][player]),
               tuple(map(tuple, game.placed[game.kind_id["city"]])), game.robber, tuple(game.hex_terrain),
               tuple(game.hex_token), game.rules.metropolis_counts_double, bool(game.hands[player][grain]),
               ctx.prod[grain], id(game.topology))
        hit = _MEMO.get(key)
        if hit is None or hit[0] is not game.topology:
            if len(_MEMO) >= 4096:
                _MEMO.clear()
            hit = _MEMO[key] = (game.topology, self._features(game, player, ctx))
        return dict(hit[1])

    def _features(self, game, player: int, ctx) -> dict[str, float]:
        """:meth:`features` computed (not memoised)."""
        ck = game.ext[NAME]
        n = game.n
        all_levels = ck["levels"]
        levels = all_levels[player]
        improvements = sum([LEVEL_WORTH[x] for x in levels])
        race = 0.0
        metropolis = ck["metropolis"]
        for i in range(len(TRACKS)):
            held = metropolis[i]
            mine = levels[i]
            if held is None:
                if mine >= 2:
                    others = max([all_levels[q][i] for q in range(n) if q != player], default=0)
                    lead = (mine - 1) / (METROPOLIS_LEVEL - 1)
                    race += lead if mine >= others else 0.3 * lead
            elif held[0] != player and mine >= METROPOLIS_LEVEL and all_levels[held[0]][i] < MAX_LEVEL:
                race += 0.6  # CK-IMP-5: level 5 first takes it over
        # commodities a player's cities collect (CK-COM-2), the robber aside
        cities = game.placed[game.kind_id["city"]]
        node_hexes = game.topology.node_hexes
        terrain, token, robber = game.hex_terrain, game.hex_token, game.robber
        comm = 0.0
        for v in cities[player]:
            for h in node_hexes[v]:
                k = _COMMODITY.get(terrain[h], 0)
                tok = token[h]
                if k and tok and h != robber:
                    comm += k * (6 - abs(7 - tok)) / 36
        # the barbarians: how near, who would lose a city, who would defend Catan (CK-BAR-1..3)
        steps_left = BARBARIAN_TRACK - ck["barbarians"]
        near = ck["barbarians"] / BARBARIAN_TRACK
        ready = [0] * n  # every knight's strength per seat, and the active ones' (catan_strength)
        contrib = [0] * n
        for r in ck["knights"]:
            ready[r[1]] += r[2]
            if r[3]:
                contrib[r[1]] += r[2]
        knights = ready[player]
        my_active = contrib[player]
        active = near * my_active
        defender = 0.0
        if metropolis == _NO_METROPOLIS:
            exposed = [q for q in range(n) if cities[q]]
        else:
            metro = {m[1] for m in metropolis if m is not None}
            exposed = [q for q in range(n) if any(v not in metro for v in cities[q])]
        strength = barbarian_strength(game)
        # an attack before the player can act again finds the knights active now; one within the window
        # finds every knight it holds activated in time (CK-KN-4: a grain each)
        rolls = rolls_before_turn(game, player)
        soon = attack_chance(rolls, steps_left)
        later = attack_chance(rolls + WINDOW_ROUNDS * n, steps_left) - soon
        threat = soon * _loses(player, contrib, exposed, strength)
        if later > 0:
            lost = _loses(player, ready, exposed, strength)
            if ready[player] > contrib[player]:  # its own knights held: activated if a grain comes in time
                i = game.good_index(_ACTIVATE_RESOURCE)
                p_act = 1.0 if game.hands[player][i] else 1.0 - (1.0 - min(ctx.prod[i], 1.0)) ** (rolls + n)
                idle = ready[:player] + [contrib[player]] + ready[player + 1:]
                lost = p_act * lost + (1.0 - p_act) * _loses(player, idle, exposed, strength)
            threat += later * lost
        urgency = near ** 2 if steps_left > 1 else 1.0
        if strength <= sum(contrib) and my_active:
            best_other = max((contrib[q] for q in range(n) if q != player), default=0)
            if my_active > best_other:
                defender = urgency
            elif my_active == best_other:
                defender = 0.3 * urgency
        progress = sum([CARD_WORTH.get(c, 1.0) for c in ck["hands"][player]])
        return {"improvements": improvements, "metropolis_race": race, "commodities": comm,
                "knights": float(knights), "active_knights": active, "threat": threat, "defender": defender,
                "progress": progress}

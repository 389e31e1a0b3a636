"""Friends (RULES.md section 13) and the Helpers (section 14): what the value bot weighs beyond the base game.

* **Favours** (F-EARN-*, F-GUILD-*): favour tokens held are worth what their guild gives (the
  Architects' compasses a Catan token, 1 visible VP, for two); a robber move that earns one
  (F-EARN-2, F-EARN-3) and a gift (F-EARN-4) are worth the favour they may bring.
* **Helpers** (H-*): the helper held is worth its uses left (side A two, side B one); it is used
  when what it does is worth more (the search bot leaves that choice to the value bot:
  ``value_moves``), and exchanged for the best one on display.

======================  =====================================================================
feature                 meaning
======================  =====================================================================
``favours``             Friends: favour tokens held, each by its guild's worth (:data:`FAVOUR_WORTH`)
``helper``              Helpers: the helper held, by its worth (:data:`HELPER_WORTH`) and side
======================  =====================================================================
"""

from __future__ import annotations

from ...constants import GUILD_PRICE, Guild, HelperCard, Terrain
from ...rules.modules import friends as _fr
from ...rules.modules import helpers as _hp
from ...rules import MoveRobber
from . import EARLIER_PAIR_WEIGHTS, ModuleFeatures, register_features

#: What one favour token of each guild is worth, in cards (F-GUILD-1..5: a swap, a card, a road,
#: half a development card, half a Catan token).
FAVOUR_WORTH = {Guild.MERCHANTS: 0.8, Guild.TRADERS: 1.0, Guild.PAVERS: 1.5, Guild.PROFESSORS: 1.5,
                Guild.ARCHITECTS: 4.0}
#: What holding each helper is worth on its A side (its B side: :data:`SIDE_B` of it).
HELPER_WORTH = {
    HelperCard.MERCHANT: 1.0, HelperCard.MENDICANT: 0.8, HelperCard.MAYOR: 1.0, HelperCard.EXPLORER: 0.5,
    HelperCard.GENERAL: 1.0, HelperCard.ARCHITECT: 0.8, HelperCard.ROBBER_BRIDE: 0.6, HelperCard.CAPTAIN: 1.2,
    HelperCard.PRIEST: 0.7, HelperCard.NOBLEWOMAN: 0.8,
}
SIDE_B = 0.6
#: The chance a gift is accepted (F-EARN-4), for the favour it brings.
GIFT_ACCEPTED = 0.5
#: A favour drawn for a robber move, in the robber's units per card of favour worth (a steal from a
#: typical leader is about 6).
ROBBER_FAVOUR = 5.0
#: Points per card of favour worth (the ``favours`` feature's weight).
FAVOUR_POINTS = 12.0


def _mean_favour(game) -> float:
    supply = _fr.state(game)["supply"]
    total = sum(supply)
    if not total:
        return 0.0
    return sum(k * FAVOUR_WORTH[Guild(g)] for g, k in enumerate(supply)) / total


@register_features(_fr.NAME)
class FriendsFeatures(ModuleFeatures):
    """Favour tokens by guild; robber moves and gifts that earn one."""

    placement_weights = EARLIER_PAIR_WEIGHTS

    weights = {"favours": FAVOUR_POINTS}
    preferences = {_fr.UseArchitects: 10.0}

    def features(self, game, player: int, ctx) -> dict[str, float]:
        tokens = _fr.state(game)["tokens"][player]
        worth = 0.0
        for g, k in enumerate(tokens):
            guild = Guild(g)
            price = GUILD_PRICE[guild]
            worth += FAVOUR_WORTH[guild] * (k if price == 1 else (k // price) * price + 0.5 * (k % price))
        return {"favours": worth}

    def choice_value(self, game, player: int, action) -> float:
        if isinstance(action, _fr.OfferGift):
            return GIFT_ACCEPTED * FAVOUR_POINTS * _mean_favour(game)
        return 0.0

    def robber_value(self, game, player: int, action) -> float | None:
        if not isinstance(action, MoveRobber):
            return None
        t = game.topology
        empty = not any(game.node_owner[v] >= 0 for v in t.hex_nodes[action.hex])
        desert = game.hex_terrain[action.hex] is Terrain.DESERT and action.victim is None
        if empty or desert:  # F-EARN-2, F-EARN-3: a favour, worth about a steal per card of its worth
            return ROBBER_FAVOUR * _mean_favour(game)
        return 0.0


@register_features(_hp.NAME)
class HelpersFeatures(ModuleFeatures):
    """The helper held, by its uses left."""

    #: The earlier pair terms, and the frontier (the free sites a pair's roads reach before any rival's) at the base
    #: game's 0.05: boards 1-3 ordered their top 20 at 0.522 with it, 0.490 without; boards 4-6, never looked at,
    #: 0.454 against 0.419 (``placement_validity.py --module helpers --compare frontier=0,0.05``, 30 playouts a
    #: pair).  Replaceable data, as every fitted weight.
    placement_weights = {**EARLIER_PAIR_WEIGHTS, "frontier": 0.05}

    weights = {"helper": 15.0}
    lookahead = (_hp.UseCaptain,)
    #: A helper's use is the value bot's choice in a search too.  Measured against three value bots:
    #: on development seeds 101 and 102 (200 games each) the search bot won 112 of 400 searching the
    #: uses, 126 leaving them to the value bot; on the ladder's seeds 1 and 2, 139 and then 160 of 400.
    #: Did not help (seed 101): leaving only the exchange after a use to the value bot (54 of 200, as
    #: before), a ``helper`` weight of 150 or 400 for the search bot (49, 38 of 200).
    value_moves = tuple(_hp.USES.values())

    def needs_lookahead(self, game, player: int, action) -> bool:
        return game.hands[player][action.resource.value] >= 2  # H-CARD-6: 2:1 for the rest of the turn

    def features(self, game, player: int, ctx) -> dict[str, float]:
        st = _hp.state(game)
        card = st["held"][player]
        if card is None:
            return {"helper": 0.0}
        worth = HELPER_WORTH[HelperCard(card)]
        return {"helper": worth * (1.0 if st["side"][player] == "A" else SIDE_B)}

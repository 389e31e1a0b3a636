"""Seafarers (RULES.md SF-*): what the value bot weighs beyond the base game.

* **Ships toward foreign islands** (SF-5..7, SF-13): the bot looks six path pieces ahead, ships
  included, and a free spot on an island foreign to the player is worth the scenario's special
  points besides its production; moving the last ship of an open route (SF-9) is weighed the same way.
* **The Longest Trade Route** (SF-8) is the base game's road race: the engine's trail counts ships.
* **The pirate** (SF-10, SF-11) goes next to the leader's ships and steals from the leader.
* **Gold fields** (SF-1): a pick is a card of one's choice, worth a little more than a given card.
* **Fog** (SF-3): a fog hex is worth its expected value from the hidden stack (the tiles not yet
  revealed, :func:`~catan_nb.analysis.seafarers.fog_odds`); reaching one reveals it and pays a card.
* **Treasure** (SF-4): a treasure intersection is worth reaching.
* **Harbour Master** (SF-14): a building on a harbour counts toward the title's 2 special points.
* **Great Catan** (SF-15, SF-16): a small-island hex without a token is worth the average token
  still to come, and reaching it with a ship brings the token.

======================  =====================================================================
feature                 meaning
======================  =====================================================================
``harbour_race``        Harbour Master: harbour points toward the title while it can be won
======================  =====================================================================
"""

from __future__ import annotations

from ...constants import Terrain, pips
from ...rules.modules import fog as _fog
from ...rules.modules import gold_fields as _gold
from ...rules.modules import great_catan as _gc
from ...rules.modules import harbour_master as _hm
from ...rules.modules import seafarers as _sf
from ...rules.modules import treasure as _tr
from . import ANY, EARLIER_PAIR_WEIGHTS, ModuleFeatures, register_features

#: Special points a treasure is worth reaching for (two cards, a development card or two free paths).
TREASURE_VP = 0.6
#: A fog hex revealed pays a card (SF-3): worth reaching for.
FOG_VP = 0.2
#: A token brought to a small island of Great Catan (SF-15), besides what spots there then produce.
TOKEN_VP = 0.3


_FOREIGN: dict[tuple, dict[int, float]] = {}


@register_features(_sf.NAME)
class SeafarersFeatures(ModuleFeatures):
    """Ships toward foreign islands and their special points; the pirate on the leader's ships."""

    placement_weights = EARLIER_PAIR_WEIGHTS

    reach = 6
    preferences = {_sf.BuildShip: 3.0}

    def spot_bonus(self, game, player: int):
        per = game.board.scenario.get("foreign_island_vp") or 0
        st = game.ext[_sf.NAME]
        if not per or not st["home"][player]:
            return {}  # in the founding, where one founds is home (SF-12)
        key = (id(game.board), per, tuple(st["home"][player]), tuple(st["settled"][player]))
        hit = _FOREIGN.get(key)
        if hit is None:
            if len(_FOREIGN) > 1024:
                _FOREIGN.clear()
            t = game.topology
            groups = _sf.islands(game.board)
            mine = set(st["home"][player]) | set(st["settled"][player])
            hit = _FOREIGN[key] = {v: float(per) for i, g in enumerate(groups) if i not in mine
                                   for hx in g for v in t.hex_nodes[hx]}
        return hit

    def builds(self, game, player: int) -> list[tuple[tuple[int, ...], float]]:
        return [(game.cost("ship"), 0.4)]

    def robber_value(self, game, player: int, action) -> float | None:
        if not isinstance(action, _sf.MovePirate):
            return None
        from ..value_bot import steal_value

        vis: dict[int, int] = {}  # the visible points of the seats that count, asked once each

        def points(q: int) -> int:
            v = vis.get(q)
            if v is None:
                v = vis[q] = game.vp(q, visible=True)
            return v

        ship = game.kind_id["ship"]
        block = 0.0
        for e in game.topology.hex_edges[action.hex]:  # SF-11: ships next to it cannot move, none may be built
            o = game.edge_owner[e]
            if o >= 0 and game.edge_kind[e] == ship:
                block += -2.0 if o == player else 0.5 + 0.3 * points(o)
        steal = 0.0 if action.victim is None else steal_value(points(action.victim), sum(game.hands[action.victim]))
        return block + steal


@register_features(_gold.NAME)
class GoldFeatures(ModuleFeatures):
    """A gold field's pick is a card of one's choice (SF-1)."""

    placement_weights = EARLIER_PAIR_WEIGHTS

    def hex_yield(self, game, hx: int):
        if game.hex_terrain[hx] is Terrain.GOLD and game.hex_token[hx]:
            return ((ANY, pips(game.hex_token[hx]) / 36),)
        return None


_FOG_MEMO: dict[tuple, tuple] = {}


def fog_yield(game) -> tuple[tuple[int, float], ...]:
    """What a building of 1 expects per roll from a fog hex: the average over the tiles not yet revealed."""
    from ..seafarers import fog_odds

    key = (id(game.board), len(game.ext[_fog.NAME]["revealed"]), _fog.hidden(game))
    hit = _FOG_MEMO.get(key)
    if hit is None:
        if len(_FOG_MEMO) > 512:
            _FOG_MEMO.clear()
        by: dict[int, float] = {}
        for (terrain, token), p in fog_odds(game).items():
            if not token:
                continue
            r = ANY if terrain is Terrain.GOLD else (terrain.resource.value if terrain.resource is not None else None)
            if r is not None:
                by[r] = by.get(r, 0.0) + float(p) * pips(token) / 36
        hit = _FOG_MEMO[key] = tuple(sorted(by.items()))
    return hit


def fog_outcomes(game) -> tuple[tuple[float, tuple[tuple[int, float], ...]], ...]:
    """Each tile a fog hex may turn out to be, as ``(probability, yield of a building of 1)`` (SF-3)."""
    from ..seafarers import fog_odds

    key = ("outcomes", id(game.board), len(game.ext[_fog.NAME]["revealed"]), _fog.hidden(game))
    hit = _FOG_MEMO.get(key)
    if hit is None:
        out = []
        for (terrain, token), p in fog_odds(game).items():
            r = ANY if terrain is Terrain.GOLD else (terrain.resource.value if terrain.resource is not None else None)
            out.append((float(p), ((r, pips(token) / 36),) if r is not None and token else ()))
        hit = _FOG_MEMO[key] = tuple(out)
    return hit


@register_features(_fog.NAME)
class FogFeatures(ModuleFeatures):
    """A fog hex is worth its expected value from the hidden stack (SF-3)."""

    placement_weights = EARLIER_PAIR_WEIGHTS

    def hex_yield(self, game, hx: int):
        if game.hex_terrain[hx] is Terrain.FOG:
            return fog_yield(game)
        return None

    def hex_outcomes(self, game, hx: int):
        if game.hex_terrain[hx] is Terrain.FOG:
            return fog_outcomes(game)
        return None

    def targets(self, game, player: int):
        if not _fog.hidden(game):
            return {}
        t = game.topology
        return {v: FOG_VP for hx in _fog.fog_hexes(game) for v in t.hex_nodes[hx]}


@register_features(_tr.NAME)
class TreasureFeatures(ModuleFeatures):
    """Treasure on fogged intersections is worth reaching (SF-4)."""

    def targets(self, game, player: int):
        if not game.ext[_tr.NAME]["stack"]:
            return {}
        return {v: TREASURE_VP for v in _tr.treasure_spots(game)}


@register_features(_hm.NAME)
class HarbourMasterFeatures(ModuleFeatures):
    """Harbour points toward the Harbour Master's special points (SF-14)."""

    placement_weights = EARLIER_PAIR_WEIGHTS

    weights = {"harbour_race": 40.0}  # per harbour point while the title can still be won or lost (more makes every bot race for it and games long)

    def features(self, game, player: int, ctx) -> dict[str, float]:
        holder = _hm.holder(game)
        mine = _hm.harbour_points(game, player)
        if holder == player:
            best = max((_hm.harbour_points(game, q) for q in range(game.n) if q != player), default=0)
            return {"harbour_race": float(min(mine, best + 1))}  # a lead kept is worth something
        if holder is None:
            return {"harbour_race": float(min(mine, _hm.THRESHOLD))}
        need = _hm.harbour_points(game, holder) + 1
        return {"harbour_race": float(min(mine, need)) * (0.5 if need - mine > 2 else 1.0)}

    def spot_bonus(self, game, player: int):
        if _hm.holder(game) == player:
            return {}
        t = game.topology
        key = id(t)
        hit = _HARBOUR_NODES.get(key)
        if hit is None or hit[0] is not t:
            hit = _HARBOUR_NODES[key] = (t, [v for v, h in enumerate(t.node_harbour) if h is not None and h != -1])
        worth = _hm.TITLE_VP / _hm.THRESHOLD * 0.5
        return dict.fromkeys(hit[1], worth)


_HARBOUR_NODES: dict[int, tuple] = {}


@register_features(_gc.NAME)
class GreatCatanFeatures(ModuleFeatures):
    """Small islands without tokens are worth the average token to come (SF-15)."""

    def hex_yield(self, game, hx: int):
        st = game.ext[_gc.NAME]
        if hx not in st["small"] or game.hex_token[hx]:
            return None
        terrain = game.hex_terrain[hx]
        left = st["supply"] or [game.hex_token[h] for h in _gc.main_hexes(game) if game.hex_token[h]]
        if not left:
            return ()
        chance = sum(pips(k) for k in left) / 36 / len(left)
        if terrain is Terrain.GOLD:
            return ((ANY, chance),)
        return ((terrain.resource.value, chance),) if terrain.resource is not None else ()

    def targets(self, game, player: int):
        st = game.ext[_gc.NAME]
        t = game.topology
        waiting = {h for _, h in st["waiting"]}
        return {v: TOKEN_VP for hx in st["small"] if not game.hex_token[hx] and hx not in waiting
                for v in t.hex_nodes[hx]}

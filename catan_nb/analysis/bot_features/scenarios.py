"""Corsica, New York and the Erie Canal (RULES.md section 15): what the value bot weighs beyond the base game.

* **Catan tokens** (SC-3, SC-10): a VP intersection whose token waits is a target worth its point;
  the spots search keeps to the scenario's marked paths (SC-6) and localities (SC-5, through the
  module's own ``candidates`` hook).
* **Red paths** (SC-8): a red path's rate is worth reaching, the more for a resource the player collects.
* **Canal tokens** (ERIE-2, ERIE-4): a canal locality the player's roads could link to one they
  already reach is a target; tokens held are worth a good trade each, and a token is played when
  the trade it allows this turn is worth more than keeping it.

======================  =====================================================================
feature                 meaning
======================  =====================================================================
``canal_tokens``        Erie Canal: canal tokens held
======================  =====================================================================
"""

from __future__ import annotations

from ...rules.modules import corsica_new_york as _sc
from ...rules.modules import erie_canal as _erie
from . import ModuleFeatures, register_features

#: A red path's rate, in victory points, for a resource the player collects (half for one it does not).
RATE_VP = 0.35
#: A canal token earned, in victory points (a 2:1 trade for a turn, ERIE-4).
CANAL_VP = 0.4


@register_features(_sc.NAME)
class ScenarioFeatures(ModuleFeatures):
    """Catan tokens on VP intersections, red paths' rates; roads only on marked paths."""

    reach = 4

    def path_filter(self, game, kind: str):
        if kind != "road":
            return None
        d = _sc.scenario_data(game.board)
        return frozenset(e for e, ok in enumerate(d.road_ok) if ok)

    def targets(self, game, player: int):
        st = game.ext[_sc.NAME]
        out = {v: float(_sc.TOKEN_VP) for v, o in st["tokens"] if o is None}
        d = _sc.scenario_data(game.board)
        if d.red:
            t = game.topology
            have = {tuple(r) for r in st["rates"][player]}
            rates = game.rates(player)
            for e, (ratio, res) in d.red.items():
                if (ratio, res) in have or game.edge_owner[e] >= 0:
                    continue
                better = rates[res] > ratio if res is not None else min(rates[:5]) > ratio
                if better:
                    for v in t.edge_nodes[e]:
                        out[v] = max(out.get(v, 0.0), RATE_VP)
        return out


@register_features(_erie.NAME)
class CanalFeatures(ModuleFeatures):
    """Canal tokens earned by linking canal localities, and played for a 2:1 trade."""

    weights = {"canal_tokens": 4.0}  # per token held: played as soon as a trade it allows is worth more
    lookahead = (_erie.PlayCanal,)

    def needs_lookahead(self, game, player: int, action) -> bool:
        return game.hands[player][action.resource.value] >= 2

    def features(self, game, player: int, ctx) -> dict[str, float]:
        return {"canal_tokens": float(game.ext[_erie.NAME]["tokens"][player])}

    def targets(self, game, player: int):
        st = game.ext[_erie.NAME]
        if st["supply"] <= 0:
            return {}
        d = _sc.scenario_data(game.board)
        reached = [v for v in d.canal if v in game.road_nodes[player]]
        if not reached:
            return {}
        earned = {tuple(p) for p in st["earned"][player]}
        out = {}
        for w in d.canal:
            if w in game.road_nodes[player]:
                continue
            if any((min(v, w), max(v, w)) not in earned for v in reached):
                out[w] = CANAL_VP
        return out

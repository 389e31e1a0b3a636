"""Corsica, New York and the Erie Canal (RULES.md section 15): what the value bot weighs beyond the base game.

* **Catan tokens** (SC-3, SC-10): a VP intersection whose token waits is a target worth its point
  (and, for the search bot, ``tokens_near``);
  the spots search keeps to the scenario's marked paths (SC-6) and localities (SC-5, through the
  module's own ``candidates`` hook).
* **Red paths** (SC-8): a red path's rate is worth reaching, the more for a resource the player collects.
* **Canal tokens** (ERIE-2, ERIE-4): a canal locality the player's roads could link directly (through
  no other locality) to one they already reach, the pair not yet earned, is a target; a pair linked
  counts for good (the token it paid may be played); tokens held are worth a good trade each, and a token is played when
  the trade it allows this turn is worth more than keeping it.

======================  =====================================================================
feature                 meaning
======================  =====================================================================
``tokens_near``         Catan tokens (SC-10) one to four roads from the player's network (not with
                        the Erie Canal, whose links want the roads): the
                        nearest counts :data:`TOKEN_NEAR` of a VP by the roads still to build, the
                        next half that.  Weighed by the search bot only (``search_weights``:
                        it plays out the roads to a token; given to the value bot too, games grew
                        longer and the search's gain vanished)
``canal_tokens``        Erie Canal: canal tokens held
``canal_links``         Erie Canal: pairs of canal localities linked (ERIE-2), each paid a token: worth
                        more than reaching for it, so that the last road of a link is built
======================  =====================================================================
"""

from __future__ import annotations

from ...rules.modules import corsica_new_york as _sc
from ...rules.modules import erie_canal as _erie
from . import EARLIER_PAIR_WEIGHTS, ModuleFeatures, best_two, register_features

#: A red path's rate, in victory points, for a resource the player collects (half for one it does not).
RATE_VP = 0.35
#: A canal token earned, in victory points (a 2:1 trade for a turn, ERIE-4).
CANAL_VP = 0.4
#: A free Catan token's worth in the ``tokens_near`` feature, in VP, by the roads still to build (1 to 5).
TOKEN_NEAR = (0.0, 0.5, 0.25, 0.12, 0.06, 0.03)


@register_features(_sc.NAME)
class ScenarioFeatures(ModuleFeatures):
    """Catan tokens on VP intersections, red paths' rates; roads only on marked paths."""

    reach = 4
    #: The search bot's weight of ``tokens_near`` (a token one road away: 300, 0.3 of a VP).  Measured on
    #: a development seed (101, 200 games against three value bots): the search bot won 0.34 without it,
    #: 0.625 with it.  The value bot is not given it: with every bot weighing near tokens (and tokens
    #: out of ``targets``), games grew from 92 to 126 turns and the search bot won 0.31.  Not with the
    #: Erie Canal, where roads are wanted for canal links (ERIE-2): there the feature cost the search bot
    #: (the ladder's seeds 1 and 2: 160 of 400 without it, 125 of 400 with it).
    search_weights = {"tokens_near": 600.0}
    #: On these maps the placement score weighs ``pace`` (how soon a founding's cards pay for a settlement and a
    #: city together) at 6, as the base game's fit gave it; the base game weighs it 0.  Roads only on marked
    #: paths leave fewer sites to reach, which may be why how soon one builds counts more.  Measured with
    #: ``benchmarks/placement_validity.py --compare pace=0,3,6,10,20`` (30 value-bot playouts a pair, the rivals
    #: founding by the weights of the day): 6 was chosen on four players, seats 0-3 (top-20 rank correlation
    #: Corsica 0.398 against 0.216, New York 0.550 against 0.520; the best 20's mean win rate 0.279 against 0.263
    #: and 0.422 against 0.409), then tried on three players, never looked at (``--players 3``): Corsica 0.191
    #: against 0.075 and its best 20 won 0.441 against 0.285 (par 0.333); New York 0.565 against 0.440, the best 20
    #: 0.231 against 0.218.  With five players, seats 0-1, Corsica gave 0.345 against 0.108 and its best 20 won
    #: 0.339 against 0.262 (par 0.2); New York's seat 0, 0.538 against 0.636 and 0.273 against 0.252.  On the
    #: Seafarers islands maps the same change did worse (0.053 against 0.279), and no better on gold, fog, Harbour
    #: Master, Cities & Knights or the base game's five-player boards (the README's table), so it is these maps'
    #: weight, not the default.  Replaceable data, as every fitted weight.
    placement_weights = {**EARLIER_PAIR_WEIGHTS, "pace": 6.0}

    def features(self, game, player: int, ctx):
        if _erie.NAME in game.rules.modules:  # the canal links want the roads (see search_weights)
            return {}
        dist = ctx.dist
        near = best_two([TOKEN_NEAR[d] for v, o in game.ext[_sc.NAME]["tokens"] if o is None and (d := dist.get(v))])
        return {"tokens_near": near} if near else {}

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


_PAIRS: dict[tuple, tuple] = {}


def canal_pairs(game) -> frozenset[tuple[int, int]]:
    """The pairs of canal localities a road network can link directly (ERIE-2): along the scenario's
    marked paths (SC-6), through no other locality; as ``(low, high)`` intersections, memoised per board
    and player count (our New York board has four: ``(39, 48), (42, 48), (42, 51), (45, 51)``, each three
    roads long)."""
    key = (id(game.board), game.n)  # the localities depend on the player count (SC-11)
    hit = _PAIRS.get(key)
    if hit is None or hit[0] is not game.board:
        road_ok = _sc.scenario_data(game.board).road_ok
        pairs = _erie.pairs_along(game, road_ok.__getitem__)
        hit = _PAIRS[key] = (game.board, frozenset(pairs))
    return hit[1]


@register_features(_erie.NAME)
class CanalFeatures(ModuleFeatures):
    """Canal tokens earned by linking canal localities, and played for a 2:1 trade."""

    #: With the canal the placement score leaves out the points within reach of a founding (``targets``: Catan
    #: tokens, SC-10, and red paths' rates, SC-8), as the search bot leaves out ``tokens_near``: the roads go to
    #: the canal links.  On the New York map the score without them ranked seats 0-2's 20 best pairs as value-bot
    #: playouts did at 0.66, 0.59, 0.49 against 0.29, 0.48, 0.44 with them, and its 20 best won more (mean win
    #: rate 0.42, 0.47, 0.40 against 0.22, 0.32, 0.39; ``benchmarks/placement_validity.py --module erie_canal
    #: --set targets=0.3``, 30 playouts a pair).  On Corsica, without the canal, leaving them out picked worse
    #: pairs on all four seats (mean win rate of the 20 best 0.23, 0.19, 0.25, 0.16 against 0.28, 0.20, 0.32,
    #: 0.25), so there they keep the bots' worth.  The frontier (the free sites a pair's roads reach before any
    #: rival's) weighs 0.1 here, where the roads race for the canal localities: on seats 0-3 of the New York map with
    #: new seeds (``placement_validity.py --module erie_canal --seed 11 --cases 4 --compare frontier=0,0.05,0.1``, 30
    #: playouts a pair) the top-20 rank correlation went from 0.511 to 0.587 and the best 20 won more (0.427 ->
    #: 0.441); Corsica, without the canal, was not measured with it and weighs it 0 (the base game weighs 0.05).
    #: Replaceable data, as every fitted weight.
    placement_weights = {"targets": 0.0, "frontier": 0.1}
    weights = {
        "canal_tokens": 4.0,   # per token held: played as soon as a trade it allows is worth more
        "canal_links": 60.0,  # per pair linked (ERIE-2): more than the target it was, so the last road is built
    }
    lookahead = (_erie.PlayCanal,)

    def needs_lookahead(self, game, player: int, action) -> bool:
        return game.hands[player][action.resource.value] >= 2

    def features(self, game, player: int, ctx) -> dict[str, float]:
        st = game.ext[_erie.NAME]
        return {"canal_tokens": float(st["tokens"][player]), "canal_links": float(len(st["earned"][player]))}

    def targets(self, game, player: int):
        st = game.ext[_erie.NAME]
        if st["supply"] <= 0:
            return {}
        earned = {tuple(p) for p in st["earned"][player]}
        mine = game.road_nodes[player]
        out = {}
        for v, w in canal_pairs(game):  # ERIE-2: a pair linked directly, not earned yet
            if (v, w) in earned:
                continue
            if v in mine and w not in mine:
                out[w] = CANAL_VP
            elif w in mine and v not in mine:
                out[v] = CANAL_VP
        return out

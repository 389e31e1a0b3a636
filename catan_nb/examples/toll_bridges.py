"""A second example module: a path piece that joins roads, a public good and a site surcharge.

"Toll bridges" (an example, not a Catan rule): a player may build a **bridge** (a new path
piece: 1 brick and 1 ore, at most 3) on an inland path, never along the coast.  A bridge joins
roads directly (``PieceKind(joins=("road",))``): a road goes on from a bridge's end and a
bridge from a road's, with no settlement between, and Longest Road runs across bridges.
Building one earns **silver** from the bank (2, or what is left), a new good that lies open on
the table (``GoodRules(public=True)``: every seat sees every seat's silver) and is never traded
with the bank, stolen or discarded.  Silver pays the toll: a settlement at either end of any
bridge costs 1 silver more (a site surcharge).

It shows the module hooks of ``docs/modules.md`` that :mod:`catan_nb.examples.shearing` does not:
``allowed_sites`` and ``check_site`` (where a bridge may stand), ``site_surcharge`` with
``game.site_cost`` (the toll), ``PieceKind.joins`` and a public good.  Its figure layer draws
the bridges and the paths where the seat to act may build one; its panel adds the bridge to the
building-cost card and a silver column to the scoreboard.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> game = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=(NAME,)))
>>> game.cost("bridge")
(0, 1, 0, 0, 1, 0)
>>> game.view(1).public_goods
{Purse.SILVER: (0, 0, 0, 0)}
"""

from __future__ import annotations

from dataclasses import dataclass

from catan_nb.constants import Good, GoodRules
from catan_nb.errors import IllegalActionError
from catan_nb.rules import Action
from catan_nb.rules.modules import Module, register
from catan_nb.rules.pieces import PieceKind
from catan_nb.viz.board import path_midpoint, paths_xy
from catan_nb.viz.plugins import Layer, register_layer
from catan_nb.viz.text import place_of_path, register_phrase
from catan_nb.widgets.panels import Panel, register_panel

__all__ = ["NAME", "Purse", "SILVER_RULES", "BRIDGE", "BRIDGE_SILVER", "TOLL", "BuildBridge", "TollBridges",
           "BridgeLayer", "SilverPanel"]

NAME = "toll_bridges_example"


class Purse(Good):
    """The module's new good ("silver" in actions and saves)."""

    SILVER = 0


#: Silver lies open on the table and stays out of the card rules: no bank trade, no steal, no discard.
SILVER_RULES = GoodRules(public=True, bank_trade=False, stolen=False, discarded=False)
#: A bridge joins roads directly (no building needed where they meet).
BRIDGE = PieceKind("bridge", "path", limit=3, cost={"brick": 1, "ore": 1}, joins=("road",), owner=NAME)
#: Silver earned by building a bridge (as much as the bank still holds).
BRIDGE_SILVER = 2
#: The toll: what a settlement at either end of a bridge costs beside its price.
TOLL = {Purse.SILVER: 1}


@dataclass(frozen=True, slots=True)
class BuildBridge(Action):
    """Build a bridge on an inland path that continues your roads, bridges or buildings."""

    path: int


def _coastal(game, path: int) -> bool:
    return bool(game.topology.edge_sea[path])


def _bridgehead(game, node: int) -> bool:
    """Whether a bridge (anyone's) ends at intersection ``node``."""
    kinds = game.kinds
    return any(game.edge_owner[e] >= 0 and kinds[game.edge_kind[e]].name == "bridge"
               for e in game.topology.node_edges[node])


def _check_bridge(game, a: BuildBridge) -> None:
    p = game.current_player
    game.require_build_phase(a)
    game.check_spot(a, p, "bridge", a.path)  # the board, the supply, the way there, and EX-BRIDGE-1
    game.require_cost(a, p, game.site_cost(p, "bridge", a.path), f"a bridge on path {a.path}")


def _apply_bridge(game, a: BuildBridge) -> None:
    p = game.current_player
    game.pay(p, game.site_cost(p, "bridge", a.path))
    game.built_this_turn = True  # a build ends the trade phase (B-TURN-2)
    game.log.append(a)
    game.place(p, "bridge", a.path)
    game.gain(p, game.good_index(Purse.SILVER), BRIDGE_SILVER)  # as much as the bank holds


@register
class TollBridges(Module):
    """The example module."""

    name = NAME
    goods = (Purse.SILVER,)
    good_rules = {Purse.SILVER: SILVER_RULES}
    pieces = (BRIDGE,)
    actions = {BuildBridge: (_check_bridge, _apply_bridge)}
    vp_actions = (BuildBridge,)  # a bridge may lengthen a trail, and so move the Longest Road

    def components(self, game, comps: dict) -> None:
        comps["bank"][Purse.SILVER] = 20

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        if kind == "bridge":  # EX-BRIDGE-1: a bridge spans a river inland, never the coast
            return [e for e in sites if not _coastal(game, e)]
        return sites

    def check_site(self, game, action, player: int, kind: str, site: int, founding: bool) -> None:
        if kind == "bridge" and _coastal(game, site):
            raise IllegalActionError("EX-BRIDGE-1", f"path {site} runs along the coast: a bridge stands inland", action)

    def site_surcharge(self, game, player: int, kind: str, site: int):
        if kind == "settlement" and _bridgehead(game, site):  # EX-TOLL-1: the toll at a bridgehead
            return TOLL
        return None

    def module_builds(self, game, player: int, out: list) -> None:
        hand = game.hands[player]
        if game.pieces_left(player)["bridge"] > 0 and game.affords(hand, game.cost("bridge")):
            out.extend(BuildBridge(e) for e in game.candidates(player, "bridge")
                       if game.affords(hand, game.site_cost(player, "bridge", e)))


# ---------------------------------------------------------------- how the module shows itself
register_phrase(BuildBridge, lambda who, a, board, game: f"{who} built a bridge at {place_of_path(board, a.path)}")


@register_layer(NAME)
class BridgeLayer(Layer):
    """The bridges (thick lines in their owner's colour), and the paths where the seat to act may
    build one (rings at their middles: a click builds it)."""

    clickable = (f"{NAME}:bridge-targets",)
    handles = (BuildBridge,)

    def traces(self, game, pal):
        return [
            dict(type="scatter", name=f"{NAME}:bridges", mode="lines", hoverinfo="skip",
                 line=dict(width=9, color="#6b4f2a")),
            dict(type="scatter", name=f"{NAME}:bridge-targets", mode="markers", hoverinfo="text",
                 marker=dict(symbol="diamond-open", size=14, color=pal["highlight"])),
        ]

    def dynamic(self, game, pal, legal):
        board = game.board
        bridges = [e for e in range(game.topology.n_edges)
                   if game.edge_owner[e] >= 0 and game.kinds[game.edge_kind[e]].name == "bridge"]
        x, y = paths_xy(board, bridges)
        targets = sorted({a.path for a in legal if isinstance(a, BuildBridge)})
        mids = [path_midpoint(board, e) for e in targets]
        return {
            f"{NAME}:bridges": dict(x=x, y=y),
            f"{NAME}:bridge-targets": dict(x=[m[0] for m in mids], y=[m[1] for m in mids], customdata=targets,
                                           hovertext=["build a bridge here"] * len(targets)),
        }

    def click(self, game, trace_name, index, legal):
        targets = sorted({a.path for a in legal if isinstance(a, BuildBridge)})
        return BuildBridge(targets[index]) if 0 <= index < len(targets) else None


@register_panel(NAME)
class SilverPanel(Panel):
    """No controls of its own (a bridge is built on the board): the bridge's row on the
    building-cost card and each seat's silver on the scoreboard (public: ``GoodRules(public=True)``)."""

    def build(self, table):
        return None

    def refresh(self, table, legal):
        pass

    def costs(self, table, seat: int):
        return [("bridge", "Bridge (joins roads; +2 silver)", table.game.cost("bridge"))]

    def columns(self, table):
        silver = table.game.good_index(Purse.SILVER)
        return [("Silver", "open silver coins: a settlement at a bridge's end costs 1 more",
                 lambda seat: table.game.hands[seat][silver])]

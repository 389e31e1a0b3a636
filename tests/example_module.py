"""A small, complete rule module written only against the engine's public API (docs/modules.md).

"Shearing" (an example, not a Catan rule): settlements and cities on pasture also collect cloth,
a good the module adds; a player may build a loom (a new piece kind: 2 wool + 1 lumber, 1 VP, at
most 2) on an empty land intersection touched by their roads; on a roll of 2 or 12 every player
with a loom, in turn order from the active player, chooses one resource from the bank (a decision
on the stack).  The target is 11 VP.
"""

from __future__ import annotations

from dataclasses import dataclass

from catan_nb.constants import Commodity, Resource, Terrain
from catan_nb.errors import IllegalActionError
from catan_nb.rules import Action, Phase
from catan_nb.rules.modules import Module, register
from catan_nb.rules.pieces import PieceKind

NAME = "shearing_example"
LOOM = PieceKind("loom", "node", limit=2, cost={"wool": 2, "lumber": 1}, vp=1, owner=NAME)
FLEECE = Phase.register("fleece_choice", "{player} takes a resource for their loom", owner=NAME)


@dataclass(frozen=True, slots=True)
class BuildLoom(Action):
    """Build a loom on an empty intersection touched by your roads."""

    node: int


@dataclass(frozen=True, slots=True)
class TakeFleece(Action):
    """A loom's owner takes one resource from the bank on a 2 or a 12."""

    resource: Resource


def _check_loom(game, a: BuildLoom) -> None:
    p = game.current
    game.require_build_phase(a)
    game.check_node(a, a.node)
    if game.pieces_left(p)["loom"] <= 0:
        raise IllegalActionError("EX-LOOM-1", f"seat {p} has no loom left", a)
    if a.node not in game.candidates(p, "loom"):
        raise IllegalActionError("EX-LOOM-2", f"a loom cannot stand on intersection {a.node}", a)
    game.require_cost(a, p, game.cost("loom"), "a loom")


def _apply_loom(game, a: BuildLoom) -> None:
    p = game.current
    game.pay(p, game.cost("loom"))
    game.built_this_turn = True
    game.log.append(a)
    game.place(p, "loom", a.node)


def _check_fleece(game, a: TakeFleece) -> None:
    game.require_phase(a, FLEECE, rule="EX-FLEECE-1")
    if game.bank[a.resource.value] == 0:
        raise IllegalActionError("EX-FLEECE-1", f"the bank has no {a.resource}", a)


def _apply_fleece(game, a: TakeFleece) -> None:
    game.gain(game.current, a.resource.value)
    game.log.append(a)
    game.pop()
    if not any(game.bank[r.value] for r in Resource):  # nothing left to take: the other choices lapse
        for q in range(game.n):
            game.drop(FLEECE, q)


@register
class Shearing(Module):
    """The example module."""

    name = NAME
    legal_in = ("fleece_choice",)
    goods = (Commodity.CLOTH,)
    pieces = (LOOM,)
    actions = {BuildLoom: (_check_loom, _apply_loom), TakeFleece: (_check_fleece, _apply_fleece)}

    def components(self, game, comps: dict) -> None:
        comps["bank"][Commodity.CLOTH] = 12

    def vp_target(self, game) -> int:
        return 11

    def yields(self, game, table: dict) -> None:
        cloth = game.good_index(Commodity.CLOTH)
        for kind in ("settlement", "city"):
            table[(kind, Terrain.PASTURE)] = table[(kind, Terrain.PASTURE)] + ((cloth, 1),)

    def candidates(self, game, player: int, kind: str, sites: list[int]) -> list[int]:
        if kind != "loom":
            return sites
        land = game.topology.node_land
        return [v for v in sorted(game.road_nodes[player]) if game.node_owner[v] < 0 and land[v]]

    def legal_builds(self, game, player: int, out: list) -> None:
        if game.pieces_left(player)["loom"] > 0 and game.affords(game.hands[player], game.cost("loom")):
            out.extend(BuildLoom(v) for v in game.candidates(player, "loom"))

    def on_roll(self, game, total: int) -> None:
        if total not in (2, 12) or not any(game.bank[r.value] for r in Resource):
            return
        n, p = game.n, game.active
        for i in reversed(range(n)):
            q = (p + i) % n
            if game.pieces_left(q)["loom"] < 2:
                game.push(FLEECE, q)

    def legal(self, game, out: list) -> None:
        out.extend(TakeFleece(r) for r in Resource if game.bank[r.value])


# ---------------------------------------------------------------- how the module shows itself
# Its figure layer (catan_nb.viz.plugins) draws the looms and the intersections where one may be
# built, and turns a click on such an intersection into BuildLoom; its table panel
# (catan_nb.widgets.panels) offers the fleece choice.  The figure and the table hold no code for it.
from catan_nb.viz.plugins import Layer, register_layer  # noqa: E402
from catan_nb.widgets.panels import Panel, button, register_panel, show  # noqa: E402


@register_layer(NAME)
class LoomLayer(Layer):
    clickable = (f"{NAME}:loom-targets",)
    handles = (BuildLoom,)

    def traces(self, game, pal):
        return [
            dict(type="scatter", name=f"{NAME}:looms", mode="markers", hoverinfo="text",
                 marker=dict(symbol="square", size=16, line=dict(color="#111", width=1.5))),
            dict(type="scatter", name=f"{NAME}:loom-targets", mode="markers", hoverinfo="text",
                 marker=dict(symbol="square-open", size=18, color=pal["highlight"])),
        ]

    def dynamic(self, game, pal, legal):
        pos = game.board.graph.nodes
        looms = [(v, owner) for v in range(len(pos)) if (pc := game.piece_at(v)) and pc[1] == "loom"
                 for owner in [pc[0]]]
        targets = sorted({a.node for a in legal if isinstance(a, BuildLoom)})
        return {
            f"{NAME}:looms": dict(x=[pos[v]["pos"][0] for v, _ in looms], y=[pos[v]["pos"][1] for v, _ in looms],
                                  marker=dict(color=[pal["player"][game.colours[o]] for _, o in looms]),
                                  hovertext=["loom"] * len(looms)),
            f"{NAME}:loom-targets": dict(x=[pos[v]["pos"][0] for v in targets], y=[pos[v]["pos"][1] for v in targets],
                                         customdata=targets, hovertext=["build a loom here"] * len(targets)),
        }

    def click(self, game, trace_name, index, legal):
        targets = sorted({a.node for a in legal if isinstance(a, BuildLoom)})
        return BuildLoom(targets[index]) if 0 <= index < len(targets) else None


@register_panel(NAME)
class FleecePanel(Panel):
    handles = (TakeFleece,)

    def build(self, table):
        self.table = table
        self.buttons = {r: button(f"Take {r}", f"ex-fleece-{r}") for r in Resource}
        for r, b in self.buttons.items():
            b.on_click(table.guard(lambda _, r=r: table.play(TakeFleece(r))))
        import ipywidgets as W

        self.box = W.HBox(list(self.buttons.values()))
        return self.box

    def refresh(self, table, legal):
        offered = {a.resource for a in legal if isinstance(a, TakeFleece)}
        show(self.box, bool(offered))
        for r, b in self.buttons.items():
            show(b, r in offered)

"""A small, complete rule module written only against the engine's public API (docs/modules.md).

"Shearing" (an example, not a Catan rule): settlements and cities on pasture also collect
**yarn**, a new good the module adds (``Textile.YARN``: traded with the bank, 4 for 1 of any
resource, and with players, and discarded on a 7 like a commodity, but never stolen); a player
may build a **loom** (a new piece kind: 2 wool and 1 lumber, 1 VP, at most 2) on an empty land
intersection touched by their roads; on a roll of 2 or 12 every player with a loom, in turn
order from the active player, chooses one resource from the bank (a decision on the stack).
The target is 11 VP.

Its figure layer draws the looms and the intersections where one may be built, and turns a
click on such an intersection into :class:`BuildLoom`; its table panel offers the fleece choice.
The board figure and the table hold no code for it.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> game = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=(NAME,)))
>>> game.cost("loom")
(1, 0, 2, 0, 0, 0)
>>> game.good_rules[game.good_index(Textile.YARN)].stolen
False
"""

from __future__ import annotations

from dataclasses import dataclass

from catan_nb.constants import Good, GoodRules, Resource, Terrain
from catan_nb.errors import IllegalActionError
from catan_nb.rules import Action, Phase
from catan_nb.rules.modules import Module, register
from catan_nb.rules.pieces import PieceKind
from catan_nb.viz.plugins import Layer, register_layer
from catan_nb.viz.text import place_of_node, register_phrase
from catan_nb.widgets.panels import Panel, button, register_panel, show

__all__ = ["NAME", "Textile", "LOOM", "FLEECE", "BuildLoom", "TakeFleece", "Shearing", "LoomLayer", "FleecePanel"]

NAME = "shearing_example"


class Textile(Good):
    """The module's new good: its members are named in saves and actions ("yarn")."""

    YARN = 0


#: Yarn is traded with the bank and discarded on a 7 like a commodity, but never stolen.
YARN_RULES = GoodRules(stolen=False)
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
    p = game.current_player
    game.require_build_phase(a)
    game.check_node(a, a.node)
    if game.pieces_left(p)["loom"] <= 0:
        raise IllegalActionError("EX-LOOM-1", f"seat {p} has no loom left", a)
    if a.node not in game.candidates(p, "loom"):
        raise IllegalActionError("EX-LOOM-2", f"a loom cannot stand on intersection {a.node}", a)
    game.require_cost(a, p, game.cost("loom"), "a loom")


def _apply_loom(game, a: BuildLoom) -> None:
    p = game.current_player
    game.pay(p, game.cost("loom"))
    game.built_this_turn = True  # a build ends the trade phase (B-TURN-2)
    game.log.append(a)
    game.place(p, "loom", a.node)


def _check_fleece(game, a: TakeFleece) -> None:
    game.require_phase(a, FLEECE, rule="EX-FLEECE-1")
    if not isinstance(a.resource, Resource):
        raise IllegalActionError("EX-FLEECE-1", f"a loom's owner takes a resource, not {a.resource!r}", a)
    if game.bank[game.good_index(a.resource)] == 0:
        raise IllegalActionError("EX-FLEECE-1", f"the bank has no {a.resource}", a)


def _apply_fleece(game, a: TakeFleece) -> None:
    game.gain(game.current_player, game.good_index(a.resource))
    game.log.append(a)
    game.pop()
    if not any(game.bank[game.good_index(r)] for r in Resource):  # nothing left: the other choices lapse
        for q in range(game.n):
            game.drop(FLEECE, q)


@register
class Shearing(Module):
    """The example module."""

    name = NAME
    legal_in = ("fleece_choice",)
    goods = (Textile.YARN,)
    good_rules = {Textile.YARN: YARN_RULES}
    pieces = (LOOM,)
    actions = {BuildLoom: (_check_loom, _apply_loom), TakeFleece: (_check_fleece, _apply_fleece)}

    def components(self, game, comps: dict) -> None:
        comps["bank"][Textile.YARN] = 12

    def vp_target(self, game) -> int:
        return 11

    def yields(self, game, table: dict) -> None:
        yarn = game.good_index(Textile.YARN)
        for kind in ("settlement", "city"):
            table[(kind, Terrain.PASTURE)] = table[(kind, Terrain.PASTURE)] + ((yarn, 1),)

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        if kind != "loom":
            return sites
        land = game.topology.node_land
        return [v for v in sorted(game.road_nodes[player]) if game.node_owner[v] < 0 and land[v]]

    def module_builds(self, game, player: int, out: list) -> None:
        if game.pieces_left(player)["loom"] > 0 and game.affords(game.hands[player], game.cost("loom")):
            out.extend(BuildLoom(v) for v in game.candidates(player, "loom"))

    def on_roll(self, game, total: int) -> None:
        if total not in (2, 12) or not any(game.bank[game.good_index(r)] for r in Resource):
            return
        n, p = game.n, game.active_player
        for i in reversed(range(n)):
            q = (p + i) % n
            if game.pieces_left(q)["loom"] < LOOM.limit:
                game.push(FLEECE, q)

    def legal(self, game, out: list) -> None:
        out.extend(TakeFleece(r) for r in Resource if game.bank[game.good_index(r)])


# ---------------------------------------------------------------- how the module shows itself
# The log's sentences for the module's actions (without them, the log names the action and its fields).
register_phrase(BuildLoom, lambda who, a, board, game: f"{who} built a loom at {place_of_node(board, a.node)}")
register_phrase(TakeFleece, lambda who, a, board, game: f"{who} sheared a fleece: 1 {a.resource}")


@register_layer(NAME)
class LoomLayer(Layer):
    """The looms, and the intersections where the seat to act may build one (a click builds it)."""

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
        looms = [(v, pc[0]) for v in range(game.topology.n_nodes) if (pc := game.piece_at(v)) and pc[1] == "loom"]
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
    """One button per resource the bank holds, shown while a loom's owner chooses."""

    handles = (TakeFleece,)

    def build(self, table):
        import ipywidgets as W

        self.table = table
        self.buttons = {r: button(f"Take {r}", f"ex-fleece-{r}") for r in Resource}
        for r, b in self.buttons.items():
            b.on_click(table.guard(lambda _, r=r: table.play(TakeFleece(r))))
        self.box = W.HBox(list(self.buttons.values()))
        return self.box

    def refresh(self, table, legal):
        offered = {a.resource for a in legal if isinstance(a, TakeFleece)}
        show(self.box, bool(offered))
        for r, b in self.buttons.items():
            show(b, r in offered)

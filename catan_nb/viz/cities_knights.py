"""The Cities & Knights layer of the board figure: knights, city walls and metropolises.

A knight is drawn at its intersection in its owner's colour with its level written on it and a
shape per level (basic a circle, strong a square, mighty a diamond), filled when active and hollow
when not, so level and state read without colour (the colour-blind palette included).  Walls ring
their city; a metropolis carries a star.  Ringed intersections are where a knight may be hired; a
click on a knight lists what it may do (promote, activate, move, displace, chase the robber).
"""

from __future__ import annotations

from .plugins import Layer, register_layer

NAME = "cities_knights"
_SHAPES = {1: "circle", 2: "square", 3: "diamond"}
_LEVEL_NAMES = {1: "basic", 2: "strong", 3: "mighty"}


def _pos(game, v: int) -> tuple[float, float]:
    return game.board.graph.nodes[v]["pos"]


@register_layer(NAME)
class KnightLayer(Layer):
    """CK-KN-*: knights by level and state; CK-WALL-1 walls; CK-IMP-4 metropolises."""

    clickable = (f"{NAME}:knights", f"{NAME}:hire")

    @property
    def handles(self):
        from ..rules.modules.cities_knights import (ActivateKnight, ChaseRobber, DisplaceKnight, HireKnight, MoveKnight,
                                                     PromoteKnight)

        return (HireKnight, PromoteKnight, ActivateKnight, MoveKnight, DisplaceKnight, ChaseRobber)

    def traces(self, game, pal):
        return [
            dict(type="scatter", mode="markers", name=f"{NAME}:walls", hoverinfo="text",
                 marker=dict(symbol="square-open", size=30, color="#3b3b3b", line=dict(width=3))),
            dict(type="scatter", mode="markers", name=f"{NAME}:metropolis", hoverinfo="text",
                 marker=dict(symbol="star", size=16, color="#f2c14e", line=dict(color="#3b3b3b", width=1))),
            dict(type="scatter", mode="markers+text", name=f"{NAME}:knights", hoverinfo="text",
                 textfont=dict(size=11, color="#111"), textposition="middle center",
                 marker=dict(size=20, line=dict(width=2.5))),
            dict(type="scatter", mode="markers", name=f"{NAME}:hire", hoverinfo="text",
                 marker=dict(symbol="circle-open-dot", size=18, color=pal["highlight"], line=dict(width=2.5))),
        ]

    def dynamic(self, game, pal, legal):
        from ..rules.modules.cities_knights import TRACKS, HireKnight

        st = game.ext[NAME]
        wx, wy, wt = [], [], []
        for p, walls in enumerate(st["walls"]):
            for v in walls:
                x, y = _pos(game, v)
                wx.append(x)
                wy.append(y)
                wt.append(f"{str(game.colours[p]).title()}'s city wall (+2 cards safe on a 7)")
        mx, my, mt = [], [], []
        for i, m in enumerate(st["metropolis"]):
            if m is not None:
                x, y = _pos(game, m[1])
                mx.append(x + 0.18)
                my.append(y + 0.18)
                mt.append(f"{str(game.colours[m[0]]).title()}'s {TRACKS[i]} metropolis (+2 VP)")
        kx, ky, kt, ksym, kfill, kline, khover = [], [], [], [], [], [], []
        for node, p, level, active, fresh, _promoted in st["knights"]:
            x, y = _pos(game, node)
            colour = pal["player"][game.colours[p]]
            kx.append(x)
            ky.append(y)
            kt.append(str(level))
            ksym.append(_SHAPES[level])
            light = colour.lower() in ("#f7f7f7", "#ffffff", "white")
            kfill.append(colour if active else "white")
            kline.append("#555" if light else colour)  # a white knight keeps a visible rim
            khover.append(f"{str(game.colours[p]).title()}'s {_LEVEL_NAMES[level]} knight (strength {level}), "
                          + ("active" + (" (activated this turn)" if fresh else "") if active else "inactive"))
        hires = sorted({a.node for a in legal if isinstance(a, HireKnight)})
        hx = [_pos(game, v) for v in hires]
        return {
            f"{NAME}:walls": dict(x=wx, y=wy, hovertext=wt),
            f"{NAME}:metropolis": dict(x=mx, y=my, hovertext=mt),
            f"{NAME}:knights": dict(x=kx, y=ky, text=kt, hovertext=khover,
                                    marker=dict(symbol=ksym, color=kfill, size=20, line=dict(color=kline, width=2.5))),
            f"{NAME}:hire": dict(x=[h[0] for h in hx], y=[h[1] for h in hx], customdata=hires,
                                 hovertext=["hire a knight here (1 ore + 1 wool)"] * len(hires)),
        }

    def click(self, game, trace_name, index, legal):
        from ..rules.modules.cities_knights import HireKnight

        if trace_name.endswith(":hire"):
            hires = sorted({a.node for a in legal if isinstance(a, HireKnight)})
            return HireKnight(hires[index]) if 0 <= index < len(hires) else None
        rows = game.ext[NAME]["knights"]
        if not 0 <= index < len(rows):
            return None
        node = rows[index][0]
        return [a for a in legal if getattr(a, "node", None) == node or getattr(a, "from_node", None) == node]


def _phrases() -> None:
    from .text import PHRASES, place_of_node

    def at(b, v):
        return place_of_node(b, v)

    PHRASES.setdefault("HireKnight", lambda who, a, b, g: f"{who} hired a knight {at(b, a.node)}")
    PHRASES.setdefault("PromoteKnight", lambda who, a, b, g: f"{who} promoted the knight {at(b, a.node)}")
    PHRASES.setdefault("ActivateKnight", lambda who, a, b, g: f"{who} activated the knight {at(b, a.node)}")
    PHRASES.setdefault("MoveKnight", lambda who, a, b, g: f"{who} moved a knight {at(b, a.from_node)} → {at(b, a.to_node)}")
    PHRASES.setdefault("DisplaceKnight", lambda who, a, b, g: f"{who}'s knight displaced a weaker knight {at(b, a.to_node)}")
    PHRASES.setdefault("RetreatKnight", lambda who, a, b, g: (f"{who}'s displaced knight retreated {at(b, a.to_node)}"
                                                             if a.to_node is not None else f"{who}'s displaced knight left the board"))
    PHRASES.setdefault("ChaseRobber", lambda who, a, b, g: f"{who}'s knight chased the robber away")
    PHRASES.setdefault("ImproveCity", lambda who, a, b, g: f"{who} improved their cities: {a.track}")
    PHRASES.setdefault("BuildWall", lambda who, a, b, g: f"{who} built a city wall {at(b, a.node)}")
    PHRASES.setdefault("ChooseMetropolis", lambda who, a, b, g: f"{who} raised a metropolis {at(b, a.node)}")
    PHRASES.setdefault("LoseCity", lambda who, a, b, g: f"the barbarians pillaged {who}'s city {at(b, a.node)}")
    PHRASES.setdefault("TakeAqueduct", lambda who, a, b, g: f"{who} took 1 {a.resource} from the Aqueduct")
    PHRASES.setdefault("DrawProgress", lambda who, a, b, g: f"{who} drew a {a.track} progress card for defending Catan")
    PHRASES.setdefault("ReturnProgress", lambda who, a, b, g: f"{who} gave back a progress card")
    PHRASES.setdefault("PlayProgress", lambda who, a, b, g: f"{who} played {a.card.replace('_', ' ').title()}")
    PHRASES.setdefault("PlayProgressGood", lambda who, a, b, g: (
        f"{who} played {a.card.replace('_', ' ').title()} on {a.good}"))
    PHRASES.setdefault("PlayProgressNode", lambda who, a, b, g: (
        f"{who} played {a.card.title()} {at(b, a.node)}"))
    PHRASES.setdefault("PlaySmith", lambda who, a, b, g: f"{who} played Smith: {len(a.nodes)} knight(s) promoted")


_phrases()

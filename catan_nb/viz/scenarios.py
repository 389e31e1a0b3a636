"""The Corsica / New York layer of the board figure (RULES.md section 15).

Under the pieces: the paths marked for roads as brown bands (SC-6), the Erie Canal's course, red paths in red with their rate
written at the middle (SC-8), and dotted links from a locality to the hexes it collects from
without touching them (SC-9).  Over them: locality spaces as open circles, those along the Erie
Canal (New York's second symbol, our proposal for SC-5 and ERIE-7) as open squares in canal blue;
VP intersections as stars, gold while their Catan token waits and in the taker's colour once taken
(SC-10; with 5-6 players no tokens, SC-11).  Hover text says each mark's rule.
"""

from __future__ import annotations

from .plugins import Layer, register_layer

NAME = "corsica_new_york"
CANAL_BLUE = "#1f5fa8"


def _pos(game, v: int) -> tuple[float, float]:
    return game.board.graph.nodes[v]["pos"]


def _segments(game, edges) -> tuple[list, list]:
    xs, ys = [], []
    for e in edges:
        a, b = game.topology.edge_nodes[e]
        (x0, y0), (x1, y1) = _pos(game, a), _pos(game, b)
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return xs, ys


@register_layer(NAME)
class ScenarioLayer(Layer):
    """SC-5..11: localities, road paths, red paths with rates, VP intersections and links."""

    below = True

    def traces(self, game, pal):
        from .board import hex_centre
        from ..rules.modules.corsica_new_york import scenario_data

        d = scenario_data(game.board)
        roads = [e for e, ok in enumerate(d.road_ok) if ok]
        rx, ry = _segments(game, roads)
        redx, redy = _segments(game, sorted(d.red))
        kx, ky = [], []
        for v in sorted(d.localities):
            for h in game.board.graph.nodes[v].get("links") or ():
                (x0, y0), (x1, y1) = _pos(game, v), hex_centre(game.board, h)
                kx += [x0, x1, None]
                ky += [y0, y1, None]
        towns = [v for v in sorted(d.localities) if v not in d.canal]
        canal = sorted(d.canal)
        course = sorted(canal, key=lambda v: _pos(game, v)[0])  # the canal itself, west to east
        return [
            dict(type="scatter", mode="lines", name=f"{NAME}:canal-course", hoverinfo="skip",
                 x=[_pos(game, v)[0] for v in course], y=[_pos(game, v)[1] for v in course],
                 line=dict(color="rgba(31,95,168,0.45)", width=9, shape="spline")),
            dict(type="scatter", mode="lines", name=f"{NAME}:road-paths", x=rx, y=ry, hoverinfo="skip",
                 line=dict(color="rgba(120,95,60,0.55)", width=5)),
            dict(type="scatter", mode="lines", name=f"{NAME}:red-paths", x=redx, y=redy, hoverinfo="skip",
                 line=dict(color="#c62828", width=7)),
            dict(type="scatter", mode="lines", name=f"{NAME}:links", x=kx, y=ky, hoverinfo="skip",
                 line=dict(color="#444", width=1.5, dash="dot")),
            dict(type="scatter", mode="markers", name=f"{NAME}:localities", hoverinfo="text",
                 x=[_pos(game, v)[0] for v in towns], y=[_pos(game, v)[1] for v in towns],
                 hovertext=["locality space: settlements only here (SC-5)"] * len(towns),
                 marker=dict(symbol="circle-open", size=17, color="#3b3b3b", line=dict(width=2))),
            dict(type="scatter", mode="markers", name=f"{NAME}:canal", hoverinfo="text",
                 x=[_pos(game, v)[0] for v in canal], y=[_pos(game, v)[1] for v in canal],
                 hovertext=["locality on the Erie Canal: link two with your roads for a canal token (ERIE-2)"] * len(canal),
                 marker=dict(symbol="square-open", size=17, color=CANAL_BLUE, line=dict(width=2.5))),
            dict(type="scatter", mode="markers", name=f"{NAME}:vp", hoverinfo="text",
                 marker=dict(symbol="star", size=18, line=dict(color="#3b3b3b", width=1))),
        ]

    def legend(self, game, pal):
        """Issue 37 item 8: what the scenario's marks mean, in the table's legend."""
        from ..rules.modules.corsica_new_york import scenario_data

        d = scenario_data(game.board)

        def mark(symbol: str, colour: str) -> str:
            return f"<span style='color:{colour};font-weight:bold'>{symbol}</span>"

        out = [(mark("○", "#3b3b3b"), "locality: settlements only there")]
        if d.canal:
            out.append((mark("□", CANAL_BLUE), "locality on the Erie Canal: link two by road for a canal token"))
            out.append((mark("━", "rgba(31,95,168,0.6)"), "the Erie Canal"))
        if d.vp_nodes:
            out.append((mark("★", "#c99a1e"), "VP intersection: the first road there takes a Catan token (1 VP)"
                        if game.ext[NAME]["tokens"] else "VP intersection (no tokens with 5-6 players)"))
        out.append((mark("━", "rgba(120,95,60,0.8)"), "road path: roads only there"))
        if d.red:
            out.append((mark("━", "#c62828"), "red path: a road there gives its trade rate (written beside it)"))
        return out

    def dynamic(self, game, pal, legal):
        from ..rules.modules.corsica_new_york import scenario_data

        d = scenario_data(game.board)
        owner = dict((v, o) for v, o in game.ext[NAME]["tokens"])
        xs, ys, colours, text = [], [], [], []
        for v in d.vp_nodes:
            x, y = _pos(game, v)
            xs.append(x)
            ys.append(y)
            if not game.ext[NAME]["tokens"]:
                colours.append("#bbbbbb")
                text.append("VP intersection: an ordinary locality with 5-6 players (SC-11)")
            elif owner.get(v) is None:
                colours.append("#f2c14e")
                text.append("VP intersection: the first road to reach it takes its Catan token, 1 VP (SC-10)")
            else:
                colours.append(pal["player"][game.colours[owner[v]]])
                text.append(f"Catan token taken by {str(game.colours[owner[v]]).title()} (1 VP)")
        return {f"{NAME}:vp": dict(x=xs, y=ys, hovertext=text,
                                   marker=dict(symbol="star", size=18, color=colours, line=dict(color="#3b3b3b", width=1)))}


def _red_paths(game) -> list[int]:
    from ..rules.modules.corsica_new_york import scenario_data

    return sorted(scenario_data(game.board).red)


@register_layer(NAME)
class RateLabels(Layer):
    """SC-8: the rate of each red path, written over the pieces (so no number disc covers it) beside the
    path's middle, away from the land; a click on a label is a click on its path (issue 25 item 8)."""

    clickable = (f"{NAME}:rates",)

    def traces(self, game, pal):
        from .board import hex_centre
        from ..rules.modules.corsica_new_york import scenario_data

        d = scenario_data(game.board)
        t = game.topology
        lx, ly, lt = [], [], []
        for e, (ratio, res) in sorted(d.red.items()):
            a, b = t.edge_nodes[e]
            (x0, y0), (x1, y1) = _pos(game, a), _pos(game, b)
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            land = [h for h in set(t.node_hexes[a]) & set(t.node_hexes[b]) if t.hex_land[h]]
            if len(land) == 1:  # a coast: the label out at sea, clear of the land's number discs
                cx, cy = hex_centre(game.board, land[0])
                dx, dy = mx - cx, my - cy
                norm = (dx * dx + dy * dy) ** 0.5 or 1
                mx, my = mx + 0.32 * dx / norm, my + 0.32 * dy / norm
            lx.append(mx)
            ly.append(my)
            lt.append(f"{ratio}:1" + ("" if res is None else f"<br>{game.goods[res]}"))
        return [dict(type="scatter", mode="text", name=f"{NAME}:rates", x=lx, y=ly, text=lt, hoverinfo="text",
                     customdata=sorted(d.red),
                     hovertext=[f"red path: a road here trades {x.replace('<br>', ' ')} with the bank for the rest "
                                "of the game (SC-8)" for x in lt],
                     textfont=dict(size=10, color="#7f0000", weight="bold", shadow="0px 0px 3px white"))]

    def click(self, game, trace_name, index, legal):
        reds = _red_paths(game)
        if not 0 <= index < len(reds):
            return None
        return [a for a in legal if reds[index] in (getattr(a, "path", None), getattr(a, "from_path", None))] or None


def _rates_taken(game) -> dict:
    """How many red-path rates each seat holds (for :func:`_red_path_note`)."""
    st = game.ext.get(NAME)
    return {"red_rates": [len(r) for r in st["rates"]]} if st is not None else {}


def _red_path_note(game, action, before, viewer, kinds) -> list[str]:
    """SC-8: the bank rate a road on a red path gave its builder, said as the log says it."""
    from .text import seat_name

    st = game.ext.get(NAME)
    if st is None or "red_rates" not in before:
        return []
    out = []
    for q, rates in enumerate(st["rates"]):
        for ratio, res in rates[before["red_rates"][q]:]:
            what = "any resource" if res is None else str(game.goods[res])
            out.append(f"  {seat_name(game, q, kinds)} now trades {what} {ratio}:1 with the bank (red path, SC-8)")
    return out


def _phrases() -> None:
    from .text import NOTES, PHRASES, SNAPSHOTS

    NOTES.append(_red_path_note)
    SNAPSHOTS.append(_rates_taken)

    PHRASES.setdefault("PlayCanal", lambda who, a, b, g: f"{who} played a canal token: {a.resource} 2:1 this turn")
    PHRASES.setdefault("OfferCanal", lambda who, a, b, g: (
        f"{who} offered {a.tokens} canal token(s) to {str(g.colours[a.partner]).title()}" if a.tokens > 0 else
        f"{who} asked {str(g.colours[a.partner]).title()} for {-a.tokens} canal token(s)")
        if isinstance(a.partner, int) and isinstance(a.tokens, int) and 0 <= a.partner < g.n else f"{who} offered canal tokens")
    PHRASES.setdefault("AnswerCanal", lambda who, a, b, g: (
        ("accept" if a.accept else "decline") + " the canal trade" if not who else
        f"{who} accepted the canal trade" if a.accept else f"{who} declined the canal trade"))


_phrases()

"""The Seafarers layer of the board figure: ships, and the sea paths where one may be built.

Ships are drawn as a dotted line in the owner's colour over a dark keel with a boat marker at the
middle of the path, so they differ from roads (solid) at a glance, by shape as well as colour
(the colour-blind palette included).  A click on a ringed sea path builds a ship there; a click on
a ringed ship (one that may move, SF-7) rings the places it may sail to, and a click on one of
them moves it there.
"""

from __future__ import annotations

from .plugins import Layer, register_layer

NAME = "seafarers"


def _mid(game, e: int) -> tuple[float, float]:
    from .board import path_midpoint  # the board figure's own geometry

    return path_midpoint(game.board, e)


def _hex_centre(game, hx: int) -> tuple[float, float]:
    from .board import hex_centre as centre  # the board figure's own geometry

    return centre(game.board, hx)


@register_layer(NAME)
class ShipLayer(Layer):
    """Ships per player (keel, dotted hull line, boat marker) and the ship targets of the seat to act."""

    clickable = (f"{NAME}:ship-targets", f"{NAME}:movable", f"{NAME}:pirate-targets", f"{NAME}:destinations")

    @property
    def handles(self):
        from ..rules.modules.seafarers import BuildShip, MovePirate, MoveShip

        return (BuildShip, MoveShip, MovePirate)

    def traces(self, game, pal):
        out = []
        for p in range(game.n):
            colour = pal["player"][game.colours[p]]
            out.append(dict(type="scatter", mode="lines", name=f"{NAME}:keel:{p}", hoverinfo="skip",
                            line=dict(color="#0b2545", width=9)))
            out.append(dict(type="scatter", mode="lines", name=f"{NAME}:ship:{p}", hoverinfo="skip",
                            line=dict(color=colour, width=5, dash="dot")))
            out.append(dict(type="scatter", mode="markers", name=f"{NAME}:boat:{p}", hoverinfo="text",
                            marker=dict(symbol="triangle-up", size=13, color=colour,
                                        line=dict(color="#0b2545", width=1.5))))
        out.append(dict(type="scatter", mode="markers+text", name=f"{NAME}:pirate", hoverinfo="text", text=["P"],
                        textfont=dict(color="white", size=11),
                        marker=dict(symbol="diamond-wide", size=24, color="#111", line=dict(color="white", width=1))))
        out.append(dict(type="scatter", mode="markers", name=f"{NAME}:movable", hoverinfo="text",
                        marker=dict(symbol="triangle-up-open", size=22, color=pal["highlight"], line=dict(width=3))))
        out.append(dict(type="scatter", mode="markers", name=f"{NAME}:pirate-targets", hoverinfo="text",
                        marker=dict(symbol="diamond-wide-open", size=26, color=pal["highlight"], line=dict(width=3))))
        out.append(dict(type="scatter", mode="markers", name=f"{NAME}:ship-targets", hoverinfo="text",
                        marker=dict(symbol="circle-open", size=16, color=pal["highlight"], line=dict(width=3))))
        out.append(dict(type="scatter", mode="markers", name=f"{NAME}:destinations", hoverinfo="text",
                        marker=dict(symbol="circle-open-dot", size=18, color=pal["highlight"], line=dict(width=3))))
        return out

    def dynamic(self, game, pal, legal):
        from ..rules.modules.seafarers import BuildShip

        ship = game.kind_id["ship"]
        from .board import paths_xy

        out = {}
        for p in range(game.n):
            ships = sorted(game.placed[ship][p])
            xs, ys = paths_xy(game.board, ships)
            mids = [_mid(game, e) for e in ships]
            bx, by = [m[0] for m in mids], [m[1] for m in mids]
            out[f"{NAME}:keel:{p}"] = dict(x=xs, y=ys)
            out[f"{NAME}:ship:{p}"] = dict(x=xs, y=ys)
            out[f"{NAME}:boat:{p}"] = dict(x=bx, y=by, hovertext=[f"{str(game.colours[p]).title()}'s ship"] * len(bx))
        hx = game.ext[NAME]["pirate"]
        if hx is None:
            out[f"{NAME}:pirate"] = dict(x=[], y=[], hovertext=[])
        else:
            cx, cy = _hex_centre(game, hx)
            out[f"{NAME}:pirate"] = dict(x=[cx], y=[cy], hovertext=["the pirate (SF-10, SF-11)"])
        from ..rules.modules.seafarers import MovePirate, MoveShip

        movable = sorted({a.from_path for a in legal if isinstance(a, MoveShip)})
        mm = [_mid(game, e) for e in movable]
        out[f"{NAME}:movable"] = dict(x=[m[0] for m in mm], y=[m[1] for m in mm], customdata=movable,
                                      hovertext=["move this ship"] * len(movable))
        seas = sorted({a.hex for a in legal if isinstance(a, MovePirate)})
        cs = [_hex_centre(game, h) for h in seas]
        out[f"{NAME}:pirate-targets"] = dict(x=[c[0] for c in cs], y=[c[1] for c in cs], customdata=seas,
                                             hovertext=["move the pirate here"] * len(seas))
        targets = sorted({a.path for a in legal if isinstance(a, BuildShip)})
        mids = [_mid(game, e) for e in targets]
        out[f"{NAME}:ship-targets"] = dict(x=[m[0] for m in mids], y=[m[1] for m in mids], customdata=targets,
                                           hovertext=["build a ship here"] * len(targets))
        ends = _destinations(legal)
        ds = [_mid(game, e) for e in ends]
        out[f"{NAME}:destinations"] = dict(x=[d[0] for d in ds], y=[d[1] for d in ds], customdata=ends,
                                           hovertext=["move the ship here"] * len(ends))
        return out

    def picks(self, game, choices):
        return "click a ringed destination for the ship" if _destinations(choices) else None

    def hints(self, game, legal):
        from ..rules.modules.seafarers import BuildShip, MovePirate, MoveShip

        kinds = {type(a) for a in legal}
        out = []
        if MovePirate in kinds:  # SF-10: the robber or the pirate
            out.append("or a ringed sea hex for the pirate")
        if BuildShip in kinds:
            out.append("a ringed sea path for a ship")
        if MoveShip in kinds:
            out.append("a ringed ship to move it")
        return out

    def click(self, game, trace_name, index, legal):
        from ..rules.modules.seafarers import BuildShip, MovePirate, MoveShip

        if trace_name.endswith(":destinations"):  # where the chosen ship sails to
            ends = _destinations(legal)
            return next((a for a in legal if isinstance(a, MoveShip) and a.to_path == ends[index]), None) \
                if 0 <= index < len(ends) else None
        if trace_name.endswith(":movable"):  # a ship to move: its destinations ring, the player clicks one
            ships = sorted({a.from_path for a in legal if isinstance(a, MoveShip)})
            return [a for a in legal if isinstance(a, MoveShip) and a.from_path == ships[index]] \
                if 0 <= index < len(ships) else None
        if trace_name.endswith(":pirate-targets"):  # the pirate there: the table asks whom to rob
            seas = sorted({a.hex for a in legal if isinstance(a, MovePirate)})
            return [a for a in legal if isinstance(a, MovePirate) and a.hex == seas[index]] \
                if 0 <= index < len(seas) else None
        targets = sorted({a.path for a in legal if isinstance(a, BuildShip)})
        return BuildShip(targets[index]) if 0 <= index < len(targets) else None


def _destinations(moves) -> list[int]:
    """The paths one ship may sail to, when ``moves`` are the moves of one ship only (the table's pending
    choice after a click on it, SF-7); else none."""
    from ..rules.modules.seafarers import MoveShip

    if not moves or not all(isinstance(a, MoveShip) for a in moves) or len({a.from_path for a in moves}) != 1:
        return []
    return sorted({a.to_path for a in moves})


def _phrases() -> None:
    """How the log says the Seafarers actions (and a gold pick, SF-1)."""
    from .text import GROUPS, NOTES, PHRASES, ROLL_NOTES, SNAPSHOTS, cards_text, goods_counts, place_of_path

    PHRASES.setdefault("BuildShip", lambda who, a, b, g: f"{who} built a ship {place_of_path(b, a.path)}")
    PHRASES.setdefault("MoveShip", lambda who, a, b, g: (f"{who} moved a ship: {place_of_path(b, a.from_path)} → "
                                                         f"{place_of_path(b, a.to_path)}"))
    PHRASES.setdefault("PickGold", lambda who, a, b, g: f"{who} took 1 {a.resource} from a gold field")
    GROUPS.setdefault("PickGold", lambda who, acts, g, visible: (
        f"{who} took {cards_text(goods_counts(g, acts, 'resource'), g.goods)} from a gold field"))
    ROLL_NOTES.append(_gold_note)
    NOTES.append(_fog_and_treasure)
    SNAPSHOTS.append(_found)
    PHRASES.setdefault("MovePirate", lambda who, a, b, g: (
        f"{who} moved the pirate next to {_sea_place(g, a.hex)}"
        + (f" and robbed {str(g.colours[a.victim]).title()}" if a.victim is not None else "")))


def _found(game) -> dict:
    """How many fog hexes were revealed and treasures found so far (for :func:`_fog_and_treasure`)."""
    return {"fog_revealed": len(game.ext["fog"]["revealed"]) if "fog" in game.ext else 0,
            "treasure_found": len(game.ext["treasure"]["found"]) if "treasure" in game.ext else 0}


def _fog_and_treasure(game, action, before, viewer, kinds) -> list[str]:
    """SF-3: the hexes a road or ship revealed and the resource their revealer took; SF-4: a treasure found
    (its kind is public; a card drawn is named to its finder only, in the hand)."""
    from ..rules.modules.treasure import TREASURE_CARDS, TREASURE_PATHS, TreasureKind
    from .text import seat_name

    out = []
    who = seat_name(game, before["current"], kinds)
    for hx, _terrain, _token in game.ext["fog"]["revealed"][before.get("fog_revealed", 0):] if "fog" in game.ext else ():
        terrain, token = game.hex_terrain[hx], game.hex_token[hx]
        place = f"{terrain}{' ' + str(token) if token else ''}"
        gain = f"; {who} takes 1 {terrain.resource}" if terrain.resource is not None else ""
        out.append(f"  the fog lifts: {place} revealed{gain}")
    for _v, q, kind in game.ext["treasure"]["found"][before.get("treasure_found", 0):] if "treasure" in game.ext else ():
        what = {TreasureKind.GOLD: f"{TREASURE_CARDS} resources of their choice (gold)",
                TreasureKind.RESOURCES: f"{TREASURE_CARDS} resources from the bank",
                TreasureKind.DEVELOPMENT_CARD: "a development card",
                TreasureKind.FREE_PATHS: f"{TREASURE_PATHS} free roads or ships"}[TreasureKind(kind)]
        out.append(f"  {seat_name(game, q, kinds)} found a treasure: {what}")
    return out


def _gold_note(game, kinds) -> list[str]:
    """SF-1: after a roll, who picks how many resources from a gold field (in the order they pick)."""
    from ..rules.modules.gold_fields import GOLD_PICK
    from .text import seat_name

    picks = [d for d in reversed(game.stack) if d.phase is GOLD_PICK]
    return [f"{seat_name(game, d.player, kinds)} picks {d.data} resource{'s' if d.data != 1 else ''} of their choice "
            "from a gold field" for d in picks]


def _sea_place(game, hx: int) -> str:
    """A sea hex as players see it: the land it borders, else its place on the map."""
    from .text import near_land, place_of_hex

    t = game.topology
    land = sorted({h for v in t.hex_nodes[hx] for h in t.node_hexes[v] if t.hex_land[h]})
    if land:
        return " and ".join(place_of_hex(game.board, h) for h in land[:2])
    pos = game.board.graph.nodes  # out at sea: which sea hex, by the land nearest it (issue 37)
    x = sum(pos[v]["pos"][0] for v in t.hex_nodes[hx]) / len(t.hex_nodes[hx])
    y = sum(pos[v]["pos"][1] for v in t.hex_nodes[hx]) / len(t.hex_nodes[hx])
    near = near_land(game.board, x, y)
    return f"the open sea off {near}" if near else "the open sea"


_phrases()


@register_layer("fog")
class FogLayer(Layer):
    """SF-3: hexes revealed from the fog, drawn over the printed fog in their terrain's colour with their number."""

    below = True  # under the roads, ships and buildings

    def traces(self, game, pal):
        from ..constants import Terrain

        # No legendgroup: one visible trace with a legend group turns plotly.js's legend to "grouped"
        # order, a tall column that squeezes the board (issue 25 item 3); the board's legend already
        # names every terrain.
        out = [dict(type="scatter", mode="lines", fill="toself", name=f"fog:revealed:{t.value}", hoverinfo="skip",
                    fillcolor=pal["terrain"][t], line=dict(color="#5b4a33", width=2))
               for t in Terrain if t.resource is not None or t is Terrain.DESERT]
        out.append(dict(type="scatter", mode="text", name="fog:tokens", hoverinfo="skip",
                        textfont=dict(size=15, color="#111")))
        return out

    def dynamic(self, game, pal, legal):
        from ..constants import Terrain, pips
        from .board import hex_outline as _hex_outline

        printed = game.topology.hex_terrain
        out = {f"fog:revealed:{t.value}": dict(x=[], y=[]) for t in Terrain if t.resource is not None or t is Terrain.DESERT}
        tx, ty, tt = [], [], []
        for hx, terrain in enumerate(game.hex_terrain):
            if printed[hx] is not Terrain.FOG or terrain is Terrain.FOG:
                continue
            key = f"fog:revealed:{terrain.value}"
            if key not in out:
                continue
            xs, ys = _hex_outline(game.board, hx)
            out[key]["x"] += xs + [None]
            out[key]["y"] += ys + [None]
            tok = game.hex_token[hx]
            if tok:
                cx, cy = _hex_centre(game, hx)
                tx.append(cx)
                ty.append(cy)
                tt.append(f"<b>{tok}</b><br>{'•' * pips(tok)}")
        out["fog:tokens"] = dict(x=tx, y=ty, text=tt)
        return out


@register_layer("treasure")
class TreasureLayer(Layer):
    """SF-4: the fogged intersections whose treasure nobody has found yet (a gold star)."""

    def traces(self, game, pal):
        return [dict(type="scatter", mode="markers", name="treasure:spots", hoverinfo="text",
                     marker=dict(symbol="star", size=15, color="#f2c14e", line=dict(color="#5b4a33", width=1.5)))]

    def dynamic(self, game, pal, legal):
        pos = game.board.graph.nodes
        spots = game.ext["treasure"]["spots"]
        return {"treasure:spots": dict(x=[pos[v]["pos"][0] for v in spots], y=[pos[v]["pos"][1] for v in spots],
                                       hovertext=["treasure (SF-4): the first road or ship to reach it finds it"] * len(spots))}


@register_layer("great_catan")
class GreatCatanLayer(Layer):
    """SF-15, SF-16: small-island hexes waiting for a number token, tokens brought or moved, and the
    main-island tokens the player may move (click one)."""

    clickable = ("great_catan:sources",)

    @property
    def handles(self):
        from ..rules.modules.great_catan import MoveNumberToken

        return (MoveNumberToken,)

    def traces(self, game, pal):
        return [
            dict(type="scatter", mode="markers+text", name="great_catan:tokens", hoverinfo="text",
                 textposition="middle center", textfont=dict(size=15),
                 marker=dict(size=38, color=pal["token_disc"], line=dict(color="#5b4a33", width=1))),
            dict(type="scatter", mode="markers+text", name="great_catan:waiting", hoverinfo="text", text=[],
                 textfont=dict(size=16, color="#5b4a33"),
                 marker=dict(size=30, color="rgba(255,255,255,0.35)", line=dict(color="#5b4a33", width=1.5, dash="dot"))),
            dict(type="scatter", mode="markers", name="great_catan:sources", hoverinfo="text",
                 marker=dict(symbol="circle-open", size=46, color=pal["highlight"], line=dict(width=4))),
        ]

    def dynamic(self, game, pal, legal):
        from ..constants import pips
        from ..rules.modules.great_catan import MoveNumberToken

        printed = game.board.hexes
        tx, ty, text, colour, hover = [], [], [], [], []
        wx, wy = [], []
        small = set(game.ext["great_catan"]["small"])
        for hx, tok in enumerate(game.hex_token):
            was = printed[hx].token or 0
            if hx in small and not tok:
                cx, cy = _hex_centre(game, hx)
                wx.append(cx)
                wy.append(cy)
                continue
            if tok == was:
                continue
            cx, cy = _hex_centre(game, hx)
            tx.append(cx)
            ty.append(cy)
            if tok:
                text.append(f"<b>{tok}</b><br><span style='font-size:9px'>{'•' * pips(tok)}</span>")
                colour.append(pal["hot_token"] if tok in (6, 8) else pal["token"])
                hover.append(f"token {tok}, brought by a ship (SF-15, SF-16)")
            else:
                text.append("–")
                colour.append(pal["token"])
                hover.append(f"its token {was} was moved to a small island (SF-16): it produces nothing")
        sources = sorted({a.from_hex for a in legal if isinstance(a, MoveNumberToken)})
        cs = [_hex_centre(game, h) for h in sources]
        return {
            "great_catan:tokens": dict(x=tx, y=ty, text=text, hovertext=hover, textfont=dict(size=15, color=colour)),
            "great_catan:waiting": dict(x=wx, y=wy, text=["?"] * len(wx),
                                        hovertext=["a small island: it gets a number token when a ship reaches it (SF-15)"] * len(wx)),
            "great_catan:sources": dict(x=[c[0] for c in cs], y=[c[1] for c in cs], customdata=sources,
                                        hovertext=[f"move this {game.hex_token[h]} to the small island" for h in sources]),
        }

    def hints(self, game, legal):
        from ..rules.modules.great_catan import MoveNumberToken

        return ["a ringed number token to move it"] if any(isinstance(a, MoveNumberToken) for a in legal) else []

    def click(self, game, trace_name, index, legal):
        from ..rules.modules.great_catan import MoveNumberToken

        sources = sorted({a.from_hex for a in legal if isinstance(a, MoveNumberToken)})
        return MoveNumberToken(sources[index]) if 0 <= index < len(sources) else None


def _more_phrases() -> None:
    from .text import PHRASES, place_of_hex

    def move_token(who, a, b, g):
        """SF-16, with the number and both hexes (as a choice, before the move; in the log, after it)."""
        if who:
            frm, to, token = g.ext["great_catan"]["moved"][-1]
            return (f"{who} moved the {token} of {g.hex_terrain[frm]} to {place_of_hex(b, to)} on a small island")
        to = g.stack[-1].data
        return f"move the {g.hex_token[a.from_hex]} of {place_of_hex(b, a.from_hex)} to the {g.hex_terrain[to]} on a small island"

    PHRASES.setdefault("MoveNumberToken", move_token)


_more_phrases()

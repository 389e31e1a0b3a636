"""The Cities & Knights layer of the board figure: knights, city walls and metropolises.

A knight is drawn at its intersection in its owner's colour with its level written on it and a
shape per level (basic a circle, strong a square, mighty a diamond), filled when active and hollow
when not, so level and state read without colour (the colour-blind palette included).  Walls ring
their city; a metropolis carries a star; the merchant stands on its hex as a cone in its controller's
colour (CK-MER-1).  Ringed intersections are where a knight may be hired; a
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
    #: A click on a knight lists its moves (activate, promote, move, displace, chase) and a second click
    #: chooses: none is played at once, not even the only one (an activation costs a grain; issue 37).
    confirm = (f"{NAME}:knights",)

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
            dict(type="scatter", mode="markers+text", name=f"{NAME}:merchant", hoverinfo="text", text=["M"],
                 textposition="middle center", textfont=dict(size=10, color="#111"),
                 marker=dict(symbol="triangle-up", size=24, line=dict(color="#3b3b3b", width=2))),
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
        merchant = dict(x=[], y=[], hovertext=[])
        if st.get("merchant") is not None:
            from .board import hex_centre as _hex_centre

            p, h = st["merchant"]
            cx, cy = _hex_centre(game.board, h)
            resource = game.hex_terrain[h].resource
            merchant = dict(x=[cx + 0.35], y=[cy - 0.3], hovertext=[
                f"the merchant: {str(game.colours[p]).title()} trades {resource} 2:1 and holds 1 VP (CK-MER-1)"],
                marker=dict(symbol="triangle-up", size=24, color=pal["player"][game.colours[p]],
                            line=dict(color="#3b3b3b", width=2)))
        return {
            f"{NAME}:merchant": merchant,
            f"{NAME}:walls": dict(x=wx, y=wy, hovertext=wt),
            f"{NAME}:metropolis": dict(x=mx, y=my, hovertext=mt),
            f"{NAME}:knights": dict(x=kx, y=ky, text=kt, hovertext=khover,
                                    marker=dict(symbol=ksym, color=kfill, size=20, line=dict(color=kline, width=2.5))),
            f"{NAME}:hire": dict(x=[h[0] for h in hx], y=[h[1] for h in hx], customdata=hires,
                                 hovertext=["hire a knight here (1 ore + 1 wool)"] * len(hires)),
        }

    def hints(self, game, legal):
        from ..rules.modules.cities_knights import HireKnight

        me = game.current_player
        rows = {r[0]: r[1] for r in game.ext[NAME]["knights"]}
        out = []
        if any(isinstance(a, HireKnight) for a in legal):
            out.append("a ringed dot to hire a knight")
        at = {v for a in legal for v in (getattr(a, "node", None), getattr(a, "from_node", None)) if v in rows}
        if any(rows[v] == me for v in at):
            out.append("one of your knights for its moves")
        if any(rows[v] != me for v in at):  # an opponent's knight a card acts on (Intrigue, CK-PC-14)
            out.append("click an opponent's knight to act on it")
        return out

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
    from .text import GROUPS, PHRASES, PRIVATE, goods_counts, cards_text, place_of_hex, place_of_node, place_of_path

    def _n(k):
        return f"{k} card{'' if k == 1 else 's'}"

    def at(b, v):
        return f"at {place_of_node(b, v)}"

    PHRASES.setdefault("HireKnight", lambda who, a, b, g: f"{who} hired a knight {at(b, a.node)}")
    from ..rules.modules.cities_knights import ACTIVATE_COST, KNIGHT_COST

    def price(cost):  # what a move costs, said with it (a knight's click lists its moves first: issue 37)
        return " + ".join(f"{k} {r}" for r, k in cost.items())

    PHRASES.setdefault("PromoteKnight", lambda who, a, b, g: f"{who} promoted the knight {at(b, a.node)} "
                                                             f"({price(KNIGHT_COST)})")
    PHRASES.setdefault("ActivateKnight", lambda who, a, b, g: f"{who} activated the knight {at(b, a.node)} "
                                                              f"({price(ACTIVATE_COST)})")
    # A phrase said with no ``who`` is the label of the choice (the table's "Which one?" buttons and "More
    # actions" list): those starting with the seat's possessive say the move as a choice instead.
    PHRASES.setdefault("MoveKnight", lambda who, a, b, g: (f"{who} moved a knight from {place_of_node(b, a.from_node)} "
                                                          f"to {place_of_node(b, a.to_node)}"))
    PHRASES.setdefault("DisplaceKnight", lambda who, a, b, g: (
        f"{who}'s knight displaced a weaker knight {at(b, a.to_node)}" if who
        else f"displace the weaker knight {at(b, a.to_node)} with your knight {at(b, a.from_node)}"))
    PHRASES.setdefault("RetreatKnight", lambda who, a, b, g: (
        (f"{who}'s displaced knight retreated to {place_of_node(b, a.to_node)}" if who
         else f"retreat your knight to {place_of_node(b, a.to_node)}") if a.to_node is not None
        else (f"{who}'s displaced knight left the board" if who else "take your knight off the board")))
    PHRASES.setdefault("ChaseRobber", lambda who, a, b, g: (
        f"{who}'s knight chased the robber away" if who
        else f"chase the robber from {place_of_hex(b, a.hex)} to {place_of_hex(b, a.to_hex)} with your knight "
             f"{at(b, a.node)}" + (f" and steal from {seat(g, a.victim)}" if a.victim is not None else "")))
    PHRASES.setdefault("ImproveCity", lambda who, a, b, g: f"{who} improved their cities: {a.track}")
    PHRASES.setdefault("BuildWall", lambda who, a, b, g: f"{who} built a city wall {at(b, a.node)}")
    PHRASES.setdefault("ChooseMetropolis", lambda who, a, b, g: f"{who} raised a metropolis {at(b, a.node)}")
    PHRASES.setdefault("LoseCity", lambda who, a, b, g: (
        f"the barbarians pillaged {who}'s city {at(b, a.node)}" if who else f"lose the city {at(b, a.node)}"))
    PHRASES.setdefault("TakeAqueduct", lambda who, a, b, g: f"{who} took 1 {a.resource} from the Aqueduct")
    PHRASES.setdefault("DrawProgress", lambda who, a, b, g: f"{who} drew a {a.track} progress card for defending Catan")
    PHRASES.setdefault("ReturnProgress", lambda who, a, b, g: f"{who} gave back a progress card")
    PHRASES.setdefault("PlayProgress", lambda who, a, b, g: f"{who} played {a.card.replace('_', ' ').title()}")
    PHRASES.setdefault("PlayProgressGood", lambda who, a, b, g: (
        f"{who} played {a.card.replace('_', ' ').title()} on {a.good}"))
    PHRASES.setdefault("PlayProgressNode", lambda who, a, b, g: (
        f"{who} played {a.card.title()} {at(b, a.node)}"))
    PHRASES.setdefault("PlaySmith", lambda who, a, b, g: f"{who} played Smith: {len(a.nodes)} knight(s) promoted")
    PHRASES.setdefault("PlayAlchemist", lambda who, a, b, g: (
        f"{who} played Alchemist: red {a.red}, yellow {a.yellow}" + (f", event die {a.event}" if a.event else "")))
    PHRASES.setdefault("PlayInventor", lambda who, a, b, g: (
        f"{who} played Inventor: the tokens of {place_of_hex(b, a.first)} and {place_of_hex(b, a.second)} swapped"))
    PHRASES.setdefault("PlayBishop", lambda who, a, b, g: (
        f"{who} played Bishop: the robber to {place_of_hex(b, a.hex)}"
        + (f", {_n(len(a.stolen))} taken" if a.stolen is not None else "")))
    PHRASES.setdefault("PlayDeserter", lambda who, a, b, g: f"{who} played Deserter against {seat(g, a.victim)}")
    PHRASES.setdefault("RemoveKnight", lambda who, a, b, g: (
        f"{who}'s knight deserted {at(b, a.node)}" if who else f"remove your knight {at(b, a.node)}"))
    PHRASES.setdefault("PlaceDeserter", lambda who, a, b, g: (
        f"{who} placed the deserter {at(b, a.node)}" if a.node is not None else f"{who} let the deserter go"))
    PHRASES.setdefault("PlayDiplomat", lambda who, a, b, g: f"{who} played Diplomat: the road {place_of_path(b, a.path)} removed")
    PHRASES.setdefault("PlayIntrigue", lambda who, a, b, g: f"{who} played Intrigue on the knight {at(b, a.node)}")
    PHRASES.setdefault("PlaySpy", lambda who, a, b, g: f"{who} played Spy on {seat(g, a.victim)}")
    # what a spy or a Master Merchant takes is said only on the chooser's own button (no ``who``)
    PHRASES.setdefault("SpyTake", lambda who, a, b, g: (
        f"take {a.card.replace('_', ' ').title()}" if not who else f"{who}'s spy took a progress card"))
    PHRASES.setdefault("PlayMasterMerchant", lambda who, a, b, g: f"{who} played Master Merchant on {seat(g, a.victim)}")
    PHRASES.setdefault("TakeGoods", lambda who, a, b, g: (
        f"take {cards_text(a.cards, g.goods)}" if not who else f"{who} took {_n(sum(a.cards))} with the Master Merchant"))
    PHRASES.setdefault("PlayMerchant", lambda who, a, b, g: f"{who} placed the merchant on {place_of_hex(b, a.hex)}")
    PHRASES.setdefault("GiveGoods", lambda who, a, b, g: f"{who} gave {cards_text(a.cards, g.goods)} as a wedding present")
    # cards passed between two players: named to those two only (the others see how many)
    PRIVATE.setdefault("GiveGoods", (lambda g, a, before: (before["current"], before["active"]),
                                     lambda who, a, b, g: f"{who} gave {_n(sum(a.cards))} as a wedding present"))
    GROUPS.setdefault("GiveGoods", lambda who, acts, g, visible: (
        f"{who} gave {cards_text(goods_counts(g, acts, 'cards'), g.goods) if visible else _n(sum(sum(a.cards) for a in acts))}"
        " as a wedding present"))
    PRIVATE.setdefault("HarborOffer", (lambda g, a, before: (before["current"], g.current_player),
                                       lambda who, a, b, g: f"{who} offered a resource (Commercial Harbor)"))
    PRIVATE.setdefault("HarborReply", (lambda g, a, before: (before["current"], before["active"]),
                                       lambda who, a, b, g: f"{who} gave a commodity in return"))
    PHRASES.setdefault("HarborOffer", lambda who, a, b, g: f"{who} offered 1 {a.resource} (Commercial Harbor)")
    PHRASES.setdefault("HarborReply", lambda who, a, b, g: f"{who} gave 1 {a.commodity} in return")
    from .text import NOTES, SNAPSHOTS

    SNAPSHOTS.append(_progress_held)
    NOTES.append(_progress_drawn)


def _progress_held(game) -> dict:
    """Each seat's progress cards (in hand and the victory-point ones shown) before an action."""
    st = game.ext.get("cities_knights")
    if st is None:
        return {}
    return {"ck_progress": tuple(tuple(h) + tuple(v) for h, v in zip(st["hands"], st["vp_cards"]))}


def _progress_drawn(game, action, before, viewer, kinds) -> list[str]:
    """Issue 37: the progress cards the event die dealt (CK-PROG-1) are said after the roll: who drew and of
    which colour for everyone (the city gate shows it), the card's name only to the drawer; a
    victory-point card is shown at once (CK-PC-8), so it is named to all."""
    from collections import Counter

    from ..rules.modules.cities_knights import CARD_TRACK, TRACK_COLOUR, VP_PROGRESS
    from .text import seat_name

    held = before.get("ck_progress")
    if held is None or type(action).__name__ not in ("RollDice", "PlayAlchemist"):
        return []
    st = game.ext["cities_knights"]
    out = []
    for q in range(game.n):
        now = Counter(tuple(st["hands"][q]) + tuple(st["vp_cards"][q]))
        for card, k in sorted((now - Counter(held[q])).items()):
            track = CARD_TRACK[card]
            name = card.replace("_", " ").title()
            for _ in range(k):
                if card in VP_PROGRESS:
                    out.append(f"  {seat_name(game, q, kinds)} drew {name}, a {TRACK_COLOUR[track]} card worth "
                               "1 victory point, shown at once")
                elif viewer is None or viewer == q:
                    out.append(f"  {seat_name(game, q, kinds)} drew a {TRACK_COLOUR[track]} progress card: {name}")
                else:
                    out.append(f"  {seat_name(game, q, kinds)} drew a {TRACK_COLOUR[track]} progress card")
    return out


def seat(game, q) -> str:
    return str(game.colours[q]).title() if isinstance(q, int) and 0 <= q < game.n else str(q)


_phrases()

"""The table panels of the built-in variants: 5-6 players, Friends, Helpers (see :mod:`.panels`)."""

from __future__ import annotations

import html

import ipywidgets as W

from ..constants import CATAN_TOKENS, GUILD_PRICE, Guild, HelperCard
from ..rules.modules.five_six import SPECIAL_BUILD, EndSpecialBuild
from .panels import Panel, button, enable, register_panel, show


@register_panel("five_six")
class SpecialBuildPanel(Panel):
    """X56-SBP: who may build between turns, and the button to pass."""

    handles = (EndSpecialBuild,)

    def build(self, table) -> W.Widget:
        b = button("Done building", "catan-end-sbp", style="primary")
        b.on_click(table.guard(lambda _: table.play(EndSpecialBuild())))
        table.buttons["end_sbp"] = b
        self.note = W.HTML()
        self.box = W.VBox([self.note, b])
        return self.box

    def refresh(self, table, legal) -> None:
        g = table.game
        active = g.phase is SPECIAL_BUILD
        mine = any(isinstance(a, EndSpecialBuild) for a in legal)
        show(self.box, active)
        enable(table.buttons["end_sbp"], mine)
        if active:
            self.note.value = (f"<b>Special Building Phase</b>: {html.escape(table.name(g.current_player))} may build "
                               "or buy — no trades, no cards.")


@register_panel("friends")
class GuildBoardPanel(Panel):
    """F-*: the guild board, favour tokens and Catan tokens."""

    def build(self, table) -> W.Widget:
        self.html = W.HTML()
        return self.html

    def refresh(self, table, legal) -> None:
        g = table.game
        fr = g.ext["friends"]
        viewer = table.viewer_seat()
        heads = "".join(f"<th>{table.swatch(q)}</th>" for q in range(g.n))
        rows = "".join(
            f"<tr><td>{gd.name.title()}</td><td>{gd.token} ×{GUILD_PRICE[gd]}</td><td>{fr['board'][gd.value]}</td>"
            + "".join(f"<td>{fr['tokens'][q][gd.value] if viewer in (None, q) else '?'}</td>" for q in range(g.n))
            + "</tr>"
            for gd in Guild
        )
        self.html.value = (
            f"<div class='catan-card'><b>Guild board</b> (favours; target {g.vp_target} VP)"
            f"<table style='font-size:12px'><tr><th>guild</th><th>price</th><th>used</th>{heads}</tr>{rows}</table>"
            f"<small>supply: {sum(fr['supply'])} face down · Catan tokens left: {fr['catan_left']}/{CATAN_TOKENS}; "
            f"held: {', '.join(str(k) for k in fr['catan_tokens'])}</small></div>"
        )


@register_panel("helpers")
class HelpersPanel(Panel):
    """H-*: each seat's helper, its side, and the display."""

    def build(self, table) -> W.Widget:
        self.html = W.HTML()
        return self.html

    def refresh(self, table, legal) -> None:
        g = table.game
        hp = g.ext["helpers"]

        def card(c, side=None):
            h = HelperCard(c)
            num = f"A{h.number}" if h.number else "—"
            return f"{h.name.replace('_', ' ').title()} ({num}{', side ' + side if side else ''}): {h.title}"

        held = "<br>".join(f"{table.swatch(q)} {html.escape(table.name(q))}: {card(c, hp['side'][q]) if c else 'none yet'}"
                           for q, c in enumerate(hp["held"]))
        display = ", ".join(HelperCard(c).name.replace("_", " ").title() for c in hp["display"]) or "empty"
        self.html.value = f"<div class='catan-card'><b>Helpers</b><br>{held}<br><small>display: {display}</small></div>"


@register_panel("harbour_master")
class HarbourMasterPanel(Panel):
    """SF-14: harbour points of every player and who holds the Harbour Master title."""

    def build(self, table) -> W.Widget:
        self.html = W.HTML().add_class("catan-harbour-master")
        return self.html

    def refresh(self, table, legal) -> None:
        from ..rules.modules.harbour_master import THRESHOLD, TITLE_VP, harbour_points, holder

        g = table.game
        h = holder(g)
        cells = " · ".join(f"{table.swatch(q)} {harbour_points(g, q)}" for q in range(g.n))
        who = f"{table.swatch(h)} {html.escape(table.name(h))}" if h is not None else "nobody yet"
        self.html.value = (f"<div class='catan-card'><b>Harbour Master</b> <small>(SF-14: settlement on a harbour 1, "
                           f"city 2; first to {THRESHOLD} takes {TITLE_VP} VP, strictly more takes it over)</small><br>"
                           f"harbour points: {cells}<br>title: {who}</div>")


@register_panel("gold_fields")
class GoldPanel(Panel):
    """SF-1: a gold field was rolled: the player to pick chooses resources, one button a card."""

    def build(self, table) -> W.Widget:
        from ..constants import Resource
        from ..rules.modules.gold_fields import PickGold

        self.handles = (PickGold,)
        self.note = W.HTML()
        self.buttons = {r: button(f"Take {r}", f"catan-gold-{r}", style="warning") for r in Resource}
        for r, b in self.buttons.items():
            b.on_click(table.guard(lambda _, r=r: table.play(PickGold(r))))
        self.box = W.VBox([self.note, W.HBox(list(self.buttons.values()), layout=W.Layout(flex_flow="row wrap"))])
        return self.box

    def refresh(self, table, legal) -> None:
        from ..rules.modules.gold_fields import GOLD_PICK, PickGold

        g = table.game
        picking = g.phase is GOLD_PICK
        show(self.box, picking)
        if not picking:
            return
        offered = {a.resource for a in legal if isinstance(a, PickGold)}
        for r, b in self.buttons.items():
            show(b, r in offered)
        self.note.value = (f"<b>Gold field</b>: {html.escape(table.name(g.current_player))} takes "
                           f"{g.stack[-1].data} more resource(s) of their choice (SF-1)")

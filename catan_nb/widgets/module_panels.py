"""The table panels of the rule modules, the base game's development cards included (see :mod:`.panels`).

Each panel also declares what its module adds to the table's shared cards: building costs,
scoreboard columns and badges; the table shows the declarations of the game's modules only.
"""

from __future__ import annotations

import html

import ipywidgets as W

from ..constants import CATAN_TOKENS, GUILD_PRICE, Commodity, Guild, HelperCard
from ..rules import Phase
from ..rules.modules.five_six import SPECIAL_BUILD, EndSpecialBuild
from .panels import Panel, badge, button, counts, enable, register_panel, show


@register_panel("development")
class DevelopmentPanel(Panel):
    """B-BUILD-1, B-DEV-*, B-LA-*: the development card's cost, cards held and knights played (counts are
    public, A-15), and the Largest Army.  The cards' buttons are the table's own."""

    def build(self, table) -> None:
        return None

    def costs(self, table, seat):
        from ..rules.modules.development import dev_cost

        return [("development card", "development card", dev_cost(table.game.n_goods))]

    def columns(self, table):
        g = table.game
        return [("dev", "development cards in hand (how many; B-SETUP-7)", lambda q: sum(g.dev_cards(q).values())),
                ("knights", "knights played (Largest Army, B-LA-1)", g.knights_played)]

    def badges(self, table, seat):
        return badge("LA", "Largest Army (2 VP)") if table.game.largest_army_holder == seat else ""


@register_panel("five_six")
class SpecialBuildPanel(Panel):
    """X56-SBP: who may build between turns, and the button to pass."""

    handles = (EndSpecialBuild,)
    #: Why the table passed for the player (set by :meth:`auto`), added to the log's line.
    auto_reason = ""

    def build(self, table) -> W.Widget:
        b = button("Done building", "catan-end-sbp", style="primary")
        b.on_click(table.guard(lambda _: table.play(EndSpecialBuild())))
        table.buttons["end_sbp"] = b
        self.note = W.HTML()
        self.always = W.Checkbox(value=False, indent=False, description="always skip the Special Building Phase",
                                 layout=W.Layout(width="auto")).add_class("catan-sbp-skip")
        self.always.observe(lambda ch: table.guard(lambda _: self._always_changed(table))(None), "value")
        self.box = W.VBox([self.note, W.HBox([b, self.always], layout=W.Layout(flex_flow="row wrap",
                                                                              align_items="center"))])
        return None

    def _always_changed(self, table) -> None:
        if table._auto_human():  # ticked while asked: pass now
            table.refresh()
            table._schedule_bots()

    def auto(self, table, legal):
        """Pass without asking (issue 37) when passing is all the player can do (nothing affordable: the only
        legal move is to pass) or when they chose to skip the phase always; else ``None``: ask."""
        self.auto_reason = ""
        passing = [a for a in legal if isinstance(a, EndSpecialBuild)]
        if not passing or table.game.phase is not SPECIAL_BUILD:
            return None
        if len(legal) == 1:
            self.auto_reason = "nothing to build"
        elif self.always.value:
            self.auto_reason = "skipped (always skip)"
        else:
            return None
        return passing[0]

    def bar(self, table) -> W.Widget:
        return self.box  # beside the board: the phase holds the game up until the player is done

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
        held = ("<tr><td>held</td><td></td><td></td>" + "".join(f"<td>{sum(fr['tokens'][q])}</td>" for q in range(g.n))
                + "</tr>")  # how many tokens each seat holds is public; which guilds, only to their owner
        self.html.value = (
            f"<div class='catan-card'><b>Guild board</b> (favours; target {g.vp_target} VP)"
            f"<table style='font-size:12px'><tr><th>guild</th><th>price</th><th>used</th>{heads}</tr>{rows}{held}</table>"
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

    def columns(self, table):
        from ..rules.modules.harbour_master import harbour_points

        return [("harb.", "harbour points (SF-14)", lambda q: harbour_points(table.game, q))]

    def badges(self, table, seat):
        from ..rules.modules.harbour_master import TITLE_VP, holder

        return badge("HM", f"Harbour Master ({TITLE_VP} VP)") if holder(table.game) == seat else ""


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
        return None

    def bar(self, table) -> W.Widget:
        return self.box  # beside the board: a pick holds the game up

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
        total, picked = self.count(g)
        self.note.value = (f"<b>Gold field</b>: {html.escape(table.name(g.current_player))} takes "
                           f"{total} resource{'' if total == 1 else 's'} of their choice (SF-1)"
                           + (f" — <b>{picked} of {total} picked</b>" if picked else ""))

    def count(self, game) -> tuple[int, int]:
        """The current pick's size and how many of it are taken (issue 37: "1 of 2 picked"): the pick's first
        refresh records its size; the picks the log holds since then count as taken."""
        from ..rules.modules.gold_fields import PickGold

        left = game.stack[-1].data
        seen = getattr(self, "_seen", None)
        if seen is not None and seen[0] == game.current_player:
            since = game.log[seen[2]:]
            if all(isinstance(a, PickGold) for a in since) and seen[1] - len(since) == left:
                return seen[1], len(since)
        self._seen = (game.current_player, left, len(game.log))
        return left, 0


@register_panel("cities_knights")
class CitiesKnightsPanel(Panel):
    """CK-*: the event die and the barbarians' track, the improvement charts with the metropolises and
    walls, the viewer's progress cards and buttons to improve a track; the knight, wall and improvement
    costs on the cost card; improvements, knights, commodities, progress cards (how many), Defender
    points and metropolises on the scoreboard."""

    @property
    def handles(self):
        from ..rules.modules.cities_knights import ImproveCity

        return (ImproveCity,)

    def build(self, table) -> W.Widget:
        from ..rules.modules.cities_knights import TRACK_COMMODITY, TRACKS, ImproveCity

        self.html = W.HTML()
        self.improve = {}
        row = []
        for track in TRACKS:
            b = button(f"Improve {track} ({TRACK_COMMODITY[track]})", f"catan-improve-{track}", style="info")
            b.on_click(table.guard(lambda _, t=track: table.play(ImproveCity(t))))
            self.improve[track] = b
            table.buttons[f"improve_{track}"] = b
            row.append(b)
        self.improve_row = W.HBox(row, layout=W.Layout(flex_flow="row wrap")).add_class("catan-improve")
        return self.html

    def bar(self, table) -> W.Widget:
        return self.improve_row  # the improvement buttons beside the board, with the turn's other buttons

    # ---------------------------------------------------------------- the shared cards
    def costs(self, table, seat):
        from ..rules.modules.cities_knights import (ACTIVATE_COST, KNIGHT_COST, MAX_LEVEL, TRACKS, WALL_COST,
                                                     improvement_cost)

        g = table.game
        levels = g.ext["cities_knights"]["levels"][seat]
        rows = [("knight", "hire a knight (CK-KN-1)", counts(g, KNIGHT_COST)),
                ("promote", "promote a knight (CK-KN-2)", counts(g, KNIGHT_COST)),
                ("activate", "activate a knight (CK-KN-4)", counts(g, ACTIVATE_COST)),
                ("wall", "city wall (CK-WALL-1)", counts(g, WALL_COST))]
        for i, track in enumerate(TRACKS):
            if levels[i] < MAX_LEVEL:
                rows.append((f"improve {track}", f"{track} level {levels[i] + 1} (CK-IMP-1)",
                             improvement_cost(g, seat, track)))
        return rows

    def columns(self, table):
        from ..rules.modules.cities_knights import TRACKS, catan_strength, knights

        g = table.game
        st = g.ext["cities_knights"]
        commodities = [i for i, gd in enumerate(g.goods) if isinstance(gd, Commodity)]

        def metros(q):
            return sum(1 for m in st["metropolis"] if m is not None and m[0] == q)

        return [
            ("impr.", "city improvements: " + " / ".join(str(t) for t in TRACKS) + " levels (CK-IMP-1)",
             lambda q: "/".join(str(x) for x in st["levels"][q])),
            ("knights", "knight strength: active / all (CK-BAR-1)",
             lambda q: f"{catan_strength(g, q)}/{sum(r[2] for r in knights(g, q))}"),
            # A-15: how many cards a hand holds is public, not which: the others' commodities are among them
            ("comm.", "your commodity cards (the others' are among their cards, face down)",
             lambda q: sum(g.hands[q][i] for i in commodities) if table.viewer_seat() in (None, q) else "·"),
            ("prog.", "progress cards in hand (how many; CK-PROG-2)", lambda q: len(st["hands"][q])),
            ("def.", "Defender of Catan points (CK-BAR-3)", lambda q: st["defender"][q]),
            ("metro.", "metropolises (CK-IMP-4)", metros),
        ]

    def badges(self, table, seat):
        st = table.game.ext["cities_knights"]
        m = st.get("merchant")
        return badge("M", "the merchant (1 VP, CK-MER-1)") if m is not None and m[0] == seat else ""

    # ---------------------------------------------------------------- the panel
    def refresh(self, table, legal) -> None:
        from ..rules.modules.cities_knights import (BARBARIAN_TRACK, EVENT_FACES, TRACK_COLOUR, TRACKS, ImproveCity,
                                                     barbarian_strength, catan_strength)

        g = table.game
        st = g.ext["cities_knights"]
        viewer = table.viewer_seat()
        last = g.dice_history[-1] if g.dice_history else None
        if last and len(last) > 2:
            gate = EVENT_FACES[last[2]]  # the engine's faces (CK-COMP-1)
            face = "ship" if gate is None else f"{TRACK_COLOUR[gate]} gate ({gate})"
            die = f"event die: <b>{face}</b>, red die {last[0]}"
        else:
            die = "event die: not rolled yet"
        track = "■" * st["barbarians"] + "□" * (BARBARIAN_TRACK - st["barbarians"])
        heads = "".join(f"<th>{table.swatch(q)}</th>" for q in range(g.n))
        rows = []
        for i, t in enumerate(TRACKS):
            cells = ""
            for q in range(g.n):
                m = st["metropolis"][i]
                star = " ★" if m is not None and m[0] == q else ""
                cells += f"<td>{st['levels'][q][i]}{star}</td>"
            rows.append(f"<tr><td>{t}</td>{cells}</tr>")
        rows.append("<tr><td>walls</td>" + "".join(f"<td>{len(st['walls'][q])}</td>" for q in range(g.n)) + "</tr>")
        m = st.get("merchant")
        if m is not None:
            rows.append(f"<tr><td>merchant</td><td colspan='{g.n}'>{table.swatch(m[0])} on "
                        f"{html.escape(str(g.hex_terrain[m[1]]))} (2:1 {html.escape(str(g.hex_terrain[m[1]].resource))}, "
                        "+1 VP)</td></tr>")

        def names(q):
            return ", ".join(html.escape(c.replace("_", " ")) for c in st["hands"][q]) or "none"

        if viewer is not None:  # only the viewer's own cards: the others' are face down (how many is public)
            mine = f"<br>your progress cards: {names(viewer)}" if st["hands"][viewer] else ""
        else:  # open hands (a teaching option) or the game is over
            mine = "".join(f"<br>{table.swatch(q)} progress cards: {names(q)}" for q in range(g.n) if st["hands"][q])
        last_attack = ""
        rec = st.get("last_attack")
        if rec:
            seats = rec["losers"] if "losers" in rec else rec.get("defenders", [])
            who = ", ".join(table.name(q) for q in seats) or "nobody"
            outcome = f"Catan lost: {who} lose a city" if "losers" in rec else f"Catan held: defender {who}"
            last_attack = (f"<br>last attack: barbarians {rec['barbarians']} against Catan {rec['catan']} — "
                           f"{html.escape(outcome)}")
        self.html.value = (
            f"<div class='catan-card'><b>Cities &amp; Knights</b> (target {g.vp_target} VP)<br>{die}<br>"
            f"barbarians {track} {st['barbarians']}/{BARBARIAN_TRACK} — strength {barbarian_strength(g)} against "
            f"Catan's {catan_strength(g)}; attacks so far {st['attacks']}{last_attack}"
            f"<table style='font-size:12px'><tr><th>track</th>{heads}</tr>{''.join(rows)}</table>{mine}</div>"
        )
        for t in TRACKS:
            enable(self.improve[t], ImproveCity(t) in legal)
        show(self.improve_row, bool(legal) and g.phase is Phase.MAIN)  # a human seat's turn (legal: its moves)


@register_panel("corsica_new_york")
class ScenarioPanel(Panel):
    """SC-8, SC-10, ERIE-*: each seat's Catan tokens and red-path rates; with the Erie Canal, the canal
    tokens held, in play this turn and left in the supply (the scoreboard of the scenario)."""

    @property
    def handles(self):
        from ..rules.modules.erie_canal import AnswerCanal, OfferCanal

        return (OfferCanal, AnswerCanal)

    def build(self, table) -> W.Widget:
        g = table.game
        self.html = W.HTML()
        self.canal_box = W.VBox()
        if g.ext.get("erie_canal") is None:
            return self.html
        # ERIE-5: canal tokens traded like resources, one token for one resource card either way
        self.partner = W.Dropdown(options=[(table.name(q), q) for q in range(g.n)], description="with",
                                  layout=W.Layout(width="170px"))
        self.direction = W.Dropdown(options=[("give a token for", 1), ("get a token for", -1)],
                                    layout=W.Layout(width="150px"))
        self.card = W.Dropdown(options=[(str(gd), i) for i, gd in enumerate(g.goods)], layout=W.Layout(width="100px"))
        offer = button("Offer", "catan-canal-offer", style="info")
        offer.on_click(table.guard(lambda _: self._offer(table)))
        accept = button("Accept", "catan-canal-accept", style="success")
        decline = button("Decline", "catan-canal-decline")
        accept.on_click(table.guard(lambda _: self._answer(table, True)))
        decline.on_click(table.guard(lambda _: self._answer(table, False)))
        table.buttons.update(canal_offer=offer, canal_accept=accept, canal_decline=decline)
        self.offer_row = W.HBox([self.partner, self.direction, self.card, offer], layout=W.Layout(flex_flow="row wrap"))
        self.answer_note = W.HTML()
        self.answer_row = W.HBox([self.answer_note, accept, decline], layout=W.Layout(flex_flow="row wrap"))
        self.canal_box.children = [W.HTML("<b>Canal tokens</b> (ERIE-5)"), self.offer_row]
        return W.VBox([self.html, self.canal_box])

    def bar(self, table) -> W.Widget | None:
        # an offer to answer holds the game up: beside the board
        return self.answer_row if table.game.ext.get("erie_canal") is not None else None

    def _offer(self, table) -> None:
        from ..rules.modules.erie_canal import OfferCanal

        cards = tuple(int(i == self.card.value) for i in range(table.game.n_goods))
        table.play(OfferCanal(self.partner.value, self.direction.value, cards))

    def _answer(self, table, accept: bool) -> None:
        from ..rules.modules.erie_canal import AnswerCanal

        table.play(AnswerCanal(accept))

    def _refresh_canal(self, table, legal) -> None:
        from ..rules.modules.erie_canal import CANAL_ANSWER, AnswerCanal

        g = table.game
        er = g.ext["erie_canal"]
        trading = bool(legal) and g.can_trade()  # a human seat to act, in its trade phase
        show(self.offer_row, trading)
        enable(table.buttons["canal_offer"], trading)
        answering = g.phase is CANAL_ANSWER and AnswerCanal(False) in legal
        show(self.answer_row, answering)
        enable(table.buttons["canal_accept"], AnswerCanal(True) in legal)
        enable(table.buttons["canal_decline"], answering)
        if answering and "offer" in er:
            q, k, cards = er["offer"]
            what = ", ".join(f"{c} {gd}" for c, gd in zip(cards, g.goods) if c)
            deal = f"{abs(k)} canal token(s) for {what}" if k > 0 else f"{what} for {abs(k)} canal token(s)"
            self.answer_note.value = f"{html.escape(table.name(g.active_player))} offers {html.escape(deal)} "

    def refresh(self, table, legal) -> None:
        g = table.game
        st = g.ext["corsica_new_york"]
        if g.ext.get("erie_canal") is not None:
            self._refresh_canal(table, legal)
        heads = "".join(f"<th>{table.swatch(q)}</th>" for q in range(g.n))
        rows = []
        if st["tokens"]:
            left = sum(1 for _, o in st["tokens"] if o is None)
            rows.append("<tr><td>Catan tokens</td>" + "".join(
                f"<td>{sum(1 for _, o in st['tokens'] if o == q)}</td>" for q in range(g.n)) + "</tr>")
            tokens = f"{left} of {len(st['tokens'])} Catan tokens still on VP intersections (SC-10)"
        else:
            tokens = "no Catan tokens with 5-6 players: VP intersections are localities (SC-11)"

        def rate(r):
            ratio, res = r
            return f"{ratio}:1" + ("" if res is None else f" {g.goods[res]}")

        rows.append("<tr><td>red paths</td>" + "".join(
            f"<td>{html.escape(', '.join(rate(r) for r in st['rates'][q])) or '–'}</td>" for q in range(g.n)) + "</tr>")
        canal = ""
        er = g.ext.get("erie_canal")
        if er is not None:
            rows.append("<tr><td>canal tokens</td>" + "".join(f"<td>{er['tokens'][q]}</td>" for q in range(g.n)) + "</tr>")
            playing = ", ".join(f"{table.name(q)} {g.goods[r]} 2:1" for q, r in er["playing"])
            canal = (f"<br>Erie Canal: {er['supply']} tokens in the supply" + (f"; in play: {html.escape(playing)}"
                                                                              if playing else ""))
        self.html.value = (f"<div class='catan-card'><b>{html.escape(g.board.name.replace('_', ' ').title())}</b> "
                           f"(target {g.vp_target} VP)<br>{tokens}{canal}"
                           f"<table style='font-size:12px'><tr><th></th>{heads}</tr>{''.join(rows)}</table></div>")

"""A human seat at the game table, played only through the table's own click and button handlers.

:class:`HumanDriver` picks, at random, one of the legal actions of the human seat to act and
performs it as a person would: a button, a board click (then the victim or the "Which one?"
choice), a module panel's button or a layer's marker, the discard steppers, the "More actions"
list.  It never calls ``game.play``.  Each step checks that the table showed no error the click
did not cause by being illegal (every action the driver takes is legal).

:func:`widget_strings` walks a widget tree (children, HTML values, button labels and tooltips,
dropdown options, text fields, and the board figure's trace text, hover text and custom data) for
the hidden-information tests.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace

import ipywidgets as W
import plotly.graph_objects as go

from catan_nb.rules import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ConfirmTrade,
    DeclineTrade,
    Discard,
    EndRoadBuilding,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)

BUTTONS = {RollDice: "roll", EndTurn: "end", BuyDevelopmentCard: "buy", PlayKnight: "knight",
           PlayRoadBuilding: "road_building", EndRoadBuilding: "end_road_building", AcceptTrade: "accept",
           DeclineTrade: "decline", CancelTrade: "cancel"}


class Unreachable(AssertionError):
    """A legal action of the human seat that no control of the table can play."""


class HumanDriver:
    """Plays the human seats of ``table`` at random through its handlers (see the module docstring)."""

    def __init__(self, table, seed: int = 0, offer_rate: float = 0.05):
        self.t = table
        self.rng = random.Random(seed)
        self.offer_rate = offer_rate
        self.done: dict[str, int] = {}  # action kinds played, by name
        self.unreachable: set[str] = set()

    # ------------------------------------------------------------------ one decision
    def step(self) -> bool:
        """One human decision through the table (False when no human is to act)."""
        t = self.t
        legal = t.legal()
        if not legal:
            return False
        g = t.game
        if (g.phase is Phase.MAIN and g.can_trade() and self.rng.random() < self.offer_rate
                and any(g.hands[g.current_player])):
            self._offer()
            return True
        pool = list(legal)
        # a turn moves on: ending it is as likely as any one other move (no endless bank trades)
        ends = [a for a in pool if isinstance(a, EndTurn)]
        if ends and len(pool) > 4 and self.rng.random() < 0.5:
            action = ends[0]
        else:
            action = self.rng.choice(pool)
        before = g.state()
        self.perform(action)
        self.check_no_error(action)
        name = type(action).__name__
        self.done[name] = self.done.get(name, 0) + 1
        if t.game.state() == before and not t.pending_choices and t.pending_hex is None:
            raise AssertionError(f"the table did nothing for {action!r}")
        return True

    def check_no_error(self, action) -> None:
        msg = self.t.message
        assert not msg.startswith("⚠"), f"the table showed an error for a legal move {action!r}: {msg}"

    def _offer(self) -> None:
        """A one-for-one offer through the steppers (then the bots answer; take the first partner, or withdraw)."""
        t = self.t
        g = t.game
        hand = g.hands[g.current_player]
        give = self.rng.choice([i for i, k in enumerate(hand) if k])
        get = self.rng.choice([i for i in range(g.n_goods) if i != give])
        for i, s in enumerate(t.offer_give):
            s.value = int(i == give)
        for i, s in enumerate(t.offer_get):
            s.value = int(i == get)
        t.press("offer")
        self.check_no_error("offer")
        assert all(s.value == 0 for s in t.offer_give + t.offer_get), "the offer steppers keep the last offer"
        self.done["OfferTrade"] = self.done.get("OfferTrade", 0) + 1

    # ------------------------------------------------------------------ how a person plays a move
    def perform(self, a) -> None:
        t = self.t
        g = t.game
        if a in t.special_actions():
            t.special.value = a
            t.press("special")
            return
        kind = type(a)
        if kind in BUTTONS:
            t.press(BUTTONS[kind])
            return
        if isinstance(a, PlayMonopoly):
            t.mono_res.value = a.resource
            t.press("monopoly")
            return
        if isinstance(a, PlayYearOfPlenty):
            t.yop_a.value, t.yop_b.value = a.first, a.second
            t.press("year_of_plenty")
            return
        if isinstance(a, MaritimeTrade):
            t.give_res.value, t.get_res.value = a.give, a.get
            t.press("maritime")
            return
        if isinstance(a, ConfirmTrade):
            self._click_css(t.partner_box, f"catan-confirm-{a.partner}")
            return
        if isinstance(a, Discard):
            self._discard()
            return
        if isinstance(a, MoveRobber):
            t.click_hex(a.hex)
            if t.pending_hex is not None:
                if a.victim is None:
                    t.press("no_steal")
                else:
                    self._click_css(t.victim_box, f"catan-steal-{a.victim}")
            elif a in t.pending_choices:
                self._choose(a)
            return
        if self._panel(a):
            return
        if not isinstance(a, (BuildSettlement, BuildCity, BuildRoad)) and self._layer(a):
            return
        before = g.state()
        for attr, click in (("node", t.click_node), ("path", t.click_path), ("from_path", t.click_path),
                            ("hex", t.click_hex)):
            site = getattr(a, attr, None)
            if isinstance(site, int):
                click(site)
                self._choose(a)
                if t.game.state() != before:
                    return
        raise Unreachable(f"no control of the table plays {a!r}")

    def _choose(self, a) -> None:
        """Pick ``a`` among the moves a click stood for, if the click asked: its "Which one?" button, or the
        board's ring for it (a ship's destination)."""
        t = self.t
        if a not in t.pending_choices:
            return
        for b in t.choice_buttons.children:
            if getattr(b, "_catan_action", None) == a:
                b.click()
                return
        assert t.choice_hint(), f"a pending choice with neither buttons nor rings on the board: {t.pending_choices}"
        if not self._layer(a):
            raise Unreachable(f"no ring on the board picks {a!r} among {t.pending_choices}")

    def _click_css(self, box, css: str) -> None:
        for b in box.children:
            if css in b._dom_classes:
                b.click()
                return
        raise Unreachable(f"no button {css} among {[b.description for b in box.children]}")

    def _discard(self) -> None:
        """B-ROB-2 through the panel: the steppers, at random among the cards held, then Discard."""
        t = self.t
        g = t.game
        p = g.current_player
        owed = g.discards_owed()[p]
        cards = [i for i, k in enumerate(g.hands[p]) for _ in range(k)]
        chosen = self.rng.sample(cards, owed)
        for i, s in enumerate(t.discard_counts):
            assert s.maximum == g.hands[p][i], "a discard stepper is capped at what the hand holds"
            s.value = chosen.count(i)
        t.press("discard")

    def _panel(self, a) -> bool:
        """A module panel's own control for ``a`` (an improvement, a gold pick, a canal offer...)."""
        t = self.t
        for p in t.panels:
            if not isinstance(a, tuple(getattr(p, "handles", ()))):
                continue
            name = type(a).__name__
            if name == "ImproveCity":
                t.press(f"improve_{a.track}")
                return True
            if name == "PickGold":
                p.buttons[a.resource].click()
                return True
            if name == "EndSpecialBuild":
                t.press("end_sbp")
                return True
            if name == "AnswerCanal":
                t.press("canal_accept" if a.accept else "canal_decline")
                return True
            if name == "OfferCanal":
                cards = [i for i, k in enumerate(a.cards) if k]
                if abs(a.tokens) != 1 or len(cards) != 1 or a.cards[cards[0]] != 1:
                    raise Unreachable(f"the canal panel offers one token for one card, not {a!r}")
                p.partner.value, p.direction.value, p.card.value = a.partner, a.tokens, cards[0]
                t.press("canal_offer")
                return True
        return False

    def _layer(self, a) -> bool:
        """A module layer's marker whose click stands for ``a`` (clicked, then the choice if it asks)."""
        t = self.t
        legal = t.board_moves()  # while a choice is pending, the board's clicks pick among its moves
        for exact in (True, False):  # a marker that is the move itself before one where it starts
            for layer in t.layers:
                for name in layer.clickable:
                    trace = t.figure.data[t._idx[name]]
                    for i in range(len(trace.x or ())):
                        res = layer.click(t.game, name, i, legal)
                        if res == a if exact else (isinstance(res, (list, tuple)) and a in res):
                            t.click_layer(layer, name, i)
                            if not exact:
                                self._choose(a)
                            return True
        return False

    # ------------------------------------------------------------------ a game
    def play(self, human_steps: int, *, until=None) -> int:
        """Up to ``human_steps`` human decisions (the bots move by themselves in between); returns how many."""
        t = self.t
        n = 0
        while n < human_steps and not t.game.is_over:
            if until is not None and until(t):
                break
            if not self.step():
                t.run_bots()
                if not t.legal() and not t.game.is_over:
                    raise AssertionError(f"the game stalls in {t.game.phase.value} (seat {t.game.current_player})")
                continue
            n += 1
        return n


# ---------------------------------------------------------------------- what a widget shows
def widget_strings(w, out: list[str] | None = None, seen: set | None = None) -> list[str]:
    """Every string a widget tree shows or carries for the browser (see the module docstring)."""
    out = [] if out is None else out
    seen = set() if seen is None else seen
    if id(w) in seen:
        return out
    seen.add(id(w))
    if isinstance(w, go.FigureWidget):
        for tr in w.data:
            out.append(f"trace {tr.name}")
            for attr in ("text", "hovertext", "customdata", "hovertemplate"):
                v = getattr(tr, attr, None)
                if v is None:
                    continue
                out.extend(map(str, v) if isinstance(v, (list, tuple)) or hasattr(v, "tolist") else [str(v)])
        return out
    for attr in ("value", "description", "tooltip", "placeholder"):
        v = getattr(w, attr, None)
        if isinstance(v, str) and v:
            out.append(v)
    if isinstance(w, (W.Dropdown, W.Select, W.SelectMultiple, W.RadioButtons, W.ToggleButtons)):
        out.extend(str(label) for label in w._options_labels)
    if isinstance(w, W.Tab):
        out.extend(str(x) for x in (w.titles or ()))
    for c in getattr(w, "children", ()) or ():
        widget_strings(c, out, seen)
    return out


def shown(widget) -> str:
    """What a widget shows, as one string (hidden widgets included: the browser has them too)."""
    return "\n".join(widget_strings(widget))


#: Fields of logged actions whose value only some seats may know, by action name (B-SETUP-7, A-15):
#: a card drawn, stolen, seen, discarded or passed between two players.
HIDDEN_FIELDS = {
    "BuyDevelopmentCard": ("card",), "MoveRobber": ("stolen",), "MovePirate": ("stolen",), "Discard": ("cards",),
    "UseProfessors": ("card",), "ExchangeFavour": ("drawn",), "ReturnFavour": ("guild",),
    "ReturnProgress": ("card",), "SpyTake": ("card",), "TakeGoods": ("cards",), "GiveGoods": ("cards",),
    "HarborOffer": ("resource",), "HarborReply": ("commodity",), "PlayBishop": ("stolen",), "KeepCard": ("card",),
    "UseArchitect": ("seen",),
}


def perturbed(game, action, rng: random.Random):
    """``action`` with every hidden field (:data:`HIDDEN_FIELDS`) replaced by another value of the same shape."""
    names = HIDDEN_FIELDS.get(type(action).__name__, ())
    changes = {}
    for f in fields(action):
        if f.name not in names:
            continue
        v = getattr(action, f.name)
        if v is None:
            continue
        if isinstance(v, tuple) and all(isinstance(x, int) for x in v):  # counts per good: the same number, moved
            k = sum(v)
            out = [0] * len(v)
            out[(max(range(len(v)), key=lambda i: v[i]) + 1) % len(v)] = k
            changes[f.name] = tuple(out)
        elif isinstance(v, tuple):  # goods taken one by one, cards seen
            changes[f.name] = tuple(_other(game, x) for x in v)
        else:
            changes[f.name] = _other(game, v)
    return replace(action, **changes) if changes else None


def _other(game, v):
    """Another value of the same kind: a progress card by name, a good of the game, an enum member."""
    if isinstance(v, str):
        return "alchemist" if v != "alchemist" else "bishop"
    if v in game.goods:
        return game.goods[(game.goods.index(v) + 1) % game.n_goods]
    members = list(type(v))
    return members[(members.index(v) + 1) % len(members)]

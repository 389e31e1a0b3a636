"""Why the kernel refuses an action: the rule id and the evidence, read from a game's row.

:meth:`catan_nb.fast.Games.step_checked` applies an action only when it is among the kernel's
legal actions (:func:`catan_nb.fast.kernel.legal_list`, the engine's list); otherwise it raises
:class:`~catan_nb.errors.IllegalActionError` with what :func:`refusal` finds here, named as the
engine names it (:meth:`Game.play <catan_nb.rules.Game.play>`: ``B-SETUP-15``, ``B-BUILD-1``...).
Plain Python, no numba: it runs only on a refusal, never on the fast path.
"""

from __future__ import annotations

import numpy as np

from ..constants import COSTS, RESOURCES, DevCard
from ..rules import (
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
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)
from ..rules.modules.five_six import EndSpecialBuild
from . import layout as L

__all__ = ["refusal"]

_BUILDS = (BuildSettlement, BuildCity, BuildRoad, BuyDevelopmentCard)
_DEV_PLAYS = {PlayKnight: DevCard.KNIGHT, PlayRoadBuilding: DevCard.ROAD_BUILDING,
              PlayYearOfPlenty: DevCard.YEAR_OF_PLENTY, PlayMonopoly: DevCard.MONOPOLY}
_PIECE = {BuildSettlement: "settlement", BuildCity: "city", BuildRoad: "road", BuyDevelopmentCard: "development card"}
_COST = {BuildSettlement: COSTS["settlement"], BuildCity: COSTS["city"], BuildRoad: COSTS["road"],
         BuyDevelopmentCard: COSTS["development_card"]}
_LIMIT = {BuildSettlement: (L.P_LIM_SETTLE, L.K_SETTLE), BuildCity: (L.P_LIM_CITY, L.K_CITY),
          BuildRoad: (L.P_LIM_ROAD, L.K_ROAD)}


def _needs(action, phase: str, where: str, rule: str) -> tuple[str, str]:
    return rule, f"{type(action).__name__} needs phase {where}; the game is in phase {phase}"


def refusal(games, i: int, action) -> tuple[str, str]:
    """The rule id and the evidence for refusing ``action`` (an engine action of the catalogue) in
    game ``i`` of ``games`` (a :class:`catan_nb.fast.Games`), for an action the kernel does not list.

    The common refusals are named as the engine names them; the rarer ones by the rule of the
    action's family, with the legal actions' count as the evidence.
    """
    g = games
    T = g.T
    n = g.players
    ph = g.phase(i)
    p = g.current_player(i)
    t = type(action)
    hands = g.field(i, "HANDS").reshape(n, 5)
    if ph == "game_over":
        return "B-END-3", f"the game is over: seat {g.winner(i)} won"
    if t is RollDice:
        return _needs(action, ph, "roll", "B-TURN-2")
    if t is EndTurn:
        if ph == "roll":
            return "B-TURN-2", f"seat {p} must roll before ending the turn"
        return _needs(action, ph, "main", "B-TURN-9")
    if t is BuildRoad:
        edges = g.field(i, "EDGE_OWNER")
        if edges[action.path] >= 0:  # the engine looks at the path first
            return "B-BUILD-3", f"path {action.path} already holds a road of seat {int(edges[action.path])}"
    active = g._sc(i, L.SC_ACTIVE)
    if t in _BUILDS:
        found = _founding(g, i, action, ph, p)
        if found is not None:
            return found
        if ph == "roll":
            return "B-TURN-3", f"seat {p} must roll before building"
        if ph not in ("main", "special_build") and not (ph == "road_building" and t is BuildRoad):
            return "B-BUILD-12", f"building is not allowed in phase {ph}"
        site = _site(g, i, action, p)
        if site is not None:
            return site
        if ph != "road_building":
            cost = _COST[t]
            short = [(int(cost[k]) - int(hands[p, k]), r) for k, r in enumerate(RESOURCES) if cost[k] > hands[p, k]]
            if short:
                what = ", ".join(f"{k} {r}" for k, r in short)
                return "B-BUILD-1", f"seat {p} cannot pay for a {_PIECE[t]}: short of {what}"
            if t is BuyDevelopmentCard and g.field(i, "DECK").sum() == 0:
                return "B-COMP-13", "the development deck is empty"
        return _fallback(g, i, action, "B-BUILD-12", ph, p)
    if t in _DEV_PLAYS:
        if ph not in ("roll", "main"):
            return "B-TURN-6", f"development cards are played only in the owner's own turn (phase {ph})"
        card = _DEV_PLAYS[t]
        held = int(g.field(i, "DEV").reshape(n, 5)[p, card.value])
        new = int(g.field(i, "DEV_NEW").reshape(n, 5)[p, card.value])
        if g._sc(i, L.SC_DEV_PLAYED):
            return "B-TURN-4", f"seat {p} has already played a development card this turn"
        if held == 0:
            return "B-DEV-1", f"seat {p} holds no {card} card"
        if held <= new:
            return "B-TURN-5", f"seat {p}'s {card} card was bought this turn"
        return _fallback(g, i, action, "B-DEV-1", ph, p)
    if t is EndRoadBuilding:
        if ph != "road_building":
            return _needs(action, ph, "road_building", "B-DEV-5")
        return _fallback(g, i, action, "B-DEV-5", ph, p)
    if t in (MaritimeTrade, OfferTrade):
        if ph != "roll" and p != active:
            return "B-TRADE-3", f"seat {p} is not the active player; only seat {active} trades now"
        if ph == "roll":
            return "B-TURN-3", f"seat {p} must roll before trading"
        if ph != "main":
            return "B-TRADE-1", f"trading is not allowed in phase {ph}"
        if g._sc(i, L.SC_BUILT) and not int(T[L.P_COMBINED]):
            return "B-TURN-2", f"seat {p} has built this turn; the trade phase is over"
        if t is MaritimeTrade:
            k = RESOURCES.index(action.give)
            bits = int(g.field(i, "HARB")[p])
            rate, rule = (2, "B-TRADE-8") if bits >> k & 1 else (3, "B-TRADE-7") if bits >> L.GENERIC_HARBOUR & 1 \
                else (4, "B-TRADE-6")
            if hands[p, k] < rate:
                return rule, f"seat {p} trades {action.give} at {rate}:1 but holds {int(hands[p, k])}"
            r = RESOURCES.index(action.get)
            if g.field(i, "BANK")[r] == 0:
                return "B-COMP-14", f"the bank has no {action.get} left"
        else:
            k = int(np.argmax(action.give))
            if hands[p, k] < 1:
                return "B-TRADE-2", f"seat {p} holds 0 {RESOURCES[k]}, offers 1"
        return _fallback(g, i, action, "B-TRADE-1", ph, p)
    if t in (AcceptTrade, DeclineTrade):
        if ph != "trade_response":
            return _needs(action, ph, "trade_response", "B-TRADE-3")
        want = g._sc(i, L.SC_OFFER_GET)
        if t is AcceptTrade and want >= 0 and hands[p, want] < 1:
            return "B-TRADE-2", f"seat {p} holds 0 {RESOURCES[want]}, the offer asks 1"
        return _fallback(g, i, action, "B-TRADE-3", ph, p)
    if t is CancelTrade:
        if p != active:
            return "B-TRADE-3", f"only the offering seat {active} may withdraw the offer"
        if ph not in ("trade_response", "trade_confirm"):
            return _needs(action, ph, "trade_response or trade_confirm", "B-TRADE-2")
        return _fallback(g, i, action, "B-TRADE-3", ph, p)
    if t is ConfirmTrade:
        if p != active:
            return "B-TRADE-3", f"only the offering seat {active} completes its trade"
        if ph != "trade_confirm":
            return _needs(action, ph, "trade_confirm", "B-TRADE-2")
        accepted = g._sc(i, L.SC_ACCEPTED)
        if not accepted >> action.partner & 1:
            seats = [q for q in range(n) if accepted >> q & 1]
            return "B-TRADE-2", f"seat {action.partner} did not accept the offer (accepted: {seats})"
        return _fallback(g, i, action, "B-TRADE-3", ph, p)
    if t is Discard:
        if ph != "discard":
            return _needs(action, ph, "discard", "B-ROB-4")
        k = int(np.argmax(action.cards))
        if hands[p, k] < 1:
            return "B-ROB-2", f"seat {p} holds 0 {RESOURCES[k]}, cannot discard 1"
        return _fallback(g, i, action, "B-ROB-2", ph, p)
    if t is MoveRobber:
        if ph == "discard":
            return "B-ROB-4", "discards come first"
        if ph != "move_robber":
            return _needs(action, ph, "move_robber", "B-ROB-11")
        if action.hex == g._sc(i, L.SC_ROBBER):
            return "B-ROB-5", f"the robber must move to a different hex; it is on hex {action.hex} already"
        if action.victim is not None:
            if action.victim == p:
                return "B-ROB-8", "a player never steals from themselves"
            if not int(g.field(i, "HEX_PLAYERS")[action.hex]) >> action.victim & 1:
                return "B-ROB-6", f"seat {action.victim} has no settlement or city on that hex"
            if hands[action.victim].sum() == 0:
                return "B-ROB-8", f"seat {action.victim} has no card that may be stolen"
        return _fallback(g, i, action, "B-ROB-6", ph, p)
    if t is EndSpecialBuild:
        if ph != "special_build":
            return "X56-SBP-2", f"there is no Special Building Phase now (phase {ph})"
        return _fallback(g, i, action, "X56-SBP-2", ph, p)
    return _fallback(g, i, action, "API", ph, p)


def _founding(g, i: int, action, ph: str, p: int) -> tuple[str, str] | None:
    """The founding's refusals (B-SETUP-15..17), or ``None`` outside the founding."""
    t = type(action)
    if ph == "founding_settlement":
        if t is BuildCity:
            second = g.field(i, "PIECES").reshape(g.players, 3)[p, L.K_SETTLE] > 0
            return ("B-SETUP-16" if second else "B-SETUP-15",
                    f"seat {p}'s founding piece now is a settlement, not a city")
        if t is BuildSettlement:
            return _site(g, i, action, p) or _fallback(g, i, action, "B-BUILD-7", ph, p)
        return "B-BUILD-12", f"building is not allowed in phase {ph}"
    if ph == "founding_road":
        if t is BuildRoad:
            site = _site(g, i, action, p)
            if site is not None and site[0] == "B-BUILD-3":
                return site
            a, b = g.board.topology.edge_nodes[action.path]
            return "B-SETUP-17", (f"a founding road must touch the settlement just placed; path {action.path} "
                                  f"joins ({a}, {b})")
        return "B-BUILD-12", f"building is not allowed in phase {ph}"
    return None


def _site(g, i: int, action, p: int) -> tuple[str, str] | None:
    """The site and supply rules of a piece (B-BUILD-3..9, B-COMP-12), or ``None`` when they hold."""
    t = type(action)
    if t is BuyDevelopmentCard:
        return None
    n = g.players
    owner = g.field(i, "NODE_OWNER")
    kind = g.field(i, "NODE_KIND")
    lim, k = _LIMIT[t]
    if g.field(i, "PIECES").reshape(n, 3)[p, k] >= int(g.T[lim]):
        return "B-COMP-12", f"seat {p} has no {_PIECE[t]} left in supply"
    topo = g.board.topology
    if t is BuildSettlement:
        v = action.node
        if owner[v] >= 0:
            return "B-BUILD-7", f"intersection {v} already holds seat {int(owner[v])}'s building"
        near = [u for e in topo.node_edges[v] for u in topo.edge_nodes[e] if u != v and owner[u] >= 0]
        if near:
            return "B-BUILD-7", f"intersection {v} is next to a building at {near[0]}"
        if g.phase(i) != "founding_settlement" and not g.field(i, "TOUCH").reshape(n, -1)[p, v]:
            return "B-BUILD-6", f"intersection {v} is not touched by a road of seat {p}"
        return None
    if t is BuildCity:
        v = action.node
        if owner[v] != p or kind[v] != 1:
            return "B-BUILD-9", f"intersection {v} holds no settlement of seat {p}"
        return None
    e = action.path
    edges = g.field(i, "EDGE_OWNER")
    if edges[e] >= 0:
        return "B-BUILD-3", f"path {e} already holds a road of seat {int(edges[e])}"
    a, b = topo.edge_nodes[e]
    touch = g.field(i, "TOUCH").reshape(n, -1)[p]
    if not any((owner[v] == p) or (touch[v] and owner[v] < 0) for v in (a, b)):
        return "B-BUILD-4", f"path {e} (intersections {a}-{b}) does not continue a road or building of seat {p}"
    return None


def _fallback(g, i: int, action, rule: str, ph: str, p: int) -> tuple[str, str]:
    k = len(g.legal(i, offers=True))
    return rule, f"{action!r} is not among the {k} legal actions of seat {p} in phase {ph}"

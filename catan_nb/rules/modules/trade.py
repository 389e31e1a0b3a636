"""Trade (RULES.md section 5): a built-in module of the base game.

Maritime trade with the bank at 4:1, 3:1 or 2:1 (B-TRADE-6..11) and domestic
trade between players (B-TRADE-2..5): the active player offers, every other seat
answers in turn order (each answer a decision on the stack), then the offerer
completes the trade with one who accepted, or withdraws it.  Only in the active
player's trade phase (B-TRADE-1, B-TURN-2, B-TURN-3).  Every good in the game
trades between players (resources, and the goods a module adds); with the bank, every
good whose rules allow it (``GoodRules.bank_trade``: the resources, the commodities, and a
module's goods unless it says otherwise).

State in ``game.ext["trade"]`` (plain data): ``offer``, the open domestic offer as ``(give, get)``
(counts per good) or ``None``; ``accepted``, the seats that accepted it, in the order they
answered.  Everyone else reads them as ``game.trade_offer`` and ``game.trade_partners``
(:class:`TradeQueries`).
"""

from __future__ import annotations

from functools import lru_cache

from ...constants import good_rules
from ...errors import IllegalActionError
from ..actions import AcceptTrade, CancelTrade, ConfirmTrade, DeclineTrade, MaritimeTrade, OfferTrade
from ..phase import Phase
from . import Module, register

__all__ = ["Trade", "TradeQueries", "TRADE_RESPONSE", "TRADE_CONFIRM", "NAME"]

NAME = "trade"

#: B-TRADE-2: a seat answers the open offer.
TRADE_RESPONSE = Phase.register("trade_response", "{player} answers the trade offer", owner="trade")
#: B-TRADE-2: the offerer picks a partner among those who accepted, or withdraws.
TRADE_CONFIRM = Phase.register("trade_confirm", "{player} completes the trade with a partner, or withdraws it",
                               owner="trade")

_ACCEPT, _DECLINE, _CANCEL = AcceptTrade(), DeclineTrade(), CancelTrade()


@lru_cache(maxsize=None)
def _maritime(goods: tuple) -> tuple:
    """Every bank trade as a value, per pair of goods (built once per set of goods)."""
    return tuple(tuple(MaritimeTrade(g, r) for r in goods) for g in goods)


@lru_cache(maxsize=None)
def _bank_mask(goods: tuple) -> int:
    """Bit mask of the goods of ``goods`` traded with the bank (``GoodRules.bank_trade``)."""
    return sum(1 << i for i, g in enumerate(goods) if good_rules(g).bank_trade)


@lru_cache(maxsize=4096)
def _maritime_offers(goods: tuple, give: int, in_bank: int) -> tuple:
    """The bank trades giving a good of bit mask ``give`` for one of mask ``in_bank`` (another good)."""
    row = _maritime(goods)
    G = len(goods)
    return tuple(row[g][r] for g in range(G) if give >> g & 1 for r in range(G) if r != g and in_bank >> r & 1)


@lru_cache(maxsize=None)
def _confirm(n_players: int) -> tuple:
    return tuple(ConfirmTrade(p) for p in range(n_players))


def _unit(r: int, width: int) -> tuple[int, ...]:
    return tuple(int(i == r) for i in range(width))


@lru_cache(maxsize=None)
def _unit_offers(width: int) -> tuple:
    """The one-for-one offers (``OfferTrade(give one g, get one r)``) as shared values, by ``[g][r]``."""
    return tuple(tuple(OfferTrade(_unit(g, width), _unit(r, width)) for r in range(width)) for g in range(width))


class TradeQueries:
    """The trade module's public accessors, part of :class:`~catan_nb.rules.Game` (they read
    ``game.ext["trade"]``; without the module, no offer is ever open)."""

    __slots__ = ()
    ext: dict

    @property
    def trade_offer(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The open domestic offer ``(give, get)`` of the active player, counts per good, or ``None``."""
        st = self.ext.get(NAME)
        return None if st is None else st["offer"]

    @trade_offer.setter
    def trade_offer(self, offer) -> None:
        self.ext[NAME]["offer"] = None if offer is None else (tuple(offer[0]), tuple(offer[1]))

    @property
    def trade_partners(self) -> list[int]:
        """Seats that accepted the open domestic offer (a copy)."""
        st = self.ext.get(NAME)
        return [] if st is None else list(st["accepted"])

    @property
    def trade_accepted(self) -> list[int]:
        """Seats that accepted the open domestic offer (the live list; see :attr:`trade_partners`)."""
        st = self.ext.get(NAME)
        return [] if st is None else st["accepted"]

    @trade_accepted.setter
    def trade_accepted(self, seats) -> None:
        self.ext[NAME]["accepted"] = [int(q) for q in seats]


def require_trade_phase(game, a) -> None:
    """Raise unless the active player may trade now (B-TRADE-1, B-TRADE-3, B-TURN-2, B-TURN-3)."""
    if game.current_player != game.active_player:
        raise IllegalActionError("B-TRADE-3", f"seat {game.current_player} is not the active player; only seat {game.active_player} trades now", a)
    if game.phase is Phase.ROLL:
        raise IllegalActionError("B-TURN-3", f"seat {game.active_player} must roll before trading", a)
    if game.phase is not Phase.MAIN:
        raise IllegalActionError("B-TRADE-1", f"trading is not allowed in phase {game.phase.value}", a)
    if game.built_this_turn and not game.rules.combined_trade_build:
        raise IllegalActionError("B-TURN-2", f"seat {game.active_player} has built this turn; the trade phase is over", a)


def _check_maritime(game, a: MaritimeTrade) -> None:
    require_trade_phase(game, a)
    for g in (a.give, a.get):
        if g not in game.goods:
            raise IllegalActionError("B-TRADE-4", f"there are no {g} cards in this game", a)
    if a.give == a.get:
        raise IllegalActionError("B-TRADE-11", f"a maritime trade must ask for a good other than {a.give}", a)
    p = game.active_player
    gi, ri = game.good_index(a.give), game.good_index(a.get)
    for g, i in ((a.give, gi), (a.get, ri)):
        if not game.good_rules[i].bank_trade:
            raise IllegalActionError("B-TRADE-6", f"{g} is not traded with the bank (its module's GoodRules)", a)
    rate = game.rates(p)[gi]
    if game.hands[p][gi] < rate:
        rule = {4: "B-TRADE-6", 3: "B-TRADE-7", 2: "B-TRADE-8"}.get(rate, "B-TRADE-6")
        raise IllegalActionError(rule, f"seat {p} trades {a.give} at {rate}:1 but holds {game.hands[p][gi]}", a)
    if game.bank[ri] == 0:
        raise IllegalActionError("B-TRADE-11", f"the bank has no {a.get} left", a)


def _apply_maritime(game, a: MaritimeTrade) -> None:
    p = game.active_player
    g, r = game.good_index(a.give), game.good_index(a.get)
    rate = game.rates(p)[g]
    game.hands[p][g] -= rate
    game.bank[g] += rate
    game.hands[p][r] += 1
    game.bank[r] -= 1
    game.log.append(a)


def _check_offer(game, a: OfferTrade) -> None:
    require_trade_phase(game, a)
    G = game.n_goods
    for side in (a.give, a.get):
        if len(side) != G or any((not isinstance(c, int)) or c < 0 for c in side):
            raise IllegalActionError("B-TRADE-4", f"only cards change hands: an offer side is {G} counts, not {side!r}", a)
    if sum(a.give) == 0 or sum(a.get) == 0:
        raise IllegalActionError("B-TRADE-5", "each side of a domestic trade must give at least 1 card", a)
    same = [game.goods[r] for r in range(G) if a.give[r] and a.get[r]]
    if same:
        raise IllegalActionError("B-TRADE-5", f"a trade may not swap {same[0]} for {same[0]}", a)
    h = game.hands[game.active_player]
    for r in range(G):
        if a.give[r] > h[r]:
            raise IllegalActionError("B-TRADE-2", f"seat {game.active_player} holds {h[r]} {game.goods[r]}, offers {a.give[r]}", a)


def _apply_offer(game, a: OfferTrade) -> None:
    p, n = game.active_player, game.n
    st = game.ext[NAME]
    st["offer"] = (tuple(a.give), tuple(a.get))
    st["accepted"] = []
    game.push(TRADE_CONFIRM, p)
    for i in reversed(range(1, n)):  # answers in turn order from the offerer's left
        game.push(TRADE_RESPONSE, (p + i) % n)
    game.log.append(a)


def _check_response(game, a) -> None:
    game.require_phase(a, TRADE_RESPONSE, rule="B-TRADE-3")
    if isinstance(a, AcceptTrade):
        need = game.ext[NAME]["offer"][1]
        h = game.hands[game.current_player]
        for r in range(game.n_goods):
            if need[r] > h[r]:
                raise IllegalActionError(
                    "B-TRADE-2", f"seat {game.current_player} holds {h[r]} {game.goods[r]}, the offer asks {need[r]}", a
                )


def _answered(game) -> None:
    game.pop()
    st = game.ext[NAME]
    if game.phase is TRADE_CONFIRM and not st["accepted"]:  # declined by all
        game.pop()
        st["offer"] = None


def _apply_accept(game, a: AcceptTrade) -> None:
    game.ext[NAME]["accepted"].append(game.current_player)
    game.log.append(a)
    _answered(game)


def _apply_decline(game, a: DeclineTrade) -> None:
    game.log.append(a)
    _answered(game)


def _check_confirm(game, a: ConfirmTrade) -> None:
    if game.current_player != game.active_player:
        raise IllegalActionError("B-TRADE-3", f"only the offering seat {game.active_player} completes its trade", a)
    game.require_phase(a, TRADE_CONFIRM, rule="B-TRADE-2")
    accepted = game.ext[NAME]["accepted"]
    if a.partner not in accepted:
        raise IllegalActionError("B-TRADE-2", f"seat {a.partner} did not accept the offer (accepted: {accepted})", a)


def _apply_confirm(game, a: ConfirmTrade) -> None:
    st = game.ext[NAME]
    give, get = st["offer"]
    p, q = game.active_player, a.partner
    game.transfer(p, q, give)
    game.transfer(q, p, get)
    st["offer"] = None
    st["accepted"] = []
    game.pop()
    game.log.append(a)


def _check_cancel(game, a: CancelTrade) -> None:
    if game.current_player != game.active_player:
        raise IllegalActionError("B-TRADE-3", f"only the offering seat {game.active_player} may withdraw the offer", a)
    game.require_phase(a, TRADE_RESPONSE, TRADE_CONFIRM, rule="B-TRADE-2")


def _apply_cancel(game, a: CancelTrade) -> None:
    st = game.ext[NAME]
    st["offer"] = None
    st["accepted"] = []
    while game.phase is TRADE_RESPONSE:
        game.pop()
    game.pop()  # the offer itself
    game.log.append(a)


@register
class Trade(Module):
    """B-TRADE-*: maritime and domestic trade."""

    name = "trade"
    legal_in = ("trade_response", "trade_confirm")
    builtin = True
    vp_actions = ()  # trades never change VP
    actions = {
        MaritimeTrade: (_check_maritime, _apply_maritime),
        OfferTrade: (_check_offer, _apply_offer),
        AcceptTrade: (_check_response, _apply_accept),
        DeclineTrade: (_check_response, _apply_decline),
        ConfirmTrade: (_check_confirm, _apply_confirm),
        CancelTrade: (_check_cancel, _apply_cancel),
    }

    def legal_trades(self, game, player: int, out: list, offers: bool) -> None:
        h = game.hands[player]
        rates = game.rates(player)
        G = game.n_goods
        give = 0
        for g in range(G):
            if h[g] >= rates[g]:
                give |= 1 << g
        banked = _bank_mask(game.goods)
        give &= banked
        if give:
            in_bank = 0
            for r, k in enumerate(game.bank):
                if k:
                    in_bank |= 1 << r
            out.extend(_maritime_offers(game.goods, give, in_bank & banked))
        if offers:
            unit = _unit_offers(G)
            for g in range(G):
                if h[g]:
                    row = unit[g]
                    for r in range(G):
                        if r != g:
                            out.append(row[r])

    def legal(self, game, out: list) -> None:
        ph = game.phase
        if ph is TRADE_RESPONSE:
            need = game.ext[NAME]["offer"][1]
            h = game.hands[game.current_player]
            ok = all(h[r] >= need[r] for r in range(game.n_goods))
            out.extend((_ACCEPT, _DECLINE) if ok else (_DECLINE,))
        elif ph is TRADE_CONFIRM:
            c = _confirm(game.n)
            out.extend(c[p] for p in game.ext[NAME]["accepted"])
            out.append(_CANCEL)

    def init(self, game) -> None:
        game.ext[NAME] = {"offer": None, "accepted": []}

    def copy_state(self, st: dict) -> dict:
        return {"offer": st["offer"], "accepted": st["accepted"][:]}  # the offer is a tuple of tuples

"""The robber and a roll of 7 (RULES.md section 7): a built-in module of the base game.

On a 7 nobody collects; every player holding more cards than their hand limit
discards half, rounded down (B-ROB-2, B-ROB-3), in turn order from the active
player, and then the active player moves the robber to another land hex and may
steal one card at random from a player with a building there (B-ROB-5..8).  A
knight (B-DEV-2) pushes the same robber decision.  Modules change the hand limit
(``hand_limit``: city walls, CK-WALL-1) and where the robber may go
(``robber_targets``: the pirate, SF-10).
"""

from __future__ import annotations

from functools import lru_cache

from ...errors import IllegalActionError
from ..actions import Discard, MoveRobber
from ..phase import Phase
from . import Module, register

__all__ = ["Robber", "DISCARD", "MOVE_ROBBER", "check_steal", "check_stolen", "steal", "legal_robber", "require_move_phase"]

#: B-ROB-2..4: a player discarding; ``data`` is the number of cards still owed.
DISCARD = Phase.register("discard", "{player} discards half of their cards (B-ROB-2)", owner="robber")
#: B-ROB-5..8: the active player moves the robber.
MOVE_ROBBER = Phase.register("move_robber", "{player} moves the robber and may steal a card", owner="robber")


@lru_cache(maxsize=None)
def _actions(n_hexes: int, n_players: int, n_goods: int):
    return (
        tuple(MoveRobber(hx) for hx in range(n_hexes)),
        tuple(tuple(MoveRobber(hx, o) for o in range(n_players)) for hx in range(n_hexes)),
        tuple(Discard(tuple(int(i == r) for i in range(n_goods))) for r in range(n_goods)),
    )


_DISCARDS: dict[int, tuple[Discard, ...]] = {}


def _discards(n_goods: int) -> tuple[Discard, ...]:
    """One-card discards per good, as shared values."""
    d = _DISCARDS.get(n_goods)
    if d is None:
        d = _DISCARDS[n_goods] = tuple(Discard(tuple(int(i == r) for i in range(n_goods))) for r in range(n_goods))
    return d


@lru_cache(maxsize=4096)
def _outcome(hx: int, victim, stolen) -> MoveRobber:
    """Recorded robber moves are values: shared, not built anew each time."""
    return MoveRobber(hx, victim, stolen)


def _check_discard(game, a: Discard) -> None:
    game.require_phase(a, DISCARD, rule="B-ROB-4")
    p = game.current_player
    cards = a.cards
    total = game.check_counts(a, cards, "B-ROB-2", "a discard")
    owed = game.stack[-1].data
    if total == 0 or total > owed:
        raise IllegalActionError("B-ROB-2", f"seat {p} owes {owed} card(s); the discard gives {total}", a)
    h = game.hands[p]
    rules = game.good_rules
    for r in range(game.n_goods):
        if cards[r] > h[r]:
            raise IllegalActionError("B-ROB-2", f"seat {p} holds {h[r]} {game.goods[r]}, cannot discard {cards[r]}", a)
        if cards[r] and not rules[r].discarded:
            raise IllegalActionError("B-ROB-2", f"{game.goods[r]} is never discarded (its module's GoodRules)", a)


def _apply_discard(game, a: Discard) -> None:
    p = game.current_player
    game.pay(p, a.cards)
    left = game.stack[-1].data - sum(a.cards)
    game.log.append(a)
    if left:
        game.update(left)
    else:
        game.pop()  # B-ROB-4: the next discarder, then the robber


def require_move_phase(game, a, rule: str = "B-ROB-11") -> None:
    """The discards after a 7 come first (B-ROB-4); then the robber (or a piece like it) moves."""
    if game.phase is DISCARD:
        raise IllegalActionError("B-ROB-4", f"discards come first; still owed: {game.discards_owed()}", a)
    game.require_phase(a, MOVE_ROBBER, rule=rule)


def check_steal(game, a, victims: list[int], why_not) -> None:
    """B-ROB-6..8 for any robber-like move (``a.victim``, ``a.stolen``): the victim is one of
    ``victims`` (or none, unless stealing is compulsory), never the mover, and holds the card
    recorded as stolen.  ``why_not(victim)`` gives ``(rule, reason)`` for a seat not in ``victims``."""
    if a.victim is None:
        if a.stolen is not None:
            raise IllegalActionError("B-ROB-6", "a stolen card needs a victim", a)
        if victims and game.rules.steal_mandatory:
            raise IllegalActionError("B-ROB-6", f"stealing is compulsory under these rules; victims: {victims}", a)
        return
    if a.victim == game.active_player:
        raise IllegalActionError("B-ROB-8", "a player never steals from themselves", a)
    if a.victim not in victims:
        rule, why = why_not(a.victim)
        raise IllegalActionError(rule, f"seat {a.victim} {why}", a)
    if a.stolen is not None:
        check_stolen(game, a, a.victim, a.stolen)


def check_stolen(game, a, victim: int, good) -> None:
    """B-ROB-7: a recorded steal names a good of the game that may be stolen and that ``victim`` holds."""
    if good not in game.goods:
        raise IllegalActionError("B-ROB-7", f"there are no {good!r} cards in this game", a)
    i = game.good_index(good)
    if not game.good_rules[i].stolen:
        raise IllegalActionError("B-ROB-7", f"{good} is never stolen (its module's GoodRules)", a)
    if game.hands[victim][i] == 0:
        raise IllegalActionError("B-ROB-7", f"seat {victim} holds no {good} to be stolen", a)


def _check_robber(game, a: MoveRobber) -> None:
    require_move_phase(game, a)
    t = game.topology
    if not isinstance(a.hex, int) or not 0 <= a.hex < t.n_hexes or not t.hex_land[a.hex]:
        raise IllegalActionError("B-ROB-5", f"there is no land hex {a.hex!r}", a)
    if a.hex == game.robber:
        raise IllegalActionError("B-ROB-5", f"the robber must move to a different hex; it is on hex {a.hex} already", a)
    if a.hex not in game.robber_targets():
        raise IllegalActionError("B-ROB-5", f"the robber may not go to hex {a.hex} under the rules in play", a)

    def why_not(victim: int) -> tuple[str, str]:
        has = 0 <= victim < game.n and any(game.node_owner[v] == victim for v in t.hex_nodes[a.hex])
        return ("B-ROB-8", "has no card that may be stolen") if has else ("B-ROB-6", "has no settlement or city on that hex")

    check_steal(game, a, game.robber_victims(a.hex), why_not)


def steal(game, victim: int, forced=None):
    """Move one card, drawn uniformly from ``victim``'s hand (B-ROB-7), to the active player.

    One random draw always (so replays stay in step); ``forced`` is the recorded
    outcome to use.  Only goods that may be stolen are drawn (``GoodRules.stolen``).
    Returns the good stolen.
    """
    r = game.draw_index(game.stealable(victim), None if forced is None else game.good_index(forced))
    game.hands[victim][r] -= 1
    game.hands[game.active_player][r] += 1
    return game.goods[r]


def _apply_robber(game, a: MoveRobber) -> None:
    game.robber = a.hex
    stolen = None
    if a.victim is not None:
        stolen = steal(game, a.victim, a.stolen)
    done = _outcome(a.hex, a.victim, stolen)
    game.log.append(done)
    game.pop()
    game.notify_robber(done)


def legal_robber(game) -> list:
    """B-ROB-5..8: every hex the robber may go to, with each possible victim (or none)."""
    p = game.active_player
    has = [any(game.stealable(q)) for q in range(game.n)]
    hex_players = game.players_by_hex
    plain, steal_row, _ = _actions(game.topology.n_hexes, game.n, game.n_goods)
    mandatory = game.rules.steal_mandatory
    out, steals = [], []
    for hx in game.robber_targets():
        victims = None
        for o in hex_players[hx]:  # plain loops: a comprehension per hex costs more than its work
            if o != p and has[o]:
                if victims is None:
                    victims = [o]
                else:
                    victims.append(o)
        if victims is not None:
            steals.append((hx, victims))
            if mandatory:  # B-ROB-6 under the option: a hex with a victim is only listed with a steal
                continue
        out.append(plain[hx])
    steals.sort()
    for hx, victims in steals:
        row = steal_row[hx]
        out.extend([row[o] for o in victims])
    return out


@register
class Robber(Module):
    """B-ROB-*: discards over the hand limit, then the robber moves and steals."""

    name = "robber"
    legal_in = ("discard", "move_robber")
    builtin = True
    vp_actions = ()  # discards, the robber and the steal never change VP
    actions = {Discard: (_check_discard, _apply_discard), MoveRobber: (_check_robber, _apply_robber)}

    def resolve_roll(self, game, total: int) -> None:
        if total != 7:
            return
        game.last_production = {}
        game.push(MOVE_ROBBER, game.active_player)  # after the discards (B-ROB-4); then the trade phase (B-ROB-9)
        owed = {}
        for q in range(game.n):
            k = sum(game.discardable(q))  # goods that are never discarded do not count (GoodRules)
            if k > game.hand_limit(q):  # B-ROB-2, B-ROB-3
                owed[q] = k // 2
        game.push_in_turn_order(DISCARD, owed)

    def legal(self, game, out: list) -> None:
        top = game.stack[-1]
        if top.phase is DISCARD:
            h = game.discardable(top.player)
            d = _discards(game.n_goods)
            out.extend([d[r] for r, k in enumerate(h) if k])
            return
        ph = top.phase
        if ph is MOVE_ROBBER:
            out.extend(legal_robber(game))


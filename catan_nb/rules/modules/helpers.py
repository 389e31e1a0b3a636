"""Helpers of Catan (RULES.md section 14, H-*).

State in ``game.ext["helpers"]`` (plain data):

``stack``, ``display``
    helper cards (``HelperCard`` values) face down in the stack, then face up in
    the display after the founding phase (H-SETUP-1, H-SETUP-3);
``held``, ``side``, ``fresh``, ``used``
    each player's helper, its side (``"A"``/``"B"``), whether it arrived this turn
    (H-USE-4) and whether it was used this turn (H-USE-7);
``captain``
    the resource a player trades at 2:1 for the rest of this turn (H-CARD-6);
``reaction``, ``architect``
    a pending reaction to a roll (H-USE-9), the cards seen with the Architect;
``knights_given_up``
    knight cards given up to the Priest (they leave the game);
``looked``
    while the Noblewoman's holder chooses a card: the seat and the hand it looks at (H-CARD-8).

Flow: using a helper is one checked action (its effect is part of it); the holder
then flips it to side B or returns it for another one from the display
(:class:`FlipHelper`, :class:`ExchangeHelper`; H-USE-2, H-USE-3).  The General and
the Mayor react to any player's roll (H-USE-9): the engine stops in phase
``HELPER_REACTION`` for the holder to use or decline.  The Noblewoman takes two steps, like the
Master Merchant (CK-PC-20): the player is chosen by public counts (:class:`UseNoblewoman`), then the
holder sees that hand and takes a card of it (:class:`NoblewomanTake`, phase ``NOBLEWOMAN``).

Decisions recorded here: H-CARD-9's Explorer (A4) and Architect (A6) follow the
spec's PROPOSAL; the Architect's two unkept cards go back into the deck, which
is drawn at random.  ``legal_actions`` lists the Merchant with one demanded player
and the largest of the player's own stacks as the card given back, and the
Mendicant and Architect substitutions only when the normal price cannot be paid;
:meth:`Game.play` takes every form the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...constants import COSTS, N_DEV_CARDS, DevCard, HelperCard, Resource, Terrain
from ...errors import IllegalActionError
from ..actions import Action
from ..phase import Phase
from . import Module, deal_again, register
from .development import dev_state, draw_dev, give_dev, recount_largest_army
from .robber import DISCARD

__all__ = [
    "Helpers",
    "FlipHelper",
    "ExchangeHelper",
    "DeclineHelper",
    "UseMerchantHelper",
    "BuildRoadWithMendicant",
    "UseMayor",
    "UseGeneral",
    "UseRobberBride",
    "UseCaptain",
    "UsePriest",
    "UseNoblewoman",
    "NoblewomanTake",
    "UseExplorer",
    "UseArchitect",
    "KeepCard",
    "USES",
]

NAME = "helpers"

#: H-USE-9: the holder of the General or the Mayor may react to a roll.
HELPER_REACTION = Phase.register("helper_reaction", "{player} may use their helper on this roll", owner=NAME)
#: H-USE-2, H-USE-3: after using a helper, its holder flips it or exchanges it.
HELPER_AFTER_USE = Phase.register("helper_after_use", "{player} flips their helper or exchanges it", owner=NAME)
#: H-CARD-9: the Architect's holder keeps one of the cards seen.
ARCHITECT_CHOICE = Phase.register("architect_choice", "{player} keeps one of the development cards seen", owner=NAME)
#: H-CARD-8: the Noblewoman's holder looks at the chosen player's hand and takes one card of it.
NOBLEWOMAN = Phase.register("noblewoman", "{player} looks at a hand and takes 1 card (H-CARD-8)", owner=NAME)
ROAD_COST = COSTS["road"]
DEV_COST = COSTS["development_card"]
PRIEST_COST = {"settlement": (1, 1, 0, 0, 0), "city": (0, 0, 0, 1, 2)}  # H-CARD-7


# ---------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class FlipHelper(Action):
    """After using side A, turn the helper to side B to use it once more later (H-USE-2)."""


@dataclass(frozen=True, slots=True)
class ExchangeHelper(Action):
    """After a use, return the helper to the display A side up and take ``take`` (H-USE-2, H-USE-3)."""

    take: HelperCard


@dataclass(frozen=True, slots=True)
class DeclineHelper(Action):
    """Let a roll pass without reacting with the General or the Mayor (H-USE-9)."""


@dataclass(frozen=True, slots=True)
class UseMerchantHelper(Action):
    """A1 Merchant: demand ``resource`` from up to 2 players; give each giver one card back (H-CARD-1)."""

    resource: Resource
    players: tuple[int, ...]
    give_back: tuple[Resource, ...]


@dataclass(frozen=True, slots=True)
class BuildRoadWithMendicant(Action):
    """A2 Mendicant: build a road paying ``pay_with`` in place of its ``replace`` (brick or lumber) (H-CARD-2)."""

    path: int
    replace: Resource
    pay_with: Resource


@dataclass(frozen=True, slots=True)
class UseMayor(Action):
    """A3 Mayor: after a roll other than 7 that gave you nothing, take ``resource`` (H-CARD-3)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class UseGeneral(Action):
    """A5 General on a 7: skip the discard when over the limit, else take ``resource`` (H-CARD-4)."""

    resource: Resource | None = None


@dataclass(frozen=True, slots=True)
class UseRobberBride(Action):
    """Robber Bride: robber back to the desert; take 1 card of the hex it left (H-CARD-5).

    ``desert`` names the desert hex; left ``None``, the board's first desert (a shorthand:
    ``legal_actions`` lists each desert by its hex).
    """

    desert: int | None = None


@dataclass(frozen=True, slots=True)
class UseCaptain(Action):
    """Captain: trade ``resource`` with the bank at 2:1 for the rest of the turn (H-CARD-6)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class UsePriest(Action):
    """Priest: give up a knight (``played`` or in hand) to build cheaply (H-CARD-7).

    ``build`` is ``"settlement"`` (1 lumber + 1 brick) or ``"city"`` (1 grain + 2 ore).
    """

    build: str
    node: int
    played: bool = False


@dataclass(frozen=True, slots=True)
class UseNoblewoman(Action):
    """Noblewoman: look at the hand of ``victim``, a player with more visible VP, then take 1 card of it
    (:class:`NoblewomanTake`) (H-CARD-8).

    Two steps, like the Master Merchant (CK-PC-20): ``legal_actions`` lists every player with more
    visible VP who holds a card (both public), so that the listing tells nothing of the hands; the
    cards are seen once the player is chosen.  ``resource`` given takes that card at once (the
    one-step form of saves written before the two steps; never listed).
    """

    victim: int
    resource: Resource | None = None


@dataclass(frozen=True, slots=True)
class NoblewomanTake(Action):
    """Take ``resource`` from the hand the Noblewoman looks at (H-CARD-8)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class UseExplorer(Action):
    """A4 Explorer (PROPOSAL): move one of your dead-end roads to another legal path (H-CARD-9)."""

    source: int
    target: int


@dataclass(frozen=True, slots=True)
class UseArchitect(Action):
    """A6 Architect (PROPOSAL): buy a development card seeing the top 3 (H-CARD-9).

    Optionally pay ``pay_with`` in place of ``replace`` (ore, wool or grain).
    ``seen`` is the outcome: the cards looked at.
    """

    replace: Resource | None = None
    pay_with: Resource | None = None
    seen: tuple[DevCard, ...] | None = None


@dataclass(frozen=True, slots=True)
class KeepCard(Action):
    """Keep one of the cards seen with the Architect; the others go back into the deck."""

    card: DevCard


#: The action that uses each helper (H-USE-1, H-CARD-1..9).
USES: dict[HelperCard, type[Action]] = {
    HelperCard.MERCHANT: UseMerchantHelper, HelperCard.MENDICANT: BuildRoadWithMendicant,
    HelperCard.MAYOR: UseMayor, HelperCard.EXPLORER: UseExplorer, HelperCard.GENERAL: UseGeneral,
    HelperCard.ARCHITECT: UseArchitect, HelperCard.ROBBER_BRIDE: UseRobberBride, HelperCard.CAPTAIN: UseCaptain,
    HelperCard.PRIEST: UsePriest, HelperCard.NOBLEWOMAN: UseNoblewoman,
}


# ---------------------------------------------------------------------------- helpers
def _deserts(game) -> list[int]:
    """Desert hexes now (H-CARD-5)."""
    return [hx for hx, t in enumerate(game.hex_terrain) if t is Terrain.DESERT]


def state(game) -> dict:
    return game.ext[NAME]


def holder_of(game, card: HelperCard) -> int | None:
    """The seat holding ``card``, or None."""
    for p, c in enumerate(state(game)["held"]):
        if c == card.value:
            return p
    return None


def _require_usable(game, action: Action, card: HelperCard, player: int, *, own_turn: bool = True) -> None:
    st = state(game)
    if game.phase is getattr(Phase, "SPECIAL_BUILD", None):
        raise IllegalActionError("H-USE-8", "helpers cannot be used in the Special Building Phase", action)
    if st["held"][player] != card.value:
        raise IllegalActionError("H-USE-1", f"seat {player} does not hold the {card.name.title()} ({card.title})", action)
    if own_turn and (game.phase not in (Phase.ROLL, Phase.MAIN) or game.current_player != game.active_player or player != game.active_player):
        raise IllegalActionError("H-USE-9", f"the {card.name.title()} works only in its holder's own turn", action)
    if st["fresh"][player]:
        raise IllegalActionError("H-USE-4", f"seat {player} received this helper this turn", action)
    if st["used"][player]:
        raise IllegalActionError("H-USE-7", f"seat {player} has already used a helper this turn", action)


def _after_use(game, player: int) -> None:
    """H-USE-2, H-USE-3: the holder flips or exchanges before play goes on (a decision on the stack)."""
    state(game)["used"][player] = True
    game.push(HELPER_AFTER_USE, player)


def _pay_substituted(game, action: Action, player: int, cost, replace, pay_with, allowed, rule) -> list[int]:
    cost = list(cost)
    if replace is not None or pay_with is not None:
        if replace is None or pay_with is None:
            raise IllegalActionError(rule, "a substitution names both the cost replaced and the card paid instead", action)
        r, w = Resource.parse(replace), Resource.parse(pay_with)
        if r.value not in allowed or cost[r.value] == 0:
            raise IllegalActionError(rule, f"{r} is not a cost that may be replaced here", action)
        cost[r.value] -= 1
        cost[w.value] += 1
    h = game.hands[player]
    short = [f"{cost[i] - h[i]} {Resource(i)}" for i in range(5) if h[i] < cost[i]]
    if short:
        raise IllegalActionError("B-BUILD-1", f"seat {player} is short of {', '.join(short)}", action)
    return cost


# ---------------------------------------------------------------------------- after use
def _check_flip(game, a: FlipHelper) -> None:
    if game.phase is not HELPER_AFTER_USE:
        raise IllegalActionError("H-USE-2", f"a helper is flipped only right after its use (phase {game.phase.value})", a)
    if state(game)["side"][game.current_player] != "A":
        raise IllegalActionError("H-USE-3", "a B-side helper must go back to the display after its use", a)


def _apply_flip(game, a: FlipHelper) -> None:
    state(game)["side"][game.current_player] = "B"
    game.log.append(a)
    game.pop()


def _check_exchange(game, a: ExchangeHelper) -> None:
    if game.phase is not HELPER_AFTER_USE:
        raise IllegalActionError("H-USE-5", "a helper cannot be handed back unused to trade it for another", a)
    st = state(game)
    take = HelperCard.parse(a.take)
    if take.value == st["held"][game.current_player]:
        raise IllegalActionError("H-USE-6", "the helper just returned cannot be taken back at once", a)
    if take.value not in st["display"]:
        raise IllegalActionError("H-USE-2", f"the {take.name.title()} is not in the display", a)


def _apply_exchange(game, a: ExchangeHelper) -> None:
    st = state(game)
    p = game.current_player
    st["display"].remove(a.take.value)
    st["display"].append(st["held"][p])
    st["held"][p] = a.take.value
    st["side"][p] = "A"
    st["fresh"][p] = True  # H-USE-4: not usable in the turn received
    game.log.append(a)
    game.pop()


# ---------------------------------------------------------------------------- reactions (H-USE-9)
def _check_decline(game, a: DeclineHelper) -> None:
    if game.phase is not HELPER_REACTION:
        raise IllegalActionError("H-USE-9", f"there is no roll to react to (phase {game.phase.value})", a)


def _apply_decline(game, a: DeclineHelper) -> None:
    st = state(game)
    st["reaction"] = None
    game.log.append(a)
    game.pop()


def _check_mayor(game, a: UseMayor) -> None:
    st = state(game)
    if game.phase is not HELPER_REACTION or st["reaction"] != HelperCard.MAYOR.value:
        raise IllegalActionError("H-CARD-3", "the Mayor reacts only to a roll other than 7 that gave its holder nothing", a)
    _require_usable(game, a, HelperCard.MAYOR, game.current_player, own_turn=False)
    if game.bank[Resource.parse(a.resource).value] == 0:
        raise IllegalActionError("H-CARD-3", f"the bank has no {a.resource}", a)


def _apply_mayor(game, a: UseMayor) -> None:
    p = game.current_player
    game.bank[a.resource.value] -= 1
    game.hands[p][a.resource.value] += 1
    state(game)["reaction"] = None
    game.log.append(a)
    game.pop()
    _after_use(game, p)


def _check_general(game, a: UseGeneral) -> None:
    st = state(game)
    if game.phase is not HELPER_REACTION or st["reaction"] != HelperCard.GENERAL.value:
        raise IllegalActionError("H-CARD-4", "the General reacts only to a rolled 7", a)
    p = game.current_player
    _require_usable(game, a, HelperCard.GENERAL, p, own_turn=False)
    over = sum(game.discardable(p)) > game.hand_limit(p)  # as the robber counts (B-ROB-2)
    if over and a.resource is not None:
        raise IllegalActionError("H-CARD-4", f"seat {p} is over the limit: the General spares the discard, no card is taken", a)
    if not over:
        if a.resource is None:
            raise IllegalActionError("H-CARD-4", f"seat {p} owes no discard: the General gives 1 resource of choice", a)
        if game.bank[Resource.parse(a.resource).value] == 0:
            raise IllegalActionError("H-CARD-4", f"the bank has no {a.resource}", a)


def _apply_general(game, a: UseGeneral) -> None:
    st = state(game)
    p = game.current_player
    game.pop()
    if a.resource is None:
        game.drop(DISCARD, p)  # H-CARD-4: no discard
    else:
        game.bank[a.resource.value] -= 1
        game.hands[p][a.resource.value] += 1
    st["reaction"] = None
    game.log.append(a)
    _after_use(game, p)


# ---------------------------------------------------------------------------- own-turn helpers
def _check_merchant(game, a: UseMerchantHelper) -> None:
    p = game.active_player
    _require_usable(game, a, HelperCard.MERCHANT, game.current_player)
    players, back = tuple(a.players), tuple(a.give_back)
    if not 1 <= len(players) <= 2 or len(set(players)) != len(players) or len(back) != len(players):
        raise IllegalActionError("H-CARD-1", "demand from 1 or 2 different players, with one card to give back to each", a)
    r = Resource.parse(a.resource).value
    hand = list(game.hands[p])
    for q, b in zip(players, back):
        if not 0 <= q < game.n or q == p:
            raise IllegalActionError("H-CARD-1", f"seat {q!r} cannot be asked", a)
        if game.hands[q][r]:
            hand[r] += 1
            b = Resource.parse(b).value
            if hand[b] == 0:
                raise IllegalActionError("H-CARD-1", f"seat {p} has no {Resource(b)} to give back to seat {q}", a)
            hand[b] -= 1


def _apply_merchant(game, a: UseMerchantHelper) -> None:
    p = game.active_player
    r = a.resource.value
    for q, b in zip(a.players, a.give_back):
        if game.hands[q][r]:  # a player without the resource gives nothing
            game.hands[q][r] -= 1
            game.hands[p][r] += 1
            game.hands[p][b.value] -= 1
            game.hands[q][b.value] += 1
    game.log.append(a)
    _after_use(game, p)


def _check_mendicant(game, a: BuildRoadWithMendicant) -> None:
    p = game.current_player
    _require_usable(game, a, HelperCard.MENDICANT, p)
    game.require_build_phase(a)
    game.check_spot(a, p, "road", a.path)
    _pay_substituted(game, a, p, ROAD_COST, a.replace, a.pay_with, (0, 1), "H-CARD-2")


def _apply_mendicant(game, a: BuildRoadWithMendicant) -> None:
    p = game.current_player
    cost = _pay_substituted(game, a, p, ROAD_COST, a.replace, a.pay_with, (0, 1), "H-CARD-2")
    game.pay(p, cost)
    game.built_this_turn = True
    game.log.append(a)
    game.place(p, "road", a.path)
    _after_use(game, p)


def _check_robber_bride(game, a: UseRobberBride) -> None:
    _require_usable(game, a, HelperCard.ROBBER_BRIDE, game.current_player)
    deserts = _deserts(game)
    if not deserts:
        raise IllegalActionError("H-CARD-5", "this island has no desert", a)
    if a.desert is not None and a.desert not in deserts:
        raise IllegalActionError("H-CARD-5", f"hex {a.desert} is not a desert", a)
    if game.robber in deserts:
        raise IllegalActionError("H-CARD-5", "the robber is already on the desert", a)


def _apply_robber_bride(game, a: UseRobberBride) -> None:
    p = game.active_player
    left = game.robber
    game.robber = a.desert if a.desert is not None else _deserts(game)[0]
    res = game.hex_terrain[left].resource
    if res is not None and game.bank[res.value]:  # H-CARD-5 DECISION: from the bank
        game.gain(p, res.value)
    game.log.append(a)
    _after_use(game, p)


def _check_captain(game, a: UseCaptain) -> None:
    _require_usable(game, a, HelperCard.CAPTAIN, game.current_player)
    Resource.parse(a.resource)


def _apply_captain(game, a: UseCaptain) -> None:
    p = game.active_player
    state(game)["captain"][p] = a.resource.value
    game.log.append(a)
    _after_use(game, p)


def _check_priest(game, a: UsePriest) -> None:
    p = game.current_player
    _require_usable(game, a, HelperCard.PRIEST, p)
    game.require_build_phase(a)
    if a.build not in PRIEST_COST:
        raise IllegalActionError("H-CARD-7", f"the Priest builds a settlement or a city, not {a.build!r}", a)
    if a.played and game.knights_played(p) == 0:
        raise IllegalActionError("H-CARD-7", f"seat {p} has no played knight to give up", a)
    if not a.played and game.dev_cards(p)[DevCard.KNIGHT] == 0:
        raise IllegalActionError("H-CARD-7", f"seat {p} has no knight card in hand to give up", a)
    game.check_spot(a, p, a.build, a.node)  # H-CARD-7: placement rules still apply
    game.require_cost(a, p, PRIEST_COST[a.build], f"a {a.build} with the Priest")


def _apply_priest(game, a: UsePriest) -> None:
    p = game.current_player
    st = state(game)
    dev = dev_state(game)
    knight = DevCard.KNIGHT.value
    if a.played:
        dev["knights"][p] -= 1
        recount_largest_army(game)
    else:
        cards, new = dev["cards"][p], dev["new"][p]
        cards[knight] -= 1
        if new[knight] > cards[knight]:
            new[knight] = cards[knight]
    st["knights_given_up"] += 1
    game.pay(p, PRIEST_COST[a.build])
    game.place(p, a.build, a.node)
    game.built_this_turn = True
    game.log.append(a)
    _after_use(game, p)


def _noblewoman_victims(game, p: int) -> list[int]:
    """H-CARD-8, B-END-6: the players ``p`` may choose, by public counts only: more visible VP, a card in hand."""
    mine = game.vp(p, visible=True)
    return [q for q in range(game.n) if q != p and game.vp(q, visible=True) > mine and sum(game.hands[q])]


def _check_noblewoman(game, a: UseNoblewoman) -> None:
    p = game.current_player
    _require_usable(game, a, HelperCard.NOBLEWOMAN, p)
    if type(a.victim) is not int or not 0 <= a.victim < game.n or a.victim == p:
        raise IllegalActionError("H-CARD-8", f"seat {a.victim!r} cannot be chosen", a)
    mine, theirs = game.vp(p, visible=True), game.vp(a.victim, visible=True)
    if theirs <= mine:
        raise IllegalActionError("H-CARD-8", f"seat {a.victim} has {theirs} visible VP, not more than seat {p}'s {mine}", a)
    if not sum(game.hands[a.victim]):  # as listed: nothing to take (the count is public)
        raise IllegalActionError("H-CARD-8", f"seat {a.victim} holds no card to take", a)
    if a.resource is not None:
        r = Resource.parse(a.resource)
        if game.hands[a.victim][r.value] == 0:
            raise IllegalActionError("H-CARD-8", f"seat {a.victim} holds no {r}", a)


def _apply_noblewoman(game, a: UseNoblewoman) -> None:
    p = game.active_player
    game.log.append(a)
    if a.resource is not None:  # the one-step form: the card named at once
        r = Resource.parse(a.resource).value
        game.hands[a.victim][r] -= 1
        game.hands[p][r] += 1
        _after_use(game, p)
        return
    state(game)["looked"] = [a.victim, list(game.hands[a.victim])]  # what the holder has seen
    game.push(NOBLEWOMAN, p, a.victim)


def _check_noblewoman_take(game, a: NoblewomanTake) -> None:
    game.require_phase(a, NOBLEWOMAN, rule="H-CARD-8")
    q = game.stack[-1].data
    r = Resource.parse(a.resource)
    if game.hands[q][r.value] == 0:
        raise IllegalActionError("H-CARD-8", f"seat {q} holds no {r}", a)


def _apply_noblewoman_take(game, a: NoblewomanTake) -> None:
    p = game.current_player
    q = game.stack[-1].data
    r = Resource.parse(a.resource).value
    game.hands[q][r] -= 1
    game.hands[p][r] += 1
    state(game).pop("looked", None)
    game.log.append(a)
    game.pop()
    _after_use(game, p)


def dead_end_roads(game, player: int) -> list[int]:
    """Roads of ``player`` with an end touching none of the player's other roads or buildings."""
    t = game.topology
    out = []
    for e in sorted(game.roads[player]):
        for v in t.edge_nodes[e]:
            if game.node_owner[v] != player and not any(
                f != e and game.edge_owner[f] == player for f in t.node_edges[v]
            ):
                out.append(e)
                break
    return out


def _explorer_targets(game, player: int, source: int) -> list[int]:
    """Where the Explorer may take ``player``'s road on ``source`` (H-CARD-9, B-BUILD-4): as if it had left."""
    return [e for e in game.candidates(player, "road", without=source) if e != source]


def _check_explorer(game, a: UseExplorer) -> None:
    p = game.current_player
    _require_usable(game, a, HelperCard.EXPLORER, p)
    if a.source not in dead_end_roads(game, p):
        raise IllegalActionError("H-CARD-9", f"path {a.source!r} is not a dead-end road of seat {p}", a)
    if a.target not in _explorer_targets(game, p, a.source):
        raise IllegalActionError("B-BUILD-4", f"the road cannot go to path {a.target!r}", a)


def _apply_explorer(game, a: UseExplorer) -> None:
    p = game.current_player
    game.remove("road", a.source)
    game.log.append(a)
    game.place(p, "road", a.target)
    game.move_longest_road((p,))  # moved with remove and place alone; B-LR-6
    _after_use(game, p)


def _check_architect(game, a: UseArchitect) -> None:
    p = game.current_player
    _require_usable(game, a, HelperCard.ARCHITECT, p)
    game.require_build_phase(a)
    if not game.deck_size:
        raise IllegalActionError("B-COMP-13", "the development deck is empty", a)
    _pay_substituted(game, a, p, DEV_COST, a.replace, a.pay_with, (2, 3, 4), "H-CARD-9")
    if a.seen is not None:
        need = [0] * N_DEV_CARDS
        for c in a.seen:
            need[DevCard.parse(c).value] += 1
        deck = dev_state(game)["deck"]
        if len(a.seen) != min(3, sum(deck)) or any(n > d for n, d in zip(need, deck)):
            raise IllegalActionError("H-CARD-9", f"the deck cannot show {a.seen!r}", a)


def _apply_architect(game, a: UseArchitect) -> None:
    p = game.current_player
    st = state(game)
    cost = _pay_substituted(game, a, p, DEV_COST, a.replace, a.pay_with, (2, 3, 4), "H-CARD-9")
    game.pay(p, cost)
    k = min(3, game.deck_size)
    forced = list(a.seen) if a.seen is not None else [None] * k
    seen = tuple(DevCard(draw_dev(game, forced[i])) for i in range(k))
    st["architect"] = [c.value for c in seen]
    game.push(ARCHITECT_CHOICE, p)
    game.built_this_turn = True
    game.log.append(UseArchitect(a.replace, a.pay_with, seen))


def _check_keep(game, a: KeepCard) -> None:
    if game.phase is not ARCHITECT_CHOICE:
        raise IllegalActionError("H-CARD-9", f"no cards are on view (phase {game.phase.value})", a)
    if DevCard.parse(a.card).value not in state(game)["architect"]:
        raise IllegalActionError("H-CARD-9", f"{a.card} is not among the cards seen", a)


def _apply_keep(game, a: KeepCard) -> None:
    st = state(game)
    p = game.current_player
    seen = st["architect"]
    seen.remove(a.card.value)
    deck = dev_state(game)["deck"]
    for c in seen:
        deck[c] += 1  # back into the deck (drawn at random)
    st["architect"] = None
    give_dev(game, p, a.card.value)  # B-TURN-5: new
    game.log.append(a)
    game.pop()
    _after_use(game, p)


def _looked_at(game, player: int) -> dict:
    """What ``player`` is looking at now: the hand chosen with the Noblewoman (H-CARD-8)."""
    top = game.stack[-1] if game.stack else None
    if top is None or top.phase is not NOBLEWOMAN or top.player != player:
        return {}
    q, hand = state(game)["looked"]
    return {"looked": (q, list(hand))}


# ---------------------------------------------------------------------------- module
_FLIP, _DECLINE = FlipHelper(), DeclineHelper()
STACK_NUMBERED = [c.value for c in HelperCard if c.number is not None]
UNNUMBERED = [c.value for c in HelperCard if c.number is None]


@register
class Helpers(Module):
    """H-*: the ten helpers, dealing, use, flip or exchange, and their effects."""

    name = NAME
    legal_in = ("helper_after_use", "architect_choice", "helper_reaction", "noblewoman", "roll", "main")
    actions = {
        FlipHelper: (_check_flip, _apply_flip),
        ExchangeHelper: (_check_exchange, _apply_exchange),
        DeclineHelper: (_check_decline, _apply_decline),
        UseMerchantHelper: (_check_merchant, _apply_merchant),
        BuildRoadWithMendicant: (_check_mendicant, _apply_mendicant),
        UseMayor: (_check_mayor, _apply_mayor),
        UseGeneral: (_check_general, _apply_general),
        UseRobberBride: (_check_robber_bride, _apply_robber_bride),
        UseCaptain: (_check_captain, _apply_captain),
        UsePriest: (_check_priest, _apply_priest),
        UseNoblewoman: (_check_noblewoman, _apply_noblewoman),
        NoblewomanTake: (_check_noblewoman_take, _apply_noblewoman_take),
        UseExplorer: (_check_explorer, _apply_explorer),
        UseArchitect: (_check_architect, _apply_architect),
        KeepCard: (_check_keep, _apply_keep),
    }

    def init(self, game) -> None:
        unnumbered = list(UNNUMBERED)
        game.shuffle(unnumbered)  # H-SETUP-1: "in any order", drawn from the game's seed
        n = game.n
        st = {
            "stack": STACK_NUMBERED + unnumbered,  # top first
            "display": [],
            "held": [None] * n,
            "side": [None] * n,
            "fresh": [False] * n,
            "used": [False] * n,
            "captain": [None] * n,
            "reaction": None,
            "architect": None,
            "knights_given_up": 0,
        }
        game.ext[NAME] = st
        if game.start == "beginner":  # H-SETUP-4 DECISION: reverse seat order from the top
            for p in reversed(range(n)):
                st["held"][p] = st["stack"].pop(0)
                st["side"][p] = "A"
            st["display"], st["stack"] = st["stack"], []

    def on_founding_settlement(self, game, player: int, node: int, second: bool) -> None:
        if second:  # H-SETUP-2: the top card, A side up
            st = state(game)
            st["held"][player] = st["stack"].pop(0)
            st["side"][player] = "A"

    def on_founding_done(self, game) -> None:
        st = state(game)
        st["display"], st["stack"] = st["stack"], []  # H-SETUP-3

    def on_turn_start(self, game) -> None:
        st = state(game)
        n = game.n
        st["fresh"] = [False] * n
        st["used"] = [False] * n
        st["captain"] = [None] * n

    def rate(self, game, player: int, resource: int, rate: int) -> int:
        return 2 if state(game)["captain"][player] == resource else rate  # H-CARD-6

    def on_roll(self, game, total: int) -> None:
        st = state(game)
        card = HelperCard.GENERAL if total == 7 else HelperCard.MAYOR
        p = holder_of(game, card)
        if p is None or st["fresh"][p] or st["used"][p]:
            return
        if card is HelperCard.MAYOR and p in game.last_production:
            return  # H-CARD-3: only when the roll gave nothing
        st["reaction"] = card.value
        game.push(HELPER_REACTION, p)

    def view(self, game, player: int) -> dict:
        """The hand ``player`` looks at with the Noblewoman (H-CARD-8), if any: ``{"looked": (seat, counts)}``."""
        return _looked_at(game, player)

    def determinize(self, game, observer: int, rng) -> None:
        """The hand the observer looks at with the Noblewoman (H-CARD-8) is known and kept; the other
        hidden hands are dealt from the rest."""
        seen = _looked_at(game, observer)
        if not seen:
            return
        q0, known = seen["looked"]
        others = [q for q in range(game.n) if q not in (observer, q0)]
        pool = [g for g in range(game.n_goods) for _ in range(sum(game.hands[q][g] for q in others + [q0]) - known[g])]
        deal_again(pool, rng)
        game.hands[q0] = list(known)
        for q in others:
            k = sum(game.hands[q])
            game.hands[q] = [0] * game.n_goods
            for g in pool[:k]:
                game.hands[q][g] += 1
            del pool[:k]

    def legal(self, game, out: list) -> None:
        st = state(game)
        ph = game.phase
        p = game.current_player
        if ph is HELPER_AFTER_USE:
            if st["side"][p] == "A":
                out.append(_FLIP)
            out.extend(ExchangeHelper(HelperCard(c)) for c in sorted(st["display"]))
            return
        if ph is ARCHITECT_CHOICE:
            out.extend(KeepCard(DevCard(c)) for c in sorted(set(st["architect"])))
            return
        if ph is NOBLEWOMAN:
            q = game.stack[-1].data
            out.extend(NoblewomanTake(Resource(r)) for r in range(5) if game.hands[q][r])
            return
        if ph is HELPER_REACTION:
            if st["reaction"] == HelperCard.MAYOR.value:
                out.extend(UseMayor(Resource(r)) for r in range(5) if game.bank[r])
            elif sum(game.discardable(p)) > game.hand_limit(p):
                out.append(UseGeneral())
            else:
                out.extend(UseGeneral(Resource(r)) for r in range(5) if game.bank[r])
            out.append(_DECLINE)
            return
        if ph not in (Phase.ROLL, Phase.MAIN) or p != game.active_player:
            return
        card = st["held"][p]
        if card is None or st["fresh"][p] or st["used"][p]:
            return
        _own_turn_options(game, HelperCard(card), p, out)


def _own_turn_options(game, card: HelperCard, p: int, out: list) -> None:
    hand = game.hands[p]
    main = game.phase is Phase.MAIN
    if card is HelperCard.MERCHANT:
        back = max(range(5), key=lambda r: hand[r])
        # Every opponent may be asked, whether or not they hold the resource (H-CARD-1: one without it
        # gives nothing): the listing must not tell the seat what the others hold.
        for r in range(5):
            for q in range(game.n):
                if q != p and hand[back] and back != r:
                    out.append(UseMerchantHelper(Resource(r), (q,), (Resource(back),)))
    elif card is HelperCard.MENDICANT and main and game.pieces_left(p)["road"] > 0:
        if not (hand[0] and hand[1]):
            replace = 1 if hand[0] else 0  # the missing one of lumber / brick
            spare = [r for r in range(5) if r != 1 - replace and hand[r] > (r == 1 - replace)]
            if hand[1 - replace] and spare:
                pay = max(spare, key=lambda r: hand[r])
                out.extend(
                    BuildRoadWithMendicant(e, Resource(replace), Resource(pay)) for e in game.candidates(p, "road")
                )
    elif card is HelperCard.ROBBER_BRIDE:
        deserts = _deserts(game)
        if deserts and game.robber not in deserts:
            out.extend(UseRobberBride(d) for d in deserts)
    elif card is HelperCard.CAPTAIN:
        out.extend(UseCaptain(Resource(r)) for r in range(5))
    elif card is HelperCard.PRIEST and main:
        sources = [s for s, ok in ((False, game.dev_cards(p)[DevCard.KNIGHT]), (True, game.knights_played(p))) if ok]
        if sources:
            played = sources[0]
            left = game.pieces_left(p)
            if hand[0] and hand[1] and left["settlement"] > 0:
                out.extend(UsePriest("settlement", v, played) for v in game.candidates(p, "settlement"))
            if hand[3] and hand[4] >= 2 and left["city"] > 0:
                out.extend(UsePriest("city", v, played) for v in game.candidates(p, "city"))
    elif card is HelperCard.NOBLEWOMAN:  # the victim first, by public counts; its cards are seen next
        out.extend(UseNoblewoman(q) for q in _noblewoman_victims(game, p))
    elif card is HelperCard.EXPLORER:
        for e in dead_end_roads(game, p):
            out.extend(UseExplorer(e, f) for f in _explorer_targets(game, p, e))
    elif card is HelperCard.ARCHITECT and main and game.deck_size:
        if hand[2] and hand[3] and hand[4]:
            out.append(UseArchitect())
        else:
            missing = [r for r in (2, 3, 4) if not hand[r]]
            if len(missing) == 1:
                cost = list(DEV_COST)
                cost[missing[0]] -= 1
                spare = [r for r in range(5) if hand[r] > cost[r]]
                if spare:
                    out.append(UseArchitect(Resource(missing[0]), Resource(max(spare, key=lambda r: hand[r]))))

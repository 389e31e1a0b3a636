"""Development cards and the Largest Army (RULES.md sections 8 and 9.2): a built-in module.

Buying a card (B-BUILD-11) draws from the shuffled deck (B-COMP-6..8); one card
may be played per turn, not on the turn it was bought (B-TURN-4..7): the knight
moves the robber and counts for the Largest Army (B-DEV-2..4, B-LA-1..2), Road
Building places up to 2 free roads (B-DEV-5), Year of Plenty takes 2 cards
(B-DEV-6), Monopoly takes every card of a resource (B-DEV-7); VP cards count
hidden (B-DEV-8, B-END-6).  Cities & Knights replaces this module (its progress
cards and no army, CK-COMP-1).

State in ``game.ext["development"]`` (plain data, as every module's; :func:`dev_state`):

``deck``
    Cards left in the face-down deck, counts by :class:`~catan_nb.constants.DevCard` value.
``cards``
    Per seat, the unplayed cards in hand (VP cards included), counts by card.
``new``
    Per seat, those of ``cards`` bought this turn, not playable yet (B-TURN-5).
``knights``
    Per seat, knights played (B-DEV-3, B-LA-1).
``army``
    The seat holding the Largest Army, or ``None`` (B-LA-1, A-27).
``played``
    Whether the active player has played a card this turn (B-TURN-4).

Everyone else reads it through the accessors the game offers (:class:`DevCardQueries`:
``game.dev_cards(p)``, ``game.knights_played(p)``, ``game.largest_army_holder``,
``game.deck_size``...); a module that deals or takes cards (a treasure, the Architect, the
Professors' guild) uses :func:`draw_dev` and :func:`give_dev`.

Examples
--------
>>> from catan_nb import Board, Game
>>> g = Game(Board.beginner(), seed=1, start="beginner")
>>> sorted(g.ext["development"])
['army', 'cards', 'deck', 'knights', 'new', 'played']
>>> g.deck_size, g.knights_played(0), g.largest_army_holder
(25, 0, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ...constants import COSTS, LARGEST_ARMY_MIN, N_DEV_CARDS, RESOURCES, SPECIAL_CARD_VP, DevCard, Resource, good_rules
from ...errors import IllegalActionError
from ..actions import (
    BuyDevelopmentCard,
    EndRoadBuilding,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
)
from ..phase import Phase
from .robber import MOVE_ROBBER
from . import Module, register

__all__ = ["Development", "DevCardQueries", "ROAD_BUILDING", "NAME", "dev_state", "draw_dev", "give_dev", "dev_cost",
           "recount_largest_army"]

NAME = "development"

KNIGHT, ROAD_BUILDING_CARD, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = (c.value for c in DevCard)
N_RES = len(RESOURCES)

#: B-DEV-5: up to two free roads; ``data`` is how many are left.
ROAD_BUILDING = Phase.register(
    "road_building", "{player} places up to 2 free roads (Road Building)", free=("road",), owner="development"
)

_BUY, _KNIGHT, _RB, _END_RB = BuyDevelopmentCard(), PlayKnight(), PlayRoadBuilding(), EndRoadBuilding()
_BOUGHT = tuple(BuyDevelopmentCard(c) for c in DevCard)  # recorded purchases, shared
_COST_ITEMS = tuple((r, c) for r, c in enumerate(COSTS["development_card"]) if c)
_MAIN, _ROLL = Phase.MAIN, Phase.ROLL


@lru_cache(maxsize=1)
def _year_of_plenty():
    return tuple(tuple(PlayYearOfPlenty(a, b) for b in RESOURCES) for a in RESOURCES)


@lru_cache(maxsize=None)
def _monopolies(goods: tuple) -> tuple:
    """B-DEV-7: a Monopoly for each good of the game that Monopoly may name (``GoodRules.monopolised``)."""
    return tuple(PlayMonopoly(g) for g in goods if good_rules(g).monopolised)


@lru_cache(maxsize=None)
def dev_cost(n_goods: int) -> tuple[int, ...]:
    """B-BUILD-1: a development card costs 1 ore, 1 wool and 1 grain (counts per good)."""
    return tuple(COSTS["development_card"]) + (0,) * (n_goods - N_RES)


def dev_state(game) -> dict | None:
    """The module's state, ``game.ext["development"]`` (see the module docstring), or ``None`` when
    the game has no development deck (Cities & Knights replaces it, CK-COMP-1)."""
    return game.ext.get(NAME)


def draw_dev(game, forced: DevCard | None = None) -> int:
    """Take a development card from the deck: drawn at random, or the forced (recorded) outcome.

    Returns the card's :class:`~catan_nb.constants.DevCard` value; put it in a hand with
    :func:`give_dev`.  Check first that the deck is not empty (``game.deck_size``)."""
    deck = game.ext[NAME]["deck"]
    card = game.draw_index(deck, None if forced is None else DevCard.parse(forced).value)
    deck[card] -= 1
    return card


def give_dev(game, player: int, card: int, *, new: bool = True) -> None:
    """Put development card ``card`` (a :class:`~catan_nb.constants.DevCard` value) in ``player``'s
    hand; ``new``: bought or taken this turn, so not playable before the next (B-TURN-5)."""
    st = game.ext[NAME]
    st["cards"][player][card] += 1
    if new:
        st["new"][player][card] += 1


def recount_largest_army(game) -> None:
    """A-27: after a played knight leaves, the holder keeps the card while still at the minimum
    and not strictly beaten; otherwise a single top player with the minimum takes it, failing
    that it is set aside."""
    st = game.ext[NAME]
    k = st["knights"]
    h = st["army"]
    if h is not None and k[h] >= LARGEST_ARMY_MIN and k[h] >= max(k):
        return
    top = max(k)
    st["army"] = k.index(top) if top >= LARGEST_ARMY_MIN and k.count(top) == 1 else None


def _tally(items, width: int) -> list[int]:
    out = [0] * width
    for i in items:
        out[i] += 1
    return out


_NO_CARDS = (0,) * N_DEV_CARDS


class DevCardQueries:
    """The development module's public accessors, part of :class:`~catan_nb.rules.Game`.

    They read ``game.ext["development"]``; in a game without the development deck (Cities &
    Knights) they answer zeros and ``None``.  The list properties (:attr:`deck`, :attr:`dev`,
    :attr:`dev_new`, :attr:`knights`) are the live lists, for tests and teaching positions;
    rule modules change them through :func:`draw_dev`, :func:`give_dev` and the module's actions.
    """

    __slots__ = ()
    ext: dict
    n: int

    def dev_cards(self, player: int, *, new: bool = False) -> dict[DevCard, int]:
        """A player's unplayed development cards by kind (VP cards included); ``new=True``: only
        those bought this turn, which may not be played yet (B-TURN-5)."""
        st = self.ext.get(NAME)
        if st is None:
            return {c: 0 for c in DevCard}
        row = st["new" if new else "cards"][player]
        return {c: row[c.value] for c in DevCard}

    def dev_counts(self, player: int, *, new: bool = False) -> Sequence[int]:
        """:meth:`dev_cards` as counts by :class:`~catan_nb.constants.DevCard` value, without
        building a dict (for loops that read every seat often).  Read only."""
        st = self.ext.get(NAME)
        if st is None:
            return _NO_CARDS
        return st["new" if new else "cards"][player]

    def knights_played(self, player: int) -> int:
        """Knights ``player`` has played (B-DEV-3; what the Largest Army counts, B-LA-1)."""
        st = self.ext.get(NAME)
        return 0 if st is None else st["knights"][player]

    @property
    def deck_size(self) -> int:
        """Development cards left in the deck (B-COMP-13)."""
        st = self.ext.get(NAME)
        return 0 if st is None else sum(st["deck"])

    @property
    def largest_army_holder(self) -> int | None:
        """The seat holding the Largest Army card, or ``None`` (B-LA-1, A-27)."""
        st = self.ext.get(NAME)
        return None if st is None else st["army"]

    @largest_army_holder.setter
    def largest_army_holder(self, seat: int | None) -> None:
        self._dev_state("largest_army_holder")["army"] = seat

    @property
    def dev_played(self) -> bool:
        """Whether the active player has played a development card this turn (B-TURN-4)."""
        st = self.ext.get(NAME)
        return False if st is None else st["played"]

    @dev_played.setter
    def dev_played(self, played: bool) -> None:
        self._dev_state("dev_played")["played"] = bool(played)

    @property
    def deck(self) -> list[int]:
        """The deck's cards by :class:`~catan_nb.constants.DevCard` value (live; hidden from the players)."""
        st = self.ext.get(NAME)
        return [0] * N_DEV_CARDS if st is None else st["deck"]

    @deck.setter
    def deck(self, counts) -> None:
        self._dev_state("deck")["deck"] = [int(c) for c in counts]

    @property
    def dev(self) -> list[list[int]]:
        """Each seat's unplayed development cards by card value (live; see :meth:`dev_cards`)."""
        st = self.ext.get(NAME)
        return [[0] * N_DEV_CARDS for _ in range(self.n)] if st is None else st["cards"]

    @dev.setter
    def dev(self, rows) -> None:
        self._dev_state("dev")["cards"] = [[int(c) for c in r] for r in rows]

    @property
    def dev_new(self) -> list[list[int]]:
        """Each seat's cards bought this turn, by card value (live; B-TURN-5)."""
        st = self.ext.get(NAME)
        return [[0] * N_DEV_CARDS for _ in range(self.n)] if st is None else st["new"]

    @dev_new.setter
    def dev_new(self, rows) -> None:
        self._dev_state("dev_new")["new"] = [[int(c) for c in r] for r in rows]

    @property
    def knights(self) -> list[int]:
        """Knights played per seat (live; see :meth:`knights_played`)."""
        st = self.ext.get(NAME)
        return [0] * self.n if st is None else st["knights"]

    @knights.setter
    def knights(self, counts) -> None:
        self._dev_state("knights")["knights"] = [int(c) for c in counts]

    def _dev_state(self, what: str) -> dict:
        st = self.ext.get(NAME)
        if st is None:
            from ...errors import CatanError

            raise CatanError(f"{what}: this game has no development deck (rule modules: {[m.name for m in self.modules]})")
        return st


# ---------------------------------------------------------------- checks
def _check_buy(game, a: BuyDevelopmentCard) -> None:
    game.require_build_phase(a)
    deck = game.ext[NAME]["deck"]
    if not any(deck):
        raise IllegalActionError("B-COMP-13", "the development deck is empty", a)
    game.require_cost(a, game.current_player, dev_cost(game.n_goods), "a development card")
    if a.card is not None and deck[DevCard.parse(a.card).value] == 0:
        raise IllegalActionError("B-COMP-6", f"the deck holds no {a.card} card to draw", a)


def _check_play(game, a, card: int) -> None:
    p = game.current_player
    if game.phase not in (Phase.ROLL, Phase.MAIN) or p != game.active_player:
        raise IllegalActionError("B-TURN-6", f"development cards are played only in the owner's own turn (phase {game.phase.value})", a)
    st = game.ext[NAME]
    if st["played"]:
        raise IllegalActionError("B-TURN-4", f"seat {p} has already played a development card this turn", a)
    if st["cards"][p][card] == 0:
        raise IllegalActionError("B-DEV-1", f"seat {p} holds no {DevCard(card)} card", a)
    if st["cards"][p][card] - st["new"][p][card] <= 0:
        raise IllegalActionError("B-TURN-5", f"seat {p}'s {DevCard(card)} card was bought this turn", a)
    if game.phase is Phase.ROLL and card != KNIGHT and game.rules.knights_only_before_roll:
        raise IllegalActionError("B-TURN-3", "under these rules only a knight may be played before the roll (A-01)", a)


def _check_knight(game, a: PlayKnight) -> None:
    _check_play(game, a, KNIGHT)


def _check_road_building(game, a: PlayRoadBuilding) -> None:
    _check_play(game, a, ROAD_BUILDING_CARD)
    p = game.active_player
    kinds = game.free_kinds(ROAD_BUILDING)  # roads, and ships with Seafarers (SF-17)
    left = game.pieces_left(p)
    if not any(left[k] > 0 for k in kinds):
        raise IllegalActionError("B-COMP-12", f"seat {p} has no {' or '.join(kinds)} left in supply for Road Building", a)
    if not game.can_place_free(p, ROAD_BUILDING):
        raise IllegalActionError("B-DEV-5", f"seat {p} has no path where a {' or '.join(kinds)} may go", a)


def _check_end_road_building(game, a: EndRoadBuilding) -> None:
    game.require_phase(a, ROAD_BUILDING, rule="B-DEV-5")


def _check_year_of_plenty(game, a: PlayYearOfPlenty) -> None:
    _check_play(game, a, YEAR_OF_PLENTY)
    want = [0] * N_RES
    for r in (a.first, a.second):
        want[Resource.parse(r).value] += 1
    for r in range(N_RES):
        if want[r] > game.bank[r]:
            raise IllegalActionError("B-DEV-6", f"the bank has {game.bank[r]} {RESOURCES[r]}, {want[r]} asked", a)


def _check_monopoly(game, a: PlayMonopoly) -> None:
    _check_play(game, a, MONOPOLY)
    if a.resource not in game.goods or not game.good_rules[game.good_index(a.resource)].monopolised:
        named = ", ".join(str(g) for g, r in zip(game.goods, game.good_rules) if r.monopolised)
        raise IllegalActionError("B-DEV-7", f"Monopoly names one of {named}, not {a.resource!r}", a)


# ---------------------------------------------------------------- effects
def _start(game, card: int) -> dict:
    st = game.ext[NAME]
    st["cards"][game.active_player][card] -= 1
    st["played"] = True
    return st


def _apply_buy(game, a: BuyDevelopmentCard) -> None:
    p = game.current_player
    card = draw_dev(game, a.card)
    game.pay(p, dev_cost(game.n_goods))
    give_dev(game, p, card)  # B-TURN-5: new, not playable this turn
    game.built_this_turn = True
    game.log.append(_BOUGHT[card])


def _apply_knight(game, a: PlayKnight) -> None:
    p = game.active_player
    st = _start(game, KNIGHT)
    k = st["knights"]
    k[p] += 1  # B-DEV-3
    if st["army"] != p and k[p] >= LARGEST_ARMY_MIN and all(k[p] > k[q] for q in range(game.n) if q != p):
        # B-LA-1, B-LA-2: strictly more than the holder; A-27: a card set aside (nobody holds it)
        # goes only to a player with strictly more than every other, not to one who ties.
        st["army"] = p
    game.log.append(a)
    game.push(MOVE_ROBBER, p)  # B-DEV-2, B-DEV-4: no discards


def _apply_road_building(game, a: PlayRoadBuilding) -> None:
    _start(game, ROAD_BUILDING_CARD)
    game.log.append(a)
    game.push(ROAD_BUILDING, game.active_player, 2)


def _apply_end_road_building(game, a: EndRoadBuilding) -> None:
    game.pop()
    game.log.append(a)


def _apply_year_of_plenty(game, a: PlayYearOfPlenty) -> None:
    p = game.active_player
    _start(game, YEAR_OF_PLENTY)
    for r in (a.first, a.second):
        game.bank[r.value] -= 1
        game.hands[p][r.value] += 1
    game.log.append(a)


def _apply_monopoly(game, a: PlayMonopoly) -> None:
    p = game.active_player
    _start(game, MONOPOLY)
    r = game.good_index(a.resource)
    for q in range(game.n):
        if q != p:
            game.hands[p][r] += game.hands[q][r]
            game.hands[q][r] = 0
    game.log.append(a)


@register
class Development(Module):
    """B-DEV-*, B-LA-*: the development deck, the cards' effects and the Largest Army."""

    name = "development"
    legal_in = ("roll", "main", "road_building")
    builtin = True
    vp_actions = (BuyDevelopmentCard, PlayKnight)  # a VP card (B-COMP-8), the Largest Army (B-LA-1)
    actions = {
        BuyDevelopmentCard: (_check_buy, _apply_buy),
        PlayKnight: (_check_knight, _apply_knight),
        PlayRoadBuilding: (_check_road_building, _apply_road_building),
        EndRoadBuilding: (_check_end_road_building, _apply_end_road_building),
        PlayYearOfPlenty: (_check_year_of_plenty, _apply_year_of_plenty),
        PlayMonopoly: (_check_monopoly, _apply_monopoly),
    }

    def module_builds(self, game, player: int, out: list) -> None:
        h = game.hands[player]
        for r, c in _COST_ITEMS:
            if h[r] < c:
                return
        if any(game.ext[NAME]["deck"]):
            out.append(_BUY)

    def legal(self, game, out: list) -> None:
        ph = game.stack[-1].phase
        if ph is _MAIN or ph is _ROLL:
            st = game.ext[NAME]
            d = st["cards"][game.active_player]
            if (d[0] or d[1] or d[2] or d[3]) and not st["played"]:  # else nothing to play
                self._plays(game, out, before_roll=ph is _ROLL)
        elif ph is ROAD_BUILDING:
            out.append(_END_RB)

    @staticmethod
    def _plays(game, out: list, *, before_roll: bool) -> None:
        """The cards the active player may play now (called only when it holds one and played none)."""
        p = game.active_player
        st = game.ext[NAME]
        d = st["cards"][p]
        new = st["new"][p]
        playable = [d[c] - new[c] for c in range(4)]
        if playable[KNIGHT] > 0:
            out.append(_KNIGHT)
        if before_roll and game.rules.knights_only_before_roll:
            return
        if playable[ROAD_BUILDING_CARD] > 0 and game.can_place_free(p, ROAD_BUILDING):
            out.append(_RB)
        if playable[YEAR_OF_PLENTY] > 0:
            yop = _year_of_plenty()
            bank = game.bank
            for a in range(N_RES):
                if bank[a]:
                    for b in range(a, N_RES):
                        if bank[b] >= 1 + (a == b):
                            out.append(yop[a][b])
        if playable[MONOPOLY] > 0:
            out.extend(_monopolies(game.goods))

    def init(self, game) -> None:
        deck = game.components["deck"]
        n = game.n
        game.ext[NAME] = {
            "deck": [deck.get(c, 0) for c in DevCard],
            "cards": [[0] * N_DEV_CARDS for _ in range(n)],
            "new": [[0] * N_DEV_CARDS for _ in range(n)],
            "knights": [0] * n,
            "army": None,
            "played": False,
        }

    def on_turn_start(self, game) -> None:
        st = game.ext[NAME]
        st["played"] = False
        st["new"][game.active_player] = [0] * N_DEV_CARDS

    def vp(self, game, player: int, visible: bool) -> int:
        st = game.ext[NAME]
        v = SPECIAL_CARD_VP if st["army"] == player else 0
        if not visible:
            v += st["cards"][player][VICTORY_POINT]  # B-DEV-8, B-END-6: hidden until the win
        return v

    def determinize(self, game, observer: int, rng) -> None:
        # The opponents' unplayed cards and the deck are dealt again from the cards the observer
        # has not seen, in a canonical order, so the deal depends only on what is public and rng.
        st = game.ext[NAME]
        cards, new = st["cards"], st["new"]
        others = [q for q in range(game.n) if q != observer]
        unseen = [c for c in range(N_DEV_CARDS) for _ in range(st["deck"][c] + sum(cards[q][c] for q in others))]
        rng.shuffle(unseen)
        for q in others:
            k, fresh = sum(cards[q]), sum(new[q])
            cards[q] = _tally(unseen[:k], N_DEV_CARDS)
            new[q] = _tally(unseen[:fresh], N_DEV_CARDS)
            del unseen[:k]
        st["deck"] = _tally(unseen, N_DEV_CARDS)

    def copy_state(self, st: dict) -> dict:
        # Copied for every node of a search: the lists directly, faster than the generic copy.
        c = st.copy()
        c["deck"] = st["deck"][:]
        c["cards"] = [r[:] for r in st["cards"]]
        c["new"] = [r[:] for r in st["new"]]
        c["knights"] = st["knights"][:]
        return c

"""Friends — guild favours (RULES.md section 13, F-*).

State in ``game.ext["friends"]`` (plain data):

``supply``
    face-down favour tokens left, per guild (F-SETUP-2, F-SETUP-3);
``tokens``, ``fresh``
    each player's tokens per guild, and how many of them arrived this turn (F-USE-4);
``board``
    tokens used, lying on the guild board (F-USE-2 DECISION: they never return);
``catan_tokens``, ``catan_left``
    Catan tokens (1 visible VP each) held and left (F-COMP-1, F-GUILD-5);
``used``
    a favour was used or exchanged this turn (F-USE-1);
``gift_given``, ``gift_refused``
    the turn's gift (F-EARN-4, F-EARN-5, A-23); an offered gift waits on the
    decision stack (phase ``gift_response``) for the offered player's answer;
``links``
    ``[seat, node, other seat, other node]`` per join undone by a lifted road (the
    Explorer, H-CARD-9): the district of ``seat`` holding ``node`` and the district of
    ``other seat`` holding ``other node`` stay joined for F-EARN-8 (see below).

Earning (F-EARN-*): a robber move to a hex without buildings, or to the desert
without stealing, pays 1 favour; an accepted gift pays the giver 1; a road that
first joins one of the builder's districts to another player's pays the builder
3 and each other owner 1 (F-EARN-7..12, with the F-EARN-11 definition of a join).
Draws come from the game's seeded generator; an empty supply pays nothing.

Decisions recorded here (and in ``docs/friends.md``): when a road joins two other
players at once (F-EARN-9) the others draw in turn order from the builder (the rule
lets the builder choose; it matters only when the supply runs out).  A road moved by
the Explorer (H-CARD-9) is judged as it stood before it was lifted (F-EARN-11): two
districts that the lifted road joined stay joined, so moving it (back and forth, or
elsewhere onto the same district) or building another road between them earns
nothing (F-EARN-8); a district it never joined earns as usual.  ``legal_actions`` lists single
Merchants swaps; :meth:`Game.play` also takes two in one use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...constants import (
    CATAN_TOKENS,
    FAVOUR_SUPPLY,
    FRIENDS_VP_TO_WIN,
    GUILD_PRICE,
    RESOURCES,
    DevCard,
    Guild,
    Resource,
    Terrain,
)
from ...errors import IllegalActionError
from ..actions import Action
from ..phase import Phase
from . import Module, register
from .development import dev_state, draw_dev, give_dev

__all__ = [
    "Friends",
    "OfferGift",
    "AcceptGift",
    "RefuseGift",
    "UseMerchants",
    "UseTraders",
    "UsePavers",
    "UseProfessors",
    "UseArchitects",
    "ExchangeFavour",
    "ReturnFavour",
    "districts",
]

NAME = "friends"
N_GUILDS = len(Guild)

#: F-EARN-4: the offered player accepts or refuses a gift; ``data`` is ``(giver, resource index)``.
GIFT_RESPONSE = Phase.register("gift_response", "{player} accepts or refuses a gift", owner=NAME)
#: F-USE-6: after drawing a favour token, the player returns one.
FAVOUR_EXCHANGE = Phase.register("favour_exchange", "{player} returns a favour token to the supply", owner=NAME)


# ---------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class OfferGift(Action):
    """Offer 1 resource card to a player with no more visible VP than you (F-EARN-4)."""

    to: int
    resource: Resource


@dataclass(frozen=True, slots=True)
class AcceptGift(Action):
    """The offered player accepts the gift; the giver earns a favour (F-EARN-4)."""


@dataclass(frozen=True, slots=True)
class RefuseGift(Action):
    """The offered player refuses; the giver may offer another player (F-EARN-5)."""


@dataclass(frozen=True, slots=True)
class UseMerchants(Action):
    """Merchants' guild (1 cart): swap 1 or 2 of your cards, each for another from the bank (F-GUILD-1)."""

    swaps: tuple[tuple[Resource, Resource], ...]


@dataclass(frozen=True, slots=True)
class UseTraders(Action):
    """Traders' guild (1 ship): take 1 resource card of your choice from the bank (F-GUILD-2)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class UsePavers(Action):
    """Pavers' guild (1 shovel): build 1 road free, following the road rules (F-GUILD-3)."""

    path: int


@dataclass(frozen=True, slots=True)
class UseProfessors(Action):
    """Professors' guild (2 books): take 1 development card free (F-GUILD-4).  ``card`` is the outcome."""

    card: DevCard | None = None


@dataclass(frozen=True, slots=True)
class UseArchitects(Action):
    """Architects' guild (2 compasses): take 1 Catan token, 1 visible VP (F-GUILD-5)."""


@dataclass(frozen=True, slots=True)
class ExchangeFavour(Action):
    """Draw 1 favour token from the supply, then return one (F-USE-6).  ``drawn`` is the outcome."""

    drawn: Guild | None = None


@dataclass(frozen=True, slots=True)
class ReturnFavour(Action):
    """Return one of your tokens to the supply, ending an exchange (F-USE-6)."""

    guild: Guild


# ---------------------------------------------------------------------------- helpers
def state(game) -> dict:
    return game.ext[NAME]


def draw_favour(game, player: int) -> Guild | None:
    """Give ``player`` one face-down token from the supply (F-EARN-1); None if it is empty."""
    st = state(game)
    supply = st["supply"]
    total = sum(supply)
    if total == 0:
        return None  # F-EARN-1 DECISION: no favours once the supply is empty
    g = game.draw_index(supply)
    supply[g] -= 1
    st["tokens"][player][g] += 1
    st["fresh"][player][g] += 1
    st["earned"][player] += 1
    return Guild(g)


def usable(game, player: int, guild: Guild) -> int:
    """Tokens of ``guild`` that ``player`` may use now (not received this turn: F-USE-4)."""
    st = state(game)
    return st["tokens"][player][guild.value] - st["fresh"][player][guild.value]


def districts(game, player: int) -> list[set[int]]:
    """A player's districts (F-EARN-6): the intersections of each connected group of pieces."""
    seen: set[int] = set()
    out = []
    nodes = set(game.road_nodes[player]) | {v for v, o in enumerate(game.node_owner) if o == player}
    for start in sorted(nodes):
        if start not in seen:
            comp = _district_nodes(game, player, start)
            seen |= comp
            out.append(comp)
    return out


def _district_nodes(game, player: int, start: int, skip_path: int = -1) -> set[int]:
    """Intersections of ``player``'s district containing ``start`` (optionally without one road)."""
    t = game.topology
    comp = {start}
    stack = [start]
    while stack:
        v = stack.pop()
        for e in t.node_edges[v]:
            if e != skip_path and game.edge_owner[e] == player:
                a, b = t.edge_nodes[e]
                w = b if a == v else a
                if w not in comp:
                    comp.add(w)
                    stack.append(w)
    return comp


def _has_piece(game, player: int, node: int, skip_path: int = -1) -> bool:
    if game.node_owner[node] == player:
        return True
    return any(e != skip_path and game.edge_owner[e] == player for e in game.topology.node_edges[node])


def _own_turn(game, action: Action, rule: str = "F-USE-1") -> None:
    if game.phase not in (Phase.ROLL, Phase.MAIN) or game.current_player != game.active_player:
        why = "the Special Building Phase" if game.phase is Phase.SPECIAL_BUILD else f"phase {game.phase.value}"
        if rule == "F-USE-1" and game.phase is Phase.SPECIAL_BUILD:
            rule = "F-USE-5"
        what = "a gift is offered" if rule == "F-EARN-4" else "favours are used"
        raise IllegalActionError(rule, f"{what} only in one's own turn, not in {why}", action)


def _check_use(game, action: Action, guild: Guild) -> None:
    _own_turn(game, action)
    st = state(game)
    p = game.active_player
    if st["used"]:
        raise IllegalActionError("F-USE-1", f"seat {p} has already used or exchanged a favour this turn", action)
    price = GUILD_PRICE[guild]
    have = st["tokens"][p][guild.value]
    if have < price:
        raise IllegalActionError("F-USE-3", f"the {guild} guild takes {price} {guild.token} token(s); seat {p} has {have}", action)
    if usable(game, p, guild) < price:
        raise IllegalActionError("F-USE-4", f"seat {p}'s {guild.token} token(s) arrived this turn and cannot be used yet", action)


def _pay_favour(game, guild: Guild) -> None:
    st = state(game)
    p = game.active_player
    price = GUILD_PRICE[guild]
    st["tokens"][p][guild.value] -= price
    st["board"][guild.value] += price  # F-USE-2: face up on the guild board, never back
    st["used"] = True


# ---------------------------------------------------------------------------- gift
def _check_offer_gift(game, a: OfferGift) -> None:
    _own_turn(game, a, rule="F-EARN-4")
    st = state(game)
    p = game.active_player
    if st["gift_given"]:
        raise IllegalActionError("F-EARN-5", f"seat {p} has already given a card this turn", a)
    if not 0 <= a.to < game.n or a.to == p:
        raise IllegalActionError("F-EARN-4", f"a gift goes to another seat, not {a.to!r}", a)
    if a.to in st["gift_refused"]:
        raise IllegalActionError("F-EARN-5", f"seat {a.to} has refused this turn's gift already", a)
    mine, theirs = game.vp(p, visible=True), game.vp(a.to, visible=True)
    if theirs > mine:
        raise IllegalActionError("F-EARN-4", f"seat {a.to} has {theirs} visible VP, more than seat {p}'s {mine}", a)
    if game.hands[p][a.resource.value] == 0:
        raise IllegalActionError("F-EARN-4", f"seat {p} holds no {a.resource} to give", a)


def _apply_offer_gift(game, a: OfferGift) -> None:
    game.push(GIFT_RESPONSE, a.to, (game.active_player, a.resource.value))
    game.log.append(a)


def _check_gift_answer(game, a: Action) -> None:
    if game.phase is not GIFT_RESPONSE:
        raise IllegalActionError("F-EARN-4", f"no gift is on offer (phase {game.phase.value})", a)


def _apply_accept_gift(game, a: AcceptGift) -> None:
    st = state(game)
    to = game.current_player
    giver, r = game.pop().data
    game.hands[giver][r] -= 1
    game.hands[to][r] += 1
    st["gift_given"] = True
    game.log.append(a)
    draw_favour(game, giver)  # F-EARN-4


def _apply_refuse_gift(game, a: RefuseGift) -> None:
    st = state(game)
    st["gift_refused"].append(game.current_player)  # F-EARN-5: it may go to another eligible player
    game.log.append(a)
    game.pop()


# ---------------------------------------------------------------------------- guilds
def _check_merchants(game, a: UseMerchants) -> None:
    _check_use(game, a, Guild.MERCHANTS)
    swaps = a.swaps
    if not isinstance(swaps, tuple) or not 1 <= len(swaps) <= 2:
        raise IllegalActionError("F-GUILD-1", f"the Merchants swap 1 or 2 cards, not {swaps!r}", a)
    hand = list(game.hands[game.active_player])
    bank = list(game.bank)
    for give, get in swaps:
        g, r = Resource.parse(give).value, Resource.parse(get).value
        if g == r:
            raise IllegalActionError("F-GUILD-1", f"a swap takes another resource than {Resource(g)}", a)
        if hand[g] == 0:
            raise IllegalActionError("F-GUILD-1", f"seat {game.active_player} has no {Resource(g)} to swap", a)
        if bank[r] == 0:
            raise IllegalActionError("F-GUILD-1", f"the bank has no {Resource(r)}", a)
        hand[g] -= 1
        bank[g] += 1
        hand[r] += 1
        bank[r] -= 1


def _apply_merchants(game, a: UseMerchants) -> None:
    _pay_favour(game, Guild.MERCHANTS)
    h = game.hands[game.active_player]
    for give, get in a.swaps:
        h[give.value] -= 1
        game.bank[give.value] += 1
        h[get.value] += 1
        game.bank[get.value] -= 1
    game.log.append(a)


def _check_traders(game, a: UseTraders) -> None:
    _check_use(game, a, Guild.TRADERS)
    r = Resource.parse(a.resource)
    if game.bank[r.value] == 0:
        raise IllegalActionError("F-GUILD-2", f"the bank has no {r}", a)


def _apply_traders(game, a: UseTraders) -> None:
    _pay_favour(game, Guild.TRADERS)
    game.bank[a.resource.value] -= 1
    game.hands[game.active_player][a.resource.value] += 1
    game.log.append(a)


def _check_pavers(game, a: UsePavers) -> None:
    _check_use(game, a, Guild.PAVERS)
    game.check_spot(a, game.active_player, "road", a.path)  # F-GUILD-3: the normal road rules


def _apply_pavers(game, a: UsePavers) -> None:
    _pay_favour(game, Guild.PAVERS)
    p = game.active_player
    game.log.append(a)
    game.place(p, "road", a.path)  # F-GUILD-3 free (B-BUILD-12); F-EARN-12: it counts for joins


def _check_professors(game, a: UseProfessors) -> None:
    _check_use(game, a, Guild.PROFESSORS)
    if not game.deck_size:
        raise IllegalActionError("B-COMP-13", "the development deck is empty", a)
    if a.card is not None and dev_state(game)["deck"][DevCard.parse(a.card).value] == 0:
        raise IllegalActionError("B-COMP-6", f"the deck holds no {a.card} card", a)


def _apply_professors(game, a: UseProfessors) -> None:
    _pay_favour(game, Guild.PROFESSORS)
    card = draw_dev(game, a.card)
    p = game.active_player
    give_dev(game, p, card)  # F-GUILD-4: the usual rules apply (B-TURN-5: new)
    game.log.append(UseProfessors(DevCard(card)))


def _check_architects(game, a: UseArchitects) -> None:
    _check_use(game, a, Guild.ARCHITECTS)
    if state(game)["catan_left"] == 0:
        raise IllegalActionError("F-GUILD-5", "all 12 Catan tokens are taken", a)


def _apply_architects(game, a: UseArchitects) -> None:
    _pay_favour(game, Guild.ARCHITECTS)
    st = state(game)
    st["catan_left"] -= 1
    st["catan_tokens"][game.active_player] += 1
    game.log.append(a)


def _check_exchange(game, a: ExchangeFavour) -> None:
    _own_turn(game, a)
    st = state(game)
    if st["used"]:
        raise IllegalActionError("F-USE-1", f"seat {game.active_player} has already used or exchanged a favour this turn", a)
    if not any(st["tokens"][game.active_player]):
        raise IllegalActionError("F-USE-6", f"seat {game.active_player} has no favour token to exchange", a)
    if sum(st["supply"]) == 0:
        raise IllegalActionError("F-USE-6", "the favour supply is empty", a)
    if a.drawn is not None and st["supply"][Guild.parse(a.drawn).value] == 0:
        raise IllegalActionError("F-USE-6", f"the supply holds no {Guild.parse(a.drawn).token} token", a)


def _apply_exchange(game, a: ExchangeFavour) -> None:
    st = state(game)
    p = game.active_player
    supply = st["supply"]
    g = game.draw_index(supply, None if a.drawn is None else Guild.parse(a.drawn).value)
    supply[g] -= 1
    st["tokens"][p][g] += 1
    st["fresh"][p][g] += 1
    st["used"] = True
    game.push(FAVOUR_EXCHANGE, p)
    game.log.append(ExchangeFavour(Guild(g)))


def _check_return(game, a: ReturnFavour) -> None:
    if game.phase is not FAVOUR_EXCHANGE:
        raise IllegalActionError("F-USE-6", f"no exchange is under way (phase {game.phase.value})", a)
    g = Guild.parse(a.guild)
    if state(game)["tokens"][game.active_player][g.value] == 0:
        raise IllegalActionError("F-USE-6", f"seat {game.active_player} holds no {g.token} token to return", a)


def _apply_return(game, a: ReturnFavour) -> None:
    st = state(game)
    p, g = game.active_player, a.guild.value
    st["tokens"][p][g] -= 1
    if st["fresh"][p][g] > st["tokens"][p][g]:
        st["fresh"][p][g] = st["tokens"][p][g]
    st["supply"][g] += 1
    game.pop()
    game.log.append(a)


# ---------------------------------------------------------------------------- module
_ACCEPT, _REFUSE, _ARCH = AcceptGift(), RefuseGift(), UseArchitects()
# The listed actions are values: shared, not built anew at every listing.
_gift = lru_cache(maxsize=None)(OfferGift)
_merchants = lru_cache(maxsize=None)(UseMerchants)
_traders = lru_cache(maxsize=None)(UseTraders)
_pavers = lru_cache(maxsize=4096)(UsePavers)
_return_favour = lru_cache(maxsize=None)(ReturnFavour)
_GUILDS = tuple(Guild)


@register
class Friends(Module):
    """F-*: favour tokens, the five guilds, Catan tokens and the 11 VP target."""

    name = NAME
    legal_in = ("gift_response", "favour_exchange", "roll", "main")
    actions = {
        OfferGift: (_check_offer_gift, _apply_offer_gift),
        AcceptGift: (_check_gift_answer, _apply_accept_gift),
        RefuseGift: (_check_gift_answer, _apply_refuse_gift),
        UseMerchants: (_check_merchants, _apply_merchants),
        UseTraders: (_check_traders, _apply_traders),
        UsePavers: (_check_pavers, _apply_pavers),
        UseProfessors: (_check_professors, _apply_professors),
        UseArchitects: (_check_architects, _apply_architects),
        ExchangeFavour: (_check_exchange, _apply_exchange),
        ReturnFavour: (_check_return, _apply_return),
    }

    def vp_target(self, game) -> int:
        return FRIENDS_VP_TO_WIN  # F-END-1

    def init(self, game) -> None:
        n = game.n
        supply = [0] * N_GUILDS
        for g, k in FAVOUR_SUPPLY[n].items():
            supply[g.value] = k
        game.ext[NAME] = {
            "supply": supply,
            "tokens": [[0] * N_GUILDS for _ in range(n)],
            "fresh": [[0] * N_GUILDS for _ in range(n)],
            "board": [0] * N_GUILDS,
            "catan_tokens": [0] * n,
            "catan_left": CATAN_TOKENS,
            "earned": [0] * n,
            "used": False,
            "gift_given": False,
            "gift_refused": [],
            "links": [],
        }

    def favour_total(self, game) -> int:
        """Favour tokens in the game for this player count (F-SETUP-2)."""
        return sum(FAVOUR_SUPPLY[game.n].values())

    def on_turn_start(self, game) -> None:
        st = state(game)
        st["used"] = False
        st["gift_given"] = False
        st["gift_refused"] = []
        st["fresh"] = [[0] * N_GUILDS for _ in range(game.n)]  # F-USE-4: usable from now on

    def vp(self, game, player: int, visible: bool) -> int:
        return state(game)["catan_tokens"][player]  # F-GUILD-5: visible VP

    def on_robber(self, game, action) -> None:
        t = game.topology
        mover = game.active_player
        occupied = any(game.node_owner[v] >= 0 for v in t.hex_nodes[action.hex])
        if not occupied:
            draw_favour(game, mover)  # F-EARN-2 (the desert counts)
        elif game.hex_terrain[action.hex] is Terrain.DESERT and action.victim is None:
            draw_favour(game, mover)  # F-EARN-3

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        if founding or kind != "road":
            return  # F-EARN-10; F-EARN-12: every road counts
        joined = joins(game, player, site)
        if joined:
            draw_favour(game, player)  # F-EARN-7, F-EARN-9: 3 for the builder, once per road
            draw_favour(game, player)
            draw_favour(game, player)
            for q in joined:
                draw_favour(game, q)

    def on_remove(self, game, player: int, kind: str, site: int) -> None:
        if game.kinds[game.kind_id[kind]].site == "path":
            _keep_joins(game, player, site)  # F-EARN-8, F-EARN-11: a lifted road's joins stay made

    def legal(self, game, out: list) -> None:
        st = state(game)
        ph = game.phase
        if ph is GIFT_RESPONSE:
            out.extend((_ACCEPT, _REFUSE))
            return
        if ph is FAVOUR_EXCHANGE:
            p = game.active_player
            out.extend([_return_favour(_GUILDS[g]) for g in range(N_GUILDS) if st["tokens"][p][g]])
            return
        if ph not in (Phase.ROLL, Phase.MAIN) or game.current_player != game.active_player:
            return
        p = game.active_player
        hand = game.hands[p]
        if not st["gift_given"]:
            mine = game.vp(p, visible=True)
            for q in range(game.n):
                if q != p and q not in st["gift_refused"] and game.vp(q, visible=True) <= mine:
                    out.extend([_gift(q, RESOURCES[r]) for r in range(5) if hand[r]])
        if st["used"]:
            return
        if usable(game, p, Guild.MERCHANTS) >= 1:
            bank = game.bank
            out.extend([_merchants(((RESOURCES[g], RESOURCES[r]),)) for g in range(5) if hand[g]
                        for r in range(5) if r != g and bank[r]])
        if usable(game, p, Guild.TRADERS) >= 1:
            out.extend([_traders(RESOURCES[r]) for r in range(5) if game.bank[r]])
        if usable(game, p, Guild.PAVERS) >= 1 and game.pieces_left(p)["road"] > 0:
            out.extend([_pavers(e) for e in game.candidates(p, "road")])
        if usable(game, p, Guild.PROFESSORS) >= 2 and game.deck_size:
            out.append(UseProfessors())
        if usable(game, p, Guild.ARCHITECTS) >= 2 and st["catan_left"]:
            out.append(_ARCH)
        if sum(st["supply"]) and any(st["tokens"][p]):
            out.append(ExchangeFavour())


def _anchor(game, owner: int, district: set[int]) -> int:
    """An intersection that stays in ``owner``'s ``district`` whatever happens later: one of its
    buildings (buildings never leave the board; districts only grow, F-EARN-6), else its least node."""
    kinds = game.kinds
    return min((v for v in district if game.node_owner[v] == owner and kinds[game.node_kind[v]].building),
               default=min(district))


def _keep_joins(game, player: int, path: int) -> None:
    """Record the joins the path piece just lifted from ``path`` made (F-EARN-8, F-EARN-11): each
    other seat's district at one of its ends, with the district of ``player`` left at an end."""
    t = game.topology
    ends = t.edge_nodes[path]
    mine = [_district_nodes(game, player, x) for x in ends if _has_piece(game, player, x)]
    if not mine:
        return
    links = state(game)["links"]
    for w in ends:
        for q in range(game.n):
            if q != player and _has_piece(game, q, w):
                b = _anchor(game, q, _district_nodes(game, q, w))
                for district in mine:
                    link = [player, _anchor(game, player, district), q, b]
                    if link not in links:
                        links.append(link)


def _linked(links: list, p: int, mine: set[int], q: int, theirs: set[int]) -> bool:
    """Whether a lifted road had joined these two districts (see :func:`_keep_joins`)."""
    return any((a == p and c == q and x in mine and y in theirs) or (a == q and c == p and x in theirs and y in mine)
               for a, x, c, y in links)


def joins(game, player: int, path: int) -> list[int]:
    """Other seats whose district the new road ``path`` joins to ``player``'s for the first time.

    F-EARN-11: districts A and B are joined when some intersection holds a piece of
    each; the join counts only if, just before the road, A and B shared none.  A is
    the builder's district the road belongs to, as it stood just before: the union of
    the districts it connects (a road merging two of them, one already joined to B,
    joins nothing new).  DECISION (docs/friends.md): districts that a road lifted by
    the Explorer had joined stay joined (F-EARN-8), so a moved road is judged as it
    stood before it was lifted and moving it back and forth earns nothing.
    """
    t = game.topology
    u, v = t.edge_nodes[path]
    before: set[int] = set()
    for w in (u, v):
        if _has_piece(game, player, w, skip_path=path):
            before |= _district_nodes(game, player, w, skip_path=path)
    joined: list[int] = []
    seen: list[set[int]] = []
    links = state(game)["links"]
    for w in (u, v):
        for q in range(game.n):
            if q == player or not _has_piece(game, q, w):
                continue
            district = _district_nodes(game, q, w)
            if any(district == d for d in seen):
                continue
            seen.append(district)
            if district & before or q in joined or (links and _linked(links, player, before, q, district)):
                continue
            joined.append(q)
    # F-EARN-9: the other owners draw in turn order from the builder (see the module docstring).
    return sorted(joined, key=lambda q: (q - player) % game.n)

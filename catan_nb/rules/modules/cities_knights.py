"""Cities & Knights (RULES.md section 17), as a rule module.

The founding with a city in the second round (CK-SETUP-1, through the ``founding_building`` hook),
the components and commodities (CK-COMP-1, CK-COM-1..3), city improvements with their level-3
abilities and the metropolises (CK-IMP-1..5), knights (CK-KN-1..7), the event die and the barbarians
(CK-BAR-1..4), progress-card draws with the hand limit (CK-PROG-1..3), every progress card
(CK-PC-1..24), city walls (CK-WALL-1), the merchant (CK-MER-1), the 13 VP target (CK-VP-1) and the
rules with Seafarers (CK-SF-1: the scenario's target + 2; a city on a gold field picks resources
only, and a gold pick is income for the Aqueduct; no merchant on gold).
``Rules(metropolis_counts_double=True)`` counts a metropolis city twice toward the barbarians
(A-42).  The module replaces the development deck and the Largest Army (CK-COMP-1).  A played
progress card goes under its deck (DECISION).

Dice: the first number die is the red one (CK-IMP-2 numbers, CK-PROG-1), the third die is the
event die: faces 1-3 a ship, 4 the yellow (trade) city gate, 5 the blue (politics), 6 the green
(science) (CK-COMP-1: three ship faces and three gates).  The barbarians and the progress draws are
resolved before production (CK-BAR-4).

Decisions on the stack: a player who loses a city to the barbarians chooses which (CK-BAR-2); a
tied Defender draws a progress card of a chosen colour (CK-BAR-3); a displaced knight's owner
moves it (CK-KN-6); a player over 4 progress cards gives one back (CK-PROG-2); the Aqueduct's
resource (CK-IMP-3); the first to level 4 chooses the city for the metropolis (CK-IMP-4); the
progress cards' victims and choices: Deserter (CK-PC-12), Diplomat (CK-PC-13), Wedding (CK-PC-18),
Commercial Harbor (CK-PC-19), Spy (CK-PC-16) and Master Merchant (CK-PC-20), Road Building (CK-PC-9).

DECISIONS (where the spec is silent, listed in ``docs/cities_knights.md``): improvements need at
least one city on the board (the printed charts sit beside cities); a metropolis goes on one of the
player's cities without one; a knight moves along the owner's connected roads to a free
intersection; the robber cannot move until the first attack, so a 7 before it only makes players
discard (CK-BAR-4 recalled); a progress card over the limit is returned to the bottom of its deck;
a pillaged city whose owner has no settlement left in supply is razed (B-COMP-9 holds); the
Bishop waits for the first attack like the robber (the pirate too); an open road (Diplomat) has
nothing of its owner's at one end; a deserter acts from the next turn, like a knight activated this
turn by ``ActivateKnight`` or the Warlord (CK-KN-5); the Smith's promotions count toward one level
per knight per turn (CK-KN-2); an untaken metropolis waits for the next to reach level 4 or 5; the
merchant needs a resource hex; with Seafarers, a board with no target keeps 13.

State in ``game.ext["cities_knights"]`` (plain data): ``levels`` per seat and track; ``metropolis``
per track (``[seat, node]`` or ``None``); ``walls`` per seat; ``knights`` as ``[node, seat, level,
active, fresh, promoted]`` rows sorted by node (``fresh``: activated this turn, CK-KN-5; ``promoted``:
promoted this turn, CK-KN-2); ``barbarians`` (steps on the track) and ``attacks``;
``defender`` cards per seat and ``defender_left``; the three progress ``decks`` (face down) and each
seat's progress ``hand``; ``vp_cards`` played face up per seat; ``merchant`` (``[seat, hex]`` or
``None``); this turn's ``crane`` seat, Merchant ``fleet`` goods and ``harbored`` seats; while a
decision needs them, ``deserter`` (the removed knight's level and state), ``looked`` (the hand the
Master Merchant sees), ``displaced`` (a knight waiting to retreat).

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
>>> g.vp_target, [str(x) for x in g.goods[5:]], len(g.dice_history)
(13, ['cloth', 'coin', 'paper'], 0)
>>> [len(d) for d in g.ext["cities_knights"]["decks"]]
[18, 18, 18]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...constants import Commodity, Good, NamedEnum, Resource, Terrain
from ...errors import IllegalActionError
from ..actions import Action, EndRoadBuilding
from ..phase import Phase
from ..pieces import PieceKind
from . import Module, copy_plain, deal_again, register
from .development import ROAD_BUILDING
from .robber import DISCARD

__all__ = ["CitiesKnights", "Track", "PlayProgress", "PlayProgressGood", "PlayProgressNode", "PlaySmith", "HireKnight", "PromoteKnight", "ActivateKnight", "MoveKnight", "DisplaceKnight",
           "ChaseRobber", "RetreatKnight", "ImproveCity", "BuildWall", "ChooseMetropolis", "LoseCity", "TakeAqueduct",
           "DrawProgress", "ReturnProgress", "KNIGHT", "WALL_COST", "barbarian_strength", "catan_strength", "knights",
           "improvement_cost", "NAME", "PlayAlchemist", "PlayInventor", "PlayBishop", "PlayDeserter", "RemoveKnight",
           "PlaceDeserter", "PlayDiplomat", "PlayIntrigue", "PlaySpy", "SpyTake", "PlayMasterMerchant", "TakeGoods",
           "PlayMerchant", "GiveGoods", "HarborOffer", "HarborReply", "open_roads", "progress_numbers",
           "aqueduct_seats"]

NAME = "cities_knights"


class Track(NamedEnum):
    """The three improvement tracks (CK-COM-3) and the colour of their city gate and progress deck."""

    TRADE = 0     # yellow, cloth
    POLITICS = 1  # blue, coin
    SCIENCE = 2   # green, paper


TRACKS: tuple[Track, ...] = (Track.TRADE, Track.POLITICS, Track.SCIENCE)
_TRADE_TRACK = TRACKS.index(Track.TRADE)
#: CK-COM-3: the commodity that pays for each track.
TRACK_COMMODITY = {Track.TRADE: Commodity.CLOTH, Track.POLITICS: Commodity.COIN, Track.SCIENCE: Commodity.PAPER}
TRACK_COLOUR = {Track.TRADE: "yellow", Track.POLITICS: "blue", Track.SCIENCE: "green"}
#: CK-COMP-1: 12 cards of each commodity.
COMMODITY_CARDS = 12
#: CK-IMP-1: levels 1..5.
MAX_LEVEL = 5
#: CK-IMP-3: the level whose ability opens (Trading House, Fortress, Aqueduct); CK-IMP-4, CK-IMP-5.
ABILITY_LEVEL, METROPOLIS_LEVEL = 3, 4
METROPOLIS_VP = 2
#: CK-KN-1, CK-KN-2, CK-KN-4.
KNIGHT_COST = {"ore": 1, "wool": 1}
ACTIVATE_COST = {"grain": 1}
KNIGHTS_PER_LEVEL = 2
KNIGHT_LEVELS = (1, 2, 3)  # basic, strong, mighty (strength = level)
#: CK-WALL-1.
WALL_COST = {"brick": 2}
WALLS_PER_PLAYER = 3
WALL_HAND_BONUS = 2
#: CK-BAR-4 (recalled): the barbarians' track is 7 steps long.
BARBARIAN_TRACK = 7
#: CK-COMP-1: 6 Defender of Catan cards, 1 VP each (CK-BAR-3).
DEFENDER_CARDS = 6
#: CK-PROG-2: progress cards a hand may hold (VP cards aside).
PROGRESS_LIMIT = 4
#: CK-VP-1, CK-SF-1.
VP_TARGET, SEAFARERS_BONUS = 13, 2
#: CK-COMP-1: the event die's faces: three ships, then the yellow, blue and green gates.
EVENT_FACES = {1: None, 2: None, 3: None, 4: Track.TRADE, 5: Track.POLITICS, 6: Track.SCIENCE}
#: CK-PROG-3: each deck's composition (card name: count).
DECKS = {
    Track.SCIENCE: {"alchemist": 2, "crane": 2, "engineer": 1, "inventor": 2, "irrigation": 2, "medicine": 2,
                    "mining": 2, "printer": 1, "road_building": 2, "smith": 2},
    Track.POLITICS: {"bishop": 2, "constitution": 1, "deserter": 2, "diplomat": 2, "intrigue": 2, "saboteur": 2,
                     "spy": 3, "warlord": 2, "wedding": 2},
    Track.TRADE: {"commercial_harbor": 2, "master_merchant": 2, "merchant": 6, "merchant_fleet": 2,
                  "resource_monopoly": 4, "trade_monopoly": 2},
}
#: CK-PC-8: played face up at once, 1 VP each.
VP_PROGRESS = ("printer", "constitution")
#: CK-PROG-3: the deck (track) each progress card belongs to, read from :data:`DECKS`.
CARD_TRACK = {card: track for track, deck in DECKS.items() for card in deck}
#: CK-COM-2: what a city collects (a settlement collects as in the base game).
CITY_YIELDS = {
    Terrain.FOREST: ((Resource.LUMBER, 1), (Commodity.PAPER, 1)),
    Terrain.PASTURE: ((Resource.WOOL, 1), (Commodity.CLOTH, 1)),
    Terrain.MOUNTAINS: ((Resource.ORE, 1), (Commodity.COIN, 1)),
    Terrain.FIELDS: ((Resource.GRAIN, 2),),
    Terrain.HILLS: ((Resource.BRICK, 2),),
}

#: CK-KN-1, CK-KN-7: a knight stands on an intersection and blocks opponents' roads and trails.
KNIGHT = PieceKind("knight", "node", limit=KNIGHTS_PER_LEVEL * len(KNIGHT_LEVELS), cost=KNIGHT_COST, blocks=True,
                   owner=NAME)

# ------------------------------------------------------------------------------------------ phases
LOSE_CITY = Phase.register("lose_city", "{player} loses a city to the barbarians (CK-BAR-2)", owner=NAME)
DEFENDER_DRAW = Phase.register("defender_draw", "{player} draws a progress card for defending Catan (CK-BAR-3)", owner=NAME)
RETREAT = Phase.register("knight_retreat", "{player} moves their displaced knight (CK-KN-6)", owner=NAME)
RETURN_PROGRESS = Phase.register("return_progress", "{player} holds 5 progress cards and returns one (CK-PROG-2)",
                                 owner=NAME)
AQUEDUCT = Phase.register("aqueduct", "{player} takes a resource from the Aqueduct (CK-IMP-3)", owner=NAME)
METROPOLIS = Phase.register("metropolis", "{player} chooses the city for a metropolis (CK-IMP-4)", owner=NAME)
DESERTER = Phase.register("deserter", "{player} removes a knight for the Deserter (CK-PC-12)", owner=NAME)
DESERTER_PLACE = Phase.register("deserter_place", "{player} may place the deserter as their knight (CK-PC-12)",
                                owner=NAME)
DIPLOMAT_ROAD = Phase.register("diplomat_road", "{player} may place the removed road again, free (CK-PC-13)",
                               free=("road",), owner=NAME)
WEDDING = Phase.register("wedding", "{player} gives wedding presents (CK-PC-18)", owner=NAME)
HARBOR_OFFER = Phase.register("harbor_offer", "{player} offers the next opponent a resource (CK-PC-19)", owner=NAME)
SPY = Phase.register("spy", "{player} looks at a hand of progress cards and takes one (CK-PC-16)", owner=NAME)
MASTER_MERCHANT = Phase.register("master_merchant", "{player} looks at a hand and takes 2 cards (CK-PC-20)",
                                 owner=NAME)
HARBOR_REPLY = Phase.register("harbor_reply", "{player} gives a commodity in return (CK-PC-19)", owner=NAME)


# ----------------------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class HireKnight(Action):
    """Hire a basic knight on a free intersection on your roads (CK-KN-1): 1 ore + 1 wool."""

    node: int


@dataclass(frozen=True, slots=True)
class PromoteKnight(Action):
    """Promote your knight one level (CK-KN-2, CK-KN-3): 1 ore + 1 wool."""

    node: int


@dataclass(frozen=True, slots=True)
class ActivateKnight(Action):
    """Activate your knight (CK-KN-4): 1 grain."""

    node: int


@dataclass(frozen=True, slots=True)
class MoveKnight(Action):
    """Move your active knight along your roads to a free intersection (CK-KN-5)."""

    from_node: int
    to_node: int


@dataclass(frozen=True, slots=True)
class DisplaceKnight(Action):
    """Move your active knight onto an opponent's weaker knight, which must retreat (CK-KN-5, CK-KN-6)."""

    from_node: int
    to_node: int


@dataclass(frozen=True, slots=True)
class ChaseRobber(Action):
    """Chase the robber off a hex next to your active knight (CK-KN-5), then move it (and maybe steal).

    ``stolen`` is the outcome, filled in when played."""

    node: int
    hex: int
    to_hex: int
    victim: int | None = None
    stolen: Good | None = None


@dataclass(frozen=True, slots=True)
class RetreatKnight(Action):
    """Move your displaced knight to a free intersection connected to it (CK-KN-6); ``None``: none left."""

    to_node: int | None


@dataclass(frozen=True, slots=True)
class ImproveCity(Action):
    """Raise one improvement track a level (CK-IMP-1): level n costs n of its commodity."""

    track: Track


@dataclass(frozen=True, slots=True)
class BuildWall(Action):
    """Build a city wall under one of your cities (CK-WALL-1): 2 brick."""

    node: int


@dataclass(frozen=True, slots=True)
class ChooseMetropolis(Action):
    """Put your new metropolis on one of your cities (CK-IMP-4)."""

    node: int


@dataclass(frozen=True, slots=True)
class LoseCity(Action):
    """Choose the city the barbarians pillage (CK-BAR-2): it becomes a settlement."""

    node: int


@dataclass(frozen=True, slots=True)
class TakeAqueduct(Action):
    """Take one resource of your choice: you received nothing on this roll (CK-IMP-3, Aqueduct)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class DrawProgress(Action):
    """Draw the top progress card of a chosen colour for defending Catan in a tie (CK-BAR-3)."""

    track: Track


@dataclass(frozen=True, slots=True)
class ReturnProgress(Action):
    """Give back one progress card over the limit of 4 (CK-PROG-2)."""

    card: str


@dataclass(frozen=True, slots=True)
class PlayProgress(Action):
    """Play a progress card with no target after the roll: Irrigation (CK-PC-5), Mining (CK-PC-6),
    Warlord (CK-PC-17)."""

    card: str


@dataclass(frozen=True, slots=True)
class PlayProgressGood(Action):
    """Play Resource Monopoly (CK-PC-23) naming a resource, or Trade Monopoly (CK-PC-24) naming a commodity."""

    card: str
    good: Good


@dataclass(frozen=True, slots=True)
class PlayProgressNode(Action):
    """Play Engineer (a free wall under the city on ``node``, CK-PC-3) or Medicine (the settlement on
    ``node`` becomes a city for 2 ore + 1 grain, CK-PC-7)."""

    card: str
    node: int


@dataclass(frozen=True, slots=True)
class PlaySmith(Action):
    """Play Smith: promote up to 2 of your knights one level each, free (CK-PC-10)."""

    nodes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayAlchemist(Action):
    """Before the roll, set both number dice (``red`` first), even to 7; the event die is then rolled
    and resolved first (CK-PC-1).  ``event`` is the event die's outcome, filled in when played."""

    red: int
    yellow: int
    event: int | None = None


@dataclass(frozen=True, slots=True)
class PlayInventor(Action):
    """Swap the number tokens of two hexes; never a 2, 6, 8 or 12 (CK-PC-4)."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class PlayBishop(Action):
    """Move the robber to ``hex`` and take 1 random card from each opponent with a building there
    (CK-PC-11).  ``stolen`` is the outcome (one good per victim, by seat), filled in when played."""

    hex: int
    stolen: tuple[Good, ...] | None = None


@dataclass(frozen=True, slots=True)
class PlayDeserter(Action):
    """Make ``victim`` remove one of their knights; you may place one like it (CK-PC-12)."""

    victim: int


@dataclass(frozen=True, slots=True)
class PlayDiplomat(Action):
    """Remove an open road (nothing of its owner's at one end); your own you may place again (CK-PC-13)."""

    path: int


@dataclass(frozen=True, slots=True)
class PlayIntrigue(Action):
    """Displace the opponent's knight on ``node``, an intersection on your roads or ships (CK-PC-14)."""

    node: int


@dataclass(frozen=True, slots=True)
class PlaySpy(Action):
    """Look at ``victim``'s progress cards, then take one (:class:`SpyTake`) (CK-PC-16)."""

    victim: int


@dataclass(frozen=True, slots=True)
class SpyTake(Action):
    """Take the progress card ``card`` from the hand your Spy looks at (CK-PC-16)."""

    card: str


@dataclass(frozen=True, slots=True)
class PlayMasterMerchant(Action):
    """Look at the resources and commodities of ``victim``, a player with more VP, then take 2
    (:class:`TakeGoods`) (CK-PC-20)."""

    victim: int


@dataclass(frozen=True, slots=True)
class TakeGoods(Action):
    """Take the cards your Master Merchant chose (``cards``: counts per good) (CK-PC-20)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayMerchant(Action):
    """Put the merchant on a land hex next to one of your buildings and take control of it
    (CK-PC-21, CK-MER-1)."""

    hex: int


@dataclass(frozen=True, slots=True)
class RemoveKnight(Action):
    """Remove one of your knights for an opponent's Deserter (CK-PC-12)."""

    node: int


@dataclass(frozen=True, slots=True)
class PlaceDeserter(Action):
    """Place the deserter as your knight on ``node`` (its strength and state), or ``None`` (CK-PC-12)."""

    node: int | None


@dataclass(frozen=True, slots=True)
class GiveGoods(Action):
    """Give the Wedding's host cards of your choice (``cards``: counts per good) (CK-PC-18)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HarborOffer(Action):
    """Commercial Harbor: give the next opponent one resource (CK-PC-19)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class HarborReply(Action):
    """Commercial Harbor: give one commodity of your choice in return (CK-PC-19)."""

    commodity: Commodity


# ------------------------------------------------------------------------------------------ helpers
#: How :meth:`CitiesKnights.copy_state` copies the state's entries: lists of atoms (or a row), lists of
#: rows of atoms (or of ``None``), atoms (shared); any other by :func:`~catan_nb.rules.modules.copy_plain`.
_COPY_FLAT = ("defender", "harbored", "merchant")
_COPY_ROWS = ("levels", "metropolis", "walls", "knights", "decks", "hands", "vp_cards", "fleet")
_COPY_KNOWN = frozenset(_COPY_FLAT + _COPY_ROWS + ("barbarians", "attacks", "defender_left", "crane", "last_attack"))
_ATOM, _FLAT, _ROWS, _RECORD = range(4)
#: The entries of the state between attacks, and after one (``last_attack``).
_USUAL = frozenset(_COPY_KNOWN - {"last_attack"})
_USUAL_ATTACKED = _COPY_KNOWN
#: How each known entry is copied (by :meth:`CitiesKnights.copy_state`).
_COPY_HOW = {**dict.fromkeys(("barbarians", "attacks", "defender_left", "crane"), _ATOM),
             **dict.fromkeys(_COPY_FLAT, _FLAT), **dict.fromkeys(_COPY_ROWS, _ROWS), "last_attack": _RECORD}
_ATOMS = frozenset({str, int, float, bool, type(None)})
_copy_list = list.copy


def _st(game) -> dict:
    return game.ext[NAME]


def knights(game, player: int | None = None) -> list[list]:
    """Knights on the board as ``[node, seat, level, active, fresh, promoted]`` rows (of one seat if given)."""
    rows = _st(game)["knights"]
    return [r for r in rows if player is None or r[1] == player]


def _knight_at(game, node: int) -> list | None:
    for r in _st(game)["knights"]:
        if r[0] == node:
            return r
    return None


def _count(game, player: int, level: int) -> int:
    return sum(1 for r in _st(game)["knights"] if r[1] == player and r[2] == level)


def catan_strength(game, player: int | None = None) -> int:
    """CK-BAR-1: fleur-de-lis of the active knights (of one seat if given)."""
    rows = game.ext[NAME]["knights"]
    if player is None:
        return sum([r[2] for r in rows if r[3]])
    return sum([r[2] for r in rows if r[3] and r[1] == player])


def barbarian_strength(game) -> int:
    """CK-BAR-1: the cities on the board; a city with a metropolis counts once (DECISION, A-42), or
    twice with ``Rules(metropolis_counts_double=True)``."""
    cities = sum(map(len, game.placed[game.kind_id["city"]]))  # a set per seat
    if game.rules.metropolis_counts_double:
        cities += len(_metropolis_nodes(game))
    return cities


def improvement_cost(game, player: int, track: Track) -> tuple[int, ...]:
    """CK-IMP-1: the next level of ``track`` costs that many of its commodity."""
    st = _st(game)
    level = st["levels"][player][TRACKS.index(track)] + 1
    cost = [0] * game.n_goods
    cost[game.good_index(TRACK_COMMODITY[track])] = level - (st["crane"] == player)  # CK-PC-2: the Crane
    return tuple(cost)


def _metropolis_nodes(game) -> set[int]:
    return {m[1] for m in _st(game)["metropolis"] if m is not None}


def _gold_picks(game, total: int) -> dict[int, int]:
    """SF-1: the gold picks each seat is owed for a roll of ``total`` (none without gold fields)."""
    from .gold_fields import NAME as GOLD, gold_owed

    if not any(m.name == GOLD for m in game.modules):
        return {}
    return gold_owed(game, total)


def progress_numbers(level: int) -> range:
    """CK-IMP-2: the red-die numbers that draw a progress card at improvement ``level`` (none at 0).

    CK-PROG-1 draws a card of a track's colour when the event die shows its gate and the red die
    shows one of these numbers (A-33: red die <= level + 1).

    Examples
    --------
    >>> list(progress_numbers(0)), list(progress_numbers(2)), list(progress_numbers(MAX_LEVEL))
    ([], [1, 2, 3], [1, 2, 3, 4, 5, 6])
    """
    return range(1, level + 2) if level > 0 else range(0)


def aqueduct_seats(game, total: int) -> list[int]:
    """CK-IMP-3: the seats the Aqueduct pays once a roll of ``total`` has produced.

    A seat with science level ``ABILITY_LEVEL`` or more that received nothing from the roll: no card
    (:attr:`~catan_nb.rules.game.Game.last_production`) and no gold pick (SF-1, CK-SF-1).  Never on a
    7, and only while the bank holds a resource to give (B-COMP-14).
    """
    if total == 7 or not any(game.bank[r.value] for r in Resource):
        return []
    st, got = _st(game), game.last_production
    i = TRACKS.index(Track.SCIENCE)
    picks = _gold_picks(game, total)  # SF-1: a gold pick is something received
    return [q for q in range(game.n)
            if st["levels"][q][i] >= ABILITY_LEVEL and not any(got.get(q, ())) and not picks.get(q)]


def _cities(game, player: int) -> list[int]:
    return sorted(game.placed[game.kind_id["city"]][player])


def _connected(game, player: int, start: int) -> set[int]:
    """Intersections joined to ``start`` by ``player``'s roads and ships (CK-KN-5, CK-KN-6)."""
    t = game.topology
    seen, todo = {start}, [start]
    while todo:
        v = todo.pop()
        for e in t.node_edges[v]:
            if game.edge_owner[e] != player:
                continue
            for w in t.edge_nodes[e]:
                if w not in seen:
                    seen.add(w)
                    if w == start or game.node_owner[w] < 0 or game.node_owner[w] == player:
                        todo.append(w)
    return seen


def _free_on_roads(game, player: int, start: int) -> list[int]:
    return sorted(v for v in _connected(game, player, start) if game.node_owner[v] < 0 and game.topology.node_land[v])


def _recount_near(game, *nodes: int) -> None:
    """A knight came or went at ``nodes`` (CK-KN-7): recount the trails of the players whose roads meet there."""
    t = game.topology
    players = {game.edge_owner[e] for v in nodes if v is not None for e in t.node_edges[v]} - {-1}
    if players:
        game.update_longest_road(sorted(players), broken=True)


def _cost(game, by_name: dict) -> tuple[int, ...]:
    """A cost by good name as counts per good of ``game`` (converted once per cost and set of goods)."""
    key = (tuple(by_name.items()), game.goods)
    out = _COSTS.get(key)
    if out is None:
        counts = [0] * game.n_goods
        for name, k in by_name.items():
            counts[game.good_index(name)] += k
        out = _COSTS[key] = tuple(counts)
    return out


_COSTS: dict = {}


def _require_own_knight(game, a, node: int, rule: str) -> list:
    game.check_node(a, node)
    row = _knight_at(game, node)
    if row is None or row[1] != game.current_player:
        raise IllegalActionError(rule, f"intersection {node} holds no knight of seat {game.current_player}", a)
    return row


# ----------------------------------------------------------------------------------- knight actions
def _check_hire(game, a: HireKnight) -> None:
    p = game.current_player
    game.require_build_phase(a)
    game.check_node(a, a.node)
    if _count(game, p, 1) >= KNIGHTS_PER_LEVEL:
        raise IllegalActionError("CK-KN-2", f"seat {p} already has {KNIGHTS_PER_LEVEL} basic knights", a)
    if a.node not in game.candidates(p, "knight"):
        raise IllegalActionError("CK-KN-1", f"a knight goes on a free intersection on seat {p}'s roads; {a.node} is not one", a)
    game.require_cost(a, p, _cost(game, KNIGHT_COST), "a knight")


def _apply_hire(game, a: HireKnight) -> None:
    p = game.current_player
    game.pay(p, _cost(game, KNIGHT_COST))
    game.built_this_turn = True
    game.log.append(a)
    game.place(p, "knight", a.node)
    _st(game)["knights"].append([a.node, p, 1, False, False, False])
    _st(game)["knights"].sort()


def _check_promote(game, a: PromoteKnight) -> None:
    p = game.current_player
    game.require_build_phase(a)
    row = _require_own_knight(game, a, a.node, "CK-KN-2")
    if row[5]:
        raise IllegalActionError("CK-KN-2", f"the knight on {a.node} was promoted this turn already", a)
    if row[2] >= 3:
        raise IllegalActionError("CK-KN-2", f"the knight on {a.node} is mighty: it cannot be promoted", a)
    if row[2] == 2 and _st(game)["levels"][p][TRACKS.index(Track.POLITICS)] < ABILITY_LEVEL:
        raise IllegalActionError("CK-KN-3", f"seat {p} needs the Fortress (politics level 3) for a mighty knight", a)
    if _count(game, p, row[2] + 1) >= KNIGHTS_PER_LEVEL:
        raise IllegalActionError("CK-KN-2", f"seat {p} already has {KNIGHTS_PER_LEVEL} knights of level {row[2] + 1}", a)
    game.require_cost(a, p, _cost(game, KNIGHT_COST), "a promotion")


def _apply_promote(game, a: PromoteKnight) -> None:
    p = game.current_player
    game.pay(p, _cost(game, KNIGHT_COST))
    game.built_this_turn = True
    row = _knight_at(game, a.node)
    row[2] += 1
    row[5] = True
    game.log.append(a)


def _check_activate(game, a: ActivateKnight) -> None:
    p = game.current_player
    game.require_build_phase(a)
    row = _require_own_knight(game, a, a.node, "CK-KN-4")
    if row[3]:
        raise IllegalActionError("CK-KN-4", f"the knight on {a.node} is active already", a)
    game.require_cost(a, p, _cost(game, ACTIVATE_COST), "activating a knight")


def _apply_activate(game, a: ActivateKnight) -> None:
    p = game.current_player
    game.pay(p, _cost(game, ACTIVATE_COST))
    row = _knight_at(game, a.node)
    row[3] = True
    row[4] = True  # CK-KN-5: activated this turn, it cannot act this turn
    game.log.append(a)


def _require_ready(game, a, node: int) -> list:
    game.require_phase(a, Phase.MAIN, rule="CK-KN-5")
    row = _require_own_knight(game, a, node, "CK-KN-5")
    if not row[3]:
        raise IllegalActionError("CK-KN-5", f"the knight on {node} is not active: only active knights act", a)
    if row[4]:
        raise IllegalActionError("CK-KN-5", f"the knight on {node} was activated this turn: it acts from the next turn", a)
    return row


def _check_move_knight(game, a: MoveKnight) -> None:
    _require_ready(game, a, a.from_node)
    game.check_node(a, a.to_node)
    if a.to_node not in _free_on_roads(game, game.current_player, a.from_node):
        raise IllegalActionError("CK-KN-5", f"a knight moves along its owner's roads to a free intersection; "
                                 f"{a.to_node} is not one", a)


def _apply_move_knight(game, a: MoveKnight) -> None:
    p = game.current_player
    row = _knight_at(game, a.from_node)
    game.remove("knight", a.from_node)
    game.place(p, "knight", a.to_node)
    row[0], row[3] = a.to_node, False  # CK-KN-5: any action makes it inactive
    _st(game)["knights"].sort()
    _recount_near(game, a.from_node, a.to_node)
    game.log.append(a)


def _check_displace(game, a: DisplaceKnight) -> None:
    row = _require_ready(game, a, a.from_node)
    game.check_node(a, a.to_node)
    other = _knight_at(game, a.to_node)
    if other is None or other[1] == game.current_player:
        raise IllegalActionError("CK-KN-5", f"intersection {a.to_node} holds no opponent's knight", a)
    if other[2] >= row[2]:
        raise IllegalActionError("CK-KN-5", f"the knight on {a.to_node} (level {other[2]}) is not weaker than "
                                 f"yours (level {row[2]})", a)
    if a.to_node not in _connected(game, game.current_player, a.from_node):
        raise IllegalActionError("CK-KN-5", f"intersection {a.to_node} is not on your roads from {a.from_node}", a)


def _apply_displace(game, a: DisplaceKnight) -> None:
    p = game.current_player
    st = _st(game)
    row = _knight_at(game, a.from_node)
    other = _knight_at(game, a.to_node)
    q = other[1]
    game.remove("knight", a.to_node)
    st["knights"].remove(other)
    st["displaced"] = other
    game.remove("knight", a.from_node)
    game.place(p, "knight", a.to_node)
    row[0], row[3] = a.to_node, False
    st["knights"].sort()
    _recount_near(game, a.from_node, a.to_node)
    game.log.append(a)
    game.push(RETREAT, q, a.to_node)  # CK-KN-6: the displaced knight's owner moves it


def _retreats(game) -> list[int]:
    q, start = game.current_player, game.stack[-1].data
    return [v for v in _free_on_roads(game, q, start) if v != start]


def _check_retreat(game, a: RetreatKnight) -> None:
    game.require_phase(a, RETREAT, rule="CK-KN-6")
    spots = _retreats(game)
    if a.to_node is None:
        if spots:
            raise IllegalActionError("CK-KN-6", f"the displaced knight must move: free intersections {spots[:6]}", a)
        return
    if a.to_node not in spots:
        raise IllegalActionError("CK-KN-6", f"intersection {a.to_node!r} is not free and connected to the knight", a)


def _apply_retreat(game, a: RetreatKnight) -> None:
    q = game.current_player
    st = _st(game)
    row = st.pop("displaced")
    if a.to_node is not None:
        game.place(q, "knight", a.to_node)
        row[0] = a.to_node
        st["knights"].append(row)
        st["knights"].sort()
        _recount_near(game, a.to_node)
    game.log.append(a)
    game.pop()


def _chase_hexes(game, node: int) -> list[int]:
    return [h for h in game.topology.node_hexes[node] if h == game.robber]


def _check_chase(game, a: ChaseRobber) -> None:
    from .robber import check_steal

    _require_ready(game, a, a.node)
    if _st(game)["attacks"] == 0:
        raise IllegalActionError("CK-BAR-4", "the robber stays where it is until the barbarians' first attack", a)
    if a.hex not in _chase_hexes(game, a.node):
        raise IllegalActionError("CK-KN-5", f"the robber is not on a hex next to the knight on {a.node}", a)
    targets = [h for h in game.robber_targets() if h != game.robber]
    if a.to_hex not in targets:
        raise IllegalActionError("B-ROB-5", f"the robber cannot go to hex {a.to_hex!r}", a)
    victims = [o for o in game.hex_players(a.to_hex) if o != game.current_player and any(game.stealable(o))]
    check_steal(game, a, victims, lambda v: ("B-ROB-6", f"has no building on hex {a.to_hex} and a card to lose"))


def _apply_chase(game, a: ChaseRobber) -> None:
    from .robber import steal

    row = _knight_at(game, a.node)
    row[3] = False  # CK-KN-5: any action makes it inactive
    game.robber = a.to_hex
    stolen = steal(game, a.victim, a.stolen) if a.victim is not None else None
    game.log.append(ChaseRobber(a.node, a.hex, a.to_hex, a.victim, stolen))


# ------------------------------------------------------------------------- improvements and walls
def _check_improve(game, a: ImproveCity) -> None:
    p = game.current_player
    game.require_build_phase(a)
    track = a.track
    level = _st(game)["levels"][p][TRACKS.index(track)]
    if level >= MAX_LEVEL:
        raise IllegalActionError("CK-IMP-1", f"seat {p}'s {track} track is at its top level {MAX_LEVEL}", a)
    if not _cities(game, p):
        raise IllegalActionError("CK-IMP-1", f"seat {p} has no city: improvements are built for cities (DECISION)", a)
    game.require_cost(a, p, improvement_cost(game, p, track), f"level {level + 1} of {track}")


def _apply_improve(game, a: ImproveCity) -> None:
    p = game.current_player
    st = _st(game)
    track = a.track
    i = TRACKS.index(track)
    game.pay(p, improvement_cost(game, p, track))
    if st["crane"] == p:
        st["crane"] = None  # CK-PC-2: one improvement
    st["levels"][p][i] += 1
    level = st["levels"][p][i]
    game.built_this_turn = True
    game.log.append(a)
    held = st["metropolis"][i]
    if level >= METROPOLIS_LEVEL and held is None or (
        level == MAX_LEVEL and held is not None and held[0] != p and st["levels"][held[0]][i] < MAX_LEVEL
    ):
        # CK-IMP-4: the first to level 4 takes it; CK-IMP-5: it moves only to the first to level 5.
        # DECISION: one nobody could take (no city free for it) waits for the next to reach level 4 or 5
        free = [v for v in _cities(game, p) if v not in _metropolis_nodes(game)]
        if free:
            if held is not None:
                st["metropolis"][i] = None  # CK-IMP-5: taken from its holder
            if len(free) == 1:
                st["metropolis"][i] = [p, free[0]]
            else:
                game.push(METROPOLIS, p, i)


def _check_metropolis(game, a: ChooseMetropolis) -> None:
    game.require_phase(a, METROPOLIS, rule="CK-IMP-4")
    p = game.current_player
    if a.node not in _cities(game, p) or a.node in _metropolis_nodes(game):
        raise IllegalActionError("CK-IMP-5", f"a metropolis goes on one of seat {p}'s cities without one, not {a.node!r}", a)


def _apply_metropolis(game, a: ChooseMetropolis) -> None:
    _st(game)["metropolis"][game.stack[-1].data] = [game.current_player, a.node]
    game.log.append(a)
    game.pop()


def _check_wall(game, a: BuildWall) -> None:
    p = game.current_player
    game.require_build_phase(a)
    game.check_node(a, a.node)
    walls = _st(game)["walls"]
    if a.node not in _cities(game, p):
        raise IllegalActionError("CK-WALL-1", f"a wall goes only under one of seat {p}'s cities; {a.node} is not one", a)
    if any(a.node in w for w in walls):
        raise IllegalActionError("CK-WALL-1", f"the city on {a.node} has a wall already", a)
    if len(walls[p]) >= WALLS_PER_PLAYER:
        raise IllegalActionError("CK-WALL-1", f"seat {p} has built all {WALLS_PER_PLAYER} walls", a)
    game.require_cost(a, p, _cost(game, WALL_COST), "a city wall")


def _apply_wall(game, a: BuildWall) -> None:
    p = game.current_player
    game.pay(p, _cost(game, WALL_COST))
    _st(game)["walls"][p].append(a.node)
    game.built_this_turn = True
    game.log.append(a)


# ------------------------------------------------------------------------------------- barbarians
def _attack(game) -> None:
    """CK-BAR-1..4: the barbarians land; then every knight is inactive and the ship goes home."""
    st = _st(game)
    st["attacks"] += 1
    st["barbarians"] = 0
    strength = barbarian_strength(game)
    n = game.n
    contrib = [catan_strength(game, p) for p in range(n)]
    record = {"barbarians": strength, "catan": sum(contrib), "contributions": contrib}
    if strength > sum(contrib):  # CK-BAR-2: Catan loses
        metro = _metropolis_nodes(game)
        exposed = [p for p in range(n) if any(v not in metro for v in _cities(game, p))]
        losers = []
        if exposed:
            low = min(contrib[p] for p in exposed)
            losers = [p for p in exposed if contrib[p] == low]
        record["losers"] = losers
        game.push_in_turn_order(LOSE_CITY, dict.fromkeys(losers))
    else:  # CK-BAR-3: Catan wins (a tie goes to Catan)
        top = max(contrib)
        best = [p for p in range(n) if contrib[p] == top and top > 0]
        record["defenders"] = best
        if len(best) == 1:
            if st["defender_left"] > 0:
                st["defender_left"] -= 1
                st["defender"][best[0]] += 1
        else:
            game.push_in_turn_order(DEFENDER_DRAW, dict.fromkeys(best))
    for row in st["knights"]:  # CK-BAR-4: all knights inactive after any attack
        row[3] = False
    st["last_attack"] = record


def _check_lose_city(game, a: LoseCity) -> None:
    game.require_phase(a, LOSE_CITY, rule="CK-BAR-2")
    p = game.current_player
    ok = [v for v in _cities(game, p) if v not in _metropolis_nodes(game)]
    if a.node not in ok:
        raise IllegalActionError("CK-BAR-2", f"the barbarians take one of seat {p}'s ordinary cities {ok}, not {a.node!r}", a)


def _apply_lose_city(game, a: LoseCity) -> None:
    p = game.current_player
    full = game.pieces_left(p)["settlement"] <= 0
    game.remove("city", a.node)  # back to a settlement
    if full:  # DECISION: no settlement left in supply to put back, so the city is razed
        game.remove("settlement", a.node)
        game.update_longest_road(range(game.n), broken=True)
    walls = _st(game)["walls"][p]
    if a.node in walls:
        walls.remove(a.node)  # CK-BAR-2, CK-WALL-1: the wall is lost with the city
    game.log.append(a)
    game.pop()


# -------------------------------------------------------------------------------- progress cards
def _draw(game, player: int, track: Track) -> None:
    """Draw the top card of ``track``'s deck (CK-PROG-1); VP cards are played at once (CK-PC-8)."""
    st = _st(game)
    deck = st["decks"][TRACKS.index(track)]
    if not deck:
        return
    card = deck.pop()
    if card in VP_PROGRESS:
        st["vp_cards"][player].append(card)
        return
    hand = st["hands"][player]
    hand.append(card)
    hand.sort()
    if len(hand) > PROGRESS_LIMIT:
        game.push(RETURN_PROGRESS, player)


def _check_defender_draw(game, a: DrawProgress) -> None:
    game.require_phase(a, DEFENDER_DRAW, rule="CK-BAR-3")


def _apply_defender_draw(game, a: DrawProgress) -> None:
    p = game.current_player
    game.log.append(a)
    game.pop()
    _draw(game, p, a.track)


def _check_return(game, a: ReturnProgress) -> None:
    game.require_phase(a, RETURN_PROGRESS, rule="CK-PROG-2")
    if a.card not in _st(game)["hands"][game.current_player]:
        raise IllegalActionError("CK-PROG-2", f"seat {game.current_player} holds no progress card {a.card!r}", a)


def _apply_return(game, a: ReturnProgress) -> None:
    st = _st(game)
    st["hands"][game.current_player].remove(a.card)
    track = CARD_TRACK[a.card]
    st["decks"][TRACKS.index(track)].insert(0, a.card)  # DECISION: to the bottom of its deck
    game.log.append(a)
    game.pop()


def _check_aqueduct(game, a: TakeAqueduct) -> None:
    game.require_phase(a, AQUEDUCT, rule="CK-IMP-3")
    if game.bank[Resource.parse(a.resource).value] <= 0:
        raise IllegalActionError("B-COMP-14", f"the bank has no {a.resource} left", a)


def _apply_aqueduct(game, a: TakeAqueduct) -> None:
    game.gain(game.current_player, Resource.parse(a.resource).value)
    game.log.append(a)
    game.pop()


# ------------------------------------------------------------------------ progress-card effects
#: CK-PC-7: Medicine's price for a city.
MEDICINE_COST = {"ore": 2, "grain": 1}
#: CK-PC-5, CK-PC-6: cards per fields or mountains hex next to the player's buildings.
HARVEST = 2
#: CK-PC-23, CK-PC-24: cards each opponent gives.
RESOURCE_MONOPOLY_TAKE, TRADE_MONOPOLY_TAKE = 2, 1
_HARVEST_TERRAIN = {"irrigation": Terrain.FIELDS, "mining": Terrain.MOUNTAINS}


def _require_card(game, a, card: str) -> None:
    game.require_phase(a, Phase.MAIN, rule="CK-PROG-1")
    p = game.current_player
    if p != game.active_player:
        raise IllegalActionError("CK-PROG-1", f"seat {p} may play progress cards only in their own turn", a)
    if card not in _st(game)["hands"][p]:
        raise IllegalActionError("CK-PROG-1", f"seat {p} holds no progress card {card!r}", a)


def _spend(game, card: str) -> None:
    """The played card goes back under its deck (CK-PROG-3: the decks keep their 18 cards)."""
    st = _st(game)
    st["hands"][game.current_player].remove(card)
    track = CARD_TRACK[card]
    st["decks"][track.value].insert(0, card)


def _harvest_hexes(game, player: int, terrain: Terrain) -> list[int]:
    t = game.topology
    building = [bool(k and k.building) for k in game.kinds]
    return sorted({h for v, o in enumerate(game.node_owner) if o == player and building[game.node_kind[v]]
                   for h in t.node_hexes[v] if game.hex_terrain[h] is terrain})


def _check_progress(game, a: PlayProgress) -> None:
    if not isinstance(a.card, str) or a.card not in PLAIN_CARDS:
        raise IllegalActionError("CK-PROG-3", f"{a.card!r} is not played this way {PLAIN_CARDS}", a)
    _require_card(game, a, a.card)
    p = game.current_player
    st = _st(game)
    if a.card == "crane":
        if st["crane"] is not None:
            raise IllegalActionError("CK-PC-2", "two Cranes cannot be combined: one is in play this turn", a)
        if not _cities(game, p) or all(x >= MAX_LEVEL for x in st["levels"][p]):
            raise IllegalActionError("CK-PC-2", f"seat {p} has no city improvement left to build", a)
    elif a.card == "road_building" and not game.can_place_free(p, ROAD_BUILDING):
        kinds = " or ".join(game.free_kinds(ROAD_BUILDING))
        raise IllegalActionError("CK-PC-9", f"seat {p} has no {kinds} left or no path where one may go", a)


def _apply_progress(game, a: PlayProgress) -> None:
    p = game.current_player
    _spend(game, a.card)
    card = a.card
    if card in ("irrigation", "mining", "warlord"):
        _harvest_or_warlord(game, a)
        return
    game.log.append(a)
    st = _st(game)
    if card == "crane":  # CK-PC-2: the next improvement this turn costs 1 commodity less
        st["crane"] = p
    elif card == "road_building":  # CK-PC-9 (ships too with Seafarers, SF-17)
        game.push(ROAD_BUILDING, p, PROGRESS_ROADS)
    elif card == "saboteur":  # CK-PC-15: half of resources + commodities, rounded down
        mine = game.vp(p)
        game.push_in_turn_order(DISCARD, {q: sum(game.discardable(q)) // 2 for q in _turn_order(game, p)
                                          if game.vp(q) >= mine and sum(game.discardable(q)) // 2})
    elif card == "wedding":  # CK-PC-18: 2 cards, or 1 if that is all they have
        mine = game.vp(p)
        game.push_in_turn_order(WEDDING, {q: min(WEDDING_GIFTS, sum(game.hands[q])) for q in _turn_order(game, p)
                                          if game.vp(q) > mine and any(game.hands[q])})
    else:  # CK-PC-19: each opponent with a commodity, once per turn
        rest = tuple(_with_commodity(game, [q for q in _turn_order(game, p) if q not in st["harbored"]]))
        if rest and any(game.hands[p][:len(Resource)]):
            game.push(HARBOR_OFFER, p, rest)


def _harvest_or_warlord(game, a: PlayProgress) -> None:
    p = game.current_player
    if a.card == "warlord":  # CK-PC-17: every knight active, free
        for row in _st(game)["knights"]:
            if row[1] == p and not row[3]:
                row[3] = row[4] = True  # CK-KN-5: activated this turn, it acts from the next turn
    else:  # CK-PC-5, CK-PC-6: 2 per hex next to the player's buildings; cities do not double
        terrain = _HARVEST_TERRAIN[a.card]
        for _ in _harvest_hexes(game, p, terrain):
            game.gain(p, terrain.resource.value, HARVEST)
    game.log.append(a)


def _check_progress_good(game, a: PlayProgressGood) -> None:
    if a.card == "resource_monopoly":
        if a.good not in game.goods or not game.good_rules[game.good_index(a.good)].monopolised:
            raise IllegalActionError("CK-PC-23", f"Resource Monopoly names a resource, not {a.good}", a)
    elif a.card == "trade_monopoly":
        if not isinstance(a.good, Commodity):
            raise IllegalActionError("CK-PC-24", f"Trade Monopoly names a commodity, not {a.good}", a)
    elif a.card == "merchant_fleet":
        if a.good not in game.goods or not game.good_rules[game.good_index(a.good)].bank_trade:
            raise IllegalActionError("CK-PC-22", f"the Merchant Fleet names a good of this game traded with the bank, "
                                     f"not {a.good!r}", a)
    else:
        raise IllegalActionError("CK-PROG-3", f"{a.card!r} names no good", a)
    _require_card(game, a, a.card)


def _apply_progress_good(game, a: PlayProgressGood) -> None:
    p = game.current_player
    _spend(game, a.card)
    g = game.good_index(a.good)
    if a.card == "merchant_fleet":  # CK-PC-22: 2:1 with the bank for the rest of the turn
        _st(game)["fleet"].append([p, g])
        game.log.append(a)
        return
    take = RESOURCE_MONOPOLY_TAKE if a.card == "resource_monopoly" else TRADE_MONOPOLY_TAKE
    for q in range(game.n):
        if q != p:
            k = min(take, game.hands[q][g])  # 2, or 1 if that is all they have
            game.hands[q][g] -= k
            game.hands[p][g] += k
    game.log.append(a)


def _check_progress_node(game, a: PlayProgressNode) -> None:
    p = game.current_player
    if a.card == "engineer":
        _require_card(game, a, a.card)
        game.check_node(a, a.node)
        walls = _st(game)["walls"]
        if a.node not in _cities(game, p) or any(a.node in w for w in walls) or len(walls[p]) >= WALLS_PER_PLAYER:
            raise IllegalActionError("CK-PC-3", f"Engineer builds a wall under one of seat {p}'s unwalled cities "
                                     f"(3 at most); not on {a.node!r}", a)
    elif a.card == "medicine":
        _require_card(game, a, a.card)
        game.check_node(a, a.node)
        if game.pieces_left(p)["city"] <= 0:
            raise IllegalActionError("B-COMP-12", f"seat {p} has no city left in supply", a)
        if a.node not in settlements_of(game, p):
            raise IllegalActionError("CK-PC-7", f"intersection {a.node} holds no settlement of seat {p}", a)
        game.require_cost(a, p, _cost(game, MEDICINE_COST), "Medicine's city")
    else:
        raise IllegalActionError("CK-PROG-3", f"{a.card!r} is not played on an intersection", a)


def settlements_of(game, player: int) -> list[int]:
    """``player``'s settlements."""
    return sorted(game.placed[game.kind_id["settlement"]][player])


def _apply_progress_node(game, a: PlayProgressNode) -> None:
    p = game.current_player
    _spend(game, a.card)
    game.log.append(a)
    if a.card == "engineer":  # CK-PC-3: a free wall
        _st(game)["walls"][p].append(a.node)
    else:  # CK-PC-7: a city for 2 ore + 1 grain
        game.pay(p, _cost(game, MEDICINE_COST))
        game.place(p, "city", a.node)


def _smith_targets(game, player: int) -> list[int]:
    """CK-PC-10, CK-KN-2: ``player``'s knights the Smith may promote (not mighty, strong only with the
    Fortress, and not promoted this turn already)."""
    fortress = _st(game)["levels"][player][Track.POLITICS.value] >= ABILITY_LEVEL
    return [r[0] for r in knights(game, player) if not r[5] and (r[2] == 1 or (r[2] == 2 and fortress))]


def _check_smith(game, a: PlaySmith) -> None:
    _require_card(game, a, "smith")
    p = game.current_player
    nodes = list(a.nodes)
    if not 1 <= len(nodes) <= 2 or len(set(nodes)) != len(nodes):
        raise IllegalActionError("CK-PC-10", f"Smith promotes 1 or 2 different knights, not {a.nodes!r}", a)
    ok = _smith_targets(game, p)
    for v in nodes:
        row = _knight_at(game, v) if isinstance(v, int) and not isinstance(v, bool) else None
        if row is not None and row[1] == p and row[5]:
            raise IllegalActionError("CK-KN-2", f"the knight on {v} was promoted this turn already: one level a "
                                     "turn", a)
        if v not in ok:
            raise IllegalActionError("CK-PC-10", f"the knight on {v!r} cannot be promoted (mighty, no Fortress, "
                                     f"or not seat {p}'s)", a)
    after = {lvl: _count(game, p, lvl) for lvl in KNIGHT_LEVELS}
    for v in nodes:
        row = _knight_at(game, v)
        after[row[2]] -= 1
        after[row[2] + 1] += 1
    if any(k > KNIGHTS_PER_LEVEL for k in after.values()):
        raise IllegalActionError("CK-KN-2", f"seat {p} would hold more than {KNIGHTS_PER_LEVEL} knights of a level", a)


def _apply_smith(game, a: PlaySmith) -> None:
    _spend(game, "smith")
    for v in a.nodes:
        row = _knight_at(game, v)
        row[2] += 1  # CK-PC-10: each keeps its active state
        row[5] = True  # CK-KN-2: one level a turn
    game.log.append(a)


def _legal_progress(game, p: int, out: list) -> None:
    st = _st(game)
    hand = set(st["hands"][p])
    for card in ("irrigation", "mining", "warlord", "saboteur", "wedding", "commercial_harbor"):
        if card in hand:
            out.append(PlayProgress(card))
    if "crane" in hand and st["crane"] is None and _cities(game, p) and any(x < MAX_LEVEL for x in st["levels"][p]):
        out.append(PlayProgress("crane"))
    if "road_building" in hand and game.can_place_free(p, ROAD_BUILDING):
        out.append(PlayProgress("road_building"))
    if "merchant_fleet" in hand:
        out.extend(PlayProgressGood("merchant_fleet", g) for g, r in zip(game.goods, game.good_rules) if r.bank_trade)
    if "inventor" in hand:
        ok = _inventor_hexes(game)
        out.extend(PlayInventor(x, y) for i, x in enumerate(ok) for y in ok[i + 1:])
    if "bishop" in hand and st["attacks"]:
        out.extend(PlayBishop(h) for h in game.robber_targets() if h != game.robber)
    if "deserter" in hand:
        out.extend(PlayDeserter(q) for q in _turn_order(game, p) if knights(game, q))
    if "diplomat" in hand:
        out.extend(PlayDiplomat(e) for e in open_roads(game))
    if "intrigue" in hand:
        out.extend(PlayIntrigue(v) for v in _intrigue_targets(game, p))
    if "spy" in hand:
        out.extend(PlaySpy(q) for q in _turn_order(game, p) if st["hands"][q])
    if "master_merchant" in hand:
        mine = game.vp(p)
        out.extend(PlayMasterMerchant(q) for q in _turn_order(game, p) if game.vp(q) > mine and any(game.hands[q]))
    if "merchant" in hand:
        out.extend(PlayMerchant(h) for h in _merchant_hexes(game, p))
    if "resource_monopoly" in hand:
        out.extend(PlayProgressGood("resource_monopoly", g) for g, r in zip(game.goods, game.good_rules)
                   if r.monopolised)
    if "trade_monopoly" in hand:
        out.extend(PlayProgressGood("trade_monopoly", c) for c in Commodity)
    if "engineer" in hand:
        walls = _st(game)["walls"]
        if len(walls[p]) < WALLS_PER_PLAYER:
            walled = {v for w in walls for v in w}
            out.extend(PlayProgressNode("engineer", v) for v in _cities(game, p) if v not in walled)
    if "medicine" in hand and game.pieces_left(p)["city"] > 0 and game.affords(game.hands[p], _cost(game, MEDICINE_COST)):
        out.extend(PlayProgressNode("medicine", v) for v in settlements_of(game, p))
    if "smith" in hand:
        ok = _smith_targets(game, p)
        for i, v in enumerate(ok):
            for combo in ((v,), *((v, w) for w in ok[i + 1:])):
                try:
                    _check_smith(game, PlaySmith(combo))
                except IllegalActionError:
                    continue
                out.append(PlaySmith(combo))


# ------------------------------------------------------------------- the other progress cards
#: CK-PC-4: tokens the Inventor never moves.
INVENTOR_FIXED = frozenset({2, 6, 8, 12})
#: CK-PC-18: cards each richer player gives the Wedding's host; CK-PC-20: cards the Master Merchant takes.
WEDDING_GIFTS, MASTER_MERCHANT_TAKE = 2, 2
#: CK-PC-22, CK-MER-1: the bank rate of the Merchant Fleet's good and of the merchant's resource.
FLEET_RATE = MERCHANT_RATE = 2
#: CK-MER-1: the merchant's controller holds 1 VP.
MERCHANT_VP = 1
#: CK-PC-9: free roads (and ships with Seafarers).
PROGRESS_ROADS = 2
#: Progress cards played with :class:`PlayProgress` (no target).
PLAIN_CARDS = ("irrigation", "mining", "warlord", "crane", "road_building", "saboteur", "wedding",
               "commercial_harbor")
_ALCHEMY = tuple(PlayAlchemist(r, y) for r in range(1, 7) for y in range(1, 7))
_END_RB = EndRoadBuilding()


def _holds(game, a, player: int, cards, rule: str) -> None:
    h = game.hands[player]
    for g, c in enumerate(cards):
        if c > h[g]:
            raise IllegalActionError(rule, f"seat {player} holds {h[g]} {game.goods[g]}, not {c}", a)


def _unit(game, good: int) -> tuple[int, ...]:
    """One card of ``good``, as counts per good."""
    return tuple(int(i == good) for i in range(game.n_goods))


def _turn_order(game, player: int) -> list[int]:
    """The other seats in turn order from ``player``'s left."""
    return [(player + k) % game.n for k in range(1, game.n)]


def _check_alchemist(game, a: PlayAlchemist) -> None:
    game.require_phase(a, Phase.ROLL, rule="CK-PC-1")
    p = game.current_player
    if "alchemist" not in _st(game)["hands"][p]:
        raise IllegalActionError("CK-PC-1", f"seat {p} holds no Alchemist", a)
    dice = [("red", a.red), ("yellow", a.yellow)] + ([("event", a.event)] if a.event is not None else [])
    for name, d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise IllegalActionError("CK-PC-1", f"the {name} die shows 1 to 6, not {d!r}", a)


def _apply_alchemist(game, a: PlayAlchemist) -> None:
    _spend(game, "alchemist")
    u = game.random()  # one draw always, so a replay stays in step
    event = int(u * 6) + 1 if a.event is None else a.event
    game.log.append(PlayAlchemist(a.red, a.yellow, event))
    game.roll((a.red, a.yellow, event))  # CK-PC-1: the event die is resolved first (before_production)


def _inventor_hexes(game) -> list[int]:
    tok, terrain = game.hex_token, game.hex_terrain
    return [h for h in range(game.topology.n_hexes)
            if tok[h] and tok[h] not in INVENTOR_FIXED and terrain[h] is not Terrain.FOG]


def _check_inventor(game, a: PlayInventor) -> None:
    _require_card(game, a, "inventor")
    ok = _inventor_hexes(game)
    for h in (a.first, a.second):
        if isinstance(h, bool) or h not in ok:
            raise IllegalActionError("CK-PC-4", f"hex {h!r} holds no token the Inventor may move "
                                     f"(not 2, 6, 8 or 12): {ok}", a)
    if a.first == a.second:
        raise IllegalActionError("CK-PC-4", f"the Inventor swaps two different hexes, not {a.first} twice", a)


def _apply_inventor(game, a: PlayInventor) -> None:
    _spend(game, "inventor")
    ta, tb = game.hex_token[a.first], game.hex_token[a.second]
    game.set_hex(a.first, token=tb)
    game.set_hex(a.second, token=ta)
    game.log.append(a)


def _bishop_victims(game, hx: int) -> list[int]:
    p = game.current_player
    return [q for q in game.hex_players(hx) if q != p and any(game.stealable(q))]


def _check_bishop(game, a: PlayBishop) -> None:
    _require_card(game, a, "bishop")
    if _st(game)["attacks"] == 0:
        raise IllegalActionError("CK-BAR-4", "the robber stays where it is until the barbarians' first attack "
                                 "(the Bishop too: DECISION)", a)
    targets = [h for h in game.robber_targets() if h != game.robber]
    if isinstance(a.hex, bool) or a.hex not in targets:
        raise IllegalActionError("B-ROB-5", f"the robber cannot go to hex {a.hex!r}", a)
    if a.stolen is not None:
        victims = _bishop_victims(game, a.hex)
        if not isinstance(a.stolen, tuple) or len(a.stolen) != len(victims):
            raise IllegalActionError("CK-PC-11", f"one card is taken from each of seats {victims}, not {a.stolen!r}", a)
        from .robber import check_stolen

        for q, g in zip(victims, a.stolen):
            check_stolen(game, a, q, g)


def _apply_bishop(game, a: PlayBishop) -> None:
    from .robber import steal

    victims = _bishop_victims(game, a.hex)
    _spend(game, "bishop")
    game.robber = a.hex
    got = tuple(steal(game, q, None if a.stolen is None else a.stolen[i]) for i, q in enumerate(victims))
    game.log.append(PlayBishop(a.hex, got))


def _check_deserter(game, a: PlayDeserter) -> None:
    _require_card(game, a, "deserter")
    q = game.check_opponent(a, a.victim, "CK-PC-12")
    if not knights(game, q):
        raise IllegalActionError("CK-PC-12", f"seat {q} has no knight to remove", a)


def _apply_deserter(game, a: PlayDeserter) -> None:
    _spend(game, "deserter")
    game.log.append(a)
    game.push(DESERTER_PLACE, game.current_player)
    game.push(DESERTER, a.victim)


def _check_remove_knight(game, a: RemoveKnight) -> None:
    game.require_phase(a, DESERTER, rule="CK-PC-12")
    _require_own_knight(game, a, a.node, "CK-PC-12")


def _apply_remove_knight(game, a: RemoveKnight) -> None:
    st = _st(game)
    row = _knight_at(game, a.node)
    game.remove("knight", a.node)
    st["knights"].remove(row)
    st["deserter"] = [row[2], row[3]]
    _recount_near(game, a.node)
    game.log.append(a)
    game.pop()


def _deserter_level(game, player: int) -> int | None:
    """CK-PC-12: the removed knight's strength, or basic if none of that strength is left; ``None``: none."""
    gone = _st(game).get("deserter")
    if gone is None:
        return None
    for level in (gone[0], 1):
        if _count(game, player, level) < KNIGHTS_PER_LEVEL:
            return level
    return None


def _check_place_deserter(game, a: PlaceDeserter) -> None:
    game.require_phase(a, DESERTER_PLACE, rule="CK-PC-12")
    if a.node is None:
        return
    p = game.current_player
    if _deserter_level(game, p) is None:
        raise IllegalActionError("CK-KN-2", f"seat {p} has no knight left to place", a)
    if isinstance(a.node, bool) or a.node not in game.candidates(p, "knight"):
        raise IllegalActionError("CK-KN-1", f"a knight goes on a free intersection on seat {p}'s roads; "
                                 f"{a.node!r} is not one", a)


def _apply_place_deserter(game, a: PlaceDeserter) -> None:
    p = game.current_player
    st = _st(game)
    if a.node is not None:
        level, active = _deserter_level(game, p), st["deserter"][1]
        game.place(p, "knight", a.node)
        st["knights"].append([a.node, p, level, active, active, False])  # DECISION: it acts from next turn
        st["knights"].sort()
        _recount_near(game, a.node)
    st.pop("deserter", None)
    game.log.append(a)
    game.pop()


def open_roads(game) -> list[int]:
    """CK-PC-13: roads with nothing of their owner's (building, knight, road or ship) at one end."""
    t = game.topology
    out = []
    for q in range(game.n):
        for e in game.placed[game.kind_id["road"]][q]:
            for v in t.edge_nodes[e]:
                if game.node_owner[v] != q and not any(f != e and game.edge_owner[f] == q for f in t.node_edges[v]):
                    out.append(e)
                    break
    return sorted(out)


def _check_diplomat(game, a: PlayDiplomat) -> None:
    _require_card(game, a, "diplomat")
    if isinstance(a.path, bool) or a.path not in open_roads(game):
        raise IllegalActionError("CK-PC-13", f"path {a.path!r} holds no open road (nothing of its owner's at "
                                 "one end)", a)


def _apply_diplomat(game, a: PlayDiplomat) -> None:
    p = game.current_player
    _spend(game, "diplomat")
    game.log.append(a)
    owner = game.remove("road", a.path)
    game.update_longest_road(range(game.n), broken=True)
    if owner == p and game.can_place_free(p, DIPLOMAT_ROAD):
        game.push(DIPLOMAT_ROAD, p, 1)  # CK-PC-13: your own road may go again, free


def _check_end_free_roads(game, a: EndRoadBuilding) -> None:
    game.require_phase(a, ROAD_BUILDING, DIPLOMAT_ROAD, rule="CK-PC-9")


def _apply_end_free_roads(game, a: EndRoadBuilding) -> None:
    game.pop()
    game.log.append(a)


def _intrigue_targets(game, player: int) -> list[int]:
    reach = game.road_nodes[player]
    return [r[0] for r in _st(game)["knights"] if r[1] != player and r[0] in reach]


def _check_intrigue(game, a: PlayIntrigue) -> None:
    _require_card(game, a, "intrigue")
    if isinstance(a.node, bool) or a.node not in _intrigue_targets(game, game.current_player):
        raise IllegalActionError("CK-PC-14", f"no opponent's knight stands on {a.node!r} on your roads or ships", a)


def _apply_intrigue(game, a: PlayIntrigue) -> None:
    st = _st(game)
    _spend(game, "intrigue")
    row = _knight_at(game, a.node)
    game.remove("knight", a.node)
    st["knights"].remove(row)
    st["displaced"] = row
    _recount_near(game, a.node)
    game.log.append(a)
    game.push(RETREAT, row[1], a.node)  # CK-KN-6: its owner moves it


def _check_spy(game, a: PlaySpy) -> None:
    _require_card(game, a, "spy")
    q = game.check_opponent(a, a.victim, "CK-PC-16")
    if not _st(game)["hands"][q]:  # as listed: a Spy needs a card to take (the count is public)
        raise IllegalActionError("CK-PC-16", f"seat {q} holds no progress card to take", a)


def _apply_spy(game, a: PlaySpy) -> None:
    _spend(game, "spy")
    game.log.append(a)
    if _st(game)["hands"][a.victim]:
        game.push(SPY, game.current_player, a.victim)


def _check_spy_take(game, a: SpyTake) -> None:
    game.require_phase(a, SPY, rule="CK-PC-16")
    q = game.stack[-1].data
    if not isinstance(a.card, str) or a.card not in _st(game)["hands"][q]:
        raise IllegalActionError("CK-PC-16", f"seat {q} holds no progress card {a.card!r} (VP cards are never "
                                 "taken)", a)


def _apply_spy_take(game, a: SpyTake) -> None:
    hands = _st(game)["hands"]
    p, q = game.current_player, game.stack[-1].data
    hands[q].remove(a.card)
    hands[p].append(a.card)
    hands[p].sort()
    game.log.append(a)
    game.pop()


def _check_master_merchant(game, a: PlayMasterMerchant) -> None:
    _require_card(game, a, "master_merchant")
    p = game.current_player
    q = game.check_opponent(a, a.victim, "CK-PC-20")
    if game.vp(q) <= game.vp(p):
        raise IllegalActionError("CK-PC-20", f"seat {q} has {game.vp(q)} VP, not more than seat {p}'s {game.vp(p)}", a)
    if not any(game.hands[q]):  # as listed: nothing to take (the count is public)
        raise IllegalActionError("CK-PC-20", f"seat {q} holds no resource or commodity to take", a)


def _apply_master_merchant(game, a: PlayMasterMerchant) -> None:
    _spend(game, "master_merchant")
    game.log.append(a)
    if any(game.hands[a.victim]):
        _st(game)["looked"] = [a.victim, list(game.hands[a.victim])]  # what the player has seen
        game.push(MASTER_MERCHANT, game.current_player, a.victim)


def _check_take_goods(game, a: TakeGoods) -> None:
    game.require_phase(a, MASTER_MERCHANT, rule="CK-PC-20")
    q = game.stack[-1].data
    total = game.check_counts(a, a.cards, "CK-PC-20")
    want = min(MASTER_MERCHANT_TAKE, sum(game.hands[q]))
    if total != want:
        raise IllegalActionError("CK-PC-20", f"the Master Merchant takes {want} card(s) from seat {q}, not {total}", a)
    _holds(game, a, q, a.cards, "CK-PC-20")


def _apply_take_goods(game, a: TakeGoods) -> None:
    game.transfer(game.stack[-1].data, game.current_player, a.cards)
    _st(game).pop("looked", None)
    game.log.append(a)
    game.pop()


def _merchant_hexes(game, player: int) -> list[int]:
    """CK-PC-21, CK-SF-1: land hexes with a resource (no desert, gold field or fog) next to ``player``'s buildings."""
    t, terrain = game.topology, game.hex_terrain
    return [h for h in range(t.n_hexes) if t.hex_land[h] and terrain[h].resource is not None and
            player in game.hex_players(h)]


def _check_merchant(game, a: PlayMerchant) -> None:
    _require_card(game, a, "merchant")
    ok = _merchant_hexes(game, game.current_player)
    if isinstance(a.hex, bool) or a.hex not in ok:
        gold = isinstance(a.hex, int) and 0 <= a.hex < game.topology.n_hexes and game.hex_terrain[a.hex] is Terrain.GOLD
        raise IllegalActionError("CK-SF-1" if gold else "CK-PC-21",
                                 f"the merchant goes on a land hex with a resource next to your buildings {ok}, "
                                 f"not {a.hex!r}", a)


def _apply_merchant(game, a: PlayMerchant) -> None:
    _spend(game, "merchant")
    _st(game)["merchant"] = [game.current_player, a.hex]  # CK-MER-1: its new controller
    game.log.append(a)


def _check_give(game, a: GiveGoods) -> None:
    game.require_phase(a, WEDDING, rule="CK-PC-18")
    owed = game.stack[-1].data
    total = game.check_counts(a, a.cards, "CK-PC-18")
    if not 1 <= total <= owed:
        raise IllegalActionError("CK-PC-18", f"seat {game.current_player} owes {owed} card(s); the gift gives {total}", a)
    _holds(game, a, game.current_player, a.cards, "CK-PC-18")


def _apply_give(game, a: GiveGoods) -> None:
    left = game.stack[-1].data - sum(a.cards)
    game.transfer(game.current_player, game.active_player, a.cards)
    game.log.append(a)
    if left:
        game.update(left)
    else:
        game.pop()


def _commodities(game) -> list[int]:
    """Indexes of the commodities among the game's goods (a module may add other goods)."""
    return [i for i, g in enumerate(game.goods) if isinstance(g, Commodity)]


def _with_commodity(game, seats: list[int]) -> list[int]:
    mine = _commodities(game)
    return [q for q in seats if any(game.hands[q][i] for i in mine)]


def _check_offer(game, a: HarborOffer) -> None:
    game.require_phase(a, HARBOR_OFFER, rule="CK-PC-19")
    p = game.current_player
    if not isinstance(a.resource, Resource) or game.hands[p][a.resource.value] == 0:
        raise IllegalActionError("CK-PC-19", f"seat {p} offers one of their resources, not {a.resource!r}", a)


def _apply_offer(game, a: HarborOffer) -> None:
    p = game.current_player
    q, rest = game.stack[-1].data[0], game.stack[-1].data[1:]
    game.transfer(p, q, _unit(game, a.resource.value))
    _st(game)["harbored"].append(q)
    game.log.append(a)
    game.pop()
    rest = tuple(_with_commodity(game, list(rest)))
    if rest and any(game.hands[p][:len(Resource)]):
        game.push(HARBOR_OFFER, p, rest)
    game.push(HARBOR_REPLY, q)


def _check_reply(game, a: HarborReply) -> None:
    game.require_phase(a, HARBOR_REPLY, rule="CK-PC-19")
    q = game.current_player
    if not isinstance(a.commodity, Commodity) or a.commodity not in game.goods or \
            game.hands[q][game.good_index(a.commodity)] == 0:
        raise IllegalActionError("CK-PC-19", f"seat {q} gives one of their commodities, not {a.commodity!r}", a)


def _apply_reply(game, a: HarborReply) -> None:
    game.transfer(game.current_player, game.active_player, _unit(game, game.good_index(a.commodity)))
    game.log.append(a)
    game.pop()


def _takes(hand: list[int], k: int) -> list[tuple[int, ...]]:
    """Every way to take ``min(k, sum(hand))`` cards from ``hand`` (k at most 2), as counts per good."""
    n, goods = len(hand), [g for g, c in enumerate(hand) if c]
    if k == 1 or sum(hand) == 1:
        return [tuple(int(i == g) for i in range(n)) for g in goods]
    out = []
    for i, g in enumerate(goods):
        for h in goods[i:]:
            if g != h or hand[g] >= 2:
                out.append(tuple((i2 == g) + (i2 == h) for i2 in range(n)))
    return out


def _looked_at(game, player: int) -> dict:
    """What ``player`` is looking at now: an opponent's progress cards (Spy, CK-PC-16) or resources
    and commodities (Master Merchant, CK-PC-20)."""
    top = game.stack[-1] if game.stack else None
    if top is None or top.player != player:
        return {}
    if top.phase is SPY:
        return {"spied": (top.data, list(_st(game)["hands"][top.data]))}
    if top.phase is MASTER_MERCHANT:
        return {"looked": (top.data, list(_st(game)["looked"][1]))}
    return {}


# ---------------------------------------------------------------------------------------- module
_TAKE = tuple(TakeAqueduct(r) for r in Resource)
_DRAWS = tuple(DrawProgress(t) for t in TRACKS)


@lru_cache(maxsize=None)
def _gifts(n_goods: int) -> tuple[GiveGoods, ...]:
    """One-card wedding gifts per good, as shared values."""
    return tuple(GiveGoods(tuple(int(i == r) for i in range(n_goods))) for r in range(n_goods))


@register
class CitiesKnights(Module):
    """CK-*: commodities, improvements, knights, barbarians, progress draws, walls (see the module docstring)."""

    name = NAME
    replaces = ("development",)
    goods = (Commodity.CLOTH, Commodity.COIN, Commodity.PAPER)
    pieces = (KNIGHT,)
    extra_dice = 1
    actions = {
        HireKnight: (_check_hire, _apply_hire), PromoteKnight: (_check_promote, _apply_promote),
        ActivateKnight: (_check_activate, _apply_activate), MoveKnight: (_check_move_knight, _apply_move_knight),
        DisplaceKnight: (_check_displace, _apply_displace), RetreatKnight: (_check_retreat, _apply_retreat),
        ChaseRobber: (_check_chase, _apply_chase), ImproveCity: (_check_improve, _apply_improve),
        BuildWall: (_check_wall, _apply_wall), ChooseMetropolis: (_check_metropolis, _apply_metropolis),
        LoseCity: (_check_lose_city, _apply_lose_city), TakeAqueduct: (_check_aqueduct, _apply_aqueduct),
        DrawProgress: (_check_defender_draw, _apply_defender_draw), ReturnProgress: (_check_return, _apply_return),
        PlayProgress: (_check_progress, _apply_progress), PlayProgressGood: (_check_progress_good, _apply_progress_good),
        PlayProgressNode: (_check_progress_node, _apply_progress_node), PlaySmith: (_check_smith, _apply_smith),
        PlayAlchemist: (_check_alchemist, _apply_alchemist), PlayInventor: (_check_inventor, _apply_inventor),
        PlayBishop: (_check_bishop, _apply_bishop), PlayDeserter: (_check_deserter, _apply_deserter),
        RemoveKnight: (_check_remove_knight, _apply_remove_knight),
        PlaceDeserter: (_check_place_deserter, _apply_place_deserter),
        PlayDiplomat: (_check_diplomat, _apply_diplomat), EndRoadBuilding: (_check_end_free_roads, _apply_end_free_roads),
        PlayIntrigue: (_check_intrigue, _apply_intrigue), PlaySpy: (_check_spy, _apply_spy),
        SpyTake: (_check_spy_take, _apply_spy_take), TakeGoods: (_check_take_goods, _apply_take_goods),
        PlayMasterMerchant: (_check_master_merchant, _apply_master_merchant),
        PlayMerchant: (_check_merchant, _apply_merchant), GiveGoods: (_check_give, _apply_give),
        HarborOffer: (_check_offer, _apply_offer), HarborReply: (_check_reply, _apply_reply),
    }
    legal_in = ("main", "roll", "lose_city", "defender_draw", "knight_retreat", "return_progress", "aqueduct",
                "metropolis", "road_building", "diplomat_road", "deserter", "deserter_place", "wedding",
                "harbor_offer", "harbor_reply", "spy", "master_merchant")

    def components(self, game, comps: dict) -> None:
        for c in self.goods:
            comps["bank"][c] = COMMODITY_CARDS
        for card in list(comps["deck"]):  # CK-COMP-1: the progress decks replace the development deck
            comps["deck"][card] = 0

    def init(self, game) -> None:
        n = game.n
        decks = []
        for track in TRACKS:
            deck = sorted(c for c, k in DECKS[track].items() for _ in range(k))
            game.shuffle(deck)
            decks.append(deck)
        game.ext[NAME] = {
            "levels": [[0, 0, 0] for _ in range(n)], "metropolis": [None, None, None],
            "walls": [[] for _ in range(n)], "knights": [], "barbarians": 0, "attacks": 0,
            "defender": [0] * n, "defender_left": DEFENDER_CARDS, "decks": decks,
            "hands": [[] for _ in range(n)], "vp_cards": [[] for _ in range(n)],
            "merchant": None, "crane": None, "fleet": [], "harbored": [],
        }

    def vp_target(self, game) -> int:
        """CK-VP-1: 13 VP; CK-SF-1: with Seafarers, the scenario's own target + 2 (islands 12 -> 14...).
        A Seafarers board that names no target keeps the 13 (DECISION).  The game plays to the largest
        module target, so the scenario's own (smaller) target gives way to this one."""
        sea = next((m for m in game.modules if m.name == "seafarers"), None)
        own = sea.vp_target(game) if sea is not None else None
        return VP_TARGET if own is None else own + SEAFARERS_BONUS

    def founding_building(self, game, player: int, second: bool) -> tuple[str, str] | None:
        return ("city", "CK-SETUP-1") if second else None  # CK-SETUP-1: a city in the second round

    def yields(self, game, table: dict) -> None:
        for terrain, gains in CITY_YIELDS.items():  # CK-COM-2
            table[("city", terrain)] = tuple((game.good_index(g), k) for g, k in gains)

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        if kind == "knight":  # CK-KN-1: a free intersection on the player's roads
            t = game.topology
            return sorted(v for v in game.road_nodes[player] if game.node_owner[v] < 0 and t.node_land[v])
        return sites

    def before_production(self, game, dice) -> None:
        st = _st(game)
        red, event = dice[0], dice[2]
        gate = EVENT_FACES[event]
        if gate is None:  # CK-BAR-4: the ship moves; at the end of the track, the attack, before production
            st["barbarians"] += 1
            if st["barbarians"] >= BARBARIAN_TRACK:
                _attack(game)
            return
        i = TRACKS.index(gate)  # CK-PROG-1: the gate's colour, the red die within the level's numbers
        p0, n = game.active_player, game.n
        for k in range(n):
            q = (p0 + k) % n
            if red in progress_numbers(st["levels"][q][i]):
                _draw(game, q, gate)

    def hand_limit(self, game, player: int, limit: int) -> int:
        return limit + WALL_HAND_BONUS * len(game.ext[NAME]["walls"][player])  # CK-WALL-1

    def on_roll(self, game, total: int) -> None:
        from .robber import MOVE_ROBBER

        st = _st(game)
        if total == 7:
            if st["attacks"] == 0:  # CK-BAR-4: the robber waits for the first attack
                game.drop(MOVE_ROBBER, game.active_player)
            return
        game.push_in_turn_order(AQUEDUCT, dict.fromkeys(aqueduct_seats(game, total)))

    def rate(self, game, player: int, good: int, rate: int) -> int:
        st = game.ext[NAME]  # (asked for every good of every position a bot weighs: kept lean)
        if st["levels"][player][_TRADE_TRACK] >= ABILITY_LEVEL and isinstance(game.goods[good], Commodity):
            return min(rate, 2)  # CK-IMP-3 Trading House: commodities 2:1
        m = st["merchant"]
        if m is not None and m[0] == player and game.hex_terrain[m[1]].resource.value == good:
            return min(rate, MERCHANT_RATE)  # CK-MER-1
        fleet = st["fleet"]
        if fleet and [player, good] in fleet:
            return min(rate, FLEET_RATE)  # CK-PC-22
        return rate

    def vp(self, game, player: int, visible: bool) -> int:
        st = game.ext[NAME]
        merchant = st["merchant"] is not None and st["merchant"][0] == player
        metropolises = 0
        for m in st["metropolis"]:
            if m is not None and m[0] == player:
                metropolises += 1
        return (METROPOLIS_VP * metropolises
                + st["defender"][player] + len(st["vp_cards"][player]) + MERCHANT_VP * merchant)

    def module_builds(self, game, player: int, out: list) -> None:
        st = _st(game)
        h = game.hands[player]
        if game.affords(h, _cost(game, KNIGHT_COST)):
            if _count(game, player, 1) < KNIGHTS_PER_LEVEL:
                out.extend(HireKnight(v) for v in game.candidates(player, "knight"))
            fortress = st["levels"][player][TRACKS.index(Track.POLITICS)] >= ABILITY_LEVEL
            for row in knights(game, player):
                if not row[5] and (row[2] == 1 or (row[2] == 2 and fortress)) and \
                        _count(game, player, row[2] + 1) < KNIGHTS_PER_LEVEL:
                    out.append(PromoteKnight(row[0]))
        if game.affords(h, _cost(game, ACTIVATE_COST)):
            out.extend(ActivateKnight(r[0]) for r in knights(game, player) if not r[3])
        cities = _cities(game, player)
        if cities:
            for i, track in enumerate(TRACKS):
                if st["levels"][player][i] < MAX_LEVEL and game.affords(h, improvement_cost(game, player, track)):
                    out.append(ImproveCity(track))
            if len(st["walls"][player]) < WALLS_PER_PLAYER and game.affords(h, _cost(game, WALL_COST)):
                walled = {v for w in st["walls"] for v in w}
                out.extend(BuildWall(v) for v in cities if v not in walled)

    def legal(self, game, out: list) -> None:
        ph = game.phase
        p = game.current_player
        st = _st(game)
        if ph is Phase.MAIN:
            if p != game.active_player:
                return
            if st["hands"][p]:
                _legal_progress(game, p, out)
            for row in knights(game, p):
                if not row[3] or row[4]:
                    continue
                out.extend(MoveKnight(row[0], v) for v in _free_on_roads(game, p, row[0]) if v != row[0])
                reach = _connected(game, p, row[0])
                for other in st["knights"]:
                    if other[1] != p and other[2] < row[2] and other[0] in reach:
                        out.append(DisplaceKnight(row[0], other[0]))
                if st["attacks"] and _chase_hexes(game, row[0]):
                    hx = game.robber
                    for to in game.robber_targets():
                        if to == hx:
                            continue
                        victims = [o for o in game.hex_players(to) if o != p and any(game.hands[o])]
                        if not (victims and game.rules.steal_mandatory):
                            out.append(ChaseRobber(row[0], hx, to))
                        out.extend(ChaseRobber(row[0], hx, to, v) for v in victims)
        elif ph is LOSE_CITY:
            metro = _metropolis_nodes(game)
            out.extend(LoseCity(v) for v in _cities(game, p) if v not in metro)
        elif ph is DEFENDER_DRAW:
            out.extend(d for d, deck in zip(_DRAWS, st["decks"]) if deck)
            if not any(st["decks"]):
                out.extend(_DRAWS)
        elif ph is RETREAT:
            spots = _retreats(game)
            out.extend(RetreatKnight(v) for v in spots) if spots else out.append(RetreatKnight(None))
        elif ph is RETURN_PROGRESS:
            out.extend(ReturnProgress(c) for c in sorted(set(st["hands"][p])))
        elif ph is AQUEDUCT:
            out.extend(a for a in _TAKE if game.bank[a.resource.value] > 0)
        elif ph is METROPOLIS:
            metro = _metropolis_nodes(game)
            out.extend(ChooseMetropolis(v) for v in _cities(game, p) if v not in metro)
        elif ph is Phase.ROLL:
            if "alchemist" in st["hands"][p]:
                out.extend(_ALCHEMY)
        elif ph is DESERTER:
            out.extend(RemoveKnight(r[0]) for r in knights(game, p))
        elif ph is DESERTER_PLACE:
            if _deserter_level(game, p) is not None:
                out.extend(PlaceDeserter(v) for v in game.candidates(p, "knight"))
            out.append(PlaceDeserter(None))
        elif ph is WEDDING:
            h = game.hands[p]
            out.extend(a for g, a in enumerate(_gifts(game.n_goods)) if h[g])
        elif ph is HARBOR_OFFER:
            out.extend(HarborOffer(r) for r in Resource if game.hands[p][r.value])
        elif ph is HARBOR_REPLY:
            out.extend(HarborReply(c) for c in self.goods if game.hands[p][game.good_index(c)])
        elif ph is SPY:
            out.extend(SpyTake(c) for c in sorted(set(st["hands"][game.stack[-1].data])))
        elif ph is MASTER_MERCHANT:
            q = game.stack[-1].data
            out.extend(TakeGoods(c) for c in _takes(game.hands[q], MASTER_MERCHANT_TAKE))
        else:  # Road Building (CK-PC-9), the Diplomat's road (CK-PC-13): the engine lists the roads
            out.append(_END_RB)

    def on_remove(self, game, player: int, kind: str, site: int) -> None:
        if kind == "city":
            for i, m in enumerate(_st(game)["metropolis"]):
                if m is not None and m[1] == site:  # never happens by the rules (CK-BAR-2 spares metropolises)
                    _st(game)["metropolis"][i] = None

    def on_end_turn(self, game) -> None:
        st = _st(game)
        for row in st["knights"]:
            row[4] = False
            row[5] = False
        st["crane"] = None  # CK-PC-2, CK-PC-22, CK-PC-19: for this turn only
        st["fleet"] = []
        st["harbored"] = []

    def view(self, game, player: int) -> dict:
        st = _st(game)
        return {
            "levels": [list(x) for x in st["levels"]], "metropolis": [None if m is None else list(m) for m in st["metropolis"]],
            "walls": [list(w) for w in st["walls"]], "knights": [list(r) for r in st["knights"]],
            "barbarians": st["barbarians"], "attacks": st["attacks"], "defender": list(st["defender"]),
            "decks": [len(d) for d in st["decks"]], "hand": list(st["hands"][player]),
            "hand_sizes": [len(h) for h in st["hands"]], "vp_cards": [list(v) for v in st["vp_cards"]],
            "merchant": None if st["merchant"] is None else list(st["merchant"]), "crane": st["crane"],
            "fleet": [list(f) for f in st["fleet"]],
            **_looked_at(game, player),
        }

    def copy_state(self, st: dict) -> dict:
        # Copied for every node of a search: the known lists of rows and of atoms directly (the same
        # copy as copy_plain, faster); any other entry ("displaced"...) by copy_plain.
        keys = st.keys()
        if keys == _USUAL or keys == _USUAL_ATTACKED:  # the entries of every turn: copied one by one
            try:
                c = st.copy()  # the atoms shared, the entries in their order
                for k in ("levels", "walls", "knights", "decks", "hands", "vp_cards", "fleet"):
                    c[k] = list(map(_copy_list, st[k]))
                c["metropolis"] = [r if r is None else r[:] for r in st["metropolis"]]
                c["defender"] = st["defender"][:]
                c["harbored"] = st["harbored"][:]
                m = st["merchant"]
                if m is not None:
                    c["merchant"] = m[:]
                v = st.get("last_attack")
                if type(v) is dict:
                    c["last_attack"] = {k: (x[:] if type(x) is list and _ATOMS.issuperset(map(type, x))
                                            else copy_plain(x)) for k, x in v.items()}
                return c
            except TypeError:  # a row that is no list (a tuple, None...): the general copy below
                pass
        c = {}
        for k, v in st.items():  # the entries in their order
            how = _COPY_HOW.get(k)
            if how is None:
                c[k] = copy_plain(v)
            elif how == _ATOM or v is None:
                c[k] = v
            elif how == _FLAT:
                c[k] = v[:]
            elif how == _ROWS:
                if None in v:  # no metropolis yet (CK-IMP-4)
                    c[k] = [r if r is None else r[:] for r in v]
                else:
                    try:
                        c[k] = list(map(_copy_list, v))  # rows of lists, copied in C
                    except TypeError:  # a row that is a tuple
                        c[k] = [r[:] for r in v]
            elif type(v) is dict:  # the last attack's record: atoms and lists of atoms (_attack)
                c[k] = {j: (x[:] if type(x) is list and _ATOMS.issuperset(map(type, x)) else copy_plain(x))
                        for j, x in v.items()}
            else:
                c[k] = copy_plain(v)
        return c

    def determinize(self, game, observer: int, rng) -> None:
        """The decks' order and the other players' progress cards are hidden; how many cards of each
        colour a player holds is public (the backs show it), so each colour is dealt again.  A hand
        the observer is looking at (Spy, Master Merchant) is known and kept."""
        st = _st(game)
        seen = _looked_at(game, observer)
        if "looked" in seen:  # CK-PC-20: the victim's cards are known; the others' are dealt from the rest
            q0, known = seen["looked"]
            others = [q for q in range(game.n) if q not in (observer, q0)]
            pool = [g for g in range(game.n_goods)
                    for _ in range(sum(game.hands[q][g] for q in others + [q0]) - known[g])]
            deal_again(pool, rng)
            game.hands[q0] = list(known)
            for q in others:
                k = sum(game.hands[q])
                game.hands[q] = [0] * game.n_goods
                for g in pool[:k]:
                    game.hands[q][g] += 1
                del pool[:k]
        spied = seen.get("spied", (None,))[0]
        for i, track in enumerate(TRACKS):
            pool = list(st["decks"][i])
            counts = []
            for q in range(game.n):
                mine = [c for c in st["hands"][q] if c in DECKS[track]]
                hidden = q not in (observer, spied)
                counts.append(len(mine) if hidden else 0)
                if hidden:
                    pool.extend(mine)
                    st["hands"][q] = [c for c in st["hands"][q] if c not in DECKS[track]]
            deal_again(pool, rng)
            for q in range(game.n):
                for _ in range(counts[q]):
                    st["hands"][q].append(pool.pop())
            st["decks"][i] = pool
        for q in range(game.n):
            st["hands"][q].sort()

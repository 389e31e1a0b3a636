"""Rule constants and the typed enums every layer shares.

This is the one place for each rule constant (STYLE.md, point 8): costs, deck
counts, piece limits, bank size, token sequences and the VP target.  The engine,
the figures and the lessons all read them from here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

__all__ = [
    "NamedEnum",
    "Good",
    "GoodRules",
    "register_good",
    "good_rules",
    "registered_goods",
    "Resource",
    "Terrain",
    "LAND_TERRAINS",
    "Commodity",
    "HarbourKind",
    "HarbourCode",
    "DevCard",
    "N_DEV_CARDS",
    "Building",
    "Colour",
    "Guild",
    "HelperCard",
    "FAVOUR_SUPPLY",
    "GUILD_PRICE",
    "CATAN_TOKENS",
    "FRIENDS_VP_TO_WIN",
    "RESOURCES",
    "TERRAIN_RESOURCE",
    "COSTS",
    "BANK_PER_RESOURCE",
    "DEV_DECK",
    "PIECE_LIMITS",
    "VP_TO_WIN",
    "BASE_TERRAIN_COUNTS",
    "BASE_TOKEN_LETTERS",
    "BASE_HARBOURS",
    "HARBOUR_PROPOSAL_POSITIONS",
    "HARBOUR_PROPOSAL_TYPES",
    "X56_TERRAIN_COUNTS",
    "X56_TOKEN_LETTERS",
    "X56_BANK_PER_RESOURCE",
    "X56_DEV_DECK",
    "X56_HARBOUR_PROPOSAL_POSITIONS",
    "X56_HARBOUR_PROPOSAL_TYPES",
    "X56_ROWS",
    "BASE_ROWS",
    "LONGEST_ROAD_MIN",
    "LARGEST_ARMY_MIN",
    "SPECIAL_CARD_VP",
    "DISCARD_LIMIT",
    "roll_probability",
    "pips",
]


class NamedEnum(enum.Enum):
    """Enum whose repr evaluates back (``Resource.ORE``) and that parses from strings (``"ore"``).

    The base of every enum of the package; a module's own enums (its goods, its tracks...) derive
    from it too, so that their members are named in lower case in saves and messages.
    """

    # Members are singletons compared by identity, so they hash by identity too: in C, where
    # Enum's own hash runs Python code on every dict or set lookup.
    __hash__ = object.__hash__

    def __repr__(self) -> str:  # pragma: no cover - trivial
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: "str | NamedEnum"):
        """Parse a name such as ``"ore"`` or ``"ORE"`` (strings only at the edges)."""
        if isinstance(text, cls):
            return text
        try:
            return cls[str(text).strip().upper().replace(" ", "_")]
        except KeyError:
            names = ", ".join(m.name.lower() for m in cls)
            raise ValueError(f"unknown {cls.__name__.lower()} {text!r}; expected one of {names}") from None


#: The former name of :class:`NamedEnum` (kept for code written against it).
_ReprEnum = NamedEnum


class Good(NamedEnum):
    """Anything that can be held, paid, traded or discarded: the base of every kind of good.

    :class:`Resource` and :class:`Commodity` derive from it, and so does a rule module's own
    good (``class Catch(Good): FISH = 0``, declared in the module's ``goods``).  A field typed
    ``Good`` accepts every registered good (:func:`register_good`): in actions, saves and views.
    Names are unique across every registered good, so ``Good.parse("fish")`` finds the member.

    Examples
    --------
    >>> Good.parse("ore"), Good.parse("cloth")
    (Resource.ORE, Commodity.CLOTH)
    >>> isinstance(Resource.ORE, Good)
    True
    """

    @classmethod
    def parse(cls, text: "str | NamedEnum"):
        """The good named ``text`` (any registered good when called on ``Good`` itself)."""
        if cls is not Good:
            return super().parse(text)
        if isinstance(text, Good):
            return text
        good = _GOODS.get(str(text).strip().lower().replace(" ", "_"))
        if good is None:
            raise ValueError(f"unknown good {text!r}; expected one of {', '.join(_GOODS)}")
        return good[0]


@dataclass(frozen=True, slots=True)
class GoodRules:
    """How the engine treats a good: which of the base game's card rules apply to it.

    The defaults are those of a commodity (CK-COM-1): traded with the bank, stolen by the robber
    and its kin, discarded on a 7 (and counted toward the hand limit), but never named by
    Monopoly.  The five resources apply every rule.

    Parameters
    ----------
    bank_trade : bool
        Maritime trade may give or take it (B-TRADE-6..11).
    stolen : bool
        A steal may draw it (B-ROB-7; the pirate, the Bishop...); a hand of only goods that are
        never stolen cannot be robbed (B-ROB-8).
    discarded : bool
        It counts toward the hand limit on a 7 and may be discarded (B-ROB-2, B-ROB-3).
    monopolised : bool
        Monopoly (B-DEV-7) and Resource Monopoly (CK-PC-23) may name it.
    public : bool
        Everyone sees how many each seat holds (open coins on the table): views show it per seat
        (``PlayerView.public_goods``) and a determinisation (``Game.determinized``) leaves it
        where it is instead of dealing it again among the opponents' hidden cards.  No good of
        the base game or its expansions is public.

    Examples
    --------
    >>> GoodRules(public=True, stolen=False).public, GoodRules().public
    (True, False)
    """

    bank_trade: bool = True
    stolen: bool = True
    discarded: bool = True
    monopolised: bool = False
    public: bool = False


#: Registered goods by name: ``(member, rules)``.
_GOODS: dict[str, tuple[Good, GoodRules]] = {}


def register_good(good: Good, rules: GoodRules | None = None) -> Good:
    """Make ``good`` known to actions, saves and the engine, with its :class:`GoodRules`.

    Rule modules need not call this: ``register`` does it for each good in a module's ``goods``
    (with the rules in its ``good_rules``).  Registering a good again is harmless; ``rules``
    (``None``: keep the registered ones, or the defaults) must then agree.

    Raises
    ------
    TypeError
        For anything but a member of an enum derived from :class:`Good`.
    ValueError
        For a name another good has, or rules that contradict the registered ones.
    """
    if not isinstance(good, Good):
        raise TypeError(f"a good is a member of an enum derived from catan_nb.constants.Good "
                        f"(class Catch(Good): FISH = 0), not {good!r}")
    if rules is not None and not isinstance(rules, GoodRules):
        raise TypeError(f"the rules of {good} are a GoodRules, not {rules!r}")
    name = str(good)
    known = _GOODS.get(name)
    if known is not None:
        if known[0] is not good:
            raise ValueError(f"a good named {name!r} is registered already ({known[0]!r}); "
                             f"{good!r} needs another name")
        if rules is not None and rules != known[1]:
            raise ValueError(f"{good!r} is registered with {known[1]}, not {rules}")
        return good
    _GOODS[name] = (good, rules if rules is not None else GoodRules())
    return good


def good_rules(good: Good) -> GoodRules:
    """The :class:`GoodRules` of a registered good.

    Examples
    --------
    >>> good_rules(Resource.ORE).monopolised, good_rules(Commodity.COIN).monopolised
    (True, False)
    """
    known = _GOODS.get(str(good))
    if known is None or known[0] is not good:
        raise ValueError(f"{good!r} is not a registered good")
    return known[1]


def registered_goods() -> tuple[Good, ...]:
    """Every registered good, in the order of registration (the resources first)."""
    return tuple(g for g, _ in _GOODS.values())


class Resource(Good):
    """The five resources (B-COMP-1).  Values index hands and the bank."""

    LUMBER = 0
    BRICK = 1
    WOOL = 2
    GRAIN = 3
    ORE = 4


RESOURCES: tuple[Resource, ...] = tuple(Resource)


class Terrain(NamedEnum):
    """What a hex is: the six land terrains (B-COMP-1, B-COMP-3), the sea, and the Seafarers kinds.

    ``GOLD`` is a gold field (SF-1: land that pays resources of one's choice) and ``FOG``
    a hex still face down (SF-3: its terrain is drawn when revealed).  Which kinds a game
    may use is checked by the rule modules (the base game: land and sea).
    """

    FOREST = "forest"
    HILLS = "hills"
    PASTURE = "pasture"
    FIELDS = "fields"
    MOUNTAINS = "mountains"
    DESERT = "desert"
    SEA = "sea"
    GOLD = "gold"
    FOG = "fog"

    @property
    def resource(self) -> Resource | None:
        """The resource this terrain produces, or ``None`` (desert, sea, gold field, fog)."""
        return TERRAIN_RESOURCE[self]

    @property
    def is_land(self) -> bool:
        """Land hexes carry intersections for buildings; the sea does not (fog counts as land until revealed)."""
        return self is not Terrain.SEA


#: The six terrains of the base island (B-COMP-1).
LAND_TERRAINS: tuple[Terrain, ...] = (
    Terrain.FOREST, Terrain.HILLS, Terrain.PASTURE, Terrain.FIELDS, Terrain.MOUNTAINS, Terrain.DESERT,
)


class Commodity(Good):
    """Cities & Knights commodities (CK-COM-1).  Goods a module adds after the five resources."""

    CLOTH = 0
    COIN = 1
    PAPER = 2


for _r in Resource:
    register_good(_r, GoodRules(monopolised=True))  # every card rule applies (B-TRADE-6, B-ROB-2, B-ROB-7, B-DEV-7)
for _c in Commodity:
    register_good(_c)  # traded, stolen and discarded; only C&K's Trade Monopoly names them (CK-PC-24)
del _r, _c


class HarbourKind(NamedEnum):
    """A harbour that is not tied to one resource (B-TRADE-7): the generic 3:1 harbour.

    A 2:1 harbour is named by its :class:`Resource` (B-TRADE-8).  Harbour codes are these
    members and never ints, so that a harbour can never be read as a good's index (the
    generic harbour once had code 5, which is cloth's index in Cities & Knights).
    """

    GENERIC = "generic"


#: What a harbour intersection offers: its 2:1 resource (B-TRADE-8) or the generic 3:1 harbour (B-TRADE-7).
HarbourCode = Resource | HarbourKind


#: B-COMP-1: which terrain produces which resource.
TERRAIN_RESOURCE = MappingProxyType(
    {
        Terrain.FOREST: Resource.LUMBER,
        Terrain.HILLS: Resource.BRICK,
        Terrain.PASTURE: Resource.WOOL,
        Terrain.FIELDS: Resource.GRAIN,
        Terrain.MOUNTAINS: Resource.ORE,
        Terrain.DESERT: None,
        Terrain.SEA: None,
        Terrain.GOLD: None,
        Terrain.FOG: None,
    }
)


class DevCard(NamedEnum):
    """Development card kinds (B-DEV-1, B-COMP-6..8).  Values index card counts."""

    KNIGHT = 0
    ROAD_BUILDING = 1
    YEAR_OF_PLENTY = 2
    MONOPOLY = 3
    VICTORY_POINT = 4


#: Development card kinds: the length of every count of development cards.
N_DEV_CARDS = len(DevCard)


class Building(NamedEnum):
    """What stands on an intersection."""

    SETTLEMENT = 1
    CITY = 2


class Colour(NamedEnum):
    """Player colours (B-COMP-9; brown and green come with the 5-6 extension)."""

    RED = "red"
    BLUE = "blue"
    WHITE = "white"
    ORANGE = "orange"
    BROWN = "brown"
    GREEN = "green"


class Guild(NamedEnum):
    """The five guilds of Friends and their favour tokens (F-COMP-2).  Values index token counts."""

    MERCHANTS = 0  # cart tokens (grey)
    TRADERS = 1  # ship tokens (blue)
    PAVERS = 2  # shovel tokens (brown)
    PROFESSORS = 3  # book tokens (orange)
    ARCHITECTS = 4  # compass tokens (green)

    @property
    def token(self) -> str:
        """The token's picture: cart, ship, shovel, book or compass."""
        return ("cart", "ship", "shovel", "book", "compass")[self.value]


class HelperCard(NamedEnum):
    """The ten helpers (H-COMP-1, H-CARD-1..9).  Values 1-6 are the numbers on side A."""

    MERCHANT = 1  # A1 Forced Trade (H-CARD-1)
    MENDICANT = 2  # A2 Road Building Assistance (H-CARD-2)
    MAYOR = 3  # A3 Resource Balance (H-CARD-3)
    EXPLORER = 4  # A4 (H-CARD-9 PROPOSAL)
    GENERAL = 5  # A5 Protection from the 7 (H-CARD-4)
    ARCHITECT = 6  # A6 (H-CARD-9 PROPOSAL)
    ROBBER_BRIDE = 7  # unnumbered (H-CARD-5)
    CAPTAIN = 8  # unnumbered (H-CARD-6)
    PRIEST = 9  # unnumbered (H-CARD-7)
    NOBLEWOMAN = 10  # unnumbered (H-CARD-8)

    @property
    def number(self) -> int | None:
        """The number on side A (A1-A6), or None for the four unnumbered helpers."""
        return self.value if self.value <= 6 else None

    @property
    def title(self) -> str:
        """The advantage printed on the card."""
        return HELPER_TITLES[self]


HELPER_TITLES = {
    HelperCard.MERCHANT: "Forced Trade",
    HelperCard.MENDICANT: "Road Building Assistance",
    HelperCard.MAYOR: "Resource Balance",
    HelperCard.EXPLORER: "Move a dead-end road (proposal)",
    HelperCard.GENERAL: "Protection from the 7",
    HelperCard.ARCHITECT: "Choose a development card (proposal)",
    HelperCard.ROBBER_BRIDE: "Send the Robber to the Desert",
    HelperCard.CAPTAIN: "Free Port Trades",
    HelperCard.PRIEST: "Swords to Plowshares",
    HelperCard.NOBLEWOMAN: "Alms for the Poor",
}


def _cost(**kw: int) -> tuple[int, int, int, int, int]:
    return tuple(kw.get(r.name.lower(), 0) for r in RESOURCES)  # type: ignore[return-value]


#: B-BUILD-1: building costs as counts indexed by ``Resource.value``.
COSTS = MappingProxyType(
    {
        "road": _cost(brick=1, lumber=1),
        "settlement": _cost(brick=1, lumber=1, wool=1, grain=1),
        "city": _cost(ore=3, grain=2),
        "development_card": _cost(ore=1, wool=1, grain=1),
    }
)

#: B-COMP-2: 19 cards of each resource in the bank.
BANK_PER_RESOURCE = 19

#: B-COMP-6, B-COMP-7, B-COMP-8: the 25-card development deck.
DEV_DECK = MappingProxyType(
    {
        DevCard.KNIGHT: 14,
        DevCard.ROAD_BUILDING: 2,
        DevCard.YEAR_OF_PLENTY: 2,
        DevCard.MONOPOLY: 2,
        DevCard.VICTORY_POINT: 5,
    }
)

#: B-COMP-9: pieces per colour.
PIECE_LIMITS = MappingProxyType({"road": 15, "settlement": 5, "city": 4})

#: B-END-2.
VP_TO_WIN = 10
#: B-LR-4.
LONGEST_ROAD_MIN = 5
#: B-LA-1.
LARGEST_ARMY_MIN = 3
#: B-COMP-10, B-END-1: Longest Road and Largest Army are worth 2 VP each.
SPECIAL_CARD_VP = 2
#: B-ROB-2: a player holding more than this many resource cards discards on a 7.
DISCARD_LIMIT = 7

#: B-COMP-3: the 19 base hexes.
BASE_TERRAIN_COUNTS = MappingProxyType(
    {
        Terrain.FOREST: 4,
        Terrain.PASTURE: 4,
        Terrain.FIELDS: 4,
        Terrain.HILLS: 3,
        Terrain.MOUNTAINS: 3,
        Terrain.DESERT: 1,
    }
)

#: B-SETUP-11: token values in letter order A..R.
BASE_TOKEN_LETTERS: tuple[int, ...] = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)

#: B-COMP-11: 4 generic 3:1 harbours and one 2:1 harbour per resource.
BASE_HARBOURS = MappingProxyType({None: 4, **{r: 1 for r in RESOURCES}})

#: B-BOARD-9 (GAP, PROPOSAL): coastal path numbers that carry a harbour ...
HARBOUR_PROPOSAL_POSITIONS: tuple[int, ...] = (0, 3, 7, 10, 13, 17, 20, 23, 27)
#: ... and their types in the same order (``None`` is a generic 3:1 harbour).
HARBOUR_PROPOSAL_TYPES: tuple[Resource | None, ...] = (
    None,
    Resource.WOOL,
    None,
    Resource.ORE,
    Resource.GRAIN,
    None,
    Resource.BRICK,
    Resource.LUMBER,
    None,
)


#: B-BOARD-1: the base island's rows.
BASE_ROWS: tuple[int, ...] = (3, 4, 5, 4, 3)

# ---------------------------------------------------------------- 5-6 player extension
#: X56-BOARD-2: rows of the 30-hex island.
X56_ROWS: tuple[int, ...] = (3, 4, 5, 6, 5, 4, 3)
#: X56-COMP-2: the 30 hexes with the extension.
X56_TERRAIN_COUNTS = MappingProxyType(
    {
        Terrain.FOREST: 6,
        Terrain.PASTURE: 6,
        Terrain.FIELDS: 6,
        Terrain.HILLS: 5,
        Terrain.MOUNTAINS: 5,
        Terrain.DESERT: 2,
    }
)
#: X56-BOARD-4 (PUB:P4, medium confidence): token values for letters A..Y, Za, Zb, Zc.
X56_TOKEN_LETTERS: tuple[int, ...] = (
    2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4, 8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6,
)  # fmt: skip
#: X56-COMP-2: 24 cards of each resource.
X56_BANK_PER_RESOURCE = 24
#: X56-COMP-3: 34 development cards.
X56_DEV_DECK = MappingProxyType(
    {
        DevCard.KNIGHT: 20,
        DevCard.ROAD_BUILDING: 3,
        DevCard.YEAR_OF_PLENTY: 3,
        DevCard.MONOPOLY: 3,
        DevCard.VICTORY_POINT: 5,
    }
)
#: X56-BOARD-7 (GAP, PROPOSAL): 11 harbours spread evenly over the 38 coastal paths, numbered
#: as in B-BOARD-9 (position i at round(i * 38 / 11)) ...
X56_HARBOUR_PROPOSAL_POSITIONS: tuple[int, ...] = tuple(int(i * 38 / 11 + 0.5) for i in range(11))
#: ... with the base order of types followed by the extension's wool and generic harbours (X56-COMP-6).
X56_HARBOUR_PROPOSAL_TYPES: tuple[Resource | None, ...] = (*HARBOUR_PROPOSAL_TYPES, Resource.WOOL, None)


# ---------------------------------------------------------------- Friends (guild favours)
#: F-SETUP-2: favour tokens in the supply by player count, per guild.
FAVOUR_SUPPLY = MappingProxyType(
    {
        n: MappingProxyType(
            {Guild.PAVERS: 2 * n, Guild.TRADERS: 2 * n, Guild.MERCHANTS: 2 * n, Guild.ARCHITECTS: 4 * n,
             Guild.PROFESSORS: 4 * n}
        )
        for n in (3, 4, 5, 6)
    }
)
#: F-USE-3: tokens needed to use each guild.
GUILD_PRICE = MappingProxyType(
    {Guild.MERCHANTS: 1, Guild.TRADERS: 1, Guild.PAVERS: 1, Guild.PROFESSORS: 2, Guild.ARCHITECTS: 2}
)
#: F-COMP-1: Catan tokens (1 visible VP each).
CATAN_TOKENS = 12
#: F-END-1.
FRIENDS_VP_TO_WIN = 11


def roll_probability(total: int) -> Fraction:
    """Probability that two six-sided dice sum to ``total`` (B-COMP-5).

    Examples
    --------
    >>> roll_probability(7)
    Fraction(1, 6)
    >>> roll_probability(2)
    Fraction(1, 36)
    >>> roll_probability(13)
    Fraction(0, 1)
    """
    if not 2 <= total <= 12:
        return Fraction(0)
    return Fraction(6 - abs(7 - total), 36)


def pips(token: int | None) -> int:
    """Number of dots printed on a token: ways to roll it out of 36 (B-COMP-5).

    Examples
    --------
    >>> [pips(k) for k in (2, 6, 8, 12)]
    [1, 5, 5, 1]
    """
    if token is None or not 2 <= token <= 12 or token == 7:
        return 0
    return 6 - abs(7 - token)

"""Rule constants and enums of the Catan Dice Game (RULES.md section 12).

The one place for the dice game's numbers (STYLE.md, point 8): the faces of a
die, the build costs, the number of rolls, turns and VP.  The engine, the odds,
the figure, the widget and the lesson all read them from here.

Examples
--------
>>> Face.parse("gold")
Face.GOLD
>>> COSTS[Kind.CITY]
(0, 0, 0, 2, 3)
>>> cost_text(COSTS[Kind.SETTLEMENT])
'lumber+brick+wool+grain'
"""

from __future__ import annotations

from types import MappingProxyType

from ..constants import NamedEnum, Resource

__all__ = [
    "Face",
    "Kind",
    "Variant",
    "FACES",
    "RESOURCE_FACES",
    "COSTS",
    "N_DICE",
    "MAX_ROLLS",
    "TURNS",
    "NO_BUILD_PENALTY",
    "PLAYERS",
    "PLUS_VP_TO_WIN",
    "PLUS_FIRST_DICE",
    "PLUS_LONGEST_ROAD_MIN",
    "PLUS_LARGEST_ARMY_MIN",
    "PLUS_SPECIAL_VP",
    "cost_text",
    "faces_text",
]


class Face(NamedEnum):
    """The six faces of a resource die (DG-COMP-1).

    Values 0-4 match :class:`catan_nb.Resource`; 5 is gold, which pays for
    nothing directly (DG-GOLD-1).
    """

    LUMBER = 0
    BRICK = 1
    WOOL = 2
    GRAIN = 3
    ORE = 4
    GOLD = 5

    @property
    def resource(self) -> Resource | None:
        """The resource this face provides, ``None`` for gold."""
        return None if self is Face.GOLD else Resource(self.value)

    @classmethod
    def of(cls, resource: Resource) -> "Face":
        """The face showing ``resource``."""
        return cls(Resource.parse(resource).value)


class Kind(NamedEnum):
    """What a structure of the sheet is (DG-SHEET-1)."""

    START = 0
    ROAD = 1
    SETTLEMENT = 2
    CITY = 3
    KNIGHT = 4


class Variant(NamedEnum):
    """The side of the sheet (DG-COMP-2, DG-SETUP-1)."""

    NORMAL = 0
    PLUS = 1


FACES: tuple[Face, ...] = tuple(Face)
RESOURCE_FACES: tuple[Face, ...] = FACES[:5]


def _cost(**kw: int) -> tuple[int, int, int, int, int]:
    return tuple(kw.get(r.name.lower(), 0) for r in Resource)  # type: ignore[return-value]


#: DG-BUILD-1: costs as counts indexed by ``Resource.value`` (lumber, brick, wool, grain, ore).
COSTS = MappingProxyType(
    {
        Kind.START: _cost(),
        Kind.ROAD: _cost(brick=1, lumber=1),
        Kind.SETTLEMENT: _cost(brick=1, lumber=1, wool=1, grain=1),
        Kind.CITY: _cost(ore=3, grain=2),
        Kind.KNIGHT: _cost(ore=1, wool=1, grain=1),
    }
)

#: DG-COMP-1: resource dice in the box (and rolled by the normal game, DG-ROLL-1).
N_DICE = 6
#: DG-ROLL-2: rolls per turn at most.
MAX_ROLLS = 3
#: DG-END-1: turns per player (boxes of the score track, DG-SCORE-2).
TURNS = 15
#: DG-SCORE-3: a turn without a build.
NO_BUILD_PENALTY = -2
#: DG-COMP-3 / DGP-1: player counts per variant.
PLAYERS = MappingProxyType({Variant.NORMAL: (1, 4), Variant.PLUS: (2, 4)})
#: DGP-2.
PLUS_VP_TO_WIN = 10
#: DGP-8: dice of the game's first turn (then one more per turn, up to N_DICE).
PLUS_FIRST_DICE = 3
#: DGP-6 / DGP-7: the road length that first claims the Longest Road.
PLUS_LONGEST_ROAD_MIN = 5
#: DGP-4: knights that first claim the Largest Army.
PLUS_LARGEST_ARMY_MIN = 3
#: DGP-4 / DGP-6: VP of each special title.
PLUS_SPECIAL_VP = 2


def cost_text(counts) -> str:
    """A cost or a hand of resources as text, e.g. ``'brick+lumber'`` (``'nothing'`` if empty)."""
    parts = []
    for r in Resource:
        k = counts[r.value]
        parts += [str(r)] * k
    return "+".join(parts) or "nothing"


def faces_text(faces) -> str:
    """Dice faces as text, e.g. ``'ore, ore, gold'`` (``'no dice'`` if empty)."""
    return ", ".join(str(Face.parse(f)) for f in faces) or "no dice"

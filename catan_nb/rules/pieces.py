"""Piece kinds: what can stand on an intersection or a path, as data.

The base game registers settlements, cities and roads; a rule module adds its
own kinds (ships, knights...) by listing :class:`PieceKind` values in its
``pieces``.  The engine places, counts, limits and draws every kind the same way,
reading only these properties:

* ``site``: ``"node"`` (an intersection) or ``"path"``;
* ``limit``: pieces per player (B-COMP-9);
* ``cost``: what building one costs, a mapping by good name (B-BUILD-1): the declaration;
  a game gives it as counts per good with ``game.cost(kind)``, and with a site's surcharge
  with ``game.site_cost(player, kind, site)``;
* ``vp``: victory points it is worth on the board (B-END-1);
* ``produces``: how many cards of a hex's resource it collects (B-PROD-3, B-PROD-4);
* ``building``: a settlement or city: the distance rule counts it (B-BUILD-7), a
  path piece may start from it, roads and ships meet at it (SF-7);
* ``blocks``: an opponent's path cannot be built through it and an opponent's
  trail is broken there (B-BUILD-4, B-LR-2; CK-KN-7 for knights);
* ``land`` / ``sea``: which paths a path piece may use (roads on land paths,
  ships on sea paths: SF-6);
* ``upgrade_of``: the kind it replaces on the same site (a city, B-BUILD-9);
* ``free_in``: values of phases in which it may also be placed free, beside the
  phase's own free kinds (ships in Road Building, SF-17);
* ``founding``: a path piece that may stand in the founding phase in place of the
  road beside the settlement just placed (ships, SF-6: placed like roads);
* ``joins``: for a path piece, the names of the other path kinds it joins directly, at
  any intersection: one continues the other where it is built, and a trail runs from one
  to the other for Longest Road.  Joining is mutual (either kind may name the other) and
  carries over (a kind joined to a kind joined to a third joins the third).  Kinds that do
  not join meet only at their owner's settlement or city, as roads and ships do (SF-7, SF-8).

Examples
--------
>>> PIECES["city"].upgrade_of, PIECES["city"].vp
('settlement', 2)
>>> PIECES["road"].site, PIECES["road"].limit
('path', 15)

A bridge that carries a road on (an example kind, not a Catan piece):

>>> PieceKind("bridge", "path", limit=3, joins=("road",)).joins
('road',)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ..constants import COSTS, PIECE_LIMITS, Resource

__all__ = ["PieceKind", "PIECES", "register_piece", "SETTLEMENT", "CITY", "ROAD"]


@dataclass(frozen=True)
class PieceKind:
    """One kind of piece (see the module docstring)."""

    name: str
    site: str
    limit: int
    cost: Mapping[str, int] = field(default_factory=dict)
    vp: int = 0
    produces: int = 0
    building: bool = False
    blocks: bool = False
    land: bool = True
    sea: bool = False
    upgrade_of: str | None = None
    free_in: tuple[str, ...] = ()
    founding: bool = False
    owner: str = "base"
    joins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.site not in ("node", "path"):
            raise ValueError(f"a piece stands on a 'node' or a 'path', not {self.site!r}")
        if isinstance(self.joins, str) or not all(isinstance(j, str) for j in self.joins):
            raise ValueError(f"joins: a tuple of path kind names, not {self.joins!r}")
        object.__setattr__(self, "joins", tuple(self.joins))
        if self.joins and self.site != "path":
            raise ValueError(f"piece kind {self.name!r}: only a path piece joins other kinds (joins={self.joins!r})")
        object.__setattr__(self, "cost", MappingProxyType(dict(self.cost)))


#: Every registered piece kind by name (the base game's first).
PIECES: dict[str, PieceKind] = {}


def register_piece(kind: PieceKind) -> PieceKind:
    """Register a piece kind (idempotent for the same definition)."""
    old = PIECES.get(kind.name)
    if old is not None and old != kind:
        raise ValueError(f"piece kind {kind.name!r} is already registered by {old.owner!r}")
    PIECES[kind.name] = kind
    return kind


def _cost(counts: tuple[int, ...]) -> dict[str, int]:
    return {str(r): k for r, k in zip(Resource, counts) if k}


#: B-COMP-9, B-BUILD-1, B-PROD-3.
SETTLEMENT = register_piece(
    PieceKind("settlement", "node", PIECE_LIMITS["settlement"], _cost(COSTS["settlement"]), vp=1, produces=1,
              building=True, blocks=True)
)
#: B-BUILD-9, B-PROD-4.
CITY = register_piece(
    PieceKind("city", "node", PIECE_LIMITS["city"], _cost(COSTS["city"]), vp=2, produces=2, building=True,
              blocks=True, upgrade_of="settlement")
)
#: B-BUILD-3..5.
ROAD = register_piece(PieceKind("road", "path", PIECE_LIMITS["road"], _cost(COSTS["road"]), land=True))

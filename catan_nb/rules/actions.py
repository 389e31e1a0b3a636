"""Actions: one frozen dataclass per kind (STYLE.md, point 4).

Each action's ``repr`` evaluates back to an equal object, and
:func:`action_to_json` / :func:`action_from_json` give a stable JSON form.
Chance outcomes travel inside the action that causes them (``RollDice.dice``,
``MoveRobber.stolen``, ``BuyDevelopmentCard.card``): leave them ``None`` and the
game draws them from its seeded generator and records the result in its log;
give them and the game uses them (replays, worked examples, physical dice).

Examples
--------
>>> BuildRoad(12)
BuildRoad(path=12)
>>> action_from_json(action_to_json(MoveRobber(hex=4, victim=2)))
MoveRobber(hex=4, victim=2, stolen=None)
>>> eval(repr(PlayMonopoly(Resource.ORE))) == PlayMonopoly(Resource.ORE)
True
"""

from __future__ import annotations

import enum
import types
import typing
from dataclasses import dataclass, fields
from typing import Any

from ..constants import DevCard, Resource

__all__ = [
    "Action",
    "BuildSettlement",
    "BuildRoad",
    "BuildCity",
    "BuyDevelopmentCard",
    "RollDice",
    "EndTurn",
    "Discard",
    "MoveRobber",
    "PlayKnight",
    "PlayRoadBuilding",
    "EndRoadBuilding",
    "PlayYearOfPlenty",
    "PlayMonopoly",
    "MaritimeTrade",
    "OfferTrade",
    "AcceptTrade",
    "DeclineTrade",
    "ConfirmTrade",
    "CancelTrade",
    "ACTION_TYPES",
    "action_to_json",
    "action_from_json",
    "counts",
]

Counts = tuple[int, int, int, int, int]


def counts(**kw: int) -> Counts:
    """Resource counts as a 5-tuple indexed by ``Resource.value``.

    Examples
    --------
    >>> counts(wool=2, ore=1)
    (0, 0, 2, 0, 1)
    """
    for k in kw:
        Resource.parse(k)
    return tuple(kw.get(r.name.lower(), 0) for r in Resource)  # type: ignore[return-value]


class Action:
    """Base class of all actions.

    Fields are coerced on construction, so strings name enums at the edges
    (``PlayMonopoly("ore") == PlayMonopoly(Resource.ORE)``) and lists become tuples.
    """

    __slots__ = ()

    def __post_init__(self) -> None:
        for name, hint in _coercions(type(self)):
            v = getattr(self, name)
            if isinstance(v, (str, list)):
                try:
                    object.__setattr__(self, name, _decode(v, hint))
                except (TypeError, ValueError, KeyError):
                    pass  # left as given: the rules check reports it with its rule id
            elif isinstance(v, tuple) and any(isinstance(x, (str, list)) for x in v):
                try:
                    object.__setattr__(self, name, _decode(list(v), hint))
                except (TypeError, ValueError, KeyError):
                    pass


_COERCIONS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _coercions(cls: type) -> tuple[tuple[str, Any], ...]:
    out = _COERCIONS.get(cls)
    if out is None:
        hints = typing.get_type_hints(cls)
        out = _COERCIONS[cls] = tuple((f.name, hints[f.name]) for f in fields(cls))
    return out


@dataclass(frozen=True, slots=True)
class BuildSettlement(Action):
    """Found a settlement on an intersection (founding phase: free; later B-BUILD-1, B-BUILD-6, B-BUILD-7)."""

    node: int


@dataclass(frozen=True, slots=True)
class BuildRoad(Action):
    """Build a road on a path (B-BUILD-3..5); free in the founding phase and with Road Building."""

    path: int


@dataclass(frozen=True, slots=True)
class BuildCity(Action):
    """Upgrade one of your settlements to a city (B-BUILD-9)."""

    node: int


@dataclass(frozen=True, slots=True)
class BuyDevelopmentCard(Action):
    """Buy the top development card (B-BUILD-11).  ``card`` is the drawn outcome."""

    card: DevCard | None = None


@dataclass(frozen=True, slots=True)
class RollDice(Action):
    """Roll the two dice for production (B-PROD-1).  ``dice`` is the outcome."""

    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Declare the turn over (B-TURN-9)."""


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Return resource cards to the bank after a 7 (B-ROB-2): counts per resource.

    The discarding player is the game's current player.  Several cards may go at
    once, up to what is still owed; ``legal_actions`` lists one card at a time.
    """

    cards: Counts


@dataclass(frozen=True, slots=True)
class MoveRobber(Action):
    """Move the robber and optionally steal (B-ROB-5..8).  ``stolen`` is the outcome."""

    hex: int
    victim: int | None = None
    stolen: Resource | None = None


@dataclass(frozen=True, slots=True)
class PlayKnight(Action):
    """Play a knight: then move the robber (B-DEV-2)."""


@dataclass(frozen=True, slots=True)
class PlayRoadBuilding(Action):
    """Play Road Building: then up to 2 free roads (B-DEV-5)."""


@dataclass(frozen=True, slots=True)
class EndRoadBuilding(Action):
    """Stop placing free roads before both are placed (B-DEV-5 says "up to 2")."""


@dataclass(frozen=True, slots=True)
class PlayYearOfPlenty(Action):
    """Play Year of Plenty: take two resource cards from the bank (B-DEV-6)."""

    first: Resource
    second: Resource


@dataclass(frozen=True, slots=True)
class PlayMonopoly(Action):
    """Play Monopoly: every other player hands over all cards of ``resource`` (B-DEV-7)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class MaritimeTrade(Action):
    """Trade with the bank at your best rate for ``give`` (4:1, 3:1 or 2:1; B-TRADE-6..11)."""

    give: Resource
    get: Resource


@dataclass(frozen=True, slots=True)
class OfferTrade(Action):
    """Offer the other players a domestic trade (B-TRADE-2..5): counts you give and get."""

    give: Counts
    get: Counts


@dataclass(frozen=True, slots=True)
class AcceptTrade(Action):
    """The current responder accepts the open offer."""


@dataclass(frozen=True, slots=True)
class DeclineTrade(Action):
    """The current responder declines the open offer."""


@dataclass(frozen=True, slots=True)
class ConfirmTrade(Action):
    """The offering player completes the trade with one of the players who accepted."""

    partner: int


@dataclass(frozen=True, slots=True)
class CancelTrade(Action):
    """The offering player withdraws the offer."""


ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        BuildSettlement,
        BuildRoad,
        BuildCity,
        BuyDevelopmentCard,
        RollDice,
        EndTurn,
        Discard,
        MoveRobber,
        PlayKnight,
        PlayRoadBuilding,
        EndRoadBuilding,
        PlayYearOfPlenty,
        PlayMonopoly,
        MaritimeTrade,
        OfferTrade,
        AcceptTrade,
        DeclineTrade,
        ConfirmTrade,
        CancelTrade,
    )
}

def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any, hint: Any) -> Any:
    """Decode a JSON value by a field's type hint (ints, enums, tuples, optionals)."""
    if value is None:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        for a in options:
            try:
                return _decode(value, a)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{value!r} fits none of {options}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"expected a list, not {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(v, args[0]) for v in value)
        if len(value) != len(args):
            raise ValueError(f"expected {len(args)} items, not {len(value)}")
        return tuple(_decode(v, a) for v, a in zip(value, args))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint.parse(value)  # type: ignore[attr-defined]
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected an integer, not {value!r}")
        return value
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict for an action: ``{"type": "BuildRoad", "path": 12}``."""
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):  # type: ignore[arg-type]
        out[f.name] = _encode(getattr(action, f.name))
    return out


def action_from_json(data: dict[str, Any]) -> Action:
    """Parse :func:`action_to_json` output (fields decoded by the action's type hints).

    Raises
    ------
    ValueError
        For an unknown type or malformed field (callers wrap it with the file and field).
    """
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError("an action must be an object with a 'type'")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown action type {data['type']!r}")
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"{data['type']} has no field {sorted(extra)[0]!r}")
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for name in names:
        if name in data:
            try:
                kwargs[name] = _decode(data[name], hints[name])
            except (TypeError, ValueError, KeyError) as exc:
                raise ValueError(f"{data['type']}.{name}: {exc}") from None
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{data['type']}: {exc}") from None

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

from dataclasses import dataclass
from typing import Any

from .._codec import decode_action, decode_value, encode_action, field_hints
from ..constants import DevCard, Good, Resource

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

#: Counts per good: the five resources (``Resource.value`` order), then any goods a module adds.
Counts = tuple[int, ...]


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

    def __copy__(self):
        return self  # actions are immutable values

    def __deepcopy__(self, memo):
        return self

    def __post_init__(self) -> None:
        for name, hint in field_hints(type(self)):
            v = getattr(self, name)
            if isinstance(v, (str, list)):
                try:
                    object.__setattr__(self, name, decode_value(v, hint))
                except (TypeError, ValueError, KeyError):
                    pass  # left as given: the rules check reports it with its rule id
            elif isinstance(v, tuple) and any(isinstance(x, (str, list)) for x in v):
                try:
                    object.__setattr__(self, name, decode_value(list(v), hint))
                except (TypeError, ValueError, KeyError):
                    pass


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
    """Roll the dice (B-PROD-1).  ``dice`` is the outcome: the two number dice, then any a module adds."""

    dice: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Declare the turn over (B-TURN-9)."""


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Return cards to the bank after a 7 (B-ROB-2): counts per good of the game.

    The discarding player is the game's current player.  Several cards may go at
    once, up to what is still owed; ``legal_actions`` lists one card at a time.
    """

    cards: Counts


@dataclass(frozen=True, slots=True)
class MoveRobber(Action):
    """Move the robber and optionally steal (B-ROB-5..8).  ``stolen`` is the outcome."""

    hex: int
    victim: int | None = None
    stolen: Good | None = None


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
    """Play Monopoly: every other player hands over all cards of ``resource`` (B-DEV-7).

    ``resource`` is a resource, or a module's good whose rules let Monopoly name it
    (``GoodRules.monopolised``)."""

    resource: Good


@dataclass(frozen=True, slots=True)
class MaritimeTrade(Action):
    """Trade with the bank at your best rate for ``give`` (4:1, 3:1 or 2:1; B-TRADE-6..11).

    Any good of the game whose rules allow bank trade (``GoodRules.bank_trade``)."""

    give: Good
    get: Good


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

def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict for an action: ``{"type": "BuildRoad", "path": 12}``."""
    return encode_action(action)


def action_from_json(data: dict[str, Any], registry: dict[str, type] | None = None) -> Action:
    """Parse :func:`action_to_json` output (fields decoded by the action's type hints).

    ``registry`` maps type names to action classes (default: the board game's,
    rule modules included).

    Raises
    ------
    ValueError
        For an unknown type or malformed field (callers wrap it with the file and field).
    """
    return decode_action(data, ACTION_TYPES if registry is None else registry)

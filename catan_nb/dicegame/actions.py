"""Dice Game actions: one frozen dataclass per kind (STYLE.md, point 4).

Each action's ``repr`` evaluates back to an equal object, and
:func:`action_to_json` / :func:`action_from_json` give a stable JSON form.
A roll's outcome travels inside it (``Roll.faces``): leave it ``None`` and the
game rolls with its seeded generator and records the faces in its log; give it
to replay a game or to set up a worked example.

Examples
--------
>>> Roll(keep=(0, 3))
Roll(keep=(0, 3), faces=None)
>>> action_from_json(action_to_json(Swap("K1", die=2, resource=Resource.ORE)))
Swap(swap='K1', die=2, resource=Resource.ORE)
>>> eval(repr(Roll(faces=(Face.ORE, Face.GOLD)))) == Roll(faces=(Face.ORE, Face.GOLD))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._codec import decode_action, encode_action
from ..constants import Resource
from .constants import Face

__all__ = [
    "DiceAction",
    "Roll",
    "Stop",
    "Build",
    "Swap",
    "TradeGold",
    "EndTurn",
    "DICE_ACTION_TYPES",
    "action_to_json",
    "action_from_json",
]


class DiceAction:
    """Base class of the Dice Game actions."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Roll(DiceAction):
    """Roll every die not in ``keep`` (DG-ROLL-1, DG-ROLL-2).

    The first roll of a turn keeps nothing.  ``faces`` is the outcome: the new
    faces of the rolled dice, in die order.
    """

    keep: tuple[int, ...] = ()
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True, slots=True)
class Stop(DiceAction):
    """Stop rolling: the faces are fixed (DG-ROLL-3).

    A build, swap, gold trade or end of turn after a roll stops the rolling too.
    """


@dataclass(frozen=True, slots=True)
class Build(DiceAction):
    """Mark a structure of the sheet, paying its cost with unspent dice (DG-BUILD-1..9)."""

    structure: str


@dataclass(frozen=True, slots=True)
class Swap(DiceAction):
    """Use a knight's one-time swap: turn die ``die`` to ``resource`` (DG-KNIGHT-1, DGP-10).

    ``resource`` may be left ``None`` for a knight that swaps to one fixed resource.
    """

    swap: str
    die: int
    resource: Resource | None = None


@dataclass(frozen=True, slots=True)
class TradeGold(DiceAction):
    """Turn one gold die to ``resource`` and set a second gold die aside (DG-GOLD-2)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class EndTurn(DiceAction):
    """Score the turn (DG-SCORE-2, DG-SCORE-3) and pass the dice on (DG-TURN-1)."""


DICE_ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in (Roll, Stop, Build, Swap, TradeGold, EndTurn)}


def action_to_json(action: DiceAction) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": "Roll", "keep": [0, 3], "faces": ["ore", "gold"]}``."""
    return encode_action(action)


def action_from_json(data: Any) -> DiceAction:
    """Parse :func:`action_to_json` output (the board game's decoder, with the Dice Game's actions).

    Raises
    ------
    ValueError
        For an unknown type or a malformed field (callers add the file and field).
    """
    return decode_action(data, DICE_ACTION_TYPES)

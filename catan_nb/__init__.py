"""catan_nb: a Jupyter kit for learning, teaching and analysing Catan.

Layers, each importing only the ones before it: ``hexgrid`` (geometry) ->
``board`` (networkx graph, board files) -> ``rules`` (the engine) ->
``analysis`` (probability, bots, simulation) -> ``viz`` (plotly) ->
``widgets`` (ipywidgets).

The public names (``__all__``) are imported on first use (PEP 562): ``import catan_nb`` loads
none of the layers, so a job that needs only some of them (the compiled simulator's kernel
games, say) does not pay for networkx or the rule modules.  ``catan_nb.Game``, ``from catan_nb import
Board, Game`` and ``from catan_nb import *`` import what they name.

Examples
--------
>>> from catan_nb import Board, Game
>>> game = Game(Board.random(seed=1), players=4, seed=1)
>>> game.phase.value
'founding_settlement'
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: Where each public name lives (the submodule imported on first use).
_WHERE = {
    **dict.fromkeys(("Board", "Harbour", "HexTile"), "board"),
    **dict.fromkeys(("Building", "Colour", "DevCard", "Resource", "Terrain"), "constants"),
    **dict.fromkeys(("DiceGame", "DiceSheet"), "dicegame"),
    **dict.fromkeys(("CatanError", "IllegalActionError", "BoardFileError", "SaveFileError", "SaveReplayError"),
                    "errors"),
    # catan_nb.rules.__all__ (tests/test_api.py checks the two lists agree); importing catan_nb.rules
    # imports and registers the built-in rule modules, before any Game or Rules exists
    **dict.fromkeys((
        "Action", "BuildSettlement", "BuildRoad", "BuildCity", "BuyDevelopmentCard", "RollDice", "EndTurn",
        "Discard", "MoveRobber", "PlayKnight", "PlayRoadBuilding", "EndRoadBuilding", "PlayYearOfPlenty",
        "PlayMonopoly", "MaritimeTrade", "OfferTrade", "AcceptTrade", "DeclineTrade", "ConfirmTrade", "CancelTrade",
        "ACTION_TYPES", "action_to_json", "action_from_json", "counts", "Game", "Phase", "Decision", "PlayerView",
        "Rules", "SAVE_FORMAT", "SAVE_VERSION", "RULES_VERSION", "PartialLoad", "PartialLoadWarning",
        "longest_trail", "PieceKind", "PIECES", "describe",
    ), "rules"),
}

__all__ = list(_WHERE)

#: The layers ``import catan_nb`` used to load with the names above: still attributes
#: (``catan_nb.rules.Game`` after ``import catan_nb``), imported on first use.
_SUBMODULES = ("board", "constants", "dicegame", "errors", "hexgrid", "reference", "rules")


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")  # the import sets the attribute
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value  # once: the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

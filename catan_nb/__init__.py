"""catan_nb: a Jupyter kit for learning, teaching and analysing Catan.

Layers, each importing only the ones before it: ``hexgrid`` (geometry) ->
``board`` (networkx graph, board files) -> ``rules`` (the engine) ->
``analysis`` (probability, bots, simulation) -> ``viz`` (plotly) ->
``widgets`` (ipywidgets).

Examples
--------
>>> from catan_nb import Board, Game
>>> game = Game(Board.random(seed=1), players=4, seed=1)
>>> game.phase.value
'founding_settlement'
"""

from .board import Board, Harbour, HexTile
from .constants import Building, Colour, DevCard, Resource, Terrain
from .dicegame import DiceGame, DiceSheet
from .errors import BoardFileError, CatanError, IllegalActionError, SaveFileError, SaveReplayError
from .rules import *  # noqa: F401,F403
from .rules import __all__ as _rules_all

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Harbour",
    "HexTile",
    "Building",
    "Colour",
    "DevCard",
    "Resource",
    "Terrain",
    "DiceGame",
    "DiceSheet",
    "CatanError",
    "IllegalActionError",
    "BoardFileError",
    "SaveFileError",
    "SaveReplayError",
    *_rules_all,
]

"""ipywidgets front ends; they call only the engine's public API."""

from .classroom import BoardDesigner, DiceWorksheet, ScoreWeights
from .dice_table import DiceTable, load_dice_table
from .explorers import (
    PLACEMENT_METRICS,
    DiceLab,
    LongestRoadExplorer,
    PlacementExplorer,
)
from .table import GameTable, load_table

__all__ = ["GameTable", "load_table", "DiceTable", "load_dice_table", "DiceLab", "PlacementExplorer", "LongestRoadExplorer", "PLACEMENT_METRICS",
           "ScoreWeights", "BoardDesigner", "DiceWorksheet"]

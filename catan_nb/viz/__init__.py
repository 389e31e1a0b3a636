"""Plotly figures (pure functions of a board or game; no widgets here)."""

from .board import (
    DYNAMIC_TRACES,
    board_figure,
    dynamic_traces,
    hex_hover,
    mimebundle,
    node_hover,
    trace_index,
)
from .charts import DICE_LAB_TRACES, dice_lab_figure, dice_lab_traces
from .dice_sheet import (
    DYNAMIC_SHEET_TRACES,
    dice_sheet_figure,
    dice_sheet_traces,
    sheet_mimebundle,
)
from .palette import PALETTES

__all__ = ["mimebundle", "board_figure", "dynamic_traces", "trace_index", "hex_hover", "node_hover", "DYNAMIC_TRACES", "PALETTES", "DYNAMIC_SHEET_TRACES", "dice_sheet_figure", "dice_sheet_traces", "sheet_mimebundle", "DICE_LAB_TRACES", "dice_lab_figure", "dice_lab_traces"]
from . import seafarers as _seafarers  # noqa: E402,F401  (its figure layer and log phrases register themselves)
from . import variants as _variants  # noqa: E402,F401  (the Friends and Helpers log phrases)

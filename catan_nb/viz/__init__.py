"""Plotly figures (pure functions of a board or game; no widgets here)."""

from .board import DYNAMIC_TRACES, board_figure, dynamic_traces, hex_hover, mimebundle, node_hover, trace_index
from .palette import PALETTES

__all__ = ["mimebundle", "board_figure", "dynamic_traces", "trace_index", "hex_hover", "node_hover", "DYNAMIC_TRACES", "PALETTES"]

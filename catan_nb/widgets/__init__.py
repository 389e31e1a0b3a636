"""ipywidgets front ends; they call only the engine's public API."""

from .table import GameTable, load_table

__all__ = ["GameTable", "load_table"]

"""File helpers shared by the board and the engine."""

from __future__ import annotations

from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see either the old or the whole new content."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)

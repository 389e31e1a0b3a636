"""File and JSON helpers shared by the boards, the sheets and the saved games.

Every error names the file (or source), the field and the problem, through the
error class the caller passes (``BoardFileError`` or ``SaveFileError``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = ["write_atomic", "read_json", "parse_json", "field_name", "schema_error", "replay_actions"]


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see either the old or the whole new content."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def parse_json(text: str | bytes, source: Any, error: type) -> Any:
    """Parse JSON text; invalid JSON raises ``error(source, "<json>", ...)`` with the position."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(source, "<json>", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def read_json(path: str | Path, error: type) -> Any:
    """Read and parse a JSON file; an unreadable file raises ``error(path, "<file>", ...)``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(path, "<file>", f"cannot be read ({exc.strerror})") from None
    return parse_json(text, path, error)


def field_name(path: Iterable) -> str:
    """``["hexes", 3, "terrain"]`` -> ``"hexes[3].terrain"`` (``"<root>"`` for an empty path)."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<root>"


def schema_error(data: Any, schema: dict) -> tuple[list, str, str] | None:
    """The most precise JSON-schema error of ``data``: (field path, message, validator), or None.

    The deepest error names the most precise field; a missing required field is
    named itself.
    """
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (-len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return None
    err = errors[0]
    path = list(err.absolute_path)
    if err.validator == "required" and "'" in err.message:
        path.append(err.message.split("'")[1])
    return path, err.message, str(err.validator)


def replay_actions(game: Any, actions: Any, source: Any, parse: Callable[[Any], Any], error: type) -> Any:
    """Play a saved list of actions on ``game`` (checked); a bad one raises ``error(source, "actions[i]", ...)``."""
    from .errors import IllegalActionError

    if not isinstance(actions, list):
        raise error(source, "actions", "must be a list")
    for i, raw in enumerate(actions):
        try:
            action = parse(raw)
        except (ValueError, TypeError, KeyError) as exc:
            raise error(source, f"actions[{i}]", str(exc)) from None
        try:
            game.play(action)
        except IllegalActionError as exc:
            raise error(source, f"actions[{i}]", str(exc)) from None
    return game

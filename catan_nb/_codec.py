"""JSON for frozen-dataclass actions, shared by the board game and the Dice Game.

Values are encoded plainly (enums by lower-case name, tuples as lists) and decoded
by the action class's type hints (ints, strings, enums, tuples, optionals).
"""

from __future__ import annotations

import enum
import types
import typing
from dataclasses import fields
from typing import Any

__all__ = ["encode_action", "decode_action", "decode_value"]


def encode_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [encode_value(v) for v in value]
    return value


def decode_value(value: Any, hint: Any) -> Any:
    """Decode a JSON value by a field's type hint (ints, enums, tuples, optionals)."""
    if value is None:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        for a in options:
            try:
                return decode_value(value, a)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{value!r} fits none of {options}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"expected a list, not {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode_value(v, args[0]) for v in value)
        if len(value) != len(args):
            raise ValueError(f"expected {len(args)} items, not {len(value)}")
        return tuple(decode_value(v, a) for v, a in zip(value, args))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint.parse(value)  # type: ignore[attr-defined]
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected an integer, not {value!r}")
        return value
    if hint is str and not isinstance(value, str):
        raise ValueError(f"expected a string, not {value!r}")
    return value


def encode_action(action: Any) -> dict[str, Any]:
    """A JSON-ready dict for a frozen-dataclass action: ``{"type": "BuildRoad", "path": 12}``."""
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):  # type: ignore[arg-type]
        out[f.name] = encode_value(getattr(action, f.name))
    return out


def decode_action(data: Any, registry: dict[str, type]) -> Any:
    """Parse :func:`encode_action` output; fields are decoded by the action class's type hints.

    ``registry`` maps type names to action classes.

    Raises
    ------
    ValueError
        For an unknown type or malformed field (callers wrap it with the file and field).
    """
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError("an action must be an object with a 'type'")
    cls = registry.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown action type {data['type']!r}")
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"{data['type']} has no field {sorted(extra)[0]!r}")
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for name in names:
        if name in data:
            try:
                kwargs[name] = decode_value(data[name], hints[name])
            except (TypeError, ValueError, KeyError) as exc:
                raise ValueError(f"{data['type']}.{name}: {exc}") from None
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{data['type']}: {exc}") from None

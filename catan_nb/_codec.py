"""JSON for frozen-dataclass actions, shared by the board game and the Dice Game.

Values are encoded plainly (enums by lower-case name, tuples as lists) and decoded
by the action class's type hints (ints, strings, enums, tuples, optionals).
"""

from __future__ import annotations

import dataclasses
import enum
import numbers
import reprlib
import types
import typing
from dataclasses import fields
from typing import Any

__all__ = ["encode_action", "decode_action", "decode_value", "normalize_action", "normalize_value", "FieldError", "field_hints", "short_repr"]


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


# ---------------------------------------------------------------- the checked boundary
def _is_integral(value: Any) -> bool:
    """Python and numpy integers, but not ``bool`` (nor numpy's bool)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, _np_bool()))


_NP_BOOL: Any = None


def _np_bool() -> type:
    global _NP_BOOL
    if _NP_BOOL is None:
        try:
            import numpy

            _NP_BOOL = numpy.bool_
        except ImportError:  # pragma: no cover - numpy is a dependency
            _NP_BOOL = bool
    return _NP_BOOL


class FieldError(Exception):
    """A field that does not fit its type: carries the field path and the reason."""

    def __init__(self, where: str, why: str):
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


def normalize_value(value: Any, hint: Any, where: str) -> Any:
    """One field brought to its canonical type, or :class:`FieldError`.

    The policy of the checked boundary: Python and numpy integers become ``int``;
    ``bool``, ``float``, ``str`` and ``None`` where an id or count is expected are
    refused; enum members pass, enum names are parsed; sequences (lists, tuples,
    numpy arrays) become tuples of the right length.
    """
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        errors = []
        for a in options:
            try:
                return normalize_value(value, a, where)
            except FieldError as exc:
                errors.append(exc.why)
        raise FieldError(where, errors[0] if len(errors) == 1 else " / ".join(errors))
    if value is None:
        raise FieldError(where, f"is required ({_hint_name(hint)}), not None")
    if origin is tuple:
        if isinstance(value, (str, bytes, dict, set, frozenset)) or not _is_sequence(value):
            raise FieldError(where, f"expected a sequence ({_hint_name(hint)}), not {short_repr(value)}")
        items = list(value)
        if len(args) == 2 and args[1] is Ellipsis:
            if len(items) > _MAX_ITEMS:
                raise FieldError(where, f"{len(items)} items is more than any action takes")
            return tuple(normalize_value(v, args[0], f"{where}[{i}]") for i, v in enumerate(items))
        if len(set(args)) == 1:
            # Counts and dice: the item type is checked here; the length is a rule of the game,
            # which the engine checks with its own rule id (B-PROD-1, B-ROB-2, B-TRADE-4).
            if len(items) > _MAX_ITEMS:
                raise FieldError(where, f"{len(items)} items is more than any action takes")
            return tuple(normalize_value(v, args[0], f"{where}[{i}]") for i, v in enumerate(items))
        if len(items) != len(args):
            raise FieldError(where, f"expected {len(args)} items, not {len(items)}: {short_repr(value)}")
        return tuple(normalize_value(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(items, args)))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        if isinstance(value, hint):
            return value
        if isinstance(value, str):
            try:
                return hint.parse(value)  # type: ignore[attr-defined]
            except ValueError as exc:
                raise FieldError(where, str(exc)) from None
        raise FieldError(where, f"expected a {hint.__name__} (or its name), not {short_repr(value)}")
    if hint is int:
        if _is_integral(value):
            return int(value)
        raise FieldError(where, f"expected an integer, not {type(value).__name__} {short_repr(value)}")
    if hint is bool:
        if isinstance(value, (bool, _np_bool())):
            return bool(value)
        raise FieldError(where, f"expected True or False, not {type(value).__name__} {short_repr(value)}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise FieldError(where, f"expected a string, not {type(value).__name__} {short_repr(value)}")
    return value


#: No action field lists more items than this (a guard against absurd input).
_MAX_ITEMS = 64


def _identical(a: Any, b: Any) -> bool:
    """Same value of the same types all the way down (``1 == 1.0 == True`` is not enough here)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    return a == b


def _is_sequence(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return True
    return hasattr(value, "__len__") and hasattr(value, "__iter__") and hasattr(value, "shape")  # numpy arrays


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlist = _REPR.maxtuple = 8


def short_repr(value: Any) -> str:
    """``repr`` cut to a readable length, for evidence in error messages."""
    return _REPR.repr(value)


def _hint_name(hint: Any) -> str:
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "").replace("catan_nb.constants.", "")


_HINTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """``(name, type hint)`` of each field of an action class (cached)."""
    out = _HINTS.get(cls)
    if out is None:
        hints = typing.get_type_hints(cls)
        out = _HINTS[cls] = tuple((f.name, hints[f.name]) for f in fields(cls))
    return out


def normalize_action(action: Any) -> Any:
    """The action with every field in its canonical type (a new object only if something changed).

    Raises
    ------
    FieldError
        Naming the field and why it does not fit.
    """
    changed = {}
    for name, hint in field_hints(type(action)):
        value = getattr(action, name)
        new = normalize_value(value, hint, f"{type(action).__name__}.{name}")
        if not _identical(new, value):
            changed[name] = new
    if not changed:
        return action
    return dataclasses.replace(action, **changed)

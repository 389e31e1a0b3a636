"""File and JSON helpers shared by the boards, the sheets and the saved games.

Every error names the file (or source), the field and the problem, through the
error class the caller passes (``BoardFileError`` or ``SaveFileError``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = ["write_atomic", "read_json", "parse_json", "field_name", "schema_error", "replay_actions"]


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see either the old or the whole new content."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


#: The largest file a board, sheet or save may be (a 2,000-turn saved game is well under 2 MB).
MAX_FILE_BYTES = 32 * 2**20
#: The largest number a file may write (ids, counts, seeds: a seed is below 2**64).
MAX_NUMBER_DIGITS = 20


def parse_json(text: str | bytes, source: Any, error: type) -> Any:
    """Parse JSON text; every problem raises ``error(source, "<json>" or "<file>", ...)``.

    Refused with the position or the reason: text that is not UTF-8 (UTF-16 and UTF-32 are
    named), more than :data:`MAX_FILE_BYTES`, nesting deeper than Python can parse, numbers of
    more than :data:`MAX_NUMBER_DIGITS` digits, and the non-standard ``NaN``/``Infinity``.
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_FILE_BYTES:
            raise error(source, "<file>", f"{len(text)} bytes is more than the {MAX_FILE_BYTES} a file may have")
        for bom, name in ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
                          (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16")):
            if text.startswith(bom):
                raise error(source, "<file>", f"is {name} text; save it as UTF-8")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise error(source, "<file>", f"is not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8") from None
    elif not isinstance(text, str):
        raise error(source, "<root>", f"expected JSON text, not {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES:
        raise error(source, "<file>", f"{len(text)} characters is more than the {MAX_FILE_BYTES} a file may have")
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise error(source, "<json>", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise error(source, "<json>", "nested too deeply to be a board, a sheet or a saved game") from None
    except _NumberError as exc:
        raise error(source, "<json>", str(exc)) from None


class _NumberError(ValueError):
    pass


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _NumberError(f"a number of {len(digits)} digits is larger than any a file may hold")
    return int(digits)


def _refuse_constant(name: str) -> Any:
    raise _NumberError(f"{name} is not a number JSON allows")


def read_json(path: str | Path, error: type) -> Any:
    """Read and parse a JSON file; an unreadable file raises ``error(path, "<file>", ...)``."""
    path = Path(path)
    try:
        if path.is_dir():
            raise error(path, "<file>", "is a folder, not a file")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise error(path, "<file>", f"{size} bytes is more than the {MAX_FILE_BYTES} a file may have")
        data = path.read_bytes()
    except OSError as exc:
        raise error(path, "<file>", f"cannot be read ({exc.strerror or exc})") from None
    return parse_json(data, path, error)


def field_name(path: Iterable) -> str:
    """``["hexes", 3, "terrain"]`` -> ``"hexes[3].terrain"`` (``"<root>"`` for an empty path)."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<root>"


def schema_error(data: Any, schema: dict) -> tuple[list, str, str] | None:
    """The most precise JSON-schema error of ``data``: (field path, message, validator), or None.

    The deepest error names the most precise field; a missing required field is
    named itself.  A file :func:`surely_valid` passes is not given to ``jsonschema``
    (whose import can take a second and more: it compiles grammars of optional format
    checkers); any other file is, and its verdict is the one that counts.
    """
    import itertools

    if surely_valid(data, schema):
        return None
    import jsonschema

    validator = _VALIDATORS.get(id(schema))
    if validator is None or validator.schema is not schema:
        validator = _VALIDATORS[id(schema)] = jsonschema.Draft202012Validator(schema)
    found = itertools.islice(validator.iter_errors(data), 64)  # enough to find the most precise one
    errors = sorted(found, key=lambda e: (-len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return None
    err = errors[0]
    path = list(err.absolute_path)
    if err.validator == "required" and "'" in err.message:
        path.append(err.message.split("'")[1])
    message = err.message if len(err.message) <= 200 else err.message[:200] + "..."
    return path, message, str(err.validator)


_VALIDATORS: dict[int, Any] = {}

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "integer": lambda x: type(x) is int,
    "number": lambda x: type(x) in (int, float),
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}
#: Keywords that never change a verdict (annotations).
_NOTES = frozenset({"$schema", "$id", "title", "description", "$defs", "$comment", "examples", "default"})


def surely_valid(data: Any, schema: dict) -> bool:
    """Whether ``data`` is valid under ``schema`` (JSON Schema 2020-12), decided without ``jsonschema``.

    True only when it is certain: the checks here cover the keywords the project's schemas use,
    on plain JSON values, and are as strict as the standard or stricter (1.0 is not taken for an
    integer, a float in a list asked to be unique leaves it undecided...).  False means invalid
    or undecided: ask ``jsonschema``.

    Examples
    --------
    >>> schema = {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer", "maximum": 3}}}
    >>> surely_valid({"a": 2}, schema), surely_valid({"a": 4}, schema), surely_valid({"a": 2.0}, schema)
    (True, False, False)
    """
    return _verdict(data, schema, schema) is True


def _verdict(x: Any, s: Any, root: dict) -> bool | None:
    """True: valid; False: invalid; None: not decided here (the caller asks ``jsonschema``)."""
    if s is True or s == {}:
        return True
    if s is False:
        return False
    if type(s) is not dict:
        return None
    out: bool | None = True
    for key, want in s.items():
        if key in _NOTES:
            continue
        v = _keyword(x, key, want, s, root)
        if v is False:
            return False
        if v is None:
            out = None
    return out


def _keyword(x: Any, key: str, want: Any, s: dict, root: dict) -> bool | None:
    if key == "type":
        names = [want] if isinstance(want, str) else want
        if not isinstance(names, list) or any(n not in _TYPES for n in names):
            return None
        if any(_TYPES[n](x) for n in names):
            return True
        if isinstance(x, float) and "integer" in names and x == int(x):
            return None  # 2020-12 takes 1.0 for an integer: not decided here
        return False
    if key == "$ref":
        if not isinstance(want, str) or not want.startswith("#/$defs/"):
            return None
        target = root.get("$defs", {}).get(want[len("#/$defs/"):])
        return None if target is None else _verdict(x, target, root)
    if key == "enum":
        if not isinstance(want, list):
            return None
        if any(type(x) is type(e) and x == e for e in want):
            return True
        if isinstance(x, (int, float, list, dict)) and not isinstance(x, bool):
            return None  # 1 and 1.0 are one value to JSON Schema; containers compare deeply
        return False
    if key in ("minimum", "maximum"):
        if type(x) not in (int, float):
            return True  # applies to numbers only
        return x >= want if key == "minimum" else x <= want
    if key in ("minLength", "maxLength"):
        if type(x) is not str:
            return True
        return len(x) >= want if key == "minLength" else len(x) <= want
    if key == "pattern":
        if type(x) is not str:
            return True
        return re.search(want, x) is not None
    if key in ("minItems", "maxItems", "uniqueItems", "items", "prefixItems"):
        if type(x) is not list:
            return True
        if key == "minItems":
            return len(x) >= want
        if key == "maxItems":
            return len(x) <= want
        if key == "uniqueItems":
            if not want:
                return True
            if any(type(i) not in (str, int, bool) for i in x):
                return None
            return len({(type(i), i) for i in x}) == len(x)
        if key == "prefixItems":
            return _all(_verdict(i, sub, root) for i, sub in zip(x, want))
        start = len(s.get("prefixItems", ()))
        return _all(_verdict(i, want, root) for i in x[start:])
    if key in ("required", "properties", "additionalProperties", "propertyNames"):
        if type(x) is not dict:
            return True
        if key == "required":
            return all(k in x for k in want)
        if key == "properties":
            return _all(_verdict(x[k], sub, root) for k, sub in want.items() if k in x)
        if key == "propertyNames":
            return _all(_verdict(k, want, root) for k in x)
        if "patternProperties" in s:
            return None
        known = s.get("properties", {})
        return _all(_verdict(v, want, root) for k, v in x.items() if k not in known)
    if key == "not":
        v = _verdict(x, want, root)
        return None if v is None else not v
    if key == "if":
        v = _verdict(x, want, root)
        if v is None:
            return None
        branch = s.get("then" if v else "else", True)
        return _verdict(x, branch, root)
    if key in ("then", "else"):
        return True  # judged with "if"
    return None  # a keyword not covered here


def _all(verdicts: Iterable[bool | None]) -> bool | None:
    out: bool | None = True
    for v in verdicts:
        if v is False:
            return False
        if v is None:
            out = None
    return out
#: The most actions a saved game may hold (a 2,000-turn game has about 10,000).
MAX_ACTIONS = 500_000


def replay_actions(game: Any, actions: Any, source: Any, parse: Callable[[Any], Any], error: type) -> Any:
    """Play a saved list of actions on ``game`` (checked); a bad one raises ``error(source, "actions[i]", ...)``."""
    from .errors import IllegalActionError

    if not isinstance(actions, list):
        raise error(source, "actions", f"must be a list of actions, not {type(actions).__name__}")
    if len(actions) > MAX_ACTIONS:
        raise error(source, "actions", f"{len(actions)} actions is more than the {MAX_ACTIONS} a save may hold")
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

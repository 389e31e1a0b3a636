"""The module guide and its shipped example agree (issue 28, item 5).

* ``catan_nb.examples`` imports from ``catan_nb`` only the names ``docs/modules.md`` lists under
  "Names a module imports", and uses only the members of ``game``, its board and topology, the
  table and the palette that the guide names.
* The guide's sample module runs as printed (it once used ``Resource`` without importing it).
* No ``_``-prefixed name of ``catan_nb`` is imported outside its own file.
"""

from __future__ import annotations

import ast
import re
import sys
import types
from pathlib import Path

import pytest

import catan_nb
from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, play_game
from catan_nb.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(catan_nb.__file__).resolve().parent
GUIDE = (ROOT / "docs" / "modules.md").read_text(encoding="utf-8")
EXAMPLES = sorted((PACKAGE / "examples").glob("*.py"))


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def documented_imports() -> dict[str, set[str]]:
    """``{module: names}`` from the ``from catan_nb... import ...`` lines of the guide's code."""
    out: dict[str, set[str]] = {}
    for block in _code_blocks(GUIDE):
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("catan_nb"):
                out.setdefault(node.module, set()).update(a.name for a in node.names)
    return out


def documented_members(owner: str) -> set[str]:
    """Names written ``owner.name`` (or ``owner["name"]``) anywhere in the guide; for the topology,
    the names in the guide's "the board" row too (``n_nodes``, ``node_land``...)."""
    dotted = set(re.findall(rf"\b{owner}\.([A-Za-z_]\w*)", GUIDE))
    keyed = set(re.findall(rf"\b{owner}\[\"(\w+)\"\]", GUIDE))
    if owner == "topology":
        row = next(line for line in GUIDE.splitlines() if line.startswith("| the board |"))
        dotted |= set(re.findall(r"`(\w+)`", row.split("read geometry from the topology:")[1].split("; from the board")[0]))
    return dotted | keyed


def test_the_guide_lists_the_imports_a_module_needs():
    names = documented_imports()
    assert {"Good", "GoodRules", "Resource"} <= names["catan_nb.constants"]
    assert {"Module", "register"} <= names["catan_nb.rules.modules"]
    assert {"Layer", "register_layer"} <= names["catan_nb.viz.plugins"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_example_imports_only_names_the_guide_lists(path):
    allowed = documented_imports()
    offenders = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                offenders.append(f"line {node.lineno}: a relative import (write it as a module author would)")
                continue
            if not (node.module or "").startswith("catan_nb"):
                continue
            for alias in node.names:
                if alias.name not in allowed.get(node.module, ()):
                    offenders.append(f"line {node.lineno}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            offenders += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name.startswith("catan_nb")]
    assert not offenders, offenders


def _uses(tree: ast.AST) -> dict[str, set[str]]:
    """Members used on ``game``, ``game.topology``, ``game.board``, ``table`` and ``pal``."""
    out: dict[str, set[str]] = {"game": set(), "topology": set(), "board": set(), "table": set(), "pal": set()}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("game", "table"):
                out[base.id].add(node.attr)
            elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "game" \
                    and base.attr in ("topology", "board"):
                out[base.attr].add(node.attr)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "pal":
            if isinstance(node.slice, ast.Constant):
                out["pal"].add(node.slice.value)
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_example_uses_only_members_the_guide_names(path):
    used = _uses(ast.parse(path.read_text(encoding="utf-8")))
    missing = {owner: sorted(names - documented_members(owner)) for owner, names in used.items()}
    assert not any(missing.values()), missing
    if path.name == "shearing.py":
        assert used["game"] and used["topology"] and used["table"] and used["pal"]  # the scan sees its uses


def test_the_guides_sample_module_runs_as_printed():
    from catan_nb.rules.actions import ACTION_TYPES
    from catan_nb.rules.modules import MODULES

    sample = next(b for b in _code_blocks(GUIDE) if "class Mine(Module)" in b)
    module = types.ModuleType("guide_sample")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(sample, "docs/modules.md", "exec"), module.__dict__)  # noqa: S102 - the guide's own code
    try:
        game = Game(Board.beginner(), seed=2, start="beginner", rules=Rules(modules=("mine",)))
        play_game(game, [RandomBot(p) for p in range(4)], max_turns=200)
        assert Game.from_json(game.to_json()).state() == game.state()
    finally:
        MODULES.pop("mine", None)
        ACTION_TYPES.pop("Choose", None)
        sys.modules.pop(module.__name__, None)


# ---------------------------------------------------------------- private names stay in their file
def private_imports(root: Path) -> list[str]:
    """``from <catan_nb module> import _name`` anywhere under ``root`` (private modules such as
    ``_codec`` are the package's own and may be imported from; their ``_`` names may not)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("catan_nb")):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        out.append(f"{path.relative_to(root.parent)}:{node.lineno} from "
                                   f"{'.' * node.level}{node.module or ''} import {alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == "catan_nb" and any(p.startswith("_") and not p.startswith("__") for p in parts):
                        out.append(f"{path.relative_to(root.parent)}:{node.lineno} import {alias.name}")
    return out


def test_no_private_name_of_catan_nb_is_imported_outside_its_own_file():
    """Issue 28: a ``_`` name is private to its file; what another file needs is public (and documented)."""
    assert not private_imports(PACKAGE), private_imports(PACKAGE)


def test_the_scan_finds_a_private_import(tmp_path):
    pkg = tmp_path / "catan_nb"
    pkg.mkdir()
    (pkg / "a.py").write_text("from .board import _hex_centre\nfrom catan_nb.viz import board\n")
    assert private_imports(pkg) == ["catan_nb/a.py:1 from .board import _hex_centre"]

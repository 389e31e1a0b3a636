"""The quick schema check (``_files.surely_valid``) never passes a file that ``jsonschema`` refuses.

Board and sheet files are checked against their JSON schemas on every load.  A file the quick
check finds valid skips ``jsonschema``, whose import takes a second and more where its optional
format checkers are installed (JupyterLab brings them); any other file goes to ``jsonschema``,
which has the last word.  So the one property that matters is: quick says valid => ``jsonschema``
says valid.  It is checked on the shipped files and on seeded mutations of every field of them
(more with ``CATAN_NB_SCHEMA_MUTANTS=5000``); the shipped files must pass the quick check, or
loading them would still import ``jsonschema``.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys

import jsonschema
import pytest
from helpers import json_paths

from catan_nb._files import surely_valid
from catan_nb.board import BOARDS_DIR, load_schema

MUTANTS = int(os.environ.get("CATAN_NB_SCHEMA_MUTANTS", "300"))
SHEET_SCHEMA = json.loads((BOARDS_DIR / "dice_sheet.schema.json").read_text(encoding="utf-8"))
FILES = {
    p.name: (json.loads(p.read_text(encoding="utf-8")), SHEET_SCHEMA if p.name.startswith("dice_sheet") else load_schema())
    for p in sorted(BOARDS_DIR.glob("*.json"))
    if not p.name.endswith(".schema.json")
}


def _mutate(data, rng: random.Random):
    """One seeded change somewhere in a copy of ``data``: a value retyped, nudged, doubled, dropped..."""
    out = copy.deepcopy(data)
    path, value = rng.choice(list(json_paths(out)))
    parent = out
    for p in path[:-1]:
        parent = parent[p]
    choices = [None, True, False, 0, -1, 1, 2.0, 0.5, 10**6, "", "x", "desert", "ore", [], {}, [1], {"a": 1}]
    if isinstance(value, bool):
        choices += [not value, int(value)]
    elif isinstance(value, int):
        choices += [value + 1, value - 1, float(value), -value, str(value)]
    elif isinstance(value, str):
        choices += [value.upper(), value + " ", value[:-1], value * 40]
    elif isinstance(value, list) and value:
        choices += [value + value[-1:], value[:-1], value[::-1], [value[0]] * 2, value * 30]
    elif isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        smaller = {k: v for k, v in value.items() if k != key}
        choices += [smaller, {**value, "extra": 1}, {**value, key.upper(): value[key]}]
    new = rng.choice(choices)
    if not path:
        return new
    parent[path[-1]] = new
    return out


def _valid(data, schema) -> bool:
    return not any(True for _ in jsonschema.Draft202012Validator(schema).iter_errors(data))


@pytest.mark.parametrize("name", sorted(FILES))
def test_shipped_files_pass_the_quick_check(name):
    data, schema = FILES[name]
    assert _valid(data, schema)
    assert surely_valid(data, schema)


@pytest.mark.parametrize("name", sorted(FILES))
def test_quick_valid_implies_jsonschema_valid_on_mutants(name):
    data, schema = FILES[name]
    rng = random.Random(name)
    quick = agree = 0
    for _ in range(MUTANTS):
        mutant = _mutate(data, rng)
        if rng.random() < 0.3:
            mutant = _mutate(mutant, rng)  # two changes
        if surely_valid(mutant, schema):
            quick += 1
            assert _valid(mutant, schema), mutant
        elif _valid(mutant, schema):
            agree += 1  # undecided by the quick check, valid: jsonschema is asked, as it should be
    assert quick > 0  # some mutants stay valid (a nudged number within range...) and are decided quickly


def test_loading_a_shipped_board_does_not_import_jsonschema():
    code = "import sys; from catan_nb import Board; Board.beginner(); Board.five_six(); print('jsonschema' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"

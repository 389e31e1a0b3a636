"""The API reference names what a module author calls (issue 38, part 3).

* ``docs/api/game.md`` lists every public member of ``Game`` by concern, as
  ``docs/tools/build_game_api.py`` writes it from the classes and a fresh game.
* The reference documents ``catan_nb.analysis.bot_features`` (``ModuleFeatures``,
  ``register_features``) and both shipped example modules.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from catan_nb import Board, Game

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"


def _tool():
    spec = importlib.util.spec_from_file_location("build_game_api", ROOT / "docs" / "tools" / "build_game_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_game_page_is_up_to_date():
    tool = _tool()
    assert (API / "game.md").read_text(encoding="utf-8") == tool.render(), \
        "run `python docs/tools/build_game_api.py`"


def test_the_game_page_names_every_public_member():
    page = (API / "game.md").read_text(encoding="utf-8")
    g = Game(Board.beginner(), seed=1)
    names = {n for n in dir(Game) if not n.startswith("_")} | {k for k in vars(g) if not k.startswith("_")}
    missing = sorted(n for n in names if f"`{n}" not in page)
    assert not missing, missing
    for concern in ("Pieces and placement", "Goods, hands and production", "Longest Road", "Copies, state and saves"):
        assert f"## {concern}" in page
    assert "game" in (API / "index.md").read_text(encoding="utf-8").split("```{toctree}")[1]


def test_the_reference_documents_bot_features_and_the_examples():
    analysis = (API / "analysis.rst").read_text(encoding="utf-8")
    assert ".. automodule:: catan_nb.analysis.bot_features" in analysis
    from catan_nb.analysis.bot_features import ModuleFeatures, register_features

    assert ModuleFeatures.__doc__ and register_features.__doc__
    modules = (API / "modules.rst").read_text(encoding="utf-8")
    assert "catan_nb.examples.shearing" in modules and "catan_nb.examples.toll_bridges" in modules


def test_the_boards_readme_says_notes_is_a_list_as_the_schema_requires():
    import pytest

    from catan_nb.errors import BoardFileError

    readme = (ROOT / "boards" / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| `notes` |")]
    assert len(rows) == 2 and all("list of strings" in r for r in rows)
    data = Board.beginner().to_dict()
    data["notes"] = "one string"
    with pytest.raises(BoardFileError, match="notes"):
        Board.from_dict(data, source="test")
    data["notes"] = ["a note", "another"]
    Board.from_dict(data, source="test")

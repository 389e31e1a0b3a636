"""The wheel ships every Python package of ``catan_nb``.

``pyproject.toml`` lists the packages by hand (the boards folder lives outside
the package tree), so a new subpackage missing from the list would install
without its code. A CI run once failed that way (``catan_nb.analysis.bot_features``).
"""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_with_an_init_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "catan_nb").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    missing = sorted(found - listed)
    assert not missing, f"pyproject.toml [tool.setuptools] packages is missing {missing}"


def test_the_rules_reference_data_ships_with_the_package():
    """Issue 38: the rules reference's data files (``catan_nb/reference/*.toml``) are package data, so
    ``describe`` works from a wheel (``.ci/smoke_installed.py`` checks it in the installed package)."""
    import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"].get("catan_nb.reference", [])
    data = [p.name for p in (ROOT / "catan_nb" / "reference").iterdir() if p.suffix not in (".py", ".pyc") and p.is_file()]
    assert data and all(any(fnmatch.fnmatch(name, g) for g in globs) for name in data), (data, globs)

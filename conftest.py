"""Collection of the whole repository (``pytest`` runs the package's doctests too).

A module of an optional extra that is not installed is left out of the doctest collection, so
that the suite runs without the extra: its tests skip (``pytest.importorskip``) and the modules
that use it fall back or say how to install it.  Issue 29: ``catan_nb.fast.kernel`` needs numba
(``pip install "catan-nb[fast]"``); the reinforcement-learning environments need the ``rl`` extra.
"""

from __future__ import annotations

import pytest


def _missing(*names: str) -> bool:
    for name in names:
        try:
            __import__(name)
        except ImportError:
            return True
    return False


collect_ignore: list[str] = []
if _missing("numba"):
    collect_ignore.append("catan_nb/fast/kernel.py")
if _missing("gymnasium", "pettingzoo"):
    collect_ignore += ["catan_nb/envs.py", "catan_nb/fast/vector_env.py"]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items) -> None:
    """The doctests of catan_nb.fast join the tests of the compiled simulator on one worker
    (``--dist loadgroup``): the kernel compiles in one process, not in two at once."""
    for item in items:
        if item.nodeid.replace("\\", "/").startswith("catan_nb/fast/"):
            item.add_marker(pytest.mark.xdist_group("fast"))

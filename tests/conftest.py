import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def pytest_collection_modifyitems(config, items):
    """Tests marked ``on_demand`` (long runs: whole games in a browser, many whole games at the table) run
    only when asked: a ``-m`` expression naming ``on_demand``, or ``CATAN_NB_ON_DEMAND=1``; CI skips them."""
    import os

    import pytest

    if "on_demand" in (config.getoption("-m") or "") or os.environ.get("CATAN_NB_ON_DEMAND") == "1":
        return
    skip = pytest.mark.skip(reason="on demand: run with -m on_demand (or CATAN_NB_ON_DEMAND=1)")
    for item in items:
        if "on_demand" in item.keywords:
            item.add_marker(skip)

"""Browser tests marked ``on_demand`` (the second window size, whole games) run only when asked:
``pytest -m on_demand tests/browser`` (a ``-m`` expression naming ``on_demand``); CI skips them."""

import pytest


def pytest_collection_modifyitems(config, items):
    if "on_demand" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="on demand: run with -m on_demand")
    for item in items:
        if "on_demand" in item.keywords:
            item.add_marker(skip)

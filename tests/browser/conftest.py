"""Browser tests marked ``on_demand`` (the second window size, whole games) run only when asked:
``pytest -m on_demand tests/browser`` (a ``-m`` expression naming ``on_demand``, or ``CATAN_NB_ON_DEMAND=1``);
CI skips them.  The hook that skips them is in ``tests/conftest.py`` (it serves the other long runs too)."""

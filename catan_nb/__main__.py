"""``python -m catan_nb``: the ``catan-nb`` command line (see :mod:`catan_nb.cli`)."""

from .cli import main

raise SystemExit(main())

"""Whether numba is here, and the one message that says how to get it."""

from __future__ import annotations

import warnings

__all__ = ["HAVE_NUMBA", "INSTALL_HINT", "FastUnavailableWarning", "warn_once"]

try:  # the optional extra: pip install "catan-nb[fast]"
    import numba  # noqa: F401  # pyflakes: ignore (only whether it imports)
    del numba
except ImportError:  # pragma: no cover - exercised only without the extra
    HAVE_NUMBA = False
else:
    HAVE_NUMBA = True

INSTALL_HINT = 'the compiled simulator needs numba: pip install "catan-nb[fast]"; playing through the engine instead'


class FastUnavailableWarning(UserWarning):
    """The compiled simulator was asked for but cannot run here (numba missing); the engine plays."""


_warned = False


def warn_once(stacklevel: int = 3) -> None:
    """Say once per process that numba is missing and how to install it."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(INSTALL_HINT, FastUnavailableWarning, stacklevel=stacklevel)

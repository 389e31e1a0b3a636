"""Whether numba is here, and the one message that says how to get it."""

from __future__ import annotations

import importlib.util
import warnings

__all__ = ["HAVE_NUMBA", "INSTALL_HINT", "FastUnavailableWarning", "warn_once"]

# The optional extra (pip install "catan-nb[fast]"): whether it is installed, without importing it
# (about 0.7 CPU seconds: numba is imported with the kernel, by the first job that needs it).
HAVE_NUMBA = importlib.util.find_spec("numba") is not None

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

"""The tables of ``play("random", ...)`` as plain data, so that its job imports no engine layer.

What :func:`catan_nb.fast.play` hands the kernel for boards drawn in the kernel with the default
rules is two int64 arrays: the layout's template (:func:`.tables.random_template`) and the
kernel's tables (:func:`.tables.setup`).  Both are derived from the engine: the board's networkx
graph and ``board.topology``, and a game the engine sets up (pieces, bank, deck, costs).  The
derivation itself takes milliseconds, but importing what it needs (``catan_nb.board`` with
networkx, ``catan_nb.rules`` with every rule module) costs about 0.4 CPU seconds, a third of the
fixed cost of a process that plays 2,000 games (issue 40).

So the arrays are kept in a file next to the built ``play`` job (:func:`._aot.folder`), named by a hash of the
sources they derive from (:data:`SOURCES`): any change to the board, the rules, the constants
or the tables derives them again (and replaces the file).  The engine stays the source of truth:
a missing, stale or unreadable file, or a folder one cannot write, means deriving them as
before; ``tests/test_fast.py`` checks the kept arrays equal the derived ones.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

__all__ = ["random_tables", "derive", "source_key", "cache_file", "digest"]

#: Bump when the file's layout changes.
FORMAT = 1
_PACKAGE = Path(__file__).resolve().parent.parent
#: The sources the arrays derive from (globs under ``catan_nb/``): the layers below the kernel
#: (board, hexgrid, constants, files...), the engine (rules and its modules), the tables.
SOURCES = ("*.py", "rules/**/*.py", "fast/tables.py", "fast/layout.py")

_MEMO: dict = {}
_KEY: list = []


def digest(text: str, files, root: Path) -> str:
    """20 hex digits of a hash of ``text`` and each of ``files`` (its path from ``root``, its bytes), in order."""
    h = hashlib.sha1(text.encode())
    for p in files:
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:20]


def source_key() -> str:
    """A hash of :data:`SOURCES` (their contents, in path order), with :data:`FORMAT`."""
    if not _KEY:
        files = sorted({p for pattern in SOURCES for p in _PACKAGE.glob(pattern)})
        _KEY.append(digest(f"catan_nb.fast tables {FORMAT}", files, _PACKAGE))
    return _KEY[0]


def derive(layout: str, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The arrays from the engine: ``(template, tables)`` as :func:`catan_nb.fast.play` used to
    build them (imports the engine's layers)."""
    from .tables import random_template, setup

    tmpl, board = random_template(layout)
    return tmpl, setup(board, players, None).T


def cache_file(layout: str, players: int) -> Path | None:
    """Where the arrays are kept: beside the built ``play`` job (:func:`._aot.folder`), or ``None``
    without numba."""
    from ._numba import HAVE_NUMBA

    if not HAVE_NUMBA:
        return None
    from ._aot import folder

    return folder() / f"catan_nb-tables-{layout}-{players}.{source_key()}.npy"


def random_tables(layout: str, players: int) -> tuple[np.ndarray, np.ndarray]:
    """``(template, tables)`` for kernel-drawn boards of ``layout`` and ``players`` seats with the
    default rules: from this process, from the file, or derived (and written for the next process).

    Raises
    ------
    ValueError
        When the kernel does not play ``players`` seats (from :func:`.tables.setup`).
    """
    hit = _MEMO.get((layout, players))
    if hit is not None:
        return hit
    path = cache_file(layout, players)
    out = _read(path) if path is not None else None
    if out is None:
        out = derive(layout, players)
        if path is not None:
            _write(path, out)
    _MEMO[(layout, players)] = out
    return out


def _read(path: Path) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        flat = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if flat.dtype != np.int64 or flat.ndim != 1 or not flat.size or not 0 < flat[0] < flat.size - 1:
        return None
    n = int(flat[0])
    return flat[1:1 + n].copy(), flat[1 + n:].copy()


def _write(path: Path, arrays: tuple[np.ndarray, np.ndarray]) -> None:
    """Write atomically (another process may read or write the same file), and remove the files
    of other sources for the same layout and players."""
    tmpl, T = arrays
    flat = np.concatenate([[len(tmpl)], tmpl, T]).astype(np.int64)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            np.save(f, flat, allow_pickle=False)
        os.replace(tmp, path)
        stem = path.name.split(".")[0]
        for old in path.parent.glob(f"{stem}.*.npy"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:  # a read-only folder: derive again next time
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass

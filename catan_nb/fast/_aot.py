"""The ``play`` job built ahead of time: a small extension module that loads without numba.

A process that plays 2,000 random games spends about as long starting up as playing when the job
comes from numba's cache: importing numba and LLVM, loading the job, and tearing LLVM down at exit
cost about 0.5 CPU seconds, against 0.7 for the games (issue 40).  So the first time
:func:`catan_nb.fast.play` runs on a machine, the kernel's two ``play`` entry points
(``play_random_boards`` and ``play_games``, with everything they call: the rules, the policies)
are compiled by numba's ahead-of-time compiler (``numba.pycc``) into one extension module, kept
in :func:`folder`; every later process imports that module, which needs numpy only.

* The module is the same code as the kernel's jitted job: compiled from the same functions (whose
  numba cache it reuses), it plays the same games, action for action; the tests of
  ``tests/test_fast.py`` run through it.
* Its file is named by a hash of the kernel's sources, the machine and the versions of Python and
  numpy (:func:`key`): any change builds it again.
* Where it cannot be built (no C compiler or Python headers, a numba without ``pycc``, a folder one
  cannot write), the job falls back to numba's jitted kernel and a marker file says why, so later
  processes do not try again; ``CATAN_NB_AOT=0`` skips it.
* An argument that is not C-contiguous of the exact dtype the module was built for goes to the
  jitted kernel instead (the module converts nothing, so its writes reach the caller's arrays).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np

__all__ = ["JOBS", "PLAY_ENTRIES", "folder", "key", "job", "built", "enabled", "signature"]

#: Bump when the way modules are built changes.
FORMAT = 1
_HERE = Path(__file__).resolve().parent
#: The files the compiled code derives from.
SOURCES = ("kernel.py", "layout.py", "_features.py", "_aot.py")

_I8, _U8, _I4, _F8 = np.dtype(np.int64), np.dtype(np.uint64), np.dtype(np.int32), np.dtype(np.float64)
_CODES = {_I8: "i8", _U8: "u8", _I4: "i4", _F8: "f8"}
#: Each job's entry points: name, and each argument's dtype and dimensions (C-contiguous arrays;
#: ``None``: a 64-bit integer).  numba's signature is derived from them (:func:`signature`).
JOBS: dict[str, tuple[tuple[str, tuple], ...]] = {
    "play": (
        ("play_random_boards",
         ((_I8, 1), (_I8, 1), (_U8, 1), (_I8, 1), (_I8, 2), (_F8, 1), None, None, (_I4, 3), (_I8, 2), (_I8, 2))),
        ("play_games",
         ((_I8, 1), (_U8, 1), (_I8, 1), (_I8, 2), (_I8, 2), (_F8, 1), None, None, (_I4, 3), (_I8, 2))),
    ),
}


def signature(kinds: tuple) -> str:
    """numba's signature of an entry point taking ``kinds`` and returning nothing.

    Examples
    --------
    >>> signature(((_I8, 1), None, (_I4, 3)))
    'void(i8[::1], i8, i4[:,:,::1])'
    """
    def one(kind) -> str:
        if kind is None:
            return "i8"
        dtype, ndim = kind
        return f"{_CODES[dtype]}[{':,' * (ndim - 1)}::1]"

    return f"void({', '.join(one(k) for k in kinds)})"


#: The kernel's functions a built ``play`` module answers for.
PLAY_ENTRIES = frozenset(entry for entry, _kinds in JOBS["play"])

_LOCK = threading.Lock()
_JOBS: dict[str, object] = {}
_KEY: list[str] = []


def folder() -> Path:
    """Where built modules (and the kept tables of :mod:`._cached`) live: ``$NUMBA_CACHE_DIR/catan_nb``
    when that is set, else the package's ``fast/__pycache__`` when it can be written, else
    ``~/.cache/catan_nb`` (``$XDG_CACHE_HOME``)."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / "catan_nb"
    here = _HERE / "__pycache__"
    if os.access(here if here.exists() else _HERE, os.W_OK):
        return here
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "catan_nb"


def _machine() -> str:
    """The CPU the code is built for (numba compiles for the host): its model and flags on Linux."""
    text = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(("model name", "flags", "Features")):
                    text += line
                if line.strip() == "":
                    break
    except OSError:
        pass
    return text


def key() -> str:
    """A hash of :data:`SOURCES`, the machine, Python's and numpy's versions and :data:`FORMAT`."""
    if not _KEY:
        from ._cached import digest

        text = f"catan_nb.fast aot {FORMAT} {sys.version} {np.__version__}\n{_machine()}"
        _KEY.append(digest(text, [_HERE / name for name in SOURCES], _HERE))
    return _KEY[0]


def _module_name(name: str) -> str:
    return f"catan_nb_aot_{name}"


def _path(name: str) -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return folder() / f"{_module_name(name)}.{key()}{suffix}"


def built(name: str) -> bool:
    """Whether job ``name``'s module is built for this machine and these sources."""
    return _path(name).is_file()


def enabled() -> bool:
    """Whether built modules are used (``CATAN_NB_AOT=0``: numba's jit plays every job)."""
    return os.environ.get("CATAN_NB_AOT", "1").strip().lower() not in ("0", "false", "no", "off")


class _Entry:
    """An entry point of a built module; arguments it was not built for go to the jitted kernel."""

    __slots__ = ("fn", "name", "kinds")

    def __init__(self, fn, name: str, kinds: tuple):
        self.fn, self.name, self.kinds = fn, name, kinds

    def __call__(self, *args):
        for a, kind in zip(args, self.kinds):
            if kind is not None and not (isinstance(a, np.ndarray) and a.dtype == kind[0] and a.ndim == kind[1]
                                         and a.flags.c_contiguous and a.flags.writeable):
                from ._compile import kernel

                return getattr(kernel(), self.name)(*args)
        return self.fn(*args)


class _Job:
    """Job ``name``'s entry points, from its built module."""

    def __init__(self, name: str, module):
        self.module = module
        for entry, kinds in JOBS[name]:
            setattr(self, entry, _Entry(getattr(module, entry), entry, kinds))


def job(name: str):
    """Job ``name``'s entry points (attributes named as the kernel's functions): from its built module,
    built now if missing (with the compile notice), or numba's jitted kernel where it cannot be."""
    hit = _JOBS.get(name)
    if hit is not None:
        return hit
    with _LOCK:
        hit = _JOBS.get(name)
        if hit is None:
            hit = _JOBS[name] = _load_or_build(name)
    return hit


def _load_or_build(name: str):
    from ._compile import kernel

    if not enabled():
        return kernel()
    path = _path(name)
    module = _load(name, path)
    if module is None and not path.with_suffix(".failed").exists() and _writable(path.parent):
        module = _build(name, path)
    return kernel() if module is None else _Job(name, module)


def _writable(where: Path) -> bool:
    """Whether a built module could be kept in ``where`` (else nothing is built: every process would
    compile it again for nothing)."""
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(where, os.W_OK)


def _load(name: str, path: Path):
    if not path.is_file():
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader(_module_name(name), str(path))
        spec = importlib.util.spec_from_loader(_module_name(name), loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return module
    except Exception:  # a broken file: build again
        return None


def _build(name: str, path: Path):
    """Compile job ``name`` ahead of time into ``path`` (with the notice); the module, or ``None``
    (and a marker file saying why) where it cannot be built."""
    import warnings

    from ._compile import kernel as jitted, notice, quiet

    kernel = jitted()
    shown = notice(name)
    try:
        with quiet(), warnings.catch_warnings(), tempfile.TemporaryDirectory(prefix="catan_nb_aot_") as tmp:
            warnings.simplefilter("ignore")  # numba says pycc is pending deprecation
            from numba.pycc import CC

            cc = CC(_module_name(name))
            cc.output_dir = tmp
            cc.verbose = False
            for entry, kinds in JOBS[name]:
                cc.export(entry, signature(kinds))(getattr(kernel, entry).py_func)
            cc.compile()
            staged = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            shutil.copyfile(next(Path(tmp).glob(f"{_module_name(name)}*")), staged)
            os.replace(staged, path)
    except Exception as exc:  # no compiler, no headers, no pycc, a folder gone: the jitted kernel
        shown.close(failed=True)
        why = f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:300]
        marker = path.with_suffix(".failed")
        try:
            marker.write_text(why + "\n", encoding="utf-8")
        except OSError:
            pass
        print(f"catan_nb.fast: the {name} job could not be built ahead of time ({why}); numba's jit plays it "
              f"(the same games, a slower start-up; remove {marker} to try again)", file=sys.stderr, flush=True)
        return None
    except BaseException:  # interrupted: no spinner left running
        shown.close(failed=True)
        raise
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]  # this Python's builds only: another may share the folder
    for old in path.parent.glob(f"{_module_name(name)}.*"):
        if old != path and old.name.endswith((suffix, suffix.rsplit(".", 1)[0] + ".failed")):
            old.unlink(missing_ok=True)
    module = _load(name, path)
    shown.close(failed=module is None)
    return module

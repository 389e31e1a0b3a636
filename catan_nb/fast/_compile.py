"""The kernel, loaded on demand, and the word the user gets while numba compiles it.

Every caller reaches :mod:`catan_nb.fast.kernel` through :func:`kernel`, which imports it (and so
numba) on first use only, and listens to numba's ``numba:compile`` event: numba raises it when a
job is not compiled in this process and not in its cache on disk, right before it compiles.  The
listener then says at once what is happening (:data:`NOTICE`) with a spinner counting the seconds
(a tqdm bar: text in a terminal, a widget in a notebook), and closes it when the job is compiled.
Where nothing redraws a line (standard error a pipe, a file, a CI log) the notice is one line and
the end another, without the spinner's frames.  A job loaded from the cache (about a second) says
nothing.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time

__all__ = ["kernel", "NOTICE", "COMPILE_SECONDS", "notice", "quiet"]

#: CPU seconds of a job's first compile on a machine: ``play``'s job, measured on the project's
#: 2-core machine (40 to 43 CPU seconds with its ahead-of-time build, 2026-11-28); see the README.
COMPILE_SECONDS = 45.0
#: What the user reads while a job compiles.
NOTICE = ("catan_nb.fast: compiling the simulator ({job}), once per machine, about a minute "
          "(numba keeps it in its cache; the next process loads it in about a second)")

_KERNEL = None
_LOCK = threading.Lock()
_QUIET = [0]


@contextlib.contextmanager
def quiet():
    """Keep the listener silent inside (a caller that opened its own notice: the ahead-of-time
    build of :mod:`._aot`, whose compile runs through numba's jit)."""
    _QUIET[0] += 1
    try:
        yield
    finally:
        _QUIET[0] -= 1


def kernel():
    """The compiled kernel module (:mod:`catan_nb.fast.kernel`), imported on first use, with the
    compile notice listening."""
    global _KERNEL
    if _KERNEL is None:
        with _LOCK:
            if _KERNEL is None:
                from numba.core import event

                from . import kernel as module

                event.register("numba:compile", _Listener())
                _load_lean(module)
                _KERNEL = module
    return _KERNEL


#: numba versions whose cache loading :func:`_load_lean` has been checked against (the whole of
#: tests/test_fast*.py with it); another version loads the numba way.
LEAN_LOAD_VERSIONS = ("0.68.",)


def _load_lean(module) -> None:
    """Load the kernel's jobs from numba's cache without numba's registry refresh.

    Before loading a cached function numba refreshes its whole target context: it imports and
    installs every implementation registry (numpy's, linear algebra, typed containers...), about
    0.4 CPU seconds, 20% of a process that plays 2,000 games.  Code loaded from the cache is
    machine code and needs none of them, only numba's runtime (NRT: the kernel's jobs allocate
    arrays), which this initialises; a compile still refreshes everything first (numba's
    compiler does).  Only for the numba versions in :data:`LEAN_LOAD_VERSIONS`, and any missing
    piece of numba falls back to its own loading.
    """
    import numba

    if not numba.__version__.startswith(LEAN_LOAD_VERSIONS):
        return
    try:
        from numba.core.runtime import rtsys

        for name in module.ENTRY_POINTS:
            cache = getattr(getattr(module, name), "_cache")  # noqa: B009 - numba's dispatcher cache, not Game's
            cache._load_overload, cache._guard_against_spurious_io_errors  # noqa: B018 - both must exist
            cache.load_overload = _lean_loader(cache, rtsys)
    except AttributeError:  # pragma: no cover - another numba: its own loading
        return


def _lean_loader(cache, rtsys):
    def load_overload(sig, target_context):
        rtsys.initialize(target_context)  # what the loaded code needs of numba's refresh
        with cache._guard_against_spurious_io_errors():
            return cache._load_overload(sig, target_context)

    return load_overload


def notice(job: str, stream=None):
    """Say that ``job`` compiles now; return a spinner (its ``close()`` ends it).

    The first line is written before anything else happens (in a terminal, to ``stream``:
    standard error by default); the spinner then counts the seconds until :meth:`_Spinner.close`.
    To a stream that is not a terminal (nor a notebook's output, where tqdm shows a widget): the
    notice as one line, and at the close one line more (:class:`_Lines`).
    """
    text = NOTICE.format(job=job)
    return _Spinner(text, stream) if _live(stream) else _Lines(text, stream)


def _live(stream) -> bool:
    """Whether ``stream`` (``None``: standard error, or a notebook's widget) redraws a spinner's line."""
    if stream is None:
        if _in_notebook():
            return True
        stream = sys.stderr
    try:
        return bool(stream.isatty())
    except Exception:  # a closed or odd stream: plain lines
        return False


def _in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (tqdm.auto's test: IPython imported, its shell a kernel's)."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:
        return False


class _Lines:
    """The notice where nothing redraws a line: one line now, one at :meth:`close` (no spinner)."""

    def __init__(self, text: str, stream=None):
        self.text = text
        self.stream = stream
        self.start = time.perf_counter()
        self._say(text)

    def _say(self, line: str) -> None:
        try:
            print(line, file=self.stream or sys.stderr, flush=True)
        except Exception:  # pragma: no cover - a closed stream: the compile goes on
            pass

    def close(self, failed: bool = False) -> float:
        """Say how it ended (``failed``: the compile stopped on an error); the seconds it ran."""
        seconds = time.perf_counter() - self.start
        self._say(_ending(seconds, failed))
        return seconds


def _ending(seconds: float, failed: bool) -> str:
    return (f"catan_nb.fast: compile stopped after {seconds:.0f} s" if failed else
            f"catan_nb.fast: compiled in {seconds:.0f} s (cached for the next time)")


class _Spinner:
    """A tqdm bar without a total that shows the seconds elapsed, refreshed from a thread."""

    def __init__(self, text: str, stream=None):
        self.text = text
        self.start = time.perf_counter()
        self._stop = threading.Event()
        self._bar = None
        try:
            if stream is None:
                from tqdm.auto import tqdm
            else:
                from tqdm import tqdm
            self._bar = tqdm(total=None, desc=text, bar_format="{desc} [{elapsed}]", file=stream or sys.stderr,
                             leave=True, mininterval=0.2)
            self._bar.refresh()
        except Exception:  # no tqdm display (a widget without its front end...): a plain line
            print(text, file=stream or sys.stderr, flush=True)
        self._thread = threading.Thread(target=self._spin, name="catan_nb-compile-notice", daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        while not self._stop.wait(0.5):
            if self._bar is not None:
                try:
                    self._bar.refresh()
                except Exception:  # pragma: no cover - a closed display
                    return

    def close(self, failed: bool = False) -> float:
        """Stop the spinner (``failed``: the compile stopped on an error); the seconds it ran."""
        self._stop.set()
        self._thread.join(timeout=2)
        seconds = time.perf_counter() - self.start
        if self._bar is not None:
            self._bar.set_description_str(_ending(seconds, failed))
            self._bar.close()
        return seconds


def _listener_class():
    from numba.core.event import Listener

    class Listener_(Listener):
        """Opens the notice when numba starts compiling a kernel job, closes it when the job is done
        (the functions it calls compile inside it: one notice per job)."""

        def __init__(self):
            self.depth = 0
            self.spinner = None

        def on_start(self, event):
            if self.depth == 0 and not _QUIET[0] and _ours(event.data.get("dispatcher")):
                self.spinner = notice(_job_name(event.data["dispatcher"]))
            if self.spinner is not None:
                self.depth += 1

        def on_end(self, event):
            if self.spinner is None:
                return
            self.depth -= 1
            if self.depth == 0:
                spinner, self.spinner = self.spinner, None
                # numba 0.68's Event.is_failed reads the other way round: its exception details directly
                spinner.close(failed=getattr(event, "_exc_details", None) is not None)

    return Listener_


def _Listener():  # noqa: N802 - a class made on demand (numba is imported only with the kernel)
    return _listener_class()()


def _ours(dispatcher) -> bool:
    """Whether ``dispatcher`` is one of the kernel's jobs (the tests widen this)."""
    return getattr(getattr(dispatcher, "py_func", None), "__module__", "") == "catan_nb.fast.kernel"


def _job_name(dispatcher) -> str:
    return getattr(getattr(dispatcher, "py_func", None), "__name__", "a job")

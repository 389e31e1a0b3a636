"""Each lesson's slowest cell, in CPU seconds: a class waits for it (issue 39: under 15 s on 2 cores).

Usage::

    python benchmarks/lessons.py                 # every lesson
    python benchmarks/lessons.py 11 30           # lessons 11 and 30
    python benchmarks/lessons.py --student 09    # the student lessons instead of the teacher's editions

Each lesson runs in a fresh kernel from its folder, importing this checkout's ``catan_nb``.  By default
the teacher's edition runs: it is the student lesson plus the answers and the check cells, so it times
every cell a student or a teacher will wait for (lesson 2, the game table, has no teacher's edition and
runs as it is).  Around every code cell the kernel reads its own CPU time (all threads) and that of the
processes it waited for (a pool of workers), so the figure does not depend on how loaded the machine is.

One line per lesson: its slowest cell (id, CPU seconds, wall seconds) and the lesson's total.  The last
line is ``slowest_cpu_s: X  lesson: NAME  cell: ID  lessons: N``.
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
from pathlib import Path  # noqa: E402

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

ROOT = Path(_HERE).parent
NOTEBOOKS = ROOT / "notebooks"
#: A class waits for no cell longer than this (CPU seconds on a 2-core machine).
BUDGET_CPU_S = 15.0

_START = """import resource as _r, time as _t
def _cpu():
    c = _r.getrusage(_r.RUSAGE_CHILDREN)
    return _t.process_time() + c.ru_utime + c.ru_stime
_lesson_times = []"""
_BEFORE = "_cell_cpu, _cell_wall = _cpu(), _t.perf_counter()"
_AFTER = "_lesson_times.append(({id!r}, _cpu() - _cell_cpu, _t.perf_counter() - _cell_wall))"
_END = "print(__import__('json').dumps(_lesson_times))"


def lessons(wanted: list[str], student: bool = False) -> list[Path]:
    """The notebooks to time: for each lesson its teacher's edition (or the student lesson)."""
    out = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if wanted and not any(path.name.startswith(w.zfill(2) + "_") for w in wanted):
            continue
        teacher = NOTEBOOKS / "teacher" / f"{path.stem}_teacher.ipynb"
        out.append(teacher if teacher.exists() and not student else path)
    if wanted and not out:
        raise SystemExit(f"no lesson matches {' '.join(wanted)}")
    return out


def timed(path: Path, timeout: int = 1200) -> list[tuple[str, float, float]]:
    """``(cell id, CPU seconds, wall seconds)`` of every code cell of the notebook at ``path``."""
    nb = nbformat.read(path, as_version=4)
    cells = [nbformat.v4.new_code_cell(_START)]
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        cells += [nbformat.v4.new_code_cell(_BEFORE), c, nbformat.v4.new_code_cell(_AFTER.format(id=c.id))]
    cells.append(nbformat.v4.new_code_cell(_END))
    nb.cells = cells
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = str(ROOT) + (os.pathsep + env_path if env_path else "")
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    return [tuple(row) for row in json.loads(text)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lessons", nargs="*", help="lesson numbers (default: all)")
    ap.add_argument("--student", action="store_true", help="time the student lessons, not the teacher's editions")
    args = ap.parse_args(argv)
    worst = ("", "", 0.0)
    paths = lessons(args.lessons, args.student)
    for path in paths:
        rows = timed(path)
        cell, cpu, wall = max(rows, key=lambda r: r[1])
        flag = "  OVER BUDGET" if cpu > BUDGET_CPU_S else ""
        print(f"{path.stem:<42} slowest cell {cell:<22} {cpu:6.1f} cpu_s {wall:6.1f} wall_s   "
              f"all cells {sum(r[1] for r in rows):6.1f} cpu_s{flag}", flush=True)
        if cpu >= worst[2]:
            worst = (path.stem, cell, cpu)
    print(f"slowest_cpu_s: {worst[2]:.1f}  lesson: {worst[0]}  cell: {worst[1]}  lessons: {len(paths)}")


if __name__ == "__main__":
    main()

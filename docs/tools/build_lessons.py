"""Build the student lessons from the teacher's editions, so that answers never reach students (issue 27).

One source per lesson: the teacher's edition ``notebooks/teacher/NN_name_teacher.ipynb``.  Its answers, its
"Check the answers" cells and anything else for the teacher are ordinary cells carrying the tag ``answer``
(in JupyterLab: the property inspector, *Cell Tags*).  This script writes

- ``notebooks/NN_name.ipynb``, the student lesson: the same notebook without the cells tagged ``answer``
  (outputs cleared, same cell ids);
- the answer key of ``notebooks/teacher/NN_name.md``, between its ``<!-- answer key -->`` markers: the
  answer cells' text, in order.

Run from the repository root::

    python docs/tools/build_lessons.py            # write what changed
    python docs/tools/build_lessons.py --check    # exit 1 if anything is out of date (the test suite runs this)
    python docs/tools/build_lessons.py --adopt    # first copy cells edited in a student notebook back

A student notebook is generated, but someone may edit it anyway (a merge, a quick fix).  The build never
overwrites such an edit silently: each student notebook records, in its metadata, a fingerprint of every cell
as built, so a cell that no longer matches its fingerprint was edited by hand (whatever the teacher's edition
says now).  The build then stops and names the cells; ``--adopt`` copies the edited and added student cells
(matched by cell id) into the teacher's edition, then builds.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TEACHER = NOTEBOOKS / "teacher"
TAG = "answer"
SUFFIX = "_teacher"
BEGIN, END = "<!-- answer key: begin -->", "<!-- answer key: end -->"
#: A lesson's exit ticket: its questions follow this heading, and its answers a line of their own in the key.
EXIT_TICKET = re.compile(r"#+\s*Exit ticket\b")
EXIT_TICKET_KEY = "**Exit ticket.**"


def is_answer(cell) -> bool:
    """Whether a cell is for the teacher only (tagged ``answer``)."""
    return TAG in cell.get("metadata", {}).get("tags", [])


def sources() -> list[Path]:
    """The teacher's editions, one per lesson that has answers."""
    return sorted(TEACHER.glob(f"[0-9][0-9]_*{SUFFIX}.ipynb"))


def student_path(source: Path) -> Path:
    return NOTEBOOKS / f"{source.stem[: -len(SUFFIX)]}.ipynb"


def notes_path(source: Path) -> Path:
    return TEACHER / f"{source.stem[: -len(SUFFIX)]}.md"


def read(path: Path):
    return nbformat.read(path, as_version=4)


def clean(nb):
    """Outputs, execution counts and timings cleared, no saved widget state: how notebooks are committed."""
    for c in nb.cells:
        clean_cell(c)
    nb.metadata.pop("widgets", None)
    return nb


def fingerprint(cell) -> str:
    """A short hash of what a cell says (its kind and source)."""
    return hashlib.sha1(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()[:12]


def student(teacher, source: Path | None = None) -> "nbformat.NotebookNode":
    """The student lesson: the teacher's edition without its answer cells, with each cell's fingerprint."""
    nb = clean(copy.deepcopy(teacher))
    nb.cells = [c for c in nb.cells if not is_answer(c)]
    for c in nb.cells:
        tags = [t for t in c.metadata.get("tags", []) if t != TAG]
        if tags:
            c.metadata["tags"] = tags
        else:
            c.metadata.pop("tags", None)
    nb.metadata["catan_nb_lesson"] = {
        "built_from": f"teacher/{source.name}" if source else None,
        "note": "built by docs/tools/build_lessons.py: edit the teacher's edition, not this notebook",
        "cells": {c.id: fingerprint(c) for c in nb.cells},
    }
    return nb


def dumps(nb) -> str:
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def answer_key(teacher) -> str:
    """The answer cells' text as the markdown list of the teacher notes, numbered like their questions.

    An answer cell starts with ``**Answer.**`` (one question: it gets the number of the question before it)
    or ``**Answers.**`` (a numbered list of its own).  An answer that itself starts with a number and a period
    ("7. The ring's ...") keeps it: the period is escaped, so markdown does not read it as a list number
    (issue 39).  The answers under an ``## Exit ticket`` heading follow a line of their own.
    """
    entries = []
    question = 0
    for c in teacher.cells:
        if c.cell_type != "markdown":
            continue
        text = c.source.strip()
        if not is_answer(c):
            if EXIT_TICKET.match(text):
                entries.append(f"\n{EXIT_TICKET_KEY}\n")
                question = 0
            numbers = re.findall(r"(?m)^(\d+)\.\s", text)
            if numbers:
                question = int(numbers[-1])
            continue
        if text.startswith("#"):
            continue  # a heading for the teacher ("Check the answers")
        m = re.match(r"\*\*(Answers?)\.\*\*\s*", text)
        if not m:
            continue  # a note to the teacher, not an answer
        body = text[m.end():]
        if m.group(1) == "Answers":  # several answers, already numbered
            entries.append(body)
        else:
            lines = re.sub(r"^(\d+)\.(?=\s|$)", r"\1\\.", body).splitlines()
            entries.append("\n".join([f"{question}. {lines[0]}"] + [f"   {x}" if x else "" for x in lines[1:]]))
    return "\n".join(entries)


def notes_text(notes: str, key: str, source: Path) -> str:
    """The teacher notes with their answer key replaced by ``key``."""
    if BEGIN not in notes or END not in notes:
        raise SystemExit(f"{source.name}: its teacher notes have no {BEGIN} ... {END} markers")
    head, rest = notes.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{key}\n{END}{tail}"


def edited_cells(teacher, current) -> list[str]:
    """Ids of student cells edited by hand since they were built (or added by hand).

    A cell is compared with the fingerprint recorded when it was built; a notebook without fingerprints
    is compared with the teacher's edition instead.
    """
    recorded = current.metadata.get("catan_nb_lesson", {}).get("cells")
    if recorded is None:
        by_id = {c.get("id"): c for c in teacher.cells}
        return [c.get("id") for c in current.cells
                if (t := by_id.get(c.get("id"))) is None or t.cell_type != c.cell_type or t.source != c.source
                or is_answer(t)]
    return [c.get("id") for c in current.cells if recorded.get(c.get("id")) != fingerprint(c)]


def adopt(teacher, current) -> int:
    """Copy the student cells edited or added by hand into the teacher's edition (matched by id); how many."""
    edits = set(edited_cells(teacher, current))
    by_id = {c.get("id"): i for i, c in enumerate(teacher.cells)}
    changed = 0
    previous = None  # index in the teacher's edition of the last student cell placed
    for c in current.cells:
        i = by_id.get(c.get("id"))
        if i is not None and not is_answer(teacher.cells[i]):
            if c.get("id") in edits:
                teacher.cells[i] = clean_cell(copy.deepcopy(c))
                changed += 1
            previous = i
            continue
        new = clean_cell(copy.deepcopy(c))
        at = 0 if previous is None else previous + 1
        teacher.cells.insert(at, new)
        by_id = {x.get("id"): k for k, x in enumerate(teacher.cells)}
        previous = at
        changed += 1
    return changed


def clean_cell(cell):
    """The cell as committed (in place): no outputs, execution count or execution timings."""
    if cell.cell_type == "code":
        cell.outputs = []
        cell.execution_count = None
    cell.metadata.pop("execution", None)
    return cell


def build(check: bool = False, take: bool = False, force: bool = False) -> list[str]:
    """Bring every student lesson and answer key up to date; the files that were (or would be) written."""
    stale = []
    for source in sources():
        teacher = read(source)
        target = student_path(source)
        if target.exists():
            current = read(target)
            edits = edited_cells(teacher, current)
            if edits and take and not check:
                adopt(teacher, current)
                source.write_text(dumps(clean(teacher)), encoding="utf-8")
                stale.append(str(source.relative_to(ROOT)))
            elif edits and not force:
                if check:
                    stale.append(str(target.relative_to(ROOT)))
                    continue
                raise SystemExit(
                    f"{target.relative_to(ROOT)} was edited by hand (cells {', '.join(map(str, edits))}): "
                    f"run with --adopt to copy those cells into {source.name}, or --force to discard them"
                )
        text = dumps(student(teacher, source))
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(str(target.relative_to(ROOT)))
            if not check:
                target.write_text(text, encoding="utf-8")
        notes = notes_path(source)
        if notes.exists():
            old = notes.read_text(encoding="utf-8")
            new = notes_text(old, answer_key(teacher), source)
            if new != old:
                stale.append(str(notes.relative_to(ROOT)))
                if not check:
                    notes.write_text(new, encoding="utf-8")
        if source.read_text(encoding="utf-8") != dumps(clean(read(source))):
            stale.append(str(source.relative_to(ROOT)) + " (outputs or widget state saved)")
            if not check:
                source.write_text(dumps(clean(read(source))), encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is out of date")
    parser.add_argument("--adopt", action="store_true", help="copy hand edits of student notebooks into the sources")
    parser.add_argument("--force", action="store_true", help="overwrite hand edits of student notebooks")
    args = parser.parse_args(argv)
    stale = build(check=args.check, take=args.adopt, force=args.force)
    for path in stale:
        print(("out of date: " if args.check else "wrote ") + path)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())

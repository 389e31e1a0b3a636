"""Answers kept apart (issue 27): student lessons carry no answer, and are built from the teacher's editions.

One source per lesson, ``notebooks/teacher/NN_name_teacher.ipynb``, whose answer cells are tagged
``answer``; ``docs/tools/build_lessons.py`` writes the student lesson ``notebooks/NN_name.ipynb`` without
them and copies the answers into the teacher notes' answer key.  These tests fail when a generated file is
out of date (run the script) or when an answer reaches a student notebook.
"""

from __future__ import annotations

import copy
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STUDENT = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
TEACHER = sorted((NOTEBOOKS / "teacher").glob("[0-9][0-9]_*_teacher.ipynb"))


def _tool():
    spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "docs" / "tools" / "build_lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_lessons = _tool()

#: What an answer looks like in a lesson: a revealable block, an answer label, the teacher's check cells.
ANSWER_MARKS = re.compile(r"<details|\*\*Answers?\.\*\*|Check the answers|Teacher's edition", re.I)


def test_generated_lessons_and_answer_keys_are_up_to_date():
    stale = build_lessons.build(check=True)
    assert not stale, f"out of date: {stale}; run `python docs/tools/build_lessons.py`"


@pytest.mark.parametrize("path", STUDENT, ids=lambda p: p.name)
def test_student_lessons_contain_no_answer(path):
    nb = nbformat.read(path, as_version=4)
    for c in nb.cells:
        assert "answer" not in c.metadata.get("tags", []), (path.name, c.id)
        assert not ANSWER_MARKS.search(c.source), (path.name, c.id, ANSWER_MARKS.search(c.source).group())


@pytest.mark.parametrize("path", TEACHER, ids=lambda p: p.name)
def test_teacher_editions_hold_the_answers_and_their_checks(path):
    nb = nbformat.read(path, as_version=4)
    answers = [c for c in nb.cells if build_lessons.is_answer(c)]
    assert any(c.cell_type == "markdown" and c.source.startswith(("**Answer.**", "**Answers.**")) for c in answers)
    assert any(c.cell_type == "code" for c in answers), f"{path.name}: no check cell computes the answers"
    # Check cells come last, so the student lesson runs exactly as the teacher's edition up to them.
    kinds = [build_lessons.is_answer(c) for c in nb.cells if c.cell_type == "code"]
    assert kinds == sorted(kinds), f"{path.name}: a lesson code cell follows a check cell"
    assert build_lessons.student_path(path).exists() and build_lessons.notes_path(path).exists()


def test_every_lesson_with_questions_has_a_teacher_edition():
    for path in STUDENT:
        if path.stem.startswith("02_"):
            continue  # the game table (the app): its questions are answered in the teacher notes
        assert (NOTEBOOKS / "teacher" / f"{path.stem}_teacher.ipynb").exists(), path.name


def test_the_answer_key_is_the_teacher_editions_answers():
    for source in TEACHER:
        notes = build_lessons.notes_path(source).read_text(encoding="utf-8")
        key = notes.split(build_lessons.BEGIN, 1)[1].split(build_lessons.END, 1)[0]
        teacher = nbformat.read(source, as_version=4)
        for c in teacher.cells:
            if build_lessons.is_answer(c) and c.source.startswith("**Answer.**"):
                first = c.source.removeprefix("**Answer.**").split()[:6]
                assert " ".join(first) in " ".join(key.split()), (source.name, first)


def test_a_hand_edit_of_a_student_lesson_is_never_lost(tmp_path, monkeypatch):
    """The build refuses to overwrite an edited student cell; --adopt copies it into the teacher's edition."""
    notebooks = tmp_path / "notebooks"
    (notebooks / "teacher").mkdir(parents=True)
    source = TEACHER[0]
    for p in (source, build_lessons.student_path(source), build_lessons.notes_path(source)):
        (notebooks / p.relative_to(NOTEBOOKS)).write_bytes(p.read_bytes())
    monkeypatch.setattr(build_lessons, "ROOT", tmp_path)
    monkeypatch.setattr(build_lessons, "NOTEBOOKS", notebooks)
    monkeypatch.setattr(build_lessons, "TEACHER", notebooks / "teacher")
    assert build_lessons.build(check=True) == []

    student_file = notebooks / build_lessons.student_path(source).name
    nb = nbformat.read(student_file, as_version=4)
    edited = next(c for c in nb.cells if c.cell_type == "code")
    edited.source += "\n# edited by hand"
    added = copy.deepcopy(nb.cells[0])
    added.id, added.source = "added-by-hand", "A new paragraph."
    nb.cells.insert(1, added)
    nbformat.write(nb, student_file)

    assert build_lessons.build(check=True)  # out of date
    with pytest.raises(SystemExit, match="edited by hand"):
        build_lessons.build()
    build_lessons.build(take=True)
    teacher = nbformat.read(notebooks / "teacher" / source.name, as_version=4)
    by_id = {c.id: c for c in teacher.cells}
    assert by_id[edited.id].source.endswith("# edited by hand") and by_id["added-by-hand"].source == "A new paragraph."
    assert build_lessons.build(check=True) == []
    rebuilt = nbformat.read(student_file, as_version=4)
    assert [c.id for c in rebuilt.cells] == [c.id for c in nb.cells]

    # An edit of the teacher's edition is not a hand edit of the student lesson: it is simply built.
    teacher_file = notebooks / "teacher" / source.name
    teacher = nbformat.read(teacher_file, as_version=4)
    lesson = next(c for c in teacher.cells if c.cell_type == "markdown" and not build_lessons.is_answer(c))
    lesson.source += "\n\nOne more sentence."
    nbformat.write(teacher, teacher_file)
    assert build_lessons.build() == [str(student_file.relative_to(tmp_path))]
    assert any(c.source.endswith("One more sentence.") for c in nbformat.read(student_file, as_version=4).cells)

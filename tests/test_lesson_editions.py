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


def _rendered_key(markdown: str) -> list[tuple[int, str, bool]]:
    """The top-level numbered items of a rendered answer key: ``(number, text, holds a nested numbered list)``."""
    from markdown_it import MarkdownIt

    items, depth, current = [], 0, None
    start = 1
    for tok in MarkdownIt("commonmark").parse(markdown):
        if tok.type == "ordered_list_open":
            depth += 1
            if depth == 1:
                start, index = int(tok.attrGet("start") or 1), 0
            elif current is not None:
                current[2] = True
        elif tok.type == "ordered_list_close":
            depth -= 1
        elif tok.type == "list_item_open" and depth == 1:
            current = [start + index, "", False]
            index += 1
        elif tok.type == "list_item_close" and depth == 1:
            items.append(tuple(current))
            current = None
        elif tok.type == "inline" and current is not None:
            current[1] += (" " if current[1] else "") + "".join(
                " " if c.type == "softbreak" else c.content for c in tok.children if c.type in ("text", "code_inline", "softbreak"))
    return items


def _expected_answers(teacher) -> list[tuple[int | None, str]]:
    """Independently of the build tool: each answer's question number (None inside an "Answers." list) and
    its first words, in the order of the teacher's edition."""
    out, question = [], 0
    for c in teacher.cells:
        if c.cell_type != "markdown":
            continue
        if not build_lessons.is_answer(c):
            if c.source.lstrip().startswith("## Exit ticket"):
                question = 0
            numbers = re.findall(r"(?m)^(\d+)\.\s", c.source)
            question = int(numbers[-1]) if numbers else question  # the last question asked before the answer
            continue
        if c.source.startswith("**Answer.**"):
            out.append((question, " ".join(c.source.removeprefix("**Answer.**").split()[:6])))
        elif c.source.startswith("**Answers.**"):
            for n, line in re.findall(r"(?m)^(\d+)\.\s+(.*)$", c.source):
                out.append((int(n), " ".join(line.split()[:6])))
    return out


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[*`$\\]", "", text).split())


@pytest.mark.parametrize("source", TEACHER, ids=lambda p: p.name)
def test_the_answer_key_renders_every_answer_under_its_question(source):
    """Issue 39 item 1: the notes' key, rendered as markdown, lists every answer as written, numbered like its
    question: an answer starting "7. The ring's ..." is not turned into a list numbered 7."""
    notes = build_lessons.notes_path(source).read_text(encoding="utf-8")
    key = notes.split(build_lessons.BEGIN, 1)[1].split(build_lessons.END, 1)[0]
    rendered = _rendered_key(key)
    expected = _expected_answers(nbformat.read(source, as_version=4))
    assert len(rendered) == len(expected), (source.name, [r[0] for r in rendered], [e[0] for e in expected])
    for (number, text, nested), (question, first) in zip(rendered, expected):
        assert not nested, (source.name, number, "a numbered list inside an answer")
        assert number == question, (source.name, number, question, first)
        assert _plain(text).startswith(_plain(first)), (source.name, number, text[:80], first)


def test_an_answer_that_starts_with_a_number_keeps_it():
    """The renderer on a made-up lesson: answers "7. ..." and "6. ..." to questions 1 and 2, an exit ticket."""
    nb = nbformat.v4.new_notebook()
    md = nbformat.v4.new_markdown_cell
    nb.cells = [md("## Exercises\n\n1. How long is the ring's road?"), md("**Answer.** 7. The ring's seven roads."),
                md("2. And the fork's?"), md("**Answer.** 6. The fork\nleaves one out."),
                md("## Exit ticket\n\n1. One?\n2. Two?"), md("**Answers.**\n\n1. First.\n2. Second.")]
    for c in nb.cells[1::2]:
        c.metadata["tags"] = ["answer"]
    key = build_lessons.answer_key(nb)
    assert _rendered_key(key) == [(1, "7. The ring's seven roads.", False), (2, "6. The fork leaves one out.", False),
                                  (1, "First.", False), (2, "Second.", False)]
    assert build_lessons.EXIT_TICKET_KEY in key


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

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


#: Issue 39: explanations a student would read before the question they answer.  For each student lesson:
#: (the start of a question, patterns no cell before it may contain: code or markdown, case ignored).  The
#: explanations live after the question, in the teacher's edition's answers.
GIVEN_AWAY = {
    "09_unplugged_start": [
        ("1. In 36 rolls of two dice, which total will come up most often?", [r"ways", r"/\s*36", r"6 \\times 36"]),
        ("3. Which two intersections collect the most?", [r"11 dots", r"22 dots", r"\b(28|39|44)\b"]),
    ],
    "11_expected_value_where_to_build": [
        ("3. Why is seat 3's best pair listed", [r"twice in a row", r"six other picks", r"back to back"]),
        ("6. Seat 0 founds 31 + 49.", [r"hills hex", r"never see a brick", r"trade for one", r"no brick"]),
    ],
    "12_risk_variance_robber": [
        ("2. Spot A touches one 8; spot B touches a 3 and a 4.", [
            r"same distribution", r"twice as many rolls", r"10/36 against 5/36", r"never come up on the same roll",
            r"repeated\** number adds risk", r"less than half the variance", r"both pay one card"]),
    ],
    "16_your_own_dice": [
        ("1. Why must you choose $n$ before you roll?", [r"far more likely than 5%", r"many chances", r"stopping as soon"]),
        ("2. Your class rolled 60 times and got p = 0.41.", [
            r"not the same as showing", r"do not show unfairness", r"does not prove the dice fair"]),
        ("4. With 30 rolls the worksheet pools totals.", [r"at least 5", r"5 or more", r"n \\ge 180", r"below 1"]),
    ],
    "18_cities_knights_barbarians": [
        ("2. Why are the most likely rolls for the attack", [r"skew", r"long (right )?tail", r"pulls the mean"]),
    ],
    "20_dice_game_conditional": [
        ("1. Compare your prediction with section 1. Why is the engine's 0.570",
         [r"buy the missing resource", r"ignores gold", r"real chance is higher"]),
        ("2. Why is $P(\\text{road in three rolls, rerolling everything})$",
         [r"hard event into an easier", r"given\*? the brick you keep", r"throws? away"]),
    ],
    "21_dice_game_stopping": [
        ("1. Compare your prediction: with ore, ore, grain, wool, gold, brick",
         [r"\btie", r"exactly the same chance", r"only together with a second gold", r"cancel"]),
    ],
}


@pytest.mark.parametrize("name", sorted(GIVEN_AWAY))
def test_no_cell_before_a_question_states_its_answer(name):
    """Issue 39: for each question of the list, the student lesson up to the question says none of its answer."""
    cells = [c.source for c in nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells]
    for question, forbidden in GIVEN_AWAY[name]:
        where = [i for i, text in enumerate(cells) if question in text]
        assert where, f"{name}: no question starts {question!r}"
        before = "\n".join(cells[: where[0]]) + "\n" + cells[where[0]].split(question, 1)[0]
        for pattern in forbidden:
            found = re.search(pattern, " ".join(before.split()), re.I)
            assert not found, f"{name}: before {question!r} a cell says {found.group()!r}"


def test_every_lesson_ends_with_an_exit_ticket():
    """Issue 39: every lesson ends with an exit ticket of 3-4 questions, answered in the teacher's edition (lesson
    2, the game table, in its notes); the notes' key carries the answers under their own line."""
    for path in STUDENT:
        cells = nbformat.read(path, as_version=4).cells
        ticket = [c for c in cells if c.cell_type == "markdown" and c.source.startswith("## Exit ticket")]
        assert len(ticket) == 1, f"{path.name}: no exit ticket"
        questions = re.findall(r"(?m)^(\d+)\.\s", ticket[0].source)
        assert questions == [str(i) for i in range(1, len(questions) + 1)] and 3 <= len(questions) <= 4, path.name
        notes = (NOTEBOOKS / "teacher" / f"{path.stem}.md").read_text(encoding="utf-8")
        if path.stem.startswith("02_"):
            key = notes.split("**Exit ticket.**", 1)[1]
        else:
            teacher = nbformat.read(NOTEBOOKS / "teacher" / f"{path.stem}_teacher.ipynb", as_version=4).cells
            at = next(i for i, c in enumerate(teacher) if c.source.startswith("## Exit ticket"))
            answer = teacher[at + 1]
            assert build_lessons.is_answer(answer) and answer.source.startswith("**Answers.**"), path.name
            assert re.findall(r"(?m)^(\d+)\.\s", answer.source) == questions, path.name
            key = notes.split(build_lessons.BEGIN, 1)[1].split(build_lessons.END, 1)[0]
            assert build_lessons.EXIT_TICKET_KEY in key, path.name
            key = key.split(build_lessons.EXIT_TICKET_KEY, 1)[1]
        assert re.findall(r"(?m)^(\d+)\.\s", key)[: len(questions)] == questions, path.name


#: The Common Core statistics and probability standards a lesson may serve (grade 7 cluster 7.SP.C; high school
#: HSS-CP, HSS-MD, HSS-IC), by their numbers, and the AP Statistics units (1 to 9).
STANDARDS = {"7.SP.C": range(5, 9), "HSS-CP.A": range(1, 6), "HSS-CP.B": range(6, 10), "HSS-MD.A": range(1, 5),
             "HSS-MD.B": range(5, 8), "HSS-IC.A": range(1, 3), "HSS-IC.B": range(3, 7)}


def test_every_lesson_has_a_row_in_the_standards_table():
    """Issue 39: the teachers' README maps every lesson to the standards it serves, with real standard codes."""
    readme = (NOTEBOOKS / "teacher" / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Standards", 1)[1].split("\n\n| lesson |", 1)[1].split("\n\n", 1)[0]
    rows = {int(m.group(1)): line for line in table.splitlines() if (m := re.match(r"\| (\d+) · ", line))}
    lessons = {int(p.name[:2]) for p in STUDENT}
    assert set(rows) == lessons, (sorted(lessons - set(rows)), sorted(set(rows) - lessons))
    for n, line in rows.items():
        _, grade7, high, ap = [x.strip() for x in line.strip("|").split("|")]
        codes = re.findall(r"(7\.SP\.C|HSS-(?:CP|MD|IC)\.[AB])\.(\d)(?:[a-c](?:-[a-c])?)?(?:-(\d))?", grade7 + " " + high)
        for cluster, first, last in codes:
            assert int(first) in STANDARDS[cluster] and (not last or int(last) in STANDARDS[cluster]), (n, cluster, first)
        assert codes or (grade7 == "—" and high.startswith("—")), n
        assert all(1 <= int(u) <= 9 for u in re.findall(r"\b(\d)\b(?![.\d])", re.sub(r"\(.*?\)", "", ap))), (n, ap)

"""The rules reference (issue 38, part 1): every rule id the code raises or cites has an entry in the
shipped data (``catan_nb/reference/*.toml``), every entry is cited by a test, the pages
``docs/rules/`` are generated from the data, ``describe`` and ``IllegalActionError.explanation`` give
the statement, and the game table shows it when it refuses a move.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from catan_nb import Board, Game, IllegalActionError, reference
from catan_nb.rules import BuildSettlement, describe

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "catan_nb"
#: The spec the ids come from, beside the repository (not part of the product); the words test runs where it is.
SPEC = ROOT.parent / "shared" / "RULES.md"


def _tool():
    spec = importlib.util.spec_from_file_location("build_rules", ROOT / "docs" / "tools" / "build_rules.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_rules = _tool()

#: Entries no test cites yet, each with the reason.  Empty: every rule and decision is cited.
KNOWN_GAPS: dict[str, str] = {}


#: What the scan of the package leaves out: the reference itself (its examples name an unknown id on
#: purpose) and the example module, whose ids (``EX-LOOM-1``) are its own rules, not the game's.
NOT_SCANNED = (PKG / "reference", PKG / "examples")
#: Rule arguments of ``IllegalActionError`` that name no rule of the game: ``API``, an object that is no
#: action of this game (the engine's and the Dice Game's ``play``).
NOT_RULES = {"API"}


def _code_files():
    for p in PKG.rglob("*.py"):
        if "__pycache__" not in p.parts and not any(p.is_relative_to(x) for x in NOT_SCANNED):
            yield p


def test_the_reference_pages_are_up_to_date():
    """``docs/rules/*.md`` are what ``docs/tools/build_rules.py`` writes from the data and the tests."""
    stale = build_rules.build(check=True)
    assert not stale, f"out of date: {stale}; run `python docs/tools/build_rules.py`"


def test_every_rule_id_the_code_cites_or_raises_has_an_entry():
    """Ids in the package (errors, docstrings, comments) and every literal rule given to
    ``IllegalActionError`` are in the reference; a section written ``B-ROB-*`` or ``CK-KN-1..7`` is one
    of its sections."""
    known = {r.id for r in reference.rules()}
    sections = {prefix for fam in reference.families() for prefix, _ in fam.sections}
    sections |= {prefix.split("-")[0] for prefix in sections}  # a whole family: ``CK-*``
    missing, raised = {}, set()
    for path in _code_files():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for m in reference.RULE_ID.finditer(text):
            if m.group(0) not in known:
                missing.setdefault(m.group(0), rel)
        for m in reference.SECTION_ID.finditer(text):
            if m.group(1) not in sections:
                missing.setdefault(m.group(0), rel)
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "IllegalActionError"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                raised.add(node.args[0].value)
                if node.args[0].value not in known | NOT_RULES:
                    missing.setdefault(node.args[0].value, f"{rel}:{node.lineno} (raised)")
    assert not missing, f"ids with no entry in catan_nb/reference/*.toml: {missing}"
    assert len(raised) > 100  # the scan sees the engine's refusals (the Dice Game names its rules through a variable)
    assert {r.split("-")[0] for r in raised - NOT_RULES} >= {"B", "X56", "F", "H", "SC", "ERIE", "SF", "CK"}


def test_every_entry_is_cited_by_a_test():
    """Each rule and decision of the reference is named by at least one test (its name, docstring or
    body), apart from the known gaps, which must really be uncited."""
    cites = build_rules.citing_tests()
    uncited = sorted(rid for rid, tests in cites.items() if not tests)
    assert sorted(set(uncited) - set(KNOWN_GAPS)) == [], "entries no test cites"
    assert sorted(set(KNOWN_GAPS) - set(uncited)) == [], "known gaps that a test now cites: drop them"
    assert "test_rules_setup.py::test_B_SETUP_5_derived_starting_spots_blue_orange_white" in cites["B-SETUP-5"]


def test_the_citation_scanner_reads_names_and_text():
    """Test names in any case (``test_sf7_``, ``test_ck_sf_1``, ``test_A27_``) and ids written in the
    text, ranges expanded; ``CK-SF-1`` is not ``SF-1``, ``B-BUILD-1`` is not ``B-BUILD-12``."""
    known = {r.id for r in reference.rules()}
    keys = build_rules._name_keys(known)
    assert build_rules.ids_in_name("test_sf7_decision_a_ship", keys) == {"SF-7"}
    assert build_rules.ids_in_name("test_ck_kn_5_ck_pc_17_knights", keys) == {"CK-KN-5", "CK-PC-17"}
    assert build_rules.ids_in_name("test_ck_sf_1_target", keys) == {"CK-SF-1"}
    assert build_rules.ids_in_name("test_A27_set_aside", keys) == {"A-27"}
    assert build_rules.ids_in_name("test_X56_SBP_6_card", keys) == {"X56-SBP-6"}
    assert build_rules.ids_in_name("test_takes_a_2_for_1", keys) == set()
    assert build_rules.ids_in_text("B-BUILD-12 and CK-SF-1; B-TURN-4..6", known) == {
        "B-BUILD-12", "CK-SF-1", "B-TURN-4", "B-TURN-5", "B-TURN-6"}


def test_the_data_files_are_well_formed_and_the_statements_short():
    """One file per family, the sections in the data cover its ids, ids unique and in page order, a
    statement of one or two sentences, and a decision's rules exist."""
    assert sorted(p.stem for p in (PKG / "reference").glob("*.toml")) == sorted(reference.FAMILIES)
    known = {r.id for r in reference.rules()}
    assert len(known) == len(reference.rules()) == 378  # 336 rules and the decisions A-01..A-42
    assert {f"A-{i:02d}" for i in range(1, 43)} <= known
    for fam in reference.families():
        raw = tomllib.loads((PKG / "reference" / f"{fam.slug}.toml").read_text(encoding="utf-8"))
        assert raw["slug"] == fam.slug and [r["id"] for r in raw["rule"]] == [r.id for r in fam.rules]
        order = [p for p, _ in fam.sections]
        positions = [order.index(r.id.rsplit("-", 1)[0]) for r in fam.rules]
        assert positions == sorted(positions), f"{fam.slug}: entries out of section order"
        for r in fam.rules:
            sentences = re.findall(r"[.!?](?:\s|$)", r.text)
            assert 1 <= len(sentences) <= 2 and len(r.text) <= 450, (r.id, r.text)
            assert all(x in known for x in r.rules), r.id
            assert r.id.startswith("A-") == bool(r.rules), r.id
            if r.id.startswith("A-"):
                assert r.decision, r.id


@pytest.mark.skipif(not SPEC.is_file(), reason="the spec is not beside the repository")
def test_the_statements_are_in_the_projects_own_words():
    """No statement or decision repeats a run of 8 words of the spec's prose (runs with a number, a
    list of values or a rule id are data, not prose)."""
    def words(s: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", s.lower())

    spec = words(SPEC.read_text(encoding="utf-8"))
    n = 8
    grams = {tuple(spec[i:i + n]) for i in range(len(spec) - n + 1)}
    copied = []
    for r in reference.rules():
        for field in (r.text, r.decision or ""):
            w = words(field)
            for i in range(len(w) - n + 1):
                run = tuple(w[i:i + n])
                if run in grams and not any(c.isdigit() for t in run for c in t):
                    copied.append((r.id, " ".join(run)))
    assert not copied, copied


def test_describe_gives_the_statement_and_names_close_ids_for_an_unknown_one():
    """``catan_nb.rules.describe`` is the reference's; ids are read in any case, ``_`` for ``-``."""
    assert describe("B-BUILD-6") == reference.rule("B-BUILD-6").text
    assert describe("b_build_6") == describe(" B-BUILD-6 ")
    assert "distance" in describe("B-BUILD-7").lower() and describe("A-27") == reference.rule("A-27").text
    with pytest.raises(KeyError) as caught:
        describe("B-BULD-6")
    err = caught.value
    assert isinstance(err, reference.UnknownRuleError) and isinstance(err, ValueError)
    assert "B-BUILD-6" in err.matches and str(err).startswith("no rule B-BULD-6 in the rules reference; close")
    with pytest.raises(reference.UnknownRuleError, match="no rule ZZ-1 in the rules reference$"):
        describe("ZZ-1")


def test_every_entry_links_to_its_page_and_anchor():
    """A rule's link is its family's page and its id in lower case: the page has that heading."""
    for fam in reference.families():
        page = (ROOT / "docs" / "rules" / f"{fam.slug}.md").read_text(encoding="utf-8")
        for r in fam.rules:
            assert reference.url(r.id) == f"docs/rules/{fam.slug}.md#{r.id.lower()}"
            assert f"\n### {r.id}\n" in page
    assert reference.url("CK-PC-12", site="https://x.org/docs") == "https://x.org/docs/rules/cities_knights.html#ck-pc-12"


def test_an_illegal_action_keeps_its_message_and_rule_and_explains_it():
    """A refused settlement (the distance rule) keeps ``.rule`` and its message and gains the rule's
    statement as ``.explanation``; an id the reference lacks explains nothing."""
    g = Game(Board.beginner(), players=4, seed=1)
    first = g.legal_actions()[0]
    g.play(first)
    near = g.topology.node_neighbours[first.node][0]
    g.play(next(a for a in g.legal_actions()))  # the founding road
    with pytest.raises(IllegalActionError) as caught:
        g.play(BuildSettlement(near))
    err = caught.value
    assert err.rule == "B-BUILD-7" and str(err).startswith("B-BUILD-7: ")
    assert err.explanation == describe("B-BUILD-7")
    assert IllegalActionError("no-such-rule", "evidence").explanation is None
    assert str(IllegalActionError("B-TURN-3", "x")) == "B-TURN-3: x"


def test_the_table_shows_the_rules_statement_when_a_click_is_refused():
    """Pressing "offer" with nothing asked for is refused (B-TRADE-5): the table's notice shows the
    engine's message, the rule's statement and a link to its entry; the game is unchanged."""
    pytest.importorskip("ipywidgets")
    from helpers import deal

    from catan_nb.rules import Phase
    from catan_nb.widgets import GameTable

    g = Game(Board.beginner(), players=4, seed=3, start="beginner")
    table = GameTable(g, seats=["human", "bot", "bot", "bot"])
    table.press("roll")
    while g.phase is not Phase.MAIN:  # a 7: the human discards or moves the robber as the engine lists
        table.play(g.legal_actions()[0])
    deal(g, 0, wool=2)
    table.refresh()
    for box in table.offer_give + table.offer_get:
        box.value = 0
    table.offer_give[0].value = 1
    state = g.state()
    table.press("offer")
    notice = table.notice.value
    assert "B-TRADE-5: " in notice and describe("B-TRADE-5").split(";")[0].replace("'", "&#x27;") in notice
    assert f'href="{reference.url("B-TRADE-5")}"' in notice and g.state() == state

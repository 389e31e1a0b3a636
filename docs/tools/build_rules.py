"""Write the rules reference pages ``docs/rules/`` from the shipped data ``catan_nb/reference/*.toml``.

One page per rule family (the base game, 5-6 players, Friends, Helpers, Seafarers, Cities & Knights,
Corsica / New York / Erie Canal, the Dice Game) and an index.  Each rule shows its statement, the
engine's decision where the sources leave the rule open, and the tests that cite it: test functions
under ``tests/`` whose name (``test_B_BUILD_6_...``, ``test_sf7_...``, ``test_A27_...``), decorators,
docstring or body name the id (``B-BUILD-6``; a range ``B-TURN-4..6`` cites each rule in it).

Run from the repository root::

    python docs/tools/build_rules.py            # write the pages that changed
    python docs/tools/build_rules.py --check    # exit 1 if a page is out of date (the test suite runs this)

The statements are edited in the data files, never in the pages.  A page also goes out of date when a
test citing a rule is added, renamed or removed: run the script again.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from catan_nb import reference  # noqa: E402

PAGES = ROOT / "docs" / "rules"
TESTS = ROOT / "tests"
#: Tests named on a rule's line; the rest are counted.
SHOWN = 6
#: Test files that name rules without testing them: the reference's own tests.
NOT_CITING = ("test_rules_reference.py",)
#: A range of rules, ``B-TURN-4..6``: every rule from the first number to the last.
RANGE = re.compile(r"(?<![A-Za-z0-9-])((?:B|X56|DG|DGP|F|H|SC|ERIE|SF|CK)(?:-[A-Z]+)*)-(\d+)\.\.(\d+)(?![0-9])")


# ---------------------------------------------------------------- which tests cite which rule
def _tokens(text: str) -> list[str]:
    """Words of a test's name: ``test_ck_kn_5_sf7`` gives ``test, ck, kn, 5, sf, 7``; numbers as ints."""
    out = []
    for part in text.lower().split("_"):
        if re.fullmatch(r"a\d\d", part):  # test_A27_...: the decision A-27 (only in this joined form)
            out.append(f"a-{part[1:]}")
            continue
        for piece in re.findall(r"x56|[a-z]+|\d+", part):
            out.append(str(int(piece)) if piece.isdigit() else piece)
    return out


def _name_keys(ids) -> dict[tuple[str, ...], str]:
    keys = {}
    for rid in ids:
        if rid.startswith("A-"):
            keys[(f"a-{rid[2:]}",)] = rid
        else:
            keys[tuple(_tokens(rid.replace("-", "_")))] = rid
    return keys


def ids_in_name(name: str, keys: dict[tuple[str, ...], str]) -> set[str]:
    """Rule ids a test's name cites, longest match first (``ck_sf_1`` is CK-SF-1, not SF-1)."""
    toks = _tokens(name)
    longest = max(len(k) for k in keys)
    found, i = set(), 0
    while i < len(toks):
        for n in range(min(longest, len(toks) - i), 0, -1):
            rid = keys.get(tuple(toks[i:i + n]))
            if rid:
                found.add(rid)
                i += n
                break
        else:
            i += 1
    return found


def ids_in_text(text: str, known: set[str]) -> set[str]:
    """Rule ids a text cites as written (``B-BUILD-6``, ``A-27``), ranges (``B-TURN-4..6``) expanded."""
    found = {m.group(0) for m in reference.RULE_ID.finditer(text)}
    for m in RANGE.finditer(text):
        found.update(f"{m.group(1)}-{k}" for k in range(int(m.group(2)), int(m.group(3)) + 1))
    return found & known


def test_functions(root: Path = TESTS):
    """``(label, name, source)`` of every test function under ``root`` (methods of test classes too)."""
    for path in sorted(root.rglob("test_*.py")):
        if path.name in NOT_CITING:
            continue
        src = path.read_text(encoding="utf-8")
        lines = src.splitlines()
        tree = ast.parse(src)
        nodes = [*tree.body, *(n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body)]
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                yield f"{path.relative_to(root).as_posix()}::{node.name}", node.name, "\n".join(lines[start - 1:node.end_lineno])


@cache
def citing_tests(root: Path = TESTS) -> dict[str, list[str]]:
    """For every rule of the reference, the tests that cite it (``file::function``), sorted (read once)."""
    known = {r.id for r in reference.rules()}
    keys = _name_keys(known)
    out: dict[str, set[str]] = defaultdict(set)
    for label, name, source in test_functions(root):
        for rid in ids_in_name(name, keys) | ids_in_text(source, known):
            out[rid].add(label)
    return {rid: sorted(out.get(rid, ())) for rid in known}


# ---------------------------------------------------------------- the pages
_PROTECTED = re.compile(r"`[^`]*`|\[[^\]]*\]\([^)]*\)")


def _link_ids(text: str, family: str) -> str:
    """Rule ids in ``text`` as links to their entries (not inside code or an existing link)."""
    def link(m: re.Match) -> str:
        try:
            r = reference.rule(m.group(0))
        except KeyError:
            return m.group(0)
        page = "" if r.family == family else f"{r.family}.md"
        return f"[{r.id}]({page}#{r.id.lower()})"

    out, last = [], 0
    for m in _PROTECTED.finditer(text):
        out.append(reference.RULE_ID.sub(link, text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(reference.RULE_ID.sub(link, text[last:]))
    return "".join(out)


def _tests_line(tests: list[str]) -> str:
    if not tests:
        return "*No test cites this rule yet.*"
    shown = ", ".join(f"`{t}`" for t in tests[:SHOWN])
    more = f" and {len(tests) - SHOWN} more" if len(tests) > SHOWN else ""
    return f"Tests ({len(tests)}): {shown}{more}."


def family_page(fam: reference.Family, cites: dict[str, list[str]]) -> str:
    lines = [f"# {fam.title}", "",
             f"<!-- Generated by docs/tools/build_rules.py from catan_nb/reference/{fam.slug}.toml: "
             "edit that file, then run the script. -->", "",
             _link_ids(fam.intro, fam.slug), ""]
    for prefix, title in fam.sections:
        entries = [r for r in fam.rules if r.id.rsplit("-", 1)[0] == prefix]
        if not entries:
            continue
        lines += [f"## {title}", ""]
        for r in entries:
            lines += [f"### {r.id}", "", _link_ids(r.text, fam.slug), ""]
            if r.rules:
                lines += ["Settles " + ", ".join(_link_ids(x, fam.slug) for x in r.rules) + ".", ""]
            if r.decision:
                lines += [f"**In catan_nb:** {_link_ids(r.decision, fam.slug)}", ""]
            lines += [_tests_line(cites[r.id]), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def index_page(cites: dict[str, list[str]]) -> str:
    fams = reference.families()
    rows = []
    for fam in fams:
        n = len(fam.rules)
        decided = sum(1 for r in fam.rules if r.decision)
        tested = sum(1 for r in fam.rules if cites[r.id])
        rows.append(f"| [{fam.title}]({fam.slug}.md) | {n} | {decided} | {tested} |")
    total = len(reference.rules())
    return "\n".join([
        "# Rules reference", "",
        "<!-- Generated by docs/tools/build_rules.py from catan_nb/reference/*.toml: edit those files, "
        "then run the script. -->", "",
        "Every error, test and docstring of catan_nb names the rule it applies by an id, such as",
        "`B-BUILD-6` in *B-BUILD-6: intersection 0 is not touched by a road of seat 0*. These pages say",
        "what each id means, in the project's own words, what the engine decided where the published",
        "rules are silent or disagree, and which tests check it. Ids `A-01` to `A-42` are those",
        "decisions, each naming the rules it settles.", "",
        "The same statements ship with the package:", "",
        "```python",
        "from catan_nb.rules import describe",
        "",
        "describe(\"B-BUILD-6\")  # the statement; catan_nb.reference.rule(...) has the decision too",
        "```", "",
        "and an `IllegalActionError` carries its rule's statement as `.explanation`; the game table shows",
        "it when it refuses a move.", "",
        "| family | rules | with a decision | cited by a test |",
        "|---|---|---|---|",
        *rows,
        f"| all | {total} | {sum(1 for r in reference.rules() if r.decision)} | "
        f"{sum(1 for r in reference.rules() if cites[r.id])} |", "",
        "```{toctree}",
        ":maxdepth: 1", "",
        *[fam.slug for fam in fams],
        "```", "",
    ])


def pages(root: Path = TESTS) -> dict[Path, str]:
    """Every page's path and text."""
    cites = citing_tests(root)
    out = {PAGES / "index.md": index_page(cites)}
    for fam in reference.families():
        out[PAGES / f"{fam.slug}.md"] = family_page(fam, cites)
    return out


def build(check: bool = False) -> list[str]:
    """Write the pages that changed (or, with ``check``, only list them); returns the stale ones."""
    stale = []
    want = pages()
    for path, text in want.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(path.relative_to(ROOT).as_posix())
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    for path in sorted(PAGES.glob("*.md")):
        if path not in want:
            stale.append(f"{path.relative_to(ROOT).as_posix()} (no family of that name)")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is out of date; write nothing")
    args = parser.parse_args(argv)
    stale = build(check=args.check)
    if args.check and stale:
        print("out of date: " + ", ".join(stale) + "; run `python docs/tools/build_rules.py`", file=sys.stderr)
        return 1
    print("\n".join(f"wrote {s}" for s in stale) or "up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

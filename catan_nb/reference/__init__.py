"""The rules reference: every rule id that catan_nb cites, stated in the project's own words.

Errors, tests and docstrings name rules by id (``"B-BUILD-6: intersection 0 is not touched by a
road of seat 0"``).  This package says what each id means: one data file per rule family
(``base.toml``, ``five_six.toml``, ...), shipped with the package, each entry an id, a one- or
two-sentence statement and, where the sources leave the rule open, the engine's decision.  The
documentation site's pages ``docs/rules/`` are generated from the same files
(``docs/tools/build_rules.py``), with the tests that cite each id.

Ids ``A-01`` to ``A-42`` are decisions: points where the sources disagree or are silent, each
naming the rules it settles.

The package sits beside the layers (it imports nothing of catan_nb), so the engine, the Dice Game
and the widgets may all use it; :func:`catan_nb.rules.describe` is the same function.

Examples
--------
>>> describe("B-BUILD-6")
"A settlement needs an empty intersection that one of its builder's roads reaches."
>>> rule("B-ROB-6").decision[:22]
'Robbing is optional; `'
>>> rule("b_build_6").id, rule("B-BUILD-6").family
('B-BUILD-6', 'base')
>>> url("SF-7")
'docs/rules/seafarers.md#sf-7'
>>> url("SF-7", site="https://example.org/catan_nb/")
'https://example.org/catan_nb/rules/seafarers.html#sf-7'
>>> describe("B-BUILD-66")
Traceback (most recent call last):
...
catan_nb.reference.UnknownRuleError: no rule B-BUILD-66 in the rules reference; close matches: B-BUILD-6, B-BUILD-9, B-BUILD-8
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["FAMILIES", "SITE_URL", "Rule", "Family", "UnknownRuleError", "families", "rules", "rule", "describe",
           "url", "anchor", "normalise", "RULE_ID", "SECTION_ID"]

#: The rule families, in the order of the reference: each a data file ``<slug>.toml`` here and a
#: page ``docs/rules/<slug>.md``.
FAMILIES: tuple[str, ...] = ("base", "five_six", "friends", "helpers", "seafarers", "cities_knights", "scenarios",
                             "dice_game")

#: Where the documentation site is published, or ``None`` while it has no public address: links
#: then name the page's path in the repository (``docs/rules/<family>.md#<id>``).
SITE_URL: str | None = None

#: A rule id as the code and the tests write it: ``B-BUILD-6``, ``SF-7``, ``DGP-12``, ``A-27``.
RULE_ID = re.compile(r"(?<![A-Za-z0-9-])(?:B|X56|DG|DGP|F|H|SC|ERIE|SF|CK|A)(?:-[A-Z]+)*-\d+(?![0-9])")
#: A section of rules, written ``B-ROB-*`` or ``CK-KN-1..7``: the id without its number.
SECTION_ID = re.compile(r"(?<![A-Za-z0-9-])((?:B|X56|DG|DGP|F|H|SC|ERIE|SF|CK)(?:-[A-Z]+)*)-(?:\*|\d+\.\.\d+)")


class UnknownRuleError(KeyError, ValueError):
    """A rule id that the reference does not hold; the message names the closest ids.

    A :class:`KeyError` (a failed look-up) and a :class:`ValueError`, like every catan_nb error.
    """

    def __init__(self, rule_id: str, matches: list[str]):
        self.rule = rule_id
        self.matches = list(matches)
        super().__init__(rule_id)

    def __str__(self) -> str:
        close = f"; close matches: {', '.join(self.matches)}" if self.matches else ""
        return f"no rule {self.rule} in the rules reference{close}"


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the reference.

    Attributes
    ----------
    id : str
        The rule id, for example ``"B-BUILD-6"``.
    family : str
        The family's slug (:data:`FAMILIES`), which names its data file and page.
    section : str
        The section's title on the family's page.
    text : str
        What the rule says, in one or two sentences.
    decision : str or None
        What the engine does where the sources are silent, disagree or leave a gap.
    rules : tuple of str
        For a decision ``A-nn``: the rules it settles.
    """

    id: str
    family: str
    section: str
    text: str
    decision: str | None = None
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Family:
    """A family of rules: one data file, one page.

    Attributes
    ----------
    slug : str
    title : str
    intro : str
        A short paragraph that opens the page.
    sections : tuple of (str, str)
        Id prefix (``"B-ROB"``, ``"SF"``, ``"A"``) and title, in page order.
    rules : tuple of Rule
    """

    slug: str
    title: str
    intro: str
    sections: tuple[tuple[str, str], ...]
    rules: tuple[Rule, ...]


def _prefix(rule_id: str) -> str:
    return rule_id.rsplit("-", 1)[0]


def _load(slug: str) -> Family:
    name = f"{slug}.toml"
    data = tomllib.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
    sections = tuple((str(k), str(v)) for k, v in data["sections"].items())
    titles = dict(sections)
    entries = []
    for i, raw in enumerate(data["rule"]):
        rid = raw["id"]
        if _prefix(rid) not in titles:
            raise ValueError(f"{name}: rule[{i}] {rid}: its section {_prefix(rid)} is not in [sections]")
        entries.append(Rule(id=rid, family=slug, section=titles[_prefix(rid)], text=raw["text"].strip(),
                            decision=raw["decision"].strip() if raw.get("decision") else None,
                            rules=tuple(raw.get("rules", ()))))
    return Family(slug=data["slug"], title=data["title"], intro=" ".join(data.get("intro", "").split()),
                  sections=sections, rules=tuple(entries))


@cache
def families() -> tuple[Family, ...]:
    """Every family of the reference, read once from the shipped data files."""
    return tuple(_load(slug) for slug in FAMILIES)


@cache
def _index() -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for fam in families():
        for r in fam.rules:
            if r.id in out:
                raise ValueError(f"{fam.slug}.toml: {r.id} is also in {out[r.id].family}.toml")
            out[r.id] = r
    return out


def rules() -> tuple[Rule, ...]:
    """Every entry, family by family, in page order."""
    return tuple(_index().values())


def normalise(rule_id: str) -> str:
    """An id as the reference writes it: ``"b_build_6"`` and ``" B-BUILD-6 "`` give ``"B-BUILD-6"``."""
    return str(rule_id).strip().upper().replace("_", "-")


def rule(rule_id: str) -> Rule:
    """The entry of ``rule_id`` (case and ``_`` for ``-`` do not matter).

    Raises
    ------
    UnknownRuleError
        If the reference has no such id; the message names the closest ids.
    """
    index = _index()
    key = normalise(rule_id)
    if key in index:
        return index[key]
    raise UnknownRuleError(key, difflib.get_close_matches(key, list(index), n=3, cutoff=0.6))


def describe(rule_id: str) -> str:
    """What the rule ``rule_id`` says, in one or two sentences (the engine's decision is in :func:`rule`).

    Examples
    --------
    >>> describe("B-BUILD-7")
    'The distance rule: no settlement may stand next to another settlement or city, whoever owns it; every neighbouring intersection must be empty.'
    >>> describe("SF-9")[:48]
    'Once a turn a player may move one ship for free:'
    """
    return rule(rule_id).text


def anchor(rule_id: str) -> str:
    """The rule's anchor on its page: the id in lower case (``"b-build-6"``)."""
    return rule(rule_id).id.lower()


def url(rule_id: str, site: str | None = None) -> str:
    """Where the rule is explained: its page on the documentation site at ``site`` (default
    :data:`SITE_URL`), or, while the site has no public address, the page's path in the repository."""
    r = rule(rule_id)
    site = SITE_URL if site is None else site
    if site:
        return f"{site.rstrip('/')}/rules/{r.family}.html#{anchor(r.id)}"
    return f"docs/rules/{r.family}.md#{anchor(r.id)}"

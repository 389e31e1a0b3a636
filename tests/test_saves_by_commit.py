"""Saves that outlive a rule change (issue 38, part 2).

* The corpus ``tests/data/saves_by_commit``: games recorded by earlier commits of this repository,
  each with that commit's own engine and bots (``make_corpus.py``).  Every save loads in full and
  reaches the position its engine saw (``facts.json``), or stops at the action its folder's
  ``expected.json`` names, with an error that says which action no longer plays under which rule
  that changed (SF-7's strict reading, CK-SETUP-1's founding city); ``partial=True`` loads the game
  before it.
* An altered seed is named as such for every module, in today's saves (their set-up fingerprint)
  and in saves of the earlier formats (their recorded dice), never as a later refused action.
* A save of a newer format or rules version is refused, naming the version it needs; a version
  that does not match the save's content is named too.
"""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

import pytest

from catan_nb import Board, Game, SaveFileError, SaveReplayError
from catan_nb.analysis import RandomBot, WeightedBot, play_game
from catan_nb.board import BOARDS_DIR
from catan_nb.errors import IllegalActionError
from catan_nb.rules import RULES_VERSION, SAVE_VERSION, PartialLoadWarning, Rules
from catan_nb.rules.actions import action_from_json
from catan_nb.rules.modules import MODULES
from catan_nb.rules.rules_version import RULE_CHANGES, STATE_ADDED, changes_since

CORPUS = Path(__file__).resolve().parent / "data" / "saves_by_commit"
FOLDERS = sorted(p for p in CORPUS.iterdir() if p.is_dir())
SAVES = [p for folder in FOLDERS for p in sorted(folder.glob("*.json")) if p.stem not in ("facts", "expected")]


def _facts(path: Path) -> dict:
    return json.loads((path.parent / "facts.json").read_text())[path.stem]


def _expected(path: Path) -> dict | None:
    file = path.parent / "expected.json"
    return json.loads(file.read_text()).get(path.stem) if file.exists() else None


def _load_quietly(source, **kw) -> tuple[Game, list]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        game = Game.load(source, **kw) if isinstance(source, Path) else Game.from_json(source, **kw)
    return game, caught


# ---------------------------------------------------------------- the corpus
def test_the_corpus_spans_the_history_and_every_module():
    """A folder per commit, a few weeks of history, every module, a few hundred KB."""
    assert len(FOLDERS) >= 6 and all(len(f.name) == len("2026-11-21_9f0bdd7") for f in FOLDERS)
    dates = sorted({f.name[:10] for f in FOLDERS})
    assert dates[0] <= "2026-11-21" and dates[-1] >= "2026-11-28"
    played = set()
    versions = set()
    for path in SAVES:
        data = json.loads(path.read_text())
        played |= set(data["rules"].get("modules", ())) | ({"five_six"} if data["players"] > 4 else set())
        versions.add(data["version"])
        assert "rules_version" not in data  # recorded before rules versions: version 0
    optional = _shipped_optional()
    assert optional - played <= {"gold_fields"}, optional - played  # gold fields: no shipped board asks for it
    assert versions == {1, 2}
    assert sum(p.stat().st_size for f in FOLDERS for p in f.iterdir()) < 500_000
    # the case of the issue: a Seafarers save recorded before SF-7's strict reading (fee15ac)
    assert _expected(CORPUS / "2026-11-25_a73f9f3" / "seafarers_sf7.json")["rule"] == "SF-7"


@pytest.mark.parametrize("path", SAVES, ids=lambda p: f"{p.parent.name[11:]}/{p.stem}")
def test_every_save_of_the_corpus_loads_or_says_which_action_no_longer_plays(path):
    facts, expected = _facts(path), _expected(path)
    total = facts["actions"]
    if expected is None:
        game, caught = _load_quietly(path)
        assert not caught, [str(w.message) for w in caught]
        assert game.partial_load is None and len(game.log) == total
        # the position the recording engine saw (a second check beside the saved digest)
        assert game.turn == facts["turn"] and game.winner == facts["winner"]
        assert [game.vp(p) for p in range(game.n)] == facts["vp"]
        assert [list(h)[:len(facts["hands"][0])] for h in game.hands] == facts["hands"]
        assert sum(1 for o in game.node_owner if o >= 0) == facts["buildings"]
        assert sum(1 for o in game.edge_owner if o >= 0) == facts["paths"]
    else:
        k, rule = expected["replayed"], expected["rule"]
        with pytest.raises(SaveReplayError) as err:
            Game.load(path)
        e = err.value
        assert (e.field, e.replayed, e.total, e.rule) == (f"actions[{k}]", k, total, rule)
        change = next(c for c in RULE_CHANGES if rule in c.rules)
        message = str(e)
        assert str(path) in message and f"action {k} of {total}: {e.action['type']}(" in message
        assert f"no longer plays under {rule}, which changed after the game was recorded (rules version 0" in message
        assert change.summary in message and "partial=True" in message
        with pytest.warns(PartialLoadWarning, match=rf"loaded {k} of the {total} actions"):
            game = Game.load(path, partial=True)
        p = game.partial_load
        assert len(game.log) == k and (p.replayed, p.dropped, p.rule, p.field) == (k, total - k, rule, e.field)
        assert p.action == json.loads(path.read_text())["actions"][k]
        with pytest.raises(IllegalActionError) as again:  # the game is the one before the refused action
            game.play(action_from_json(p.action))
        assert again.value.rule == rule
    resaved = json.loads(game.to_json())  # saved again: today's format and rules, loads in full
    assert (resaved["version"], resaved["rules_version"]) == (SAVE_VERSION, RULES_VERSION)
    again, caught = _load_quietly(resaved)
    assert not caught and again.state() == game.state()


def test_older_saves_are_fingerprinted_without_the_state_keys_added_since():
    """The Friends, Seafarers and New York saves of before 2026-11-25 load only because their digest is
    computed without the keys those modules gained since (STATE_ADDED): with them, none matches."""
    path = CORPUS / "2026-11-25_a73f9f3" / "friends.json"
    data = json.loads(path.read_text())
    game = Game.load(path)
    assert "links" in game.ext["friends"] and data["digest"] != game.digest(version=data["version"])
    older = game.copy()
    del older.ext["friends"]["links"]  # the state as the engine of 2026-11-25 kept it
    assert older.digest(version=data["version"]) == data["digest"]
    assert {m for _, m, _ in STATE_ADDED} <= set(MODULES)


# ---------------------------------------------------------------- an altered seed, module by module
SETUPS = {
    "base": lambda: (Board.random(seed=31), 4, Rules()),
    "friends": lambda: (Board.random(seed=32), 4, Rules(modules=("friends",))),
    "helpers": lambda: (Board.random(seed=33), 4, Rules(modules=("helpers",))),
    "friends_helpers": lambda: (Board.random(seed=34), 4, Rules(modules=("friends", "helpers"))),
    "five_six": lambda: (Board.five_six(), 5, Rules()),
    "cities_knights": lambda: (Board.random(seed=35), 4, Rules(modules=("cities_knights",))),
    "seafarers": lambda: (Board.load(BOARDS_DIR / "seafarers_islands.json"), 4, None),
    "gold_fields": lambda: (Board.load(BOARDS_DIR / "seafarers_islands.json"), 3,
                            Rules(modules=("seafarers", "gold_fields"))),
    "fog_treasure": lambda: (Board.load(BOARDS_DIR / "seafarers_fog.json"), 4, None),
    "harbour_master": lambda: (Board.load(BOARDS_DIR / "seafarers_harbours.json"), 4, None),
    "great_catan": lambda: (Board.load(BOARDS_DIR / "seafarers_great_catan.json"), 4, None),
    "corsica": lambda: (Board.load(BOARDS_DIR / "corsica.json"), 4, None),
    "erie_canal": lambda: (Board.load(BOARDS_DIR / "new_york.json"), 4,
                           Rules(modules=("corsica_new_york", "erie_canal"))),
}


def _played(name: str, seed: int = 5) -> dict:
    board, players, rules = SETUPS[name]()
    game = Game(board, players=players, seed=seed, rules=rules)
    play_game(game, [WeightedBot(seed + p) if p % 2 else RandomBot(seed + p) for p in range(players)], max_turns=25)
    return game.to_dict()


def test_every_optional_module_has_an_altered_seed_case():
    held = {m for name in SETUPS for m in resolve_names(name)}
    assert _shipped_optional() <= held


def _shipped_optional() -> set[str]:
    """The optional modules the package ships (not the examples, nor modules other tests register)."""
    return {m for m in MODULES if not MODULES[m].builtin
            and type(MODULES[m]).__module__.startswith("catan_nb.rules.modules")}


def resolve_names(name: str) -> set[str]:
    board, players, rules = SETUPS[name]()
    return set(Game(board, players=players, seed=1, rules=rules).rules.modules) | (
        {"five_six"} if players > 4 else set())


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_an_altered_seed_is_named_in_a_save_of_every_module(name):
    """Issue 38: a Friends and Helpers save whose seed was altered failed at "actions[51]: F-USE-6: seat 2
    holds no cart token" (the tokens, the helpers, the fog and treasure stacks... are dealt from the seed,
    not recorded in the actions).  Today's saves hold a fingerprint of the set-up, checked first; saves of
    the earlier formats are caught by their dice, which the altered seed does not roll, or their digest."""
    data = _played(name)
    assert Game.from_json(copy.deepcopy(data)).state() == Game.from_json(data).state()
    legacy = {k: v for k, v in data.items() if k not in ("setup_digest", "rules_version")}
    legacy["version"] = 2
    Game.from_json(legacy)  # the same save as format 2 wrote it: loads
    for bump in (1, 2, 977):
        for save, why in ((data, "the set-up that seed"), (legacy, "")):
            bad = copy.deepcopy(save)
            bad["seed"] += bump
            with pytest.raises(SaveReplayError) as err:
                Game.from_json(bad, source="altered.json")
            e = err.value
            assert e.field == "digest" and "seed" in e.problem and f"seed {bad['seed']}" in e.problem, str(e)
            assert why in e.problem
            if save is legacy:
                assert e.problem.startswith("the seed or the actions do not match"), str(e)


def test_the_issue_case_friends_and_helpers_names_the_seed_not_a_token():
    """The save of the issue: Friends and Helpers, a format-2 save (no set-up fingerprint), its seed altered:
    the replay is refused at a Friends action, and the error says that the seed or the actions do not match."""
    data = _played("friends_helpers", seed=9)
    legacy = {k: v for k, v in data.items() if k not in ("setup_digest", "rules_version")}
    legacy["version"] = 2
    refused_at_an_action = 0
    for bump in range(1, 9):
        bad = copy.deepcopy(legacy)
        bad["seed"] += bump
        with pytest.raises(SaveReplayError) as err:
            Game.from_json(bad, source="friends_helpers.json")
        e = err.value
        assert e.field == "digest" and e.problem.startswith("the seed or the actions do not match"), str(e)
        assert "rolls recorded are not those seed" in e.problem or "no rule change listed since" in e.problem
        if e.rule is not None:  # refused mid-way: the action and its rule are named too
            refused_at_an_action += 1
            assert f"action {e.replayed} of {len(legacy['actions'])}: " in e.problem and e.rule in e.problem
            game, caught = _load_quietly(bad, partial=True)
            assert len(game.log) == e.replayed and game.partial_load.rule == e.rule and caught
    assert refused_at_an_action >= 1


# ---------------------------------------------------------------- versions
def _small_save() -> dict:
    game = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=("helpers",)))
    for _ in range(12):
        game.play(game.legal_actions()[-1])
    return game.to_dict()


def test_a_save_of_a_newer_format_or_rules_version_is_refused_naming_the_version_it_needs():
    data = _small_save()
    assert (data["version"], data["rules_version"]) == (SAVE_VERSION, RULES_VERSION)
    newer = SAVE_VERSION + 1
    for field, value, needs in (("version", newer, f"needs a catan_nb that reads save format {newer}"),
                                ("version", 99, "needs a catan_nb that reads save format 99"),
                                ("rules_version", RULES_VERSION + 1, f"of rules version {RULES_VERSION + 1} or later")):
        bad = {**data, field: value}
        with pytest.raises(SaveFileError) as err:
            Game.from_json(bad, source="new.json")
        assert err.value.field == field and needs in str(err.value) and "upgrade catan_nb" in str(err.value)
    for field, value in (("version", 0), ("version", "3"), ("version", True), ("rules_version", -1),
                         ("rules_version", 1.0), ("setup_digest", 7)):
        with pytest.raises(SaveFileError) as err:
            Game.from_json({**data, field: value}, source="bad.json")
        assert err.value.field == field


def test_a_version_that_does_not_match_the_save_is_named():
    """Fields a format brought may not appear in an older one's save and must appear in its own; a save
    whose digest is that of another format says so (saves of format 1 and 2 still load as they are)."""
    data = _small_save()
    down = {**data, "version": 2}
    with pytest.raises(SaveFileError, match="field rules_version: is not a field of a save of format 2"):
        Game.from_json(down)
    for key in ("rules_version", "setup_digest", "digest"):
        with pytest.raises(SaveFileError, match=rf"field {key}: missing"):
            Game.from_json({k: v for k, v in data.items() if k != key})
    v1 = next(p for p in sorted((CORPUS / "2026-11-24_8a6bd4f").glob("*.json")) if p.stem == "base")
    old = json.loads(v1.read_text())
    assert old["version"] == 1 and Game.from_json(old)
    with pytest.raises(SaveReplayError, match="field version: the save says format 2, but its fingerprint is that "
                                              "of format 1"):
        Game.from_json({**old, "version": 2})


def test_an_altered_log_under_the_same_rules_is_named_as_such():
    data = _small_save()
    bad = copy.deepcopy(data)
    bad["actions"].insert(3, {"type": "BuildCity", "node": 0})
    with pytest.raises(SaveReplayError) as err:
        Game.from_json(bad)
    e = err.value
    assert e.field == "actions[3]" and e.replayed == 3 and e.rule and str(e).count(e.rule) >= 1
    assert "(action 3 of 13: BuildCity(node=0)): the log was altered" in str(e)
    game, caught = _load_quietly(bad, partial=True)
    assert len(game.log) == 3 and game.partial_load.dropped == 10 and len(caught) == 1
    unknown = copy.deepcopy(data)
    unknown["actions"][5] = {"type": "FlyAway"}
    game, _ = _load_quietly(unknown, partial=True)
    assert len(game.log) == 5 and game.partial_load.rule is None and game.partial_load.field == "actions[5]"


def test_a_refusal_no_listed_rule_change_explains_is_an_altered_log_or_seed():
    """A save of rules version 0 refused under a rule that RULE_CHANGES does not list: once its dice show
    its seed right, its log was altered; before any roll, the seed or the actions do not match."""
    assert changes_since(0) == RULE_CHANGES and changes_since(RULES_VERSION) == ()
    data = _played("base")
    old = {k: v for k, v in data.items() if k not in ("setup_digest", "rules_version")}
    old["version"] = 2
    k = [i for i, a in enumerate(old["actions"]) if a["type"] == "RollDice"][4]
    late = copy.deepcopy(old)
    late["actions"].insert(k + 1, {"type": "RollDice", "dice": [3, 4]})  # a second roll: B-TURN-*
    with pytest.raises(SaveReplayError) as err:
        Game.from_json(late)
    e = err.value
    assert e.field == f"actions[{k + 1}]" and e.rule.startswith("B-") and ": the log was altered (the game was " \
        "recorded under rules version 0; this catan_nb plays version 1, and no rule change listed since explains " \
        "the refusal)" in str(e)
    early = copy.deepcopy(old)
    early["actions"].insert(2, {"type": "EndTurn"})
    with pytest.raises(SaveReplayError) as err:
        Game.from_json(early)
    e = err.value
    assert e.field == "digest" and e.replayed == 2 and "the seed or the actions do not match" in str(e)
    assert "no rule change listed since the game was recorded explains it (rules version 0" in str(e)

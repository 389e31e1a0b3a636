"""The state of a :class:`~catan_nb.rules.game.Game` and its codec: copies, determinisations,
the comparable state, saves and their fingerprint.

A part of the engine (see the map in :mod:`catan_nb.rules.game`): the methods here are mixed
into ``Game``.  A saved game is its set-up (board, seats, seed, rules) and its log of actions
with their chance outcomes; loading replays the log and checks two fingerprints
(:meth:`GameCodec.digest`): that of the set-up, before the first action (everything the seed
deals: the modules' shuffled stacks, the generator's state), and that of the final position.
So a save reaches the identical position or is refused, and an altered seed is named as such
whatever the module.

A save records its format version (:data:`SAVE_VERSION`; a newer one is refused, naming it)
and the rules version it was played under (:data:`~catan_nb.rules.rules_version.RULES_VERSION`).
A save of older rules replays under today's; where an action no longer plays, the
:class:`~catan_nb.errors.SaveReplayError` names it, its index and the rule, and
``partial=True`` loads the game before it (:class:`PartialLoad`).
"""

from __future__ import annotations

import copy as _copy
import importlib
import json
import re
import warnings
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any

from .._codec import short_repr
from .._files import MAX_ACTIONS, parse_json, read_json, write_atomic
from ..board import Board
from ..constants import Colour
from ..errors import BoardFileError, CatanError, IllegalActionError, SaveFileError, SaveReplayError
from .actions import RollDice, action_from_json, action_to_json
from .game_hooks import HOOK_ATTRS
from .game_options import Rules
from .modules import MODULES, copy_plain, resolve
from .rules_version import RULES_VERSION, STATE_ADDED, changes_since

if TYPE_CHECKING:
    from .game import Game

__all__ = ["GameCodec", "SAVE_FORMAT", "SAVE_VERSION", "PartialLoad", "PartialLoadWarning", "check_plain",
           "module_sources"]

SAVE_FORMAT = "catan_nb.game"
#: The save format this engine writes; it reads every one from 1 to this and refuses newer ones.
#: 3: ``rules_version`` and ``setup_digest``; 2: the built-in modules keep their state in ``ext``
#: (the digest covers it there); 1: the first.
SAVE_VERSION = 3
#: Rolls whose recorded dice are compared with those the seed gives (a save's seed, checked).
_ROLLS_CHECKED = 20

_PLAIN_VALUES = (str, int, float, bool, type(None))


def check_plain(value: Any, where: str) -> None:
    """Raise unless ``value`` is plain JSON data: dicts with string keys, lists, tuples, strings,
    numbers, booleans and ``None`` (what ``game.ext`` may hold: it is compared, copied and
    fingerprinted as JSON, where an int key would silently become a string).

    Raises
    ------
    CatanError
        Naming the path to the first value that is not plain data.

    Examples
    --------
    >>> check_plain({"looms": [1, 2], "owner": None}, "ext['x']")
    >>> check_plain({3: "a"}, "ext['x']")
    Traceback (most recent call last):
    ...
    catan_nb.errors.CatanError: ext['x']: key 3 is an int; ext holds JSON data, so dict keys are strings (str(3))
    """
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise CatanError(f"{where}: key {k!r} is {'an' if type(k).__name__[0] in 'aeiou' else 'a'} "
                                 f"{type(k).__name__}; ext holds JSON data, so dict keys are strings (str({k!r}))")
            check_plain(v, f"{where}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            check_plain(v, f"{where}[{i}]")
    elif not isinstance(value, _PLAIN_VALUES):
        raise CatanError(f"{where}: {short_repr(value)} is a {type(value).__name__}; ext holds plain data "
                         "(dicts with string keys, lists, strings, numbers, booleans, None)")


def _tally(items: Iterable[int], width: int) -> list[int]:
    """Counts per index of a list of small ints."""
    out = [0] * width
    for i in items:
        out[i] += 1
    return out


#: The rules of a game made without ``rules=`` (frozen: shared).
class _ForkedRandom:
    """The random generator of a game copied by :meth:`Game.copy`, until the game first draws.

    It holds the generator the copy was forked from, frozen (shared by the source and all its
    copies, never drawn from), and a weak reference to its game.  On first use it gives the game
    its own generator in the frozen state and steps aside, so a copy that never draws never
    copies the generator's state, and one that does gets exactly the draws it would have had.
    """

    __slots__ = ("game", "frozen", "mine")

    def __init__(self, game: "Game", frozen: Random):
        self.game = weakref.ref(game)
        self.frozen = frozen
        self.mine: Random | None = None

    def own(self) -> Random:
        """The game's own generator, made from the frozen state on first use (and put in its place)."""
        if self.mine is None:
            self.mine = _random_in_state(self.frozen.getstate())
            game = self.game()
            if game is not None and game.__dict__.get("_rng") is self:
                game.__dict__["_rng"] = self.mine
        return self.mine

    def __getattr__(self, name: str):
        if name.startswith("__") or name in _ForkedRandom.__slots__:  # copy and pickle probe; a slot not set yet
            raise AttributeError(name)
        return getattr(self.own(), name)


def _game_from_save(cls: type, data: dict) -> "Game":
    """Unpickle a game: replay its save (:meth:`GameCodec.__reduce__`)."""
    return cls.from_json(data, source="<pickle>")


def _random_in_state(state: tuple) -> Random:
    rng = Random.__new__(Random)  # unseeded (seeding reads os.urandom): its state is set next
    rng.setstate(state)
    return rng


# ---------------------------------------------------------------- reading a save, step by step
_SAVE_FIELDS = frozenset({"format", "version", "rules_version", "board", "players", "seed", "start",
                          "starting_seat", "colours", "rules", "module_sources", "actions", "setup_digest", "digest"})
#: Fields a save may have from a format version on, and must have from another (``null`` for a digest:
#: not checked): saves of format 1 may lack the digest (those recorded before it).
_FIELDS_SINCE = {"digest": (1, 2), "rules_version": (3, 3), "setup_digest": (3, 3)}
#: A dotted Python module name (``module_sources``).
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
#: The package whose modules a save may import by itself (``module_sources``); others are named.
_OWN_PACKAGE = "catan_nb"


def _read_head(text: str | bytes | dict, source: str) -> tuple[dict, int]:
    """The saved object and its format version; every field it must have is there, and no other."""
    data = text if isinstance(text, dict) else parse_json(text, source, SaveFileError)
    if not isinstance(data, dict):
        raise SaveFileError(source, "<root>", f"a saved game is a JSON object, not {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT:
        raise SaveFileError(source, "format", f"expected {SAVE_FORMAT!r}, found {short_repr(data.get('format'))}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SaveFileError(source, "version", f"expected a save format version (1 to {SAVE_VERSION}), "
                                               f"found {short_repr(version)}")
    if version > SAVE_VERSION:
        raise SaveFileError(source, "version", f"the save is of format version {version}, newer than this catan_nb "
                                               f"reads (1 to {SAVE_VERSION}): it needs a catan_nb that reads save "
                                               f"format {version}; upgrade catan_nb to load it")
    rules_version = data.get("rules_version", 0)
    if isinstance(rules_version, bool) or not isinstance(rules_version, int) or rules_version < 0:
        raise SaveFileError(source, "rules_version", f"expected a rules version (0 to {RULES_VERSION}), "
                                                     f"found {short_repr(rules_version)}")
    if rules_version > RULES_VERSION:
        raise SaveFileError(source, "rules_version", f"the game was played under rules version {rules_version}, "
                                                     f"newer than this catan_nb's {RULES_VERSION}: it needs a catan_nb "
                                                     f"of rules version {rules_version} or later; upgrade catan_nb")
    for key in ("setup_digest", "digest"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise SaveFileError(source, key, f"expected a fingerprint (a string), found {short_repr(data[key])}")
    for key in ("board", "players", "seed", "actions"):
        if key not in data:
            raise SaveFileError(source, key, "missing")
    for key, (since, needed) in _FIELDS_SINCE.items():
        if version >= needed and key not in data:
            raise SaveFileError(source, key, f"missing: every save of format {needed} or later has it (the field was "
                                             "removed, or the version altered)")
        if version < since and key in data:
            raise SaveFileError(source, key, f"is not a field of a save of format {version} (format {since} brought "
                                             "it): the version was altered")
    unknown = sorted(set(data) - _SAVE_FIELDS)
    if unknown:
        raise SaveFileError(source, unknown[0], "is not a field of a saved game")
    return data, version


def _whole(data: dict, key: str, lo: int, hi: int, source: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise SaveFileError(source, key, f"expected a whole number in {lo}..{hi}, not {short_repr(value)}")
    return value


def _read_setup(data: dict, source: str) -> tuple[int, int, str, int, list[Colour] | None]:
    """Players, seed, start, starting seat and colours of a save."""
    players = _whole(data, "players", 3, 6, source)
    seed = _whole(data, "seed", 0, 2**64 - 1, source)
    start = data.get("start", "founding")
    if start not in ("founding", "beginner"):
        raise SaveFileError(source, "start", f"expected 'founding' or 'beginner', not {short_repr(start)}")
    starting_seat = _whole(data, "starting_seat", 0, players - 1, source) if "starting_seat" in data else 0
    colours = None
    if "colours" in data:
        raw = data["colours"]
        if not isinstance(raw, list) or len(raw) != players:
            raise SaveFileError(source, "colours", f"expected a list of {players} colours, not {short_repr(raw)}")
        try:
            colours = [Colour.parse(c) if isinstance(c, str) else Colour.parse(repr(c)) for c in raw]
        except ValueError as exc:
            raise SaveFileError(source, "colours", str(exc)) from None
        if len(set(colours)) != players:
            raise SaveFileError(source, "colours", f"each seat needs its own colour, not {raw}")
    return players, seed, start, starting_seat, colours


def _read_board(data: dict, source: str) -> Board:
    try:
        return Board.from_dict(data["board"], source=f"{source}#board")
    except BoardFileError as exc:
        raise SaveFileError(source, f"board.{exc.field}", exc.problem) from None


def module_sources(modules: Iterable[str]) -> dict[str, str]:
    """The Python module that registers each rule module of ``modules`` (saved with a game, so
    that loading it can say, or do, what makes them available).

    Examples
    --------
    >>> module_sources(["friends"])
    {'friends': 'catan_nb.rules.modules.friends'}
    """
    return {m: type(MODULES[m]).__module__ for m in modules}


def _register_saved_modules(data: dict, source: str) -> None:
    """Make the rule modules a save names available: each one not registered in this process is
    imported from its ``module_sources`` entry when that is a module of catan_nb; otherwise the
    :class:`SaveFileError` says which Python module to import first (saves without the field,
    made before it existed, load as before when their modules are registered)."""
    sources = data.get("module_sources", {})
    if not isinstance(sources, dict) or not all(isinstance(k, str) and isinstance(v, str) and _DOTTED.fullmatch(v)
                                                for k, v in sources.items()):
        raise SaveFileError(source, "module_sources",
                            f"expected an object of rule module names to Python module names, not {short_repr(sources)}")
    rules_data = data.get("rules", {})
    wanted = rules_data.get("modules") if isinstance(rules_data, dict) else None
    if not isinstance(wanted, list):
        return  # _read_rules names the problem
    for name in wanted:
        if not isinstance(name, str) or name in MODULES:
            continue
        home = sources.get(name)
        parts = home.split(".") if home is not None else []
        # only public modules of catan_nb are imported (never catan_nb.__main__, which runs the CLI)
        if parts[:1] == [_OWN_PACKAGE] and not any(p.startswith("_") for p in parts):
            try:
                importlib.import_module(home)
            except ImportError as exc:
                raise SaveFileError(source, f"module_sources.{name}",
                                    f"the rule module {name!r} comes from {home}, which cannot be imported: {exc}"
                                    ) from None
            if name in MODULES:
                continue
            raise SaveFileError(source, f"module_sources.{name}",
                                f"importing {home} did not register the rule module {name!r}")
        if home is None:
            how = "import the Python module that defines it (its class carries @register) first"
        elif home == "__main__":
            how = ("it was defined in a notebook or script: run the code that defines it (its class carries "
                   "@register) first")
        else:
            how = f"import {home} first (it registers the module)"
        raise SaveFileError(source, "rules.modules", f"the rule module {name!r} is not registered in this process: {how}")


def _read_rules(data: dict, source: str) -> Rules:
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise SaveFileError(source, "rules", f"expected an object of rule options, not {short_repr(rules_data)}")
    _register_saved_modules(data, source)
    for key, value in rules_data.items():
        problem = Rules.problem(key, value)
        if problem:
            raise SaveFileError(source, f"rules.{key}", problem)
    try:
        return Rules.from_dict(rules_data)
    except (TypeError, ValueError) as exc:
        raise SaveFileError(source, "rules", str(exc)) from None


def _rules_as_played(board: Board, rules: Rules, players: int, source: str) -> bool:
    """Whether a save's rules lack a module its board names (a game saved before a scenario board
    brought its own rules, SF-13): it is then replayed as it was played, with a warning."""
    try:
        Rules.for_game(board, rules, players)
    except BoardFileError as exc:
        if Rules.problem("modules", board.scenario.get("modules")) is not None:
            raise SaveFileError(source, f"board.{exc.field}", exc.problem) from None
        held = resolve(rules.modules, players)
        lacking = [m for m in board.scenario["modules"] if m not in held]
        warnings.warn(f"{source}: the saved rules lack the module(s) {', '.join(map(repr, lacking))} that the "
                      "board's scenario names (a game saved before scenario boards brought their own rules): "
                      "replayed as it was played, without them", UserWarning, stacklevel=3)
        return True
    return False


# ---------------------------------------------------------------- replaying a save's log
class PartialLoadWarning(UserWarning):
    """A save loaded with ``partial=True`` whose log did not replay in full to its saved position."""


@dataclass(frozen=True)
class PartialLoad:
    """What a load with ``partial=True`` could not replay (``game.partial_load``).

    Attributes
    ----------
    source : str
        The file (or source) loaded.
    replayed : int
        The actions replayed: the game is the position after them.
    total : int
        The actions the save holds.
    field : str
        The field at fault, as a :class:`~catan_nb.errors.SaveFileError` would name it.
    problem : str
        What went wrong: the message the load would have raised without ``partial=True``.
    action : dict or None
        The first action not replayed, as saved (None when every action replayed but the
        position reached is not the one saved).
    rule : str or None
        The rule id that refused it, if any.

    Examples
    --------
    >>> p = PartialLoad("old.json", 113, 200, "actions[113]", "SF-7: ...", {"type": "BuildShip", "path": 25}, "SF-7")
    >>> p.dropped
    87
    """

    source: str
    replayed: int
    total: int
    field: str
    problem: str
    action: dict | None = None
    rule: str | None = None

    @property
    def dropped(self) -> int:
        """The actions of the save that were not replayed."""
        return self.total - self.replayed


def _describe(raw: Any) -> str:
    """A saved action as a short call: ``BuildShip(path=25)``."""
    if isinstance(raw, dict) and isinstance(raw.get("type"), str):
        args = ", ".join(f"{k}={short_repr(v)}" for k, v in raw.items() if k != "type")
        text = f"{raw['type']}({args})"
        return text if len(text) <= 120 else text[:117] + "..."
    return short_repr(raw)


class _Replay:
    """The replay of a save's log on a freshly set-up game, and what it tells about the save:
    whether its set-up and its recorded dice are those of its seed, where an action is refused."""

    def __init__(self, game: "Game", data: dict, source: str, version: int):
        self.game = game
        self.source = source
        self.version = version
        self.seed = game.seed
        self.rules_version = data.get("rules_version", 0)
        saved_setup = data.get("setup_digest")
        self.setup_ok: bool | None = None  # None: the save holds no fingerprint of its set-up
        if saved_setup is not None:
            self.setup_ok = saved_setup in game._digests(version, self.rules_version)
        game.__dict__["_setup_digest"] = game.digest()  # saved again with the game
        self.rolls = self.rolls_agreeing = 0
        self.total = 0

    # -------------------------------------------------------------- the seed
    def seed_verdict(self) -> bool | None:
        """True if the set-up or the dice recorded show the seed right, False if they show it
        wrong (or dice set by hand), None if the save cannot tell."""
        if self.setup_ok is not None and self.rules_version == RULES_VERSION:
            return self.setup_ok
        if self.rolls >= 2 and self.rolls_agreeing == self.rolls:
            return True
        if self.rolls_agreeing * 2 < self.rolls:  # another seed agrees with 1 roll in 36 (two dice)
            return False
        return self.setup_ok if self.setup_ok else None

    def seed_evidence(self) -> str:
        if self.setup_ok is False:
            return f"the set-up that seed {self.seed} deals is not the one saved (its fingerprint, setup_digest)"
        return (f"the dice of the first {self.rolls} rolls recorded are not those seed {self.seed} rolls "
                f"({self.rolls_agreeing} agree; unless they were set by hand)")

    def _predict(self, action: Any) -> tuple | None:
        """The dice the seed rolls next, for a recorded roll (compared once it has played)."""
        if type(action) is not RollDice or action.dice is None or self.rolls >= _ROLLS_CHECKED:
            return None
        g = self.game
        rng = _random_in_state(g._rng.getstate())
        return tuple(int(rng.random() * 6) + 1 for _ in range(g._n_dice))

    # -------------------------------------------------------------- the log
    def run(self, actions: Any) -> SaveReplayError | None:
        """Play the saved actions; the first one that does not play stops the replay (the game is
        left as it was before it) and is returned as the error to raise."""
        source = self.source
        if not isinstance(actions, list):
            raise SaveFileError(source, "actions", f"must be a list of actions, not {type(actions).__name__}")
        if len(actions) > MAX_ACTIONS:
            raise SaveFileError(source, "actions",
                                f"{len(actions)} actions is more than the {MAX_ACTIONS} a save may hold")
        self.total = len(actions)
        game = self.game
        for i, raw in enumerate(actions):
            try:
                action = action_from_json(raw)
            except (ValueError, TypeError, KeyError) as exc:
                return self.refused(i, raw, str(exc), None)
            predicted = self._predict(action)
            try:
                game.play(action)
            except IllegalActionError as exc:
                return self.refused(i, raw, str(exc), exc.rule)
            if predicted is not None:
                self.rolls += 1
                self.rolls_agreeing += predicted == tuple(action.dice)
        return None

    def refused(self, i: int, raw: Any, why: str, rule: str | None) -> SaveReplayError:
        """The error for action ``i``, which does not play (``why``), with the likeliest cause: a rule
        that changed since the game was recorded (:data:`RULE_CHANGES`), else an altered log when the
        seed is shown right, else a seed and a log that do not belong together."""
        n, r = self.total, self.rules_version
        action = raw if isinstance(raw, dict) else None
        where = f"action {i} of {n}: {_describe(raw)}"
        later = "; partial=True loads the game before it"
        seed = self.seed_verdict()
        versions = (f"rules version {r}; this catan_nb plays version {RULES_VERSION}" if r < RULES_VERSION else
                    f"the same rules, version {RULES_VERSION}")
        changed = [c for c in changes_since(r) if rule in c.rules]
        if changed and seed is not False:
            cause = (f"it no longer plays under {rule}, which changed after the game was recorded ({versions}): "
                     f"{changed[-1].summary}" + ("" if seed else "; unless the seed or the log was altered"))
        elif seed:
            cause = f"the log was altered (the game was recorded under {versions}" + (
                ", and no rule change listed since explains the refusal)" if r < RULES_VERSION else ")")
        else:
            evidence = f"; {self.seed_evidence()}" if seed is False else (
                f"; no rule change listed since the game was recorded explains it ({versions})")
            return SaveReplayError(
                self.source, "digest",
                f"the seed or the actions do not match: replaying them with seed {self.seed}, {where} is refused "
                f"({why}){evidence}{later}", replayed=i, total=n, action=action, rule=rule)
        return SaveReplayError(self.source, f"actions[{i}]", f"{why} ({where}): {cause}{later}",
                               replayed=i, total=n, action=action, rule=rule)

    def check_setup(self) -> SaveReplayError | None:
        """The error for a set-up that is not the saved one, under the same rules (else None)."""
        if self.setup_ok is False and self.rules_version == RULES_VERSION:
            return SaveReplayError(
                self.source, "digest",
                f"the set-up that seed {self.seed} deals is not the one saved (its fingerprint, setup_digest): the "
                "seed or the set-up was altered", replayed=0, total=self.total)
        return None

    def check_end(self, digest: Any) -> SaveReplayError | None:
        """The error for a replay that ends elsewhere than the saved position (else None)."""
        game, n, r = self.game, len(self.game.log), self.rules_version
        if digest is None or digest in game._digests(self.version, r):
            return None
        other = next((v for v in range(1, SAVE_VERSION + 1) if v != self.version and digest in game._digests(v, r)),
                     None)
        if other is not None:
            return SaveReplayError(self.source, "version", f"the save says format {self.version}, but its fingerprint "
                                   f"is that of format {other}: the version was altered", replayed=n, total=self.total)
        if self.seed_verdict() is False:
            problem = (f"the seed or the actions do not match: replaying the {n} actions with seed {self.seed} does "
                       f"not reach the saved position; {self.seed_evidence()}")
        elif r < RULES_VERSION:
            since = "; ".join(f"{', '.join(c.rules)}: {c.summary}" for c in changes_since(r))
            problem = (f"replaying the {n} actions with seed {self.seed} under rules version {RULES_VERSION} does "
                       f"not reach the position saved under rules version {r}: a rule change since may have changed "
                       f"what an action does ({since}), or the seed, the set-up or the log was altered; "
                       "partial=True loads the replayed game")
        else:
            problem = (f"replaying the {n} actions with seed {self.seed} does not reach the saved position: the "
                       "seed, the set-up or the log was altered")
        return SaveReplayError(self.source, "digest", problem, replayed=n, total=self.total)


class GameCodec:
    """The state-and-codec part of :class:`~catan_nb.rules.game.Game` (a mixin: use it through ``Game``)."""

    __slots__ = ()

    #: What a load with ``partial=True`` could not replay (:class:`PartialLoad`); None for a game
    #: made, or loaded in full.
    partial_load: PartialLoad | None = None

    def determinized(self, observer: int, seed: int) -> "Game":
        """A copy in which everything ``observer`` cannot see is drawn again at random.

        For search over information sets (a determinisation): the copy agrees with
        ``self.view(observer)`` (board, own cards, every count, the bank, played
        cards), while the opponents' cards are dealt again from their combined pool
        (which is public: the game's cards minus the bank and the observer's hand),
        their unplayed development cards and the deck are dealt again from the
        cards the observer has not seen (a public good, ``GoodRules(public=True)``, stays
        with its holder), the modules redraw their own hidden state,
        and the random generator is reseeded, so future dice and draws are unknown
        too.  The result depends only on what the observer may know and on ``seed``.

        Examples
        --------
        >>> from catan_nb import Board, Game, RollDice
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> d = g.determinized(0, seed=7)
        >>> d.hand(0) == g.hand(0), [sum(h) for h in d.hands] == [sum(h) for h in g.hands]
        (True, True)
        """
        g = self.copy()
        rng = Random(seed)
        others = [q for q in range(self.n) if q != observer]
        G = self.n_goods
        # The pools are built in a canonical order from public totals, so the deal depends on
        # nothing but what the observer may know and the seed.
        public = self.public_goods  # seen per seat by everyone: kept where they are
        hidden = [r for r in range(G) if r not in public] if public else range(G)
        pool = [r for r in hidden for _ in range(sum(g.hands[q][r] for q in others))]
        rng.shuffle(pool)
        for q in others:
            k = sum(g.hands[q][r] for r in hidden)
            dealt = _tally(pool[:k], G)
            for r in public:
                dealt[r] = g.hands[q][r]
            g.hands[q] = dealt
            del pool[:k]
        for m in g.modules:  # the development deck first (a built-in), then the others
            if m.overrides("determinize"):
                m.determinize(g, observer, rng)
        g._rng = Random(rng.getrandbits(64))
        return g

    _PLAIN = (
        "n", "seed", "start", "starting_seat", "robber", "active", "turn", "winner",
        "built_this_turn", "longest_road_holder", "rules", "colours",
    )

    _LISTS = (
        "bank", "node_owner", "node_kind", "edge_owner", "edge_kind", "blocked", "road_length", "board_vp",
        "occupied", "log", "dice_history", "hex_token",
    )

    _NESTED = ("hands", "road_nodes", "_harbour_rates")

    #: Attributes a copy shares with its source: immutable, or derived from immutable data only ...
    SHARED = frozenset({
        "board", "_t", "_acts", "_producers", "_yield_at", "modules", "rules", "colours", "goods", "kinds",
        "kind_id", "_good_index", "_node_kinds", "_path_kinds", "_blocks", "_building", "_cost", "_limit", "_vp",
        "_base_builds", "_edge_ok", "_joins", "_joined", "bank_per_good", "good_rules", "_stolen", "_discarded", "public_goods", "components",
    })

    #: ... and the wiring: dispatch tables and hook lists, shared by every game with the same modules.
    WIRED = frozenset({"_check_dispatch", "_apply_dispatch", "_h_legal", "_legal_by_phase", "_n_dice",
                       "_ext_copy", *HOOK_ATTRS})

    def copy(self) -> "Game":
        """An independent copy, e.g. for search or what-if analysis.

        The copy shares only immutable data with its source (the board, its
        topology, the rules, cached action values); everything a game or its
        modules can change is copied, so nothing done to one shows in the other.

        Examples
        --------
        >>> from catan_nb import Board, Game, RollDice
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> c = g.copy()
        >>> c.play(RollDice(dice=(3, 4)))
        >>> len(g.log), len(c.log)
        (0, 1)
        """
        cls = type(self)
        g = cls.__new__(cls)
        d = g.__dict__
        d.update(self.__dict__)  # scalars, tuples, the shared and the wired parts
        for k in self._FLAT:
            d[k] = d[k][:]
        for k in self._ROWS:
            d[k] = [x.copy() for x in d[k]]
        d["placed"] = [[x.copy() for x in row] for row in self.placed]
        d["reach"] = [[x.copy() for x in row] for row in self.reach]
        d["last_production"] = {k: v[:] for k, v in self.last_production.items()}
        copiers = self._ext_copy  # each module's copy_state (copy_plain unless it has its own)
        d["ext"] = {k: copiers.get(k, copy_plain)(v) for k, v in self.ext.items()}
        d["_cache"] = {}
        # Copy on draw: the copy and its source share the generator's state, frozen, until one of
        # them draws (most copies of a search never do), instead of copying its 625 words now.
        src = self._rng
        if type(src) is _ForkedRandom:
            frozen = src.frozen if src.mine is None else _random_in_state(src.mine.getstate())
        else:
            frozen = src
            self._rng = _ForkedRandom(self, frozen)
        d["_rng"] = _ForkedRandom(g, frozen)
        return g

    def __deepcopy__(self, memo: dict) -> "Game":
        """``copy.deepcopy(game)`` is :meth:`copy`: an independent copy that shares only immutable data."""
        return self.copy()

    def __copy__(self) -> "Game":
        """``copy.copy(game)`` is :meth:`copy` too: a game shares no mutable state with another."""
        return self.copy()

    def __reduce__(self):
        """A game pickles as its save (:meth:`to_dict`) and unpickles by replaying it (:meth:`from_json`),
        checked: the same position and the same generator state, so a pickled game plays on as the original.

        Examples
        --------
        >>> import pickle
        >>> from catan_nb import Board, Game
        >>> g = Game(Board.beginner(), seed=3, start="beginner")
        >>> pickle.loads(pickle.dumps(g)).digest() == g.digest()
        True
        """
        return _game_from_save, (type(self), self.to_dict())

    #: Lists of immutable values, copied flat by :meth:`copy`.
    _FLAT = (
        "bank", "node_owner", "node_kind", "edge_owner", "edge_kind", "blocked", "occupied",
        "board_vp", "road_length", "road_bound", "_trail_hint", "_witness", "log", "dice_history", "stack",
        "hex_terrain", "hex_token", "_harbour_rates", "_takers", "_hex_players",
    )

    #: Lists of lists or sets, copied one level down by :meth:`copy`.
    _ROWS = ("hands", "road_nodes", "harbours")

    def state(self) -> dict[str, Any]:
        """The complete game state as comparable plain data (two games are identical iff equal).

        Raises
        ------
        CatanError
            If a module keeps anything but plain JSON data in ``ext`` (an int key, a set...).
        """
        check_plain(self.ext, "ext")
        out: dict[str, Any] = {k: getattr(self, k) for k in self._PLAIN}
        for k in self._LISTS:
            out[k] = list(getattr(self, k))
        for k in self._NESTED:
            out[k] = [sorted(x) if isinstance(x, set) else list(x) for x in getattr(self, k)]
        out["harbours"] = [sorted(map(str, x)) for x in self.harbours]  # typed codes, named
        out["placed"] = [[sorted(s) for s in row] for row in self.placed]
        out["hex_terrain"] = [str(t) for t in self.hex_terrain]
        out["stack"] = [d.plain() for d in self.stack]
        out["road_length"] = self.road_lengths()
        out["ext"] = _copy.deepcopy(self.ext)
        out["vp_target"] = self.vp_target
        out["rng"] = self._rng.getstate()
        out["board"] = self.board.to_dict()
        return out

    def to_dict(self) -> dict[str, Any]:
        """The saved game: board, set-up parameters, rules and every action with its outcome, the
        format and rules versions, and the fingerprints of the set-up and of the position."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules_version": RULES_VERSION,
            "board": self.board.to_dict(),
            "players": self.n,
            "seed": self.seed,
            "start": self.start,
            "starting_seat": self.starting_seat,
            "colours": [str(c) for c in self.colours],
            "rules": self.rules.to_dict(),
            **({"module_sources": module_sources(self.rules.modules)} if self.rules.modules else {}),
            "actions": [action_to_json(a) for a in self.log],
            "setup_digest": self.setup_digest(),
            "digest": self.digest(),
        }

    def to_json(self, **kw) -> str:
        """The saved game as a JSON string (see :meth:`from_json`)."""
        return json.dumps(self.to_dict(), **kw)

    def save(self, path: str | Path) -> None:
        """Write the saved game to a file."""
        write_atomic(Path(path), self.to_json(indent=1) + "\n")

    @classmethod
    def from_json(cls, text: str | bytes | dict, *, source: str = "<json>", partial: bool = False) -> "Game":
        """Rebuild a game from :meth:`to_json` output by replaying its actions.

        The set-up is checked against the save's fingerprint of it first (an altered seed is
        named as such), then every action is played (checked), then the position reached is
        checked against the saved one.  A save of an older rules version
        (:data:`~catan_nb.rules.rules_version.RULES_VERSION`) replays under today's rules.

        Parameters
        ----------
        text : str, bytes or dict
            The saved game (JSON text, or the object :meth:`to_dict` gives).
        source : str
            Its name in error messages (:meth:`load` passes the file's path).
        partial : bool
            Load what replays instead of raising :class:`~catan_nb.errors.SaveReplayError`:
            the game before the first action that does not play (or after the last, when the
            replay ends elsewhere than saved), with ``game.partial_load`` (a
            :class:`PartialLoad`: actions replayed and dropped, the action, the rule) and a
            :class:`PartialLoadWarning`.  A file that cannot be read is refused all the same.

        Raises
        ------
        SaveFileError
            Naming the source, the field and the problem: a save of a newer format or rules
            version names the version it needs.
        SaveReplayError
            A :class:`SaveFileError` for a log that does not replay to the saved position: a
            refused action is named with its index, what it is and the rule that refuses it,
            and why (a rule that changed since the game was recorded, or an altered log); an
            altered seed is named as such (field ``digest``).

        Examples
        --------
        >>> from catan_nb import Board, Game, RollDice
        >>> g = Game(Board.beginner(), seed=3, start="beginner")
        >>> g.play(RollDice())
        >>> Game.from_json(g.to_json()).state() == g.state()
        True

        An action that does not play is named, with its index and the rule; ``partial=True``
        loads the game before it:

        >>> data = g.to_dict()
        >>> data["actions"] += [{"type": "EndTurn"}, {"type": "BuildCity", "node": 0}, {"type": "EndTurn"}]
        >>> Game.from_json(data)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        catan_nb.errors.SaveReplayError: <json>: field actions[2]: B-TURN-3: ...(action 2 of 4: BuildCity(node=0)): ...
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     h = Game.from_json(data, partial=True)
        >>> len(h.log), h.partial_load.dropped, h.partial_load.rule
        (2, 2, 'B-TURN-3')
        """
        data, version = _read_head(text, source)
        players, seed, start, starting_seat, colours = _read_setup(data, source)
        board = _read_board(data, source)
        rules = _read_rules(data, source)
        as_played = _rules_as_played(board, rules, players, source)
        try:
            game = cls.__new__(cls)
            game._set_up(board, players, seed, start, rules, starting_seat, colours, board_rules=not as_played)
        except BoardFileError as exc:
            raise SaveFileError(source, f"board.{exc.field}", exc.problem) from None
        except (TypeError, ValueError) as exc:
            field = "start" if "start" in str(exc) and start == "beginner" else "players"
            raise SaveFileError(source, field, str(exc)) from None
        replay = _Replay(game, data, source, version)
        replay.total = len(data["actions"]) if isinstance(data["actions"], list) else 0
        problem = replay.check_setup()
        if problem is None or partial:
            problem = replay.run(data["actions"]) or problem or replay.check_end(data.get("digest"))
        if problem is None:
            return game
        if not partial:
            raise problem
        game.partial_load = PartialLoad(source, len(game.log), replay.total, problem.field, problem.problem,
                                        problem.action, problem.rule)
        warnings.warn(PartialLoadWarning(f"{source}: loaded {len(game.log)} of the {replay.total} actions: "
                                         f"field {problem.field}: {problem.problem}"), stacklevel=2)
        return game

    def digest(self, *, version: int = SAVE_VERSION) -> str:
        """A short fingerprint of the position (saved with the game; a replay must reach it again).

        ``version``: that of the save format; a save of version 1 was fingerprinted with the
        development cards apart from ``ext``, where the built-in modules kept no state then.
        """
        return self._digest_of(self.ext, version)

    def _digest_of(self, ext: dict, version: int) -> str:
        import hashlib

        check_plain(ext, "ext")
        head = [self.hands, self.bank, self.node_owner, self.node_kind, self.edge_owner]
        tail = [[d.plain() for d in self.stack], self.turn, self._rng.getstate()[1][:8]]
        if version == 1:
            ext = {k: v for k, v in ext.items() if not (k in MODULES and MODULES[k].builtin)}
            parts = [*head, self.deck, self.dev, self.knights, ext, *tail]
        else:
            parts = [*head, ext, *tail]
        text = json.dumps(parts, default=str, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def _digests(self, version: int, rules_version: int) -> set[str]:
        """The fingerprints a save of format ``version`` and ``rules_version`` may hold for this
        position: the modules' state without the keys added since (``STATE_ADDED``); for a save of
        rules version 0, recorded at any earlier commit, without any set of the keys added before."""
        later = [(m, k) for v, m, k in STATE_ADDED if v > rules_version and isinstance(self.ext.get(m), dict)
                 and k in self.ext[m]]
        sure, unsure = ([], later) if rules_version == 0 else (later, [])
        out = set()
        for mask in range(2 ** len(unsure)):
            drop = sure + [x for b, x in enumerate(unsure) if mask >> b & 1]
            ext = self.ext
            if drop:
                ext = {m: ({k: v for k, v in st.items() if (m, k) not in drop} if isinstance(st, dict) else st)
                       for m, st in ext.items()}
            out.add(self._digest_of(ext, version))
        return out

    def setup_digest(self) -> str:
        """The fingerprint of this game's set-up: the position before the first action, with
        everything the seed dealt (saved with the game, so that loading names an altered seed
        before replaying a log that cannot belong to it).

        Examples
        --------
        >>> from catan_nb import Board, Game, RollDice
        >>> g = Game(Board.beginner(), seed=3, start="beginner")
        >>> before = g.setup_digest()
        >>> g.play(RollDice())
        >>> g.setup_digest() == before == Game(Board.beginner(), seed=3, start="beginner").digest()
        True
        >>> before == Game(Board.beginner(), seed=4, start="beginner").digest()
        False
        """
        known = self.__dict__.get("_setup_digest")
        if known is None:
            fresh = type(self).__new__(type(self))
            fresh._set_up(self.board, self.n, self.seed, self.start, self.rules, self.starting_seat, self.colours,
                          board_rules=False)
            known = self.__dict__["_setup_digest"] = fresh.digest()
        return known

    @classmethod
    def load(cls, path: str | Path, *, partial: bool = False) -> "Game":
        """Load a saved game file (see :meth:`from_json`, whose ``partial=True`` loads what replays)."""
        return cls.from_json(read_json(path, SaveFileError), source=str(path), partial=partial)

    def replay(self) -> "Game":
        """A fresh game with the same set-up, replayed from the log (for checking determinism)."""
        return type(self).from_json(self.to_dict(), source="<replay>")

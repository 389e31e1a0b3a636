"""One hierarchy of errors, all subclasses of :class:`ValueError`.

Every message names the rule id (explained in the rules reference, :mod:`catan_nb.reference`)
or the file and field at fault, and carries the evidence (STYLE.md, point 6).
"""

from __future__ import annotations

__all__ = ["CatanError", "IllegalActionError", "BoardFileError", "SaveFileError", "SaveReplayError",
           "BoardConstraintError", "InputError"]


class CatanError(ValueError):
    """Base class of every error raised by catan_nb."""


class IllegalActionError(CatanError):
    """An action that the rules forbid in this position.

    The game is left exactly as it was before the action.

    Attributes
    ----------
    rule : str
        The rule id, for example ``"B-BUILD-7"``.
    action : object
        The rejected action.
    explanation : str or None
        What the rule says, from the rules reference (:func:`catan_nb.rules.describe`), looked up
        when first read; ``None`` for an id the reference does not hold.

    Examples
    --------
    >>> err = IllegalActionError("B-BUILD-7", "intersection 12 is next to a settlement at 13")
    >>> str(err)
    'B-BUILD-7: intersection 12 is next to a settlement at 13'
    >>> err.rule
    'B-BUILD-7'
    >>> err.explanation[:44]
    'The distance rule: no settlement may stand n'
    """

    def __init__(self, rule: str, evidence: str, action: object = None):
        self.rule = rule
        self.evidence = evidence
        self.action = action
        super().__init__(f"{rule}: {evidence}")

    @property
    def explanation(self) -> str | None:
        """What the rule says (the rules reference's statement), or ``None`` for an id it does not hold."""
        from .reference import UnknownRuleError, describe  # the reference imports nothing of catan_nb

        try:
            return describe(self.rule)
        except UnknownRuleError:
            return None


class BoardFileError(CatanError):
    """A board file that cannot be loaded: names the file, the field and the problem."""

    def __init__(self, path: object, field: str, problem: str):
        self.path = str(path)
        self.field = field
        self.problem = problem
        super().__init__(f"{self.path}: field {field}: {problem}")


class SaveFileError(CatanError):
    """A saved game that cannot be loaded or replayed: names the file (or source) and field."""

    def __init__(self, path: object, field: str, problem: str):
        self.path = str(path)
        self.field = field
        self.problem = problem
        super().__init__(f"{self.path}: field {field}: {problem}")


class SaveReplayError(SaveFileError):
    """A saved game whose log does not replay to the position it saved: an action is refused
    (a rule changed since it was recorded, or the seed or the log was altered) or the replay
    ends elsewhere.  ``Game.load(path, partial=True)`` loads what replays instead.

    Attributes
    ----------
    replayed : int
        The actions that replayed before the problem (all of them when only the end differs).
    total : int
        The actions the save holds.
    action : dict or None
        The refused action as saved, or None.
    rule : str or None
        The rule id under which it is refused, or None.

    Examples
    --------
    >>> err = SaveReplayError("old.json", "actions[3]", "SF-7: ...", replayed=3, total=9,
    ...                       action={"type": "BuildShip", "edge": 25}, rule="SF-7")
    >>> err.field, err.replayed, err.rule
    ('actions[3]', 3, 'SF-7')
    """

    def __init__(self, path: object, field: str, problem: str, *, replayed: int, total: int,
                 action: dict | None = None, rule: str | None = None):
        super().__init__(path, field, problem)
        self.replayed = replayed
        self.total = total
        self.action = action
        self.rule = rule


class BoardConstraintError(CatanError):
    """No board met the constraints: names the constraint that failed most often.

    Attributes
    ----------
    constraint : str
        Name of the constraint that failed most often (or cannot hold at all).
    failures : dict of str to int
        Tries each constraint failed.
    tries : int
    """

    def __init__(self, constraint: str, failures: dict[str, int], tries: int, detail: str):
        self.constraint = constraint
        self.failures = dict(failures)
        self.tries = tries
        super().__init__(f"{constraint}: {detail}")


class InputError(CatanError):
    """What a student typed into a lesson's worksheet cannot be used (issue 39).

    The message is for the class, not a programmer: a plain sentence saying what to change, with no
    exception name (a widget shows ``str(error)``, as for every :class:`CatanError`), and the rule it
    follows in ordinary words rather than its id.

    Examples
    --------
    >>> str(InputError("31 and 31 are the same intersection: choose two different ones."))
    '31 and 31 are the same intersection: choose two different ones.'
    """

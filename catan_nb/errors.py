"""One hierarchy of errors, all subclasses of :class:`ValueError`.

Every message names the rule id (from ``shared/RULES.md``) or the file and
field at fault, and carries the evidence (STYLE.md, point 6).
"""

from __future__ import annotations

__all__ = ["CatanError", "IllegalActionError", "BoardFileError", "SaveFileError", "BoardConstraintError"]


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

    Examples
    --------
    >>> err = IllegalActionError("B-BUILD-7", "intersection 12 is next to a settlement at 13")
    >>> str(err)
    'B-BUILD-7: intersection 12 is next to a settlement at 13'
    >>> err.rule
    'B-BUILD-7'
    """

    def __init__(self, rule: str, evidence: str, action: object = None):
        self.rule = rule
        self.evidence = evidence
        self.action = action
        super().__init__(f"{rule}: {evidence}")


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

"""The rule options of a :class:`~catan_nb.rules.game.Game` (:class:`Rules`), chosen when it is
created and saved with it.

A part of the engine (see the map in :mod:`catan_nb.rules.game`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .._codec import short_repr
from ..constants import DISCARD_LIMIT
from .modules import optional

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules:
    """Rule options chosen when a game is created; saved with it.

    Parameters
    ----------
    modules : tuple of str
        Optional rule modules: ``"five_six"`` (implied by 5-6 players), ``"friends"``,
        ``"helpers"``, ``"gold_fields"`` (SF-1), ``"harbour_master"`` (SF-14)...  The base game's own modules are always there.
    vp_to_win : int, optional
        B-END-2; ``None`` takes the target of the modules (10 base, 11 with Friends: F-END-1).
    discard_limit : int
        B-ROB-2: more than this many cards means discarding half.
    knights_only_before_roll : bool
        A-01: only knights may be played before the roll (default: any card).
    steal_mandatory : bool
        A-04 / B-ROB-6: the robber must steal when it can.
    combined_trade_build : bool
        A-08 / B-TURN-2: trading after building in the same turn.
    shortage_single_taker : bool
        B-COMP-14's recalled exception: a sole claimant takes what the bank has left.
    metropolis_counts_double : bool
        A-42 / CK-BAR-1 (Cities & Knights): a city carrying a metropolis counts twice toward the
        barbarians' strength (default: once).
    """

    modules: tuple[str, ...] = ()
    vp_to_win: int | None = None
    discard_limit: int = DISCARD_LIMIT
    knights_only_before_roll: bool = False
    steal_mandatory: bool = False
    combined_trade_build: bool = False
    shortage_single_taker: bool = True
    metropolis_counts_double: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "modules", tuple(self.modules))
        names = optional()
        for m in self.modules:
            if m not in names:
                raise ValueError(f"unknown rule module {m!r}; expected one of {', '.join(sorted(names))}")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["modules"] = list(self.modules)
        return out

    @classmethod
    def for_board(cls, board, **options: Any) -> "Rules":
        """The rules a scenario board asks for: its ``scenario.modules`` (a Seafarers map brings
        ``seafarers``, the fog map ``fog`` and ``treasure``...), with ``options`` on top.

        A game on the board left without ``rules`` plays with exactly these (SF-13); give them
        to add options or further modules (see :meth:`for_game`).

        Raises
        ------
        BoardFileError
            When the board names a module that does not exist.

        Examples
        --------
        >>> from catan_nb import Board
        >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
        >>> Rules.for_board(Board.load(FOG_ISLANDS)).modules
        ('seafarers', 'fog', 'treasure')
        >>> Rules.for_board(Board.beginner(), steal_mandatory=True).modules
        ()
        """
        from ..errors import BoardFileError

        wanted = board.scenario.get("modules", [])
        problem = cls.problem("modules", wanted)
        if problem:
            raise BoardFileError(board.source, "scenario.modules", problem)
        extra = tuple(options.pop("modules", ()))
        return cls(modules=tuple(dict.fromkeys([*wanted, *extra])), **options)

    @classmethod
    def for_game(cls, board, rules: "Rules | None" = None, players: int = 0) -> "Rules":
        """The rules a game on ``board`` plays by: a scenario board's file says its own rules
        (SF-13, SC-13), so ``rules=None`` gives :meth:`for_board`, and ``rules`` given must hold
        every module the board names (extra modules and options are kept as they are).

        ``players`` lets a module the player count brings in (``five_six``, X56-GEN-1) count as held.

        Raises
        ------
        BoardFileError
            When the board names a module that does not exist, or one that ``rules`` lacks: the
            message names the board, the modules and the fix.

        Examples
        --------
        >>> from catan_nb import Board
        >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
        >>> fog = Board.load(FOG_ISLANDS)
        >>> Rules.for_game(fog).modules
        ('seafarers', 'fog', 'treasure')
        >>> Rules.for_game(fog, Rules(modules=("seafarers", "fog", "treasure", "friends"))).modules
        ('seafarers', 'fog', 'treasure', 'friends')
        >>> Rules.for_game(fog, Rules(vp_to_win=8))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        catan_nb.errors.BoardFileError: ...seafarers_fog.json: field scenario.modules: ...
        >>> Rules.for_game(Board.beginner(), Rules(vp_to_win=8)).vp_to_win
        8
        """
        if rules is None:
            return cls.for_board(board)
        wanted = board.scenario.get("modules", [])
        if not wanted:
            return rules
        from ..errors import BoardFileError
        from .modules import resolve

        problem = cls.problem("modules", wanted)
        if problem:
            raise BoardFileError(board.source, "scenario.modules", problem)
        held = resolve(rules.modules, players)
        missing = [m for m in wanted if m not in held]
        if missing:
            names = ", ".join(repr(m) for m in missing)
            raise BoardFileError(
                board.source, "scenario.modules",
                f"the board {board.name!r} is played with the module{'s' if len(missing) > 1 else ''} {names}, "
                f"which rules=Rules(modules={rules.modules!r}, ...) lacks (SF-13, SC-13): leave rules out, "
                "use Rules.for_board(board, ...) to add options or modules to the board's own, or add "
                f"{names} to Rules(modules=...)")
        return rules

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown rule option {sorted(unknown)[0]!r}")
        return cls(**data)

    @staticmethod
    def problem(key: str, value: Any) -> str | None:
        """What is wrong with a saved rule option ``key`` of value ``value`` (``None`` if nothing).

        Examples
        --------
        >>> Rules.problem("discard_limit", 7) is None
        True
        >>> Rules.problem("vp_to_win", 2)
        'expected null or a whole number in 3..30, not 2'
        """
        kinds = {f.name: f.type for f in fields(Rules)}
        if key not in kinds:
            return "is not a rule option"
        if key == "modules":
            if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
                return f"expected a list of module names, not {short_repr(value)}"
            unknown = [m for m in value if m not in optional()]
            if unknown:
                return f"unknown rule module {unknown[0]!r}; expected some of {', '.join(sorted(optional()))}"
            return None
        if key == "vp_to_win":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 3 <= value <= 30):
                return f"expected null or a whole number in 3..30, not {short_repr(value)}"
            return None
        if key == "discard_limit":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 200:
                return f"expected a whole number in 0..200, not {short_repr(value)}"
            return None
        if not isinstance(value, bool):
            return f"expected true or false, not {short_repr(value)}"
        return None

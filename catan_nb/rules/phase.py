"""Phases and the decision stack: what the game is waiting for, and from whom.

A :class:`Phase` is registered once, by the base game or by the rule module that
owns it, with the text a table shows while the game waits in it.  The game keeps
one stack of :class:`Decision` entries; the top one says which phase the game is
in and who must act (``game.phase``, ``game.current_player``).  Every out-of-turn
decision — a discard after a 7, an answer to a trade offer, a gift, a helper's
reaction, a gold pick, a lost city — is pushed on top of the turn and popped when
it is made, so play resumes exactly where it was, whatever pushed it.

Some phases are *steps*, not decisions: nobody acts in them.  When a step comes to
the top of the stack the game pops it and runs its function at once (resolving a
roll after the barbarians have attacked, ending the founding phase).

Examples
--------
>>> Phase.ROLL.prompt.format(player="Blue")
'Blue rolls the dice'
>>> Phase("main") is Phase.MAIN
True
>>> Decision(Phase.DISCARD if hasattr(Phase, "DISCARD") else Phase.MAIN, 2, 4).player
2
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

__all__ = ["Phase", "Decision"]


class _PhaseMeta(type):
    """Lets ``Phase`` be iterated and called like an enum: ``list(Phase)``, ``Phase("main")``."""

    def __iter__(cls) -> Iterator["Phase"]:
        return iter(list(cls._registry.values()))

    def __len__(cls) -> int:
        return len(cls._registry)

    def __call__(cls, value: "str | Phase") -> "Phase":
        if isinstance(value, Phase):
            return value
        try:
            return cls._registry[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} is not a registered phase") from None


class Phase(metaclass=_PhaseMeta):
    """A registered phase (use :meth:`register`; phases are compared by identity).

    Attributes
    ----------
    value : str
        Its name in saves and states, e.g. ``"main"``.
    prompt : str
        What a table shows while the game waits here; ``{player}`` stands for the
        player who must act.
    builds : bool
        Building and buying are allowed in this phase (B-BUILD-12; X56-SBP-2).
    free : tuple of str
        Piece kinds placed free in this phase, one per decision, counting down the
        decision's ``data`` (Road Building, B-DEV-5; SF-17).
    step : callable or None
        ``step(game, decision)`` for a phase in which nobody acts: run as soon as it
        is on top of the stack.
    owner : str
        ``"base"`` or the name of the rule module that registered it.
    """

    _registry: dict[str, "Phase"] = {}
    __slots__ = ("value", "prompt", "builds", "free", "step", "owner")

    def __init__(self, value, prompt, builds, free, step, owner):  # use Phase.register
        self.value = value
        self.prompt = prompt
        self.builds = builds
        self.free = free
        self.step = step
        self.owner = owner

    @classmethod
    def register(
        cls,
        value: str,
        prompt: str,
        *,
        builds: bool = False,
        free: tuple[str, ...] = (),
        step: Callable[[Any, "Decision"], None] | None = None,
        owner: str = "base",
    ) -> "Phase":
        """Register a phase (once per process) and make it an attribute, ``Phase.VALUE``.

        Registering the same value again from the same owner returns the existing
        phase (modules may be imported twice); another owner may not take it.
        """
        old = cls._registry.get(value)
        if old is not None:
            if old.owner != owner:
                raise ValueError(f"phase {value!r} is already registered by {old.owner!r}")
            return old
        phase = object.__new__(cls)
        phase.__init__(value, prompt, builds, tuple(free), step, owner)
        cls._registry[value] = phase
        setattr(cls, value.upper(), phase)
        return phase

    @classmethod
    def registered(cls) -> tuple["Phase", ...]:
        """Every registered phase, the base game's and those of the rule modules imported so far,
        in the order they were registered (see :attr:`owner` for who registered each).

        Examples
        --------
        >>> Phase.MAIN in Phase.registered()
        True
        """
        return tuple(cls._registry.values())

    @property
    def name(self) -> str:
        return self.value.upper()

    def __repr__(self) -> str:
        return f"<Phase.{self.name}: {self.value!r}>"

    def __reduce__(self):
        return (Phase, (self.value,))

    def __copy__(self) -> "Phase":
        return self

    def __deepcopy__(self, memo) -> "Phase":
        return self


class Decision(NamedTuple):
    """One entry of the decision stack: the game waits in ``phase`` for ``player``.

    ``data`` is immutable plain data the phase needs (cards still owed, free
    pieces left, a pending gift...).
    """

    phase: Phase
    player: int
    data: Any = None

    def plain(self) -> list:
        """As plain data, for states and comparisons."""
        return [self.phase.value, self.player, self.data]


# The base game's own phases; the rule modules register theirs (robber, trade, development, ...).
Phase.register("founding_settlement", "{player} places a founding settlement (B-SETUP-17)")
Phase.register("founding_road", "{player} places a road next to the settlement just founded (B-SETUP-17)")
Phase.register("roll", "{player} rolls the dice")
Phase.register("main", "{player} trades and builds, then ends the turn", builds=True)
Phase.register("game_over", "{player} has won")

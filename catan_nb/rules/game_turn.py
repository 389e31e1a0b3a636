"""The turn and the decision stack of :class:`~catan_nb.rules.game.Game`: who acts, and what on.

A part of the engine (see the map in :mod:`catan_nb.rules.game`): the methods here are mixed
into ``Game``.  The game waits on a stack of :class:`~catan_nb.rules.phase.Decision` (the top is
what it waits for now, and from whom: :attr:`current_player`); the seat whose turn it is is
:attr:`active_player`.  This part lists the legal actions, checks and applies them
(:meth:`play`, :meth:`apply`), runs the steps of the stack, the roll (B-PROD-1), the turn
(B-TURN-1..9) and the win (B-END-3), and offers rule modules the stack and the seeded chance
(:meth:`push`, :meth:`pop`, :meth:`draw_index`...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._codec import FieldError, normalize_action, short_repr
from ..constants import SPECIAL_CARD_VP
from ..errors import CatanError, IllegalActionError
from .actions import Action, EndTurn, RollDice
from .phase import Decision, Phase

__all__ = ["TurnFlow", "founding_done", "resolve_roll"]

_END_TURN = EndTurn()
_ROLL = RollDice()
#: Recorded rolls are values: the outcomes are shared, not built anew each turn.
_ROLLS: dict[tuple[int, ...], RollDice] = {}
#: The 36 outcomes of two dice, each with its recorded action, by ``[die - 1][die - 1]``.
_PAIRS = tuple(tuple(((a, b), RollDice((a, b))) for b in range(1, 7)) for a in range(1, 7))
_MAIN, _ROLL_PHASE = Phase.MAIN, Phase.ROLL
_new_decision = tuple.__new__  # Decision(phase, player, data) without NamedTuple's Python-level __new__
#: B-END-3: no win is checked in these phases (the founding, a finished game).
_NO_WIN = frozenset({Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD, Phase.GAME_OVER})


def founding_done(game, decision: Decision) -> None:
    """The step of phase ``founding_done`` (B-SETUP-20): after the founding the starting seat
    takes the first turn."""
    game.active = game.starting_seat
    for h in game._h_founding_done:
        h(game)
    game._begin_turn(game.starting_seat)


def _resolve(game, dice: tuple[int, ...]) -> None:
    """Resolve a roll: production or the robber (``resolve_roll`` hooks), then reactions (``on_roll``)."""
    total = dice[0] + dice[1]
    for h in game._h_resolve:
        h(game, total)
    for h in game._h_roll:
        h(game, total)


def resolve_roll(game, decision: Decision) -> None:
    """The step of phase ``resolve_roll``: resolve the roll once whatever came before production
    (CK-BAR-4) is settled."""
    _resolve(game, decision.data)


class TurnFlow:
    """The turn-and-decision-stack part of :class:`~catan_nb.rules.game.Game` (a mixin: use it through ``Game``)."""

    __slots__ = ()

    @property
    def phase(self) -> Phase:
        """What the game waits for: the phase of the decision on top of the stack."""
        return self.stack[-1].phase

    @property
    def current(self) -> int:
        """Deprecated alias of :attr:`current_player` (one name per concept: read
        ``current_player``; this short name stays for existing code and is not listed in the
        module guide)."""
        return self.stack[-1].player

    @property
    def current_player(self) -> int:
        """The seat that must act now (the active player, or a discarding/responding seat)."""
        return self.stack[-1].player

    @property
    def active_player(self) -> int:
        """The seat whose turn it is (stored as the attribute ``active``, which rule modules and
        outside code do not read: this is its one public name)."""
        return self.active

    @property
    def is_over(self) -> bool:
        """True once someone has won (B-END-3)."""
        return self.stack[-1].phase is Phase.GAME_OVER

    @property
    def in_founding(self) -> bool:
        """True until the founding phase ends (B-SETUP-15..20), the decisions it raises on the way
        included: a gold field's pick after a second founding settlement (SF-1) comes between two
        founding settlements, in a phase of its own.  False for a beginner set-up's game.

        Examples
        --------
        >>> from catan_nb import Board, Game
        >>> g = Game(Board.beginner(), seed=1)
        >>> g.in_founding, Game(Board.beginner(), seed=1, start="beginner").in_founding
        (True, False)
        """
        done = Phase.FOUNDING_DONE  # type: ignore[attr-defined]  # registered with the founding's step
        return any(d.phase is done for d in self.stack)

    def can_trade(self) -> bool:
        """Whether the active player may trade now (B-TRADE-1, B-TURN-2, B-TURN-3)."""
        return (
            self.phase is Phase.MAIN
            and self.current_player == self.active
            and (not self.built_this_turn or self.rules.combined_trade_build)
        )

    def discards_owed(self) -> dict[int, int]:
        """Cards each seat still has to discard after a 7."""
        discard = Phase.DISCARD  # type: ignore[attr-defined]  # registered by the robber module
        return {d.player: d.data for d in self.stack if d.phase is discard and d.data}

    def legal_actions(self, *, offers: bool = False) -> list[Action]:
        """Every legal action for :attr:`current_player`, in a deterministic order.

        Parameters
        ----------
        offers : bool
            Also list one-for-one domestic offers.  Domestic offers are
            combinatorial, so by default none are listed; any offer the rules allow
            can still be made with :meth:`play`.

        Notes
        -----
        A discard owed after a 7 is listed one card at a time; :meth:`play` also
        takes several cards at once.
        """
        top = self.stack[-1]
        ph = top.phase
        if ph is _MAIN:
            p = self.active
            out: list[Action] = [_END_TURN]
            if not self.built_this_turn or self.rules.combined_trade_build:  # B-TURN-2 (see can_trade)
                for h in self._h_trades:
                    h(self, p, out, offers)
            self.legal_builds(p, out)
        elif ph is _ROLL_PHASE:
            out = [_ROLL]
        elif ph is Phase.FOUNDING_SETTLEMENT:
            a = self._acts["settle" if self._founding_piece(top)[0] == "settlement" else "city"]
            out = [a[v] for v in self.candidates(top.player, "settlement", founding=True)]
        elif ph is Phase.FOUNDING_ROAD:
            a = self._acts["road"]
            out = [a[e] for e in self.candidates(top.player, "road", founding=True)]
        elif ph.free:
            out = []
            for kind in ph.free:
                self._legal_place(top.player, kind, out)  # the engine's own kinds; modules list theirs
        else:
            out = []
        hooks = self._legal_by_phase.get(ph)
        if hooks is None:  # the modules listing actions in this phase (their ``legal_in``), once per phase
            hooks = self._legal_by_phase[ph] = tuple(
                m.legal for m in self._h_legal if m.legal_in is None or ph.value in m.legal_in
            )
        for h in hooks:
            h(self, out)
        return out

    def _trades_open(self) -> bool:
        return not self.built_this_turn or self.rules.combined_trade_build  # B-TURN-2 (see can_trade)

    def play(self, action: Action) -> None:
        """Check ``action`` against the rules and apply it.

        Raises
        ------
        IllegalActionError
            Naming the rule id and the evidence; the game is unchanged.
        """
        check = self._check_dispatch.get(type(action))
        if check is None:
            raise IllegalActionError(
                "API", f"{short_repr(action)} is not an action of this game (rule modules: {list(self.rules.modules)})",
                action,
            )
        try:
            action = normalize_action(action)  # the checked boundary: canonical field types
        except FieldError as exc:
            raise IllegalActionError("API", str(exc), action) from None
        if self.stack[-1].phase is Phase.GAME_OVER:
            raise IllegalActionError("B-END-3", f"the game is over: seat {self.winner} won", action)
        check(self, action)
        t = type(action)
        self._apply_dispatch[t](self, action)
        self._after_action(t)

    def apply(self, action: Action) -> None:
        """Apply ``action`` without checking it (fast path; take it from :meth:`legal_actions`)."""
        t = type(action)
        self._apply_dispatch[t](self, action)
        stack = self.stack  # _after_action inlined: this is the hot path
        if not stack or stack[-1].phase.step is not None:
            self._settle()
        elif t in self._vp_neutral:
            return
        self._check_win()

    def _after_action(self, t: type) -> None:
        stack = self.stack
        if not stack or stack[-1].phase.step is not None:
            self._settle()
        elif t in self._vp_neutral:  # no VP can have changed, and the turn is the same
            return
        self._check_win()  # B-END-3, after every action that can change VP

    def _settle(self) -> None:
        """Run the steps on top of the stack; an empty stack begins the next turn (B-TURN-9)."""
        stack = self.stack
        while True:
            if not stack:
                self._begin_turn((self.active + 1) % self.n)
                return
            top = stack[-1]
            if top.phase.step is None:
                return
            stack.pop()
            top.phase.step(self, top)

    def push(self, phase: Phase, player: int, data: Any = None) -> None:
        """Push a decision: the game now waits in ``phase`` for ``player``."""
        self.stack.append(_new_decision(Decision, (phase, player, data)))

    def push_in_turn_order(self, phase: Phase, data_by_seat: Mapping[int, Any]) -> None:
        """Push a decision in ``phase`` for each seat of ``data_by_seat`` (with its data), so that
        they decide in turn order from the active player (discards B-ROB-4, gold SF-1, ...)."""
        n, p = self.n, self.active
        for q in sorted(data_by_seat, key=lambda q: (q - p) % n, reverse=True):  # the first on top
            self.push(phase, q, data_by_seat[q])

    def check_counts(self, action: Action, cards: Any, rule: str, what: str = "cards") -> int:
        """Raise unless ``cards`` is one non-negative whole count per good; return their sum."""
        n = self.n_goods
        if not isinstance(cards, tuple) or len(cards) != n or any(
                isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in cards):
            raise IllegalActionError(rule, f"{what} must be {n} non-negative counts, one per good, not {cards!r}", action)
        return sum(cards)

    def check_opponent(self, action: Action, seat: Any, rule: str) -> int:
        """Raise unless ``seat`` is another seat than the one to act; return it."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n or seat == self.current_player:
            raise IllegalActionError(rule, f"{seat!r} is not another seat (0..{self.n - 1}, not {self.current_player})", action)
        return seat

    def pop(self) -> Decision:
        """Pop the decision on top (it has been made); play resumes with the one below."""
        return self.stack.pop()

    def update(self, data: Any) -> None:
        """Replace the data of the decision on top (cards still owed, pieces left...)."""
        top = self.stack[-1]
        self.stack[-1] = Decision(top.phase, top.player, data)

    def random(self) -> float:
        """A draw from the game's seeded generator (record the outcome in the action)."""
        return self._rng.random()

    def notify_robber(self, action) -> None:
        """Tell the modules the robber has moved (their ``on_robber`` hook), its outcome filled in."""
        for h in self._h_robber:
            h(self, action)

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place with the game's seeded generator."""
        self._rng.shuffle(items)

    def drop(self, phase: Phase, player: int) -> None:
        """Remove ``player``'s pending decisions in ``phase`` from anywhere in the stack (a discard spared)."""
        self.stack[:] = [d for d in self.stack if not (d.phase is phase and d.player == player)]

    def draw_index(self, counts: Sequence[int], forced: int | None = None) -> int:
        """Draw one item uniformly from a multiset given as counts (one random draw, always).

        ``forced`` is the recorded outcome to use instead (replays, worked examples).

        Raises
        ------
        CatanError
            If there is nothing to draw from (every count 0) and no outcome is forced; the
            generator is left untouched.  A module action that draws must first check that its
            pool is not empty: bots apply actions unchecked to copies whose hidden state was dealt
            again (:meth:`determinized`), where a pool may differ from the real game's.
        """
        if forced is None:
            total = sum(counts)
            if total <= 0 or any(c < 0 for c in counts):
                raise CatanError(f"draw_index: nothing to draw from, the counts are {list(counts)!r} (an action "
                                 "with a random outcome was applied where its pool is empty: check it first)")
        u = self._rng.random()
        if forced is not None:
            return forced
        k = int(u * total)
        i = 0
        while k >= counts[i]:
            k -= counts[i]
            i += 1
        return i

    def require_phase(self, action: Action, *phases: Phase, rule: str = "B-TURN-2") -> None:
        """Raise unless the game is in one of ``phases``."""
        if self.stack[-1].phase not in phases:
            want = " or ".join(p.value for p in phases)
            raise IllegalActionError(
                rule, f"{type(action).__name__} needs phase {want}; the game is in phase {self.phase.value}", action
            )

    def _check_roll(self, a: RollDice) -> None:
        self.require_phase(a, Phase.ROLL, rule="B-TURN-2")
        if a.dice is not None:
            n = self._n_dice
            if len(a.dice) != n or not all(isinstance(d, int) and 1 <= d <= 6 for d in a.dice):
                dice = "two six-sided dice" if n == 2 else f"{n} six-sided dice"
                raise IllegalActionError("B-PROD-1", f"{dice} cannot show {a.dice!r}", a)

    def _do_roll(self, a: RollDice) -> None:
        rnd = self._rng.random
        if self._n_dice == 2 and a.dice is None:
            u, w = rnd(), rnd()
            dice, done = _PAIRS[int(u * 6)][int(w * 6)]
        else:
            draws = [rnd() for _ in range(self._n_dice)]  # always drawn, so that replays stay in step
            dice = tuple(int(u * 6) + 1 for u in draws) if a.dice is None else tuple(a.dice)
            done = _ROLLS.get(dice)
            if done is None:
                done = _ROLLS[dice] = RollDice(dice)
        self.log.append(done)
        self.roll(dice)

    def roll(self, dice: tuple[int, ...]) -> None:
        """Take ``dice`` as the active player's roll this turn and resolve it (B-PROD-1, CK-BAR-4).

        :class:`~catan_nb.rules.actions.RollDice` rolls and calls this; a module whose action sets
        the dice (the Alchemist, CK-PC-1) checks them, logs its action and calls it in the roll
        phase.  The main phase follows once whatever the roll brings is resolved.
        """
        self.dice_history.append(dice)
        p = self.active
        self.stack[-1] = self._main_of[p]
        if self._h_before:  # something happens first (CK-BAR-4): resolve the roll once it is settled
            self.stack.append(Decision(Phase.RESOLVE_ROLL, p, dice))
            for h in self._h_before:
                h(self, dice)
        else:
            _resolve(self, dice)

    def _check_end_turn(self, a: EndTurn) -> None:
        if self.phase is Phase.ROLL:
            raise IllegalActionError("B-TURN-2", f"seat {self.active} must roll before ending the turn", a)
        self.require_phase(a, Phase.MAIN, rule="B-TURN-9")

    def _do_end_turn(self, a: EndTurn) -> None:
        self.log.append(a)
        stack = self.stack
        stack.pop()
        for h in self._h_end_turn:
            h(self)
        if not stack:  # B-TURN-9: nothing pending, the next player's turn begins
            self._begin_turn((self.active + 1) % self.n)

    def _begin_turn(self, p: int) -> None:
        """Start ``p``'s turn (B-TURN-1): the roll comes first."""
        self.active = p
        self.turn += 1
        self.stack.append(self._roll_of[p])
        self.built_this_turn = False
        for h in self._h_turn_start:
            h(self)

    def next_turn(self) -> None:
        """End the turn's decisions and pass the turn to the left (B-TURN-9)."""
        self.stack.clear()
        self._begin_turn((self.active + 1) % self.n)

    def _check_win(self) -> None:
        """B-END-3: the active player wins at once on reaching the target in their own turn.

        Run after every applied action (:meth:`play`, :meth:`apply`), so the rule holds for
        every action kind, the modules' included; turn starts are actions too (EndTurn).
        """
        if self.stack[-1].phase in _NO_WIN:
            return
        p = self.active
        v = self.board_vp[p]
        if self.longest_road_holder == p:
            v += SPECIAL_CARD_VP
        for h in self._h_vp:
            v += h(self, p, False)
        if v >= self.vp_target:
            self.winner = p
            self.stack = [Decision(Phase.GAME_OVER, p)]

"""The Catan Dice Game engine, normal and Plus (RULES.md section 12).

A turn is up to three rolls of the resource dice (DG-ROLL-1..3), then builds
paid with the faces showing, knight swaps and gold trades (DG-BUILD, DG-KNIGHT,
DG-GOLD), then the end of the turn, which scores it (DG-SCORE) and passes the
dice on (DG-TURN-1).  The normal game lasts 15 turns per player (DG-END-1);
Plus is a race to 10 VP (DGP-2, DGP-11).

Two application paths, as in the board game: :meth:`DiceGame.play` checks the
action and raises :class:`~catan_nb.errors.IllegalActionError` (rule id and
evidence; the state is left exactly as it was); :meth:`DiceGame.apply` trusts
its caller (for simulations).  Every die roll comes from the game's own
``random.Random(seed)`` and is written into the recorded action, so a saved
game replays exactly.

Examples
--------
>>> game = DiceGame(players=1, seed=7)
>>> game.play(Roll(faces=(Face.BRICK, Face.LUMBER, Face.ORE, Face.ORE, Face.GOLD, Face.WOOL)))
>>> game.play(Roll(keep=(0, 1), faces=(Face.GRAIN, Face.GRAIN, Face.ORE, Face.ORE)))
>>> game.hand(), game.rolls_left
((1, 1, 0, 2, 2, 0), 1)
>>> game.play(Build("R1"))
Traceback (most recent call last):
...
catan_nb.errors.IllegalActionError: DG-BUILD-4: R1 needs R0 (its road) built first
>>> game.play(Build("R0"))
>>> game.play(Build("K1"))
Traceback (most recent call last):
...
catan_nb.errors.IllegalActionError: DG-BUILD-1: K1 (knight) costs wool+grain+ore; the unspent dice show grain, grain, ore, ore
>>> game.play(EndTurn())
>>> game.track[0], game.score(0)
([1], 1)
>>> DiceGame.from_json(game.to_json()).state() == game.state()
True
"""

from __future__ import annotations

import enum
import itertools
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

from .._codec import FieldError, normalize_action, short_repr
from .._files import parse_json, read_json, replay_actions, write_atomic
from ..constants import Resource
from ..errors import BoardFileError, IllegalActionError, SaveFileError
from .actions import (
    DICE_ACTION_TYPES,
    Build,
    DiceAction,
    EndTurn,
    Roll,
    Stop,
    Swap,
    TradeGold,
    action_from_json,
    action_to_json,
)
from .constants import (
    FACES,
    MAX_ROLLS,
    N_DICE,
    NO_BUILD_PENALTY,
    PLAYERS,
    PLUS_FIRST_DICE,
    PLUS_LARGEST_ARMY_MIN,
    PLUS_LONGEST_ROAD_MIN,
    PLUS_SPECIAL_VP,
    PLUS_VP_TO_WIN,
    TURNS,
    Face,
    Kind,
    Variant,
    cost_text,
    faces_text,
)
from .sheet import DiceSheet, KnightSwap

__all__ = ["DiceGame", "DicePhase", "SAVE_FORMAT", "SAVE_VERSION"]

SAVE_FORMAT = "catan_nb.dicegame"
SAVE_VERSION = 1
GOLD = Face.GOLD.value
_ACTION_CLASSES = frozenset(DICE_ACTION_TYPES.values())


class DicePhase(enum.Enum):
    """Where the turn stands."""

    ROLL = "roll"  # before the first roll, or between rolls (DG-ROLL-2)
    BUILD = "build"  # the faces are fixed (DG-ROLL-3): build, swap, trade gold, end the turn
    GAME_OVER = "game_over"

    def __repr__(self) -> str:
        return f"DicePhase.{self.name}"


def _popcount(x: int) -> int:
    return bin(x).count("1")


class DiceGame:
    """A game of the Catan Dice Game for 1-4 players (Plus: 2-4).

    Parameters
    ----------
    players : int
        DG-COMP-3: 1-4 for the normal game, 2-4 for Plus.
    variant : Variant or str
        ``"normal"`` or ``"plus"`` (DG-SETUP-1).
    seed : int, optional
        Seed of the game's dice; ``None`` draws one, which is stored and saved.
    sheet : DiceSheet, optional
        The sheet every player uses; the shipped one of the variant by default.
    starting_seat : int
        The starting player (DG-TURN-1).

    Attributes
    ----------
    current_player : int
    turn : int
        Turn of the game, counting every player's turns from 1 (DGP-8).
    phase : DicePhase
    rolls : int
        Rolls made this turn (0-3).
    dice : list of Face
        The faces showing (empty before the first roll).
    spent : list of bool
        Dice that paid for a build or went aside in a gold trade (DG-RES-1, DG-GOLD-2).
    built : list of int
        Per player, the bit mask of built structures (bit i is ``sheet.structures[i]``).
    swaps_used : list of int
        Per player, the bit mask of used swaps (bit i is ``sheet.swaps[i]``).
    track : list of list
        Normal game: per player, the score track (DG-SCORE-2); ``None`` is a cross (-2).
    log : list of DiceAction
        Every action played, with its outcome.

    Examples
    --------
    >>> g = DiceGame(players=2, variant="plus", seed=3)
    >>> g.n_dice            # DGP-8: the game's first turn uses 3 dice
    3
    """

    def __init__(
        self,
        players: int = 1,
        *,
        variant: Variant | str = Variant.NORMAL,
        seed: int | None = None,
        sheet: DiceSheet | None = None,
        starting_seat: int = 0,
    ):
        self.variant = Variant.parse(variant)
        lo, hi = PLAYERS[self.variant]
        if not isinstance(players, int) or not lo <= players <= hi:
            rule = "DG-COMP-3" if self.variant is Variant.NORMAL else "DGP-1"
            raise ValueError(f"{rule}: the {self.variant} game is for {lo}-{hi} players, not {players!r}")
        self.sheet = sheet if sheet is not None else DiceSheet.for_variant(self.variant)
        if self.sheet.variant is not self.variant:
            raise ValueError(f"DG-SETUP-1: a {self.variant} game needs the {self.variant} side of the sheet, not {self.sheet.name!r}")
        if not 0 <= starting_seat < players:
            raise ValueError(f"DG-TURN-1: starting seat {starting_seat} is not one of 0..{players - 1}")
        self.n = players
        self.seed = int(seed) if seed is not None else secrets.randbits(63)
        self.starting_seat = starting_seat
        self._rng = Random(self.seed)
        self.current = starting_seat
        self.turn = 1
        self.phase = DicePhase.ROLL
        self.rolls = 0
        self.dice: list[Face] = []
        self.spent: list[bool] = []
        self.turn_built = 0
        self.built = [self.sheet.start_mask] * players  # DG-BUILD-4: the start road is pre-built
        self.swaps_used = [0] * players
        self.track: list[list[int | None]] = [[] for _ in range(players)]
        self.longest_road_holder: int | None = None
        self.largest_army_holder: int | None = None
        self.winners: tuple[int, ...] = ()
        self.log: list[DiceAction] = []

    # ================================================================== queries
    @property
    def current_player(self) -> int:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.phase is DicePhase.GAME_OVER

    @property
    def n_dice(self) -> int:
        """Dice rolled this turn: 6, or in Plus ``min(6, turn + 2)`` (DGP-8)."""
        if self.variant is Variant.PLUS:
            return min(N_DICE, self.turn + PLUS_FIRST_DICE - 1)
        return N_DICE

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn (0 once the faces are fixed)."""
        return MAX_ROLLS - self.rolls if self.phase is DicePhase.ROLL else 0

    def turns_played(self, p: int) -> int:
        """Turns player ``p`` has finished."""
        return len(self.track[p])

    def hand(self) -> tuple[int, int, int, int, int, int]:
        """Counts of the unspent faces (lumber, brick, wool, grain, ore, gold)."""
        c = [0] * 6
        for f, s in zip(self.dice, self.spent):
            if not s:
                c[f.value] += 1
        return tuple(c)  # type: ignore[return-value]

    def unspent(self) -> list[int]:
        """Indices of the dice not yet spent this turn."""
        return [i for i, s in enumerate(self.spent) if not s]

    def is_built(self, p: int, structure: str) -> bool:
        return bool(self.built[p] >> self.sheet.index[structure] & 1)

    def built_ids(self, p: int) -> list[str]:
        """Ids of the structures player ``p`` has built (the start road included)."""
        return self.sheet.ids(self.built[p])

    def buildable(self, p: int | None = None) -> list[str]:
        """Structures whose needs are all built, not yet built (resources not considered)."""
        p = self.current if p is None else p
        b = self.built[p]
        return [
            s.id for i, s in enumerate(self.sheet.structures)
            if not b >> i & 1 and self.sheet.needs_mask[i] & ~b == 0
        ]

    def swap_ready(self, p: int, w: int) -> bool:
        """Is swap number ``w`` built and unused for player ``p``?"""
        m = self.sheet.swap_masks[w]
        return self.built[p] & m == m and not self.swaps_used[p] >> w & 1

    def available_swaps(self, p: int | None = None) -> list[KnightSwap]:
        """Swaps player ``p`` may still use: all their knights built, not used (DG-KNIGHT-1, DGP-10)."""
        p = self.current if p is None else p
        return [w for i, w in enumerate(self.sheet.swaps) if self.swap_ready(p, i)]

    def knights(self, p: int) -> int:
        """Knights built by ``p`` (DGP-5: used or not)."""
        return _popcount(self.built[p] & self.sheet.knight_mask)

    def road_length(self, p: int) -> int:
        """Player ``p``'s longest line of roads (DGP-7)."""
        return self.sheet.road_length(self.built[p])

    def vp(self, p: int) -> int:
        """Plus: settlements 1, cities 2 (DGP-3) and 2 per title held (DGP-4, DGP-6)."""
        pts = sum(v for i, v in enumerate(self.sheet.points) if self.built[p] >> i & 1)
        if self.variant is Variant.PLUS:
            pts += PLUS_SPECIAL_VP * ((self.longest_road_holder == p) + (self.largest_army_holder == p))
        return pts

    def score(self, p: int) -> int:
        """Normal: the sum of the track, each cross -2 (DG-SCORE-4).  Plus: VP."""
        if self.variant is Variant.PLUS:
            return self.vp(p)
        return sum(NO_BUILD_PENALTY if b is None else b for b in self.track[p])

    def turn_points(self) -> int:
        """Points of what the current player built this turn so far (DG-SCORE-2)."""
        return sum(v for i, v in enumerate(self.sheet.points) if self.turn_built >> i & 1)

    # ================================================================== legal actions
    def legal_actions(self) -> list[DiceAction]:
        """Every legal action of the current player, in a fixed order.

        Rolls (every choice of dice to keep), then stopping, builds, swaps, gold
        trades and the end of the turn.

        Examples
        --------
        >>> g = DiceGame(seed=1)
        >>> g.legal_actions()
        [Roll(keep=(), faces=None)]
        >>> g.play(Roll(faces=(Face.BRICK, Face.LUMBER, Face.GOLD, Face.GOLD, Face.ORE, Face.ORE)))
        >>> [a for a in g.legal_actions() if not isinstance(a, Roll)]
        [Stop(), Build(structure='R0'), TradeGold(resource=Resource.LUMBER), TradeGold(resource=Resource.BRICK), TradeGold(resource=Resource.WOOL), TradeGold(resource=Resource.GRAIN), TradeGold(resource=Resource.ORE), EndTurn()]
        """
        if self.phase is DicePhase.GAME_OVER:
            return []
        if self.rolls == 0:
            return [Roll()]
        out: list[DiceAction] = []
        if self.phase is DicePhase.ROLL:
            n = len(self.dice)
            for k in range(n):
                out.extend(Roll(keep=c) for c in itertools.combinations(range(n), k))
            out.append(Stop())
        p = self.current
        have = self.hand()
        b = self.built[p]
        sh = self.sheet
        for i, s in enumerate(sh.structures):
            if b >> i & 1 or sh.needs_mask[i] & ~b:
                continue
            if all(have[r] >= c for r, c in enumerate(sh.costs[i])):
                out.append(Build(s.id))
        free = self.unspent()
        for w, spec in enumerate(sh.swaps):
            if not self.swap_ready(p, w):
                continue
            targets = [spec.resource] if spec.resource is not None else list(Resource)
            for d in free:
                for r in targets:
                    if self.dice[d].value != r.value:
                        out.append(Swap(spec.id, d, r))
        if have[GOLD] >= 2:
            out.extend(TradeGold(r) for r in Resource)
        out.append(EndTurn())
        return out

    # ================================================================== checked path
    def check(self, action: DiceAction) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now (the state is not touched)."""
        if type(action) not in _ACTION_CLASSES:
            raise IllegalActionError("API", f"{short_repr(action)} is not a Dice Game action", action)
        end_rule = "DG-END-1" if self.variant is Variant.NORMAL else "DGP-11"

        def bad(rule: str, evidence: str) -> None:
            raise IllegalActionError(rule, evidence, action)

        if self.phase is DicePhase.GAME_OVER:
            bad(end_rule, "the game is over")
        if isinstance(action, Roll):
            self._check_roll(action, bad)
            return
        if self.rolls == 0:
            bad("DG-ROLL-1", f"roll the {self.n_dice} dice first")
        p = self.current
        sh = self.sheet
        if isinstance(action, Stop):
            if self.phase is not DicePhase.ROLL:
                bad("DG-ROLL-3", "the rolling is already over")
        elif isinstance(action, Build):
            sid = action.structure
            if sid not in sh.index:
                bad("DG-SHEET-1", f"there is no structure {sid!r} on the sheet")
            i = sh.index[sid]
            s = sh.structures[i]
            if s.kind is Kind.START:
                bad("DG-BUILD-4", "the start road is already built and costs nothing")
            if self.built[p] >> i & 1:
                bad("DG-BUILD-9", f"{sid} is already built")
            for need in s.needs:
                if not self.is_built(p, need):
                    rule = sh.graph.edges[sid, need]["rule"]
                    why = "its road" if sh[need].kind in (Kind.ROAD, Kind.START) else f"the {sh[need].kind} before it"
                    bad(rule, f"{sid} needs {need} ({why}) built first")
            have = self.hand()
            missing = [r for r, c in enumerate(s.cost) if have[r] < c]
            if missing:
                short = sum(max(0, c - have[r]) for r, c in enumerate(s.cost))
                shows = faces_text(self.dice[d] for d in self.unspent())
                if have[GOLD] >= short:
                    bad("DG-GOLD-1", f"{sid} costs {cost_text(s.cost)}; gold pays for nothing: trade 2 gold for 1 "
                                     f"resource first (DG-GOLD-2). The unspent dice show {shows}")
                bad("DG-BUILD-1", f"{sid} ({s.kind}) costs {cost_text(s.cost)}; the unspent dice show {shows}")
        elif isinstance(action, Swap):
            if action.swap not in sh.swap_index:
                bad("DG-SHEET-5", f"there is no swap {action.swap!r} on the sheet")
            w = sh.swap_index[action.swap]
            spec = sh.swaps[w]
            rule = "DGP-10" if len(spec.knights) > 1 else "DG-KNIGHT-1"
            unbuilt = [k for k in spec.knights if not self.is_built(p, k)]
            if unbuilt:
                bad(rule, f"swap {spec.id} needs {' and '.join(unbuilt)} built first")
            if self.swaps_used[p] >> w & 1:
                bad(rule, f"swap {spec.id} was already used (once per game)")
            d = action.die
            if not isinstance(d, int) or not 0 <= d < len(self.dice):
                bad("DG-KNIGHT-1", f"there is no die {d!r}; dice are 0..{len(self.dice) - 1}")
            if self.spent[d]:
                bad("DG-RES-1", f"die {d} was already spent this turn")
            if spec.resource is None:
                if action.resource is None:
                    bad("DG-KNIGHT-2", f"swap {spec.id} turns a die to any resource: name it")
                target = Resource.parse(action.resource)
            else:
                if action.resource is not None and Resource.parse(action.resource) is not spec.resource:
                    bad("DG-KNIGHT-1", f"swap {spec.id} turns a die to {spec.resource} only, not {action.resource}")
                target = spec.resource
            if self.dice[d].value == target.value:
                bad("DG-KNIGHT-1", f"die {d} already shows {target}")
        elif isinstance(action, TradeGold):
            Resource.parse(action.resource)
            gold = self.hand()[GOLD]
            if gold < 2:
                bad("DG-GOLD-2", f"a gold trade needs 2 unspent gold dice; there {'is' if gold == 1 else 'are'} {gold}")
        elif isinstance(action, EndTurn):
            pass
        else:  # pragma: no cover - every action type is handled above
            raise TypeError(f"unknown action {action!r}")

    def _check_roll(self, action: Roll, bad) -> None:
        if self.phase is not DicePhase.ROLL:
            bad("DG-ROLL-3", f"the faces are fixed after {'the 3rd roll' if self.rolls == MAX_ROLLS else 'stopping'}")
        if self.rolls >= MAX_ROLLS:  # pragma: no cover - the phase changes after the 3rd roll
            bad("DG-ROLL-2", "a turn has at most 3 rolls")
        keep = action.keep
        if self.rolls == 0 and keep:
            bad("DG-ROLL-1", f"the first roll of a turn uses all {self.n_dice} dice; nothing can be kept")
        n = self.n_dice if self.rolls == 0 else len(self.dice)
        if keep is None:
            bad("DG-ROLL-2", "die indices to keep are missing")
        if len(set(keep)) != len(keep) or not all(isinstance(i, int) and 0 <= i < n for i in keep):
            bad("DG-ROLL-2", f"keep {tuple(keep)} must name distinct dice among 0..{n - 1}")
        rolled = n - len(keep)
        if rolled == 0:
            bad("DG-ROLL-2", "keeping every die rolls nothing: stop instead")
        if action.faces is not None:
            if len(action.faces) != rolled:
                bad("DG-ROLL-2", f"{rolled} dice are rolled but {len(action.faces)} faces were given")
            if not all(isinstance(f, Face) for f in action.faces):
                bad("DG-COMP-1", f"faces must be die faces (lumber, brick, wool, grain, ore, gold): {action.faces!r}")

    def play(self, action: DiceAction) -> None:
        """Check and apply an action; an illegal one raises and changes nothing.

        Raises
        ------
        IllegalActionError
            With the rule id and the evidence.
        """
        if type(action) in _ACTION_CLASSES:
            try:
                action = normalize_action(action)  # the checked boundary: canonical field types
            except FieldError as exc:
                raise IllegalActionError("API", str(exc), action) from None
        self.check(action)
        self.apply(action)

    # ================================================================== fast path
    def apply(self, action: DiceAction) -> None:
        """Apply an action without checking it (for simulations that trust their caller)."""
        if isinstance(action, Roll):
            self._roll(action)
            return
        if self.phase is DicePhase.ROLL:  # DG-ROLL-3: anything but a roll ends the rolling
            self.phase = DicePhase.BUILD
        if isinstance(action, Build):
            self._build(action)
        elif isinstance(action, Swap):
            self._swap(action)
        elif isinstance(action, TradeGold):
            golds = [i for i, (f, s) in enumerate(zip(self.dice, self.spent)) if f is Face.GOLD and not s][:2]
            self.dice[golds[0]] = Face.of(action.resource)
            self.spent[golds[1]] = True
            self.log.append(action)
        elif isinstance(action, EndTurn):
            self.log.append(action)
            self._end_turn()
        else:  # Stop
            self.log.append(action)

    def _roll(self, action: Roll) -> None:
        if self.rolls == 0:
            n = self.n_dice
            rolled: list[int] = list(range(n))
            self.dice = [Face.GOLD] * n
            self.spent = [False] * n
        else:
            keep = set(action.keep)
            rolled = [i for i in range(len(self.dice)) if i not in keep]
        rnd = self._rng.randrange
        drawn = tuple(FACES[rnd(6)] for _ in rolled)  # drawn even when given, so replays keep the generator in step
        faces = drawn if action.faces is None else action.faces
        for i, f in zip(rolled, faces):
            self.dice[i] = f
        self.rolls += 1
        if self.rolls >= MAX_ROLLS:
            self.phase = DicePhase.BUILD
        self.log.append(Roll(tuple(sorted(action.keep)), tuple(faces)))

    def _build(self, action: Build) -> None:
        p = self.current
        sh = self.sheet
        i = sh.index[action.structure]
        cost = list(sh.costs[i])
        dice, spent = self.dice, self.spent
        for d in range(len(dice)):  # DG-RES-1: the lowest unspent dice showing each resource pay
            if not spent[d]:
                v = dice[d].value
                if v < 5 and cost[v]:
                    cost[v] -= 1
                    spent[d] = True
        self.built[p] |= 1 << i
        self.turn_built |= 1 << i
        self.log.append(action)
        if self.variant is Variant.PLUS:
            self._plus_titles(p)
            if self.vp(p) >= PLUS_VP_TO_WIN:  # DGP-11: the game ends at once
                self.winners = (p,)
                self.phase = DicePhase.GAME_OVER

    def _plus_titles(self, p: int) -> None:
        k = self.knights(p)
        la = self.largest_army_holder
        if (la is None and k >= PLUS_LARGEST_ARMY_MIN) or (la is not None and la != p and k > self.knights(la)):
            self.largest_army_holder = p
        length = self.road_length(p)
        lr = self.longest_road_holder
        if (lr is None and length >= PLUS_LONGEST_ROAD_MIN) or (lr is not None and lr != p and length > self.road_length(lr)):
            self.longest_road_holder = p

    def _swap(self, action: Swap) -> None:
        sh = self.sheet
        w = sh.swap_index[action.swap]
        spec = sh.swaps[w]
        target = spec.resource if spec.resource is not None else action.resource
        self.dice[action.die] = Face.of(target)
        self.swaps_used[self.current] |= 1 << w
        self.log.append(Swap(action.swap, action.die, target))

    def _end_turn(self) -> None:
        p = self.current
        if self.variant is Variant.NORMAL:
            self.track[p].append(self.turn_points() if self.turn_built else None)  # DG-SCORE-2, DG-SCORE-3
        else:
            self.track[p].append(self.turn_points())
        self.current = (p + 1) % self.n  # DG-TURN-1
        self.turn += 1
        self.phase = DicePhase.ROLL
        self.rolls = 0
        self.dice = []
        self.spent = []
        self.turn_built = 0
        if self.variant is Variant.NORMAL and all(len(t) >= TURNS for t in self.track):  # DG-END-1
            self.phase = DicePhase.GAME_OVER
            best = max(self.score(q) for q in range(self.n))
            self.winners = tuple(q for q in range(self.n) if self.score(q) == best)  # DG-END-2

    # ================================================================== copy / compare
    _LISTS = ("dice", "spent", "built", "swaps_used", "log")

    def copy(self) -> "DiceGame":
        """An independent copy (shares the immutable sheet)."""
        g = DiceGame.__new__(DiceGame)
        g.__dict__.update(self.__dict__)
        for k in self._LISTS:
            setattr(g, k, list(getattr(self, k)))
        g.track = [list(t) for t in self.track]
        g._rng = Random()
        g._rng.setstate(self._rng.getstate())
        return g

    def state(self) -> dict[str, Any]:
        """The complete state as comparable plain data (two games are identical iff equal)."""
        out = {
            k: getattr(self, k)
            for k in ("n", "seed", "starting_seat", "current", "turn", "rolls", "turn_built", "winners",
                      "longest_road_holder", "largest_army_holder")
        }
        out.update(
            variant=str(self.variant),
            phase=self.phase.value,
            dice=[str(f) for f in self.dice],
            spent=list(self.spent),
            built=[self.sheet.ids(b) for b in self.built],
            swaps_used=list(self.swaps_used),
            track=[list(t) for t in self.track],
            log=[action_to_json(a) for a in self.log],
            rng=self._rng.getstate(),
            sheet=self.sheet.to_dict(),
        )
        return out

    # ================================================================== save / load
    def to_dict(self) -> dict[str, Any]:
        """The saved game: sheet, set-up and every action with its outcome."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "variant": str(self.variant),
            "players": self.n,
            "seed": self.seed,
            "starting_seat": self.starting_seat,
            "sheet": self.sheet.to_dict(),
            "actions": [action_to_json(a) for a in self.log],
        }

    def to_json(self, **kw) -> str:
        """The saved game as JSON (see :meth:`from_json`)."""
        return json.dumps(self.to_dict(), **kw)

    def save(self, path: str | Path) -> None:
        """Write the saved game to a file (atomically)."""
        write_atomic(Path(path), self.to_json(indent=1) + "\n")

    @classmethod
    def from_json(cls, text: str | bytes | dict, *, source: str = "<json>") -> "DiceGame":
        """Rebuild a game from :meth:`to_json` output by replaying its actions.

        Raises
        ------
        SaveFileError
            Naming the source, the field and the problem (with the rule id if a
            recorded action is illegal).
        """
        data = text if isinstance(text, dict) else parse_json(text, source, SaveFileError)
        if not isinstance(data, dict):
            raise SaveFileError(source, "<root>", f"a saved game is a JSON object, not {type(data).__name__}")
        if data.get("format") != SAVE_FORMAT:
            raise SaveFileError(source, "format", f"expected {SAVE_FORMAT!r}, found {short_repr(data.get('format'))}")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(source, "version", f"expected {SAVE_VERSION}, found {short_repr(data.get('version'))}")
        for key in ("variant", "players", "seed", "sheet", "actions"):
            if key not in data:
                raise SaveFileError(source, key, "missing")
        if not isinstance(data["variant"], str):
            raise SaveFileError(source, "variant", f"expected 'normal' or 'plus', not {short_repr(data['variant'])}")
        try:
            variant = Variant.parse(data["variant"])
        except ValueError as exc:
            raise SaveFileError(source, "variant", str(exc)) from None
        for key, hi in (("players", 4), ("starting_seat", 3)):
            value = data.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
                raise SaveFileError(source, key, f"expected a whole number in 0..{hi}, not {short_repr(value)}")
        try:
            sheet = DiceSheet.from_dict(data["sheet"], source=f"{source}#sheet")
        except BoardFileError as exc:
            raise SaveFileError(source, f"sheet.{exc.field}", exc.problem) from None
        if not isinstance(data["seed"], int) or isinstance(data["seed"], bool) or not 0 <= data["seed"] < 2**64:
            raise SaveFileError(source, "seed", f"must be a whole number in 0..2**64-1, not {short_repr(data['seed'])}")
        try:
            game = cls(data["players"], variant=variant, seed=data["seed"], sheet=sheet,
                       starting_seat=data.get("starting_seat", 0))
        except (TypeError, ValueError) as exc:
            field = "starting_seat" if "starting seat" in str(exc) else ("sheet" if "sheet" in str(exc) else "players")
            raise SaveFileError(source, field, str(exc)) from None
        return replay_actions(game, data["actions"], source, action_from_json, SaveFileError)

    @classmethod
    def load(cls, path: str | Path) -> "DiceGame":
        """Load a saved game file."""
        return cls.from_json(read_json(path, SaveFileError), source=str(path))

    def replay(self) -> "DiceGame":
        """A fresh game with the same set-up, replayed from the log."""
        return DiceGame.from_json(self.to_dict(), source="<replay>")

    def iter_players(self) -> Iterator[int]:
        """Seats in turn order from the starting player (DG-TURN-1)."""
        return ((self.starting_seat + k) % self.n for k in range(self.n))

    # ================================================================== display
    def __repr__(self) -> str:
        scores = ", ".join(str(self.score(p)) for p in range(self.n))
        return (f"<DiceGame {self.variant}, {self.n} player(s), turn {self.turn}, seat {self.current} "
                f"{self.phase.value}; scores {scores}>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Show as the current player's sheet (the viz layer is imported only here)."""
        from ..viz.dice_sheet import sheet_mimebundle

        return sheet_mimebundle(self, include, exclude)

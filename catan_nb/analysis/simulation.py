"""Many complete bot games, in parallel, seeded and reproducible.

:func:`simulate` plays ``games`` bot games and returns a
:class:`SimulationResult`: one :class:`GameRecord` per game (winner, length,
victory points by source for every seat) and summary :class:`Table` objects
(seat win rates with confidence intervals, game lengths, VP sources) that a
notebook can print, plot or turn into a DataFrame.

Reproducible by construction: game ``i`` draws its board, game and bot seeds
from ``numpy.random.SeedSequence(seed, spawn_key=(i,))`` only, and results are
kept in game order, so the same call gives the same records on one core, on
every core of the machine (``workers=``) or on a Dask cluster (``client=``).

Examples
--------
>>> result = simulate(4, players=3, bots="weighted", seed=1, max_turns=40, workers=1, progress=False)
>>> len(result.records), result.records[0].index
(4, 0)
>>> result.win_rates().columns[:4]
('seat', 'bot', 'games', 'wins')
>>> simulate(4, players=3, bots="weighted", seed=1, max_turns=40, workers=1, progress=False) == result
True
"""

from __future__ import annotations

import math
import os
import pickle
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from ..board import Board
from ..constants import SPECIAL_CARD_VP, DevCard
from ..rules import Game, Rules
from .table import Table  # noqa: F401  (re-exported: it used to live here)
from .search_bot import SearchBot
from .value_bot import ValueBot
from .bots import RandomBot, WeightedBot, play_game
from .probability import ChiSquareResult, chi_square_counts, estimate_mean, estimate_proportion

__all__ = [
    "BOTS",
    "GameRecord",
    "SimulationResult",
    "Table",
    "game_seeds",
    "play_one",
    "simulate",
    "StoredWinners",
    "stored_seat_runs",
]

#: Bot kinds by name: ``simulate(bots="weighted")`` or ``bots=("weighted", "random", ...)``.
BOTS: Mapping[str, Callable[[int], Any]] = {
    "random": RandomBot,
    "weighted": WeightedBot,
    "value": ValueBot,
    "search": "search",  # replaced below by a picklable function
}



def _search_bot(seed: int) -> SearchBot:
    """The search bot of simulations: 50 iterations a decision (reproducible)."""
    return SearchBot(seed, iterations=50)


BOTS["search"] = _search_bot  # type: ignore[index]
#: The bots behind the names (catan_nb.fast plays these, and only while BOTS still maps to them).
_DEFAULT_BOTS = dict(BOTS)

#: Per-seat fields of a :class:`GameRecord`, in table order.
SEAT_FIELDS = (
    "vp",
    "settlements",
    "cities",
    "vp_settlements",
    "vp_cities",
    "vp_longest_road",
    "vp_largest_army",
    "vp_cards",
    "vp_other",
    "road_length",
    "knights",
)
#: VP sources, in table order (``vp_other``: points added by rule modules).
VP_SOURCES = ("vp_settlements", "vp_cities", "vp_longest_road", "vp_largest_army", "vp_cards", "vp_other")


# ============================================================================ tables


# ============================================================================ one game


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one simulated game.

    Per-seat fields are tuples indexed by seat.

    Attributes
    ----------
    index : int
        The game's number in the run (results are in this order).
    seed : int
        The game's own seed (``Game(board, seed=seed)``).
    board : str
        The board's name (``random-<seed>`` for a random board).
    bots : tuple of str
        Bot kind per seat.
    winner : int or None
        ``None`` if the game was stopped at ``max_turns``.
    turns : int
        Regular turns played (the founding phase excluded).
    actions : int
        Actions applied, founding included.
    vp : tuple of int
        Final victory points, hidden VP cards included (B-END-1).
    settlements, cities : tuple of int
        Pieces on the board.
    vp_settlements, vp_cities, vp_longest_road, vp_largest_army, vp_cards : tuple of int
        VP by source; with ``vp_other`` (points added by rule modules) they sum to ``vp``.
    vp_other : tuple of int
    road_length : tuple of int
        Longest road at the end (B-LR-1).
    knights : tuple of int
        Knights played.
    """

    index: int
    seed: int
    board: str
    bots: tuple[str, ...]
    winner: int | None
    turns: int
    actions: int
    vp: tuple[int, ...]
    settlements: tuple[int, ...]
    cities: tuple[int, ...]
    vp_settlements: tuple[int, ...]
    vp_cities: tuple[int, ...]
    vp_longest_road: tuple[int, ...]
    vp_largest_army: tuple[int, ...]
    vp_cards: tuple[int, ...]
    vp_other: tuple[int, ...]
    road_length: tuple[int, ...]
    knights: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.vp)

    @property
    def finished(self) -> bool:
        """Whether somebody won (``False``: stopped at ``max_turns``)."""
        return self.winner is not None

    def to_dict(self) -> dict[str, Any]:
        """One flat row: per-seat tuples become columns ``vp_0``, ``vp_1``, ..."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in SEAT_FIELDS:
                out.update({f"{f.name}_{p}": x for p, x in enumerate(v)})
            elif f.name == "bots":
                out.update({f"bot_{p}": x for p, x in enumerate(v)})
            else:
                out[f.name] = v
        out["finished"] = self.finished
        return out

    def seat_rows(self) -> list[dict[str, Any]]:
        """One row per seat: ``game, seat, bot, won`` and every per-seat field."""
        return [
            {
                "game": self.index,
                "seat": p,
                "bot": self.bots[p],
                "won": self.winner == p,
                "finished": self.finished,
                "turns": self.turns,
                **{name: getattr(self, name)[p] for name in SEAT_FIELDS},
            }
            for p in range(self.players)
        ]

    @classmethod
    def from_game(cls, game: Game, *, index: int = 0, bots: Sequence[str] = ()) -> "GameRecord":
        """The record of a played game (finished or not)."""
        n = game.n
        vp = tuple(game.vp(p) for p in range(n))
        lr = tuple(SPECIAL_CARD_VP if game.longest_road_holder == p else 0 for p in range(n))
        la = tuple(SPECIAL_CARD_VP if game.largest_army_holder == p else 0 for p in range(n))
        cards = tuple(game.dev_cards(p)[DevCard.VICTORY_POINT] for p in range(n))
        settlements = tuple(game.n_settlements)
        # B-END-1: a settlement is 1 VP, a city 2; whatever else the engine counts comes from the modules
        vp_cities = tuple(2 * c for c in game.n_cities)
        other = tuple(vp[p] - settlements[p] - vp_cities[p] - lr[p] - la[p] - cards[p] for p in range(n))
        return cls(
            index=index,
            seed=game.seed,
            board=game.board.name,
            bots=tuple(bots) or ("?",) * n,
            winner=game.winner,
            turns=game.turn if game.winner is not None else max(0, game.turn - 1),
            actions=len(game.log),
            vp=vp,
            settlements=settlements,
            cities=tuple(game.n_cities),
            vp_settlements=settlements,
            vp_cities=vp_cities,
            vp_longest_road=lr,
            vp_largest_army=la,
            vp_cards=cards,
            vp_other=other,
            road_length=tuple(game.road_lengths()),
            knights=tuple(game.knights_played(p) for p in range(n)),
        )


def game_seeds(seed: int, index: int, players: int) -> tuple[int, int, tuple[int, ...]]:
    """The seeds of game ``index`` of a run: ``(board seed, game seed, bot seeds)``.

    They depend on ``(seed, index)`` only (``numpy.random.SeedSequence(seed,
    spawn_key=(index,))``, the ``index``-th child of ``SeedSequence(seed)``), so a
    game is the same whichever worker plays it.

    Examples
    --------
    >>> game_seeds(1, 0, 4) == game_seeds(1, 0, 4)
    True
    >>> game_seeds(1, 0, 4)[1] != game_seeds(1, 1, 4)[1]
    True
    """
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2 + players, dtype=np.uint64)
    s = [int(w) >> 1 for w in words]  # 63-bit, non-negative
    return s[0], s[1], tuple(s[2:])


def _bot_name(kind: Any) -> str:
    if isinstance(kind, str):
        return kind
    return getattr(kind, "__name__", type(kind).__name__)


def _make_bot(kind: Any, seed: int):
    if isinstance(kind, str):
        try:
            return BOTS[kind](seed)
        except KeyError:
            raise ValueError(f"unknown bot {kind!r}; expected one of {', '.join(sorted(BOTS))}") from None
    return kind(seed)


@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs to play games by index (picklable)."""

    board: Any  # "random", a Board, or a callable(seed) -> Board
    players: int
    bots: tuple[Any, ...]
    seed: int
    max_turns: int | None
    rules: Rules | None
    start: str
    starting_seat: int
    layout: str
    fast: bool = False  # play through catan_nb.fast (see _use_fast)

    def board_for(self, board_seed: int) -> Board:
        if isinstance(self.board, Board):
            return self.board
        if self.board == "random":
            return Board.random(seed=board_seed, layout=self.layout)
        if self.board == "beginner":
            return Board.beginner()
        return self.board(board_seed)

    def play(self, index: int) -> GameRecord:
        fast = _fast_records(self, [index])
        if fast is not None:
            return fast[0]
        board_seed, game_seed, bot_seeds = game_seeds(self.seed, index, self.players)
        game = Game(
            self.board_for(board_seed),
            players=self.players,
            seed=game_seed,
            start=self.start,
            rules=self.rules,
            starting_seat=self.starting_seat,
        )
        bots = [_make_bot(k, s) for k, s in zip(self.bots, bot_seeds)]
        play_game(game, bots, max_turns=self.max_turns)
        return GameRecord.from_game(game, index=index, bots=tuple(_bot_name(k) for k in self.bots))


def _run_chunk(spec: _Spec, indices: Sequence[int]) -> list[GameRecord]:
    """Worker entry point: play the games ``indices`` (module level, so it pickles)."""
    fast = _fast_records(spec, indices)
    if fast is not None:
        return fast
    return [spec.play(i) for i in indices]


#: Bots the compiled simulator plays (catan_nb.fast's exact mode: the engine's games, draw for draw).
_FAST_BOTS = ("random", "weighted", "value")  # catan_nb.fast.EXACT_POLICIES (imported lazily: numba is optional)


def _use_fast(spec: _Spec, games: int) -> _Spec:
    """``spec``, set to play through the compiled simulator when it can play these games (numba
    installed, bots and rules it covers, a founding start) and the job is worth it
    (:func:`catan_nb.fast.wanted`: the kernel compiled already, or more engine time than a compile)."""
    if not spec.bots or any(not isinstance(k, str) or k not in _FAST_BOTS or BOTS.get(k) is not _DEFAULT_BOTS[k]
                            for k in spec.bots):
        return spec
    from .. import fast

    board = spec.board if isinstance(spec.board, Board) else None  # a scenario's own modules (SF-13)
    if spec.start != "founding" or fast.covered(spec.rules, spec.players, board=board) is not None:
        return spec
    if not fast.wanted(fast.engine_seconds(games, spec.bots, spec.players), "simulate_exact"):
        return spec
    return replace(spec, fast=True)


def _fast_records(spec: _Spec, indices: Sequence[int]) -> list[GameRecord] | None:
    """The records of games ``indices`` played by the compiled simulator (:func:`catan_nb.fast.play_exact`),
    or ``None`` when ``spec`` is not set to (see :func:`_use_fast`) or the kernel cannot take its
    boards: the engine plays them then.  Its games are the engine's, action for action, so the
    records are the same either way; ``CATAN_NB_FAST=0`` makes the engine play."""
    if not spec.fast:
        return None
    from .. import fast

    seeds = [game_seeds(spec.seed, i, spec.players) for i in indices]
    board: Any = spec.board
    if board == "random":
        prefix = "random" if spec.layout == "base" else f"random-{spec.layout}"
        names = [f"{prefix}-{s[0]}" for s in seeds]
    else:
        boards = [spec.board_for(s[0]) for s in seeds]
        for b in {id(b): b for b in boards}.values():
            b.check_playable(spec.players)
        names = [b.name for b in boards]
        board = boards[0] if all(b is boards[0] for b in boards) else boards
    try:
        batch = fast.play_exact(board, spec.players, game_seeds=[s[1] for s in seeds],
                                bot_seeds=[s[2] for s in seeds], board_seeds=[s[0] for s in seeds],
                                policies=spec.bots, rules=spec.rules, starting_seat=spec.starting_seat,
                                max_turns=spec.max_turns)
    except ValueError:  # boards of several shapes, intersections the kernel does not handle...
        return None
    n = spec.players
    bots = tuple(_bot_name(k) for k in spec.bots)
    out = []
    for j, i in enumerate(indices):
        winner = int(batch.winner[j])
        vp = tuple(int(x) for x in batch.vp[j])
        settlements = tuple(int(x) for x in batch.settlements[j])
        vp_cities = tuple(2 * int(x) for x in batch.cities[j])
        lr = tuple(SPECIAL_CARD_VP if batch.longest_road[j] == p else 0 for p in range(n))
        la = tuple(SPECIAL_CARD_VP if batch.largest_army[j] == p else 0 for p in range(n))
        cards = tuple(int(x) for x in batch.vp_cards[j])
        out.append(GameRecord(
            index=i, seed=seeds[j][1], board=names[j], bots=bots, winner=None if winner < 0 else winner,
            turns=int(batch.turns[j]) if winner >= 0 else max(0, int(batch.turns[j]) - 1),
            actions=int(batch.actions[j]), vp=vp, settlements=settlements,
            cities=tuple(int(x) for x in batch.cities[j]), vp_settlements=settlements, vp_cities=vp_cities,
            vp_longest_road=lr, vp_largest_army=la, vp_cards=cards,
            vp_other=tuple(vp[p] - settlements[p] - vp_cities[p] - lr[p] - la[p] - cards[p] for p in range(n)),
            road_length=tuple(int(x) for x in batch.road_length[j]), knights=tuple(int(x) for x in batch.knights[j]),
        ))
    return out


def play_one(
    index: int,
    *,
    players: int = 4,
    bots: str | Sequence[Any] = "random",
    board: Any = "random",
    seed: int = 0,
    max_turns: int | None = None,
    rules: Rules | None = None,
    start: str = "founding",
    starting_seat: int = 0,
) -> GameRecord:
    """Game ``index`` of a :func:`simulate` run with the same options, on its own.

    Examples
    --------
    >>> r = simulate(3, players=3, seed=5, max_turns=30, workers=1, progress=False)
    >>> play_one(2, players=3, seed=5, max_turns=30) == r.records[2]
    True
    """
    return _use_fast(_spec(players, bots, board, seed, max_turns, rules, start, starting_seat), 1).play(index)


def _spec(players, bots, board, seed, max_turns, rules, start, starting_seat) -> _Spec:
    kinds = (bots,) * players if isinstance(bots, str) or callable(bots) else tuple(bots)
    if len(kinds) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(kinds)}")
    for k in kinds:
        if isinstance(k, str) and k not in BOTS:
            raise ValueError(f"unknown bot {k!r}; expected one of {', '.join(sorted(BOTS))}")
    if isinstance(board, str) and board not in ("random", "beginner"):
        raise ValueError(f"board must be 'random', 'beginner', a Board or a callable(seed) -> Board, not {board!r}")
    if not (isinstance(board, (str, Board)) or callable(board)):
        raise TypeError(f"board must be 'random', 'beginner', a Board or a callable(seed) -> Board, not {type(board).__name__}")
    if seed is None or int(seed) < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    layout = "five_six" if players in (5, 6) else "base"
    return _Spec(board, players, kinds, int(seed), max_turns, rules, start, starting_seat, layout)


# ============================================================================ the run


@dataclass(frozen=True)
class SimulationResult:
    """Records of a :func:`simulate` run, with summary tables.

    Attributes
    ----------
    records : tuple of GameRecord
        One per game, in game order.
    players : int
    bots : tuple of str
        Bot kind per seat.
    seed : int
        The base seed: the same options and seed give the same records.
    max_turns : int or None
    board : str
        ``"random"``, ``"beginner"``, a board's name, or a factory's name.
    """

    records: tuple[GameRecord, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    max_turns: int | None
    board: str
    #: Wall-clock seconds the run took (not part of the result's identity: equal runs compare equal).
    seconds: float = field(default=0.0, compare=False)

    def __len__(self) -> int:
        return len(self.records)

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second (all workers together)."""
        return len(self.records) / self.seconds if self.seconds > 0 else float("nan")

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def unfinished(self) -> int:
        """Games stopped at ``max_turns`` without a winner."""
        return sum(1 for r in self.records if r.winner is None)

    # ---------------------------------------------------------------- raw rows
    def to_records(self, level: str = "game") -> list[dict[str, Any]]:
        """Flat rows: one per game (``level="game"``) or one per game and seat (``"seat"``).

        Examples
        --------
        >>> r = simulate(2, players=3, seed=1, max_turns=20, workers=1, progress=False)
        >>> sorted(r.to_records()[0])[:4]
        ['actions', 'board', 'bot_0', 'bot_1']
        >>> len(r.to_records("seat"))
        6
        """
        if level == "game":
            return [r.to_dict() for r in self.records]
        if level == "seat":
            return [row for r in self.records for row in r.seat_rows()]
        raise ValueError(f"level must be 'game' or 'seat', not {level!r}")

    def to_columns(self, level: str = "game") -> dict[str, list[Any]]:
        """The rows of :meth:`to_records` as one list per column."""
        rows = self.to_records(level)
        keys = list(rows[0]) if rows else []
        return {k: [row[k] for row in rows] for k in keys}

    def to_pandas(self, level: str = "game"):
        """A ``pandas.DataFrame`` of :meth:`to_records` (pandas is optional)."""
        import pandas as pd

        return pd.DataFrame(self.to_records(level))

    # ---------------------------------------------------------------- summaries
    def win_rates(self, confidence: float = 0.95) -> Table:
        """Wins per seat with the Wilson interval; unfinished games count as not won.

        Examples
        --------
        >>> r = simulate(3, players=3, seed=2, max_turns=400, workers=1, progress=False)
        >>> sum(r.win_rates().column("wins")) + r.unfinished
        3
        """
        n = len(self.records)
        rows = []
        for p in range(self.players):
            wins = sum(1 for r in self.records if r.winner == p)
            if n:
                e = estimate_proportion(wins, n, confidence=confidence)
                # the interval always holds the estimate (rounding can put 0 wins above a bound of 1e-17)
                rate, low, high = e.estimate, min(e.low, e.estimate), max(e.high, e.estimate)
            else:
                rate = low = high = math.nan
            rows.append((p, self.bots[p], n, wins, rate, low, high))
        cols = ("seat", "bot", "games", "wins", "win_rate", "low", "high")
        return Table(cols, rows, title=f"win rate by seat ({confidence:.0%} Wilson interval; {self.unfinished} unfinished)")

    def seat_test(self) -> ChiSquareResult:
        """One chi-square test of "every seat wins equally often", over the finished games.

        The question "does the seat matter?" asked once, instead of reading one
        interval per seat (each with its own 5% chance of a false alarm).

        Examples
        --------
        >>> r = simulate(8, players=3, seed=2, max_turns=400, workers=1, progress=False)
        >>> r.seat_test().n == r.games - r.unfinished
        True
        """
        wins = [sum(1 for r in self.records if r.winner == p) for p in range(self.players)]
        return chi_square_counts(wins, unit="finished games", min_expected=0)

    def game_lengths(self) -> Table:
        """Turns and actions per game: mean, interval of the mean, median, 10%/90% quantiles, min, max."""
        rows = []
        for name in ("turns", "actions"):
            x = np.array([getattr(r, name) for r in self.records], dtype=float)
            if x.size == 0:
                rows.append((name, 0, *(math.nan,) * 8))
                continue
            e = estimate_mean(x)
            q10, med, q90 = (float(v) for v in np.quantile(x, [0.1, 0.5, 0.9]))
            rows.append((name, int(x.size), e.estimate, e.low, e.high, med, q10, q90, float(x.min()), float(x.max())))
        cols = ("measure", "games", "mean", "low", "high", "median", "p10", "p90", "min", "max")
        return Table(cols, rows, title="game length (turns: regular turns; actions: founding included)")

    def vp_sources(self, *, winners_only: bool = False) -> Table:
        """Mean VP per seat by source; ``winners_only`` averages over the games each seat won."""
        rows = []
        for p in range(self.players):
            recs = [r for r in self.records if not winners_only or r.winner == p]
            k = len(recs)

            def mean(name: str) -> float:
                return sum(getattr(r, name)[p] for r in recs) / k if k else math.nan

            rows.append((p, self.bots[p], k, *(mean(s) for s in VP_SOURCES), mean("vp")))
        cols = ("seat", "bot", "games", "settlements", "cities", "longest_road", "largest_army", "vp_cards", "other", "total")
        title = "mean VP by source" + (" (games the seat won)" if winners_only else "")
        return Table(cols, rows, title=title)

    def summary(self) -> str:
        """The three summary tables as text (what ``catan-nb simulate`` prints)."""
        bots = self.bots[0] if len(set(self.bots)) == 1 else ", ".join(self.bots)
        head = (
            f"{self.games} games, {self.players} players, bots {bots}, board {self.board}, "
            f"seed {self.seed}, max_turns {self.max_turns}"
        )
        return "\n\n".join([head, str(self.win_rates()), str(self.game_lengths()), str(self.vp_sources())])

    def _repr_html_(self) -> str:
        return "".join(t._repr_html_() for t in (self.win_rates(), self.game_lengths(), self.vp_sources()))


def _chunks(n: int, size: int) -> list[list[int]]:
    return [list(range(i, min(n, i + size))) for i in range(0, n, size)]


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(
    games: int = 100,
    *,
    players: int = 4,
    bots: str | Sequence[Any] = "random",
    board: Any = "random",
    seed: int = 0,
    max_turns: int | None = None,
    rules: Rules | None = None,
    start: str = "founding",
    starting_seat: int = 0,
    workers: int | None = None,
    chunksize: int | None = None,
    progress: bool = True,
    client: Any = None,
) -> SimulationResult:
    """Play ``games`` complete bot games and collect their outcomes.

    Parameters
    ----------
    games : int
    players : int
        3 or 4 (5 or 6 play the extension on its board).
    bots : str, or sequence of str or bot factories
        One kind for every seat, or one per seat: a name from :data:`BOTS`
        (``"random"``, ``"weighted"``) or a callable ``seed -> bot`` (with
        ``workers > 1`` or a ``client`` it must pickle: a class or a module-level function).
    board : "random", "beginner", Board, or callable
        ``"random"``: a fresh variable-setup board per game; a :class:`Board`
        or ``"beginner"``: the same island every game; a callable
        ``seed -> Board``: your own factory (same pickling rule as ``bots``).
    seed : int
        Base seed: game ``i`` depends on ``(seed, i)`` only (:func:`game_seeds`).
    max_turns : int, optional
        Stop a game when this many regular turns have been played; it then has no winner.
    rules : Rules, optional
        Default: each game's board's own (:meth:`Rules.for_board <catan_nb.rules.Rules.for_board>`:
        the base game, or the modules a scenario board's file names, SF-13); rules given must hold
        those modules.
    start : {"founding", "beginner"}
        ``"beginner"`` needs a board with starting pieces (``board="beginner"``).
    starting_seat : int
    workers : int, optional
        Processes on this machine (default: every core available); ``1`` plays
        in this process.  Ignored when ``client`` is given.
    chunksize : int, optional
        Games per task (default: about eight tasks per worker, at most 50 games each).
    progress : bool
        Show a tqdm progress bar (a widget in Jupyter).
    client : dask.distributed.Client, optional
        Run the tasks on this Dask cluster instead (dask is an optional dependency).

    Returns
    -------
    SimulationResult
        The same for any ``workers``, ``chunksize`` or ``client``.

    Examples
    --------
    >>> r = simulate(6, players=4, bots=("weighted", "random", "random", "random"),
    ...              board="beginner", seed=3, max_turns=60, workers=1, progress=False)
    >>> r.games, r.bots[0], r.board
    (6, 'weighted', 'beginner')
    >>> all(sum(getattr(g, s)[0] for s in VP_SOURCES) == g.vp[0] for g in r.records)
    True

    Notes
    -----
    Each game costs what the engine does (a few ms to tens of ms with the
    bundled bots); tasks carry the options once and a list of game indices, so
    the overhead per game is small.  Processes start with the platform's
    default method; a bot or board factory defined in a notebook works with
    ``workers=1`` anywhere, and in worker processes where they fork (Linux).
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, not {games}")
    spec = _use_fast(_spec(players, bots, board, seed, max_turns, rules, start, starting_seat), games)
    nworkers = 1 if client is not None else max(1, int(workers or _default_workers()))
    if chunksize is None:
        chunksize = max(1, min(50, math.ceil(games / (8 * max(nworkers, 1)))))
    chunks = _chunks(games, chunksize)
    if spec.fast and nworkers > 1 and len(chunks) > 1:
        _fast_records(spec, [0])  # compile (or load) once here, not in every worker process

    from tqdm.auto import tqdm  # the notebook flavour imports ipywidgets: only on use

    records: dict[int, GameRecord] = {}
    start_time = time.perf_counter()
    with tqdm(total=games, disable=not progress, desc="games", unit="game") as bar:  # the rate shown is games/s
        for recs in _execute(spec, chunks, nworkers, client):
            for rec in recs:
                records[rec.index] = rec
            bar.update(len(recs))
    if isinstance(board, Board):
        board_name = board.name
    elif isinstance(board, str):
        board_name = board
    else:
        board_name = getattr(board, "__name__", type(board).__name__)
    return SimulationResult(
        records=tuple(records[i] for i in range(games)),
        players=players,
        bots=tuple(_bot_name(k) for k in spec.bots),
        seed=spec.seed,
        max_turns=max_turns,
        board=board_name,
        seconds=time.perf_counter() - start_time,
    )


def _execute(spec: _Spec, chunks: list[list[int]], workers: int, client: Any) -> Iterable[list[GameRecord]]:
    """Yield the records of each chunk as it completes (in any order)."""
    if client is not None:
        from distributed import as_completed  # optional dependency: imported on use

        futures = [client.submit(_run_chunk, spec, c, pure=False) for c in chunks]
        try:
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            for fut in futures:
                fut.release()
        return
    if workers == 1 or len(chunks) <= 1:
        for c in chunks:
            yield _run_chunk(spec, c)
        return
    try:
        pickle.dumps(spec)
    except Exception as exc:  # lambdas, closures, notebook-local classes under spawn
        raise ValueError(
            f"the simulation options must pickle to run in worker processes ({exc}); "
            "use a class or a module-level function for bots/board, or workers=1"
        ) from None
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=min(workers, len(chunks))) as pool:
        futures = [pool.submit(_run_chunk, spec, c) for c in chunks]
        try:
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            for fut in futures:
                fut.cancel()


# ============================================================================ stored runs
@dataclass(frozen=True)
class StoredWinners:
    """The winner of every game of a :func:`simulate` run too long for a lesson, with the call that made it.

    Game ``i`` of a run depends only on the call's options, its seed and ``i``
    (:func:`game_seeds`), so :meth:`check` can replay any of the stored games
    and confirm its winner: the numbers are computed, only ahead of time.

    Attributes
    ----------
    players, games, seed, max_turns : int
    bots : str
        One bot kind for every seat.
    winners : tuple of int or None
        Game by game; ``None`` for a game stopped at ``max_turns``.
    """

    players: int
    games: int
    seed: int
    bots: str
    max_turns: int
    winners: tuple[int | None, ...]

    @property
    def finished(self) -> int:
        """Games with a winner."""
        return sum(w is not None for w in self.winners)

    def wins(self) -> tuple[int, ...]:
        """Wins of each seat."""
        return tuple(sum(w == p for w in self.winners) for p in range(self.players))

    def win_rates(self, confidence: float = 0.95) -> Table:
        """Wins per seat among the finished games, with the Wilson interval of each."""
        rows = []
        for p, k in enumerate(self.wins()):
            e = estimate_proportion(k, self.finished, confidence=confidence)
            rows.append((p, self.bots, self.finished, k, e.estimate, e.low, e.high))
        cols = ("seat", "bot", "finished", "wins", "win_rate", "low", "high")
        title = (f"{self.players} players: win rate by seat among {self.finished} finished games of {self.games} "
                 f"({confidence:.0%} Wilson interval)")
        return Table(cols, rows, title=title)

    def seat_test(self) -> ChiSquareResult:
        """One chi-square test of "every seat wins equally often" over the finished games."""
        return chi_square_counts(self.wins(), unit="finished games", min_expected=0)

    def call(self) -> dict[str, Any]:
        """The options of the :func:`simulate` call that made the run."""
        return {"players": self.players, "bots": self.bots, "seed": self.seed, "max_turns": self.max_turns}

    def check(self, indices: Iterable[int]) -> bool:
        """Replay the games ``indices`` and confirm their stored winners.

        Examples
        --------
        >>> stored_seat_runs()[4].check([0, 1])
        True
        """
        return all(play_one(i, **self.call()).winner == self.winners[i] for i in indices)

    @classmethod
    def from_result(cls, result: SimulationResult) -> "StoredWinners":
        if len(set(result.bots)) != 1:
            raise ValueError("a stored run has one bot kind for every seat")
        return cls(result.players, result.games, result.seed, result.bots[0], result.max_turns,
                   tuple(r.winner for r in result.records))

    def encode(self) -> str:
        """The winners as one character per game: the seat, or ``-`` for no winner."""
        return "".join("-" if w is None else str(w) for w in self.winners)


def stored_seat_runs() -> dict[int, StoredWinners]:
    """Long runs of four equal bots for lesson 30, by player count (made by ``docs/tools/make_seat_runs.py``).

    Examples
    --------
    >>> runs = stored_seat_runs()
    >>> sorted(runs), runs[6].games == len(runs[6].winners)
    ([4, 6], True)
    """
    from ._seat_runs import RUNS

    return {
        players: StoredWinners(players, len(text), seed, bots, max_turns,
                               tuple(None if c == "-" else int(c) for c in text))
        for players, (bots, seed, max_turns, text) in RUNS.items()
    }

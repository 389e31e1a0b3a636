"""A compiled simulator for mass play: the base game's twin of the engine, in numba.

The engine (:mod:`catan_nb.rules`) stays the reference: exact, readable, pluggable.  This package
plays the base game (3 or 4 players, and 5 or 6 with the extension's Special Building Phase) on
flat integer arrays built once from ``board.topology``, compiled with numba, for the jobs that play
thousands to millions of games: simulations, ranking openings, search rollouts, reinforcement
learning.  Every kernel game can be written out as the engine's own actions, chance outcomes
inside (``RollDice(dice=...)``, ``MoveRobber(..., stolen=...)``, ``BuyDevelopmentCard(card=...)``),
and :meth:`Game.play <catan_nb.rules.Game.play>` replays it to the same end: the tests check that
on every action of thousands of games.

Install the optional extra first: ``pip install "catan-nb[fast]"`` (numba).  Without it,
:func:`available` is ``False`` and the analysis functions that use the kernel play through the
engine instead (and say once how to install the extra).

What the kernel plays: the base game's rules and options (``vp_to_win``, ``discard_limit``,
``knights_only_before_roll``, ``steal_mandatory``, ``combined_trade_build``,
``shortage_single_taker``), founding in snake order or from a position the engine loaded, on any
board of the base game (beginner, random, five_six, board files).  Domestic trades are left out of
its policies (one-for-one offers are in its rules, for the vectorised environment).  No rule
module besides ``five_six`` (see :func:`covered`).

Policies: ``"random"`` (uniform over the legal actions, like :class:`~catan_nb.analysis.RandomBot`),
``"weighted"`` (:class:`~catan_nb.analysis.WeightedBot`'s weights) and ``"value"``
(:class:`~catan_nb.analysis.ValueBot` without domestic offers; see :mod:`catan_nb.fast.kernel`).

Examples
--------
>>> from catan_nb import Board
>>> from catan_nb.fast import available, play
>>> if available():
...     batch = play(Board.beginner(), players=4, seeds=[1, 2, 3], policies="random")
...     print(len(batch), batch.winner.min() >= 0)
... else:
...     print(3, True)
3 True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import IllegalActionError
from ._compile import COMPILE_SECONDS as _COMPILE_SECONDS, kernel as _kernel
from ._numba import HAVE_NUMBA, INSTALL_HINT, FastUnavailableWarning, warn_once
from . import layout as L

if TYPE_CHECKING:  # bound at run time by _engine(), on first need
    from ..board import Board
    from ..rules import Game, Rules
    from .tables import (
        board_row, catalog, covered, load_game, load_random, new_state, reset_offers, setup, to_actions,
    )

__all__ = [
    "available",
    "wanted",
    "compiled",
    "engine_seconds",
    "covered",
    "catalog",
    "play",
    "play_exact",
    "play_on",
    "Batch",
    "Games",
    "to_actions",
    "replay",
    "policy_code",
    "value_weights",
    "FastUnavailableWarning",
    "INSTALL_HINT",
    "warn_once",
]


#: The names this module takes from the engine's layers (``catan_nb.board``: networkx;
#: ``catan_nb.rules``: every rule module) and from :mod:`.tables`, which imports both: bound by
#: :func:`_engine` the first time a function needs them, so that a job playing kernel games on
#: boards drawn in the kernel (``play("random", ...)``) imports neither (issue 40: start-up).
_ENGINE_NAMES = ("Board", "Game", "Rules", "Setup", "board_row", "catalog", "covered", "load_game", "load_random",
                 "new_state", "reset_offers", "setup", "to_actions")


def _engine() -> None:
    """Import the engine's layers and bind :data:`_ENGINE_NAMES` in this module (once)."""
    if "to_actions" in globals():
        return
    from ..board import Board
    from ..rules import Game, Rules
    from . import tables

    globals().update(Board=Board, Game=Game, Rules=Rules,
                     **{name: getattr(tables, name) for name in _ENGINE_NAMES[3:]})


def __getattr__(name: str):
    """``catan_nb.fast.covered``, ``from catan_nb.fast import catalog``...: the engine's names on demand."""
    if name in _ENGINE_NAMES:
        _engine()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_ENGINE_NAMES})


def available() -> bool:
    """Whether the compiled simulator can run here (numba is installed).

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    return HAVE_NUMBA


#: The engine's bots whose games the kernel's exact mode plays draw for draw, so that ``simulate``,
#: ``simulate_openings`` and the search bot may hand them to the kernel: the value policy follows
#: :class:`~catan_nb.analysis.ValueBot` in the base game (its reach search, the builds its pieces
#: left allow, the decisions an action pushes played out, :meth:`~catan_nb.analysis.ValueBot.greedy`
#: for the search bot's playouts).
EXACT_POLICIES = ("random", "weighted", "value")
#: Rough CPU seconds of one 4-player game of the engine's bots (:func:`wanted` weighs jobs with them).
ENGINE_SECONDS = {"random": 0.01, "weighted": 0.01, "value": 0.2}
#: CPU seconds of a job's first compile on a machine (measured: ``play``'s job, 40 to 43 CPU seconds
#: on the project's 2-core machine; see the README), and of loading it from numba's cache in a new process.
COMPILE_SECONDS = _COMPILE_SECONDS
LOAD_SECONDS = 1.0


def wanted(work: float | None = None, job: str | None = None) -> bool:
    """Whether the analysis functions should play through the kernel.

    ``CATAN_NB_FAST=0`` makes the engine play (to compare), ``CATAN_NB_FAST=1`` the kernel whenever
    numba is installed; by default (``auto``) the kernel plays a job estimated at ``work`` CPU
    seconds of the engine (see :func:`engine_seconds`) when the kernel's entry point ``job`` is
    compiled in this process, or waits in numba's cache on disk and ``work`` is longer than
    loading it (:data:`LOAD_SECONDS`), or ``work`` is longer than a first compile
    (:data:`COMPILE_SECONDS`): a lesson's handful of quick games does not wait for a compile.
    ``work=None``: always.  The results are the same either way.
    Without numba, says once (a :class:`FastUnavailableWarning`) how to install the extra, and only for a job
    the kernel would have played from cold (``work=None``, ``work`` longer than a compile, or
    ``CATAN_NB_FAST=1``): a lesson's handful of quick games plays in the engine either way and says nothing
    (issue 39: a classroom sees no warning).

    Examples
    --------
    >>> import os
    >>> os.environ.get("CATAN_NB_FAST", "auto") == "0" or wanted(work=1e9) == available()
    True
    """
    import os

    mode = os.environ.get("CATAN_NB_FAST", "auto").strip().lower()
    if mode in ("0", "false", "no", "off"):
        return False
    cold = mode in ("1", "true", "yes", "on") or work is None or work >= COMPILE_SECONDS
    if not HAVE_NUMBA:
        if cold:  # the kernel would have played even without a compiled cache: worth saying once
            warn_once(stacklevel=4)
        return False
    if cold:
        return True
    if job is None:
        return False
    where = _compiled(job)
    return where == "process" or (where == "cache" and work >= LOAD_SECONDS)


def engine_seconds(games: int, bots, players: int = 4) -> float:
    """Rough CPU seconds the engine needs for ``games`` games of ``bots`` (a name, or one per seat)."""
    kinds = (bots,) * players if isinstance(bots, str) else tuple(bots)
    per_game = sum(ENGINE_SECONDS.get(k, 1.0) if isinstance(k, str) else 1.0 for k in kinds) / 4
    return games * per_game


def compiled(job: str) -> bool:
    """Whether the kernel's entry point ``job`` (``"simulate_exact"``, ``"play_from"``...) is
    compiled in this process or waits in numba's cache on disk (then it loads in about a second).

    Examples
    --------
    >>> compiled("play_games") in (True, False)
    True
    """
    return _compiled(job) is not None


def _compiled(job: str) -> str | None:
    """``"process"``, ``"cache"`` (numba's cache on disk) or ``None``."""
    if not HAVE_NUMBA:
        return None
    from ._aot import PLAY_ENTRIES, built, enabled

    if job in PLAY_ENTRIES and enabled() and built("play"):
        return "cache"
    kernel = _kernel()

    dispatcher = getattr(kernel, job)
    if dispatcher.overloads:
        return "process"
    try:  # numba's own cache index (private: a change in numba reads as "not compiled")
        cache = getattr(dispatcher, "_cache")  # numba's member (not Game's, which the engine tests guard)
        return "cache" if cache._cache_file._load_index() else None
    except Exception:  # pragma: no cover - another numba
        return None


def _require() -> None:
    if not HAVE_NUMBA:
        raise ImportError(INSTALL_HINT.split(";")[0])


def policy_code(policy: str) -> int:
    """The kernel's code of a policy name (``"random"``, ``"weighted"``, ``"value"``).

    Examples
    --------
    >>> policy_code("value")
    2
    """
    try:
        return L.POLICIES[policy]
    except (KeyError, TypeError):
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(L.POLICIES)}") from None


def value_weights(weights=None) -> np.ndarray:
    """The value policy's weights as the kernel reads them (the value bot's, by default).

    ``weights`` maps feature names to weights, like
    :data:`catan_nb.analysis.value_bot.DEFAULT_WEIGHTS`; missing names weigh 0.
    """
    from ._features import FEATURES

    if weights is None:
        # catan_nb.fast twins the analysis layer's value bot: its weights are the bot's own.
        from ..analysis.value_bot import DEFAULT_WEIGHTS as weights
    return np.array([float(weights.get(k, 0.0)) for k in FEATURES])


def _weights_for(codes: np.ndarray, weights=None) -> np.ndarray:
    """The weights a job passes to the kernel: the value policy's when a seat plays it (or
    ``weights`` are given), zeros otherwise (no seat reads them, and the value bot's module, which
    imports the whole analysis layer, stays unloaded: a random job starts sooner)."""
    if weights is not None or (np.asarray(codes) == L.POL_VALUE).any():
        return value_weights(weights)
    from ._features import N_FEATURES

    return np.zeros(N_FEATURES)


def _seat_codes(policies, players: int) -> np.ndarray:
    if isinstance(policies, str):
        policies = (policies,) * players
    policies = tuple(policies)
    if len(policies) != players:
        raise ValueError(f"{players} players need {players} policies, got {len(policies)}")
    return np.array([policy_code(p) for p in policies], np.int64)


@dataclass(frozen=True, eq=False)
class Batch:
    """The outcome of :func:`play`: one entry per game, per-seat arrays of shape ``(games, players)``.

    Attributes
    ----------
    board_rows : numpy.ndarray
        Each game's board as the kernel reads it (see :meth:`board`).
    seeds : numpy.ndarray
        Each game's seed.
    winner : numpy.ndarray
        The winning seat, -1 for a game stopped at ``max_turns`` or ``max_actions`` (:attr:`truncated`).
    turns : numpy.ndarray
        Regular turns begun (the founding excluded).
    actions : numpy.ndarray
        Actions applied, the founding's included.
    vp, settlements, cities, vp_cards, road_length, knights : numpy.ndarray
        Per seat at the end: VP (hidden VP cards included), pieces, VP cards, longest road, knights played.
    longest_road, largest_army : numpy.ndarray
        The holders at the end, -1 for nobody.
    logs : tuple of numpy.ndarray or None
        With ``record=True``: each game's ``(action, outcome)`` rows (see :meth:`actions_of`), the
        whole game however long (the log grows as the game needs).
    truncated : numpy.ndarray
        ``True`` for a game that ended without a winner: stopped once more than ``max_turns`` turns
        had begun, or at the action guard ``max_actions`` (see :attr:`guarded`), as
        :class:`~catan_nb.fast.vector_env.CatanVectorEnv` truncates its games.  The other games
        of the batch are whole: one endless game does not cost the batch.
    guarded : numpy.ndarray
        ``True`` for a game stopped by ``max_actions`` (a game that would not end, such as one of
        random policies with a high ``vp_to_win``): :meth:`unfinished` names them with their seeds.
    max_turns, max_actions : int or None
        The limits the batch was played with.
    """

    players: int
    board_rows: np.ndarray
    seeds: np.ndarray
    starting_seats: np.ndarray
    winner: np.ndarray
    turns: np.ndarray
    actions: np.ndarray
    vp: np.ndarray
    settlements: np.ndarray
    cities: np.ndarray
    vp_cards: np.ndarray
    road_length: np.ndarray
    knights: np.ndarray
    longest_road: np.ndarray
    largest_army: np.ndarray
    logs: tuple | None = None
    truncated: np.ndarray | None = None
    guarded: np.ndarray | None = None
    max_turns: int | None = None
    max_actions: int | None = None
    # The rules and the template board (see the properties); None for a batch of play("random")
    # with the default rules, which builds them from _layout on first need (the engine's layers).
    _rules: Any = field(default=None, repr=False)
    _template: Any = field(default=None, repr=False)
    _layout: str = field(default="base", repr=False)

    @property
    def rules(self) -> Rules:
        """The rules the games were played with (:class:`~catan_nb.rules.Rules`)."""
        if self._rules is None:
            self._engine_parts()
        return self._rules

    @property
    def template(self) -> Board:
        """A board of the games' shape and harbours (the one given, or the random layout's)."""
        if self._template is None:
            self._engine_parts()
        return self._template

    def _engine_parts(self) -> None:
        _engine()
        from .tables import random_template

        template = random_template(self._layout)[1]
        object.__setattr__(self, "_template", template)
        object.__setattr__(self, "_rules", setup(template, self.players, None).rules)

    def __len__(self) -> int:
        return len(self.winner)

    def unfinished(self) -> list[str]:
        """One line per game without a winner: its index, seed, turns, actions and what stopped it.

        Examples
        --------
        >>> if available():
        ...     b = play("random", 4, seeds=[5, 6], max_turns=3)
        ...     print(b.unfinished()[0])
        ... else:
        ...     print("game 0 (seed 5): stopped after 4 turns begun, 22 actions (max_turns=3)")
        game 0 (seed 5): stopped after 4 turns begun, 22 actions (max_turns=3)
        """
        out = []
        for i in np.flatnonzero(self.winner < 0):
            why = (f"past the action guard max_actions={self.max_actions} (pass max_turns to stop such games "
                   f"sooner)" if self.guarded is not None and self.guarded[i] else f"max_turns={self.max_turns}")
            out.append(f"game {int(i)} (seed {int(self.seeds[i])}): stopped after {int(self.turns[i])} turns begun, "
                       f"{int(self.actions[i])} actions ({why})")
        return out

    def board(self, i: int) -> Board:
        """Game ``i``'s board as the engine's :class:`Board` (drawn in the kernel or given)."""
        _engine()
        from .tables import board_from_row

        return board_from_row(self.template, self.board_rows[i], name=f"kernel-{int(self.seeds[i])}")

    def actions_of(self, i: int) -> list:
        """Game ``i`` as the engine's own actions, chance outcomes inside (needs ``record=True``)."""
        if self.logs is None:
            raise ValueError("play(..., record=True) keeps the actions")
        _engine()
        return to_actions(self.logs[i], self.template, self.players)

    def replay(self, i: int) -> Game:
        """Game ``i`` replayed by the engine, every action checked (:meth:`Game.play`)."""
        return replay(self.board(i), self.players, self.actions_of(i), rules=self.rules,
                      starting_seat=int(self.starting_seats[i]))


def replay(board: Board, players: int, actions, *, rules: Rules | None = None, starting_seat: int = 0,
           seed: int = 0) -> Game:
    """A new engine game on ``board`` that plays ``actions`` one by one, each checked by
    :meth:`Game.play` (which raises :class:`~catan_nb.errors.IllegalActionError` on the first that
    breaks a rule)."""
    _engine()
    game = Game(board, players=players, seed=seed, rules=rules, starting_seat=starting_seat)
    for a in actions:
        game.play(a)
    return game


def _check_covered(board: Board, players: int, rules: Rules | None) -> None:
    """Refuse a board whose game the kernel cannot play with ``rules`` (a scenario board's own
    modules, SF-13: every board of a call, not only the first that sets the kernel up)."""
    problem = covered(rules, players, board=board)
    if problem:
        raise ValueError(problem)


def _boards(board, games: int) -> tuple:
    if isinstance(board, Board):
        return (board,) * games
    boards = tuple(board)
    if len(boards) != games:
        raise ValueError(f"{games} games need {games} boards (or one Board for all), got {len(boards)}")
    return boards


def play(
    board: Board | Sequence[Board] | str,
    players: int = 4,
    *,
    seeds: Sequence[int] | np.ndarray,
    policies: str | Sequence[str] = "random",
    rules: Rules | None = None,
    starting_seats: int | Sequence[int] = 0,
    max_turns: int | None = None,
    record: bool = False,
    weights=None,
    max_actions: int = 100_000,
) -> Batch:
    """Play one kernel game per seed, from the founding to the end, and collect the outcomes.

    Parameters
    ----------
    board : Board, sequence of Board, or "random"
        One board for every game, or one per game (all of one shape: the base island or the
        5-6 player one); ``"random"``: each game draws its own in the kernel, from its seed, as
        :meth:`Board.random` lays one out (terrains shuffled, tokens along the spiral), on the
        base island (3-4 players) or the 5-6 player one (:meth:`Batch.board` rebuilds it).
    players : int
        3 to 6.
    seeds : sequence of int
        One per game, 0 <= seed < 2**64: a game depends on its seed, board, starting seat,
        rules and policies only (not on the other games of the call, nor on the process).
    policies : str or sequence of str
        ``"random"``, ``"weighted"`` or ``"value"``, for every seat or one per seat.
    rules : Rules, optional
        Options of the base game (see :func:`covered`).
    starting_seats : int or sequence of int
    max_turns : int, optional
        Stop a game when more than this many turns have begun (as
        :func:`~catan_nb.analysis.play_game` and :func:`~catan_nb.analysis.simulate` do); it has
        no winner and is marked in :attr:`Batch.truncated`.
    record : bool
        Keep every game's actions (:meth:`Batch.actions_of`, :meth:`Batch.replay`), however many.
    weights : mapping, optional
        The value policy's weights (default: the value bot's).
    max_actions : int
        The guard against a game that never ends (random policies can keep one going for millions
        of actions): such a game stops there, without a winner, marked in :attr:`Batch.truncated`
        and :attr:`Batch.guarded` (:meth:`Batch.unfinished` names it and its seed); the other
        games of the batch come back whole.

    Returns
    -------
    Batch

    Raises
    ------
    ImportError
        Without numba.
    ValueError
        For rules the kernel does not cover, boards of different shapes, bad seeds.
    """
    _require()
    from ._aot import job

    kernel = job("play")  # its module built ahead of time (no numba to import), or numba's jit

    seeds = np.asarray(seeds, dtype=np.uint64) if len(seeds) else np.zeros(0, np.uint64)
    G = len(seeds)
    seats = np.broadcast_to(np.asarray(starting_seats, np.int64), (G,)).copy()
    if G and (seats.min() < 0 or seats.max() >= players):
        raise ValueError(f"starting seats must be in 0..{players - 1}")
    codes = np.tile(_seat_codes(policies, players), (G, 1))
    W = _weights_for(codes, weights)
    logs = np.zeros((G, LOG_ROWS if record else 0, 2), np.int32)
    results = np.zeros((G, L.R_HEAD + L.R_SEAT * players), np.int64)
    turns = -1 if max_turns is None else int(max_turns)
    if isinstance(board, str):
        if board != "random":
            raise ValueError(f"board must be a Board, a sequence of boards or 'random', not {board!r}")
        layout = "five_six" if players > 4 else "base"
        template = None
        if rules is None:  # the tables as plain data: no engine layers to import (see ._cached)
            from ._cached import random_tables

            tmpl, T = random_tables(layout, players)
        else:
            _engine()
            from .tables import random_template

            tmpl, template = random_template(layout)
            s = setup(template, players, rules)
            T, rules = s.T, s.rules
        rows = np.zeros((G, 2 * int(T[L.P_NAMES.index("HEXES")]) + int(T[L.P_NAMES.index("NODES")]) + 1), np.int64)
        def run(k, logs_k, results_k):  # games k again (their boards drawn again, the same)
            kernel.play_random_boards(T, tmpl, seeds[k], seats[k], codes[k], W, turns, int(max_actions), logs_k,
                                      results_k, rows[k].copy())

        kernel.play_random_boards(T, tmpl, seeds, seats, codes, W, turns, int(max_actions), logs, results, rows)
        return _batch(players, rules, template, rows, seeds, seats, results,
                      _grown(logs, results, run) if record else None, max_turns=max_turns, max_actions=max_actions,
                      layout=layout)
    _engine()
    boards = _boards(board, G)
    template = boards[0] if boards else (board if isinstance(board, Board) else Board.beginner())
    s = setup(template, players, rules)
    rows = np.zeros((G, 2 * s.n_hexes + s.n_nodes + 1), np.int64)
    cache: dict[int, np.ndarray] = {}
    t0 = template.topology
    for i, b in enumerate(boards):
        row = cache.get(id(b))
        if row is None:
            t = b.topology
            if t is not t0 and (t.edge_nodes != t0.edge_nodes or t.node_hexes != t0.node_hexes
                                or t.hex_nodes != t0.hex_nodes or t.edge_land != t0.edge_land):
                raise ValueError("every board of one call must have the same shape")
            _check_covered(b, players, rules)
            row = cache[id(b)] = board_row(b)
        rows[i] = row
    def run(k, logs_k, results_k):  # games k again, with room for their whole logs
        kernel.play_games(s.T, seeds[k], seats[k], rows[k], codes[k], W, turns, int(max_actions), logs_k, results_k)

    kernel.play_games(s.T, seeds, seats, rows, codes, W, turns, int(max_actions), logs, results)
    return _batch(s.players, s.rules, template, rows, seeds, seats, results, _grown(logs, results, run) if record else None,
                  max_turns=max_turns, max_actions=max_actions)


def play_exact(
    board: Board | Sequence[Board] | str,
    players: int = 4,
    *,
    game_seeds: Sequence[int],
    bot_seeds: Sequence[Sequence[int]],
    policies: str | Sequence[str] = "random",
    board_seeds: Sequence[int] | None = None,
    rules: Rules | None = None,
    starting_seat: int = 0,
    max_turns: int | None = None,
    value_offers: bool = True,
    weights=None,
    max_actions: int = 1_000_000,
) -> Batch:
    """The engine's own games, played by the kernel: game i is ``Game(board_i, players,
    seed=game_seeds[i], rules=rules, starting_seat=starting_seat)`` played by the bots
    ``RandomBot(s)``, ``WeightedBot(s)`` or ``ValueBot(s, offers=value_offers)`` seeded by
    ``bot_seeds[i]`` (one per seat) with :func:`catan_nb.analysis.play_game` — draw for draw the
    same dice, cards, steals and choices, in a fraction of the time.

    ``board``: a fixed Board, one Board per game, or ``"random"``: ``Board.random(seed=board_seeds[i])``
    on the layout of ``players`` (drawn in the kernel as Board.random draws it).  Needs numba.
    """
    _require()
    kernel = _kernel()
    _engine()
    from .tables import random_template

    G = len(game_seeds)
    game_seeds = np.asarray(game_seeds, dtype=np.uint64) if G else np.zeros(0, np.uint64)
    bot_seeds = np.asarray(bot_seeds, dtype=np.uint64).reshape(G, players) if G else np.zeros((0, players), np.uint64)
    tmpl, template = random_template("five_six" if players > 4 else "base")
    given = False
    fixed = np.zeros(0, np.int64)
    boards = None
    if isinstance(board, str):
        if board != "random":
            raise ValueError(f"board must be a Board, boards or 'random', not {board!r}")
        if board_seeds is None or len(board_seeds) != G:
            raise ValueError("random boards need one board seed per game")
        board_seeds = np.asarray(board_seeds, dtype=np.uint64)
    elif isinstance(board, Board):
        template = board
        fixed = board_row(board)
        board_seeds = np.zeros(G, np.uint64)
    else:
        boards = _boards(board, G)
        template = boards[0] if boards else template
        given = True
        board_seeds = np.zeros(G, np.uint64)
    s = setup(template, players, rules, exact=True, value_offers=value_offers)
    results = np.zeros((G, L.R_HEAD + L.R_SEAT * players), np.int64)
    rows = np.zeros((G, 2 * s.n_hexes + s.n_nodes + 1), np.int64)
    if boards is not None:
        for b in {id(b): b for b in boards}.values():
            _check_covered(b, players, rules)
        for i, b in enumerate(boards):
            if b.topology is not template.topology and b.topology.edge_nodes != template.topology.edge_nodes:
                raise ValueError("every board of one call must have the same shape")
            rows[i] = board_row(b)
    kernel.simulate_exact(s.T, tmpl, fixed, given, game_seeds, board_seeds, bot_seeds, int(starting_seat),
                           _seat_codes(policies, players), _weights_for(_seat_codes(policies, players), weights),
                           -1 if max_turns is None else int(max_turns), int(max_actions), results, rows)
    seats = np.full(G, int(starting_seat), np.int64)
    return _batch(s.players, s.rules, template, rows, game_seeds, seats, results, None, max_turns=max_turns, max_actions=max_actions)


#: Rows of a game's log to start with in :func:`play` (``record=True``); a longer game is played
#: again with room for all of its actions (its seed makes it the same game).
LOG_ROWS = 4096


def _grown(logs: np.ndarray, results: np.ndarray, run) -> tuple:
    """Each game's whole log: the games whose actions did not fit ``logs`` are played again by
    ``run(indices, logs, results)`` with room for all of them (a game depends on its seed only)."""
    done = results[:, L.R_ACTIONS]
    short = np.flatnonzero(done > logs.shape[1])
    kept = [logs[i, :int(done[i])].copy() for i in range(len(results))]
    if short.size:
        again = np.zeros((short.size, int(done[short].max()), 2), np.int32)
        res = np.zeros((short.size, results.shape[1]), np.int64)
        run(short, again, res)
        for j, i in enumerate(short):
            if res[j, L.R_ACTIONS] != done[i]:  # pragma: no cover - a game that depends on its batch
                raise RuntimeError(f"game {i} played again ran {res[j, L.R_ACTIONS]} actions, not {done[i]}")
            kept[i] = again[j, :int(done[i])].copy()
    return tuple(kept)


def _batch(n: int, rules: Rules | None, template: Board | None, rows, seeds, seats, results: np.ndarray, logs, *,
           max_turns: int | None = None, max_actions: int | None = None, layout: str = "base") -> Batch:
    seat = results[:, L.R_HEAD:].reshape(len(results), n, L.R_SEAT)
    winner = results[:, L.R_WINNER]
    stopped = (winner < 0) & (results[:, L.R_OVERFLOW] != 0)  # the action guard, not max_turns
    return Batch(
        players=n, _rules=rules, _template=template, _layout=layout, board_rows=rows, seeds=seeds, starting_seats=seats,
        truncated=winner < 0, guarded=stopped.copy(), max_turns=max_turns, max_actions=max_actions,
        winner=results[:, L.R_WINNER].copy(), turns=results[:, L.R_TURN].copy(),
        actions=results[:, L.R_ACTIONS].copy(), vp=seat[:, :, L.R_VP].copy(),
        settlements=seat[:, :, L.R_SETTLEMENTS].copy(), cities=seat[:, :, L.R_CITIES].copy(),
        vp_cards=seat[:, :, L.R_VP_CARDS].copy(), road_length=seat[:, :, L.R_ROAD].copy(),
        knights=seat[:, :, L.R_KNIGHTS].copy(), longest_road=results[:, L.R_LR].copy(),
        largest_army=results[:, L.R_LA].copy(), logs=logs,
    )


class _History:
    """How a row of :class:`Games` began (``(board, starting_seat)`` of a new game, or a copy of the
    engine game it loaded) and the ``(catalogue index, outcome)`` of each action since: plain ints
    from :meth:`Games.step`, arrays from :meth:`Games.play`'s log (flattened on the first refusal).
    ``start`` is the kernel's action count when it began, ``count`` the actions since; ``game`` the
    engine's replay of the first ``done`` of them, kept for the next refusal."""

    __slots__ = ("base", "start", "count", "moves", "game", "done")

    def __init__(self, base, start: int):
        self.base = base
        self.start = start
        self.count = 0
        self.moves: list = []
        self.game: Game | None = None
        self.done = 0

    def flat(self) -> list:
        """The actions as one list of ``(index, outcome)`` pairs."""
        if any(isinstance(m, np.ndarray) for m in self.moves):
            flat: list = []
            for m in self.moves:
                if isinstance(m, np.ndarray):
                    flat.extend(map(tuple, m.tolist()))
                else:
                    flat.append(m)
            self.moves = flat
        return self.moves


class Games:
    """Kernel games one can step, load from the engine and read (for search and learning).

    :meth:`step` applies an action unchecked (the fast path, as :meth:`Game.apply
    <catan_nb.rules.Game.apply>`: take it from :meth:`legal`); :meth:`step_checked` refuses an
    illegal one with :class:`~catan_nb.errors.IllegalActionError` (as :meth:`Game.play
    <catan_nb.rules.Game.play>`), the game unchanged.

    Parameters
    ----------
    board : Board
        A board of the games' shape (each game keeps its own numbers, harbours and robber).
    players : int
    games : int
        How many games (rows).
    rules : Rules, optional

    Examples
    --------
    >>> from catan_nb import Board
    >>> if available():
    ...     g = Games(Board.beginner(), 4, games=2)
    ...     g.reset(0, seed=7)
    ...     print(g.phase(0), len(g.legal(0)))
    ... else:
    ...     print("founding_settlement", 54)
    founding_settlement 54
    """

    def __init__(self, board: Board, players: int = 4, games: int = 1, rules: Rules | None = None, *,
                 exact: bool = False, value_offers: bool = False, dice_stream: bool = False):
        _require()
        _engine()
        self.setup = setup(board, players, rules, exact=exact, value_offers=value_offers, dice_stream=dice_stream)
        self.board = board
        self.players = players
        self.S = new_state(self.setup, games)
        self.T = self.setup.T
        self.catalog = catalog(board, players)
        self._buf = np.empty(self.setup.n_actions + 8, np.int64)
        self._nolog = np.zeros((0, 2), np.int32)
        self._indices: dict | None = None
        self._seeds: dict[int, int] = {}  # each game's seed, for the errors that name it
        # Each row's history (_History: how it began and its actions since), for the engine to name
        # the rule of a refused action; None for a row whose actions are unknown.
        self._history: list[_History | None] = [None] * games

    def __len__(self) -> int:
        return len(self.S)

    def reset(self, i: int, seed: int, *, board: Board | None = None, starting_seat: int = 0,
              bots: Sequence[Any] | None = None) -> None:
        """Game ``i`` from the start of its founding on ``board`` (default: the Games' board).

        In exact mode the game draws from ``random.Random(seed)``, as ``Game(board, seed=seed)``
        does, and seat ``p``'s policy from ``bots[p]`` (a seed, a ``random.Random``, or a bot with
        an ``rng``): the engine's game and bots, draw for draw.
        """
        new_game = _kernel().new_game

        if board is not None and board is not self.board:
            _check_covered(board, self.players, self.setup.rules)
        new_game(self.T, self.S, i, np.uint64(seed % 2**64), starting_seat, board_row(board or self.board))
        self._seeds[i] = seed
        self._history[i] = _History((board or self.board, starting_seat), self._sc(i, L.SC_ACTIONS))
        if self.setup.param("EXACT"):
            self.load_random(i, 0, seed)
            for p, b in enumerate(bots or ()):
                self.load_random(i, 1 + p, getattr(b, "rng", b))
            reset_offers(self.setup, self.S, i)

    def load(self, i: int, game: Game, seed: int = 0, *, rng=None, bots: Sequence[Any] | None = None) -> None:
        """Game ``i`` becomes the engine's ``game``: its chance from ``seed`` on; in exact mode from
        ``rng`` (a ``random.Random``, a seed, or by default the game's own generator as
        :meth:`Game.state` gives it), and seat ``p``'s policy from ``bots[p]`` (as in :meth:`reset`)."""
        load_game(self.setup, game, self.S, i, seed)
        self._seeds[i] = seed
        self._history[i] = _History(game.copy(), self._sc(i, L.SC_ACTIONS))
        if self.setup.param("EXACT"):
            if rng is None:
                import random

                rng = random.Random()
                rng.setstate(game.state()["rng"])
            self.load_random(i, 0, rng)
            for p, b in enumerate(bots or ()):
                self.load_random(i, 1 + p, getattr(b, "rng", b))
            reset_offers(self.setup, self.S, i)

    def load_random(self, i: int, slot: int, rng) -> None:
        """Exact mode: generator ``slot`` of game ``i`` (0 the game's, 1 + seat the bots', n + 1 the
        dice stream) takes the state of ``rng`` (a ``random.Random`` or a seed)."""
        load_random(self.setup, self.S, i, slot, rng)

    def save_random(self, i: int, slot: int, rng) -> None:
        """Exact mode: ``rng`` (a ``random.Random``) takes the state of generator ``slot`` of game ``i``."""
        from .tables import save_random

        save_random(self.setup, self.S, i, slot, rng)

    def offered(self, i: int, seat: int) -> int:
        """Exact mode: the turn in which ``seat``'s value bot last offered a trade (-1: none)."""
        return int(self.S[i, self.setup.param("X_OFFERED") + seat])

    def set_offered(self, i: int, seat: int, turn: int) -> None:
        """Exact mode: ``seat``'s value bot last offered a trade in ``turn`` (ValueBot._offered_turn)."""
        self.S[i, self.setup.param("X_OFFERED") + seat] = turn

    def rollout(self, i: int, me: int, turn: int, horizon: int, weights=None, scale: float = 1000.0,
                own: bool = False) -> float:
        """SearchBot's rollout of game ``i`` and its leaf value for ``me`` (see kernel.rollout).

        The rollout's actions are not kept: afterwards :meth:`step_checked` still refuses an illegal
        action in game ``i`` but cannot name its rule (rule ``API``) until :meth:`reset` or :meth:`load`.
        """
        rollout = _kernel().rollout

        self._history[i] = None  # played on unrecorded: step_checked can no longer replay the row
        return float(rollout(self.T, self.S, i, me, turn, horizon, value_weights(weights), float(scale), own))

    def legal(self, i: int, offers: bool = False) -> np.ndarray:
        """Catalogue indices of game ``i``'s legal actions, in the engine's order."""
        legal_list = _kernel().legal_list

        k = legal_list(self.T, self.S, i, offers, self._buf)
        return self._buf[:k].copy()

    def legal_actions(self, i: int, offers: bool = False) -> list:
        """Game ``i``'s legal actions as the engine's action objects."""
        return [self.catalog[a] for a in self.legal(i, offers)]

    def step(self, i: int, a: int) -> int:
        """Apply catalogue action ``a`` to game ``i`` **unchecked** (the fast path, as
        :meth:`Game.apply <catan_nb.rules.Game.apply>`); its chance outcome (-1: none).

        This method does not check: take ``a`` from :meth:`legal`.  An illegal action corrupts the
        game (hands below zero, pieces where none may stand); :meth:`step_checked` is the one that
        checks, and refuses it.

        Parameters
        ----------
        i : int
            The game (row).
        a : int
            A catalogue index (:attr:`catalog`) among :meth:`legal`'s.

        Returns
        -------
        int
            The chance outcome: the dice as ``10 * first + second``, the stolen resource or the
            card drawn; -1 for none.
        """
        step_one = _kernel().step_one

        out = int(step_one(self.T, self.S, i, int(a), self._nolog))
        h = self._history[i]
        if h is not None:
            h.moves.append((int(a), out))
            h.count += 1
        return out

    def step_checked(self, i: int, a) -> int:
        """Apply action ``a`` to game ``i`` **checked** (as :meth:`Game.play
        <catan_nb.rules.Game.play>` and :meth:`CatanVectorEnv.step
        <catan_nb.fast.vector_env.CatanVectorEnv.step>` check theirs); its chance outcome (-1: none).

        This is the method that checks (:meth:`step` does not): an action that is not among the
        kernel's legal actions (:meth:`legal`, domestic one-for-one offers included) is refused.
        The kernel does not restate the rules to say why: the engine does, on game ``i`` replayed
        from its actions since :meth:`reset` or :meth:`load` (:meth:`Game.play
        <catan_nb.rules.Game.play>` raises its :class:`~catan_nb.errors.IllegalActionError`, which
        is raised again here with the game named).

        Parameters
        ----------
        i : int
            The game (row).
        a : int or action
            A catalogue index (:attr:`catalog`) or the engine's action object (``BuildCity(5)``);
            its chance is the kernel's to draw (``RollDice()``, not ``RollDice(dice=...)``).

        Returns
        -------
        int
            The chance outcome, as :meth:`step` returns it.

        Raises
        ------
        IllegalActionError
            When ``a`` is not among game ``i``'s legal actions: the engine's rule id (``B-SETUP-15``,
            ``B-BUILD-1``...) and evidence, the game named; the game is left exactly as it was.
            Rule ``API`` for an index outside the catalogue, an action not in it, or a game whose
            actions the engine cannot replay (played on by :meth:`rollout`, or changed through
            :attr:`S` by the kernel's functions): the action is refused all the same.
        RuntimeError
            When the engine accepts an action the kernel refuses: the two disagree, a bug to report.

        Examples
        --------
        >>> from catan_nb import Board
        >>> from catan_nb.rules import BuildCity
        >>> if available():
        ...     g = Games(Board.beginner(), 4)
        ...     g.reset(0, seed=7)
        ...     try:
        ...         g.step_checked(0, BuildCity(0))
        ...     except IllegalActionError as err:
        ...         print(err)
        ... else:
        ...     print("B-SETUP-15: game 0: seat 0's founding piece now is a settlement, not a city")
        B-SETUP-15: game 0: seat 0's founding piece now is a settlement, not a city
        """
        legal_list = _kernel().legal_list

        index = self._index_of(a)
        k = legal_list(self.T, self.S, i, True, self._buf)
        if index not in self._buf[:k]:
            self._refuse(i, index)
        return self.step(i, index)

    def _refuse(self, i: int, index: int) -> None:
        """Raise the engine's refusal of catalogue action ``index`` in game ``i`` (one the kernel
        does not list): :meth:`Game.play` on the game replayed; the row is not touched."""
        action = self.catalog[index]
        game, why = self._engine_game(i)
        if game is None:
            raise IllegalActionError(
                "API", f"game {i}: {action!r} is not among the kernel's legal actions, and the engine cannot "
                       f"name the rule: {why}", action)
        try:
            game.copy().play(action)
        except IllegalActionError as err:
            raise type(err)(err.rule, f"game {i}: {err.evidence}", err.action) from None
        raise RuntimeError(
            f"game {i}: the kernel and the engine disagree (a bug, please report it): the kernel refuses "
            f"{action!r} (catalogue index {index}) in phase {self.phase(i)}, and Game.play accepts it in the "
            f"engine's replay of the game ({len(game.log)} actions)")

    def _engine_game(self, i: int) -> tuple[Game | None, str]:
        """Game ``i`` as the engine's :class:`Game`, replayed from its history (kept per row, and
        the replay kept for the next refusal); or ``None`` and why it cannot be."""
        h = self._history[i]
        if h is None:
            return None, ("its actions are unknown (a row played on by rollout(), or never started by "
                          "reset() or load())")
        if self._sc(i, L.SC_ACTIONS) != h.start + h.count:
            return None, ("its actions are unknown: the row was changed outside Games' methods (the kernel's "
                          "functions on Games.S)")
        moves = h.flat()
        if h.game is None or h.done > len(moves):
            base = h.base
            if isinstance(base, Game):
                h.game = base.copy()
            else:
                board, seat = base
                h.game = Game(board, players=self.players, seed=0, rules=self.setup.rules, starting_seat=seat)
            h.done = 0
        game = h.game
        try:
            for x in to_actions(np.asarray(moves[h.done:], np.int64).reshape(-1, 2), game.board, self.players):
                game.play(x)
                h.done += 1
        except IllegalActionError as err:
            h.game = None
            return None, (f"its actions do not replay in the engine (action {h.done} since it began is refused: "
                          f"{err}); an unchecked step() applied an illegal action")
        if engine_summary(game) != self.summary(i):
            h.game = None
            return None, ("the engine's replay of its actions ends elsewhere: the row was changed outside "
                          "Games' methods (the kernel's functions on Games.S)")
        return game, ""

    def _index_of(self, a) -> int:
        """The catalogue index of ``a`` (an index or an action object), or IllegalActionError("API")."""
        if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
            if not 0 <= int(a) < len(self.catalog):
                raise IllegalActionError(
                    "API", f"action {int(a)} is outside the catalogue (0..{len(self.catalog) - 1})", a)
            return int(a)
        if self._indices is None:
            self._indices = {x: k for k, x in enumerate(self.catalog)}
        try:
            return self._indices[a]
        except (KeyError, TypeError):
            raise IllegalActionError(
                "API", f"{a!r} is not in the kernel's action catalogue (the kernel draws chance outcomes itself; "
                       "domestic offers are one card for one)", a) from None

    def choose(self, i: int, policy: str = "random", weights=None) -> int:
        """The action ``policy`` picks in game ``i`` (the policy draws from the game's generator)."""
        choose_one = _kernel().choose_one

        code = policy_code(policy)
        return int(choose_one(self.T, self.S, i, code, _weights_for(np.array([code]), weights)))

    def play(self, i: int, policies: str | Sequence[str] = "random", *, max_turns: int | None = None,
             record: bool = False, weights=None, max_actions: int = 100_000) -> np.ndarray | None:
        """Let the seats' ``policies`` play game ``i`` on from where it stands, until it is over or
        more than ``max_turns`` turns have begun; with ``record``, its ``(action, outcome)`` rows
        (all of them: the log grows as the game needs).  The actions are kept with the game's
        history either way, for :meth:`step_checked` to replay.

        Raises
        ------
        RuntimeError
            When the game runs ``max_actions`` actions without a winner (and without reaching
            ``max_turns``): names the game and its seed; the game stands where it stopped.
            :func:`play` marks such games in a batch instead (:attr:`Batch.truncated`).
        """
        play_from = _kernel().play_from

        codes = _seat_codes(policies, self.players)[None, :]
        W = _weights_for(codes, weights)
        turns = -1 if max_turns is None else int(max_turns)
        history = self._history[i]
        keep = record or history is not None  # the row's history needs the actions too (step_checked)
        rows = LOG_ROWS if keep else 0
        row = self.S[i:i + 1]
        saved = row.copy() if keep else None
        start = int(row[0, L.SC_ACTIONS])
        while True:
            logs = np.zeros((1, rows, 2), np.int32)
            results = np.zeros((1, L.R_HEAD + L.R_SEAT * self.players), np.int64)
            row[0, L.SC_NLOG] = 0
            row[0, L.SC_OVERFLOW] = 0
            play_from(self.T, row, codes, W, turns, int(max_actions), logs, results)
            done = int(results[0, L.R_ACTIONS]) - start
            if not keep or done <= rows:
                break
            row[:] = saved  # the log was too short: the same game again (its generators are in its row)
            rows = done
        if history is not None:
            history.moves.append(logs[0, :done].copy())
            history.count += done
        if results[0, L.R_OVERFLOW] and results[0, L.R_WINNER] < 0:
            seed = self._seeds.get(i)
            raise RuntimeError(
                f"game {i} (seed {'unknown' if seed is None else seed}) ran {done} actions "
                f"({int(results[0, L.R_TURN])} turns begun) without a winner: past its action guard "
                f"max_actions={max_actions}; pass max_turns to stop such a game, or a larger max_actions")
        if not record:
            return None
        return logs[0, :done].copy()

    def _sc(self, i: int, k: int) -> int:
        return int(self.S[i, k])

    def phase(self, i: int) -> str:
        """The engine's phase value of game ``i`` now (``"main"``, ``"discard"``...)."""
        d = self._sc(i, L.SC_DEPTH)
        return L.PHASE_NAMES[int(self.S[i, L.STACK + 3 * d - 3])]

    def current_player(self, i: int) -> int:
        d = self._sc(i, L.SC_DEPTH)
        return int(self.S[i, L.STACK + 3 * d - 2])

    def winner(self, i: int) -> int | None:
        w = self._sc(i, L.SC_WINNER)
        return None if w < 0 else w

    def turn(self, i: int) -> int:
        return self._sc(i, L.SC_TURN)

    def field(self, i: int, name: str) -> np.ndarray:
        """A field of game ``i``'s state by its layout name (``"HANDS"``, ``"ROAD_LEN"``...), as a copy."""
        names = [f for f, _ in L.S_FIELDS]
        k = names.index(name)
        start = int(self.T[L.O_BANK + k])
        size = L.S_FIELDS[k][1](self.players, self.setup.n_nodes, self.setup.n_edges, self.setup.n_hexes,
                                int(self.T[L.P_LIM_ROAD]), int(self.T[L.P_KP]))
        return self.S[i, start:start + size].copy()

    def summary(self, i: int) -> dict[str, Any]:
        """Game ``i``'s end state as the engine states it (for comparisons with a replay)."""
        n = self.players
        vp = [int(x) for x in self._vps(i)]
        lr, la = self._sc(i, L.SC_LR), self._sc(i, L.SC_LA)
        return {
            "winner": self.winner(i), "turn": self.turn(i), "vp": vp,
            "hands": self.field(i, "HANDS").reshape(n, 5).tolist(), "bank": self.field(i, "BANK").tolist(),
            "deck": self.field(i, "DECK").tolist(), "dev": self.field(i, "DEV").reshape(n, 5).tolist(),
            "knights": self.field(i, "KNIGHTS").tolist(), "road_lengths": self.field(i, "ROAD_LEN").tolist(),
            "longest_road": None if lr < 0 else lr, "largest_army": None if la < 0 else la,
            "robber": self._sc(i, L.SC_ROBBER),
            "node_owner": self.field(i, "NODE_OWNER").tolist(), "node_kind": self.field(i, "NODE_KIND").tolist(),
            "edge_owner": self.field(i, "EDGE_OWNER").tolist(), "phase": self.phase(i),
            "current_player": self.current_player(i),
        }

    def _vps(self, i: int) -> list[int]:
        n = self.players
        board_vp = self.field(i, "BOARD_VP")
        dev = self.field(i, "DEV").reshape(n, 5)
        lr, la = self._sc(i, L.SC_LR), self._sc(i, L.SC_LA)
        sp = int(self.T[L.P_SPECIAL_VP])
        return [int(board_vp[p] + dev[p, 4] + sp * (lr == p) + sp * (la == p)) for p in range(n)]


_PLAY_ON: dict = {}


def play_on(game: Game, policies: str | Sequence[str], *, bots: Sequence[Any], rng=None, dice=None,
            max_turns: int | None = None, value_offers: bool = True, weights=None) -> dict[str, Any]:
    """Play the engine's ``game`` on to its end in the kernel, exactly as the engine would with the
    bots ``bots`` (RandomBot, WeightedBot or ValueBot, named by ``policies``), and return the end
    as :meth:`Games.summary` states it.

    ``rng``: the game's generator now (a ``random.Random`` or a seed; default: the game's own);
    ``dice``: a ``random.Random`` or seed of a dice stream of their own (each roll's two dice are
    ``randint(1, 6)`` of it, the game's generator drawing as for recorded dice: simulate_openings);
    ``max_turns``: stop once more turns have begun.  The bots' generators are read, not advanced.
    """
    _require()
    from .tables import geometry_key

    key = (geometry_key(game.topology), game.n, game.rules, value_offers, dice is not None)
    games = _PLAY_ON.get(key)
    if games is None:
        if len(_PLAY_ON) > 16:
            _PLAY_ON.clear()
        games = _PLAY_ON[key] = Games(game.board, game.n, rules=game.rules, exact=True, value_offers=value_offers,
                                      dice_stream=dice is not None)
    games.load(0, game, rng=rng, bots=bots)
    if dice is not None:
        games.load_random(0, game.n + 1, dice)
    games.play(0, policies, max_turns=max_turns, weights=weights)
    return games.summary(0)


def engine_summary(game: Game) -> dict[str, Any]:
    """The same fields as :meth:`Games.summary`, read from an engine game."""
    n = game.n
    kinds = game.kinds
    owner = [o if o >= 0 and kinds[k] is not None and kinds[k].building else -1
             for o, k in zip(game.node_owner, game.node_kind)]
    return {
        "winner": game.winner, "turn": game.turn, "vp": [game.vp(p) for p in range(n)],
        "hands": [h[:5] for h in game.hands], "bank": game.bank[:5], "deck": list(game.deck),
        "dev": [list(d) for d in game.dev], "knights": list(game.knights), "road_lengths": game.road_lengths(),
        "longest_road": game.longest_road_holder, "largest_army": game.largest_army_holder, "robber": game.robber,
        "node_owner": owner, "node_kind": [k if o >= 0 else 0 for o, k in zip(owner, game.node_kind)],
        "edge_owner": list(game.edge_owner), "phase": game.phase.value, "current_player": game.current_player,
    }

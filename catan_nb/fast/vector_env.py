"""A vectorised reinforcement-learning environment: N kernel games stepped in one call.

:class:`CatanVectorEnv` is a :class:`gymnasium.vector.VectorEnv` over the compiled simulator with
the action catalogue, observations and masks of :class:`~catan_nb.envs.CatanAECEnv`: one index
per action the rules can offer (:func:`catan_nb.envs.action_catalog`, one-for-one domestic
offers included), the acting player's observation (:func:`catan_nb.envs.observe`: seats rotated,
only public counts of the others) and the mask of their legal actions.  Each step takes one
action per game, for whichever seat must act in it (the AEC environment's ``agent_selection``,
given in ``infos["player"]`` before the step and ``infos["current_player"]`` after it): self-play
over N tables at once.

Rewards follow the AEC environment's: when a game ends, +1 to the winner and -1 to the others
(``infos["seat_rewards"]``, one row per game); ``rewards`` holds the acting seat's.  A game that
ends is started afresh at the next step (gymnasium's next-step autoreset; that step's action is
ignored), on a new board drawn in the kernel as :meth:`Board.random` lays one out, or on the
fixed ``board``.  Needs the ``fast`` (numba) and ``rl`` (gymnasium) extras.

Examples
--------
>>> import numpy as np
>>> from catan_nb.fast import available
>>> if available():
...     env = CatanVectorEnv(8, players=4)
...     obs, infos = env.reset(seed=1)
...     a = (np.random.default_rng(0).random(obs["action_mask"].shape) * obs["action_mask"]).argmax(1)
...     obs, rewards, terminated, truncated, infos = env.step(a)
...     print(obs["observation"].shape[0], bool(obs["action_mask"].any(axis=1).all()))
... else:
...     print(8, True)
8 True
"""

from __future__ import annotations

import numpy as np

try:  # the optional extra
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError('catan_nb.fast.vector_env needs the optional extra: pip install "catan-nb[rl]"') from exc

from ..board import Board
from ..constants import RESOURCES, Terrain
from ..rules import Game, Rules
from . import layout as L
from ._compile import kernel as _kernel
from ._numba import INSTALL_HINT, HAVE_NUMBA
from .tables import board_from_row, board_row, catalog, covered, new_state, random_template, setup, to_actions

__all__ = ["CatanVectorEnv", "observation_size", "PHASES", "TERRAINS", "HIGH", "LOG_ROWS"]

#: The observation's phases, terrains and cap (as catan_nb.envs: the same vector).
PHASES = ("founding_settlement", "founding_road", "roll", "main", "discard", "move_robber", "road_building",
          "trade_response", "trade_confirm", "special_build", "game_over")
TERRAINS = (Terrain.FOREST, Terrain.HILLS, Terrain.PASTURE, Terrain.FIELDS, Terrain.MOUNTAINS, Terrain.DESERT)
HIGH = 1000.0
N_RES = len(RESOURCES)
#: Rows of each game's log to start with (``record=True``); the log doubles whenever a game fills it.
LOG_ROWS = 4096


def observation_size(board: Board, players: int) -> int:
    """Length of the observation vector (catan_nb.envs.observation_size)."""
    t = board.topology
    return (len(PHASES) + 2 * players + 3 * N_RES + players * 10 + N_RES + 1 + t.n_hexes * (1 + len(TERRAINS) + 2)
            + t.n_nodes * (2 * players + 6) + t.n_edges * players + 2 * N_RES + players + 1)


def _observation_layout(board: Board, players: int) -> np.ndarray:
    """Where each part of the observation starts (the kernel's OL_* order), then the phase map."""
    t, n = board.topology, players
    current = len(PHASES)
    active = current + n
    hand = active + n
    dev = hand + N_RES
    seats = dev + 10
    bank = seats + 10 * n
    hexes = bank + N_RES + 1
    nodes = hexes + 9 * t.n_hexes
    edges = nodes + (2 * n + 6) * t.n_nodes
    offer = edges + n * t.n_edges
    size = observation_size(board, n)
    phase_map = [PHASES.index(name) if name in PHASES else -1 for name in L.PHASE_NAMES]
    return np.array([current, active, hand, dev, seats, bank, hexes, nodes, edges, offer, size, *phase_map], np.int64)


def _terrain_channels(board: Board) -> np.ndarray:
    index = {x: i for i, x in enumerate(TERRAINS)}
    return np.array([index.get(h.terrain, -1) for h in board.hexes], np.int64)


class CatanVectorEnv(VectorEnv):
    """``num_envs`` games of the base game stepped together (see the module docstring).

    Parameters
    ----------
    num_envs : int
        Games stepped in each call.
    players : int
        3 to 6 (5-6 play the extension on its island).
    board : Board, optional
        A fixed board for every game; by default each game draws its own.
    rules : Rules, optional
        Options of the base game the kernel covers (:func:`catan_nb.fast.covered`).  A scenario
        board, whose file names rule modules (SF-13), is refused: :class:`catan_nb.envs.CatanEnv`
        plays it.
    max_turns : int
        Truncate a game once this many turns have begun.
    record : bool
        Keep each game's actions since its start (:meth:`game`: the engine's replay of it), however
        many: the log starts with :data:`LOG_ROWS` rows per game and doubles when a game fills it.
    copy : bool
        Return fresh arrays from :meth:`reset` and :meth:`step` (as gymnasium's vector
        environments do by default); ``False`` returns the environment's own buffers, which the
        next step overwrites (faster: copy what you keep).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, players: int = 4, board: Board | None = None, rules: Rules | None = None,
                 max_turns: int = 1000, record: bool = False, copy: bool = True):
        if not HAVE_NUMBA:
            raise ImportError(INSTALL_HINT.split(";")[0])
        if players not in (3, 4, 5, 6):
            raise ValueError(f"players must be 3 to 6, not {players!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs!r}")
        self.num_envs = int(num_envs)
        self.players = players
        self.max_turns = int(max_turns)
        layout = "five_six" if players > 4 else "base"
        self._tmpl, template = random_template(layout)
        self.fixed_board = board
        probe = board or template
        problem = covered(rules, players, board=probe)
        if problem:  # a scenario board plays its own modules (SF-13): the engine's environments do
            why = f" (the board {probe.name!r} is played with its scenario's)" if probe.scenario.get("modules") else ""
            raise ValueError(f"{problem}{why}: catan_nb.envs.CatanEnv plays every module")
        self._setup = setup(probe, players, rules)
        self.rules = self._setup.rules
        self._T = self._setup.T
        self._S = new_state(self._setup, self.num_envs)
        self._template = probe
        self._catalog = catalog(probe, players)
        self._fixed = board_row(board) if board is not None else np.zeros(0, np.int64)
        self._ol = _observation_layout(probe, players)
        size = observation_size(probe, players)
        self._terr = np.tile(_terrain_channels(probe), (self.num_envs, 1))
        n_actions = len(self._catalog)
        G = self.num_envs
        self._obs = np.zeros((G, size), np.float32)
        self._masks = np.zeros((G, n_actions), np.int8)
        self._rewards = np.zeros(G, np.float64)
        self._seat_rewards = np.zeros((G, players), np.float64)
        self._terms = np.zeros(G, np.bool_)
        self._truncs = np.zeros(G, np.bool_)
        self._acted = np.full(G, -1, np.int64)
        self._pending = np.zeros(G, np.bool_)
        self._episodes = np.zeros(G, np.int64)
        self._seeds = np.zeros(G, np.uint64)
        self._players = np.zeros(G, np.int64)
        self.copy = copy
        self._logs = np.zeros((G, LOG_ROWS if record else 0, 2), np.int32)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        })
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = batch_space(self.single_observation_space, G)
        self.action_space = batch_space(self.single_action_space, G)

    # ---------------------------------------------------------------- gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Every game afresh: game ``i`` from seed ``seed + i`` (its board too, unless fixed)."""
        super().reset(seed=seed)
        env_reset = _kernel().env_reset

        base = 0 if seed is None else int(seed)
        self._seeds[:] = (np.arange(self.num_envs, dtype=np.uint64) + np.uint64(base % 2**63))
        self._episodes[:] = 0
        self._pending[:] = False
        if self.fixed_board is not None:
            self._terr[:] = _terrain_channels(self.fixed_board)
        env_reset(self._T, self._S, self._tmpl, self._fixed, self._seeds, self._ol, self._terr, self._obs,
                  self._masks, HIGH, self._logs, self._players)
        return self._observations(), {"current_player": self._out(self._players)}

    def step(self, actions):
        """One action per game (ignored for a game that ended at the last step: it starts afresh)."""
        env_step = _kernel().env_step

        actions = np.asarray(actions, np.int64).reshape(self.num_envs)
        rows = self._logs.shape[1]
        if rows and int(self._S[:, L.SC_NLOG].max()) >= rows:  # a step records at most one action per game
            grown = np.zeros((self.num_envs, 2 * rows, 2), np.int32)
            grown[:, :rows] = self._logs
            self._logs = grown
        bad = env_step(self._T, self._S, self._tmpl, self._fixed, self._seeds, self._ol, self._terr, actions,
                       self._obs, self._masks, self._rewards, self._seat_rewards, self._terms, self._truncs,
                       self._acted, self._pending, self._episodes, self.max_turns, HIGH, self._logs, self._players)
        if bad >= 0:
            a = int(actions[bad])
            what = repr(self._catalog[a]) if 0 <= a < len(self._catalog) else "outside the action space"
            raise ValueError(f"game {bad}: action {a} ({what}) is not legal now (see its action_mask)")
        out = self._out
        infos = {"player": out(self._acted), "current_player": out(self._players), "seat_rewards": out(self._seat_rewards)}
        return self._observations(), out(self._rewards), out(self._terms), out(self._truncs), infos

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self._out(self._obs), "action_mask": self._out(self._masks)}

    # ---------------------------------------------------------------- helpers
    def action_catalog(self) -> tuple:
        """The action behind every index of the action space (catan_nb.envs.action_catalog's)."""
        return self._catalog

    def board(self, i: int) -> Board:
        """Game ``i``'s board now, as the engine's :class:`Board`."""
        if self.fixed_board is not None:
            return self.fixed_board
        T, H, N = self._T, self._setup.n_hexes, self._setup.n_nodes
        row = self._S[i]
        res = row[int(T[L.O_HEX_RESOURCE]):int(T[L.O_HEX_RESOURCE]) + H]
        tok = row[int(T[L.O_HEX_TOKEN]):int(T[L.O_HEX_TOKEN]) + H]
        harb = row[int(T[L.O_NODE_HARBOUR]):int(T[L.O_NODE_HARBOUR]) + N]
        robber = int(np.flatnonzero(res < 0)[0])  # kernel boards: the robber starts on the first desert
        return board_from_row(self._template, [*res, *tok, *harb, robber], name=f"vector-{i}")

    def game(self, i: int) -> Game:
        """Game ``i`` as the engine's :class:`Game`, replayed from its actions (needs ``record=True``)."""
        if self._logs.shape[1] == 0:
            raise ValueError("CatanVectorEnv(..., record=True) keeps the actions")
        k = int(self._S[i, L.SC_NLOG])
        board = self.board(i)
        game = Game(board, players=self.players, seed=0, rules=self.rules)
        for a in to_actions(self._logs[i, :k], board, self.players):
            game.play(a)
        return game


"""Reinforcement-learning environments over the engine: PettingZoo AEC and a Gymnasium wrapper.

Install the optional extra first: ``pip install "catan-nb[rl]"`` (PettingZoo and Gymnasium).

* :class:`CatanAECEnv` — a PettingZoo AEC environment for the base game (3-4 players) and the
  5-6 player extension: a fixed action space (every action the rules can offer on the board,
  one index each, see :meth:`CatanAECEnv.action_catalog`), an action mask, observations built
  from the acting player's :meth:`~catan_nb.rules.Game.view` (nothing hidden leaks: opponents'
  cards are counts), seeded resets (``reset(seed=s)`` plays game seed ``s`` on
  ``Board.random(seed=s)`` unless a board is given; a reset without a seed plays the next game
  drawn from the generator the last seeded reset seeded, as Gymnasium does, or from fresh
  entropy if none was), ``+1`` to the winner and ``-1`` to the others at the end, and
  ``render()`` returning the plotly board figure.
* :class:`CatanGymEnv` — a Gymnasium single-agent wrapper: one seat learns, the others are bots.

Observations are a dict ``{"observation": float32 vector, "action_mask": int8 vector}``; seats
in the vector are rotated so the observing player is always first.  An action is an integer
index into the action space (a Python or numpy integer); anything else is refused with a
``TypeError``.

Examples
--------
>>> env = CatanAECEnv(players=4)
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum()) == len(env.game.legal_actions(offers=True))
True
>>> env.step(int(obs["action_mask"].argmax()))
"""

from __future__ import annotations

import numbers

import numpy as np

from .board import Board
from .constants import N_DEV_CARDS, RESOURCES, HarbourKind, Terrain
from .errors import IllegalActionError
from .rules import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ConfirmTrade,
    DeclineTrade,
    Discard,
    EndRoadBuilding,
    EndTurn,
    Game,
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
    Rules,
)
from .rules.modules.five_six import EndSpecialBuild

try:  # the optional extra
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError('catan_nb.envs needs the optional extra: pip install "catan-nb[rl]"') from exc

__all__ = ["CatanAECEnv", "CatanGymEnv", "GYM_ID", "action_catalog", "action_index", "ansi"]

N_RES = len(RESOURCES)
TERRAINS = (Terrain.FOREST, Terrain.HILLS, Terrain.PASTURE, Terrain.FIELDS, Terrain.MOUNTAINS, Terrain.DESERT)
PHASES = ("founding_settlement", "founding_road", "roll", "main", "discard", "move_robber", "road_building",
          "trade_response", "trade_confirm", "special_build", "game_over")
HIGH = 1000.0
_PHASE_INDEX = {ph: i for i, ph in enumerate(PHASES)}
_TERRAIN_INDEX = {x: i for i, x in enumerate(TERRAINS)}
#: Observation channel of each harbour code: the five 2:1 resources, then the generic 3:1 harbour.
_HARBOUR_INDEX = {**{r: i for i, r in enumerate(RESOURCES)}, HarbourKind.GENERIC: N_RES}
#: What ``render()`` can do (see :class:`CatanAECEnv`).
RENDER_MODES = ("plotly", "ansi", "human")


def ansi(game: Game) -> str:
    """A text summary of the table: turn, phase and dice, then one line per seat (visible only).

    Examples
    --------
    >>> print(ansi(Game(Board.beginner(), players=3, seed=1)).splitlines()[0])
    turn 0 | founding_settlement | seat 0 to act | dice -
    """
    dice = "+".join(map(str, game.dice_history[-1])) if game.dice_history else "-"
    lines = [f"turn {game.turn} | {game.phase.value} | seat {game.current_player} to act | dice {dice}"]
    for p, colour in enumerate(game.colours):
        pieces = ", ".join(_count(len(game.placed[k][p]), game.kinds[k].name) for k in range(len(game.kinds))
                           if game.kinds[k] is not None and game.placed[k][p])
        lines.append(f"  {'>' if p == game.current_player else ' '} seat {p} ({colour}): {game.vp(p, visible=True)} VP, "
                     f"{_count(sum(game.hands[p]), 'card')}, "
                     f"{_count(sum(game.dev_cards(p).values()), 'development card')}{'; ' + pieces if pieces else ''}")
    if game.is_over:
        lines.append(f"  seat {game.winner} won")
    return "\n".join(lines)


def _count(n: int, name: str) -> str:
    if n == 1:
        return f"1 {name}"
    return f"{n} {name[:-1] + 'ies' if name.endswith('y') else name + 's'}"


def render(game: Game | None, mode: str | None):
    """What ``render()`` returns for ``mode`` (see :class:`CatanAECEnv`)."""
    if mode is None or game is None:
        return None
    if mode == "ansi":
        return ansi(game)
    from .viz import board_figure

    if mode == "plotly":
        return board_figure(game)
    try:  # "human": the figure in a notebook, the text elsewhere (never a browser window)
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:  # pragma: no cover - IPython comes with the notebook extras
        shell = None
    if shell is not None and shell.__class__.__name__ == "ZMQInteractiveShell":
        from IPython.display import display

        display(board_figure(game))
    else:
        print(ansi(game))
    return None


def action_index(action, size: int) -> int:
    """``action`` as an index of an action space of ``size`` actions: Python and numpy integers
    (and 0-d integer arrays) only.

    Raises
    ------
    TypeError
        For anything else (a float, a string, ``None``, a bool...), naming it.
    ValueError
        For an integer outside ``0..size-1``.

    Examples
    --------
    >>> action_index(np.int64(3), 10)
    3
    >>> action_index(2.7, 10)
    Traceback (most recent call last):
    ...
    TypeError: an action is an integer index into the action space (0..9), not float 2.7
    """
    value = action
    if isinstance(value, np.ndarray) and value.ndim == 0 and np.issubdtype(value.dtype, np.integer):
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"an action is an integer index into the action space (0..{size - 1}), "
                        f"not {type(action).__name__} {action!r}")
    index = int(value)
    if not 0 <= index < size:
        raise ValueError(f"action {index} is outside the action space (0..{size - 1})")
    return index


class _Seeder:
    """Game seeds for resets (Gymnasium's convention): ``reset(seed=s)`` plays seed ``s`` and seeds
    the generator that draws the seeds of the unseeded resets after it."""

    def __init__(self) -> None:
        self.rng: np.random.Generator | None = None

    def next(self, seed) -> int:
        if seed is not None:
            seed = int(seed)
            self.rng = np.random.default_rng(seed)
            return seed
        if self.rng is None:
            self.rng = np.random.default_rng()
        return int(self.rng.integers(2**63))


def _unit(r: int) -> tuple[int, ...]:
    return tuple(int(i == r) for i in range(N_RES))


def action_catalog(board: Board, players: int) -> tuple:
    """Every action the rules can offer on ``board`` for ``players`` seats, in a fixed order.

    Domestic offers are the one-for-one offers (``legal_actions(offers=True)``); discards go one
    card at a time; Year of Plenty lists each unordered pair once.
    """
    t = board.topology
    out: list = [EndTurn(), RollDice(), BuyDevelopmentCard(), PlayKnight(), PlayRoadBuilding(), EndRoadBuilding(),
                 AcceptTrade(), DeclineTrade(), CancelTrade()]
    if players > 4:
        out.append(EndSpecialBuild())
    out += [BuildSettlement(v) for v in range(t.n_nodes)]
    out += [BuildCity(v) for v in range(t.n_nodes)]
    out += [BuildRoad(e) for e in range(t.n_edges)]
    out += [PlayYearOfPlenty(a, b) for i, a in enumerate(RESOURCES) for b in RESOURCES[i:]]
    out += [PlayMonopoly(r) for r in RESOURCES]
    out += [MaritimeTrade(g, r) for g in RESOURCES for r in RESOURCES if g is not r]
    out += [OfferTrade(_unit(g), _unit(r)) for g in range(N_RES) for r in range(N_RES) if g != r]
    out += [Discard(_unit(r)) for r in range(N_RES)]
    out += [MoveRobber(hx) for hx in range(t.n_hexes)]
    out += [MoveRobber(hx, p) for hx in range(t.n_hexes) for p in range(players)]
    out += [ConfirmTrade(p) for p in range(players)]
    return tuple(out)


def observation_size(board: Board, players: int) -> int:
    """Length of the observation vector (see :func:`observe`)."""
    t = board.topology
    return (len(PHASES) + 2 * players + 3 * N_RES + players * 10 + N_RES + 1 + t.n_hexes * (1 + len(TERRAINS) + 2)
            + t.n_nodes * (2 * players + 6) + t.n_edges * players + 2 * N_RES + players + 1)


def observe(game: Game, player: int) -> np.ndarray:
    """The observation vector of ``player``: what ``game.view(player)`` shows, seats rotated.

    Phase, who acts and whose turn it is; own cards; per seat (from ``player``'s left) the public
    counts (cards, development cards, knights, visible VP, longest road, the two special cards,
    pieces left); the bank and the deck size; the robber; every hex's terrain, number and pips;
    every intersection's building by seat and kind and its harbour; every path's road by seat;
    the open offer and who accepted it; cards ``player`` still owes to a discard.  Only public
    counts are read of the other seats (a test redraws their hidden cards and compares).
    """
    n = game.n
    L = _layout(game)
    out = L.base(game).copy()  # harbours, terrains and numbers
    rel = [(q - player) % n for q in range(n)]
    i = _PHASE_INDEX.get(game.phase.value)
    if i is not None:
        out[i] = 1.0
    out[L.current + rel[game.current_player]] = 1.0
    out[L.active + rel[game.active_player]] = 1.0
    out[L.hand:L.hand + N_RES] = game.hands[player][:N_RES]
    out[L.dev:L.dev + N_DEV_CARDS] = list(game.dev_cards(player).values())
    out[L.dev + N_DEV_CARDS:L.dev + 2 * N_DEV_CARDS] = list(game.dev_cards(player, new=True).values())  # B-TURN-5
    lengths = game.road_lengths()
    lr, la = game.longest_road_holder, game.largest_army_holder
    placed = game.placed
    (rk, rl), (sk, sl), (ck, cl) = L.supply
    rows = []
    for k in range(n):
        q = (player + k) % n
        rows += (sum(game.hands[q]), sum(game.dev_cards(q).values()), game.knights_played(q), game.vp(q, visible=True), lengths[q],
                 lr == q, la == q, rl - len(placed[rk][q]), sl - len(placed[sk][q]), cl - len(placed[ck][q]))
    out[L.seats:L.seats + 10 * n] = rows
    out[L.bank:L.bank + N_RES] = game.bank[:N_RES]
    out[L.bank + N_RES] = game.deck_size
    out[L.hexes + 9 * game.robber] = 1.0
    ones = []  # buildings by seat and kind, roads by seat
    owner, kind, w = game.node_owner, game.node_kind, 2 * n + 6
    for v in game.occupied:
        ones.append(L.nodes + v * w + 2 * rel[owner[v]] + kind[v] - 1)
    for q in range(n):
        base = L.edges + rel[q]
        ones += [base + e * n for e in placed[rk][q]]
    out[ones] = 1.0
    if game.trade_offer:
        give, get = game.trade_offer
        out[L.offer:L.offer + N_RES] = give[:N_RES]
        out[L.offer + N_RES:L.offer + 2 * N_RES] = get[:N_RES]
    for q in game.trade_partners:
        out[L.offer + 2 * N_RES + rel[q]] = 1.0
    out[-1] = game.discards_owed().get(player, 0)
    return out


class _Layout:
    """Where each part of the observation vector starts, and its parts fixed by board and rules."""

    def __init__(self, game: Game):
        t, n = game.topology, game.n
        self.topology, self.n, self.kinds = t, n, game.kinds
        self.size = observation_size(game.board, n)
        self.current = len(PHASES)
        self.active = self.current + n
        self.hand = self.active + n
        self.dev = self.hand + N_RES
        self.seats = self.dev + 2 * N_DEV_CARDS
        self.bank = self.seats + 10 * n
        self.hexes = self.bank + N_RES + 1
        self.nodes = self.hexes + 9 * t.n_hexes
        self.edges = self.nodes + (2 * n + 6) * t.n_nodes
        self.offer = self.edges + n * t.n_edges
        self.supply = tuple((game.kind_id[name], game.kinds[game.kind_id[name]].limit)
                            for name in ("road", "settlement", "city"))
        self._bases: dict[tuple, np.ndarray] = {}

    def base(self, game: Game) -> np.ndarray:
        """The parts fixed by the board now: harbours, and each hex's terrain, number and pips."""
        key = (tuple(game.hex_terrain), tuple(game.hex_token))
        out = self._bases.get(key)
        if out is None:
            t, n = self.topology, self.n
            out = np.zeros(self.size, dtype=np.float32)
            hexes = out[self.hexes:self.nodes].reshape(-1, 9)
            for hx, (terrain, tok) in enumerate(zip(*key)):
                if terrain in _TERRAIN_INDEX:
                    hexes[hx, 1 + _TERRAIN_INDEX[terrain]] = 1.0
                hexes[hx, 7:] = tok, (6 - abs(7 - tok) if tok else 0)
            nodes = out[self.nodes:self.edges].reshape(-1, 2 * n + 6)
            for v in range(t.n_nodes):
                hb = t.node_harbour[v]
                if hb is not None:
                    nodes[v, 2 * n + _HARBOUR_INDEX[hb]] = 1.0
            if len(self._bases) > 64:
                self._bases.clear()
            self._bases[key] = out
        return out


_LAYOUTS: dict[tuple[int, int], _Layout] = {}


def _layout(game: Game) -> _Layout:
    key = (id(game.topology), game.n)
    hit = _LAYOUTS.get(key)
    if hit is None or hit.topology is not game.topology or hit.kinds != game.kinds:
        if len(_LAYOUTS) > 256:
            _LAYOUTS.clear()
        hit = _LAYOUTS[key] = _Layout(game)
    return hit


class CatanAECEnv(AECEnv):
    """A PettingZoo AEC environment over :class:`~catan_nb.rules.Game` (see the module docstring).

    Parameters
    ----------
    players : int
        3 to 6 (5-6 play the extension on the 30-hex island).
    board : Board, optional
        A fixed board; by default each reset plays on ``Board.random(seed=seed)``.
    rules : Rules, optional
        Rule options (Friends and Helpers are not supported by the fixed action space).
    max_turns : int
        Truncate a game after this many turns.
    render_mode : {"plotly", "ansi", "human", None}
        ``render()`` returns the plotly board figure (``"plotly"``), a text summary of the table
        (``"ansi"``: turn, phase, dice, and per seat the visible VP, card counts and pieces), or
        shows the board and returns ``None`` (``"human"``: the figure in a notebook, the text
        elsewhere).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "catan_nb_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, players: int = 4, board: Board | None = None, rules: Rules | None = None,
                 max_turns: int = 1000, render_mode: str | None = None):
        super().__init__()
        if players not in (3, 4, 5, 6):
            raise ValueError(f"players must be 3 to 6, not {players!r}")
        rules = rules or Rules()
        if any(m not in ("five_six",) for m in rules.modules):
            raise ValueError(f"the fixed action space covers the base game and 5-6 players, not {rules.modules}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, not {render_mode!r}")
        self.players = players
        self.fixed_board = board
        self.rules = rules
        self.max_turns = int(max_turns)
        self.render_mode = render_mode
        self.layout = "five_six" if players > 4 else "base"
        probe = board or Board.random(seed=0, layout=self.layout)
        self._catalog = action_catalog(probe, players)
        self._index = {a: i for i, a in enumerate(self._catalog)}
        size = observation_size(probe, players)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self._catalog),), np.int8),
        })
        self._act_space = spaces.Discrete(len(self._catalog))
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self.game: Game | None = None
        self._seeder = _Seeder()

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def action_catalog(self) -> tuple:
        """The action behind every index of the action space."""
        return self._catalog

    def action_index(self, action) -> int:
        """The index of an engine action in the action space."""
        return self._index[action]

    # ---------------------------------------------------------------- AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: game seed ``seed``, or, without one, the next seed of the generator that the
        last seeded reset seeded (fresh entropy if there was none)."""
        seed = self._seeder.next(seed)
        board = self.fixed_board or Board.random(seed=seed, layout=self.layout)
        self.game = Game(board, players=self.players, seed=seed, rules=self.rules)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.possible_agents.index(agent)
        mask = np.zeros(len(self._catalog), dtype=np.int8)
        g = self.game
        if g is not None and not g.is_over and g.current_player == p:
            for a in g.legal_actions(offers=True):
                mask[self._index[a]] = 1
        return {"observation": np.minimum(observe(g, p), HIGH), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        index = action_index(action, len(self._catalog))
        try:
            g.play(self._catalog[index])
        except IllegalActionError as exc:
            raise ValueError(f"action {index} ({self._catalog[index]!r}) is not legal now: {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if g.is_over:
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 if p == g.winner else -1.0
                self.terminations[a] = True
        elif g.turn >= self.max_turns:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        if g.is_over or g.turn >= self.max_turns:
            self.agent_selection = self.agents[0] if self.agents else agent
            return
        self.agent_selection = self.possible_agents[g.current_player]

    def _was_dead_step(self, action) -> None:
        super()._was_dead_step(action)
        if self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        """Render in :attr:`render_mode`: the plotly figure, the text summary, or show it (``None``)."""
        return render(self.game, self.render_mode)

    def close(self) -> None:
        self.game = None


class CatanGymEnv(gymnasium.Env):
    """A Gymnasium single-agent environment: one seat learns, the other seats are bots.

    Parameters
    ----------
    seat : int
        The learning seat.
    opponents : sequence of bots, optional
        Objects with ``choose(game)`` (see :mod:`catan_nb.analysis.bots`), one per other seat;
        by default :class:`~catan_nb.analysis.WeightedBot`.
    players, board, rules, max_turns, render_mode
        As for :class:`CatanAECEnv`.
    illegal_penalty : float
        An action outside the mask (or outside the action space) changes nothing and earns this
        reward, with ``info["illegal_action"]`` giving the reason (the action and the rule that
        refuses it); after ``max_illegal`` of them in a row the episode is truncated.  Mask your
        actions (``obs["action_mask"]``) and this never happens.  A value that is not an integer
        is no action at all: it raises ``TypeError``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, seat: int = 0, opponents=None, players: int = 4, board: Board | None = None,
                 rules: Rules | None = None, max_turns: int = 1000, render_mode: str | None = None,
                 illegal_penalty: float = -0.01, max_illegal: int = 100):
        super().__init__()
        self.illegal_penalty = float(illegal_penalty)
        self.max_illegal = int(max_illegal)
        self._illegal = 0
        self.aec = CatanAECEnv(players, board, rules, max_turns, render_mode)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1}, not {seat!r}")
        self.seat = seat
        self._opponents = opponents
        self.render_mode = render_mode
        agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = self.aec.action_space(agent)
        self.bots: list = []

    def _make_bots(self, seed: int) -> list:
        from .analysis import WeightedBot

        if self._opponents is not None:
            bots = list(self._opponents)
            if len(bots) != self.aec.players - 1:
                raise ValueError(f"{self.aec.players - 1} opponents needed, got {len(bots)}")
        else:
            bots = [WeightedBot(seed * 31 + i) for i in range(self.aec.players - 1)]
        out = []
        for p in range(self.aec.players):
            out.append(None if p == self.seat else bots.pop(0))
        return out

    def _advance(self) -> float:
        """Let the bots play until the learning seat must act or the game ends; the seat's reward."""
        g = self.aec.game
        while not g.is_over and g.turn < self.aec.max_turns and g.current_player != self.seat:
            g.play(self.bots[g.current_player].choose(g))
        if g.is_over:
            return 1.0 if g.winner == self.seat else -1.0
        return 0.0

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game: game seed ``seed``, or, without one, the next seed drawn from
        ``self.np_random`` (seeded by the last seeded reset, as Gymnasium's convention is)."""
        super().reset(seed=seed)
        seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        self.aec.reset(seed=seed)
        self._illegal = 0
        self.bots = self._make_bots(seed)
        self._advance()
        return self.aec.observe(self.aec.possible_agents[self.seat]), {}

    def step(self, action):
        """Play action ``action`` (an index of the action space) for the learning seat, then let the
        bots play until the seat must act again or the game ends.

        Returns
        -------
        tuple
            ``(observation, reward, terminated, truncated, info)``; an illegal or out-of-range
            index changes nothing, earns ``illegal_penalty`` and says why in ``info["illegal_action"]``.

        Raises
        ------
        TypeError
            For an action that is not an integer (a float, a string, ``None``...).
        """
        g = self.aec.game
        catalog = self.aec.action_catalog()
        reason = None
        try:
            index = action_index(action, len(catalog))  # a TypeError for a non-integer escapes
        except ValueError as exc:  # outside the action space
            reason = str(exc)
        else:
            try:
                g.play(catalog[index])
            except IllegalActionError as exc:
                reason = f"action {index} ({catalog[index]!r}) is not legal now: {exc}"
        if reason is not None:
            self._illegal += 1
            obs = self.aec.observe(self.aec.possible_agents[self.seat])
            return obs, self.illegal_penalty, False, self._illegal >= self.max_illegal, {"illegal_action": reason}
        self._illegal = 0
        reward = 1.0 if g.is_over and g.winner == self.seat else (-1.0 if g.is_over else self._advance())
        terminated = g.is_over
        truncated = not terminated and g.turn >= self.aec.max_turns
        obs = self.aec.observe(self.aec.possible_agents[self.seat])
        return obs, reward, terminated, truncated, {}

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


#: ``gymnasium.make(GYM_ID, ...)`` builds a :class:`CatanGymEnv` (keyword arguments as its own).
GYM_ID = "catan_nb/Catan-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="catan_nb.envs:CatanGymEnv")

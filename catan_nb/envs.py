"""Reinforcement-learning environments over the engine: PettingZoo AEC and a Gymnasium wrapper.

Install the optional extra first: ``pip install "catan-nb[rl]"`` (PettingZoo and Gymnasium).

* :class:`CatanAECEnv` — a PettingZoo AEC environment for the base game (3-4 players) and the
  5-6 player extension: a fixed action space (every action the rules can offer on the board,
  one index each, see :meth:`CatanAECEnv.action_catalog`), an action mask, observations built
  from the acting player's :meth:`~catan_nb.rules.Game.view` (nothing hidden leaks: opponents'
  cards are counts), seeded resets (``reset(seed=s)`` plays on ``Board.random(seed=s)`` unless a
  board is given), ``+1`` to the winner and ``-1`` to the others at the end, and ``render()``
  returning the plotly board figure.
* :class:`CatanGymEnv` — a Gymnasium single-agent wrapper: one seat learns, the others are bots.

Observations are a dict ``{"observation": float32 vector, "action_mask": int8 vector}``; seats
in the vector are rotated so the observing player is always first.

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


import numpy as np

from .board import Board
from .constants import RESOURCES, DevCard, Terrain
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

__all__ = ["CatanAECEnv", "CatanGymEnv", "GYM_ID", "action_catalog", "ansi"]

N_RES = len(RESOURCES)
TERRAINS = (Terrain.FOREST, Terrain.HILLS, Terrain.PASTURE, Terrain.FIELDS, Terrain.MOUNTAINS, Terrain.DESERT)
PHASES = ("founding_settlement", "founding_road", "roll", "main", "discard", "move_robber", "road_building",
          "trade_response", "trade_confirm", "special_build", "game_over")
HIGH = 1000.0
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
                     f"{_count(sum(game.dev[p]) if game.dev else 0, 'development card')}{'; ' + pieces if pieces else ''}")
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
    """The observation vector of ``player``: built from ``game.view(player)`` only, seats rotated.

    Phase, who acts and whose turn it is; own cards; per seat (from ``player``'s left) the public
    counts (cards, development cards, knights, visible VP, longest road, the two special cards,
    pieces left); the bank and the deck size; the robber; every hex's terrain, number and pips;
    every intersection's building by seat and kind and its harbour; every path's road by seat;
    the open offer and who accepted it; cards ``player`` still owes to a discard.
    """
    v = game.view(player)
    n = game.n
    t = game.topology
    rel = [(q - player) % n for q in range(n)]
    parts: list[float] = []
    parts += [float(v.phase.value == ph) for ph in PHASES]
    parts += [float(rel[v.current_player] == i) for i in range(n)]
    parts += [float(rel[v.active_player] == i) for i in range(n)]
    parts += [float(v.hand[r]) for r in RESOURCES]
    parts += [float(v.dev_cards[c]) for c in DevCard]
    parts += [float(k) for k in game.dev_new[player]]  # own cards bought this turn (B-TURN-5)
    order = [(player + i) % n for i in range(n)]
    left = [game.pieces_left(q) for q in order]
    for i, q in enumerate(order):
        parts += [float(v.resource_counts[q]), float(v.dev_counts[q]), float(v.played_knights[q]),
                  float(v.visible_vp[q]), float(v.road_lengths[q]), float(v.longest_road == q),
                  float(v.largest_army == q), float(left[i]["road"]), float(left[i]["settlement"]),
                  float(left[i]["city"])]
    parts += [float(v.bank[r]) for r in RESOURCES]
    parts.append(float(v.deck_size))
    for hx in range(t.n_hexes):
        terrain = game.hex_terrain[hx]
        tok = game.hex_token[hx]
        parts.append(float(v.robber == hx))
        parts += [float(terrain is x) for x in TERRAINS]
        parts += [float(tok), float(6 - abs(7 - tok) if tok else 0)]
    for node in range(t.n_nodes):
        b = v.buildings.get(node)
        cell = [0.0] * (2 * n)
        if b is not None:
            cell[2 * rel[b[0]] + (b[1].value - 1)] = 1.0
        parts += cell
        hb = t.node_harbour[node]
        parts += [float(hb == code) for code in range(6)]
    for e in range(t.n_edges):
        o = v.roads.get(e)
        parts += [float(o is not None and rel[o] == i) for i in range(n)]
    offer = v.trade_offer or ((0,) * N_RES, (0,) * N_RES)
    parts += [float(x) for x in offer[0][:N_RES]] + [float(x) for x in offer[1][:N_RES]]
    accepted = set(game.trade_partners)
    parts += [float(order[i] in accepted) for i in range(n)]
    parts.append(float(game.discards_owed().get(player, 0)))
    return np.asarray(parts, dtype=np.float32)


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
        seed = 0 if seed is None else int(seed)
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
        index = int(action)
        if not 0 <= index < len(self._catalog):
            raise ValueError(f"action {action!r} is outside the action space (0..{len(self._catalog) - 1})")
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
        An action outside the mask changes nothing and earns this reward, with
        ``info["illegal_action"]`` set; after ``max_illegal`` of them in a row the episode is
        truncated.  Mask your actions (``obs["action_mask"]``) and this never happens.
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
        super().reset(seed=seed)
        seed = 0 if seed is None else int(seed)
        self.aec.reset(seed=seed)
        self._illegal = 0
        self.bots = self._make_bots(seed)
        self._advance()
        return self.aec.observe(self.aec.possible_agents[self.seat]), {}

    def step(self, action):
        g = self.aec.game
        index = int(action)
        catalog = self.aec.action_catalog()
        try:
            if not 0 <= index < len(catalog):
                raise IndexError(index)
            g.play(catalog[index])
        except (IndexError, IllegalActionError) as exc:
            self._illegal += 1
            obs = self.aec.observe(self.aec.possible_agents[self.seat])
            return obs, self.illegal_penalty, False, self._illegal >= self.max_illegal, {"illegal_action": str(exc)}
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

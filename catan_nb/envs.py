"""Reinforcement-learning environments over the engine: PettingZoo AEC and a Gymnasium wrapper.

Install the optional extra first: ``pip install "catan-nb[rl]"`` (PettingZoo and Gymnasium).

* :class:`CatanAECEnv` — a PettingZoo AEC environment for the base game (3-4 players), the
  5-6 player extension and every rule module (Seafarers and its scenarios, Cities & Knights,
  Friends, Helpers, a module of your own): a fixed action space (every action the rules and
  the modules in play can offer on the board, one index each, see :func:`game_catalog`, then
  *open slots* for the legal actions a catalogue cannot list), an action mask equal to the
  legal actions, observations built
  from the acting player's :meth:`~catan_nb.rules.Game.view` (nothing hidden leaks: opponents'
  cards are counts), seeded resets (``reset(seed=s)`` plays game seed ``s`` on
  ``Board.random(seed=s)`` unless a board is given; a reset without a seed plays the next game
  drawn from the generator the last seeded reset seeded, as Gymnasium does, or from fresh
  entropy if none was), ``+1`` to the winner and ``-1`` to the others at the end, and
  ``render()`` returning the plotly board figure.
* :class:`CatanGymEnv` — a Gymnasium single-agent wrapper: one seat learns, the others are bots.

Observations are a dict ``{"observation": float32 vector, "action_mask": int8 vector}``; seats
in the vector are rotated so the observing player is always first.  The vector is
:func:`observe`'s, then, with modules, their part: their phases, goods (own hand, bank, offer),
pieces (by seat, and pieces left), terrains and harbours, the numbers of each module's public
view (``Module.view``, the first ``view_size``), and the class of the action in each open slot.

How a module's action class is catalogued: its fields are listed over the board when every
field can be (an ``int`` field named as an intersection, ``node``/``from_node``/``to_node``, a
path, ``path``/``from_path``/``to_path``/``source``/``target``, a hex, ``hex``/``from_hex``/
``to_hex``/``desert``, or a seat, ``victim``/``partner``/``to``; goods, enums, booleans; counts
per good as one of a good; an optional outcome as ``None``) and it has at most
:data:`CLASS_CAP` instances; its other legal actions take the open slots.  An action is an integer
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

import dataclasses
import functools
import itertools
import numbers
import types
import typing
from enum import Enum

import numpy as np

from .board import Board
from .constants import N_DEV_CARDS, RESOURCES, Good, HarbourKind, Terrain
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
from .rules.phase import Phase

try:  # the optional extra
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError('catan_nb.envs needs the optional extra: pip install "catan-nb[rl]"') from exc

__all__ = ["CatanAECEnv", "CatanGymEnv", "GYM_ID", "action_catalog", "game_catalog", "action_index", "ansi",
           "game_classes", "observe", "observation_size", "COVERED", "CLASS_CAP", "OPEN_SLOTS", "VIEW_SIZE"]

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
#: Optional modules the base catalogue covers exactly: with no others, the action space has no open slots.
COVERED = frozenset({"five_six"})
#: An action field with one of these names is an intersection, a path, a hex or a seat (the
#: engine's naming of fields, which the catalogue of a module's actions relies on).
NODE_FIELDS = frozenset({"node", "from_node", "to_node"})
PATH_FIELDS = frozenset({"path", "from_path", "to_path", "source", "target"})
HEX_FIELDS = frozenset({"hex", "to_hex", "from_hex", "desert"})
SEAT_FIELDS = frozenset({"victim", "partner", "to"})
#: A module's action class with more instances than this on the board is left out of the
#: catalogue: its legal actions take open slots.
CLASS_CAP = 20000
#: Open slots of the action space by default when modules other than :data:`COVERED` are in play.
OPEN_SLOTS = 256
#: Numbers of each module's public view in the observation (the first ones; zeros after).
VIEW_SIZE = 64


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


def _unit(r: int, width: int = N_RES) -> tuple[int, ...]:
    return tuple(int(i == r) for i in range(width))


#: The action classes :func:`action_catalog` lists (its fields over their whole domains).
_BASE_CLASSES = frozenset({
    EndTurn, RollDice, BuyDevelopmentCard, PlayKnight, PlayRoadBuilding, EndRoadBuilding, AcceptTrade, DeclineTrade,
    CancelTrade, EndSpecialBuild, BuildSettlement, BuildCity, BuildRoad, PlayYearOfPlenty, PlayMonopoly,
    MaritimeTrade, OfferTrade, Discard, MoveRobber, ConfirmTrade,
})


def action_catalog(board: Board, players: int, goods: tuple = RESOURCES) -> tuple:
    """Every action the base game's rules can offer on ``board`` for ``players`` seats, in a fixed order.

    Domestic offers are the one-for-one offers (``legal_actions(offers=True)``); discards go one
    card at a time; Year of Plenty lists each unordered pair once.  ``goods``: the goods of the
    game (``game.goods``; a module may add some), which bank trades, Monopoly, offers and
    discards range over.  See :func:`game_catalog` for the actions of the modules in play.
    """
    t = board.topology
    G = len(goods)
    out: list = [EndTurn(), RollDice(), BuyDevelopmentCard(), PlayKnight(), PlayRoadBuilding(), EndRoadBuilding(),
                 AcceptTrade(), DeclineTrade(), CancelTrade()]
    if players > 4:
        out.append(EndSpecialBuild())
    out += [BuildSettlement(v) for v in range(t.n_nodes)]
    out += [BuildCity(v) for v in range(t.n_nodes)]
    out += [BuildRoad(e) for e in range(t.n_edges)]
    out += [PlayYearOfPlenty(a, b) for i, a in enumerate(RESOURCES) for b in RESOURCES[i:]]
    out += [PlayMonopoly(r) for r in goods]
    out += [MaritimeTrade(g, r) for g in goods for r in goods if g is not r]
    out += [OfferTrade(_unit(g, G), _unit(r, G)) for g in range(G) for r in range(G) if g != r]
    out += [Discard(_unit(r, G)) for r in range(G)]
    out += [MoveRobber(hx) for hx in range(t.n_hexes)]
    out += [MoveRobber(hx, p) for hx in range(t.n_hexes) for p in range(players)]
    out += [ConfirmTrade(p) for p in range(players)]
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> tuple:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def _field_domain(game: Game, name: str, hint) -> list | None:
    """Every value of one action field on this game's board, or ``None`` if it cannot be listed.

    Intersections, paths, hexes and seats by the field's name (:data:`NODE_FIELDS`...), goods
    (the game's goods of the field's kind), enums, booleans, counts per good (one of a good); an
    optional field that cannot be listed is ``None`` only (an outcome left to chance)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint) if origin in (typing.Union, types.UnionType) else (hint,)
    extra = [None] if type(None) in args else []
    kinds = [a for a in args if a is not type(None)]
    if len(kinds) != 1:
        return extra or None
    a = kinds[0]
    t = game.topology
    if a is int:
        for names, size in ((NODE_FIELDS, t.n_nodes), (PATH_FIELDS, t.n_edges), (HEX_FIELDS, t.n_hexes),
                            (SEAT_FIELDS, game.n)):
            if name in names:
                return list(range(size)) + extra
        return extra or None
    if a is bool:
        return [False, True] + extra
    if isinstance(a, type) and issubclass(a, Good):
        return [g for g in game.goods if isinstance(g, a)] + extra
    if isinstance(a, type) and issubclass(a, Enum):
        return list(a) + extra
    if a is tuple:
        return [_unit(g, game.n_goods) for g in range(game.n_goods)] + extra
    return extra or None


def game_classes(game: Game) -> tuple[type, ...]:
    """The action classes ``game`` plays: the base game's, then each module's, in a fixed order."""
    out: dict[type, None] = dict.fromkeys(sorted(_BASE_CLASSES, key=lambda c: c.__name__))
    for m in game.modules:
        out.update(dict.fromkeys(sorted(m.actions, key=lambda c: c.__name__)))
    return tuple(out)


def game_catalog(game: Game, cap: int = CLASS_CAP) -> tuple:
    """The action catalogue of ``game``'s board, seats and modules: :func:`action_catalog` over the
    game's goods, then every instance of each module action class whose fields can all be listed
    (see the module docstring) and that has at most ``cap`` of them.  A legal action outside it (a
    field that cannot be listed, a class too large) takes an open slot of the environments."""
    out = list(action_catalog(game.board, game.n, game.goods))
    known = set(out)
    for cls in game_classes(game):
        if cls in _BASE_CLASSES:
            continue
        hints = _hints(cls)
        domains = [_field_domain(game, name, hint) for name, hint in hints]
        if any(d is None for d in domains) or np.prod([len(d) for d in domains], dtype=float) > cap:
            continue
        names = [name for name, _ in hints]
        for combo in itertools.product(*domains):
            try:
                a = cls(**dict(zip(names, combo)))
            except Exception:  # a constructor refusing a combination: never legal
                continue
            if a not in known:
                known.add(a)
                out.append(a)
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
    out[L.dev:L.dev + N_DEV_CARDS] = game.dev_counts(player)
    out[L.dev + N_DEV_CARDS:L.dev + 2 * N_DEV_CARDS] = game.dev_counts(player, new=True)  # B-TURN-5
    lengths = game.road_lengths()
    lr, la = game.longest_road_holder, game.largest_army_holder
    placed = game.placed
    (rk, rl), (sk, sl), (ck, cl) = L.supply
    none = ((),) * n  # a kind the game does not have: nothing placed
    pr, ps, pc = (placed[k] if k is not None else none for k in (rk, sk, ck))
    rows = []
    for k in range(n):
        q = (player + k) % n
        rows += (sum(game.hands[q]), sum(game.dev_counts(q)), game.knights_played(q), game.vp(q, visible=True),
                 lengths[q], lr == q, la == q, rl - len(pr[q]), sl - len(ps[q]), cl - len(pc[q]))
    out[L.seats:L.seats + 10 * n] = rows
    out[L.bank:L.bank + N_RES] = game.bank[:N_RES]
    out[L.bank + N_RES] = game.deck_size
    if game.robber is not None:
        out[L.hexes + 9 * game.robber] = 1.0
    ones = []  # settlements and cities by seat, roads by seat
    w = 2 * n + 6
    for q in range(n):
        at = L.nodes + 2 * rel[q]
        ones += [at + v * w for v in ps[q]]
        ones += [at + 1 + v * w for v in pc[q]]
        base = L.edges + rel[q]
        ones += [base + e * n for e in pr[q]]
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
        self.supply = tuple((game.kind_id[name], game.kinds[game.kind_id[name]].limit) if name in game.kind_id
                            else (None, 0) for name in ("road", "settlement", "city"))
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
                i = _HARBOUR_INDEX.get(t.node_harbour[v])
                if i is not None:  # a harbour of a module's good: in the modules' part
                    nodes[v, 2 * n + i] = 1.0
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


def _flatten(x, out: list, limit: int) -> None:
    """Numbers of plain data in a fixed order (dict keys sorted): booleans and ``None`` as 0/1,
    an enum as its value, anything else (a name) as 1."""
    if len(out) >= limit:
        return
    if x is None:
        out.append(0.0)
    elif isinstance(x, Enum):
        out.append(float(x.value) if isinstance(x.value, (int, float)) else 1.0)
    elif isinstance(x, (bool, int, float, np.integer, np.floating)):
        out.append(float(x))
    elif isinstance(x, dict):
        for k in sorted(x, key=repr):
            _flatten(x[k], out, limit)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _flatten(v, out, limit)
    elif isinstance(x, (set, frozenset)):
        for v in sorted(x, key=repr):
            _flatten(v, out, limit)
    else:
        out.append(1.0)


class _Modules:
    """The observation's part for the modules in play, and the action space's open slots.

    Empty for the base game and the 5-6 player extension (their observation is :func:`observe`'s)."""

    def __init__(self, game: Game, open_slots: int, view_size: int, covered: bool = False):
        t, n = game.topology, game.n
        names = {m.name for m in game.modules}
        self.n, self.open_slots, self.view_size = n, open_slots, view_size
        self.phases = {v: i for i, v in enumerate(sorted(
            ph.value for ph in Phase.registered()
            if (ph.owner == "base" or ph.owner in names) and ph.value not in _PHASE_INDEX
            and ph.step is None))}  # a phase that runs itself is never observed
        self.goods = tuple(game.goods[N_RES:])
        self.good_index = {g: i for i, g in enumerate(self.goods)}
        self.kinds = tuple((game.kind_id[k.name], k.limit, t.n_nodes if k.site == "node" else t.n_edges)
                           for k in game.kinds if k is not None and k.name not in ("road", "settlement", "city"))
        self.terrains = {x: i for i, x in enumerate(x for x in Terrain if x not in TERRAINS)}
        self.views = tuple(m for m in game.modules if m.overrides("view"))
        self.classes = {c: i + 1 for i, c in enumerate(game_classes(game))}
        E = len(self.goods)
        self.size = (len(self.phases) + 4 * E + sum(sites * n + n for _, _, sites in self.kinds)
                     + t.n_hexes * len(self.terrains) + t.n_nodes * E + len(self.views) * view_size + open_slots)
        if covered:  # the base game and the 5-6 extension: observe() is the whole observation
            self.size = 0

    def observe(self, game: Game, player: int, open_actions: list) -> np.ndarray:
        """The modules' part of ``player``'s observation (public information and ``player``'s own)."""
        out = np.zeros(self.size, dtype=np.float32)
        if not self.size:
            return out
        n, t = self.n, game.topology
        rel = [(q - player) % n for q in range(n)]
        i = self.phases.get(game.phase.value)
        if i is not None:
            out[i] = 1.0
        at = len(self.phases)
        E = len(self.goods)
        if E:
            out[at:at + E] = game.hands[player][N_RES:]
            out[at + E:at + 2 * E] = game.bank[N_RES:]
            if game.trade_offer:
                give, get = game.trade_offer
                out[at + 2 * E:at + 3 * E] = give[N_RES:]
                out[at + 3 * E:at + 4 * E] = get[N_RES:]
        at += 4 * E
        placed = game.placed
        for k, limit, sites in self.kinds:  # each module piece by seat, and pieces left
            for q in range(n):
                sel = [at + s * n + rel[q] for s in placed[k][q]]
                out[sel] = 1.0
                out[at + sites * n + rel[q]] = limit - len(placed[k][q])
            at += sites * n + n
        if self.terrains:
            width = len(self.terrains)
            for hx, terrain in enumerate(game.hex_terrain):
                j = self.terrains.get(terrain)
                if j is not None:
                    out[at + hx * width + j] = 1.0
            at += t.n_hexes * width
        if E:
            for v, hb in enumerate(t.node_harbour):
                j = self.good_index.get(hb)
                if j is not None:
                    out[at + v * E + j] = 1.0
            at += t.n_nodes * E
        for m in self.views:  # what each module lets the player see of its state
            nums: list = []
            _flatten(m.view(game, player), nums, self.view_size)
            out[at:at + len(nums)] = nums
            at += self.view_size
        out[at:at + len(open_actions)] = [self.classes.get(type(a), 0) for a in open_actions]
        return out


class CatanAECEnv(AECEnv):
    """A PettingZoo AEC environment over :class:`~catan_nb.rules.Game` (see the module docstring).

    Every rule module may be played: the action space is the catalogue of the base game's actions
    over the game's goods and every listable action of the modules in play (:func:`game_catalog`),
    then ``open_slots`` *open slots*: the legal actions outside the catalogue (a module action
    with a field that cannot be listed, such as a progress card's name or a set of swaps, or a
    class with too many instances), in the order ``legal_actions`` lists them; the observation
    gives the class of the action in each open slot.  The mask is exactly the legal actions.
    The base game and the 5-6 player extension need no open slots and have none.

    Parameters
    ----------
    players : int
        3 to 6 (5-6 play the extension on the 30-hex island).
    board : Board or callable, optional
        A fixed board, or ``board(seed)`` giving the board of each game (a scenario's boards; they
        must all have the same intersections, paths and hexes); by default each reset plays on
        ``Board.random(seed=seed)``.
    rules : Rules, optional
        Rule options and modules (Seafarers and its scenarios need a board of theirs).  By default
        the board's own (:meth:`Rules.for_board <catan_nb.rules.Rules.for_board>`: the modules a
        scenario board's file names, SF-13; the first game's board for a callable); rules given
        must hold them.
    max_turns : int
        Truncate a game after this many turns.
    render_mode : {"plotly", "ansi", "human", None}
        ``render()`` returns the plotly board figure (``"plotly"``), a text summary of the table
        (``"ansi"``: turn, phase, dice, and per seat the visible VP, card counts and pieces), or
        shows the board and returns ``None`` (``"human"``: the figure in a notebook, the text
        elsewhere).
    max_cycles : int, optional
        Truncate a game after ``max_cycles * players`` actions (a cycle: each seat acting once,
        on average), besides ``max_turns``.
    start : {"founding", "beginner"}
        How the game begins (``"beginner"`` needs the beginner board).
    open_slots : int, optional
        Open slots of the action space (default :data:`OPEN_SLOTS` with modules other than
        :data:`COVERED`, else 0).  A position with more legal actions outside the catalogue
        raises ``RuntimeError``.
    view_size : int
        Numbers of each module's public view (``Module.view``) in the observation.

    Notes
    -----
    ``metadata["is_parallelizable"]`` is ``False``: the seats do not act simultaneously (one
    decision at a time, some out of turn: discards, trade answers), so the environment cannot be
    converted to PettingZoo's parallel API.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "catan_nb_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, players: int = 4, board=None, rules: Rules | None = None,
                 max_turns: int = 1000, render_mode: str | None = None, *, max_cycles: int | None = None,
                 start: str = "founding", open_slots: int | None = None, view_size: int = VIEW_SIZE):
        super().__init__()
        if players not in (3, 4, 5, 6):
            raise ValueError(f"players must be 3 to 6, not {players!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, not {render_mode!r}")
        if max_cycles is not None and int(max_cycles) < 1:
            raise ValueError(f"max_cycles must be a positive number of cycles or None, not {max_cycles!r}")
        self.players = players
        self.fixed_board = board
        self.layout = "five_six" if players > 4 else "base"
        first = self._board(0)
        rules = Rules.for_game(first, rules, players)  # a scenario board's own modules (SF-13, SC-13)
        self.rules = rules
        self.start = start
        self.max_turns = int(max_turns)
        self.max_cycles = None if max_cycles is None else int(max_cycles)
        self.render_mode = render_mode
        covered = set(rules.modules) <= COVERED
        self.open_slots = int(open_slots) if open_slots is not None else (0 if covered else OPEN_SLOTS)
        probe = Game(first, players=players, seed=0, rules=rules, start=start)
        self._shape = self._shape_of(probe.board)
        self._catalog = game_catalog(probe)
        self._index = {a: i for i, a in enumerate(self._catalog)}
        self._modules = _Modules(probe, self.open_slots, int(view_size), covered and not self.open_slots)
        self._base_size = observation_size(probe.board, players)
        size = self._base_size + self._modules.size
        self._n_actions = len(self._catalog) + self.open_slots
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self._n_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(self._n_actions)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self.game: Game | None = None
        self._seeder = _Seeder()
        self._actions0 = 0

    def _board(self, seed: int) -> Board:
        b = self.fixed_board
        if b is None:
            return Board.random(seed=seed, layout=self.layout)
        return b(seed) if callable(b) else b

    @staticmethod
    def _shape_of(board: Board) -> tuple[int, int, int]:
        t = board.topology
        return t.n_nodes, t.n_edges, t.n_hexes

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def action_catalog(self) -> tuple:
        """The action behind every catalogued index of the action space (the open slots follow)."""
        return self._catalog

    def action_index(self, action) -> int:
        """The index of an engine action in the catalogue (``KeyError`` for one in an open slot)."""
        return self._index[action]

    def legal_indices(self, game: Game | None = None) -> dict[int, object]:
        """The legal actions of ``game`` (default: the current game) by index of the action space:
        the catalogued ones, then the others in the open slots.

        Raises
        ------
        RuntimeError
            When more legal actions fall outside the catalogue than there are open slots.
        """
        g = self.game if game is None else game
        out: dict[int, object] = {}
        if g is None or g.is_over:
            return out
        index, k, base = self._index, 0, len(self._catalog)
        legal = g.legal_actions(offers=True)
        try:  # the usual case: every legal action catalogued
            return {index[a]: a for a in legal}
        except KeyError:
            pass
        for a in legal:
            i = index.get(a)
            if i is None:
                if k >= self.open_slots:
                    raise RuntimeError(
                        f"{a!r} is legal but not in the action catalogue, and the {self.open_slots} open slots "
                        f"are taken (give the environment more: open_slots=...)")
                i = base + k
                k += 1
            out[i] = a
        return out

    def truncated(self, game: Game | None = None) -> bool:
        """Whether the game has run out of turns (``max_turns``) or of cycles (``max_cycles``)."""
        g = self.game if game is None else game
        if g is None or g.is_over:
            return False
        if g.turn >= self.max_turns:
            return True
        return self.max_cycles is not None and len(g.log) - self._actions0 >= self.max_cycles * self.players

    # ---------------------------------------------------------------- AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: game seed ``seed``, or, without one, the next seed of the generator that the
        last seeded reset seeded (fresh entropy if there was none)."""
        seed = self._seeder.next(seed)
        board = self._board(seed)
        if self._shape_of(board) != self._shape:
            raise ValueError(f"the board of seed {seed} has {self._shape_of(board)} intersections, paths and hexes, "
                             f"the action space was built for {self._shape}")
        self.game = Game(board, players=self.players, seed=seed, rules=self.rules, start=self.start)
        self._actions0 = len(self.game.log)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.possible_agents.index(agent)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        g = self.game
        legal = self.legal_indices(g) if g is not None and not g.is_over and g.current_player == p else {}
        mask[list(legal)] = 1
        obs = observe(g, p)
        if not self._modules.size:
            return {"observation": np.minimum(obs, HIGH), "action_mask": mask}
        base = len(self._catalog)
        obs = np.concatenate([obs, self._modules.observe(g, p, [a for i, a in legal.items() if i >= base])])
        return {"observation": np.clip(obs, 0.0, HIGH), "action_mask": mask}

    def action_at(self, index: int):
        """The engine action of index ``index`` now (an open slot's changes with the position), or
        ``None`` for an open slot with no legal action in it."""
        if index < len(self._catalog):
            return self._catalog[index]
        return self.legal_indices().get(index)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        index = action_index(action, self._n_actions)
        act = self.action_at(index)
        if act is None:
            raise ValueError(f"action {index} is an open slot with no legal action now (see the action mask)")
        try:
            g.play(act)
        except IllegalActionError as exc:
            raise ValueError(f"action {index} ({act!r}) is not legal now: {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        truncated = self.truncated(g)
        if g.is_over:
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 if p == g.winner else -1.0
                self.terminations[a] = True
        elif truncated:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        if g.is_over or truncated:
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
    players, board, rules, max_turns, render_mode, max_cycles, start, open_slots, view_size
        As for :class:`CatanAECEnv` (every module may be played; the opponents are bots).
    illegal_penalty : float
        An action outside the mask (or outside the action space) changes nothing and earns this
        reward, with ``info["illegal_action"]`` giving the reason (the action and the rule that
        refuses it); after ``max_illegal`` of them in a row the episode is truncated.  Mask your
        actions (``obs["action_mask"]``) and this never happens.  A value that is not an integer
        is no action at all: it raises ``TypeError``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, seat: int = 0, opponents=None, players: int = 4, board=None,
                 rules: Rules | None = None, max_turns: int = 1000, render_mode: str | None = None,
                 illegal_penalty: float = -0.01, max_illegal: int = 100, *, max_cycles: int | None = None,
                 start: str = "founding", open_slots: int | None = None, view_size: int = VIEW_SIZE):
        super().__init__()
        self.illegal_penalty = float(illegal_penalty)
        self.max_illegal = int(max_illegal)
        self._illegal = 0
        self.aec = CatanAECEnv(players, board, rules, max_turns, render_mode, max_cycles=max_cycles, start=start,
                               open_slots=open_slots, view_size=view_size)
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
        while not g.is_over and not self.aec.truncated(g) and g.current_player != self.seat:
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
        reason = None
        try:
            index = action_index(action, self.action_space.n)  # a TypeError for a non-integer escapes
        except ValueError as exc:  # outside the action space
            reason = str(exc)
        else:
            act = self.aec.action_at(index)
            if act is None:
                reason = f"action {index} is an open slot with no legal action now (see the action mask)"
            else:
                try:
                    g.play(act)
                except IllegalActionError as exc:
                    reason = f"action {index} ({act!r}) is not legal now: {exc}"
        if reason is not None:
            self._illegal += 1
            obs = self.aec.observe(self.aec.possible_agents[self.seat])
            return obs, self.illegal_penalty, False, self._illegal >= self.max_illegal, {"illegal_action": reason}
        self._illegal = 0
        reward = 1.0 if g.is_over and g.winner == self.seat else (-1.0 if g.is_over else self._advance())
        terminated = g.is_over
        truncated = self.aec.truncated(g)
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

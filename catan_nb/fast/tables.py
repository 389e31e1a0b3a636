"""Plain Python around the kernel: its arrays built from ``board.topology`` and a game's rules, the
action catalogue, and the conversion of kernel logs to the engine's own actions.

Nothing here needs numba; :mod:`catan_nb.fast.kernel` reads what is built here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..constants import COSTS, LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, RESOURCES, SPECIAL_CARD_VP, DevCard, HarbourKind
from ..constants import Resource
from ..rules import (
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
from ..rules.modules.five_six import EndSpecialBuild
from . import layout as L

__all__ = ["Setup", "covered", "catalog", "setup", "board_row", "new_state", "to_actions"]

N_RES = len(RESOURCES)
#: Modules the kernel plays (besides the base game's built-ins).
COVERED_MODULES = ("five_six",)
_P = {name: i for i, name in enumerate(L.P_NAMES)}
def covered(rules: Rules | None, players: int, start: str = "founding", *, board: Board | None = None) -> str | None:
    """Why the kernel cannot play these rules, or ``None`` when it can.

    The kernel plays the base game with its options (``vp_to_win``, ``discard_limit``,
    ``knights_only_before_roll``, ``steal_mandatory``, ``combined_trade_build``,
    ``shortage_single_taker``) for 3 or 4 players, and 5 or 6 with the extension (``five_six``).
    With ``board``, the rules are those a game on it plays (:meth:`Rules.for_game
    <catan_nb.rules.Rules.for_game>`: a scenario board's modules, SF-13), so no scenario is
    ever played by the base game's kernel.

    Raises
    ------
    BoardFileError
        When ``rules`` lack a module the ``board`` names (as :class:`~catan_nb.rules.Game` does).

    Examples
    --------
    >>> covered(Rules(), 4) is None
    True
    >>> covered(Rules(modules=("friends",)), 4)
    "the kernel plays the base game and five_six, not the module 'friends'"
    >>> from catan_nb.board import BOARDS_DIR
    >>> covered(None, 4, board=Board.load(BOARDS_DIR / "seafarers_islands.json"))
    "the kernel plays the base game and five_six, not the module 'seafarers'"
    """
    if board is not None:
        rules = Rules.for_game(board, rules, players)
    rules = rules or Rules()
    for m in rules.modules:
        if m not in COVERED_MODULES:
            return f"the kernel plays the base game and five_six, not the module {m!r}"
    if players not in (3, 4, 5, 6):
        return f"the kernel plays 3 to 6 players, not {players}"
    if start not in ("founding", "beginner"):
        return f"unknown start {start!r}"
    return None


def catalog(board: Board, players: int) -> tuple:
    """Every action the rules can offer on ``board`` for ``players`` seats, one index each: the
    kernel's action ids (the order of :func:`catan_nb.envs.action_catalog`).

    Examples
    --------
    >>> from catan_nb import Board
    >>> cat = catalog(Board.beginner(), 4)
    >>> cat[0], cat[1], len(cat)
    (EndTurn(), RollDice(dice=None), 353)
    """
    t = board.topology
    unit = [tuple(int(i == r) for i in range(N_RES)) for r in range(N_RES)]
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
    out += [OfferTrade(unit[g], unit[r]) for g in range(N_RES) for r in range(N_RES) if g != r]
    out += [Discard(unit[r]) for r in range(N_RES)]
    out += [MoveRobber(hx) for hx in range(t.n_hexes)]
    out += [MoveRobber(hx, p) for hx in range(t.n_hexes) for p in range(players)]
    out += [ConfirmTrade(p) for p in range(players)]
    return tuple(out)


def _offsets(n_nodes: int, n_edges: int, n_hexes: int, players: int) -> dict[str, int]:
    base = 10 if players > 4 else 9
    o = {"A_END_SBP": 9 if players > 4 else -1, "A_SETTLE": base}
    o["A_CITY"] = o["A_SETTLE"] + n_nodes
    o["A_ROAD"] = o["A_CITY"] + n_nodes
    o["A_YOP"] = o["A_ROAD"] + n_edges
    o["A_MONO"] = o["A_YOP"] + 15
    o["A_MAR"] = o["A_MONO"] + N_RES
    o["A_OFFER"] = o["A_MAR"] + 20
    o["A_DISC"] = o["A_OFFER"] + 20
    o["A_ROB"] = o["A_DISC"] + N_RES
    o["A_STEAL"] = o["A_ROB"] + n_hexes
    o["A_CONFIRM"] = o["A_STEAL"] + n_hexes * players
    o["N_ACTIONS"] = o["A_CONFIRM"] + players
    return o


def _pad(rows, width: int | None = None) -> np.ndarray:
    width = max((len(r) for r in rows), default=0) if width is None else width
    out = np.full((len(rows), max(width, 1)), -1, np.int32)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def geometry_key(t) -> tuple:
    return (t.n_nodes, t.n_edges, t.n_hexes, t.edge_nodes, t.node_edges, t.node_neighbours, t.node_hexes,
            t.node_land, t.hex_nodes, t.hex_land, t.edge_land)


@dataclass(frozen=True, eq=False)
class Setup:
    """The kernel's tables for one board shape, player count and rule set (shared by its games).

    Attributes
    ----------
    T : numpy.ndarray
        int64: the options, sizes, offsets and tables the kernel reads (see :mod:`.layout`).
    """

    T: np.ndarray
    players: int
    rules: Rules
    offsets: dict
    n_nodes: int
    n_edges: int
    n_hexes: int
    vp_target: int
    state_size: int
    geometry: tuple

    @property
    def n_actions(self) -> int:
        return self.offsets["N_ACTIONS"]

    def param(self, name: str) -> int:
        return int(self.T[_P[name]])


_SETUPS: dict = {}


def setup(board: Board, players: int, rules: Rules | None = None, *, exact: bool = False,
          value_offers: bool = False, dice_stream: bool = False) -> Setup:
    """The kernel's :class:`Setup` for games on boards shaped like ``board`` (cached by shape).

    The component counts, the target and the options are read from a game the engine sets up
    with these rules (one place per rule constant); the geometry from ``board.topology``.
    ``exact``: the kernel draws from the engine's own generators (Python's Mersenne Twister, see
    :mod:`.layout`); ``value_offers``: the value policy makes ValueBot's one-for-one offers
    (``ValueBot(offers=True)``); ``dice_stream``: the dice come from a stream of their own
    (simulate_openings).

    Raises
    ------
    ValueError
        When the kernel does not cover these rules (see :func:`covered`).
    """
    rules = Rules.for_game(board, rules, players)  # a scenario board's modules, which the kernel refuses
    problem = covered(rules, players)
    if problem:
        raise ValueError(problem)
    t = board.topology
    key = (geometry_key(t), players, rules, exact, value_offers, dice_stream)
    hit = _SETUPS.get(key)
    if hit is not None:
        return hit
    if max((len(x) for x in t.node_edges), default=0) > 3 or max((len(x) for x in t.node_neighbours), default=0) > 3:
        raise ValueError("the kernel needs intersections with at most 3 paths")
    proto = Game(board, players=players, seed=0, rules=rules)
    n, N, E, H = players, t.n_nodes, t.n_edges, t.n_hexes
    o = _offsets(N, E, H, players)
    limits = proto.pieces_left(0)
    KH = max(1, max((len(x) for x in t.node_hexes), default=1))
    KN = max(1, max((len(x) for x in t.hex_nodes), default=1))
    KP = max(1, H)
    smax = 4 * n + 8
    values = {
        "N": n, "NODES": N, "EDGES": E, "HEXES": H, "VP_TARGET": proto.vp_target,
        "DISCARD_LIMIT": rules.discard_limit, "KNIGHTS_ONLY": rules.knights_only_before_roll,
        "STEAL_MANDATORY": rules.steal_mandatory, "COMBINED": rules.combined_trade_build,
        "SINGLE_TAKER": rules.shortage_single_taker, "FIVE_SIX": any(m.name == "five_six" for m in proto.modules),
        "LIM_SETTLE": limits["settlement"], "LIM_CITY": limits["city"], "LIM_ROAD": limits["road"],
        "LR_MIN": LONGEST_ROAD_MIN, "LA_MIN": LARGEST_ARMY_MIN, "SPECIAL_VP": SPECIAL_CARD_VP,
        "SMAX": smax, "KH": KH, "KN": KN, "KP": KP, "N_LAND": len(t.land_hexes), **o,
    }
    # a game's fields, after its scalars and its stack
    offsets = {}
    at = L.STACK + 3 * smax
    for name, size in L.S_FIELDS:
        offsets[name] = at
        at += size(n, N, E, H, limits["road"], KP)
    values["STATE_SIZE"] = at
    x_sites, x_value, x_size = L.scratch(N, E, H, KN, limits["city"])
    values["X_VALUE"] = at + x_value
    values["X_SITES"] = x_sites
    values["EXACT"] = int(exact or value_offers or dice_stream)
    values["VALUE_OFFERS"] = int(value_offers)
    values["DICE_STREAM"] = int(dice_stream)
    row = at + x_size
    if values["EXACT"]:
        values["X_OFFERED"] = row
        values["X_DET"] = row + n
        values["X_MT"] = row + n + L.DET_SIZE
        row += L.exact_scratch(n)
    values["ROW_SIZE"] = row
    yop = []
    k = o["A_YOP"]
    for a in range(N_RES):
        row = []
        for b in range(N_RES):
            row.append(k if b >= a else -1)
            if b >= a:
                k += 1
        yop += row
    cost = [*proto.cost("road")[:N_RES], *proto.cost("settlement")[:N_RES], *proto.cost("city")[:N_RES],
            *COSTS["development_card"]]
    tables = {
        "EDGE_NODES": [x for pair in t.edge_nodes for x in pair],
        "NODE_EDGES": _pad(t.node_edges, 3).ravel().tolist(),
        "NODE_NBRS": _pad(t.node_neighbours, 3).ravel().tolist(),
        "NODE_HEXES": _pad(t.node_hexes, KH).ravel().tolist(),
        "NODE_LAND": [int(x) for x in t.node_land],
        "HEX_NODES": _pad(t.hex_nodes, KN).ravel().tolist(),
        "HEX_LAND": [int(x) for x in t.hex_land],
        "LAND_HEXES": list(t.land_hexes),
        "EDGE_OK": [int(x) for x in t.edge_land],
        "COST": cost,
        "YOP": yop,
        "BANK0": list(proto.bank_per_good[:N_RES]),
        "DECK0": list(proto.deck),
    }
    T: list[int] = [0] * L.T_HEAD
    for name, v in values.items():
        T[_P[name]] = int(v)
    for i, (name, _) in enumerate(L.S_FIELDS):
        T[L.O_BANK + i] = offsets[name]
    for i, name in enumerate(L.T_FIELDS):
        T[L.TO_EDGE_NODES + i] = len(T)
        T += [int(x) for x in tables[name]]
    out = Setup(np.array(T, np.int64), players, rules, o, N, E, H, proto.vp_target, values["STATE_SIZE"], key[0])
    if len(_SETUPS) > 64:
        _SETUPS.clear()
    _SETUPS[key] = out
    return out


def _harbour_code(code) -> int:
    if code is None:
        return -1
    if code is HarbourKind.GENERIC:
        return 5
    return Resource.parse(code).value


def board_row(board: Board) -> np.ndarray:
    """What varies between boards of one shape, as the kernel's ``new_game`` reads it: each
    hex's resource (-1 none) and number (0 none), each intersection's harbour (-1 none, 0..4 a
    resource's 2:1 harbour, 5 the generic 3:1 harbour), then the robber's hex."""
    t = board.topology
    harbours = _HARBOUR_ROWS.get(id(t.node_harbour))
    if harbours is None or harbours[0] is not t.node_harbour:
        if len(_HARBOUR_ROWS) > 4096:
            _HARBOUR_ROWS.clear()
        harbours = _HARBOUR_ROWS[id(t.node_harbour)] = (t.node_harbour, [_harbour_code(c) for c in t.node_harbour])
    return np.array([*t.hex_resource, *t.hex_token, *harbours[1], int(board.robber_start)], np.int64)


#: Harbour codes by topology (boards of one layout often share theirs).
_HARBOUR_ROWS: dict = {}


def new_state(s: Setup, games: int = 1) -> np.ndarray:
    """Room for ``games`` games (one row each)."""
    return np.zeros((games, s.param("ROW_SIZE")), np.int64)


_CATALOGS: dict = {}


def _catalog_cached(board: Board, players: int) -> tuple:
    key = (geometry_key(board.topology), players)
    hit = _CATALOGS.get(key)
    if hit is None:
        if len(_CATALOGS) > 64:
            _CATALOGS.clear()
        hit = _CATALOGS[key] = catalog(board, players)
    return hit


def to_actions(log: np.ndarray, board: Board, players: int) -> list:
    """The engine's actions of a kernel game: ``log`` rows are (catalogue index, outcome), the
    outcome the dice (10 * first + second), the stolen resource or the card drawn (-1: none).

    Chance outcomes travel inside the actions (``RollDice(dice=...)``, ``MoveRobber(...,
    stolen=...)``, ``BuyDevelopmentCard(card=...)``), so :meth:`Game.play` replays the game exactly.
    """
    cat = _catalog_cached(board, players)
    o = _offsets(board.topology.n_nodes, board.topology.n_edges, board.topology.n_hexes, players)
    out = []
    for a, x in np.asarray(log).tolist():
        act = cat[a]
        if a == 1:
            act = RollDice((x // 10, x % 10))
        elif a == 2:
            act = BuyDevelopmentCard(DevCard(x))
        elif o["A_STEAL"] <= a < o["A_CONFIRM"]:
            act = MoveRobber(act.hex, act.victim, RESOURCES[x])
        out.append(act)
    return out


#: Kernel phase of each engine phase value.
_PHASE_OF = {name: i for i, name in enumerate(L.PHASE_NAMES)}


def load_game(s: Setup, game: Game, S: np.ndarray, g: int, seed: int) -> None:
    """Write the position of an engine ``game`` into row ``g`` of ``S`` (the kernel then plays on
    from it, its chance drawn from ``seed``): a game the engine set up, founded, played or
    determinised (:meth:`Game.determinized`), with rules the kernel covers and a board of the
    setup's shape.

    Raises
    ------
    ValueError
        When the kernel does not cover the game (its modules, an open domestic offer that is not
        one card for one).
    """
    problem = covered(game.rules, game.n)
    if problem:
        raise ValueError(problem)
    if game.n != s.players or geometry_key(game.topology) != s.geometry:
        raise ValueError("the game's board or players differ from the kernel setup's")
    n, N, H = s.players, s.n_nodes, s.n_hexes
    T = s.T
    P = lambda name: int(T[_P[name]])  # noqa: E731
    O = lambda name: int(T[L.O_BANK + [f for f, _ in L.S_FIELDS].index(name)])  # noqa: E731
    row = S[g]
    row[:] = 0
    sc = row
    sc[L.SC_ACTIVE] = game.active_player
    sc[L.SC_TURN] = game.turn
    sc[L.SC_WINNER] = -1 if game.winner is None else game.winner
    sc[L.SC_BUILT] = int(game.built_this_turn)
    sc[L.SC_DEV_PLAYED] = int(game.dev_played)
    sc[L.SC_ROBBER] = game.robber
    sc[L.SC_LR] = -1 if game.longest_road_holder is None else game.longest_road_holder
    sc[L.SC_LA] = -1 if game.largest_army_holder is None else game.largest_army_holder
    sc[L.SC_OFFER_GIVE] = sc[L.SC_OFFER_GET] = -1
    if game.trade_offer is not None:
        give, get = game.trade_offer
        if sum(give) != 1 or sum(get) != 1 or max(give) != 1 or max(get) != 1:
            raise ValueError(f"the kernel plays one-for-one domestic offers, not {game.trade_offer}")
        sc[L.SC_OFFER_GIVE] = give.index(1)
        sc[L.SC_OFFER_GET] = get.index(1)
        sc[L.SC_ACCEPTED] = sum(1 << q for q in game.trade_accepted)
    sc[L.SC_ACTIONS] = len(game.log)
    sc[L.SC_STARTING_SEAT] = game.starting_seat
    sc[L.SC_VERSION] = 1
    if len(game.stack) > P("SMAX"):
        raise ValueError(f"a decision stack of {len(game.stack)} does not fit the kernel's {P('SMAX')}")
    sc[L.SC_DEPTH] = len(game.stack)
    for i, d in enumerate(game.stack):
        ph = _PHASE_OF.get(d.phase.value)
        if ph is None:
            raise ValueError(f"the kernel has no phase {d.phase.value!r}")
        data = d.data if isinstance(d.data, int) else 0
        row[L.STACK + 3 * i: L.STACK + 3 * i + 3] = (ph, d.player, data)

    def put(name: str, values) -> None:
        values = np.asarray(values, np.int64).ravel()
        row[O(name):O(name) + values.size] = values

    put("BANK", game.bank[:N_RES])
    put("DECK", game.deck)
    put("HANDS", [h[:N_RES] for h in game.hands])
    put("DEV", game.dev)
    put("DEV_NEW", game.dev_new)
    put("KNIGHTS", game.knights)
    kinds = game.kinds
    owner = [o if o >= 0 and kinds[k] is not None and kinds[k].building else -1
             for o, k in zip(game.node_owner, game.node_kind)]
    put("NODE_OWNER", owner)
    put("NODE_KIND", [k if o >= 0 else 0 for o, k in zip(owner, game.node_kind)])
    road = game.kind_id["road"]
    put("EDGE_OWNER", [o if o >= 0 and k == road else -1 for o, k in zip(game.edge_owner, game.edge_kind)])
    put("BLOCKED", game.blocked)
    t = game.topology
    touch = np.zeros((n, N), np.int64)
    roads = np.full((n, P("LIM_ROAD")), -1, np.int64)
    for p in range(n):
        for i, e in enumerate(sorted(game.roads[p])):
            roads[p, i] = e
            for v in t.edge_nodes[e]:
                touch[p, v] += 1
    put("TOUCH", touch)
    put("ROADS", roads)
    put("PIECES", [[game.n_settlements[p], game.n_cities[p], len(game.roads[p])] for p in range(n)])
    put("BOARD_VP", game.board_vp)
    put("ROAD_LEN", game.road_lengths())
    put("HARB", [sum(1 << _harbour_code(c) for c in game.harbours[p]) for p in range(n)])
    put("HEX_RESOURCE", [-1 if tr.resource is None else tr.resource.value for tr in game.hex_terrain])
    put("HEX_TOKEN", game.hex_token)
    put("NODE_HARBOUR", [_harbour_code(c) for c in t.node_harbour])
    put("HEX_PLAYERS", [sum(1 << q for q in game.hex_players(hx)) for hx in range(H)])
    from ._compile import kernel

    index_producers, rng_seed = kernel().index_producers, kernel().rng_seed

    index_producers(T, S, g)
    rng_seed(T, S, g, np.uint64(seed % 2**64))
    row[s.state_size + P("X_SITES")] = -1



_TEMPLATES: dict = {}


def random_template(layout: str = "base") -> tuple[np.ndarray, Board]:
    """What the kernel needs to draw boards as :meth:`Board.random` does (default options), and
    a board of that layout (the shape, the harbours) to rebuild them from (:func:`board_from_row`)."""
    hit = _TEMPLATES.get(layout)
    if hit is not None:
        return hit
    from .. import hexgrid
    from ..board import LAYOUTS
    from ..constants import Terrain

    rows, terrain_counts, letters, _, _ = LAYOUTS[layout]
    board = Board.random(seed=0, layout=layout)
    t = board.topology
    cells = [(r, c) for r in range(1, len(rows) + 1) for c in range(1, rows[r - 1] + 1)]
    assert [(h.row, h.col) for h in board.hexes] == cells
    terrains = [t_ for t_, k in terrain_counts.items() for _ in range(k)]
    resources = [-1 if tr is Terrain.DESERT else tr.resource.value for tr in terrains]
    axial = {rc: hexgrid.offset_to_axial(rc[0], rc[1], rows) for rc in cells}
    hex_of = {ax: i for i, ax in enumerate(axial[rc] for rc in cells)}
    spiral = [hex_of[ax] for ax in hexgrid.spiral(set(hex_of), axial[(1, 1)])]
    tmpl = np.array([len(cells), t.n_nodes, len(letters), *resources, *spiral, *letters,
                     *(_harbour_code(c) for c in t.node_harbour)], np.int64)
    _TEMPLATES[layout] = (tmpl, board)
    return tmpl, board


def board_from_row(template: Board, row, name: str = "kernel") -> Board:
    """The engine's :class:`Board` of a kernel board row (terrains, numbers, robber) on the shape
    and harbours of ``template``."""
    from ..constants import Terrain

    by_resource = {tr.resource.value: tr for tr in Terrain if tr.resource is not None}
    d = template.to_dict()
    H = len(d["hexes"])
    row = [int(x) for x in row]
    for i, h in enumerate(d["hexes"]):
        r = row[i]
        h["terrain"] = str(Terrain.DESERT if r < 0 else by_resource[r])
        h["token"] = row[H + i] or None
    robber = d["hexes"][row[-1]]
    d["robber"] = [robber["row"], robber["col"]]
    d["name"] = name
    return Board.from_dict(d)


def load_random(s: Setup, S: np.ndarray, g: int, slot: int, rng) -> None:
    """Exact mode: generator ``slot`` of game ``g`` takes the state of ``rng`` (a ``random.Random``,
    or a seed for a new one): slot 0 is the game's, 1 + seat each seat's bot's (see :mod:`.layout`)."""
    import random

    if not s.param("EXACT"):
        raise ValueError("the setup is not in exact mode")
    if not isinstance(rng, random.Random) and not hasattr(rng, "getstate"):
        rng = random.Random(rng)
    state = rng.getstate()[1]
    at = s.param("X_MT") + L.MT_SIZE * slot
    S[g, at:at + L.MT_SIZE] = state


def save_random(s: Setup, S: np.ndarray, g: int, slot: int, rng) -> None:
    """Exact mode: ``rng`` (a ``random.Random``) takes the state of generator ``slot`` of game ``g``."""
    at = s.param("X_MT") + L.MT_SIZE * slot
    rng.setstate((3, tuple(int(x) for x in S[g, at:at + L.MT_SIZE]), None))


def reset_offers(s: Setup, S: np.ndarray, g: int) -> None:
    """Exact mode: no seat's value bot has offered a trade yet (ValueBot._offered_turn)."""
    if s.param("EXACT"):
        S[g, s.param("X_OFFERED"):s.param("X_OFFERED") + s.players] = -1

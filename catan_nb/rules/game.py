"""The rules engine: the state of a game and the flow every rule module plugs into.

A :class:`Game` holds the state of one game on a :class:`~catan_nb.board.Board`.
It offers two ways to apply an action (STYLE.md, point 5):

* :meth:`Game.play` checks the action against every rule and raises
  :class:`~catan_nb.errors.IllegalActionError` naming the rule id and the
  evidence; a rejected action leaves the game exactly as it was.
* :meth:`Game.apply` trusts its caller (use it with actions taken from
  :meth:`Game.legal_actions`); it is the fast path for simulation.

The engine itself knows the board, the pieces (:mod:`~catan_nb.rules.pieces`),
the goods, the founding phase, the turn and the decision stack
(:mod:`~catan_nb.rules.phase`), Longest Road and the win.  Everything else is a
rule module, the base game's included (:mod:`~catan_nb.rules.modules`):
production, the robber, trade, building and the development deck are built-in
modules a variant may replace; modules use only the public methods documented
here under "For rule modules".

Every chance outcome (dice, stolen card, development card drawn) comes from the
game's own ``random.Random(seed)`` and is written into the recorded action, so
``Game.from_json(game.to_json())`` replays to the identical state.

Examples
--------
>>> from catan_nb import Board, Game
>>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
>>> game.phase
<Phase.ROLL: 'roll'>
>>> game.play(RollDice(dice=(1, 2)))
>>> game.hand(1)[Resource.ORE]   # blue B collects ore from (4,2) Mountains 3
2
"""

from __future__ import annotations

import copy as _copy
import json
import secrets
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from random import Random
from types import MappingProxyType
from typing import Any

from .._codec import FieldError, normalize_action, short_repr
from .._files import parse_json, read_json, replay_actions, write_atomic
from ..board import Board, Topology
from ..constants import (
    BANK_PER_RESOURCE,
    DEV_DECK,
    DISCARD_LIMIT,
    RESOURCES,
    SPECIAL_CARD_VP,
    VP_TO_WIN,
    Building,
    Colour,
    Good,
    DevCard,
    HarbourCode,
    Resource,
    Terrain,
    good_rules,
)
from ..errors import CatanError, IllegalActionError, SaveFileError
from .actions import (
    Action,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    EndTurn,
    RollDice,
    action_from_json,
    action_to_json,
)
from .game_goods import Goods
from .game_pieces import CITY, ROAD, SETTLEMENT, Placement, path_ground
from .game_roads import LongestRoad
from .modules import MODULES, Module, copy_plain, optional, resolve
from .modules.development import DevCardQueries
from .modules.trade import TradeQueries
from .phase import Decision, Phase
from .pieces import PIECES, PieceKind

__all__ = ["Game", "Rules", "Phase", "Decision", "PlayerView", "SAVE_FORMAT"]

SAVE_FORMAT = "catan_nb.game"
#: 2: the built-in modules keep their state in ``ext`` (the digest covers it there); 1 still loads.
SAVE_VERSION = 2

N_RES = len(RESOURCES)
FOUNDING = None  # set below, once the step functions exist

#: Seat colours of the base box (B-COMP-9; B-SETUP-3 leaves red out with 3 players).
DEFAULT_COLOURS = {
    3: (Colour.BLUE, Colour.WHITE, Colour.ORANGE),
    4: (Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE),
    5: (Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE, Colour.BROWN),  # X56-COMP-1
    6: (Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE, Colour.BROWN, Colour.GREEN),
}


@dataclass(frozen=True)
class Rules:
    """Rule options chosen when a game is created; saved with it.

    Parameters
    ----------
    modules : tuple of str
        Optional rule modules: ``"five_six"`` (implied by 5-6 players), ``"friends"``,
        ``"helpers"``, ``"gold_fields"`` (SF-1), ``"harbour_master"`` (SF-14)...  The base game's own modules are always there.
    vp_to_win : int, optional
        B-END-2; ``None`` takes the target of the modules (10 base, 11 with Friends: F-END-1).
    discard_limit : int
        B-ROB-2: more than this many cards means discarding half.
    knights_only_before_roll : bool
        A-01: only knights may be played before the roll (default: any card).
    steal_mandatory : bool
        A-04 / B-ROB-6: the robber must steal when it can.
    combined_trade_build : bool
        A-08 / B-TURN-2: trading after building in the same turn.
    shortage_single_taker : bool
        B-COMP-14's recalled exception: a sole claimant takes what the bank has left.
    metropolis_counts_double : bool
        A-42 / CK-BAR-1 (Cities & Knights): a city carrying a metropolis counts twice toward the
        barbarians' strength (default: once).
    """

    modules: tuple[str, ...] = ()
    vp_to_win: int | None = None
    discard_limit: int = DISCARD_LIMIT
    knights_only_before_roll: bool = False
    steal_mandatory: bool = False
    combined_trade_build: bool = False
    shortage_single_taker: bool = True
    metropolis_counts_double: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "modules", tuple(self.modules))
        names = optional()
        for m in self.modules:
            if m not in names:
                raise ValueError(f"unknown rule module {m!r}; expected one of {', '.join(sorted(names))}")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["modules"] = list(self.modules)
        return out

    @classmethod
    def for_board(cls, board, **options: Any) -> "Rules":
        """The rules a scenario board asks for: its ``scenario.modules`` (a Seafarers map brings
        ``seafarers``, the fog map ``fog`` and ``treasure``...), with ``options`` on top.

        Raises
        ------
        BoardFileError
            When the board names a module that does not exist.

        Examples
        --------
        >>> from catan_nb import Board
        >>> from catan_nb.rules.modules.fog import FOG_ISLANDS
        >>> Rules.for_board(Board.load(FOG_ISLANDS)).modules
        ('seafarers', 'fog', 'treasure')
        >>> Rules.for_board(Board.beginner(), steal_mandatory=True).modules
        ()
        """
        from ..errors import BoardFileError

        wanted = board.scenario.get("modules", [])
        problem = _rule_problem("modules", wanted)
        if problem:
            raise BoardFileError(board.source, "scenario.modules", problem)
        extra = tuple(options.pop("modules", ()))
        return cls(modules=tuple(dict.fromkeys([*wanted, *extra])), **options)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown rule option {sorted(unknown)[0]!r}")
        return cls(**data)


def _rule_problem(key: str, value: Any) -> str | None:
    """What is wrong with a saved rule option (``None`` if nothing)."""
    kinds = {f.name: f.type for f in fields(Rules)}
    if key not in kinds:
        return "is not a rule option"
    if key == "modules":
        if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
            return f"expected a list of module names, not {short_repr(value)}"
        unknown = [m for m in value if m not in optional()]
        if unknown:
            return f"unknown rule module {unknown[0]!r}; expected some of {', '.join(sorted(optional()))}"
        return None
    if key == "vp_to_win":
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 3 <= value <= 30):
            return f"expected null or a whole number in 3..30, not {short_repr(value)}"
        return None
    if key == "discard_limit":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 200:
            return f"expected a whole number in 0..200, not {short_repr(value)}"
        return None
    if not isinstance(value, bool):
        return f"expected true or false, not {short_repr(value)}"
    return None


@dataclass(frozen=True)
class PlayerView:
    """What one player may know (B-SETUP-7, A-15): the information set for bots and the UI.

    Own hand and development cards are shown in full; for opponents only the
    number of resource and development cards, played knights and visible VP.
    ``modules`` holds what each rule module lets the player see of its state.
    """

    player: int
    phase: Phase
    current_player: int
    active_player: int
    hand: dict[Good, int]
    dev_cards: dict[DevCard, int]
    resource_counts: tuple[int, ...]
    dev_counts: tuple[int, ...]
    played_knights: tuple[int, ...]
    visible_vp: tuple[int, ...]
    own_vp: int
    road_lengths: tuple[int, ...]
    longest_road: int | None
    largest_army: int | None
    bank: dict[Good, int]
    deck_size: int
    robber: int
    buildings: dict[int, tuple[int, Building]]
    roads: dict[int, int]
    dice_history: tuple[tuple[int, ...], ...]
    trade_offer: tuple[tuple[int, ...], tuple[int, ...]] | None
    legal_actions: tuple[Action, ...] = field(default=())
    pieces: dict[int, tuple[int, str]] = field(default_factory=dict)
    paths: dict[int, tuple[int, str]] = field(default_factory=dict)
    decisions: tuple[tuple[str, int], ...] = ()
    modules: dict[str, dict] = field(default_factory=dict)


@lru_cache(maxsize=None)
def _cached_actions(n_nodes: int, n_edges: int) -> Mapping[str, Any]:
    """Reusable action instances: actions are values, so every game of this size shares them (read-only)."""
    return MappingProxyType({
        "settle": tuple(BuildSettlement(v) for v in range(n_nodes)),
        "city": tuple(BuildCity(v) for v in range(n_nodes)),
        "road": tuple(BuildRoad(e) for e in range(n_edges)),
    })


_PLAIN_VALUES = (str, int, float, bool, type(None))


def check_plain(value: Any, where: str) -> None:
    """Raise unless ``value`` is plain JSON data: dicts with string keys, lists, tuples, strings,
    numbers, booleans and ``None`` (what ``game.ext`` may hold: it is compared, copied and
    fingerprinted as JSON, where an int key would silently become a string).

    Raises
    ------
    CatanError
        Naming the path to the first value that is not plain data.

    Examples
    --------
    >>> check_plain({"looms": [1, 2], "owner": None}, "ext['x']")
    >>> check_plain({3: "a"}, "ext['x']")
    Traceback (most recent call last):
    ...
    catan_nb.errors.CatanError: ext['x']: key 3 is an int; ext holds JSON data, so dict keys are strings (str(3))
    """
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise CatanError(f"{where}: key {k!r} is {'an' if type(k).__name__[0] in 'aeiou' else 'a'} "
                                 f"{type(k).__name__}; ext holds JSON data, so dict keys are strings (str({k!r}))")
            check_plain(v, f"{where}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            check_plain(v, f"{where}[{i}]")
    elif not isinstance(value, _PLAIN_VALUES):
        raise CatanError(f"{where}: {short_repr(value)} is a {type(value).__name__}; ext holds plain data "
                         "(dicts with string keys, lists, strings, numbers, booleans, None)")


def _tally(items: Iterable[int], width: int) -> list[int]:
    """Counts per index of a list of small ints."""
    out = [0] * width
    for i in items:
        out[i] += 1
    return out


_END_TURN = EndTurn()
_ROLL = RollDice()
_HOOK_ATTR_NAMES = (
    "_h_trades", "_h_builds", "_h_candidates", "_h_check_place", "_h_place", "_h_remove", "_h_founding",
    "_h_founding_done", "_h_founding_building", "_h_before", "_h_resolve", "_h_roll", "_h_limit", "_h_targets",
    "_h_robber", "_h_vp",
    "_h_rate", "_h_end_turn", "_h_turn_start",
)
#: Recorded rolls are values: the outcomes are shared, not built anew each turn.
_ROLLS: dict[tuple[int, ...], RollDice] = {}
#: The 36 outcomes of two dice, each with its recorded action, by ``[die - 1][die - 1]``.
_PAIRS = tuple(tuple(((a, b), RollDice((a, b))) for b in range(1, 7)) for a in range(1, 7))
_MAIN, _ROLL_PHASE = Phase.MAIN, Phase.ROLL
#: The rules of a game made without ``rules=`` (frozen: shared).
_DEFAULT_RULES = Rules()


class _ForkedRandom:
    """The random generator of a game copied by :meth:`Game.copy`, until the game first draws.

    It holds the generator the copy was forked from, frozen (shared by the source and all its
    copies, never drawn from), and a weak reference to its game.  On first use it gives the game
    its own generator in the frozen state and steps aside, so a copy that never draws never
    copies the generator's state, and one that does gets exactly the draws it would have had.
    """

    __slots__ = ("game", "frozen", "mine")

    def __init__(self, game: "Game", frozen: Random):
        self.game = weakref.ref(game)
        self.frozen = frozen
        self.mine: Random | None = None

    def own(self) -> Random:
        """The game's own generator, made from the frozen state on first use (and put in its place)."""
        if self.mine is None:
            self.mine = _random_in_state(self.frozen.getstate())
            game = self.game()
            if game is not None and game.__dict__.get("_rng") is self:
                game.__dict__["_rng"] = self.mine
        return self.mine

    def __getattr__(self, name: str):
        return getattr(self.own(), name)


def _random_in_state(state: tuple) -> Random:
    rng = Random.__new__(Random)  # unseeded (seeding reads os.urandom): its state is set next
    rng.setstate(state)
    return rng


_new_decision = tuple.__new__  # Decision(phase, player, data) without NamedTuple's Python-level __new__


class Game(Placement, Goods, LongestRoad, DevCardQueries, TradeQueries):
    """A game of Catan: the base game and whatever rule modules it is played with.

    Parameters
    ----------
    board : Board
        The island.
    players : int
        3 or 4 (B-COMP-9); 5 or 6 with the extension (X56-GEN-1).
    seed : int, optional
        Seed of the game's own random generator; every chance outcome comes from
        it.  ``None`` draws a fresh seed, which is stored and saved.
    start : {"founding", "beginner"}
        ``"founding"``: snake-order placement (B-SETUP-15..20).  ``"beginner"``:
        the board file's pre-placed pieces and starting resources (B-SETUP-1..5).
    rules : Rules, optional
        Rule options and modules.
    starting_seat : int
        Who starts (B-SETUP-8 DECISION).
    colours : sequence of Colour, optional
        Seat colours (default: the box's, B-COMP-9).

    Attributes
    ----------
    log : list of Action
        Every applied action with its chance outcome filled in.
    dice_history : list of tuple of int
        Every production roll.
    stack : list of Decision
        What the game waits for, and from whom (the top is the last).
    goods : tuple of Good
        What hands and the bank hold: the five resources, then any a module adds.
    good_rules : tuple of GoodRules
        How the card rules treat each good of ``goods`` (bank trade, steals, discards, Monopoly).
    kinds : tuple of PieceKind
        The piece kinds in play (index 0 is none; then settlement, city, road...).

    Examples
    --------
    >>> game = Game(Board.beginner(), players=3, seed=5)
    >>> game.current_player, game.phase
    (0, <Phase.FOUNDING_SETTLEMENT: 'founding_settlement'>)
    >>> len(game.legal_actions())
    54
    """

    def __init__(
        self,
        board: Board,
        players: int = 4,
        seed: int | None = None,
        *,
        start: str = "founding",
        rules: Rules | None = None,
        starting_seat: int = 0,
        colours: Iterable[Colour] | None = None,
    ):
        rules = _DEFAULT_RULES if rules is None else rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, not {type(rules).__name__}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number (3 to 6), not {players!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
            raise ValueError(f"seed must be a whole number in 0..2**64-1, not {seed!r}")
        if isinstance(starting_seat, bool) or not isinstance(starting_seat, int):
            raise ValueError(f"starting_seat must be a seat number, not {starting_seat!r}")
        names = resolve(rules.modules, players)
        chosen = tuple(n for n in names if not MODULES[n].builtin)
        if chosen != rules.modules:
            rules = replace(rules, modules=chosen)
        self.modules: tuple[Module, ...] = tuple(MODULES[m] for m in names)
        allowed = next((m.players for m in self.modules if m.players), (3, 4))
        if players not in allowed:
            raise ValueError(
                f"B-COMP-9: the base game is for 3 or 4 players (5-6 with the extension, X56-GEN-1), not {players}"
            )
        if start not in ("founding", "beginner"):
            raise ValueError(f"start must be 'founding' or 'beginner', not {start!r}")
        if not 0 <= starting_seat < players:
            raise ValueError(f"starting_seat must be in 0..{players - 1}")
        self.board = board
        self.n = players
        self.seed = int(seed) if seed is not None else secrets.randbits(63)
        self.rules = rules
        self.start = start
        self.starting_seat = starting_seat
        if colours is None:
            if start == "beginner" and players in board.start_seats:
                colours = board.start_seats[players]
            else:
                colours = DEFAULT_COLOURS[players]
        self.colours: tuple[Colour, ...] = tuple(Colour.parse(c) for c in colours)
        if len(self.colours) != players:
            raise ValueError(f"{players} players need {players} colours, got {len(self.colours)}")
        if len(set(self.colours)) != players:
            raise ValueError(f"each seat needs its own colour, not {[str(c) for c in self.colours]}")
        if start == "founding":
            board.check_playable(players)  # a game never waits forever for a founding settlement
        self._rng = Random(self.seed)
        t = board.topology
        self._t = t
        # --- goods and pieces in play (registries)
        self.goods: tuple[Any, ...] = tuple(dict.fromkeys((*RESOURCES, *(g for m in self.modules for g in m.goods))))
        self.n_goods = len(self.goods)
        self.good_rules = tuple(good_rules(g) for g in self.goods)
        # Per good: may a steal draw it, does it count for a 7 (B-ROB-2, B-ROB-7); ``None`` when all do.
        self._stolen = None if all(r.stolen for r in self.good_rules) else tuple(r.stolen for r in self.good_rules)
        self._discarded = None if all(r.discarded for r in self.good_rules) else \
            tuple(r.discarded for r in self.good_rules)
        self._good_index = {str(g): i for i, g in enumerate(self.goods)}
        base_kinds = (PIECES["settlement"], PIECES["city"], PIECES["road"])
        extra = [k for m in self.modules for k in m.pieces if k not in base_kinds]
        self.kinds: tuple[PieceKind | None, ...] = (None, *base_kinds, *extra)
        self.kind_id: dict[str, int] = {k.name: i for i, k in enumerate(self.kinds) if k is not None}
        self._node_kinds = tuple(i for i, k in enumerate(self.kinds) if k is not None and k.site == "node")
        self._path_kinds = tuple(i for i, k in enumerate(self.kinds) if k is not None and k.site == "path")
        self._blocks = tuple(bool(k and k.blocks) for k in self.kinds)
        self._building = tuple(bool(k and k.building) for k in self.kinds)
        self._cost = tuple(self._counts(k.cost) if k else () for k in self.kinds)
        self._limit = tuple(k.limit if k else 0 for k in self.kinds)
        self._vp = tuple(k.vp if k else 0 for k in self.kinds)
        self._base_builds = tuple(
            (k, tuple((r, c) for r, c in enumerate(self._cost[k]) if c), key, self.kinds[k].name)  # type: ignore[union-attr]
            for k, key in ((ROAD, "road"), (SETTLEMENT, "settle"), (CITY, "city"))
        )
        self._edge_ok = tuple(path_ground(t, k) for k in self.kinds)
        self._acts = _cached_actions(t.n_nodes, t.n_edges)
        # --- components (B-COMP-2, B-COMP-6; modules change them: X56-COMP-2..3)
        comps: dict[str, Any] = {
            "bank": {g: (BANK_PER_RESOURCE if isinstance(g, Resource) else 0) for g in self.goods},
            "deck": dict(DEV_DECK),
        }
        for m in self.modules:
            m.components(self, comps)
        #: The components after the modules' ``components`` hooks (read only): ``"bank"``, cards of each
        #: good; ``"deck"``, development cards of each kind (B-COMP-2, B-COMP-6; X56-COMP-2..3).
        self.components: Mapping[str, Mapping[Any, int]] = MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in comps.items()})
        #: Cards of each good in the game (B-COMP-2; X56-COMP-2).
        self.bank_per_good: tuple[int, ...] = tuple(comps["bank"][g] for g in self.goods)
        #: Cards of each resource in the game (B-COMP-2; X56-COMP-2).
        self.bank_per_resource: int = self.bank_per_good[0]
        #: Development cards in the game (B-COMP-6; X56-COMP-3); 0 when a module replaces the deck.
        self.deck_total: int = sum(comps["deck"].values())
        targets = [x for m in self.modules if (x := m.vp_target(self))]
        #: Victory points to win (B-END-2; F-END-1).
        self.vp_target: int = rules.vp_to_win if rules.vp_to_win is not None else max([VP_TO_WIN, *targets])
        n = players
        G = self.n_goods
        K = len(self.kinds)
        # --- state (plain data)
        self.bank: list[int] = list(self.bank_per_good)
        self.hands: list[list[int]] = [[0] * G for _ in range(n)]
        self.node_owner: list[int] = [-1] * t.n_nodes
        self.node_kind: list[int] = [0] * t.n_nodes
        self.edge_owner: list[int] = [-1] * t.n_edges
        self.edge_kind: list[int] = [0] * t.n_edges
        self.blocked: list[int] = [0] * t.n_nodes  # buildings at or next to the node (B-BUILD-7)
        self.occupied: list[int] = []  # intersections holding a building, in order of founding
        #: Sites of each piece kind per player: ``placed[kind][player]``.
        self.placed: list[list[set[int]]] = [[set() for _ in range(n)] for _ in range(K)]
        #: Intersections touched by each path kind per player: ``reach[kind][player]``.
        self.reach: list[list[set[int]]] = [[set() for _ in range(n)] for _ in range(K)]
        #: Intersections touched by any of a player's path pieces.
        self.road_nodes: list[set[int]] = [set() for _ in range(n)]
        #: Harbour codes each player reaches (B-TRADE-7, B-TRADE-8): resources and ``HarbourKind.GENERIC``.
        self.harbours: list[set[HarbourCode]] = [set() for _ in range(n)]
        self._harbour_rates: list[tuple[int, ...]] = [(4,) * G for _ in range(n)]  # B-TRADE-6..9, kept up to date
        #: Victory points of each player's pieces on the board (B-END-1), kept up to date.
        self.board_vp: list[int] = [0] * n
        self.road_length: list[int] = [0] * n
        #: An upper bound of each seat's trail length, kept up to date, so that a trail is recounted
        #: only when it can matter (B-LR-5..7); exact where ``road_length`` is known.
        self.road_bound: list[int] = [0] * n
        #: Per seat, ``(length before, fresh end)`` after a path piece left a dead end on a new
        #: intersection: the new length is then the longer of the old one and the longest trail
        #: from that end, one search instead of many; ``None`` when a full recount is needed.
        # Per player, what a stale trail length is recounted from (see _len): the last known length, the
        # fresh ends and the joining pieces added since.
        self._trail_hint: list[tuple[int, frozenset | None, tuple[int, ...], tuple[int, ...]] | None] = [None] * n
        # Per player, the pieces of one trail of the known length (None if unknown): a piece off it can
        # be removed without a recount (that trail is still there, and none can be longer).
        self._witness: list[frozenset | None] = [None] * n
        self.longest_road_holder: int | None = None
        #: Terrain and token of every hex now (they may change: fog revealed, tokens moved).
        self.hex_terrain: list[Terrain] = list(t.hex_terrain)
        self.hex_token: list[int] = list(t.hex_token)
        self.robber: int = board.robber_start
        self.active: int = starting_seat
        self.stack: list[Decision] = []
        # Each seat's roll and main-phase decisions, shared by the game and its copies (immutable).
        self._roll_of = tuple(Decision(Phase.ROLL, q) for q in range(n))
        self._main_of = tuple(Decision(Phase.MAIN, q) for q in range(n))
        self.turn: int = 0  # regular turns begun
        self.winner: int | None = None
        self.built_this_turn: bool = False
        self.log: list[Action] = []
        self.dice_history: list[tuple[int, ...]] = []
        self.last_production: dict[int, list[int]] = {}
        self.ext: dict[str, Any] = {}  # module state, plain data
        self._cache: dict[Any, Any] = {}  # derived from the board; cleared whenever a piece moves
        self._hex_players: list[tuple[int, ...]] = [()] * t.n_hexes  # who has a building on each hex
        self._wire()
        for m in self.modules:
            m.init(self)
        self._index_production()
        if start == "beginner":
            self._setup_beginner()
        else:
            order = [(starting_seat + i) % n for i in range(n)]
            snake = order + order[::-1]  # B-SETUP-15, B-SETUP-16
            self.stack.append(Decision(Phase.FOUNDING_DONE, starting_seat))
            for i in reversed(range(len(snake))):
                self.stack.append(Decision(Phase.FOUNDING_SETTLEMENT, snake[i], i))
            self.active = snake[0]

    def _wire(self) -> None:
        """Bind action dispatch and module hooks: one shared, read-only wiring per set of modules."""
        self.__dict__.update(_wiring(self.modules))

    # ================================================================== public queries
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
    def topology(self) -> Topology:
        """The board's plain-data geometry (for rule modules and analysis)."""
        return self._t

    @property
    def n_dice(self) -> int:
        """Dice rolled each turn: the two number dice and any a module adds (CK-BAR-4)."""
        return self._n_dice


    def vp(self, player: int, *, visible: bool = False) -> int:
        """Victory points (B-END-1); ``visible=True`` leaves out hidden points (B-END-6).

        Pieces on the board count by their kind's ``vp``; Longest Road 2; every
        module adds its own sources (development VP cards and the army, tokens...).
        """
        v = self.board_vp[player]
        if self.longest_road_holder == player:
            v += SPECIAL_CARD_VP
        for h in self._h_vp:
            v += h(self, player, visible)
        return v























    def can_trade(self) -> bool:
        """Whether the active player may trade now (B-TRADE-1, B-TURN-2, B-TURN-3)."""
        return (
            self.phase is Phase.MAIN
            and self.current == self.active
            and (not self.built_this_turn or self.rules.combined_trade_build)
        )

    def discards_owed(self) -> dict[int, int]:
        """Cards each seat still has to discard after a 7."""
        discard = Phase.DISCARD  # type: ignore[attr-defined]  # registered by the robber module
        return {d.player: d.data for d in self.stack if d.phase is discard and d.data}

    # ================================================================== legal actions
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






    # ================================================================== play / apply
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

    # ================================================================== for rule modules
    # The public API that rule modules build on (docs/modules.md).
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
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n or seat == self.current:
            raise IllegalActionError(rule, f"{seat!r} is not another seat (0..{self.n - 1}, not {self.current})", action)
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

    def _check_end_turn(self, a: EndTurn) -> None:
        if self.phase is Phase.ROLL:
            raise IllegalActionError("B-TURN-2", f"seat {self.active} must roll before ending the turn", a)
        self.require_phase(a, Phase.MAIN, rule="B-TURN-9")











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
















    # ================================================================== views and copies
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (B-SETUP-7): hidden hands and development cards become counts."""
        kinds = self.kinds
        return PlayerView(
            player=player,
            phase=self.phase,
            current_player=self.current,
            active_player=self.active,
            hand=self.hand(player),
            dev_cards=self.dev_cards(player),
            resource_counts=tuple(sum(h) for h in self.hands),
            dev_counts=tuple(sum(self.dev_counts(q)) for q in range(self.n)),
            played_knights=tuple(self.knights_played(q) for q in range(self.n)),
            visible_vp=tuple(self.vp(q, visible=True) for q in range(self.n)),
            own_vp=self.vp(player),
            road_lengths=tuple(self.road_lengths()),
            longest_road=self.longest_road_holder,
            largest_army=self.largest_army_holder,
            bank=dict(zip(self.goods, self.bank)),
            deck_size=self.deck_size,
            robber=self.robber,
            buildings={v: (o, Building(self.node_kind[v])) for v, o in enumerate(self.node_owner)
                       if o >= 0 and self._building[self.node_kind[v]]},
            roads={e: o for e, o in enumerate(self.edge_owner) if o >= 0 and self.edge_kind[e] == ROAD},
            dice_history=tuple(self.dice_history),
            trade_offer=self.trade_offer,
            legal_actions=tuple(self.legal_actions()) if self.current == player else (),
            pieces={v: (o, kinds[self.node_kind[v]].name) for v, o in enumerate(self.node_owner) if o >= 0},  # type: ignore[union-attr]
            paths={e: (o, kinds[self.edge_kind[e]].name) for e, o in enumerate(self.edge_owner) if o >= 0},  # type: ignore[union-attr]
            decisions=tuple((d.phase.value, d.player) for d in self.stack),
            modules={m.name: v for m in self.modules if m.overrides("view") and (v := m.view(self, player))},
        )

    def determinized(self, observer: int, seed: int) -> "Game":
        """A copy in which everything ``observer`` cannot see is drawn again at random.

        For search over information sets (a determinisation): the copy agrees with
        ``self.view(observer)`` (board, own cards, every count, the bank, played
        cards), while the opponents' cards are dealt again from their combined pool
        (which is public: the game's cards minus the bank and the observer's hand),
        their unplayed development cards and the deck are dealt again from the
        cards the observer has not seen, the modules redraw their own hidden state,
        and the random generator is reseeded, so future dice and draws are unknown
        too.  The result depends only on what the observer may know and on ``seed``.

        Examples
        --------
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> d = g.determinized(0, seed=7)
        >>> d.hand(0) == g.hand(0), [sum(h) for h in d.hands] == [sum(h) for h in g.hands]
        (True, True)
        """
        g = self.copy()
        rng = Random(seed)
        others = [q for q in range(self.n) if q != observer]
        G = self.n_goods
        # The pools are built in a canonical order from public totals, so the deal depends on
        # nothing but what the observer may know and the seed.
        pool = [r for r in range(G) for _ in range(sum(g.hands[q][r] for q in others))]
        rng.shuffle(pool)
        for q in others:
            k = sum(g.hands[q])
            g.hands[q] = _tally(pool[:k], G)
            del pool[:k]
        for m in g.modules:  # the development deck first (a built-in), then the others
            if m.overrides("determinize"):
                m.determinize(g, observer, rng)
        g._rng = Random(rng.getrandbits(64))
        return g

    _PLAIN = (
        "n", "seed", "start", "starting_seat", "robber", "active", "turn", "winner",
        "built_this_turn", "longest_road_holder", "rules", "colours",
    )
    _LISTS = (
        "bank", "node_owner", "node_kind", "edge_owner", "edge_kind", "blocked", "road_length", "board_vp",
        "occupied", "log", "dice_history", "hex_token",
    )
    _NESTED = ("hands", "road_nodes", "_harbour_rates")

    #: Attributes a copy shares with its source: immutable, or derived from immutable data only ...
    SHARED = frozenset({
        "board", "_t", "_acts", "_producers", "_yield_at", "modules", "rules", "colours", "goods", "kinds",
        "kind_id", "_good_index", "_node_kinds", "_path_kinds", "_blocks", "_building", "_cost", "_limit", "_vp",
        "_base_builds", "_edge_ok", "bank_per_good", "good_rules", "_stolen", "_discarded", "components",
    })
    #: ... and the wiring: dispatch tables and hook lists, shared by every game with the same modules.
    WIRED = frozenset({"_check_dispatch", "_apply_dispatch", "_h_legal", "_legal_by_phase", "_n_dice",
                       "_ext_copy", *_HOOK_ATTR_NAMES})

    def copy(self) -> "Game":
        """An independent copy, e.g. for search or what-if analysis.

        The copy shares only immutable data with its source (the board, its
        topology, the rules, cached action values); everything a game or its
        modules can change is copied, so nothing done to one shows in the other.

        Examples
        --------
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> c = g.copy()
        >>> c.play(RollDice(dice=(3, 4)))
        >>> len(g.log), len(c.log)
        (0, 1)
        """
        g = Game.__new__(Game)
        d = g.__dict__
        d.update(self.__dict__)  # scalars, tuples, the shared and the wired parts
        for k in self._FLAT:
            d[k] = d[k][:]
        for k in self._ROWS:
            d[k] = [x.copy() for x in d[k]]
        d["placed"] = [[x.copy() for x in row] for row in self.placed]
        d["reach"] = [[x.copy() for x in row] for row in self.reach]
        d["last_production"] = {k: v[:] for k, v in self.last_production.items()}
        copiers = self._ext_copy  # each module's copy_state (copy_plain unless it has its own)
        d["ext"] = {k: copiers.get(k, copy_plain)(v) for k, v in self.ext.items()}
        d["_cache"] = {}
        # Copy on draw: the copy and its source share the generator's state, frozen, until one of
        # them draws (most copies of a search never do), instead of copying its 625 words now.
        src = self._rng
        if type(src) is _ForkedRandom:
            frozen = src.frozen if src.mine is None else _random_in_state(src.mine.getstate())
        else:
            frozen = src
            self._rng = _ForkedRandom(self, frozen)
        d["_rng"] = _ForkedRandom(g, frozen)
        return g

    #: Lists of immutable values, copied flat by :meth:`copy`.
    _FLAT = (
        "bank", "node_owner", "node_kind", "edge_owner", "edge_kind", "blocked", "occupied",
        "board_vp", "road_length", "road_bound", "_trail_hint", "_witness", "log", "dice_history", "stack",
        "hex_terrain", "hex_token", "_harbour_rates", "_takers", "_hex_players",
    )
    #: Lists of lists or sets, copied one level down by :meth:`copy`.
    _ROWS = ("hands", "road_nodes", "harbours")

    def state(self) -> dict[str, Any]:
        """The complete game state as comparable plain data (two games are identical iff equal).

        Raises
        ------
        CatanError
            If a module keeps anything but plain JSON data in ``ext`` (an int key, a set...).
        """
        check_plain(self.ext, "ext")
        out: dict[str, Any] = {k: getattr(self, k) for k in self._PLAIN}
        for k in self._LISTS:
            out[k] = list(getattr(self, k))
        for k in self._NESTED:
            out[k] = [sorted(x) if isinstance(x, set) else list(x) for x in getattr(self, k)]
        out["harbours"] = [sorted(map(str, x)) for x in self.harbours]  # typed codes, named
        out["placed"] = [[sorted(s) for s in row] for row in self.placed]
        out["hex_terrain"] = [str(t) for t in self.hex_terrain]
        out["stack"] = [d.plain() for d in self.stack]
        out["road_length"] = self.road_lengths()
        out["ext"] = _copy.deepcopy(self.ext)
        out["vp_target"] = self.vp_target
        out["rng"] = self._rng.getstate()
        out["board"] = self.board.to_dict()
        return out

    # ================================================================== save / load
    def to_dict(self) -> dict[str, Any]:
        """The saved game: board, set-up parameters, rules and every action with its outcome."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "board": self.board.to_dict(),
            "players": self.n,
            "seed": self.seed,
            "start": self.start,
            "starting_seat": self.starting_seat,
            "colours": [str(c) for c in self.colours],
            "rules": self.rules.to_dict(),
            "actions": [action_to_json(a) for a in self.log],
            "digest": self.digest(),
        }

    def to_json(self, **kw) -> str:
        """The saved game as a JSON string (see :meth:`from_json`)."""
        return json.dumps(self.to_dict(), **kw)

    def save(self, path: str | Path) -> None:
        """Write the saved game to a file."""
        write_atomic(Path(path), self.to_json(indent=1) + "\n")

    @classmethod
    def from_json(cls, text: str | bytes | dict, *, source: str = "<json>") -> "Game":
        """Rebuild a game from :meth:`to_json` output by replaying its actions.

        Raises
        ------
        SaveFileError
            Naming the source, the field and the problem (including the rule id if
            a recorded action is illegal).

        Examples
        --------
        >>> g = Game(Board.beginner(), seed=3, start="beginner")
        >>> g.play(RollDice())
        >>> Game.from_json(g.to_json()).state() == g.state()
        True
        """
        data = text if isinstance(text, dict) else parse_json(text, source, SaveFileError)
        if not isinstance(data, dict):
            raise SaveFileError(source, "<root>", f"a saved game is a JSON object, not {type(data).__name__}")
        if data.get("format") != SAVE_FORMAT:
            raise SaveFileError(source, "format", f"expected {SAVE_FORMAT!r}, found {short_repr(data.get('format'))}")
        version = data.get("version")
        if version not in (1, SAVE_VERSION) or isinstance(version, bool):
            raise SaveFileError(source, "version", f"expected {SAVE_VERSION} (or 1), found {short_repr(version)}")
        for key in ("board", "players", "seed", "actions"):
            if key not in data:
                raise SaveFileError(source, key, "missing")
        known = {"format", "version", "board", "players", "seed", "start", "starting_seat", "colours", "rules",
                 "actions", "digest"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SaveFileError(source, unknown[0], "is not a field of a saved game")

        def whole(key: str, lo: int, hi: int) -> int:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise SaveFileError(source, key, f"expected a whole number in {lo}..{hi}, not {short_repr(value)}")
            return value

        players = whole("players", 3, 6)
        seed = whole("seed", 0, 2**64 - 1)
        start = data.get("start", "founding")
        if start not in ("founding", "beginner"):
            raise SaveFileError(source, "start", f"expected 'founding' or 'beginner', not {short_repr(start)}")
        starting_seat = whole("starting_seat", 0, players - 1) if "starting_seat" in data else 0
        colours = None
        if "colours" in data:
            raw = data["colours"]
            if not isinstance(raw, list) or len(raw) != players:
                raise SaveFileError(source, "colours", f"expected a list of {players} colours, not {short_repr(raw)}")
            try:
                colours = [Colour.parse(c) if isinstance(c, str) else Colour.parse(repr(c)) for c in raw]
            except ValueError as exc:
                raise SaveFileError(source, "colours", str(exc)) from None
            if len(set(colours)) != players:
                raise SaveFileError(source, "colours", f"each seat needs its own colour, not {raw}")
        from ..errors import BoardFileError

        try:
            board = Board.from_dict(data["board"], source=f"{source}#board")
        except BoardFileError as exc:
            raise SaveFileError(source, f"board.{exc.field}", exc.problem) from None
        rules_data = data.get("rules", {})
        if not isinstance(rules_data, dict):
            raise SaveFileError(source, "rules", f"expected an object of rule options, not {short_repr(rules_data)}")
        for key, value in rules_data.items():
            problem = _rule_problem(key, value)
            if problem:
                raise SaveFileError(source, f"rules.{key}", problem)
        try:
            rules = Rules.from_dict(rules_data)
        except (TypeError, ValueError) as exc:
            raise SaveFileError(source, "rules", str(exc)) from None
        try:
            game = cls(board, players=players, seed=seed, start=start, rules=rules, starting_seat=starting_seat,
                       colours=colours)
        except BoardFileError as exc:
            raise SaveFileError(source, f"board.{exc.field}", exc.problem) from None
        except (TypeError, ValueError) as exc:
            field = "start" if "start" in str(exc) and start == "beginner" else "players"
            raise SaveFileError(source, field, str(exc)) from None
        replay_actions(game, data["actions"], source, action_from_json, SaveFileError)
        digest = data.get("digest")
        if digest is not None and digest != game.digest(version=version):
            raise SaveFileError(
                source, "digest",
                f"replaying the {len(game.log)} actions with seed {seed} does not reach the saved position: "
                "the seed, the set-up or the log was altered",
            )
        return game

    def digest(self, *, version: int = SAVE_VERSION) -> str:
        """A short fingerprint of the position (saved with the game; a replay must reach it again).

        ``version``: that of the save format; a save of version 1 was fingerprinted with the
        development cards apart from ``ext``, where the built-in modules kept no state then.
        """
        import hashlib

        check_plain(self.ext, "ext")
        head = [self.hands, self.bank, self.node_owner, self.node_kind, self.edge_owner]
        tail = [[d.plain() for d in self.stack], self.turn, self._rng.getstate()[1][:8]]
        if version == 1:
            ext = {k: v for k, v in self.ext.items() if not (k in MODULES and MODULES[k].builtin)}
            parts = [*head, self.deck, self.dev, self.knights, ext, *tail]
        else:
            parts = [*head, self.ext, *tail]
        text = json.dumps(parts, default=str, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    @classmethod
    def load(cls, path: str | Path) -> "Game":
        """Load a saved game file."""
        return cls.from_json(read_json(path, SaveFileError), source=str(path))

    def replay(self) -> "Game":
        """A fresh game with the same set-up, replayed from the log (for checking determinism)."""
        return Game.from_json(self.to_dict(), source="<replay>")

    # ================================================================== display
    def __repr__(self) -> str:
        vps = ", ".join(f"{c}:{self.vp(p, visible=True)}" for p, c in enumerate(self.colours))
        return f"<Game turn {self.turn}, {self.phase.value}, seat {self.current} to act; visible VP {vps}>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Show as the board figure in a notebook (the viz layer is imported only here)."""
        from ..viz import mimebundle

        return mimebundle(self, include, exclude)


# ---------------------------------------------------------------- wiring
_BASE_CHECKS = {
    BuildSettlement: Game._check_settlement,
    BuildRoad: Game._check_road,
    BuildCity: Game._check_city,
    RollDice: Game._check_roll,
    EndTurn: Game._check_end_turn,
}
_BASE_APPLY = {
    BuildSettlement: Game._do_settlement,
    BuildRoad: Game._do_road,
    BuildCity: Game._do_city,
    RollDice: Game._do_roll,
    EndTurn: Game._do_end_turn,
}
#: The engine's own actions that change VP (buildings, the Longest Road) or begin a turn.
_BASE_VP_ACTIONS = (BuildSettlement, BuildCity, BuildRoad, EndTurn)
_HOOKS = (
    "legal_trades", "legal_builds", "candidates", "check_place", "on_place", "on_remove", "on_founding_settlement",
    "on_founding_done", "founding_building", "before_production", "resolve_roll", "on_roll", "hand_limit",
    "robber_targets", "on_robber",
    "vp", "rate", "on_end_turn", "on_turn_start",
)
_HOOK_ATTR = {
    "legal_trades": "_h_trades", "legal_builds": "_h_builds", "candidates": "_h_candidates",
    "check_place": "_h_check_place", "on_place": "_h_place", "on_remove": "_h_remove",
    "on_founding_settlement": "_h_founding", "on_founding_done": "_h_founding_done",
    "founding_building": "_h_founding_building",
    "before_production": "_h_before", "resolve_roll": "_h_resolve", "on_roll": "_h_roll",
    "hand_limit": "_h_limit", "robber_targets": "_h_targets", "on_robber": "_h_robber", "vp": "_h_vp",
    "rate": "_h_rate", "on_end_turn": "_h_end_turn", "on_turn_start": "_h_turn_start",
}
_WIRINGS: dict[tuple[str, ...], dict[str, Any]] = {}


def _wiring(mods: tuple[Module, ...]) -> dict[str, Any]:
    """Dispatch tables and hook lists for a set of modules, built once and shared by every game using them.

    Everything here is game-independent (functions taking the game, methods of the stateless
    module objects), so games and their copies share it instead of rebuilding it.
    """
    key = tuple(m.name for m in mods)
    w = _WIRINGS.get(key)
    if w is not None and all(MODULES.get(n) is m for n, m in zip(key, mods)):
        return w
    checks: dict[type, Any] = dict(_BASE_CHECKS)
    applies: dict[type, Any] = dict(_BASE_APPLY)
    for m in mods:
        for cls, (check, apply) in m.actions.items():
            checks[cls] = check
            applies[cls] = apply
    w = {
        "_check_dispatch": checks,  # read-only by convention: shared by every game with these modules
        "_apply_dispatch": applies,
        "_h_legal": tuple(m for m in mods if m.overrides("legal")),
        "_legal_by_phase": {},  # filled lazily; its values are derived from the modules only
        "_n_dice": 2 + sum(m.extra_dice for m in mods),
        "_ext_copy": {m.name: m.copy_state for m in mods if m.overrides("copy_state")},
    }
    for hook in _HOOKS:
        w[_HOOK_ATTR[hook]] = tuple(getattr(m, hook) for m in mods if m.overrides(hook))
    # B-END-3: the win is checked after every action that can change VP; when every module says
    # during which actions it may change VP (``vp_actions``), the others skip the check.
    if all(m.vp_actions is not None for m in mods):
        relevant = set(_BASE_VP_ACTIONS).union(*(m.vp_actions for m in mods))
        w["_vp_neutral"] = frozenset(t for t in applies if t not in relevant)
    else:
        w["_vp_neutral"] = frozenset()
    _WIRINGS[key] = w
    return w


# ---------------------------------------------------------------- the base game's steps
def _founding_done(game: Game, decision: Decision) -> None:
    """B-SETUP-20: after the founding the starting seat takes the first turn."""
    game.active = game.starting_seat
    for h in game._h_founding_done:
        h(game)
    game._begin_turn(game.starting_seat)


def _resolve(game: Game, dice: tuple[int, ...]) -> None:
    """Resolve a roll: production or the robber (``resolve_roll`` hooks), then reactions (``on_roll``)."""
    total = dice[0] + dice[1]
    for h in game._h_resolve:
        h(game, total)
    for h in game._h_roll:
        h(game, total)


def _resolve_roll(game: Game, decision: Decision) -> None:
    """The step that resolves a roll once whatever came before production is settled."""
    _resolve(game, decision.data)


Phase.register("founding_done", "the founding phase ends", step=_founding_done)
#: B-END-3: no win is checked in these phases (the founding, a finished game).
_NO_WIN = frozenset({Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD, Phase.GAME_OVER})
Phase.register("resolve_roll", "the roll is resolved", step=_resolve_roll)

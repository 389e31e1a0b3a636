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

Where each part of ``Game`` lives: ``Game`` is the one facade; its parts are mixin
classes in files of their own, each holding one concern of the engine (use them through
``Game``, never alone):

==========================  ===============================================================
``game.py``                 ``Game``: construction (``__init__`` in named steps), ``vp``,
                            ``view``, display; :class:`PlayerView`; the wiring of the
                            engine's own actions and phase steps
``game_options.py``         :class:`Rules`, the rule options, and their checks
``game_turn.py``            ``TurnFlow``: the decision stack, ``legal_actions``, ``play`` /
                            ``apply``, the roll, the turn, the win; chance for modules
``game_pieces.py``          ``Placement``: piece queries, candidate sites and their checks,
                            ``place`` / ``remove``, the founding, the beginner set-up
``game_goods.py``           ``Goods``: hands and the bank, card moves, bank rates, the
                            robber's reach, the production index and ``produce``
``game_roads.py``           ``LongestRoad``: trail lengths, kept lazily, and the card
``game_hooks.py``           the hook dispatch: module hooks and action tables, wired once
                            per set of modules
``game_codec.py``           ``GameCodec``: ``copy``, ``determinized``, ``state``, saves
                            (``to_json`` / ``from_json`` / ``save`` / ``load``) and ``digest``
==========================  ===============================================================

The seat that must act now is :attr:`Game.current_player`; the seat whose turn it is,
:attr:`Game.active_player` (one name per concept; ``current`` is a deprecated alias).

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

import warnings

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from random import Random
from types import MappingProxyType
from typing import Any

from ..board import Board, Topology
from ..constants import (
    BANK_PER_RESOURCE,
    DEV_DECK,
    SPECIAL_CARD_VP,
    VP_TO_WIN,
    Building,
    Colour,
    Good,
    DevCard,
    HarbourCode,
    Resource,
    Terrain,
)
from .actions import (
    Action,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    EndTurn,
    RollDice,
)
from .game_codec import SAVE_FORMAT, GameCodec
from .game_goods import Goods
from .game_hooks import wiring
from .game_options import Rules
from .game_pieces import ROAD, Placement
from .game_roads import LongestRoad
from .game_turn import TurnFlow, founding_done, resolve_roll
from .modules import MODULES, Module, resolve
from .modules.development import DevCardQueries
from .modules.trade import TradeQueries
from .phase import Decision, Phase

__all__ = ["Game", "Rules", "Phase", "Decision", "PlayerView", "SAVE_FORMAT"]



#: Seat colours of the base box (B-COMP-9; B-SETUP-3 leaves red out with 3 players).
DEFAULT_COLOURS = {
    3: (Colour.BLUE, Colour.WHITE, Colour.ORANGE),
    4: (Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE),
    5: (Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE, Colour.BROWN),  # X56-COMP-1
    6: (Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE, Colour.BROWN, Colour.GREEN),
}


@dataclass(frozen=True)
class PlayerView:
    """What one player may know (B-SETUP-7, A-15): the information set for bots and the UI.

    Own hand and development cards are shown in full; for opponents only the
    number of cards in hand (``card_counts``: every good, commodities and a module's
    goods included), of development cards, played knights and visible VP.
    ``public_goods`` shows every seat's count of each public good
    (``GoodRules(public=True)``: open coins), which is no secret.
    ``modules`` holds what each rule module lets the player see of its state.
    """

    player: int
    phase: Phase
    current_player: int
    active_player: int
    hand: dict[Good, int]
    dev_cards: dict[DevCard, int]
    card_counts: tuple[int, ...]
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
    public_goods: dict[Good, tuple[int, ...]] = field(default_factory=dict)

    @property
    def resource_counts(self) -> tuple[int, ...]:
        """Deprecated name of :attr:`card_counts` (it counts every good, not only the resources)."""
        warnings.warn("PlayerView.resource_counts is deprecated: use card_counts (it counts cards of every good)",
                      DeprecationWarning, stacklevel=2)
        return self.card_counts


def _checked_arguments(board: Board, players: Any, seed: Any, start: str, rules: Rules | None, starting_seat: Any,
                       board_rules: bool = True) -> tuple[Rules, tuple[str, ...]]:
    """Check the arguments of :class:`Game` that need no module; return the rules (the board's own
    for ``rules=None``, with the chosen modules only) and the names of every module in play.
    ``board_rules=False`` (a save replayed as it was played) takes ``rules`` as they are."""
    if rules is not None and not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, not {type(rules).__name__}")
    if not isinstance(board, Board):
        raise ValueError(f"board must be a Board, not {type(board).__name__}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number (3 to 6), not {players!r}")
    if board_rules or rules is None:
        rules = Rules.for_game(board, rules, players)  # a scenario board's own modules (SF-13, SC-13)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise ValueError(f"seed must be a whole number in 0..2**64-1, not {seed!r}")
    if isinstance(starting_seat, bool) or not isinstance(starting_seat, int):
        raise ValueError(f"starting_seat must be a seat number, not {starting_seat!r}")
    names = resolve(rules.modules, players)
    chosen = tuple(n for n in names if not MODULES[n].builtin)
    if chosen != rules.modules:
        rules = replace(rules, modules=chosen)
    return rules, names


class Game(TurnFlow, Placement, Goods, LongestRoad, GameCodec, DevCardQueries, TradeQueries):
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
        Rule options and modules.  ``None``: the board's own, :meth:`Rules.for_board` (the base
        game, or the modules a scenario board's file names: SF-13, SC-13).  Rules given must hold
        every module the board names (more are welcome; see :meth:`Rules.for_game`).
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
        self._set_up(board, players, seed, start, rules, starting_seat, colours)

    def _set_up(self, board: Board, players: int, seed: int | None, start: str, rules: Rules | None,
                starting_seat: int, colours: Iterable[Colour] | None, board_rules: bool = True) -> None:
        """``__init__``'s work; ``board_rules=False`` replays a save with the rules it was played by
        (:meth:`from_json`), even where they lack a module its board names."""
        rules, names = _checked_arguments(board, players, seed, start, rules, starting_seat, board_rules)
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
        self._init_setup(board, players, seed, start, rules, starting_seat, colours)
        self._init_goods()  # the goods and piece kinds in play (registries)
        self._init_pieces()
        self._init_components()
        self._init_state()
        self._wire()
        for m in self.modules:
            m.init(self)
        self._index_production()
        self._init_start()

    def _init_setup(self, board: Board, players: int, seed: int | None, start: str, rules: Rules,
                    starting_seat: int, colours: Iterable[Colour] | None) -> None:
        """The set-up: board, seats and their colours, seed and generator, rules."""
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

    def _init_components(self) -> None:
        """The components after the modules' ``components`` hooks, and the VP target."""
        rules = self.rules
        # B-COMP-2, B-COMP-6; modules change them: X56-COMP-2..3
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

    def _init_state(self) -> None:
        """The state of a game before any piece is placed (plain data)."""
        t = self._t
        starting_seat = self.starting_seat
        n = self.n
        G = self.n_goods
        K = len(self.kinds)
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
        self._init_roads()
        #: Terrain and token of every hex now (they may change: fog revealed, tokens moved).
        self.hex_terrain: list[Terrain] = list(t.hex_terrain)
        self.hex_token: list[int] = list(t.hex_token)
        self.robber: int = self.board.robber_start
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

    def _init_start(self) -> None:
        """The first decisions: the beginner set-up's first turn (B-SETUP-1..5), or the founding in
        snake order (B-SETUP-15, B-SETUP-16)."""
        n, starting_seat = self.n, self.starting_seat
        if self.start == "beginner":
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
        self.__dict__.update(wiring(self.modules, _BASE_CHECKS, _BASE_APPLY))

    # ================================================================== public queries

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

    # ================================================================== views and copies
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (B-SETUP-7): hidden hands and development cards become counts."""
        kinds = self.kinds
        return PlayerView(
            player=player,
            phase=self.phase,
            current_player=self.current_player,
            active_player=self.active,
            hand=self.hand(player),
            dev_cards=self.dev_cards(player),
            card_counts=tuple(sum(h) for h in self.hands),
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
            legal_actions=tuple(self.legal_actions()) if self.current_player == player else (),
            pieces={v: (o, kinds[self.node_kind[v]].name) for v, o in enumerate(self.node_owner) if o >= 0},  # type: ignore[union-attr]
            paths={e: (o, kinds[self.edge_kind[e]].name) for e, o in enumerate(self.edge_owner) if o >= 0},  # type: ignore[union-attr]
            decisions=tuple((d.phase.value, d.player) for d in self.stack),
            modules={m.name: v for m in self.modules if m.overrides("view") and (v := m.view(self, player))},
            public_goods={self.goods[i]: tuple(h[i] for h in self.hands) for i in self.public_goods},
        )

    # ================================================================== save / load

    # ================================================================== display
    def __repr__(self) -> str:
        vps = ", ".join(f"{c}:{self.vp(p, visible=True)}" for p, c in enumerate(self.colours))
        return f"<Game turn {self.turn}, {self.phase.value}, seat {self.current_player} to act; visible VP {vps}>"

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

# ---------------------------------------------------------------- the base game's steps
Phase.register("founding_done", "the founding phase ends", step=founding_done)
Phase.register("resolve_roll", "the roll is resolved", step=resolve_roll)

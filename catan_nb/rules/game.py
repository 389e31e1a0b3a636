"""The base-game rules engine (RULES.md sections 1-10).

A :class:`Game` holds the state of one game on a :class:`~catan_nb.board.Board`.
It offers two ways to apply an action (STYLE.md, point 5):

* :meth:`Game.play` checks the action against every rule and raises
  :class:`~catan_nb.errors.IllegalActionError` naming the rule id and the
  evidence; a rejected action leaves the game exactly as it was.
* :meth:`Game.apply` trusts its caller (use it with actions taken from
  :meth:`Game.legal_actions`); it is the fast path for simulation.

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
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache, partial
from types import MappingProxyType
from pathlib import Path
from random import Random
from typing import Any

from .._codec import FieldError, normalize_action, short_repr
from .._files import parse_json, read_json, replay_actions, write_atomic
from ..board import Board, Topology
from ..constants import (
    BANK_PER_RESOURCE,
    COSTS,
    DEV_DECK,
    DISCARD_LIMIT,
    LARGEST_ARMY_MIN,
    LONGEST_ROAD_MIN,
    PIECE_LIMITS,
    RESOURCES,
    SPECIAL_CARD_VP,
    VP_TO_WIN,
    Building,
    Colour,
    DevCard,
    Resource,
)
from ..errors import CatanError, IllegalActionError, SaveFileError
from .actions import (
    AcceptTrade,
    Action,
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
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
    action_from_json,
    action_to_json,
)
from .longest_road import longest_trail
from .modules import MODULES
from .phase import Phase

__all__ = ["Game", "Rules", "Phase", "PlayerView", "SAVE_FORMAT"]

SAVE_FORMAT = "catan_nb.game"
SAVE_VERSION = 1

ROAD, SETTLEMENT, CITY, DEV = (COSTS[k] for k in ("road", "settlement", "city", "development_card"))
N_RES = len(RESOURCES)
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = (c.value for c in DevCard)
GENERIC = Topology.GENERIC_HARBOUR

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
        Rule modules: ``"five_six"`` (implied by 5-6 players), ``"friends"``, ``"helpers"``.
    vp_to_win : int, optional
        B-END-2; ``None`` takes the target of the modules (10 base, 11 with Friends: F-END-1).
    discard_limit : int
        B-ROB-2: more than this many resource cards means discarding half.
    knights_only_before_roll : bool
        A-01: only knights may be played before the roll (default: any card).
    steal_mandatory : bool
        A-04 / B-ROB-6: the robber must steal when it can.
    combined_trade_build : bool
        A-08 / B-TURN-2: trading after building in the same turn.
    shortage_single_taker : bool
        B-COMP-14's recalled exception: a sole claimant takes what the bank has left.
    """

    modules: tuple[str, ...] = ()
    vp_to_win: int | None = None
    discard_limit: int = DISCARD_LIMIT
    knights_only_before_roll: bool = False
    steal_mandatory: bool = False
    combined_trade_build: bool = False
    shortage_single_taker: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "modules", tuple(self.modules))
        for m in self.modules:
            if m not in MODULES:
                raise ValueError(f"unknown rule module {m!r}; expected one of {', '.join(sorted(MODULES))}")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["modules"] = list(self.modules)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown rule option {sorted(unknown)[0]!r}")
        return cls(**data)


@dataclass(frozen=True)
class PlayerView:
    """What one player may know (B-SETUP-7, A-15): the information set for bots and the UI.

    Own hand and development cards are shown in full; for opponents only the
    number of resource and development cards, played knights and visible VP.
    """

    player: int
    phase: Phase
    current_player: int
    active_player: int
    hand: dict[Resource, int]
    dev_cards: dict[DevCard, int]
    resource_counts: tuple[int, ...]
    dev_counts: tuple[int, ...]
    played_knights: tuple[int, ...]
    visible_vp: tuple[int, ...]
    own_vp: int
    road_lengths: tuple[int, ...]
    longest_road: int | None
    largest_army: int | None
    bank: dict[Resource, int]
    deck_size: int
    robber: int
    buildings: dict[int, tuple[int, Building]]
    roads: dict[int, int]
    dice_history: tuple[tuple[int, int], ...]
    trade_offer: tuple[tuple[int, ...], tuple[int, ...]] | None
    legal_actions: tuple[Action, ...] = field(default=())


@lru_cache(maxsize=None)
def _cached_actions(n_nodes: int, n_edges: int, n_hexes: int, n_players: int) -> Mapping[str, Any]:
    """Reusable action instances: actions are values, so every game of this size shares them (read-only)."""
    return MappingProxyType({
        "settle": tuple(BuildSettlement(v) for v in range(n_nodes)),
        "city": tuple(BuildCity(v) for v in range(n_nodes)),
        "road": tuple(BuildRoad(e) for e in range(n_edges)),
        "trade": tuple(tuple(MaritimeTrade(g, r) for r in RESOURCES) for g in RESOURCES),
        "discard": tuple(Discard(tuple(int(i == r) for i in range(N_RES))) for r in range(N_RES)),
        "robber": tuple(tuple(MoveRobber(hx, o) for o in range(n_players)) for hx in range(n_hexes)),
        "robber_plain": tuple(MoveRobber(hx) for hx in range(n_hexes)),
        "yop": tuple(tuple(PlayYearOfPlenty(a, b) for b in RESOURCES) for a in RESOURCES),
        "mono": tuple(PlayMonopoly(r) for r in RESOURCES),
        "confirm": tuple(ConfirmTrade(p) for p in range(n_players)),
    })


def _tally(items: Iterable[int], width: int) -> list[int]:
    """Counts per index of a list of small ints."""
    out = [0] * width
    for i in items:
        out[i] += 1
    return out


_END_TURN = EndTurn()
_ROLL = RollDice()
_BUY = BuyDevelopmentCard()
_KNIGHT = PlayKnight()
_RB = PlayRoadBuilding()
_END_RB = EndRoadBuilding()
_ACCEPT = AcceptTrade()
_DECLINE = DeclineTrade()
_CANCEL = CancelTrade()


class Game:
    """A base game of Catan for 3 or 4 players.

    Parameters
    ----------
    board : Board
        The island.
    players : int
        3 or 4 (B-COMP-9).
    seed : int, optional
        Seed of the game's own random generator; every chance outcome comes from
        it.  ``None`` draws a fresh seed, which is stored and saved.
    start : {"founding", "beginner"}
        ``"founding"``: snake-order placement (B-SETUP-15..20).  ``"beginner"``:
        the board file's pre-placed pieces and starting resources (B-SETUP-1..5).
    rules : Rules, optional
        Rule options.
    starting_seat : int
        Who starts (B-SETUP-8 DECISION).

    Attributes
    ----------
    log : list of Action
        Every applied action with its chance outcome filled in.
    dice_history : list of (int, int)
        Every production roll.

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
        rules = rules or Rules()
        names = list(rules.modules)
        if players in (5, 6) and "five_six" not in names:
            names.insert(0, "five_six")  # X56-GEN-1: 5-6 players means the extension
        rules = replace(rules, modules=tuple(names))
        self.modules = tuple(MODULES[m] for m in names)
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
        self.colours: tuple[Colour, ...] = tuple(colours)
        if len(self.colours) != players:
            raise ValueError(f"{players} players need {players} colours, got {len(self.colours)}")
        self._rng = Random(self.seed)
        t = board.topology
        self._t = t
        self._acts = _cached_actions(t.n_nodes, t.n_edges, t.n_hexes, players)
        self._producers = tuple(
            tuple((hx, t.hex_resource[hx], t.hex_nodes[hx]) for hx in t.token_hexes[k]) for k in range(13)
        )
        n = players
        bank_per, deck = BANK_PER_RESOURCE, dict(DEV_DECK)
        for m in self.modules:
            bank_per, deck = m.components(bank_per, deck)
        #: Cards of each resource in the game (B-COMP-2; X56-COMP-2).
        self.bank_per_resource: int = bank_per
        #: Development cards in the game (B-COMP-6; X56-COMP-3).
        self.deck_total: int = sum(deck.values())
        targets = [m.vp_target for m in self.modules if m.vp_target]
        #: Victory points to win (B-END-2; F-END-1).
        self.vp_target: int = rules.vp_to_win if rules.vp_to_win is not None else max([VP_TO_WIN, *targets])
        # --- state (plain data) ---
        self.bank: list[int] = [bank_per] * N_RES
        self.hands: list[list[int]] = [[0] * N_RES for _ in range(n)]
        self.deck: list[int] = [deck[c] for c in DevCard]
        self.dev: list[list[int]] = [[0] * len(DevCard) for _ in range(n)]
        self.dev_new: list[list[int]] = [[0] * len(DevCard) for _ in range(n)]
        self.knights: list[int] = [0] * n
        self.node_owner: list[int] = [-1] * t.n_nodes
        self.node_kind: list[int] = [0] * t.n_nodes
        self.edge_owner: list[int] = [-1] * t.n_edges
        self.blocked: list[int] = [0] * t.n_nodes  # buildings at or next to the node (B-BUILD-7)
        self.occupied: list[int] = []  # intersections holding a building, in order of founding
        self.road_nodes: list[set[int]] = [set() for _ in range(n)]
        self.roads: list[set[int]] = [set() for _ in range(n)]
        self.n_settlements: list[int] = [0] * n
        self.n_cities: list[int] = [0] * n
        self.harbours: list[set[int]] = [set() for _ in range(n)]
        self.road_length: list[int] = [0] * n
        self.longest_road_holder: int | None = None
        self.largest_army_holder: int | None = None
        self.robber: int = board.robber_start
        self.active: int = starting_seat
        self.current: int = starting_seat
        self.phase: Phase = Phase.FOUNDING_SETTLEMENT
        self.turn: int = 0  # regular turns begun
        self.winner: int | None = None
        self.dev_played: bool = False
        self.built_this_turn: bool = False
        self.free_roads: int = 0
        self._resume: Phase = Phase.MAIN
        self._discard_owed: list[int] = [0] * n
        self._founding_order: list[int] = []
        self._founding_step: int = 0
        self._last_settlement: int = -1
        self.trade_offer: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._trade_responders: list[int] = []
        self._trade_accepted: list[int] = []
        self.log: list[Action] = []
        self.dice_history: list[tuple[int, int]] = []
        self.last_production: dict[int, list[int]] = {}
        self.ext: dict[str, Any] = {}  # module state, plain data
        for m in self.modules:
            m.init(self)
        self._wire()
        if start == "beginner":
            self._setup_beginner()
        else:
            order = [(starting_seat + i) % n for i in range(n)]
            self._founding_order = order + order[::-1]  # B-SETUP-15, B-SETUP-16
            self.current = self.active = order[0]

    def _wire(self) -> None:
        """Bind action dispatch and module hooks to this game (also after :meth:`copy`)."""
        self._check_dispatch: dict[type, Any] = {
            BuildSettlement: self._check_settlement,
            BuildRoad: self._check_road,
            BuildCity: self._check_city,
            BuyDevelopmentCard: self._check_buy,
            RollDice: self._check_roll,
            EndTurn: self._check_end_turn,
            Discard: self._check_discard,
            MoveRobber: self._check_robber,
            PlayKnight: self._check_knight,
            PlayRoadBuilding: self._check_road_building,
            EndRoadBuilding: self._check_end_road_building,
            PlayYearOfPlenty: self._check_year_of_plenty,
            PlayMonopoly: self._check_monopoly,
            MaritimeTrade: self._check_maritime,
            OfferTrade: self._check_offer,
            AcceptTrade: self._check_response,
            DeclineTrade: self._check_response,
            ConfirmTrade: self._check_confirm,
            CancelTrade: self._check_cancel,
        }
        self._apply_dispatch: dict[type, Any] = {
            BuildSettlement: self._do_settlement,
            BuildRoad: self._do_road,
            BuildCity: self._do_city,
            BuyDevelopmentCard: self._do_buy,
            RollDice: self._do_roll,
            EndTurn: self._do_end_turn,
            Discard: self._do_discard,
            MoveRobber: self._do_robber,
            PlayKnight: self._do_knight,
            PlayRoadBuilding: self._do_road_building,
            EndRoadBuilding: self._do_end_road_building,
            PlayYearOfPlenty: self._do_year_of_plenty,
            PlayMonopoly: self._do_monopoly,
            MaritimeTrade: self._do_maritime,
            OfferTrade: self._do_offer,
            AcceptTrade: self._do_accept,
            DeclineTrade: self._do_decline,
            ConfirmTrade: self._do_confirm,
            CancelTrade: self._do_cancel,
        }
        mods = self.modules
        for m in mods:
            for cls, (check, apply) in m.actions.items():
                self._check_dispatch[cls] = partial(check, self)
                self._apply_dispatch[cls] = partial(apply, self)
        self._h_legal = [m for m in mods if m.overrides("legal")]
        self._h_founding = [m for m in mods if m.overrides("on_founding_settlement")]
        self._h_founding_done = [m for m in mods if m.overrides("on_founding_done")]
        self._h_road = [m for m in mods if m.overrides("on_road")]
        self._h_settlement = [m for m in mods if m.overrides("on_settlement")]
        self._h_robber = [m for m in mods if m.overrides("on_robber")]
        self._h_roll = [m for m in mods if m.overrides("on_roll")]
        self._h_end_turn = [m for m in mods if m.overrides("on_end_turn")]
        self._h_turn_start = [m for m in mods if m.overrides("on_turn_start")]
        self._h_vp = [m for m in mods if m.overrides("vp")]
        self._h_rate = [m for m in mods if m.overrides("rate")]
        self._build_phases = frozenset([Phase.MAIN, *(ph for m in mods for ph in m.build_phases)])

    # ================================================================== public queries
    @property
    def current_player(self) -> int:
        """The seat that must act now (the active player, or a discarding/responding seat)."""
        return self.current

    @property
    def active_player(self) -> int:
        """The seat whose turn it is."""
        return self.active

    @property
    def is_over(self) -> bool:
        """True once someone has won (B-END-3)."""
        return self.phase is Phase.GAME_OVER

    def hand(self, player: int) -> dict[Resource, int]:
        """A player's resource cards by resource."""
        return {r: self.hands[player][r.value] for r in RESOURCES}

    def dev_cards(self, player: int) -> dict[DevCard, int]:
        """A player's unplayed development cards by kind (VP cards included)."""
        return {c: self.dev[player][c.value] for c in DevCard}

    def vp(self, player: int, *, visible: bool = False) -> int:
        """Victory points (B-END-1); ``visible=True`` leaves out hidden VP cards (B-END-6)."""
        v = self.n_settlements[player] + 2 * self.n_cities[player]
        if self.longest_road_holder == player:
            v += SPECIAL_CARD_VP
        if self.largest_army_holder == player:
            v += SPECIAL_CARD_VP
        if not visible:
            v += self.dev[player][VICTORY_POINT]
        for m in self._h_vp:
            v += m.vp(self, player, visible)
        return v

    def pieces_left(self, player: int) -> dict[str, int]:
        """Pieces still in a player's supply (B-COMP-9, B-COMP-12)."""
        return {
            "road": PIECE_LIMITS["road"] - len(self.roads[player]),
            "settlement": PIECE_LIMITS["settlement"] - self.n_settlements[player],
            "city": PIECE_LIMITS["city"] - self.n_cities[player],
        }

    def building_at(self, node: int) -> tuple[int, Building] | None:
        """``(owner, Building)`` on an intersection, or ``None``."""
        if self.node_owner[node] < 0:
            return None
        return self.node_owner[node], Building(self.node_kind[node])

    def road_owner(self, path: int) -> int | None:
        """Owner of the road on a path, or ``None``."""
        o = self.edge_owner[path]
        return None if o < 0 else o

    def longest_road(self, player: int) -> int:
        """Length of a player's longest road (B-LR-1..3), as cached by the engine."""
        return self.road_lengths()[player]

    def road_lengths(self) -> list[int]:
        """Every seat's longest road length (B-LR-1..3)."""
        for q in range(self.n):
            if self.road_length[q] < 0:
                self.road_length[q] = self._trail(q)[0]
        return list(self.road_length)

    def longest_road_path(self, player: int) -> list[int]:
        """The paths of one longest road of ``player``, in order along the road."""
        return self._trail(player)[1]

    def maritime_rate(self, player: int, resource: Resource) -> int:
        """Best bank rate for giving ``resource``: 2, 3 or 4 (B-TRADE-6..9)."""
        return self._rates(player)[resource.value]

    def _rates(self, player: int) -> list[int]:
        hs = self.harbours[player]
        base = 3 if GENERIC in hs else 4
        rates = [2 if r in hs else base for r in range(N_RES)]
        for m in self._h_rate:
            rates = [m.rate(self, player, r, rates[r]) for r in range(N_RES)]
        return rates

    def robber_victims(self, hex_id: int) -> list[int]:
        """Opponents of the current player who could be robbed on ``hex_id`` (B-ROB-6, B-ROB-8)."""
        p = self.active
        out = set()
        for v in self._t.hex_nodes[hex_id]:
            o = self.node_owner[v]
            if o >= 0 and o != p and sum(self.hands[o]) > 0:
                out.add(o)
        return sorted(out)

    def deal(self, player: int, cards) -> None:
        """Move resource cards from the bank to a hand, for teaching positions and sandboxes.

        ``cards`` is 5 counts (``counts(ore=2)``) or a mapping of Resource to count.
        The 95 (or 120) cards stay conserved.  This is not an action: it is not
        logged, so a game that used it no longer replays from its log.

        Raises
        ------
        CatanError
            If the bank does not hold the cards (B-COMP-2); nothing moves.

        Examples
        --------
        >>> from catan_nb import Board, Resource
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> g.deal(0, {Resource.ORE: 2})
        >>> g.hand(0)[Resource.ORE], sum(g.bank) + sum(map(sum, g.hands))
        (2, 95)
        """
        if isinstance(cards, dict):
            want = [0] * N_RES
            for r, k in cards.items():
                want[Resource.parse(r).value] += int(k)
        else:
            want = [int(k) for k in cards]
        if len(want) != N_RES or any(k < 0 for k in want):
            raise CatanError(f"deal takes 5 non-negative counts, not {cards!r}")
        short = [f"{RESOURCES[r]} (has {self.bank[r]}, {want[r]} asked)" for r in range(N_RES) if want[r] > self.bank[r]]
        if short:
            raise CatanError(f"B-COMP-2: the bank is short of {', '.join(short)}")
        for r in range(N_RES):
            self.bank[r] -= want[r]
            self.hands[player][r] += want[r]

    def can_trade(self) -> bool:
        """Whether the active player may trade now (B-TRADE-1, B-TURN-2, B-TURN-3)."""
        return (
            self.phase is Phase.MAIN
            and self.current == self.active
            and (not self.built_this_turn or self.rules.combined_trade_build)
        )

    def discards_owed(self) -> dict[int, int]:
        """Cards each seat still has to discard after a 7."""
        return {p: k for p, k in enumerate(self._discard_owed) if k}

    @property
    def trade_partners(self) -> list[int]:
        """Seats that accepted the open domestic offer."""
        return list(self._trade_accepted)

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
        out = self._legal_base(offers)
        for m in self._h_legal:
            m.legal(self, out)
        return out

    def _legal_base(self, offers: bool) -> list[Action]:
        ph = self.phase
        if ph is Phase.MAIN:
            return self._legal_main(offers)
        if ph is Phase.ROLL:
            out: list[Action] = [_ROLL]
            self._legal_dev_plays(out, before_roll=True)
            return out
        if ph is Phase.FOUNDING_SETTLEMENT:
            a = self._acts["settle"]
            return [a[v] for v in range(self._t.n_nodes) if not self.blocked[v]]
        if ph is Phase.FOUNDING_ROAD:
            a = self._acts["road"]
            return [a[e] for e in self._t.node_edges[self._last_settlement] if self.edge_owner[e] < 0]
        if ph is Phase.DISCARD:
            h = self.hands[self.current]
            d = self._acts["discard"]
            return [d[r] for r in range(N_RES) if h[r]]
        if ph is Phase.MOVE_ROBBER:
            return self._legal_robber()
        if ph is Phase.ROAD_BUILDING:
            a = self._acts["road"]
            if len(self.roads[self.active]) >= PIECE_LIMITS["road"]:  # B-COMP-12
                return [_END_RB]
            return [a[e] for e in self._road_candidates(self.active)] + [_END_RB]
        if ph is Phase.TRADE_RESPONSE:
            need = self.trade_offer[1]  # type: ignore[index]
            h = self.hands[self.current]
            ok = all(h[r] >= need[r] for r in range(N_RES))
            return [_ACCEPT, _DECLINE] if ok else [_DECLINE]
        if ph is Phase.TRADE_CONFIRM:
            c = self._acts["confirm"]
            return [c[p] for p in self._trade_accepted] + [_CANCEL]
        return []

    def _legal_main(self, offers: bool) -> list[Action]:
        p = self.active
        h = self.hands[p]
        out: list[Action] = [_END_TURN]
        acts = self._acts
        if not self.built_this_turn or self.rules.combined_trade_build:  # B-TURN-2 (see can_trade)
            bank = self.bank
            rates = self._rates(p)
            trades = acts["trade"]
            for g in range(N_RES):
                if h[g] >= rates[g]:
                    row = trades[g]
                    for r in range(N_RES):
                        if r != g and bank[r]:
                            out.append(row[r])
            if offers:
                for g in range(N_RES):
                    if h[g]:
                        for r in range(N_RES):
                            if r != g:
                                out.append(OfferTrade(self._unit(g), self._unit(r)))
        self._legal_builds(p, out)
        self._legal_dev_plays(out, before_roll=False)
        return out

    def _legal_builds(self, p: int, out: list[Action]) -> None:
        """Paid builds and purchases of seat ``p`` (B-BUILD-1..9, B-BUILD-11)."""
        h = self.hands[p]
        acts = self._acts
        if h[0] >= 1 and h[1] >= 1 and len(self.roads[p]) < PIECE_LIMITS["road"]:
            a = acts["road"]
            out.extend(a[e] for e in self._road_candidates(p))
        if h[0] >= 1 and h[1] >= 1 and h[2] >= 1 and h[3] >= 1 and self.n_settlements[p] < PIECE_LIMITS["settlement"]:
            a = acts["settle"]
            blocked = self.blocked
            out.extend(a[v] for v in sorted(self.road_nodes[p]) if not blocked[v])
        if h[4] >= 3 and h[3] >= 2 and self.n_cities[p] < PIECE_LIMITS["city"]:
            a = acts["city"]
            owner, kind = self.node_owner, self.node_kind
            out.extend(a[v] for v in range(self._t.n_nodes) if owner[v] == p and kind[v] == 1)
        if h[2] >= 1 and h[3] >= 1 and h[4] >= 1 and any(self.deck):
            out.append(_BUY)

    @staticmethod
    def _unit(r: int) -> tuple[int, ...]:
        return tuple(int(i == r) for i in range(N_RES))

    def _legal_dev_plays(self, out: list[Action], *, before_roll: bool) -> None:
        if self.dev_played:
            return
        p = self.active
        d = self.dev[p]
        if not (d[0] or d[1] or d[2] or d[3]):
            return
        playable = [self.dev[p][c] - self.dev_new[p][c] for c in range(4)]
        if playable[KNIGHT] > 0:
            out.append(_KNIGHT)
        if before_roll and self.rules.knights_only_before_roll:
            return
        if playable[ROAD_BUILDING] > 0 and len(self.roads[p]) < PIECE_LIMITS["road"] and self._road_candidates(p):
            out.append(_RB)
        if playable[YEAR_OF_PLENTY] > 0:
            yop = self._acts["yop"]
            bank = self.bank
            for a in range(N_RES):
                if bank[a]:
                    for b in range(a, N_RES):
                        if bank[b] >= 1 + (a == b):
                            out.append(yop[a][b])
        if playable[MONOPOLY] > 0:
            out.extend(self._acts["mono"])

    def _legal_robber(self) -> list[Action]:
        """B-ROB-5..8: every other land hex, with each possible victim (or none)."""
        p = self.active
        owner, hands, node_hexes = self.node_owner, self.hands, self._t.node_hexes
        at_hex: dict[int, set[int]] = {}
        for v in self.occupied:
            o = owner[v]
            if o != p and any(hands[o]):
                for hx in node_hexes[v]:
                    at_hex.setdefault(hx, set()).add(o)
        robber = self.robber
        plain = self._acts["robber_plain"]
        if self.rules.steal_mandatory:
            out: list[Action] = [plain[hx] for hx in range(self._t.n_hexes) if hx != robber and hx not in at_hex]
        else:
            out = [plain[hx] for hx in range(self._t.n_hexes) if hx != robber]
        steal = self._acts["robber"]
        for hx in sorted(at_hex):
            if hx == robber:
                continue
            row = steal[hx]
            out.extend(row[o] for o in sorted(at_hex[hx]))
        return out

    def _road_candidates(self, p: int) -> list[int]:
        """Empty paths where ``p`` may build a road (B-BUILD-3..5)."""
        t = self._t
        owner = self.node_owner
        edge_owner = self.edge_owner
        cands: set[int] = set()
        for v in self.road_nodes[p]:
            o = owner[v]
            if o < 0 or o == p:
                for e in t.node_edges[v]:
                    if edge_owner[e] < 0:
                        cands.add(e)
        for v in self.occupied:  # B-BUILD-4: one's own building, even with no road at it
            if owner[v] == p and v not in self.road_nodes[p]:
                for e in t.node_edges[v]:
                    if edge_owner[e] < 0:
                        cands.add(e)
        return sorted(cands)

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
                "API", f"{short_repr(action)} is not an action of this game (rule modules: {list(self.rules.modules)})", action
            )
        try:
            action = normalize_action(action)  # the checked boundary: canonical field types
        except FieldError as exc:
            raise IllegalActionError("API", str(exc), action) from None
        if self.phase is Phase.GAME_OVER:
            raise IllegalActionError("B-END-3", f"the game is over: seat {self.winner} won", action)
        check(action)
        self._apply_dispatch[type(action)](action)
        self._check_win()  # B-END-3, after every action

    def apply(self, action: Action) -> None:
        """Apply ``action`` without checking it (fast path; take it from :meth:`legal_actions`)."""
        self._apply_dispatch[type(action)](action)
        self._check_win()  # B-END-3, after every action

    def _fail(self, rule: str, evidence: str, action: Action):
        raise IllegalActionError(rule, evidence, action)

    # ------------------------------------------------------------------ checks
    def _require_phase(self, action: Action, *phases: Phase, rule: str = "B-TURN-2") -> None:
        if self.phase not in phases:
            want = " or ".join(p.value for p in phases)
            self._fail(rule, f"{type(action).__name__} needs phase {want}; the game is in phase {self.phase.value}", action)

    def _require_cards(self, action: Action, cost, what: str) -> None:
        h = self.hands[self.current]
        short = [f"{cost[r] - h[r]} {RESOURCES[r]}" for r in range(N_RES) if h[r] < cost[r]]
        if short:
            self._fail("B-BUILD-1", f"seat {self.current} cannot pay for {what}: short of {', '.join(short)}", action)

    def _check_node(self, action: Action, node: int) -> None:
        if not isinstance(node, int) or not 0 <= node < self._t.n_nodes:
            self._fail("B-BOARD-3", f"there is no intersection {node!r} (0..{self._t.n_nodes - 1})", action)

    def _check_path(self, action: Action, path: int) -> None:
        if not isinstance(path, int) or not 0 <= path < self._t.n_edges:
            self._fail("B-BOARD-3", f"there is no path {path!r} (0..{self._t.n_edges - 1})", action)

    def _check_distance(self, action: Action, v: int) -> None:
        if self.node_owner[v] >= 0:
            self._fail("B-BUILD-7", f"intersection {v} already holds seat {self.node_owner[v]}'s {Building(self.node_kind[v])}", action)
        for w in self._t.node_neighbours[v]:
            if self.node_owner[w] >= 0:
                self._fail(
                    "B-BUILD-7",
                    f"intersection {v} is next to seat {self.node_owner[w]}'s {Building(self.node_kind[w])} at {w}",
                    action,
                )

    def _check_settlement(self, a: BuildSettlement) -> None:
        self._check_node(a, a.node)
        p = self.current
        if self.phase is Phase.FOUNDING_SETTLEMENT:
            self._check_distance(a, a.node)  # B-SETUP-17
            return
        self._require_build_phase(a)
        self._check_settlement_spot(a, p, a.node)
        self._require_cards(a, SETTLEMENT, "a settlement")

    def _check_settlement_spot(self, a: Action, p: int, node: int) -> None:
        """Where ``p`` may put a settlement after the founding (B-COMP-12, B-BUILD-6, B-BUILD-7)."""
        self._check_node(a, node)
        if self.n_settlements[p] >= PIECE_LIMITS["settlement"]:
            self._fail("B-COMP-12", f"seat {p} has no settlement left in supply", a)
        self._check_distance(a, node)
        if node not in self.road_nodes[p]:
            self._fail("B-BUILD-6", f"intersection {node} is not touched by a road of seat {p}", a)

    def _check_road_spot(self, a: Action, p: int, path: int) -> None:
        """Where ``p`` may put a road after the founding (B-BUILD-3, B-COMP-12, B-BUILD-4)."""
        self._check_path(a, path)
        if self.edge_owner[path] >= 0:
            self._fail("B-BUILD-3", f"path {path} already holds a road of seat {self.edge_owner[path]}", a)
        if len(self.roads[p]) >= PIECE_LIMITS["road"]:
            self._fail("B-COMP-12", f"seat {p} has no road left in supply", a)
        if path not in self._road_candidates(p):
            ends = self._t.edge_nodes[path]
            self._fail(
                "B-BUILD-4",
                f"path {path} (intersections {ends[0]}-{ends[1]}) does not continue a road or building of seat {p} "
                "(an opponent's building cuts the way through)",
                a,
            )

    def _check_city_spot(self, a: Action, p: int, node: int) -> None:
        """Where ``p`` may upgrade to a city (B-BUILD-9, B-COMP-12)."""
        self._check_node(a, node)
        if self.node_owner[node] != p or self.node_kind[node] != 1:
            self._fail("B-BUILD-9", f"intersection {node} holds no settlement of seat {p}", a)
        if self.n_cities[p] >= PIECE_LIMITS["city"]:
            self._fail("B-COMP-12", f"seat {p} has no city left in supply", a)

    def _require_build_phase(self, a: Action) -> None:
        if self.phase is Phase.ROLL:
            self._fail("B-TURN-3", f"seat {self.active} must roll before building", a)
        if self.phase not in self._build_phases:
            self._fail("B-BUILD-12", f"building is not allowed in phase {self.phase.value}", a)

    def _check_road(self, a: BuildRoad) -> None:
        self._check_path(a, a.path)
        p = self.current
        if self.edge_owner[a.path] >= 0:
            self._fail("B-BUILD-3", f"path {a.path} already holds a road of seat {self.edge_owner[a.path]}", a)
        if self.phase is Phase.FOUNDING_ROAD:
            if self._last_settlement not in self._t.edge_nodes[a.path]:
                self._fail(
                    "B-SETUP-17",
                    f"a founding road must touch the settlement just placed at {self._last_settlement}; path {a.path} joins {self._t.edge_nodes[a.path]}",
                    a,
                )
            return
        if self.phase is not Phase.ROAD_BUILDING:
            self._require_build_phase(a)
        self._check_road_spot(a, p, a.path)
        if self.phase is not Phase.ROAD_BUILDING:
            self._require_cards(a, ROAD, "a road")

    def _check_city(self, a: BuildCity) -> None:
        self._check_node(a, a.node)
        p = self.current
        self._require_build_phase(a)
        self._check_city_spot(a, p, a.node)
        self._require_cards(a, CITY, "a city")

    def _check_buy(self, a: BuyDevelopmentCard) -> None:
        self._require_build_phase(a)
        if not any(self.deck):
            self._fail("B-COMP-13", "the development deck is empty", a)
        self._require_cards(a, DEV, "a development card")
        if a.card is not None and self.deck[DevCard.parse(a.card).value] == 0:
            self._fail("B-COMP-6", f"the deck holds no {a.card} card to draw", a)

    def _check_roll(self, a: RollDice) -> None:
        self._require_phase(a, Phase.ROLL, rule="B-TURN-2")
        if a.dice is not None:
            if len(a.dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in a.dice):
                self._fail("B-PROD-1", f"two six-sided dice cannot show {a.dice!r}", a)

    def _check_end_turn(self, a: EndTurn) -> None:
        if self.phase is Phase.ROLL:
            self._fail("B-TURN-2", f"seat {self.active} must roll before ending the turn", a)
        self._require_phase(a, Phase.MAIN, rule="B-TURN-9")

    def _check_discard(self, a: Discard) -> None:
        self._require_phase(a, Phase.DISCARD, rule="B-ROB-4")
        p = self.current
        cards = a.cards
        if len(cards) != N_RES or any((not isinstance(c, int)) or c < 0 for c in cards):
            self._fail("B-ROB-2", f"a discard is 5 non-negative counts, not {cards!r}", a)
        total = sum(cards)
        owed = self._discard_owed[p]
        if total == 0 or total > owed:
            self._fail("B-ROB-2", f"seat {p} owes {owed} card(s); the discard gives {total}", a)
        h = self.hands[p]
        for r in range(N_RES):
            if cards[r] > h[r]:
                self._fail("B-ROB-2", f"seat {p} holds {h[r]} {RESOURCES[r]}, cannot discard {cards[r]}", a)

    def _check_robber(self, a: MoveRobber) -> None:
        if self.phase is Phase.DISCARD:
            self._fail("B-ROB-4", f"discards come first; still owed: {self.discards_owed()}", a)
        self._require_phase(a, Phase.MOVE_ROBBER, rule="B-ROB-11")
        if not isinstance(a.hex, int) or not 0 <= a.hex < self._t.n_hexes:
            self._fail("B-ROB-5", f"there is no land hex {a.hex!r}", a)
        if a.hex == self.robber:
            self._fail("B-ROB-5", f"the robber must move to a different hex; it is on hex {a.hex} already", a)
        victims = self.robber_victims(a.hex)
        if a.victim is None:
            if a.stolen is not None:
                self._fail("B-ROB-6", "a stolen card needs a victim", a)
            if victims and self.rules.steal_mandatory:
                self._fail("B-ROB-6", f"stealing is compulsory under these rules; victims: {victims}", a)
            return
        if a.victim == self.active:
            self._fail("B-ROB-8", "a player never steals from themselves", a)
        if a.victim not in victims:
            has = any(self.node_owner[v] == a.victim for v in self._t.hex_nodes[a.hex]) if isinstance(a.victim, int) else False
            why = "has no resource cards" if has else "has no settlement or city on that hex"
            self._fail("B-ROB-8" if has else "B-ROB-6", f"seat {a.victim} {why}", a)
        if a.stolen is not None:
            r = Resource.parse(a.stolen)
            if self.hands[a.victim][r.value] == 0:
                self._fail("B-ROB-7", f"seat {a.victim} holds no {r} to be stolen", a)

    def _check_dev_play(self, a: Action, card: int) -> None:
        p = self.current
        if self.phase not in (Phase.ROLL, Phase.MAIN) or p != self.active:
            self._fail("B-TURN-6", f"development cards are played only in the owner's own turn (phase {self.phase.value})", a)
        if self.dev_played:
            self._fail("B-TURN-4", f"seat {p} has already played a development card this turn", a)
        if self.dev[p][card] == 0:
            self._fail("B-DEV-1", f"seat {p} holds no {DevCard(card)} card", a)
        if self.dev[p][card] - self.dev_new[p][card] <= 0:
            self._fail("B-TURN-5", f"seat {p}'s {DevCard(card)} card was bought this turn", a)
        if self.phase is Phase.ROLL and card != KNIGHT and self.rules.knights_only_before_roll:
            self._fail("B-TURN-3", "under these rules only a knight may be played before the roll (A-01)", a)

    def _check_knight(self, a: PlayKnight) -> None:
        self._check_dev_play(a, KNIGHT)

    def _check_road_building(self, a: PlayRoadBuilding) -> None:
        self._check_dev_play(a, ROAD_BUILDING)
        p = self.active
        if len(self.roads[p]) >= PIECE_LIMITS["road"]:
            self._fail("B-COMP-12", f"seat {p} has no road left in supply for Road Building", a)
        if not self._road_candidates(p):
            self._fail("B-DEV-5", f"seat {p} has no path where a road may go", a)

    def _check_end_road_building(self, a: EndRoadBuilding) -> None:
        self._require_phase(a, Phase.ROAD_BUILDING, rule="B-DEV-5")

    def _check_year_of_plenty(self, a: PlayYearOfPlenty) -> None:
        self._check_dev_play(a, YEAR_OF_PLENTY)
        want = [0] * N_RES
        for r in (a.first, a.second):
            want[Resource.parse(r).value] += 1
        for r in range(N_RES):
            if want[r] > self.bank[r]:
                self._fail("B-DEV-6", f"the bank has {self.bank[r]} {RESOURCES[r]}, {want[r]} asked", a)

    def _check_monopoly(self, a: PlayMonopoly) -> None:
        self._check_dev_play(a, MONOPOLY)
        Resource.parse(a.resource)

    def _require_trade_phase(self, a: Action) -> None:
        if self.current != self.active:
            self._fail("B-TRADE-3", f"seat {self.current} is not the active player; only seat {self.active} trades now", a)
        if self.phase is Phase.ROLL:
            self._fail("B-TURN-3", f"seat {self.active} must roll before trading", a)
        if self.phase is not Phase.MAIN:
            self._fail("B-TRADE-1", f"trading is not allowed in phase {self.phase.value}", a)
        if self.built_this_turn and not self.rules.combined_trade_build:
            self._fail("B-TURN-2", f"seat {self.active} has built this turn; the trade phase is over", a)

    def _check_maritime(self, a: MaritimeTrade) -> None:
        self._require_trade_phase(a)
        g, r = Resource.parse(a.give), Resource.parse(a.get)
        if g is r:
            self._fail("B-TRADE-11", f"a maritime trade must ask for a resource other than {g}", a)
        p = self.active
        rate = self.maritime_rate(p, g)
        if self.hands[p][g.value] < rate:
            rule = {4: "B-TRADE-6", 3: "B-TRADE-7", 2: "B-TRADE-8"}[rate]
            self._fail(rule, f"seat {p} trades {g} at {rate}:1 but holds {self.hands[p][g.value]}", a)
        if self.bank[r.value] == 0:
            self._fail("B-TRADE-11", f"the bank has no {r} left", a)

    def _check_offer(self, a: OfferTrade) -> None:
        self._require_trade_phase(a)
        for side in (a.give, a.get):
            if len(side) != N_RES or any((not isinstance(c, int)) or c < 0 for c in side):
                self._fail("B-TRADE-4", f"only resource cards change hands: an offer side is 5 counts, not {side!r}", a)
        if sum(a.give) == 0 or sum(a.get) == 0:
            self._fail("B-TRADE-5", "each side of a domestic trade must give at least 1 card", a)
        same = [RESOURCES[r] for r in range(N_RES) if a.give[r] and a.get[r]]
        if same:
            self._fail("B-TRADE-5", f"a trade may not swap {same[0]} for {same[0]}", a)
        h = self.hands[self.active]
        for r in range(N_RES):
            if a.give[r] > h[r]:
                self._fail("B-TRADE-2", f"seat {self.active} holds {h[r]} {RESOURCES[r]}, offers {a.give[r]}", a)

    def _check_response(self, a: Action) -> None:
        self._require_phase(a, Phase.TRADE_RESPONSE, rule="B-TRADE-3")
        if isinstance(a, AcceptTrade):
            need = self.trade_offer[1]  # type: ignore[index]
            h = self.hands[self.current]
            for r in range(N_RES):
                if need[r] > h[r]:
                    self._fail("B-TRADE-2", f"seat {self.current} holds {h[r]} {RESOURCES[r]}, the offer asks {need[r]}", a)

    def _check_confirm(self, a: ConfirmTrade) -> None:
        if self.current != self.active:
            self._fail("B-TRADE-3", f"only the offering seat {self.active} completes its trade", a)
        self._require_phase(a, Phase.TRADE_CONFIRM, rule="B-TRADE-2")
        if a.partner not in self._trade_accepted:
            self._fail("B-TRADE-2", f"seat {a.partner} did not accept the offer (accepted: {self._trade_accepted})", a)

    def _check_cancel(self, a: CancelTrade) -> None:
        if self.current != self.active:
            self._fail("B-TRADE-3", f"only the offering seat {self.active} may withdraw the offer", a)
        self._require_phase(a, Phase.TRADE_RESPONSE, Phase.TRADE_CONFIRM, rule="B-TRADE-2")

    # ------------------------------------------------------------------ effects
    def _pay(self, p: int, cost) -> None:
        h, bank = self.hands[p], self.bank
        for r in range(N_RES):
            c = cost[r]
            if c:
                h[r] -= c
                bank[r] += c  # B-BUILD-2

    def _place_settlement(self, p: int, v: int) -> None:
        self.node_owner[v] = p
        self.node_kind[v] = 1
        self.occupied.append(v)
        self.n_settlements[p] += 1
        blocked = self.blocked
        blocked[v] += 1
        for w in self._t.node_neighbours[v]:
            blocked[w] += 1
        hb = self._t.node_harbour[v]
        if hb >= 0:
            self.harbours[p].add(hb)
        # An opponent's building may cut roads through v (B-LR-2, B-LR-6).
        cut = {self.edge_owner[e] for e in self._t.node_edges[v]} - {-1, p}
        if cut:
            self._update_longest_road(cut, broken=True)

    def _do_settlement(self, a: BuildSettlement) -> None:
        p = self.current
        v = a.node
        if self.phase is Phase.FOUNDING_SETTLEMENT:
            self._place_settlement(p, v)
            self._last_settlement = v
            second = self._founding_step >= self.n
            if second:  # B-SETUP-19: the second settlement pays
                h, bank = self.hands[p], self.bank
                for hx in self._t.node_hexes[v]:
                    r = self._t.hex_resource[hx]
                    if r >= 0 and bank[r]:
                        h[r] += 1
                        bank[r] -= 1
            self.phase = Phase.FOUNDING_ROAD
            self.log.append(a)
            for m in self._h_founding:
                m.on_founding_settlement(self, p, v, second)
            return
        self._pay(p, SETTLEMENT)
        self.built_this_turn = True
        self.log.append(a)
        self._found_settlement(p, v)

    def _place_road(self, p: int, e: int) -> None:
        self.edge_owner[e] = p
        self.roads[p].add(e)
        a, b = self._t.edge_nodes[e]
        self.road_nodes[p].add(a)
        self.road_nodes[p].add(b)
        self._update_longest_road((p,), broken=False)

    def _remove_road(self, p: int, e: int) -> None:
        """Take a road off the board (a helper's effect); lengths are recounted by the caller."""
        self.edge_owner[e] = -1
        self.roads[p].discard(e)
        ends = self._t.edge_nodes
        self.road_nodes[p] = {v for f in self.roads[p] for v in ends[f]}
        self.road_length[p] = -1

    def _build_road(self, p: int, e: int, *, founding: bool = False) -> None:
        """Place a road and tell the modules (F-EARN-12: every road counts, founding aside)."""
        self._place_road(p, e)
        for m in self._h_road:
            m.on_road(self, p, e, founding)

    def _found_settlement(self, p: int, v: int) -> None:
        """Place a settlement after the founding and tell the modules."""
        self._place_settlement(p, v)
        for m in self._h_settlement:
            m.on_settlement(self, p, v)

    def _upgrade_to_city(self, p: int, v: int) -> None:
        """B-BUILD-9: the settlement goes back to its owner's supply."""
        self.node_kind[v] = 2
        self.n_settlements[p] -= 1
        self.n_cities[p] += 1

    def _do_road(self, a: BuildRoad) -> None:
        p = self.current
        ph = self.phase
        if ph is Phase.FOUNDING_ROAD:
            self.log.append(a)
            self._build_road(p, a.path, founding=True)
            self._founding_step += 1
            if self._founding_step >= len(self._founding_order):
                self.active = self.current = self.starting_seat  # B-SETUP-20
                for m in self._h_founding_done:
                    m.on_founding_done(self)
                self._begin_turn()
            else:
                self.active = self.current = self._founding_order[self._founding_step]
                self.phase = Phase.FOUNDING_SETTLEMENT
            return
        if ph is Phase.ROAD_BUILDING:
            self.free_roads -= 1
            self.log.append(a)
            self._build_road(p, a.path)
            if self.free_roads <= 0 or len(self.roads[p]) >= PIECE_LIMITS["road"] or not self._road_candidates(p):
                self.phase = self._resume
            return
        self._pay(p, ROAD)
        self.built_this_turn = True
        self.log.append(a)
        self._build_road(p, a.path)

    def _do_city(self, a: BuildCity) -> None:
        p = self.current
        self._pay(p, CITY)
        self._upgrade_to_city(p, a.node)
        self.built_this_turn = True
        self.log.append(a)

    def _recount_largest_army(self) -> None:
        """A-27: after a played knight leaves, the holder keeps the card while still at the minimum
        and not strictly beaten; otherwise a single top player with the minimum takes it, failing
        that it is set aside."""
        k = self.knights
        h = self.largest_army_holder
        if h is not None and k[h] >= LARGEST_ARMY_MIN and k[h] >= max(k):
            return
        top = max(k)
        self.largest_army_holder = k.index(top) if top >= LARGEST_ARMY_MIN and k.count(top) == 1 else None

    def _draw(self) -> float:
        return self._rng.random()

    def _draw_dev(self, forced: DevCard | None = None) -> int:
        """Take a development card from the deck: drawn at random, or the forced outcome."""
        u = self._draw()
        if forced is None:
            k = int(u * sum(self.deck))
            card = 0
            while k >= self.deck[card]:
                k -= self.deck[card]
                card += 1
        else:
            card = DevCard.parse(forced).value
        self.deck[card] -= 1
        return card

    def _do_buy(self, a: BuyDevelopmentCard) -> None:
        p = self.current
        card = self._draw_dev(a.card)
        self._pay(p, DEV)
        self.dev[p][card] += 1
        self.dev_new[p][card] += 1  # B-TURN-5
        self.built_this_turn = True
        self.log.append(BuyDevelopmentCard(DevCard(card)))

    def _do_roll(self, a: RollDice) -> None:
        u, w = self._draw(), self._draw()
        dice = a.dice if a.dice is not None else (int(u * 6) + 1, int(w * 6) + 1)
        dice = (int(dice[0]), int(dice[1]))
        self.dice_history.append(dice)
        self.log.append(RollDice(dice))
        total = dice[0] + dice[1]
        if total == 7:
            self.last_production = {}
            self._resume = Phase.MAIN  # after the robber: the trade phase (B-ROB-9)
            lim = self.rules.discard_limit
            owed = [sum(h) // 2 if sum(h) > lim else 0 for h in self.hands]  # B-ROB-2, B-ROB-3
            self._discard_owed = owed
            if any(owed):
                self.phase = Phase.DISCARD
                self.current = self._next_discarder(self.active)
            else:
                self._resume = Phase.MAIN
                self.phase = Phase.MOVE_ROBBER
        else:
            self._produce(total)
            self.phase = Phase.MAIN
        for m in self._h_roll:
            if m.on_roll(self, total):
                return

    def _produce(self, total: int) -> None:
        """B-PROD-1..8 with the bank limit of B-COMP-14."""
        owner, kind = self.node_owner, self.node_kind
        robber = self.robber
        gains = []
        for hx, r, nodes in self._producers[total]:
            if hx == robber:  # B-ROB-10
                continue
            for v in nodes:
                o = owner[v]
                if o >= 0:
                    gains.append((o, r, kind[v]))  # settlement 1, city 2
        got: dict[int, list[int]] = {}
        self.last_production = got
        if not gains:
            return
        need = [0] * N_RES
        claim: list[set[int]] = [set() for _ in range(N_RES)]
        for o, r, k in gains:
            need[r] += k
            claim[r].add(o)
        bank = self.bank
        for r in range(N_RES):
            if need[r] > bank[r]:
                if len(claim[r]) == 1 and self.rules.shortage_single_taker:
                    (o,) = claim[r]
                    gains = [(q, x, k) for q, x, k in gains if x != r] + [(o, r, bank[r])]
                else:
                    gains = [(q, x, k) for q, x, k in gains if x != r]
        hands = self.hands
        for o, r, k in gains:
            if k:
                hands[o][r] += k
                bank[r] -= k
                got.setdefault(o, [0] * N_RES)[r] += k

    def _next_discarder(self, start: int) -> int:
        for i in range(self.n):
            p = (start + i) % self.n
            if self._discard_owed[p]:
                return p
        return -1

    def _do_discard(self, a: Discard) -> None:
        p = self.current
        h = self.hands[p]
        for r in range(N_RES):
            c = a.cards[r]
            if c:
                h[r] -= c
                self.bank[r] += c
        self._discard_owed[p] -= sum(a.cards)
        self.log.append(a)
        nxt = self._next_discarder(p)
        if nxt < 0:  # B-ROB-4: all discards done, then the robber
            self.current = self.active
            self._resume = Phase.MAIN
            self.phase = Phase.MOVE_ROBBER
        else:
            self.current = nxt

    def _do_robber(self, a: MoveRobber) -> None:
        self.robber = a.hex
        stolen = None
        if a.victim is not None:
            u = self._draw()
            vh = self.hands[a.victim]
            if a.stolen is None:
                k = int(u * sum(vh))  # B-ROB-7: uniform over the hidden hand
                r = 0
                while k >= vh[r]:
                    k -= vh[r]
                    r += 1
            else:
                r = Resource.parse(a.stolen).value
            vh[r] -= 1
            self.hands[self.active][r] += 1
            stolen = RESOURCES[r]
        self.log.append(MoveRobber(a.hex, a.victim, stolen))
        self.phase = self._resume
        for m in self._h_robber:
            m.on_robber(self, self.log[-1])

    def _start_dev_play(self, card: int) -> None:
        p = self.active
        self.dev[p][card] -= 1
        self.dev_played = True

    def _do_knight(self, a: PlayKnight) -> None:
        p = self.active
        self._start_dev_play(KNIGHT)
        self.knights[p] += 1  # B-DEV-3
        h = self.largest_army_holder
        if self.knights[p] >= LARGEST_ARMY_MIN and (h is None or (h != p and self.knights[p] > self.knights[h])):
            self.largest_army_holder = p  # B-LA-1, B-LA-2
        self.log.append(a)
        self._resume = self.phase
        self.phase = Phase.MOVE_ROBBER  # B-DEV-2, B-DEV-4: no discards

    def _do_road_building(self, a: PlayRoadBuilding) -> None:
        self._start_dev_play(ROAD_BUILDING)
        self.log.append(a)
        self._resume = self.phase
        self.free_roads = 2
        self.phase = Phase.ROAD_BUILDING

    def _do_end_road_building(self, a: EndRoadBuilding) -> None:
        self.free_roads = 0
        self.phase = self._resume
        self.log.append(a)

    def _do_year_of_plenty(self, a: PlayYearOfPlenty) -> None:
        p = self.active
        self._start_dev_play(YEAR_OF_PLENTY)
        for r in (a.first, a.second):
            self.bank[r.value] -= 1
            self.hands[p][r.value] += 1
        self.log.append(a)

    def _do_monopoly(self, a: PlayMonopoly) -> None:
        p = self.active
        self._start_dev_play(MONOPOLY)
        r = Resource.parse(a.resource).value
        for q in range(self.n):
            if q != p:
                self.hands[p][r] += self.hands[q][r]
                self.hands[q][r] = 0
        self.log.append(a)

    def _do_maritime(self, a: MaritimeTrade) -> None:
        p = self.active
        g, r = a.give.value, a.get.value
        rate = self.maritime_rate(p, a.give)
        self.hands[p][g] -= rate
        self.bank[g] += rate
        self.hands[p][r] += 1
        self.bank[r] -= 1
        self.log.append(a)

    def _do_offer(self, a: OfferTrade) -> None:
        self.trade_offer = (tuple(a.give), tuple(a.get))
        self._trade_responders = [(self.active + i) % self.n for i in range(1, self.n)]
        self._trade_accepted = []
        self.phase = Phase.TRADE_RESPONSE
        self.current = self._trade_responders[0]
        self.log.append(a)

    def _next_responder(self) -> None:
        i = self._trade_responders.index(self.current) + 1
        if i < len(self._trade_responders):
            self.current = self._trade_responders[i]
            return
        self.current = self.active
        if self._trade_accepted:
            self.phase = Phase.TRADE_CONFIRM
        else:
            self.trade_offer = None
            self.phase = Phase.MAIN

    def _do_accept(self, a: AcceptTrade) -> None:
        self._trade_accepted.append(self.current)
        self.log.append(a)
        self._next_responder()

    def _do_decline(self, a: DeclineTrade) -> None:
        self.log.append(a)
        self._next_responder()

    def _do_confirm(self, a: ConfirmTrade) -> None:
        give, get = self.trade_offer  # type: ignore[misc]
        p, q = self.active, a.partner
        for r in range(N_RES):
            self.hands[p][r] += get[r] - give[r]
            self.hands[q][r] += give[r] - get[r]
        self.trade_offer = None
        self._trade_accepted = []
        self.phase = Phase.MAIN
        self.current = self.active
        self.log.append(a)

    def _do_cancel(self, a: CancelTrade) -> None:
        self.trade_offer = None
        self._trade_accepted = []
        self.phase = Phase.MAIN
        self.current = self.active
        self.log.append(a)

    def _do_end_turn(self, a: EndTurn) -> None:
        self.log.append(a)
        for m in self._h_end_turn:
            if m.on_end_turn(self):
                return
        self.next_turn()

    def next_turn(self) -> None:
        """Pass the turn to the left and begin it (B-TURN-1, B-TURN-9); modules call it after their phases."""
        self.active = self.current = (self.active + 1) % self.n
        self._begin_turn()

    def _begin_turn(self) -> None:
        p = self.active
        self.turn += 1
        self.phase = Phase.ROLL
        self.dev_played = False
        self.built_this_turn = False
        self.dev_new[p] = [0] * len(DevCard)
        for m in self._h_turn_start:
            m.on_turn_start(self)

    def _check_win(self) -> None:
        """B-END-3: the active player wins at once on reaching the target in their own turn.

        Run after every applied action (:meth:`play`, :meth:`apply`), so the rule holds for
        every action kind, the modules' included; turn starts are actions too (EndTurn).
        """
        if self.phase is Phase.GAME_OVER:
            return
        p = self.active
        if self.vp(p) >= self.vp_target and self.phase not in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
            self.winner = p
            self.phase = Phase.GAME_OVER
            self.current = p

    # ------------------------------------------------------------------ longest road
    def _trail(self, p: int) -> tuple[int, list[int]]:
        t = self._t
        owner = self.node_owner
        blocked = [v for v in self.road_nodes[p] if owner[v] >= 0 and owner[v] != p]
        return longest_trail(self.roads[p], t.edge_nodes, t.node_edges, blocked)

    def _len(self, q: int) -> int:
        if self.road_length[q] < 0:
            self.road_length[q] = self._trail(q)[0]
        return self.road_length[q]

    def _unique_leader(self) -> int | None:
        """The single seat with the greatest length of LONGEST_ROAD_MIN or more, if any."""
        best, who, count = LONGEST_ROAD_MIN - 1, None, 0
        for q in range(self.n):
            if len(self.roads[q]) >= LONGEST_ROAD_MIN:  # fewer roads cannot reach the minimum
                length = self._len(q)
                if length > best:
                    best, who, count = length, q, 1
                elif length == best:
                    count += 1
        return who if count == 1 else None

    def _update_longest_road(self, players: Iterable[int], *, broken: bool) -> None:
        """Mark ``players``' lengths stale and move the Longest Road card (B-LR-4..7).

        Lengths are recounted lazily (``-1`` marks a stale one); a recount is
        skipped when a player's number of roads already shows it cannot matter.
        """
        for q in players:
            self.road_length[q] = -1
        h = self.longest_road_holder
        if h is not None and not broken:
            for q in players:  # B-LR-5: strictly longer than the holder
                if q != h and len(self.roads[q]) > self._len(h) and self._len(q) > self._len(h):
                    self.longest_road_holder = q
            return
        if h is not None:  # B-LR-6: a break; the holder keeps it if still longest, even tied
            lh = self._len(h)
            if lh >= LONGEST_ROAD_MIN and all(len(self.roads[q]) <= lh or self._len(q) <= lh for q in range(self.n)):
                return
            self.longest_road_holder = None
        self.longest_road_holder = self._unique_leader()  # B-LR-4, B-LR-6, B-LR-7

    # ------------------------------------------------------------------ beginner setup
    def _setup_beginner(self) -> None:
        """B-SETUP-2..5: pre-placed pieces and resources from the lettered settlement."""
        for p, colour in enumerate(self.colours):
            sp = self.board.start_pieces.get(colour)
            if sp is None:
                raise ValueError(f"board {self.board.name!r} has no starting pieces for {colour}")
            for v in sp.settlements:
                self._place_settlement(p, v)
            for e in sp.roads:
                self._place_road(p, e)
            if sp.lettered is not None:
                for hx in self._t.node_hexes[sp.lettered]:
                    r = self._t.hex_resource[hx]
                    if r >= 0:
                        self.hands[p][r] += 1
                        self.bank[r] -= 1
        self.active = self.current = self.starting_seat
        self._begin_turn()

    # ================================================================== views and copies
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (B-SETUP-7): hidden hands and development cards become counts."""
        return PlayerView(
            player=player,
            phase=self.phase,
            current_player=self.current,
            active_player=self.active,
            hand=self.hand(player),
            dev_cards=self.dev_cards(player),
            resource_counts=tuple(sum(h) for h in self.hands),
            dev_counts=tuple(sum(d) for d in self.dev),
            played_knights=tuple(self.knights),
            visible_vp=tuple(self.vp(q, visible=True) for q in range(self.n)),
            own_vp=self.vp(player),
            road_lengths=tuple(self.road_lengths()),
            longest_road=self.longest_road_holder,
            largest_army=self.largest_army_holder,
            bank=dict(zip(RESOURCES, self.bank)),
            deck_size=sum(self.deck),
            robber=self.robber,
            buildings={v: (o, Building(self.node_kind[v])) for v, o in enumerate(self.node_owner) if o >= 0},
            roads={e: o for e, o in enumerate(self.edge_owner) if o >= 0},
            dice_history=tuple(self.dice_history),
            trade_offer=self.trade_offer,
            legal_actions=tuple(self.legal_actions()) if self.current == player else (),
        )

    _PLAIN = (
        "n", "seed", "start", "starting_seat", "robber", "active", "current", "phase", "turn", "winner",
        "dev_played", "built_this_turn", "free_roads", "_resume", "_founding_step", "_last_settlement",
        "trade_offer", "longest_road_holder", "largest_army_holder", "rules", "colours",
    )
    _LISTS = (
        "bank", "knights", "node_owner", "node_kind", "edge_owner", "blocked", "n_settlements", "n_cities",
        "road_length", "occupied", "_discard_owed", "_founding_order", "_trade_responders", "_trade_accepted", "log",
        "dice_history",
    )
    _NESTED = ("hands", "dev", "dev_new", "road_nodes", "roads", "harbours")

    #: Attributes a copy shares with its source (immutable) ...
    _SHARED = frozenset({"board", "_t", "_acts", "_producers", "modules", "rules", "colours"})
    #: ... and those :meth:`_wire` rebuilds for it (dispatch tables and hook lists bound to the game).
    _WIRED = frozenset({
        "_check_dispatch", "_apply_dispatch", "_h_legal", "_h_founding", "_h_founding_done", "_h_road",
        "_h_settlement", "_h_robber", "_h_roll", "_h_end_turn", "_h_turn_start", "_h_vp", "_h_rate", "_build_phases",
    })

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
        shared = self._SHARED
        skip = shared | self._WIRED
        own = {k: v for k, v in self.__dict__.items() if k not in skip}
        g.__dict__.update({k: v for k, v in self.__dict__.items() if k in shared})
        g.__dict__.update(_copy.deepcopy(own))
        g._wire()
        return g

    def determinized(self, observer: int, seed: int) -> "Game":
        """A copy in which everything ``observer`` cannot see is drawn again at random.

        For search over information sets (a determinisation): the copy agrees with
        ``self.view(observer)`` (board, own cards, every count, the bank, played
        cards), while the opponents' resource cards are dealt again from their
        combined pool (which is public: 95 minus the bank and the observer's hand),
        their unplayed development cards and the deck are dealt again from the
        cards the observer has not seen, and the random generator is reseeded, so
        future dice and draws are unknown too.  The result depends only on what
        the observer may know and on ``seed``.

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
        pool = [r for q in others for r in range(N_RES) for _ in range(g.hands[q][r])]
        rng.shuffle(pool)
        for q in others:
            k = sum(g.hands[q])
            g.hands[q] = _tally(pool[:k], N_RES)
            del pool[:k]
        kinds = len(DevCard)
        unseen = [c for c in range(kinds) for _ in range(g.deck[c])]
        unseen += [c for q in others for c in range(kinds) for _ in range(g.dev[q][c])]
        rng.shuffle(unseen)
        for q in others:
            k, new = sum(g.dev[q]), sum(g.dev_new[q])
            g.dev[q] = _tally(unseen[:k], kinds)
            g.dev_new[q] = _tally(unseen[:new], kinds)
            del unseen[:k]
        g.deck = _tally(unseen, kinds)
        g._rng = Random(rng.getrandbits(64))
        return g

    def state(self) -> dict[str, Any]:
        """The complete game state as comparable plain data (two games are identical iff equal)."""
        out: dict[str, Any] = {k: getattr(self, k) for k in self._PLAIN}
        for k in self._LISTS:
            out[k] = list(getattr(self, k))
        for k in self._NESTED:
            out[k] = [sorted(x) if isinstance(x, set) else list(x) for x in getattr(self, k)]
        out["road_length"] = self.road_lengths()
        out["ext"] = _copy.deepcopy(self.ext)
        out["vp_target"] = self.vp_target
        out["deck"] = list(self.deck)
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
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError(source, "format", f"expected {SAVE_FORMAT!r}")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(source, "version", f"expected {SAVE_VERSION}, found {data.get('version')!r}")
        for key in ("board", "players", "seed", "actions"):
            if key not in data:
                raise SaveFileError(source, key, "missing")
        from ..errors import BoardFileError

        try:
            board = Board.from_dict(data["board"], source=f"{source}#board")
        except BoardFileError as exc:
            raise SaveFileError(source, f"board.{exc.field}", exc.problem) from None
        try:
            rules = Rules.from_dict(data.get("rules", {}))
        except (TypeError, ValueError) as exc:
            raise SaveFileError(source, "rules", str(exc)) from None
        try:
            colours = [Colour.parse(c) for c in data["colours"]] if "colours" in data else None
            game = cls(
                board,
                players=data["players"],
                seed=data["seed"],
                start=data.get("start", "founding"),
                rules=rules,
                starting_seat=data.get("starting_seat", 0),
                colours=colours,
            )
        except (TypeError, ValueError) as exc:
            raise SaveFileError(source, "players", str(exc)) from None
        return replay_actions(game, data["actions"], source, action_from_json, SaveFileError)

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


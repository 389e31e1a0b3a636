"""Seafarers ships (RULES.md SF-5..9, SF-17) and the Longest Trade Route (SF-8), as a rule module.

* **Ships** (SF-5, SF-6): 15 per player, 1 wool + 1 lumber each, on paths that border the sea
  (between two sea hexes or on the coast) — a piece kind with ``sea=True`` and ``land=False``.
* **Routes** (SF-7): a shipping route starts at the player's own settlement or city and goes on
  from its own ships; roads and ships meet only at a building.  The engine keeps where each kind
  of path piece can continue (its ``reach``), so a ship never continues a road or the reverse.
  DECISION (the strict reading of "a ship may never join a road directly"): a ship may not end
  where the player's own road ends with no settlement or city there, nor a road where their ship
  ends (:func:`join_at`); a settlement may still be built there, and then both meet at it.
* **Longest Trade Route** (SF-8): the engine's trail counts every path kind, passing from roads to
  ships only at the player's own building (``longest_trail(..., edge_kind, switch)``); the title is
  the Longest Road's (B-LR-4..7).
* **Moving a ship** (SF-9): once a turn, after the roll, the last ship of an open route (one end
  with neither another of the player's ships nor one of their buildings) moves to another legal
  ship path; never a ship built this turn; a route closed at both ends by the player's buildings
  cannot move.
* **Road Building** (SF-17): the two free pieces may be roads or ships, in any mix.
* **The pirate** (SF-10, SF-11): on a 7 or a knight the player moves the robber *or* the pirate
  (:class:`MovePirate`); the pirate goes only on sea hexes and steals 1 card from a player with a
  ship next to it; ships next to the pirate cannot move and no ship may be built on its hex's
  edges.  It starts where the scenario's ``pirate`` says (off the board if it says nothing).
* **Targets** (SF-13 is a GAP): a scenario board's ``scenario.vp_to_win`` is the target; our own
  scenario files are replaceable data (``boards/seafarers_islands.json``).

* **Islands** (SF-12, SF-13): islands are the board's groups of touching land hexes; a player's
  home islands are those where they founded a settlement, all others are foreign to them.  Where
  the scenario gives ``foreign_island_vp``, the first settlement a player builds on each foreign
  island earns that many special victory points (SF-13's points are a GAP: scenario data).

* **Founding ships** (SF-6: ships are placed like roads): in the founding phase a player may put
  a ship instead of a road beside the settlement just placed, on a sea path.

Fog (SF-3), treasure (SF-4) and Great Catan (SF-15, SF-16) are their own modules.

State in ``game.ext["seafarers"]``: ``{"built": [paths of ships built this turn, the Special Building
Phase after it included (X56-SBP-1)], "moved": bool,
"pirate": hex or None, "home": [[island, ...] per seat], "settled": [[foreign island, ...] per seat]}``.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> g = Game(Board.load(ISLANDS), seed=1, rules=Rules(modules=("seafarers",)))
>>> g.vp_target, g.pieces_left(0)["ship"]
(12, 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...constants import Good
from ...errors import CatanError, IllegalActionError
from ..actions import Action
from ..phase import Phase
from ..pieces import PieceKind
from . import Module, copy_plain, register

__all__ = ["Seafarers", "BuildShip", "MoveShip", "MovePirate", "SHIP", "movable_ships", "ship_moves", "pirate", "random_islands",
           "join_at", "pirate_victims", "islands", "island_of", "island_vp", "ISLANDS", "NAME"]

NAME = "seafarers"
#: SF-5, SF-6: a ship is a path piece on sea paths.
#: SF-17: a free piece of Road Building; SF-6: placed like roads, so also the founding path piece.
SHIP = PieceKind("ship", "path", limit=15, cost={"wool": 1, "lumber": 1}, land=False, sea=True,
                 free_in=("road_building",), founding=True, owner=NAME)


def _islands_path():
    from ...board import BOARDS_DIR

    return BOARDS_DIR / "seafarers_islands.json"


#: The shipped scenario of our own design (SF-13 GAP proposal).
ISLANDS = _islands_path()


@dataclass(frozen=True, slots=True)
class BuildShip(Action):
    """Build a ship on a sea path that continues one of your routes (SF-5..7)."""

    path: int


@dataclass(frozen=True, slots=True)
class MoveShip(Action):
    """Move the last ship of an open route to another sea path (SF-9)."""

    from_path: int
    to_path: int


@dataclass(frozen=True, slots=True)
class MovePirate(Action):
    """Move the pirate instead of the robber (SF-10) and maybe steal from a ship owner next to it.

    ``stolen`` is the outcome, filled in when played (as for :class:`~catan_nb.rules.MoveRobber`).
    """

    hex: int
    victim: int | None = None
    stolen: Good | None = None


def pirate(game) -> int | None:
    """The pirate's hex (``None``: not on the board)."""
    return game.ext[NAME]["pirate"]


def pirate_victims(game, hx: int) -> list[int]:
    """SF-10: players other than the active one with a ship next to sea hex ``hx`` and a card to lose."""
    ship = game.kind_id["ship"]
    owners = {game.edge_owner[e] for e in game.topology.hex_edges[hx]
              if game.edge_owner[e] >= 0 and game.edge_kind[e] == ship}
    return sorted(o for o in owners if o != game.active_player and any(game.stealable(o)))


def _pirate_blocks(game, e: int) -> bool:
    """SF-11: path ``e`` borders the pirate's hex."""
    hx = pirate(game)
    return hx is not None and e in game.topology.hex_edges[hx]


#: SF-7: the two path kinds that meet only at a settlement or city.
_MEETING = {"ship": "road", "road": "ship"}


def _ends_of(game, player: int, kind: str) -> set[int]:
    """Intersections at an end of one of ``player``'s pieces of path ``kind``."""
    t = game.topology
    return {v for e in game.placed[game.kind_id[kind]][player] for v in t.edge_nodes[e]}


def join_at(game, player: int, kind: str, path: int, ends: set[int] | None = None) -> int | None:
    """SF-7 (DECISION, the strict reading): the intersection where ``player``'s piece of ``kind``
    (``"road"`` or ``"ship"``) on ``path`` would meet one of their pieces of the other kind with no
    settlement or city there, or ``None``.  "A ship may never join a road directly; roads and ships
    meet only at a settlement or city": a ship may not end where the player's road ends, nor a
    road where the player's ship ends, unless a building stands there (a settlement built on such
    an intersection later is fine: the building joins them).  ``ends``: the other kind's ends, if
    already known."""
    other = _MEETING.get(kind)
    if other is None:
        return None
    if ends is None:
        ends = _ends_of(game, player, other)
    if not ends:
        return None
    for v in game.topology.edge_nodes[path]:
        if v in ends and not (game.node_owner[v] >= 0 and game.kinds[game.node_kind[v]].building):
            return v
    return None


# Actions are values: the listed ones are shared, not built anew at every listing.
_build_ship = lru_cache(maxsize=4096)(BuildShip)
_move_ship = lru_cache(maxsize=65536)(MoveShip)
_pirate_move = lru_cache(maxsize=4096)(MovePirate)


def _road_building():
    from .development import ROAD_BUILDING

    return ROAD_BUILDING


def movable_ships(game, player: int) -> list[int]:
    """SF-9: ``player``'s ships that may move now: the open end of a route, not built this turn."""
    st = game.ext[NAME]
    if st["moved"]:
        return []
    ship = game.kind_id["ship"]
    t = game.topology
    mine = game.placed[ship][player]
    out = []
    for e in sorted(mine):
        if e in st["built"] or _pirate_blocks(game, e):  # SF-9; SF-11: the pirate holds ships next to it
            continue
        for v in t.edge_nodes[e]:
            own_building = game.node_owner[v] == player and game.kinds[game.node_kind[v]].building
            other_ship = any(f != e and f in mine for f in t.node_edges[v])
            if not own_building and not other_ship:  # an open end: this is the last ship of its route
                out.append(e)
                break
    return out


def ship_moves(game, player: int) -> list[MoveShip]:
    """Every legal :class:`MoveShip` of ``player`` now (SF-9)."""
    out = []
    for e in movable_ships(game, player):
        for f in game.candidates(player, "ship", without=e):  # as if the ship had left path e
            if f != e:
                out.append(_move_ship(e, f))
    return out


def _check_build(game, a: BuildShip) -> None:
    p = game.current_player
    if game.phase is Phase.FOUNDING_ROAD:  # SF-6, SF-7: a founding ship leaves the settlement just placed
        game.check_founding_path(a, p, "ship", a.path)
        return
    free = game.phase is _road_building()
    if not free:
        game.require_build_phase(a)
    game.check_spot(a, p, "ship", a.path)
    if not free:
        game.require_cost(a, p, game.site_cost(p, "ship", a.path), f"a ship on path {a.path}")


def _apply_build(game, a: BuildShip) -> None:
    p = game.current_player
    if game.phase is Phase.FOUNDING_ROAD:
        game.log.append(a)
        game.found_path(p, "ship", a.path)
        return
    if game.phase is _road_building():  # SF-17: a free piece of Road Building
        game.ext[NAME]["built"].append(a.path)
        game.log.append(a)
        game.place_free(p, "ship", a.path)
        return
    game.pay(p, game.site_cost(p, "ship", a.path))
    game.built_this_turn = True
    game.place(p, "ship", a.path)
    game.ext[NAME]["built"].append(a.path)
    game.log.append(a)


def _check_blockade(game, a, path: int) -> None:
    """SF-11: no ship may be built (or moved) on an edge of the pirate's hex; the ``candidates`` hook
    leaves those edges out, and this names the rule where the checked path refuses one."""
    if _pirate_blocks(game, path):
        raise IllegalActionError("SF-11", f"path {path} borders the pirate's hex {pirate(game)}: "
                                 "no ship may go there (blockade)", a)


def _check_move(game, a: MoveShip) -> None:
    p = game.current_player
    game.require_phase(a, Phase.MAIN, rule="SF-9")
    game.check_path(a, a.from_path)
    game.check_path(a, a.to_path)
    if game.edge_owner[a.from_path] != p or game.edge_kind[a.from_path] != game.kind_id["ship"]:
        raise IllegalActionError("SF-9", f"path {a.from_path} holds no ship of seat {p}", a)
    if game.ext[NAME]["moved"]:
        raise IllegalActionError("SF-9", f"seat {p} has already moved a ship this turn", a)
    if a.from_path in game.ext[NAME]["built"]:
        raise IllegalActionError("SF-9", f"the ship on path {a.from_path} was built this turn", a)
    if _pirate_blocks(game, a.from_path):
        raise IllegalActionError("SF-11", f"the ship on path {a.from_path} is next to the pirate's hex "
                                 f"{pirate(game)}: it cannot move", a)
    if a.from_path not in movable_ships(game, p):
        raise IllegalActionError("SF-9", f"the ship on path {a.from_path} is not the last ship of an open route", a)
    if a.to_path != a.from_path:
        _check_blockade(game, a, a.to_path)
    if a.to_path == a.from_path or a.to_path not in game.candidates(p, "ship", without=a.from_path):
        v = join_at(game, p, "ship", a.to_path)
        if v is not None and _continues(game, p, a.from_path, a.to_path):
            raise IllegalActionError("SF-7", f"a ship on path {a.to_path} would meet seat {p}'s road at intersection "
                                     f"{v}, where no settlement or city stands", a)
        raise IllegalActionError("SF-9", f"a ship of seat {p} cannot move to path {a.to_path}", a)


def _continues(game, p: int, from_path: int, to_path: int) -> bool:
    """Whether an empty sea path ``to_path`` would continue one of ``p``'s routes once their ship
    on ``from_path`` has left it: at their building, or at another of their ships with no
    opponent's blocking piece between (SF-7; for naming the rule that refuses a move)."""
    t = game.topology
    if to_path == from_path or game.edge_owner[to_path] >= 0 or not t.edge_sea[to_path]:
        return False
    mine = game.placed[game.kind_id["ship"]][p]
    for v in t.edge_nodes[to_path]:
        o = game.node_owner[v]
        kind = game.kinds[game.node_kind[v]] if o >= 0 else None
        if o == p and kind.building:
            return True
        if not (o >= 0 and o != p and kind.blocks) and any(f != from_path and f in mine for f in t.node_edges[v]):
            return True
    return False


def _apply_move(game, a: MoveShip) -> None:
    p = game.current_player
    game.remove("ship", a.from_path)
    game.place(p, "ship", a.to_path)
    game.move_longest_road((p,))  # SF-8: only the mover's trails changed (ships block nobody); B-LR-6
    game.ext[NAME]["moved"] = True
    game.log.append(a)


def _check_pirate(game, a: MovePirate) -> None:
    from .robber import check_steal, require_move_phase

    require_move_phase(game, a, rule="SF-10")
    t = game.topology
    if not isinstance(a.hex, int) or not 0 <= a.hex < t.n_hexes or t.hex_land[a.hex]:
        raise IllegalActionError("SF-10", f"the pirate goes only on a sea hex, not {a.hex!r}", a)
    if a.hex == pirate(game):
        raise IllegalActionError("SF-10", f"the pirate must move; it is on hex {a.hex} already", a)
    check_steal(game, a, pirate_victims(game, a.hex),
                lambda victim: ("SF-10", f"has no ship next to hex {a.hex} and a card to lose"))


def _apply_pirate(game, a: MovePirate) -> None:
    from .robber import steal

    game.ext[NAME]["pirate"] = a.hex
    stolen = steal(game, a.victim, a.stolen) if a.victim is not None else None
    done = _pirate_move(a.hex, a.victim, stolen)
    game.log.append(done)
    game.pop()


def islands(board) -> list[list[int]]:
    """SF-12: the board's islands, each the sorted land hexes of one group of touching land hexes."""
    memo = board.__dict__.get("_islands_memo")
    if memo is not None:
        return memo
    t = board.topology
    seen: set[int] = set()
    out = []
    for start in range(t.n_hexes):
        if not t.hex_land[start] or start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            h = todo.pop()
            group.append(h)
            for v in t.hex_nodes[h]:
                for g in t.node_hexes[v]:
                    if t.hex_land[g] and g not in seen:
                        seen.add(g)
                        todo.append(g)
        out.append(sorted(group))
    board.__dict__["_islands_memo"] = out
    return out


def island_of(board, node: int) -> int | None:
    """The island (its index in :func:`islands`) an intersection stands on, or ``None`` at sea."""
    hexes = board.topology.node_hexes[node]
    if not hexes:
        return None
    for i, group in enumerate(islands(board)):
        if hexes[0] in group:
            return i
    return None


def island_vp(game, player: int) -> int:
    """SF-13: special VP of ``player`` for settling foreign islands (the scenario's ``foreign_island_vp``)."""
    per = game.board.scenario.get("foreign_island_vp") or 0
    return per * len(game.ext[NAME]["settled"][player])


def _target(board) -> int | None:
    """The scenario's target (SF-13 GAP: data), checked."""
    from ...errors import BoardFileError

    target = board.scenario.get("vp_to_win")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int) or not 3 <= target <= 30):
        raise BoardFileError(board.source, "scenario.vp_to_win", f"a target is a number of VP in 3..30, not {target!r}")
    return target


@register
class Seafarers(Module):
    """SF-5..9, SF-17: ships, shipping routes, moving ships and the Longest Trade Route."""

    name = NAME
    pieces = (SHIP,)
    legal_in = ("main", "road_building", "move_robber", "founding_road")
    actions = {BuildShip: (_check_build, _apply_build), MoveShip: (_check_move, _apply_move),
               MovePirate: (_check_pirate, _apply_pirate)}

    def init(self, game) -> None:
        from ...errors import BoardFileError

        board = game.board
        start = board.scenario.get("pirate")
        hx = None
        if start is not None:
            try:
                hx = board.hex_at(*start).id
            except (TypeError, ValueError, KeyError, CatanError) as err:
                raise BoardFileError(board.source, "scenario.pirate", f"{start!r} is not a hex of this board: {err}") from None
            if game.topology.hex_land[hx]:
                raise BoardFileError(board.source, "scenario.pirate",
                                     f"hex {tuple(start)} is land: the pirate sails only on sea hexes (SF-10)")
        _target(board)
        seats = board.scenario.get("players")
        if seats is not None:
            if not isinstance(seats, list) or not all(isinstance(k, int) and not isinstance(k, bool) and 2 <= k <= 6 for k in seats):
                raise BoardFileError(board.source, "scenario.players", f"player counts 3..6, not {seats!r}"[:200])
            if game.n not in seats:
                raise BoardFileError(board.source, "scenario.players",
                                     f"this scenario is for {' or '.join(map(str, seats))} players, not {game.n}")
        per = board.scenario.get("foreign_island_vp")
        if per is not None and (isinstance(per, bool) or not isinstance(per, int) or not 0 <= per <= 5):
            raise BoardFileError(board.source, "scenario.foreign_island_vp", f"special VP per island 0..5, not {per!r}")
        game.ext[NAME] = {"built": [], "moved": False, "pirate": hx,
                          "home": [[] for _ in range(game.n)], "settled": [[] for _ in range(game.n)]}

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        other = _MEETING.get(kind)
        if other is None or not sites:
            return sites
        ends = _ends_of(game, player, other)
        if ends:  # SF-7 (DECISION): roads and ships meet only at a settlement or city
            sites = [e for e in sites if join_at(game, player, kind, e, ends) is None]
        if kind != "ship" or pirate(game) is None:
            return sites
        return [e for e in sites if not _pirate_blocks(game, e)]  # SF-11

    def check_site(self, game, action, player: int, kind: str, site: int, founding: bool) -> None:
        if kind == "ship":
            _check_blockade(game, action, site)  # SF-11, as ``candidates`` filters
        v = join_at(game, player, kind, site)
        if v is not None:
            raise IllegalActionError("SF-7", f"a {kind} on path {site} would meet seat {player}'s {_MEETING[kind]} at "
                                     f"intersection {v}, where no settlement or city stands: roads and ships meet "
                                     "only at a settlement or city", action)

    def vp_target(self, game) -> int | None:
        return _target(game.board)

    def module_builds(self, game, player: int, out: list) -> None:
        hand = game.hands[player]
        if game.pieces_left(player)["ship"] > 0 and game.affords(hand, game.cost("ship")):
            out.extend([_build_ship(e) for e in game.candidates(player, "ship")
                        if game.affords(hand, game.site_cost(player, "ship", e))])

    def legal(self, game, out: list) -> None:
        p = game.current_player
        if game.phase.value == "move_robber":  # SF-10: the pirate instead of the robber
            t = game.topology
            here = pirate(game)
            for hx in range(t.n_hexes):
                if t.hex_land[hx] or hx == here:
                    continue
                victims = pirate_victims(game, hx)
                if not (victims and game.rules.steal_mandatory):
                    out.append(_pirate_move(hx))
                out.extend([_pirate_move(hx, v) for v in victims])
            return
        if game.phase is Phase.FOUNDING_ROAD:  # SF-6: a ship in place of the founding road
            out.extend([_build_ship(e) for e in game.candidates(p, "ship", founding=True)])
        elif game.phase is _road_building():  # SF-17: ships as free pieces
            if game.pieces_left(p)["ship"] > 0:
                out.extend([_build_ship(e) for e in game.candidates(p, "ship")])
        elif game.phase is Phase.MAIN and p == game.active_player:
            out.extend(ship_moves(game, p))

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        if kind != "settlement":
            return
        isl = island_of(game.board, site)
        if isl is None:
            return
        st = game.ext[NAME]
        if founding:
            if isl not in st["home"][player]:  # SF-12: where one founds is home
                st["home"][player].append(isl)
        elif isl not in st["home"][player] and isl not in st["settled"][player]:
            st["settled"][player].append(isl)  # SF-13: the first settlement on a foreign island

    def vp(self, game, player: int, visible: bool) -> int:
        return island_vp(game, player)

    def copy_state(self, st: dict) -> dict:
        # Copied for every position a bot weighs: the paths built (ints) and every seat's islands (lists
        # of ints) directly, what copy_plain gives, faster; a state with other entries by copy_plain.
        if st.keys() != _STATE_KEYS:
            return copy_plain(st)
        c = st.copy()  # the atoms shared (moved, pirate), the entries in their order
        try:
            c["built"] = st["built"][:]
            c["home"] = list(map(_copy_list, st["home"]))
            c["settled"] = list(map(_copy_list, st["settled"]))
        except TypeError:  # a row that is no list
            return copy_plain(st)
        return c

    def view(self, game, player: int) -> dict:
        st = game.ext[NAME]
        return {"pirate": st["pirate"], "home": [list(h) for h in st["home"]],
                "settled": [list(x) for x in st["settled"]]}

    def on_turn_start(self, game) -> None:
        # SF-9 "never a ship built this turn": a ship belongs to the turn it was built in, and the
        # Special Building Phase after a turn is part of that turn (X56-SBP-1); so the list is
        # cleared when the next turn begins, not when the active player ends theirs, and a ship
        # built in the phase may move in its owner's next turn.
        st = game.ext[NAME]
        st["built"] = []
        st["moved"] = False


#: The entries of the module's state (see the module docstring), copied by ``copy_state``.
_STATE_KEYS = frozenset({"built", "moved", "pirate", "home", "settled"})
_copy_list = list.copy

_ISLAND_TERRAINS = ("forest", "hills", "pasture", "fields", "mountains")
_ISLAND_TOKENS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def _sea_frame(main_rows: tuple[int, ...]) -> tuple[int, ...]:
    """Rows of a map with two rings of hexes around an island of ``main_rows`` (sea, then islands)."""
    return (main_rows[0] + 2, main_rows[0] + 3, *(w + 4 for w in main_rows), main_rows[-1] + 3, main_rows[-1] + 2)


def random_islands(seed: int, *, players: int = 4, islands: int | None = None, size: tuple[int, int] = (2, 3),
                   vp_to_win: int = 12, foreign_island_vp: int = 2):
    """A seeded random Seafarers map (a proposal while SF-13 is a GAP): a random main island, a ring
    of sea, and small islands on the ring beyond it, with the base boards' fairness checks.

    The main island is :meth:`Board.random` (its own checks): the base island for 3-4 players, the
    5-6 extension's (X56-BOARD-1..6) for ``players`` 5 or 6.  On the small islands no two 6s or 8s
    touch (the red numbers, as B-SETUP-12 asks of the base island), every small island holds at
    least two resources, and the islands never touch each other or the main island.  ``islands``
    defaults to 3 (3-4 players) or 4 (5-6 players).

    Examples
    --------
    >>> b = random_islands(5)
    >>> b.scenario["vp_to_win"], len([t for t in b.hexes if t.is_land]) - 19 >= 6
    (12, True)
    >>> random_islands(5).to_dict() == random_islands(5).to_dict()
    True
    >>> big = random_islands(5, players=6)
    >>> big.scenario["players"], len(big.rows), sum(t.is_land for t in big.hexes) >= 30 + 8
    ([5, 6], 11, True)
    """
    import math
    import random as _random

    from ... import hexgrid
    from ...board import Board

    if players not in (3, 4, 5, 6):
        raise ValueError(f"random_islands: 3 to 6 players, not {players!r}")
    big = players > 4
    islands = (4 if big else 3) if islands is None else islands
    rng = _random.Random(seed)
    main = Board.random(seed=rng.getrandbits(32), layout="five_six" if big else "base")
    rows_new = _sea_frame(tuple(main.rows))
    shift_from = hexgrid.offset_to_axial(1, 1, main.rows)
    shift_to = hexgrid.offset_to_axial(3, 3, rows_new)
    shift = (shift_to[0] - shift_from[0], shift_to[1] - shift_from[1])

    def axial_new(rc):
        ax = hexgrid.offset_to_axial(rc[0], rc[1], main.rows)
        return (ax[0] + shift[0], ax[1] + shift[1])

    def moved(rc):
        return hexgrid.axial_to_offset(axial_new(rc), rows_new)

    data = main.to_dict()
    land = {moved((h["row"], h["col"])): (h["terrain"], h["token"]) for h in data["hexes"]}
    main_ax = [axial_new((h["row"], h["col"])) for h in data["hexes"]]
    cells_all = [(r, c) for r in range(1, len(rows_new) + 1) for c in range(1, rows_new[r - 1] + 1)]
    ax_of = {rc: hexgrid.offset_to_axial(rc[0], rc[1], rows_new) for rc in cells_all}
    cx = sum(hexgrid.to_plane(hexgrid.hex_centre(a))[0] for a in main_ax) / len(main_ax)
    cy = sum(hexgrid.to_plane(hexgrid.hex_centre(a))[1] for a in main_ax) / len(main_ax)

    def angle(rc):
        x, y = hexgrid.to_plane(hexgrid.hex_centre(ax_of[rc]))
        return math.atan2(y - cy, x - cx)

    steps = set(hexgrid.NEIGHBOUR_STEPS.values())

    def touch(a, b):
        return (b[0] - a[0], b[1] - a[1]) in steps

    # the outer ring: cells two steps from the main island, clockwise
    ring = sorted((rc for rc in cells_all if rc not in land
                   and not any(touch(ax_of[rc], m) for m in main_ax)), key=angle)
    for _attempt in range(1000):
        starts = sorted(rng.sample(range(len(ring)), islands))
        lengths = [rng.randint(*size) for _ in starts]
        cells = []
        ok = True
        for i, (s_, k) in enumerate(zip(starts, lengths)):
            nxt = starts[(i + 1) % islands] + (len(ring) if i + 1 == islands else 0)
            if s_ + k + 1 > nxt:  # islands must be separated by at least one sea hex
                ok = False
                break
            group = [ring[(s_ + j) % len(ring)] for j in range(k)]
            if any(not touch(ax_of[a], ax_of[b]) for a, b in zip(group, group[1:])):
                ok = False  # a group must be one island
                break
            cells.append(group)
        if not ok or any(touch(ax_of[a], ax_of[b]) for i, g in enumerate(cells) for h in cells[i + 1:]
                         for a in g for b in h):
            continue
        terrains = [[rng.choice(_ISLAND_TERRAINS) for _ in group] for group in cells]
        if any(len(set(t)) < 2 for t in terrains):
            continue
        tokens = [[rng.choice(_ISLAND_TOKENS) for _ in group] for group in cells]
        reds = [ax_of[rc] for group, toks in zip(cells, tokens) for rc, tok in zip(group, toks) if tok in (6, 8)]
        if any(touch(a, b) for i, a in enumerate(reds) for b in reds[i + 1:]):
            continue
        break
    else:  # pragma: no cover - 1000 tries always find one
        raise RuntimeError("no fair island layout found")
    for group, ts, ks in zip(cells, terrains, tokens):
        for rc, t, k in zip(group, ts, ks):
            land[rc] = (t, k)
    hexes = [{"row": r, "col": c, "terrain": land.get((r, c), ("sea", None))[0], "token": land.get((r, c), ("sea", None))[1]}
             for r, c in cells_all]
    harbours = [{"hex": list(moved(tuple(h["hex"]))), "side": h["side"], "resource": h["resource"]} for h in data["harbours"]]
    out = {
        "name": f"random-islands-{seed}" + ("-56" if big else ""),
        "description": "A seeded random Seafarers map (our proposal while SF-13 is a GAP).",
        "layout": "custom",
        "rows": list(rows_new),
        "hexes": hexes,
        "harbours": harbours,
        "robber": list(moved(tuple(data["robber"]))),
        "scenario": {"name": "random islands", "vp_to_win": vp_to_win, "players": [5, 6] if big else [3, 4],
                     "foreign_island_vp": foreign_island_vp, "modules": ["seafarers"]},
    }
    return Board.from_dict(out, source=f"random_islands(seed={seed}, players={players})")

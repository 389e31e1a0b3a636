"""Longest road, explained: each player's networks, longest road (or trade route) and what breaks it.

The engine answers *how long* (:meth:`Game.longest_road`) and *which paths*
(:meth:`Game.longest_road_path`).  This module answers the questions a lesson
or an explorer asks next (B-LR-1..3; SF-8 with ships; CK-KN-7 with knights):

* which connected networks of path pieces does a player have, and how long is
  the longest road inside each (:func:`road_networks`);
* which opponent piece (owner, intersection, kind) splits which network, into
  parts of which lengths, and how long the road would be without that one
  piece (:func:`road_breaks`);
* everything at once for one seat or all seats (:func:`longest_road`,
  :func:`longest_roads`), as frozen dataclasses;
* where a new opponent settlement would cut the road, and to what length
  (:func:`cut_lengths`);
* a board figure with the longest road drawn and the breaking pieces circled
  (:func:`longest_road_figure`), and a few sentences (:func:`explain_longest_road`).

Every module's game works the same way, because the analysis asks the engine
what it counts (:meth:`Game.trail_inputs`) and never decides a rule itself:

* the trail counts the player's pieces of every path kind the game has (roads;
  Seafarers ships, whose sum is the Longest Trade Route, SF-8; a module's own
  path piece);
* pieces of two kinds join only at the player's own settlement or city (SF-7,
  SF-8): where a road and a ship meet with no building of the player's there,
  they are two networks;
* an opponent's piece that *blocks* (a settlement or city, B-LR-2; a Cities &
  Knights knight, CK-KN-7) on an intersection where a network has two or more
  pieces of one kind *breaks* it: a road may end there but not run through.
  The player's own pieces never break anything (B-LR-3), and what adds nothing
  on the board (a city wall, a metropolis) changes nothing.

A *network* is a set of a player's path pieces a trail could pass between
(through any intersection of one kind, or the player's own building for two
kinds), whatever opponent pieces stand on them.  Lengths come from the engine's
exact search (:func:`catan_nb.rules.longest_trail`) on the engine's own inputs,
so they equal :meth:`Game.longest_road` on forks, loops, figure eights, mixed
routes and roads that end at or pass an opponent's piece.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.analysis.bots import RandomBot, play_game
>>> game = play_game(Game(Board.random(seed=2), players=4, seed=2), [RandomBot(s) for s in range(4)])
>>> reports = longest_roads(game)
>>> [r.length for r in reports] == game.road_lengths()
True
>>> all(len(r.nodes) == r.length + 1 for r in reports)
True
>>> all(b.length_without >= b.length for r in reports for b in r.breaks)
True
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Topology
from ..constants import Building
from ..rules import Game, longest_trail
from ..rules.longest_road import kind_groups

__all__ = [
    "RoadNetwork",
    "RoadBreak",
    "LongestRoad",
    "road_networks",
    "road_breaks",
    "longest_road",
    "longest_roads",
    "cut_lengths",
    "trail_nodes",
    "path_kinds",
    "route_title",
    "explain_longest_road",
    "longest_road_figure",
]


@dataclass(frozen=True)
class RoadNetwork:
    """One connected network of a player's path pieces (roads, ships...).

    Attributes
    ----------
    player : int
        Whose pieces.
    paths : tuple of int
        Path ids of the network's pieces, sorted.
    nodes : tuple of int
        Intersections the network touches, sorted.
    length : int
        Length of the longest road inside the network, opponent pieces
        respected (B-LR-1, B-LR-2; SF-8).
    road : tuple of int
        One longest road of the network, path ids in order along it.
    breaks : tuple of int
        Intersections where an opponent's blocking piece splits the network (the
        player has two or more pieces of one kind of the network there), sorted.
    pieces : tuple of tuple of int
        The parts the breaks cut the network into (each sorted, largest first);
        a single part when nothing breaks it.
    length_unbroken : int
        The network's length if no opponent piece stood on it.
    kinds : tuple of str
        The kind of the piece on each path of ``paths`` (``"road"``, ``"ship"``...), in the same order.
    joins : tuple of int
        The player's own buildings where the network passes from one kind to another (SF-8), sorted.
    """

    player: int
    paths: tuple[int, ...]
    nodes: tuple[int, ...]
    length: int
    road: tuple[int, ...]
    breaks: tuple[int, ...]
    pieces: tuple[tuple[int, ...], ...]
    length_unbroken: int
    kinds: tuple[str, ...] = ()
    joins: tuple[int, ...] = ()

    def paths_of(self, kind: str) -> tuple[int, ...]:
        """The network's paths holding a piece of ``kind`` (``"ship"``: its ships), sorted."""
        return tuple(e for e, k in zip(self.paths, self.kinds) if k == kind)


@dataclass(frozen=True)
class RoadBreak:
    """An opponent's blocking piece that splits one of a player's networks (B-LR-2; CK-KN-7).

    Attributes
    ----------
    player : int
        Whose road is broken.
    owner : int
        The seat owning the breaking piece.
    node : int
        The intersection it stands on.
    building : Building or None
        Settlement or city; ``None`` for another piece that blocks roads (a Cities & Knights
        knight, CK-KN-7): see ``piece``.
    network : int
        Index of the broken network in :func:`road_networks` order.
    sides : tuple of int
        Lengths of the parts that meet at the piece, longest first
        (``(5, 2)``: a 7-road line cut after its 2nd road).
    length : int
        The player's longest road now.
    length_without : int
        The player's longest road if this one piece were not there (other
        pieces stay): the engine's count with it taken off the board.
    network_length, network_length_without : int
        The same two lengths for the broken network alone.
    piece : str
        The kind of the piece on ``node`` (``"settlement"``, ``"city"``, ``"knight"``...).
    """

    player: int
    owner: int
    node: int
    building: Building | None
    network: int
    sides: tuple[int, ...]
    length: int
    length_without: int
    network_length: int
    network_length_without: int
    piece: str = "settlement"

    @property
    def cost(self) -> int:
        """Length the player loses to this piece (0 if the cut does not matter)."""
        return self.length_without - self.length

    @property
    def is_building(self) -> bool:
        """Whether the breaking piece is a settlement or city (not a knight or another blocking piece)."""
        return self.building is not None


@dataclass(frozen=True)
class LongestRoad:
    """Everything about one player's longest road (the Longest Trade Route with ships, SF-8).

    Attributes
    ----------
    player : int
    length : int
        Equal to :meth:`Game.longest_road`.
    road : tuple of int
        The engine's longest road (:meth:`Game.longest_road_path`), path ids in order.
    nodes : tuple of int
        The intersections along ``road`` in order (``length + 1`` of them; empty without pieces).
    networks : tuple of RoadNetwork
        The player's networks, longest first.
    breaks : tuple of RoadBreak
        Every opponent piece that splits one of them.
    length_unbroken : int
        The longest road if no opponent piece stood on the player's pieces.
    holder : bool
        Whether the player holds the Longest Road (Trade Route) card (B-LR-4..7).
    road_kinds : tuple of str
        The kind of the piece on each path of ``road``, in order.
    joins : tuple of int
        The player's own buildings along ``road`` where it passes from one kind to another (SF-8).
    apart : tuple of int
        Intersections where the player's pieces of two kinds meet with no building of the
        player's there: no trail passes from one to the other (SF-7, SF-8), sorted.
    """

    player: int
    length: int
    road: tuple[int, ...]
    nodes: tuple[int, ...]
    networks: tuple[RoadNetwork, ...]
    breaks: tuple[RoadBreak, ...]
    length_unbroken: int
    holder: bool
    road_kinds: tuple[str, ...] = ()
    joins: tuple[int, ...] = ()
    apart: tuple[int, ...] = ()


# ---------------------------------------------------------------------------- the engine's trail


class _Trail:
    """One seat's trail as the engine counts it (:meth:`Game.trail_inputs`), on the game's topology."""

    __slots__ = ("t", "roads", "blocked", "edge_kind", "switch", "joins", "group", "names")

    def __init__(self, game: Game, player: int):
        inputs = game.trail_inputs(player)
        self.t: Topology = game.topology
        self.roads: frozenset[int] = inputs["roads"]
        self.blocked: frozenset[int] = inputs["blocked"]
        self.edge_kind: tuple[int, ...] | None = inputs["edge_kind"]
        self.switch: frozenset[int] = inputs["switch"]
        self.joins: frozenset[tuple[int, int]] = inputs.get("joins", frozenset())
        self.group = kind_groups(self.joins)  # kinds that join directly meet as one (PieceKind.joins)
        self.names = {e: game.kinds[game.edge_kind[e]].name for e in self.roads}  # type: ignore[union-attr]

    def length(self, paths: Collection[int], blocked: Collection[int] | None = None) -> tuple[int, list[int]]:
        """The engine's longest trail through ``paths`` (default blocks: the engine's)."""
        t = self.t
        if self.edge_kind is None:
            return longest_trail(paths, t.edge_nodes, t.node_edges, self.blocked if blocked is None else blocked)
        return longest_trail(paths, t.edge_nodes, t.node_edges, self.blocked if blocked is None else blocked,
                             edge_kind=self.edge_kind, switch=self.switch, joins=self.joins)

    def key(self, v: int, e: int) -> Hashable:
        """Where path ``e`` meets others at ``v``: the whole intersection where a trail may change
        kind (SF-8: the player's own building, or a single kind), else that kind's side of it."""
        if self.edge_kind is None or v in self.switch:
            return v
        k = self.edge_kind[e]
        return (v, self.group.get(k, k))

    def crowded(self, v: int, paths: Collection[int]) -> bool:
        """Whether two or more of ``paths`` meet at ``v`` on one side (a piece there would cut them)."""
        seen = set()
        for e in self.t.node_edges[v]:
            if e in paths:
                k = self.key(v, e)
                if k in seen:
                    return True
                seen.add(k)
        return False


def _components(paths: Iterable[int], trail: _Trail, cut: Collection[int] = ()) -> list[tuple[int, ...]]:
    """Groups of ``paths`` a trail could pass between through intersections not in ``cut``, each sorted."""
    mine = set(paths)
    t = trail.t
    seen: set[int] = set()
    out = []
    for e0 in sorted(mine):
        if e0 in seen:
            continue
        seen.add(e0)
        comp, stack = [], [e0]
        while stack:
            e = stack.pop()
            comp.append(e)
            for v in t.edge_nodes[e]:
                if v in cut:
                    continue
                k = trail.key(v, e)
                for f in t.node_edges[v]:
                    if f in mine and f not in seen and trail.key(v, f) == k:
                        seen.add(f)
                        stack.append(f)
        out.append(tuple(sorted(comp)))
    return out


def trail_nodes(topology: Topology, road: Sequence[int]) -> tuple[int, ...]:
    """The intersections along a road given as path ids in order.

    Parameters
    ----------
    topology : Topology
        ``board.topology``.
    road : sequence of int
        Consecutive paths, as :meth:`Game.longest_road_path` returns them.

    Returns
    -------
    tuple of int
        ``len(road) + 1`` intersections (a closed loop starts and ends at the
        same one); empty for an empty road.

    Examples
    --------
    >>> from catan_nb import Board
    >>> b = Board.beginner()
    >>> trail_nodes(b.topology, [b.path_between(13, 18), b.path_between(18, 23)])
    (13, 18, 23)
    """
    if not road:
        return ()
    en = topology.edge_nodes
    a, b = en[road[0]]
    if len(road) > 1 and a in en[road[1]] and b not in en[road[1]]:
        a, b = b, a
    out = [a, b]
    for e in road[1:]:
        x, y = en[e]
        if out[-1] == x:
            out.append(y)
        elif out[-1] == y:
            out.append(x)
        else:
            raise ValueError(f"paths {road} are not consecutive at path {e}")
    return tuple(out)


def path_kinds(game: Game) -> tuple[str, ...]:
    """Names of the path piece kinds a trail counts in ``game`` (B-LR-1; SF-8), in registry order.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> from catan_nb.rules.modules.seafarers import ISLANDS
    >>> path_kinds(Game(Board.beginner(), seed=1, start="beginner"))
    ('road',)
    >>> board = Board.load(ISLANDS)
    >>> path_kinds(Game(board, seed=1, rules=Rules.for_board(board)))
    ('road', 'ship')
    """
    return tuple(k.name for k in game.kinds if k is not None and k.site == "path")


def route_title(game: Game) -> str:
    """The card's name in ``game``: "Longest Trade Route" where pieces on the sea count (ships, SF-8),
    else "Longest Road" (B-LR-4).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> route_title(Game(Board.beginner(), seed=1, start="beginner"))
    'Longest Road'
    """
    sea = any(k is not None and k.site == "path" and k.sea for k in game.kinds)
    return "Longest Trade Route" if sea else "Longest Road"


# ---------------------------------------------------------------------------- public API


def _networks(game: Game, player: int, trail: _Trail) -> tuple[RoadNetwork, ...]:
    t = trail.t
    out = []
    for comp in _components(trail.roads, trail):
        mine = set(comp)
        nodes = sorted({v for e in comp for v in t.edge_nodes[e]})
        blocked = [v for v in nodes if v in trail.blocked]
        breaks = [v for v in blocked if trail.crowded(v, mine)]
        length, road = trail.length(mine)
        unbroken = trail.length(mine, ())[0] if breaks else length
        parts = sorted(_components(comp, trail, set(breaks)), key=lambda p: (-len(p), p))
        joins = [v for v in nodes if v in trail.switch
                 and len({trail.names[e] for e in t.node_edges[v] if e in mine}) > 1]
        out.append(
            RoadNetwork(
                player=player,
                paths=comp,
                nodes=tuple(nodes),
                length=length,
                road=tuple(road),
                breaks=tuple(breaks),
                pieces=tuple(parts),
                length_unbroken=unbroken,
                kinds=tuple(trail.names[e] for e in comp),
                joins=tuple(joins),
            )
        )
    out.sort(key=lambda n: (-n.length, -len(n.paths), n.nodes))
    return tuple(out)


def road_networks(game: Game, player: int) -> tuple[RoadNetwork, ...]:
    """A player's connected networks of path pieces (roads, ships...), longest first.

    Parameters
    ----------
    game : Game
    player : int

    Returns
    -------
    tuple of RoadNetwork
        Ordered by length, then number of pieces (both descending), then lowest intersection.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> [(n.nodes, n.length, n.kinds) for n in road_networks(game, 0)]  # red's two starting roads
    [((13, 18), 1, ('road',)), ((22, 28), 1, ('road',))]

    Notes
    -----
    Linear in the number of pieces, plus one exact longest-road search per
    network (a player has at most 15 roads, and 15 ships in Seafarers).
    """
    return _networks(game, player, _Trail(game, player))


def _breaks(game: Game, player: int, networks: Sequence[RoadNetwork], trail: _Trail) -> tuple[RoadBreak, ...]:
    t = trail.t
    lengths = [n.length for n in networks]
    now = max(lengths, default=0)
    out = []
    for i, net in enumerate(networks):
        if not net.breaks:
            continue
        others = max((x for j, x in enumerate(lengths) if j != i), default=0)
        for v in net.breaks:
            without = trail.length(net.paths, trail.blocked - {v})[0]
            sides = sorted(
                (trail.length(part)[0] for part in net.pieces if any(v in t.edge_nodes[e] for e in part)),
                reverse=True,
            )
            kind = game.kinds[game.node_kind[v]]  # a kind id is no Building value: a knight's is 4
            assert kind is not None
            out.append(
                RoadBreak(
                    player=player,
                    owner=game.node_owner[v],
                    node=v,
                    building=Building.__members__.get(kind.name.upper()) if kind.building else None,
                    network=i,
                    sides=tuple(sides),
                    length=now,
                    length_without=max(others, without),
                    network_length=net.length,
                    network_length_without=without,
                    piece=kind.name,
                )
            )
    return tuple(out)


def road_breaks(game: Game, player: int) -> tuple[RoadBreak, ...]:
    """Every opponent piece (settlement, city, knight...) that splits one of ``player``'s networks.

    Parameters
    ----------
    game : Game
    player : int

    Returns
    -------
    tuple of RoadBreak
        By network (in :func:`road_networks` order), then intersection.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> road_breaks(game, 0)
    ()

    Notes
    -----
    One exact longest-road search per break, on the broken network only.
    """
    trail = _Trail(game, player)
    return _breaks(game, player, _networks(game, player, trail), trail)


def longest_road(game: Game, player: int) -> LongestRoad:
    """One player's longest road (trade route), networks and breaks.

    Parameters
    ----------
    game : Game
    player : int

    Returns
    -------
    LongestRoad
        ``length`` and ``road`` are the engine's (:meth:`Game.longest_road`,
        :meth:`Game.longest_road_path`).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> r = longest_road(game, 0)
    >>> r.length, r.nodes, len(r.networks), r.holder, r.road_kinds
    (1, (13, 18), 2, False, ('road',))
    """
    trail = _Trail(game, player)
    networks = _networks(game, player, trail)
    length = game.longest_road(player)
    road = tuple(game.longest_road_path(player))
    nodes = trail_nodes(game.topology, road)
    kinds = tuple(trail.names[e] for e in road)
    joins = tuple(v for v, k0, k1 in zip(nodes[1:-1], kinds, kinds[1:]) if k0 != k1)
    t = trail.t
    apart = tuple(
        v for v in sorted({v for e in trail.roads for v in t.edge_nodes[e]})
        if v not in trail.switch and len({trail.names[e] for e in t.node_edges[v] if e in trail.roads}) > 1
    )
    return LongestRoad(
        player=player,
        length=length,
        road=road,
        nodes=nodes,
        networks=networks,
        breaks=_breaks(game, player, networks, trail),
        length_unbroken=max((n.length_unbroken for n in networks), default=0),
        holder=game.longest_road_holder == player,
        road_kinds=kinds,
        joins=joins,
        apart=apart,
    )


def longest_roads(game: Game) -> tuple[LongestRoad, ...]:
    """:func:`longest_road` for every seat, in seat order.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> [r.length for r in longest_roads(game)] == game.road_lengths()
    True
    """
    return tuple(longest_road(game, p) for p in range(game.n))


def cut_lengths(game: Game, player: int, *, distance_rule: bool = True) -> dict[int, int]:
    """Where a new opponent settlement would shorten ``player``'s longest road, and to what.

    A what-if for lessons ("where can they cut me?"): for every empty
    intersection where the player has two or more pieces of one kind (roads,
    ships...), the player's longest road if an opponent's settlement (or any
    piece that blocks: a knight, CK-KN-7) stood there.  Only intersections where
    the cut would shorten the road are returned.

    Parameters
    ----------
    game : Game
    player : int
    distance_rule : bool
        Keep only intersections where a settlement may stand: on land (SF-2) and
        by the distance rule (B-BUILD-7).  Whether an opponent has a road there is
        not checked.

    Returns
    -------
    dict of int to int
        Intersection -> the player's longest road after the cut, by intersection.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> cut_lengths(game, 0)
    {}
    """
    trail = _Trail(game, player)
    t = trail.t
    owner, kind = game.node_owner, game.node_kind
    building = [bool(k is not None and k.building) for k in game.kinds]
    networks = _networks(game, player, trail)
    lengths = [n.length for n in networks]
    now = max(lengths, default=0)
    out: dict[int, int] = {}
    for i, net in enumerate(networks):
        if net.length < now:
            continue  # cutting a shorter network cannot shorten the longest road
        others = max((x for j, x in enumerate(lengths) if j != i), default=0)
        mine = set(net.paths)
        for v in net.nodes:
            if owner[v] >= 0 or not trail.crowded(v, mine):
                continue
            if distance_rule and (not t.node_land[v]
                                  or any(owner[w] >= 0 and building[kind[w]] for w in t.node_neighbours[v])):
                continue
            after = max(others, trail.length(mine, trail.blocked | {v})[0])
            if after < now:
                out[v] = after
    return dict(sorted(out.items()))


def _plural(name: str, n: int) -> str:
    return f"{n} {name}" + ("" if n == 1 else "s")


def explain_longest_road(game: Game, player: int) -> str:
    """A sentence or two on a player's longest road (trade route), for lessons and the command line.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> print(explain_longest_road(game, 1))
    blue: longest road 1 (intersections 14-19), 2 road networks.
    """
    r = longest_road(game, player)
    title = route_title(game)
    kinds = path_kinds(game)
    name = str(game.colours[player])
    nets = len(r.networks)
    mixed = len(kinds) > 1
    via = ""
    if r.nodes:
        count = ", ".join(_plural(k, r.road_kinds.count(k)) for k in kinds if k in r.road_kinds)
        via = f" (intersections {'-'.join(map(str, r.nodes))}" + (f": {count})" if mixed else ")")
    what = f"network{'s' if nets != 1 else ''} of {' and '.join(k + 's' for k in kinds)}" if mixed \
        else f"road network{'s' if nets != 1 else ''}"
    lines = [f"{name}: {title.lower()} {r.length}{via}, {nets} {what}."]
    if r.holder:
        lines[0] = lines[0][:-1] + f"; holds the {title} card."
    for i, (k0, k1) in enumerate(zip(r.road_kinds, r.road_kinds[1:])):
        if k0 != k1:  # the road passes from one kind to another at the player's own building (SF-8)
            v = r.nodes[i + 1]
            piece = game.kinds[game.node_kind[v]].name  # type: ignore[union-attr]
            lines.append(f"  {k0}s and {k1}s join at its own {piece} at {v} (SF-8).")
    for b in r.breaks:
        what_b = f"{game.colours[b.owner]}'s {b.piece} at {b.node}"
        split = "+".join(map(str, b.sides))
        if b.cost:
            lines.append(f"  {what_b} splits network {b.network} ({split}); without it: {b.length_without}.")
        else:
            lines.append(f"  {what_b} splits network {b.network} ({split}); it costs nothing.")
    for v in r.apart:
        lines.append(f"  its pieces meet at {v} with no building of its own there: they do not join (SF-8).")
    return "\n".join(lines)


def longest_road_figure(game: Game, player: int, **kwargs: Any):
    """The board with ``player``'s longest road (trade route) drawn and the breaking pieces circled.

    Ships, knights and the other modules' pieces are drawn by the board figure's layers
    (:mod:`catan_nb.viz.seafarers`, :mod:`catan_nb.viz.cities_knights`), the longest road
    along the engine's own path (:meth:`Game.longest_road_path`), ships included.

    Parameters
    ----------
    game : Game
    player : int
    **kwargs
        Passed on to :func:`catan_nb.viz.board_figure` (``palette_name``,
        ``node_ids``, ``height``, ``title``...).

    Returns
    -------
    plotly.graph_objects.Figure
        ``board_figure(game, longest_road=player, highlight_nodes=<break nodes>)``.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> fig = longest_road_figure(Game(Board.beginner(), players=4, seed=1, start="beginner"), 0)
    >>> fig.layout.title.text
    'red: longest road 1'
    """
    from ..viz import board_figure  # the viz layer sits above analysis: import on use

    r = longest_road(game, player)
    kwargs.setdefault("title", f"{game.colours[player]}: {route_title(game).lower()} {r.length}")
    kwargs.setdefault("highlight_nodes", sorted({b.node for b in r.breaks}))
    return board_figure(game, longest_road=player, **kwargs)

"""Longest road, explained: each player's road networks, longest road and what breaks it.

The engine answers *how long* (:meth:`Game.longest_road`) and *which roads*
(:meth:`Game.longest_road_path`).  This module answers the questions a lesson
or an explorer asks next (B-LR-1..3):

* which connected road networks does a player have, and how long is the
  longest road inside each (:func:`road_networks`);
* which opponent building (owner, intersection) splits which network, into
  pieces of which lengths, and how long the road would be without that one
  building (:func:`road_breaks`);
* everything at once for one seat or all seats (:func:`longest_road`,
  :func:`longest_roads`), as frozen dataclasses;
* where a new opponent building would cut the road, and to what length
  (:func:`cut_lengths`);
* a board figure with the longest road drawn and the breaking buildings
  circled (:func:`longest_road_figure`).

A *network* is a set of a player's roads connected through shared
intersections, whatever stands on them.  An opponent's settlement or city on
an intersection where the player has two or more roads of a network *breaks*
it: a road may end there but not run through (B-LR-2).  The player's own
buildings never break anything (B-LR-3).  Lengths come from the engine's exact
search (:func:`catan_nb.rules.longest_trail`), so they agree with
:meth:`Game.longest_road` on forks, loops, figure eights and roads that end at
or pass an opponent's building.

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

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Topology
from ..constants import Building
from ..rules import Game, longest_trail

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
    "explain_longest_road",
    "longest_road_figure",
]


@dataclass(frozen=True)
class RoadNetwork:
    """One connected network of a player's roads.

    Attributes
    ----------
    player : int
        Whose roads.
    paths : tuple of int
        Path ids of the network's roads, sorted.
    nodes : tuple of int
        Intersections the network touches, sorted.
    length : int
        Length of the longest road inside the network, opponent buildings
        respected (B-LR-1, B-LR-2).
    road : tuple of int
        One longest road of the network, path ids in order along it.
    breaks : tuple of int
        Intersections where an opponent's building splits the network (the
        player has two or more roads of the network there), sorted.
    pieces : tuple of tuple of int
        The parts the breaks cut the network into (each sorted, largest first);
        a single piece when nothing breaks it.
    length_unbroken : int
        The network's length if no opponent building stood on it.
    """

    player: int
    paths: tuple[int, ...]
    nodes: tuple[int, ...]
    length: int
    road: tuple[int, ...]
    breaks: tuple[int, ...]
    pieces: tuple[tuple[int, ...], ...]
    length_unbroken: int


@dataclass(frozen=True)
class RoadBreak:
    """An opponent's building (or other blocking piece) that splits one of a player's road networks (B-LR-2).

    Attributes
    ----------
    player : int
        Whose road is broken.
    owner : int
        The seat owning the building.
    node : int
        The intersection the building stands on.
    building : Building or None
        Settlement or city; ``None`` for another piece that blocks roads (a Cities & Knights
        knight, CK-KN-7): see ``piece``.
    network : int
        Index of the broken network in :func:`road_networks` order.
    sides : tuple of int
        Lengths of the pieces that meet at the building, longest first
        (``(5, 2)``: a 7-road line cut after its 2nd road).
    length : int
        The player's longest road now.
    length_without : int
        The player's longest road if this one building were not there (other
        buildings stay).
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
        """Roads of length the player loses to this building (0 if the cut does not matter)."""
        return self.length_without - self.length


@dataclass(frozen=True)
class LongestRoad:
    """Everything about one player's longest road.

    Attributes
    ----------
    player : int
    length : int
        Equal to :meth:`Game.longest_road`.
    road : tuple of int
        The engine's longest road (:meth:`Game.longest_road_path`), path ids in order.
    nodes : tuple of int
        The intersections along ``road`` in order (``length + 1`` of them; empty without roads).
    networks : tuple of RoadNetwork
        The player's road networks, longest first.
    breaks : tuple of RoadBreak
        Every opponent building that splits one of them.
    length_unbroken : int
        The longest road if no opponent building stood on the player's roads.
    holder : bool
        Whether the player holds the Longest Road card (B-LR-4..7).
    """

    player: int
    length: int
    road: tuple[int, ...]
    nodes: tuple[int, ...]
    networks: tuple[RoadNetwork, ...]
    breaks: tuple[RoadBreak, ...]
    length_unbroken: int
    holder: bool


# ---------------------------------------------------------------------------- plain-data helpers


def _components(paths: Iterable[int], t: Topology, cut: Collection[int] = ()) -> list[tuple[int, ...]]:
    """Groups of ``paths`` joined through shared intersections not in ``cut``, each sorted."""
    mine = set(paths)
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
                for f in t.node_edges[v]:
                    if f in mine and f not in seen:
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


def _opponent_nodes(game: Game, player: int, nodes: Iterable[int]) -> set[int]:
    owner = game.node_owner
    return {v for v in nodes if owner[v] >= 0 and owner[v] != player}


def _length(paths: Collection[int], t: Topology, blocked: Collection[int]) -> tuple[int, list[int]]:
    return longest_trail(paths, t.edge_nodes, t.node_edges, blocked)


# ---------------------------------------------------------------------------- public API


def road_networks(game: Game, player: int) -> tuple[RoadNetwork, ...]:
    """A player's connected road networks, longest first.

    Parameters
    ----------
    game : Game
    player : int

    Returns
    -------
    tuple of RoadNetwork
        Ordered by length, then number of roads (both descending), then lowest intersection.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> [(n.nodes, n.length) for n in road_networks(game, 0)]  # red's two starting roads
    [((13, 18), 1), ((22, 28), 1)]

    Notes
    -----
    Linear in the number of roads, plus one exact longest-road search per
    network (a player has at most 15 roads).
    """
    t = game.board.topology
    out = []
    for comp in _components(game.roads[player], t):
        nodes = sorted({v for e in comp for v in t.edge_nodes[e]})
        blocked = _opponent_nodes(game, player, nodes)
        mine = set(comp)
        breaks = sorted(v for v in blocked if sum(1 for e in t.node_edges[v] if e in mine) >= 2)
        length, road = _length(mine, t, blocked)
        unbroken = _length(mine, t, ())[0] if breaks else length
        pieces = sorted(_components(comp, t, set(breaks)), key=lambda p: (-len(p), p))
        out.append(
            RoadNetwork(
                player=player,
                paths=comp,
                nodes=tuple(nodes),
                length=length,
                road=tuple(road),
                breaks=tuple(breaks),
                pieces=tuple(pieces),
                length_unbroken=unbroken,
            )
        )
    out.sort(key=lambda n: (-n.length, -len(n.paths), n.nodes))
    return tuple(out)


def _breaks(game: Game, player: int, networks: Sequence[RoadNetwork]) -> tuple[RoadBreak, ...]:
    t = game.board.topology
    lengths = [n.length for n in networks]
    now = max(lengths, default=0)
    out = []
    for i, net in enumerate(networks):
        if not net.breaks:
            continue
        blocked = _opponent_nodes(game, player, net.nodes)
        others = max((x for j, x in enumerate(lengths) if j != i), default=0)
        for v in net.breaks:
            without = _length(net.paths, t, blocked - {v})[0]
            sides = sorted(
                (_length(piece, t, blocked)[0] for piece in net.pieces if any(v in t.edge_nodes[e] for e in piece)),
                reverse=True,
            )
            kind = game.kinds[game.node_kind[v]]  # a kind id is no Building value: a knight's is 4
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
    """Every opponent building that splits one of ``player``'s road networks.

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
    return _breaks(game, player, road_networks(game, player))


def longest_road(game: Game, player: int) -> LongestRoad:
    """One player's longest road, networks and breaks.

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
    >>> r.length, r.nodes, len(r.networks), r.holder
    (1, (13, 18), 2, False)
    """
    networks = road_networks(game, player)
    length = game.longest_road(player)
    road = tuple(game.longest_road_path(player))
    return LongestRoad(
        player=player,
        length=length,
        road=road,
        nodes=trail_nodes(game.board.topology, road),
        networks=networks,
        breaks=_breaks(game, player, networks),
        length_unbroken=max((n.length_unbroken for n in networks), default=0),
        holder=game.longest_road_holder == player,
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
    intersection where the player has two or more roads, the player's longest
    road if an opponent's settlement stood there.  Only intersections where the
    cut would shorten the road are returned.

    Parameters
    ----------
    game : Game
    player : int
    distance_rule : bool
        Keep only intersections where the distance rule (B-BUILD-7) allows a
        settlement.  Whether an opponent has a road there is not checked.

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
    t = game.board.topology
    owner = game.node_owner
    networks = road_networks(game, player)
    lengths = [n.length for n in networks]
    now = max(lengths, default=0)
    out: dict[int, int] = {}
    for i, net in enumerate(networks):
        if net.length < now:
            continue  # cutting a shorter network cannot shorten the longest road
        others = max((x for j, x in enumerate(lengths) if j != i), default=0)
        blocked = _opponent_nodes(game, player, net.nodes)
        mine = set(net.paths)
        for v in net.nodes:
            if owner[v] >= 0 or sum(1 for e in t.node_edges[v] if e in mine) < 2:
                continue
            if distance_rule and any(owner[w] >= 0 for w in t.node_neighbours[v]):
                continue
            after = max(others, _length(mine, t, blocked | {v})[0])
            if after < now:
                out[v] = after
    return dict(sorted(out.items()))


def explain_longest_road(game: Game, player: int) -> str:
    """A sentence or two on a player's longest road, for lessons and the command line.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    >>> print(explain_longest_road(game, 1))
    blue: longest road 1 (intersections 14-19), 2 road networks.
    """
    r = longest_road(game, player)
    name = str(game.colours[player])
    nets = len(r.networks)
    via = f" (intersections {'-'.join(map(str, r.nodes))})" if r.nodes else ""
    lines = [f"{name}: longest road {r.length}{via}, {nets} road network{'s' if nets != 1 else ''}."]
    if r.holder:
        lines[0] = lines[0][:-1] + "; holds the Longest Road card."
    for b in r.breaks:
        what = f"{game.colours[b.owner]}'s {b.piece} at {b.node}"
        split = "+".join(map(str, b.sides))
        if b.cost:
            lines.append(f"  {what} splits network {b.network} ({split}); without it: {b.length_without}.")
        else:
            lines.append(f"  {what} splits network {b.network} ({split}); it costs nothing.")
    return "\n".join(lines)


def longest_road_figure(game: Game, player: int, **kwargs: Any):
    """The board with ``player``'s longest road drawn and the breaking buildings circled.

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
    kwargs.setdefault("title", f"{game.colours[player]}: longest road {r.length}")
    kwargs.setdefault("highlight_nodes", sorted({b.node for b in r.breaks}))
    return board_figure(game, longest_road=player, **kwargs)

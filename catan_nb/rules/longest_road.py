"""Longest road on plain data (B-LR-1..3).

A road's length is the number of roads in the longest trail (no road used
twice) through one player's roads that never passes *through* an intersection
holding an opponent's settlement or city; it may end there (B-LR-2).  The
player's own buildings do not split it (B-LR-3).

Notes
-----
Exhaustive depth-first search over trails, with roads as bits of an int.  A
player has at most 15 roads, so the search is small; it starts only where a
longest trail can start: dead ends and blocked intersections, or anywhere on a
network with neither (a loop).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

__all__ = ["longest_trail", "longest_trail_from", "kind_groups"]


def kind_groups(joins: Collection[tuple[int, int]]) -> dict[int, int]:
    """The kind each kind counts as for a trail, given the pairs of kinds that join directly.

    Joining is mutual and carries over, so the kinds fall into groups; each kind of a pair maps
    to the smallest kind of its group (a kind in no pair is its own group and is left out).

    Examples
    --------
    >>> kind_groups({(3, 7)}) == {3: 3, 7: 3}
    True
    >>> kind_groups([(5, 4), (4, 9)]) == {4: 4, 5: 4, 9: 4}
    True
    """
    parent: dict[int, int] = {}

    def find(k: int) -> int:
        parent.setdefault(k, k)
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a, b in joins:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {k: find(k) for k in list(parent)}


def _grouped(mine, edge_kind, joins):
    """``edge_kind`` for the pieces ``mine`` with joined kinds counted as one (see :func:`kind_groups`)."""
    if edge_kind is None or not joins:
        return edge_kind
    g = kind_groups(joins)
    return {e: g.get(edge_kind[e], edge_kind[e]) for e in mine}


def longest_trail(
    roads: Collection[int],
    edge_nodes: Sequence[tuple[int, int]],
    node_edges: Sequence[Sequence[int]],
    blocked: Collection[int] = (),
    *,
    edge_kind: Sequence[int] | None = None,
    switch: Collection[int] = (),
    joins: Collection[tuple[int, int]] = (),
) -> tuple[int, list[int]]:
    """Length and roads (in order) of the longest trail through ``roads``.

    Parameters
    ----------
    roads : collection of int
        Path ids of one player's roads.
    edge_nodes : sequence of (int, int)
        End intersections of every path.
    node_edges : sequence of sequences of int
        Paths at every intersection.
    blocked : collection of int
        Intersections holding an opponent's settlement or city (or another blocking piece).
    edge_kind : sequence of int, optional
        The kind of piece on every path (roads, ships...).  Given, a trail may pass
        from one kind to another only at an intersection in ``switch`` (SF-8: roads
        and ships count together where they meet at the player's own building).
    switch : collection of int
        Intersections where the trail may change kind.
    joins : collection of (int, int)
        Pairs of kinds that join directly: a trail passes between them at any intersection
        (a kind declared with :attr:`PieceKind.joins <catan_nb.rules.pieces.PieceKind>`, a
        bridge carrying a road on).  Joining is mutual and carries over (:func:`kind_groups`).

    Returns
    -------
    (length, path ids)

    Examples
    --------
    A line of three roads 0-1-2-3 cut by an opponent at intersection 1:

    >>> edge_nodes = [(0, 1), (1, 2), (2, 3)]
    >>> node_edges = [[0], [0, 1], [1, 2], [2]]
    >>> longest_trail({0, 1, 2}, edge_nodes, node_edges)
    (3, [0, 1, 2])
    >>> longest_trail({0, 1, 2}, edge_nodes, node_edges, blocked={1})[0]
    2

    A road (kind 1) then two ships (kind 2): they join only at a building on 1.

    >>> longest_trail({0, 1, 2}, edge_nodes, node_edges, edge_kind=[1, 2, 2])[0]
    2
    >>> longest_trail({0, 1, 2}, edge_nodes, node_edges, edge_kind=[1, 2, 2], switch={1})[0]
    3

    A road (kind 1) then two bridges (kind 4) declared to join roads: no building needed.

    >>> longest_trail({0, 1, 2}, edge_nodes, node_edges, edge_kind=[1, 4, 4], joins={(4, 1)})[0]
    3
    """
    if isinstance(edge_nodes, dict):  # the mixed search's own split graph: no memo
        return _one_kind(set(roads), edge_nodes, node_edges, set(blocked))
    mine = frozenset(roads)
    block = frozenset(blocked)
    edge_kind = _grouped(mine, edge_kind, joins)
    kinds = None if edge_kind is None else tuple(edge_kind[e] for e in sorted(mine))
    key = (id(edge_nodes), id(node_edges), mine, block, kinds, frozenset(switch) if edge_kind is not None else None)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is edge_nodes and hit[1] is node_edges:  # the same network, blocks and kinds
        return hit[2], list(hit[3])
    if edge_kind is not None:
        out = _mixed_trail(set(mine), edge_nodes, node_edges, set(block), edge_kind, set(switch))
    else:
        out = _one_kind(set(mine), edge_nodes, node_edges, set(block))
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = (edge_nodes, node_edges, out[0], tuple(out[1]))  # the graph kept alive: its id stays its own
    return out


def longest_trail_from(
    start: int | Sequence[int],
    roads: Collection[int],
    edge_nodes: Sequence[tuple[int, int]],
    node_edges: Sequence[Sequence[int]],
    blocked: Collection[int] = (),
    *,
    edge_kind: Sequence[int] | None = None,
    switch: Collection[int] = (),
    with_path: bool = False,
    joins: Collection[tuple[int, int]] = (),
) -> Any:
    """Length of the longest trail through ``roads`` that starts at intersection ``start``.

    ``start`` may also be a sequence of intersections: the longest trail starting at any of them.
    Same rules as :func:`longest_trail`: a trail may end at a ``blocked`` intersection, never pass
    through one, and with ``edge_kind`` it changes kind only at an intersection in ``switch``
    (or between kinds that ``joins`` pairs).
    The engine uses it after a road ends on an intersection none of the player's roads touched:
    every trail through that road ends there, so the new longest trail is the old one or the
    longest from there.  ``with_path``: return ``(length, path ids)`` as :func:`longest_trail` does.

    Examples
    --------
    A fork at 1: roads 0-1, 1-2 and 1-3.

    >>> edge_nodes = [(0, 1), (1, 2), (1, 3)]
    >>> node_edges = [[0], [0, 1, 2], [1], [2]]
    >>> longest_trail_from(0, {0, 1, 2}, edge_nodes, node_edges), longest_trail_from(1, {0, 1, 2}, edge_nodes, node_edges)
    (2, 1)
    >>> longest_trail_from((1, 3), {0, 1, 2}, edge_nodes, node_edges)
    2
    """
    starts = [start] if isinstance(start, int) else list(start)
    if isinstance(edge_nodes, dict):  # a split graph of the caller's: no memo
        return _count_from(starts, set(roads), edge_nodes, node_edges, blocked, edge_kind, switch, with_path)
    mine = frozenset(roads)
    edge_kind = _grouped(mine, edge_kind, joins)
    kinds = None if edge_kind is None else tuple(edge_kind[e] for e in sorted(mine))
    key = (id(edge_nodes), id(node_edges), tuple(starts), mine, frozenset(blocked), kinds,
           frozenset(switch) if edge_kind is not None else None)
    hit = _FROM_MEMO.get(key)
    if hit is None or hit[0] is not edge_nodes or hit[1] is not node_edges:
        if len(_FROM_MEMO) >= _MEMO_SIZE:
            _FROM_MEMO.clear()
        out = _count_from(starts, set(mine), edge_nodes, node_edges, blocked, edge_kind, switch, True)
        hit = _FROM_MEMO[key] = (edge_nodes, node_edges, out[0], tuple(out[1]))  # the graph kept alive
    return (hit[2], list(hit[3])) if with_path else hit[2]


def _count_from(starts: list[int], mine: set, edge_nodes, node_edges, blocked, edge_kind, switch,
                with_path: bool) -> Any:
    """:func:`longest_trail_from` without the memo."""
    if edge_kind is None:
        out = _search(starts, mine, edge_nodes, node_edges, blocked)
    elif not mine:
        out = (0, [])
    else:
        new_edges, new_node_edges, new_blocked, copies = _split(mine, edge_nodes, node_edges, set(blocked), edge_kind,
                                                               set(switch))
        out = _search([c for v in starts for c in copies.get(v, ())], mine, new_edges, new_node_edges, new_blocked)
    return out if with_path else out[0]


#: Trails already counted, by board, pieces, blocks and kinds (a pure function of them).
_MEMO: dict = {}
_MEMO_SIZE = 20_000
#: Trails from given intersections already counted, the same way (:func:`longest_trail_from`).
_FROM_MEMO: dict = {}


def _one_kind(mine: set, edge_nodes, node_edges, blocked: set) -> tuple[int, list[int]]:
    """The one-kind search (see :func:`longest_trail`)."""
    if not mine:
        return 0, []
    deg: dict[int, int] = {}
    for e in mine:
        for v in edge_nodes[e]:
            deg[v] = deg.get(v, 0) + 1
    # A longest trail can be taken to start at a dead end, a fork or a blocked
    # intersection; a component with none of them is a loop: start anywhere on it.
    starts = [v for v, d in deg.items() if d != 2 or v in blocked]
    seen: set[int] = set()
    for v in sorted(deg):
        if v in seen:
            continue
        comp, stack = [], [v]
        seen.add(v)
        while stack:
            u = stack.pop()
            comp.append(u)
            for e in node_edges[u]:
                if e in mine:
                    a, c = edge_nodes[e]
                    w = c if a == u else a
                    if w not in seen:
                        seen.add(w)
                        stack.append(w)
        if not any(deg[u] != 2 or u in blocked for u in comp):
            starts.append(min(comp))
    return _search(sorted(set(starts)), mine, edge_nodes, node_edges, blocked)


def _search(starts, mine: set, edge_nodes, node_edges, blocked) -> tuple[int, list[int]]:
    """The longest trail through ``mine`` starting at one of ``starts`` (depth first, roads as bits)."""
    bit = {e: 1 << i for i, e in enumerate(sorted(mine))}
    best_len = 0
    best_path: list[int] = []
    path: list[int] = []

    def dfs(v: int, used: int) -> None:
        nonlocal best_len, best_path
        extended = False
        for e in node_edges[v]:
            b = bit.get(e)
            if b is None or used & b:
                continue
            a, c = edge_nodes[e]
            w = c if a == v else a
            path.append(e)
            extended = True
            if w in blocked:
                if len(path) > best_len:
                    best_len, best_path = len(path), path.copy()
            else:
                dfs(w, used | b)
            path.pop()
        if not extended and len(path) > best_len:
            best_len, best_path = len(path), path.copy()

    for s in starts:
        dfs(s, 0)
        if best_len == len(mine):
            break
    return best_len, best_path


def _mixed_trail(mine, edge_nodes, node_edges, blocked, edge_kind, switch) -> tuple[int, list[int]]:
    """Longest trail over pieces of several kinds, switching kind only at ``switch`` (SF-8).

    Reduced to the one-kind search on the split graph (:func:`_split`); the one-kind search then
    starts only where a longest trail can start.
    """
    if not mine:
        return 0, []
    new_edges, new_node_edges, new_blocked, _ = _split(mine, edge_nodes, node_edges, blocked, edge_kind, switch)
    return _one_kind(set(mine), new_edges, new_node_edges, new_blocked)


def _split(mine, edge_nodes, node_edges, blocked, edge_kind, switch):
    """The graph of pieces of several kinds in which a trail is a one-kind trail (SF-8).

    An intersection outside ``switch`` is split into one copy per kind of piece meeting there (a
    trail cannot change kind there, so each copy joins the pieces of one kind), an intersection in
    ``switch`` stays whole; blocked intersections stay blocked in every copy.  Returns the new
    ends of every piece, the pieces at every new intersection, the blocked new intersections and
    the copies of every old intersection.
    """
    ids: dict[tuple[int, int], int] = {}
    copies: dict[int, list[int]] = {}
    new_edges: dict[int, tuple[int, int]] = {}
    new_node_edges: list[list[int]] = []
    new_blocked: set[int] = set()

    def copy_of(v: int, k: int) -> int:
        key = (v, -1 if v in switch else k)
        i = ids.get(key)
        if i is None:
            i = ids[key] = len(new_node_edges)
            new_node_edges.append([])
            copies.setdefault(v, []).append(i)
            if v in blocked:
                new_blocked.add(i)
        return i

    for e in sorted(mine):
        a, b = edge_nodes[e]
        k = edge_kind[e]
        x, y = copy_of(a, k), copy_of(b, k)
        new_edges[e] = (x, y)
        new_node_edges[x].append(e)
        new_node_edges[y].append(e)
    return new_edges, new_node_edges, new_blocked, copies

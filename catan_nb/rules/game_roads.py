"""Longest Road for :class:`~catan_nb.rules.game.Game`: trail lengths, kept lazily, and the card.

A part of the engine (see the map in :mod:`catan_nb.rules.game`): the methods here are mixed
into ``Game`` and read its state (``placed``, ``edge_owner``, ``road_nodes``...).  Each seat's
trail length (B-LR-1..3; over roads and ships, SF-8) is cached in ``road_length`` and recounted
only when it can matter: ``road_bound`` bounds it from above, and a hint of what changed since
the last count (the fresh ends and the joining pieces) narrows the recount to those networks.
The card moves by B-LR-4..7.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..constants import LONGEST_ROAD_MIN
from .longest_road import longest_trail, longest_trail_from

__all__ = ["LongestRoad"]


class LongestRoad:
    """The Longest Road part of :class:`~catan_nb.rules.game.Game` (a mixin: use it through ``Game``)."""

    __slots__ = ()

    def _init_roads(self) -> None:
        """No trail yet: every length known (0), no holder of the card."""
        n = self.n
        #: Each seat's longest trail length, or -1 while stale (see :meth:`_len`).
        self.road_length: list[int] = [0] * n
        #: An upper bound of each seat's trail length, kept up to date, so that a trail is recounted
        #: only when it can matter (B-LR-5..7); exact where ``road_length`` is known.
        self.road_bound: list[int] = [0] * n
        # Per player, what a stale trail length is recounted from (see _len): the last known length, the
        # fresh ends and the joining pieces added since.
        self._trail_hint: list[tuple[int, frozenset | None, tuple[int, ...], tuple[int, ...]] | None] = [None] * n
        # Per player, the pieces of one trail of the known length (None if unknown): a piece off it can
        # be removed without a recount (that trail is still there, and none can be longer).
        self._witness: list[frozenset | None] = [None] * n
        self.longest_road_holder: int | None = None

    def longest_road(self, player: int) -> int:
        """Length of a player's longest road (B-LR-1..3; with ships, trade route SF-8), as cached."""
        return self.road_lengths()[player]

    def road_lengths(self) -> list[int]:
        """Every seat's longest road length (B-LR-1..3)."""
        return [self._len(q) for q in range(self.n)]

    def longest_road_path(self, player: int) -> list[int]:
        """The paths of one longest road of ``player``, in order along the road."""
        return self._trail(player)[1]

    def trail_inputs(self, player: int) -> dict[str, Any]:
        """What the engine counts for ``player``'s trail, as keyword arguments of
        :func:`~catan_nb.rules.longest_trail` (with the board's ``edge_nodes`` and ``node_edges``).

        ``roads``: the player's path pieces of every kind (roads, ships... B-LR-1, SF-8);
        ``blocked``: intersections of their network holding an opponent's piece that blocks
        (a settlement or city, B-LR-2; a knight, CK-KN-7); ``edge_kind`` and ``switch``: with
        pieces of several kinds, the kind on every path and the player's own buildings, the only
        intersections where a trail passes from one kind to another (SF-8); ``None`` and empty
        otherwise; ``joins``: the pairs of kinds (ids in ``game.kinds``) that join directly at any
        intersection (:attr:`PieceKind.joins <catan_nb.rules.pieces.PieceKind>`), empty if none.  Copies: the game's state is not shared.  For analyses that ask what-ifs
        (a building taken away, a new cut) the same way the engine counts.

        Examples
        --------
        >>> from catan_nb import Board, Game
        >>> from catan_nb.rules import longest_trail
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> t = g.topology
        >>> inputs = g.trail_inputs(0)
        >>> sorted(inputs), inputs["edge_kind"]
        (['blocked', 'edge_kind', 'joins', 'roads', 'switch'], None)
        >>> longest_trail(edge_nodes=t.edge_nodes, node_edges=t.node_edges, **inputs)[0] == g.longest_road(0)
        True
        """
        kinds = self._trail_kinds(player)
        edge_kind = kinds.get("edge_kind")
        return {
            "roads": frozenset(self._trail_pieces(player)),
            "blocked": frozenset(self._trail_blocks(player)),
            "edge_kind": None if edge_kind is None else tuple(edge_kind),
            "switch": frozenset(kinds.get("switch", ())),
            "joins": frozenset(kinds.get("joins", ())),
        }

    def _trail_grown(self, p: int, site: int, fresh: int) -> None:
        """Keep ``p``'s trail length after ``p`` placed a path piece on ``site``; ``fresh`` is its
        end that touched none of ``p``'s path pieces before (-1 if none), and move the card (B-LR-5)."""
        old = self.road_length[p]
        witness = self._witness[p]
        hint = self._trail_hint[p]
        if fresh >= 0:
            # The new piece is a dead end: a new trail is an old one ending at its other end, plus it.
            bound = self.road_bound[p] + 1
        else:
            # A trail through the new piece lies in its network: the new length is at most the old
            # one or that network's size.
            bound = max(self.road_bound[p], len(self._network(p, (site,))))
        self._stale(p, bound)  # B-LR-5: recounted only if that can take the card
        # The recount covers only what the pieces added since the length was last known can
        # have changed (see _len): a trail using one of them either ends at the fresh end of
        # the latest one it uses (an end that touched none of the player's pieces then) or
        # lies in the network of a piece added between two known intersections.
        if old >= 0:
            hint = (old, witness, (), ())
        if hint is not None:
            if fresh >= 0:
                hint = (hint[0], hint[1], hint[2] + (fresh,), hint[3])
            else:
                hint = (hint[0], hint[1], hint[2], hint[3] + (site,))
            self._trail_hint[p] = hint
        self._move_longest_road((p,), broken=False)

    def _trail(self, p: int) -> tuple[int, list[int]]:
        t = self._t
        return longest_trail(self._trail_pieces(p), t.edge_nodes, t.node_edges, self._trail_blocks(p),
                             **self._trail_kinds(p))

    def _trail_pieces(self, p: int) -> set[int]:
        """``p``'s path pieces of every kind (roads, ships...)."""
        placed, path_kinds = self.placed, self._path_kinds
        if len(path_kinds) == 1:
            return placed[path_kinds[0]][p]
        return set().union(*(placed[k][p] for k in path_kinds))

    def _trail_kinds(self, p: int) -> dict[str, Any]:
        """The kinds of ``p``'s path pieces and where a trail may switch kind (SF-8), if they are several,
        and the kinds that join directly (``PieceKind.joins``)."""
        placed = self.placed
        path_kinds = self._path_kinds
        if len(path_kinds) == 1:
            return {}
        held = [k for k in path_kinds if placed[k][p]]
        if len(held) <= 1 or (self._joins and all(k in self._joined[held[0]] for k in held)):
            return {}  # one kind, or kinds that all join directly: a trail passes anywhere
        owner, kinds, building = self.node_owner, self.node_kind, self._building
        switch = [v for v in self.road_nodes[p] if owner[v] == p and building[kinds[v]]]
        if self._joins:
            return {"edge_kind": self.edge_kind, "switch": switch, "joins": self._joins}
        return {"edge_kind": self.edge_kind, "switch": switch}

    def _len(self, q: int) -> int:
        """``q``'s trail length (B-LR-1..3), recounted if stale: from the hint if there is one."""
        n = self.road_length[q]
        if n < 0:
            hint = self._trail_hint[q]
            if hint is None:
                n, path = self._trail(q)
                witness: frozenset | None = frozenset(path)
            else:
                self._trail_hint[q] = None
                n, witness, starts, joins = hint
                if joins:  # recount the networks of the joining pieces, and from the fresh ends outside them
                    net = self._network(q, joins)
                    m, path = self._network_trail(q, net)
                    if m > n or (m == n and witness is None):
                        n, witness = m, frozenset(path)
                    node_edges = self._t.node_edges
                    starts = tuple(v for v in starts if not any(e in net for e in node_edges[v]))
                if starts:
                    m, path = self._trail_from(q, starts)
                    if m > n or (m == n and witness is None):
                        n, witness = m, frozenset(path)
            self.road_length[q] = self.road_bound[q] = n
            self._witness[q] = witness
        return n

    def _stale(self, q: int, bound: int) -> None:
        """Mark ``q``'s trail length unknown, at most ``bound`` (recounted by :meth:`_len` if needed)."""
        self.road_length[q] = -1
        self.road_bound[q] = bound
        self._trail_hint[q] = None
        self._witness[q] = None

    def _trail_blocks(self, p: int) -> list[int]:
        """Intersections of ``p``'s network holding an opponent's blocking piece (B-LR-2)."""
        owner, blocks, kinds = self.node_owner, self._blocks, self.node_kind
        return [v for v in self.road_nodes[p] if owner[v] >= 0 and owner[v] != p and blocks[kinds[v]]]

    def _trail_from(self, p: int, start: tuple[int, ...]) -> tuple[int, list[int]]:
        """Length and pieces of ``p``'s longest trail from one of the intersections ``start``."""
        t = self._t
        return longest_trail_from(start, self._trail_pieces(p), t.edge_nodes, t.node_edges, set(self._trail_blocks(p)),
                                  with_path=True, **self._trail_kinds(p))

    def _network(self, p: int, sites) -> set[int]:
        """Path pieces of ``p`` connected to the pieces ``sites`` (through any intersection)."""
        t = self._t
        owner = self.edge_owner
        seen = set(sites)
        todo = list(seen)
        while todo:
            e = todo.pop()
            for v in t.edge_nodes[e]:
                for f in t.node_edges[v]:
                    if f not in seen and owner[f] == p:
                        seen.add(f)
                        todo.append(f)
        return seen

    def _network_trail(self, p: int, net: set[int]) -> tuple[int, list[int]]:
        """Length and pieces of ``p``'s longest trail in ``net``, whole networks of ``p``'s path pieces.

        A trail is connected, so it lies in one network: these networks are counted alone, the
        player's other networks left out."""
        t = self._t
        return longest_trail(net, t.edge_nodes, t.node_edges, self._trail_blocks(p), **self._trail_kinds(p))

    def _n_trail_pieces(self, q: int) -> int:
        return sum(len(self.placed[k][q]) for k in self._path_kinds)

    def _unique_leader(self) -> int | None:
        """The single seat with the greatest length of LONGEST_ROAD_MIN or more, if any."""
        best, who, count = LONGEST_ROAD_MIN - 1, None, 0
        bound = self.road_bound
        for q in range(self.n):
            if bound[q] >= LONGEST_ROAD_MIN and bound[q] >= best:  # else it can neither reach nor tie
                length = self._len(q)
                if length > best:
                    best, who, count = length, q, 1
                elif length == best:
                    count += 1
        return who if count == 1 else None

    def update_longest_road(self, players: Iterable[int], *, broken: bool, bound: int | None = None) -> None:
        """Mark ``players``' lengths stale and move the Longest Road card (B-LR-4..7).

        ``broken``: a piece was removed or an opponent's piece cut a road, so the
        holder may lose the card (B-LR-6); otherwise only a strictly longer road
        takes it (B-LR-5).  Lengths are recounted lazily, and only when they can
        matter; ``bound`` (with one player) is an upper bound of that player's new
        length, else their pieces count.  After pieces moved with :meth:`remove` and
        :meth:`place` alone, call :meth:`move_longest_road` instead.
        """
        for q in players:
            self._stale(q, bound if bound is not None else self._n_trail_pieces(q))
        self._move_longest_road(players, broken)

    def move_longest_road(self, players: Iterable[int]) -> None:
        """Move the Longest Road card after ``players``' path pieces moved (B-LR-4..7).

        For moves made with :meth:`remove` and :meth:`place` alone (a ship moved, SF-9; a road
        moved, H-CARD-9): the engine's own counts hold, so only what can matter is recounted;
        the holder may lose the card, as after a break (B-LR-6).  After any other change to
        trails, call :meth:`update_longest_road`.
        """
        self._move_longest_road(tuple(players), True)

    def _move_longest_road(self, players: Iterable[int], broken: bool) -> None:
        """Move the Longest Road card after ``players``' lengths went stale (see :meth:`update_longest_road`)."""
        h = self.longest_road_holder
        rb = self.road_bound
        if h is not None and not broken:
            for q in players:  # B-LR-5: strictly longer than the holder
                if q != h and rb[q] > self._len(h) and self._len(q) > self._len(h):
                    self.longest_road_holder = q
            return
        if h is not None:  # B-LR-6: a break; the holder keeps it if still longest, even tied
            lh = self._len(h)
            if lh >= LONGEST_ROAD_MIN and all(rb[q] <= lh or self._len(q) <= lh for q in range(self.n)):
                return
            self.longest_road_holder = None
        self.longest_road_holder = self._unique_leader()  # B-LR-4, B-LR-6, B-LR-7

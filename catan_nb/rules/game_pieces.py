"""Pieces and placement for :class:`~catan_nb.rules.game.Game`: where pieces may go, and putting them there.

A part of the engine (see the map in :mod:`catan_nb.rules.game`): the methods here are mixed
into ``Game``.  The piece kinds in play are a registry (``game.kinds``: the base settlement, city
and road, then the modules' ships, knights...); this part answers what stands where, lists and
checks the sites a piece may take (B-BUILD-3..9, SF-6..7, B-SETUP-15..20) and keeps every index
up to date as pieces are placed and removed (the distance rule, harbours, who collects from
each hex, trails for Longest Road).  The founding and the beginner set-up place pieces too.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ..board import Topology
from ..constants import Building, Terrain
from ..errors import IllegalActionError
from .actions import Action, BuildCity, BuildRoad, BuildSettlement
from .longest_road import kind_groups
from .phase import Decision, Phase
from .pieces import PIECES, PieceKind

__all__ = ["Placement", "SETTLEMENT", "CITY", "ROAD", "path_ground"]

#: Kind ids of the base pieces (``node_kind`` values match :class:`~catan_nb.constants.Building`).
SETTLEMENT, CITY, ROAD = 1, 2, 3


def path_ground(t: Topology, k: PieceKind | None) -> tuple[bool, ...] | None:
    """Where a path piece of kind ``k`` may lie, by path id (roads on land, ships on sea: SF-6);
    ``None``: anywhere (or ``k`` is no path piece)."""
    if k is None or k.site != "path":
        return None
    land, sea = k.land, k.sea
    ok = tuple([(land and a) or (sea and b) for a, b in zip(t.edge_land, t.edge_sea)])
    return None if all(ok) else ok


@lru_cache(maxsize=None)
def _cached_actions(n_nodes: int, n_edges: int) -> Mapping[str, Any]:
    """Reusable action instances: actions are values, so every game of this size shares them (read-only)."""
    return MappingProxyType({
        "settle": tuple(BuildSettlement(v) for v in range(n_nodes)),
        "city": tuple(BuildCity(v) for v in range(n_nodes)),
        "road": tuple(BuildRoad(e) for e in range(n_edges)),
    })



class Placement:
    """The pieces-and-placement part of :class:`~catan_nb.rules.game.Game` (a mixin: use it through ``Game``)."""

    __slots__ = ()

    def _init_pieces(self) -> None:
        """The piece kinds in play (a registry: the base pieces, then the modules'), and what each
        costs, scores and may stand on."""
        t = self._t
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
        # Path kinds that join directly (PieceKind.joins): pairs of kind ids, and per kind the ids of
        # the kinds it joins, itself included (a kind joins only itself unless a declaration says so).
        pairs = set()
        for i in self._path_kinds:
            for name in self.kinds[i].joins:  # type: ignore[union-attr]
                j = self.kind_id.get(name)
                if j is not None and j != i and self.kinds[j].site == "path":  # type: ignore[union-attr]
                    pairs.add((min(i, j), max(i, j)))
        self._joins: frozenset[tuple[int, int]] = frozenset(pairs)
        groups = kind_groups(pairs)
        self._joined: tuple[tuple[int, ...], ...] = tuple(
            tuple(j for j in self._path_kinds if groups.get(j, j) == groups.get(i, i)) if i in groups else (i,)
            for i in range(len(self.kinds)))
        self._acts = _cached_actions(t.n_nodes, t.n_edges)

    @property
    def n_settlements(self) -> list[int]:
        """Settlements on the board per player."""
        return [len(s) for s in self.placed[SETTLEMENT]]

    @property
    def n_cities(self) -> list[int]:
        """Cities on the board per player."""
        return [len(s) for s in self.placed[CITY]]

    @property
    def roads(self) -> list[set[int]]:
        """Paths holding each player's roads."""
        return self.placed[ROAD]

    def pieces_left(self, player: int) -> dict[str, int]:
        """Pieces still in a player's supply, by kind (B-COMP-9, B-COMP-12)."""
        return {k.name: k.limit - len(self.placed[i][player]) for i, k in enumerate(self.kinds) if k is not None}

    def building_at(self, node: int) -> tuple[int, Building] | None:
        """``(owner, Building)`` of a settlement or city on an intersection, or ``None``."""
        o = self.node_owner[node]
        if o < 0 or not self._building[self.node_kind[node]]:
            return None
        return o, Building(self.node_kind[node])

    def piece_at(self, node: int) -> tuple[int, str] | None:
        """``(owner, kind name)`` of whatever piece stands on an intersection, or ``None``."""
        o = self.node_owner[node]
        return None if o < 0 else (o, self.kinds[self.node_kind[node]].name)  # type: ignore[union-attr]

    def piece_on(self, path: int) -> tuple[int, str] | None:
        """``(owner, kind name)`` of the piece on a path (a road, a ship...), or ``None``."""
        o = self.edge_owner[path]
        return None if o < 0 else (o, self.kinds[self.edge_kind[path]].name)  # type: ignore[union-attr]

    def road_owner(self, path: int) -> int | None:
        """Owner of the road on a path, or ``None``."""
        o = self.edge_owner[path]
        return None if o < 0 or self.edge_kind[path] != ROAD else o

    def legal_builds(self, player: int, out: list[Action]) -> None:
        """Append the paid builds and purchases ``player`` can make now (B-BUILD-1..9, B-BUILD-11).

        Roads, settlements and cities here; modules add theirs (development cards,
        ships...) through their ``module_builds`` hook.
        """
        h = self.hands[player]
        placed = self.placed
        limit = self._limit
        plain = not self._h_candidates and not self._h_surcharge
        for k, items, key, name in self._base_builds:
            for r, c in items:
                if h[r] < c:
                    break
            else:
                if len(placed[k][player]) < limit[k]:
                    if not plain:
                        a = self._acts[key]
                        if self._h_surcharge:  # each site at its own price (the base cost is a lower bound)
                            out.extend(a[x] for x in self.candidates(player, name)
                                       if self.affords(h, self.site_cost(player, name, x)))
                        else:
                            out.extend(a[x] for x in self.candidates(player, name))
                        continue
                    cached = self._cache.get((player, k))
                    if cached is None:  # derived from the board only: kept until a piece moves
                        a = self._acts[key]
                        if k == ROAD:
                            cached = [a[x] for x in self._path_candidates(player, ROAD)]
                        elif k == SETTLEMENT:
                            blocked, land = self.blocked, self._t.node_land
                            cached = [a[v] for v in sorted(self.road_nodes[player]) if not blocked[v] and land[v]]
                        else:
                            cached = [a[v] for v in sorted(placed[SETTLEMENT][player])]
                        self._cache[(player, k)] = cached
                    out.extend(cached)
        for hook in self._h_builds:
            hook(self, player, out)

    @staticmethod
    def affords(hand: list[int], cost) -> bool:
        """Whether a hand (counts per good) holds ``cost``."""
        for r, c in enumerate(cost):
            if c and hand[r] < c:
                return False
        return True

    def _legal_place(self, player: int, kind: str, out: list[Action]) -> None:
        k = self.kind_id.get(kind)
        if k is None or len(self.placed[k][player]) >= self.kinds[k].limit:  # type: ignore[union-attr]
            return
        if kind == "road":
            a = self._acts["road"]
            out.extend(a[e] for e in self.candidates(player, "road"))

    def candidates(self, player: int, kind: str, *, founding: bool = False, without: int | None = None) -> list[int]:
        """Sites where ``player`` may place a piece of ``kind`` now, cost and supply aside.

        Settlements: empty land intersections clear of buildings (B-BUILD-7) and,
        after the founding, touched by the player's roads or ships (B-BUILD-6).
        Cities: the player's settlements (B-BUILD-9).  Path pieces: empty paths of
        their kind (roads on land, ships on sea: SF-6) continuing the player's own
        pieces of that kind (or of a kind it joins: ``PieceKind.joins``) or leaving one of the
        player's buildings, never through
        an opponent's blocking piece (B-BUILD-3..5, SF-7, CK-KN-7).  In the founding
        a road must touch the settlement just placed (B-SETUP-17).  Rule modules
        filter the result (scenario spaces, the pirate's blockade).

        ``without``: for a path piece, the sites as if ``player``'s piece of that kind on path
        ``without`` were off the board (a ship about to move, SF-9); the modules' filters see the
        board as it is.  No copy of the game is made.

        Raises
        ------
        ValueError
            ``without`` is not a path id of the board.
        """
        k = self.kind_id[kind]
        if without is not None and (isinstance(without, bool) or not isinstance(without, int)
                                    or not 0 <= without < self._t.n_edges):
            raise ValueError(f"without: not a path id of this board (0..{self._t.n_edges - 1}): {without!r}")
        if kind == "settlement":
            if founding:
                land = self._t.node_land
                blocked = self.blocked
                sites = [v for v in range(self._t.n_nodes) if not blocked[v] and land[v]]
            else:
                blocked, land = self.blocked, self._t.node_land
                owner = self.node_owner  # a non-building piece (a knight, CK-KN-1) also takes the intersection
                sites = [v for v in sorted(self.road_nodes[player]) if not blocked[v] and land[v] and owner[v] < 0]
        elif self.kinds[k].site == "path":  # type: ignore[union-attr]
            if founding:
                last = self.stack[-1].data
                ok = self._edge_ok[k]
                sites = [e for e in self._t.node_edges[last] if self.edge_owner[e] < 0 and (ok is None or ok[e])]
            else:
                sites = self._path_candidates(player, k, without)
        elif self.kinds[k].upgrade_of is not None:  # type: ignore[union-attr]
            sites = sorted(self.placed[self.kind_id[self.kinds[k].upgrade_of]][player])  # type: ignore[union-attr]
        else:
            sites = []
        return self.filter_sites(player, kind, sites, founding=founding)

    def filter_sites(self, player: int, kind: str, sites: list[int], *, founding: bool = False) -> list[int]:
        """``sites`` narrowed by every module's ``allowed_sites`` hook, in module order: where the
        modules let ``player`` place a piece of ``kind`` among sites an analysis chose itself (the
        free intersections a network may reach).  :meth:`candidates` ends with it.

        Examples
        --------
        >>> from catan_nb import Board, Game
        >>> g = Game(Board.beginner(), seed=1)
        >>> g.filter_sites(0, "settlement", [3, 1, 2])  # no module filters the base game
        [3, 1, 2]
        """
        for h in self._h_candidates:
            sites = h(self, player, kind, sites, founding=founding)
        return sites

    def _path_candidates(self, p: int, k: int, without: int | None = None) -> list[int]:
        """Empty paths where ``p`` may place a path piece of kind ``k`` (B-BUILD-3..5, SF-7),
        as if ``p``'s piece of kind ``k`` on path ``without`` (if any) were off the board."""
        t = self._t
        owner = self.node_owner
        kinds = self.node_kind
        blocks = self._blocks
        building = self._building
        edge_owner = self.edge_owner
        ok = self._edge_ok[k]
        cands: set[int] = set()
        joined = self._joined[k]
        if len(joined) == 1:
            reach = self.reach[k][p]
        else:  # kinds that join directly continue one another (PieceKind.joins)
            reach = set().union(*(self.reach[j][p] for j in joined))
        free = -1
        if without is not None and edge_owner[without] == p and self.edge_kind[without] == k:
            free = without  # an empty path for this count
            mine = self.placed[k][p] if len(joined) == 1 else set().union(*(self.placed[j][p] for j in joined))
            reach = set(reach)
            for v in t.edge_nodes[without]:  # its ends stay reached only through another such piece
                if not any(f != without and f in mine for f in t.node_edges[v]):
                    reach.discard(v)
        for v in reach:
            o = owner[v]
            if o < 0 or o == p or not blocks[kinds[v]]:
                for e in t.node_edges[v]:
                    if edge_owner[e] < 0 or e == free:
                        cands.add(e)
        for v in self.occupied:  # B-BUILD-4, SF-7: from one's own building, even with no piece at it
            if owner[v] == p and v not in reach and building[kinds[v]]:
                for e in t.node_edges[v]:
                    if edge_owner[e] < 0 or e == free:
                        cands.add(e)
        if ok is not None:
            return sorted(e for e in cands if ok[e])
        return sorted(cands)

    def require_build_phase(self, action: Action) -> None:
        """Raise unless building is allowed now (B-TURN-3, B-BUILD-12)."""
        ph = self.stack[-1].phase
        if ph is Phase.ROLL:
            raise IllegalActionError("B-TURN-3", f"seat {self.active} must roll before building", action)
        if not ph.builds:
            raise IllegalActionError("B-BUILD-12", f"building is not allowed in phase {ph.value}", action)

    def require_cost(self, action: Action, player: int, cost, what: str) -> None:
        """Raise unless ``player`` can pay ``cost`` (counts per good) for ``what`` (B-BUILD-1).

        For a piece on a site, pass ``game.site_cost(player, kind, site)``: the site's surcharge
        is then part of the price."""
        h = self.hands[player]
        short = [f"{cost[r] - h[r]} {self.goods[r]}" for r in range(len(cost)) if h[r] < cost[r]]
        if short:
            raise IllegalActionError("B-BUILD-1", f"seat {player} cannot pay for {what}: short of {', '.join(short)}", action)

    def check_node(self, action: Action, node: int) -> None:
        """Raise unless ``node`` is an intersection of the board (B-BOARD-3)."""
        if not isinstance(node, int) or isinstance(node, bool) or not 0 <= node < self._t.n_nodes:
            raise IllegalActionError("B-BOARD-3", f"there is no intersection {node!r} (0..{self._t.n_nodes - 1})", action)

    def check_path(self, action: Action, path: int) -> None:
        """Raise unless ``path`` is a path of the board (B-BOARD-3)."""
        if not isinstance(path, int) or isinstance(path, bool) or not 0 <= path < self._t.n_edges:
            raise IllegalActionError("B-BOARD-3", f"there is no path {path!r} (0..{self._t.n_edges - 1})", action)

    def check_spot(self, action: Action, player: int, kind: str, site: int) -> None:
        """Raise unless ``player`` may place a piece of ``kind`` on ``site`` after the founding.

        The supply (B-COMP-12) and every placement rule of the kind (B-BUILD-3..9,
        SF-6..7, and the modules' own through their ``candidates`` hook); not the cost.
        """
        k = self.kind_id[kind]
        pk = self.kinds[k]
        assert pk is not None
        if pk.site == "node":
            self.check_node(action, site)
        else:
            self.check_path(action, site)
        if kind == "settlement":
            if len(self.placed[k][player]) >= pk.limit:
                raise IllegalActionError("B-COMP-12", f"seat {player} has no settlement left in supply", action)
            self._check_distance(action, site)
            if not self._t.node_land[site]:
                raise IllegalActionError("SF-2", f"intersection {site} touches no land", action)
            if site not in self.road_nodes[player]:
                raise IllegalActionError("B-BUILD-6", f"intersection {site} is not touched by a road of seat {player}", action)
        elif pk.upgrade_of is not None:
            base = self.kind_id[pk.upgrade_of]
            if self.node_owner[site] != player or self.node_kind[site] != base:
                raise IllegalActionError(
                    "B-BUILD-9", f"intersection {site} holds no {pk.upgrade_of} of seat {player}", action
                )
            if len(self.placed[k][player]) >= pk.limit:
                raise IllegalActionError("B-COMP-12", f"seat {player} has no {kind} left in supply", action)
        elif pk.site == "path":
            if self.edge_owner[site] >= 0:
                what = self.kinds[self.edge_kind[site]].name  # type: ignore[union-attr]
                raise IllegalActionError("B-BUILD-3", f"path {site} already holds a {what} of seat {self.edge_owner[site]}", action)
            if len(self.placed[k][player]) >= pk.limit:
                raise IllegalActionError("B-COMP-12", f"seat {player} has no {kind} left in supply", action)
            self._check_ground(action, k, site)
            if site not in self._path_candidates(player, k):
                ends = self._t.edge_nodes[site]
                raise IllegalActionError(
                    "B-BUILD-4",
                    f"path {site} (intersections {ends[0]}-{ends[1]}) does not continue a {kind} or building of "
                    f"seat {player} (an opponent's building cuts the way through)",
                    action,
                )
        for h in self._h_check_place:
            h(self, action, player, kind, site, founding=False)

    def _check_ground(self, action: Action, k: int, site: int) -> None:
        """Raise unless a path piece of kind ``k`` may lie on path ``site``'s ground: roads on land
        paths (SF-2: along the coast too), ships on paths that border the sea (SF-6)."""
        ok = self._edge_ok[k]
        if ok is None or ok[site]:
            return
        pk = self.kinds[k]
        assert pk is not None
        if pk.land:
            by_sea = [q.name for q in self.kinds if q is not None and q.site == "path" and q.sea]
            other = f"; build a {by_sea[0]} there (SF-6)" if by_sea else ""
            raise IllegalActionError("SF-2", f"path {site} borders only sea: a {pk.name} needs land{other}", action)
        raise IllegalActionError("SF-6", f"path {site} borders no sea: a {pk.name} goes only on a path that borders "
                                 "the sea", action)

    def check_founding_path(self, action: Action, player: int, kind: str, site: int) -> None:
        """Raise unless ``player`` may place their founding path piece of ``kind`` on path ``site``.

        Each refusal names its own rule: no such path (B-BOARD-3), a piece there already (B-BUILD-3),
        not touching the settlement just placed (B-SETUP-17; SF-6 places ships like roads), the
        wrong ground (SF-2 roads on land, SF-6 ships by the sea), then the modules' rules through
        their ``check_place`` hook (SC-6, SF-7...).  For modules whose founding pieces are their own
        actions (a ship, SF-6) as for the founding road.
        """
        self.check_path(action, site)
        o = self.edge_owner[site]
        if o >= 0:
            what = self.kinds[self.edge_kind[site]].name  # type: ignore[union-attr]
            raise IllegalActionError("B-BUILD-3", f"path {site} already holds a {what} of seat {o}", action)
        last = self.stack[-1].data
        if site not in self._t.node_edges[last]:
            raise IllegalActionError(
                "B-SETUP-17", f"a founding {kind} must touch the settlement just placed at {last}; path {site} joins "
                f"{self._t.edge_nodes[site]}", action)
        k = self.kind_id[kind]
        self._check_ground(action, k, site)
        if site not in self.candidates(player, kind, founding=True):
            for h in self._h_check_place:  # a module's own rule (SC-6, SF-7) names itself
                h(self, action, player, kind, site, founding=True)
            raise IllegalActionError("B-SETUP-17", f"no founding {kind} may go on path {site}", action)

    def _check_distance(self, action: Action, v: int) -> None:
        building = self._building
        o = self.node_owner[v]
        if o >= 0:
            raise IllegalActionError("B-BUILD-7", f"intersection {v} already holds seat {o}'s {self.kinds[self.node_kind[v]].name}", action)  # type: ignore[union-attr]
        for w in self._t.node_neighbours[v]:
            if self.node_owner[w] >= 0 and building[self.node_kind[w]]:
                raise IllegalActionError(
                    "B-BUILD-7",
                    f"intersection {v} is next to seat {self.node_owner[w]}'s {self.kinds[self.node_kind[w]].name} at {w}",  # type: ignore[union-attr]
                    action,
                )

    def place(self, player: int, kind: str, site: int, *, founding: bool = False) -> None:
        """Put a piece of ``kind`` on ``site`` and tell the modules (``on_place``).

        Keeps every index up to date (harbours, the distance rule, trails and
        Longest Road); an upgrade (a city) replaces the piece below it.  Nothing is
        paid here and nothing is checked: check with :meth:`check_spot` first.
        """
        self._put(player, self.kind_id[kind], site)
        for h in self._h_place:
            h(self, player, kind, site, founding)

    def _put(self, p: int, k: int, site: int) -> None:
        """Put seat ``p``'s piece of kind ``k`` on ``site``, keeping every index up to date (no hook runs)."""
        pk = self.kinds[k]
        assert pk is not None
        if pk.site == "path":
            self._put_path(p, k, site)
        elif pk.upgrade_of is not None:
            self._put_upgrade(p, k, site)
        else:
            self._put_node(p, k, pk, site)

    def _put_path(self, p: int, k: int, site: int) -> None:
        """A path piece (a road, a ship): the path, the intersections it reaches, the trail."""
        self._cache.clear()
        self.edge_owner[site] = p
        self.edge_kind[site] = k
        self.placed[k][p].add(site)
        a, b = self._t.edge_nodes[site]
        reach = self.reach[k][p]
        reach.add(a)
        reach.add(b)
        rn = self.road_nodes[p]
        fresh = b if b not in rn else a if a not in rn else -1
        rn.add(a)
        rn.add(b)
        self._trail_grown(p, site, fresh)

    def _put_upgrade(self, p: int, k: int, site: int) -> None:
        """An upgrade (a city, B-BUILD-9): the piece below goes back to its owner's supply."""
        below = self.node_kind[site]
        self.placed[below][p].discard(site)
        self.node_kind[site] = k
        self.placed[k][p].add(site)
        self.board_vp[p] += self._vp[k] - self._vp[below]
        self._node_changed(site)

    def _put_node(self, p: int, k: int, pk: PieceKind, site: int) -> None:
        """A piece on an empty intersection: a building blocks its neighbours (B-BUILD-7) and
        reaches its harbour; a blocking piece may cut opponents' trails (B-LR-2, B-LR-6)."""
        self.node_owner[site] = p
        self.node_kind[site] = k
        self.placed[k][p].add(site)
        self.board_vp[p] += self._vp[k]
        self._node_changed(site)
        if pk.building:
            self.occupied.append(site)
            blocked = self.blocked
            blocked[site] += 1
            for w in self._t.node_neighbours[site]:
                blocked[w] += 1
            hb = self._t.node_harbour[site]
            if hb is not None:
                self.harbours[p].add(hb)
                self._harbour_rates[p] = self._rates_from_harbours(p)
        if pk.blocks:
            # An opponent's piece may cut trails through the site (B-LR-2, B-LR-6; CK-KN-7).
            cut = {self.edge_owner[e] for e in self._t.node_edges[site]} - {-1, p}
            if cut:
                self.update_longest_road(cut, broken=True)
        if pk.building and len(self._path_kinds) > 1:
            # SF-8: one's own building is where roads and ships join, so it may lengthen one's trail.
            kinds = {self.edge_kind[e] for e in self._t.node_edges[site] if self.edge_owner[e] == p}
            if len(kinds) > 1:
                self.update_longest_road((p,), broken=False)

    def remove(self, kind: str, site: int) -> int:
        """Take a piece off the board (a helper's effect, a displaced knight, a lost city...).

        Returns its owner.  A path piece's owner gets its trail recounted lazily;
        when the move is complete, call :meth:`move_longest_road` (pieces moved with
        :meth:`remove` and :meth:`place` alone) or :meth:`update_longest_road`.  An upgrade
        (a city) goes back to the piece it upgraded (a settlement), which stays.
        """
        k = self.kind_id[kind]
        pk = self.kinds[k]
        assert pk is not None
        if pk.site == "path":
            p = self.edge_owner[site]
            self.edge_owner[site] = -1
            self.edge_kind[site] = 0
            self.placed[k][p].discard(site)
            ends = self._t.edge_nodes
            self.reach[k][p] = {v for f in self.placed[k][p] for v in ends[f]}
            self.road_nodes[p] = set().union(*(self.reach[j][p] for j in self._path_kinds))
            witness = self._witness[p]
            if self.road_length[p] < 0 or witness is None or site in witness:
                self._stale(p, self.road_bound[p])  # shorter or the same: the bound holds
            # else a trail of the known length is still there, and none can be longer: it stays known
        else:
            p = self.node_owner[site]
            self.placed[k][p].discard(site)
            self.board_vp[p] -= self._vp[k]
            if pk.upgrade_of is not None:
                below = self.kind_id[pk.upgrade_of]
                self.node_kind[site] = below
                self.placed[below][p].add(site)
                self.board_vp[p] += self._vp[below]
            else:
                self.node_owner[site] = -1
                self.node_kind[site] = 0
                if pk.building:
                    self.occupied.remove(site)
                    blocked = self.blocked
                    blocked[site] -= 1
                    for w in self._t.node_neighbours[site]:
                        blocked[w] -= 1
                    hb = self._t.node_harbour[site]
                    if hb is not None and not any(self.node_owner[v] == p and self._building[self.node_kind[v]]
                                           and self._t.node_harbour[v] == hb for v in self.occupied):
                        self.harbours[p].discard(hb)
                        self._harbour_rates[p] = self._rates_from_harbours(p)
                if pk.blocks:  # a trail through the freed intersection may be longer now
                    for q in {self.edge_owner[e] for e in self._t.node_edges[site]} - {-1, p}:
                        self._stale(q, self._n_trail_pieces(q))
            self._node_changed(site)
        self._cache.clear()
        for h in self._h_remove:
            h(self, p, kind, site)
        return p

    def set_hex(self, hex_id: int, *, terrain: Terrain | None = None, token: int | None = None) -> None:
        """Change a hex during play (a fog hex revealed SF-3, a token moved SF-15, CK-PC-4)."""
        if terrain is not None:
            self.hex_terrain[hex_id] = Terrain.parse(terrain)
        if token is not None:
            self.hex_token[hex_id] = token
        if terrain is None:  # a token moved: who collects what on the hex is unchanged, only the number
            self._index_producers()
        else:
            self._index_production()
        self._cache.clear()

    def _node_changed(self, v: int) -> None:
        """Keep the per-hex indexes (who collects, who can be robbed) and the caches up to date."""
        building = self._building
        owner, kind, hex_nodes = self.node_owner, self.node_kind, self._t.hex_nodes
        for hx in self._t.node_hexes[v]:
            self._takers[hx] = self._takers_of(hx)
            self._hex_players[hx] = tuple(sorted({owner[w] for w in hex_nodes[hx] if owner[w] >= 0 and building[kind[w]]}))
        self._cache.clear()

    def _check_settlement(self, a: BuildSettlement) -> None:
        self.check_node(a, a.node)
        p = self.current_player
        if self.phase is Phase.FOUNDING_SETTLEMENT:
            self._check_founding(a, p, "settlement")
            return
        self.require_build_phase(a)
        self.check_spot(a, p, "settlement", a.node)
        self.require_cost(a, p, self.site_cost(p, "settlement", a.node), f"a settlement on intersection {a.node}")

    def _check_founding(self, a: BuildSettlement | BuildCity, p: int, kind: str) -> None:
        """A founding building: the kind this round asks for (B-SETUP-15, B-SETUP-16, or a module's:
        CK-SETUP-1), on an intersection a founding settlement may take (B-SETUP-17)."""
        want, rule = self._founding_piece(self.stack[-1])
        if kind != want:
            raise IllegalActionError(rule, f"seat {p}'s founding piece now is a {want}, not a {kind}", a)
        self._check_distance(a, a.node)  # B-SETUP-17
        if not self._t.node_land[a.node]:
            raise IllegalActionError("SF-2", f"intersection {a.node} touches no land: a {kind} stands on land", a)
        if a.node not in self.candidates(p, "settlement", founding=True):
            for h in self._h_check_place:  # a module's own rule (SC-5) names itself first
                h(self, a, p, "settlement", a.node, founding=True)
            raise IllegalActionError("B-SETUP-17", f"no founding {kind} may stand on intersection {a.node}", a)

    def _check_road(self, a: BuildRoad) -> None:
        p = self.current_player
        top = self.stack[-1]
        if top.phase is Phase.FOUNDING_ROAD:
            self.check_founding_path(a, p, "road", a.path)
            return
        self.check_path(a, a.path)
        if self.edge_owner[a.path] >= 0:
            what = self.kinds[self.edge_kind[a.path]].name  # type: ignore[union-attr]
            raise IllegalActionError("B-BUILD-3", f"path {a.path} already holds a {what} of seat {self.edge_owner[a.path]}", a)
        free = "road" in top.phase.free
        if not free:
            self.require_build_phase(a)
        self.check_spot(a, p, "road", a.path)
        if not free:
            self.require_cost(a, p, self.site_cost(p, "road", a.path), f"a road on path {a.path}")

    def _check_city(self, a: BuildCity) -> None:
        self.check_node(a, a.node)
        p = self.current_player
        if self.phase is Phase.FOUNDING_SETTLEMENT:
            self._check_founding(a, p, "city")  # a module's founding city (CK-SETUP-1)
            return
        self.require_build_phase(a)
        self.check_spot(a, p, "city", a.node)
        self.require_cost(a, p, self.site_cost(p, "city", a.node), f"a city on intersection {a.node}")

    def _do_settlement(self, a: BuildSettlement) -> None:
        p = self.current_player
        v = a.node
        if self.stack[-1].phase is Phase.FOUNDING_SETTLEMENT:
            self._found(a, p, v)
            return
        self.pay(p, self.site_cost(p, "settlement", v))
        self.built_this_turn = True
        self.log.append(a)
        self.place(p, "settlement", v)

    def _do_road(self, a: BuildRoad) -> None:
        p = self.current_player
        top = self.stack[-1]
        ph = top.phase
        if ph is Phase.FOUNDING_ROAD:
            self.log.append(a)
            self.found_path(p, "road", a.path)
            return
        if "road" in ph.free:
            self.log.append(a)
            self.place_free(p, "road", a.path)
            return
        self.pay(p, self.site_cost(p, "road", a.path))
        self.built_this_turn = True
        self.log.append(a)
        self.place(p, "road", a.path)

    def _do_city(self, a: BuildCity) -> None:
        p = self.current_player
        if self.stack[-1].phase is Phase.FOUNDING_SETTLEMENT:
            self._found(a, p, a.node)
            return
        self.pay(p, self.site_cost(p, "city", a.node))
        self._put(p, CITY, a.node)
        self.built_this_turn = True
        self.log.append(a)
        for h in self._h_place:
            h(self, p, "city", a.node, False)

    def free_kinds(self, phase: Phase) -> tuple[str, ...]:
        """Piece kinds of this game placed free in ``phase``: the phase's own and those whose
        :class:`~catan_nb.rules.pieces.PieceKind` lists it in ``free_in`` (ships in Road
        Building, SF-17)."""
        memo = self._cache.get(("free_kinds", phase))
        if memo is None:
            memo = tuple(k for k in phase.free if k in self.kind_id) + tuple(
                k.name for k in self.kinds if k is not None and phase.value in k.free_in and k.name not in phase.free
            )
            self._cache[("free_kinds", phase)] = memo
        return memo

    def can_place_free(self, player: int, phase: Phase) -> bool:
        """Whether ``player`` can place one of ``phase``'s free pieces now: one left in supply
        (B-COMP-12) and a spot for it (B-DEV-5, SF-17)."""
        for kind in self.free_kinds(phase):
            k = self.kind_id[kind]
            if len(self.placed[k][player]) < self._limit[k] and self.candidates(player, kind):
                return True
        return False

    def place_free(self, player: int, kind: str, site: int) -> None:
        """Place one free piece of the decision on top (Road Building, B-DEV-5; SF-17) and count it
        down: the decision ends when none is owed or none can be placed.  Decisions the placement
        pushes (a treasure, SF-4) stay above it."""
        i = len(self.stack) - 1
        top = self.stack[i]
        self.place(player, kind, site)
        left = top.data - 1
        if left <= 0 or not self.can_place_free(player, top.phase):
            del self.stack[i]
        else:
            self.stack[i] = Decision(top.phase, top.player, left)

    def found_path(self, player: int, kind: str, path: int) -> None:
        """Place the founding path piece of ``player`` (a road, or a kind with ``founding=True``:
        a ship, SF-6) beside the settlement just placed, and pass the founding on (B-SETUP-17).

        For modules whose founding pieces are their own actions; the caller has checked the
        site and logged the action.
        """
        self.stack.pop()
        self.place(player, kind, path, founding=True)
        nxt = self.stack[-1]
        if nxt.phase is Phase.FOUNDING_SETTLEMENT:
            self.active = nxt.player

    def _found(self, a: BuildSettlement | BuildCity, p: int, v: int) -> None:
        """Place a founding building: a settlement, upgraded at once to a city where a module's
        founding asks for one (CK-SETUP-1); the second round pays (B-SETUP-19)."""
        top = self.stack[-1]
        second = top.data >= self.n
        kind = self._founding_piece(top)[0]
        self._put(p, SETTLEMENT, v)
        if second:  # B-SETUP-19: the second settlement pays (a founding city too: 1 per hex, CK-SETUP-1)
            h, bank = self.hands[p], self.bank
            for hx in self._t.node_hexes[v]:
                r = self._t.hex_resource[hx]
                if r >= 0 and bank[r]:
                    h[r] += 1
                    bank[r] -= 1
        self.stack[-1] = Decision(Phase.FOUNDING_ROAD, p, v)
        self.log.append(a)
        for h in self._h_place:
            h(self, p, "settlement", v, True)
        if kind == "city":
            self._put(p, CITY, v)
            for h in self._h_place:
                h(self, p, "city", v, True)
        for h in self._h_founding:
            h(self, p, v, second)

    def founding_building(self, player: int, second: bool) -> tuple[str, str]:
        """The building ``player`` founds in the first or ``second`` founding round, and the rule
        that says so: a settlement (B-SETUP-15, B-SETUP-16) unless a module's
        ``founding_building`` hook asks for a city (CK-SETUP-1: the second round of Cities & Knights).

        Examples
        --------
        >>> from catan_nb import Board, Game, Rules
        >>> g = Game(Board.beginner(), seed=1)
        >>> g.founding_building(0, second=True)
        ('settlement', 'B-SETUP-16')
        >>> g = Game(Board.beginner(), seed=1, rules=Rules(modules=("cities_knights",)))
        >>> g.founding_building(0, second=False), g.founding_building(0, second=True)
        (('settlement', 'B-SETUP-15'), ('city', 'CK-SETUP-1'))
        """
        out = ("settlement", "B-SETUP-16" if second else "B-SETUP-15")
        for h in self._h_founding_building:
            got = h(self, player, second)
            if got is not None:
                out = tuple(got)
        if out[0] not in ("settlement", "city"):
            raise ValueError(f"a founding building is a settlement or a city, not {out[0]!r}")
        return out  # type: ignore[return-value]

    def _founding_piece(self, top: Decision) -> tuple[str, str]:
        return self.founding_building(top.player, top.data >= self.n)

    def _setup_beginner(self) -> None:
        """B-SETUP-2..5: pre-placed pieces and resources from the lettered settlement."""
        for p, colour in enumerate(self.colours):
            sp = self.board.start_pieces.get(colour)
            if sp is None:
                raise ValueError(f"board {self.board.name!r} has no starting pieces for {colour}")
            for v in sp.settlements:
                self._put(p, SETTLEMENT, v)
            for e in sp.roads:
                self._put(p, ROAD, e)
            if sp.ships:  # SF-5..7: a Seafarers scenario's starting ships
                ship = self.kind_id.get("ship")
                if ship is None:
                    from ..errors import BoardFileError

                    raise BoardFileError(self.board.source, f"start.pieces.{colour}.ships",
                                         "starting ships need a rule module with ships (seafarers)")
                for e in sp.ships:
                    self._put(p, ship, e)
            if sp.lettered is not None:
                for hx in self._t.node_hexes[sp.lettered]:
                    r = self._t.hex_resource[hx]
                    if r >= 0:
                        self.hands[p][r] += 1
                        self.bank[r] -= 1
        self._begin_turn(self.starting_seat)

"""The island as a networkx graph, harbours, and board files.

A :class:`Board` is immutable.  Its :attr:`Board.graph` is the source of truth:
nodes are intersections, edges are paths.  Node attributes: ``hexes`` (ids of
the land hexes touched), ``pos`` (plane position, north up), ``corner`` (exact
lattice point), ``harbour`` (a :class:`Harbour` or ``None``).  Edge
attributes: ``id`` (path id), ``coastal``, ``harbour``.  For speed the rules
engine reads :attr:`Board.topology`, plain tuples derived once from the graph.

Examples
--------
>>> board = Board.beginner()
>>> board.graph.number_of_nodes(), board.graph.number_of_edges()
(54, 72)
>>> board.hex_at(1, 1)
HexTile(id=0, row=1, col=1, terrain=Terrain.MOUNTAINS, token=10)
>>> Board.random(seed=7) == Board.random(seed=7)
True
"""

from __future__ import annotations

import functools
import json
import os
import random
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, NewType

import networkx as nx

from . import hexgrid
from ._files import field_name, read_json, schema_error, write_atomic
from .constants import (
    BASE_ROWS,
    BASE_TERRAIN_COUNTS,
    BASE_TOKEN_LETTERS,
    HARBOUR_PROPOSAL_POSITIONS,
    HARBOUR_PROPOSAL_TYPES,
    X56_HARBOUR_PROPOSAL_POSITIONS,
    X56_HARBOUR_PROPOSAL_TYPES,
    X56_ROWS,
    X56_TERRAIN_COUNTS,
    X56_TOKEN_LETTERS,
    Colour,
    HarbourCode,
    HarbourKind,
    Resource,
    Terrain,
    pips,
    roll_probability,
)
from .errors import BoardFileError

__all__ = [
    "NodeId",
    "PathId",
    "HexId",
    "HexTile",
    "Harbour",
    "StartPieces",
    "Topology",
    "Board",
    "BOARDS_DIR",
    "load_schema",
]

NodeId = NewType("NodeId", int)
PathId = NewType("PathId", int)
HexId = NewType("HexId", int)

#: Island layouts for :meth:`Board.random`: rows, terrain counts, tokens, harbour proposal.
LAYOUTS = {
    "base": (BASE_ROWS, BASE_TERRAIN_COUNTS, BASE_TOKEN_LETTERS, HARBOUR_PROPOSAL_POSITIONS, HARBOUR_PROPOSAL_TYPES),
    "five_six": (
        X56_ROWS,
        X56_TERRAIN_COUNTS,
        X56_TOKEN_LETTERS,
        X56_HARBOUR_PROPOSAL_POSITIONS,
        X56_HARBOUR_PROPOSAL_TYPES,
    ),
}

#: Harbour places ``((row, col), side)`` of each shape's proposal positions (see :meth:`Board.random`).
_HARBOUR_GEOMETRY: dict[tuple, list] = {}


def _boards_dir() -> Path:
    """The folder of the shipped board files: ``boards/`` in a checkout, package data when installed."""
    repo = Path(__file__).resolve().parent.parent / "boards"
    if (repo / "board.schema.json").exists():
        return repo
    files = resources.files("catan_nb.boards")  # a regular package: a real folder once installed
    folder = Path(os.fspath(files)) if isinstance(files, os.PathLike) else Path(str(files.joinpath("board.schema.json"))).parent
    if not (folder / "board.schema.json").exists():  # pragma: no cover - a broken installation
        raise FileNotFoundError(f"the shipped board files are missing from {folder}")
    return folder


#: Folder of the shipped board files.
BOARDS_DIR: Path = _boards_dir()


def load_schema() -> dict[str, Any]:
    """The JSON schema of board files (``boards/board.schema.json``)."""
    return json.loads((BOARDS_DIR / "board.schema.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class HexTile:
    """A land hex: rulebook position, terrain and number token (``None`` if none)."""

    id: HexId
    row: int
    col: int
    terrain: Terrain
    token: int | None

    @property
    def resource(self) -> Resource | None:
        """What the hex produces (``None`` for the desert, the sea, a gold field or fog)."""
        return self.terrain.resource

    @property
    def is_land(self) -> bool:
        """Every kind but the sea is land (SF-2)."""
        return self.terrain.is_land

    @property
    def pips(self) -> int:
        """Dots on the token: ways out of 36 to roll it."""
        return pips(self.token)

    @property
    def label(self) -> str:
        """Human label such as ``"(3,4) forest 3"``."""
        tok = f" {self.token}" if self.token else ""
        return f"({self.row},{self.col}) {self.terrain}{tok}"


@dataclass(frozen=True)
class Harbour:
    """A harbour on a coastal path (B-BOARD-8): 2:1 for ``resource``, or generic 3:1."""

    path: PathId
    resource: Resource | None

    @property
    def ratio(self) -> int:
        """Cards given per card received: 2 for a special harbour, 3 for a generic one."""
        return 3 if self.resource is None else 2

    @property
    def label(self) -> str:
        return "3:1" if self.resource is None else f"2:1 {self.resource}"

    @property
    def code(self) -> HarbourCode:
        """What the harbour trades: its resource (2:1, B-TRADE-8) or :attr:`HarbourKind.GENERIC` (3:1, B-TRADE-7)."""
        return HarbourKind.GENERIC if self.resource is None else self.resource


@dataclass(frozen=True)
class StartPieces:
    """Pre-placed pieces of one colour for the beginner game (B-SETUP-2, B-SETUP-5)."""

    colour: Colour
    settlements: tuple[NodeId, ...]
    roads: tuple[PathId, ...]
    lettered: NodeId | None
    ships: tuple[PathId, ...] = ()


class Topology:
    """Plain tuples derived once from the board graph, for the engine's hot path.

    Everything the rules read about geometry is here: which paths meet at an
    intersection, which hexes an intersection collects from (the land hexes it
    touches plus any hex a board file links to it, SC-9), which paths border land
    or sea, which intersections touch land.  What changes during a game (a fog hex
    revealed, a token moved) is held by the game, starting from ``hex_terrain`` and
    ``hex_token`` here.

    Harbour codes in ``node_harbour``: ``None`` none, a :class:`~catan_nb.constants.Resource`
    for a 2:1 harbour, :attr:`HarbourKind.GENERIC <catan_nb.constants.HarbourKind.GENERIC>` for a
    generic 3:1 harbour (typed, never ints that could be read as a good's index).
    """

    def __init__(self, board: "Board"):
        g = board.graph
        n = g.number_of_nodes()
        # Plain copies of the graph's data, read once (networkx views are slow to index).
        nd = dict(g.nodes(data=True))
        ed = list(g.edges(data=True))
        adj = {v: list(nbrs) for v, nbrs in g.adjacency()}
        self.n_nodes = n
        self.n_edges = len(ed)
        self.n_hexes = len(board.hexes)
        edge_nodes: list[tuple[int, int]] = [(0, 0)] * self.n_edges
        edge_land = [False] * self.n_edges
        edge_sea = [False] * self.n_edges
        node_edges: list[list[int]] = [[] for _ in range(n)]
        hex_edges: list[list[int]] = [[] for _ in range(self.n_hexes)]
        for a, b, data in ed:
            e = data["id"]
            edge_nodes[e] = (a, b) if a < b else (b, a)
            node_edges[a].append(e)
            node_edges[b].append(e)
            edge_land[e] = data["land"]
            edge_sea[e] = data["sea"]
            for h in data["hexes"]:
                hex_edges[h].append(e)
        self.edge_nodes: tuple[tuple[int, int], ...] = tuple(edge_nodes)
        #: Paths bordering at least one land hex (where roads may go, SF-2).
        self.edge_land: tuple[bool, ...] = tuple(edge_land)
        #: Paths bordering the sea (between two sea hexes or on the coast, SF-6).
        self.edge_sea: tuple[bool, ...] = tuple(edge_sea)
        self.node_edges: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in node_edges)
        self.node_neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(adj[v])) for v in range(n))
        #: Intersections touching at least one land hex (where buildings may stand).
        self.node_land: tuple[bool, ...] = tuple(bool(nd[v]["hexes"]) for v in range(n))
        #: Hexes each intersection collects from and can be robbed on: touched land hexes, then links (SC-9).
        node_hexes = []
        for v in range(n):
            hs, links = nd[v]["hexes"], nd[v]["links"]
            node_hexes.append(tuple(hs) + tuple(h for h in links if h not in hs) if links else tuple(hs))
        self.node_hexes: tuple[tuple[int, ...], ...] = tuple(node_hexes)
        #: Sea hexes touching each intersection.
        self.node_sea: tuple[tuple[int, ...], ...] = tuple(tuple(nd[v]["sea"]) for v in range(n))
        hex_nodes: list[list[int]] = [[] for _ in range(self.n_hexes)]
        for v in range(n):
            for h in self.node_hexes[v]:
                hex_nodes[h].append(v)
            for h in self.node_sea[v]:
                hex_nodes[h].append(v)
        #: Intersections of each hex (its corners, plus linked intersections for land hexes).
        self.hex_nodes: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in hex_nodes)
        terrains = [t.terrain for t in board.hexes]
        #: Whether each hex is land.
        self.hex_land: tuple[bool, ...] = tuple(t is not Terrain.SEA for t in terrains)
        #: Printed terrain and token of each hex (a game keeps its own copy, which may change).
        self.hex_terrain: tuple[Terrain, ...] = tuple(terrains)
        self.hex_token: tuple[int, ...] = tuple(t.token or 0 for t in board.hexes)
        resources = [t.resource for t in board.hexes]
        self.hex_resource: tuple[int, ...] = tuple(-1 if r is None else r.value for r in resources)
        token_hexes: list[list[int]] = [[] for _ in range(13)]
        for t, r in zip(board.hexes, resources):
            if t.token and r is not None:
                token_hexes[t.token].append(t.id)
        self.token_hexes: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in token_hexes)
        #: Hex paths: the paths around each hex.
        self.hex_edges: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in hex_edges)
        #: What each intersection's harbour trades (``None``: no harbour), see :attr:`Harbour.code`.
        self.node_harbour: tuple[HarbourCode | None, ...] = tuple(
            None if nd[v]["harbour"] is None else nd[v]["harbour"].code for v in range(n)
        )
        self.edge_index: dict[tuple[int, int], int] = {pair: e for e, pair in enumerate(self.edge_nodes)}
        self.desert_hexes: tuple[int, ...] = tuple(h for h, t in enumerate(terrains) if t is Terrain.DESERT)
        #: Land hexes (robber targets in the base game, B-ROB-5).
        self.land_hexes: tuple[int, ...] = tuple(h for h, land in enumerate(self.hex_land) if land)


class Board:
    """An island: every hex (land and sea), the intersection/path graph, harbours, the robber's start.

    Build one with :meth:`beginner`, :meth:`random` or :meth:`load`; the
    constructor takes already-typed parts.  The graph is built from every hex the
    board lists, sea included (graph first): intersections and paths between two
    sea hexes exist too, and their attributes say what borders them.  The base
    islands list no sea hexes (the sea is implied beyond the coast), so they keep
    54 (or 80) intersections and 72 (or 109) paths.

    Parameters
    ----------
    name : str
        A label.
    rows : sequence of int
        Hexes per row, top to bottom.
    tiles : sequence of (row, col, Terrain, token)
        Every hex, in row-major order.
    harbours : sequence of ((row, col), side, Resource | None)
        Harbours on coastal sides of land hexes.
    robber : (row, col)
        The robber's start hex (B-BOARD-7, SC-4).
    start : dict, optional
        Beginner starting pieces: ``{"seats": {...}, "pieces": {...}}`` as in the file format.
    source : str
        Where the board came from, for error messages.
    indents : sequence of int, optional
        Each row's first hex in half-hex steps (see :func:`~catan_nb.hexgrid.offset_to_axial`);
        ``None`` for centred rows.
    nodes, paths : sequence of ((row, col), corner or side, dict), optional
        Extra attributes of intersections and paths from a board file (for example
        ``locality``, ``vp``, ``links`` to hexes ``[(row, col), ...]``; ``road``, ``rate``).
        They become node and edge attributes of :attr:`graph`.
    scenario : dict, optional
        Free-form data for rule modules (pirate start, fog stack, targets...).
    """

    def __init__(
        self, name, rows, tiles, harbours, robber, start=None, *, source="<board>", extra=None,
        indents=None, nodes=(), paths=(), scenario=None, layout=None,
    ):
        self.name: str = name
        #: ``"base"``, ``"five_six"`` (component counts checked) or ``None``/``"custom"``.
        self.layout: str | None = layout
        self.rows: tuple[int, ...] = tuple(rows)
        self.indents: tuple[int, ...] | None = None if indents is None else tuple(indents)
        self.source = str(source)
        self._extra = dict(extra or {})
        tiles = list(tiles)
        self.hexes: tuple[HexTile, ...] = tuple(
            HexTile(HexId(i), r, c, t, tok) for i, (r, c, t, tok) in enumerate(tiles)
        )
        self._hex_by_rc = {(t.row, t.col): t for t in self.hexes}
        self._axial = {t.id: hexgrid.offset_to_axial(t.row, t.col, self.rows, self.indents) for t in self.hexes}
        self._hex_by_axial = {ax: h for h, ax in self._axial.items()}
        self.graph: nx.Graph = self._build_graph()
        self._corner_node = {d["corner"]: v for v, d in self.graph.nodes(data=True)}
        self._path_ends: list[tuple[NodeId, NodeId]] = [(NodeId(0), NodeId(0))] * self.graph.number_of_edges()
        for a, b, d in self.graph.edges(data=True):
            self._path_ends[d["id"]] = (NodeId(min(a, b)), NodeId(max(a, b)))
        self._path_by_corners = {
            tuple(sorted((self.graph.nodes[a]["corner"], self.graph.nodes[b]["corner"]))): d["id"]
            for a, b, d in self.graph.edges(data=True)
        }
        self.harbours: tuple[Harbour, ...] = tuple(
            Harbour(self.path_on(rc, side, field=f"harbours[{i}]"), res) for i, (rc, side, res) in enumerate(harbours)
        )
        for i, h in enumerate(self.harbours):
            a, b = self.path_nodes(h.path)
            if not self.graph.edges[a, b]["coastal"]:
                raise BoardFileError(self.source, f"harbours[{i}].side", "a harbour must sit on a coastal side")
            self.graph.edges[a, b]["harbour"] = h
            for v in (a, b):
                if self.graph.nodes[v]["harbour"] is not None:
                    raise BoardFileError(self.source, f"harbours[{i}]", f"intersection {v} already has a harbour")
                self.graph.nodes[v]["harbour"] = h
        self._node_data = [(tuple(rc), corner, dict(attrs)) for rc, corner, attrs in nodes]
        self._path_data = [(tuple(rc), side, dict(attrs)) for rc, side, attrs in paths]
        for i, (rc, corner, attrs) in enumerate(self._node_data):
            v = self.node_at(rc, corner, field=f"nodes[{i}]")
            attrs = dict(attrs)
            if "links" in attrs:
                linked = []
                for j, lrc in enumerate(attrs["links"]):
                    t = self._hex_by_rc.get(tuple(lrc))
                    if t is None:
                        raise BoardFileError(self.source, f"nodes[{i}].links[{j}]", f"{tuple(lrc)} is not a hex of this board")
                    if not t.is_land:
                        raise BoardFileError(self.source, f"nodes[{i}].links[{j}]", f"{tuple(lrc)} is sea: only land hexes produce (SC-9)")
                    linked.append(t.id)
                attrs["links"] = tuple(linked)
            if (attrs.get("locality") or attrs.get("vp")) and not self.graph.nodes[v]["hexes"]:
                raise BoardFileError(self.source, f"nodes[{i}]", f"intersection {corner} of {tuple(rc)} touches no "
                                     "land: a locality or VP intersection stands on land (SC-5, SC-10)")
            self.graph.nodes[v].update(attrs)
        for i, (rc, side, attrs) in enumerate(self._path_data):
            e = self.path_on(rc, side, field=f"paths[{i}]")
            a, b = self.path_nodes(e)
            if attrs.get("red") and not attrs.get("rate"):
                raise BoardFileError(self.source, f"paths[{i}].rate", "a red path needs its rate: "
                                     '{"ratio": 3} or {"ratio": 2, "resource": ...} (SC-8)')
            if (attrs.get("rate") or attrs.get("red")) and not attrs.get("road", True):
                raise BoardFileError(self.source, f"paths[{i}].road", "a red path is a path for roads (SC-6, SC-8)")
            if attrs.get("rate") and not self.graph.edges[a, b]["land"]:
                raise BoardFileError(self.source, f"paths[{i}]", "a red path borders land (SC-8)")
            self.graph.edges[a, b].update(attrs)
        rt = self._hex_by_rc.get(tuple(robber))
        if rt is None or not rt.is_land:
            raise BoardFileError(self.source, "robber", f"{tuple(robber)} is not a land hex")
        self.robber_start: HexId = rt.id
        self.scenario: dict[str, Any] = dict(scenario or {})
        self._start_data = start
        self.start_pieces: dict[Colour, StartPieces] = self._parse_start(start) if start else {}
        self.start_seats: dict[int, tuple[Colour, ...]] = (
            {int(k): tuple(Colour.parse(c) for c in v) for k, v in start["seats"].items()} if start else {}
        )

    # ------------------------------------------------------------------ construction
    def _build_graph(self) -> nx.Graph:
        skeleton = _skeleton(tuple(self._axial[t.id] for t in self.hexes), tuple(t.is_land for t in self.hexes))
        nodes, edges = skeleton
        g = nx.Graph(name=self.name)
        g.add_nodes_from((v, dict(attrs)) for v, attrs in nodes)
        g.add_edges_from((a, b, dict(attrs)) for a, b, attrs in edges)
        return g

    def _parse_start(self, start: dict) -> dict[Colour, StartPieces]:
        out = {}
        for colour_name, spec in start["pieces"].items():
            colour = Colour.parse(colour_name)
            settlements, lettered = [], None
            for i, s in enumerate(spec["settlements"]):
                v = self.node_at(tuple(s["hex"]), s["corner"], field=f"start.pieces.{colour_name}.settlements[{i}]")
                settlements.append(v)
                if s.get("letter"):
                    lettered = v
            roads = [
                self.path_on(tuple(r["hex"]), r["side"], field=f"start.pieces.{colour_name}.roads[{i}]")
                for i, r in enumerate(spec["roads"])
            ]
            ships = [
                self.path_on(tuple(r["hex"]), r["side"], field=f"start.pieces.{colour_name}.ships[{i}]")
                for i, r in enumerate(spec.get("ships", ()))
            ]
            out[colour] = StartPieces(colour, tuple(settlements), tuple(roads), lettered, tuple(ships))
        return out

    # ------------------------------------------------------------------ lookups
    def hex_at(self, row: int, col: int) -> HexTile:
        """The hex at rulebook position ``(row, col)``.

        Raises
        ------
        KeyError
            If there is no land hex there.
        """
        try:
            return self._hex_by_rc[(row, col)]
        except KeyError:
            raise KeyError(f"no land hex at ({row},{col}) on board {self.name!r}") from None

    def axial(self, hex_id: int) -> hexgrid.Axial:
        """Axial coordinates of a hex."""
        return self._axial[hex_id]

    def node_at(self, rc: tuple[int, int], corner: str, *, field: str = "corner") -> NodeId:
        """The intersection at a named corner (``"N"``, ``"SE"``, ...) of hex ``(row, col)``."""
        t = self._hex_by_rc.get(tuple(rc))
        if t is None:
            raise BoardFileError(self.source, field, f"{tuple(rc)} is not a hex of this board")
        try:
            return self._corner_node[hexgrid.corner_of(self._axial[t.id], corner)]
        except ValueError as exc:
            raise BoardFileError(self.source, field, str(exc)) from None

    def path_on(self, rc: tuple[int, int], side: str, *, field: str = "side") -> PathId:
        """The path along a named side (``"NE"``, ``"E"``, ...) of hex ``(row, col)``."""
        t = self._hex_by_rc.get(tuple(rc))
        if t is None:
            raise BoardFileError(self.source, field, f"{tuple(rc)} is not a hex of this board")
        try:
            return PathId(self._path_by_corners[hexgrid.side_of(self._axial[t.id], side)])
        except ValueError as exc:
            raise BoardFileError(self.source, field, str(exc)) from None

    def path_nodes(self, path: int) -> tuple[NodeId, NodeId]:
        """The two end intersections of a path, lower id first."""
        return self._path_ends[path]

    def path_between(self, a: int, b: int) -> PathId:
        """The path joining two adjacent intersections.

        Raises
        ------
        KeyError
            If they are not adjacent.
        """
        try:
            return PathId(self.topology.edge_index[(min(a, b), max(a, b))])
        except KeyError:
            raise KeyError(f"intersections {a} and {b} are not adjacent") from None

    def intersection_hexes(self, node: int) -> tuple[HexTile, ...]:
        """The land hexes an intersection collects from: those it touches, then any linked to it (SC-9)."""
        return tuple(self.hexes[h] for h in self.topology.node_hexes[node])

    def hex_intersections(self, hex_id: int) -> tuple[NodeId, ...]:
        """The intersections of a hex: its six corners (and, for land, intersections linked to it)."""
        return tuple(NodeId(v) for v in self.topology.hex_nodes[hex_id])

    @cached_property
    def land_nodes(self) -> tuple[NodeId, ...]:
        """Intersections touching land (54 on the base island), where buildings may stand."""
        return tuple(NodeId(v) for v, land in enumerate(self.topology.node_land) if land)

    @cached_property
    def land_paths(self) -> tuple[PathId, ...]:
        """Paths bordering land (72 on the base island), where roads may go."""
        return tuple(PathId(e) for e, land in enumerate(self.topology.edge_land) if land)

    def node_label(self, node: int) -> str:
        """Describe an intersection by its hexes, e.g. ``"12 [(4,1) forest 8 / (4,2) mountains 3]"``."""
        hexes = " / ".join(t.label for t in self.intersection_hexes(node))
        return f"{node} [{hexes}]"

    def expected_production(self, node: int) -> dict[Resource, Any]:
        """Expected cards per roll of each resource for a settlement on ``node`` (as Fractions)."""
        out: dict[Resource, Any] = {}
        for t in self.intersection_hexes(node):
            if t.resource is not None and t.token:
                out[t.resource] = out.get(t.resource, 0) + roll_probability(t.token)
        return out

    @cached_property
    def topology(self) -> Topology:
        """Plain-data view of the graph for the rules engine (derived once)."""
        return Topology(self)

    @cached_property
    def coastal_paths_ccw(self) -> tuple[PathId, ...]:
        """Coastal paths numbered counter-clockwise from the upper-left side of the first hex (B-BOARD-9).

        Position ``i`` of the tuple is the path id of coastal path number ``i``: the numbering
        that harbour proposals use (:meth:`harbour_sides`) and that a module may use to place
        something along the coast.  Computed once per board (a cached property); read only.
        """
        g = self.graph
        first = self.hexes[0]
        start = self.path_on((first.row, first.col), "NW")
        coast = {d["id"]: (a, b) for a, b, d in g.edges(data=True) if d["coastal"]}
        by_node: dict[int, list[int]] = {}
        for e, (a, b) in coast.items():
            by_node.setdefault(a, []).append(e)
            by_node.setdefault(b, []).append(e)
        xs = [p[0] for _, p in g.nodes(data="pos")]
        ys = [p[1] for _, p in g.nodes(data="pos")]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        a, b = coast[start]
        pa, pb = g.nodes[a]["pos"], g.nodes[b]["pos"]
        cross = (pa[0] - cx) * (pb[1] - cy) - (pa[1] - cy) * (pb[0] - cx)
        here = b if cross > 0 else a  # walk on towards the end that lies counter-clockwise
        order, edge = [start], start
        while True:
            nxt = [e for e in by_node[here] if e != edge]
            if not nxt or nxt[0] == start:
                break
            edge = nxt[0]
            order.append(PathId(edge))
            u, w = coast[edge]
            here = w if u == here else u
        return tuple(order)

    # ------------------------------------------------------------------ factories
    @classmethod
    def load(cls, path: str | Path) -> "Board":
        """Load and validate a board file (see ``boards/README.md``).

        Raises
        ------
        BoardFileError
            Naming the file, the field and what is wrong.

        Examples
        --------
        >>> Board.load(BOARDS_DIR / "beginner.json").name
        'beginner'
        """
        path = Path(path)
        return cls.from_dict(read_json(path, BoardFileError), source=path)

    @classmethod
    def from_dict(cls, data: Any, *, source: str | Path = "<board>") -> "Board":
        """Build a board from the parsed JSON of a board file.

        Checked, each error a :class:`BoardFileError` naming the source and the field: the
        schema (types and sizes bounded: at most 30 rows of 30 hexes), the rows and hexes
        agreeing, tokens on producing hexes only, the harbours on coastal sides, the robber on
        land, starting pieces that obey the distance rule with one seat per colour, the
        component counts of the declared ``layout`` (B-COMP-3, B-COMP-4; X56-COMP-2) and an
        island where something produces.
        """
        if not isinstance(data, dict):
            raise BoardFileError(source, "<root>", f"a board file holds a JSON object, not {_json_type(data)}")
        for key, limit in _LIST_LIMITS.items():  # before the schema: refuse absurd sizes at once
            value = data.get(key)
            if isinstance(value, list) and len(value) > limit:
                raise BoardFileError(source, key, f"{len(value)} entries is more than the {limit} a board may have")
        problem = schema_error(data, load_schema())
        if problem:
            raise BoardFileError(source, field_name(problem[0]), problem[1])
        rows = data["rows"]
        scenario = data.get("scenario")
        # SF-15: a scenario may leave producing hexes without a token, to get one during play
        tokens_later = isinstance(scenario, dict) and scenario.get("tokens_later") is True
        seen: dict[tuple[int, int], int] = {}
        tiles = []
        for i, h in enumerate(data["hexes"]):
            rc = (h["row"], h["col"])
            if h["row"] > len(rows) or h["col"] > rows[h["row"] - 1]:
                raise BoardFileError(source, f"hexes[{i}]", f"{rc} is outside the rows {rows}")
            if rc in seen:
                raise BoardFileError(source, f"hexes[{i}]", f"{rc} repeats hexes[{seen[rc]}]")
            seen[rc] = i
            terrain = Terrain.parse(h["terrain"])
            token = h.get("token")
            if terrain in (Terrain.DESERT, Terrain.SEA) and token is not None:
                raise BoardFileError(source, f"hexes[{i}].token", f"the {terrain} carries no token")
            if (terrain.resource is not None or terrain is Terrain.GOLD) and token is None and not tokens_later:
                raise BoardFileError(source, f"hexes[{i}].token", "a producing hex needs a token")
            tiles.append((h["row"], h["col"], terrain, token))
        if len(tiles) != sum(rows):
            missing = sorted({(r, c) for r in range(1, len(rows) + 1) for c in range(1, rows[r - 1] + 1)} - set(seen))
            raise BoardFileError(source, "hexes", f"rows {rows} need {sum(rows)} hexes; missing {missing}")
        indents = data.get("indent")
        if indents is not None and len(indents) != len(rows):
            raise BoardFileError(source, "indent", f"one indent per row: {len(rows)} rows, {len(indents)} indents")
        try:
            for r in range(1, len(rows) + 1):
                hexgrid.offset_to_axial(r, 1, rows, indents)
        except ValueError as exc:
            raise BoardFileError(source, "indent" if indents is not None else "rows", str(exc)) from None
        tiles.sort(key=lambda t: (t[0], t[1]))
        harbours = [
            (tuple(h["hex"]), h["side"], None if h["resource"] is None else Resource.parse(h["resource"]))
            for h in data["harbours"]
        ]
        board = cls(
            data["name"],
            rows,
            tiles,
            harbours,
            tuple(data["robber"]),
            data.get("start"),
            source=source,
            extra={k: data[k] for k in ("description", "notes") if k in data},
            indents=indents,
            nodes=[(n["hex"], n["corner"], {k: v for k, v in n.items() if k not in ("hex", "corner")})
                   for n in data.get("nodes", ())],
            paths=[(pth["hex"], pth["side"], {k: v for k, v in pth.items() if k not in ("hex", "side")})
                   for pth in data.get("paths", ())],
            scenario=data.get("scenario"),
            layout=data.get("layout"),
        )
        board._validate_start()
        board._validate_layout()
        return board

    def _validate_layout(self) -> None:
        """The component counts of the declared layout, and an island that produces something."""
        land = [t for t in self.hexes if t.is_land]
        if not any(t.token and (t.resource is not None or t.terrain is Terrain.GOLD) for t in land):
            raise BoardFileError(self.source, "hexes", "no hex produces anything: no game on this island could be won")
        if self.layout not in LAYOUTS:
            return
        rows, terrain_counts, letters, _, _ = LAYOUTS[self.layout]
        rule = {"base": ("B-BOARD-1", "B-COMP-3", "B-COMP-4"), "five_six": ("X56-BOARD-2", "X56-COMP-2", "X56-BOARD-4")}[self.layout]
        if tuple(self.rows) != tuple(rows) or len(land) != len(self.hexes):
            raise BoardFileError(self.source, "rows", f"{rule[0]}: the {self.layout} island has rows {list(rows)} of land")
        counts: dict[Terrain, int] = {}
        for t in land:
            counts[t.terrain] = counts.get(t.terrain, 0) + 1
        if counts != dict(terrain_counts):
            want = ", ".join(f"{k} {v}" for k, v in terrain_counts.items())
            have = ", ".join(f"{k} {counts.get(k, 0)}" for k in terrain_counts)
            raise BoardFileError(self.source, "hexes", f"{rule[1]}: the {self.layout} island has {want}; this file has {have}")
        tokens = sorted(t.token for t in land if t.token)
        if tokens != sorted(letters):
            extra = sorted(set(tokens) | set(letters), key=lambda k: (tokens.count(k) - list(letters).count(k), k))
            k = next(k for k in reversed(extra) if tokens.count(k) != list(letters).count(k))
            raise BoardFileError(
                self.source, "hexes", f"{rule[2]}: the {self.layout} island has {list(letters).count(k)} token(s) {k}; "
                f"this file has {tokens.count(k)}"
            )

    def founding_capacity(self) -> int:
        """How many settlements fit on this island under the distance rule (B-BUILD-7).

        The size of a maximum set of land intersections no two of which are adjacent: a
        founding phase of ``n`` players needs ``2 * n`` (B-SETUP-15, B-SETUP-16).  Exact for
        the island sizes boards may have (greedy first, then an exhaustive search if needed).

        Examples
        --------
        >>> Board.beginner().founding_capacity() >= 12
        True
        """
        return self._capacity(None)

    def _capacity(self, need: int | None) -> int:
        memo = self.__dict__.setdefault("_capacity_memo", {})  # the board never changes: compute once
        if need in memo:
            return memo[need]
        t = self.topology
        land = [v for v in range(t.n_nodes) if t.node_land[v]]
        degree = max((len(t.node_neighbours[v]) for v in land), default=0)
        if need is not None and len(land) >= need * (degree + 1):
            # any maximal set of non-adjacent intersections has at least n / (degree + 1) of them
            memo[need] = need
        else:
            adj = {v: {w for w in t.node_neighbours[v] if t.node_land[w]} for v in land}
            memo[need] = _independence(adj, need)
        return memo[need]

    def check_playable(self, players: int, founding: bool = True) -> None:
        """Raise :class:`BoardFileError` unless ``players`` can play a game to its end here.

        A founding phase must be able to seat every player twice (B-SETUP-15..17): on a board
        too small for that, no settlement could be placed and the game would wait forever.
        """
        if founding:
            room = self._capacity(2 * players)  # stops as soon as there is room enough
            if room < 2 * players:
                raise BoardFileError(
                    self.source, "hexes",
                    f"B-SETUP-17: {players} players found {2 * players} settlements, but at most {room} fit on this "
                    "island under the distance rule (B-BUILD-7)",
                )

    def _validate_start_ships(self, colour, sp: "StartPieces") -> None:
        """SF-6: starting ships on sea paths; SF-7: in routes leaving the colour's settlements."""
        t = self.topology
        taken = set(sp.roads)
        for i, e in enumerate(sp.ships):
            field = f"start.pieces.{colour}.ships[{i}]"
            if not t.edge_sea[e]:
                raise BoardFileError(self.source, field, f"SF-6: path {e} is inland: a ship sails only on a path that borders the sea")
            if e in taken:
                raise BoardFileError(self.source, field, f"path {e} already holds a starting road or ship")
            taken.add(e)
        reached = set(sp.settlements)
        left = list(enumerate(sp.ships))
        while True:  # SF-7: grow the routes from the settlements
            grown = [(i, e) for i, e in left if set(t.edge_nodes[e]) & reached]
            if not grown:
                break
            for i, e in grown:
                reached.update(t.edge_nodes[e])
            left = [x for x in left if x not in grown]
        if left:
            i, e = left[0]
            raise BoardFileError(self.source, f"start.pieces.{colour}.ships[{i}]",
                                 f"SF-7: the ship on path {e} is in no route leaving one of {colour}'s settlements")

    def _validate_start(self) -> None:
        occupied: dict[int, str] = {}
        for colour, sp in self.start_pieces.items():
            for i, v in enumerate(sp.settlements):
                field = f"start.pieces.{colour}.settlements[{i}]"
                for w in (v, *self.graph.adj[v]):
                    if w in occupied:
                        raise BoardFileError(
                            self.source, field, f"B-BUILD-7: intersection {v} is at or next to {occupied[w]}"
                        )
                occupied[v] = f"{colour}'s settlement at {v}"
            for i, e in enumerate(sp.roads):
                a, b = self.path_nodes(e)
                if a not in sp.settlements and b not in sp.settlements:
                    raise BoardFileError(
                        self.source, f"start.pieces.{colour}.roads[{i}]", "a starting road must touch its settlement"
                    )
            self._validate_start_ships(colour, sp)
        for n, colours in self.start_seats.items():
            if len(colours) != n:
                raise BoardFileError(self.source, f"start.seats.{n}", f"{n} players need {n} colours, not {len(colours)}")
            if len(set(colours)) != len(colours):
                raise BoardFileError(self.source, f"start.seats.{n}", f"a colour may seat one player only: {[str(c) for c in colours]}")
            for c in colours:
                if c not in self.start_pieces:
                    raise BoardFileError(self.source, f"start.seats.{n}", f"colour {c} has no starting pieces")

    @classmethod
    def beginner(cls) -> "Board":
        """The fixed beginner board (B-BOARD-6, B-BOARD-9, B-SETUP-5) from ``boards/beginner.json``."""
        return cls.load(BOARDS_DIR / "beginner.json")

    @classmethod
    def random(
        cls,
        seed: int | random.Random | None = None,
        *,
        layout: str = "base",
        start_corner: tuple[int, int] = (1, 1),
        shuffle_harbours: bool = False,
        robber_desert: int = 0,
    ) -> "Board":
        """A variable-setup board (B-SETUP-9..14; X56-BOARD-1..6 with ``layout="five_six"``).

        Terrain is shuffled into the rows, lettered tokens are laid along the
        counter-clockwise spiral from ``start_corner`` skipping the desert(s), and
        the robber starts on a desert (``robber_desert`` picks which, in row order:
        X56-BOARD-6).  Harbours follow the spec's proposal (B-BOARD-9, X56-BOARD-7);
        with ``shuffle_harbours`` their types are shuffled among those positions.

        Examples
        --------
        >>> b = Board.random(seed=1)
        >>> sorted(t.token for t in b.hexes if t.token) == sorted(BASE_TOKEN_LETTERS)
        True
        >>> Board.random(seed=1, layout="five_six").graph.number_of_nodes()
        80
        """
        try:
            rows, terrain_counts, letters, positions, harbour_types = LAYOUTS[layout]
        except KeyError:
            raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}") from None
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        terrains = [t for t, n in terrain_counts.items() for _ in range(n)]
        rng.shuffle(terrains)
        cells = [(r, c) for r in range(1, len(rows) + 1) for c in range(1, rows[r - 1] + 1)]
        terrain_at = dict(zip(cells, terrains))
        tokens = lay_tokens(rows, terrain_at, letters, start_corner)
        types = list(harbour_types)
        if shuffle_harbours:
            rng.shuffle(types)
        key = (tuple(rows), tuple(positions))
        sides = _HARBOUR_GEOMETRY.get(key)
        if sides is None:  # where the harbours lie depends on the shape only: found once, on a probe
            probe = cls("probe", rows, [(r, c, Terrain.DESERT, None) for r, c in cells], [], (1, 1))
            sides = _HARBOUR_GEOMETRY[key] = [(rc, side) for rc, side, _ in probe.harbour_sides(positions, types)]
        harbours = [(rc, side, res) for (rc, side), res in zip(sides, types)]
        deserts = [rc for rc in cells if terrain_at[rc] is Terrain.DESERT]
        if not 0 <= robber_desert < len(deserts):
            raise ValueError(f"robber_desert must be in 0..{len(deserts) - 1}")
        tiles = [(r, c, terrain_at[(r, c)], tokens.get((r, c))) for r, c in cells]
        prefix = "random" if layout == "base" else f"random-{layout}"
        name = f"{prefix}-{seed}" if isinstance(seed, int) else prefix
        return cls(name, rows, tiles, harbours, deserts[robber_desert], layout=layout)

    @classmethod
    def five_six(cls) -> "Board":
        """The fixed 5-6 player island from ``boards/five_six.json`` (X56-BOARD-*)."""
        return cls.load(BOARDS_DIR / "five_six.json")

    def harbour_sides(self, positions, types) -> list[tuple[tuple[int, int], str, Resource | None]]:
        """Harbour specs ``((row, col), side, resource)`` for coastal path numbers (B-BOARD-9)."""
        coast = self.coastal_paths_ccw
        out = []
        for pos, res in zip(positions, types):
            a, b = self.path_nodes(coast[pos])
            (h,) = set(self.graph.nodes[a]["hexes"]) & set(self.graph.nodes[b]["hexes"])
            t = self.hexes[h]
            side = next(s for s in hexgrid.SIDE_NAMES if self.path_on((t.row, t.col), s) == coast[pos])
            out.append(((t.row, t.col), side, res))
        return out

    # ------------------------------------------------------------------ output
    def to_dict(self) -> dict[str, Any]:
        """The board as the parsed JSON of a board file; ``Board.from_dict`` reads it back."""
        out: dict[str, Any] = {"name": self.name}
        out.update(self._extra)
        out["rows"] = list(self.rows)
        out["hexes"] = [
            {"row": t.row, "col": t.col, "terrain": str(t.terrain), "token": t.token} for t in self.hexes
        ]
        out["harbours"] = []
        for h in self.harbours:
            a, b = self.path_nodes(h.path)
            (hid,) = sorted(set(self.graph.nodes[a]["hexes"]) & set(self.graph.nodes[b]["hexes"]))
            t = self.hexes[hid]
            side = next(s for s in hexgrid.SIDE_NAMES if self.path_on((t.row, t.col), s) == h.path)
            out["harbours"].append(
                {"hex": [t.row, t.col], "side": side, "resource": None if h.resource is None else str(h.resource)}
            )
        rt = self.hexes[self.robber_start]
        out["robber"] = [rt.row, rt.col]
        if self.layout is not None:
            out["layout"] = self.layout
        if self.indents is not None:
            out["indent"] = list(self.indents)
        if self._node_data:
            out["nodes"] = [self._attr_json(rc, "corner", c, a) for rc, c, a in self._node_data]
        if self._path_data:
            out["paths"] = [self._attr_json(rc, "side", sd, a) for rc, sd, a in self._path_data]
        if self.scenario:
            out["scenario"] = self.scenario
        if self._start_data:
            out["start"] = self._start_data
        return out

    @staticmethod
    def _attr_json(rc, key: str, name: str, attrs: dict) -> dict[str, Any]:
        return {"hex": list(rc), key: name, **{k: ([list(x) for x in v] if k == "links" else v) for k, v in attrs.items()}}

    def to_json(self, **kw) -> str:
        """The board as a board-file JSON string."""
        return json.dumps(self.to_dict(), **kw)

    def save(self, path: str | Path) -> None:
        """Write the board as a board file."""
        write_atomic(Path(path), self.to_json(indent=1) + "\n")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        land = sum(t.is_land for t in self.hexes)
        sea = f" + {len(self.hexes) - land} sea" if land < len(self.hexes) else ""
        return f"<Board {self.name!r}: {land} hexes{sea}, {self.graph.number_of_nodes()} intersections>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Show as the board figure in a notebook (the viz layer is imported only here)."""
        from .viz import mimebundle

        return mimebundle(self, include, exclude)


def lay_tokens(rows, terrain_at, letters, start_corner=(1, 1)) -> dict[tuple[int, int], int]:
    """Lay lettered tokens along the spiral, skipping deserts (B-SETUP-12, X56-BOARD-3)."""
    axial_of = {rc: hexgrid.offset_to_axial(rc[0], rc[1], rows) for rc in terrain_at}
    rc_of = {ax: rc for rc, ax in axial_of.items()}
    if start_corner not in axial_of:
        raise ValueError(f"start corner {start_corner} is not a hex of this board")
    land = set(rc_of)
    corner_ax = axial_of[start_corner]
    if sum(n in land for n in hexgrid.neighbours(corner_ax)) != 3:
        raise ValueError(f"{start_corner} is not a corner hex (B-SETUP-13: an outer hex with 3 land neighbours)")
    order = [rc_of[ax] for ax in hexgrid.spiral(land, corner_ax)]
    producing = [rc for rc in order if terrain_at[rc] is not Terrain.DESERT]
    if len(producing) != len(letters):
        raise ValueError(f"{len(producing)} producing hexes but {len(letters)} tokens")
    return dict(zip(producing, letters))


#: The most entries each list of a board file may have (checked before the schema).
_LIST_LIMITS = {"rows": 30, "indent": 30, "hexes": 900, "harbours": 100, "nodes": 4000, "paths": 4000}


def _json_type(value: Any) -> str:
    return {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true/false",
            type(None): "null"}.get(type(value), type(value).__name__)


@functools.lru_cache(maxsize=64)
def _skeleton(axials: tuple, land_flags: tuple) -> tuple[tuple, tuple]:
    """The intersections and paths of a board's hexes, with their attributes (geometry only).

    Boards of the same shape (every random base island) share it; each board copies the
    attribute dicts into its own graph.  Ids follow the geometry, not an iteration order:
    top to bottom, then left to right.
    """
    corner_hexes: dict[tuple[int, int], list[int]] = {}
    sides: dict[tuple, list[int]] = {}
    for h, ax in enumerate(axials):
        for c in hexgrid.hex_corners(ax).values():
            corner_hexes.setdefault(c, []).append(h)
        for sd in hexgrid.SIDE_NAMES:
            sides.setdefault(hexgrid.side_of(ax, sd), []).append(h)
    land = {h for h, is_land in enumerate(land_flags) if is_land}
    corners = sorted(corner_hexes, key=lambda c: (-c[1], c[0]))
    node_of = {c: NodeId(i) for i, c in enumerate(corners)}
    nodes = []
    for c in corners:
        hs = sorted(corner_hexes[c])
        nodes.append((node_of[c], dict(
            hexes=tuple(h for h in hs if h in land), sea=tuple(h for h in hs if h not in land), links=(),
            pos=hexgrid.to_plane(c), corner=c, harbour=None,
        )))
    pairs = sorted(tuple(sorted((node_of[a], node_of[b]))) for a, b in sides)
    border = {tuple(sorted((node_of[a], node_of[b]))): sorted(hs) for (a, b), hs in sides.items()}
    edges = []
    for i, (a, b) in enumerate(pairs):
        hs = border[(a, b)]
        n_land = sum(h in land for h in hs)
        rim = len(hs) == 1  # beyond the board's last hex lies the sea
        sea = rim or n_land < len(hs)
        edges.append((a, b, dict(id=PathId(i), hexes=tuple(hs), land=n_land > 0, sea=sea,
                                 coastal=n_land == 1 and sea, harbour=None)))
    return tuple(nodes), tuple(edges)


def _independence(adj: dict[int, set[int]], need: int | None = None) -> int:
    """Size of a maximum independent set of a small graph (greedy bound, then exact search).

    With ``need``, stop as soon as a set that large is found.
    """
    def greedy(nodes: set[int]) -> int:
        left = set(nodes)
        count = 0
        while left:
            v = min(left, key=lambda x: (len(adj[x] & left), x))
            left -= adj[v] | {v}
            count += 1
        return count

    nodes = set(adj)
    best = greedy(nodes)
    if (need is not None and best >= need) or len(nodes) > 120:
        return best  # a lower bound; boards this large seat six players many times over
    budget = [200_000]

    def search(left: frozenset[int], size: int) -> None:
        nonlocal best
        budget[0] -= 1
        if not left:
            best = max(best, size)
            return
        if size + len(left) <= best or budget[0] <= 0 or (need is not None and best >= need):
            return
        v = max(left, key=lambda x: (len(adj[x] & left), -x))
        if not adj[v] & left:
            search(left - {v}, size + 1)
            return
        search(left - adj[v] - {v}, size + 1)  # take v
        search(left - {v}, size)  # leave v

    search(frozenset(nodes), 0)
    return best

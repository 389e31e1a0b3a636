"""Dice Game sheets as data: a board file, a networkx graph and compiled bit masks.

A sheet (DG-COMP-2) is the island a player marks: roads, settlements, cities and
knights.  It is read from a JSON file in ``boards/`` (``dice_sheet.json`` for the
normal game, ``dice_sheet_plus.json`` for Plus) validated against
``boards/dice_sheet.schema.json``.  The graph has one node per structure and an
edge ``X -> Y`` for "X needs Y already built" (DG-SHEET-2, DG-SHEET-3 and the
value orders of DG-BUILD-6..8).  Drawing coordinates are node attributes, never
keys (DG-SHEET-6 is a GAP: they are a replaceable proposal).

Examples
--------
>>> sheet = DiceSheet.normal()
>>> sheet.graph.number_of_nodes(), sheet.variant
(33, Variant.NORMAL)
>>> sorted(sheet.graph.successors("S4"))
['R2', 'S3']
>>> sheet.road_path("C30")
['R0', 'R2', 'R3', 'R5', 'R6', 'R7', 'R12', 'R13', 'R14', 'R15']
>>> sheet.max_points()
145
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from .._files import field_name, read_json, schema_error
from ..board import BOARDS_DIR
from ..constants import Resource, Terrain
from ..errors import BoardFileError
from .constants import COSTS, Kind, Variant

__all__ = ["Structure", "KnightSwap", "SheetHex", "DiceSheet", "SHEET_FILES", "load_sheet_schema"]

#: The shipped sheet files, by variant.
SHEET_FILES = {Variant.NORMAL: "dice_sheet.json", Variant.PLUS: "dice_sheet_plus.json"}

XY = tuple[float, float]


def load_sheet_schema() -> dict[str, Any]:
    """The JSON schema of sheet files (``boards/dice_sheet.schema.json``)."""
    return json.loads((BOARDS_DIR / "dice_sheet.schema.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Structure:
    """One symbol of the sheet (DG-SHEET-1).

    Attributes
    ----------
    id : str
        Its name on the sheet (``"R3"``, ``"S4"``, ``"K1"``).
    kind : Kind
    points : int
        Score points (normal sheet, DG-SCORE-1) or VP (Plus sheet, DGP-3).
    needs : tuple of str
        What must be built first.
    xy : (float, float)
        Where the figure draws it (a road: the middle of its segment).
    segment : ((float, float), (float, float)) or None
        The line of a road or of the starting road.
    """

    id: str
    kind: Kind
    points: int
    needs: tuple[str, ...]
    xy: XY
    segment: tuple[XY, XY] | None = None

    @property
    def cost(self) -> tuple[int, int, int, int, int]:
        """Resources it costs (DG-BUILD-1), indexed by ``Resource.value``."""
        return COSTS[self.kind]


@dataclass(frozen=True)
class KnightSwap:
    """A one-time swap (DG-KNIGHT-1, DGP-10): usable once all ``knights`` are built.

    ``resource`` is ``None`` for a swap to any resource (the "?" knight, DG-KNIGHT-2,
    and the Plus desert pair).
    """

    id: str
    knights: tuple[str, ...]
    resource: Resource | None


@dataclass(frozen=True)
class SheetHex:
    """A terrain hex drawn behind the structures (decoration, DG-SHEET-6 GAP)."""

    terrain: Terrain
    xy: XY


_ROADLIKE = (Kind.START, Kind.ROAD)


class DiceSheet:
    """One side of a Dice Game sheet: structures, needs, swaps and drawing coordinates.

    Build one with :meth:`normal`, :meth:`plus`, :meth:`load` or :meth:`from_dict`.

    Attributes
    ----------
    name : str
    variant : Variant
    structures : tuple of Structure
        In file order; a structure's position here is its bit in the engine's masks.
    swaps : tuple of KnightSwap
    hexes : tuple of SheetHex
    graph : networkx.DiGraph
        Node per structure id (attributes ``kind``, ``points``, ``xy``, ``segment``);
        edge ``X -> Y`` when X needs Y, with attribute ``rule`` (the rule id a
        missing Y breaks).
    source : str
        The file it came from.
    """

    def __init__(
        self,
        name: str,
        variant: Variant,
        structures: Iterable[Structure],
        swaps: Iterable[KnightSwap],
        hexes: Iterable[SheetHex] = (),
        *,
        description: str = "",
        notes: Iterable[str] = (),
        source: str = "<sheet>",
    ):
        self.name = name
        self.variant = Variant.parse(variant)
        self.structures = tuple(structures)
        self.swaps = tuple(swaps)
        self.hexes = tuple(hexes)
        self.description = description
        self.notes = tuple(notes)
        self.source = str(source)
        self._check()
        self._compile()

    # ------------------------------------------------------------------ construction
    @classmethod
    def normal(cls) -> "DiceSheet":
        """The shipped normal sheet (``boards/dice_sheet.json``)."""
        return cls.load(BOARDS_DIR / SHEET_FILES[Variant.NORMAL])

    @classmethod
    def plus(cls) -> "DiceSheet":
        """The shipped Plus sheet (``boards/dice_sheet_plus.json``, the DGP-12 proposal)."""
        return cls.load(BOARDS_DIR / SHEET_FILES[Variant.PLUS])

    @classmethod
    def for_variant(cls, variant: Variant | str) -> "DiceSheet":
        """The shipped sheet of a variant (cached: sheets are immutable)."""
        variant = Variant.parse(variant)
        if variant not in _SHIPPED:
            _SHIPPED[variant] = cls.load(BOARDS_DIR / SHEET_FILES[variant])
        return _SHIPPED[variant]

    @classmethod
    def load(cls, path: str | Path) -> "DiceSheet":
        """Load a sheet file.

        Raises
        ------
        BoardFileError
            Naming the file, the field (for example ``structures[4].needs[0]``) and the problem.

        Examples
        --------
        >>> DiceSheet.load(BOARDS_DIR / "dice_sheet_plus.json").variant
        Variant.PLUS
        """
        path = Path(path)
        data = read_json(path, BoardFileError)
        return cls.from_dict(data, source=path)

    @classmethod
    def from_dict(cls, data: Any, *, source: str | Path = "<sheet>") -> "DiceSheet":
        """Build a sheet from the parsed JSON of a sheet file (validated against the schema)."""
        if not isinstance(data, dict):
            raise BoardFileError(source, "<root>", f"a sheet file holds a JSON object, not {type(data).__name__}")
        for key, limit in (("structures", 200), ("swaps", 50), ("hexes", 200), ("notes", 100)):
            value = data.get(key)
            if isinstance(value, list) and len(value) > limit:
                raise BoardFileError(source, key, f"{len(value)} entries is more than the {limit} a sheet may have")
        problem = schema_error(data, _schema())
        if problem:
            path, message, validator = problem
            if validator == "not":  # the schema's only "not": a segment on something else than a road
                path.append("segment")
                message = "only roads and the start road have a segment"
            raise BoardFileError(source, field_name(path), message)
        structures = []
        for s in data["structures"]:
            seg = s.get("segment")
            structures.append(
                Structure(
                    id=s["id"],
                    kind=Kind.parse(s["kind"]),
                    points=s["points"],
                    needs=tuple(s["needs"]),
                    xy=(float(s["xy"][0]), float(s["xy"][1])),
                    segment=None if seg is None else tuple((float(p[0]), float(p[1])) for p in seg),  # type: ignore[arg-type]
                )
            )
        swaps = [
            KnightSwap(w["id"], tuple(w["knights"]), None if w["resource"] == "any" else Resource.parse(w["resource"]))
            for w in data["swaps"]
        ]
        hexes = [SheetHex(Terrain.parse(h["terrain"]), (float(h["xy"][0]), float(h["xy"][1]))) for h in data.get("hexes", [])]
        return cls(
            data["name"],
            Variant.parse(data["variant"]),
            structures,
            swaps,
            hexes,
            description=data.get("description", ""),
            notes=data.get("notes", []),
            source=str(source),
        )

    def to_dict(self) -> dict[str, Any]:
        """The sheet as the JSON of a sheet file (``from_dict(to_dict())`` is equal)."""
        out: dict[str, Any] = {"name": self.name, "variant": str(self.variant)}
        if self.description:
            out["description"] = self.description
        if self.notes:
            out["notes"] = list(self.notes)
        if self.hexes:
            out["hexes"] = [{"terrain": str(h.terrain), "xy": list(h.xy)} for h in self.hexes]
        out["structures"] = []
        for s in self.structures:
            d: dict[str, Any] = {"id": s.id, "kind": str(s.kind), "points": s.points, "needs": list(s.needs), "xy": list(s.xy)}
            if s.segment is not None:
                d["segment"] = [list(p) for p in s.segment]
            out["structures"].append(d)
        out["swaps"] = [
            {"id": w.id, "knights": list(w.knights), "resource": "any" if w.resource is None else str(w.resource)}
            for w in self.swaps
        ]
        return out

    def _check(self) -> None:
        """Semantic checks beyond the schema; each names the field at fault."""
        src = self.source
        index: dict[str, int] = {}
        for i, s in enumerate(self.structures):
            if s.id in index:
                raise BoardFileError(src, f"structures[{i}].id", f"{s.id!r} repeats structures[{index[s.id]}]")
            index[s.id] = i
        starts = [i for i, s in enumerate(self.structures) if s.kind is Kind.START]
        if len(starts) != 1:
            raise BoardFileError(src, "structures", f"a sheet has exactly one start road, found {len(starts)}")
        for i, s in enumerate(self.structures):
            for j, need in enumerate(s.needs):
                if need not in index:
                    raise BoardFileError(src, f"structures[{i}].needs[{j}]", f"unknown structure {need!r}")
                if need == s.id:
                    raise BoardFileError(src, f"structures[{i}].needs[{j}]", f"{s.id} cannot need itself")
            kinds = [self.structures[index[n]].kind for n in s.needs]
            roadlike = sum(k in _ROADLIKE for k in kinds)
            if s.kind is Kind.START and s.needs:
                raise BoardFileError(src, f"structures[{i}].needs", "the start road is pre-built and needs nothing (DG-BUILD-4)")
            if s.kind is Kind.ROAD and (len(s.needs) != 1 or roadlike != 1):
                raise BoardFileError(
                    src, f"structures[{i}].needs", f"road {s.id} must need exactly one road or the start road (DG-SHEET-2)"
                )
            if s.kind in (Kind.SETTLEMENT, Kind.CITY) and roadlike != 1:
                raise BoardFileError(
                    src, f"structures[{i}].needs", f"{s.kind} {s.id} must need exactly one road or the start road (DG-SHEET-3)"
                )
            if s.kind is Kind.KNIGHT and any(k is not Kind.KNIGHT for k in kinds):
                raise BoardFileError(src, f"structures[{i}].needs", f"knight {s.id} may need only knights (DG-BUILD-8)")
        seen: dict[str, int] = {}
        for i, w in enumerate(self.swaps):
            if w.id in seen:
                raise BoardFileError(src, f"swaps[{i}].id", f"{w.id!r} repeats swaps[{seen[w.id]}]")
            seen[w.id] = i
            for j, k in enumerate(w.knights):
                if k not in index or self.structures[index[k]].kind is not Kind.KNIGHT:
                    raise BoardFileError(src, f"swaps[{i}].knights[{j}]", f"{k!r} is not a knight of this sheet")
        g = nx.DiGraph()
        g.add_nodes_from(s.id for s in self.structures)
        g.add_edges_from((s.id, n) for s in self.structures for n in s.needs)
        if not nx.is_directed_acyclic_graph(g):
            cycle = " -> ".join(u for u, _ in nx.find_cycle(g))
            raise BoardFileError(src, "structures", f"the needs form a cycle: {cycle}")

    def _compile(self) -> None:
        self.index: dict[str, int] = {s.id: i for i, s in enumerate(self.structures)}
        g = nx.DiGraph(name=self.name)
        for s in self.structures:
            g.add_node(s.id, kind=s.kind, points=s.points, xy=s.xy, segment=s.segment)
        for s in self.structures:
            for n in s.needs:
                g.add_edge(s.id, n, rule=_need_rule(s.kind, self.structures[self.index[n]].kind))
        self.graph = g
        # Plain tuples for the engine's hot path: bit i is structures[i].
        self.kinds: tuple[Kind, ...] = tuple(s.kind for s in self.structures)
        self.points: tuple[int, ...] = tuple(s.points for s in self.structures)
        self.costs = tuple(s.cost for s in self.structures)
        self.needs_mask: tuple[int, ...] = tuple(sum(1 << self.index[n] for n in s.needs) for s in self.structures)
        self.start = next(i for i, s in enumerate(self.structures) if s.kind is Kind.START)
        self.start_mask = 1 << self.start
        self.swap_masks: tuple[int, ...] = tuple(sum(1 << self.index[k] for k in w.knights) for w in self.swaps)
        self.swap_index: dict[str, int] = {w.id: i for i, w in enumerate(self.swaps)}
        # Road geometry for DGP-7: road X runs from the end of the road it needs to its own end.
        self.road_parent: dict[int, int] = {}
        for i, s in enumerate(self.structures):
            if s.kind is Kind.ROAD:
                self.road_parent[i] = self.index[s.needs[0]]
        self.knight_mask = sum(1 << i for i, k in enumerate(self.kinds) if k is Kind.KNIGHT)
        self.road_mask = sum(1 << i for i, k in enumerate(self.kinds) if k is Kind.ROAD)

    # ------------------------------------------------------------------ queries
    def __getitem__(self, structure_id: str) -> Structure:
        """The structure with this id."""
        try:
            return self.structures[self.index[structure_id]]
        except KeyError:
            raise KeyError(f"no structure {structure_id!r} on the sheet {self.name!r}") from None

    def __contains__(self, structure_id: object) -> bool:
        return structure_id in self.index

    def ids(self, mask: int) -> list[str]:
        """Structure ids of the bits set in ``mask``, in sheet order."""
        return [s.id for i, s in enumerate(self.structures) if mask >> i & 1]

    def mask(self, ids: Iterable[str]) -> int:
        """The bit mask of some structure ids."""
        return sum(1 << self.index[i] for i in set(ids))

    def prerequisites(self, structure_id: str) -> set[str]:
        """Everything that must be built before ``structure_id`` (transitively)."""
        return nx.descendants(self.graph, structure_id)

    def road_path(self, structure_id: str) -> list[str]:
        """The roads leading from the start road to a structure, in building order (DG-SHEET-4).

        For a road the list ends with the road itself; the start road is left out.
        """
        s = self[structure_id]
        out = [s.id] if s.kind is Kind.ROAD else []
        road = next((n for n in s.needs if self[n].kind in _ROADLIKE), None)
        while road is not None and self[road].kind is Kind.ROAD:
            out.append(road)
            road = self[road].needs[0]
        return out[::-1]

    def max_points(self) -> int:
        """The highest total from builds: every structure's points (DG-SHEET-7)."""
        return sum(self.points)

    def road_length(self, built: int | Iterable[str]) -> int:
        """Length of the longest line of built roads, forks excluded, start road not counted (DGP-7).

        Road X is a segment from the end of the road it needs to its own end, so roads
        that need the same road fork at one point.  The answer is the longest path
        (in roads) of that tree restricted to the built roads.

        Examples
        --------
        >>> sheet = DiceSheet.normal()
        >>> sheet.road_length(["R0", "R2", "R3", "R5", "R6", "R7", "R4"])
        6
        """
        mask = built if isinstance(built, int) else self.mask(built)
        adj: dict[int, list[int]] = {}
        for r, parent in self.road_parent.items():
            if mask >> r & 1:
                adj.setdefault(r, []).append(parent)
                adj.setdefault(parent, []).append(r)
        if not adj:
            return 0

        def farthest(src: int) -> tuple[int, int]:
            dist = {src: 0}
            stack = [src]
            while stack:
                u = stack.pop()
                for v in adj[u]:
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        stack.append(v)
            node = max(dist, key=dist.__getitem__)
            return node, dist[node]

        end, _ = farthest(next(iter(adj)))
        return farthest(end)[1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceSheet) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.name, self.variant, self.structures, self.swaps))

    def __repr__(self) -> str:
        return f"<DiceSheet {self.name!r} ({self.variant}): {len(self.structures)} structures, {len(self.swaps)} swaps>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Show as the sheet figure in a notebook (the viz layer is imported only here)."""
        from ..viz.dice_sheet import sheet_mimebundle

        return sheet_mimebundle(self, include, exclude)


_SHIPPED: dict[Variant, DiceSheet] = {}
_SCHEMA: list[dict] = []


def _schema() -> dict:
    if not _SCHEMA:
        _SCHEMA.append(load_sheet_schema())
    return _SCHEMA[0]


def _need_rule(kind: Kind, need: Kind) -> str:
    """The rule a missing prerequisite breaks."""
    if kind is Kind.ROAD:
        return "DG-BUILD-4"
    if kind is Kind.SETTLEMENT:
        return "DG-BUILD-6"
    if kind is Kind.CITY:
        return "DG-BUILD-7"
    if kind is Kind.KNIGHT:
        return "DG-BUILD-8"
    return "DG-SHEET-3"  # pragma: no cover - the checks allow no other needs

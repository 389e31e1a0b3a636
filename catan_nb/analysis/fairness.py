"""Board fairness: how even an island is, and a generator of balanced islands.

:func:`fairness_report` measures a board: pips per resource, the best and
worst intersections, red numbers (6 and 8) side by side, equal numbers side by
side, clusters of one resource, and what each seat would collect after a
greedy snake draft of the founding settlements.

:func:`balanced_board` draws variable-setup boards (B-SETUP-9..14) from a
seed until one meets every named :class:`Constraint`.  Tokens go along the
spiral from a corner, as the rules say; only when the constraints cannot hold
for any spiral layout (``tokens="auto"``) are the tokens shuffled onto the
producing hexes instead, and the board's notes say so.

Examples
--------
>>> from catan_nb import Board
>>> report = fairness_report(Board.beginner())
>>> report.resource_pips[Resource.ORE]
10
>>> board = balanced_board(seed=1)
>>> all(c(board) for c in DEFAULT_CONSTRAINTS)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Union

from .. import hexgrid
from ..board import Board, HexId, NodeId, lay_tokens
from ..constants import (
    BASE_ROWS,
    BASE_TERRAIN_COUNTS,
    BASE_TOKEN_LETTERS,
    HARBOUR_PROPOSAL_POSITIONS,
    HARBOUR_PROPOSAL_TYPES,
    RESOURCES,
    Resource,
    Terrain,
    pips,
)
from ..errors import BoardConstraintError
from .placement import PlacementWeights, NodeTable, founding_order
from .production import placement_production

__all__ = [
    "Layout",
    "Constraint",
    "BoardConstraintError",
    "DraftResult",
    "FairnessReport",
    "RED_NUMBERS",
    "NO_ADJACENT_RED",
    "NO_ADJACENT_EQUAL",
    "DEFAULT_CONSTRAINTS",
    "no_adjacent_numbers",
    "no_adjacent_equal_numbers",
    "max_intersection_pips",
    "max_resource_cluster",
    "resource_pips_between",
    "max_draft_spread",
    "check_constraints",
    "resource_pips",
    "adjacent_hex_pairs",
    "snake_draft",
    "fairness_report",
    "balanced_board",
    "RedAdjacency",
    "red_adjacency_random_tokens",
    "red_adjacency_spiral",
]

#: The numbers with the most pips (6 and 8), printed red on the tokens.
RED_NUMBERS: tuple[int, ...] = tuple(t for t in range(2, 13) if pips(t) == max(pips(k) for k in range(2, 13)))


# ============================================================== plain-data layout
@dataclass(frozen=True)
class Layout:
    """The hexes of a board as plain tuples, for fast constraint checks.

    Attributes
    ----------
    terrains : tuple of Terrain
        By hex id.
    tokens : tuple of int or None
        By hex id (``None`` on the desert).
    hex_neighbours : tuple of tuple of int
        Hexes sharing a side with each hex.
    node_hexes : tuple of tuple of int
        Hexes touching each intersection.
    """

    terrains: tuple[Terrain, ...]
    tokens: tuple[int | None, ...]
    hex_neighbours: tuple[tuple[int, ...], ...]
    node_hexes: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, board: Board) -> "Layout":
        """The layout of a board."""
        return cls(
            tuple(t.terrain for t in board.hexes),
            tuple(t.token for t in board.hexes),
            _hex_neighbours(board),
            board.topology.node_hexes,
        )

    def hex_pairs(self) -> Iterable[tuple[int, int]]:
        """Every pair of adjacent hexes once, lower id first."""
        for h, ns in enumerate(self.hex_neighbours):
            for k in ns:
                if h < k:
                    yield h, k


def _hex_neighbours(board: Board) -> tuple[tuple[int, ...], ...]:
    index = {board.axial(t.id): t.id for t in board.hexes}
    return tuple(
        tuple(sorted(index[a] for a in hexgrid.neighbours(board.axial(t.id)) if a in index)) for t in board.hexes
    )


def _as_layout(target: Union[Board, Layout]) -> Layout:
    return target if isinstance(target, Layout) else Layout.of(target)


# ============================================================== constraints
@dataclass(frozen=True)
class Constraint:
    """A named condition on a board layout.

    Parameters
    ----------
    name : str
        Used in error messages and board notes, e.g. ``"no_adjacent_6_8"``.
    check : callable
        ``check(layout) -> bool``.
    depends_on : {"tokens", "terrain", "both"}
        What the check reads.  ``"tokens"``: only where the numbers are (not
        which terrain carries them), which lets :func:`balanced_board` decide
        up front which spiral layouts can satisfy it.
    description : str
    board_check : callable, optional
        ``board_check(board) -> bool``, for a condition that needs the whole
        board (its harbours too), e.g. :func:`max_draft_spread`: used when the
        constraint is called on a :class:`Board`, and by
        :func:`balanced_board` on the finished board.

    Examples
    --------
    >>> from catan_nb import Board
    >>> NO_ADJACENT_RED(Board.beginner())
    True
    >>> max_intersection_pips(10).name
    'max_intersection_pips(10)'
    """

    name: str
    check: Callable[[Layout], bool] = field(repr=False, compare=False)
    depends_on: str = "both"
    description: str = ""
    board_check: Callable[[Board], bool] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.depends_on not in ("tokens", "terrain", "both"):
            raise ValueError(f"depends_on must be 'tokens', 'terrain' or 'both', not {self.depends_on!r}")

    def __call__(self, target: Union[Board, Layout]) -> bool:
        """Whether a board (or layout) satisfies the constraint."""
        if self.board_check is not None and isinstance(target, Board):
            return bool(self.board_check(target))
        return bool(self.check(_as_layout(target)))


def no_adjacent_numbers(numbers: Sequence[int] = RED_NUMBERS) -> Constraint:
    """No two adjacent hexes both carry one of ``numbers`` (default: no 6 or 8 next to a 6 or 8)."""
    nums = frozenset(numbers)

    def check(lay: Layout) -> bool:
        return not any(lay.tokens[h] in nums and lay.tokens[k] in nums for h, k in lay.hex_pairs())

    name = "no_adjacent_" + "_".join(str(n) for n in sorted(nums))
    return Constraint(name, check, "tokens", f"no two adjacent hexes both numbered from {sorted(nums)}")


def no_adjacent_equal_numbers() -> Constraint:
    """No two adjacent hexes carry the same number."""

    def check(lay: Layout) -> bool:
        return not any(lay.tokens[h] is not None and lay.tokens[h] == lay.tokens[k] for h, k in lay.hex_pairs())

    return Constraint("no_adjacent_equal_numbers", check, "tokens", "no two adjacent hexes with the same number")


def max_intersection_pips(cap: int) -> Constraint:
    """No intersection touches more than ``cap`` pips (e.g. 11 forbids 6-8-5 corners)."""

    def check(lay: Layout) -> bool:
        return all(sum(pips(lay.tokens[h]) for h in hs) <= cap for hs in lay.node_hexes)

    return Constraint(f"max_intersection_pips({cap})", check, "tokens", f"every intersection touches at most {cap} pips")


def max_resource_cluster(size: int) -> Constraint:
    """No group of more than ``size`` connected hexes of one resource (1: no two alike side by side)."""

    def check(lay: Layout) -> bool:
        return max(_clusters(lay).values(), default=0) <= size

    return Constraint(f"max_resource_cluster({size})", check, "terrain", f"at most {size} connected hexes of one resource")


def resource_pips_between(low: int, high: int) -> Constraint:
    """Every resource's hexes carry between ``low`` and ``high`` pips in total."""

    def check(lay: Layout) -> bool:
        return all(low <= v <= high for v in _resource_pips(lay).values())

    return Constraint(f"resource_pips_between({low},{high})", check, "both", f"each resource has {low}..{high} pips")


def max_draft_spread(limit: float, players: int = 4, weights: PlacementWeights | None = None) -> Constraint:
    """After a greedy snake draft (:func:`snake_draft`), the best- and the worst-served seat differ
    by at most ``limit`` expected cards per roll.

    Called on a board, the draft is run on it; on a bare layout (inside
    :func:`balanced_board`), on the base frame with the harbours of the
    B-BOARD-9 proposal, and :func:`balanced_board` checks the finished board
    again (its harbours may be shuffled).

    Examples
    --------
    >>> from catan_nb import Board
    >>> round(float(snake_draft(Board.beginner()).spread), 3), max_draft_spread(0.12)(Board.beginner())
    (0.083, True)
    >>> max_draft_spread(0.08)(Board.beginner())
    False
    """
    limit = float(limit)

    def on_board(board: Board) -> bool:
        return float(snake_draft(board, players, weights=weights).spread) <= limit

    def check(lay: Layout) -> bool:
        return on_board(_layout_board(lay))

    return Constraint(f"max_draft_spread({limit:g})", check, "both",
                      f"a greedy snake draft of {players} seats leaves a spread of at most {limit:g} cards per roll",
                      board_check=on_board)


NO_ADJACENT_RED = no_adjacent_numbers()
NO_ADJACENT_EQUAL = no_adjacent_equal_numbers()
#: What :func:`balanced_board` asks for unless told otherwise.
DEFAULT_CONSTRAINTS: tuple[Constraint, ...] = (NO_ADJACENT_RED, NO_ADJACENT_EQUAL)


def check_constraints(board: Board, constraints: Iterable[Constraint] = DEFAULT_CONSTRAINTS) -> dict[str, bool]:
    """Which constraints a board meets, by name.

    Examples
    --------
    >>> from catan_nb import Board
    >>> check_constraints(Board.beginner(), [max_intersection_pips(11)])
    {'max_intersection_pips(11)': True}
    """
    return {c.name: c(board) for c in constraints}  # a constraint with a board check sees the harbours too


# ============================================================== measures
def _resource_pips(lay: Layout) -> dict[Resource, int]:
    out = {r: 0 for r in RESOURCES}
    for terrain, tok in zip(lay.terrains, lay.tokens):
        if terrain.resource is not None:
            out[terrain.resource] += pips(tok)
    return out


def _clusters(lay: Layout) -> dict[Resource, int]:
    """Largest connected group of hexes of each resource."""
    best = {r: 0 for r in RESOURCES}
    seen: set[int] = set()
    for h, terrain in enumerate(lay.terrains):
        r = terrain.resource
        if r is None or h in seen:
            continue
        stack, size = [h], 0
        seen.add(h)
        while stack:
            x = stack.pop()
            size += 1
            for y in lay.hex_neighbours[x]:
                if y not in seen and lay.terrains[y] is terrain:
                    seen.add(y)
                    stack.append(y)
        best[r] = max(best[r], size)
    return best


def resource_pips(board: Board) -> dict[Resource, int]:
    """Total pips on each resource's hexes: how often the board produces it, out of 36 per roll.

    Examples
    --------
    >>> from catan_nb import Board
    >>> sum(resource_pips(Board.beginner()).values())   # every token: 58 pips
    58
    """
    return _resource_pips(Layout.of(board))


def adjacent_hex_pairs(board: Board, predicate: Callable[[Any, Any], bool]) -> tuple[tuple[HexId, HexId], ...]:
    """Adjacent hex pairs ``(h, k)`` (``h < k``) for which ``predicate(tile_h, tile_k)`` holds.

    Examples
    --------
    >>> from catan_nb import Board
    >>> red = lambda a, b: a.token in RED_NUMBERS and b.token in RED_NUMBERS
    >>> adjacent_hex_pairs(Board.beginner(), red)
    ()
    """
    lay = Layout.of(board)
    return tuple(
        (HexId(h), HexId(k)) for h, k in lay.hex_pairs() if predicate(board.hexes[h], board.hexes[k])
    )


@dataclass(frozen=True)
class DraftResult:
    """The founding settlements of a greedy snake draft and what each seat collects.

    Attributes
    ----------
    picks : tuple of tuple of NodeId
        Each seat's settlements, in the order it placed them.
    production : tuple of Fraction
        Each seat's expected cards per roll from its two settlements.
    """

    picks: tuple[tuple[NodeId, ...], ...]
    production: tuple[Fraction, ...]

    @property
    def spread(self) -> Fraction:
        """Best seat minus worst seat, in expected cards per roll."""
        return max(self.production) - min(self.production)

    def to_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {f"seat {p}": float(x) for p, x in enumerate(self.production)}
        row["spread"] = float(self.spread)
        return row


def snake_draft(
    board: Board, players: int = 4, *, starting_seat: int = 0, weights: PlacementWeights | None = None
) -> DraftResult:
    """Every seat founds its settlements greedily in snake order (B-SETUP-15, B-SETUP-16).

    Each pick is the free intersection with the best placement score
    (``PlacementWeights.production_only()`` drafts by expected cards alone).

    Examples
    --------
    >>> from catan_nb import Board
    >>> d = snake_draft(Board.beginner(), 4)
    >>> len(d.picks), all(len(p) == 2 for p in d.picks)
    (4, True)
    """
    tab = NodeTable(board, weights or PlacementWeights())
    blocked = [False] * tab.n
    picks: list[list[NodeId]] = [[] for _ in range(players)]
    for seat in founding_order(players, starting_seat):
        (v,), blocked = tab.greedy(blocked, 1)
        picks[seat].append(NodeId(v))
    prod = tuple(placement_production(board, p).total for p in picks)
    return DraftResult(tuple(tuple(p) for p in picks), prod)


@dataclass(frozen=True, repr=False)
class FairnessReport:
    """Fairness measures of one board (see :func:`fairness_report`)."""

    board: str
    resource_pips: dict[Resource, int]
    red_adjacent: tuple[tuple[HexId, HexId], ...]
    equal_adjacent: tuple[tuple[HexId, HexId], ...]
    same_resource_adjacent: int
    same_resource_expected: float
    largest_cluster: dict[Resource, int]
    best_intersections: tuple[tuple[NodeId, int], ...]
    worst_intersections: tuple[tuple[NodeId, int], ...]
    draft: DraftResult

    @property
    def resource_spread(self) -> int:
        """Pips of the most produced resource minus the least produced."""
        return max(self.resource_pips.values()) - min(self.resource_pips.values())

    def to_dict(self) -> dict[str, Any]:
        """One flat row, to compare boards in a table."""
        row: dict[str, Any] = {"board": self.board}
        row.update({f"pips {r}": v for r, v in self.resource_pips.items()})
        row.update(
            {
                "resource_spread": self.resource_spread,
                "red_adjacent": len(self.red_adjacent),
                "equal_adjacent": len(self.equal_adjacent),
                "same_resource_adjacent": self.same_resource_adjacent,
                "same_resource_expected": self.same_resource_expected,
                "largest_cluster": max(self.largest_cluster.values()),
                "best_pips": self.best_intersections[0][1] if self.best_intersections else 0,
                "worst_inland_pips": self.worst_intersections[0][1] if self.worst_intersections else 0,
                "draft_min": float(min(self.draft.production)),
                "draft_max": float(max(self.draft.production)),
                "draft_spread": float(self.draft.spread),
            }
        )
        return row

    def __repr__(self) -> str:
        rp = ", ".join(f"{r} {v}" for r, v in self.resource_pips.items())
        best = ", ".join(f"{v} ({p} pips)" for v, p in self.best_intersections)
        return (
            f"<FairnessReport {self.board!r}: pips [{rp}]; 6/8 adjacent {len(self.red_adjacent)}, "
            f"equal adjacent {len(self.equal_adjacent)}, same-resource adjacent {self.same_resource_adjacent} "
            f"(random {self.same_resource_expected:.1f}); best intersections {best}; "
            f"draft spread {float(self.draft.spread):.3f} cards/roll>"
        )


def fairness_report(
    board: Board, *, players: int = 4, weights: PlacementWeights | None = None, count: int = 3
) -> FairnessReport:
    """Measure how even a board is.

    Parameters
    ----------
    board : Board
    players : int
        Seats in the snake draft.
    weights : PlacementWeights, optional
        How the draft ranks intersections.
    count : int
        How many best and worst intersections to list.

    Returns
    -------
    FairnessReport
        ``resource_pips``; ``red_adjacent`` and ``equal_adjacent`` (adjacent
        hex pairs); ``same_resource_adjacent`` (adjacent hexes of one resource)
        beside ``same_resource_expected`` (its mean over random shuffles of
        the same terrains); ``largest_cluster`` per resource;
        ``best_intersections`` (most pips) and ``worst_intersections`` (fewest
        pips among intersections touching three land hexes) as ``(node,
        pips)``; ``draft`` (a greedy snake draft, see :func:`snake_draft`).

    Examples
    --------
    >>> from catan_nb import Board
    >>> r = fairness_report(Board.beginner())
    >>> r.best_intersections[0][1], len(r.red_adjacent)
    (11, 0)
    """
    lay = Layout.of(board)
    pairs = list(lay.hex_pairs())
    same = sum(1 for h, k in pairs if lay.terrains[h] is lay.terrains[k] and lay.terrains[h].resource is not None)
    counts: dict[Terrain, int] = {}
    for t in lay.terrains:
        if t.resource is not None:
            counts[t] = counts.get(t, 0) + 1
    H = len(lay.terrains)
    expected = len(pairs) * sum(c * (c - 1) for c in counts.values()) / (H * (H - 1)) if H > 1 else 0.0
    node_pips = [(NodeId(v), sum(pips(lay.tokens[h]) for h in hs)) for v, hs in enumerate(lay.node_hexes)]
    best = sorted(node_pips, key=lambda x: (-x[1], x[0]))[:count]
    inland = [x for x in node_pips if len(lay.node_hexes[x[0]]) == 3]
    worst = sorted(inland, key=lambda x: (x[1], x[0]))[:count]
    tok = lay.tokens
    return FairnessReport(
        board.name,
        _resource_pips(lay),
        tuple((HexId(h), HexId(k)) for h, k in pairs if tok[h] in RED_NUMBERS and tok[k] in RED_NUMBERS),
        tuple((HexId(h), HexId(k)) for h, k in pairs if tok[h] is not None and tok[h] == tok[k]),
        same,
        expected,
        _clusters(lay),
        tuple(best),
        tuple(worst),
        snake_draft(board, players, weights=weights),
    )


# ============================================================== balanced boards
def _layout_board(lay: Layout) -> Board:
    """A base-frame layout as a board, with the harbours of the B-BOARD-9 proposal."""
    frame = _base_frame()
    if len(lay.terrains) != len(frame.cells):
        raise ValueError(f"a layout of {len(lay.terrains)} hexes is not on the base frame of {len(frame.cells)}")
    harbours = [(rc, side, res) for (rc, side), res in zip(frame.harbour_positions, HARBOUR_PROPOSAL_TYPES)]
    tiles = [(r, c, t, tok) for (r, c), t, tok in zip(frame.cells, lay.terrains, lay.tokens)]
    desert = next(rc for rc, t in zip(frame.cells, lay.terrains) if t is Terrain.DESERT)
    return Board("layout", BASE_ROWS, tiles, harbours, desert)


@dataclass(frozen=True)
class _Frame:
    cells: tuple[tuple[int, int], ...]
    hex_neighbours: tuple[tuple[int, ...], ...]
    node_hexes: tuple[tuple[int, ...], ...]
    corners: tuple[tuple[int, int], ...]
    harbour_positions: tuple[tuple[tuple[int, int], str], ...]


@lru_cache(maxsize=1)
def _base_frame() -> _Frame:
    rows = BASE_ROWS
    cells = tuple((r, c) for r in range(1, len(rows) + 1) for c in range(1, rows[r - 1] + 1))
    probe = Board("probe", rows, [(r, c, Terrain.DESERT, None) for r, c in cells], [], cells[0])
    neighbours = _hex_neighbours(probe)
    corners = tuple(cells[h] for h, ns in enumerate(neighbours) if len(ns) == 3)  # B-SETUP-13
    sides = probe.harbour_sides(HARBOUR_PROPOSAL_POSITIONS, HARBOUR_PROPOSAL_TYPES)
    return _Frame(cells, neighbours, probe.topology.node_hexes, corners, tuple((rc, side) for rc, side, _ in sides))


@lru_cache(maxsize=None)
def _spiral_tokens(desert: tuple[int, int], corner: tuple[int, int]) -> tuple[int | None, ...]:
    """Tokens by hex (row-major) when the desert is at ``desert`` and the spiral starts at ``corner``."""
    frame = _base_frame()
    terrain_at = {rc: Terrain.DESERT if rc == desert else Terrain.FOREST for rc in frame.cells}
    tokens = lay_tokens(BASE_ROWS, terrain_at, BASE_TOKEN_LETTERS, corner)
    return tuple(tokens.get(rc) for rc in frame.cells)


def balanced_board(
    seed: int | None = None,
    constraints: Iterable[Constraint] = DEFAULT_CONSTRAINTS,
    *,
    tokens: str = "auto",
    start_corner: tuple[int, int] | None = None,
    shuffle_harbours: bool = False,
    max_tries: int = 20_000,
) -> Board:
    """A variable-setup base board that meets every constraint, drawn from ``seed``.

    Parameters
    ----------
    seed : int, optional
        Every draw comes from ``random.Random(seed)``: the same seed and
        arguments give the same board.
    constraints : iterable of Constraint
        Default (:data:`DEFAULT_CONSTRAINTS`): only no 6 or 8 next to a 6 or 8
        and no equal numbers side by side.  Anything else must be asked for:
        :func:`max_intersection_pips`, :func:`max_resource_cluster`,
        :func:`resource_pips_between`, :func:`max_draft_spread`, or your own
        :class:`Constraint`.  A constraint with a ``board_check`` is tried
        only on draws that meet every other one.
    tokens : {"auto", "spiral", "shuffle"}
        ``"spiral"``: the rules' method (B-SETUP-9..14): terrain shuffled, the
        tokens A..R laid along the counter-clockwise spiral from a corner
        (``start_corner``, or one drawn from the corners that can work),
        skipping the desert.  ``"shuffle"``: the documented alternative, the
        18 tokens shuffled onto the producing hexes.  ``"auto"``: the spiral,
        unless the constraints that depend only on token positions fail for
        every spiral layout (desert position x start corner), then the shuffle.
    start_corner : (row, col), optional
        Fix the spiral's corner (B-SETUP-13 DECISION).
    shuffle_harbours : bool
        Shuffle the harbour types among the proposal positions (B-BOARD-9).
    max_tries : int

    Returns
    -------
    Board
        Named ``balanced-<seed>``; its notes record the constraints, the token
        method and the number of tries.  The robber starts on the desert.

    Raises
    ------
    BoardConstraintError
        When no draw meets the constraints within ``max_tries`` (naming the
        constraint that failed most often), or when ``tokens="spiral"`` and a
        token constraint fails for every spiral layout.

    Examples
    --------
    >>> b = balanced_board(seed=4, constraints=[NO_ADJACENT_RED, max_intersection_pips(11)])
    >>> check_constraints(b, [NO_ADJACENT_RED, max_intersection_pips(11)])
    {'no_adjacent_6_8': True, 'max_intersection_pips(11)': True}
    >>> balanced_board(seed=4) == balanced_board(seed=4)
    True

    Notes
    -----
    Under the spiral, token positions depend only on the desert's position
    and the start corner, so token-only constraints are checked once for
    each of those layouts; each try then draws a workable layout uniformly
    and shuffles the other terrains, which samples uniformly from the boards
    that meet the constraints.
    """
    if tokens not in ("auto", "spiral", "shuffle"):
        raise ValueError(f"tokens must be 'auto', 'spiral' or 'shuffle', not {tokens!r}")
    if max_tries < 1:
        raise ValueError("max_tries must be at least 1")
    cons = list(constraints)
    rng = random.Random(seed)
    frame = _base_frame()
    corners = frame.corners
    if start_corner is not None:
        start_corner = tuple(start_corner)  # type: ignore[assignment]
        if start_corner not in corners:
            raise ValueError(f"{start_corner} is not a corner hex (B-SETUP-13); corners: {list(corners)}")
        corners = (start_corner,)
    failures = {c.name: 0 for c in cons}
    mode = tokens
    configs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    if tokens in ("auto", "spiral"):
        token_cons = [c for c in cons if c.depends_on == "tokens"]
        never = {c.name: 0 for c in token_cons}
        for d in frame.cells:
            for corner in corners:
                toks = _spiral_tokens(d, corner)
                terr = tuple(Terrain.DESERT if rc == d else Terrain.FOREST for rc in frame.cells)
                lay = Layout(terr, toks, frame.hex_neighbours, frame.node_hexes)
                bad = [c.name for c in token_cons if not c.check(lay)]
                for name in bad:
                    never[name] += 1
                if not bad:
                    configs.append((d, corner))
        if not configs:
            if tokens == "spiral":
                n_layouts = len(frame.cells) * len(corners)
                worst = max(never, key=lambda k: never[k])
                raise BoardConstraintError(
                    worst,
                    never,
                    0,
                    f"cannot hold with tokens by the spiral: it fails for {never[worst]} of the {n_layouts} "
                    f"(desert, corner) layouts and no layout meets every token constraint; use tokens='shuffle'",
                )
            mode = "shuffle"
        else:
            mode = "spiral"
    pool = [t for t, n in BASE_TERRAIN_COUNTS.items() for _ in range(n)]
    others = [t for t in pool if t is not Terrain.DESERT]
    for attempt in range(1, max_tries + 1):
        if mode == "spiral":
            desert, corner = configs[int(rng.random() * len(configs))]
            rest = list(others)
            rng.shuffle(rest)
            it = iter(rest)
            terrains = tuple(Terrain.DESERT if rc == desert else next(it) for rc in frame.cells)
            toks = _spiral_tokens(desert, corner)
            method = f"tokens by the spiral from corner {corner} (B-SETUP-12, B-SETUP-13)"
        else:
            terr_list = list(pool)
            rng.shuffle(terr_list)
            terrains = tuple(terr_list)
            letters = list(BASE_TOKEN_LETTERS)
            rng.shuffle(letters)
            it = iter(letters)
            toks = tuple(None if t is Terrain.DESERT else next(it) for t in terrains)
            method = "tokens shuffled onto the producing hexes (no spiral layout can meet the constraints)"
            if tokens == "shuffle":
                method = "tokens shuffled onto the producing hexes (tokens='shuffle')"
        lay = Layout(terrains, toks, frame.hex_neighbours, frame.node_hexes)
        ok = True
        for c in cons:
            if c.board_check is not None:
                continue  # checked on the finished board, only when every cheaper constraint holds
            if not c.check(lay):
                failures[c.name] += 1
                ok = False
        if ok:
            board = _build(frame, lay, rng, seed, cons, method, attempt, shuffle_harbours)
            bad = [c for c in cons if c.board_check is not None and not c.board_check(board)]
            for c in bad:
                failures[c.name] += 1
            if not bad:
                return board
    worst = max(failures, key=lambda k: failures[k])
    summary = ", ".join(f"{k} {v}" for k, v in sorted(failures.items(), key=lambda kv: -kv[1]))
    raise BoardConstraintError(
        worst,
        failures,
        max_tries,
        f"no board met every constraint in {max_tries} tries (seed {seed}, tokens {mode}); "
        f"failures per constraint: {summary}",
    )


def _build(frame: _Frame, lay: Layout, rng: random.Random, seed, cons, method, tries, shuffle_harbours) -> Board:
    types = list(HARBOUR_PROPOSAL_TYPES)
    if shuffle_harbours:
        rng.shuffle(types)
    harbours = [(rc, side, res) for (rc, side), res in zip(frame.harbour_positions, types)]
    tiles = [(r, c, t, tok) for (r, c), t, tok in zip(frame.cells, lay.terrains, lay.tokens)]
    desert = next(rc for rc, t in zip(frame.cells, lay.terrains) if t is Terrain.DESERT)  # B-SETUP-14
    names = ", ".join(c.name for c in cons) or "none"
    notes = [f"constraints: {names}", method, f"found after {tries} tries"]
    name = f"balanced-{seed}" if isinstance(seed, int) else "balanced"
    extra = {"description": f"balanced_board(seed={seed!r}): a variable-setup board meeting {names}", "notes": notes}
    return Board(name, BASE_ROWS, tiles, harbours, desert, extra=extra)


# ============================================================== exact chances of 6 and 8 side by side
@dataclass(frozen=True)
class RedAdjacency:
    """How often two red numbers (6 or 8) end up side by side, counted exactly.

    Attributes
    ----------
    method : str
        ``"random tokens"`` or ``"spiral"``.
    favourable, total : int
        Equally likely set-ups with some red pair side by side, and all set-ups counted.
    """

    method: str
    favourable: int
    total: int

    @property
    def probability(self) -> Fraction:
        """The exact chance (a fraction)."""
        return Fraction(self.favourable, self.total)

    def __repr__(self) -> str:
        return (f"<RedAdjacency {self.method}: {self.favourable}/{self.total} = "
                f"{float(self.probability):.4f}>")


def _red_sets(layout: str) -> tuple[list[tuple[int, int]], list[int], int, tuple[int, ...]]:
    """Adjacent hex pairs, the cells, the desert count and the token letters of a layout."""
    from ..board import LAYOUTS

    rows, terrain_counts, letters, _, _ = LAYOUTS[layout]
    cells = [(r, c) for r in range(1, len(rows) + 1) for c in range(1, rows[r - 1] + 1)]
    axial = {rc: hexgrid.offset_to_axial(rc[0], rc[1], rows) for rc in cells}
    index = {ax: i for i, ax in enumerate(axial[rc] for rc in cells)}
    pairs = sorted({tuple(sorted((index[axial[rc]], index[n]))) for rc in cells
                    for n in hexgrid.neighbours(axial[rc]) if n in index})
    deserts = dict(terrain_counts)[Terrain.DESERT]
    return pairs, cells, deserts, tuple(letters)


def red_adjacency_random_tokens(layout: str = "base") -> RedAdjacency:
    """The exact chance that a 6 or 8 sits next to another 6 or 8 when tokens are laid at random.

    Terrain is shuffled (the desert anywhere), then the tokens are shuffled over the other
    hexes (B-SETUP-9 without the spiral).  Only where the red tokens land matters: every
    choice of the desert hex(es) and of the hexes getting the red tokens is equally likely,
    and all of them are counted.

    Examples
    --------
    >>> r = red_adjacency_random_tokens()
    >>> r.total, r.favourable, round(float(r.probability), 3)
    (58140, 50160, 0.863)

    Notes
    -----
    19 desert positions times C(18, 4) sets of red hexes on the base island: 58,140 set-ups,
    enumerated in well under a second.
    """
    import itertools

    pairs, cells, deserts, letters = _red_sets(layout)
    n_red = sum(1 for t in letters if t in RED_NUMBERS)
    adjacent = set(pairs)
    favourable = total = 0
    n = len(cells)
    for desert in itertools.combinations(range(n), deserts):
        free = [i for i in range(n) if i not in desert]
        for reds in itertools.combinations(free, n_red):
            total += 1
            if any((a, b) in adjacent for a, b in itertools.combinations(reds, 2)):
                favourable += 1
    return RedAdjacency("random tokens", favourable, total)


def red_adjacency_spiral(layout: str = "base") -> RedAdjacency:
    """The exact chance that two red numbers touch when the tokens follow the lettered spiral.

    Terrain is shuffled (the desert anywhere), then the tokens are laid A, B, C... along the
    counter-clockwise spiral from a corner hex, skipping the desert (B-SETUP-11..13).  Every
    desert position and every one of the corner hexes are equally likely and counted.

    Examples
    --------
    >>> s = red_adjacency_spiral()
    >>> s.total, s.favourable
    (114, 0)
    """
    from ..board import LAYOUTS, lay_tokens

    rows, terrain_counts, letters, _, _ = LAYOUTS[layout]
    pairs, cells, deserts, _ = _red_sets(layout)
    axial = [hexgrid.offset_to_axial(r, c, rows) for r, c in cells]
    land = set(axial)
    corners = [cells[i] for i, ax in enumerate(axial) if sum(nb in land for nb in hexgrid.neighbours(ax)) == 3]
    import itertools

    favourable = total = 0
    for desert in itertools.combinations(range(len(cells)), deserts):
        terrain = {rc: (Terrain.DESERT if i in desert else Terrain.FOREST) for i, rc in enumerate(cells)}
        for corner in corners:
            tokens = lay_tokens(rows, terrain, letters, corner)
            red = {i for i, rc in enumerate(cells) if tokens.get(rc) in RED_NUMBERS}
            total += 1
            if any(a in red and b in red for a, b in pairs):
                favourable += 1
    return RedAdjacency("spiral", favourable, total)

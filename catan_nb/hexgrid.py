"""Pure hex geometry: axial coordinates, corners, sides and the token spiral.

Hexes are pointy-top (B-BOARD-1).  A hex is addressed by the rulebook's
``(row, col)`` (B-BOARD-2, both from 1) at the edges of the library and by
axial ``(q, r)`` inside it.  Corners (intersections) live on an integer
lattice ``(X, Y)`` where the plane point is ``(X * sqrt(3) / 2, Y / 2)``
in units of the hex circumradius, so corner identity is exact integer math,
never a pixel distance.

Examples
--------
>>> rows = (3, 4, 5, 4, 3)
>>> offset_to_axial(1, 1, rows)
(-1, 0)
>>> axial_to_offset((-1, 0), rows)
(1, 1)
>>> sorted(hex_corners((0, 0)).items())[:2]
[('N', (0, 2)), ('NE', (1, 1))]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = [
    "Axial",
    "Corner",
    "CORNER_NAMES",
    "SIDE_NAMES",
    "SIDE_CORNERS",
    "NEIGHBOUR_STEPS",
    "offset_to_axial",
    "axial_to_offset",
    "hex_centre",
    "hex_corners",
    "corner_of",
    "side_of",
    "neighbours",
    "to_plane",
    "spiral",
]

Axial = tuple[int, int]
Corner = tuple[int, int]

#: Corner names clockwise from the top, with their lattice offsets from the centre.
CORNER_OFFSETS: dict[str, Corner] = {
    "N": (0, 2),
    "NE": (1, 1),
    "SE": (1, -1),
    "S": (0, -2),
    "SW": (-1, -1),
    "NW": (-1, 1),
}
CORNER_NAMES: tuple[str, ...] = tuple(CORNER_OFFSETS)

#: Side names clockwise from the upper right, each with its two end corners.
SIDE_CORNERS: dict[str, tuple[str, str]] = {
    "NE": ("N", "NE"),
    "E": ("NE", "SE"),
    "SE": ("SE", "S"),
    "SW": ("S", "SW"),
    "W": ("SW", "NW"),
    "NW": ("NW", "N"),
}
SIDE_NAMES: tuple[str, ...] = tuple(SIDE_CORNERS)

#: Axial step to the neighbour across each side (r grows downwards, row by row).
NEIGHBOUR_STEPS: dict[str, Axial] = {
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (0, -1),
}


def offset_to_axial(row: int, col: int, row_lengths: Sequence[int], indents: Sequence[int] | None = None) -> Axial:
    """Axial coordinates of the rulebook hex ``(row, col)``.

    By default rows are centred on one another, so each row is half a hex wider or
    narrower than its neighbour: the B-BOARD-2 rule.  ``indents`` gives, for maps of
    another shape (a Seafarers sea frame, a scenario board), the position of each
    row's first hex in half-hex steps (its doubled x; the centred default of a row
    of length ``L`` is ``1 - L``); consecutive rows must differ by an odd number.

    Raises
    ------
    ValueError
        If ``(row, col)`` lies outside the rows, or the rows do not fit a hex grid.

    Examples
    --------
    >>> offset_to_axial(2, 1, (3, 3, 3), indents=(0, 1, 0))
    (0, 1)
    """
    if not 1 <= row <= len(row_lengths):
        raise ValueError(f"row {row} is outside 1..{len(row_lengths)}")
    length = row_lengths[row - 1]
    if not 1 <= col <= length:
        raise ValueError(f"col {col} is outside 1..{length} in row {row}")
    r = row - 1
    first = (1 - length) if indents is None else indents[r]
    doubled_x = first + 2 * (col - 1)
    if (doubled_x - r) % 2:
        if indents is None:
            raise ValueError(f"row lengths {tuple(row_lengths)} are not centred rows of a hex board")
        raise ValueError(f"row {row}'s indent {indents[r]} does not fit a hex grid (rows alternate odd and even indents)")
    return ((doubled_x - r) // 2, r)


def axial_to_offset(hx: Axial, row_lengths: Sequence[int], indents: Sequence[int] | None = None) -> tuple[int, int]:
    """Inverse of :func:`offset_to_axial`."""
    q, r = hx
    length = row_lengths[r]
    first = (1 - length) if indents is None else indents[r]
    doubled_x = 2 * q + r
    return (r + 1, (doubled_x - first) // 2 + 1)


def hex_centre(hx: Axial) -> Corner:
    """Lattice coordinates of a hex centre."""
    q, r = hx
    return (2 * q + r, -3 * r)


def hex_corners(hx: Axial) -> dict[str, Corner]:
    """The six corners of a hex by name (``"N"``, ``"NE"``, ...)."""
    cx, cy = hex_centre(hx)
    return {name: (cx + dx, cy + dy) for name, (dx, dy) in CORNER_OFFSETS.items()}


def corner_of(hx: Axial, name: str) -> Corner:
    """One named corner of a hex."""
    try:
        dx, dy = CORNER_OFFSETS[name]
    except KeyError:
        raise ValueError(f"unknown corner {name!r}; expected one of {', '.join(CORNER_NAMES)}") from None
    cx, cy = hex_centre(hx)
    return (cx + dx, cy + dy)


def side_of(hx: Axial, name: str) -> tuple[Corner, Corner]:
    """The two end corners of a named side of a hex, in canonical (sorted) order."""
    try:
        a, b = SIDE_CORNERS[name]
    except KeyError:
        raise ValueError(f"unknown side {name!r}; expected one of {', '.join(SIDE_NAMES)}") from None
    pair = sorted((corner_of(hx, a), corner_of(hx, b)))
    return (pair[0], pair[1])


def neighbours(hx: Axial) -> list[Axial]:
    """The six axial neighbours of a hex, clockwise from the upper right."""
    q, r = hx
    return [(q + dq, r + dr) for dq, dr in NEIGHBOUR_STEPS.values()]


def to_plane(point: Corner) -> tuple[float, float]:
    """Plane coordinates (north up) of a lattice point, in hex circumradius units."""
    return (point[0] * math.sqrt(3) / 2, point[1] / 2)


def spiral(hexes: Iterable[Axial], start: Axial) -> list[Axial]:
    """Order hexes along the counter-clockwise token spiral (B-SETUP-13, X56-BOARD-5).

    The outer ring is walked counter-clockwise (seen from above, north up) from
    ``start``; each inner ring starts at the hex next to the previous ring's
    start and is walked counter-clockwise too; the centre comes last.

    Examples
    --------
    >>> rows = (3, 4, 5, 4, 3)
    >>> land = [offset_to_axial(r, c, rows) for r in range(1, 6) for c in range(1, rows[r - 1] + 1)]
    >>> order = spiral(land, offset_to_axial(1, 1, rows))
    >>> [axial_to_offset(h, rows) for h in order][:5]
    [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]
    """
    remaining = set(hexes)
    if start not in remaining:
        raise ValueError(f"start hex {start} is not on the board")
    order: list[Axial] = []
    ring_start = start
    while remaining:
        ring = [h for h in remaining if sum(n in remaining for n in neighbours(h)) < 6]
        cx = sum(to_plane(hex_centre(h))[0] for h in remaining) / len(remaining)
        cy = sum(to_plane(hex_centre(h))[1] for h in remaining) / len(remaining)

        def angle(h: Axial) -> float:
            x, y = to_plane(hex_centre(h))
            return math.atan2(y - cy, x - cx)

        if ring_start not in ring:
            raise ValueError(f"spiral start {ring_start} is not on the outer ring")
        a0 = angle(ring_start)
        # Counter-clockwise = increasing angle, measured from the ring's start.
        ring.sort(key=lambda h: ((angle(h) - a0) % (2 * math.pi), h))
        order.extend(ring)
        remaining.difference_update(ring)
        if remaining:
            inner = [n for n in neighbours(ring_start) if n in remaining]
            if not inner:  # a ring start with no inner neighbour: use the nearest inner hex
                inner = sorted(remaining, key=lambda h: _distance(h, ring_start))
            else:
                inner.sort(key=lambda h: ((angle(h) - a0) % (2 * math.pi), h))
            ring_start = inner[0]
    return order


def _distance(a: Axial, b: Axial) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

"""Seafarers analysis: what a fog hex is worth before it is revealed, and what a gold field adds.

Exact values as :class:`fractions.Fraction`.  The fog stack's *composition* is public (the
scenario lists it; only its order is hidden), so the expected value of the next revealed hex is
an average over the tiles not yet turned over — and it changes as tiles are revealed
(conditional probability without replacement).

Examples
--------
>>> from catan_nb import Board
>>> from catan_nb.rules.modules.fog import FOG_ISLANDS
>>> board = Board.load(FOG_ISLANDS)
>>> odds = fog_odds(board)
>>> sum(odds.values())
Fraction(1, 1)
>>> fog_expected_cards(board)          # one fog hex's expected cards per roll for a settlement on it
Fraction(13, 144)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

from ..constants import Terrain, pips

__all__ = ["fog_tiles", "fog_odds", "fog_expected_cards", "fog_resource_odds", "gold_intersection_value",
           "resource_name"]


def fog_tiles(source) -> list[tuple[Terrain, int | None]]:
    """The scenario's fog stack (terrain, token) of a board, or of a game minus the tiles revealed."""
    board = getattr(source, "board", source)
    tiles = [(Terrain.parse(t), k) for t, k in board.scenario.get("fog", [])]
    fog = getattr(source, "ext", {}).get("fog")
    if fog is not None:
        for _hx, t, k in fog["revealed"]:
            tiles.remove((Terrain.parse(t), k))
    return tiles


def fog_odds(source, revealed: Iterable[tuple[str | Terrain, int | None]] = ()) -> dict[tuple[Terrain, int | None], Fraction]:
    """P(the next fog hex is each tile), given the tiles already revealed (``revealed`` for a board)."""
    tiles = fog_tiles(source)
    for t, k in revealed:
        tiles.remove((Terrain.parse(t), k))
    if not tiles:
        return {}
    counts = Counter(tiles)
    return {tile: Fraction(c, len(tiles)) for tile, c in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), kv[0][1] or 0))}


def fog_expected_cards(source, revealed: Sequence[tuple[str | Terrain, int | None]] = ()) -> Fraction:
    """Expected cards per roll that the next revealed fog hex gives a settlement on it (SF-3)."""
    return sum((p * Fraction(pips(k), 36) for (t, k), p in fog_odds(source, revealed).items()
                if k and (t.resource is not None or t is Terrain.GOLD)), Fraction(0))


def fog_resource_odds(source, revealed: Sequence[tuple[str | Terrain, int | None]] = ()) -> dict[str, Fraction]:
    """P(the next fog hex produces each resource), by resource name ("nothing" for a desert)."""
    out: dict[str, Fraction] = {}
    for (t, _k), p in fog_odds(source, revealed).items():
        name = resource_name(t)
        out[name] = out.get(name, Fraction(0)) + p
    return out


def resource_name(terrain: Terrain | str) -> str:
    """What a revealed tile of ``terrain`` produces, by name: its resource, ``"gold (any)"`` for a gold
    field (SF-1: a pick of the player's choice) or ``"nothing"`` (a desert).

    Examples
    --------
    >>> resource_name("forest"), resource_name(Terrain.GOLD), resource_name("desert")
    ('lumber', 'gold (any)', 'nothing')
    """
    t = Terrain.parse(terrain)
    return str(t.resource) if t.resource is not None else ("gold (any)" if t is Terrain.GOLD else "nothing")


def gold_intersection_value(board, node: int, *, want: str | None = None) -> dict[str, Fraction]:
    """Expected cards per roll of a settlement on ``node``: from each resource, and from gold.

    A gold field's card is one the player chooses, so it can be counted as the resource the player
    needs most: with ``want``, the gold is added to that resource.

    Examples
    --------
    >>> from catan_nb import Board
    >>> from catan_nb.rules.modules.gold_fields import gold_board
    >>> b = gold_board(Board.beginner(), 4)
    >>> v = gold_intersection_value(b, b.topology.hex_nodes[4][0], want="ore")
    >>> v["gold"], v["ore"] >= v["gold"]
    (Fraction(5, 36), True)
    """
    t = board.topology
    out: dict[str, Fraction] = {}
    for hx in t.node_hexes[node]:
        terrain, token = board.hexes[hx].terrain, board.hexes[hx].token
        if not token:
            continue
        p = Fraction(pips(token), 36)
        if terrain is Terrain.GOLD:
            out["gold"] = out.get("gold", Fraction(0)) + p
        elif terrain.resource is not None:
            name = str(terrain.resource)
            out[name] = out.get(name, Fraction(0)) + p
    if want is not None and "gold" in out:
        out[want] = out.get(want, Fraction(0)) + out["gold"]
    return out

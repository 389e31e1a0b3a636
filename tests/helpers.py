"""Helpers that build test positions from board files and action lists."""

from __future__ import annotations

import os
import subprocess
import sys

from catan_nb import Board, Game, Resource
from catan_nb.rules import BuildRoad, BuildSettlement

RES = {r.name.lower(): r for r in Resource}


def deal(game: Game, player: int, **cards: int) -> None:
    """Move cards from the bank to a player's hand (keeps the 95-card total)."""
    game.deal(player, {RES[name]: k for name, k in cards.items()})


def empty_hands(game: Game) -> None:
    """Return every card in every hand to the bank."""
    for h in game.hands:
        for r in range(5):
            game.bank[r] += h[r]
            h[r] = 0


def node(board: Board, row: int, col: int, corner: str) -> int:
    """Intersection id at a named corner of rulebook hex (row, col)."""
    return board.node_at((row, col), corner)


def path(board: Board, row: int, col: int, side: str) -> int:
    """Path id along a named side of rulebook hex (row, col)."""
    return board.path_on((row, col), side)


def found(game: Game, placements: list[tuple[int, int]]) -> None:
    """Play the founding phase: one (settlement node, road path) per step in snake order."""
    for v, e in placements:
        game.play(BuildSettlement(v))
        game.play(BuildRoad(e))


def json_paths(data, prefix=(), first: int | None = None):
    """Every (JSON path as a tuple of keys and indexes, value) in a document; with ``first``, only
    the first items of each list (they stand for the rest)."""
    yield prefix, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from json_paths(v, (*prefix, k), first)
    elif isinstance(data, list):
        for i, v in enumerate(data[:first]):
            yield from json_paths(v, (*prefix, i), first)


def with_modules(board: Board, *modules: str) -> Board:
    """``board`` as though its file named only ``modules`` (SF-13: a scenario board plays the modules
    its file names), to test one part of a scenario alone: the fog without the treasure."""
    data = board.to_dict()
    data["scenario"] = {**data.get("scenario", {}), "modules": list(modules)}
    return Board.from_dict(data, source=f"{board.source} (modules {list(modules)})")


def run_python(code: str, timeout: int = 600, **env: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a new interpreter that imports this checkout (``env``: variables set for it);
    its completed process, output captured as text."""
    # not the benchmarks folder, which a test may have put on this process's path: its copy.py would stand in for
    # the standard library's
    bench = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, "benchmarks"))
    path = [p for p in [os.getcwd(), *sys.path] if os.path.abspath(p or ".") != bench]
    full = dict(os.environ, PYTHONPATH=os.pathsep.join(path), **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=timeout)

"""Harbour Master (RULES.md SF-14), a Seafarers element, as a rule module.

A settlement next to a harbour scores 1 harbour point and a city 2.  The first player to reach
3 harbour points takes the Harbour Master title, worth 2 special victory points; it passes to
anyone who then has strictly more harbour points than its holder.

State in ``game.ext["harbour_master"]``: ``{"holder": seat or None}``.  Points are counted from the
board (:func:`harbour_points`), never cached, so a recount always agrees.

DECISION (the spec is silent): if the holder ever falls below 3 points (a city lost in Cities &
Knights), the title goes to the single player with the most points if that is 3 or more, else to
nobody, as the Longest Road does when a road is broken (B-LR-6).

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> g = Game(Board.beginner(), seed=1, start="beginner", rules=Rules(modules=("harbour_master",)))
>>> [harbour_points(g, p) for p in range(4)], holder(g)
([0, 0, 0, 0], None)
"""

from __future__ import annotations

from . import Module, register

__all__ = ["HarbourMaster", "harbour_points", "holder", "NAME", "THRESHOLD", "TITLE_VP"]

NAME = "harbour_master"
#: SF-14: harbour points needed to take the title, and what it is worth.
THRESHOLD = 3
TITLE_VP = 2


def harbour_points(game, player: int) -> int:
    """SF-14: 1 per settlement and 2 per city of ``player`` on a harbour intersection."""
    t = game.topology
    owner, kind, kinds = game.node_owner, game.node_kind, game.kinds
    points = 0
    for v, h in enumerate(t.node_harbour):
        if h is not None and owner[v] == player:
            pk = kinds[kind[v]]
            if pk is not None and pk.building:
                points += pk.produces  # a settlement collects 1, a city 2: the same count (SF-14)
    return points


def holder(game) -> int | None:
    """The seat holding the Harbour Master title, or ``None``."""
    return game.ext[NAME]["holder"]


def _recount(game, claimant: int | None) -> None:
    state = game.ext[NAME]
    h = state["holder"]
    if h is not None and harbour_points(game, h) < THRESHOLD:  # DECISION above
        points = [harbour_points(game, q) for q in range(game.n)]
        best = max(points)
        state["holder"] = points.index(best) if best >= THRESHOLD and points.count(best) == 1 else None
        return
    if claimant is None:
        return
    mine = harbour_points(game, claimant)
    if h is None:
        if mine >= THRESHOLD:
            state["holder"] = claimant
    elif claimant != h and mine > harbour_points(game, h):
        state["holder"] = claimant


@register
class HarbourMaster(Module):
    """SF-14: the Harbour Master title (2 VP) for the first to 3 harbour points, passed on strictly more."""

    name = NAME

    def init(self, game) -> None:
        game.ext[NAME] = {"holder": None}

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        pk = game.kinds[game.kind_id[kind]]
        if pk.site == "node" and game.topology.node_harbour[site] is not None:
            _recount(game, player)

    def on_remove(self, game, player: int, kind: str, site: int) -> None:
        pk = game.kinds[game.kind_id[kind]]
        if pk.site == "node" and game.topology.node_harbour[site] is not None:
            _recount(game, None)

    def vp(self, game, player: int, visible: bool) -> int:
        return TITLE_VP if game.ext[NAME]["holder"] == player else 0

    def view(self, game, player: int) -> dict:
        return {"holder": game.ext[NAME]["holder"], "points": [harbour_points(game, q) for q in range(game.n)]}

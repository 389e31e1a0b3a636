"""Production (RULES.md section 4): a built-in module of the base game.

On any roll but 7 every settlement and city collects from the hexes showing the
number (B-PROD-1..8), within what the bank holds (B-COMP-14); the robber's hex
produces nothing (B-ROB-10).  What each piece collects from each terrain is a
table modules change through their ``yields`` hook (CK-COM-2); the engine keeps
it indexed (:meth:`~catan_nb.rules.Game.produce`).
"""

from __future__ import annotations

from . import Module, register

__all__ = ["Production"]


@register
class Production(Module):
    """B-PROD-*: collect on every number but 7."""

    name = "production"
    builtin = True
    vp_actions = ()  # production never changes VP

    def resolve_roll(self, game, total: int) -> None:
        if total != 7:
            game.produce(total)

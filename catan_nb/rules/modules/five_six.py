"""The 5-6 player extension (RULES.md section 11, X56-*).

Component counts (X56-COMP-1..3): 24 cards of each resource, 34 development
cards (20 knights, 3 of each progress card, 5 VP).  The 30-hex island is a board
file (``Board.five_six()`` or ``Board.random(layout="five_six")``).

Special Building Phase (X56-SBP-1..8): after the active player ends the turn,
every other player in turn order from the left may build and buy (no trades, no
development cards, no favours or helpers), then passes with
:class:`EndSpecialBuild`.  Each of them is a decision on the stack; the next turn
begins when the last has passed.  The active player does not take part.  Wins are
still checked only for the active player (B-END-5, X56-SBP-7); a development card
bought here is playable from the buyer's next own turn (X56-SBP-6).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...constants import X56_BANK_PER_RESOURCE, X56_DEV_DECK, Resource
from ...errors import IllegalActionError
from ..actions import Action
from ..phase import Phase
from . import Module, register

__all__ = ["FiveSix", "EndSpecialBuild", "SPECIAL_BUILD"]

#: X56-SBP-2: a player other than the active one may build and buy.
SPECIAL_BUILD = Phase.register(
    "special_build", "{player} may build in the Special Building Phase", builds=True, owner="five_six"
)


@dataclass(frozen=True, slots=True)
class EndSpecialBuild(Action):
    """The current player is done in the Special Building Phase (X56-SBP-2: any player may pass)."""


def _check_end_sbp(game, action: EndSpecialBuild) -> None:
    if game.phase is not SPECIAL_BUILD:
        raise IllegalActionError("X56-SBP-2", f"there is no Special Building Phase now (phase {game.phase.value})", action)


def _apply_end_sbp(game, action: EndSpecialBuild) -> None:
    game.log.append(action)
    game.pop()


_END = EndSpecialBuild()


@register
class FiveSix(Module):
    """X56-*: components for 5-6 players and the Special Building Phase."""

    name = "five_six"
    legal_in = ("special_build",)
    players = (5, 6)
    implied_by_players = (5, 6)  # X56-GEN-1
    vp_actions = (EndSpecialBuild,)  # the last pass begins the next turn (X56-SBP-7)
    actions = {EndSpecialBuild: (_check_end_sbp, _apply_end_sbp)}

    def components(self, game, comps: dict) -> None:
        # X56-COMP-2, X56-COMP-3
        for g in comps["bank"]:
            if isinstance(g, Resource):
                comps["bank"][g] = X56_BANK_PER_RESOURCE
        comps["deck"] = dict(X56_DEV_DECK)

    def init(self, game) -> None:
        land = sum(t.is_land for t in game.board.hexes)
        if not game.board.scenario and land != 30:
            raise ValueError(
                f"X56-BOARD-2: a 5-6 player game needs the 30-hex island, not {land} hexes "
                "(use Board.five_six() or Board.random(layout='five_six'))"
            )

    def on_end_turn(self, game) -> None:
        # X56-SBP-1, X56-SBP-2, X56-SBP-4: the others, clockwise from the left; not the active player.
        n, p = game.n, game.active_player
        for i in reversed(range(1, n)):
            game.push(SPECIAL_BUILD, (p + i) % n)

    def legal(self, game, out: list) -> None:
        if game.phase is SPECIAL_BUILD:
            game.legal_builds(game.current_player, out)  # X56-SBP-3: no trades, no development cards
            out.append(_END)

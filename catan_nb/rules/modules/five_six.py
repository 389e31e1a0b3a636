"""The 5-6 player extension (RULES.md section 11, X56-*).

Component counts (X56-COMP-1..3): 24 cards of each resource, 34 development
cards (20 knights, 3 of each progress card, 5 VP).  The 30-hex island is a board
file (``Board.five_six()`` or ``Board.random(layout="five_six")``).

Special Building Phase (X56-SBP-1..8): after the active player ends the turn,
every other player in turn order from the left may build and buy (no trades, no
development cards, no favours or helpers), then passes with
:class:`EndSpecialBuild`.  The active player does not take part.  Wins are still
checked only for the active player (B-END-5, X56-SBP-7); a development card
bought here is playable from the buyer's next own turn (X56-SBP-6).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...constants import X56_BANK_PER_RESOURCE, X56_DEV_DECK
from ..actions import Action
from ..phase import Phase
from . import Module, register

__all__ = ["FiveSix", "EndSpecialBuild"]


@dataclass(frozen=True, slots=True)
class EndSpecialBuild(Action):
    """The current player is done in the Special Building Phase (X56-SBP-2: any player may pass)."""


def _check_end_sbp(game, action: EndSpecialBuild) -> None:
    if game.phase is not Phase.SPECIAL_BUILD:
        game._fail("X56-SBP-2", f"there is no Special Building Phase now (phase {game.phase.value})", action)


def _apply_end_sbp(game, action: EndSpecialBuild) -> None:
    game.log.append(action)
    _advance(game)


def _advance(game) -> None:
    queue = game.ext["five_six"]["sbp_queue"]
    if queue:
        game.current = queue.pop(0)
        return
    game.next_turn()


_END = EndSpecialBuild()


@register
class FiveSix(Module):
    """X56-*: components for 5-6 players and the Special Building Phase."""

    name = "five_six"
    players = (5, 6)
    actions = {EndSpecialBuild: (_check_end_sbp, _apply_end_sbp)}

    build_phases = (Phase.SPECIAL_BUILD,)  # X56-SBP-2: builds and purchases are allowed in the SBP

    def components(self, bank_per_resource, deck):
        # X56-COMP-2, X56-COMP-3
        return X56_BANK_PER_RESOURCE, dict(X56_DEV_DECK)

    def init(self, game) -> None:
        if len(game.board.hexes) != 30:
            raise ValueError(
                f"X56-BOARD-2: a 5-6 player game needs the 30-hex island, not {len(game.board.hexes)} hexes "
                "(use Board.five_six() or Board.random(layout='five_six'))"
            )
        game.ext["five_six"] = {"sbp_queue": []}

    def on_end_turn(self, game) -> bool:
        # X56-SBP-1, X56-SBP-2, X56-SBP-4: the others, clockwise from the left; not the active player.
        game.ext["five_six"]["sbp_queue"] = [(game.active + i) % game.n for i in range(1, game.n)]
        game.phase = Phase.SPECIAL_BUILD
        _advance(game)
        return True

    def legal(self, game, out: list) -> None:
        if game.phase is Phase.SPECIAL_BUILD:
            game._legal_builds(game.current, out)  # X56-SBP-3: no trades, no development cards
            out.append(_END)

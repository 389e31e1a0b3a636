"""Game phases: what the engine is waiting for."""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """What the game is waiting for."""

    FOUNDING_SETTLEMENT = "founding_settlement"
    FOUNDING_ROAD = "founding_road"
    ROLL = "roll"
    DISCARD = "discard"
    MOVE_ROBBER = "move_robber"
    MAIN = "main"
    ROAD_BUILDING = "road_building"
    TRADE_RESPONSE = "trade_response"
    TRADE_CONFIRM = "trade_confirm"
    SPECIAL_BUILD = "special_build"  # X56-SBP
    GIFT_RESPONSE = "gift_response"  # F-EARN-4
    FAVOUR_EXCHANGE = "favour_exchange"  # F-USE-6
    HELPER_REACTION = "helper_reaction"  # H-USE-9
    HELPER_AFTER_USE = "helper_after_use"  # H-USE-2, H-USE-3
    ARCHITECT_CHOICE = "architect_choice"  # H-CARD-9
    GAME_OVER = "game_over"

    def __repr__(self) -> str:
        return f"<Phase.{self.name}: {self.value!r}>"

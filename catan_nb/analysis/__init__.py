"""Analysis on top of the engine: bots and simulation (probability and placement come later)."""

from .bots import Bot, RandomBot, WeightedBot, accepts_offer, play_game

__all__ = ["Bot", "RandomBot", "WeightedBot", "accepts_offer", "play_game"]

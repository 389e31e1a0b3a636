"""Simple bots to drive simulations and tests.

A bot is any object with ``choose(game) -> Action`` that returns one of
``game.legal_actions()`` for ``game.current_player``.  All randomness comes from
the seed passed in.

Examples
--------
>>> from catan_nb import Board, Game
>>> game = Game(Board.random(seed=2), players=4, seed=2)
>>> game = play_game(game, [RandomBot(seed=s) for s in range(4)])
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..rules import (
    AcceptTrade,
    Action,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    ConfirmTrade,
    DeclineTrade,
    EndTurn,
    Game,
    MaritimeTrade,
    Phase,
)

__all__ = ["Bot", "RandomBot", "WeightedBot", "accepts_offer", "play_game", "bot_for_level", "BOT_LEVELS"]


class Bot(Protocol):
    """Anything that picks a legal action for the game's current player."""

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Uniformly random over the legal actions (domestic offers excluded).

    Parameters
    ----------
    seed : int or random.Random
        Seed of the bot's own generator.
    offers : bool
        Also consider one-for-one domestic offers.
    """

    def __init__(self, seed: int | random.Random | None = 0, *, offers: bool = False):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.offers = offers

    def choose(self, game: Game) -> Action:
        acts = game.legal_actions(offers=self.offers)
        return acts[int(self.rng.random() * len(acts))]

    def __repr__(self) -> str:
        return "RandomBot()"


class WeightedBot:
    """Random, but prefers building: weights per action kind.

    Default weights: city 20, settlement 15, development card 4, road 3,
    ending the turn 1, maritime trade 1, everything else 1; the rule modules' purchases as their
    bot features declare (``preferences`` in :mod:`~catan_nb.analysis.bot_features`: a city
    improvement 15, a ship 3...), unless ``weights`` names them.
    """

    DEFAULT_WEIGHTS: dict[type, float] = {
        BuildCity: 20.0,
        BuildSettlement: 15.0,
        BuyDevelopmentCard: 4.0,
        BuildRoad: 3.0,
        EndTurn: 1.0,
        MaritimeTrade: 1.0,
    }

    def __init__(self, seed: int | random.Random | None = 0, weights: dict[type, float] | None = None):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.weights = dict(self.DEFAULT_WEIGHTS if weights is None else weights)

    def choose(self, game: Game) -> Action:
        acts = game.legal_actions()
        if game.phase is Phase.TRADE_RESPONSE:
            return AcceptTrade() if AcceptTrade() in acts and accepts_offer(game) else DeclineTrade()
        if game.phase is Phase.TRADE_CONFIRM:
            return next(a for a in acts if isinstance(a, ConfirmTrade))
        weights = self._for(game)
        w = [weights.get(type(a), 1.0) for a in acts]
        return self.rng.choices(acts, weights=w, k=1)[0]

    def _for(self, game: Game) -> dict[type, float]:
        """The weights in ``game``: the modules' preferences, then the bot's own on top."""
        from .bot_features import features_for

        mods = features_for(game)
        if not mods:
            return self.weights
        memo = self.__dict__.setdefault("_memo", {})
        hit = memo.get(mods)
        if hit is None:
            hit = memo[mods] = {}
            for m in mods:
                hit.update(m.preferences)
            hit.update(self.weights)
        return hit

    def __repr__(self) -> str:
        return "WeightedBot()"


def accepts_offer(game: Game) -> bool:
    """A simple rule for answering a domestic offer (the responder is ``game.current_player``).

    Accept when the responder receives at least as many cards as it gives and
    does not give away its last card of any resource.
    """
    give_by_offerer, get_by_offerer = game.trade_offer  # type: ignore[misc]
    hand = game.hands[game.current_player]
    if sum(give_by_offerer) < sum(get_by_offerer):
        return False
    return all(hand[r] > k for r, k in enumerate(get_by_offerer) if k)


def play_game(game: Game, bots: Sequence[Bot], *, max_turns: int | None = None, checked: bool = False) -> Game:
    """Let ``bots`` (one per seat) play ``game`` until it ends or ``max_turns`` turns have begun.

    ``checked=True`` applies each action through :meth:`Game.play` (slower; raises on a bug).
    """
    step = game.play if checked else game.apply
    while not game.is_over and (max_turns is None or game.turn <= max_turns):
        step(bots[game.current_player].choose(game))
    return game


#: Bot difficulty levels of the game table: level -> (description, how to build one from a seed).
BOT_LEVELS: dict[str, tuple[str, object]] = {}


def _levels() -> dict:
    if not BOT_LEVELS:
        from .search_bot import SearchBot
        from .value_bot import ValueBot

        BOT_LEVELS.update({
            "easy": ("weighted random: prefers building, no plan", lambda seed: WeightedBot(seed=seed)),
            "medium": ("value bot: greedy over production, spots, races and hand", lambda seed: ValueBot(seed=seed)),
            "hard": ("search bot: ISMCTS, at most 1 s a move", lambda seed: SearchBot(seed=seed, seconds=1.0)),
        })
    return BOT_LEVELS


def bot_for_level(level: str, seed: int):
    """A bot of a difficulty level (``"easy"``, ``"medium"``, ``"hard"``), seeded.

    Examples
    --------
    >>> type(bot_for_level("medium", 1)).__name__
    'ValueBot'
    """
    levels = _levels()
    if level not in levels:
        raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(levels)}")
    return levels[level][1](seed)

"""The Catan Dice Game, normal and Plus (RULES.md section 12), beside the board game.

``constants`` (faces, costs, limits) -> ``sheet`` (sheet files, networkx graph)
-> ``actions`` -> ``game`` (the engine) -> ``odds`` (exact probabilities) ->
``policies`` (simple players, simulation).  Nothing here imports plotly or
ipywidgets: the figure lives in :mod:`catan_nb.viz.dice_sheet` and the table in
:mod:`catan_nb.widgets.dice_table`.

Examples
--------
>>> from catan_nb.dicegame import DiceGame, Roll, Kind, reach_probability
>>> game = DiceGame(players=1, seed=1)
>>> game.play(Roll())
>>> round(float(reach_probability(Kind.ROAD)), 3)   # a road within three rolls, from a fresh turn
0.978
"""

from .actions import (
    Build,
    DiceAction,
    EndTurn,
    Roll,
    Stop,
    Swap,
    TradeGold,
    action_from_json,
    action_to_json,
)
from .constants import COSTS, FACES, Face, Kind, Variant
from .game import DiceGame, DicePhase
from .odds import (
    KeepAdvice,
    best_keep,
    best_keep_table,
    keep_probability,
    reach_probability,
    target_cost,
)
from .policies import (
    Estimate,
    GreedyStopPolicy,
    RandomKeepPolicy,
    TargetPolicy,
    exact_expected_score,
    play_dice_game,
    simulate_solitaire,
)
from .sheet import DiceSheet, KnightSwap, SheetHex, Structure

__all__ = [
    "DiceGame",
    "DicePhase",
    "DiceSheet",
    "Structure",
    "KnightSwap",
    "SheetHex",
    "Face",
    "Kind",
    "Variant",
    "COSTS",
    "FACES",
    "DiceAction",
    "Roll",
    "Stop",
    "Build",
    "Swap",
    "TradeGold",
    "EndTurn",
    "action_to_json",
    "action_from_json",
    "KeepAdvice",
    "target_cost",
    "reach_probability",
    "keep_probability",
    "best_keep",
    "best_keep_table",
    "TargetPolicy",
    "GreedyStopPolicy",
    "RandomKeepPolicy",
    "play_dice_game",
    "simulate_solitaire",
    "exact_expected_score",
    "Estimate",
]

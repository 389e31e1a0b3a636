"""The rules engine: state, actions, legal actions and their application."""

from ..reference import describe
from .actions import *  # noqa: F401,F403
from .actions import __all__ as _actions_all
from .game import SAVE_FORMAT, Decision, Game, Phase, PlayerView, Rules
from .game_codec import SAVE_VERSION, PartialLoad, PartialLoadWarning
from .longest_road import longest_trail
from .pieces import PIECES, PieceKind
from .rules_version import RULES_VERSION

__all__ = [*_actions_all, "Game", "Phase", "Decision", "PlayerView", "Rules", "SAVE_FORMAT", "SAVE_VERSION",
           "RULES_VERSION", "PartialLoad", "PartialLoadWarning", "longest_trail", "PieceKind", "PIECES", "describe"]

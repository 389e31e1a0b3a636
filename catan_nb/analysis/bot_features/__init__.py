"""What each rule module adds to the bots' judgement: features declared per module.

The value bot (:mod:`catan_nb.analysis.value_bot`) scores a position by the base game's
features and by those of every rule module the game uses.  A module's way to win is declared
here, in a class registered under the module's name (the same pattern as the board figure's
layers and the table's panels), so the bot itself names no module:

>>> from catan_nb.analysis.bot_features import ModuleFeatures, register_features, features_for
>>> @register_features("doc_example")
... class Example(ModuleFeatures):
...     weights = {"example": 1.0}
>>> FEATURES["doc_example"].weights
{'example': 1.0}

A :class:`ModuleFeatures` subclass may declare

* ``weights``: the value bot's default weight of each feature it adds (merged into the bot's
  weights; a bot's own ``weights`` replace them);
* ``search_weights``: weights only the search bot (:class:`~catan_nb.analysis.search_bot.SearchBot`)
  adds, for features whose worth shows in a whole turn's plan rather than in one greedy move (a
  Catan token a few roads away); :func:`search_weights` merges every module's;
* ``value_moves``: action types the search bot leaves to the value bot: when the value bot's best
  move is one of them, the search bot plays it without a search (a helper's use: searched, the
  rollouts' noise hid what the value bot's estimate sees); :func:`value_moves` gathers a game's;
* ``offers_a_turn``: how many domestic offers the search bot may make in a turn (default 1, the
  value bot's one-for-one); a second comes when the bot is still one card short of a city or a
  settlement (five or six players: :func:`offers_a_turn` gives a game's);
* ``founding_weights``: weights the search bot uses instead of its own when it places its founding
  settlements and roads (B-SETUP-17): with five or six players, more for each resource collected at
  all (:func:`founding_weights` merges a game's);
* ``placement_weights``: where the module changes what a founding spot is worth, the weights of the
  placement score (:class:`~catan_nb.analysis.placement.PlacementWeights` fields) it changes;
  :func:`~catan_nb.analysis.placement.placement_weights` merges a game's;
* ``preferences``: how much :class:`~catan_nb.analysis.bots.WeightedBot` prefers each of the
  module's action types (its purchases are building too);
* ``lookahead``: action types whose worth shows only with the next action of the same turn
  (a card that lowers a price or a rate): the value bot scores them by their best follow-up;
* ``reach``: how many path pieces ahead the bot looks for settlement spots and targets (ships
  toward foreign islands need more than the base game's two roads);

and may override

* :meth:`~ModuleFeatures.features`: the module's features of a position for a player;
* :meth:`~ModuleFeatures.hex_yield`: what a hex the base game cannot price yields (a gold field,
  a fog hex worth its expected value from the hidden stack);
* :meth:`~ModuleFeatures.hex_outcomes`: the yields a hidden hex may turn out to have, with their
  chances (a fog hex: each tile of the hidden stack), so that what depends on *which* resource a hex
  gives (resources collected at all, sets) is not read from the average;
* :meth:`~ModuleFeatures.spot_bonus`: what settling each intersection earns beyond its production
  (special points for a foreign island, a harbour point);
* :meth:`~ModuleFeatures.targets`: intersections worth reaching with a path piece (a Catan token,
  treasure, a canal locality), in victory points;
* :meth:`~ModuleFeatures.path_filter`: the paths a path piece may ever use (a scenario's marked paths);
* :meth:`~ModuleFeatures.builds`: purchases a hand makes progress toward (one weighted at least
  :data:`~catan_nb.analysis.value_bot.URGENT_BUILD` is wanted as much as a city: the bot offers a
  one-for-one trade for the card it lacks);
* :meth:`~ModuleFeatures.robber_value`: the worth of a robber-like move the module adds (the pirate);
* :meth:`~ModuleFeatures.choice_value`: a bonus for an action, for what the position value cannot see
  (a card that lets the bot choose the dice).

Every method receives the game the bot evaluates: a determinisation in which what the bot's
seat cannot see has been dealt again, so a module's features read its state freely.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

__all__ = ["ModuleFeatures", "FEATURES", "register_features", "features_for", "search_weights", "value_moves",
           "offers_a_turn", "founding_weights",
           "best_two", "Context", "ANY", "EARLIER_PAIR_WEIGHTS"]

#: The index of "a resource of one's choice" (a gold field's pick) in a yield's good slot.
ANY = -2

#: Feature classes by module name.
FEATURES: dict[str, "ModuleFeatures"] = {}

#: The placement score's pair terms as they stood before the base game's were set anew on 2026-11-29
#: (:class:`~catan_nb.analysis.placement.PlacementWeights`: the average rival's production, ``rivals``, rather
#: than the strongest rival's founding score, ``rival_best``; no weight for a pair's ore and grain,
#: ``city_goods``; ``rival_diversity`` -0.008 and ``room`` 0.018).  The expansions declare them in their
#: ``placement_weights``: the new terms were found and measured on base-game playouts (the base game over 78
#: boards 0.401 -> 0.461, five players 0.312 -> 0.497), and in the expansions, 30-60 engine playouts a pair,
#: they ordered the top 20 worse on six sets of ten (Seafarers islands, Corsica, the Harbour Master map,
#: Friends, Helpers, Cities & Knights; better on gold maps, fog, Great Catan and New York; the mean 0.380 ->
#: 0.311), most of the fall put on ``rival_best`` by re-ranking the same playouts; their picks won a little
#: more on every set.  ``frontier`` (the free sites a pair's roads would reach before any rival's, set later
#: that day) was measured on base-game boards, so the expansions weigh it 0 here too, but where a module measured
#: its own (the Erie Canal weighs 0.1).
#: The README has every figure.  Replaceable data, as every fitted weight.  A module that requires another
#: (treasure, Great Catan, the Erie Canal) takes that one's declaration.
EARLIER_PAIR_WEIGHTS: Mapping[str, float] = MappingProxyType({"city_goods": 0.0, "rivals": 1.0, "rival_best": 0.0,
                                                              "rival_diversity": -0.008, "room": 0.018,
                                                              "frontier": 0.0})


class Context:
    """What the base features computed, for the modules' features to build on.

    Attributes
    ----------
    prod : list of float
        The player's expected resource cards per roll, per resource.
    any : float
        Its expected cards of its choice per roll (gold fields).
    dist : dict
        Path pieces needed to reach each intersection within the bot's reach (0: reached).
    spots : list
        ``(value, intersection, pieces needed)`` of the best free settlement spots, best first.
    """

    __slots__ = ("prod", "any", "dist", "spots", "player", "extra")

    def __init__(self, player: int) -> None:
        self.player = player
        self.prod: list[float] = []
        self.any = 0.0
        self.dist: dict[int, int] = {}
        self.spots: list[tuple[float, int, int]] = []
        self.extra: dict[str, Any] = {}


class ModuleFeatures:
    """Base class: a module that declares nothing adds nothing (see the module docstring)."""

    module: ClassVar[str] = ""
    weights: ClassVar[Mapping[str, float]] = {}
    search_weights: ClassVar[Mapping[str, float]] = {}
    value_moves: ClassVar[tuple[type, ...]] = ()
    offers_a_turn: ClassVar[int] = 1
    founding_weights: ClassVar[Mapping[str, float]] = {}
    placement_weights: ClassVar[Mapping[str, float]] = {}
    preferences: ClassVar[Mapping[type, float]] = {}
    lookahead: ClassVar[tuple[type, ...]] = ()
    reach: ClassVar[int] = 0

    def features(self, game, player: int, ctx: Context) -> dict[str, float]:
        """The module's features of ``game`` for ``player`` (names of :attr:`weights`)."""
        return {}

    def hex_yield(self, game, hx: int) -> tuple[tuple[int, float], ...] | None:
        """``(good index or ANY, cards per roll)`` a building of 1 collects from hex ``hx``, where the
        base game cannot say (``None``: the module knows nothing of this hex)."""
        return None

    def hex_outcomes(self, game, hx: int) -> tuple[tuple[float, tuple[tuple[int, float], ...]], ...] | None:
        """``(probability, yield)`` of each tile hex ``hx`` may turn out to be, where it is hidden (``yield``
        as :meth:`hex_yield` gives it: ``(good index or ANY, cards per roll)`` pairs, empty for a tile that
        pays nothing); ``None``: the hex is what it shows.  The chances sum to 1 and the outcomes average to
        :meth:`hex_yield`."""
        return None

    def spot_bonus(self, game, player: int) -> Mapping[int, float]:
        """What settling each intersection earns ``player`` beyond production, in victory points (only
        those that earn something)."""
        return {}

    def targets(self, game, player: int) -> Mapping[int, float]:
        """Intersections worth reaching with a path piece, and their worth in victory points."""
        return {}

    def path_filter(self, game, kind: str) -> Any:
        """The paths a path piece of ``kind`` may ever use (a container of path ids), or ``None``."""
        return None

    def builds(self, game, player: int) -> list[tuple[tuple[int, ...], float]]:
        """``(cost, weight)`` of purchases the hand makes progress toward."""
        return []

    def robber_value(self, game, player: int, action) -> float | None:
        """The worth of a robber-like move of this module's, or a bonus for a robber move
        (:class:`~catan_nb.rules.MoveRobber`), in the units of the value bot's robber: stealing from a
        typical leader is worth about 6 (``None``: the module has nothing to say)."""
        return None

    def needs_lookahead(self, game, player: int, action) -> bool:
        """Whether ``action`` is worth only with the bot's next action of the turn (default: its type is in
        :attr:`lookahead`)."""
        return isinstance(action, self.lookahead)

    def choice_value(self, game, player: int, action) -> float:
        """A bonus for ``action`` beyond the value of the position it leads to."""
        return 0.0

    def __repr__(self) -> str:
        return f"<bot features of {self.module!r}>"


def register_features(module: str) -> Callable[[type], type]:
    """Class decorator: the value bot uses these features in every game that uses rule module ``module``."""

    def deco(cls: type) -> type:
        cls.module = module
        FEATURES[module] = cls()
        _MEMO.clear()
        return cls

    return deco


_MEMO: dict[tuple, tuple] = {}


#: The last ``game.modules`` seen and its feature objects (games copied from one share the tuple).
_LAST: list = [None, ()]


def features_for(game) -> tuple[ModuleFeatures, ...]:
    """The feature objects of a game's modules, in the modules' order."""
    mods = game.modules
    if mods is _LAST[0] and _MEMO:
        return _LAST[1]
    names = tuple(m.name for m in mods)
    hit = _MEMO.get(names)
    if hit is None:
        _load()
        hit = _MEMO[names] = tuple(FEATURES[n] for n in names if n in FEATURES)
    _LAST[:] = [mods, hit]
    return hit


def best_two(values) -> float:
    """How the bots count several things worth reaching at once: the best value plus half the
    second (0.0 for none): one is reached first, the next is a fallback.

    Examples
    --------
    >>> best_two([0.25, 0.5, 0.12]), best_two([])
    (0.625, 0.0)
    """
    top = sorted(values, reverse=True)[:2]
    return top[0] + 0.5 * sum(top[1:]) if top else 0.0


def search_weights() -> dict[str, float]:
    """The weights the search bot adds to the value bot's: every registered module's
    :attr:`ModuleFeatures.search_weights` (a feature weighs only in games of its module, which alone
    compute it).

    Examples
    --------
    >>> search_weights()["tokens_near"]
    600.0
    """
    _load()
    out: dict[str, float] = {}
    for m in FEATURES.values():
        out.update(m.search_weights)
    return out


def value_moves(game) -> tuple[type, ...]:
    """The action types a game's modules leave to the value bot in a search: every module's
    :attr:`ModuleFeatures.value_moves`.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> value_moves(Game(Board.beginner(), seed=1))
    ()
    >>> [t.__name__ for t in value_moves(Game(Board.beginner(), seed=1, rules=Rules(modules=("helpers",))))][:2]
    ['UseMerchantHelper', 'BuildRoadWithMendicant']
    """
    out: tuple[type, ...] = ()
    for m in features_for(game):
        out += m.value_moves
    return out


def offers_a_turn(game) -> int:
    """How many domestic offers the search bot may make in a turn of ``game``: the most any of its
    modules allows (:attr:`ModuleFeatures.offers_a_turn`), at least 1.

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> offers_a_turn(Game(Board.beginner(), seed=1)), offers_a_turn(Game(Board.five_six(), players=5, seed=1))
    (1, 2)
    """
    return max([1, *(m.offers_a_turn for m in features_for(game))])


def founding_weights(game) -> dict[str, float]:
    """The weights a game's modules give the search bot's founding placements (B-SETUP-17): every
    module's :attr:`ModuleFeatures.founding_weights`, merged in the modules' order (empty: the bot's
    own weights, as in every other phase).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> founding_weights(Game(Board.beginner(), seed=1)), founding_weights(Game(Board.five_six(), players=5, seed=1))
    ({}, {'diversity': 40.0})
    """
    out: dict[str, float] = {}
    for m in features_for(game):
        out.update(m.founding_weights)
    return out


def _load() -> None:
    from . import cities_knights, five_six, friends_helpers, scenarios, seafarers  # noqa: F401  (they register themselves)

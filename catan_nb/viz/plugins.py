"""Figure layers of the rule modules: the plug-in point of the board figure.

A rule module that adds something to see on the board (a piece kind, a marker, a target to
click) registers a **layer** under its name; :func:`~catan_nb.viz.board_figure` and
:func:`~catan_nb.viz.dynamic_traces` add the layers of every module the game uses, and the game
table sends clicks on a layer's clickable traces to the layer.  The board figure and the table
hold no code for any module.

A layer is a class with

* ``traces(game, pal) -> list[dict]``: the layer's traces, each a plotly scatter as a dict with a
  unique ``name`` (by convention ``"<module>:<what>"``); called when the figure is built;
* ``dynamic(game, pal, legal) -> dict[str, dict]``: new properties (``x``, ``y``, ``text``...) of
  those traces by name, from the game state and the legal actions of the seat to act (an empty
  list when no human acts); called on every refresh;
* ``clickable``: the names of the traces whose points can be clicked;
* ``handles`` (optional, default empty): the action types the layer has its own clicks for; the
  game table leaves them out of its "More actions" list (as a panel's ``handles``);
* ``below`` (optional, default False): draw the layer right over the hexes, under every piece;
* ``click(game, trace_name, index, legal) -> Action | list | None``: the action a click on point
  ``index`` of a clickable trace stands for, among ``legal`` (``None``: the click does nothing; a
  list: several moves start there, and the table asks which one; a list of one is played at once,
  unless the trace is named in the layer's optional ``confirm`` tuple: then the table lists it too);
* ``hints(game, legal) -> list[str]`` (optional): what the status line adds to say where to click
  for the layer's moves among ``legal`` ("or a ringed sea hex for the pirate");
* ``picks(game, choices) -> str | None`` (optional): while the player chooses among ``choices``
  (the moves one click stood for), a sentence saying where on the board to click to pick one,
  when the layer rings each of them apart ("click a ringed destination for the ship"); ``None``
  (the default) lets the table list them as buttons.

While such a choice is pending, the table passes those moves as ``legal`` to ``dynamic`` and
``click``: the board rings them only, and a click picks among them.

Examples
--------
>>> from catan_nb.viz.plugins import Layer, register_layer, layers_for
>>> @register_layer("doc_example")
... class Marks(Layer):
...     def traces(self, game, pal):
...         return [dict(type="scatter", name="doc_example:marks", x=[], y=[], mode="markers")]
>>> [type(layer).__name__ for layer in layers_for(["doc_example"])]
['Marks']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Layer", "register_layer", "layers_for", "registrar", "LAYERS"]

#: Layer classes of each rule module, by module name.
LAYERS: dict[str, list[type]] = {}


def registrar(registry: dict[str, list[type]], what: str) -> Callable[[str], Callable[[type], type]]:
    """A class decorator factory that files classes in ``registry`` under a module's name
    (shared by :func:`register_layer` and the table's ``register_panel``)."""

    def register(module: str) -> Callable[[type], type]:
        def deco(cls: type) -> type:
            registry.setdefault(module, []).append(cls)
            return cls

        return deco

    register.__doc__ = f"Class decorator: use this {what} for every game that uses rule module ``module``."
    return register


#: Class decorator: draw this layer on the board of every game that uses rule module ``module``.
register_layer = registrar(LAYERS, "figure layer")


def layers_for(source: Any) -> list["Layer"]:
    """New layer objects for a game (its modules, in order), a list of module names, or a board (none)."""
    from . import seafarers as _  # noqa: F401  (the built-in modules' layers register themselves)
    from . import cities_knights as _ck  # noqa: F401
    from . import scenarios as _sc  # noqa: F401
    from . import variants as _va  # noqa: F401  (log phrases only)

    if isinstance(source, (list, tuple)):
        names: Iterable[str] = source
    else:
        names = [m.name for m in getattr(source, "modules", ())]
    return [cls() for name in names for cls in LAYERS.get(name, ())]


class Layer:
    """Base class of a module's figure layer (see the module docstring).

    ``handles`` lists the action types the layer has its own clicks for; the game table's "More
    actions" list leaves them out.  A class attribute, or a property where the action types are
    imported late (the rules layer is imported by the figure's, not the other way round).
    """

    clickable: tuple[str, ...] = ()
    below: bool = False
    handles: tuple[type, ...] = ()

    def traces(self, game, pal: dict) -> list[dict]:
        return []

    def dynamic(self, game, pal: dict, legal: list) -> dict[str, dict]:
        return {}

    def click(self, game, trace_name: str, index: int, legal: list):
        return None

    def hints(self, game, legal: list) -> list[str]:
        return []

    def picks(self, game, choices: list) -> str | None:
        return None

    def legend(self, game, pal: dict) -> list[tuple[str, str]]:
        """The layer's entries in the table's legend under the board: ``(mark, words)`` pairs, ``mark`` a
        short piece of HTML (a coloured symbol) and ``words`` what it means.  None by default."""
        return []

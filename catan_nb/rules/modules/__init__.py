"""Rule modules: variants that plug into the engine (issue: 5-6 players, Friends, Helpers).

A module is a stateless object whose hooks the :class:`~catan_nb.rules.Game`
calls at fixed points of the base flow; its state lives in ``game.ext[name]`` as
plain data (copied, compared and replayed with the game).  The base engine only
calls the hooks a module overrides, so a base game pays nothing for modules.

Hooks (all optional):

``components(bank_per_resource, deck) -> (bank_per_resource, deck)``
    Change the component counts before the game starts.
``init(game)``
    Create ``game.ext[name]``.
``legal(game, out)``
    Append the module's legal actions for the current phase.
``on_founding_settlement(game, player, node, second)``, ``on_founding_done(game)``
``on_road(game, player, path, founding)``, ``on_settlement(game, player, node)``
``on_robber(game, action)``
    After a robber move (its outcome filled in).
``on_roll(game, total) -> bool``
    After a production roll is resolved; return True if the module changed the phase.
``on_end_turn(game) -> bool``
    Return True if the module takes over what happens after EndTurn.
``on_turn_start(game)``
``vp(game, player, visible) -> int``
    Extra victory points.
``rate(game, player, resource, rate) -> int``
    Adjust a maritime rate.

Class attributes: ``name``, ``players`` (allowed player counts, if the module sets
them), ``vp_target``, ``build_phases`` (extra phases in which building and buying
are allowed), ``actions`` (``{ActionType: (check, apply)}`` with functions taking
``(game, action)``), ``phases`` (module phases whose legal actions it lists).
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Module", "MODULES", "register"]


class Module:
    """Base class: every hook is a no-op; subclasses override what they need."""

    name: ClassVar[str] = ""
    players: ClassVar[tuple[int, ...] | None] = None
    vp_target: ClassVar[int | None] = None
    build_phases: ClassVar[tuple[Any, ...]] = ()
    actions: ClassVar[dict[type, tuple[Any, Any]]] = {}

    def components(self, bank_per_resource: int, deck: dict) -> tuple[int, dict]:
        return bank_per_resource, deck

    def init(self, game) -> None:
        pass

    def legal(self, game, out: list) -> None:
        pass

    def on_founding_settlement(self, game, player: int, node: int, second: bool) -> None:
        pass

    def on_founding_done(self, game) -> None:
        pass

    def on_road(self, game, player: int, path: int, founding: bool) -> None:
        pass

    def on_settlement(self, game, player: int, node: int) -> None:
        pass

    def on_robber(self, game, action) -> None:
        pass

    def on_roll(self, game, total: int) -> bool:
        return False

    def on_end_turn(self, game) -> bool:
        return False

    def on_turn_start(self, game) -> None:
        pass

    def vp(self, game, player: int, visible: bool) -> int:
        return 0

    def rate(self, game, player: int, resource: int, rate: int) -> int:
        return rate

    def overrides(self, hook: str) -> bool:
        """Whether this module implements ``hook`` (the engine only calls those)."""
        return getattr(type(self), hook) is not getattr(Module, hook)

    def __repr__(self) -> str:
        return f"<rule module {self.name!r}>"


#: Registered modules by name.
MODULES: dict[str, Module] = {}


def register(module_cls: type[Module]) -> type[Module]:
    """Class decorator adding a module to :data:`MODULES` and its actions to the JSON registry."""
    from ..actions import ACTION_TYPES

    MODULES[module_cls.name] = module_cls()
    for cls in module_cls.actions:
        ACTION_TYPES[cls.__name__] = cls
    return module_cls


def _load_builtin() -> None:
    from . import five_six, friends, helpers  # noqa: F401  (they register themselves)


_load_builtin()

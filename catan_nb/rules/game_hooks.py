"""The hook dispatch of :class:`~catan_nb.rules.game.Game`: how rule modules are wired in.

A part of the engine (see the map in :mod:`catan_nb.rules.game`).  A game binds, once per set of
modules, a shared read-only wiring into its ``__dict__``: the dispatch tables from action type
to check and effect (the engine's own actions, then each module's ``actions``), and per hook
(:data:`HOOKS`, the :class:`~catan_nb.rules.modules.Module` methods of docs/modules.md) the
tuple of the modules' overriding methods, which the engine calls in module order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import BuildCity, BuildRoad, BuildSettlement, EndTurn
from .modules import MODULES, Module

__all__ = ["HOOKS", "HOOK_ATTR", "HOOK_ATTRS", "BASE_VP_ACTIONS", "wiring"]

#: The engine's own actions that change VP (buildings, the Longest Road) or begin a turn.
BASE_VP_ACTIONS = (BuildSettlement, BuildCity, BuildRoad, EndTurn)
#: The :class:`~catan_nb.rules.modules.Module` hooks the engine dispatches, in this order of wiring.
HOOKS = (
    "legal_trades", "module_builds", "allowed_sites", "check_site", "site_surcharge", "on_place", "on_remove", "on_founding_settlement",
    "on_founding_done", "founding_building", "before_production", "resolve_roll", "on_roll", "hand_limit",
    "robber_targets", "on_robber",
    "vp", "rate", "on_end_turn", "on_turn_start",
)
#: The attribute of a game holding each hook's tuple of module methods.
HOOK_ATTR = {
    "legal_trades": "_h_trades", "module_builds": "_h_builds", "allowed_sites": "_h_candidates",
    "check_site": "_h_check_place", "site_surcharge": "_h_surcharge", "on_place": "_h_place", "on_remove": "_h_remove",
    "on_founding_settlement": "_h_founding", "on_founding_done": "_h_founding_done",
    "founding_building": "_h_founding_building",
    "before_production": "_h_before", "resolve_roll": "_h_resolve", "on_roll": "_h_roll",
    "hand_limit": "_h_limit", "robber_targets": "_h_targets", "on_robber": "_h_robber", "vp": "_h_vp",
    "rate": "_h_rate", "on_end_turn": "_h_end_turn", "on_turn_start": "_h_turn_start",
}
#: The attributes holding the hook tuples on a game (and its copies, which share them).
HOOK_ATTRS = tuple(HOOK_ATTR.values())
_WIRINGS: dict[tuple[str, ...], dict[str, Any]] = {}


def _placement_hooks(mods: tuple[Module, ...], hook: str, old: str) -> list[Any]:
    """Each module's ``hook`` (called with ``founding``), or its deprecated ``old`` hook wrapped to drop it."""
    out = []
    for m in mods:
        if m.overrides(hook):
            out.append(getattr(m, hook))
        elif m.overrides(old):
            fn = getattr(m, old)
            out.append(lambda game, *args, founding, _fn=fn: _fn(game, *args))
    return out


def wiring(mods: tuple[Module, ...], base_checks: Mapping[type, Any], base_apply: Mapping[type, Any]) -> dict[str, Any]:
    """Dispatch tables and hook lists for a set of modules, built once and shared by every game using them.

    ``base_checks`` and ``base_apply`` map the engine's own action types to their check and effect.

    Everything here is game-independent (functions taking the game, methods of the stateless
    module objects), so games and their copies share it instead of rebuilding it.
    """
    key = tuple(m.name for m in mods)
    w = _WIRINGS.get(key)
    if w is not None and all(MODULES.get(n) is m for n, m in zip(key, mods)):
        return w
    checks: dict[type, Any] = dict(base_checks)
    applies: dict[type, Any] = dict(base_apply)
    for m in mods:
        for cls, (check, apply) in m.actions.items():
            checks[cls] = check
            applies[cls] = apply
    w = {
        "_check_dispatch": checks,  # read-only by convention: shared by every game with these modules
        "_apply_dispatch": applies,
        "_h_legal": tuple(m for m in mods if m.overrides("legal")),
        "_legal_by_phase": {},  # filled lazily; its values are derived from the modules only
        "_n_dice": 2 + sum(m.extra_dice for m in mods),
        "_ext_copy": {m.name: m.copy_state for m in mods if m.overrides("copy_state")},
    }
    for hook in HOOKS:
        w[HOOK_ATTR[hook]] = tuple(getattr(m, hook) for m in mods if m.overrides(hook))
    # The deprecated placement hooks (no ``founding`` flag) run in module order among the new ones.
    w["_h_candidates"] = tuple(_placement_hooks(mods, "allowed_sites", "candidates"))
    w["_h_check_place"] = tuple(_placement_hooks(mods, "check_site", "check_place"))
    w["_h_builds"] = tuple(getattr(m, "module_builds") if m.overrides("module_builds") else m.legal_builds
                           for m in mods if m.overrides("module_builds") or m.overrides("legal_builds"))
    # B-END-3: the win is checked after every action that can change VP; when every module says
    # during which actions it may change VP (``vp_actions``), the others skip the check.
    if all(m.vp_actions is not None for m in mods):
        relevant = set(BASE_VP_ACTIONS).union(*(m.vp_actions for m in mods))
        w["_vp_neutral"] = frozenset(t for t in applies if t not in relevant)
    else:
        w["_vp_neutral"] = frozenset()
    _WIRINGS[key] = w
    return w

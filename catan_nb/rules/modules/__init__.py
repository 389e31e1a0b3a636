"""Rule modules: the base game's parts and every variant plug into the engine the same way.

A module is a stateless object whose hooks the :class:`~catan_nb.rules.Game`
calls at fixed points of the flow; its state lives in ``game.ext[name]`` as
plain data (copied, compared and replayed with the game).  The engine only calls
the hooks a module overrides, so a game pays nothing for hooks nobody uses.

The base game itself is made of *built-in* modules (:data:`BUILTIN`): production,
the robber, trade, and the development deck with the Largest Army.  A
variant may replace any of them (``replaces``), as Cities & Knights replaces the
development deck and the army.  Modules use only the engine's public API (see
``docs/modules.md``); a test checks that none touches a private member of ``Game``.

Declarations (class attributes)
-------------------------------
``name``
    The module's name, as listed in ``Rules(modules=...)`` and in saves.
``builtin``
    Part of every game unless a chosen module replaces it.
``replaces``, ``requires``
    Built-in modules this one replaces; modules it needs (added with it).
``players``, ``implied_by_players``
    Player counts the module allows; player counts that bring it in by themselves
    (the 5-6 extension, X56-GEN-1).
``goods``
    Goods added after the five resources (commodities, CK-COM-1): members of an enum derived
    from :class:`~catan_nb.constants.Good`; registered with the module, so that actions, saves
    and views accept them.
``good_rules``
    ``{good: GoodRules(...)}`` for goods of ``goods`` that the base game's card rules treat
    otherwise than a commodity (:class:`~catan_nb.constants.GoodRules`: traded with the bank,
    stolen, discarded on a 7, named by Monopoly).
``pieces``
    :class:`~catan_nb.rules.pieces.PieceKind` values added to the game.
``actions``
    ``{ActionType: (check, apply)}``: ``check(game, action)`` raises
    :class:`~catan_nb.errors.IllegalActionError`; ``apply(game, action)`` changes
    the state (and appends the action, with its outcome, to ``game.log``).
``extra_dice``
    Dice rolled beside the two number dice (the event die, CK-BAR-4).
``legal_in``
    Values of the phases in which the module's ``legal`` hook lists actions
    (``None``: every phase); the engine calls it only there.
``vp_actions``
    Action types during which the module may change anyone's VP (through its own
    actions or by reacting to others' in its hooks) or begin a turn.  Given by every
    module of a game, the engine skips the win check (B-END-3) after the other
    action types, unless a step ran; ``None`` (the default) means it checks after
    every action.

Hooks (all optional)
--------------------
``components(game, comps)``
    Change component counts before the game starts: ``comps["bank"]`` maps each
    good to its cards, ``comps["deck"]`` each development card to its count.
``init(game)``
    Create ``game.ext[name]``.
``vp_target(game) -> int | None``
    The module's win target for this game (B-END-2, F-END-1, SC-12, CK-VP-1);
    the game plays to the largest.
``legal(game, out)``
    Append the module's legal actions for the current decision.
``legal_trades(game, player, out, offers)``, ``module_builds(game, player, out)``
    Append trades (in the trade phase; domestic offers only if ``offers``) and
    the module's builds/purchases (wherever building is allowed) — so the Special Building
    Phase lists purchases too.  ``game.legal_builds(player, out)`` lists the engine's builds
    and then calls every module's ``module_builds``.
``allowed_sites(game, player, kind, sites, founding) -> sites``
    Filter where ``player`` may place a piece of ``kind`` (scenario spaces,
    SC-5..7; the pirate's blockade, SF-11).  ``founding`` is true for the founding
    pieces (B-SETUP-15..17): a module never reads the phase to know it.
``check_site(game, action, player, kind, site, founding)``
    Raise :class:`~catan_nb.errors.IllegalActionError` with the module's rule id
    where its ``allowed_sites`` filter refuses a site (the checked path).
``site_surcharge(game, player, kind, site) -> {good: count} | None``
    An extra cost for a paid piece of ``kind`` on ``site``, beside the kind's own cost
    (a toll at some paths, a dearer settlement by the sea): goods as members or by name.
    The engine adds every module's surcharge (``game.site_cost``), lists only the sites a
    hand can pay for and pays it with the piece.  A free or founding piece pays nothing.
``candidates(game, player, kind, sites)``, ``check_place(game, action, player, kind, site)``, ``legal_builds(game, player, out)``
    Deprecated names of ``allowed_sites`` and ``check_site`` (without the ``founding``
    flag) and of ``module_builds``; still called (a :class:`DeprecationWarning` at
    :func:`register`).  ``game.candidates`` and ``game.legal_builds`` are the engine's
    own methods, with other signatures.
``on_place(game, player, kind, site, founding)``, ``on_remove(game, player, kind, site)``
    After a piece is placed (a city built, a road joining districts...) or removed.
``on_founding_settlement(game, player, node, second)``, ``on_founding_done(game)``
    After a founding building (a settlement, or the city ``founding_building`` asked for) and its
    payment (B-SETUP-19); after the last founding piece.
``founding_building(game, player, second) -> (kind, rule) | None``
    The building ``player`` founds in the first or ``second`` round instead of a settlement, with
    the rule that says so: ``("city", "CK-SETUP-1")`` in the second round of Cities & Knights.
    ``None``: a settlement (B-SETUP-15, B-SETUP-16).  The engine then lists and accepts
    ``BuildCity`` on the intersections a founding settlement may take (B-SETUP-17), places a
    settlement and upgrades it (``on_place`` sees both, ``founding=True``) and pays the second
    round as for a settlement (B-SETUP-19); ``game.founding_building(player, second)`` asks.
``before_production(game, dice)``
    After a roll and before it is resolved (the barbarians, CK-BAR-4); push
    decisions to have players choose first.
``resolve_roll(game, total)``
    Resolve a roll: production (not 7), the robber (7).
``yields(game, table)``
    Change what each piece kind collects from each terrain (CK-COM-2): ``table``
    maps ``(kind name, Terrain)`` to a tuple of ``(good index, count)``.
``on_roll(game, total)``
    After a roll is resolved (gold picks SF-1, reactions H-USE-9).
``hand_limit(game, player, limit) -> int``
    Cards a player may hold safely when a 7 is rolled (B-ROB-2; CK-WALL-1).
``robber_targets(game, hexes) -> hexes``
    Where the robber may go (B-ROB-5; SF-10).
``on_robber(game, action)``
    After a robber move, its outcome filled in.
``vp(game, player, visible) -> int``
    Victory points from the module's sources (VP cards, the army, tokens...).
``rate(game, player, good, rate) -> int``
    Adjust a bank trade rate (harbours are the engine's; captains and canals here).
``on_end_turn(game)``
    After EndTurn; push decisions (the Special Building Phase) to delay the next turn.
``on_turn_start(game)``
    When a turn begins, before its roll (cards bought last turn become playable...).
``view(game, player) -> dict``
    What ``player`` may see of the module's state (for :class:`PlayerView`).
``determinize(game, observer, rng)``
    Redraw the module's hidden state that ``observer`` cannot see (for search).
``copy_state(state) -> state``
    A copy of the module's ``game.ext[name]`` for :meth:`~catan_nb.rules.Game.copy`, sharing
    nothing mutable with ``state``.  The default, :func:`copy_plain`, copies any plain data;
    override it only for speed, in a module whose games are copied very often (search bots copy
    a game per node): the development deck copies its few lists directly, Cities & Knights its
    lists of rows (levels, knights, decks, hands...).
"""

from __future__ import annotations

import copy as _copy
import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["Module", "MODULES", "BUILTIN", "register", "resolve", "deal_again", "copy_plain"]

_ATOMS = frozenset({str, int, float, bool, type(None)})


def copy_plain(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists and tuples of strings, numbers, booleans and ``None``)
    that shares no dict or list with ``value``: what ``game.copy()`` does with a module's
    ``game.ext`` entry unless the module overrides ``copy_state``.

    Tuples of atoms are immutable, so they are shared; anything that is not plain data is deep-copied
    (``game.state()`` refuses it anyway).

    Examples
    --------
    >>> st = {"owners": [[1, 2], None], "open": True, "spot": (3, 4)}
    >>> c = copy_plain(st)
    >>> c == st, c["owners"] is st["owners"], c["owners"][0] is st["owners"][0]
    (True, False, False)
    """
    t = type(value)
    if t is dict:
        out = {}
        for k, v in value.items():
            tv = type(v)
            if tv in _ATOMS:
                out[k] = v
            elif tv is list and _ATOMS.issuperset(map(type, v)):  # a list of atoms (the usual entry)
                out[k] = v[:]
            else:
                out[k] = copy_plain(v)
        return out
    if t is list:
        if _ATOMS.issuperset(map(type, value)):
            return value[:]
        rows = []
        for v in value:
            tv = type(v)
            if tv in _ATOMS:
                rows.append(v)
            elif tv is list and _ATOMS.issuperset(map(type, v)):  # a row of atoms (a seat's list...)
                rows.append(v[:])
            else:
                rows.append(copy_plain(v))
        return rows
    if t is tuple:
        if _ATOMS.issuperset(map(type, value)):
            return value
        return tuple([v if type(v) in _ATOMS else copy_plain(v) for v in value])
    if t in _ATOMS:
        return value
    return _copy.deepcopy(value)


class Module:
    """Base class: every hook is a no-op; subclasses override what they need."""

    name: ClassVar[str] = ""
    builtin: ClassVar[bool] = False
    replaces: ClassVar[tuple[str, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()
    players: ClassVar[tuple[int, ...] | None] = None
    implied_by_players: ClassVar[tuple[int, ...]] = ()
    goods: ClassVar[tuple[Any, ...]] = ()
    good_rules: ClassVar[dict[Any, Any]] = {}
    pieces: ClassVar[tuple[Any, ...]] = ()
    extra_dice: ClassVar[int] = 0
    actions: ClassVar[dict[type, tuple[Any, Any]]] = {}
    legal_in: ClassVar[tuple[str, ...] | None] = None
    vp_actions: ClassVar[tuple[type, ...] | None] = None

    def components(self, game, comps: dict) -> None:
        pass

    def init(self, game) -> None:
        pass

    def vp_target(self, game) -> int | None:
        return None

    def legal(self, game, out: list) -> None:
        pass

    def legal_trades(self, game, player: int, out: list, offers: bool) -> None:
        pass

    def module_builds(self, game, player: int, out: list) -> None:
        pass

    def legal_builds(self, game, player: int, out: list) -> None:
        """Deprecated: override :meth:`module_builds` (``game.legal_builds`` is the engine's method)."""

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        return sites

    def check_site(self, game, action, player: int, kind: str, site: int, founding: bool) -> None:
        pass

    def site_surcharge(self, game, player: int, kind: str, site: int) -> Mapping[Any, int] | None:
        return None

    def candidates(self, game, player: int, kind: str, sites: list[int]) -> list[int]:
        """Deprecated: override :meth:`allowed_sites` (it has the ``founding`` flag)."""
        return sites

    def check_place(self, game, action, player: int, kind: str, site: int) -> None:
        """Deprecated: override :meth:`check_site` (it has the ``founding`` flag)."""

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        pass

    def on_remove(self, game, player: int, kind: str, site: int) -> None:
        pass

    def on_founding_settlement(self, game, player: int, node: int, second: bool) -> None:
        pass

    def on_founding_done(self, game) -> None:
        pass

    def founding_building(self, game, player: int, second: bool) -> tuple[str, str] | None:
        return None

    def before_production(self, game, dice: tuple[int, ...]) -> None:
        pass

    def resolve_roll(self, game, total: int) -> None:
        pass

    def yields(self, game, table: dict) -> None:
        pass

    def on_roll(self, game, total: int) -> None:
        pass

    def hand_limit(self, game, player: int, limit: int) -> int:
        return limit

    def robber_targets(self, game, hexes: list[int]) -> list[int]:
        return hexes

    def on_robber(self, game, action) -> None:
        pass

    def vp(self, game, player: int, visible: bool) -> int:
        return 0

    def rate(self, game, player: int, good: int, rate: int) -> int:
        return rate

    def on_end_turn(self, game) -> None:
        pass

    def on_turn_start(self, game) -> None:
        pass

    def view(self, game, player: int) -> dict:
        return {}

    def determinize(self, game, observer: int, rng) -> None:
        pass

    def copy_state(self, state: Any) -> Any:
        return copy_plain(state)

    def overrides(self, hook: str) -> bool:
        """Whether this module implements ``hook`` (the engine only calls those)."""
        return getattr(type(self), hook) is not getattr(Module, hook)

    def __repr__(self) -> str:
        return f"<rule module {self.name!r}>"


#: Deprecated hook names and the hooks that replaced them (the old ones are still called).
DEPRECATED_HOOKS = {"candidates": "allowed_sites", "check_place": "check_site", "legal_builds": "module_builds"}

#: Registered modules by name.
MODULES: dict[str, Module] = {}
#: The base game's own modules, in the order their hooks run.
BUILTIN: list[str] = []


def register(module_cls: type[Module]) -> type[Module]:
    """Class decorator adding a module to :data:`MODULES` and its actions to the JSON registry."""
    from ...constants import register_good
    from ..actions import ACTION_TYPES, Action
    from ..pieces import register_piece

    stray = [g for g in module_cls.good_rules if g not in module_cls.goods]
    if stray:
        raise TypeError(f"module {module_cls.name!r}: good_rules names {stray[0]!r}, which is not in its goods")
    for good in module_cls.goods:
        register_good(good, module_cls.good_rules.get(good))
    va = module_cls.vp_actions
    if va is not None and (not isinstance(va, tuple) or not all(isinstance(t, type) and issubclass(t, Action)
                                                                 for t in va)):
        raise TypeError(f"module {module_cls.name!r}: vp_actions must be None or a tuple of action classes, not {va!r}")
    for old, new in DEPRECATED_HOOKS.items():
        if getattr(module_cls, old) is not getattr(Module, old):
            warnings.warn(f"module {module_cls.name!r}: the hook {old!r} is deprecated; override {new!r} instead "
                          "(see docs/modules.md)", DeprecationWarning, stacklevel=2)
    MODULES[module_cls.name] = module_cls()
    if module_cls.builtin and module_cls.name not in BUILTIN:
        BUILTIN.append(module_cls.name)
    for cls in module_cls.actions:
        ACTION_TYPES[cls.__name__] = cls
    for kind in module_cls.pieces:
        register_piece(kind)
    return module_cls


def resolve(chosen: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The modules of a game: built-ins not replaced, then the chosen ones and what they require or imply.

    Raises
    ------
    ValueError
        For an unknown module name.

    Examples
    --------
    >>> resolve(("friends",), 4)[-1]
    'friends'
    >>> "five_six" in resolve((), 6)
    True
    """
    names: list[str] = []

    def add(name: str) -> None:
        if name in names:
            return
        if name not in MODULES:
            raise ValueError(f"unknown rule module {name!r}; expected one of {', '.join(sorted(optional()))}")
        for req in MODULES[name].requires:
            add(req)
        names.append(name)

    implied = [m.name for m in MODULES.values() if players in m.implied_by_players]
    for name in [*implied, *chosen]:
        add(name)
    replaced = {r for n in names for r in MODULES[n].replaces}
    return tuple([b for b in BUILTIN if b not in replaced] + [n for n in names if not MODULES[n].builtin])


def deal_again(stack: list, rng) -> None:
    """Shuffle a hidden stack again for a determinisation: a canonical order first, so the deal
    depends only on what is public and the seed (fog, treasure, Great Catan's supply)."""
    stack.sort()
    rng.shuffle(stack)


def optional() -> list[str]:
    """Names of the modules a game may choose (the built-ins are always there)."""
    return [n for n, m in MODULES.items() if not m.builtin]


def _load_builtin() -> None:
    # The base game first (its order is the order its hooks run), then the variants.
    from . import production, robber, trade, development  # noqa: F401
    from . import cities_knights, corsica_new_york, erie_canal, five_six, fog, friends, gold_fields, great_catan, harbour_master, helpers  # noqa: F401
    from . import seafarers, treasure  # noqa: F401  (they register themselves)


_load_builtin()

"""The rules version: which reading of the rules a saved game was recorded under.

A saved game is its set-up and its log of actions (:mod:`catan_nb.rules.game_codec`); loading
replays the log under today's rules.  When a rule changes what a recorded action means (an
action once legal is now refused, or it now does something else), a save recorded before the
change no longer replays to the position it held.  Each save carries the
:data:`RULES_VERSION` it was recorded under, so that loading it can say which change is at
fault, and :data:`RULE_CHANGES` lists the changes, newest last.

When to bump :data:`RULES_VERSION` (by one, in the same commit as the change):

* a rule now refuses an action it used to allow, or allows one it used to refuse, in a
  position a recorded game can reach (SF-7's strict reading refused ship moves; CK-SETUP-1
  asked for a city where a settlement had been placed);
* an action, a roll or a turn start now has another effect on the state (other goods, another
  winner, a game that ends sooner), even if every recorded action still plays;
* a module keeps another shape of state in ``game.ext`` (a key added, renamed or removed):
  the save's fingerprint covers that state.  A key added with the change goes in
  :data:`STATE_ADDED`, so that saves of earlier versions are fingerprinted without it.

No bump for a faster engine that plays the same, a new module (no save of it exists yet), new
options whose default plays as before, or messages, views, bots and figures.  Then add a
:class:`RuleChange` to :data:`RULE_CHANGES` naming the rule ids whose refusals the change can
cause, and record a few saves of the old rules under ``tests/data/`` (see its ``README.md``).

Examples
--------
>>> RULES_VERSION
1
>>> sorted({r for c in changes_since(0) for r in c.rules})[:3]
['B-END-3', 'CK-SETUP-1', 'F-EARN-11']
>>> changes_since(RULES_VERSION)
()
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RULES_VERSION", "RuleChange", "RULE_CHANGES", "STATE_ADDED", "changes_since"]

#: The rules version of this engine: saves record it (``"rules_version"``); a save without
#: one was recorded before versions were kept and reads as version 0.
RULES_VERSION = 1


@dataclass(frozen=True)
class RuleChange:
    """A change of the rules that recorded games may not survive.

    Attributes
    ----------
    version : int
        The rules version that brought it: a save of an earlier version was recorded before.
    rules : tuple of str
        The rule ids under which the engine now refuses actions it used to allow.
    summary : str
        What changed, in a line.
    commit : str
        The commit that made the change (in this repository's history).
    """

    version: int
    rules: tuple[str, ...]
    summary: str
    commit: str


#: The changes, oldest first.  Version 1 lists those made before saves recorded a rules version
#: that the saves of ``tests/data/saves_by_commit`` show refusing or changing older games.
RULE_CHANGES: tuple[RuleChange, ...] = (
    RuleChange(1, ("CK-SETUP-1",), "Cities & Knights: the second founding building is a city, no longer a "
               "settlement", "2e461ec"),
    RuleChange(1, ("SF-7",), "Seafarers, the strict reading: a ship may not end where the player's road ends "
               "without a building, nor a road where their ship ends", "fee15ac"),
    RuleChange(1, ("F-EARN-8", "F-EARN-11"), "Friends: districts that a road lifted by the Explorer had joined "
               "stay joined (the module keeps them as links)", "0371825"),
    RuleChange(1, ("B-END-3",), "Corsica and New York: a game that no player can win any more ends, the "
               "leader winning", "5d7ee2c"),
)

#: Keys a rule change added to a module's state (``game.ext[module][key]``), with the rules
#: version that added them: a save of an earlier version was fingerprinted without them.  For
#: version 0 saves, recorded at any commit before, each of these keys may or may not have existed.
STATE_ADDED: tuple[tuple[int, str, str], ...] = (
    (1, "seafarers", "pirate"),  # SF-10, 0b8d7cb
    (1, "seafarers", "home"),  # SF-12, 5b4ab22
    (1, "seafarers", "settled"),  # SF-13, 5b4ab22
    (1, "friends", "links"),  # F-EARN-8, F-EARN-11, 0371825
    (1, "corsica_new_york", "stalled"),  # 5d7ee2c
)


def changes_since(version: int) -> tuple[RuleChange, ...]:
    """The rule changes a save recorded under rules ``version`` predates (all of them for 0)."""
    return tuple(c for c in RULE_CHANGES if c.version > version)

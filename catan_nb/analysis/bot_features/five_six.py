"""The 5-6 player extension (RULES.md section 11): what the bots do differently with five or six players.

* **Offers** (B-TRADE-2, X56-SBP-3): with four or five partners to answer, and no trading in the
  Special Building Phase that follows, the search bot may make a second domestic offer in its
  turn (``offers_a_turn``): when its one-for-one found no partner and it is still one card short
  of a city or a settlement, it offers another surplus card for that card, or two if it has no
  other.  Measured against four value bots (development seeds 101 and 102, 400 games each), the
  search bot won 240 of 800 games with it, 223 without.

* **Founding** (B-SETUP-17, X56-BOARD-2): the search bot places its founding settlements and roads
  with more weight on each resource collected at all (``founding_weights``: ``diversity`` 40, the
  value bot's 6): a spot on three resources before a slightly richer one on two.  Measured the
  same way (development seeds 101-103, 400 games each), it won 439 of 1200 with it, 348 without;
  on the ladder's seeds 1-4 (``benchmarks/ladder.py --module five_six --players 5``), 279 of 800,
  205 without.

The extension adds no feature of a position: its board is priced as the base game's.
"""

from __future__ import annotations

from ...rules.modules import five_six as _x56
from . import ModuleFeatures, register_features


@register_features(_x56.FiveSix.name)
class FiveSixFeatures(ModuleFeatures):
    """Five or six players: two domestic offers a turn for the search bot, and founding placements that
    weigh a resource collected at all more."""

    offers_a_turn = 2
    founding_weights = {"diversity": 40.0}

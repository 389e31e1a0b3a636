"""Gold fields (RULES.md SF-1), a Seafarers element, as a rule module.

When a gold field's number is rolled, every player with a settlement or city next to it chooses
which resources to take: 1 for each settlement and 2 for each city, in any mix (SF-1).  The
choices are decisions on the engine's stack, in turn order from the active player, one card at a
time (:class:`PickGold`, like a discard), before the active player goes on to trade and build.
The robber on a gold field stops it, as on any hex (B-ROB-5).  The second founding building pays
one pick for each gold field next to it, as it pays one card for any other producing hex
(B-SETUP-19).  The bank's limits apply: a player
takes only what the bank still has, and when the bank is empty the remaining picks lapse
(B-COMP-14).

A gold field is a hex of terrain ``gold`` with a number token in the board file.  Its value to a
settlement is the chance of its number times the best card the player could want, which
:func:`gold_production` reports as expected picks per roll.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> board = gold_board(Board.beginner(), 4)   # hex 4 of the beginner board (hills 6) turned gold
>>> g = Game(board, seed=1, start="beginner", rules=Rules(modules=("gold_fields",)))
>>> [str(gold_production(g, p)) for p in range(4)]   # seats 0 and 2 have a settlement on it
['5/36', '0', '5/36', '0']
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...constants import Resource, Terrain, pips
from ...errors import IllegalActionError
from ..actions import Action
from ..phase import Phase
from . import Module, register

__all__ = ["GoldFields", "PickGold", "GOLD_PICK", "gold_owed", "gold_production", "gold_board", "NAME"]

NAME = "gold_fields"
#: SF-1: a player next to a rolled gold field picks resources; ``data`` is how many are still owed.
GOLD_PICK = Phase.register("gold_pick", "{player} takes resources of their choice from a gold field (SF-1)",
                           owner=NAME)


@dataclass(frozen=True, slots=True)
class PickGold(Action):
    """Take one resource of your choice from the bank for a gold field (SF-1)."""

    resource: Resource


_PICKS = tuple(PickGold(r) for r in Resource)


def gold_owed(game, total: int) -> dict[int, int]:
    """SF-1: cards each seat picks when ``total`` is rolled (1 per settlement, 2 per city next to a gold field)."""
    t = game.topology
    owed: dict[int, int] = {}
    for hx, terrain in enumerate(game.hex_terrain):
        if terrain is not Terrain.GOLD or game.hex_token[hx] != total or hx == game.robber:
            continue
        for v in t.hex_nodes[hx]:
            o = game.node_owner[v]
            if o < 0:
                continue
            pk = game.kinds[game.node_kind[v]]
            if pk is not None and pk.building and pk.produces:
                owed[o] = owed.get(o, 0) + pk.produces
    return owed


def gold_production(game, player: int) -> Fraction:
    """Expected gold picks per roll of ``player`` (its buildings next to gold fields, the robber aside)."""
    expected = Fraction(0)
    for total in range(2, 13):
        k = gold_owed(game, total).get(player, 0)
        if k:
            expected += Fraction(pips(total), 36) * k
    return expected


def gold_board(board, *hexes: int):
    """A copy of ``board`` (a :class:`~catan_nb.board.Board`) with hexes ``hexes`` turned into gold fields.

    For teaching and tests; the tokens stay.  The copy's layout is ``"custom"`` (the base
    component counts no longer hold).
    """
    from ...board import Board

    data = board.to_dict()
    for i in hexes:
        if not board.hexes[i].token:
            raise ValueError(f"hex {i} ({board.hexes[i].terrain}) has no number token: a gold field needs one")
        data["hexes"][i]["terrain"] = Terrain.GOLD.value
    data["layout"] = "custom"
    data["name"] = f"{board.name}-gold"
    return Board.from_dict(data, source=f"{board.source} (gold fields {list(hexes)})")


def _check_pick(game, a: PickGold) -> None:
    game.require_phase(a, GOLD_PICK, rule="SF-1")
    if game.bank[a.resource.value] <= 0:
        raise IllegalActionError("B-COMP-14", f"the bank has no {a.resource} left: pick another resource", a)


def _apply_pick(game, a: PickGold) -> None:
    p = game.current_player
    game.gain(p, a.resource.value)
    game.log.append(a)
    left = game.stack[-1].data - 1
    if left <= 0 or not any(game.bank[r.value] for r in Resource):
        game.pop()
        if not any(game.bank[r.value] for r in Resource):  # B-COMP-14: nothing left to pick for anyone
            for q in range(game.n):
                game.drop(GOLD_PICK, q)
    else:
        game.update(left)


@register
class GoldFields(Module):
    """SF-1: gold fields, picked card by card in turn order from the active player."""

    name = NAME
    legal_in = ("gold_pick",)
    actions = {PickGold: (_check_pick, _apply_pick)}

    def on_roll(self, game, total: int) -> None:
        if total == 7 or not any(game.bank[r.value] for r in Resource):
            return
        owed = gold_owed(game, total)
        game.push_in_turn_order(GOLD_PICK, {q: k for q, k in owed.items() if k})  # the active player first

    def on_founding_settlement(self, game, player: int, node: int, second: bool) -> None:
        # B-SETUP-19 with SF-1: the second founding building pays 1 card per producing hex next to it,
        # a gold field's card of the owner's choice (a founding city too: 1 per hex, CK-SETUP-1).
        if not second or not any(game.bank[r.value] for r in Resource):
            return
        k = sum(1 for hx in game.topology.node_hexes[node] if game.hex_terrain[hx] is Terrain.GOLD)
        if k:
            game.push(GOLD_PICK, player, k)

    def legal(self, game, out: list) -> None:
        out.extend(a for a in _PICKS if game.bank[a.resource.value] > 0)

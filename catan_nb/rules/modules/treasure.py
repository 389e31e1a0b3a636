"""Treasure (RULES.md SF-4), a Seafarers element, as a rule module.

Some intersections at the corners of fog hexes hold treasure: the board file marks them with
``"treasure": true`` in its ``nodes``.  The first player whose road or ship reaches one (a path
piece placed, after the founding, with an end on it) turns over the top token of the scenario's
hidden treasure stack and gets what it shows:

``gold``
    2 resources of the player's choice, picked card by card like a gold field (SF-1);
``resources``
    2 resource cards drawn at random from the bank;
``development_card``
    the top card of the development deck, free (not playable this turn, B-TURN-5);
``free_paths``
    2 free roads or ships, placed at once as with Road Building (SF-17).

The bank's and the deck's limits apply (B-COMP-14): what they cannot give lapses.

PROPOSAL (SF-4 is a GAP: the treasure mix is not established).  The four kinds are SF-4's words;
the stack is the board's ``scenario.treasure`` list of kinds, and :data:`DEFAULT_TREASURE` (two of
each) when the scenario gives none.  Replace the data when the published mix is known; the module
reads only the node marks and that list.  Treasure on an intersection that no founding piece may
claim: founding roads and ships pass it by, the first piece built after the founding takes it.

The stack is shuffled with the game's seed and nobody may see it: a view shows how many tokens are
left and what has been found; :meth:`Game.determinized` deals it again.

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> from catan_nb.rules.modules.fog import FOG_ISLANDS
>>> g = Game(Board.load(FOG_ISLANDS), seed=1, rules=Rules(modules=("seafarers", "treasure")))
>>> len(treasure_spots(g)), g.view(0).modules["treasure"]["hidden"]
(6, 6)
"""

from __future__ import annotations

from enum import Enum

from ...constants import Resource, Terrain
from . import Module, deal_again, register

__all__ = ["Treasure", "TreasureKind", "DEFAULT_TREASURE", "treasure_spots", "NAME"]

NAME = "treasure"


class TreasureKind(str, Enum):
    """What a treasure token gives (SF-4's four kinds)."""

    GOLD = "gold"
    RESOURCES = "resources"
    DEVELOPMENT_CARD = "development_card"
    FREE_PATHS = "free_paths"

    def __str__(self) -> str:
        return self.value


#: PROPOSAL (SF-4 GAP): the hidden stack when the scenario lists none, two of each kind.
DEFAULT_TREASURE: tuple[TreasureKind, ...] = tuple(k for k in TreasureKind for _ in range(2))
#: Cards a ``gold`` or ``resources`` treasure gives, and free pieces of ``free_paths`` (PROPOSAL).
TREASURE_CARDS = 2
TREASURE_PATHS = 2


def treasure_spots(game) -> list[int]:
    """Intersections whose treasure nobody has found yet (public: the marks are printed)."""
    return list(game.ext[NAME]["spots"])


def _checked(game) -> tuple[list[int], list[str]]:
    """The marked intersections and the stack, checked against the board (each error names the field)."""
    from ...errors import BoardFileError

    board = game.board
    t = game.topology
    spots = []
    fog = {hx for hx, terrain in enumerate(game.hex_terrain) if terrain is Terrain.FOG}
    for v, data in board.graph.nodes(data=True):
        mark = data.get("treasure")
        if mark is None or mark is False:
            continue
        if mark is not True:
            raise BoardFileError(board.source, "nodes.treasure", f"a treasure mark is true or false, not {mark!r}")
        if not fog & set(t.node_hexes[v]):
            raise BoardFileError(board.source, "nodes.treasure",
                                 f"intersection {v} touches no fog hex: treasure lies on fogged intersections (SF-4)")
        spots.append(v)
    raw = board.scenario.get("treasure")
    if raw is None:
        stack = [k.value for k in DEFAULT_TREASURE]
    else:
        if not isinstance(raw, list) or len(raw) > 100:
            raise BoardFileError(board.source, "scenario.treasure", f"the treasure stack is a list of kinds, not {raw!r}"[:200])
        stack = []
        for i, kind in enumerate(raw):
            try:
                stack.append(TreasureKind(kind).value)
            except (ValueError, TypeError):
                raise BoardFileError(board.source, f"scenario.treasure[{i}]",
                                     f"{kind!r} is not a treasure; expected one of {[k.value for k in TreasureKind]}") from None
    if len(stack) < len(spots):
        raise BoardFileError(board.source, "scenario.treasure",
                             f"{len(stack)} treasure token(s) for {len(spots)} marked intersections (SF-4)")
    return sorted(spots), stack


def _give(game, player: int, kind: TreasureKind) -> None:
    from .development import ROAD_BUILDING, draw_dev, give_dev
    from .gold_fields import GOLD_PICK

    bank = game.bank
    n_res = len(Resource)
    if kind is TreasureKind.GOLD:
        if any(bank[r] for r in range(n_res)):
            game.push(GOLD_PICK, player, TREASURE_CARDS)
    elif kind is TreasureKind.RESOURCES:
        for _ in range(TREASURE_CARDS):
            counts = [bank[r] for r in range(n_res)]
            if not any(counts):
                break
            game.gain(player, game.draw_index(counts))
    elif kind is TreasureKind.DEVELOPMENT_CARD:
        if game.deck_size:
            give_dev(game, player, draw_dev(game))  # B-TURN-5: new, not this turn
    elif kind is TreasureKind.FREE_PATHS:
        if game.can_place_free(player, ROAD_BUILDING):
            game.push(ROAD_BUILDING, player, TREASURE_PATHS)


@register
class Treasure(Module):
    """SF-4: treasure on fogged intersections, found by the first road or ship to reach it."""

    name = NAME
    requires = ("fog", "gold_fields")

    def init(self, game) -> None:
        spots, stack = _checked(game)
        game.shuffle(stack)
        game.ext[NAME] = {"spots": spots, "stack": stack, "found": []}

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        st = game.ext[NAME]
        if founding or not st["spots"] or game.kinds[game.kind_id[kind]].site != "path":
            return
        for v in game.topology.edge_nodes[site]:
            if v in st["spots"] and st["stack"]:
                st["spots"].remove(v)
                found = TreasureKind(st["stack"].pop())
                st["found"].append([v, player, found.value])
                _give(game, player, found)

    def view(self, game, player: int) -> dict:
        st = game.ext[NAME]
        return {"spots": list(st["spots"]), "hidden": len(st["stack"]), "found": [list(x) for x in st["found"]]}

    def determinize(self, game, observer: int, rng) -> None:
        deal_again(game.ext[NAME]["stack"], rng)

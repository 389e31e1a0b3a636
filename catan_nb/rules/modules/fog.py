"""Fog (RULES.md SF-3), a Seafarers element, as a rule module.

Some hexes start hidden (terrain ``fog``).  A player whose road or ship reaches one — a path piece
placed on one of its edges — reveals it: the top tile of the scenario's hidden stack is turned
over with its number, and if it produces, the revealer takes 1 of its resource (SF-3; the bank
permitting, B-COMP-14).

The hidden stack is the board's ``scenario.fog`` list of ``[terrain, token]`` tiles, shuffled with
the game's seeded generator when the game starts.  Nobody may see it: a player's view shows only
how many tiles are left, and :meth:`Game.determinized` deals it again (the module's
``determinize`` hook).  Until revealed, a fog hex produces nothing and the robber cannot go there.

PROPOSAL (SF-3 says what a revealed hex gives, not what the stacks hold): the stack holds land
tiles only, so a revealed hex never turns into sea.  Treasure (SF-4) is the ``treasure`` module.

PROPOSAL, replaceable data (the published fog scenarios found on the starting island): a board whose
``scenario.founding_in_fog`` is ``false`` (the shipped fog map) lets the founding buildings stand only on
intersections touching land that shows its tile; the islands still in the fog are settled later, by
road or ship.  Without the field, founding next to fog is allowed.

Examples
--------
>>> from catan_nb import Board, Game
>>> g = Game(Board.load(FOG_ISLANDS), seed=1)  # the board's own modules: seafarers, fog, treasure
>>> hidden(g) == len(g.board.scenario["fog"]), g.view(0).modules["fog"]["hidden_tiles"] == hidden(g)
(True, True)
"""

from __future__ import annotations

from ...constants import Terrain
from ...errors import BoardFileError, IllegalActionError
from . import Module, deal_again, register

__all__ = ["Fog", "hidden", "fog_hexes", "founding_in_fog", "FOG_ISLANDS", "NAME"]

NAME = "fog"


def _fog_path():
    from ...board import BOARDS_DIR

    return BOARDS_DIR / "seafarers_fog.json"


#: The shipped fog scenario of our own design (SF-13 GAP proposal).
FOG_ISLANDS = _fog_path()


def hidden(game) -> int:
    """How many fog tiles are still face down (public)."""
    return len(game.ext[NAME]["stack"])


def fog_hexes(game) -> list[int]:
    """Hexes still in the fog."""
    return [hx for hx, t in enumerate(game.hex_terrain) if t is Terrain.FOG]


def _edge_hexes(game, e: int) -> list[int]:
    t = game.topology
    a, b = t.edge_nodes[e]
    return sorted((set(t.node_hexes[a]) | set(t.node_sea[a])) & (set(t.node_hexes[b]) | set(t.node_sea[b])))


def _reveal(game, player: int, hx: int) -> None:
    st = game.ext[NAME]
    if not st["stack"]:
        return
    terrain, token = st["stack"].pop()
    game.set_hex(hx, terrain=terrain, token=token or 0)
    st["revealed"].append([hx, terrain, token])
    r = Terrain.parse(terrain).resource
    if r is not None:
        game.gain(player, game.good_index(r))  # SF-3: the revealer takes 1 of its resource


def _checked_stack(game) -> list[list]:
    """The scenario's hidden stack, checked: each tile a land terrain and a number token when it
    produces, and at least as many tiles as fog hexes (or some fog could never be revealed)."""
    from ...errors import BoardFileError

    board = game.board
    raw = board.scenario.get("fog", [])
    if not isinstance(raw, list):
        raise BoardFileError(board.source, "scenario.fog", f"the fog stack is a list of [terrain, token], not {raw!r}")
    stack = []
    for i, tile in enumerate(raw):
        field = f"scenario.fog[{i}]"
        if not isinstance(tile, list) or len(tile) != 2:
            raise BoardFileError(board.source, field, f"a tile is [terrain, token], not {tile!r}")
        try:
            terrain = Terrain.parse(tile[0])
        except (ValueError, TypeError):
            raise BoardFileError(board.source, field, f"{tile[0]!r} is not a terrain") from None
        if terrain in (Terrain.SEA, Terrain.FOG):
            raise BoardFileError(board.source, field, f"a fog tile is land (PROPOSAL): not {terrain}")
        token = tile[1]
        producing = terrain.resource is not None or terrain is Terrain.GOLD
        if producing and (isinstance(token, bool) or not isinstance(token, int) or token not in range(2, 13) or token == 7):
            raise BoardFileError(board.source, field, f"the {terrain} needs a number token 2..6 or 8..12, not {token!r}")
        if not producing and token is not None:
            raise BoardFileError(board.source, field, f"the {terrain} carries no token, not {token!r}")
        stack.append([terrain.value, token])
    n_fog = sum(1 for t in game.hex_terrain if t is Terrain.FOG)
    if len(stack) < n_fog:
        raise BoardFileError(board.source, "scenario.fog",
                             f"{len(stack)} tile(s) for {n_fog} fog hexes: some fog could never be revealed (SF-3)")
    return stack


def founding_in_fog(board) -> bool:
    """Whether the board lets founding buildings stand next to fog only (``scenario.founding_in_fog``,
    default ``True``).

    Raises
    ------
    BoardFileError
        The field is not true or false.
    """
    raw = board.scenario.get("founding_in_fog", True)
    if not isinstance(raw, bool):
        raise BoardFileError(board.source, "scenario.founding_in_fog", f"expected true or false, not {raw!r}")
    return raw


def _shows_land(game, v: int) -> bool:
    """Whether intersection ``v`` touches a land hex that shows its tile (not fog)."""
    return any(game.hex_terrain[h] is not Terrain.FOG for h in game.topology.node_hexes[v])


@register
class Fog(Module):
    """SF-3: fog hexes revealed by a road or ship reaching them; the revealer takes 1 resource."""

    name = NAME

    def init(self, game) -> None:
        founding_in_fog(game.board)  # a bad field is an error at once, naming the file
        stack = _checked_stack(game)
        game.shuffle(stack)
        game.ext[NAME] = {"stack": stack, "revealed": []}

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        pk = game.kinds[game.kind_id[kind]]
        if pk.site != "path":
            return
        for hx in _edge_hexes(game, site):
            if game.hex_terrain[hx] is Terrain.FOG:
                _reveal(game, player, hx)

    def robber_targets(self, game, hexes: list[int]) -> list[int]:
        return [hx for hx in hexes if game.hex_terrain[hx] is not Terrain.FOG]

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        if kind == "settlement" and founding and not founding_in_fog(game.board):
            return [v for v in sites if _shows_land(game, v)]
        return sites

    def check_site(self, game, action, player: int, kind: str, site: int, founding: bool) -> None:
        if kind == "settlement" and founding and not founding_in_fog(game.board) and not _shows_land(game, site):
            raise IllegalActionError("SF-3", f"intersection {site} touches only hexes still in the fog: on this map the "
                                     "founding buildings stand on land that shows its tile", action)

    def view(self, game, player: int) -> dict:
        return {"hidden_tiles": hidden(game), "revealed": [list(x) for x in game.ext[NAME]["revealed"]]}

    def determinize(self, game, observer: int, rng) -> None:
        deal_again(game.ext[NAME]["stack"], rng)

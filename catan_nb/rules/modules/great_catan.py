"""Great Catan (RULES.md SF-15, SF-16), the Seafarers scenarios 15 and 16, as a rule module.

The small islands start without number tokens.  When a player's ship reaches the edge of a
small-island hex that has none (a ship placed or moved onto one of its sides, after the founding),
that hex gets a token (SF-15):

* the first 4 tokens (3 players) or 5 (4 players) come from the supply, face down, in an order
  shuffled with the game's seed that nobody may see;
* after that, the active player must move a token from the main island (SF-16), a decision on the
  stack answered with :class:`MoveNumberToken`.  The token must (1) come from a hex where the
  player has a settlement or city, (2) leave every main-island building at least one numbered hex
  next to it, and (3) not put a 6 next to an 8 on a small island.  If no token meets all three,
  the conditions are dropped one at a time, first to third (:func:`token_sources`).

The scenario's data (board ``scenario.great_catan``): ``main``, any hex of the main island;
``supply``, the supply's tokens by player count (``{"3": [...], "4": [...]}``).  Small-island hexes
are the land hexes off the main island whose ``token`` is ``null`` in the board file (the board
loader allows that only where ``scenario.tokens_later`` is true).  Founding settlements stand on the main island.

PROPOSAL (SF-13 is a GAP: the published maps, supplies and targets are not established): the
shipped ``boards/seafarers_great_catan.json`` is our own design, replaceable data.  SF-16's third
condition is read as written: a 6 may not sit next to an 8 (two 6s, or two 8s, are not refused).

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> g = Game(Board.load(GREAT_CATAN), seed=1, rules=Rules(modules=("great_catan",)))
>>> len(small_hexes(g)), len(g.ext["great_catan"]["supply"])
(11, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...constants import Terrain
from ...errors import IllegalActionError
from ..actions import Action
from ..phase import Phase
from . import Module, deal_again, register

__all__ = ["GreatCatan", "MoveNumberToken", "MOVE_TOKEN", "token_sources", "small_hexes", "main_hexes",
           "GREAT_CATAN", "NAME"]

NAME = "great_catan"
#: SF-16: the active player moves a token from the main island to the hex in ``data``.
MOVE_TOKEN = Phase.register("move_token", "{player} moves a number token from the main island to a small island (SF-16)",
                            owner=NAME)
#: SF-15: tokens the supply gives before main-island tokens must move, by player count.
SUPPLY_SIZE = {3: 4, 4: 5}


def _path():
    from ...board import BOARDS_DIR

    return BOARDS_DIR / "seafarers_great_catan.json"


#: The shipped Great Catan scenario of our own design (SF-13 GAP proposal).
GREAT_CATAN = _path()


@dataclass(frozen=True, slots=True)
class MoveNumberToken(Action):
    """Move the number token of main-island hex ``from_hex`` to the small-island hex your ship reached (SF-16)."""

    from_hex: int


def _main_island(board) -> set[int]:
    memo = board.__dict__.get("_great_catan_main")
    if memo is None:
        from .seafarers import islands

        rc = tuple(board.scenario["great_catan"]["main"])
        hx = board.hex_at(*rc).id
        memo = next(set(group) for group in islands(board) if hx in group)
        board.__dict__["_great_catan_main"] = memo
    return memo


def main_hexes(game) -> list[int]:
    """The main island's hexes."""
    return sorted(_main_island(game.board))


def small_hexes(game) -> list[int]:
    """The small-island hexes that receive tokens (land off the main island, no token printed)."""
    main = _main_island(game.board)
    return [t.id for t in game.board.hexes
            if t.id not in main and t.is_land and t.token is None and (t.resource is not None or t.terrain is Terrain.GOLD)]


def _neighbours(game, hx: int) -> list[int]:
    t = game.topology
    corners = set(t.hex_nodes[hx])
    out = set()
    for v in corners:
        for g in t.node_hexes[v]:
            if g != hx and len(corners & set(t.hex_nodes[g])) >= 2:
                out.add(g)
    return sorted(out)


def token_sources(game, player: int, to_hex: int) -> tuple[list[int], int]:
    """SF-16: the main-island hexes whose token ``player`` may move to ``to_hex``, and how many of the
    three conditions hold for them (3: all; 2: the first dropped; 1: the first two; 0: none).

    Examples
    --------
    >>> from catan_nb import Board, Game
    >>> from catan_nb.rules import Rules
    >>> g = Game(Board.load(GREAT_CATAN), seed=1, start="founding", rules=Rules(modules=("great_catan",)))
    >>> sources, kept = token_sources(g, 0, small_hexes(g)[0])
    >>> kept   # nobody has built yet: no hex has seat 0's building, so the first condition is dropped
    2
    """
    t = game.topology
    tok = game.hex_token
    owner, kind = game.node_owner, game.node_kind
    building = [bool(k and k.building) for k in game.kinds]
    main = _main_island(game.board)
    numbered = [h for h in sorted(main) if tok[h]]
    small = set(small_hexes(game))

    def own(h):  # (1) a hex where the player has a settlement or city
        return any(owner[v] == player and building[kind[v]] for v in t.hex_nodes[h])

    def keeps(h):  # (2) every main-island building keeps a numbered hex next to it
        for v in t.hex_nodes[h]:
            if owner[v] >= 0 and building[kind[v]] and not any(g != h and tok[g] for g in t.node_hexes[v]):
                return False
        return True

    red_near = {6: False, 8: False}
    for g in _neighbours(game, to_hex):
        if g in small and tok[g] in red_near:
            red_near[tok[g]] = True

    def no_red_pair(h):  # (3) no 6 next to an 8 on a small island
        return not ((tok[h] == 6 and red_near[8]) or (tok[h] == 8 and red_near[6]))

    conditions = (own, keeps, no_red_pair)
    for dropped in range(4):
        ok = [h for h in numbered if all(c(h) for c in conditions[dropped:])]
        if ok:
            return ok, 3 - dropped
    return [], 0


def _reached(game, e: int) -> list[int]:
    """Token-less small-island hexes with path ``e`` on their side."""
    t = game.topology
    a, b = t.edge_nodes[e]
    pending = {d for _, d in game.ext[NAME]["waiting"]}
    return [h for h in sorted(set(t.node_hexes[a]) & set(t.node_hexes[b]))
            if h in game.ext[NAME]["small"] and not game.hex_token[h] and h not in pending]


def _check_move(game, a: MoveNumberToken) -> None:
    game.require_phase(a, MOVE_TOKEN, rule="SF-16")
    to_hex = game.stack[-1].data
    sources, kept = token_sources(game, game.current_player, to_hex)
    if a.from_hex not in sources:
        why = ("no main-island token is left to move" if not sources else
               f"hex {a.from_hex!r} is not one of {sources}, the main-island tokens that meet "
               f"{['none', 'the third', 'the second and third', 'all three'][kept]} of SF-16's conditions")
        raise IllegalActionError("SF-16", why, a)


def _apply_move(game, a: MoveNumberToken) -> None:
    to_hex = game.stack[-1].data
    token = game.hex_token[a.from_hex]
    game.set_hex(a.from_hex, token=0)
    game.set_hex(to_hex, token=token)
    st = game.ext[NAME]
    st["waiting"] = [w for w in st["waiting"] if w[1] != to_hex]
    st["moved"].append([a.from_hex, to_hex, token])
    game.log.append(a)
    game.pop()


@register
class GreatCatan(Module):
    """SF-15, SF-16: small islands get number tokens when ships reach them."""

    name = NAME
    requires = ("seafarers",)
    players = (3, 4)
    legal_in = ("move_token",)
    actions = {MoveNumberToken: (_check_move, _apply_move)}

    def init(self, game) -> None:
        from ...errors import BoardFileError

        board = game.board
        data = board.scenario.get("great_catan")
        if not isinstance(data, dict):
            raise BoardFileError(board.source, "scenario.great_catan",
                                 "a Great Catan board says which hex is on its main island and what the supply holds")
        main = data.get("main")
        try:
            hx = board.hex_at(*main).id
        except Exception as err:  # noqa: BLE001 - any malformed value is the file's fault
            raise BoardFileError(board.source, "scenario.great_catan.main", f"{main!r} is not a hex of this board: {err}") from None
        if not game.topology.hex_land[hx]:
            raise BoardFileError(board.source, "scenario.great_catan.main", f"hex {tuple(main)} is sea, not the main island")
        supply = data.get("supply")
        want = SUPPLY_SIZE.get(game.n)
        key = str(game.n)
        if not isinstance(supply, dict) or key not in supply:
            raise BoardFileError(board.source, "scenario.great_catan.supply", f"no supply for {game.n} players")
        tokens = supply[key]
        if not isinstance(tokens, list) or len(tokens) != want:
            raise BoardFileError(board.source, f"scenario.great_catan.supply.{key}",
                                 f"SF-15: {want} tokens come from the supply with {game.n} players, not {tokens!r}"[:200])
        for i, k in enumerate(tokens):
            if isinstance(k, bool) or not isinstance(k, int) or k not in range(2, 13) or k == 7:
                raise BoardFileError(board.source, f"scenario.great_catan.supply.{key}[{i}]",
                                     f"a number token is 2..6 or 8..12, not {k!r}")
        small = small_hexes(game)
        if not small:
            raise BoardFileError(board.source, "hexes", "SF-15: no small-island hex without a token for ships to reach")
        stack = list(tokens)
        game.shuffle(stack)
        game.ext[NAME] = {"supply": stack, "small": small, "waiting": [], "moved": []}

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        if kind != "settlement" or not founding:
            return sites
        main = _main_island(game.board)  # founding settlements stand on the main island (scenario data)
        t = game.topology
        return [v for v in sites if any(h in main for h in t.node_hexes[v])]

    def check_site(self, game, action, player: int, kind: str, site: int, founding: bool) -> None:
        if kind != "settlement" or not founding:
            return
        if not any(h in _main_island(game.board) for h in game.topology.node_hexes[site]):
            raise IllegalActionError("SF-15", f"intersection {site} is off the main island: in Great Catan the founding "
                                     "settlements stand on the main island (scenario data, our SF-13 proposal)", action)

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        if founding or kind != "ship":
            return
        st = game.ext[NAME]
        for hx in _reached(game, site):
            if st["supply"]:  # SF-15: the first tokens from the supply
                game.set_hex(hx, token=st["supply"].pop())
                continue
            if token_sources(game, player, hx)[0]:  # SF-16: then one moved from the main island
                st["waiting"].append([player, hx])
                game.push(MOVE_TOKEN, player, hx)

    def legal(self, game, out: list) -> None:
        to_hex = game.stack[-1].data
        out.extend(MoveNumberToken(h) for h in token_sources(game, game.current_player, to_hex)[0])

    def view(self, game, player: int) -> dict:
        st = game.ext[NAME]
        return {"supply_left": len(st["supply"]), "small": list(st["small"]), "moved": [list(m) for m in st["moved"]]}

    def determinize(self, game, observer: int, rng) -> None:
        deal_again(game.ext[NAME]["supply"], rng)

"""The Corsica and New York scenarios (RULES.md section 15, SC-1..13), as a rule module.

The board file carries the scenario (SC-13 is a GAP: ``boards/corsica.json`` and
``boards/new_york.json`` are our proposals, replaceable data): intersections marked ``locality``
(the only places for settlements, SC-5), paths marked ``road`` (the only places for roads, SC-6),
red paths with a ``rate`` (SC-8), intersections marked ``vp`` (SC-3, SC-10) and ``links`` from a
locality to hexes it does not touch (SC-9: the engine's topology already counts them for production
and the robber).  The robber starts where the file says (SC-4).

Rules here: settlements only on locality spaces (SC-5); roads only on marked paths (SC-6), and a
road that reaches an empty locality is not continued from it until a settlement stands there
(SC-7); a road on a red path gives its builder that bank rate for the rest of the game (SC-8);
with 3 or 4 players a Catan token lies on every VP intersection and the first player to reach it
with a road takes it, 1 VP (SC-3, SC-10); with 5 or 6 players there are no tokens and the VP
intersections are ordinary locality spaces (SC-11, DECISION); the target is 13, 12 or 10 VP for
3, 4 or 5-6 players (SC-12).

DECISIONS (where the spec is silent; ``docs/scenarios.md``): with 3 or 4 players a VP intersection
holds its token and takes no settlement (SC-11 makes it a locality only with 5-6); a founding road
on a red path or reaching a VP intersection counts like any road; the other side of a board (SC-2,
a GAP) is the same map with the numbers of ``scenario.sides.B`` (:func:`with_side`).

DECISION, a game nobody can win (:data:`STALL_RULE`): on a scenario board every locality may be
taken or out of reach while nobody is at the target.  When a turn would begin and no player can
reach the target any more (:func:`can_reach_target`: the development deck is empty, nobody holds a
knight, and an upper bound of each player's VP from the pieces they could still place is below the
target, :func:`best_vp`), the game ends and the player with the most VP wins; a tie goes to the
tied player first in turn order from the one whose turn it would have been.  This holds for games
of these modules with the base game's and the 5-6 extension's; with any other module (whose VP
sources this module does not know) the rule is off.

State in ``game.ext["corsica_new_york"]``: ``tokens`` as ``[node, seat or None]`` rows (3-4 players),
each seat's red-path ``rates`` as ``[ratio, resource or None]`` rows, and ``stalled`` (the game
ended under the rule above).

Examples
--------
>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> b = Board.load(CORSICA)
>>> g = Game(b, players=4, seed=1, rules=Rules.for_board(b))
>>> g.vp_target, len(g.ext["corsica_new_york"]["tokens"])
(12, 11)
"""

from __future__ import annotations

from ...constants import DevCard, Resource
from ...errors import BoardFileError, IllegalActionError
from ..phase import Decision, Phase
from . import Module, register

__all__ = ["CorsicaNewYork", "NAME", "TARGETS", "CORSICA", "NEW_YORK", "with_side", "scenario_data", "localities",
           "best_vp", "can_reach_target", "STALL_RULE"]

NAME = "corsica_new_york"
#: SC-12: the target by player count.
TARGETS = {3: 13, 4: 12, 5: 10, 6: 10}
#: SC-3, SC-11: player counts that play with Catan tokens on the VP intersections.
TOKEN_PLAYERS = (3, 4)
#: SC-10: a Catan token's worth.
TOKEN_VP = 1


#: DECISION (docs/scenarios.md): a game nobody can win any more ends; the leader wins.
STALL_RULE = "when no player can reach the target any more, the game ends and the player with the most VP wins"
#: The modules whose VP sources :func:`best_vp` knows (the base game's, the 5-6 extension's, these).
_KNOWN = frozenset({"production", "robber", "trade", "development", "five_six", NAME, "erie_canal"})


def _shipped(name: str):
    from ...board import BOARDS_DIR

    return BOARDS_DIR / name


CORSICA = _shipped("corsica.json")
NEW_YORK = _shipped("new_york.json")

_MEMO: dict[int, tuple] = {}


class ScenarioData:
    """The scenario marks of a board, derived once from its graph (plain data for the hot path)."""

    __slots__ = ("localities", "canal", "vp_nodes", "road_ok", "red", "kinds")

    def __init__(self, board) -> None:
        g, t = board.graph, board.topology
        nodes = g.nodes
        self.localities = frozenset(v for v in range(t.n_nodes) if nodes[v].get("locality"))
        #: Locality kinds by node (``"town"``, ``"canal"``...: SC-5's symbols).
        self.kinds = {v: nodes[v]["locality"] for v in self.localities}
        self.canal = frozenset(v for v, k in self.kinds.items() if k == "canal")
        self.vp_nodes = tuple(sorted(v for v in range(t.n_nodes) if nodes[v].get("vp")))
        ends = [board.path_nodes(e) for e in range(t.n_edges)]
        self.road_ok = tuple(bool(g.edges[a, b].get("road")) for a, b in ends)
        red = {}
        for e, (a, b) in enumerate(ends):
            rate = g.edges[a, b].get("rate")
            if rate is not None:
                res = rate.get("resource")
                red[e] = (int(rate["ratio"]), None if res is None else Resource.parse(res).value)
        self.red = red


def scenario_data(board) -> ScenarioData:
    """The board's scenario marks (memoised per board)."""
    hit = _MEMO.get(id(board))
    if hit is None or hit[0] is not board:
        hit = _MEMO[id(board)] = (board, ScenarioData(board))
    return hit[1]


def localities(game) -> frozenset[int]:
    """SC-5, SC-11: where settlements may stand in this game (VP intersections too with 5-6 players)."""
    d = scenario_data(game.board)
    return d.localities if game.n in TOKEN_PLAYERS else d.localities | frozenset(d.vp_nodes)


def _facts(game):
    """What every player may still place: pieces left, settlement spots, whether they may still build
    a road; whether anything may still change the Longest Road; the free locality spaces.  ``None``
    while a development card may still be bought or a knight played."""
    if game.deck_size or any(game.dev_cards(q)[DevCard.KNIGHT] for q in range(game.n)):
        return None
    left = [game.pieces_left(q) for q in range(game.n)]
    settle = [game.candidates(q, "settlement") if left[q]["settlement"] else [] for q in range(game.n)]
    # a road may open the way, and a settlement on a locality its road reaches opens it too (SC-7)
    roads = [bool(left[q]["road"] and (settle[q] or game.candidates(q, "road"))) for q in range(game.n)]
    changes = any(roads) or any(settle)
    free = sum(1 for v in localities(game) if game.node_owner[v] < 0 and not game.blocked[v])
    return left, settle, roads, changes, free


def best_vp(game, player: int) -> int | None:
    """The most VP ``player`` could still reach (for the DECISION :data:`STALL_RULE`), or ``None``
    while a development card may still be bought or a knight played (a VP card, the Largest Army).

    An upper bound from the pieces: their VP now; 1 for every settlement they could still build
    (at most their settlements left, and at most the free locality spaces their roads touch, or
    all free ones while they may still build a road); 1 for every upgrade of a settlement of theirs,
    built or to be built, to a city (at most their cities left); 2 for the Longest Road unless they
    hold it, while anyone may still build a road or a settlement; 1 for every Catan token still on
    the board (SC-10) while they may still build a road.
    """
    facts = _facts(game)
    return None if facts is None else _best(game, player, facts)


def _best(game, p: int, facts) -> int:
    left, settle, roads, changes, free = facts
    new = min(left[p]["settlement"], free if roads[p] else len(settle[p]))
    upgrades = min(left[p]["city"], len(game.placed[game.kind_id["settlement"]][p]) + new)
    longest = 2 if changes and game.longest_road_holder != p else 0
    tokens = sum(1 for _, o in game.ext[NAME]["tokens"] if o is None) if roads[p] else 0
    return game.vp(p) + new + upgrades + longest + TOKEN_VP * tokens


def can_reach_target(game) -> bool:
    """Whether some player may still reach the target (:func:`best_vp`; the DECISION :data:`STALL_RULE`)."""
    facts = _facts(game)
    return facts is None or any(_best(game, p, facts) >= game.vp_target for p in range(game.n))


def check_board(board) -> None:
    """Raise :class:`BoardFileError` naming the field when a scenario board cannot be played."""
    d = scenario_data(board)
    if not d.localities:
        raise BoardFileError(board.source, "nodes", "a scenario board marks its locality spaces (SC-5): none here")
    if not any(d.road_ok):
        raise BoardFileError(board.source, "paths", "a scenario board marks the paths for roads (SC-6): none here")
    for v in d.localities:
        if not any(d.road_ok[e] for e in board.topology.node_edges[v]):
            raise BoardFileError(board.source, "paths", f"locality {v} has no path for roads (SC-6): it could not "
                                 "be founded")


def with_side(board, side: str = "B"):
    """The board laid on its other side (SC-2, a GAP): the numbers of ``scenario.sides[side]``.

    Our proposal, as replaceable data: a side lists ``[row, col, token]`` for every numbered hex.
    """
    from ...board import Board

    sides = board.scenario.get("sides") or {}
    if side not in sides:
        raise BoardFileError(board.source, "scenario.sides", f"no side {side!r} (sides: {sorted(sides)})")
    data = board.to_dict()
    new = {(r, c): tok for r, c, tok in sides[side]["tokens"]}
    for h in data["hexes"]:
        if (h["row"], h["col"]) in new:
            h["token"] = new[(h["row"], h["col"])]
    data["name"] = f"{board.name} (side {side})"
    return Board.from_dict(data, source=f"{board.source} side {side}")


@register
class CorsicaNewYork(Module):
    """SC-3..12 on a scenario board (see the module docstring)."""

    name = NAME
    players = (3, 4, 5, 6)

    def init(self, game) -> None:
        check_board(game.board)
        d = scenario_data(game.board)
        tokens = [[v, None] for v in d.vp_nodes] if game.n in TOKEN_PLAYERS else []
        game.ext[NAME] = {"tokens": tokens, "rates": [[] for _ in range(game.n)], "stalled": False}

    def vp_target(self, game) -> int:
        targets = game.board.scenario.get("targets") or {}
        return int(targets.get(str(game.n), TARGETS[game.n]))  # SC-12

    # ------------------------------------------------------------------ where pieces go
    def _road_ok(self, game, player: int, e: int) -> bool:
        d = scenario_data(game.board)
        if not d.road_ok[e]:
            return False
        places = localities(game)
        owner, kinds = game.node_owner, game.kinds
        mine = game.road_nodes[player]
        for v in game.topology.edge_nodes[e]:  # SC-7: on from one's building or a bare intersection only
            o = owner[v]
            if o == player and kinds[game.node_kind[v]].building:
                return True
            if v in mine and o < 0 and v not in places:
                return True
        return False

    def allowed_sites(self, game, player: int, kind: str, sites: list[int], founding: bool) -> list[int]:
        if kind == "settlement":
            places = localities(game)
            return [v for v in sites if v in places]
        if kind == "road":
            return [e for e in sites if self._road_ok(game, player, e)]
        return sites

    def check_site(self, game, action, player: int, kind: str, site: int, founding: bool) -> None:
        if kind == "settlement" and site not in localities(game):
            why = " (a VP intersection holds its token with 3-4 players)" if site in scenario_data(game.board).vp_nodes else ""
            raise IllegalActionError("SC-5", f"intersection {site} is not a locality space{why}", action)
        if kind == "road":
            d = scenario_data(game.board)
            if not d.road_ok[site]:
                raise IllegalActionError("SC-6", f"path {site} is not marked for roads", action)
            if not self._road_ok(game, player, site):
                raise IllegalActionError("SC-7", f"path {site} continues from an empty locality space: a road goes on "
                                         "from it once a settlement stands there", action)

    # ------------------------------------------------------------------ what roads earn
    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        if kind != "road":
            return
        st = game.ext[NAME]
        d = scenario_data(game.board)
        rate = d.red.get(site)
        if rate is not None and list(rate) not in st["rates"][player]:  # SC-8: for the rest of the game
            st["rates"][player].append(list(rate))
            st["rates"][player].sort(key=lambda r: (r[0], -1 if r[1] is None else r[1]))
        ends = game.topology.edge_nodes[site]
        for row in st["tokens"]:  # SC-10: the first to reach it with a road
            if row[1] is None and row[0] in ends:
                row[1] = player

    def rate(self, game, player: int, good: int, rate: int) -> int:
        for ratio, res in game.ext[NAME]["rates"][player]:
            if good < len(Resource) and (res is None or res == good):
                rate = min(rate, ratio)
        return rate

    def vp(self, game, player: int, visible: bool) -> int:
        return TOKEN_VP * sum(1 for _, o in game.ext[NAME]["tokens"] if o == player)

    # ------------------------------------------------------------------ a game nobody can win
    def on_turn_start(self, game) -> None:
        if any(m.name not in _KNOWN for m in game.modules) or can_reach_target(game):
            return
        n, first = game.n, game.active_player  # STALL_RULE (DECISION): the standings are final
        winner = max(((first + i) % n for i in range(n)), key=lambda q: game.vp(q))
        game.ext[NAME]["stalled"] = True
        game.winner = winner
        game.stack[:] = [Decision(Phase.GAME_OVER, winner)]

    def view(self, game, player: int) -> dict:
        st = game.ext[NAME]
        return {"tokens": [list(r) for r in st["tokens"]], "rates": [[list(x) for x in r] for r in st["rates"]]}

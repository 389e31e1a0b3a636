"""What a spot is worth, in every rule module: the yields and bonuses behind the placement score.

The placement score (:mod:`catan_nb.analysis.placement`) and the bots
(:mod:`catan_nb.analysis.value_bot`) price an intersection from the same knowledge:

* what a piece collects from each hex comes from the engine (:meth:`Game.collects
  <catan_nb.rules.game_goods.Goods.collects>`: a Cities & Knights city on a forest takes a lumber
  and a paper, CK-COM-2);
* what the engine cannot price, the game's rule modules say through their bot features
  (:meth:`~catan_nb.analysis.bot_features.ModuleFeatures.hex_yield`): a gold field pays a card of
  one's choice (SF-1), a fog hex its expected tile from the hidden stack (SF-3), a small island of
  Great Catan the average token still to come (SF-15);
* what settling a spot earns beyond production, and what is worth reaching from it, the same
  features say (``spot_bonus``: a foreign island's special points, SF-13, harbour points, SF-14;
  ``targets``: a Catan token, SC-10, treasure, SF-4, a canal locality, ERIE-2), in victory points;
* where a founding piece may stand comes from the engine's own candidates (scenario spaces, SC-5)
  and which piece it is from :meth:`Game.founding_building
  <catan_nb.rules.game_pieces.Placement.founding_building>` (a city in the second round of Cities
  & Knights, CK-SETUP-1).

:class:`SpotTable` holds all of it as numpy arrays, derived once per game and seat; it names no
module.

Examples
--------
>>> from catan_nb import Board, Game, Rules
>>> board = Board.beginner()
>>> base = SpotTable(Game(board, seed=1))
>>> ck = SpotTable(Game(board, seed=1, rules=Rules(modules=("cities_knights",))))
>>> base.founding_kinds, ck.founding_kinds
(('settlement', 'settlement'), ('settlement', 'city'))
>>> v = 31
>>> round(float(base.resource_cards("city")[v]), 4), round(float(ck.resource_cards("city")[v]), 4)
(0.6111, 0.3056)
>>> ck.describe(v, "city")       # a forest, a pasture and a mountains: half commodities (CK-COM-2)
{'lumber': 0.0556, 'wool': 0.1111, 'ore': 0.1389, 'cloth': 0.1111, 'coin': 0.1389, 'paper': 0.0556}
"""

from __future__ import annotations

import numpy as np

from ..constants import Resource, pips
from ..rules import Game
from .bot_features import ANY, best_two, features_for
from .value_bot import GOLD_WORTH, SPOT_DISCOUNT, SPOT_VP

__all__ = ["SpotTable", "GOLD_WORTH", "SPOT_VP", "SPOT_DISCOUNT"]


def steps_within(adjacency, source: int, depth: int) -> dict[int, int]:
    """Breadth first from ``source``: each intersection at most ``depth`` steps away and its steps.

    Examples
    --------
    >>> steps_within([[1], [0, 2], [1]], 0, 1)
    {0: 0, 1: 1}
    """
    seen = {source: 0}
    frontier = [source]
    for d in range(1, depth + 1):
        nxt = []
        for v in frontier:
            for u in adjacency[v]:
                if u not in seen:
                    seen[u] = d
                    nxt.append(u)
        frontier = nxt
    return seen


def _chance(token: int) -> float:
    return pips(token) / 36.0


class SpotTable:
    """Per-intersection worth of a game's founding pieces for one seat, as plain numpy arrays.

    Parameters
    ----------
    game : Game
        The game studied (its board, rule modules and pieces).  Hexes are read as they are now (a
        fog hex revealed counts as its tile); the robber is ignored (a spot's worth is the long run).
    seat : int
        Whose bonuses and targets count (a foreign island is foreign to someone, SF-12).

    Attributes
    ----------
    n : int
        Intersections.
    goods : tuple
        The game's goods (resources first, then any a module adds: commodities).
    resource_cols, commodity_cols : list of int
        Indices of ``goods`` that are resources, and the rest.
    founding_kinds : tuple of str
        The building ``seat`` founds in the first and the second round (B-SETUP-15, B-SETUP-16,
        CK-SETUP-1).
    sites : numpy.ndarray of bool
        Where a founding building may go on an empty board (land, the modules' spaces: SC-5...).
    tokens : numpy.ndarray of int
        A bit per number token each intersection collects on.
    special, generic : numpy.ndarray
        Per intersection, a one-hot row of the 2:1 harbour's resource, and whether it has a 3:1 harbour.
    bonus : numpy.ndarray
        Victory points settling each intersection earns ``seat`` beyond production (``spot_bonus``).
    near : numpy.ndarray
        Targets worth reaching from each intersection, in victory points, discounted by the path pieces
        still to build as the bots discount them (:data:`SPOT_DISCOUNT`).
    supply : numpy.ndarray
        Expected cards per roll of each resource a settlement on every hex would see: the board's
        supply, for scarcity.
    hidden : dict
        Hexes whose tile is hidden (``hex_outcomes``: a fog hex), with the chance that each turns out to
        give each resource.
    none : numpy.ndarray
        ``(n, resources)``: the chance that none of an intersection's hidden hexes gives each resource.
    """

    def __init__(self, game: Game, seat: int = 0):
        t = game.topology
        self.game = game
        self.seat = seat
        self.n = n = t.n_nodes
        self.goods = game.goods
        self.resource_cols = [i for i, g in enumerate(self.goods) if isinstance(g, Resource)]
        self.commodity_cols = [i for i, g in enumerate(self.goods) if not isinstance(g, Resource)]
        self.mods = features_for(game)
        self.founding_kinds = (game.founding_building(seat, False)[0], game.founding_building(seat, True)[0])
        self._hex_cache: dict[str, list[np.ndarray]] = {}
        self._yields: dict[tuple[str, bool], np.ndarray] = {}
        self._paths: list[list[int]] | None = None
        # hexes whose tile is hidden (a fog hex): the chance that each turns out to give each resource
        self.hidden: dict[int, np.ndarray] = {}
        for h in range(game.topology.n_hexes):
            for m in self.mods:
                outcomes = m.hex_outcomes(game, h)
                if outcomes is not None:
                    q = np.zeros(len(self.resource_cols))
                    for p, y in outcomes:
                        for g, _ in y:
                            if g != ANY:
                                q[self.resource_cols.index(g)] += p
                    self.hidden[h] = q
                    break
        none = np.ones((self.n, len(self.resource_cols)))
        for v in range(self.n):
            for h in game.topology.node_hexes[v]:
                if h in self.hidden:
                    none[v] *= 1.0 - self.hidden[h]
        #: Per intersection and resource, the chance that none of its hidden hexes turns out to give it.
        self.none = none
        tokmask = np.zeros(n, dtype=np.int64)
        for v in range(n):
            for h in t.node_hexes[v]:
                tok = game.hex_token[h]
                if tok and self._hex_row("settlement", h).any():
                    tokmask[v] |= 1 << tok
        self.tokens = tokmask
        special = np.zeros((n, len(self.resource_cols)))
        generic = np.zeros(n, dtype=bool)
        for v, code in enumerate(t.node_harbour):
            if isinstance(code, Resource):
                special[v, code.value] = 1.0
            elif code is not None:
                generic[v] = True
        self.special, self.generic = special, generic
        self.sites = self._founding_sites()
        bonus = np.zeros(n)
        for m in self.mods:
            for v, x in m.spot_bonus(game, seat).items():
                bonus[v] += x
        self.bonus = bonus
        self.near = self._near()
        supply = np.zeros(len(self.goods) + 1)
        for h in range(t.n_hexes):
            supply += self._hex_row("settlement", h)
        self.supply = supply[self.resource_cols]

    # ------------------------------------------------------------------ yields
    def _hex_row(self, kind: str, h: int) -> np.ndarray:
        """Expected cards per roll of each good (and, last, of one's choice) a piece of ``kind`` takes from hex ``h``."""
        rows = self._hex_cache.get(kind)
        if rows is None:
            rows = self._hex_cache[kind] = [None] * self.game.topology.n_hexes  # type: ignore[list-item]
        row = rows[h]
        if row is None:
            game = self.game
            row = np.zeros(len(self.goods) + 1)
            tok = game.hex_token[h]
            got = game.collects(kind, h)
            if got and tok:
                for g, k in got:
                    row[g] += k * _chance(tok)
            else:  # a hex the engine cannot price: a gold field, a fog hex, a token still to come
                produces = game.kinds[game.kind_id[kind]].produces
                for m in self.mods:
                    y = m.hex_yield(game, h)
                    if y is not None:
                        for g, p in y:
                            row[-1 if g == ANY else g] += produces * p
                        break
            rows[h] = row
        return row

    def hex_cards(self, kind: str, h: int) -> float:
        """Expected resource cards per roll a piece of ``kind`` takes from hex ``h`` (a pick of one's choice
        at :data:`GOLD_WORTH`).

        Examples
        --------
        >>> from catan_nb import Board, Game
        >>> round(SpotTable(Game(Board.beginner(), seed=1)).hex_cards("city", 0), 4)   # a 10: 3/36, twice
        0.1667
        """
        row = self._hex_row(kind, h)
        return float(row[self.resource_cols].sum() + GOLD_WORTH * row[-1])

    def paths(self) -> list[list[int]]:
        """Each intersection's neighbours along the paths a buildable path piece of the game may use (roads;
        ships at sea in Seafarers; a module's own limits), derived once."""
        if self._paths is None:
            self._paths = self._path_adjacency()
        return self._paths

    def yields(self, kind: str = "settlement", *, certain: bool = False) -> np.ndarray:
        """``(n, goods + 1)``: expected cards per roll of each good a piece of ``kind`` collects at each
        intersection; the last column counts cards of one's choice (a gold field's picks, SF-1).
        ``certain``: from the hexes that show their tile only (a hidden fog hex left out: which
        resource it gives is not known, only its expectation, SF-3)."""
        hit = self._yields.get((kind, certain))
        if hit is None:
            t = self.game.topology
            hit = np.zeros((self.n, len(self.goods) + 1))
            for v in range(self.n):
                for h in t.node_hexes[v]:
                    if not (certain and h in self.hidden):
                        hit[v] += self._hex_row(kind, h)
            self._yields[(kind, certain)] = hit
        return hit

    def resource_cards(self, kind: str = "settlement") -> np.ndarray:
        """Expected resource cards per roll at each intersection, a pick of one's choice included."""
        y = self.yields(kind)
        return y[:, self.resource_cols].sum(axis=1) + y[:, -1]

    def commodity_cards(self, kind: str = "settlement") -> np.ndarray:
        """Expected commodity cards per roll at each intersection (a Cities & Knights city, CK-COM-2)."""
        y = self.yields(kind)
        return y[:, self.commodity_cols].sum(axis=1) if self.commodity_cols else np.zeros(self.n)

    # ------------------------------------------------------------------ sites and targets
    def _founding_sites(self) -> np.ndarray:
        """Where a founding building may go on an empty board: the engine's candidates with the modules'
        filters (a scenario's spaces, SC-5), the distance rule aside."""
        game = self.game
        fresh = Game(game.board, players=game.n, seed=0, rules=game.rules, starting_seat=game.starting_seat)
        ok = np.zeros(self.n, dtype=bool)
        ok[fresh.candidates(fresh.current_player, "settlement", founding=True)] = True
        return ok

    def _near(self) -> np.ndarray:
        """Targets worth reaching from each intersection, discounted by the path pieces to build."""
        game = self.game
        wanted: dict[int, float] = {}
        for m in self.mods:
            for v, worth in m.targets(game, self.seat).items():
                wanted[v] = max(wanted.get(v, 0.0), worth)
        near = np.zeros(self.n)
        if not wanted:
            return near
        adj = self.paths()
        depth = len(SPOT_DISCOUNT) - 1
        found: list[list[float]] = [[] for _ in range(self.n)]
        for target, worth in wanted.items():  # breadth first from each target along the paths pieces may use
            for v, d in steps_within(adj, target, depth).items():
                # the founding path piece is free: a target one path away is reached with it
                found[v].append(worth * SPOT_DISCOUNT[max(d - 1, 0)])
        for v in range(self.n):
            near[v] = best_two(found[v])
        return near

    def _path_adjacency(self) -> list[list[int]]:
        """Neighbours along the paths any buildable path piece of the game may ever use (the modules' filters)."""
        game = self.game
        t = game.topology
        ok = [False] * t.n_edges
        for pk in game.kinds:
            if pk is None or pk.site != "path" or not pk.cost:
                continue
            mine = [(pk.land and a) or (pk.sea and b) for a, b in zip(t.edge_land, t.edge_sea)]
            for m in self.mods:
                allowed = m.path_filter(game, pk.name)
                if allowed is not None:
                    mine = [x and e in allowed for e, x in enumerate(mine)]
            ok = [a or b for a, b in zip(ok, mine)]
        adj: list[list[int]] = [[] for _ in range(self.n)]
        for e, (a, b) in enumerate(t.edge_nodes):
            if ok[e]:
                adj[a].append(b)
                adj[b].append(a)
        return adj

    def describe(self, v: int, kind: str = "settlement") -> dict[str, float]:
        """Expected cards per roll of each good at intersection ``v`` for a piece of ``kind`` (only the
        goods it collects; ``"choice"`` for a gold field's picks).

        Examples
        --------
        >>> from catan_nb import Board, Game
        >>> SpotTable(Game(Board.beginner(), seed=1)).describe(39)
        {'lumber': 0.1389, 'brick': 0.1111, 'ore': 0.0556}
        """
        y = self.yields(kind)[v]
        out = {str(g): round(float(y[i]), 4) for i, g in enumerate(self.goods) if y[i] > 0}
        if y[-1] > 0:
            out["choice"] = round(float(y[-1]), 4)
        return out


"""Invariants checked after every action of the property tests, computed from scratch."""

from __future__ import annotations

from catan_nb import Game
from catan_nb.constants import CATAN_TOKENS, FAVOUR_SUPPLY, LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, PIECE_LIMITS, SPECIAL_CARD_VP
from catan_nb.rules import Phase, PlayMonopoly, PlayRoadBuilding, PlayYearOfPlenty, longest_trail

PROGRESS = (PlayMonopoly, PlayRoadBuilding, PlayYearOfPlenty)


def special_card_holder(before: int | None, counts: list[int], minimum: int) -> int | None:
    """Who holds Longest Road or Largest Army after an action, from who held it before the action
    and the counts (trail lengths or played knights) after it.

    The holder is history-dependent (the card stays on a tie), so the reference is a transition:
    the holder keeps the card while at ``minimum`` or more and nobody has strictly more (B-LR-5,
    B-LR-6, B-LA-2, A-27; one who drops below the minimum loses it even if still the greatest);
    otherwise the card goes to a single player at ``minimum`` or more with strictly more than every
    other (B-LR-4, B-LA-1; a card set aside, B-LR-7 and A-27, goes the same way, never to one who
    ties); failing that it is set aside (``None``).  Exact when applied after every action.
    """
    top = max(counts)
    if before is not None and counts[before] >= minimum and counts[before] == top:
        return before
    leaders = [q for q, x in enumerate(counts) if x == top]
    return leaders[0] if top >= minimum and len(leaders) == 1 else None


class Checker:
    """Checks one game's invariants after each action.

    Everything is recounted from the board arrays; only work whose inputs did not
    change since the last call (the road recount for an unchanged position, the
    scan of log entries already seen) is reused.
    """

    def __init__(self, game: Game):
        self.game = game
        self._pos_key = None
        self._lr: list[int] = []
        self._log_seen = 0
        self._progress_played = 0
        # CK-KN-2, CK-KN-5: the knights after the last call, and this turn's activated and promoted ones
        self._ck_prev: dict[int, tuple[int, int, bool]] | None = None
        self._ck_turn = None
        self._ck_seen = 0
        self._ck_activated: set[int] = set()
        self._ck_promoted: set[int] = set()
        self._army = game.largest_army_holder  # the holders before the next action (B-LR-6, A-27)
        self._road = game.longest_road_holder

    def __call__(self) -> None:
        g = self.game
        n = g.n
        t = g.board.topology
        # B-COMP-2: 95 resource cards, 19 per resource, in bank plus hands; every other good conserved too.
        for r in range(g.n_goods):
            total = g.bank[r]
            assert total >= 0
            for h in g.hands:
                assert h[r] >= 0
                total += h[r]
            assert total == g.bank_per_good[r], f"good {g.goods[r]}: {total} cards"
        # B-COMP-6 (X56-COMP-3): development cards in deck + hands + played.
        log = g.log
        for a in log[self._log_seen :]:
            if isinstance(a, PROGRESS):
                self._progress_played += 1
        self._log_seen = len(log)
        helpers = g.ext.get("helpers")
        given_up = helpers["knights_given_up"] if helpers else 0
        seen = len(helpers["architect"] or ()) if helpers else 0
        assert sum(g.deck) + sum(map(sum, g.dev)) + sum(g.knights) + self._progress_played + given_up + seen == g.deck_total
        key = (tuple(g.edge_owner), tuple(g.node_owner), tuple(g.node_kind))
        if key != self._pos_key:
            self._pos_key = key
            self._check_position(g, t)
        # Piece limits (B-COMP-9) against the counters, counted from the board arrays, for every kind.
        counts = [[0] * n for _ in g.kinds]
        building_vp = [0] * n
        for v, o in enumerate(g.node_owner):
            if o >= 0:
                k = g.node_kind[v]
                counts[k][o] += 1
                building_vp[o] += g.kinds[k].vp
        for e, o in enumerate(g.edge_owner):
            if o >= 0:
                counts[g.edge_kind[e]][o] += 1
        for k, kind in enumerate(g.kinds):
            if kind is None:
                continue
            for p in range(n):
                assert counts[k][p] == len(g.placed[k][p]) <= kind.limit, (kind.name, p)
        for p in range(n):
            assert counts[1][p] == g.n_settlements[p] <= PIECE_LIMITS["settlement"]
            assert counts[2][p] == g.n_cities[p] <= PIECE_LIMITS["city"]
            assert counts[3][p] == len(g.roads[p]) <= PIECE_LIMITS["road"]
            assert building_vp[p] == g.board_vp[p]
        # F-COMP-1, F-SETUP-2: favour tokens and Catan tokens are conserved.
        friends = g.ext.get("friends")
        if friends:
            total = sum(friends["supply"]) + sum(map(sum, friends["tokens"])) + sum(friends["board"])
            assert total == sum(FAVOUR_SUPPLY[n].values()), total
            assert all(0 <= f <= k for fr, tk in zip(friends["fresh"], friends["tokens"]) for f, k in zip(fr, tk))
            assert friends["catan_left"] + sum(friends["catan_tokens"]) == CATAN_TOKENS
        ck = g.ext.get("cities_knights")
        if ck is not None:
            self._check_knight_turns(g, ck)
        # SF-4: treasure tokens conserved (found + face down), found spots no longer marked.
        tr = g.ext.get("treasure")
        if tr is not None:
            if not hasattr(self, "_treasure"):
                self._treasure = (len(tr["stack"]) + len(tr["found"]), len(tr["spots"]) + len(tr["found"]))
            assert (len(tr["stack"]) + len(tr["found"]), len(tr["spots"]) + len(tr["found"])) == self._treasure
            assert not {v for v, _, _ in tr["found"]} & set(tr["spots"])
        # SF-15, SF-16: number tokens conserved (board + supply); no 7; moved tokens leave bare hexes.
        gc = g.ext.get("great_catan")
        if gc is not None:
            tokens = sorted([k for k in g.hex_token if k] + list(gc["supply"]))
            if not hasattr(self, "_tokens"):
                self._tokens = tokens
            assert tokens == self._tokens and 7 not in tokens
        # SF-3: fog never visible before it is revealed; the hidden stack is not in any view.
        fog = g.ext.get("fog")
        if fog is not None and len(g.log) % 17 == 0:
            for p in range(n):
                mods = g.view(p).modules
                assert mods["fog"]["hidden_tiles"] == len(fog["stack"]) and "stack" not in mods["fog"]
        # SC-5..8, ERIE-1..6: scenario placements and what roads earned, recounted from the board.
        if g.ext.get("corsica_new_york") is not None:
            self._check_scenario(g, t)
        # Robber on exactly one land hex.
        assert 0 <= g.robber < t.n_hexes
        # Longest road recomputed from scratch equals the cached value.
        assert g.road_lengths() == self._lr, (g.road_lengths(), self._lr)
        # B-LR-4..7: the Longest Road holder recomputed from the trail lengths.
        h = g.longest_road_holder
        expected = special_card_holder(self._road, self._lr, LONGEST_ROAD_MIN)
        assert h == expected, f"Longest Road: {h}, expected {expected} (before: {self._road}, lengths {self._lr})"
        self._road = h
        # B-LA-1, B-LA-2, A-27: the Largest Army holder recomputed from the played knights.
        a = g.largest_army_holder
        expected = special_card_holder(self._army, g.knights, LARGEST_ARMY_MIN)
        assert a == expected, f"Largest Army: {a}, expected {expected} (before: {self._army}, knights {g.knights})"
        self._army = a
        # VP recomputed from scratch equals the cached VP (B-END-1).
        founding = g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD)
        for p in range(n):
            vp = building_vp[p] + SPECIAL_CARD_VP * ((h == p) + (a == p)) + g.dev[p][4] + self.extra_vp(p)
            assert vp == g.vp(p)
            if g.phase is not Phase.GAME_OVER and p == g.active_player and not founding:
                assert vp < g.vp_target  # B-END-3: a win ends the game at once
        if g.phase is Phase.GAME_OVER:
            sc = g.ext.get("corsica_new_york")
            if sc is not None and sc.get("stalled"):  # DECISION (docs/scenarios.md): nobody could win any more
                from catan_nb.rules.modules.corsica_new_york import can_reach_target

                assert not can_reach_target(g) and g.vp(g.winner) == max(g.vp(q) for q in range(n))
            else:
                assert g.vp(g.winner) >= g.vp_target

    def _check_scenario(self, g: Game, t) -> None:
        from catan_nb.rules.modules.corsica_new_york import localities, scenario_data

        d = scenario_data(g.board)
        places = localities(g)
        st = g.ext["corsica_new_york"]
        road = g.kind_id["road"]
        for v, o in enumerate(g.node_owner):  # SC-5: buildings only on locality spaces
            if o >= 0 and g.kinds[g.node_kind[v]].building:
                assert v in places, v
        for p in range(g.n):
            mine = g.placed[road][p]
            assert all(d.road_ok[e] for e in mine)  # SC-6
            earned = sorted({d.red[e] for e in mine if e in d.red}, key=lambda r: (r[0], -1 if r[1] is None else r[1]))
            assert [tuple(r) for r in st["rates"][p]] == earned, (st["rates"][p], earned)  # SC-8
        for v, o in st["tokens"]:  # SC-10: a token goes to a player with a road there; untaken, no road reaches it
            roads_at = {g.edge_owner[e] for e in t.node_edges[v]} - {-1}
            assert (o is None and not roads_at) or o in roads_at, (v, o, roads_at)
        er = g.ext.get("erie_canal")
        if er is not None:  # ERIE-1, ERIE-4, ERIE-6: 12 tokens in the supply, hands and play; pairs once each
            from catan_nb.rules.modules.erie_canal import CANAL_TOKENS, linked_pairs

            assert er["supply"] + sum(er["tokens"]) + len(er["playing"]) == CANAL_TOKENS
            assert min(er["tokens"]) >= 0 and er["supply"] >= 0
            for p in range(g.n):
                pairs = [tuple(x) for x in er["earned"][p]]
                assert len(set(pairs)) == len(pairs) and set(pairs) <= linked_pairs(g, p)

    def extra_vp(self, p: int) -> int:
        """VP from modules, counted from their state (Friends' Catan tokens, the Harbour Master)."""
        g = self.game
        friends = g.ext.get("friends")
        vp = friends["catan_tokens"][p] if friends else 0
        hm = g.ext.get("harbour_master")
        if hm is not None:
            # SF-14 recomputed from the board: 1 per settlement, 2 per city on a harbour intersection;
            # the holder has 3 or more and nobody has more; with no holder nobody has 3.
            points = [0] * g.n
            for v, o in enumerate(g.node_owner):
                if o >= 0 and g.board.topology.node_harbour[v] is not None and g.kinds[g.node_kind[v]].building:
                    points[o] += 1 if g.kinds[g.node_kind[v]].name == "settlement" else 2
            holder = hm["holder"]
            if holder is None:
                assert max(points) < 3, points
            else:
                assert points[holder] >= 3 and points[holder] == max(points), (holder, points)
            vp += 2 if holder == p else 0
        ck = g.ext.get("cities_knights")
        if ck is not None:
            vp += self._check_cities_knights(g, ck, p)
        sc = g.ext.get("corsica_new_york")
        if sc is not None:  # SC-10: 1 VP per Catan token taken
            vp += sum(1 for _, o in sc["tokens"] if o == p)
        sf = g.ext.get("seafarers")
        if sf is not None and "settled" in sf:
            # SF-12/13 recomputed from the board: the islands holding p's buildings, less its home islands.
            from catan_nb.rules.modules.seafarers import island_of

            mine = {island_of(g.board, v) for v, o in enumerate(g.node_owner)
                    if o == p and g.kinds[g.node_kind[v]].building}
            # (a city razed by the barbarians, CK-BAR-2, may leave a home or settled island empty)
            assert not set(sf["settled"][p]) & set(sf["home"][p])
            assert set(sf["settled"][p]) >= mine - set(sf["home"][p]) - {None}, (sf["settled"][p], mine)
            if g.ext.get("cities_knights") is None:
                assert set(sf["home"][p]) <= mine, (sf["home"][p], mine)
                assert set(sf["settled"][p]) == mine - set(sf["home"][p]) - {None}, (sf["settled"][p], mine)
            vp += (g.board.scenario.get("foreign_island_vp") or 0) * len(sf["settled"][p])
        return vp

    def _check_cities_knights(self, g: Game, ck: dict, p: int) -> int:
        """CK-* invariants for seat ``p`` recounted from the board; returns its C&K special VP."""
        from catan_nb.rules.modules.cities_knights import DECKS, DEFENDER_CARDS, barbarian_strength

        knight = g.kind_id["knight"]
        city = g.kind_id["city"]
        rows = [r for r in ck["knights"] if r[1] == p]
        on_board = sorted(v for v, o in enumerate(g.node_owner) if o == p and g.node_kind[v] == knight)
        assert sorted(r[0] for r in rows) == on_board, (rows, on_board)  # knights = the board's knight pieces
        for level in (1, 2, 3):  # CK-KN-2: at most 2 knights of each level
            assert sum(r[2] == level for r in rows) <= 2
        cities = {v for v, o in enumerate(g.node_owner) if o == p and g.node_kind[v] == city}
        walls = ck["walls"][p]
        assert len(walls) <= 3 and len(set(walls)) == len(walls) and set(walls) <= cities  # CK-WALL-1
        metro = [m for m in ck["metropolis"] if m is not None and m[0] == p]
        for m in metro:  # CK-IMP-4, CK-IMP-5: on the holder's own city, level 4 or more, one per city
            assert m[1] in cities
        held = [m[1] for m in ck["metropolis"] if m is not None]
        assert len(held) == len(set(held))
        for i, m in enumerate(ck["metropolis"]):
            if m is not None:
                assert ck["levels"][m[0]][i] >= 4 and all(ck["levels"][m[0]][i] >= ck["levels"][q][i] or
                                                          ck["levels"][q][i] < 5 for q in range(g.n))
        # CK-BAR-1: the barbarians' strength is the cities on the board
        assert barbarian_strength(g) == sum(1 for v, o in enumerate(g.node_owner) if o >= 0 and g.node_kind[v] == city)
        assert 0 <= ck["barbarians"] < 7
        # CK-PROG-3: 54 progress cards in decks, hands and played VP cards (18 per colour)
        if p == 0:
            for i, deck in enumerate(ck["decks"]):
                names = set(DECKS[list(DECKS)[0].__class__(i)])
                total = len(deck) + sum(sum(c in names for c in h) for h in ck["hands"]) + \
                    sum(sum(c in names for c in v) for v in ck["vp_cards"])
                assert total == sum(DECKS[list(DECKS)[0].__class__(i)].values()) == 18, (i, total)
            assert sum(ck["defender"]) + ck["defender_left"] == DEFENDER_CARDS
        merchant = ck["merchant"]
        if merchant is not None:  # CK-PC-21, CK-SF-1: on a land hex with a resource
            assert g.board.topology.hex_land[merchant[1]] and g.hex_terrain[merchant[1]].resource is not None
        return 2 * len(metro) + ck["defender"][p] + len(ck["vp_cards"][p]) + (merchant is not None and merchant[0] == p)

    def _check_knight_turns(self, g: Game, ck: dict) -> None:
        """CK-KN-5: no knight activated this turn (ActivateKnight, the Warlord, a deserter placed active)
        moves, displaces or chases this turn, and only active knights act; CK-KN-2: no knight rises more
        than one level a turn (PromoteKnight or the Smith).  Follows the knights from call to call (the
        checker runs after every action), independent of the module's own flags."""
        from catan_nb.rules.modules.cities_knights import ChaseRobber, DisplaceKnight, MoveKnight

        now = {r[0]: (r[1], r[2], bool(r[3])) for r in ck["knights"]}
        prev = self._ck_prev
        if prev is None:  # the first call: what happened before is unknown
            self._ck_turn, self._ck_seen, self._ck_prev = g.turn, len(g.log), now
            return
        if g.turn != self._ck_turn:  # a new turn
            self._ck_turn = g.turn
            self._ck_activated, self._ck_promoted = set(), set()
        for a in g.log[self._ck_seen:]:
            if isinstance(a, (MoveKnight, DisplaceKnight, ChaseRobber)):
                v = a.node if isinstance(a, ChaseRobber) else a.from_node
                assert v not in self._ck_activated, ("CK-KN-5: a knight activated this turn acted", a)
                assert v in prev and prev[v][2], ("CK-KN-5: only an active knight acts", a)
                if not isinstance(a, ChaseRobber) and v in self._ck_promoted:
                    self._ck_promoted.discard(v)
                    self._ck_promoted.add(a.to_node)  # the knight goes on, still promoted this turn
        self._ck_seen = len(g.log)
        for v, (seat, level, active) in now.items():
            before = prev.get(v)
            if before is None or before[0] != seat:  # arrived: hired, moved, retreated or a deserter
                if active:
                    self._ck_activated.add(v)  # placed active this turn (it acts from the next)
                continue
            if level != before[1]:
                assert level == before[1] + 1 and v not in self._ck_promoted, ("CK-KN-2: one level a turn", v)
                self._ck_promoted.add(v)
            if active and not before[2]:
                self._ck_activated.add(v)
        for v in set(prev) - set(now):
            self._ck_activated.discard(v)
        self._ck_prev = now

    def _check_position(self, g: Game, t) -> None:
        # Distance rule holds everywhere (B-BUILD-7) among buildings (knights and other pieces aside).
        building = [bool(k and k.building) for k in g.kinds]
        blocks = [bool(k and k.blocks) for k in g.kinds]
        for v, o in enumerate(g.node_owner):
            if o >= 0 and building[g.node_kind[v]]:
                assert all(g.node_owner[w] < 0 or not building[g.node_kind[w]] for w in t.node_neighbours[v])
        joins = {(i, g.kind_id[n]) for i, k in enumerate(g.kinds) if k is not None for n in k.joins if n in g.kind_id}
        self._lr = [
            longest_trail(
                [e for e, o in enumerate(g.edge_owner) if o == p],
                t.edge_nodes,
                t.node_edges,
                [v for v, o in enumerate(g.node_owner) if o >= 0 and o != p and blocks[g.node_kind[v]]],
                edge_kind=g.edge_kind,
                switch=[v for v, o in enumerate(g.node_owner) if o == p and building[g.node_kind[v]]],
                joins=joins,  # path kinds declared to join directly (PieceKind.joins)
            )[0]
            for p in range(g.n)
        ]

"""Goods, hands and production for :class:`~catan_nb.rules.game.Game`.

A part of the engine (see the map in :mod:`catan_nb.rules.game`): the methods here are mixed
into ``Game``.  Goods are a registry (``game.goods``: the five resources, then any a module
adds), held as counts per good in ``game.hands`` and ``game.bank``; this part moves cards
(B-BUILD-2, B-COMP-2), says which a steal or a 7 may touch (B-ROB-2, B-ROB-7), the bank rates
(B-TRADE-6..9) and the robber's reach (B-ROB-5..8), and pays production (B-PROD-1..8,
B-COMP-14) from an index of who collects what on each number, kept up to date as pieces and
hexes change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from typing import Any

from ..constants import RESOURCES, HarbourKind, Resource, Terrain, good_rules
from ..errors import CatanError

__all__ = ["Goods"]

#: Terrains that produce a resource, with its index (B-PROD-1).
_PRODUCING = tuple((t, t.resource.value) for t in Terrain if t.resource is not None)


class Goods:
    """The goods, hands and production part of :class:`~catan_nb.rules.game.Game` (a mixin: use it through ``Game``)."""

    __slots__ = ()

    def _init_goods(self) -> None:
        """The goods in play: the five resources, then the modules' (a registry), and their rules."""
        self.goods: tuple[Any, ...] = tuple(dict.fromkeys((*RESOURCES, *(g for m in self.modules for g in m.goods))))
        self.n_goods = len(self.goods)
        self.good_rules = tuple(good_rules(g) for g in self.goods)
        # Per good: may a steal draw it, does it count for a 7 (B-ROB-2, B-ROB-7); ``None`` when all do.
        self._stolen = None if all(r.stolen for r in self.good_rules) else tuple(r.stolen for r in self.good_rules)
        self._discarded = None if all(r.discarded for r in self.good_rules) else \
            tuple(r.discarded for r in self.good_rules)
        self._good_index = {str(g): i for i, g in enumerate(self.goods)}
        #: Indexes of the goods everyone sees per seat (``GoodRules(public=True)``), in good order.
        self.public_goods: tuple[int, ...] = tuple(i for i, r in enumerate(self.good_rules) if r.public)

    def hand(self, player: int) -> dict:
        """A player's cards as a new dict by good (the five resources, then any module goods).

        For reading and display.  The engine's own record is ``game.hands[player]``: counts per
        good in ``game.goods`` order (index with :meth:`good_index`), the list that ``pay``,
        ``gain`` and ``transfer`` change.  Changing this dict changes nothing.

        Examples
        --------
        >>> from catan_nb import Board, Game, Resource
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> g.hand(0)[Resource.ORE] == g.hands[0][g.good_index(Resource.ORE)]
        True
        """
        h = self.hands[player]
        return {g: h[i] for i, g in enumerate(self.goods)}

    def deal(self, player: int, cards) -> None:
        """Move cards from the bank to a hand, for teaching positions and sandboxes.

        ``cards`` is counts per good (``counts(ore=2)``) or a mapping of good to count.
        The cards stay conserved.  This is not an action: it is not logged, so a
        game that used it no longer replays from its log.

        Raises
        ------
        CatanError
            If the bank does not hold the cards (B-COMP-2); nothing moves.

        Examples
        --------
        >>> from catan_nb import Board, Game, Resource
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> g.deal(0, {Resource.ORE: 2})
        >>> g.hand(0)[Resource.ORE], sum(g.bank) + sum(map(sum, g.hands))
        (2, 95)
        """
        G = self.n_goods
        if isinstance(cards, dict):
            want = [0] * G
            for r, k in cards.items():
                want[self.good_index(r)] += int(k)
        else:
            want = [int(k) for k in cards]
            want += [0] * (G - len(want))
        if len(want) != G or any(k < 0 for k in want):
            raise CatanError(f"deal takes {G} non-negative counts, not {cards!r}")
        short = [f"{self.goods[r]} (has {self.bank[r]}, {want[r]} asked)" for r in range(G) if want[r] > self.bank[r]]
        if short:
            raise CatanError(f"B-COMP-2: the bank is short of {', '.join(short)}")
        for r in range(G):
            self.bank[r] -= want[r]
            self.hands[player][r] += want[r]

    def good_index(self, good) -> int:
        """Index of a good of this game (a :class:`~catan_nb.constants.Good` or its name) in hands and the bank."""
        if isinstance(good, Resource):
            return good.value
        try:
            return self._good_index[str(good).strip().lower()]
        except KeyError:
            raise ValueError(f"unknown good {good!r} in this game; expected one of "
                             f"{', '.join(map(str, self.goods))}") from None

    def cost(self, kind: str) -> tuple[int, ...]:
        """What a piece of ``kind`` costs, as counts per good (B-BUILD-1).

        The counts, one per good of ``game.goods``, of the kind's declared
        :attr:`~catan_nb.rules.pieces.PieceKind.cost` (a mapping by good name).  A site's own
        surcharge is not included: see :meth:`site_cost`.
        """
        return self._cost[self.kind_id[kind]]

    def site_cost(self, player: int, kind: str, site: int) -> tuple[int, ...]:
        """What ``player`` pays for a piece of ``kind`` on ``site``: its cost plus every module's
        surcharge there (the ``site_surcharge`` hook), as counts per good (B-BUILD-1).

        The engine's builds (roads, settlements, cities) are listed, checked and paid at this
        price; a module's own paid piece should be too.  Free and founding pieces pay nothing.

        Raises
        ------
        ValueError
            A module's surcharge names an unknown good or a count that is not a whole number >= 0.

        Examples
        --------
        >>> from catan_nb import Board, Game
        >>> g = Game(Board.beginner(), seed=1, start="beginner")
        >>> g.site_cost(0, "road", 3) == g.cost("road")
        True
        """
        base = self._cost[self.kind_id[kind]]
        hooks = self._h_surcharge
        if not hooks:
            return base
        out = list(base)
        for h in hooks:
            extra = h(self, player, kind, site)
            if not extra:
                continue
            for good, k in extra.items():
                if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                    raise ValueError(f"a site surcharge is a count >= 0 per good, not {k!r} for {good!r}")
                out[self.good_index(good)] += k
        return tuple(out)

    def _counts(self, by_name: Mapping[str, int]) -> tuple[int, ...]:
        out = [0] * self.n_goods
        for name, k in by_name.items():
            out[self._good_index[name]] += k
        return tuple(out)

    def pay(self, player: int, cost) -> None:
        """Move ``cost`` (counts per good) from a hand to the bank (B-BUILD-2)."""
        h, bank = self.hands[player], self.bank
        for r, c in enumerate(cost):
            if c:
                h[r] -= c
                bank[r] += c

    def gain(self, player: int, good: int, count: int = 1) -> int:
        """Move up to ``count`` cards of good ``good`` from the bank to a hand; returns how many moved."""
        k = min(count, self.bank[good])
        self.bank[good] -= k
        self.hands[player][good] += k
        return k

    def transfer(self, giver: int, taker: int, counts) -> None:
        """Move cards (counts per good) from one hand to another (trades, steals, gifts)."""
        hg, ht = self.hands[giver], self.hands[taker]
        for r, c in enumerate(counts):
            if c:
                hg[r] -= c
                ht[r] += c

    def maritime_rate(self, player: int, good) -> int:
        """Best bank rate for giving ``good``: 2, 3 or 4 (B-TRADE-6..9), after the modules' changes."""
        return self.rates(player)[self.good_index(good)]

    def rates(self, player: int) -> tuple[int, ...]:
        """Bank rates of ``player`` for every good (B-TRADE-6..9; modules may lower them)."""
        rates = self._harbour_rates[player]  # kept up to date as buildings reach harbours
        for h in self._h_rate:
            rates = tuple([h(self, player, r, rates[r]) for r in range(self.n_goods)])
        return rates

    def _rates_from_harbours(self, player: int) -> tuple[int, ...]:
        # Goods are compared with harbour codes as typed members: a commodity is never a harbour's
        # resource, and the generic harbour is no good (B-TRADE-7, B-TRADE-8).
        hs = self.harbours[player]
        base = 3 if HarbourKind.GENERIC in hs else 4
        return tuple(2 if g in hs else base for g in self.goods)

    def robber_victims(self, hex_id: int) -> list[int]:
        """Opponents of the active player who could be robbed on ``hex_id`` (B-ROB-6, B-ROB-8)."""
        p = self.active
        hands = self.hands
        if self._stolen is None:
            return [o for o in self._hex_players[hex_id] if o != p and any(hands[o])]
        return [o for o in self._hex_players[hex_id] if o != p and any(self.stealable(o))]

    def stealable(self, player: int) -> Sequence[int]:
        """``player``'s cards a steal may draw (B-ROB-7), as counts per good: goods whose
        :class:`~catan_nb.constants.GoodRules` say ``stolen=False`` count 0.  Read only."""
        h = self.hands[player]
        mask = self._stolen
        if mask is None:
            return h
        return [c if ok else 0 for c, ok in zip(h, mask)]

    def discardable(self, player: int) -> Sequence[int]:
        """``player``'s cards that count toward the hand limit on a 7 and may be discarded (B-ROB-2),
        as counts per good: goods whose rules say ``discarded=False`` count 0.  Read only."""
        h = self.hands[player]
        mask = self._discarded
        if mask is None:
            return h
        return [c if ok else 0 for c, ok in zip(h, mask)]

    def hex_players(self, hex_id: int) -> tuple[int, ...]:
        """Seats with a settlement or city collecting from ``hex_id`` (kept up to date as pieces move)."""
        return self._hex_players[hex_id]

    @property
    def players_by_hex(self) -> Sequence[tuple[int, ...]]:
        """:meth:`hex_players` of every hex, by hex id (the engine's own index: read it, never change it)."""
        return self._hex_players

    def robber_targets(self) -> list[int]:
        """Hexes the robber may move to now (B-ROB-5: any other land hex; modules may change it)."""
        robber = self.robber
        hexes = [hx for hx in self._t.land_hexes if hx != robber]
        for h in self._h_targets:
            hexes = h(self, hexes)
        return hexes

    def hand_limit(self, player: int) -> int:
        """Cards ``player`` may hold without discarding on a 7 (B-ROB-2; modules may raise it)."""
        limit = self.rules.discard_limit
        for h in self._h_limit:
            limit = h(self, player, limit)
        return limit

    def _index_production(self) -> None:
        """Derive, from the hexes now and the modules' yields, who collects what on each number."""
        table: dict[tuple[str, Terrain], tuple[tuple[int, int], ...]] = {}
        for k in self.kinds:
            if k is None or not k.produces:
                continue
            for terrain, r in _PRODUCING:
                table[(k.name, terrain)] = ((r, k.produces),)
        for m in self.modules:
            if m.overrides("yields"):
                m.yields(self, table)
        terrains = self.hex_terrain
        self._yield_at = tuple(
            tuple([table.get((k.name if k else None, tr), ()) for tr in terrains]) for k in self.kinds
        )
        self._index_producers()
        if max(self.node_owner, default=-1) < 0:  # nothing on the board yet (a new game)
            self._takers = [()] * self._t.n_hexes
        else:
            self._takers = [self._takers_of(hx) for hx in range(self._t.n_hexes)]

    def _index_producers(self) -> None:
        """Derive which hexes produce on each number from the tokens now (and what collects where,
        :attr:`_yield_at`, which depends on the terrains only: a token moved changes nothing else)."""
        by_token: list[list[int]] = [[] for _ in range(13)]
        tokens, yield_at = self.hex_token, self._yield_at
        for hx in range(self._t.n_hexes):
            tok = tokens[hx]
            if tok:
                for row in yield_at:
                    if row[hx]:
                        by_token[tok].append(hx)
                        break
        #: Hexes that produce on each number.
        self._producers = tuple(tuple(x) for x in by_token)

    def collects(self, kind: str, hex_id: int) -> tuple[tuple[int, int], ...]:
        """What a piece of ``kind`` collects from hex ``hex_id`` when the hex's number is rolled, as
        ``(good index, cards)`` pairs, with the modules' yields applied (B-PROD-2, B-PROD-3; CK-COM-2:
        a Cities & Knights city on a forest takes a lumber and a paper).

        Empty for a piece that collects nothing and for a hex whose terrain pays by a module's own
        rule or not at all (a gold field's pick, SF-1; a fog hex, SF-3; the desert); the hex's number
        and the robber are not looked at.

        Raises
        ------
        KeyError
            ``kind`` is not a piece kind of this game.

        Examples
        --------
        >>> from catan_nb import Board, Game, Rules
        >>> board = Board.beginner()
        >>> forest = next(h.id for h in board.hexes if h.terrain.value == "forest")
        >>> Game(board, seed=1).collects("city", forest)
        ((0, 2),)
        >>> g = Game(board, seed=1, rules=Rules(modules=("cities_knights",)))
        >>> [(str(g.goods[i]), k) for i, k in g.collects("city", forest)]
        [('lumber', 1), ('paper', 1)]
        """
        return self._yield_at[self.kind_id[kind]][hex_id]

    def _takers_of(self, hx: int) -> tuple[tuple[int, int, int], ...]:
        """``(player, good, count)`` collected from hex ``hx`` by the pieces around it now."""
        owner, kind, yield_at = self.node_owner, self.node_kind, self._yield_at
        return tuple((owner[v], r, k) for v in self._t.hex_nodes[hx] if owner[v] >= 0 for r, k in yield_at[kind[v]][hx])

    def produce(self, total: int) -> dict[int, list[int]]:
        """Give every player what their pieces collect on ``total`` (B-PROD-1..8, B-COMP-14).

        Returns (and stores as :attr:`last_production`) the cards each seat got.
        """
        robber = self.robber
        gains: list[tuple[int, int, int]] = []
        takers = self._takers
        for hx in self._producers[total]:
            if hx != robber:  # B-ROB-10
                gains.extend(takers[hx])
        got: dict[int, list[int]] = {}
        self.last_production = got
        if not gains:
            return got
        G = self.n_goods
        bank = self.bank
        total_out = 0
        for g in gains:
            total_out += g[2]
        if total_out <= min(bank):  # the bank can pay everybody, whatever the goods
            short: list[int] = []
        else:
            need: dict[int, int] = {}
            for _, r, k in gains:
                need[r] = need.get(r, 0) + k
            short = [r for r, k in need.items() if k > bank[r]]  # B-COMP-14: the bank cannot pay everybody
        for r in sorted(short):
            claim = {o for o, x, _ in gains if x == r}
            if len(claim) == 1 and self.rules.shortage_single_taker:
                (o,) = claim
                gains = [(q, x, k) for q, x, k in gains if x != r] + [(o, r, bank[r])]
            else:
                gains = [(q, x, k) for q, x, k in gains if x != r]
        hands = self.hands
        for o, r, k in gains:
            if k:
                hands[o][r] += k
                bank[r] -= k
                row = got.get(o)
                if row is None:
                    row = got[o] = [0] * G
                row[r] += k
        return got

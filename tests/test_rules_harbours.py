"""Harbour codes are typed (B-TRADE-7, B-TRADE-8, CK-IMP-3): a harbour is a :class:`Resource`
(2:1) or ``HarbourKind.GENERIC`` (3:1), never an int that could be read as a good's index.

The generic harbour once had code 5, cloth's good index in Cities & Knights, so a generic
harbour traded cloth at 2:1 (issue 24, item 1).  Also the other places where an index of one kind
was read as another (the rollout policy of the search bot read a commodity's enum value as its
index in the hand).
"""

from __future__ import annotations

import random

import pytest
from helpers import empty_hands

from catan_nb import Board, Game
from catan_nb.analysis import ValueBot
from catan_nb.analysis.search_bot import rollout_policy
from catan_nb.constants import Commodity, HarbourKind, Resource
from catan_nb.errors import IllegalActionError
from catan_nb.rules import MaritimeTrade, Phase, RollDice, Rules
from catan_nb.rules.modules.cities_knights import ABILITY_LEVEL, Track

CK = Rules(modules=("cities_knights",))
COMMODITIES = (Commodity.CLOTH, Commodity.COIN, Commodity.PAPER)


def ck_main(seed: int = 1) -> Game:
    """Beginner start with Cities & Knights, seat 0 in its main phase, every hand empty."""
    g = Game(Board.beginner(), players=4, seed=seed, start="beginner", rules=CK)
    g.play(RollDice(dice=(1, 1, 4)))  # a 2 and the yellow gate: nobody has an improvement
    while g.phase is not Phase.MAIN:
        g.play(g.legal_actions()[0])
    empty_hands(g)
    for h in g.hands:
        for i in range(5, g.n_goods):
            g.bank[i] += h[i]
            h[i] = 0
    return g


def give(g: Game, p: int, good, k: int) -> None:
    i = g.good_index(good)
    g.bank[i] -= k
    g.hands[p][i] += k


def settle_on_harbour(g: Game, p: int, code) -> int:
    """Put a settlement of ``p`` on a free intersection of a harbour with ``code`` (a test position)."""
    t = g.topology
    v = next(v for v in range(t.n_nodes) if t.node_harbour[v] is code and g.node_owner[v] < 0 and not g.blocked[v])
    g.place(p, "settlement", v)
    return v


def test_B_TRADE_7_topology_and_seats_hold_typed_harbour_codes():
    """B-TRADE-7, B-TRADE-8: node_harbour holds None, Resource members and HarbourKind.GENERIC; a
    seat's harbour set holds the same members."""
    g = ck_main()
    codes = set(g.topology.node_harbour)
    assert codes == {None, HarbourKind.GENERIC, *Resource}
    assert not any(isinstance(c, int) for c in codes)
    assert g.harbours[0] == set()
    settle_on_harbour(g, 0, HarbourKind.GENERIC)
    settle_on_harbour(g, 0, Resource.LUMBER)
    assert g.harbours[0] == {HarbourKind.GENERIC, Resource.LUMBER}
    assert g.state()["harbours"][0] == ["generic", "lumber"]


def test_B_TRADE_7_CK_IMP_3_generic_harbour_trades_every_commodity_at_3_to_1():
    """B-TRADE-7, CK-IMP-3 (issue 24, item 1): a generic harbour gives 3:1 for every good, cloth
    included; 2:1 for commodities needs the Trading House (trade level 3).  Before the fix the
    generic harbour's code 5 was cloth's good index and cloth went at 2:1."""
    g = ck_main()
    settle_on_harbour(g, 0, HarbourKind.GENERIC)
    assert g.ext["cities_knights"]["levels"][0][list(Track).index(Track.TRADE)] < ABILITY_LEVEL
    assert g.rates(0) == (3,) * 8
    give(g, 0, Commodity.CLOTH, 2)
    with pytest.raises(IllegalActionError, match="B-TRADE-7"):
        g.play(MaritimeTrade(Commodity.CLOTH, Resource.GRAIN))
    give(g, 0, Commodity.CLOTH, 1)
    g.play(MaritimeTrade(Commodity.CLOTH, Resource.GRAIN))
    assert g.hands[0][g.good_index(Commodity.CLOTH)] == 0 and g.hands[0][Resource.GRAIN.value] == 1


def test_B_TRADE_8_a_2_to_1_harbour_is_never_a_commodity():
    """B-TRADE-8: a 2:1 harbour gives 2:1 for its resource only; cloth (enum value 0, like lumber)
    and the other commodities stay 4:1."""
    g = ck_main()
    settle_on_harbour(g, 0, Resource.LUMBER)
    settle_on_harbour(g, 0, Resource.ORE)
    rates = dict(zip(g.goods, g.rates(0)))
    assert rates == {Resource.LUMBER: 2, Resource.ORE: 2, Resource.BRICK: 4, Resource.WOOL: 4, Resource.GRAIN: 4,
                     Commodity.CLOTH: 4, Commodity.COIN: 4, Commodity.PAPER: 4}


def test_B_TRADE_7_generic_harbour_lost_with_its_last_building():
    """B-BOARD-8, B-TRADE-7: removing the only building on a generic harbour takes the 3:1 rate away
    (the typed code is discarded from the seat's set)."""
    g = ck_main()
    v = settle_on_harbour(g, 0, HarbourKind.GENERIC)
    assert g.rates(0)[g.good_index(Commodity.CLOTH)] == 3
    g.remove("settlement", v)
    assert HarbourKind.GENERIC not in g.harbours[0] and g.rates(0) == (4,) * 8


def _commodity_rates_expected(g: Game, p: int) -> list[int]:
    """A commodity's bank rate recomputed from the board (B-TRADE-6, B-TRADE-7) and C&K's own
    effects (CK-IMP-3 Trading House, CK-PC-22 Merchant Fleet)."""
    st = g.ext["cities_knights"]
    on_generic = any(
        o == p and g.kinds[g.node_kind[v]].building and (h := g.board.graph.nodes[v]["harbour"]) is not None
        and h.resource is None for v, o in enumerate(g.node_owner))
    base = 3 if on_generic else 4
    house = st["levels"][p][list(Track).index(Track.TRADE)] >= ABILITY_LEVEL
    out = []
    for c in COMMODITIES:
        i = g.good_index(c)
        out.append(2 if house or [p, i] in st["fleet"] else base)
    return out


def test_B_TRADE_7_CK_IMP_3_seeded_repro_cloth_not_2_to_1_at_a_generic_harbour():
    """B-TRADE-7, CK-IMP-3 (issue 24, item 1, the audit's repro): 3 players, Board.random(seed=1),
    seed 1, value bots 10-12.  Before the fix seat 2 (generic harbour, trade level 2) gave 2 cloth
    for grain at action 596.  After every action each seat's commodity rates equal the rates
    recomputed from the board and C&K's effects."""
    g = Game(Board.random(seed=1), 3, seed=1, rules=CK)
    bots = [ValueBot(seed=10 + q) for q in range(3)]
    generic_seen = False
    for _ in range(600):
        if g.is_over:
            break
        g.play(bots[g.current_player].choose(g))
        for p in range(3):
            rates = g.rates(p)
            assert [rates[g.good_index(c)] for c in COMMODITIES] == _commodity_rates_expected(g, p), (len(g.log), p)
            generic_seen |= HarbourKind.GENERIC in g.harbours[p]
    assert generic_seen


def test_rollout_policy_reads_a_commodity_by_its_good_index():
    """The search bot's rollout trades toward a city: with cloth in hand (enum value 0, good index
    5) it gives cloth for the missing ore; it once read the cloth count at index 0 (lumber)."""
    g = ck_main()
    give(g, 0, Resource.GRAIN, 2)
    give(g, 0, Resource.ORE, 2)
    give(g, 0, Commodity.CLOTH, 4)
    assert rollout_policy(g, random.Random(0)) == MaritimeTrade(Commodity.CLOTH, Resource.ORE)

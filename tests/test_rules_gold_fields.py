"""SF-1: gold fields (a Seafarers element) as a rule module, tested as positions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from catan_nb import Board, Game, Resource
from catan_nb.analysis import ValueBot, play_game
from catan_nb.errors import IllegalActionError
from catan_nb.rules import EndTurn, MoveRobber, Phase, RollDice, Rules
from catan_nb.rules.modules.gold_fields import GOLD_PICK, PickGold, gold_board, gold_owed, gold_production

GOLD_HEX = 4  # the beginner board's hills 6: seats 0 (red) and 2 (white) have a settlement on it


def game(**kw) -> Game:
    return Game(gold_board(Board.beginner(), GOLD_HEX), seed=1, start="beginner",
                rules=Rules(modules=("gold_fields",)), **kw)


def test_sf1_entitlement_one_per_settlement_two_per_city():
    g = game()
    assert gold_owed(g, 6) == {0: 1, 2: 1} and gold_owed(g, 8) == {}
    v = next(v for v in g.topology.hex_nodes[GOLD_HEX] if g.node_owner[v] == 0)
    g.place(0, "city", v)
    assert gold_owed(g, 6) == {0: 2, 2: 1}
    assert gold_production(g, 0) == Fraction(5, 36) * 2


def test_sf1_picks_in_turn_order_one_card_at_a_time_then_the_turn_goes_on():
    g = game()
    g.play(RollDice(dice=(2, 4)))
    assert g.phase is GOLD_PICK and g.current_player == 0  # the active player first
    assert sorted(type(a).__name__ for a in g.legal_actions()) == ["PickGold"] * 5
    ore = g.hands[0][Resource.ORE.value]
    g.play(PickGold(Resource.ORE))
    assert g.hands[0][Resource.ORE.value] == ore + 1
    assert g.phase is GOLD_PICK and g.current_player == 2  # then seat 2
    g.play(PickGold(Resource.WOOL))
    assert g.phase is Phase.MAIN and g.current_player == 0
    with pytest.raises(IllegalActionError, match="SF-1"):
        g.play(PickGold(Resource.ORE))  # nothing owed now


def test_sf1_the_robber_stops_a_gold_field():
    g = game()
    g.play(RollDice(dice=(3, 4)))
    while g.phase is Phase.DISCARD:
        g.play(g.legal_actions()[0])
    g.play(MoveRobber(GOLD_HEX, None) if MoveRobber(GOLD_HEX, None) in g.legal_actions()
           else next(a for a in g.legal_actions() if a.hex == GOLD_HEX))
    g.play(EndTurn())
    g.play(RollDice(dice=(2, 4)))
    assert g.phase is Phase.MAIN and gold_owed(g, 6) == {}


def test_b_comp_14_bank_limits_on_gold_picks():
    g = game()
    for r in Resource:  # empty the bank of everything but one brick
        keep = 1 if r is Resource.BRICK else 0
        g.hands[1][r.value] += g.bank[r.value] - keep
        g.bank[r.value] = keep
    g.play(RollDice(dice=(2, 4)))
    assert g.legal_actions() == [PickGold(Resource.BRICK)]
    with pytest.raises(IllegalActionError, match="B-COMP-14"):
        g.play(PickGold(Resource.ORE))
    g.play(PickGold(Resource.BRICK))
    assert g.phase is Phase.MAIN  # the bank is empty: seat 2's pick lapses


@pytest.mark.parametrize("seed", range(4))
def test_sf1_games_on_gold_boards_end_and_replay(seed):
    base = Board.random(seed=seed)
    board = gold_board(base, *[h for h in (0, 7, 12) if base.hexes[h].token])
    g = play_game(Game(board, seed=seed, rules=Rules(modules=("gold_fields",))),
                  [ValueBot(seed=seed * 4 + q) for q in range(4)], max_turns=400)
    assert g.is_over
    assert Game.from_json(g.to_json()).state() == g.state() == g.replay().state()


def test_sf1_the_table_offers_the_picks():
    from catan_nb.widgets import GameTable

    t = GameTable(gold_board(Board.beginner(), GOLD_HEX), seats=["human"] * 4, seed=1, start="beginner",
                  bot_delay=None, rules=Rules(modules=("gold_fields",)))
    panel = next(p for p in t.panels if type(p).__name__ == "GoldPanel")
    assert panel.box.layout.display == "none"
    t.play(RollDice(dice=(2, 4)))
    assert panel.box.layout.display is None and "gold" in panel.note.value.lower()
    grain = t.game.hands[0][Resource.GRAIN.value]
    panel.buttons[Resource.GRAIN].click()
    assert t.game.hands[0][Resource.GRAIN.value] == grain + 1
    assert not any(isinstance(a, PickGold) for a in t.special_actions())


@pytest.mark.parametrize("modules", [("gold_fields",), ("gold_fields", "cities_knights")])
def test_b_setup_19_sf1_the_second_founding_building_picks_for_a_gold_field(modules):
    """B-SETUP-19 with SF-1: the second founding building pays 1 card per producing hex next to it, so
    1 resource of the owner's choice per gold field (a founding city too, CK-SETUP-1); the first pays
    nothing.  The pick comes before the founding road."""
    g = Game(gold_board(Board.beginner(), GOLD_HEX), players=3, seed=1, rules=Rules(modules=modules))
    t = g.topology

    def found(near_gold: bool) -> None:
        g.play(next(a for a in g.legal_actions() if (GOLD_HEX in t.node_hexes[a.node]) == near_gold))
        if g.phase is not GOLD_PICK:
            g.play(g.legal_actions()[0])  # the founding road

    found(True)  # seat 0, first round: next to the gold field, no pick
    assert g.phase is Phase.FOUNDING_SETTLEMENT and g.current_player == 1
    found(False), found(False), found(False), found(False)  # seats 1, 2, 2, 1 away from it
    assert g.current_player == 0
    before = sum(g.hands[0])
    site = next(a for a in g.legal_actions() if GOLD_HEX in t.node_hexes[a.node])
    paid = sum(1 for hx in t.node_hexes[site.node] if t.hex_resource[hx] >= 0)
    g.play(site)
    assert g.phase is GOLD_PICK and g.current_player == 0
    assert sum(g.hands[0]) == before + paid
    g.play(PickGold(Resource.ORE))
    assert sum(g.hands[0]) == before + paid + 1
    assert not any(g.hands[0][5:])  # never a commodity in the founding (CK-SETUP-1)
    assert g.phase is Phase.FOUNDING_ROAD and g.current_player == 0

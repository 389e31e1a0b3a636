"""Rules tests for RULES.md sections 3-7.

Covered ids: turn structure (B-TURN-1..9), production (B-PROD-1..9), trade
(B-TRADE-1..11), building (B-BUILD-1..12) and the robber (B-ROB-1..11).

Every test is a *position*. It starts from the beginner board (founding done,
the starting seat to roll), and then a list of actions goes through
``Game.play``. Dice are forced with ``RollDice(dice=...)``. Cards come from the
bank through ``helpers.deal``, so the 95-card total is kept.

Beginner position, 4 players (see ``board.start_pieces``):

====  ======  ======================================  =====================
seat  colour  settlements (hexes met)                 start hand
====  ======  ======================================  =====================
0     red     13 (1,2)/(2,2)/(2,3); 22 (2,1)/(3,1)/(3,2)  brick, 2 wool
1     blue    B 39 (4,1)/(4,2)/(5,1); 14 (1,3)/(2,3)/(2,4) lumber, brick, ore
2     white   D 25 (2,4)/(3,4)/(3,5); 12 (1,1)/(2,1)/(2,2) lumber, brick, ore
3     orange  C 40 (4,2)/(4,3)/(5,2); 41 (4,3)/(4,4)/(5,3) 2 grain, ore
====  ======  ======================================  =====================

Every illegal action is checked with :func:`illegal`. It asserts the
``IllegalActionError.rule`` and that ``game.state()`` did not change.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import deal, empty_hands, node

from catan_nb import Board, Building, DevCard, Game, IllegalActionError, Resource
from catan_nb.rules import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ConfirmTrade,
    DeclineTrade,
    Discard,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
    Rules,
    counts,
)

LUMBER, BRICK, WOOL, GRAIN, ORE = Resource.LUMBER, Resource.BRICK, Resource.WOOL, Resource.GRAIN, Resource.ORE
RED, BLUE, WHITE, ORANGE = 0, 1, 2, 3

BOARD = Board.beginner()


# ---------------------------------------------------------------- board lookups
def hexid(row: int, col: int) -> int:
    return BOARD.hex_at(row, col).id


def meet(*rcs: tuple[int, int]) -> int:
    """The intersection where exactly the given hexes meet."""
    want = {hexid(*rc) for rc in rcs}
    (v,) = [v for v in range(BOARD.topology.n_nodes) if set(BOARD.topology.node_hexes[v]) == want]
    return v


def between(a: int, b: int) -> int:
    """The path joining two adjacent intersections."""
    return BOARD.path_between(a, b)


def harbour_at(v: int):
    """The harbour whose path ends at intersection ``v``, or ``None``."""
    for h in BOARD.harbours:
        if v in BOARD.path_nodes(h.path):
            return h
    return None


DESERT = hexid(3, 3)
MOUNTAINS_3 = hexid(4, 2)
FOREST_3 = hexid(3, 4)
PASTURE_2 = hexid(1, 2)

RED_A = meet((1, 2), (2, 2), (2, 3))  # lettered red settlement
RED_2 = meet((2, 1), (3, 1), (3, 2))
BLUE_B = meet((4, 1), (4, 2), (5, 1))
BLUE_2 = meet((1, 3), (2, 3), (2, 4))
WHITE_D = meet((2, 4), (3, 4), (3, 5))
WHITE_2 = meet((1, 1), (2, 1), (2, 2))
ORANGE_C = meet((4, 2), (4, 3), (5, 2))
ORANGE_2 = meet((4, 3), (4, 4), (5, 3))

# Red's starting road runs RED_2 -> N28 (forest 8 / fields 9 / forest 11).
N28 = meet((3, 1), (3, 2), (4, 1))
N33 = meet((3, 1), (4, 1))  # coastal, empty, next to N28
N34 = meet((3, 2), (4, 1), (4, 2))  # next to blue B; blue's starting road ends here
N18 = meet((2, 2), (2, 3), (3, 3))  # end of red's road from RED_A
N43 = meet((4, 1), (5, 1))  # between blue B and the south-west coast
N44 = meet((4, 2), (5, 1), (5, 2))  # between blue B and orange C
N45 = meet((4, 3), (5, 2), (5, 3))
N35 = meet((3, 3), (4, 2), (4, 3))  # end of orange's road from C
GENERIC_38 = node(BOARD, 4, 1, "SW")  # on a 3:1 harbour path
ORE_47 = node(BOARD, 5, 1, "SW")  # on the ore 2:1 harbour path

QUIET = (1, 1)  # a roll of 2: only (1,2) pasture 2 produces (1 wool to red)


# ---------------------------------------------------------------- game helpers
def new_game(seed: int = 1, *, seat: int = 0, rules: Rules | None = None, board: Board = BOARD, players: int = 4) -> Game:
    return Game(board, players=players, seed=seed, start="beginner", starting_seat=seat, rules=rules)


def roll(game: Game, a: int, b: int) -> None:
    game.play(RollDice(dice=(a, b)))


def hands(game: Game) -> list[tuple[int, ...]]:
    return [tuple(h) for h in game.hands]


def delta(before, after) -> list[tuple[int, ...]]:
    """Per-seat change of hands (or a single change if given two tuples)."""
    if before and isinstance(before[0], tuple):
        return [tuple(y - x for x, y in zip(b, a)) for b, a in zip(before, after)]
    return tuple(y - x for x, y in zip(before, after))


def illegal(game: Game, action, rule: str) -> IllegalActionError:
    """Assert ``action`` is rejected citing ``rule`` and leaves the game unchanged."""
    snapshot = game.state()
    with pytest.raises(IllegalActionError) as info:
        game.play(action)
    assert info.value.rule == rule, str(info.value)
    assert game.state() == snapshot, f"state changed by rejected {action!r}"
    return info.value


def give_dev(game: Game, player: int, card: DevCard, k: int = 1) -> None:
    """Move ``k`` development cards from the deck to a player (held since an earlier turn)."""
    assert game.deck[card.value] >= k
    game.deck[card.value] -= k
    game.dev[player][card.value] += k


def pass_to(game: Game, seat: int, dice=QUIET) -> None:
    """End the current turn; every seat up to ``seat`` rolls ``dice`` and ends; ``seat`` is left to roll."""
    game.play(EndTurn())
    while game.active_player != seat:
        game.play(RollDice(dice=dice))
        game.play(EndTurn())
    assert game.phase is Phase.ROLL


def to_main(seed: int = 1, **kw) -> Game:
    """Beginner game; the starting seat has rolled QUIET and is in phase MAIN."""
    g = new_game(seed, **kw)
    roll(g, *QUIET)
    assert g.phase is Phase.MAIN
    return g


def discard_owed(game: Game) -> None:
    """The current seat discards everything it owes, taking cards in resource order."""
    owed = game.discards_owed()[game.current_player]
    cards = []
    for k in game.hands[game.current_player]:
        take = min(k, owed)
        cards.append(take)
        owed -= take
    game.play(Discard(tuple(cards)))


def C(**kw) -> tuple[int, ...]:
    return counts(**kw)


ZERO = (0, 0, 0, 0, 0)


def test_position_sanity():
    """The named intersections are the beginner start pieces (B-SETUP-5), so the positions below read right."""
    g = new_game()
    assert [g.building_at(v) for v in (RED_A, RED_2)] == [(RED, Building.SETTLEMENT)] * 2
    assert [g.building_at(v) for v in (BLUE_B, BLUE_2)] == [(BLUE, Building.SETTLEMENT)] * 2
    assert [g.building_at(v) for v in (WHITE_D, WHITE_2)] == [(WHITE, Building.SETTLEMENT)] * 2
    assert [g.building_at(v) for v in (ORANGE_C, ORANGE_2)] == [(ORANGE, Building.SETTLEMENT)] * 2
    assert g.road_owner(between(RED_2, N28)) == RED
    assert g.road_owner(between(BLUE_B, N34)) == BLUE
    assert g.road_owner(between(ORANGE_C, N35)) == ORANGE
    assert g.road_owner(between(RED_A, N18)) == RED
    assert hands(g) == [C(brick=1, wool=2), C(lumber=1, brick=1, ore=1), C(lumber=1, brick=1, ore=1), C(grain=2, ore=1)]
    assert g.robber == DESERT
    assert harbour_at(GENERIC_38).resource is None and harbour_at(ORE_47).resource is ORE
    assert g.phase is Phase.ROLL and g.current_player == 0


# ======================================================================== 3. Turn structure
def test_B_TURN_1_turns_pass_to_the_left():
    """B-TURN-1: after EndTurn play passes to the next seat (seat + 1 mod n), with 4 and 3 players and any starting seat."""
    for players, seat, expected in ((4, 0, [0, 1, 2, 3, 0, 1, 2, 3]), (4, 2, [2, 3, 0, 1, 2]), (3, 1, [1, 2, 0, 1])):
        g = new_game(players=players, seat=seat)
        seen = []
        for _ in expected:
            seen.append(g.active_player)
            assert g.current_player == g.active_player and g.phase is Phase.ROLL
            roll(g, *QUIET)
            g.play(EndTurn())
        assert seen == expected


def test_B_TURN_2_no_maritime_or_domestic_trade_after_building():
    """B-TURN-2: roll -> trade -> build; after building (a road) the trade phase is over by default."""
    g = to_main()
    deal(g, RED, lumber=1, ore=4)
    g.play(BuildRoad(between(N28, N33)))
    illegal(g, MaritimeTrade(ORE, GRAIN), "B-TURN-2")
    illegal(g, OfferTrade(C(ore=1), C(grain=1)), "B-TURN-2")
    assert not any(isinstance(a, (MaritimeTrade, OfferTrade)) for a in g.legal_actions(offers=True))


def test_B_TURN_2_buying_a_development_card_ends_the_trade_phase():
    """B-TURN-2: the build phase includes buying development cards, so no trade after a purchase."""
    g = to_main()
    deal(g, RED, ore=5, grain=1)
    g.play(BuyDevelopmentCard(card=DevCard.KNIGHT))
    illegal(g, MaritimeTrade(ORE, LUMBER), "B-TURN-2")


def test_B_TURN_2_trade_then_build_is_the_normal_order():
    """B-TURN-2: trading first and building afterwards is allowed under the default rules."""
    g = to_main()
    deal(g, RED, ore=4)
    g.play(MaritimeTrade(ORE, LUMBER))
    g.play(BuildRoad(between(N28, N33)))
    assert g.road_owner(between(N28, N33)) == RED


def test_B_TURN_2_combined_trade_build_option_allows_trade_after_build():
    """B-TURN-2 (A-08): with Rules(combined_trade_build=True) trading after building is allowed."""
    g = to_main(rules=Rules(combined_trade_build=True))
    deal(g, RED, lumber=1, ore=4)
    g.play(BuildRoad(between(N28, N33)))
    before = hands(g)
    g.play(MaritimeTrade(ORE, GRAIN))
    assert delta(before, hands(g))[RED] == C(ore=-4, grain=1)
    g.play(OfferTrade(C(grain=1), C(lumber=1)))
    assert g.phase is Phase.TRADE_RESPONSE


def test_B_TURN_3_no_trade_or_build_before_the_roll():
    """B-TURN-3: before the production roll the active player may not trade (maritime or domestic) or build."""
    g = new_game()
    deal(g, RED, lumber=5, brick=5, wool=5, grain=5, ore=5)
    for action in (
        MaritimeTrade(ORE, GRAIN),
        OfferTrade(C(wool=1), C(ore=1)),
        BuildRoad(between(N28, N33)),
        BuildSettlement(N33),
        BuildCity(RED_2),
        BuyDevelopmentCard(),
    ):
        illegal(g, action, "B-TURN-3")
    assert g.legal_actions()[0] == RollDice()
    assert not any(isinstance(a, (MaritimeTrade, BuildRoad, BuildSettlement, BuildCity, BuyDevelopmentCard)) for a in g.legal_actions())


def test_B_TURN_3_only_a_development_card_may_be_played_before_the_roll():
    """B-TURN-3: a development card (knight, or by default any progress card) may be played before the roll."""
    g = new_game()
    give_dev(g, RED, DevCard.KNIGHT)
    g.play(PlayKnight())
    g.play(MoveRobber(MOUNTAINS_3, None))
    assert g.phase is Phase.ROLL  # still to roll
    g2 = new_game()
    give_dev(g2, RED, DevCard.YEAR_OF_PLENTY)
    g2.play(PlayYearOfPlenty(ORE, ORE))
    assert g2.hand(RED)[ORE] == 2 and g2.phase is Phase.ROLL
    # A-01 option: only knights before the roll.
    g3 = new_game(rules=Rules(knights_only_before_roll=True))
    give_dev(g3, RED, DevCard.YEAR_OF_PLENTY)
    illegal(g3, PlayYearOfPlenty(ORE, ORE), "B-TURN-3")


def test_B_TURN_4_at_most_one_development_card_per_turn():
    """B-TURN-4: one development card per turn, counting a card played before the roll. Decision A-02."""
    g = new_game()
    give_dev(g, RED, DevCard.KNIGHT, 2)
    give_dev(g, RED, DevCard.YEAR_OF_PLENTY)
    g.play(PlayKnight())  # before the roll
    g.play(MoveRobber(MOUNTAINS_3, None))
    roll(g, *QUIET)
    illegal(g, PlayKnight(), "B-TURN-4")
    illegal(g, PlayYearOfPlenty(ORE, GRAIN), "B-TURN-4")
    assert not any(isinstance(a, (PlayKnight, PlayYearOfPlenty)) for a in g.legal_actions())
    # The limit is per turn: on red's next turn the second knight may be played.
    pass_to(g, RED)
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER


def test_B_TURN_5_no_play_in_the_turn_of_purchase():
    """B-TURN-5: a card bought this turn cannot be played this turn; it can on the owner's next turn."""
    g = to_main()
    deal(g, RED, ore=1, grain=1)
    g.play(BuyDevelopmentCard(card=DevCard.KNIGHT))
    assert g.dev_cards(RED)[DevCard.KNIGHT] == 1
    illegal(g, PlayKnight(), "B-TURN-5")
    pass_to(g, RED)
    g.play(PlayKnight())
    assert g.knights[RED] == 1


def test_B_TURN_6_development_cards_only_in_own_turn():
    """B-TURN-6: a player may not play a development card in another player's turn (discard or trade response)."""
    # Discard phase: white must discard during red's turn and holds a knight.
    g = to_main()
    pass_to(g, RED)  # (fresh turn for red)
    give_dev(g, WHITE, DevCard.KNIGHT)
    deal(g, WHITE, lumber=6)  # 9 cards
    roll(g, 3, 4)
    assert g.phase is Phase.DISCARD and g.current_player == WHITE
    illegal(g, PlayKnight(), "B-TURN-6")
    # Trade response: blue answers red's offer and holds a knight.
    g = to_main()
    give_dev(g, BLUE, DevCard.KNIGHT)
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    assert g.current_player == BLUE
    illegal(g, PlayKnight(), "B-TURN-6")


def test_B_TURN_7_victory_point_cards_count_at_once_and_are_never_played():
    """B-TURN-7: a VP card counts from the moment it is bought, is hidden, and does not use the one-card play."""
    g = to_main()
    give_dev(g, RED, DevCard.KNIGHT)
    deal(g, RED, ore=1, grain=1)
    vp, visible = g.vp(RED), g.vp(RED, visible=True)
    g.play(BuyDevelopmentCard(card=DevCard.VICTORY_POINT))
    assert g.vp(RED) == vp + 1 and g.vp(RED, visible=True) == visible
    # Buying (and holding) a VP card is not a play: the knight may still be played this turn.
    g.play(PlayKnight())
    g.play(MoveRobber(MOUNTAINS_3, None))
    assert g.dev_cards(RED)[DevCard.VICTORY_POINT] == 1
    # It counts toward the target at once (here a 3-VP target): bought -> game over.
    g = to_main(rules=Rules(vp_to_win=3))
    deal(g, RED, ore=1, grain=1)
    g.play(BuyDevelopmentCard(card=DevCard.VICTORY_POINT))
    assert g.phase is Phase.GAME_OVER and g.winner == RED


def test_B_TURN_8_any_number_of_trades_and_builds():
    """B-TURN-8: in one turn, several trades and then several builds, limited only by cards and pieces."""
    g = to_main()  # red: brick 1, wool 3
    deal(g, RED, ore=8, lumber=3, grain=1)
    g.play(MaritimeTrade(ORE, BRICK))
    g.play(MaritimeTrade(ORE, BRICK))
    g.play(BuildRoad(between(N28, N33)))
    g.play(BuildRoad(between(N33, GENERIC_38)))
    g.play(BuildSettlement(N33))
    assert g.hand(RED) == {LUMBER: 0, BRICK: 0, WOOL: 2, GRAIN: 0, ORE: 0}
    assert g.building_at(N33) == (RED, Building.SETTLEMENT) and g.pieces_left(RED)["road"] == 15 - 4
    illegal(g, BuildRoad(between(GENERIC_38, N43)), "B-BUILD-1")  # out of cards now


def test_B_TURN_9_turn_ends_only_when_declared():
    """B-TURN-9: the turn stays with the active player until EndTurn; then the next seat starts with the roll."""
    g = to_main()
    deal(g, RED, ore=8)
    g.play(MaritimeTrade(ORE, LUMBER))
    g.play(MaritimeTrade(ORE, BRICK))
    assert g.active_player == RED and g.phase is Phase.MAIN
    g.play(EndTurn())
    assert g.active_player == BLUE and g.current_player == BLUE and g.phase is Phase.ROLL
    # EndTurn is the MAIN-phase declaration: not while the robber must move ...
    roll(g, 3, 4)
    assert g.phase is Phase.MOVE_ROBBER
    illegal(g, EndTurn(), "B-TURN-9")
    g.play(MoveRobber(FOREST_3, None))
    g.play(EndTurn())
    # ... and not before the roll (the engine cites the phase order, B-TURN-2).
    illegal(g, EndTurn(), "B-TURN-2")


# ======================================================================== 4. Production
def test_B_PROD_1_two_dice_sum_applies_to_everyone():
    """B-PROD-1: the active player rolls two six-sided dice; impossible dice are rejected; random dice are 1..6."""
    g = new_game()
    for bad in ((0, 3), (7, 1), (1, 2, 3), (3,)):
        illegal(g, RollDice(dice=bad), "B-PROD-1")
    roll(g, 1, 2)
    assert g.dice_history == [(1, 2)] and g.log[-1] == RollDice(dice=(1, 2))
    totals = Counter()
    for seed in range(300):
        g = new_game(seed)
        g.play(RollDice())
        d = g.log[-1].dice
        assert all(1 <= x <= 6 for x in d) and g.dice_history == [d]
        totals[sum(d)] += 1
    assert set(totals) == set(range(2, 13))
    assert totals[7] > totals[2] and totals[7] > totals[12]


def test_B_PROD_2_every_hex_with_the_number_produces():
    """B-PROD-2: both hexes with token 3 ((3,4) forest, (4,2) mountains) produce; other hexes do not."""
    g = new_game()
    before = hands(g)
    roll(g, 2, 1)
    assert delta(before, hands(g)) == [ZERO, C(ore=1), C(lumber=1), C(ore=1)]
    assert g.last_production == {BLUE: [0, 0, 0, 0, 1], WHITE: [1, 0, 0, 0, 0], ORANGE: [0, 0, 0, 0, 1]}


def test_B_PROD_3_a_settlement_earns_one_card():
    """B-PROD-3: roll 12, (2,1) fields: red and white each have one settlement there and get 1 grain."""
    g = new_game()
    before = hands(g)
    roll(g, 6, 6)
    assert delta(before, hands(g)) == [C(grain=1), ZERO, C(grain=1), ZERO]


def test_B_PROD_4_two_settlements_on_one_hex_each_earn():
    """B-PROD-4: orange has C and a second settlement on (4,3) fields 4: a roll of 4 gives orange 2 grain."""
    g = new_game()
    before = hands(g)
    roll(g, 1, 3)
    # (2,3) pasture 4 also produces: red and blue 1 wool each.
    assert delta(before, hands(g)) == [C(wool=1), C(wool=1), ZERO, C(grain=2)]


def test_B_PROD_5_a_city_earns_two_cards():
    """B-PROD-5: after orange upgrades C to a city, a 3 gives orange 2 ore; a 4 gives 2 + 1 grain."""
    g = to_main(seat=ORANGE)
    deal(g, ORANGE, ore=2)
    g.play(BuildCity(ORANGE_C))
    pass_to(g, RED)
    before = hands(g)
    roll(g, 1, 2)
    assert delta(before, hands(g)) == [ZERO, C(ore=1), C(lumber=1), C(ore=2)]
    pass_to(g, BLUE)
    before = hands(g)
    roll(g, 2, 2)
    assert delta(before, hands(g))[ORANGE] == C(grain=3)  # city 2 + settlement 1 on (4,3) fields 4


def test_B_PROD_6_building_on_two_hexes_with_the_same_number_collects_from_both():
    """B-PROD-6: swap tokens so (4,1) forest also carries 3: blue B touches it and (4,2) mountains 3 and gets both."""
    data = BOARD.to_dict()
    tok = {(h["row"], h["col"]): h for h in data["hexes"]}
    tok[(4, 1)]["token"], tok[(3, 4)]["token"] = tok[(3, 4)]["token"], tok[(4, 1)]["token"]
    board = Board.from_dict(data)
    assert board.hex_at(4, 1).token == board.hex_at(4, 2).token == 3
    g = new_game(board=board)
    before = hands(g)
    roll(g, 1, 2)
    assert delta(before, hands(g)) == [ZERO, C(lumber=1, ore=1), ZERO, C(ore=1)]
    # With a city on B it collects 2 from each.
    g = to_main(board=board, seat=BLUE)
    deal(g, BLUE, ore=2, grain=2)
    g.play(BuildCity(BLUE_B))
    pass_to(g, WHITE)
    before = hands(g)
    roll(g, 2, 1)
    assert delta(before, hands(g))[BLUE] == C(lumber=2, ore=2)


def _expected_production(g: Game, total: int) -> list[tuple[int, ...]]:
    """Independent count: each building on a non-robber hex with token ``total`` earns 1 (settlement) or 2 (city)."""
    out = [[0] * 5 for _ in range(g.n)]
    for t in g.board.hexes:
        if t.token != total or t.resource is None or t.id == g.robber:
            continue
        for v in g.board.hex_intersections(t.id):
            b = g.building_at(v)
            if b:
                out[b[0]][t.resource.value] += 2 if b[1] is Building.CITY else 1
    return [tuple(x) for x in out]


def test_B_PROD_7_desert_never_produces_and_7_produces_nothing():
    """B-PROD-7: the desert has no token and never produces, even with the robber elsewhere; a 7 produces nothing."""
    desert = BOARD.hexes[DESERT]
    assert desert.token is None and desert.resource is None
    g = new_game()
    roll(g, 3, 4)
    assert g.phase is Phase.MOVE_ROBBER and g.last_production == {}
    g.play(MoveRobber(PASTURE_2, None))  # the desert is now free of the robber
    pass_to(g, BLUE)
    for total in range(2, 13):
        c = g.copy()
        before = hands(c)
        c.play(RollDice(dice=(1, total - 1) if total <= 7 else (6, total - 6)))
        got = delta(before, hands(c))
        if total == 7:
            assert got == [ZERO] * 4
        else:
            assert got == _expected_production(g, total), total


def test_B_PROD_8_production_goes_to_every_player_whoever_rolled():
    """B-PROD-8: the same roll of 3 pays blue, white and orange, whether red or white rolled it."""
    for seat in (RED, WHITE, ORANGE):
        g = new_game(seat=seat)
        before = hands(g)
        roll(g, 1, 2)
        assert delta(before, hands(g)) == [ZERO, C(ore=1), C(lumber=1), C(ore=1)], seat


def test_B_PROD_9_worked_example_roll_3():
    """B-PROD-9: beginner board, roll 3 -> blue B and orange C each receive 1 ore; white D gets lumber from (3,4) forest 3."""
    g = new_game()
    assert g.colours[BLUE].name == "BLUE" and g.colours[ORANGE].name == "ORANGE" and g.colours[WHITE].name == "WHITE"
    before = hands(g)
    roll(g, 1, 2)
    d = delta(before, hands(g))
    assert d[BLUE] == C(ore=1)
    assert d[ORANGE] == C(ore=1)
    assert d[WHITE] == C(lumber=1)
    assert d[RED] == ZERO
    assert g.hand(BLUE)[ORE] == 2 and g.hand(ORANGE)[ORE] == 2



def test_A13_the_beginner_board_has_no_pasture_10():
    """A-13: the "10 gives wool" example of one rulebook belongs to another picture: no pasture of the
    beginner board carries a 10, so a 10 pays no wool there (B-PROD-9 is the anchor the tests use)."""
    board = Board.beginner()
    assert not [t for t in board.hexes if t.resource == WOOL and t.token == 10]
    g = new_game()
    before = hands(g)
    roll(g, 4, 6)
    assert all(d[WOOL.value] == 0 for d in delta(before, hands(g)))


# ======================================================================== 5. Trade
def test_B_TRADE_1_trade_only_in_the_active_players_trade_phase():
    """B-TRADE-1: no trading while discards are owed, while the robber must move, during Road Building or an open offer."""
    g = to_main()
    pass_to(g, RED)
    deal(g, RED, ore=8)  # red must discard after the 7
    roll(g, 3, 4)
    assert g.phase is Phase.DISCARD and g.current_player == RED
    illegal(g, MaritimeTrade(ORE, GRAIN), "B-TRADE-1")
    illegal(g, OfferTrade(C(ore=1), C(grain=1)), "B-TRADE-1")
    discard_owed(g)
    assert g.phase is Phase.MOVE_ROBBER
    illegal(g, MaritimeTrade(ORE, GRAIN), "B-TRADE-1")
    g.play(MoveRobber(MOUNTAINS_3, None))
    g.play(MaritimeTrade(ORE, GRAIN))  # now the trade phase
    # Road Building in progress.
    g = to_main()
    give_dev(g, RED, DevCard.ROAD_BUILDING)
    deal(g, RED, ore=4)
    g.play(PlayRoadBuilding())
    assert g.phase is Phase.ROAD_BUILDING
    illegal(g, MaritimeTrade(ORE, GRAIN), "B-TRADE-1")
    # An offer is open: no second offer, no maritime trade.
    g = to_main()
    deal(g, RED, ore=4)
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    g.play(DeclineTrade())  # blue
    assert g.current_player == WHITE
    illegal(g, MaritimeTrade(ORE, GRAIN), "B-TRADE-3")  # white is not the active player


def test_B_TRADE_2_domestic_trade_flow_offer_answers_confirm():
    """B-TRADE-2: OfferTrade; each other seat answers in turn order; the offerer confirms with one who accepted."""
    g = to_main()  # red: brick 1, wool 3
    bank = list(g.bank)
    before = hands(g)
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    assert g.phase is Phase.TRADE_RESPONSE and g.trade_offer == (C(wool=1), C(ore=1))
    assert g.active_player == RED
    order = []
    for answer in (AcceptTrade(), DeclineTrade(), AcceptTrade()):
        order.append(g.current_player)
        g.play(answer)
    assert order == [BLUE, WHITE, ORANGE]
    assert g.phase is Phase.TRADE_CONFIRM and g.current_player == RED and g.trade_partners == [BLUE, ORANGE]
    illegal(g, ConfirmTrade(WHITE), "B-TRADE-2")  # white declined
    g.play(ConfirmTrade(ORANGE))
    assert delta(before, hands(g)) == [C(wool=-1, ore=1), ZERO, ZERO, C(wool=1, ore=-1)]
    assert g.bank == bank and g.phase is Phase.MAIN and g.trade_offer is None and g.current_player == RED


def test_B_TRADE_2_any_terms_both_accept_and_cancel_or_all_decline():
    """B-TRADE-2: uneven terms are fine; CancelTrade or an all-decline round leaves hands unchanged."""
    g = to_main()
    deal(g, ORANGE, lumber=1)
    before = hands(g)
    g.play(OfferTrade(C(wool=3), C(grain=1, lumber=1)))  # 3 for 2
    assert g.legal_actions() == [DeclineTrade()]  # blue has no grain
    illegal(g, AcceptTrade(), "B-TRADE-2")
    g.play(DeclineTrade())
    g.play(DeclineTrade())
    g.play(AcceptTrade())  # orange
    g.play(ConfirmTrade(ORANGE))
    assert delta(before, hands(g)) == [C(wool=-3, grain=1, lumber=1), ZERO, ZERO, C(wool=3, grain=-1, lumber=-1)]
    # Cancel after an acceptance.
    g = to_main()
    before = hands(g)
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    g.play(AcceptTrade())
    g.play(DeclineTrade())
    g.play(DeclineTrade())
    g.play(CancelTrade())
    assert hands(g) == before and g.phase is Phase.MAIN and g.trade_offer is None
    # Everyone declines: back to MAIN, no confirmation step.
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    for _ in range(3):
        g.play(DeclineTrade())
    assert hands(g) == before and g.phase is Phase.MAIN and g.current_player == RED and g.trade_offer is None
    # Offering cards one does not hold is illegal.
    illegal(g, OfferTrade(C(ore=1), C(wool=1)), "B-TRADE-2")


def test_B_TRADE_3_non_active_players_trade_only_with_the_active_player():
    """B-TRADE-3: responders may only answer the active player's offer; they cannot offer, confirm or cancel, and only
    the active player and the chosen partner exchange cards."""
    g = to_main()
    illegal(g, AcceptTrade(), "B-TRADE-3")  # no offer to answer
    illegal(g, DeclineTrade(), "B-TRADE-3")
    before = hands(g)
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    assert g.current_player == BLUE
    # Blue (not active) cannot start its own trade with anyone ...
    illegal(g, OfferTrade(C(ore=1), C(lumber=1)), "B-TRADE-3")
    # ... nor close the active player's offer.
    illegal(g, CancelTrade(), "B-TRADE-3")
    illegal(g, ConfirmTrade(WHITE), "B-TRADE-3")
    g.play(AcceptTrade())
    g.play(AcceptTrade())
    g.play(DeclineTrade())
    g.play(ConfirmTrade(WHITE))
    d = delta(before, hands(g))
    assert d[RED] == C(wool=-1, ore=1) and d[WHITE] == C(wool=1, ore=-1)
    assert d[BLUE] == ZERO and d[ORANGE] == ZERO


def test_B_TRADE_4_only_resource_cards_change_hands():
    """B-TRADE-4: a domestic trade leaves development cards (in hand and played) untouched; offers carry only resources."""
    g = to_main()
    give_dev(g, RED, DevCard.KNIGHT)
    give_dev(g, BLUE, DevCard.MONOPOLY)
    give_dev(g, BLUE, DevCard.VICTORY_POINT)
    dev_before = [list(d) for d in g.dev]
    g.play(OfferTrade(C(wool=2), C(ore=1)))
    g.play(AcceptTrade())
    g.play(DeclineTrade())
    g.play(DeclineTrade())
    g.play(ConfirmTrade(BLUE))
    assert [list(d) for d in g.dev] == dev_before and g.knights == [0, 0, 0, 0]
    assert g.vp(BLUE) == 3
    # An offer side is exactly the five resource counts; a sixth slot (e.g. a development card) is rejected.
    illegal(g, OfferTrade((0, 0, 1, 0, 0, 1), C(ore=1)), "B-TRADE-4")


def test_B_TRADE_5_each_side_gives_something_different():
    """B-TRADE-5: an empty side, or the same resource on both sides, is illegal. Decision A-16."""
    g = to_main()
    deal(g, RED, ore=2)
    illegal(g, OfferTrade(C(wool=1), ZERO), "B-TRADE-5")
    illegal(g, OfferTrade(ZERO, C(ore=1)), "B-TRADE-5")
    illegal(g, OfferTrade(ZERO, ZERO), "B-TRADE-5")
    illegal(g, OfferTrade(C(wool=1), C(wool=1)), "B-TRADE-5")
    illegal(g, OfferTrade(C(wool=2), C(wool=1)), "B-TRADE-5")
    illegal(g, OfferTrade(C(wool=1, ore=1), C(ore=1, grain=1)), "B-TRADE-5")
    g.play(OfferTrade(C(wool=1, ore=1), C(grain=1)))


def test_B_TRADE_6_four_to_one_is_always_allowed():
    """B-TRADE-6: without any harbour, 4 identical cards buy 1 card of choice from the bank; 3 are not enough."""
    g = to_main()
    deal(g, RED, lumber=4)
    assert g.maritime_rate(RED, LUMBER) == 4
    bank, before = list(g.bank), hands(g)
    g.play(MaritimeTrade(LUMBER, ORE))
    assert delta(before, hands(g))[RED] == C(lumber=-4, ore=1)
    assert delta(tuple(bank), tuple(g.bank)) == C(lumber=4, ore=-1)
    deal(g, RED, grain=3)
    illegal(g, MaritimeTrade(GRAIN, ORE), "B-TRADE-6")
    illegal(g, MaritimeTrade(WOOL, ORE), "B-TRADE-6")  # 3 wool


def test_B_TRADE_7_no_harbour_access_without_a_building_on_it():
    """B-TRADE-7: 3:1 needs a settlement or city on the harbour path; a road along it gives no access."""
    g = to_main(seat=BLUE)
    deal(g, BLUE, lumber=1, brick=1, wool=3)
    g.play(BuildRoad(between(BLUE_B, N43)))
    g.play(BuildRoad(between(N43, GENERIC_38)))
    pass_to(g, BLUE)
    roll(g, *QUIET)
    assert g.road_owner(harbour_at(GENERIC_38).path) is None
    assert GENERIC_38 in {e for p in g.roads[BLUE] for e in BOARD.path_nodes(p)}
    assert g.maritime_rate(BLUE, WOOL) == 4
    illegal(g, MaritimeTrade(WOOL, BRICK), "B-TRADE-6")
    # Red has no harbour at all.
    g = to_main()
    assert all(g.maritime_rate(RED, r) == 4 for r in Resource)


def blue_on_harbour(target: int, *, city: bool = False) -> Game:
    """Blue builds roads B -> N43 -> ``target`` and a settlement (or city) there; then it is blue's next turn, rolled."""
    g = to_main(seat=BLUE)
    deal(g, BLUE, lumber=2, brick=2, wool=1, grain=1)
    g.play(BuildRoad(between(BLUE_B, N43)))
    g.play(BuildRoad(between(N43, target)))
    g.play(BuildSettlement(target))
    if city:
        deal(g, BLUE, ore=2, grain=2)
        g.play(BuildCity(target))
    pass_to(g, BLUE)
    roll(g, *QUIET)
    assert g.phase is Phase.MAIN and g.active_player == BLUE
    return g


def test_B_TRADE_7_generic_harbour_three_to_one():
    """B-TRADE-7: a settlement on a 3:1 harbour path lets its owner trade 3 identical cards for 1, any resource."""
    g = blue_on_harbour(GENERIC_38)
    assert harbour_at(GENERIC_38).resource is None
    assert g.maritime_rate(BLUE, WOOL) == 3 and g.maritime_rate(BLUE, ORE) == 3
    deal(g, BLUE, wool=3)
    before = hands(g)
    g.play(MaritimeTrade(WOOL, BRICK))
    assert delta(before, hands(g))[BLUE] == C(wool=-3, brick=1)
    assert g.maritime_rate(RED, WOOL) == 4  # only the owner


def test_B_TRADE_8_special_harbour_two_to_one_for_its_resource_only():
    """B-TRADE-8: a settlement on the ore 2:1 harbour trades 2 ore for 1; other resources stay at 4:1."""
    g = blue_on_harbour(ORE_47)
    assert harbour_at(ORE_47).resource is ORE
    assert g.maritime_rate(BLUE, ORE) == 2
    assert g.maritime_rate(BLUE, WOOL) == 4
    deal(g, BLUE, ore=1, wool=3)  # blue: 2 ore, 3 wool
    before = hands(g)
    g.play(MaritimeTrade(ORE, GRAIN))
    assert delta(before, hands(g))[BLUE] == C(ore=-2, grain=1)
    illegal(g, MaritimeTrade(WOOL, GRAIN), "B-TRADE-6")


def test_B_TRADE_9_a_city_on_the_harbour_also_gives_access():
    """B-TRADE-9: harbour access comes from a settlement or a city; after upgrading, access stays. Decision A-37."""
    g = blue_on_harbour(GENERIC_38, city=True)
    assert g.building_at(GENERIC_38) == (BLUE, Building.CITY)
    assert g.maritime_rate(BLUE, GRAIN) == 3


def test_B_TRADE_10_maritime_trades_repeat_each_settled_alone():
    """B-TRADE-10: several maritime trades in one trade phase, each paid separately, until the cards run out."""
    g = to_main()
    deal(g, RED, lumber=9)
    before = hands(g)
    g.play(MaritimeTrade(LUMBER, ORE))
    assert delta(before, hands(g))[RED] == C(lumber=-4, ore=1)
    g.play(MaritimeTrade(LUMBER, GRAIN))
    assert delta(before, hands(g))[RED] == C(lumber=-8, ore=1, grain=1)
    illegal(g, MaritimeTrade(LUMBER, BRICK), "B-TRADE-6")  # 1 lumber left


def test_B_TRADE_11_maritime_trade_needs_another_resource_and_a_bank_card():
    """B-TRADE-11: asking for the resource given is illegal, and so is asking for a resource the bank has run out of."""
    g = to_main()
    deal(g, RED, lumber=4)
    illegal(g, MaritimeTrade(LUMBER, LUMBER), "B-TRADE-11")
    deal(g, WHITE, ore=g.bank[ORE.value])  # the bank's ore is gone
    assert g.bank[ORE.value] == 0
    illegal(g, MaritimeTrade(LUMBER, ORE), "B-TRADE-11")
    assert MaritimeTrade(LUMBER, ORE) not in g.legal_actions()
    g.play(MaritimeTrade(LUMBER, GRAIN))


# ======================================================================== 6. Building
def test_B_BUILD_1_costs():
    """B-BUILD-1: road = brick + lumber; settlement = brick + lumber + wool + grain; city = 3 ore + 2 grain;
    development card = ore + wool + grain. Short of cards -> B-BUILD-1."""
    g = to_main()  # red: brick 1, wool 3
    illegal(g, BuildRoad(between(N28, N33)), "B-BUILD-1")  # no lumber
    deal(g, RED, lumber=2, brick=1, grain=1)
    h = tuple(g.hands[RED])
    g.play(BuildRoad(between(N28, N33)))
    assert delta(h, tuple(g.hands[RED])) == C(brick=-1, lumber=-1)
    h = tuple(g.hands[RED])
    g.play(BuildSettlement(N33))
    assert delta(h, tuple(g.hands[RED])) == C(brick=-1, lumber=-1, wool=-1, grain=-1)
    deal(g, RED, ore=3, grain=1)
    err = illegal(g, BuildCity(N33), "B-BUILD-1")  # 1 grain short
    assert "grain" in str(err)
    deal(g, RED, grain=1)
    h = tuple(g.hands[RED])
    g.play(BuildCity(N33))
    assert delta(h, tuple(g.hands[RED])) == C(ore=-3, grain=-2)
    illegal(g, BuyDevelopmentCard(), "B-BUILD-1")
    deal(g, RED, ore=1, grain=1)
    h = tuple(g.hands[RED])
    g.play(BuyDevelopmentCard())
    assert delta(h, tuple(g.hands[RED])) == C(ore=-1, wool=-1, grain=-1)


def test_B_BUILD_2_spent_cards_go_back_to_the_bank():
    """B-BUILD-2: every card paid for a build returns to the bank (95 cards in all)."""
    g = to_main()
    deal(g, RED, lumber=2, brick=1, grain=1)
    bank = tuple(g.bank)
    g.play(BuildRoad(between(N28, N33)))
    g.play(BuildSettlement(N33))
    assert delta(bank, tuple(g.bank)) == C(lumber=2, brick=2, wool=1, grain=1)
    assert [g.bank[r] + sum(h[r] for h in g.hands) for r in range(5)] == [19] * 5


def test_B_BUILD_3_one_road_per_path():
    """B-BUILD-3: a path already holding a road (own or an opponent's) cannot take another."""
    g = to_main()
    deal(g, RED, lumber=2, brick=2)
    illegal(g, BuildRoad(between(RED_2, N28)), "B-BUILD-3")  # red's own
    g.play(BuildRoad(between(N28, N34)))  # reaches blue's road end
    illegal(g, BuildRoad(between(BLUE_B, N34)), "B-BUILD-3")  # blue's


def test_B_BUILD_4_a_road_continues_a_building_or_road():
    """B-BUILD-4: a new road must touch the builder's settlement/city or the open end of one of their roads."""
    g = to_main()
    deal(g, RED, lumber=3, brick=3)
    illegal(g, BuildRoad(between(node(BOARD, 1, 1, "N"), node(BOARD, 1, 1, "NW"))), "B-BUILD-4")  # far away
    illegal(g, BuildRoad(between(BLUE_B, N43)), "B-BUILD-4")  # at blue's settlement only
    g.play(BuildRoad(between(N28, N33)))  # continues red's road end
    g.play(BuildRoad(between(RED_A, meet((1, 1), (1, 2), (2, 2)))))  # leaves red's own settlement
    legal = {a.path for a in g.legal_actions() if isinstance(a, BuildRoad)}
    assert between(N33, GENERIC_38) in legal and between(BLUE_B, N43) not in legal


def test_B_BUILD_5_far_end_may_touch_an_opponent_building_but_not_pass_it():
    """B-BUILD-5 / B-BUILD-4: blue builds B -> 44 -> orange C (allowed) but cannot continue through C to 45."""
    g = to_main(seat=BLUE)
    deal(g, BLUE, lumber=2, brick=2)
    g.play(BuildRoad(between(BLUE_B, N44)))
    g.play(BuildRoad(between(N44, ORANGE_C)))  # far end at orange's settlement
    assert g.road_owner(between(N44, ORANGE_C)) == BLUE
    err = illegal(g, BuildRoad(between(ORANGE_C, N45)), "B-BUILD-4")
    assert str(ORANGE_C) in str(err)
    assert BuildRoad(between(ORANGE_C, N45)) not in g.legal_actions()
    illegal(g, BuildRoad(between(ORANGE_C, N35)), "B-BUILD-3")  # orange's own road there anyway


def test_B_BUILD_6_settlement_needs_own_road():
    """B-BUILD-6: a settlement goes on an intersection touched by one of the builder's roads (not an opponent's)."""
    g = to_main()
    deal(g, RED, lumber=1, brick=1)
    g.play(BuildRoad(between(N28, N33)))
    pass_to(g, BLUE)
    roll(g, *QUIET)
    deal(g, BLUE, lumber=1, brick=1, wool=1, grain=1)
    illegal(g, BuildSettlement(N33), "B-BUILD-6")  # only red's road reaches 33
    illegal(g, BuildSettlement(node(BOARD, 1, 1, "N")), "B-BUILD-6")  # nothing there
    pass_to(g, RED)
    roll(g, *QUIET)
    deal(g, RED, lumber=1, brick=1, grain=1)
    g.play(BuildSettlement(N33))
    assert g.building_at(N33) == (RED, Building.SETTLEMENT)


def test_B_BUILD_7_distance_rule_names_the_neighbour():
    """B-BUILD-7: no settlement next to any settlement or city, own or opponent's; the error names the neighbour."""
    g = to_main()
    deal(g, RED, lumber=3, brick=3, wool=1, grain=3)
    err = illegal(g, BuildSettlement(N18), "B-BUILD-7")  # next to red's own settlement
    assert f"seat {RED}'s settlement at {RED_A}" in str(err)
    g.play(BuildRoad(between(N28, N34)))
    err = illegal(g, BuildSettlement(N34), "B-BUILD-7")  # next to blue B
    assert f"seat {BLUE}'s settlement at {BLUE_B}" in str(err)
    err = illegal(g, BuildSettlement(N28), "B-BUILD-7")  # next to red's 22
    assert str(RED_2) in str(err)
    illegal(g, BuildSettlement(RED_2), "B-BUILD-7")  # occupied
    # Neighbouring city: the message says city.
    pass_to(g, BLUE)
    roll(g, *QUIET)
    deal(g, BLUE, ore=2, grain=2)
    g.play(BuildCity(BLUE_B))
    pass_to(g, RED)
    roll(g, *QUIET)
    err = illegal(g, BuildSettlement(N34), "B-BUILD-7")
    assert f"seat {BLUE}'s city at {BLUE_B}" in str(err)


def test_B_BUILD_8_settlement_is_one_vp():
    """B-BUILD-8: each settlement is worth 1 VP."""
    g = to_main()
    assert g.vp(RED) == 2
    deal(g, RED, lumber=2, brick=1, grain=1)
    g.play(BuildRoad(between(N28, N33)))
    g.play(BuildSettlement(N33))
    assert g.vp(RED) == 3 and g.vp(RED, visible=True) == 3


def test_B_BUILD_9_city_upgrades_own_settlement_and_returns_it():
    """B-BUILD-9: a city only replaces one's own settlement; the settlement piece goes back to the supply."""
    g = to_main()
    deal(g, RED, ore=9, grain=6)
    assert g.pieces_left(RED) == {"road": 13, "settlement": 3, "city": 4}
    illegal(g, BuildCity(BLUE_B), "B-BUILD-9")  # an opponent's settlement
    illegal(g, BuildCity(N33), "B-BUILD-9")  # empty
    g.play(BuildCity(RED_2))
    assert g.building_at(RED_2) == (RED, Building.CITY)
    assert g.pieces_left(RED) == {"road": 13, "settlement": 4, "city": 3}
    illegal(g, BuildCity(RED_2), "B-BUILD-9")  # already a city


def test_B_BUILD_10_city_is_two_vp():
    """B-BUILD-10: each city is worth 2 VP (the settlement it replaces no longer counts)."""
    g = to_main()
    deal(g, RED, ore=6, grain=4)
    g.play(BuildCity(RED_2))
    assert g.vp(RED) == 3
    g.play(BuildCity(RED_A))
    assert g.vp(RED) == 4 and g.n_cities[RED] == 2 and g.n_settlements[RED] == 0


def test_B_BUILD_11_buying_takes_a_card_from_the_deck_kept_secret():
    """B-BUILD-11: a purchase takes one card off the deck into the buyer's hidden hand; others see only counts."""
    g = to_main()
    deal(g, RED, ore=1, grain=1)
    deck = sum(g.deck)
    g.play(BuyDevelopmentCard())
    card = g.log[-1].card
    assert isinstance(card, DevCard)
    assert sum(g.deck) == deck - 1 and g.dev_cards(RED)[card] == 1
    other = g.view(BLUE)
    assert other.dev_counts[RED] == 1 and other.dev_cards == {c: 0 for c in DevCard}
    assert g.view(RED).dev_cards[card] == 1
    # A named outcome (replays, physical decks) takes that card off the deck.
    g = to_main()
    deal(g, RED, ore=1, grain=1)
    mono = g.deck[DevCard.MONOPOLY.value]
    g.play(BuyDevelopmentCard(card=DevCard.MONOPOLY))
    assert g.deck[DevCard.MONOPOLY.value] == mono - 1
    # Draws follow the deck's make-up: over many seeds knights are the most common.
    drawn = Counter()
    for seed in range(200):
        g = to_main(seed)
        deal(g, RED, ore=1, grain=1)
        g.play(BuyDevelopmentCard())
        drawn[g.log[-1].card] += 1
    assert drawn.most_common(1)[0][0] is DevCard.KNIGHT and len(drawn) >= 4


def test_B_BUILD_12_no_building_outside_the_build_phase():
    """B-BUILD-12: no building while discarding, moving the robber, answering or confirming a trade, or in Road
    Building (except its free roads)."""
    g = to_main()
    pass_to(g, RED)
    deal(g, RED, lumber=5, brick=5, wool=5, grain=5, ore=5)  # 32 cards -> discards
    roll(g, 3, 4)
    assert g.phase is Phase.DISCARD and g.current_player == RED
    illegal(g, BuildRoad(between(N28, N33)), "B-BUILD-12")
    illegal(g, BuildCity(RED_2), "B-BUILD-12")
    discard_owed(g)
    assert g.phase is Phase.MOVE_ROBBER
    illegal(g, BuildSettlement(N18), "B-BUILD-12")
    illegal(g, BuyDevelopmentCard(), "B-BUILD-12")
    g.play(MoveRobber(MOUNTAINS_3, None))
    g.play(OfferTrade(C(wool=1), C(ore=1)))
    illegal(g, BuildRoad(between(N28, N33)), "B-BUILD-12")  # blue, answering
    g.play(AcceptTrade())
    g.play(DeclineTrade())
    g.play(DeclineTrade())
    assert g.phase is Phase.TRADE_CONFIRM
    illegal(g, BuildRoad(between(N28, N33)), "B-BUILD-12")
    illegal(g, BuyDevelopmentCard(), "B-BUILD-12")
    g.play(CancelTrade())
    # Road Building: free roads only.
    give_dev(g, RED, DevCard.ROAD_BUILDING)
    g.play(PlayRoadBuilding())
    illegal(g, BuildSettlement(N33), "B-BUILD-12")
    illegal(g, BuildCity(RED_2), "B-BUILD-12")
    before = hands(g)
    g.play(BuildRoad(between(N28, N33)))
    assert hands(g) == before  # free


# ======================================================================== 7. Robber
def test_B_ROB_1_seven_produces_nothing():
    """B-ROB-1: on a 7 nobody receives resources."""
    g = new_game()
    before = hands(g)
    roll(g, 3, 4)
    assert hands(g) == before and g.last_production == {}
    assert g.phase is Phase.MOVE_ROBBER  # nobody over 7: straight to the robber


def test_B_ROB_2_discard_half_rounded_down_above_seven():
    """B-ROB-2: 8 cards -> 4, 9 -> 4, 7 -> 0, 11 -> 5; the player chooses which cards; wrong discards are rejected."""
    g = new_game()
    deal(g, RED, lumber=5)  # 3 + 5 = 8
    deal(g, BLUE, wool=6)  # 3 + 6 = 9
    deal(g, WHITE, grain=4)  # 3 + 4 = 7
    deal(g, ORANGE, brick=8)  # 3 + 8 = 11
    bank = tuple(g.bank)
    roll(g, 3, 4)
    assert g.discards_owed() == {RED: 4, BLUE: 4, ORANGE: 5}
    assert g.phase is Phase.DISCARD and g.current_player == RED
    illegal(g, Discard(C(lumber=5)), "B-ROB-2")  # more than owed
    illegal(g, Discard(ZERO), "B-ROB-2")  # nothing
    illegal(g, Discard(C(ore=1, lumber=1)), "B-ROB-2")  # red has no ore
    illegal(g, Discard((1, 1, 1, 1)), "B-ROB-2")  # malformed
    illegal(g, Discard(C(lumber=-1, wool=2)), "B-ROB-2")
    g.play(Discard(C(lumber=3)))  # in parts
    assert g.current_player == RED and g.discards_owed()[RED] == 1
    g.play(Discard(C(wool=1)))
    assert g.hand(RED) == {LUMBER: 2, BRICK: 1, WOOL: 1, GRAIN: 0, ORE: 0}
    g.play(Discard(C(wool=4)))
    g.play(Discard(C(brick=5)))
    assert delta(bank, tuple(g.bank)) == C(lumber=3, wool=5, brick=5)
    assert sum(g.hands[WHITE]) == 7 and g.discards_owed() == {}


def test_B_ROB_3_only_resource_cards_count_for_the_limit():
    """B-ROB-3: 7 resource cards plus development cards -> no discard; the cards owed are half the resource cards."""
    g = new_game()
    deal(g, ORANGE, lumber=4)  # 7 resources
    give_dev(g, ORANGE, DevCard.KNIGHT, 3)
    give_dev(g, ORANGE, DevCard.VICTORY_POINT, 2)
    deal(g, BLUE, lumber=6)  # 9 resources
    give_dev(g, BLUE, DevCard.KNIGHT, 4)  # 13 cards in all
    roll(g, 3, 4)
    assert g.discards_owed() == {BLUE: 4}


def test_B_ROB_4_discards_seat_by_seat_before_the_robber():
    """B-ROB-4: discards come first, seat by seat from the active player in turn order; then the robber moves."""
    g = new_game(seat=WHITE)
    for seat in (RED, BLUE, ORANGE):
        deal(g, seat, ore=5)  # 8 cards each
    roll(g, 4, 3)
    assert g.phase is Phase.DISCARD
    illegal(g, MoveRobber(MOUNTAINS_3, None), "B-ROB-4")
    illegal(g, EndTurn(), "B-TURN-9")
    order = []
    while g.phase is Phase.DISCARD:
        p = g.current_player
        order.append(p)
        assert g.discards_owed() == {q: 4 for q in (RED, BLUE, ORANGE) if q == p or q not in order}
        g.play(Discard(C(ore=4)))
    assert order == [ORANGE, RED, BLUE]
    assert g.phase is Phase.MOVE_ROBBER and g.current_player == WHITE == g.active_player
    illegal(g, Discard(C(ore=1)), "B-ROB-4")


def test_B_ROB_5_robber_moves_to_a_different_land_hex_desert_allowed():
    """B-ROB-5: the robber must leave its hex; any other land hex, the desert included; nothing off the island.
    Decision A-05."""
    g = new_game()
    roll(g, 3, 4)
    illegal(g, MoveRobber(DESERT, None), "B-ROB-5")  # it is there already
    illegal(g, MoveRobber(len(BOARD.hexes), None), "B-ROB-5")  # no such (sea) hex
    illegal(g, MoveRobber(-1, None), "B-ROB-5")
    assert {a.hex for a in g.legal_actions()} == set(range(19)) - {DESERT}
    g.play(MoveRobber(FOREST_3, None))
    assert g.robber == FOREST_3
    pass_to(g, BLUE)
    roll(g, 6, 1)
    illegal(g, MoveRobber(FOREST_3, None), "B-ROB-5")
    g.play(MoveRobber(DESERT, None))  # back to the desert
    assert g.robber == DESERT


def test_B_ROB_6_steal_is_optional_and_victim_must_be_on_the_hex():
    """B-ROB-6: the mover may steal from an opponent with a building on the new hex, choosing among them, or not steal."""
    g = new_game()
    roll(g, 3, 4)
    assert g.robber_victims(MOUNTAINS_3) == [BLUE, ORANGE]
    illegal(g, MoveRobber(MOUNTAINS_3, WHITE), "B-ROB-6")  # white has nothing on (4,2)
    illegal(g, MoveRobber(MOUNTAINS_3, None, stolen=ORE), "B-ROB-6")
    c = g.copy()
    before = hands(c)
    c.play(MoveRobber(MOUNTAINS_3, None))  # decline to steal
    assert hands(c) == before and c.phase is Phase.MAIN
    before = hands(g)
    g.play(MoveRobber(MOUNTAINS_3, ORANGE, stolen=GRAIN))  # mover picks orange over blue
    assert delta(before, hands(g)) == [C(grain=1), ZERO, ZERO, C(grain=-1)]
    assert g.log[-1] == MoveRobber(MOUNTAINS_3, ORANGE, GRAIN)


def test_B_ROB_6_steal_mandatory_option():
    """B-ROB-6 (A-04): with Rules(steal_mandatory=True) a victim must be chosen when one exists."""
    g = new_game(rules=Rules(steal_mandatory=True))
    roll(g, 3, 4)
    illegal(g, MoveRobber(MOUNTAINS_3, None), "B-ROB-6")
    assert MoveRobber(MOUNTAINS_3, None) not in g.legal_actions()
    c = g.copy()
    c.play(MoveRobber(PASTURE_2, None))  # only red's own settlement there: nobody to rob
    g.play(MoveRobber(MOUNTAINS_3, BLUE))
    assert sum(g.hands[BLUE]) == 2 and sum(g.hands[RED]) == 4


def test_B_ROB_7_stolen_card_is_drawn_uniformly():
    """B-ROB-7: the stolen card is uniform over the victim's cards (not over kinds); a named card must be held.
    Decision A-06."""
    g = new_game()
    roll(g, 3, 4)
    illegal(g, MoveRobber(MOUNTAINS_3, ORANGE, stolen=WOOL), "B-ROB-7")  # orange holds no wool
    stolen = Counter()
    n = 600
    for seed in range(n):
        g = new_game(seed)
        empty_hands(g)
        deal(g, ORANGE, lumber=1, brick=2, ore=3)
        roll(g, 3, 4)
        g.play(MoveRobber(MOUNTAINS_3, ORANGE))
        card = g.log[-1].stolen
        assert g.hand(RED)[card] == 1 and sum(g.hands[ORANGE]) == 5
        stolen[card] += 1
    assert set(stolen) <= {LUMBER, BRICK, ORE}
    for card, share in ((LUMBER, 1 / 6), (BRICK, 2 / 6), (ORE, 3 / 6)):
        sd = (n * share * (1 - share)) ** 0.5
        assert abs(stolen[card] - n * share) < 4 * sd, (card, stolen)


def test_B_ROB_8_no_steal_from_an_empty_hand_or_oneself():
    """B-ROB-8: a victim with no resource cards cannot be robbed; a player never robs themselves."""
    g = new_game()
    empty_hands(g)
    deal(g, ORANGE, grain=1)
    give_dev(g, BLUE, DevCard.KNIGHT)  # development cards are not stealable
    roll(g, 3, 4)
    assert g.robber_victims(MOUNTAINS_3) == [ORANGE]
    illegal(g, MoveRobber(MOUNTAINS_3, BLUE), "B-ROB-8")
    illegal(g, MoveRobber(PASTURE_2, RED), "B-ROB-8")  # red's own settlement on (1,2)
    g.play(MoveRobber(MOUNTAINS_3, ORANGE))
    assert g.hand(RED)[GRAIN] == 1
    # Under steal_mandatory, a hex whose only owner has an empty hand may be chosen without a victim.
    g = new_game(rules=Rules(steal_mandatory=True))
    empty_hands(g)
    roll(g, 3, 4)
    g.play(MoveRobber(MOUNTAINS_3, None))


def test_B_ROB_9_after_the_seven_the_trade_phase_follows():
    """B-ROB-9: once discards and the robber are done, the active player is in phase MAIN and may trade."""
    g = new_game()
    deal(g, RED, ore=6)  # 9 cards
    roll(g, 3, 4)
    g.play(Discard(C(ore=2, wool=2)))
    g.play(MoveRobber(FOREST_3, WHITE))
    assert g.phase is Phase.MAIN and g.current_player == RED == g.active_player
    g.play(MaritimeTrade(ORE, BRICK))
    g.play(OfferTrade(C(brick=1), C(lumber=1)))
    assert g.phase is Phase.TRADE_RESPONSE


def test_B_ROB_10_robber_hex_produces_nothing():
    """B-ROB-10: with the robber on (4,2) mountains 3, a 3 pays only white's lumber; after it leaves, ore flows again."""
    g = new_game()
    roll(g, 3, 4)
    g.play(MoveRobber(MOUNTAINS_3, None))
    pass_to(g, BLUE)
    before = hands(g)
    roll(g, 1, 2)
    assert delta(before, hands(g)) == [ZERO, ZERO, C(lumber=1), ZERO]
    g.play(EndTurn())
    roll(g, 4, 3)  # white's 7
    g.play(MoveRobber(FOREST_3, None))
    pass_to(g, ORANGE)
    before = hands(g)
    roll(g, 2, 1)
    assert delta(before, hands(g)) == [ZERO, C(ore=1), ZERO, C(ore=1)]


def test_B_ROB_11_robber_moves_only_on_seven_or_knight():
    """B-ROB-11: non-7 rolls never move the robber; MoveRobber is refused outside a 7 or a knight; a knight moves it
    without discards."""
    g = new_game()
    illegal(g, MoveRobber(MOUNTAINS_3, None), "B-ROB-11")  # before the roll
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        c = g.copy()
        c.play(RollDice(dice=(1, total - 1) if total <= 7 else (6, total - 6)))
        assert c.phase is Phase.MAIN and c.robber == DESERT, total
        illegal(c, MoveRobber(MOUNTAINS_3, None), "B-ROB-11")
    roll(g, *QUIET)
    give_dev(g, RED, DevCard.KNIGHT)
    deal(g, BLUE, lumber=10)  # would owe a discard on a 7
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER and g.discards_owed() == {}
    g.play(MoveRobber(MOUNTAINS_3, BLUE, stolen=LUMBER))
    assert g.robber == MOUNTAINS_3 and g.phase is Phase.MAIN

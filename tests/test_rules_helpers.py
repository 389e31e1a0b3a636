"""Helpers of Catan (RULES.md section 14, H-*), A-25..A-28, and X56-SBP-8.

Most positions are on the beginner board with the beginner start (seat 0 red,
1 blue, 2 white, 3 orange; red to roll).  Beginner pieces::

    red    settlements 13, 22   roads 13-18 (path 20), 22-28 (path 34)
    blue   settlements 14, 39
    white  settlements 12, 25
    orange settlements 40, 41

The desert is hex 9 and holds the robber.  With the beginner start the helpers
are dealt in reverse seat order (H-SETUP-4): orange A1 Merchant, white A2
Mendicant, blue A3 Mayor, red A4 Explorer; the display holds the other six.
A test gives a seat a particular helper by swapping cards between the seat and
the display (or another seat), so the ten cards stay conserved.

Chance is forced: dice with ``RollDice(dice=...)``, the Architect's cards with
``UseArchitect(seen=...)``.
"""

from __future__ import annotations

import pytest
from helpers import deal
from invariants import Checker

from catan_nb import Board, DevCard, Game, IllegalActionError, Resource
from catan_nb.analysis import RandomBot
from catan_nb.constants import HelperCard
from catan_nb.rules import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Discard,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    RollDice,
    Rules,
    counts,
)
from catan_nb.rules.modules import helpers as HM
from catan_nb.rules.modules.five_six import EndSpecialBuild
from catan_nb.rules.modules.helpers import (
    BuildRoadWithMendicant,
    DeclineHelper,
    ExchangeHelper,
    FlipHelper,
    KeepCard,
    UseArchitect,
    UseCaptain,
    UseExplorer,
    UseGeneral,
    UseMayor,
    UseMerchantHelper,
    UseNoblewoman,
    UsePriest,
    UseRobberBride,
)

BOARD = Board.beginner()
T = BOARD.topology
HR = Rules(modules=("helpers",))
RED, BLUE, WHITE, ORANGE = 0, 1, 2, 3
LUMBER, BRICK, WOOL, GRAIN, ORE = Resource
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = DevCard
(MERCHANT, MENDICANT, MAYOR, EXPLORER, GENERAL, ARCHITECT,
 ROBBER_BRIDE, CAPTAIN, PRIEST, NOBLEWOMAN) = HelperCard
DESERT = T.desert_hexes[0]  # hex 9
QUIET = (1, 1)  # a 2: only red collects (1 wool); never a 7
SEVEN = (3, 4)
TEN = (4, 6)  # a 10: blue and white collect, red and orange get nothing
NINE = (4, 5)  # a 9: red grain, blue lumber
HELPER_ACTIONS = (FlipHelper, ExchangeHelper, DeclineHelper, UseMerchantHelper, BuildRoadWithMendicant, UseMayor,
                  UseGeneral, UseRobberBride, UseCaptain, UsePriest, UseNoblewoman, UseExplorer, UseArchitect,
                  KeepCard)
RED_ROAD_13_18, RED_ROAD_22_28 = BOARD.path_between(13, 18), BOARD.path_between(22, 28)


# ============================================================================ helpers


def illegal(game, action, rule):
    before = game.state()
    with pytest.raises(IllegalActionError) as info:
        game.play(action)
    assert info.value.rule == rule, str(info.value)
    assert game.state() == before


def hs(game) -> dict:
    return game.ext["helpers"]


def all_cards(game) -> list[int]:
    st = hs(game)
    return sorted([c for c in st["held"] if c is not None] + st["display"] + st["stack"])


def assert_conserved(game) -> None:
    """H-COMP-1: the ten helpers, each exactly once, in the stack, the display or a seat's hand."""
    assert all_cards(game) == list(range(1, 11))


def give_helper(game, seat: int, card: HelperCard) -> None:
    """Swap ``card`` into ``seat``'s hand, A side up, from the display or another seat (cards conserved)."""
    st = hs(game)
    c = card.value
    if st["held"][seat] == c:
        return
    if c in st["display"]:
        st["display"][st["display"].index(c)] = st["held"][seat]
    else:
        q = st["held"].index(c)
        st["held"][q] = st["held"][seat]
        st["side"][q] = "A"
    st["held"][seat] = c
    st["side"][seat] = "A"
    assert_conserved(game)


def beginner(seed=1, holders=None) -> Game:
    game = Game(BOARD, players=4, seed=seed, start="beginner", rules=HR)
    for seat, card in (holders or {}).items():
        give_helper(game, seat, card)
    return game


def roll(game, dice=QUIET) -> None:
    """Roll and let every helper reaction pass."""
    game.play(RollDice(dice))
    while game.phase is Phase.HELPER_REACTION:
        game.play(DeclineHelper())


def end_turn(game, dice=QUIET) -> None:
    """Finish the active player's turn (rolling first if needed)."""
    if game.phase is Phase.ROLL:
        roll(game, dice)
    game.play(EndTurn())


def helper_actions(game) -> list:
    return [a for a in game.legal_actions() if isinstance(a, HELPER_ACTIONS)]


def give_dev(game, seat: int, card: DevCard, k: int = 1) -> None:
    """Move ``k`` development cards from the deck to a seat's hand (not new: playable)."""
    assert game.deck[card.value] >= k
    game.deck[card.value] -= k
    game.dev[seat][card.value] += k


def give_played_knights(game, seat: int, k: int) -> None:
    """Move ``k`` knights from the deck to a seat's played army (deck totals conserved)."""
    assert game.deck[KNIGHT.value] >= k
    game.deck[KNIGHT.value] -= k
    game.knights[seat] += k


def play_founding(game) -> list[tuple[int, int]]:
    """Play the founding phase with the first legal action; return (seat, helper received) in order."""
    got = []
    while game.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        seat = game.current_player
        before = list(hs(game)["held"])
        action = game.legal_actions()[0]
        game.play(action)
        assert_conserved(game)
        after = hs(game)["held"]
        changed = [p for p in range(game.n) if before[p] != after[p]]
        if isinstance(action, BuildSettlement):
            assert changed in ([], [seat])
        else:
            assert changed == []
        if changed:
            got.append((seat, after[seat]))
    return got


# ============================================================================ components and setup


def test_H_COMP_1_ten_two_sided_cards_six_numbered():
    """H-COMP-1: ten helper cards; six carry A1-A6 on side A, four carry no number."""
    assert len(HelperCard) == 10
    assert sorted(c.number for c in HelperCard if c.number is not None) == [1, 2, 3, 4, 5, 6]
    assert sum(c.number is None for c in HelperCard) == 4
    assert {c.number for c in (ROBBER_BRIDE, CAPTAIN, PRIEST, NOBLEWOMAN)} == {None}
    assert (MERCHANT.number, MENDICANT.number, MAYOR.number, GENERAL.number) == (1, 2, 3, 5)
    assert all(isinstance(c.title, str) and c.title for c in HelperCard)
    for game in (Game(Board.random(seed=2), players=4, seed=2, rules=HR), beginner()):
        assert_conserved(game)
        st = hs(game)
        assert all(s in (None, "A") for s in st["side"])


def test_H_COMP_1_cards_conserved_through_random_play():
    """H-COMP-1, H-USE-2, H-USE-5: random play keeps the ten cards (held + display + stack), sides A/B,
    and flips or exchanges exist only right after a use."""
    for seed, kw in ((5, dict(start="beginner")), (6, {})):
        game = Game(Board.beginner() if kw else Board.random(seed=seed), players=4, seed=seed, rules=HR, **kw)
        bots = [RandomBot(seed * 10 + p) for p in range(4)]
        uses = 0
        for _ in range(1500):
            if game.is_over:
                break
            acts = game.legal_actions()
            if any(isinstance(a, (FlipHelper, ExchangeHelper)) for a in acts):
                assert game.phase is Phase.HELPER_AFTER_USE
            if game.phase is Phase.HELPER_AFTER_USE:
                uses += 1
            game.play(bots[game.current_player].choose(game))
            assert_conserved(game)
            st = hs(game)
            if game.phase not in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
                assert st["stack"] == [] and len(st["display"]) == 6
                assert all(s in ("A", "B") for s in st["side"])
        assert uses > 0
        assert Game.from_json(game.to_json()).state() == game.state()  # helper actions replay


def test_H_SETUP_1_stack_A1_to_A6_then_the_unnumbered():
    """H-SETUP-1: A1 on top, A2-A6 below in ascending order, the four unnumbered at the bottom."""
    orders = set()
    for seed in range(6):
        game = Game(Board.random(seed=seed), players=4, seed=seed, rules=HR)
        st = hs(game)
        assert st["stack"][:6] == [1, 2, 3, 4, 5, 6]
        assert sorted(st["stack"][6:]) == [7, 8, 9, 10]
        assert st["held"] == [None] * 4 and st["display"] == []
        orders.add(tuple(st["stack"][6:]))
    assert len(orders) > 1  # "in any order": the game's seed shuffles the unnumbered ones


def test_H_SETUP_2_second_founding_settlement_takes_top_card_last_seat_A1():
    """H-SETUP-2, A-25: each second founding settlement takes the top card, A side up;
    in snake order the last seat places first and receives A1."""
    game = Game(Board.random(seed=3), players=4, seed=3, rules=HR)
    stack = list(hs(game)["stack"])
    got = play_founding(game)
    assert got == [(3, 1), (2, 2), (1, 3), (0, 4)]
    assert hs(game)["held"] == [EXPLORER.value, MAYOR.value, MENDICANT.value, MERCHANT.value]
    assert hs(game)["side"] == ["A"] * 4
    assert hs(game)["display"] == stack[4:]


def test_H_SETUP_2_first_round_gives_nothing_and_other_counts():
    """H-SETUP-2, A-25: nothing is received for a first settlement; the last seat of the snake gets A1
    with 3 players, 6 players, and another starting seat."""
    game = Game(Board.random(seed=4), players=4, seed=4, rules=HR)
    for _ in range(8):  # the four first settlements and roads
        game.play(game.legal_actions()[0])
    assert hs(game)["held"] == [None] * 4
    game = Game(Board.random(seed=4), players=3, seed=4, rules=HR)
    assert play_founding(game) == [(2, 1), (1, 2), (0, 3)]
    game = Game(Board.random(seed=4), players=4, seed=4, rules=HR, starting_seat=2)
    assert play_founding(game) == [(1, 1), (0, 2), (3, 3), (2, 4)]
    game = Game(Board.five_six(), players=6, seed=4, rules=HR)
    assert play_founding(game) == [(5, 1), (4, 2), (3, 3), (2, 4), (1, 5), (0, 6)]
    assert sorted(hs(game)["display"]) == [7, 8, 9, 10]


def test_H_SETUP_3_display_after_founding():
    """H-SETUP-3: after the founding phase the cards left in the stack form the display (A side up)."""
    game = Game(Board.random(seed=7), players=4, seed=7, rules=HR)
    stack = list(hs(game)["stack"])
    play_founding(game)
    st = hs(game)
    assert st["stack"] == []
    assert st["display"] == stack[4:]
    assert st["display"][:2] == [GENERAL.value, ARCHITECT.value]
    assert game.phase is Phase.ROLL and game.current_player == 0
    # After founding the display offers every non-held card for an exchange.
    give_helper(game, 0, CAPTAIN)
    game.play(UseCaptain(WOOL))
    assert {a.take.value for a in game.legal_actions() if isinstance(a, ExchangeHelper)} == set(st["display"])


def test_H_SETUP_4_beginner_reverse_seat_order():
    """H-SETUP-4: with the beginner setup the helpers are dealt from the top in reverse seat order."""
    game = beginner()
    st = hs(game)
    assert st["held"] == [EXPLORER.value, MAYOR.value, MENDICANT.value, MERCHANT.value]
    assert st["side"] == ["A"] * 4
    assert st["stack"] == []
    assert st["display"][:2] == [GENERAL.value, ARCHITECT.value]
    assert sorted(st["display"][2:]) == [7, 8, 9, 10]
    assert_conserved(game)
    game3 = Game(BOARD, players=3, seed=1, start="beginner", rules=HR)
    assert hs(game3)["held"] == [MAYOR.value, MENDICANT.value, MERCHANT.value]
    assert len(hs(game3)["display"]) == 7
    assert_conserved(game3)


# ============================================================================ use


def test_H_USE_1_only_the_held_helper_gives_its_advantage():
    """H-USE-1: a seat uses the helper it holds, and only that one."""
    game = beginner(holders={RED: CAPTAIN})
    roll(game)
    kinds = {type(a) for a in helper_actions(game)}
    assert kinds == {UseCaptain}
    illegal(game, UseRobberBride(), "H-USE-1")
    illegal(game, UseMerchantHelper(ORE, (BLUE,), (WOOL,)), "H-USE-1")
    illegal(game, UseExplorer(RED_ROAD_13_18, BOARD.path_between(18, 24)), "H-USE-1")
    game.play(UseCaptain(WOOL))  # the advantage printed on the Captain
    assert game.maritime_rate(RED, WOOL) == 2


def test_H_USE_2_after_an_A_side_use_flip_or_exchange():
    """H-USE-2: after an A-side use the holder flips it to B, or returns it and takes any other helper."""
    game = beginner(holders={RED: CAPTAIN})
    roll(game)
    game.play(UseCaptain(WOOL))
    assert game.phase is Phase.HELPER_AFTER_USE and game.current_player == RED
    display = sorted(hs(game)["display"])
    legal = game.legal_actions()
    assert legal == [FlipHelper()] + [ExchangeHelper(HelperCard(c)) for c in display]
    illegal(game, EndTurn(), "B-TURN-9")
    illegal(game, ExchangeHelper(MERCHANT), "H-USE-2")  # held by orange, not in the display
    flipped = game.copy()
    flipped.play(FlipHelper())
    assert hs(flipped)["side"][RED] == "B" and hs(flipped)["held"][RED] == CAPTAIN.value
    assert flipped.phase is Phase.MAIN and flipped.current == RED
    assert_conserved(flipped)
    game.play(ExchangeHelper(NOBLEWOMAN))
    st = hs(game)
    assert st["held"][RED] == NOBLEWOMAN.value and st["side"][RED] == "A"
    assert CAPTAIN.value in st["display"] and NOBLEWOMAN.value not in st["display"]
    assert game.phase is Phase.MAIN
    assert_conserved(game)
    illegal(game, FlipHelper(), "H-USE-2")  # no use to flip after


def test_H_USE_3_after_a_B_side_use_exchange_for_a_different_helper():
    """H-USE-3: a B-side helper, once used, goes back to the display A side up for a different helper."""
    game = beginner(holders={RED: CAPTAIN})
    roll(game)
    game.play(UseCaptain(WOOL))
    game.play(FlipHelper())
    for _ in range(4):
        end_turn(game)
    assert game.active_player == RED and hs(game)["side"][RED] == "B"
    roll(game)
    game.play(UseCaptain(ORE))  # the B side: used once more
    assert game.maritime_rate(RED, ORE) == 2
    assert game.phase is Phase.HELPER_AFTER_USE
    legal = game.legal_actions()
    assert FlipHelper() not in legal
    assert legal == [ExchangeHelper(HelperCard(c)) for c in sorted(hs(game)["display"])]
    illegal(game, FlipHelper(), "H-USE-3")
    illegal(game, ExchangeHelper(CAPTAIN), "H-USE-6")
    game.play(ExchangeHelper(GENERAL))
    st = hs(game)
    assert st["held"][RED] == GENERAL.value and st["side"][RED] == "A"
    assert CAPTAIN.value in st["display"]
    assert_conserved(game)


def test_H_USE_4_not_in_the_turn_received():
    """H-USE-4: a helper taken in an exchange cannot be used in that turn; it can from the next own turn."""
    game = beginner(holders={RED: CAPTAIN})
    roll(game)
    game.play(UseCaptain(WOOL))
    game.play(ExchangeHelper(ROBBER_BRIDE))
    assert hs(game)["fresh"][RED] is True
    # Move the robber off the desert so that the Robber Bride would have something to do.
    game.robber = 5
    assert helper_actions(game) == []
    illegal(game, UseRobberBride(), "H-USE-4")
    for _ in range(4):
        end_turn(game)
    assert game.active_player == RED
    assert hs(game)["fresh"][RED] is False
    assert UseRobberBride(DESERT) in game.legal_actions()
    game.play(UseRobberBride())
    assert game.robber == DESERT


def test_H_USE_4_a_fresh_mayor_does_not_react():
    """H-USE-4: the Mayor taken before the roll does not react to that roll; an older one does."""
    game = beginner(holders={RED: CAPTAIN, BLUE: NOBLEWOMAN})
    assert MAYOR.value in hs(game)["display"]
    game.play(UseCaptain(WOOL))  # before the roll, in red's own turn
    game.play(ExchangeHelper(MAYOR))
    assert game.phase is Phase.ROLL and hs(game)["fresh"][RED]
    game.play(RollDice(TEN))  # red collects nothing on a 10
    assert RED not in game.last_production
    assert game.phase is Phase.MAIN and game.current_player == RED  # no reaction: received this turn
    # Control: a Mayor held from before reacts to the same roll.
    game = beginner(holders={RED: MAYOR})
    game.play(RollDice(TEN))
    assert game.phase is Phase.HELPER_REACTION and game.current_player == RED


def test_H_USE_5_cannot_hand_back_unused():
    """H-USE-5: no exchange exists outside the step right after a use, on either side."""
    game = beginner(holders={RED: CAPTAIN})
    assert not any(isinstance(a, ExchangeHelper) for a in game.legal_actions())
    illegal(game, ExchangeHelper(GENERAL), "H-USE-5")
    roll(game)
    assert game.phase is Phase.MAIN
    assert not any(isinstance(a, (ExchangeHelper, FlipHelper)) for a in game.legal_actions())
    illegal(game, ExchangeHelper(GENERAL), "H-USE-5")
    game.play(UseCaptain(WOOL))
    game.play(FlipHelper())
    illegal(game, ExchangeHelper(GENERAL), "H-USE-5")  # B side, already used this turn
    for _ in range(4):
        end_turn(game)
    assert hs(game)["side"][RED] == "B"
    illegal(game, ExchangeHelper(GENERAL), "H-USE-5")  # B side, unused this turn
    # Another player's reaction phase offers no exchange either.
    game2 = beginner()
    game2.play(RollDice(QUIET))
    assert game2.phase is Phase.HELPER_REACTION
    assert not any(isinstance(a, ExchangeHelper) for a in game2.legal_actions())
    illegal(game2, ExchangeHelper(GENERAL), "H-USE-5")


def test_H_USE_6_the_returned_helper_cannot_be_taken_back():
    """H-USE-6: the helper just returned is not offered and cannot be taken back at once."""
    game = beginner(holders={RED: CAPTAIN})
    roll(game)
    game.play(UseCaptain(WOOL))
    assert ExchangeHelper(CAPTAIN) not in game.legal_actions()
    illegal(game, ExchangeHelper(CAPTAIN), "H-USE-6")


def test_H_USE_7_once_per_turn():
    """H-USE-7: after a use (and flip) the helper cannot be used again in the same turn."""
    game = beginner(holders={RED: CAPTAIN})
    game.play(UseCaptain(WOOL))  # before the roll
    game.play(FlipHelper())
    assert helper_actions(game) == []
    illegal(game, UseCaptain(ORE), "H-USE-7")
    roll(game)
    assert helper_actions(game) == []
    illegal(game, UseCaptain(ORE), "H-USE-7")
    assert game.maritime_rate(RED, ORE) == 4
    end_turn(game)  # blue's turn: a reaction used off-turn also counts once per turn
    for _ in range(3):
        end_turn(game)
    assert game.active_player == RED and hs(game)["used"][RED] is False
    assert UseCaptain(ORE) in game.legal_actions()


def test_H_USE_7_mayor_used_off_turn_then_own_turn_again():
    """H-USE-7: the Mayor used in another player's turn may be used again in the holder's own turn."""
    game = beginner()  # blue holds the Mayor
    game.play(RollDice(QUIET))
    game.play(UseMayor(GRAIN))
    game.play(FlipHelper())
    assert hs(game)["used"][BLUE] is True
    game.play(EndTurn())
    assert game.active_player == BLUE and hs(game)["used"][BLUE] is False
    game.play(RollDice(QUIET))  # blue rolls a 2: nothing for blue
    assert game.phase is Phase.HELPER_REACTION and game.current_player == BLUE
    game.play(UseMayor(ORE))
    assert game.phase is Phase.HELPER_AFTER_USE
    assert FlipHelper() not in game.legal_actions()  # B side: must exchange


def test_H_USE_8_not_in_the_special_building_phase():
    """H-USE-8, X56-SBP-8: helpers cannot be used in the Special Building Phase, to build or to buy."""
    game = Game(Board.five_six(), players=5, seed=2, rules=HR)
    play_founding(game)
    assert hs(game)["held"] == [GENERAL.value, EXPLORER.value, MAYOR.value, MENDICANT.value, MERCHANT.value]
    end_turn(game)
    assert game.phase is Phase.SPECIAL_BUILD and game.current_player == 1
    give_helper(game, 1, MENDICANT)
    deal(game, 1, brick=1, wool=2, grain=1)
    assert helper_actions(game) == []
    road = game.candidates(1, "road")[0]
    illegal(game, BuildRoadWithMendicant(road, LUMBER, WOOL), "H-USE-8")
    give_helper(game, 1, ARCHITECT)
    illegal(game, UseArchitect(ORE, WOOL), "H-USE-8")
    give_helper(game, 1, CAPTAIN)
    illegal(game, UseCaptain(WOOL), "H-USE-8")
    # Building normally is still allowed in the SBP.
    deal(game, 1, lumber=1)
    game.play(BuildRoad(road))
    game.play(EndSpecialBuild())


def test_X56_SBP_8_helpers_not_usable_in_the_sbp():
    """X56-SBP-8: helpers (H-USE-8) are not offered and are refused during the SBP, for every SBP seat."""
    game = Game(Board.five_six(), players=5, seed=9, rules=HR)
    play_founding(game)
    end_turn(game)
    architect_seat = 2
    give_helper(game, architect_seat, ARCHITECT)
    deal(game, architect_seat, wool=1, grain=1, ore=1)
    while game.phase is Phase.SPECIAL_BUILD:
        p = game.current_player
        assert helper_actions(game) == []
        if p == architect_seat:
            assert BuyDevelopmentCard() in game.legal_actions()
            illegal(game, UseArchitect(), "H-USE-8")
        card = HelperCard(hs(game)["held"][p])
        if card is EXPLORER:
            illegal(game, UseExplorer(0, 1), "H-USE-8")
        if card is MERCHANT:
            illegal(game, UseMerchantHelper(ORE, (0,), (WOOL,)), "H-USE-8")
        game.play(EndSpecialBuild())
    assert game.phase is Phase.ROLL and game.active_player == 1


def test_H_USE_9_mayor_reacts_to_another_players_roll_and_decline():
    """H-USE-9, A-26: the Mayor reacts to another player's roll (holder becomes current); declining resumes."""
    game = beginner()  # blue holds the Mayor
    game.play(RollDice(QUIET))
    assert game.phase is Phase.HELPER_REACTION
    assert game.current_player == BLUE and game.active_player == RED
    legal = game.legal_actions()
    assert legal == [UseMayor(r) for r in Resource] + [DeclineHelper()]
    illegal(game, EndTurn(), "B-TURN-9")
    hands = [list(h) for h in game.hands]
    game.play(DeclineHelper())
    assert game.phase is Phase.MAIN and game.current_player == RED
    assert game.hands == hands
    assert hs(game)["used"][BLUE] is False and hs(game)["side"][BLUE] == "A"
    illegal(game, DeclineHelper(), "H-USE-9")


def test_H_USE_9_other_helpers_only_in_own_turn():
    """H-USE-9: all helpers but the Mayor and the General work only in their holder's own turn."""
    game = beginner(holders={BLUE: CAPTAIN})
    game.play(RollDice(QUIET))
    deal(game, RED, ore=1)
    game.play(OfferTrade(counts(ore=1), counts(lumber=1)))
    assert game.phase is Phase.TRADE_RESPONSE and game.current_player == BLUE
    assert helper_actions(game) == []
    illegal(game, UseCaptain(WOOL), "H-USE-9")
    # Orange, the Merchant, may not demand cards while answering an offer either.
    game.play(game.legal_actions()[-1])  # blue declines
    game.play(game.legal_actions()[-1])  # white declines
    assert game.current_player == ORANGE
    illegal(game, UseMerchantHelper(ORE, (BLUE,), (GRAIN,)), "H-USE-9")
    # A discarding seat is not in its own turn.
    game = beginner(holders={BLUE: CAPTAIN})
    deal(game, BLUE, lumber=8)
    game.play(RollDice(SEVEN))
    assert game.phase is Phase.DISCARD and game.current_player == BLUE
    illegal(game, UseCaptain(WOOL), "H-USE-9")
    # The Mayor and the General do not act in the holder's own MAIN phase without a roll to react to.
    game = beginner(holders={RED: MAYOR})
    roll(game, NINE)
    illegal(game, UseMayor(ORE), "H-CARD-3")


# ============================================================================ cards


def test_H_CARD_1_merchant_forced_trade():
    """H-CARD-1: demand a resource from up to 2 players; each giver gets 1 card of the holder's choice."""
    game = beginner(holders={RED: MERCHANT, BLUE: NOBLEWOMAN})  # no Mayor reaction in play
    roll(game)  # red: brick 1, wool 3
    assert game.hands[RED] == [0, 1, 3, 0, 0]
    opts = [a for a in game.legal_actions() if isinstance(a, UseMerchantHelper)]
    assert UseMerchantHelper(ORE, (BLUE,), (WOOL,)) in opts
    assert all(len(a.players) == 1 and a.give_back == (WOOL,) for a in opts)
    illegal(game, UseMerchantHelper(ORE, (BLUE, WHITE, ORANGE), (WOOL, WOOL, WOOL)), "H-CARD-1")
    illegal(game, UseMerchantHelper(ORE, (BLUE, BLUE), (WOOL, WOOL)), "H-CARD-1")
    illegal(game, UseMerchantHelper(ORE, (RED,), (WOOL,)), "H-CARD-1")
    illegal(game, UseMerchantHelper(ORE, (BLUE, WHITE), (WOOL,)), "H-CARD-1")
    illegal(game, UseMerchantHelper(ORE, (BLUE,), (GRAIN,)), "H-CARD-1")  # red holds no grain to give back
    illegal(game, UseMerchantHelper(ORE, (BLUE, WHITE), (BRICK, BRICK)), "H-CARD-1")  # only 1 brick
    game.play(UseMerchantHelper(ORE, (BLUE, WHITE), (WOOL, BRICK)))
    assert game.hands[RED] == [0, 0, 2, 0, 2]
    assert game.hands[BLUE] == [1, 1, 1, 0, 0]
    assert game.hands[WHITE] == [1, 2, 0, 0, 0]
    assert game.phase is Phase.HELPER_AFTER_USE


def test_H_CARD_1_merchant_player_without_gives_nothing():
    """H-CARD-1: a player without the resource gives nothing and gets nothing back."""
    game = beginner(holders={RED: MERCHANT, BLUE: NOBLEWOMAN})
    roll(game)
    bank = list(game.bank)
    game.play(UseMerchantHelper(GRAIN, (BLUE, ORANGE), (WOOL, WOOL)))  # blue has no grain, orange has 2
    assert game.hands[RED] == [0, 1, 2, 1, 0]
    assert game.hands[BLUE] == [1, 1, 0, 0, 1]
    assert game.hands[ORANGE] == [0, 0, 1, 1, 1]
    assert game.bank == bank
    # Nobody holding it: the use still counts.
    game.play(FlipHelper())
    assert hs(game)["used"][RED]


def test_H_CARD_2_mendicant_road_building_assistance():
    """H-CARD-2: a road paid with any one resource in place of its brick or its lumber."""
    game = beginner(holders={RED: MENDICANT, BLUE: NOBLEWOMAN})
    illegal(game, BuildRoadWithMendicant(BOARD.path_between(18, 24), LUMBER, WOOL), "B-TURN-3")
    roll(game)  # red: brick 1, wool 3; no lumber
    path = BOARD.path_between(18, 24)
    assert BuildRoad(path) not in game.legal_actions()
    assert BuildRoadWithMendicant(path, LUMBER, WOOL) in game.legal_actions()
    illegal(game, BuildRoadWithMendicant(path, GRAIN, WOOL), "H-CARD-2")  # not a road cost
    illegal(game, BuildRoadWithMendicant(path, LUMBER, None), "API")  # a resource is required (issue 9)
    illegal(game, BuildRoadWithMendicant(path, BRICK, WOOL), "B-BUILD-1")  # still needs the lumber
    illegal(game, BuildRoadWithMendicant(path, LUMBER, ORE), "B-BUILD-1")
    illegal(game, BuildRoadWithMendicant(BOARD.path_between(39, 43), LUMBER, WOOL), "B-BUILD-4")
    bank = list(game.bank)
    game.play(BuildRoadWithMendicant(path, LUMBER, WOOL))
    assert game.road_owner(path) == RED
    assert game.hands[RED] == [0, 0, 2, 0, 0]
    assert game.bank == [bank[0], bank[1] + 1, bank[2] + 1, bank[3], bank[4]]
    assert game.built_this_turn
    game.play(FlipHelper())
    deal(game, RED, brick=1)
    illegal(game, BuildRoadWithMendicant(BOARD.path_between(24, 30), LUMBER, WOOL), "H-USE-7")  # once a turn


def test_H_CARD_3_mayor_takes_a_card_when_the_roll_gives_nothing():
    """H-CARD-3: on a roll other than 7 that gives the holder nothing, take 1 resource from the bank."""
    game = beginner()
    game.play(RollDice(QUIET))
    bank = game.bank[GRAIN.value]
    game.play(UseMayor(GRAIN))
    assert game.hands[BLUE] == [1, 1, 0, 1, 1]
    assert game.bank[GRAIN.value] == bank - 1
    assert game.phase is Phase.HELPER_AFTER_USE and game.current_player == BLUE
    game.play(FlipHelper())
    assert game.phase is Phase.MAIN and game.current_player == RED and game.active_player == RED
    assert hs(game)["side"][BLUE] == "B"
    # A roll that gives the holder something: no reaction.
    game = beginner()
    game.play(RollDice(NINE))  # blue collects lumber on a 9
    assert BLUE in game.last_production
    assert game.phase is Phase.MAIN and game.current_player == RED
    illegal(game, UseMayor(ORE), "H-CARD-3")
    # A 7: no Mayor.
    game = beginner()
    game.play(RollDice(SEVEN))
    assert game.phase is Phase.MOVE_ROBBER and game.current_player == RED
    illegal(game, UseMayor(ORE), "H-CARD-3")
    # The bank must have the card.
    game = beginner()
    game.play(RollDice(QUIET))
    deal(game, WHITE, ore=game.bank[ORE.value])
    assert UseMayor(ORE) not in game.legal_actions()
    illegal(game, UseMayor(ORE), "H-CARD-3")


def test_H_CARD_4_general_spares_the_discard_when_over_the_limit():
    """H-CARD-4: on a 7 the General's holder does not discard even if over the limit."""
    game = beginner(holders={BLUE: GENERAL})
    deal(game, BLUE, lumber=5)  # 8 cards
    deal(game, WHITE, lumber=5)  # 8 cards
    game.play(RollDice(SEVEN))
    assert game.phase is Phase.HELPER_REACTION and game.current_player == BLUE and game.active_player == RED
    assert game.legal_actions() == [UseGeneral(), DeclineHelper()]
    illegal(game, UseGeneral(ORE), "H-CARD-4")
    hand = list(game.hands[BLUE])
    game.play(UseGeneral())
    assert game.hands[BLUE] == hand
    assert game.discards_owed() == {WHITE: 4}
    game.play(FlipHelper())
    assert game.phase is Phase.DISCARD and game.current_player == WHITE
    game.play(Discard(counts(lumber=4)))
    assert game.phase is Phase.MOVE_ROBBER and game.current_player == RED
    assert game.hands[BLUE] == hand


def test_H_CARD_4_general_decline_means_discarding():
    """H-CARD-4, H-USE-9: declining the General leaves the discard owed."""
    game = beginner(holders={BLUE: GENERAL})
    deal(game, BLUE, lumber=5)
    game.play(RollDice(SEVEN))
    game.play(DeclineHelper())
    assert game.phase is Phase.DISCARD and game.current_player == BLUE
    assert game.discards_owed() == {BLUE: 4}


def test_H_CARD_4_general_gives_a_card_when_not_over_the_limit():
    """H-CARD-4: holding 7 or fewer cards, the holder may take 1 resource of choice from the bank."""
    game = beginner(holders={BLUE: GENERAL})
    deal(game, BLUE, lumber=4)  # exactly 7
    game.play(RollDice(SEVEN))
    assert game.phase is Phase.HELPER_REACTION and game.current_player == BLUE
    assert UseGeneral() not in game.legal_actions()
    illegal(game, UseGeneral(), "H-CARD-4")
    game.play(UseGeneral(GRAIN))
    assert game.hands[BLUE] == [5, 1, 0, 1, 1]
    game.play(FlipHelper())
    assert game.phase is Phase.MOVE_ROBBER and game.current_player == RED
    # Not on other rolls.
    game = beginner(holders={BLUE: GENERAL})
    roll(game, QUIET)
    assert game.phase is Phase.MAIN
    illegal(game, UseGeneral(GRAIN), "H-CARD-4")


def test_H_CARD_4_general_sole_discarder_goes_to_the_robber():
    """H-CARD-4: when the General's holder was the only one to discard, play goes on to the robber."""
    game = beginner(holders={BLUE: GENERAL})
    deal(game, BLUE, lumber=5)
    game.play(RollDice(SEVEN))
    game.play(UseGeneral())
    game.play(FlipHelper())
    assert game.phase is Phase.MOVE_ROBBER and game.current_player == RED
    game.play(MoveRobber(5))
    assert game.phase is Phase.MAIN and game.current_player == RED


def test_H_CARD_4_general_after_a_knight_before_the_roll():
    """H-CARD-4: knight before the roll, then a 7 where only the General's holder owes: after the robber
    the active player is in the main phase, not rolling again."""
    game = beginner(holders={RED: GENERAL})
    give_dev(game, RED, KNIGHT)
    deal(game, RED, ore=8)
    game.play(PlayKnight())
    game.play(MoveRobber(5))
    assert game.phase is Phase.ROLL
    game.play(RollDice(SEVEN))
    game.play(UseGeneral())
    game.play(FlipHelper())
    game.play(MoveRobber(6))
    assert game.phase is Phase.MAIN


def test_H_CARD_5_robber_bride_back_to_the_desert():
    """H-CARD-5, A-28: the robber goes back to the desert; 1 card of the hex it left, from the bank."""
    game = beginner(holders={RED: ROBBER_BRIDE, BLUE: NOBLEWOMAN})
    assert not any(isinstance(a, UseRobberBride) for a in game.legal_actions())
    illegal(game, UseRobberBride(), "H-CARD-5")  # already on the desert
    game.play(RollDice(SEVEN))
    hx = 6  # brick 10
    assert T.hex_resource[hx] == BRICK.value
    game.play(MoveRobber(hx))
    assert game.robber == hx
    assert game.legal_actions().count(UseRobberBride(DESERT)) == 1
    illegal(game, UseRobberBride(5), "H-CARD-5")  # not a desert
    bank, hands = list(game.bank), [list(h) for h in game.hands]
    game.play(UseRobberBride())
    assert game.robber == DESERT
    assert game.hands[RED][BRICK.value] == hands[RED][BRICK.value] + 1
    assert game.bank[BRICK.value] == bank[BRICK.value] - 1
    assert game.hands[1:] == hands[1:]
    assert game.phase is Phase.HELPER_AFTER_USE


def test_H_CARD_5_robber_bride_before_the_roll():
    """H-CARD-5: at any moment of the holder's turn, also before the roll."""
    game = beginner(holders={RED: ROBBER_BRIDE, BLUE: NOBLEWOMAN})
    game.robber = 13  # ore 3
    game.play(UseRobberBride(DESERT))
    assert game.robber == DESERT and game.hands[RED][ORE.value] == 1
    game.play(FlipHelper())
    assert game.phase is Phase.ROLL


def test_H_CARD_6_captain_two_to_one_for_the_rest_of_the_turn():
    """H-CARD-6: the chosen resource trades with the bank at 2:1 for the rest of the turn only."""
    game = beginner(holders={RED: CAPTAIN, BLUE: NOBLEWOMAN})
    roll(game)  # red: brick 1, wool 3
    assert game.maritime_rate(RED, WOOL) == 4
    assert MaritimeTrade(WOOL, ORE) not in game.legal_actions()
    game.play(UseCaptain(WOOL))
    game.play(FlipHelper())
    assert game.maritime_rate(RED, WOOL) == 2
    assert [game.maritime_rate(RED, r) for r in Resource] == [4, 4, 2, 4, 4]
    assert MaritimeTrade(WOOL, ORE) in game.legal_actions()
    game.play(MaritimeTrade(WOOL, ORE))
    assert game.hands[RED] == [0, 1, 1, 0, 1]
    assert game.maritime_rate(BLUE, WOOL) == 4  # only the holder
    game.play(EndTurn())
    assert game.maritime_rate(RED, WOOL) == 4  # the turn is over
    for _ in range(3):
        end_turn(game)
    assert game.active_player == RED and game.maritime_rate(RED, WOOL) == 4


def test_H_CARD_7_priest_with_a_knight_in_hand():
    """H-CARD-7: give up a knight card in hand to build a settlement for 1 lumber + 1 brick."""
    game = beginner(holders={RED: PRIEST, BLUE: NOBLEWOMAN})
    roll(game)
    deal(game, RED, lumber=2, brick=1)
    game.play(BuildRoad(BOARD.path_between(18, 24)))
    v = 24
    illegal(game, UsePriest("settlement", v), "H-CARD-7")  # no knight
    give_dev(game, RED, KNIGHT)
    assert UsePriest("settlement", v, False) in game.legal_actions()
    illegal(game, UsePriest("road", v), "H-CARD-7")
    illegal(game, UsePriest("settlement", v, played=True), "H-CARD-7")  # no played knight
    illegal(game, UsePriest("settlement", 18), "B-BUILD-7")  # distance rule still applies
    illegal(game, UsePriest("settlement", 48), "B-BUILD-6")
    illegal(game, UsePriest("city", 14), "B-BUILD-9")
    illegal(game, UsePriest("city", 13), "B-BUILD-1")  # 1 grain + 2 ore
    deck = list(game.deck)
    game.play(UsePriest("settlement", v))
    assert game.building_at(v) is not None and game.building_at(v)[0] == RED
    assert game.hands[RED] == [0, 0, 3, 0, 0]
    assert game.dev[RED][KNIGHT.value] == 0
    assert game.deck == deck  # the knight leaves the game
    assert hs(game)["knights_given_up"] == 1
    assert game.vp(RED) == 3


def test_H_CARD_7_priest_city_with_a_played_knight_A27_set_aside():
    """H-CARD-7, A-27: a played knight given up leaves the army count; below 3 the card is set aside."""
    game = beginner(holders={RED: PRIEST, BLUE: NOBLEWOMAN})
    give_played_knights(game, RED, 3)
    game.largest_army_holder = RED
    give_played_knights(game, BLUE, 2)
    roll(game)
    deal(game, RED, grain=1, ore=2)
    assert UsePriest("city", 13, True) in game.legal_actions()
    game.play(UsePriest("city", 13, played=True))
    assert game.building_at(13)[1].name == "CITY"
    assert game.knights[RED] == 2
    assert game.largest_army_holder is None
    assert game.vp(RED) == 3  # 1 settlement + 1 city, no army


def test_H_CARD_7_priest_A27_holder_keeps_when_tied_at_three():
    """A-27: the holder keeps Largest Army while still at 3+ and nobody has strictly more."""
    game = beginner(holders={RED: PRIEST, BLUE: NOBLEWOMAN})
    give_played_knights(game, RED, 4)
    game.largest_army_holder = RED
    give_played_knights(game, BLUE, 3)
    roll(game)
    deal(game, RED, grain=1, ore=2)
    game.play(UsePriest("city", 22, played=True))
    assert game.knights[RED] == 3 and game.largest_army_holder == RED


def test_H_CARD_7_priest_A27_single_top_player_takes_it():
    """A-27: when the holder drops below the others, a single top player with 3+ takes it; a tie sets it aside."""
    game = beginner(holders={RED: PRIEST, BLUE: NOBLEWOMAN})
    give_played_knights(game, RED, 3)
    game.largest_army_holder = RED
    give_played_knights(game, WHITE, 3)
    roll(game)
    deal(game, RED, grain=1, ore=2)
    game.play(UsePriest("city", 22, played=True))
    assert game.largest_army_holder == WHITE
    assert game.vp(WHITE) == 4
    game = beginner(holders={RED: PRIEST, BLUE: NOBLEWOMAN})
    give_played_knights(game, RED, 3)
    game.largest_army_holder = RED
    give_played_knights(game, WHITE, 3)
    give_played_knights(game, ORANGE, 3)
    roll(game)
    deal(game, RED, grain=1, ore=2)
    game.play(UsePriest("city", 22, played=True))
    assert game.largest_army_holder is None


def test_A27_set_aside_card_goes_only_to_a_strictly_greatest_army():
    """A-27 (issue 24, item 11; as B-LR-7): a card set aside after the Priest goes only to a player
    with 3+ played knights and strictly more than every other player.  Red, the holder, gives up a
    played knight ([2, 3, 2, 3]: blue and orange tie, the card is set aside); red's next knight ties
    at 3 and must not take it (the engine gave it to anyone reaching 3); a fourth takes it."""
    game = beginner(holders={RED: PRIEST, BLUE: NOBLEWOMAN})
    for seat, k in ((RED, 3), (BLUE, 3), (WHITE, 2), (ORANGE, 3)):
        give_played_knights(game, seat, k)
    game.largest_army_holder = RED
    game.deck[KNIGHT.value] -= 2
    game.dev[RED][KNIGHT.value] += 2  # two knight cards in red's hand, bought before this turn
    roll(game)
    deal(game, RED, grain=1, ore=2)
    game.play(UsePriest("city", 22, played=True))
    assert game.knights == [2, 3, 2, 3] and game.largest_army_holder is None
    game.play(FlipHelper())  # H-USE-2: turn the used helper over
    game.play(PlayKnight())
    game.play(MoveRobber(5))
    assert game.knights == [3, 3, 2, 3]
    assert game.largest_army_holder is None  # a tie at 3 takes no set-aside card
    assert game.vp(RED) == 3  # a settlement and a city, no army
    end_turn(game)
    for _ in range(3):
        end_turn(game)
    roll(game)
    game.play(PlayKnight())
    game.play(MoveRobber(6))
    assert game.knights == [4, 3, 2, 3] and game.largest_army_holder == RED  # strictly more than every other


@pytest.mark.parametrize("board,players,modules,seed,priest,knight,knights", [
    # Friends + Helpers: seat 0, the holder at [3, 2, 3, 3], gives up a knight ([2, 2, 3, 3], set aside);
    # seat 1's knight makes a three-way tie at 3
    (Board.random(seed=1053), 4, ("friends", "helpers"), 1053, 1059, 1374, [2, 3, 3, 3]),
    # Helpers on the 5-6 board: seat 1, the holder at [1, 3, 0, 3, 3], gives up a knight ([1, 2, 0, 3, 3],
    # set aside); it reaches a three-way tie at 3 again
    (Board.five_six(), 5, ("helpers",), 752, 784, 877, [1, 3, 0, 3, 3]),
])
def test_A27_seeded_repro_a_tie_after_a_set_aside_takes_nothing(board, players, modules, seed, priest, knight, knights):
    """A-27 (issue 24, item 11) in seeded random games (``RandomBot(10 * seed + 7 + q)`` with Friends,
    ``RandomBot(10 * seed + q)`` without): after the Priest sets the card aside, a knight that only
    ties takes nothing (the engine gave it away).  The Checker recomputes the holder after every action."""
    game = Game(board, players=players, seed=seed, rules=Rules(modules=modules))
    first = 10 * seed + (7 if "friends" in modules else 0)
    bots = [RandomBot(first + q) for q in range(players)]
    check = Checker(game)
    for i in range(knight + 1):
        action = bots[game.current_player].choose(game)
        game.play(action)
        check()
        if i == priest:
            assert isinstance(action, UsePriest) and action.played and game.largest_army_holder is None
    assert action == PlayKnight() and game.knights == knights
    assert game.largest_army_holder is None


def noblewoman_position():
    """Blue holds the Noblewoman in its own turn (rolled); red has 3 visible VP, white 3 VP of which 2 visible
    (a hidden VP card), orange and blue 2."""
    game = beginner(holders={BLUE: NOBLEWOMAN})
    roll(game)  # red: brick 1, wool 3
    deal(game, RED, grain=2, ore=3)
    game.play(BuildCity(13))
    game.play(EndTurn())
    give_dev(game, WHITE, VICTORY_POINT)  # white: 3 VP, 2 visible
    assert game.vp(WHITE) == 3 and game.vp(WHITE, visible=True) == 2
    assert game.vp(RED, visible=True) == 3 and game.vp(BLUE, visible=True) == 2
    roll(game, NINE)  # blue: +1 lumber; red: +1 grain
    return game


def test_H_CARD_8_noblewoman_from_a_player_with_more_visible_vp():
    """H-CARD-8: choose a player with more visible VP (hidden VP cards do not count), look at their hand,
    take 1 card of choice: two steps, the player first (UseNoblewoman), then the card (NoblewomanTake)."""
    game = noblewoman_position()
    opts = [a for a in game.legal_actions() if isinstance(a, UseNoblewoman)]
    assert opts == [UseNoblewoman(RED)]
    illegal(game, UseNoblewoman(WHITE), "H-CARD-8")  # hidden VP do not count
    illegal(game, UseNoblewoman(ORANGE), "H-CARD-8")  # equal VP
    illegal(game, UseNoblewoman(BLUE), "H-CARD-8")
    illegal(game, UseNoblewoman(RED, ORE), "H-CARD-8")  # the one-step form: red holds no ore now
    illegal(game, HM.NoblewomanTake(WOOL), "H-CARD-8")  # no hand is looked at yet
    red, blue = list(game.hands[RED]), list(game.hands[BLUE])
    game.play(UseNoblewoman(RED))
    assert game.phase is Phase.NOBLEWOMAN and game.current_player == BLUE
    assert game.hands[RED] == red and game.hands[BLUE] == blue  # nothing taken yet
    assert game.view(BLUE).modules["helpers"] == {"looked": (RED, red)}  # the holder sees red's hand
    assert "helpers" not in game.view(WHITE).modules
    takes = [a for a in game.legal_actions()]
    assert takes == [HM.NoblewomanTake(r) for r in Resource if red[r.value]]
    illegal(game, HM.NoblewomanTake(ORE), "H-CARD-8")
    game.play(HM.NoblewomanTake(WOOL))
    assert game.hands[RED][WOOL.value] == red[WOOL.value] - 1
    assert game.hands[BLUE][WOOL.value] == blue[WOOL.value] + 1
    assert game.phase is Phase.HELPER_AFTER_USE and game.current_player == BLUE


def test_H_CARD_9_explorer_moves_a_dead_end_road():
    """H-CARD-9 (PROPOSAL): the Explorer (A4) moves one dead-end road to another legal path."""
    game = beginner(holders={BLUE: NOBLEWOMAN})  # red holds the Explorer (A4)
    assert hs(game)["held"][RED] == EXPLORER.value
    roll(game)
    assert HM.dead_end_roads(game, RED) == sorted([RED_ROAD_13_18, RED_ROAD_22_28])
    opts = [a for a in game.legal_actions() if isinstance(a, UseExplorer)]
    assert opts and {a.source for a in opts} == {RED_ROAD_13_18, RED_ROAD_22_28}
    target = BOARD.path_between(28, 33)
    assert UseExplorer(RED_ROAD_13_18, target) in opts
    illegal(game, UseExplorer(RED_ROAD_13_18, RED_ROAD_13_18), "B-BUILD-4")
    illegal(game, UseExplorer(RED_ROAD_13_18, BOARD.path_between(18, 24)), "B-BUILD-4")  # hangs on the old spot
    illegal(game, UseExplorer(RED_ROAD_13_18, BOARD.path_between(39, 43)), "B-BUILD-4")  # far away
    illegal(game, UseExplorer(BOARD.path_between(14, 19), target), "H-CARD-9")  # blue's road
    game.play(UseExplorer(RED_ROAD_13_18, target))
    assert game.road_owner(RED_ROAD_13_18) is None and game.road_owner(target) == RED
    assert len(game.roads[RED]) == 2
    assert game.hands[RED] == [0, 1, 3, 0, 0]  # free
    assert game.phase is Phase.HELPER_AFTER_USE


def test_H_CARD_9_explorer_only_dead_end_roads():
    """H-CARD-9: a road joined at both ends (to own roads or buildings) is not a dead end."""
    game = beginner(holders={BLUE: NOBLEWOMAN})
    roll(game)
    deal(game, RED, lumber=1)
    game.play(BuildRoad(BOARD.path_between(18, 24)))
    assert RED_ROAD_13_18 not in HM.dead_end_roads(game, RED)
    illegal(game, UseExplorer(RED_ROAD_13_18, BOARD.path_between(28, 33)), "H-CARD-9")
    assert not any(isinstance(a, UseExplorer) and a.source == RED_ROAD_13_18 for a in game.legal_actions())
    game.play(UseExplorer(BOARD.path_between(18, 24), BOARD.path_between(28, 33)))


def test_H_CARD_9_explorer_may_turn_a_road_around_its_settlement():
    """H-CARD-9, B-BUILD-4: the moved road may go to another path at the holder's own settlement."""
    game = beginner(holders={BLUE: NOBLEWOMAN})
    roll(game)
    target = BOARD.path_between(8, 13)  # touches red's settlement 13
    game.play(UseExplorer(RED_ROAD_13_18, target))
    assert game.road_owner(target) == RED


def test_H_CARD_9_architect_sees_three_keeps_one():
    """H-CARD-9 (PROPOSAL): the Architect (A6) buys a card seeing the top 3, keeps 1, the rest go back."""
    game = beginner(holders={RED: ARCHITECT, BLUE: NOBLEWOMAN})
    illegal(game, UseArchitect(), "B-TURN-3")
    roll(game)
    deal(game, RED, grain=1, ore=1)  # red: brick 1, wool 3, grain 1, ore 1
    assert UseArchitect() in game.legal_actions()
    illegal(game, KeepCard(KNIGHT), "H-CARD-9")  # nothing on view
    illegal(game, UseArchitect(seen=(KNIGHT, MONOPOLY)), "H-CARD-9")  # must be 3 cards
    deck = list(game.deck)
    bank = list(game.bank)
    game.play(UseArchitect(seen=(KNIGHT, MONOPOLY, VICTORY_POINT)))
    assert game.phase is Phase.ARCHITECT_CHOICE and game.current_player == RED
    assert game.log[-1] == UseArchitect(None, None, (KNIGHT, MONOPOLY, VICTORY_POINT))
    assert sum(game.deck) == sum(deck) - 3
    assert game.hands[RED] == [0, 1, 2, 0, 0]
    assert game.bank == [bank[0], bank[1], bank[2] + 1, bank[3] + 1, bank[4] + 1]
    assert game.legal_actions() == [KeepCard(KNIGHT), KeepCard(MONOPOLY), KeepCard(VICTORY_POINT)]
    illegal(game, KeepCard(YEAR_OF_PLENTY), "H-CARD-9")
    illegal(game, EndTurn(), "B-TURN-9")
    game.play(KeepCard(MONOPOLY))
    assert game.dev[RED][MONOPOLY.value] == 1 and game.dev_new[RED][MONOPOLY.value] == 1
    expect = list(deck)
    expect[MONOPOLY.value] -= 1
    assert game.deck == expect  # the other two are back in the deck
    assert hs(game)["architect"] is None
    assert game.phase is Phase.HELPER_AFTER_USE and game.current_player == RED
    game.play(FlipHelper())
    assert game.phase is Phase.MAIN and game.built_this_turn


def test_H_CARD_9_architect_substitutes_one_cost():
    """H-CARD-9 (PROPOSAL): any one resource may be paid in place of one of the card's costs."""
    game = beginner(holders={RED: ARCHITECT, BLUE: NOBLEWOMAN})
    roll(game)  # red: brick 1, wool 3 (no grain, no ore)
    deal(game, RED, grain=1)
    assert BuyDevelopmentCard() not in game.legal_actions()
    assert UseArchitect(ORE, WOOL) in game.legal_actions()
    illegal(game, UseArchitect(LUMBER, WOOL), "H-CARD-9")  # lumber is not a card cost
    illegal(game, UseArchitect(ORE, None), "H-CARD-9")
    illegal(game, UseArchitect(GRAIN, WOOL), "B-BUILD-1")  # ore still missing
    illegal(game, UseArchitect(ORE, GRAIN), "B-BUILD-1")  # only 1 grain
    game.play(UseArchitect(ORE, BRICK, seen=(KNIGHT, KNIGHT, ROAD_BUILDING)))
    assert game.hands[RED] == [0, 0, 2, 0, 0]
    assert game.legal_actions() == [KeepCard(KNIGHT), KeepCard(ROAD_BUILDING)]
    deck_before_keep = list(game.deck)
    game.play(KeepCard(KNIGHT))
    assert game.dev[RED][KNIGHT.value] == 1
    assert game.deck[KNIGHT.value] == deck_before_keep[KNIGHT.value] + 1
    assert game.deck[ROAD_BUILDING.value] == deck_before_keep[ROAD_BUILDING.value] + 1


def test_H_CARD_8_noblewoman_listing_is_the_same_whatever_the_opponents_hold():
    """H-CARD-8, B-SETUP-7: the Noblewoman's listing names the players with more visible VP who hold a card
    (both counts are public), never a card: it is the same whatever the opponents' hidden hands hold (it
    listed one action per card the victim held before), and so is every other listed action."""
    game = noblewoman_position()
    other = game.copy()
    for q in range(other.n):  # the same number of cards each, all of another kind
        if q != BLUE:
            hand = other.hands[q]
            total = sum(hand[:5])
            for k in range(5):
                other.bank[k] += hand[k]
                hand[k] = 0
            other.bank[ORE.value] -= total
            hand[ORE.value] = total
    assert other.hands[RED] != game.hands[RED]
    assert game.legal_actions() == other.legal_actions()
    assert [a for a in game.legal_actions() if isinstance(a, UseNoblewoman)] == [UseNoblewoman(RED)]
    for seed in range(3):  # and in any determinisation for blue
        assert game.determinized(BLUE, seed).legal_actions() == game.legal_actions()


def test_H_CARD_8_noblewoman_needs_a_card_to_take_and_a_determinisation_keeps_the_hand_seen():
    """H-CARD-8: a player with more visible VP but no card is not listed (the count is public); once the
    holder looks at a hand, a determinisation for the holder keeps that hand (it is known) and deals the
    others again, and the view of the holder is the same in it."""
    game = noblewoman_position()
    cards = list(game.hands[RED])
    game.hands[RED] = [0] * 5
    for r, k in enumerate(cards):
        game.bank[r] += k
    assert not [a for a in game.legal_actions() if isinstance(a, UseNoblewoman)]
    illegal(game, UseNoblewoman(RED), "H-CARD-8")
    game = noblewoman_position()
    game.play(UseNoblewoman(RED))
    seen = list(game.hands[RED])
    for seed in range(4):
        d = game.determinized(BLUE, seed)
        assert d.hands[RED] == seen and d.view(BLUE) == game.view(BLUE)
        assert [sum(h) for h in d.hands] == [sum(h) for h in game.hands]
        assert d.legal_actions() == game.legal_actions()


def test_H_CARD_8_noblewoman_one_step_form_of_old_saves_still_plays():
    """H-CARD-8: ``UseNoblewoman(victim, resource)``, the one-step form saves hold from before the two
    steps, is still accepted (never listed): the card moves and the holder flips or exchanges next."""
    game = noblewoman_position()
    red = list(game.hands[RED])
    game.play(UseNoblewoman(RED, WOOL))
    assert game.hands[RED][WOOL.value] == red[WOOL.value] - 1
    assert game.phase is Phase.HELPER_AFTER_USE and game.current_player == BLUE
    # the saves of tests/fixtures/saves_v0 hold it (test_engine_platform: they still load)


def test_H_CARD_8_noblewoman_card_is_named_to_its_holder_only():
    """H-CARD-8, B-SETUP-7: the log names the player looked at to everyone, the card taken to the holder
    only; the holder's choice reads "take 1 wool with the Noblewoman"."""
    from catan_nb.viz.text import narrate, snapshot
    from catan_nb.widgets.table import describe

    game = noblewoman_position()
    assert describe(UseNoblewoman(RED), game) == "use the Noblewoman to look at Red's hand"
    game.play(UseNoblewoman(RED))
    take = HM.NoblewomanTake(WOOL)
    assert describe(take, game) == "take 1 wool with the Noblewoman"
    before = snapshot(game)
    game.play(take)
    seats = ["bot"] * 4
    said = {q: narrate(game, take, before, q, seats) for q in range(4)}
    assert "wool" in " ".join(said[BLUE]) and not any("wool" in " ".join(said[q]) for q in (RED, WHITE, ORANGE))


def test_H_CARD_1_merchant_listing_does_not_tell_what_the_others_hold():
    """H-CARD-1: any opponent may be asked (one without the resource gives nothing), so the Merchant's
    listing is the same whatever the opponents' hidden hands hold (it listed only holders before)."""
    game = beginner(holders={RED: MERCHANT})
    roll(game)
    deal(game, RED, wool=2)

    def listed(g):
        return sorted(map(repr, (a for a in g.legal_actions() if isinstance(a, UseMerchantHelper))))

    other = game.copy()
    for q in range(other.n):  # the same number of cards each, all lumber
        if q != RED:
            hand = other.hands[q]
            total = sum(hand[:5])
            for k in range(5):
                other.bank[k] += hand[k]
                hand[k] = 0
            other.bank[0] -= total
            hand[0] = total
    assert listed(game) and listed(game) == listed(other)
    empty = next(q for q in range(4) if q != RED and not other.hands[q][Resource.ORE.value])
    before = list(other.hands[empty])
    other.play(UseMerchantHelper(ORE, (empty,), (WOOL,)))  # asked, holds none: gives nothing
    assert other.hands[empty] == before

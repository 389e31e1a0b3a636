"""Friends — guild favours (RULES.md section 13, F-*), and X56-SBP-8.

Most positions are on the beginner board with the beginner start (seat 0 red,
1 blue, 2 white, 3 orange; founding done, red to roll).  Beginner pieces::

    red    settlements 13, 22   roads 13-18, 22-28
    blue   settlements 14, 39   roads 14-19, 34-39
    white  settlements 12, 25   roads 12-17, 25-31
    orange settlements 40, 41   roads 35-40, 36-41

The desert is hex 9 (corners 18, 23, 24, 29, 30, 35) and holds the robber.
Chance is forced: dice with ``RollDice(dice=...)``, drawn cards with
``UseProfessors(card=...)``, drawn favours with ``ExchangeFavour(drawn=...)``.
Favour tokens are handed out by moving them from the supply (conservation kept);
``fresh`` marks tokens received this turn (F-USE-4).
"""

from __future__ import annotations

import typing
from dataclasses import fields

import pytest
from helpers import deal, found
from invariants import Checker

from catan_nb import Board, DevCard, Game, IllegalActionError, Resource
from catan_nb.analysis import RandomBot
from catan_nb.constants import CATAN_TOKENS, FAVOUR_SUPPLY, FRIENDS_VP_TO_WIN, GUILD_PRICE, VP_TO_WIN, Guild, HelperCard
from catan_nb.rules import (
    ACTION_TYPES,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    EndRoadBuilding,
    EndTurn,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    PlayRoadBuilding,
    RollDice,
    Rules,
)
from catan_nb.rules.modules import MODULES
from catan_nb.rules.modules import friends as F
from catan_nb.rules.modules.five_six import EndSpecialBuild
from catan_nb.rules.modules.helpers import DeclineHelper, ExchangeHelper, FlipHelper, UseExplorer
from catan_nb.rules.modules.friends import (
    AcceptGift,
    ExchangeFavour,
    OfferGift,
    RefuseGift,
    ReturnFavour,
    UseArchitects,
    UseMerchants,
    UsePavers,
    UseProfessors,
    UseTraders,
    districts,
    joins,
)

BOARD = Board.beginner()
FR = Rules(modules=("friends",))
RED, BLUE, WHITE, ORANGE = 0, 1, 2, 3
LUMBER, BRICK, WOOL, GRAIN, ORE = Resource
MERCHANTS, TRADERS, PAVERS, PROFESSORS, ARCHITECTS = Guild
DESERT = BOARD.topology.desert_hexes[0]  # hex 9
QUIET_DICE = (1, 1)  # a 2: never a 7
SEVEN = (3, 4)
FRIENDS_ACTIONS = (OfferGift, AcceptGift, RefuseGift, UseMerchants, UseTraders, UsePavers, UseProfessors,
                   UseArchitects, ExchangeFavour, ReturnFavour)


# ============================================================================ helpers


def p_(a: int, b: int) -> int:
    """Path id between two adjacent intersections of the beginner board."""
    return BOARD.path_between(a, b)


def new_game(seed: int = 7) -> Game:
    return Game(BOARD, players=4, seed=seed, start="beginner", rules=FR)


def fs(g: Game) -> dict:
    return g.ext["friends"]


def give(g: Game, p: int, guild: Guild, k: int = 1, *, fresh: bool = False) -> None:
    """Move ``k`` favour tokens of ``guild`` from the supply to seat ``p`` (received this turn if ``fresh``)."""
    st = fs(g)
    assert st["supply"][guild.value] >= k
    st["supply"][guild.value] -= k
    st["tokens"][p][guild.value] += k
    if fresh:
        st["fresh"][p][guild.value] += k


def held(g: Game, p: int) -> int:
    return sum(fs(g)["tokens"][p])


def holdings(g: Game) -> list[int]:
    return [held(g, p) for p in range(g.n)]


def assert_conserved(g: Game) -> None:
    """F-COMP-1, F-USE-2: supply + hands + guild board is the whole favour set; Catan tokens too."""
    st = fs(g)
    total = sum(st["supply"]) + sum(map(sum, st["tokens"])) + sum(st["board"])
    assert total == sum(FAVOUR_SUPPLY[g.n].values())
    assert all(0 <= f <= k for fr, tk in zip(st["fresh"], st["tokens"]) for f, k in zip(fr, tk))
    assert st["catan_left"] + sum(st["catan_tokens"]) == CATAN_TOKENS
    assert all(x >= 0 for x in st["supply"])


def illegal(g: Game, action, rule: str) -> IllegalActionError:
    """``action`` is rejected citing ``rule`` and the game is left exactly as it was."""
    before = g.state()
    with pytest.raises(IllegalActionError) as info:
        g.play(action)
    assert info.value.rule == rule, f"expected {rule}, got {info.value}"
    assert g.state() == before
    return info.value


def to_roll(g: Game, p: int) -> None:
    """Play on (quiet rolls, EndTurn) until seat ``p``'s turn begins (phase ROLL)."""
    for _ in range(4 * g.n + 2):
        if g.active_player == p and g.phase is Phase.ROLL:
            return
        if g.phase is Phase.ROLL:
            g.play(RollDice(dice=QUIET_DICE))
        elif g.phase is Phase.MAIN:
            g.play(EndTurn())
        else:
            raise AssertionError(f"cannot advance from phase {g.phase}")
    raise AssertionError("did not reach the seat's turn")


def to_main(g: Game, p: int) -> None:
    """Reach seat ``p``'s build phase: this turn if it is already ``p``'s, else the next."""
    if g.active_player == p and g.phase is Phase.MAIN:
        return
    to_roll(g, p)
    g.play(RollDice(dice=QUIET_DICE))
    assert g.phase is Phase.MAIN


def next_main(g: Game, p: int) -> None:
    """End the current turn if it is ``p``'s, then reach ``p``'s next build phase."""
    if g.active_player == p and g.phase is Phase.MAIN:
        g.play(EndTurn())
    to_main(g, p)


def road(g: Game, p: int, a: int, b: int) -> None:
    """Seat ``p`` (in its build phase) pays for and builds the road a-b."""
    deal(g, p, lumber=1, brick=1)
    g.play(BuildRoad(p_(a, b)))


def friends_actions(actions) -> list:
    return [a for a in actions if isinstance(a, FRIENDS_ACTIONS)]


def uses(actions) -> list:
    return [a for a in actions if isinstance(a, FRIENDS_ACTIONS) and not isinstance(a, (OfferGift, AcceptGift, RefuseGift))]


# A founding-phase game on the beginner board (snake order 0,1,2,3,3,2,1,0):
# red 18 (road 18-24) and blue 19 (road 19-24) meet at 24 during the founding;
# red 18 and blue 30 sit on the desert; hexes 1, 3, 7, 8, 12, 13, 15, 17 stay empty;
# hex 4 holds only red's 18; hex 5 holds red's 18 and blue's 19.
FOUNDING = [(18, (18, 24)), (19, (19, 24)), (0, (0, 3)), (47, (47, 51)),
            (53, (53, 50)), (6, (6, 10)), (30, (30, 35)), (26, (26, 32))]
EMPTY_HEX, RED_ONLY_HEX, RED_BLUE_HEX = 1, 4, 5


def founded(seed: int = 5) -> Game:
    g = Game(BOARD, players=4, seed=seed, rules=FR)
    found(g, [(v, p_(*e)) for v, e in FOUNDING])
    assert g.phase is Phase.ROLL and g.active_player == RED
    return g


def founded_six(seed: int = 3) -> Game:
    """A 6-player Friends game after a founding phase played by random bots (seeded)."""
    g = Game(Board.five_six(), players=6, seed=seed, rules=FR)
    bots = [RandomBot(seed * 10 + p) for p in range(6)]
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        g.play(bots[g.current_player].choose(g))
    return g


def sbp(g: Game) -> None:
    """Seat 0 rolls a quiet 4 and ends the turn: the SBP begins with seat 1."""
    g.play(RollDice((2, 2)))
    assert g.phase is Phase.MAIN
    g.play(EndTurn())
    assert g.phase is Phase.SPECIAL_BUILD and g.current_player == 1


# ============================================================================ components and set-up


def test_F_COMP_1_favours_catan_tokens_and_the_base_components():
    """F-COMP-1: 84 favour tokens, 12 Catan tokens; played with all base (or 5-6) components."""
    assert sum(FAVOUR_SUPPLY[6].values()) == 84
    assert CATAN_TOKENS == 12
    g4 = new_game()
    base = Game(BOARD, players=4, seed=7, start="beginner")
    assert g4.bank_per_resource == base.bank_per_resource == 19 and g4.deck_total == base.deck_total == 25
    assert fs(g4)["catan_left"] == 12 and fs(g4)["catan_tokens"] == [0] * 4
    g6 = Game(Board.five_six(), players=6, seed=1, rules=FR)
    assert g6.rules.modules == ("five_six", "friends")
    assert g6.bank_per_resource == 24 and g6.deck_total == 34  # with the 5-6 extension
    assert sum(fs(g6)["supply"]) == MODULES["friends"].favour_total(g6) == 84
    assert fs(g6)["catan_left"] == 12
    assert_conserved(g4)
    assert_conserved(g6)


def test_F_COMP_2_tokens_by_guild():
    """F-COMP-2: 12 carts (Merchants), 12 ships (Traders), 12 shovels (Pavers), 24 books, 24 compasses."""
    assert [g.token for g in Guild] == ["cart", "ship", "shovel", "book", "compass"]
    assert dict(FAVOUR_SUPPLY[6]) == {MERCHANTS: 12, TRADERS: 12, PAVERS: 12, PROFESSORS: 24, ARCHITECTS: 24}
    g6 = Game(Board.five_six(), players=6, seed=2, rules=FR)
    assert fs(g6)["supply"] == [12, 12, 12, 24, 24]


def test_F_SETUP_1_base_setup_as_usual_with_the_catan_tokens_beside():
    """F-SETUP-1: the base set-up is unchanged by Friends; the 12 Catan tokens lie ready, none held."""
    g = new_game(seed=11)
    base = Game(BOARD, players=4, seed=11, start="beginner")
    sf, sb = g.state(), base.state()
    for k in ("ext", "rules", "vp_target"):
        sf.pop(k), sb.pop(k)
    assert sf == sb  # pieces, hands, bank, deck, robber, phase: as in the base game
    assert g.phase is Phase.ROLL and g.active_player == RED
    st = fs(g)
    assert st["catan_left"] == CATAN_TOKENS and st["catan_tokens"] == [0] * 4
    assert st["board"] == [0] * 5
    assert all(g.vp(p, visible=True) == base.vp(p, visible=True) == 2 for p in range(4))
    # A 5-6 player game with Friends founds as usual.
    g6 = founded_six()
    assert g6.phase is Phase.ROLL and all(g6.n_settlements[p] == 2 for p in range(6))


@pytest.mark.parametrize(
    "players, table",
    [
        (3, (6, 6, 6, 12, 12)),
        (4, (8, 8, 8, 16, 16)),
        (5, (10, 10, 10, 20, 20)),
        (6, (12, 12, 12, 24, 24)),
    ],
)
def test_F_SETUP_2_supply_by_player_count(players, table):
    """F-SETUP-2: Pavers/Traders/Merchants 2n each, Architects/Professors 4n each (42, 56, 70, 84 tokens)."""
    board = BOARD if players <= 4 else Board.five_six()
    g = Game(board, players=players, seed=1, rules=FR)
    merchants, traders, pavers, professors, architects = table
    st = fs(g)
    assert st["supply"][MERCHANTS.value] == merchants
    assert st["supply"][TRADERS.value] == traders
    assert st["supply"][PAVERS.value] == pavers
    assert st["supply"][PROFESSORS.value] == professors
    assert st["supply"][ARCHITECTS.value] == architects
    assert sum(st["supply"]) == 14 * players == MODULES["friends"].favour_total(g)
    assert st["tokens"] == [[0] * 5 for _ in range(players)]


def test_F_SETUP_3_only_the_supply_face_down_and_shuffled():
    """F-SETUP-3: draws come from exactly the supply tokens, in a seeded random (shuffled) order."""
    orders = []
    for seed in (1, 2, 3):
        g = new_game(seed=seed)
        start = list(fs(g)["supply"])
        drawn = []
        while True:
            got = F.draw_favour(g, RED)
            if got is None:
                break
            drawn.append(got)
        assert [drawn.count(x) for x in Guild] == start  # every token drawn once, no others
        assert fs(g)["supply"] == [0] * 5 and fs(g)["tokens"][RED] == start
        assert_conserved(g)
        orders.append(drawn)
    assert len({tuple(o) for o in orders}) == 3  # shuffled: each seed gives another order
    # Face down: the first draws mix the guilds rather than following the table's order.
    assert len(set(orders[0][:10])) >= 3
    # Same seed, same order (the draws come from the game's own generator).
    g = new_game(seed=1)
    assert [F.draw_favour(g, RED) for _ in range(20)] == orders[0][:20]


# ============================================================================ earning


def test_F_EARN_1_a_favour_is_one_token_from_the_supply_and_none_once_empty():
    """F-EARN-1: a favour is one token taken from the supply; DECISION: an empty supply pays nothing. Decision A-22."""
    g = new_game()
    to_main(g, RED)
    before = list(fs(g)["supply"])
    g.play(OfferGift(BLUE, WOOL))
    g.play(AcceptGift())
    after = fs(g)["supply"]
    assert sum(before) - sum(after) == 1
    (g_drawn,) = [x for x in Guild if before[x.value] != after[x.value]]
    assert fs(g)["tokens"][RED] == [int(x is g_drawn) for x in Guild]
    assert_conserved(g)
    # Empty the supply into orange's hands: a second favour is owed but nothing is paid.
    for x in Guild:
        give(g, ORANGE, x, fs(g)["supply"][x.value])
    next_main(g, RED)
    g.play(OfferGift(BLUE, WOOL) if g.hands[RED][WOOL.value] else OfferGift(BLUE, BRICK))
    g.play(AcceptGift())
    assert held(g, RED) == 1 and fs(g)["earned"][RED] == 1
    assert_conserved(g)


def _robber_game() -> Game:
    g = founded()
    g.play(RollDice(SEVEN))
    assert g.phase is Phase.MOVE_ROBBER and g.robber == DESERT
    return g


def test_F_EARN_2_robber_to_an_empty_hex_earns_exactly_one():
    """F-EARN-2: a 7 moving the robber to a hex with no building earns the mover exactly 1 favour."""
    g = _robber_game()
    supply = sum(fs(g)["supply"])
    g.play(MoveRobber(EMPTY_HEX))
    assert holdings(g) == [1, 0, 0, 0]
    assert sum(fs(g)["supply"]) == supply - 1
    assert sum(fs(g)["fresh"][RED]) == 1  # received this turn (F-USE-4)
    assert_conserved(g)


@pytest.mark.parametrize(
    "move",
    [MoveRobber(RED_BLUE_HEX, BLUE), MoveRobber(RED_BLUE_HEX), MoveRobber(RED_ONLY_HEX)],
    ids=["occupied-steal", "occupied-no-steal", "own-building-only"],
)
def test_F_EARN_2_robber_to_an_occupied_hex_earns_nothing(move):
    """F-EARN-2: a hex with any settlement or city on a corner (even the mover's own) earns nothing."""
    g = _robber_game()
    g.play(move)
    assert holdings(g) == [0, 0, 0, 0]
    assert fs(g)["supply"] == [8, 8, 8, 16, 16]


def test_F_EARN_2_robber_moved_by_a_knight_earns_too():
    """F-EARN-2: a knight moving the robber to an empty hex earns 1 favour (before the roll here)."""
    g = founded()
    g.deck[DevCard.KNIGHT.value] -= 1
    g.dev[RED][DevCard.KNIGHT.value] += 1  # an old knight
    g.play(PlayKnight())
    g.play(MoveRobber(EMPTY_HEX))
    assert g.phase is Phase.ROLL
    assert holdings(g) == [1, 0, 0, 0]
    assert_conserved(g)


def _desert_game() -> Game:
    """Blue to move the robber to the desert (red's 18 and blue's 30 on its corners; red holds cards)."""
    g = _robber_game()
    g.play(MoveRobber(RED_ONLY_HEX))  # red earns nothing: hex 4 holds red's 18
    g.play(EndTurn())
    g.play(RollDice(SEVEN))
    assert g.phase is Phase.MOVE_ROBBER and g.active_player == BLUE
    assert g.robber_victims(DESERT) == [RED]
    return g


def test_F_EARN_3_desert_without_stealing_earns_one():
    """F-EARN-3: moving the robber to the desert and choosing not to steal earns exactly 1 favour."""
    g = _desert_game()
    g.play(MoveRobber(DESERT))
    assert holdings(g) == [0, 1, 0, 0]
    assert_conserved(g)


def test_F_EARN_3_desert_with_stealing_earns_nothing():
    """F-EARN-3: stealing on the (occupied) desert earns no favour."""
    g = _desert_game()
    g.play(MoveRobber(DESERT, RED))
    assert holdings(g) == [0, 0, 0, 0]
    assert sum(g.hands[BLUE]) == 3  # lumber, grain from the founding + the stolen card


def test_F_EARN_2_empty_desert_counts_once():
    """F-EARN-2, F-EARN-3: an empty desert is an empty hex; it pays 1, not 2."""
    g = new_game()  # beginner start: the desert (hex 9) has no building on a corner
    assert all(g.node_owner[v] < 0 for v in BOARD.topology.hex_nodes[DESERT])
    g.play(RollDice(SEVEN))
    g.play(MoveRobber(BOARD.hex_at(1, 1).id))  # white's 12 is on a corner: nothing
    assert holdings(g) == [0] * 4
    g.play(EndTurn())
    g.play(RollDice(SEVEN))
    g.play(MoveRobber(DESERT))
    assert holdings(g) == [0, 1, 0, 0]


def test_F_EARN_4_accepted_gift_earns_the_giver_one_favour():
    """F-EARN-4: a gift of 1 resource card to a player with no more visible VP earns the giver 1 favour."""
    g = new_game()
    to_main(g, RED)
    red, blue = list(g.hands[RED]), list(g.hands[BLUE])
    g.play(OfferGift(BLUE, WOOL))
    assert g.phase is Phase.GIFT_RESPONSE and g.current_player == BLUE
    assert g.legal_actions() == [AcceptGift(), RefuseGift()]
    illegal(g, EndTurn(), "B-TURN-9")  # the giver waits for the answer
    g.play(AcceptGift())
    assert g.phase is Phase.MAIN and g.current_player == RED
    assert g.hands[RED][WOOL.value] == red[WOOL.value] - 1
    assert g.hands[BLUE][WOOL.value] == blue[WOOL.value] + 1
    assert sum(g.hands[RED]) == sum(red) - 1 and sum(g.hands[BLUE]) == sum(blue) + 1
    assert holdings(g) == [1, 0, 0, 0] and fs(g)["earned"] == [1, 0, 0, 0]
    assert_conserved(g)


def test_F_EARN_4_gift_eligibility_by_visible_vp():
    """F-EARN-4: only to a player whose visible VP are at most the giver's; hidden VP cards do not count."""
    g = new_game()
    to_main(g, RED)
    # Blue holds a hidden VP card: 3 VP, but 2 visible, like red: still eligible.
    g.deck[DevCard.VICTORY_POINT.value] -= 1
    g.dev[BLUE][DevCard.VICTORY_POINT.value] += 1
    assert g.vp(BLUE) == 3 and g.vp(BLUE, visible=True) == 2
    assert OfferGift(BLUE, WOOL) in g.legal_actions()
    # White takes a Catan token (1 visible VP): 3 visible > red's 2.
    fs(g)["catan_left"] -= 1
    fs(g)["catan_tokens"][WHITE] += 1
    assert not any(isinstance(a, OfferGift) and a.to == WHITE for a in g.legal_actions())
    illegal(g, OfferGift(WHITE, WOOL), "F-EARN-4")
    illegal(g, OfferGift(RED, WOOL), "F-EARN-4")  # not to oneself
    illegal(g, OfferGift(7, WOOL), "F-EARN-4")  # no such seat
    assert g.hands[RED][ORE.value] == 0
    illegal(g, OfferGift(BLUE, ORE), "F-EARN-4")  # a card the giver does not hold
    illegal(g, AcceptGift(), "F-EARN-4")  # nothing on offer
    illegal(g, RefuseGift(), "F-EARN-4")
    gifts = {(a.to, a.resource) for a in g.legal_actions() if isinstance(a, OfferGift)}
    have = [r for r in Resource if g.hands[RED][r.value]]
    assert gifts == {(q, r) for q in (BLUE, ORANGE) for r in have}


def test_F_EARN_4_gift_only_in_ones_own_turn():
    """F-EARN-4: gifts are offered in one's own turn (not while a robber move is pending, not by others)."""
    g = new_game()
    g.play(RollDice(SEVEN))
    assert g.phase is Phase.MOVE_ROBBER
    illegal(g, OfferGift(BLUE, WOOL), "F-EARN-4")
    assert not friends_actions(g.legal_actions())


def test_F_EARN_5_refused_gift_goes_to_another_player_but_not_the_same():
    """F-EARN-5: a refused gift may go to another eligible player, not back to the one who refused. Decision A-23."""
    g = new_game()
    to_main(g, RED)
    hands = [list(h) for h in g.hands]
    g.play(OfferGift(BLUE, WOOL))
    g.play(RefuseGift())
    assert g.phase is Phase.MAIN and g.current_player == RED
    assert [list(h) for h in g.hands] == hands and holdings(g) == [0] * 4  # nothing moved, no favour
    illegal(g, OfferGift(BLUE, WOOL), "F-EARN-5")
    illegal(g, OfferGift(BLUE, BRICK), "F-EARN-5")
    assert not any(isinstance(a, OfferGift) and a.to == BLUE for a in g.legal_actions())
    g.play(OfferGift(WHITE, BRICK))
    g.play(AcceptGift())
    assert holdings(g) == [1, 0, 0, 0]
    assert g.hands[WHITE][BRICK.value] == hands[WHITE][BRICK.value] + 1


def test_F_EARN_5_at_most_one_card_given_per_turn():
    """F-EARN-5: after one accepted gift, no further gift that turn; the next own turn allows one again."""
    g = new_game()
    to_main(g, RED)
    g.play(OfferGift(BLUE, WOOL))
    g.play(AcceptGift())
    illegal(g, OfferGift(WHITE, WOOL), "F-EARN-5")
    illegal(g, OfferGift(BLUE, BRICK), "F-EARN-5")
    assert not any(isinstance(a, OfferGift) for a in g.legal_actions())
    next_main(g, RED)
    deal(g, RED, grain=1)
    g.play(OfferGift(WHITE, GRAIN))
    g.play(AcceptGift())
    assert fs(g)["earned"][RED] == 2


def test_F_EARN_6_districts_are_connected_groups():
    """F-EARN-6: a district is a largest connected set of one player's pieces (red has two)."""
    g = new_game()
    assert sorted(map(sorted, districts(g, RED))) == [[13, 18], [22, 28]]
    assert sorted(map(sorted, districts(g, BLUE))) == [[14, 19], [34, 39]]
    to_main(g, RED)
    road(g, RED, 18, 23)
    road(g, RED, 23, 17)  # 17 holds white's road 12-17: red joins white's district
    assert holdings(g) == [3, 0, 1, 0]
    assert len(districts(g, RED)) == 2
    road(g, RED, 17, 22)  # joins red's own two districts into one: no favour for that
    assert sorted(map(sorted, districts(g, RED))) == [[13, 17, 18, 22, 23, 28]]
    assert holdings(g) == [3, 0, 1, 0]


def test_F_EARN_7_join_pays_builder_three_and_other_one():
    """F-EARN-7: red's road 28-34 first joins red's district to blue's: red +3, blue +1."""
    g = new_game()
    to_main(g, RED)
    supply = sum(fs(g)["supply"])
    road(g, RED, 28, 34)
    assert holdings(g) == [3, 1, 0, 0]
    assert fs(g)["earned"] == [3, 1, 0, 0]
    assert sum(fs(g)["supply"]) == supply - 4
    assert sum(fs(g)["fresh"][RED]) == 3 and sum(fs(g)["fresh"][BLUE]) == 1
    assert_conserved(g)


def test_F_EARN_8_same_pair_again_nothing_different_pair_again():
    """F-EARN-8: re-joining the same two districts elsewhere earns nothing; a different pair earns again."""
    g = new_game()
    to_main(g, RED)
    road(g, RED, 18, 24)  # 24 only borders blue's 19 (F-EARN-11): no join
    assert holdings(g) == [0, 0, 0, 0]
    road(g, RED, 24, 19)  # meets blue's road 14-19 at 19: first join of red {13,18} and blue {14,19}
    assert holdings(g) == [3, 1, 0, 0]
    road(g, RED, 13, 9)
    road(g, RED, 9, 14)  # the same two districts again, at blue's settlement 14
    assert holdings(g) == [3, 1, 0, 0]
    road(g, RED, 28, 34)  # red {22,28} and blue {34,39}: a different pair of the same two players
    assert holdings(g) == [6, 2, 0, 0]
    assert_conserved(g)


def test_F_EARN_9_one_road_joining_two_other_players():
    """F-EARN-9: a road joining blue's and white's districts at once: red +3 only, blue +1, white +1."""
    g = new_game()
    to_main(g, WHITE)
    road(g, WHITE, 25, 19)  # white meets blue at 19: white +3, blue +1
    assert holdings(g) == [0, 1, 3, 0]
    next_main(g, RED)
    road(g, RED, 18, 24)
    assert holdings(g) == [0, 1, 3, 0]
    assert sorted(joins(g, RED, p_(18, 24))) == []
    road(g, RED, 24, 19)  # 19 holds blue's and white's roads
    assert holdings(g) == [3, 2, 4, 0]
    assert fs(g)["earned"] == [3, 2, 4, 0]
    assert_conserved(g)


def test_F_EARN_10_no_favours_for_joins_in_the_founding_phase():
    """F-EARN-10: red's and blue's founding roads meet at 24 (a join), but the founding pays nothing. Decision A-21."""
    g = founded()
    assert g.road_owner(p_(18, 24)) == RED and g.road_owner(p_(19, 24)) == BLUE
    assert holdings(g) == [0] * 4 and fs(g)["earned"] == [0] * 4
    assert fs(g)["supply"] == [8, 8, 8, 16, 16]
    # The founding join stays made: a later road of red through 24 does not pay for it.
    g.play(RollDice(QUIET_DICE))
    road(g, RED, 24, 30)  # ...but reaching blue's other district (settlement 30) is a new join
    assert holdings(g) == [3, 1, 0, 0]


def test_F_EARN_11_joined_means_sharing_an_intersection():
    """F-EARN-11: joined = an intersection holds a piece of each; adjacency alone is not a join. Decision A-22."""
    g = new_game()
    to_main(g, RED)
    road(g, RED, 18, 24)  # 24 is next to blue's 19 and road 14-19, but shares no intersection with them
    assert holdings(g) == [0] * 4
    assert joins(g, RED, p_(18, 24)) == []
    road(g, RED, 24, 19)  # 19: an empty intersection holding blue's road -> joined
    assert joins(g, RED, p_(24, 19)) == [BLUE]  # what that road joined, judged without it
    assert holdings(g) == [3, 1, 0, 0]
    road(g, RED, 24, 30)  # extends red's district; 30 holds nobody
    assert holdings(g) == [3, 1, 0, 0]


def test_F_EARN_12_road_building_roads_count_for_joins():
    """F-EARN-12: free roads from a Road Building card count for joins."""
    g = new_game()
    g.deck[DevCard.ROAD_BUILDING.value] -= 1
    g.dev[RED][DevCard.ROAD_BUILDING.value] += 1  # an old card
    to_main(g, RED)
    hand = list(g.hands[RED])
    g.play(PlayRoadBuilding())
    g.play(BuildRoad(p_(28, 34)))
    assert holdings(g) == [3, 1, 0, 0]
    g.play(EndRoadBuilding())
    assert g.hands[RED] == hand


def test_F_EARN_12_pavers_roads_count_for_joins():
    """F-EARN-12, F-GUILD-3: a Pavers' road counts for a join: red pays 1 shovel and earns 3, blue 1."""
    g = new_game()
    give(g, RED, PAVERS)
    to_main(g, RED)
    hand = list(g.hands[RED])
    g.play(UsePavers(p_(28, 34)))
    assert fs(g)["earned"] == [3, 1, 0, 0]
    assert holdings(g) == [3, 1, 0, 0]  # 1 shovel on the board, 3 new tokens
    assert fs(g)["board"] == [0, 0, 1, 0, 0]
    assert g.hands[RED] == hand and g.road_owner(p_(28, 34)) == RED
    assert_conserved(g)


# ============================================================================ decisions (docs/friends.md)


def _desert_with(owner: int, cards: bool) -> Game:
    """Red to move the robber back to the desert, whose only building is ``owner``'s settlement 23."""
    g = new_game()
    g.place(owner, "settlement", 23)  # a corner of the desert (hex 9), a test position
    g.play(RollDice(SEVEN))
    g.play(MoveRobber(BOARD.hex_at(1, 1).id))  # away from the desert first (white's 12 there: no favour)
    g.play(EndTurn())
    to_roll(g, RED)
    if not cards:
        for r in range(5):
            g.bank[r] += g.hands[owner][r]
            g.hands[owner][r] = 0
    g.play(RollDice(SEVEN))
    assert g.phase is Phase.MOVE_ROBBER and g.active_player == RED
    return g


@pytest.mark.parametrize("owner,cards", [(RED, True), (BLUE, False)], ids=["movers-own-building", "owner-without-cards"])
def test_F_EARN_3_DECISION_desert_with_nobody_to_rob_pays(owner, cards):
    """F-EARN-3 DECISION (docs/friends.md): the robber moved to the desert without a steal pays 1 favour
    also when nobody could be robbed there: the desert touches only the mover's buildings, or only
    players without cards (F-EARN-2 does not pay: the hex has a building)."""
    g = _desert_with(owner, cards)
    assert g.robber_victims(DESERT) == []
    before = holdings(g)
    g.play(MoveRobber(DESERT))
    assert holdings(g) == [before[0] + 1, *before[1:]]
    assert_conserved(g)


def test_F_EARN_6_DECISION_an_opponents_building_does_not_split_a_district():
    """F-EARN-6 DECISION (docs/friends.md): a player's pieces that meet at an intersection holding an
    opponent's building are one district (unlike a road for B-LR-2); and a road ending at an
    opponent's building joins the two districts (F-EARN-11: the intersection holds a piece of each)."""
    g = new_game()
    to_main(g, RED)
    road(g, RED, 13, 9)
    road(g, RED, 9, 14)  # ends at blue's settlement 14 (B-BUILD-5): red {13,18,9,14} joins blue {14,19}
    assert holdings(g) == [3, 1, 0, 0]
    g.place(RED, "road", p_(14, 10))  # a test position: a red road on the far side of blue's 14
    assert sorted(map(sorted, districts(g, RED))) == [[9, 10, 13, 14, 18], [22, 28]]
    assert g.longest_road(RED) == 3  # for B-LR-2 blue's 14 still splits the road: 18-13-9-14


def test_F_EARN_11_DECISION_a_road_merging_own_districts_one_already_joined_earns_nothing():
    """F-EARN-11 DECISION (docs/friends.md): A is the builder's district the road belongs to, as it stood
    just before the road: the union of the districts it connects.  Red's {13,17,18,23} already shares
    17 with white; the road 17-22 merges it with red's {22,28}, which never touched white: no favours."""
    g = new_game()
    to_main(g, RED)
    road(g, RED, 18, 23)
    road(g, RED, 23, 17)  # 17 holds white's road 12-17: red +3, white +1
    assert holdings(g) == [3, 0, 1, 0]
    assert joins(g, RED, p_(17, 22)) == []
    road(g, RED, 17, 22)
    assert holdings(g) == [3, 0, 1, 0]
    assert sorted(map(sorted, districts(g, RED))) == [[13, 17, 18, 22, 23, 28]]


# ------------------------------------------------------------- the Explorer (H-CARD-9) and F-EARN-8/11
FH = Rules(modules=("friends", "helpers"))


def _explorer_game() -> Game:
    """Friends + Helpers, beginner start (red holds the Explorer, A4): blue's district {9,14,19,24}
    (roads 9-14, 14-19, 19-24); red's dead-end road 18-24 joined it at 24 (red +3, blue +1); red to build."""
    g = Game(BOARD, players=4, seed=7, start="beginner", rules=FH)
    assert g.ext["helpers"]["held"][RED] == HelperCard.EXPLORER.value
    g.place(BLUE, "road", p_(19, 24))
    g.place(BLUE, "road", p_(9, 14))
    g.place(RED, "road", p_(18, 24))
    assert holdings(g) == [3, 1, 0, 0]
    _fh_main(g)
    return g


def _fh_main(g: Game) -> None:
    """Play on (quiet rolls, helper reactions declined) until red's next build phase."""
    if g.active_player == RED and g.phase is Phase.MAIN:
        g.play(EndTurn())
    while not (g.active_player == RED and g.phase is Phase.MAIN):
        acts = g.legal_actions()
        if g.phase is Phase.ROLL:
            g.play(RollDice(dice=QUIET_DICE))
        elif DeclineHelper() in acts:
            g.play(DeclineHelper())
        else:
            g.play(EndTurn())


def _explore(g: Game, source: tuple[int, int], target: tuple[int, int]) -> None:
    """Red uses the Explorer (either side) in its build phase, then turns the card over."""
    g.play(UseExplorer(p_(*source), p_(*target)))
    g.play(FlipHelper() if FlipHelper() in g.legal_actions() else ExchangeHelper(HelperCard.GENERAL))


def test_F_EARN_8_DECISION_explorer_move_onto_the_same_district_earns_nothing():
    """F-EARN-8, F-EARN-11 DECISION (issue 24, item 12): a road moved by the Explorer is judged as it
    stood before it was lifted.  Red's 18-24 touched blue's district at 24; moved to 13-9 it touches the
    same district at 9: nothing is paid (the engine paid red 3 and blue 1 again)."""
    g = _explorer_game()
    _explore(g, (18, 24), (13, 9))
    assert g.road_owner(p_(13, 9)) == RED and g.road_owner(p_(18, 24)) is None
    assert holdings(g) == [3, 1, 0, 0]


def test_F_EARN_8_DECISION_explorer_back_and_forth_earns_nothing():
    """F-EARN-8 DECISION: moving a road away from a district (to 22-16, touching nobody) and back (to
    18-24, blue's district again, a turn later) earns nothing; neither does building another road
    that joins the same two districts; a different district of blue's earns as usual."""
    g = _explorer_game()
    _explore(g, (18, 24), (22, 16))
    assert holdings(g) == [3, 1, 0, 0]
    _fh_main(g)
    _explore(g, (22, 16), (18, 24))  # the Explorer's B side
    assert holdings(g) == [3, 1, 0, 0]
    g.place(RED, "road", p_(18, 23))  # ...and once more by building: still the same two districts
    g.remove("road", p_(18, 24))  # (test position: the road lifted again)
    road(g, RED, 13, 9)  # red {13,18,23} and blue {9,14,19,24} again
    assert holdings(g) == [3, 1, 0, 0]
    road(g, RED, 28, 34)  # blue's other district {34,39}: a different pair earns (F-EARN-8)
    assert holdings(g) == [6, 2, 0, 0]


def test_F_EARN_8_explorer_move_to_a_different_district_earns():
    """F-EARN-8: a road moved onto a district its owner never joined earns as a built road would
    (F-EARN-7, F-EARN-12): red's 18-24 moved to 28-34 meets blue's other district {34,39}."""
    g = _explorer_game()
    _explore(g, (18, 24), (28, 34))
    assert holdings(g) == [6, 2, 0, 0]


def test_F_EARN_8_explorer_moves_in_random_games_never_rejoin():
    """F-EARN-8, F-EARN-11 in seeded Friends + Helpers games: after every Explorer move, moving the road
    straight back (on a copy) earns nothing, and the move itself pays only for a district that its
    owner's pieces, with the road still in its old place, did not touch."""
    moves = 0
    for seed in range(4):
        g = Game(Board.random(seed=seed), players=4, seed=seed, rules=FH)
        bots = [RandomBot(seed * 10 + q) for q in range(4)]
        while not g.is_over and g.turn < 400:
            a = bots[g.current_player].choose(g)
            if isinstance(a, UseExplorer):
                moves += 1
                p = g.current_player
                t = g.topology
                before = g.copy()
                earned = list(fs(g)["earned"])
                g.play(a)
                paid = fs(g)["earned"][p] - earned[p]
                # reference: the districts touching the target's ends, against the old position
                mine = set().union(*(F._district_nodes(before, p, x) for x in t.edge_nodes[a.target]
                                     if F._has_piece(before, p, x)))
                fresh = {q for w in t.edge_nodes[a.target] for q in range(g.n)
                         if q != p and F._has_piece(g, q, w) and not F._district_nodes(g, q, w) & mine}
                assert not paid or fresh, (seed, a)
                back = g.copy()
                back_earned = list(fs(back)["earned"])
                back.remove("road", a.target)
                back.place(p, "road", a.source)
                assert fs(back)["earned"] == back_earned, (seed, a)
            else:
                g.play(a)
    assert moves >= 5


# ============================================================================ using


def _red_main(**tokens) -> Game:
    """Red in its build phase holding old (usable) tokens, e.g. ``_red_main(traders=1)``."""
    g = new_game()
    for name, k in tokens.items():
        give(g, RED, Guild[name.upper()], k)
    to_main(g, RED)
    return g


GUILD_USE = {
    MERCHANTS: UseMerchants(((BRICK, ORE),)),
    TRADERS: UseTraders(ORE),
    PAVERS: UsePavers(p_(18, 24)),
    PROFESSORS: UseProfessors(card=DevCard.KNIGHT),
    ARCHITECTS: UseArchitects(),
}


def test_F_USE_1_use_or_exchange_once_per_turn():
    """F-USE-1: one use or one exchange per own turn; the next own turn allows one again."""
    g = _red_main(merchants=2, traders=2)
    assert any(isinstance(a, UseTraders) for a in g.legal_actions())
    g.play(UseTraders(ORE))
    assert not uses(g.legal_actions())
    illegal(g, UseTraders(ORE), "F-USE-1")
    illegal(g, UseMerchants(((BRICK, ORE),)), "F-USE-1")
    illegal(g, ExchangeFavour(), "F-USE-1")
    next_main(g, RED)
    g.play(ExchangeFavour(drawn=PAVERS))
    g.play(ReturnFavour(PAVERS))
    illegal(g, UseTraders(ORE), "F-USE-1")
    illegal(g, ExchangeFavour(), "F-USE-1")
    next_main(g, RED)
    g.play(UseMerchants(((BRICK, ORE),)))


def test_F_USE_1_not_in_another_players_turn():
    """F-USE-1: favours are used in one's own turn only (blue holds tokens in red's turn)."""
    g = new_game()
    give(g, BLUE, TRADERS)
    g.play(OfferGift(BLUE, WOOL))  # blue acts now, but it is red's turn
    illegal(g, UseTraders(ORE), "F-USE-1")
    illegal(g, ExchangeFavour(), "F-USE-1")
    g.play(RefuseGift())


def test_F_USE_2_used_tokens_stay_on_the_guild_board():
    """F-USE-2: used tokens lie on the guild board and never return to the supply; the effect is at once.
    Decision A-22."""
    g = _red_main(professors=2, traders=1)
    supply = list(fs(g)["supply"])
    g.play(UseProfessors(card=DevCard.MONOPOLY))
    assert g.dev[RED][DevCard.MONOPOLY.value] == 1  # at once
    assert fs(g)["board"] == [0, 0, 0, 2, 0]
    assert fs(g)["tokens"][RED] == [0, 1, 0, 0, 0]
    assert fs(g)["supply"] == supply
    assert_conserved(g)
    for _ in range(2):  # whole rounds later, still on the board
        next_main(g, RED)
    g.play(UseTraders(LUMBER))
    assert fs(g)["board"] == [0, 1, 0, 2, 0] and fs(g)["supply"] == supply
    assert_conserved(g)


@pytest.mark.parametrize("guild", list(Guild), ids=lambda x: x.name.lower())
def test_F_USE_3_prices(guild):
    """F-USE-3: Merchants 1 cart, Traders 1 ship, Pavers 1 shovel, Professors 2 books, Architects 2 compasses."""
    price = GUILD_PRICE[guild]
    assert price == {MERCHANTS: 1, TRADERS: 1, PAVERS: 1, PROFESSORS: 2, ARCHITECTS: 2}[guild]
    action = GUILD_USE[guild]
    g = _red_main(**{guild.name.lower(): price - 1})
    illegal(g, action, "F-USE-3")
    assert not any(isinstance(a, type(action)) for a in g.legal_actions())
    give(g, RED, guild)  # now exactly the price (an old token given in setup)
    fs(g)["fresh"][RED][guild.value] = 0
    assert any(isinstance(a, type(action)) for a in g.legal_actions())
    g.play(action)
    assert fs(g)["tokens"][RED][guild.value] == 0
    assert fs(g)["board"][guild.value] == price
    assert_conserved(g)


@pytest.mark.parametrize("guild", list(Guild), ids=lambda x: x.name.lower())
def test_F_USE_4_not_in_the_turn_received(guild):
    """F-USE-4: tokens received this turn cannot be used; from the next own turn they can."""
    g = new_game()
    to_main(g, RED)
    give(g, RED, guild, GUILD_PRICE[guild], fresh=True)
    action = GUILD_USE[guild]
    illegal(g, action, "F-USE-4")
    assert not any(isinstance(a, type(action)) for a in g.legal_actions())
    next_main(g, RED)
    assert fs(g)["fresh"][RED] == [0] * 5
    deal(g, RED, brick=1)
    assert any(isinstance(a, type(action)) for a in g.legal_actions())
    g.play(action)
    assert fs(g)["board"][guild.value] == GUILD_PRICE[guild]


def test_F_USE_4_tokens_earned_by_a_join_wait_a_turn():
    """F-USE-4: the 3 tokens of a join this turn are not usable now; blue's 1 (earned in red's turn) is in blue's."""
    g = new_game()
    to_main(g, RED)
    road(g, RED, 28, 34)
    toks = fs(g)["tokens"][RED]
    assert sum(toks) == 3
    assert not uses([a for a in g.legal_actions() if not isinstance(a, ExchangeFavour)])
    for guild in Guild:
        if toks[guild.value] >= GUILD_PRICE[guild]:
            illegal(g, GUILD_USE[guild], "F-USE-4")
        else:
            illegal(g, GUILD_USE[guild], "F-USE-3")
    g.play(EndTurn())
    g.play(RollDice(QUIET_DICE))  # blue's turn: blue's token from red's turn is usable
    (bg,) = [x for x in Guild if fs(g)["tokens"][BLUE][x.value]]
    assert F.usable(g, BLUE, bg) == 1
    next_main(g, RED)
    assert all(F.usable(g, RED, x) == toks[x.value] for x in Guild)


def test_F_USE_6_exchange_may_return_the_drawn_token():
    """F-USE-6: draw 1 face-down token, then return any one of one's own, possibly the one just drawn."""
    g = _red_main(merchants=1)
    supply = list(fs(g)["supply"])
    assert ExchangeFavour() in g.legal_actions()
    g.play(ExchangeFavour(drawn=ARCHITECTS))
    assert g.phase is Phase.FAVOUR_EXCHANGE and g.current_player == RED
    assert fs(g)["tokens"][RED] == [1, 0, 0, 0, 1]
    assert g.legal_actions() == [ReturnFavour(MERCHANTS), ReturnFavour(ARCHITECTS)]
    illegal(g, ReturnFavour(PAVERS), "F-USE-6")  # not held
    illegal(g, EndTurn(), "B-TURN-9")  # the exchange must finish first
    g.play(ReturnFavour(ARCHITECTS))
    assert g.phase is Phase.MAIN
    assert fs(g)["tokens"][RED] == [1, 0, 0, 0, 0] and fs(g)["supply"] == supply
    assert_conserved(g)


def test_F_USE_6_exchange_a_held_token_for_the_drawn_one():
    """F-USE-6: returning an old token keeps the drawn one (received this turn: F-USE-4)."""
    g = _red_main(merchants=1)
    g.play(ExchangeFavour(drawn=TRADERS))
    g.play(ReturnFavour(MERCHANTS))
    assert fs(g)["tokens"][RED] == [0, 1, 0, 0, 0]
    assert fs(g)["fresh"][RED] == [0, 1, 0, 0, 0]
    assert fs(g)["supply"] == [8, 7, 8, 16, 16]
    assert_conserved(g)
    next_main(g, RED)
    g.play(UseTraders(ORE))


def test_F_USE_6_exchange_before_the_roll_and_refusals():
    """F-USE-6: an exchange before the roll returns to the roll; no return outside an exchange; supply limits."""
    g = new_game()
    give(g, RED, MERCHANTS)
    illegal(g, ReturnFavour(MERCHANTS), "F-USE-6")
    fs(g)["supply"][ARCHITECTS.value] -= 16
    fs(g)["tokens"][ORANGE][ARCHITECTS.value] += 16
    illegal(g, ExchangeFavour(drawn=ARCHITECTS), "F-USE-6")  # none of those left face down
    g.play(ExchangeFavour(drawn=PROFESSORS))
    g.play(ReturnFavour(MERCHANTS))
    assert g.phase is Phase.ROLL
    g2 = new_game()
    give(g2, RED, MERCHANTS)
    for x in Guild:
        give(g2, ORANGE, x, fs(g2)["supply"][x.value])
    illegal(g2, ExchangeFavour(), "F-USE-6")  # the supply is empty
    assert ExchangeFavour() not in g2.legal_actions()


def test_F_USE_6_no_exchange_without_a_token():
    """F-USE-6, F-USE-1: exchanging a favour token needs a token to exchange (as legal_actions says)."""
    g = new_game()
    assert held(g, RED) == 0 and ExchangeFavour() not in g.legal_actions()
    before = g.state()
    with pytest.raises(IllegalActionError) as info:
        g.play(ExchangeFavour())
    assert info.value.rule == "F-USE-6" and g.state() == before


def test_F_USE_7_tokens_are_never_given_or_traded():
    """F-USE-7: no action moves favour tokens between players; gifts and trades move resource cards only."""
    player_fields = {"to", "partner", "victim", "player"}
    for name, cls in ACTION_TYPES.items():
        hints = typing.get_type_hints(cls)
        names = {f.name for f in fields(cls)}
        if names & player_fields:
            assert not any("Guild" in str(hints[n]) for n in names), name
    g = new_game()
    give(g, RED, MERCHANTS, 2)
    give(g, BLUE, TRADERS, 1)
    to_main(g, RED)
    # A gift of a token is not a resource card.
    before = g.state()
    with pytest.raises(ValueError):
        g.play(OfferGift(BLUE, MERCHANTS))
    assert g.state() == before
    # A domestic offer is 5 resource counts; no sixth "token" count.
    illegal(g, OfferTrade((0, 1, 0, 0, 0, 1), (0, 0, 0, 0, 1, 0)), "B-TRADE-4")
    blue_tokens = list(fs(g)["tokens"][BLUE])
    g.play(OfferGift(BLUE, WOOL))
    g.play(AcceptGift())
    assert fs(g)["tokens"][BLUE] == blue_tokens  # the receiver gets a card, never a token
    assert fs(g)["tokens"][RED][MERCHANTS.value] == 2 and held(g, RED) == 3  # the giver's favour is from the supply
    assert_conserved(g)


# ============================================================================ guilds


def test_F_GUILD_1_merchants_two_swaps_in_one_use():
    """F-GUILD-1: 1 cart swaps up to 2 of one's cards for others from the bank, in the same use."""
    g = _red_main(merchants=2)
    deal(g, RED, lumber=2)
    hand, bank = list(g.hands[RED]), list(g.bank)
    g.play(UseMerchants(((LUMBER, ORE), (LUMBER, GRAIN))))
    assert g.hands[RED][LUMBER.value] == hand[LUMBER.value] - 2
    assert g.hands[RED][ORE.value] == hand[ORE.value] + 1 and g.hands[RED][GRAIN.value] == hand[GRAIN.value] + 1
    assert g.bank[LUMBER.value] == bank[LUMBER.value] + 2
    assert g.bank[ORE.value] == bank[ORE.value] - 1 and g.bank[GRAIN.value] == bank[GRAIN.value] - 1
    assert sum(g.hands[RED]) == sum(hand)
    assert fs(g)["tokens"][RED][MERCHANTS.value] == 1 and fs(g)["board"][MERCHANTS.value] == 1
    illegal(g, UseMerchants(((ORE, LUMBER),)), "F-USE-1")  # no third swap this turn


def test_F_GUILD_1_merchants_refusals():
    """F-GUILD-1: 1 or 2 swaps, each for another resource, of cards held, with the bank able to pay."""
    g = _red_main(merchants=1)
    deal(g, RED, lumber=1)
    illegal(g, UseMerchants(()), "F-GUILD-1")
    illegal(g, UseMerchants(((LUMBER, ORE), (BRICK, ORE), (WOOL, ORE))), "F-GUILD-1")
    illegal(g, UseMerchants(((LUMBER, LUMBER),)), "F-GUILD-1")
    illegal(g, UseMerchants(((LUMBER, ORE), (LUMBER, GRAIN))), "F-GUILD-1")  # only 1 lumber
    illegal(g, UseMerchants(((ORE, LUMBER),)), "F-GUILD-1")  # holds no ore
    singles = [a for a in g.legal_actions() if isinstance(a, UseMerchants)]
    assert singles and all(len(a.swaps) == 1 for a in singles)
    # A chained pair: the second swap may give the card the first one took.
    g.play(UseMerchants(((LUMBER, ORE), (ORE, GRAIN))))
    assert g.hands[RED][LUMBER.value] == 0 and g.hands[RED][ORE.value] == 0


def test_F_GUILD_2_traders_take_any_card():
    """F-GUILD-2: 1 ship takes any 1 resource card from the bank; not one the bank lacks."""
    g = _red_main(traders=1)
    bank_ore = g.bank[ORE.value]
    deal(g, BLUE, ore=bank_ore)  # the bank runs out of ore
    illegal(g, UseTraders(ORE), "F-GUILD-2")
    assert UseTraders(ORE) not in g.legal_actions()
    hand = list(g.hands[RED])
    g.play(UseTraders(GRAIN))
    assert g.hands[RED][GRAIN.value] == hand[GRAIN.value] + 1 and sum(g.hands[RED]) == sum(hand) + 1
    assert fs(g)["tokens"][RED] == [0] * 5


def test_F_GUILD_2_traders_with_a_resource_name_is_atomic():
    """F-GUILD-2, F-USE-2: UseTraders('ore') is either refused (game unchanged) or gives the ore."""
    g = _red_main(traders=1)
    before = g.state()
    ore = g.hands[RED][ORE.value]
    try:
        g.play(UseTraders("ore"))
    except IllegalActionError:
        assert g.state() == before
        return
    finally:
        assert_conserved(g)
    assert g.hands[RED][ORE.value] == ore + 1 and fs(g)["board"][TRADERS.value] == 1


def test_F_GUILD_3_pavers_free_road_by_the_road_rules():
    """F-GUILD-3: 1 shovel builds a road free, where a paid road could go."""
    g = _red_main(pavers=1)
    empty = [0] * 5
    for h in g.hands:  # no cards at all: the road is free
        for r in range(5):
            g.bank[r] += h[r]
            h[r] = 0
    paved = sorted(a.path for a in g.legal_actions() if isinstance(a, UsePavers))
    assert paved == g.candidates(RED, "road")
    illegal(g, UsePavers(p_(13, 18)), "B-BUILD-3")  # occupied
    illegal(g, UsePavers(p_(45, 49)), "B-BUILD-4")  # not connected
    illegal(g, UsePavers(10_000), "B-BOARD-3")
    g.play(UsePavers(p_(18, 23)))
    assert g.road_owner(p_(18, 23)) == RED and g.hands[RED] == empty
    assert fs(g)["tokens"][RED] == [0] * 5 and fs(g)["board"][PAVERS.value] == 1


def test_F_GUILD_4_professors_card_follows_the_usual_rules():
    """F-GUILD-4: 2 books take a development card free; it cannot be played the turn it arrives (B-TURN-5)."""
    g = _red_main(professors=2)
    hand, deck = list(g.hands[RED]), sum(g.deck)
    g.play(UseProfessors(card=DevCard.KNIGHT))
    assert g.dev[RED][DevCard.KNIGHT.value] == 1 and sum(g.deck) == deck - 1
    assert g.hands[RED] == hand
    assert PlayKnight() not in g.legal_actions()
    illegal(g, PlayKnight(), "B-TURN-5")
    next_main(g, RED)
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER


def test_F_GUILD_4_professors_with_an_empty_deck():
    """F-GUILD-4: with the deck empty, the Professors have nothing to give (B-COMP-13)."""
    g = _red_main(professors=2)
    for c in range(len(DevCard)):
        g.dev[ORANGE][c] += g.deck[c]
        g.deck[c] = 0
    assert not any(isinstance(a, UseProfessors) for a in g.legal_actions())
    illegal(g, UseProfessors(), "B-COMP-13")


def test_F_GUILD_5_architects_catan_token_is_visible_vp():
    """F-GUILD-5: 2 compasses take a Catan token, 1 visible VP on display; none left -> refused. Decision A-24."""
    g = _red_main(architects=4)
    vis = g.vp(RED, visible=True)
    g.play(UseArchitects())
    assert g.vp(RED, visible=True) == vis + 1 and g.vp(RED) == vis + 1
    assert g.view(BLUE).visible_vp[RED] == vis + 1
    assert fs(g)["catan_tokens"][RED] == 1 and fs(g)["catan_left"] == 11
    assert_conserved(g)
    # Red now has more visible VP than blue: blue may not give red a gift.
    next_main(g, BLUE)
    illegal(g, OfferGift(RED, LUMBER), "F-EARN-4")
    # All 12 gone: the guild cannot be used.
    st = fs(g)
    for q in (BLUE, WHITE, ORANGE):
        take = min(4, st["catan_left"])
        st["catan_left"] -= take
        st["catan_tokens"][q] += take
    assert st["catan_left"] == 0
    next_main(g, RED)
    assert UseArchitects() not in g.legal_actions()
    illegal(g, UseArchitects(), "F-GUILD-5")
    assert_conserved(g)


# ============================================================================ the end


def test_F_END_1_target_is_eleven():
    """F-END-1: 10 VP do not win with Friends; reaching 11 in one's own turn does."""
    assert FRIENDS_VP_TO_WIN == 11 and new_game().vp_target == 11
    assert Game(BOARD, players=4, seed=1, start="beginner").vp_target == VP_TO_WIN == 10
    g = _red_main(architects=2)
    st = fs(g)
    st["catan_left"] -= 7
    st["catan_tokens"][RED] += 7  # 2 settlements + 7 = 9 VP
    road(g, RED, 18, 24)
    deal(g, RED, lumber=1, brick=1, wool=1, grain=1)
    g.play(BuildSettlement(24))
    assert g.vp(RED) == 10
    assert g.phase is Phase.MAIN and not g.is_over and g.winner is None
    g.play(UseArchitects())
    assert g.vp(RED) == 11
    assert g.is_over and g.winner == RED
    assert g.phase is Phase.GAME_OVER


def test_F_END_1_eleven_reached_outside_ones_turn_wins_at_its_start():
    """F-END-1 (with X56-SBP-7): 11 VP reached in the SBP win only when the player's own turn begins."""
    g = founded_six()
    st = fs(g)
    st["catan_left"] -= 8
    st["catan_tokens"][1] += 8  # seat 1: 2 settlements + 8 = 10 VP
    sbp(g)
    v = next(v for v, o in enumerate(g.node_owner) if o == 1)
    deal(g, 1, ore=3, grain=2)
    g.play(BuildCity(v))
    assert g.vp(1) == 11 and not g.is_over
    for _ in range(5):
        g.play(EndSpecialBuild())
    assert g.is_over and g.winner == 1


# ============================================================================ 5-6 players: the SBP


def _sbp_join_path(g: Game, seat: int) -> int:
    """A path where ``seat`` may build a road that joins another player's district (searched on copies)."""
    for e in g.candidates(seat, "road"):
        h = g.copy()
        deal(h, seat, lumber=1, brick=1)
        h.play(BuildRoad(e))
        if h.ext["friends"]["earned"][seat]:
            return e
    raise AssertionError("no joining road for this seed")


def test_X56_SBP_8_F_USE_5_no_favours_in_the_special_building_phase():
    """X56-SBP-8, F-USE-5: favours cannot be used or exchanged in the SBP; SBP tokens serve from one's next turn."""
    g = founded_six()
    give(g, 1, TRADERS)
    give(g, 1, ARCHITECTS, 2)
    sbp(g)
    assert not friends_actions(g.legal_actions())
    illegal(g, UseTraders(ORE), "F-USE-5")
    illegal(g, UseArchitects(), "F-USE-5")
    illegal(g, ExchangeFavour(), "F-USE-5")
    illegal(g, UseMerchants(((ORE, LUMBER),)), "F-USE-5")
    # F-EARN-12: a road built in the SBP still earns join favours...
    e = _sbp_join_path(g, 1)
    earned = list(fs(g)["earned"])
    deal(g, 1, lumber=1, brick=1)
    g.play(BuildRoad(e))
    assert fs(g)["earned"][1] == earned[1] + 3
    assert sum(fs(g)["earned"]) == sum(earned) + 4
    new = [fs(g)["tokens"][1][x.value] - (x is TRADERS) - 2 * (x is ARCHITECTS) for x in Guild]
    assert fs(g)["fresh"][1] == new
    # ...but none of them can be used in the SBP either.
    illegal(g, UseTraders(ORE), "F-USE-5")
    assert not friends_actions(g.legal_actions())
    for _ in range(5):
        g.play(EndSpecialBuild())
    # Seat 1's own turn: every token, also those earned in the SBP, is usable.
    assert g.active_player == 1 and g.phase is Phase.ROLL
    assert all(F.usable(g, 1, x) == fs(g)["tokens"][1][x.value] for x in Guild)
    g.play(UseTraders(ORE))
    assert_conserved(g)


def test_X56_SBP_8_gift_in_the_sbp_cites_the_gift_rule():
    """X56-SBP-8, F-EARN-4: no gift in the SBP, and the refusal names the gift rule."""
    g = founded_six()
    sbp(g)
    r = next(r for r in Resource if g.hands[1][r.value])
    before = g.state()
    with pytest.raises(IllegalActionError) as info:
        g.play(OfferGift(2, r))
    assert g.state() == before
    assert info.value.rule in ("F-EARN-4", "X56-SBP-3")


# ============================================================================ whole games


def test_F_COMP_1_random_friends_games_conserve_tokens_and_replay():
    """F-COMP-1, F-USE-2, F-SETUP-3: random legal play conserves every token and replays identically."""
    for seed in (1, 2):
        g = Game(BOARD, players=4, seed=seed, start="beginner", rules=FR)
        check = Checker(g)
        bots = [RandomBot(seed * 10 + p) for p in range(4)]
        for _ in range(600):
            if g.is_over:
                break
            g.play(bots[g.current_player].choose(g))
            check()
            assert_conserved(g)
        assert sum(fs(g)["earned"]) > 0
        assert Game.from_json(g.to_json()).state() == g.state()

"""Development cards, Longest Road, Largest Army and the end of the game.

RULES.md sections 8-10: B-DEV-1..9, B-LR-1..8, B-LA-1..3, B-END-1..6.

Every test reads as a position on the beginner board (B-BOARD-6) with the
beginner start (seat 0 red, 1 blue, 2 white, 3 orange; founding done, red to
roll).  Chance is forced: dice with ``RollDice(dice=...)``, drawn cards with
``BuyDevelopmentCard(card=...)``, stolen cards with ``MoveRobber(stolen=...)``.
Resource cards are dealt from the bank with ``helpers.deal`` so the 95-card
total holds.

Intersection ids on the beginner board, top to bottom and left to right
(``*R`` etc. marks a starting settlement; a path joins vertically stacked ids
and ids on neighbouring rows that are half a column apart)::

    row Y=+2:        0       1       2
    row Y=+1:     3      4       5       6
    row Y=-1:     7      8       9      10
    row Y=-2:  11    12*W   13*R    14*B    15
    row Y=-4:  16    17      18      19      20
    row Y=-5: 21  22*R   23      24    25*W   26
    row Y=-7: 27  28     29      30      31    32
    row Y=-8:   33   34      35      36      37
    row Y=-10:  38  39*B   40*O   41*O     42

Starting roads: red 13-18 and 22-28, blue 14-19 and 34-39, white 12-17 and
25-31, orange 35-40 and 36-41.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from catan_nb import Board, DevCard, Game, IllegalActionError, Resource
from catan_nb.analysis import RandomBot, play_game
from catan_nb.constants import DEV_DECK, LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, SPECIAL_CARD_VP, VP_TO_WIN
from catan_nb.rules import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Discard,
    EndRoadBuilding,
    EndTurn,
    MoveRobber,
    Phase,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
    longest_trail,
)
from helpers import deal, empty_hands

BOARD = Board.beginner()
T = BOARD.topology
RED, BLUE, WHITE, ORANGE = 0, 1, 2, 3
LUMBER, BRICK, WOOL, GRAIN, ORE = (r.value for r in Resource)
DESERT = BOARD.hex_at(3, 3).id
MOUNTAINS_1_1 = BOARD.hex_at(1, 1).id
QUIET_DICE = (1, 1)  # a 2: only (1,2) Pasture produces (1 wool for red's settlement at 13)


# ============================================================================ helpers


def new_game(seed: int = 7, **kw) -> Game:
    return Game(BOARD, players=4, seed=seed, start="beginner", **kw)


def p_(a: int, b: int) -> int:
    """Path id between two adjacent intersections."""
    return BOARD.path_between(a, b)


def chain(*nodes: int) -> list[int]:
    """Path ids along a chain of intersections."""
    return [p_(a, b) for a, b in zip(nodes, nodes[1:])]


def hex_ring(row: int, col: int) -> list[int]:
    """The six paths around hex (row, col)."""
    return [BOARD.path_on((row, col), s) for s in ("NE", "E", "SE", "SW", "W", "NW")]


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
    """Reach seat ``p``'s build phase: the current turn if it is already ``p``'s, else the next."""
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


def build_line(g: Game, p: int, *nodes: int) -> None:
    """Seat ``p`` builds (paying dealt cards) every missing road along the chain of intersections."""
    to_main(g, p)
    todo = [e for e in chain(*nodes) if g.road_owner(e) != p]
    while todo:  # in whichever order the roads connect (B-BUILD-4)
        deal(g, p, lumber=1, brick=1)
        legal = set(g.legal_actions())
        e = next((e for e in todo if BuildRoad(e) in legal), todo[0])
        g.play(BuildRoad(e))
        todo.remove(e)


def build_settlement(g: Game, p: int, v: int) -> None:
    to_main(g, p)
    deal(g, p, lumber=1, brick=1, wool=1, grain=1)
    g.play(BuildSettlement(v))


def build_city(g: Game, p: int, v: int) -> None:
    to_main(g, p)
    deal(g, p, ore=3, grain=2)
    g.play(BuildCity(v))


def buy(g: Game, p: int, card: DevCard) -> None:
    to_main(g, p)
    deal(g, p, ore=1, wool=1, grain=1)
    g.play(BuyDevelopmentCard(card=card))


def assert_illegal(g: Game, action, rule: str) -> IllegalActionError:
    """``action`` is rejected citing ``rule`` and the game is left exactly as it was."""
    before = g.state()
    with pytest.raises(IllegalActionError) as info:
        g.play(action)
    assert info.value.rule == rule, f"expected {rule}, got {info.value}"
    assert g.state() == before
    return info.value


def total_cards(g: Game) -> list[int]:
    return [g.bank[r] + sum(h[r] for h in g.hands) for r in range(5)]


def other_hex(g: Game) -> int:
    """A hex the robber can move to (alternating between the desert and (1,1))."""
    return MOUNTAINS_1_1 if g.robber != MOUNTAINS_1_1 else DESERT


def play_knight(g: Game, p: int) -> None:
    """Seat ``p`` (in its build phase) plays a knight and moves the robber without stealing."""
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER
    g.play(MoveRobber(other_hex(g)))
    assert g.phase is Phase.MAIN


def trail(paths, blocked=()) -> int:
    """The engine's pure longest-trail function on beginner-board paths."""
    n, order = longest_trail(set(paths), T.edge_nodes, T.node_edges, blocked)
    check_trail(order, set(paths), set(blocked))
    assert len(order) == n
    return n


def check_trail(order: list[int], roads: set[int], blocked: set[int]) -> None:
    """``order`` is a real trail: own roads, none twice, consecutive, never through a blocked node."""
    assert len(set(order)) == len(order)
    assert set(order) <= roads
    if len(order) <= 1:
        return
    a, b = T.edge_nodes[order[0]]
    cur = a if b in T.edge_nodes[order[1]] else b  # the first road's end not shared with the second
    for e in order:
        x, y = T.edge_nodes[e]
        assert cur in (x, y), f"trail {order} is not connected at {cur}"
        nxt_node = y if cur == x else x
        if e is not order[-1]:
            assert nxt_node not in blocked, f"trail {order} passes through blocked {nxt_node}"
        cur = nxt_node


def brute_longest(pairs, blocked) -> int:
    """Independent brute force: try every trail from every intersection.

    ``pairs`` are road end-intersection pairs.  A trail uses each road at most
    once and stops at a blocked intersection (it may start there, and may end
    there, but may not pass through it).
    """
    adj: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for i, (u, v) in enumerate(pairs):
        adj[u].append((i, v))
        adj[v].append((i, u))
    blocked = set(blocked)
    best = 0

    def walk(u: int, used: int, n: int) -> None:
        nonlocal best
        if n > best:
            best = n
        if n and u in blocked:
            return
        for i, w in adj[u]:
            if not (used >> i) & 1:
                walk(w, used | (1 << i), n + 1)

    for s in list(adj):
        walk(s, 0, 0)
        if best == len(pairs):
            break
    return best


def graph_pairs(paths) -> list[tuple[int, int]]:
    """Road end pairs taken from the networkx graph (independent of the Topology tables)."""
    by_id = {d["id"]: (a, b) for a, b, d in BOARD.graph.edges(data=True)}
    return [by_id[e] for e in paths]


def engine_blocked(g: Game, p: int) -> set[int]:
    return {v for v in range(T.n_nodes) if g.node_owner[v] >= 0 and g.node_owner[v] != p}


# ============================================================================ B-DEV


def test_B_DEV_1_three_kinds_of_development_card():
    """B-DEV-1: knight, progress (Road Building, Year of Plenty, Monopoly) and VP cards; a card not held cannot be played."""
    kinds = {c.name for c in DevCard}
    assert kinds == {"KNIGHT", "ROAD_BUILDING", "YEAR_OF_PLENTY", "MONOPOLY", "VICTORY_POINT"}
    assert DEV_DECK[DevCard.KNIGHT] == 14
    assert DEV_DECK[DevCard.ROAD_BUILDING] + DEV_DECK[DevCard.YEAR_OF_PLENTY] + DEV_DECK[DevCard.MONOPOLY] == 6
    assert DEV_DECK[DevCard.VICTORY_POINT] == 5
    g = new_game()
    assert sum(g.deck) == 25
    to_main(g, RED)
    assert all(v == 0 for v in g.dev_cards(RED).values())
    for action in (PlayKnight(), PlayRoadBuilding(), PlayYearOfPlenty(Resource.ORE, Resource.ORE), PlayMonopoly(Resource.ORE)):
        assert_illegal(g, action, "B-DEV-1")
    # a bought card is one of the kinds, and the deck loses exactly that card
    buy(g, RED, DevCard.MONOPOLY)
    assert g.dev_cards(RED)[DevCard.MONOPOLY] == 1
    assert g.deck[DevCard.MONOPOLY.value] == DEV_DECK[DevCard.MONOPOLY] - 1
    assert sum(g.deck) == 24


def test_B_DEV_2_knight_before_roll_moves_robber_then_back_to_roll():
    """B-DEV-2: a knight played before the roll: phase MOVE_ROBBER, the robber moves and may steal, then the roll is still due."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    to_roll(g, RED)
    forest_4_1 = BOARD.hex_at(4, 1).id  # blue's lettered settlement B touches it
    red_before, blue_before = list(g.hands[RED]), list(g.hands[BLUE])
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER and g.current_player == RED
    assert BLUE in g.robber_victims(forest_4_1)
    g.play(MoveRobber(forest_4_1, victim=BLUE))
    assert g.robber == forest_4_1
    assert g.phase is Phase.ROLL and g.current_player == RED
    stolen = g.log[-1].stolen
    assert isinstance(stolen, Resource)
    assert g.hands[RED][stolen.value] == red_before[stolen.value] + 1
    assert g.hands[BLUE][stolen.value] == blue_before[stolen.value] - 1
    assert sum(g.hands[RED]) + sum(g.hands[BLUE]) == sum(red_before) + sum(blue_before)
    g.play(RollDice(dice=(3, 3)))
    assert g.phase is Phase.MAIN


def test_B_DEV_2_knight_after_roll_returns_to_build_phase_and_steal_is_optional():
    """B-DEV-2: a knight after the roll moves the robber (as B-ROB-5..8), stealing optional, then back to MAIN."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    next_main(g, RED)
    hands = [list(h) for h in g.hands]
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER
    g.play(MoveRobber(BOARD.hex_at(4, 2).id))  # blue and orange could be robbed; red declines
    assert g.robber == BOARD.hex_at(4, 2).id
    assert g.phase is Phase.MAIN
    assert [list(h) for h in g.hands] == hands


def test_B_DEV_2_knight_robber_follows_the_robber_rules():
    """B-DEV-2: the knight's robber move obeys B-ROB-5 (another hex), B-ROB-6 (victim on the hex), B-ROB-8 (not yourself)."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    next_main(g, RED)
    g.play(PlayKnight())
    assert_illegal(g, MoveRobber(g.robber), "B-ROB-5")
    assert_illegal(g, MoveRobber(MOUNTAINS_1_1, victim=BLUE), "B-ROB-6")  # blue has nothing on (1,1)
    assert_illegal(g, MoveRobber(BOARD.hex_at(2, 2).id, victim=RED), "B-ROB-8")  # red's own settlement at 13
    empty_orange = list(g.hands[ORANGE])
    g.hands[ORANGE] = [0] * 5
    g.bank = [b + k for b, k in zip(g.bank, empty_orange)]
    assert_illegal(g, MoveRobber(BOARD.hex_at(4, 3).id, victim=ORANGE), "B-ROB-8")  # orange has no cards
    assert g.phase is Phase.MOVE_ROBBER
    # no other action may slip in before the robber has moved
    assert_illegal(g, EndTurn(), "B-TURN-9")
    g.play(MoveRobber(BOARD.hex_at(2, 2).id, victim=WHITE, stolen=Resource.LUMBER))  # white's 12 touches (2,2)
    assert g.phase is Phase.MAIN


def test_B_DEV_3_played_knight_stays_in_front_of_owner():
    """B-DEV-3: a played knight leaves the hand, counts in game.knights (public) and never returns to the deck."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    buy(g, RED, DevCard.KNIGHT)
    deck = list(g.deck)
    assert g.knights == [0, 0, 0, 0]
    next_main(g, RED)
    play_knight(g, RED)
    assert g.knights == [1, 0, 0, 0]
    assert g.dev_cards(RED)[DevCard.KNIGHT] == 1
    assert g.view(BLUE).played_knights == (1, 0, 0, 0)
    assert g.deck == deck
    next_main(g, RED)
    play_knight(g, RED)
    assert g.knights[RED] == 2 and g.dev_cards(RED)[DevCard.KNIGHT] == 0
    assert g.deck == deck


def test_B_DEV_4_knight_makes_nobody_discard():
    """B-DEV-4: with every hand over 7 cards, a knight goes straight to the robber: no DISCARD phase, no card lost."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    next_main(g, RED)
    for p in range(4):
        deal(g, p, lumber=3, brick=3, wool=2, grain=2)
    assert all(sum(h) > 7 for h in g.hands)
    hands = [list(h) for h in g.hands]
    bank = list(g.bank)
    g.play(PlayKnight())
    assert g.phase is Phase.MOVE_ROBBER
    assert g.discards_owed() == {}
    g.play(MoveRobber(other_hex(g)))
    assert g.phase is Phase.MAIN
    assert [list(h) for h in g.hands] == hands and g.bank == bank
    # contrast: a rolled 7 does make them discard (B-ROB-2)
    g.play(EndTurn())
    g.play(RollDice(dice=(3, 4)))
    assert g.phase is Phase.DISCARD
    assert set(g.discards_owed()) == {0, 1, 2, 3}


def test_B_DEV_5_road_building_places_two_free_roads():
    """B-DEV-5: Road Building places 2 roads free of charge, then play returns to the build phase."""
    g = new_game()
    buy(g, RED, DevCard.ROAD_BUILDING)
    next_main(g, RED)
    empty_hands(g)
    bank = list(g.bank)
    g.play(PlayRoadBuilding())
    assert g.phase is Phase.ROAD_BUILDING
    g.play(BuildRoad(p_(13, 8)))
    assert g.phase is Phase.ROAD_BUILDING
    g.play(BuildRoad(p_(8, 4)))
    assert g.phase is Phase.MAIN
    assert g.road_owner(p_(13, 8)) == RED and g.road_owner(p_(8, 4)) == RED
    assert len(g.roads[RED]) == 4
    assert g.hands[RED] == [0] * 5 and g.bank == bank
    assert g.dev_cards(RED)[DevCard.ROAD_BUILDING] == 0
    # a third road is not free
    assert_illegal(g, BuildRoad(p_(4, 0)), "B-BUILD-1")


def test_B_DEV_5_road_building_follows_the_road_rules():
    """B-DEV-5: the free roads obey B-BUILD-3 (empty path) and B-BUILD-4 (connected, not through an opponent)."""
    g = new_game()
    buy(g, RED, DevCard.ROAD_BUILDING)
    build_line(g, RED, 13, 9, 14)  # red's road now ends at blue's settlement 14 (B-BUILD-5 allows that)
    next_main(g, RED)
    g.play(PlayRoadBuilding())
    assert_illegal(g, BuildRoad(p_(0, 4)), "B-BUILD-4")  # not connected to anything red
    assert_illegal(g, BuildRoad(p_(14, 10)), "B-BUILD-4")  # through blue's settlement at 14
    assert_illegal(g, BuildRoad(p_(14, 19)), "B-BUILD-3")  # blue's road is there
    assert_illegal(g, BuildRoad(p_(13, 18)), "B-BUILD-3")  # red's own road is there
    assert_illegal(g, BuyDevelopmentCard(), "B-BUILD-12")  # nothing else until the free roads are done
    g.play(BuildRoad(p_(9, 5)))
    g.play(BuildRoad(p_(5, 1)))  # continues the free road just placed
    assert g.phase is Phase.MAIN
    assert {p_(9, 5), p_(5, 1)} <= g.roads[RED]


def test_B_DEV_5_end_road_building_after_one_road():
    """B-DEV-5: "up to 2" roads: EndRoadBuilding after one road returns to the build phase; the card is spent.
    Decision A-09."""
    g = new_game()
    buy(g, RED, DevCard.ROAD_BUILDING)
    next_main(g, RED)
    assert_illegal(g, EndRoadBuilding(), "B-DEV-5")  # not building free roads yet
    g.play(PlayRoadBuilding())
    g.play(BuildRoad(p_(13, 8)))
    g.play(EndRoadBuilding())
    assert g.phase is Phase.MAIN
    assert len(g.roads[RED]) == 3
    assert g.dev_cards(RED)[DevCard.ROAD_BUILDING] == 0
    assert_illegal(g, EndRoadBuilding(), "B-DEV-5")
    # and zero roads is allowed too
    buy(g, RED, DevCard.ROAD_BUILDING)
    next_main(g, RED)
    g.play(PlayRoadBuilding())
    g.play(EndRoadBuilding())
    assert g.phase is Phase.MAIN and len(g.roads[RED]) == 3


def test_B_DEV_5_road_building_before_the_roll_returns_to_roll():
    """B-DEV-5 with B-TURN-4: Road Building before the roll; after the free roads the roll is still due."""
    g = new_game()
    buy(g, RED, DevCard.ROAD_BUILDING)
    to_roll(g, RED)
    g.play(PlayRoadBuilding())
    g.play(BuildRoad(p_(13, 8)))
    g.play(BuildRoad(p_(8, 4)))
    assert g.phase is Phase.ROLL
    assert_illegal(g, EndTurn(), "B-TURN-2")


def test_B_DEV_5_road_building_stops_when_the_last_road_piece_is_used():
    """B-DEV-5 with B-COMP-12: with 14 roads on the board, Road Building places the 15th and ends by itself."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4, 0, 3, 7, 11, 16, 21, 27, 33, 38, 43)
    assert len(g.roads[RED]) == 14
    buy(g, RED, DevCard.ROAD_BUILDING)
    next_main(g, RED)
    g.play(PlayRoadBuilding())
    g.play(BuildRoad(p_(43, 47)))
    assert len(g.roads[RED]) == 15 and g.pieces_left(RED)["road"] == 0
    assert g.phase is Phase.MAIN


def test_B_DEV_5_road_building_with_no_road_pieces_left_is_consistent():
    """B-DEV-5 with B-COMP-12: play() and legal_actions() agree on Road Building when no road piece is left,
    and no free road beyond the 15 pieces is ever offered."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4, 0, 3, 7, 11, 16, 21, 27, 33, 38, 43, 47)
    assert g.pieces_left(RED)["road"] == 0
    buy(g, RED, DevCard.ROAD_BUILDING)
    next_main(g, RED)
    listed = PlayRoadBuilding() in g.legal_actions()
    try:
        g.play(PlayRoadBuilding())
        accepted = True
    except IllegalActionError:
        accepted = False
    assert accepted == listed is False
    with pytest.raises(IllegalActionError) as info:
        g.play(PlayRoadBuilding())
    assert info.value.rule == "B-COMP-12"


def test_B_DEV_5_free_roads_can_take_longest_road():
    """B-DEV-5 with B-LR-4: free roads count for the road length at once."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4)  # length 3
    buy(g, RED, DevCard.ROAD_BUILDING)
    next_main(g, RED)
    vp = g.vp(RED)
    g.play(PlayRoadBuilding())
    g.play(BuildRoad(p_(4, 0)))
    assert g.longest_road_holder is None
    g.play(BuildRoad(p_(0, 3)))
    assert g.longest_road(RED) == 5
    assert g.longest_road_holder == RED
    assert g.vp(RED) == vp + SPECIAL_CARD_VP


@pytest.mark.parametrize("first,second", [(Resource.ORE, Resource.ORE), (Resource.WOOL, Resource.BRICK)])
def test_B_DEV_6_year_of_plenty_takes_two_cards_from_the_bank(first, second):
    """B-DEV-6: Year of Plenty: 2 resource cards of the player's choice, same or different, from the bank."""
    g = new_game()
    buy(g, RED, DevCard.YEAR_OF_PLENTY)
    next_main(g, RED)
    hand, bank, totals = list(g.hands[RED]), list(g.bank), total_cards(g)
    g.play(PlayYearOfPlenty(first, second))
    for r in {first, second}:
        k = (first, second).count(r)
        assert g.hands[RED][r.value] == hand[r.value] + k
        assert g.bank[r.value] == bank[r.value] - k
    assert sum(g.hands[RED]) == sum(hand) + 2
    assert total_cards(g) == totals
    assert g.dev_cards(RED)[DevCard.YEAR_OF_PLENTY] == 0


def test_B_DEV_6_year_of_plenty_cards_usable_the_same_turn():
    """B-DEV-6: the two cards may be spent in the same turn (here on a city)."""
    g = new_game()
    buy(g, RED, DevCard.YEAR_OF_PLENTY)
    next_main(g, RED)
    empty_hands(g)
    deal(g, RED, ore=2, grain=1)
    assert_illegal(g, BuildCity(13), "B-BUILD-1")
    g.play(PlayYearOfPlenty(Resource.ORE, Resource.GRAIN))
    g.play(BuildCity(13))
    assert g.building_at(13)[1].name == "CITY"
    assert g.hands[RED] == [0] * 5


def test_B_DEV_6_year_of_plenty_needs_the_cards_in_the_bank():
    """B-DEV-6: the cards come from the bank; the bank cannot give what it has not got."""
    g = new_game()
    buy(g, RED, DevCard.YEAR_OF_PLENTY)
    next_main(g, RED)
    deal(g, BLUE, ore=g.bank[ORE] - 1)  # one ore left in the bank
    assert g.bank[ORE] == 1
    assert_illegal(g, PlayYearOfPlenty(Resource.ORE, Resource.ORE), "B-DEV-6")
    assert PlayYearOfPlenty(Resource.ORE, Resource.ORE) not in g.legal_actions()
    g.play(PlayYearOfPlenty(Resource.ORE, Resource.GRAIN))
    assert g.bank[ORE] == 0


def test_B_DEV_7_monopoly_takes_every_card_of_one_resource():
    """B-DEV-7: every other player hands over all cards of the named resource; players without give nothing."""
    g = new_game()
    buy(g, RED, DevCard.MONOPOLY)
    next_main(g, RED)
    empty_hands(g)
    deal(g, RED, grain=1, ore=1)
    deal(g, BLUE, grain=3, wool=2)
    deal(g, WHITE, lumber=4)  # no grain at all
    deal(g, ORANGE, grain=2, ore=1)
    bank = list(g.bank)
    g.play(PlayMonopoly(Resource.GRAIN))
    assert g.hands[RED] == [0, 0, 0, 6, 1]
    assert g.hands[BLUE] == [0, 0, 2, 0, 0]
    assert g.hands[WHITE] == [4, 0, 0, 0, 0]
    assert g.hands[ORANGE] == [0, 0, 0, 0, 1]
    assert g.bank == bank  # nothing goes through the bank
    assert g.dev_cards(RED)[DevCard.MONOPOLY] == 0


def test_B_DEV_7_monopoly_when_nobody_has_the_resource():
    """B-DEV-7: naming a resource nobody else holds is legal and takes nothing."""
    g = new_game()
    buy(g, RED, DevCard.MONOPOLY)
    next_main(g, RED)
    empty_hands(g)
    deal(g, BLUE, lumber=2)
    g.play(PlayMonopoly(Resource.ORE))
    assert g.hands[RED] == [0] * 5 and g.hands[BLUE] == [2, 0, 0, 0, 0]
    assert g.dev_played  # the card was played (B-TURN-4 applies)


@pytest.mark.parametrize(
    "card,action",
    [
        (DevCard.ROAD_BUILDING, None),
        (DevCard.YEAR_OF_PLENTY, PlayYearOfPlenty(Resource.LUMBER, Resource.BRICK)),
        (DevCard.MONOPOLY, PlayMonopoly(Resource.WOOL)),
    ],
)
def test_B_DEV_8_played_progress_card_leaves_the_game(card, action):
    """B-DEV-8: a played progress card does not go back into the deck: the deck and the total in play both shrink for good."""
    g = new_game()
    buy(g, RED, card)
    buy(g, RED, card)  # both copies bought (2 of each progress card, B-COMP-7)
    assert g.deck[card.value] == 0
    deck = list(g.deck)
    next_main(g, RED)
    if card is DevCard.ROAD_BUILDING:
        g.play(PlayRoadBuilding())
        g.play(EndRoadBuilding())
    else:
        g.play(action)
    assert g.deck == deck
    assert g.deck[card.value] == 0
    in_play = g.deck[card.value] + sum(d[card.value] for d in g.dev)
    assert in_play == DEV_DECK[card] - 1
    deal(g, RED, ore=1, wool=1, grain=1)
    assert_illegal(g, BuyDevelopmentCard(card=card), "B-COMP-6")
    # the remaining copy can still be played on a later turn, and then none are left anywhere
    next_main(g, RED)
    if card is DevCard.ROAD_BUILDING:
        g.play(PlayRoadBuilding())
        g.play(EndRoadBuilding())
    else:
        g.play(action)
    assert g.deck[card.value] + sum(d[card.value] for d in g.dev) == DEV_DECK[card] - 2
    assert sum(g.deck) == 25 - 2


def test_B_DEV_9_vp_card_counts_at_once_and_stays_hidden():
    """B-DEV-9 with B-TURN-7: a VP card counts from the moment it is bought but is hidden from the opponents' view."""
    g = new_game()
    to_main(g, RED)
    before = g.vp(RED)
    buy(g, RED, DevCard.VICTORY_POINT)
    assert g.vp(RED) == before + 1
    assert g.vp(RED, visible=True) == before
    for q in (BLUE, WHITE, ORANGE):
        view = g.view(q)
        assert view.visible_vp[RED] == before
        assert view.dev_counts[RED] == 1  # the number of cards is public (B-SETUP-7) ...
        assert view.dev_cards[DevCard.VICTORY_POINT] == 0  # ... their kind is not
    own = g.view(RED)
    assert own.own_vp == before + 1
    assert own.dev_cards[DevCard.VICTORY_POINT] == 1


def test_B_DEV_9_vp_card_is_never_played_and_does_not_use_the_card_of_the_turn():
    """B-DEV-9 with B-TURN-7: VP cards are exempt from B-TURN-4/5: buying one does not stop another card being played."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    next_main(g, RED)
    buy(g, RED, DevCard.VICTORY_POINT)
    from catan_nb.rules import ACTION_TYPES

    assert not any("Victory" in name for name in ACTION_TYPES)  # there is no action that plays a VP card
    play_knight(g, RED)  # still allowed: the VP card was not "played"
    assert g.dev_cards(RED)[DevCard.VICTORY_POINT] == 1
    # the VP card stays in hand turn after turn; no action ever plays it
    next_main(g, RED)
    assert g.dev_cards(RED)[DevCard.VICTORY_POINT] == 1
    assert g.vp(RED) - g.vp(RED, visible=True) == 1


def test_B_DEV_one_card_per_turn_and_not_the_turn_bought():
    """B-DEV-2..7 with B-TURN-4 and B-TURN-5: one development card per turn; never the card bought this turn."""
    g = new_game()
    buy(g, RED, DevCard.KNIGHT)
    assert_illegal(g, PlayKnight(), "B-TURN-5")
    buy(g, RED, DevCard.MONOPOLY)
    next_main(g, RED)
    buy(g, RED, DevCard.YEAR_OF_PLENTY)
    assert_illegal(g, PlayYearOfPlenty(Resource.ORE, Resource.ORE), "B-TURN-5")
    play_knight(g, RED)
    assert_illegal(g, PlayMonopoly(Resource.ORE), "B-TURN-4")
    assert not any(isinstance(a, (PlayKnight, PlayMonopoly, PlayYearOfPlenty)) for a in g.legal_actions())
    # a knight bought in an earlier turn stays playable even after buying another knight now
    next_main(g, RED)
    buy(g, RED, DevCard.KNIGHT)
    buy(g, RED, DevCard.KNIGHT)
    assert g.dev_cards(RED)[DevCard.KNIGHT] == 2
    assert_illegal(g, PlayKnight(), "B-TURN-5")  # both knights are new
    next_main(g, RED)
    buy(g, RED, DevCard.KNIGHT)
    play_knight(g, RED)  # an old one
    assert g.dev_cards(RED)[DevCard.KNIGHT] == 2
    # next turn: one card again, including the one bought last turn
    next_main(g, RED)
    g.play(PlayYearOfPlenty(Resource.ORE, Resource.ORE))
    assert_illegal(g, PlayMonopoly(Resource.ORE), "B-TURN-4")


def test_B_DEV_cards_only_on_owners_turn():
    """B-DEV-2 with B-TURN-6: a development card cannot be played while another seat must act."""
    g = new_game()
    buy(g, BLUE, DevCard.KNIGHT)
    next_main(g, BLUE)
    g.play(EndTurn())  # white to roll
    for p in range(4):
        deal(g, p, lumber=4, brick=4)
    g.play(RollDice(dice=(2, 5)))  # a 7: white (active) discards first, then orange, then red, then blue
    while g.current_player != BLUE:
        owed = g.discards_owed()[g.current_player]
        g.play(Discard((min(owed, 4), owed - min(owed, 4), 0, 0, 0)))
    assert g.phase is Phase.DISCARD and g.active_player == WHITE
    assert g.dev_cards(BLUE)[DevCard.KNIGHT] == 1
    assert_illegal(g, PlayKnight(), "B-TURN-6")


# ============================================================================ B-LR: the length (pure function)


def test_B_LR_1_line_and_fork_count_only_the_longest_branch_pair():
    """B-LR-1: a line counts every road; at a fork only the two longest arms join, side branches are not counted."""
    assert trail([]) == 0
    assert trail(chain(28, 22, 16, 11)) == 3
    # Y at 18: arms 18-13-8-4 (3), 18-23-17 (2), 18-24-19 (2)
    fork = chain(18, 13, 8, 4) + chain(18, 23, 17) + chain(18, 24, 19)
    assert trail(fork) == 5
    # a line of 5 with a 1-road side branch: still 5 (17-22-16-11-7-3 and 28-22-16-11-7-3 are both 5)
    line = chain(28, 22, 16, 11, 7, 3)
    assert trail(line + [p_(22, 17)]) == 5
    assert trail(line + [p_(16, 21)]) == 5
    assert trail(line + [p_(22, 17), p_(17, 23)]) == 6  # 23-17-22-16-11-7-3


def test_B_LR_1_loops():
    """B-LR-1: loops: a ring around one hex is 6; a ring with a tail runs round and out; two rings sharing a path; two rings joined by a bridge."""
    ring = hex_ring(3, 3)
    assert set(ring) == set(chain(18, 24, 30, 35, 29, 23, 18))
    assert trail(ring) == 6
    assert trail(ring + chain(18, 13, 8)) == 8
    # two adjacent hexes share a path: 11 roads, exactly two forks, so a trail uses all 11
    theta = sorted(set(hex_ring(3, 3)) | set(hex_ring(3, 4)))
    assert len(theta) == 11 and trail(theta) == 11
    # three hexes around intersection 18: 15 roads, four forks: one road must be left out
    clover = sorted(set(hex_ring(2, 2)) | set(hex_ring(2, 3)) | set(hex_ring(3, 3)))
    assert len(clover) == 15 and trail(clover) == 14
    # "figure eight": two rings (1,1) and (1,3) joined by the 2-road bridge 4-1-5
    eight = hex_ring(1, 1) + chain(4, 1, 5) + hex_ring(1, 3)
    assert len(set(eight)) == 14 and trail(eight) == 14
    # two separate rings: the longer network counts, lengths never add up across gaps
    assert trail(hex_ring(1, 1) + hex_ring(4, 4)) == 6


def test_B_LR_2_opponent_building_splits_but_a_road_may_end_there():
    """B-LR-2: a trail may not pass through an opponent's building; it may start or end at one."""
    line = chain(18, 13, 8, 4, 0, 3, 7)  # 6 roads
    assert trail(line) == 6
    assert trail(line, blocked={8}) == 4  # 18-13-8 | 8-4-0-3-7
    assert trail(line, blocked={0}) == 4
    assert trail(line, blocked={18}) == 6 and trail(line, blocked={7}) == 6  # an end: counts up to it
    assert trail(line, blocked={8, 3}) == 3
    # a ring with an opponent on it: start and end there, still 6
    ring = hex_ring(3, 3)
    assert trail(ring, blocked={29}) == 6
    # ring with a tail, opponent at the junction: ring 6 or tail 2, never 8
    assert trail(ring + chain(18, 13, 8), blocked={18}) == 6
    assert trail(ring + chain(18, 13, 8), blocked={13}) == 7
    # a fork through the blocked junction: each arm alone
    fork = chain(18, 13, 8, 4) + chain(18, 23, 17) + chain(18, 24, 19)
    assert trail(fork, blocked={18}) == 3


def test_B_LR_3_own_buildings_do_not_split():
    """B-LR-3: the player's own settlements and cities do not split their roads (engine)."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4)  # red's own settlement at 13 sits inside the line
    assert g.longest_road(RED) == 3
    build_city(g, RED, 13)
    assert g.longest_road(RED) == 3
    build_line(g, RED, 4, 0, 3)
    build_settlement(g, RED, 0)  # red's own new settlement in the middle of the line
    assert g.longest_road(RED) == 5
    assert g.longest_road_holder == RED


def test_B_LR_8_anchor_line_of_six_with_a_side_branch():
    """B-LR-8: a network of 6 roads in a line plus one side branch has length 6 (pure function and engine).
    Decision A-12."""
    line = chain(28, 22, 16, 11, 7, 3, 0)
    assert trail(line + [p_(22, 17)]) == 6
    assert trail(line + [p_(16, 21)]) == 6  # a branch at an inner intersection
    g = new_game()
    build_line(g, RED, 28, 22, 16, 11, 7, 3, 0)
    build_line(g, RED, 22, 17)  # the side branch
    assert len(g.roads[RED]) == 8  # 7 in the network + red's other start road 13-18
    assert g.longest_road(RED) == 6
    assert g.longest_road_holder == RED


def test_B_LR_8_anchor_line_of_seven_cut_after_second_road():
    """B-LR-8: a line of 7 roads cut by an opponent's settlement after its 2nd road has length 5 (pure function and engine).
    Decision A-12."""
    nodes = (13, 18, 23, 29, 34, 28, 22, 16)
    assert trail(chain(*nodes)) == 7
    assert trail(chain(*nodes), blocked={nodes[2]}) == 5
    g = new_game()
    build_line(g, RED, *nodes)
    assert g.longest_road(RED) == 7 and g.longest_road_holder == RED
    build_line(g, WHITE, 17, 23)
    build_settlement(g, WHITE, 23)  # white's settlement after red's 2nd road (13-18, 18-23)
    assert g.longest_road(RED) == 5
    assert g.longest_road_holder == RED  # still longest (B-LR-6)


def test_B_LR_2_road_ending_at_opponent_building_counts_in_engine():
    """B-LR-2 with B-BUILD-5: a road built up to an opponent's settlement counts, but cannot be extended through it."""
    g = new_game()
    build_line(g, RED, 18, 13, 9, 14)  # 9-14 ends at blue's settlement
    assert g.longest_road(RED) == 3
    deal(g, RED, lumber=1, brick=1)
    assert_illegal(g, BuildRoad(p_(14, 10)), "B-BUILD-4")


# ============================================================================ B-LR: the card (engine)


def test_B_LR_4_first_to_five_takes_the_card():
    """B-LR-4: nobody holds the card below 5; the first player whose length reaches 5 takes it (2 VP) at once."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4, 0)
    assert g.longest_road(RED) == 4
    assert g.longest_road_holder is None
    vp = g.vp(RED)
    deal(g, RED, lumber=1, brick=1)
    g.play(BuildRoad(p_(0, 3)))
    assert g.longest_road(RED) == LONGEST_ROAD_MIN == 5
    assert g.longest_road_holder == RED
    assert g.vp(RED) == vp + 2
    assert g.view(BLUE).longest_road == RED
    assert g.view(BLUE).visible_vp[RED] == vp + 2


def test_B_LR_4_five_roads_that_are_not_a_trail_do_not_take_it():
    """B-LR-4: 5 or more roads whose longest trail is under 5 do not take the card."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4)
    build_line(g, RED, 13, 9, 5)  # a Y: 4-8-13-9-5 is 4, plus the 13-18 arm
    assert len(g.roads[RED]) == 6  # 5 in the network + 22-28
    assert g.longest_road(RED) == 4
    assert g.longest_road_holder is None


def test_B_LR_5_tie_keeps_the_card_strictly_longer_takes_it():
    """B-LR-5: another player takes the card only when strictly longer than the holder; a tie leaves it."""
    g = new_game()
    build_line(g, RED, 18, 13, 8, 4, 0, 3)  # red 5 -> holder
    assert g.longest_road_holder == RED
    build_line(g, BLUE, 19, 14, 10, 6, 2, 5)  # blue 5: tie
    assert g.longest_road(BLUE) == 5
    assert g.longest_road_holder == RED
    red_vp, blue_vp = g.vp(RED), g.vp(BLUE)
    deal(g, BLUE, lumber=1, brick=1)
    g.play(BuildRoad(p_(5, 1)))  # blue 6 > 5
    assert g.longest_road(BLUE) == 6
    assert g.longest_road_holder == BLUE
    assert g.vp(BLUE) == blue_vp + 2 and g.vp(RED) == red_vp - 2
    # red ties at 6: blue keeps it; red at 7 takes it back
    build_line(g, RED, 3, 7)
    assert g.longest_road(RED) == 6 and g.longest_road_holder == BLUE
    build_line(g, RED, 7, 11)
    assert g.longest_road(RED) == 7 and g.longest_road_holder == RED


def _red_long_line(g: Game) -> None:
    """Red: 11-16-22-28-34-29-23-18-13, a line of 8 passing intersection 29."""
    build_line(g, RED, 11, 16, 22, 28, 34, 29, 23, 18, 13)
    assert g.longest_road(RED) == 8


def _orange_cuts_at_29(g: Game) -> None:
    """Orange builds 35-29 and settles on 29 (next to blue's and red's roads only)."""
    build_line(g, ORANGE, 40, 35, 29)
    build_settlement(g, ORANGE, 29)


def test_B_LR_6_holder_keeps_the_card_when_still_longest_even_tied():
    """B-LR-6: after a break the holder keeps the card if still longest, even when tied."""
    g = new_game()
    _red_long_line(g)
    build_line(g, BLUE, 19, 14, 10, 6, 2, 5)  # blue 5
    assert g.longest_road_holder == RED
    _orange_cuts_at_29(g)
    assert g.road_lengths() == [5, 5, 1, 2]  # red 11-16-22-28-34-29 | 29-23-18-13
    assert g.longest_road_holder == RED


def test_B_LR_6_holder_no_longer_longest_single_leader_takes_it():
    """B-LR-6: when the holder is no longer longest, the single player with the greatest length (>= 5) takes it, even off turn."""
    g = new_game()
    _red_long_line(g)
    build_line(g, BLUE, 19, 14, 10, 6, 2, 5, 1)  # blue 6
    assert g.longest_road_holder == RED
    blue_vp, red_vp = g.vp(BLUE), g.vp(RED)
    _orange_cuts_at_29(g)
    assert g.active_player == ORANGE
    assert g.road_lengths()[:2] == [5, 6]
    assert g.longest_road_holder == BLUE
    assert g.vp(BLUE) == blue_vp + 2 and g.vp(RED) == red_vp - 2


def test_B_LR_6_tie_for_greatest_sets_the_card_aside():
    """B-LR-6: holder no longer longest and two players tie for the greatest length: the card is set aside."""
    g = new_game()
    build_line(g, RED, 13, 18, 23, 29, 34, 28, 22)  # red 6
    build_line(g, BLUE, 19, 14, 10, 6, 2, 5)  # blue 5
    build_line(g, WHITE, 31, 25, 20, 26, 32, 37)  # white 5
    assert g.road_lengths()[:3] == [6, 5, 5] and g.longest_road_holder == RED
    red_vp = g.vp(RED)
    _orange_cuts_at_29(g)
    assert g.road_lengths()[:3] == [3, 5, 5]
    assert g.longest_road_holder is None
    assert g.vp(RED) == red_vp - 2
    assert all(g.vp(p) == g.n_settlements[p] + 2 * g.n_cities[p] for p in range(4))


def test_B_LR_6_nobody_at_five_sets_the_card_aside():
    """B-LR-6 DECISION (docs/base_game.md): after the break nobody has 5 or more; the holder, still the
    longest (3, the others 1, 1, 2), loses the card all the same: it is set aside (B-LR-7 then gives it to
    the first player strictly longest with 5 or more). Decision A-11."""
    g = new_game()
    build_line(g, RED, 13, 18, 23, 29, 34, 28, 22)  # red 6
    assert g.longest_road_holder == RED
    _orange_cuts_at_29(g)
    assert g.road_lengths() == [3, 1, 1, 2]
    assert g.longest_road_holder is None


def test_B_LR_6_break_of_someone_else_leaves_the_holder():
    """B-LR-6: a building that breaks a non-holder's road leaves the holder with the card."""
    g = new_game()
    build_line(g, BLUE, 19, 14, 10, 6, 2, 5, 1)  # blue 6 holds
    build_line(g, RED, 13, 18, 23, 29, 34, 28, 22)  # red 6 ties, blue keeps
    assert g.longest_road_holder == BLUE
    _orange_cuts_at_29(g)
    assert g.longest_road(RED) == 3
    assert g.longest_road_holder == BLUE


def test_B_LR_7_set_aside_card_goes_to_first_strictly_longest():
    """B-LR-7: a set-aside card stays aside through ties and goes to the first player strictly longest with >= 5."""
    g = new_game()
    build_line(g, RED, 13, 18, 23, 29, 34, 28, 22)
    build_line(g, BLUE, 19, 14, 10, 6, 2, 5)
    build_line(g, WHITE, 31, 25, 20, 26, 32, 37)
    _orange_cuts_at_29(g)
    assert g.longest_road_holder is None
    build_line(g, RED, 22, 16, 11)  # red back to 5 (29-34-28-22-16-11): a three-way tie
    assert g.road_lengths()[:3] == [5, 5, 5]
    assert g.longest_road_holder is None
    vp = g.vp(BLUE)
    build_line(g, BLUE, 5, 1)  # blue 6: strictly longest
    assert g.longest_road(BLUE) == 6
    assert g.longest_road_holder == BLUE
    assert g.vp(BLUE) == vp + 2


def test_B_LR_7_set_aside_card_needs_five():
    """B-LR-7: after "nobody at 5" the card goes to the first player who reaches 5 (and strictly longest)."""
    g = new_game()
    build_line(g, RED, 13, 18, 23, 29, 34, 28, 22)
    _orange_cuts_at_29(g)
    assert g.longest_road_holder is None
    build_line(g, BLUE, 19, 14, 10, 6, 2)  # blue 4: not enough
    assert g.longest_road(BLUE) == 4 and g.longest_road_holder is None
    build_line(g, RED, 22, 16, 11)  # red 5
    assert g.longest_road(RED) == 5
    assert g.longest_road_holder == RED


# ============================================================================ B-LR: brute-force cross-checks


def _random_network(rng: random.Random) -> tuple[list[int], set[int]]:
    k = rng.randint(0, 12)
    if rng.random() < 0.25:
        paths = rng.sample(range(T.n_edges), k)
    else:  # grow a connected-ish network from a random path
        paths = [rng.randrange(T.n_edges)] if k else []
        while len(paths) < k:
            if rng.random() < 0.1:
                cand = [e for e in range(T.n_edges) if e not in paths]
            else:
                nodes = {v for e in paths for v in T.edge_nodes[e]}
                cand = sorted({e for v in nodes for e in T.node_edges[v]} - set(paths))
            paths.append(rng.choice(cand))
    touched = sorted({v for e in paths for v in T.edge_nodes[e]})
    blocked = set(rng.sample(touched, rng.randint(0, min(3, len(touched))))) if touched else set()
    if rng.random() < 0.3:
        blocked.add(rng.randrange(T.n_nodes))
    return paths, blocked


def test_B_LR_1_2_brute_force_cross_check_random_networks():
    """B-LR-1, B-LR-2: longest_trail equals an independent brute force on 300 seeded random networks with blocked intersections."""
    rng = random.Random(20240611)
    for case in range(300):
        paths, blocked = _random_network(rng)
        n, order = longest_trail(set(paths), T.edge_nodes, T.node_edges, blocked)
        expected = brute_longest(graph_pairs(paths), blocked)
        assert n == expected, f"case {case}: paths={sorted(paths)} blocked={sorted(blocked)}: {n} != {expected}"
        assert len(order) == n
        check_trail(order, set(paths), blocked)


def test_B_LR_1_2_brute_force_cross_check_shapes_with_every_blocked_node():
    """B-LR-1, B-LR-2: the tricky shapes (loops, theta, clover, figure eight) with every single intersection blocked in turn."""
    shapes = {
        "ring+tail": hex_ring(3, 3) + chain(18, 13, 8),
        "theta": sorted(set(hex_ring(3, 3)) | set(hex_ring(3, 4))),
        "clover": sorted(set(hex_ring(2, 2)) | set(hex_ring(2, 3)) | set(hex_ring(3, 3))),
        "eight": hex_ring(1, 1) + chain(4, 1, 5) + hex_ring(1, 3),
    }
    for name, paths in shapes.items():
        nodes = sorted({v for e in paths for v in T.edge_nodes[e]})
        for v in [None, *nodes]:
            blocked = set() if v is None else {v}
            n, order = longest_trail(set(paths), T.edge_nodes, T.node_edges, blocked)
            assert n == brute_longest(graph_pairs(paths), blocked), (name, v)
            check_trail(order, set(paths), blocked)


def _lr_reference(holder, lengths, event_is_break, actor):
    """Independent model of B-LR-4..7 on brute-force lengths."""
    m = max(lengths)
    leaders = [q for q, x in enumerate(lengths) if x == m]
    unique = leaders[0] if m >= LONGEST_ROAD_MIN and len(leaders) == 1 else None
    if not event_is_break:
        if holder is None:
            return unique
        return actor if actor != holder and lengths[actor] > lengths[holder] else holder
    if holder is not None and lengths[holder] == m and m >= LONGEST_ROAD_MIN:
        return holder
    return unique


def _brute_lengths(g: Game) -> list[int]:
    return [brute_longest(graph_pairs(sorted(g.roads[p])), engine_blocked(g, p)) for p in range(g.n)]


@pytest.mark.parametrize("seed", range(30))
def test_B_LR_1_2_3_random_games_match_brute_force(seed):
    """B-LR-1..3 (and B-LR-4..7, B-LA-1..2 as invariants): at the end of a seeded RandomBot game every road length equals the brute force, and the card holders are consistent."""
    g = new_game(seed=seed)
    play_game(g, [RandomBot(seed=1000 * seed + p) for p in range(4)])
    assert g.is_over
    brute = _brute_lengths(g)
    assert [g.longest_road(p) for p in range(4)] == brute
    h = g.longest_road_holder
    m = max(brute)
    if h is None:
        assert m < LONGEST_ROAD_MIN or brute.count(m) >= 2
    else:
        assert brute[h] == m >= LONGEST_ROAD_MIN
    a = g.largest_army_holder
    if a is None:
        assert max(g.knights) < LARGEST_ARMY_MIN
    else:
        assert g.knights[a] == max(g.knights) >= LARGEST_ARMY_MIN
    # B-END-3: the winner is the active player with 10+ VP (B-END-4: hidden VP cards included)
    assert g.winner == g.active_player and g.vp(g.winner) >= VP_TO_WIN


DEV_PLAYS = (
    PlayKnight(),
    PlayRoadBuilding(),
    *(PlayYearOfPlenty(a, b) for a in Resource for b in Resource),
    *(PlayMonopoly(r) for r in Resource),
)


def _check_dev_play_agreement(g: Game) -> None:
    """play() accepts a development-card play exactly when legal_actions() lists it (B-DEV-1, B-TURN-4/5)."""
    legal = set(g.legal_actions())
    for a in DEV_PLAYS:
        listed = a in legal or (isinstance(a, PlayYearOfPlenty) and PlayYearOfPlenty(a.second, a.first) in legal)
        c = g.copy()
        try:
            c.play(a)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == listed, f"{a}: accepted={accepted} listed={listed} in phase {g.phase}"


@pytest.mark.parametrize("seed", range(16))
def test_B_LR_4_to_7_step_by_step_reference_model(seed):
    """B-LR-4..7, B-LA-1..2, B-END-3, B-DEV-8: after every action of a RandomBot game the Longest Road and Largest Army holders match an independent model, nobody passes 10 VP on their own turn without winning, and played progress cards never return."""
    board = Board.random(seed=seed) if seed % 2 else BOARD
    g = Game(board, players=4, seed=seed, start="founding" if seed % 2 else "beginner")
    bots = [RandomBot(seed=77 * seed + p) for p in range(4)]
    tt = board.topology
    by_id = {d["id"]: (a, b) for a, b, d in board.graph.edges(data=True)}

    def lengths():
        return [
            brute_longest(
                [by_id[e] for e in sorted(g.roads[p])],
                {v for v in range(tt.n_nodes) if g.node_owner[v] >= 0 and g.node_owner[v] != p},
            )
            for p in range(g.n)
        ]

    lens = lengths()
    lr, la = g.longest_road_holder, g.largest_army_holder
    played_progress = 0
    deck_size = sum(g.deck)
    steps = checks = 0
    while not g.is_over and steps < 6000:
        steps += 1
        if checks < 40 and g.phase in (Phase.ROLL, Phase.MAIN) and any(g.dev[g.active_player][:4]):
            checks += 1
            _check_dev_play_agreement(g)
        a = bots[g.current_player].choose(g)
        actor = g.current_player
        founding = g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD)
        g.play(a)
        if isinstance(a, (PlayRoadBuilding, PlayYearOfPlenty, PlayMonopoly)):
            played_progress += 1
        if isinstance(a, (BuildRoad, BuildSettlement)):
            if isinstance(a, BuildRoad):
                lens[actor] = lengths()[actor]
            else:
                lens = lengths()
            if not founding:
                lr = _lr_reference(lr, lens, isinstance(a, BuildSettlement), actor)
            else:
                lr = None
        if isinstance(a, PlayKnight):
            k = g.knights
            if k[actor] >= LARGEST_ARMY_MIN and (la is None or (la != actor and k[actor] > k[la])):
                la = actor
        assert g.longest_road_holder == lr, f"step {steps} {a}: lengths {lens}"
        assert g.road_lengths() == lens
        assert g.largest_army_holder == la
        assert sum(g.deck) <= deck_size
        deck_size = sum(g.deck)
        # B-DEV-8: every card is in the deck, in a hand, played as a knight, or gone as a played progress card
        assert sum(g.deck) + sum(map(sum, g.dev)) + sum(g.knights) + played_progress == 25
        if g.is_over:
            assert g.winner == g.active_player and g.vp(g.winner) >= VP_TO_WIN
        elif g.phase not in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
            assert g.vp(g.active_player) < VP_TO_WIN  # B-END-3: 10 on one's own turn ends the game at once
    assert g.is_over


# ============================================================================ B-LA


def _knights_for(g: Game, p: int, k: int) -> None:
    for _ in range(k):
        buy(g, p, DevCard.KNIGHT)


def test_B_LA_1_three_played_knights_take_largest_army():
    """B-LA-1: the first player with 3 played knights takes Largest Army (2 VP); 2 are not enough. Decision A-07."""
    g = new_game()
    _knights_for(g, RED, 3)
    for i in range(3):
        next_main(g, RED)
        vp = g.vp(RED)
        play_knight(g, RED)
        if i < 2:
            assert g.largest_army_holder is None and g.vp(RED) == vp
    assert g.knights[RED] == LARGEST_ARMY_MIN == 3
    assert g.largest_army_holder == RED
    assert g.vp(RED) == vp + 2
    assert g.view(WHITE).largest_army == RED


def test_B_LA_1_knight_before_the_roll_takes_largest_army_at_once():
    """B-LA-1: the third knight, played before the roll, takes the card as soon as it is played."""
    g = new_game()
    _knights_for(g, RED, 3)
    for _ in range(2):
        next_main(g, RED)
        play_knight(g, RED)
    to_roll(g, RED)
    g.play(PlayKnight())
    assert g.largest_army_holder == RED
    assert g.phase is Phase.MOVE_ROBBER


def test_B_LA_2_strictly_more_knights_to_take_it_over():
    """B-LA-2: another player takes Largest Army only with strictly more played knights; a tie leaves it.
    Decision A-07."""
    g = new_game()
    _knights_for(g, RED, 4)
    _knights_for(g, BLUE, 4)
    for _ in range(3):
        next_main(g, RED)
        play_knight(g, RED)
        next_main(g, BLUE)
        play_knight(g, BLUE)
    assert g.knights[:2] == [3, 3]
    assert g.largest_army_holder == RED  # blue's tie does not take it
    red_vp, blue_vp = g.vp(RED), g.vp(BLUE)
    next_main(g, BLUE)
    play_knight(g, BLUE)
    assert g.knights[BLUE] == 4
    assert g.largest_army_holder == BLUE
    assert g.vp(BLUE) == blue_vp + 2 and g.vp(RED) == red_vp - 2
    next_main(g, RED)
    play_knight(g, RED)  # red ties at 4: blue keeps it
    assert g.knights[:2] == [4, 4]
    assert g.largest_army_holder == BLUE


def test_B_LA_3_knights_in_hand_do_not_count():
    """B-LA-3: only played knights count; five knights in hand give no Largest Army."""
    g = new_game()
    _knights_for(g, RED, 5)
    next_main(g, RED)
    assert g.dev_cards(RED)[DevCard.KNIGHT] == 5
    assert g.knights[RED] == 0
    assert g.largest_army_holder is None
    assert g.view(BLUE).played_knights[RED] == 0
    _knights_for(g, BLUE, 3)
    for _ in range(3):
        next_main(g, BLUE)
        play_knight(g, BLUE)
    assert g.largest_army_holder == BLUE  # red's 5 unplayed knights do not count against blue's 3


# ============================================================================ B-END


def test_B_END_1_vp_sources():
    """B-END-1: settlement 1, city 2, Longest Road 2, Largest Army 2, each VP card 1."""
    g = new_game()
    assert g.vp(RED) == 2  # two starting settlements
    build_line(g, RED, 13, 9, 5)
    build_settlement(g, RED, 5)
    assert g.vp(RED) == 3
    build_city(g, RED, 5)
    assert g.vp(RED) == 4
    buy(g, RED, DevCard.VICTORY_POINT)
    assert g.vp(RED) == 5
    build_line(g, RED, 5, 1, 4, 0)  # 18-13-9-5-1-4-0: 6
    assert g.longest_road_holder == RED and g.vp(RED) == 7
    _knights_for(g, RED, 3)
    for _ in range(3):
        next_main(g, RED)
        play_knight(g, RED)
    assert g.largest_army_holder == RED
    assert g.vp(RED) == 9
    assert g.vp(RED) == (
        g.n_settlements[RED] + 2 * g.n_cities[RED] + 2 + 2 + g.dev_cards(RED)[DevCard.VICTORY_POINT]
    )
    assert not g.is_over


def test_B_END_2_target_is_ten():
    """B-END-2: the target is 10 VP: 9 does not win, 10 does."""
    assert VP_TO_WIN == 10 and Game(Board.beginner(), players=4, seed=0).vp_target == 10
    g = new_game()
    build_city(g, RED, 13)
    build_city(g, RED, 22)
    for _ in range(4):
        buy(g, RED, DevCard.VICTORY_POINT)
    assert g.vp(RED) == 8
    build_line(g, RED, 22, 16, 11)
    build_settlement(g, RED, 11)
    assert g.vp(RED) == 9
    assert not g.is_over and g.phase is Phase.MAIN
    build_line(g, RED, 18, 23)
    build_settlement(g, RED, 23)
    assert g.vp(RED) == 10
    assert g.is_over and g.winner == RED


def test_B_END_3_win_on_own_turn_ends_the_game_at_once():
    """B-END-3: reaching 10 during one's own turn (here with the 5th road taking Longest Road) ends the game at once."""
    g = new_game()
    build_city(g, RED, 13)
    build_city(g, RED, 22)
    for _ in range(4):
        buy(g, RED, DevCard.VICTORY_POINT)
    build_line(g, RED, 18, 13, 8, 4, 0)
    assert g.vp(RED) == 8 and g.longest_road(RED) == 4
    deal(g, RED, lumber=2, brick=2)
    g.play(BuildRoad(p_(0, 3)))
    assert g.vp(RED) == 10
    assert g.phase is Phase.GAME_OVER and g.is_over
    assert g.winner == RED
    assert g.legal_actions() == []
    for action in (BuildRoad(p_(3, 7)), EndTurn(), RollDice(dice=(3, 3))):
        assert_illegal(g, action, "B-END-3")


def test_B_END_3_largest_army_knight_wins_before_the_robber_moves():
    """B-END-3 with B-LA-1: the third knight brings red to 10 with Largest Army; the game ends at once."""
    g = new_game()
    build_city(g, RED, 13)
    build_city(g, RED, 22)
    _knights_for(g, RED, 3)
    for _ in range(4):
        buy(g, RED, DevCard.VICTORY_POINT)
    for _ in range(2):
        next_main(g, RED)
        play_knight(g, RED)
    assert g.vp(RED) == 8 and not g.is_over
    to_roll(g, RED)
    robber = g.robber
    g.play(PlayKnight())
    assert g.largest_army_holder == RED and g.vp(RED) == 10
    assert g.is_over and g.winner == RED
    assert g.robber == robber
    assert_illegal(g, MoveRobber(other_hex(g)), "B-END-3")


def test_B_END_4_hidden_vp_cards_count_and_can_win_the_turn_they_are_bought():
    """B-END-4 with B-TURN-7: hidden VP cards count toward the 10; a VP card bought at 9 wins at once (visible VP 5).
    Decision A-10."""
    g = new_game()
    build_city(g, RED, 13)
    build_line(g, RED, 18, 13, 8, 4, 0, 3)  # Longest Road: 1 + 2 + 2 = 5
    assert g.vp(RED) == 5
    for _ in range(4):
        buy(g, RED, DevCard.VICTORY_POINT)
    assert g.vp(RED) == 9 and g.vp(RED, visible=True) == 5 and not g.is_over
    buy(g, RED, DevCard.VICTORY_POINT)
    assert g.vp(RED) == 10
    assert g.vp(RED, visible=True) == 5
    assert g.is_over and g.winner == RED


def _blue_gets_ten_on_oranges_turn() -> Game:
    """Blue (8 VP) is handed Longest Road by orange's break of red's road, on orange's turn."""
    g = new_game()
    build_city(g, BLUE, 14)
    build_city(g, BLUE, 39)
    for _ in range(4):
        buy(g, BLUE, DevCard.VICTORY_POINT)
    assert g.vp(BLUE) == 8
    _red_long_line(g)  # red 8: holder
    build_line(g, BLUE, 14, 19, 24, 30, 36, 31, 37)  # blue 6 < 8
    assert g.longest_road_holder == RED and g.vp(BLUE) == 8
    _orange_cuts_at_29(g)  # red 5, blue 6: blue takes the card on orange's turn
    assert g.road_lengths()[:2] == [5, 6]
    assert g.longest_road_holder == BLUE and g.vp(BLUE) == 10
    assert g.active_player == ORANGE
    assert not g.is_over and g.winner is None
    return g


def test_B_END_5_target_reached_off_turn_wins_when_own_turn_begins():
    """B-END-5: blue reaches 10 on orange's turn; nobody wins on orange's or red's turn; blue wins as blue's turn begins."""
    g = _blue_gets_ten_on_oranges_turn()
    g.play(EndTurn())  # red's turn: not blue's
    assert g.active_player == RED and not g.is_over
    g.play(RollDice(dice=QUIET_DICE))
    assert not g.is_over
    g.play(EndTurn())  # blue's turn begins with 10 VP (B-END-3)
    assert g.active_player == BLUE
    assert g.is_over and g.winner == BLUE
    assert g.phase is Phase.GAME_OVER
    assert_illegal(g, RollDice(dice=(3, 3)), "B-END-3")


def test_B_END_5_off_turn_target_lost_before_own_turn_does_not_win():
    """B-END-5: blue must *still* have 10 when its turn begins: red retakes Longest Road in between, so blue does not win."""
    g = _blue_gets_ten_on_oranges_turn()
    g.play(EndTurn())
    build_line(g, RED, 29, 34, 28, 22, 16, 11, 7, 3)  # red 3-7-11-16-22-28-34-29: 7 > 6
    assert g.longest_road(RED) == 7 and g.longest_road_holder == RED
    assert g.vp(BLUE) == 8
    g.play(EndTurn())
    assert g.active_player == BLUE and g.phase is Phase.ROLL
    assert not g.is_over and g.winner is None


def test_B_END_5_ten_at_the_start_of_own_turn_wins_before_rolling():
    """B-END-5 with B-END-3: red, handed Longest Road on orange's turn, wins the moment red's turn begins."""
    g = new_game()
    build_city(g, RED, 13)
    build_city(g, RED, 22)
    for _ in range(4):
        buy(g, RED, DevCard.VICTORY_POINT)
    build_line(g, BLUE, 39, 34, 29, 23, 18, 24, 19, 14)  # blue 7: holder
    build_line(g, RED, 28, 22, 16, 11, 7, 3, 0)  # red 6
    assert g.longest_road_holder == BLUE and g.vp(RED) == 8
    _orange_cuts_at_29(g)  # blue 5, red 6
    assert g.road_lengths()[:2] == [6, 5]
    assert g.longest_road_holder == RED and g.vp(RED) == 10
    assert g.active_player == ORANGE and not g.is_over
    turn, rolls = g.turn, len(g.dice_history)
    g.play(EndTurn())
    assert g.active_player == RED and g.turn == turn + 1
    assert g.is_over and g.winner == RED
    assert len(g.dice_history) == rolls  # won before rolling
    assert g.vp(RED, visible=True) == 6  # B-END-4: the hidden VP cards made the difference


def test_B_END_6_visible_vp_excludes_hidden_vp_cards():
    """B-END-6: visible VP = all VP except hidden VP cards, for every viewer."""
    g = new_game()
    buy(g, RED, DevCard.VICTORY_POINT)
    buy(g, RED, DevCard.VICTORY_POINT)
    build_line(g, RED, 18, 13, 8, 4, 0, 3)
    assert g.vp(RED) == 2 + 2 + 2
    assert g.vp(RED, visible=True) == 2 + 2
    for q in range(4):
        assert g.view(q).visible_vp == tuple(g.vp(p, visible=True) for p in range(4))
        assert g.view(q).visible_vp[RED] == 4
    assert g.view(RED).own_vp == 6
    for p in (BLUE, WHITE, ORANGE):
        assert g.vp(p, visible=True) == g.vp(p) == 2

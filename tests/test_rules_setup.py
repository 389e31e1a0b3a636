"""Rules of RULES.md sections 1, 1.1 and 2: components, board geometry and setup.

Every test is a position: a board (``Board.beginner()``, ``Board.random(seed=...)``
or a board file) plus the actions played on it with ``game.play(...)``.
Rule ids are cited in test names and docstrings.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from catan_nb import Board, BoardFileError, Colour, DevCard, Game, IllegalActionError, Resource, Terrain
from catan_nb import hexgrid
from catan_nb.board import BASE_ROWS
from catan_nb.constants import (
    BANK_PER_RESOURCE,
    BASE_HARBOURS,
    BASE_TERRAIN_COUNTS,
    BASE_TOKEN_LETTERS,
    COSTS,
    DEV_DECK,
    HARBOUR_PROPOSAL_POSITIONS,
    HARBOUR_PROPOSAL_TYPES,
    PIECE_LIMITS,
    SPECIAL_CARD_VP,
    HarbourKind,
    pips,
    roll_probability,
)
from catan_nb.rules import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    EndTurn,
    MaritimeTrade,
    Phase,
    RollDice,
    Rules,
)
from helpers import deal, empty_hands, found, node, path

LUMBER, BRICK, WOOL, GRAIN, ORE = Resource.LUMBER, Resource.BRICK, Resource.WOOL, Resource.GRAIN, Resource.ORE

# The B-SETUP-13 spiral from the default corner (1,1).
SPIRAL_FROM_1_1 = [
    (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (5, 2), (5, 3), (4, 4), (3, 5), (2, 4), (1, 3), (1, 2),
    (2, 2), (3, 2), (4, 2), (4, 3), (3, 4), (2, 3),
    (3, 3),
]  # fmt: skip

# The B-BOARD-6 beginner table.
BEGINNER_LAYOUT = {
    (1, 1): (Terrain.MOUNTAINS, 10), (1, 2): (Terrain.PASTURE, 2), (1, 3): (Terrain.FOREST, 9),
    (2, 1): (Terrain.FIELDS, 12), (2, 2): (Terrain.HILLS, 6), (2, 3): (Terrain.PASTURE, 4), (2, 4): (Terrain.HILLS, 10),
    (3, 1): (Terrain.FIELDS, 9), (3, 2): (Terrain.FOREST, 11), (3, 3): (Terrain.DESERT, None),
    (3, 4): (Terrain.FOREST, 3), (3, 5): (Terrain.MOUNTAINS, 8),
    (4, 1): (Terrain.FOREST, 8), (4, 2): (Terrain.MOUNTAINS, 3), (4, 3): (Terrain.FIELDS, 4), (4, 4): (Terrain.PASTURE, 5),
    (5, 1): (Terrain.HILLS, 5), (5, 2): (Terrain.FIELDS, 6), (5, 3): (Terrain.PASTURE, 11),
}  # fmt: skip

CORNERS_CCW = [(1, 1), (3, 1), (5, 1), (5, 3), (3, 5), (1, 3)]




# ---------------------------------------------------------------------- helpers
@pytest.fixture(scope="module")
def beginner() -> Board:
    return Board.beginner()


def assert_illegal(game: Game, action, rule: str) -> IllegalActionError:
    """The action is rejected citing ``rule`` and the game is left exactly as it was."""
    before = game.state()
    with pytest.raises(IllegalActionError) as info:
        game.play(action)
    assert info.value.rule == rule, str(info.value)
    assert game.state() == before
    return info.value


def hand(game: Game, p: int, **cards: int) -> dict[Resource, int]:
    """Expected ``game.hand(p)`` with the given counts, zero elsewhere."""
    return {r: cards.get(r.name.lower(), 0) for r in Resource}


def total_cards(game: Game) -> int:
    return sum(game.bank) + sum(sum(h) for h in game.hands)


def rc(board: Board, hex_id: int) -> tuple[int, int]:
    t = board.hexes[hex_id]
    return (t.row, t.col)


def node_hexes_rc(board: Board, v: int) -> set[tuple[int, int]]:
    return {(t.row, t.col) for t in board.intersection_hexes(v)}


def seat_of(game: Game, colour: Colour) -> int:
    return game.colours.index(colour)


def standard_founding(b: Board) -> list[tuple[int, int]]:
    """Eight legal founding placements, in 4-player snake order from seat 0."""
    return [
        (node(b, 2, 2, "NE"), path(b, 2, 2, "E")),  # seat 0, round 1
        (node(b, 4, 1, "SE"), path(b, 4, 1, "E")),  # seat 1
        (node(b, 3, 4, "NE"), path(b, 3, 4, "E")),  # seat 2
        (node(b, 4, 3, "SW"), path(b, 4, 3, "W")),  # seat 3
        (node(b, 4, 3, "SE"), path(b, 4, 3, "E")),  # seat 3, round 2
        (node(b, 2, 1, "NE"), path(b, 2, 1, "E")),  # seat 2
        (node(b, 2, 3, "NE"), path(b, 2, 3, "E")),  # seat 1
        (node(b, 3, 1, "NE"), path(b, 3, 1, "E")),  # seat 0
    ]


def beginner_game(b: Board, **kw) -> Game:
    kw.setdefault("players", 4)
    kw.setdefault("seed", 0)
    return Game(b, start="beginner", **kw)


def to_main(game: Game, dice=(1, 1)) -> None:
    """Roll (a non-7) so the active player reaches the main phase."""
    assert sum(dice) != 7
    game.play(RollDice(dice))
    assert game.phase is Phase.MAIN


def red_five_settlements(b: Board) -> Game:
    """Beginner game, red (seat 0) builds roads and 3 more settlements: 5 on the board."""
    g = beginner_game(b)
    to_main(g)
    empty_hands(g)
    red = 0
    plan = [
        # (road ends..., settlement)
        ([(node(b, 2, 2, "SE"), node(b, 2, 2, "S"))], node(b, 2, 2, "S")),
        ([(node(b, 3, 1, "SE"), node(b, 3, 1, "S"))], node(b, 3, 1, "S")),
        ([(node(b, 3, 1, "S"), node(b, 3, 1, "SW")), (node(b, 3, 1, "SW"), node(b, 3, 1, "NW"))], node(b, 3, 1, "NW")),
    ]
    for roads, v in plan:
        for a, c in roads:
            deal(g, red, lumber=1, brick=1)
            g.play(BuildRoad(b.path_between(a, c)))
        deal(g, red, lumber=1, brick=1, wool=1, grain=1)
        g.play(BuildSettlement(v))
    assert g.n_settlements[red] == 5
    assert sum(g.hands[red]) == 0
    return g


# ====================================================================== 1. Components
def test_B_COMP_1_terrain_produces_its_resource(beginner):
    """B-COMP-1: forest→lumber, hills→brick, pasture→wool, fields→grain, mountains→ore, desert→nothing.

    Position: beginner start; red rolls 6 then (next turn) blue rolls 3.
    """
    assert Terrain.FOREST.resource is LUMBER
    assert Terrain.HILLS.resource is BRICK
    assert Terrain.PASTURE.resource is WOOL
    assert Terrain.FIELDS.resource is GRAIN
    assert Terrain.MOUNTAINS.resource is ORE
    assert Terrain.DESERT.resource is None
    assert len(Resource) == 5
    g = beginner_game(beginner)
    empty_hands(g)
    g.play(RollDice((2, 4)))  # 6: (2,2) hills 6 -> red A and white; (5,2) fields 6 -> orange C
    red, white, orange = (seat_of(g, c) for c in (Colour.RED, Colour.WHITE, Colour.ORANGE))
    assert g.hand(red) == hand(g, red, brick=1)
    assert g.hand(white) == hand(g, white, brick=1)
    assert g.hand(orange) == hand(g, orange, grain=1)
    g.play(EndTurn())
    empty_hands(g)
    g.play(RollDice((1, 2)))  # 3: (4,2) mountains 3 -> blue B, orange C; (3,4) forest 3 -> white D
    blue = seat_of(g, Colour.BLUE)
    assert g.hand(blue) == hand(g, blue, ore=1)
    assert g.hand(orange) == hand(g, orange, ore=1)
    assert g.hand(white) == hand(g, white, lumber=1)
    desert = beginner.hex_at(3, 3)
    assert desert.resource is None and desert.token is None


def test_B_COMP_2_bank_starts_with_95_cards_19_each(beginner):
    """B-COMP-2: the bank holds 19 of each of the 5 resources, 95 cards."""
    g = Game(beginner, players=4, seed=0)
    assert BANK_PER_RESOURCE == 19
    assert g.bank == [19] * 5
    assert sum(g.bank) == 95
    assert all(sum(h) == 0 for h in g.hands)
    # The beginner start hands cards out of the same 95.
    gb = beginner_game(beginner)
    assert total_cards(gb) == 95


def test_B_COMP_3_nineteen_hexes_by_terrain(beginner):
    """B-COMP-3: 19 land hexes: forest 4, pasture 4, fields 4, hills 3, mountains 3, desert 1."""
    expected = {Terrain.FOREST: 4, Terrain.PASTURE: 4, Terrain.FIELDS: 4, Terrain.HILLS: 3, Terrain.MOUNTAINS: 3, Terrain.DESERT: 1}
    assert dict(BASE_TERRAIN_COUNTS) == expected
    assert len(beginner.hexes) == 19
    assert Counter(t.terrain for t in beginner.hexes) == expected
    for seed in range(5):
        assert Counter(t.terrain for t in Board.random(seed=seed).hexes) == expected


def test_B_COMP_4_eighteen_number_tokens_no_seven(beginner, tmp_path):
    """B-COMP-4: one 2, one 12, two each of 3,4,5,6,8,9,10,11; no 7."""
    expected = Counter({2: 1, 12: 1, **{k: 2 for k in (3, 4, 5, 6, 8, 9, 10, 11)}})
    assert sum(expected.values()) == 18
    assert Counter(BASE_TOKEN_LETTERS) == expected
    assert Counter(t.token for t in beginner.hexes if t.token) == expected
    assert Counter(t.token for t in Board.random(seed=11).hexes if t.token) == expected
    # A board file with a 7 token is rejected.
    data = beginner.to_dict()
    data["hexes"][0]["token"] = 7
    f = tmp_path / "seven.json"
    f.write_text(json.dumps(data))
    with pytest.raises(BoardFileError) as info:
        Board.load(f)
    assert "hexes[0].token" in str(info.value) and str(f) in str(info.value)


def test_B_COMP_5_roll_probability_and_red_six_eight(beginner):
    """B-COMP-5: P(k) = (6 − |7 − k|)/36; 6 and 8 are the most likely token values."""
    for k in range(2, 13):
        assert roll_probability(k) == Fraction(6 - abs(7 - k), 36)
    assert sum(roll_probability(k) for k in range(2, 13)) == 1
    assert roll_probability(7) == Fraction(1, 6)
    token_values = set(BASE_TOKEN_LETTERS)
    best = max(roll_probability(k) for k in token_values)
    assert {k for k in token_values if roll_probability(k) == best} == {6, 8}
    assert [pips(k) for k in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)] == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]
    assert beginner.hex_at(2, 2).pips == 5  # hills 6
    assert beginner.hex_at(3, 3).pips == 0  # desert
    # Exposed per intersection too: blue B on forest 8 / mountains 3 / hills 5.
    v = node(beginner, 4, 1, "SE")
    assert beginner.expected_production(v) == {
        LUMBER: Fraction(5, 36),
        ORE: Fraction(2, 36),
        BRICK: Fraction(4, 36),
    }


def test_B_COMP_6_B_COMP_7_B_COMP_8_development_deck_of_25(beginner):
    """B-COMP-6: 25 cards, 14 knights, 6 progress, 5 VP. B-COMP-7: 2 Road Building, 2 Year of Plenty,
    2 Monopoly. B-COMP-8: each VP card is worth 1 VP.

    Position: beginner start; red buys the whole deck, one card at a time.
    Decision A-38."""
    assert DEV_DECK[DevCard.KNIGHT] == 14
    assert DEV_DECK[DevCard.ROAD_BUILDING] == 2
    assert DEV_DECK[DevCard.YEAR_OF_PLENTY] == 2
    assert DEV_DECK[DevCard.MONOPOLY] == 2
    assert DEV_DECK[DevCard.VICTORY_POINT] == 5
    assert sum(DEV_DECK.values()) == 25
    g = beginner_game(beginner)
    assert g.deck == [DEV_DECK[c] for c in DevCard]
    to_main(g)
    vp_before = g.vp(0)
    for _ in range(25):
        deal(g, 0, ore=1, wool=1, grain=1)
        g.play(BuyDevelopmentCard())
    assert g.dev_cards(0) == dict(DEV_DECK)
    assert sum(g.deck) == 0
    assert g.vp(0) == vp_before + 5  # B-COMP-8: 5 VP cards, 1 VP each
    assert g.vp(0, visible=True) == vp_before
    assert total_cards(g) == 95


# ---------------------------------------------------------------------- B-COMP-9..13
def test_B_COMP_9_pieces_per_colour_and_player_count(beginner):
    """B-COMP-9: 5 settlements, 4 cities, 15 roads per colour; four colours in the base box."""
    assert dict(PIECE_LIMITS) == {"road": 15, "settlement": 5, "city": 4}
    g = Game(beginner, players=4, seed=0)
    for p in range(4):
        assert g.pieces_left(p) == {"road": 15, "settlement": 5, "city": 4}
    assert set(g.colours) == {Colour.RED, Colour.BLUE, Colour.WHITE, Colour.ORANGE}
    assert len(set(g.colours)) == 4
    for n in (2, 7):
        with pytest.raises(ValueError, match="B-COMP-9"):
            Game(beginner, players=n, seed=0)
    with pytest.raises(ValueError, match="X56-BOARD-2"):  # five players need the extension's island
        Game(beginner, players=5, seed=0)


def test_B_COMP_10_other_components(beginner):
    """B-COMP-10: Longest Road / Largest Army worth 2 VP, one robber, two six-sided dice, 9 harbours,
    building costs."""
    assert SPECIAL_CARD_VP == 2
    assert set(COSTS) == {"road", "settlement", "city", "development_card"}
    assert len(beginner.harbours) == 9
    g = beginner_game(beginner)
    assert isinstance(g.robber, int) and g.robber == beginner.robber_start
    assert g.longest_road_holder is None and g.largest_army_holder is None
    assert_illegal(g, RollDice((1, 2, 3)), "B-PROD-1")
    assert_illegal(g, RollDice((0, 6)), "B-PROD-1")
    assert_illegal(g, RollDice((1, 7)), "B-PROD-1")
    g.play(RollDice((6, 6)))
    assert g.dice_history == [(6, 6)]
    # Random rolls are two dice of 1..6.
    g2 = beginner_game(beginner, seed=5)
    for _ in range(30):
        if g2.phase is not Phase.ROLL:
            break
        g2.play(RollDice())
        d = g2.dice_history[-1]
        assert len(d) == 2 and all(1 <= x <= 6 for x in d)
        if g2.phase is Phase.MAIN:
            g2.play(EndTurn())


def test_B_COMP_11_nine_harbours_four_generic_five_special(beginner):
    """B-COMP-11: 4 generic 3:1 harbours and one 2:1 harbour per resource."""
    assert dict(BASE_HARBOURS) == {None: 4, LUMBER: 1, BRICK: 1, WOOL: 1, GRAIN: 1, ORE: 1}
    for board in (beginner, Board.random(seed=3), Board.random(seed=4, shuffle_harbours=True)):
        assert Counter(h.resource for h in board.harbours) == Counter(dict(BASE_HARBOURS))
        assert sorted(h.ratio for h in board.harbours) == [2] * 5 + [3] * 4


def test_B_COMP_12_no_sixth_settlement(beginner):
    """B-COMP-12: with all 5 settlements on the board, a sixth cannot be built."""
    b = beginner
    g = red_five_settlements(b)
    assert g.pieces_left(0)["settlement"] == 0
    # Open a fresh, legal spot: (1,2) NE via (1,2) S -> (1,2) SE -> (1,2) NE.
    for a, c in [(node(b, 1, 2, "S"), node(b, 1, 2, "SE")), (node(b, 1, 2, "SE"), node(b, 1, 2, "NE"))]:
        deal(g, 0, lumber=1, brick=1)
        g.play(BuildRoad(b.path_between(a, c)))
    deal(g, 0, lumber=1, brick=1, wool=1, grain=1)
    spot = node(b, 1, 2, "NE")
    assert not any(isinstance(a, BuildSettlement) for a in g.legal_actions())
    assert_illegal(g, BuildSettlement(spot), "B-COMP-12")


def test_B_COMP_12_no_fifth_city(beginner):
    """B-COMP-12: with all 4 cities on the board, a fifth cannot be built."""
    b = beginner
    g = red_five_settlements(b)
    for v in (node(b, 2, 2, "NE"), node(b, 3, 1, "NE"), node(b, 2, 2, "S"), node(b, 3, 1, "S")):
        deal(g, 0, ore=3, grain=2)
        g.play(BuildCity(v))
    assert g.pieces_left(0) == {"road": 15 - len(g.roads[0]), "settlement": 4, "city": 0}
    assert not g.is_over
    deal(g, 0, ore=3, grain=2)
    assert not any(isinstance(a, BuildCity) for a in g.legal_actions())
    assert_illegal(g, BuildCity(node(b, 3, 1, "NW")), "B-COMP-12")


def test_B_COMP_12_no_sixteenth_road(beginner):
    """B-COMP-12: with all 15 roads on the board, a sixteenth cannot be built."""
    g = beginner_game(beginner)
    to_main(g)
    empty_hands(g)
    while len(g.roads[0]) < 15:
        deal(g, 0, lumber=1, brick=1)
        candidates = [a for a in g.legal_actions() if isinstance(a, BuildRoad)]
        g.play(candidates[0])
        empty_hands(g)
    assert g.pieces_left(0)["road"] == 0
    deal(g, 0, lumber=1, brick=1)
    free = [e for e in range(72) if g.road_owner(e) is None and any(v in g.road_nodes[0] for v in beginner.path_nodes(e))]
    assert free, "red's network still has an open path"
    assert not any(isinstance(a, BuildRoad) for a in g.legal_actions())
    assert_illegal(g, BuildRoad(free[0]), "B-COMP-12")


def test_B_COMP_13_no_purchase_from_empty_deck(beginner):
    """B-COMP-13: once the 25 development cards are sold, none can be bought."""
    g = beginner_game(beginner)
    to_main(g)
    for _ in range(25):
        deal(g, 0, ore=1, wool=1, grain=1)
        g.play(BuyDevelopmentCard())
    deal(g, 0, ore=1, wool=1, grain=1)
    assert BuyDevelopmentCard() not in g.legal_actions()
    assert_illegal(g, BuyDevelopmentCard(), "B-COMP-13")
    assert_illegal(g, BuyDevelopmentCard(DevCard.KNIGHT), "B-COMP-13")


# ---------------------------------------------------------------------- B-COMP-14 bank shortage
def test_B_COMP_14_two_claimants_short_nobody_gets_it(beginner):
    """B-COMP-14: the bank has 1 ore, blue B and orange C are each owed 1 ore from (4,2) mountains 3:
    nobody gets ore; white's lumber from (3,4) forest 3 (another resource) is paid. Decision A-40."""
    g = beginner_game(beginner)  # red to roll
    blue, white, orange = (seat_of(g, c) for c in (Colour.BLUE, Colour.WHITE, Colour.ORANGE))
    deal(g, 0, ore=g.bank[ORE.value] - 1)  # red hoards ore: the bank keeps 1
    assert g.bank[ORE.value] == 1
    before = [list(h) for h in g.hands]
    g.play(RollDice((1, 2)))
    assert g.hands[blue][ORE.value] == before[blue][ORE.value]
    assert g.hands[orange][ORE.value] == before[orange][ORE.value]
    assert g.bank[ORE.value] == 1
    assert g.hands[white][LUMBER.value] == before[white][LUMBER.value] + 1
    assert total_cards(g) == 95


def test_B_COMP_14_two_claimants_exactly_enough_both_get_it(beginner):
    """B-COMP-14: the shortage rule applies only when the bank cannot pay everyone (2 ore, 2 owed)."""
    g = beginner_game(beginner)
    blue, orange = seat_of(g, Colour.BLUE), seat_of(g, Colour.ORANGE)
    deal(g, 0, ore=g.bank[ORE.value] - 2)
    before = [list(h) for h in g.hands]
    g.play(RollDice((1, 2)))
    assert g.hands[blue][ORE.value] == before[blue][ORE.value] + 1
    assert g.hands[orange][ORE.value] == before[orange][ORE.value] + 1
    assert g.bank[ORE.value] == 0


def _white_city_owed_two_ore(beginner, rules=None) -> Game:
    """White (seat 2) upgrades D to a city on (3,5) mountains 8, then the bank keeps 1 ore."""
    g = beginner_game(beginner, starting_seat=2, rules=rules)
    white = seat_of(g, Colour.WHITE)
    assert white == 2
    to_main(g)  # roll 2: only red's pasture produces
    d = beginner.start_pieces[Colour.WHITE].lettered
    deal(g, white, ore=3, grain=2)
    g.play(BuildCity(d))
    g.play(EndTurn())
    deal(g, 0, ore=g.bank[ORE.value] - 1)
    assert g.bank[ORE.value] == 1
    return g


def test_B_COMP_14_single_claimant_takes_what_is_left(beginner):
    """B-COMP-14 exception (Rules.shortage_single_taker, default on): white alone is owed 2 ore, the
    bank has 1: white takes it."""
    g = _white_city_owed_two_ore(beginner)
    assert g.rules.shortage_single_taker is True
    white, blue = seat_of(g, Colour.WHITE), seat_of(g, Colour.BLUE)
    before = [list(h) for h in g.hands]
    g.play(RollDice((4, 4)))  # 8: (3,5) mountains 8 -> white city; (4,1) forest 8 -> blue B
    assert g.hands[white][ORE.value] == before[white][ORE.value] + 1
    assert g.bank[ORE.value] == 0
    assert g.hands[blue][LUMBER.value] == before[blue][LUMBER.value] + 1
    assert total_cards(g) == 95


def test_B_COMP_14_single_claimant_option_off_gets_nothing(beginner):
    """B-COMP-14 without the recalled exception: a sole claimant who cannot be paid in full gets nothing."""
    g = _white_city_owed_two_ore(beginner, rules=Rules(shortage_single_taker=False))
    white = seat_of(g, Colour.WHITE)
    before = list(g.hands[white])
    g.play(RollDice((4, 4)))
    assert g.hands[white][ORE.value] == before[ORE.value]
    assert g.bank[ORE.value] == 1


# ====================================================================== 1.1 Board geometry
def test_B_BOARD_1_nineteen_pointy_top_hexes_in_rows_3_4_5_4_3(beginner):
    """B-BOARD-1: 19 land hexes, pointy-top, rows 3,4,5,4,3; a sea frame (coastal ring) surrounds it."""
    for board in (beginner, Board.random(seed=2)):
        assert board.rows == (3, 4, 5, 4, 3) == BASE_ROWS
        assert len(board.hexes) == 19
        assert [t.row for t in board.hexes] == [1] * 3 + [2] * 4 + [3] * 5 + [4] * 4 + [5] * 3
        for t in board.hexes:
            # Pointy-top: neighbours in a row share a vertical (E/W) side.
            if t.col < board.rows[t.row - 1]:
                assert board.path_on((t.row, t.col), "E") == board.path_on((t.row, t.col + 1), "W")
            # The top corner is the N corner, straight above the centre.
            cx, cy = hexgrid.hex_centre(board.axial(t.id))
            assert hexgrid.corner_of(board.axial(t.id), "N") == (cx, cy + 2)
        coast = board.coastal_paths_ccw
        assert len(coast) == 30
        # The coastal paths form one closed ring.
        for i in range(30):
            assert set(board.path_nodes(coast[i])) & set(board.path_nodes(coast[(i + 1) % 30]))


def test_B_BOARD_2_row_col_adjacency():
    """B-BOARD-2: growing rows touch (r+1,c),(r+1,c+1) below; shrinking rows touch (r+1,c−1),(r+1,c)."""
    rows = BASE_ROWS
    land = {(r, c) for r in range(1, 6) for c in range(1, rows[r - 1] + 1)}
    ax = {h: hexgrid.offset_to_axial(*h, rows) for h in land}
    back = {a: h for h, a in ax.items()}
    assert len(back) == 19
    for (r, c), a in ax.items():
        assert hexgrid.axial_to_offset(a, rows) == (r, c)
        touching = {back[n] for n in hexgrid.neighbours(a) if n in back}
        below = {h for h in touching if h[0] == r + 1}
        same = {h for h in touching if h[0] == r}
        if r < 5:
            expected = {(r + 1, c), (r + 1, c + 1)} if rows[r] > rows[r - 1] else {(r + 1, c - 1), (r + 1, c)}
            assert below == expected & land, (r, c)
        assert same == {(r, c - 1), (r, c + 1)} & land
    # Concrete cases from the rule.
    assert {back[n] for n in hexgrid.neighbours(ax[(1, 1)]) if n in back} == {(1, 2), (2, 1), (2, 2)}
    assert {back[n] for n in hexgrid.neighbours(ax[(4, 2)]) if n in back} == {(3, 2), (3, 3), (4, 1), (4, 3), (5, 1), (5, 2)}
    # The board graph agrees: two hexes share a path exactly when they touch.
    b = Board.beginner()
    shared = set()
    for a, c, d in b.graph.edges(data=True):
        hs = set(b.graph.nodes[a]["hexes"]) & set(b.graph.nodes[c]["hexes"])
        if len(hs) == 2:
            shared.add(frozenset(rc(b, h) for h in hs))
    expected_pairs = {
        frozenset({h, back[n]}) for h, a in ax.items() for n in hexgrid.neighbours(a) if n in back
    }
    assert shared == expected_pairs
    with pytest.raises(ValueError):
        hexgrid.offset_to_axial(3, 6, rows)


def test_B_BOARD_3_54_intersections_72_paths_30_coastal(beginner):
    """B-BOARD-3: 54 intersections, 72 paths, 30 of them coastal (edge attribute "coastal")."""
    g = beginner.graph
    assert g.number_of_nodes() == 54
    assert g.number_of_edges() == 72
    assert sum(1 for *_, c in g.edges(data="coastal") if c) == 30
    # A coastal path borders one land hex, an inland path two.
    for a, c, coastal in g.edges(data="coastal"):
        shared = set(g.nodes[a]["hexes"]) & set(g.nodes[c]["hexes"])
        assert len(shared) == (1 if coastal else 2)
    assert sorted(d["id"] for *_, d in g.edges(data=True)) == list(range(72))


def test_B_BOARD_3_settlements_on_intersections_roads_on_paths_incl_coast(beginner):
    """B-BOARD-3: settlements go on intersections, roads on paths, coastal paths included;
    ids outside 0..53 / 0..71 are rejected."""
    game = Game(beginner, players=3, seed=0)
    assert_illegal(game, BuildSettlement(54), "B-BOARD-3")
    assert_illegal(game, BuildSettlement(-1), "B-BOARD-3")
    v = node(beginner, 1, 1, "N")  # coastal corner
    game.play(BuildSettlement(v))
    assert_illegal(game, BuildRoad(72), "B-BOARD-3")
    coastal = path(beginner, 1, 1, "NW")
    assert beginner.graph.edges[beginner.path_nodes(coastal)]["coastal"]
    game.play(BuildRoad(coastal))
    assert game.road_owner(coastal) == 0
    assert game.building_at(v)[0] == 0


def test_B_BOARD_4_intersections_touch_at_most_three_hexes(beginner):
    """B-BOARD-4: an intersection touches ≤ 3 hexes; coastal intersections touch 1 or 2."""
    g = beginner.graph
    coastal_nodes = {v for a, c, co in g.edges(data="coastal") if co for v in (a, c)}
    assert len(coastal_nodes) == 30
    sizes = Counter(len(g.nodes[v]["hexes"]) for v in g.nodes)
    assert sizes == Counter({3: 24, 2: 12, 1: 18})
    for v in g.nodes:
        k = len(g.nodes[v]["hexes"])
        assert 1 <= k <= 3
        if v in coastal_nodes:
            assert k in (1, 2)
        else:
            assert k == 3
    # Named examples: blue B's corner touches three hexes; the top corner of (1,1) touches one.
    assert len(beginner.intersection_hexes(node(beginner, 4, 1, "SE"))) == 3
    assert len(beginner.intersection_hexes(node(beginner, 1, 1, "N"))) == 1
    assert len(beginner.intersection_hexes(node(beginner, 1, 1, "NE"))) == 2


def test_B_BOARD_5_adjacency_degree_two_or_three(beginner):
    """B-BOARD-5: adjacent = joined by one path; every intersection has 2 or 3 neighbours."""
    g = beginner.graph
    degrees = Counter(dict(g.degree()).values())
    assert degrees == Counter({2: 18, 3: 36})
    t = beginner.topology
    for v in g.nodes:
        assert len(t.node_neighbours[v]) in (2, 3)
        for w in t.node_neighbours[v]:
            e = beginner.path_between(v, w)
            assert set(beginner.path_nodes(e)) == {v, w}
    a, c = node(beginner, 1, 1, "N"), node(beginner, 1, 1, "S")
    with pytest.raises(KeyError):
        beginner.path_between(a, c)


def test_B_BOARD_6_beginner_layout_exactly(beginner):
    """B-BOARD-6: the beginner board's terrains and tokens are exactly the table."""
    got = {(t.row, t.col): (t.terrain, t.token) for t in beginner.hexes}
    assert got == BEGINNER_LAYOUT
    assert beginner.hex_at(3, 3).terrain is Terrain.DESERT


def test_B_BOARD_7_robber_starts_on_desert(beginner):
    """B-BOARD-7: the robber starts on the desert."""
    assert rc(beginner, beginner.robber_start) == (3, 3)
    for g in (Game(beginner, players=4, seed=0), beginner_game(beginner)):
        assert beginner.hexes[g.robber].terrain is Terrain.DESERT


@pytest.mark.parametrize("k", range(9))
@pytest.mark.parametrize("end", [0, 1])
def test_B_BOARD_8_harbour_usable_from_either_end(beginner, k, end):
    """B-BOARD-8: a settlement on either end of the harbour path gives that harbour's rate."""
    h = beginner.harbours[k]
    v = beginner.path_nodes(h.path)[end]
    g = Game(beginner, players=3, seed=0)
    assert all(g.maritime_rate(0, r) == 4 for r in Resource)
    g.play(BuildSettlement(v))
    for r in Resource:
        if h.resource is None:
            assert g.maritime_rate(0, r) == 3
        else:
            assert g.maritime_rate(0, r) == (2 if r is h.resource else 4)
    assert all(g.maritime_rate(1, r) == 4 for r in Resource)


def test_B_BOARD_8_harbour_belongs_to_both_ends_of_its_path(beginner):
    """B-BOARD-8: each harbour belongs to one coastal path; both end intersections carry it in the graph."""
    g = beginner.graph
    harbour_nodes = {v for v in g.nodes if g.nodes[v]["harbour"] is not None}
    assert len(harbour_nodes) == 18
    for h in beginner.harbours:
        a, c = beginner.path_nodes(h.path)
        assert g.edges[a, c]["coastal"]
        assert g.edges[a, c]["harbour"] is h
        assert g.nodes[a]["harbour"] is h and g.nodes[c]["harbour"] is h


def test_B_BOARD_8_engine_topology_knows_harbour_intersections(beginner):
    """B-BOARD-8: the engine's topology marks both ends of every harbour path with the harbour's
    typed code (its resource, or HarbourKind.GENERIC for a 3:1 harbour; never an int)."""
    t = beginner.topology
    for h in beginner.harbours:
        code = HarbourKind.GENERIC if h.resource is None else h.resource
        for v in beginner.path_nodes(h.path):
            assert t.node_harbour[v] is code
    assert sum(c is not None for c in t.node_harbour) == 18
    assert all(c is None or isinstance(c, (Resource, HarbourKind)) for c in t.node_harbour)


def test_B_BOARD_8_harbour_not_usable_from_next_intersection(beginner):
    """B-BOARD-8: an intersection one step away from the harbour path gives no harbour."""
    h = beginner.harbours[0]  # generic 3:1 on the NW side of (1,1)
    ends = set(beginner.path_nodes(h.path))
    near = [w for v in ends for w in beginner.graph.adj[v] if w not in ends and beginner.graph.nodes[w]["harbour"] is None]
    assert near
    g = Game(beginner, players=3, seed=0)
    g.play(BuildSettlement(near[0]))
    assert all(g.maritime_rate(0, r) == 4 for r in Resource)


def test_B_BOARD_8_ore_harbour_trade_after_founding(beginner):
    """B-BOARD-8: seat 0 founds on the far end of the 2:1 ore harbour path, then trades 2 ore for 1 wool."""
    b = beginner
    ore_h = next(h for h in b.harbours if h.resource is ORE)
    a, far = b.path_nodes(ore_h.path)
    g = Game(b, players=3, seed=0)
    placements = [
        (far, b.topology.node_edges[far][0]),  # seat 0
        (node(b, 2, 2, "NE"), path(b, 2, 2, "E")),  # seat 1
        (node(b, 3, 4, "NE"), path(b, 3, 4, "E")),  # seat 2
        (node(b, 2, 1, "NE"), path(b, 2, 1, "E")),  # seat 2
        (node(b, 2, 3, "NE"), path(b, 2, 3, "E")),  # seat 1
        (node(b, 3, 1, "NE"), path(b, 3, 1, "E")),  # seat 0
    ]
    found(g, placements)
    to_main(g, (1, 1))
    empty_hands(g)
    deal(g, 0, ore=2)
    g.play(MaritimeTrade(ORE, WOOL))
    assert g.hand(0) == hand(g, 0, wool=1)
    empty_hands(g)
    deal(g, 0, grain=3)
    assert_illegal(g, MaritimeTrade(GRAIN, WOOL), "B-TRADE-6")  # grain still trades 4:1


def test_B_BOARD_9_harbour_proposal_positions_and_types(beginner):
    """B-BOARD-9: coastal paths numbered 0-29 counter-clockwise from the NW side of (1,1);
    harbours on 0,3,7,10,13,17,20,23,27 typed 3:1, wool, 3:1, ore, grain, 3:1, brick, lumber, 3:1. Decision A-14."""
    b = beginner
    coast = b.coastal_paths_ccw
    assert len(coast) == 30 and len(set(coast)) == 30
    assert all(b.graph.edges[b.path_nodes(e)]["coastal"] for e in coast)
    assert coast[0] == path(b, 1, 1, "NW")
    # Counter-clockwise: down the west coast first.
    assert coast[1] == path(b, 1, 1, "W")
    assert coast[2] == path(b, 2, 1, "NW")
    assert coast[3] == path(b, 2, 1, "W")
    assert coast[-1] == path(b, 1, 1, "NE")
    assert HARBOUR_PROPOSAL_POSITIONS == (0, 3, 7, 10, 13, 17, 20, 23, 27)
    assert HARBOUR_PROPOSAL_TYPES == (None, WOOL, None, ORE, GRAIN, None, BRICK, LUMBER, None)
    expected = [(coast[i], t) for i, t in zip(HARBOUR_PROPOSAL_POSITIONS, HARBOUR_PROPOSAL_TYPES)]
    assert sorted((h.path, h.resource is None, str(h.resource)) for h in b.harbours) == sorted(
        (e, t is None, str(t)) for e, t in expected
    )
    by_path = {h.path: h.resource for h in b.harbours}
    for e, t in expected:
        assert by_path[e] is t
    # Same proposal on a variable board.
    r = Board.random(seed=9)
    assert {h.path: h.resource for h in r.harbours} == by_path
    # The edge attribute carries the harbour too.
    for e, t in expected:
        assert b.graph.edges[b.path_nodes(e)]["harbour"].resource is t


# ====================================================================== 2.1 Beginner setup
def test_B_SETUP_1_beginner_game_uses_fixed_board_and_harbours(beginner):
    """B-SETUP-1: a beginner game uses the B-BOARD-6 layout and the B-BOARD-9 harbours."""
    g = beginner_game(beginner)
    assert {(t.row, t.col): (t.terrain, t.token) for t in g.board.hexes} == BEGINNER_LAYOUT
    coast = g.board.coastal_paths_ccw
    assert [(h.path, h.resource) for h in sorted(g.board.harbours, key=lambda h: coast.index(h.path))] == [
        (coast[i], t) for i, t in zip(HARBOUR_PROPOSAL_POSITIONS, HARBOUR_PROPOSAL_TYPES)
    ]
    assert Board.beginner() == beginner


def test_B_SETUP_2_two_settlements_two_roads_per_colour(beginner):
    """B-SETUP-2: each colour gets all its pieces; 2 settlements and 2 roads go on the board."""
    g = beginner_game(beginner)
    for p, colour in enumerate(g.colours):
        sp = beginner.start_pieces[colour]
        assert len(sp.settlements) == 2 and len(sp.roads) == 2
        assert g.n_settlements[p] == 2 and g.n_cities[p] == 0
        assert sorted(g.roads[p]) == sorted(sp.roads)
        for v in sp.settlements:
            assert g.building_at(v)[0] == p
        for e in sp.roads:
            assert g.road_owner(e) == p
            assert set(beginner.path_nodes(e)) & set(sp.settlements)
        assert g.pieces_left(p) == {"road": 13, "settlement": 3, "city": 4}
    assert sum(o >= 0 for o in g.node_owner) == 8
    assert sum(o >= 0 for o in g.edge_owner) == 8


def test_B_SETUP_3_three_players_no_red(beginner):
    """B-SETUP-3: with 3 players the red pieces and red starting spots are not used."""
    g = beginner_game(beginner, players=3)
    assert Colour.RED not in g.colours
    assert set(g.colours) == {Colour.BLUE, Colour.WHITE, Colour.ORANGE}
    red = beginner.start_pieces[Colour.RED]
    for v in red.settlements:
        assert g.building_at(v) is None
    for e in red.roads:
        assert g.road_owner(e) is None
    used = {v for c in g.colours for v in beginner.start_pieces[c].settlements}
    assert {v for v, o in enumerate(g.node_owner) if o >= 0} == used
    assert sum(g.n_settlements) == 6
    assert sum(g.bank) == 95 - 9  # three lettered settlements, three cards each
    # Founding games with 3 players leave red out too.
    assert Colour.RED not in Game(beginner, players=3, seed=0).colours


def test_B_SETUP_4_starting_resources_from_lettered_settlement_only(beginner):
    """B-SETUP-4: each player takes 1 card per producing hex next to the lettered settlement only."""
    g = beginner_game(beginner)
    for p, colour in enumerate(g.colours):
        sp = beginner.start_pieces[colour]
        assert sp.lettered in sp.settlements
        expected = Counter(t.resource for t in beginner.intersection_hexes(sp.lettered) if t.resource)
        assert g.hand(p) == {r: expected.get(r, 0) for r in Resource}, colour
    expected_hands = {
        Colour.RED: hand(g, 0, brick=1, wool=2),  # A: pasture 2, hills 6, pasture 4
        Colour.BLUE: hand(g, 0, lumber=1, brick=1, ore=1),
        Colour.WHITE: hand(g, 0, lumber=1, brick=1, ore=1),
        Colour.ORANGE: hand(g, 0, grain=2, ore=1),
    }
    for p, colour in enumerate(g.colours):
        assert g.hand(p) == expected_hands[colour]
    assert sum(g.bank) == 95 - 12
    assert total_cards(g) == 95


def test_B_SETUP_5_derived_starting_spots_blue_orange_white(beginner):
    """B-SETUP-5 (GAP): blue "B" where (4,1),(4,2),(5,1) meet, starts with lumber, ore, brick;
    orange "C" where (4,2),(4,3),(5,2) meet, starts with ore, grain, grain; white "D" touches (3,4). Decision A-14."""
    g = Game(beginner, players=4, start="beginner")
    blue_b = beginner.start_pieces[Colour.BLUE].lettered
    orange_c = beginner.start_pieces[Colour.ORANGE].lettered
    white_d = beginner.start_pieces[Colour.WHITE].lettered
    assert node_hexes_rc(beginner, blue_b) == {(4, 1), (4, 2), (5, 1)}
    assert node_hexes_rc(beginner, orange_c) == {(4, 2), (4, 3), (5, 2)}
    assert (3, 4) in node_hexes_rc(beginner, white_d)
    blue, orange, white = (seat_of(g, c) for c in (Colour.BLUE, Colour.ORANGE, Colour.WHITE))
    assert g.building_at(blue_b)[0] == blue
    assert g.building_at(orange_c)[0] == orange
    assert g.building_at(white_d)[0] == white
    assert g.hand(blue) == hand(g, blue, lumber=1, ore=1, brick=1)
    assert g.hand(orange) == hand(g, orange, ore=1, grain=2)
    # Same with 3 players.
    g3 = Game(beginner, players=3, start="beginner")
    assert g3.hand(seat_of(g3, Colour.BLUE)) == hand(g3, 0, lumber=1, ore=1, brick=1)
    assert g3.hand(seat_of(g3, Colour.ORANGE)) == hand(g3, 0, ore=1, grain=2)
    assert g3.building_at(white_d)[0] == seat_of(g3, Colour.WHITE)


def test_B_SETUP_6_bank_deck_and_special_cards_beside_board(beginner):
    """B-SETUP-6: bank = five stacks; shuffled development deck; special cards unowned."""
    g = Game(beginner, players=4, seed=0)
    assert g.bank == [19, 19, 19, 19, 19]
    assert g.deck == [DEV_DECK[c] for c in DevCard]
    assert g.longest_road_holder is None and g.largest_army_holder is None
    assert g.dice_history == []
    # The deck is shuffled: the first card drawn depends on the seed.
    first = set()
    for seed in range(12):
        gb = beginner_game(beginner, seed=seed)
        to_main(gb)
        deal(gb, 0, ore=1, wool=1, grain=1)
        gb.play(BuyDevelopmentCard())
        first.add(next(c for c, k in gb.dev_cards(0).items() if k))
    assert len(first) > 1


def test_B_SETUP_7_hands_hidden_counts_public(beginner):
    """B-SETUP-7: a player's cards are hidden; the number of resource and development cards is public. Decision A-15."""
    g = beginner_game(beginner)
    view = g.view(1)
    assert view.hand == g.hand(1)
    assert view.card_counts == tuple(sum(h) for h in g.hands)
    assert view.dev_counts == (0, 0, 0, 0)
    assert "hands" not in type(view).__dataclass_fields__
    other = g.view(2)
    assert other.hand == g.hand(2) and other.card_counts == view.card_counts


def test_B_SETUP_8_starting_seat_parameter_default_zero(beginner):
    """B-SETUP-8 (DECISION): the starting seat is a parameter, default seat 0."""
    g = beginner_game(beginner)
    assert g.starting_seat == 0 and g.current_player == 0 and g.phase is Phase.ROLL
    g2 = beginner_game(beginner, starting_seat=2)
    assert g2.current_player == 2 and g2.active_player == 2 and g2.phase is Phase.ROLL
    f = Game(beginner, players=3, seed=0, starting_seat=1)
    assert f.current_player == 1 and f.phase is Phase.FOUNDING_SETTLEMENT
    with pytest.raises(ValueError):
        Game(beginner, players=3, seed=0, starting_seat=3)


# ====================================================================== 2.2 Variable setup
def test_B_SETUP_9_random_board_shuffles_terrain_row_by_row():
    """B-SETUP-9: 19 shuffled hexes laid row by row in the 3-4-5-4-3 shape; the desert lands anywhere."""
    deserts = set()
    layouts = set()
    for seed in range(40):
        b = Board.random(seed=seed)
        assert b.rows == (3, 4, 5, 4, 3)
        assert [(t.row, t.col) for t in b.hexes] == [(r, c) for r in range(1, 6) for c in range(1, BASE_ROWS[r - 1] + 1)]
        assert Counter(t.terrain for t in b.hexes) == Counter(dict(BASE_TERRAIN_COUNTS))
        (desert,) = [(t.row, t.col) for t in b.hexes if t.terrain is Terrain.DESERT]
        deserts.add(desert)
        layouts.add(tuple(t.terrain for t in b.hexes))
    assert len(layouts) == 40
    assert len(deserts) > 5
    assert any(d != (3, 3) for d in deserts)


def test_B_SETUP_9_same_seed_same_board_different_seed_different():
    """B-SETUP-9: Board.random is reproducible from its seed."""
    assert Board.random(seed=7) == Board.random(seed=7)
    assert Board.random(seed=7).to_dict() == Board.random(seed=7).to_dict()
    assert Board.random(seed=7) != Board.random(seed=8)


def test_B_SETUP_10_frame_pieces_any_order_harbours_travel_with_them():
    """B-SETUP-10: harbour types may be shuffled among the harbour positions; each keeps its ratio."""
    base = Board.random(seed=1)
    positions = {h.path for h in base.harbours}
    orders = set()
    for seed in range(10):
        b = Board.random(seed=seed, shuffle_harbours=True)
        assert {h.path for h in b.harbours} == positions
        assert Counter(h.resource for h in b.harbours) == Counter(dict(BASE_HARBOURS))
        coast = b.coastal_paths_ccw
        orders.add(tuple(h.resource for h in sorted(b.harbours, key=lambda h: coast.index(h.path))))
        assert Counter(t.terrain for t in b.hexes) == Counter(dict(BASE_TERRAIN_COUNTS))
    assert len(orders) > 1


def test_B_SETUP_11_token_letters_A_to_R():
    """B-SETUP-11: tokens A..R carry 5,2,6,3,8,10,9,12,11,4,8,10,9,4,5,6,3,11."""
    assert BASE_TOKEN_LETTERS == (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
    assert len(BASE_TOKEN_LETTERS) == 18


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 8, 13, 21])
def test_B_SETUP_12_tokens_follow_spiral_skipping_desert(seed):
    """B-SETUP-12 / B-SETUP-14: tokens in letter order along the spiral from (1,1), the desert skipped
    and token-less; the robber starts on the desert."""
    b = Board.random(seed=seed)
    by_rc = {(t.row, t.col): t for t in b.hexes}
    producing = [h for h in SPIRAL_FROM_1_1 if by_rc[h].terrain is not Terrain.DESERT]
    assert len(producing) == 18
    assert [by_rc[h].token for h in producing] == list(BASE_TOKEN_LETTERS)
    desert = next(t for t in b.hexes if t.terrain is Terrain.DESERT)
    assert desert.token is None
    assert b.robber_start == desert.id
    assert Game(b, players=4, seed=seed).robber == desert.id


def test_B_SETUP_12_desert_in_centre_gets_no_token_and_letters_unchanged():
    """B-SETUP-12: find a seed whose desert is at the spiral's first hex; token A moves on to (2,1)."""
    for seed in range(400):
        b = Board.random(seed=seed)
        if b.hex_at(1, 1).terrain is Terrain.DESERT:
            break
    else:  # pragma: no cover
        pytest.skip("no seed with the desert at (1,1)")
    assert b.hex_at(1, 1).token is None
    assert b.hex_at(2, 1).token == BASE_TOKEN_LETTERS[0]
    assert b.hex_at(3, 3).token == BASE_TOKEN_LETTERS[-1]


def test_B_SETUP_13_spiral_order_from_default_corner():
    """B-SETUP-13: the counter-clockwise spiral from (1,1), ring by ring, centre last."""
    rows = BASE_ROWS
    land = [hexgrid.offset_to_axial(r, c, rows) for r in range(1, 6) for c in range(1, rows[r - 1] + 1)]
    order = hexgrid.spiral(land, hexgrid.offset_to_axial(1, 1, rows))
    assert [hexgrid.axial_to_offset(h, rows) for h in order] == SPIRAL_FROM_1_1
    # The beginner board is consistent with this spiral except for its fixed layout; the corners
    # are exactly the outer hexes with 3 land neighbours.
    landset = set(land)
    corners = {
        hexgrid.axial_to_offset(h, rows) for h in land if sum(n in landset for n in hexgrid.neighbours(h)) == 3
    }
    assert corners == set(CORNERS_CCW)


@pytest.mark.parametrize("k", range(6))
def test_B_SETUP_13_other_corners_rotate_the_spiral(k):
    """B-SETUP-13: starting at another corner rotates the order (outer ring by 2k, inner ring by k). Decision A-39."""
    rows = BASE_ROWS
    land = [hexgrid.offset_to_axial(r, c, rows) for r in range(1, 6) for c in range(1, rows[r - 1] + 1)]
    corner = CORNERS_CCW[k]
    order = [hexgrid.axial_to_offset(h, rows) for h in hexgrid.spiral(land, hexgrid.offset_to_axial(*corner, rows))]
    outer, inner, centre = SPIRAL_FROM_1_1[:12], SPIRAL_FROM_1_1[12:18], SPIRAL_FROM_1_1[18:]
    expected = outer[2 * k :] + outer[: 2 * k] + inner[k:] + inner[:k] + centre
    assert order == expected
    # Board.random lays the tokens along the rotated spiral; the terrain draw is unchanged.
    b = Board.random(seed=4, start_corner=corner)
    assert [t.terrain for t in b.hexes] == [t.terrain for t in Board.random(seed=4).hexes]
    by_rc = {(t.row, t.col): t for t in b.hexes}
    producing = [h for h in expected if by_rc[h].terrain is not Terrain.DESERT]
    assert [by_rc[h].token for h in producing] == list(BASE_TOKEN_LETTERS)


def test_B_SETUP_13_start_corner_must_be_a_corner():
    """B-SETUP-13: a start hex that is not a corner (3 land neighbours) is refused."""
    with pytest.raises(ValueError, match="B-SETUP-13"):
        Board.random(seed=1, start_corner=(1, 2))
    with pytest.raises(ValueError):
        Board.random(seed=1, start_corner=(3, 3))


def test_B_SETUP_14_robber_on_desert_after_tokens():
    """B-SETUP-14: after the tokens, the robber goes on the desert, wherever it is."""
    for seed in range(20):
        b = Board.random(seed=seed)
        assert b.hexes[b.robber_start].terrain is Terrain.DESERT
        assert b.hexes[b.robber_start].token is None


# ====================================================================== 2.3 Founding phase
@pytest.mark.parametrize(
    "players,starting_seat,order",
    [
        (4, 0, [0, 1, 2, 3, 3, 2, 1, 0]),
        (4, 1, [1, 2, 3, 0, 0, 3, 2, 1]),
        (4, 3, [3, 0, 1, 2, 2, 1, 0, 3]),
        (3, 0, [0, 1, 2, 2, 1, 0]),
        (3, 2, [2, 0, 1, 1, 0, 2]),
    ],
)
def test_B_SETUP_15_B_SETUP_16_founding_snake_order(beginner, players, starting_seat, order):
    """B-SETUP-15: round 1 in seat order from the starting player; B-SETUP-16: round 2 reversed."""
    b = beginner
    g = Game(b, players=players, seed=0, starting_seat=starting_seat)
    # Round 1 uses the first `players` placements, round 2 the last `players`.
    placements = standard_founding(b)[:players] + standard_founding(b)[8 - players :]
    seen = []
    for v, e in placements:
        assert g.phase is Phase.FOUNDING_SETTLEMENT
        seen.append(g.current_player)
        assert g.active_player == g.current_player
        g.play(BuildSettlement(v))
        assert g.phase is Phase.FOUNDING_ROAD
        assert g.current_player == seen[-1]
        g.play(BuildRoad(e))
    assert seen == order
    for p in range(players):
        assert g.n_settlements[p] == 2 and len(g.roads[p]) == 2


def test_B_SETUP_15_wrong_piece_for_the_step_is_refused(beginner):
    """B-SETUP-15: each founding step is 1 settlement then 1 road; a road first, or a second settlement,
    is refused and changes nothing."""
    b = beginner
    g = Game(b, players=4, seed=0)
    before = g.state()
    with pytest.raises(IllegalActionError):
        g.play(BuildRoad(path(b, 2, 2, "E")))
    assert g.state() == before
    g.play(BuildSettlement(node(b, 2, 2, "NE")))
    before = g.state()
    with pytest.raises(IllegalActionError):
        g.play(BuildSettlement(node(b, 4, 1, "SE")))
    assert g.state() == before
    with pytest.raises(IllegalActionError):
        g.play(BuildCity(node(b, 2, 2, "NE")))
    assert g.state() == before
    with pytest.raises(IllegalActionError):
        g.play(RollDice((1, 2)))
    assert g.state() == before


def test_B_SETUP_17_founding_settlement_obeys_distance_rule(beginner):
    """B-SETUP-17: founding settlements obey the distance rule (B-BUILD-7): not on or next to another."""
    b = beginner
    g = Game(b, players=4, seed=0)
    first = node(b, 2, 2, "NE")
    g.play(BuildSettlement(first))
    g.play(BuildRoad(path(b, 2, 2, "E")))
    assert_illegal(g, BuildSettlement(first), "B-BUILD-7")
    for w in b.graph.adj[first]:
        assert_illegal(g, BuildSettlement(w), "B-BUILD-7")
    legal = {a.node for a in g.legal_actions()}
    assert first not in legal and not (legal & set(b.graph.adj[first]))
    assert len(legal) == 54 - 1 - len(b.graph.adj[first])


def test_B_SETUP_17_founding_road_must_touch_settlement_just_placed(beginner):
    """B-SETUP-17: the founding road must touch the settlement placed just before it —
    in round 2, a road touching only the player's first settlement is refused."""
    b = beginner
    g = Game(b, players=4, seed=0)
    steps = standard_founding(b)
    s0, r0 = steps[0]
    g.play(BuildSettlement(s0))
    far = path(b, 5, 3, "SE")
    assert_illegal(g, BuildRoad(far), "B-SETUP-17")
    assert {a.path for a in g.legal_actions()} == set(b.topology.node_edges[s0])
    g.play(BuildRoad(r0))
    found(g, steps[1:7])
    # Seat 0's second settlement, then a road from the first settlement: refused.
    s7, r7 = steps[7]
    assert g.current_player == 0
    g.play(BuildSettlement(s7))
    from_first = next(e for e in b.topology.node_edges[s0] if g.road_owner(e) is None)
    assert s7 not in b.path_nodes(from_first)
    err = assert_illegal(g, BuildRoad(from_first), "B-SETUP-17")
    assert str(s7) in str(err)
    g.play(BuildRoad(r7))
    assert g.phase is Phase.ROLL


def test_B_SETUP_17_founding_settlement_needs_no_road(beginner):
    """B-SETUP-17: founding settlements need no road connection (the 2nd is far from the 1st road)."""
    b = beginner
    g = Game(b, players=3, seed=0)
    steps = [
        (node(b, 1, 1, "N"), path(b, 1, 1, "NW")),
        (node(b, 3, 4, "NE"), path(b, 3, 4, "E")),
        (node(b, 4, 3, "SW"), path(b, 4, 3, "W")),
        (node(b, 4, 3, "SE"), path(b, 4, 3, "E")),
        (node(b, 2, 1, "NE"), path(b, 2, 1, "E")),
        (node(b, 5, 1, "S"), path(b, 5, 1, "SW")),  # seat 0: bottom-left, far from its road at the top
    ]
    found(g, steps)
    assert g.building_at(node(b, 5, 1, "S"))[0] == 0
    assert not set(b.path_nodes(path(b, 1, 1, "NW"))) & set(b.path_nodes(path(b, 5, 1, "SW")))


def test_B_SETUP_18_founding_pieces_are_free(beginner):
    """B-SETUP-18: founding pieces cost nothing; after round 1 every hand is empty and the bank full."""
    b = beginner
    g = Game(b, players=4, seed=0)
    steps = standard_founding(b)
    assert all(sum(h) == 0 for h in g.hands)
    found(g, steps[:4])
    assert all(sum(h) == 0 for h in g.hands)
    assert g.bank == [19] * 5
    found(g, steps[4:])
    assert total_cards(g) == 95
    for p in range(4):
        assert g.pieces_left(p) == {"road": 13, "settlement": 3, "city": 4}


def test_B_SETUP_19_second_settlement_pays_per_producing_hex(beginner):
    """B-SETUP-19: right after the 2nd settlement its owner takes 1 card per producing hex next to it;
    the 1st pays nothing."""
    b = beginner
    g = Game(b, players=4, seed=0)
    steps = standard_founding(b)
    found(g, steps[:4])
    assert all(sum(h) == 0 for h in g.hands)
    # Seat 3 (round 2 first): (4,3) SE touches fields 4, pasture 5, pasture 11.
    g.play(BuildSettlement(steps[4][0]))
    assert g.hand(3) == hand(g, 3, grain=1, wool=2)  # paid before its road is placed
    g.play(BuildRoad(steps[4][1]))
    found(g, steps[5:])
    assert g.hand(2) == hand(g, 2, ore=1, grain=1, brick=1)  # (2,1) NE: mountains 10, fields 12, hills 6
    assert g.hand(1) == hand(g, 1, lumber=1, wool=1, brick=1)  # (2,3) NE: forest 9, pasture 4, hills 10
    assert g.hand(0) == hand(g, 0, grain=2, lumber=1)  # (3,1) NE: fields 12, fields 9, forest 11
    assert g.bank == [19 - 2, 19 - 2, 19 - 3, 19 - 4, 19 - 1]


def test_B_SETUP_19_desert_and_coast_pay_nothing(beginner):
    """B-SETUP-19: the desert is not a producing hex; a coastal corner pays only its land hexes."""
    b = beginner
    g = Game(b, players=3, seed=0)
    desert_corner = node(b, 3, 3, "S")  # desert / mountains 3 / fields 4
    coast_corner = node(b, 1, 1, "N")  # mountains 10 only
    steps = [
        (node(b, 2, 2, "NE"), path(b, 2, 2, "E")),
        (node(b, 4, 1, "SE"), path(b, 4, 1, "E")),
        (node(b, 3, 4, "NE"), path(b, 3, 4, "E")),
        (node(b, 2, 1, "NE"), path(b, 2, 1, "E")),
        (coast_corner, path(b, 1, 1, "NW")),  # seat 1
        (desert_corner, b.topology.node_edges[desert_corner][0]),  # seat 0
    ]
    found(g, steps)
    assert node_hexes_rc(b, desert_corner) == {(3, 3), (4, 2), (4, 3)}
    assert g.hand(0) == hand(g, 0, ore=1, grain=1)
    assert g.hand(1) == hand(g, 1, ore=1)


@pytest.mark.parametrize("starting_seat", [0, 2])
def test_B_SETUP_20_starting_player_takes_first_turn(beginner, starting_seat):
    """B-SETUP-20: after the founding phase the starting player takes the first regular turn (roll)."""
    b = beginner
    g = Game(b, players=4, seed=0, starting_seat=starting_seat)
    found(g, standard_founding(b))
    assert g.phase is Phase.ROLL
    assert g.current_player == starting_seat == g.active_player
    assert g.turn == 1
    assert g.legal_actions() == [RollDice()]
    g.play(RollDice((3, 3)))
    assert g.phase is Phase.MAIN and g.active_player == starting_seat


# ====================================================================== board files
def _write(tmp_path, name, data):
    f = tmp_path / name
    f.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return f


def _mutated(beginner, how):
    data = json.loads(beginner.to_json())
    how(data)
    return data


BAD_FILES = {
    "bad_json": (lambda d: None, "<json>"),
    "missing_terrain": (lambda d: d["hexes"][3].pop("terrain"), "hexes[3]"),
    "missing_robber": (lambda d: d.pop("robber"), "robber"),
    "bad_terrain": (lambda d: d["hexes"][3].update(terrain="jungle"), "hexes[3].terrain"),
    "harbour_inland": (lambda d: d["harbours"][0].update(hex=[3, 3], side="NE"), "harbours[0].side"),
    "duplicate_hex": (lambda d: d["hexes"][3].update(row=1, col=1), "hexes[3]"),
    "desert_token": (lambda d: d["hexes"][9].update(token=5), "hexes[9].token"),
    "robber_off_board": (lambda d: d.update(robber=[6, 1]), "robber"),
    "bad_side": (lambda d: d["harbours"][1].update(side="N"), "harbours[1].side"),
    "missing_hex": (lambda d: d["hexes"].pop(), "hexes"),
    "start_road_detached": (
        lambda d: d["start"]["pieces"]["red"]["roads"][0].update(hex=[5, 3], side="SE"),
        "start.pieces.red.roads[0]",
    ),
    "start_too_close": (
        lambda d: d["start"]["pieces"]["blue"]["settlements"][1].update(hex=[2, 2], corner="N"),
        "start.pieces.blue.settlements[1]",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_B_BOARD_3_board_file_errors_name_file_and_field(beginner, tmp_path, case):
    """Board files (B-BOARD-1..9 data, B-SETUP-2 start pieces): a malformed file raises BoardFileError naming the path and field."""
    how, field = BAD_FILES[case]
    if case == "bad_json":
        f = _write(tmp_path, "bad.json", '{"name": "x", "rows": [3, 4,')
    else:
        f = _write(tmp_path, f"{case}.json", _mutated(beginner, how))
    with pytest.raises(BoardFileError) as info:
        Board.load(f)
    msg = str(info.value)
    assert str(f) in msg
    assert field in msg, msg
    if case == "missing_terrain":
        assert "terrain" in msg


def test_B_BOARD_3_board_file_round_trip(beginner, tmp_path):
    """A saved board loads back equal (beginner and a random board)."""
    for b in (beginner, Board.random(seed=12)):
        f = tmp_path / f"{b.name}.json"
        b.save(f)
        assert Board.load(f) == b
    with pytest.raises(BoardFileError) as info:
        Board.load(tmp_path / "nope.json")
    assert "nope.json" in str(info.value)

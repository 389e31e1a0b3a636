"""The 5-6 player extension (RULES.md section 11): every X56-* rule id."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from helpers import deal

from catan_nb import Board, Colour, DevCard, Game, IllegalActionError, Resource, Terrain
from catan_nb.analysis import RandomBot
from catan_nb.board import lay_tokens
from catan_nb.constants import X56_ROWS, X56_TOKEN_LETTERS
from catan_nb.rules import (
    BuildRoad,
    BuyDevelopmentCard,
    EndTurn,
    MaritimeTrade,
    OfferTrade,
    Phase,
    PlayKnight,
    RollDice,
    counts,
)
from catan_nb.rules.modules.five_six import EndSpecialBuild


def illegal(game, action, rule):
    before = game.state()
    with pytest.raises(IllegalActionError) as info:
        game.play(action)
    assert info.value.rule == rule, str(info.value)
    assert game.state() == before


def founded(players=6, seed=3, board=None):
    """A 5-6 player game after a founding phase played by random bots (seeded)."""
    game = Game(board or Board.five_six(), players=players, seed=seed)
    bots = [RandomBot(seed * 10 + p) for p in range(players)]
    while game.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        game.play(bots[game.current_player].choose(game))
    return game


def quiet_roll(game):
    game.play(RollDice((2, 2)))  # a 4: never a 7
    assert game.phase is Phase.MAIN


def test_X56_COMP_1_and_X56_COMP_2_component_counts():
    """X56-COMP-1, X56-COMP-2: 30 hexes (6/6/6/5/5/2), 24 cards per resource, brown and green colours."""
    board = Board.five_six()
    assert Counter(t.terrain for t in board.hexes) == {
        Terrain.FOREST: 6, Terrain.PASTURE: 6, Terrain.FIELDS: 6, Terrain.HILLS: 5, Terrain.MOUNTAINS: 5,
        Terrain.DESERT: 2,
    }
    game = Game(board, players=6, seed=1)
    assert game.bank == [24] * 5 and game.bank_per_resource == 24
    assert set(game.colours) == set(Colour)
    assert Game(board, players=5, seed=1).colours[-1] is Colour.BROWN
    assert all(game.pieces_left(p) == {"road": 15, "settlement": 5, "city": 4} for p in range(6))


def test_X56_COMP_3_development_deck_of_34():
    """X56-COMP-3: 20 knights, 3 Road Building, 3 Year of Plenty, 3 Monopoly, 5 VP."""
    game = Game(Board.five_six(), players=5, seed=1)
    assert dict(zip(DevCard, game.deck)) == {
        DevCard.KNIGHT: 20, DevCard.ROAD_BUILDING: 3, DevCard.YEAR_OF_PLENTY: 3, DevCard.MONOPOLY: 3,
        DevCard.VICTORY_POINT: 5,
    }
    assert game.deck_total == 34


def test_X56_COMP_4_and_X56_COMP_5_only_the_extension_tokens():
    """X56-COMP-4, X56-COMP-5: 28 tokens: 2 and 12 twice; 3-6 and 8-11 three times each."""
    assert Counter(X56_TOKEN_LETTERS) == {2: 2, 12: 2, **{k: 3 for k in (3, 4, 5, 6, 8, 9, 10, 11)}}
    for seed in range(5):
        board = Board.random(seed=seed, layout="five_six")
        assert sorted(t.token for t in board.hexes if t.token) == sorted(X56_TOKEN_LETTERS)


def test_X56_COMP_6_eleven_harbours():
    """X56-COMP-6: 11 harbours: 5 generic, 2 wool, one each of lumber, brick, grain, ore."""
    for board in (Board.five_six(), Board.random(seed=4, layout="five_six", shuffle_harbours=True)):
        kinds = Counter(h.resource for h in board.harbours)
        assert kinds == {None: 5, Resource.WOOL: 2, Resource.LUMBER: 1, Resource.BRICK: 1, Resource.GRAIN: 1,
                         Resource.ORE: 1}


def test_X56_BOARD_1_and_X56_BOARD_7_harbours_on_the_frame_proposal():
    """X56-BOARD-1, X56-BOARD-7 (GAP, PROPOSAL): harbours spread evenly over the 38 coastal paths."""
    board = Board.five_six()
    coast = board.coastal_paths_ccw
    assert len(coast) == 38
    positions = sorted(coast.index(h.path) for h in board.harbours)
    assert positions == [round(i * 38 / 11 + 1e-9) if (i * 38 / 11) % 1 != 0.5 else int(i * 38 / 11 + 0.5)
                         for i in range(11)]
    gaps = [b - a for a, b in zip(positions, positions[1:] + [positions[0] + 38])]
    assert set(gaps) <= {3, 4}


def test_X56_BOARD_2_geometry():
    """X56-BOARD-2: rows 3,4,5,6,5,4,3; 80 intersections, 109 paths, 38 coastal."""
    board = Board.five_six()
    assert board.rows == (3, 4, 5, 6, 5, 4, 3) == X56_ROWS
    g = board.graph
    assert (g.number_of_nodes(), g.number_of_edges()) == (80, 109)
    assert sum(1 for *_, c in g.edges(data="coastal") if c) == 38


def test_X56_BOARD_3_and_X56_BOARD_5_spiral_skipping_both_deserts():
    """X56-BOARD-3, X56-BOARD-5: tokens A..Zc along the counter-clockwise spiral from (1,1), deserts skipped."""
    spiral = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (7, 2), (7, 3), (6, 4), (5, 5), (4, 6),
              (3, 5), (2, 4), (1, 3), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (6, 3), (5, 4), (4, 5),
              (3, 4), (2, 3), (3, 3), (4, 3), (5, 3), (4, 4)]
    for seed in range(6):
        board = Board.random(seed=seed, layout="five_six")
        order = [(r, c) for r, c in spiral if board.hex_at(r, c).token]
        assert [board.hex_at(r, c).token for r, c in order] == list(X56_TOKEN_LETTERS)
        assert all(board.hex_at(r, c).token is None for r, c in spiral if board.hex_at(r, c).terrain is Terrain.DESERT)
    terrain = {(r, c): Terrain.FOREST for r, c in spiral}
    terrain[(1, 1)] = terrain[(4, 4)] = Terrain.DESERT
    tokens = lay_tokens(X56_ROWS, terrain, X56_TOKEN_LETTERS)
    assert tokens[(2, 1)] == 2 and (1, 1) not in tokens and tokens[(5, 3)] == 6


def test_X56_BOARD_4_letter_values():
    """X56-BOARD-4: A2 B5 C4 D6 E3 F9 G8 H11 I11 J10 K6 L3 M8 N4 O8 P10 Q11 R12 S10 T5 U4 V9 W5 X9 Y12 Za3 Zb2 Zc6.
    Decision A-41."""
    text = "A2 B5 C4 D6 E3 F9 G8 H11 I11 J10 K6 L3 M8 N4 O8 P10 Q11 R12 S10 T5 U4 V9 W5 X9 Y12 Za3 Zb2 Zc6"
    assert [int(re.sub(r"^[A-Za-z]+", "", x)) for x in text.split()] == list(X56_TOKEN_LETTERS)


def test_X56_BOARD_6_robber_on_either_desert():
    """X56-BOARD-6: the robber starts on either desert, chosen at set-up."""
    deserts = set()
    for choice in (0, 1):
        board = Board.random(seed=9, layout="five_six", robber_desert=choice)
        assert board.hexes[board.robber_start].terrain is Terrain.DESERT
        deserts.add(board.robber_start)
    assert len(deserts) == 2
    with pytest.raises(ValueError):
        Board.random(seed=9, layout="five_six", robber_desert=2)


def test_X56_GEN_1_five_or_six_players_base_rules_apply():
    """X56-GEN-1: the extension is for 5 or 6 players; it needs the 30-hex island; the base rules apply."""
    assert Game(Board.five_six(), players=5, seed=0).rules.modules == ("five_six",)
    with pytest.raises(ValueError, match="X56-BOARD-2"):
        Game(Board.beginner(), players=6, seed=0)
    game = founded(players=5)
    assert game.phase is Phase.ROLL and sum(game.n_settlements) == 10  # founding in snake order as usual
    free = next(e for e, o in enumerate(game.edge_owner) if o < 0)
    illegal(game, BuildRoad(free), "B-TURN-3")


def sbp_game():
    game = founded(players=6, seed=5)
    quiet_roll(game)
    game.play(EndTurn())
    return game


def test_X56_SBP_1_and_X56_SBP_2_every_other_player_in_order():
    """X56-SBP-1, X56-SBP-2: after the turn, the others in turn order from the left each get one chance.
    Decision A-35."""
    game = founded(players=6, seed=5)
    quiet_roll(game)
    active = game.active_player
    game.play(EndTurn())
    assert game.phase is Phase.SPECIAL_BUILD and game.active_player == active
    order = []
    while game.phase is Phase.SPECIAL_BUILD:
        order.append(game.current_player)
        assert EndSpecialBuild() in game.legal_actions()
        game.play(EndSpecialBuild())
    assert order == [(active + i) % 6 for i in range(1, 6)]
    assert game.phase is Phase.ROLL and game.active_player == (active + 1) % 6


def test_X56_SBP_2_build_and_buy_in_the_sbp():
    """X56-SBP-2: roads, settlements, cities and development cards may be bought in the SBP, paid as usual."""
    game = sbp_game()
    p = game.current_player
    deal(game, p, lumber=2, brick=2, ore=1, wool=1, grain=1)
    legal = game.legal_actions()
    road = next(a for a in legal if isinstance(a, BuildRoad))
    assert BuyDevelopmentCard() in legal
    game.play(road)
    game.play(BuyDevelopmentCard(card=DevCard.KNIGHT))
    assert game.road_owner(road.path) == p and game.dev[p][DevCard.KNIGHT.value] == 1
    assert game.hand(p)[Resource.LUMBER] >= 1  # paid one of two
    assert game.current_player == p  # any number of builds in one chance


def test_X56_SBP_3_no_trade_and_no_development_cards_in_the_sbp():
    """X56-SBP-3: no domestic or maritime trade and no development card play during the SBP."""
    game = sbp_game()
    p = game.current_player
    deal(game, p, ore=4, wool=1)
    game.dev[p][DevCard.KNIGHT.value] += 1
    game.deck[DevCard.KNIGHT.value] -= 1
    illegal(game, MaritimeTrade(Resource.ORE, Resource.GRAIN), "B-TRADE-3")
    illegal(game, OfferTrade(counts(wool=1), counts(grain=1)), "B-TRADE-3")
    illegal(game, PlayKnight(), "B-TURN-6")
    kinds = {type(a) for a in game.legal_actions()}
    assert not kinds & {MaritimeTrade, OfferTrade, PlayKnight}


def test_X56_SBP_4_the_active_player_does_not_build_in_its_own_sbp():
    """X56-SBP-4: the active player is not among the SBP builders."""
    game = sbp_game()
    active = game.active_player
    seen = set()
    while game.phase is Phase.SPECIAL_BUILD:
        seen.add(game.current_player)
        game.play(EndSpecialBuild())
    assert active not in seen and len(seen) == 5


def test_X56_SBP_5_longest_road_changes_at_once_in_the_sbp():
    """X56-SBP-5: Longest Road taken by an SBP road takes effect immediately."""
    game = sbp_game()
    p = game.current_player
    deal(game, p, lumber=8, brick=8)
    while game.longest_road_holder != p:
        roads = [a for a in game.legal_actions() if isinstance(a, BuildRoad)]
        best = max(roads, key=lambda a: _length_after(game, a))
        game.play(best)
        if len(game.roads[p]) > 10:
            pytest.skip("this seed never gave a long road")
    assert game.phase is Phase.SPECIAL_BUILD and game.longest_road(p) >= 5 and game.vp(p) >= 4


def _length_after(game, action):
    c = game.copy()
    c.play(action)
    return c.longest_road(c.current_player)


def test_X56_SBP_6_card_bought_in_the_sbp_is_playable_from_the_next_own_turn():
    """X56-SBP-6 (DECISION): a development card bought in the SBP is playable in the buyer's next own turn.
    Decision A-36."""
    game = sbp_game()
    p = game.current_player
    deal(game, p, ore=1, wool=1, grain=1)
    game.play(BuyDevelopmentCard(card=DevCard.KNIGHT))
    while game.phase is Phase.SPECIAL_BUILD:
        game.play(EndSpecialBuild())
    while game.active_player != p:
        quiet_roll(game)
        game.play(EndTurn())
        while game.phase is Phase.SPECIAL_BUILD:
            game.play(EndSpecialBuild())
    assert game.phase is Phase.ROLL and PlayKnight() in game.legal_actions()
    game.play(PlayKnight())
    assert game.knights[p] == 1


def test_X56_SBP_7_target_reached_in_the_sbp_wins_only_on_own_turn():
    """X56-SBP-7 with B-END-5: 10 VP reached in the SBP wins when the player's own turn begins."""
    game = sbp_game()
    p = game.current_player
    game.dev[p][DevCard.VICTORY_POINT.value] += 1
    game.deck[DevCard.VICTORY_POINT.value] -= 1
    need = game.vp_target - game.vp(p) - 1
    game.dev[p][DevCard.VICTORY_POINT.value] += need
    game.deck[DevCard.VICTORY_POINT.value] -= need
    deal(game, p, ore=1, wool=1, grain=1)
    game.play(BuyDevelopmentCard(card=DevCard.VICTORY_POINT))
    assert game.vp(p) >= game.vp_target and not game.is_over
    while game.phase is Phase.SPECIAL_BUILD:
        game.play(EndSpecialBuild())
    while not game.is_over:
        assert game.active_player != p
        quiet_roll(game)
        game.play(EndTurn())
        while game.phase is Phase.SPECIAL_BUILD:
            game.play(EndSpecialBuild())
    assert game.winner == p and game.active_player == p


def test_X56_SBP_ends_only_through_its_own_action():
    """X56-SBP-2: EndSpecialBuild outside the SBP is refused; EndTurn inside it is refused."""
    game = founded(players=5)
    quiet_roll(game)
    illegal(game, EndSpecialBuild(), "X56-SBP-2")
    game.play(EndTurn())
    illegal(game, EndTurn(), "B-TURN-9")


def test_X56_SBP_8_is_covered_with_the_modules():
    """X56-SBP-8: favours and helpers cannot be used in the SBP (tested in test_rules_friends / helpers)."""
    game = sbp_game()
    assert game.phase is Phase.SPECIAL_BUILD


def test_five_six_games_save_and_replay():
    game = founded(players=6, seed=8)
    bots = [RandomBot(p) for p in range(6)]
    for _ in range(300):
        if game.is_over:
            break
        game.play(bots[game.current_player].choose(game))
    assert Game.from_json(game.to_json()).state() == game.state()

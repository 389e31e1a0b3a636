"""Production: expected cards per roll against hand-derived fractions and against the engine."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from helpers import deal

from catan_nb import Board, Game, Resource
from catan_nb.analysis.probability import estimate_mean
from catan_nb.analysis.production import (
    Production,
    node_production,
    placement_production,
    player_production,
    robber_effect,
    robber_table,
)
from catan_nb.rules import BuildCity, EndTurn, RollDice

F = Fraction


def board_with(changes: dict[tuple[int, int], tuple[str, int | None]]) -> Board:
    """The beginner board with some hexes given another terrain and token."""
    data = Board.beginner().to_dict()
    data["layout"] = "custom"  # a teaching position: not the base component counts
    for h in data["hexes"]:
        if (h["row"], h["col"]) in changes:
            h["terrain"], h["token"] = changes[(h["row"], h["col"])]
    return Board.from_dict(data)


@pytest.fixture(scope="module")
def board685() -> Board:
    # The N corner of (2,2) touches (1,1) mountains 8, (1,2) pasture 5 and (2,2) hills 6.
    return board_with({(1, 1): ("mountains", 8), (1, 2): ("pasture", 5)})


def n685(board: Board) -> int:
    v = board.node_at((2, 2), "N")
    assert sorted(t.token for t in board.intersection_hexes(v)) == [5, 6, 8]
    return v


def test_node_touching_6_8_5(board685):
    p = node_production(board685, n685(board685))
    assert p.total == F(14, 36) and p.pips == 14
    assert p.per_resource == {
        Resource.LUMBER: 0,
        Resource.BRICK: F(5, 36),
        Resource.WOOL: F(4, 36),
        Resource.GRAIN: 0,
        Resource.ORE: F(5, 36),
    }
    # at most one card per roll: a Bernoulli(14/36) count
    assert p.p_any == F(14, 36)
    assert p.variance == F(14, 36) * F(22, 36) == F(77, 324)
    assert p.distribution == {0: F(22, 36), 1: F(14, 36)}
    assert p.by_roll == {5: {Resource.WOOL: 1}, 6: {Resource.BRICK: 1}, 8: {Resource.ORE: 1}}
    assert p.std == pytest.approx((77 / 324) ** 0.5)


def test_city_doubles_mean_and_quadruples_variance(board685):
    v = n685(board685)
    s, c = node_production(board685, v), node_production(board685, v, city=True)
    assert c.total == 2 * s.total == F(28, 36)
    assert c.variance == 4 * s.variance
    assert c.p_any == s.p_any
    assert c.distribution == {0: F(22, 36), 2: F(14, 36)}


def test_two_settlements_sharing_a_hex(board685):
    a = n685(board685)
    b = board685.node_at((2, 2), "S")  # (2,2) hills 6, (3,2) forest 11, (3,3) desert
    p = placement_production(board685, [a, b])
    # on a 6 both collect: 2 cards; 8, 5 and 11 pay one card each
    assert p.total == F(2 * 5 + 5 + 4 + 2, 36) == F(21, 36)
    assert p.variance == F(4 * 5 + 5 + 4 + 2, 36) - F(21, 36) ** 2 == F(25, 48)
    assert p.p_any == F(16, 36)
    assert p.distribution == {0: F(20, 36), 1: F(11, 36), 2: F(5, 36)}
    assert p.by_roll[6] == {Resource.BRICK: 2}
    assert p.per_resource[Resource.BRICK] == F(10, 36) and p.per_resource[Resource.LUMBER] == F(2, 36)


def test_robber_blocks_a_hex(board685):
    v = n685(board685)
    six = board685.hex_at(2, 2).id
    p = node_production(board685, v, robber=six)
    assert p.total == F(9, 36) and p.per_resource[Resource.BRICK] == 0
    assert node_production(board685, v, robber=board685.hex_at(3, 3).id).total == F(14, 36)  # the desert


def test_empty_and_invalid_placements(board685):
    p = placement_production(board685)
    assert p.total == 0 and p.variance == 0 and p.p_any == 0 and p.distribution == {0: 1}
    with pytest.raises(ValueError, match="both a settlement and a city"):
        placement_production(board685, [3], [3])
    with pytest.raises(ValueError, match="not on board"):
        placement_production(board685, [54])


def test_matches_board_expected_production():
    board = Board.random(seed=8)
    for v in board.graph:
        p = node_production(board, v)
        assert {r: x for r, x in p.per_resource.items() if x} == board.expected_production(v)


def test_repr_and_row(board685):
    p = node_production(board685, n685(board685))
    assert "7/18 = 0.389 cards/roll" in repr(p)
    row = p.to_dict()
    assert row["total"] == pytest.approx(14 / 36) and row["brick"] == pytest.approx(5 / 36) and row["lumber"] == 0


def test_simulated_cards_per_roll_within_interval(board685):
    p = placement_production(board685, [n685(board685)], [board685.node_at((2, 2), "S")])
    rng = np.random.default_rng(17)
    totals = rng.integers(1, 7, size=(20_000, 2)).sum(axis=1)
    cards = np.array([sum(p.by_roll.get(int(t), {}).values()) for t in range(13)])[totals]
    est = estimate_mean(cards, exact=p.total)
    assert est.covers, est
    assert estimate_mean((cards - float(p.total)) ** 2, exact=p.variance).covers


# ------------------------------------------------------------------ games
@pytest.fixture
def beginner_game() -> Game:
    return Game(Board.beginner(), players=4, seed=1, start="beginner")


@pytest.mark.parametrize("total", [2, 3, 4, 5, 6, 8, 9, 10, 11, 12])
def test_by_roll_agrees_with_the_engine(beginner_game, total):
    """What Production says each seat collects on a total is what the engine pays (B-PROD-1..8)."""
    predicted = {p: player_production(beginner_game, p).by_roll.get(total, {}) for p in range(4)}
    d1 = max(1, total - 6)
    beginner_game.play(RollDice(dice=(d1, total - d1)))
    paid = {p: {Resource(r): k for r, k in enumerate(cards) if k} for p, cards in beginner_game.last_production.items()}
    assert {p: c for p, c in predicted.items() if c} == paid


def test_player_production_sums_its_buildings(beginner_game):
    for p in range(4):
        nodes = [v for v, o in enumerate(beginner_game.node_owner) if o == p]
        assert len(nodes) == 2
        assert player_production(beginner_game, p).total == sum(node_production(beginner_game.board, v).total for v in nodes)
    with pytest.raises(ValueError, match="seat 4"):
        player_production(beginner_game, 4)


def _seat_nodes_on(game: Game, hex_id: int) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for v in game.board.hex_intersections(hex_id):
        if game.node_owner[v] >= 0:
            out.setdefault(game.node_owner[v], []).append(v)
    return out


def test_robber_effect_settlements_and_city(beginner_game):
    game = beginner_game
    board = game.board
    mountains3 = board.hex_at(4, 2).id
    eff = robber_effect(game, mountains3)
    assert eff.token == 3 and eff.resource is Resource.ORE and eff.label == "(4,2) mountains 3"
    assert {p: x for p, x in eff.losses.items() if x} == {1: F(2, 36), 3: F(2, 36)}
    assert eff.total == F(4, 36) and eff.harm(1) == 0 and eff.harm(0) == F(4, 36)
    # seat 1 upgrades its settlement there to a city: it now loses twice as much
    game.play(RollDice(dice=(6, 6)))
    game.play(EndTurn())
    game.play(RollDice(dice=(6, 6)))
    (v,) = _seat_nodes_on(game, mountains3)[1]
    deal(game, 1, ore=3, grain=2)
    game.play(BuildCity(v))
    eff = robber_effect(game, mountains3)
    assert eff.losses[1] == F(4, 36) and eff.losses[3] == F(2, 36)
    assert player_production(game, 1).per_resource[Resource.ORE] >= F(4, 36)
    assert eff.to_dict()["seat 1"] == pytest.approx(4 / 36)


def test_robber_where_it_stands_and_on_the_desert(beginner_game):
    game = beginner_game
    desert = game.board.hex_at(3, 3).id
    assert game.robber == desert
    assert robber_effect(game, desert).total == 0
    # the robber already on a hex: player_production leaves it out unless asked not to
    hills5 = game.board.hex_at(5, 1).id
    game.robber = hills5  # a position: the robber moved there earlier
    with_robber = player_production(game, 1)
    without = player_production(game, 1, robber=False)
    assert without.total - with_robber.total == robber_effect(game, hills5).losses[1] == F(4, 36)
    with pytest.raises(ValueError, match="hex 19"):
        robber_effect(game, 19)


def test_robber_table_orders_by_harm(beginner_game):
    rows = robber_table(beginner_game)
    assert len(rows) == 19 and [r.total for r in rows] == sorted((r.total for r in rows), reverse=True)
    mine = robber_table(beginner_game, seat=2)
    assert [r.harm(2) for r in mine] == sorted((r.harm(2) for r in mine), reverse=True)
    assert mine[0].losses[2] == 0
    assert isinstance(node_production(beginner_game.board, 0), Production)


def test_player_production_counts_buildings_not_piece_kind_ids():
    """B-PROD-3, B-PROD-4 (issue 24, item 1's audit: an id of one kind read as another): a seat's
    production counts its settlements and cities; a Cities & Knights knight (a node piece whose kind
    id is 4) produces nothing, where the kind id was once read as a card count."""
    from catan_nb.rules import Rules

    g = Game(Board.beginner(), players=4, seed=1, start="beginner", rules=Rules(modules=("cities_knights",)))
    before = player_production(g, 0)
    t = g.topology
    v = next(v for v in range(t.n_nodes) if g.node_owner[v] < 0 and not g.blocked[v] and t.node_hexes[v]
             and any(g.hex_token[h] for h in t.node_hexes[v]))
    effects = [robber_effect(g, h) for h in t.node_hexes[v]]
    g.place(0, "knight", v)
    assert g.kind_id["knight"] > g.kind_id["city"]
    assert player_production(g, 0) == before
    assert [robber_effect(g, h) for h in t.node_hexes[v]] == effects  # B-ROB-10: a knight loses nothing

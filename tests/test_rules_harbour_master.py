"""SF-14: the Harbour Master (a Seafarers element) as a rule module, tested as positions."""

from __future__ import annotations

import pytest

from catan_nb import Board, Game
from catan_nb.analysis import ValueBot, play_game
from catan_nb.rules import Rules
from catan_nb.rules.modules.harbour_master import THRESHOLD, TITLE_VP, harbour_points, holder


def game(players: int = 4) -> Game:
    g = Game(Board.beginner(), players=players, seed=1, start="beginner", rules=Rules(modules=("harbour_master",)))
    return g


def free_harbour_nodes(g: Game) -> list[int]:
    """Harbour intersections free of buildings, pairwise apart (distance rule)."""
    t = g.topology
    taken: set[int] = set()
    for v, o in enumerate(g.node_owner):
        if o >= 0:
            taken |= {v, *t.node_neighbours[v]}
    out = []
    for v, h in enumerate(t.node_harbour):
        if h is not None and v not in taken:
            out.append(v)
            taken |= {v, *t.node_neighbours[v]}
    return out


def test_sf14_points_settlement_one_city_two():
    g = game()
    v = free_harbour_nodes(g)[0]
    before = harbour_points(g, 0)
    g.place(0, "settlement", v)
    assert harbour_points(g, 0) == before + 1
    g.place(0, "city", v)
    assert harbour_points(g, 0) == before + 2


def test_sf14_first_to_three_takes_the_title_worth_two_vp():
    g = game()
    spots = free_harbour_nodes(g)
    vp = g.vp(1)
    g.place(1, "settlement", spots[0])
    g.place(1, "settlement", spots[1])
    assert holder(g) is None and harbour_points(g, 1) == 2 < THRESHOLD
    g.place(1, "city", spots[0])
    assert harbour_points(g, 1) == 3 and holder(g) == 1
    assert g.vp(1) == vp + 1 + 1 + 1 + TITLE_VP  # two settlements, one upgrade, the title


def test_sf14_the_title_passes_only_on_strictly_more():
    g = game()
    s = free_harbour_nodes(g)
    assert len(s) >= 5
    g.place(0, "settlement", s[0])
    g.place(0, "city", s[0])
    g.place(0, "settlement", s[1])
    assert holder(g) == 0 and harbour_points(g, 0) == 3
    g.place(2, "settlement", s[2])
    g.place(2, "city", s[2])
    g.place(2, "settlement", s[3])
    assert harbour_points(g, 2) == 3 and holder(g) == 0  # a tie: the holder keeps it
    g.place(2, "settlement", s[4])
    assert harbour_points(g, 2) == 4 and holder(g) == 2  # strictly more: it passes


def test_sf14_decision_a_holder_below_three_loses_the_title():
    g = game()
    s = free_harbour_nodes(g)
    g.place(3, "settlement", s[0])
    g.place(3, "city", s[0])
    g.place(3, "settlement", s[1])
    assert holder(g) == 3
    g.remove("settlement", s[1])
    assert harbour_points(g, 3) == 2 and holder(g) is None


@pytest.mark.parametrize("seed", range(6))
def test_sf14_games_to_the_end_save_load_replay(seed):
    g = Game(Board.random(seed=seed), seed=seed, rules=Rules(modules=("harbour_master",)))
    play_game(g, [ValueBot(seed=seed * 4 + q) for q in range(4)], max_turns=400)
    assert g.is_over
    points = [harbour_points(g, q) for q in range(4)]
    h = holder(g)
    assert (h is None and max(points) < THRESHOLD) or (points[h] >= THRESHOLD and points[h] == max(points))
    assert Game.from_json(g.to_json()).state() == g.state() == g.replay().state()
    assert g.view(0).modules["harbour_master"] == {"holder": h, "points": points}


def test_sf14_the_table_shows_points_and_holder():
    from catan_nb.widgets import GameTable

    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=1, start="beginner", bot_delay=None,
                  rules=Rules(modules=("harbour_master",)))
    panel = next(p for p in t.panels if type(p).__name__ == "HarbourMasterPanel")
    assert "Harbour Master" in panel.html.value and "nobody yet" in panel.html.value
    s = free_harbour_nodes(t.game)
    t.game.place(0, "settlement", s[0])
    t.game.place(0, "city", s[0])
    t.game.place(0, "settlement", s[1])
    t.refresh()
    assert "Red" in panel.html.value and "nobody yet" not in panel.html.value

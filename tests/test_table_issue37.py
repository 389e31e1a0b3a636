"""Issue 37 items 5-7 at the game table, through its handlers (no browser).

* item 5 (X56-SBP-1, X56-SBP-2): the Special Building Phase is passed for a human seat that can pay for
  nothing (the only legal move is to pass), with a log line saying why; with something affordable the
  table asks, and "always skip" passes this phase and every later one;
* item 6 (CK-KN-3..6): a click on one's own knight lists its moves, even a single one, and plays none;
  the choice played is the move chosen; the labels say what a move costs;
* item 7 (SF-1): a founding gold pick is counted in the founding, not in "Round 1"; between two picks the
  gold panel says "1 of 2 picked".
"""

from __future__ import annotations

import re

from helpers import deal, empty_hands

from catan_nb import Board, Game
from catan_nb.rules import EndTurn, Phase, RollDice, Rules
from catan_nb.widgets import GameTable


def plain(text: str) -> str:
    return re.sub("<[^>]+>", "", text)


def _to_main(g: Game, seat: int) -> None:
    """Found with the first legal moves, then roll (no 7) and end turns until ``seat`` is in its main phase."""
    while not (g.current_player == seat and g.phase is Phase.MAIN):
        if g.phase is Phase.ROLL:
            g.play(RollDice(dice=(2, 3) + ((4,) if any(m.name == "cities_knights" for m in g.modules) else ())))
        elif g.phase is Phase.MAIN:
            g.play(EndTurn())
        else:
            g.play(g.legal_actions()[0])


def _five(seed: int = 1) -> Game:
    g = Game(Board.five_six(), players=5, seed=seed)
    assert "five_six" in g.rules.modules
    _to_main(g, 1)
    empty_hands(g)
    return g


def test_X56_SBP_2_a_human_who_can_pay_for_nothing_is_not_asked_to_build():
    g = _five()
    table = GameTable(g, seats=["human"] + ["bot"] * 4, bot_delay=None)  # seat 1 (a bot) ends its turn: SBP
    sbp = [line for line in table.log_lines if "Special Building Phase" in line]
    assert sbp, table.log_lines[-12:]
    mine = [line for line in sbp if line.startswith("Red")]
    assert mine and all("nothing to build" in line for line in mine), sbp
    # the bots played on to the human's own turn: no Special Building prompt stopped the table
    assert g.current_player == 0 and g.phase is Phase.ROLL, (g.current_player, g.phase)
    assert "Special Building" not in plain(table.status.value)


def test_X56_SBP_1_with_something_affordable_the_table_asks_and_always_skip_passes():
    from catan_nb.rules.modules.five_six import SPECIAL_BUILD

    g = _five()
    deal(g, 0, lumber=1, brick=1)  # a road: something to build
    table = GameTable(g, seats=["human"] + ["bot"] * 4, bot_delay=None)
    assert g.phase is SPECIAL_BUILD and g.current_player == 0
    assert "Special Building Phase" in plain(table.status.value)
    panel = next(p for p in table.panels if hasattr(p, "always"))
    assert panel.box.layout.display != "none"
    panel.always.value = True  # "always skip": passes now, and every later phase
    assert not (g.phase is SPECIAL_BUILD and g.current_player == 0)
    assert any("skipped (always skip)" in line for line in table.log_lines), table.log_lines[-6:]
    # another round: the human still holds the road's cards and is never asked
    table.run_bots()
    while g.current_player == 0 and not g.is_over:
        legal = g.legal_actions()
        table.play(next((a for a in legal if isinstance(a, (RollDice, EndTurn))), legal[0]))
        if g.current_player != 0:
            break
    assert not (g.phase is SPECIAL_BUILD and g.current_player == 0)


def _knight_table():
    from catan_nb.rules.modules.cities_knights import HireKnight

    g = Game(Board.beginner(), players=4, seed=2, rules=Rules(modules=("cities_knights",)))
    _to_main(g, 0)
    empty_hands(g)
    deal(g, 0, ore=1, wool=1)
    g.play(next(a for a in g.legal_actions() if isinstance(a, HireKnight)))
    deal(g, 0, grain=1)
    return g, GameTable(g, seats=["human", "bot", "bot", "bot"], bot_delay=None)


def test_CK_KN_3_a_click_on_ones_knight_lists_its_moves_and_plays_none():
    from catan_nb.rules.modules.cities_knights import ActivateKnight

    g, table = _knight_table()
    layer = next(la for la in table.layers if "cities_knights:knights" in la.clickable)
    grain_before = sum(g.hands[0])
    acts = [a for a in g.legal_actions() if isinstance(a, ActivateKnight)]
    assert len(acts) == 1  # the only move of this knight: still asked (issue 37)
    assert table.click_layer(layer, "cities_knights:knights", 0)
    assert sum(g.hands[0]) == grain_before and not any(isinstance(a, ActivateKnight) for a in g.log)
    labels = [b.description for b in table.choice_buttons.children]
    assert labels and any("activate" in x and "1 grain" in x for x in labels), labels
    assert "Which one?" in table.choice_title.value
    table.choice_buttons.children[0].click()  # the second click acts
    assert isinstance(g.log[-1], ActivateKnight) and sum(g.hands[0]) == grain_before - 1


def test_CK_KN_3_cancel_after_a_knights_click_plays_nothing():
    g, table = _knight_table()
    layer = next(la for la in table.layers if "cities_knights:knights" in la.clickable)
    n = len(g.log)
    table.click_layer(layer, "cities_knights:knights", 0)
    table.press("cancel_choice")
    assert len(g.log) == n and not table.pending_choices and not table.choice_buttons.children


def test_SF_1_gold_picks_count_in_the_founding_and_say_how_many_are_picked():
    from catan_nb.rules.modules.gold_fields import GOLD_PICK, PickGold, gold_board

    board = gold_board(Board.beginner(), 4, 10)
    golds = {h.id for h in board.hexes if str(h.terrain) == "gold"}
    for seed in range(1, 60):  # a founding city next to the gold field (C&K's second founding piece is a city)
        g = Game(board, players=4, seed=seed, rules=Rules(modules=("gold_fields",)))
        while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD) and g.phase is not GOLD_PICK:
            acts = g.legal_actions()
            near = [a for a in acts if g.current_player == 0 and hasattr(a, "node")
                    and golds & set(g.topology.node_hexes[a.node])]
            g.play(near[0] if near else acts[0])
        if g.phase is GOLD_PICK and g.current_player == 0:
            break
    else:
        raise AssertionError("no seed gives seat 0 a founding gold pick")
    table = GameTable(g, seats=["human", "bot", "bot", "bot"], bot_delay=None)
    assert plain(table.status.value).startswith("Founding"), plain(table.status.value)
    panel = next(p for p in table.panels if hasattr(p, "count"))
    total = g.stack[-1].data
    assert f"takes {total} resource" in plain(panel.note.value) and "picked" not in plain(panel.note.value)
    if total > 1:
        table.play(next(a for a in g.legal_actions() if isinstance(a, PickGold)))
        assert f"1 of {total} picked" in plain(panel.note.value), plain(panel.note.value)


def test_SF_1_the_pick_counter_counts_a_two_card_pick_in_a_game():
    """A city next to a gold field owes two picks (SF-1): between them, "1 of 2 picked"."""
    from catan_nb.rules.modules.gold_fields import GOLD_PICK, PickGold, gold_board

    board = gold_board(Board.beginner(), 4, 10)
    g = Game(board, players=4, seed=3, rules=Rules(modules=("gold_fields",)))
    table = GameTable(g, seats=["human"] * 4, bot_delay=None)
    g.push(GOLD_PICK, 0, 2)  # the position a rolled gold field next to seat 0's city makes
    table.refresh()
    panel = next(p for p in table.panels if hasattr(p, "count"))
    assert "takes 2 resources" in plain(panel.note.value) and "picked" not in plain(panel.note.value)
    table.play(next(a for a in g.legal_actions() if isinstance(a, PickGold)))
    assert "1 of 2 picked" in plain(panel.note.value), plain(panel.note.value)


def test_CK_SETUP_1_the_log_says_a_founding_city_is_placed_not_upgraded():
    """Issue 37 item 8: Cities & Knights' second founding piece is a city placed on an empty intersection."""
    t = GameTable(Board.beginner(), seats=["bot"] * 4, seed=6, rules=Rules(modules=("cities_knights",)),
                  bot_delay=None, open_hands=True)
    first_roll = next(i for i, line in enumerate(t.log_lines) if "rolled" in line)
    founding = t.log_lines[:first_roll]
    assert sum("placed a city at" in line for line in founding) == 4, founding
    assert not any("upgraded" in line for line in founding), founding


def test_SF_7_a_place_at_sea_is_named_by_the_land_nearest_it():
    """Issue 37 item 8: a path or a sea hex away from every coast is told apart by the nearest land hex."""
    from catan_nb.rules.modules.seafarers import ISLANDS
    from catan_nb.viz.seafarers import _sea_place
    from catan_nb.viz.text import place_of_path

    g = Game(Board.load(ISLANDS), players=4, seed=1)
    b = g.board
    open_sea = [e for e in range(len(g.topology.edge_nodes)) if place_of_path(b, e).startswith("at sea")]
    assert open_sea and all(place_of_path(b, e).startswith("at sea off ") for e in open_sea)
    assert len({place_of_path(b, e) for e in open_sea}) > 1  # not all the same words
    seas = [h.id for h in b.hexes if not h.is_land]
    assert any(_sea_place(g, h).startswith("the open sea off ") for h in seas)
    assert not any(_sea_place(g, h) == "the open sea" for h in seas)


def test_CK_PROG_1_the_log_says_who_drew_a_progress_card_and_its_colour_naming_it_to_the_drawer_only():
    """Issue 37 item 8: a progress card dealt by the event die has a log line: who drew and the colour (the
    city gate shows it) for all, the card's name only in the drawer's log (a victory-point card is shown)."""
    import random

    import catan_nb.viz.cities_knights  # noqa: F401  (the module's log sentences, as the table loads them)
    from catan_nb.rules.modules.cities_knights import EVENT_FACES, TRACK_COLOUR, VP_PROGRESS
    from catan_nb.viz.text import narrate, snapshot

    g = Game(Board.beginner(), players=4, seed=5, rules=Rules(modules=("cities_knights",)))
    rng = random.Random(5)
    st = g.ext["cities_knights"]
    seen = 0
    while not g.is_over and len(g.log) < 4000 and seen < 4:
        a = rng.choice(g.legal_actions())
        before = snapshot(g)
        held = [list(h) + list(v) for h, v in zip(st["hands"], st["vp_cards"])]
        g.play(a)
        if type(a).__name__ != "RollDice":
            continue
        for q in range(g.n):
            new = list(st["hands"][q]) + list(st["vp_cards"][q])
            for c in held[q]:
                new.remove(c)
            if not new:
                continue
            seen += 1
            card = new[0].replace("_", " ").title()
            colour = TRACK_COLOUR[EVENT_FACES[g.log[-1].dice[2]]]
            own = "\n".join(narrate(g, g.log[-1], before, q))
            other = "\n".join(narrate(g, g.log[-1], before, (q + 1) % g.n))
            name = str(g.colours[q]).title()
            for text in (own, other):
                assert f"{name} drew" in text and colour in text, text
            assert card in own, own
            assert (card in other) == (new[0] in VP_PROGRESS), other
    assert seen >= 2


def test_SC_10_the_new_york_legend_says_what_the_stars_squares_red_paths_and_canal_mean():
    """Issue 37 item 8: the legend under the New York board explains the scenario's marks (SC-5, SC-6, SC-8,
    SC-10, ERIE-2); the base game's legend has none of them."""
    from catan_nb.widgets import GameTable

    t = GameTable(Game(Board.load("boards/new_york.json"), players=4, seed=1), seats=["human"] + ["bot"] * 3,
                  bot_delay=None)
    legend = t.legend.value
    for words in ("locality", "Erie Canal", "VP intersection", "Catan token", "red path", "road path"):
        assert words in legend, legend
    base = GameTable(Game(Board.beginner(), players=4, seed=1), seats=["human"] * 4, bot_delay=None).legend.value
    assert "Erie Canal" not in base and "red path" not in base

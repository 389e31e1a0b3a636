"""Issue 13: the value bot and the search bot — they see only their own view, play legal and
sensible moves, and the ladder is reproducible (strength is measured by benchmarks/ladder.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from helpers import deal, empty_hands

from catan_nb import Board, Game
from catan_nb.analysis import SearchBot, ValueBot, WeightedBot, bot_for_level, play_game
from catan_nb.rules import AcceptTrade, DeclineTrade, MoveRobber, OfferTrade, Phase, RollDice, Rules
from catan_nb.widgets import GameTable

ROOT = Path(__file__).resolve().parent.parent


def positions(seeds=range(3), every=9):
    """Positions along games between weighted bots: (game, seat to act), of every phase."""
    for s in seeds:
        g = Game(Board.random(seed=s), seed=s)
        bots = [WeightedBot(seed=s * 4 + q) for q in range(4)]
        k = 0
        while not g.is_over and g.turn < 80:
            if k % every == 0 and len(g.legal_actions()) > 1:
                yield g.copy()
            g.apply(bots[g.current_player].choose(g))
            k += 1


@pytest.mark.parametrize("make", [lambda: ValueBot(seed=5), lambda: SearchBot(seed=5, iterations=12)],
                         ids=["value", "search"])
def test_a_bot_never_reads_hidden_cards(make):
    """Issue 13: a view with the opponents' hidden cards (hands, development cards, deck, future dice)
    dealt again gives the same choice: the bots decide on what their seat may know."""
    checked = 0
    phases = set()
    for g in positions():
        me = g.current_player
        scrambled = g.determinized(me, seed=987654 + checked)  # same view, other hidden cards
        assert scrambled.view(me) == g.view(me)
        a, b = make().choose(g), make().choose(scrambled)
        assert a == b, (g.phase, a, b)
        assert a in g.legal_actions() or isinstance(a, OfferTrade)
        checked += 1
        phases.add(g.phase)
    assert checked >= 20 and {Phase.MAIN, Phase.MOVE_ROBBER} <= phases, (checked, phases)


def test_value_bots_finish_games_building_cities():
    """Issue 13 item 3: value bots build toward a plan (cities, fewer cards idle), and win in reasonable time."""
    cities, turns = 0, []
    for s in range(4):
        g = play_game(Game(Board.random(seed=s), seed=s), [ValueBot(seed=s * 4 + q) for q in range(4)], max_turns=400)
        assert g.is_over
        cities += sum(g.n_cities)
        turns.append(g.turn)
    assert cities >= 4 and max(turns) < 250, (cities, turns)


def test_the_robber_goes_to_the_leader_not_the_desert():
    """Issue 13 item 3: the robber blocks an opponent's hex (never the desert when one exists) and
    steals from the leader among the victims."""
    moved = 0
    for g in positions(seeds=range(6), every=1):
        if g.phase is not Phase.MOVE_ROBBER:
            continue
        me = g.current_player
        a = ValueBot(seed=1).choose(g)
        assert isinstance(a, MoveRobber)
        topo = g.topology
        owners = {g.node_owner[v] for v in topo.hex_nodes[a.hex]} - {-1}
        assert owners - {me}, f"robber on a hex with no opponent: {a}"
        assert g.hex_token[a.hex], "robber on the desert"
        if a.victim is not None:
            vis = [g.vp(q, visible=True) for q in range(g.n)]
            victims = {x.victim for x in g.legal_actions() if isinstance(x, MoveRobber) and x.hex == a.hex}
            assert vis[a.victim] >= min(vis[v] for v in victims if v is not None)
        moved += 1
    assert moved >= 3


def _offer_position(vp_to_win=None):
    """Seat 1 (to answer) holds 2 grain, 2 ore, 2 wool: one ore short of a city."""
    g = Game(Board.beginner(), seed=4, start="beginner", rules=Rules(vp_to_win=vp_to_win))
    g.play(RollDice(dice=(2, 3)))  # pays nobody on the beginner board's 5s? whatever it pays is emptied next
    empty_hands(g)
    deal(g, 0, ore=1, wool=1)
    deal(g, 1, grain=2, ore=2, wool=2)
    return g


def test_fair_trades_are_accepted_and_gifts_to_the_leader_refused():
    """Issue 13 item 3: a one-for-one trade that completes the bot's city is accepted (today's bots
    declined every fair trade); one that costs it the city is declined; a player about to win gets nothing."""
    g = _offer_position()
    g.play(OfferTrade((0, 0, 0, 0, 1), (0, 0, 1, 0, 0)))  # seat 0 gives 1 ore, asks 1 wool
    assert g.phase is Phase.TRADE_RESPONSE and g.current_player == 1
    assert ValueBot(seed=0).choose(g) == AcceptTrade()
    g = _offer_position()
    g.play(OfferTrade((0, 0, 1, 0, 0), (0, 0, 0, 0, 1)))  # gives 1 wool, asks the ore seat 1 needs
    assert ValueBot(seed=0).choose(g) == DeclineTrade()
    g = _offer_position(vp_to_win=4)  # seat 0 has 2 visible VP of 4: about to win
    g.play(OfferTrade((0, 0, 0, 0, 1), (0, 0, 1, 0, 0)))
    assert ValueBot(seed=0).choose(g) == DeclineTrade()


def test_value_bot_explains_its_choice():
    g = Game(Board.beginner(), seed=1)
    bot = ValueBot(seed=0)
    top = bot.explain(g, top=3)
    assert len(top) == 3 and top[0].value >= top[1].value >= top[2].value
    assert bot.choose(g) == top[0].action


def test_levels_and_the_table():
    """Issue 13 item 3: each bot seat has a level (value bot by default) and explains on demand."""
    assert type(bot_for_level("easy", 1)).__name__ == "WeightedBot"
    assert type(bot_for_level("hard", 1)).__name__ == "SearchBot"
    with pytest.raises(ValueError, match="level"):
        bot_for_level("godlike", 1)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot:easy", "bot:hard"], seed=2, bot_delay=None,
                  start="beginner")
    assert type(t.bots[1]).__name__ == "ValueBot" and type(t.bots[2]).__name__ == "WeightedBot"
    assert t.seats == ["human", "bot", "bot", "bot"] and t.levels == {1: "medium", 2: "easy", 3: "hard"}
    t.level_boxes[3].value = "medium"
    assert type(t.bots[3]).__name__ == "ValueBot"
    t.explain_box.value = True
    t.press("roll")
    if t.game.phase is Phase.MAIN:
        t.press("end")
        assert any(line.startswith("  why:") for line in t.log_lines), t.log_lines[-10:]
    with pytest.raises(ValueError, match="bot:LEVEL"):
        GameTable(Board.beginner(), seats=["human", "bot:impossible", "bot", "bot"], bot_delay=None)


def _ladder():
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_ladder_is_reproducible():
    """Issue 13 item 4: same seed, same table (the small version; strength is the benchmark's)."""
    ladder = _ladder()
    a = ladder.run(["value_vs_weighted", "search_vs_value"], games=2, seed=3, iterations=8, workers=1, max_turns=200)
    b = ladder.run(["value_vs_weighted", "search_vs_value"], games=2, seed=3, iterations=8, workers=1, max_turns=200)
    strip = lambda res: {m: [r[:4] for r in rs] for m, rs in res.items()}  # noqa: E731  (seconds differ)
    assert strip(a) == strip(b)
    assert ladder.wilson(0, 10)[0] == 0.0 and 0.4 < ladder.wilson(50, 100)[0] < 0.5 < ladder.wilson(50, 100)[1]
    text = ladder.table(a, 8)
    assert "| search_vs_value |" in text and "| value_vs_weighted |" in text


def test_search_bot_respects_its_time_budget():
    import time

    g = Game(Board.random(seed=3), seed=3)
    bots = [WeightedBot(seed=q) for q in range(4)]
    while not (g.phase is Phase.MAIN and len(g.legal_actions()) > 3):
        g.apply(bots[g.current_player].choose(g))
    bot = SearchBot(seed=1, seconds=0.2)
    t = time.perf_counter()
    bot.choose(g)
    # A hang guard (a budget of 0.2 s overrun by far), not a timing: CI runners are loaded.
    assert time.perf_counter() - t < 20.0 and bot.searched >= 8

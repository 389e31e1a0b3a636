"""Issues 13 and 26: the value bot and the search bot — they see only their own view (in every rule
module), play legal and sensible moves (the expansions' own ways to win included), and the ladder is
reproducible (strength is measured by benchmarks/ladder.py, the modules by benchmarks/bot_modules.py)."""

from __future__ import annotations

import importlib.util
import random
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


# ------------------------------------------------------------------------------ issue 26: every module
LADDER = _ladder()
MODULE_NAMES = [m for m in LADDER.MODULE_SETUPS if m != "base"]


def module_positions(name: str, seeds=range(2), every: int = 11, limit: int = 14, turns: int = 70):
    """Positions along weighted bots' games on a module's ladder setup: (game, seat to act)."""
    setup = LADDER.setup_for([name])
    out = 0
    for s in seeds:
        g = setup.game(s)
        bots = [WeightedBot(seed=s * 4 + q) for q in range(g.n)]
        k = 0
        while not g.is_over and g.turn < turns and out < limit * (1 + list(seeds).index(s)) // len(seeds) + 1:
            if k % every == 0 and len(g.legal_actions()) > 1:
                out += 1
                yield g.copy()
            g.apply(bots[g.current_player].choose(g))
            k += 1


@pytest.mark.parametrize("name", MODULE_NAMES)
@pytest.mark.parametrize("make", [lambda: ValueBot(seed=5), lambda: SearchBot(seed=5, iterations=6)],
                         ids=["value", "search"])
def test_no_bot_reads_hidden_cards_in_any_module(name, make):
    """Issue 26: in every module a view with what the seat cannot see dealt again (opponents' cards,
    the decks, fog, treasure, the Great Catan supply, progress cards...) gives the same choice."""
    checked = 0
    for g in module_positions(name):
        me = g.current_player
        scrambled = g.determinized(me, seed=424242 + checked)
        assert scrambled.view(me) == g.view(me)
        a, b = make().choose(g), make().choose(scrambled)
        assert a == b, (name, g.phase, a, b)
        assert a in g.legal_actions() or isinstance(a, OfferTrade)
        checked += 1
    assert checked >= 8, checked


@pytest.mark.parametrize("name", MODULE_NAMES)
def test_a_small_ladder_per_module_is_reproducible(name):
    """Issue 26 item 4: ``--module NAME`` plays the same matches on that module's rules: same seed, same table."""
    setup = LADDER.setup_for([name])
    run = lambda: LADDER.run(["value_vs_weighted", "search_vs_value"], games=1, seed=3, iterations=3,  # noqa: E731
                             workers=1, max_turns=16, setup=setup)
    strip = lambda res: {m: [r[:4] for r in rs] for m, rs in res.items()}  # noqa: E731
    a = run()
    assert strip(a) == strip(run())
    assert "| value_vs_weighted |" in LADDER.table(a, 3, setup.players)


def test_ladder_setups_name_modules_and_scenarios():
    """Issue 26 item 4: a module's board and rules; a scenario file with its own modules."""
    assert LADDER.setup_for(["seafarers"]).board == "islands"
    s = LADDER.setup_for(None, str(ROOT / "boards" / "new_york.json"))
    assert set(s.game(1).rules.modules) == {"corsica_new_york", "erie_canal"}
    assert LADDER.setup_for(["five_six"]).players == 5
    assert LADDER.setup_for(["cities_knights", "seafarers"]).game(2).vp_target == 14  # CK-SF-1: 12 + 2
    with pytest.raises(ValueError, match="unknown module"):
        LADDER.setup_for(["no_such_module"])


def test_the_bots_name_no_module():
    """Issue 26 item 1: the bots know each module's way to win through the features it declares (a
    registry keyed by module name), never by naming a module themselves."""
    import ast

    from catan_nb.analysis.bot_features import FEATURES, _load
    from catan_nb.rules.modules import MODULES, optional

    _load()
    assert set(FEATURES) - {"doc_example"} <= set(MODULES), set(FEATURES) - set(MODULES)
    for name in ("seafarers", "cities_knights", "fog", "gold_fields", "treasure", "great_catan", "harbour_master",
                 "corsica_new_york", "erie_canal", "friends", "helpers"):
        assert name in FEATURES, name
    names = set(optional())  # the variants' names (the base game's own parts are the base game)
    for f in ("value_bot.py", "search_bot.py", "bots.py"):
        tree = ast.parse((ROOT / "catan_nb" / "analysis" / f).read_text(encoding="utf-8"))
        named = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in names]
        assert not named, (f, named)


def test_a_fog_hex_is_worth_its_expected_value_from_the_hidden_stack():
    """Issue 26 item 1 (SF-3): before it is revealed, a fog hex yields the lesson's expectation over the
    tiles not yet turned over (gold counted as a card of one's choice)."""
    from catan_nb.analysis.bot_features import features_for
    from catan_nb.analysis.seafarers import fog_expected_cards
    from catan_nb.rules.modules.fog import fog_hexes

    g = LADDER.setup_for(["fog"]).game(1)
    hx = fog_hexes(g)[0]
    got = next(y for m in features_for(g) if (y := m.hex_yield(g, hx)) is not None)
    assert sum(p for _, p in got) == pytest.approx(float(fog_expected_cards(g)))


def test_value_bots_sail_to_foreign_islands():
    """Issue 26 item 1 (SF-5..7, SF-13): on seeded random Seafarers maps value bots build ships and settle
    foreign islands (before this issue a fog game saw no ship in 21 rounds)."""
    setup = LADDER.setup_for(["seafarers"])
    settled = ships = 0
    for s in range(2):
        g = play_game(setup.game(s), [ValueBot(seed=s * 4 + q) for q in range(4)], max_turns=300)
        assert g.is_over
        ships += sum(1 for a in g.log if type(a).__name__ == "BuildShip")
        settled += sum(len(x) for x in g.ext["seafarers"]["settled"])
    assert ships >= 4 and settled >= 2, (ships, settled)


def test_value_bots_improve_cities_and_meet_the_barbarians():
    """Issue 26 item 1 (CK-IMP-*, CK-BAR-*): value bots build improvements, race for a metropolis and
    defend against the barbarians; the game ends in a reasonable time."""
    setup = LADDER.setup_for(["cities_knights"])
    g = play_game(setup.game(2), [ValueBot(seed=q) for q in range(4)], max_turns=300)
    st = g.ext["cities_knights"]
    assert g.is_over and g.turn < 200, g.turn
    assert sum(map(sum, st["levels"])) >= 8 and any(m is not None for m in st["metropolis"]), st["levels"]
    assert st["attacks"] >= 1 and sum(st["defender"]) >= 1, (st["attacks"], st["defender"])


def test_the_value_bot_gives_its_reasons_as_data():
    """Issue 26 item 3: a choice comes with the features that decided it, as ``(feature, weighted change)``
    pairs the table may render (a settlement's VP, a ship's spots, an improvement...)."""
    from catan_nb.analysis.value_bot import weights_for

    for name in ("seafarers", "cities_knights"):
        bot = ValueBot(seed=1)
        for g in module_positions(name, seeds=range(1), every=5, limit=12):
            if g.phase is not Phase.MAIN:
                continue
            top = bot.explain(g, top=3)
            w = weights_for(g)
            for c in top:
                assert all(isinstance(k, str) and isinstance(x, float) for k, x in c.reasons), c
                assert all(k in w for k, _ in c.reasons), c.reasons
    g = Game(Board.beginner(), seed=1)
    top = ValueBot(seed=0).explain(g, top=1)[0]
    assert top.reasons and top.reasons[0][0] == "vp", top.reasons


def test_the_weighted_bot_prefers_a_module_purchases():
    """Issue 26: the weighted bot (random, preferring to build) prefers a module's purchases as its
    features declare: a city improvement like a settlement."""
    from catan_nb.rules.modules.cities_knights import ImproveCity

    g = LADDER.setup_for(["cities_knights"]).game(1)
    bot = WeightedBot(seed=1)
    weights = bot._for(g)
    assert weights[ImproveCity] >= 10 and weights[type(g.legal_actions()[0])] > 0


def test_the_module_figures_count_what_the_bots_did(capsys):
    """Issue 26 targets: benchmarks/bot_modules.py reports each module's figures; a canal token earned
    (ERIE-2) is held at the end or was played (ERIE-4), and modules join with ``+``."""
    spec = importlib.util.spec_from_file_location("bot_modules", ROOT / "benchmarks" / "bot_modules.py")
    bm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bm)
    g = play_game(LADDER.setup_for(["erie_canal"]).game(4), [ValueBot(seed=q) for q in range(4)], max_turns=60)
    fig = bm.behaviour(g)
    played = sum(1 for a in g.log if type(a).__name__ == "PlayCanal")
    assert fig["canal_tokens_played"] == played
    assert fig["canal_tokens_earned"] == sum(g.ext["erie_canal"]["tokens"]) + played >= played
    bm.main(["--games", "1", "--max-turns", "12", "--only", "cities_knights+seafarers"])
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith("cities_knights+seafarers") and "improvement_levels=" in out[-2] and "ships=" in out[-2]
    assert out[-1].startswith("median ratio:")


def test_value_bot_trades_for_the_grain_that_activates_a_knight_before_the_attack():
    """Issue 26 item 1 (CK-KN-4, CK-BAR-2): the barbarians one step away and stronger than Catan, the
    bot's knight inactive and no grain in hand: it trades at the bank for grain (weighed by the
    activation it allows next) rather than let a city be pillaged."""
    from catan_nb.rules.modules.cities_knights import ActivateKnight, HireKnight, barbarian_strength, catan_strength

    g = LADDER.setup_for(["cities_knights"]).game(3)
    bots = [WeightedBot(seed=q) for q in range(4)]
    while not (g.phase is Phase.MAIN and any(isinstance(a, HireKnight) for a in g.legal_actions())):
        g.apply(bots[g.current_player].choose(g))
    me, hired = g.current_player, g.turn
    g.apply(next(a for a in g.legal_actions() if isinstance(a, HireKnight)))
    while not (g.phase is Phase.MAIN and g.current_player == me and g.turn > hired):  # trade before building (B-TURN-2)
        g.apply(bots[g.current_player].choose(g))
    ck = g.ext["cities_knights"]
    assert any(r[1] == me for r in ck["knights"])
    for row in ck["knights"]:
        row[3] = False
    ck["barbarians"] = 6  # one step from the attack (CK-BAR-4)
    empty_hands(g)
    for h in g.hands:
        h[5:] = [0] * len(h[5:])
    deal(g, me, wool=4)
    assert barbarian_strength(g) > catan_strength(g)
    bot = ValueBot(seed=1)
    first = bot.choose(g)
    assert type(first).__name__ == "MaritimeTrade" and str(first.get) == "grain", bot.last[:3]
    g.apply(first)
    assert isinstance(ValueBot(seed=1).choose(g), ActivateKnight)


def _ck_main_position(seed: int = 3):
    """A Cities & Knights game at a seat's main phase (after the founding), no knight on the board, no
    progress card or commodity in any hand and no resource card but those a test deals: ``(game, seat)``."""
    g = LADDER.setup_for(["cities_knights"]).game(seed)
    bots = [WeightedBot(seed=q) for q in range(4)]
    while not (g.phase is Phase.MAIN and g.turn >= 4 and g.placed[g.kind_id["city"]][g.current_player]):
        g.apply(bots[g.current_player].choose(g))
    ck = g.ext["cities_knights"]
    ck["knights"].clear()
    for h in ck["hands"]:
        h.clear()
    empty_hands(g)
    for h in g.hands:
        h[5:] = [0] * len(h[5:])
    return g, g.current_player


def test_a_knight_hired_ahead_of_the_barbarians_counts_against_them():
    """CK-KN-1, CK-KN-4, CK-BAR-2: an attack likely within the next rounds finds every knight its owner
    holds activated in time, so hiring one removes most of the threat of losing a city even before it is
    active (before this fix only active knights counted, so a knight was hired too late); a knight that
    has no grain to be activated with counts less."""
    from catan_nb.analysis.value_bot import features
    from catan_nb.rules.modules.cities_knights import HireKnight

    g, me = _ck_main_position()
    g.ext["cities_knights"]["barbarians"] = 3  # four steps away (CK-BAR-4)
    deal(g, me, wool=1, ore=1, grain=1)
    before = features(g, me)["threat"]
    hire = next(a for a in g.legal_actions() if isinstance(a, HireKnight))
    with_grain = g.copy()
    with_grain.apply(hire)
    assert before > 0.5 and features(with_grain, me)["threat"] < 0.5 * before
    no_grain = g.copy()
    no_grain.hands[me][no_grain.good_index("grain")] = 0
    no_grain.apply(hire)
    assert features(no_grain, me)["threat"] >= features(with_grain, me)["threat"]
    assert isinstance(ValueBot(seed=1).choose(g), HireKnight)


def test_value_bot_asks_for_the_card_its_knight_lacks():
    """CK-KN-1, CK-BAR-2: the barbarians near and stronger than Catan, no knight of its own and one card
    short of one (wool), the bot offers one of its surplus cards for it (before this fix it offered
    trades only for a city or a settlement)."""
    from catan_nb.rules.modules.cities_knights import barbarian_strength, catan_strength

    g, me = _ck_main_position()
    g.ext["cities_knights"]["barbarians"] = 5
    deal(g, me, ore=1, grain=2)
    assert barbarian_strength(g) > catan_strength(g)
    got = ValueBot(seed=1).choose(g)
    assert isinstance(got, OfferTrade), got
    wool, grain = g.good_index("wool"), g.good_index("grain")
    assert got.get[wool] == 1 and sum(got.get) == 1 and got.give[grain] == 1 and sum(got.give) == 1, got


def test_value_bot_trades_at_the_bank_toward_a_knight():
    """CK-KN-1, CK-BAR-2: no knight, the barbarians near and stronger, wool and four bricks but no ore:
    the bot trades four bricks for the ore (weighed by the knight it hires next), then hires."""
    from catan_nb.rules import MaritimeTrade
    from catan_nb.rules.modules.cities_knights import HireKnight

    g, me = _ck_main_position()
    g.ext["cities_knights"]["barbarians"] = 5
    deal(g, me, brick=4, wool=1, grain=1)
    first = ValueBot(seed=1).choose(g)
    assert isinstance(first, MaritimeTrade) and g.good_index(first.get) == g.good_index("ore"), first
    g.apply(first)
    assert isinstance(ValueBot(seed=1).choose(g), HireKnight)


def test_value_bot_builds_the_road_that_links_two_canal_localities():
    """ERIE-2, ERIE-6: two roads of the three that link a pair of canal localities built, and a road in
    hand, the bot builds the third: the pair linked (and the token it pays) is worth more than the
    target it was (before this fix reaching the target lost its worth, and the link waited)."""
    from catan_nb.analysis.bot_features.scenarios import canal_pairs
    from catan_nb.rules import BuildRoad
    from catan_nb.rules.modules.corsica_new_york import localities, scenario_data

    g = LADDER.setup_for(["erie_canal"]).game(2)
    bots = [WeightedBot(seed=q) for q in range(4)]
    while not (g.phase is Phase.MAIN and g.turn >= 1):
        g.apply(bots[g.current_player].choose(g))
    me, t, d = g.current_player, g.topology, scenario_data(g.board)
    places = localities(g)

    def way(v, w):  # the roads from v to w through no other locality (ERIE-2)
        prev, todo = {v: None}, [v]
        while todo:
            x = todo.pop(0)
            for e in t.node_edges[x]:
                y = next(u for u in t.edge_nodes[e] if u != x)
                if d.road_ok[e] and y not in prev and (y == w or y not in places):
                    prev[y] = (x, e)
                    todo.append(y)
        out, x = [], w
        while prev[x] is not None:
            x, e = prev[x]
            out.append(e)
        return out[::-1]

    v, w = next((v, w) for v, w in sorted(canal_pairs(g)) if all(g.edge_owner[e] < 0 for e in way(v, w)))
    roads = way(v, w)
    for e in roads[:-1]:
        g.place(me, "road", e)
    empty_hands(g)
    deal(g, me, brick=1, lumber=1)
    got = ValueBot(seed=1).choose(g)
    assert got == BuildRoad(roads[-1]), (got, roads)
    g.apply(got)
    assert g.ext["erie_canal"]["tokens"][me] == 1


def test_SC_10_the_search_bot_weighs_catan_tokens_a_few_roads_away():
    """SC-10, SC-3: a free Catan token one to four roads from the network is ``tokens_near``
    (:data:`TOKEN_NEAR` by the roads still to build, the next token half that); a token taken no longer
    counts; the search bot weighs it (the modules' ``search_weights``), the value bot does not, and a
    bot's own weights may replace it.  With the Erie Canal (ERIE-2) the feature is off."""
    from catan_nb.analysis.bot_features import features_for, search_weights
    from catan_nb.analysis.bot_features.scenarios import TOKEN_NEAR
    from catan_nb.analysis.value_bot import DEFAULT_WEIGHTS, _kinds, _reach, features, weights_for

    g = LADDER.setup_for(["corsica_new_york"]).game(3)
    bots = [WeightedBot(seed=q) for q in range(4)]
    while not (g.phase is Phase.MAIN and g.turn >= 1):
        g.apply(bots[g.current_player].choose(g))
    tokens = g.ext["corsica_new_york"]["tokens"]
    assert len(tokens) == 11 and any(o is None for _, o in tokens)  # SC-3: 11 on Corsica
    _, paths, blocks = _kinds(g, features_for(g))  # the distances the feature reads
    for p in range(4):
        f = features(g, p)
        dist = _reach(g, p, paths, blocks, 4)
        near = sorted((TOKEN_NEAR[dist[v]] for v, o in tokens if o is None and dist.get(v)), reverse=True)
        expect = near[0] + 0.5 * sum(near[1:2]) if near else 0.0
        assert f.get("tokens_near", 0.0) == pytest.approx(expect), p
    p = next(p for p in range(4) if features(g, p).get("tokens_near"))
    for row in tokens:
        row[1] = (p + 1) % 4  # SC-10: every token taken by someone else
    assert "tokens_near" not in features(g, p)
    assert search_weights()["tokens_near"] > 0
    assert weights_for(g).get("tokens_near", 0.0) == 0.0  # the value bot's own weights
    assert SearchBot(seed=0).weights["tokens_near"] == search_weights()["tokens_near"]
    assert ValueBot(seed=0).weights.get("tokens_near", 0.0) == 0.0
    mine = SearchBot(seed=0, weights=dict(DEFAULT_WEIGHTS, tokens_near=0.0))
    assert mine.weights["tokens_near"] == 0.0 and mine.value.weights is mine.weights
    ny = LADDER.setup_for(["erie_canal"]).game(3)  # New York with the Erie Canal: the roads go to canal links
    assert ny.ext["corsica_new_york"]["tokens"]
    assert all("tokens_near" not in features(ny, q) for q in range(ny.n))


def test_H_USE_1_the_search_bot_leaves_a_helpers_use_to_the_value_bot():
    """H-USE-1, H-CARD-6: a helper's use is one of the Helpers' ``value_moves``: when the value bot's best
    move is a use, the search bot plays that move without a search; when it is not, the search bot
    searches (and a game without such modules has none)."""
    from catan_nb.analysis.bot_features import value_moves
    from catan_nb.rules.modules import helpers as hp

    g = LADDER.setup_for(["helpers"]).game(5)
    kinds = value_moves(g)
    assert hp.UseCaptain in kinds and hp.BuildRoadWithMendicant in kinds and hp.ExchangeHelper not in kinds
    assert set(kinds) == set(hp.USES.values()) and len(hp.USES) == 10  # H-COMP-1: one use per helper
    assert value_moves(LADDER.setup_for(["base"]).game(5)) == ()
    bots = [ValueBot(seed=q) for q in range(4)]
    settled = searched = 0
    while not g.is_over and g.turn < 120 and (settled < 2 or searched < 2):
        me = g.current_player
        acts = g.legal_actions()
        if g.phase is Phase.MAIN and me == g.active_player and len(acts) > 1 and any(isinstance(a, kinds) for a in acts):
            bot = SearchBot(seed=g.turn, iterations=12)
            best = ValueBot(seed=g.turn).explain(g, top=None)[0].action
            before = g.copy()
            choice = bot.choose(g)
            assert g.log == before.log  # the game itself untouched
            if isinstance(best, kinds):
                assert choice == best and bot.searched == 0
                settled += 1
            else:
                assert bot.searched > 0
                searched += 1
        g.apply(bots[me].choose(g))
    assert settled >= 2 and searched >= 1, (settled, searched)


def _short_of_ore(players: int):
    """A seeded game of ``players`` (the ladder's set-up) at its active seat's first main phase, every
    hand emptied, then ore 2, grain 2, wool 3, brick 1: one ore short of a city (surplus wool and brick)."""
    g = LADDER.setup_for(["five_six" if players > 4 else "base"], players=players).game(7)
    bots = [ValueBot(seed=q) for q in range(players)]
    while not (g.phase is Phase.MAIN and g.current_player == g.active_player):
        g.apply(bots[g.current_player].choose(g))
    empty_hands(g)
    deal(g, g.active_player, ore=2, grain=2, wool=3, brick=1)
    return g


def _refused(g):
    """Every other player declines the open offer (their hands are empty: none could accept)."""
    while g.phase is Phase.TRADE_RESPONSE:
        g.play(DeclineTrade())


@pytest.mark.parametrize("players", [4, 5, 6])
def test_B_TRADE_2_the_search_bot_offers_again_after_a_refusal_with_five_or_six_players(players):
    """B-TRADE-2, B-TRADE-5, X56-SBP-3: one ore short of a city, the search bot offers its most plentiful
    surplus card (wool) for the ore.  Refused by all, with five or six players (``offers_a_turn`` 2:
    the extension's bot features) it offers its other surplus card (brick) once more, then searches;
    with four players it searches at once."""
    from catan_nb.analysis.bot_features import offers_a_turn

    g = _short_of_ore(players)
    assert offers_a_turn(g) == (2 if players > 4 else 1)
    ore, wool, brick = (g.good_index(k) for k in ("ore", "wool", "brick"))
    bot = SearchBot(seed=3, iterations=12)
    first = bot.choose(g)
    assert isinstance(first, OfferTrade) and first.get[ore] == 1 and sum(first.get) == 1
    assert first.give[wool] == 1 and sum(first.give) == 1, first
    g.play(first)
    _refused(g)
    again = bot.choose(g)
    if players == 4:
        assert not isinstance(again, OfferTrade) and bot.searched > 0
        return
    assert isinstance(again, OfferTrade) and again.get == first.get, again
    assert again.give[brick] == 1 and sum(again.give) == 1, again  # another card, not the refused one
    g.play(again)
    _refused(g)
    third = bot.choose(g)
    assert not isinstance(third, OfferTrade) and bot.searched > 0  # two offers a turn, no more


def test_B_TRADE_5_a_further_offer_gives_two_cards_when_no_other_surplus_is_left():
    """B-TRADE-5: the further offer never asks for the card it gives; with no surplus card left that was
    not offered, it gives two for the missing one (the most plentiful first), and none without two."""
    from catan_nb.analysis.value_bot import _one_for_one

    g = _short_of_ore(5)
    ore, wool, brick, grain = (g.good_index(k) for k in ("ore", "wool", "brick", "grain"))
    city = g.cost("city")[:5]
    hand = [0] * 5
    hand[ore], hand[grain], hand[wool], hand[brick] = 2, 2, 3, 1
    assert _one_for_one(g, hand, city).give[wool] == 1  # the first offer: the most plentiful surplus card
    other = _one_for_one(g, hand, city, frozenset({wool}))
    assert other.give[brick] == 1 and sum(other.give) == 1 and other.get[ore] == 1
    two = _one_for_one(g, hand, city, frozenset({wool, brick}))
    assert two.give[wool] == 2 and sum(two.give) == 2 and two.get[ore] == 1 and sum(two.get) == 1
    hand[wool], hand[brick] = 1, 0
    assert _one_for_one(g, hand, city, frozenset({wool})) is None  # one surplus card, offered already
    hand[ore] = 1
    assert _one_for_one(g, hand, city, frozenset()) is None  # two ore short: no one-card offer


@pytest.mark.parametrize("horizon", ["turn", "round"])
def test_X56_SBP_1_search_playouts_stop_when_the_bot_ends_its_turn(monkeypatch, horizon):
    """With horizon="turn" a playout ends with the bot's EndTurn: the others' Special Building Phase
    (X56-SBP-1) that follows it is not played by the fast policy (whose moves there are random);
    with horizon="round" it is."""
    import catan_nb.analysis.search_bot as sb
    from catan_nb.rules.modules.five_six import SPECIAL_BUILD

    monkeypatch.setenv("CATAN_NB_FAST", "0")
    seen = []
    policy = sb.rollout_policy

    def spy(game, rng):
        seen.append(game.phase)
        return policy(game, rng)

    monkeypatch.setattr(sb, "rollout_policy", spy)
    game = Game(Board.random(seed=4, layout="five_six"), players=5, seed=4)
    bots = [SearchBot(seed=1, iterations=8, horizon=horizon)] + [ValueBot(seed=p) for p in range(1, 5)]
    play_game(game, bots, max_turns=26)
    assert (SPECIAL_BUILD in seen) == (horizon == "round")


@pytest.mark.parametrize("players", [4, 5, 6])
def test_B_SETUP_17_the_search_bot_founds_with_the_weights_the_modules_give(players):
    """B-SETUP-17, X56-BOARD-2: the search bot places its founding settlement by the value bot's judgement,
    with the weights the game's modules give the founding (``founding_weights``).  With five or six
    players (the extension's bot features: ``diversity`` 40) it prefers a spot on three resources
    to a slightly richer one on two, which the value bot's own weights choose."""
    from catan_nb.analysis.bot_features import founding_weights
    from catan_nb.analysis.value_bot import features

    board = Board.random(seed=1, layout="five_six" if players > 4 else "base")
    g = Game(board, players=players, seed=1)
    extra = founding_weights(g)
    assert extra == ({} if players == 4 else {"diversity": 40.0})
    bot = SearchBot(seed=3, iterations=8)
    chosen = bot.choose(g)
    assert bot.searched == 0  # the founding is not searched
    assert chosen == ValueBot(random.Random(3), {**bot.weights, **extra}).choose(g)
    plain = ValueBot(random.Random(3), bot.weights).choose(g)
    if players == 4:
        assert chosen == plain
        return
    kinds = []
    for a in (chosen, plain):
        c = g.copy()
        c.apply(a)
        kinds.append(features(c, 0)["diversity"])
    assert chosen != plain and kinds == [3.0, 2.0], (chosen, plain, kinds)
    g.play(chosen)  # the road that follows is judged the same way
    assert SearchBot(seed=3, iterations=8).choose(g) == ValueBot(random.Random(3), {**bot.weights, **extra}).choose(g)


# ------------------------------------------------------------------------------ the value bot's memos
def _fresh_features(game, player):
    """:func:`features` of a copy of ``game`` with every memo the value bot reads emptied first."""
    from catan_nb.analysis import value_bot
    from catan_nb.analysis.bot_features import cities_knights as ck_features
    from catan_nb.rules import longest_road

    value_bot._forget()
    ck_features._MEMO.clear()
    longest_road._MEMO.clear()
    longest_road._FROM_MEMO.clear()
    return value_bot.features(game.copy(), player)


@pytest.mark.parametrize("name", list(LADDER.MODULE_SETUPS))
def test_value_bot_memos_are_recomputed_after_every_change(name):
    """The value bot's memos (the production sums, reach and road lengths by the pieces on the board, the
    last position's pieces per seat, the plan of a game kind, C&K's features by all they read) never
    give a stale value: along a seeded game of value bots (whose decisions fill them with the sibling
    positions of every decision), the features of a position after a random action, and of that same
    game object after one more action and after cards dealt to a seat, equal those computed from
    scratch (every memo emptied) on a copy, for every seat."""
    from catan_nb.analysis.value_bot import features

    setup = LADDER.setup_for([name])
    g = setup.game(7)
    bots = [ValueBot(seed=70 + q) for q in range(g.n)]
    rng = random.Random(7)
    checked = decisions = 0
    while not g.is_over and checked < 10:
        g.apply(bots[g.current_player].choose(g))  # fills the memos with this decision's positions
        decisions += 1
        if g.turn < 2 and decisions % 4:  # the founding: a few of its positions only
            continue
        c = g.copy()
        acts = c.legal_actions()
        if c.is_over or len(acts) < 2:
            continue
        c.apply(rng.choice(acts))
        for step in range(3):
            for p in range(c.n):
                assert features(c, p) == _fresh_features(c, p), (name, checked, step, p)
            if c.is_over:
                break
            if step == 0:  # the same object, one more action: what it cached is stale now
                nxt = c.legal_actions()
                c.apply(rng.choice(nxt))
            else:  # a hand changed outside any action (a teaching position)
                c.hands[rng.randrange(c.n)][rng.randrange(5)] += 1
        checked += 1
    assert checked == 10, checked


def test_CK_BAR_1_the_cities_knights_features_memo_follows_every_change():
    """CK-BAR-1..3, CK-IMP-3..5: the Cities & Knights features (memoised on all they read) equal their
    computation from scratch after every action of seeded games of random play on copies (knights
    hired, activated, moved and promoted, improvements, progress cards, the robber, the barbarians),
    for every seat, with every memo warm from the positions before."""
    from catan_nb.analysis import RandomBot
    from catan_nb.analysis.bot_features import Context, features_for
    from catan_nb.analysis.bot_features import cities_knights as ckf

    kinds = set()
    for seed in range(2):
        g = Game(Board.random(seed=seed), seed=seed, rules=Rules(modules=("cities_knights",)))
        m = next(x for x in features_for(g) if x.module == "cities_knights")
        bots = [RandomBot(seed=seed * 4 + q) for q in range(g.n)]
        rng = random.Random(seed)
        while not g.is_over and len(g.log) < 400:
            a = bots[g.current_player].choose(g)
            g.apply(a)
            kinds.add(type(a).__name__)
            grain = g.good_index("grain")
            for p in range(g.n):
                ctx = Context(p)
                ctx.prod = [rng.choice((0.0, 0.05, 0.3)) for _ in range(5)]
                assert m.features(g, p, ctx) == m._features(g, p, ctx), (seed, len(g.log), p, a)
                c = g.copy()  # the same position but the grain in hand (CK-KN-4: a knight activated in time)
                c.hands[p][grain] = 0 if c.hands[p][grain] else 1
                assert m.features(c, p, ctx) == m._features(c, p, ctx), (seed, len(g.log), p, a, "grain")
    assert {"HireKnight", "ActivateKnight", "ImproveCity"} <= kinds, kinds

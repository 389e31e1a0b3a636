"""Goods are a registry (issue 28, item 1): a module's new good works in actions, saves and views,
and its ``GoodRules`` keep it out of bank trades, steals, discards or Monopoly where it says so.

The bug this fixes: a module declaring a new good ("fish") played bot games whose saves failed to
load, because ``MaritimeTrade.give/get`` and ``MoveRobber.stolen`` were typed ``Resource |
Commodity`` and the decoder refused "fish".
"""

from __future__ import annotations

import random

import pytest
from helpers import deal

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, play_game
from catan_nb.constants import Commodity, Good, GoodRules, Resource, Terrain, good_rules, register_good
from catan_nb.errors import CatanError, IllegalActionError
from catan_nb.examples.shearing import NAME as SHEARING
from catan_nb.examples.shearing import Textile
from catan_nb.rules import (
    Discard,
    MaritimeTrade,
    MoveRobber,
    Phase,
    PlayMonopoly,
    RollDice,
    Rules,
    action_from_json,
    action_to_json,
)
from catan_nb.rules.modules import MODULES, Module, register


class Catch(Good):
    """Test goods, one per combination of rules the tests need."""

    FISH = 0  # the defaults: like a commodity
    PEARL = 1  # never stolen
    SALT = 2  # never traded with the bank
    AMBER = 3  # never discarded
    SPICE = 4  # named by Monopoly


RULES = {
    Catch.PEARL: GoodRules(stolen=False),
    Catch.SALT: GoodRules(bank_trade=False),
    Catch.AMBER: GoodRules(discarded=False),
    Catch.SPICE: GoodRules(monopolised=True),
}


@register
class Fishermen(Module):
    """Fish and the other test goods come from fields, beside the grain; the bank holds 20 of each."""

    name = "test_fishermen"
    goods = tuple(Catch)
    good_rules = RULES

    def components(self, game, comps: dict) -> None:
        for g in Catch:
            comps["bank"][g] = 20

    def yields(self, game, table: dict) -> None:
        extra = tuple((game.good_index(g), 1) for g in Catch)
        for kind in ("settlement", "city"):
            table[(kind, Terrain.FIELDS)] = table[(kind, Terrain.FIELDS)] + extra


def fish_game(seed: int = 1, **kw) -> Game:
    return Game(Board.beginner(), seed=seed, start="beginner", rules=Rules(modules=("test_fishermen",)), **kw)


def cleared(game: Game) -> Game:
    """Every hand back to the bank."""
    for h in game.hands:
        for i, k in enumerate(h):
            game.bank[i] += k
            h[i] = 0
    return game


def at_robber(game: Game) -> Game:
    """Roll a 7 with hands too small to discard: the active seat moves the robber."""
    cleared(game)
    game.play(RollDice((3, 4)))
    assert game.phase is Phase.MOVE_ROBBER
    return game


# ---------------------------------------------------------------- the bug: saves with a new good
def test_a_new_good_is_saved_loaded_and_replayed_identically():
    """Bot games with module goods in trades, steals and discards save, load and replay identically."""
    kinds = set()
    for seed in range(8):
        g = play_game(fish_game(seed), [RandomBot(seed * 10 + p) for p in range(4)], max_turns=400)
        loaded = Game.from_json(g.to_json())
        assert loaded.state() == g.state() and loaded.log == g.log
        for a in g.log:
            if isinstance(a, MaritimeTrade) and isinstance(a.give, Catch) | isinstance(a.get, Catch):
                kinds.add("bank trade")
            if isinstance(a, MoveRobber) and isinstance(a.stolen, Catch):
                kinds.add("steal")
            if isinstance(a, Discard) and any(a.cards[5:]):
                kinds.add("discard")
    assert kinds == {"bank trade", "steal", "discard"}


def test_the_example_modules_new_good_plays_complete_games_that_save_and_replay():
    """The shipped example (catan_nb.examples.shearing): yarn traded with the bank, games to the end."""
    traded = 0
    for seed in range(3):
        g = Game(Board.random(seed=seed), seed=seed, rules=Rules(modules=(SHEARING,)))
        play_game(g, [RandomBot(seed + p) for p in range(4)])
        assert g.is_over
        assert Game.from_json(g.to_json()).state() == g.state() == g.replay().state()
        traded += sum(isinstance(a, MaritimeTrade) and Textile.YARN in (a.give, a.get) for a in g.log)
        assert not any(getattr(a, "stolen", None) is Textile.YARN for a in g.log)  # yarn is never stolen
    assert traded


def test_fields_typed_as_a_good_accept_any_registered_good():
    assert Good.parse("fish") is Catch.FISH and Good.parse("Cloth") is Commodity.CLOTH
    assert MaritimeTrade("fish", "ore") == MaritimeTrade(Catch.FISH, Resource.ORE)  # names at the edges
    for a in (MaritimeTrade(Catch.FISH, Commodity.COIN), MoveRobber(3, 1, Catch.PEARL), PlayMonopoly(Catch.SPICE)):
        assert action_from_json(action_to_json(a)) == a
    assert isinstance(Catch.FISH, Good) and not isinstance(Catch.FISH, Resource)
    with pytest.raises(ValueError, match="unknown good 'caviar'"):
        Good.parse("caviar")
    g = fish_game()
    assert g.goods[5:] == tuple(Catch) and g.view(0).bank[Catch.FISH] == 20


def test_goods_are_registered_once_by_name_with_one_set_of_rules():
    class Other(Good):
        FISH = 0  # a second good named "fish"

    with pytest.raises(ValueError, match="registered already"):
        register_good(Other.FISH)
    with pytest.raises(ValueError, match="registered with"):
        register_good(Catch.PEARL, GoodRules())
    assert register_good(Catch.PEARL, GoodRules(stolen=False)) is Catch.PEARL  # again, the same: harmless
    with pytest.raises(TypeError, match="derived from catan_nb.constants.Good"):
        register_good("fish")

    class NotAGood(Module):
        name = "test_not_a_good"
        goods = ("caviar",)

    with pytest.raises(TypeError, match="derived from catan_nb.constants.Good"):
        register(NotAGood)

    class StrayRules(Module):
        name = "test_stray_rules"
        good_rules = {Catch.FISH: GoodRules()}

    with pytest.raises(TypeError, match="not in its goods"):
        register(StrayRules)
    assert "test_not_a_good" not in MODULES and "test_stray_rules" not in MODULES


def test_the_defaults_are_those_of_a_commodity_and_resources_apply_every_rule():
    assert good_rules(Catch.FISH) == good_rules(Commodity.CLOTH) == GoodRules(True, True, True, False)
    assert all(good_rules(r) == GoodRules(True, True, True, True) for r in Resource)
    g = fish_game()
    assert g.good_rules[g.good_index(Catch.PEARL)].stolen is False


# ---------------------------------------------------------------- the rules each flag switches
def test_B_TRADE_6_a_good_outside_bank_trade_is_never_listed_nor_accepted():
    g = cleared(fish_game())
    g.play(RollDice((2, 3)))
    p = g.current_player
    deal(g, p, ore=4)
    g.deal(p, {Catch.SALT: 4, Catch.FISH: 4})
    trades = [a for a in g.legal_actions() if isinstance(a, MaritimeTrade)]
    assert MaritimeTrade(Catch.FISH, Resource.ORE) in trades and MaritimeTrade(Resource.ORE, Catch.FISH) in trades
    assert not [a for a in trades if Catch.SALT in (a.give, a.get)]
    for bad in (MaritimeTrade(Catch.SALT, Resource.ORE), MaritimeTrade(Resource.ORE, Catch.SALT)):
        before = g.state()
        with pytest.raises(IllegalActionError, match="salt is not traded with the bank") as err:
            g.play(bad)
        assert err.value.rule == "B-TRADE-6" and g.state() == before
    g.play(MaritimeTrade(Catch.FISH, Resource.GRAIN))
    assert g.hands[p][g.good_index(Catch.FISH)] == 0


def robbery(seed: int) -> tuple[Game, int, int]:
    """At the robber, with a victim holding 5 pearls (never stolen): the game, the hex, the victim."""
    g = at_robber(fish_game(seed))
    p = g.current_player
    hx = next(h for h in g.robber_targets() if any(q != p for q in g.hex_players(h)))
    victim = next(q for q in g.hex_players(hx) if q != p)
    g.deal(victim, {Catch.PEARL: 5})
    return g, hx, victim


def test_B_ROB_7_a_good_never_stolen_is_never_drawn_and_B_ROB_8_a_hand_of_it_cannot_be_robbed():
    g, hx, victim = robbery(1)
    assert victim not in g.robber_victims(hx) and MoveRobber(hx, victim) not in g.legal_actions()
    with pytest.raises(IllegalActionError, match="no card that may be stolen") as err:
        g.play(MoveRobber(hx, victim))
    assert err.value.rule == "B-ROB-8"
    g.deal(victim, {Resource.ORE: 1})
    assert MoveRobber(hx, victim) in g.legal_actions()
    before = g.state()
    with pytest.raises(IllegalActionError, match="pearl is never stolen") as err:
        g.play(MoveRobber(hx, victim, Catch.PEARL))  # a recorded outcome that cannot be
    assert err.value.rule == "B-ROB-7" and g.state() == before
    for seed in range(12):  # whatever the draw, the ore is taken and the pearls stay
        g, hx, victim = robbery(seed)
        g.deal(victim, {Resource.ORE: 1})
        g.play(MoveRobber(hx, victim))
        assert g.log[-1].stolen is Resource.ORE and g.hands[victim][g.good_index(Catch.PEARL)] == 5


def test_B_ROB_2_a_good_never_discarded_does_not_count_toward_the_hand_limit():
    g = cleared(fish_game())
    p = g.current_player
    g.deal(p, {Catch.AMBER: 10, Resource.ORE: 4, Catch.FISH: 4})  # 8 cards that count: 4 owed
    g.play(RollDice((3, 4)))
    assert g.discards_owed() == {p: 4}
    assert not [a for a in g.legal_actions() if a.cards[g.good_index(Catch.AMBER)]]
    amber = tuple(int(i == g.good_index(Catch.AMBER)) for i in range(g.n_goods))
    with pytest.raises(IllegalActionError, match="amber is never discarded") as err:
        g.play(Discard(amber))
    assert err.value.rule == "B-ROB-2"
    fish = tuple(4 * int(i == g.good_index(Catch.FISH)) for i in range(g.n_goods))
    g.play(Discard(fish))  # goods that are discarded: the default of a module's good
    assert g.phase is Phase.MOVE_ROBBER
    h = cleared(fish_game())
    h.deal(h.current_player, {Catch.AMBER: 12})  # only cards that never count: nothing owed
    h.play(RollDice((3, 4)))
    assert h.discards_owed() == {} and h.phase is Phase.MOVE_ROBBER


def test_B_DEV_7_monopoly_names_resources_and_goods_whose_rules_say_so():
    g = cleared(fish_game())
    p = g.current_player
    g.dev[p][3] = 1  # a Monopoly card, bought on an earlier turn
    g.deck[3] -= 1
    g.deal((p + 1) % g.n, {Catch.SPICE: 2, Catch.FISH: 3})
    named = {a.resource for a in g.legal_actions() if isinstance(a, PlayMonopoly)}
    assert named == {*Resource, Catch.SPICE}
    before = g.state()
    with pytest.raises(IllegalActionError, match="Monopoly names one of") as err:
        g.play(PlayMonopoly(Catch.FISH))
    assert err.value.rule == "B-DEV-7" and g.state() == before
    g.play(PlayMonopoly(Catch.SPICE))
    assert g.hands[p][g.good_index(Catch.SPICE)] == 2


# ---------------------------------------------------------------- chance and module state
def test_draw_index_on_an_empty_pool_raises_a_clear_error_and_draws_nothing():
    g = fish_game()
    before = g.state()
    with pytest.raises(CatanError, match="nothing to draw from"):
        g.draw_index([0, 0, 0])
    assert g.state() == before  # the generator is untouched
    assert g.draw_index([0, 0, 0], forced=1) == 1  # a recorded outcome still draws once
    assert g.draw_index([0, 2, 0]) == 1


def test_ext_holds_json_data_an_int_key_is_refused_by_name():
    g = fish_game()
    g.ext["test_fishermen"] = {"boats": {3: "seat 3"}}
    with pytest.raises(CatanError, match=r"ext\['test_fishermen'\]\['boats'\]: key 3 is an int"):
        g.to_json()
    g.ext["test_fishermen"] = {"boats": {"3": "seat 3"}, "nets": [1, (2, None)]}
    assert g.to_json() and g.state()["ext"]["test_fishermen"]["nets"] == [1, (2, None)]
    g.ext["test_fishermen"] = {"boats": {"3"}}
    with pytest.raises(CatanError, match="is a set; ext holds plain data"):
        g.state()


@pytest.mark.parametrize("seed, modules, turns", [(0, ("test_fishermen",), 250),
                                                  (1, ("test_fishermen", "cities_knights"), 80)])
def test_random_games_with_module_goods_keep_invariants(seed, modules, turns):
    """With Cities & Knights too: its steals, discards, Merchant Fleet and monopolies meet the flags."""
    from invariants import Checker

    rng = random.Random(seed)
    g = Game(Board.random(seed=seed), seed=seed, rules=Rules(modules=modules))
    bots = [RandomBot(rng.random(), offers=True) for _ in range(g.n)]
    check = Checker(g)
    while not g.is_over and g.turn < turns:
        g.play(bots[g.current_player].choose(g))
        check()
    assert g.replay().state() == g.state()

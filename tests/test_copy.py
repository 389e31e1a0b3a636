"""``Game.copy()`` and ``DiceGame.copy()`` share no mutable state with their source (issue 9).

Two checks on positions of every variant and rule module: no mutable object (list, dict, set,
bytearray, Random) reachable from the copy is reachable from the source, except the immutable parts
a copy may share; and mutating every mutable part of the copy, one at a time, leaves the source's
``state()`` and ``to_json()`` as they were.  Playing on a copy (buying the last development
cards, stealing, rolling) never shows in the source.
"""

from __future__ import annotations

import random
from dataclasses import replace
from random import Random

import pytest

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot
from catan_nb.dicegame import DiceGame
from catan_nb.rules import BuyDevelopmentCard, Rules

MUTABLE = (list, dict, set, bytearray, Random)


def mutable_parts(obj, skip: frozenset[str] = frozenset()):
    """Every mutable container reachable from ``obj.__dict__`` (but the attributes in ``skip``), by id."""
    out: dict[int, tuple[str, object]] = {}
    stack = [(k, v) for k, v in vars(obj).items() if k not in skip]
    seen: set[int] = set()
    while stack:
        where, v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, MUTABLE):
            out[id(v)] = (where, v)
        if isinstance(v, dict):
            stack.extend((f"{where}[{k!r}]", x) for k, x in v.items())
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend((f"{where}[{i}]", x) for i, x in enumerate(v))
    return out


def games() -> list[Game]:
    out = []
    variants = [
        dict(players=4, rules=Rules()),
        dict(players=3, rules=Rules(combined_trade_build=True)),
        dict(players=5, rules=Rules()),
        dict(players=4, rules=Rules(modules=("friends",))),
        dict(players=4, rules=Rules(modules=("helpers",))),
        dict(players=6, rules=Rules(modules=("friends", "helpers"))),
        dict(players=4, rules=Rules(modules=("cities_knights",))),  # its own copy_state (issue 26)
    ]
    for i, v in enumerate(variants):
        board = Board.random(seed=i, layout="five_six" if v["players"] > 4 else "base")
        g = Game(board, seed=i, **v)
        bots = [RandomBot(p, offers=True) for p in range(g.n)]
        stop = random.Random(i).randrange(150, 600)
        while not g.is_over and len(g.log) < stop:
            g.apply(bots[g.current_player].choose(g))
        out.append(g)
    return out


GAMES = games()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "+".join(g.rules.modules) or f"base{g.n}")
def test_copy_shares_no_mutable_object(game):
    c = game.copy()
    shared = Game.SHARED | Game.WIRED
    mine = mutable_parts(game, shared)
    theirs = mutable_parts(c, shared)
    both = set(mine) & set(theirs)
    assert not both, [mine[i][0] for i in both][:10]
    assert c.state() == game.state() and c.to_json() == game.to_json()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "+".join(g.rules.modules) or f"base{g.n}")
def test_mutating_every_part_of_a_copy_leaves_the_source_alone(game):
    before_state, before_json = game.state(), game.to_json()
    c = game.copy()
    for where, part in mutable_parts(c, Game.SHARED | Game.WIRED).values():
        if isinstance(part, list):
            part.append(-99)
        elif isinstance(part, dict):
            part["__mutated__"] = 1
        elif isinstance(part, set):
            part.add(-99)
        elif isinstance(part, Random):
            part.random()
    assert game.state() == before_state
    assert game.to_json() == before_json


def test_buying_on_a_copy_does_not_touch_the_source_deck():
    """The issue's case: buying a card on a copy took it out of the original's deck too."""
    g = Game(Board.beginner(), seed=3, start="beginner")
    g.play(__import__("catan_nb.rules", fromlist=["RollDice"]).RollDice(dice=(3, 4)))
    while g.phase.value != "main":
        g.apply(g.legal_actions()[0])
    g.deal(g.current_player, {"ore": 5, "wool": 5, "grain": 5})
    deck = list(g.deck)
    c = g.copy()
    for _ in range(5):
        c.play(BuyDevelopmentCard())
    assert g.deck == deck and sum(c.deck) == sum(deck) - 5


def test_copies_play_on_independently():
    g = GAMES[3]
    c = g.copy()
    d = g.copy()
    bots = [RandomBot(7 + p) for p in range(g.n)]
    while not c.is_over and len(c.log) < len(g.log) + 200:
        c.apply(bots[c.current_player].choose(c))
    assert d.state() == g.state()


def test_dice_game_copy_is_independent():
    g = DiceGame(players=3, variant="plus", seed=5)
    rng = random.Random(1)
    for _ in range(40):
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    c = g.copy()
    assert not set(mutable_parts(g, frozenset({"sheet"}))) & set(mutable_parts(c, frozenset({"sheet"})))
    before = g.state()
    for _where, part in mutable_parts(c, frozenset({"sheet"})).values():
        if isinstance(part, list):
            part.append(-1)
        elif isinstance(part, dict):
            part["x"] = 1
    assert g.state() == before


@pytest.mark.parametrize("modules", [(), ("friends",), ("helpers",)])
def test_a_determinisation_depends_only_on_the_view_and_the_seed(modules):
    """Game.determinized deals from canonical public pools: two games that one seat cannot tell
    apart (same view) give the same determinisation for the same seed (what ISMCTS relies on)."""
    from catan_nb.analysis import WeightedBot

    g = Game(Board.random(seed=4), seed=4, rules=Rules(modules=modules))
    bots = [WeightedBot(seed=q) for q in range(4)]
    checked = 0
    while not g.is_over and g.turn < 120:
        g.apply(bots[g.current_player].choose(g))
        if g.turn % 7 == 0:
            for me in range(4):
                twin = g.determinized(me, seed=1000 + checked)  # other hidden cards, same view
                # (the Helpers' legal Merchant moves name who holds a resource: the list itself is not compared)
                assert replace(twin.view(me), legal_actions=()) == replace(g.view(me), legal_actions=())
                assert twin.determinized(me, seed=7).state() == g.determinized(me, seed=7).state()
                checked += 1
    assert checked > 20


def test_copies_draw_what_their_source_would_have_drawn():
    """Copy on draw: a copy shares its source's generator state until one of them draws; each then
    draws exactly what a game in that state draws, in any order, through copies of copies."""
    g = Game(Board.random(seed=5), seed=5)
    bots = [RandomBot(p) for p in range(g.n)]
    while len(g.log) < 120:
        g.apply(bots[g.current_player].choose(g))
    reference = g.to_json()  # to_json replays: its own generator, not the source's

    def future(game, k=40):
        rb = [RandomBot(50 + p) for p in range(game.n)]
        for _ in range(k):
            if game.is_over:
                break
            game.apply(rb[game.current_player].choose(game))
        return game.state()

    expected = future(Game.from_json(reference))
    a = g.copy()
    b = a.copy()  # a copy of a copy, before anyone draws
    c = g.copy()
    assert future(b) == expected  # the grandchild draws first
    assert future(g) == expected  # then the source
    d = c.copy()  # another copy of a copy, made before anyone drew
    assert future(a) == expected and future(c) == expected and future(d) == expected


def test_cities_knights_copy_state_is_copy_plain_along_a_game():
    """Issue 26: C&K's faster ``copy_state`` gives exactly what ``copy_plain`` gives, sharing no list."""
    from catan_nb.analysis import ValueBot
    from catan_nb.rules.modules import copy_plain

    g = Game(Board.random(seed=5), seed=5, rules=Rules(modules=("cities_knights",)))
    ck = next(m for m in g.modules if m.name == "cities_knights")
    bots = [ValueBot(seed=q) for q in range(g.n)]
    while not g.is_over and len(g.log) < 250:
        st = g.ext["cities_knights"]
        c = ck.copy_state(st)
        assert c == copy_plain(st) and list(c) == list(st)
        mine = {id(x) for x in _lists(st)}
        assert not any(id(x) in mine for x in _lists(c))
        g.apply(bots[g.current_player].choose(g))


def test_module_copy_states_are_copy_plain_along_games():
    """Issue 26: the modules' own ``copy_state`` (Seafarers' ships and islands, C&K's state between and
    after attacks, and with an entry it does not know) gives exactly what ``copy_plain`` gives, entries
    in their order, sharing no list with the state copied."""
    from catan_nb.analysis import WeightedBot
    from catan_nb.board import BOARDS_DIR
    from catan_nb.rules.modules import copy_plain

    islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
    cases = [
        (Game(islands, seed=2, rules=Rules.for_board(islands)), "seafarers"),
        (Game(Board.random(seed=8), seed=8, rules=Rules(modules=("cities_knights",))), "cities_knights"),
    ]
    for g, name in cases:
        m = next(x for x in g.modules if x.name == name)
        bots = [WeightedBot(seed=q) for q in range(g.n)]
        seen_keys = set()
        while not g.is_over and g.turn < 60:
            st = g.ext[name]
            for state in (st, {**st, "unknown_entry": [[1, 2], {"a": [3]}]}):  # and an entry it does not know
                c = m.copy_state(state)
                assert c == copy_plain(state) and list(c) == list(state)
                mine = {id(x) for x in _lists(state)}
                assert not any(id(x) in mine for x in _lists(c))
            seen_keys.add(frozenset(st))
            g.apply(bots[g.current_player].choose(g))
        if name == "cities_knights":  # between attacks and after one (CK-BAR-4)
            assert any("last_attack" in k for k in seen_keys) and any("last_attack" not in k for k in seen_keys)


def _lists(v):
    if isinstance(v, (list, dict)):
        yield v
        for x in (v.values() if isinstance(v, dict) else v):
            yield from _lists(x)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "+".join(g.rules.modules) or f"base{g.n}")
def test_deepcopy_and_pickle_give_a_game_that_plays_on_as_its_source(game):
    """``copy.deepcopy`` and ``copy.copy`` are ``Game.copy()`` and a pickled game replays its save: from the same position and
    generator state, the same bots play the same game (no endless recursion through a copy's generator)."""
    import copy
    import pickle

    src = game.copy()  # the source's generator is a copy's, shared until it draws
    twins = [copy.deepcopy(src), pickle.loads(pickle.dumps(src)), copy.deepcopy(src.copy()), copy.copy(src)]
    for g in (src, *twins):
        bots = [RandomBot(100 + p, offers=True) for p in range(g.n)]
        while not g.is_over and len(g.log) < len(game.log) + 150:
            g.apply(bots[g.current_player].choose(g))
    assert {g.digest() for g in twins} == {src.digest()}
    assert game.digest() != src.digest() or game.is_over

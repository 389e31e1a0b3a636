"""Property tests: thousands of random legal games, invariants after every action.

Invariants (tests/invariants.py): 95 resource cards in bank plus hands
(B-COMP-2), 25 development cards (B-COMP-6), piece limits (B-COMP-9), the
distance rule (B-BUILD-7), one robber hex, VP recomputed from scratch (B-END-1),
longest road recomputed from scratch (B-LR-1), a win ends the game (B-END-3),
and save/load/replay to the identical state.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from helpers import with_modules
from invariants import Checker

from catan_nb import Board, Game
from catan_nb.board import BOARDS_DIR
from catan_nb.analysis import RandomBot, WeightedBot
from catan_nb.rules import Rules
from catan_nb.rules.modules.gold_fields import gold_board
from catan_nb.rules.modules.fog import FOG_ISLANDS
from catan_nb.rules.modules.great_catan import GREAT_CATAN
from catan_nb.rules.modules.seafarers import ISLANDS, random_islands

N_CHUNKS = 20
#: Complete games in all: 500 in CI (about 14 of each variant); ``CATAN_NB_PROPERTY_GAMES=2000`` on demand.
GAMES = int(os.environ.get("CATAN_NB_PROPERTY_GAMES", "500"))
GAMES_PER_CHUNK = max(1, GAMES // N_CHUNKS)

VARIANTS = [
    dict(players=4, start="founding", rules=Rules()),
    dict(players=3, start="founding", rules=Rules()),
    dict(players=4, start="beginner", rules=Rules(steal_mandatory=True)),
    dict(players=3, start="beginner", rules=Rules(combined_trade_build=True, knights_only_before_roll=True)),
    dict(players=5, start="founding", rules=Rules()),
    dict(players=6, start="founding", rules=Rules(steal_mandatory=True)),
    dict(players=4, start="founding", rules=Rules(modules=("friends",))),
    dict(players=6, start="founding", rules=Rules(modules=("friends",))),
    dict(players=3, start="founding", rules=Rules(modules=("helpers",))),
    dict(players=5, start="founding", rules=Rules(modules=("friends", "helpers"))),
    dict(players=4, start="beginner", rules=Rules(modules=("helpers",))),
    dict(players=4, start="founding", rules=Rules(modules=("harbour_master",))),
    dict(players=5, start="founding", rules=Rules(modules=("harbour_master", "friends"))),
    dict(players=4, start="founding", rules=Rules(modules=("gold_fields",)), gold=(0, 7, 12)),
    dict(players=3, start="founding", rules=Rules(modules=("gold_fields", "harbour_master")), gold=(4,)),
    dict(players=3, start="founding", rules=Rules(modules=("seafarers",)), board="islands"),
    dict(players=4, start="founding", rules=Rules(modules=("seafarers", "harbour_master", "gold_fields")),
         board="islands", gold=(23,)),
    dict(players=4, start="founding", rules=Rules(modules=("seafarers", "fog")), board="fog_only"),
    dict(players=3, start="founding", rules=Rules(modules=("seafarers", "fog", "treasure")), board="fog"),
    dict(players=3, start="founding", rules=Rules(modules=("great_catan",)), board="great_catan"),
    dict(players=4, start="founding", rules=Rules(modules=("great_catan", "harbour_master")), board="great_catan"),
    dict(players=3, start="founding", rules=Rules(modules=("seafarers", "harbour_master")), board="harbours"),
    dict(players=5, start="founding", rules=Rules(modules=("seafarers",)), board="islands56"),
    dict(players=6, start="founding", rules=Rules(modules=("seafarers", "harbour_master")), board="islands56"),
    # Corsica and New York (SC-*), with the Erie Canal on New York (ERIE-*), 3 to 6 players
    *[dict(players=n, start="founding", rules=Rules(modules=("corsica_new_york",)), board="corsica") for n in (3, 4, 5, 6)],
    *[dict(players=n, start="founding", rules=Rules(modules=("corsica_new_york", "erie_canal")), board="new_york")
      for n in (3, 4, 5, 6)],
    # Cities & Knights to 8 VP: random bots never improve their cities, so the barbarians pillage them
    # about as fast as they are built and 13 (15 with Seafarers) is seldom reached
    dict(players=4, start="founding", rules=Rules(modules=("cities_knights",), vp_to_win=8)),
    dict(players=3, start="founding", rules=Rules(modules=("seafarers", "cities_knights"), vp_to_win=8), board="islands"),
]


def variant_turns(game: Game) -> int:
    """Turns a random game may take: Cities & Knights games of random bots run long (the barbarians
    pillage the cities of players who never defend), so they get more, and may stall."""
    return 6000 if any(m.name == "cities_knights" for m in game.modules) else 2000


def _play_checked_game(seed: int) -> Game:
    rng = random.Random(seed)
    variant = dict(VARIANTS[seed % len(VARIANTS)])
    gold = variant.pop("gold", ())
    scenario = variant.pop("board", None)
    if scenario == "islands":  # the Seafarers scenario (SF-5..11, SF-17)
        board = Board.load(ISLANDS)
    elif scenario == "fog":  # the same with the outer islands in the fog (SF-3) and treasure (SF-4)
        board = Board.load(FOG_ISLANDS)
    elif scenario == "fog_only":  # the fog without the treasure (the board's file names both: SF-13)
        board = with_modules(Board.load(FOG_ISLANDS), "seafarers", "fog")
    elif scenario == "great_catan":  # tokens brought to the small islands by ships (SF-15, SF-16)
        board = Board.load(GREAT_CATAN)
    elif scenario == "harbours":  # the Harbour Master scenario (SF-14)
        board = Board.load(BOARDS_DIR / "seafarers_harbours.json")
    elif scenario in ("corsica", "new_york"):  # SC-13's proposal boards
        board = Board.load(BOARDS_DIR / f"{scenario}.json")
    elif scenario == "islands56":  # a random sea map around the 5-6 island
        board = random_islands(seed, players=variant["players"])
    elif variant["start"] == "beginner":
        board = Board.beginner()
    else:
        board = Board.random(seed=seed, layout="five_six" if variant["players"] > 4 else "base")
    if gold:  # SF-1: some hexes (those with a number) turned into gold fields
        board = gold_board(board, *[h for h in gold if board.hexes[h].token])
    game = Game(board, seed=seed, **variant)
    offers = seed % 5 == 0  # every fifth game also makes one-for-one domestic offers
    bots = [
        (WeightedBot(rng.random()) if (seed + p) % 3 == 0 else RandomBot(rng.random(), offers=offers))
        for p in range(game.n)
    ]
    check = Checker(game)
    check()
    snapshot_at = rng.randrange(50, 400)
    limit = variant_turns(game)
    while not game.is_over and game.turn < limit:
        action = bots[game.current_player].choose(game)
        if seed % 2:
            game.play(action)  # checked path: a legal action must never be rejected
        else:
            game.apply(action)
        check()
        if len(game.log) == snapshot_at:  # mid-game save/load round trip
            loaded = Game.from_json(game.to_json())
            assert loaded.state() == game.state()
    if any(m.name == "cities_knights" for m in game.modules) and not game.is_over:
        return game  # a stalled random game (every piece placed, cities pillaged again and again): checked all along
    assert game.is_over, f"seed {seed}: no winner after {game.turn} turns"
    return game


@pytest.mark.parametrize("chunk", range(N_CHUNKS))
def test_random_games_keep_invariants(chunk):
    """Complete random games of every variant (500 in CI); invariants after every action; replay identical."""
    for i in range(GAMES_PER_CHUNK):
        seed = chunk * GAMES_PER_CHUNK + i
        game = _play_checked_game(seed)
        replayed = game.replay()
        assert replayed.state() == game.state()
        assert replayed.winner == game.winner


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=400))
def test_hypothesis_action_sequences(seed, choices):
    """Shrinkable random action sequences: invariants after each action, save/load round trip."""
    game = Game(Board.random(seed=seed), players=4, seed=seed)
    check = Checker(game)
    for c in choices:
        if game.is_over:
            break
        acts = game.legal_actions(offers=True)
        game.play(acts[c % len(acts)])
        check()
    assert Game.from_json(game.to_json()).state() == game.state()

"""The environments play every rule module (issue 28 item 9).

For each module (and the scenarios' combinations) on a board it plays on: PettingZoo's
``api_test`` and ``seed_test`` and Gymnasium's ``check_env`` pass (a few cycles each, to stay
fast); the action mask is exactly the legal actions (catalogued and open slots) at every
position of a short random game; ``max_cycles`` truncates.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import catan_nb.examples.shearing  # noqa: E402,F401  (registers the example module)
from catan_nb import Board  # noqa: E402
from catan_nb.board import BOARDS_DIR  # noqa: E402
from catan_nb.envs import CatanAECEnv, CatanGymEnv  # noqa: E402
from catan_nb.rules import Rules  # noqa: E402
from catan_nb.rules.modules.fog import FOG_ISLANDS  # noqa: E402
from catan_nb.rules.modules.gold_fields import gold_board  # noqa: E402
from catan_nb.rules.modules.great_catan import GREAT_CATAN  # noqa: E402
from catan_nb.rules.modules.seafarers import ISLANDS  # noqa: E402


def _gold(seed: int) -> Board:
    b = Board.random(seed=seed)
    return gold_board(b, *[h for h in (0, 7, 12) if b.hexes[h].token])


#: (modules, players, board: None for Board.random, a Board, or board(seed)), one per module.
CASES = {
    "friends": (("friends",), 4, None),
    "helpers": (("helpers",), 3, None),
    "harbour_master": (("harbour_master",), 4, None),
    "gold_fields": (("gold_fields",), 4, _gold),
    "five_six": (("five_six",), 5, None),
    "seafarers": (("seafarers",), 3, Board.load(ISLANDS)),
    "fog_treasure": (("seafarers", "fog", "treasure"), 3, Board.load(FOG_ISLANDS)),
    "great_catan": (("great_catan",), 3, Board.load(GREAT_CATAN)),
    "corsica": (("corsica_new_york",), 4, Board.load(BOARDS_DIR / "corsica.json")),
    "erie_canal": (("corsica_new_york", "erie_canal"), 4, Board.load(BOARDS_DIR / "new_york.json")),
    "cities_knights": (("cities_knights",), 4, None),
    "shearing_example": (("shearing_example",), 4, None),
}


def _env(name: str, **kw) -> CatanAECEnv:
    modules, players, board = CASES[name]
    return CatanAECEnv(players=players, board=board, rules=Rules(modules=modules), max_turns=60, **kw)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pettingzoo_api_and_seed_tests_pass_for_every_module(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(_env(name), num_cycles=12)
        seed_test(lambda: _env(name), num_cycles=12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gymnasium_check_env_passes_for_modules(name):
    modules, players, board = CASES[name]
    env = CatanGymEnv(players=players, board=board, rules=Rules(modules=modules), max_turns=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_mask_is_the_legal_actions_at_every_position(name):
    """Every index the mask allows is a legal action (the catalogue's or an open slot's), and
    every legal action has exactly one index; a masked action plays."""
    env = _env(name)
    rng = random.Random(7)
    env.reset(seed=5)
    positions = 0
    for agent in env.agent_iter(300):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        g = env.game
        legal = g.legal_actions(offers=True)
        allowed = np.flatnonzero(obs["action_mask"])
        assert sorted(map(repr, (env.action_at(int(i)) for i in allowed))) == sorted(map(repr, legal)), g.phase
        assert len(allowed) == len(legal)
        assert env.observation_space(agent)["observation"].contains(obs["observation"])
        positions += 1
        env.step(int(allowed[rng.randrange(len(allowed))]))
    assert positions > 100


def test_the_base_game_keeps_its_spaces_and_modules_add_to_them():
    from catan_nb.envs import observation_size

    for players in (4, 5):  # the base game and the 5-6 extension: observe()'s vector, no open slots
        base = CatanAECEnv(players=players)
        assert base.open_slots == 0
        size = observation_size(Board.random(seed=0, layout="five_six" if players > 4 else "base"), players)
        assert base.observation_space("player_0")["observation"].shape == (size,)
    base = CatanAECEnv(players=4)
    ck = _env("cities_knights")
    assert ck.open_slots > 0
    assert ck.action_space("player_0").n > base.action_space("player_0").n
    n_base = base.observation_space("player_0")["observation"].shape[0]
    assert ck.observation_space("player_0")["observation"].shape[0] > n_base
    assert CatanAECEnv.metadata["is_parallelizable"] is False


def test_max_cycles_truncates_the_game():
    env = CatanAECEnv(players=3, max_cycles=5)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter(1000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 15
    with pytest.raises(ValueError, match="max_cycles"):
        CatanAECEnv(max_cycles=0)


@pytest.mark.parametrize("name", ["cities_knights", "fog_treasure", "helpers", "friends", "shearing_example"])
def test_module_observations_hold_no_hidden_information(name):
    """Redrawing what a seat cannot see (``Game.determinized``: opponents' cards, decks, the fog)
    leaves that seat's observation alone, modules' part included."""
    env = _env(name)
    env.max_turns = 1000
    env.reset(seed=2)
    rng = random.Random(2)
    for agent in env.agent_iter(400):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        allowed = np.flatnonzero(obs["action_mask"])
        env.step(int(allowed[rng.randrange(len(allowed))]))
    g = env.game
    for p in range(g.n):
        if p == g.current_player:
            continue  # its open slots name its legal actions, which its own cards decide
        agent = env.possible_agents[p]
        mine = env.observe(agent)["observation"]
        for s in range(3):
            env.game = g.determinized(p, seed=s)
            assert np.array_equal(env.observe(agent)["observation"], mine), (p, s)
        env.game = g

"""The vectorised environment over the compiled simulator (issue 29): the action catalogue,
observations and masks of CatanAECEnv, gymnasium's vector API, autoreset, seeds."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from catan_nb import Board  # noqa: E402
from catan_nb.fast.vector_env import CatanVectorEnv, observation_size  # noqa: E402

pytestmark = pytest.mark.xdist_group("fast")


def _random(rng, masks):
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def _check_against_engine(env, obs, i):
    """Game i's observation and mask are envs.observe's and the engine's legal actions, offers included."""
    envs = pytest.importorskip("catan_nb.envs")
    game = env.game(i)
    p = game.current_player
    assert np.array_equal(np.minimum(envs.observe(game, p), envs.HIGH), obs["observation"][i])
    mask = np.zeros(len(env.action_catalog()), np.int8)
    if not game.is_over:
        index = {a: k for k, a in enumerate(env.action_catalog())}
        for a in game.legal_actions(offers=True):
            mask[index[a]] = 1
    assert np.array_equal(mask, obs["action_mask"][i])


@pytest.mark.parametrize("players", [3, 4, 6])
def test_observations_and_masks_are_the_aec_environments(players):
    envs = pytest.importorskip("catan_nb.envs")
    env = CatanVectorEnv(3, players=players, record=True, max_turns=20)
    layout = "five_six" if players > 4 else "base"
    assert env.action_catalog() == envs.action_catalog(Board.random(seed=0, layout=layout), players)
    assert env.single_observation_space["observation"].shape == (observation_size(Board.random(seed=0, layout=layout),
                                                                                  players),)
    obs, infos = env.reset(seed=players)
    rng = np.random.default_rng(players)
    ended = 0
    for k in range(2500):
        if k % 41 == 0:
            for i in range(env.num_envs):
                if not env._pending[i]:
                    _check_against_engine(env, obs, i)
        assert env.observation_space.contains(obs)
        obs, rewards, terminated, truncated, infos = env.step(_random(rng, obs["action_mask"]))
        ended += int(terminated.sum() + truncated.sum())
    assert ended > 0


def test_a_game_that_ends_starts_again_at_the_next_step():
    env = CatanVectorEnv(4, players=4, max_turns=12)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(1)
    seen = False
    for _ in range(3000):
        obs, rewards, terminated, truncated, infos = env.step(_random(rng, obs["action_mask"]))
        done = terminated | truncated
        if done.any():
            i = int(np.flatnonzero(done)[0])
            obs, rewards, terminated, truncated, infos = env.step(_random(rng, obs["action_mask"]))
            assert infos["player"][i] == -1 and not terminated[i] and rewards[i] == 0
            assert obs["observation"][i][0] == 1.0  # founding_settlement: a new game
            seen = True
            break
    assert seen


def test_wins_reward_the_winner():
    env = CatanVectorEnv(8, players=3)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(20_000):
        obs, rewards, terminated, truncated, infos = env.step(_random(rng, obs["action_mask"]))
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            seats = infos["seat_rewards"][i]
            assert sorted(seats.tolist()) == [-1.0, -1.0, 1.0]
            assert rewards[i] == seats[infos["player"][i]]
            return
    pytest.fail("no game ended")


def test_an_illegal_action_is_refused():
    env = CatanVectorEnv(2, players=4)
    obs, _ = env.reset(seed=1)
    bad = np.array([1, int(obs["action_mask"][1].argmax())])  # RollDice during the founding
    with pytest.raises(ValueError, match="game 0"):
        env.step(bad)


def test_seeded_resets_repeat_and_a_fixed_board_stays():
    a, b = CatanVectorEnv(3, players=4), CatanVectorEnv(3, players=4)
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    rng_a, rng_b = np.random.default_rng(2), np.random.default_rng(2)
    for _ in range(300):
        oa = a.step(_random(rng_a, oa["action_mask"]))[0]
        ob = b.step(_random(rng_b, ob["action_mask"]))[0]
    assert np.array_equal(oa["observation"], ob["observation"])
    board = Board.beginner()
    env = CatanVectorEnv(2, players=4, board=board, record=True)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(200):
        obs = env.step(_random(rng, obs["action_mask"]))[0]
    assert env.board(0) is board
    _check_against_engine(env, obs, 0)


def test_the_record_grows_past_its_first_size(monkeypatch):
    """issue 40: the log doubles when a game fills it (8 rows here), and the whole game replays."""
    import catan_nb.fast.vector_env as vector_env
    from catan_nb.fast import layout as L

    monkeypatch.setattr(vector_env, "LOG_ROWS", 8)
    env = CatanVectorEnv(2, players=4, record=True, max_turns=30)
    assert env._logs.shape[1] == 8
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(150):
        obs, _, terminated, truncated, _ = env.step(_random(rng, obs["action_mask"]))
        assert not (terminated | truncated).any()
    assert env._logs.shape[1] >= 150
    for i in range(2):
        assert env._S[i, L.SC_NLOG] == env._S[i, L.SC_ACTIONS] == 150
        assert len(env.game(i).log) == 150
        _check_against_engine(env, obs, i)

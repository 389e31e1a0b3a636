"""The reinforcement-learning environments (issue 17): PettingZoo's own API test, Gymnasium's
checker, masks equal to the legal actions, seeded resets, and no hidden information in observations."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from catan_nb.constants import RESOURCES, DevCard, HarbourKind  # noqa: E402
from catan_nb.envs import GYM_ID, PHASES, TERRAINS, CatanAECEnv, CatanGymEnv, observe  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 6])
def test_pettingzoo_api_test_passes(players):
    api_test(CatanAECEnv(players=players, max_turns=40, render_mode="plotly"), num_cycles=150)


def test_gymnasium_checker_passes():
    check_env(CatanGymEnv(max_turns=40), skip_render_check=True)


def test_pettingzoo_seed_and_render_tests_pass():
    """PettingZoo's seed test (same seed, same games) and render test over every render mode."""
    seed_test(lambda: CatanAECEnv(players=4, max_turns=30), num_cycles=100)
    render_test(lambda render_mode=None: CatanAECEnv(players=3, max_turns=20, render_mode=render_mode))


def test_render_modes_and_gymnasium_make(capsys):
    import gymnasium

    env = gymnasium.make(GYM_ID, max_turns=30, render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=4)
    text = env.render()
    assert text.splitlines()[0].startswith("turn ") and text.count("seat ") >= 4
    aec = CatanAECEnv(players=4, render_mode="human")
    aec.reset(seed=4)
    assert aec.render() is None and "seat 3 (orange)" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        CatanAECEnv(render_mode="rgb_array")


def _play(env, seed, steps):
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace = []
    for agent in env.agent_iter(steps):
        obs, reward, term, trunc, info = env.last()
        trace.append((agent, obs["observation"].tobytes(), reward))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return trace


def test_masks_are_the_legal_actions_and_resets_are_seeded():
    env = CatanAECEnv(players=4)
    env.reset(seed=5)
    for _ in range(300):
        p = env.game.current_player
        obs = env.observe(env.agent_selection)
        legal = {env.action_index(a) for a in env.game.legal_actions(offers=True)}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
        other = env.possible_agents[(p + 1) % 4]
        assert not env.observe(other)["action_mask"].any()  # only the acting seat has actions
        env.step(min(legal))
    assert _play(CatanAECEnv(players=4), 9, 400) == _play(CatanAECEnv(players=4), 9, 400)
    assert _play(CatanAECEnv(players=4), 9, 400) != _play(CatanAECEnv(players=4), 10, 400)


def test_observations_hold_no_hidden_information():
    """Redrawing what a seat cannot see (opponents' cards, the deck) leaves its observation alone."""
    env = CatanAECEnv(players=4)
    _play(env, 3, 700)
    g = env.game
    for p in range(4):
        mine = observe(g, p)
        for s in range(5):
            other = g.determinized(p, seed=s)
            assert np.array_equal(observe(other, p), mine)


def test_a_whole_game_ends_with_winner_and_losers():
    env = CatanAECEnv(players=3, max_turns=3000, render_mode="plotly")
    trace = _play(env, 2, 200000)
    assert env.game.is_over and not env.agents
    finals = {}
    for agent, _obs, reward in trace:
        if reward:
            finals[agent] = reward
    assert sorted(finals.values()) == [-1.0, -1.0, 1.0]
    env.reset(seed=2)
    assert type(env.render()).__name__ == "Figure"


def test_gym_wrapper_plays_against_bots_and_refuses_bad_actions_gently():
    env = CatanGymEnv(seat=1, max_turns=400)
    obs, _ = env.reset(seed=4)
    rng = random.Random(4)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, term, trunc, info = env.step(bad)
    assert reward == env.illegal_penalty and "illegal_action" in info and not term
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, _ = env.step(int(legal[rng.randrange(len(legal))]))
        total += reward
        done = term or trunc
    assert total in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        CatanGymEnv(seat=7)


N_RES = len(RESOURCES)


def _reference_observe(game, player: int) -> np.ndarray:
    """The observation as first written: from ``game.view(player)``, one value at a time."""
    v = game.view(player)
    n = game.n
    t = game.topology
    rel = [(q - player) % n for q in range(n)]
    parts: list[float] = []
    parts += [float(v.phase.value == ph) for ph in PHASES]
    parts += [float(rel[v.current_player] == i) for i in range(n)]
    parts += [float(rel[v.active_player] == i) for i in range(n)]
    parts += [float(v.hand[r]) for r in RESOURCES]
    parts += [float(v.dev_cards[c]) for c in DevCard]
    parts += [float(k) for k in game.dev_new[player]]  # own cards bought this turn (B-TURN-5)
    order = [(player + i) % n for i in range(n)]
    left = [game.pieces_left(q) for q in order]
    for i, q in enumerate(order):
        parts += [float(v.card_counts[q]), float(v.dev_counts[q]), float(v.played_knights[q]),
                  float(v.visible_vp[q]), float(v.road_lengths[q]), float(v.longest_road == q),
                  float(v.largest_army == q), float(left[i]["road"]), float(left[i]["settlement"]),
                  float(left[i]["city"])]
    parts += [float(v.bank[r]) for r in RESOURCES]
    parts.append(float(v.deck_size))
    for hx in range(t.n_hexes):
        terrain = game.hex_terrain[hx]
        tok = game.hex_token[hx]
        parts.append(float(v.robber == hx))
        parts += [float(terrain is x) for x in TERRAINS]
        parts += [float(tok), float(6 - abs(7 - tok) if tok else 0)]
    for node in range(t.n_nodes):
        b = v.buildings.get(node)
        cell = [0.0] * (2 * n)
        if b is not None:
            cell[2 * rel[b[0]] + (b[1].value - 1)] = 1.0
        parts += cell
        hb = t.node_harbour[node]
        parts += [float(hb is code) for code in (*RESOURCES, HarbourKind.GENERIC)]
    for e in range(t.n_edges):
        o = v.roads.get(e)
        parts += [float(o is not None and rel[o] == i) for i in range(n)]
    offer = v.trade_offer or ((0,) * N_RES, (0,) * N_RES)
    parts += [float(x) for x in offer[0][:N_RES]] + [float(x) for x in offer[1][:N_RES]]
    accepted = set(game.trade_partners)
    parts += [float(order[i] in accepted) for i in range(n)]
    parts.append(float(game.discards_owed().get(player, 0)))
    return np.asarray(parts, dtype=np.float32)



@pytest.mark.parametrize("players", [3, 4, 6])
def test_observation_equals_the_reference_built_from_the_view(players):
    """The vectorised observation equals, value for value, the first one built from ``game.view``,
    for every seat after every action of random games (offers, discards and the robber included)."""
    env = CatanAECEnv(players=players, max_turns=150)
    rng = random.Random(players)
    checked = 0
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter(600):
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            g = env.game
            for p in range(players):
                assert np.array_equal(observe(g, p), _reference_observe(g, p)), (seed, p, g.phase)
                checked += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert checked > 3000


# ---------------------------------------------------------------- issue 28, items 7 and 8
def _first_obs(env) -> bytes:
    return env.observe(env.agent_selection)["observation"].tobytes() + bytes(str(env.game.seed), "ascii")


def test_an_unseeded_reset_after_a_seeded_one_plays_a_new_game_drawn_from_that_seed():
    """Gymnasium's convention: ``reset()`` without a seed draws the next game from the generator the
    last seeded reset seeded; it never replays game seed 0."""
    env = CatanAECEnv(players=4)
    env.reset(seed=123)
    first = env.game.seed
    env.reset()
    second = env.game.seed
    env.reset()
    third = env.game.seed
    assert first == 123 and len({first, second, third, 0}) == 4
    again = _reset_twice(123)
    assert again.game.seed == second and _first_obs(again) == _first_obs(_reset_twice(123))  # reproducible
    gym = CatanGymEnv(max_turns=30)
    gym.reset(seed=123)
    seeds = [gym.aec.game.seed]
    for _ in range(2):
        gym.reset()
        seeds.append(gym.aec.game.seed)
    assert seeds[0] == 123 and len(set(seeds)) == 3 and 0 not in seeds[1:]
    gym.reset(seed=123)
    gym.reset()
    assert gym.aec.game.seed == seeds[1]  # reproducible from the last seeded reset


def _reset_twice(seed: int) -> CatanAECEnv:
    env = CatanAECEnv(players=4)
    env.reset(seed=seed)
    env.reset()
    return env


def test_a_sync_vector_env_seeded_11_and_22_plays_new_games_after_the_first():
    import gymnasium

    envs = gymnasium.vector.SyncVectorEnv([lambda: CatanGymEnv(max_turns=2) for _ in range(2)])
    obs, _ = envs.reset(seed=[11, 22])
    seeds = [[e.aec.game.seed] for e in envs.envs]
    rng = np.random.default_rng(0)
    for _ in range(400):
        if min(len(s) for s in seeds) >= 3:
            break
        legal = [np.flatnonzero(m) for m in obs["action_mask"]]  # empty on the step that resets
        obs, *_ = envs.step([int(rng.choice(a)) if len(a) else 0 for a in legal])
        for i, e in enumerate(envs.envs):
            if e.aec.game.seed != seeds[i][-1]:
                seeds[i].append(e.aec.game.seed)
    assert [s[0] for s in seeds] == [11, 22] and min(len(s) for s in seeds) >= 3
    assert all(len(set(s)) == len(s) and 0 not in s[1:] for s in seeds), seeds
    envs.close()


@pytest.mark.parametrize("bad", [2.7, "3", None, True, np.float32(1.0), [1], np.array([3])])
def test_only_integers_are_actions(bad):
    """``step(2.7)`` is not action 2 and ``step("3")`` not action 3: a clear TypeError, nothing played."""
    env = CatanAECEnv(players=3)
    env.reset(seed=1)
    before = env.game.state()
    with pytest.raises(TypeError, match="an action is an integer index into the action space"):
        env.step(bad)
    assert env.game.state() == before
    gym = CatanGymEnv(players=3)
    gym.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an integer index"):
        gym.step(bad)


def test_numpy_integers_are_actions_and_the_gym_env_gives_the_reason_for_a_refusal():
    env = CatanAECEnv(players=3)
    env.reset(seed=1)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.int64(legal[0]))  # numpy integers are integers
    assert len(env.game.log) == 1
    env.step(np.array(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))  # a 0-d array too
    assert len(env.game.log) == 2
    gym = CatanGymEnv(players=3)
    obs, _ = gym.reset(seed=1)
    n = len(gym.aec.action_catalog())
    _, reward, *_, info = gym.step(-1)
    assert info["illegal_action"] == f"action -1 is outside the action space (0..{n - 1})"
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, *_, info = gym.step(bad)
    assert reward == gym.illegal_penalty
    assert info["illegal_action"].startswith(f"action {bad} (") and "is not legal now: B-" in info["illegal_action"]

"""The compiled simulator (issue 29) against the engine, its reference.

Every kernel game is replayed action by action by :meth:`Game.play`, which must accept each action
and reach the same end (winner, VP, hands, bank, deck, development cards, knights, pieces, road
lengths, Longest Road and Largest Army holders, robber).  At sampled positions the kernel's legal
actions are the engine's.  More games on demand: ``CATAN_NB_FAST_GAMES=100000``.
"""

from __future__ import annotations

import io
import os
import time

import numpy as np
import pytest

pytest.importorskip("numba")

from catan_nb import Board, Game, Rules  # noqa: E402
from catan_nb.constants import Resource  # noqa: E402
from catan_nb.fast import Games, catalog, covered, engine_summary, play, to_actions  # noqa: E402
from catan_nb.rules import BuildRoad, BuildSettlement, MoveRobber, RollDice  # noqa: E402
from helpers import run_python  # noqa: E402

pytestmark = pytest.mark.xdist_group("fast")  # one worker compiles the kernel (once per machine: cached)

#: Games per differential case (the CI default adds up to about 2,000 games).
SCALE = int(os.environ.get("CATAN_NB_FAST_GAMES", "0")) or None


def _games(default: int) -> int:
    return default if SCALE is None else max(default, SCALE // 12)


_BOARDS = {
    "beginner": lambda i, layout: Board.beginner() if layout == "base" else Board.five_six(),
    "random": lambda i, layout: Board.random(seed=1000 + i, layout=layout),
    "five_six": lambda i, layout: Board.five_six() if layout == "five_six" else Board.random(seed=i),
}


def _replay(board, players, log, rules=None, starting_seat=0):
    game = Game(board, players=players, seed=0, rules=rules, starting_seat=starting_seat)
    for a in to_actions(log, board, players):
        game.play(a)  # raises IllegalActionError on the first action the engine refuses
    return game


CASES = [
    # players, policy, board, games (CI)
    (4, "random", "random", 500),
    (4, "random", "beginner", 100),
    (4, "weighted", "random", 300),
    (4, "value", "random", 120),
    (3, "random", "random", 250),
    (3, "weighted", "beginner", 150),
    (3, "value", "random", 60),
    (5, "random", "random", 120),
    (5, "weighted", "five_six", 100),
    (6, "random", "five_six", 100),
    (6, "weighted", "random", 100),
    (6, "value", "random", 40),
]


@pytest.mark.parametrize("players,policy,kind,default", CASES, ids=[f"{c[0]}p-{c[1]}-{c[2]}" for c in CASES])
def test_kernel_games_replay_to_the_same_end(players, policy, kind, default):
    layout = "five_six" if players > 4 else "base"
    first = _BOARDS[kind](0, layout)
    games = Games(first, players)
    for i in range(_games(default)):
        board = _BOARDS[kind](i, layout)
        seat = i % players
        games.reset(0, seed=10_000 * players + i, board=board, starting_seat=seat)
        log = games.play(0, policy, record=True)
        game = _replay(board, players, log, starting_seat=seat)
        assert game.is_over, f"game {i}: the kernel stopped before the end"
        assert games.summary(0) == engine_summary(game), f"game {i} ({len(log)} actions) ends differently"


@pytest.mark.parametrize("options", [
    dict(steal_mandatory=True),
    dict(knights_only_before_roll=True),
    dict(combined_trade_build=True),
    dict(shortage_single_taker=False),  # B-COMP-14 without the recalled exception
    dict(vp_to_win=6, discard_limit=9),  # B-END-2, B-ROB-2
])
def test_rule_options_replay(options):
    rules = Rules(**options)
    board = Board.random(seed=7)
    games = Games(board, 4, rules=rules)
    for i in range(_games(25)):
        games.reset(0, seed=i, board=Board.random(seed=70 + i))
        log = games.play(0, ("random", "weighted", "random", "value")[i % 4], record=True)
        game = _replay(Board.random(seed=70 + i), 4, log, rules=rules)
        assert games.summary(0) == engine_summary(game)


def _lockstep(board, players, seed, policy, offers, every=3, rules=None):
    """Play a kernel game and the engine side by side; compare the legal actions every few actions."""
    games = Games(board, players, rules=rules)
    games.reset(0, seed=seed, board=board)
    game = Game(board, players=players, seed=0, rules=rules)
    checked = 0
    for k in range(50_000):
        if game.is_over:
            break
        if k % every == 0:
            mine = games.legal_actions(0, offers=offers)
            theirs = game.legal_actions(offers=offers)
            assert sorted(map(repr, mine)) == sorted(map(repr, theirs)), f"action {k}, phase {game.phase}"
            assert mine == theirs, "the same actions in the same order"
            checked += 1
        a = games.choose(0, policy)
        outcome = games.step(0, a)
        game.play(to_actions(np.array([[a, outcome]]), board, players)[0])
    assert games.summary(0) == engine_summary(game)
    return checked


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_legal_actions_equal_the_engines(players):
    layout = "five_six" if players > 4 else "base"
    checked = 0
    for i in range(_games(3)):
        board = Board.random(seed=300 + i, layout=layout)
        checked += _lockstep(board, players, seed=i, policy=("random", "weighted", "value")[i % 3], offers=False)
    assert checked > 100


def test_legal_actions_with_domestic_offers():
    """The vectorised environment's catalogue has one-for-one offers: their answers and completion too."""
    board = Board.random(seed=11)
    games = Games(board, 4)
    games.reset(0, seed=3, board=board)
    game = Game(board, players=4, seed=0)
    rng = np.random.default_rng(5)
    offered = answered = 0
    for k in range(4000):
        if game.is_over:
            break
        mine = games.legal(0, offers=True)
        assert [games.catalog[a] for a in mine] == game.legal_actions(offers=True), f"action {k}"
        a = int(rng.choice(mine))
        name = type(games.catalog[a]).__name__
        offered += name == "OfferTrade"
        answered += name in ("AcceptTrade", "ConfirmTrade")
        outcome = games.step(0, a)
        game.play(to_actions(np.array([[a, outcome]]), board, 4)[0])
    assert offered > 20 and answered > 5
    assert games.summary(0) == engine_summary(game)


def test_catalog_is_the_environments():
    envs = pytest.importorskip("catan_nb.envs")
    for players in (3, 4, 6):
        board = Board.random(seed=1, layout="five_six" if players > 4 else "base")
        assert catalog(board, players) == envs.action_catalog(board, players)


# ---------------------------------------------------------------- positions loaded from the engine
def _continue_both(game: Game, seed: int, policy: str = "random", steps: int | None = None):
    games = Games(game.board, game.n, rules=game.rules)
    games.load(0, game, seed=seed)
    assert games.summary(0) == engine_summary(game), "the position loads as it stands"
    log = games.play(0, policy, record=True, max_turns=None if steps is None else game.turn + steps)
    other = game.copy()
    for a in to_actions(log, game.board, game.n):
        other.play(a)
    assert games.summary(0) == engine_summary(other)
    return games, other


def test_positions_loaded_from_the_engine_play_on_alike():
    from catan_nb.analysis import RandomBot

    for i in range(_games(12)):
        players = 3 + i % 4
        layout = "five_six" if players > 4 else "base"
        game = Game(Board.random(seed=i, layout=layout), players=players, seed=i)
        bots = [RandomBot(seed=i * 7 + p) for p in range(players)]
        for _ in range(40 + 37 * i):  # founding, or well into the game, in whatever phase it stands
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game))
        _continue_both(game, seed=i, policy=("random", "weighted", "value")[i % 3])
        _continue_both(game.determinized(0, seed=i), seed=i + 1)


def test_beginner_start_loads():
    game = Game(Board.beginner(), players=4, seed=2, start="beginner")
    _continue_both(game, seed=5, policy="weighted")


# ---------------------------------------------------------------- rules at positions (cited by id)
def _after(game: Game, action, seed: int = 0):
    """Play ``action`` in the engine and in the kernel loaded from the same position; both summaries."""
    games = Games(game.board, game.n, rules=game.rules)
    games.load(0, game, seed=seed)
    index = games.catalog.index(type(action)() if isinstance(action, RollDice) else action)
    if isinstance(action, RollDice):
        # the kernel draws its own dice: draw until it rolls the wanted ones
        for attempt in range(10_000):
            games.load(0, game, seed=attempt)
            probe = Games(game.board, game.n, rules=game.rules)
            probe.load(0, game, seed=attempt)
            if probe.step(0, index) == 10 * action.dice[0] + action.dice[1]:
                break
        else:  # pragma: no cover
            raise AssertionError("no seed rolled the dice")
    games.step(0, index)
    other = game.copy()
    other.play(action)
    return games.summary(0), engine_summary(other)


def _settle(game: Game, seat: int, node: int) -> None:
    """Put a settlement of ``seat`` on ``node`` outside the turn (a teaching position)."""
    game.place(seat, "settlement", node)


def test_b_comp_14_shortage_position():
    """B-COMP-14: a resource the bank cannot pay everybody goes to nobody; a sole claimant takes what is left."""
    board = Board.beginner()
    for single in (True, False):
        game = Game(board, players=4, seed=1, start="beginner", rules=Rules(shortage_single_taker=single))
        total = 6  # find a number whose hexes pay some resource to two seats at least
        ore = Resource.ORE.value
        game.deal(3, {Resource.ORE: game.bank[ore] - 1})  # one ore left in the bank
        mine, theirs = _after(game, RollDice((1, total - 1)))
        assert mine == theirs


def test_b_lr_6_break_position():
    """B-LR-6: an opponent's settlement breaks the holder's road; the card moves or is set aside."""
    from catan_nb.analysis import RandomBot

    seen = 0
    for seed in range(60):
        game = Game(Board.random(seed=seed), players=4, seed=seed)
        bots = [RandomBot(seed=seed * 5 + p) for p in range(4)]
        while not game.is_over and seen < 8:
            acts = game.legal_actions()
            breaks = [a for a in acts if isinstance(a, BuildSettlement) and game.phase.value == "main"
                      and any(game.edge_owner[e] not in (-1, game.current_player)
                              for e in game.topology.node_edges[a.node])]
            if breaks and game.longest_road_holder is not None:
                mine, theirs = _after(game, breaks[0])
                assert mine == theirs
                seen += 1
            game.apply(bots[game.current_player].choose(game))
        if seen >= 8:
            break
    assert seen >= 3


def test_robber_steals_from_the_engines_victims():
    """B-ROB-5..8: the robber's targets and victims, and the stolen card's effect."""
    from catan_nb.analysis import RandomBot

    game = Game(Board.random(seed=4), players=4, seed=4)
    bots = [RandomBot(seed=p) for p in range(4)]
    done = 0
    while not game.is_over and done < 10:
        if game.phase.value == "move_robber":
            steals = [a for a in game.legal_actions() if isinstance(a, MoveRobber) and a.victim is not None]
            for a in steals[:3]:
                games = Games(game.board, 4)
                games.load(0, game, seed=done)
                outcome = games.step(0, games.catalog.index(a))
                other = game.copy()
                other.play(MoveRobber(a.hex, a.victim, list(Resource)[outcome]))
                assert games.summary(0) == engine_summary(other)
                done += 1
        game.apply(bots[game.current_player].choose(game))
    assert done >= 3


def test_founding_road_must_touch_the_new_settlement():
    """B-SETUP-17 in the kernel's legal actions."""
    board = Board.beginner()
    games = Games(board, 4)
    games.reset(0, seed=1)
    game = Game(board, players=4, seed=0)
    settle = games.catalog.index(BuildSettlement(10))
    games.step(0, settle)
    game.play(BuildSettlement(10))
    assert games.legal_actions(0) == game.legal_actions()
    assert all(isinstance(a, BuildRoad) and 10 in board.topology.edge_nodes[a.path] for a in games.legal_actions(0))


# ---------------------------------------------------------------- the checked step (issue 40, item 4)
def test_checked_step_refuses_a_city_in_the_founding_and_changes_nothing():
    from catan_nb.errors import IllegalActionError
    from catan_nb.rules import BuildCity

    games = Games(Board.beginner(), 4)
    games.reset(0, seed=7)
    before = games.S.copy()
    for a in (BuildCity(0), games.catalog.index(BuildCity(0))):
        with pytest.raises(IllegalActionError) as err:
            games.step_checked(0, a)
        assert err.value.rule == "B-SETUP-15"
        assert "game 0" in str(err.value) and "settlement, not a city" in str(err.value)
        assert np.array_equal(games.S, before), "a refused action changed the game"
    assert games.field(0, "HANDS").min() == 0
    with pytest.raises(IllegalActionError, match="outside the catalogue"):
        games.step_checked(0, 10_000)
    legal = games.legal_actions(0)[0]
    other = Games(Board.beginner(), 4)
    other.reset(0, seed=7)
    assert games.step_checked(0, legal) == other.step(0, other.catalog.index(legal))
    assert np.array_equal(games.S, other.S)


def _state(games):
    """The batch's game states: each row without its scratch space (which the kernel's legal lists
    write as a cache: see catan_nb.fast.layout)."""
    from catan_nb.fast import layout as L

    return games.S[:, :int(games.T[L.P_STATE_SIZE])].copy()


def _refusals(games, i, rng, tries):
    """Up to ``tries`` catalogue indices the kernel refuses in game ``i``, drawn at random."""
    legal = set(games.legal(i, offers=True).tolist())
    refused = [k for k in range(len(games.catalog)) if k not in legal]
    return rng.sample(refused, min(tries, len(refused)))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_checked_step_names_the_engines_rule(players):
    """Every action the kernel refuses at sampled positions is refused by Game.play under the same rule id."""
    import random

    from catan_nb.errors import IllegalActionError

    board = Board.random(seed=players, layout="five_six" if players > 4 else "base")
    game = Game(board, players=players, seed=players)
    games = Games(board, players)
    rng = random.Random(players)
    checked = 0
    for k in range(240):
        if game.is_over:
            break
        if k % 12 == 0:
            games.load(0, game)
            before = _state(games)
            legal = set(games.legal(0, offers=True).tolist())
            for index, a in enumerate(games.catalog):
                if index in legal:
                    continue
                with pytest.raises(IllegalActionError) as err:
                    game.copy().play(a)
                with pytest.raises(IllegalActionError) as mine:
                    games.step_checked(0, index)
                assert mine.value.rule == err.value.rule, (game.phase, a, str(err.value))
                assert str(mine.value) == f"{err.value.rule}: game 0: {err.value.evidence}"
                checked += 1
            assert np.array_equal(_state(games), before), "a refused action changed the game"
        game.apply(rng.choice(game.legal_actions(offers=rng.random() < 0.2)))
    assert checked > 1000


@pytest.mark.parametrize("seed", [1, 2, 5, 9])  # 4, 3, 5 and 6 players
def test_checked_step_refuses_as_game_play_does_in_random_batches(seed):
    """Random illegal actions for random rows of random batches: step_checked raises what Game.play
    raises on the game replayed (by the test, from its own log) and leaves the whole batch unchanged.
    Rows begin new (reset), loaded from the engine (load) or played on by a policy (play)."""
    import random

    from catan_nb.errors import IllegalActionError

    rng = random.Random(seed)
    players = rng.choice([3, 4, 5, 6])
    layout = "five_six" if players > 4 else "base"
    board = Board.random(seed=seed, layout=layout)
    G = rng.randint(3, 6)
    games = Games(board, players, games=G)
    begun = []  # per row: (its engine game at the start, or None for a new game; its (index, outcome) log)
    for i in range(G):
        if i % 3 == 1:  # loaded from an engine game some actions in
            game = Game(board, players=players, seed=seed + i)
            for _ in range(rng.randint(0, 120)):
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_actions()))
            games.load(i, game, seed=seed + i)
            begun.append((game.copy(), []))
        else:
            games.reset(i, seed=seed * 100 + i)
            begun.append((None, []))
    checked = 0
    for _ in range(60):
        i = rng.randrange(G)
        start, log = begun[i]
        if games.winner(i) is None:
            if rng.random() < 0.15:  # a policy plays on: the test's log from a twin row, recorded
                twin = Games(board, players)
                twin.S[0] = games.S[i]
                turns = games.turn(i) + rng.randint(1, 3)
                log.extend(map(tuple, twin.play(0, "random", max_turns=turns, record=True).tolist()))
                games.play(i, "random", max_turns=turns)
            else:
                for _ in range(rng.randint(1, 40)):
                    if games.winner(i) is not None:
                        break
                    a = int(rng.choice(games.legal(i, offers=True)))
                    step = games.step_checked if rng.random() < 0.5 else games.step
                    log.append((a, step(i, a)))
        if start is None:
            expected = _replay(board, players, np.array(log, np.int64).reshape(-1, 2))
        else:
            expected = start.copy()
            for a in to_actions(np.array(log, np.int64).reshape(-1, 2), board, players):
                expected.play(a)
        assert engine_summary(expected) == games.summary(i)
        before = _state(games)
        for index in _refusals(games, i, rng, 6):
            with pytest.raises(IllegalActionError) as err:
                expected.copy().play(games.catalog[index])
            for a in (index, games.catalog[index]):
                with pytest.raises(IllegalActionError) as mine:
                    games.step_checked(i, a)
                assert type(mine.value) is type(err.value) and mine.value.rule == err.value.rule
                assert str(mine.value) == f"{err.value.rule}: game {i}: {err.value.evidence}"
                assert np.array_equal(_state(games), before), "a refused action changed the batch"
            checked += 1
    assert checked > 100


def test_checked_step_without_a_replay_still_refuses():
    """A row the engine cannot replay (changed through S, or an unchecked illegal step) refuses with rule API."""
    from catan_nb.errors import IllegalActionError
    from catan_nb.rules import BuildCity

    board = Board.beginner()
    games = Games(board, 4, games=2)
    with pytest.raises(IllegalActionError, match="never started") as err:
        games.step_checked(1, BuildCity(0))  # a row never reset
    assert err.value.rule == "API"
    games.reset(0, seed=3)
    games.reset(1, seed=4)
    for _ in range(9):
        games.step(1, int(games.legal(1)[0]))
    games.S[0] = games.S[1]  # row 0 changed behind Games' back
    before = _state(games)
    with pytest.raises(IllegalActionError, match="changed outside") as err:
        games.step_checked(0, BuildCity(0))
    assert err.value.rule == "API" and np.array_equal(_state(games), before)
    games.reset(0, seed=3)
    games.step(0, games.catalog.index(BuildCity(0)))  # unchecked and illegal: the game is corrupt
    with pytest.raises(IllegalActionError, match="do not replay") as err:
        games.step_checked(0, BuildCity(0))
    assert err.value.rule == "API"


def test_checked_step_says_when_kernel_and_engine_disagree(monkeypatch):
    from catan_nb.rules import BuildCity

    games = Games(Board.beginner(), 4)
    games.reset(0, seed=7)
    before = games.S.copy()
    monkeypatch.setattr(Game, "play", lambda self, action: None)  # an engine that accepts anything
    with pytest.raises(RuntimeError, match=r"game 0: the kernel and the engine disagree \(a bug.*BuildCity"):
        games.step_checked(0, BuildCity(0))
    assert np.array_equal(games.S, before)


# ---------------------------------------------------------------- long games in a batch (issue 40, item 3)
def test_one_overlong_game_does_not_cost_the_batch():
    """Game 1 runs 1,744 actions: past max_actions=1200 it is marked; the others come back whole."""
    board = Board.random(seed=719051)
    alone = play([board] * 3, 4, seeds=[719050, 1, 2])
    assert alone.actions.tolist() == [871, 1744, 953] and not alone.truncated.any()
    batch = play([board] * 3, 4, seeds=[719050, 1, 2], max_actions=1200, record=True)
    assert batch.truncated.tolist() == [False, True, False]
    assert batch.guarded.tolist() == [False, True, False]
    assert batch.winner[1] == -1 and batch.actions[1] == 1200
    for i in (0, 2):
        assert batch.winner[i] == alone.winner[i] and batch.actions[i] == alone.actions[i]
        assert batch.replay(i).winner == batch.winner[i]
    (line,) = batch.unfinished()
    assert line.startswith("game 1 (seed 1): ") and "max_actions=1200" in line
    turns = play("random", 4, seeds=[5, 6, 7], max_turns=3)
    assert turns.truncated.all() and not turns.guarded.any() and "max_turns=3" in turns.unfinished()[0]


def test_the_record_grows_as_a_game_needs(monkeypatch):
    import catan_nb.fast as fast

    monkeypatch.setattr(fast, "LOG_ROWS", 64)
    for board in ("random", [Board.random(seed=3)] * 3):
        batch = play(board, 4, seeds=[11, 12, 13], record=True)
        assert [len(log) for log in batch.logs] == batch.actions.tolist()
        for i in range(3):
            assert batch.replay(i).winner == batch.winner[i]
    games = Games(Board.beginner(), 4)
    games.reset(0, seed=21)
    log = games.play(0, "weighted", record=True)
    game = _replay(Board.beginner(), 4, log)
    assert game.is_over and games.summary(0) == engine_summary(game)


def test_an_endless_game_played_alone_is_named_with_its_seed():
    games = Games(Board.beginner(), 4)
    games.reset(0, seed=33)
    with pytest.raises(RuntimeError, match=r"game 0 \(seed 33\) ran 300 actions .*max_actions=300"):
        games.play(0, "random", max_actions=300)


# ---------------------------------------------------------------- the compile notice (issue 40, item 2)
def test_the_compile_notice_comes_before_any_compile_work(monkeypatch, capsys):
    """numba's compile event opens the notice before its compiler runs (a tiny function stands in for a job)."""
    from numba import njit

    from catan_nb.fast import _compile

    _compile.kernel()  # the listener registered
    order = []

    @njit
    def tiny(x):
        return x + 1

    real_notice, real_compile = _compile.notice, tiny._compiler.compile

    def spy_notice(job, stream=None):
        order.append("notice")
        return real_notice(job, stream)

    def spy_compile(*args, **kw):
        order.append("compile")
        return real_compile(*args, **kw)

    monkeypatch.setattr(_compile, "_ours", lambda d: getattr(d, "py_func", None) is tiny.py_func)
    monkeypatch.setattr(_compile, "notice", spy_notice)
    monkeypatch.setattr(tiny._compiler, "compile", spy_compile)
    assert tiny(1) == 2 and tiny(2) == 3
    assert order == ["notice", "compile"]
    err = capsys.readouterr().err
    assert "compiling the simulator (tiny), once per machine, about a minute" in err
    assert "compiled in" in err


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("failed", [False, True])
def test_the_compile_notice_is_two_lines_where_nothing_redraws_a_line(failed):
    """A pipe, a file, a CI log: the notice as one line at once, the end as another, no spinner frames."""
    from catan_nb.fast import _compile

    out = io.StringIO()
    shown = _compile.notice("tiny", out)
    assert out.getvalue() == _compile.NOTICE.format(job="tiny") + "\n"  # said before the compile starts
    time.sleep(1.1)  # a spinner would have drawn two frames more
    shown.close(failed=failed)
    lines = out.getvalue().splitlines()
    assert len(lines) <= 2 and "\r" not in out.getvalue(), out.getvalue()
    assert lines[-1].startswith("catan_nb.fast: compile stopped after" if failed else "catan_nb.fast: compiled in")


def test_the_compile_notice_spins_in_a_terminal():
    from catan_nb.fast import _compile

    out = _Terminal()
    shown = _compile.notice("tiny", out)
    assert isinstance(shown, _compile._Spinner)
    shown.close()
    assert "compiling the simulator (tiny)" in out.getvalue() and "compiled in" in out.getvalue()


def _fresh_cache_run(tmp_path, code: str, timeout: int):
    return run_python(code, timeout, NUMBA_CACHE_DIR=str(tmp_path))


def test_a_fresh_cache_says_it_compiles_before_compiling(tmp_path):
    """With a fresh NUMBA_CACHE_DIR, play() says it compiles before numba's compiler starts (stopped there)."""
    code = (
        "import sys\n"
        "from numba.core import dispatcher\n"
        "def refuse(self, args, return_type):\n"
        "    sys.stderr.write('COMPILER-STARTS\\n'); sys.stderr.flush(); raise SystemExit(3)\n"
        "dispatcher._FunctionCompiler.compile = refuse\n"
        "import catan_nb.fast\n"
        "catan_nb.fast.play('random', 4, seeds=[0])\n"
    )
    out = _fresh_cache_run(tmp_path, code, 300)
    assert out.returncode == 3, out.stderr[-2000:]
    assert "compiling the simulator (play), once per machine" in out.stderr
    assert out.stderr.index("compiling the simulator") < out.stderr.index("COMPILER-STARTS")


@pytest.mark.on_demand
def test_a_fresh_cache_compiles_with_the_notice_first(tmp_path):
    """The real thing (a minute or more of CPU): the notice, then the compile, then the games."""
    code = ("import time; from catan_nb.fast import play; t = time.process_time(); "
            "b = play('random', 4, seeds=[0, 1]); print('cpu', round(time.process_time() - t), len(b))")
    out = _fresh_cache_run(tmp_path, code, 1800)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stderr.lstrip().startswith("catan_nb.fast: compiling the simulator (play)")
    assert "compiled in" in out.stderr and out.stdout.split()[-1] == "2"


# ---------------------------------------------------------------- start-up (issue 40, item 1)
def test_importing_loads_nothing_compiled_and_a_jitted_job_loads_only_its_own():
    """With the built module skipped (CATAN_NB_AOT=0), a job loads only its own entry from numba's cache."""
    code = (
        "import sys\n"
        "import catan_nb.fast as fast\n"
        "assert 'numba' not in sys.modules, 'import catan_nb.fast imported numba'\n"
        "assert 'catan_nb.fast.kernel' not in sys.modules\n"
        "fast.play('random', 4, seeds=[0, 1])\n"
        "k = sys.modules['catan_nb.fast.kernel']\n"
        "print(sorted(n for n in k.ENTRY_POINTS if getattr(k, n).overloads), 'catan_nb.analysis' in sys.modules)\n"
        "import numba\n"
        "from catan_nb.fast._compile import LEAN_LOAD_VERSIONS\n"
        "print(numba.__version__.startswith(LEAN_LOAD_VERSIONS) == ('numba.np.arraymath' not in sys.modules))\n"
    )
    # the first run compiles the jitted job where only its ahead-of-time build was made (its callees
    # cached, not the entry itself); the second loads it, as a user's next process does
    for _ in range(2):
        out = run_python(code, CATAN_NB_AOT="0")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-2:] == ["['play_random_boards'] False", "True"]


def test_a_kernel_only_job_imports_no_engine_layer():
    """play("random", ...) with the default rules reads its tables as plain data: no networkx, no
    board, no rules (issue 40); its batch builds the rules and the template board when asked."""
    from catan_nb.fast._cached import random_tables

    random_tables("base", 4)  # the file the new process reads (written here if missing)
    code = (
        "import sys\n"
        "import catan_nb.fast as fast\n"
        "b = fast.play('random', 4, seeds=[0, 1])\n"
        "print(sorted(m for m in ('networkx', 'catan_nb.board', 'catan_nb.rules', 'catan_nb.fast.tables')"
        " if m in sys.modules))\n"
        "print(b.rules == fast.Rules(), b.template.name, len(b.board(1).hexes), fast.covered(b.rules, 4))\n"
        "import catan_nb\n"
        "print(catan_nb.Game is fast.Game)\n"
    )
    out = run_python(code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines() == ["[]", "True random-0 19 None", "True"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_kept_tables_are_the_ones_the_engine_derives(players, tmp_path, monkeypatch):
    """The plain-data tables of play("random", ...) equal those derived from the board's graph and
    the engine, through the file and without it; a stale or broken file is derived again."""
    from catan_nb.fast import _cached
    from catan_nb.fast.tables import random_template, setup

    layout = "five_six" if players > 4 else "base"
    tmpl, board = random_template(layout)
    want = (tmpl, setup(Board.random(seed=0, layout=layout), players, None).T)
    assert board.topology.edge_nodes == Board.random(seed=0, layout=layout).topology.edge_nodes
    path = tmp_path / f"catan_nb-tables-{layout}-{players}.{_cached.source_key()}.npy"
    stale = tmp_path / f"catan_nb-tables-{layout}-{players}.0123456789abcdef0123.npy"
    stale.write_bytes(b"not numpy")
    monkeypatch.setattr(_cached, "_MEMO", {})
    monkeypatch.setattr(_cached, "cache_file", lambda lay, n: tmp_path / path.name.replace(layout, lay).replace(
        f"-{players}.", f"-{n}."))

    def same(got):
        return all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want))

    assert same(_cached.random_tables(layout, players))  # derived, and written
    assert path.exists() and not stale.exists()
    assert same(_cached._read(path))
    _cached._MEMO.clear()
    assert same(_cached.random_tables(layout, players))  # read
    path.write_bytes(path.read_bytes()[:-40])  # a torn file
    _cached._MEMO.clear()
    assert same(_cached.random_tables(layout, players))
    assert same(_cached._read(path))


def test_the_kept_tables_change_with_their_sources(tmp_path, monkeypatch):
    from catan_nb.fast import _cached

    key = _cached.source_key()
    assert key == _cached.source_key() and len(key) == 20
    assert {"board.py", "hexgrid.py", "constants.py", "rules/game.py", "rules/modules/five_six.py",
            "fast/tables.py", "fast/layout.py"} <= {p.relative_to(_cached._PACKAGE).as_posix()
                                                    for pattern in _cached.SOURCES
                                                    for p in _cached._PACKAGE.glob(pattern)}
    monkeypatch.setattr(_cached, "_KEY", [])
    monkeypatch.setattr(_cached, "FORMAT", _cached.FORMAT + 1)
    assert _cached.source_key() != key


# ---------------------------------------------------------------- seeds
def _digest(batch) -> str:
    import hashlib

    h = hashlib.sha256()
    for a in (batch.winner, batch.turns, batch.actions, batch.vp, batch.road_length, batch.knights):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def test_same_seed_same_games_in_one_process_in_any_batch():
    boards = [Board.random(seed=i) for i in range(12)]
    whole = play(boards, 4, seeds=range(100, 112), policies=("random", "weighted", "value", "random"))
    again = play(boards, 4, seeds=range(100, 112), policies=("random", "weighted", "value", "random"))
    assert _digest(whole) == _digest(again)
    part = play(boards[5:8][::-1], 4, seeds=[107, 106, 105], policies=("random", "weighted", "value", "random"))
    assert part.winner.tolist() == whole.winner[5:8][::-1].tolist()
    assert part.vp.tolist() == whole.vp[5:8][::-1].tolist()


def test_same_seed_same_games_in_another_process():
    code = (
        "from catan_nb import Board; from catan_nb.fast import play; import numpy as np, hashlib;"
        "b = play([Board.random(seed=i) for i in range(6)], 4, seeds=range(6), policies='weighted');"
        "print(hashlib.sha256(np.concatenate([b.winner, b.turns, b.vp.ravel()]).tobytes()).hexdigest()[:16])"
    )
    here = play([Board.random(seed=i) for i in range(6)], 4, seeds=range(6), policies="weighted")
    import hashlib

    want = hashlib.sha256(np.concatenate([here.winner, here.turns, here.vp.ravel()]).tobytes()).hexdigest()[:16]
    out = run_python(code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == want


def test_covered_names_what_the_kernel_cannot_play():
    assert covered(Rules(), 4) is None
    assert covered(Rules(modules=("five_six",)), 6) is None
    assert "friends" in covered(Rules(modules=("friends",)), 4)
    with pytest.raises(ValueError, match="friends"):
        Games(Board.beginner(), 4, rules=Rules(modules=("friends",)))


# ---------------------------------------------------------------- the value policy
def test_value_policy_chooses_as_the_value_bot():
    """At positions of value-bot games (3-6 players), the kernel's value policy picks an action the
    value bot (without domestic offers) rates best: its own choice, or one its tie-break noise
    (1e-6) could have picked, on at least 95% of positions.  The rest are almost all a development
    card bought or not: both draw the card from the cards they cannot see, and a VP card drawn is
    worth 1,000.  ``CATAN_NB_FAST_VALUE_POSITIONS=10000`` measures more (CI: 600)."""
    import random

    from catan_nb.analysis.value_bot import ValueBot

    want = int(os.environ.get("CATAN_NB_FAST_VALUE_POSITIONS", "600"))
    rng = random.Random(7)
    same = tie = total = 0
    misses = []
    gi = 0
    while total < want:
        players = rng.choice([3, 4, 4, 5, 6])
        board = Board.random(seed=7000 + gi, layout="five_six" if players > 4 else "base")
        game = Game(board, players=players, seed=gi)
        bots = [ValueBot(seed=gi * 10 + p, offers=False) for p in range(players)]
        games = Games(board, players)
        while not game.is_over and total < want:
            if len(game.legal_actions()) > 1 and rng.random() < 0.25:
                ranked = ValueBot(seed=rng.getrandbits(32), offers=False).explain(game, top=None)
                value = {c.action: c.value for c in ranked}
                games.load(0, game, seed=rng.getrandbits(63))
                mine = games.catalog[games.choose(0, "value")]
                total += 1
                if mine == ranked[0].action:
                    same += 1
                elif abs(value[mine] - ranked[0].value) <= 3e-6:
                    tie += 1
                else:
                    misses.append((game.phase.value, ranked[0].action, mine))
            game.apply(bots[game.current_player].choose(game))
        gi += 1
    rate = (same + tie) / total
    print(f"value policy: {same} same, {tie} tied, {len(misses)} other of {total} positions ({rate:.1%})")
    assert rate >= 0.95, misses[:10]
    card = sum(1 for _, a, b in misses if "BuyDevelopmentCard" in (type(a).__name__, type(b).__name__))
    assert card >= 0.8 * len(misses), misses[:10]


def test_value_policy_plays_out_the_decisions_an_action_pushes():
    """Exact mode, at positions of value-bot games where the bot weighs Road Building, a knight (in
    the main phase or before the roll) or a discard of its own 7: the kernel's value of every legal
    action is ValueBot.explain's, the same determinisation and tie-break noise, with the decisions
    the action pushes played out (the free roads, the robber and its steal: ValueBot._own_decisions,
    kernel.own_decisions)."""
    from catan_nb.analysis.value_bot import ValueBot
    from catan_nb.fast import kernel, value_weights
    from catan_nb.rules import Phase, PlayKnight, PlayRoadBuilding

    found = {"road_building": 0, "knight": 0, "discard": 0}
    weights = value_weights()
    for gi in range(60):
        if min(found.values()) >= 3:
            break
        players = 3 + gi % 2
        board = Board.random(seed=300 + gi)
        game = Game(board, players=players, seed=gi)
        bots = [ValueBot(seed=gi * 10 + p, offers=False) for p in range(players)]
        games = Games(board, players, exact=True, value_offers=False)
        while not game.is_over:
            acts = game.legal_actions()
            me = game.current_player
            kind = ("road_building" if any(isinstance(a, PlayRoadBuilding) for a in acts) else
                    "knight" if any(isinstance(a, PlayKnight) for a in acts) else
                    "discard" if game.phase is Phase.DISCARD and me == game.active_player else None)
            if kind is not None and len(acts) > 1:
                seed = gi * 1000 + game.turn
                ranked = ValueBot(seed=seed, offers=False).explain(game, top=None)
                games.load(0, game)
                games.load_random(0, 1 + me, seed)
                vals = np.zeros(len(acts))
                k = kernel.values_of(games.T, games.S, 0, weights, vals)
                mine = {games.catalog[a]: v for a, v in zip(games.legal(0), vals[:k])}
                assert mine == pytest.approx({c.action: c.value for c in ranked}, rel=0, abs=1e-9), (gi, kind)
                found[kind] += 1
            game.apply(bots[me].choose(game))
    assert min(found.values()) >= 3, found


# ---------------------------------------------------------------- exact mode: the engine's own games
def _engine_and_kernel(kind, players, i, offers=True):
    from catan_nb.analysis import RandomBot, WeightedBot, play_game
    from catan_nb.analysis.value_bot import ValueBot

    make = {"random": RandomBot, "weighted": WeightedBot, "value": lambda s: ValueBot(seed=s, offers=offers)}[kind]
    board = Board.random(seed=i, layout="five_six" if players > 4 else "base")
    seeds = [i * 31 + p for p in range(players)]
    game = Game(board, players=players, seed=2000 + i)
    play_game(game, [make(s) for s in seeds])
    games = Games(board, players, exact=True, value_offers=offers)
    games.reset(0, seed=2000 + i, bots=seeds)
    log = games.play(0, kind, record=True)
    return game, to_actions(log, board, players)


@pytest.mark.parametrize("kind,players,offers,default", [
    ("random", 4, True, 12), ("weighted", 3, True, 20), ("weighted", 6, True, 8), ("value", 4, True, 10),
    ("value", 3, False, 6), ("value", 5, True, 4), ("value", 6, False, 3),
])
def test_exact_mode_plays_the_engines_games(kind, players, offers, default):
    """Drawing from the engine's own generators, the kernel and RandomBot / WeightedBot / ValueBot
    (its determinisations, noise and offers included) play the same game, action for action."""
    for i in range(_games(default)):
        game, mine = _engine_and_kernel(kind, players, i, offers)
        assert mine == game.log, f"game {i}"


def test_simulate_gives_the_same_records_with_or_without_the_kernel(monkeypatch):
    from catan_nb.analysis import simulate

    for bots, players, max_turns in (("weighted", 4, None), (("value", "random", "weighted"), 3, 80),
                                     ("random", 6, 60)):
        kw = dict(players=players, bots=bots, seed=4, max_turns=max_turns, workers=1, progress=False)
        monkeypatch.setenv("CATAN_NB_FAST", "0")
        engine = simulate(_games(6), **kw)
        monkeypatch.setenv("CATAN_NB_FAST", "1")
        assert simulate(_games(6), **kw) == engine


def test_simulate_openings_gives_the_same_playouts_with_or_without_the_kernel(monkeypatch):
    from catan_nb.analysis import simulate_openings

    kw = dict(seat=2, top=2, playouts=_games(4), seed=3, bot="value", progress=False, max_turns=120)
    monkeypatch.setenv("CATAN_NB_FAST", "0")
    engine = simulate_openings(Board.random(seed=9), **kw)
    monkeypatch.setenv("CATAN_NB_FAST", "1")
    fast = simulate_openings(Board.random(seed=9), **kw)
    assert fast == engine and [r.winners for r in fast] == [r.winners for r in engine]


@pytest.mark.parametrize("seed,players,turns,horizon", [(5, 4, 40, "turn"), (13, 5, 60, "turn"), (13, 5, 40, "round")])
def test_search_bot_chooses_the_same_with_or_without_the_kernel(monkeypatch, seed, players, turns, horizon):
    """The search bot's tree walk and rollouts in the kernel (exact mode) choose as in the engine: the
    value bot's greedy steps (ValueBot.greedy: more than 24 actions sampled, the robber, cards bought
    from the determinisation's generator), then the rollout policy (the 5-player game with
    horizon="round" reaches them all, the Special Building Phase included; with horizon="turn" the
    playout stops when the bot ends its turn, before the others' Special Building Phase)."""
    from catan_nb.analysis import ValueBot, WeightedBot, play_game
    from catan_nb.analysis.search_bot import SearchBot

    def run():
        game = Game(Board.random(seed=seed, layout="five_six" if players > 4 else "base"), players=players, seed=seed)
        bots = [SearchBot(seed=seed, iterations=25 if players == 4 else 20, horizon=horizon)] + [
            ValueBot(seed=p) if p % 2 and players > 4 else WeightedBot(seed=p) for p in range(1, players)]
        return play_game(game, bots, max_turns=turns).log

    monkeypatch.setenv("CATAN_NB_FAST", "0")
    engine = run()
    monkeypatch.setenv("CATAN_NB_FAST", "1")
    assert run() == engine


def test_without_numba_the_engine_plays_and_says_so_once(monkeypatch):
    """Without numba a job the kernel would have played says once how to install it; a lesson's quick games,
    which the engine plays with or without numba, say nothing (issue 39: a classroom sees no warning)."""
    import warnings

    import catan_nb.fast as fast
    from catan_nb.analysis import simulate

    monkeypatch.setattr(fast, "HAVE_NUMBA", False)
    monkeypatch.setattr(fast._numba, "_warned", False)
    monkeypatch.delenv("CATAN_NB_FAST", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = simulate(2, players=3, bots="weighted", seed=1, max_turns=30, workers=1, progress=False)
        assert not [w for w in caught if issubclass(w.category, fast.FastUnavailableWarning)]
        assert not fast.wanted(work=fast.COMPILE_SECONDS * 2) and not fast.wanted(work=None)
        monkeypatch.setenv("CATAN_NB_FAST", "1")
        simulate(2, players=3, bots="weighted", seed=1, max_turns=30, workers=1, progress=False)
    said = [w for w in caught if issubclass(w.category, fast.FastUnavailableWarning)]
    assert len(said) == 1 and "catan-nb[fast]" in str(said[0].message)
    assert len(r.records) == 2
    with pytest.raises(ImportError, match="catan-nb"):
        fast.play(Board.beginner(), seeds=[1])


def test_auto_mode_keeps_small_jobs_off_a_cold_kernel(monkeypatch):
    """By default a job shorter than a compile plays in the engine until the kernel is compiled
    (in the process, or in numba's cache and longer than loading it); CATAN_NB_FAST=1 forces it."""
    import catan_nb.fast as fast
    from catan_nb.analysis import simulation

    monkeypatch.delenv("CATAN_NB_FAST", raising=False)
    fast.play_exact(Board.beginner(), 3, game_seeds=[1], bot_seeds=[[1, 2, 3]], max_turns=5)
    assert fast.compiled("simulate_exact") and fast.wanted(0.001, "simulate_exact")
    spec = simulation._spec(4, "random", "random", 1, None, None, "founding", 0)
    assert simulation._use_fast(spec, 10).fast
    for where, small, medium in ((None, False, False), ("cache", False, True), ("process", True, True)):
        monkeypatch.setattr(fast, "_compiled", lambda job, where=where: where)
        assert fast.wanted(0.1, "simulate_exact") is small
        assert fast.wanted(5.0, "simulate_exact") is medium
        assert fast.wanted(fast.COMPILE_SECONDS, "simulate_exact") and fast.wanted()
        assert simulation._use_fast(spec, 10).fast is small  # 10 random games: about 0.1 s of the engine
        assert simulation._use_fast(spec, 10_000).fast
    monkeypatch.setenv("CATAN_NB_FAST", "1")
    assert fast.wanted(0.1, "simulate_exact")
    monkeypatch.setenv("CATAN_NB_FAST", "0")
    assert not fast.wanted() and not simulation._use_fast(spec, 10_000).fast


def test_the_stored_seat_runs_of_lesson_30_replay_in_the_kernel(monkeypatch):
    """The seat-order runs stored for lesson 30 were played by the engine; simulate through the
    kernel gives the same winners (all 3,000 games of each with CATAN_NB_FAST_GAMES set)."""
    from catan_nb.analysis.simulation import simulate, stored_seat_runs

    monkeypatch.setenv("CATAN_NB_FAST", "1")
    for players, run in stored_seat_runs().items():
        games = min(run.games, _games(300) * 10 if SCALE else 300)
        r = simulate(games, **run.call(), workers=1, progress=False)
        assert tuple(x.winner for x in r.records) == run.winners[:games], f"{players} players"


def test_the_same_games_with_any_number_of_workers(monkeypatch):
    """simulate through the kernel: the same records in one process and in two worker processes."""
    from catan_nb.analysis import simulate

    monkeypatch.setenv("CATAN_NB_FAST", "1")
    kw = dict(players=4, bots=("value", "weighted", "random", "weighted"), seed=8, max_turns=200, progress=False)
    assert simulate(_games(16), workers=2, chunksize=3, **kw) == simulate(_games(16), workers=1, **kw)

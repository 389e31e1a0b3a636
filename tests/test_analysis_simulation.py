"""catan_nb.analysis.simulation: many seeded bot games, the same on any number of workers."""

from __future__ import annotations

import math

import pytest

from catan_nb import Board, Game
from catan_nb.analysis.bots import RandomBot, WeightedBot, play_game
from catan_nb.analysis.simulation import (
    BOTS,
    VP_SOURCES,
    GameRecord,
    SimulationResult,
    Table,
    game_seeds,
    play_one,
    simulate,
)
from catan_nb.constants import VP_TO_WIN

FAST = dict(players=4, seed=11, max_turns=300, progress=False)  # some games finish, some hit the cap


@pytest.fixture(scope="module")
def local_run() -> SimulationResult:
    return simulate(10, workers=1, **FAST)


def small_board(seed: int) -> Board:
    """A module-level board factory (it pickles, so worker processes can use it)."""
    return Board.random(seed=seed % 3)


class CautiousBot(WeightedBot):
    """A module-level bot class: builds less eagerly than the default weighted bot."""

    def __init__(self, seed):
        super().__init__(seed)
        self.weights = {k: 1.0 for k in self.weights}


# ============================================================================ reproducibility


def test_same_records_for_any_number_of_workers_and_chunk_size(local_run):
    assert len(local_run) == local_run.games == 10
    assert [r.index for r in local_run.records] == list(range(10))
    for workers, chunksize in [(2, 1), (2, 3), (1, 4)]:
        again = simulate(10, workers=workers, chunksize=chunksize, **FAST)
        assert again == local_run, (workers, chunksize)


def test_each_game_depends_on_base_seed_and_index_only(local_run):
    rec = local_run.records[7]
    board_seed, game_seed, bot_seeds = game_seeds(11, 7, 4)
    assert rec.seed == game_seed and rec.board == f"random-{board_seed}"
    assert play_one(7, **{k: v for k, v in FAST.items() if k != "progress"}) == rec
    # the record is the game one gets by hand from the same seeds
    game = Game(Board.random(seed=board_seed), players=4, seed=game_seed)
    play_game(game, [RandomBot(s) for s in bot_seeds], max_turns=300)
    assert GameRecord.from_game(game, index=7, bots=("random",) * 4) == rec
    # more games keep the first ones; another base seed changes them
    assert simulate(12, workers=1, **FAST).records[:10] == local_run.records
    assert simulate(3, workers=1, **{**FAST, "seed": 12}).records != local_run.records[:3]


def test_dask_cluster_gives_the_local_results(local_run):
    distributed = pytest.importorskip("distributed")
    # threads keep the test fast; a process cluster (processes=True) gives the same records, as
    # the ProcessPoolExecutor runs above show for pickled tasks
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            remote = simulate(10, client=client, chunksize=3, **FAST)
    assert remote == local_run


# ============================================================================ records


def test_records_add_up(local_run):
    assert 0 < local_run.unfinished < 10  # both kinds of game are checked
    for r in local_run.records:
        assert r.players == 4 and r.bots == ("random",) * 4
        for p in range(4):
            assert sum(getattr(r, s)[p] for s in VP_SOURCES) == r.vp[p]
            assert r.vp_cities[p] == 2 * r.cities[p]  # B-END-1
            assert r.vp_settlements[p] == r.settlements[p]
            assert r.vp_longest_road[p] in (0, 2) and r.vp_largest_army[p] in (0, 2)
        assert sum(r.vp_longest_road) <= 2 and sum(r.vp_largest_army) <= 2
        if r.finished:
            assert r.vp[r.winner] >= VP_TO_WIN and 0 < r.turns <= 300
        else:
            assert r.winner is None and r.turns == 300
        assert r.actions > r.turns


def test_max_turns_cap_leaves_games_unfinished():
    res = simulate(3, players=3, seed=1, max_turns=4, workers=1, progress=False)
    assert res.unfinished == 3
    assert all(r.turns == 4 and r.winner is None and not r.finished for r in res.records)
    table = res.win_rates()
    assert table.column("wins") == [0, 0, 0] and table.column("win_rate") == [0.0, 0.0, 0.0]
    assert "3 unfinished" in table.title


def test_uncapped_games_all_finish():
    res = simulate(2, players=3, bots="weighted", seed=2, workers=1, progress=False)
    assert res.unfinished == 0 and all(r.vp[r.winner] >= VP_TO_WIN for r in res.records)


# ============================================================================ options


def test_bots_per_seat_and_factories():
    res = simulate(3, players=3, bots=("weighted", "random", CautiousBot), seed=5, max_turns=30, workers=2,
                   chunksize=1, progress=False)
    assert res.bots == ("weighted", "random", "CautiousBot") and res.records[0].bots == res.bots
    assert res == simulate(3, players=3, bots=("weighted", "random", CautiousBot), seed=5, max_turns=30, workers=1,
                           progress=False)
    assert set(BOTS) >= {"random", "weighted"}
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        simulate(1, players=3, bots="clever", workers=1, progress=False)
    with pytest.raises(ValueError, match="3 players need 3 bots"):
        simulate(1, players=3, bots=("random", "random"), workers=1, progress=False)


def test_unpicklable_options_are_refused_for_processes_only():
    def local_bot(seed):  # a closure cannot be sent to worker processes
        return RandomBot(seed)

    with pytest.raises(ValueError, match="must pickle"):
        simulate(4, players=3, bots=local_bot, seed=1, max_turns=5, workers=2, chunksize=1, progress=False)
    res = simulate(2, players=3, bots=local_bot, seed=1, max_turns=5, workers=1, progress=False)
    assert res.bots == ("local_bot",) * 3


def test_board_options():
    fixed = Board.random(seed=4)
    res = simulate(2, players=3, board=fixed, seed=1, max_turns=10, workers=1, progress=False)
    assert res.board == "random-4" and {r.board for r in res.records} == {"random-4"}
    res = simulate(3, players=4, board=small_board, seed=1, max_turns=10, workers=2, chunksize=1, progress=False)
    assert res.board == "small_board" and {r.board for r in res.records} <= {"random-0", "random-1", "random-2"}
    res = simulate(2, players=4, board="beginner", start="beginner", seed=1, max_turns=10, workers=1, progress=False)
    assert {r.board for r in res.records} == {Board.beginner().name}
    with pytest.raises(ValueError, match="board must be"):
        simulate(1, board="square", workers=1, progress=False)
    with pytest.raises(ValueError, match="seed"):
        simulate(1, seed=-1, workers=1, progress=False)


def test_five_players_play_the_extension_board():
    res = simulate(1, players=5, seed=1, max_turns=10, workers=1, progress=False)
    assert res.records[0].players == 5 and len(res.win_rates()) == 5


# ============================================================================ tables


def test_summary_tables(local_run):
    wr = local_run.win_rates()
    assert wr.columns == ("seat", "bot", "games", "wins", "win_rate", "low", "high") and len(wr) == 4
    assert sum(wr.column("wins")) + local_run.unfinished == 10
    for row in wr:
        assert row["games"] == 10 and row["low"] <= row["win_rate"] <= row["high"]
        assert math.isclose(row["win_rate"], row["wins"] / 10)
    narrow = local_run.win_rates(confidence=0.5)
    assert all(n["high"] - n["low"] < w["high"] - w["low"] for n, w in zip(narrow, wr))

    gl = local_run.game_lengths().to_records()
    assert [r["measure"] for r in gl] == ["turns", "actions"]
    turns = [r.turns for r in local_run.records]
    assert math.isclose(gl[0]["mean"], sum(turns) / 10) and gl[0]["min"] == min(turns) and gl[0]["max"] == max(turns)

    vs = local_run.vp_sources()
    assert vs.columns[3:] == ("settlements", "cities", "longest_road", "largest_army", "vp_cards", "other", "total")
    for row in vs:
        parts = sum(row[c] for c in vs.columns[3:-1])
        assert math.isclose(parts, row["total"])
    won = local_run.vp_sources(winners_only=True)
    assert sum(won.column("games")) == 10 - local_run.unfinished

    text = local_run.summary()
    assert text.startswith("10 games, 4 players, bots random") and "win rate by seat" in text
    assert "<table>" in local_run._repr_html_()


def test_records_and_columns(local_run):
    rows = local_run.to_records()
    assert len(rows) == 10 and rows[3]["index"] == 3
    assert {"vp_0", "vp_3", "bot_0", "winner", "turns", "finished", "vp_cities_2"} <= set(rows[0])
    seat_rows = local_run.to_records("seat")
    assert len(seat_rows) == 40 and seat_rows[5]["game"] == 1 and seat_rows[5]["seat"] == 1
    assert sum(r["won"] for r in seat_rows) == 10 - local_run.unfinished
    cols = local_run.to_columns("seat")
    assert len(cols["vp"]) == 40 and cols["seat"][:4] == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        local_run.to_records("hex")


def test_pandas_is_optional(local_run):
    pd = pytest.importorskip("pandas")
    df = local_run.to_pandas("seat")
    assert isinstance(df, pd.DataFrame) and len(df) == 40
    assert list(local_run.win_rates().to_pandas().columns) == list(local_run.win_rates().columns)


def test_table_basics():
    t = Table(["a", "b"], [(1, 0.5), (22, None)], title="t")
    assert str(t).splitlines() == ["t", " a      b", " 1  0.500", "22"]
    assert t.to_columns() == {"a": [1, 22], "b": [0.5, None]} and t.column("b") == [0.5, None]
    with pytest.raises(ValueError):
        Table(("a",), [(1, 2)])


def test_progress_bar_goes_to_stderr(capsys):
    simulate(2, players=3, seed=1, max_turns=3, workers=1, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "2/2" in err

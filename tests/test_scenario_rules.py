"""A scenario board means its rules (issue 36 item 1; SF-13, SC-13): whatever builds a game from a
board file that names rule modules (``scenario.modules``) plays with them, and a save names the
Python module behind each of its rule modules."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import with_modules

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, simulate
from catan_nb.analysis.bots import play_game
from catan_nb.analysis.placement import simulate_openings
from catan_nb.analysis.simulation import GameRecord, _spec, _use_fast, game_seeds
from catan_nb.board import BOARDS_DIR
from catan_nb.cli import main
from catan_nb.errors import BoardFileError, SaveFileError
from catan_nb.rules import Rules
from catan_nb.rules.modules import resolve

ROOT = Path(__file__).resolve().parent.parent


def _scenarios() -> dict[str, tuple[str, ...]]:
    """Every shipped board file that names rule modules, with them (read from the JSON itself)."""
    out = {}
    for path in sorted(BOARDS_DIR.glob("*.json")):
        data = json.loads(path.read_text())
        modules = data.get("scenario", {}).get("modules") if isinstance(data, dict) else None
        if modules:
            out[path.name] = tuple(modules)
    return out


SCENARIOS = _scenarios()


def _players(name: str) -> list[int]:
    """The player counts a scenario board allows (its ``scenario.players``, else 3 and 4)."""
    data = json.loads((BOARDS_DIR / name).read_text())
    return list(data["scenario"].get("players", [3, 4]))


def _chosen(modules, players: int) -> tuple[str, ...]:
    """The modules a game with ``modules`` plays besides the built-ins: with what they require and
    what the player count implies (brute force over the registry, apart from the engine's check)."""
    from catan_nb.rules.modules import MODULES

    return tuple(n for n in resolve(tuple(modules), players) if not MODULES[n].builtin)


def test_the_shipped_scenarios_are_found():
    assert {"seafarers_islands.json", "seafarers_fog.json", "seafarers_great_catan.json", "seafarers_harbours.json",
            "corsica.json", "new_york.json"} <= set(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_SF_13_SC_13_a_game_on_a_scenario_board_plays_its_modules(name):
    board = Board.load(BOARDS_DIR / name)
    for players in _players(name):
        g = Game(board, players=players, seed=1)
        implied = {"five_six"} if players >= 5 else set()  # X56-GEN-1: brought in by the player count
        assert set(SCENARIOS[name]) | implied <= set(g.rules.modules) == set(_chosen(SCENARIOS[name], players))
        assert g.rules == Game(board, players=players, seed=1, rules=Rules.for_board(board)).rules
        assert [m.name for m in g.modules] == list(resolve(SCENARIOS[name], players))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_SF_13_rules_without_a_module_of_the_board_are_refused(name):
    """Every proper subset of the board's modules: refused exactly when the subset, with what its
    modules require, lacks one of them; the message names the board, each missing module and the fix."""
    board = Board.load(BOARDS_DIR / name)
    wanted = SCENARIOS[name]
    players = _players(name)[0]
    for k in range(len(wanted)):
        for subset in itertools.combinations(wanted, k):
            rules = Rules(modules=subset, vp_to_win=9)
            missing = [m for m in wanted if m not in resolve(subset, players)]
            if not missing:
                assert Game(board, players=players, seed=1, rules=rules).rules.vp_to_win == 9
                continue
            with pytest.raises(BoardFileError) as err:
                Game(board, players=players, seed=1, rules=rules)
            text = str(err.value)
            assert err.value.field == "scenario.modules" and name in text and "Rules.for_board(board" in text
            named = re.search(r"played with the modules? (.*?), which rules=", text).group(1)
            assert named == ", ".join(map(repr, missing)), text


def test_SF_13_extra_modules_and_options_are_kept():
    islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
    g = Game(islands, players=3, seed=1, rules=Rules(modules=("seafarers", "cities_knights"), vp_to_win=8))
    assert g.rules.modules == ("seafarers", "cities_knights") and g.vp_target == 8
    fog = Board.load(BOARDS_DIR / "seafarers_fog.json")
    g = Game(fog, players=4, seed=1, rules=Rules.for_board(fog, modules=("friends",), steal_mandatory=True))
    assert g.rules.modules == _chosen(("seafarers", "fog", "treasure", "friends"), 4) and g.rules.steal_mandatory
    assert "friends" in g.rules.modules


def test_X56_GEN_1_five_and_six_players_on_a_scenario_board():
    corsica = Board.load(BOARDS_DIR / "corsica.json")
    for players in (5, 6):
        implicit = Game(corsica, players=players, seed=1)
        explicit = Game(corsica, players=players, seed=1, rules=Rules(modules=("corsica_new_york",)))
        assert implicit.rules == explicit.rules and set(implicit.rules.modules) == {"five_six", "corsica_new_york"}
        assert any(m.name == "five_six" for m in implicit.modules)
    # a board naming five_six itself: the player count brings it, so rules without it are fine
    board = with_modules(Board.five_six(), "five_six")
    assert "five_six" in Game(board, players=5, seed=1, rules=Rules()).rules.modules


def test_a_board_naming_an_unknown_module_is_refused_either_way():
    board = with_modules(Board.beginner(), "no_such_module")
    for rules in (None, Rules()):
        with pytest.raises(BoardFileError, match="scenario.modules.*no_such_module"):
            Game(board, players=4, seed=1, rules=rules)


# ---------------------------------------------------------------- what builds games from a board
class _Recording(RandomBot):
    """A random bot that notes the modules of every game it plays in."""

    seen: set = set()

    def choose(self, game):
        _Recording.seen.add(game.rules.modules)
        return super().choose(game)


def test_SF_13_simulate_plays_the_scenario(monkeypatch):
    islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
    _Recording.seen = set()
    simulate(2, players=3, bots=_Recording, board=islands, seed=3, max_turns=4, workers=1, progress=False)
    assert _Recording.seen == {("seafarers",)}
    _Recording.seen = set()
    simulate(1, players=3, bots=_Recording, board=lambda seed: islands, seed=3, max_turns=2, workers=1, progress=False)
    assert _Recording.seen == {("seafarers",)}
    with pytest.raises(BoardFileError, match="'seafarers'"):
        simulate(1, players=3, board=islands, rules=Rules(), max_turns=2, workers=1, progress=False)
    # the compiled kernel plays the base game only: asked to play whenever it can, it leaves the
    # scenario to the engine, whose records are those of games played with the board's rules
    from catan_nb import fast

    monkeypatch.setenv("CATAN_NB_FAST", "1")
    assert not _use_fast(_spec(3, "random", islands, 3, 6, None, "founding", 0), 10**6).fast
    assert _use_fast(_spec(3, "random", Board.beginner(), 3, 6, None, "founding", 0), 10**6).fast == fast.available()
    for board in (islands, lambda seed: islands):  # a factory's boards are known only when made
        res = simulate(2, players=3, bots="random", board=board, seed=3, max_turns=6, workers=1, progress=False)
        for i, rec in enumerate(res.records):
            _, game_seed, bot_seeds = game_seeds(3, i, 3)
            g = Game(islands, players=3, seed=game_seed, rules=Rules.for_board(islands))
            play_game(g, [RandomBot(s) for s in bot_seeds], max_turns=6)
            assert rec == GameRecord.from_game(g, index=i, bots=("random",) * 3)


def test_SF_13_the_kernel_does_not_cover_a_scenario():
    from catan_nb import fast

    for name in SCENARIOS:
        board = Board.load(BOARDS_DIR / name)
        problem = fast.covered(None, _players(name)[0], board=board)
        assert problem is not None and repr(SCENARIOS[name][0]) in problem
    assert fast.covered(None, 4, board=Board.beginner()) is None
    if fast.available():
        islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
        with pytest.raises(ValueError, match="'seafarers'"):
            fast.play_exact(islands, 3, game_seeds=[1], bot_seeds=[[1, 2, 3]])
        with pytest.raises(ValueError, match="'friends'"):  # every board of a call, not only the first
            fast.play([Board.beginner(), with_modules(Board.beginner(), "friends")], 4, seeds=[1, 2])
        from catan_nb.fast.vector_env import CatanVectorEnv

        with pytest.raises(ValueError, match="'seafarers'.*CatanEnv"):
            CatanVectorEnv(2, players=3, board=islands)


def test_SF_13_simulate_openings_plays_the_scenario():
    islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
    _Recording.seen = set()
    sims = simulate_openings(islands, 0, top=1, playouts=2, players=3, bot=_Recording, max_turns=3, progress=False)
    assert len(sims) == 1 and _Recording.seen == {("seafarers",)}


def test_SF_13_the_table_the_explorer_and_the_environments_play_the_scenario():
    from catan_nb.envs import CatanAECEnv
    from catan_nb.widgets import GameTable
    from catan_nb.widgets.explorers import LongestRoadExplorer

    fog = Board.load(BOARDS_DIR / "seafarers_fog.json")
    modules = _chosen(("seafarers", "fog", "treasure"), 3)
    assert GameTable(fog, seats=["human"] * 3, seed=1, bot_delay=None).game.rules.modules == modules
    table = GameTable(fog, seats=["human"] * 3, seed=1, bot_delay=None, trade_after_building=True)
    assert table.game.rules.combined_trade_build and table.game.rules.modules == modules
    with pytest.raises(BoardFileError, match="'treasure'"):
        GameTable(fog, seats=["human"] * 3, seed=1, bot_delay=None, rules=Rules(modules=("seafarers", "fog")))
    lr = LongestRoadExplorer(Board.load(BOARDS_DIR / "seafarers_islands.json"), players=3, seed=2)
    assert lr.game.rules.modules == ("seafarers",) and lr.game.vp_target == LongestRoadExplorer.VP_TARGET
    env = CatanAECEnv(players=3, board=fog)
    env.reset(seed=4)
    assert env.rules == Rules.for_board(fog) and env.game.rules.modules == modules
    with pytest.raises(BoardFileError, match="'fog', 'treasure'"):
        CatanAECEnv(players=3, board=fog, rules=Rules(modules=("seafarers",)))


def test_SF_13_the_command_line_plays_a_scenario_file(capsys):
    path = str(BOARDS_DIR / "seafarers_fog.json")
    argv = ["simulate", "--board", path, "--games", "1", "--players", "3", "--max-turns", "3", "--workers", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "rule modules of the board's scenario: seafarers, fog, treasure"
    great = str(BOARDS_DIR / "seafarers_great_catan.json")
    assert main(["simulate", "--board", great, "--games", "1", "--players", "5", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("catan-nb: error: ") and "Traceback" not in err, err
    assert "seafarers_great_catan.json" in err and "3 or 4 players" in err


# ---------------------------------------------------------------- saves
def _shearing_save() -> dict:
    from catan_nb.examples.shearing import NAME

    g = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=(NAME, "friends")))
    g.play(g.legal_actions()[0])
    return g.to_dict()


def test_a_save_names_the_python_module_of_each_rule_module():
    data = _shearing_save()
    assert data["module_sources"] == {"shearing_example": "catan_nb.examples.shearing",
                                      "friends": "catan_nb.rules.modules.friends"}
    assert "module_sources" not in Game(Board.beginner(), seed=1).to_dict()  # the base game's saves as before
    old = {k: v for k, v in data.items() if k != "module_sources"}  # a save made before the field
    assert Game.from_json(old).state() == Game.from_json(data).state()


def _run(code: str, cwd: Path) -> subprocess.CompletedProcess:
    """``code`` in a new Python process (whose registered modules are only those it imports)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(cwd)])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


def test_a_catan_nb_rule_module_is_imported_by_the_save(tmp_path):
    path = tmp_path / "shearing.json"
    path.write_text(json.dumps(_shearing_save()))
    done = _run("import sys\nfrom catan_nb import Game\n"
                "assert 'catan_nb.examples.shearing' not in sys.modules\n"
                f"g = Game.load({str(path)!r})\n"
                "print(g.rules.modules, 'catan_nb.examples.shearing' in sys.modules)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "('shearing_example', 'friends') True"


def test_an_unregistered_rule_module_of_a_user_file_is_named_with_its_python_module(tmp_path):
    (tmp_path / "my_rules_36.py").write_text(
        "from catan_nb.rules.modules import Module, register\n\n\n"
        "@register\nclass Quiet(Module):\n    name = 'quiet_36'\n")
    save = tmp_path / "quiet.json"
    made = _run("import my_rules_36\nfrom catan_nb import Board, Game\nfrom catan_nb.rules import Rules, EndTurn\n"
                "g = Game(Board.beginner(), seed=2, start='beginner', rules=Rules(modules=('quiet_36',)))\n"
                f"g.save({str(save)!r})", tmp_path)
    assert made.returncode == 0, made.stderr
    assert json.loads(save.read_text())["module_sources"] == {"quiet_36": "my_rules_36"}
    loaded = _run("from catan_nb import Game\nfrom catan_nb.errors import SaveFileError\n"
                  f"try:\n    Game.load({str(save)!r})\nexcept SaveFileError as exc:\n    print(exc.field, '|', exc)\n"
                  f"import my_rules_36\nprint(Game.load({str(save)!r}).rules.modules)", tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    first, second = loaded.stdout.strip().splitlines()
    assert first.startswith("rules.modules | ") and str(save) in first
    assert "'quiet_36' is not registered" in first and "import my_rules_36 first" in first
    assert second == "('quiet_36',)"


@pytest.mark.parametrize("sources,hint", [
    ({"ghost": "their_pkg.ghost"}, "import their_pkg.ghost first"),
    ({"ghost": "__main__"}, "defined in a notebook or script"),
    ({}, "import the Python module that defines it"),  # an old save: no module_sources
    ({"ghost": "catan_nb.__main__"}, "import catan_nb.__main__ first"),  # never imported by a save
])
def test_an_unregistered_rule_module_gives_a_clear_save_file_error(sources, hint):
    data = _shearing_save()
    data["rules"]["modules"] = ["ghost"]
    data["module_sources"] = sources
    with pytest.raises(SaveFileError) as err:
        Game.from_json(data, source="ghost.json")
    assert err.value.field == "rules.modules" and "'ghost'" in str(err.value) and hint in str(err.value)
    assert "catan_nb.__main__" not in sys.modules


def test_module_sources_that_do_not_register_the_module_are_refused():
    data = _shearing_save()
    data["rules"]["modules"] = ["ghost"]
    for sources, field in [({"ghost": "catan_nb.analysis"}, "module_sources.ghost"),
                           ({"ghost": "catan_nb.no_such_thing"}, "module_sources.ghost"),
                           ({"ghost": "not a module"}, "module_sources"), (["ghost"], "module_sources")]:
        data["module_sources"] = sources
        with pytest.raises(SaveFileError) as err:
            Game.from_json(data, source="ghost.json")
        assert err.value.field == field and "ghost.json" in str(err.value)


def test_an_old_save_of_a_scenario_board_played_without_its_modules_replays_as_played():
    """A game saved before scenario boards brought their rules (the islands board, base rules):
    it replays as it was played, with a warning that names the modules it lacks."""
    islands = Board.load(BOARDS_DIR / "seafarers_islands.json")
    bare = with_modules(islands)
    g = Game(bare, players=3, seed=5)
    for _ in range(30):
        g.apply(RandomBot(len(g.log)).choose(g))
    data = g.to_dict()
    data["board"] = islands.to_dict()  # the board as its file is now: it names seafarers
    with pytest.warns(UserWarning, match="old.json.*'seafarers'.*replayed as it was played"):
        h = Game.from_json(data, source="old.json")
    assert h.rules.modules == () and h.board == islands
    assert {k: v for k, v in h.state().items() if k != "board"} == {k: v for k, v in g.state().items() if k != "board"}

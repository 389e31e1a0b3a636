"""The catan-nb command line: main([...]) prints tables and writes files."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import subprocess
import sys

import pytest

from catan_nb import Board, Game
from catan_nb.analysis.bots import WeightedBot, play_game
from catan_nb.analysis.longest_road import longest_road
from catan_nb.cli import CommandError, main, parse_board

def fails(capsys, argv, match: str) -> str:
    """Issue 9: a bad input is one line on stderr (no traceback) and exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("catan-nb: error: ") and "Traceback" not in err, err
    assert re.search(match, err), err
    return err


SIM = ["simulate", "--games", "3", "--players", "3", "--seed", "2", "--max-turns", "40", "--workers", "1"]


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory):
    game = Game(Board.random(seed=6), players=4, seed=6)
    play_game(game, [WeightedBot(p) for p in range(4)], max_turns=80)
    path = tmp_path_factory.mktemp("games") / "game.json"
    game.save(path)
    return path, game


def test_simulate_prints_the_summary(capsys):
    assert main(SIM) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games, 3 players, bots random, board random, seed 2, max_turns 40")
    assert "win rate by seat" in out and "game length" in out and "mean VP by source" in out
    main(SIM)
    assert capsys.readouterr().out == out  # seeded: the same table again


def test_simulate_writes_records(tmp_path, capsys):
    out_csv = tmp_path / "games.csv"
    main([*SIM, "--bots", "weighted,random,random", "--workers", "2", "-o", str(out_csv)])
    assert f"wrote 3 rows to {out_csv}" in capsys.readouterr().out
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 3 and rows[0]["bot_0"] == "weighted" and rows[2]["index"] == "2"
    out_json = tmp_path / "seats.json"
    main([*SIM, "--board", "beginner", "--per-seat", "-o", str(out_json)])
    data = json.loads(out_json.read_text())
    assert data["level"] == "seat" and data["board"] == "beginner" and len(data["rows"]) == 9
    assert {"game", "seat", "won", "vp"} <= set(data["rows"][0])


def test_simulate_rejects_bad_bots(capsys):
    fails(capsys, [*SIM, "--bots", "smart"], "unknown bot 'smart'")
    fails(capsys, [*SIM, "--bots", "random,weighted"], "one kind or 3")


def test_openings(tmp_path, capsys):
    assert main(["openings", "--board", "random:3", "--seat", "1", "--top", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("best openings for seat 1 of 4 on random-3") and len(out) == 5
    assert out[1].split()[:4] == ["rank", "first", "second", "score"]
    path = tmp_path / "openings.json"
    main(["openings", "--top", "2", "--opponents", "none", "-o", str(path)])
    data = json.loads(path.read_text())
    assert data["board"] == "beginner" and [r["rank"] for r in data["rows"]] == [1, 2]
    assert {"first", "second", "score", "resources"} <= set(data["rows"][0])


def test_picture_html(tmp_path, capsys):
    out = tmp_path / "board.html"
    assert main(["picture", "--board", "random:7", "--palette", "colorblind", "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    html = out.read_text()
    assert "plotly" in html.lower() and "hills" in html


def test_picture_png_needs_kaleido(tmp_path, monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "kaleido" else real(name, *a))
    fails(capsys, ["picture", "-o", str(tmp_path / "board.png")],
          r"needs the kaleido package, the \[image\] extra: pip install \"catan-nb\[image\]\".*-o .*board\.html")
    assert not (tmp_path / "board.png").exists()


@pytest.mark.skipif(importlib.util.find_spec("kaleido") is None, reason="kaleido is not installed")
def test_picture_png_with_kaleido(tmp_path):
    out = tmp_path / "board.png"
    if main(["picture", "--board", "beginner", "--width", "500", "--height", "400", "-o", str(out)]) != 0:
        pytest.skip("kaleido present but no usable Chromium on this machine")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_picture_of_a_saved_game_with_its_longest_road(tmp_path, saved_game, capsys):
    path, game = saved_game
    out = tmp_path / "road.html"
    seat = max(range(4), key=game.longest_road)
    main(["picture", "--game", str(path), "--longest-road", str(seat), "-o", str(out)])
    assert f"longest road {game.longest_road(seat)}" in out.read_text()
    fails(capsys, ["picture", "--longest-road", "0", "-o", str(out)], "needs --game")


def test_longest_road_command(tmp_path, capsys, saved_game):
    path, game = saved_game
    main(["longest-road", "--game", str(path)])
    lines = capsys.readouterr().out.splitlines()
    heads = [line for line in lines if not line.startswith(" ")]
    assert len(heads) == 4
    for p, line in enumerate(heads):
        assert line.startswith(f"{game.colours[p]}: longest road {longest_road(game, p).length}")
    out = tmp_path / "lr.html"
    main(["longest-road", "--game", str(path), "--seat", "1", "-o", str(out)])
    assert out.exists() and capsys.readouterr().out.startswith(f"{game.colours[1]}: longest road")
    fails(capsys, ["longest-road", str(path), "--seat", "5"], "seats 0..3")
    fails(capsys, ["longest-road", str(path), "--seat", "7"], "out of range")


def test_bad_inputs_exit_with_a_message(tmp_path, capsys):
    with pytest.raises(CommandError, match="random:SEED"):
        parse_board("random:x")
    with pytest.raises(CommandError, match="not 'beginner'"):
        parse_board(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(CommandError, match="bad.json"):
        parse_board(str(bad))
    fails(capsys, ["picture", "-o", str(tmp_path / "board.txt")], "use .html")
    fails(capsys, ["openings", "--top", "1", "-o", str(tmp_path / "x.xlsx")], "use a .csv or .json")
    fails(capsys, ["longest-road", "--game", str(tmp_path / "game.json")], "game.json")
    fails(capsys, [], "required: COMMAND")

def test_python_dash_m(tmp_path):
    done = subprocess.run([sys.executable, "-m", "catan_nb", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("catan-nb ")


BAD_ARGUMENTS = [
    (["simulate", "--players", "9"], "out of range"),
    (["simulate", "--players", "two"], "not a whole number"),
    (["simulate", "--games", "-1"], "out of range"),
    (["simulate", "--workers", "0"], "out of range"),
    (["simulate", "--seed", "-5"], "out of range"),
    (["simulate", "--max-turns", "0"], "out of range"),
    (["simulate", "--bots", ""], "one kind"),
    (["simulate", "--board", "random:1:moon", "--games", "1"], "layout"),
    (["openings", "--top", "-3"], "out of range"),
    (["openings", "--top", "0"], "out of range"),
    (["openings", "--seat", "4", "--players", "4"], "seat"),
    (["openings", "--players", "2"], "out of range"),
    (["openings", "--board", "random:"], "random:SEED"),
    (["picture", "--width", "0", "-o", "x.html"], "out of range"),
    (["picture"], "required: -o"),
    (["longest-road"], "which saved game"),
    (["longest-road", "a.json", "--game", "b.json"], "once"),
    (["frobnicate"], "invalid choice"),
    (["simulate", "--no-such-flag"], "unrecognized"),
]


@pytest.mark.parametrize("argv,match", BAD_ARGUMENTS, ids=lambda x: " ".join(x) if isinstance(x, list) else None)
def test_every_bad_argument_is_one_line_and_status_2(argv, match, capsys):
    fails(capsys, argv, match)


def test_bad_files_are_one_line(tmp_path, capsys):
    cases = {
        "latin1.json": "café".encode("latin-1"),
        "list.json": b"[1, 2]",
        "deep.json": b"[" * 1500 + b"]" * 1500,
        "truncated.json": b'{"format": "catan_nb.game", "vers',
        "binary.json": bytes(range(256)),
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        fails(capsys, ["longest-road", str(path)], name.split(".")[0] if False else re.escape(name))
        fails(capsys, ["openings", "--board", str(path)], re.escape(name))
    fails(capsys, ["longest-road", str(tmp_path)], "no such file")  # a folder


def _readme_cli_examples() -> list[str]:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"`(catan-nb [^`]+)`", text)))


def test_every_readme_example_runs_as_written(tmp_path, monkeypatch, capsys, saved_game):
    """Issue 9: each `catan-nb ...` example in the README runs as written (game.json is a saved game)."""
    examples = _readme_cli_examples()
    assert examples, "the README shows no command-line example"
    path, _game = saved_game
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_bytes(path.read_bytes())
    for line in examples:
        argv = line.split()[1:]
        if "--games" in argv:  # keep the CI run short: the same command, fewer games
            argv[argv.index("--games") + 1] = "4"
        if "--workers" in argv:
            argv[argv.index("--workers") + 1] = "1"
        if argv[0] == "app":  # a server: check the command it would start instead
            from catan_nb.cli import app_command

            assert app_command()[0][1:3] == ["-m", "voila"]
            continue
        code = main(argv)
        err = capsys.readouterr().err
        if code != 0 and any(argv[-1].endswith(x) for x in (".png", ".svg")) and "kaleido" in err:
            continue  # an image format that needs kaleido with a Chromium
        assert code == 0, f"{line}: {err}"


def test_console_script_and_module_give_one_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "catan_nb", "longest-road", str(tmp_path / "nope.json")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_app_command_serves_the_table_with_the_offline_template(capsys):
    """Issue 12 item 8: `catan-nb app` runs Voila on the packaged app notebook with the catan template."""
    import os
    from pathlib import Path

    from catan_nb.cli import app_command

    argv, env = app_command(port=8999)
    assert argv[1:4] == ["-m", "voila", "--template=catan"] and "--port=8999" in argv
    assert Path(argv[-1]).name == "app.ipynb" and Path(argv[-1]).is_file()
    root = Path(env["JUPYTER_PATH"].split(os.pathsep)[0])
    template = (root / "voila" / "templates" / "catan" / "index.html.j2").read_text()
    assert "fontawesome" in template and "replace(" in template  # the CDN links are taken out
    assert main(["app", "no/such/notebook.ipynb"]) == 2
    assert "no such notebook" in capsys.readouterr().err

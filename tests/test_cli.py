"""The catan-nb command line: main([...]) prints tables and writes files."""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys

import pytest

from catan_nb import Board, Game
from catan_nb.analysis.bots import WeightedBot, play_game
from catan_nb.analysis.longest_road import longest_road
from catan_nb.cli import main, parse_board

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


def test_simulate_rejects_bad_bots():
    with pytest.raises(SystemExit, match="unknown bot 'smart'"):
        main([*SIM, "--bots", "smart"])
    with pytest.raises(SystemExit, match="one kind or 3"):
        main([*SIM, "--bots", "random,weighted"])


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


def test_picture_png_needs_kaleido(tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "kaleido" else real(name, *a))
    with pytest.raises(SystemExit, match=r"needs the kaleido package.*-o .*board\.html"):
        main(["picture", "-o", str(tmp_path / "board.png")])
    assert not (tmp_path / "board.png").exists()


@pytest.mark.skipif(importlib.util.find_spec("kaleido") is None, reason="kaleido is not installed")
def test_picture_png_with_kaleido(tmp_path):
    out = tmp_path / "board.png"
    try:
        main(["picture", "--board", "beginner", "--width", "500", "--height", "400", "-o", str(out)])
    except SystemExit as exc:  # kaleido present but no usable Chromium on this machine
        pytest.skip(str(exc))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_picture_of_a_saved_game_with_its_longest_road(tmp_path, saved_game):
    path, game = saved_game
    out = tmp_path / "road.html"
    seat = max(range(4), key=game.longest_road)
    main(["picture", "--game", str(path), "--longest-road", str(seat), "-o", str(out)])
    assert f"longest road {game.longest_road(seat)}" in out.read_text()
    with pytest.raises(SystemExit, match="needs --game"):
        main(["picture", "--longest-road", "0", "-o", str(out)])


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
    with pytest.raises(SystemExit, match="seats 0..3"):
        main(["longest-road", "--game", str(path), "--seat", "7"])


def test_bad_inputs_exit_with_a_message(tmp_path):
    with pytest.raises(SystemExit, match="random:SEED"):
        parse_board("random:x")
    with pytest.raises(SystemExit, match="not 'beginner'"):
        parse_board(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(SystemExit, match="bad.json"):
        parse_board(str(bad))
    with pytest.raises(SystemExit, match="use .html"):
        main(["picture", "-o", str(tmp_path / "board.txt")])
    with pytest.raises(SystemExit, match="use a .csv or .json"):
        main(["openings", "--top", "1", "-o", str(tmp_path / "x.xlsx")])
    with pytest.raises(SystemExit, match="game.json"):
        main(["longest-road", "--game", str(tmp_path / "game.json")])
    with pytest.raises(SystemExit) as info:
        main([])  # a subcommand is required
    assert info.value.code == 2


def test_python_dash_m(tmp_path):
    done = subprocess.run([sys.executable, "-m", "catan_nb", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("catan-nb ")

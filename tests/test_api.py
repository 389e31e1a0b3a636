"""The public API: saved games, information sets, action values, determinism, errors."""

from __future__ import annotations

import dataclasses
import enum
import json
import re
import types
import typing
from pathlib import Path

import pytest
from helpers import deal

import catan_nb
import catan_nb.constants
from catan_nb import Board, DevCard, Game, Resource, SaveFileError
from catan_nb.analysis import RandomBot, WeightedBot, play_game
from catan_nb.errors import CatanError, IllegalActionError
from catan_nb.rules import (
    ACTION_TYPES,
    BuildRoad,
    BuyDevelopmentCard,
    EndTurn,
    Phase,
    PlayMonopoly,
    RollDice,
    Rules,
    action_from_json,
    action_to_json,
)

ROOT = Path(__file__).resolve().parent.parent
def _enums(base) -> dict[str, type]:
    out = {}
    for cls in base.__subclasses__():
        out[cls.__name__] = cls
        out.update(_enums(cls))
    return out


ENUMS = _enums(catan_nb.constants.NamedEnum)


def played_game(seed=3, players=4) -> Game:
    game = Game(Board.random(seed=seed), players=players, seed=seed)
    return play_game(game, [RandomBot(seed + p) for p in range(players)])


def test_error_hierarchy_is_value_error():
    for cls in (IllegalActionError, catan_nb.BoardFileError, SaveFileError):
        assert issubclass(cls, CatanError) and issubclass(cls, ValueError)


def _sample(hint):
    """A non-default value of a field's type, built from the type hint."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(args[0]), _sample(args[0]))
        return tuple(_sample(a) for a in args)
    if hint is catan_nb.constants.Good:  # any registered good
        return catan_nb.constants.Commodity.PAPER
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return list(hint)[-1]
    return "x" if hint is str else 3


@pytest.mark.parametrize("name", sorted(ACTION_TYPES))
def test_every_action_kind_round_trips_through_json_and_repr(name):
    """Every action kind (modules' too) is a frozen value that round-trips through JSON and repr."""
    cls = ACTION_TYPES[name]
    hints = typing.get_type_hints(cls)
    action = cls(**{f.name: _sample(hints[f.name]) for f in dataclasses.fields(cls)})
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
    namespace = vars(catan_nb.rules) | ACTION_TYPES | {"Resource": Resource, "DevCard": DevCard}
    assert eval(repr(action), namespace | ENUMS) == action
    with pytest.raises(Exception):
        action.__setattr__("x", 1)  # frozen


def test_action_from_json_rejects_unknown_types_and_fields():
    with pytest.raises(ValueError, match="unknown action type"):
        action_from_json({"type": "Teleport"})
    with pytest.raises(ValueError, match="no field"):
        action_from_json({"type": "BuildRoad", "path": 1, "colour": "red"})


def test_save_load_round_trip_finished_game(tmp_path):
    game = played_game()
    path = tmp_path / "game.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state() == game.state()
    assert loaded.winner == game.winner and loaded.is_over


def test_save_load_mid_phase_positions():
    """Saved games in the middle of every kind of pending decision load identically."""
    seen = set()
    for seed in range(40):
        game = Game(Board.random(seed=seed), players=4, seed=seed)
        bots = [RandomBot(seed * 10 + p, offers=True) for p in range(4)]
        while not game.is_over and game.turn < 400:
            game.apply(bots[game.current_player].choose(game))
            if game.phase not in seen and game.phase not in (Phase.MAIN, Phase.ROLL):
                seen.add(game.phase)
                assert Game.from_json(game.to_json()).state() == game.state(), game.phase
        if len(seen) >= 7:
            break
    assert {Phase.DISCARD, Phase.MOVE_ROBBER, Phase.TRADE_RESPONSE, Phase.ROAD_BUILDING} <= seen


def board_hex(game, r, c):
    return game.board.hex_at(r, c).id


def test_replay_is_deterministic_from_seed_and_actions():
    """The same seed and actions give the same game; another seed gives another."""
    a, b = played_game(seed=11), played_game(seed=11)
    assert a.state() == b.state()
    assert played_game(seed=12).state() != a.state()


def test_recorded_outcomes_are_in_the_log():
    game = Game(Board.beginner(), players=4, seed=2, start="beginner")
    game.play(RollDice())
    assert game.log[-1].dice is not None and game.log[-1].dice == game.dice_history[-1]
    deal(game, 0, ore=1, wool=1, grain=1)
    if game.phase is Phase.MAIN:
        game.play(BuyDevelopmentCard())
        assert isinstance(game.log[-1].card, DevCard)


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d.update(format="chess"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["board"]["hexes"][0].update(terrain="lava"), "board.hexes[0].terrain"),
        (lambda d: d["actions"].insert(0, {"type": "Teleport"}), "actions[0]"),
        (lambda d: d["actions"].insert(3, {"type": "EndTurn"}), "actions[3]"),
        (lambda d: d.update(rules={"no_such_option": True}), "rules"),
    ],
)
def test_bad_save_file_names_file_and_field(tmp_path, mutate, field):
    """A bad save file raises SaveFileError naming the file and the field."""
    data = json.loads(played_game().to_json())
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveFileError) as info:
        Game.load(path)
    assert str(path) in str(info.value) and field in str(info.value)


def test_bad_save_file_illegal_action_names_rule(tmp_path):
    game = Game(Board.beginner(), players=4, seed=1, start="beginner")
    data = game.to_dict()
    data["actions"] = [{"type": "BuildRoad", "path": 0}]
    with pytest.raises(SaveFileError, match=r"actions\[0\].*B-TURN-3"):
        Game.from_json(json.dumps(data), source="x.json")


def test_not_json_save_file():
    with pytest.raises(SaveFileError, match="invalid JSON"):
        Game.from_json("{nope", source="broken.json")


def test_player_view_hides_opponents_cards():
    """B-SETUP-7: hand contents are hidden, card counts are public; VP cards stay hidden."""
    game = Game(Board.beginner(), players=4, seed=5, start="beginner")
    game.play(RollDice((2, 2)))
    deal(game, 0, ore=1, wool=1, grain=1)
    game.play(BuyDevelopmentCard(card=DevCard.VICTORY_POINT))
    mine, theirs = game.view(0), game.view(1)
    assert mine.dev_cards[DevCard.VICTORY_POINT] == 1
    assert theirs.dev_cards == {c: 0 for c in DevCard}  # seat 1's own cards only
    assert theirs.dev_counts[0] == 1 and theirs.card_counts == tuple(sum(h) for h in game.hands)
    assert theirs.visible_vp[0] == mine.own_vp - 1
    assert mine.legal_actions and not theirs.legal_actions
    assert not hasattr(theirs, "hands")


def test_copy_is_independent():
    game = Game(Board.beginner(), players=4, seed=5, start="beginner")
    clone = game.copy()
    clone.play(RollDice((3, 3)))
    assert game.phase is Phase.ROLL and clone.phase is Phase.MAIN
    assert game.state() != clone.state()
    game.play(RollDice((3, 3)))
    assert game.state() == clone.state()


def test_bots_only_choose_legal_actions():
    for bot_cls in (RandomBot, WeightedBot):
        game = Game(Board.random(seed=4), players=3, seed=4)
        play_game(game, [bot_cls(p) for p in range(3)], checked=True)
        assert game.is_over


def test_play_rejects_non_actions_and_after_game_over():
    game = played_game(seed=1)
    with pytest.raises(IllegalActionError, match="B-END-3"):
        game.play(EndTurn())
    fresh = Game(Board.beginner(), players=4, seed=1, start="beginner")
    with pytest.raises(IllegalActionError):
        fresh.play("roll")  # type: ignore[arg-type]


def test_game_argument_errors():
    with pytest.raises(ValueError, match="3 or 4 players"):
        Game(Board.beginner(), players=2)
    with pytest.raises(ValueError, match="start"):
        Game(Board.beginner(), start="middle")


def test_rules_options_saved_with_the_game():
    game = Game(Board.beginner(), players=3, seed=1, start="beginner", rules=Rules(steal_mandatory=True))
    assert Game.from_json(game.to_json()).rules == Rules(steal_mandatory=True)


def test_readme_examples_run():
    """Every Python block of the README runs as written, in order."""
    text = (ROOT / "README.md").read_text()
    namespace = {"print": lambda *a, **k: None}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(block, "README.md", "exec"), namespace)


def test_board_and_game_display_as_the_figure():
    """Board and Game show themselves as the plotly figure (viz imported lazily)."""
    board = Board.beginner()
    for obj in (board, Game(board, players=4, seed=1, start="beginner")):
        bundle = obj._repr_mimebundle_()
        assert "application/vnd.plotly.v1+json" in bundle


def test_monopoly_action_value_equality():
    assert PlayMonopoly(Resource.ORE) == PlayMonopoly(Resource.ORE)
    assert hash(BuildRoad(3)) == hash(BuildRoad(3))


def test_the_package_names_load_on_first_use():
    """``import catan_nb`` loads no layer (issue 40: a kernel-only job pays for none); its public
    names, ``__all__``, ``dir()`` and the layers it used to load as attributes still work."""
    import subprocess
    import sys

    import catan_nb.rules

    own = ["Board", "Harbour", "HexTile", "Building", "Colour", "DevCard", "Resource", "Terrain", "DiceGame",
           "DiceSheet", "CatanError", "IllegalActionError", "BoardFileError", "SaveFileError", "SaveReplayError"]
    assert catan_nb.__all__ == [*own, *catan_nb.rules.__all__]
    assert set(catan_nb.__all__) <= set(dir(catan_nb))
    code = (
        "import sys\n"
        "import catan_nb\n"
        "print(sorted(m for m in sys.modules if m.startswith('catan_nb') or m == 'networkx'))\n"
        "print(catan_nb.rules.Game is catan_nb.Game, catan_nb.board.Board is catan_nb.Board)\n"
        "from catan_nb import *\n"
        "print(Game.__module__, DiceSheet.__module__, Resource.__module__, describe.__module__)\n"
        "from catan_nb import fast\n"
        "print(hasattr(catan_nb, 'no_such_name'), 'catan_nb.fast' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == [
        "['catan_nb']", "True True",
        "catan_nb.rules.game catan_nb.dicegame.sheet catan_nb.constants catan_nb.reference", "False True",
    ]

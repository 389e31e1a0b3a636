"""The Dice Game API: random playouts with invariants, save/load, errors, policies, layering."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from catan_nb.constants import Resource
from catan_nb.dicegame import (
    Build,
    DiceGame,
    DicePhase,
    EndTurn,
    Face,
    Kind,
    Roll,
    Stop,
    Swap,
    TargetPolicy,
    TradeGold,
    Variant,
    action_from_json,
    action_to_json,
    play_dice_game,
)
from catan_nb.dicegame.constants import PLUS_LARGEST_ARMY_MIN, PLUS_LONGEST_ROAD_MIN, PLUS_VP_TO_WIN, TURNS
from catan_nb.errors import IllegalActionError, SaveFileError

from test_dice_game_rules import F

PKG = Path(__file__).resolve().parent.parent / "catan_nb"


def check_invariants(g: DiceGame) -> None:
    sh = g.sheet
    for p in range(g.n):
        b = g.built[p]
        assert b & sh.start_mask
        for i in range(len(sh.structures)):
            if b >> i & 1:
                assert sh.needs_mask[i] & ~b == 0, f"{sh.structures[i].id} built without its needs"
        for w in range(len(sh.swaps)):
            if g.swaps_used[p] >> w & 1:
                assert b & sh.swap_masks[w] == sh.swap_masks[w]
    assert len(g.dice) == len(g.spent)
    if g.rolls:
        assert len(g.dice) == g.n_dice
    if g.variant is Variant.NORMAL:
        assert all(len(t) <= TURNS for t in g.track)
        if g.is_over:
            best = max(g.score(p) for p in range(g.n))
            assert g.winners == tuple(p for p in range(g.n) if g.score(p) == best)
    else:
        for p in range(g.n):
            assert g.vp(p) < PLUS_VP_TO_WIN or (g.is_over and g.winners == (p,))
        lr, la = g.longest_road_holder, g.largest_army_holder
        if lr is not None:
            assert g.road_length(lr) >= PLUS_LONGEST_ROAD_MIN
            assert all(g.road_length(q) <= g.road_length(lr) for q in range(g.n))
        if la is not None:
            assert g.knights(la) >= PLUS_LARGEST_ARMY_MIN
            assert all(g.knights(q) <= g.knights(la) for q in range(g.n))


def random_game(seed: int, variant: str, players: int, max_steps: int = 3000) -> DiceGame:
    """A game of random legal actions, checked and applied fast in parallel, with invariants after each."""
    rng = random.Random(seed)
    g = DiceGame(players, variant=variant, seed=seed)
    fast = g.copy()
    for _ in range(max_steps):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert legal
        # prefer builds and the end of the turn so that games finish
        builds = [a for a in legal if isinstance(a, (Build, Swap, TradeGold))]
        if builds and rng.random() < 0.8:
            a = rng.choice(builds)
        elif any(isinstance(a, EndTurn) for a in legal) and rng.random() < 0.3:
            a = EndTurn()
        else:
            a = rng.choice(legal)
        g.play(a)
        fast.apply(g.log[-1])
        check_invariants(g)
    assert fast.state() == g.state()
    return g


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_invariants_and_replay(seed):
    """Random legal play (normal 1-4 players, Plus 2-4): invariants hold, checked = fast path, save/load replays."""
    variant = "plus" if seed % 2 else "normal"
    players = 2 + seed % 3 if variant == "plus" else 1 + seed % 4
    g = random_game(seed, variant, players)
    assert g.is_over
    again = DiceGame.from_json(g.to_json(), source="<test>")
    assert again.state() == g.state()
    assert g.replay().state() == g.state()


def test_legal_actions_are_exactly_the_playable_ones():
    """Every listed action plays; a sample of unlisted ones raises with a rule id and changes nothing."""
    g = DiceGame(1, seed=9)
    g.built[0] |= g.sheet.mask(["K1", "K6", "R0"])
    g.play(Roll(faces=F("brick lumber gold gold ore wool")))
    legal = g.legal_actions()
    for a in legal:
        c = g.copy()
        c.play(a)
    candidates = ([Build(s.id) for s in g.sheet.structures] + [TradeGold(r) for r in Resource]
                  + [Swap(w.id, d, r) for w in g.sheet.swaps for d in range(6) for r in Resource]
                  + [Roll(keep=k) for k in [(), (0,), (0, 1, 2, 3, 4, 5)]] + [Stop(), EndTurn()])
    for a in candidates:
        if a in legal:
            continue
        before = g.state()
        with pytest.raises(IllegalActionError) as info:
            g.play(a)
        assert info.value.rule.startswith(("DG-", "DGP-")) and info.value.action == a
        assert g.state() == before


def test_actions_are_frozen_and_round_trip():
    acts = [Roll(), Roll(keep=(1, 2), faces=F("ore gold gold gold")), Stop(), Build("S3"),
            Swap("K6", 2, Resource.WOOL), Swap("K1", 0), TradeGold(Resource.BRICK), EndTurn()]
    for a in acts:
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
        assert eval(repr(a), {"Roll": Roll, "Stop": Stop, "Build": Build, "Swap": Swap, "TradeGold": TradeGold,
                              "EndTurn": EndTurn, "Face": Face, "Resource": Resource}) == a
        with pytest.raises((AttributeError, TypeError)):  # frozen (slots dataclasses raise TypeError on 3.11)
            a.keep = (9,)  # type: ignore[misc]
    for bad in [{"type": "Fly"}, {"keep": []}, {"type": "Roll", "keep": ["a"]}, {"type": "Build", "structure": 3},
                {"type": "Roll", "faces": ["diamond"]}, {"type": "Build", "structure": "R1", "extra": 1},
                {"type": "Swap", "swap": "K1", "die": True}, "text"]:
        with pytest.raises(ValueError):
            action_from_json(bad)


def test_save_and_load_a_file(tmp_path):
    g = play_dice_game(DiceGame(2, variant="plus", seed=12), [TargetPolicy(), TargetPolicy()], max_actions=80)
    path = tmp_path / "dice.json"
    g.save(path)
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically
    assert DiceGame.load(path).state() == g.state()
    data = json.loads(path.read_text())
    assert data["format"] == "catan_nb.dicegame" and data["variant"] == "plus"
    assert all("faces" in a for a in data["actions"] if a["type"] == "Roll")


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: "{oops", "<json>"),
        (lambda d: {**d, "format": "chess"}, "format"),
        (lambda d: {**d, "version": 9}, "version"),
        (lambda d: {k: v for k, v in d.items() if k != "seed"}, "seed"),
        (lambda d: {**d, "seed": "x"}, "seed"),
        (lambda d: {**d, "variant": "deluxe"}, "variant"),
        (lambda d: {**d, "players": 7}, "players"),
        (lambda d: {**d, "starting_seat": 5}, "starting_seat"),
        (lambda d: {**d, "actions": {}}, "actions"),
        (lambda d: {**d, "actions": d["actions"][:1] + [{"type": "Fly"}]}, "actions[1]"),
        (lambda d: {**d, "actions": d["actions"][:1] + [{"type": "Build", "structure": "C30"}]}, "actions[1]"),
        (lambda d: {**d, "sheet": {**d["sheet"], "structures": d["sheet"]["structures"][:1]}}, "sheet.structures"),
        (lambda d: {**d, "sheet": {**d["sheet"], "variant": "plus"}}, "sheet"),
    ],
)
def test_bad_saves_raise_save_file_error_naming_source_and_field(tmp_path, edit, field):
    g = DiceGame(1, seed=3)
    g.play(Roll())
    g.play(EndTurn())
    data = edit(g.to_dict())
    path = tmp_path / "save.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    with pytest.raises(SaveFileError) as info:
        DiceGame.load(path)
    assert info.value.field == field, str(info.value)
    assert str(path) in str(info.value)


def test_an_illegal_recorded_action_names_its_rule(tmp_path):
    g = DiceGame(1, seed=3)
    g.play(Roll())
    data = g.to_dict()
    data["actions"].append({"type": "Build", "structure": "C30"})
    with pytest.raises(SaveFileError, match="DG-BUILD-7"):
        DiceGame.from_json(data, source="mine.json")
    with pytest.raises(SaveFileError) as info:
        DiceGame.load(tmp_path / "none.json")
    assert info.value.field == "<file>"


def test_randomness_comes_from_the_seed():
    """Same seed and actions, same game; the global random module is never touched."""
    random.seed(1)
    before = random.random()
    a = play_dice_game(DiceGame(3, seed=44), [TargetPolicy()] * 3)
    random.seed(1)
    b = play_dice_game(DiceGame(3, seed=44), [TargetPolicy()] * 3)
    assert random.random() == before
    assert a.state() == b.state()
    assert DiceGame(seed=None).seed != DiceGame(seed=None).seed


def test_policies_finish_both_variants_with_checked_actions():
    g = play_dice_game(DiceGame(1, seed=5), [TargetPolicy()], checked=True)
    assert g.is_over and len(g.track[0]) == TURNS
    p = play_dice_game(DiceGame(3, variant="plus", seed=6), [TargetPolicy()] * 3, checked=True)
    assert p.is_over and p.vp(p.winners[0]) >= PLUS_VP_TO_WIN
    check_invariants(p)


def test_queries():
    g = DiceGame(2, seed=8)
    assert g.phase is DicePhase.ROLL and g.rolls_left == 3 and "DiceGame normal" in repr(g)
    assert set(g.buildable()) == {"R0", "S3", "K1"}
    g.play(Roll(faces=F("brick lumber wool grain ore gold")))
    assert g.unspent() == list(range(6)) and g.available_swaps() == []
    with pytest.raises(KeyError):
        g.sheet["nope"]
    with pytest.raises(IllegalActionError, match="API"):  # issue 9: every refusal is typed
        g.play("roll")  # type: ignore[arg-type]
    assert Kind.parse("city") is Kind.CITY and str(Face.GOLD) == "gold"
    with pytest.raises(ValueError):
        Face.parse("diamond")


LAYER_OF = {"hexgrid": 0, "board": 1, "constants": 1, "errors": 0, "_files": 0, "rules": 2, "dicegame": 2,
            "analysis": 3, "viz": 4, "widgets": 5}


def _module_imports(path: Path, parts: tuple[str, ...]) -> list[str]:
    out = []
    for node in ast.parse(path.read_text()).body:  # module level only
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(parts[:-1])[: len(parts) - node.level] if node.level > 1 else list(parts[:-1])
            out.append(".".join([*base, node.module] if node.module else base))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("catan_nb."):
            out.append(node.module[len("catan_nb."):])
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def test_dice_game_layers_import_one_way():
    """dicegame sits beside rules: it imports only lower layers (no plotly, ipywidgets, viz, widgets)."""
    files = list((PKG / "dicegame").glob("*.py")) + [PKG / "viz" / "dice_sheet.py", PKG / "widgets" / "dice_table.py"]
    for path in files:
        parts = path.relative_to(PKG).with_suffix("").parts
        own = LAYER_OF[parts[0]]
        for mod in _module_imports(path, parts):
            top = mod.split(".")[0]
            if parts[0] == "dicegame":
                assert top not in ("plotly", "ipywidgets", "rules", "analysis", "viz", "widgets"), (path, mod)
            if top in LAYER_OF:
                assert LAYER_OF[top] <= own, f"{path.name} imports {mod}"

"""Dice Game sheet files (schema, semantic checks, graph) and the sheet figure."""

from __future__ import annotations

import copy
import json

import networkx as nx
import pytest

from catan_nb.board import BOARDS_DIR
from catan_nb.dicegame import Build, DiceGame, DiceSheet, Kind, Roll, Variant
from catan_nb.dicegame.sheet import load_sheet_schema
from catan_nb.errors import BoardFileError
from catan_nb.viz.dice_sheet import DYNAMIC_SHEET_TRACES, SEAT_COLOURS, dice_sheet_figure, dice_sheet_traces

from test_dice_game_rules import F


@pytest.fixture(scope="module")
def normal_data():
    return json.loads((BOARDS_DIR / "dice_sheet.json").read_text())


def load_bad(tmp_path, data, name="bad.json") -> BoardFileError:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    with pytest.raises(BoardFileError) as info:
        DiceSheet.load(path)
    assert str(path) in str(info.value)
    return info.value


def test_shipped_sheets_validate_against_the_schema():
    """Both shipped sheets (DG-COMP-2) pass the JSON schema with jsonschema, as board files do."""
    import jsonschema

    schema = load_sheet_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for name in ("dice_sheet.json", "dice_sheet_plus.json"):
        jsonschema.validate(json.loads((BOARDS_DIR / name).read_text()), schema)


def test_round_trip_and_equality():
    for sheet in (DiceSheet.normal(), DiceSheet.plus()):
        again = DiceSheet.from_dict(copy.deepcopy(sheet.to_dict()))
        assert again == sheet and hash(again) == hash(sheet)
        assert again.graph.edges(data=True) == sheet.graph.edges(data=True) or \
            sorted(again.graph.edges(data="rule")) == sorted(sheet.graph.edges(data="rule"))
    assert DiceSheet.normal() != DiceSheet.plus()
    assert "33 structures" in repr(DiceSheet.normal())


def test_graph_attributes_and_rules_on_edges():
    """Nodes carry kind, points and drawing coordinates; each needs edge names the rule a missing need breaks."""
    g = DiceSheet.normal().graph
    assert isinstance(g, nx.DiGraph) and nx.is_directed_acyclic_graph(g)
    assert g.nodes["S4"]["kind"] is Kind.SETTLEMENT and g.nodes["S4"]["points"] == 4
    assert len(g.nodes["R3"]["segment"]) == 2 and g.nodes["K1"]["segment"] is None
    rules = {(u, v): r for u, v, r in g.edges(data="rule")}
    assert rules["S4", "R2"] == rules["S4", "S3"] == "DG-BUILD-6"
    assert rules["C12", "C7"] == "DG-BUILD-7" and rules["K2", "K1"] == "DG-BUILD-8" and rules["R1", "R0"] == "DG-BUILD-4"
    assert DiceSheet.normal().prerequisites("S5") >= {"S4", "S3", "R5", "R3", "R2", "R0", "START"}


@pytest.mark.parametrize(
    "edit, field, words",
    [
        (lambda d: d.pop("variant"), "variant", "required"),
        (lambda d: d["structures"][3].update(kind="castle"), "structures[3].kind", "castle"),
        (lambda d: d["structures"][3].update(points=-1), "structures[3].points", "minimum"),
        (lambda d: d["structures"][5]["needs"].append("R99"), "structures[5].needs[1]", "R99"),
        (lambda d: d["structures"][4].update(id="R2"), "structures[4].id", "repeats"),
        (lambda d: d["structures"][1]["needs"].append("R2"), "structures[1].needs", "exactly one road"),
        (lambda d: d["structures"][0]["needs"].append("R0"), "structures[0].needs", "pre-built"),
        (lambda d: d["swaps"][0]["knights"].__setitem__(0, "R1"), "swaps[0].knights[0]", "not a knight"),
        (lambda d: d["swaps"].append(dict(d["swaps"][0])), "swaps[6].id", "repeats"),
        (lambda d: d["structures"][-1].update(segment=[[0, 0], [1, 1]]), "structures[32].segment", "only roads"),
        (lambda d: d["structures"][2].pop("segment"), "structures[2].segment", "required"),
        (lambda d: d["structures"][-1]["needs"].append("R0"), "structures[32].needs", "only knights"),
        (lambda d: d["structures"][-2]["needs"].append("K6"), "structures", "cycle"),
    ],
)
def test_bad_sheet_files_name_file_and_field(tmp_path, normal_data, edit, field, words):
    """A bad sheet file raises BoardFileError naming the file and the field."""
    data = copy.deepcopy(normal_data)
    edit(data)
    err = load_bad(tmp_path, data)
    assert err.field == field, str(err)
    assert words in str(err)


def test_unreadable_and_invalid_json(tmp_path):
    with pytest.raises(BoardFileError) as info:
        DiceSheet.load(tmp_path / "missing.json")
    assert info.value.field == "<file>"
    bad = tmp_path / "broken.json"
    bad.write_text("{ not json")
    with pytest.raises(BoardFileError) as info:
        DiceSheet.load(bad)
    assert info.value.field == "<json>" and "line 1" in str(info.value)


def test_a_sheet_with_two_starts_is_rejected(tmp_path, normal_data):
    data = copy.deepcopy(normal_data)
    data["structures"].append({"id": "START2", "kind": "start", "points": 0, "needs": [], "xy": [0, 0],
                               "segment": [[0, 0], [1, 0]]})
    assert load_bad(tmp_path, data).field == "structures"


# ================================================================ the figure
def names(fig):
    return [t.name for t in fig.data]


def trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_figure_of_a_sheet_uses_its_coordinates():
    sheet = DiceSheet.normal()
    fig = dice_sheet_figure(sheet)
    assert set(DYNAMIC_SHEET_TRACES) <= set(names(fig))
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.xaxis.visible is False
    marks = trace(fig, "road-marks")
    assert list(marks.customdata) == [f"R{i}" for i in range(16)]
    assert (marks.x[3], marks.y[3]) == sheet["R3"].xy
    st = trace(fig, "structures")
    assert len(st.x) == 6 + 4 + 6 and set(st.text) == {str(s.points) for s in sheet.structures
                                                      if s.kind in (Kind.SETTLEMENT, Kind.CITY, Kind.KNIGHT)}
    assert all("cost" in h for h in st.hovertext)
    assert len(trace(fig, "swaps").text) == 6
    assert sum(1 for n in names(fig) if n.startswith("hex:")) == 6
    plus = dice_sheet_figure(DiceSheet.plus())
    assert set(trace(plus, "structures").text) == {"S", "C", "K"}
    with pytest.raises(TypeError):
        dice_sheet_figure("a sheet")


def test_figure_of_a_game_marks_builds_swaps_and_highlights():
    g = DiceGame(2, seed=3)
    g.built[0] |= g.sheet.mask(["K1"])
    g.play(Roll(faces=F("brick lumber wool grain ore gold")))
    g.play(Build("R0"))
    legal = [a.structure for a in g.legal_actions() if isinstance(a, Build)]
    fig = dice_sheet_figure(g, highlight=legal)
    hl = trace(fig, "highlight")
    assert list(hl.customdata) == legal and len(hl.x) == len(legal)
    colour = SEAT_COLOURS[0]
    marks = trace(fig, "road-marks")
    assert marks.marker.color[0] == colour and marks.marker.color[1] != colour
    assert len([x for x in trace(fig, "roads-built").x if x is None]) == 2  # START and R0
    ids = list(trace(fig, "structures").customdata)
    assert trace(fig, "structures").marker.color[ids.index("K1")] == colour
    assert "⇄ ore" in trace(fig, "swaps").text[0]
    dyn = dice_sheet_traces(g, 1)
    assert all(c != colour for c in dyn["road-marks"]["marker"]["color"])  # seat 1 built nothing


def test_sheet_and_game_display_as_the_figure():
    bundle = DiceSheet.normal()._repr_mimebundle_()
    assert "application/vnd.plotly.v1+json" in bundle and "DiceSheet" in bundle["text/plain"]
    bundle = DiceGame(1, seed=1)._repr_mimebundle_()
    assert "DiceGame" in bundle["text/plain"]


def test_plus_sheet_variant_and_knights():
    plus = DiceSheet.plus()
    assert plus.variant is Variant.PLUS
    assert [s.id for s in plus.structures if s.kind is Kind.KNIGHT] == [
        "K-ore", "K-grain", "K-wool", "K-lumber", "K-brick", "K-desert-1", "K-desert-2"]

"""The board figure (pure): what it draws and its options."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from catan_nb import Board, Game
from catan_nb.analysis import WeightedBot, play_game
from catan_nb.viz import board_figure, dynamic_traces, trace_index
from catan_nb.viz.palette import PALETTES

PKG = Path(__file__).resolve().parent.parent / "catan_nb"


def tr(fig, name):
    return fig.data[trace_index(fig, name)]


@pytest.fixture(scope="module")
def midgame():
    game = Game(Board.random(seed=6), players=4, seed=6)
    play_game(game, [WeightedBot(p) for p in range(4)], max_turns=60)
    return game


def test_board_figure_basics():
    board = Board.beginner()
    fig = board_figure(board)
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1
    assert fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False
    names = {t.name for t in fig.data if t.showlegend is not False}
    assert {"forest", "hills", "pasture", "fields", "mountains", "desert"} <= names
    hexes = tr(fig, "hexes")
    assert len(hexes.hovertext) == 19 and all("hex" in h for h in hexes.hovertext)
    # 6 and 8 in red, with their pips as dots
    for t, colour, text in zip(board.hexes, hexes.textfont.color, hexes.text):
        if t.token in (6, 8):
            assert colour == PALETTES["standard"]["hot_token"] and "•••••" in text
        elif t.token:
            assert colour == PALETTES["standard"]["token"]
    nodes = tr(fig, "intersections")
    assert len(nodes.x) == 54 and all("expected cards/roll" in h for h in nodes.hovertext)
    assert len(tr(fig, "harbours").x) == 9
    assert any("3:1" in t for t in tr(fig, "harbours").text)


def test_game_pieces_and_robber(midgame):
    fig = board_figure(midgame)
    b = tr(fig, "buildings")
    n_buildings = sum(1 for o in midgame.node_owner if o >= 0)
    assert len(b.x) == n_buildings and set(b.text) <= {"S", "C"}
    for p in range(4):
        segments = sum(1 for x in tr(fig, f"road:{p}").x if x is None)
        assert segments == len(midgame.roads[p])
    assert "robber on hex" in tr(fig, "robber").hovertext[0]
    legend = [t.name for t in fig.data if t.name.endswith(")") and "(seat " in t.name]
    assert len(legend) == 4


def test_highlights_heat_and_longest_road(midgame):
    board = midgame.board
    heat = {v: float(sum(board.expected_production(v).values())) for v in board.graph}
    holder = max(range(4), key=midgame.longest_road)
    fig = board_figure(midgame, highlight_nodes=[1, 2], highlight_paths=[0], highlight_hexes=[3], heat=heat,
                       heat_title="cards/roll", longest_road=holder)
    assert list(tr(fig, "highlight-nodes").customdata) == [1, 2]
    assert sum(1 for x in tr(fig, "highlight-paths").x if x is None) == 1
    assert sum(1 for x in tr(fig, "highlight-hexes").x if x is None) == 1
    marker = tr(fig, "intersections").marker
    assert marker.showscale and marker.colorbar.title.text == "cards/roll"
    assert sum(1 for x in tr(fig, "longest-road").x if x is None) == midgame.longest_road(holder)


def test_colorblind_palette_adds_patterns_and_keeps_labels():
    fig = board_figure(Board.beginner(), palette_name="colorblind")
    forest = tr(fig, "forest")
    assert forest.fillpattern.shape == "|"
    assert all(t for t in tr(fig, "hex-labels").text)  # every hex named in text, not by colour alone
    with pytest.raises(ValueError, match="palette"):
        board_figure(Board.beginner(), palette_name="neon")


def test_dynamic_traces_match_the_figure(midgame):
    fig = board_figure(midgame)
    for name, props in dynamic_traces(midgame).items():
        t = tr(fig, name)
        for key in ("x", "y"):
            if key in props:
                assert list(getattr(t, key) or ()) == list(props[key]), (name, key)


def test_figure_rejects_other_objects():
    with pytest.raises(TypeError):
        board_figure("the island")


LAYERS = ["hexgrid", "board", "rules", "dicegame", "analysis", "viz", "widgets"]


def _layer(module: str) -> int | None:
    for i, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            return i
    return None


def test_layers_import_one_way():
    """hexgrid -> board -> rules -> analysis -> viz -> widgets: no module-level import goes upward."""
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).with_suffix("")
        parts = rel.parts
        own = _layer(parts[0])
        if own is None:
            continue
        tree = ast.parse(path.read_text())
        for node in tree.body:  # module level only: lazy imports inside functions are allowed
            targets = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = list(parts[:-1])[: len(parts) - node.level] if node.level > 1 else list(parts[:-1])
                mod = ".".join([*base, node.module] if node.module else base)
                targets.append(mod)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("catan_nb."):
                targets.append(node.module[len("catan_nb."):])
            for t in targets:
                layer = _layer(t)
                assert layer is None or layer <= own, f"{rel} imports {t} (a higher layer)"


def test_layers_declare_handles_and_the_geometry_helpers_agree():
    """Issue 28 item 4: ``Layer.handles`` exists (empty by default) and every built-in layer's
    lists action classes; the public path helpers give the figure's own segments and midpoints."""
    from catan_nb import Board
    from catan_nb.rules import Action
    from catan_nb.viz.board import path_ends, path_midpoint, paths_xy
    from catan_nb.viz.plugins import LAYERS, Layer, layers_for

    assert Layer().handles == ()
    layers_for(["seafarers"])  # the built-in layers register themselves
    for classes in LAYERS.values():
        for cls in classes:
            assert all(issubclass(t, Action) for t in cls().handles), cls
    b = Board.beginner()
    xs, ys = paths_xy(b, [0, 5])
    (x0, y0), (x1, y1) = path_ends(b, 5)
    assert xs[3:] == [x0, x1, None] and ys[3:] == [y0, y1, None]
    assert path_midpoint(b, 5) == ((x0 + x1) / 2, (y0 + y1) / 2)


def test_a_module_gives_its_actions_log_sentences():
    """Issue 28 item 4: ``register_phrase`` (the ``PHRASES`` registry): the example's loom is told."""
    import pytest

    from catan_nb.examples.shearing import BuildLoom
    from catan_nb.viz.text import PHRASES, PRIVATE, register_phrase

    assert PHRASES["BuildLoom"]("Blue", BuildLoom(3), __import__("catan_nb").Board.beginner(), None).startswith(
        "Blue built a loom at ")
    first = PHRASES["BuildLoom"]
    register_phrase(BuildLoom, lambda who, a, b, g: "again")  # the first one registered stays
    assert PHRASES["BuildLoom"] is first
    with pytest.raises(TypeError, match="together"):
        register_phrase("DocSecret", lambda who, a, b, g: "x", readers=lambda g, a, before: [0])
    assert "DocSecret" not in PHRASES and "DocSecret" not in PRIVATE

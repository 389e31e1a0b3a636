"""Issue 12: the game table read as a player reads it, item by item, through its callbacks.

Each test names the item of the issue it checks.  The browser half (layout at two window
sizes, latency, Voila offline) is in ``tests/browser/``.
"""

from __future__ import annotations

import re

import pytest
from helpers import deal

from catan_nb import Board, Game, Resource
from catan_nb.rules import BuildRoad, BuildSettlement, Phase, RollDice, Rules
from catan_nb.viz import board_figure
from catan_nb.viz.palette import palette
from catan_nb.widgets import DiceTable, GameTable
from catan_nb.widgets.panels import style_block

ENGINE_DATA = re.compile(r"\b(node|path|hex) \d+|\b\d+, \d+, \d+, \d+, \d+\b|seat \d")


def text(html_value: str) -> str:
    return re.sub(r"<[^>]+>", "", html_value)


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    c = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def seed_whose_first_roll(ok, **kw):
    for s in range(800):
        g = Game(Board.beginner(), players=4, seed=s, start="beginner", **kw)
        c = g.copy()
        c.play(RollDice())
        if ok(sum(c.dice_history[-1][:2])):
            return s
    raise AssertionError("no seed found")


def bot_table(seed=7, **kw):
    t = GameTable(Board.beginner(), seats=["bot"] * 4, seed=seed, start="beginner", bot_delay=None, **kw)
    return t


# ---------------------------------------------------------------- item 1: layout
def test_layout_is_responsive_css_not_fixed_pixels():
    """Item 1 (and issue 25 item 12): the board scales with the table's width (container queries); wide, the
    action bar (status, choices, dice, buttons) is beside the board, narrower above it with the board as tall
    as the screen leaves, the other cards below; the log scrolls; the legend is HTML under the board."""
    css = style_block().value
    assert "container-type: inline-size" in css and "@container (max-width: 860px)" in css and "aspect-ratio" in css
    assert 'grid-template-areas: "board action" "board side"' in css
    assert 'grid-template-areas: "action" "board" "side"' in css
    assert re.search(r"\.catan-log \{[^}]*max-height: \d+px; overflow-y: auto", css)
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=1, bot_delay=None)
    assert t.figure.layout.autosize and t.figure.layout.width is None and t.figure.layout.height is None
    assert t.figure.layout.showlegend is False and "forest" in t.legend.value and "Blue (bot)" not in t.legend.value
    main = t.widget.children[-1]
    assert [c._dom_classes[-1] for c in main.children] == ["catan-board-col", "catan-action", "catan-side"]
    assert "catan-board" in main.children[0].children[0]._dom_classes
    action = main.children[1].children
    assert action[0] is t.status and t.turn_bar in action and t.choice_box in action and t.discard_panel in action
    assert [t.dice_box, t.turn_row, t.dev_row, t.buttons["cancel_choice"], t.bot_bar] == list(t.turn_bar.children)


# ---------------------------------------------------------------- item 2: the log
def test_log_names_the_actor_and_speaks_as_players_do():
    """Item 2: who acted, in colour names; resources by name; places by their hexes; no engine data."""
    t = bot_table()
    t.run_bots()
    g = t.game
    assert g.is_over
    lines = [text(x) for x in t.log_lines]
    names = [t.name(p) for p in range(4)]
    acted = [x for x in lines if x[:1].isalpha() and not x.startswith("loaded")]
    assert acted and all(any(x.startswith(n) for n in names) for x in acted), [x for x in acted
                                                                             if not any(x.startswith(n) for n in names)][:5]
    assert not [x for x in lines if ENGINE_DATA.search(x)], [x for x in lines if ENGINE_DATA.search(x)][:5]
    assert any(re.search(r"built a road (between|on the coast of) \w+", x) for x in lines)
    assert any("Longest Road" in x for x in lines) or any("Largest Army" in x for x in lines)
    assert any("wins" in x for x in lines[-3:]), lines[-3:]


def test_log_announces_a_seven_discards_and_a_steal_secretly():
    """Item 2: the 7, who discarded what, and what was stolen only to those allowed to know."""
    seed = seed_whose_first_roll(lambda s: s == 7)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner",
                  bot_delay=None, viewer=0)
    g = t.game
    deal(g, 0, ore=8)
    t.refresh()
    t.press("roll")
    lines = [text(x) for x in t.log_lines]
    assert any("7" in x and "robber" in x.lower() for x in lines), lines
    assert g.phase is Phase.DISCARD and g.current_player == 0
    owed = g.discards_owed()[0]
    ore = g.hands[0][Resource.ORE.value]
    t.discard_counts[Resource.ORE.value].value = min(owed, ore)
    t.discard_counts[max(range(4), key=lambda r: g.hands[0][r])].value = owed - min(owed, ore)
    t.press("discard")
    assert 0 not in g.discards_owed()
    lines = [text(x) for x in t.log_lines]
    assert any(x.startswith("Red") and f"discarded {min(owed, ore)} ore" in x for x in lines), lines
    # Steal: the thief sees the card; a hot-seat table (several humans) does not print it.
    hexes = [a for a in g.legal_actions() if a.victim is not None]
    t.play(hexes[0])
    stolen = [x for x in map(text, t.log_lines) if "stole" in x]
    assert stolen and any(str(r) in stolen[-1] for r in Resource), stolen
    t2 = GameTable(Board.beginner(), seats=["human"] * 4, seed=seed, start="beginner", bot_delay=None,
                   viewer="current")
    deal(t2.game, 0, ore=8)
    t2.refresh()
    t2.press("roll")
    while t2.game.phase is Phase.DISCARD:
        p = t2.game.current_player
        owed = t2.game.discards_owed()[p]
        hand = t2.game.hands[p]
        r = max(range(5), key=lambda i: hand[i])
        t2.discard_counts[r].value = owed
        t2.press("discard")
    t2.play([a for a in t2.game.legal_actions() if a.victim is not None][0])
    stolen = [x for x in map(text, t2.log_lines) if "stole" in x]
    assert stolen and not any(str(r) in stolen[-1] for r in Resource), stolen


def test_log_says_when_every_player_declines_a_trade():
    """Item 2: a trade declined by all is announced."""
    seed = seed_whose_first_roll(lambda s: s != 7)
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=seed, start="beginner", bot_delay=None)
    g = t.game
    t.press("roll")
    deal(g, 0, ore=1)
    t.refresh()
    t.offer_give[Resource.ORE.value].value = 1
    t.offer_get[Resource.BRICK.value].value = 3
    t.press("offer")
    while g.phase is Phase.TRADE_RESPONSE:
        t.press("decline")
    lines = [text(x) for x in t.log_lines]
    assert any("nobody accepted" in x for x in lines), lines[-5:]


# ---------------------------------------------------------------- item 3: status and buttons
def test_status_during_a_bots_turn_and_the_bot_bar():
    """Item 3: "Blue (bot) is playing…", never "click the board"; a speed control and a skip button."""
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=3, start="beginner", bot_delay=0.5)
    try:
        t.press("roll")
        if t.game.phase is not Phase.MAIN:
            pytest.skip("first roll was a 7")
        t.press("end")
        s = text(t.status.value)
        assert "Blue (bot) is playing" in s and "click" not in s
        assert t.bot_bar.layout.display is None and not t.buttons["skip"].disabled
        t.speed.value = 0.0
        assert t.bot_delay == 0.0
        t.press("skip")
        assert t.game.current_player == 0 and t.game.phase is Phase.ROLL
        assert t.bot_bar.layout.display == "none"
    finally:
        if t._bot_handle is not None:
            t._bot_handle.cancel()


def test_disabled_buttons_look_disabled_and_only_what_applies_shows():
    """Item 3: disabled buttons lose their colour; no "Done building" at 4 seats; dev cards one by one."""
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=3, start="beginner", bot_delay=None)
    for b in t.buttons.values():
        if b.disabled:
            assert b.button_style == "", b.description
    assert "end_sbp" not in t.buttons  # the Special Building Phase belongs to 5-6 players only
    assert "Done building" not in [b.description for b in t.widget.children[-1].children[1].children
                                   if hasattr(b, "description")]
    g = t.game
    t.press("roll")
    if g.phase is not Phase.MAIN:
        pytest.skip("first roll was a 7")
    from catan_nb import DevCard

    g.dev[0][DevCard.MONOPOLY.value] += 1  # an old card (not bought this turn): playable
    t.refresh()
    assert t.dev_row.layout.display is None
    assert t.mono_row.layout.display is None and t.yop_row.layout.display == "none"
    assert t.buttons["knight"].layout.display == "none"


def test_the_offerer_does_not_see_accept_or_decline():
    """Item 3: Accept/Decline are for the players answering; the offerer may withdraw."""
    seed = seed_whose_first_roll(lambda s: s != 7)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner",
                  bot_delay=None)
    g = t.game
    t.press("roll")
    deal(g, 0, ore=1)
    t.refresh()
    assert t.buttons["accept"].layout.display == "none" and t.buttons["decline"].layout.display == "none"


# ---------------------------------------------------------------- item 4: trading
def test_bank_rates_always_shown_and_trading_closed_is_said():
    """Item 4: rates per resource with no cards in hand; a message once building closed trading."""
    seed = seed_whose_first_roll(lambda s: s != 7)
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=seed, start="beginner", bot_delay=None)
    g = t.game
    rates = text(t.rates_box.value)
    assert all(f"{r} {g.rates(0)[r.value]}:1" in rates for r in Resource), rates
    t.press("roll")
    assert t.maritime_row.layout.display is None and t.offer_panel.layout.display is None
    deal(g, 0, lumber=1, brick=1)
    t.refresh()
    road = next(a for a in g.legal_actions() if isinstance(a, BuildRoad))
    t.play(road)
    assert t.maritime_row.layout.display == "none"
    assert "Trading is closed" in t.trade_closed.value and t.trade_closed.layout.display is None
    # The combined trade/build option: one argument.
    t2 = GameTable(Board.beginner(), seats=["human"] * 4, seed=seed, start="beginner", bot_delay=None,
                   trade_after_building=True)
    assert t2.game.rules.combined_trade_build


def test_offers_use_steppers():
    """Item 4: +/- steppers, bounded below by 0."""
    seed = seed_whose_first_roll(lambda s: s != 7)
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=seed, start="beginner", bot_delay=None)
    t.press("roll")
    s = t.offer_give[Resource.WOOL.value]
    assert s.minus.disabled and s.value == 0
    s.plus.click()
    s.plus.click()
    s.minus.click()
    assert s.value == 1 and not s.minus.disabled
    s.value = -5
    assert s.value == 0


# ---------------------------------------------------------------- item 5: discards
def test_discard_counts_n_of_m_and_resets():
    """Item 5: "n of m chosen"; the button only when the count is right; the steppers reset."""
    seed = seed_whose_first_roll(lambda s: s == 7)
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=seed, start="beginner", bot_delay=None)
    g = t.game
    deal(g, 0, ore=6, grain=3)
    t.refresh()
    t.press("roll")
    assert g.current_player == 0 and g.phase is Phase.DISCARD
    owed = g.discards_owed()[0]
    assert f"0 of {owed} chosen" in text(t.discard_title.value)
    assert t.buttons["discard"].disabled
    t.discard_counts[Resource.ORE.value].value = owed - 1
    assert f"{owed - 1} of {owed} chosen" in text(t.discard_title.value) and t.buttons["discard"].disabled
    before = g.state()
    t.press("discard")  # disabled: a click does nothing
    assert g.state() == before
    t.discard_counts[Resource.GRAIN.value].value = 1
    assert not t.buttons["discard"].disabled
    t.press("discard")
    assert 0 not in g.discards_owed()
    assert all(s.value == 0 for s in t.discard_counts)


# ---------------------------------------------------------------- item 6: hand and costs
def test_hand_as_chips_and_the_cost_card():
    """Item 6: resource chips, development cards as cards, affordable builds marked."""
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=3, start="beginner", bot_delay=None, viewer=0)
    g = t.game
    g.hands[0][:] = [1, 1, 1, 1, 0]
    from catan_nb import DevCard

    g.dev[0][DevCard.KNIGHT.value] += 1
    t.refresh()
    assert "catan-chip" in t.hand_box.value and "Knight" in t.hand_box.value
    cost = t.cost_box.value
    assert "✓ road" in text(cost) and "✓ settlement" in text(cost)
    assert "· city" in text(cost) and "✓ city" not in text(cost)
    assert not re.search("[\U0001F300-\U0001FAFF]", t.status.value + cost), \
        "no emoji: a browser without an emoji font shows boxes"


# ---------------------------------------------------------------- item 7: the board
def test_board_drawing_contrast_shapes_legend_and_longest_road_colour():
    """Item 7: numbers in discs, 6/8 readable, house/city shapes, legend outside, halo not a seat colour."""
    g = Game(Board.beginner(), players=4, seed=1, start="beginner")
    fig = board_figure(g)
    hexes = next(t for t in fig.data if t.name == "hexes")
    sizes = hexes.marker.size
    assert hexes.mode == "markers+text" and min(z for z, s in zip(sizes, hexes.text) if s) >= 24  # number in a disc
    reds = [i for i, s in enumerate(hexes.text) if s and re.search(r"<b>(6|8)</b>", s)]
    assert reds
    for name in ("standard", "colorblind"):  # every number on a light disc, 6 and 8 in high contrast on it
        fig_p = board_figure(g, palette_name=name)
        tok = next(t for t in fig_p.data if t.name == "hexes")
        disc = tok.marker.color
        assert isinstance(disc, str) and luminance(disc) > 0.8, (name, disc)
        for i in reds:
            assert contrast(tok.textfont.color[i], disc) >= 4.5, (name, tok.textfont.color[i], disc)
    shapes = [t for t in fig.data if t.name.startswith("building:")]
    assert shapes and all(t.fill == "toself" for t in shapes)
    assert fig.layout.legend.y <= 0 and fig.layout.legend.orientation == "h"
    pal = palette("standard")
    assert pal["longest"] not in pal["player"].values()


# ---------------------------------------------------------------- item 9: the Dice Game table
def test_dice_table_numbers_dice_from_one_and_names_players():
    """Item 9: dice 1..6, percentages with the fraction on hover, the actor in the log, any sheet."""
    t = DiceTable(["human", "computer"], seed=4, bot_delay=None)
    t.press = lambda k: t.buttons[k].click()
    t.press("roll")
    assert [b.description.split(":")[0] for b in t.dice_buttons] == ["1", "2", "3", "4", "5", "6"]
    t.click_die(0)
    assert "keep dice 1" in t.odds_box.value
    assert re.search(r"<b title='exactly \d+/\d+'>\d+\.\d%</b>", t.odds_box.value)
    assert "Player 1 (you): rolled" in text(t.log_box.value)
    t.sheet_of.value = 1
    assert t.shown_player == 1 and "Player 2 (computer)" in t.figure.layout.title.text
    t.sheet_of.value = None
    assert t.shown_player == t.game.current
    for b in t.dice_buttons:
        assert b.layout.width == "auto" and b.layout.min_width


# ---------------------------------------------------------------- item 11: the turn counter
def test_turn_counter_counts_rounds():
    """Item 11: a player's second turn is in round 2, not "Turn 5"."""
    from catan_nb.analysis.bots import WeightedBot

    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=11, start="beginner", bot_delay=None)
    bots = [WeightedBot(seed=p) for p in range(4)]
    g = t.game
    seen = {}
    while g.turn <= 2 * g.n + 1 and not g.is_over:
        if g.phase is Phase.ROLL:
            seen.setdefault(g.current_player, []).append(t._round())
        t._apply(bots[g.current_player].choose(g))
    assert seen[0][:2] == ["Round 1", "Round 2"], seen
    assert seen[3][:2] == ["Round 1", "Round 2"], seen


def test_a_board_click_clears_the_hover_label_then_hover_comes_back():
    """Item 7: no hover label left over the board after a click."""
    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=2, bot_delay=None)
    sent = []
    real = t.figure._send_relayout_msg
    t.figure._send_relayout_msg = lambda data, *a, **k: (sent.append(dict(data)), real(data, *a, **k))
    node = next(a.node for a in t.game.legal_actions() if isinstance(a, BuildSettlement))
    assert t.click_node(node)
    assert any(d.get("hovermode") is False for d in sent), sent
    assert t.figure.layout.hovermode == "closest"


def test_the_board_keeps_its_ranges_when_resized():
    """Item 1/7: constrain="domain", so a browser resize never shrinks the island inside the figure."""
    fig = board_figure(Board.beginner())
    assert fig.layout.xaxis.constrain == "domain" and fig.layout.yaxis.constrain == "domain"


def test_a_modules_layer_and_panel_plug_into_figure_and_table():
    """Issue 11 item 6: the example module draws its pieces, takes clicks and has a panel; no table code."""
    import example_module as ex
    from helpers import deal as give

    t = GameTable(Board.beginner(), seats=["human"] * 4, seed=3, start="beginner", bot_delay=None,
                  rules=Rules(modules=(ex.NAME,)))
    g = t.game
    names = [d.name for d in t.figure.data]
    assert f"{ex.NAME}:looms" in names and f"{ex.NAME}:loom-targets" in names
    t.press("roll")
    while g.phase is not Phase.MAIN:  # a 7 or a fleece choice: settle it the quickest way
        t.play(g.legal_actions()[0])
    give(g, 0, wool=2, lumber=1)
    t.refresh()
    targets = t.figure.data[t._idx[f"{ex.NAME}:loom-targets"]]
    assert len(targets.x) == len({a.node for a in g.legal_actions() if isinstance(a, ex.BuildLoom)}) > 0
    assert not any(isinstance(a, ex.BuildLoom) for a in t.special_actions())  # the layer has the control
    layer = next(la for la in t.layers if isinstance(la, ex.LoomLayer))
    node = targets.customdata[0]
    assert t.click_layer(layer, f"{ex.NAME}:loom-targets", 0)
    assert g.piece_at(node) == (0, "loom")
    looms = t.figure.data[t._idx[f"{ex.NAME}:looms"]]
    assert len(looms.x) == 1
    assert not t.click_layer(layer, f"{ex.NAME}:loom-targets", 99)  # nothing there: inert
    # The panel: a fleece decision shows only the resources the bank has.
    g.push(ex.FLEECE, 0)
    t.refresh()
    panel = next(p for p in t.panels if isinstance(p, ex.FleecePanel))
    assert panel.box.layout.display is None
    ore = g.hands[0][Resource.ORE.value]
    panel.buttons[Resource.ORE].click()
    assert g.hands[0][Resource.ORE.value] == ore + 1 and panel.box.layout.display == "none"


def test_the_table_and_figure_name_no_module():
    """Issue 11 item 6: no per-module code in the table or the board figure (modules plug in)."""
    from pathlib import Path

    import catan_nb

    root = Path(catan_nb.__file__).parent
    for path in (root / "widgets" / "table.py", root / "viz" / "board.py"):
        src = path.read_text()
        for name in ("five_six", "friends", "helpers", "EndSpecialBuild", "Guild", "HelperCard", "seafarers",
                     "cities_knights"):
            assert name not in src, (path.name, name)


def test_the_founding_prompt_names_the_building_the_rules_ask_for():
    """CK-SETUP-1 at the table: the second founding round of Cities & Knights asks for a city."""
    g = Game(Board.beginner(), players=3, seed=1, rules=Rules(modules=("cities_knights",)))
    t = GameTable(g, seats=("human",) * 3, bot_delay=None)
    assert "founding settlement" in text(t.status.value)
    for _ in range(6):  # the first round: a settlement and a road each
        g.play(g.legal_actions()[0])
    t.refresh()
    assert g.phase is Phase.FOUNDING_SETTLEMENT and "founding city" in text(t.status.value)

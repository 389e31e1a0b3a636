"""Issue 25: every module's table played by a human seat through the table's own handlers.

A human seat (seat 0) plays against bots through :class:`table_driver.HumanDriver` (buttons, board
clicks, panels, layers, steppers; never ``game.play``) for a number of decisions, in every module:
the base game, 6 players with Friends and Helpers, each Seafarers scenario file, gold fields, Cities
& Knights alone and with Seafarers, Corsica with 5 players, New York with the Erie Canal.

Hidden information (item 2, B-SETUP-7, A-15): while it plays, what the human sees never depends on
another seat's hidden cards.  Three checks:

* the widgets are rendered, then the game is replaced by a determinisation for the human's seat
  (every other seat's hand, development and progress cards dealt again: same counts, other
  contents) and rendered again: every string of every widget (HTML, buttons, options, the board
  figure's text and hover text) must be the same;
* every log sentence about a card drawn, stolen, discarded or passed between two other seats reads
  the same when that card is changed;
* no hand of another seat is listed.
"""

from __future__ import annotations

import difflib
import re
import random

import pytest
from table_driver import HumanDriver, perturbed, shown

from catan_nb import Board
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import OfferTrade, RollDice, Rules
from catan_nb.rules.modules.gold_fields import gold_board
from catan_nb.viz.text import narrate, snapshot
from catan_nb.widgets import GameTable


def _sea(name, extra=()):
    def make(seed):
        board = Board.load(BOARDS_DIR / f"{name}.json")
        return board, Rules.for_board(board, modules=extra), 4
    return make


#: Every module's table: a board, its rules and the number of seats.
TABLES = {
    "base 4p": lambda seed: (Board.random(seed=seed), Rules(), 4),
    "6p friends+helpers": lambda seed: (Board.five_six(), Rules(modules=("friends", "helpers")), 6),
    "seafarers islands": _sea("seafarers_islands"),
    "seafarers fog+treasure": _sea("seafarers_fog"),
    "seafarers harbour master": _sea("seafarers_harbours"),
    "seafarers great catan": _sea("seafarers_great_catan"),
    "gold fields": lambda seed: (gold_board(Board.beginner(), 4, 10), Rules(modules=("gold_fields",)), 4),
    "cities & knights": lambda seed: (Board.beginner(), Rules(modules=("cities_knights",)), 4),
    "cities & knights + seafarers": _sea("seafarers_islands", ("cities_knights",)),
    "corsica 5p": lambda seed: (Board.load(BOARDS_DIR / "corsica.json"), Rules.for_board(Board.load(BOARDS_DIR / "corsica.json")), 5),
    "new york + erie": lambda seed: (Board.load(BOARDS_DIR / "new_york.json"), Rules.for_board(Board.load(BOARDS_DIR / "new_york.json")), 4),
}


def make_table(name: str, seed: int = 5) -> GameTable:
    board, rules, n = TABLES[name](seed)
    t = GameTable(board, seats=["human"] + ["bot"] * (n - 1), seed=seed, bot_delay=None, rules=rules)
    t.explain_box.value = True  # the bots' reasons are in the log too
    return t


def assert_view_ignores_hidden_cards(t: GameTable, seed: int) -> None:
    """The widgets with the real game and with a determinisation for the viewer read the same."""
    viewer = t.viewer_seat()
    if viewer is None:  # the game is over: everything may be shown
        return
    real = t.game
    first = shown(t.widget)
    try:
        t.game = real.determinized(viewer, seed)
        t.refresh()
        second = shown(t.widget)
    finally:
        t.game = real
        t.refresh()
    if first != second:
        diff = "\n".join(list(difflib.unified_diff(first.splitlines(), second.splitlines(), lineterm="", n=0))[:12])
        raise AssertionError(f"the table shows another seat's hidden cards (seat {viewer} views):\n{diff}")
    text = t.hand_box.value
    assert all(f"seat {q}:" not in text for q in range(real.n) if q != viewer), text


def watch_the_log(t: GameTable, rng: random.Random) -> tuple[list, list]:
    """Check every log sentence as it is written: a hidden card changed, the sentence read by the
    viewer stays the same (unless the viewer took part).  Returns the kinds checked and the leaks
    found (recorded, not raised: the table turns an exception in a callback into its status line)."""
    checked, leaks = [], []
    apply = t._apply

    def wrapped(action):
        before = snapshot(t.game)
        apply(action)
        viewer = t._log_viewer()
        if viewer is None:
            return
        g = t.game
        logged = g.log[-1]
        alt = perturbed(g, logged, rng)
        involved = {before["current"], before["active"], g.current_player, getattr(logged, "victim", None)}
        if alt is None or viewer in involved:
            return
        said, other = narrate(g, logged, before, viewer, t.seats), narrate(g, alt, before, viewer, t.seats)
        if said != other:
            leaks.append((logged, said, other))
        checked.append(type(logged).__name__)

    t._apply = wrapped
    return checked, leaks


@pytest.mark.parametrize("name", list(TABLES))
def test_a_human_plays_every_modules_table_seeing_only_its_own_cards(name):
    """Item 2 and the issue's check: a human seat plays through the table's handlers; no error it did
    not cause, no stall, and no other seat's hidden card anywhere in its widgets or its log."""
    t = make_table(name)
    assert t.viewer == 0  # hidden information by default: the one human seat's view
    rng = random.Random(1)
    checked, leaks = watch_the_log(t, rng)
    d = HumanDriver(t, seed=2)
    for k in range(12):
        d.play(6)
        assert not leaks, f"the log names another seat's hidden card: {leaks[0]}"
        assert_view_ignores_hidden_cards(t, seed=100 + k)
        if t.game.is_over:
            break
        why = [x for x in t.log_lines if x.startswith("  why:")]
        assert not [x for x in why if "next best:" in x], why[-3:]  # the runners-up tell what a bot holds
    assert d.done.get("RollDice", 0) + d.done.get("BuildSettlement", 0) > 0, d.done
    assert checked, "no log sentence about another seat's hidden card was checked"
    assert not d.unreachable, d.unreachable


# ---------------------------------------------------------------------- the items one by one
def first_roll_seed(ok, board=None, rules=None, n=4):
    """A seed whose first roll (two number dice) satisfies ``ok`` (peeked on a copy)."""
    from catan_nb import Game
    from catan_nb.rules import RollDice

    for s in range(2000):
        g = Game(board or Board.beginner(), players=n, seed=s, start="beginner", rules=rules or Rules())
        c = g.copy()
        c.play(RollDice())
        if ok(c.dice_history[-1][:2], c):
            return s
    raise AssertionError("no seed found")


CK = Rules(modules=("cities_knights",))


def test_cities_knights_discard_offer_and_bank_trade_take_every_good():
    """Item 1 (B-ROB-2, CK-COM-1): the discard panel, the offer steppers and the bank-trade choices have one
    entry per good of the game (8 with Cities & Knights), so a human discards commodities on a 7."""
    from catan_nb.constants import Commodity
    from catan_nb.rules import Phase

    seed = first_roll_seed(lambda d, g: sum(d) == 7, rules=CK)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner",
                  bot_delay=None, rules=CK)
    g = t.game
    assert g.n_goods == 8
    assert len(t.discard_counts) == len(t.offer_give) == len(t.offer_get) == 8
    assert [str(x) for x in g.goods] == [label for label, _ in t.give_res.options] == [label for label, _ in t.get_res.options]
    g.deal(0, {Commodity.CLOTH: 3, Commodity.PAPER: 4, Commodity.COIN: 1})
    g.deal(0, {r: 1 for r in g.goods[:5]})
    t.refresh()
    assert all(f"{gd} " in re.sub("<[^>]+>", "", t.rates_box.value) for gd in g.goods)
    t.press("roll")
    assert g.phase is Phase.DISCARD and g.current_player == 0
    owed = g.discards_owed()[0]
    cloth = g.goods.index(Commodity.CLOTH)
    left = owed - 3
    t.discard_counts[cloth].value = 3
    for i, s in enumerate(t.discard_counts):  # the rest from whatever else is held, resources and commodities
        if i != cloth:
            s.value = min(left, g.hands[0][i])
            left -= s.value
    assert left == 0
    hand = sum(g.hands[0])
    t.press("discard")
    assert not t.message.startswith("⚠"), t.message
    assert sum(g.hands[0]) == hand - owed and g.hands[0][cloth] == 0
    assert any(x.startswith("Red discarded") and x.endswith("3 cloth") for x in t.log_lines), t.log_lines[-4:]


def test_discard_steppers_stop_at_the_hand_and_offer_steppers_reset():
    """Item 10: a discard counter cannot go past the cards of that kind in the hand; after an offer the
    offer counters are back to 0."""
    from catan_nb import Resource
    from helpers import deal

    seed = first_roll_seed(lambda d, g: sum(d) == 7)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner", bot_delay=None)
    g = t.game
    deal(g, 0, ore=6, grain=3)
    t.refresh()
    t.press("roll")
    ore, grain = Resource.ORE.value, Resource.GRAIN.value
    assert [s.maximum for s in t.discard_counts] == g.hands[0]
    t.discard_counts[ore].value = 9
    assert t.discard_counts[ore].value == g.hands[0][ore] and t.discard_counts[ore].plus.disabled
    for _ in range(5):
        t.discard_counts[grain].plus.click()
    assert t.discard_counts[grain].value == g.hands[0][grain]
    while g.phase.value != "main":
        if g.phase.value == "discard":
            owed = g.discards_owed()[0]
            for s in t.discard_counts:
                s.value = 0
            t.discard_counts[ore].value = owed
            t.press("discard")
        else:
            t.play(t.legal()[0])
    assert [s.maximum for s in t.offer_give] == g.hands[0]  # one offers only what one holds (B-TRADE-2)
    give = max(range(5), key=lambda r: g.hands[0][r])
    t.offer_give[give].value = 1
    t.offer_get[(give + 1) % 5].value = 2
    t.press("offer")
    assert isinstance(g.log[-1], OfferTrade) or any(isinstance(a, OfferTrade) for a in g.log[-6:])
    assert all(s.value == 0 for s in t.offer_give + t.offer_get)


def test_game_over_reveals_every_hidden_victory_point():
    """Item 5 (B-DEV-9): during the game the others' VP cards are hidden; at the end the scoreboard, the hands
    and the log show them, so the winner's total agrees with the scoreboard."""
    from catan_nb import DevCard

    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=4, start="beginner", bot_delay=None)
    g = t.game
    for q in (1, 2):
        g.dev[q][DevCard.VICTORY_POINT.value] += 1
        g.deck[DevCard.VICTORY_POINT.value] -= 1
    t.refresh()

    def vp_cells():
        rows = re.findall(r"</span> ([A-Z][a-z]+)(?: \(bot\))?</td><td>(\d+)</td>", t.scoreboard.value)
        return {name: int(v) for name, v in rows}

    cells = vp_cells()
    assert cells["Blue"] == g.vp(1, visible=True) == g.vp(1) - 1 and "Victory Point" not in shown(t.widget)
    HumanDriver(t, seed=3, offer_rate=0).play(400)
    assert g.is_over
    cells = vp_cells()
    assert cells == {t.name(q).split(" (")[0]: g.vp(q) for q in range(g.n)}, cells
    assert f"wins with {g.vp(g.winner)} VP" in t.status.value
    text = "\n".join(re.sub("<[^>]+>", "", x) for x in t.log_lines[-8:])
    for q in range(g.n):
        hidden = g.vp(q) - g.vp(q, visible=True)
        if hidden:
            assert f"{t.name(q)} reveals {hidden} victory point card" in text, text
    assert all(f"seat {q}:" in t.hand_box.value for q in range(g.n))


def test_cities_knights_cost_card_and_scoreboard_show_what_the_modules_declare():
    """Item 4: C&K's cost card lists knights, walls and the next improvements, no development card and no
    Buy button; its scoreboard has improvements, knight strength, commodities, progress cards, Defender
    points and metropolises, and no development cards or Largest Army.  The base game keeps its own."""
    seed = first_roll_seed(lambda d, g: sum(d) != 7, rules=CK)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner",
                  bot_delay=None, rules=CK)
    t.press("roll")
    assert t.game.phase.value == "main"
    cost = re.sub("<[^>]+>", "", t.cost_box.value)
    for row in ("road", "settlement", "city", "hire a knight", "promote a knight", "activate a knight", "city wall",
                "trade level 1", "politics level 1", "science level 1"):
        assert row in cost, (row, cost)
    assert "development" not in cost
    assert t.buttons["buy"].layout.display == "none"
    heads = re.findall(r"<th title='[^']*'>([^<]+)</th>", t.scoreboard.value)
    assert heads == ["VP", "cards", "impr.", "knights", "comm.", "prog.", "def.", "metro.", "road"], heads
    base = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner",
                     bot_delay=None)
    assert "development card" in base.cost_box.value and "knight" not in base.cost_box.value
    assert re.findall(r"<th title='[^']*'>([^<]+)</th>", base.scoreboard.value) == ["VP", "cards", "dev", "knights",
                                                                                   "road"]
    sea = make_table("seafarers islands")
    assert "ship" in re.sub("<[^>]+>", "", sea.cost_box.value)


def test_gold_says_who_picks_and_what_they_took():
    """Item 9 (SF-1): a roll that pays a gold field says who picks how many (never "nobody collects
    anything"); the picks, made with the panel's buttons, read as one line."""
    from catan_nb import Resource

    board = gold_board(Board.beginner(), 4)  # hills 6: seats 0 and 2 have a settlement on it
    rules = Rules(modules=("gold_fields",))
    seed = first_roll_seed(lambda d, g: sum(d) == 6, board=board, rules=rules)
    t = GameTable(board, seats=["human", "bot", "human", "bot"], seed=seed, start="beginner", bot_delay=None,
                  rules=rules)
    t.press("roll")
    lines = [re.sub("<[^>]+>", "", x) for x in t.log_lines]
    assert any("Red picks 1 resource of their choice from a gold field" in x for x in lines), lines[-5:]
    assert not any("nobody collects anything" in x for x in lines[-4:])
    panel = next(p for p in t.panels if hasattr(p, "buttons") and Resource.ORE in p.buttons)
    assert t.game.phase.value == "gold_pick" and t.game.current_player == 0
    panel.buttons[Resource.ORE].click()
    assert any("Red took 1 ore from a gold field" in re.sub("<[^>]+>", "", x) for x in t.log_lines[-3:])


def test_log_sentences_discards_in_one_line_and_articles():
    """Item 11: a bot discarding card by card is one line ("discarded 4 cards"); "stole an ore"."""
    from catan_nb import Resource
    from catan_nb.rules import MoveRobber
    from catan_nb.viz.text import a_card
    from helpers import deal

    assert a_card(Resource.ORE) == "an ore" and a_card(Resource.BRICK) == "a brick"
    seed = first_roll_seed(lambda d, g: sum(d) == 7)
    t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=seed, start="beginner", bot_delay=None)
    g = t.game
    deal(g, 1, ore=9)
    t.refresh()
    owed = g.copy()
    owed.play(RollDice())
    owed = owed.discards_owed()[1]
    t.press("roll")
    while g.phase.value == "discard" and g.current_player == 0:
        owed = g.discards_owed()[0]
        cards = [i for i, k in enumerate(g.hands[0]) for _ in range(k)][:owed]
        for i, s in enumerate(t.discard_counts):
            s.value = cards.count(i)
        t.press("discard")
    lines = [re.sub("<[^>]+>", "", x) for x in t.log_lines]
    blue = [x for x in lines if x.startswith("Blue (bot) discarded")]
    assert blue == [f"Blue (bot) discarded {owed} cards"], lines[-8:]
    robbers = [a for a in g.legal_actions() if isinstance(a, MoveRobber) and a.victim == 1]
    t.play(robbers[0])
    stolen = [x for x in map(lambda x: re.sub("<[^>]+>", "", x), t.log_lines) if "stole" in x][-1]
    assert "stole an ore from Blue" in stolen or "stole a " in stolen, stolen


def test_explain_bot_moves_in_the_logs_words():
    """Item 11: "why" lines name the moves as the log does, values rounded; without open hands the
    runners-up are not named (what else a bot could do tells what it holds)."""
    for open_hands in (True, False):
        t = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=4, start="beginner",
                      bot_delay=None, open_hands=open_hands)
        t.explain_box.value = True
        HumanDriver(t, seed=1, offer_rate=0).play(12)
        why = [x for x in t.log_lines if x.startswith("  why:")]
        assert why
        assert not [x for x in why if re.search(r"\d\.\d\d|\(cards|victim \d|path \d|node \d", x)], why[:3]
        assert any("next best: " in x for x in why) == open_hands, why[:3]


def test_every_notebook_table_hides_the_other_hands():
    """Item 2: every table a notebook builds shows the human only its own cards: none passes
    ``viewer=None``, and one that opens the hands (``open_hands=True``) says so in its text."""
    import json
    from pathlib import Path

    root = Path(__file__).parent.parent
    books = sorted((root / "notebooks").rglob("*.ipynb")) + [root / "catan_nb" / "app" / "app.ipynb"]
    tables = 0
    for path in books:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        prose = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").lower()
        for c in cells:
            src = "".join(c["source"])
            if c["cell_type"] != "code" or "GameTable(" not in src:
                continue
            tables += 1
            assert not re.search(r"viewer\s*=\s*None", src), path.name
            if re.search(r"open_hands\s*=\s*True", src):
                assert "open hands" in prose or "open_hands" in prose, f"{path.name} opens the hands without saying so"
    assert tables >= 4


def test_the_log_says_what_the_fog_revealed_and_names_places_as_they_are_now():
    """Item 3 (SF-3): the log says which hex the fog revealed and what its revealer took; later sentences
    name that hex by its terrain and number, not "fog"."""
    t = make_table("seafarers fog+treasure")
    HumanDriver(t, seed=5).play(400, until=lambda t: len(t.game.ext["fog"]["revealed"]) >= 1)
    g = t.game
    hx = g.ext["fog"]["revealed"][0][0]
    terrain, token = g.hex_terrain[hx], g.hex_token[hx]
    lines = [re.sub("<[^>]+>", "", x) for x in t.log_lines]
    told = [x for x in lines if "the fog lifts" in x]
    assert told and f"{terrain}{' ' + str(token) if token else ''} revealed" in told[0], told
    if terrain.resource is not None:
        assert f"takes 1 {terrain.resource}" in told[0]
    from catan_nb.viz.text import live_board, place_of_hex

    assert place_of_hex(live_board(g), hx) == f"{terrain}{' ' + str(token) if token else ''}"


def test_the_status_line_says_where_to_click_for_the_pirate_and_for_a_choice():
    """Items 6 and 7 (SF-10): on a 7 with the pirate the status line names both pieces; when a click
    could mean several moves it says to choose below."""
    from catan_nb.rules.modules.seafarers import MovePirate

    t = make_table("seafarers islands")
    d = HumanDriver(t, seed=3, offer_rate=0)
    d.play(600, until=lambda t: any(isinstance(a, MovePirate) for a in t.legal()))
    assert any(isinstance(a, MovePirate) for a in t.legal()), "no pirate move reached"
    status = re.sub("<[^>]+>", "", t.status.value)
    assert "a highlighted hex for the robber" in status and "a ringed sea hex for the pirate" in status, status
    t.pending_choices = [a for a in t.legal() if isinstance(a, MovePirate)][:2]
    t.refresh()
    assert "choose which move you mean" in re.sub("<[^>]+>", "", t.status.value)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLES))
def test_a_human_seat_finishes_a_game_of_every_module(name):
    """The issue's first check: a human seat plays a whole game to the end in every module's table through
    the handlers (random among what the table offers), with no error it did not cause, no stall, and no
    other seat's hidden card in its widgets or log (checked every 20 decisions)."""
    t = make_table(name, seed=11)
    checked, leaks = watch_the_log(t, random.Random(3))
    d = HumanDriver(t, seed=11)
    for k in range(200):
        d.play(20)
        assert not leaks, leaks[0]
        assert_view_ignores_hidden_cards(t, seed=k)
        if t.game.is_over:
            break
    assert t.game.is_over, f"no winner after {sum(d.done.values())} human decisions"
    assert "wins with" in t.status.value and not d.unreachable

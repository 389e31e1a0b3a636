"""Issue 25: the decisions the seeded whole games of ``test_table_modules`` do not reach, one position each.

Each test builds a position where one decision of the human seat (seat 0) is imminent, puts it in a
:class:`~catan_nb.widgets.GameTable` with the other seats bots, and drives the decision only through
the table's own click and button handlers (:meth:`table_driver.HumanDriver.perform`, the helper the
whole-game tests use: buttons, board clicks, the "Which one?" choice, the "More actions" list, the
module panels and layers; never ``game.play`` once the table holds the game).  Each checks that the
table offers the decision (a visible button, a ringed target or a list entry, and the prompt), that
the human's choice is applied with no error in the status line, and that no hidden card of another
seat shows in any widget (:func:`test_table_modules.assert_view_ignores_hidden_cards`).

How the positions are made (say so in each test): a seeded game is played through the engine
(``game.play``: the bots' moves, or moves with a chosen outcome, ``RollDice(dice=...)``,
``BuyDevelopmentCard(card=...)``, which the engine documents for worked examples), cards are given
with :meth:`Game.deal` (documented for teaching positions), and a module's documented plain-data
state (``game.ext[name]``, described in each module's docstring) is edited where no action can
reach a state quickly (a progress card moved from its deck into a hand; canal tokens moved from
the supply to a seat), always conserving the components.  Where a bot must act against the human
(a Wedding, a displaced knight, a trade offer, a canal offer), a :class:`Scripted` bot seat does it.
"""

from __future__ import annotations

import re

from table_driver import HumanDriver
from test_table_modules import assert_view_ignores_hidden_cards

from catan_nb import Board, Game
from catan_nb.analysis.bots import WeightedBot
from catan_nb.board import BOARDS_DIR
from catan_nb.constants import DevCard, Resource
from catan_nb.rules import (
    AcceptTrade,
    BuyDevelopmentCard,
    ConfirmTrade,
    DeclineTrade,
    EndTurn,
    OfferTrade,
    Phase,
    PlayMonopoly,
    PlayYearOfPlenty,
    RollDice,
    Rules,
)
from catan_nb.widgets import GameTable

HUMAN = 0
#: A move named in the engine's terms rather than a sentence ("retreat (to_node 12)").
ENGINE_WORDS = re.compile(r"\((hex|node|path|cards|victim|to_node|from_node|source|target)\b|_")


class Scripted:
    """A bot seat that plays ``want(game)`` when it returns a move the engine accepts (tried on a copy),
    else what a :class:`~catan_nb.analysis.bots.WeightedBot` would.  ``made`` records its scripted moves."""

    def __init__(self, want, seed: int = 0):
        self.want = want
        self.fallback = WeightedBot(seed)
        self.made: list = []

    def choose(self, game):
        a = self.want(game)
        if a is not None:
            c = game.copy()
            try:
                c.play(a)
            except Exception:  # noqa: BLE001 - not legal here: the weighted bot moves instead
                a = None
        if a is None:
            return self.fallback.choose(game)
        self.made.append(a)
        return a


def advance(g: Game, until, seed: int = 0, limit: int = 5000) -> None:
    """Play ``g`` through the engine with a weighted bot in every seat until ``until(g)`` holds."""
    bot = WeightedBot(seed)
    for _ in range(limit):
        if until(g):
            return
        assert not g.is_over, "the game ended before the position was reached"
        g.play(bot.choose(g))
    raise AssertionError("the position was not reached")


def table_for(g: Game, bots: dict | None = None, *, end_turn: bool = False) -> GameTable:
    """A table for ``g`` with the human in seat 0 and bots elsewhere (``bots``: scripted bots by seat, seated
    while the human is to act, before any bot moves).  ``end_turn``: the human then ends its turn with the
    End turn button; the bots play up to the human's next turn."""
    assert not bots or g.current_player == HUMAN, "scripted bots are seated while the human is to act"
    t = GameTable(g, seats=["human"] + ["bot"] * (g.n - 1), bot_delay=None)
    for q, bot in (bots or {}).items():
        t.bots[q] = bot
    if end_turn:
        assert visible(t.buttons["end"])
        t.press("end")
        assert not t.message.startswith("⚠"), t.message
    t.run_bots()
    return t


def to_own_turn(t: GameTable, limit: int = 50) -> None:
    """Through the table: the human passes the 5-6 players' special building phases (X56-SBP-1) and discards
    on a 7 (B-ROB-2) until its own turn comes (its roll)."""
    d = HumanDriver(t, seed=9, offer_rate=0)
    for _ in range(limit):
        g = t.game
        if g.is_over or (g.current_player == HUMAN and g.active_player == HUMAN and g.phase in (Phase.ROLL, Phase.MAIN)):
            return
        if g.current_player != HUMAN:
            t.run_bots()
            continue
        if g.phase.value == "special_build":
            t.press("end_sbp")
        elif g.phase.value == "discard":
            d._discard()
        else:
            return
        d.check_no_error(g.phase.value)
    raise AssertionError("the human's turn never came")


def text(w) -> str:
    return re.sub("<[^>]+>", "", w.value)


def visible(w) -> bool:
    return w.layout.display != "none"


def ringed_nodes(t: GameTable) -> list[int]:
    """The intersections the board rings now (its ``highlight-nodes`` trace)."""
    return list(t.figure.data[t._idx["highlight-nodes"]].customdata or ())


def human_does(t: GameTable, pick, seed: int = 0, via=None):
    """Play the legal move of the human that ``pick`` selects, through the table's handlers only (``via(t, move)``:
    a given click, else the driver's way); check it is offered, applied (logged) with no error in the status
    line, and that no other seat's hidden card shows."""
    assert t.game.current_player == HUMAN and t.legal(), (t.game.phase, t.game.current_player)
    assert_view_ignores_hidden_cards(t, seed=seed)
    moves = [a for a in t.legal() if pick(a)]
    assert moves, f"the table does not offer the move: {t.legal()[:8]}"
    a = moves[0]
    if a in t.special_actions():  # the "More actions" list: shown, with a sentence for the move, and the prompt says so
        labels = [label for label, v in t.special.options if v == a]
        assert visible(t.special_row) and len(labels) == 1, labels
        assert re.match(r"[a-z]", labels[0]) and not ENGINE_WORDS.search(labels[0]), labels[0]
        if not any(x in text(t.status) for x in ("click", "ringed")):
            assert "More actions" in text(t.status), text(t.status)
    n, lines = len(t.game.log), len(t.log_lines)
    d = HumanDriver(t, seed=seed, offer_rate=0)
    if via is None:
        d.perform(a)
    else:
        via(t, a)
    d.check_no_error(a)
    assert any(type(x) is type(a) for x in t.game.log[n:]), f"{a!r} was not played: {t.message}"
    said = [re.sub("<[^>]+>", "", x) for x in t.log_lines[lines:]]
    assert said and not [x for x in said if re.search(r"\((hex|node|path|cards|victim|to_node|from_hex) |^'s ", x)], said
    if not t.game.is_over and t.game.current_player == HUMAN:
        assert_view_ignores_hidden_cards(t, seed=seed + 1)
    return a


def buy_then_wait(g: Game, card: DevCard) -> None:
    """Seat 0, in its main phase, is dealt a development card's price and buys ``card`` (its outcome chosen),
    then ends its turn (a card is played from the next turn on, B-TURN-5)."""
    g.deal(HUMAN, {Resource.ORE: 1, Resource.WOOL: 1, Resource.GRAIN: 1})
    g.play(BuyDevelopmentCard(card=card))
    g.play(EndTurn())


# ---------------------------------------------------------------------------- development cards
def test_base_monopoly_through_its_button():
    """B-DEV-7 (Monopoly): the human names a resource with the Monopoly row and takes every other seat's
    cards of it.  Position: a beginner game, seat 0 rolls a 5 and buys a Monopoly card (its outcome given
    to ``BuyDevelopmentCard``), the bots play their turns at the table; seat 0 plays it before rolling."""
    g = Game(Board.beginner(), players=4, seed=3, start="beginner")
    g.play(RollDice(dice=(2, 3)))
    advance(g, lambda g: g.current_player == HUMAN and g.phase is Phase.MAIN)
    buy_then_wait(g, DevCard.MONOPOLY)
    for q in (1, 2, 3):
        g.deal(q, {Resource.BRICK: 1})
    t = table_for(g)
    assert t.game.current_player == HUMAN
    assert visible(t.mono_row) and not t.buttons["monopoly"].disabled and not t.mono_res.disabled
    others = sum(t.game.hands[q][Resource.BRICK.value] for q in (1, 2, 3))
    mine = t.game.hands[HUMAN][Resource.BRICK.value]
    assert others
    human_does(t, lambda a: a == PlayMonopoly(Resource.BRICK))
    assert t.game.hands[HUMAN][Resource.BRICK.value] == mine + others
    assert not any(t.game.hands[q][Resource.BRICK.value] for q in (1, 2, 3))


def test_corsica_year_of_plenty_through_its_button():
    """B-DEV-6 (Year of Plenty) at the Corsica table (5 players, SC-*): the two dropdowns name the resources
    and the button takes them from the bank.  Position: weighted bots play the founding and the first turns
    through the engine up to seat 0's main phase; seat 0 is dealt the price and buys a Year of Plenty
    (outcome given); the bots play on at the table up to seat 0's next turn."""
    board = Board.load(BOARDS_DIR / "corsica.json")
    g = Game(board, players=5, seed=4, rules=Rules.for_board(board))
    advance(g, lambda g: g.current_player == HUMAN and g.phase is Phase.MAIN)
    buy_then_wait(g, DevCard.YEAR_OF_PLENTY)
    t = table_for(g)
    to_own_turn(t)
    assert t.game.current_player == HUMAN
    assert visible(t.yop_row) and not t.buttons["year_of_plenty"].disabled
    before = list(t.game.hands[HUMAN])
    human_does(t, lambda a: a == PlayYearOfPlenty(Resource.GRAIN, Resource.ORE))
    after = t.game.hands[HUMAN]
    assert after[Resource.ORE.value] == before[Resource.ORE.value] + 1
    assert after[Resource.GRAIN.value] == before[Resource.GRAIN.value] + 1


# ---------------------------------------------------------------------------- answering a bot's offer
def test_answering_a_bots_trade_offer_accept_then_decline():
    """B-TRADE-2, B-TRADE-3 (phase ``trade_response``): a bot offers the human a trade; the table shows the
    offer with Accept and Decline; the human accepts one offer (the bot then trades with the human) and
    declines the next.  Position: a beginner game; seat 0 ends its first turn through the engine; seat 1
    (a scripted bot) is dealt wool and offers 1 wool for 1 of what the human holds, twice."""
    g = Game(Board.beginner(), players=4, seed=5, start="beginner")
    g.play(RollDice(dice=(2, 3)))
    g.deal(1, {Resource.WOOL: 2})
    g.deal(HUMAN, {Resource.ORE: 2})
    advance(g, lambda g: g.current_player == HUMAN and g.phase is Phase.MAIN)
    offer = OfferTrade(tuple(int(i == Resource.WOOL.value) for i in range(5)),
                       tuple(int(i == Resource.ORE.value) for i in range(5)))

    def want(game):
        if game.current_player != 1:
            return None
        if game.phase is Phase.ROLL:
            return RollDice(dice=(2, 2))  # a 4: no 7, nobody's hand changes much
        if game.phase is Phase.MAIN and sum(isinstance(a, OfferTrade) for a in bot.made) < 2:
            return offer
        if game.phase.value == "trade_confirm" and HUMAN in game.trade_partners:
            return ConfirmTrade(HUMAN)
        return None

    bot = Scripted(want, seed=1)
    t = table_for(g, {1: bot}, end_turn=True)
    assert g.phase.value == "trade_response" and g.current_player == HUMAN, g.phase
    assert visible(t.response_row) and visible(t.buttons["accept"]) and visible(t.buttons["decline"])
    assert "offers" in text(t.response_row.children[0]) and "answers the trade offer" in text(t.status)
    ore, wool = g.hands[HUMAN][Resource.ORE.value], g.hands[HUMAN][Resource.WOOL.value]
    n = len(g.log)
    human_does(t, lambda a: a == AcceptTrade())
    assert any(isinstance(a, ConfirmTrade) and a.partner == HUMAN for a in g.log[n:]), g.log[n:]
    assert (g.hands[HUMAN][Resource.ORE.value], g.hands[HUMAN][Resource.WOOL.value]) == (ore - 1, wool + 1)
    assert g.phase.value == "trade_response" and g.current_player == HUMAN, g.phase  # the second offer
    human_does(t, lambda a: a == DeclineTrade())
    assert g.hands[HUMAN][Resource.ORE.value] == ore - 1


def test_answering_a_bots_canal_offer_accept_then_decline():
    """ERIE-5 (phase ``canal_answer``): canal tokens are traded like resources; a bot offers the human a canal
    token for an ore; the canal panel beside the board shows the offer with Accept and Decline; the human
    accepts (the token moves to the human) and declines the next.  Position: New York with the Erie Canal,
    weighted bots play the founding through the engine up to seat 0's main phase; seat 0 is dealt 2 ore;
    seat 1 gets 2 tokens from the supply (the module's documented state, ``ext["erie_canal"]``: ``supply``
    and ``tokens``, conserved); seat 1 (a scripted bot) offers one token for one ore, twice."""
    from catan_nb.rules.modules.erie_canal import AnswerCanal, OfferCanal

    board = Board.load(BOARDS_DIR / "new_york.json")
    g = Game(board, players=4, seed=2, rules=Rules.for_board(board))
    advance(g, lambda g: g.current_player == HUMAN and g.phase is Phase.MAIN)
    g.deal(HUMAN, {Resource.ORE: 2})
    er = g.ext["erie_canal"]
    er["supply"] -= 2
    er["tokens"][1] += 2
    offer = OfferCanal(HUMAN, 1, tuple(int(i == Resource.ORE.value) for i in range(g.n_goods)))

    def want(game):
        if game.current_player != 1:
            return None
        if game.phase is Phase.ROLL:
            return RollDice(dice=(2, 2))  # a 4: no 7
        if game.phase is Phase.MAIN and sum(isinstance(a, OfferCanal) for a in bot.made) < 2:
            return offer
        return None

    bot = Scripted(want, seed=1)
    t = table_for(g, {1: bot}, end_turn=True)
    g = t.game
    assert g.phase.value == "canal_answer" and g.current_player == HUMAN, g.phase
    panel = next(p for p in t.panels if hasattr(p, "answer_row"))
    assert visible(panel.answer_row) and not t.buttons["canal_accept"].disabled
    assert "canal token" in text(panel.answer_note) and "answers an offer of canal tokens" in text(t.status)
    ore = g.hands[HUMAN][Resource.ORE.value]
    human_does(t, lambda a: a == AnswerCanal(True))
    assert er["tokens"][HUMAN] == 1 and g.hands[HUMAN][Resource.ORE.value] == ore - 1
    assert g.phase.value == "canal_answer" and g.current_player == HUMAN, g.phase  # the second offer
    human_does(t, lambda a: a == AnswerCanal(False))
    assert er["tokens"][HUMAN] == 1 and g.hands[HUMAN][Resource.ORE.value] == ore - 1


def human_until(t: GameTable, done, limit: int = 80) -> None:
    """Through the table, the human's routine moves (roll, the special building phase's end, a discard, the
    robber) and the bots' until ``done(t.game)`` holds with the human to act."""
    d = HumanDriver(t, seed=11, offer_rate=0)
    for _ in range(limit):
        g = t.game
        assert not g.is_over
        if g.current_player != HUMAN:
            t.run_bots()
            continue
        if done(g):
            return
        legal = t.legal()
        kinds = {type(a).__name__: a for a in reversed(legal)}
        if g.phase.value == "discard":
            d._discard()
        else:
            a = next((kinds[k] for k in ("RollDice", "EndSpecialBuild", "MoveRobber", "EndTurn") if k in kinds), legal[0])
            d.perform(a)
        d.check_no_error(g.phase.value)
    raise AssertionError("the position never came")


# ---------------------------------------------------------------------------- helpers (with Friends)
def test_helpers_explorer_then_exchange_for_the_priest_and_use_it():
    """H-CARD-9 (the Explorer, A4, PROPOSAL): move a dead-end road to another legal path, from the "More
    actions" list; H-SETUP/F: after using a helper the human exchanges it for one of the display (the
    Priest); H-CARD-7 (the Priest), the next turn: give up a knight card to build a city for 1 grain and
    2 ore.  Position: Friends and Helpers, 4 players, beginner start (H-SETUP-4 deals seat 0 the Explorer,
    the Priest lies in the display); seat 0 rolls a 5 and is dealt the price of a development card and buys
    a knight (outcome given), then 1 grain and 2 ore; all through the engine, then the table."""
    from catan_nb.constants import HelperCard

    g = Game(Board.beginner(), players=4, seed=1, start="beginner", rules=Rules(modules=("friends", "helpers")))
    hp = g.ext["helpers"]
    assert hp["held"][HUMAN] == HelperCard.EXPLORER.value and HelperCard.PRIEST.value in hp["display"]
    g.play(RollDice(dice=(2, 3)))
    advance(g, lambda g: g.current_player == HUMAN and g.phase is Phase.MAIN)
    g.deal(HUMAN, {Resource.ORE: 1, Resource.WOOL: 1, Resource.GRAIN: 1})
    g.play(BuyDevelopmentCard(card=DevCard.KNIGHT))
    t = table_for(g)
    explorer = human_does(t, lambda a: type(a).__name__ == "UseExplorer")
    assert t.game.edge_owner[explorer.target] == HUMAN and t.game.edge_owner[explorer.source] == -1
    assert t.game.phase.value == "helper_after_use"
    human_does(t, lambda a: type(a).__name__ == "ExchangeHelper" and a.take is HelperCard.PRIEST)
    assert hp["held"][HUMAN] == HelperCard.PRIEST.value
    human_does(t, lambda a: a == EndTurn())
    human_until(t, lambda g: g.phase is Phase.MAIN and g.active_player == HUMAN)
    g = t.game
    g.deal(HUMAN, {Resource.GRAIN: 1, Resource.ORE: 2})  # the Priest's city price, dealt before the click
    t.refresh()
    cities = g.n_cities[HUMAN]
    priest = human_does(t, lambda a: type(a).__name__ == "UsePriest" and a.build == "city")
    assert g.n_cities[HUMAN] == cities + 1 and g.dev_cards(HUMAN)[DevCard.KNIGHT] == 0, priest


def test_helpers_noblewoman_chooses_the_player_then_sees_the_hand():
    """H-CARD-8 (the Noblewoman) in two steps, like the Master Merchant: the "More actions" list names each
    player with more visible VP who holds a card ("use the Noblewoman to look at Blue's hand"), never a card;
    once one is chosen, the list shows the cards of that hand ("take 1 wool with the Noblewoman") and the
    human takes one.  Position: Helpers, 4 players, beginner start; weighted bots play seat 0 too, through the
    engine, until seat 0 is in its main phase with an opponent ahead on visible VP, holding a card, and no
    helper used or received this turn; the Noblewoman is then swapped into seat 0's hand from the display
    (the helpers' documented state, cards conserved)."""
    from catan_nb.constants import HelperCard

    g = Game(Board.beginner(), players=4, seed=2, start="beginner", rules=Rules(modules=("helpers",)))
    hp = g.ext["helpers"]

    def ahead(g):
        mine = g.vp(HUMAN, visible=True)
        return [q for q in range(1, g.n) if g.vp(q, visible=True) > mine and sum(g.hands[q])]

    advance(g, lambda g: (g.current_player == HUMAN == g.active_player and g.phase is Phase.MAIN and ahead(g)
                          and not hp["used"][HUMAN] and not hp["fresh"][HUMAN]
                          and HelperCard.NOBLEWOMAN.value in hp["display"] + [hp["held"][HUMAN]]))
    if hp["held"][HUMAN] != HelperCard.NOBLEWOMAN.value:
        i = hp["display"].index(HelperCard.NOBLEWOMAN.value)
        hp["display"][i], hp["held"][HUMAN] = hp["held"][HUMAN], HelperCard.NOBLEWOMAN.value
        hp["side"][HUMAN] = "A"
    victims = ahead(g)
    t = table_for(g)
    listed = [a for a in t.legal() if type(a).__name__ == "UseNoblewoman"]
    assert [a.victim for a in listed] == victims and all(a.resource is None for a in listed)
    labels = [label for label, a in t.special.options if a in listed]
    assert labels == [f"use the Noblewoman to look at {t.name(q).split(' (')[0]}'s hand" for q in victims], labels
    q = victims[0]
    hand, mine = list(t.game.hands[q]), list(t.game.hands[HUMAN])
    human_does(t, lambda a: a in listed and a.victim == q)
    assert t.game.phase.value == "noblewoman" and t.game.hands[q] == hand
    takes = [a for a in t.legal()]
    assert [a.resource.value for a in takes] == [r for r in range(5) if hand[r]]
    labels = [label for label, a in t.special.options]
    assert labels == [f"take 1 {a.resource} with the Noblewoman" for a in takes], labels
    took = human_does(t, lambda a: a == takes[-1])
    r = took.resource.value
    assert t.game.hands[q][r] == hand[r] - 1 and t.game.hands[HUMAN][r] == mine[r] + 1
    assert t.game.phase.value == "helper_after_use"


# ---------------------------------------------------------------------------- Cities & Knights
CK = Rules(modules=("cities_knights",))
QUIET = (1, 1, 4)  # a 2 (nobody collects on the beginner board) and the yellow gate (nobody draws at level 0)


def ck_game(seed: int = 1) -> Game:
    """The beginner start with Cities & Knights; seat 0 rolls a quiet 2 and is in its main phase; its two
    settlements become cities, bought through the engine with dealt cards (CK-COM-*, B-BUILD-*)."""
    from catan_nb.rules import BuildCity

    g = Game(Board.beginner(), players=4, seed=seed, start="beginner", rules=CK)
    g.play(RollDice(dice=QUIET))
    for v in sorted(g.placed[g.kind_id["settlement"]][HUMAN]):
        g.deal(HUMAN, {Resource.GRAIN: 2, Resource.ORE: 3})
        g.play(BuildCity(v))
    return g


def holding(g: Game, seat: int, card: str) -> None:
    """``seat`` holds progress card ``card``, taken from its deck (``ext["cities_knights"]``: ``decks`` and each
    seat's ``hands``, documented plain data; the card is conserved)."""
    st = g.ext["cities_knights"]
    next(d for d in st["decks"] if card in d).remove(card)
    st["hands"][seat].append(card)
    st["hands"][seat].sort()


def knight_at(g: Game, seat: int, node: int, level: int, active: bool) -> None:
    """A knight of ``seat`` on ``node`` (the piece placed with :meth:`Game.place`, its row in the documented
    ``ext["cities_knights"]["knights"]``: ``[node, seat, level, active, fresh, promoted]``, sorted by node)."""
    g.place(seat, "knight", node)
    st = g.ext["cities_knights"]
    st["knights"].append([node, seat, level, active, False, False])
    st["knights"].sort()


def test_ck_metropolis_chosen_at_the_table():
    """CK-IMP-4 (phase ``metropolis``): the first to politics level 4 chooses which of their cities becomes the
    metropolis.  Position: seat 0 with two cities (``ck_game``) is dealt 6 coin and improves politics to level 3
    through the engine, then is dealt 4 coin; at the table it presses "Improve politics" and picks a city."""
    from catan_nb.constants import Commodity
    from catan_nb.rules.modules.cities_knights import ChooseMetropolis, ImproveCity, Track

    g = ck_game()
    g.deal(HUMAN, {Commodity.COIN: 6})
    for _ in range(3):
        g.play(ImproveCity(Track.POLITICS))
    g.deal(HUMAN, {Commodity.COIN: 4})
    t = table_for(g)
    assert visible(t.buttons["improve_politics"]) and not t.buttons["improve_politics"].disabled
    vp = g.vp(HUMAN)
    human_does(t, lambda a: a == ImproveCity(Track.POLITICS))
    assert g.phase.value == "metropolis" and "chooses the city for a metropolis" in text(t.status)
    choices = [a for a in t.legal() if isinstance(a, ChooseMetropolis)]
    assert len(choices) == 2
    assert all(label.startswith("raise a metropolis at ") for label, v in t.special.options), t.special.options
    assert sorted(ringed_nodes(t)) == sorted(a.node for a in choices) and "click a ringed intersection" in text(t.status)
    chosen = human_does(t, lambda a: a == choices[-1], via=lambda t, a: t.click_node(a.node))  # a click on its city
    assert g.ext["cities_knights"]["metropolis"][Track.POLITICS.value] == [HUMAN, chosen.node]
    assert g.vp(HUMAN) == vp + 2


def test_ck_knight_displaced_by_a_bot_retreats_where_the_human_says():
    """CK-KN-5, CK-KN-6 (phase ``knight_retreat``): a bot's stronger active knight displaces the human's knight,
    and the human moves it to a free intersection connected to it.  Position (``ck_game``): seat 1's road is
    extended from one of its free road intersections, a strong active knight of seat 1 stands there and a basic
    knight of seat 0 at the road's other end, where seat 0 also has a road on (pieces placed with
    :meth:`Game.place`, the knights' rows in the documented state); the human ends its turn at the table and
    seat 1 (a scripted bot) rolls a quiet 2 and displaces the human's knight."""
    from catan_nb.rules.modules.cities_knights import DisplaceKnight, RetreatKnight, knights

    g = ck_game()
    t_ = g.topology
    v = next(w for w in sorted(g.road_nodes[1]) if w in g.candidates(1, "knight"))
    road = next(e for e in t_.node_edges[v] if g.edge_owner[e] < 0 and t_.edge_land[e])
    g.place(1, "road", road)
    w = next(x for x in t_.edge_nodes[road] if x != v)
    on = next(e for e in t_.node_edges[w] if g.edge_owner[e] < 0 and t_.edge_land[e])
    g.place(HUMAN, "road", on)
    knight_at(g, 1, v, 2, True)
    knight_at(g, HUMAN, w, 1, False)
    displace = DisplaceKnight(v, w)

    def want(game):
        if game.current_player != 1:
            return None
        return RollDice(dice=QUIET) if game.phase is Phase.ROLL else displace

    bot = Scripted(want, seed=2)
    t = table_for(g, {1: bot}, end_turn=True)
    assert displace in bot.made and g.phase.value == "knight_retreat" and g.current_player == HUMAN, g.phase
    assert "moves their displaced knight" in text(t.status)
    options = [a for a in t.legal() if isinstance(a, RetreatKnight)]
    assert any(a.to_node is not None for a in options), options
    labels = [label for label, v in t.special.options if isinstance(v, RetreatKnight)]
    assert all(x.startswith(("retreat your knight to ", "take your knight off")) for x in labels), labels
    assert sorted(ringed_nodes(t)) == sorted(a.to_node for a in options if a.to_node is not None)
    a = human_does(t, lambda a: isinstance(a, RetreatKnight) and a.to_node is not None,
                   via=lambda t, a: t.click_node(a.to_node))  # a click on a ringed intersection
    assert [r[:3] for r in knights(g, HUMAN)] == [[a.to_node, HUMAN, 1]]


def test_ck_intrigue_displaces_a_bots_knight_on_the_humans_roads():
    """CK-PC-14 (Intrigue): the human displaces an opponent's knight on an intersection of its roads without a
    knight of its own; the bot retreats it (CK-KN-6).  Position (``ck_game``): seat 0 holds Intrigue (moved
    from its deck, documented state) and a basic knight of seat 1 stands on a free intersection of seat 0's
    roads (placed with :meth:`Game.place`)."""
    from catan_nb.rules.modules.cities_knights import PlayIntrigue, knights

    g = ck_game()
    v = next(w for w in sorted(g.road_nodes[HUMAN]) if w in g.candidates(HUMAN, "knight"))
    knight_at(g, 1, v, 1, False)
    holding(g, HUMAN, "intrigue")
    t = table_for(g)
    assert "intrigue" in text(next(p for p in t.panels if hasattr(p, "improve")).html)
    human_does(t, lambda a: a == PlayIntrigue(v))
    assert g.node_owner[v] != 1 and all(r[0] != v for r in knights(g, 1))
    assert "intrigue" not in g.ext["cities_knights"]["hands"][HUMAN]


def test_ck_inventor_swaps_two_tokens():
    """CK-PC-4 (Inventor): the human swaps the number tokens of two hexes (never 2, 6, 8 or 12).  Position
    (``ck_game``): seat 0 holds the Inventor (moved from its deck, documented state)."""
    from catan_nb.rules.modules.cities_knights import PlayInventor

    g = ck_game()
    holding(g, HUMAN, "inventor")
    t = table_for(g)
    tokens = list(g.hex_token)
    a = human_does(t, lambda a: isinstance(a, PlayInventor))
    assert (g.hex_token[a.first], g.hex_token[a.second]) == (tokens[a.second], tokens[a.first])
    assert {tokens[a.first], tokens[a.second]}.isdisjoint({2, 6, 8, 12})


def bot_one_plays(g: Game, card):
    """The human ends its turn at the table; seat 1, a scripted bot, rolls a quiet 2 and plays ``card``.
    Returns the bot and the table."""

    def want(game):
        if game.current_player != 1:
            return None
        return RollDice(dice=QUIET) if game.phase is Phase.ROLL else card

    bot = Scripted(want, seed=3)
    return bot, table_for(g, {1: bot}, end_turn=True)


def test_ck_wedding_the_human_gives_presents_to_a_bot():
    """CK-PC-18 (Wedding, phase ``wedding``): a bot behind the human plays the Wedding; the human, with more
    VP, gives 2 resources or commodities of its choice.  Position (``ck_game``: seat 0 has two cities, more VP
    than every bot) seat 0 is dealt 2 ore and 1 cloth; seat 1 holds the Wedding (moved from its deck,
    documented state); the human ends its turn at the table and seat 1 (a scripted bot) rolls a quiet 2 and
    plays the Wedding."""
    from catan_nb.constants import Commodity
    from catan_nb.rules.modules.cities_knights import GiveGoods, PlayProgress

    g = ck_game()
    g.deal(HUMAN, {Resource.ORE: 2, Commodity.CLOTH: 1})
    holding(g, 1, "wedding")
    wedding = PlayProgress("wedding")

    bot, t = bot_one_plays(g, wedding)
    assert wedding in bot.made and g.phase.value == "wedding" and g.current_player == HUMAN, g.phase
    assert "gives wedding presents" in text(t.status)
    held = sum(g.hands[HUMAN])
    cloth = g.good_index(Commodity.CLOTH)
    before = list(g.hands[HUMAN])
    human_does(t, lambda a: isinstance(a, GiveGoods) and a.cards[cloth] == 1)  # the engine takes a card at a time
    assert g.phase.value == "wedding" and g.current_player == HUMAN and g.hands[HUMAN][cloth] == before[cloth] - 1
    human_does(t, lambda a: isinstance(a, GiveGoods) and a.cards[Resource.ORE.value] == 1)
    assert sum(g.hands[HUMAN]) == held - 2 and g.hands[HUMAN][Resource.ORE.value] == before[Resource.ORE.value] - 1


def test_ck_deserter_played_by_a_bot_the_human_removes_its_knight():
    """CK-PC-12 (Deserter, phase ``deserter``): a bot plays the Deserter on the human, who removes one of its
    knights (ringed on the board or in the list).  Position (``ck_game``): seat 0 hires a knight through the
    engine (dealt 1 ore and 1 wool); seat 1 holds the Deserter (moved from its deck, documented state); the
    human ends its turn at the table and seat 1 (a scripted bot) rolls a quiet 2 and plays the Deserter on it."""
    from catan_nb.rules.modules.cities_knights import HireKnight, PlayDeserter, RemoveKnight, knights

    g = ck_game()
    g.deal(HUMAN, {Resource.ORE: 1, Resource.WOOL: 1})
    g.play(HireKnight(g.candidates(HUMAN, "knight")[0]))
    mine = [r[0] for r in knights(g, HUMAN)]
    holding(g, 1, "deserter")
    deserter = PlayDeserter(HUMAN)

    bot, t = bot_one_plays(g, deserter)
    assert deserter in bot.made and g.phase.value == "deserter" and g.current_player == HUMAN, g.phase
    human_does(t, lambda a: isinstance(a, RemoveKnight) and a.node == mine[0])
    assert not knights(g, HUMAN) and g.phase.value != "deserter"


def test_ck_commercial_harbor_played_by_a_bot_the_human_replies_with_a_commodity():
    """CK-PC-19 (Commercial Harbor, phase ``harbor_reply``): a bot offers the human a resource and the human
    gives a commodity of its choice in return.  Position (``ck_game``): seat 0 is dealt 1 cloth and 1 coin,
    the bots hold no commodity (so the human is the one asked), seat 1 is dealt 2 lumber and holds the
    Commercial Harbor (moved from its deck); the human ends its turn at the table and seat 1 (a scripted bot)
    rolls a quiet 2 and plays it."""
    from catan_nb.constants import Commodity
    from catan_nb.rules.modules.cities_knights import HarborReply, PlayProgress

    g = ck_game()
    g.deal(HUMAN, {Commodity.CLOTH: 1, Commodity.COIN: 1})
    for q in (1, 2, 3):
        assert not any(g.hands[q][5:])
    g.deal(1, {Resource.LUMBER: 2})
    holding(g, 1, "commercial_harbor")
    harbor = PlayProgress("commercial_harbor")

    bot, t = bot_one_plays(g, harbor)
    assert harbor in bot.made and g.phase.value == "harbor_reply" and g.current_player == HUMAN, g.phase
    coin = g.good_index(Commodity.COIN)
    before = list(g.hands[HUMAN])
    assert type(g.log[-1]).__name__ == "HarborOffer"  # the resource the bot gave the human
    human_does(t, lambda a: isinstance(a, HarborReply) and a.commodity is Commodity.COIN)
    assert g.hands[HUMAN][coin] == before[coin] - 1 and g.phase.value != "harbor_reply"


# ---------------------------------------------------------------------------- Great Catan
def sail(g: Game, seat: int, limit: int = 40) -> int:
    """Ships of ``seat`` placed (:meth:`Game.place`) one by one on legal ship paths (``g.candidates``), each the
    nearest to a small-island hex still waiting for its token, until one more ship would reach such a hex:
    returns that path (not placed)."""
    from catan_nb.rules.modules.great_catan import small_hexes

    t = g.topology
    pos = g.board.graph.nodes
    st = g.ext["great_catan"]

    def centre(nodes):
        xs = [pos[v]["pos"] for v in nodes]
        return sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)

    for _ in range(limit):
        pending = {h for _, h in st["waiting"]}
        waiting = [h for h in small_hexes(g) if not g.hex_token[h] and h not in pending]
        assert waiting, "no small island waits for a token"
        cands = g.candidates(seat, "ship")
        assert cands, f"seat {seat} has nowhere to build a ship"
        for e in cands:
            a, b = t.edge_nodes[e]
            if set(t.node_hexes[a]) & set(t.node_hexes[b]) & set(waiting):
                return e
        targets = [centre(t.hex_nodes[h]) for h in waiting]

        def far(e):
            x, y = centre(t.edge_nodes[e])
            return min((x - u) ** 2 + (y - v) ** 2 for u, v in targets)

        g.place(seat, "ship", min(cands, key=far))
    raise AssertionError(f"seat {seat}'s ships reach no small island")


def test_great_catan_the_human_moves_a_token_once_the_supply_is_used_up():
    """SF-15, SF-16 (phase ``move_token``): once the supply's 5 tokens (4 players) are on small islands, a ship
    that reaches another small island makes its owner move a token from the main island; the table rings
    the main-island tokens that may move (the Great Catan layer) and a click moves one.  Position: weighted
    bots play the founding through the engine up to seat 0's main phase; ships are placed on legal ship paths
    (:meth:`Game.place`, which tells the module, SF-15) until the bots' ships have brought the 5 supply tokens;
    seat 0's ships sail up to one path short of a small island and seat 0 is dealt a ship's price; at the
    table the human clicks that path (a ship), then a ringed token."""
    from catan_nb.rules.modules.great_catan import MoveNumberToken
    from catan_nb.rules.modules.seafarers import BuildShip

    board = Board.load(BOARDS_DIR / "seafarers_great_catan.json")
    g = Game(board, players=4, seed=3, rules=Rules.for_board(board))
    advance(g, lambda g: g.current_player == HUMAN and g.phase is Phase.MAIN, seed=5)  # every seat on a coast
    st = g.ext["great_catan"]
    seat = 1
    while st["supply"]:
        g.place(seat, "ship", sail(g, seat))  # SF-15: a token from the supply
        seat = seat % 3 + 1
    assert not st["waiting"] and g.phase is Phase.MAIN
    last = sail(g, HUMAN)
    g.deal(HUMAN, {Resource.LUMBER: 1, Resource.WOOL: 1})
    t = table_for(g)
    human_does(t, lambda a: a == BuildShip(last))
    assert g.phase.value == "move_token" and g.current_player == HUMAN, g.phase
    assert "moves a number token from the main island" in text(t.status)
    layer = next(la for la in t.layers if MoveNumberToken in la.handles)
    ringed = t.figure.data[t._idx["great_catan:sources"]]
    sources = sorted(a.from_hex for a in t.legal() if isinstance(a, MoveNumberToken))
    assert sources and list(ringed.customdata) == sources, (ringed.customdata, sources)
    to_hex = g.stack[-1].data
    token = g.hex_token[sources[0]]
    human_does(t, lambda a: a == MoveNumberToken(sources[0]),  # a click on the ringed token
               via=lambda t, a: t.click_layer(layer, "great_catan:sources", sources.index(a.from_hex)))
    assert g.hex_token[to_hex] == token and g.hex_token[sources[0]] == 0


def test_ck_the_human_displaces_a_bots_knight_from_the_which_one_choice():
    """CK-KN-5 (DisplaceKnight): a click on the human's strong active knight offers its moves ("Which one?",
    each said as a choice); the human displaces the bot's weaker knight on its roads, and the bot retreats it
    (CK-KN-6).  Position (``ck_game``): seat 0's road is extended from a free intersection of its roads, a
    strong active knight of seat 0 stands there and a basic knight of seat 1 at the road's other end (pieces
    placed with :meth:`Game.place`, the knights' rows in the documented state); another road of seat 0 leads
    on from the knight, so that it may also move."""
    from catan_nb.rules.modules.cities_knights import DisplaceKnight, knights

    g = ck_game()
    t_ = g.topology
    v = next(w for w in sorted(g.road_nodes[HUMAN]) if w in g.candidates(HUMAN, "knight"))
    road = next(e for e in t_.node_edges[v] if g.edge_owner[e] < 0 and t_.edge_land[e])
    g.place(HUMAN, "road", road)
    w = next(x for x in t_.edge_nodes[road] if x != v)
    other = next(e for e in t_.node_edges[v] if g.edge_owner[e] < 0 and t_.edge_land[e])
    g.place(HUMAN, "road", other)  # somewhere to move the knight to as well: the click means several moves
    knight_at(g, HUMAN, v, 2, True)
    knight_at(g, 1, w, 1, False)
    t = table_for(g)
    assert "one of your knights" in text(t.status)
    layer = next(la for la in t.layers if DisplaceKnight in la.handles)
    row = [r[0] for r in g.ext["cities_knights"]["knights"]].index(v)
    t.click_layer(layer, "cities_knights:knights", row)
    labels = [b.description for b in t.choice_buttons.children]
    assert visible(t.choice_box) and "displace the weaker knight at " in " ".join(labels), labels
    assert not [x for x in labels if x.startswith("'") or ENGINE_WORDS.search(x)], labels
    human_does(t, lambda a: a == DisplaceKnight(v, w))
    assert [r[:2] for r in knights(g, HUMAN)] == [[w, HUMAN]] and all(r[0] != w for r in knights(g, 1))


#: The decisions this file reaches (action types and phases, as :func:`table_driver.decisions` names them), by test.
COVERED = {
    "PlayMonopoly": "test_base_monopoly_through_its_button",
    "PlayYearOfPlenty": "test_corsica_year_of_plenty_through_its_button",
    "AcceptTrade": "test_answering_a_bots_trade_offer_accept_then_decline",
    "DeclineTrade": "test_answering_a_bots_trade_offer_accept_then_decline",
    "phase:trade_response": "test_answering_a_bots_trade_offer_accept_then_decline",
    "AnswerCanal": "test_answering_a_bots_canal_offer_accept_then_decline",
    "phase:canal_answer": "test_answering_a_bots_canal_offer_accept_then_decline",
    "UseExplorer": "test_helpers_explorer_then_exchange_for_the_priest_and_use_it",
    "ExchangeHelper": "test_helpers_explorer_then_exchange_for_the_priest_and_use_it",
    "phase:helper_after_use": "test_helpers_explorer_then_exchange_for_the_priest_and_use_it",
    "UsePriest": "test_helpers_explorer_then_exchange_for_the_priest_and_use_it",
    "NoblewomanTake": "test_helpers_noblewoman_chooses_the_player_then_sees_the_hand",
    "phase:noblewoman": "test_helpers_noblewoman_chooses_the_player_then_sees_the_hand",
    "ChooseMetropolis": "test_ck_metropolis_chosen_at_the_table",
    "phase:metropolis": "test_ck_metropolis_chosen_at_the_table",
    "RetreatKnight": "test_ck_knight_displaced_by_a_bot_retreats_where_the_human_says",
    "phase:knight_retreat": "test_ck_knight_displaced_by_a_bot_retreats_where_the_human_says",
    "PlayIntrigue": "test_ck_intrigue_displaces_a_bots_knight_on_the_humans_roads",
    "PlayInventor": "test_ck_inventor_swaps_two_tokens",
    "GiveGoods": "test_ck_wedding_the_human_gives_presents_to_a_bot",
    "RemoveKnight": "test_ck_deserter_played_by_a_bot_the_human_removes_its_knight",
    "phase:deserter": "test_ck_deserter_played_by_a_bot_the_human_removes_its_knight",
    "HarborReply": "test_ck_commercial_harbor_played_by_a_bot_the_human_replies_with_a_commodity",
    "phase:harbor_reply": "test_ck_commercial_harbor_played_by_a_bot_the_human_replies_with_a_commodity",
    "phase:wedding": "test_ck_wedding_the_human_gives_presents_to_a_bot",
    "DisplaceKnight": "test_ck_the_human_displaces_a_bots_knight_from_the_which_one_choice",
    "MoveNumberToken": "test_great_catan_the_human_moves_a_token_once_the_supply_is_used_up",
    "phase:move_token": "test_great_catan_the_human_moves_a_token_once_the_supply_is_used_up",
}


def test_every_decision_of_every_table_is_reached_somewhere():
    """Issue 25: each decision of each module's table (:func:`table_driver.decisions`) is reached by a human seat
    through the table, in the whole games of ``test_table_modules`` (:data:`WHOLE_GAMES`, on demand
    :data:`MORE_GAMES`: a decision is the same in every table that has its module) or in a position here
    (:data:`COVERED`)."""
    from table_driver import decisions
    from test_table_modules import MORE_GAMES, TABLES, WHOLE_GAMES

    assert all(name in globals() for name in COVERED.values())
    reached = set(COVERED)
    offered = set()
    for name, make in TABLES.items():
        board, rules, n = make(1)
        offered |= set(decisions(Game(board, players=n, seed=1, rules=rules)))
        reached |= set(WHOLE_GAMES[name][1]) | set(MORE_GAMES[name][1])
    assert not sorted(offered - reached), sorted(offered - reached)
    assert set(COVERED) <= offered, sorted(set(COVERED) - offered)

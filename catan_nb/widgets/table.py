"""The game table: play a whole game in the notebook by clicking the board and pressing buttons.

One widget: the board (a single plotly ``FigureWidget`` updated in place) beside a side panel that
says whose turn it is and what to do, shows the dice, the buttons for what is allowed now, trades,
discards, the player's hand and the building costs, the scoreboard and a log written for people.
The layout is responsive: the board grows with the width, and under about 1,100 pixels the side
panel moves below it.  Bots move by themselves after a pause (a speed control and a button to skip
to your turn), and every rule module the game uses adds its own panels (:mod:`.panels`).  The table
holds no rule logic: what it offers comes from ``game.legal_actions()``, what it does goes through
``game.play()``, and no exception escapes a callback — the message shows in the status line.

Examples
--------
>>> from catan_nb import Board
>>> table = GameTable(Board.beginner(), seats=["human", "bot", "bot", "bot"], seed=1, bot_delay=None, start="beginner")
>>> table.game.phase.value
'roll'
>>> table.press("roll")
>>> "rolled" in table.log_box.value
True
"""

from __future__ import annotations

import copy
import html
import numbers
import re
from collections.abc import Sequence
from pathlib import Path

import ipywidgets as W
import plotly.graph_objects as go

from ..analysis.bots import bot_for_level
from ..board import Board
from ..constants import RESOURCES, Resource
from ..rules import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ConfirmTrade,
    DeclineTrade,
    Discard,
    EndRoadBuilding,
    EndTurn,
    Game,
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
    Rules,
)
from ..viz import board_figure, dynamic_traces
from ..viz.palette import TERRAIN_LABEL, palette
from ..viz.plugins import layers_for
from ..viz.text import GROUPS, action_words as _words, cards_text, live_board, narrate, narrate_group, place_of_hex, seat_name, snapshot
from ._figure import FigureWidget
from ._common import SavesGames, check_seat_index, guarded, refit, schedule
from .panels import (Stepper, badge, board_shape, button, chip, counts_of, enable, module_panels, shape_class, show,
                     style_block)

__all__ = ["GameTable", "load_table"]

#: Actions with their own controls; every other legal action (the rule modules') is in the special list.
BASE_CONTROLS = (
    RollDice, EndTurn, BuyDevelopmentCard, PlayKnight, PlayRoadBuilding, EndRoadBuilding, PlayMonopoly,
    PlayYearOfPlenty, MaritimeTrade, OfferTrade, AcceptTrade, DeclineTrade, ConfirmTrade, CancelTrade, Discard,
    MoveRobber, BuildRoad, BuildSettlement, BuildCity,
)

#: The base pieces first on the cost card, then every other piece kind the game's modules add (B-BUILD-1).
COST_FIRST = ("road", "settlement", "city")
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
#: Bot difficulty levels a seat may name ("bot:hard"), and the default.
BOT_LEVEL_NAMES = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"
#: Log lines kept (the log box shows the newest 80 and scrolls).
LOG_KEPT = 3000
#: Moves of a loaded game whose sentences open the table's log.
PAST_KEPT = 60
#: Marks drawn with the fonts every browser has (no emoji font is needed).
CAN = "<b style='color:#1b7f2a'>✓</b>"
CANNOT = "<span style='color:#999'>·</span>"
#: A rule id in parentheses, as the engine's prompts carry them (left out of the status line).
RULE_ID = re.compile(r" \((?:[A-Z0-9]+-)+[A-Z0-9]+\)")
#: A choice's label speaks to the player ("exchange your helper"), not of them as the log does.
THEIR = re.compile(r"\btheir\b")


def node_of(action) -> int | None:
    """The intersection a click chooses ``action`` on: its ``node``, or for a move with only a destination
    (a displaced knight's retreat, CK-KN-6) its ``to_node``; ``None`` when it has neither."""
    for attr in ("node", "to_node"):
        v = getattr(action, attr, None)
        if isinstance(v, numbers.Integral) and not isinstance(v, bool):
            if attr == "to_node" and hasattr(action, "from_node"):
                return None  # a move from one place to another: its layer's clicks choose it
            return int(v)
    return None


def describe(action, game=None) -> str:
    """A readable label for any action (the special-actions list): the log's phrase when a
    module gave one (places by their hexes), else the action's kind and fields."""
    from ..viz.text import PHRASES

    name = type(action).__name__
    if game is not None and name in _CHOICES:
        try:
            return _CHOICES[name](action, game)
        except (AttributeError, KeyError, TypeError, IndexError, ValueError):
            return _words(action)
    phrase = PHRASES.get(name)
    if game is not None and phrase is not None:
        try:
            text = phrase("", action, live_board(game), game).strip()
        except (AttributeError, KeyError, TypeError, IndexError):
            return _words(action)
        first, _, rest = text.partition(" ")
        verb = _IMPERATIVE.get(first)  # the log's past tense, as a choice: "played Crane" -> "play Crane"
        # said to the player: "exchange their helper" -> "exchange your helper"
        return f"{verb} {THEIR.sub('your', rest)}" if verb else text
    return _words(action)


#: Choices the log words differently (it tells what happened: dice, cards drawn): as a choice says them.
_CHOICES = {
    "RollDice": lambda a, g: "roll the dice",
    "BuyDevelopmentCard": lambda a, g: "buy a development card",
    "Discard": lambda a, g: f"discard {cards_text(a.cards, g.goods)}",
    "MoveRobber": lambda a, g: (f"move the robber to {place_of_hex(live_board(g), a.hex)}"
                                + (f" and steal from {seat_name(g, a.victim)}" if a.victim is not None else "")),
    "MaritimeTrade": lambda a, g: f"trade {g.maritime_rate(g.active_player, a.give)} {a.give} for 1 {a.get} with the bank",
    "DeclineTrade": lambda a, g: "decline the offer",
    "ConfirmTrade": lambda a, g: f"trade with {seat_name(g, a.partner)}",
}

#: The log phrases' leading verbs, as a choice's label says them.
_IMPERATIVE = {"upgraded": "upgrade", "ended": "end", "stopped": "stop", "accepts": "accept", "withdrew": "withdraw",
               "offers": "offer", "used": "use", "exchanged": "exchange", "returned": "return", "turned": "turn",
               "kept": "keep", "refused": "refuse", "let": "let", "played": "play", "placed": "place", "gave": "give", "offered": "offer", "asked": "ask",
               "took": "take", "built": "build", "hired": "hire", "promoted": "promote", "activated": "activate",
               "moved": "move", "improved": "improve", "raised": "raise", "drew": "draw", "accepted": "accept",
               "declined": "decline", "bought": "buy", "found": "find", "revealed": "reveal"}


def _same(old, new) -> bool:
    """Whether a trace's properties are the ones sent before (values plotly could not compare count as changed)."""
    try:
        return bool(old == new)
    except (TypeError, ValueError):  # an array compared element-wise
        return False


class _Joined:
    """The module panels' texts read as one string (``table.modules_box.value``)."""

    def __init__(self, box: W.VBox):
        self.box = box

    @property
    def value(self) -> str:
        out = []
        for w in self.box.children:
            out.extend(getattr(c, "value", "") for c in ([w] + list(getattr(w, "children", ()))))
        return "\n".join(v for v in out if isinstance(v, str))


class GameTable(SavesGames):
    """An ipywidgets table hosting one game of 3 to 6 seats, each human or bot.

    Parameters
    ----------
    source : Board or Game
        A board to start a new game on, or a game in progress.
    seats : sequence of str
        One entry per seat; its length is the number of players: ``"human"``, ``"bot"`` (the
        default level, ``"medium"``: the value bot) or ``"bot:easy"``, ``"bot:medium"``,
        ``"bot:hard"`` (weighted random, value bot, search bot at most 1 s a move).
    seed : int, optional
        Seed of a new game (and of the bots).
    start : {"founding", "beginner"}
        How a new game starts.
    rules : Rules, optional
        Default: the board's own (:meth:`Rules.for_board <catan_nb.rules.Rules.for_board>`, the
        modules a scenario board's file names, SF-13); rules given must hold those modules.
    trade_after_building : bool
        Allow trading after building in the same turn (A-08, the almanac's option for experienced
        players); the same as ``rules=Rules(combined_trade_build=True)``.
    viewer : int, "current" or None
        Whose view the table shows: only what that seat may know (its own hand and cards; of the
        others only what is public: card counts, visible VP, played cards; A-15, B-END-6).
        ``"current"``: whichever human seat is to act (hot-seat play).  ``None`` (the default): the
        human seat when there is one, ``"current"`` when several humans share the screen, and
        everything when only bots play.
    open_hands : bool
        A teaching option: show every seat's cards (hands, development and progress cards, the
        card a bot bought) and explain bot moves in full.  Off by default; a table with a human
        seat shows that seat's view only.
    bot_delay : float or None
        Seconds bots pause before each move (the speed slider changes it); ``None`` makes them
        move at once, synchronously (for tests and scripts).
    palette_name : {"standard", "colorblind"}
    save_path : str
        The file the Save and Load buttons use.

    Attributes
    ----------
    game : Game
    figure : plotly.graph_objects.FigureWidget
    widget : ipywidgets.VBox
        What the notebook shows (the table also displays itself).
    log_lines : list of str
        The log, oldest first, written for the table's viewer.
    """

    def __init__(
        self,
        source: Board | Game,
        seats: Sequence[str] = ("human", "bot", "bot", "bot"),
        *,
        seed: int | None = None,
        start: str = "founding",
        rules: Rules | None = None,
        trade_after_building: bool = False,
        viewer: int | str | None = None,
        open_hands: bool = False,
        bot_delay: float | None = 0.6,
        palette_name: str = "standard",
        save_path: str = "catan_game.json",
    ):
        if isinstance(seats, str) or not all(isinstance(s, str) for s in seats):
            raise ValueError(f"seats is a list of 'human' and 'bot', not {seats!r}")
        seats = [s.lower() for s in seats]
        if not 3 <= len(seats) <= 6:
            raise ValueError(f"a table seats 3 to 6 players, not {len(seats)}")
        levels: dict[int, str] = {}
        for p, s in enumerate(seats):
            kind, _, level = s.partition(":")
            if kind not in ("human", "bot") or (level and (kind != "bot" or level not in BOT_LEVEL_NAMES)):
                raise ValueError(f"a seat is 'human', 'bot' or 'bot:LEVEL' with LEVEL one of "
                                 f"{', '.join(BOT_LEVEL_NAMES)}; not {s!r}")
            if kind == "bot":
                levels[p] = level or DEFAULT_LEVEL
        seats = ["bot" if p in levels else "human" for p in range(len(seats))]
        if not (viewer is None or viewer == "current"):
            viewer = check_seat_index(viewer, len(seats), "viewer (or None, or 'current')")
        if not isinstance(open_hands, bool):
            raise ValueError(f"open_hands is True or False, not {open_hands!r}")
        if viewer is None and not open_hands:  # hidden information by default (issue 25 item 2)
            humans = [p for p in range(len(seats)) if p not in levels]
            viewer = humans[0] if len(humans) == 1 else ("current" if humans else None)
        if bot_delay is not None and (isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float))
                                      or not 0 <= bot_delay <= 60):
            raise ValueError(f"bot_delay is None or seconds in 0..60, not {bot_delay!r}")
        palette(palette_name)  # raises ValueError for an unknown palette
        if not isinstance(save_path, str):
            raise ValueError(f"save_path must be a file name, not {save_path!r}")
        if not isinstance(source, (Board, Game)):
            raise ValueError(f"a table plays on a Board or a Game, not {type(source).__name__}")
        if isinstance(source, Game):
            game = source
            if len(seats) != game.n:
                raise ValueError(f"the game has {game.n} seats; {len(seats)} given")
        else:
            rules = Rules.for_game(source, rules, len(seats))  # a scenario board's own modules (SF-13)
            if trade_after_building:
                from dataclasses import replace

                rules = replace(rules, combined_trade_build=True)
            game = Game(source, players=len(seats), seed=seed, start=start, rules=rules)
        self.game = game
        self.seats = seats
        self.viewer = None if open_hands else viewer
        self.open_hands = open_hands
        self.bot_delay = bot_delay
        self.palette_name = palette_name
        self.levels = levels
        self.bots = {p: bot_for_level(level, game.seed + 7919 * (p + 1)) for p, level in levels.items()}
        self.explain_bots = False
        self.pending_hex: int | None = None
        #: Moves offered after a click that could mean several (a ship and where it goes, a pirate's victim).
        self.pending_choices: list = []
        self.message = ""
        #: Every action type the game's modules define (the table shows the controls of those only).
        self.known_actions = frozenset(t for m in game.modules for t in m.actions)
        humans = [p for p, s in enumerate(seats) if s == "human"]
        self._shown_human: int | None = humans[0] if humans else None
        self._bot_handle = None
        self._group = None  # the run of one-card actions the log's last line stands for
        self.log_lines: list[str] = self._past_lines()
        self._build(save_path)
        self._auto_human()
        self.refresh()
        self._schedule_bots()

    # ------------------------------------------------------------------ names and colours
    def name(self, seat: int) -> str:
        """A seat as players say it: its colour (and "(bot)" for a bot)."""
        return seat_name(self.game, seat, self.seats)

    def swatch(self, seat: int) -> str:
        colour = palette(self.palette_name)["player"][self.game.colours[seat]]
        return (f"<span style='display:inline-block;width:12px;height:12px;background:{colour};"
                f"border:1px solid #111;vertical-align:middle'></span>")

    def _line(self, action) -> str:
        """A log line for an action the game cannot replay (see :meth:`_past_lines`): its kind and fields,
        a card drawn or stolen left out unless the hands are open."""
        return html.escape(_words(action, secret=self.viewer is not None))

    def _past_lines(self, kept: int = PAST_KEPT) -> list[str]:
        """The log of the moves played before the table had the game (a loaded or a given game), in the
        sentences of a live game: the game is replayed from its set-up and its last ``kept`` moves are
        narrated as they are played, for this table's viewer (issue 25).  A game that cannot be replayed
        (not made by :class:`Game`) gets the moves' plain words."""
        g = self.game
        self._group = None
        if not g.log:
            return []
        try:
            data = g.to_dict()
            data["actions"], data["digest"] = [], None
            replay = type(g).from_json(data, source="<log>")
        except Exception:  # noqa: BLE001 - a game of another make: plain words
            return [self._line(a) for a in g.log[-kept:]]
        lines, self.log_lines = self.log_lines if hasattr(self, "log_lines") else [], []
        first = len(g.log) - kept
        try:
            for i, a in enumerate(g.log):
                before = snapshot(replay) if i >= first else None
                replay.play(a)
                if before is not None:
                    self._write(replay, replay.log[-1], before)
        except Exception:  # noqa: BLE001 - a log the replay refuses: plain words
            self.log_lines = [self._line(a) for a in g.log[-kept:]]
        out, self.log_lines = self.log_lines, lines
        self._group = None
        return out

    # ------------------------------------------------------------------ construction
    def _build(self, save_path: str) -> None:
        # The complete figure, highlights included, is built before it becomes a widget:
        # a view that connects late (Voila) renders the widget's initial data.
        nodes, paths, hexes = self._targets(self.legal())
        fig = board_figure(
            self.game, palette_name=self.palette_name, height=None, highlight_nodes=nodes, highlight_paths=paths,
            highlight_hexes=hexes, longest_road=self.game.longest_road_holder, legal=self.legal(),
        )
        # The legend is HTML under the board (self.legend): the figure's layout never changes with what is
        # on the board (a plotly legend grows with traces and squeezes the board; issue 25 items 3 and 13).
        fig.update_layout(autosize=True, height=None, width=None, uirevision="board", showlegend=False,
                          margin=dict(l=4, r=4, t=4, b=4))
        self.figure = FigureWidget(fig)
        self.figure._config = {"responsive": True, "displayModeBar": False, "scrollZoom": False}
        self._view_alive = False
        self.figure.observe(
            self._on_view_message, names=["_js2py_layoutDelta", "_js2py_traceDeltas", "_js2py_relayout", "_js2py_restyle"]
        )
        self._idx = {t.name: i for i, t in enumerate(self.figure.data)}
        self._sent: dict[str, dict] = {}  # the properties last sent to each dynamic trace (refresh)
        self.figure.data[self._idx["intersections"]].on_click(self._on_node_click)
        self.figure.data[self._idx["paths"]].on_click(self._on_path_click)
        self.figure.data[self._idx["hexes"]].on_click(self._on_hex_click)
        if "hex-area" in self._idx:  # the rest of a hex's area (issue 37): its points name their hex
            self.figure.data[self._idx["hex-area"]].on_click(self._on_hex_area_click)
        # The rule modules' layers: clicks on their targets go to the layer that drew them.
        self.layers = layers_for(self.game)
        for layer in self.layers:
            for name in layer.clickable:
                self.figure.data[self._idx[name]].on_click(
                    lambda trace, points, selector=None, layer=layer, name=name: self._on_layer_click(layer, name, points))

        b = self.buttons = {}
        for key, label, css, style in (
            ("roll", "Roll dice", "catan-roll", "primary"), ("end", "End turn", "catan-end-turn", "warning"),
            ("buy", "Buy development card", "catan-buy", ""), ("knight", "Play knight", "catan-knight", ""),
            ("road_building", "Play Road Building", "catan-road-building", ""),
            ("end_road_building", "Stop placing roads", "catan-end-road-building", ""),
            ("monopoly", "Play Monopoly", "catan-monopoly", ""), ("year_of_plenty", "Play Year of Plenty",
                                                                  "catan-year-of-plenty", ""),
            ("maritime", "Trade with the bank", "catan-maritime", "info"), ("offer", "Offer to players", "catan-offer", "info"),
            ("accept", "Accept offer", "catan-accept", "success"), ("decline", "Decline offer", "catan-decline", "warning"),
            ("cancel", "Withdraw offer", "catan-cancel", ""), ("discard", "Discard", "catan-discard", "danger"),
            ("no_steal", "Steal from nobody", "catan-no-steal", ""), ("special", "Play", "catan-special-play", "info"),
            ("save", "Save", "catan-save", ""), ("load", "Load", "catan-load", ""),
            ("skip", "Skip to my turn", "catan-skip", ""), ("cancel_choice", "Cancel", "catan-cancel-choice", ""),
        ):
            b[key] = button(label, css, style)
        handlers = {
            "roll": lambda _: self.play(RollDice()),
            "end": lambda _: self.play(EndTurn()),
            "buy": lambda _: self.play(BuyDevelopmentCard()),
            "knight": lambda _: self.play(PlayKnight()),
            "road_building": lambda _: self.play(PlayRoadBuilding()),
            "end_road_building": lambda _: self.play(EndRoadBuilding()),
            "monopoly": lambda _: self.play(PlayMonopoly(self.mono_res.value)),
            "year_of_plenty": lambda _: self.play(PlayYearOfPlenty(self.yop_a.value, self.yop_b.value)),
            "maritime": lambda _: self.play(MaritimeTrade(self.give_res.value, self.get_res.value)),
            "offer": lambda _: self.play(OfferTrade(counts_of(self.offer_give), counts_of(self.offer_get))),
            "accept": lambda _: self.play(AcceptTrade()),
            "decline": lambda _: self.play(DeclineTrade()),
            "cancel": lambda _: self.play(CancelTrade()),
            "discard": lambda _: self._discard(),
            "no_steal": lambda _: self._choose_victim(None),
            "special": lambda _: self._play_special(),
            "save": lambda _: self.save(),
            "load": lambda _: self.load(),
            "skip": lambda _: self.skip_to_my_turn(),
            "cancel_choice": lambda _: self.cancel_choice(),
        }
        for k, h in handlers.items():
            b[k].on_click(self.guard(h))

        # --- status, bot bar, dice
        self.status = W.HTML().add_class("catan-status")
        self.notice = W.HTML().add_class("catan-notice")
        self.speed = W.FloatSlider(value=self.bot_delay or 0.0, min=0.0, max=2.0, step=0.1, description="bot pause (s)",
                                   continuous_update=False, style={"description_width": "82px"},
                                   layout=W.Layout(width="100%", max_width="260px", min_width="190px"))
        self.speed.observe(lambda ch: setattr(self, "bot_delay", float(ch["new"])) if self.bot_delay is not None else None,
                           "value")
        self.bot_bar = W.HBox([self.speed, b["skip"]], layout=W.Layout(flex_flow="row wrap")).add_class("catan-bot-bar")
        self.dice_box = W.HTML().add_class("catan-dice")
        # --- actions
        res_opts = [(str(r), r) for r in RESOURCES]  # Year of Plenty and Monopoly name resources (B-DEV-6, B-DEV-7)
        goods = self.game.goods  # every count a panel builds is one per good of the game (CK-COM-1)
        trade_opts = [(str(gd), gd) for gd in goods]
        self.mono_res = W.Dropdown(options=res_opts, layout=W.Layout(width="100px")).add_class("catan-mono-res")
        self.yop_a = W.Dropdown(options=res_opts, layout=W.Layout(width="100px"))
        self.yop_b = W.Dropdown(options=res_opts, layout=W.Layout(width="100px"))
        self.turn_row = W.HBox([b["roll"], b["buy"], b["end"]], layout=W.Layout(flex_flow="row wrap"))
        self.yop_row = W.HBox([b["year_of_plenty"], self.yop_a, self.yop_b], layout=W.Layout(flex_flow="row wrap"))
        self.mono_row = W.HBox([b["monopoly"], self.mono_res], layout=W.Layout(flex_flow="row wrap"))
        self.dev_row = W.HBox([b["knight"], b["road_building"], b["end_road_building"], self.yop_row, self.mono_row],
                              layout=W.Layout(flex_flow="row wrap"))
        self.victim_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.robber_row = W.VBox([W.HTML("<b>Steal from whom?</b>"),
                                  W.HBox([self.victim_box, b["no_steal"]], layout=W.Layout(flex_flow="row wrap"))])
        # A click that stands for several moves: the choice, next to the board where the player looks
        # (buttons, or a sentence when the board rings the moves apart: a ship's destinations).
        self.choice_title = W.HTML()
        self.choice_buttons = W.VBox(layout=W.Layout(width="100%"))
        self.choice_box = W.VBox([self.choice_title, self.choice_buttons]).add_class("catan-choices").add_class("catan-card")
        self.special = W.Dropdown(options=[], layout=W.Layout(width="auto", flex="1 1 160px", min_width="0")
                                  ).add_class("catan-special")
        self.special_row = W.HBox([W.HTML("<b>More actions</b>&nbsp;"), self.special, b["special"]],
                                  layout=W.Layout(flex_flow="row wrap", align_items="center"))
        # --- discards
        self.discard_counts = [Stepper(str(gd), f"catan-discard-{gd}", maximum=0, on_change=self._discard_changed)
                               for gd in goods]
        self.discard_title = W.HTML()
        self.discard_panel = W.VBox([self.discard_title,
                                     W.HBox([s.widget for s in self.discard_counts], layout=W.Layout(flex_flow="row wrap")),
                                     b["discard"]]).add_class("catan-card").add_class("catan-discard-panel")
        # --- trade
        self.rates_box = W.HTML().add_class("catan-rates")
        self.give_res = W.Dropdown(options=trade_opts, description="give", layout=W.Layout(width="150px"),
                                   style={"description_width": "34px"})
        self.get_res = W.Dropdown(options=trade_opts, value=Resource.ORE, description="get", layout=W.Layout(width="150px"),
                                  style={"description_width": "30px"})
        self.rate_label = W.HTML()
        self.give_res.observe(lambda _: self._update_rate(), "value")
        self.get_res.observe(lambda _: self._update_rate(), "value")
        self.maritime_row = W.HBox([self.give_res, self.get_res, self.rate_label, b["maritime"]],
                                   layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.offer_give = [Stepper(str(gd), f"catan-offer-give-{gd}") for gd in goods]
        self.offer_get = [Stepper(str(gd), f"catan-offer-get-{gd}") for gd in goods]
        self.offer_panel = W.VBox([
            W.HTML("<b>Offer to the other players</b>"),
            W.HBox([W.VBox([W.HTML("you give"), *[s.widget for s in self.offer_give]]),
                    W.VBox([W.HTML("you get"), *[s.widget for s in self.offer_get]])]),
            b["offer"],
        ])
        self.trade_closed = W.HTML()
        self.partner_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.response_row = W.VBox([W.HTML(), W.HBox([b["accept"], b["decline"], b["cancel"]],
                                                     layout=W.Layout(flex_flow="row wrap")), self.partner_box])
        self.trade_panel = W.VBox([W.HTML("<b>Trade</b>"), self.rates_box, self.trade_closed, self.maritime_row,
                                   self.offer_panel]).add_class("catan-card")
        # --- hand, costs, scores, log, modules, files
        self.hand_box = W.HTML().add_class("catan-hand")
        self.cost_box = W.HTML().add_class("catan-costs")
        self.scoreboard = W.HTML().add_class("catan-scoreboard")
        self.log_box = W.HTML().add_class("catan-log")
        self.panels = module_panels(self.game)
        built = [w for w in (p.build(self) for p in self.panels) if w is not None]
        bars = [w for w in (p.bar(self) for p in self.panels) if w is not None]
        self.modules_vbox = W.VBox(built).add_class("catan-modules")
        self.module_bar = W.VBox(bars).add_class("catan-module-bar")
        self.modules_box = _Joined(self.modules_vbox)
        self.save_path = W.Text(value=save_path, description="file", layout=W.Layout(width="220px"),
                                style={"description_width": "30px"})
        files = W.HBox([self.save_path, b["save"], b["load"]], layout=W.Layout(flex_flow="row wrap"))
        # --- the bots: a level per bot seat, and their reasons on demand
        self.level_boxes = {}
        for p in sorted(self.levels):
            dd = W.Dropdown(options=[(f"{lv}", lv) for lv in BOT_LEVEL_NAMES], value=self.levels[p],
                            description=self.name(p).split(" (")[0], layout=W.Layout(width="200px"),
                            style={"description_width": "70px"}).add_class(f"catan-level-{p}")
            dd.observe(lambda ch, p=p: self.guard(lambda _: self.set_level(p, ch["new"]))(None), "value")
            self.level_boxes[p] = dd
        self.explain_box = W.Checkbox(value=False, indent=False, description="explain bot moves in the log",
                                      layout=W.Layout(width="auto")).add_class("catan-explain")
        self.explain_note = W.HTML("" if self.viewer is None else
                                   "<small>(their other options show only with open hands)</small>")
        self.explain_box.observe(lambda ch: setattr(self, "explain_bots", bool(ch["new"])), "value")
        self.bots_card = W.VBox([W.HTML("<b>Bots</b> <small>(easy: weighted random · medium: value bot · "
                                        "hard: search, ≤ 1 s a move)</small>"),
                                 W.HBox(list(self.level_boxes.values()), layout=W.Layout(flex_flow="row wrap")),
                                 W.HBox([self.explain_box, self.explain_note], layout=W.Layout(flex_flow="row wrap",
                                                                                             align_items="center"))]
                                ).add_class("catan-card")
        show(self.bots_card, bool(self.levels))
        # The action bar: what to do now and the controls for it, beside the board (above it on a narrow
        # screen), so that a whole turn needs no scrolling (issue 25 item 12).
        self.turn_bar = W.HBox([self.dice_box, self.turn_row, self.dev_row, b["cancel_choice"], self.bot_bar],
                               layout=W.Layout(flex_flow="row wrap", align_items="center")).add_class("catan-turn-bar")
        self.action_bar = W.VBox(
            [self.status, self.notice, self.choice_box, self.robber_row, self.discard_panel, self.response_row,
             self.turn_bar, self.module_bar, self.special_row],
        ).add_class("catan-action")
        side = W.VBox(
            [self.modules_vbox, self.trade_panel, self.hand_box, self.cost_box, self.scoreboard, self.log_box,
             self.bots_card, files],
        ).add_class("catan-side")
        board = W.Box([self.figure]).add_class("catan-board")
        shape = W.HTML(board_shape(fig, self.game.board))
        board.add_class(shape_class(fig, self.game.board))
        self.legend = W.HTML(self._legend_html()).add_class("catan-legend")
        board_col = W.VBox([board, self.legend]).add_class("catan-board-col")
        self.widget = W.VBox([style_block(), shape, W.Box([board_col, self.action_bar, side]).add_class("catan-main")]
                             ).add_class("catan-table").add_class(shape_class(fig, self.game.board))

    def _legend_html(self) -> str:
        """The board's legend: the terrains on the board and the seats' colours (wraps with the width)."""
        from ..constants import Terrain

        g = self.game
        pal = palette(self.palette_name)
        present = {t.terrain for t in g.board.hexes} | set(g.hex_terrain)
        items = [f"<span class='catan-key'><span class='catan-swatch' style='background:{pal['terrain'][t]}'></span>"
                 f"{html.escape(TERRAIN_LABEL.get(t, str(t)))}</span>" for t in Terrain if t in present]
        items += [f"<span class='catan-key'>{self.swatch(q)} {html.escape(self.name(q))}</span>" for q in range(g.n)]
        items += [f"<span class='catan-key'>{mark} {html.escape(words)}</span>"
                  for layer in self.layers for mark, words in layer.legend(g, pal)]  # the modules' marks
        return " ".join(items)

    # ------------------------------------------------------------------ who sees what, who acts
    def viewer_seat(self) -> int | None:
        """The seat whose view the table shows (``None``: everything: open hands, or the game is over).

        In hot-seat play (``viewer="current"``) it is the human seat to act, or while a bot acts
        the human seat that acted last.
        """
        if self.viewer is None or self.game.is_over:  # at the end every card may be shown (B-DEV-9)
            return None
        if self.viewer == "current":
            p = self.game.current_player
            return p if self.seats[p] == "human" else self._shown_human
        return int(self.viewer)

    def _log_viewer(self) -> int | None:
        """Whose secrets the log may show: all (open hands), one seat, or none (hot seat: -1)."""
        if self.viewer is None:
            return None
        if self.viewer == "current":
            return -1 if sum(s == "human" for s in self.seats) > 1 else self._shown_human
        return int(self.viewer)

    def _human_to_act(self) -> bool:
        g = self.game
        return not g.is_over and self.seats[g.current_player] == "human"

    def legal(self) -> list:
        """Legal actions of the seat to act, if that seat is human (the table's clickable set)."""
        return self.game.legal_actions() if self._human_to_act() else []

    def board_moves(self, legal: list | None = None) -> list:
        """The moves the board shows and its clicks choose among: while the player picks one of the moves a
        click stood for (a ship's destinations, a road or a ship), those moves only; else every legal move."""
        legal = self.legal() if legal is None else legal
        pending = [a for a in self.pending_choices if a in legal]
        return pending or legal

    def choice_hint(self) -> str | None:
        """Where on the board to click to pick one of the pending choices, when a module's layer rings them
        apart (a ship's destinations); ``None`` when the table lists them as buttons."""
        if not self.pending_choices:
            return None
        for layer in self.layers:
            hint = layer.picks(self.game, list(self.pending_choices))
            if hint:
                return hint
        return None

    def cancel_choice(self) -> None:
        """Forget a pending choice (the moves a click stood for, or the robber's hex waiting for a victim)."""
        self.pending_choices = []
        self.pending_hex = None
        self.message = ""
        self.refresh()

    # ------------------------------------------------------------------ playing
    def guard(self, handler):
        """A callback that reports any error in the status line instead of raising."""
        return lambda arg: self._run_guarded(handler, arg)

    @guarded
    def _run_guarded(self, handler, arg):
        return handler(arg)

    def _apply(self, action) -> None:
        """Play one action through the engine and write it in the log (a seat's run of one-card
        discards or gold picks as one line)."""
        before = snapshot(self.game)
        self.game.play(action)
        self._write(self.game, self.game.log[-1], before)

    def _write(self, game, logged, before: dict) -> None:
        """Write the log's sentences for ``logged``, just applied to ``game`` (``before``: its :func:`snapshot`
        before), joining a seat's run of one-card discards or gold picks into one line."""
        viewer = self._log_viewer()
        lines = narrate(game, logged, before, viewer, self.seats)
        key = (type(logged).__name__, before["current"])
        group = self._group
        if group is not None and group[0] == key and group[1] == len(self.log_lines) and len(lines) == 1:
            group[3].append(logged)
            self.log_lines[-1] = narrate_group(game, group[3], group[2], viewer, self.seats)
        else:
            self.log_lines.extend(lines)
            del self.log_lines[:-LOG_KEPT]
            self._group = ((key, len(self.log_lines), before, [logged])
                           if key[0] in GROUPS and len(lines) == 1 else None)

    @guarded
    def play(self, action) -> bool:
        """Play an action for the human to act; an illegal one shows the engine's message."""
        from ..errors import CatanError
        from ..viz.refusal import refusal_html

        try:
            self._apply(action)
        except CatanError as err:
            self.message = refusal_html(err)  # the message, the rule's statement and a link (issue 38)
            self.refresh()
            return False
        self.message = ""
        self.pending_hex = None
        self.pending_choices = []
        self._reset_inputs(action)
        self._auto_human()
        self.refresh()
        self._schedule_bots()
        return True

    def _auto_human(self, limit: int = 64) -> bool:
        """Play the decisions of human seats that a panel settles without asking (a Special Building Phase
        with nothing to build, or one the player chose to skip always: issue 37); whether any was played."""
        played = False
        for _ in range(limit):
            g = self.game
            if g.is_over or self.seats[g.current_player] != "human":
                break
            legal = g.legal_actions()
            pick = next((a for p in self.panels for a in [getattr(p, "auto", lambda t, lg: None)(self, legal)]
                         if a is not None and a in legal), None)
            if pick is None:
                break
            reason = next((r for p in self.panels for r in [getattr(p, "auto_reason", "")] if r), "")
            self._apply(pick)
            if reason and self.log_lines:
                self.log_lines[-1] += f" — {reason}"
                self._group = None
            played = True
        return played

    _play = play  # the name the tests and older notebooks use

    def _reset_inputs(self, action=None) -> None:
        for s in self.discard_counts:
            s.reset()
        if isinstance(action, OfferTrade) or self.game.trade_offer is None and not self._human_to_act():
            for s in self.offer_give + self.offer_get:  # an offer made, or the turn passed: start afresh
                s.reset()

    @guarded
    def _discard(self) -> None:
        owed = self.game.discards_owed().get(self.game.current_player, 0)
        chosen = sum(counts_of(self.discard_counts))
        if chosen != owed:  # B-ROB-2: half the hand, rounded down, all at once at this table
            self.message = f"⚠ choose exactly {owed} cards to discard ({chosen} chosen)"
            self.refresh()
            return
        self.play(Discard(counts_of(self.discard_counts)))

    def _discard_changed(self) -> None:
        g = self.game
        if not getattr(self, "buttons", None):
            return
        owed = g.discards_owed().get(g.current_player, 0)
        chosen = sum(counts_of(self.discard_counts))
        self.discard_title.value = (f"<b>{html.escape(self.name(g.current_player))} discards {owed} card{'' if owed == 1 else 's'}</b> — "
                                    f"{chosen} of {owed} chosen")
        enable(self.buttons["discard"], self._human_to_act() and owed > 0 and chosen == owed)

    @guarded
    def _play_special(self) -> None:
        if self.special.value is not None:
            self.play(self.special.value)

    def special_actions(self) -> list:
        """Legal actions of the rule modules (favours, gifts, ...) that no panel or layer has a control for."""
        handled = BASE_CONTROLS + tuple(t for p in self.panels for t in getattr(p, "handles", ()))
        handled += tuple(t for layer in self.layers for t in getattr(layer, "handles", ()))
        return [a for a in self.legal() if not isinstance(a, handled)]

    @guarded
    def _choose_victim(self, victim: int | None) -> None:
        if self.pending_hex is None:
            return
        self.play(MoveRobber(self.pending_hex, victim))

    def _on_view_message(self, change) -> None:
        if change["new"] is not None and not self._view_alive:
            self._view_alive = True
            # The first view draws before the notebook has laid the board's box out, and keeps
            # that height; ask it to size itself to its box again, now that the box has its size.
            self.figure._send_relayout_msg({"height": None, "width": None, "autosize": True})
            refit(self.figure)

    @guarded
    def _on_node_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return  # plotly calls every trace's handler; only the clicked one has points
        self.click_node(points.point_inds[0])

    @guarded
    def _on_path_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return
        self.click_path(points.point_inds[0])

    @guarded
    def _on_hex_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return
        self.click_hex(points.point_inds[0])

    @guarded
    def _on_hex_area_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return
        self.click_hex(self.figure.data[self._idx["hex-area"]].customdata[points.point_inds[0]])

    @guarded
    def click_node(self, node: int) -> bool:
        """A click on an intersection: the legal move there (a settlement, a city, a module's piece)."""
        if isinstance(node, bool) or not isinstance(node, numbers.Integral):
            return False  # not a place on this board
        node = int(node)
        return self._offer([a for a in self.board_moves() if node_of(a) == node])

    @guarded
    def click_path(self, path: int) -> bool:
        """A click on a path: the legal move there (a road; a module's ship, or moving the ship on it)."""
        if isinstance(path, bool) or not isinstance(path, numbers.Integral):
            return False
        path = int(path)
        # while the player picks among the moves a click stood for, the board's clicks pick among those only,
        # and a path is also where a move ends (a ship's destination, issue 25 item 6)
        pending = bool(self.pending_choices)
        return self._offer([a for a in self.board_moves() if path in (getattr(a, "path", None), getattr(a, "from_path", None))
                            or pending and getattr(a, "to_path", None) == path])

    @guarded
    def click_hex(self, hex_id: int) -> bool:
        """A click on a hex while the robber (or a module's piece, the pirate) moves: move it, or ask."""
        if isinstance(hex_id, bool) or not isinstance(hex_id, numbers.Integral):
            return False
        hex_id = int(hex_id)
        options = [a for a in self.board_moves() if getattr(a, "hex", None) == hex_id]
        if options and all(isinstance(a, MoveRobber) for a in options) and len(options) > 1:
            self._drop_hover()
            self.pending_hex = hex_id  # the robber's own victim buttons
            self.refresh()
            return True
        return self._offer(options)

    def _offer(self, options: list) -> bool:
        """Play the one legal move a click stands for, or ask which one when it could mean several."""
        if not options:
            return False  # inert
        self._drop_hover()
        if len(options) == 1:
            return self.play(options[0])
        self.pending_choices = options
        self.refresh()
        return True

    @guarded
    def _on_layer_click(self, layer, name: str, points) -> None:
        if not points.point_inds:
            return
        self.click_layer(layer, name, points.point_inds[0])

    @guarded
    def click_layer(self, layer, name: str, index: int) -> bool:
        """A click on point ``index`` of a module layer's trace ``name``: play what the layer says it means."""
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            return False
        legal = self.legal()
        action = layer.click(self.game, name, int(index), self.board_moves(legal))
        if isinstance(action, (list, tuple)):  # several moves start here: the player picks one (on a trace the
            options = [a for a in action if a in legal]  # layer names in ``confirm``, even the only one: issue 37)
            if len(options) > 1 or options and name in getattr(layer, "confirm", ()):
                self._drop_hover()
                self.pending_choices = options
                self.message = ""
                self.refresh()
                return True
            action = options[0] if options else None
        if action is None or action not in legal:
            return False
        self._drop_hover()
        return self.play(action)

    def _choice_button(self, action) -> W.Button:
        btn = button(describe(action, self.game) or _words(action), "catan-choice", style="info")
        btn.layout.height = "auto"
        btn._catan_action = action
        btn.on_click(self.guard(lambda _: self.play(action)))
        return btn

    def _drop_hover(self) -> None:
        """Clear the hover label of the point just clicked (the refresh that follows turns hover back on):
        the board changes under it, and a label left over the board hides what changed."""
        self.figure.layout.hovermode = False

    @guarded
    def press(self, name: str) -> None:
        """Press a button by its key (``"roll"``, ``"end"``, ``"buy"``, ...), as a click would.

        A disabled or hidden button cannot be clicked in the browser, so pressing one does nothing.
        """
        b = self.buttons[name]
        if b.disabled or b.layout.display == "none":
            return
        b.click()

    # ------------------------------------------------------------------ bots
    def _schedule_bots(self) -> None:
        g = self.game
        if g.is_over or self.seats[g.current_player] != "bot":
            return
        self._bot_handle = schedule(self.bot_delay, self._bot_step, self.run_bots, self._bot_handle)

    @guarded
    def _bot_step(self) -> None:
        self._bot_handle = None
        g = self.game
        if g.is_over or self.seats[g.current_player] != "bot":
            return
        self._bot_move(g.current_player)
        self._auto_human()
        self.refresh()
        self._schedule_bots()

    @guarded
    def run_bots(self, limit: int = 100_000) -> None:
        """Let bots move until a human must act (synchronously)."""
        g = self.game
        for _ in range(limit):
            if g.is_over or self.seats[g.current_player] != "bot" and not self._auto_human():
                break
            if self.seats[g.current_player] == "bot":
                self._bot_move(g.current_player)
        self.refresh()

    def _bot_move(self, seat: int) -> None:
        """One move of the bot in ``seat``, with its reason in the log when asked (``explain_bots``)."""
        bot = self.bots[seat]
        action = bot.choose(self.game)
        last = getattr(bot, "last", None)
        # A move made one card at a time (a discard) has no reason of its own in the log: its cards read as one line.
        why = (self._why(action, last) if self.explain_bots and last and len(last) > 1
               and type(action).__name__ not in GROUPS else None)
        self._apply(action)
        if why:
            self.log_lines.append(why)
            self._group = None

    def _why(self, action, ranked) -> str:
        """A bot's reason in words (issue 37): what its move gains and costs it, by the position features that
        changed most, and, with open hands, the move it liked next (without open hands the runners-up are not
        named: what else a bot could do tells what it holds)."""
        from ..viz.text import reasons_text

        g = self.game
        chosen = next((c for c in ranked if c.action == action), ranked[0])
        others = [c for c in ranked if c.action != action]
        kinds = {type(c.action).__name__ for c in ranked}
        if kinds <= {"AcceptTrade", "DeclineTrade"}:  # an answer to an offer: whether the trade helps it
            return f"  why: the trade {'helps it' if chosen.value > 0 else 'does not help it'}"
        words = reasons_text(getattr(chosen, "reasons", ()) or ())
        why = f"  why: {words}" if words else "  why: it found nothing better"
        if self.viewer is None and others:
            why += f" (its next choice: {describe(others[0].action, g)})"
        return why

    def set_level(self, seat: int, level: str) -> None:
        """Give the bot in ``seat`` another difficulty level (``"easy"``, ``"medium"``, ``"hard"``)."""
        seat = check_seat_index(seat, self.game.n, "seat")
        if self.seats[seat] != "bot":
            raise ValueError(f"seat {seat} is not a bot")
        if level not in BOT_LEVEL_NAMES:
            raise ValueError(f"unknown level {level!r}; expected one of {', '.join(BOT_LEVEL_NAMES)}")
        self.levels[seat] = level
        self.bots[seat] = bot_for_level(level, self.game.seed + 7919 * (seat + 1) + len(self.game.log))
        self.refresh()

    def skip_to_my_turn(self) -> None:
        """Play the bots' moves at once, up to the next decision of a human (or the end)."""
        if self._bot_handle is not None:
            self._bot_handle.cancel()
            self._bot_handle = None
        self.run_bots()

    # ------------------------------------------------------------------ save / load
    game_class = Game

    def _incompatible(self, game: Game) -> str | None:
        if game.n != len(self.seats) or game.board != self.game.board:
            return "holds a game for another table (seats or board differ)"
        if [m.name for m in game.modules] != [m.name for m in self.game.modules]:
            return "holds a game with other rules (its rule modules differ from this table's)"
        return None

    def _loaded(self) -> None:
        self.log_lines = self._past_lines() + [f"loaded {len(self.game.log)} actions"]
        self.refresh()
        self._schedule_bots()

    # ------------------------------------------------------------------ drawing
    def _targets(self, legal) -> tuple[list[int], list[int], list[int]]:
        nodes = {a.node for a in legal if isinstance(a, (BuildSettlement, BuildCity))}
        if self.game.phase not in (Phase.MAIN, Phase.ROLL):
            # a decision on an intersection (a metropolis's city, a city lost, a knight's retreat): ring its
            # places, where a click chooses (issue 25: the player looks at the board, not only at the list)
            nodes |= {v for v in map(node_of, legal) if v is not None}
        nodes = sorted(nodes)
        paths = sorted({a.path for a in legal if isinstance(a, BuildRoad)})
        hexes = sorted({a.hex for a in legal if isinstance(a, MoveRobber)})
        return nodes, paths, hexes

    @guarded
    def refresh(self) -> None:
        """Redraw everything from the engine state (figure updated in place)."""
        g = self.game
        if not g.is_over and self.seats[g.current_player] == "human":
            self._shown_human = g.current_player  # hot seat: the view stays with them while bots play
        legal = self.legal()
        shown = self.board_moves(legal)  # while a choice is pending, only its moves are ringed
        nodes, paths, hexes = self._targets(shown)
        if self.pending_hex is not None:
            hexes = [self.pending_hex]
        dyn = dynamic_traces(
            g, highlight_nodes=nodes, highlight_paths=paths, highlight_hexes=hexes,
            longest_road=g.longest_road_holder, palette_name=self.palette_name, legal=shown,
        )
        # Only the traces whose properties changed since the last refresh are sent (most of the board stays
        # as it was after a move): plotly validates every property it is given, and that took most of a click.
        changed = {name: props for name, props in dyn.items()
                   if name in self._idx and not _same(self._sent.get(name), props)}
        with self.figure.batch_update():
            for name, props in changed.items():
                self.figure.data[self._idx[name]].update(props, overwrite=False)
                self._sent[name] = props
            self.figure.layout.hovermode = "closest"
        if not self._view_alive and changed:
            # plotly sends in-place updates as transient messages; until a browser view has
            # reported in, also keep the synced initial data current so a late view sees them.
            self.figure._widget_data = copy.deepcopy(self.figure._data)
        self._refresh_controls(legal)
        for p in self.panels:
            p.refresh(self, legal)

    def _refresh_controls(self, legal) -> None:
        g = self.game
        kinds = {type(a) for a in legal}
        b = self.buttons
        human = self._human_to_act()
        avail = {
            "roll": RollDice in kinds, "end": EndTurn in kinds, "buy": BuyDevelopmentCard in kinds,
            "knight": PlayKnight in kinds, "road_building": PlayRoadBuilding in kinds,
            "end_road_building": EndRoadBuilding in kinds, "monopoly": PlayMonopoly in kinds,
            "year_of_plenty": PlayYearOfPlenty in kinds, "accept": AcceptTrade in kinds,
            "decline": DeclineTrade in kinds, "cancel": CancelTrade in kinds,
        }
        for k, v in avail.items():
            enable(b[k], v)
            show(b[k], v)
        # Buy stays visible (disabled, with its cost on the card) during the main phase, in a game
        # with development cards (Cities & Knights has none: CK-COMP-1).
        show(b["buy"], avail["buy"] or (human and g.phase is Phase.MAIN and BuyDevelopmentCard in self.known_actions))
        show(self.turn_row, any(avail[k] for k in ("roll", "end")) or (human and g.phase is Phase.MAIN))
        show(self.dev_row, any(avail[k] for k in ("knight", "road_building", "end_road_building", "monopoly",
                                                   "year_of_plenty")))
        # Only the cards that can be played now, each with its own choices.
        for w, k in ((self.yop_a, "year_of_plenty"), (self.yop_b, "year_of_plenty"), (self.mono_res, "monopoly")):
            w.disabled = not avail[k]
        show(self.yop_row, avail["year_of_plenty"])
        show(self.mono_row, avail["monopoly"])
        # The robber's victim.
        if self.pending_hex is not None:
            victims = [a.victim for a in legal
                       if isinstance(a, MoveRobber) and a.hex == self.pending_hex and a.victim is not None]
            self.victim_box.children = [self._victim_button(v) for v in victims]
        else:
            self.victim_box.children = []
        show(self.robber_row, self.pending_hex is not None)
        self.pending_choices = [a for a in self.pending_choices if a in legal]
        hint = self.choice_hint()
        if self.pending_choices and not hint:
            self.choice_title.value = "<b>Which one?</b> <small>this click could mean several moves</small>"
            self.choice_buttons.children = [self._choice_button(a) for a in self.pending_choices]
        else:  # nothing to choose, or the board rings the moves apart (the status line says where to click)
            self.choice_buttons.children = []
        show(self.choice_box, bool(self.pending_choices) and not hint)
        cancel = bool(self.pending_choices) or self.pending_hex is not None
        enable(b["cancel_choice"], cancel)
        show(b["cancel_choice"], cancel)
        no_steal = self.pending_hex is not None and MoveRobber(self.pending_hex, None) in legal
        enable(b["no_steal"], no_steal)
        show(b["no_steal"], no_steal)
        # Discards: a counter per good, capped at what the discarding hand holds (B-ROB-2).
        discarding = Discard in kinds
        show(self.discard_panel, discarding)
        # the action bar may grow while a hand is discarded (its steppers and button all in view, issue 37)
        (self.action_bar.add_class if discarding else self.action_bar.remove_class)("catan-discarding")
        hand = g.hands[g.current_player]
        for s, k in zip(self.discard_counts, hand):
            s.cap(k if discarding else 0)
        self._discard_changed()
        # Trade: rates always; the forms while trading is open; the answers to an offer.
        self._refresh_trade(legal, kinds)
        # Module actions without their own controls.
        special = self.special_actions()
        keep = self.special.value
        self.special.options = [(describe(a, g), a) for a in special]
        if special:  # a list never shows a choice without selecting it (Play then plays what is shown)
            self.special.value = keep if keep in special else special[0]
        enable(b["special"], bool(special))
        show(self.special_row, bool(special))
        # The bot bar.
        bot_turn = not g.is_over and self.seats[g.current_player] == "bot"
        show(self.bot_bar, bot_turn and self.bot_delay is not None)
        enable(b["skip"], bot_turn and any(s == "human" for s in self.seats))
        self._refresh_text()

    def _refresh_trade(self, legal, kinds) -> None:
        g = self.game
        b = self.buttons
        human = self._human_to_act()
        seat = g.active_player if self.viewer_seat() is None else self.viewer_seat()
        rates = g.rates(seat) if not g.is_over else [4] * g.n_goods
        self.rates_box.value = ("bank rates for " + html.escape(self.name(seat)) + ": "
                                + " ".join(chip(str(gd), f"{r}:1") for gd, r in zip(g.goods, rates)))
        open_now = human and g.can_trade()
        if human and g.phase is Phase.MAIN and not open_now:
            self.trade_closed.value = ("<i>Trading is closed for this turn: you have built, and trades come before "
                                       "building (B-TURN-2). A table started with <code>trade_after_building=True</code> "
                                       "allows both in any order.</i>")
        elif human and g.phase is Phase.ROLL:
            self.trade_closed.value = "<i>Roll first: trading opens after the roll (B-TURN-3).</i>"
        else:
            self.trade_closed.value = ""
        show(self.trade_closed, bool(self.trade_closed.value))
        show(self.maritime_row, open_now)
        enable(b["maritime"], MaritimeTrade in kinds and MaritimeTrade(self.give_res.value, self.get_res.value) in legal)
        show(self.offer_panel, open_now)
        enable(b["offer"], open_now)
        if open_now:  # one cannot offer cards one does not hold (B-TRADE-2)
            for s, k in zip(self.offer_give, g.hands[g.active_player]):
                s.cap(k)
        self._update_rate()
        answering = AcceptTrade in kinds or DeclineTrade in kinds or CancelTrade in kinds or ConfirmTrade in kinds
        show(self.response_row, answering)
        if answering and g.trade_offer is not None:
            give, get = g.trade_offer
            who = self.name(g.active_player)
            self.response_row.children[0].value = (
                f"<b>{html.escape(who)}</b> offers {' '.join(chip(str(gd), k) for gd, k in zip(g.goods, give) if k)} "
                f"for {' '.join(chip(str(gd), k) for gd, k in zip(g.goods, get) if k)}")
        confirm = [a for a in legal if isinstance(a, ConfirmTrade)]
        self.partner_box.children = [self._partner_button(a.partner) for a in confirm]

    def _partner_button(self, partner: int) -> W.Button:
        btn = button(f"Trade with {self.name(partner)}", f"catan-confirm-{partner}", style="success")
        btn.on_click(self.guard(lambda _: self.play(ConfirmTrade(partner))))
        return btn

    def _victim_button(self, victim: int) -> W.Button:
        btn = button(f"Steal from {self.name(victim)}", f"catan-steal-{victim}", style="danger")
        btn.on_click(self.guard(lambda _: self._choose_victim(victim)))
        return btn

    @guarded
    def _update_rate(self) -> None:
        g = self.game
        if g.is_over:
            self.rate_label.value = ""
            return
        rate = g.maritime_rate(g.active_player, self.give_res.value)
        self.rate_label.value = f"&nbsp;{rate} {self.give_res.value} for 1 ({rate}:1)&nbsp;"
        # The button follows the choice: enabled only when this very trade is legal now.
        enable(self.buttons["maritime"],
               MaritimeTrade(self.give_res.value, self.get_res.value) in self.legal())

    def _round(self) -> str:
        g = self.game
        if g.in_founding:  # a gold field's pick within it too (issue 37)
            return "Founding"
        return f"Round {max(1, (g.turn - 1) // g.n + 1)}"

    def _prompt(self, legal) -> str:
        g = self.game
        p = g.current_player
        text = RULE_ID.sub("", g.phase.prompt.format(player=html.escape(self.name(p))))
        if g.phase is Phase.FOUNDING_SETTLEMENT:  # a city in C&K's second round (CK-SETUP-1)
            building = g.founding_building(p, second=g.stack[-1].data >= g.n)[0]
            text = text.replace("settlement", building)
        if not self._human_to_act():
            return f"{text} …" if not g.is_over else text
        hints = []
        kinds = {type(a) for a in legal}
        if BuildSettlement in kinds or BuildCity in kinds or (
                g.phase not in (Phase.MAIN, Phase.ROLL) and any(node_of(a) is not None for a in legal)):
            hints.append("click a ringed intersection")
        if BuildRoad in kinds:
            hints.append("click a highlighted path")
        if MoveRobber in kinds:
            hints.append("click a highlighted hex for the robber" if self.pending_hex is None else "now pick the victim")
        if self.pending_choices:
            hint = self.choice_hint()
            hints = [f"{hint} (or Cancel)" if hint else "choose which move you mean (Which one?) or Cancel"]
        else:
            hints += [h for layer in self.layers for h in layer.hints(g, legal)]
            if not hints and self.special_actions():  # the decision's moves are only in the list (issue 25)
                hints.append("choose in More actions, then Play")
        return text + (f" — {', '.join(hints)}" if hints else "")

    def cost_rows(self, seat: int) -> list[tuple[str, tuple[int, ...]]]:
        """The building-cost card's rows for ``seat``: ``(label, counts per good)``: every piece kind
        of the game with a price (B-BUILD-1), then what the modules' panels declare (a row keyed by a
        kind's name replaces that kind's row)."""
        g = self.game
        kinds = [k.name for k in g.kinds if k is not None]
        order = [k for k in COST_FIRST if k in kinds] + [k for k in kinds if k not in COST_FIRST]
        rows = {k: (k, g.cost(k)) for k in order if any(g.cost(k))}
        for p in self.panels:
            for key, label, cost in p.costs(self, seat):
                rows[key] = (label, tuple(cost))
        return list(rows.values())

    def _refresh_text(self) -> None:
        g = self.game
        viewer = self.viewer_seat()
        legal = self.legal()
        if g.is_over:
            self.status.value = (f"<h3 style='margin:4px 0'>★ {self.swatch(g.winner)} {html.escape(self.name(g.winner))}"
                                 f" wins with {g.vp(g.winner)} VP</h3>")
        else:
            p = g.current_player
            bot = self.seats[p] == "bot"
            head = f"<b>{self._round()}</b> · {self.swatch(g.active_player)} {html.escape(self.name(g.active_player))}'s turn"
            doing = (f"{html.escape(self.name(p))} is playing…" if bot else self._prompt(legal))
            self.status.value = (f"<div class='catan-card' style='background:#fff8e6'>{head}<br>"
                                 f"{self.swatch(p)} {doing}</div>")
        self.notice.value = (f"<span style='color:#a33'>{self.message}</span>" if self.message.startswith("⚠")
                             else self.message)
        # Dice.
        if g.dice_history:
            d = g.dice_history[-1]
            faces = "".join(f"<span class='catan-die{' red' if i == 0 else ''}' title='{v}'>{DIE_FACES[v - 1]}</span>"
                            for i, v in enumerate(d[:2]))
            recent = " ".join(f"<span title='{a}+{b_}'>{a + b_}</span>" for a, b_, *_ in g.dice_history[-10:])
            self.dice_box.value = f"{faces} <b>{d[0] + d[1]}</b> &nbsp;<small>recent: {recent}</small>"
        else:
            self.dice_box.value = "<small>not rolled yet</small>"
        # Hands: chips, development cards as cards.
        show_hands = range(g.n) if viewer is None else [viewer]
        rows = []
        for q in show_hands:
            hand = g.hand(q)
            chips = " ".join(chip(str(r), k) for r, k in hand.items() if k) or "<i>no cards</i>"
            new = g.dev_cards(q, new=True)
            cards = " ".join(
                f"<span class='catan-chip' style='display:inline-block;border:1px solid #555;border-radius:4px;"
                f"padding:1px 6px;margin:1px;background:#f3efe2;font-size:12px'>{c.name.replace('_', ' ').title()}"
                f"{' ×' + str(k) if k > 1 else ''}{' <i>(new)</i>' if new[c] else ''}</span>"
                for c, k in g.dev_cards(q).items() if k)
            rows.append(f"{self.swatch(q)} <b>seat {q}: {html.escape(self.name(q))}</b> {chips}"
                        + (f"<br>&nbsp;&nbsp;&nbsp;cards: {cards}" if cards else ""))
        title = "Hands" if viewer is None else "Your hand <small>(the others' cards are face down)</small>"
        self.hand_box.value = f"<div class='catan-card'><b>{title}</b><br>" + "<br>".join(rows) + "</div>"
        # The building-cost card: what the game's pieces and modules cost, and what you can afford now.
        seat = viewer if viewer is not None else g.active_player
        h = g.hands[seat]
        lines = []
        for label, cost in self.cost_rows(seat):
            ok = g.affords(h, cost)
            lines.append(f"{CAN if ok else CANNOT} {html.escape(label)}: "
                         + " ".join(chip(str(g.goods[r]), c, dim=h[r] < c) for r, c in enumerate(cost) if c))
        self.cost_box.value = (f"<div class='catan-card'><b>Building costs</b> <small>({CAN} = {html.escape(self.name(seat))} "
                               f"can pay now)</small><br>" + "<br>".join(lines) + "</div>")
        # Scoreboard: VP, cards in hand (how many: A-15), the modules' columns, the trail, the badges.
        lr = g.longest_road_holder
        lengths = g.road_lengths()
        columns = [("VP", "victory points" + (" (others': visible VP, B-END-6)" if viewer is not None else ""),
                    lambda q: g.vp(q) if viewer in (None, q) else g.vp(q, visible=True)),
                   ("cards", "cards in hand (how many)", lambda q: sum(g.hands[q]))]
        columns += [c for p in self.panels for c in p.columns(self)]
        columns.append(("road", "longest trail (B-LR-1)", lambda q: lengths[q]))
        heads = "".join(f"<th title='{html.escape(t)}'>{html.escape(hd)}</th>" for hd, t, _ in columns)
        srows = []
        for q in range(g.n):
            # a space between badges: a narrow scoreboard wraps them instead of growing past its card (issue 37)
            marks = " ".join(m for m in [badge("LR", "Longest Road (2 VP)") if lr == q else "",
                                         *(p.badges(self, q) for p in self.panels)] if m)
            me = " style='font-weight:bold;background:#fff3c4'" if q == g.active_player else ""
            cells = "".join(f"<td>{html.escape(str(cell(q)))}</td>" for _, _, cell in columns)
            srows.append(f"<tr{me}><td>{self.swatch(q)} {html.escape(self.name(q))}</td>{cells}<td>{marks}</td></tr>")
        self.scoreboard.value = (
            "<div class='catan-card'><b>Scores</b> <small>(target " + str(g.vp_target) + " VP)</small>"
            "<table style='font-size:12px;width:100%'><tr><th></th>" + heads + "<th></th></tr>" + "".join(srows)
            + "</table><small>hover a heading or a badge for its meaning"
            + (" · others' VP leave out hidden VP cards" if viewer is not None else "") + "</small></div>"
        )
        lines = self.log_lines[-80:]
        self.log_box.value = ("<div class='catan-card'><b>Log</b> <small>(newest first)</small><div class='catan-log' "
                              "style='max-height:210px;overflow-y:auto;font-size:12px'>"
                              + "<br>".join(html.escape(x) if "<" not in x else x for x in reversed(lines))
                              + "</div></div>")

    # ------------------------------------------------------------------ display
    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        return f"<GameTable {self.seats}: {self.game!r}>"


def load_table(path: str | Path, seats: Sequence[str], **kw) -> GameTable:
    """A table for a saved game."""
    return GameTable(Game.load(path), seats, **kw)


# Keep the names of development cards importable here (the module's docstring example uses them).

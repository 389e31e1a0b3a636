"""The game table: a whole game in a notebook, played with the mouse.

The table holds no rule logic.  It asks the engine for the legal actions, shows
them (buttons, highlighted intersections, paths and hexes), and plays what the
user picks through :meth:`Game.play`.  Bots move by themselves after a short
pause.

Examples
--------
>>> from catan_nb import Board
>>> table = GameTable(Board.beginner(), seats=["human", "bot", "bot"], seed=1, bot_delay=None)
>>> table.game.phase.value
'founding_settlement'
"""

from __future__ import annotations

import copy
import html
import numbers
from collections.abc import Sequence
from pathlib import Path

import ipywidgets as W
import plotly.graph_objects as go

from ..analysis.bots import WeightedBot
from ..board import Board
from ..constants import RESOURCES, Resource
from ..errors import CatanError
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
from ..rules.modules.five_six import EndSpecialBuild
from ..viz import board_figure, dynamic_traces
from ..viz.palette import palette
from ._common import SavesGames, check_seat_index, guarded, schedule

__all__ = ["GameTable"]

PHASE_TEXT = {
    Phase.FOUNDING_SETTLEMENT: "place a founding settlement (click a highlighted intersection)",
    Phase.FOUNDING_ROAD: "place a founding road next to it (click a highlighted path)",
    Phase.ROLL: "roll the dice (or play a development card first)",
    Phase.DISCARD: "discard half of the resource cards",
    Phase.MOVE_ROBBER: "move the robber (click a highlighted hex)",
    Phase.MAIN: "trade, then build (click the board) or buy; end the turn when done",
    Phase.ROAD_BUILDING: "place a free road (click a highlighted path) or stop",
    Phase.TRADE_RESPONSE: "accept or decline the offer",
    Phase.TRADE_CONFIRM: "choose a partner who accepted, or cancel",
    Phase.SPECIAL_BUILD: "Special Building Phase: build or buy (no trades, no cards), then press Done building",
    Phase.GIFT_RESPONSE: "accept or refuse the gift (special actions)",
    Phase.FAVOUR_EXCHANGE: "return one favour token (special actions)",
    Phase.HELPER_REACTION: "react to the roll with your helper, or decline (special actions)",
    Phase.HELPER_AFTER_USE: "flip your helper to side B or exchange it (special actions)",
    Phase.ARCHITECT_CHOICE: "keep one of the development cards seen (special actions)",
    Phase.GAME_OVER: "the game is over",
}

#: Actions that have their own controls on the table; every other legal action
#: (the rule modules': favours, gifts, helpers) is offered in the special-actions list.
BASE_CONTROLS = (
    RollDice, EndTurn, BuyDevelopmentCard, PlayKnight, PlayRoadBuilding, EndRoadBuilding, PlayMonopoly,
    PlayYearOfPlenty, MaritimeTrade, OfferTrade, AcceptTrade, DeclineTrade, ConfirmTrade, CancelTrade, Discard,
    MoveRobber, BuildRoad, BuildSettlement, BuildCity, EndSpecialBuild,
)


#: Log text for actions whose outcome only their player may see.
HIDDEN_OUTCOMES = {
    "UseProfessors": "used the Professors' guild: took a development card",
    "UseArchitect": "used the Architect: looked at development cards",
    "KeepCard": "kept a development card",
    "ExchangeFavour": "exchanged a favour token",
}


def describe(action) -> str:
    """A readable label for any action, from its kind and fields."""
    name = type(action).__name__
    fields = getattr(action, "__dataclass_fields__", {})
    parts = []
    for f in fields:
        v = getattr(action, f)
        if v is None:
            continue
        if isinstance(v, tuple):
            v = ", ".join(str(x) if not isinstance(x, tuple) else "→".join(map(str, x)) for x in v)
        parts.append(f"{f.replace('_', ' ')} {v}")
    words = "".join(" " + c.lower() if c.isupper() else c for c in name).strip()
    return words + (": " + "; ".join(parts) if parts else "")


def _button(label: str, css: str, tooltip: str = "", style: str = "") -> W.Button:
    b = W.Button(description=label, tooltip=tooltip or label, button_style=style, layout=W.Layout(width="auto"))
    b.add_class(css)
    return b


class GameTable(SavesGames):
    """An ipywidgets table hosting one game of 3-4 seats, each human or bot.

    Parameters
    ----------
    source : Board or Game
        A board to start a new game on, or a game in progress.
    seats : sequence of {"human", "bot"}
        One entry per seat; its length is the number of players.
    seed : int, optional
        Seed of a new game (and of the bots).
    start : {"founding", "beginner"}
        How a new game starts.
    rules : Rules, optional
    viewer : int, "current" or None
        Hidden-information mode: show only what one seat may know (``"current"``:
        whichever human seat is to act, for hot-seat play).  ``None`` shows everything.
    bot_delay : float or None
        Seconds bots pause before each move; ``None`` makes them move at once,
        synchronously (for tests and scripts).
    palette_name : {"standard", "colorblind"}

    Attributes
    ----------
    game : Game
    figure : plotly.graph_objects.FigureWidget
    widget : ipywidgets.VBox
        What the notebook shows (the table also displays itself).
    """

    def __init__(
        self,
        source: Board | Game,
        seats: Sequence[str] = ("human", "bot", "bot", "bot"),
        *,
        seed: int | None = None,
        start: str = "founding",
        rules: Rules | None = None,
        viewer: int | str | None = None,
        bot_delay: float | None = 0.6,
        palette_name: str = "standard",
        save_path: str = "catan_game.json",
    ):
        if isinstance(seats, str) or not all(isinstance(s, str) for s in seats):
            raise ValueError(f"seats is a list of 'human' and 'bot', not {seats!r}")
        seats = [s.lower() for s in seats]
        if not 3 <= len(seats) <= 6:
            raise ValueError(f"a table seats 3 to 6 players, not {len(seats)}")
        for s in seats:
            if s not in ("human", "bot"):
                raise ValueError(f"a seat is 'human' or 'bot', not {s!r}")
        if not (viewer is None or viewer == "current"):
            viewer = check_seat_index(viewer, len(seats), "viewer (or None, or 'current')")
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
            game = Game(source, players=len(seats), seed=seed, start=start, rules=rules)
        self.game = game
        self.seats = seats
        self.viewer = viewer
        self.bot_delay = bot_delay
        self.palette_name = palette_name
        self.bots = {p: WeightedBot(seed=(game.seed + 7919 * (p + 1))) for p, s in enumerate(seats) if s == "bot"}
        self.pending_hex: int | None = None
        self.message = ""
        self._bot_handle = None
        self._build(save_path)
        self.refresh()
        self._schedule_bots()

    # ------------------------------------------------------------------ construction
    def _build(self, save_path: str) -> None:
        # The complete figure, highlights included, is built before it becomes a widget:
        # a view that connects late (Voila) renders the widget's initial data.
        nodes, paths, hexes = self._targets(self.legal())
        fig = board_figure(
            self.game, palette_name=self.palette_name, height=600, highlight_nodes=nodes, highlight_paths=paths,
            highlight_hexes=hexes, longest_road=self.game.longest_road_holder,
        )
        self.figure = go.FigureWidget(fig)
        self._view_alive = False
        self.figure.observe(
            self._on_view_message, names=["_js2py_layoutDelta", "_js2py_traceDeltas", "_js2py_relayout", "_js2py_restyle"]
        )
        self._idx = {t.name: i for i, t in enumerate(self.figure.data)}
        self.figure.data[self._idx["intersections"]].on_click(self._on_node_click)
        self.figure.data[self._idx["paths"]].on_click(self._on_path_click)
        self.figure.data[self._idx["hexes"]].on_click(self._on_hex_click)

        self.status = W.HTML().add_class("catan-status")
        self.notice = W.HTML().add_class("catan-notice")
        b = {}
        b["roll"] = _button("Roll dice", "catan-roll", style="primary")
        b["end"] = _button("End turn", "catan-end-turn")
        b["buy"] = _button("Buy development card", "catan-buy")
        b["knight"] = _button("Play knight", "catan-knight")
        b["road_building"] = _button("Play Road Building", "catan-road-building")
        b["end_road_building"] = _button("Stop placing roads", "catan-end-road-building")
        b["monopoly"] = _button("Play Monopoly", "catan-monopoly")
        b["year_of_plenty"] = _button("Play Year of Plenty", "catan-year-of-plenty")
        b["maritime"] = _button("Trade with the bank", "catan-maritime")
        b["offer"] = _button("Offer to players", "catan-offer")
        b["accept"] = _button("Accept offer", "catan-accept", style="success")
        b["decline"] = _button("Decline offer", "catan-decline", style="warning")
        b["cancel"] = _button("Cancel offer", "catan-cancel")
        b["discard"] = _button("Discard", "catan-discard", style="danger")
        b["no_steal"] = _button("Steal from nobody", "catan-no-steal")
        b["end_sbp"] = _button("Done building", "catan-end-sbp", style="primary")
        b["special"] = _button("Play", "catan-special-play", style="info")
        b["save"] = _button("Save", "catan-save")
        b["load"] = _button("Load", "catan-load")
        self.buttons = b
        handlers = {
            "roll": lambda _: self._play(RollDice()),
            "end": lambda _: self._play(EndTurn()),
            "buy": lambda _: self._play(BuyDevelopmentCard()),
            "knight": lambda _: self._play(PlayKnight()),
            "road_building": lambda _: self._play(PlayRoadBuilding()),
            "end_road_building": lambda _: self._play(EndRoadBuilding()),
            "monopoly": lambda _: self._play(PlayMonopoly(self.mono_res.value)),
            "year_of_plenty": lambda _: self._play(PlayYearOfPlenty(self.yop_a.value, self.yop_b.value)),
            "maritime": lambda _: self._play(MaritimeTrade(self.give_res.value, self.get_res.value)),
            "offer": lambda _: self._play(OfferTrade(self._counts(self.offer_give), self._counts(self.offer_get))),
            "accept": lambda _: self._play(AcceptTrade()),
            "decline": lambda _: self._play(DeclineTrade()),
            "cancel": lambda _: self._play(CancelTrade()),
            "discard": lambda _: self._play(Discard(self._counts(self.discard_counts))),
            "no_steal": lambda _: self._choose_victim(None),
            "end_sbp": lambda _: self._play(EndSpecialBuild()),
            "special": lambda _: self._play_special(),
            "save": lambda _: self.save(),
            "load": lambda _: self.load(),
        }
        for k, h in handlers.items():
            b[k].on_click(self._guard(h))
        res_opts = [(str(r), r) for r in RESOURCES]
        self.mono_res = W.Dropdown(options=res_opts, layout=W.Layout(width="110px")).add_class("catan-mono-res")
        self.yop_a = W.Dropdown(options=res_opts, layout=W.Layout(width="110px"))
        self.yop_b = W.Dropdown(options=res_opts, layout=W.Layout(width="110px"))
        self.give_res = W.Dropdown(options=res_opts, description="give", layout=W.Layout(width="170px"))
        self.get_res = W.Dropdown(options=res_opts, value=Resource.ORE, description="get", layout=W.Layout(width="170px"))
        self.rate_label = W.HTML()
        self.give_res.observe(lambda _: self._update_rate(), "value")

        def counters(css):
            return [
                W.BoundedIntText(value=0, min=0, max=19, description=str(r), layout=W.Layout(width="140px")).add_class(
                    f"{css}-{r}"
                )
                for r in RESOURCES
            ]

        self.offer_give = counters("catan-offer-give")
        self.offer_get = counters("catan-offer-get")
        self.discard_counts = counters("catan-discard")
        self.partner_box = W.HBox()
        self.victim_box = W.HBox()
        self.special = W.Dropdown(options=[], layout=W.Layout(width="460px")).add_class("catan-special")
        self.special_row = W.HBox([W.HTML("<b>Special actions</b>&nbsp;"), self.special, b["special"]])
        self.modules_box = W.HTML().add_class("catan-modules")
        self.save_path = W.Text(value=save_path, description="file", layout=W.Layout(width="260px"))
        self.scoreboard = W.HTML().add_class("catan-scoreboard")
        self.hand_box = W.HTML().add_class("catan-hand")
        self.dice_box = W.HTML().add_class("catan-dice")
        self.log_box = W.HTML().add_class("catan-log")

        self.dev_row = W.HBox(
            [b["knight"], b["road_building"], b["end_road_building"], b["year_of_plenty"], self.yop_a, self.yop_b,
             b["monopoly"], self.mono_res]
        )
        self.turn_row = W.HBox([b["roll"], b["buy"], b["end"], b["end_sbp"]])
        self.maritime_row = W.HBox([self.give_res, self.get_res, self.rate_label, b["maritime"]])
        self.offer_panel = W.VBox(
            [W.HTML("<b>Domestic offer</b> — you give:"), W.HBox(self.offer_give), W.HTML("you get:"),
             W.HBox(self.offer_get), b["offer"]]
        )
        self.response_row = W.HBox([b["accept"], b["decline"], self.partner_box, b["cancel"]])
        self.discard_panel = W.VBox([W.HTML("<b>Discard</b>"), W.HBox(self.discard_counts), b["discard"]])
        self.robber_row = W.HBox([self.victim_box, b["no_steal"]])
        controls = W.VBox(
            [self.status, self.notice, self.turn_row, self.special_row, self.dev_row, self.maritime_row,
             self.offer_panel, self.response_row, self.discard_panel, self.robber_row, self.hand_box, self.modules_box,
             W.HBox([self.save_path, b["save"], b["load"]])],
            layout=W.Layout(width="100%"),
        )
        side = W.VBox([self.scoreboard, self.dice_box, self.log_box], layout=W.Layout(width="380px"))
        self.widget = W.VBox([W.HBox([self.figure, side]), controls]).add_class("catan-table")

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _counts(boxes) -> tuple[int, ...]:
        return tuple(int(b.value) for b in boxes)

    def _viewer_seat(self) -> int | None:
        if self.viewer is None:
            return None
        if self.viewer == "current":
            p = self.game.current_player
            return p if self.seats[p] == "human" else self._last_human
        return int(self.viewer)

    @property
    def _last_human(self) -> int | None:
        humans = [p for p, s in enumerate(self.seats) if s == "human"]
        return humans[0] if humans else None

    def _human_to_act(self) -> bool:
        g = self.game
        return not g.is_over and self.seats[g.current_player] == "human"

    def legal(self) -> list:
        """Legal actions of the seat to act, if that seat is human (the table's clickable set)."""
        return self.game.legal_actions() if self._human_to_act() else []

    def _guard(self, handler):
        """A button handler that reports any error in the status line instead of raising."""
        return lambda arg: self._run_guarded(handler, arg)

    @guarded
    def _run_guarded(self, handler, arg):
        return handler(arg)

    # ------------------------------------------------------------------ playing
    def _play(self, action) -> bool:
        """Play an action through the engine; on an illegal one show the engine's message."""
        try:
            self.game.play(action)
        except CatanError as err:
            self.message = f"⚠ {html.escape(str(err))}"
            self.refresh()
            return False
        self.message = ""
        self.pending_hex = None
        self.refresh()
        self._schedule_bots()
        return True

    @guarded
    def _play_special(self) -> None:
        if self.special.value is not None:
            self._play(self.special.value)

    def special_actions(self) -> list:
        """Legal actions of the rule modules (favours, gifts, helpers) for the human to act."""
        return [a for a in self.legal() if not isinstance(a, BASE_CONTROLS)]

    @guarded
    def _choose_victim(self, victim: int | None) -> None:
        if self.pending_hex is None:
            return
        self._play(MoveRobber(self.pending_hex, victim))

    def _on_view_message(self, change) -> None:
        if change["new"] is not None:
            self._view_alive = True

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
    def click_node(self, node: int) -> bool:
        """A click on an intersection: found a settlement or build a city there, if legal."""
        if isinstance(node, bool) or not isinstance(node, numbers.Integral):
            return False  # not a place on this board
        node = int(node)
        for a in self.legal():
            if isinstance(a, (BuildSettlement, BuildCity)) and a.node == node:
                return self._play(a)
        return False  # other intersections are inert

    @guarded
    def click_path(self, path: int) -> bool:
        """A click on a path: build a road there, if legal."""
        if isinstance(path, bool) or not isinstance(path, numbers.Integral):
            return False  # not a place on this board
        path = int(path)
        for a in self.legal():
            if isinstance(a, BuildRoad) and a.path == path:
                return self._play(a)
        return False

    @guarded
    def click_hex(self, hex_id: int) -> bool:
        """A click on a hex while the robber moves: move it, or ask for the victim."""
        if isinstance(hex_id, bool) or not isinstance(hex_id, numbers.Integral):
            return False  # not a place on this board
        hex_id = int(hex_id)
        options = [a for a in self.legal() if isinstance(a, MoveRobber) and a.hex == hex_id]
        if not options:
            return False
        if len(options) == 1:
            return self._play(options[0])
        self.pending_hex = hex_id
        self.refresh()
        return True

    @guarded
    def press(self, name: str) -> None:
        """Press a button by its key (``"roll"``, ``"end"``, ``"buy"``, ...), as a click would."""
        self.buttons[name].click()

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
        g.play(self.bots[g.current_player].choose(g))
        self.refresh()
        self._schedule_bots()

    @guarded
    def run_bots(self, limit: int = 100_000) -> None:
        """Let bots move until a human must act (synchronously)."""
        g = self.game
        for _ in range(limit):
            if g.is_over or self.seats[g.current_player] != "bot":
                break
            g.play(self.bots[g.current_player].choose(g))
        self.refresh()

    # ------------------------------------------------------------------ save / load
    game_class = Game

    def _incompatible(self, game: Game) -> str | None:
        if game.n != len(self.seats) or game.board != self.game.board:
            return "holds a game for another table (seats or board differ)"
        return None

    def _loaded(self) -> None:
        self.refresh()
        self._schedule_bots()

    # ------------------------------------------------------------------ drawing
    def _targets(self, legal) -> tuple[list[int], list[int], list[int]]:
        nodes = sorted({a.node for a in legal if isinstance(a, (BuildSettlement, BuildCity))})
        paths = sorted({a.path for a in legal if isinstance(a, BuildRoad)})
        hexes = sorted({a.hex for a in legal if isinstance(a, MoveRobber)})
        return nodes, paths, hexes

    def refresh(self) -> None:
        """Redraw everything from the engine state (figure updated in place)."""
        g = self.game
        legal = self.legal()
        nodes, paths, hexes = self._targets(legal)
        if self.pending_hex is not None:
            hexes = [self.pending_hex]
        dyn = dynamic_traces(
            g, highlight_nodes=nodes, highlight_paths=paths, highlight_hexes=hexes,
            longest_road=g.longest_road_holder, palette_name=self.palette_name,
        )
        with self.figure.batch_update():
            for name, props in dyn.items():
                i = self._idx.get(name)
                if i is not None:
                    self.figure.data[i].update(props, overwrite=False)
        if not self._view_alive:
            # plotly sends in-place updates as transient messages; until a browser view has
            # reported in, also keep the synced initial data current so a late view sees them.
            self.figure._widget_data = copy.deepcopy(self.figure._data)
        self._refresh_controls(legal)

    def _refresh_controls(self, legal) -> None:
        g = self.game
        kinds = {type(a) for a in legal}
        b = self.buttons
        show = {
            "roll": RollDice in kinds,
            "end": EndTurn in kinds,
            "buy": BuyDevelopmentCard in kinds,
            "knight": PlayKnight in kinds,
            "road_building": PlayRoadBuilding in kinds,
            "end_road_building": EndRoadBuilding in kinds,
            "monopoly": PlayMonopoly in kinds,
            "year_of_plenty": PlayYearOfPlenty in kinds,
            "maritime": MaritimeTrade in kinds,
            "offer": self._human_to_act() and g.can_trade(),
            "accept": AcceptTrade in kinds,
            "decline": DeclineTrade in kinds,
            "cancel": CancelTrade in kinds,
            "discard": Discard in kinds,
            "no_steal": self.pending_hex is not None and MoveRobber(self.pending_hex, None) in legal,
            "end_sbp": EndSpecialBuild in kinds,
        }
        for k, v in show.items():
            b[k].disabled = not v
        self.yop_a.disabled = self.yop_b.disabled = not show["year_of_plenty"]
        self.mono_res.disabled = not show["monopoly"]
        self.maritime_row.layout.display = None if show["maritime"] else "none"
        self.offer_panel.layout.display = None if show["offer"] else "none"
        self.response_row.layout.display = None if (show["accept"] or show["decline"] or show["cancel"]) else "none"
        self.discard_panel.layout.display = None if show["discard"] else "none"
        self.robber_row.layout.display = None if self.pending_hex is not None else "none"
        self.dev_row.layout.display = None if any(
            show[k] for k in ("knight", "road_building", "end_road_building", "monopoly", "year_of_plenty")
        ) else "none"
        special = [a for a in legal if not isinstance(a, BASE_CONTROLS)]
        self.special.options = [(describe(a), a) for a in special]
        b["special"].disabled = not special
        self.special_row.layout.display = None if special else "none"
        self._update_rate()
        confirm = [a for a in legal if isinstance(a, ConfirmTrade)]
        self.partner_box.children = [self._partner_button(a.partner) for a in confirm]
        if self.pending_hex is not None:
            victims = [a.victim for a in legal if isinstance(a, MoveRobber) and a.hex == self.pending_hex and a.victim is not None]
            self.victim_box.children = [self._victim_button(v) for v in victims]
        else:
            self.victim_box.children = []
        if Discard in kinds:
            owed = g.discards_owed().get(g.current_player, 0)
            self.discard_panel.children[0].value = (
                f"<b>Seat {g.current_player} ({g.colours[g.current_player]}) discards {owed} card(s)</b>"
            )
        self._refresh_text()

    def _partner_button(self, partner: int) -> W.Button:
        btn = _button(f"Trade with seat {partner} ({self.game.colours[partner]})", f"catan-confirm-{partner}",
                      style="success")
        btn.on_click(lambda _: self._play(ConfirmTrade(partner)))
        return btn

    def _victim_button(self, victim: int) -> W.Button:
        btn = _button(f"Steal from seat {victim} ({self.game.colours[victim]})", f"catan-steal-{victim}",
                      style="danger")
        btn.on_click(lambda _: self._choose_victim(victim))
        return btn

    @guarded
    def _update_rate(self) -> None:
        g = self.game
        if g.is_over:
            self.rate_label.value = ""
            return
        rate = g.maritime_rate(g.active_player, self.give_res.value)
        self.rate_label.value = f"&nbsp;rate {rate}:1&nbsp;"

    def _swatch(self, p: int) -> str:
        colour = palette(self.palette_name)["player"][self.game.colours[p]]
        return (f"<span style='display:inline-block;width:12px;height:12px;background:{colour};"
                f"border:1px solid #111'></span>")

    def _refresh_text(self) -> None:
        g = self.game
        viewer = self._viewer_seat()
        p = g.current_player
        who = f"{self._swatch(p)} seat {p} ({g.colours[p]}, {self.seats[p]})"
        if g.is_over:
            self.status.value = f"<h3>Seat {g.winner} ({g.colours[g.winner]}) wins with {g.vp(g.winner)} VP</h3>"
        else:
            pending = " — now pick the victim" if self.pending_hex is not None else ""
            self.status.value = f"<b>Turn {g.turn}</b> · {who} to act: {PHASE_TEXT[g.phase]}{pending}"
        self.notice.value = f"<span style='color:#a33'>{self.message}</span>" if self.message.startswith("⚠") else self.message
        rows = []
        lr, la = g.longest_road_holder, g.largest_army_holder
        lengths = g.road_lengths()
        for q in range(g.n):
            vp = g.vp(q) if (viewer is None or viewer == q) else g.vp(q, visible=True)
            marks = ("<b>LR</b> " if lr == q else "") + ("<b>LA</b> " if la == q else "")
            me = " style='font-weight:bold'" if q == g.active_player else ""
            rows.append(
                f"<tr{me}><td>{self._swatch(q)} {q} {g.colours[q]}</td><td>{self.seats[q]}</td><td>{vp}</td>"
                f"<td>{sum(g.hands[q])}</td><td>{sum(g.dev[q])}</td><td>{g.knights[q]}</td><td>{lengths[q]}</td>"
                f"<td>{marks}</td></tr>"
            )
        self.scoreboard.value = (
            "<b>Scoreboard</b><table style='font-size:12px'><tr><th>seat</th><th></th><th>VP</th><th>cards</th>"
            "<th>dev</th><th>knights</th><th>road</th><th></th></tr>" + "".join(rows) + "</table>"
            "<small>VP of other seats exclude hidden VP cards" + (" (hidden mode)" if viewer is not None else "")
            + ". LR: Longest Road, LA: Largest Army</small>"
        )
        show_hands = range(g.n) if viewer is None else [viewer]
        hand_rows = []
        for q in show_hands:
            h = ", ".join(f"{k} {r}" for r, k in g.hand(q).items() if k) or "no cards"
            d = ", ".join(f"{k} {c}" for c, k in g.dev_cards(q).items() if k) or "no development cards"
            hand_rows.append(f"{self._swatch(q)} seat {q}: {h}; {d}")
        self.hand_box.value = "<b>Hands</b><br>" + "<br>".join(hand_rows)
        self.modules_box.value = self._modules_html(viewer)
        dice = g.dice_history[-12:]
        self.dice_box.value = "<b>Dice</b> " + (
            " ".join(f"<span title='{a}+{b}'>{a + b}</span>" for a, b in dice) if dice else "not rolled yet"
        )
        lines = [self._describe(a) for a in g.log[-14:]]
        self.log_box.value = "<b>Log</b><br><div style='font-size:11px;font-family:monospace'>" + "<br>".join(
            html.escape(x) for x in reversed(lines)
        ) + "</div>"

    def _modules_html(self, viewer) -> str:
        """The guild board (Friends) and the helper cards (Helpers), if those modules are on."""
        g = self.game
        out = []
        fr = g.ext.get("friends")
        if fr:
            from ..constants import CATAN_TOKENS, GUILD_PRICE, Guild

            rows = "".join(
                f"<tr><td>{gd.name.title()}</td><td>{gd.token} ×{GUILD_PRICE[gd]}</td><td>{fr['board'][gd.value]}</td>"
                + "".join(
                    f"<td>{fr['tokens'][q][gd.value] if viewer in (None, q) else '?'}</td>" for q in range(g.n)
                )
                + "</tr>"
                for gd in Guild
            )
            heads = "".join(f"<th>{self._swatch(q)}</th>" for q in range(g.n))
            out.append(
                "<b>Guild board</b> (favours; target " + str(g.vp_target) + " VP)"
                f"<table style='font-size:12px'><tr><th>guild</th><th>price</th><th>used</th>{heads}</tr>{rows}</table>"
                f"<small>supply: {sum(fr['supply'])} face down · Catan tokens left: {fr['catan_left']}/{CATAN_TOKENS}; "
                f"held: {', '.join(str(k) for k in fr['catan_tokens'])}</small>"
            )
        hp = g.ext.get("helpers")
        if hp:
            from ..constants import HelperCard

            def card(c, side=None):
                h = HelperCard(c)
                num = f"A{h.number}" if h.number else "—"
                return f"{h.name.replace('_', ' ').title()} ({num}{', side ' + side if side else ''}): {h.title}"

            held = "<br>".join(
                f"{self._swatch(q)} seat {q}: {card(c, hp['side'][q]) if c else 'none yet'}"
                for q, c in enumerate(hp["held"])
            )
            display = ", ".join(HelperCard(c).name.replace("_", " ").title() for c in hp["display"]) or "empty"
            out.append(f"<b>Helpers</b><br>{held}<br><small>display: {display}</small>")
        return "<br>".join(out)

    def _describe(self, action) -> str:
        name = type(action).__name__
        hidden = HIDDEN_OUTCOMES.get(name)
        if hidden:
            return hidden  # what was drawn stays secret (B-SETUP-7)
        if isinstance(action, RollDice) and action.dice:
            return f"rolled {action.dice[0]}+{action.dice[1]} = {sum(action.dice)}"
        if isinstance(action, BuyDevelopmentCard):
            return "bought a development card"  # the card drawn stays hidden
        if isinstance(action, MoveRobber):
            tail = f", stole from seat {action.victim}" if action.victim is not None else ""
            return f"robber to hex {action.hex}{tail}"
        return describe(action) if name != "EndTurn" else "ended the turn"

    # ------------------------------------------------------------------ display
    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        return f"<GameTable {self.seats}: {self.game!r}>"


def load_table(path: str | Path, seats: Sequence[str], **kw) -> GameTable:
    """A table for a saved game."""
    return GameTable(Game.load(path), seats, **kw)

"""The dice table: a Catan Dice Game in a notebook, against the computer or friends.

Dice are buttons: click one to keep it between rolls, or, once the faces are
fixed, to pick the die a knight's swap turns.  The sheet is one plotly
``FigureWidget`` (built complete before it is wrapped, updated in place in
``batch_update``): the legal builds are ringed, and a click builds.  Swaps and
gold trades are buttons; the score track and a panel with the exact odds of the
current keep against the best keep sit beside it.

The table holds no rule logic: what is allowed comes from
``game.legal_actions()``, moves go through ``game.play()`` (whose rule message
is shown when a move is illegal), and the odds from :mod:`catan_nb.dicegame.odds`.

Examples
--------
>>> table = DiceTable(["human", "computer"], seed=3, bot_delay=None)
>>> table.press("roll")
>>> table.game.rolls, len(table.game.dice)
(1, 6)
>>> table.toggle_die(0)
>>> table.kept
{0}
"""

from __future__ import annotations

import copy
import html
from collections.abc import Sequence
from pathlib import Path

import ipywidgets as W
import plotly.graph_objects as go

from ..constants import Resource
from ..dicegame import odds
from ..dicegame.actions import Build, EndTurn, Roll, Stop, Swap, TradeGold
from ..dicegame.constants import (
    MAX_ROLLS,
    NO_BUILD_PENALTY,
    PLUS_VP_TO_WIN,
    TURNS,
    Face,
    Kind,
    Variant,
)
from ..dicegame.game import DiceGame, DicePhase
from ..dicegame.policies import TargetPolicy
from ..errors import CatanError
from ..viz.dice_sheet import SEAT_COLOURS, dice_sheet_figure, dice_sheet_traces
from ._figure import FigureWidget
from ._common import SavesGames, beside, figure_box, guarded, refit, schedule

__all__ = ["DiceTable", "TARGETS", "load_dice_table"]

#: Targets offered by the odds panel: label -> builds paid together.
TARGETS: dict[str, tuple[Kind, ...]] = {
    "road": (Kind.ROAD,),
    "settlement": (Kind.SETTLEMENT,),
    "city": (Kind.CITY,),
    "knight": (Kind.KNIGHT,),
    "road + settlement": (Kind.ROAD, Kind.SETTLEMENT),
    "two roads": (Kind.ROAD, Kind.ROAD),
    "road + knight": (Kind.ROAD, Kind.KNIGHT),
}
FACE_COLOURS = {
    Face.LUMBER: "#2f7d32",
    Face.BRICK: "#c8643b",
    Face.WOOL: "#9ccc65",
    Face.GRAIN: "#f2c94c",
    Face.ORE: "#8e9aa6",
    Face.GOLD: "#e0b000",
}
MAX_DICE = 6


def _pct(p) -> str:
    """A probability as a percentage, its exact fraction on hover."""
    return f"<b title='exactly {p}'>{float(p):.1%}</b>"


def _button(label: str, css: str, style: str = "", width: str = "auto") -> W.Button:
    b = W.Button(description=label, tooltip=label, button_style=style, layout=W.Layout(width=width))
    b.add_class(css)
    return b


class DiceTable(SavesGames):
    """An ipywidgets table for one Dice Game: human and computer seats.

    Parameters
    ----------
    seats : sequence of {"human", "computer"}
        One per player; its length is the number of players (DG-COMP-3).
    variant : {"normal", "plus"}
    seed : int, optional
        Seed of a new game's dice.
    game : DiceGame, optional
        A game in progress instead of a new one.
    target : str
        The odds panel's first target (a key of :data:`TARGETS`).
    bot_delay : float or None
        Seconds the computer pauses before each move; ``None`` plays at once
        (synchronously, for tests and scripts).
    save_path : str

    Attributes
    ----------
    game : DiceGame
    figure : plotly.graph_objects.FigureWidget
    widget : ipywidgets.VBox
    kept : set of int
        The dice marked to keep for the next roll (a choice of the table, not of the rules).
    selected_die : int or None
        The die a swap will turn, once the faces are fixed.
    """

    def __init__(
        self,
        seats: Sequence[str] = ("human", "computer"),
        *,
        variant: Variant | str = Variant.NORMAL,
        seed: int | None = None,
        game: DiceGame | None = None,
        target: str = "road",
        bot_delay: float | None = 0.7,
        save_path: str = "dice_game.json",
    ):
        if isinstance(seats, str) or not all(isinstance(s, str) for s in seats):
            raise ValueError(f"seats is a list of 'human' and 'computer', not {seats!r}")
        seats = [s.lower() for s in seats]
        if not 1 <= len(seats) <= 4:
            raise ValueError(f"the Dice Game seats 1 to 4 players, not {len(seats)}")
        for s in seats:
            if s not in ("human", "computer"):
                raise ValueError(f"a seat is 'human' or 'computer', not {s!r}")
        if bot_delay is not None and (isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float))
                                      or not 0 <= bot_delay <= 60):
            raise ValueError(f"bot_delay is None or seconds in 0..60, not {bot_delay!r}")
        if not isinstance(save_path, str):
            raise ValueError(f"save_path must be a file name, not {save_path!r}")
        if game is None:
            game = DiceGame(len(seats), variant=variant, seed=seed)
        elif game.n != len(seats):
            raise ValueError(f"the game has {game.n} seats; {len(seats)} given")
        if target not in TARGETS:
            raise ValueError(f"unknown target {target!r}; expected one of {', '.join(TARGETS)}")
        self.game = game
        self.seats = seats
        self.bot_delay = bot_delay
        self.computers = {p: TargetPolicy() for p, s in enumerate(seats) if s == "computer"}
        self.kept: set[int] = set()
        self.selected_die: int | None = None
        self.message = ""
        self._bot_handle = None
        self._build(target, save_path)
        self.refresh()
        self._schedule_computer()

    # ------------------------------------------------------------------ construction
    def _build(self, target: str, save_path: str) -> None:
        # The complete figure, highlights included, is built before it becomes a widget
        # (a view that connects late, as in Voila, renders the widget's initial data).
        fig = dice_sheet_figure(self.game, self.shown_player, highlight=self._builds(self.legal()), height=430)
        fig.update_layout(autosize=True, width=None)  # as wide as its box: a narrow notebook shows all of it
        self.figure = FigureWidget(fig)
        self._view_alive = False
        self.figure.observe(self._on_view_message, names=["_js2py_layoutDelta", "_js2py_traceDeltas",
                                                           "_js2py_relayout", "_js2py_restyle"])
        self._idx = {t.name: i for i, t in enumerate(self.figure.data)}
        for name in ("highlight", "structures", "road-marks"):
            self.figure.data[self._idx[name]].on_click(self._on_sheet_click)

        self.status = W.HTML().add_class("dg-status")
        self.notice = W.HTML().add_class("dg-notice")
        self.dice_buttons = []
        for i in range(MAX_DICE):
            b = _button("—", f"dg-die-{i}")
            b.layout.min_width = "104px"
            b.on_click(lambda _, i=i: self.click_die(i))
            self.dice_buttons.append(b)
        b = {
            "roll": _button("Roll", "dg-roll", "primary"),
            "stop": _button("Stop rolling", "dg-stop"),
            "end": _button("End turn", "dg-end", "info"),
            "gold": _button("Trade 2 gold → 1", "dg-gold"),
            "save": _button("Save", "dg-save"),
            "load": _button("Load", "dg-load"),
        }
        self.buttons = b
        b["roll"].on_click(lambda _: self._play(Roll(keep=tuple(sorted(self.kept)))))
        b["stop"].on_click(lambda _: self._play(Stop()))
        b["end"].on_click(lambda _: self._play(EndTurn()))
        b["gold"].on_click(lambda _: self._play(TradeGold(self.gold_resource.value)))
        b["save"].on_click(lambda _: self.save())
        b["load"].on_click(lambda _: self.load())
        res = [(str(r), r) for r in Resource]
        self.gold_resource = W.Dropdown(options=res, value=Resource.ORE, layout=W.Layout(width="100px"))
        self.gold_resource.add_class("dg-gold-resource")
        self.swap_resource = W.Dropdown(options=res, value=Resource.ORE, description="any →",
                                        layout=W.Layout(width="150px"))
        self.swap_resource.add_class("dg-swap-resource")
        self.swap_box = W.HBox().add_class("dg-swaps")
        self.target = W.Dropdown(options=list(TARGETS), value=target, description="target",
                                 layout=W.Layout(width="240px"))
        self.target.add_class("dg-target")
        self.target.observe(lambda _: self._refresh_odds(), "value")
        self.sheet_of = W.Dropdown(
            options=[("the player to act", None)] + [(self.name(q), q) for q in range(self.game.n)],
            value=None, description="sheet of", layout=W.Layout(width="300px"), style={"description_width": "60px"})
        self.sheet_of.add_class("dg-sheet-of")
        self.sheet_of.observe(lambda _: self.refresh(), "value")
        self.count_swaps = W.Checkbox(value=True, description="count my knight swaps", indent=False)
        self.count_swaps.add_class("dg-odds-swaps")
        self.count_swaps.observe(lambda _: self._refresh_odds(), "value")
        self.odds_box = W.HTML().add_class("dg-odds")
        self.track_box = W.HTML().add_class("dg-track")
        self.log_box = W.HTML().add_class("dg-log")
        self.save_path = W.Text(value=save_path, description="file", layout=W.Layout(width="260px"))

        wrap = W.Layout(flex_flow="row wrap", align_items="center")  # rows wrap in a narrow notebook (issue 25 item 12)
        dice_row = W.HBox(self.dice_buttons, layout=wrap)
        turn_row = W.HBox([b["roll"], b["stop"], b["end"]], layout=W.Layout(flex_flow="row wrap"))
        trade_row = W.HBox([b["gold"], self.gold_resource, W.HTML("&nbsp;"), self.swap_box, self.swap_resource],
                           layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.target.layout.max_width = "100%"
        odds_panel = W.VBox([W.HTML("<b>Odds</b> (exact)"), self.target, self.count_swaps, self.odds_box])
        side = W.VBox([self.track_box, odds_panel, self.log_box])
        self.sheet_of.layout.max_width = "100%"
        self.save_path.layout.max_width = "100%"
        controls = W.VBox([self.status, self.notice, dice_row, turn_row, trade_row,
                           W.HBox([self.save_path, b["save"], b["load"]], layout=W.Layout(flex_flow="row wrap"))])
        left = W.VBox([self.sheet_of, figure_box(self.figure, "dg-sheet"), controls])
        self.widget = W.VBox([beside(left, side, basis="460px", panel_basis="320px", panel_max="420px")]
                             ).add_class("dg-table")

    # ------------------------------------------------------------------ state helpers
    @property
    def shown_player(self) -> int:
        """Whose sheet is drawn: the seat chosen above the sheet, else the player to act
        (the last one when the game is over)."""
        chosen = getattr(getattr(self, "sheet_of", None), "value", None)
        if chosen is not None and 0 <= chosen < self.game.n:
            return chosen
        return self.game.current if not self.game.is_over else (self.game.current - 1) % self.game.n

    def name(self, seat: int) -> str:
        """How the table names a seat: "Player 1 (you)", "Player 2 (computer)"."""
        who = "computer" if self.seats[seat] == "computer" else (
            "you" if sum(s == "human" for s in self.seats) == 1 else "human")
        return f"Player {seat + 1} ({who})"

    def actors(self) -> list[int]:
        """The seat that played each action of ``game.log`` (turns pass on DG-TURN-1)."""
        g = self.game
        seat, out = g.starting_seat, []
        for a in g.log:
            out.append(seat)
            if isinstance(a, EndTurn):
                seat = (seat + 1) % g.n
        return out

    def _human_to_act(self) -> bool:
        g = self.game
        return not g.is_over and self.seats[g.current] == "human"

    def legal(self) -> list:
        """Legal actions of the player to act, if that player is human."""
        return self.game.legal_actions() if self._human_to_act() else []

    @staticmethod
    def _builds(legal) -> list[str]:
        return [a.structure for a in legal if isinstance(a, Build)]

    # ------------------------------------------------------------------ playing
    @guarded
    def _play(self, action) -> bool:
        """Play through the engine; an illegal action shows the engine's rule and message."""
        turn = self.game.turn
        try:
            self.game.play(action)
        except CatanError as err:
            self.message = f"⚠ {html.escape(str(err))}"
            self.refresh()
            return False
        self.message = ""
        if self.game.turn != turn:
            self.kept = set()
        self.selected_die = None
        self.refresh()
        self._schedule_computer()
        return True

    @guarded
    def press(self, name: str) -> None:
        """Press a button by its key (``"roll"``, ``"stop"``, ``"end"``, ``"gold"``, ...), as a click would."""
        self.buttons[name].click()

    @guarded
    def click_die(self, i: int) -> None:
        """A click on die ``i``: toggle keeping it while rolling; pick it for a swap afterwards."""
        g = self.game
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(g.dice) or not self._human_to_act():
            return  # not a die on the table: nothing to toggle
        if g.phase is DicePhase.ROLL:
            self.kept ^= {i}
        else:
            self.selected_die = None if self.selected_die == i else i
        self.message = ""
        self.refresh()

    @guarded
    def toggle_die(self, i: int) -> None:
        """Same as clicking die ``i``."""
        self.dice_buttons[i].click()

    @guarded
    def swap(self, swap_id: str) -> bool:
        """Use a knight's swap on the selected die (any-resource swaps take the dropdown's resource)."""
        if self.selected_die is None:
            self.message = "⚠ click the die to turn first, then the swap"
            self.refresh()
            return False
        spec = self.game.sheet.swaps[self.game.sheet.swap_index[swap_id]]
        resource = self.swap_resource.value if spec.resource is None else spec.resource
        return self._play(Swap(swap_id, self.selected_die, resource))

    def _on_view_message(self, change) -> None:
        if change["new"] is not None and not self._view_alive:
            self._view_alive = True
            # The first view draws before the notebook has laid its box out: size it to its box again.
            refit(self.figure)

    @guarded
    def _on_sheet_click(self, trace, points, selector=None) -> None:
        if not points.point_inds:
            return  # plotly calls every trace's handler; only the clicked one has points
        ids = trace.customdata
        if ids is None:
            return
        self.click_structure(ids[points.point_inds[0]])

    @guarded
    def click_structure(self, structure: str) -> bool:
        """A click on the sheet: build there (an illegal build shows the rule that forbids it)."""
        if not self._human_to_act():
            return False
        return self._play(Build(structure))

    # ------------------------------------------------------------------ computer
    def _schedule_computer(self) -> None:
        g = self.game
        if g.is_over or self.seats[g.current] != "computer":
            return
        self._bot_handle = schedule(self.bot_delay, self._computer_step, self.run_computer, self._bot_handle)

    @guarded
    def _computer_step(self) -> None:
        self._bot_handle = None
        g = self.game
        if g.is_over or self.seats[g.current] != "computer":
            return
        g.play(self.computers[g.current].choose(g))
        self.kept = set()
        self.refresh()
        self._schedule_computer()

    @guarded
    def run_computer(self, limit: int = 10_000) -> None:
        """Let computer seats move until a human must act (synchronously)."""
        g = self.game
        for _ in range(limit):
            if g.is_over or self.seats[g.current] != "computer":
                break
            g.play(self.computers[g.current].choose(g))
        self.kept = set()
        self.refresh()

    # ------------------------------------------------------------------ save / load
    game_class = DiceGame

    def _loaded(self) -> None:
        self.kept = set()
        self.selected_die = None
        self.refresh()
        self._schedule_computer()

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        """Redraw everything from the engine state (the figure is updated in place)."""
        g = self.game
        legal = self.legal()
        p = self.shown_player
        dyn = dice_sheet_traces(g, p, highlight=self._builds(legal))
        with self.figure.batch_update():
            for name, props in dyn.items():
                self.figure.data[self._idx[name]].update(props, overwrite=False)
            self.figure.layout.title.text = f"{g.sheet.name}: {self.name(p)}, score {g.score(p)}"
        if not self._view_alive:
            # In-place updates travel as transient messages; until a browser view has reported
            # in, keep the synced initial data current so that a late view sees them.
            self.figure._widget_data = copy.deepcopy(self.figure._data)
        self._refresh_controls(legal)
        self._refresh_text()
        self._refresh_odds()

    def _refresh_controls(self, legal) -> None:
        g = self.game
        kinds = {type(a) for a in legal}
        human = self._human_to_act()
        shown = len(g.dice) if g.dice else (0 if g.is_over else g.n_dice)
        for i, b in enumerate(self.dice_buttons):
            if i >= shown:
                b.layout.display = "none"
                continue
            b.layout.display = None
            if i >= len(g.dice):  # not rolled yet
                b.description, b.button_style, b.disabled = f"{i + 1}: —", "", True
                b.style.button_color = None
                continue
            face = g.dice[i]
            spent = g.spent[i]
            b.style.button_color = "#dddddd" if spent else FACE_COLOURS[face]
            if spent:
                b.description, b.button_style = f"{i + 1}: {face} (used)", ""
            elif g.phase is DicePhase.ROLL and i in self.kept:
                b.description, b.button_style = f"{i + 1}: ✓ {face}", "success"
            elif g.phase is DicePhase.BUILD and i == self.selected_die:
                b.description, b.button_style = f"{i + 1}: → {face}", "warning"
            else:
                b.description, b.button_style = f"{i + 1}: {face}", ""
            b.tooltip = f"die {i + 1}: {face}" + (" (kept)" if i in self.kept and g.phase is DicePhase.ROLL else "")
            b.disabled = not human or spent
        bt = self.buttons
        bt["roll"].disabled = Roll not in kinds
        bt["roll"].description = f"Roll ({g.rolls}/{MAX_ROLLS} rolled)" if g.rolls else f"Roll {g.n_dice} dice"
        bt["stop"].disabled = Stop not in kinds
        bt["end"].disabled = EndTurn not in kinds
        bt["gold"].disabled = TradeGold not in kinds
        self.gold_resource.disabled = TradeGold not in kinds
        ready = {a.swap for a in legal if isinstance(a, Swap)}
        swaps = []
        for spec in g.available_swaps(g.current) if human else []:
            label = f"{spec.id}: die → {spec.resource or 'any'}"
            btn = _button(label, f"dg-swap-{spec.id}", "warning")
            btn.disabled = spec.id not in ready
            btn.on_click(lambda _, sid=spec.id: self.swap(sid))
            swaps.append(btn)
        self.swap_box.children = swaps
        any_swap = any(s.resource is None for s in g.available_swaps(g.current)) if human else False
        self.swap_resource.layout.display = None if any_swap else "none"

    def _refresh_text(self) -> None:
        g = self.game
        who = self.name(g.current)
        if g.is_over:
            names = " and ".join(self.name(w) for w in g.winners)
            unit = "points" if g.variant is Variant.NORMAL else "VP"
            tie = " share the win" if len(g.winners) > 1 else " wins"
            self.status.value = f"<h3>{names}{tie} with {g.score(g.winners[0])} {unit}</h3>"
        else:
            if g.phase is DicePhase.ROLL and g.rolls == 0:
                what = f"roll the {g.n_dice} dice"
            elif g.phase is DicePhase.ROLL:
                what = (f"click dice to keep, then roll again ({g.rolls_left} left) — or build now "
                        "(that ends the rolling)")
            else:
                human = self.seats[g.current] == "human"  # the computer is told nothing to click (issue 37)
                what = "build (click a ringed symbol), swap, trade gold, then end the turn" if human else "builds …"
            self.status.value = f"<b>Turn {g.turn}</b> · {who}: {what}"
        self.notice.value = (f"<span style='color:#a33'>{self.message}</span>" if self.message.startswith("⚠")
                             else self.message)
        rows = []
        for q in range(g.n):
            colour = SEAT_COLOURS[q % len(SEAT_COLOURS)]
            me = " style='font-weight:bold'" if q == g.current and not g.is_over else ""
            if g.variant is Variant.NORMAL:
                boxes = []
                for k in range(TURNS):
                    v = g.track[q][k] if k < len(g.track[q]) else ""
                    cell = "✗" if v is None else str(v)
                    boxes.append(f"<td style='border:1px solid #999;width:20px;text-align:center'>{cell}</td>")
                rows.append(f"<tr{me}><td style='color:{colour}'>■ {self.name(q)}</td>{''.join(boxes)}"
                            f"<td><b>{g.score(q)}</b></td></tr>")
            else:
                vp = g.vp(q)
                boxes = "".join(
                    f"<td style='border:1px solid #999;width:14px;background:{colour if k < vp else 'white'}'></td>"
                    for k in range(PLUS_VP_TO_WIN)
                )
                titles = ("LR " if g.longest_road_holder == q else "") + ("LA" if g.largest_army_holder == q else "")
                rows.append(f"<tr{me}><td style='color:{colour}'>■ {self.name(q)}</td>{boxes}<td><b>{vp}</b> "
                            f"{titles}</td><td>road {g.road_length(q)}, knights {g.knights(q)}</td></tr>")
        head = ("Score track (✗ = no build, −2)" if g.variant is Variant.NORMAL
                else "Victory points (10 to win; LR Longest Road, LA Largest Army)")
        self.track_box.value = (f"<b>{head}</b><table style='font-size:11px;border-collapse:collapse'>"
                                + "".join(rows) + "</table>")
        actors = self.actors()[-12:]
        lines = [f"{self.name(q)}: {self._describe(a)}" for q, a in zip(actors, g.log[-12:])]
        self.log_box.value = ("<b>Log</b> <small>(newest first)</small><br>"
                              "<div style='font-size:12px;max-height:220px;overflow-y:auto'>"
                              + "<br>".join(html.escape(x) for x in reversed(lines)) + "</div>")

    def piece_name(self, structure: str) -> str:
        """A structure of the sheet as players say it: ``"road 1"`` for R0, ``"settlement 3"`` for S3."""
        sheet = self.game.sheet
        i = sheet.index.get(structure)
        if i is None:
            return str(structure)
        s = sheet.structures[i]
        digits = "".join(ch for ch in s.id if ch.isdigit())
        if not digits:
            return str(s.kind)
        number = int(digits) + 1 if s.kind is Kind.ROAD else int(digits)  # roads are unnumbered: count from 1
        return f"{s.kind} {number}"

    def _describe(self, action) -> str:
        if isinstance(action, Roll):
            kept = f"kept dice {', '.join(str(i + 1) for i in action.keep)}, " if action.keep else ""
            return f"{kept}rolled {', '.join(str(f) for f in action.faces or ())}"
        if isinstance(action, Build):
            return f"built {self.piece_name(action.structure)}"
        if isinstance(action, Swap):
            return f"knight swap {action.swap}: die {action.die + 1} → {action.resource}"
        if isinstance(action, TradeGold):
            return f"2 gold → {action.resource}"
        if isinstance(action, EndTurn):
            return "end of turn"
        return "stopped rolling"

    def odds_now(self) -> dict:
        """The odds panel's numbers: target, the current keep's probability and the best keep."""
        g = self.game
        target = TARGETS[self.target.value]
        swaps = g.available_swaps(g.current) if self.count_swaps.value and not g.is_over else []
        out: dict = {"target": self.target.value}
        if g.is_over:
            return out
        if g.rolls == 0:
            out["fresh"] = odds.reach_probability(target, n_dice=g.n_dice, swaps=swaps)
        elif g.phase is DicePhase.ROLL:
            out["current"] = odds.keep_probability(target, g.dice, sorted(self.kept), g.rolls_left, swaps=swaps)
            out["best"] = odds.best_keep(target, g.dice, g.rolls_left, swaps=swaps)
        else:
            hand = [g.dice[d] for d in g.unspent()]
            out["now"] = odds.reach_probability(target, hand, rolls_left=0, swaps=swaps) if hand else 0
        return out

    @guarded
    def _refresh_odds(self) -> None:
        g = self.game
        o = self.odds_now()
        if g.is_over:
            self.odds_box.value = "the game is over"
            return
        if "fresh" in o:
            text = f"P({o['target']} this turn, best keeps) = {_pct(o['fresh'])}"
        elif "best" in o:
            best = o["best"]
            keep = "stop now" if best.stop else ("reroll all" if not best.keep else
                                                 "keep dice " + ", ".join(str(i + 1) for i in best.keep))
            mine = "stop now" if len(self.kept) == len(g.dice) else (
                "reroll all" if not self.kept else "keep dice " + ", ".join(str(i + 1) for i in sorted(self.kept)))
            text = (f"your choice ({mine}): {_pct(o['current'])}<br>"
                    f"best ({keep}): {_pct(best.probability)}"
                    f"<br><small>{g.rolls_left} roll(s) left; hover a percentage for the exact fraction</small>")
        else:
            text = ("the faces are fixed: " + ("<b>paid for</b> (with trades/swaps as counted)" if o["now"] == 1
                                                else "<b>not reachable</b> with the unspent dice"))
        if g.variant is Variant.NORMAL and g.phase is DicePhase.BUILD and not g.turn_built:
            text += f"<br><small>no build yet this turn: ending now scores {NO_BUILD_PENALTY}</small>"
        self.odds_box.value = text

    # ------------------------------------------------------------------ display
    def _ipython_display_(self) -> None:  # pragma: no cover - notebook only
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        return f"<DiceTable {self.seats}: {self.game!r}>"


def load_dice_table(path: str | Path, seats: Sequence[str], **kw) -> DiceTable:
    """A table for a saved dice game."""
    return DiceTable(seats, game=DiceGame.load(path), **kw)

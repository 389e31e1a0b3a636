"""A human seat at the game table, played only through the table's own click and button handlers.

:class:`HumanDriver` picks one of the legal actions of the human seat to act (at random, but
preferring the kinds of move and the decisions it has not reached yet, and building as a player
does, see :meth:`HumanDriver.choose`) and performs it as a person would: a button, a board click
(then the victim or the "Which one?" choice), a module panel's button or a layer's marker, the
discard steppers, the "More actions" list.  It never calls ``game.play``.  Each step checks that
the table showed no error the click did not cause by being illegal (every action the driver takes
is legal).

:func:`widget_strings` walks a widget tree (children, HTML values, button labels and tooltips,
dropdown options, text fields, and the board figure's trace text, hover text and custom data) for
the hidden-information tests.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections import Counter
from dataclasses import fields, replace

import ipywidgets as W
import plotly.graph_objects as go

from catan_nb import Resource
from catan_nb.analysis.bot_features.cities_knights import CitiesKnightsFeatures
from catan_nb.analysis.value_bot import DEFAULT_WEIGHTS, ValueBot
from catan_nb.constants import COSTS, pips
from catan_nb.rules import (
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
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    Phase,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)

BUTTONS = {RollDice: "roll", EndTurn: "end", BuyDevelopmentCard: "buy", PlayKnight: "knight",
           PlayRoadBuilding: "road_building", EndRoadBuilding: "end_road_building", AcceptTrade: "accept",
           DeclineTrade: "decline", CancelTrade: "cancel"}

#: The base game's own decisions (the engine's, not a rule module's): its action types and the phases it
#: owns in which somebody acts.  Every rule module of a game adds its own (:func:`decisions`).
BASE_ACTIONS = (BuildSettlement, BuildRoad, BuildCity, RollDice, EndTurn)

#: How much the human's policy likes a kind of move, before the bonus for kinds it has rarely made
#: (:meth:`HumanDriver.choose`): building first, the modules' moves, trades now and then, the turn's end last.
KIND_WEIGHT = {"EndTurn": 1.0, "RollDice": 1.0, "MaritimeTrade": 0.6, "BuildRoad": 2.0, "BuildShip": 2.0,
               "BuildSettlement": 8.0, "BuildCity": 8.0}
#: Kinds of move that build or buy something: the policy makes one when it can (``build_rate``).
BUILDS = frozenset({"BuildSettlement", "BuildCity", "BuildShip", "BuyDevelopmentCard", "ImproveCity", "HireKnight",
                    "PromoteKnight", "BuildWall"})
#: Kinds of move the policy prefers while a decision they lead to was never reached, by the decisions (or
#: the owners of decisions) they serve: development cards to play, improvements for progress cards and
#: metropolises (CK-IMP-*), knights to displace, chase, lose or promote, ships to reach small islands (SF-15).
MEANS = {
    "BuyDevelopmentCard": ("PlayKnight", "PlayMonopoly", "PlayYearOfPlenty", "PlayRoadBuilding", "EndRoadBuilding",
                           "phase:road_building", "UsePriest"),
    "ImproveCity": ("cities_knights",),
    "BuildCity": ("ChooseMetropolis", "phase:metropolis", "TakeAqueduct", "phase:aqueduct"),
    "HireKnight": ("RetreatKnight", "RemoveKnight", "phase:deserter", "phase:knight_retreat"),
    "PromoteKnight": ("DisplaceKnight",),
    "BuildShip": ("MoveNumberToken", "phase:move_token"),
}
#: Builds the policy makes first whenever the table offers them (:meth:`HumanDriver._progress`), in this order.
PROGRESS = ("BuildCity", "BuildSettlement", "ImproveCity", "BuyDevelopmentCard")
#: What a development card costs (B-BUILD-1), for the bank trades towards one (games with development cards).
DEV_COST = tuple(COSTS["development_card"])
#: Kinds of move the look-ahead does not try (they lead nowhere new, or only by chance).
ROUTINE = frozenset({"RollDice", "EndTurn", "MaritimeTrade", "Discard", "BuildRoad", "OfferCanal"})
#: The adviser's weights (:class:`ValueBot`): city improvements count three times as much (CK-IMP-*: the
#: progress cards, the aqueduct and the metropolises come with them), the knights' strength less.
ADVISER_WEIGHTS = {**DEFAULT_WEIGHTS, "improvements": 3 * CitiesKnightsFeatures.weights["improvements"],
                   "knights": CitiesKnightsFeatures.weights["knights"] / 2}
#: The moves that play a progress card named in their ``card`` field (CK-PC-*; the others are named after theirs).
PROGRESS_PLAYS = ("PlayProgress", "PlayProgressGood", "PlayProgressNode")
#: The decision of discarding a commodity on a 7 (CK-COM-1, B-ROB-2), counted apart from the other discards.
COMMODITY_DISCARD = "Discard:commodity"
#: Weight of any other kind (a module's move, a development card, an answer).
OTHER_WEIGHT = 3.0
#: Moves within one turn after which ending it becomes the likely choice (no endless turns of bank trades).
LONG_TURN = 12


def decisions(game) -> dict[str, str]:
    """Every decision a human seat may face in ``game``, by name, with the part of the rules that owns it.

    The base game's actions and phases (:data:`BASE_ACTIONS`, the phases registered by ``"base"``),
    then, for each rule module of the game (the built-in robber, trade and development modules
    included), every action type of ``Module.actions`` and every phase the module registered in
    which somebody acts (not a step).  An action type is named as its class (``"MoveShip"``), a
    phase as ``"phase:<value>"`` (``"phase:gold_pick"``): a phase is reached when the human acts in
    it, whatever it does there (the victim's side of a progress card, a discard, a gold pick).
    """
    out = {cls.__name__: "base" for cls in BASE_ACTIONS}
    owners = ["base"] + [m.name for m in game.modules]
    for m in game.modules:
        for cls in m.actions:
            out.setdefault(cls.__name__, m.name)
    for ph in Phase:
        if ph.owner in owners and ph.step is None and ph is not Phase.GAME_OVER:
            out[f"phase:{ph.value}"] = ph.owner
    return out


def decision_names(game, action) -> tuple[str, str]:
    """The two decisions a human's move reaches: its action type and the phase it was made in."""
    return type(action).__name__, f"phase:{game.phase.value}"


def variant(action) -> str:
    """A move's kind, with the card or helper it uses when it names one (``"PlayProgress:wedding"``,
    ``"ExchangeHelper:HelperCard.PRIEST"``): the policy tries each card once."""
    name = type(action).__name__
    for attr in ("card", "take"):
        v = getattr(action, attr, None)
        if isinstance(v, (str, enum.Enum)):
            return f"{name}:{v}"
    return name


def canal_roads_needed(game, player: int, extra: int | None = None) -> int:
    """How many more roads ``player`` needs (``extra``, a path, counted as built) to link two canal localities
    through no other locality (ERIE-2): a 0-1 search over land paths, the player's roads free, other
    players' roads and buildings in the way (a large number when no link is possible)."""
    from catan_nb.rules.modules.corsica_new_york import localities, scenario_data

    t = game.topology
    canal = set(scenario_data(game.board).canal)
    places = localities(game)
    land = {e for tile in game.board.hexes if tile.is_land for e in t.hex_edges[tile.id]}
    best = 10**6
    for c in canal:
        dist = {c: 0}
        todo = [(0, c)]
        while todo:
            d, v = todo.pop(0)
            if d > dist.get(v, 10**6):
                continue
            if v != c and (v in canal or v in places or game.node_owner[v] not in (-1, player)):
                if v in canal:
                    best = min(best, d)
                continue  # never through another locality, nor past another player's building
            for e in t.node_edges[v]:
                owner = game.edge_owner[e]
                if owner not in (-1, player) or e not in land:
                    continue
                step = 0 if owner == player or e == extra else 1
                for w in t.edge_nodes[e]:
                    if w != v and d + step < dist.get(w, 10**6):
                        dist[w] = d + step
                        (todo.insert(0, (d, w)) if step == 0 else todo.append((d + 1, w)))
    return best


class Unreachable(AssertionError):
    """A legal action of the human seat that no control of the table can play."""


class HumanDriver:
    """Plays the human seats of ``table`` through its handlers (see the module docstring).

    The policy picks among what the table offers (its legal moves, and the offers its trade and
    canal panels can make), at random but weighted (:meth:`choose`): with the Erie Canal while its
    tokens were never used, a founding settlement on a canal locality and the roads towards a canal
    link (:func:`canal_roads_needed`), a token kept for the next trade phase to be offered; then a
    kind of move it never made; then a move that brings the human into a phase it never acted in
    (looked ahead on a copy of the game); then, with probability ``progress_rate`` each, what a player
    does to get on (:meth:`_progress`): a city, a settlement, a city improvement, a development card
    when the table offers one, else a bank trade that turns a surplus into a card the next build lacks;
    a step towards a decision never reached (:data:`MEANS`);
    then, with probability ``advice``, the move a value bot would make for its seat
    (so that it builds, improves and leads as a player does), else a kind of move weighted by
    :data:`KIND_WEIGHT` and by how rarely it was made.  Within a kind, the move is the best by
    :meth:`_score` (with probability ``progress_rate``): a site by the dots around it, a road towards a free
    site, the robber where it hurts the leaders and not the human.  These two read only what the human's
    widgets show (the board, its own hand and rates, public counts, the moves offered).  An offer to the
    other players comes with probability ``offer_rate`` while trading is open.

    ``coverage`` counts the decisions reached (:func:`decision_names`) and, for the novelty of
    cards and helpers, the moves by card (``"PlayProgress:wedding"``); pass one counter to the
    drivers of several games to share it.  ``need`` (default: every decision of the game) is what
    the look-ahead aims at.
    """

    def __init__(self, table, seed: int = 0, offer_rate: float = 0.05, coverage: Counter | None = None,
                 advice: float = 0.0, need=None, build_rate: float = 0.5, progress_rate: float = 0.9):
        self.t = table
        self.build_rate = build_rate
        self.progress_rate = progress_rate
        self.rng = random.Random(seed)
        self.advice = advice
        self.adviser = ValueBot(seed=seed + 1, weights=ADVISER_WEIGHTS) if advice else None
        self.offer_rate = offer_rate
        self.done: dict[str, int] = {}  # action kinds played, by name
        self.unreachable: set[str] = set()
        #: Decisions reached (action types and phases, :func:`decision_names`), over every game sharing it.
        self.coverage = Counter() if coverage is None else coverage
        owners = decisions(table.game)
        #: The decisions the policy aims at, with their owners (default: every decision of the game).
        self.need = {d: owners.get(d, "base") for d in (owners if need is None else need)}
        self.decisions = 0  # decisions made by this driver
        self._turn = (None, 0)  # (game turn, moves made in it)

    # ------------------------------------------------------------------ one decision
    def options(self) -> list:
        """What the table lets the human do now: its legal moves, and while trading is open the canal-token
        offers of the canal panel (ERIE-5; domestic offers go through :meth:`_offer`)."""
        t = self.t
        legal = t.legal()
        g = t.game
        if legal and g.can_trade() and "canal_offer" in t.buttons and not t.buttons["canal_offer"].disabled:
            legal = legal + [a for a in g.legal_actions(offers=True) if type(a).__name__ == "OfferCanal"]
        return legal

    def step(self) -> bool:
        """One human decision through the table (False when no human is to act)."""
        t = self.t
        legal = self.options()
        if not legal:
            return False
        g = t.game
        turn, moves = self._turn
        self._turn = (g.turn, moves + 1 if turn == g.turn else 1)
        self.decisions += 1
        rate = self.offer_rate
        if rate and any(d in self.missing() for d in ("OfferTrade", "ConfirmTrade", "CancelTrade", "phase:trade_confirm")):
            rate = max(rate, 0.3)
        if (g.phase is Phase.MAIN and g.can_trade() and self.rng.random() < rate
                and any(g.hands[g.current_player])):
            self.coverage.update(("OfferTrade", f"phase:{g.phase.value}"))
            self._offer()
            return True
        action = self.choose(legal)
        self.coverage.update(decision_names(g, action))
        key = variant(action)
        if key != type(action).__name__:
            self.coverage[key] += 1
        if isinstance(action, OfferTrade):  # the adviser's offer
            self._offer(action)
            return True
        before = g.state()
        self.perform(action)
        self.check_no_error(action)
        name = type(action).__name__
        self.done[name] = self.done.get(name, 0) + 1
        if t.game.state() == before and not t.pending_choices and t.pending_hex is None:
            raise AssertionError(f"the table did nothing for {action!r}")
        return True

    def choose(self, legal: list):
        """A move among ``legal`` (see the class docstring for the order of preferences)."""
        rng = self.rng
        kinds: dict[str, list] = {}
        for a in legal:
            kinds.setdefault(type(a).__name__, []).append(a)
        if ("PlayCanal" in kinds and len(kinds) > 1 and not self.coverage["OfferCanal"]
                and not self.t.game.can_trade()):
            del kinds["PlayCanal"]  # a token kept for the next trade phase, to be offered (ERIE-5)
        names = sorted(kinds)
        road = self._toward_canal(kinds.get("BuildRoad", ()), kinds.get("BuildSettlement", ()))
        if road is not None and rng.random() < 0.9:  # a road towards a canal link (ERIE-2), for its token
            return road
        new = [n for n in names if not self.coverage[n]]
        if "OfferCanal" in new and "PlayCanal" in new:  # a token offered first: declined, it is still there to play
            new.remove("PlayCanal")
        if new and rng.random() < 0.9:  # a kind of move never made: make it
            return self._variant(kinds[rng.choice(new)])
        ahead = self._ahead(legal)
        if ahead is not None:
            return ahead
        progress = self._progress(kinds)
        if progress is not None:
            return progress
        missing = self.missing()
        means = [n for n in names if n in MEANS and any(d in MEANS[n] or o in MEANS[n] for d, o in missing.items())]
        if means and rng.random() < 0.8:  # a step towards a decision never reached (a card to play, a metropolis)
            return self._variant(kinds[rng.choice(means)])
        if self.adviser is not None and len(legal) > 1 and rng.random() < self.advice:
            return self.adviser.choose(self.t.game)
        builds = [n for n in names if n in BUILDS]
        if builds and rng.random() < self.build_rate:  # what it can afford, rather than ending the turn
            return self._variant(kinds[rng.choice(builds)])
        weights = []
        for name in names:
            w = KIND_WEIGHT.get(name, OTHER_WEIGHT)
            k = self.coverage[name]
            w *= 8.0 if k == 0 else 1 + 4 / (1 + k)
            if name == "EndTurn" and self._turn[1] >= LONG_TURN:
                w *= 50.0
            weights.append(w)
        return self._variant(kinds[rng.choices(names, weights)[0]])

    def _variant(self, moves: list):
        """One of ``moves`` (all of one kind): a card or helper never used first (:func:`variant`), else any;
        a card to give back (CK-PROG-2) is one already played most, so the others stay to be played."""
        if type(moves[0]).__name__ == "ReturnProgress":
            def played(a):
                camel = "".join(w.title() for w in a.card.split("_"))
                return self.coverage[f"Play{camel}"] + sum(self.coverage[f"{k}:{a.card}"] for k in PROGRESS_PLAYS)
            top = max(map(played, moves))
            return self.rng.choice([a for a in moves if played(a) == top])
        fresh = [a for a in moves if variant(a) != type(a).__name__ and not self.coverage[variant(a)]]
        if fresh:
            return self.rng.choice(fresh)
        return self._best(moves)

    # ------------------------------------------------------------------ playing sensibly
    # What follows reads only what the human's widgets show: the board (terrains, numbers, pieces, the
    # robber), its own hand and rates, the public counts (cards held, visible VP) and the moves offered.
    def _progress(self, kinds: dict):
        """A move that brings the human on, as a player makes it, or ``None``: a city, then a settlement
        (B-BUILD-*), then a city improvement (CK-IMP-*), then a development card, when the table offers
        one; else a bank trade that turns a surplus into a card missing for the next build (B-TRADE-6..9,
        :meth:`_trade_toward`)."""
        rng = self.rng
        for name in PROGRESS:
            if name in kinds and rng.random() < self.progress_rate:
                return self._best(kinds[name])
        trades = kinds.get("MaritimeTrade")
        if trades and rng.random() < self.progress_rate:
            return self._trade_toward(trades)
        return None

    def _target(self) -> tuple[int, ...] | None:
        """The cost of the next thing the human builds (counts per good): a city while it has a settlement
        to upgrade, else a settlement while a site is on its roads, else a development card where the game
        has them, else a road; ``None`` when none is left to build."""
        g = self.t.game
        p = g.current_player
        left = g.pieces_left(p)
        wants = []
        if left.get("city", 0) > 0 and any(g.node_owner[v] == p and g.node_kind[v] == g.kind_id["settlement"]
                                            for v in range(len(g.node_owner))):
            wants.append(g.cost("city"))
        if left.get("settlement", 0) > 0 and g.candidates(p, "settlement"):
            wants.append(g.cost("settlement"))
        if getattr(g, "deck_size", 0) and g.n_goods == len(DEV_COST):
            wants.append(DEV_COST)
        if left.get("road", 0) > 0:
            wants.append(g.cost("road"))
        hand = g.hands[p]
        for cost in wants:
            if any(h < c for h, c in zip(hand, cost)):
                return tuple(cost)
        return None

    def _trade_toward(self, trades: list):
        """A bank trade giving a good held beyond the next build's needs (:meth:`_target`) for one that
        build lacks, or ``None``."""
        g = self.t.game
        cost = self._target()
        if cost is None:
            return None
        hand = g.hands[g.current_player]
        rates = g.rates(g.current_player)
        good = []
        for a in trades:
            give, get = g.good_index(a.give), g.good_index(a.get)
            if not isinstance(g.goods[give], Resource):
                continue  # commodities are kept for the city improvements (CK-IMP-*)
            if hand[give] - rates[give] >= cost[give] and hand[get] < cost[get]:
                good.append((rates[give], a))
        if not good:
            return None
        best = min(k for k, _ in good)  # the cheapest rate first (a harbour's)
        return self.rng.choice([a for k, a in good if k == best])

    def _best(self, moves: list):
        """The best of ``moves`` (one kind) by :meth:`_score`, ties and now and then any at random."""
        if len(moves) == 1 or self.rng.random() >= self.progress_rate:
            return self.rng.choice(moves)
        scores = [self._score(a) for a in moves]
        top = max(scores)
        return self.rng.choice([a for a, k in zip(moves, scores) if k == top])

    def _score(self, a) -> float:
        """How good a move looks from the human's seat: a settlement or a city by the dots of the numbers
        around it (new goods count more), a road or a ship by the free sites it reaches, the robber on the
        hex that costs the others the most and none of the human's own, robbing the leader."""
        g = self.t.game
        t = g.topology
        p = g.current_player
        name = type(a).__name__
        if name in ("BuildSettlement", "BuildCity", "UsePriest"):
            node = a.node
            owned = {g.hex_terrain[h] for v, o in enumerate(g.node_owner) if o == p for h in t.node_hexes[v]}
            score = 0.0
            for h in t.node_hexes[node]:
                k = pips(g.hex_token[h])
                score += k * (1.5 if g.hex_terrain[h] not in owned else 1.0)
            return score
        if name in ("BuildRoad", "BuildShip"):
            free = set(g.candidates(p, "settlement", founding=True))
            best = 0.0
            for v in t.edge_nodes[a.path]:
                if v in free:
                    best = max(best, 2.0)
                elif any(w in free for e in t.node_edges[v] for w in t.edge_nodes[e]):
                    best = max(best, 1.0)
            return best
        if name in ("MoveRobber", "MovePirate"):
            hx = a.hex
            players = set(g.hex_players(hx)) if 0 <= hx < len(g.hex_token) else set()
            if p in players:
                return -10.0
            lead = {q: g.vp(q, visible=True) for q in range(g.n)}
            score = pips(g.hex_token[hx]) * sum(1 + lead[q] / 4 for q in players)
            victim = getattr(a, "victim", None)
            if victim is not None:
                score += 0.5 * lead[victim] + (0.2 if any(g.hands[victim]) else 0.0)
            return score
        return 0.0

    def _toward_canal(self, roads, settlements=()):
        """With the Erie Canal, while its decisions were never reached: a founding settlement on a canal
        locality, or a road among ``roads`` that shortens the human's way to linking two canal localities
        (ERIE-2: a token), if any."""
        g = self.t.game
        if "erie_canal" not in g.ext or not any(k in self.missing() for k in ("PlayCanal", "OfferCanal")):
            return None
        if settlements and g.phase is Phase.FOUNDING_SETTLEMENT:
            from catan_nb.rules.modules.corsica_new_york import scenario_data

            canal = scenario_data(g.board).canal
            on = [a for a in settlements if a.node in canal]
            return self.rng.choice(on) if on else None
        if not roads:
            return None
        now = canal_roads_needed(g, g.current_player)
        scored = [(canal_roads_needed(g, g.current_player, a.path), a) for a in roads]
        best = min(k for k, _ in scored)
        if best >= now:
            return None
        return self.rng.choice([a for k, a in scored if k == best])

    def missing(self) -> dict[str, str]:
        """The decisions aimed at and not reached yet, with their owners."""
        return {d: o for d, o in self.need.items() if not self.coverage[d]}

    def _ahead(self, legal: list, tries: int = 8):
        """A move after which the human acts in a phase it never acted in (a diplomat's road to place again,
        a metropolis to choose...), tried on copies of the game, or ``None``."""
        missing = {d[len("phase:"):] for d in self.missing() if d.startswith("phase:")}
        if not missing:
            return None
        g = self.t.game
        me = g.current_player
        by_kind: dict[str, list] = {}
        for a in legal:
            if type(a).__name__ not in ROUTINE:
                by_kind.setdefault(type(a).__name__, []).append(a)
        for moves in by_kind.values():
            self.rng.shuffle(moves)
        pool = [m for row in itertools.zip_longest(*by_kind.values()) for m in row if m is not None][:tries]
        for a in pool:  # a few moves of each kind
            c = g.copy()
            try:
                c.play(a)
            except Exception:  # noqa: BLE001 - a move the copy refuses is no lead
                continue
            if not c.is_over and c.current_player == me and c.phase.value in missing:
                return a
        return None

    def check_no_error(self, action) -> None:
        msg = self.t.message
        assert not msg.startswith("⚠"), f"the table showed an error for a legal move {action!r}: {msg}"

    def _set(self, steppers, counts) -> None:
        """Set a row of steppers as a person does: with their − and + buttons (disabled ones cannot be pressed)."""
        for s, k in zip(steppers, counts):
            while s.value != k:
                b = s.plus if s.value < k else s.minus
                if b.disabled:
                    raise Unreachable(f"the stepper {s.name} cannot reach {k} (at {s.value}, capped at {s.maximum})")
                b.click()

    def _offer(self, offer: OfferTrade | None = None) -> None:
        """An offer through the steppers (``offer``, else one card or two of one kind for one card); then the
        bots answer, and the human confirms with a partner, or withdraws."""
        t = self.t
        g = t.game
        if offer is None:
            hand = g.hands[g.current_player]
            give = self.rng.choice([i for i, k in enumerate(hand) if k])
            get = self.rng.choice([i for i in range(g.n_goods) if i != give])
            gives = [0] * g.n_goods
            gives[give] = min(hand[give], self.rng.choice((1, 2)))
            offer = OfferTrade(tuple(gives), tuple(int(i == get) for i in range(g.n_goods)))
        self._set(t.offer_give, offer.give)
        self._set(t.offer_get, offer.get)
        t.press("offer")
        self.check_no_error("offer")
        assert all(s.value == 0 for s in t.offer_give + t.offer_get), "the offer steppers keep the last offer"
        self.done["OfferTrade"] = self.done.get("OfferTrade", 0) + 1

    # ------------------------------------------------------------------ how a person plays a move
    def perform(self, a) -> None:
        t = self.t
        g = t.game
        if a in t.special_actions():  # the "More actions" list
            self._pick(t.special, a)
            t.press("special")
            return
        kind = type(a)
        if kind in BUTTONS:
            t.press(BUTTONS[kind])
            return
        if isinstance(a, PlayMonopoly):
            self._pick(t.mono_res, a.resource)
            t.press("monopoly")
            return
        if isinstance(a, PlayYearOfPlenty):
            self._pick(t.yop_a, a.first)
            self._pick(t.yop_b, a.second)
            t.press("year_of_plenty")
            return
        if isinstance(a, MaritimeTrade):
            self._pick(t.give_res, a.give)
            self._pick(t.get_res, a.get)
            t.press("maritime")
            return
        if isinstance(a, ConfirmTrade):
            self._click_css(t.partner_box, f"catan-confirm-{a.partner}")
            return
        if isinstance(a, Discard):
            self._discard()
            return
        if isinstance(a, MoveRobber):
            t.click_hex(a.hex)
            if t.pending_hex is not None:
                if a.victim is None:
                    t.press("no_steal")
                else:
                    self._click_css(t.victim_box, f"catan-steal-{a.victim}")
            elif a in t.pending_choices:
                self._choose(a)
            return
        if self._panel(a):
            return
        if not isinstance(a, (BuildSettlement, BuildCity, BuildRoad)) and self._layer(a):
            return
        before = g.state()
        for attr, click in (("node", t.click_node), ("path", t.click_path), ("from_path", t.click_path),
                            ("hex", t.click_hex)):
            site = getattr(a, attr, None)
            if isinstance(site, int):
                click(site)
                self._choose(a)
                if t.game.state() != before:
                    return
        raise Unreachable(f"no control of the table plays {a!r}")

    def _choose(self, a) -> None:
        """Pick ``a`` among the moves a click stood for, if the click asked: its "Which one?" button, or the
        board's ring for it (a ship's destination)."""
        t = self.t
        if a not in t.pending_choices:
            return
        for b in t.choice_buttons.children:
            if getattr(b, "_catan_action", None) == a:
                b.click()
                return
        assert t.choice_hint(), f"a pending choice with neither buttons nor rings on the board: {t.pending_choices}"
        if not self._layer(a):
            raise Unreachable(f"no ring on the board picks {a!r} among {t.pending_choices}")

    @staticmethod
    def _pick(dropdown, value) -> None:
        """Choose ``value`` in a dropdown, as a person can: among its options, while it is enabled."""
        if dropdown.disabled or value not in [v for _, v in dropdown.options]:
            raise Unreachable(f"{value!r} is not among the options of {dropdown.description or dropdown._dom_classes}")
        dropdown.value = value

    def _click_css(self, box, css: str) -> None:
        for b in box.children:
            if css in b._dom_classes:
                b.click()
                return
        raise Unreachable(f"no button {css} among {[b.description for b in box.children]}")

    def _discard(self) -> None:
        """B-ROB-2 through the panel: the steppers, at random among the cards held, then Discard."""
        t = self.t
        g = t.game
        p = g.current_player
        owed = g.discards_owed()[p]
        cards = [i for i, k in enumerate(g.hands[p]) for _ in range(k)]
        chosen = self.rng.sample(cards, owed)
        kept = [i for i in range(g.n_goods) if not isinstance(g.goods[i], Resource) and g.hands[p][i]]
        if kept and not self.coverage[COMMODITY_DISCARD] and not any(i in kept for i in chosen):
            chosen[0] = kept[0]  # a commodity among the cards given up (CK-COM-1: they count in the hand)
        if any(not isinstance(g.goods[i], Resource) for i in chosen):
            self.coverage[COMMODITY_DISCARD] += 1
        for i, s in enumerate(t.discard_counts):
            assert s.maximum == g.hands[p][i], "a discard stepper is capped at what the hand holds"
        self._set(t.discard_counts, [chosen.count(i) for i in range(g.n_goods)])
        t.press("discard")

    def _panel(self, a) -> bool:
        """A module panel's own control for ``a`` (an improvement, a gold pick, a canal offer...)."""
        t = self.t
        for p in t.panels:
            if not isinstance(a, tuple(getattr(p, "handles", ()))):
                continue
            name = type(a).__name__
            if name == "ImproveCity":
                t.press(f"improve_{a.track}")
                return True
            if name == "PickGold":
                p.buttons[a.resource].click()
                return True
            if name == "EndSpecialBuild":
                t.press("end_sbp")
                return True
            if name == "AnswerCanal":
                t.press("canal_accept" if a.accept else "canal_decline")
                return True
            if name == "OfferCanal":
                cards = [i for i, k in enumerate(a.cards) if k]
                if abs(a.tokens) != 1 or len(cards) != 1 or a.cards[cards[0]] != 1:
                    raise Unreachable(f"the canal panel offers one token for one card, not {a!r}")
                self._pick(p.partner, a.partner)
                self._pick(p.direction, a.tokens)
                self._pick(p.card, cards[0])
                t.press("canal_offer")
                return True
        return False

    def _layer(self, a) -> bool:
        """A module layer's marker whose click stands for ``a`` (clicked, then the choice if it asks)."""
        t = self.t
        legal = t.board_moves()  # while a choice is pending, the board's clicks pick among its moves
        for exact in (True, False):  # a marker that is the move itself before one where it starts
            for layer in t.layers:
                for name in layer.clickable:
                    trace = t.figure.data[t._idx[name]]
                    for i in range(len(trace.x or ())):
                        res = layer.click(t.game, name, i, legal)
                        if res == a if exact else (isinstance(res, (list, tuple)) and a in res):
                            t.click_layer(layer, name, i)
                            if not exact:
                                self._choose(a)
                            return True
        return False

    # ------------------------------------------------------------------ a game
    def play(self, human_steps: int, *, until=None) -> int:
        """Up to ``human_steps`` human decisions (the bots move by themselves in between); returns how many."""
        t = self.t
        n = 0
        while n < human_steps and not t.game.is_over:
            if until is not None and until(t):
                break
            if not self.step():
                t.run_bots()
                self.check_no_error("the bots' moves")
                if not t.legal() and not t.game.is_over:
                    raise AssertionError(f"the game stalls in {t.game.phase.value} (seat {t.game.current_player})")
                continue
            n += 1
        return n


# ---------------------------------------------------------------------- what a widget shows
def widget_strings(w, out: list[str] | None = None, seen: set | None = None) -> list[str]:
    """Every string a widget tree shows or carries for the browser (see the module docstring)."""
    out = [] if out is None else out
    seen = set() if seen is None else seen
    if id(w) in seen:
        return out
    seen.add(id(w))
    if isinstance(w, go.FigureWidget):
        for tr in w.data:
            out.append(f"trace {tr.name}")
            for attr in ("text", "hovertext", "customdata", "hovertemplate"):
                v = getattr(tr, attr, None)
                if v is None:
                    continue
                out.extend(map(str, v) if isinstance(v, (list, tuple)) or hasattr(v, "tolist") else [str(v)])
        return out
    for attr in ("value", "description", "tooltip", "placeholder"):
        v = getattr(w, attr, None)
        if isinstance(v, str) and v:
            out.append(v)
    if isinstance(w, (W.Dropdown, W.Select, W.SelectMultiple, W.RadioButtons, W.ToggleButtons)):
        out.extend(str(label) for label in w._options_labels)
    if isinstance(w, W.Tab):
        out.extend(str(x) for x in (w.titles or ()))
    for c in getattr(w, "children", ()) or ():
        widget_strings(c, out, seen)
    return out


def shown(widget) -> str:
    """What a widget shows, as one string (hidden widgets included: the browser has them too)."""
    return "\n".join(widget_strings(widget))


#: Fields of logged actions whose value only some seats may know, by action name (B-SETUP-7, A-15):
#: a card drawn, stolen, seen, discarded or passed between two players.
HIDDEN_FIELDS = {
    "BuyDevelopmentCard": ("card",), "MoveRobber": ("stolen",), "MovePirate": ("stolen",), "Discard": ("cards",),
    "UseProfessors": ("card",), "ExchangeFavour": ("drawn",), "ReturnFavour": ("guild",),
    "ReturnProgress": ("card",), "SpyTake": ("card",), "TakeGoods": ("cards",), "GiveGoods": ("cards",),
    "HarborOffer": ("resource",), "HarborReply": ("commodity",), "PlayBishop": ("stolen",), "KeepCard": ("card",),
    "UseArchitect": ("seen",), "NoblewomanTake": ("resource",),
}


def perturbed(game, action, rng: random.Random):
    """``action`` with every hidden field (:data:`HIDDEN_FIELDS`) replaced by another value of the same shape."""
    names = HIDDEN_FIELDS.get(type(action).__name__, ())
    changes = {}
    for f in fields(action):
        if f.name not in names:
            continue
        v = getattr(action, f.name)
        if v is None or v == ():  # nothing hidden (a Bishop who took nothing)
            continue
        if isinstance(v, tuple) and all(isinstance(x, int) for x in v):  # counts per good: the same number, moved
            k = sum(v)
            out = [0] * len(v)
            out[(max(range(len(v)), key=lambda i: v[i]) + 1) % len(v)] = k
            changes[f.name] = tuple(out)
        elif isinstance(v, tuple):  # goods taken one by one, cards seen
            changes[f.name] = tuple(_other(game, x) for x in v)
        else:
            changes[f.name] = _other(game, v)
    return replace(action, **changes) if changes else None


def _other(game, v):
    """Another value of the same kind: a progress card by name, a good of the game, an enum member."""
    if isinstance(v, str):
        return "alchemist" if v != "alchemist" else "bishop"
    if v in game.goods:
        return game.goods[(game.goods.index(v) + 1) % game.n_goods]
    members = list(type(v))
    return members[(members.index(v) + 1) % len(members)]

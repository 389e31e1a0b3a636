"""A search bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

:class:`SearchBot` decides its own turns by search and everything else (the robber, discards,
trade answers) like :class:`~catan_nb.analysis.value_bot.ValueBot`; so too a move a rule module
leaves to the value bot, when it is that bot's best (a helper's use:
:attr:`~catan_nb.analysis.bot_features.ModuleFeatures.value_moves`).  Its founding placements are
the value bot's with the weights the game's modules give the founding, if any (five or six players:
:attr:`~catan_nb.analysis.bot_features.ModuleFeatures.founding_weights`).  Each iteration of the
search

1. deals a **determinisation**: a copy of the game in which everything the bot cannot see
   (opponents' cards, the deck, future dice) is drawn again (:meth:`Game.determinized`), so the
   search never reads a hidden card;
2. walks down a tree of the bot's **own** decisions of this turn (an action sequence: trade, build,
   buy, end), choosing among the actions legal in this determinisation by UCB1 with availability
   counts (Cowling, Powley & Whitehouse 2012), and adds one new node;
3. plays the rest of the bot's turn with the value bot's greedy choices and stops when the bot
   ends its turn (``horizon="turn"``, the default: with 5-6 players the others' Special Building
   Phase that follows is not played), or goes on with a fast rollout policy (builds first, the
   best spot, the robber on the leader) until every other seat has had a turn (``"round"``);
4. scores the position with :func:`~catan_nb.analysis.value_bot.position_value`: the bot's lead
   over the best opponent, in victory points (``scale``); a finished game scores +10 or -10.

The root action visited most is played (the search stops as soon as no other could catch up with
the iterations left).  ``iterations`` fixes the work per decision (seeded and
reproducible: what the ladder uses); ``seconds`` bounds it by time instead (the table's default
is at most 1 s a decision).

Examples
--------
>>> from catan_nb import Board, Game
>>> g = Game(Board.beginner(), seed=1, start="beginner")
>>> bot = SearchBot(seed=0, iterations=30)
>>> type(bot.choose(g)).__name__
'RollDice'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping

from ..rules import (
    Action,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ConfirmTrade,
    DeclineTrade,
    Discard,
    EndTurn,
    Game,
    MaritimeTrade,
    MoveRobber,
    OfferTrade,
    Phase,
    RollDice,
)
from .bot_features import founding_weights, offers_a_turn, search_weights, value_moves
from .value_bot import DEFAULT_WEIGHTS, FOUNDING_PHASES, Choice, ValueBot, position_value

__all__ = ["SearchBot", "rollout_policy"]


def _weights_array(weights):
    from ..fast import value_weights

    return value_weights(weights)


def rollout_policy(game: Game, rng: random.Random) -> Action:
    """The fast policy of the rollouts: build when it can (city, then settlement on the best spot,
    then a development card or a road), trade 4:1 toward a city or a settlement, roll, end."""
    phase = game.phase
    acts = game.legal_actions()
    if len(acts) == 1:
        return acts[0]
    if phase is Phase.ROLL:
        return next((a for a in acts if isinstance(a, RollDice)), acts[0])
    if phase is Phase.DISCARD:
        me = game.current_player
        hand = game.hands[me]
        discards = [a for a in acts if isinstance(a, Discard)]
        return max(discards, key=lambda a: sum(hand[r] for r, k in enumerate(a.cards) if k)) if discards else acts[0]
    if phase is Phase.MOVE_ROBBER:
        topo, me = game.topology, game.current_player
        best, best_v = acts[0], -1e9
        for a in acts:
            if not isinstance(a, MoveRobber):
                continue
            t = game.hex_token[a.hex]
            pips = (6 - abs(7 - t)) if t else 0
            v = sum((-3 if game.node_owner[u] == me else 1) * pips
                    for u in topo.hex_nodes[a.hex] if game.node_owner[u] >= 0)
            v += 1 if a.victim is not None else 0
            if v > best_v:
                best, best_v = a, v
        return best
    if phase is Phase.TRADE_RESPONSE:
        return next((a for a in acts if isinstance(a, DeclineTrade)), acts[0])
    if phase is Phase.TRADE_CONFIRM:
        return next((a for a in acts if isinstance(a, (ConfirmTrade, CancelTrade))), acts[0])
    if phase is Phase.MAIN:
        cities = [a for a in acts if isinstance(a, BuildCity)]
        if cities:
            return cities[0]
        settles = [a for a in acts if isinstance(a, BuildSettlement)]
        if settles:
            topo = game.topology
            return max(settles, key=lambda a: sum((6 - abs(7 - game.hex_token[h])) if game.hex_token[h] else 0
                                                  for h in topo.node_hexes[a.node]))
        if any(isinstance(a, BuyDevelopmentCard) for a in acts) and rng.random() < 0.5:
            return BuyDevelopmentCard()
        roads = [a for a in acts if isinstance(a, BuildRoad)]
        if roads and rng.random() < 0.6:
            return roads[int(rng.random() * len(roads))]
        trades = [a for a in acts if isinstance(a, MaritimeTrade)]
        if trades:
            hand = game.hands[game.current_player]
            for build in ("city", "settlement"):
                cost = game.cost(build)  # per good: a commodity's index is not its enum value
                short = [r for r in range(game.n_goods) if hand[r] < cost[r]]
                if len(short) == 1:
                    for a in trades:
                        give = game.good_index(a.give)
                        if game.good_index(a.get) == short[0] and hand[give] - game.maritime_rate(
                                game.current_player, a.give) >= cost[give]:
                            return a
        end = next((a for a in acts if isinstance(a, EndTurn)), None)
        if end is not None:
            return end
    return acts[int(rng.random() * len(acts))]


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self):
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class SearchBot:
    """SO-ISMCTS over the bot's own turn, with value-bot rollouts' leaf values (see the module docstring).

    Parameters
    ----------
    seed : int or random.Random
    iterations : int, optional
        Search iterations per decision (reproducible).  Default 200 when ``seconds`` is None.
    seconds : float, optional
        A time budget per decision instead (at most 1 s is the table's default).
    weights : mapping, optional
        Weights of the value function (:data:`~catan_nb.analysis.value_bot.DEFAULT_WEIGHTS`), on top
        of the rule modules' :func:`~catan_nb.analysis.bot_features.search_weights` (features only
        the search weighs: a Catan token a few roads away).
    exploration : float
        The UCB1 constant.
    scale : float
        The unit of the leaf score (the bot's value minus the best opponent's): a victory point.
    widen : int or None
        Search only the value bot's best ``widen`` moves at the root (None: every legal move).
    horizon : {"turn", "round"}
        Where a playout stops: when the bot ends its turn (its own plan, the opponents judged by
        the value function; with 5-6 players the others' Special Building Phase is not played), or
        after every other seat's turn too (the fast policy plays them).
    offers : bool
        Make one-for-one domestic offers when one card short of a city or settlement (once a turn;
        twice where the game's modules allow it: with five or six players, after a refusal, another
        surplus card or two: :func:`~catan_nb.analysis.bot_features.offers_a_turn`).
    """

    def __init__(self, seed: int | random.Random | None = 0, *, iterations: int | None = None,
                 seconds: float | None = None, weights: Mapping[str, float] | None = None,
                 exploration: float = 0.3, scale: float = 1000.0, offers: bool = True, horizon: str = "turn",
                 widen: int | None = 8):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations = iterations
        self.seconds = seconds
        if horizon not in ("turn", "round"):
            raise ValueError(f"horizon is 'turn' or 'round', not {horizon!r}")
        self.exploration = exploration
        self.scale = scale
        self.horizon = horizon
        self.widen = widen
        weights = {**search_weights(), **(DEFAULT_WEIGHTS if weights is None else weights)}
        self.value = ValueBot(self.rng, weights, offers=offers)
        self.offers = offers
        self.weights = self.value.weights
        self.last: list[Choice] = []
        self.searched = 0
        #: This turn's domestic offers: ``((turn, seat), how many, the goods given)``.
        self._made: tuple = (None, 0, frozenset())

    def choose(self, game: Game) -> Action:
        """The action to play for ``game.current_player``."""
        return self.explain(game, top=None)[0].action

    def explain(self, game: Game, top: int | None = 3) -> list[Choice]:
        """The root actions, best first, with their mean scores (the lead over the best opponent, in VP)."""
        acts = game.legal_actions()
        me = game.current_player
        if len(acts) == 1 or game.phase is not Phase.MAIN or me != game.active_player:
            ranked = self._judge(game).explain(game, top=None)
        elif (settled := self._value_move(game, acts)) is not None:
            ranked = settled
        else:
            offer = self._offer(game, me, acts)
            ranked = [Choice(offer, 1.0)] if offer is not None else self._search(game, me)
        self.last = ranked if top is None else ranked[:top]
        return self.last

    def _judge(self, game: Game) -> ValueBot:
        """The value bot that decides what is not searched: :attr:`value`, or in the founding phase
        (B-SETUP-17) one whose weights the game's modules adjust
        (:func:`~catan_nb.analysis.bot_features.founding_weights`: five or six players)."""
        if game.phase not in FOUNDING_PHASES:
            return self.value
        extra = founding_weights(game)
        # A few decisions a game, and a value bot holds no state they need: made afresh (same generator).
        return ValueBot(self.rng, {**self.weights, **extra}, offers=self.offers) if extra else self.value

    def _offer(self, game: Game, me: int, acts: list) -> OfferTrade | None:
        """The domestic offer to make before searching, or ``None``: none while a city or a settlement
        can be built; else the value bot's one-for-one (:meth:`ValueBot.offer_for
        <catan_nb.analysis.value_bot.ValueBot.offer_for>`, once a turn), then, where the game's modules
        allow more offers a turn (:func:`~catan_nb.analysis.bot_features.offers_a_turn`), another while
        the bot is still one card short: a surplus card not yet offered, else two surplus cards."""
        if not (self.offers and game.can_trade()):
            return None
        offer = self.value.offer_for(game, me)
        made = self._made if self._made[0] == (game.turn, me) else ((game.turn, me), 0, frozenset())
        if offer is None and 0 < made[1] < offers_a_turn(game):
            offer = self.value.offer_toward_build(game, me, made[2])
        if offer is None or any(isinstance(a, (BuildCity, BuildSettlement)) for a in acts):
            return None
        self._made = (made[0], made[1] + 1, made[2] | {r for r, k in enumerate(offer.give) if k})
        return offer

    def _value_move(self, game: Game, acts: list) -> list[Choice] | None:
        """The value bot's ranking when its best move is one the game's modules leave to it
        (:func:`~catan_nb.analysis.bot_features.value_moves`: a helper's use), else ``None``."""
        kinds = value_moves(game)
        if not kinds or not any(isinstance(a, kinds) for a in acts):
            return None
        ranked = self.value.explain(game, top=None)
        return ranked if ranked and isinstance(ranked[0].action, kinds) else None

    # ------------------------------------------------------------------ the search
    def _leaf(self, g: Game, me: int) -> float:
        """The bot's lead over the best opponent, in units of ``scale`` (a victory point by default)."""
        if g.is_over:
            return 10.0 if g.winner == me else -10.0
        mine = position_value(g, me, self.weights)
        other = max(position_value(g, q, self.weights) for q in range(g.n) if q != me)
        return (mine - other) / self.scale

    def _search(self, game: Game, me: int) -> list[Choice]:
        games = self._fast_games(game)
        if games is not None:  # the compiled simulator: the same search, draw for draw, much faster
            return self._search_fast(game, me, games)
        root = _Node()
        rng = self.rng
        game.road_lengths()  # counted once here (a cache of the game's), not again in every determinisation
        # The root's candidates: the value bot's best ``widen`` moves (all of them with None).
        allowed = None
        why: dict = {}
        if self.widen is not None:
            shortlist = self.value.explain(game, top=self.widen)
            allowed = {c.action for c in shortlist}
            why = {c.action: c.reasons for c in shortlist}
        turn = game.turn
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if deadline is not None and time.perf_counter() > deadline and n >= 8:
                break
            n += 1
            g = game.determinized(me, rng.getrandbits(32))
            node, path = root, [root]
            ended = False
            # Selection and expansion over the bot's own decisions this turn.
            while not g.is_over and g.current_player == me and g.turn == turn:
                a, node, new = self._step_down(node, g.legal_actions(), allowed if node is root else None,
                                               rng.random)
                g.apply(a)
                ended = type(a) is EndTurn
                path.append(node)
                if new:
                    break
            # Rollout: the rest of the bot's turn by the value bot's greedy choices, then (with
            # horizon="round") every other seat's turn by the fast policy.  With horizon="turn" the
            # playout stops when the bot ends its turn: what others may do after it (a Special
            # Building Phase, X56-SBP-1) is left to the leaf's value, as their own turns are.
            steps = 0
            while not g.is_over and g.turn == turn and g.current_player == me and steps < 30:
                a = self.value.greedy(g)
                g.apply(a)
                ended = ended or type(a) is EndTurn
                steps += 1
            horizon = turn + (g.n if self.horizon == "round" else 1)
            own = self.horizon == "turn"
            while not g.is_over and g.turn < horizon and steps < 400 and not (own and ended):
                a = rollout_policy(g, rng)
                g.apply(a)
                ended = ended or type(a) is EndTurn
                steps += 1
            reward = self._leaf(g, me)
            for nd in path:
                nd.visits += 1
                nd.reward += reward
            if self.iterations is not None and len(root.children) > 1 and n >= 16:
                # The move visited most is played: stop once no other can catch up in what is left.
                first, second = sorted((c.visits for c in root.children.values()), reverse=True)[:2]
                if first - second > self.iterations - n:
                    break
        self.searched += n
        ranked = sorted(root.children.items(), key=lambda kv: (-kv[1].visits, -kv[1].reward))
        return [Choice(a, nd.reward / nd.visits, why.get(a, ()) + (("visits", float(nd.visits)),))
                for a, nd in ranked if nd.visits]

    def _step_down(self, node: "_Node", legal: list, allowed, draw) -> tuple:
        """One step of the tree walk (ISMCTS with availability counts): ``(action, child, new)``.

        ``allowed`` narrows the root's moves (or ``None``); the actions available here count once more
        in their children; an untried one is expanded (drawn by ``draw()``, a float in [0, 1)), else
        the child of best UCB value is followed."""
        if allowed is not None:
            legal = [a for a in legal if a in allowed] or legal
        children = node.children
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.avail += 1
        untried = [a for a in legal if a not in children]
        if untried:
            a = untried[int(draw() * len(untried))]
            child = children[a] = _Node()
            child.avail = 1
            return a, child, True
        c = self.exploration
        a = max(legal, key=lambda x: (children[x].reward / children[x].visits
                                      + c * math.sqrt(math.log(children[x].avail) / children[x].visits)))
        return a, children[a], False

    def _fast_games(self, game: Game):
        """The compiled simulator's games for searches on ``game`` (exact mode), or ``None`` when it
        cannot play them (numba missing, rules it does not cover) or would first have to compile
        (:func:`catan_nb.fast.wanted`: a search bot's first move does not wait for a compile;
        ``CATAN_NB_FAST=1`` makes it)."""
        from .. import fast

        if "value" not in fast.EXACT_POLICIES:  # the rollouts are the value bot's (see EXACT_POLICIES)
            return None
        if fast.covered(game.rules, game.n) is not None or not fast.wanted(fast.LOAD_SECONDS, "rollout"):
            return None
        key = (game.topology, game.n, game.rules, self.offers)
        cached = getattr(self, "_fast", None)
        if cached is None or cached[0] != key[1:] or cached[1] is not game.topology:
            cached = self._fast = (key[1:], game.topology,
                                   fast.Games(game.board, game.n, 2, rules=game.rules, exact=True,
                                              value_offers=self.offers))
        return cached[2]

    def _search_fast(self, game: Game, me: int, games) -> list[Choice]:
        """:meth:`_search` with every determinisation, tree walk and rollout in the compiled
        simulator (exact mode): the same draws from this bot's generator, so the same choice."""
        from ..fast._compile import kernel as compiled

        kernel = compiled()  # imported on demand, with the compile notice listening
        root = _Node()
        allowed = None
        why: dict = {}
        if self.widen is not None:
            shortlist = self.value.explain(game, top=self.widen)
            allowed = {c.action for c in shortlist}
            why = {c.action: c.reasons for c in shortlist}
        turn = game.turn
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        T, S = games.T, games.S
        games.load(0, game, rng=0)  # the determinisations draw the games' generators anew
        games.load_random(0, 1 + me, self.rng)
        offered = getattr(self.value, "_offered_turn", None)
        games.set_offered(0, me, offered[0] if offered is not None and offered[1] == me else -1)
        catalog = games.catalog
        index = {a: i for i, a in enumerate(catalog)}
        slot = 1 + me
        horizon = turn + (game.n if self.horizon == "round" else 1)
        own = self.horizon == "turn"  # stop when the bot ends its turn (see _search)
        weights = _weights_array(self.weights)
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if deadline is not None and time.perf_counter() > deadline and n >= 8:
                break
            n += 1
            kernel.search_begin(T, S, me)
            node, path = root, [root]
            while games.winner(1) is None and games.current_player(1) == me and games.turn(1) == turn:
                a, node, new = self._step_down(node, [catalog[a] for a in games.legal(1)],
                                               allowed if node is root else None,
                                               lambda: kernel.draw_random(T, S, 1, slot))
                games.step(1, index[a])
                path.append(node)
                if new:
                    break
            reward = float(kernel.rollout(T, S, 1, me, turn, horizon, weights, float(self.scale), own))
            kernel.search_end(T, S, me)
            for nd in path:
                nd.visits += 1
                nd.reward += reward
            if self.iterations is not None and len(root.children) > 1 and n >= 16:
                # The move visited most is played: stop once no other can catch up in what is left.
                first, second = sorted((c.visits for c in root.children.values()), reverse=True)[:2]
                if first - second > self.iterations - n:
                    break
        games.save_random(0, slot, self.rng)
        if games.offered(0, me) == turn:
            self.value._offered_turn = (turn, me)
        self.searched += n
        ranked = sorted(root.children.items(), key=lambda kv: (-kv[1].visits, -kv[1].reward))
        return [Choice(a, nd.reward / nd.visits, why.get(a, ()) + (("visits", float(nd.visits)),))
                for a, nd in ranked if nd.visits]

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations is not None else f"seconds={self.seconds}"
        return f"SearchBot({budget})"

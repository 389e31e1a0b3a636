"""The Erie Canal variant of the New York scenario (RULES.md section 15, ERIE-1..7), as a rule module.

Canal tokens (the 12 Traders'-guild ship tokens of Friends) start in a supply (ERIE-1).  A player
whose roads directly link two localities next to the canal takes 1 token; the link may not pass
through another locality, and it does not matter who owns the two localities (ERIE-2).  Nothing is
won in the founding (ERIE-3).  A token played names a resource: for that turn the player trades 2
of it for any 1 bank card, as often as they like, and the token goes back to the supply at the end
of the turn (ERIE-4).  Tokens are traded between players like resources (ERIE-5:
:class:`OfferCanal`, answered by the partner).  A pair of canal localities earns each player at
most 1 token, none once the supply is empty, and tokens are not resource cards: never discarded,
stolen or taken by Monopoly (ERIE-6, DECISION).  Which localities lie next to the canal (ERIE-7,
a GAP) is board data: those marked ``"locality": "canal"`` (our New York board's second locality
symbol, SC-5's GAP).

DECISIONS: a pair linked while the supply is empty is spent (it pays nothing later), and so is a
pair linked by founding roads (ERIE-3: nothing is won in the founding, then or later).

State in ``game.ext["erie_canal"]``: the ``supply``; each seat's ``tokens``; each seat's ``earned``
pairs; the tokens ``playing`` this turn as ``[seat, resource]`` rows; an ``offer`` waiting for its
answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...constants import Resource
from ...errors import BoardFileError, IllegalActionError
from ..actions import Action
from ..phase import Phase
from . import Module, register
from .corsica_new_york import localities, scenario_data

__all__ = ["ErieCanal", "PlayCanal", "OfferCanal", "AnswerCanal", "CANAL_ANSWER", "CANAL_TOKENS", "NAME",
           "linked_pairs", "pairs_along"]

NAME = "erie_canal"
#: ERIE-1: the Traders'-guild ship tokens used as canal tokens.
CANAL_TOKENS = 12
#: ERIE-4: the rate of the named resource for the turn.
CANAL_RATE = 2

CANAL_ANSWER = Phase.register("canal_answer", "{player} answers an offer of canal tokens (ERIE-5)", owner=NAME)


@dataclass(frozen=True, slots=True)
class PlayCanal(Action):
    """Play a canal token naming ``resource``: 2 of it for any 1 bank card this turn (ERIE-4)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class OfferCanal(Action):
    """Offer ``partner`` canal tokens for cards (ERIE-5): ``tokens`` > 0 gives that many tokens for
    ``cards`` (counts per good) from the partner; ``tokens`` < 0 asks for tokens and gives ``cards``."""

    partner: int
    tokens: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AnswerCanal(Action):
    """Accept or decline the canal-token offer made to you (ERIE-5)."""

    accept: bool


def _st(game) -> dict:
    return game.ext[NAME]


def pairs_along(game, path_ok) -> set[tuple[int, int]]:
    """ERIE-2: pairs of canal localities joined along paths where ``path_ok(e)`` holds, through no other
    locality, as ``(low, high)`` intersections (the roads of a player: :func:`linked_pairs`; the paths a
    network could take: the bots' targets)."""
    d = scenario_data(game.board)
    places = localities(game)
    t = game.topology
    out = set()
    for c in d.canal:
        seen, todo = {c}, [c]
        while todo:
            v = todo.pop()
            for e in t.node_edges[v]:
                if not path_ok(e):
                    continue
                for w in t.edge_nodes[e]:
                    if w in seen:
                        continue
                    seen.add(w)
                    if w in d.canal:
                        out.add((min(c, w), max(c, w)))
                    elif w not in places:
                        todo.append(w)  # never through another locality
    return out


def linked_pairs(game, player: int) -> set[tuple[int, int]]:
    """ERIE-2: pairs of canal localities ``player``'s roads link directly (through no other locality)."""
    mine = game.placed[game.kind_id["road"]][player]
    return pairs_along(game, mine.__contains__)


def _check_play(game, a: PlayCanal) -> None:
    game.require_phase(a, Phase.MAIN, rule="ERIE-4")
    p = game.current_player
    if p != game.active_player:
        raise IllegalActionError("ERIE-4", f"seat {p} plays canal tokens only in their own turn", a)
    if _st(game)["tokens"][p] <= 0:
        raise IllegalActionError("ERIE-4", f"seat {p} holds no canal token", a)
    if not isinstance(a.resource, Resource):
        raise IllegalActionError("ERIE-4", f"a canal token names a resource, not {a.resource!r}", a)


def _apply_play(game, a: PlayCanal) -> None:
    st = _st(game)
    st["tokens"][game.current_player] -= 1
    st["playing"].append([game.current_player, a.resource.value])
    game.log.append(a)


def _check_offer(game, a: OfferCanal) -> None:
    from .trade import require_trade_phase

    require_trade_phase(game, a)
    p, st = game.current_player, _st(game)
    q = game.check_opponent(a, a.partner, "ERIE-5")
    k = a.tokens
    if isinstance(k, bool) or not isinstance(k, int) or k == 0:
        raise IllegalActionError("ERIE-5", f"tokens is a non-zero number of canal tokens, not {k!r}", a)
    cards = a.cards
    if not game.check_counts(a, cards, "ERIE-5"):
        raise IllegalActionError("ERIE-5", "a canal token is traded for at least one card", a)
    seller = p if k > 0 else q
    if st["tokens"][seller] < abs(k):
        raise IllegalActionError("ERIE-5", f"seat {seller} holds {st['tokens'][seller]} canal token(s), not {abs(k)}", a)
    if k < 0 and any(c > h for c, h in zip(cards, game.hands[p])):
        raise IllegalActionError("B-TRADE-4", f"seat {p} does not hold the cards offered {cards}", a)


def _apply_offer(game, a: OfferCanal) -> None:
    _st(game)["offer"] = [a.partner, a.tokens, list(a.cards)]
    game.log.append(a)
    game.push(CANAL_ANSWER, a.partner)


def _can_pay(game) -> bool:
    q, k, cards = _st(game)["offer"]
    return k < 0 or all(c <= h for c, h in zip(cards, game.hands[q]))


def _check_answer(game, a: AnswerCanal) -> None:
    game.require_phase(a, CANAL_ANSWER, rule="ERIE-5")
    if not isinstance(a.accept, bool):
        raise IllegalActionError("ERIE-5", f"accept is True or False, not {a.accept!r}", a)
    if a.accept and not _can_pay(game):
        raise IllegalActionError("B-TRADE-4", f"seat {game.current_player} does not hold the cards asked for", a)


def _apply_answer(game, a: AnswerCanal) -> None:
    st = _st(game)
    q, k, cards = st.pop("offer")
    p = game.active_player
    if a.accept:
        st["tokens"][p] -= k
        st["tokens"][q] += k
        if k > 0:
            game.transfer(q, p, cards)
        else:
            game.transfer(p, q, cards)
    game.log.append(a)
    game.pop()


_PLAYS = tuple(PlayCanal(r) for r in Resource)
_ANSWERS = (AnswerCanal(True), AnswerCanal(False))


@register
class ErieCanal(Module):
    """ERIE-1..7 on the New York board (see the module docstring)."""

    name = NAME
    requires = ("corsica_new_york",)
    players = (3, 4, 5, 6)
    legal_in = ("main", "canal_answer")
    actions = {PlayCanal: (_check_play, _apply_play), OfferCanal: (_check_offer, _apply_offer),
               AnswerCanal: (_check_answer, _apply_answer)}

    def init(self, game) -> None:
        if len(scenario_data(game.board).canal) < 2:
            raise BoardFileError(game.board.source, "nodes", "the Erie Canal needs two or more localities marked "
                                 '"locality": "canal" (ERIE-1, ERIE-7)')
        n = game.n
        game.ext[NAME] = {"supply": CANAL_TOKENS, "tokens": [0] * n, "earned": [[] for _ in range(n)],
                          "playing": []}

    def on_place(self, game, player: int, kind: str, site: int, founding: bool) -> None:
        if kind != "road":
            return
        st = _st(game)
        for pair in sorted(linked_pairs(game, player)):
            if list(pair) in st["earned"][player]:
                continue
            st["earned"][player].append(list(pair))  # ERIE-6: once per pair and player
            if st["supply"] > 0 and not founding:  # ERIE-3: a link made in the founding never pays
                st["supply"] -= 1
                st["tokens"][player] += 1

    def rate(self, game, player: int, good: int, rate: int) -> int:
        if [player, good] in _st(game)["playing"]:
            return min(rate, CANAL_RATE)  # ERIE-4
        return rate

    def on_end_turn(self, game) -> None:
        st = _st(game)
        st["supply"] += len(st["playing"])  # ERIE-4: back to the supply
        st["playing"] = []

    def legal(self, game, out: list) -> None:
        st = _st(game)
        p = game.current_player
        if game.phase is CANAL_ANSWER:
            out.append(_ANSWERS[1])
            if _can_pay(game):
                out.append(_ANSWERS[0])
        elif p == game.active_player and st["tokens"][p] > 0:
            out.extend(a for a in _PLAYS if [p, a.resource.value] not in st["playing"])

    def legal_trades(self, game, player: int, out: list, offers: bool) -> None:
        if not offers:
            return
        st, n = _st(game), game.n_goods
        units = [tuple(int(i == r) for i in range(n)) for r in range(len(Resource))]
        for q in range(game.n):
            if q == player:
                continue
            if st["tokens"][player]:  # sell a token for one resource
                out.extend(OfferCanal(q, 1, u) for u in units)
            if st["tokens"][q]:  # buy one with a resource held
                out.extend(OfferCanal(q, -1, u) for r, u in enumerate(units) if game.hands[player][r])

    def view(self, game, player: int) -> dict:
        st = _st(game)
        out = {"supply": st["supply"], "tokens": list(st["tokens"]), "earned": [[list(x) for x in e] for e in st["earned"]],
               "playing": [list(x) for x in st["playing"]]}
        if "offer" in st:
            out["offer"] = [st["offer"][0], st["offer"][1], list(st["offer"][2])]
        return out

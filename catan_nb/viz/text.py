"""Words for people: places, cards and actions as players describe them (no node or path ids).

The game table's log is written with these: who acted (by colour), what they did, with resources by
name and places by the hexes around them ("the settlement at forest 3 · mountains 8 · pasture 5").
What a player may not know stays hidden: a stolen card or a drawn development card is named only to
the players allowed to see it.

Examples
--------
>>> from catan_nb import Board
>>> place_of_node(Board.beginner(), 31)
'forest 3 · mountains 8 · pasture 5'
>>> place_of_path(Board.beginner(), Board.beginner().path_between(31, 25))
'between forest 3 and mountains 8'
>>> cards_text((1, 0, 2, 0, 0))
'1 lumber, 2 wool'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..board import Board
from ..constants import RESOURCES, DevCard

__all__ = ["place_of_node", "place_of_path", "place_of_hex", "cards_text", "seat_name", "narrate", "snapshot", "PHRASES",
           "register_phrase",
           "PRIVATE", "ROLL_NOTES", "NOTES", "SNAPSHOTS", "GROUPS", "narrate_group", "a_card", "goods_counts",
           "live_board"]


def _hex_words(board: Board, hex_id: int) -> str:
    t = board.hexes[hex_id]
    return f"{t.terrain}{' ' + str(t.token) if t.token else ''}"


def place_of_hex(board: Board, hex_id: int) -> str:
    """A hex as players name it: ``"mountains 8"`` (or ``"the desert"``)."""
    t = board.hexes[hex_id]
    return "the desert" if t.token is None and t.resource is None and t.is_land else _hex_words(board, hex_id)


def place_of_node(board: Board, node: int) -> str:
    """An intersection by its hexes: ``"forest 3 · mountains 8 · pasture 5"`` (``"(coast)"`` if fewer than 3)."""
    hexes = board.topology.node_hexes[node]
    words = " · ".join(_hex_words(board, h) for h in hexes)
    harbour = board.graph.nodes[node]["harbour"]
    coast = "" if len(hexes) >= 3 else " (coast)"
    port = f", {harbour.label} harbour" if harbour is not None else ""
    return (words or "the open sea") + coast + port


#: What a bot's position features measure, said of the bot (its reasons in the log: issue 37); a feature
#: without words here is said by its name.  A reason says whether the move left it better or worse for the bot.
FEATURE_WORDS = {
    "vp": "its victory points", "production": "its production per roll", "enemy_production": "the others' production",
    "risk_7": "its exposure to a 7", "spots": "the places left for its settlements", "road": "its longest road",
    "harbours": "its harbours", "diversity": "the variety of its resources", "hand": "its hand",
    "buildable": "what it can soon build", "card": "its means to buy a card", "dev": "its development cards",
    "army": "its army", "knights": "its knights", "active_knights": "its active knights",
    "defender": "its Defender points", "commodities": "its commodities", "improvements": "its city improvements",
    "metropolis_race": "its chances of a metropolis", "progress": "its progress cards",
    "threat": "the barbarians' threat to it",
}


def reasons_text(reasons: Sequence[tuple[str, float]], most: int = 3) -> str:
    """A bot's reasons (``(feature, weighted change)`` pairs: what the move changed, and by how much for the bot)
    as words, the largest first: what the move made better for the bot, and what worse (``""`` without reasons).

    Examples
    --------
    >>> reasons_text([("production", 2.5), ("hand", -1.0), ("risk_7", 0.5)])
    'better: its production per roll, its exposure to a 7; worse: its hand'
    """
    top = sorted((r for r in reasons if r[1]), key=lambda r: -abs(r[1]))[:most]
    up = [FEATURE_WORDS.get(k, k.replace("_", " ")) for k, v in top if v > 0]
    down = [FEATURE_WORDS.get(k, k.replace("_", " ")) for k, v in top if v < 0]
    return "; ".join(part for part in (("better: " + ", ".join(up)) if up else "",
                                       ("worse: " + ", ".join(down)) if down else "") if part)


def near_land(board: Board, x: float, y: float) -> str | None:
    """The land hex nearest the point ``(x, y)`` of the board's plane, as :func:`place_of_hex` names it (``None``
    on a board without land): how a place out at sea is told apart (issue 37)."""
    pos = board.graph.nodes
    best = None
    for t in board.hexes:
        if not t.is_land:
            continue
        corners = board.topology.hex_nodes[t.id]
        cx = sum(pos[v]["pos"][0] for v in corners) / len(corners)
        cy = sum(pos[v]["pos"][1] for v in corners) / len(corners)
        d = (cx - x) ** 2 + (cy - y) ** 2
        if best is None or d < best[0]:
            best = (d, t.id)
    return None if best is None else place_of_hex(board, best[1])


def place_of_path(board: Board, path: int) -> str:
    """A path by the hexes on either side: ``"between forest 3 and mountains 8"`` or ``"on the coast of hills 6"``."""
    a, b = board.path_nodes(path)
    hexes = sorted(set(board.topology.node_hexes[a]) & set(board.topology.node_hexes[b]))
    if len(hexes) >= 2:
        return f"between {_hex_words(board, hexes[0])} and {_hex_words(board, hexes[1])}"
    if hexes:
        return f"on the coast of {_hex_words(board, hexes[0])}"
    (x0, y0), (x1, y1) = board.graph.nodes[a]["pos"], board.graph.nodes[b]["pos"]
    land = near_land(board, (x0 + x1) / 2, (y0 + y1) / 2)
    return f"at sea off {land}" if land else "at sea"


def cards_text(counts: Sequence[int], goods: Sequence[Any] = RESOURCES) -> str:
    """Counts per good as words: ``"1 lumber, 2 wool"`` (``"nothing"`` if empty)."""
    parts = [f"{k} {g}" for k, g in zip(counts, goods) if k]
    return ", ".join(parts) or "nothing"


class _LiveBoard:
    """A board whose hexes are as they are now in a game (fog revealed, SF-3; number tokens moved,
    SF-16, CK-PC-4); everything else is the board's."""

    def __init__(self, board: Board, hexes: tuple):
        self._board = board
        self.hexes = hexes

    def __getattr__(self, name: str) -> Any:
        return getattr(self._board, name)


def live_board(game) -> Any:
    """``game.board``, or a view of it with the hexes as they are now when some have changed, so
    that places are named as the players see them ("hills 5", not "fog")."""
    from dataclasses import replace

    board = game.board
    now = [(game.hex_terrain[t.id], game.hex_token[t.id] or None) for t in board.hexes]
    if all(t.terrain is terrain and t.token == token for t, (terrain, token) in zip(board.hexes, now)):
        return board
    return _LiveBoard(board, tuple(t if (t.terrain is terrain and t.token == token) else replace(t, terrain=terrain, token=token)
                                   for t, (terrain, token) in zip(board.hexes, now)))


def a_card(good: Any) -> str:
    """One card by name with its article: ``"a brick"``, ``"an ore"``."""
    word = str(good)
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def seat_name(game, seat: int, kinds: Sequence[str] | None = None) -> str:
    """A seat as players say it: ``"Blue"`` (``"Blue (bot)"`` with the seat kinds)."""
    name = str(game.colours[seat]).title()
    return f"{name} ({kinds[seat]})" if kinds and kinds[seat] == "bot" else name


#: The log's sentence of each action that needs no secret and no before/after comparison, by
#: action class name: ``phrase(who, action, board, game) -> str``, with ``who`` the acting seat
#: as players say it, ``board`` the board as it is now (see :func:`live_board`) and ``game`` the
#: game just after the action.  A rule module adds its own with :func:`register_phrase`; an
#: action with none is logged by its name and fields (:func:`action_words`).
PHRASES: dict[str, Any] = {
    "EndTurn": lambda who, a, b, g: f"{who} ended the turn",
    "BuildSettlement": lambda who, a, b, g: f"{who} built a settlement at {place_of_node(b, a.node)}",
    # a founding city (CK-SETUP-1) is placed, not upgraded (issue 37)
    "BuildCity": lambda who, a, b, g: (f"{who} placed a city at {place_of_node(b, a.node)}"
                                       if g is not None and not g.dice_history else
                                       f"{who} upgraded to a city at {place_of_node(b, a.node)}"),
    "BuildRoad": lambda who, a, b, g: f"{who} built a road {place_of_path(b, a.path)}",
    "PlayKnight": lambda who, a, b, g: f"{who} played a knight",
    "PlayRoadBuilding": lambda who, a, b, g: f"{who} played Road Building",
    "EndRoadBuilding": lambda who, a, b, g: f"{who} stopped placing free roads",
    "PlayYearOfPlenty": lambda who, a, b, g: f"{who} played Year of Plenty: {a.first} and {a.second}",
    "PlayMonopoly": lambda who, a, b, g: f"{who} played Monopoly on {a.resource}",
    "OfferTrade": lambda who, a, b, g: f"{who} offers {cards_text(a.give, g.goods)} for {cards_text(a.get, g.goods)}",
    "AcceptTrade": lambda who, a, b, g: f"{who} accepts the offer",
    "CancelTrade": lambda who, a, b, g: f"{who} withdrew the offer",
}

def register_phrase(action: type | str, phrase, *, readers=None, public=None, replace: bool = False) -> None:
    """Give the log a sentence for a rule module's action (the :data:`PHRASES` registry).

    Parameters
    ----------
    action : type or str
        The action class (or its name).
    phrase : callable
        ``phrase(who, action, board, game) -> str``: ``who`` is the acting seat as players say
        it ("Blue", "Blue (bot)"), ``action`` the action as logged (with its outcome), ``board``
        the board as it is now, ``game`` the game just after the action.
    readers, public : callable, optional
        For an action with a secret (a card passed between two players): ``readers(game, action,
        before) -> seats`` who may read ``phrase``'s sentence (``before``: what :func:`snapshot`
        took before the action), and ``public(who, action, board, game)``, the sentence the other
        seats read (stored in :data:`PRIVATE`).
    replace : bool
        Replace a sentence already registered (by default the first one registered stays, so a
        module imported twice keeps its sentence).

    Examples
    --------
    >>> register_phrase("DocExampleAction", lambda who, a, board, game: f"{who} did the example")
    >>> PHRASES["DocExampleAction"]("Blue", None, None, None)
    'Blue did the example'
    >>> del PHRASES["DocExampleAction"]
    """
    name = action if isinstance(action, str) else action.__name__
    for what, f in (("phrase", phrase), ("public", public), ("readers", readers)):
        if f is not None and not callable(f):
            raise TypeError(f"the {what} of {name} is a function, not {f!r}")
    if (readers is None) != (public is None):
        raise TypeError(f"{name}: readers and public go together (who reads the sentence, what the others read)")
    if replace or name not in PHRASES:
        PHRASES[name] = phrase
    if readers is not None and (replace or name not in PRIVATE):
        PRIVATE[name] = (readers, public)


#: Actions whose phrase only some seats may read (cards passed between two players): by action
#: name, ``(seats(game, action, before) -> seats allowed, public phrase(who, action, board, game))``.
#: ``game`` is the game just after the action; ``before`` what :func:`snapshot` took before it.
PRIVATE: dict[str, tuple[Any, Any]] = {}

def _n_cards(k: int) -> str:
    return f"{k} card{'' if k == 1 else 's'}"


def goods_counts(game, actions, field: str) -> tuple[int, ...]:
    """Counts per good of several one-card (or counts) actions."""
    out = [0] * game.n_goods
    for a in actions:
        v = getattr(a, field)
        if isinstance(v, tuple):
            out = [x + y for x, y in zip(out, v)]
        else:
            out[game.good_index(v)] += 1
    return tuple(out)


#: Actions a seat repeats one card at a time (discards, gold picks), read as one sentence: by action
#: name, ``sentence(who, actions, game, visible)`` with ``visible`` whether the reader may see the cards.
GROUPS: dict[str, Any] = {
    "Discard": lambda who, acts, g, visible: (
        f"{who} discarded {cards_text(goods_counts(g, acts, 'cards'), g.goods) if visible else _n_cards(sum(sum(a.cards) for a in acts))}"),
}


def narrate_group(game, actions: Sequence[Any], before: dict, viewer: int | None, kinds: Sequence[str] | None = None) -> str:
    """One sentence for several actions of one kind played one after another by one seat (see :data:`GROUPS`);
    ``before`` is the :func:`snapshot` taken before the first of them."""
    actor = before["current"]
    return GROUPS[type(actions[0]).__name__](seat_name(game, actor, kinds), list(actions), game,
                                             viewer is None or viewer == actor)


#: Sentences a rule module adds after any action (a fog hex revealed, a treasure found), from the state
#: before and after: ``note(game, action, before, viewer, kinds) -> list of str``, with what the
#: module's :data:`SNAPSHOTS` entry added to ``before``.
NOTES: list[Any] = []
#: What a rule module records before each action for its :data:`NOTES`: ``snap(game) -> dict``.
SNAPSHOTS: list[Any] = []

#: Sentences a rule module adds after a roll (a gold field's picks...): ``note(game, kinds) -> list of str``,
#: called with the game just after the roll.
ROLL_NOTES: list[Any] = []


def narrate(game, action, before: dict, viewer: int | None, kinds: Sequence[str] | None = None) -> list[str]:
    """Sentences for one applied action, for the table's log.

    Parameters
    ----------
    game : Game
        The game just after the action (its last log entry is ``action`` with its outcome).
    action : Action
        The action as logged (with its outcome: dice, stolen card, card drawn).
    before : dict
        What :func:`snapshot` returned just before the action (who acted, award holders,
        the open offer, hand sizes).
    viewer : int or None
        The seat reading the log (``None``: everything may be shown).
    kinds : sequence of str, optional
        ``"human"``/``"bot"`` per seat, to mark bots in names.
    """
    b = live_board(game)
    actor = before["current"]
    who = seat_name(game, actor, kinds)
    name = type(action).__name__
    see = viewer is None
    out: list[str] = []
    if name == "RollDice":
        d = action.dice
        total = d[0] + d[1]
        out.append(f"{who} rolled {d[0]} + {d[1]} = {total}" + (" — the robber moves!" if total == 7 else ""))
        if total != 7:
            got = game.last_production
            for q, cards in sorted(got.items()):
                out.append(f"  {seat_name(game, q, kinds)} collects {cards_text(cards, game.goods)}")
            notes = [line for note in ROLL_NOTES for line in note(game, kinds)]
            out.extend(f"  {line}" for line in notes)
            if not got and not notes:
                out.append("  nobody collects anything")
        else:
            owed = game.discards_owed()
            if owed:
                out.append("  over the limit, discarding half: " + ", ".join(
                    f"{seat_name(game, q, kinds)} {k}" for q, k in sorted(owed.items())))
    elif name in PRIVATE and not (see or viewer in PRIVATE[name][0](game, action, before)):
        out.append(PRIVATE[name][1](who, action, b, game))
    elif name in PHRASES:
        out.append(PHRASES[name](who, action, b, game))
    elif name == "BuyDevelopmentCard":
        card = f": {action.card}" if action.card is not None and (see or viewer == actor) else ""
        out.append(f"{who} bought a development card{card}")
    elif name == "Discard":
        out.append(GROUPS["Discard"](who, [action], game, see or viewer == actor))
    elif name == "MoveRobber":
        victim = action.victim
        tail = ""
        if victim is not None:
            allowed = see or viewer in (actor, victim)
            tail = f" and stole {a_card(action.stolen) if allowed and action.stolen is not None else 'a card'} " \
                   f"from {seat_name(game, victim, kinds)}"
        out.append(f"{who} moved the robber to {place_of_hex(b, action.hex)}{tail}")
    elif name == "MaritimeTrade":
        rate = before.get("rate", {}).get(str(action.give), "?")
        out.append(f"{who} traded {rate} {action.give} for 1 {action.get} with the bank")
    elif name == "DeclineTrade":
        out.append(f"{who} declines the offer")
        if before.get("offer") is not None and game.trade_offer is None:
            out.append("  nobody accepted: the offer lapses")
    elif name == "ConfirmTrade":
        give, get = before.get("offer") or ((), ())
        out.append(f"{seat_name(game, before['active'], kinds)} traded {cards_text(give, game.goods)} for "
                   f"{cards_text(get, game.goods)} with {seat_name(game, action.partner, kinds)}")
    else:
        out.append(f"{who} {action_words(action, secret=not (see or viewer == actor))}")
    out.extend(line for note in NOTES for line in note(game, action, before, viewer, kinds))
    # Awards and the end of the game, from the state before and after.
    lr, la = game.longest_road_holder, game.largest_army_holder
    if lr != before.get("longest_road"):
        out.append(f"★ Longest Road: {seat_name(game, lr, kinds) + f' ({game.longest_road(lr)} roads)' if lr is not None else 'nobody holds it now'}")
    if la != before.get("largest_army"):
        out.append(f"★ Largest Army: {seat_name(game, la, kinds) + f' ({game.knights_played(la)} knights)' if la is not None else 'nobody holds it now'}")
    if game.is_over and not before.get("over"):
        for q in range(game.n):  # the game is over: hidden points are shown (B-DEV-9)
            hidden = game.vp(q) - game.vp(q, visible=True)
            if hidden:
                out.append(f"★ {seat_name(game, q, kinds)} reveals {hidden} victory point card{'s' if hidden > 1 else ''}"
                           f": {game.vp(q)} VP in all")
        out.append(f"★ {seat_name(game, game.winner, kinds)} wins with {game.vp(game.winner)} victory points")
    return out


def snapshot(game) -> dict:
    """What :func:`narrate` compares against: taken just before an action is applied."""
    out = {
        "current": game.current_player,
        "active": game.active_player,
        "longest_road": game.longest_road_holder,
        "largest_army": game.largest_army_holder,
        "offer": game.trade_offer,
        "over": game.is_over,
        "rate": ({str(g): r for g, r in zip(game.goods, game.rates(game.active_player))} if not game.is_over else {}),
    }
    for snap in SNAPSHOTS:
        out.update(snap(game))
    return out


#: Fields that carry a hidden outcome (a card drawn or seen): shown only to the player who acted.
SECRET_FIELDS = frozenset({"card", "seen", "drawn", "stolen"})


def action_words(action, *, secret: bool = False) -> str:
    """A readable phrase for any action (rule modules' actions included): its kind and its fields.

    ``secret`` leaves out the fields that carry a hidden outcome (:data:`SECRET_FIELDS`)."""
    name = type(action).__name__
    words = "".join(" " + c.lower() if c.isupper() else c for c in name).strip()
    fields = getattr(action, "__dataclass_fields__", {})
    parts = []
    for f in fields:
        v = getattr(action, f)
        if v is None or (secret and f in SECRET_FIELDS):
            continue
        if isinstance(v, DevCard):
            v = str(v)
        if isinstance(v, tuple):
            v = ", ".join(str(x) if not isinstance(x, tuple) else " for ".join(map(str, x)) for x in v)
        parts.append(f"{f.replace('_', ' ')} {v}")
    return words + (" (" + "; ".join(parts) + ")" if parts else "")

"""What ``legal_actions()`` lists and what ``play()`` accepts are the same set (issue 24).

For every variant of ``tests/test_properties.py`` (every module and scenario) positions are taken
from seeded random games, so that every phase the games reach is represented, with the rare
decisions of ``tests/test_fuzz_actions.py`` (progress cards, a canal offer, a lost city, a
metropolis) added.  In each position a *universe* of candidate actions is built: every action
class of the registry (``ACTION_TYPES``, which the modules extend) with its fields drawn from
their domains (intersections, paths, hexes, seats, goods, cards, tracks, dice faces, counts of
the game's width...): all of a class's instances where there are few, otherwise every listed
action, its near neighbours (one field changed over its whole domain), every move from one of
the mover's own pieces (every target) and a seeded sample.  For each candidate:

* if it is in the listed set, ``play`` on a copy of the game accepts it;
* if not, ``play`` raises ``IllegalActionError`` and the game is unchanged (``state()``);
* any other exception is a failure.

The listed set is **completed** where a module lists a combinatorial action only in part; those
candidates are judged by their own rule, written here from RULES.md:

* ``Discard`` (B-ROB-2): listed one card at a time; any 1..owed cards held are accepted
  (every discard of the hand for small hands, a sample for large ones);
* ``OfferTrade`` (B-TRADE-2..5): one-for-one offers are listed; any offer with both sides
  non-empty, no good on both sides and the giver holding what it gives is accepted, in the
  active player's trade phase;
* ``GiveGoods`` (CK-PC-18, the Wedding): listed one card at a time; 1..owed cards held;
* ``OfferCanal`` (ERIE-5): one token for one resource is listed; any non-zero number of tokens
  the seller holds for at least one card (the offerer holding the cards it gives);
* ``UseMerchants`` (F-GUILD-1): single swaps are listed; two swaps in one use, each possible
  after the one before;
* ``UseMerchantHelper`` (H-CARD-1): one demanded player and the largest stack given back are
  listed; 1 or 2 other players, one card given back to each who gives (any card then held);
* ``BuildRoadWithMendicant`` (H-CARD-2), ``UseArchitect`` (H-CARD-9): listed only when the normal
  price cannot be paid, with one substitute; any substitution the hand can pay;
* ``UsePriest`` (H-CARD-7): listed with one source of knight; either source held;
* ``PlayYearOfPlenty`` (B-DEV-6), ``PlayInventor`` (CK-PC-4), ``PlaySmith`` (CK-PC-10): listed
  in one order; the same choice in another order is the same action;
* ``UseRobberBride()`` (H-CARD-5): each desert is listed; the desert left unnamed is the first;
* outcome fields (a chance result given instead of drawn): ``RollDice.dice``,
  ``BuyDevelopmentCard.card``, ``UseProfessors.card``, ``ExchangeFavour.drawn``,
  ``UseArchitect.seen``, the ``stolen`` card of ``MoveRobber``, ``MovePirate``, ``ChaseRobber``
  and ``PlayBishop``, the Alchemist's event die: listed as ``None``; a given outcome is accepted
  exactly when the action without it is and the outcome can happen (dice faces 1..6, a card the
  deck or the supply holds, a card the victim holds);
* ``UseNoblewoman.resource`` (H-CARD-8): the card named at once, the one-step form of saves written
  before the two steps (the player, then the card seen): listed as ``None``; a given card is accepted
  exactly when the action without it is and the victim holds it (judged as an outcome).

Figures (positions, candidates per variant, run time) are printed with ``-s``.  The default run
takes about a minute on one core; ``CATAN_NB_LEGAL_POSITIONS=<n>`` sets the positions per
variant (default 32) and ``CATAN_NB_LEGAL_SEEDS=<k>`` the games per variant (default 1).
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import time
import typing

import pytest
from test_properties import VARIANTS

from catan_nb import Board, Game
from catan_nb._codec import field_hints
from catan_nb.analysis import RandomBot, WeightedBot
from catan_nb.board import BOARDS_DIR
from catan_nb.constants import Commodity, DevCard, Good, Guild, HelperCard, Resource, registered_goods
from catan_nb.errors import IllegalActionError
from catan_nb.rules import ACTION_TYPES, Phase
from catan_nb.rules.actions import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    Discard,
    EndTurn,
    MoveRobber,
    OfferTrade,
    PlayYearOfPlenty,
    RollDice,
)
from catan_nb.rules.modules.fog import FOG_ISLANDS
from catan_nb.rules.modules.gold_fields import gold_board
from catan_nb.rules.modules.great_catan import GREAT_CATAN
from catan_nb.rules.modules.seafarers import ISLANDS, random_islands

#: Positions per variant (and games per variant); raise on demand.
POSITIONS = int(os.environ.get("CATAN_NB_LEGAL_POSITIONS", "32"))
SEEDS = int(os.environ.get("CATAN_NB_LEGAL_SEEDS", "1"))
#: A class with at most this many instances in a position is enumerated in full; others are sampled.
FULL = 1500
#: Sampled instances of a large class, besides the listed ones and their neighbours.
SAMPLE = 250
#: Listed actions of a class whose neighbours (one field changed) are all tried.
NEIGHBOURED = 6

FIGURES: dict[str, dict[str, float]] = {}

#: Outcome fields: a chance result, ``None`` in the listed actions (see the module docstring).
OUTCOMES = {
    "RollDice": "dice", "BuyDevelopmentCard": "card", "UseProfessors": "card", "ExchangeFavour": "drawn",
    "UseArchitect": "seen", "MoveRobber": "stolen", "MovePirate": "stolen", "ChaseRobber": "stolen",
    "PlayBishop": "stolen", "PlayAlchemist": "event", "UseNoblewoman": "resource",
}
NODE_FIELDS = {"node", "from_node", "to_node"}
PATH_FIELDS = {"path", "from_path", "to_path", "source", "target"}
HEX_FIELDS = {"hex", "to_hex", "from_hex", "desert"}
SEAT_FIELDS = {"victim", "partner", "to"}


# ------------------------------------------------------------------------------ positions
def variant_game(seed: int, spec: dict) -> Game:
    """The game of ``tests/test_properties.py``'s variant ``spec`` for ``seed`` (its board choice)."""
    variant = dict(spec)
    gold = variant.pop("gold", ())
    scenario = variant.pop("board", None)
    if scenario == "islands":
        board = Board.load(ISLANDS)
    elif scenario == "fog":
        board = Board.load(FOG_ISLANDS)
    elif scenario == "great_catan":
        board = Board.load(GREAT_CATAN)
    elif scenario == "harbours":
        board = Board.load(BOARDS_DIR / "seafarers_harbours.json")
    elif scenario in ("corsica", "new_york"):
        board = Board.load(BOARDS_DIR / f"{scenario}.json")
    elif scenario == "islands56":
        board = random_islands(seed, players=variant["players"])
    elif variant["start"] == "beginner":
        board = Board.beginner()
    else:
        board = Board.random(seed=seed, layout="five_six" if variant["players"] > 4 else "base")
    if gold:
        board = gold_board(board, *[h for h in gold if board.hexes[h].token])
    return Game(board, seed=seed, **variant)


@functools.lru_cache(maxsize=None)
def variant_positions(index: int, count: int = POSITIONS, seeds: int = SEEDS) -> tuple[Game, ...]:
    """About ``count`` positions per game of variant ``index``: the first two of every phase the game
    reaches, then positions spread evenly over the game (to its end, or 3000 actions), and *rich*
    copies of some in which building is allowed (see :func:`_rich`), so that builds, purchases and
    cards are tried in every kind of position."""
    out: list[Game] = []
    for s in range(seeds):
        seed = 1000 * s + index
        game = variant_game(seed, VARIANTS[index])
        rng = random.Random(seed)
        bots = [WeightedBot(rng.random()) if (seed + p) % 3 == 0 else RandomBot(rng.random(), offers=True)
                for p in range(game.n)]
        actions, first = [], []
        seen: dict[Phase, int] = {}
        while not game.is_over and len(actions) < 3000:  # the whole game once, to know its length
            if seen.get(game.phase, 0) < 2:
                seen[game.phase] = seen.get(game.phase, 0) + 1
                first.append(len(actions))
            actions.append(bots[game.current_player].choose(game))
            game.apply(actions[-1])
        spread = max(0, count - len(first))
        picks = set(first) | {round(k * len(actions) / spread) for k in range(1, spread)} | {len(actions)}
        game = variant_game(seed, VARIANTS[index])  # the same game again, copied at the picks
        for i in range(len(actions) + 1):
            if i in picks:
                out.append(game.copy())
                if game.phase.builds and rng.random() < 0.5:
                    out.append(_rich(game.copy()))
            if i < len(actions):
                game.apply(actions[i])
    return tuple(out)


def _rich(game: Game) -> Game:
    """``game`` with the player to act holding 3 of each good the bank has and, with the base
    deck, one development card of each kind from the deck, bought before this turn; with
    Seafarers, the pirate moved beside a path where the player could build a ship."""
    p = game.current_player
    game.deal(p, [min(3, k) for k in game.bank])
    if any(m.name == "development" for m in game.modules):
        for c in range(len(game.deck)):
            if game.deck[c]:
                game.deck[c] -= 1
                game.dev[p][c] += 1
    if "seafarers" in game.ext:  # the pirate beside a path where a ship could go (SF-11)
        t = game.topology
        sites = set(game.candidates(p, "ship"))
        near = [h for h in range(t.n_hexes) if not t.hex_land[h] and sites & set(t.hex_edges[h])]
        if near:
            game.ext["seafarers"]["pirate"] = near[len(near) // 2]
    return game


@functools.lru_cache(maxsize=1)
def rare_positions() -> tuple[Game, ...]:
    """The decisions random games seldom reach (from the fuzzer: CK-BAR-2, CK-IMP-4, CK-PC-*, ERIE-5),
    and positions set up so that the combinatorial actions have many forms (:func:`crafted_positions`)."""
    from test_fuzz_actions import _rare_positions

    return tuple(_rare_positions()) + crafted_positions()


def _main(game: Game) -> Game:
    """Play on (the first legal action, quiet rolls) to the main phase after the founding."""
    while game.phase is not Phase.MAIN:
        acts = game.legal_actions()
        rolls = [a for a in acts if isinstance(a, RollDice)]
        game.play(RollDice(dice=(1, 1) + (4,) * (game.n_dice - 2)) if rolls else acts[0])
    return game


def crafted_positions() -> tuple[Game, ...]:
    """Positions where each combinatorial action has many forms: every helper in hand with a rich
    hand and knights (H-CARD-*); favours of every guild (F-GUILD-*); canal tokens on both sides
    (ERIE-5); Cities & Knights with every progress card in hand, knights of every level and the
    robber free to be chased (CK-KN-*, CK-PC-*); a knight retreating (CK-KN-6); a fifth progress
    card to give back (CK-PROG-2); ships that may move (SF-9)."""
    from catan_nb.rules import Rules

    out: list[Game] = []
    for card in HelperCard:  # H-CARD-1..9
        g = _main(Game(Board.beginner(), players=4, seed=card.value, start="beginner",
                       rules=Rules(modules=("helpers",))))
        st = g.ext["helpers"]
        q = st["held"].index(card.value) if card.value in st["held"] else None
        if q is not None:
            st["held"][q] = st["held"][0]
        else:
            st["display"][st["display"].index(card.value)] = st["held"][0]
        st["held"][0], st["side"][0] = card.value, "A"
        g.deal(1, [2, 0, 1, 0, 0])
        g.deal(2, [0, 1, 0, 2, 1])
        g.place(1, "city", sorted(g.placed[g.kind_id["settlement"]][1])[0])  # ahead on VP (H-CARD-8)
        g.robber = next(h for h in range(g.topology.n_hexes) if g.hex_token[h])  # off the desert (H-CARD-5)
        for c in (DevCard.KNIGHT.value, DevCard.KNIGHT.value):
            g.deck[c] -= 1
            g.dev[0][c] += 1
        g.deck[DevCard.KNIGHT.value] -= 1
        g.knights[0] += 1
        out.append(_rich(g.copy()))
        g.deal(0, [1, 0, 1, 1, 0])  # a short hand: the substitutions are what is left
        out.append(g)
    g = _main(Game(Board.beginner(), players=4, seed=3, start="beginner", rules=Rules(modules=("friends",))))
    st = g.ext["friends"]
    for guild in Guild:  # F-GUILD-1..5, F-USE-6
        k = min(2, st["supply"][guild.value])
        st["supply"][guild.value] -= k
        st["tokens"][0][guild.value] += k
    out.append(_rich(g))
    from catan_nb.rules.modules.corsica_new_york import NEW_YORK

    g = _main(Game(Board.load(NEW_YORK), players=4, seed=3, rules=Rules(modules=("corsica_new_york", "erie_canal"))))
    st = g.ext["erie_canal"]
    st["tokens"][0], st["tokens"][1], st["supply"] = 2, 3, 7
    g.deal(0, [2, 1, 1, 0, 1])
    out.append(g)
    out.extend(_ck_positions())
    from catan_nb.rules.modules.seafarers import BuildShip

    g = Game(Board.load(ISLANDS), players=3, seed=4, rules=Rules(modules=("seafarers",)))
    while g.phase in (Phase.FOUNDING_SETTLEMENT, Phase.FOUNDING_ROAD):
        acts = g.legal_actions()
        g.play(next((a for a in acts if isinstance(a, BuildShip)), acts[0]))
    for _ in range(3):  # a few turns with ships built, then a turn in which they may move (SF-9)
        _main(g)
        g.deal(g.current_player, [2, 0, 2, 0, 0])
        for _ in range(2):
            ships = [a for a in g.legal_actions() if isinstance(a, BuildShip)]
            if ships:
                g.play(ships[-1])
        g.play(EndTurn())
    out.append(_main(g))
    return tuple(out)


def _ck_positions() -> list[Game]:
    from test_fuzz_actions import give_progress

    from catan_nb.rules import Rules
    from catan_nb.rules.modules import cities_knights as ck

    def fresh(seed: int) -> Game:
        return _main(Game(Board.beginner(), players=4, seed=seed, start="beginner",
                          rules=Rules(modules=("cities_knights",))))

    def knight(g: Game, p: int, v: int, level: int, active: bool) -> None:
        g.place(p, "knight", v)
        g.ext[ck.NAME]["knights"].append([v, p, level, active, False, False])
        g.ext[ck.NAME]["knights"].sort()

    out = []
    g = fresh(21)
    st = g.ext[ck.NAME]
    st["attacks"] = 1  # after the first attack: the robber may be chased (CK-BAR-4)
    st["levels"][0] = [3, 3, 3]  # the Fortress (CK-KN-3), the Trading House, the Aqueduct
    t = g.topology
    for p in range(4):
        for e in sorted(g.roads[p])[:2]:  # roads to stand on
            for v in t.edge_nodes[e]:
                for f in t.node_edges[v]:
                    if g.edge_owner[f] < 0 and t.edge_land[f] and len(g.roads[p]) < 8:
                        g.place(p, "road", f)
    for p, levels in ((0, (1, 2, 3, 1)), (1, (1, 2)), (2, (1,))):
        for level, v in zip(levels, g.candidates(p, "knight")[::2]):
            knight(g, p, v, level, True)
    robbed = next(h for r in ck.knights(g, 0) for h in t.node_hexes[r[0]] if t.hex_land[h])
    g.robber = robbed
    g.place(0, "city", sorted(g.placed[g.kind_id["settlement"]][0])[0])
    for c in ck.progress_cards() if hasattr(ck, "progress_cards") else progress_cards():
        if c not in ck.VP_PROGRESS and c not in g.ext[ck.NAME]["hands"][0]:
            give_progress(g, 0, c)
    give_progress(g, 1, "spy")
    g.deal(1, [1, 1, 0, 0, 0, 1, 0, 0])
    out.append(_rich(g))
    g = fresh(22)  # a knight displaced by the Intrigue retreats (CK-KN-6)
    v = g.candidates(1, "knight")[0]
    knight(g, 1, v, 2, True)
    g.place(0, "road", next(e for e in t.node_edges[v] if g.edge_owner[e] < 0 and t.edge_land[e])) \
        if v not in g.road_nodes[0] else None
    if v in g.road_nodes[0]:
        give_progress(g, 0, "intrigue")
        g.play(ck.PlayIntrigue(v))
        out.append(g)
    g = fresh(23)  # a fifth progress card (CK-PROG-2)
    for c in ("crane", "mining", "smith", "medicine", "bishop"):
        give_progress(g, 0, c)
    g.push(ck.RETURN_PROGRESS, 0)
    out.append(g)
    return out


# ------------------------------------------------------------------------------ field domains
def _members(hint) -> list:
    """Values of an enum hint, or of a union of enums (with ``None`` if optional)."""
    args = typing.get_args(hint) or (hint,)
    out: list = []
    for a in args:
        if a is type(None):
            out.append(None)
        elif a is Good:
            out.extend(registered_goods())
        elif isinstance(a, type) and hasattr(a, "__members__"):
            out.extend(a)
    return out


def _optional(hint) -> bool:
    return type(None) in typing.get_args(hint)


def progress_cards() -> list[str]:
    from catan_nb.rules.modules.cities_knights import DECKS

    return sorted({c for d in DECKS.values() for c in d})


def domain(game: Game, cls: type, name: str, hint) -> list:
    """Every value worth trying for one field (the out-of-range ones around the board's ids too)."""
    t = game.topology
    opt = [None] if _optional(hint) else []
    if name in NODE_FIELDS:
        return list(range(-1, t.n_nodes + 1)) + opt
    if name in PATH_FIELDS:
        return list(range(-1, t.n_edges + 1)) + opt
    if name in HEX_FIELDS or (cls.__name__ == "PlayInventor" and name in ("first", "second")):
        return list(range(-1, t.n_hexes + 1)) + opt
    if name in SEAT_FIELDS:
        return list(range(-1, game.n + 1)) + opt
    if name in ("red", "yellow"):
        return list(range(0, 8))
    if name == "tokens":
        return [-3, -2, -1, 0, 1, 2, 3]
    if hint is bool:
        return [False, True]
    if hint is str:
        if name == "build":
            return ["settlement", "city", "road", "knight"]
        return progress_cards() + ["nope"]
    members = _members(hint)
    if members:
        return members
    raise AssertionError(f"no domain for {cls.__name__}.{name}: {hint}")


def _counts_upto(limits: list[int], total: int, cap: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Count vectors ``c`` with ``c[i] <= limits[i]`` and ``sum(c) <= total``: all if few, else a sample."""
    n = 1
    for k in limits:
        n *= min(k, total) + 1
    if n <= cap:
        return [c for c in itertools.product(*[range(min(k, total) + 1) for k in limits]) if sum(c) <= total]
    out = set()
    for _ in range(cap):
        left = rng.randint(0, total)
        c = [0] * len(limits)
        order = list(range(len(limits)))
        rng.shuffle(order)
        for i in order:
            k = rng.randint(0, min(limits[i], left))
            c[i] = k
            left -= k
        out.add(tuple(c))
    return sorted(out)


def _units(width: int) -> list[tuple[int, ...]]:
    return [tuple(int(i == g) for i in range(width)) for g in range(width)]


def counts_domain(game: Game, cls: type, rng: random.Random) -> list[tuple[int, ...]]:
    """Counts per good for a discard, a gift, the Master Merchant's take or a canal offer."""
    G = game.n_goods
    base = [(0,) * G, (1,) * G, (0,) * (G - 1), (1,) + (0,) * G, (-1,) + (0,) * (G - 1)] + _units(G)
    top = game.stack[-1]
    if cls.__name__ == "Discard" and top.phase is Phase.DISCARD:
        h = game.hands[top.player]
        return base + _counts_upto([k + 1 for k in h], top.data + 1, 600, rng)
    if cls.__name__ == "GiveGoods" and top.phase.value == "wedding":
        h = game.hands[top.player]
        return base + _counts_upto([k + 1 for k in h], top.data + 1, 600, rng)
    if cls.__name__ == "TakeGoods" and top.phase.value == "master_merchant":
        h = game.hands[top.data]
        return base + _counts_upto([k + 1 for k in h], 3, 600, rng)
    if cls.__name__ == "OfferCanal":
        h = game.hands[game.active_player]
        return base + _counts_upto([k + 1 for k in h], 3, 40, rng)
    return base


# ------------------------------------------------------------------------------ the universe
def _build(cls: type, kwargs: dict):
    try:
        return cls(**kwargs)
    except Exception:  # a constructor may refuse a value: build it raw, as a careless caller could
        obj = object.__new__(cls)
        for k, v in kwargs.items():
            object.__setattr__(obj, k, v)
        return obj


def game_classes(game: Game) -> frozenset[type]:
    """The action classes this game plays (the base game's and its modules')."""
    return _classes(tuple(game.modules))


@functools.lru_cache(maxsize=None)
def _classes(modules: tuple) -> frozenset[type]:
    out = {BuildSettlement, BuildRoad, BuildCity, RollDice, EndTurn}
    for m in modules:
        out.update(m.actions)
    return frozenset(out)


def universe(game: Game, listed: list, rng: random.Random) -> list:
    """Candidate actions for ``game`` (see the module docstring); duplicates removed, order kept."""
    out: list = list(listed)
    by_class: dict[type, list] = {}
    for a in listed:
        by_class.setdefault(type(a), []).append(a)
    mine = game_classes(game)
    for cls in sorted(set(ACTION_TYPES.values()), key=lambda c: c.__name__):
        special = _special(game, cls, rng)
        if special is not None:
            out.extend(special if cls in mine else special[:3])
            continue
        names, domains = [], []
        for name, hint in field_hints(cls):
            if OUTCOMES.get(cls.__name__) == name:
                continue  # outcomes: None here, tried on their own below
            names.append(name)
            domains.append(domain(game, cls, name, hint))
        if cls not in mine:  # refused as not an action of this game: one instance is enough
            out.append(_build(cls, {n: d[min(1, len(d) - 1)] for n, d in zip(names, domains)}))
            continue
        size = 1
        for d in domains:
            size *= len(d)
        if size <= FULL:
            out.extend(_build(cls, dict(zip(names, combo))) for combo in itertools.product(*domains))
            continue
        seeds = by_class.get(cls, [])
        for a in rng.sample(seeds, min(NEIGHBOURED, len(seeds))):  # near neighbours: one field over its domain
            for i, name in enumerate(names):
                for v in domains[i]:
                    kw = {n: getattr(a, n) for n in names}
                    kw[name] = v
                    out.append(_build(cls, kw))
        for _ in range(SAMPLE):
            out.append(_build(cls, {n: rng.choice(d) for n, d in zip(names, domains)}))
        focused = [_focus(game, name, d, rng) if i == 0 or name == "hex" else d
                   for i, (name, d) in enumerate(zip(names, domains))]
        if all(f is d for f, d in zip(focused, domains)):
            continue
        size = 1
        for d in focused:
            size *= len(d)
        if size <= 4 * FULL:  # the mover's own pieces (or the robber's hex), every target
            out.extend(_build(cls, dict(zip(names, combo))) for combo in itertools.product(*focused))
        else:
            out.extend(_build(cls, {n: rng.choice(d) for n, d in zip(names, focused)}) for _ in range(2 * SAMPLE))
    out.extend(outcome_variants(game, listed, rng))
    seen, unique = set(), []
    for a in out:
        key = (type(a), tuple(repr(getattr(a, n)) for n, _ in field_hints(type(a))))
        if key not in seen:
            seen.add(key)
            unique.append(a)
    return unique


def _focus(game: Game, name: str, values: list, rng: random.Random) -> list:
    """The values of a field where the player to act has a piece (the source of a move: a ship, a
    road, a knight), or the robber's hex; a random other value besides."""
    p = game.current_player
    if name in PATH_FIELDS:
        mine = [e for e in range(game.topology.n_edges) if game.edge_owner[e] == p]
    elif name in NODE_FIELDS:
        mine = [v for v in range(game.topology.n_nodes) if game.node_owner[v] == p]
    elif name == "hex":
        mine = [game.robber]
    else:
        return values
    return mine + [rng.choice(values)]


def _special(game: Game, cls: type, rng: random.Random) -> list | None:
    """Candidates of the classes with tuple fields (counts, seats, swaps, knights), or None."""
    name = cls.__name__
    G, n = game.n_goods, game.n
    if name in ("Discard", "GiveGoods", "TakeGoods"):
        return [cls(c) for c in counts_domain(game, cls, rng)]
    if name == "OfferTrade":
        p = game.active_player
        h = game.hands[p]
        gives = _counts_upto([k + 1 for k in h], 3, 60, rng) + [(0,) * (G - 1), (1,) * (G + 1)]
        gets = _counts_upto([3] * G, 3, 60, rng) + _units(G)
        out = [OfferTrade(a, b) for a in _units(G) for b in _units(G)]
        out += [OfferTrade(rng.choice(gives), rng.choice(gets)) for _ in range(150)]
        return out
    if name == "OfferCanal":
        cards = counts_domain(game, cls, rng)
        return [cls(q, k, c) for q in range(-1, n + 1) for k in (-2, -1, 0, 1, 2) for c in cards
                if rng.random() < 0.25 or sum(c) == 1 and q >= 0 and k in (-1, 1)]
    if name == "UseMerchants":
        one = [(g, r) for g in Resource for r in Resource]
        out = [cls((s,)) for s in one] + [cls(()), cls((one[1], one[2], one[3]))]
        pairs = [(a, b) for a in one for b in one]
        out += [cls(s) for s in (pairs if _merchants_context(game) else rng.sample(pairs, 20))]
        return out
    if name == "UseMerchantHelper":
        seats = list(range(n))
        players = [(q,) for q in [-1, *seats, n]] + [(q, r) for q in seats for r in seats] + [(), (0, 1, 2)]
        full = _helper_usable(game, HelperCard.MERCHANT)
        out = []
        for res in Resource:
            for ps in players:
                backs = list(itertools.product(Resource, repeat=len(ps))) or [()]
                if not full:
                    backs = rng.sample(backs, min(2, len(backs)))
                out.extend(cls(res, ps, b) for b in backs)
        out.append(cls(Resource.ORE, (1,), ()))
        return out if full else rng.sample(out, 60)
    if name == "PlaySmith":
        from catan_nb.rules.modules.cities_knights import knights

        nodes = ([r[0] for r in knights(game)] if "cities_knights" in game.ext else []) + [0, -1]
        out = [cls((v,)) for v in nodes] + [cls((v, w)) for v in nodes for w in nodes] + [cls(()), cls(tuple(nodes[:3]))]
        return out
    return None


def outcome_variants(game: Game, listed: list, rng: random.Random) -> list:
    """Listed actions with their outcome given (possible ones and impossible ones)."""
    out = []
    G = game.goods
    for a in listed:
        name = type(a).__name__
        field = OUTCOMES.get(name)
        if field is None or getattr(a, field) is not None:
            continue
        kw = {f: getattr(a, f) for f, _ in field_hints(type(a))}
        if name == "RollDice":
            k = game.n_dice
            values = [tuple(rng.randint(1, 6) for _ in range(k)) for _ in range(3)]
            values += [(0,) * k, (7,) + (1,) * (k - 1), (1,) * (k + 1), (1,) * (k - 1)]
        elif field == "stolen" and name != "PlayBishop":
            values = list(Resource) + list(Commodity)
        elif name == "PlayBishop":
            victims = _bishop_victims(game, a.hex)
            values = [tuple(rng.choice(G) for _ in victims) for _ in range(4)] + [(), tuple(G[:len(victims) + 1])]
            values += [tuple(_held(game, q, rng) for q in victims)]
        elif name == "PlayAlchemist":
            values = [0, 1, 3, 4, 5, 6, 7]
        elif name == "UseNoblewoman":
            values = list(Resource)
        elif name in ("BuyDevelopmentCard", "UseProfessors"):
            values = list(DevCard)
        elif name == "ExchangeFavour":
            values = list(Guild)
        else:  # UseArchitect
            deck = [DevCard(c) for c, k in enumerate(game.deck) for _ in range(k)]
            values = [tuple(rng.sample(deck, min(3, len(deck)))) for _ in range(3)] if deck else []
            values += [(DevCard.KNIGHT,) * 4, (DevCard.VICTORY_POINT,) * 3, ()]
        for v in values:
            kw2 = dict(kw)
            kw2[field] = v
            out.append(_build(type(a), kw2))
    return out


def _held(game: Game, q: int, rng: random.Random):
    h = game.hands[q]
    goods = [g for g, k in zip(game.goods, h) for _ in range(k)]
    return rng.choice(goods) if goods else game.goods[0]


# ------------------------------------------------------------------------------ the own rules
def _trade_open(game: Game) -> bool:
    """B-TRADE-1, B-TURN-2, B-TURN-3: the active player's trade phase."""
    return (game.phase is Phase.MAIN and game.current_player == game.active_player
            and (not game.built_this_turn or game.rules.combined_trade_build))


def _is_counts(game: Game, c) -> bool:
    return (isinstance(c, tuple) and len(c) == game.n_goods
            and all(type(k) is int and k >= 0 for k in c))


def _within(c, hand) -> bool:
    return all(k <= h for k, h in zip(c, hand))


def _helper_usable(game: Game, card: HelperCard) -> bool:
    """H-USE-1, 4, 7, 8, 9: ``card`` held by the active player, usable in its own turn now."""
    if "helpers" not in game.ext:
        return False
    st = game.ext["helpers"]
    p = game.current_player
    return (game.phase in (Phase.ROLL, Phase.MAIN) and p == game.active_player and st["held"][p] == card.value
            and not st["fresh"][p] and not st["used"][p])


def _merchants_context(game: Game) -> bool:
    """F-USE-1, 3, 4: the Merchants' guild may be used now."""
    if "friends" not in game.ext:
        return False
    st = game.ext["friends"]
    p = game.active_player
    return (game.phase in (Phase.ROLL, Phase.MAIN) and game.current_player == p and not st["used"]
            and st["tokens"][p][Guild.MERCHANTS.value] - st["fresh"][p][Guild.MERCHANTS.value] >= 1)


def _bishop_victims(game: Game, hx) -> list[int]:
    p = game.current_player
    return [q for q in game.hex_players(hx) if q != p and any(game.hands[q])]


def _pay(hand, cost, replace, pay_with, allowed) -> bool:
    """A price with one substitute (H-CARD-2, H-CARD-9) is payable from ``hand``."""
    cost = list(cost)
    if (replace is None) != (pay_with is None):
        return False
    if replace is not None:
        if not isinstance(replace, Resource) or not isinstance(pay_with, Resource):
            return False
        if replace.value not in allowed or cost[replace.value] == 0:
            return False
        cost[replace.value] -= 1
        cost[pay_with.value] += 1
    return all(hand[i] >= cost[i] for i in range(len(cost)))


def expected(game: Game, a, listed: set) -> tuple[bool, str]:
    """Whether ``play`` must accept ``a``, and by what (``"listed"`` or the own rule's id)."""
    name = type(a).__name__
    field = OUTCOMES.get(name)
    if field is not None and getattr(a, field) is not None:
        return _outcome_rule(game, a, listed, field)
    if a in listed:
        return True, "listed"
    rule = OWN_RULES.get(name)
    if rule is None or type(a) not in game_classes(game):
        return False, "listed"
    verdict = rule(game, a, listed)
    return (False, "listed") if verdict is None else verdict


def _outcome_rule(game: Game, a, listed: set, field: str) -> tuple[bool, str]:
    name = type(a).__name__
    v = getattr(a, field)
    kw = {f: getattr(a, f) for f, _ in field_hints(type(a))}
    kw[field] = None
    plain = type(a)(**kw)
    ok, why = expected(game, plain, listed)
    if not ok:
        return False, why
    if name == "RollDice":
        return (isinstance(v, tuple) and len(v) == game.n_dice and all(type(d) is int and 1 <= d <= 6 for d in v),
                "B-PROD-1")
    if name == "PlayAlchemist":
        return type(v) is int and 1 <= v <= 6, "CK-PC-1"
    if name in ("BuyDevelopmentCard", "UseProfessors", "UseArchitect"):
        if name == "UseArchitect":
            need = [0] * len(game.deck)
            for c in v:
                need[c.value] += 1
            return len(v) == min(3, sum(game.deck)) and all(k <= d for k, d in zip(need, game.deck)), "H-CARD-9"
        return game.deck[v.value] > 0, "B-COMP-6"
    if name == "ExchangeFavour":
        return game.ext["friends"]["supply"][v.value] > 0, "F-USE-6"
    if name == "PlayBishop":
        victims = _bishop_victims(game, a.hex)
        return (len(v) == len(victims) and all(g in game.goods and game.hands[q][game.good_index(g)]
                                               for q, g in zip(victims, v)), "B-ROB-7")
    # a stolen card, or the Noblewoman's card named at once (H-CARD-8): the victim holds it (B-ROB-7)
    return (a.victim is not None and v in game.goods and game.hands[a.victim][game.good_index(v)] > 0, "B-ROB-7")


def _rule_discard(game, a, listed):
    top = game.stack[-1]
    if top.phase is not Phase.DISCARD or not _is_counts(game, a.cards):
        return None
    return 1 <= sum(a.cards) <= top.data and _within(a.cards, game.hands[top.player]), "B-ROB-2"


def _rule_gift(game, a, listed):
    top = game.stack[-1]
    if top.phase.value != "wedding" or not _is_counts(game, a.cards):
        return None
    return 1 <= sum(a.cards) <= top.data and _within(a.cards, game.hands[top.player]), "CK-PC-18"


def _rule_offer(game, a, listed):
    if not _trade_open(game):
        return None
    give, get = a.give, a.get
    ok = (_is_counts(game, give) and _is_counts(game, get) and sum(give) > 0 and sum(get) > 0
          and not any(x and y for x, y in zip(give, get)) and _within(give, game.hands[game.active_player]))
    return ok, "B-TRADE-2..5"


def _rule_canal(game, a, listed):
    if not _trade_open(game):
        return None
    st = game.ext["erie_canal"]
    p, q, k = game.active_player, a.partner, a.tokens
    if type(q) is not int or not 0 <= q < game.n or q == p or type(k) is not int or k == 0:
        return False, "ERIE-5"
    if not _is_counts(game, a.cards) or sum(a.cards) == 0:
        return False, "ERIE-5"
    seller = p if k > 0 else q
    ok = st["tokens"][seller] >= abs(k) and (k > 0 or _within(a.cards, game.hands[p]))
    return ok, "ERIE-5"


def _rule_merchants(game, a, listed):
    if not _merchants_context(game):
        return None
    swaps = a.swaps
    if not isinstance(swaps, tuple) or not 1 <= len(swaps) <= 2:
        return False, "F-GUILD-1"
    hand, bank = list(game.hands[game.active_player]), list(game.bank)
    for give, get in swaps:
        if give == get or hand[give.value] == 0 or bank[get.value] == 0:
            return False, "F-GUILD-1"
        hand[give.value] -= 1
        bank[give.value] += 1
        hand[get.value] += 1
        bank[get.value] -= 1
    return True, "F-GUILD-1"


def _rule_merchant_helper(game, a, listed):
    if not _helper_usable(game, HelperCard.MERCHANT):
        return None
    p = game.active_player
    players, back = a.players, a.give_back
    if not 1 <= len(players) <= 2 or len(set(players)) != len(players) or len(back) != len(players):
        return False, "H-CARD-1"
    hand = list(game.hands[p])
    r = a.resource.value
    for q, b in zip(players, back):
        if not 0 <= q < game.n or q == p:
            return False, "H-CARD-1"
        if game.hands[q][r]:  # a player without the resource gives nothing, and gets nothing back
            hand[r] += 1
            if hand[b.value] == 0:
                return False, "H-CARD-1"
            hand[b.value] -= 1
    return True, "H-CARD-1"


def _rule_mendicant(game, a, listed):
    if not _helper_usable(game, HelperCard.MENDICANT) or game.phase is not Phase.MAIN:
        return None
    p = game.active_player
    from catan_nb.constants import COSTS

    ok = (game.pieces_left(p)["road"] > 0 and a.path in game.candidates(p, "road")
          and _pay(game.hands[p], COSTS["road"], a.replace, a.pay_with, (0, 1)))
    return ok, "H-CARD-2"


def _rule_architect(game, a, listed):
    if not _helper_usable(game, HelperCard.ARCHITECT) or game.phase is not Phase.MAIN:
        return None
    from catan_nb.constants import COSTS

    ok = any(game.deck) and _pay(game.hands[game.active_player], COSTS["development_card"], a.replace, a.pay_with,
                                 (2, 3, 4))
    return ok, "H-CARD-9"


def _rule_priest(game, a, listed):
    if not _helper_usable(game, HelperCard.PRIEST) or game.phase is not Phase.MAIN:
        return None
    from catan_nb.rules.modules.helpers import PRIEST_COST

    p = game.active_player
    if a.build not in PRIEST_COST or type(a.node) is not int:
        return False, "H-CARD-7"
    source = game.knights[p] if a.played else game.dev[p][DevCard.KNIGHT.value]
    ok = (source > 0 and game.pieces_left(p)[a.build] > 0 and a.node in game.candidates(p, a.build)
          and all(h >= c for h, c in zip(game.hands[p], PRIEST_COST[a.build])))
    return ok, "H-CARD-7"


def _rule_reordered(game, a, listed):
    """The same choice written in another order (B-DEV-6, CK-PC-4, CK-PC-10)."""
    name = type(a).__name__
    if name == "PlayYearOfPlenty":
        if not (isinstance(a.first, Resource) and isinstance(a.second, Resource)):
            return None
        other = PlayYearOfPlenty(a.second, a.first)
    elif name == "PlayInventor":
        other = type(a)(a.second, a.first)
    else:  # PlaySmith
        if not isinstance(a.nodes, tuple) or len(a.nodes) != 2:
            return None
        other = type(a)(a.nodes[::-1])
    return (other in listed, "listed in another order") if other in listed else None


def _rule_bride(game, a, listed):
    """``UseRobberBride()``: the desert left unnamed is the board's first (H-CARD-5; its docstring)."""
    if a.desert is not None:
        return None
    from catan_nb.constants import Terrain

    deserts = [h for h, t in enumerate(game.hex_terrain) if t is Terrain.DESERT]
    return (bool(deserts) and type(a)(deserts[0]) in listed), "H-CARD-5"


OWN_RULES = {
    "Discard": _rule_discard, "GiveGoods": _rule_gift, "OfferTrade": _rule_offer, "OfferCanal": _rule_canal,
    "UseMerchants": _rule_merchants, "UseMerchantHelper": _rule_merchant_helper,
    "BuildRoadWithMendicant": _rule_mendicant, "UseArchitect": _rule_architect, "UsePriest": _rule_priest,
    "PlayYearOfPlenty": _rule_reordered, "PlayInventor": _rule_reordered, "PlaySmith": _rule_reordered,
    "UseRobberBride": _rule_bride,
}

#: Disagreements other engineers are fixing (issue 24): (predicate on game and action, issue item).
KNOWN: list[tuple[typing.Callable, str]] = []


def _known(game: Game, a) -> str | None:
    for pred, item in KNOWN:
        if pred(game, a):
            return item
    return None


# ------------------------------------------------------------------------------ the check
def check_position(base: Game, rng: random.Random, counts: dict) -> list[str]:
    """Every candidate of ``base``'s universe: accepted on a copy exactly when expected."""
    problems: list[str] = []
    listed_list = base.legal_actions(offers=True) if not base.is_over else []
    listed = set(listed_list)
    assert len(listed) == len(listed_list), f"duplicates in legal_actions: {base.phase.value}"
    plain = set(base.legal_actions()) if not base.is_over else set()
    offers = {a for a in listed if type(a).__name__ in ("OfferTrade", "OfferCanal")}
    if plain != listed - offers:  # ``offers=True`` adds the domestic offers and nothing else
        problems.append(f"{base.phase.value}: legal_actions() and legal_actions(offers=True) differ beyond "
                        f"offers: {sorted(map(repr, plain ^ (listed - offers)))[:4]}")
    before = base.state()
    work = base.copy()
    refused: list = []
    for a in universe(base, listed_list, rng):
        want, why = expected(base, a, listed)
        rule = OWN_RULES.get(type(a).__name__)
        if want and why == "listed" and rule is not None:
            verdict = rule(base, a, listed)
            if verdict is not None and not verdict[0]:
                problems.append(f"{base.phase.value}: {a!r} listed but refused by its own rule {verdict[1]}")
        counts["candidates"] += 1
        if want:
            counts["accepted"] += 1
            g2 = base.copy()
            try:
                g2.play(a)
            except IllegalActionError as exc:
                item = _known(base, a)
                if item:
                    counts["known"] += 1
                    continue
                problems.append(f"{base.phase.value}: {a!r} ({why}) refused: {exc}")
            except Exception as exc:  # noqa: BLE001 - any other exception is a failure
                problems.append(f"{base.phase.value}: {a!r} ({why}) raised {type(exc).__name__}: {exc}")
            continue
        try:
            work.play(a)
        except IllegalActionError as exc:
            if not exc.rule:
                problems.append(f"{base.phase.value}: {a!r} refused without a rule id: {exc}")
            refused.append(a)
            continue
        except Exception as exc:  # noqa: BLE001
            problems.append(f"{base.phase.value}: {a!r} raised {type(exc).__name__}: {exc}")
            work = base.copy()
            continue
        item = _known(base, a)
        if item:
            counts["known"] += 1
        else:
            problems.append(f"{base.phase.value} (seat {base.current_player}): {a!r} accepted but not "
                            f"{'listed' if why == 'listed' else 'allowed by ' + why}")
        work = base.copy()
    counts["refused"] += len(refused)
    if work.state() != before:  # some refusal changed the game: find which
        for a in refused:
            g2 = base.copy()
            try:
                g2.play(a)
            except IllegalActionError:
                pass
            if g2.state() != before:
                problems.append(f"{base.phase.value}: {a!r} refused but the game changed")
    return problems


def run_positions(positions: list[Game], label: str, seed: int) -> list[str]:
    counts = {"positions": 0, "candidates": 0, "accepted": 0, "refused": 0, "known": 0}
    start = time.perf_counter()
    problems: list[str] = []
    for i, g in enumerate(positions):
        counts["positions"] += 1
        for msg in check_position(g, random.Random(seed * 100_003 + i), counts):
            problems.append(f"[{label} #{i} log {len(g.log)}] {msg}")
    counts["seconds"] = round(time.perf_counter() - start, 2)
    FIGURES[label] = counts
    return problems


# ------------------------------------------------------------------------------ tests
def _variant_label(i: int) -> str:
    v = VARIANTS[i]
    mods = "+".join(v["rules"].modules) or "base"
    return f"{i}:{v['players']}p-{mods}-{v.get('board', v['start'])}"


@pytest.mark.parametrize("index", range(len(VARIANTS)), ids=_variant_label)
def test_legal_actions_are_what_play_accepts(index):
    """Issue 24: in positions of every variant, ``play`` accepts a candidate exactly when it is listed
    (or allowed by its own rule where the listing is partial; see the module docstring)."""
    problems = run_positions(list(variant_positions(index)), _variant_label(index), index)
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:40])


def test_legal_actions_are_what_play_accepts_in_rare_positions():
    """The same in the decisions random games seldom reach (progress cards, a canal offer, ...)."""
    problems = run_positions(list(rare_positions()), "rare", 99)
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:40])


def test_positions_cover_every_phase_the_modules_use():
    """The positions reach every decision phase of the modules in play (steps are never waited in)."""
    games = [g for i in range(len(VARIANTS)) for g in variant_positions(i)] + list(rare_positions())
    owners = {"base"} | {m.name for g in games for m in g.modules}
    decisions = {p for p in Phase if p.step is None and p.owner in owners}
    covered = {g.phase for g in games}
    assert decisions <= covered, sorted(p.value for p in decisions - covered)


def test_report_figures():
    """Print the figures of this run (shown with ``-s``)."""
    total = {"positions": 0, "candidates": 0, "seconds": 0.0}
    for label, c in FIGURES.items():
        print(f"{label}: {c}")
        for k in total:
            total[k] += c[k]
    print(f"total: {total}")

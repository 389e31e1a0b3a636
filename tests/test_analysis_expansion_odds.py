"""The expansions' dice and chance (catan_nb.analysis.expansion_odds, barbarians), each exact figure
checked against the rule engine itself: every dice outcome rolled on a copy of a game (brute force
over the 216 outcomes of the three Cities & Knights dice, or the 36 of two dice), every order of the
fog stack, and seeded whole-game runs within a Wilson interval."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import numpy as np
import pytest

from catan_nb import Board, Game
from catan_nb.analysis import (
    aqueduct_odds,
    cities_knights_dice,
    event_die_distribution,
    fog_resource_within,
    fog_reveals_odds,
    fog_token_odds,
    gold_odds,
    improvement_levels,
    progress_draws_observed,
    progress_odds,
)
from catan_nb.analysis.barbarians import (
    SHIP_CHANCE,
    arrival_distribution,
    arrival_negative_binomial,
    attack_within,
    expected_rolls,
    rolls_for_chance,
    track_position,
)
from catan_nb.analysis.probability import estimate_proportion
from catan_nb.analysis.seafarers import fog_odds, fog_resource_odds, fog_tiles, resource_name
from catan_nb.constants import Resource, Terrain, roll_probability
from catan_nb.rules import EndTurn, Phase, RollDice, Rules
from catan_nb.rules.modules.cities_knights import (
    AQUEDUCT,
    BARBARIAN_TRACK,
    DECKS,
    EVENT_FACES,
    MAX_LEVEL,
    TRACKS,
    Track,
)
from catan_nb.rules.modules.fog import FOG_ISLANDS
from catan_nb.rules.modules.gold_fields import GOLD_PICK, gold_board, gold_production

CK = Rules(modules=("cities_knights",))
CK_DICE = list(product(range(1, 7), range(1, 7), EVENT_FACES))
TWO_DICE = list(product(range(1, 7), range(1, 7)))
TRACK_OF = {card: t for t in TRACKS for card in DECKS[t]}


def ck_game(seed: int = 1, board: Board | None = None, modules=("cities_knights",)) -> Game:
    """A Cities & Knights game at its first roll (the beginner start), every hand empty."""
    g = Game(board or Board.beginner(), players=4, seed=seed, start="beginner", rules=Rules(modules=modules))
    assert g.phase is Phase.ROLL
    for h in g.hands:
        for i, k in enumerate(h):
            g.bank[i] += k
            h[i] = 0
    return g


def rolled(game: Game, dice) -> Game:
    """A copy of ``game`` after the engine resolves the roll ``dice``."""
    c = game.copy()
    c.play(RollDice(dice=tuple(dice)))
    return c


def engine_draws(game: Game) -> dict[tuple[int, Track], Fraction]:
    """P(seat q draws a card of track t on one roll), by rolling all 216 outcomes in the engine."""
    ck0 = game.ext["cities_knights"]
    before = [len(ck0["hands"][q]) + len(ck0["vp_cards"][q]) for q in range(game.n)]
    count: Counter = Counter()
    for dice in CK_DICE:
        ck = rolled(game, dice).ext["cities_knights"]
        for q in range(game.n):
            new = (ck["hands"][q] + ck["vp_cards"][q])
            assert len(new) - before[q] <= 1  # one gate a roll: at most one card
            for card in new:
                count[(q, TRACK_OF[card])] += 1
    return {(q, t): Fraction(count[(q, t)], len(CK_DICE)) for q in range(game.n) for t in TRACKS}


# ============================================================ the three dice (CK-COMP-1)
def test_CK_COMP_1_event_die_and_joint_dice_distribution():
    ev = event_die_distribution()
    assert ev == {None: Fraction(1, 2), Track.TRADE: Fraction(1, 6), Track.POLITICS: Fraction(1, 6),
                  Track.SCIENCE: Fraction(1, 6)}
    assert ev[None] == SHIP_CHANCE
    joint = cities_knights_dice()
    assert set(joint) == set(CK_DICE) and set(joint.values()) == {Fraction(1, 216)}
    # marginals by brute force over the joint law
    for i in range(3):
        marg = Counter()
        for d, p in joint.items():
            marg[d[i]] += p
        assert marg == {f: Fraction(1, 6) for f in range(1, 7)}
    sums = Counter()
    for (r, y, _e), p in joint.items():
        sums[r + y] += p
    assert sums == {t: roll_probability(t) for t in range(2, 13)}


# ============================================================ progress cards (CK-PROG-1, CK-IMP-2)
def _level_sets(seed: int, k: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    fixed = [(0, 0, 0), (MAX_LEVEL,) * 3, (1, 0, 0), (0, 2, 0), (0, 0, 4), (5, 3, 1)]
    return fixed + [tuple(rng.randint(0, MAX_LEVEL) for _ in TRACKS) for _ in range(k)]


@pytest.mark.parametrize("chunk", range(3))
def test_CK_PROG_1_CK_IMP_2_progress_odds_equal_the_engine_over_all_216_rolls(chunk):
    levels = _level_sets(36, 6)[chunk * 4:chunk * 4 + 4]
    g = ck_game(seed=chunk + 1)
    for q, lv in enumerate(levels):
        g.ext["cities_knights"]["levels"][q] = list(lv)
    assert [improvement_levels(g, q) for q in range(4)] == levels
    exact = engine_draws(g)
    for q, lv in enumerate(levels):
        odds = progress_odds(lv)
        assert progress_odds(g, q) == odds
        assert odds.by_track == {t: exact[(q, t)] for t in TRACKS}, lv
        assert odds.any_colour == sum(exact[(q, t)] for t in TRACKS)
        # the closed form: the gate (1 face of 6) times the red die on 1..level+1
        for i, t in enumerate(TRACKS):
            assert odds.by_track[t] == Fraction(1, 6) * Fraction(min(lv[i] + 1, 6) if lv[i] else 0, 6)


def test_CK_PROG_1_expected_cards_and_within_k_rolls_by_enumerating_roll_pairs():
    g = ck_game()
    g.ext["cities_knights"]["levels"][0] = [2, 0, 3]
    # which of the 216 outcomes draws (the engine says), then every pair of rolls
    draws = {d: sum(len(x) for x in (rolled(g, d).ext["cities_knights"][k][0] for k in ("hands", "vp_cards")))
             for d in CK_DICE}
    odds = progress_odds((2, 0, 3))
    pairs = [(draws[a], draws[b]) for a in CK_DICE for b in CK_DICE]
    assert odds.within(2) == Fraction(sum(1 for a, b in pairs if a or b), len(pairs))
    assert odds.expected(2) == Fraction(sum(a + b for a, b in pairs), len(pairs))
    green = [d for d in CK_DICE if EVENT_FACES[d[2]] is Track.SCIENCE and draws[d]]
    assert odds.within(2, "science") == 1 - (1 - Fraction(len(green), 216)) ** 2
    assert odds.per_round(4) == 4 * odds.any_colour == odds.expected(4)
    assert odds.within(0) == 0 and odds.rolls_until() == 1 / odds.any_colour
    with pytest.raises(ValueError, match="never"):
        odds.rolls_until(Track.POLITICS)


def test_CK_PROG_1_seeded_engine_games_draw_at_the_exact_rate():
    """Whole C&K games with the engine's own seeded dice (every other decision answered at once):
    the share of rolls on which each seat draws lies in the Wilson interval of the exact chance."""
    levels = [(1, 0, 0), (2, 3, 0), (5, 1, 4), (0, 0, 2)]
    g = Game(Board.beginner(), players=4, seed=2024, start="beginner", rules=CK)
    ck = g.ext["cities_knights"]
    for q, lv in enumerate(levels):
        ck["levels"][q] = list(lv)
    rolls, hits = 1500, Counter()
    observed = []
    for _ in range(rolls):
        while g.phase is not Phase.ROLL:
            acts = g.legal_actions()
            g.play(EndTurn() if EndTurn() in acts else acts[0])
        before = [len(ck["hands"][q]) + len(ck["vp_cards"][q]) for q in range(4)]
        g.play(RollDice())
        observed.append(g.dice_history[-1])
        for q in range(4):
            hits[q] += len(ck["hands"][q]) + len(ck["vp_cards"][q]) - before[q]
        assert [lv for lv in ck["levels"]] == [list(lv) for lv in levels]  # nobody improved
    for q, lv in enumerate(levels):
        est = estimate_proportion(hits[q], rolls, exact=progress_odds(lv).any_colour, confidence=0.999)
        assert est.covers, (lv, est)
        # the draws the analysis counts on the same dice are the engine's draws
        assert sum(progress_draws_observed(observed, lv).values()) == hits[q]


def test_CK_IMP_2_progress_draws_observed_counts_by_colour():
    dice = np.array(CK_DICE)
    for lv in _level_sets(7, 4):
        counts = progress_draws_observed(dice, lv)
        assert {t: Fraction(c, len(dice)) for t, c in counts.items()} == progress_odds(lv).by_track


@pytest.mark.parametrize("bad", [(1, 2), (0, 0, 6), (-1, 0, 0), (1.5, 0, 0), (True, 0, 0), "abc", None, 3])
def test_CK_IMP_1_levels_are_checked(bad):
    with pytest.raises(ValueError, match="levels"):
        progress_odds(bad)


def test_progress_odds_needs_a_cities_knights_game():
    g = Game(Board.beginner(), players=4, seed=1, start="beginner")
    with pytest.raises(ValueError, match="cities_knights"):
        progress_odds(g, 0)
    with pytest.raises(ValueError, match="seat"):
        progress_odds(ck_game(), 4)
    with pytest.raises(ValueError, match="seat"):
        progress_odds(ck_game())
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="rolls"):
            progress_odds((1, 1, 1)).expected(bad)
        with pytest.raises(ValueError, match="rolls"):
            progress_odds((1, 1, 1)).within(bad)


# ============================================================ the Aqueduct (CK-IMP-3)
def _aqueduct_engine(game: Game, seat: int) -> Fraction:
    """P(the engine pushes an Aqueduct decision for ``seat``), over all 216 rolls."""
    hits = 0
    for dice in CK_DICE:
        c = rolled(game, dice)
        hits += any(d.phase is AQUEDUCT and d.player == seat for d in c.stack)
    return Fraction(hits, len(CK_DICE))


def _pairs(game: Game, seat: int) -> list[tuple[int | None, int]]:
    """(token, cards) for every hex next to ``seat``'s buildings, the robber's hex paying nothing."""
    t = game.topology
    out = []
    for v in range(t.n_nodes):
        if game.node_owner[v] != seat or not game.kinds[game.node_kind[v]].produces:
            continue
        for hx in t.node_hexes[v]:
            if hx != game.robber and game.hex_terrain[hx].resource is not None:
                out.append((game.hex_token[hx], game.kinds[game.node_kind[v]].produces))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_CK_IMP_3_aqueduct_odds_equal_the_engine_over_all_216_rolls(seed):
    rng = random.Random(seed)
    g = ck_game(seed=seed)
    ck = g.ext["cities_knights"]
    # a generated position: a city or two, the robber somewhere, science levels around the Aqueduct
    for q in range(4):
        own = sorted(v for v in range(g.topology.n_nodes) if g.node_owner[v] == q
                     and g.kinds[g.node_kind[v]].name == "settlement")
        if own and rng.random() < 0.7:
            g.place(q, "city", rng.choice(own))
        ck["levels"][q][Track.SCIENCE.value] = rng.choice([0, 2, 3, 5])
    g.robber = rng.choice(g.topology.land_hexes)
    for q in range(4):
        a = aqueduct_odds(g, q)
        assert a.holds == (ck["levels"][q][Track.SCIENCE.value] >= 3)
        if a.holds:
            assert a.chance == _aqueduct_engine(g, q)
        # the seat counted as holding it, whether or not it does
        h = g.copy()
        h.ext["cities_knights"]["levels"][q][Track.SCIENCE.value] = 3
        assert a.chance == _aqueduct_engine(h, q) == a.cards_per_roll
        assert 7 not in a.pays_on and a.received[7] == 0
        # the pairs form agrees on a full bank (commodities come with a resource: same totals pay)
        # (a C&K city's commodity replaces its second resource card: the same number of cards)
        b = aqueduct_odds(_pairs(g, q))
        assert b.pays_on == a.pays_on and b.chance == a.chance and b.holds is None
        assert b.received == a.received and b.production == a.production
        assert a.with_aqueduct == a.production + a.chance


def test_CK_IMP_3_aqueduct_pays_when_the_bank_cannot_and_never_on_a_7():
    g = ck_game()
    g.ext["cities_knights"]["levels"][0][Track.SCIENCE.value] = 3
    before = aqueduct_odds(g, 0)
    # B-COMP-14: empty the bank of one of seat 0's resources: the totals that paid only that now pay nothing
    got = aqueduct_odds(g, 0).received
    t = g.topology
    only = {}
    for v in range(t.n_nodes):
        if g.node_owner[v] == 0:
            for hx in t.node_hexes[v]:
                if g.hex_token[hx] and hx != g.robber:
                    only.setdefault(g.hex_token[hx], set()).add(g.hex_terrain[hx].resource)
    tot, res = next((k, next(iter(r))) for k, r in sorted(only.items()) if len(r) == 1 and got[k])
    g.bank[res.value] = 0
    after = aqueduct_odds(g, 0)
    newly = [k for k, r in only.items() if r == {res} and got[k]]
    assert tot in newly and not set(newly) & set(before.pays_on) and set(newly) <= set(after.pays_on)
    assert after.chance == before.chance + sum(map(roll_probability, newly)) == _aqueduct_engine(g, 0)
    # an empty bank of every resource: nothing to give, so never
    for r in Resource:
        g.bank[r.value] = 0
    assert aqueduct_odds(g, 0).chance == 0 == _aqueduct_engine(g, 0)
    # pairs: a 7 never pays even with nothing around
    assert aqueduct_odds([]).pays_on == tuple(k for k in range(2, 13) if k != 7)
    assert aqueduct_odds([]).chance == Fraction(5, 6)


def test_CK_IMP_3_CK_SF_1_a_gold_pick_is_income_for_the_aqueduct():
    probe = ck_game()
    t = probe.topology
    mine = [hx for v in range(t.n_nodes) if probe.node_owner[v] == 2 for hx in t.node_hexes[v]
            if probe.hex_token[hx] and hx != probe.robber]
    board = gold_board(Board.beginner(), mine[0])
    g = ck_game(board=board, modules=("cities_knights", "gold_fields"))
    g.ext["cities_knights"]["levels"][2][Track.SCIENCE.value] = 3
    a = aqueduct_odds(g, 2)
    gold_total = g.hex_token[mine[0]]
    assert a.received[gold_total] > 0 and gold_total not in a.pays_on
    assert a.chance == _aqueduct_engine(g, 2)


@pytest.mark.parametrize("bad", [[(7, 1)], [(13, 1)], [(6, -1)], [(6,)], [6], [("6", 1)], 5])
def test_CK_IMP_3_aqueduct_pairs_are_checked(bad):
    with pytest.raises(ValueError):
        aqueduct_odds(bad)


def test_CK_IMP_3_aqueduct_of_a_game_without_cities_knights_or_a_bad_seat():
    with pytest.raises(ValueError, match="cities_knights"):
        aqueduct_odds(Game(Board.beginner(), players=4, seed=1, start="beginner"), 0)
    with pytest.raises(ValueError, match="seat"):
        aqueduct_odds(ck_game(), -1)
    with pytest.raises(ValueError, match="seat"):
        aqueduct_odds([(6, 1)], 0)


# ============================================================ gold fields (SF-1)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_SF_1_gold_odds_equal_the_engine_over_all_36_rolls(seed):
    rng = random.Random(seed)
    base = Board.beginner()
    numbered = [hx for hx, h in enumerate(base.hexes) if h.token]
    board = gold_board(base, *rng.sample(numbered, 4))
    g = Game(board, players=4, seed=seed, start="beginner", rules=Rules(modules=("gold_fields",)))
    for q in range(4):  # a city here and there (2 picks)
        own = sorted(v for v in range(g.topology.n_nodes) if g.node_owner[v] == q)
        if own and rng.random() < 0.5:
            g.place(q, "city", rng.choice(own))
    g.robber = rng.choice([hx for hx, terr in enumerate(g.hex_terrain) if terr is Terrain.GOLD])
    picks = {q: Counter() for q in range(4)}
    for dice in TWO_DICE:
        c = rolled(g, dice)
        owed = {d.player: d.data for d in c.stack if d.phase is GOLD_PICK}
        for q in range(4):
            picks[q][owed.get(q, 0)] += 1
    for q in range(4):
        o = gold_odds(g, q)
        assert o.distribution == {k: Fraction(n, 36) for k, n in sorted(picks[q].items())}
        assert o.expected == gold_production(g, q)
        assert o.p_any == 1 - o.distribution[0]
        mean = sum(k * p for k, p in o.distribution.items())
        assert o.variance == sum((k - mean) ** 2 * p for k, p in o.distribution.items())


def test_SF_1_B_ROB_5_the_robber_on_a_gold_field_stops_its_picks():
    board = gold_board(Board.beginner(), 4)
    g = Game(board, players=4, seed=1, start="beginner", rules=Rules(modules=("gold_fields",)))
    assert gold_odds(g, 0).by_total == {6: 1}
    g.robber = 4
    o = gold_odds(g, 0)
    assert o.by_total == {} and o.distribution == {0: Fraction(1)} and o.expected == 0


# ============================================================ fog (SF-3)
def _orders(tiles, k):
    """Every ordered draw of the stack's first ``k`` tiles (the engine shuffles it uniformly, so each is
    equally likely)."""
    return permutations(range(len(tiles)), k)


@pytest.mark.parametrize("by", ["resource", "terrain", "token", "tile"])
def test_SF_3_fog_reveals_odds_equal_every_order_of_the_stack(by):
    board = Board.load(FOG_ISLANDS)
    revealed = [("forest", 4)] if by == "tile" else []
    tiles = fog_tiles(board)
    for t in revealed:
        tiles.remove((Terrain.parse(t[0]), t[1]))
    key = {"resource": lambda t: resource_name(t[0]), "terrain": lambda t: t[0], "token": lambda t: t[1],
           "tile": lambda t: t}[by]
    absent = {"resource": "nothing", "terrain": Terrain.DESERT, "token": 12, "tile": (Terrain.DESERT, None)}[by]
    for k in (1, 2, 3):
        seen, n = Counter(), 0
        for order in _orders(tiles, k):
            n += 1
            seen[tuple(sorted(Counter(key(tiles[i]) for i in order).items(), key=lambda kv: str(kv)))] += 1
        exact = fog_reveals_odds(board, k, revealed, by=by)
        assert sum(exact.values()) == 1
        assert {tuple(sorted(c, key=lambda kv: str(kv))): p for c, p in exact.items()} == \
            {c: Fraction(m, n) for c, m in seen.items()}
        for kind in {key(t) for t in tiles} | {absent}:
            hit = sum(m for c, m in seen.items() if any(x == kind for x, _ in c))
            assert fog_resource_within(board, kind, k, revealed, by=by) == Fraction(hit, n)


def test_SF_3_next_reveal_marginals_agree_with_seafarers_fog_odds():
    board = Board.load(FOG_ISLANDS)
    revealed = [("mountains", 10), ("fields", 3)]
    joint = fog_odds(board, revealed)
    by_token = Counter()
    for (_t, k), p in joint.items():
        by_token[k] += p
    assert fog_token_odds(board, revealed) == dict(by_token)
    one = fog_reveals_odds(board, 1, revealed)
    assert {c[0][0]: p for c, p in one.items()} == fog_resource_odds(board, revealed)
    assert fog_reveals_odds(board, 0) == {(): Fraction(1)}
    left = len(fog_tiles(board)) - len(revealed)
    assert len(fog_reveals_odds(board, left, revealed)) == 1  # all of them: certain
    assert fog_resource_within(board, Resource.ORE, 1, revealed) == fog_resource_odds(board, revealed)["ore"]
    with pytest.raises(ValueError):
        fog_reveals_odds(board, left + 1, revealed)
    with pytest.raises(ValueError, match="by"):
        fog_reveals_odds(board, 1, by="colour")


def test_SF_3_a_game_knows_its_revealed_tiles():
    g = Game(Board.load(FOG_ISLANDS), players=4, seed=3)  # the board's own modules (SF-13)
    st = g.ext["fog"]
    terrain, token = st["stack"].pop()  # as a reveal does (the stack's top tile)
    st["revealed"].append([0, terrain, token])
    assert fog_reveals_odds(g, 2) == fog_reveals_odds(g.board, 2, [(terrain, token)])
    assert fog_token_odds(g) == fog_token_odds(g.board, [(terrain, token)])


# ============================================================ the barbarians (CK-BAR-4)
def test_CK_BAR_4_attack_within_k_rolls_from_any_position():
    for pos in range(BARBARIAN_TRACK):
        chain = arrival_distribution(horizon=30, position=pos)
        running = Fraction(0)
        for k in range(0, 31):
            if k:
                running += chain[k]
                assert arrival_negative_binomial(k, position=pos) == chain[k]
            assert attack_within(k, position=pos) == running
        assert expected_rolls(position=pos) == (BARBARIAN_TRACK - pos) / SHIP_CHANCE
        assert rolls_for_chance(0.5, position=pos) == min(k for k in range(1, 31) if attack_within(k, pos) >= Fraction(1, 2))
    # brute force over the event die's faces themselves, a few rolls
    for k in range(1, 6):
        for pos in (BARBARIAN_TRACK - 3, BARBARIAN_TRACK - 1):
            hits = sum(1 for faces in product(EVENT_FACES, repeat=k)
                       if sum(EVENT_FACES[f] is None for f in faces) >= BARBARIAN_TRACK - pos)
            assert attack_within(k, position=pos) == Fraction(hits, 6 ** k)
    assert arrival_distribution(horizon=40) == arrival_distribution(horizon=40, position=0)  # the API as before
    for bad in (-1, BARBARIAN_TRACK, 1.0, True):
        with pytest.raises(ValueError, match="position"):
            attack_within(3, position=bad)
    with pytest.raises(ValueError):
        attack_within(-1)


def test_CK_BAR_4_track_position_follows_the_engine_ship():
    g = ck_game()
    assert track_position(g) == 0
    ships = 0
    for _ in range(BARBARIAN_TRACK - 1):
        while g.phase is not Phase.ROLL:
            acts = g.legal_actions()
            g.play(EndTurn() if EndTurn() in acts else acts[0])
        g.play(RollDice(dice=(1, 1, 1)))  # a ship, and a 2
        ships += 1
        assert track_position(g) == ships
    assert attack_within(1, position=track_position(g)) == SHIP_CHANCE
    with pytest.raises(ValueError, match="cities_knights"):
        track_position(Game(Board.beginner(), players=4, seed=1, start="beginner"))

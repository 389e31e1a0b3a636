"""The compiled twin of the engine: the base game (3-6 players) on two flat integer arrays.

Read it beside :mod:`catan_nb.rules.game` and the built-in modules (``production``, ``robber``,
``trade``, ``development``, ``five_six``): every function names the engine function it mirrors
and the rules it applies.  ``T`` holds the rule options, the board's geometry and where each
field of a game lives; ``S[g]`` is game ``g`` (see :mod:`catan_nb.fast.layout`), so one call can
step many games and copying a game copies one row.

Actions are indices of the reinforcement-learning catalogue (:func:`catan_nb.fast.catalog`, the
order of :func:`catan_nb.envs.action_catalog`); chance outcomes (dice, a stolen card, a card
drawn) come from the game's own xoshiro256** generator and go to the log beside the action, so
that :func:`catan_nb.fast.to_actions` turns a kernel game into the engine's own actions.

The value policy (:mod:`catan_nb.analysis.value_bot` on flat arrays) and the jobs (one compiled
entry point each) follow the rules.  They live in this one module on purpose:
numba's cache checks only the source file of each function, so a job compiled from another file
would keep a stale copy of a changed rule.

numba compiles every function on its own and LLVM does not inline across them, so each call is a
real one unless numba inlines it first: the smallest helpers everywhere (``inline="always"``), and
the steps of a game's loop (``step``, ``choose``, ``after_action``...) into :func:`play_out` only
(:func:`_into_play_out`; everywhere, the compile took twice as long).  A random game then runs 19%
fewer instructions (callgrind, 1,000 games: 1,550 against 1,920 million), for the same compile.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._features import N_FEATURES, P7
from .layout import (
    P_DICE_STREAM, P_EXACT, P_VALUE_OFFERS, P_X_DET, P_X_MT, P_X_OFFERED,
    A_ACCEPT, A_BUY, A_CANCEL, A_DECLINE, A_END, A_END_RB, A_KNIGHT, A_RB, A_ROLL, C_CITY, C_DEV, C_ROAD, C_SETTLE,
    KNIGHT, K_CITY, K_ROAD, K_SETTLE, MONOPOLY, O_BANK, O_BLOCKED, O_BOARD_VP, O_DECK, O_DEV, O_DEV_NEW,
    O_EDGE_OWNER, O_HANDS, O_HARB, O_HEX_PLAYERS, O_HEX_RESOURCE, O_HEX_TOKEN, O_KNIGHTS, O_NODE_HARBOUR,
    O_NODE_KIND, O_NODE_OWNER, O_PIECES, O_PRODUCERS, O_RNG, O_ROADS, O_ROAD_LEN, O_TOUCH, PH_DISCARD,
    PH_FOUND_DONE, PH_FOUND_ROAD, PH_FOUND_SETTLE, PH_MAIN, PH_OVER, PH_ROAD_BUILDING, PH_ROBBER, PH_ROLL, PH_SBP,
    PH_TRADE_CONFIRM, PH_TRADE_RESPONSE, POL_RANDOM, POL_WEIGHTED, P_A_CITY, P_A_CONFIRM, P_A_DISC, P_A_END_SBP,
    P_A_MAR, P_A_MONO, P_A_OFFER, P_A_ROAD, P_A_ROB, P_A_SETTLE, P_A_STEAL, P_A_YOP, P_COMBINED, P_DISCARD_LIMIT,
    P_EDGES, P_FIVE_SIX, P_HEXES, P_KH, P_KN, P_KNIGHTS_ONLY, P_KP, P_LA_MIN, P_LIM_CITY, P_LIM_ROAD, P_LIM_SETTLE,
    P_LR_MIN, P_N, P_NODES, P_N_ACTIONS, P_N_LAND, P_ROW_SIZE, P_SINGLE_TAKER, P_SPECIAL_VP, P_STATE_SIZE,
    P_STEAL_MANDATORY, P_VP_TARGET, P_X_SITES, P_X_VALUE, ROAD_BUILDING, R_ACTIONS, R_CITIES, R_HEAD, R_KNIGHTS,
    R_LA, R_LR, R_OVERFLOW, R_ROAD, R_SEAT, R_SETTLEMENTS, R_TURN, R_VP, R_VP_CARDS, R_WINNER, SC_ACCEPTED,
    SC_ACTIONS, SC_ACTIVE, SC_BUILT, SC_DEPTH, SC_DEV_PLAYED, SC_LA, SC_LR, SC_NLOG, SC_OFFER_GET, SC_OFFER_GIVE,
    SC_OVERFLOW, SC_ROBBER, SC_STARTING_SEAT, SC_TURN, SC_VERSION, SC_WINNER, STACK, TO_BANK0, TO_COST, TO_DECK0,
    TO_EDGE_NODES, TO_EDGE_OK, TO_HEX_NODES, TO_LAND_HEXES, TO_NODE_EDGES, TO_NODE_HEXES, TO_NODE_LAND,
    TO_NODE_NBRS, TO_YOP, VICTORY_POINT, X_GAIN, X_SITES_HEAD, X_TRAIL, YEAR_OF_PLENTY,
)

_U64 = np.uint64


def _into_play_out(expr, caller, callee):
    """numba's inline cost model for the steps of a game's loop: inlined into :func:`play_out` (the
    loop of every ``play`` job), called elsewhere (inlining them everywhere doubles the compile)."""
    return caller.func_id.func_name == "play_out"


# ================================================================ random numbers (xoshiro256**, seeded by splitmix64)
@njit(cache=True, _nrt=False)
def rng_seed(T, S, g, seed):
    """Seed game ``g``'s generator from a 64-bit seed (splitmix64, as xoshiro's authors advise)."""
    z = _U64(seed)
    o = T[O_RNG]
    for i in range(4):
        z = z + _U64(0x9E3779B97F4A7C15)
        x = z
        x = (x ^ (x >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> _U64(27))) * _U64(0x94D049BB133111EB)
        S[g, o + i] = np.int64(x ^ (x >> _U64(31)))


@njit(cache=True, _nrt=False, inline="always")
def rng_next(T, S, g):
    o = T[O_RNG]
    s0, s1, s2, s3 = _U64(S[g, o]), _U64(S[g, o + 1]), _U64(S[g, o + 2]), _U64(S[g, o + 3])
    x = s1 * _U64(5)
    x = (x << _U64(7)) | (x >> _U64(57))
    result = x * _U64(9)
    t = s1 << _U64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _U64(45)) | (s3 >> _U64(19))
    S[g, o], S[g, o + 1], S[g, o + 2], S[g, o + 3] = np.int64(s0), np.int64(s1), np.int64(s2), np.int64(s3)
    return result


# ================================================================ exact mode: Python's Mersenne Twister (random.Random)
# The engine's games and bots draw from random.Random; in exact mode (T[P_EXACT]) the kernel draws
# from the same generators, state for state (slot 0 the game's, 1 + seat each bot's...; see
# layout.MT_SIZE), so that its games are the engine's, action for action.
@njit(cache=True, _nrt=False)
def mt_twist(S, g, at):
    for kk in range(624):
        y = (S[g, at + kk] & 0x80000000) | (S[g, at + (kk + 1) % 624] & 0x7FFFFFFF)
        v = S[g, at + (kk + 397) % 624] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        S[g, at + kk] = v
    S[g, at + 624] = 0


@njit(cache=True, _nrt=False)
def mt_next32(T, S, g, slot):
    """genrand_uint32 of generator ``slot``."""
    at = T[P_X_MT] + 625 * slot
    i = S[g, at + 624]
    if i >= 624:
        mt_twist(S, g, at)
        i = 0
    y = S[g, at + i]
    S[g, at + 624] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@njit(cache=True, _nrt=False)
def mt_random(T, S, g, slot):
    """random.Random.random: 53 bits from two words."""
    a = mt_next32(T, S, g, slot) >> 5
    b = mt_next32(T, S, g, slot) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def mt_getrandbits(T, S, g, slot, k):
    """random.Random.getrandbits(k) for 0 < k <= 64 (the low word first)."""
    if k <= 32:
        return mt_next32(T, S, g, slot) >> (32 - k)
    lo = mt_next32(T, S, g, slot)
    hi = mt_next32(T, S, g, slot) >> (64 - k)
    return lo | (hi << 32)


@njit(cache=True, _nrt=False)
def mt_randbelow(T, S, g, slot, n):
    """random.Random._randbelow: getrandbits of n's bit length until below n."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = mt_getrandbits(T, S, g, slot, k)
    while r >= n:
        r = mt_getrandbits(T, S, g, slot, k)
    return r


@njit(cache=True, _nrt=False)
def mt_seed(T, S, g, slot, seed):
    """random.Random(seed) for 0 <= seed < 2**64 (init_by_array over its 32-bit words)."""
    at = T[P_X_MT] + 625 * slot
    S[g, at] = 19650218
    for i in range(1, 624):
        x = S[g, at + i - 1]
        S[g, at + i] = (1812433253 * (x ^ (x >> 30)) + i) & 0xFFFFFFFF
    u = np.uint64(seed)
    k0 = np.int64(u & np.uint64(0xFFFFFFFF))
    k1 = np.int64(u >> np.uint64(32))
    nkey = 2 if k1 else 1
    i = 1
    j = 0
    for _ in range(624):
        x = S[g, at + i - 1]
        key = k0 if j == 0 else k1
        S[g, at + i] = ((S[g, at + i] ^ ((x ^ (x >> 30)) * 1664525)) + key + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= 624:
            S[g, at] = S[g, at + 623]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(623):
        x = S[g, at + i - 1]
        S[g, at + i] = ((S[g, at + i] ^ ((x ^ (x >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= 624:
            S[g, at] = S[g, at + 623]
            i = 1
    S[g, at] = 0x80000000
    S[g, at + 624] = 624


@njit(cache=True, _nrt=False, inline="always")
def rng_float(T, S, g):
    """A draw in [0, 1) with 53 random bits: the game's generator (xoshiro256**, or in exact mode
    the engine's own Mersenne Twister, slot 0)."""
    if T[P_EXACT]:
        return mt_random(T, S, g, 0)
    return float(rng_next(T, S, g) >> _U64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False, inline="always")
def rng_below(T, S, g, k):
    """A whole number in 0..k-1, uniform."""
    return int(rng_float(T, S, g) * k)


# ================================================================ the decision stack (catan_nb.rules.phase)
@njit(cache=True, _nrt=False, inline="always")
def push(S, g, phase, player, data):
    d = STACK + 3 * S[g, SC_DEPTH]
    S[g, d] = phase
    S[g, d + 1] = player
    S[g, d + 2] = data
    S[g, SC_DEPTH] += 1


@njit(cache=True, _nrt=False, inline="always")
def top_phase(S, g):
    return S[g, STACK + 3 * S[g, SC_DEPTH] - 3]


@njit(cache=True, _nrt=False, inline="always")
def current(S, g):
    """Game.current_player: the player of the decision on top."""
    return S[g, STACK + 3 * S[g, SC_DEPTH] - 2]


@njit(cache=True, _nrt=False, inline="always")
def is_over(S, g):
    return S[g, STACK + 3 * S[g, SC_DEPTH] - 3] == PH_OVER


# ================================================================ small queries
@njit(cache=True, _nrt=False, inline="always")
def hand_total(T, S, g, p):
    h = T[O_HANDS] + 5 * p
    return S[g, h] + S[g, h + 1] + S[g, h + 2] + S[g, h + 3] + S[g, h + 4]


@njit(cache=True, _nrt=False, inline="always")
def affords(T, S, g, p, row):
    h = T[O_HANDS] + 5 * p
    c = T[TO_COST] + 5 * row
    for r in range(5):
        if S[g, h + r] < T[c + r]:
            return False
    return True


@njit(cache=True, _nrt=False)
def pay(T, S, g, p, row):
    """Game.pay (B-BUILD-2)."""
    h = T[O_HANDS] + 5 * p
    b = T[O_BANK]
    c = T[TO_COST] + 5 * row
    for r in range(5):
        S[g, h + r] -= T[c + r]
        S[g, b + r] += T[c + r]


@njit(cache=True, _nrt=False, inline="always")
def rate(T, S, g, p, r):
    """Game.rates: 2 at a harbour of that resource, 3 at a generic harbour, else 4 (B-TRADE-6..9)."""
    hb = S[g, T[O_HARB] + p]
    if hb & (1 << r):
        return 2
    if hb & 32:
        return 3
    return 4


@njit(cache=True, _nrt=False, inline=_into_play_out)
def vp(T, S, g, p):
    """Game.vp (B-END-1): pieces, Longest Road, Largest Army, VP cards (hidden ones too)."""
    v = S[g, T[O_BOARD_VP] + p] + S[g, T[O_DEV] + 5 * p + VICTORY_POINT]
    if S[g, SC_LR] == p:
        v += T[P_SPECIAL_VP]
    if S[g, SC_LA] == p:
        v += T[P_SPECIAL_VP]
    return v


@njit(cache=True, _nrt=False)
def visible_vp(T, S, g, p):
    """Game.vp(visible=True) (B-END-6): hidden VP cards left out."""
    return vp(T, S, g, p) - S[g, T[O_DEV] + 5 * p + VICTORY_POINT]


# ================================================================ longest road (catan_nb.rules.longest_road)
@njit(cache=True, _nrt=False)
def trail_length(T, S, g, q, only):
    """Length of q's longest trail (B-LR-1..3): no road twice, never *through* an opponent's
    building (it may end there).  The search starts where longest_trail's does: dead ends, forks
    and blocked intersections, and the smallest intersection of a loop with none of them; with
    ``only >= 0``, at that intersection alone (longest_trail_from: a road just built to a new dead
    end, where every trail through it ends).

    Works in the scratch space after the game's state (no allocation): per intersection of q's
    network (at most 2 * 15) its id, degree, roads, a blocked flag, a union-find parent and a
    start flag; per road its two intersections; the search stack."""
    m = S[g, T[O_PIECES] + 3 * q + K_ROAD]
    if m == 0:
        return 0
    ROADS = T[O_ROADS] + T[P_LIM_ROAD] * q
    EN = T[TO_EDGE_NODES]
    OWNER = T[O_NODE_OWNER]
    X = T[P_STATE_SIZE] + X_TRAIL
    SLOT, DEG, ADJ, ESLOT, BLOCK, PARENT, START = X, X + 32, X + 64, X + 160, X + 192, X + 224, X + 256
    ST_SLOT, ST_USED, ST_I = X + 288, X + 304, X + 320
    ns = 0
    for k in range(m):
        e = S[g, ROADS + k]
        for j in range(2):
            v = T[EN + 2 * e + j]
            s = -1
            for i in range(ns):
                if S[g, SLOT + i] == v:
                    s = i
                    break
            if s < 0:
                s = ns
                S[g, SLOT + s] = v
                S[g, DEG + s] = 0
                ns += 1
            S[g, ADJ + 3 * s + S[g, DEG + s]] = k
            S[g, DEG + s] += 1
            S[g, ESLOT + 2 * k + j] = s
    for i in range(ns):
        o = S[g, OWNER + S[g, SLOT + i]]
        S[g, BLOCK + i] = 1 if (o >= 0 and o != q) else 0
        S[g, PARENT + i] = i
    for k in range(m):  # components: a loop with no dead end, fork or block starts once
        a, b = S[g, ESLOT + 2 * k], S[g, ESLOT + 2 * k + 1]
        while S[g, PARENT + a] != a:
            a = S[g, PARENT + a]
        while S[g, PARENT + b] != b:
            b = S[g, PARENT + b]
        if a != b:
            S[g, PARENT + max(a, b)] = min(a, b)
    if only >= 0:
        for i in range(ns):
            S[g, START + i] = 1 if S[g, SLOT + i] == only else 0
        ns_start = 0
    else:
        ns_start = ns
    for i in range(ns_start):  # START: 1 where a longest trail may begin
        r = i
        while S[g, PARENT + r] != r:
            r = S[g, PARENT + r]
        S[g, PARENT + i] = r
        S[g, START + i] = 1 if (S[g, DEG + i] != 2 or S[g, BLOCK + i]) else 0
    for i in range(ns_start):
        if S[g, START + i] == 0:
            r = S[g, PARENT + i]
            lone = True  # no start in the component, and i its smallest intersection: start there
            for j in range(ns):
                if S[g, PARENT + j] == r and (S[g, START + j] == 1 or S[g, SLOT + j] < S[g, SLOT + i]):
                    lone = False
                    break
            if lone:
                S[g, START + i] = 1
    best = 0
    for s in range(ns):
        if S[g, START + s] != 1:
            continue
        sp = 0
        S[g, ST_SLOT] = s
        S[g, ST_USED] = 0
        S[g, ST_I] = 0
        while sp >= 0:
            v = S[g, ST_SLOT + sp]
            i = S[g, ST_I + sp]
            if i >= S[g, DEG + v]:
                sp -= 1
                continue
            S[g, ST_I + sp] = i + 1
            k = S[g, ADJ + 3 * v + i]
            bit = np.int64(1) << k
            used = S[g, ST_USED + sp]
            if used & bit:
                continue
            w = S[g, ESLOT + 2 * k + 1] if S[g, ESLOT + 2 * k] == v else S[g, ESLOT + 2 * k]
            if sp + 1 > best:
                best = sp + 1
                if best == m:
                    return m
            if S[g, BLOCK + w]:
                continue
            S[g, ST_SLOT + sp + 1] = w
            S[g, ST_USED + sp + 1] = used | bit
            S[g, ST_I + sp + 1] = 0
            sp += 1
    return best


@njit(cache=True, _nrt=False)
def unique_leader(T, S, g):
    """Game._unique_leader: the single seat with the greatest length of 5 or more, or -1."""
    best = T[P_LR_MIN] - 1
    who = -1
    count = 0
    L = T[O_ROAD_LEN]
    for q in range(T[P_N]):
        x = S[g, L + q]
        if x > best:
            best, who, count = x, q, 1
        elif x == best:
            count += 1
    return who if count == 1 else -1


@njit(cache=True, _nrt=False)
def lr_after_road(T, S, g, p, fresh):
    """A road of p placed: B-LR-4, B-LR-5 (strictly longer than the holder), B-LR-7 (a card set
    aside).  ``fresh``: its end that touched none of p's roads before, or -1 (Game._put's hint)."""
    L = T[O_ROAD_LEN]
    if fresh >= 0:
        S[g, L + p] = max(S[g, L + p], trail_length(T, S, g, p, fresh))
    else:
        S[g, L + p] = trail_length(T, S, g, p, -1)
    h = S[g, SC_LR]
    if h >= 0:
        if p != h and S[g, L + p] > S[g, L + h]:
            S[g, SC_LR] = p
        return
    S[g, SC_LR] = unique_leader(T, S, g)


@njit(cache=True, _nrt=False)
def lr_after_cut(T, S, g, cut):
    """A building on an intersection of the roads of the players ``cut`` (bits): B-LR-2, B-LR-6."""
    n = T[P_N]
    L = T[O_ROAD_LEN]
    for q in range(n):
        if cut & (1 << q):
            S[g, L + q] = trail_length(T, S, g, q, -1)
    h = S[g, SC_LR]
    if h >= 0:
        lh = S[g, L + h]
        keep = lh >= T[P_LR_MIN]
        for q in range(n):
            if S[g, L + q] > lh:
                keep = False
        if keep:
            return
        S[g, SC_LR] = -1
    S[g, SC_LR] = unique_leader(T, S, g)


# ================================================================ placing pieces (Game._put)
@njit(cache=True, _nrt=False)
def put_settlement(T, S, g, p, v):
    S[g, SC_VERSION] += 1
    S[g, T[O_NODE_OWNER] + v] = p
    S[g, T[O_NODE_KIND] + v] = 1
    S[g, T[O_PIECES] + 3 * p + K_SETTLE] += 1
    S[g, T[O_BOARD_VP] + p] += 1
    B = T[O_BLOCKED]
    S[g, B + v] += 1
    NB = T[TO_NODE_NBRS] + 3 * v
    for i in range(3):
        w = T[NB + i]
        if w >= 0:
            S[g, B + w] += 1
    hb = S[g, T[O_NODE_HARBOUR] + v]
    if hb >= 0:
        S[g, T[O_HARB] + p] |= 1 << hb
    NH = T[TO_NODE_HEXES] + T[P_KH] * v
    for i in range(T[P_KH]):  # Game._node_changed: who has a building on each hex
        hx = T[NH + i]
        if hx < 0:
            break
        S[g, T[O_HEX_PLAYERS] + hx] |= 1 << p
    cut = 0
    NE = T[TO_NODE_EDGES] + 3 * v
    EO = T[O_EDGE_OWNER]
    for i in range(3):
        e = T[NE + i]
        if e >= 0:
            o = S[g, EO + e]
            if o >= 0 and o != p:
                cut |= 1 << o
    if cut:
        lr_after_cut(T, S, g, cut)  # B-LR-2, B-LR-6


@njit(cache=True, _nrt=False)
def put_city(T, S, g, p, v):
    """B-BUILD-9: the settlement goes back to the supply."""
    S[g, SC_VERSION] += 1
    S[g, T[O_NODE_KIND] + v] = 2
    S[g, T[O_PIECES] + 3 * p + K_SETTLE] -= 1
    S[g, T[O_PIECES] + 3 * p + K_CITY] += 1
    S[g, T[O_BOARD_VP] + p] += 1


@njit(cache=True, _nrt=False)
def put_road(T, S, g, p, e):
    S[g, SC_VERSION] += 1
    S[g, T[O_EDGE_OWNER] + e] = p
    k = T[O_PIECES] + 3 * p + K_ROAD
    S[g, T[O_ROADS] + T[P_LIM_ROAD] * p + S[g, k]] = e
    S[g, k] += 1
    TOUCH = T[O_TOUCH] + T[P_NODES] * p
    a = T[T[TO_EDGE_NODES] + 2 * e]
    b = T[T[TO_EDGE_NODES] + 2 * e + 1]
    fresh = b if S[g, TOUCH + b] == 0 else (a if S[g, TOUCH + a] == 0 else -1)
    if S[g, k] == 1:
        fresh = a  # the first road: a trail of one
    S[g, TOUCH + a] += 1
    S[g, TOUCH + b] += 1
    lr_after_road(T, S, g, p, fresh)


# ================================================================ where pieces may go (Game.candidates)
@njit(cache=True, _nrt=False, inline="always")
def road_end_ok(T, S, g, p, v):
    o = S[g, T[O_NODE_OWNER] + v]
    return o == p or (o < 0 and S[g, T[O_TOUCH] + T[P_NODES] * p + v] > 0)


@njit(cache=True, _nrt=False)
def road_spots(T, S, g, p, out, c, base):
    """Game._path_candidates: empty land paths continuing p's roads or leaving p's buildings, never
    through an opponent's building (B-BUILD-3..5); appended to ``out`` as ``base + path``."""
    EO = T[O_EDGE_OWNER]
    EN = T[TO_EDGE_NODES]
    OK = T[TO_EDGE_OK]
    for e in range(T[P_EDGES]):
        if S[g, EO + e] < 0 and T[OK + e]:
            if road_end_ok(T, S, g, p, T[EN + 2 * e]) or road_end_ok(T, S, g, p, T[EN + 2 * e + 1]):
                out[c] = base + e
                c += 1
    return c


@njit(cache=True, _nrt=False)
def can_place_free(T, S, g, p):
    """Game.can_place_free for Road Building: a road left (B-COMP-12) and somewhere to put it (B-DEV-5)."""
    if S[g, T[O_PIECES] + 3 * p + K_ROAD] >= T[P_LIM_ROAD]:
        return False
    EO = T[O_EDGE_OWNER]
    EN = T[TO_EDGE_NODES]
    OK = T[TO_EDGE_OK]
    for e in range(T[P_EDGES]):
        if S[g, EO + e] < 0 and T[OK + e]:
            if road_end_ok(T, S, g, p, T[EN + 2 * e]) or road_end_ok(T, S, g, p, T[EN + 2 * e + 1]):
                return True
    return False


@njit(cache=True, _nrt=False)
def build_sites(T, S, g, p):
    """Game.candidates for p's roads, settlements and cities (B-BUILD-3..9), kept in the scratch
    space until a piece is placed (Game._cache); returns where the lists start."""
    X = T[P_STATE_SIZE] + T[P_X_SITES]
    if S[g, X] == p and S[g, X + 1] == S[g, SC_VERSION]:
        return X
    N = T[P_NODES]
    c = X + X_SITES_HEAD
    c = road_spots(T, S, g, p, S[g], c, 0) - X - X_SITES_HEAD
    S[g, X + 2] = c
    c = X + X_SITES_HEAD + c
    TOUCH = T[O_TOUCH] + N * p
    B = T[O_BLOCKED]
    LAND = T[TO_NODE_LAND]
    start = c
    for v in range(N):
        if S[g, TOUCH + v] > 0 and S[g, B + v] == 0 and T[LAND + v]:
            S[g, c] = v
            c += 1
    S[g, X + 3] = c - start
    start = c
    OW = T[O_NODE_OWNER]
    KI = T[O_NODE_KIND]
    for v in range(N):
        if S[g, OW + v] == p and S[g, KI + v] == 1:
            S[g, c] = v
            c += 1
    S[g, X + 4] = c - start
    S[g, X] = p
    S[g, X + 1] = S[g, SC_VERSION]
    return X


@njit(cache=True, _nrt=False)
def legal_builds(T, S, g, p, out, c):
    """Game.legal_builds, then the development module's: roads, settlements, cities, a card."""
    PC = T[O_PIECES] + 3 * p
    road = S[g, PC + K_ROAD] < T[P_LIM_ROAD] and affords(T, S, g, p, C_ROAD)
    settle = S[g, PC + K_SETTLE] < T[P_LIM_SETTLE] and affords(T, S, g, p, C_SETTLE)
    city = S[g, PC + K_CITY] < T[P_LIM_CITY] and affords(T, S, g, p, C_CITY)
    if road or settle or city:
        X = build_sites(T, S, g, p)
        i = X + X_SITES_HEAD
        nr, ns, nc = S[g, X + 2], S[g, X + 3], S[g, X + 4]
        if road:
            base = T[P_A_ROAD]
            for j in range(nr):
                out[c] = base + S[g, i + j]
                c += 1
        i += nr
        if settle:
            base = T[P_A_SETTLE]
            for j in range(ns):
                out[c] = base + S[g, i + j]
                c += 1
        i += ns
        if city:
            base = T[P_A_CITY]
            for j in range(nc):
                out[c] = base + S[g, i + j]
                c += 1
    if affords(T, S, g, p, C_DEV):
        D = T[O_DECK]
        if S[g, D] + S[g, D + 1] + S[g, D + 2] + S[g, D + 3] + S[g, D + 4] > 0:
            out[c] = A_BUY
            c += 1
    return c


@njit(cache=True, _nrt=False)
def dev_plays(T, S, g, out, c, before_roll):
    """Development.legal: the cards the active player may play now (B-TURN-4..6, A-01)."""
    p = S[g, SC_ACTIVE]
    D = T[O_DEV] + 5 * p
    NEW = T[O_DEV_NEW] + 5 * p
    if S[g, SC_DEV_PLAYED] or (S[g, D] + S[g, D + 1] + S[g, D + 2] + S[g, D + 3]) == 0:
        return c
    if S[g, D + KNIGHT] - S[g, NEW + KNIGHT] > 0:
        out[c] = A_KNIGHT
        c += 1
    if before_roll and T[P_KNIGHTS_ONLY]:
        return c
    if S[g, D + ROAD_BUILDING] - S[g, NEW + ROAD_BUILDING] > 0 and can_place_free(T, S, g, p):
        out[c] = A_RB
        c += 1
    if S[g, D + YEAR_OF_PLENTY] - S[g, NEW + YEAR_OF_PLENTY] > 0:
        B = T[O_BANK]
        for a in range(5):
            if S[g, B + a]:
                for b in range(a, 5):
                    if S[g, B + b] >= 1 + (a == b):
                        out[c] = T[T[TO_YOP] + 5 * a + b]
                        c += 1
    if S[g, D + MONOPOLY] - S[g, NEW + MONOPOLY] > 0:
        for r in range(5):
            out[c] = T[P_A_MONO] + r
            c += 1
    return c


@njit(cache=True, _nrt=False)
def with_cards(T, S, g):
    """Bits of the players holding a resource card."""
    out = 0
    for q in range(T[P_N]):
        if hand_total(T, S, g, q) > 0:
            out |= 1 << q
    return out


@njit(cache=True, _nrt=False)
def legal(T, S, g, out, offers):
    """Game.legal_actions(offers=offers) as catalogue indices, in the engine's order; returns how many."""
    d = STACK + 3 * S[g, SC_DEPTH] - 3
    ph = S[g, d]
    who = S[g, d + 1]
    c = 0
    if ph == PH_MAIN:
        p = S[g, SC_ACTIVE]
        H = T[O_HANDS] + 5 * p
        B = T[O_BANK]
        out[0] = A_END
        c = 1
        if S[g, SC_BUILT] == 0 or T[P_COMBINED]:  # B-TURN-2, A-08
            for gv in range(5):
                if S[g, H + gv] >= rate(T, S, g, p, gv):
                    for r in range(5):
                        if r != gv and S[g, B + r] > 0:
                            out[c] = T[P_A_MAR] + 4 * gv + (r if r < gv else r - 1)
                            c += 1
            if offers:
                for gv in range(5):
                    if S[g, H + gv]:
                        for r in range(5):
                            if r != gv:
                                out[c] = T[P_A_OFFER] + 4 * gv + (r if r < gv else r - 1)
                                c += 1
        c = legal_builds(T, S, g, p, out, c)
        c = dev_plays(T, S, g, out, c, False)
    elif ph == PH_ROLL:
        out[0] = A_ROLL
        c = dev_plays(T, S, g, out, 1, True)
    elif ph == PH_FOUND_SETTLE:  # B-SETUP-17: any land intersection clear of buildings (B-BUILD-7)
        B = T[O_BLOCKED]
        LAND = T[TO_NODE_LAND]
        for v in range(T[P_NODES]):
            if S[g, B + v] == 0 and T[LAND + v]:
                out[c] = T[P_A_SETTLE] + v
                c += 1
    elif ph == PH_FOUND_ROAD:  # B-SETUP-17: a road touching the settlement just placed
        NE = T[TO_NODE_EDGES] + 3 * S[g, d + 2]
        for i in range(3):
            e = T[NE + i]
            if e >= 0 and S[g, T[O_EDGE_OWNER] + e] < 0 and T[T[TO_EDGE_OK] + e]:
                out[c] = T[P_A_ROAD] + e
                c += 1
    elif ph == PH_DISCARD:  # B-ROB-2, one card at a time
        H = T[O_HANDS] + 5 * who
        for r in range(5):
            if S[g, H + r]:
                out[c] = T[P_A_DISC] + r
                c += 1
    elif ph == PH_ROBBER:  # robber.legal_robber: every plain move, then the steals by hex
        robber = S[g, SC_ROBBER]
        n = T[P_N]
        LH = T[TO_LAND_HEXES]
        nl = T[P_N_LAND]
        c = nl  # the steals after the plain moves; out[k] holds hex k's victims meanwhile
        can = with_cards(T, S, g) & ~(1 << S[g, SC_ACTIVE])  # B-ROB-6, B-ROB-8
        HP = T[O_HEX_PLAYERS]
        for j in range(nl):
            hx = T[LH + j]
            out[j] = S[g, HP + hx] & can if hx != robber else 0
        for j in range(nl):
            hx = T[LH + j]
            mask = out[j]
            for o in range(n):
                if mask & (1 << o):
                    out[c] = T[P_A_STEAL] + n * hx + o
                    c += 1
        plain = 0
        for j in range(nl):
            hx = T[LH + j]
            if hx != robber and not (T[P_STEAL_MANDATORY] and out[j]):
                out[plain] = T[P_A_ROB] + hx
                plain += 1
        if plain < nl:  # close the gap left by the hexes without a plain move
            for j in range(nl, c):
                out[plain + j - nl] = out[j]
            c -= nl - plain
    elif ph == PH_ROAD_BUILDING:
        if S[g, T[O_PIECES] + 3 * who + K_ROAD] < T[P_LIM_ROAD]:
            c = road_spots(T, S, g, who, out, c, T[P_A_ROAD])
        out[c] = A_END_RB
        c += 1
    elif ph == PH_SBP:
        c = legal_builds(T, S, g, who, out, 0)  # X56-SBP-3: no trades, no development cards
        out[c] = T[P_A_END_SBP]
        c += 1
    elif ph == PH_TRADE_RESPONSE:
        if S[g, T[O_HANDS] + 5 * who + S[g, SC_OFFER_GET]] >= 1:
            out[c] = A_ACCEPT
            c += 1
        out[c] = A_DECLINE
        c += 1
    elif ph == PH_TRADE_CONFIRM:
        acc = S[g, SC_ACCEPTED]
        n = T[P_N]
        for i in range(1, n):  # in the order they accepted: the answers went round from the offerer's left
            q = (who + i) % n
            if acc & (1 << q):
                out[c] = T[P_A_CONFIRM] + q
                c += 1
        out[c] = A_CANCEL
        c += 1
    return c


# ================================================================ the flow (Game._settle, _begin_turn, _check_win)
@njit(cache=True, _nrt=False, inline=_into_play_out)
def begin_turn(T, S, g, p):
    """Game._begin_turn (B-TURN-1) and the development module's on_turn_start."""
    S[g, SC_ACTIVE] = p
    S[g, SC_TURN] += 1
    push(S, g, PH_ROLL, p, 0)
    S[g, SC_BUILT] = 0
    S[g, SC_DEV_PLAYED] = 0
    NEW = T[O_DEV_NEW] + 5 * p
    for k in range(5):
        S[g, NEW + k] = 0


@njit(cache=True, _nrt=False, inline=_into_play_out)
def check_win(T, S, g):
    """B-END-3: the active player wins on reaching the target in their own turn (B-END-5)."""
    ph = top_phase(S, g)
    if ph == PH_FOUND_SETTLE or ph == PH_FOUND_ROAD or ph == PH_OVER:
        return
    p = S[g, SC_ACTIVE]
    if vp(T, S, g, p) >= T[P_VP_TARGET]:
        S[g, SC_WINNER] = p
        S[g, SC_DEPTH] = 0
        push(S, g, PH_OVER, p, 0)


@njit(cache=True, _nrt=False, inline="always")
def vp_action(T, a):
    """Whether action ``a`` may change VP or begin a turn (the engine's vp_actions): building,
    ending a turn or a Special Building Phase, buying a card (B-COMP-8), a knight (B-LA-1)."""
    return a == A_END or a == A_BUY or a == A_KNIGHT or a == T[P_A_END_SBP] or (T[P_A_SETTLE] <= a < T[P_A_YOP])


@njit(cache=True, _nrt=False, inline=_into_play_out)
def after_action(T, S, g, a):
    """Game.apply's tail: run the steps (the founding done, a new turn), then the win check, after
    a step or an action that may change VP (as the engine: the same, except in a determinised copy,
    where the hidden VP cards are drawn again)."""
    settled = False
    while True:
        d = S[g, SC_DEPTH]
        if d == 0:
            begin_turn(T, S, g, (S[g, SC_ACTIVE] + 1) % T[P_N])  # B-TURN-9
            settled = True
            break
        if S[g, STACK + 3 * d - 3] != PH_FOUND_DONE:
            break
        S[g, SC_DEPTH] -= 1  # B-SETUP-20: the starting seat takes the first turn
        begin_turn(T, S, g, S[g, SC_STARTING_SEAT])
        settled = True
    if settled or vp_action(T, a):
        check_win(T, S, g)


# ================================================================ chance
@njit(cache=True, _nrt=False)
def draw_index(T, S, g, at):
    """Game.draw_index: one item of a multiset given as 5 counts from S[g, at], uniform."""
    total = 0
    for i in range(5):
        total += S[g, at + i]
    x = int(rng_float(T, S, g) * total)
    i = 0
    while x >= S[g, at + i]:
        x -= S[g, at + i]
        i += 1
    return i


@njit(cache=True, _nrt=False)
def produce(T, S, g, total):
    """Game.produce: every building collects on ``total`` (B-PROD-1..8), the robber's hex pays
    nothing (B-ROB-10), and a resource the bank cannot pay in full goes to nobody, or all that is
    left to a sole claimant (B-COMP-14 and its recalled exception, shortage_single_taker)."""
    X = T[P_STATE_SIZE] + X_GAIN  # scratch: (player, resource, count) per collecting building
    robber = S[g, SC_ROBBER]
    PR = T[O_PRODUCERS] + T[P_KP] * total
    OW = T[O_NODE_OWNER]
    KI = T[O_NODE_KIND]
    KN = T[P_KN]
    m = 0
    out = 0
    for j in range(T[P_KP]):
        hx = S[g, PR + j]
        if hx < 0:
            break
        if hx == robber:
            continue
        r = S[g, T[O_HEX_RESOURCE] + hx]
        HN = T[TO_HEX_NODES] + KN * hx
        for i in range(KN):
            v = T[HN + i]
            if v < 0:
                break
            o = S[g, OW + v]
            if o >= 0:
                k = S[g, KI + v]
                S[g, X + 3 * m] = o
                S[g, X + 3 * m + 1] = r
                S[g, X + 3 * m + 2] = k
                m += 1
                out += k
    if m == 0:
        return
    B = T[O_BANK]
    H = T[O_HANDS]
    low = min(S[g, B], S[g, B + 1], S[g, B + 2], S[g, B + 3], S[g, B + 4])
    if out > low:  # the bank may be short of something: decide per resource
        for r in range(5):
            need = 0
            claim = 0
            for i in range(m):
                if S[g, X + 3 * i + 1] == r:
                    need += S[g, X + 3 * i + 2]
                    claim |= 1 << S[g, X + 3 * i]
            if need > S[g, B + r]:
                single = claim & (claim - 1) == 0
                for i in range(m):
                    if S[g, X + 3 * i + 1] == r:
                        S[g, X + 3 * i + 2] = 0
                if single and T[P_SINGLE_TAKER]:
                    for q in range(T[P_N]):
                        if claim == 1 << q:
                            S[g, H + 5 * q + r] += S[g, B + r]
                            S[g, B + r] = 0
    for i in range(m):
        k = S[g, X + 3 * i + 2]
        r = S[g, X + 3 * i + 1]
        S[g, H + 5 * S[g, X + 3 * i] + r] += k
        S[g, B + r] -= k


# ================================================================ applying an action (the modules' apply functions)
@njit(cache=True, _nrt=False)
def apply(T, S, g, a, forced):
    """Apply catalogue action ``a`` (legal: take it from :func:`legal`), drawing its chance
    outcome, or taking ``forced`` (>= 0) as it: the game's generator draws all the same, as the
    engine's does for a recorded outcome.  Returns the outcome to record: the dice as
    10 * first + second, the stolen resource, the card drawn; -1 for none."""
    n = T[P_N]
    d = STACK + 3 * S[g, SC_DEPTH] - 3
    ph = S[g, d]
    me = S[g, d + 1]
    p = S[g, SC_ACTIVE]
    H = T[O_HANDS]
    B = T[O_BANK]
    DEV = T[O_DEV]
    outcome = -1
    S[g, SC_ACTIONS] += 1
    if a == A_END:  # B-TURN-9; five_six's on_end_turn: the Special Building Phase (X56-SBP-1..4)
        S[g, SC_DEPTH] -= 1
        if T[P_FIVE_SIX]:
            for i in range(n - 1, 0, -1):
                push(S, g, PH_SBP, (p + i) % n, 0)
        if S[g, SC_DEPTH] == 0:
            begin_turn(T, S, g, (p + 1) % n)
    elif a == A_ROLL:  # Game._do_roll, Game.roll; production and the robber's resolve_roll
        d1 = rng_below(T, S, g, 6) + 1
        d2 = rng_below(T, S, g, 6) + 1
        if forced >= 0:
            d1, d2 = forced // 10, forced % 10
        elif T[P_DICE_STREAM]:  # simulate_openings: the dice of their own stream (randint(1, 6) each)
            d1 = mt_randbelow(T, S, g, T[P_N] + 1, 6) + 1
            d2 = mt_randbelow(T, S, g, T[P_N] + 1, 6) + 1
        outcome = 10 * d1 + d2
        S[g, d] = PH_MAIN
        total = d1 + d2
        if total != 7:
            produce(T, S, g, total)
        else:
            push(S, g, PH_ROBBER, p, 0)  # after the discards (B-ROB-4)
            for i in range(n - 1, -1, -1):  # push_in_turn_order: the first discarder on top
                q = (p + i) % n
                k = hand_total(T, S, g, q)
                if k > T[P_DISCARD_LIMIT]:  # B-ROB-2, B-ROB-3
                    push(S, g, PH_DISCARD, q, k // 2)
    elif a == A_BUY:  # B-BUILD-11, B-TURN-5
        card = draw_index(T, S, g, T[O_DECK])
        if forced >= 0:
            card = forced
        S[g, T[O_DECK] + card] -= 1
        pay(T, S, g, me, C_DEV)
        S[g, DEV + 5 * me + card] += 1
        S[g, T[O_DEV_NEW] + 5 * me + card] += 1
        S[g, SC_BUILT] = 1
        outcome = card
    elif a == A_KNIGHT:  # B-DEV-2..4; B-LA-1, B-LA-2 and A-27: strictly more than every other
        S[g, DEV + 5 * p + KNIGHT] -= 1
        S[g, SC_DEV_PLAYED] = 1
        KN = T[O_KNIGHTS]
        S[g, KN + p] += 1
        kp = S[g, KN + p]
        if S[g, SC_LA] != p and kp >= T[P_LA_MIN]:
            top = True
            for q in range(n):
                if q != p and S[g, KN + q] >= kp:
                    top = False
            if top:
                S[g, SC_LA] = p
        push(S, g, PH_ROBBER, p, 0)
    elif a == A_RB:  # B-DEV-5
        S[g, DEV + 5 * p + ROAD_BUILDING] -= 1
        S[g, SC_DEV_PLAYED] = 1
        push(S, g, PH_ROAD_BUILDING, p, 2)
    elif a == A_END_RB:
        S[g, SC_DEPTH] -= 1
    elif a == A_ACCEPT:
        S[g, SC_ACCEPTED] |= 1 << me
        answered(S, g)
    elif a == A_DECLINE:
        answered(S, g)
    elif a == A_CANCEL:
        S[g, SC_OFFER_GIVE] = -1
        S[g, SC_OFFER_GET] = -1
        S[g, SC_ACCEPTED] = 0
        while top_phase(S, g) == PH_TRADE_RESPONSE:
            S[g, SC_DEPTH] -= 1
        S[g, SC_DEPTH] -= 1
    elif a == T[P_A_END_SBP]:
        S[g, SC_DEPTH] -= 1
    elif a < T[P_A_CITY]:  # BuildSettlement
        v = a - T[P_A_SETTLE]
        if ph == PH_FOUND_SETTLE:  # Game._found: the second settlement pays (B-SETUP-19)
            second = S[g, d + 2] >= n
            put_settlement(T, S, g, me, v)
            if second:
                NH = T[TO_NODE_HEXES] + T[P_KH] * v
                for i in range(T[P_KH]):
                    hx = T[NH + i]
                    if hx < 0:
                        break
                    r = S[g, T[O_HEX_RESOURCE] + hx]
                    if r >= 0 and S[g, B + r] > 0:
                        S[g, H + 5 * me + r] += 1
                        S[g, B + r] -= 1
            S[g, d] = PH_FOUND_ROAD
            S[g, d + 2] = v
        else:
            pay(T, S, g, me, C_SETTLE)
            S[g, SC_BUILT] = 1
            put_settlement(T, S, g, me, v)
    elif a < T[P_A_ROAD]:  # BuildCity
        pay(T, S, g, me, C_CITY)
        put_city(T, S, g, me, a - T[P_A_CITY])
        S[g, SC_BUILT] = 1
    elif a < T[P_A_YOP]:  # BuildRoad
        e = a - T[P_A_ROAD]
        if ph == PH_FOUND_ROAD:  # Game.found_path
            S[g, SC_DEPTH] -= 1
            put_road(T, S, g, me, e)
            nd = STACK + 3 * S[g, SC_DEPTH] - 3
            if S[g, nd] == PH_FOUND_SETTLE:
                S[g, SC_ACTIVE] = S[g, nd + 1]
        elif ph == PH_ROAD_BUILDING:  # Game.place_free
            put_road(T, S, g, me, e)
            left = S[g, d + 2] - 1
            if left <= 0 or not can_place_free(T, S, g, me):
                S[g, SC_DEPTH] -= 1
            else:
                S[g, d + 2] = left
        else:
            pay(T, S, g, me, C_ROAD)
            S[g, SC_BUILT] = 1
            put_road(T, S, g, me, e)
    elif a < T[P_A_MONO]:  # PlayYearOfPlenty (B-DEV-6): pairs (x, y), x <= y, in catalogue order
        S[g, DEV + 5 * p + YEAR_OF_PLENTY] -= 1
        S[g, SC_DEV_PLAYED] = 1
        k = a - T[P_A_YOP]
        x = 0
        while k >= 5 - x:
            k -= 5 - x
            x += 1
        y = x + k
        S[g, B + x] -= 1
        S[g, H + 5 * p + x] += 1
        S[g, B + y] -= 1
        S[g, H + 5 * p + y] += 1
    elif a < T[P_A_MAR]:  # PlayMonopoly (B-DEV-7)
        S[g, DEV + 5 * p + MONOPOLY] -= 1
        S[g, SC_DEV_PLAYED] = 1
        r = a - T[P_A_MONO]
        for q in range(n):
            if q != p:
                S[g, H + 5 * p + r] += S[g, H + 5 * q + r]
                S[g, H + 5 * q + r] = 0
    elif a < T[P_A_OFFER]:  # MaritimeTrade (B-TRADE-6..11)
        k = a - T[P_A_MAR]
        gv = k // 4
        r = k % 4
        if r >= gv:
            r += 1
        x = rate(T, S, g, p, gv)
        S[g, H + 5 * p + gv] -= x
        S[g, B + gv] += x
        S[g, H + 5 * p + r] += 1
        S[g, B + r] -= 1
    elif a < T[P_A_DISC]:  # OfferTrade, one card for one (B-TRADE-2..5): answers in turn order from the left
        k = a - T[P_A_OFFER]
        gv = k // 4
        r = k % 4
        if r >= gv:
            r += 1
        S[g, SC_OFFER_GIVE] = gv
        S[g, SC_OFFER_GET] = r
        S[g, SC_ACCEPTED] = 0
        push(S, g, PH_TRADE_CONFIRM, p, 0)
        for i in range(n - 1, 0, -1):
            push(S, g, PH_TRADE_RESPONSE, (p + i) % n, 0)
    elif a < T[P_A_ROB]:  # Discard one card (B-ROB-2..4)
        r = a - T[P_A_DISC]
        S[g, H + 5 * me + r] -= 1
        S[g, B + r] += 1
        left = S[g, d + 2] - 1
        if left:
            S[g, d + 2] = left
        else:
            S[g, SC_DEPTH] -= 1
    elif a < T[P_A_STEAL]:  # MoveRobber, no victim (B-ROB-5, A-04)
        S[g, SC_ROBBER] = a - T[P_A_ROB]
        S[g, SC_DEPTH] -= 1
    elif a < T[P_A_CONFIRM]:  # MoveRobber and steal (B-ROB-6..8)
        k = a - T[P_A_STEAL]
        S[g, SC_ROBBER] = k // n
        q = k % n
        r = draw_index(T, S, g, H + 5 * q)
        if forced >= 0:
            r = forced
        S[g, H + 5 * q + r] -= 1
        S[g, H + 5 * p + r] += 1
        outcome = r
        S[g, SC_DEPTH] -= 1
    else:  # ConfirmTrade
        q = a - T[P_A_CONFIRM]
        gv = S[g, SC_OFFER_GIVE]
        r = S[g, SC_OFFER_GET]
        S[g, H + 5 * p + gv] -= 1
        S[g, H + 5 * q + gv] += 1
        S[g, H + 5 * q + r] -= 1
        S[g, H + 5 * p + r] += 1
        S[g, SC_OFFER_GIVE] = -1
        S[g, SC_OFFER_GET] = -1
        S[g, SC_ACCEPTED] = 0
        S[g, SC_DEPTH] -= 1
    return outcome


@njit(cache=True, _nrt=False)
def copy_game(T, S, g, D, h):
    """Game.copy: game ``g`` of ``S`` into row ``h`` of ``D`` (its scratch space forgotten)."""
    size = T[P_STATE_SIZE]
    for i in range(size):
        D[h, i] = S[g, i]
    D[h, size + T[P_X_SITES]] = -1


@njit(cache=True, _nrt=False)
def answered(S, g):
    """trade._answered: the next answer; an offer declined by all is withdrawn."""
    S[g, SC_DEPTH] -= 1
    if top_phase(S, g) == PH_TRADE_CONFIRM and S[g, SC_ACCEPTED] == 0:
        S[g, SC_DEPTH] -= 1
        S[g, SC_OFFER_GIVE] = -1
        S[g, SC_OFFER_GET] = -1


@njit(cache=True, _nrt=False, inline=_into_play_out)
def step(T, S, g, a, log):
    """Apply action ``a`` to game ``g`` as Game.apply does (the action, the steps, the win check)
    and record it with its outcome in ``log`` (int32[L, 2]; a log of length 0 records nothing)."""
    outcome = apply(T, S, g, a, -1)
    after_action(T, S, g, a)
    if log.shape[0] > 0:
        k = S[g, SC_NLOG]
        if k < log.shape[0]:
            log[k, 0] = a
            log[k, 1] = outcome
            S[g, SC_NLOG] = k + 1
        else:
            S[g, SC_OVERFLOW] = 1
    return outcome


# ================================================================ a new game (Game.__init__, start="founding")
@njit(cache=True, _nrt=False)
def index_producers(T, S, g):
    """Game._index_production: the producing hexes of each number."""
    PR = T[O_PRODUCERS]
    KP = T[P_KP]
    for i in range(13 * KP):
        S[g, PR + i] = -1
    for hx in range(T[P_HEXES]):
        t = S[g, T[O_HEX_TOKEN] + hx]
        if t > 0 and S[g, T[O_HEX_RESOURCE] + hx] >= 0:
            j = 0
            while S[g, PR + KP * t + j] >= 0:
                j += 1
            S[g, PR + KP * t + j] = hx


@njit(cache=True, _nrt=False)
def new_game(T, S, g, seed, starting_seat, board):
    """Reset game ``g`` to the start of the founding phase (B-SETUP-15..20) on ``board``: the
    hexes' resources and numbers, the intersections' harbours and the robber's hex, end to end
    (see :func:`catan_nb.fast.tables.board_row`)."""
    n = T[P_N]
    N = T[P_NODES]
    H = T[P_HEXES]
    for i in range(S.shape[1]):
        S[g, i] = 0
    S[g, SC_WINNER] = -1
    S[g, SC_LR] = -1
    S[g, SC_LA] = -1
    S[g, SC_OFFER_GIVE] = -1
    S[g, SC_OFFER_GET] = -1
    S[g, SC_ROBBER] = board[2 * H + N]
    S[g, SC_STARTING_SEAT] = starting_seat
    for r in range(5):
        S[g, T[O_BANK] + r] = T[T[TO_BANK0] + r]
        S[g, T[O_DECK] + r] = T[T[TO_DECK0] + r]
    for v in range(N):
        S[g, T[O_NODE_OWNER] + v] = -1
        S[g, T[O_NODE_HARBOUR] + v] = board[2 * H + v]
    for e in range(T[P_EDGES]):
        S[g, T[O_EDGE_OWNER] + e] = -1
    for i in range(n * T[P_LIM_ROAD]):
        S[g, T[O_ROADS] + i] = -1
    for hx in range(H):
        S[g, T[O_HEX_RESOURCE] + hx] = board[hx]
        S[g, T[O_HEX_TOKEN] + hx] = board[H + hx]
    S[g, T[P_STATE_SIZE] + T[P_X_SITES]] = -1
    index_producers(T, S, g)
    rng_seed(T, S, g, seed)
    # the snake (B-SETUP-15, B-SETUP-16): the first pick on top, the founding's end at the bottom
    push(S, g, PH_FOUND_DONE, starting_seat, 0)
    for i in range(2 * n - 1, -1, -1):
        q = (starting_seat + i) % n if i < n else (starting_seat + 2 * n - 1 - i) % n
        push(S, g, PH_FOUND_SETTLE, q, i)
    S[g, SC_ACTIVE] = starting_seat


# ================================================================ simple policies
@njit(cache=True, _nrt=False)
def weight_of(T, a):
    """WeightedBot.DEFAULT_WEIGHTS: city 20, settlement 15, development card 4, road 3, else 1."""
    if a == A_BUY:
        return 4.0
    if a >= T[P_A_SETTLE] and a < T[P_A_CITY]:
        return 15.0
    if a >= T[P_A_CITY] and a < T[P_A_ROAD]:
        return 20.0
    if a >= T[P_A_ROAD] and a < T[P_A_YOP]:
        return 3.0
    return 1.0


@njit(cache=True, _nrt=False, inline="always")
def policy_float(T, S, g, seat):
    """A draw for ``seat``'s policy: from its own generator in exact mode (its bot's
    ``random.Random``), else from the game's."""
    if T[P_EXACT]:
        return mt_random(T, S, g, 1 + seat)
    return rng_float(T, S, g)


@njit(cache=True, _nrt=False, inline="always")
def choose_random(T, S, g, buf, k):
    """RandomBot: uniform over the legal actions."""
    return buf[int(policy_float(T, S, g, current(S, g)) * k)]


@njit(cache=True, _nrt=False)
def choose_weighted(T, S, g, buf, k):
    """WeightedBot.choose: random.choices with the weights of each kind; a domestic offer answered
    by bots.accepts_offer (the responder gets no fewer cards and keeps one of each it gives), the
    first partner who accepted."""
    ph = top_phase(S, g)
    if ph == PH_TRADE_RESPONSE:
        me = current(S, g)
        if buf[0] == A_ACCEPT and S[g, T[O_HANDS] + 5 * me + S[g, SC_OFFER_GET]] > 1:
            return A_ACCEPT
        return A_DECLINE
    if ph == PH_TRADE_CONFIRM:
        return buf[0]
    total = 0.0
    for i in range(k):
        total += weight_of(T, buf[i])
    x = policy_float(T, S, g, current(S, g)) * total
    acc = 0.0
    for i in range(k):
        acc += weight_of(T, buf[i])
        if x < acc:
            return buf[i]
    return buf[k - 1]


# ################################################################ the value policy
# The value policy in the kernel: :mod:`catan_nb.analysis.value_bot` on flat arrays, and the jobs.
# 
# :func:`features` computes the value bot's base-game features of a position for one player, in
# the order of :data:`FEATURES`, with the arithmetic and summation order of
# :func:`catan_nb.analysis.value_bot.features`; :func:`position_value` is their weighted sum.
# :func:`choose_value` is :meth:`ValueBot.explain`: every legal action is applied to a scratch copy
# of the game and scored, the decisions it pushes for the bot (a knight's robber, the roads of Road
# Building) played out first (:func:`own_decisions`), the robber goes by the bot's heuristic, and the
# bot's tie-breaking noise (1e-6) comes from its own generator in exact mode (the game's otherwise);
# in exact mode it also determinises as the bot does and makes its one-for-one offers
# (T[P_VALUE_OFFERS]).  :func:`choose_greedy` is :meth:`ValueBot.greedy` (the search bot's playouts).
#
# Left out: the rule modules' features (:mod:`catan_nb.analysis.bot_features`: none for the base
# game and the 5-6 player extension, the only rules the kernel plays).  Outside exact mode a card
# bought is drawn from the cards the player cannot see, and ending the turn scores as the position
# itself: the bot's determinised copy also checks the next player's redrawn hidden VP cards at the
# start of their turn, which the kernel could only do by reading the real ones.

@njit(cache=True, _nrt=False)
def hex_chance(T, S, g, hx):
    """value_bot._hex_yield: chance per roll of a producing hex; the robber's hex yields nothing."""
    t = S[g, T[O_HEX_TOKEN] + hx]
    if S[g, T[O_HEX_RESOURCE] + hx] < 0 or t == 0 or hx == S[g, SC_ROBBER]:
        return 0.0
    return (6 - abs(7 - t)) / 36


@njit(cache=True, _nrt=False)
def spot_score(T, S, g, v, f):
    """value_bot._spot_score of an intersection: cards per roll plus 0.02 per resource
    (``f[N_FEATURES + 5:]``: room for the sums by resource)."""
    prod = f[N_FEATURES + 5:N_FEATURES + 10]
    for r in range(5):
        prod[r] = 0.0
    NH = T[TO_NODE_HEXES] + T[P_KH] * v
    for i in range(T[P_KH]):
        hx = T[NH + i]
        if hx < 0:
            break
        x = hex_chance(T, S, g, hx)
        if x > 0:
            prod[S[g, T[O_HEX_RESOURCE] + hx]] += x
    s = 0.0
    k = 0
    for r in range(5):
        s += prod[r]
        if prod[r] > 0:
            k += 1
    return s + 0.02 * k


@njit(cache=True, _nrt=False)
def features(T, S, g, me, f):
    """value_bot.features for ``me`` into ``f[:N_FEATURES]`` (float64[N_FEATURES + 10]: the rest is
    room for sums by resource)."""
    N = T[P_NODES]
    n = T[P_N]
    OW = T[O_NODE_OWNER]
    KI = T[O_NODE_KIND]
    prod = f[N_FEATURES:N_FEATURES + 5]
    for r in range(5):
        prod[r] = 0.0
    others = 0.0
    for v in range(N):  # the buildings in intersection order, their hexes in order
        k = S[g, KI + v]
        if k == 0:
            continue
        o = S[g, OW + v]
        NH = T[TO_NODE_HEXES] + T[P_KH] * v
        for i in range(T[P_KH]):
            hx = T[NH + i]
            if hx < 0:
                break
            x = hex_chance(T, S, g, hx)
            if x > 0:
                if o == me:
                    prod[S[g, T[O_HEX_RESOURCE] + hx]] += k * x
                else:
                    others += k * x
    production = 0.0
    diversity = 0
    for r in range(5):
        production += prod[r]
        if prod[r] > 0:
            diversity += 1
    harbours = 0.0
    low = 4
    for r in range(5):
        x = rate(T, S, g, me, r)
        low = min(low, x)
        harbours += 1.0 if (x == 2 and prod[r] > 0) else 0.0
    if low == 3:
        harbours += 0.33
    spots = 0.0
    buildable = 0
    if S[g, T[O_PIECES] + 3 * me + K_SETTLE] < T[P_LIM_SETTLE]:
        # value_bot._reach: the roads ``me`` needs to each intersection, at most two and no more than
        # the roads left, along empty land paths from its roads' ends (and its buildings while a road
        # is left), never through an opponent's building (B-BUILD-5)
        DIST = T[P_X_VALUE]  # scratch: distance by intersection, the frontier, the next one
        FRONT = DIST + N
        NXT = FRONT + N
        for v in range(N):
            S[g, DIST + v] = -1
        nf = 0
        TOUCH = T[O_TOUCH] + N * me
        left = T[P_LIM_ROAD] - S[g, T[O_PIECES] + 3 * me + K_ROAD]
        for v in range(N):
            if S[g, TOUCH + v] > 0 or (left > 0 and S[g, OW + v] == me):
                S[g, DIST + v] = 0
                S[g, FRONT + nf] = v
                nf += 1
        EO = T[O_EDGE_OWNER]
        EN = T[TO_EDGE_NODES]
        OK = T[TO_EDGE_OK]
        for d in range(1, min(2, left) + 1):
            nn = 0
            for j in range(nf):
                v = S[g, FRONT + j]
                o = S[g, OW + v]
                if o >= 0 and o != me:
                    continue  # B-BUILD-5
                NE = T[TO_NODE_EDGES] + 3 * v
                for i in range(3):
                    e = T[NE + i]
                    if e < 0 or S[g, EO + e] >= 0 or not T[OK + e]:
                        continue
                    u = T[EN + 2 * e + 1] if T[EN + 2 * e] == v else T[EN + 2 * e]
                    if S[g, DIST + u] < 0:
                        S[g, DIST + u] = d
                        S[g, NXT + nn] = u
                        nn += 1
            for j in range(nn):
                S[g, FRONT + j] = S[g, NXT + j]
            nf = nn
        top1 = -1.0
        top2 = -1.0
        BL = T[O_BLOCKED]
        LAND = T[TO_NODE_LAND]
        for v in range(N):
            d = S[g, DIST + v]
            if d < 0 or S[g, BL + v] > 0 or not T[LAND + v]:
                continue
            if d == 0:
                buildable += 1
            s = spot_score(T, S, g, v, f) * (1.0 if d == 0 else (0.5 if d == 1 else 0.25))
            if s > top1:
                top2 = top1
                top1 = s
            elif s > top2:
                top2 = s
        if top1 >= 0:
            spots = 0.0 + top1
            if top2 >= 0:
                spots += top2
        buildable = min(2, buildable)
    RL = T[O_ROAD_LEN]
    mine = S[g, RL + me]
    best_other = 0
    for q in range(n):
        if q != me and S[g, RL + q] > best_other:
            best_other = S[g, RL + q]
    road = 0
    if mine >= 3:
        road = max(-3, min(3, mine - best_other))
    DEV = T[O_DEV] + 5 * me
    army = 0.0
    if S[g, SC_LA] != me:
        army = S[g, T[O_KNIGHTS] + me] + 0.5 * S[g, DEV + KNIGHT]
    total = hand_total(T, S, g, me)
    HA = T[O_HANDS] + 5 * me
    progress = 0.0
    PC = T[O_PIECES] + 3 * me
    for j in range(3):  # towards a city (1.3), a settlement (1.2 if a spot, else 0.2), a road (0.45)
        row = C_CITY if j == 0 else (C_SETTLE if j == 1 else C_ROAD)
        if j == 0 and (S[g, PC + K_CITY] >= T[P_LIM_CITY] or S[g, PC + K_SETTLE] == 0):
            continue  # a city needs one in the supply and a settlement to go on
        if j == 1 and S[g, PC + K_SETTLE] >= T[P_LIM_SETTLE]:
            continue
        if j == 2 and S[g, PC + K_ROAD] >= T[P_LIM_ROAD]:
            continue
        weight = 1.3 if j == 0 else ((1.2 if spots > 0 else 0.2) if j == 1 else 0.45)
        need = 0
        have = 0
        CO = T[TO_COST] + 5 * row
        for r in range(5):
            c = T[CO + r]
            if c:
                need += c
                have += min(S[g, HA + r], c)
        x = weight * (have / need) ** 2 if need else 0.0
        progress = max(progress, x)
    limit = T[P_DISCARD_LIMIT]
    dev = 0
    for c in range(5):
        dev += S[g, DEV + c]
    f[0] = vp(T, S, g, me)
    f[1] = production
    f[2] = others / max(n - 1, 1)
    f[3] = diversity
    f[4] = harbours
    f[5] = spots
    f[6] = buildable
    f[7] = road
    f[8] = army
    f[9] = progress
    f[10] = -(max(0, total - limit) * P7)
    f[11] = dev
    f[12] = min(total, limit)


@njit(cache=True, _nrt=False)
def position_value(T, S, g, me, W, f):
    """value_bot.position_value: +-1e6 for a finished game, else the weighted sum of the features."""
    if is_over(S, g):
        return 1e6 if S[g, SC_WINNER] == me else -1e6
    features(T, S, g, me, f)
    v = 0.0
    for i in range(N_FEATURES):
        v += W[i] * f[i]
    return v


@njit(cache=True, _nrt=False)
def robbed(T, S, g, me):
    """ValueBot._robbed: the robber sits on one of ``me``'s buildings."""
    HN = T[TO_HEX_NODES] + T[P_KN] * S[g, SC_ROBBER]
    for i in range(T[P_KN]):
        v = T[HN + i]
        if v < 0:
            break
        if S[g, T[O_NODE_OWNER] + v] == me:
            return True
    return False


@njit(cache=True, _nrt=False)
def robber_move(T, a):
    """The hex and the victim (-1 for none) of robber action ``a``."""
    if a < T[P_A_STEAL]:
        return a - T[P_A_ROB], -1
    n = T[P_N]
    return (a - T[P_A_STEAL]) // n, (a - T[P_A_STEAL]) % n


@njit(cache=True, _nrt=False)
def robber_value(T, S, g, me, a):
    """ValueBot._robber's score of one robber move (its noise aside): block the leader's best hex,
    not one's own; steal from the leader with cards."""
    hx, victim = robber_move(T, a)
    t = S[g, T[O_HEX_TOKEN] + hx]
    pips = (6 - abs(7 - t)) if t else 0
    hurt = 0.0
    HN = T[TO_HEX_NODES] + T[P_KN] * hx
    for i in range(T[P_KN]):
        v = T[HN + i]
        if v < 0:
            break
        o = S[g, T[O_NODE_OWNER] + v]
        if o < 0:
            continue
        k = S[g, T[O_NODE_KIND] + v]
        hurt += (-3.0 if o == me else 1.0 + 0.35 * visible_vp(T, S, g, o)) * k * pips
    steal = 0.0
    if victim >= 0:
        steal = 2.0 + 0.8 * visible_vp(T, S, g, victim) + 0.2 * min(hand_total(T, S, g, victim), 8)
    return hurt + steal


@njit(cache=True, _nrt=False)
def tally_into(S, g, at, m, D, h, out):
    """Counts of each of the 5 kinds among the m items S[g, at:at + m], into D[h, out:out + 5]."""
    for c in range(5):
        D[h, out + c] = 0
    for i in range(m):
        D[h, out + S[g, at + i]] += 1


@njit(cache=True, _nrt=False)
def shuffle_mt(T, S, g, slot, at, m):
    """random.Random.shuffle of S[g, at:at + m]."""
    for i in range(m - 1, 0, -1):
        j = mt_randbelow(T, S, g, slot, i + 1)
        S[g, at + i], S[g, at + j] = S[g, at + j], S[g, at + i]


@njit(cache=True, _nrt=False)
def determinize(T, S, g, me, D, h):
    """Game.determinized(me, seat me's bot's getrandbits(32)) into row ``h`` of ``D`` (exact mode):
    the opponents' cards and the development cards ``me`` cannot see dealt again, from the pools
    the engine builds, with the engine's shuffles; the copy's generator in slot n + 3."""
    n = T[P_N]
    TMP = n + 2
    copy_game(T, S, g, D, h)
    mt_seed(T, S, g, TMP, mt_getrandbits(T, S, g, 1 + me, 32))
    X = T[P_X_DET]
    HA = T[O_HANDS]
    m = 0
    for r in range(5):  # the opponents' resource cards, in a canonical order
        c = 0
        for q in range(n):
            if q != me:
                c += S[g, HA + 5 * q + r]
        for _ in range(c):
            S[g, X + m] = r
            m += 1
    shuffle_mt(T, S, g, TMP, X, m)
    pos = 0
    for q in range(n):
        if q != me:
            k = hand_total(T, S, g, q)
            tally_into(S, g, X + pos, k, D, h, HA + 5 * q)
            pos += k
    U = X + 160
    DV = T[O_DEV]
    NEW = T[O_DEV_NEW]
    mu = 0
    for c in range(5):  # the development cards nobody shows: the deck and the opponents' hands
        x = S[g, T[O_DECK] + c]
        for q in range(n):
            if q != me:
                x += S[g, DV + 5 * q + c]
        for _ in range(x):
            S[g, U + mu] = c
            mu += 1
    shuffle_mt(T, S, g, TMP, U, mu)
    pos = 0
    for q in range(n):
        if q != me:
            k = 0
            new = 0
            for c in range(5):
                k += S[g, DV + 5 * q + c]
                new += S[g, NEW + 5 * q + c]
            tally_into(S, g, U + pos, k, D, h, DV + 5 * q)
            tally_into(S, g, U + pos, new, D, h, NEW + 5 * q)
            pos += k
    tally_into(S, g, U + pos, mu - pos, D, h, T[O_DECK])
    mt_seed(T, S, g, n + 3, mt_getrandbits(T, S, g, TMP, 64))


@njit(cache=True, _nrt=False)
def offer_for(T, S, g, me):
    """ValueBot.offer_for: one card for one when exactly one card short of a city or a settlement,
    giving a surplus card; one offer a turn.  A catalogue index, or -1."""
    OFF = T[P_X_OFFERED] + me
    if S[g, OFF] == S[g, SC_TURN]:
        return -1
    HA = T[O_HANDS] + 5 * me
    for j in range(2):
        row = C_CITY if j == 0 else C_SETTLE
        if j == 1:  # Game.candidates(me, "settlement"): supply and cost aside
            TOUCH = T[O_TOUCH] + T[P_NODES] * me
            spot = False
            for v in range(T[P_NODES]):
                if (S[g, TOUCH + v] > 0 and S[g, T[O_BLOCKED] + v] == 0 and T[T[TO_NODE_LAND] + v]
                        and S[g, T[O_NODE_OWNER] + v] < 0):
                    spot = True
                    break
            if not spot:
                continue
        CO = T[TO_COST] + 5 * row
        missing = -1
        short = 0
        for r in range(5):
            if S[g, HA + r] < T[CO + r]:
                short += 1
                missing = r
        if short != 1 or T[CO + missing] - S[g, HA + missing] != 1:
            continue
        give = -1
        for r in range(5):
            if S[g, HA + r] > T[CO + r] and (give < 0 or S[g, HA + r] - T[CO + r] > S[g, HA + give] - T[CO + give]):
                give = r
        if give < 0:
            continue
        S[g, OFF] = S[g, SC_TURN]
        return T[P_A_OFFER] + 4 * give + (missing if missing < give else missing - 1)
    return -1


@njit(cache=True, _nrt=False)
def hand_value(T, S, g, me, W, D, give, get, f):
    """ValueBot._hand_value of me's hand after giving one ``get`` card and taking one ``give``
    card (-1, -1: as it is)."""
    copy_game(T, S, g, D, 1)
    if give >= 0:
        D[1, T[O_HANDS] + 5 * me + give] += 1
        D[1, T[O_HANDS] + 5 * me + get] -= 1
    return position_value(T, D, 1, me, W, f)


@njit(cache=True, _nrt=False)
def value_answer(T, S, g, me, W, D, buf, k, f):
    """ValueBot._answer: accept a fair offer that helps, never from a player about to win."""
    give = S[g, SC_OFFER_GIVE]
    get = S[g, SC_OFFER_GET]
    ok = buf[0] == A_ACCEPT
    gain = -1.0
    if ok:
        gain = hand_value(T, S, g, me, W, D, give, get, f) - hand_value(T, S, g, me, W, D, -1, -1, f)
    near_win = visible_vp(T, S, g, S[g, SC_ACTIVE]) >= T[P_VP_TARGET] - 2
    return A_ACCEPT if (ok and gain > 0.5 and not near_win) else A_DECLINE


@njit(cache=True, _nrt=False)
def value_confirm(T, S, g, buf, k):
    """ValueBot._confirm: the partner with the fewest visible VP (the first of them to accept)."""
    best = -1
    best_vp = 0
    for i in range(k):
        a = buf[i]
        if a >= T[P_A_CONFIRM]:
            x = visible_vp(T, S, g, a - T[P_A_CONFIRM])
            if best < 0 or x < best_vp:
                best, best_vp = a, x
    return best if best >= 0 else buf[0]


@njit(cache=True, _nrt=False)
def fork_mt(T, S, g, slot, D, h):
    """Exact mode: row ``h`` of ``D`` draws (its slot 0) from a copy of generator ``slot`` of game
    ``g``, as a copy of a game draws from its original's generator state (Game.copy: copy on draw)."""
    src = T[P_X_MT] + 625 * slot
    dst = T[P_X_MT]
    for i in range(625):
        D[h, dst + i] = S[g, src + i]


@njit(cache=True, _nrt=False)
def policy_below(T, S, g, seat, m):
    """A whole number in 0..m-1 for ``seat``'s policy: random.Random._randbelow of its own
    generator in exact mode, else from the game's."""
    if T[P_EXACT]:
        return mt_randbelow(T, S, g, 1 + seat, m)
    return rng_below(T, S, g, m)


@njit(cache=True, _nrt=False)
def robber_pick(T, V, h, me, acts, k, S, g):
    """ValueBot._robber(...)[0] in the position ``V[h]`` over its ``k`` robber moves in ``acts``:
    the best score, its tie-break noise drawn for seat ``me`` from game ``S[g]`` (the bot's own
    generator), move by move."""
    best = acts[0]
    best_v = -np.inf
    for i in range(k):
        v = robber_value(T, V, h, me, acts[i]) + policy_float(T, S, g, me) * 1e-6
        if v > best_v:
            best, best_v = acts[i], v
    return best


@njit(cache=True, _nrt=False)
def own_decisions(T, S, g, me, W, D, f):
    """ValueBot._own_decisions on row 1 of ``D``: the decisions of ``me``'s an action pushed (the
    robber of a knight or of one's own 7 after one's last discard, Road Building's roads) played
    greedily, at most 4: the robber by :func:`robber_pick` (the noise from ``me``'s generator in
    game ``S[g]``), the others by the value of the position each leads to, the first 40 of them.
    Rows 2 and 3 hold the candidates, row 4 their list."""
    acts = D[4]
    for _ in range(4):
        if is_over(D, 1) or current(D, 1) != me:
            break
        ph = top_phase(D, 1)
        if ph == PH_MAIN or ph == PH_ROLL:
            break
        k = legal(T, D, 1, acts, False)
        if k == 0:
            break
        if ph == PH_ROBBER:
            a = robber_pick(T, D, 1, me, acts, k, S, g)
            apply(T, D, 1, a, -1)
            after_action(T, D, 1, a)
            continue
        best = -1
        best_v = -1e18
        cand = 2
        for j in range(min(k, 40)):
            copy_game(T, D, 1, D, cand)
            apply(T, D, cand, acts[j], -1)
            after_action(T, D, cand, acts[j])
            v = position_value(T, D, cand, me, W, f)
            if v > best_v:
                best, best_v = cand, v
                cand = 5 - cand  # keep the best, try the next in the other row
        copy_game(T, D, best, D, 1)


@njit(cache=True, _nrt=False)
def choose_value(T, S, g, W, D, buf, k, f, vals):
    """ValueBot.explain(...)[0] over the ``k`` legal actions in ``buf``; ``D`` (five rows, each as wide as a
    game's row and the catalogue) is room for the copies.  Each action is applied to a copy and scored; when
    it pushes ``me``'s own decisions (a knight's robber, Road Building's roads) they are played out
    first (:func:`own_decisions`).  In exact mode it is the engine's ValueBot draw for draw (its
    determinisation, its noise, its one-for-one offers when T[P_VALUE_OFFERS]; a copy's chance
    outcomes from the determinisation's generator); otherwise the copies hold the real cards, a
    card bought is drawn from the cards ``me`` cannot see and ending the turn scores as the
    position itself."""
    if k == 1:
        return buf[0]
    top = STACK + 3 * S[g, SC_DEPTH] - 3
    ph = S[g, top]
    me = S[g, top + 1]
    exact = T[P_EXACT]
    if ph == PH_TRADE_RESPONSE:
        return value_answer(T, S, g, me, W, D, buf, k, f)
    if ph == PH_TRADE_CONFIRM:
        return value_confirm(T, S, g, buf, k)
    if ph == PH_ROBBER:
        return robber_pick(T, S, g, me, buf, k, S, g)
    n = T[P_N]
    src = S  # the position the copies start from: the game, or its determinisation in D[0]
    sg = g
    if exact:
        determinize(T, S, g, me, D, 0)
        src = D
        sg = 0
    base = position_value(T, src, sg, me, W, f)
    chain = ph != PH_FOUND_SETTLE and ph != PH_FOUND_ROAD  # the founding's actions are weighed as they are
    best = buf[0]
    best_v = -np.inf
    card = -1
    for i in range(k):
        a = buf[i]
        if a == A_ROLL:
            v = base
        elif not exact and (a == A_END or a == T[P_A_END_SBP]):
            v = base + policy_float(T, S, g, me) * 1e-6
        else:
            forced = -1
            if a == A_BUY and not exact:  # a card drawn from the cards me cannot see
                if card < 0:
                    total = 0
                    for c in range(5):
                        total += S[g, T[O_DECK] + c]
                        for q in range(n):
                            if q != me:
                                total += S[g, T[O_DEV] + 5 * q + c]
                    x = int(rng_float(T, S, g) * total)
                    card = 0
                    while True:
                        y = S[g, T[O_DECK] + card]
                        for q in range(n):
                            if q != me:
                                y += S[g, T[O_DEV] + 5 * q + card]
                        if x < y:
                            break
                        x -= y
                        card += 1
                forced = card
            copy_game(T, src, sg, D, 1)
            if exact and a == A_BUY:  # the card from the determinised deck, by its generator
                fork_mt(T, S, g, n + 3, D, 1)
            apply(T, D, 1, a, forced)
            after_action(T, D, 1, a)
            if chain and not is_over(D, 1) and current(D, 1) == me:
                nph = top_phase(D, 1)
                if nph != ph and nph != PH_MAIN and nph != PH_ROLL and nph != PH_FOUND_SETTLE \
                        and nph != PH_FOUND_ROAD:
                    if exact:  # a steal of the robber played out: the determinisation's generator
                        fork_mt(T, S, g, n + 3, D, 1)
                    own_decisions(T, S, g, me, W, D, f)
            v = position_value(T, D, 1, me, W, f)
            if a == A_KNIGHT and ph == PH_ROLL:  # before the roll: worth it when the robber sits on me
                v += 8.0 if robbed(T, S, g, me) else -4.0
            v += policy_float(T, S, g, me) * 1e-6
        if vals.shape[0] > i:
            vals[i] = v
        if v > best_v:
            best, best_v = a, v
    if T[P_VALUE_OFFERS] and ph == PH_MAIN and me == S[g, SC_ACTIVE] and (S[g, SC_BUILT] == 0 or T[P_COMBINED]):
        offer = offer_for(T, S, g, me)
        if offer >= 0 and best_v <= base + 1e-9:
            return offer
    return best


@njit(cache=True, _nrt=False)
def sample_into(T, S, g, seat, buf, m, k, pool):
    """random.Random.sample(buf[:m], k) of ``seat``'s generator into ``buf[:k]`` (``pool``: room)."""
    setsize = 21
    if k > 5:
        x = 1
        while x < 3 * k:  # 4 ** ceil(log(3k, 4))
            x *= 4
        setsize += x
    for i in range(m):
        pool[i] = buf[i]
    if m <= setsize:
        for i in range(k):
            j = policy_below(T, S, g, seat, m - i)
            buf[i] = pool[j]
            pool[j] = pool[m - i - 1]
    else:
        chosen = pool[m:]
        for i in range(k):
            j = policy_below(T, S, g, seat, m)
            again = True
            while again:
                again = False
                for t in range(i):
                    if chosen[t] == j:
                        again = True
                        j = policy_below(T, S, g, seat, m)
                        break
            chosen[i] = j
            buf[i] = pool[j]


@njit(cache=True, _nrt=False)
def choose_greedy(T, S, g, W, D, buf, k, f):
    """ValueBot.greedy (limit 24) for game ``g``'s current player, on the game itself (a
    determinisation already: the search bot's playouts): more than 24 legal actions are cut to a
    random 24 (random.Random.sample; ending the turn always weighed, last), then the trades and the
    robber as :func:`choose_value`, every other action by the value of the position it leads to
    (rolling: the position itself), with no pushed decisions played out and no offers."""
    if k == 1:
        return buf[0]
    top = STACK + 3 * S[g, SC_DEPTH] - 3
    ph = S[g, top]
    me = S[g, top + 1]
    if k > 24:
        end = False
        for i in range(k):
            if buf[i] == A_END:
                end = True
        sample_into(T, S, g, me, buf, k, 24, D[4])
        k = 24
        if end:
            buf[k] = A_END
            k += 1
    if ph == PH_TRADE_RESPONSE:
        return value_answer(T, S, g, me, W, D, buf, k, f)
    if ph == PH_TRADE_CONFIRM:
        return value_confirm(T, S, g, buf, k)
    if ph == PH_ROBBER:
        return robber_pick(T, S, g, me, buf, k, S, g)
    best = buf[0]
    best_v = -1e18
    for i in range(k):
        a = buf[i]
        if a == A_ROLL:
            v = position_value(T, S, g, me, W, f)
        else:
            copy_game(T, S, g, D, 1)
            if T[P_EXACT] and a == A_BUY:  # the copy draws from the game's generator as it stands
                fork_mt(T, S, g, 0, D, 1)
            apply(T, D, 1, a, -1)
            after_action(T, D, 1, a)
            v = position_value(T, D, 1, me, W, f) + policy_float(T, S, g, me) * 1e-6
        if v > best_v:
            best, best_v = a, v
    return best


# ################################################################ the jobs
# The kernel's jobs: one compiled entry point per job, everything else stays in Python.
# 
# * :func:`play_games` plays many games from their founding to the end (simulations, benchmarks);
# * :func:`play_from` plays on from positions loaded from the engine (search rollouts, playouts
#   after a chosen opening);
# * :func:`legal_masks`, :func:`step_many` and :func:`observe_many` step a batch of games one
#   action each (the vectorised reinforcement-learning environment).

@njit(cache=True, _nrt=False, inline=_into_play_out)
def choose(T, S, g, policy, W, D, buf, f):
    """The action ``policy`` (POL_RANDOM, POL_WEIGHTED, POL_VALUE) picks for game ``g``'s current player."""
    k = legal(T, S, g, buf, False)  # the bots of the engine list no domestic offers either
    if policy == POL_RANDOM:
        return choose_random(T, S, g, buf, k)
    if policy == POL_WEIGHTED:
        return choose_weighted(T, S, g, buf, k)
    return choose_value(T, S, g, W, D, buf, k, f, f[:0])


@njit(cache=True, _nrt=False)
def play_out(T, S, g, seat_policy, W, D, max_turns, max_actions, log, buf, f):
    """bots.play_game: the seats' policies play game ``g`` until it is over or more than
    ``max_turns`` turns have begun (``max_turns < 0``: no limit); ``max_actions`` guards the loop."""
    start = S[g, SC_ACTIONS]
    while not is_over(S, g):
        if max_turns >= 0 and S[g, SC_TURN] > max_turns:
            break
        if S[g, SC_ACTIONS] - start >= max_actions:
            S[g, SC_OVERFLOW] = 1
            break
        a = choose(T, S, g, seat_policy[current(S, g)], W, D, buf, f)
        step(T, S, g, a, log)


@njit(cache=True, _nrt=False)
def record(T, S, g, out):
    """A result row: winner, turns begun, actions, overflow, Longest Road and Largest Army holders,
    then per seat VP, settlements, cities, VP cards, road length, knights played."""
    out[R_WINNER] = S[g, SC_WINNER]
    out[R_TURN] = S[g, SC_TURN]
    out[R_ACTIONS] = S[g, SC_ACTIONS]
    out[R_OVERFLOW] = S[g, SC_OVERFLOW]
    out[R_LR] = S[g, SC_LR]
    out[R_LA] = S[g, SC_LA]
    for p in range(T[P_N]):
        b = R_HEAD + R_SEAT * p
        out[b + R_VP] = vp(T, S, g, p)
        out[b + R_SETTLEMENTS] = S[g, T[O_PIECES] + 3 * p + K_SETTLE]
        out[b + R_CITIES] = S[g, T[O_PIECES] + 3 * p + K_CITY]
        out[b + R_VP_CARDS] = S[g, T[O_DEV] + 5 * p + VICTORY_POINT]
        out[b + R_ROAD] = S[g, T[O_ROAD_LEN] + p]
        out[b + R_KNIGHTS] = S[g, T[O_KNIGHTS] + p]


@njit(cache=True)
def play_games(T, seeds, starting_seats, boards, seat_policy, W, max_turns, max_actions, logs, results):
    """Play game i (0 <= i < len(seeds)) from its founding on ``boards[i]`` with ``seeds[i]`` and
    the seats' ``seat_policy[i]``; its result row to ``results[i]`` and its actions to ``logs[i]``
    (room for none: nothing recorded)."""
    S = np.zeros((1, T[P_ROW_SIZE]), np.int64)
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    for i in range(seeds.shape[0]):
        new_game(T, S, 0, seeds[i], starting_seats[i], boards[i])
        play_out(T, S, 0, seat_policy[i], W, D, max_turns, max_actions, logs[i], buf, f)
        record(T, S, 0, results[i])


@njit(cache=True)
def play_from(T, S, seat_policy, W, max_turns, max_actions, logs, results):
    """Play on every game (row) of ``S`` from where it stands, as :func:`play_games` does."""
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    for g in range(S.shape[0]):
        play_out(T, S, g, seat_policy[g], W, D, max_turns, max_actions, logs[g], buf, f)
        record(T, S, g, results[g])


@njit(cache=True)
def legal_list(T, S, g, offers, out):
    """The legal actions of game ``g`` (catalogue indices, the engine's order) into ``out``; how many."""
    return legal(T, S, g, out, offers)


@njit(cache=True)
def step_one(T, S, g, a, log):
    """Apply action ``a`` to game ``g`` (no check: take it from the legal actions); its outcome."""
    return step(T, S, g, a, log)


@njit(cache=True)
def choose_one(T, S, g, policy, W):
    """The action ``policy`` picks in game ``g`` now."""
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    return choose(T, S, g, policy, W, D, buf, f)


# ################################################################ random boards in the kernel
# Board.random's recipe (B-SETUP-9..14, X56-BOARD-1..6): the terrains shuffled into the hexes in
# row order, the lettered tokens laid along the spiral skipping the deserts, the robber on the first
# desert, the harbours where the layout puts them.  ``tmpl`` (see tables.random_template): the
# number of hexes H, intersections N and letters K, then the terrains' resources (-1 desert), the
# spiral (hex ids), the letters and each intersection's harbour.
@njit(cache=True, _nrt=False)
def random_board(T, S, g, tmpl, out):
    """Draw a board with game ``g``'s generator into ``out`` (a board row, as new_game reads it)."""
    H, N, K = tmpl[0], tmpl[1], tmpl[2]
    TERR, SPIRAL, LET, HARB = 3, 3 + H, 3 + 2 * H, 3 + 2 * H + K
    for i in range(H):
        out[i] = tmpl[TERR + i]
    for i in range(H - 1, 0, -1):  # Fisher-Yates, as random.shuffle
        j = rng_below(T, S, g, i + 1)
        out[i], out[j] = out[j], out[i]
    k = 0
    for i in range(H):
        hx = tmpl[SPIRAL + i]
        if out[hx] >= 0:
            out[H + hx] = tmpl[LET + k]
            k += 1
        else:
            out[H + hx] = 0
    for v in range(N):
        out[2 * H + v] = tmpl[HARB + v]
    out[2 * H + N] = 0
    for hx in range(H):
        if out[hx] < 0:
            out[2 * H + N] = hx
            break


BOARD_SALT = 0x5851F42D4C957F2D


@njit(cache=True)
def play_random_boards(T, tmpl, seeds, starting_seats, seat_policy, W, max_turns, max_actions, logs, results,
                       boards):
    """play_games on boards drawn in the kernel: game i's board from ``seeds[i]`` (salted) into
    ``boards[i]``, then the game from ``seeds[i]``."""
    S = np.zeros((1, T[P_ROW_SIZE]), np.int64)
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    for i in range(seeds.shape[0]):
        rng_seed(T, S, 0, np.uint64(seeds[i]) ^ np.uint64(BOARD_SALT))
        random_board(T, S, 0, tmpl, boards[i])
        new_game(T, S, 0, seeds[i], starting_seats[i], boards[i])
        play_out(T, S, 0, seat_policy[i], W, D, max_turns, max_actions, logs[i], buf, f)
        record(T, S, 0, results[i])


# ################################################################ the vectorised environment
# The observation of catan_nb.envs.observe, written by the kernel.  ``ol`` holds where its parts
# start (OL_*), then the observation's phase index of each kernel phase (-1: none).
(OL_CURRENT, OL_ACTIVE, OL_HAND, OL_DEV, OL_SEATS, OL_BANK, OL_HEXES, OL_NODES, OL_EDGES, OL_OFFER, OL_SIZE,
 OL_PHASES) = range(12)


@njit(cache=True, _nrt=False)
def observe_into(T, S, g, player, ol, terr, out, high):
    """envs.observe(game, player) into ``out`` (float32): seats rotated so that ``player`` is
    first; only public counts of the other seats.  ``terr``: each hex's terrain channel (-1 none)."""
    n = T[P_N]
    H = T[P_HEXES]
    N = T[P_NODES]
    size = ol[OL_SIZE]
    for i in range(size):
        out[i] = 0.0
    HX = ol[OL_HEXES]
    for hx in range(H):  # the board: terrains, numbers and pips, harbours
        if terr[hx] >= 0:
            out[HX + 9 * hx + 1 + terr[hx]] = 1.0
        tok = S[g, T[O_HEX_TOKEN] + hx]
        out[HX + 9 * hx + 7] = tok
        out[HX + 9 * hx + 8] = (6 - abs(7 - tok)) if tok else 0
    w = 2 * n + 6
    NO = ol[OL_NODES]
    for v in range(N):
        hb = S[g, T[O_NODE_HARBOUR] + v]
        if hb >= 0:
            out[NO + v * w + 2 * n + hb] = 1.0
    top = STACK + 3 * S[g, SC_DEPTH] - 3
    k = ol[OL_PHASES + S[g, top]]
    if k >= 0:
        out[k] = 1.0
    out[ol[OL_CURRENT] + (S[g, top + 1] - player) % n] = 1.0
    out[ol[OL_ACTIVE] + (S[g, SC_ACTIVE] - player) % n] = 1.0
    HA = T[O_HANDS]
    DV = T[O_DEV]
    for r in range(5):
        out[ol[OL_HAND] + r] = S[g, HA + 5 * player + r]
        out[ol[OL_DEV] + r] = S[g, DV + 5 * player + r]
        out[ol[OL_DEV] + 5 + r] = S[g, T[O_DEV_NEW] + 5 * player + r]
    for j in range(n):
        q = (player + j) % n
        b = ol[OL_SEATS] + 10 * j
        out[b] = hand_total(T, S, g, q)
        dv = 0
        for c in range(5):
            dv += S[g, DV + 5 * q + c]
        out[b + 1] = dv
        out[b + 2] = S[g, T[O_KNIGHTS] + q]
        out[b + 3] = visible_vp(T, S, g, q)
        out[b + 4] = S[g, T[O_ROAD_LEN] + q]
        out[b + 5] = 1.0 if S[g, SC_LR] == q else 0.0
        out[b + 6] = 1.0 if S[g, SC_LA] == q else 0.0
        PC = T[O_PIECES] + 3 * q
        out[b + 7] = T[P_LIM_ROAD] - S[g, PC + K_ROAD]
        out[b + 8] = T[P_LIM_SETTLE] - S[g, PC + K_SETTLE]
        out[b + 9] = T[P_LIM_CITY] - S[g, PC + K_CITY]
    deck = 0
    for r in range(5):
        out[ol[OL_BANK] + r] = S[g, T[O_BANK] + r]
        deck += S[g, T[O_DECK] + r]
    out[ol[OL_BANK] + 5] = deck
    out[HX + 9 * S[g, SC_ROBBER]] = 1.0
    OW = T[O_NODE_OWNER]
    for v in range(N):
        o = S[g, OW + v]
        if o >= 0:
            out[NO + v * w + 2 * ((o - player) % n) + S[g, T[O_NODE_KIND] + v] - 1] = 1.0
    EO = T[O_EDGE_OWNER]
    ED = ol[OL_EDGES]
    for e in range(T[P_EDGES]):
        o = S[g, EO + e]
        if o >= 0:
            out[ED + (o - player) % n + e * n] = 1.0
    OF = ol[OL_OFFER]
    if S[g, SC_OFFER_GIVE] >= 0:
        out[OF + S[g, SC_OFFER_GIVE]] = 1.0
        out[OF + 5 + S[g, SC_OFFER_GET]] = 1.0
    acc = S[g, SC_ACCEPTED]
    for q in range(n):
        if acc & (1 << q):
            out[OF + 10 + (q - player) % n] = 1.0
    owed = 0
    for i in range(S[g, SC_DEPTH]):
        d = STACK + 3 * i
        if S[g, d] == PH_DISCARD and S[g, d + 1] == player and S[g, d + 2]:
            owed = S[g, d + 2]
    out[size - 1] = owed  # every entry is a count of a few pieces, cards or pips: never above ``high``


@njit(cache=True)
def env_observe(T, S, g, ol, terr, obs, masks, high, buf):
    """The observation and action mask of game ``g``'s current player (no mask once it is over)."""
    player = current(S, g)
    observe_into(T, S, g, player, ol, terr[g], obs[g], high)
    for i in range(masks.shape[1]):
        masks[g, i] = 0
    if not is_over(S, g):
        k = legal(T, S, g, buf, True)
        for i in range(k):
            masks[g, buf[i]] = 1
    return player


@njit(cache=True)
def env_reset_one(T, S, g, tmpl, fixed, seed, terr, log_rows):
    """Start game ``g`` afresh: on the fixed board row, or on a board drawn from ``seed``."""
    if fixed.shape[0] > 0:
        new_game(T, S, g, seed, 0, fixed)
    else:
        row = np.empty(2 * T[P_HEXES] + T[P_NODES] + 1, np.int64)
        rng_seed(T, S, g, np.uint64(seed) ^ np.uint64(BOARD_SALT))
        random_board(T, S, g, tmpl, row)
        new_game(T, S, g, seed, 0, row)
        for hx in range(T[P_HEXES]):
            terr[g, hx] = row[hx] if row[hx] >= 0 else 5  # kernel boards: a resource's terrain, or desert
    if log_rows.shape[1] > 0:
        S[g, SC_NLOG] = 0


@njit(cache=True)
def env_step(T, S, tmpl, fixed, seeds, ol, terr, actions, obs, masks, rewards, seat_rewards, terms, truncs,
             acted, pending, episodes, max_turns, high, logs, players):
    """One step of every game (gymnasium's next-step autoreset): a game that ended at the last step
    starts afresh (its action ignored); the others apply their action, checked against the mask
    (the game ``g`` of an illegal action is returned, else -1), and are observed for the player to
    act next.  Rewards: +1 to the winner and -1 to the others when a game ends (``seat_rewards``),
    and the acting seat's in ``rewards``."""
    G = S.shape[0]
    n = T[P_N]
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    for g in range(G):
        rewards[g] = 0.0
        terms[g] = False
        truncs[g] = False
        for q in range(n):
            seat_rewards[g, q] = 0.0
        if pending[g]:
            episodes[g] += 1
            env_reset_one(T, S, g, tmpl, fixed, seeds[g] + np.uint64(episodes[g]) * np.uint64(G), terr, logs)
            pending[g] = False
            acted[g] = -1
        else:
            a = actions[g]
            if a < 0 or a >= masks.shape[1] or masks[g, a] == 0:
                return g
            p = current(S, g)
            acted[g] = p
            step(T, S, g, a, logs[g])
            if is_over(S, g):
                terms[g] = True
                pending[g] = True
                w = S[g, SC_WINNER]
                for q in range(n):
                    seat_rewards[g, q] = 1.0 if q == w else -1.0
                rewards[g] = seat_rewards[g, p]
            elif S[g, SC_TURN] >= max_turns:
                truncs[g] = True
                pending[g] = True
        players[g] = env_observe(T, S, g, ol, terr, obs, masks, high, buf)
    return -1


@njit(cache=True)
def env_reset(T, S, tmpl, fixed, seeds, ol, terr, obs, masks, high, logs, players):
    """Every game afresh, game ``g`` from ``seeds[g]``; observed."""
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    for g in range(S.shape[0]):
        env_reset_one(T, S, g, tmpl, fixed, seeds[g], terr, logs)
        players[g] = env_observe(T, S, g, ol, terr, obs, masks, high, buf)


@njit(cache=True)
def values_of(T, S, g, W, out):
    """The value policy's score of each legal action of game ``g`` (its _by_value phases), into
    ``out``; returns how many (for tests: ValueBot.explain's values)."""
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    k = legal(T, S, g, buf, False)
    choose_value(T, S, g, W, D, buf, k, f, out)
    return k


@njit(cache=True)
def features_of(T, S, g, me, out):
    """The value features of ``me`` in game ``g`` (for tests and notebooks), into ``out``."""
    f = np.empty(N_FEATURES + 10)
    features(T, S, g, me, f)
    for i in range(N_FEATURES):
        out[i] = f[i]


# ################################################################ exact simulations (catan_nb.analysis.simulate)
@njit(cache=True, _nrt=False)
def random_board_exact(T, S, g, tmpl, seed, out):
    """Board.random(seed) (default options) as a board row: random.Random(seed).shuffle of the
    terrains, in exact mode (the generator of slot n + 2)."""
    H, N, K = tmpl[0], tmpl[1], tmpl[2]
    TERR, SPIRAL, LET, HARB = 3, 3 + H, 3 + 2 * H, 3 + 2 * H + K
    slot = T[P_N] + 2
    mt_seed(T, S, g, slot, seed)
    for i in range(H):
        out[i] = tmpl[TERR + i]
    for i in range(H - 1, 0, -1):
        j = mt_randbelow(T, S, g, slot, i + 1)
        out[i], out[j] = out[j], out[i]
    k = 0
    for i in range(H):
        hx = tmpl[SPIRAL + i]
        if out[hx] >= 0:
            out[H + hx] = tmpl[LET + k]
            k += 1
        else:
            out[H + hx] = 0
    for v in range(N):
        out[2 * H + v] = tmpl[HARB + v]
    out[2 * H + N] = 0
    for hx in range(H):
        if out[hx] < 0:
            out[2 * H + N] = hx
            break


@njit(cache=True)
def simulate_exact(T, tmpl, fixed, given, game_seeds, board_seeds, bot_seeds, starting_seat, seat_policy, W,
                   max_turns, max_actions, results, rows):
    """simulate's games, exactly: game i on Board.random(board_seeds[i]) (or the fixed board row, or
    with ``given`` the board row already in ``rows[i]``),
    Game(seed=game_seeds[i]), bots seeded by bot_seeds[i] (random.Random each), founding from
    ``starting_seat``; its result row to ``results[i]``."""
    S = np.zeros((1, T[P_ROW_SIZE]), np.int64)
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    nolog = np.zeros((0, 2), np.int32)
    n = T[P_N]
    for i in range(game_seeds.shape[0]):
        row = rows[i]
        if fixed.shape[0] > 0:
            for j in range(row.shape[0]):
                row[j] = fixed[j]
        elif not given:
            random_board_exact(T, S, 0, tmpl, board_seeds[i], row)
        new_game(T, S, 0, game_seeds[i], starting_seat, row)
        mt_seed(T, S, 0, 0, game_seeds[i])
        for p in range(n):
            mt_seed(T, S, 0, 1 + p, bot_seeds[i, p])
            S[0, T[P_X_OFFERED] + p] = -1
        play_out(T, S, 0, seat_policy, W, D, max_turns, max_actions, nolog, buf, f)
        record(T, S, 0, results[i])


# ################################################################ search rollouts (catan_nb.analysis.search_bot)
@njit(cache=True, _nrt=False)
def node_pips(T, S, g, v):
    """Pips of the hexes an intersection collects from (the rollout policy's measure of a spot)."""
    x = 0
    NH = T[TO_NODE_HEXES] + T[P_KH] * v
    for i in range(T[P_KH]):
        hx = T[NH + i]
        if hx < 0:
            break
        t = S[g, T[O_HEX_TOKEN] + hx]
        if t:
            x += 6 - abs(7 - t)
    return x


@njit(cache=True, _nrt=False)
def choose_rollout(T, S, g, buf, k, slot):
    """search_bot.rollout_policy, drawing from generator ``slot``: build when it can (city, the
    best settlement spot, then a card or a road), trade 4:1 toward a city or a settlement, roll,
    end; the robber on the best hex of the others, the biggest pile discarded."""
    if k == 1:
        return buf[0]
    top = STACK + 3 * S[g, SC_DEPTH] - 3
    ph = S[g, top]
    me = S[g, top + 1]
    if ph == PH_ROLL:
        return A_ROLL
    HA = T[O_HANDS] + 5 * me
    if ph == PH_DISCARD:
        best = buf[0]
        for i in range(1, k):
            if S[g, HA + buf[i] - T[P_A_DISC]] > S[g, HA + best - T[P_A_DISC]]:
                best = buf[i]
        return best
    if ph == PH_ROBBER:
        best = buf[0]
        best_v = -1000000000
        for i in range(k):
            a = buf[i]
            hx, victim = robber_move(T, a)
            t = S[g, T[O_HEX_TOKEN] + hx]
            pips = (6 - abs(7 - t)) if t else 0
            v = 0
            HN = T[TO_HEX_NODES] + T[P_KN] * hx
            for j in range(T[P_KN]):
                u = T[HN + j]
                if u < 0:
                    break
                o = S[g, T[O_NODE_OWNER] + u]
                if o >= 0:
                    v += (-3 if o == me else 1) * pips
            if victim >= 0:
                v += 1
            if v > best_v:
                best, best_v = a, v
        return best
    if ph == PH_TRADE_RESPONSE:
        return A_DECLINE
    if ph == PH_TRADE_CONFIRM:
        return buf[0]
    if ph == PH_MAIN:
        settle = -1
        best_p = -1
        buy = False
        roads = 0
        for i in range(k):
            a = buf[i]
            if T[P_A_CITY] <= a < T[P_A_ROAD]:
                return a
            if T[P_A_SETTLE] <= a < T[P_A_CITY]:
                x = node_pips(T, S, g, a - T[P_A_SETTLE])
                if x > best_p:
                    settle, best_p = a, x
            elif a == A_BUY:
                buy = True
            elif T[P_A_ROAD] <= a < T[P_A_YOP]:
                roads += 1
        if settle >= 0:
            return settle
        if buy and mt_random(T, S, g, slot) < 0.5:
            return A_BUY
        if roads and mt_random(T, S, g, slot) < 0.6:
            j = int(mt_random(T, S, g, slot) * roads)
            for i in range(k):
                a = buf[i]
                if T[P_A_ROAD] <= a < T[P_A_YOP]:
                    if j == 0:
                        return a
                    j -= 1
        for b in range(2):
            CO = T[TO_COST] + 5 * (C_CITY if b == 0 else C_SETTLE)
            short = -1
            count = 0
            for r in range(5):
                if S[g, HA + r] < T[CO + r]:
                    count += 1
                    short = r
            if count == 1:
                for i in range(k):
                    a = buf[i]
                    if T[P_A_MAR] <= a < T[P_A_OFFER]:
                        x = a - T[P_A_MAR]
                        give = x // 4
                        get = x % 4
                        if get >= give:
                            get += 1
                        if get == short and S[g, HA + give] - rate(T, S, g, me, give) >= T[CO + give]:
                            return a
        return A_END
    return buf[int(mt_random(T, S, g, slot) * k)]


@njit(cache=True)
def rollout(T, S, g, me, turn, horizon, W, scale, own=False):
    """SearchBot._search's rollout and leaf, exactly (in exact mode, seat ``me``'s generator being
    the search bot's): the rest of ``me``'s turn by the value bot (at most 30 actions), then the
    rollout policy until ``horizon`` turns have begun (at most 400 actions in all), or with ``own``
    until ``me`` has ended its turn (the others' Special Building Phase is not played); the leaf is
    ``me``'s lead over the best opponent in units of ``scale`` (+-10 for a finished game)."""
    D = np.zeros((5, max(T[P_ROW_SIZE], T[P_N_ACTIONS] + 8)), np.int64)
    buf = np.empty(T[P_N_ACTIONS] + 8, np.int64)
    f = np.empty(N_FEATURES + 10)
    nolog = np.zeros((0, 2), np.int32)
    steps = 0
    while not is_over(S, g) and S[g, SC_TURN] == turn and current(S, g) == me and steps < 30:
        k = legal(T, S, g, buf, False)
        step(T, S, g, choose_greedy(T, S, g, W, D, buf, k, f), nolog)
        steps += 1
    while not is_over(S, g) and S[g, SC_TURN] < horizon and steps < 400:
        if own and top_phase(S, g) == PH_SBP:  # me ended its turn (X56-SBP-1)
            break
        k = legal(T, S, g, buf, False)
        step(T, S, g, choose_rollout(T, S, g, buf, k, 1 + me), nolog)
        steps += 1
    if is_over(S, g):
        return 10.0 if S[g, SC_WINNER] == me else -10.0
    mine = position_value(T, S, g, me, W, f)
    other = -np.inf
    for q in range(T[P_N]):
        if q != me:
            other = max(other, position_value(T, S, g, q, W, f))
    return (mine - other) / scale


@njit(cache=True, _nrt=False)
def search_begin(T, S, me):
    """One search iteration (exact mode): row 1 becomes Game.determinized(row 0, me, getrandbits(32))
    with the search bot's generator (seat ``me``'s) and its offer turn carried over from row 0;
    the determinised game draws from its own generator (slot 0)."""
    n = T[P_N]
    copy_game(T, S, 0, S, 1)
    at0 = T[P_X_MT] + 625 * (1 + me)
    for i in range(625):
        S[1, at0 + i] = S[0, at0 + i]
    S[1, T[P_X_OFFERED] + me] = S[0, T[P_X_OFFERED] + me]
    determinize(T, S, 1, me, S, 1)
    src = T[P_X_MT] + 625 * (n + 3)
    dst = T[P_X_MT]
    for i in range(625):
        S[1, dst + i] = S[1, src + i]


@njit(cache=True, _nrt=False)
def search_end(T, S, me):
    """Carry the search bot's generator and offer turn back from row 1 to row 0."""
    at = T[P_X_MT] + 625 * (1 + me)
    for i in range(625):
        S[0, at + i] = S[1, at + i]
    S[0, T[P_X_OFFERED] + me] = S[1, T[P_X_OFFERED] + me]


@njit(cache=True, _nrt=False)
def draw_random(T, S, g, slot):
    """random.Random.random() of generator ``slot`` of game ``g`` (for the search's tree walk)."""
    return mt_random(T, S, g, slot)


# ################################################################ one compiled copy of each function
def _one_specialisation(dispatcher) -> None:
    """Compile ``dispatcher`` once per kind of argument, not once per constant.

    Called from compiled code with a constant argument (``push(S, g, PH_ROBBER, p, 0)``), numba
    compiles a copy for that constant's literal type: the kernel had hundreds of such copies and a
    cold compile took minutes.  Typing the call with the constants' plain types instead gives one
    copy per function; LLVM still inlines the small ones and folds the constants at each call.
    """
    from numba.core import types

    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


#: The functions Python calls (catan_nb.fast, its vectorised environment, the search bot); the others
#: are called from compiled code only and get no Python wrappers (less to compile).
ENTRY_POINTS = frozenset({
    "play_games", "play_random_boards", "play_from", "simulate_exact", "legal_list", "step_one", "choose_one",
    "new_game", "rollout", "search_begin", "search_end", "draw_random", "env_reset", "env_step", "index_producers",
    "rng_seed", "values_of", "features_of",
})


def _specialise_once() -> None:
    from numba.core.dispatcher import Dispatcher

    for name, f in list(globals().items()):
        if isinstance(f, Dispatcher):
            _one_specialisation(f)
            if name not in ENTRY_POINTS:
                f.targetoptions.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)


_specialise_once()

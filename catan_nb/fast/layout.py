"""Where everything lives in the kernel's two flat arrays (plain Python: no numba here).

``T`` (int64[...]) holds, in order: the rule options and sizes (``P_*``), the offsets of every
field of a game's state (``O_*``), the offsets of every table (``TO_*``), then the tables (the
board's geometry, costs, the catalogue's Year of Plenty offsets, the bank and deck to start).
``S`` (int64[G, size]) holds one game per row: its scalars (``SC_*``) and decision stack first,
at fixed places, then the fields at the offsets ``T[O_*]``.  One array each keeps numba's
compile short (a tuple of arrays costs reference counting at every call) and copying a game a
single row copy.
"""

from __future__ import annotations

# ---------------------------------------------------------------- T[0:P_SIZE]: options and sizes
(P_N, P_NODES, P_EDGES, P_HEXES, P_VP_TARGET, P_DISCARD_LIMIT, P_KNIGHTS_ONLY, P_STEAL_MANDATORY, P_COMBINED,
 P_SINGLE_TAKER, P_FIVE_SIX, P_LIM_SETTLE, P_LIM_CITY, P_LIM_ROAD, P_LR_MIN, P_LA_MIN, P_SPECIAL_VP,
 P_A_END_SBP, P_A_SETTLE, P_A_CITY, P_A_ROAD, P_A_YOP, P_A_MONO, P_A_MAR, P_A_OFFER, P_A_DISC, P_A_ROB,
 P_A_STEAL, P_A_CONFIRM, P_N_ACTIONS, P_SMAX, P_KH, P_KN, P_KP, P_N_LAND, P_STATE_SIZE, P_ROW_SIZE,
 P_X_VALUE, P_X_SITES, P_EXACT, P_VALUE_OFFERS, P_DICE_STREAM, P_X_MT, P_X_DET, P_X_OFFERED, P_SIZE) = range(46)
P_NAMES = ("N", "NODES", "EDGES", "HEXES", "VP_TARGET", "DISCARD_LIMIT", "KNIGHTS_ONLY", "STEAL_MANDATORY",
           "COMBINED", "SINGLE_TAKER", "FIVE_SIX", "LIM_SETTLE", "LIM_CITY", "LIM_ROAD", "LR_MIN", "LA_MIN",
           "SPECIAL_VP", "A_END_SBP", "A_SETTLE", "A_CITY", "A_ROAD", "A_YOP", "A_MONO", "A_MAR", "A_OFFER",
           "A_DISC", "A_ROB", "A_STEAL", "A_CONFIRM", "N_ACTIONS", "SMAX", "KH", "KN", "KP", "N_LAND",
           "STATE_SIZE", "ROW_SIZE", "X_VALUE", "X_SITES", "EXACT", "VALUE_OFFERS", "DICE_STREAM", "X_MT", "X_DET",
           "X_OFFERED")

# ---------------------------------------------------------------- T[O_*]: offsets of a game's fields in S[g]
(O_BANK, O_DECK, O_HANDS, O_DEV, O_DEV_NEW, O_KNIGHTS, O_NODE_OWNER, O_NODE_KIND, O_EDGE_OWNER, O_BLOCKED,
 O_TOUCH, O_PIECES, O_BOARD_VP, O_ROAD_LEN, O_HARB, O_ROADS, O_HEX_RESOURCE, O_HEX_TOKEN, O_NODE_HARBOUR,
 O_PRODUCERS, O_RNG, O_HEX_PLAYERS, O_END) = range(P_SIZE, P_SIZE + 23)
#: Each field's size from (players n, intersections N, paths E, hexes H, roads per player R, hexes per number KP).
S_FIELDS = (
    ("BANK", lambda n, N, E, H, R, KP: 5),
    ("DECK", lambda n, N, E, H, R, KP: 5),
    ("HANDS", lambda n, N, E, H, R, KP: 5 * n),          # [p, resource]
    ("DEV", lambda n, N, E, H, R, KP: 5 * n),            # [p, card]
    ("DEV_NEW", lambda n, N, E, H, R, KP: 5 * n),        # [p, card] bought this turn (B-TURN-5)
    ("KNIGHTS", lambda n, N, E, H, R, KP: n),            # knights played
    ("NODE_OWNER", lambda n, N, E, H, R, KP: N),         # -1 none
    ("NODE_KIND", lambda n, N, E, H, R, KP: N),          # 1 settlement, 2 city
    ("EDGE_OWNER", lambda n, N, E, H, R, KP: E),         # -1 none
    ("BLOCKED", lambda n, N, E, H, R, KP: N),            # buildings at or next to it (B-BUILD-7)
    ("TOUCH", lambda n, N, E, H, R, KP: n * N),          # [p, v] p's roads at v
    ("PIECES", lambda n, N, E, H, R, KP: 3 * n),         # [p, k] settlements, cities, roads on the board
    ("BOARD_VP", lambda n, N, E, H, R, KP: n),
    ("ROAD_LEN", lambda n, N, E, H, R, KP: n),           # longest road (B-LR-1..3), exact
    ("HARB", lambda n, N, E, H, R, KP: n),               # harbour bits: 1 << resource, 1 << 5 generic
    ("ROADS", lambda n, N, E, H, R, KP: R * n),          # [p, i] p's road paths in order of building
    ("HEX_RESOURCE", lambda n, N, E, H, R, KP: H),       # -1 none
    ("HEX_TOKEN", lambda n, N, E, H, R, KP: H),          # 0 none
    ("NODE_HARBOUR", lambda n, N, E, H, R, KP: N),       # -1 none, 0..4 a resource's 2:1, 5 generic 3:1
    ("PRODUCERS", lambda n, N, E, H, R, KP: 13 * KP),    # [number, i] hexes producing on it (-1 padded)
    ("RNG", lambda n, N, E, H, R, KP: 4),                # xoshiro256** state (bits of uint64)
    ("HEX_PLAYERS", lambda n, N, E, H, R, KP: H),        # bits of the players with a building on the hex
)

# ---------------------------------------------------------------- T[TO_*]: offsets of the tables in T
(TO_EDGE_NODES, TO_NODE_EDGES, TO_NODE_NBRS, TO_NODE_HEXES, TO_NODE_LAND, TO_HEX_NODES, TO_HEX_LAND,
 TO_LAND_HEXES, TO_EDGE_OK, TO_COST, TO_YOP, TO_BANK0, TO_DECK0, TO_END) = range(O_END + 1, O_END + 15)
T_FIELDS = ("EDGE_NODES", "NODE_EDGES", "NODE_NBRS", "NODE_HEXES", "NODE_LAND", "HEX_NODES", "HEX_LAND",
            "LAND_HEXES", "EDGE_OK", "COST", "YOP", "BANK0", "DECK0")
T_HEAD = TO_END + 1

# ---------------------------------------------------------------- scratch space after a game's state in its row
#: A row of S is the game's state (``T[P_STATE_SIZE]`` values, what a copy copies) then scratch space
#: (no allocation in the loop), from ``T[P_STATE_SIZE]``: the longest-road search (``X_TRAIL``),
#: production's collecting buildings (``X_GAIN``), the building sites of one player at one board
#: version (``T[P_X_SITES]``; ``SC_VERSION`` counts the pieces placed) and the value features'
#: search (``T[P_X_VALUE]``, absolute).
X_TRAIL, X_GAIN = 0, 340
X_SITES_HEAD = 5  # player, version, roads, settlements, cities; then the three lists


def scratch(n_nodes: int, n_edges: int, n_hexes: int, hex_corners: int, cities: int) -> tuple[int, int, int]:
    """(sites, value search, size) of the scratch space, from its start."""
    sites = X_GAIN + 3 * n_hexes * hex_corners
    value = sites + X_SITES_HEAD + n_edges + n_nodes + cities
    return sites, value, value + 3 * n_nodes


# ---------------------------------------------------------------- exact mode: Python's generators, as the engine draws
#: In exact mode the kernel draws every chance outcome and every bot's choice from Mersenne Twisters
#: in the scratch space that are the engine's ``random.Random`` generators, state for state (from
#: ``T[P_X_MT]``, MT_SIZE values each: 624 words and the index, as ``Random.getstate()[1]``): the
#: game's (slot 0), each seat's bot (1..n), the dice stream of simulate_openings (n + 1) and two for a
#: value bot's determinisation (n + 2, n + 3).  ``T[P_X_OFFERED]``: the turn each seat's value bot
#: last offered a trade; ``T[P_X_DET]``: the determinisation's card pools.
MT_SIZE = 625
DET_SIZE = 256


def exact_scratch(players: int) -> int:
    """Room the exact mode adds to the scratch space."""
    return players + DET_SIZE + (players + 4) * MT_SIZE

# ---------------------------------------------------------------- S[g, 0:SC_SIZE]: a game's scalars
(SC_ACTIVE, SC_TURN, SC_WINNER, SC_BUILT, SC_DEV_PLAYED, SC_ROBBER, SC_LR, SC_LA, SC_DEPTH, SC_OFFER_GIVE,
 SC_OFFER_GET, SC_ACCEPTED, SC_NLOG, SC_ACTIONS, SC_STARTING_SEAT, SC_OVERFLOW, SC_VERSION, SC_SIZE) = range(18)
#: The decision stack: (phase, player, data) triples from S[g, STACK], the top last.
STACK = SC_SIZE

# ---------------------------------------------------------------- the catalogue's fixed head (catan_nb.envs.action_catalog)
A_END, A_ROLL, A_BUY, A_KNIGHT, A_RB, A_END_RB, A_ACCEPT, A_DECLINE, A_CANCEL = range(9)

# ---------------------------------------------------------------- phases
(PH_FOUND_SETTLE, PH_FOUND_ROAD, PH_FOUND_DONE, PH_ROLL, PH_MAIN, PH_DISCARD, PH_ROBBER, PH_ROAD_BUILDING,
 PH_TRADE_RESPONSE, PH_TRADE_CONFIRM, PH_SBP, PH_OVER) = range(12)
#: The engine's Phase value of each kernel phase.
PHASE_NAMES = ("founding_settlement", "founding_road", "founding_done", "roll", "main", "discard", "move_robber",
               "road_building", "trade_response", "trade_confirm", "special_build", "game_over")

# ---------------------------------------------------------------- costs (rows of the COST table), piece kinds, cards
C_ROAD, C_SETTLE, C_CITY, C_DEV = range(4)
K_SETTLE, K_CITY, K_ROAD = range(3)
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = range(5)
GENERIC_HARBOUR = 5

# ---------------------------------------------------------------- policies
POL_RANDOM, POL_WEIGHTED, POL_VALUE = range(3)
POLICIES = {"random": POL_RANDOM, "weighted": POL_WEIGHTED, "value": POL_VALUE}

# ---------------------------------------------------------------- a result row (catan_nb.fast._jobs.record)
R_WINNER, R_TURN, R_ACTIONS, R_OVERFLOW, R_LR, R_LA, R_HEAD = range(7)
R_VP, R_SETTLEMENTS, R_CITIES, R_VP_CARDS, R_ROAD, R_KNIGHTS, R_SEAT = range(7)

"""Our search bot playing inside catanatron's engine against three of its AlphaBeta bots.

catanatron is not a dependency of catan_nb: install it (3.x, with ``AlphaBetaPlayer``) and our
runtime dependencies in a scratch environment outside the repository, then run this script with
that environment's python::

    python3 -m venv /tmp/catvenv
    /tmp/catvenv/bin/pip install "catanatron @ git+https://github.com/bcollazo/catanatron"  # or a local copy
    /tmp/catvenv/bin/pip install numpy jsonschema tqdm networkx
    PYTHONPATH=. /tmp/catvenv/bin/python benchmarks/vs_catanatron.py --games 20 --workers 2

A long run prints its running win rate every ``--progress`` games on stderr; with ``--log FILE``
each game's result is appended as it ends, and running the same command again plays only the
games the file does not hold yet (game ``i`` is seeded by ``--seed`` and ``i`` alone).

Each game is catanatron's own base game (its board, dice, robber, development deck; no domestic
trades, as in the published benchmark). One seat (rotated over the games) is a
:class:`SeatBridge`: every time catanatron asks it to decide, the bridge brings a catan_nb
:class:`~catan_nb.rules.Game` up to date by replaying catanatron's action records (dice, cards
drawn, cards stolen and discards included, so the two engines hold the same position), asks our
bot, and plays the catanatron action that means the same thing. Our bot decides on
``Game.determinized`` copies of its own view only, so replaying the true position gives it no
hidden information. If our engine refuses a replayed action (a rule difference: catanatron lets a
road pass an opponent's building in some positions), the bridge mirrors it unchecked and counts it;
where the hands differ after a replay (catanatron's production from a short bank, a one-card Year
of Plenty), the bridge takes catanatron's counts and counts that too; any other failure counts a
desync, and the seat plays catanatron's first legal action for the rest of that game.

The last line is ``search_vs_alphabeta: X  games: N  interval: [lo, hi]`` (win rate of our
seat, par 0.25, 95% Wilson interval). The published figure to beat is an ISMCTS bot winning
38.9% [35.3, 42.4] of 800 4-player games against three AlphaBeta bots.
"""

from __future__ import annotations

import os
import sys

# benchmarks/copy.py is named like the standard library's copy: keep this folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CORNER = {"NORTH": "N", "NORTHEAST": "NE", "SOUTHEAST": "SE", "SOUTH": "S", "SOUTHWEST": "SW", "NORTHWEST": "NW"}
TERRAIN = {"WOOD": "forest", "BRICK": "hills", "SHEEP": "pasture", "WHEAT": "fields", "ORE": "mountains"}
RESOURCE = {"WOOD": "lumber", "BRICK": "brick", "SHEEP": "wool", "WHEAT": "grain", "ORE": "ore"}
DEV = {"KNIGHT": "knight", "VICTORY_POINT": "victory_point", "ROAD_BUILDING": "road_building",
       "YEAR_OF_PLENTY": "year_of_plenty", "MONOPOLY": "monopoly"}
ROWS = (3, 4, 5, 4, 3)
DEBUG = False


def _discard_type():
    from catanatron.models.enums import ActionType

    return getattr(ActionType, "DISCARD_RESOURCE", None) or ActionType.DISCARD  # renamed in catanatron 3.3


def build_board(cmap):
    """catan_nb's Board for catanatron's map, with the node and hex correspondences."""
    from catanatron.models.map import PORT_DIRECTION_TO_NODEREFS
    from catanatron.models.tiles import Port

    from catan_nb import Board, hexgrid

    cells, hexes, desert = {}, [], None
    for (x, _y, z), tile in cmap.land_tiles.items():
        row, col = hexgrid.axial_to_offset((x - 1, z + 2), ROWS)  # catanatron's centre is (0, 0, 0)
        cells[(x, _y, z)] = (row, col)
        if tile.resource is None:
            desert = (row, col)
            hexes.append({"row": row, "col": col, "terrain": "desert", "token": None})
        else:
            hexes.append({"row": row, "col": col, "terrain": TERRAIN[tile.resource], "token": tile.number})
    probe = Board.from_dict({"name": "probe", "layout": "base", "rows": list(ROWS), "hexes": hexes,
                             "harbours": [], "robber": list(desert)}, source="catanatron map")
    nmap = {}
    for coord, tile in cmap.land_tiles.items():
        for ref, nid in tile.nodes.items():
            nmap[nid] = probe.node_at(cells[coord], CORNER[ref.value])
    harbours = []
    for tile in cmap.tiles.values():
        if not isinstance(tile, Port):
            continue
        a, b = PORT_DIRECTION_TO_NODEREFS[tile.direction]
        pair = {nmap[tile.nodes[a]], nmap[tile.nodes[b]]}
        for coord, rc in cells.items():
            for side, (c1, c2) in hexgrid.SIDE_CORNERS.items():
                if {probe.node_at(rc, c1), probe.node_at(rc, c2)} == pair:
                    harbours.append({"hex": list(rc), "side": side,
                                     "resource": RESOURCE[tile.resource] if tile.resource else None})
                    break
            else:
                continue
            break
    board = Board.from_dict({"name": "catanatron", "layout": "base", "rows": list(ROWS), "hexes": hexes,
                             "harbours": harbours, "robber": list(desert)}, source="catanatron map")
    hexmap = {coord: board.hex_at(*rc).id for coord, rc in cells.items()}
    return board, nmap, hexmap


class SeatBridge:
    """A catanatron player that decides with a catan_nb bot (see the module docstring)."""

    def __init__(self, color, make_bot):
        self.color = color
        self.is_bot = True
        self.make_bot = make_bot
        self.reset_state()

    def reset_state(self):
        self.game = None
        self.seen = 0
        self.discards: dict[int, list[int]] = {}
        self.desync = 0
        self.reconciled = 0
        self.mirrored = 0
        self.fallbacks = 0
        self.decisions = 0

    # catanatron calls this
    def decide(self, cgame, playable_actions):
        if self.game is None:
            self._start(cgame)
        if self.desync:
            return playable_actions[0]
        try:
            self._sync(cgame)
        except Exception as err:  # a rule difference between the engines: stop using our bot this game
            self.desync = 1
            import traceback

            self.error = repr(err) + " " + traceback.format_exc(limit=-2).replace("\n", " | ")
            return playable_actions[0]
        self.decisions += 1
        if len(playable_actions) == 1:
            return playable_actions[0]
        g = self.game
        seat = cgame.state.colors.index(self.color)
        if g.current_player != seat:  # e.g. a discard asked in another order than ours
            return self._simple(playable_actions)
        ours = {}
        for ca in playable_actions:
            a = self._ours(ca, cgame, outcome=False)
            if a is not None:
                ours.setdefault(a, ca)
        ranked = self.bot.explain(g, top=None) if hasattr(self.bot, "explain") else [None]
        for choice in ranked:
            a = choice.action if choice is not None else self.bot.choose(g)
            key = self._key(a)
            for oa, ca in ours.items():
                if self._key(oa) == key:
                    return ca
        self.fallbacks += 1
        if DEBUG:
            print("fallback:", g.phase, [type(c.action).__name__ for c in ranked[:3]],
                  sorted({ca.action_type.value for ca in playable_actions}), file=sys.stderr)
        return self._simple(playable_actions)

    def _simple(self, playable_actions):
        from catanatron.models.enums import ActionType

        for t in (ActionType.ROLL, ActionType.END_TURN):
            for ca in playable_actions:
                if ca.action_type == t:
                    return ca
        return playable_actions[0]

    @staticmethod
    def _key(a):
        from catan_nb.rules import Discard, MoveRobber

        if isinstance(a, MoveRobber):
            return ("robber", a.hex, a.victim)
        if isinstance(a, Discard):
            return ("discard", tuple(a.cards))
        return a

    def _start(self, cgame):
        from catan_nb import Game
        from catan_nb.rules import Rules

        self.board, self.nmap, self.hexmap = build_board(cgame.state.board.map)
        # catanatron lets a player trade with the bank after building (our A-08 option)
        self.game = Game(self.board, players=len(cgame.state.colors), seed=0, rules=Rules(combined_trade_build=True))
        seat = cgame.state.colors.index(self.color)
        self.bot = self.make_bot(seat)

    def _ours(self, ca, cgame, *, outcome: bool, result=None):
        """The catan_nb action for a catanatron action (with its outcome when replaying)."""
        from catanatron.models.enums import ActionType as T

        from catan_nb import DevCard, Resource
        from catan_nb.rules import (BuildCity, BuildRoad, BuildSettlement, BuyDevelopmentCard, EndTurn,
                                    MaritimeTrade, MoveRobber, PlayKnight, PlayMonopoly, PlayRoadBuilding,
                                    PlayYearOfPlenty, RollDice, Discard)

        t, v = ca.action_type, ca.value
        DISCARD = _discard_type()
        res = lambda name: Resource[RESOURCE[name].upper()]  # noqa: E731
        if t == T.BUILD_SETTLEMENT:
            return BuildSettlement(self.nmap[v])
        if t == T.BUILD_CITY:
            return BuildCity(self.nmap[v])
        if t == T.BUILD_ROAD:
            return BuildRoad(self.board.path_between(self.nmap[v[0]], self.nmap[v[1]]))
        if t == T.ROLL:
            return RollDice(dice=tuple(result)) if outcome else RollDice()
        if t == T.END_TURN:
            return EndTurn()
        if t == T.BUY_DEVELOPMENT_CARD:
            return BuyDevelopmentCard(card=DevCard[DEV[result].upper()]) if outcome else BuyDevelopmentCard()
        if t == T.PLAY_KNIGHT_CARD:
            return PlayKnight()
        if t == T.PLAY_ROAD_BUILDING:
            return PlayRoadBuilding()
        if t == T.PLAY_MONOPOLY:
            return PlayMonopoly(res(v))
        if t == T.PLAY_YEAR_OF_PLENTY:
            first = res(v[0])
            return PlayYearOfPlenty(first, res(v[1]) if len(v) > 1 else first)
        if t == T.MARITIME_TRADE:
            return MaritimeTrade(res(v[0]), res(v[-1]))
        if t == T.MOVE_ROBBER:
            coord, victim = v[0], v[1]
            seat = cgame.state.colors.index(victim) if victim is not None else None
            stolen = res(result) if (outcome and result is not None) else None
            return MoveRobber(self.hexmap[coord], seat, stolen=stolen) if outcome else MoveRobber(self.hexmap[coord], seat)
        if t == DISCARD:
            cards = [0] * 5
            if v is not None:
                cards[res(v).value] += 1
            return Discard(tuple(cards))
        return None

    def _sync(self, cgame):
        """Replay catanatron's new action records into our game."""
        from catanatron.models.enums import ActionType as T

        from catan_nb.errors import IllegalActionError
        from catan_nb.rules import BuildRoad, Discard, EndRoadBuilding, Phase

        DISCARD = _discard_type()
        g = self.game
        records = cgame.state.action_records
        colors = cgame.state.colors
        while self.seen < len(records):
            ca, result = records[self.seen]
            self.seen += 1
            seat = colors.index(ca.color)
            if ca.action_type == DISCARD:  # buffered: our engine takes discards in its own order
                row = self.discards.setdefault(seat, [0] * 5)
                row[self._ours(ca, cgame, outcome=True).cards.index(1)] += 1
                continue
            if self.discards and g.phase is Phase.DISCARD:
                while g.phase is Phase.DISCARD:
                    p = g.current_player
                    g.play(Discard(tuple(self.discards.pop(p))))
                self.discards.clear()
            if g.phase is Phase.ROAD_BUILDING and not (ca.action_type == T.BUILD_ROAD):
                g.play(EndRoadBuilding())
            a = self._ours(ca, cgame, outcome=True, result=result)
            if a is None:
                raise ValueError(f"no translation for {ca}")
            if isinstance(a, BuildRoad) and g.phase is Phase.ROAD_BUILDING and ca.color != colors[g.current_player]:
                g.play(EndRoadBuilding())
            try:
                g.play(a)
            except IllegalActionError:
                # catanatron is the referee: a move its rules allow and ours do not (a road past an
                # opponent's building) is mirrored unchecked, and counted
                g.apply(a)
                self.mirrored += 1
        if not self.discards:
            self._reconcile(cgame)

    def _reconcile(self, cgame):
        """catanatron is the referee of the hands too: where its production or cards differ from ours
        (a short bank, a one-card Year of Plenty), take its counts (the bank keeps the totals), and count it."""
        from catanatron.state_functions import get_player_freqdeck

        g = self.game
        for q, color in enumerate(cgame.state.colors):
            for r, c in enumerate(get_player_freqdeck(cgame.state, color)):
                d = c - g.hands[q][r]
                if d:
                    g.hands[q][r] += d
                    g.bank[r] -= d
                    self.reconciled += 1


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of k wins in n games (the library's own estimate)."""
    from catan_nb.analysis.probability import estimate_proportion

    if n == 0:
        return 0.0, 1.0
    e = estimate_proportion(k, n)
    return e.low, e.high


def play_one(args):
    i, seed, iterations, depth = args
    import random as _random

    from catanatron import Color, Game
    from catanatron.players.minimax import AlphaBetaPlayer

    from catan_nb.analysis.search_bot import SearchBot

    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    hero = colors[i % 4]
    bridge = SeatBridge(hero, lambda seat: SearchBot(seed=seed * 1000 + i, iterations=iterations, offers=False))
    players = [bridge if c == hero else AlphaBetaPlayer(c, depth=depth, prunning=True) for c in colors]
    _random.seed(seed * 7919 + i)
    t = time.perf_counter()
    game = Game(players, seed=seed * 7919 + i + 1)
    winner = game.play()
    return (winner == hero, winner is None, bridge.desync, bridge.fallbacks, bridge.decisions,
            game.state.num_turns, time.perf_counter() - t, getattr(bridge, "error", ""), bridge.mirrored,
            bridge.reconciled)


def _read_log(path, args) -> dict:
    """Rows already played with the same settings, by game index, from a ``--log`` file."""
    done = {}
    if not Path(path).exists():
        return done
    for line in Path(path).read_text().splitlines():
        rec = json.loads(line)
        if (rec["seed"], rec["iterations"], rec["depth"]) == (args.seed, args.iterations, args.depth):
            done[rec["game"]] = tuple(rec["row"])
    return done


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=100, help="our search bot's iterations per decision")
    ap.add_argument("--depth", type=int, default=2, help="AlphaBeta depth (catanatron's default 2)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--log", help="append each game's result to this JSON-lines file, and skip the games "
                    "it already holds (a long run can be stopped and resumed)")
    ap.add_argument("--progress", type=int, default=50, help="print the running win rate every N games (stderr)")
    args = ap.parse_args(argv)
    jobs = [(i, args.seed, args.iterations, args.depth) for i in range(args.games)]
    done = _read_log(args.log, args) if args.log else {}
    todo = [j for j in jobs if j[0] not in done]
    t = time.time()
    rows = dict(done)
    if done:
        print(f"resuming: {len(done)} games read from {args.log}", file=sys.stderr, flush=True)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        results = pool.map(play_one, todo) if pool else map(play_one, todo)
        for job, row in zip(todo, results):
            rows[job[0]] = row
            if args.log:
                with open(args.log, "a") as fh:
                    fh.write(json.dumps({"game": job[0], "seed": args.seed, "iterations": args.iterations,
                                         "depth": args.depth, "row": list(row)}) + "\n")
            if len(rows) % args.progress == 0 or len(rows) == len(jobs):
                k = sum(r[0] for r in rows.values())
                lo, hi = wilson(k, len(rows))
                print(f"[{len(rows)}/{len(jobs)}] our wins {k} = {k / len(rows):.3f} [{lo:.3f}, {hi:.3f}]"
                      f"  {time.time() - t:.0f} s", file=sys.stderr, flush=True)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    rows = [rows[j[0]] for j in jobs]
    wins = sum(r[0] for r in rows)
    lo, hi = wilson(wins, len(rows))
    print(f"games: {len(rows)}  our wins: {wins}  unfinished: {sum(r[1] for r in rows)}  "
          f"desynced games: {sum(1 for r in rows if r[2])}  moves mirrored unchecked: {sum(r[8] for r in rows)}  "
          f"hand counts taken from catanatron: {sum(r[9] if len(r) > 9 else 0 for r in rows)}  "
          f"fallback moves: {sum(r[3] for r in rows)} "
          f"of {sum(r[4] for r in rows)}  turns/game: {sum(r[5] for r in rows) / max(len(rows), 1):.0f}  "
          f"seconds: {time.time() - t:.0f}")
    errors = {r[7] for r in rows if r[7]}
    for e in sorted(errors)[:5]:
        print("desync:", e)
    print(f"search_vs_alphabeta: {wins / max(len(rows), 1):.3f}  games: {len(rows)}  interval: [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()

"""Prepared positions for the per-module browser tests (issue 25's browser check).

The browser tests write a notebook whose one cell is this file's text followed by a few lines that
build the tables (``tables(kind)``; Seafarers adds a fourth, ``t-fog``, a ship away from a fog hex), so that a click in the browser comes at once: no game is played
to reach a 7 or a ship to move.  The same functions are used by ``tests/test_browser_positions.py``
(no browser) to check that each position is what the browser test expects, and that the clicks it
makes are legal moves there.

Every table has a human seat 0 and bots (a short pause), and carries a CSS class naming its part
(``t-found``, ``t-seven``, ``t-pieces``) so that the test addresses one table among several.
"""

from __future__ import annotations

from catan_nb import Board, Game
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import EndTurn, Phase, RollDice, Rules

KINDS = ("seafarers", "gold", "cities_knights", "new_york")
SEATS = ["human", "bot", "bot", "bot"]
#: Bots' pause (s): short, and not None, so that they move on the kernel's event loop after each click.
BOT_DELAY = 0.05


def board_and_rules(kind: str):
    if kind == "seafarers":
        from catan_nb.rules.modules.seafarers import ISLANDS

        return Board.load(ISLANDS), Rules(modules=("seafarers",))
    if kind == "gold":
        from catan_nb.rules.modules.gold_fields import gold_board

        return gold_board(Board.beginner(), 4, 10), Rules(modules=("gold_fields",))
    if kind == "cities_knights":
        return Board.beginner(), Rules(modules=("cities_knights",))
    if kind == "new_york":
        board = Board.load(BOARDS_DIR / "new_york.json")
        return board, Rules.for_board(board)
    raise ValueError(kind)


def dice(game, total: int = 5) -> RollDice:
    """Explicit dice summing to ``total`` (in Cities & Knights with an event die showing a gate: the
    barbarians stay put)."""
    d = (total - total // 2, total // 2)
    return RollDice(dice=d + ((4,) if any(m.name == "cities_knights" for m in game.modules) else ()))


def empty_hands(g: Game) -> None:
    for h in g.hands:
        for r in range(len(h)):
            g.bank[r] += h[r]
            h[r] = 0


def found(g: Game, prefer=None) -> None:
    """Play the founding with the first legal moves (``prefer(game, actions)`` may pick another)."""
    while g.phase is not Phase.ROLL:  # the founding (and a founding pick from a gold field) ends at the first roll
        acts = g.legal_actions()
        pick = prefer(g, acts) if prefer else None
        g.play(pick if pick is not None else acts[0])


def coast_first(g: Game, acts):
    t = g.topology
    coast = [a for a in acts if hasattr(a, "node") and t.node_sea[a.node] and g.phase is Phase.FOUNDING_SETTLEMENT]
    return coast[0] if coast else None


def next_to(hexes):
    def prefer(g: Game, acts):
        if g.current_player != 0:
            return None
        near = [a for a in acts if hasattr(a, "node") and any(h in hexes for h in g.topology.node_hexes[a.node])]
        return near[0] if near else None
    return prefer


def advance_to_main(g: Game, seat: int = 0) -> None:
    """Roll (no 7) and end turns until ``seat`` is in its main phase."""
    while not (g.current_player == seat and g.phase is Phase.MAIN):
        if g.phase is Phase.ROLL:
            g.play(dice(g))
        elif g.phase is Phase.MAIN:
            g.play(EndTurn())
        else:
            g.play(g.legal_actions()[0])


def deal(g: Game, seat: int, **cards: int) -> None:
    g.deal(seat, {g.goods[[str(x) for x in g.goods].index(name)]: k for name, k in cards.items()})


# ---------------------------------------------------------------------- a 7 with a discard
def seven(kind: str) -> Game:
    """Seat 0 at its roll with 9 cards (commodities too in Cities & Knights), the others with 2 each, and
    a seed whose roll is a 7: seat 0 discards 4, then moves the robber (or the pirate) and steals."""
    board, rules = board_and_rules(kind)
    for seed in range(1, 400):
        g = Game(board, players=4, seed=seed, rules=rules)
        found(g, coast_first if kind == "seafarers" else None)
        empty_hands(g)
        if kind == "cities_knights":
            deal(g, 0, lumber=2, brick=2, wool=1, grain=1, ore=1, cloth=1, coin=1)
            g.ext["cities_knights"]["attacks"] = 1  # the robber moves only after the first attack (CK-BAR-4)
        else:
            deal(g, 0, lumber=2, brick=2, wool=2, grain=2, ore=1)
        for q in (1, 2, 3):
            deal(g, q, lumber=1, grain=1)
        probe = g.copy()
        probe.play(RollDice())
        if sum(probe.dice_history[-1][:2]) == 7 and (kind != "cities_knights" or probe.dice_history[-1][2] > 3):
            return g
    raise AssertionError("no seed rolls a 7")


# ---------------------------------------------------------------------- each piece the module adds
def ships() -> Game:
    """Seafarers: seat 0 in its main phase with a ship built in an earlier turn (it may move, SF-7) and the
    cards for one more ship."""
    from catan_nb.rules.modules.seafarers import BuildShip

    board, rules = board_and_rules("seafarers")
    g = Game(board, players=4, seed=3, rules=rules)
    found(g, coast_first)
    g.play(dice(g))
    empty_hands(g)
    t = g.topology
    v = next(v for v in sorted(g.placed[g.kind_id["settlement"]][0])
             if any(t.edge_sea[e] and g.edge_owner[e] < 0 for e in t.node_edges[v]))
    deal(g, 0, wool=1, lumber=1)
    g.play(BuildShip(next(e for e in t.node_edges[v] if t.edge_sea[e] and g.edge_owner[e] < 0)))
    g.play(EndTurn())
    advance_to_main(g)
    empty_hands(g)
    deal(g, 0, wool=1, lumber=1)
    return g


def gold() -> Game:
    """Gold fields: seat 0 founded next to a gold field and rolls its number next (SF-1): a pick."""
    board, rules = board_and_rules("gold")
    golds = [h.id for h in board.hexes if str(h.terrain) == "gold"]
    for seed in range(1, 400):
        g = Game(board, players=4, seed=seed, rules=rules)
        found(g, next_to(golds))
        probe = g.copy()
        probe.play(RollDice())
        rolled = sum(probe.dice_history[-1][:2])
        if rolled != 7 and any(board.hexes[h].token == rolled for h in golds
                               if any(g.building_at(v) and g.building_at(v)[0] == 0 for v in g.topology.hex_nodes[h])):
            return g
    raise AssertionError("no seed rolls the gold field's number")


def knights() -> Game:
    """Cities & Knights: seat 0 in its main phase with the cards to hire a knight and activate it, to
    improve trade to level 1, and the progress card Irrigation."""
    board, rules = board_and_rules("cities_knights")
    g = Game(board, players=4, seed=2, rules=rules)
    found(g)
    advance_to_main(g)
    empty_hands(g)
    deal(g, 0, wool=1, ore=1, grain=1, cloth=1)
    g.ext["cities_knights"]["hands"][0].append("irrigation")
    return g


def canal() -> Game:
    """New York with the Erie Canal: seat 0 in its main phase holding a canal token (ERIE-4)."""
    board, rules = board_and_rules("new_york")
    g = Game(board, players=4, seed=2, rules=rules)
    found(g)
    advance_to_main(g)
    er = g.ext["erie_canal"]
    er["supply"] -= 1
    er["tokens"][0] += 1
    return g


PIECES = {"seafarers": ships, "gold": gold, "cities_knights": knights, "new_york": canal}


def tables(kind: str) -> list:
    """The founding (a new game), the 7 and the module's pieces, each a table with a CSS class."""
    from catan_nb.widgets import GameTable

    board, rules = board_and_rules(kind)
    out = []
    for css, source in (("t-found", board), ("t-seven", seven(kind)), ("t-pieces", PIECES[kind]())):
        t = GameTable(source, seats=SEATS, seed=7, rules=rules if css == "t-found" else None, bot_delay=BOT_DELAY)
        t.widget.add_class(css)
        out.append(t)
    if kind == "seafarers":  # and a fog hex to reveal (SF-3; issue 25 item 3: the layout stays as it was)
        g, path = fog()
        t = GameTable(g, seats=SEATS, bot_delay=BOT_DELAY)
        t.widget.add_class("t-fog")
        t.widget.add_class(f"reveal-{path}")
        out.append(t)
    return out



def fog() -> tuple[Game, int]:
    """Seafarers with fog (SF-3): seat 0 in its main phase with a line of ships ending one path from a fog
    hex, and the cards for one more ship; returns the game and the path whose ship reveals the hex."""
    from collections import deque

    from catan_nb.constants import Terrain
    from catan_nb.rules.modules.seafarers import BuildShip

    board = Board.load(BOARDS_DIR / "seafarers_fog.json")
    g = Game(board, players=4, seed=3, rules=Rules.for_board(board))
    found(g, coast_first)
    advance_to_main(g)
    empty_hands(g)
    t = g.topology

    def foggy(e):
        a, b = t.edge_nodes[e]
        return any(g.hex_terrain[h] is Terrain.FOG for h in set(t.node_hexes[a]) & set(t.node_hexes[b]))

    start = [e for v in sorted(g.placed[g.kind_id["settlement"]][0]) for e in t.node_edges[v]
             if t.edge_sea[e] and g.edge_owner[e] < 0]
    back = {e: None for e in start}
    todo = deque(start)
    while todo:  # the nearest free sea path on a fog hex's edge, through free sea paths clear of the fog
        e = todo.popleft()
        if foggy(e):
            line = []
            while back[e] is not None:
                e = back[e]
                line.append(e)
            for f in reversed(line):  # the ships up to it (placed: no fog on their edges)
                g.place(0, "ship", f)
            break
        for v in t.edge_nodes[e]:
            for f in t.node_edges[v]:
                if f not in back and t.edge_sea[f] and g.edge_owner[f] < 0:
                    back[f] = e
                    todo.append(f)
    deal(g, 0, wool=1, lumber=1)
    reveal = [a.path for a in g.legal_actions() if isinstance(a, BuildShip) and foggy(a.path)]
    assert reveal, "no ship reaches the fog"
    return g, reveal[0]

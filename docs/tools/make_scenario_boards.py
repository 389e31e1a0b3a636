"""Generate our proposal boards for the Corsica and New York scenarios (SC-13 is a GAP).

Run from the repository root: ``python docs/tools/make_scenario_boards.py``.  It writes
``boards/corsica.json`` and ``boards/new_york.json`` from a seed, so the design can be redrawn or
replaced by the printed maps (edit the JSON, or change the parameters here).  The design rules:

- the island's hexes, terrains and printed numbers (no 6 next to an 8);
- locality spaces two paths apart at least, so every link between two of them has a bare
  intersection in between (SC-5, SC-7);
- road paths (SC-6): the shortest paths joining each locality to its eight nearest neighbours;
- VP intersections (SC-3, SC-10) on the road network between localities, two paths apart;
- red paths (SC-8) on road paths next to the coast, with their rates;
- links (SC-9): a few coastal localities linked to an inland hex they do not touch;
- New York only: the second locality symbol marks the localities along the Erie Canal (our proposal
  for SC-5 / A-30 and ERIE-7), a line of localities across the state.

New York has 27 locality spaces (and Corsica 24): with 24, six players on New York filled or cut off
every locality before anyone reached the target in 4 of 1,000 random-bot games and 2 of 600
weighted-bot games (issue 24); 27 is as many as the island holds two paths apart, and none of 1,600
such games stalled.  A game that still cannot be won ends under the DECISION in docs/scenarios.md.
"""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

from catan_nb import Board, hexgrid

ROOT = Path(__file__).resolve().parents[2]
NEIGHBOURS = 8  # road paths join each locality to this many nearest localities
TOKENS = [2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12]


def island(rows, terrains, seed):
    """Hexes for ``rows`` with the terrain counts given, tokens without a 6 or 8 side by side."""
    rng = random.Random(seed)
    cells = [(r + 1, c + 1) for r, n in enumerate(rows) for c in range(n)]
    while True:
        ts = [t for t, k in terrains.items() for _ in range(k)]
        rng.shuffle(ts)
        toks = list(TOKENS)
        rng.shuffle(toks)
        hexes, i = [], 0
        for (r, c), t in zip(cells, ts):
            tok = None if t == "desert" else toks[i]
            i += t != "desert"
            hexes.append({"row": r, "col": c, "terrain": t, "token": tok})
        probe = Board.from_dict({"name": "probe", "layout": "custom", "rows": list(rows), "hexes": hexes,
                                 "harbours": [], "robber": next([h["row"], h["col"]] for h in hexes
                                                                  if h["terrain"] == "desert")})
        red = {i for i, h in enumerate(hexes) if h["token"] in (6, 8)}
        ax = {probe.axial(i): i for i in range(len(hexes))}
        if all(ax.get(n) not in red for i in red for n in hexgrid.neighbours(probe.axial(i))):
            return hexes, probe


def dist_from(t, sources):
    d = {v: 0 for v in sources}
    q = deque(sources)
    while q:
        v = q.popleft()
        for w in t.node_neighbours[v]:
            if w not in d:
                d[w] = d[v] + 1
                q.append(w)
    return d


def shortest(t, a, b, avoid):
    """Intersections of a shortest path from a to b through no node of ``avoid``."""
    prev = {a: None}
    q = deque([a])
    while q:
        v = q.popleft()
        if v == b:
            break
        for w in t.node_neighbours[v]:
            if w not in prev and (w == b or w not in avoid):
                prev[w] = v
                q.append(w)
    if b not in prev:
        return None
    out, v = [], b
    while v is not None:
        out.append(v)
        v = prev[v]
    return out[::-1]


def name_node(board, v):
    hx = board.graph.nodes[v]["hexes"][0]
    t = board.hexes[hx]
    for corner in hexgrid.CORNER_NAMES:
        if board.node_at((t.row, t.col), corner) == v:
            return [t.row, t.col], corner
    raise AssertionError(v)


def name_path(board, e):
    a, b = board.path_nodes(e)
    for hx in board.graph.nodes[a]["hexes"]:
        t = board.hexes[hx]
        for side in hexgrid.SIDE_NAMES:
            if board.path_on((t.row, t.col), side) == e:
                return [t.row, t.col], side
    raise AssertionError(e)


def design(name, rows, terrains, *, seed, localities, vp, red_rates, links, canal_row=None, description, notes):
    hexes, board = island(rows, terrains, seed)
    t = board.topology
    rng = random.Random(seed + 1)
    land = [v for v in range(t.n_nodes) if t.node_land[v]]
    chosen = []
    if canal_row is not None:  # New York: the canal localities first, west to east along one row
        row_hexes = [i for i, h in enumerate(hexes) if h["row"] == canal_row]
        line = sorted({v for h in row_hexes for v in t.hex_nodes[h] if board.graph.nodes[v]["pos"][1] <
                       min(board.graph.nodes[w]["pos"][1] for w in t.hex_nodes[h]) + 0.6},
                      key=lambda v: board.graph.nodes[v]["pos"][0])
        for v in line:
            if all(d >= 3 for d in (dist_from(t, [v]).get(c, 99) for c in chosen)):
                chosen.append(v)
        canal = list(chosen)
    else:
        canal = []
    order = list(land)
    rng.shuffle(order)
    order.sort(key=lambda v: -len(t.node_hexes[v]))  # inland first: they collect from three hexes
    for v in order:
        if len(chosen) >= localities:
            break
        if all(dist_from(t, [v]).get(c, 99) >= 2 for c in chosen):
            chosen.append(v)
    # Road paths: every locality to its nearest ones, through no other locality.
    roads = set()
    for a in chosen:
        near = sorted((dist_from(t, [a])[b], b) for b in chosen if b != a)[:NEIGHBOURS]
        for _, b in near:
            p = shortest(t, a, b, set(chosen) - {a, b})
            if p:
                roads |= {board.path_between(x, y) for x, y in zip(p, p[1:])}
    road_nodes = {v for e in roads for v in t.edge_nodes[e]}
    d_loc = dist_from(t, chosen)
    cands = [v for v in sorted(road_nodes) if d_loc.get(v, 0) >= 1]
    rng.shuffle(cands)
    vps = []
    for v in cands:
        if len(vps) >= vp:
            break
        if all(dist_from(t, [v]).get(w, 99) >= 2 for w in vps):
            vps.append(v)
    coast_roads = sorted(e for e in roads if any(len(t.node_hexes[v]) < 3 for v in t.edge_nodes[e]))
    rng.shuffle(coast_roads)
    reds = []
    for e in coast_roads:
        if len(reds) >= len(red_rates):
            break
        if not any(set(t.edge_nodes[e]) & set(t.edge_nodes[f]) for f in reds):
            reds.append(e)
    coastal = [v for v in chosen if len(t.node_hexes[v]) < 3]
    linked = {}
    for v in coastal[:links]:
        near = dist_from(t, [v])
        inland = [h for h in range(t.n_hexes) if t.hex_land[h] and h not in t.node_hexes[v]
                  and min(near[w] for w in t.hex_nodes[h]) == 1]
        if inland:
            linked[v] = inland[0]
    nodes = []
    for v in chosen:
        rc, corner = name_node(board, v)
        entry = {"hex": rc, "corner": corner, "locality": "canal" if v in canal else "town"}
        if v in linked:
            h = board.hexes[linked[v]]
            entry["links"] = [[h.row, h.col]]
        nodes.append(entry)
    for v in vps:
        rc, corner = name_node(board, v)
        nodes.append({"hex": rc, "corner": corner, "vp": True})
    paths = []
    for e in sorted(roads):
        rc, side = name_path(board, e)
        entry = {"hex": rc, "side": side, "road": True}
        if e in reds:
            ratio, res = red_rates[reds.index(e)]
            entry["rate"] = {"ratio": ratio, "resource": res}
        paths.append(entry)
    desert = next([h["row"], h["col"]] for h in hexes if h["terrain"] == "desert")
    data = {"name": name, "description": description, "notes": notes, "layout": "custom", "rows": list(rows),
            "hexes": hexes, "harbours": [], "robber": desert, "nodes": nodes, "paths": paths,
            "scenario": {"modules": ["corsica_new_york"] + (["erie_canal"] if canal else []),
                         "players": [3, 4, 5, 6]}}
    return data


def main() -> None:
    common = ("PROPOSAL, replaceable data: SC-13 leaves the printed maps as a GAP. Hexes, numbers, locality spaces, "
              "road paths, red paths and their rates, VP intersections and links are ours, drawn by "
              "docs/tools/make_scenario_boards.py; replace this file with the printed map when it is known.")
    corsica = design(
        "corsica", (3, 4, 3, 4, 3, 4, 3),
        {"forest": 5, "pasture": 5, "fields": 5, "hills": 4, "mountains": 4, "desert": 1}, seed=20, localities=24,
        vp=11, red_rates=[(3, None), (3, None), (2, "lumber"), (2, "brick"), (2, "wool"), (2, "grain"), (2, "ore")],
        links=3,
        description="The Corsica scenario (RULES.md section 15) on a board of our own design: a long island, "
                    "24 locality spaces, 11 VP intersections, 7 red paths, 3 linked localities. 3-6 players with "
                    "the corsica_new_york module.",
        notes=[common, "Side B (SC-2, a GAP): our proposal is the same map with other numbers; scenario.sides "
                       "lists them (corsica_new_york.with_side)."])
    ny = design(
        "new_york", (5, 6, 7, 6),
        {"forest": 5, "pasture": 5, "fields": 5, "hills": 4, "mountains": 4, "desert": 1}, seed=31, localities=27,
        vp=9, red_rates=[(3, None), (2, "lumber"), (2, "brick"), (2, "wool"), (2, "grain"), (2, "ore")], links=2,
        canal_row=3,
        description="The New York scenario (RULES.md section 15) on a board of our own design: 27 locality spaces "
                    "(those marked canal lie along the Erie Canal), 9 VP intersections, 6 red paths, 2 linked "
                    "localities. 3-6 players with the corsica_new_york module, and the erie_canal variant.",
        notes=[common, "The second locality symbol (SC-5, A-30, a GAP) is our proposal: it marks the localities "
                       "next to the Erie Canal (ERIE-7, a GAP), which are ordinary localities otherwise.",
               "Side B (SC-2, a GAP): the same map with other numbers (scenario.sides)."])
    for data, seed in ((corsica, 5), (ny, 6)):
        rng = random.Random(seed)
        toks = [h["token"] for h in data["hexes"] if h["token"]]
        for _ in range(200):
            rng.shuffle(toks)
            cells = [h for h in data["hexes"] if h["token"]]
            probe = dict(data, hexes=[dict(h, token=toks.pop(0) if h["token"] else None) for h in data["hexes"]])
            toks = [h["token"] for h in probe["hexes"] if h["token"]]
            b = Board.from_dict({k: probe[k] for k in ("name", "layout", "rows", "hexes", "harbours", "robber")})
            red = {i for i, h in enumerate(probe["hexes"]) if h["token"] in (6, 8)}
            ax = {b.axial(i): i for i in range(len(probe["hexes"]))}
            if all(ax.get(n) not in red for i in red for n in hexgrid.neighbours(b.axial(i))):
                data["scenario"]["sides"] = {"B": {"tokens": [[h["row"], h["col"], h["token"]] for h in probe["hexes"]
                                                              if h["token"]]}}
                break
            del cells
        Board.from_dict(data, source=data["name"])  # the loader's checks pass
        (ROOT / "boards" / f"{data['name']}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(data["name"], len(data["nodes"]), "nodes,", len(data["paths"]), "paths")


if __name__ == "__main__":
    main()

"""Write ``docs/api/game.md``: every public member of :class:`catan_nb.rules.Game` on one page, by concern.

``Game`` is one facade over the parts of the engine in ``catan_nb/rules/game_*.py`` (mixins), so
autodoc shows on ``Game`` itself only the few members defined in ``game.py``.  This page lists
them all: the methods and properties of each part (read from the classes, with the first
sentence of each docstring and a link to its full entry), then the attributes a game carries
(read from a fresh game; described here, in ``ATTRIBUTES``).  A test runs ``--check``: a new
public member without a line here fails it.

Usage: ``python docs/tools/build_game_api.py`` (write) or ``--check`` (exit 1 if out of date).
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from catan_nb import Board  # noqa: E402
from catan_nb.rules import game_codec, game_goods, game_pieces, game_roads, game_turn  # noqa: E402
from catan_nb.rules.game import Game  # noqa: E402
from catan_nb.rules.modules import development, trade  # noqa: E402

OUT = ROOT / "docs" / "api" / "game.md"

#: The parts of ``Game``, in the page's order: (title, class, what it covers).
PARTS = [
    ("Set-up, views and scoring", Game, "The game itself (`game.py`): what a seat may see, VP, the dice."),
    ("The turn, decisions and chance", game_turn.TurnFlow,
     "`game_turn.py`: playing actions, the decision stack, the seeded generator, the checks of a turn."),
    ("Pieces and placement", game_pieces.Placement,
     "`game_pieces.py`: what stands where, the sites a piece may take, placing and removing."),
    ("Goods, hands and production", game_goods.Goods,
     "`game_goods.py`: goods and their rules, hands and the bank, costs, production, the robber's victims."),
    ("Longest Road", game_roads.LongestRoad, "`game_roads.py`: trail lengths and the card."),
    ("Development cards and the Largest Army", development.DevCardQueries,
     "Accessors of the `development` module's state (zeros and `None` without it)."),
    ("Domestic trade", trade.TradeQueries, "Accessors of the `trade` module's open offer."),
    ("Copies, state and saves", game_codec.GameCodec,
     "`game_codec.py`: copies, determinisations, the state, fingerprints and saved games."),
]

#: The public attributes a game carries (set when it is made), by part, with what they hold.
ATTRIBUTES: dict[str, dict[str, str]] = {
    "Set-up, views and scoring": {
        "board": "the `Board` (a networkx graph, never changed)",
        "rules": "the `Rules` options, with the chosen modules",
        "modules": "the rule modules in play, built-ins first, in the order their hooks run",
        "n": "the number of seats",
        "colours": "each seat's `Colour`",
        "seed": "the seed of the game's generator",
        "start": "`\"founding\"` or `\"beginner\"`",
        "starting_seat": "the seat that founds first",
        "components": "the component counts the modules set (bank, deck)",
        "vp_target": "the VP that win (B-END-2 and the modules' targets)",
        "winner": "the winning seat, or `None`",
        "board_vp": "each seat's VP from its pieces on the board",
        "ext": "each module's state, by module name (plain JSON data)",
    },
    "The turn, decisions and chance": {
        "active": "the seat whose turn it is (read `active_player`)",
        "turn": "the turn number",
        "stack": "the decisions waiting, the top one last (`Decision(phase, player, data)`)",
        "log": "every action played, with its outcome",
        "dice_history": "every roll so far",
        "built_this_turn": "whether the active seat has built this turn (B-TURN-2)",
    },
    "Pieces and placement": {
        "kinds": "the piece kinds in play (`PieceKind`, index 0 is `None`)",
        "kind_id": "the index in `kinds` of each kind, by name",
        "placed": "`placed[k][p]`: the sites of seat `p`'s pieces of kind `k`",
        "node_owner": "per intersection: the owner of the piece there, -1 for none",
        "node_kind": "per intersection: the index in `kinds` of the piece there, 0 for none",
        "edge_owner": "per path: the owner of the piece there, -1 for none",
        "edge_kind": "per path: the index in `kinds` of the piece there, 0 for none",
        "occupied": "the intersections holding a settlement or city",
        "blocked": "per intersection: buildings on or next to it (the distance rule, B-BUILD-7)",
        "reach": "`reach[k][p]`: the intersections seat `p`'s path pieces of kind `k` touch",
        "road_nodes": "per seat: the intersections its path pieces of every kind touch (read only)",
        "harbours": "per seat: the harbours its buildings stand on",
        "hex_terrain": "per hex: its `Terrain` (fog revealed, SF-3)",
        "hex_token": "per hex: its number token, 0 for none",
        "robber": "the hex of the robber",
    },
    "Goods, hands and production": {
        "goods": "the goods in play: the five resources, then the modules' (a hand's order)",
        "n_goods": "the number of goods",
        "good_rules": "each good's `GoodRules`",
        "public_goods": "the indexes of the goods every seat sees per seat (`GoodRules(public=True)`)",
        "hands": "`hands[p]`: seat `p`'s cards as counts per good (the list the engine changes)",
        "bank": "the bank's cards as counts per good",
        "bank_per_good": "the bank's cards of each good at the start",
        "bank_per_resource": "the bank's cards of each resource at the start (B-COMP-2)",
        "last_production": "what the last roll paid, per seat",
    },
    "Longest Road": {
        "road_length": "each seat's trail length, -1 while it waits to be recounted",
        "road_bound": "an upper bound of each seat's trail length, kept up to date",
        "longest_road_holder": "the seat holding the Longest Road card, or `None`",
    },
    "Development cards and the Largest Army": {
        "deck_total": "the development cards of the game's deck at the start",
    },
    "Domestic trade": {},
    "Copies, state and saves": {},
}


def _summary(obj) -> str:
    doc = inspect.getdoc(obj.fget if isinstance(obj, property) else obj) or ""
    first = doc.split("\n\n")[0].replace("\n", " ").strip()
    first = re.sub(r":\w+:`~?([^`<]+?)(?: <[^>]+>)?`", r"`\1`", first)  # reST roles as code
    first = first.replace("``", "`")
    return first.replace("|", "\\|")


def _owner(name: str):
    for cls in Game.__mro__:
        if name in cls.__dict__:
            return cls, cls.__dict__[name]
    raise KeyError(name)


def members() -> dict[type, list[str]]:
    """Public class members of ``Game`` by the part that defines them."""
    out: dict[type, list[str]] = {}
    for name in sorted(n for n in dir(Game) if not n.startswith("_")):
        cls, _ = _owner(name)
        out.setdefault(cls, []).append(name)
    return out


def attributes() -> list[str]:
    """Public attributes of a fresh game that are not class members."""
    g = Game(Board.beginner(), seed=1)
    return sorted(k for k in vars(g) if not k.startswith("_") and not hasattr(Game, k))


def render() -> str:
    by_part = members()
    parts = {cls for _, cls, _ in PARTS}
    stray = sorted(n for cls, names in by_part.items() if cls not in parts for n in names)
    if stray:
        raise SystemExit(f"members of Game from a part this page does not list: {stray}")
    listed = {a for attrs in ATTRIBUTES.values() for a in attrs}
    missing = sorted(set(attributes()) - listed)
    if missing:
        raise SystemExit(f"attributes of a game with no line in ATTRIBUTES: {missing}")
    lines = [
        "# `Game`: its public members by concern",
        "",
        "<!-- Written by docs/tools/build_game_api.py from the classes and a fresh game: do not edit. -->",
        "",
        "`catan_nb.rules.Game` is one object made of the parts of the engine under `catan_nb/rules/`",
        "(each a class mixed into `Game`); a rule module, a notebook or an analysis calls all of them",
        "through `game`.  Each line below links to the member's full entry.  Names marked *deprecated*",
        "still work and name the member to use instead.  The guide for module authors is",
        "[Writing a rule module](../modules.md).",
        "",
    ]
    for title, cls, about in PARTS:
        lines += [f"## {title}", "", about, ""]
        names = by_part.get(cls, [])
        if names:
            lines += ["| member | what it is |", "|---|---|"]
            for name in names:
                obj = cls.__dict__[name]
                summary = _summary(obj)
                kind = "property" if isinstance(obj, property) else ("method" if callable(obj) or isinstance(
                    obj, (staticmethod, classmethod)) else "attribute")
                mark = " *(deprecated)*" if summary.lower().startswith("deprecated") else ""
                target = f"{cls.__module__}.{cls.__qualname__}.{name}"
                call = f"{name}()" if kind == "method" else name
                lines.append(f"| {{py:obj}}`{call} <{target}>`{mark} | {summary or kind} |")
            lines.append("")
        attrs = ATTRIBUTES.get(title, {})
        if attrs:
            lines += ["Attributes of a game:", "", "| attribute | what it holds |", "|---|---|"]
            lines += [f"| `{a}` | {d} |" for a, d in attrs.items()]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"out of date: {OUT.relative_to(ROOT)}; run `python docs/tools/build_game_api.py`")
            return 1
        print("up to date")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Record the saves of one corpus with the code of an earlier commit (run by ``make_corpus.py``).

Run with that commit's tree first on ``PYTHONPATH``: every game is played and saved by that
commit's own engine and bots (``g.to_json()`` as it wrote saves then), and ``facts.json`` keeps
what that engine saw at the end of each game, for the test to compare.  Only names every
commit since 2026-11-21 has are used (``Game``, ``Board``, ``Rules``, ``play_game``, the bots).

Usage: ``python make_saves.py OUT NAME=CONFIG:PLAYERS:SEED:TURNS ...``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from catan_nb import Board, Game
from catan_nb.analysis import RandomBot, WeightedBot, play_game
from catan_nb.board import BOARDS_DIR
from catan_nb.rules import Rules


def _scenario(name: str, *modules: str):
    def make(seed: int):
        board = Board.load(BOARDS_DIR / name)
        if modules:
            return board, Rules(modules=modules)
        if hasattr(Rules, "for_board"):
            return board, Rules.for_board(board)
        return board, Rules(modules=tuple(board.scenario["modules"]))
    return make


CONFIGS = {
    "base": lambda seed: (Board.random(seed=seed), Rules()),
    "friends": lambda seed: (Board.random(seed=seed), Rules(modules=("friends",))),
    "helpers": lambda seed: (Board.random(seed=seed), Rules(modules=("helpers",))),
    "friends_helpers": lambda seed: (Board.random(seed=seed), Rules(modules=("friends", "helpers"))),
    "five_six": lambda seed: (Board.five_six(), Rules(modules=("five_six",))),
    "cities_knights": lambda seed: (Board.random(seed=seed), Rules(modules=("cities_knights",))),
    "seafarers": _scenario("seafarers_islands.json", "seafarers"),
    "ck_seafarers": _scenario("seafarers_islands.json", "seafarers", "cities_knights"),
    "fog": _scenario("seafarers_fog.json"),
    "harbour_master": _scenario("seafarers_harbours.json"),
    "great_catan": _scenario("seafarers_great_catan.json"),
    "corsica": _scenario("corsica.json"),
    "new_york": _scenario("new_york.json"),
    "erie_canal": _scenario("new_york.json", "corsica_new_york", "erie_canal"),
}


def main(out: Path, specs: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    facts = {}
    for spec in specs:
        name, rest = spec.split("=")
        config, players, seed, turns = rest.split(":")
        players, seed, turns = int(players), int(seed), int(turns)
        board, rules = CONFIGS[config](seed)
        game = Game(board, players=players, seed=seed, rules=rules)
        bots = [WeightedBot(seed * 10 + p) if p % 2 else RandomBot(seed * 10 + p) for p in range(players)]
        play_game(game, bots, max_turns=turns)
        (out / f"{name}.json").write_text(game.to_json() + "\n", encoding="utf-8")
        facts[name] = {"config": config, "players": players, "seed": seed, "turns": turns,
                       "actions": len(game.log), "turn": game.turn, "winner": game.winner,
                       "vp": [game.vp(p) for p in range(players)], "hands": [list(h) for h in game.hands],
                       "buildings": sum(1 for o in game.node_owner if o >= 0),
                       "paths": sum(1 for o in game.edge_owner if o >= 0)}
        print(f"{name}: {len(game.log)} actions, turn {game.turn}")
    (out / "facts.json").write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])

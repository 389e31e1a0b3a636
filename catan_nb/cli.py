"""The ``catan-nb`` command: headless analysis that prints tables or writes files.

Subcommands::

    catan-nb openings     --board beginner --seat 0 --top 10 [-o openings.csv]
    catan-nb simulate     --games 200 --players 4 --seed 1 --workers 2 --bots weighted,random [-o games.csv]
    catan-nb picture      --board random:7 -o board.html        (or .png/.svg: pip install "catan-nb[image]")
    catan-nb longest-road saved.json [--seat 0] [-o road.html]

Also runnable as ``python -m catan_nb``.  Boards are named ``beginner``,
``random:SEED`` (``random:SEED:five_six`` for the 5-6 player island) or a board
file path (``boards/my.json``); a scenario's board file (one naming rule modules, such as
``boards/seafarers_islands.json``) is played with its modules, which ``simulate`` prints first.

Examples
--------
>>> main(["simulate", "--games", "2", "--players", "3", "--max-turns", "20", "--workers", "1"])  # doctest: +ELLIPSIS
2 games, 3 players, bots random, board random, seed 0, max_turns 20
...
0
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["main", "build_parser", "parse_board", "CommandError"]


class CommandError(Exception):
    """A bad argument or input: ``main`` prints it as one line on stderr and exits with status 2."""


def _fail(message: str) -> CommandError:
    return CommandError(message)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``catan-nb: error: ...``) and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        raise CommandError(f"{message} (see: {self.prog} --help)")


def _int_in(lo: int | None = None, hi: int | None = None, what: str = "a whole number"):
    """An argparse type: an integer within ``lo..hi``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            span = f"{lo}..{hi}" if hi is not None else f"{lo} or more"
            raise argparse.ArgumentTypeError(f"{value} is out of range ({span})")
        return value

    parse.__name__ = "int"
    return parse


def parse_board(text: str):
    """A board from its command-line name: ``beginner``, ``random:SEED[:LAYOUT]`` or a file path.

    Examples
    --------
    >>> parse_board("random:3").name
    'random-3'
    >>> parse_board("beginner").name == parse_board("beginner").name
    True
    """
    from .board import Board
    from .errors import BoardFileError

    if text == "beginner":
        return Board.beginner()
    if text.startswith("random"):
        parts = text.split(":")
        if parts[0] != "random" or len(parts) not in (2, 3) or not parts[1].lstrip("-").isdigit():
            raise _fail(f"board {text!r}: expected random:SEED or random:SEED:LAYOUT (random:7, random:7:five_six)")
        try:
            return Board.random(seed=int(parts[1]), layout=parts[2]) if len(parts) == 3 else Board.random(seed=int(parts[1]))
        except (KeyError, ValueError) as exc:
            raise _fail(f"board {text!r}: {exc}") from None
    path = Path(text)
    if not path.exists():
        raise _fail(f"board {text!r}: not 'beginner', 'random:SEED' or an existing board file")
    try:
        return Board.load(path)
    except BoardFileError as exc:
        raise _fail(str(exc)) from None


def _load_game(path: str):
    from .errors import SaveFileError
    from .rules import Game

    if not Path(path).is_file():
        raise _fail(f"saved game {path!r}: no such file")
    try:
        return Game.load(path)
    except SaveFileError as exc:
        raise _fail(str(exc)) from None


def _write_rows(path: Path, rows: list[dict[str, Any]], extra: dict[str, Any] | None = None) -> None:
    """Rows as CSV (``.csv``) or JSON (``.json``: ``{**extra, "rows": rows}``)."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as fh:
            keys = list(rows[0]) if rows else []
            w = csv.DictWriter(fh, fieldnames=keys)
            w.writeheader()
            w.writerows(rows)
    elif suffix == ".json":
        path.write_text(json.dumps({**(extra or {}), "rows": rows}, indent=1, default=str) + "\n", encoding="utf-8")
    else:
        raise _fail(f"cannot write {path}: use a .csv or .json file")


def _write_figure(fig, path: Path, *, width: int | None = None) -> None:
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        fig.write_html(str(path), include_plotlyjs=True, full_html=True)
        return
    from .viz.image import IMAGE_EXTRA, IMAGE_FORMATS, MissingImageExtra, require_image_extra

    if suffix.lstrip(".") not in IMAGE_FORMATS:
        raise _fail(f"cannot write {path}: use .html, or .png/.svg/.pdf (these need the [{IMAGE_EXTRA}] extra)")
    try:
        require_image_extra(f"writing {suffix}")
    except MissingImageExtra as exc:
        raise _fail(f"{exc}. Without it, write HTML instead: -o {path.with_suffix('.html')}") from None
    try:
        fig.write_image(str(path), width=width or 900, height=fig.layout.height or 620)
    except Exception as exc:  # kaleido without a browser, or a browser that fails to start
        raise _fail(f"kaleido could not write {path} ({type(exc).__name__}: {exc}); write HTML instead: -o {path.with_suffix('.html')}") from None


def _print(text: str) -> None:
    sys.stdout.write(text.rstrip("\n") + "\n")


# ============================================================================ subcommands


def _cmd_openings(args: argparse.Namespace) -> int:
    try:
        from .analysis.placement import rank_openings
    except ImportError as exc:  # pragma: no cover - the placement module ships with the package
        raise _fail(f"openings needs catan_nb.analysis.placement ({exc})") from None
    from .analysis.simulation import Table

    board = parse_board(args.board)
    try:
        pairs = rank_openings(
            board, seat=args.seat, players=args.players, starting_seat=args.starting_seat, opponents=args.opponents, top=args.top
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    cols = ("rank", "first", "second", "score", "production", "pips", "resources", "opponent_picks")
    rows = [
        (
            i + 1,
            int(p.first),
            int(p.second),
            round(p.score, 4),
            round(p.production, 4),
            p.pips,
            ", ".join(str(r) for r in p.resources),
            " ".join(str(int(v)) for v in p.opponent_picks),
        )
        for i, p in enumerate(pairs)
    ]
    table = Table(cols, rows, title=f"best openings for seat {args.seat} of {args.players} on {board.name} (opponents: {args.opponents})")
    if args.output:
        _write_rows(
            Path(args.output),
            [{"rank": i + 1, **p.to_dict()} for i, p in enumerate(pairs)],
            {"board": board.name, "seat": args.seat, "players": args.players, "opponents": args.opponents},
        )
        _print(f"wrote {len(pairs)} openings to {args.output}")
    else:
        _print(str(table))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .analysis.simulation import BOTS, simulate

    bots: Any = [b.strip() for b in args.bots.split(",") if b.strip()]
    for b in bots:
        if b not in BOTS:
            raise _fail(f"unknown bot {b!r}; expected one of {', '.join(sorted(BOTS))}")
    if len(bots) == 1:
        bots = bots[0]
    elif len(bots) != args.players:
        raise _fail(f"--bots: give one kind or {args.players} (one per seat), not {len(bots)}")
    board: Any = "random" if args.board == "random" else parse_board(args.board)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        result = simulate(
            args.games,
            players=args.players,
            bots=bots,
            board=board,
            seed=args.seed,
            max_turns=args.max_turns,
            start=args.start,
            workers=args.workers,
            progress=progress,
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    scenario = board.scenario.get("modules") if not isinstance(board, str) else None
    if scenario:  # a scenario board plays its own modules (SF-13): say so, lest it pass for the base game
        _print(f"rule modules of the board's scenario: {', '.join(scenario)}")
    _print(result.summary())
    if args.output:
        level = "seat" if args.per_seat else "game"
        meta = {"games": result.games, "players": result.players, "bots": list(result.bots), "seed": result.seed,
                "max_turns": result.max_turns, "board": result.board, "level": level}
        _write_rows(Path(args.output), result.to_records(level), meta)
        _print(f"wrote {len(result.to_records(level))} rows to {args.output}")
    return 0


def _cmd_picture(args: argparse.Namespace) -> int:
    from .viz import board_figure

    if args.game:
        source = _load_game(args.game)
        if args.board:
            raise _fail("give --board or --game, not both")
    else:
        source = parse_board(args.board or "beginner")
    kw: dict[str, Any] = dict(palette_name=args.palette, node_ids=args.node_ids, height=args.height)
    if args.title:
        kw["title"] = args.title
    if args.longest_road is not None:
        if not args.game:
            raise _fail("--longest-road needs --game (a saved game)")
        from .analysis.longest_road import longest_road_figure

        fig = longest_road_figure(source, args.longest_road, **kw)
    else:
        fig = board_figure(source, **kw)
    out = Path(args.output)
    _write_figure(fig, out, width=args.width)
    _print(f"wrote {out}")
    return 0


def _cmd_longest_road(args: argparse.Namespace) -> int:
    from .analysis.longest_road import explain_longest_road, longest_road_figure

    if args.game and args.game_file:
        raise _fail("give the saved game once (GAME or --game)")
    if not (args.game or args.game_file):
        raise _fail("which saved game? catan-nb longest-road GAME.json")
    game = _load_game(args.game or args.game_file)
    seats = [args.seat] if args.seat is not None else list(range(game.n))
    for p in seats:
        if not 0 <= p < game.n:
            raise _fail(f"--seat {p}: the game has seats 0..{game.n - 1}")
        _print(explain_longest_road(game, p))
    if args.output:
        seat = args.seat if args.seat is not None else (game.longest_road_holder or 0)
        _write_figure(longest_road_figure(game, seat), Path(args.output))
        _print(f"wrote {args.output}")
    return 0


def app_command(notebook: str | None = None, port: int | None = None, extra: Sequence[str] = ()) -> tuple[list[str], dict]:
    """The command line and environment that serve the game table as a Voila app.

    Voila's stock template asks a CDN for FontAwesome; the ``catan`` template shipped in the
    package does not, so the app loads nothing from outside the machine (it works offline).

    Examples
    --------
    >>> argv, env = app_command()
    >>> argv[1:4], argv[-1].endswith("app.ipynb")
    (['-m', 'voila', '--template=catan'], True)
    """
    import os

    here = Path(__file__).resolve().parent / "app"
    path = Path(notebook) if notebook else here / "app.ipynb"
    if not path.is_file():
        raise _fail(f"{path}: no such notebook")
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(here / "share" / "jupyter"), env.get("JUPYTER_PATH")) if p)
    argv = [sys.executable, "-m", "voila", "--template=catan", *([f"--port={port}"] if port else []), *extra, str(path)]
    return argv, env


def _cmd_app(args: argparse.Namespace) -> int:
    try:
        import voila  # noqa: F401
    except ImportError:
        raise _fail("the app needs Voila: pip install 'catan-nb[lab]'") from None
    argv, env = app_command(args.notebook, args.port, ["--no-browser"] if args.no_browser else [])
    return serve(argv, env)


class _Stopped(Exception):
    """A signal asked the server to stop."""


def descendants(pid: int) -> list[int]:
    """Every process started by ``pid``, and by those, and so on (Linux ``/proc``; else ``psutil``; else none)."""
    children: dict[int, list[int]] = {}
    proc = Path("/proc")
    if proc.is_dir():
        for d in proc.iterdir():
            if not d.name.isdigit():
                continue
            try:
                stat = (d / "stat").read_text()
            except OSError:  # the process ended meanwhile
                continue
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])  # after "pid (comm) state"
            children.setdefault(ppid, []).append(int(d.name))
    else:  # pragma: no cover - not Linux
        try:
            import psutil

            return [c.pid for c in psutil.Process(pid).children(recursive=True)]
        except Exception:  # noqa: BLE001 - no psutil, or the process is gone
            return []
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), ()):
            out.append(c)
            todo.append(c)
    return out


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process took the number
        return False
    try:  # a zombie (ended, not yet reaped by its new parent) counts as stopped
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def stop_tree(proc, grace: float = 10.0) -> list[int]:
    """Stop a server process and everything it started (Voila's kernels): SIGTERM to the server, then,
    after ``grace`` seconds at most, SIGTERM and at last SIGKILL to whatever of its tree is left.
    Returns the pids that had to be killed."""
    import os
    import signal
    import time

    tree = descendants(proc.pid)  # before the server ends: its kernels would be adopted by init
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=grace)
    except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired
        proc.kill()
        proc.wait()
    left = [p for p in tree if _alive(p)]
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 1.0)):
        for p in left:
            try:
                os.kill(p, sig)
            except ProcessLookupError:
                pass
        deadline = time.time() + wait
        while left and time.time() < deadline:
            time.sleep(0.1)
            left = [p for p in left if _alive(p)]
        if not left:
            break
    return left


def serve(argv: Sequence[str], env: dict) -> int:
    """Run the server ``argv`` until it ends, or until this process is stopped (Ctrl+C, SIGTERM, SIGHUP):
    then stop the server and every process it started (:func:`stop_tree`), so that no kernel is left behind.
    Returns the server's exit status (0 when stopped)."""
    import signal
    import subprocess

    # its own session: a Ctrl+C in the terminal reaches this process only, which stops the whole tree in order
    proc = subprocess.Popen(list(argv), env=env, start_new_session=True)

    def stopped(signum, frame):
        raise _Stopped(signum)

    handlers = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            handlers[sig] = signal.signal(sig, stopped)
        except (ValueError, OSError):  # pragma: no cover - not the main thread, or no such signal
            pass
    try:
        return proc.wait()
    except (KeyboardInterrupt, _Stopped):
        for sig in (signal.SIGINT, *handlers):  # a second signal does not interrupt the stopping
            signal.signal(sig, signal.SIG_IGN)
        try:
            stop_tree(proc)
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        return 0
    finally:
        for sig, h in handlers.items():
            signal.signal(sig, h)


# ============================================================================ parser


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``catan-nb`` (subcommands ``openings``, ``simulate``, ``picture``, ``longest-road``, ``app``)."""
    from . import __version__

    ap = _Parser(
        prog="catan-nb",
        description="Headless Catan analysis: openings, simulations, board pictures, longest roads.",
    )
    ap.add_argument("--version", action="version", version=f"catan-nb {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    board_help = "beginner, random:SEED (random:SEED:five_six) or a board file"

    op = sub.add_parser("openings", help="rank the founding settlement pairs of a seat on a board")
    op.add_argument("--board", default="beginner", help=board_help + " (default: beginner)")
    op.add_argument("--seat", type=_int_in(0, 5), default=0)
    op.add_argument("--players", type=_int_in(3, 6), default=4)
    op.add_argument("--starting-seat", type=_int_in(0, 5), default=0)
    op.add_argument("--top", type=_int_in(1), default=10, help="how many pairs (default 10)")
    op.add_argument("--opponents", choices=("greedy", "none"), default="greedy",
                    help="greedy: the other seats take the best free spot in snake order (default)")
    op.add_argument("-o", "--output", help="write the pairs to a .csv or .json file")
    op.set_defaults(func=_cmd_openings)

    sp = sub.add_parser("simulate", help="play many bot games and print win rates, lengths and VP sources")
    sp.add_argument("--games", type=_int_in(0, 10_000_000), default=100)
    sp.add_argument("--players", type=_int_in(3, 6), default=4)
    sp.add_argument("--seed", type=_int_in(0), default=0)
    sp.add_argument("--workers", type=_int_in(1, 512), default=None, help="processes (default: every core)")
    sp.add_argument("--bots", default="random", help="one kind for all seats or one per seat, comma-separated: random, weighted, value, search")
    sp.add_argument("--board", default="random", help="random (a new board per game, default) or " + board_help)
    sp.add_argument("--max-turns", type=_int_in(1), default=None, help="stop a game after this many turns (no winner)")
    sp.add_argument("--start", choices=("founding", "beginner"), default="founding")
    sp.add_argument("--per-seat", action="store_true", help="with -o: one row per game and seat")
    sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    sp.add_argument("-o", "--output", help="also write the per-game records to a .csv or .json file")
    sp.set_defaults(func=_cmd_simulate)

    pp = sub.add_parser("picture", help='draw a board or a saved game to .html (or .png/.svg with the [image] extra: pip install "catan-nb[image]")')
    pp.add_argument("--board", default=None, help=board_help + " (default: beginner)")
    pp.add_argument("--game", help="a saved game (.json) to draw instead of a bare board")
    pp.add_argument("--longest-road", type=_int_in(0, 5), default=None, metavar="SEAT", help="with --game: highlight this seat's longest road")
    pp.add_argument("--palette", choices=("standard", "colorblind"), default="standard")
    pp.add_argument("--node-ids", action="store_true", help="print intersection ids")
    pp.add_argument("--title", default=None)
    pp.add_argument("--width", type=_int_in(50, 10_000), default=None, help="image width in pixels (images only)")
    pp.add_argument("--height", type=_int_in(50, 10_000), default=620)
    pp.add_argument("-o", "--output", required=True, help="out.html, out.png, out.svg ...")
    pp.set_defaults(func=_cmd_picture)

    lp = sub.add_parser("longest-road", help="explain the longest roads of a saved game")
    lp.add_argument("game_file", nargs="?", metavar="GAME", help="a saved game (.json)")
    lp.add_argument("--game", default=None, help="the same, as an option")
    lp.add_argument("--seat", type=_int_in(0, 5), default=None, help="one seat (default: every seat)")
    lp.add_argument("-o", "--output", help="also draw the seat's longest road (.html, or .png with the [image] extra)")
    lp.set_defaults(func=_cmd_longest_road)

    ap_ = sub.add_parser("app", help="serve the game table as an app in the browser (Voila; works offline)")
    ap_.add_argument("notebook", nargs="?", default=None, help="a notebook to serve instead of the game table")
    ap_.add_argument("--port", type=_int_in(1, 65535), default=None)
    ap_.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    ap_.set_defaults(func=_cmd_app)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``catan-nb`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit status.

    A bad argument, file or value prints one line, ``catan-nb: error: ...``, on stderr and
    returns 2 (never a traceback); ``--help`` and ``--version`` print and return 0.
    """
    from .errors import CatanError

    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    except (CommandError, CatanError) as exc:
        message = str(exc)
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        message = f"cannot use{where}: {exc.strerror or exc}"
    except KeyboardInterrupt:
        sys.stderr.write("catan-nb: interrupted\n")
        return 130
    except (ValueError, TypeError, MemoryError, RecursionError) as exc:
        message = f"{type(exc).__name__}: {exc}"
    sys.stderr.write("catan-nb: error: " + " ".join(message.split()) + "\n")
    return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

"""Write the ready-to-print pages of lesson 9 (issue 39): ``notebooks/printables/*.pdf``, A4 and Letter.

Run from the repository root: ``python docs/tools/make_printables.py`` (needs kaleido and a Chromium:
``pip install "catan-nb[image]"``).  It writes the board, the students' worksheet and the teacher's sheet
(:mod:`catan_nb.viz.printable`) for the beginner board, so that a class prints them with no kaleido and no
browser, and records a fingerprint of each page's figure in ``notebooks/printables/pages.json``.

``--check`` writes nothing and exits 1 when a page's figure no longer matches its fingerprint (the code that
draws it changed since the PDFs were made): the test suite runs it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's catan_nb

from catan_nb import Board  # noqa: E402
from catan_nb.viz.printable import PAGES, PAPERS, printable_board, tally_worksheet, teacher_sheet, write_printables  # noqa: E402

FOLDER = ROOT / "notebooks" / "printables"
FINGERPRINTS = FOLDER / "pages.json"


def figures() -> dict[str, object]:
    """Every page's figure, by file name (``board_A4.pdf``...)."""
    board = Board.beginner()
    out = {}
    for paper in PAPERS:
        made = {"board": printable_board(board, paper=paper), "worksheet": tally_worksheet(paper=paper),
                "teacher_sheet": teacher_sheet(paper=paper)}
        out.update({f"{name}_{paper}.pdf": made[name] for name in PAGES})
    return out


def fingerprint(fig) -> str:
    """A hash of what a page draws: its traces and layout, without plotly's template (a plotly upgrade
    changes the template, not the page)."""
    spec = fig.to_plotly_json()
    spec["layout"].pop("template", None)
    return hashlib.sha1(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:16]


def stale() -> list[str]:
    """The pages whose figure differs from the one the shipped PDF was made from (or whose PDF is missing)."""
    recorded = json.loads(FINGERPRINTS.read_text(encoding="utf-8")) if FINGERPRINTS.exists() else {}
    return [name for name, fig in figures().items()
            if recorded.get(name) != fingerprint(fig) or not (FOLDER / name).exists()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a PDF is out of date")
    args = ap.parse_args(argv)
    if args.check:
        old = stale()
        for name in old:
            print(f"out of date: notebooks/printables/{name}")
        return 1 if old else 0
    paths = write_printables(FOLDER, Board.beginner(), papers=tuple(PAPERS), formats=("pdf",))
    FINGERPRINTS.write_text(json.dumps({name: fingerprint(fig) for name, fig in figures().items()}, indent=1) + "\n",
                            encoding="utf-8")
    for p in paths:
        print(f"wrote {p.relative_to(ROOT)} ({p.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

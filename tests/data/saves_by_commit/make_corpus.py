"""Record the corpus of saves made by earlier commits (``tests/data/saves_by_commit``).

For each commit below: its ``catan_nb`` and ``boards`` are taken out of this repository's history
into a temporary folder (``git archive``), and ``make_saves.py`` plays and saves its games there,
with that commit's own code (``PYTHONPATH`` set to the folder).  A corpus is one folder,
``<date>_<commit>``; its ``expected.json`` (written by hand) says which saves still load in full
and which stop at an action under a rule that changed (``tests/test_saves_by_commit.py``).

Usage, from the repository's root: ``python tests/data/saves_by_commit/make_corpus.py [COMMIT ...]``
(all the commits below when none is named; an existing folder is recorded again).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

#: commit -> the games it records: ``name=config:players:seed:turns`` (see make_saves.CONFIGS).
CORPORA = {
    # the first rule modules (Friends, Helpers, 5-6 players): format 1, before saves had a digest
    "9f0bdd7": ["base=base:4:1:30", "friends_helpers=friends_helpers:4:2:25", "five_six=five_six:5:3:25",
                "helpers=helpers:3:4:30"],
    # the first ships (SF-5..7): format 1 with its digest, Seafarers' state without the pirate (SF-10)
    "8a6bd4f": ["seafarers=seafarers:4:5:35", "friends=friends:4:6:30", "base=base:3:7:30"],
    # the commit before SF-7's strict reading (fee15ac) and Cities & Knights' founding city (2e461ec)
    "a73f9f3": ["seafarers_sf7=seafarers:4:4:40", "cities_knights=cities_knights:4:8:25",
                "great_catan=great_catan:4:9:30", "friends=friends:4:10:30", "corsica=corsica:4:11:30"],
    # format 1, a week of Seafarers scenarios and New York before it could stall (5d7ee2c)
    "b5a4f44": ["new_york=new_york:4:12:30", "erie_canal=erie_canal:4:13:30", "harbour_master=harbour_master:4:14:30",
                "fog=fog:4:15:30"],
    # format 2: the built-in modules' state in ext
    "eba9f61": ["cities_knights=cities_knights:4:16:30", "friends_helpers=friends_helpers:4:17:25",
                "seafarers=seafarers:4:18:35", "five_six=five_six:6:19:20"],
    "c0cf472": ["corsica=corsica:4:20:30", "ck_seafarers=ck_seafarers:4:21:25", "helpers=helpers:4:22:30",
                "base=base:4:23:40"],
    # the last commit of format 2
    "af81de3": ["great_catan=great_catan:4:24:30", "new_york=new_york:5:25:25", "erie_canal=erie_canal:4:26:30",
                "friends=friends:4:27:30", "fog=fog:4:28:30"],
}


def record(commit: str, specs: list[str]) -> Path:
    date = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%ad", "--date=short", commit],
                          capture_output=True, text=True, check=True).stdout.strip()
    out = HERE / f"{date}_{commit}"
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "catan_nb", "boards"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
        subprocess.run([sys.executable, str(HERE / "make_saves.py"), str(out), *specs], cwd=tree,
                       env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"}, check=True)
    return out


if __name__ == "__main__":
    for commit in sys.argv[1:] or list(CORPORA):
        print(record(commit, CORPORA[commit]))

"""The documentation site builds, offline, with warnings as errors (issue 28, item 6).

The guides (``docs/*.md``), the API reference from the numpydoc docstrings (``docs/api``) and the
lessons: those listed in ``docs/conf.py``'s ``EXECUTED`` are run and must show their outputs
(plotly figures drawn by the site's own plotly.js), the others are rendered as written.  About a
minute on the CI machine.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

if os.environ.get("CI"):  # CI installs the docs extra (.[test] includes it): never skip there
    import myst_nb  # noqa: F401
    import sphinx  # noqa: F401
else:
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")


def _executed() -> tuple[str, ...]:
    text = (DOCS / "conf.py").read_text(encoding="utf-8")
    return tuple(re.findall(r'"(\d\d_\w+)"', re.search(r"^EXECUTED = \((.*)\)$", text, flags=re.M).group(1)))


def test_the_documentation_site_builds_offline_with_warnings_as_errors(tmp_path):
    out = tmp_path / "html"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    for page in ("index.html", "modules.html", "api/rules.html", "api/modules.html", "api/envs.html"):
        assert (out / page).is_file(), page
    api = (out / "api" / "rules.html").read_text(encoding="utf-8")
    assert "catan_nb.rules.game.Game" in api and "legal_actions" in api  # autodoc over the docstrings
    modules = (out / "api" / "modules.html").read_text(encoding="utf-8")
    assert "GoodRules" in (out / "api" / "core.html").read_text(encoding="utf-8") and "Shearing" in modules
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert all((out / "lessons" / f"{name}.html").is_file() for name in lessons)
    executed = _executed()
    assert executed and set(executed) <= set(lessons)
    for name in executed:  # run during the build: their outputs are on the page
        page = (out / "lessons" / f"{name}.html").read_text(encoding="utf-8")
        assert "cell_output" in page, name
    figures = sum((out / "lessons" / f"{name}.html").read_text(encoding="utf-8").count("Plotly.newPlot")
                  for name in executed)
    assert figures >= 1 and (out / "_static" / "plotly.min.js").is_file()
    for page in out.rglob("*.html"):  # nothing is loaded from elsewhere: offline, no CDN
        assert not re.search(r"<script[^>]+src=\"https?://", page.read_text(encoding="utf-8")), page
    assert not (out / "lessons" / "teacher").exists()  # the teacher's editions stay out

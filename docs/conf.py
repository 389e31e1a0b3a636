"""Sphinx configuration of the catan_nb documentation site (issue 28, item 6).

Build it offline, warnings as errors (``tests/test_docs_site.py`` does, in CI)::

    pip install -e ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html

Sources: the guides (``docs/*.md``, MyST Markdown), the API reference (``docs/api/``, autodoc
over the numpydoc docstrings through napoleon) and the lessons (``docs/lessons``, a link to
``notebooks/``).  The lessons listed in ``EXECUTED`` are run during the build and shown with
their outputs (plotly figures included: plotly.js is served once from the site's ``_static``,
never from a CDN); the others are shown as written, without running them, to keep the build
within about two minutes.  Nothing is downloaded: no intersphinx.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the package of this checkout, not an installed one

project = "catan_nb"
author = "the catan_nb authors"
copyright = "the catan_nb authors, MIT licence"  # noqa: A001 - Sphinx's name

extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "tools", "lessons/teacher", "lessons/**/.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]

# ---------------------------------------------------------------- the guides (MyST)
myst_heading_anchors = 3  # "#goods" style links between and within the guides
myst_enable_extensions = ["colon_fence"]
suppress_warnings = [
    "myst.header",  # guides that start at "##" under a page title are fine
    "ref.python",  # a name that two classes share (Estimate, Production): Sphinx links one, and says so
]

# ---------------------------------------------------------------- the API reference
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the numpydoc docstrings say the types
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False
napoleon_use_ivar = True  # "Attributes" as fields: no second description of a dataclass field

# ---------------------------------------------------------------- the lessons (myst-nb)
#: Lessons run during the build: cheap ones (a few seconds each) whose outputs are text and plotly
#: figures, not interactive widgets (a widget needs a live kernel: a static page can show no more
#: than its text).  The others are shown as written, unrun, to keep the build within two minutes.
EXECUTED = ("01_engine_tour", "09_unplugged_start", "20_dice_game_conditional")
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_excludepatterns = [f"lessons/{p.stem}.ipynb" for p in sorted((ROOT / "notebooks").glob("*.ipynb"))
                                if p.stem not in EXECUTED]
nb_merge_streams = True
nb_ipywidgets_js: dict = {}  # no widget manager from a CDN: a widget shows its text in a static page

# Figures in executed lessons: the kernel renders plotly figures as HTML that uses the page's own
# plotly.js (served once from _static), through an IPython start-up file.  Both live in a scratch
# folder, so the build writes nothing into the sources.
_SCRATCH = Path(tempfile.mkdtemp(prefix="catan_nb_docs_"))
_STARTUP = _SCRATCH / "ipython" / "profile_default" / "startup"
_STARTUP.mkdir(parents=True)
(_STARTUP / "00_plotly_html.py").write_text(
    "import plotly.io as pio\n"
    "from plotly.io.base_renderers import MimetypeRenderer\n"
    "class _SiteHtml(MimetypeRenderer):\n"
    "    def to_mimebundle(self, fig_dict):\n"
    "        return {'text/html': pio.to_html(fig_dict, include_plotlyjs=False, full_html=False)}\n"
    "pio.renderers['catan_nb_site'] = _SiteHtml()\n"
    "pio.renderers.default = 'catan_nb_site'\n",
    encoding="utf-8",
)
os.environ["IPYTHONDIR"] = str(_SCRATCH / "ipython")
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
(_SCRATCH / "static").mkdir()
import plotly  # noqa: E402

shutil.copyfile(Path(plotly.__file__).parent / "package_data" / "plotly.min.js", _SCRATCH / "static" / "plotly.min.js")

# ---------------------------------------------------------------- HTML
html_theme = "alabaster"
html_title = "catan_nb"
html_static_path = [str(_SCRATCH / "static")]
html_js_files = ["plotly.min.js"]
html_theme_options = {"description": "A Jupyter kit for learning, teaching and analysing Catan", "fixed_sidebar": True}

_RULE_STAR = re.compile(r"\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-)\*")


def _escape_rule_stars(app, what, name, obj, options, lines) -> None:
    """``B-ROB-*`` (every rule of a section) is text, not the start of an emphasis."""
    lines[:] = [_RULE_STAR.sub(r"\1\\*", line) for line in lines]


def setup(app):
    app.connect("autodoc-process-docstring", _escape_rule_stars)

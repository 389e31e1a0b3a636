"""Image files (PNG, SVG, PDF) of the package's figures need the optional ``[image]`` extra.

Plotly writes an HTML file by itself; an image file needs kaleido, which drives a Chromium (Debian's
``/usr/bin/chromium`` will do; ``plotly_get_chrome`` downloads one).  kaleido is the package's
``[image]`` extra, installed with::

    pip install "catan-nb[image]"

Every place that writes image files (``catan-nb picture -o board.png``, ``catan-nb longest-road
-o``, :func:`catan_nb.viz.printable.write_printables`) checks for it first with
:func:`require_image_extra`, whose error names the extra and the command.

Examples
--------
>>> INSTALL_IMAGE
'pip install "catan-nb[image]"'
>>> IMAGE_FORMATS
('png', 'svg', 'pdf', 'jpg', 'jpeg', 'webp')
"""

from __future__ import annotations

import importlib.util

__all__ = ["IMAGE_EXTRA", "INSTALL_IMAGE", "IMAGE_FORMATS", "MissingImageExtra", "has_image_extra",
           "require_image_extra"]

#: The optional extra that brings kaleido (pyproject.toml: ``image = ["kaleido>=1.0"]``).
IMAGE_EXTRA = "image"
#: The command that installs it.
INSTALL_IMAGE = f'pip install "catan-nb[{IMAGE_EXTRA}]"'
#: File formats written through kaleido (HTML needs nothing more).
IMAGE_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp")


class MissingImageExtra(ImportError):
    """Writing an image file needs kaleido, the ``[image]`` extra, which is not installed."""


def has_image_extra() -> bool:
    """Whether kaleido, the ``[image]`` extra, can be imported."""
    return importlib.util.find_spec("kaleido") is not None


def require_image_extra(what: str) -> None:
    """Raise :class:`MissingImageExtra` naming the extra and its install command unless kaleido is there.

    ``what`` says what needs it ("writing board.png").

    Raises
    ------
    MissingImageExtra
        kaleido is not installed.
    """
    if not has_image_extra():
        raise MissingImageExtra(
            f"{what} needs the kaleido package, the [{IMAGE_EXTRA}] extra: {INSTALL_IMAGE} "
            "(it drives a Chromium, such as /usr/bin/chromium)")

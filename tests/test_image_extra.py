"""PNG export names the ``[image]`` extra (issue 38, part 3): where export is offered and in the error."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from catan_nb.viz import image
from catan_nb.viz.image import INSTALL_IMAGE, MissingImageExtra, require_image_extra

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def no_kaleido(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "kaleido" else real(name, *a))


def test_the_error_names_the_extra_and_the_command(no_kaleido):
    with pytest.raises(MissingImageExtra, match=r'\[image\] extra: pip install "catan-nb\[image\]"'):
        require_image_extra("writing board.png")
    assert issubclass(MissingImageExtra, ImportError)


def test_write_printables_says_how_to_install_the_extra(no_kaleido, tmp_path):
    from catan_nb.viz.printable import write_printables

    with pytest.raises(MissingImageExtra, match="catan-nb\\[image\\]"):
        write_printables(tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_extra_is_the_one_pyproject_declares():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'{image.IMAGE_EXTRA} = ["kaleido' in text


def test_the_readme_and_the_lesson_that_writes_files_name_the_extra():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert INSTALL_IMAGE in readme
    for path in (ROOT / "notebooks" / "09_unplugged_start.ipynb",
                 ROOT / "notebooks" / "teacher" / "09_unplugged_start_teacher.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        writing = [c for c in cells if "write_printables(" in "".join(c["source"])]
        assert writing and all(INSTALL_IMAGE in "".join(c["source"]) for c in writing), path.name

"""Old import paths keep working after the package was laid out by data flow (fastx/_compat.py):
an old flat path is the module at its new place, the same object, and the public functions that
share a name with an old module (fastx.records, fastx.simhash) stay functions."""
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import fastx
from fastx import _compat

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old,new", sorted(_compat.OLD_PATHS.items()))
def test_every_old_path_is_the_new_module(old, new):
    if old == "fastx.spark":
        pytest.importorskip("pyarrow")
    assert importlib.import_module(old) is importlib.import_module(new)


def test_the_named_old_paths_and_their_names():
    from fastx.bayes import BayesModel
    from fastx.batch import Page, extract_many
    from fastx.render import Renderer, attach
    from fastx.site import SiteModel
    from fastx.warc import read_warc
    assert SiteModel is fastx.SiteModel and BayesModel is fastx.BayesModel and Page is fastx.Page
    assert extract_many is fastx.extract_many and callable(read_warc) and callable(attach)
    assert Renderer.__module__ == "fastx.tools.browser"
    # (fastx.methods is the function listing the methods, so these are imported by name)
    layout = importlib.import_module("fastx.methods.layout")
    page_type = importlib.import_module("fastx.methods.page_type")
    assert layout.tag_table is importlib.import_module("fastx.methods.layout_similarity").tag_table
    assert page_type.PAGE_TYPES == fastx.PAGE_TYPES


def test_public_functions_are_not_shadowed_by_old_module_paths():
    import fastx.records  # noqa: F401
    import fastx.simhash  # noqa: F401
    assert callable(fastx.records) and fastx.records.__name__ == "records"
    assert callable(fastx.simhash) and fastx.simhash.__name__ == "simhash"
    assert fastx.site is importlib.import_module("fastx.methods.site.model")     # attribute access
    with pytest.raises(AttributeError):
        fastx.no_such_module


def test_a_model_module_imports_first_in_a_fresh_interpreter():
    """No import cycle: the site model (which reads parse and Extraction) as the first import, and
    the method order of fastx.methods() does not depend on which family was imported first."""
    def methods_after(first: str) -> str:
        code = f"import {first}; import fastx; print(','.join(fastx.methods()))"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()
    model_first = methods_after("fastx.methods.site.model, fastx.methods.bayes.model")
    assert model_first == methods_after("fastx")
    assert model_first.startswith("cetd-s,cetd-td,cetd,layout,site,bayes-table,bayes,default,")

"""Shared fixtures: the ../shared folder (dev corpora) when it is beside the repo."""
import importlib.util
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_shared: needs ../shared (dev corpora) beside the repo")


@pytest.fixture(scope="session")
def compare():
    """The shared compare.py module (corpus loaders and scoring), or skip."""
    path = SHARED / "tools" / "compare.py"
    if not path.exists():
        pytest.skip("../shared/tools/compare.py not present")
    spec = importlib.util.spec_from_file_location("fastx_shared_compare", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

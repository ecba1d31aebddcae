"""The types: `mypy -p fastx` clean, and the compiled core's stubs (fastx/_core.pyi) complete and
exact against the built module (`python -m mypy.stubtest fastx._core`), both with the settings in
pyproject.toml's [tool.mypy]."""
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import fastx

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install 'fastx-extract[test]')")


def _mypy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=900, cwd=ROOT)


def test_the_tested_tree_is_this_one():
    assert Path(fastx.__file__).resolve().parent == ROOT / "fastx"


def test_mypy_package_is_clean():
    r = _mypy("mypy", "--config-file", "pyproject.toml", "-p", "fastx")
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
    assert "Success: no issues found" in r.stdout


def test_stubs_match_the_compiled_core():
    r = _mypy("mypy.stubtest", "--mypy-config-file", "pyproject.toml",
              "--allowlist", "tests/stubtest_allowlist.txt", "fastx._core")
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_every_compiled_name_is_in_the_stubs():
    """The stubs name every public attribute of the module (stubtest checks signatures too; this
    says which name is missing even where stubtest cannot run)."""
    stub = (ROOT / "fastx" / "_core.pyi").read_text(encoding="utf-8")
    missing = [n for n in dir(fastx._core) if not n.startswith("_") and not inspect.ismodule(getattr(fastx._core, n))
               and f"def {n}(" not in stub and f"class {n}" not in stub and f"\n{n}:" not in stub]
    assert not missing, f"fastx/_core.pyi lacks: {missing}"

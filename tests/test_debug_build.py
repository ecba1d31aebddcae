"""The checking build: ``FASTX_DEBUG=1`` compiles the core with Cython's bounds and
initialization checks, C asserts and ``-Wall -Werror`` (setup.py), and the whole suite passes
against it.

It costs a full compile and a slower suite, so it runs when asked for:
``FASTX_DEBUG_SUITE=1 python -m pytest -q tests/test_debug_build.py`` copies the tree into a
temporary folder (beside a link to ../shared), builds the checking core there and runs the
suite on the copy.  The build alone (no compiler warning, every check compiled in) is also
what ``FASTX_DEBUG=1 python setup.py build_ext --inplace`` does by hand."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(os.environ.get("FASTX_DEBUG_SUITE", "") in ("", "0"),
                                reason="a full checking build and suite: set FASTX_DEBUG_SUITE=1")


def _copy_tree(dest: Path) -> Path:
    """The sources, tests, benchmarks and docs of this tree in dest/fastx-debug (no build outputs)."""
    tree = dest / "fastx-debug"
    ignore = shutil.ignore_patterns("*.so", "*.pyd", "_core.c", "_core.html", "__pycache__", ".mypy_cache")
    for name in ("fastx", "tests", "benchmarks", "docs"):
        shutil.copytree(ROOT / name, tree / name, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "mkdocs.yml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, tree / name)
    if (ROOT.parent / "shared").exists():
        (dest / "shared").symlink_to(ROOT.parent / "shared")
    return tree


def test_the_suite_passes_on_the_checking_build(tmp_path):
    tree = _copy_tree(tmp_path)
    env = {**os.environ, "FASTX_DEBUG": "1"}
    env.pop("FASTX_DEBUG_SUITE", None)
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=3600)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-8000:]
    assert "warning:" not in build.stderr.replace("Cython", ""), build.stderr[-8000:]
    probe = subprocess.run([sys.executable, "-c", "import fastx, fastx._core as c; print(c.__file__)"], cwd=tree,
                           env=env, capture_output=True, text=True, timeout=300)
    assert probe.returncode == 0 and str(tree) in probe.stdout, probe.stdout + probe.stderr
    # (the checking core keeps its debug information: the release build's stripping test does not apply)
    suite = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests",
                            "--deselect", "tests/test_debug_build.py",
                            "--deselect", "tests/test_packaging.py::test_compiled_core_is_stripped"], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=7200)
    assert suite.returncode == 0, suite.stdout[-8000:] + suite.stderr[-2000:]

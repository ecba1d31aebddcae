"""Packaging: the distribution's metadata, what goes into wheels and the sdist, the wheel matrix,
and the compiled core built stripped.  (CI's wheels.yml builds and tests the real wheels on every
push and checks them for C sources and size; these tests catch the configuration going wrong.)"""
import os
import re
import struct
import sys
from pathlib import Path

import pytest

import fastx

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")


@pytest.fixture(scope="module")
def pyproject():
    path = ROOT / "pyproject.toml"
    if not path.exists():
        pytest.skip("not a source tree (pyproject.toml absent): the installed wheel is under test")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_distribution_metadata(pyproject):
    p = pyproject["project"]
    assert p["name"] == "fastx-extract"                       # `fastx` on PyPI is another project
    assert p["version"] == fastx.__version__
    assert p["license"] == "Apache-2.0" and p["license-files"] == ["LICENSE"]
    assert p["authors"] and p["keywords"] and p["description"]
    assert {"Homepage", "Documentation", "Repository", "Issues"} <= set(p["urls"])
    assert all(u.startswith("https://") for u in p["urls"].values())
    versions = {c.rsplit(":: ", 1)[1] for c in p["classifiers"] if c.startswith("Programming Language :: Python :: 3.")}
    assert versions == {"3.10", "3.11", "3.12", "3.13", "3.14"}
    assert p["requires-python"] == ">=3.10"
    assert "License ::" not in " ".join(p["classifiers"])     # PEP 639: the SPDX expression only
    assert p["scripts"] == {"fastx": "fastx.tools.cli:main"}
    for extra in ("web", "docs", "test"):
        assert p["optional-dependencies"][extra]


def test_license_is_the_apache_text():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text and len(text) > 10_000


def test_wheels_get_no_sources(pyproject):
    st = pyproject["tool"]["setuptools"]
    assert st["include-package-data"] is False               # else every sdist file in fastx/ rides along
    # every folder of the package with an __init__.py, and nothing else
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "fastx").rglob("__init__.py")}
    assert set(st["packages"]) == folders and {"fastx.core", "fastx.methods.vsse", "fastx.tools"} <= folders
    # the report assets of `fastx show` are package data (files, not Python strings)
    assets = {p.name for p in (ROOT / "fastx" / "tools" / "assets").iterdir()}
    assert {"show.css", "show.js", "show.html"} <= assets
    assert st["package-data"]["fastx.tools"] == ["assets/*"]
    data = st["package-data"]["fastx"]
    assert "*.pyi" in data and "py.typed" in data and "data/*" in data
    assert not any(pat.endswith((".c", ".pyx", ".pxi")) for pat in data)
    assert {"*.c", "*.pyx", "*.pxi"} <= set(st["exclude-package-data"]["fastx"])
    # the stubs and the marker the wheel must carry exist
    assert (ROOT / "fastx" / "_core.pyi").exists() and (ROOT / "fastx" / "py.typed").exists()


def test_sdist_manifest_carries_what_the_tests_need():
    """MANIFEST.in evaluated by setuptools' own template processor over the source tree."""
    from setuptools._distutils.filelist import FileList
    skip = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis"}
    top_skip = skip | {"build", "dist", "site"}           # build outputs at the top (tests/methods/site is not)
    allfiles = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        here = top_skip if Path(dirpath) == ROOT else skip
        dirnames[:] = [d for d in dirnames if d not in here and not d.endswith(".egg-info")]
        rel = os.path.relpath(dirpath, ROOT)
        allfiles += [os.path.normpath(os.path.join(rel, f)) for f in filenames]
    fl = FileList()
    fl.allfiles = allfiles                # paths relative to the tree, as the sdist build sees them
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            fl.process_template_line(line)
    files = {Path(f).as_posix() for f in fl.files}
    tracked_tests = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*.py")}
    assert tracked_tests <= files and "tests/conftest.py" in files
    assert {"fastx/_core.pyx", "LICENSE", "README.md", "pyproject.toml", "setup.py"} <= files
    kernels = {p.relative_to(ROOT).as_posix() for p in (ROOT / "fastx").rglob("*.pxi")}
    assert "fastx/methods/cetd/_kernels.pxi" in kernels and kernels <= files
    headers = {p.relative_to(ROOT).as_posix() for p in (ROOT / "fastx" / "include").glob("*.h")}
    assert {"fastx/include/lexbor_abi.h", "fastx/include/fx_text.h"} <= headers and headers <= files
    assert "fastx/_text.pxd" in files
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "fastx" / "tools" / "assets").iterdir()} <= files
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "benchmarks").glob("*.py")} <= files
    assert "fastx/data/default_model.npz" in files
    assert not any(f.endswith((".so", ".pyd", ".pyc")) for f in files)
    assert "fastx/_core.c" not in files                       # regenerated from the .pyx by the build


def test_wheel_matrix(pyproject):
    cb = pyproject["tool"]["cibuildwheel"]
    assert cb["build"].split() == ["cp310-*", "cp311-*", "cp312-*", "cp313-*", "cp314-*"]
    assert "musllinux" not in cb.get("skip", "")              # musllinux wheels are built
    assert "{project}/tests" in cb["test-command"]
    path = ROOT / ".github" / "workflows" / "wheels.yml"
    if not path.exists():
        pytest.skip("no .github/workflows here (an sdist)")
    wf = path.read_text()
    for needle in ("pull_request", "ubuntu-24.04-arm", "macos-14", "windows-latest", "pypa/cibuildwheel@",
                   "pypa/gh-action-pypi-publish@", "id-token: write", "name: pypi",
                   "https://pypi.org/p/fastx-extract"):
        assert needle in wf, needle
    assert "setup-qemu" not in wf                             # aarch64 on native runners


def _elf_sections(path: Path) -> list[str]:
    """Section names of a 64-bit little-endian ELF file (the header and the section table only)."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
    strtab = header(shstrndx)
    base = strtab[4]
    names = []
    for i in range(shnum):
        off = base + header(i)[0]
        names.append(data[off:data.index(b"\0", off)].decode())
    return names


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF check (setup.py strips with GNU ld -s)")
def test_compiled_core_is_stripped():
    core = Path(fastx._core.__file__)
    if core.suffix != ".so" or struct.calcsize("P") != 8:
        pytest.skip("not a 64-bit ELF extension")
    sections = _elf_sections(core)
    assert ".dynsym" in sections                              # what loading needs stays
    assert ".symtab" not in sections and not any(s.startswith(".debug") for s in sections), sections
    assert core.stat().st_size < 3e6                          # (15 MB with its symbols and debug information)


def test_readme_opening_commands_and_docs_link():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[:3000]
    assert "pip install fastx-extract" in head
    assert ".venv/bin/pip install -e \".[peers,progress]\"" in head and "bash .ci/run" in head
    site = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(), re.M).group(1)
    assert site in head                                       # the README links to the documentation

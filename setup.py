"""Build fastx's compiled core (fastx/_core.pyx, which includes the kernel .pxi files).

The kernels live in the folders of their concern (core/, output/, methods/<family>/_kernels.pxi,
tools/) and are all compiled into the one extension module ``fastx._core``.

``FASTX_DEBUG=1`` builds a checking core instead: Cython's bounds and initialization
checks on (an index past an array's end, or a negative one, raises IndexError; a
memoryview used before assignment raises), C asserts kept, debug information, -Og
optimisation, and every C compiler warning an error (``-Werror``, with ``-Wall``).  The
suite passes under it (tests/test_debug_build.py builds it in a temporary folder)::

    FASTX_DEBUG=1 python setup.py build_ext --inplace

The extension is built without debug information and linked stripped (its
symbol table is not needed to load it: Python finds ``PyInit__core`` in the
dynamic symbols), so wheels and local builds alike carry a ~2.5 MB module
instead of ~15 MB.  MSVC writes no debug information into release builds.

Where the compiler is GCC 10 or later, the core is built profile-guided (PGO, as CPython's
own release builds are): compiled once instrumented (``-fprofile-generate``), run on the
shipped bench corpus (``fastx/data/bench.tar.xz``: ``extract`` with ``default`` and
``cetd``, the metadata, Markdown and cleaned HTML) from a temporary copy of the package, then
compiled again with ``-fprofile-use`` (``-fprofile-partial-training``: code the run did not
reach is optimised as without a profile).  GCC lays out the branches and inlines the calls
the run took; it changes no result (no floating-point option differs).  ``FASTX_PGO=0``
builds without it; the checking build, Clang, MSVC, an older GCC, or a training run that
fails (the message says why) build the plain way.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _strip_args() -> tuple[list[str], list[str]]:
    """(compile args, link args) that drop debug information and symbols.

    GCC/Clang: ``-g0`` (after Python's own ``-g``, so it wins); GNU ld:
    ``-s`` (strip all symbols); Apple ld: ``-x`` (drop local symbols) and
    ``-S`` (drop debug symbols), as ``-s`` is obsolete there."""
    if sys.platform == "win32":
        return [], []
    if sys.platform == "darwin":
        return ["-g0"], ["-Wl,-x", "-Wl,-S"]
    return ["-g0"], ["-Wl,-s"]


DEBUG = os.environ.get("FASTX_DEBUG", "") not in ("", "0")


def _debug_args() -> tuple[list[str], list[str]]:
    """(compile args, link args) of the checking build: warnings are errors (the numpy
    deprecation warning is silenced by NPY_NO_DEPRECATED_API below), asserts on, -Og -g."""
    if sys.platform == "win32":
        return ["/WX", "/Od", "/Zi", "/UNDEBUG"], []
    return ["-Wall", "-Werror", "-Og", "-g", "-UNDEBUG"], []


_compile_args, _link_args = _debug_args() if DEBUG else _strip_args()
_directives = {"boundscheck": DEBUG, "wraparound": False, "cdivision": True,
               "initializedcheck": DEBUG, "embedsignature": True}

extensions = [
    Extension(
        "fastx._core",
        ["fastx/_core.pyx"],
        include_dirs=[numpy.get_include(), "fastx/include"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=_compile_args,
        extra_link_args=_link_args,
    )
]

# the profile-guided build's training run (in a temporary copy of the package; see the docstring)
_PGO_TRAINING = """
import fastx
from fastx.tools.bench import load_corpus
pages = load_corpus().pages
for _ in range(2):
    for p in pages:
        r = fastx.extract(p.html, url=p.url)
        r.metadata.as_flat()
        r.markdown
        r.html
        fastx.extract(p.html, url=p.url, method="cetd").text
"""


def _gcc_major(cc: list) -> int:
    """The major version of the C compiler `cc` (its command line) when it is GCC, else 0."""
    try:
        out = subprocess.run(cc[:1] + ["--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    if "clang" in out.lower() or "Free Software Foundation" not in out:
        return 0
    m = re.search(r"(\d+)\.\d+(?:\.\d+)?", out.splitlines()[0] if out else "")
    return int(m.group(1)) if m else 0


class BuildExt(build_ext):
    """build_ext, profile-guided where the compiler is GCC >= 10 (see the module docstring)."""

    def _pgo(self) -> bool:
        if DEBUG or os.environ.get("FASTX_PGO", "1") in ("0", "") or self.compiler.compiler_type != "unix":
            return False
        return _gcc_major(list(self.compiler.compiler_so)) >= 10

    def build_extension(self, ext):
        if not self._pgo():
            return super().build_extension(ext)
        compile_args, link_args = list(ext.extra_compile_args), list(ext.extra_link_args)
        prof = tempfile.mkdtemp(prefix="fastx-pgo-")
        self.force = True               # both builds compile, whatever the timestamps say
        try:
            ext.extra_compile_args = compile_args + ["-fprofile-generate", "-fprofile-update=single",
                                                     f"-fprofile-dir={prof}"]
            ext.extra_link_args = link_args + ["-fprofile-generate"]
            super().build_extension(ext)
            self._train(ext)
            ext.extra_compile_args = compile_args + ["-fprofile-use", "-fprofile-partial-training",
                                                     f"-fprofile-dir={prof}", "-Wno-missing-profile",
                                                     "-Wno-maybe-uninitialized"]
            ext.extra_link_args = link_args
            super().build_extension(ext)
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"fastx: profile-guided build not done ({exc}); building without a profile", file=sys.stderr)
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
            super().build_extension(ext)
        finally:
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
            shutil.rmtree(prof, ignore_errors=True)

    def _train(self, ext) -> None:
        """The training run: the package's sources and the instrumented module copied to a
        temporary folder, _PGO_TRAINING run there (raises when it fails)."""
        built = Path(self.get_ext_fullpath(ext.name))
        with tempfile.TemporaryDirectory(prefix="fastx-pgo-run-") as tmp:
            pkg = Path(tmp) / "fastx"
            shutil.copytree(Path(__file__).resolve().parent / "fastx", pkg,
                            ignore=shutil.ignore_patterns("_core.*.so", "_core.*.pyd", "_core.c", "__pycache__"))
            shutil.copy2(built, pkg / built.name)
            env = dict(os.environ, PYTHONPATH=tmp, PYTHONNOUSERSITE="1", PYTHONHASHSEED="0")   # the same run each time
            run = subprocess.run([sys.executable, "-c", _PGO_TRAINING], cwd=tmp, env=env, capture_output=True,
                                 text=True, timeout=900)
            if run.returncode != 0:
                raise subprocess.SubprocessError("the training run failed: " + (run.stderr.strip().splitlines()
                                                                                or ["no message"])[-1])


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives=_directives,
    ),
)

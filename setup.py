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
dynamic symbols), so wheels and local builds alike carry a ~2.6 MB module
(x86-64, GCC) instead of ~16 MB.  MSVC writes no debug information into release builds.

With GCC the release build is profile-guided (``FASTX_PGO``, see :class:`BuildExt`): it
compiles the core instrumented, runs ``fastx.tools.pgo`` (the shipped bench corpus through
``default`` and its outputs) against it, and compiles it again with the recorded profile.
``FASTX_PGO=0`` builds once, without a profile (twice as fast to build, about 2-3% slower to
run); ``FASTX_PGO=1`` fails instead of falling back when the profiled build cannot be made::

    FASTX_PGO=0 python setup.py build_ext --inplace
"""
import os
import shutil
import subprocess
import sys
import tempfile

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

PGO = os.environ.get("FASTX_PGO", "auto").strip().lower()
if PGO not in ("auto", "0", "1"):
    sys.exit(f"FASTX_PGO must be auto, 0 or 1, not {PGO!r}")


class BuildExt(build_ext):
    """build_ext, profile-guided with GCC (the release build, FASTX_PGO unset or "auto"; "1":
    required; "0": off; never for FASTX_DEBUG builds).

    Three steps, in the build's own folders (the object file keeps its path, which is how GCC
    finds its profile again): compile with ``-fprofile-generate=DIR``; run ``python -m
    fastx.tools.pgo`` against that build (the package's sources beside the new module: the
    source tree for an in-place build, the build folder for a wheel, where build_py has already
    copied them); compile again with ``-fprofile-use=DIR -fprofile-partial-training`` (code the
    run did not reach stays optimised as without a profile).  When a step fails under "auto",
    the core is built once without a profile and a warning says why."""

    def run(self):
        # setuptools builds an in-place module in the build folder (inplace reads 0 there) and
        # copies it into the source tree afterwards: _train needs to know which it will be
        self._in_place = bool(self.inplace)
        super().run()

    def build_extensions(self):
        if DEBUG or PGO == "0" or not self._gcc():
            if PGO == "1" and not DEBUG:
                raise SystemExit("FASTX_PGO=1: the profile-guided build needs GCC")
            return super().build_extensions()
        base = [(ext.extra_compile_args, ext.extra_link_args) for ext in self.extensions]
        profile = tempfile.mkdtemp(prefix="fastx-pgo-")
        self.force = True           # both compiles, whatever an earlier build left
        try:
            try:
                self._flags(base, [f"-fprofile-generate={profile}", "-fprofile-update=single"],
                            [f"-fprofile-generate={profile}"])
                super().build_extensions()
                self._train(profile)
                self._flags(base, [f"-fprofile-use={profile}", "-fprofile-partial-training",
                                   "-Wno-missing-profile"], [])
            except Exception as exc:       # a compile, the run or its import failed
                if PGO == "1":
                    raise
                print(f"WARNING: fastx: building without a profile ({type(exc).__name__}: {exc})",
                      file=sys.stderr)
                self._flags(base, [], [])
            super().build_extensions()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def _gcc(self) -> bool:
        """Whether the C compiler is GCC (not clang answering to the name gcc, as on macOS)."""
        if self.compiler.compiler_type != "unix":
            return False
        try:
            out = subprocess.run([self.compiler.compiler_so[0], "--version"], capture_output=True,
                                 text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            return False
        return "Free Software Foundation" in out and "clang" not in out.lower()

    def _flags(self, base, compile_args, link_args):
        for ext, (c, l) in zip(self.extensions, base):
            ext.extra_compile_args = list(c) + compile_args
            ext.extra_link_args = list(l) + link_args

    def _train(self, profile):
        """Run the training workload on the instrumented module, in a fresh interpreter that
        imports the package from where this build put it."""
        if getattr(self, "_in_place", False):
            # setuptools copies the module into the source tree after build_extensions; the
            # instrumented one goes there now (the profiled build then replaces it)
            self.copy_extensions_to_source()
            root = os.path.dirname(os.path.abspath(__file__))
        else:
            root = os.path.abspath(self.build_lib)
        if not os.path.isfile(os.path.join(root, "fastx", "tools", "pgo.py")):
            raise FileNotFoundError(f"no fastx sources beside the built module in {root}")
        # PYTHONHASHSEED fixed: the run's set and dict orders, and so its profile and the
        # module built from it, the same from build to build
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join(
            [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        subprocess.run([sys.executable, "-m", "fastx.tools.pgo"], cwd=profile, env=env,
                       check=True, timeout=1800)


setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives=_directives,
    ),
    cmdclass={"build_ext": BuildExt},
)

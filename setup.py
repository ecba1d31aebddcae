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
dynamic symbols), so wheels and local builds alike carry a ~1.5 MB module
instead of ~7 MB.  MSVC writes no debug information into release builds.
"""
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup


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

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives=_directives,
    ),
)

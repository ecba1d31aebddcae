"""Build fastx's compiled core (fastx/_core.pyx, which includes the kernel .pxi files).

The extension is built without debug information and linked stripped (its
symbol table is not needed to load it: Python finds ``PyInit__core`` in the
dynamic symbols), so wheels and local builds alike carry a ~1.5 MB module
instead of ~7 MB.  MSVC writes no debug information into release builds.
"""
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


_compile_args, _link_args = _strip_args()

extensions = [
    Extension(
        "fastx._core",
        ["fastx/_core.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=_compile_args,
        extra_link_args=_link_args,
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True,
                             "initializedcheck": False, "embedsignature": True},
    ),
)

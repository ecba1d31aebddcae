"""Build fastx's compiled core (fastx/_core.pyx, which includes the kernel .pxi files)."""
import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "fastx._core",
        ["fastx/_core.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
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

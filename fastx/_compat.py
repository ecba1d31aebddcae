"""Old import paths kept working after the package was laid out by data flow.

``fastx.render``, ``fastx.site``, ``fastx.batch`` ... were flat modules before
the move into core/, output/, methods/<family>/, pipeline/ and tools/.  An
import of an old path returns the module at its new place (the same object, so
``mock.patch("fastx.site.X")`` and ``isinstance`` checks keep working); no file
stays behind at the old path.  Imports nothing of fastx itself.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

# old dotted path -> where the module lives now
OLD_PATHS: dict[str, str] = {
    "fastx.decode": "fastx.core.decode",
    "fastx.metadata": "fastx.output.metadata",
    "fastx.characteristics": "fastx.methods.vsse.characteristics",
    "fastx.records": "fastx.methods.vsse.records",
    "fastx.simhash": "fastx.methods.vsse.simhash",
    "fastx.bayes": "fastx.methods.bayes.model",
    "fastx.site": "fastx.methods.site.model",
    "fastx._labels": "fastx.methods._labels",
    "fastx.methods.layout": "fastx.methods.layout_similarity",
    "fastx.methods.page_type": "fastx.methods.default.page_type",
    "fastx.batch": "fastx.pipeline.batch",
    "fastx.warc": "fastx.pipeline.warc",
    "fastx.spark": "fastx.pipeline.spark",
    "fastx.fetch": "fastx.pipeline.fetch",
    "fastx.cli": "fastx.tools.cli",
    "fastx.bench": "fastx.tools.bench",
    "fastx.evaluate": "fastx.tools.evaluate",
    "fastx.plot": "fastx.tools.plot",
    "fastx.show": "fastx.tools.show",
    "fastx.render": "fastx.tools.browser",
}


class _OldPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """A finder and loader that answers an old path with the module at its new one."""

    def find_spec(self, fullname, path=None, target=None):
        new = OLD_PATHS.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, loader_state={"new": new})

    def create_module(self, spec):
        module = importlib.import_module(spec.loader_state["new"])
        spec.loader_state["spec"] = module.__spec__      # the import system sets __spec__ next
        return module

    def exec_module(self, module: ModuleType) -> None:
        spec = module.__spec__
        if spec is not None and spec.loader is self:     # give the module its own spec back
            module.__spec__ = spec.loader_state["spec"]


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(f, _OldPathFinder) for f in sys.meta_path):
        sys.meta_path.append(_OldPathFinder())


def bind_loaded() -> None:
    """Enter every old path whose module is already imported into ``sys.modules``.

    An import through the finder sets the module as an attribute of its parent,
    which would shadow the public functions of the same name (``fastx.records``,
    ``fastx.simhash``); a path found in ``sys.modules`` is not set again."""
    for old, new in OLD_PATHS.items():
        module = sys.modules.get(new)
        if module is not None:
            sys.modules.setdefault(old, module)


def old_attribute(name: str) -> ModuleType:
    """``fastx.<name>`` for an old flat module path (the package's ``__getattr__``)."""
    if f"fastx.{name}" not in OLD_PATHS:
        raise AttributeError(f"module 'fastx' has no attribute {name!r}")
    return importlib.import_module(f"fastx.{name}")

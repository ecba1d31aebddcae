"""Documentation: every public callable has a docstring, the site covers every method and page,
and `mkdocs build --strict` passes (warnings are errors: broken links, missing pages, API
references that do not resolve).  The build is skipped when the docs tools are not installed
(pip install 'fastx-extract[docs]'; CI installs them)."""
import argparse
import importlib.util
import os
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fastx
from fastx import cli
from fastx.methods import REGISTRY, _load

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _doc(obj, name: str = "") -> str:
    """The docstring, without what Cython's embedsignature or a dataclass put there by themselves
    (a first line that is only the call signature)."""
    d = (getattr(obj, "__doc__", None) or "").strip()
    first, _, rest = d.partition("\n")
    if name and re.fullmatch(rf"{re.escape(name)}\(.*\)( -> .+)?", first.strip()):
        d = rest.strip()
    return d


def _public_callables():
    """(qualified name, object) of everything in fastx.__all__ that is callable or a module, and
    of the public methods and properties of its classes and the public functions of its modules."""
    for name in fastx.__all__:
        obj = getattr(fastx, name)
        if inspect.ismodule(obj):
            yield name, obj
            for n in getattr(obj, "__all__", None) or [n for n in vars(obj) if not n.startswith("_")]:
                f = getattr(obj, n)
                if inspect.isfunction(f) and f.__module__ == obj.__name__:
                    yield f"{name}.{n}", f
            continue
        if not callable(obj):
            continue
        yield name, obj
        if inspect.isclass(obj):
            for n, m in vars(obj).items():
                if n.startswith("_"):
                    continue
                if isinstance(m, property):
                    yield f"{name}.{n}", m.fget
                elif isinstance(m, (staticmethod, classmethod)):
                    yield f"{name}.{n}", m.__func__
                elif inspect.isfunction(m) or inspect.ismethoddescriptor(m) or inspect.isbuiltin(m):
                    yield f"{name}.{n}", m


def test_every_public_callable_has_a_docstring():
    seen = dict(_public_callables())
    assert {"extract", "parse", "Extraction.html", "Extraction.to_dict", "Doc", "extract_many"} <= set(seen)
    missing = [q for q, obj in seen.items() if not _doc(obj, q.rsplit(".", 1)[-1])]
    assert not missing, f"public callables without a docstring: {missing}"


def test_api_reference_lists_every_public_callable():
    refs = set(re.findall(r"^::: (\S+)", (DOCS / "api.md").read_text(encoding="utf-8"), re.M))
    missing = [n for n in fastx.__all__
               if (callable(getattr(fastx, n)) or inspect.ismodule(getattr(fastx, n))) and f"fastx.{n}" not in refs]
    assert not missing, f"docs/api.md has no reference for: {missing}"


def test_every_cli_command_is_documented():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in sub._choices_actions}
    cli_page = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert set(sub.choices) >= {"extract", "show", "methods", "evaluate", "bench", "learn-site"}
    for name, sp in sub.choices.items():
        assert helps.get(name), f"`fastx {name}` has no help text"
        handler = sp.get_default("func")
        assert _doc(handler, handler.__name__), f"the handler of `fastx {name}` has no docstring"
        assert f"## fastx {name}" in cli_page, f"docs/cli.md has no section for `fastx {name}`"
        for action in sp._actions:                      # every option has a help text and is in cli.md
            if action.option_strings and action.dest != "help":
                assert action.help, f"`fastx {name} {action.option_strings[0]}` has no help"
                assert any(f"`{o}" in cli_page for o in action.option_strings), \
                    f"docs/cli.md does not document `fastx {name} {action.option_strings[-1]}`"


def test_methods_page_covers_every_method():
    _load()
    page = (DOCS / "methods.md").read_text(encoding="utf-8")
    shipped = {name: m for name, m in REGISTRY.items() if (m.run.__module__ or "").startswith("fastx.")}
    assert {"default", "cetd", "vsse", "layout", "bayes", "site"} <= set(shipped)
    for name, m in shipped.items():         # (other tests register methods of their own)
        assert f"`{name}`" in page, f"docs/methods.md does not mention method {name!r}"
        assert f"::: {m.run.__module__}" in page, f"docs/methods.md has no reference for {m.run.__module__}"
        assert _doc(m.run, m.run.__name__), f"method {name!r} ({m.run.__module__}.{m.run.__name__}) has no docstring"


def _nav_pages():
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:"):]
    return set(re.findall(r":\s*([\w./-]+\.md)\s*$", nav, re.M))


def test_every_page_is_in_the_nav_and_the_topics_are_there():
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    nav = _nav_pages()
    assert pages <= nav, f"pages missing from mkdocs.yml's nav: {sorted(pages - nav)}"
    assert nav <= pages, f"nav entries without a page: {sorted(nav - pages)}"
    text = {p: (DOCS / p).read_text(encoding="utf-8") for p in pages}
    everything = "\n".join(text.values())
    for topic in ("pip install fastx-extract", "threshold", "WARC", "Spark", "Parquet", "datasets",
                  "ds.map(", "fastx show", "--urls-from", "-o out/", "extract_many", "FastxError"):
        assert topic in everything, f"the documentation never mentions {topic!r}"
    assert "| 0.30 |" in text["precision-recall.md"] and "benchmarks/threshold_curve.py" in text["precision-recall.md"]
    assert (ROOT / "benchmarks" / "threshold_curve.py").exists()


def _docs_tools() -> bool:
    return all(importlib.util.find_spec(m) for m in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"))


@pytest.mark.skipif(not _docs_tools(), reason="the docs tools are not installed (pip install 'fastx-extract[docs]')")
def test_site_builds_strict(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                        "-d", str(tmp_path / "site")], capture_output=True, text=True, timeout=600, cwd=ROOT,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert r.returncode == 0, f"mkdocs build --strict failed:\n{r.stdout[-3000:]}\n{r.stderr[-6000:]}"
    site = tmp_path / "site"
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    # the reference is generated from the docstrings: a few of them, verbatim
    assert "Extract the main content of a page with a registered method" in api
    assert "Fetch one URL" in api
    methods = (site / "methods" / "index.html").read_text(encoding="utf-8")
    assert "DensitySum" in methods and "page_threshold" in methods

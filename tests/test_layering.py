"""The folders' import rules (each folder's __init__ docstring, docs/architecture.md): module-level
imports point down the data flow only.  core/ imports none of output/, methods/, pipeline/, tools/;
output/ none of methods/, pipeline/, tools/; methods/ none of pipeline/, tools/; pipeline/ no tool.
(Imports inside functions are the lazy exceptions the docstrings name.)"""
import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "fastx"
FORBIDDEN = {
    "core": ("output", "methods", "pipeline", "tools", "api"),
    "output": ("methods", "pipeline", "tools", "api"),
    "methods": ("pipeline", "tools", "api"),
    "pipeline": ("tools",),
}


def _module_level_imports(path: Path):
    """(line, absolute fastx module) of every import at module level (not inside a def)."""
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    package = parts[:-1]
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names = [f"{mod}.{a.name}" for a in node.names]
            yield node.lineno, [mod] + names
        elif isinstance(node, ast.Import):
            yield node.lineno, [a.name for a in node.names]


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_module_level_imports_follow_the_data_flow(folder):
    bad = []
    for path in sorted((PKG / folder).rglob("*.py")):
        for line, mods in _module_level_imports(path):
            for mod in mods:
                for other in FORBIDDEN[folder]:
                    if mod == f"fastx.{other}" or mod.startswith(f"fastx.{other}."):
                        bad.append(f"{path.relative_to(PKG.parent)}:{line} imports {mod}")
    assert not bad, "\n".join(sorted(set(bad)))


def test_every_folder_says_what_lives_there_and_what_it_may_import():
    for init in sorted(PKG.rglob("__init__.py")):
        doc = " ".join((ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or "").split())
        rel = init.parent.relative_to(PKG.parent)
        assert len(doc) > 80, f"{rel}: no docstring saying what lives there"
        if init.parent != PKG:
            assert "may import" in doc.lower(), f"{rel}: its docstring does not say what it may import"

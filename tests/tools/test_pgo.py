"""fastx.tools.pgo: the training run of the profile-guided build (setup.py's BuildExt)."""
import ast
from pathlib import Path

from fastx.tools import pgo
from fastx.tools.bench import load_corpus

ROOT = Path(__file__).resolve().parents[2]


def test_the_training_run_goes_through_every_page_and_output(monkeypatch):
    import fastx
    calls = []
    real = fastx.extract

    def spy(html, **kw):
        calls.append(kw.get("method", "default"))
        return real(html, **kw)

    monkeypatch.setattr(fastx, "extract", spy)
    n = pgo.main(rounds=1)
    assert n == len(load_corpus().pages) > 0
    assert calls.count("default") == n
    for method in pgo.OTHER_METHODS:                       # each registered and run once a page
        assert method in fastx.methods()
        assert calls.count(method) == n


def test_setup_builds_through_the_profile_step():
    # the build command is setup.py's BuildExt, which runs `python -m fastx.tools.pgo`
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    assert "BuildExt" in classes
    source = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert 'cmdclass={"build_ext": BuildExt}' in source and '"fastx.tools.pgo"' in source

"""fastx.extract_many and `fastx extract` batches: one record per input, in order, nothing lost."""
import io
import json
import multiprocessing
import os
import sys

import pytest

import fastx
from fastx import cli
from fastx.batch import BatchStats, Page, extract_many

PAGE = ("<html><head><title>{t}</title></head><body><nav><a href=/>Home</a> <a href=/a>About</a></nav>"
        "<article><h1>{t}</h1><p>Paragraph {t} of the article, long enough to be the main content. "
        "It has sentences, commas, and full stops. " * 5 + "</p></article></body></html>")

# Registered in each worker by `initializer=exec`: a method that misbehaves on cue (pages titled
# HANG / CRASH / EXIT), standing in for a page that hangs or crashes the parser.
HOOKS = """
import os, signal, time
import numpy as np
from fastx.methods import register

@register("test-hooks", "test hook: pages titled HANG, CRASH or EXIT misbehave")
def _hooks(doc):
    if doc.title == "HANG":
        time.sleep(600)
    if doc.title == "CRASH":
        os.kill(os.getpid(), signal.SIGSEGV)
    if doc.title == "EXIT":
        os._exit(3)
    return np.ones(doc.n, dtype=np.uint8)
"""


@pytest.fixture(scope="module")
def hooks():
    exec(HOOKS, {})      # also here, so the parent's method check knows the name
    return {"initializer": exec, "initargs": (HOOKS, {})}


def pages(n):
    return [PAGE.format(t=f"page {i}") for i in range(n)]


@pytest.mark.parametrize("jobs,threads", [(0, False), (1, False), (2, False), (2, True)])
def test_one_record_per_input_in_order(jobs, threads):
    items = pages(30)
    items[7] = 42                                      # not HTML: an error record
    items[11] = {"html": PAGE.format(t="dict"), "url": "http://x/d", "input": "d"}
    items[12] = ("http://x/t", PAGE.format(t="tuple"))
    items[13] = Page(path="/nonexistent/page.html", input="missing")
    items[14] = b"\xff\xfe" + PAGE.format(t="utf16").encode("utf-16-le")
    st = BatchStats()
    recs = list(extract_many(items, jobs=jobs, threads=threads, stats=st))
    assert len(recs) == len(items) == st.pages
    for i, r in enumerate(recs):
        assert set(r) >= {"input", "url", "title", "description", "text", "method", "error"}
        if i == 7:
            assert r["error"].startswith("InputError") and r["text"] is None
        elif i == 13:
            assert r["error"].startswith("InputError: cannot read") and r["input"] == "missing"
        else:
            assert r["error"] is None, r["error"]
    assert [r["title"] for r in recs[:7]] == [f"page {i}" for i in range(7)]
    assert recs[11]["url"] == "http://x/d" and recs[11]["input"] == "d" and recs[11]["title"] == "dict"
    assert recs[12]["url"] == "http://x/t" and recs[12]["title"] == "tuple"
    assert recs[14]["title"] == "utf16"
    assert st.errors == 2 and st.bytes > 0


def test_texts_equal_extract():
    items = pages(10)
    for rec, html in zip(extract_many(items, jobs=2), items):
        assert rec["text"] == fastx.extract(html).text


def test_timeout_and_crashes_become_error_records(hooks):
    items = pages(24)
    for i, t in {3: "HANG", 8: "CRASH", 9: "EXIT", 15: "HANG"}.items():
        items[i] = PAGE.format(t=t)
    st = BatchStats()
    recs = list(extract_many(items, jobs=2, method="test-hooks", timeout=1.0, stats=st, **hooks))
    assert len(recs) == 24
    errors = {i: r["error"] for i, r in enumerate(recs) if r["error"]}
    assert set(errors) == {3, 8, 9, 15}
    assert errors[3].startswith("ExtractionTimeout") and errors[15].startswith("ExtractionTimeout")
    assert errors[8].startswith("WorkerCrash") and "SIGSEGV" in errors[8]
    assert errors[9].startswith("WorkerCrash") and "exit code 3" in errors[9]
    assert [r["title"] for i, r in enumerate(recs) if i not in errors] == \
        [f"page {i}" for i in range(24) if i not in errors]
    assert st.timeouts == 2 and st.crashes == 2 and st.errors == 4


def test_single_worker_survives_a_hang(hooks):
    items = [PAGE.format(t="HANG"), PAGE.format(t="after")]
    recs = list(extract_many(items, jobs=1, method="test-hooks", timeout=0.5, **hooks))
    assert recs[0]["error"].startswith("ExtractionTimeout") and recs[1]["title"] == "after"


def test_large_pages_do_not_deadlock_the_pipes():
    big = PAGE.format(t="big").replace("</article>", "<p>" + "word " * 400_000 + "</p></article>")
    recs = list(extract_many([big, big, big, "<p>small</p>"], jobs=1))
    assert [len(r["text"]) > 1_000_000 for r in recs] == [True, True, True, False]


def test_closing_early_stops_the_workers():
    gen = extract_many(pages(200), jobs=2)
    assert next(gen)["error"] is None
    gen.close()
    assert not [p for p in multiprocessing.active_children() if p.name == "fastx-worker"]


def test_callers_mistakes_raise_at_once():
    with pytest.raises(fastx.UnknownMethodError):
        extract_many(pages(2), method="no-such-method")
    with pytest.raises(fastx.InputError):
        extract_many(pages(2), no_such_param=1)
    with pytest.raises(fastx.InputError):
        extract_many(pages(2), jobs=-1)


def test_cli_batch_json_lines_in_order(tmp_path, capsys):
    d = tmp_path / "pages"
    d.mkdir()
    for i in range(12):
        (d / f"{i:02d}.html").write_text(PAGE.format(t=f"page {i}"), encoding="utf-8")
    (d / "05.html").write_bytes(b"\x00\xff" * 10)     # junk: still a record
    assert cli.main(["extract", str(d), str(tmp_path / "missing.html"), "--jobs", "2"]) == 1
    out, err = capsys.readouterr()
    recs = [json.loads(line) for line in out.splitlines()]
    assert len(recs) == 13
    assert [r["input"] for r in recs] == [str(d / f"{i:02d}.html") for i in range(12)] + \
        [str(tmp_path / "missing.html")]
    assert recs[12]["error"].startswith("InputError") and recs[0]["title"] == "page 0"
    assert "13 pages, 1 errors" in err and "pages/s" in err and "MB/s" in err


def test_cli_single_page_is_text(tmp_path, capsys):
    page = tmp_path / "p.html"
    page.write_text(PAGE.format(t="solo"), encoding="utf-8")
    assert cli.main(["extract", str(page)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("solo") and "pages/s" not in err


def test_cli_files_from_and_parquet(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    paths = []
    for i in range(5):
        p = tmp_path / f"{i}.html"
        p.write_text(PAGE.format(t=f"page {i}"), encoding="utf-8")
        paths.append(str(p))
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(paths[::-1]) + "\n", encoding="utf-8")
    out = tmp_path / "out.parquet"
    assert cli.main(["extract", "--files-from", str(listing), "-o", str(out), "-q", "--jobs", "0"]) == 0
    table = pq.read_table(out)
    assert table.num_rows == 5
    assert table.column("title").to_pylist() == [f"page {i}" for i in range(5)][::-1]
    assert set(table.column_names) >= {"input", "url", "title", "text", "method", "error"}


def test_cli_stdin_single_page(monkeypatch, capsys):
    data = PAGE.format(t="from stdin").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    assert cli.main(["extract", "-", "--format", "json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["title"] == "from stdin" and rec["input"] == "<stdin>"


def test_cli_nothing_to_do_is_an_error(capsys):
    assert cli.main(["extract"]) == 2
    assert "nothing to extract" in capsys.readouterr().err


def test_threads_and_processes_agree():
    items = pages(16)
    a = [r["text"] for r in extract_many(items, jobs=2, threads=True)]
    b = [r["text"] for r in extract_many(items, jobs=0)]
    assert a == b


def test_worker_memory_limit_is_a_record():
    if not sys.platform.startswith("linux"):
        pytest.skip("RLIMIT_AS is enforced on Linux")
    # 120 MB of text in one paragraph: the parser, the Doc and the text each hold a copy, past
    # 500 MB (many small elements no longer are: the parse guard's budgets keep them cheap)
    big = "<p>" + "many words of text, " * 6_000_000
    recs = list(extract_many([big, PAGE.format(t="ok")], jobs=1, memory_limit=500, timeout=120))
    assert recs[0]["error"].split(":")[0] in ("OutOfMemoryError", "WorkerCrash")
    assert recs[1]["title"] == "ok" and recs[1]["error"] is None


def test_threads_share_a_doc():
    """The documented thread-safety: one Doc read by every method from 4 threads at once."""
    from concurrent.futures import ThreadPoolExecutor
    html = PAGE.format(t="shared") * 3

    def run(method, doc):
        try:
            return fastx.extract(doc, method=method).text
        except fastx.FastxError as exc:
            return type(exc).__name__

    names = [m for m in fastx.methods() if m != "test-hooks"]
    expected = {m: run(m, fastx.parse(html)) for m in names}
    doc = fastx.parse(html)
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda m: (m, run(m, doc)), names * 4))
    assert all(text == expected[m] for m, text in got)


# ---------------------------------------------------------------- issue 15: memory cap, directory entries

def _report_rlimit(path):
    import resource
    with open(path, "w") as f:
        f.write(str(resource.getrlimit(resource.RLIMIT_AS)[0]))


def test_workers_get_the_memory_cap_by_default(tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("RLIMIT_AS is enforced on Linux")
    from fastx.batch import DEFAULT_MEMORY_LIMIT
    out = tmp_path / "limit"
    recs = list(extract_many([PAGE.format(t="a")], jobs=1, method="cetd", initializer=_report_rlimit,
                             initargs=(str(out),)))
    assert recs[0]["error"] is None
    assert int(out.read_text()) == DEFAULT_MEMORY_LIMIT * 1024 * 1024 > 0
    list(extract_many([PAGE.format(t="a")], jobs=1, method="cetd", memory_limit=None,
                      initializer=_report_rlimit, initargs=(str(out),)))
    import resource
    assert int(out.read_text()) == resource.RLIM_INFINITY


def _report_env(path, names):
    import os
    with open(path, "w") as f:
        f.write("\n".join(f"{k}={os.environ.get(k)}" for k in names))


def test_workers_start_with_one_thread_and_the_malloc_thresholds(tmp_path, monkeypatch):
    # the worker's environment (batch._WORKER_ENV): one BLAS/OpenMP thread, glibc's mmap and trim
    # thresholds fixed; a variable the caller set is kept; the caller's environment is restored
    import os

    from fastx.pipeline import batch
    names = sorted(batch._WORKER_ENV)
    assert batch._WORKER_ENV["MALLOC_MMAP_THRESHOLD_"] == "1048576"
    assert batch._WORKER_ENV["MALLOC_TRIM_THRESHOLD_"] == "4194304"
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    for k in names:
        if k != "OMP_NUM_THREADS":
            monkeypatch.delenv(k, raising=False)
    out = tmp_path / "env"
    recs = list(extract_many([PAGE.format(t="a")], jobs=1, method="cetd", start_method="spawn",
                             initializer=_report_env, initargs=(str(out), names)))
    assert recs[0]["error"] is None
    got = dict(line.split("=", 1) for line in out.read_text().splitlines())
    assert got == {k: ("3" if k == "OMP_NUM_THREADS" else batch._WORKER_ENV[k]) for k in names}
    assert os.environ.get("OMP_NUM_THREADS") == "3" and "MALLOC_TRIM_THRESHOLD_" not in os.environ


def test_cli_memory_limit_option():
    args = cli.build_parser().parse_args(["extract", "x.html", "--memory-limit", "1500"])
    assert args.memory_limit == 1500
    from fastx.batch import DEFAULT_MEMORY_LIMIT
    assert cli.build_parser().parse_args(["extract", "x.html"]).memory_limit == DEFAULT_MEMORY_LIMIT


def test_every_directory_entry_gets_a_record(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs and symbolic links (POSIX)")
    d = tmp_path / "site"
    (d / "sub").mkdir(parents=True)
    (d / "a.html").write_text(PAGE.format(t="a"))
    (d / "sub" / "b.html").write_text(PAGE.format(t="b"))
    os.symlink(d / "missing.html", d / "dangling.html")
    os.symlink(d / "loop2", d / "loop1")
    os.symlink(d / "loop1", d / "loop2")
    os.mkfifo(d / "pipe.html")                      # opening it for reading would block the batch
    os.symlink(d / "sub", d / "sublink")
    recs = list(extract_many(cli.batch.cli_pages(cli.build_parser().parse_args(["extract", str(d)])),
                             jobs=0, method="cetd"))
    by = {os.path.basename(r["input"]): r for r in recs}
    assert set(by) == {"a.html", "b.html", "dangling.html", "loop1", "loop2", "pipe.html", "sublink"}
    assert by["a.html"]["error"] is None and by["b.html"]["error"] is None
    assert "dangling" in by["dangling.html"]["error"]
    assert "loop" in by["loop1"]["error"] and "loop" in by["loop2"]["error"]
    assert "FIFO" in by["pipe.html"]["error"]
    assert all(by[k]["error"].startswith("InputError") for k in ("dangling.html", "loop1", "pipe.html",
                                                                   "sublink"))


def test_worker_warm_up_loads_the_models_and_survives_a_failure(monkeypatch):
    # the forkserver imports fastx.pipeline.warm: its extraction loads the shipped models (and the
    # language detector when installed); a failure there must not stop the server
    from fastx.methods import default as default_method
    from fastx.pipeline import warm
    default_method._CACHE.pop("shipped", None)
    warm.warm()
    assert "shipped" in default_method._CACHE

    def broken(*args, **kwargs):
        raise fastx.ModelError("damaged model file")
    monkeypatch.setattr(warm.fastx, "extract", broken)
    warm.warm()

"""fastx.spark in Spark local mode: rows out = rows in, texts equal to fastx.extract."""
import os
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")
pytest.importorskip("pandas")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs a Java runtime (none found)", allow_module_level=True)

import fastx
from fastx.batch import Page
from fastx.spark import extract_column, read_warcs

PAGE = ("<html><head><title>{t}</title></head><body><nav><a href=/>Home</a></nav><article><h1>{t}</h1>"
        "<p>Paragraph {t} of the article, long enough to be the main content. It has sentences, "
        "commas, and full stops.</p></article></body></html>")
ROOT = str(Path(__file__).resolve().parents[2])


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    # the Python workers must run this interpreter and find this fastx (JVM inherits the env)
    env = {"PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable,
           "PYTHONPATH": os.pathsep.join([ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    session = (SparkSession.builder.master("local[2]").appName("fastx-tests")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.memory", "1g").config("spark.python.worker.reuse", "true")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def test_extract_column_keeps_every_row_and_matches_extract(spark):
    rows = [(i, f"http://x/{i}", PAGE.format(t=f"page {i}").encode()) for i in range(40)]
    rows += [(40, None, None),                                   # no HTML: an error, not a lost row
             (41, None, b"\xff\xfe" + PAGE.format(t="utf16").encode("utf-16-le")),
             (42, None, b"<div>" * 100_000),                     # hostile nesting
             (43, None, b"\x00\x01\x02 random bytes \xff")]
    df = spark.createDataFrame(rows, "id INT, url STRING, html BINARY")
    out = extract_column(df, "html", url="url").collect()
    assert len(out) == len(rows)
    by_id = {r["id"]: r for r in out}
    for i, url, html in rows:
        r = by_id[i]
        if html is None:
            assert r["error"].startswith("InputError") and r["text"] is None
            continue
        try:
            ref = fastx.extract(html, url=url)
        except fastx.InputError as exc:        # e.g. binary bytes: "not HTML", the same typed error
            assert r["error"] == f"InputError: {exc}" and r["text"] is None
            continue
        assert r["error"] is None and r["text"] == ref.text and r["title"] == ref.title
    assert by_id[41]["title"] == "utf16"


def test_string_column_prefix_and_clash(spark):
    df = spark.createDataFrame([(PAGE.format(t="s"), "keep")], "html STRING, text STRING")
    with pytest.raises(fastx.InputError):
        extract_column(df, "html")                               # 'text' exists
    (r,) = extract_column(df, "html", prefix="fx_", fields=("title", "text")).collect()
    assert r["text"] == "keep" and r["fx_title"] == "s" and r["fx_text"] == fastx.extract(PAGE.format(t="s")).text


def test_warc_files_to_texts(spark, tmp_path):
    pytest.importorskip("fastwarc")
    from fastx.warc import write_warc
    a, b = tmp_path / "a.warc.gz", tmp_path / "b.warc"
    write_warc(a, [Page(html=PAGE.format(t=f"a{i}"), url=f"http://a/{i}") for i in range(6)])
    write_warc(b, [Page(html=PAGE.format(t=f"b{i}"), url=f"http://b/{i}") for i in range(4)])
    pages = read_warcs(spark, [str(a), str(b), str(tmp_path / "missing.warc.gz")])
    out = extract_column(pages, "html", url="url", encoding="charset").collect()
    assert len(out) == 11
    ok = sorted((r["url"], r["title"]) for r in out if r["error"] is None)
    assert ok == sorted([(f"http://a/{i}", f"a{i}") for i in range(6)] + [(f"http://b/{i}", f"b{i}") for i in range(4)])
    (bad,) = [r for r in out if r["error"] is not None]
    assert bad["read_error"].startswith("InputError") and bad["warc"].endswith("missing.warc.gz")

"""fastx on Spark: main-content extraction over a DataFrame column of HTML.

>>> from fastx.spark import extract_column, read_warcs
>>> pages = read_warcs(spark, ["s3a://.../CC-MAIN-...-00000.warc.gz", ...])  # url, html, ...
>>> out = extract_column(pages, "html", url="url", encoding="charset")
>>> out.select("url", "title", "text", "error").write.parquet("extracted/")

:func:`extract_column` keeps every input row and appends the columns
``title``, ``description``, ``text`` and ``error`` (names with an optional
``prefix``): a page that fails gets ``error`` set and nulls, never a lost
row.  It runs as ``DataFrame.mapInArrow``: each Arrow batch goes through
:func:`fastx.extract_many` in the executor's Python worker (in process by
default; ``jobs``/``timeout`` give each partition worker processes and a
per-page time limit).  The texts are exactly those of :func:`fastx.extract`
on the same bytes.

:func:`read_warcs` turns WARC files (Common Crawl style, ``.warc.gz``) into a
DataFrame of HTML responses, reading each file in an executor with
:func:`fastx.warc.read_warc`.

Needs ``pip install 'fastx-extract[spark]'`` (pyspark, pyarrow, pandas) and a Java
runtime; ``fastx-extract[warc]`` on the executors for :func:`read_warcs`.
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator, Sequence

from ..errors import InputError

__all__ = ["extract_column", "read_warcs", "OUTPUT_FIELDS", "METADATA_FIELDS", "WARC_SCHEMA"]

OUTPUT_FIELDS = ("title", "description", "text", "error")
# the page metadata's flat fields beyond title and description (fastx.metadata.FIELDS)
METADATA_FIELDS = ("author", "date", "date_modified", "sitename", "language", "canonical_url", "image",
                   "tags", "categories", "type")
WARC_SCHEMA = "warc STRING, record_id STRING, url STRING, charset STRING, html BINARY, read_error STRING"


def _need_spark():
    try:
        import pyarrow  # noqa: F401
        from pyspark.sql import types  # noqa: F401
    except ImportError:
        raise InputError("fastx.spark needs pyspark and pyarrow: pip install 'fastx-extract[spark]'") from None


def extract_column(df, html: str = "html", *, url: str | None = None, encoding: str | None = None,
                   method: str | None = None, fields: Sequence[str] = OUTPUT_FIELDS, prefix: str = "",
                   jobs: int = 0, timeout: float | None = None, **params):
    """`df` with the extraction of its HTML column `html` appended as new string columns.

    html: a string or binary column of pages (binary: any encoding, decoded
        by fastx; `encoding` names a column of charset hints, e.g. from HTTP).
    url: a column of page URLs (optional).
    method, **params: as for :func:`fastx.extract` (params must be picklable).
    fields: which of title, description, text, error, method, html (cleaned
        HTML of the kept nodes) and the page metadata (``fastx.metadata.FIELDS``:
        author, date, date_modified, sitename, language, canonical_url, image,
        tags, categories, type; ``OUTPUT_FIELDS + METADATA_FIELDS`` for all) to
        add; columns are named prefix + field.
    jobs, timeout: per partition, 0 = in the executor's Python worker (no
        time limit); >= 1 worker processes with a per-page time limit.

    Rows out = rows in, in the same order within each partition.
    """
    _need_spark()
    from pyspark.sql.types import StringType, StructField, StructType
    from .batch import _check, _default_method

    method = method or _default_method()
    _check(method, params)
    allowed = ("title", "description", "text", "error", "method", "html") + METADATA_FIELDS
    bad = [f for f in fields if f not in allowed]
    if bad or not fields:
        raise InputError(f"unknown output fields {bad}; choose from {', '.join(allowed)}")
    names = [prefix + f for f in fields]
    clash = [n for n in names if n in df.columns]
    if clash:
        raise InputError(f"columns {clash} already exist; pass prefix= (e.g. prefix='fastx_')")
    for col in (html, url, encoding):
        if col is not None and col not in df.columns:
            raise InputError(f"no column {col!r} in the DataFrame (columns: {', '.join(df.columns)})")
    schema = StructType(list(df.schema.fields) + [StructField(n, StringType(), True) for n in names])
    fn = _ArrowExtractor(html, url, encoding, method, tuple(fields), names, jobs, timeout, params)
    return df.mapInArrow(fn, schema)


class _ArrowExtractor:
    """The function mapInArrow runs on each partition (a picklable object, not a closure)."""

    def __init__(self, html, url, encoding, method, fields, names, jobs, timeout, params):
        self.html, self.url, self.encoding = html, url, encoding
        self.method, self.fields, self.names = method, fields, names
        self.jobs, self.timeout, self.params = jobs, timeout, params

    def __call__(self, batches: Iterable) -> Iterator:
        import pyarrow as pa
        from .batch import Page, extract_many

        pending: deque = deque()          # input batches whose records are not all out yet

        def pages():
            for b in batches:
                pending.append(b)
                col = b.column(b.schema.get_field_index(self.html)).to_pylist()
                urls = b.column(b.schema.get_field_index(self.url)).to_pylist() if self.url else None
                encs = b.column(b.schema.get_field_index(self.encoding)).to_pylist() if self.encoding else None
                for i, h in enumerate(col):
                    yield Page(html=h, url=urls[i] if urls else None, encoding=encs[i] if encs else None)

        def assemble(b, recs):
            cols = list(b.columns)
            fields = list(b.schema)
            for f, name in zip(self.fields, self.names):
                cols.append(pa.array([r.get(f) for r in recs], type=pa.string()))
                fields.append(pa.field(name, pa.string()))
            return pa.RecordBatch.from_arrays(cols, schema=pa.schema(fields))

        records = extract_many(pages(), jobs=self.jobs, method=self.method, timeout=self.timeout,
                               html="html" in self.fields, **self.params)
        buf: list = []
        for rec in records:
            buf.append(rec)
            while pending and len(buf) >= pending[0].num_rows:
                b = pending.popleft()
                yield assemble(b, buf[:b.num_rows])
                del buf[:b.num_rows]
        while pending:                      # empty batches at the end
            b = pending.popleft()
            yield assemble(b, buf[:b.num_rows])
            del buf[:b.num_rows]


def _open(path: str):
    """A local path as is; a URL (s3://, hdfs://, https://...) through fsspec if installed."""
    if "://" in path and not path.startswith("file://"):
        try:
            import fsspec
        except ImportError:
            raise InputError(f"reading {path} needs fsspec (and its driver, e.g. s3fs)") from None
        return fsspec.open(path, "rb").open()
    return path[len("file://"):] if path.startswith("file://") else path


def _warc_rows(paths: Iterable[str], html_only: bool) -> Iterator[tuple]:
    from .warc import read_warc
    for path in paths:
        try:
            source = _open(path)
            for page in read_warc(source, html_only=html_only, name=path):
                html = page.html.encode("utf-8") if isinstance(page.html, str) else page.html
                yield (path, page.input, page.url, page.encoding, html, page.error)
        except InputError as exc:
            yield (path, None, None, None, None, f"InputError: {exc}")


def read_warcs(spark, paths: Sequence[str], *, html_only: bool = True, partitions: int | None = None):
    """A DataFrame of the HTML responses in WARC files, one row per record
    (columns: warc, record_id, url, charset, html (binary), read_error).

    Each file is read by one executor task (`partitions`, default one per
    file).  A file or record that cannot be read is a row with `read_error` set
    (and a null `html`, which extract_column reports in its `error`).
    """
    _need_spark()
    paths = list(paths)
    if not paths:
        raise InputError("read_warcs: no WARC paths given")
    n = partitions or len(paths)
    rdd = spark.sparkContext.parallelize(paths, n).mapPartitions(lambda it: _warc_rows(it, html_only))
    return spark.createDataFrame(rdd, WARC_SCHEMA)

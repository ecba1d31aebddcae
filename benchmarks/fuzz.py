"""Long fuzz run of fastx's public API (issue #7): no crash, no hang, flat memory.

    python benchmarks/fuzz.py atheris --runs 1000000 --jobs 2   # coverage-guided (pip install atheris)
    python benchmarks/fuzz.py hypothesis --examples 200000      # property-based, same target
    python benchmarks/fuzz.py memory --n 100000                 # RSS across 100,000 extractions
    python benchmarks/fuzz.py patterns --seconds 600            # hunt quadratic shapes past the guard
    python benchmarks/fuzz.py shapes --sizes 20,50              # hostile shapes: time, RSS vs selectolax

The target (`one_input`) feeds fastx.extract / fastx.parse with what a fuzzer
hands it (and reads every output of the result: cleaned HTML, Markdown,
metadata, to_dict), steered by the first two bytes: raw bytes, str with lone
surrogates, text re-encoded in one of 25 codecs, junk encoding hints, the
input wrapped in up to 960 (1 in 16: up to 102,400) levels of one of 24 nesting shapes, or every
registered method on one parse.  The only acceptable outcomes are a result
or a fastx.FastxError; any other exception, a crash (signal) or a hang (over
--timeout seconds on one input) stops the run with the input saved by
libFuzzer (crash-*/timeout-* files) or printed by hypothesis.

atheris seeds: windows of the dev corpora pages (../shared/datasets) and the
hostile shapes; a dictionary of HTML tokens steers the mutations.  Python
modules of fastx are instrumented for coverage (the Cython core is not).

Like benchmarks/pipeline_eval.py, the run imports a private copy of fastx/
(taken at start: FASTX_FUZZ_PKG), so a rebuild of the work tree cannot swap
the extension under it.

patterns: random short token patterns repeated 30,000 times (the shape of
every quadratic corner of the HTML tree builder), run through the guard,
then timed in lexbor; any over --slow seconds is printed (add it to
MODEL_REGRESSIONS in tests/test_fuzz.py once the guard models it).

shapes: every shape of benchmarks/shapes.py (attribute values with unclosed
formatting, ignored tags, deep nesting, runs of one tag, huge attribute counts,
fostered table text, long text, comments after </body>, noscript/iframe) at each
size through parse, every method, records, every output of an Extraction (`outputs`: text,
cleaned HTML, Markdown, metadata, to_dict) and show's report, one fresh process each (time of
the call after a warm-up call of the same method on a short page, so a model's
one-time load is not charged to the input; the process's peak RSS), each beside selectolax's parse of an
ordinary page of the same size (dev pages' bodies concatenated) measured just
before it: ratios over --max-ratio (3) fail the run.

memory: 100,000 extractions of dev pages (random windows, byte mutations,
the default method) in one process; RSS from /proc/self/statm after each
10,000, growth measured from the first sample (after warm-up) to the last.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import load_compare  # benchmarks/: the one compare.py loader

ROOT = Path(__file__).resolve().parents[1]

CODECS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be", "cp1252",
          "latin-1", "gb18030", "gbk", "big5", "shift_jis", "euc-jp", "euc-kr", "koi8-r", "cp1251",
          "iso-2022-jp", "utf-7", "cp437", "mac-roman", "iso-8859-7", "tis-620", "cp500", "hz"]
LABELS = ["utf-8", "UTF-16", "gbk", "x-sjis", "latin1", "iso-8859-1", "text/html; charset=big5",
          "charset=euc-kr", "", "bogus", "utf-7", "ebcdic", "\x00", "windows-1251; q=1", "ISO-2022-JP",
          "text/html", "charset=\"koi8-r\"", "cp65001", "utf-32le", "unicode-1-1-utf-8"]
NESTS = ["<div>", "<ul><li>", "<table><tr><td>", "<svg><g>", "<math><mi>", "<template>", "<x-a>",
         "<b>", "<p><b id=1>x</p>", "<div/>", "<svg><div/>", "<b><div></b>", "<select><option>",
         "<dl><dt><dd>", "<div><svg><foreignObject><math><mi><template>", "<a>",
         # issue 15's shapes: attribute values between runs of text, ignored tags, noscript, after-body
         "<b a=b>xxxxxxxxxxxx", "<tr a=b>xxxxxxxx", "<noscript><p>x</noscript>", "<noscript><iframe src=x />",
         "x</body><!--c-->", "<table><td>y</td>xxxxxxxx", "<p>x", "<div class=x id=y style=z>Some text. "]
TOKENS = ["<div>", "</div>", "<p>", "</p>", "<b>", "</b>", "<i>", "<a href=x>", "</a>", "<table>", "<tr>",
          "<td>", "</table>", "<ul>", "<li>", "<svg>", "</svg>", "<math>", "<mi>", "<foreignObject>",
          "<template>", "</template>", "<select>", "<option>", "<script>", "</script>", "<style>",
          "<title>", "<textarea>", "<plaintext>", "<frameset>", "<!--", "-->", "<![CDATA[", "]]>",
          "<!DOCTYPE html>", "<?xml version='1.0'?>", "/>", "</", "&amp;", "&#0;", "&#x110000;",
          "<meta charset=gbk>", "<meta http-equiv=Content-Type content='text/html; charset=utf-16'>",
          "<body>", "<html>", "<head>", "<br/>", "<img src=x>", "<input type=hidden>", "<div hidden>",
          "<h1>", "<pre>", "<button>", "<nobr>", "<marquee>", "<object>", "<caption>", "style='display:none'",
          "aria-hidden=true", "\xef\xbb\xbf", "\xff\xfe", "\x00", "\x1b$B",
          "<noscript>", "</noscript>", "<iframe src=x />", "<tr a=b>", "<b a=b>", "</body>", "</html>"]
PAGE = ("<!DOCTYPE html><html><head><meta charset=utf-8><title>Fuzz page</title></head><body>"
        "<nav><ul><li><a href=/>Home</a><li><a href=/n>News</a></ul></nav><article><h1>Title</h1>"
        "<p>First paragraph, with <b>bold</b> and <i>italic</i> text.</p><table><tr><td>cell<td>cell 2"
        "</table><p>Second paragraph. Café, 中文，日本語。<br>Line two.</p></article></body></html>")

fastx = None
METHODS: list[str] = []


def _snapshot() -> str:
    """A private copy of fastx/ (with the built extension) for this run and its children."""
    pkg = os.environ.get("FASTX_FUZZ_PKG")
    if not pkg:
        pkg = tempfile.mkdtemp(prefix="fastx-fuzz-pkg-")
        shutil.copytree(ROOT / "fastx", Path(pkg) / "fastx", ignore=shutil.ignore_patterns("*.c", "__pycache__"))
        os.environ["FASTX_FUZZ_PKG"] = pkg
    return pkg


def _load_fastx():
    global fastx, METHODS
    sys.path.insert(0, _snapshot())
    import fastx as fx
    fastx = fx
    METHODS = sorted(fx.methods())


def one_input(data: bytes) -> None:
    """The fuzz target: a result or a FastxError, nothing else."""
    if len(data) < 2:
        try:
            fastx.extract(data)
        except fastx.FastxError:
            pass
        return
    mode, arg, body = data[0] % 8, data[1], data[2:]
    method = METHODS[arg % len(METHODS)] if mode == 2 else os.environ.get("FASTX_FUZZ_METHOD") or None
    kw = {}
    try:
        if mode == 3:
            html = body.decode("utf-8", "surrogateescape")          # str with lone surrogates
        elif mode == 4:
            html = body.decode("utf-8", "replace").encode(CODECS[arg % len(CODECS)], "replace")
        elif mode == 5:
            html, kw = body, {"encoding": LABELS[arg % len(LABELS)]}
        elif mode == 6:       # nesting: up to 960 levels, 1 in 16 of these up to 102,400
            depth = (arg - 239) * 6400 if arg >= 240 else arg * 4
            html = NESTS[len(body) % len(NESTS)].encode() * depth + body
        else:
            html = body
        if mode == 7:
            doc = fastx.parse(body)
            for m in METHODS:
                try:
                    fastx.extract(doc, method=m)
                except fastx.FastxError:
                    pass
            return
        r = fastx.extract(html, **({"method": method} if method else {}), **kw)
        assert isinstance(r.text, str) and isinstance(r.title, str)
        # every output of the result: cleaned HTML, Markdown, the metadata and the flat record
        assert isinstance(r.html, str) and isinstance(r.markdown, str)
        assert isinstance(r.metadata.as_flat(), dict) and isinstance(r.to_dict(html=True, markdown=True), dict)
    except fastx.FastxError:
        pass


# ---------------------------------------------------------------- seeds

def dev_pages(limit: int = 400) -> list[bytes]:
    """Real pages of several dev corpora (bytes as stored), or the built-in page."""
    compare = load_compare()
    pages: list[bytes] = []
    if compare is not None:
        per = max(1, limit // 5)
        for corpus in ("dragnet", "cleaneval-dev", "l3s", "readability", "cpe"):
            try:
                for k, (_, data, _) in enumerate(compare.CORPORA[corpus]()):
                    if k >= per:
                        break
                    pages.append(data)
            except Exception as exc:  # a missing pack: fewer seeds
                print(f"(seeds: {corpus} unavailable: {exc})", file=sys.stderr)
    return pages or [PAGE.encode()]


def write_seeds(corpus: Path, max_len: int) -> None:
    rng = random.Random(7)
    corpus.mkdir(parents=True, exist_ok=True)
    k = 0
    for data in dev_pages():
        start = rng.randrange(0, max(1, len(data) - max_len))
        for mode in (0, 2, 4):
            (corpus / f"page{k:05d}").write_bytes(bytes([mode, rng.randrange(256)]) + data[start:start + max_len])
            k += 1
    for i, shape in enumerate(NESTS):
        (corpus / f"nest{i:03d}").write_bytes(bytes([6, 255]) + shape.encode() + PAGE.encode())
    for i, tok in enumerate(TOKENS):
        (corpus / f"tok{i:03d}").write_bytes(bytes([i % 8, i]) + tok.encode("utf-8", "surrogatepass") * 50)


def write_dict(path: Path) -> None:
    def q(s: str) -> str:
        return '"' + "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else f"\\x{ord(c):02x}"
                             for c in s.encode("utf-8", "surrogatepass").decode("latin-1")) + '"'
    path.write_text("\n".join(q(t) for t in TOKENS) + "\n")


# ---------------------------------------------------------------- engines

def run_atheris(a) -> int:
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("atheris is not installed: pip install atheris (or use the hypothesis engine)", file=sys.stderr)
        return 2
    work = Path(a.workdir or tempfile.mkdtemp(prefix="fastx-fuzz-"))
    corpus = work / "corpus"
    if not corpus.exists():
        write_seeds(corpus, a.max_len)
    write_dict(work / "html.dict")
    _snapshot()
    if a.method:
        os.environ["FASTX_FUZZ_METHOD"] = a.method
    procs = []
    t = time.perf_counter()
    for k in range(a.jobs):
        cmd = [sys.executable, str(Path(__file__).resolve()), "_target", f"-runs={a.runs}",
               f"-max_len={a.max_len}", f"-timeout={a.timeout}", f"-rss_limit_mb={a.rss_limit_mb}",
               f"-dict={work / 'html.dict'}", "-print_final_stats=1", f"-seed={1000 + k}",
               f"-artifact_prefix={work}/", str(corpus)]
        log = open(work / f"fuzz-{k}.log", "w")
        print("running:", " ".join(cmd), f"> {log.name}", file=sys.stderr)
        procs.append((subprocess.Popen(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT), log))
    codes = [p.wait() for p, _ in procs]
    for _, log in procs:
        log.close()
    dt = time.perf_counter() - t
    total, rss, done = 0, [], []
    for k in range(a.jobs):
        text = (work / f"fuzz-{k}.log").read_text(errors="replace")
        done += [line for line in text.splitlines() if line.startswith("Done ")]
        for line in text.splitlines():
            if line.startswith("stat::number_of_executed_units:"):
                total += int(line.split(":")[-1])
            if line.startswith("stat::peak_rss_mb:"):
                rss.append(int(line.split(":")[-1]))
    artifacts = sorted(p.name for p in work.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-", "leak-")))
    print(f"\natheris: exit codes {codes}, {dt:,.0f} s wall; {total:,} inputs in {a.jobs} jobs "
          f"({total / dt:,.0f} inputs/s), peak RSS per job {rss} MB; artifacts: {artifacts or 'none'}; "
          f"work dir {work}")
    for line in done:
        print("  " + line)
    return max(codes)


def run_target() -> None:
    import atheris
    with atheris.instrument_imports(include=["fastx"]):
        _load_fastx()
    atheris.Setup(sys.argv[:1] + sys.argv[2:], one_input)
    atheris.Fuzz()


def run_hypothesis(a) -> int:
    from hypothesis import HealthCheck, given, settings, strategies as st
    if a.method:
        os.environ["FASTX_FUZZ_METHOD"] = a.method
    _load_fastx()
    pages = [p[:a.max_len] for p in dev_pages(100)]
    count = [0]

    def mutate(data, ops):
        b = bytearray(data)
        for op, i, x in ops:
            i = i % (len(b) + 1)
            if op == 0 and i < len(b):
                b[i] = x
            elif op == 1:
                b[i:i] = TOKENS[x % len(TOKENS)].encode("utf-8", "surrogatepass")
            elif op == 2:
                del b[i:i + x]
            elif op == 3:
                b[i:i] = b[i:i + x] * (x % 17 + 1)
            else:
                del b[i:]
        return bytes(b)

    inputs = st.one_of(
        st.binary(max_size=4096),
        st.builds(lambda head, p, ops: head + mutate(p, ops), st.binary(min_size=2, max_size=2),
                  st.sampled_from(pages),
                  st.lists(st.tuples(st.integers(0, 4), st.integers(0, 1 << 20), st.integers(0, 255)),
                           max_size=16)),
        st.builds(lambda head, parts: head + "".join(parts).encode("utf-8", "surrogatepass"),
                  st.binary(min_size=2, max_size=2), st.lists(st.sampled_from(TOKENS) | st.text(max_size=6),
                                                              max_size=300)))

    @settings(max_examples=a.examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(inputs)
    def prop(data):
        count[0] += 1
        one_input(data)

    t = time.perf_counter()
    prop()
    dt = time.perf_counter() - t
    print(f"hypothesis: {count[0]:,} inputs, no failure, {dt:,.0f} s ({count[0] / dt:,.0f} inputs/s)")
    return 0


PATTERN_TOKENS = TOKENS + [
    "x", " ", "<p><b id=%d>", "<div id=%d>", "</b>", "</i>", "<font color=%d>", "<dd>", "<dt>", "<ol>",
    "<h2>", "</h2>", "<form>", "</form>", "<li>", "</li>", "</p>", "</td>", "</tr>", "<tbody>", "<th>",
    "<colgroup>", "<col>", "<optgroup>", "<ruby>", "<rt>", "<rb>", "<frame>", "<image>", "<keygen>",
    "<listing>", "<menu>", "<menuitem>", "<search>", "<hgroup>", "<address>", "<summary>", "<details>",
    "<dialog>", "<fieldset>", "<legend>", "<x-custom>", "<mi>", "<font>", "<svg>", "<desc>", "</math>"]


def run_patterns(a) -> int:
    _load_fastx()
    from selectolax.lexbor import LexborHTMLParser
    tokens = [t for t in PATTERN_TOKENS if t != "<plaintext>"]
    rng = random.Random(a.seed)
    worst, slow, n = [], 0, 0
    end = time.perf_counter() + a.seconds
    while time.perf_counter() < end:
        pattern = [rng.choice(tokens) for _ in range(rng.randrange(1, 7))]
        html = "".join(t % r if "%d" in t else t for r in range(a.reps) for t in pattern)
        data = fastx._core.guard_html(html.encode("utf-8", "surrogatepass"))
        t = time.perf_counter()
        LexborHTMLParser(data)
        dt = time.perf_counter() - t
        n += 1
        worst = sorted(worst + [(dt, pattern)], reverse=True)[:5]
        if dt > a.slow:
            slow += 1
            print(f"SLOW {dt:.2f} s: {pattern}", flush=True)
    print(f"patterns: {n:,} shapes x {a.reps:,} repetitions, {slow} over {a.slow} s; slowest: "
          + "; ".join(f"{d:.2f} s {p}" for d, p in worst))
    return 1 if slow else 0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def _malloc_trim() -> None:
    """Hand the C heap's free pages back to the OS (glibc), so RSS shows live memory only."""
    import ctypes
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:
        pass


def run_memory(a) -> int:
    _load_fastx()
    rng = random.Random(11)
    pages = dev_pages(400)
    samples = []
    t = time.perf_counter()
    for i in range(1, a.n + 1):
        data = pages[rng.randrange(len(pages))]
        if rng.random() < 0.5:
            start = rng.randrange(len(data))
            data = data[start:start + rng.randrange(1000, 60000)]
        if rng.random() < 0.5:
            b = bytearray(data)
            for _ in range(rng.randrange(1, 8)):
                if b:
                    b[rng.randrange(len(b))] = rng.randrange(256)
            data = bytes(b)
        try:
            fastx.extract(data, **({"method": a.method} if a.method else {}))
        except fastx.FastxError:
            pass
        if i % a.every == 0:
            raw = rss_mb()
            if a.trim:
                _malloc_trim()
            samples.append((i, rss_mb()))
            print(f"{i:>8,} extractions: RSS {raw:,.1f} MB" + (f", {samples[-1][1]:,.1f} MB after malloc_trim"
                                                                if a.trim else ""), flush=True)
    dt = time.perf_counter() - t
    first, last = samples[0][1], samples[-1][1]
    peak = max(r for _, r in samples)
    growth = (last - first) / first * 100
    print(f"memory: {a.n:,} extractions in {dt:,.0f} s ({a.n / dt:,.0f}/s); RSS {first:,.1f} MB after "
          f"{samples[0][0]:,} -> {last:,.1f} MB after {samples[-1][0]:,} ({growth:+.2f}%), peak {peak:,.1f} MB")
    return 0 if growth < 5 else 1


# ---------------------------------------------------------------- shapes: time and memory per MB

SHAPE_OPS = ("parse", "default", "cetd", "vsse", "bayes", "layout", "records", "outputs", "show")

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import fastx
from selectolax.lexbor import LexborHTMLParser
path, op = sys.argv[2], sys.argv[3]
data = open(path, "rb").read()
# warm up what the call uses, so the time is the input's own: a pipeline loads a model once
warm = b"<html><body><p>warm up, one short paragraph of text.</p></body></html>"
fastx.extract(warm, method="cetd")
if op == "records":
    fastx.records(warm)
elif op in ("outputs", "show"):
    fastx.extract(warm)
elif op not in ("selectolax", "parse"):
    fastx.extract(warm, method=op)
LexborHTMLParser(b"<p>warm up</p>")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
error = None
t = time.perf_counter()
try:
    if op == "selectolax":
        LexborHTMLParser(data)
    elif op == "parse":
        fastx.parse(data)
    elif op == "records":
        fastx.records(data)
    elif op == "outputs":         # default, then every output an Extraction gives
        r = fastx.extract(data)
        r.html, r.markdown, r.metadata.as_flat(), r.to_dict()
    elif op == "show":            # the inspector's report (default's explanation per block)
        from fastx.tools.show import report
        report(data)
    else:
        fastx.extract(data, method=op)
except fastx.FastxError as exc:
    error = f"{type(exc).__name__}: {exc}"[:200]
dt = time.perf_counter() - t
print(json.dumps({"seconds": dt, "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "before_kb": before, "error": error}))
"""


def ordinary_page(size: int) -> bytes:
    """Real dev pages (wcxb-dev, then the others) as one ordinary page of `size` bytes: each page's
    body as lexbor serializes it (every element closed), one <div> per page."""
    from selectolax.lexbor import LexborHTMLParser
    out = bytearray(b"<!DOCTYPE html><html><head><title>pages</title></head><body>")
    compare = load_compare()
    sources = []
    if compare is not None:
        sources = [compare.CORPORA[c] for c in ("wcxb-dev", "dragnet", "l3s") if c in compare.CORPORA]
    for src in sources:
        for _, html, _ in src():
            body = LexborHTMLParser(html).body
            if body is not None:
                out += b"<div class=page>" + body.html.encode("utf-8", "surrogatepass")[6:-7] + b"</div>\n"
            if len(out) >= size:
                return bytes(out[:size])
    while len(out) < size:
        out += PAGE.encode()
    return bytes(out[:size])


def _measure(path: str, op: str, timeout: float) -> dict:
    cmd = [sys.executable, "-c", _CHILD, _snapshot(), path, op]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"seconds": timeout, "peak_kb": 0, "before_kb": 0, "error": "TIMEOUT"}
    if p.returncode != 0:
        return {"seconds": 0.0, "peak_kb": 0, "before_kb": 0,
                "error": f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1:] or ''}"}
    import json
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_shapes(a) -> int:
    """Every hostile shape (benchmarks/shapes.py) at every size through every op, each in a fresh
    process (time of the call, peak RSS of the process), beside selectolax's parse of an ordinary
    page of the same size measured just before it; prints ratios, exits 1 if any is over --max-ratio."""
    import json
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from shapes import SHAPES, shape
    names = a.only.split(",") if a.only else list(SHAPES)
    ops = a.ops.split(",")
    sizes = [float(x) for x in a.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="fastx-shapes-"))
    rows, bad = [], 0
    try:
        for mb in sizes:
            size = int(mb * 1e6)
            base_path = work / f"ordinary-{mb}.html"
            base_path.write_bytes(ordinary_page(size))
            for name in names:
                path = work / "shape.html"
                path.write_bytes(shape(name, size))
                base = _measure(str(base_path), "selectolax", a.timeout)
                for op in ops:
                    m = _measure(str(path), op, a.timeout)
                    rt = m["seconds"] / max(base["seconds"], 1e-9)
                    rm = m["peak_kb"] / max(base["peak_kb"], 1)
                    row = {"shape": name, "mb": mb, "op": op, "seconds": m["seconds"],
                           "peak_mb": m["peak_kb"] / 1024, "base_seconds": base["seconds"],
                           "base_peak_mb": base["peak_kb"] / 1024, "time_ratio": rt, "mem_ratio": rm,
                           "error": m["error"]}
                    rows.append(row)
                    over = (rt > a.max_ratio or rm > a.max_ratio or m["error"] in ("TIMEOUT",)
                            or (m["error"] or "").startswith("exit"))
                    bad += over
                    print(f"{mb:5g} MB {name:22s} {op:8s} {m['seconds']:7.2f} s {m['peak_kb'] / 1024:7.0f} MB"
                          f"  (selectolax, ordinary page: {base['seconds']:5.2f} s {base['peak_kb'] / 1024:5.0f} MB)"
                          f"  x{rt:4.1f} time x{rm:4.1f} memory" + ("  OVER" if over else "")
                          + (f"  [{m['error']}]" if m["error"] else ""), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    print(f"\nshapes: {len(rows)} runs, {bad} over x{a.max_ratio} of selectolax's parse of an ordinary page")
    for mb in sizes:
        print(f"\n{mb:g} MB: worst time ratio / worst memory ratio per op (over the shapes)")
        print("  " + " ".join(f"{op:>14s}" for op in ops))
        cells = []
        for op in ops:
            rs = [r for r in rows if r["mb"] == mb and r["op"] == op]
            wt = max(rs, key=lambda r: r["time_ratio"])
            wm = max(rs, key=lambda r: r["mem_ratio"])
            cells.append(f"{wt['time_ratio']:5.2f}/{wm['mem_ratio']:5.2f}")
        print("  " + " ".join(f"{c:>14s}" for c in cells))
    return 1 if bad else 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_target":
        run_target()
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="engine", required=True)
    at = sub.add_parser("atheris", help="coverage-guided fuzzing with libFuzzer mutations")
    at.add_argument("--runs", type=int, default=1_000_000, help="inputs per job")
    at.add_argument("--jobs", type=int, default=1)
    at.add_argument("--max-len", type=int, default=16384)
    at.add_argument("--timeout", type=int, default=30, help="seconds on one input before it is a hang")
    at.add_argument("--rss-limit-mb", type=int, default=4096)
    at.add_argument("--workdir", help="keep the corpus and artifacts here")
    at.add_argument("--method", help="method for most inputs (default: fastx.extract's default)")
    hy = sub.add_parser("hypothesis", help="property-based run of the same target")
    hy.add_argument("--examples", type=int, default=100_000)
    hy.add_argument("--max-len", type=int, default=65536)
    hy.add_argument("--method", help="method for most inputs (default: fastx.extract's default)")
    pa = sub.add_parser("patterns", help="repeated token patterns: quadratic shapes past the guard")
    pa.add_argument("--seconds", type=float, default=300)
    pa.add_argument("--reps", type=int, default=30_000)
    pa.add_argument("--slow", type=float, default=1.0, help="seconds of lexbor that count as a finding")
    pa.add_argument("--seed", type=int, default=1)
    me = sub.add_parser("memory", help="RSS across many extractions")
    me.add_argument("--n", type=int, default=100_000)
    me.add_argument("--every", type=int, default=10_000)
    me.add_argument("--method", default=None, help="default: fastx.extract's default method")
    me.add_argument("--trim", action="store_true",
                    help="sample RSS after glibc's malloc_trim (live memory, not the allocator's free pages)")
    sh = sub.add_parser("shapes", help="hostile shapes at 1-50 MB: time and peak RSS against selectolax")
    sh.add_argument("--sizes", default="1,5,20,50", help="MB, comma-separated")
    sh.add_argument("--ops", default=",".join(SHAPE_OPS), help="parse, a method name, records, outputs (every output of an Extraction) or show")
    sh.add_argument("--only", default="", help="comma-separated shape names (default: all)")
    sh.add_argument("--max-ratio", type=float, default=3.0)
    sh.add_argument("--timeout", type=float, default=120.0, help="seconds for one process")
    sh.add_argument("--json", help="write every row here")
    a = ap.parse_args()
    return {"atheris": run_atheris, "hypothesis": run_hypothesis, "memory": run_memory,
            "patterns": run_patterns, "shapes": run_shapes}[a.engine](a)


if __name__ == "__main__":
    sys.exit(main())

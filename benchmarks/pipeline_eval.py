"""Pipeline measurement (issue #7): batch CLI throughput, nothing lost, WARC read + extract.

    python benchmarks/pipeline_eval.py                 # 20,000 pages, --jobs 1 and 2, WARC of 2,000
    python benchmarks/pipeline_eval.py --pages 2000 --json results.json

1. The dragnet dev corpus (../shared/datasets, via ../shared/tools/compare.py)
   replicated to --pages file paths, fed to `python -m fastx extract
   --files-from LIST` with --jobs 1 and --jobs 2: pages/s and MB/s, against
   selectolax's parse alone (LexborHTMLParser over the same files, one
   process) in the same run.
2. The same list with broken pages mixed in -- a hang (a 100 MB page of
   blocks nested 511 deep: the slowest shape the guard lets through, far over
   --timeout), invalid bytes, NUL bytes, a UTF-16 page, a 50 MB page, an empty
   file, a missing file -- checked for: output records = input records, in
   input order, error records exactly where expected.
3. A WARC (gzip per record, WARC/1.0, written by fastx.warc.write_warc) of
   --warc-records responses built from the dev pages: read-only MB/s and
   read + extract MB/s (in process, and through the CLI with --jobs 2).

Timings are wall clock; the machine's load is printed with them.  The
measurement runs on a private copy of the package (fastx/ with its compiled
core, copied at start), so a rebuild of the work tree meanwhile cannot
swap the extension under running processes.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PKG = ROOT          # where `fastx` is imported from (a snapshot of ROOT, set in main)


def snapshot(tmp: Path) -> Path:
    """Copy fastx/ (sources and the built extension) to tmp; import it from there."""
    dest = tmp / "snapshot"
    shutil.copytree(ROOT / "fastx", dest / "fastx", ignore=shutil.ignore_patterns("*.c", "__pycache__"))
    sys.path.insert(0, str(dest))
    return dest


def dragnet_files() -> list[Path]:
    spec = importlib.util.spec_from_file_location("fastx_shared_compare", SHARED / "tools" / "compare.py")
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    root = compare.unpack("dragnet_data") / "dragnet_data" / "input"
    return sorted(root.glob("*"))


def broken_pages(tmp: Path, files: list[Path]) -> dict[str, Path]:
    """The deliberately broken inputs, written once into tmp."""
    out = {}
    unit = "<dl>" * 511 + "x" + "</dl>" * 511
    p = tmp / "hang.html"
    with open(p, "w") as f:
        for _ in range(100_000_000 // len(unit)):
            f.write(unit)
    out["hang"] = p
    p = tmp / "invalid_bytes.html"
    p.write_bytes(os.urandom(200_000) + b"<p>" + bytes(range(256)) * 100)
    out["invalid_bytes"] = p
    p = tmp / "nul.html"
    p.write_bytes(b"<html><body><p>\x00nul\x00 bytes\x00</p>" * 5000)
    out["nul"] = p
    p = tmp / "utf16.html"
    p.write_bytes(files[0].read_bytes().decode("utf-8", "replace").encode("utf-16"))
    out["utf16"] = p
    p = tmp / "huge.html"
    body = b"".join(f.read_bytes() for f in files[:40])
    with open(p, "wb") as f:
        f.write(b"<html><body>")
        while f.tell() < 50_000_000:
            f.write(body)
    out["huge"] = p
    p = tmp / "empty.html"
    p.write_bytes(b"")
    out["empty"] = p
    out["missing"] = tmp / "does-not-exist.html"
    return out


def selectolax_parse_only(paths: list[Path]) -> tuple[float, int]:
    from selectolax.lexbor import LexborHTMLParser
    n = 0
    t = time.perf_counter()
    for p in paths:
        data = p.read_bytes()
        n += len(data)
        LexborHTMLParser(data)
    return time.perf_counter() - t, n


def run_cli(listing: Path, out: Path, jobs: int, timeout: float) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "fastx", "extract", "--files-from", str(listing), "-o", str(out),
           "--jobs", str(jobs), "--timeout", str(timeout), "--no-progress"]
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=PKG, capture_output=True, text=True, env=_env())
    dt = time.perf_counter() - t
    if r.returncode not in (0, 1):
        raise SystemExit(f"fastx extract failed ({r.returncode}):\n{r.stderr}")
    return dt, r.stderr.strip().splitlines()[-1]


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(PKG)}


def check_records(out: Path, inputs: list[str], expect_error: set[int]) -> dict:
    recs = [json.loads(line) for line in out.open(encoding="utf-8")]
    got_inputs = [r["input"] for r in recs]
    errors = {i for i, r in enumerate(recs) if r["error"] is not None}
    return {"records": len(recs), "inputs": len(inputs), "in_order": got_inputs == inputs,
            "errors": len(errors), "errors_where_expected": errors == expect_error,
            "unexpected_errors": sorted(errors - expect_error)[:10],
            "error_texts": {i: recs[i]["error"][:100] for i in sorted(errors)[:12]}}


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=20_000)
    ap.add_argument("--warc-records", type=int, default=2_000)
    ap.add_argument("--timeout", type=float, default=8.0)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    global PKG
    snap_dir = tempfile.TemporaryDirectory(prefix="fastx-snapshot-")
    PKG = snapshot(Path(snap_dir.name))
    import fastx
    from fastx.batch import BatchStats, extract_many
    from fastx.warc import read_warc, write_warc
    print(f"fastx imported from {Path(fastx.__file__).parent}")

    files = dragnet_files()
    clean = [files[i % len(files)] for i in range(a.pages)]
    clean_mb = sum(p.stat().st_size for p in clean) / 1e6
    results: dict = {"pages": a.pages, "corpus_files": len(files), "clean_mb": round(clean_mb, 1),
                     "cpus": os.cpu_count(), "python": sys.version.split()[0]}
    print(f"dragnet: {len(files)} files replicated to {a.pages:,} pages, {clean_mb:,.1f} MB; "
          f"{os.cpu_count()} CPUs; load {load()}")
    with tempfile.TemporaryDirectory(prefix="fastx-pipeline-") as tmpd:
        tmp = Path(tmpd)
        broken = broken_pages(tmp, files)
        listing = tmp / "clean.txt"
        listing.write_text("\n".join(map(str, clean)) + "\n")
        # mixed: the broken pages spread through the clean list
        mixed = [str(p) for p in clean]
        where = {}
        for k, (name, p) in enumerate(broken.items()):
            pos = (k + 1) * len(mixed) // (len(broken) + 1)
            mixed.insert(pos, str(p))
        for i, s in enumerate(mixed):
            for name, p in broken.items():
                if s == str(p):
                    where[name] = i
        mixed_listing = tmp / "mixed.txt"
        mixed_listing.write_text("\n".join(mixed) + "\n")

        # 1. selectolax parse only, one process, same files
        dt, nbytes = selectolax_parse_only(clean)
        results["selectolax_parse_only"] = {"seconds": round(dt, 2), "pages_per_s": round(a.pages / dt, 1),
                                            "mb_per_s": round(nbytes / 1e6 / dt, 1)}
        print(f"selectolax parse only, 1 process: {a.pages / dt:,.1f} pages/s, {nbytes / 1e6 / dt:,.1f} MB/s "
              f"({dt:.1f} s; load {load()})")

        # 1b. CPU time per MB, one process, the unique pages in memory (robust to other load)
        datas = [p.read_bytes() for p in files]
        mb = sum(map(len, datas)) / 1e6
        from selectolax.lexbor import LexborHTMLParser
        c = time.process_time()
        for d in datas:
            LexborHTMLParser(d)
        cpu_sel = time.process_time() - c
        c = time.process_time()
        for d in datas:
            fastx.extract(d)
        cpu_fx = time.process_time() - c
        results["cpu_mb_per_s"] = {"selectolax_parse_only": round(mb / cpu_sel, 1), "fastx_extract": round(mb / cpu_fx, 1)}
        print(f"CPU time, one process, {len(datas)} unique pages ({mb:.1f} MB): selectolax parse only "
              f"{mb / cpu_sel:,.1f} MB per CPU-second, fastx.extract {mb / cpu_fx:,.1f} MB per CPU-second")
        # 1c. threads (the GIL is released by the parser, the guard, the Doc build and the kernels)
        results["threads"] = {}
        for n in (1, 2, 4):
            t = time.perf_counter()
            c = time.process_time()
            k = sum(1 for _ in extract_many(datas, jobs=n, threads=True))
            w = time.perf_counter() - t
            results["threads"][n] = {"pages_per_s": round(k / w, 1), "cpu_per_wall": round((time.process_time() - c) / w, 2)}
            print(f"extract_many(threads=True, jobs={n}): {k / w:,.1f} pages/s, {mb / w:,.1f} MB/s, "
                  f"process CPU / wall {(time.process_time() - c) / w:.2f} (load {load()})")

        # 2. fastx CLI, clean and mixed, per --jobs
        expect_error = {where["missing"]} | {where["hang"]}
        for jobs in map(int, a.jobs.split(",")):
            out = tmp / f"clean-{jobs}.jsonl"
            dt, summary = run_cli(listing, out, jobs, a.timeout)
            chk = check_records(out, [str(p) for p in clean], set())
            results[f"fastx_jobs{jobs}"] = {"seconds": round(dt, 2), "pages_per_s": round(a.pages / dt, 1),
                                            "mb_per_s": round(clean_mb / dt, 1), "summary": summary, **chk}
            print(f"fastx extract --jobs {jobs}: {a.pages / dt:,.1f} pages/s, {clean_mb / dt:,.1f} MB/s "
                  f"({dt:.1f} s wall, process start included; load {load()})\n    {summary}\n"
                  f"    records {chk['records']:,} = inputs {chk['inputs']:,}: {chk['records'] == chk['inputs']}, "
                  f"in order: {chk['in_order']}, errors: {chk['errors']}")
            out = tmp / f"mixed-{jobs}.jsonl"
            dt, summary = run_cli(mixed_listing, out, jobs, a.timeout)
            chk = check_records(out, mixed, expect_error)
            results[f"fastx_jobs{jobs}_broken"] = {"seconds": round(dt, 2), "summary": summary,
                                                   "broken_at": where, **chk}
            print(f"  with {len(broken)} broken pages mixed in: {dt:.1f} s\n    {summary}\n"
                  f"    records {chk['records']:,} = inputs {chk['inputs']:,}: {chk['records'] == chk['inputs']}, "
                  f"in order: {chk['in_order']}, errors exactly at hang+missing: {chk['errors_where_expected']}")
            for i, e in chk["error_texts"].items():
                print(f"      #{i}: {e}")
            recs = [json.loads(line) for line in out.open(encoding="utf-8")]
            for name in ("invalid_bytes", "nul", "utf16", "huge", "empty"):
                r = recs[where[name]]
                print(f"      {name}: error={r['error']!r} text={len(r['text'] or ''):,} chars")
            ref = out
        # same texts as fastx.extract (a sample of the last run's records)
        recs = [json.loads(line) for line in ref.open(encoding="utf-8")]
        same = all(recs[i]["text"] == fastx.extract(Path(mixed[i]).read_bytes()).text
                   for i in range(0, len(mixed), max(1, len(mixed) // 200)) if i not in where.values())
        results["texts_equal_extract_sample"] = same
        print(f"texts equal to fastx.extract on a 200-page sample: {same}")

        # 3. WARC
        pages = []
        k = 0
        while len(pages) < a.warc_records:
            f = files[k % len(files)]
            pages.append(fastx.Page(html=f.read_bytes(), url=f"https://example.com/{k}/{f.name}"))
            k += 1
        warc = tmp / "dev.warc.gz"
        write_warc(warc, pages)
        html_mb = sum(len(p.html) for p in pages) / 1e6
        t = time.perf_counter()
        n = sum(len(p.html) for p in read_warc(warc))
        dt_read = time.perf_counter() - t
        st = BatchStats()
        t = time.perf_counter()
        nrec = sum(1 for _ in extract_many(read_warc(warc), jobs=0, stats=st))
        dt_inproc = time.perf_counter() - t
        out = tmp / "warc.jsonl"
        cmd = [sys.executable, "-m", "fastx", "extract", str(warc), "-o", str(out), "--jobs", "2",
               "--no-progress"]
        t = time.perf_counter()
        r = subprocess.run(cmd, cwd=PKG, capture_output=True, text=True, env=_env())
        dt_cli = time.perf_counter() - t
        cli_records = sum(1 for _ in out.open())
        results["warc"] = {"records": len(pages), "file_mb": round(warc.stat().st_size / 1e6, 1),
                           "html_mb": round(html_mb, 1), "read_mb_per_s": round(n / 1e6 / dt_read, 1),
                           "read_extract_mb_per_s_1proc": round(html_mb / dt_inproc, 1),
                           "read_extract_mb_per_s_cli_jobs2": round(html_mb / dt_cli, 1),
                           "records_out": nrec, "cli_records_out": cli_records,
                           "cli_summary": r.stderr.strip().splitlines()[-1] if r.stderr else ""}
        print(f"WARC: {len(pages):,} responses, {warc.stat().st_size / 1e6:.1f} MB gzip, {html_mb:.1f} MB HTML: "
              f"read {n / 1e6 / dt_read:,.1f} MB/s; read + extract {html_mb / dt_inproc:,.1f} MB/s in one "
              f"process ({nrec} records), {html_mb / dt_cli:,.1f} MB/s via CLI --jobs 2 ({cli_records} records; "
              f"load {load()})")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

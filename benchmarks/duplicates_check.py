"""Copies in package code, the Cython kernels included (issue 16's bar: no two places in package code
share six or more lines of the same shape).

The `duplicates` command reads files by their ending and does not read ``.pxi``/``.pxd`` files.
This copies every file of ``fastx/`` that git tracks (or would: untracked, not ignored), each
``.pxi`` and ``.pxd`` renamed ``<name>.pxi.pyx`` / ``<name>.pxd.pyx`` so that it is read as
Cython, into a scratch directory, and runs ``duplicates --repo`` on it; the rows name the
original files (drop the trailing ``.pyx``), line numbers unchanged.  Extra arguments go to
``duplicates`` (default ``--most 40``)::

    python benchmarks/duplicates_check.py
    python benchmarks/duplicates_check.py --most 40 --min-lines 5

Exits 0 whatever it finds (as ``duplicates`` does); a reviewer reads the rows, and the
``left out:`` line (runs standing in more than eight places) counts too.
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_files():
    """Paths (relative to the repository) of fastx/'s files as git sees them: tracked, or untracked
    and not ignored, present in the working tree."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "fastx"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if (ROOT / p).is_file()]


def main(argv):
    if shutil.which("duplicates") is None:
        sys.exit("needs the `duplicates` command on PATH")
    args = argv or ["--most", "40"]
    with tempfile.TemporaryDirectory(prefix="fastx-dup-") as tmp:
        for rel in package_files():
            dest = Path(tmp) / (rel + ".pyx" if rel.endswith((".pxi", ".pxd")) else rel)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, dest)
        res = subprocess.run(["duplicates", "--repo", tmp, *args], capture_output=True, text=True)
    sys.stdout.write(res.stdout.replace(tmp + "/", ""))
    sys.stderr.write(res.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])

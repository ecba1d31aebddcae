"""Markdown and whitespace-faithful text on WCXB-dev (issue 14, "Done when").

1. Code blocks: on the documentation pages, every <pre> element whose text
   the method keeps whole must appear in ``.text`` as the same lines, and as a
   fenced code block of ``.markdown`` whose content (as markdown-it-py parses
   it, so list and blockquote indentation is taken off) is the same lines.
   The reference text of a <pre> is read from lexbor's tree through
   selectolax, not from fastx's Doc: its text nodes as they are, a newline
   for <br> and around block elements inside it.
2. Text: per-page word F1 against the gold (compare.py's ``word_f1``, WCXB's
   page score) of ``.text`` and of the Markdown with its markup stripped
   (rendered by markdown-it-py, then its HTML's text), on all pages and on the
   domain-split validation subset (pages whose host, lower-cased, without a
   leading "www.", has md5 % 5 == 0).

    python benchmarks/markdown_eval.py                   # method default
    python benchmarks/markdown_eval.py --method cetd --limit 300
"""
import argparse
import hashlib
import statistics
import sys
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import load_compare  # noqa: E402

import fastx  # noqa: E402
from fastx import _core  # noqa: E402

BLOCKS = set(_core.BLOCK_TAGS) - {"br", "img"}
DROPPED = set(_core.DROP_TAGS)


def validation(url):
    """The lead's domain split of WCXB-dev: True for the validation fifth."""
    host = (urlsplit(url or "").hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    return int(hashlib.md5(host.encode()).hexdigest(), 16) % 5 == 0


def hidden(n):
    """An element fastx never reads (_doc.pxi): a dropped tag, hidden, aria-hidden, display:none."""
    if n.tag in DROPPED:
        return True
    a = n.attributes
    style = (a.get("style") or "").replace(" ", "").lower()
    return "hidden" in a or (a.get("aria-hidden") or "").strip().lower() == "true" \
        or "display:none" in style or "visibility:hidden" in style


def pre_reference(node):
    """A <pre>'s text from lexbor's tree: text nodes as they are, newline for <br> and at block
    elements (unless the text already ends a line), without leading blank lines and trailing
    whitespace; what fastx never reads (script, style, hidden elements) left out."""
    parts = []
    for n in node.traverse(include_text=True):
        if n.mem_id == node.mem_id:
            continue
        up, skip = n.parent if n.tag == "-text" else n, False
        while up is not None and up.mem_id != node.mem_id:
            if hidden(up):
                skip = True
                break
            up = up.parent
        if skip:
            continue
        if n.tag == "-text":
            parts.append(n.text_content or "")
        elif n.tag == "br" or n.tag in BLOCKS:
            if parts and not "".join(parts[-1:]).endswith("\n"):
                parts.append("\n")
    return "".join(parts).lstrip("\n").rstrip()


def fences(md, mdit):
    return [t.content.rstrip("\n") for t in mdit.parse(md) if t.type in ("fence", "code_block")]


def stripped(md, mdit):
    """The Markdown's text: rendered to HTML by markdown-it-py, then the HTML's text (a hard
    line break as a newline)."""
    from selectolax.lexbor import LexborHTMLParser
    body = LexborHTMLParser("<body>" + mdit.render(md).replace("<br />", "<br />\n") + "</body>").body
    return body.text(separator="") if body is not None else ""


def kept_pres(doc, keep):
    """Doc indices of <pre> elements (not inside another preformatted element) whose every text
    node is kept and that hold some text."""
    pre_tag = _core.TAG_IDS["pre"]
    pre_bit = _core.NODE_FLAGS["pre"]
    out = []
    for i in range(len(doc)):
        if doc.kind[i] != _core.KIND_ELEMENT or doc.tag[i] != pre_tag:
            continue
        p = doc.parent[i]
        if p >= 0 and doc.flags[p] & pre_bit:
            continue
        texts = [j for j in range(i, doc.end[i]) if doc.kind[j] == _core.KIND_TEXT]
        if texts and all(keep[j] for j in texts):
            out.append(i)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--method", default="default")
    ap.add_argument("--limit", type=int, default=None, help="first N pages only")
    ap.add_argument("--show", type=int, default=3, help="print this many failing code blocks")
    a = ap.parse_args()
    cmp = load_compare()
    if cmp is None:
        sys.exit("needs ../shared beside the repository")
    from markdown_it import MarkdownIt
    mdit = MarkdownIt("commonmark").enable("table")
    f_text = {"all": [], "validation": []}
    f_md = {"all": [], "validation": []}
    pres = in_text = in_md = doc_pages = 0
    shown = 0
    for pid, html, meta in list(cmp.CORPORA["wcxb-dev"]())[:a.limit]:
        try:
            r = fastx.extract(html, url=meta.get("url"), method=a.method)
        except fastx.FastxError as exc:
            print(f"{pid}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        md = r.markdown
        ft = cmp.word_f1(r.text, meta["text"])[2]
        fm = cmp.word_f1(stripped(md, mdit), meta["text"])[2]
        for split in ("all",) + (("validation",) if validation(meta.get("url")) else ()):
            f_text[split].append(ft)
            f_md[split].append(fm)
        if meta.get("type") != "documentation":
            continue
        doc_pages += 1
        blocks = kept_pres(r.doc, r.keep)
        if not blocks:
            continue
        nodes = {n.mem_id: n for n in r.doc.parser.root.traverse(include_text=False) if n.tag == "pre"}
        fenced = fences(md, mdit)
        text = "\n" + r.text + "\n"
        for i in blocks:
            ref = pre_reference(nodes[int(r.doc.ptr[i])])
            if not ref.strip():
                continue
            pres += 1
            ok_text = ("\n" + ref + "\n") in text
            ok_md = ref in fenced
            in_text += ok_text
            in_md += ok_md
            if (not ok_text or not ok_md) and shown < a.show:
                shown += 1
                print(f"--- {pid} <pre> #{i}: in .text {ok_text}, fenced in .markdown {ok_md}\n{ref[:400]!r}")
    print(f"method {a.method}; documentation pages {doc_pages}; <pre> blocks kept whole {pres}: "
          f"same lines in .text {in_text}, as a fenced block in .markdown {in_md}")
    for split in ("all", "validation"):
        if f_text[split]:
            t, m = statistics.mean(f_text[split]), statistics.mean(f_md[split])
            print(f"{split:>10} pages {len(f_text[split]):5d}: word_f1 .text {t:.4f}, Markdown stripped "
                  f"{m:.4f} (difference {m - t:+.4f})")


if __name__ == "__main__":
    main()

"""Hostile page shapes at a given size (issue 15), for benchmarks/fuzz.py `shapes` and tests/test_fuzz.py.

Each shape is a fragment repeated to the requested number of bytes (with a
per-repetition counter where the fragment has `{r}`), so the work any stage
does per input byte can be compared across sizes: a stage whose cost per MB
grows with the size is super-linear.  The shapes are the corners of the HTML
tree builder that the guard (fastx/_parse.pxi) bounds, plus the heavy-but-linear
ones:

- repeated fragments with attribute values and unclosed formatting elements
  (the quadratic text-node copies of issue 15: '<b a=b>x', '<p><b id=1>x</p>');
- start tags the tree builder ignores in body, with attributes ('<tr a=b>x');
- deep nesting ('<div>', '<table><tr><td>', '<svg><g>');
- long runs of one tag ('<p>x', '<br>');
- huge attribute counts (one tag; distinct names on every tag);
- text fostered out of tables (many runs, long runs);
- long text nodes (plain, and with character references);
- comments and text alternating after </body>;
- <noscript>/<iframe> shapes (unclosed content, raw text that never ends);
- what the parse passes over: scripts whose escapes never end, styles, SVG images (closed,
  unclosed, nested), long comments.
"""
from __future__ import annotations

HEAD = b"<!DOCTYPE html><html><head><title>shape</title></head><body>"

# name -> (prefix, fragment repeated, suffix); "{r}" in a fragment is the repetition number
SHAPES: dict[str, tuple[bytes, str, bytes]] = {
    "attr-format-text": (HEAD, "<b a=b>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", b""),
    "p-b-id": (HEAD, "<p><b id={r}>x</p><p>para</p>", b""),
    "div-attrs-text": (HEAD, "<div class=x id=y style=z>Some text, with punctuation. ", b""),
    "font-color": (HEAD, "<font color={r}>x</b><i>y", b""),
    "ignored-tr-attr": (HEAD, "<tr a=b>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", b""),
    "deep-div": (HEAD, "<div>", b"text"),
    "deep-table": (HEAD, "<table><tr><td>", b"text"),
    "deep-svg": (HEAD, "<svg><g>", b"text"),
    "run-p": (HEAD, "<p>x", b""),
    "run-br": (HEAD, "<br>", b"text"),
    "many-attrs-one-tag": (HEAD + b"<div ", "a{r}=1 ", b">text</div>"),
    "many-attr-names": (HEAD, "<i a{r}=1 b{r}=2 c{r}=3>x</i>", b""),
    "fostered-runs": (HEAD + b"<table>", "<td>y</td>x", b"</table>"),
    "fostered-long": (HEAD + b"<table>", "<td>y</td>" + "x" * 5000, b"</table>"),
    "long-text": (HEAD + b"<p>", "Long text, with words and punctuation. ", b"</p>"),
    "text-entities": (HEAD + b"<p>", "a &amp; b &lt; c &#x41; &copy; ", b"</p>"),
    "after-body-comments": (HEAD + b"y</body>", "x</body><!--c-->", b""),
    "noscript-unclosed-p": (HEAD, "<noscript><p>Enable JavaScript</noscript><p>Article text here. ", b""),
    "noscript-iframe": (HEAD, "<noscript><iframe src=x /></noscript><p>Article text here. ", b""),
    "iframe-unclosed": (HEAD, "<iframe src=x>text ", b""),
    # what the parse passes over (include/tree_guard.h, fx_tg_skip): each read ahead once
    "script-escapes-unended": (HEAD + b"<script>", "<!-- x <script> y </script> -- ", b""),
    "style-unended": (HEAD + b"<style>", "a{b:c} </styl ", b""),
    "svg-icons": (HEAD, "<svg viewBox='0 0 24 24'><title>i</title><path d='M0 0h24v24H0z'/></svg>x ", b""),
    "svg-unclosed-g": (HEAD + b"<svg>", "<g><path d='M0 0'/>", b""),
    "svg-nested-unended": (HEAD, "<svg><path d='M0 0'/>", b""),
    "long-comments": (HEAD, "<p>x<!-- a comment long enough to be passed over by the parse -->", b""),
}


def shape(name: str, size: int) -> bytes:
    """`name`'s fragment repeated to `size` bytes (prefix and suffix included)."""
    prefix, frag, suffix = SHAPES[name]
    out = bytearray(prefix)
    budget = size - len(suffix)
    if "{r}" not in frag:
        f = frag.encode()
        reps = max(1, (budget - len(out)) // len(f))
        out += f * reps
    else:
        r = 0
        while len(out) < budget:
            out += frag.replace("{r}", str(r)).encode()
            r += 1
    return bytes(out[:max(budget, len(prefix))]) + suffix

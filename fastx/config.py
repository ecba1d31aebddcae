"""Limits fastx applies to hostile input (issue 15), in one place.

The guard's older limits keep their names in `fastx._core` (GUARD_MAX_DEPTH,
GUARD_MAX_FORMATTING, GUARD_MAX_ATTRS, GUARD_MAX_FOSTERED, TG_MAX_HTML_BODY);
the ones below are read by `_core.parse_guarded` at import and by the batch
runner and the CLI.

Budgets of the guarded parse (`_parse.pxi`), both linear in the input's size n
(bytes), past which the rest of the page is read as text (tags dropped, text
kept):

- GUARD_COPIED_BASE + GUARD_COPIED_PER_BYTE * n bytes of text nodes that lexbor
  copied to grow them (it grows a text node by exactly what it appends, so runs
  of text that reach one node while something else is allocated between them
  cost O(runs^2) time and memory);
- GUARD_ELEMENTS_BASE + n // GUARD_BYTES_PER_ELEMENT start tags handed to the
  tree builder.  The densest page of the development corpora (5,721 pages over
  2 KB) has one element per 30 bytes, the median one per 83, and none has more
  than 15,799 elements: real pages never reach the budget, while '<p>x' * N
  (one element per 4 bytes) stops at a quarter of its tags.

Memory cap of batches (`fastx.extract_many`, `fastx batch --memory-limit`):
every worker process gets RLIMIT_AS = BATCH_MEMORY_LIMIT bytes unless the
caller passes another `memory_limit` (None or 0: no cap).  An input of n bytes
needs about 0.5 GB + 60 n at the most (fuzz figures in benchmarks/fuzz.py
`shapes`), so 4 GiB covers pages up to ~50 MB.
"""

GUARD_COPIED_BASE = 1 << 20
GUARD_COPIED_PER_BYTE = 2
GUARD_ELEMENTS_BASE = 16384
GUARD_BYTES_PER_ELEMENT = 32

BATCH_MEMORY_LIMIT = 4 << 30

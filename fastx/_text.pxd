# cython: language_level=3
"""Shared inline helpers of the compiled core, cimported once by _core.pyx and used by every
kernel: the FNV-1a hash (32 and 64 bits), the lowest set bit of a word, the binary search over
a sorted uint64 table, the ASCII case-insensitive match with a lower-case literal, the
whitespace tokenizer (fx_next_word) and the cache prefetch hint (fx_prefetch).
The C is in include/fx_text.h."""
from libc.stdint cimport uint32_t, uint64_t


cdef extern from "fx_text.h" nogil:
    const uint32_t FX_FNV32_OFFSET
    const uint64_t FX_FNV64_OFFSET
    uint32_t fx_fnv32_step(uint32_t h, uint32_t c)
    uint64_t fx_fnv64_step(uint64_t h, uint64_t c)
    int fx_lowest_bit(uint64_t x)
    Py_ssize_t fx_lower_bound_u64(const uint64_t *a, Py_ssize_t n, uint64_t key)
    bint fx_find_u64(const uint64_t *a, Py_ssize_t n, uint64_t key, Py_ssize_t *at)
    bint fx_ascii_ci_prefix(const unsigned char *s, size_t n, const char *lit, size_t m)
    Py_ssize_t fx_next_word(const unsigned char *s, Py_ssize_t n, Py_ssize_t *k)
    void fx_prefetch(const void *p)

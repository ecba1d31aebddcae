# Non-HTML input: the byte statistics fastx.decode.sniff_binary reads (docs/metadata.md,
# "Non-HTML input").  One pass over the head of the bytes, in C: a Python-level count
# (bytes.translate, re) costs 8-40 us per 4 KB.

cdef uint8_t _sniff_ctl[256]      # 1 for C0 controls other than TAB, LF, FF, CR, ESC; and DEL
cdef int _sniff_i
for _sniff_i in range(256):
    _sniff_ctl[_sniff_i] = 1 if (_sniff_i < 32 and _sniff_i not in (9, 10, 12, 13, 27)) or _sniff_i == 127 else 0


cdef extern from "sniff.h":
    void fx_sniff_count(const unsigned char *s, size_t n, const uint8_t *ctl, size_t *ctl_out,
                        size_t *nul_out) nogil


def control_bytes(bytes data, Py_ssize_t limit=4096):
    """(C0 control bytes other than TAB, LF, FF, CR and ESC, plus DEL; NUL bytes) among the first
    `limit` bytes of `data`."""
    cdef const unsigned char *s = data
    cdef Py_ssize_t n = len(data)
    cdef size_t ctl = 0, nul = 0
    if n > limit:
        n = limit
    if n > 0:
        with nogil:
            fx_sniff_count(s, <size_t>n, _sniff_ctl, &ctl, &nul)
    return ctl, nul

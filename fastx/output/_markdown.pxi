# Markdown output (issue 14): CommonMark (spec 0.31) with GitHub's pipe tables (GFM spec,
# "Tables (extension)"), written by one compiled pass over the Doc and a keep mask.
#
# The pass walks the nodes in preorder with an explicit stack of open elements
# (no recursion).  An element is written when it or a descendant is kept (as
# the cleaned HTML is).  Block structure is a stack of containers (blockquote
# "> ", list item marker / indentation) whose prefix starts every line; a
# pending break (`need`: hard break, line, blank line) is written just before
# the next content, so empty elements write nothing.  Inline openers
# (emphasis, link, code span, heading marker) are written lazily with the
# first content under them, closers only if the opener was written.
#
# - headings: ATX, `#` x level; block content inside a heading is joined by spaces
# - lists: `-` / `N.` (ol start=), nested by indentation under the marker
# - tables: a pipe table when the table holds only rows of cells with inline
#   content (p/div inside a cell are joined by spaces), no nested table, at
#   least two rows and two columns (colspan repeats empty cells after the
#   cell, rowspan leaves empty cells below it); any other table is layout:
#   its cells are written as blocks
# - pre, textarea, listing, plaintext, xmp, and block elements styled white-space:pre*
#   without block content inside: fenced code blocks holding the raw text; the
#   language from class language-x / lang-x / highlight-x on the element or
#   its code child; the fence is longer than any backtick run inside
# - code/kbd/samp/tt: code spans (more backticks than any run inside)
# - em/i `*`, strong/b `**`; not written when the flanking rules would make
#   the delimiters literal (punctuation inside next to a letter outside)
# - links `[text](url)`, images `![alt](url)`; URLs resolved against the base
#   (RFC 3986, section 5.2) and kept only when the cleaned HTML would keep them
#   (_sanitize.pxi's _sz_url_ok: http(s), mailto, relative URLs, raster
#   data:image for images); any other scheme drops the link (its text stays)
#   or the image
# - text: the CommonMark metacharacters that could start markup are
#   backslash-escaped (always \ ` * [ | ~; ] in a link's text or an image's
#   alt text, as every other [ is escaped and a ] elsewhere closes nothing; _
#   outside words; & before a letter, digit or #; < before a non-space; at a
#   line start > and, where they would open a block, # - + = and "1."; #
#   anywhere in a heading), so the text renders back as itself

from libc.stdlib cimport calloc

DEF MD_MAXCOLS = 64
DEF MD_MAXDEPTH = 16      # containers (blockquotes, list items) that indent; deeper ones are flat

cdef enum:
    MR_NONE = 0
    MR_BLOCK = 1
    MR_HEADING = 2
    MR_UL = 3
    MR_OL = 4
    MR_LI = 5
    MR_QUOTE = 6
    MR_PRE = 7
    MR_TABLE = 8
    MR_TR = 9
    MR_CELL = 10
    MR_EM = 11
    MR_STRONG = 12
    MR_CODE = 13
    MR_A = 14
    MR_BR = 15
    MR_HR = 16
    MR_IMG = 17
    MR_TSECT = 18
    MR_P = 19
    MR_FENCE = 20        # derived: a fenced code block
    MR_DATA_TABLE = 21   # derived: a pipe table
    MR_SOFT = 22         # derived: a block inside inline-only content (a space)

cdef uint8_t _md_role[STATIC_LIMIT]
cdef uint8_t _md_level[STATIC_LIMIT]
cdef bint _md_ready = False
cdef int32_t _md_div_tag = -1


cdef void _md_init():
    global _md_ready
    cdef int k
    for k in range(STATIC_LIMIT):
        _md_role[k] = MR_NONE
        _md_level[k] = 0
    roles = {"h1": MR_HEADING, "h2": MR_HEADING, "h3": MR_HEADING, "h4": MR_HEADING, "h5": MR_HEADING,
             "h6": MR_HEADING, "ul": MR_UL, "menu": MR_UL, "dir": MR_UL, "ol": MR_OL, "li": MR_LI,
             "blockquote": MR_QUOTE, "pre": MR_PRE, "textarea": MR_PRE, "listing": MR_PRE,
             "plaintext": MR_PRE, "xmp": MR_PRE, "table": MR_TABLE, "tr": MR_TR, "td": MR_CELL,
             "th": MR_CELL, "em": MR_EM, "i": MR_EM, "strong": MR_STRONG, "b": MR_STRONG,
             "code": MR_CODE, "kbd": MR_CODE, "samp": MR_CODE, "tt": MR_CODE, "a": MR_A, "br": MR_BR,
             "hr": MR_HR, "img": MR_IMG, "tbody": MR_TSECT, "thead": MR_TSECT, "tfoot": MR_TSECT,
             "p": MR_P, "caption": MR_BLOCK}
    for name, role in roles.items():
        t = TAG_IDS.get(name)
        if t is not None and t < STATIC_LIMIT:
            _md_role[t] = role
            if role == MR_HEADING:
                _md_level[t] = int(name[1])
    _md_ready = True


cdef struct MdCont:
    int32_t quote         # 1: blockquote "> "; 0: list item
    int32_t width
    int32_t pending       # the item's marker is not written yet
    int32_t mlen
    char marker[16]


cdef struct MdOpen:
    int32_t end
    int32_t node
    int32_t role
    int32_t state         # 0 nothing to write, 1 opener pending, 2 opener written, 3 suppressed
    int32_t a             # role data: heading level, list counter, code ticks, fence length, link URL offset
    int32_t b             # code pad, link URL length, ordered list flag, colspan
    int32_t c             # saved list_top, saved emphasis flags


cdef struct Md:
    char *out
    Py_ssize_t n, cap
    char *url
    Py_ssize_t un, ucap
    int oom
    int need              # 1 hard break, 2 new line, 3 blank line
    int bol               # at a line start, container prefix not written
    int lstart            # right after the prefix: line-start escapes apply
    int ol_digits         # the line so far is 1-9 digits: a "." or ")" next may make it a list item
    int fresh             # no content since the prefix / cell start (no separator space)
    int space             # a space is due before the next content
    int inl               # inside inline-only content (heading, link, code span, table cell)
    int inlink            # inside a link's text or an image's alt text: "]" would close it
    int incode
    int inhead
    int fence
    int fence_nl
    Py_ssize_t fence_node   # the element of the open fenced block
    int fence_empty         # no code written yet in it (its leading newlines are left out)
    Py_ssize_t gap          # preformatted whitespace stored after the last text (_text_gap)
    Py_ssize_t ndoc, bufn   # the Doc's nodes and text bytes
    int in_table
    int ncols, col, first_row, row_open, row_node
    int32_t carry[MD_MAXCOLS]
    uint8_t occ[MD_MAXCOLS]
    MdCont *conts
    Py_ssize_t nconts, ccap
    MdOpen *st
    Py_ssize_t nst, scap
    Py_ssize_t pend_lo
    int list_top
    int em_on, strong_on
    Py_ssize_t last_text
    int links, images
    const unsigned char *base
    Py_ssize_t blen


# ---------------------------------------------------------------- output buffer

cdef inline bint _md_room(Md *m, Py_ssize_t extra) noexcept nogil:
    if m.n + extra <= m.cap:
        return True
    if not _grow(<void **>&m.out, &m.cap, m.n + extra, 1):
        m.oom = 1
        return False
    return True


cdef inline void _md_put(Md *m, const char *s, Py_ssize_t k) noexcept nogil:
    if k <= 0 or not _md_room(m, k):
        return
    memcpy(m.out + m.n, s, k)
    m.n += k


cdef inline void _md_byte(Md *m, unsigned char c) noexcept nogil:
    """One byte into room the caller made (_md_room)."""
    m.out[m.n] = <char>c
    m.n += 1


cdef inline void _md_ch(Md *m, char c) noexcept nogil:
    if _md_room(m, 1):
        _md_byte(m, c)


cdef void _md_prefix(Md *m, bint blank) noexcept nogil:
    """The containers' line prefix; a blank line's without trailing spaces and markers.  At most
    MD_MAXDEPTH containers write one (a page nested deeper would make every line's prefix, and
    the output, grow with the depth)."""
    cdef Py_ssize_t k, j
    cdef Py_ssize_t start = m.n
    cdef MdCont *c
    for k in range(m.nconts if m.nconts < MD_MAXDEPTH else MD_MAXDEPTH):
        c = &m.conts[k]
        if blank and c.pending:
            break           # a container not started yet: the blank line is before it
        if c.quote:
            _md_put(m, b"> ", 2)
            c.pending = 0
        elif c.pending and not blank:
            _md_put(m, c.marker, c.mlen)
            c.pending = 0
        else:
            for j in range(c.width):
                _md_ch(m, 32)
    if blank:
        while m.n > start and m.out[m.n - 1] == 32:
            m.n -= 1


cdef inline bint _md_line_open(Md *m) noexcept nogil:
    """At the beginning of a line: the containers' prefix, then True (the line is open, nothing
    written on it yet); else False."""
    if not m.bol:
        return False
    _md_prefix(m, False)
    m.bol = 0
    return True


cdef inline void _md_newline(Md *m) noexcept nogil:
    _md_ch(m, 10)
    m.bol = 1
    m.lstart = 0


cdef void _md_begin(Md *m) noexcept nogil:
    """Before content: the pending break, then the line prefix."""
    if m.need:
        if m.n > 0:
            if m.need == 1:
                if not m.fresh:
                    _md_ch(m, 92)
                    _md_newline(m)
            elif m.need == 2:
                if not m.bol:
                    _md_newline(m)
            else:
                if not m.bol:
                    _md_newline(m)
                _md_prefix(m, True)
                _md_newline(m)
        m.need = 0
    if _md_line_open(m):
        m.lstart = 1
        m.fresh = 1


cdef inline bint _md_item_pending(Md *m) noexcept nogil:
    return m.nconts > 0 and not m.conts[m.nconts - 1].quote and m.conts[m.nconts - 1].pending


cdef inline bint _md_in_item(Md *m) noexcept nogil:
    return m.nconts > 0 and not m.conts[m.nconts - 1].quote


cdef inline void _md_need(Md *m, int k) noexcept nogil:
    """A break before the next content (a space inside inline-only content).  A block
    starting a list item stays on the marker's line."""
    if m.inl:
        m.space = 1
        return
    if k == 3 and _md_item_pending(m):
        k = 2
    if k > m.need:
        m.need = k


cdef void _md_openers(Md *m) noexcept nogil:
    """Write the pending inline openers, outermost first."""
    cdef Py_ssize_t k, j
    cdef MdOpen *e
    cdef char c
    if m.pend_lo >= m.nst:
        m.pend_lo = 1 << 30
        return
    for k in range(m.pend_lo, m.nst):
        e = &m.st[k]
        if e.state != 1:
            continue
        if e.role == MR_HEADING:
            for j in range(e.a):
                _md_ch(m, 35)
            _md_ch(m, 32)
        elif e.role == MR_EM or e.role == MR_STRONG:
            # left-flanking (CommonMark 6.2): no letter right before a delimiter run followed by punctuation
            c = m.out[m.n - 1] if m.n > 0 else 32
            if (e.c and _md_alnum(<unsigned char>c)) or c == 42:
                e.state = 3         # (or right after another run of '*': the two runs would merge)
                continue
            if e.role == MR_STRONG:
                _md_ch(m, 42)
            _md_ch(m, 42)
        elif e.role == MR_A:
            _md_ch(m, 91)
            m.inlink += 1
        elif e.role == MR_CODE:
            for j in range(e.a):
                _md_ch(m, 96)
            if e.b:
                _md_ch(m, 32)
        e.state = 2
        m.lstart = 0        # the text after an opener is not at a line start
    m.pend_lo = 1 << 30


cdef inline bint _md_alnum(unsigned char c) noexcept nogil:
    return c >= 128 or (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)


cdef inline bint _md_punct(unsigned char c) noexcept nogil:
    return (33 <= c <= 47) or (58 <= c <= 64) or (91 <= c <= 96) or (123 <= c <= 126)


cdef void _md_sep(Md *m, bint want) noexcept nogil:
    """Before inline content: the pending break and prefix, a separating space, the openers."""
    cdef char c
    _md_begin(m)
    if (want or m.space) and not m.fresh and m.n > 0:
        c = m.out[m.n - 1]
        if c != 32 and c != 10:
            _md_ch(m, 32)
    m.space = 0
    _md_openers(m)


# ---------------------------------------------------------------- text

cdef void _md_escape(Md *m, const unsigned char *s, Py_ssize_t n, bint collapse, bint code=False) noexcept nogil:
    """Text with the Markdown metacharacters that could start markup escaped (collapse: trimmed,
    whitespace runs as one space).  code: a code span's content instead: literal, whitespace runs
    as one space, only | escaped (in a table row)."""
    cdef Py_ssize_t k = 0, j, esc_at = -1
    cdef unsigned char c, prev
    cdef bint done, ol = m.ol_digits != 0     # the line so far is digits (the last piece's)
    if not _md_room(m, 2 * n + 2):
        return
    m.ol_digits = 0
    if collapse and not code:
        while k < n and s[k] <= 32:
            k += 1
        while n > k and s[n - 1] <= 32:
            n -= 1
    while k < n:
        c = s[k]
        if c <= 32:
            if collapse or code:
                while k + 1 < n and s[k + 1] <= 32:
                    k += 1
            _md_byte(m, 32)
            k += 1
            continue
        if code:
            if c == 124 and m.in_table:
                _md_byte(m, 92)
            _md_byte(m, c)
            k += 1
            continue
        done = False
        if ol:
            # "1" then, in this piece, ". item" (an element boundary between them)
            ol = False
            if (c == 46 or c == 41) and (k + 1 == n or s[k + 1] <= 32):
                _md_byte(m, 92)
                done = True
        if m.lstart:
            m.lstart = 0
            # a line start escapes only what would open a block there (CommonMark 0.31, 4.1-4.3,
            # 5.1-5.2): ">" always; "#" as the first of 1-6 "#"s before a space or the end
            # ("#hashtag" stays); "-" and "+" before a space (a list item), and "-" and "=" when
            # the text is only them and spaces (a thematic break, a setext underline): "-5",
            # "+1", "--x" stay; "1." / "1)" before a space or the end ("1.5 million" stays). The
            # end of this text counts as a space: the next piece may start with one.
            if c == 62:
                _md_byte(m, 92)
                done = True
            elif c == 35:
                j = k
                while j < n and s[j] == 35 and j - k < 7:
                    j += 1
                if j - k <= 6 and (j == n or s[j] <= 32):
                    _md_byte(m, 92)
                    done = True
            elif c == 45 or c == 43 or c == 61:                         # - + =
                j = k
                while j < n and (s[j] == c or s[j] == 32 or s[j] == 9):
                    j += 1
                if j == n or (c != 61 and s[k + 1] <= 32):
                    _md_byte(m, 92)
                    done = True
            elif 48 <= c <= 57:
                j = k
                while j < n and j - k < 10 and 48 <= s[j] <= 57:
                    j += 1
                if j < n and j - k < 10 and (s[j] == 46 or s[j] == 41) and (j + 1 == n or s[j + 1] <= 32):
                    esc_at = j                                          # "1." / "1)"
                elif j == n and j - k < 10:
                    m.ol_digits = 1         # the text ends in its digits: the next piece decides
        if done:
            pass
        elif c == 92 or c == 96 or c == 42 or c == 91 or (c == 93 and m.inlink) or c == 124 \
                or c == 126 or k == esc_at or (c == 35 and m.inhead):
            _md_byte(m, 92)
        elif c == 38 or c == 60:
            # "&" opens a character reference only before a letter, a digit or "#", "<" a tag or
            # an autolink only before a non-space (CommonMark 2.5, 6.5, 6.6): "Tom & Jerry" and
            # "< 5" stay; the end of this text escapes (the next piece may go on with "amp;")
            if k + 1 == n or (s[k + 1] > 32 if c == 60 else
                              (_md_alnum(s[k + 1]) or s[k + 1] == 35)):
                _md_byte(m, 92)
        elif c == 95:
            prev = <unsigned char>m.out[m.n - 1] if m.n > 0 else 32
            if not (_md_alnum(prev) and k + 1 < n and _md_alnum(s[k + 1])):
                _md_byte(m, 92)
        _md_byte(m, c)
        k += 1
    m.fresh = 0
    m.lstart = 0


cdef void _md_fence_text(Md *m, const unsigned char *s, Py_ssize_t n) noexcept nogil:
    """Fenced code content: byte for byte, the container prefix after each newline (newlines
    before the first code left out: the fence's own line break starts the code)."""
    cdef Py_ssize_t k
    for k in range(n):
        if m.fence_empty:
            if s[k] == 10:
                continue
            m.fence_empty = 0
        _md_line_open(m)
        if s[k] == 10:
            _md_newline(m)
        else:
            _md_ch(m, s[k])
            m.fresh = 0


# ---------------------------------------------------------------- URLs

cdef Py_ssize_t _md_scheme(const unsigned char *u, Py_ssize_t n) noexcept nogil:
    """Length of the URL's scheme (RFC 3986, 3.1), or 0 when it has none."""
    cdef Py_ssize_t k
    cdef unsigned char c
    if n == 0 or not ((65 <= u[0] <= 90) or (97 <= u[0] <= 122)):
        return 0
    for k in range(1, n):
        c = u[k]
        if c == 58:
            return k
        if not ((65 <= c <= 90) or (97 <= c <= 122) or (48 <= c <= 57) or c == 43 or c == 45 or c == 46):
            return 0
    return 0


cdef void _md_url_put(Md *m, const unsigned char *s, Py_ssize_t n) noexcept nogil:
    """URL bytes into m.url, made safe for a link destination: space ( ) < > \\ | " as %XX,
    control characters dropped."""
    cdef Py_ssize_t k
    cdef unsigned char c
    cdef const char *hexd = "0123456789ABCDEF"
    if not _grow(<void **>&m.url, &m.ucap, m.un + 3 * n + 1, 1):
        m.oom = 1
        return
    for k in range(n):
        c = s[k]
        if c < 32 or c == 127:
            continue
        if c == 32 or c == 40 or c == 41 or c == 60 or c == 62 or c == 92 or c == 124 or c == 34:
            m.url[m.un] = 37
            m.url[m.un + 1] = hexd[c >> 4]
            m.url[m.un + 2] = hexd[c & 15]
            m.un += 3
        else:
            m.url[m.un] = c
            m.un += 1


cdef void _md_url_path(Md *m, const unsigned char *s, Py_ssize_t n) noexcept nogil:
    """An absolute path with its dot segments removed (RFC 3986, 5.2.4), then its
    query and fragment, into m.url."""
    cdef Py_ssize_t k = 1, q = n, start = m.un, e, j, ln
    cdef bint last
    for k in range(n):
        if s[k] == 63 or s[k] == 35:
            q = k
            break
    if q == 0 or s[0] != 47:
        _md_url_put(m, s, n)
        return
    k = 1
    while True:
        e = k
        while e < q and s[e] != 47:
            e += 1
        last = e >= q
        ln = e - k
        if ln == 1 and s[k] == 46:
            if last:
                _md_url_put(m, b"/", 1)
        elif ln == 2 and s[k] == 46 and s[k + 1] == 46:
            j = m.un
            while j > start and m.url[j - 1] != 47:
                j -= 1
            m.un = j - 1 if j > start else start
            if last:
                _md_url_put(m, b"/", 1)
        else:
            _md_url_put(m, b"/", 1)
            _md_url_put(m, s + k, ln)
        if last:
            break
        k = e + 1
    if m.un == start:
        _md_url_put(m, b"/", 1)
    _md_url_put(m, s + q, n - q)


cdef bint _md_url(Md *m, const unsigned char *u0, Py_ssize_t n0, bint image) noexcept nogil:
    """Resolve a link/image URL against m.base into m.url (from m.un); False when the URL
    is empty or unsafe (a scheme other than http, https, mailto; data:image/* for images)."""
    cdef const unsigned char *u = u0
    cdef Py_ssize_t n = n0, sch, bs, auth, pend, qend, k, slash
    cdef const unsigned char *b = m.base
    cdef unsigned char tmp[16]
    cdef Py_ssize_t tn = 0
    while n > 0 and u[0] <= 32:
        u += 1
        n -= 1
    while n > 0 and u[n - 1] <= 32:
        n -= 1
    if n == 0:
        return False
    # the scheme as a browser reads it: tabs and newlines inside are ignored
    for k in range(n):
        if u[k] == 9 or u[k] == 10 or u[k] == 13:
            continue
        if tn < 15:
            tmp[tn] = u[k]
            tn += 1
        if u[k] == 58 or u[k] == 47 or u[k] == 63 or u[k] == 35:
            break
    if not _sz_url_ok(u, <size_t>n, image):        # the cleaned HTML's URL allow-list (_sanitize.pxi)
        return False
    if _md_scheme(tmp, tn):                          # absolute: http(s), mailto, data:image
        _md_url_put(m, u, n)
        return not m.oom
    if m.blen == 0:
        _md_url_put(m, u, n)
        return not m.oom
    # RFC 3986, 5.2.2, against an absolute http(s) base
    bs = _md_scheme(b, m.blen)
    auth = bs + 1
    if auth + 1 < m.blen and b[auth] == 47 and b[auth + 1] == 47:
        auth += 2
        while auth < m.blen and b[auth] != 47 and b[auth] != 63 and b[auth] != 35:
            auth += 1
    pend = auth
    while pend < m.blen and b[pend] != 63 and b[pend] != 35:
        pend += 1
    qend = pend
    while qend < m.blen and b[qend] != 35:
        qend += 1
    if n >= 2 and u[0] == 47 and u[1] == 47:
        _md_url_put(m, b, bs + 1)
        _md_url_put(m, u, n)
    elif u[0] == 47:
        _md_url_put(m, b, auth)
        _md_url_path(m, u, n)
    elif u[0] == 63:
        _md_url_put(m, b, pend)
        _md_url_put(m, u, n)
    elif u[0] == 35:
        _md_url_put(m, b, qend)
        _md_url_put(m, u, n)
    else:
        _md_url_put(m, b, auth)
        slash = pend
        while slash > auth and b[slash - 1] != 47:
            slash -= 1
        if slash == auth:
            # merge with an empty base path: "/" + reference
            k = m.un
            _md_url_put(m, b"/", 1)
            _md_url_put(m, u, n)
        else:
            k = m.un
            _md_url_put(m, b + auth, slash - auth)
            _md_url_put(m, u, n)
        # dot segments of the merged path, rewritten in place through a copy
        _md_dots_inplace(m, k)
    return not m.oom


cdef void _md_dots_inplace(Md *m, Py_ssize_t k) noexcept nogil:
    """Remove dot segments of the path written at m.url[k:m.un]."""
    cdef Py_ssize_t n = m.un - k
    cdef unsigned char *tmp = <unsigned char *>malloc(n + 1)
    if tmp == NULL:
        m.oom = 1
        return
    memcpy(tmp, m.url + k, n)
    m.un = k
    _md_url_path(m, tmp, n)
    free(tmp)


# ---------------------------------------------------------------- the pass

cdef inline int _md_role_of(const int32_t *tag, Py_ssize_t i) noexcept nogil:
    return _md_role[tag[i]] if tag[i] < STATIC_LIMIT else MR_NONE


cdef int _md_attr_int(fx_node *node, const char *name, size_t ln, int dflt, int lo, int hi) noexcept nogil:
    cdef fx_attr *a = _find_attr(node, name, ln)
    cdef size_t k
    cdef long v = 0
    cdef bint any = False
    if a == NULL or a.value == NULL:
        return dflt
    for k in range(a.value.length):
        if 48 <= a.value.data[k] <= 57:
            v = v * 10 + (a.value.data[k] - 48)
            any = True
            if v > 1000000000:
                break
        elif any or a.value.data[k] > 32:
            break
    if not any:
        return dflt
    return <int>(lo if v < lo else (hi if v > hi else v))


cdef MdOpen *_md_push(Md *m, Py_ssize_t i, int32_t end, int role, int state) noexcept nogil:
    cdef MdOpen *e
    if not _grow(<void **>&m.st, &m.scap, m.nst + 1, sizeof(MdOpen)):
        m.oom = 1
        return NULL
    e = &m.st[m.nst]
    e.end = end
    e.node = <int32_t>i
    e.role = role
    e.state = state
    e.a = e.b = e.c = 0
    if state == 1 and m.nst < m.pend_lo:
        m.pend_lo = m.nst
    m.nst += 1
    return e


cdef void _md_push_cont(Md *m, bint quote, const char *marker, int mlen) noexcept nogil:
    cdef MdCont *c
    if not _grow(<void **>&m.conts, &m.ccap, m.nconts + 1, sizeof(MdCont)):
        m.oom = 1
        return
    c = &m.conts[m.nconts]
    m.nconts += 1
    c.quote = quote
    c.pending = 1
    c.mlen = mlen if mlen < 16 else 15
    memcpy(c.marker, marker, c.mlen)
    c.width = 2 if quote else c.mlen


cdef Py_ssize_t _md_class_lang(fx_node *node, char *out) noexcept nogil:
    """The language of a code block from its class (language-x, lang-x, highlight-x); 0 if none."""
    cdef fx_attr *a = (<fx_element *>node).attr_class
    cdef const unsigned char *v
    cdef Py_ssize_t n, k = 0, s, e, p, ln
    if a == NULL or a.value == NULL:
        return 0
    v = a.value.data
    n = <Py_ssize_t>a.value.length
    while k < n:
        s = fx_next_word(v, n, &k)
        e = k
        p = -1
        if e - s > 9 and memcmp(v + s, b"language-", 9) == 0:
            p = s + 9
        elif e - s > 5 and memcmp(v + s, b"lang-", 5) == 0:
            p = s + 5
        elif e - s > 10 and memcmp(v + s, b"highlight-", 10) == 0:
            p = s + 10
            if e - p > 7 and memcmp(v + p, b"source-", 7) == 0:
                p += 7
        if p >= 0 and 0 < e - p <= 32:
            ln = 0
            while p < e:
                if not _sz_lang_char(v[p]):       # the cleaned HTML's language-name characters
                    ln = 0
                    break
                out[ln] = <char>v[p]
                ln += 1
                p += 1
            if ln:
                return ln
    return 0


cdef int _md_ticks(const uint8_t *keep, Py_ssize_t i, const int32_t *end, const uint8_t *kind,
                   const int64_t *off, const int32_t *tlen, const unsigned char *buf, int *any) noexcept nogil:
    """Longest backtick run in the kept text of node i's subtree."""
    cdef Py_ssize_t j, k
    cdef int run, best = 0
    for j in range(i, end[i]):
        if kind[j] != LXB_TEXT or not keep[j]:
            continue
        run = 0
        for k in range(off[j], off[j] + tlen[j]):
            if buf[k] == 96:
                run += 1
                any[0] = 1
                if run > best:
                    best = run
            else:
                run = 0
    return best


cdef int _md_table_scan(Md *m, Py_ssize_t i, const int32_t *end, const int32_t *parent, const int32_t *tag,
                        const uint8_t *kind, const uint16_t *flags, const uint8_t *emit,
                        const uint64_t *ptr) noexcept nogil:
    """Columns of a pipe table for table i (the rows' widths with colspan and rowspan placed as a
    browser places them), or 0 for a layout table: a nested table, block content in a cell
    other than p/div, fewer than two rows or columns, more than MD_MAXCOLS columns."""
    cdef Py_ssize_t j
    cdef int r, c, cs, rs, col = 0, width = 0, ncols = 0, rows = 0
    cdef int32_t row = -1
    memset(m.carry, 0, sizeof(m.carry))
    for j in range(i + 1, end[i]):
        if kind[j] != LXB_ELEMENT:
            continue
        r = _md_role_of(tag, j)
        if r == MR_TABLE:
            return 0
        if r == MR_TR:
            if row >= 0 and width > ncols:
                ncols = width
            row = -1
            if not emit[j]:
                continue
            row = <int32_t>j
            rows += 1
            col = width = 0
            for c in range(MD_MAXCOLS):
                m.occ[c] = m.carry[c] > 0
                if m.carry[c] > 0:
                    m.carry[c] -= 1
                    width = c + 1
        elif r == MR_CELL:
            if parent[j] != row or row < 0:
                continue
            while col < MD_MAXCOLS and m.occ[col]:
                col += 1
            cs = _md_attr_int(<fx_node *><uintptr_t>ptr[j], b"colspan", 7, 1, 1, MD_MAXCOLS)
            rs = _md_attr_int(<fx_node *><uintptr_t>ptr[j], b"rowspan", 7, 1, 1, 65534)
            if col + cs > MD_MAXCOLS:
                return 0
            for c in range(col, col + cs):
                if rs > 1 and rs - 1 > m.carry[c]:
                    m.carry[c] = rs - 1
            col += cs
            if col > width:
                width = col
        elif r == MR_HEADING or r == MR_UL or r == MR_OL or r == MR_LI or r == MR_QUOTE or r == MR_PRE \
                or r == MR_HR or (r == MR_NONE and flags[j] & NF_BLOCK and tag[j] != _md_div_tag):
            return 0
    if width > ncols:
        ncols = width
    if rows < 2 or ncols < 2:
        return 0
    memset(m.carry, 0, sizeof(m.carry))
    return ncols


cdef int _md_cell(Md *m, fx_node *node) noexcept nogil:
    """Open a cell of the current row: the columns still held by rowspans above, then ' '."""
    cdef int cs, rs, c
    while m.col < m.ncols and m.occ[m.col]:
        _md_put(m, b" |", 2)
        m.col += 1
    cs = _md_attr_int(node, b"colspan", 7, 1, 1, MD_MAXCOLS)
    rs = _md_attr_int(node, b"rowspan", 7, 1, 1, 65534)
    if m.col + cs > m.ncols:
        cs = m.ncols - m.col if m.ncols > m.col else 1
    for c in range(m.col, m.col + cs):
        if c < MD_MAXCOLS and rs > 1 and rs - 1 > m.carry[c]:
            m.carry[c] = rs - 1
    _md_ch(m, 32)
    m.fresh = 1
    m.lstart = 0
    m.space = 0
    m.col += cs
    m.inl += 1
    return cs


cdef void _md_cell_close(Md *m, int cs) noexcept nogil:
    """Close a cell; a colspan's further columns are empty cells after it."""
    cdef int k
    for k in range(cs if cs > 0 else 1):
        _md_put(m, b" |", 2)
    m.inl -= 1
    m.fresh = 0


cdef void _md_close(Md *m) noexcept nogil:
    cdef MdOpen *e = &m.st[m.nst - 1]
    cdef int j, r = e.role
    if r == MR_EM or r == MR_STRONG:
        if e.state == 2:
            if r == MR_STRONG:
                _md_ch(m, 42)
            _md_ch(m, 42)
        if r == MR_EM:
            m.em_on -= 1
        else:
            m.strong_on -= 1
    elif r == MR_A:
        if e.state == 2:
            m.inlink -= 1
            _md_put(m, b"](", 2)
            _md_put(m, m.url + e.a, e.b)
            _md_ch(m, 41)
        m.inl -= 1
    elif r == MR_CODE:
        if e.state == 2:
            if e.b:
                _md_ch(m, 32)
            for j in range(e.a):
                _md_ch(m, 96)
        m.inl -= 1
        m.incode -= 1
    elif r == MR_HEADING:
        m.inl -= 1
        m.inhead -= 1
        m.nst -= 1
        _md_need(m, 3)
        return
    elif r == MR_BLOCK or r == MR_P or r == MR_SOFT:
        m.nst -= 1
        if m.fence:
            m.fence_nl = 1
        else:
            _md_need(m, 3 if r != MR_SOFT else 2)
        return
    elif r == MR_UL or r == MR_OL:
        m.list_top = e.c
        m.nst -= 1
        _md_need(m, 2 if _md_in_item(m) else 3)      # a nested list ends on the next line
        return
    elif r == MR_LI:
        m.nconts -= 1
        m.nst -= 1
        _md_need(m, 2)
        return
    elif r == MR_QUOTE:
        m.nconts -= 1
        m.nst -= 1
        _md_need(m, 3)
        return
    elif r == MR_FENCE:
        if not m.bol and not m.fresh:
            _md_newline(m)
        _md_line_open(m)
        for j in range(e.a):
            _md_ch(m, 96)
        m.fence = 0
        m.fence_nl = 0
        m.fresh = 0
        m.nst -= 1
        _md_need(m, 3)
        return
    elif r == MR_DATA_TABLE:
        m.in_table = 0
        m.inl = e.c
        m.nst -= 1
        _md_need(m, 3)
        return
    elif r == MR_TR:
        if m.row_open:
            while m.col < m.ncols:
                _md_put(m, b" |", 2)
                m.col += 1
            if m.first_row:
                _md_newline(m)
                _md_prefix(m, False)
                m.bol = 0
                _md_ch(m, 124)
                for j in range(m.ncols):
                    _md_put(m, b" --- |", 6)
                m.first_row = 0
            m.row_open = 0
            m.need = 2
    elif r == MR_CELL:
        _md_cell_close(m, e.b)
    m.nst -= 1


cdef void _md_image(Md *m, fx_node *node) noexcept nogil:
    cdef fx_attr *src = _find_attr(node, b"src", 3)
    cdef fx_attr *alt
    cdef Py_ssize_t u0 = m.un
    if src == NULL or src.value == NULL or src.value.length == 0:
        src = _find_attr(node, b"data-src", 8)
    if src == NULL or src.value == NULL:
        return
    if not _md_url(m, src.value.data, <Py_ssize_t>src.value.length, True):
        m.un = u0
        return
    _md_sep(m, True)
    _md_put(m, b"![", 2)
    alt = _find_attr(node, b"alt", 3)
    if alt != NULL and alt.value != NULL:
        m.lstart = 0
        m.inlink += 1
        _md_escape(m, alt.value.data, <Py_ssize_t>alt.value.length, True)
        m.inlink -= 1
    _md_put(m, b"](", 2)
    _md_put(m, m.url + u0, m.un - u0)
    _md_ch(m, 41)
    m.un = u0
    m.fresh = 0
    m.lstart = 0
    m.space = 1


cdef void _md_open(Md *m, Py_ssize_t i, const int32_t *end, const int32_t *parent, const int32_t *tag,
                   const uint8_t *kind, const uint16_t *flags, const uint8_t *emit, const uint8_t *keep,
                   const uint8_t *hb, const uint64_t *ptr, const int64_t *off, const int32_t *tlen,
                   const unsigned char *buf) noexcept nogil:
    cdef int r = _md_role_of(tag, i), k, any = 0
    cdef fx_node *node = <fx_node *><uintptr_t>ptr[i]
    cdef fx_node *ch
    cdef MdOpen *e
    cdef MdOpen *lst
    cdef char marker[16]
    cdef char lang[40]
    cdef Py_ssize_t ln, j
    cdef long v
    cdef fx_attr *a
    cdef bint styled_pre = (flags[i] & NF_PRE) and (parent[i] < 0 or not (flags[parent[i]] & NF_PRE)) \
        and r != MR_PRE
    if m.fence:
        # inside a code block everything is text; a block or <br> breaks the line
        if r == MR_BR or flags[i] & NF_BLOCK:
            m.fence_nl = 1
        if r != MR_BR and r != MR_IMG and r != MR_HR:
            _md_push(m, i, end[i], MR_BLOCK if flags[i] & NF_BLOCK else MR_NONE, 0)
        return
    if r == MR_NONE and styled_pre and flags[i] & NF_BLOCK and not (hb[i] & 1) and not m.inl:
        r = MR_PRE
    if r == MR_NONE and flags[i] & NF_BLOCK:
        r = MR_BLOCK
    # what inline-only content and table context allow
    if m.in_table and (r == MR_TR or r == MR_CELL):
        pass
    elif r == MR_TR or r == MR_CELL or r == MR_TSECT:
        r = MR_BLOCK if r != MR_TSECT else MR_NONE
    if r == MR_A:
        if not m.links or hb[i] & 1 or m.inl:
            r = MR_NONE
    elif r == MR_EM or r == MR_STRONG:
        if hb[i] & 1 or m.incode or (m.em_on if r == MR_EM else m.strong_on):
            r = MR_NONE
    elif r == MR_CODE:
        if hb[i] & 1 or m.incode:
            r = MR_NONE
    if m.inl and (r == MR_BLOCK or r == MR_P or r == MR_HEADING or r == MR_UL or r == MR_OL or r == MR_LI
                  or r == MR_QUOTE or r == MR_TABLE or r == MR_PRE or r == MR_TR):
        r = MR_SOFT
    if r == MR_BR:
        _md_need(m, 1)
        return
    if r == MR_HR:
        if m.inl:
            m.space = 1
            return
        _md_need(m, 3)
        _md_begin(m)
        _md_put(m, b"---", 3)
        m.fresh = 0
        _md_need(m, 3)
        return
    if r == MR_IMG:
        if m.images and not m.incode:       # (a code span shows its content literally)
            _md_image(m, node)
        return
    if r == MR_NONE:
        _md_push(m, i, end[i], MR_NONE, 0)
    elif r == MR_BLOCK or r == MR_P or r == MR_SOFT:
        _md_need(m, 3 if r != MR_SOFT else 2)
        if r == MR_SOFT:
            m.space = 1
        _md_push(m, i, end[i], r, 0)
    elif r == MR_HEADING:
        _md_need(m, 3)
        e = _md_push(m, i, end[i], MR_HEADING, 1)
        if e != NULL:
            e.a = _md_level[tag[i]]
        m.inl += 1
        m.inhead += 1
    elif r == MR_UL or r == MR_OL:
        _md_need(m, 2 if _md_in_item(m) else 3)      # a nested list starts on the next line
        e = _md_push(m, i, end[i], r, 0)
        if e != NULL:
            e.a = _md_attr_int(node, b"start", 5, 1, 0, 999999999) if r == MR_OL else 0
            e.c = m.list_top
            m.list_top = <int>(m.nst - 1)
    elif r == MR_LI:
        _md_need(m, 2)
        lst = &m.st[m.list_top] if m.list_top >= 0 else NULL
        if lst != NULL and lst.role == MR_OL:
            v = lst.a
            lst.a += 1 if lst.a < 999999999 else 0
            ln = 0
            if v == 0:
                marker[0] = 48
                ln = 1
            while v > 0:
                marker[ln] = <char>(48 + v % 10)
                v //= 10
                ln += 1
            for j in range(ln // 2):
                marker[j], marker[ln - 1 - j] = marker[ln - 1 - j], marker[j]
            marker[ln] = 46
            marker[ln + 1] = 32
            _md_push_cont(m, False, marker, <int>ln + 2)
        else:
            _md_push_cont(m, False, b"- ", 2)
        _md_push(m, i, end[i], MR_LI, 0)
    elif r == MR_QUOTE:
        _md_need(m, 3)
        _md_push_cont(m, True, b"> ", 2)
        _md_push(m, i, end[i], MR_QUOTE, 0)
    elif r == MR_PRE:
        _md_need(m, 3)
        _md_begin(m)
        k = _md_ticks(keep, i, end, kind, off, tlen, buf, &any) + 1
        if k < 3:
            k = 3
        e = _md_push(m, i, end[i], MR_FENCE, 0)
        if e != NULL:
            e.a = k
        for j in range(k):
            _md_ch(m, 96)
        ln = _md_class_lang(node, lang)
        if ln == 0:
            ch = node.first_child
            while ch != NULL and ch.type != LXB_ELEMENT:
                ch = ch.next
            if ch != NULL and _tag_of(ch) < STATIC_LIMIT and _md_role[_tag_of(ch)] == MR_CODE:
                ln = _md_class_lang(ch, lang)
        _md_put(m, lang, ln)
        _md_newline(m)
        m.fence = 1
        m.fence_nl = 0
        m.fence_node = i
        m.fence_empty = 1
    elif r == MR_TABLE:
        k = 0 if m.inl else _md_table_scan(m, i, end, parent, tag, kind, flags, emit, ptr)
        if k:
            _md_need(m, 3)
            e = _md_push(m, i, end[i], MR_DATA_TABLE, 0)
            if e != NULL:
                e.c = m.inl
            m.in_table = 1
            m.ncols = k
            m.first_row = 1
            m.row_open = 0
        else:
            _md_need(m, 3)
            _md_push(m, i, end[i], MR_BLOCK, 0)
    elif r == MR_TR:
        if m.row_open:
            _md_push(m, i, end[i], MR_NONE, 0)
            return
        for k in range(MD_MAXCOLS):
            m.occ[k] = m.carry[k] > 0
            if m.carry[k] > 0:
                m.carry[k] -= 1
        _md_need(m, 3 if m.first_row else 2)
        _md_begin(m)
        _md_ch(m, 124)
        m.col = 0
        m.row_open = 1
        m.row_node = <int>i
        _md_push(m, i, end[i], MR_TR, 0)
    elif r == MR_CELL:
        if not m.row_open or parent[i] != m.row_node:
            _md_push(m, i, end[i], MR_NONE, 0)
            return
        k = _md_cell(m, node)
        e = _md_push(m, i, end[i], MR_CELL, 0)
        if e != NULL:
            e.b = k
    elif r == MR_EM or r == MR_STRONG:
        e = _md_push(m, i, end[i], r, 1)
        if e != NULL:
            e.c = _md_em_risky(i, end, kind, keep, off, tlen, buf)
        if r == MR_EM:
            m.em_on += 1
        else:
            m.strong_on += 1
        if e != NULL and _md_em_close_risky(i, end, kind, keep, flags, off, tlen, buf):
            e.state = 0         # never written: its closing run could not close
    elif r == MR_CODE:
        e = _md_push(m, i, end[i], MR_CODE, 1)
        if e != NULL:
            any = 0
            e.a = _md_ticks(keep, i, end, kind, off, tlen, buf, &any) + 1
            e.b = any
        m.inl += 1
        m.incode += 1
    elif r == MR_A:
        ln = m.un
        a = _find_attr(node, b"href", 4)
        if a == NULL or a.value == NULL or not _md_url(m, a.value.data, <Py_ssize_t>a.value.length, False):
            m.un = ln
            _md_push(m, i, end[i], MR_NONE, 0)
            return
        e = _md_push(m, i, end[i], MR_A, 1)
        if e != NULL:
            e.a = <int32_t>ln
            e.b = <int32_t>(m.un - ln)
        m.inl += 1


cdef int _md_em_risky(Py_ssize_t i, const int32_t *end, const uint8_t *kind, const uint8_t *keep,
                      const int64_t *off, const int32_t *tlen, const unsigned char *buf) noexcept nogil:
    """The emphasis' first kept character is punctuation (its opener is then not left-flanking
    after a letter)."""
    cdef Py_ssize_t j
    for j in range(i + 1, end[i]):
        if kind[j] == LXB_TEXT and keep[j] and tlen[j] > 0:
            return _md_punct(buf[off[j]])
    return 0


cdef bint _md_em_close_risky(Py_ssize_t i, const int32_t *end, const uint8_t *kind, const uint8_t *keep,
                             const uint16_t *flags, const int64_t *off, const int32_t *tlen,
                             const unsigned char *buf) noexcept nogil:
    """The emphasis ends with punctuation and a letter follows with no space: its closing
    delimiter run would not be right-flanking (CommonMark 6.2)."""
    cdef Py_ssize_t j, last = -1, nxt = -1, lim
    for j in range(end[i] - 1, i, -1):
        if kind[j] == LXB_TEXT and keep[j] and tlen[j] > 0:
            last = j
            break
    if last < 0 or not _md_punct(buf[off[last] + tlen[last] - 1]) or flags[last] & NF_WS_AFTER:
        return False
    lim = end[i] + 64
    for j in range(end[i], lim):
        if j >= end[0]:
            break
        if kind[j] == LXB_TEXT and keep[j] and tlen[j] > 0:
            nxt = j
            break
    return nxt >= 0 and not (flags[nxt] & NF_WS_BEFORE) and _md_alnum(buf[off[nxt]])


cdef void _md_textnode(Md *m, Py_ssize_t i, const uint8_t *kind, const uint16_t *flags, const int64_t *off,
                       const int32_t *tlen, const unsigned char *buf) noexcept nogil:
    cdef const unsigned char *s = buf + off[i]
    cdef Py_ssize_t n = tlen[i]
    cdef uint16_t fl = flags[i]
    cdef bint want
    if n <= 0:
        return
    if m.fence:
        if m.last_text > m.fence_node and m.gap > 0:
            # preformatted whitespace on the previous text's line (_text_gap)
            _md_fence_text(m, buf + off[m.last_text] + tlen[m.last_text], m.gap)
        if m.fence_nl:
            # a block boundary inside the code: a new line unless the raw text ended its line
            if not m.bol and not m.fresh:
                _md_newline(m)
            m.fence_nl = 0
        if _md_line_open(m):
            m.fresh = 1
        _md_fence_text(m, s, n)
        m.last_text = i
        m.gap = _text_gap(m.ndoc, kind, flags, off, tlen, m.bufn, i)
        return
    want = (fl & NF_WS_BEFORE) != 0 or (m.last_text >= 0 and (flags[m.last_text] & NF_WS_AFTER) != 0) \
        or ((fl & NF_PRE) != 0 and s[0] <= 32)
    _md_sep(m, want)
    if m.incode:
        _md_escape(m, s, n, False, True)
    else:
        _md_escape(m, s, n, (fl & NF_PRE) != 0)
    m.last_text = i


cdef void _md_run(Md *m, Py_ssize_t n, const int32_t *end, const int32_t *parent, const int32_t *tag,
                  const uint8_t *kind, const uint16_t *flags, const uint8_t *emit, const uint8_t *keep,
                  const uint8_t *hb, const uint64_t *ptr, const int64_t *off, const int32_t *tlen,
                  const unsigned char *buf) noexcept nogil:
    cdef Py_ssize_t i = 0
    while i < n and not m.oom:
        while m.nst > 0 and m.st[m.nst - 1].end <= i:
            _md_close(m)
        if not emit[i]:
            if m.in_table and m.row_open and kind[i] == LXB_ELEMENT and parent[i] == m.row_node \
                    and _md_role_of(tag, i) == MR_CELL:
                _md_cell_close(m, _md_cell(m, <fx_node *><uintptr_t>ptr[i]))   # an empty cell keeps the columns
            elif kind[i] == LXB_ELEMENT and (hb[i] or flags[i] & (NF_BLOCK | NF_BR)):
                # a block or <br> left out still separates the text around it (as in .text)
                _md_need(m, 1 if _md_role_of(tag, i) == MR_BR else 2)
            i = end[i]
            continue
        if kind[i] == LXB_TEXT:
            if keep[i]:
                _md_textnode(m, i, kind, flags, off, tlen, buf)
        else:
            _md_open(m, i, end, parent, tag, kind, flags, emit, keep, hb, ptr, off, tlen, buf)
        i += 1
    while m.nst > 0 and not m.oom:
        _md_close(m)


def render_markdown(Doc d, keep, bint links=True, bint images=True, str base=None):
    """Markdown (CommonMark with GitHub pipe tables) of the kept nodes; see _markdown.pxi.

    `base` is the absolute http(s) URL relative links and images are resolved
    against (None: they stay relative); `links=False` writes link text only,
    `images=False` leaves images out.
    """
    global _md_div_tag
    if not _md_ready:
        _md_init()
        _md_div_tag = TAG_IDS.get("div", -1)
    cdef cnp.ndarray karr = _contiguous(keep, cnp.NPY_UINT8, "keep")
    cdef Py_ssize_t n = d.n, i, p
    if karr.shape[0] != n:
        raise ValueError(f"keep mask has {karr.shape[0]} entries, the Doc has {n} nodes")
    cdef const uint8_t *kp = <const uint8_t *>cnp.PyArray_DATA(karr)
    cdef bytes bb = base.encode("utf-8", "replace") if base else b""
    cdef Md m
    cdef uint8_t *scratch = <uint8_t *>calloc(2 * n + 2, 1)
    if scratch == NULL:
        raise MemoryError()
    cdef uint8_t *emit = scratch
    cdef uint8_t *hb = scratch + n + 1
    cdef DocView dv = d.view
    cdef int r
    memset(&m, 0, sizeof(Md))
    m.bol = 1
    m.pend_lo = 1 << 30
    m.list_top = -1
    m.last_text = -1
    m.links = links
    m.images = images
    m.base = bb
    m.blen = len(bb)
    m.ndoc = n
    m.bufn = len(d.text_buf)
    m.cap = len(d.text_buf) // 2 + 256
    m.out = <char *>malloc(m.cap)
    if m.out == NULL:
        free(scratch)
        raise MemoryError()
    try:
        with nogil:
            # emitted: kept or holding a kept node; hb: bit 1 holds block content (not img/br),
            # bit 2 holds a br or img
            for i in range(n - 1, -1, -1):
                if kp[i]:
                    emit[i] = 1
                p = dv.parent[i]
                if p < 0:
                    continue
                if emit[i]:
                    emit[p] = 1
                hb[p] |= hb[i]
                if dv.kind[i] == LXB_ELEMENT and dv.flags[i] & (NF_BLOCK | NF_BR):
                    r = _md_role_of(dv.tag, i)
                    hb[p] |= 2 if r == MR_IMG or r == MR_BR else 1
            _md_run(&m, n, dv.end, dv.parent, dv.tag, dv.kind, dv.flags, emit, kp, hb, dv.ptr, dv.text_off,
                    dv.text_len, dv.text_buf)
        if m.oom:
            raise MemoryError("fastx: out of memory while writing Markdown")
        while m.n > 0 and (m.out[m.n - 1] == 10 or m.out[m.n - 1] == 32):
            m.n -= 1
        return m.out[:m.n].decode("utf-8", "replace") + ("\n" if m.n else "")
    finally:
        free(scratch)
        free(m.out)
        free(m.url)
        free(m.st)
        free(m.conts)


def markdown_base(Doc d, str url=None):
    """The URL a page's relative links resolve against (HTML, 'The base element'):
    ``<base href>``, else ``<link rel=canonical>``, else `url`; None unless absolute http(s)."""
    from urllib.parse import urljoin, urlsplit
    cdef fx_node *root
    cdef fx_node *head = NULL
    cdef fx_node *ch
    cdef fx_attr *a
    base_href = canonical = None
    if d.parser is not None and d.parser.root is not None:
        root = <fx_node *><uintptr_t>d.parser.root.mem_id
        ch = root.first_child
        while ch != NULL:
            if ch.type == LXB_ELEMENT and ch.local_name < STATIC_LIMIT and _tag_props[ch.local_name] & TP_HEAD:
                head = ch
                break
            ch = ch.next
        ch = head.first_child if head != NULL else NULL
        while ch != NULL:
            if ch.type == LXB_ELEMENT and ch.local_name < STATIC_LIMIT and _tag_props[ch.local_name] & TP_META:
                a = _find_attr(ch, b"href", 4)
                if a != NULL and a.value != NULL:
                    name = _node_tag_name(ch)
                    if name == "base" and base_href is None:
                        base_href = _fx_str(a.value).strip()
                    elif name == "link" and canonical is None:
                        rel = _find_attr(ch, b"rel", 3)
                        if rel != NULL and "canonical" in _fx_str(rel.value).lower().split():
                            canonical = _fx_str(a.value).strip()
            ch = ch.next

    def absolute(u):
        try:
            parts = urlsplit(u)
        except ValueError:
            return False
        return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)
    url = url if url and absolute(url) else None
    try:
        if canonical:
            canonical = urljoin(url, canonical) if url else canonical
        anchor = canonical if canonical and absolute(canonical) else url
        if base_href:
            b = urljoin(anchor, base_href) if anchor else base_href
            if absolute(b):
                return b
    except ValueError:
        pass
    return anchor

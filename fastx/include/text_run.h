/* the ASCII run of a text node: whitespace collapsed, words and punctuation counted (SWAR).
   Compiled into fastx._core through core/_doc.pxi; plain C, no Python. */
#ifndef FX_TEXT_RUN_H
#define FX_TEXT_RUN_H

/* The ASCII run of a text node: collapse whitespace, count words and
   punctuation.  Eight bytes at a time as one 64-bit word (SWAR) while
   they hold no whitespace pair to collapse; byte by byte otherwise,
   branch-free (class table, conditional moves).  Locals only, restrict
   pointers: the loop stays in registers.  Returns the index of the first
   non-ASCII byte (or n).  The classes are _ascii_class's: space <= 32,
   punctuation , . ! ? ; : " ( ), word characters [0-9A-Za-z_]. */
#if defined(_MSC_VER) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define FX_SWAR 1
#endif
#define FX_ONES 0x0101010101010101ULL
#define FX_HIGH 0x8080808080808080ULL
/* bit 7 of each byte: that byte (< 128) is >= k */
#define FX_GE(w, k) (((w) + (0x80 - (k)) * FX_ONES) & FX_HIGH)
#define FX_IN(w, lo, hi) (FX_GE(w, lo) & ~FX_GE(w, (hi) + 1))
/* number of bytes whose bit 7 is set */
#define FX_COUNT(m) ((int)((((m) >> 7) * FX_ONES) >> 56))
static inline size_t fx_ascii_run(const unsigned char *restrict s, size_t i, size_t n,
                                  unsigned char *restrict out, size_t *o_io,
                                  int *prev_sp_io, int *prev_wd_io, int *words_io, int *punct_io,
                                  const unsigned char *restrict table) {
    size_t o = *o_io;
    int prev_sp = *prev_sp_io, prev_wd = *prev_wd_io, words = *words_io, punct = *punct_io;
    while (i < n) {
#ifdef FX_SWAR
        if (i + 8 <= n) {
            uint64_t w, sp, wd, pu, spb, r;
            memcpy(&w, s + i, 8);
            if (w & FX_HIGH)
                goto bytewise;            /* a non-ASCII byte among them */
            sp = ~FX_GE(w, 33) & FX_HIGH;
            if (sp == FX_HIGH) {          /* eight whitespace bytes: at most one space */
                out[o] = 32;
                o += 1 - prev_sp;
                prev_sp = 1;
                prev_wd = 0;
                i += 8;
                continue;
            }
            if (sp & ((sp << 8) | (prev_sp ? 0x80ULL : 0)))
                goto bytewise;            /* whitespace to collapse */
            wd = FX_IN(w, 48, 57) | FX_IN(w, 65, 90) | FX_IN(w, 97, 122) | FX_IN(w, 95, 95);
            pu = FX_IN(w, 33, 34) | FX_IN(w, 40, 41) | FX_IN(w, 44, 44) | FX_IN(w, 46, 46)
                 | FX_IN(w, 58, 59) | FX_IN(w, 63, 63);
            spb = (sp >> 7) * 0xFF;        /* whole bytes of whitespace ... */
            r = (w & ~spb) | (spb & (0x20 * FX_ONES));    /* ... written as spaces */
            memcpy(out + o, &r, 8);
            o += 8;
            words += FX_COUNT(wd & ~((wd << 8) | (prev_wd ? 0x80ULL : 0)));
            punct += FX_COUNT(pu);
            prev_sp = (int)(sp >> 63);
            prev_wd = (int)(wd >> 63);
            i += 8;
            continue;
        }
    bytewise:
#endif
        {
            /* one byte, or up to the end of the current 8 */
            size_t stop = i + 8 < n ? i + 8 : n;
            while (i < stop) {
                unsigned char c = s[i];
                if (c >= 128) {
                    *o_io = o; *prev_sp_io = prev_sp; *prev_wd_io = prev_wd; *words_io = words;
                    *punct_io = punct;
                    return i;
                }
                unsigned char cls = table[c];
                int sp = cls & 1, wd = (cls >> 2) & 1;
                out[o] = sp ? 32 : c;
                o += 1 - (sp & prev_sp);
                words += wd & (1 - prev_wd);
                punct += (cls >> 1) & 1;
                prev_sp = sp;
                prev_wd = wd;
                i++;
            }
        }
    }
    *o_io = o; *prev_sp_io = prev_sp; *prev_wd_io = prev_wd; *words_io = words; *punct_io = punct;
    return i;
}

#endif

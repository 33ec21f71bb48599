/* A big fio JSON file read without loading it as a text (issue 26): a text costs the file
 * twice over (its bytes, a pointer and a clean-up entry a line: 3x a pretty-printed JSON).
 * Only a plain file is read so: one document and nothing else, printable ASCII, nothing
 * the text's clean-up (core/normalize.h) or its section headings would read, so that the
 * records are the text's to the byte. Anything else is read as a text. */
#include "fio_json_file.h"
#include <ctype.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* What the clean-up rewrites: quote marks, bars, comment marks at a line's start; HTML,
 * entities, BBCode, Markdown bold and fences, Python's triple quotes anywhere. */
static int markup_at(const char *s, size_t i, size_t n)
{
    char c = s[i], next = i + 1 < n ? s[i + 1] : '\0', third = i + 2 < n ? s[i + 2] : '\0';
    switch (c) {
    case '&':
    case '<':
    case '`':
    case '\'':
        return 1;
    case '*':
        return next == '*';
    case '~':
        return next == '~' && third == '~';
    case '"':
        return next == '"' && third == '"';
    case '[':
        return isalpha((unsigned char)next) || next == '/';
    }
    return 0;
}

/* The bytes a text would hold unchanged and with no heading: printable ASCII, tabs and
 * '\n' only, no line longer than a text takes, the first byte the document's '{', no blank
 * line before the last one with text, no line opening with '>', '|' or '#'. A line's bytes
 * are run over by a table (1: refused, 2: markup maybe, 3: the line's end). Checked a line
 * at a time from `at` as the document is read (the file's one pass), then to its end. */
typedef struct plain {
    bl_fj_src *src;
    size_t at;
    int blank;
    unsigned char look[256];
} plain;

static void plain_init(plain *pl, bl_fj_src *src)
{
    *pl = (plain){.src = src};
    for (int c = 0; c < 256; c++)
        pl->look[c] = (c < 0x20 && c != '\t') || c >= 0x7f;
    pl->look['\n'] = 3;
    for (const char *m = "&<`'*~\"["; *m; m++)
        pl->look[(unsigned char)*m] = 2;
}

#ifdef __SSE2__
/* The bytes of v that the table of plain_upto stops at, but tab and the control bytes
 * let_ctl marks (a quote only when another follows it, next being the bytes one on: a JSON
 * string's quote is no markup). The two scans below ask it, each adding its own bytes. */
static inline __m128i markup_bytes(__m128i v, __m128i next, __m128i let_ctl)
{
#define EQ(c) _mm_cmpeq_epi8(v, _mm_set1_epi8(c))
    /* signed: below 0x20 is a control byte or one of 0x80 and up */
    __m128i m =
        _mm_andnot_si128(_mm_or_si128(EQ('\t'), let_ctl), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    m = _mm_or_si128(m, _mm_or_si128(EQ(0x7f), EQ('&')));
    m = _mm_or_si128(m, _mm_or_si128(EQ('<'), EQ('`')));
    m = _mm_or_si128(m, _mm_or_si128(EQ('\''), EQ('*')));
    m = _mm_or_si128(m, _mm_or_si128(EQ('~'), EQ('[')));
    return _mm_or_si128(m, _mm_and_si128(EQ('"'), _mm_cmpeq_epi8(next, _mm_set1_epi8('"'))));
}

/* The first byte from k on that the table of plain_upto stops at, sixteen at a time while 17
 * are left; the caller's bytewise loop takes over from there, as from any byte it would stop
 * at. */
static size_t plain_skip(const char *s, size_t k, size_t n)
{
    for (; k + 17 <= n; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + k));
        __m128i next = _mm_loadu_si128((const __m128i *)(const void *)(s + k + 1));
        unsigned bits = (unsigned)_mm_movemask_epi8(markup_bytes(v, next, _mm_setzero_si128()));
        if (bits)
            return k + (size_t)__builtin_ctz(bits);
    }
    return k;
}

/* Lines from i (a line's start, i > 0) checked sixteen bytes at a time while nothing in them
 * needs a closer look: what plain_skip stops at but a line end, the '>', '|' and '#' a
 * line may not open with, a line end after a blank or at a line's start (a blank line
 * maybe), a line near the length limit. Returns the start of the first line not checked
 * so (the one such a byte is on, or the one the scan stopped in: before upto or at it). */
static size_t plain_lines(const char *s, size_t i, size_t upto, size_t n)
{
    size_t line = i, k = i;
    for (; k < upto && k + 17 <= n; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + k));
        __m128i next = _mm_loadu_si128((const __m128i *)(const void *)(s + k + 1));
        __m128i prev = _mm_loadu_si128((const __m128i *)(const void *)(s + k - 1));
        __m128i nl = EQ('\n');
        __m128i m = markup_bytes(v, next, nl);
        m = _mm_or_si128(m, _mm_or_si128(EQ('>'), EQ('|')));
        m = _mm_or_si128(m, EQ('#'));
        __m128i after = _mm_or_si128(_mm_cmpeq_epi8(prev, _mm_set1_epi8(' ')),
                                     _mm_or_si128(_mm_cmpeq_epi8(prev, _mm_set1_epi8('\t')),
                                                  _mm_cmpeq_epi8(prev, _mm_set1_epi8('\n'))));
        m = _mm_or_si128(m, _mm_and_si128(nl, after));
        unsigned bits = (unsigned)_mm_movemask_epi8(m), nls = (unsigned)_mm_movemask_epi8(nl);
        if (bits) {
            nls &= (1u << __builtin_ctz(bits)) - 1; /* the line ends before the byte */
            return nls ? k + 32 - (size_t)__builtin_clz(nls) : line;
        }
        if (nls)
            line = k + 32 - (size_t)__builtin_clz(nls);
        else if (k + 16 - line > BL_TEXT_LINE_MAX / 2)
            return line;
    }
    return line;
}
#undef EQ
#endif

/* The lines that start before upto; 0: refused. */
static int plain_upto(void *ctx, size_t upto)
{
    plain *pl = ctx;
    const char *s = pl->src->s;
    const unsigned char *look = pl->look;
    size_t n = pl->src->n, i = pl->at;
    if (upto > n)
        upto = n;
    while (i < upto) {
#ifdef __SSE2__
        if (i > 0 && !pl->blank) {
            size_t from = i;
            i = pl->at = plain_lines(s, i, upto, n);
            if (i > from && ((i - 1) >> 20) != (from >> 20))
                bl_fj_src_drop(pl->src, (i - 1) & ~BL_FJ_DROP_MASK);
            if (i >= upto)
                break;
        }
#endif
        size_t k = i + bl_jv_spaces(s + i, n - i);
        while (k < n && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k < n && s[k] != '\n') {
            if (pl->blank || s[k] == '>' || s[k] == '|' || s[k] == '#')
                return 0;
        } else if (k < n) {
            pl->blank = 1;
        }
        for (;;) {
#ifdef __SSE2__
            k = plain_skip(s, k, n);
#endif
            while (k + 4 <= n && !(look[(unsigned char)s[k]] | look[(unsigned char)s[k + 1]] |
                                   look[(unsigned char)s[k + 2]] | look[(unsigned char)s[k + 3]]))
                k += 4;
            while (k < n && !look[(unsigned char)s[k]])
                k++;
            if (k >= n || s[k] == '\n')
                break;
            if (s[k] == '"' && k + 1 < n && s[k + 1] != '"') { /* a JSON string's quote */
                k++;
                continue;
            }
            if (look[(unsigned char)s[k]] == 1 || markup_at(s, k, n))
                return 0;
            k++;
        }
        if (k - i > BL_TEXT_LINE_MAX)
            return 0;
        if ((k >> 20) != (i >> 20)) /* (what the document's read did not give back) */
            bl_fj_src_drop(pl->src, k & ~BL_FJ_DROP_MASK);
        i = pl->at = k + 1;
    }
    return 1;
}

/* Whether only whitespace follows byte off. */
static int rest_is_blank(const char *s, size_t off, size_t n)
{
    for (; off < n; off++)
        if (!strchr(" \t\n", s[off]))
            return 0;
    return 1;
}

int bl_fj_file_read(const char *path, const char *key, const bl_fj_stream *ops, void *ctx)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return 0;
    size_t n = (size_t)st.st_size, end = 0;
    madvise(map, n, MADV_SEQUENTIAL);
    bl_fj_src src;
    bl_fj_src_bytes(&src, map, n);
    plain pl;
    plain_init(&pl, &src);
    src.check = plain_upto;
    src.check_ctx = &pl;
    /* the document read while its bytes are checked; what it made is the caller's to drop
     * when they are refused after all */
    int ok = map[0] == '{' && bl_fj_stream_doc(&src, 0, key, ops, ctx, &end);
    if (map[0] != '{' || src.refused || !plain_upto(&pl, n))
        ok = 0;
    else if (ok && !rest_is_blank(map, end, n))
        ok = -1; /* read, but more follows: the caller drops it and reads the text */
    munmap(map, n);
    return ok;
}

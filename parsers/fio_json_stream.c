/* A fio JSON document read one element of its array at a time: the text is scanned for the
 * document's members and the array's elements, each read into a view (fio_jsonview.h) that
 * finds its end where it is plain JSON, else cut out (strings skipped, brackets counted) and
 * read by jansson from a small copy, so memory holds one job, not the tree of the whole
 * document (8x the file) nor a copy of the text. Anything but strict JSON of the
 * expected shape is left to the caller, who reads it whole as before: same records, same
 * messages. */
#include "fio_json_stream.h"
#include "../core/strbuf.h"
#include "fio_jsonutil.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Deeper than this the whole document might pass jansson's nesting limit (2048) where its
 * pieces do not: read whole. */
enum { MAX_DEPTH = 1000 };

#define DROP_MASK BL_FJ_DROP_MASK

/* Gives back the pages of a file's bytes before upto that this pass read: they are read
 * from the page cache again if a later pass needs them (the mapping is never written). */
void bl_fj_src_give_back(bl_fj_src *src, size_t upto)
{
    if (src->t)
        return;
    if (src->check && !src->refused && !src->check(src->check_ctx, upto))
        src->refused = 1;
    bl_fj_src_drop(src, upto);
}

void bl_fj_src_drop(bl_fj_src *src, size_t upto)
{
    if (src->t)
        return;
    /* A whole folio of the page cache (up to 2 MiB) behind: the kernel maps a large folio
     * whole when any of its pages is touched, so half of one given back while the other half
     * was being read came back, and the file's pages stayed in memory after all. */
    size_t folio = (size_t)2 << 20;
    upto = upto > folio ? (upto - folio) & ~(folio - 1) : 0;
    if (upto < src->dropped)
        src->dropped = 0; /* a new pass from further back */
    if (upto > src->dropped) {
        madvise((char *)src->s + src->dropped, upto - src->dropped, MADV_DONTNEED);
        src->dropped = upto;
    }
}

void bl_fj_src_text(bl_fj_src *src, const bl_text *t)
{
    *src = (bl_fj_src){.s = t->buf, .n = t->len, .t = t, .line_no = 1, .find_no = 1};
}

void bl_fj_src_bytes(bl_fj_src *src, const char *s, size_t n)
{
    *src = (bl_fj_src){.s = s, .n = n, .line_no = 1, .find_no = 1};
}

/* The '\n' among the len bytes at p, a word at a time: (b & 0x7f) + 0x7f | b has its top
 * bit clear only for a zero byte, with no carry into the next. */
static size_t count_nl(const char *p, size_t len)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, top = 0x8080808080808080ull;
    size_t c = 0, k = 0;
    for (; k + 8 <= len; k += 8) {
        uint64_t w;
        memcpy(&w, p + k, 8);
        w ^= 0x0a0a0a0a0a0a0a0aull;
        uint64_t zero = ~(((w & low7) + low7) | w) & top;
        c += (size_t)(((zero >> 7) * 0x0101010101010101ull) >> 56);
    }
    for (; k < len; k++)
        c += p[k] == '\n';
    return c;
}

/* The first place of the needle (nlen >= 1 bytes) among the bytes [p, e), the '\n' before
 * it counted in *nl: one pass where memmem and then count_nl over the same bytes were two
 * (a job's "jobname" line is found so, for every job). NULL when it is not there. */
static const char *find_nl(const char *p, const char *e, const char *needle, size_t nlen, long *nl)
{
    const char *hit = NULL;
    *nl = 0;
#ifdef __SSE2__
    if (nlen >= 2) {
        const __m128i c0 = _mm_set1_epi8(needle[0]), c1 = _mm_set1_epi8(needle[1]);
        const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
        __m128i acc = zero; /* line ends counted a byte lane each, summed before one can pass 255 */
        int lanes = 0;
        for (; e - p >= 17; p += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
            __m128i eq = _mm_cmpeq_epi8(v, lf);
            unsigned cand = (unsigned)_mm_movemask_epi8(
                _mm_and_si128(_mm_cmpeq_epi8(v, c0), _mm_cmpeq_epi8(w, c1)));
            for (; cand; cand &= cand - 1) {
                unsigned at = (unsigned)__builtin_ctz(cand);
                if ((size_t)(e - p - at) >= nlen && memcmp(p + at, needle, nlen) == 0) {
                    for (unsigned b = (unsigned)_mm_movemask_epi8(eq) & ((1u << at) - 1); b;
                         b &= b - 1)
                        ++*nl;
                    hit = p + at;
                    break;
                }
            }
            if (hit)
                break;
            acc = _mm_sub_epi8(acc, eq);
            if (++lanes == 255) {
                __m128i sum = _mm_sad_epu8(acc, zero);
                *nl += _mm_cvtsi128_si32(sum) + _mm_cvtsi128_si32(_mm_srli_si128(sum, 8));
                acc = zero;
                lanes = 0;
            }
        }
        __m128i sum = _mm_sad_epu8(acc, zero);
        *nl += _mm_cvtsi128_si32(sum) + _mm_cvtsi128_si32(_mm_srli_si128(sum, 8));
        if (hit)
            return hit;
    }
#endif
    hit = memmem(p, (size_t)(e - p), needle, nlen);
    if (hit)
        *nl += (long)count_nl(p, (size_t)(hit - p));
    return hit;
}

/* Moves a line cursor (pos starting line no) to the line holding off. */
static void count_lines(const bl_fj_src *src, size_t *pos, long *no, size_t off)
{
    if (off < *pos)
        *pos = 0, *no = 1;
    size_t e = off < src->n ? off : src->n;
    if (e <= *pos)
        return;
    const char *last = memrchr(src->s + *pos, '\n', e - *pos);
    if (!last)
        return;
    *no += (long)count_nl(src->s + *pos, (size_t)(last - src->s) - *pos + 1);
    *pos = (size_t)(last - src->s) + 1;
}

long bl_fj_src_line_at(bl_fj_src *src, size_t off)
{
    if (src->t)
        return bl_fj_line_at(src->t, off);
    if (src->find_pos <= off && src->find_pos > src->line_pos) { /* counted by a find */
        src->line_pos = src->find_pos;
        src->line_no = src->find_no;
    }
    for (size_t at = src->line_pos; at + DROP_MASK < off; at += DROP_MASK) {
        count_lines(src, &src->line_pos, &src->line_no, at + DROP_MASK);
        bl_fj_src_give_back(src, src->line_pos);
    }
    count_lines(src, &src->line_pos, &src->line_no, off);
    return src->line_no;
}

long bl_fj_src_find(bl_fj_src *src, long *at, long last, const char *needle)
{
    if (src->t) {
        const bl_text *t = src->t;
        for (long l = *at; l <= last && (size_t)l <= t->nlines; l++)
            if (strstr(t->line[l - 1], needle)) {
                *at = l + 1;
                return l;
            }
        return 0;
    }
    if (*at != src->find_no) { /* to line *at */
        if (*at < src->find_no)
            src->find_pos = 0, src->find_no = 1;
        while (src->find_no < *at && src->find_pos < src->n) {
            const char *nl = memchr(src->s + src->find_pos, '\n', src->n - src->find_pos);
            src->find_pos = nl ? (size_t)(nl - src->s) + 1 : src->n;
            src->find_no++;
        }
    }
    /* the first line holding needle is the line of its first place from here on */
    long nl;
    const char *hit = find_nl(src->s + src->find_pos, src->s + src->n, needle, strlen(needle), &nl);
    if (hit) {
        long no = src->find_no + nl;
        if (no <= last) {
            const char *nl = memchr(hit, '\n', src->n - (size_t)(hit - src->s));
            src->find_pos = nl ? (size_t)(nl - src->s) + 1 : src->n;
            src->find_no = no + 1;
            *at = src->find_no;
            return no;
        }
    }
    while (src->find_no <= last && src->find_pos < src->n) { /* to the line after last */
        const char *nl = memchr(src->s + src->find_pos, '\n', src->n - src->find_pos);
        src->find_pos = nl ? (size_t)(nl - src->s) + 1 : src->n;
        src->find_no++;
    }
    *at = src->find_no;
    return 0;
}

typedef struct scan {
    bl_fj_src *src;
    const char *s;
    size_t n, at;
    char *piece; /* the copy that is decoded, line ends back to '\n' */
    size_t cap;
    bl_jv view;
} scan;

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

static void skip_ws(scan *sc)
{
    while (sc->at < sc->n && is_ws(sc->s[sc->at]))
        sc->at++;
}

static int at_char(const scan *sc, char c)
{
    return sc->at < sc->n && sc->s[sc->at] == c;
}

/* Past the string that starts at sc->at; 0 when it does not end on its line. */
static int skip_string(scan *sc)
{
    static const unsigned char stop[256] = {['"'] = 1, ['\\'] = 1, ['\n'] = 1, ['\0'] = 1};
    const char *s = sc->s;
    for (size_t k = sc->at + 1; k < sc->n; k++) {
        while (k < sc->n && !stop[(unsigned char)s[k]])
            k++;
        if (k >= sc->n)
            return 0;
        char c = s[k];
        if (c == '\\')
            k++;
        else if (c == '"') {
            sc->at = k + 1;
            return 1;
        } else
            return 0;
    }
    return 0;
}

/* Past the value that starts at sc->at: a string, a run of scalar characters, or an
 * object or array to its matching bracket (whether the brackets pair up is jansson's to
 * say when it decodes the value). */
static int skip_value(scan *sc, int max_depth)
{
    const char *s = sc->s;
    if (sc->at >= sc->n)
        return 0;
    if (s[sc->at] == '"')
        return skip_string(sc);
    if (s[sc->at] != '{' && s[sc->at] != '[') {
        size_t k = sc->at;
        while (k < sc->n && !is_ws(s[k]) && s[k] != ',' && s[k] != '}' && s[k] != ']')
            k++;
        if (k == sc->at)
            return 0;
        sc->at = k;
        return 1;
    }
    static const unsigned char stop[256] = {['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1};
    int depth = 0;
    size_t drop = sc->at; /* pages given back up to here */
    for (size_t k = sc->at; k < sc->n; k++) {
        while (k < sc->n && !stop[(unsigned char)s[k]])
            k++;
        if (k >= sc->n)
            break;
        if ((k >> 20) != (drop >> 20))
            bl_fj_src_give_back(sc->src, drop = k & ~DROP_MASK);
        char c = s[k];
        if (c == '"') {
            sc->at = k;
            if (!skip_string(sc))
                return 0;
            k = sc->at - 1;
        } else if (c == '{' || c == '[') {
            if (++depth > max_depth)
                return 0;
        } else if (--depth == 0) {
            sc->at = k + 1;
            return 1;
        }
    }
    return 0;
}

/* A copy of bytes [from, to) as the document has them, '\0'-terminated. */
static char *copy(scan *sc, size_t from, size_t to)
{
    size_t len = to - from;
    if (len + 1 > sc->cap) {
        sc->cap = len + 1 > 2 * sc->cap ? len + 1 : 2 * sc->cap;
        free(sc->piece);
        sc->piece = bl_xmalloc(sc->cap);
    }
    memcpy(sc->piece, sc->s + from, len);
    for (char *p = sc->piece, *e = p + len; (p = memchr(p, '\0', (size_t)(e - p))); p++)
        *p = '\n';
    sc->piece[len] = '\0';
    return sc->piece;
}

/* The value at bytes [from, to), decoded as jansson would inside the document. */
static json_t *decode(scan *sc, size_t from, size_t to)
{
    json_error_t err;
    return json_loadb(copy(sc, from, to), to - from, JSON_DECODE_ANY, &err);
}

/* The element at bytes [from, to) to ops->element; 0 when jansson refuses it. */
static int element(scan *sc, size_t from, size_t to, size_t idx, const bl_fj_stream *ops, void *ctx)
{
    if (bl_jv_parse(&sc->view, copy(sc, from, to), to - from)) {
        ops->element(sc->view.nodes, idx, ctx);
        return 1;
    }
    json_t *el = decode(sc, from, to);
    if (!el)
        return 0;
    bl_jv_from_json(&sc->view, el);
    ops->element(sc->view.nodes, idx, ctx);
    json_decref(el);
    return 1;
}

/* A member's key at sc->at, decoded; NULL when it is not a string followed by ':'. */
static json_t *member_key(scan *sc)
{
    size_t kf = sc->at;
    if (!at_char(sc, '"') || !skip_string(sc))
        return NULL;
    json_t *k = decode(sc, kf, sc->at);
    skip_ws(sc);
    if (!json_is_string(k) || !at_char(sc, ':')) {
        json_decref(k);
        return NULL;
    }
    sc->at++;
    skip_ws(sc);
    return k;
}

/* Each element of the array at sc->at to ops->element, sc->at moved past it; 0 when it is
 * not strict JSON. An element is as deep as it may be inside the array (MAX_DEPTH in all). */
static int read_elements(scan *sc, const bl_fj_stream *ops, void *ctx)
{
    sc->at++; /* '[' */
    skip_ws(sc);
    if (at_char(sc, ']')) {
        sc->at++;
        return 1;
    }
    for (size_t idx = 0;; idx++) {
        skip_ws(sc);
        size_t ef = sc->at, len;
        if (bl_jv_read(&sc->view, sc->s + ef, sc->n - ef, &len, &sc->piece, &sc->cap)) {
            sc->at = ef + len; /* plain JSON: read, its end found, in one pass */
            ops->element(sc->view.nodes, idx, ctx);
            if ((sc->at >> 20) != (ef >> 20))
                bl_fj_src_give_back(sc->src, sc->at & ~DROP_MASK);
            if (sc->src->refused)
                return 0;
        } else if (!skip_value(sc, MAX_DEPTH - 1) || !element(sc, ef, sc->at, idx, ops, ctx)) {
            return 0;
        }
        skip_ws(sc);
        if (at_char(sc, ',')) {
            sc->at++;
            continue;
        }
        if (!at_char(sc, ']'))
            return 0;
        sc->at++;
        return 1;
    }
}

static int is_begin_key(const bl_fj_stream *ops, const char *k)
{
    for (const char *const *b = ops->begin_keys; b && *b; b++)
        if (strcmp(*b, k) == 0)
            return 1;
    return 0;
}

/* The document at off, in one pass when `once`: begin is given the members before the array
 * and no last line, and what the elements made stands when no member after the array is one
 * begin reads or one given before, and ops->last_ok says so. -1: not so, read it again in
 * two passes (the array skipped first to see the whole head and the last line). */
static int stream_doc(bl_fj_src *src, size_t off, const char *key, const bl_fj_stream *ops,
                      void *ctx, size_t *end, int once)
{
    scan sc = {.src = src, .s = src->s, .n = src->n, .at = off};
    json_t *head = json_object();
    size_t arr_from = 0, arr_to = 0;
    int ok = 0, begun = 0;
    long first = bl_fj_src_line_at(src, off);
    if (!at_char(&sc, '{'))
        goto out;
    sc.at++;
    skip_ws(&sc);
    for (;;) {
        skip_ws(&sc);
        json_t *k = member_key(&sc);
        if (!k)
            goto out;
        const char *name = json_string_value(k);
        size_t vf = sc.at;
        int good;
        if (strcmp(name, key) == 0) { /* once, and an array */
            good = arr_to == 0 && at_char(&sc, '[');
            if (good && once) {
                ops->begin(head, first, LONG_MAX, src, ctx);
                begun = 1;
                good = read_elements(&sc, ops, ctx);
            } else if (good) {
                good = skip_value(&sc, MAX_DEPTH);
            }
            arr_from = vf;
            arr_to = sc.at;
        } else if (begun && (json_object_get(head, name) || is_begin_key(ops, name))) {
            good = ok = -1;
        } else {
            json_t *v = skip_value(&sc, MAX_DEPTH) ? decode(&sc, vf, sc.at) : NULL;
            good = v && json_object_set_new(head, name, v) == 0;
        }
        json_decref(k);
        if (good != 1)
            goto out;
        skip_ws(&sc);
        if (at_char(&sc, ',')) {
            sc.at++;
            continue;
        }
        if (!at_char(&sc, '}') || arr_to == 0)
            goto out;
        sc.at++;
        break;
    }
    size_t doc_end = sc.at;
    long last = bl_fj_src_line_at(src, doc_end);
    if (once) {
        ok = ops->last_ok(last, ctx) ? 1 : -1;
    } else {
        ops->begin(head, first, last, src, ctx);
        begun = 1;
        sc.at = arr_from;
        ok = read_elements(&sc, ops, ctx) && sc.at == arr_to;
        sc.at = doc_end;
    }
    if (ok == 1)
        ops->end(head, ctx);
out:
    if (begun && ok != 1)
        ops->abort(ctx);
    free(sc.piece);
    bl_jv_free(&sc.view);
    json_decref(head);
    *end = sc.at;
    return ok;
}

int bl_fj_stream_doc(bl_fj_src *src, size_t off, const char *key, const bl_fj_stream *ops,
                     void *ctx, size_t *end)
{
    int ok = stream_doc(src, off, key, ops, ctx, end, 1);
    if (ok < 0)
        ok = stream_doc(src, off, key, ops, ctx, end, 0);
    return ok == 1;
}

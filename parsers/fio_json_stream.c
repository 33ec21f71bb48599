/* A fio JSON document read one element of its array at a time: the text is scanned for the
 * document's members and the array's elements (strings skipped, brackets counted) and each
 * is read alone from a small copy, into a view (fio_jsonview.h: by jsmn where it is plain
 * JSON, else by jansson), so memory holds one job, not the tree of the whole document (8x
 * the file) nor a copy of the text. Anything but strict JSON of the
 * expected shape is left to the caller, who reads it whole as before: same records, same
 * messages. */
#include "fio_json_stream.h"
#include "../core/strbuf.h"
#include "fio_jsonutil.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    upto -= upto % page;
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

/* Moves a line cursor (pos starting line no) to the line holding off. */
static void count_lines(const bl_fj_src *src, size_t *pos, long *no, size_t off)
{
    if (off < *pos)
        *pos = 0, *no = 1;
    const char *p = src->s + *pos, *e = src->s + (off < src->n ? off : src->n);
    while (p < e && (p = memchr(p, '\n', (size_t)(e - p)))) {
        p++;
        (*no)++;
        *pos = (size_t)(p - src->s);
    }
}

long bl_fj_src_line_at(bl_fj_src *src, size_t off)
{
    if (src->t)
        return bl_fj_line_at(src->t, off);
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
    size_t nlen = strlen(needle);
    while (src->find_no <= last && src->find_pos < src->n) {
        const char *l = src->s + src->find_pos;
        const char *nl = memchr(l, '\n', src->n - src->find_pos);
        size_t len = nl ? (size_t)(nl - l) : src->n - src->find_pos;
        long no = src->find_no;
        src->find_pos += len + (nl != NULL);
        src->find_no++;
        if (memmem(l, len, needle, nlen)) {
            *at = src->find_no;
            return no;
        }
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
    for (size_t k = sc->at + 1; k < sc->n; k++) {
        char c = sc->s[k];
        if (c == '\\')
            k++;
        else if (c == '"') {
            sc->at = k + 1;
            return 1;
        } else if (c == '\0' || c == '\n')
            return 0;
    }
    return 0;
}

/* Past the value that starts at sc->at: a string, a run of scalar characters, or an
 * object or array to its matching bracket (whether the brackets pair up is jansson's to
 * say when it decodes the value). */
static int skip_value(scan *sc)
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
    int depth = 0;
    for (size_t k = sc->at; k < sc->n; k++) {
        if ((k & DROP_MASK) == 0)
            bl_fj_src_give_back(sc->src, k);
        char c = s[k];
        if (c == '"') {
            sc->at = k;
            if (!skip_string(sc))
                return 0;
            k = sc->at - 1;
        } else if (c == '{' || c == '[') {
            if (++depth > MAX_DEPTH)
                return 0;
        } else if ((c == '}' || c == ']') && --depth == 0) {
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

/* One member "name": value at sc->at into head, or the array's place when it is `key`. */
static int member(scan *sc, json_t *head, const char *key, size_t *arr_from, size_t *arr_to)
{
    size_t kf = sc->at;
    if (!at_char(sc, '"') || !skip_string(sc))
        return 0;
    json_t *k = decode(sc, kf, sc->at);
    int ok = 0;
    skip_ws(sc);
    if (json_is_string(k) && at_char(sc, ':')) {
        sc->at++;
        skip_ws(sc);
        size_t vf = sc->at;
        if (skip_value(sc)) {
            if (strcmp(json_string_value(k), key) == 0) { /* once, and an array */
                ok = *arr_to == 0 && sc->s[vf] == '[';
                *arr_from = vf;
                *arr_to = sc->at;
            } else {
                json_t *v = decode(sc, vf, sc->at);
                ok = v && json_object_set_new(head, json_string_value(k), v) == 0;
            }
        }
    }
    json_decref(k);
    return ok;
}

/* The document's members other than the array, and where the array is; 0 when it is not
 * strict JSON or has no such array. */
static int read_head(scan *sc, json_t *head, const char *key, size_t *arr_from, size_t *arr_to)
{
    sc->at++; /* '{' */
    skip_ws(sc);
    if (at_char(sc, '}'))
        return 0; /* no array */
    for (;;) {
        skip_ws(sc);
        if (!member(sc, head, key, arr_from, arr_to))
            return 0;
        skip_ws(sc);
        if (at_char(sc, ',')) {
            sc->at++;
            continue;
        }
        if (!at_char(sc, '}'))
            return 0;
        sc->at++;
        return *arr_to != 0;
    }
}

/* Each element of the array at [from, to) to ops->element; 0 when it is not strict JSON. */
static int read_elements(scan *sc, size_t from, size_t to, const bl_fj_stream *ops, void *ctx)
{
    sc->at = from + 1;
    skip_ws(sc);
    if (at_char(sc, ']'))
        return sc->at + 1 == to;
    for (size_t idx = 0;; idx++) {
        skip_ws(sc);
        size_t ef = sc->at;
        if (!skip_value(sc) || sc->at >= to)
            return 0;
        if (!element(sc, ef, sc->at, idx, ops, ctx))
            return 0;
        skip_ws(sc);
        if (at_char(sc, ',')) {
            sc->at++;
            continue;
        }
        return at_char(sc, ']') && sc->at + 1 == to;
    }
}

int bl_fj_stream_doc(bl_fj_src *src, size_t off, const char *key, const bl_fj_stream *ops,
                     void *ctx, size_t *end)
{
    scan sc = {.src = src, .s = src->s, .n = src->n, .at = off};
    json_t *head = json_object();
    size_t arr_from = 0, arr_to = 0;
    int ok = at_char(&sc, '{') && read_head(&sc, head, key, &arr_from, &arr_to);
    size_t doc_end = sc.at;
    if (ok) {
        long first = bl_fj_src_line_at(src, off), last = bl_fj_src_line_at(src, doc_end);
        ops->begin(head, first, last, src, ctx);
        ok = read_elements(&sc, arr_from, arr_to, ops, ctx);
        if (ok)
            ops->end(head, ctx);
        else
            ops->abort(ctx);
    }
    free(sc.piece);
    bl_jv_free(&sc.view);
    json_decref(head);
    *end = doc_end;
    return ok;
}

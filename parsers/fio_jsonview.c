/* A read-only view of one JSON value (fio_jsonview.h). The text is read in one pass that
 * checks it against strict JSON as it goes and takes only what jansson would read the same,
 * so that the view never says what jansson would not; the same pass finds where the value
 * ends (issue 26: jsmn's tokens, a walk checking them and a scan for a job's end were three
 * passes, a third of the time). */
#include "fio_jsonview.h"
#include "../core/record.h"
#include "../core/strbuf.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

void bl_jv_free(bl_jv *v)
{
    free(v->nodes);
    free(v->seen);
    *v = (bl_jv){0};
}

static bl_jv_node *grow(bl_jv *v, size_t n)
{
    if (n > v->cap) {
        v->cap = n > 2 * v->cap ? n : 2 * v->cap;
        v->nodes = bl_xrealloc(v->nodes, v->cap * sizeof *v->nodes);
    }
    return v->nodes;
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The JSON number at s (bytes up to e), with the value jansson gives it: an integer by
 * strtoll (refused when out of range, as jansson refuses it), a real by strtod, which is what
 * one division or product of exact doubles gives too when the digits and the power of ten
 * are small. Returns where it ends (the caller checks a delimiter follows), NULL for no
 * number. */
static const char *number(const char *s, const char *e, bl_jv_node *nd)
{
    const char *k = s;
    int neg = *k == '-';
    k += neg;
    if (k >= e || !is_digit(*k))
        return NULL;
    uint64_t m = 0; /* the first 19 significant digits */
    int sig = 0, frac = 0, real = 0;
    if (*k == '0')
        k++;
    else
        for (; k < e && is_digit(*k); k++)
            if (sig++ < 19)
                m = m * 10 + (uint64_t)(*k - '0');
    if (k < e && *k == '.') {
        real = 1;
        k++;
        if (k >= e || !is_digit(*k))
            return NULL;
        for (; k < e && is_digit(*k); k++, frac++) {
            if (m == 0 && *k == '0')
                continue; /* a leading zero */
            if (sig++ < 19)
                m = m * 10 + (uint64_t)(*k - '0');
        }
    }
    long exp = 0;
    if (k < e && (*k == 'e' || *k == 'E')) {
        real = 1;
        k++;
        int eneg = k < e && *k == '-';
        if (k < e && (*k == '-' || *k == '+'))
            k++;
        if (k >= e || !is_digit(*k))
            return NULL;
        for (; k < e && is_digit(*k); k++)
            if (exp < 100000)
                exp = exp * 10 + (*k - '0');
        exp = eneg ? -exp : exp;
    }
    /* (strtoll and strtod stop where this did: a delimiter follows) */
    if (!real) {
        if (sig <= 18) {
            nd->i = neg ? -(int64_t)m : (int64_t)m;
        } else {
            errno = 0;
            nd->i = strtoll(s, NULL, 10);
            if (errno == ERANGE)
                return NULL;
        }
        nd->type = BL_JV_INT;
        nd->d = (double)nd->i;
        return k;
    }
    nd->type = BL_JV_REAL;
    long p10 = exp - frac;
    if (sig <= 15 && p10 >= -22 && p10 <= 22) {
        double d = (double)m;
        d = p10 < 0 ? d / pow10_exact[-p10] : d * pow10_exact[p10];
        nd->d = neg ? -d : d;
        return k;
    }
    errno = 0;
    nd->d = strtod(s, NULL);
    return (nd->d == HUGE_VAL || nd->d == -HUGE_VAL) && errno == ERANGE ? NULL : k;
}

/* A key's hash from its length and its first and last eight bytes (a shorter key's all:
 * eight read at once where the text (to e) holds them, its own kept). */
static uint32_t key_hash(const char *k, size_t len, const char *e)
{
    uint64_t a = 0, b = 0;
    if (len >= 8) {
        memcpy(&a, k, 8);
        memcpy(&b, k + len - 8, 8);
    } else if ((size_t)(e - k) >= 8) {
        memcpy(&a, k, 8);
        a &= ~(~0ull << (8 * len)); /* (len < 8) */
    } else {
        for (size_t i = 0; i < len; i++)
            a = a << 8 | (unsigned char)k[i];
    }
    uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull) ^ len) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32);
}

/* Whether an object's keys (nodes of o, each a text and its length in i) hold one twice:
 * jansson keeps the first's place and the last's value, which the view does not copy. */
static int keys_repeat(bl_jv *v, size_t o, const char *e)
{
    bl_jv_node *nd = v->nodes;
    uint32_t n = nd[o].size;
    if (n < 2)
        return 0;
    size_t want = 4;
    while (want < 2 * (size_t)n)
        want *= 2;
    if (want > v->nseen) {
        free(v->seen);
        v->seen = bl_xmalloc(want * sizeof *v->seen);
        v->nseen = want;
    }
    memset(v->seen, 0, want * sizeof *v->seen);
    size_t k = o + 1;
    for (uint32_t m = 0; m < n; m++, k += 1 + nd[k + 1].span) {
        uint32_t h = key_hash(nd[k].str, (size_t)nd[k].i, e);
        for (size_t at = h & (want - 1);; at = (at + 1) & (want - 1)) {
            bl_jv_node *seen = &nd[v->seen[at]];
            if (!v->seen[at]) {
                v->seen[at] = (uint32_t)k; /* k > 0: a key is never the first node */
                break;
            }
            if (seen->i == nd[k].i && memcmp(seen->str, nd[k].str, (size_t)nd[k].i) == 0)
                return 1;
        }
    }
    return 0;
}

/* The reading of one value: p the next byte, e the end; ws the bytes taken as whitespace.
 * The text is only read: a string's node points into it (its length in i) until place(). */
typedef struct rd {
    bl_jv *v;
    const char *p, *e;
    const unsigned char *ws, *delim;
} rd;

/* JSON's whitespace; and with '\0', a loaded text's line end. */
static const unsigned char ws_json[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};
static const unsigned char ws_nul[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [0] = 1};
/* What ends a scalar, as in jsmn's strict mode (the reader before this one); and '\0'. */
static const unsigned char delim_json[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [','] = 1, [']'] = 1, ['}'] = 1};
static const unsigned char delim_nul[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [','] = 1, [']'] = 1, ['}'] = 1, [0] = 1};

/* Whitespace: in a pretty-printed JSON one space after a ':', or a line end and the next
 * line's indentation, taken sixteen bytes at a time. */
static inline void skip_ws(rd *r)
{
    const char *p = r->p, *e = r->e;
    while (p < e && r->ws[(unsigned char)*p]) {
        p++;
        if (p < e && *p == ' ')
            p += bl_jv_spaces(p, (size_t)(e - p));
    }
    r->p = p;
}

static size_t push(bl_jv *v)
{
    if (v->n == v->cap)
        grow(v, v->n + 1);
    return v->n++;
}

/* What ends a string's plain bytes: the quote, the backslash, any byte but printable ASCII. */
#define X16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
/* clang-format off */
static const unsigned char stop[256] = {
    X16(1), X16(1),
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20: '"' */
    X16(0), X16(0),
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x50: '\\' */
    X16(0),
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, /* 0x7f */
    X16(1), X16(1), X16(1), X16(1), X16(1), X16(1), X16(1), X16(1)};
/* clang-format on */
#undef X16

/* The string at r->p (its quote) into node at: printable ASCII without escapes only. */
static int string(rd *r, size_t at)
{
    const char *q = r->p + 1;
#ifdef __SSE2__
    for (; q + 16 <= r->e; q += 16) {
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)q);
        /* signed: below 0x20 is a control byte or one of 0x80 and up */
        __m128i m = _mm_or_si128(_mm_cmplt_epi8(c, _mm_set1_epi8(0x20)),
                                 _mm_cmpeq_epi8(c, _mm_set1_epi8(0x7f)));
        m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('"')),
                                         _mm_cmpeq_epi8(c, _mm_set1_epi8('\\'))));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits) {
            q += __builtin_ctz(bits);
            goto end;
        }
    }
#endif
    while (q + 4 <= r->e && !(stop[(unsigned char)q[0]] | stop[(unsigned char)q[1]] |
                              stop[(unsigned char)q[2]] | stop[(unsigned char)q[3]]))
        q += 4;
    while (q < r->e && !stop[(unsigned char)*q])
        q++;
#ifdef __SSE2__
end:
#endif
    if (q >= r->e || *q != '"')
        return 0;
    r->v->nodes[at] =
        (bl_jv_node){.type = BL_JV_STR, .span = 1, .str = r->p + 1, .i = (int64_t)(q - r->p - 1)};
    r->p = q + 1;
    return 1;
}

/* A scalar: true, false, null or a number, up to a delimiter (there must be one). A number
 * is read as it is scanned: what it stops at must be the delimiter, as any other byte (all
 * but a number's are) would have been refused after a scan to the delimiter too. */
static int scalar(rd *r, size_t at)
{
    const char *a = r->p, *q = a;
    bl_jv_node *nd = &r->v->nodes[at];
    *nd = (bl_jv_node){.span = 1};
    if (*a == '-' || is_digit(*a)) {
        q = number(a, r->e, nd);
        if (!q || q >= r->e || !r->delim[(unsigned char)*q])
            return 0;
        r->p = q;
        return 1;
    }
    for (; q < r->e && !r->delim[(unsigned char)*q]; q++)
        if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f)
            return 0;
    if (q >= r->e)
        return 0;
    size_t len = (size_t)(q - a);
    if (len == 4 && memcmp(a, "true", 4) == 0)
        nd->type = BL_JV_TRUE;
    else if (len == 5 && memcmp(a, "false", 5) == 0)
        nd->type = BL_JV_FALSE;
    else if (len == 4 && memcmp(a, "null", 4) == 0)
        nd->type = BL_JV_NULL;
    else
        return 0;
    r->p = q;
    return 1;
}

/* The value at r->p (not whitespace) and all it holds, r->p moved past it. */
static int value(rd *r, int depth)
{
    if (r->p >= r->e || depth > MAX_DEPTH)
        return 0;
    size_t at = push(r->v);
    char open = *r->p;
    if (open == '"')
        return string(r, at);
    if (open != '{' && open != '[')
        return scalar(r, at);
    int obj = open == '{';
    char close = obj ? '}' : ']';
    uint32_t size = 0;
    r->p++;
    skip_ws(r);
    if (r->p < r->e && *r->p == close) {
        r->p++;
    } else {
        for (;;) {
            if (obj) {
                if (r->p >= r->e || *r->p != '"' || !string(r, push(r->v)))
                    return 0;
                skip_ws(r);
                if (r->p >= r->e || *r->p != ':')
                    return 0;
                r->p++;
                skip_ws(r);
            }
            if (!value(r, depth + 1))
                return 0;
            size++;
            skip_ws(r);
            if (r->p >= r->e)
                return 0;
            if (*r->p == ',') {
                r->p++;
                skip_ws(r);
                continue;
            }
            if (*r->p != close)
                return 0;
            r->p++;
            break;
        }
    }
    r->v->nodes[at] = (bl_jv_node){
        .type = obj ? BL_JV_OBJ : BL_JV_ARR, .size = size, .span = (uint32_t)(r->v->n - at)};
    return !(obj && keys_repeat(r->v, at, r->e));
}

/* The strings of nodes read from text s made C strings in buf, a copy of s (or s itself):
 * each ends where its closing quote was. */
static void place(bl_jv *v, const char *s, char *buf)
{
    for (size_t k = 0; k < v->n; k++) {
        bl_jv_node *nd = &v->nodes[k];
        if (nd->type == BL_JV_STR) {
            size_t off = (size_t)(nd->str - s);
            buf[off + (size_t)nd->i] = '\0';
            nd->str = buf + off;
        }
    }
}

/* The value at s (n bytes; nul: '\0' is whitespace too): 1 and the bytes it takes in *len. */
static int read_value(bl_jv *v, const char *s, size_t n, int nul, size_t *len)
{
    if (n == 0 || n >= INT32_MAX)
        return 0;
    rd r = {.v = v,
            .p = s,
            .e = s + n,
            .ws = nul ? ws_nul : ws_json,
            .delim = nul ? delim_nul : delim_json};
    v->n = 0;
    if (!value(&r, 0))
        return 0;
    *len = (size_t)(r.p - s);
    return 1;
}

int bl_jv_parse(bl_jv *v, char *s, size_t n)
{
    size_t len;
    rd r = {.p = s, .e = s + n, .ws = ws_json};
    skip_ws(&r);
    size_t lead = (size_t)(r.p - s);
    if (!read_value(v, r.p, n - lead, 0, &len))
        return 0;
    r.p += len;
    skip_ws(&r);
    if (r.p != r.e)
        return 0;
    place(v, s, s);
    return 1;
}

int bl_jv_read(bl_jv *v, const char *s, size_t n, size_t *len, char **buf, size_t *cap)
{
    if (!read_value(v, s, n, 1, len))
        return 0;
    if (*len + 1 > *cap) {
        *cap = *len + 1 > 2 * *cap ? *len + 1 : 2 * *cap;
        free(*buf);
        *buf = bl_xmalloc(*cap);
    }
    memcpy(*buf, s, *len);
    (*buf)[*len] = '\0';
    place(v, s, *buf);
    return 1;
}

static void from_json(bl_jv *v, json_t *j)
{
    grow(v, v->n + 1);
    size_t at = v->n++;
    bl_jv_node nd = {.span = 1};
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *m;
        nd.type = BL_JV_OBJ;
        nd.size = (uint32_t)json_object_size(j);
        json_object_foreach(j, k, m)
        {
            grow(v, v->n + 1);
            v->nodes[v->n++] =
                (bl_jv_node){.type = BL_JV_STR, .span = 1, .str = k, .i = (int64_t)strlen(k)};
            from_json(v, m);
        }
        break;
    }
    case JSON_ARRAY: {
        size_t idx;
        json_t *e;
        nd.type = BL_JV_ARR;
        nd.size = (uint32_t)json_array_size(j);
        json_array_foreach(j, idx, e)
        {
            from_json(v, e);
        }
        break;
    }
    case JSON_STRING:
        nd.type = BL_JV_STR;
        nd.str = json_string_value(j);
        nd.i = (int64_t)strlen(nd.str); /* (to a '\0' in it, as a C string goes) */
        break;
    case JSON_INTEGER:
        nd.type = BL_JV_INT;
        nd.i = json_integer_value(j);
        nd.d = json_number_value(j);
        break;
    case JSON_REAL:
        nd.type = BL_JV_REAL;
        nd.d = json_real_value(j);
        break;
    case JSON_TRUE:
        nd.type = BL_JV_TRUE;
        break;
    case JSON_FALSE:
        nd.type = BL_JV_FALSE;
        break;
    default:
        nd.type = BL_JV_NULL;
    }
    nd.span = (uint32_t)(v->n - at);
    v->nodes[at] = nd;
}

void bl_jv_from_json(bl_jv *v, json_t *j)
{
    v->n = 0;
    if (j)
        from_json(v, j);
}

const bl_jv_node *bl_jv_getn(const bl_jv_node *o, const char *key, size_t len)
{
    size_t idx;
    const bl_jv_node *k;
    bl_jv_foreach(o, idx, k)
    {
        if ((size_t)k->i == len && memcmp(k->str, key, len) == 0)
            return k + 1;
    }
    return NULL;
}

int64_t bl_jv_int(const bl_jv_node *v)
{
    return v && v->type == BL_JV_INT ? v->i : 0;
}

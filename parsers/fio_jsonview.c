/* A read-only view of one JSON value (fio_jsonview.h). jsmn cuts the text into tokens
 * without a check of what lies between them nor of what a number or a string holds; the walk
 * below checks all of it against strict JSON and takes only what jansson would read the
 * same, so that the view never says what jansson would not. */
#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#include "fio_jsonview.h"
#include "../core/record.h"
#include "../core/strbuf.h"
#include <errno.h>
#include <jsmn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

void bl_jv_free(bl_jv *v)
{
    free(v->nodes);
    free(v->tok);
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

typedef struct walk {
    bl_jv *v;
    char *s;
    const jsmntok_t *tok;
    size_t ntok, c; /* c: the first byte not yet checked */
} walk;

static int is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static void skip_ws(walk *w)
{
    while (is_ws(w->s[w->c]))
        w->c++;
}

/* Whitespace only up to byte to. */
static int ws_to(walk *w, size_t to)
{
    skip_ws(w);
    return w->c == to;
}

static int punct(walk *w, char want)
{
    skip_ws(w);
    if (w->s[w->c] != want)
        return 0;
    w->c++;
    return 1;
}

/* A string's bytes [a, b): printable ASCII without escapes, made a C string in place. */
static const char *plain_string(char *s, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c < 0x20 || c >= 0x7f || c == '\\')
            return NULL;
    }
    s[b] = '\0';
    return s + a;
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A JSON number at [a, b), with the value jansson gives it: an integer by strtoll (refused
 * when out of range, as jansson refuses it), a real by strtod, which is what one division
 * or product of exact doubles gives too when the digits and the power of ten are small. */
static int number(const char *s, size_t a, size_t b, bl_jv_node *nd)
{
    size_t k = a;
    int neg = s[k] == '-';
    k += (size_t)neg;
    if (k >= b || !is_digit(s[k]))
        return 0;
    uint64_t m = 0; /* the first 19 significant digits */
    int sig = 0, frac = 0, real = 0;
    if (s[k] == '0')
        k++;
    else
        for (; k < b && is_digit(s[k]); k++)
            if (sig++ < 19)
                m = m * 10 + (uint64_t)(s[k] - '0');
    if (k < b && s[k] == '.') {
        real = 1;
        k++;
        if (k >= b || !is_digit(s[k]))
            return 0;
        for (; k < b && is_digit(s[k]); k++, frac++) {
            if (m == 0 && s[k] == '0')
                continue; /* a leading zero */
            if (sig++ < 19)
                m = m * 10 + (uint64_t)(s[k] - '0');
        }
    }
    long exp = 0;
    if (k < b && (s[k] == 'e' || s[k] == 'E')) {
        real = 1;
        k++;
        int eneg = k < b && s[k] == '-';
        if (k < b && (s[k] == '-' || s[k] == '+'))
            k++;
        if (k >= b || !is_digit(s[k]))
            return 0;
        for (; k < b && is_digit(s[k]); k++)
            if (exp < 100000)
                exp = exp * 10 + (s[k] - '0');
        exp = eneg ? -exp : exp;
    }
    if (k != b)
        return 0;
    if (!real) {
        if (sig <= 18) {
            nd->i = neg ? -(int64_t)m : (int64_t)m;
        } else {
            errno = 0;
            nd->i = strtoll(s + a, NULL, 10);
            if (errno == ERANGE)
                return 0;
        }
        nd->type = BL_JV_INT;
        nd->d = (double)nd->i;
        return 1;
    }
    nd->type = BL_JV_REAL;
    long p10 = exp - frac;
    if (sig <= 15 && p10 >= -22 && p10 <= 22) {
        double d = (double)m;
        d = p10 < 0 ? d / pow10_exact[-p10] : d * pow10_exact[p10];
        nd->d = neg ? -d : d;
        return 1;
    }
    errno = 0;
    nd->d = strtod(s + a, NULL);
    return !((nd->d == HUGE_VAL || nd->d == -HUGE_VAL) && errno == ERANGE);
}

/* Whether an object's keys (nodes of o) hold one twice: jansson keeps the first's place and
 * the last's value, which the view does not copy. */
static int keys_repeat(bl_jv *v, size_t o)
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
        uint32_t h = 2166136261u;
        for (const char *p = nd[k].str; *p; p++)
            h = (h ^ (unsigned char)*p) * 16777619u;
        for (size_t at = h & (want - 1);; at = (at + 1) & (want - 1)) {
            if (!v->seen[at]) {
                v->seen[at] = (uint32_t)k; /* k > 0: a key is never the first node */
                break;
            }
            if (strcmp(nd[v->seen[at]].str, nd[k].str) == 0)
                return 1;
        }
    }
    return 0;
}

/* The key at token i, made a C string: a string whose value follows it. */
static int key(walk *w, size_t i)
{
    const jsmntok_t *t = i < w->ntok ? &w->tok[i] : NULL;
    if (!t || t->type != JSMN_STRING || t->size != 1 || !ws_to(w, (size_t)t->start - 1))
        return 0;
    const char *str = plain_string(w->s, (size_t)t->start, (size_t)t->end);
    w->v->nodes[i] = (bl_jv_node){.type = BL_JV_STR, .span = 1, .str = str};
    w->c = (size_t)t->end + 1;
    return str != NULL;
}

/* The value of token i (and all it holds) into the nodes from i on; the token after it, or
 * 0 when the text is not what the view takes. */
static size_t value(walk *w, size_t i, int depth)
{
    if (i >= w->ntok || depth > MAX_DEPTH)
        return 0;
    const jsmntok_t *t = &w->tok[i];
    bl_jv_node *nd = &w->v->nodes[i];
    *nd = (bl_jv_node){.span = 1};
    size_t from = (size_t)t->start - (t->type == JSMN_STRING);
    if (!ws_to(w, from))
        return 0;
    size_t next = i + 1;
    switch (t->type) {
    case JSMN_STRING:
        nd->type = BL_JV_STR;
        if (t->size != 0 || !(nd->str = plain_string(w->s, (size_t)t->start, (size_t)t->end)))
            return 0;
        w->c = (size_t)t->end + 1;
        return next;
    case JSMN_PRIMITIVE: {
        const char *p = w->s + t->start;
        size_t len = (size_t)(t->end - t->start);
        if (len == 4 && memcmp(p, "true", 4) == 0)
            nd->type = BL_JV_TRUE;
        else if (len == 5 && memcmp(p, "false", 5) == 0)
            nd->type = BL_JV_FALSE;
        else if (len == 4 && memcmp(p, "null", 4) == 0)
            nd->type = BL_JV_NULL;
        else if (!number(w->s, (size_t)t->start, (size_t)t->end, nd))
            return 0;
        w->c = (size_t)t->end;
        return next;
    }
    case JSMN_OBJECT:
    case JSMN_ARRAY: {
        int obj = t->type == JSMN_OBJECT;
        uint32_t size = (uint32_t)t->size;
        w->c = (size_t)t->start + 1;
        for (uint32_t m = 0; m < size; m++) {
            if (m && !punct(w, ','))
                return 0;
            if (obj) {
                if (!key(w, next) || !punct(w, ':'))
                    return 0;
                next++;
            }
            next = value(w, next, depth + 1);
            if (!next)
                return 0;
        }
        if (!punct(w, obj ? '}' : ']') || w->c != (size_t)t->end)
            return 0;
        nd = &w->v->nodes[i];
        nd->type = obj ? BL_JV_OBJ : BL_JV_ARR;
        nd->size = size;
        nd->span = (uint32_t)(next - i);
        if (obj && keys_repeat(w->v, i))
            return 0;
        return next;
    }
    default:
        return 0;
    }
}

int bl_jv_parse(bl_jv *v, char *s, size_t n)
{
    if (n == 0 || n >= INT32_MAX)
        return 0;
    jsmn_parser p;
    jsmn_init(&p);
    int r;
    if (!v->tok)
        v->tok = bl_xmalloc((v->ntok = 1024) * sizeof(jsmntok_t));
    /* jsmn takes more tokens and goes on where it stopped */
    while ((r = jsmn_parse(&p, s, n, v->tok, (unsigned)v->ntok)) == JSMN_ERROR_NOMEM)
        v->tok = bl_xrealloc(v->tok, (v->ntok *= 2) * sizeof(jsmntok_t));
    if (r <= 0)
        return 0;
    grow(v, (size_t)r);
    walk w = {.v = v, .s = s, .tok = v->tok, .ntok = (size_t)r};
    size_t end = value(&w, 0, 0);
    if (end != (size_t)r || !ws_to(&w, n))
        return 0;
    v->n = end;
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
            v->nodes[v->n++] = (bl_jv_node){.type = BL_JV_STR, .span = 1, .str = k};
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

const bl_jv_node *bl_jv_get(const bl_jv_node *o, const char *key)
{
    size_t idx;
    const bl_jv_node *k;
    bl_jv_foreach(o, idx, k)
    {
        if (k->str[0] == key[0] && strcmp(k->str, key) == 0)
            return k + 1;
    }
    return NULL;
}

int bl_jv_is_number(const bl_jv_node *v)
{
    return v && (v->type == BL_JV_INT || v->type == BL_JV_REAL);
}

double bl_jv_num(const bl_jv_node *o, const char *key)
{
    const bl_jv_node *v = bl_jv_get(o, key);
    return bl_jv_is_number(v) ? v->d : BL_ABSENT;
}

const char *bl_jv_str(const bl_jv_node *o, const char *key)
{
    const bl_jv_node *v = bl_jv_get(o, key);
    return v && v->type == BL_JV_STR ? v->str : NULL;
}

int64_t bl_jv_int(const bl_jv_node *v)
{
    return v && v->type == BL_JV_INT ? v->i : 0;
}

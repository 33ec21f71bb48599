/* The JSON scanner of json_scan.h. */
#include "json_scan.h"
#include <string.h>

void bl_js_ws(bl_js *s)
{
    while (s->p < s->e && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* One UTF-8 sequence at p (strictly valid, as jansson wants); its length or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *e)
{
    unsigned c = p[0];
    size_t n = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (!n || (size_t)(e - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0) || (c == 0xF0 && p[1] < 0x90) ||
        (c == 0xF4 && p[1] >= 0x90))
        return 0; /* overlong, surrogate, past U+10FFFF */
    return n;
}

/* A string at s->p (the opening quote); its text into out when out is given. Escapes other
 * than the two-character ones (\uXXXX) are left to the decoder. */
int bl_js_string(bl_js *s, bl_strbuf *out)
{
    if (s->p >= s->e || *s->p != '"')
        return -1;
    s->p++;
    if (out)
        bl_strbuf_reset(out);
    while (s->p < s->e) {
        const char *run = s->p;
        while (s->p < s->e && *s->p != '"' && *s->p != '\\' && (unsigned char)*s->p >= 0x20 &&
               (unsigned char)*s->p < 0x80)
            s->p++;
        if (out && s->p > run)
            bl_strbuf_putn(out, run, (size_t)(s->p - run));
        if (s->p >= s->e)
            return -1;
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            if (out && !out->s)
                bl_strbuf_puts(out, "");
            return 0;
        }
        if (c < 0x20)
            return -1;
        if (c >= 0x80) {
            size_t n = utf8_len((const unsigned char *)s->p, (const unsigned char *)s->e);
            if (!n)
                return -1;
            if (out)
                bl_strbuf_putn(out, s->p, n);
            s->p += n;
            continue;
        }
        /* a backslash */
        if (s->p + 1 >= s->e)
            return -1;
        const char *esc = strchr("\"\\/bfnrt", s->p[1]);
        if (!esc || !s->p[1])
            return -1;
        if (out)
            bl_strbuf_putc(out, "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"]);
        s->p += 2;
    }
    return -1;
}

/* A number token; is_int when it has neither fraction nor exponent. */
int bl_js_number(bl_js *s, const char **tok, size_t *len, int *is_int)
{
    const char *p = s->p, *e = s->e;
    *tok = p;
    *is_int = 1;
    if (p < e && *p == '-')
        p++;
    if (p >= e || *p < '0' || *p > '9')
        return -1;
    if (*p == '0')
        p++;
    else
        while (p < e && *p >= '0' && *p <= '9')
            p++;
    if (p < e && *p == '.') {
        *is_int = 0;
        const char *d = ++p;
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        if (p == d)
            return -1;
    }
    size_t exp_digits = 0;
    if (p < e && (*p == 'e' || *p == 'E')) {
        *is_int = 0;
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        const char *d = p;
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        if (p == d)
            return -1;
        exp_digits = (size_t)(p - d);
    }
    *len = (size_t)(p - *tok);
    s->p = p;
    /* jansson refuses integers past int64 and reals past double (a whole record then): a
     * long integer, a long number or a three-digit exponent is left to the decoder */
    return (*is_int && *len > 18) || *len > 300 || exp_digits > 2 ? -1 : 0;
}

static int literal(bl_js *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->e - s->p) < n || memcmp(s->p, word, n) != 0)
        return -1;
    s->p += n;
    return 0;
}

int bl_js_object(bl_js *s, bl_js_member_fn fn, void *ctx, bl_strbuf *key)
{
    if (++s->depth > 32)
        return -1;
    s->p++; /* '{' */
    bl_js_ws(s);
    if (s->p < s->e && *s->p == '}') {
        s->p++;
        s->depth--;
        return 0;
    }
    for (;;) {
        bl_js_ws(s);
        if (bl_js_string(s, fn ? key : NULL) != 0)
            return -1;
        bl_js_ws(s);
        if (s->p >= s->e || *s->p != ':')
            return -1;
        s->p++;
        bl_js_ws(s);
        if (fn ? fn(ctx, key, s) != 0 : bl_js_value(s) != 0)
            return -1;
        bl_js_ws(s);
        if (s->p < s->e && *s->p == ',') {
            s->p++;
            continue;
        }
        if (s->p < s->e && *s->p == '}') {
            s->p++;
            s->depth--;
            return 0;
        }
        return -1;
    }
}

static int array(bl_js *s)
{
    if (++s->depth > 32)
        return -1;
    s->p++; /* '[' */
    bl_js_ws(s);
    if (s->p < s->e && *s->p == ']') {
        s->p++;
        s->depth--;
        return 0;
    }
    for (;;) {
        bl_js_ws(s);
        if (bl_js_value(s) != 0)
            return -1;
        bl_js_ws(s);
        if (s->p < s->e && *s->p == ',') {
            s->p++;
            continue;
        }
        if (s->p < s->e && *s->p == ']') {
            s->p++;
            s->depth--;
            return 0;
        }
        return -1;
    }
}

int bl_js_value(bl_js *s)
{
    if (s->p >= s->e)
        return -1;
    const char *tok;
    size_t len;
    int is_int;
    switch (*s->p) {
    case '"':
        return bl_js_string(s, NULL);
    case '{': {
        bl_strbuf key;
        bl_strbuf_init(&key);
        int rc = bl_js_object(s, NULL, NULL, &key);
        bl_strbuf_free(&key);
        return rc;
    }
    case '[':
        return array(s);
    case 't':
        return literal(s, "true");
    case 'f':
        return literal(s, "false");
    case 'n':
        return literal(s, "null");
    default:
        return bl_js_number(s, &tok, &len, &is_int);
    }
}

#include "strbuf.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
    fputs("benchlog: out of memory\n", stderr);
    abort();
}

void *bl_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom();
    return p;
}

void *bl_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *bl_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        oom();
    return p;
}

char *bl_xstrdup(const char *s)
{
    return bl_xstrndup(s, strlen(s));
}

char *bl_xstrndup(const char *s, size_t n)
{
    char *p = bl_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void bl_grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    *v = bl_xrealloc(*v, c * size);
    *cap = c;
}

void bl_strbuf_init(bl_strbuf *sb)
{
    sb->s = NULL;
    sb->len = sb->cap = 0;
}

void bl_strbuf_free(bl_strbuf *sb)
{
    free(sb->s);
    bl_strbuf_init(sb);
}

void bl_strbuf_reset(bl_strbuf *sb)
{
    sb->len = 0;
    if (sb->s)
        sb->s[0] = '\0';
}

static void reserve(bl_strbuf *sb, size_t extra)
{
    void *p = sb->s;
    bl_grow(&p, &sb->cap, sb->len + extra + 1, 1);
    sb->s = p;
}

void bl_strbuf_putn(bl_strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    memcpy(sb->s + sb->len, s, n);
    sb->len += n;
    sb->s[sb->len] = '\0';
}

void bl_strbuf_puts(bl_strbuf *sb, const char *s)
{
    bl_strbuf_putn(sb, s, strlen(s));
}

void bl_strbuf_putc(bl_strbuf *sb, char c)
{
    if (sb->len + 2 > sb->cap)
        reserve(sb, 1);
    sb->s[sb->len++] = c;
    sb->s[sb->len] = '\0';
}

void bl_strbuf_vprintf(bl_strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    reserve(sb, (size_t)n);
    vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void bl_strbuf_printf(bl_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

/* The digits of n (n < 2^63) into the end of buf; returns where they start. */
static char *digits_of(unsigned long long n, char *end)
{
    do
        *--end = (char)('0' + n % 10);
    while (n /= 10);
    return end;
}

/* d as "%.15g" prints it when d is m / 10^k for an integer m < 10^15 and 0 < k <= 9, and
 * 1e-4 <= |d| < 1e15 (fixed notation): m / 10^k, one correctly rounded division, equal to d
 * means the decimal m·10^-k reads back as d, and a decimal of 15 digits or fewer is what
 * %.15g gives back (DBL_DIG); the first such k has no trailing zero, as %g drops them.
 * Returns 0 when d is not such a number (the caller prints it the slow way). */
static int put_short_decimal(bl_strbuf *sb, double d)
{
    static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    double a = fabs(d);
    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    for (int k = 1; k <= 9; k++) {
        double x = a * p10[k];
        if (x >= 1e15)
            return 0;
        double m = floor(x + 0.5);
        if (m / p10[k] != a)
            continue;
        unsigned long long n = (unsigned long long)m;
        char buf[48], *end = buf + sizeof buf;
        char *q = digits_of(n, end);
        /* at least k + 1 digits: the fraction's leading zeros and a 0 before the point */
        while (end - q < k + 1)
            *--q = '0';
        char out[56], *o = out;
        if (d < 0)
            *o++ = '-';
        size_t ip = (size_t)(end - q) - (size_t)k;
        memcpy(o, q, ip);
        o += ip;
        *o++ = '.';
        memcpy(o, q + ip, (size_t)k);
        o += k;
        bl_strbuf_putn(sb, out, (size_t)(o - out));
        return 1;
    }
    return 0;
}

void bl_strbuf_put_double(bl_strbuf *sb, double d)
{
    if (!isfinite(d)) {
        bl_strbuf_puts(sb, "null");
        return;
    }
    if (d == floor(d) && fabs(d) < 9007199254740992.0) {
        /* "%.0f" by hand: it is most of what a record prints */
        char buf[24], *end = buf + sizeof buf;
        char *q = digits_of((unsigned long long)fabs(d), end);
        if (signbit(d))
            *--q = '-';
        bl_strbuf_putn(sb, q, (size_t)(end - q));
        return;
    }
    if (put_short_decimal(sb, d))
        return;
    /* %g drops trailing zeros, so 15 digits already give the shortest text of any value a
     * tool printed with 15 or fewer; only computed values need 16 or 17. */
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    bl_strbuf_puts(sb, buf);
}

void bl_strbuf_put_json_string(bl_strbuf *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p >= 0x20 && *p != '"' && *p != '\\')
        p++;
    if (!*p) { /* nothing to escape, as in most keys and values: one copy, quotes around */
        size_t n = (size_t)(p - (const unsigned char *)s);
        reserve(sb, n + 2);
        sb->s[sb->len] = '"';
        memcpy(sb->s + sb->len + 1, s, n);
        sb->len += n + 2;
        sb->s[sb->len - 1] = '"';
        sb->s[sb->len] = '\0';
        return;
    }
    bl_strbuf_putc(sb, '"');
    p = (const unsigned char *)s;
    while (*p) {
        const unsigned char *run = p;
        while (*p >= 0x20 && *p != '"' && *p != '\\')
            p++;
        bl_strbuf_putn(sb, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        switch (*p) {
        case '"':
            bl_strbuf_puts(sb, "\\\"");
            break;
        case '\\':
            bl_strbuf_puts(sb, "\\\\");
            break;
        case '\n':
            bl_strbuf_puts(sb, "\\n");
            break;
        case '\r':
            bl_strbuf_puts(sb, "\\r");
            break;
        case '\t':
            bl_strbuf_puts(sb, "\\t");
            break;
        default:
            bl_strbuf_printf(sb, "\\u%04x", *p);
        }
        p++;
    }
    bl_strbuf_putc(sb, '"');
}

char *bl_strbuf_take(bl_strbuf *sb)
{
    char *s = sb->s ? sb->s : bl_xstrdup("");
    bl_strbuf_init(sb);
    return s;
}

bl_count_text bl_count(size_t n, const char *noun)
{
    bl_count_text t;
    snprintf(t.s, sizeof t.s, "%zu %s%s", n, noun, n == 1 ? "" : "s");
    return t;
}

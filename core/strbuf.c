#include "strbuf.h"
#include <math.h>
#include <stdint.h>
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

void bl_strbuf_grow(bl_strbuf *sb, size_t extra)
{
    void *p = sb->s;
    bl_grow(&p, &sb->cap, sb->len + extra + 1, 1);
    sb->s = p;
}

void bl_strbuf_vprintf(bl_strbuf *sb, const char *fmt, va_list ap)
{
    /* printed once on the stack (a diagnostic's line mostly fits), a second time only when it
     * did not fit: vsnprintf is most of what a message costs */
    char buf[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(buf, sizeof buf, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if ((size_t)n < sizeof buf) {
        bl_strbuf_putn(sb, buf, (size_t)n);
        return;
    }
    bl_strbuf_reserve(sb, (size_t)n);
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

/* Two at a time: a record's numbers are most of its text. */
char *bl_digits_of(unsigned long long n, char *end)
{
    static const char pairs[201] = "000102030405060708091011121314151617181920212223242526272829303"
                                   "1323334353637383940414243444546474849"
                                   "505152535455565758596061626364656667686970717273747576777879808"
                                   "1828384858687888990919293949596979899";
    while (n >= 100) {
        unsigned r = (unsigned)(n % 100);
        n /= 100;
        end -= 2;
        memcpy(end, pairs + 2 * r, 2);
    }
    if (n >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * n, 2);
    } else
        *--end = (char)('0' + n);
    return end;
}

void bl_strbuf_put_uint(bl_strbuf *sb, unsigned long long v)
{
    char buf[24], *end = buf + sizeof buf;
    char *q = bl_digits_of(v, end);
    bl_strbuf_putn(sb, q, (size_t)(end - q));
}

typedef unsigned __int128 u128;

/* 10^k exactly, k <= 22 (beyond 64 bits from 10^20). */
static u128 pow10_u128(int k)
{
    static const uint64_t p[20] = {1u,
                                   10u,
                                   100u,
                                   1000u,
                                   10000u,
                                   100000u,
                                   1000000u,
                                   10000000u,
                                   100000000u,
                                   1000000000u,
                                   10000000000u,
                                   100000000000u,
                                   1000000000000u,
                                   10000000000000u,
                                   100000000000000u,
                                   1000000000000000u,
                                   10000000000000000u,
                                   100000000000000000u,
                                   1000000000000000000u,
                                   10000000000000000000u};
    u128 r = p[k < 19 ? k : 19];
    for (int i = 19; i < k; i++)
        r *= 10;
    return r;
}

/* mant·10^k / 2^shift rounded to the nearest integer, ties to even, as glibc's printf rounds
 * the exact binary value (shift >= 1). */
static uint64_t scaled_round(uint64_t mant, u128 p10k, int shift)
{
    u128 p = (u128)mant * p10k;
    u128 q = p >> shift, rem = p - (q << shift), half = (u128)1 << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return (uint64_t)q;
}

/* Whether strtod reads the decimal n·10^-k back as mant·2^-shift: n lies within half a gap
 * of the double on either side (the gap below is half as wide at a power of two), a tie
 * going to the even mantissa. Everything is scaled by 4·10^k·2^shift to stay in integers. */
static int reads_back(uint64_t n, int k, uint64_t mant, int shift)
{
    u128 p10k = pow10_u128(k);
    u128 v = (u128)n << shift, a = (u128)mant * p10k;
    u128 diff = v >= a ? v - a : a - v;
    u128 lim = v < a && mant == UINT64_C(1) << 52 ? p10k : 2 * p10k;
    return 4 * diff < lim || (4 * diff == lim && !(mant & 1));
}

/* d as the printf loop prints it when d is the double nearest a decimal n·10^-k of at most
 * 15 significant digits, k <= 8: what tools print (11.15, 0.3, 1.2163) and most of what a
 * record holds that is not an integer. 15 digits come back from the double they make (DBL_DIG),
 * so "%.15g" gives n·10^-k again and strtod reads it back: the loop stops at 15, and %g drops
 * the trailing zeros. n is found by a multiplication and checked by the exact division (both
 * operands are exact, IEEE division rounds to nearest), which is cheaper than the general
 * path below. Returns 0 for anything else or where %g prints an exponent. */
static int put_short_decimal(bl_strbuf *sb, double d)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    double a = fabs(d);
    for (int k = 1; k <= 8; k++) {
        double t = a * p10[k];
        if (!(t < 1e15))
            return 0;
        uint64_t n = (uint64_t)(t + 0.5);
        if ((double)n / p10[k] != a)
            continue;
        if (n % 10 == 0) /* then k - 1 had it; not expected, left to the exact path */
            return 0;
        char dig[24], *end = dig + sizeof dig;
        char *q = bl_digits_of(n, end);
        int nd = (int)(end - q);
        if (nd - 1 - k < -4) /* %g's exponent form (nd <= 15 keeps it below 15) */
            return 0;
        char out[48], *o = out;
        if (d < 0)
            *o++ = '-';
        if (nd > k) {
            memcpy(o, q, (size_t)(nd - k));
            o += nd - k;
            q += nd - k;
        } else
            *o++ = '0';
        *o++ = '.';
        for (int i = nd; i < k; i++)
            *o++ = '0';
        memcpy(o, q, (size_t)(end - q));
        o += end - q;
        bl_strbuf_putn(sb, out, (size_t)(o - out));
        return 1;
    }
    return 0;
}

/* d as the printf loop of bl_strbuf_put_double prints it ("%.15g", else "%.16g" if that
 * reads back, else "%.17g") for 1e-4 <= |d| < 1e15 and d not an integer, by exact integer
 * arithmetic on its binary value: |d| = mant·2^-shift; the P significant digits of %g are
 * mant·10^k·2^-shift rounded (k = P-1-x, x the decimal exponent), and whether they read back
 * is decided exactly too (reads_back), so the text is the loop's without printf or strtod.
 * Returns 0 where %g would print an exponent (the caller takes the loop then). */
static int put_shortest_fixed(bl_strbuf *sb, double d)
{
    double a = fabs(d);
    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int be = (int)(bits >> 52); /* a >= 1e-4: normal, and a positive */
    int shift = 1075 - be;      /* a < 1e15 < 2^53: shift >= 1 unless a is an integer */
    uint64_t mant = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    if (shift < 1 || shift > 70)
        return 0;
    /* floor(log10 a), from floor(e·log10 2) which is it or one less: a·10^(14-x) has 15
     * digits before the point when x is right, 16 when x is one short */
    int x = ((be - 1023) * 78913) >> 18;
    u128 t = ((u128)mant * pow10_u128(14 - x)) >> shift;
    if (t >= (u128)pow10_u128(15))
        x++;
    uint64_t n = 0;
    int ex = x, p;
    for (p = 15; p <= 17; p++) {
        n = scaled_round(mant, pow10_u128(p - 1 - x), shift);
        ex = x;
        if (n == (uint64_t)pow10_u128(p)) { /* 9.99..95 rounded up to 10.0..0: one more digit */
            n /= 10;
            ex = x + 1;
        }
        if (ex >= p || ex < -4) /* %g's exponent form */
            return 0;
        if (p == 17 || reads_back(n, p - 1 - ex, mant, shift))
            break;
    }
    int last = p - 1; /* the last digit kept: %g drops trailing zeros */
    while (n % 100 == 0) {
        n /= 100;
        last -= 2;
    }
    if (n % 10 == 0) {
        n /= 10;
        last--;
    }
    if (last < ex) /* digits up to the point only: no text of a non-integer; printf's then */
        return 0;
    char dig[24];
    char *q = bl_digits_of(n, dig + sizeof dig);
    char out[48], *o = out;
    if (d < 0)
        *o++ = '-';
    if (ex >= 0) {
        memcpy(o, q, (size_t)ex + 1);
        o += ex + 1;
        if (last > ex) {
            *o++ = '.';
            memcpy(o, q + ex + 1, (size_t)(last - ex));
            o += last - ex;
        }
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = -1; i > ex; i--)
            *o++ = '0';
        memcpy(o, q, (size_t)last + 1);
        o += last + 1;
    }
    bl_strbuf_putn(sb, out, (size_t)(o - out));
    return 1;
}

void bl_strbuf_put_double(bl_strbuf *sb, double d)
{
    if (!isfinite(d)) {
        bl_strbuf_puts(sb, "null");
        return;
    }
    if (fabs(d) < 9007199254740992.0 && d == (double)(long long)d) {
        /* "%.0f" by hand: it is most of what a record prints */
        char buf[24], *end = buf + sizeof buf;
        char *q = bl_digits_of((unsigned long long)fabs(d), end);
        if (signbit(d))
            *--q = '-';
        bl_strbuf_putn(sb, q, (size_t)(end - q));
        return;
    }
    if (put_short_decimal(sb, d) || put_shortest_fixed(sb, d))
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

/* 1 for the bytes a JSON string escapes (control characters, '"', '\\') and the NUL that
 * ends it: one load a byte where three comparisons were. */
static const unsigned char json_stop[256] = {1, 1, 1, 1, 1, 1, 1, 1, 1,         1,         1, 1,
                                             1, 1, 1, 1, 1, 1, 1, 1, 1,         1,         1, 1,
                                             1, 1, 1, 1, 1, 1, 1, 1, ['"'] = 1, ['\\'] = 1};

void bl_strbuf_put_json_string(bl_strbuf *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (!json_stop[*p])
        p++;
    if (!*p) { /* nothing to escape, as in most keys and values: one copy, quotes around */
        size_t n = (size_t)(p - (const unsigned char *)s);
        bl_strbuf_reserve(sb, n + 2);
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
        while (!json_stop[*p])
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

/* Exact sums of float8 values computed by PostgreSQL (store_pg_int.h): each value split into
 * its binary exponent and integer mantissa, whose sums per exponent numeric holds exactly. */
#include "store_pg_int.h"
#include "xsum.h"
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bl_pg_sql_exponent(bl_strbuf *sb, const char *bits)
{
    bl_strbuf_printf(
        sb,
        "(CASE WHEN ((%s >> 52) & 2047) = 0 THEN -1074 ELSE ((%s >> 52) & 2047)::int - 1075 END)",
        bits, bits);
}

void bl_pg_sql_mantissa(bl_strbuf *sb, const char *bits)
{
    bl_strbuf_printf(sb,
                     "((CASE WHEN %s < 0 THEN -1 ELSE 1 END) * ((%s & 4503599627370495) | "
                     "(CASE WHEN ((%s >> 52) & 2047) = 0 THEN 0 ELSE 4503599627370496 END)))",
                     bits, bits, bits);
}

/* float8send is big-endian, as bit(64) reads hex */
void bl_pg_sql_bits(bl_strbuf *sb, const char *x)
{
    bl_strbuf_printf(sb, "(('x' || encode(float8send((%s)::float8), 'hex'))::bit(64)::bigint)", x);
}

/* integer (decimal text, an optional '-') times 2^exp added to s exactly, 32 bits at a time;
 * -1 when it is no integer. */
static int add_scaled(bl_xsum *s, const char *integer, int exp)
{
    const char *p = integer;
    int neg = *p == '-';
    p += neg || *p == '+';
    if (!isdigit((unsigned char)*p))
        return -1;
    size_t nd = strlen(p), cap = nd / 9 + 2, n = 0;
    uint32_t *limb = calloc(cap, sizeof *limb); /* little-endian base 2^32 */
    if (!limb)
        return -1;
    for (size_t i = 0; i < nd;) {
        size_t take = (nd - i) % 9 ? (nd - i) % 9 : 9; /* the leading chunk first */
        uint64_t chunk = 0, scale = 1;
        for (size_t k = 0; k < take; k++, i++) {
            if (!isdigit((unsigned char)p[i])) {
                free(limb);
                return -1;
            }
            chunk = chunk * 10 + (uint64_t)(p[i] - '0');
            scale *= 10;
        }
        uint64_t carry = chunk;
        for (size_t k = 0; k < n; k++) {
            uint64_t v = (uint64_t)limb[k] * scale + carry;
            limb[k] = (uint32_t)v;
            carry = v >> 32;
        }
        if (carry)
            limb[n++] = (uint32_t)carry;
    }
    for (size_t k = 0; k < n; k++)
        if (limb[k])
            bl_xsum_add(s, ldexp(neg ? -(double)limb[k] : (double)limb[k], exp + 32 * (int)k));
    free(limb);
    return 0;
}

int bl_pg_xsum_add(bl_xsum *sum, bl_xsum *sumsq, int exp, const char *msum, const char *msqsum)
{
    if (add_scaled(sum, msum, exp) != 0)
        return -1;
    return sumsq ? add_scaled(sumsq, msqsum, 2 * exp) : 0;
}

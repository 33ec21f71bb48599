/* The detail rows as libxlsxwriter 1.1 writes them in constant-memory mode (worksheet.c:
 * _check_dimensions, _get_row, lxw_worksheet_write_single_row, _write_cell), deflated by ISA-L
 * level 1 as they come. */
#include "xlsx_own_int.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_FLUSH (128 * 1024) /* text deflated once this much is gathered */
#define ZOUT_SIZE (64 * 1024)
#define STR_MAX 32767 /* libxlsxwriter's LXW_STR_MAX: a longer string is not written */

/* 10^k for k <= 20, beyond 64 bits from 10^20 */
static unsigned __int128 pow10_128(int k)
{
    static const uint64_t p[20] = {1,
                                   10,
                                   100,
                                   1000,
                                   10000,
                                   100000,
                                   1000000,
                                   10000000,
                                   100000000,
                                   1000000000,
                                   10000000000,
                                   100000000000,
                                   1000000000000,
                                   10000000000000,
                                   100000000000000,
                                   1000000000000000,
                                   10000000000000000,
                                   100000000000000000,
                                   1000000000000000000,
                                   10000000000000000000u};
    return k < 20 ? p[k] : (unsigned __int128)p[19] * 10;
}

/* mant * 10^k / 2^shift, rounded to nearest, ties to even, as glibc's printf rounds. */
static uint64_t scaled(uint64_t mant, int k, int shift)
{
    unsigned __int128 p = (unsigned __int128)mant * pow10_128(k);
    unsigned __int128 q = p >> shift, rem = p - (q << shift),
                      half = (unsigned __int128)1 << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return (uint64_t)q;
}

static size_t put_u64(char *out, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while (v /= 10);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t bl_xlsx_num_text(double v, char out[32])
{
    double a = fabs(v);
    size_t o = 0;
    if (a == 0 && !signbit(v)) {
        out[0] = '0';
        out[1] = 0;
        return 1;
    }
    if (a >= 1e-4 && a < 1e16 && a == floor(a)) { /* an integer of at most 16 digits */
        if (v < 0)
            out[o++] = '-';
        o += put_u64(out + o, (uint64_t)a);
        out[o] = 0;
        return o;
    }
    if (!(a >= 1e-4 && a < 1e15)) /* exponent form, zero's sign, inf, nan: printf's own */
        return (size_t)snprintf(out, 32, "%.16G", v);
    /* a = mant × 2^e2 exactly; 16 significant digits N = a × 10^(15-x) rounded, where x is
     * the decimal exponent after rounding (%G's X): 10^15 <= N < 10^16. */
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int e2 = (int)((bits >> 52) & 0x7ff) - 1075; /* normal here: a >= 1e-4 */
    uint64_t mant = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    /* a < 2^53 and not an integer: e2 < 0; a >= 1e-4: e2 >= -66 */
    /* floor(log10(a)) or one less: from the binary exponent, floor(e × log10 2) */
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    int x = (e * 78913) >> 18;
    uint64_t n = 0;
    for (int tries = 0; tries < 3; tries++) {
        n = scaled(mant, 15 - x, -e2);
        if (n >= UINT64_C(10000000000000000))
            x++;
        else if (n < UINT64_C(1000000000000000))
            x--;
        else
            break;
    }
    /* 10^15 may be a value of one digit less rounded up (999999999999999.5 is x 14, not 15) */
    if (n == UINT64_C(1000000000000000) && x > -4) {
        uint64_t below = scaled(mant, 16 - x, -e2);
        if (below < UINT64_C(10000000000000000)) {
            n = below;
            x--;
        }
    }
    char d[16];
    put_u64(d, n);
    size_t last = 15; /* the last digit kept: trailing zeros go */
    while (last > 0 && d[last] == '0')
        last--;
    if (v < 0)
        out[o++] = '-';
    if (x >= 0) {
        for (int i = 0; i <= x; i++)
            out[o++] = d[i];
        if ((int)last > x) {
            out[o++] = '.';
            for (size_t i = (size_t)x + 1; i <= last; i++)
                out[o++] = d[i];
        }
    } else {
        out[o++] = '0';
        out[o++] = '.';
        for (int i = -1; i > x; i--)
            out[o++] = '0';
        for (size_t i = 0; i <= last; i++)
            out[o++] = d[i];
    }
    out[o] = 0;
    return o;
}

/* The text buffer: at least need more bytes of room. */
static char *room(bl_xown *s, size_t need)
{
    if (s->len + need > s->cap) {
        size_t cap = s->cap ? s->cap : TEXT_FLUSH + 4096;
        while (s->len + need > cap)
            cap *= 2;
        s->text = bl_xrealloc(s->text, cap);
        s->cap = cap;
    }
    return s->text + s->len;
}

static void put(bl_xown *s, const char *p, size_t n)
{
    memcpy(room(s, n), p, n);
    s->len += n;
}

#define PUT_LIT(s, lit) put(s, lit, sizeof lit - 1)

/* lxw_rowcol_to_cell: "AB12" */
static size_t cell_ref(char *out, lxw_row_t row, lxw_col_t col)
{
    char tmp[8];
    size_t n = 0, o = 0;
    for (unsigned c = (unsigned)col + 1; c; c = (c - 1) / 26) {
        unsigned r = c % 26;
        tmp[n++] = (char)('A' + (r ? r : 26) - 1);
    }
    while (n)
        out[o++] = tmp[--n];
    return o + put_u64(out + o, (uint64_t)row + 1);
}

static int is_control(unsigned char c)
{
    return c >= 0x01 && c <= 0x1F && c != 0x09 && c != 0x0A;
}

/* lxw_escape_control_characters (as worksheet_write_string calls it on every string: its
 * test for control characters reads past the end and always answers yes), then
 * lxw_escape_data as _write_inline_string_cell writes it. */
static void put_escaped(bl_xown *s, const char *v, size_t len)
{
    char *o = room(s, len * 7), *start = o;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)v[i];
        if (is_control(c)) {
            o += sprintf(o, "_x%04X_", c);
        } else if (c == '&') {
            memcpy(o, "&amp;", 5);
            o += 5;
        } else if (c == '<') {
            memcpy(o, "&lt;", 4);
            o += 4;
        } else if (c == '>') {
            memcpy(o, "&gt;", 4);
            o += 4;
        } else {
            *o++ = (char)c;
        }
    }
    s->len += (size_t)(o - start);
}

/* The first (amp '&') or last (amp ';') byte of c escaped. */
static int escaped_end(unsigned char c, char amp)
{
    return is_control(c) ? '_' : c == '&' || c == '<' || c == '>' ? amp : c;
}

static void put_cell(bl_xown *s, lxw_row_t row, lxw_col_t col, const bl_xcell *c)
{
    char ref[32];
    size_t rl = cell_ref(ref, row, col);
    int32_t style = c->f ? lxw_format_get_xf_index(c->f) : 0;
    PUT_LIT(s, "<c r=\"");
    put(s, ref, rl);
    if (style > 0) {
        char st[16];
        PUT_LIT(s, "\" s=\"");
        put(s, st, put_u64(st, (uint64_t)style));
    }
    PUT_LIT(s, "\"");
    if (c->type == BL_XCELL_NUM) {
        char num[32];
        size_t nl = bl_xlsx_num_text(c->v, num);
        PUT_LIT(s, "><v>");
        put(s, num, nl);
        PUT_LIT(s, "</v></c>");
        return;
    }
    /* _write_inline_string_cell keeps white space at either end of the escaped text */
    const unsigned char *t = (const unsigned char *)s->pstr.s + c->soff;
    if (isspace(escaped_end(t[0], '&')) || isspace(escaped_end(t[c->slen - 1], ';')))
        PUT_LIT(s, " t=\"inlineStr\"><is><t xml:space=\"preserve\">");
    else
        PUT_LIT(s, " t=\"inlineStr\"><is><t>");
    put_escaped(s, (const char *)t, c->slen);
    PUT_LIT(s, "</t></is></c>");
}

static void compress(bl_xown *s, int flush);

/* lxw_worksheet_write_single_row: the pending row, its cells in column order. */
static void write_row(bl_xown *s)
{
    if (!s->pending)
        return;
    char r[16];
    PUT_LIT(s, "<row r=\"");
    put(s, r, put_u64(r, (uint64_t)s->cur + 1));
    PUT_LIT(s, "\">");
    for (lxw_col_t c = s->cmin; c <= s->cmax; c++)
        if (s->cells[c].type) {
            put_cell(s, s->cur, c, &s->cells[c]);
            s->cells[c].type = 0;
        }
    PUT_LIT(s, "</row>");
    s->pending = 0;
    bl_strbuf_reset(&s->pstr);
}

static void fail(bl_xown *s)
{
    s->failed = 1;
}

/* Deflates the gathered text into the body file; flush: sync-flushed (byte aligned, not
 * final: the entry's last piece follows), the compressor freed. */
static void compress(bl_xown *s, int flush)
{
    if (!s->len && (!flush || !s->z))
        return; /* nothing gathered, or nothing to seal */
    if (!s->failed && !s->z) {
        s->z = bl_xcalloc(1, sizeof *s->z);
        isal_deflate_init(s->z);
        s->z->level = 1;
        s->z->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
        s->z->level_buf = bl_xmalloc(ISAL_DEF_LVL1_DEFAULT);
        s->zout = bl_xmalloc(ZOUT_SIZE);
        if (!s->body) /* after a seal, more rows (the store grew) go on in the same file */
            s->body = tmpfile();
        if (!s->body)
            fail(s);
    }
    if (!s->failed) {
        s->crc = crc32_gzip_refl(s->crc, (unsigned char *)s->text, s->len);
        s->body_in += s->len;
        if (bl_xown_deflate(s->z, (unsigned char *)s->text, s->len, flush ? SYNC_FLUSH : NO_FLUSH,
                            0, s->zout, ZOUT_SIZE, bl_xown_to_file, s->body) != 0)
            fail(s);
    }
    s->len = 0;
    if (flush && s->z) {
        free(s->z->level_buf);
        free(s->z);
        free(s->zout);
        s->z = NULL;
        s->zout = NULL;
        free(s->text);
        s->text = NULL;
        s->cap = 0;
    }
}

int bl_xown_to_file(void *file, const void *p, size_t n)
{
    return fwrite(p, 1, n, file) == n ? 0 : -1;
}

int bl_xown_deflate(struct isal_zstream *z, const unsigned char *in, size_t n, int flush, int last,
                    unsigned char *out, size_t outlen, int (*sink)(void *, const void *, size_t),
                    void *ctx)
{
    z->next_in = (unsigned char *)in;
    z->avail_in = (uint32_t)n;
    z->flush = flush;
    z->end_of_stream = last;
    for (;;) {
        z->next_out = out;
        z->avail_out = (uint32_t)outlen;
        if (isal_deflate(z) != COMP_OK)
            return -1;
        size_t got = outlen - z->avail_out;
        if (got && sink(ctx, out, got) != 0)
            return -1;
        if (z->avail_in == 0 && z->avail_out != 0 &&
            (!last || z->internal_state.state == ZSTATE_END))
            return 0;
    }
}

bl_xown *bl_xown_new(lxw_worksheet *ws, size_t rows)
{
    bl_xown *s = bl_xcalloc(1, sizeof *s);
    s->ws = ws;
    s->expect = rows;
    s->rmin = LXW_ROW_MAX;
    s->cmin_all = LXW_COL_MAX;
    bl_strbuf_init(&s->pstr);
    return s;
}

void bl_xown_free(bl_xown *s)
{
    if (!s)
        return;
    if (s->z) {
        free(s->z->level_buf);
        free(s->z);
    }
    free(s->zout);
    free(s->text);
    free(s->cells);
    if (s->body)
        fclose(s->body);
    bl_strbuf_free(&s->pstr);
    free(s);
}

/* _check_dimensions: a row before the pending one is refused, else the bounds grow. */
static int dims(bl_xown *s, lxw_row_t row, lxw_col_t col)
{
    if (row >= LXW_ROW_MAX || col >= LXW_COL_MAX || row < s->cur)
        return -1;
    if (row < s->rmin)
        s->rmin = row;
    if (row > s->rmax)
        s->rmax = row;
    if (col < s->cmin_all)
        s->cmin_all = col;
    if (col > s->cmax_all)
        s->cmax_all = col;
    s->any = 1;
    return 0;
}

/* _get_row and _insert_cell: a later row writes the pending one (the header row, the first
 * time, is libxlsxwriter's own); the cell replaces any in its column. */
static bl_xcell *insert(bl_xown *s, lxw_row_t row, lxw_col_t col)
{
    if (row > s->cur) {
        if (!s->started)
            lxw_worksheet_write_single_row(s->ws);
        else
            write_row(s);
        if (s->len >= TEXT_FLUSH)
            compress(s, 0);
        s->started = 1;
        s->cur = row;
        if ((size_t)row == s->expect) /* the last row: the rest of the body is complete */
            compress(s, 1);
    }
    if (col >= s->ncells) {
        size_t n = s->ncells ? s->ncells : 64;
        while (n <= col)
            n *= 2;
        s->cells = bl_xrealloc(s->cells, n * sizeof *s->cells);
        memset(s->cells + s->ncells, 0, (n - s->ncells) * sizeof *s->cells);
        s->ncells = n;
    }
    if (!s->pending || col < s->cmin)
        s->cmin = col;
    if (!s->pending || col > s->cmax)
        s->cmax = col;
    s->pending = 1;
    return &s->cells[col];
}

void bl_xown_number(bl_xown *s, lxw_row_t row, lxw_col_t col, double v, lxw_format *f)
{
    if (dims(s, row, col) != 0)
        return;
    bl_xcell *c = insert(s, row, col);
    c->type = BL_XCELL_NUM;
    c->f = f;
    c->v = v;
}

void bl_xown_string(bl_xown *s, lxw_row_t row, lxw_col_t col, const char *v, lxw_format *f)
{
    if (!v || !*v || dims(s, row, col) != 0)
        return;
    size_t chars = 0, len = 0;
    for (; v[len]; len++)
        chars += ((unsigned char)v[len] & 0xC0) != 0x80;
    if (chars > STR_MAX)
        return;
    bl_xcell *c = insert(s, row, col);
    c->type = BL_XCELL_STR;
    c->f = f;
    c->soff = s->pstr.len;
    c->slen = len;
    bl_strbuf_putn(&s->pstr, v, len);
}

/* At close: the pending row, into the tail that the entry ends with; the body sealed. */
void bl_xown_finish(bl_xown *s)
{
    if (!s->started) {
        lxw_worksheet_write_single_row(s->ws);
        s->started = 1;
    }
    if (s->z || s->len)
        compress(s, 1);
    write_row(s);
    /* the text buffer now holds the tail alone */
}

/* Results tables that a post's author typed in: a column per set-up, each with its speed in
 * MB/s and its IOPS, a row per test named the way people write it:
 *
 *   Type          iSCSI (ext3)        X-RAID2 (ext4)
 *                 Speed (MB/s)  IOPS  Speed (MB/s)  IOPS
 *   seq read      66.2          64    367.7         359
 *   rand read 4k  10.8          2699  1.8           452
 *
 * also when the HTML table lost its separators on the way to text ("seq read66.264367.7359").
 * Such a row is split by this rule, and only when it gives exactly one answer:
 *   1. a speed has a point and 1 or 2 decimals (the same count across a row); an IOPS
 *      figure is a whole number without a leading zero, or "-" for none;
 *   2. IOPS x block size = bandwidth: each IOPS figure agrees with its speed within -10%/+15%
 *      beyond the rounding of both (the page's MB may be 10^6, 1024000 or 2^20 bytes), for
 *      the block size the row names ("4k" = 4096 bytes) or, when it names none, for one
 *      power of two from 512 bytes to 64 MiB that fits every column of the row;
 *   3. the digits of a "*N" after the test name (parallel jobs, say) are as many as the
 *      figures allow; when two counts fit, the row is ambiguous.
 * A comma in a figure is read when it can mean one thing only: "1,020.5" (a comma before the
 * point with three digits after it) groups thousands; "1020,5" is a decimal comma when every
 * comma of the table's figures is followed by 1 or 2 digits and no figure has a point. Any
 * other comma ("2,699", "1,02.5", or a decimal comma next to a point) is reported at its line
 * with the figure and gives no records for the row.
 * An ambiguous row is reported at its line and gives no records. Speeds are stored as
 * printed, MB/s = 10^6 bytes/s. A column is one run; `tool` is the benchmark the text names
 * above the table ("unknown" when none). */
#include "parser.h"
#include "sections.h"
#include "speed_table_num.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* LOOKBACK bounds the search for the tool's name and the caption, so that a text of many
 * tables stays linear. */
enum {
    MAX_COLS = 8,
    MAX_SPLITS = 4,
    MAX_STAR_DIGITS = 3,
    UNIT_LINES = 4,
    LOOKBACK = 2000,
    MAX_STEPS = 200000
};

static const char UNIT[] = "speed(mb/s)iops";

typedef struct cell {
    double speed, iops; /* iops BL_ABSENT for "-" */
    double step;        /* MB/s of one unit of the speed's last digit */
} cell;

typedef struct split {
    size_t label_len; /* bytes of the row text that name the test */
    int dec;          /* decimals of the speeds */
    cell c[MAX_COLS];
} split;

typedef struct splits {
    split v[MAX_SPLITS + 1];
    size_t n;
    size_t steps; /* enumerate calls, bounded: a hostile row of digits has too many readings */
} splits;

typedef struct row_name {
    int seq, write;
    int64_t bs;      /* from "4k", "512k", "1m"; -1 when not named */
    size_t name_len; /* "rand read 4k" */
    int star;        /* a '*' follows the name */
} row_name;

typedef struct table {
    size_t ncols;
    char *col[MAX_COLS];
    const char *tool;
    char *caption;
    int64_t run0;
    int decimal_comma; /* every comma of the table's figures is one (see the top) */
    long not_decimal;  /* else the line (1-based) of a figure that says otherwise, or 0 */
} table;

/* ---- header ------------------------------------------------------------------------------- */

static const char *after_word(const char *s, const char *w)
{
    s += strspn(s, " \t");
    size_t n = strlen(w);
    return strncasecmp(s, w, n) == 0 ? s + n : NULL;
}

/* The lines after the header, whitespace removed, spell UNIT N times (N >= 1): N, and in
 * *first_row the line after them; 0 when they do not. */
static size_t unit_columns(const bl_text *t, size_t h, size_t *first_row)
{
    char joined[256];
    size_t n = 0;
    for (size_t i = h + 1; i < t->nlines && i <= h + UNIT_LINES; i++) {
        for (const char *p = t->line[i]; *p && n + 1 < sizeof joined; p++)
            if (!isspace((unsigned char)*p))
                joined[n++] = (char)tolower((unsigned char)*p);
        joined[n] = '\0';
        size_t reps = 0, u = sizeof UNIT - 1;
        while (strncmp(joined + reps * u, UNIT, u) == 0)
            reps++;
        if (reps && reps * u == n) {
            *first_row = i + 1;
            return reps;
        }
        if (strncmp(joined, UNIT, n < u ? n : u) != 0)
            return 0;
    }
    return 0;
}

static int is_header_at(const bl_text *t, size_t h)
{
    size_t first;
    const char *s = t->line[h];
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != 'T' && *s != 't') /* after_word's test, first letter: most lines stop here */
        return 0;
    const char *rest = after_word(s, "Type");
    return rest && *rest && unit_columns(t, h, &first) > 0;
}

/* Column names set apart by tabs or two spaces. */
static size_t split_by_gaps(const char *p, char **out)
{
    size_t n = 0;
    while (*p && n < MAX_COLS) {
        size_t len = 0;
        while (p[len] && p[len] != '\t' && !(p[len] == ' ' && p[len + 1] == ' '))
            len++;
        while (len && p[len - 1] == ' ')
            len--;
        if (len)
            out[n++] = bl_xstrndup(p, len);
        p += len;
        p += strspn(p, " \t");
    }
    return n;
}

/* Column names run together, each ending with ')': "iSCSI (ext3)X-RAID2 (ext4)". */
static size_t split_by_parens(const char *p, char **out)
{
    size_t n = 0;
    while (*p && n < MAX_COLS) {
        const char *close = strchr(p, ')');
        size_t len = close ? (size_t)(close - p) + 1 : strlen(p);
        out[n++] = bl_xstrndup(p, len);
        p += len;
        p += strspn(p, " \t");
    }
    return n;
}

/* The want column names after "Type", or 0 when neither way gives that many. */
static size_t split_columns(const char *s, char **out, size_t want)
{
    s += strspn(s, " \t");
    size_t (*const ways[])(const char *, char **) = {split_by_gaps, split_by_parens};
    for (size_t w = 0; w < 2; w++) {
        size_t n = ways[w](s, out);
        if (n == want)
            return n;
        for (size_t i = 0; i < n; i++)
            free(out[i]);
    }
    return 0;
}

static int word_at(const char *line, const char *p, const char *w)
{
    size_t n = strlen(w);
    if (strncasecmp(p, w, n) != 0)
        return 0;
    int before = p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
    int after = isalnum((unsigned char)p[n]) || p[n] == '_';
    return !before && !after;
}

/* The benchmark the text names nearest above line h. */
static const char *tool_above(const bl_text *t, size_t h)
{
    static const char *const names[][2] = {{"fio", "fio"},
                                           {"bonnie++", "bonnie++"},
                                           {"CrystalDiskMark", "CrystalDiskMark"},
                                           {"KDiskMark", "KDiskMark"},
                                           {"iozone", "iozone"}};
    for (size_t i = h; i-- > 0 && i + LOOKBACK >= h;)
        for (const char *p = t->line[i]; *p; p++)
            for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
                if (word_at(t->line[i], p, names[k][0]))
                    return names[k][1];
    return "unknown";
}

/* The lowest line (1-based) a caption of the table at h may stand on: below the last line of
 * tool output ("key=value") above it, whose heading belongs to that output. One section for
 * every column, which the driver's per-run search could not promise. */
static long caption_stop(const bl_text *t, size_t h)
{
    for (size_t i = h; i-- > 0 && i + LOOKBACK >= h;)
        if (strchr(t->line[i], '='))
            return (long)i + 2;
    return h > LOOKBACK ? (long)(h - LOOKBACK) + 1 : 1;
}

/* ---- rows --------------------------------------------------------------------------------- */

static size_t match_word(const char *s, const char *const *words, size_t n, size_t *which)
{
    for (size_t k = 0; k < n; k++) {
        size_t l = strlen(words[k]);
        if (strncasecmp(s, words[k], l) == 0) {
            *which = k;
            return l;
        }
    }
    return 0;
}

/* "seq read", "Random write 512k", "rand read 4KiB*32": 0 when the line names no test. */
static int parse_row_name(const char *s, row_name *r)
{
    static const char *const kinds[] = {"sequential", "seq", "random", "rand"};
    static const char *const dirs[] = {"read", "write"};
    const char *p = s + strspn(s, " \t");
    size_t k, l = match_word(p, kinds, 4, &k);
    if (!l)
        return 0;
    r->seq = k < 2;
    p += l;
    p += strspn(p, " ");
    size_t d;
    if (!(l = match_word(p, dirs, 2, &d)))
        return 0;
    r->write = d == 1;
    p += l;
    r->bs = -1;
    const char *q = p + strspn(p, " ");
    if (isdigit((unsigned char)*q)) {
        char *end;
        double v = strtod(q, &end);
        int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20 : -1;
        if (shift > 0 && v > 0 && v < 1e6) {
            r->bs = (int64_t)(v * (double)(1 << shift) + 0.5);
            p = end + 1;
            if (strncasecmp(p, "iB", 2) == 0)
                p += 2;
            else if (*p == 'B')
                p++;
        }
    }
    r->star = *p == '*';
    r->name_len = (size_t)(p - s);
    return 1;
}

/* Rule 2 for one cell and one block size. h: half a unit of the speed's last decimal. */
static int fits_block_size(const cell *c, double bs, double h)
{
    double want = 1e6 / bs; /* IOPS per MB/s */
    double lo = (c->iops - 0.5) / (c->speed + h);
    double hi = c->speed - h > 0 ? (c->iops + 0.5) / (c->speed - h) : INFINITY;
    return hi >= want * 0.90 && lo <= want * 1.15;
}

/* Rule 2 as a set: bit i stands for the block size 512 << i (512 bytes to 64 MiB), or bit 0
 * alone for the size the row names. The cells of a row keep the sizes that fit them all, so
 * a reading is dropped as soon as one of its cells fits none. */
enum { BS_ALL = (1u << 18) - 1 };

static unsigned cell_mask(const cell *c, int64_t named_bs, int dec)
{
    if (!bl_present(c->iops))
        return BS_ALL;
    double h = 0.5 * pow(10, -dec);
    if (named_bs > 0)
        return fits_block_size(c, (double)named_bs, h) ? BS_ALL : 0;
    unsigned m = 0;
    for (unsigned i = 0; i < 18; i++)
        if (fits_block_size(c, 512.0 * (double)(1u << i), h))
            m |= 1u << i;
    return m;
}

typedef struct search {
    size_t ncols;
    int64_t bs;
    split cur;
    splits *out;
} search;

static void add_split(splits *out, const split *s, size_t ncols)
{
    for (size_t i = 0; i < out->n; i++) {
        int same = 1;
        for (size_t c = 0; c < ncols && same; c++)
            same = out->v[i].c[c].speed == s->c[c].speed &&
                   (out->v[i].c[c].iops == s->c[c].iops ||
                    (!bl_present(out->v[i].c[c].iops) && !bl_present(s->c[c].iops)));
        if (same && out->v[i].label_len == s->label_len)
            return;
    }
    if (out->n <= MAX_SPLITS)
        out->v[out->n++] = *s;
}

static size_t digits(const char *p, size_t max)
{
    size_t n = 0;
    while (n < max && isdigit((unsigned char)p[n]))
        n++;
    return n;
}

static double figure(const char *p, size_t n)
{
    char buf[16];
    memcpy(buf, p, n);
    buf[n] = '\0';
    return strtod(buf, NULL);
}

/* Every way to read column col onwards from p under rule 1, keeping the block sizes mask
 * that the columns before fit (rule 2). */
static void enumerate(search *s, const char *p, size_t col, unsigned mask)
{
    if (s->out->n > MAX_SPLITS || ++s->out->steps > MAX_STEPS)
        return;
    if (col == s->ncols) {
        if (!*p)
            add_split(s->out, &s->cur, s->ncols);
        return;
    }
    size_t ip = digits(p, 7); /* the integer part runs up to the point */
    if (ip == 0 || ip > 6 || (ip > 1 && p[0] == '0') || p[ip] != '.' ||
        digits(p + ip + 1, (size_t)s->cur.dec) != (size_t)s->cur.dec)
        return;
    size_t sl = ip + 1 + (size_t)s->cur.dec;
    cell *c = &s->cur.c[col];
    c->speed = figure(p, sl);
    c->step = pow(10, -s->cur.dec);
    const char *q = p + sl;
    if (*q == '-') {
        c->iops = BL_ABSENT;
        enumerate(s, q + 1, col + 1, mask);
        return;
    }
    size_t nmax = digits(q, 8);
    for (size_t n = 1; n <= nmax && q[0] != '0'; n++) {
        if (q[n] == '.')
            continue; /* a figure never ends right before a point */
        c->iops = figure(q, n);
        unsigned m = mask & cell_mask(c, s->bs, s->cur.dec);
        if (m)
            enumerate(s, q + n, col + 1, m);
    }
}

/* Figures set apart by spaces, tabs or '|': one reading, no rule needed. *bad_comma: the
 * figure whose comma stopped the reading, or NULL. */
static int read_separated(const char *p, size_t ncols, int decimal_comma, cell *c,
                          const char **bad_comma)
{
    size_t col = 0, half = 0;
    *bad_comma = NULL;
    while (*p) {
        p += strspn(p, " \t|");
        if (!*p)
            break;
        size_t n = strcspn(p, " \t|");
        if (col >= ncols)
            return 0;
        char fig[32], *end;
        if (!bl_st_plain_figure(p, n, decimal_comma, fig, sizeof fig)) {
            *bad_comma = memchr(p, ',', n);
            return 0;
        }
        double v = strcmp(fig, "-") == 0 ? BL_ABSENT : strtod(fig, &end);
        if (bl_present(v) && (*end || v < 0))
            return 0;
        if (half == 0) {
            const char *dot = strchr(fig, '.');
            c[col].step = dot ? pow(10, -(double)strlen(dot + 1)) : 1.0;
            c[col].speed = v, half = 1;
        } else
            c[col++].iops = v, half = 0;
        p += n;
    }
    return col == ncols && half == 0 && bl_present(c[0].speed);
}

/* Every reading of the figures at text + cells; a '*' at text + label_len (star) takes 1 to
 * MAX_STAR_DIGITS of the digits after it (rule 3). */
static void row_splits(const char *text, size_t label_len, size_t cells, int star, int64_t bs,
                       size_t ncols, splits *out)
{
    search s = {.ncols = ncols, .bs = bs, .out = out};
    for (size_t k = star ? 1 : 0; k <= (star ? MAX_STAR_DIGITS : 0); k++) {
        const char *p = star ? text + label_len + 1 : text + cells;
        if (digits(p, k) != k)
            break;
        s.cur.label_len = star ? label_len + 1 + k : label_len;
        for (int dec = 1; dec <= 2; dec++) {
            s.cur.dec = dec;
            enumerate(&s, p + k, 0, BS_ALL);
        }
    }
}

static void emit_row(bl_parse_out *o, const table *tb, long line, const char *text,
                     const row_name *rn, const split *sp)
{
    char *label = bl_xstrndup(text + strspn(text, " \t"), sp->label_len - strspn(text, " \t"));
    for (size_t c = 0; c < tb->ncols; c++) {
        bl_record *r = bl_out_record(o, line);
        r->run = tb->run0 + (int64_t)c;
        bl_record_set_str(&r->tool, tb->tool);
        if (tb->caption)
            bl_record_set_label(r, "section", tb->caption);
        bl_record_set_label(r, "column", tb->col[c]);
        bl_record_set_label(r, "row", label);
        bl_record_set_str(&r->test, rn->seq ? (rn->write ? "seq-write" : "seq-read")
                                            : (rn->write ? "rand-write" : "rand-read"));
        bl_record_set_str(&r->op, rn->write ? "write" : "read");
        bl_record_set_str(&r->pattern, rn->seq ? "seq" : "rand");
        if (rn->bs > 0)
            r->bs = rn->bs;
        r->bw_bytes_s = sp->c[c].speed * 1e6;
        r->bw_prec = sp->c[c].step * 1e6;
        r->iops = sp->c[c].iops;
        bl_record_set_str(&r->note, "from a results table typed into the text");
    }
    free(label);
}

/* "'seq read*4' 47.7/-, 152.9/-": one reading of a row, for a message. */
static void describe(const char *text, const split *sp, size_t ncols, char *buf, size_t cap)
{
    size_t lead = strspn(text, " \t");
    int n = snprintf(buf, cap, "'%.*s'", (int)(sp->label_len - lead), text + lead);
    for (size_t c = 0; c < ncols && n > 0 && (size_t)n < cap; c++) {
        char iops[24] = "-";
        if (bl_present(sp->c[c].iops))
            snprintf(iops, sizeof iops, "%.0f", sp->c[c].iops);
        n += snprintf(buf + n, cap - (size_t)n, "%s %.*f/%s", c ? "," : "", sp->dec, sp->c[c].speed,
                      iops);
    }
}

/* One row: its figures, or an error when they cannot be read with certainty. */
static int is_gap(char c)
{
    return c == ' ' || c == '\t' || c == '|';
}

static void parse_row(bl_parse_out *o, const table *tb, long line, char *text, const row_name *rn)
{
    size_t label_len = rn->name_len; /* the caller trimmed the line's end */
    int star = rn->star;
    size_t k = star ? digits(text + label_len + 1, 16) : 0;
    if (k && is_gap(text[label_len + 1 + k])) /* "seq read*4  47.7": the count is settled */
        label_len += 1 + k, star = 0;
    size_t cells = label_len + strspn(text + label_len, " \t|");
    split sp = {.label_len = label_len};
    if (strpbrk(text + cells, " \t|")) {
        const char *bad;
        if (read_separated(text + cells, tb->ncols, tb->decimal_comma, sp.c, &bad)) {
            emit_row(o, tb, line, text, rn, &sp);
            return;
        }
        if (bad)
            bl_st_comma_error(o, line, bad, tb->not_decimal);
        else
            bl_out_error(o, line, "results table row: expected %zu speed/IOPS pairs ('%s')",
                         tb->ncols, text + cells);
        return;
    }
    if (strchr(text + cells, ',')) { /* run together: a comma would split a reading more ways */
        if (!tb->decimal_comma) {
            bl_st_comma_error(o, line, strchr(text + cells, ','), tb->not_decimal);
            return;
        }
        for (char *q = text + cells; *q; q++) /* the caller's copy of the line */
            if (*q == ',')
                *q = '.';
    }
    splits out = {.n = 0};
    row_splits(text, label_len, cells, star, rn->bs, tb->ncols, &out);
    if (out.steps > MAX_STEPS) {
        bl_out_error(o, line,
                     "results table row with too many ways to read its figures; "
                     "no records kept");
        return;
    }
    if (out.n == 1) {
        emit_row(o, tb, line, text, rn, &out.v[0]);
        return;
    }
    if (!out.n) {
        bl_out_error(o, line,
                     "results table row whose figures run together cannot be split into %zu "
                     "speed/IOPS pairs ('%s'); no records kept",
                     tb->ncols, text + rn->name_len);
        return;
    }
    char a[160], b[160];
    describe(text, &out.v[0], tb->ncols, a, sizeof a);
    describe(text, &out.v[1], tb->ncols, b, sizeof b);
    bl_out_error(o, line,
                 "results table row whose figures run together can be read more than one way "
                 "(%s or %s); no records kept",
                 a, b);
}

/* Whether the rows from line `first` use decimal commas (speed_table_num.h); when they do
 * not, *against is the line of the first figure that says so (0 when none has a comma). */
static int decimal_commas(const bl_text *t, size_t first, long *against)
{
    size_t commas = 0;
    row_name rn;
    *against = 0;
    for (size_t j = first; j < t->nlines && parse_row_name(t->line[j], &rn); j++) {
        long n = bl_st_decimal_commas(t->line[j] + rn.name_len);
        if (n < 0) {
            *against = (long)j + 1;
            return 0;
        }
        commas += (size_t)n;
    }
    return commas > 0;
}

static size_t parse_table(const bl_text *t, size_t h, bl_parse_out *o, int64_t *run)
{
    size_t first = h + 1;
    table tb = {.ncols = unit_columns(t, h, &first)};
    const char *names = after_word(t->line[h], "Type");
    if (tb.ncols > MAX_COLS || split_columns(names, tb.col, tb.ncols) != tb.ncols) {
        bl_out_error(o, (long)h + 1, "results table: cannot tell its %zu column names apart",
                     tb.ncols);
        return first;
    }
    tb.tool = tool_above(t, h);
    tb.caption = bl_heading_above(t, (long)h + 1, caption_stop(t, h));
    tb.run0 = *run + 1;
    tb.decimal_comma = decimal_commas(t, first, &tb.not_decimal);
    size_t j = first, rows = 0;
    for (; j < t->nlines; j++) {
        row_name rn;
        if (!parse_row_name(t->line[j], &rn))
            break;
        size_t len = strlen(t->line[j]);
        while (len && isspace((unsigned char)t->line[j][len - 1]))
            len--;
        char *text = bl_xstrndup(t->line[j], len);
        parse_row(o, &tb, (long)j + 1, text, &rn);
        free(text);
        rows++;
    }
    if (rows)
        *run += (int64_t)tb.ncols;
    for (size_t c = 0; c < tb.ncols; c++)
        free(tb.col[c]);
    free(tb.caption);
    return j;
}

/* ---- the format --------------------------------------------------------------------------- */

static int probe(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (is_header_at(t, i))
            return 50;
    return 0;
}

static void parse(const bl_text *t, bl_parse_out *o)
{
    int64_t run = 0;
    for (size_t i = 0; i < t->nlines; i++)
        if (is_header_at(t, i))
            i = parse_table(t, i, o, &run) - 1;
}

const bl_format bl_format_speed_table = {
    .name = "speed-table",
    .summary = "Speed (MB/s) / IOPS results tables typed into a page, also run together",
    .family = "speed-table",
    .rank = 1,
    .probe = probe,
    .parse = parse,
};

#include "cdm_table.h"
#include "cdm_common.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include <stdlib.h>
#include <string.h>

typedef struct piece {
    const char *s;
    size_t n;
} piece;

/* The pieces of a line cut at '|', trimmed, including text before the first bar and after
 * the last one; empty pieces are kept so that columns stay in place. */
static size_t split_line(const char *s, piece *v, size_t max)
{
    size_t n = 0;
    for (;;) {
        const char *bar = strchr(s, '|');
        const char *e = bar ? bar : s + strlen(s);
        const char *b = s;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        const char *q = e;
        while (q > b && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        if (n < max)
            v[n++] = (piece){b, (size_t)(q - b)};
        if (!bar)
            break;
        s = bar + 1;
    }
    return n;
}

static int is_rule(const piece *p)
{
    return p->n > 0 && strspn(p->s, "-:") >= p->n;
}

static int whole_value(const piece *p, double *bw, double *iops, double *lat)
{
    if (p->n == 0 || p->n > 80)
        return 0;
    char buf[96];
    memcpy(buf, p->s, p->n);
    buf[p->n] = '\0';
    size_t used = bl_cdm_value_parse(buf, bw, iops, lat);
    return used && buf[used + strspn(buf + used, " ")] == '\0';
}

static int plain_number(const piece *p, double *v)
{
    char buf[48];
    if (p->n == 0 || p->n >= sizeof buf)
        return 0;
    memcpy(buf, p->s, p->n);
    buf[p->n] = '\0';
    const char *end;
    return bl_parse_number(buf, 0, v, &end) && *end == '\0';
}

/* ---- fio-cdm ---- */

enum { MAX_ROWS = 32, MAX_COLS = 4 };

typedef struct fc_row {
    bl_cdm_test t;
    long line;
    double bw[MAX_COLS], iops[MAX_COLS], lat[MAX_COLS];
} fc_row;

static void fio_cdm_meta(const bl_text *t, size_t i, bl_cdm_meta *m)
{
    for (size_t k = i >= 3 ? i - 3 : 0; k < i; k++) {
        const char *s = t->line[k];
        if (strncmp(s, "tests: ", 7) != 0)
            continue;
        bl_cdm_meta_label(m, "runs", s + 7, strcspn(s + 7, ","));
        const char *z = strstr(s, "size: ");
        if (z)
            bl_cdm_meta_label(m, "test_size", z + 6, strcspn(z + 6, ","));
        const char *g = strstr(s, "target: ");
        if (g)
            bl_cdm_meta_label(m, "target", g + 8, strcspn(g + 8, " "));
    }
}

/* fio-cdm's shell script prints MB/s as %.3f after converting fio's "bw=" by its unit
 * letter; when it misreads the unit the cell is a whole number of B/s or KB/s printed as
 * "64159.000" (buty4649/fio-cdm issue 1: 43673.000 "MB/s" for an HDD's 4K reads). Which unit
 * it was cannot be told from the table, so such a cell is refused, never scaled. */
static int misread_unit(const piece *c, double mb_s)
{
    return mb_s >= 1000 && c->n > 4 && memcmp(c->s + c->n - 4, ".000", 4) == 0;
}

static void fill(double *dst, const piece *c, size_t nc, size_t ncol, double scale, bl_parse_out *o,
                 long line)
{
    for (size_t k = 0; k < ncol && k + 1 < nc; k++) {
        double v;
        if (plain_number(&c[k + 1], &v) && scale == 1e6 && misread_unit(&c[k + 1], v))
            bl_out_error(o, line,
                         "fio-cdm cell '%.*s' MB/s is a whole number printed as .000, what "
                         "fio-cdm's shell script gives when it misreads fio's bandwidth unit "
                         "(B/s or KB/s, it does not say which): left out",
                         (int)c[k + 1].n, c[k + 1].s);
        else if (plain_number(&c[k + 1], &v))
            dst[k] = v * scale;
        else if (c[k + 1].n)
            bl_out_error(o, line, "fio-cdm cell '%.*s' is not a number", (int)c[k + 1].n,
                         c[k + 1].s);
    }
}

static size_t fio_cdm_table(const bl_text *t, size_t i, bl_parse_out *o, int64_t *run)
{
    piece h[8];
    size_t nh = split_line(t->line[i], h, 8);
    int ops[MAX_COLS];
    size_t ncol = 0, first = 1; /* piece 0 is the text before the first bar */
    for (size_t k = first + 1; k < nh && ncol < MAX_COLS; k++) {
        if (h[k].n == 0)
            continue;
        ops[ncol++] = strncmp(h[k].s, "Read", 4) == 0    ? 'r'
                      : strncmp(h[k].s, "Write", 5) == 0 ? 'w'
                                                         : 'm';
    }
    fc_row *rows = bl_xcalloc(MAX_ROWS, sizeof *rows);
    size_t nr = 0, j;
    for (j = i + 1; j < t->nlines && strchr(t->line[j], '|'); j++) {
        piece c[8];
        size_t nc = split_line(t->line[j], c, 8);
        size_t f = nc > 1 ? 1 : 0;
        const piece *name = &c[f];
        if (is_rule(name))
            continue;
        if (nr > 0 && memmem(name->s, name->n, "IOPS", 4)) {
            fill(rows[nr - 1].iops, c + f, nc - f, ncol, 1, o, (long)j + 1);
        } else if (nr > 0 && memmem(name->s, name->n, "latency", 7)) {
            fill(rows[nr - 1].lat, c + f, nc - f, ncol, 1, o, (long)j + 1);
        } else if (nr < MAX_ROWS && bl_cdm_test_parse(name->s, name->n, 0, &rows[nr].t)) {
            fc_row *r = &rows[nr++];
            r->line = (long)j + 1;
            for (size_t k = 0; k < MAX_COLS; k++)
                r->bw[k] = r->iops[k] = r->lat[k] = BL_ABSENT;
            fill(r->bw, c + f, nc - f, ncol, 1e6, o, (long)j + 1);
        } else {
            bl_out_error(o, (long)j + 1, "fio-cdm row '%.*s' is not a test name", (int)name->n,
                         name->s);
        }
    }
    if (nr) {
        bl_cdm_meta m = {.tool = "fio-cdm"};
        fio_cdm_meta(t, i, &m);
        ++*run;
        for (size_t r = 0; r < nr; r++)
            for (size_t k = 0; k < ncol; k++)
                if (bl_present(rows[r].bw[k]))
                    bl_cdm_emit(o, rows[r].line, *run, &m, &rows[r].t, ops[k], rows[r].bw[k],
                                rows[r].iops[k], rows[r].lat[k]);
        bl_cdm_meta_free(&m);
    }
    free(rows);
    return j;
}

static int fio_cdm_header(const char *s)
{
    return strchr(s, '|') && strstr(s, "Read(MB/s)");
}

void bl_cdm_parse_fio_cdm(const bl_text *t, bl_parse_out *o, int64_t *run)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (fio_cdm_header(t->line[i]))
            i = fio_cdm_table(t, i, o, run) - 1;
}

/* ---- comparison tables flattened from HTML ---- */

enum { MAX_GROUPS = 64, MAX_GCOLS = 8 };

typedef struct grid {
    char *cols[MAX_GCOLS];
    size_t ncols;
    char *caption;
    size_t group;
    int64_t runs[MAX_GROUPS][MAX_GCOLS];
    bl_cdm_test test;
    int have_test;
    size_t vi;
} grid;

static int region_is_cdm(const bl_text *t, size_t from, size_t to)
{
    int names = 0, values = 0;
    for (size_t k = from; k < to; k++) {
        if (fio_cdm_header(t->line[k]))
            return 0;
        piece c[32];
        size_t nc = split_line(t->line[k], c, 32);
        for (size_t p = 0; p < nc; p++) {
            bl_cdm_test tt;
            double a, b, d;
            if (whole_value(&c[p], &a, &b, &d))
                values++;
            else if (c[p].n && bl_cdm_test_parse(c[p].s, c[p].n, 0, &tt))
                names++;
        }
    }
    return names > 0 && values > 0;
}

static void grid_piece(grid *g, const piece *p, long line, int first_line, bl_parse_out *o,
                       int64_t *run)
{
    double bw, iops, lat;
    if (p->n == 0 || is_rule(p))
        return;
    if (whole_value(p, &bw, &iops, &lat)) {
        if (!g->have_test) {
            bl_out_error(o, line, "figure '%.*s' under no test name", (int)p->n, p->s);
            return;
        }
        size_t gi = g->group < MAX_GROUPS ? g->group : MAX_GROUPS - 1;
        size_t ci = g->vi < MAX_GCOLS ? g->vi : MAX_GCOLS - 1;
        if (!g->runs[gi][ci])
            g->runs[gi][ci] = ++*run;
        bl_cdm_meta m = {.tool = "CrystalDiskMark"};
        if (g->caption)
            bl_cdm_meta_label(&m, "section", g->caption, strlen(g->caption));
        if (g->vi < g->ncols)
            bl_cdm_meta_label(&m, "column", g->cols[g->vi], strlen(g->cols[g->vi]));
        bl_cdm_emit(o, line, g->runs[gi][ci], &m, &g->test, 0, bw, iops, lat);
        bl_cdm_meta_free(&m);
        g->vi++;
        return;
    }
    bl_cdm_test tt;
    if (bl_cdm_test_parse(p->s, p->n, 0, &tt) && tt.op) {
        g->test = tt;
        g->have_test = 1;
        g->vi = 0;
        return;
    }
    if (first_line && !g->caption && !g->have_test) {
        if (g->ncols < MAX_GCOLS)
            g->cols[g->ncols++] = bl_xstrndup(p->s, p->n);
        return;
    }
    free(g->caption);
    g->caption = bl_xstrndup(p->s, p->n);
    g->group++;
    g->have_test = 0;
}

static void grid_region(const bl_text *t, size_t from, size_t to, bl_parse_out *o, int64_t *run)
{
    grid *g = bl_xcalloc(1, sizeof *g);
    for (size_t k = from; k < to; k++) {
        piece c[32];
        size_t nc = split_line(t->line[k], c, 32);
        for (size_t p = 0; p < nc; p++)
            grid_piece(g, &c[p], (long)k + 1, k == from, o, run);
    }
    for (size_t i = 0; i < g->ncols; i++)
        free(g->cols[i]);
    free(g->caption);
    free(g);
}

void bl_cdm_parse_grid(const bl_text *t, bl_parse_out *o, int64_t *run)
{
    size_t i = 0;
    while (i < t->nlines) {
        if (!strchr(t->line[i], '|')) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < t->nlines && strchr(t->line[j], '|'))
            j++;
        if (region_is_cdm(t, i, j))
            grid_region(t, i, j, o, run);
        i = j;
    }
}

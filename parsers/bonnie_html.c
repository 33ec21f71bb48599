/* bon_csv2html pages: the HTML table bonnie++'s bon_csv2html makes of CSV lines, one pair of
 * rows a run (figures, then Latency), optional Concurrency/Chunk Size/Max Size/Min Size/
 * Num Dirs columns as the page's headings say.
 *
 * Units, as the real bon_csv2html of bonnie++ 2.00a prints them (tried with values around
 * its thresholds): under its "M/sec" headings the Block, Rewrite and block-read cells are
 * MiB/s rounded to a whole number (264958 K/sec -> 259) while the Per Char cells stay K/sec;
 * 1.9x pages say "K/sec" and print every cell as the CSV has it. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "bonnie_common.h"
#include "parser.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BH_MAXCELL 64

typedef struct bh_cell {
    char text[96];
    long line;
} bh_cell;

typedef struct bh_row {
    size_t n;
    bh_cell c[BH_MAXCELL];
    int rowheader; /* the first cell is a run's host */
} bh_row;

/* The page joined back into one string, with where each line starts. */
typedef struct bh_page {
    bl_strbuf s;
    size_t *start, n;
    const char *p; /* reader */
} bh_page;

static long line_at(const bh_page *pg, const char *q)
{
    size_t off = (size_t)(q - pg->s.s), lo = 0, hi = pg->n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (pg->start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo + 1;
}

/* The next "<tag" (any case) from p, or NULL. */
static const char *find_tag(const char *p, const char *tag)
{
    size_t n = strlen(tag);
    for (const char *q = p; (q = strchr(q, '<')); q++)
        if (strncasecmp(q + 1, tag, n) == 0 && !isalpha((unsigned char)q[1 + n]))
            return q;
    return NULL;
}

/* The text of a cell: its content without tags, blanks squeezed, "<br>" as a space. */
static void cell_text(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    int in_tag = 0;
    for (; *s && n + 1 < cap; s++) {
        if (*s == '<') {
            if (strncasecmp(s, "</td", 4) == 0 || strncasecmp(s, "</tr", 4) == 0 ||
                strncasecmp(s, "<td", 3) == 0 || strncasecmp(s, "<tr", 3) == 0)
                break;
            in_tag = 1;
            if (n && out[n - 1] != ' ')
                out[n++] = ' ';
        } else if (*s == '>' && in_tag)
            in_tag = 0;
        else if (!in_tag && !(isspace((unsigned char)*s) && (n == 0 || out[n - 1] == ' ')))
            out[n++] = isspace((unsigned char)*s) ? ' ' : *s;
    }
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

/* The cells of the next <tr>; 0 at the end of the page. */
static int next_row(bh_page *pg, bh_row *row)
{
    const char *tr = find_tag(pg->p, "tr");
    if (!tr)
        return 0;
    const char *end = find_tag(tr + 1, "tr");
    row->n = 0;
    row->rowheader = 0;
    for (const char *td = find_tag(tr, "td"); td && (!end || td < end) && row->n < BH_MAXCELL;
         td = find_tag(td + 1, "td")) {
        const char *gt = strchr(td, '>');
        if (!gt)
            break;
        if (row->n == 0 && strstr(td, "rowheader") && strstr(td, "rowheader") < gt)
            row->rowheader = 1;
        cell_text(gt + 1, row->c[row->n].text, sizeof row->c[row->n].text);
        row->c[row->n++].line = line_at(pg, td);
    }
    pg->p = end ? end : tr + 1;
    return 1;
}

typedef struct bh_layout {
    int pre;  /* columns between host and the first figure besides the size */
    int mid;  /* columns after Num Files before the file tests */
    int megs; /* the block columns are MiB/s ("M/sec" headings) */
    char version[32];
} bh_layout;

static void read_heading(const bh_row *row, bh_layout *L)
{
    int before_perchar = 1, after_files = 0;
    for (size_t i = 0; i < row->n; i++) {
        const char *s = row->c[i].text;
        if (strncmp(s, "Version ", 8) == 0)
            snprintf(L->version, sizeof L->version, "%s", s + 8);
        if (strcmp(s, "M/sec") == 0)
            L->megs = 1;
        if (strcmp(s, "Per Char") == 0)
            before_perchar = 0;
        if (strcmp(s, "Num Files") == 0)
            after_files = 1;
        if (strcmp(s, "Create") == 0)
            after_files = 0;
        if (before_perchar && (strcmp(s, "Concurrency") == 0 || strcmp(s, "Chunk Size") == 0))
            L->pre++;
        if (after_files && (strcmp(s, "Max Size") == 0 || strcmp(s, "Min Size") == 0 ||
                            strcmp(s, "Num Dirs") == 0 || strcmp(s, "Chunk Size") == 0))
            L->mid++;
    }
}

static int fill_figures(const bh_row *row, const bh_layout *L, bl_bonnie_run *r)
{
    size_t at = 1 + (size_t)L->pre; /* host, [concurrency, chunk], size */
    if (row->n < at + 1 + 12 + 1 + (size_t)L->mid + 12)
        return 0;
    snprintf(r->host, sizeof r->host, "%s", row->c[0].text);
    snprintf(r->size, sizeof r->size, "%s", row->c[at].text);
    r->line = row->c[0].line;
    at++;
    for (int test = 0; test < BL_BONNIE_NTESTS; test++) {
        if (test == BL_BONNIE_NIO) {
            snprintf(r->files, sizeof r->files, "%s", row->c[at].text);
            at += 1 + (size_t)L->mid;
        }
        const bh_cell *v = &row->c[at], *cpu = &row->c[at + 1];
        at += 2;
        if (!v->text[0])
            continue;
        if (!bl_bonnie_cell_parse(v->text, strlen(v->text), cpu->text, strlen(cpu->text), test,
                                  &r->cell[test], v->line))
            return -1;
        /* Block, Rewrite, block read: whole MiB/s under "M/sec"; Per Char stays K/sec. */
        if (L->megs && (test == 1 || test == 2 || test == 4) &&
            r->cell[test].state == BL_CELL_VALUE)
            r->cell[test].value *= 1024;
    }
    return 1;
}

static void fill_latencies(const bh_row *row, bl_bonnie_run *r)
{
    int test = 0;
    for (size_t i = 0; i < row->n && test < BL_BONNIE_NTESTS; i++) {
        const char *s = row->c[i].text;
        if (strcmp(s, "Latency") == 0) {
            test = i == 0 ? 0 : BL_BONNIE_NIO;
            continue;
        }
        if (!*s) /* the gap under Num Files */
            continue;
        double ns;
        if (bl_parse_duration_ns(s, 1e9, &ns, NULL) && r->cell[test].state != BL_CELL_EMPTY)
            r->cell[test].lat_ns = ns;
        test++;
    }
}

static int is_page(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (strstr(t->line[i], "Bonnie++ Benchmark results") &&
            (strstr(t->line[i], "<title>") || strstr(t->line[i], "<TITLE>")))
            return 1;
    return 0;
}

static int probe(const bl_text *t)
{
    return is_page(t) ? 85 : 0;
}

static void parse(const bl_text *t, bl_parse_out *o)
{
    bh_page pg = {.n = t->nlines};
    bl_strbuf_init(&pg.s);
    pg.start = bl_xcalloc(t->nlines + 1, sizeof *pg.start);
    for (size_t i = 0; i < t->nlines; i++) {
        pg.start[i] = pg.s.len;
        bl_strbuf_puts(&pg.s, t->line[i]);
        bl_strbuf_putc(&pg.s, '\n');
    }
    if (!pg.s.s)
        bl_strbuf_puts(&pg.s, "");
    pg.p = pg.s.s;
    bh_layout L = {0};
    bh_row *row = bl_xmalloc(sizeof *row);
    int64_t run = 0;
    while (next_row(&pg, row)) {
        if (!row->rowheader) {
            read_heading(row, &L);
            continue;
        }
        bl_bonnie_run r;
        bl_bonnie_run_init(&r);
        snprintf(r.version, sizeof r.version, "%s", L.version);
        int rc = fill_figures(row, &L, &r);
        if (rc <= 0) {
            bl_out_error(o, row->c[0].line,
                         "bon_csv2html row with %zu cells does not fit the page's columns", row->n);
            continue;
        }
        if (next_row(&pg, row) && row->n && strcmp(row->c[0].text, "Latency") == 0)
            fill_latencies(row, &r);
        run++;
        size_t first = o->recs.n;
        bl_bonnie_emit(o, &r, run, NULL);
        for (size_t i = first; L.megs && i < o->recs.n; i++) {
            bl_record *rec = o->recs.v[i];
            int megs = rec->test && (strcmp(rec->test, "seq-write-block") == 0 ||
                                     strcmp(rec->test, "seq-rewrite") == 0 ||
                                     strcmp(rec->test, "seq-read-block") == 0);
            if (megs && !rec->note)
                bl_record_set_str(&rec->note, "bon_csv2html: MiB/s rounded to a whole number");
        }
    }
    free(row);
    free(pg.start);
    bl_strbuf_free(&pg.s);
}

/* is_page needs it in the title line. */
static const char *const bonnie_html_needles[] = {"Bonnie++ Benchmark results", NULL};

const bl_format bl_format_bonnie_html = {
    .name = "bonnie-html",
    .summary = "bon_csv2html pages (bonnie++ results as an HTML table)",
    .family = "bonnie",
    .rank = 0,
    .probe = probe,
    .parse = parse,
    .needles = bonnie_html_needles,
};

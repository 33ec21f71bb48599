/* benchlog compare: two set-ups side by side, test by test, with the change in per cent. */
#include "../core/escape.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "../compare/diff.h"
#include "../compare/load.h"
#include "../compare/sides.h"
#include "../charts/chart.h"
#include "../report/page.h"
#include "../report/render.h"
#include "../report/xlsx.h"
#include "args.h"
#include "cmp_args.h"
#include "colour.h"
#include "commands.h"
#include "global.h"
#include "options.h"
#include "say.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage[] =
    "Usage: benchlog compare [OPTIONS] A B [FILTER...]\n\n"
    "Compares two sides test by test: each test both have, the figure of each side, the\n"
    "change from A to B in per cent, and whether the change lies outside the 95%\n"
    "confidence intervals of the repeats (where a side has repeats). A and B are run IDs\n"
    "(as benchlog list prints them; same as run=ID) or FILTER terms (host=nas1,\n"
    "section~iSCSI); FILTER terms after them narrow both sides. The records of one side\n"
    "that share a test are its repeats only when they were run the same way on the same\n"
    "set-up (heading, table column, host, tool, source, job, device...); a side of several\n"
    "set-ups is refused with their names (narrow it), or averaged on purpose with --pool.\n"
    "Each change says better or worse (throughput and IOPS: higher is better; latency:\n"
    "lower), or \"within noise\" when it lies inside the 95% confidence intervals.\n";

static const char after[] =
    "Options may stand before, between or after A, B and the filters.\n\n"
    "Examples:\n"
    "  benchlog compare 'column=1 GbE' 'column=10 GbE' tool=cdm\n"
    "  benchlog compare --metric iops --metric p99 host=old host=new test=rand-read\n";

typedef struct compare_args {
    const char *db, *out;
    int csv, first, pool;
    bl_cmp_args cmp;
} compare_args;

/* Returns the number of operands (A, B, FILTER...) moved to argv[0..n), or -1 with *status. */
static int read_args(int argc, char **argv, compare_args *a, int *status)
{
    static const bl_command_help h = {"compare", usage, after, NULL, 0};
    const bl_option opts[] = {
        BL_OPT_DB(&a->db),
        BL_OPT_FN(0, "metric", &a->cmp, "NAME",
                  "compare this figure: bw, iops, lat, p50, p99, p99.9, value\n"
                  "(repeatable; default each test's main figure: MB/s, else IOPS)",
                  bl_cmp_opt_metric),
        BL_CMP_OPT_REPEATS(&a->cmp),
        BL_OPT_BOOL(0, "csv", &a->csv, "CSV with plain numbers"),
        BL_OPT_BOOL(0, "pool", &a->pool,
                    "average a side's different set-ups on purpose (default: refused)"),
        BL_OPT_STRING('o', "output", &a->out, "FILE",
                      "write to FILE instead of stdout; FILE.png, .svg or .pdf: a bar\n"
                      "chart of both sides per test; FILE.html: the page with B's\n"
                      "ratios to A; FILE.xlsx: the workbook of the two sides"),
        BL_OPT_END(),
    };
    memset(a, 0, sizeof *a);
    int n = bl_options(&h, opts, argc, argv, status);
    if (n < 0)
        return -1;
    if (n < 2) {
        *status = bl_usage_error("compare", "wants two sides, A and B");
        return -1;
    }
    return n;
}

/* A side is a FILTER term, or a run ID standing for run=ID. */
static char *side_term(const char *arg)
{
    if (strpbrk(arg, "=~"))
        return bl_xstrdup(arg);
    size_t n = strlen(arg) + 5;
    char *s = bl_xmalloc(n);
    snprintf(s, n, "run=%s", arg);
    return s;
}

/* Side's FILTER terms: its own (terms[0], owned) and the FILTER terms after A and B. */
static char **side_terms(const compare_args *a, int argc, char **argv, int side, int *n)
{
    int nextra = argc - a->first - 2;
    char **terms = bl_xmalloc((size_t)(nextra + 1) * sizeof *terms);
    terms[0] = side_term(argv[a->first + side]);
    for (int i = 0; i < nextra; i++)
        terms[i + 1] = argv[a->first + 2 + i];
    *n = nextra + 1;
    return terms;
}

static void free_terms(char **terms)
{
    free(terms[0]);
    free(terms);
}

/* Walks one side into sides; returns the load status. */
static int load_side(const compare_args *a, int argc, char **argv, int side, bl_sides *sides)
{
    int nterms;
    char **terms = side_terms(a, argc, argv, side, &nterms);
    char err[512];
    size_t nsrc = 0;
    int rc = bl_sides_walk(sides, a->db, side, argv[a->first + side], nterms, terms, &nsrc, err,
                           sizeof err);
    if (rc)
        fprintf(stderr, "benchlog compare: %s: %s\n", side ? "B" : "A", err);
    else if (nsrc > 1 && a->pool)
        bl_note("compare", "%s (%s) spans %zu sources, pooled (--pool)", side ? "B" : "A",
                argv[a->first + side], nsrc);
    free_terms(terms);
    return rc;
}

/* The records of both sides for a file to send, walked from the store again rather than held:
 * A's then B's, each labelled compare=NAME as the table names its side. */
typedef struct sides_walk {
    const compare_args *a;
    int argc;
    char **argv;
    char *name[2];
    int at;
} sides_walk;

/* The names the records take: the sides' own (sides.h) when they tell A from B, else the
 * arguments as given. */
static void name_walk(sides_walk *w, const bl_sides *sides)
{
    const char *arg[2] = {w->argv[w->a->first], w->argv[w->a->first + 1]};
    char *named[2] = {bl_sides_name(sides, 0), bl_sides_name(sides, 1)};
    const char *to[2] = {named[0] ? named[0] : arg[0], named[1] ? named[1] : arg[1]};
    int apart = strcmp(to[0], to[1]) != 0;
    for (int i = 0; i < 2; i++)
        w->name[i] = bl_xstrdup(apart ? to[i] : arg[i]);
    free(named[0]);
    free(named[1]);
}

static void tag_side(void *ctx, bl_record *r)
{
    const sides_walk *w = ctx;
    bl_record_set_label(r, "compare", w->name[w->at]);
}

/* A bl_rec_walk_fn (compare/load.h) over src, a sides_walk. */
static int walk_sides(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen)
{
    sides_walk *w = src;
    int rc = 0;
    for (w->at = 0; w->at < 2 && rc == 0; w->at++) {
        int nterms;
        char **terms = side_terms(w->a, w->argc, w->argv, w->at, &nterms);
        rc = bl_report_walk_tag(w->a->db, nterms, terms, tag_side, w, fn, ctx, err, errlen);
        free_terms(terms);
    }
    return rc;
}

static int add_page_rec(void *ctx, const bl_record *r)
{
    bl_page_recs_add(ctx, r);
    return 0;
}

static int write_out(const char *path, const bl_strbuf *sb)
{
    char err[512];
    if (path) {
        /* Whole or not at all: a failed write leaves the old file as it was. */
        if (bl_write_file(path, sb->s ? sb->s : "", sb->len, err, sizeof err) == 0)
            return 0;
        fprintf(stderr, "benchlog compare: %s\n", err);
        return 1;
    }
    int bad = sb->len && fwrite(sb->s, 1, sb->len, stdout) != sb->len;
    bad |= fflush(stdout) != 0;
    if (bad)
        fprintf(stderr, "benchlog compare: cannot write stdout\n");
    return bad;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcasecmp(s + n - k, tail) == 0;
}

/* -o FILE.png|svg|pdf|html|xlsx: the comparison as a file to send; 0 done, 1 failed, -1 when
 * FILE names none of these (the text is written). */
static int write_sendable(const compare_args *a, bl_table *t, sides_walk *recs,
                          const bl_diff_line *l, size_t n)
{
    const char *path = a->out;
    char err[512] = "", title[512];
    size_t v[4] = {0}; /* worse, same, better, within noise */
    for (size_t k = 0; k < n; k++)
        v[l[k].verdict + 1]++;
    snprintf(title, sizeof title,
             "%s against %s: better in %zu of %s, worse in %zu, within noise or the same in %zu",
             t->cols[1].title, t->cols[0].title, v[2], bl_count(n, "test").s, v[0], v[1] + v[3]);
    int rc = -1;
    if (ends_with(path, ".png") || ends_with(path, ".svg") || ends_with(path, ".pdf")) {
        t->baseline = 0; /* B's change and verdict beside its figure */
        bl_chart_opts co = {
            .kind = BL_CHART_BAR, .table = t, .title = title, .log = -1, .changes = 1};
        if (a->cmp.n_metrics) {
            co.has_metric = 1;
            co.metric = (int)a->cmp.metrics[0];
        }
        rc = bl_chart_file(path, NULL, &co, err, sizeof err) ? 1 : 0; /* t and title: no record */
        bl_chart_cleanup();
    } else if (ends_with(path, ".html")) {
        t->baseline = 0; /* B's ratio beside its figure */
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_page_opts po = {.title = title, .charts = 1, .metric = -1};
        if (a->cmp.n_metrics)
            po.metric = (int)a->cmp.metrics[0];
        bl_page_recs p = {0};
        rc = walk_sides(recs, add_page_rec, &p, err, sizeof err) ? 1 : 0;
        if (rc == 0) {
            bl_page_html_recs(t, &p, &po, &sb);
            rc = bl_write_file(path, sb.s ? sb.s : "", sb.len, err, sizeof err) ? 1 : 0;
        }
        bl_page_recs_free(&p);
        bl_strbuf_free(&sb);
    } else if (ends_with(path, ".xlsx")) {
        t->baseline = 0; /* B's ratio to A */
        bl_xlsx_opts xo = {.by = "compare",
                           .title = title,
                           .metrics = a->cmp.metrics,
                           .n_metrics = a->cmp.n_metrics,
                           .repeats = a->cmp.repeats};
        rc = bl_xlsx_write_walk(path, t, walk_sides, recs, &xo, err, sizeof err) ? 1 : 0;
    }
    if (rc == 1)
        fprintf(stderr, "benchlog compare: %s\n", err);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    compare_args a;
    int rc;
    argc = read_args(argc, argv, &a, &rc);
    if (argc < 0)
        return rc;
    rc = 0;
    if (strcmp(argv[a.first], argv[a.first + 1]) == 0)
        return bl_usage_error("compare", "A and B are the same ('%s')", argv[a.first]);
    /* The table from one walk of each side into fine groups (sides.h); a file to send walks
     * the sides again for what it lists of the records, so none is held. */
    bl_repeats rep = a.cmp.repeats;
    bl_sides *sides = bl_sides_new(rep == BL_REP_MEDIAN || rep == BL_REP_ALL);
    for (int side = 0; side < 2 && rc == 0; side++)
        rc = load_side(&a, argc, argv, side, sides);
    if (rc) {
        bl_sides_free(sides);
        return rc;
    }
    char err[512];
    bl_table_opts to = {.by = "compare", .pool = a.pool, .repeats = rep};
    bl_table *t = bl_sides_table(sides, &to, err, sizeof err);
    sides_walk recs = {.a = &a, .argc = argc, .argv = argv};
    name_walk(&recs, sides);
    bl_sides_free(sides);
    if (!t) {
        free(recs.name[0]);
        free(recs.name[1]);
        return bl_usage_error("compare", "%s", err);
    }
    if (t->ncols > 2) {
        /* A side whose records of one test were run differently is not averaged (report/
         * table.h splits its set-up): say which labels tell them apart, refuse the figure. */
        fprintf(stderr,
                "benchlog compare: a side holds runs of one test from different set-ups or run "
                "differently; narrow it with FILTER terms (or --pool to average them). "
                "Set-ups:");
        for (size_t j = 0; j < t->ncols; j++) {
            char *title = bl_esc_term_dup(t->cols[j].title, BL_ESC_LINE);
            fprintf(stderr, "%s '%s'", j ? "," : "", title);
            free(title);
        }
        fprintf(stderr, "\n");
        bl_table_free(t);
        free(recs.name[0]);
        free(recs.name[1]);
        return 1;
    }
    bl_diff_line *lines =
        bl_xmalloc((t->nrows * (a.cmp.n_metrics ? a.cmp.n_metrics : 1) + 1) * sizeof *lines);
    size_t n = t->ncols == 2 ? bl_diff(t, 0, 1, a.cmp.metrics, a.cmp.n_metrics, lines) : 0;
    if (n == 0)
        fprintf(stderr, "benchlog compare: A and B have no test with a figure in common\n");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int sent = n && a.out ? write_sendable(&a, t, &recs, lines, n) : -1;
    if (sent >= 0) {
        rc = sent;
    } else if (n) {
        bl_diff_render(t, 0, 1, lines, n, a.csv, &sb);
        if (!a.csv && !a.out && bl_color(stdout))
            bl_paint_diff(&sb, lines, n);
        bl_report_opts ro = {.metrics = a.cmp.metrics, .n_metrics = a.cmp.n_metrics};
        if (!a.csv)
            bl_report_footnote(t, &ro, &sb, "");
        rc = write_out(a.out, &sb);
    } else {
        rc = 1;
    }
    bl_strbuf_free(&sb);
    free(lines);
    bl_table_free(t);
    free(recs.name[0]);
    free(recs.name[1]);
    return rc;
}

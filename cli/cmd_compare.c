/* benchlog compare: two set-ups side by side, test by test, with the change in per cent. */
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "../compare/diff.h"
#include "../compare/load.h"
#include "../report/render.h"
#include "args.h"
#include "cmp_args.h"
#include "colour.h"
#include "commands.h"
#include "global.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog compare [OPTIONS] A B [FILTER...]\n\n"
    "Compares two sides test by test: each test both have, the figure of each side, the\n"
    "change from A to B in per cent, and whether the change lies outside the 95%\n"
    "confidence intervals of the repeats (where a side has repeats). A and B are run IDs\n"
    "(as benchlog list prints them; same as run=ID) or FILTER terms (host=nas1,\n"
    "section~iSCSI); FILTER terms after them narrow both sides. The records of one side\n"
    "that share a test are its repeats; stderr says when a side spans several sources.\n";

static const char after[] =
    "Options may stand before, between or after A, B and the filters.\n\n"
    "Examples:\n"
    "  benchlog compare 'column=1 GbE' 'column=10 GbE' tool=cdm\n"
    "  benchlog compare --metric iops --metric p99 host=old host=new test=rand-read\n";

typedef struct compare_args {
    const char *db, *out;
    int csv, first;
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
        BL_OPT_STRING('o', "output", &a->out, "FILE", "write to FILE instead of stdout"),
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

/* Loads one side, each record labelled compare=NAME; returns the load status. */
static int load_side(const compare_args *a, int argc, char **argv, int side, bl_records *all)
{
    int nextra = argc - a->first - 2;
    char **terms = bl_xmalloc((size_t)(nextra + 1) * sizeof *terms);
    terms[0] = side_term(argv[a->first + side]);
    for (int i = 0; i < nextra; i++)
        terms[i + 1] = argv[a->first + 2 + i];
    bl_records got;
    bl_records_init(&got);
    char err[512];
    int rc = bl_report_load(a->db, nextra + 1, terms, &got, err, sizeof err);
    if (rc)
        fprintf(stderr, "benchlog compare: %s: %s\n", side ? "B" : "A", err);
    size_t nsrc = 0;
    for (size_t i = 0; i < got.n; i++) {
        bl_record *r = got.v[i];
        bl_record_set_label(r, "compare", argv[a->first + side]);
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen =
                strcmp(got.v[k]->source ? got.v[k]->source : "", r->source ? r->source : "") == 0;
        nsrc += !seen;
        bl_records_push(all, r);
    }
    if (nsrc > 1)
        fprintf(stderr,
                "benchlog compare: %s (%s) spans %zu sources; their records of one test are "
                "taken as repeats\n",
                side ? "B" : "A", argv[a->first + side], nsrc);
    free(got.v);
    free(terms[0]);
    free(terms);
    return rc;
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
    bl_records recs;
    bl_records_init(&recs);
    for (int side = 0; side < 2 && rc == 0; side++)
        rc = load_side(&a, argc, argv, side, &recs);
    if (rc) {
        bl_records_free(&recs);
        return rc;
    }
    char err[512];
    bl_table_opts to = {.by = "compare", .repeats = a.cmp.repeats};
    bl_table *t = bl_table_build(&recs, &to, err, sizeof err);
    if (!t) {
        bl_records_free(&recs);
        return bl_usage_error("compare", "%s", err);
    }
    if (t->ncols > 2) {
        /* A side whose records of one test were run differently is not averaged (report/
         * table.h splits its set-up): say which labels tell them apart, refuse the figure. */
        fprintf(stderr,
                "benchlog compare: a side holds runs of one test that were run differently; "
                "narrow it with FILTER terms. Set-ups:");
        for (size_t j = 0; j < t->ncols; j++)
            fprintf(stderr, "%s '%s'", j ? "," : "", t->cols[j].title);
        fprintf(stderr, "\n");
        bl_table_free(t);
        bl_records_free(&recs);
        return 1;
    }
    bl_diff_line *lines =
        bl_xmalloc((t->nrows * (a.cmp.n_metrics ? a.cmp.n_metrics : 1) + 1) * sizeof *lines);
    size_t n = t->ncols == 2 ? bl_diff(t, 0, 1, a.cmp.metrics, a.cmp.n_metrics, lines) : 0;
    if (n == 0)
        fprintf(stderr, "benchlog compare: A and B have no test with a figure in common\n");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (n) {
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
    bl_records_free(&recs);
    return rc;
}

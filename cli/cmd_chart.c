/* benchlog chart: a PNG, SVG or PDF chart of the stored records matching FILTER. */
#include "../charts/chart.h"
#include "../compare/load.h"
#include "../compare/scaling.h"
#include "../core/atomic.h"
#include "../report/scaling_table.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include "options.h"
#include "say.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog chart [OPTIONS] -o FILE.png|FILE.svg|FILE.pdf [FILTER...]\n\n"
    "Draws a chart of the stored records matching FILTER, as PNG, or as SVG or PDF\n"
    "(vector, text kept as text) by the extension of -o.\n";

/* The kinds come from the chart kinds table. */
static void kinds_help(FILE *f)
{
    fprintf(f, "\nKIND is one of:\n");
    for (int k = 0; k < BL_CHART_N_KINDS; k++)
        fprintf(f, "  %-12s %s\n", bl_chart_kind_name(k), bl_chart_kind_help(k));
}

static const char after[] =
    "\nA bar or iops-lat chart draws every set-up: past 10 set-ups it writes pages FILE-1.png,\n"
    "FILE-2.png, ... of 10 each, and says so. Legends name set-ups by their labels.\n"
    "Percentiles, timeline and histogram draw at most 10 curves; narrow with FILTER.\n"
    "Scaling also writes its matrix as a table: -o FILE.csv (model units: IO/s, bytes/s,\n"
    "ns) or -o FILE.txt, or -o - for the text table on stdout.\n"
    "Options may stand before, between or after the filters.\n"
    "Example: benchlog chart --kind percentiles -o lat.svg tool=fio test=rand-read\n";

static int size_arg(void *value, const char *s, char *err, size_t errlen)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v <= 0 || v > 100000) {
        snprintf(err, errlen, "--width and --height want a number of pixels, not '%s'", s);
        return -1;
    }
    *(int *)value = (int)v;
    return 0;
}

static int kind_arg(void *value, const char *s, char *err, size_t errlen)
{
    int k = bl_chart_kind_from_name(s);
    if (k < 0) {
        snprintf(err, errlen, "unknown kind '%s' (benchlog chart --help lists them)", s);
        return -1;
    }
    *(bl_chart_kind *)value = (bl_chart_kind)k;
    return 0;
}

static void common_add(void *common, const bl_record *r)
{
    bl_chart_common_add(common, r);
}

/* The common labels (tool, section, host, suite, column) are what a shape keeps: records of
 * one shape agree on them, so a shape stands for its records. */
static void common_shape(void *common, const bl_record *shape, size_t n_recs)
{
    (void)n_recs;
    bl_chart_common_add(common, shape);
}

/* "x.png" and metric p99 -> "x-p99.png". */
static char *metric_path(const char *path, bl_metric m)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        dot = path + strlen(path);
    size_t n = strlen(path) + 16;
    char *s = bl_xmalloc(n);
    snprintf(s, n, "%.*s-%s%s", (int)(dot - path), path, bl_metric_name(m), dot);
    return s;
}

static void say_pages(const char *path, size_t pages)
{
    if (pages <= 1)
        return;
    char *a = bl_chart_page_path(path, 1), *b = bl_chart_page_path(path, pages);
    bl_note("chart", "every set-up drawn over %zu pages of %d: %s .. %s", pages,
            BL_CHART_MAX_CURVES, a, b);
    free(a);
    free(b);
}

/* One chart (in pages) per --metric, or one of the main figure. */
static int draw(const char *out, const bl_records *recs, bl_chart_opts *co, const bl_cmp_args *cmp,
                char *err, size_t errlen)
{
    size_t pages;
    if (cmp->n_metrics == 0 || (co->kind != BL_CHART_BAR && co->kind != BL_CHART_TREND)) {
        int rc = bl_chart_png_pages(out, recs, co, &pages, err, errlen);
        if (rc == 0)
            say_pages(out, pages);
        return rc;
    }
    co->has_metric = 1;
    for (size_t q = 0; q < cmp->n_metrics; q++) {
        co->metric = (int)cmp->metrics[q];
        char *path = cmp->n_metrics > 1 ? metric_path(out, cmp->metrics[q]) : bl_xstrdup(out);
        int rc = bl_chart_png_pages(path, recs, co, &pages, err, errlen);
        if (rc == 0)
            say_pages(path, pages);
        free(path);
        if (rc)
            return rc;
    }
    return 0;
}

/* The scaling matrix as a table: "-" (text on stdout), FILE.txt or FILE.csv. */
static int scaling_table_out(const char *out)
{
    const char *dot = strrchr(out, '.');
    return strcmp(out, "-") == 0 || (dot && (strcmp(dot, ".csv") == 0 || strcmp(dot, ".txt") == 0));
}

static int scaling_table(const char *out, const bl_records *recs, const bl_chart_opts *co,
                         char *err, size_t errlen)
{
    bl_scaling m;
    if (bl_scaling_build(recs, co->by, co->repeats, &m, err, errlen) != 0)
        return 1;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    const char *dot = strrchr(out, '.');
    if (dot && strcmp(dot, ".csv") == 0)
        bl_scaling_csv(&m, &sb);
    else
        bl_scaling_text(&m, &sb);
    bl_scaling_free(&m);
    int rc = 0;
    if (strcmp(out, "-") == 0)
        fputs(sb.s, stdout);
    else if (bl_write_file(out, sb.s, sb.len, err, errlen) != 0)
        rc = 1;
    bl_strbuf_free(&sb);
    return rc;
}

/* The JSON key a record with the kind's curves always has: the store's JSON is written by
 * core/jsonl.c, which spells the key "series" (a timeline's) and "bins" (in lat_ns or
 * clat_ns, a histogram's) so, never escaped, and only when the record has them. Records
 * without it have none and are skipped unread. Percentiles: most records have them. */
static const char *curve_key(bl_chart_kind kind)
{
    return kind == BL_CHART_TIMELINE    ? "\"series\""
           : kind == BL_CHART_HISTOGRAM ? "\"bins\""
                                        : NULL;
}

typedef struct picking {
    const bl_chart_opts *co;
    bl_chart_pick p;
    bl_records *recs;
    int done; /* the walk stopped: no later record could change the chart */
} picking;

static int pick(void *ctx, const bl_record *r)
{
    picking *pk = ctx;
    if (bl_chart_keeps(&pk->p, pk->co, r))
        bl_records_push(pk->recs, bl_record_clone(r));
    pk->done = bl_chart_picked(&pk->p, pk->co);
    return pk->done;
}

int cmd_chart(int argc, char **argv)
{
    const char *db = NULL, *out = NULL;
    bl_chart_opts co = {0};
    bl_cmp_args cmp = {0};
    char by[BL_BY_MAX] = "";
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_FN(0, "kind", &co.kind, "KIND", "chart kind (default bar), see below", kind_arg),
        BL_CMP_OPT_BY(by, "bar: columns by this label (or several: a,b); others:\n"
                          "name curves by it"),
        BL_OPT_STRING(0, "series", &co.series, "NAME",
                      "timeline: bw, iops, lat, clat or slat (default: the first found)"),
        BL_OPT_STRING(0, "title", &co.title, "TEXT",
                      "title (default: kind and the labels the records share)"),
        BL_OPT_BOOL(0, "log", &co.log, "bar: logarithmic axis, for figures that span decades"),
        BL_OPT_FN(0, "width", &co.width, "N",
                  "image width in pixels (default 1600; PDF: half a point each)", size_arg),
        BL_OPT_FN(0, "height", &co.height, "N", "image height in pixels (default 900)", size_arg),
        BL_OPT_FN(0, "metric", &cmp, "NAME",
                  "bar: chart this figure: bw, iops, lat, p50, p99, p99.9, value\n"
                  "(repeatable: one chart each, FILE-NAME.png); scaling: bw or iops",
                  bl_cmp_opt_metric),
        BL_OPT_FN(0, "repeats", &cmp, "HOW",
                  "bar: combine repeats by mean (default), median, best or all (mean)",
                  bl_cmp_opt_repeats),
        BL_OPT_STRING('o', "output", &out, "FILE",
                      "the chart to write: FILE.png, FILE.svg or FILE.pdf (required)"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"chart", usage, after, kinds_help, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    co.by = BL_CMP_BY(by);
    if (n < 0)
        return rc;
    if (!out)
        return bl_usage_error("chart", "-o FILE.png is required (or FILE.svg, FILE.pdf)");
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    co.repeats = cmp.repeats;
    bl_table *t = NULL;
    bl_chart_common common = {0};
    if (co.kind == BL_CHART_BAR || co.kind == BL_CHART_IOPS_LAT) {
        /* Bars are the comparison table: built from the store's fold, else as it is walked. */
        bl_table_opts to = {.by = co.by, .repeats = co.repeats};
        bl_report_sees see = {.each = common_add, .shape = common_shape, .ctx = &common};
        rc = bl_report_table_sees(db, n, argv, &to, &see, &t, err, sizeof err);
        co.table = t;
        co.common = &common;
        if (rc == 0 && co.by)
            bl_cmp_warn_unlabelled(t, "chart");
    } else if (co.kind == BL_CHART_PERCENTILES || co.kind == BL_CHART_TIMELINE ||
               co.kind == BL_CHART_HISTOGRAM) {
        /* Curves of the first records that have them: only those are kept. */
        picking pk = {.co = &co, .recs = &recs};
        rc = bl_report_walk_hint(db, n, argv, curve_key(co.kind), pick, &pk, err, sizeof err);
        if (pk.done)
            rc = 0;
    } else {
        rc = bl_report_load(db, n, argv, &recs, err, sizeof err);
    }
    if (co.kind == BL_CHART_SCALING && cmp.n_metrics) { /* scaling: MB/s or IOPS on top */
        co.has_metric = 1;
        co.metric = (int)cmp.metrics[0];
    }
    if (rc == 0 && co.kind == BL_CHART_SCALING && scaling_table_out(out))
        rc = scaling_table(out, &recs, &co, err, sizeof err);
    else if (rc == 0) {
        rc = draw(out, &recs, &co, &cmp, err, sizeof err);
        bl_chart_cleanup();
    }
    if (rc == 2)
        rc = bl_usage_error("chart", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog chart: %s\n", err);
    bl_table_free(t);
    bl_chart_common_free(&common);
    bl_records_free(&recs);
    return rc;
}

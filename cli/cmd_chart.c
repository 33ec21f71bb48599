/* benchlog chart: a PNG chart of the stored records matching FILTER. */
#include "../charts/chart.h"
#include "../report/load.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: benchlog chart [--db FILE] [--kind bar|percentiles|timeline|histogram|iops-lat]\n"
    "                      [--by LABEL] [--series NAME] [--title TEXT] [--log]\n"
    "                      [--metric NAME]... [--repeats HOW] [--width N] [--height N]\n"
    "                      -o FILE.png [FILTER...]\n\n"
    "Draws a PNG chart of the stored records matching FILTER:\n"
    "  bar          grouped bars, tests x compared columns (as 'benchlog report --by'),\n"
    "               MB/s (else IOPS, else the test's own unit), value labels, legend\n"
    "  percentiles  latency percentile curves on log scales, from fio's percentiles or\n"
    "               from latency histograms\n"
    "  timeline     a series over time: bandwidth, IOPS or latency (fio logs, benchlog run)\n"
    "  histogram    the latency distribution: share of I/Os per latency bin\n"
    "  iops-lat     IOPS bars and beside them mean latency with a p99 tick, per test\n"
    "               and set-up (as fio-plot draws them)\n\n"
    "  --db FILE      store (default $BENCHLOG_DB or ./benchlog.db)\n"
    "  --kind KIND    chart kind (default bar)\n"
    "  --by LABEL     bar: columns by this label; others: name curves by it\n"
    "  --series NAME  timeline: bw, iops, lat, clat or slat (default: the first found)\n"
    "  --title TEXT   title (default: kind and the labels the records share)\n"
    "  --log          bar: logarithmic axis, for figures that span decades\n"
    "  --width N      image width in pixels (default 1600)\n"
    "  --height N     image height in pixels (default 900)\n"
    "  --metric NAME  bar: chart this figure: bw, iops, lat, p50, p99, p99.9, value\n"
    "                 (repeatable: one chart each, FILE-NAME.png)\n"
    "  --repeats HOW  bar: combine repeats by mean (default), median, best or all (mean)\n"
    "  -o FILE.png    the image to write (required)\n\n"
    "A bar chart draws every set-up: past 10 set-ups it writes pages FILE-1.png,\n"
    "FILE-2.png, ... of 10 each, and says so. Legends name set-ups by their labels.\n"
    "Percentiles, timeline and histogram draw at most 10 curves; narrow with FILTER.\n"
    "Example: benchlog chart --kind percentiles -o lat.png tool=fio test=rand-read\n";

static int size_arg(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v <= 0 || v > 100000)
        return -1;
    *out = (int)v;
    return 0;
}

/* Says on stderr which set-ups lack the --by label (each drawn on its own). */
static void warn_unlabelled(const bl_records *recs, const char *by, const char *cmd)
{
    char err[256];
    bl_table_opts to = {.by = by};
    bl_table *t = bl_table_build(recs, &to, err, sizeof err);
    if (t)
        bl_cmp_warn_unlabelled(t, cmd);
    bl_table_free(t);
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
    fprintf(stderr, "benchlog chart: every set-up drawn over %zu pages of %d: %s .. %s\n", pages,
            BL_CHART_MAX_CURVES, a, b);
    free(a);
    free(b);
}

/* One chart (in pages) per --metric, or one of the main figure. */
static int draw(const char *out, const bl_records *recs, bl_chart_opts *co, const bl_cmp_args *cmp,
                char *err, size_t errlen)
{
    size_t pages;
    if (cmp->n_metrics == 0 || co->kind != BL_CHART_BAR) {
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

int cmd_chart(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, 0, 'd'},     {"kind", required_argument, 0, 'k'},
        {"by", required_argument, 0, 'b'},     {"series", required_argument, 0, 's'},
        {"title", required_argument, 0, 'T'},  {"width", required_argument, 0, 'W'},
        {"height", required_argument, 0, 'H'}, {"output", required_argument, 0, 'o'},
        {"log", no_argument, 0, 'L'},          BL_CMP_OPTIONS,
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    const char *db = NULL, *out = NULL;
    bl_chart_opts co = {0};
    bl_cmp_args cmp = {0};
    optind = 0;
    opterr = 0;
    int c, k;
    while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            db = optarg;
            break;
        case 'k':
            if ((k = bl_chart_kind_from_name(optarg)) < 0)
                return bl_usage_error("chart", "unknown kind '%s'", optarg);
            co.kind = (bl_chart_kind)k;
            break;
        case 'b':
            co.by = optarg;
            break;
        case 's':
            co.series = optarg;
            break;
        case 'T':
            co.title = optarg;
            break;
        case 'W':
        case 'H':
            if (size_arg(optarg, c == 'W' ? &co.width : &co.height) != 0)
                return bl_usage_error("chart", "%s wants a number of pixels, not '%s'",
                                      c == 'W' ? "--width" : "--height", optarg);
            break;
        case 'o':
            out = optarg;
            break;
        case 'L':
            co.log = 1;
            break;
        case BL_CMP_METRIC:
        case BL_CMP_REPEATS:
        case BL_CMP_WIDE:
            if (bl_cmp_option(&cmp, c, optarg, "chart") != 0)
                return 2;
            break;
        case 'h':
            fputs(help, stdout);
            return 0;
        default:
            return bl_usage_error("chart", "unknown option or missing value: '%s'",
                                  argv[optind - 1]);
        }
    }
    if (!out)
        return bl_usage_error("chart", "-o FILE.png is required");
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    int rc = bl_report_load(db, argc - optind, argv + optind, &recs, err, sizeof err);
    co.repeats = cmp.repeats;
    if (rc == 0 && co.by && (co.kind == BL_CHART_BAR || co.kind == BL_CHART_IOPS_LAT))
        warn_unlabelled(&recs, co.by, "chart");
    if (rc == 0) {
        rc = draw(out, &recs, &co, &cmp, err, sizeof err);
        bl_chart_cleanup();
    }
    if (rc == 2)
        rc = bl_usage_error("chart", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog chart: %s\n", err);
    bl_records_free(&recs);
    return rc;
}

/* benchlog report: the comparison table of the stored records matching FILTER. */
#include "../charts/chart.h"
#include "../core/strbuf.h"
#include "../report/load.h"
#include "../report/render.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char help[] =
    "Usage: benchlog report [--db FILE] [--by LABEL] [--text | --md | --csv | --html]\n"
    "                       [--lat] [--baseline VALUE] [--title TEXT] [--no-chart]\n"
    "                       [--metric NAME]... [--repeats HOW] [--wide] [-o FILE] [FILTER...]\n\n"
    "Prints a comparison table of the stored records matching FILTER. Rows are tests\n"
    "(test, block size, queue depth Q and jobs T; sequential before random, read before\n"
    "write, as CrystalDiskMark lists them); columns are the values of --by LABEL. Without\n"
    "--by, a column is the runs of one source under one heading (label section) and one\n"
    "table column (label column); --by run gives one column per run. Cells are MB/s\n"
    "(10^6 bytes/s) with IOPS beside them for blocks under 64KiB, or the test's own\n"
    "figure (seeks, files/s). Records lacking the --by label are never pooled: each\n"
    "source's set-up stands as its own column, named after the source (stderr lists them).\n"
    "Records of the same test and set-up are repeats: shown by --repeats with n, sample\n"
    "stdev and the 95% confidence interval of the mean (Student's t). A figure 100x off\n"
    "the same test's median on the other set-ups is flagged with !.\n\n"
    "  --db FILE         store (default $BENCHLOG_DB or ./benchlog.db)\n"
    "  --by LABEL        compare by this label or record key (host, section, tool, ...)\n"
    "  --text            aligned table for a terminal (default)\n"
    "  --md              Markdown table\n"
    "  --csv             CSV with plain numbers, units in the header\n"
    "  --html            self-contained HTML page, the bar chart embedded in it\n"
    "  --no-chart        HTML without the chart\n"
    "  --lat             add latency columns: mean and 99th percentile\n"
    "  --baseline VALUE  add each column's ratio to column VALUE (\"x5.6\")\n"
    "  --title TEXT      heading above the table (and the HTML page's title)\n"
    "  --metric NAME     show this figure per set-up: bw, iops, lat, p50, p99, p99.9, value\n"
    "                    (repeatable; latency is lat, else clat, as the footnote says)\n"
    "  --repeats HOW     combine repeats by mean (default), median, best or all\n"
    "  --wide            one table however wide (default: blocks that fit $COLUMNS, else\n"
    "                    120 columns, each repeating the test column)\n"
    "  -o FILE           write to FILE instead of stdout\n\n"
    "FILTER is KEY=VALUE, KEY!=VALUE or KEY~TEXT on record keys or labels.\n\n"
    "Examples:\n"
    "  benchlog report --by host tool=fio\n"
    "  benchlog report --by column --baseline '1 GbE' --md tool=cdm\n"
    "  benchlog report --metric iops --metric p99 --repeats median test=rand-read\n";

typedef struct report_args {
    const char *db, *by, *baseline, *title, *out;
    bl_report_format format;
    int lat, no_chart, first_filter;
    bl_cmp_args cmp; /* --metric, --repeats, --wide */
} report_args;

static int read_args(int argc, char **argv, report_args *a)
{
    static const struct option opts[] = {
        {"db", required_argument, 0, 'd'},    {"by", required_argument, 0, 'b'},
        {"text", no_argument, 0, 't'},        {"md", no_argument, 0, 'm'},
        {"csv", no_argument, 0, 'c'},         {"html", no_argument, 0, 'H'},
        {"lat", no_argument, 0, 'l'},         {"baseline", required_argument, 0, 'B'},
        {"title", required_argument, 0, 'T'}, {"output", required_argument, 0, 'o'},
        {"no-chart", no_argument, 0, 'N'},    BL_CMP_OPTIONS,
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            a->db = optarg;
            break;
        case 'b':
            a->by = optarg;
            break;
        case 't':
            a->format = BL_REPORT_TEXT;
            break;
        case 'm':
            a->format = BL_REPORT_MD;
            break;
        case 'c':
            a->format = BL_REPORT_CSV;
            break;
        case 'H':
            a->format = BL_REPORT_HTML;
            break;
        case 'l':
            a->lat = 1;
            break;
        case 'B':
            a->baseline = optarg;
            break;
        case 'T':
            a->title = optarg;
            break;
        case 'o':
            a->out = optarg;
            break;
        case 'N':
            a->no_chart = 1;
            break;
        case BL_CMP_METRIC:
        case BL_CMP_REPEATS:
        case BL_CMP_WIDE:
            if (bl_cmp_option(&a->cmp, c, optarg, "report") != 0)
                return 2;
            break;
        case 'h':
            return -1;
        case '?':
            if (optopt)
                return bl_usage_error("report", "option '%s' wants a value", argv[optind - 1]);
            return bl_usage_error("report", "unknown option '%s'", argv[optind - 1]);
        default:
            return bl_usage_error("report", "unknown option '%s'", argv[optind - 1]);
        }
    }
    a->first_filter = optind;
    return 0;
}

static int write_out(const char *path, const bl_strbuf *sb)
{
    FILE *f = path ? fopen(path, "wb") : stdout;
    if (!f) {
        perror(path);
        return 1;
    }
    int bad = sb->len && fwrite(sb->s, 1, sb->len, f) != sb->len;
    bad |= path ? fclose(f) != 0 : fflush(f) != 0;
    if (bad)
        fprintf(stderr, "benchlog report: cannot write %s\n", path ? path : "stdout");
    return bad;
}

int cmd_report(int argc, char **argv)
{
    report_args a;
    int rc = read_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? (fputs(help, stdout), 0) : rc;
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    rc = bl_report_load(a.db, argc - a.first_filter, argv + a.first_filter, &recs, err, sizeof err);
    if (rc) {
        fprintf(stderr, "benchlog report: %s\n", err);
        bl_records_free(&recs);
        return rc;
    }
    bl_table_opts to = {.by = a.by, .baseline = a.baseline, .repeats = a.cmp.repeats};
    bl_table *t = bl_table_build(&recs, &to, err, sizeof err);
    if (!t) {
        bl_records_free(&recs);
        return bl_usage_error("report", "%s", err);
    }
    if (t->nrows == 0) {
        fprintf(stderr,
                "benchlog report: none of the %zu matching records names a test to "
                "compare (bare logs: see benchlog chart --kind timeline)\n",
                t->n_left_out);
        bl_table_free(t);
        bl_records_free(&recs);
        return 1;
    }
    bl_cmp_warn_unlabelled(t, "report");
    bl_report_opts ro = {.format = a.format,
                         .lat = a.lat,
                         .title = a.title,
                         .metrics = a.cmp.metrics,
                         .n_metrics = a.cmp.n_metrics,
                         .width = a.cmp.wide ? 0 : bl_cmp_term_width()};
    bl_strbuf png;
    bl_strbuf_init(&png);
    if (a.format == BL_REPORT_HTML && !a.no_chart) {
        /* The page shows the bars too; a store with nothing to draw just has no figure. */
        bl_chart_opts co = {.kind = BL_CHART_BAR,
                            .by = a.by,
                            .log = -1,
                            .title = a.title,
                            .repeats = a.cmp.repeats};
        if (bl_chart_png_mem(&png, &recs, &co, err, sizeof err) == 0) {
            ro.png = png.s;
            ro.png_len = png.len;
        }
        bl_chart_cleanup();
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &ro, &sb);
    bl_strbuf_free(&png);
    rc = write_out(a.out, &sb);
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_records_free(&recs);
    return rc;
}

/* benchlog report: the comparison table of the stored records matching FILTER. */
#include "../charts/chart.h"
#include "../report/report_pdf.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "../compare/history.h"
#include "../compare/load.h"
#include "../report/page.h"
#include "../report/render.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include "options.h"
#include "say.h"
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog report [OPTIONS] [FILTER...]\n\n"
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
    "the same test's median on the other set-ups is flagged with !.\n";

static const char after[] =
    "FILTER is KEY=VALUE, KEY!=VALUE or KEY~TEXT on record keys or labels. Options may\n"
    "stand before, between or after the filters.\n\n"
    "Examples:\n"
    "  benchlog report --by host tool=fio\n"
    "  benchlog report --by column --baseline '1 GbE' --md tool=cdm\n"
    "  benchlog report --metric iops --metric p99 --repeats median test=rand-read\n"
    "  benchlog report --html -o page.html; benchlog report --pdf -o report.pdf\n";

typedef struct report_args {
    const char *db, *baseline, *title, *out;
    char by[BL_BY_MAX]; /* --by, comma-joined */
    int format, lat, no_chart, pdf, pool, overview, setups, layout_cdm;
    bl_cmp_args cmp; /* --metric, --repeats, --wide */
} report_args;

static int layout_arg(void *v, const char *arg, char *err, size_t errlen)
{
    if (strcmp(arg, "cdm") != 0) {
        snprintf(err, errlen, "--layout knows cdm (CrystalDiskMark's), not '%s'", arg);
        return -1;
    }
    *(int *)v = 1;
    return 0;
}

/* Returns the number of FILTER terms (moved to argv[0..n)), or -1 with *status set. */
static int read_args(int argc, char **argv, report_args *a, int *status)
{
    static const bl_command_help h = {"report", usage, after, NULL, 0};
    const bl_option opts[] = {
        BL_OPT_DB(&a->db),
        BL_CMP_OPT_BY(a->by, "compare by this label or record key (host, section, tool,\n"
                             "...); several (proto,net or --by proto --by net): one\n"
                             "column per combination"),
        BL_OPT_BOOL(0, "pool", &a->pool,
                    "pool the set-ups of one column on purpose (cells say \"pooled\n"
                    "over N set-ups\"); by default they stand apart as sub-columns"),
        BL_OPT_SET(0, "text", &a->format, BL_REPORT_TEXT, "aligned table for a terminal (default)"),
        BL_OPT_SET(0, "md", &a->format, BL_REPORT_MD, "Markdown table"),
        BL_OPT_SET(0, "csv", &a->format, BL_REPORT_CSV,
                   "CSV with plain numbers, units in the header"),
        BL_OPT_SET(0, "html", &a->format, BL_REPORT_HTML,
                   "one self-contained page (nothing fetched): sortable table,\n"
                   "metric choice, set-ups shown/hidden, SVG charts, sources"),
        BL_OPT_BOOL(0, "pdf", &a->pdf,
                    "a PDF report (needs -o): title page, summary table, a chart\n"
                    "per metric, sources"),
        BL_OPT_BOOL(0, "no-chart", &a->no_chart, "HTML without the charts"),
        BL_OPT_BOOL(0, "lat", &a->lat,
                    "add latency columns: mean and 99th percentile (HTML: open on latency)"),
        BL_OPT_STRING(0, "baseline", &a->baseline, "VALUE",
                      "add each column's ratio to column VALUE (\"x5.6\")"),
        BL_OPT_BOOL(0, "overview", &a->overview,
                    "text, md: mark each test's best set-up (*) and sum up each set-up\n"
                    "as the geometric mean of its ratios to the baseline (--baseline,\n"
                    "else the first column) over the tests both have"),
        BL_OPT_FN(0, "layout", &a->layout_cdm, "cdm",
                  "text, md: cdm = CrystalDiskMark's own layout for its set-ups\n"
                  "(and KDiskMark's, fio-cdm's): SEQ1M Q8T1... as rows, Read and\n"
                  "Write side by side",
                  layout_arg),
        BL_OPT_BOOL(0, "setups", &a->setups,
                    "text, md: add a table of the set-ups: tool, version, host,\n"
                    "device, fs, date, command"),
        BL_OPT_STRING(0, "title", &a->title, "TEXT",
                      "heading above the table (and the HTML page's title)"),
        BL_CMP_OPTS(&a->cmp),
        BL_OPT_STRING('o', "output", &a->out, "FILE", "write to FILE instead of stdout"),
        BL_OPT_END(),
    };
    memset(a, 0, sizeof *a);
    return bl_options(&h, opts, argc, argv, status);
}

static int write_out(const char *path, const bl_strbuf *sb)
{
    char err[512];
    if (path) {
        /* Whole or not at all: a failed write leaves the old file as it was. */
        if (bl_write_file(path, sb->s ? sb->s : "", sb->len, err, sizeof err) == 0)
            return 0;
        fprintf(stderr, "benchlog report: %s\n", err);
        return 1;
    }
    int bad = sb->len && fwrite(sb->s, 1, sb->len, stdout) != sb->len;
    bad |= fflush(stdout) != 0;
    if (bad)
        fprintf(stderr, "benchlog report: cannot write stdout\n");
    return bad;
}

/* The metric the page opens on: the first --metric, else latency for --lat; a metric no
 * test has is said, and the page opens on the main figure. */
static int page_metric(const report_args *a, const bl_table *t)
{
    int m = a->cmp.n_metrics ? (int)a->cmp.metrics[0] : a->lat ? BL_M_LAT : -1;
    if (m < 0)
        return -1;
    for (size_t i = 0; i < t->nrows; i++)
        if (bl_row_has(t, i, (bl_metric)m))
            return m;
    bl_note("report", "no test has %s figures: the page opens on the main figure",
            bl_metric_name((bl_metric)m));
    return -1;
}

/* What the HTML page gathers as the store is walked: its sources and, for the trends, the
 * history (compare/history.h: the series and their changes, as `benchlog history` finds them). */
typedef struct page_walk {
    bl_page_recs recs;
    bl_hist_builder *hist;
} page_walk;

static void page_add(void *ctx, const bl_record *r)
{
    page_walk *p = ctx;
    bl_page_recs_add(&p->recs, r);
    if (p->hist)
        bl_history_add(p->hist, r);
}

/* The same from a record as the store gives it without its JSON (core/store.h,
 * bl_store_each_lean): the Sources need its labels, source, tool, run and line, the
 * history its test, set-up, unit, when and fold figures, all of which it has. */
static void page_add_lean(void *ctx, const bl_record *r, const double fig[BL_FOLD_N])
{
    page_walk *p = ctx;
    bl_page_recs_add(&p->recs, r);
    if (p->hist)
        bl_history_add_figs(p->hist, r, fig);
}

/* The table, built as the store is walked; for the HTML page its sources are gathered into
 * page on the way. No record is held (the PDF walks the store again for its sources). */
static int load(const report_args *a, int n, char **argv, page_walk *page, bl_table **t)
{
    char err[512];
    bl_table_opts to = {.by = BL_CMP_BY(a->by),
                        .pool = a->pool,
                        .baseline = a->baseline,
                        .repeats = a->cmp.repeats};
    int html = a->format == BL_REPORT_HTML && !a->pdf;
    bl_report_sees see = {
        .each = html ? page_add : NULL, .lean = html ? page_add_lean : NULL, .ctx = page};
    int rc = bl_report_table_sees(a->db, n, argv, &to, &see, t, err, sizeof err);
    if (rc == 3)
        return bl_usage_error("report", "%s", err);
    if (rc)
        fprintf(stderr, "benchlog report: %s\n", err);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    report_args a;
    int rc, n = read_args(argc, argv, &a, &rc);
    if (n < 0)
        return rc;
    char err[512];
    bl_table *t = NULL;
    page_walk walk = {0};
    if (a.format == BL_REPORT_HTML && !a.pdf && !a.no_chart)
        walk.hist = bl_history_begin(&(bl_hist_opts){.sources = 1});
    rc = load(&a, n, argv, &walk, &t);
    bl_history *hist = walk.hist ? bl_history_end(walk.hist) : NULL;
    bl_page_recs page = walk.recs;
    if (rc) {
        bl_page_recs_free(&page);
        bl_history_free(hist);
        return rc;
    }
    if (t->nrows == 0) {
        fprintf(stderr,
                "benchlog report: %s matching, none names a test to compare (bare logs: "
                "see benchlog chart --kind timeline)\n",
                bl_count(t->n_left_out, "record").s);
        bl_table_free(t);
        bl_page_recs_free(&page);
        bl_history_free(hist);
        return 1;
    }
    bl_cmp_warn_unlabelled(t, "report");
    bl_report_opts ro = {.format = (bl_report_format)a.format,
                         .lat = a.lat,
                         .title = a.title,
                         .metrics = a.cmp.metrics,
                         .n_metrics = a.cmp.n_metrics,
                         .overview = a.overview,
                         .setups = a.setups,
                         .layout_cdm = a.layout_cdm,
                         .across = n > 0,
                         .width = a.cmp.wide ? 0 : bl_cmp_term_width()};
    if (a.pdf) {
        bl_pdf_opts po = {
            .title = a.title, .by = BL_CMP_BY(a.by), .repeats = a.cmp.repeats, .across = n > 0};
        bl_store_walk src = {a.db, n, argv, NULL};
        rc = a.out ? bl_report_pdf_walk(a.out, t, bl_walk_store, &src, &po, NULL, err, sizeof err)
                   : 2;
        bl_chart_cleanup();
        if (rc == 1)
            fprintf(stderr, "benchlog report: %s\n", err);
        bl_table_free(t);
        bl_page_recs_free(&page);
        bl_history_free(hist);
        return rc == 2 ? bl_usage_error("report", "--pdf needs -o FILE.pdf") : rc;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (a.format == BL_REPORT_HTML)
        bl_page_html_recs(t, &page,
                          &(bl_page_opts){.title = a.title,
                                          .charts = !a.no_chart,
                                          .metric = page_metric(&a, t),
                                          .across = n > 0,
                                          .history = hist},
                          &sb);
    else
        bl_report_render(t, &ro, &sb);
    rc = write_out(a.out, &sb);
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_page_recs_free(&page);
    bl_history_free(hist);
    return rc;
}

/* benchlog chart: a PNG chart of the stored records matching FILTER. */
#include "../charts/chart.h"
#include "../report/load.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog chart [OPTIONS] -o FILE.png [FILTER...]\n\n"
    "Draws a PNG chart of the stored records matching FILTER:\n"
    "  bar          grouped bars, tests x compared columns (as 'benchlog report --by'),\n"
    "               MB/s (else IOPS, else the test's own unit), value labels, legend\n"
    "  percentiles  latency percentile curves on log scales, from fio's percentiles or\n"
    "               from latency histograms\n"
    "  timeline     a series over time: bandwidth, IOPS or latency (fio logs, benchlog run)\n"
    "  histogram    the latency distribution: share of I/Os per latency bin\n";

static const char after[] =
    "At most 10 curves or bar colours are drawn; narrow with FILTER. Options may stand\n"
    "before, between or after the filters.\n"
    "Example: benchlog chart --kind percentiles -o lat.png tool=fio test=rand-read\n";

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
        snprintf(err, errlen, "unknown kind '%s'", s);
        return -1;
    }
    *(bl_chart_kind *)value = (bl_chart_kind)k;
    return 0;
}

int cmd_chart(int argc, char **argv)
{
    const char *db = NULL, *out = NULL;
    bl_chart_opts co = {0};
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_FN(0, "kind", &co.kind, "KIND",
                  "bar, percentiles, timeline or histogram (default bar)", kind_arg),
        BL_OPT_STRING(0, "by", &co.by, "LABEL",
                      "bar: columns by this label; others: name curves by it"),
        BL_OPT_STRING(0, "series", &co.series, "NAME",
                      "timeline: bw, iops, lat, clat or slat (default: the first found)"),
        BL_OPT_STRING(0, "title", &co.title, "TEXT",
                      "title (default: kind and the labels the records share)"),
        BL_OPT_BOOL(0, "log", &co.log, "bar: logarithmic axis, for figures that span decades"),
        BL_OPT_FN(0, "width", &co.width, "N", "image width in pixels (default 1600)", size_arg),
        BL_OPT_FN(0, "height", &co.height, "N", "image height in pixels (default 900)", size_arg),
        BL_OPT_STRING('o', "output", &out, "FILE.png", "the image to write (required)"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"chart", usage, after, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if (!out)
        return bl_usage_error("chart", "-o FILE.png is required");
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    rc = bl_report_load(db, n, argv, &recs, err, sizeof err);
    if (rc == 0) {
        rc = bl_chart_png(out, &recs, &co, err, sizeof err);
        bl_chart_cleanup();
    }
    if (rc == 2)
        rc = bl_usage_error("chart", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog chart: %s\n", err);
    bl_records_free(&recs);
    return rc;
}

/* benchlog xlsx: the workbook of the stored records matching FILTER. */
#include "../report/load.h"
#include "../report/xlsx.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: benchlog xlsx [--db FILE] -o FILE.xlsx [--by LABEL] [--baseline VALUE]\n"
    "                     [--title TEXT] [--metric NAME]... [--repeats HOW] [FILTER...]\n\n"
    "Writes an Excel workbook of the stored records matching FILTER:\n"
    "  Summary   the comparison of 'benchlog report' (same --by and --baseline) in long\n"
    "            form: one row per test and set-up with MB/s, IOPS, latency mean and\n"
    "            percentiles, n, stdev, 95% CI and the implausibility check\n"
    "  one pivot sheet per metric (tests x set-ups) with native bar charts, ten set-ups\n"
    "            a chart, that together hold every set-up\n"
    "  one sheet per run with every record and metric (past 200 runs: one Records sheet)\n"
    "  Latency   mean and percentiles in microseconds, where records have them\n"
    "  Disks     fio's device figures (ios, ticks, util %) of the runs that have them\n"
    "  Sources   where each run came from: file, line, tool, version, labels\n\n"
    "  --db FILE         store (default $BENCHLOG_DB or ./benchlog.db)\n"
    "  -o FILE.xlsx      the workbook to write (required)\n"
    "  --by LABEL        summary columns: this label's values (default: the runs)\n"
    "  --baseline VALUE  add each column's ratio to column VALUE\n"
    "  --title TEXT      title in the print header and the document properties\n"
    "  --metric NAME     pivot sheets of these figures: bw, iops, lat, p50, p99, p99.9,\n"
    "                    value (repeatable; default every one the records have)\n"
    "  --repeats HOW     combine repeats by mean (default), median, best or all (mean)\n\n"
    "Sheets are named by their runs' labels and print on A4 landscape, fit to width.\n"
    "Example: benchlog xlsx -o nas.xlsx --by host tool=fio\n";

int cmd_xlsx(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, 0, 'd'},    {"output", required_argument, 0, 'o'},
        {"by", required_argument, 0, 'b'},    {"baseline", required_argument, 0, 'B'},
        {"title", required_argument, 0, 'T'}, BL_CMP_OPTIONS,
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *db = NULL, *out = NULL;
    bl_xlsx_opts xo = {0};
    bl_cmp_args cmp = {0};
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            db = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 'b':
            xo.by = optarg;
            break;
        case 'B':
            xo.baseline = optarg;
            break;
        case 'T':
            xo.title = optarg;
            break;
        case BL_CMP_METRIC:
        case BL_CMP_REPEATS:
        case BL_CMP_WIDE:
            if (bl_cmp_option(&cmp, c, optarg, "xlsx") != 0)
                return 2;
            break;
        case 'h':
            fputs(help, stdout);
            return 0;
        default:
            return bl_usage_error("xlsx", "unknown option or missing value: '%s'",
                                  argv[optind - 1]);
        }
    }
    if (!out)
        return bl_usage_error("xlsx", "-o FILE.xlsx is required");
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    int rc = bl_report_load(db, argc - optind, argv + optind, &recs, err, sizeof err);
    xo.metrics = cmp.metrics;
    xo.n_metrics = cmp.n_metrics;
    xo.repeats = cmp.repeats;
    if (rc == 0 && xo.by) { /* say which set-ups lack the label, as report does */
        bl_table_opts to = {.by = xo.by};
        bl_table *t = bl_table_build(&recs, &to, err, sizeof err);
        if (t)
            bl_cmp_warn_unlabelled(t, "xlsx");
        bl_table_free(t);
    }
    if (rc == 0)
        rc = bl_xlsx_write(out, &recs, &xo, err, sizeof err);
    if (rc == 2)
        rc = bl_usage_error("xlsx", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog xlsx: %s\n", err);
    bl_records_free(&recs);
    return rc;
}

/* benchlog xlsx: the workbook of the stored records matching FILTER. */
#include "../report/load.h"
#include "../report/xlsx.h"
#include "args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "Usage: benchlog xlsx [--db FILE] -o FILE.xlsx [--by LABEL] [--baseline VALUE]\n"
    "                     [--title TEXT] [FILTER...]\n\n"
    "Writes an Excel workbook of the stored records matching FILTER:\n"
    "  Summary   the comparison table of 'benchlog report' (same --by and --baseline),\n"
    "            figures with their units, frozen header, autofilter, and a native\n"
    "            clustered-bar chart of the main figures\n"
    "  one sheet per run with every record and metric (past 200 runs: one Records sheet)\n"
    "  Latency   mean and percentiles in microseconds, where records have them\n"
    "  Disks     fio's device figures (ios, ticks, util %) of the runs that have them\n"
    "  Sources   where each run came from: file, line, tool, version, labels\n\n"
    "  --db FILE         store (default $BENCHLOG_DB or ./benchlog.db)\n"
    "  -o FILE.xlsx      the workbook to write (required)\n"
    "  --by LABEL        summary columns: this label's values (default: the runs)\n"
    "  --baseline VALUE  add each column's ratio to column VALUE\n"
    "  --title TEXT      chart title (default \"Throughput by test\")\n\n"
    "Example: benchlog xlsx -o nas.xlsx --by host tool=fio\n";

int cmd_xlsx(int argc, char **argv)
{
    static const struct option opts[] = {{"db", required_argument, 0, 'd'},
                                         {"output", required_argument, 0, 'o'},
                                         {"by", required_argument, 0, 'b'},
                                         {"baseline", required_argument, 0, 'B'},
                                         {"title", required_argument, 0, 'T'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *db = NULL, *out = NULL;
    bl_xlsx_opts xo = {0};
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
    if (rc == 0)
        rc = bl_xlsx_write(out, &recs, &xo, err, sizeof err);
    if (rc == 2)
        rc = bl_usage_error("xlsx", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog xlsx: %s\n", err);
    bl_records_free(&recs);
    return rc;
}

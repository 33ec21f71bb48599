/* benchlog xlsx: the workbook of the stored records matching FILTER. */
#include "../report/load.h"
#include "../report/xlsx.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog xlsx [OPTIONS] -o FILE.xlsx [FILTER...]\n\n"
    "Writes an Excel workbook of the stored records matching FILTER:\n"
    "  Summary   the comparison table of 'benchlog report' (same --by and --baseline),\n"
    "            figures with their units, frozen header, autofilter, and a native\n"
    "            clustered-bar chart of the main figures\n"
    "  one sheet per run with every record and metric (past 200 runs: one Records sheet)\n"
    "  Latency   mean and percentiles in microseconds, where records have them\n"
    "  Disks     fio's device figures (ios, ticks, util %) of the runs that have them\n"
    "  Sources   where each run came from: file, line, tool, version, labels\n";

static const char after[] = "Options may stand before, between or after the filters.\n"
                            "Example: benchlog xlsx -o nas.xlsx --by host tool=fio\n";

int cmd_xlsx(int argc, char **argv)
{
    const char *db = NULL, *out = NULL;
    bl_xlsx_opts xo = {0};
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_STRING('o', "output", &out, "FILE.xlsx", "the workbook to write (required)"),
        BL_OPT_STRING(0, "by", &xo.by, "LABEL",
                      "summary columns: this label's values (default: the runs)"),
        BL_OPT_STRING(0, "baseline", &xo.baseline, "VALUE",
                      "add each column's ratio to column VALUE"),
        BL_OPT_STRING(0, "title", &xo.title, "TEXT",
                      "chart title (default \"Throughput by test\")"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"xlsx", usage, after, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if (!out)
        return bl_usage_error("xlsx", "-o FILE.xlsx is required");
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    rc = bl_report_load(db, n, argv, &recs, err, sizeof err);
    if (rc == 0)
        rc = bl_xlsx_write(out, &recs, &xo, err, sizeof err);
    if (rc == 2)
        rc = bl_usage_error("xlsx", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog xlsx: %s\n", err);
    bl_records_free(&recs);
    return rc;
}

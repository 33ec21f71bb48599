/* benchlog xlsx: the workbook of the stored records matching FILTER. */
#include "../compare/load.h"
#include "../core/record_decode.h"
#include "../report/xlsx.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include "options.h"
#include "say.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog xlsx [OPTIONS] -o FILE.xlsx [FILTER...]\n\n"
    "Writes an Excel workbook of the stored records matching FILTER:\n"
    "  Summary   the comparison of 'benchlog report' (same --by and --baseline) in long\n"
    "            form: one row per test and set-up with MB/s, IOPS, latency mean and\n"
    "            percentiles, n, stdev, 95% CI and the implausibility check\n"
    "  one pivot sheet per metric (tests x set-ups) with native bar charts, ten set-ups\n"
    "            a chart, that together hold every set-up\n"
    "  one sheet per run with every record and metric (past 200 runs: one Records sheet)\n"
    "  Latency   mean and percentiles in microseconds, where records have them\n"
    "  Disks     fio's device figures (ios, ticks, util %) of the runs that have them\n"
    "  Sources   where each run came from: file, line, tool, version, labels\n";

static const char after[] =
    "Sheets are named by their runs' labels and print on A4 landscape, fit to width.\n"
    "Options may stand before, between or after the filters.\n"
    "Example: benchlog xlsx -o nas.xlsx --by host tool=fio\n";

int cmd_xlsx(int argc, char **argv)
{
    const char *db = NULL, *out = NULL;
    bl_xlsx_opts xo = {0};
    bl_cmp_args cmp = {0};
    char by[BL_BY_MAX] = "";
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_STRING('o', "output", &out, "FILE.xlsx", "the workbook to write (required)"),
        BL_CMP_OPT_BY(by, "summary columns: this label's values, or several (a,b)\n"
                          "(default: the runs)"),
        BL_OPT_STRING(0, "baseline", &xo.baseline, "VALUE",
                      "add each column's ratio to column VALUE"),
        BL_OPT_STRING(0, "title", &xo.title, "TEXT",
                      "title in the print header and the document properties"),
        BL_OPT_FN(0, "metric", &cmp, "NAME",
                  "pivot sheets of these figures: bw, iops, lat, p50, p99, p99.9,\n"
                  "value (repeatable; default every one the records have)",
                  bl_cmp_opt_metric),
        BL_OPT_FN(0, "repeats", &cmp, "HOW",
                  "combine repeats by mean (default), median, best or all (mean)",
                  bl_cmp_opt_repeats),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"xlsx", usage, after, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    xo.by = BL_CMP_BY(by);
    if (n < 0)
        return rc;
    if (!out)
        return bl_usage_error("xlsx", "-o FILE.xlsx is required");
    char err[512];
    xo.metrics = cmp.metrics;
    xo.n_metrics = cmp.n_metrics;
    xo.repeats = cmp.repeats;
    /* The table from the store's grouped query (no record decoded where it can answer), then
     * the records walked twice (the runs, then the rows): no record is held. */
    bl_table_opts to = {.by = xo.by, .baseline = xo.baseline, .repeats = xo.repeats};
    bl_table *t = NULL;
    rc = bl_report_table(db, n, argv, &to, NULL, NULL, &t, err, sizeof err);
    if (rc == 0 && xo.by) /* say which set-ups lack the label, as report does */
        bl_cmp_warn_unlabelled(t, "xlsx");
    bl_store_walk src = {db, n, argv, NULL};
    /* the first walk reads only what the runs need of each record */
    bl_decode_want want;
    bl_xlsx_runs_want(&want);
    bl_store_walk runs = {db, n, argv, &want};
    xo.runs_walk = bl_walk_store;
    xo.runs_src = &runs;
    xo.rows_take = bl_walk_store_take;
    bl_diags notes;
    bl_diags_init(&notes, "benchlog xlsx");
    xo.notes = &notes;
    if (rc == 0)
        rc = bl_xlsx_write_walk(out, t, bl_walk_store, &src, &xo, err, sizeof err);
    bl_notes_print(&notes);
    bl_diags_free(&notes);
    if (rc == 2 || rc == 3)
        rc = bl_usage_error("xlsx", "%s", err);
    else if (rc)
        fprintf(stderr, "benchlog xlsx: %s\n", err);
    bl_table_free(t);
    return rc;
}

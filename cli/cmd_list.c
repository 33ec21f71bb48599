/* benchlog list: the runs in the store, one a line, their ID first. */
#include "../core/store.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include "runlist.h"
#include <stdio.h>

static const char usage[] =
    "Usage: benchlog list [OPTIONS] [FILTER...]\n\n"
    "Lists the runs holding a record that matches FILTER, one a line: run ID,\n"
    "source:line, tool and version, number of records, and the run's labels (those\n"
    "all its records share). The ID names the run in every command: show, relabel,\n"
    "delete, and run=ID or the bare ID as a filter.\n";
static const char after[] =
    "FILTER is KEY=VALUE, KEY!=VALUE or KEY~TEXT on record keys (tool, test, op, bs,\n"
    "iodepth, ...) or labels (job, section, host, ...); label.K=V looks at the label K\n"
    "only, even when K is also a record key. All must match. Options may stand before,\n"
    "between or after the filters.\n\n"
    "Example: benchlog list tool=fio section~iSCSI\n";

int cmd_list(int argc, char **argv)
{
    const char *db = NULL;
    int json = 0;
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_BOOL(0, "json", &json,
                    "one JSON object a run (id, source, line, run, tool, tool_version,\n"
                    "records, imported_at, labels)"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"list", usage, after, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    bl_filter f = {0};
    if (bl_filter_from_args(&f, n, argv) != 0)
        return 2;
    bl_store *s = bl_open_store(db, 0);
    if (!s) {
        bl_filter_free(&f);
        return 1;
    }
    bl_run_table *t = bl_run_table_new(stdout, json);
    char err[512];
    rc = bl_store_each_run(s, &f, bl_run_table_add, t, err, sizeof err);
    bl_run_table_finish(t);
    if (rc != 0)
        fprintf(stderr, "benchlog list: %s\n", err);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc ? 1 : 0;
}

/* benchlog export: the stored records matching FILTER as JSON Lines or CSV, streamed: one
 * record decoded, written and freed at a time, so memory does not grow with the store. */
#include "../core/fields.h"
#include "../core/jsonl.h"
#include "../core/store.h"
#include "../core/csv.h"
#include "../core/strbuf.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: benchlog export [OPTIONS] [FILTER...]\n\n"
    "Writes the stored records matching FILTER to stdout: JSON Lines (default, the\n"
    "same form as 'benchlog parse') or CSV with one row a record.\n";
static const char after[] =
    "FILTER is KEY=VALUE, KEY!=VALUE or KEY~TEXT on record keys or labels; label.K=V\n"
    "looks at the label K only; run=ID or a bare run ID (as 'benchlog list' prints it)\n"
    "selects a run. Options may stand before, between or after the filters.\n\n"
    "Example: benchlog export --csv test=rand-read > randread.csv\n";

typedef struct export_ctx {
    bl_strbuf sb;
    int csv;
    int write_failed;
} export_ctx;

static int flush_out(export_ctx *x)
{
    if (x->sb.len && fwrite(x->sb.s, 1, x->sb.len, stdout) != x->sb.len)
        x->write_failed = 1;
    bl_strbuf_reset(&x->sb);
    return x->write_failed;
}

/* The row straight from the stored text: no record is built (core/csv.h). */
static int export_csv(void *ctx, const char *json, size_t len, const char *run_id)
{
    (void)run_id;
    export_ctx *x = ctx;
    bl_csv_row_json(&x->sb, json, len);
    /* A closed pipe (| head) stops the walk instead of reading the rest of the store. */
    return x->sb.len > (1 << 16) ? flush_out(x) : 0;
}

/* The store holds each record as its JSON Lines text: written out as it is. */
static int export_json(void *ctx, const char *json, size_t len, const char *run_id)
{
    (void)run_id;
    export_ctx *x = ctx;
    bl_strbuf_putn(&x->sb, json, len);
    bl_strbuf_putc(&x->sb, '\n');
    /* A closed pipe (| head) stops the walk instead of reading the rest of the store. */
    return x->sb.len > (1 << 16) ? flush_out(x) : 0;
}

int cmd_export(int argc, char **argv)
{
    const char *db = NULL;
    int csv = 0;
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_SET(0, "jsonl", &csv, 0, "JSON Lines, one record a line (default)"),
        BL_OPT_SET(0, "csv", &csv, 1, "CSV, one row a record"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"export", usage, after, NULL, 0};
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
    export_ctx x = {.csv = csv};
    bl_strbuf_init(&x.sb);
    if (csv)
        bl_csv_header(&x.sb);
    char err[512];
    rc = csv ? bl_store_each_json(s, &f, export_csv, &x, err, sizeof err)
             : bl_store_each_json(s, &f, export_json, &x, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "benchlog export: %s\n", err);
    flush_out(&x);
    if (fflush(stdout) != 0)
        x.write_failed = 1;
    if (x.write_failed)
        fprintf(stderr, "benchlog export: cannot write stdout\n");
    bl_strbuf_free(&x.sb);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc || x.write_failed ? 1 : 0;
}

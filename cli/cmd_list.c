/* benchlog list / export: what the store holds, as runs or as records. */
#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char list_usage[] =
    "Usage: benchlog list [OPTIONS] [FILTER...]\n\n"
    "Lists the runs in the store, one a line: id, source:line, tool and version,\n"
    "number of records, labels.\n";
#define FILTER_HELP                                                                                \
    "FILTER is KEY=VALUE, KEY!=VALUE or KEY~TEXT on record keys (tool, test, op, bs,\n"            \
    "iodepth, ...) or labels (job, section, host, ...). All must match. Options may\n"             \
    "stand before, between or after the filters.\n\n"
static const char export_usage[] =
    "Usage: benchlog export [OPTIONS] [FILTER...]\n\n"
    "Writes the stored records matching FILTER to stdout: JSON Lines (default, the\n"
    "same form as 'benchlog parse') or CSV with one row a record.\n";

/* Opens the store and reads the filter; returns 0 or an exit status. */
static int open_with_filter(const char *db, int argc, char **argv, bl_store **s, bl_filter *f)
{
    memset(f, 0, sizeof *f);
    if (bl_filter_from_args(f, argc, argv) != 0)
        return 2;
    *s = bl_open_store(db, 0);
    if (!*s) {
        bl_filter_free(f);
        return 1;
    }
    return 0;
}

int cmd_list(int argc, char **argv)
{
    const char *db = NULL;
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_END(),
    };
    const bl_command_help h = {"list", list_usage,
                               FILTER_HELP "Example: benchlog list tool=fio section~iSCSI\n", NULL};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    bl_store *s;
    bl_filter f;
    if ((rc = open_with_filter(db, n, argv, &s, &f)) != 0)
        return rc;
    bl_run_info *runs;
    size_t n_runs;
    char err[512];
    rc = bl_store_runs(s, &f, &runs, &n_runs, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "benchlog list: %s\n", err);
    for (size_t i = 0; i < n_runs; i++) {
        const bl_run_info *r = &runs[i];
        char where[32] = "";
        if (r->first_line > 0)
            snprintf(where, sizeof where, ":%lld", (long long)r->first_line);
        printf("%lld/%lld\t%s%s\t%s%s%s\t%zu record%s\t%s\n", (long long)r->import_id,
               (long long)r->run, r->source, where, r->tool, *r->tool_version ? " " : "",
               r->tool_version, r->n_records, r->n_records == 1 ? "" : "s", r->labels);
    }
    bl_run_infos_free(runs, n_runs);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc ? 1 : 0;
}

static void csv_field(bl_strbuf *sb, const char *v)
{
    if (!v)
        v = "";
    if (!strpbrk(v, ",\"\n\r")) {
        bl_strbuf_puts(sb, v);
        return;
    }
    bl_strbuf_putc(sb, '"');
    for (; *v; v++) {
        if (*v == '"')
            bl_strbuf_putc(sb, '"');
        bl_strbuf_putc(sb, *v);
    }
    bl_strbuf_putc(sb, '"');
}

static const char *const csv_keys[] = {
    "source",   "line",         "run",         "tool",        "tool_version", "labels",
    "test",     "op",           "pattern",     "bs",          "iodepth",      "numjobs",
    "ioengine", "direct",       "size_bytes",  "io_bytes",    "runtime_s",    "bw_bytes_s",
    "iops",     "clat_mean_ns", "clat_p99_ns", "lat_mean_ns", "cpu_usr_pct",  "cpu_sys_pct",
    "metric",   "value",        "unit",        "note",
};

static double pct_of(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return BL_ABSENT;
}

static void csv_num(bl_strbuf *sb, double v)
{
    if (bl_present(v))
        bl_strbuf_put_double(sb, v);
}

static void csv_row(bl_strbuf *sb, const bl_record *r)
{
    char buf[64];
    for (size_t k = 0; k < sizeof csv_keys / sizeof csv_keys[0]; k++) {
        const char *key = csv_keys[k];
        if (k)
            bl_strbuf_putc(sb, ',');
        if (strcmp(key, "labels") == 0) {
            bl_strbuf lb;
            bl_strbuf_init(&lb);
            for (size_t i = 0; i < r->n_labels; i++)
                bl_strbuf_printf(&lb, "%s%s=%s", i ? "; " : "", r->labels[i].key,
                                 r->labels[i].value);
            csv_field(sb, lb.s);
            bl_strbuf_free(&lb);
        } else if (strcmp(key, "clat_mean_ns") == 0) {
            csv_num(sb, r->clat_ns.mean);
        } else if (strcmp(key, "clat_p99_ns") == 0) {
            csv_num(sb, pct_of(&r->clat_ns, 99));
        } else if (strcmp(key, "lat_mean_ns") == 0) {
            csv_num(sb, r->lat_ns.mean);
        } else {
            csv_field(sb, bl_record_field_text(r, key, buf, sizeof buf));
        }
    }
    bl_strbuf_putc(sb, '\n');
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
    const bl_command_help h = {
        "export", export_usage,
        FILTER_HELP "Example: benchlog export --csv test=rand-read > randread.csv\n", NULL};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    bl_store *s;
    bl_filter f;
    if ((rc = open_with_filter(db, n, argv, &s, &f)) != 0)
        return rc;
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    rc = bl_store_query(s, &f, &recs, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "benchlog export: %s\n", err);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (csv) {
        for (size_t k = 0; k < sizeof csv_keys / sizeof csv_keys[0]; k++)
            bl_strbuf_printf(&sb, "%s%s", k ? "," : "", csv_keys[k]);
        bl_strbuf_putc(&sb, '\n');
    }
    for (size_t i = 0; i < recs.n; i++) {
        if (csv) {
            csv_row(&sb, recs.v[i]);
        } else {
            bl_record_to_json(recs.v[i], &sb);
            bl_strbuf_putc(&sb, '\n');
        }
        if (sb.len > (1 << 16) || i + 1 == recs.n) {
            fwrite(sb.s, 1, sb.len, stdout);
            bl_strbuf_reset(&sb);
        }
    }
    if (csv && recs.n == 0)
        fwrite(sb.s, 1, sb.len, stdout);
    bl_strbuf_free(&sb);
    bl_records_free(&recs);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc ? 1 : 0;
}

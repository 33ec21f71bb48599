/* benchlog list / export: what the store holds, as runs or as records. */
#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct store_args {
    const char *db;
    int csv;
    int first_filter;
} store_args;

static int read_args(const char *cmd, int argc, char **argv, store_args *a, int allow_format)
{
    static const struct option opts[] = {{"db", required_argument, 0, 'd'},
                                         {"jsonl", no_argument, 0, 'j'},
                                         {"csv", no_argument, 0, 'c'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (c == 'd')
            a->db = optarg;
        else if (c == 'h')
            return -1;
        else if ((c == 'j' || c == 'c') && allow_format)
            a->csv = c == 'c';
        else
            return bl_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    }
    a->first_filter = optind;
    return 0;
}

static const char list_help[] =
    "Usage: benchlog list [--db FILE] [FILTER...]\n\n"
    "Lists the runs in the store, one a line: id, source:line, tool and version,\n"
    "number of records, labels.\n\n"
    "FILTER is KEY=VALUE, KEY!=VALUE or KEY~TEXT on record keys (tool, test, op, bs,\n"
    "iodepth, ...) or labels (job, section, host, ...). All must match.\n\n"
    "Example: benchlog list tool=fio section~iSCSI\n";

static const char export_help[] =
    "Usage: benchlog export [--db FILE] [--jsonl | --csv] [FILTER...]\n\n"
    "Writes the stored records matching FILTER to stdout: JSON Lines (default, the\n"
    "same form as 'benchlog parse') or CSV with one row a record.\n\n"
    "Example: benchlog export --csv test=rand-read > randread.csv\n";

/* Opens the store and reads the filter; returns 0 or an exit status. */
static int open_with_filter(int argc, char **argv, const store_args *a, bl_store **s, bl_filter *f)
{
    memset(f, 0, sizeof *f);
    if (bl_filter_from_args(f, argc - a->first_filter, argv + a->first_filter) != 0)
        return 2;
    *s = bl_open_store(a->db, 0);
    if (!*s) {
        bl_filter_free(f);
        return 1;
    }
    return 0;
}

int cmd_list(int argc, char **argv)
{
    store_args a;
    int rc = read_args("list", argc, argv, &a, 0);
    if (rc)
        return rc < 0 ? (fputs(list_help, stdout), 0) : rc;
    bl_store *s;
    bl_filter f;
    if ((rc = open_with_filter(argc, argv, &a, &s, &f)) != 0)
        return rc;
    bl_run_info *runs;
    size_t n;
    char err[512];
    rc = bl_store_runs(s, &f, &runs, &n, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "benchlog list: %s\n", err);
    for (size_t i = 0; i < n; i++) {
        const bl_run_info *r = &runs[i];
        char where[32] = "";
        if (r->first_line > 0)
            snprintf(where, sizeof where, ":%lld", (long long)r->first_line);
        printf("%lld/%lld\t%s%s\t%s%s%s\t%zu record%s\t%s\n", (long long)r->import_id,
               (long long)r->run, r->source, where, r->tool, *r->tool_version ? " " : "",
               r->tool_version, r->n_records, r->n_records == 1 ? "" : "s", r->labels);
    }
    bl_run_infos_free(runs, n);
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
    store_args a;
    int rc = read_args("export", argc, argv, &a, 1);
    if (rc)
        return rc < 0 ? (fputs(export_help, stdout), 0) : rc;
    bl_store *s;
    bl_filter f;
    if ((rc = open_with_filter(argc, argv, &a, &s, &f)) != 0)
        return rc;
    bl_records recs;
    bl_records_init(&recs);
    char err[512];
    rc = bl_store_query(s, &f, &recs, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "benchlog export: %s\n", err);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (a.csv) {
        for (size_t k = 0; k < sizeof csv_keys / sizeof csv_keys[0]; k++)
            bl_strbuf_printf(&sb, "%s%s", k ? "," : "", csv_keys[k]);
        bl_strbuf_putc(&sb, '\n');
    }
    for (size_t i = 0; i < recs.n; i++) {
        if (a.csv) {
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
    if (a.csv && recs.n == 0)
        fwrite(sb.s, 1, sb.len, stdout);
    bl_strbuf_free(&sb);
    bl_records_free(&recs);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc ? 1 : 0;
}

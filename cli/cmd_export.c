/* benchlog export: the stored records matching FILTER as JSON Lines or CSV, streamed: one
 * record decoded, written and freed at a time, so memory does not grow with the store. */
#include "../core/fields.h"
#include "../core/jsonl.h"
#include "../core/store.h"
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

/* The CSV columns come from the field table: its CSV scalars, the labels as "k=v; k=v",
 * and a latency's mean and 99th percentile as NAME_mean_ns / NAME_p99_ns. */
static void csv_header(bl_strbuf *sb)
{
    int first = 1;
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        char base[64];
        snprintf(base, sizeof base, "%.*s", (int)(strlen(f->name) - 3), f->name); /* -"_ns" */
        if (f->flags & BL_FF_CSV)
            bl_strbuf_printf(sb, "%s%s", first ? "" : ",", f->name), first = 0;
        if (f->kind == BL_FK_LAT && (f->flags & BL_FF_CSV_MEAN))
            bl_strbuf_printf(sb, "%s%s_mean_ns", first ? "" : ",", base), first = 0;
        if (f->kind == BL_FK_LAT && (f->flags & BL_FF_CSV_P99))
            bl_strbuf_printf(sb, "%s%s_p99_ns", first ? "" : ",", base), first = 0;
    }
    bl_strbuf_putc(sb, '\n');
}

static void csv_row(bl_strbuf *sb, const bl_record *r)
{
    char buf[64];
    int first = 1;
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        if (f->flags & BL_FF_CSV) {
            if (!first)
                bl_strbuf_putc(sb, ',');
            first = 0;
            if (f->kind == BL_FK_LABELS) {
                bl_strbuf lb;
                bl_strbuf_init(&lb);
                for (size_t k = 0; k < r->n_labels; k++)
                    bl_strbuf_printf(&lb, "%s%s=%s", k ? "; " : "", r->labels[k].key,
                                     r->labels[k].value);
                csv_field(sb, lb.s);
                bl_strbuf_free(&lb);
            } else {
                csv_field(sb, bl_field_text(f, r, buf, sizeof buf));
            }
        }
        if (f->kind != BL_FK_LAT)
            continue;
        const bl_lat *l = BL_CFIELD(r, f, bl_lat);
        if (f->flags & BL_FF_CSV_MEAN) {
            bl_strbuf_putc(sb, ',');
            csv_num(sb, l->present ? l->mean : BL_ABSENT);
        }
        if (f->flags & BL_FF_CSV_P99) {
            bl_strbuf_putc(sb, ',');
            csv_num(sb, pct_of(l, 99));
        }
    }
    bl_strbuf_putc(sb, '\n');
}

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

static int export_one(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    export_ctx *x = ctx;
    if (x->csv) {
        csv_row(&x->sb, r);
    } else {
        bl_record_to_json(r, &x->sb);
        bl_strbuf_putc(&x->sb, '\n');
    }
    bl_record_free(r);
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
        csv_header(&x.sb);
    char err[512];
    rc = bl_store_each(s, &f, export_one, &x, err, sizeof err);
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

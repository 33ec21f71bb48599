/* benchlog show / relabel / delete: one run looked at, labels fixed after import, runs
 * removed. A RUN is the ID `benchlog list` prints; where a FILTER is allowed, the runs it
 * acts on are the runs `benchlog list FILTER` shows. */
#include "../core/fields.h"
#include "../core/jsonl.h"
#include "../core/store.h"
#include "../core/strbuf.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include "colour.h"
#include "global.h"
#include "runlist.h"
#include "show_units.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- show ---- */

enum { SHOW_ARRAY_MAX = 16 };

static void show_value(const char *path, json_t *v, const char *run_id);

/* Every line of a record goes through here: its name, then its value as text. A note
 * (a figure to look at twice) is painted as a flag. */
static void show_line(const char *name, const char *text)
{
    printf("  %-22s ", name);
    bl_paint_fputs(stdout, strcmp(name, "note") == 0 && bl_color(stdout), BL_PAINT_FLAG, text);
    putchar('\n');
}

static void show_line_cb(void *ctx, const char *name, const char *text)
{
    (void)ctx;
    show_line(name, text);
}

static void show_scalar(bl_strbuf *sb, json_t *v)
{
    if (json_is_string(v)) {
        bl_put_escaped(sb, json_string_value(v)); /* one line a figure */
    } else if (json_is_real(v)) {
        bl_strbuf_put_double(sb, json_real_value(v)); /* the shortest text of the figure */
    } else {
        char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        bl_strbuf_puts(sb, t ? t : "");
        free(t);
    }
}

/* Nested objects and arrays are flattened to dotted paths; long arrays are cut, and say so. */
static void show_value(const char *path, json_t *v, const char *run_id)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (json_is_object(v)) {
        const char *k;
        json_t *sub;
        json_object_foreach(v, k, sub)
        {
            bl_strbuf_reset(&sb);
            bl_strbuf_printf(&sb, "%s.%s", path, k);
            show_value(sb.s, sub, run_id);
        }
    } else if (json_is_array(v) && json_array_size(v) > 0 &&
               !json_is_object(json_array_get(v, 0))) {
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n && i < SHOW_ARRAY_MAX; i++) {
            bl_strbuf_puts(&sb, i ? ", " : "");
            show_scalar(&sb, json_array_get(v, i));
        }
        if (n > SHOW_ARRAY_MAX)
            bl_strbuf_printf(&sb, ", ... (%zu in all: benchlog export %s)", n, run_id);
        show_line(path, sb.s);
    } else if (json_is_array(v)) {
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n && i < SHOW_ARRAY_MAX; i++) {
            bl_strbuf_reset(&sb);
            bl_strbuf_printf(&sb, "%s[%zu]", path, i);
            show_value(sb.s, json_array_get(v, i), run_id);
        }
        if (n > SHOW_ARRAY_MAX) {
            bl_strbuf_reset(&sb);
            bl_strbuf_printf(&sb, "... (%zu in all: benchlog export %s)", n, run_id);
            show_line(path, sb.s);
        }
    } else {
        show_scalar(&sb, v);
        show_line(path, sb.s);
    }
    bl_strbuf_free(&sb);
}

typedef struct show_ctx {
    size_t i, n;
    int json;
} show_ctx;

static int show_record(void *ctx, bl_record *r, const char *run_id)
{
    show_ctx *c = ctx;
    if (c->json) {
        bl_record_write_jsonl(r, stdout);
        bl_record_free(r);
        return 0;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_record_to_json(r, &sb);
    json_t *o = json_loadb(sb.s, sb.len, 0, NULL);
    printf("\nrecord %zu of %zu", ++c->i, c->n);
    if (r->line > 0)
        printf(", line %lld", (long long)r->line);
    printf("\n");
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v)
    {
        /* said once above for the whole run */
        if (!strcmp(k, "source") || !strcmp(k, "run") || !strcmp(k, "line") || !strcmp(k, "tool") ||
            !strcmp(k, "tool_version"))
            continue;
        /* figures with a unit in the units people read; the rest as stored */
        const bl_field *f = bl_field_find(k);
        if (!f || !bl_show_field(f, r, show_line_cb, NULL))
            show_value(k, v, run_id);
    }
    json_decref(o);
    bl_strbuf_free(&sb);
    bl_record_free(r);
    return 0;
}

/* Prints the run's header; *ctx receives its number of records. */
static int show_header(void *ctx, const bl_run_info *ri)
{
    *(size_t *)ctx = ri->n_records;
    const bl_record *h = ri->head;
    printf("run      ");
    bl_paint_fputs(stdout, bl_color(stdout), BL_PAINT_ID, ri->id);
    printf("\nsource   %s", h->source ? h->source : "");
    if (ri->first_line > 0)
        printf(":%lld", (long long)ri->first_line);
    printf(" (run %lld of it, imported %s)\ntool     %s%s%s\nlabels   ", (long long)h->run,
           ri->imported_at, h->tool ? h->tool : "", h->tool_version && *h->tool_version ? " " : "",
           h->tool_version ? h->tool_version : "");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < ri->n_labels; i++) {
        bl_strbuf_puts(&sb, i ? ", " : "");
        bl_put_escaped(&sb, ri->labels[i].key);
        bl_strbuf_putc(&sb, '=');
        bl_put_escaped(&sb, ri->labels[i].value);
    }
    printf("%s\nrecords  %zu\n", sb.s ? sb.s : "", ri->n_records);
    bl_strbuf_free(&sb);
    return 1; /* one run */
}

/* show --json: no header, the records alone */
static int count_records(void *ctx, const bl_run_info *ri)
{
    *(size_t *)ctx = ri->n_records;
    return 1;
}

static const char show_usage[] =
    "Usage: benchlog show [OPTIONS] RUN\n\n"
    "Shows one run: its source, labels and every record with all its figures, in the\n"
    "units people read: MB/s (10^6 bytes/s), IOPS, latencies in ns/µs/ms with their\n"
    "percentiles in a row, sizes in KiB/MiB (long series are cut after 16 values;\n"
    "benchlog export RUN has them all). --json prints the records as stored (bytes,\n"
    "bytes/s, ns, s). RUN is the ID 'benchlog list' prints first.\n";

int cmd_show(int argc, char **argv)
{
    const char *db = NULL;
    int json = 0;
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_BOOL(0, "json", &json, "the records as stored, as JSON Lines (as export RUN)"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"show", show_usage, "Example: benchlog show 3f2a9c1b\n", NULL,
                                      0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if (n != 1)
        return bl_usage_error("show", n ? "one RUN at a time" : "which RUN? (benchlog list)");
    if (!bl_is_run_id(argv[0]))
        return bl_usage_error("show",
                              "'%s' is not a run ID (%d hex digits, as benchlog list "
                              "prints them)",
                              argv[0], BL_RUN_ID_LEN);
    bl_filter f = {0};
    char err[512];
    bl_filter_add(&f, argv[0], err, sizeof err);
    bl_store *s = bl_open_store(db, 0);
    if (!s) {
        bl_filter_free(&f);
        return 1;
    }
    size_t n_records = 0;
    rc = bl_store_each_run(s, &f, json ? count_records : show_header, &n_records, err, sizeof err);
    if (rc == 1) {
        show_ctx c = {0, n_records, json};
        rc = bl_store_each(s, &f, show_record, &c, err, sizeof err);
    } else if (rc == 0) {
        snprintf(err, sizeof err, "no run %s in %s", argv[0], db ? db : bl_store_default_path());
        rc = -1;
    }
    if (rc)
        fprintf(stderr, "benchlog show: %s\n", err);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc ? 1 : 0;
}

/* ---- relabel and delete: selecting runs ---- */

/* FILTER terms from the operands; a bare ID is run=ID. Returns 0, or 2 (message printed). */
static int selection(const char *cmd, int n, char **ops, bl_filter *f)
{
    memset(f, 0, sizeof *f);
    if (n == 0)
        return bl_usage_error(cmd, "which runs? Give run IDs (benchlog list) or a FILTER; "
                                   "an empty selection is refused");
    return bl_filter_from_args(f, n, ops) == 0 ? 0 : 2;
}

typedef struct key_list {
    size_t n;
    char **v;
} key_list;

static int add_key(void *list, const char *arg, char *err, size_t errlen)
{
    key_list *k = list;
    if (!*arg || strchr(arg, '=')) {
        snprintf(err, errlen, "--unset wants a label name, not '%s'", arg);
        return -1;
    }
    k->v = bl_xrealloc(k->v, (k->n + 1) * sizeof *k->v);
    k->v[k->n++] = (char *)arg;
    return 0;
}

static const char relabel_usage[] =
    "Usage: benchlog relabel [OPTIONS] RUN... K=V... [--unset K]...\n"
    "       benchlog relabel [OPTIONS] FILTER K=V... [--unset K]...\n"
    "       benchlog relabel [OPTIONS] FILTER... -- K=V... [--unset K]...\n\n"
    "Sets (K=V) and removes (--unset K) labels on every record of the runs given by ID,\n"
    "or of the runs 'benchlog list FILTER' shows; all in one transaction. The selection\n"
    "is the leading run IDs, else the first operand alone (one FILTER term); every later\n"
    "operand is a label to set. A selection of several FILTER terms ends with '--'.\n"
    "After one FILTER term, a K=V that names a record field or would change K where\n"
    "the selected records hold another value is refused (it may be meant as a FILTER\n"
    "term); after '--' it is set.\n";

/* K=V, not K!=V nor K~V (whose text may hold '=' after the '~'). */
static int is_assignment(const char *op)
{
    const char *eq = strchr(op, '='), *tilde = strchr(op, '~');
    return eq && eq != op && !(eq[-1] == '!' && eq - 1 != op) && !(tilde && tilde < eq);
}

/* Splits the operands into the runs' selection and the labels to set: everything before
 * '--'; else the leading run IDs; else the first operand. What follows must be K=V: a
 * second FILTER term or a run ID after a FILTER is refused, never guessed at. */
static int split_relabel(int n, char **ops, int *n_sel, int *one_filter, bl_labels *set)
{
    int dash = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(ops[i], "--") == 0 && dash < 0)
            dash = i;
    int first_label = dash;
    if (dash < 0) {
        first_label = 0;
        while (first_label < n && bl_is_run_id(ops[first_label]))
            first_label++;
        if (first_label == 0 && n > 0)
            first_label = 1; /* one FILTER term */
    }
    *n_sel = first_label;
    int by_filter = dash < 0 && first_label == 1 && !bl_is_run_id(ops[0]);
    *one_filter = by_filter;
    for (int i = first_label + (dash >= 0); i < n; i++) {
        if (is_assignment(ops[i])) {
            bl_labels_add(set, ops[i]);
            continue;
        }
        if (dash >= 0)
            return bl_usage_error("relabel", "'%s' is not K=V", ops[i]);
        if (by_filter && bl_is_run_id(ops[i]))
            return bl_usage_error("relabel",
                                  "'%s' is a run ID after the FILTER '%s': give run IDs "
                                  "first, or put '--' between the selection and the labels",
                                  ops[i], ops[0]);
        if (by_filter)
            return bl_usage_error("relabel",
                                  "'%s' is not K=V: a selection of several FILTER terms "
                                  "('%s %s ...') needs '--' before the labels",
                                  ops[i], ops[0], ops[i]);
        return bl_usage_error("relabel", "'%s' is not a run ID nor K=V", ops[i]);
    }
    return 0;
}

/* In the one-FILTER form a later K=V may have been meant as a second FILTER term:
 * `relabel tool=dd dd_bs=64k rack=8` would set dd_bs=64k on every dd run. A K=V that would
 * change K where the selected records hold it with another value, or that names a record
 * field, is refused with both ways to write what was meant; after '--' it is set. */
typedef struct overwrite_scan {
    const bl_labels *set;
    size_t *records;     /* per label: selected records holding K with another value */
    const char **before; /* per label: one such value (owned by `kept`) */
    bl_labels kept;
} overwrite_scan;

static int scan_labels(void *ctx, bl_record *r, const char *run_id)
{
    overwrite_scan *o = ctx;
    (void)run_id;
    for (size_t i = 0; i < o->set->n; i++)
        for (size_t k = 0; k < r->n_labels; k++) {
            const bl_label *l = &r->labels[k];
            if (strcmp(l->key, o->set->v[i].key) != 0 || strcmp(l->value, o->set->v[i].value) == 0)
                continue;
            if (o->records[i]++ == 0) {
                o->kept.v = bl_xrealloc(o->kept.v, (o->kept.n + 1) * sizeof *o->kept.v);
                o->kept.v[o->kept.n].key = bl_xstrdup(l->key);
                o->kept.v[o->kept.n].value = bl_xstrdup(l->value);
                o->before[i] = o->kept.v[o->kept.n++].value;
            }
        }
    bl_record_free(r);
    return 0;
}

static int refuse_ambiguous(const char *filter, const bl_label *l, const char *why)
{
    return bl_usage_error("relabel",
                          "'%s=%s' %s. To select by it write 'benchlog relabel %s %s=%s -- "
                          "K=V...'; to set it write 'benchlog relabel %s -- %s=%s ...'",
                          l->key, l->value, why, filter, l->key, l->value, filter, l->key,
                          l->value);
}

static int check_one_filter_labels(bl_store *s, const bl_filter *f, const char *filter,
                                   const bl_labels *set)
{
    for (size_t i = 0; i < set->n; i++)
        if (bl_field_find(set->v[i].key))
            return refuse_ambiguous(filter, &set->v[i],
                                    "names a record field, so it may be a second FILTER term");
    overwrite_scan o = {set,
                        bl_xcalloc(set->n, sizeof(size_t)),
                        bl_xcalloc(set->n, sizeof(const char *)),
                        {0, NULL}};
    char err[512];
    int rc = bl_store_each(s, f, scan_labels, &o, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "benchlog relabel: %s; store unchanged\n", err);
    for (size_t i = 0; rc == 0 && i < set->n; i++)
        if (o.records[i]) {
            char why[256];
            snprintf(why, sizeof why,
                     "would overwrite %s on %zu record%s that '%s' selects (%s=%s among them), "
                     "so it may be a second FILTER term",
                     set->v[i].key, o.records[i], o.records[i] == 1 ? "" : "s", filter,
                     set->v[i].key, o.before[i]);
            rc = refuse_ambiguous(filter, &set->v[i], why);
        }
    free(o.records);
    free(o.before);
    bl_labels_free(&o.kept);
    return rc ? 2 : 0;
}

int cmd_relabel(int argc, char **argv)
{
    const char *db = NULL;
    key_list unset = {0, NULL};
    const bl_option opts[] = {
        BL_OPT_FN(0, "unset", &unset, "K", "remove the label K (repeatable)", add_key),
        BL_OPT_DB(&db),
        BL_OPT_END(),
    };
    static const bl_command_help h = {
        "relabel", relabel_usage,
        "Examples:\n  benchlog relabel 3f2a9c1b host=nas2 --unset disk\n"
        "  benchlog relabel tool=fio batch=2019\n"
        "  benchlog relabel source~old/ host=nas1 -- batch=2019\n",
        NULL, 1};
    bl_labels set = {0, NULL};
    bl_filter f = {0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc), n_sel = 0, one_filter = 0;
    if (n < 0)
        goto out;
    if ((rc = split_relabel(n, argv, &n_sel, &one_filter, &set)) != 0 ||
        (rc = selection("relabel", n_sel, argv, &f)) != 0)
        goto out;
    if (set.n == 0 && unset.n == 0) {
        rc = bl_usage_error("relabel", "no label to set (K=V) or remove (--unset K)");
        goto out;
    }
    bl_store *s = bl_open_store_rw(db);
    if (!s) {
        rc = 1;
        goto out;
    }
    if (one_filter && (rc = check_one_filter_labels(s, &f, argv[0], &set)) != 0) {
        bl_store_close(s);
        goto out;
    }
    char err[512];
    size_t n_runs, n_records;
    rc = bl_store_relabel(s, &f, set.v, set.n, unset.v, unset.n, &n_runs, &n_records, err,
                          sizeof err);
    bl_store_close(s);
    if (rc != 0)
        fprintf(stderr, "benchlog relabel: %s; store unchanged\n", err);
    else if (n_runs == 0)
        fprintf(stderr, "benchlog relabel: no run matches; store unchanged\n");
    else if (!bl_quiet()) /* the result: stdout */
        printf("benchlog relabel: %zu run%s (%zu record%s) relabelled\n", n_runs,
               n_runs == 1 ? "" : "s", n_records, n_records == 1 ? "" : "s");
    rc = rc != 0 || n_runs == 0 ? 1 : 0;
out:
    bl_filter_free(&f);
    bl_labels_free(&set);
    free(unset.v);
    return rc;
}

static const char delete_usage[] =
    "Usage: benchlog delete [OPTIONS] RUN|FILTER...\n\n"
    "Removes the runs given by ID, or the runs 'benchlog list FILTER' shows, whole, in\n"
    "one transaction. On a terminal it lists them and asks; elsewhere --yes is needed.\n"
    "An empty selection is refused (to empty a store, remove its file).\n";

/* Lists the runs on stderr and asks; 1 when the answer is yes. */
static int confirm(bl_store *s, const bl_filter *f, size_t *n_runs)
{
    bl_run_table *t = bl_run_table_new(stderr, 0);
    char err[512];
    int rc = bl_store_each_run(s, f, bl_run_table_add, t, err, sizeof err);
    *n_runs = bl_run_table_finish(t);
    if (rc != 0) {
        fprintf(stderr, "benchlog delete: %s\n", err);
        return 0;
    }
    if (*n_runs == 0)
        return 0;
    fprintf(stderr, "Delete %s %zu run%s? [y/N] ", *n_runs == 1 ? "this" : "these", *n_runs,
            *n_runs == 1 ? "" : "s");
    char answer[16] = "";
    if (!fgets(answer, sizeof answer, stdin))
        return 0;
    return answer[0] == 'y' || answer[0] == 'Y';
}

int cmd_delete(int argc, char **argv)
{
    const char *db = NULL;
    int yes = 0;
    const bl_option opts[] = {
        BL_OPT_BOOL('y', "yes", &yes, "do not ask (for scripts)"),
        BL_OPT_DB(&db),
        BL_OPT_END(),
    };
    static const bl_command_help h = {
        "delete", delete_usage,
        "Examples:\n  benchlog delete 3f2a9c1b\n  benchlog delete --yes host=old-nas\n", NULL, 0};
    bl_filter f;
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if ((rc = selection("delete", n, argv, &f)) != 0)
        return rc;
    if (!yes && !isatty(STDIN_FILENO)) {
        bl_filter_free(&f);
        return bl_usage_error("delete", "not asking without a terminal: add --yes");
    }
    bl_store *s = bl_open_store_rw(db);
    if (!s) {
        bl_filter_free(&f);
        return 1;
    }
    size_t n_runs = 0, n_records = 0;
    char err[512];
    if (!yes && !confirm(s, &f, &n_runs)) {
        fprintf(stderr, "benchlog delete: %s\n", n_runs ? "nothing deleted" : "no run matches");
        rc = 1;
    } else if (bl_store_delete(s, &f, &n_runs, &n_records, err, sizeof err) != 0) {
        fprintf(stderr, "benchlog delete: %s; store unchanged\n", err);
        rc = 1;
    } else if (n_runs == 0) {
        fprintf(stderr, "benchlog delete: no run matches; store unchanged\n");
        rc = 1;
    } else if (!bl_quiet()) { /* the result: stdout */
        printf("benchlog delete: %zu run%s (%zu record%s) deleted\n", n_runs,
               n_runs == 1 ? "" : "s", n_records, n_records == 1 ? "" : "s");
    }
    bl_filter_free(&f);
    bl_store_close(s);
    return rc;
}

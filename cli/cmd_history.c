/* benchlog history / check: each set-up's series over time with its change points, and the
 * verdict on the newest runs for CI and cron (compare/history.h). */
#include "../compare/fmt.h"
#include "../compare/history.h"
#include "../compare/load.h"
#include "../core/strbuf.h"
#include "args.h"
#include "cmp_args.h"
#include "commands.h"
#include "options.h"
#include "say.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char history_usage[] =
    "Usage: benchlog history [OPTIONS] [FILTER...]\n\n"
    "Each set-up's results over time: per set-up and test, the runs in time order (their\n"
    "`when`), the figure, n (records at that time) and the changes E-Divisive finds in the\n"
    "series, with the means before and after, the change in per cent and its p-value.\n"
    "A set-up is the comparison's identity without time: tool, heading, host and how it was\n"
    "run (job, device, target, dd operands, ...); with --by, the values of those labels.\n";
static const char check_usage[] =
    "Usage: benchlog check [OPTIONS] [FILTER...]\n\n"
    "Exits 1 when the newest runs of a set-up form a regression: a change point the\n"
    "permutation test calls significant (p <= --alpha) that makes the figure worse, or, when\n"
    "fewer runs than the minimum segment follow, their mean beyond the one-sided prediction\n"
    "bound (Student's t, at --alpha) of the segment before them on the worse side, so that\n"
    "flat noise is a false alarm as often as --alpha says. One line per regression;\n"
    "exit 0 when there is none, 2 on usage errors. The newest runs are the last one of\n"
    "each series unless --last N or --since TIME says otherwise.\n";
static const char after[] =
    "\nExamples:\n"
    "  benchlog history tool=fio test=rand-read\n"
    "  benchlog run --suite quick --target /mnt/nas && benchlog check --last 1\n";

typedef struct hist_args {
    const char *db, *since_arg;
    int csv, json;
    long last;
    const char *by[16];
    size_t n_by;
    bl_cmp_args cmp;
    bl_cp_opts cp;
    time_t since;
} hist_args;

/* --by L1,L2 or --by repeated */
static int opt_by(void *args, const char *v, char *err, size_t errlen)
{
    hist_args *a = args;
    while (*v) {
        size_t n = strcspn(v, ",");
        if (n && a->n_by == sizeof a->by / sizeof *a->by) {
            snprintf(err, errlen, "too many --by labels");
            return -1;
        }
        if (n)
            a->by[a->n_by++] = bl_xstrndup(v, n);
        v += n + (v[n] == ',');
    }
    return 0;
}

static int opt_alpha(void *args, const char *v, char *err, size_t errlen)
{
    hist_args *a = args;
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0 && x < 1)) {
        snprintf(err, errlen, "--alpha '%s': a significance between 0 and 1 (0.01)", v);
        return -1;
    }
    a->cp.alpha = x;
    return 0;
}

static int opt_count(const char *v, long min, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < min)
        return -1;
    *out = x;
    return 0;
}

static int opt_min_seg(void *args, const char *v, char *err, size_t errlen)
{
    long x;
    if (opt_count(v, 2, &x) != 0) {
        snprintf(err, errlen, "--min-segment '%s': a whole number of runs, 2 or more", v);
        return -1;
    }
    ((hist_args *)args)->cp.min_seg = (size_t)x;
    return 0;
}

static int opt_last(void *args, const char *v, char *err, size_t errlen)
{
    if (opt_count(v, 1, &((hist_args *)args)->last) != 0) {
        snprintf(err, errlen, "--last '%s': a number of runs, 1 or more", v);
        return -1;
    }
    return 0;
}

static int add_record(void *ctx, const bl_record *r)
{
    bl_history_add(ctx, r);
    return 0;
}

static void add_lean(void *ctx, const bl_record *r, const double fig[BL_FOLD_N])
{
    bl_history_add_figs(ctx, r, fig);
}

/* Reads the options; returns the number of FILTER terms in argv[0..n), or -1 with *status. */
static int read_args(const char *cmd, int argc, char **argv, hist_args *a, int *status)
{
    int check = strcmp(cmd, "check") == 0;
    const bl_option opts[] = {
        BL_OPT_DB(&a->db),
        BL_OPT_FN(0, "by", a, "LABEL[,LABEL]",
                  "set-ups are named by these labels (repeatable) instead of how they ran", opt_by),
        BL_OPT_FN(0, "metric", &a->cmp, "NAME",
                  "follow this figure: bw, iops, lat, p50, p99, p99.9, value\n"
                  "(repeatable; default each test's main figure: MB/s, else IOPS)",
                  bl_cmp_opt_metric),
        BL_OPT_FN(0, "alpha", a, "P", "significance of a change point (default 0.01)", opt_alpha),
        BL_OPT_FN(0, "min-segment", a, "N",
                  "fewest runs between change points (default 3; at least 2)", opt_min_seg),
        BL_OPT_BOOL(0, "json", &a->json, "machine-readable JSON"),
        BL_OPT_BOOL(0, "csv", &a->csv, "CSV, one row a point (history)"),
        BL_OPT_FN(0, "last", a, "N", "check: the newest N runs of each series (default 1)",
                  opt_last),
        BL_OPT_STRING(0, "since", &a->since_arg, "TIME",
                      "check: the runs at or after TIME (2026-12-01, 2026-12-01T06:00Z)"),
        BL_OPT_END(),
    };
    const bl_command_help h = {cmd, check ? check_usage : history_usage, after, NULL, 0};
    memset(a, 0, sizeof *a);
    int n = bl_options(&h, opts, argc, argv, status);
    if (n < 0)
        return -1;
    if (a->since_arg && bl_when_parse(a->since_arg, &a->since) != 0) {
        *status = bl_usage_error(cmd, "--since '%s': not a time", a->since_arg);
        return -1;
    }
    if (a->since_arg && a->last) {
        *status = bl_usage_error(cmd, "--since and --last: one or the other");
        return -1;
    }
    if (!check && (a->since_arg || a->last)) {
        *status = bl_usage_error(cmd, "--since and --last are options of check");
        return -1;
    }
    if (a->csv && (a->json || check)) {
        *status = bl_usage_error(cmd, check ? "--csv is an option of history" : "--csv or --json");
        return -1;
    }
    return n;
}

static void free_args(hist_args *a)
{
    for (size_t i = 0; i < a->n_by; i++)
        free((char *)a->by[i]);
}

/* The history of the records matching argv[0..n); NULL with *status when none. */
static bl_history *load(const char *cmd, hist_args *a, int n, char **argv, int *status)
{
    bl_hist_opts o = {.by = a->by,
                      .n_by = a->n_by,
                      .metrics = a->cmp.metrics,
                      .n_metrics = a->cmp.n_metrics,
                      .cp = a->cp};
    bl_hist_builder *b = bl_history_begin(&o);
    char err[512];
    /* a series needs of a record its shape, time and figures: the store's lean walk gives
     * them without decoding the JSON, where it can */
    int rc = bl_report_lean(a->db, n, argv, add_lean, b, err, sizeof err);
    if (rc < 0)
        rc = bl_report_walk(a->db, n, argv, add_record, b, err, sizeof err);
    bl_history *h = bl_history_end(b);
    if (rc != 0) {
        fprintf(stderr, "benchlog %s: %s\n", cmd, err);
        bl_history_free(h);
        *status = rc;
        return NULL;
    }
    if (h->n_untimed)
        bl_note(cmd, "%s without a time left out", bl_count(h->n_untimed, "record").s);
    return h;
}

/* A figure as the tables print it, in the series' unit. */
static void put_fig(bl_strbuf *sb, const bl_hist_series *s, double v)
{
    if (!bl_present(v))
        bl_strbuf_puts(sb, "-");
    else if (s->metric == BL_M_IOPS)
        bl_fmt_iops(sb, v);
    else if (s->unit && strcmp(s->unit, "ns") == 0)
        bl_fmt_ns(sb, v);
    else
        bl_fmt_fig(sb, v);
}

static const char *unit_of(const bl_hist_series *s)
{
    return s->unit && strcmp(s->unit, "ns") != 0 ? s->unit : "";
}

static void put_change(bl_strbuf *sb, const bl_change *c)
{
    bl_strbuf_printf(sb, "%s ", c->regression ? "▼ regression" : "▲ improvement");
    if (bl_present(c->pct))
        bl_strbuf_printf(sb, "%+.1f%% ", c->pct);
    bl_strbuf_printf(sb, "(p=%.3g)", c->p);
}

static void text_series(const bl_hist_series *s, const bl_cp_opts *cp, bl_strbuf *sb)
{
    bl_strbuf_printf(sb, "%s — %s (%s%s%s, %s is better)\n", s->setup, s->test,
                     bl_metric_name(s->metric), *unit_of(s) ? ", " : "", unit_of(s),
                     s->lower_better ? "lower" : "higher");
    bl_strbuf_printf(sb, "  %-20s  %10s  %4s  %s\n", "when", "figure", "n", "change");
    size_t c = 0;
    for (size_t i = 0; i < s->n; i++) {
        const bl_hist_point *p = &s->p[i];
        bl_strbuf fig;
        bl_strbuf_init(&fig);
        put_fig(&fig, s, p->s.mean);
        if (bl_present(p->s.ci)) {
            bl_strbuf_puts(&fig, " ±");
            put_fig(&fig, s, p->s.ci);
        }
        bl_strbuf_printf(sb, "  %-20s  %10s  %4zu  ", p->when, fig.s, p->s.n);
        bl_strbuf_free(&fig);
        if (c < s->cp.n && s->cp.v[c].at == i)
            put_change(sb, &s->cp.v[c++]);
        bl_strbuf_putc(sb, '\n');
    }
    size_t min_seg = cp->min_seg >= 2 ? cp->min_seg : 3;
    if (s->cp.too_short)
        bl_strbuf_printf(sb, "  %zu point%s: fewer than %zu, no change points looked for\n", s->n,
                         s->n == 1 ? "" : "s", 2 * min_seg);
    else
        bl_strbuf_printf(sb, "  %zu points, %zu change%s (alpha %g, minimum segment %zu)\n", s->n,
                         s->cp.n, s->cp.n == 1 ? "" : "s", cp->alpha > 0 ? cp->alpha : 0.01,
                         min_seg);
}

static void csv_text(bl_strbuf *sb, const char *s)
{
    bl_strbuf_putc(sb, '"');
    for (; s && *s; s++) {
        if (*s == '"')
            bl_strbuf_putc(sb, '"');
        bl_strbuf_putc(sb, *s);
    }
    bl_strbuf_putc(sb, '"');
}

static void csv_num(bl_strbuf *sb, double v)
{
    bl_strbuf_putc(sb, ',');
    if (bl_present(v))
        bl_strbuf_put_double(sb, v);
}

static void csv_series(const bl_hist_series *s, bl_strbuf *sb)
{
    size_t c = 0, seg = 0;
    for (size_t i = 0; i < s->n; i++) {
        const bl_hist_point *p = &s->p[i];
        const bl_change *ch = c < s->cp.n && s->cp.v[c].at == i ? &s->cp.v[c++] : NULL;
        if (ch)
            seg++;
        csv_text(sb, s->setup);
        bl_strbuf_putc(sb, ',');
        csv_text(sb, s->test);
        bl_strbuf_printf(sb, ",%s,", bl_metric_name(s->metric));
        csv_text(sb, s->unit);
        bl_strbuf_printf(sb, ",%s", p->when);
        csv_num(sb, p->s.mean);
        bl_strbuf_printf(sb, ",%zu", p->s.n);
        csv_num(sb, p->s.sd);
        csv_num(sb, p->s.ci);
        bl_strbuf_printf(sb, ",%zu", seg);
        csv_num(sb, ch ? ch->pct : BL_ABSENT);
        csv_num(sb, ch ? ch->p : BL_ABSENT);
        bl_strbuf_printf(sb, ",%s\n", !ch ? "" : ch->regression ? "regression" : "improvement");
    }
}

static void json_str(bl_strbuf *sb, const char *k, const char *v)
{
    bl_strbuf_printf(sb, "\"%s\":\"", k);
    for (; v && *v; v++) {
        if (*v == '"' || *v == '\\')
            bl_strbuf_putc(sb, '\\');
        if ((unsigned char)*v < 0x20)
            bl_strbuf_printf(sb, "\\u%04x", (unsigned char)*v);
        else
            bl_strbuf_putc(sb, *v);
    }
    bl_strbuf_putc(sb, '"');
}

static void json_num(bl_strbuf *sb, const char *k, double v)
{
    bl_strbuf_printf(sb, ",\"%s\":", k);
    if (bl_present(v))
        bl_strbuf_put_double(sb, v);
    else
        bl_strbuf_puts(sb, "null");
}

static void json_head(const bl_hist_series *s, bl_strbuf *sb)
{
    bl_strbuf_putc(sb, '{');
    json_str(sb, "setup", s->setup);
    bl_strbuf_putc(sb, ',');
    json_str(sb, "test", s->test);
    bl_strbuf_putc(sb, ',');
    json_str(sb, "tool", s->tool);
    bl_strbuf_putc(sb, ',');
    json_str(sb, "metric", bl_metric_name(s->metric));
    bl_strbuf_putc(sb, ',');
    json_str(sb, "unit", s->unit);
    bl_strbuf_printf(sb, ",\"lower_better\":%s", s->lower_better ? "true" : "false");
}

static void json_series(const bl_hist_series *s, bl_strbuf *sb)
{
    json_head(s, sb);
    bl_strbuf_printf(sb, ",\"too_short\":%s,\"points\":[", s->cp.too_short ? "true" : "false");
    for (size_t i = 0; i < s->n; i++) {
        bl_strbuf_puts(sb, i ? ",{" : "{");
        json_str(sb, "when", s->p[i].when);
        json_num(sb, "figure", s->p[i].s.mean);
        bl_strbuf_printf(sb, ",\"n\":%zu", s->p[i].s.n);
        json_num(sb, "sd", s->p[i].s.sd);
        json_num(sb, "ci95", s->p[i].s.ci);
        bl_strbuf_putc(sb, '}');
    }
    bl_strbuf_puts(sb, "],\"changes\":[");
    for (size_t i = 0; i < s->cp.n; i++) {
        const bl_change *c = &s->cp.v[i];
        bl_strbuf_puts(sb, i ? ",{" : "{");
        json_str(sb, "when", s->p[c->at].when);
        bl_strbuf_printf(sb, ",\"index\":%zu", c->at);
        json_num(sb, "before", c->before);
        json_num(sb, "after", c->after);
        json_num(sb, "pct", c->pct);
        json_num(sb, "p", c->p);
        bl_strbuf_printf(sb, ",\"regression\":%s}", c->regression ? "true" : "false");
    }
    bl_strbuf_puts(sb, "]}");
}

static int write_out(bl_strbuf *sb)
{
    if (sb->len)
        fwrite(sb->s, 1, sb->len, stdout);
    bl_strbuf_free(sb);
    return fflush(stdout) != 0;
}

int cmd_history(int argc, char **argv)
{
    hist_args a;
    int status = 0, n = read_args("history", argc, argv, &a, &status);
    bl_history *h = n < 0 ? NULL : load("history", &a, n, argv, &status);
    if (!h) {
        free_args(&a);
        return status;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (a.csv)
        bl_strbuf_puts(&sb, "setup,test,metric,unit,when,figure,n,sd,ci95,segment,change_pct,"
                            "change_p,change\n");
    if (a.json)
        bl_strbuf_puts(&sb, "{\"series\":[");
    for (size_t i = 0; i < h->n; i++) {
        if (a.json) {
            bl_strbuf_puts(&sb, i ? "," : "");
            json_series(&h->v[i], &sb);
        } else if (a.csv) {
            csv_series(&h->v[i], &sb);
        } else {
            bl_strbuf_puts(&sb, i ? "\n" : "");
            text_series(&h->v[i], &a.cp, &sb);
        }
    }
    if (a.json)
        bl_strbuf_printf(&sb, "],\"records\":%zu,\"untimed\":%zu}\n", h->n_records, h->n_untimed);
    bl_history_free(h);
    free_args(&a);
    return write_out(&sb);
}

static void text_verdict(const bl_hist_series *s, const bl_hist_verdict *v, double alpha,
                         bl_strbuf *sb)
{
    bl_strbuf_printf(sb, "regression: %s — %s (%s): ", s->setup, s->test,
                     bl_metric_name(s->metric));
    put_fig(sb, s, v->before);
    bl_strbuf_puts(sb, " → ");
    put_fig(sb, s, v->after);
    if (*unit_of(s))
        bl_strbuf_printf(sb, " %s", unit_of(s));
    if (bl_present(v->pct))
        bl_strbuf_printf(sb, " (%+.1f%%)", v->pct);
    if (v->by_interval) {
        bl_strbuf_printf(sb, ", outside the %g%% interval ", 100 * (1 - 2 * alpha));
        put_fig(sb, s, v->lo);
        bl_strbuf_puts(sb, "..");
        put_fig(sb, s, v->hi);
    } else {
        bl_strbuf_printf(sb, ", p=%.3g", v->p);
    }
    bl_strbuf_printf(sb, ", since %s\n", s->p[v->at].when);
}

static void json_verdict(const bl_hist_series *s, const bl_hist_verdict *v, bl_strbuf *sb)
{
    json_head(s, sb);
    bl_strbuf_putc(sb, ',');
    json_str(sb, "since", s->p[v->at].when);
    json_num(sb, "before", v->before);
    json_num(sb, "after", v->after);
    json_num(sb, "pct", v->pct);
    json_num(sb, "p", v->p);
    json_num(sb, "interval_lo", v->lo);
    json_num(sb, "interval_hi", v->hi);
    bl_strbuf_printf(sb, ",\"by\":\"%s\",\"newest\":%zu}",
                     v->by_interval ? "interval" : "change-point", v->newest);
}

int cmd_check(int argc, char **argv)
{
    hist_args a;
    int status = 0, n = read_args("check", argc, argv, &a, &status);
    bl_history *h = n < 0 ? NULL : load("check", &a, n, argv, &status);
    if (!h) {
        free_args(&a);
        return status;
    }
    size_t last = a.since_arg ? 0 : a.last ? (size_t)a.last : 1, found = 0;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (a.json)
        bl_strbuf_puts(&sb, "{\"regressions\":[");
    for (size_t i = 0; i < h->n; i++) {
        bl_hist_verdict v;
        bl_hist_check(&h->v[i], last, a.since, a.cp.min_seg, a.cp.alpha, &v);
        if (!v.regression)
            continue;
        if (a.json) {
            bl_strbuf_puts(&sb, found ? "," : "");
            json_verdict(&h->v[i], &v, &sb);
        } else {
            text_verdict(&h->v[i], &v, a.cp.alpha > 0 ? a.cp.alpha : 0.01, &sb);
        }
        found++;
    }
    if (a.json)
        bl_strbuf_printf(&sb, "],\"series\":%zu,\"status\":%d}\n", h->n, found ? 1 : 0);
    else if (!found)
        bl_note("check", "no regression in %zu series", h->n);
    bl_history_free(h);
    free_args(&a);
    int werr = write_out(&sb);
    return found ? 1 : werr;
}

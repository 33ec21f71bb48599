/* fio per-I/O logs: summaries against fio's JSON of the same run and against sums taken
 * here from the files, histogram logs of fio 2.x and 3.x, the streaming path, the
 * downsampled timeline, and malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/fio_log.h"
#include "../parsers/fio_log_merge.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Plain sums over column `col` of lines whose ddir column is ddir (-1: any). */
typedef struct sums {
    double n, sum, min, max;
} sums;

static sums file_sums(const char *path, int col, int ddir)
{
    sums s = {0, 0, INFINITY, -INFINITY};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[65536];
    while (fgets(line, sizeof line, f)) {
        double v[4] = {0};
        if (sscanf(line, "%lf, %lf, %lf, %lf", &v[0], &v[1], &v[2], &v[3]) < 4)
            continue;
        if (ddir >= 0 && (int)v[2] != ddir)
            continue;
        s.n++;
        s.sum += v[col];
        s.min = fmin(s.min, v[col]);
        s.max = fmax(s.max, v[col]);
    }
    fclose(f);
    return s;
}

static const bl_record *by_op(const bl_parse_out *o, const char *op)
{
    for (size_t i = 0; i < o->recs.n; i++)
        if (strcmp(o->recs.v[i]->op, op) == 0)
            return o->recs.v[i];
    return NULL;
}

/* log-raw_clat.3.log has one line per I/O: its summary is fio's own (JSON of the run:
 * clat_ns min 58907, max 1583793, mean 114008.172667, N 1500). */
static void test_raw_clat_log_equals_fio_summary(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out o;
    assert_int_equal(
        bl_test_parse(bl_test_fixture("fio/log-raw_clat.3.log", p, sizeof p), NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->op, "read");
    assert_string_equal(bl_record_label(r, "job"), "log-raw");
    assert_string_equal(bl_record_label(r, "jobnum"), "3");
    assert_int_equal(r->bs, 4096);
    assert_double_equal(r->clat_ns.min, 58907, 0);
    assert_double_equal(r->clat_ns.max, 1583793, 0);
    assert_double_equal(r->clat_ns.mean, 114008.172667, 1e-6);
    uint64_t n = 0;
    for (size_t i = 0; i < r->clat_ns.n_bins; i++)
        n += r->clat_ns.bins[i].count;
    assert_int_equal(n, 1500);
    /* fio's histogram error is under 1/64 of the value */
    double p50 = NAN;
    for (size_t i = 0; i < r->clat_ns.n_pct; i++)
        if (r->clat_ns.pct[i].pct == 50)
            p50 = r->clat_ns.pct[i].value;
    assert_true(p50 > 58907 && p50 < 1583793);
    assert_int_equal(r->n_series, 1);
    assert_string_equal(r->series[0].name, "clat");
    assert_int_equal(r->series[0].n, 1500); /* under the cap: every point kept */
    bl_out_free(&o);
}

static void test_averaged_logs(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out o;
    const char *path = bl_test_fixture("fio/log-avg_bw.1.log", p, sizeof p);
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.recs.n, 2);
    for (int d = 0; d < 2; d++) {
        sums s = file_sums(path, 1, d);
        const bl_record *r = by_op(&o, d ? "write" : "read");
        assert_non_null(r);
        assert_double_equal(r->bw_bytes_s, s.sum / s.n * 1024, 1e-6);
        assert_double_equal(r->bw_samples.min, s.min * 1024, 0);
        assert_double_equal(r->bw_samples.max, s.max * 1024, 0);
        assert_int_equal(r->bw_samples.count, (int64_t)s.n);
        assert_string_equal(r->series[0].unit, "bytes/s");
    }
    bl_out_free(&o);

    path = bl_test_fixture("fio/log-avg_iops.2.log", p, sizeof p);
    assert_int_equal(bl_test_parse(path, "fio-log", &o), 0);
    sums s = file_sums(path, 1, 1);
    assert_double_equal(by_op(&o, "write")->iops, s.sum / s.n, 1e-9);
    bl_out_free(&o);

    path = bl_test_fixture("fio/log-avg_lat.2.log", p, sizeof p);
    assert_int_equal(bl_test_parse(path, "fio-log", &o), 0);
    s = file_sums(path, 1, 0);
    const bl_record *r = by_op(&o, "read");
    /* an averaged log (bs column 0) says so, and gives no mean: one of windows is not one of
     * I/Os (fio_log_weight.c weights it when the IOPS log is given too) */
    assert_false(r->lat_ns.present);
    assert_false(bl_present(r->lat_ns.mean));
    assert_false(r->clat_ns.present);
    assert_non_null(strstr(r->note, "log_avg_msec"));
    assert_string_equal(bl_record_label(r, "log_avg"), "window means (log_avg_msec)");
    /* the window means stay, as the timeline */
    assert_string_equal(r->series[0].name, "lat");
    assert_int_equal(r->series[0].n, (size_t)s.n);
    double tot = 0;
    for (size_t k = 0; k < r->series[0].n; k++)
        tot += r->series[0].v[k];
    assert_double_equal(tot, s.sum, 0);
    bl_out_free(&o);

    path = bl_test_fixture("fio/log-raw_clat.3.log", p, sizeof p);
    assert_int_equal(bl_test_parse(path, "fio-log", &o), 0);
    assert_null(by_op(&o, "read")->note);
    assert_null(bl_record_label(by_op(&o, "read"), "log_avg"));
    bl_out_free(&o);
}

static double hist_total(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    double total = 0;
    int c, col = 0;
    char num[32];
    size_t k = 0;
    while ((c = fgetc(f)) != EOF) {
        if (c == ',' || c == '\n') {
            num[k] = '\0';
            if (col >= 3)
                total += atof(num);
            k = 0;
            col = c == '\n' ? 0 : col + 1;
        } else if (c != ' ' && k < sizeof num - 1) {
            num[k++] = (char)c;
        }
    }
    fclose(f);
    return total;
}

static uint64_t bins_total(const bl_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

/* fio 3.33 hist log (1856 ns bins) and the fio 2.17 one of the corpus (1216 usec bins). */
static void test_hist_logs(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out o;
    const char *path = bl_test_fixture("fio/log-hist_clat_hist.4.log", p, sizeof p);
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->op, "write");
    assert_double_equal((double)bins_total(&r->clat_ns), hist_total(path), 0);
    /* JSON of the run: clat mean 2326.6 ns, min 871 ns over all I/O */
    assert_true(r->clat_ns.mean > 2326.6 * 0.95 && r->clat_ns.mean < 2326.6 * 1.05);
    assert_true(fabs(r->clat_ns.min - 871) <= 871 / 64.0); /* fio's bin error */
    assert_true(fabs(r->clat_ns.max - 230533) <= 230533 / 64.0);
    bl_out_free(&o);

    char *cp = bl_test_corpus("fio-log/fio-2.17_clat_hist_pkb.1.log");
    if (!cp)
        skip();
    assert_int_equal(bl_test_parse(cp, NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    r = o.recs.v[0];
    assert_int_equal(r->bs, 16384);
    assert_double_equal((double)bins_total(&r->clat_ns), hist_total(cp), 0);
    /* usec bins: the smallest latency a 2.x bin holds is 1 usec */
    assert_true(r->clat_ns.min >= 1000);
    assert_int_equal(r->series[0].n, 9);
    bl_out_free(&o);
    free(cp);
}

static void test_corpus_logs(void **state)
{
    (void)state;
    static const struct {
        const char *rel;
        int col_is_bw;
        const char *op;
    } logs[] = {{"fio-log/fio-2.18_bw.1.log", 1, "read"},
                {"fio-log/fio-3.1_clat_nsec.10.log", 0, "write"},
                {"fio-log/fio-3.1_iops.1.log", 2, "write"},
                {"fio-log/fio-3.37_iops_5col_prio.1.log", 2, "write"}};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        char *path = bl_test_corpus(logs[i].rel);
        if (!path)
            skip();
        bl_parse_out o;
        assert_int_equal(bl_test_parse(path, NULL, &o), 0);
        assert_int_equal(o.recs.n, 1);
        const bl_record *r = o.recs.v[0];
        assert_string_equal(r->op, logs[i].op);
        sums s = file_sums(path, 1, -1);
        if (logs[i].col_is_bw == 1) {
            assert_double_equal(r->bw_bytes_s, s.sum / s.n * 1024, 1e-6);
        } else if (logs[i].col_is_bw == 2) {
            assert_double_equal(r->iops, s.sum / s.n, 1e-9);
            assert_int_equal(r->iops_samples.count, (int64_t)s.n);
        } else {
            /* an averaged log (bs 0): window means only, no latency figure of I/Os */
            assert_false(r->clat_ns.present);
            assert_false(bl_present(r->clat_ns.mean));
            char nw[32];
            snprintf(nw, sizeof nw, "%.0f", s.n);
            assert_string_equal(bl_record_label(r, "log_windows"), nw);
            double top = 0;
            for (size_t k = 0; k < r->series[0].n; k++)
                top = fmax(top, r->series[0].v[k]);
            assert_double_equal(top, s.max, 0);
        }
        bl_out_free(&o);
        free(path);
    }
}

/* 100000 lines "t, t+1, 1, 4096": the summary is exact, the timeline capped, and the
 * streaming path gives what the whole-text path gives. */
static void test_large_log_stream_and_downsampling(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf path;
    bl_strbuf_init(&path);
    bl_strbuf_printf(&path, "%s/big_lat.1.log", dir);
    FILE *f = fopen(path.s, "w");
    assert_non_null(f);
    const int n = 100000;
    for (int i = 0; i < n; i++)
        fprintf(f, "%d, %d, 1, 4096, 0\n", i, i + 1);
    fclose(f);

    bl_parse_out a, b;
    assert_int_equal(bl_test_parse(path.s, "fio-log", &a), 0);
    bl_out_init(&b, path.s);
    f = fopen(path.s, "rb");
    bl_format_find("fio-log")->parse_stream(f, &b);
    fclose(f);
    assert_int_equal(a.recs.n, 1);
    assert_int_equal(b.recs.n, 1);
    for (int k = 0; k < 2; k++) {
        const bl_record *r = (k ? b : a).recs.v[0];
        assert_string_equal(r->op, "write");
        assert_double_equal(r->lat_ns.min, 1, 0);
        assert_double_equal(r->lat_ns.max, n, 0);
        assert_double_equal(r->lat_ns.mean, (n + 1) / 2.0, 1e-9);
        assert_double_equal(r->lat_ns.stdev, sqrt((double)n * (n + 1) / 12.0), 1e-6);
        const bl_series *s = &r->series[0];
        assert_true(s->n <= BL_FIO_LOG_POINTS + 1);
        assert_true(s->n >= BL_FIO_LOG_POINTS / 2);
        for (size_t i = 1; i < s->n; i++)
            assert_true(s->t[i] > s->t[i - 1]);
        /* each point is the mean of its bucket: v = t*1000 + 1 on this log */
        assert_double_equal(s->v[10], s->t[10] * 1000 + 1, 1e-6);
    }
    assert_int_equal(a.recs.v[0]->series[0].n, b.recs.v[0]->series[0].n);
    bl_out_free(&a);
    bl_out_free(&b);
    unlink(path.s);
    rmdir(dir);
    free(dir);
    bl_strbuf_free(&path);
}

static void test_malformed_lines(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf path;
    bl_strbuf_init(&path);
    bl_strbuf_printf(&path, "%s/x_bw.1.log", dir);
    FILE *f = fopen(path.s, "w");
    assert_non_null(f);
    fputs("100, 2000, 0, 4096\n200, oops\n300, 4000, 0, 4096\n400, 1, 7, 4096\n", f);
    fclose(f);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path.s, "fio-log", &o), 1);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 2);
    assert_int_equal(o.diags[1].line, 4);
    assert_int_equal(o.recs.n, 1);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 3000.0 * 1024, 0);
    bl_out_free(&o);
    unlink(path.s);
    rmdir(dir);
    free(dir);
    bl_strbuf_free(&path);
}

/* A histogram line of the wrong width is reported and adds nothing. */
static void test_hist_bad_width(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf path, text;
    bl_strbuf_init(&path);
    bl_strbuf_init(&text);
    bl_strbuf_printf(&path, "%s/h_clat_hist.1.log", dir);
    for (int line = 0; line < 3; line++) {
        int bins = line == 1 ? 10 : 1856;
        bl_strbuf_printf(&text, "%d, 0, 4096", (line + 1) * 100);
        for (int i = 0; i < bins; i++)
            bl_strbuf_printf(&text, ", %d", i == 200 ? 5 : 0);
        bl_strbuf_puts(&text, "\n");
    }
    FILE *f = fopen(path.s, "w");
    assert_non_null(f);
    fputs(text.s, f);
    fclose(f);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path.s, "fio-log", &o), 1);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 2);
    assert_int_equal(o.recs.n, 1);
    const bl_lat *l = &o.recs.v[0]->clat_ns;
    assert_int_equal(l->n_bins, 1);
    assert_int_equal(l->bins[0].count, 10);
    /* fio's plat_idx_to_val(200): error_bits = 200/64 - 1 = 2, base 2^(2+6) = 256,
     * 256 + (200 % 64 + 0.5) * 2^2 = 290 ns */
    assert_double_equal(l->bins[0].value, 290, 0);
    assert_double_equal(l->min, l->bins[0].value, 0);
    bl_out_free(&o);
    unlink(path.s);
    rmdir(dir);
    free(dir);
    bl_strbuf_free(&path);
    bl_strbuf_free(&text);
}

/* The two logs of a numjobs=2 job given together: beside the per-job records, one merged
 * record per direction (bandwidth summed window by window, latency bins added). */
static void test_numjobs_merged(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    int rc = bl_test_benchlog("parse fixtures/fio/log-avg_bw.1.log fixtures/fio/log-avg_bw.2.log "
                              "fixtures/fio/log-avg_clat.1.log fixtures/fio/log-avg_clat.2.log",
                              &out, &err);
    assert_int_equal(rc, 0);
    size_t lines = 0, merged = 0;
    for (const char *p = out; (p = strchr(p, '\n')); p++)
        lines++;
    for (const char *p = out; (p = strstr(p, "\"merged_jobs\":\"2\"")); p++)
        merged++;
    assert_int_equal(lines, 8 + 4);
    assert_int_equal(merged, 4);
    /* read: "120, 33133, 0" in .1 and "120, 32933, 0" in .2 -> first window (33133+32933) KiB/s */
    assert_non_null(strstr(out, "\"op\":\"read\",\"numjobs\":2,\"bw_bytes_s\":"));
    assert_non_null(strstr(out, "\"v\":[67651584,"));
    /* clat: averaged logs without their IOPS logs give no latency figure, merged or not */
    const char *m = strstr(out, "\"jobnum\":\"1,2\",\"log\":\"log-avg_clat.1.log");
    assert_non_null(m);
    assert_non_null(strstr(m, "\"merged_jobs\":\"2\"},\"op\":\"read\",\"numjobs\":2,\"note\""));
    assert_null(strstr(out, "\"clat_ns\""));
    assert_non_null(strstr(err, "fixtures/fio/log-avg_clat.2.log:2: warning: fio log written with "
                                "log_avg_msec: clat mean latency of the read windows left out"));
    free(out);
    free(err);
}

static uint64_t lat_count(const bl_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

/* Per-I/O latency logs of two jobs merge as one distribution: bins add up, the mean is that
 * of all I/Os. Jobs 1 and 2 of "x" are fio's raw clat and lat logs of one run, renamed. */
static void test_numjobs_merged_raw(void **state)
{
    (void)state;
    char p1[256], p2[256];
    const char *src[2] = {bl_test_fixture("fio/log-raw_clat.3.log", p1, sizeof p1),
                          bl_test_fixture("fio/log-raw_lat.3.log", p2, sizeof p2)};
    char *dir = bl_test_tmpdir();
    bl_parse_out o[2];
    sums s[2];
    bl_records in, mr;
    bl_records_init(&in);
    bl_records_init(&mr);
    for (int j = 0; j < 2; j++) {
        char dst[512];
        snprintf(dst, sizeof dst, "%s/x_clat.%d.log", dir, j + 1);
        char *text = bl_test_slurp(src[j]);
        FILE *f = fopen(dst, "w");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
        free(text);
        s[j] = file_sums(dst, 1, 0);
        assert_int_equal(bl_test_parse(dst, "fio-log", &o[j]), 0);
        bl_records_push(&in, bl_record_clone(by_op(&o[j], "read")));
        unlink(dst);
    }
    rmdir(dir);
    free(dir);
    bl_fio_logs_merge(&in, &mr);
    assert_int_equal(mr.n, 1);
    const bl_lat *l = &mr.v[0]->clat_ns;
    assert_double_equal(l->mean, (s[0].sum + s[1].sum) / (s[0].n + s[1].n), 1e-6);
    assert_double_equal(l->max, fmax(s[0].max, s[1].max), 0);
    assert_double_equal(l->min, fmin(s[0].min, s[1].min), 0);
    assert_int_equal(lat_count(l), (uint64_t)(s[0].n + s[1].n));
    assert_int_equal(lat_count(l), lat_count(&in.v[0]->clat_ns) + lat_count(&in.v[1]->clat_ns));
    assert_string_equal(bl_record_label(mr.v[0], "merged_jobs"), "2");
    bl_records_free(&in);
    bl_records_free(&mr);
    bl_out_free(&o[0]);
    bl_out_free(&o[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numjobs_merged),
        cmocka_unit_test(test_numjobs_merged_raw),
        cmocka_unit_test(test_raw_clat_log_equals_fio_summary),
        cmocka_unit_test(test_averaged_logs),
        cmocka_unit_test(test_hist_logs),
        cmocka_unit_test(test_corpus_logs),
        cmocka_unit_test(test_large_log_stream_and_downsampling),
        cmocka_unit_test(test_malformed_lines),
        cmocka_unit_test(test_hist_bad_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

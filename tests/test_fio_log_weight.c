/* Averaged fio latency logs (log_avg_msec) weighted by the IOPS log of the same job, against
 * fio's own mean in the JSON of the same run; the refusals (no IOPS log, logs of other
 * runs); merged numjobs logs; the import path, merged records included.
 *
 * calm: one reader, a competing writer from 1 s to 2 s: the mean of window means is 42% above
 * fio's. weigh: two readers on a disk that stalled for 0.2-0.5 s at a time: 128 times above. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/fio_log_merge.h"
#include "../parsers/fio_log_weight.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The weighted mean is within these of fio's: Little's-law sharing of IOPS spans measured
 * 0.4% off on calm and 4.8-4.9% on weigh, whose stalls fill whole windows. */
#define TOL_CALM 0.02
#define TOL_STALLS 0.07

/* fio's own read figure of job `job` in a fixture JSON. */
static const bl_record *fio_json(bl_parse_out *o, const char *rel, const char *job, size_t nth)
{
    char p[256];
    assert_int_equal(bl_test_parse(bl_test_fixture(rel, p, sizeof p), "fio-json", o), 0);
    const bl_record *r = bl_test_nth(o, "job", job, nth);
    assert_non_null(r);
    assert_string_equal(r->op, "read");
    return r;
}

/* Mean of the value column of a log: what a mean of window means would say. */
static double window_mean(const char *rel)
{
    char p[256];
    FILE *f = fopen(bl_test_fixture(rel, p, sizeof p), "r");
    assert_non_null(f);
    double t, v, sum = 0;
    int n = 0;
    while (fscanf(f, "%lf, %lf, %*d, %*d, %*d", &t, &v) == 2)
        sum += v, n++;
    fclose(f);
    assert_true(n > 0);
    return sum / n;
}

/* Parses the fixtures rels[0..n) into outs and weights them together. */
static void parse_together(const char **rels, size_t n, bl_parse_out *outs)
{
    for (size_t i = 0; i < n; i++) {
        char p[256];
        assert_int_equal(bl_test_parse(bl_test_fixture(rels[i], p, sizeof p), "fio-log", &outs[i]),
                         0);
    }
    bl_fio_logs_weight(outs, n);
}

static void free_outs(bl_parse_out *outs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        bl_out_free(&outs[i]);
}

static void test_calm_weighted_equals_fio(void **state)
{
    (void)state;
    const char *rels[] = {"fio/log-calm_clat.1.log", "fio/log-calm_lat.1.log",
                          "fio/log-calm_iops.1.log"};
    bl_parse_out o[3], js;
    parse_together(rels, 3, o);
    const bl_record *fio = fio_json(&js, "fio/calm-3.33.json", "calm", 0);
    const bl_record *clat = o[0].recs.v[0], *lat = o[1].recs.v[0];
    assert_true(clat->clat_ns.present);
    assert_true(bl_test_close(clat->clat_ns.mean, fio->clat_ns.mean, TOL_CALM));
    assert_true(bl_test_close(lat->lat_ns.mean, fio->lat_ns.mean, TOL_CALM));
    /* the mean of window means would fail this test: 76917 ns against 109322 */
    double unweighted = window_mean(rels[0]);
    assert_false(bl_test_close(unweighted, fio->clat_ns.mean, 0.2));
    /* the I/O count found from the IOPS log is fio's (38592 reads) within the tolerance */
    double ios = (double)fio->io_bytes / (double)fio->bs;
    assert_true(bl_test_close(strtod(bl_record_label(clat, "log_ios"), NULL), ios, TOL_CALM));
    assert_string_equal(bl_record_label(clat, "weighted_by"), "log-calm_iops.1.log");
    assert_non_null(strstr(clat->note, "weighted by each window's I/O count"));
    /* single I/Os' extremes are not in an averaged log: not given */
    assert_false(bl_present(clat->clat_ns.min));
    assert_false(bl_present(clat->clat_ns.max));
    assert_int_equal(clat->clat_ns.n_pct, 0);
    assert_int_equal(o[0].n_warns + o[1].n_warns, 0);
    /* the IOPS log's own mean is refused (two late samples: see test_rate_with_gaps_refused) */
    assert_int_equal(o[2].n_warns, 1);
    free_outs(o, 3);
    bl_out_free(&js);
}

/* Two jobs, each weighted by its own IOPS log, then merged (numjobs=2): all three means
 * against fio's, the merged one against the I/O-weighted mean of fio's two jobs. */
static void test_stalls_weighted_and_merged(void **state)
{
    (void)state;
    const char *rels[] = {"fio/log-weigh_clat.1.log", "fio/log-weigh_iops.1.log",
                          "fio/log-weigh_clat.2.log", "fio/log-weigh_iops.2.log"};
    bl_parse_out o[4], js;
    parse_together(rels, 4, o);
    assert_int_equal(bl_test_parse("fixtures/fio/weigh-3.33.json", "fio-json", &js), 0);
    double num = 0, den = 0;
    bl_records in, mr;
    bl_records_init(&in);
    bl_records_init(&mr);
    for (int j = 0; j < 2; j++) {
        const bl_record *fio = bl_test_nth(&js, "job", "weigh", (size_t)j);
        const bl_record *r = o[2 * j].recs.v[0];
        /* fio's job order is the log numbers' order */
        assert_string_equal(bl_record_label(r, "jobnum"), j ? "2" : "1");
        assert_true(bl_test_close(r->clat_ns.mean, fio->clat_ns.mean, TOL_STALLS));
        assert_false(bl_test_close(window_mean(rels[2 * j]), fio->clat_ns.mean, 10));
        double ios = (double)fio->io_bytes / (double)fio->bs;
        assert_true(bl_test_close(strtod(bl_record_label(r, "log_ios"), NULL), ios, 0.02));
        num += fio->clat_ns.mean * ios;
        den += ios;
        bl_records_push(&in, bl_record_clone(r));
    }
    bl_fio_logs_merge(&in, &mr);
    assert_int_equal(mr.n, 1);
    assert_string_equal(bl_record_label(mr.v[0], "merged_jobs"), "2");
    assert_true(mr.v[0]->clat_ns.present);
    assert_true(bl_test_close(mr.v[0]->clat_ns.mean, num / den, TOL_STALLS));
    assert_string_equal(bl_record_label(mr.v[0], "weighted_by"),
                        "log-weigh_iops.1.log,log-weigh_iops.2.log");
    bl_records_free(&in);
    bl_records_free(&mr);
    free_outs(o, 4);
    bl_out_free(&js);
}

/* Without the IOPS log: no mean, a warning FILE:LINE, the window means as the timeline. Merged
 * with a weighted job: no mean either. */
static void test_refused_without_weights(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    int rc = bl_test_benchlog(
        "parse fixtures/fio/log-weigh_clat.1.log fixtures/fio/log-weigh_iops.1.log "
        "fixtures/fio/log-weigh_clat.2.log",
        &out, &err);
    assert_int_equal(rc, 0); /* a warning, not an error: the records are good */
    assert_non_null(strstr(err,
                           "fixtures/fio/log-weigh_clat.2.log:1: warning: fio log written with "
                           "log_avg_msec: clat mean latency of the read windows left out"));
    assert_null(strstr(err, "log-weigh_clat.1.log:"));
    /* job 1 weighted, job 2 not, the merged record not */
    const char *j1 = strstr(out, "\"source\":\"fixtures/fio/log-weigh_clat.1.log\"");
    const char *j2 = strstr(out, "\"source\":\"fixtures/fio/log-weigh_clat.2.log\"");
    const char *mg = strstr(out, "\"merged_jobs\":\"2\"");
    assert_non_null(j1);
    assert_non_null(j2);
    assert_non_null(mg);
    const char *e1 = strchr(j1, '\n'), *e2 = strchr(j2, '\n'), *em = strchr(mg, '\n');
    const char *c1 = strstr(j1, "\"clat_ns\":{\"mean\":"), *c2 = strstr(j2, "\"clat_ns\""),
               *cm = strstr(mg, "\"clat_ns\"");
    assert_true(c1 && c1 < e1);
    assert_true(!c2 || c2 > e2);
    assert_true(!cm || cm > em);
    assert_non_null(strstr(j2, "\"v\":[173137735,367532060,415069181,378125310,225404,"));
    free(out);
    free(err);
}

/* An IOPS log of the same name that does not cover the latency log's time (another run, or
 * cut short) is refused rather than used. */
static void test_refused_other_span(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char lat[512], iops[512], p[256];
    snprintf(lat, sizeof lat, "%s/x_clat.1.log", dir);
    snprintf(iops, sizeof iops, "%s/x_iops.1.log", dir);
    char *text = bl_test_slurp(bl_test_fixture("fio/log-calm_clat.1.log", p, sizeof p));
    FILE *f = fopen(lat, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    /* the first 10 lines only: one second of a three-second run */
    text = bl_test_slurp(bl_test_fixture("fio/log-calm_iops.1.log", p, sizeof p));
    char *cut = text;
    for (int i = 0; i < 10 && cut; i++)
        cut = strchr(cut, '\n') ? strchr(cut, '\n') + 1 : NULL;
    assert_non_null(cut);
    *cut = '\0';
    f = fopen(iops, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    bl_parse_out o[2];
    assert_int_equal(bl_test_parse(lat, "fio-log", &o[0]), 0);
    assert_int_equal(bl_test_parse(iops, "fio-log", &o[1]), 0);
    bl_fio_logs_weight(o, 2);
    assert_false(o[0].recs.v[0]->clat_ns.present);
    assert_int_equal(o[0].n_warns, 1);
    assert_non_null(strstr(o[0].warns[0].msg, "do not span the same time"));
    assert_int_equal(o[0].warns[0].line, 1);
    free_outs(o, 2);
    unlink(lat);
    unlink(iops);
    rmdir(dir);
    free(dir);
}

/* import weights across the files given together as parse does. */
static void test_import_weights(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char args[1024];
    snprintf(
        args, sizeof args,
        "import --db %s/s.db fixtures/fio/log-calm_clat.1.log fixtures/fio/log-calm_iops.1.log",
        dir);
    char *out = NULL, *err = NULL;
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    free(out);
    free(err);
    snprintf(args, sizeof args, "export --db %s/s.db", dir);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    const char *m = strstr(out, "\"clat_ns\":{\"mean\":");
    assert_non_null(m);
    bl_parse_out js;
    const bl_record *fio = fio_json(&js, "fio/calm-3.33.json", "calm", 0);
    assert_true(bl_test_close(strtod(m + strlen("\"clat_ns\":{\"mean\":"), NULL), fio->clat_ns.mean,
                              TOL_CALM));
    assert_non_null(strstr(out, "\"weighted_by\":\"log-calm_iops.1.log\""));
    bl_out_free(&js);
    free(out);
    free(err);
    snprintf(args, sizeof args, "%s/s.db", dir);
    unlink(args);
    rmdir(dir);
    free(dir);
}

/* import stores the merged records of numjobs logs given together as an import of its own,
 * found again whatever the order of the files. */
static void test_import_merged(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char args[1024];
    snprintf(
        args, sizeof args,
        "import --db %s/s.db fixtures/fio/log-weigh_clat.1.log fixtures/fio/log-weigh_clat.2.log "
        "fixtures/fio/log-weigh_iops.1.log fixtures/fio/log-weigh_iops.2.log",
        dir);
    char *out = NULL, *err = NULL;
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    assert_non_null(strstr(out, "merged numjobs logs: imported 2 records in 1 run"));
    free(out);
    free(err);
    snprintf(
        args, sizeof args,
        "import --db %s/s.db fixtures/fio/log-weigh_iops.2.log fixtures/fio/log-weigh_clat.2.log "
        "fixtures/fio/log-weigh_iops.1.log fixtures/fio/log-weigh_clat.1.log",
        dir);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    assert_non_null(strstr(out, "merged numjobs logs: already in the store (same content, run"));
    assert_null(strstr(out, "imported"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "export --db %s/s.db merged_jobs=2 op=read", dir);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    /* the clat record and the iops record, both in job order */
    size_t lines = 0;
    for (const char *p = out; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 2);
    const char *m = strstr(out, "\"clat_ns\":{\"mean\":");
    assert_non_null(m);
    bl_parse_out js;
    assert_int_equal(bl_test_parse("fixtures/fio/weigh-3.33.json", "fio-json", &js), 0);
    double num = 0, den = 0;
    for (size_t j = 0; j < 2; j++) {
        const bl_record *fio = bl_test_nth(&js, "job", "weigh", j);
        double ios = (double)fio->io_bytes / (double)fio->bs;
        num += fio->clat_ns.mean * ios;
        den += ios;
    }
    assert_true(
        bl_test_close(strtod(m + strlen("\"clat_ns\":{\"mean\":"), NULL), num / den, TOL_STALLS));
    assert_non_null(strstr(out, "\"jobnum\":\"1,2\""));
    bl_out_free(&js);
    free(out);
    free(err);
    snprintf(args, sizeof args, "%s/s.db", dir);
    unlink(args);
    rmdir(dir);
    free(dir);
}

/* An averaged IOPS log with gaps (fio logs no window without I/O; a late sample spans more):
 * the mean of its entries is 3x fio's IOPS on weigh, so no headline figure, and the range the
 * note gives holds fio's. A log without gaps keeps its mean (test_fio_log). */
static void test_rate_with_gaps_refused(void **state)
{
    (void)state;
    bl_parse_out o, js;
    char p[256];
    assert_int_equal(
        bl_test_parse(bl_test_fixture("fio/log-weigh_iops.1.log", p, sizeof p), NULL, &o), 0);
    const bl_record *fio = fio_json(&js, "fio/weigh-3.33.json", "weigh", 0);
    const bl_record *r = o.recs.v[0];
    assert_false(bl_present(r->iops));
    /* the samples stay: fio's own "iops_mean" is this mean of the entries */
    assert_true(r->iops_samples.present);
    assert_double_equal(r->iops_samples.mean, 1938.9, 1e-9);
    assert_false(bl_test_close(r->iops_samples.mean, fio->iops, 1)); /* 1938.9 against 637.4 */
    const char *b = strstr(r->note, "the run's mean lies between ");
    assert_non_null(b);
    double lo = strtod(b + strlen("the run's mean lies between "), NULL);
    const char *and = strstr(b, " and ");
    assert_non_null(and);
    double hi = strtod(and+5, NULL);
    assert_true(lo <= fio->iops && fio->iops <= hi);
    assert_true(hi < fio->iops * 1.5);
    assert_int_equal(o.n_warns, 1);
    assert_int_equal(o.warns[0].line, 1);
    bl_out_free(&o);

    /* given with its latency log, the I/Os counted there over the run give it back */
    const char *rels[] = {"fio/log-weigh_iops.1.log", "fio/log-weigh_clat.1.log"};
    bl_parse_out two[2];
    parse_together(rels, 2, two);
    r = two[0].recs.v[0];
    assert_true(bl_test_close(r->iops, fio->iops, 0.01)); /* 638.3 against 637.4 */
    assert_non_null(strstr(r->note, "IOPS recovered as the 1936 I/Os counted with the latency "
                                    "log log-weigh_clat.1.log over its 3.033 s"));
    free_outs(two, 2);
    bl_out_free(&js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calm_weighted_equals_fio),
        cmocka_unit_test(test_stalls_weighted_and_merged),
        cmocka_unit_test(test_refused_without_weights),
        cmocka_unit_test(test_refused_other_span),
        cmocka_unit_test(test_import_weights),
        cmocka_unit_test(test_import_merged),
        cmocka_unit_test(test_rate_with_gaps_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

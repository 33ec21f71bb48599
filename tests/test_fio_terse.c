/* fio terse lines: versions 2, 3, 4 and 5 from fio 3.33 checked against the JSON printed
 * by the same run, and the corpus terse v3 files with figures read off the text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int corpus(const char *rel, const char *as, bl_parse_out *o)
{
    char *path = bl_test_corpus(rel);
    if (!path)
        return 0;
    int rc = bl_test_parse(path, as, o);
    free(path);
    assert_int_equal(o->n_diags, 0);
    assert_int_equal(rc, 0);
    return 1;
}

/* Terse prints KiB and usec as integers (truncated), means with 6 decimals. */
static void check(const bl_record *t, const bl_record *j, int ver)
{
    assert_string_equal(bl_record_label(t, "job"), bl_record_label(j, "job"));
    assert_string_equal(t->op, j->op);
    assert_double_equal((double)t->io_bytes, (double)j->io_bytes, 1023);
    assert_double_equal(t->bw_bytes_s, j->bw_bytes_s, 1023);
    assert_double_equal(t->iops, j->iops, 1);
    assert_double_equal(t->runtime_s, j->runtime_s, 1e-12);
    const bl_lat *a[] = {&t->clat_ns, &t->lat_ns, &t->slat_ns};
    const bl_lat *b[] = {&j->clat_ns, &j->lat_ns, &j->slat_ns};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(a[k]->present, b[k]->present);
        if (!a[k]->present)
            continue;
        assert_double_equal(a[k]->mean, b[k]->mean, 0.01);
        assert_double_equal(a[k]->stdev, b[k]->stdev, 0.01);
        assert_double_equal(a[k]->min, b[k]->min, 999);
        assert_double_equal(a[k]->max, b[k]->max, 999);
    }
    assert_int_equal(t->clat_ns.n_pct, j->clat_ns.n_pct);
    for (size_t i = 0; i < t->clat_ns.n_pct; i++) {
        assert_double_equal(t->clat_ns.pct[i].pct, j->clat_ns.pct[i].pct, 0);
        assert_double_equal(t->clat_ns.pct[i].value, j->clat_ns.pct[i].value, 999);
    }
    assert_double_equal(t->bw_samples.mean, j->bw_samples.mean, 1e-3);
    assert_double_equal(t->bw_samples.max, j->bw_samples.max, 0);
    assert_double_equal(t->cpu_usr_pct, j->cpu_usr_pct, 1e-5);
    assert_double_equal(t->cpu_sys_pct, j->cpu_sys_pct, 1e-5);
    if (ver == 5) {
        assert_int_equal(t->bw_samples.count, j->bw_samples.count);
        assert_double_equal(t->iops_samples.mean, j->iops_samples.mean, 1e-6);
        assert_int_equal(t->iops_samples.count, j->iops_samples.count);
    } else {
        assert_int_equal(t->bw_samples.count, -1);
        assert_false(t->iops_samples.present);
    }
}

/* terseV-3.33.out: a randrw job with a description and a trim job (falloc punch hole),
 * terse lines then the JSON of the same run. */
static void terse_vs_json(int ver)
{
    char rel[64], p[256];
    snprintf(rel, sizeof rel, "fio/terse%d-3.33.out", ver);
    bl_parse_out t, j;
    assert_int_equal(bl_test_parse(bl_test_fixture(rel, p, sizeof p), "fio-terse", &t), 0);
    assert_int_equal(bl_test_parse(p, "fio-json", &j), 0);
    assert_int_equal(t.recs.n, 3); /* mixed read, mixed write, punch trim */
    assert_int_equal(j.recs.n, 3);
    for (size_t i = 0; i < 3; i++)
        check(t.recs.v[i], j.recs.v[i], ver);
    assert_string_equal(t.recs.v[2]->op, "trim");
    if (ver == 2)
        assert_null(t.recs.v[0]->tool_version); /* v2 lines carry no version */
    else
        assert_string_equal(t.recs.v[0]->tool_version, "3.33");
    bl_out_free(&t);
    bl_out_free(&j);
}

static void test_terse_v2(void **state)
{
    (void)state;
    terse_vs_json(2);
}

static void test_terse_v4(void **state)
{
    (void)state;
    terse_vs_json(4);
}

static void test_terse_v5(void **state)
{
    (void)state;
    terse_vs_json(5);
}

/* v3 has no trim block: the trim job gives no terse record; rw comes from the normal
 * output's job header lines in the same file. */
static void test_terse_v3_with_normal_and_json(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out t, j;
    assert_int_equal(
        bl_test_parse(bl_test_fixture("fio/mix-3.33.out", p, sizeof p), "fio-terse", &t), 0);
    assert_int_equal(bl_test_parse(p, "fio-json", &j), 0);
    /* 7 job directions, then the totals of rwmix's two clones (numjobs=2 without
     * group_reporting), which the JSON gives too */
    assert_int_equal(t.recs.n, 9);
    for (size_t i = 0; i < 7; i++)
        check(t.recs.v[i], j.recs.v[i], 3);
    assert_string_equal(bl_record_label(t.recs.v[3], "scope"), "job 1/2");
    for (size_t i = 7; i < 9; i++) {
        assert_string_equal(bl_record_label(t.recs.v[i], "scope"), "group total");
        assert_int_equal(t.recs.v[i]->numjobs, 2);
        /* terse prints whole KiB/s: the totals agree with the JSON's within 0.1% */
        assert_true(bl_test_close(t.recs.v[i]->bw_bytes_s, j.recs.v[i + 1]->bw_bytes_s, 0.001));
    }
    assert_string_equal(t.recs.v[0]->test, "rand-read");
    assert_string_equal(t.recs.v[3]->test, "seq-read");
    assert_int_equal(t.recs.v[0]->iodepth, 4);
    bl_out_free(&t);
    bl_out_free(&j);
}

static void test_corpus_terse(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("fio-terse/fio-3.19-45_terse3_121fields_no_diskutil.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->tool_version, "3.19-45-gc650");
    assert_string_equal(bl_record_label(r, "job"), "seq-read");
    assert_int_equal(r->io_bytes, 581120LL * 1024);
    assert_double_equal(r->bw_bytes_s, 506202.0 * 1024, 0);
    assert_double_equal(r->iops, 4035, 0);
    assert_double_equal(r->runtime_s, 1.148, 1e-12);
    assert_double_equal(r->slat_ns.mean, 1330.804, 1e-6);
    assert_double_equal(r->clat_ns.mean, 16062664.435, 1e-3);
    assert_double_equal(r->clat_ns.max, 23539000, 0);
    assert_int_equal(r->clat_ns.n_pct, 17); /* the three "0%=0" slots are not percentiles */
    assert_double_equal(r->clat_ns.pct[16].pct, 99.99, 1e-9);
    assert_double_equal(r->clat_ns.pct[16].value, 23461000, 0);
    assert_double_equal(r->lat_ns.mean, 16064000.188, 1e-3);
    assert_double_equal(r->bw_samples.min, 500129.0 * 1024, 0);
    bl_out_free(&o);

    if (!corpus("fio-terse/fio-3.27_terse3_gtod_reduce_zero_pct_diskutil.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 2);
    assert_false(o.recs.v[0]->clat_ns.present); /* gtod_reduce: all zero */
    assert_int_equal(o.recs.v[1]->io_bytes, 25468LL * 1024);
    assert_double_equal(o.recs.v[1]->iops, 9795, 0);
    assert_double_equal(o.recs.v[1]->cpu_sys_pct, 43.297381, 1e-9);
    /* No job header: test from the direction, the unknown pattern said in note. */
    assert_string_equal(o.recs.v[0]->test, "read");
    assert_string_equal(o.recs.v[1]->test, "write");
    assert_null(o.recs.v[1]->pattern);
    assert_non_null(strstr(o.recs.v[1]->note, "pattern"));
    /* "sda;14914;4958;17;4;16177;3202;19379;83.03%" on both records */
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(o.recs.v[i]->n_disks, 1);
        const bl_disk *d = &o.recs.v[i]->disks[0];
        assert_string_equal(d->name, "sda");
        assert_int_equal(d->read_ios, 14914);
        assert_int_equal(d->write_ios, 4958);
        assert_int_equal(d->read_merges, 17);
        assert_int_equal(d->write_merges, 4);
        assert_double_equal(d->read_ticks_s, 16.177, 1e-12);
        assert_double_equal(d->write_ticks_s, 3.202, 1e-12);
        assert_double_equal(d->in_queue_s, 19.379, 1e-12);
        assert_double_equal(d->util_pct, 83.03, 1e-12);
    }
    bl_out_free(&o);

    if (!corpus("fio-terse/fio-3.7_terse3_randrw_read_write.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 2);
    assert_string_equal(o.recs.v[0]->op, "read");
    assert_string_equal(o.recs.v[1]->op, "write");
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 159349.0 * 1024, 0);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 159339.0 * 1024, 0);
    assert_double_equal(o.recs.v[0]->bw_samples.stdev, 69585.644925 * 1024, 1e-3);
    bl_out_free(&o);

    if (!corpus("fio-terse/fio-3.28_terse3_plus_normal_8groups.txt", "fio-terse", &o))
        skip();
    assert_int_equal(o.recs.n, 8);
    for (size_t i = 0; i < 8; i++) {
        assert_int_equal(o.recs.v[i]->line, (int64_t)i + 11);
        /* the job headers of the normal output give the test; no note then */
        assert_non_null(o.recs.v[i]->test);
        assert_null(o.recs.v[i]->note);
        assert_int_equal(o.recs.v[i]->n_disks, 1);
        assert_string_equal(o.recs.v[i]->disks[0].name, "sdb");
    }
    assert_string_equal(o.recs.v[0]->test, "seq-read");
    assert_double_equal(o.recs.v[0]->disks[0].util_pct, 99.43, 1e-12);
    bl_out_free(&o);
}

static void test_short_line_is_not_terse(void **state)
{
    (void)state;
    const char *text = "3;fio-3.33;job;0;0;1;2;3\n2;only;four\n";
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "x", text, strlen(text), err, sizeof err), 0);
    const bl_format *f = bl_format_find("fio-terse");
    assert_non_null(f);
    assert_int_equal(f->probe(&t), 0);
    bl_parse_out o;
    bl_out_init(&o, "x");
    f->parse(&t, &o);
    assert_int_equal(o.recs.n, 0);
    bl_out_free(&o);
    bl_text_free(&t);
}

/* A terse line with an unreadable figure is reported by line; the other lines are kept. */
static void test_unreadable_field(void **state)
{
    (void)state;
    char p[256];
    FILE *f = fopen(bl_test_fixture("fio/terse4-3.33.out", p, sizeof p), "r");
    assert_non_null(f);
    char *l1 = NULL, *l2 = NULL;
    size_t n1 = 0, n2 = 0;
    assert_true(getline(&l1, &n1, f) > 0);
    assert_true(getline(&l2, &n2, f) > 0);
    fclose(f);
    /* field 7 of line 1 (read bandwidth) becomes "x" */
    char *q = l1;
    for (int semis = 0; semis < 6; q++)
        semis += *q == ';';
    q[0] = 'x';
    char *text = NULL;
    size_t tn = 0;
    FILE *m = open_memstream(&text, &tn);
    fprintf(m, "%s%s", l1, l2);
    fclose(m);
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "x", text, tn, err, sizeof err), 0);
    bl_parse_out o;
    bl_out_init(&o, "x");
    bl_format_find("fio-terse")->parse(&t, &o);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 1);
    assert_non_null(strstr(o.diags[0].msg, "read"));
    const bl_record *punch = bl_test_nth(&o, "job", "punch", 0);
    assert_non_null(punch);
    assert_string_equal(punch->op, "trim");
    assert_non_null(bl_test_nth(&o, "job", "mixed", 0)); /* the write side of line 1 */
    bl_out_free(&o);
    bl_text_free(&t);
    free(text);
    free(l1);
    free(l2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terse_v2),
        cmocka_unit_test(test_terse_v4),
        cmocka_unit_test(test_terse_v5),
        cmocka_unit_test(test_terse_v3_with_normal_and_json),
        cmocka_unit_test(test_corpus_terse),
        cmocka_unit_test(test_short_line_is_not_terse),
        cmocka_unit_test(test_unreadable_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

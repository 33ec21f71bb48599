/* fio JSON and JSON+: fio 2.x units (usec, io_bytes in KiB), 3.x units (ns, bytes),
 * documents pasted among other text, JSON+ bins against fio's own counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/fio_jsonutil.h"
#include "support/support.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double pct(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (fabs(l->pct[i].pct - p) < 1e-9)
            return l->pct[i].value;
    return NAN;
}

static int corpus(const char *rel, bl_parse_out *o)
{
    char *path = bl_test_corpus(rel);
    if (!path)
        return 0;
    int rc = bl_test_parse(path, NULL, o);
    free(path);
    assert_int_equal(o->n_diags, 0);
    assert_int_equal(rc, 0);
    return 1;
}

static void test_fio2_units(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("fio-json/fio-2.1.4_pkb_4groups.json", &o))
        skip();
    assert_int_equal(o.recs.n, 5);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(bl_record_label(r, "job"), "sequential_write");
    assert_string_equal(r->tool_version, "2.1.4");
    assert_string_equal(r->op, "write");
    assert_null(r->test); /* fio 2.1 JSON has no job options: rw unknown */
    assert_int_equal(r->io_bytes, 361984LL * 1024);
    assert_double_equal(r->bw_bytes_s, 68118.0 * 1024, 0);
    assert_double_equal(r->runtime_s, 5.314, 1e-12);
    assert_double_equal(r->clat_ns.mean, 477734840, 1e-3);
    assert_double_equal(pct(&r->clat_ns, 99), 823296000, 0);
    assert_double_equal(r->bw_samples.mean, 63936.8 * 1024, 1e-6);
    /* "disk_util": sdb, read_ticks 2142508 ms, util 97.54, on every record of the run */
    for (size_t i = 0; i < o.recs.n; i++) {
        assert_int_equal(o.recs.v[i]->n_disks, 1);
        const bl_disk *d = &o.recs.v[i]->disks[0];
        assert_string_equal(d->name, "sdb");
        assert_int_equal(d->read_ios, 19464);
        assert_int_equal(d->write_merges, 1395);
        assert_double_equal(d->read_ticks_s, 2142.508, 1e-9);
        assert_double_equal(d->in_queue_s, 2813.788, 1e-9);
        assert_double_equal(d->util_pct, 97.54, 0);
    }
    bl_out_free(&o);

    if (!corpus("fio-json/fio-2.17_pkb_hist_group_reporting.json", &o))
        skip();
    assert_int_equal(o.recs.n, 2);
    r = o.recs.v[0];
    assert_int_equal(r->io_bytes, 1294256LL * 1024);
    assert_double_equal(r->iops, 8086.673998, 1e-9);
    assert_double_equal(r->clat_ns.mean, 238357.679, 1e-6);
    assert_int_equal(r->numjobs, 2);
    assert_int_equal(r->bs, 16384);
    assert_string_equal(r->test, "rand-read");
    assert_string_equal(bl_record_label(r, "date"), "Thu Sep 28 00:45:52 2017");
    bl_out_free(&o);
}

static void test_fio3_units_and_noise_before(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("fio-json/fio-3.13_windows_errors_before_json.json", &o))
        skip();
    assert_int_equal(o.recs.n, 1);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 202249835, 0);
    assert_int_equal(o.recs.v[0]->io_bytes, 536973312);
    assert_string_equal(o.recs.v[0]->note, "fio job error 42");
    assert_double_equal(o.recs.v[0]->clat_ns.mean, 5922036.884193, 1e-6);
    bl_out_free(&o);

    if (!corpus("fio-json/fio-3.34_signal_before_json_randread-1-1.json", &o))
        skip();
    assert_int_equal(o.recs.n, 1);
    assert_double_equal(pct(&o.recs.v[0]->clat_ns, 99), 175104, 0);
    assert_double_equal(o.recs.v[0]->bw_samples.mean, 40279.5 * 1024, 1e-6);
    bl_out_free(&o);

    if (!corpus("fio-json/fio-3.16_fio-plot_randrw-32-16.json", &o))
        skip();
    assert_int_equal(o.recs.n, 2);
    assert_string_equal(o.recs.v[0]->test, "rand-read");
    assert_string_equal(o.recs.v[1]->test, "rand-write");
    assert_int_equal(o.recs.v[1]->numjobs, 16);
    assert_int_equal(o.recs.v[1]->iodepth, 32);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 1409183, 0);
    bl_out_free(&o);

    if (!corpus("fio-json/fio-3.26-19_linux_readwrite_dupkeys.json", &o))
        skip();
    assert_int_equal(o.recs.n, 2);
    assert_string_equal(o.recs.v[0]->test, "seq-read");
    assert_string_equal(o.recs.v[1]->test, "seq-write");
    assert_int_equal(o.recs.v[1]->io_bytes, 333447168);
    bl_out_free(&o);

    const char *rest[] = {"fio-json/fio-3.26_windowsaio_randwrite.json",
                          "fio-json/fio-3.37_cbt_rbd_precondition.json",
                          "fio-json/fio-3.6_fio-plot_ceph_randwrite-16-32.json"};
    for (size_t i = 0; i < 3; i++) {
        if (!corpus(rest[i], &o))
            skip();
        assert_int_equal(o.recs.n, 1);
        assert_string_equal(o.recs.v[0]->test, "rand-write");
        bl_out_free(&o);
    }
}

/* JSON+ keeps fio's latency bins: their counts add up to fio's N for every record. */
static void test_jsonplus_bins(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out o;
    assert_int_equal(
        bl_test_parse(bl_test_fixture("fio/mix-3.33.out", p, sizeof p), "fio-json", &o), 0);
    json_error_t err;
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char line[512];
    long off = 0;
    while (fgets(line, sizeof line, f) && line[0] != '{')
        off = ftell(f);
    fseek(f, off, SEEK_SET);
    json_t *doc = json_loadf(f, JSON_DISABLE_EOF_CHECK, &err);
    fclose(f);
    assert_non_null(doc);
    size_t k = 0, i;
    json_t *job;
    json_array_foreach(json_object_get(doc, "jobs"), i, job)
    {
        static const char *const dirs[] = {"read", "write", "trim"};
        for (int d = 0; d < 3; d++) {
            json_t *dir = json_object_get(job, dirs[d]);
            if (json_integer_value(json_object_get(dir, "io_bytes")) == 0)
                continue;
            const bl_record *r = o.recs.v[k++];
            json_t *clat = json_object_get(dir, "clat_ns");
            uint64_t sum = 0;
            for (size_t b = 0; b < r->clat_ns.n_bins; b++)
                sum += r->clat_ns.bins[b].count;
            assert_int_equal(sum, json_integer_value(json_object_get(clat, "N")));
            assert_int_equal(r->clat_ns.n_bins, json_object_size(json_object_get(clat, "bins")));
            for (size_t b = 1; b < r->clat_ns.n_bins; b++)
                assert_true(r->clat_ns.bins[b - 1].value < r->clat_ns.bins[b].value);
            assert_int_equal(r->io_bytes, json_integer_value(json_object_get(dir, "io_bytes")));
        }
    }
    /* after the jobs' records: the totals of numjobs clones (scope "group total") */
    for (; k < o.recs.n; k++)
        assert_string_equal(bl_record_label(o.recs.v[k], "scope"), "group total");
    json_decref(doc);
    bl_out_free(&o);
}

static char *write_tmp(const char *dir, const char *name, const char *text)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/%s", dir, name);
    FILE *f = fopen(sb.s, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return bl_strbuf_take(&sb);
}

/* A JSON document pasted in prose, with a brace-y line before it; then a truncated one. */
static void test_pasted_and_truncated(void **state)
{
    (void)state;
    char p[256];
    char *json = bl_test_slurp(bl_test_fixture("fio/terse4-3.33.out", p, sizeof p));
    const char *start = strstr(json, "\n{");
    assert_non_null(start);
    char *dir = bl_test_tmpdir();
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "My results today:\n{ this is not json }\n\n%s\nThat was fast.\n",
                     start + 1);
    char *path = write_tmp(dir, "post.txt", sb.s);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path, "fio-json", &o), 0);
    assert_int_equal(o.recs.n, 3);
    assert_int_equal(o.recs.v[0]->line, 16); /* the "jobname" line of the first job */
    bl_out_free(&o);
    unlink(path);
    free(path);

    /* cut in the middle of the second job: a diagnostic, no crash */
    bl_strbuf_reset(&sb);
    const char *cut = strstr(start + 1, "\"punch\"");
    assert_non_null(cut);
    bl_strbuf_putn(&sb, start + 1, (size_t)(cut - start - 1));
    path = write_tmp(dir, "cut.json", sb.s);
    assert_int_equal(bl_test_parse(path, "fio-json", &o), 1);
    assert_int_equal(o.n_diags, 1);
    assert_true(o.diags[0].line > 1);
    assert_non_null(strstr(o.diags[0].msg, "fio JSON"));
    bl_out_free(&o);
    unlink(path);
    free(path);

    /* client/server output: "client_stats" alone is left for another part, no crash */
    path = write_tmp(dir, "cs.json",
                     "{\"fio version\" : \"fio-3.33\", \"client_stats\" : [ {\"jobname\" : "
                     "\"All clients\", \"read\" : {\"io_bytes\" : 4096}} ]}\n");
    bl_test_parse(path, "fio-json", &o);
    assert_int_equal(o.recs.n, 0);
    bl_out_free(&o);
    unlink(path);
    free(path);
    rmdir(dir);
    free(dir);
    bl_strbuf_free(&sb);
    free(json);
}

/* json+ before fio 2.99 keyed "bins" by bin index (usec scheme) beside FIO_IO_U_PLAT_*
 * keys; no such file was found in public, so this one is written in that layout. */
static void test_jsonplus_fio2_bin_indexes(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char *path = write_tmp(
        dir, "old.json",
        "{\n  \"fio version\" : \"fio-2.17\",\n  \"jobs\" : [\n    {\n"
        "      \"jobname\" : \"j\", \"groupid\" : 0, \"error\" : 0,\n"
        "      \"read\" : { \"io_bytes\" : 8, \"bw\" : 4, \"iops\" : 1.0, \"runtime\" : 2000,\n"
        "        \"clat\" : { \"min\" : 90, \"max\" : 300, \"mean\" : 150.0, \"stddev\" : 1.0,\n"
        "          \"bins\" : { \"FIO_IO_U_PLAT_BITS\" : 6, \"FIO_IO_U_PLAT_VAL\" : 64,\n"
        "            \"FIO_IO_U_PLAT_NR\" : 1216, \"90\" : 1, \"200\" : 2 } } }\n"
        "    }\n  ]\n}\n");
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path, "fio-json", &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_lat *l = &o.recs.v[0]->clat_ns;
    assert_int_equal(l->n_bins, 2);
    assert_double_equal(l->bins[0].value, 90e3, 0);  /* index 90 < 128: 90 usec */
    assert_double_equal(l->bins[1].value, 290e3, 0); /* index 200: 256 + 8.5 * 4 usec */
    assert_int_equal(l->bins[1].count, 2);
    assert_int_equal(o.recs.v[0]->io_bytes, 8 * 1024);
    bl_out_free(&o);
    unlink(path);
    free(path);
    rmdir(dir);
    free(dir);
}

/* A latency's percentiles read in one allocation land as bl_lat_add_pct puts them one at a
 * time: ascending, a key that rounds to one already read replacing its value, the empty and
 * odd keys left out; and so do more than the one allocation holds. */
static void test_percentiles_as_added(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "{\"percentile\": {\"99.000000\": 9, \"1.000000\": 1, \"50.00001\": 5, "
        "\"50.00002\": 6, \"0.00\": 3, \"x\": 4, \"5e1\": 7, \"90\": \"8\", \"99.5\": 2}}",
        NULL};
    for (int big = 0; big < 2; big++) {
        json_t *o = json_loads(docs[0], 0, NULL);
        assert_non_null(o);
        json_t *p = json_object_get(o, "percentile");
        for (int k = 0; big && k < 80; k++) { /* past the 64 read in one go */
            char key[32];
            snprintf(key, sizeof key, "%d.%06d", 1 + k % 40, k);
            json_object_set_new(p, key, json_integer(100 + k));
        }
        bl_lat got = {0}, want = {0};
        bl_fj_read_lat(o, 1000, &got);
        const char *key;
        json_t *v;
        json_object_foreach(p, key, v)
        {
            double at = strtod(key, NULL);
            if (at > 0 && json_is_number(v))
                bl_lat_add_pct(&want, round(at * 10000.0) / 10000.0, json_number_value(v) * 1000);
        }
        assert_int_equal(got.n_pct, want.n_pct);
        assert_true(big ? got.n_pct > 40 : got.n_pct == 4); /* 1, 50 (thrice), 99, 99.5 */
        for (size_t i = 0; i < got.n_pct; i++) {
            assert_true(got.pct[i].pct == want.pct[i].pct);
            assert_true(got.pct[i].value == want.pct[i].value);
        }
        assert_true(pct(&got, 50) == 7000);
        free(got.pct);
        free(want.pct);
        json_decref(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio2_units),
        cmocka_unit_test(test_fio3_units_and_noise_before),
        cmocka_unit_test(test_jsonplus_bins),
        cmocka_unit_test(test_pasted_and_truncated),
        cmocka_unit_test(test_jsonplus_fio2_bin_indexes),
        cmocka_unit_test(test_percentiles_as_added),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

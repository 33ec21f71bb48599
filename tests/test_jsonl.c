/* JSON Lines: SPEC key order, absent keys omitted, exact round trip of every field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/jsonl.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bl_record *full_record(void)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, "seeds/blog.txt");
    r->line = 17;
    r->run = 3;
    bl_record_set_str(&r->tool, "fio");
    bl_record_set_str(&r->tool_version, "2.0.5");
    bl_record_set_label(r, "job", "seqread");
    bl_record_set_label(r, "section", "シーケンシャルリード");
    bl_record_set_label(r, "host", "nas-C1-28-9A");
    bl_record_set_str(&r->test, "seq-read");
    bl_record_set_str(&r->op, "read");
    bl_record_set_str(&r->pattern, "seq");
    r->bs = 1048576;
    r->iodepth = 1;
    r->numjobs = 1;
    bl_record_set_str(&r->ioengine, "sync");
    r->direct = BL_FALSE;
    r->size_bytes = 1073741824;
    r->io_bytes = 5368709120;
    r->runtime_s = 14.258;
    r->bw_bytes_s = 376540160;
    r->iops = 359.5;
    r->clat_ns =
        (bl_lat){.present = true, .min = 1e6, .max = 93e6, .mean = 2.77e6, .stdev = 2.26e6};
    bl_lat_add_pct(&r->clat_ns, 99.9, 22912000);
    bl_lat_add_pct(&r->clat_ns, 1, 2008000);
    bl_lat_add_pct(&r->clat_ns, 50, 2352000);
    bl_lat_add_bin(&r->clat_ns, 2008000, 12);
    r->slat_ns = (bl_lat){.present = true, .min = 1, .max = 2, .mean = 1.5, .stdev = BL_ABSENT};
    r->lat_ns = (bl_lat){.present = false,
                         .min = BL_ABSENT,
                         .max = BL_ABSENT,
                         .mean = BL_ABSENT,
                         .stdev = BL_ABSENT};
    r->cpu_usr_pct = 0.6;
    r->cpu_sys_pct = 18.26;
    bl_record_set_str(&r->note, "a \"quoted\"\nnote\\");
    r->bw_samples =
        (bl_samples){true, 276866 * 1024.0, 397312 * 1024.0, 367157.32 * 1024, 28419.65 * 1024, 28};
    r->sync_ns =
        (bl_lat){.present = true, .min = 161e3, .max = 345e3, .mean = 192480, .stdev = 20090};
    bl_lat_add_pct(&r->sync_ns, 99, 260000);
    bl_dist_add(&r->iodepth_dist, 64, true, 0.01);
    bl_dist_add(&r->iodepth_dist, 4, false, 99.9);
    bl_dist_add(&r->iodepth_dist, 1, false, 0.1);
    bl_dist_add(&r->lat_dist, 250e3, false, 61.91);
    bl_disk *d = bl_record_add_disk(r, "sdb");
    d->read_ios = 10241;
    d->write_ios = 6;
    d->read_ticks_s = 13.6;
    d->util_pct = 64.53;
    bl_series *s = bl_record_add_series(r, "bw", "bytes/s");
    bl_series_push(s, 0.5, 1e6);
    bl_series_push(s, 1.0, 2.5e6);
    return r;
}

static char *to_json(const bl_record *r)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_record_to_json(r, &sb);
    return bl_strbuf_take(&sb);
}

static void test_key_order(void **state)
{
    (void)state;
    bl_record *r = full_record();
    char *j = to_json(r);
    static const char *const order[] = {
        "\"source\"",   "\"line\"",        "\"run\"",        "\"tool\"",    "\"tool_version\"",
        "\"labels\"",   "\"test\"",        "\"op\"",         "\"pattern\"", "\"bs\"",
        "\"iodepth\"",  "\"numjobs\"",     "\"ioengine\"",   "\"direct\"",  "\"size_bytes\"",
        "\"io_bytes\"", "\"runtime_s\"",   "\"bw_bytes_s\"", "\"iops\"",    "\"clat_ns\"",
        "\"slat_ns\"",  "\"cpu_usr_pct\"", "\"cpu_sys_pct\""};
    const char *prev = j;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *p = strstr(j, order[i]);
        assert_non_null(p);
        assert_true(p >= prev);
        prev = p;
    }
    assert_non_null(strstr(j, "\"run\":3,\"tool\":\"fio\""));
    assert_non_null(strstr(j, "\"p\":{\"1\":2008000,\"50\":2352000,\"99.9\":22912000}"));
    assert_non_null(strstr(j, "\"runtime_s\":14.258,"));
    assert_non_null(strstr(j, "\"cpu_sys_pct\":18.26"));
    assert_null(strstr(j, "\"lat_ns\"")); /* absent */
    assert_null(strstr(j, "\"metric\""));
    /* extensions after SPEC's keys: sync latency before the timelines */
    const char *sync = strstr(j, "\"sync_ns\":{\"min\":161000,");
    assert_non_null(sync);
    assert_true(sync > strstr(j, "\"bw_samples\"") && sync < strstr(j, "\"series\""));
    const char *disks = strstr(j, "\"disk_util\":[{\"name\":\"sdb\",\"read_ios\":10241,"
                                  "\"write_ios\":6,\"read_ticks_s\":13.6,\"util_pct\":64.53}]");
    assert_non_null(disks);
    assert_true(disks > sync && disks < strstr(j, "\"series\""));
    const char *dist = strstr(j, "\"lat_dist\":{\"250000\":61.91},"
                                 "\"iodepth_dist\":{\"1\":0.1,\"4\":99.9,\">=64\":0.01},");
    assert_non_null(dist);
    assert_true(dist > sync && dist < disks);
    free(j);
    bl_record_free(r);
}

static void test_round_trip(void **state)
{
    (void)state;
    bl_record *r = full_record();
    char *j = to_json(r);
    char err[128];
    bl_record *back = bl_record_from_json(j, strlen(j), err, sizeof err);
    assert_non_null(back);
    char *j2 = to_json(back);
    assert_string_equal(j, j2);
    assert_int_equal(back->io_bytes, 5368709120LL);
    assert_double_equal(back->iops, 359.5, 0);
    assert_double_equal(back->clat_ns.pct[2].value, 22912000, 0);
    assert_string_equal(bl_record_label(back, "section"), "シーケンシャルリード");
    assert_string_equal(back->note, "a \"quoted\"\nnote\\");
    assert_int_equal(back->series[0].n, 2);
    assert_int_equal(back->direct, BL_FALSE);
    assert_double_equal(back->sync_ns.mean, 192480, 0);
    assert_double_equal(back->sync_ns.pct[0].value, 260000, 0);
    assert_int_equal(back->iodepth_dist.n, 3);
    assert_true(back->iodepth_dist.v[2].ge);
    assert_double_equal(back->iodepth_dist.v[2].at, 64, 0);
    assert_int_equal(back->n_disks, 1);
    assert_string_equal(back->disks[0].name, "sdb");
    assert_int_equal(back->disks[0].read_merges, -1);
    assert_false(bl_present(back->disks[0].in_queue_s));
    free(j);
    free(j2);
    bl_record_free(back);
    bl_record_free(r);
}

static void test_clone_equal(void **state)
{
    (void)state;
    bl_record *r = full_record();
    bl_record *c = bl_record_clone(r);
    bl_series_push(&c->series[0], 1.5, 3e6); /* the clone grows on its own */
    char *a = to_json(r), *b = to_json(c);
    assert_string_not_equal(a, b);
    assert_int_equal(r->series[0].n, 2);
    free(a);
    free(b);
    bl_record_free(r);
    bl_record_free(c);
}

static void test_bad_json(void **state)
{
    (void)state;
    char err[128] = "";
    assert_null(bl_record_from_json("{\"source\":", 10, err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_null(bl_record_from_json("[1,2]", 5, err, sizeof err));
}

/* Arrays grow by half and ask malloc what room they have: adding one element at a time to
 * arrays a parser handed over at their exact length, and to clones, keeps every element
 * (under ASan a wrong guess of the room is an overflow). */
static void test_grown_arrays(void **state)
{
    (void)state;
    bl_record *r = bl_record_new();
    r->lat_ns.present = true;
    r->lat_ns.n_pct = 3; /* as fio's JSON reader gives them: malloc'd at their length */
    r->lat_ns.pct = malloc(3 * sizeof *r->lat_ns.pct);
    for (int i = 0; i < 3; i++)
        r->lat_ns.pct[i] = (bl_pct){i + 1, (i + 1) * 1000};
    bl_record *c = bl_record_clone(r);
    for (bl_record *x = r; x; x = x == r ? c : NULL) {
        for (int i = 3; i < 40; i++)
            bl_lat_add_pct(&x->lat_ns, i + 1, (i + 1) * 1000);
        bl_dist_reserve(&x->lat_dist, 10); /* 30 added: the room sized once, then grown */
        for (int i = 0; i < 30; i++) {
            char k[16];
            snprintf(k, sizeof k, "k%d", i);
            bl_record_set_label(x, k, k + 1);
            bl_lat_add_bin(&x->lat_ns, 30 - i, (uint64_t)i);
            bl_dist_add(&x->lat_dist, i * 1000, false, i);
            bl_record_add_disk(x, k);
        }
        bl_dist_reserve(&x->lat_dist, 5); /* less than it holds: nothing lost */
    }
    for (bl_record *x = r; x; x = x == r ? c : NULL) {
        assert_int_equal(x->lat_ns.n_pct, 40);
        for (int i = 0; i < 40; i++)
            assert_double_equal(x->lat_ns.pct[i].value, (i + 1) * 1000, 0);
        assert_int_equal(x->n_labels, 30);
        assert_string_equal(bl_record_label(x, "k29"), "29");
        assert_string_equal(bl_record_label(x, "k0"), "0");
        assert_int_equal(x->lat_ns.n_bins, 30);
        assert_double_equal(x->lat_ns.bins[0].value, 1, 0);
        assert_int_equal(x->lat_ns.bins[0].count, 29);
        assert_int_equal(x->lat_dist.n, 30);
        assert_double_equal(x->lat_dist.v[29].pct, 29, 0);
        assert_int_equal(x->n_disks, 30);
        assert_string_equal(x->disks[29].name, "k29");
    }
    bl_record_free(r);
    bl_record_free(c);
}

/* fio's default percentiles are written from a table where they stand in fio's order: the
 * same keys as the digit writer gives, which writes them elsewhere (another place, another
 * value), and the records of one batch written together are the lines each gives alone. */
static void test_percentile_keys(void **state)
{
    (void)state;
    static const double fio[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
    bl_record *r = bl_record_new();
    r->clat_ns.present = r->lat_ns.present = true;
    bl_lat_add_pct(&r->lat_ns, 0.5, 7); /* every key one place later: not from the table */
    for (size_t i = 0; i < sizeof fio / sizeof fio[0]; i++) {
        bl_lat_add_pct(&r->clat_ns, fio[i], (double)i);
        bl_lat_add_pct(&r->lat_ns, fio[i], (double)i);
    }
    bl_lat_add_pct(&r->clat_ns, 99.995, 17);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_record_to_json(r, &sb);
    const char *keys = "\"1\":0,\"5\":1,\"10\":2,\"20\":3,\"30\":4,\"40\":5,\"50\":6,\"60\":7,"
                       "\"70\":8,\"80\":9,\"90\":10,\"95\":11,\"99\":12,\"99.5\":13,\"99.9\":14,"
                       "\"99.95\":15,\"99.99\":16";
    bl_strbuf want;
    bl_strbuf_init(&want);
    bl_strbuf_printf(&want,
                     "\"clat_ns\":{\"p\":{%s,\"99.995\":17}},\"lat_ns\":{\"p\":{\"0.5\":7,%s}}",
                     keys, keys);
    assert_non_null(strstr(sb.s, want.s));
    bl_strbuf_putc(&sb, '\n');
    size_t one = sb.len;
    char *line = bl_xstrndup(sb.s, one); /* sb.s may move as it grows */
    bl_strbuf_putn(&sb, line, one);
    free(line);
    FILE *f = tmpfile();
    assert_non_null(f);
    bl_record *two[] = {r, r};
    assert_int_equal(bl_records_write_jsonl(two, 2, f), 0);
    assert_int_equal(ftell(f), (long)sb.len);
    rewind(f);
    char *back = malloc(sb.len);
    assert_int_equal(fread(back, 1, sb.len, f), sb.len);
    assert_memory_equal(back, sb.s, sb.len);
    free(back);
    fclose(f);
    bl_strbuf_free(&want);
    bl_strbuf_free(&sb);
    bl_record_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_order),    cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_clone_equal),  cmocka_unit_test(test_bad_json),
        cmocka_unit_test(test_grown_arrays), cmocka_unit_test(test_percentile_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* fio 3's figure pairs `BW=A (B)` / `bw=A (B)` / `io=A (B)`: which figure is binary and which
 * SI is read from the units, so kb_base=1000 output (SI first) is read right; pairs that
 * disagree are refused with FILE:LINE. fixtures/fio/kb1000-3.33.out is a real fio 3.33 run
 * with kb_base=1000, its normal output checked against its own JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include "../parsers/fio_units.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_text(const char *text, bl_parse_out *o)
{
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/in.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int rc = bl_test_parse(path, "fio", o);
    unlink(path);
    rmdir(dir);
    free(dir);
    return rc;
}

/* QA f9.txt: a group line alone, kb_base=1000. The old reading took 1228 as MiB/s
 * (1287651328) and 73.7 as GiB (79134772429). */
static void test_group_line_si_first(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_text("Run status group 0 (all jobs):\n"
                   "  WRITE: bw=1228MB/s (1171MiB/s), 1228MB/s-1228MB/s (1171MiB/s-1171MiB/s), "
                   "io=73.7GB (68.6GiB), run=60001-60001msec\n",
                   &o),
        0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(bl_record_label(r, "scope"), "group total");
    assert_double_equal(r->bw_bytes_s, 1228e6, 0);
    assert_int_equal(r->io_bytes, 73700000000LL);
    assert_double_equal(r->runtime_s, 60.001, 1e-9);
    bl_out_free(&o);
}

/* QA f4.txt: job lines SI first (kb_base=1000), group lines binary first (as fio 3 prints
 * by default): each read from its own units. */
static void test_job_lines_both_orders(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_text(
            "ssd: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
            "ioengine=libaio, iodepth=32\n"
            "fio-3.28\n"
            "ssd: (groupid=0, jobs=1): err= 0: pid=100: Tue Mar  3 12:00:00 2020\n"
            "  read: IOPS=90.0k, BW=369MB/s (352MiB/s)(22.1GB/60001msec)\n"
            "    clat (usec): min=40, max=2500, avg=355.12, stdev=30.55\n"
            "hdd: (groupid=1, jobs=1): err= 0: pid=101: Tue Mar  3 12:01:00 2020\n"
            "  read: IOPS=300, BW=1200KiB/s (1229kB/s)(70.3MiB/60001msec)\n"
            "    clat (msec): min=1, max=900, avg=106.12, stdev=30.55\n"
            "\n"
            "Run status group 0 (all jobs):\n"
            "   READ: bw=352MiB/s (369MB/s), 352MiB/s-352MiB/s (369MB/s-369MB/s), io=20.6GiB "
            "(22.1GB), run=60001-60001msec\n",
            &o),
        0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 2);
    const bl_record *ssd = bl_test_nth(&o, "job", "ssd", 0),
                    *hdd = bl_test_nth(&o, "job", "hdd", 0);
    assert_double_equal(ssd->bw_bytes_s, 369e6, 0);
    assert_int_equal(ssd->io_bytes, 22100000000LL);
    assert_double_equal(hdd->bw_bytes_s, 1200.0 * 1024, 0);
    assert_int_equal(hdd->io_bytes, (int64_t)(70.3 * 1048576 + 0.5));
    bl_out_free(&o);
}

/* A retyped pair whose figures contradict each other (369 MB/s is 352 MiB/s, not 352 KiB/s)
 * is refused with its line; the other job and group lines are kept. */
static void test_disagreeing_pairs_refused(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_text("a: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
                   "ioengine=psync, iodepth=1\n"
                   "fio-3.33\n"
                   "a: (groupid=0, jobs=1): err= 0: pid=1\n"
                   "  read: IOPS=90.0k, BW=369MB/s (352KiB/s)(22.1GB/60001msec)\n"
                   "    clat (usec): min=40, max=2500, avg=355.12, stdev=30.55\n"
                   "b: (groupid=1, jobs=1): err= 0: pid=2\n"
                   "  read: IOPS=90.0k, BW=369MB/s (352MiB/s)(22.1GB/60001msec)\n"
                   "\n"
                   "Run status group 2 (all jobs):\n"
                   "  WRITE: bw=1228MB/s (1000MiB/s), 1228MB/s-1228MB/s (1171MiB/s-1171MiB/s), "
                   "io=73.7GB (68.6GiB), run=60001-60001msec\n"
                   "Run status group 3 (all jobs):\n"
                   "  WRITE: bw=1228MB/s (1171MiB/s), 1228MB/s-1228MB/s (1171MiB/s-1171MiB/s), "
                   "io=73.7GB (73.7GiB), run=60001-60001msec\n",
                   &o),
        1);
    assert_int_equal(o.n_diags, 3);
    assert_int_equal(o.diags[0].line, 4);
    assert_non_null(strstr(o.diags[0].msg, "disagree"));
    assert_int_equal(o.diags[1].line, 10);
    assert_int_equal(o.diags[2].line, 12);
    assert_int_equal(o.recs.n, 1);
    assert_string_equal(bl_record_label(o.recs.v[0], "job"), "b");
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 369e6, 0);
    bl_out_free(&o);
}

/* The pairs of fio 3 as printed before 3.26 (num2str wrote the fraction loosely: 70.977 MiB
 * could print as "70.1MiB") still agree; a "B/s" figure has no prefix to go by. */
static void test_loose_fraction_and_plain_bytes(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_text("Run status group 0 (all jobs):\n"
                                "   READ: bw=70.1MiB/s (74.4MB/s), 70.1MiB/s-70.1MiB/s "
                                "(74.4MB/s-74.4MB/s), io=140MiB (147MB), run=2001-2001msec\n"
                                "Run status group 1 (all jobs):\n"
                                "   READ: bw=500B/s (500B/s), 500B/s-500B/s (500B/s-500B/s), "
                                "io=1000B (1000B), run=2000-2000msec\n",
                                &o),
                     0);
    assert_int_equal(o.recs.n, 2);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 70.1 * 1048576, 1e-6);
    assert_int_equal(o.recs.v[0]->io_bytes, 140LL << 20);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 500, 0);
    assert_int_equal(o.recs.v[1]->io_bytes, 1000);
    bl_out_free(&o);
}

static const bl_record *twin(const bl_parse_out *j, const bl_record *r)
{
    for (size_t i = 0; i < j->recs.n; i++) {
        const bl_record *x = j->recs.v[i];
        if (strcmp(bl_record_label(x, "job"), bl_record_label(r, "job")) == 0 &&
            strcmp(x->op, r->op) == 0)
            return x;
    }
    return NULL;
}

/* The real run: every figure of the normal output within its print precision of the JSON
 * (fio prints 3-4 significant digits: 0.2%; reading an SI figure as binary is 4.9% off, a
 * "kB/s" sample as 1000 bytes 2.4% off). */
static void test_fio333_kb1000_vs_json(void **state)
{
    (void)state;
    char p[256];
    bl_test_fixture("fio/kb1000-3.33.out", p, sizeof p);
    bl_parse_out n, j;
    assert_int_equal(bl_test_parse(p, "fio", &n), 0);
    assert_int_equal(bl_test_parse(p, "fio-json", &j), 0);
    assert_int_equal(n.n_diags, 0);
    assert_int_equal(n.recs.n, 3);
    for (size_t i = 0; i < n.recs.n; i++) {
        const bl_record *r = n.recs.v[i], *x = twin(&j, r);
        assert_non_null(x);
        assert_true(bl_test_close(r->bw_bytes_s, x->bw_bytes_s, 0.002));
        assert_true(bl_test_close((double)r->io_bytes, (double)x->io_bytes, 0.002));
        assert_true(bl_test_close(r->iops, x->iops, 0.002));
        assert_double_equal(r->runtime_s, x->runtime_s, 1e-12);
        /* samples: printed with 2 decimals of KiB/s, or of KiB/s / 1000 when "MiB/s" */
        assert_true(bl_test_close(r->bw_samples.mean, x->bw_samples.mean, 0.0005));
        assert_true(bl_test_close(r->bw_samples.max, x->bw_samples.max, 0.0005));
        assert_int_equal(r->bw_samples.count, x->bw_samples.count);
        assert_int_equal(r->bs, x->bs); /* JSON "bs" : "64k" under "kb_base" : "1000" */
    }
    /* bs=(R) 64.0kB-64.0kB, (R) 4000B-4000B: bs=64k and 4k under kb_base=1000 */
    assert_int_equal(bl_test_nth(&n, "job", "kbw", 0)->bs, 64000);
    assert_int_equal(bl_test_nth(&n, "job", "kbrr", 0)->bs, 4000);
    bl_out_free(&n);
    bl_out_free(&j);
}

/* The figures' reader computes plain decimals itself: it must give strtod's double and end,
 * bit for bit, and leave every other form (sign, exponent, hex, 16+ digits) to strtod. */
static void test_fast_strtod_is_strtods(void **state)
{
    (void)state;
    static const char *const forms[] = {"61.91%",
                                        "250=",
                                        ".5",
                                        "5.",
                                        "0x1A",
                                        "1e3",
                                        "1.5E-2",
                                        "-3",
                                        " 4",
                                        "+2",
                                        "inf",
                                        "nan",
                                        "1234567890123456",
                                        "999999999999999",
                                        "0.000000000000001",
                                        "",
                                        ".",
                                        "4.99999999999999",
                                        "0.1",
                                        "0.3",
                                        "2.675",
                                        "1.005",
                                        "9007.199254740993",
                                        "00x5",
                                        "100.0k"};
    char buf[40];
    unsigned long long x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0] + 20000; i++) {
        const char *s = forms[i % (sizeof forms / sizeof forms[0])];
        if (i >= sizeof forms / sizeof forms[0]) { /* random decimals of 1..15 digits */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int digits = 1 + (int)(x % 15), point = (int)((x >> 8) % (unsigned)(digits + 1));
            unsigned long long m = x >> 20, mod = 1;
            for (int k = 0; k < digits; k++)
                mod *= 10;
            snprintf(buf, sizeof buf, "%0*llu", digits, m % mod);
            memmove(buf + point + 1, buf + point, strlen(buf + point) + 1);
            buf[point] = '.';
            s = buf;
        }
        char *e1, *e2;
        double a = bl_fio_strtod(s, &e1), b = strtod(s, &e2);
        if (memcmp(&a, &b, sizeof a) != 0 || e1 != e2)
            fail_msg("%s: %.17g (end %td) against strtod's %.17g (end %td)", s, a, e1 - s, b,
                     e2 - s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_line_si_first),
        cmocka_unit_test(test_job_lines_both_orders),
        cmocka_unit_test(test_disagreeing_pairs_refused),
        cmocka_unit_test(test_loose_fraction_and_plain_bytes),
        cmocka_unit_test(test_fio333_kb1000_vs_json),
        cmocka_unit_test(test_fast_strtod_is_strtods),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

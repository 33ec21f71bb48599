/* The driver's family duplicates: a run printed in two fio forms (terse,normal or
 * json,normal of ONE run) is given once; runs that only share a job name and direction
 * (--name=test) are other runs and all kept. Figures in bytes, bytes/s and s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_string(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("d.txt", text, NULL, o);
}

static const bl_record *at_line(const bl_parse_out *o, int64_t line, const char *op)
{
    for (size_t i = 0; i < o->recs.n; i++)
        if (o->recs.v[i]->line == line && strcmp(o->recs.v[i]->op, op) == 0)
            return o->recs.v[i];
    fail_msg("no %s record at line %lld", op, (long long)line);
    return NULL;
}

/* QA mix2: two normal-output jobs named "test" (SSD 369 MB/s, HDD 1.23 MB/s), then the
 * terse line of another run also named "test": both normal runs were deleted. */
static const char mix2[] =
    "test: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
    "ioengine=libaio, iodepth=32\n" /* 1 */
    "test: (g=1): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
    "ioengine=libaio, iodepth=32\n"                                          /* 2 */
    "fio-3.28\n"                                                             /* 3 */
    "Starting 2 processes\n"                                                 /* 4 */
    "\n"                                                                     /* 5 */
    "test: (groupid=0, jobs=1): err= 0: pid=100: Tue Mar  3 12:00:00 2020\n" /* 6 */
    "  read: IOPS=90.0k, BW=352MiB/s (369MB/s)(20.6GiB/60001msec)\n"         /* 7 */
    "    clat (usec): min=40, max=2500, avg=355.12, stdev=30.55\n"           /* 8 */
    "     lat (usec): min=45, max=2510, avg=355.30, stdev=30.60\n"           /* 9 */
    "  cpu          : usr=2.50%, sys=8.00%, ctx=900000, majf=0, minf=100\n"  /* 10 */
    "test: (groupid=1, jobs=1): err= 0: pid=101: Tue Mar  3 12:01:00 2020\n" /* 11 */
    "  read: IOPS=300, BW=1200KiB/s (1229kB/s)(70.3MiB/60001msec)\n"         /* 12 */
    "    clat (msec): min=1, max=900, avg=106.12, stdev=30.55\n"             /* 13 */
    "     lat (msec): min=1, max=900, avg=106.13, stdev=30.60\n"             /* 14 */
    "  cpu          : usr=0.10%, sys=0.20%, ctx=18000, majf=0, minf=10\n"    /* 15 */
    "\n"                                                                     /* 16 */
    "Run status group 0 (all jobs):\n"                                       /* 17 */
    "   READ: bw=352MiB/s (369MB/s), 352MiB/s-352MiB/s (369MB/s-369MB/s), io=20.6GiB (22.1GB), "
    "run=60001-60001msec\n"            /* 18 */
    "\n"                               /* 19 */
    "Run status group 1 (all jobs):\n" /* 20 */
    "   READ: bw=1200KiB/s (1229kB/s), 1200KiB/s-1200KiB/s (1229kB/s-1229kB/s), io=70.3MiB "
    "(73.7MB), run=60001-60001msec\n"     /* 21 */
    "\n"                                  /* 22 */
    "And on the laptop with --minimal:\n" /* 23 */
    "\n"                                  /* 24 */
    "3;fio-3.7;test;0;0;28709340;159349;500;180166;2;1078053;720.835412;8307.158883;743;16326"
    "65;127194.504051;124259.989230;1.000000%=10158;5.000000%=24510;10.000000%=34340;20.00000"
    "0%=51642;30.000000%=66846;40.000000%=80216;50.000000%=94896;60.000000%=112721;70.000000%"
    "=135266;80.000000%=173015;90.000000%=250609;95.000000%=337641;99.000000%=549453;99.50000"
    "0%=1098907;99.900000%=1249902;99.950000%=1367343;99.990000%=1501560;0%=0;0%=0;0%=0;750;1"
    "632669;127915.442197;124747.192350;8656;335132;100.000000%;163034.463068;69585.644925;28"
    "707618;159339;498;180166;2;1079330;728.166029;6653.737678;1118;1592279;127550.672844;126"
    "465.260968;1.000000%=10420;5.000000%=24248;10.000000%=34340;20.000000%=51118;30.000000%="
    "66322;40.000000%=80216;50.000000%=94896;60.000000%=112721;70.000000%=135266;80.000000%=1"
    "73015;90.000000%=254803;95.000000%=337641;99.000000%=549453;99.500000%=1115684;99.900000"
    "%=1233125;99.950000%=1367343;99.990000%=1501560;0%=0;0%=0;0%=0;1132;1613624;128278.94346"
    "9;126831.663948;7357;325355;100.000000%;162984.312500;69065.900861;1.618516%;1.565232%;5"
    "6137;0;32798;0.1%;0.1%;0.1%;0.1%;0.1%;0.1%;100.0%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0."
    "00%;0.00%;0.01%;0.01%;0.03%;0.19%;0.73%;2.57%;15.68%;33.96%;36.56%;8.92%;0.77%;0.02%;0.0"
    "0%;0.00%\n"; /* 25 */

static void test_namesakes_in_normal_and_terse_kept(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_string(mix2, &o);
    /* one fio invocation of two groups, then the laptop's: two runs, four records */
    assert_int_equal(fu_runs(&o, "fio"), 2);
    assert_int_equal(o.recs.n, 4);
    const bl_record *r = at_line(&o, 6, "read");
    assert_int_equal(r->io_bytes, (int64_t)llround(20.6 * 1073741824.0)); /* 20.6GiB */
    assert_double_equal(r->bw_bytes_s, 352.0 * 1048576, 0);               /* BW=352MiB/s */
    assert_double_equal(r->runtime_s, 60.001, 1e-9);
    assert_string_equal(bl_record_label(r, "group"), "0");
    r = at_line(&o, 11, "read");
    assert_int_equal(r->io_bytes, (int64_t)llround(70.3 * 1048576.0)); /* 70.3MiB */
    assert_double_equal(r->bw_bytes_s, 1200.0 * 1024, 0);              /* BW=1200KiB/s */
    assert_string_equal(bl_record_label(r, "group"), "1");
    r = at_line(&o, 25, "read");
    assert_int_equal(r->io_bytes, 28709340LL * 1024);
    assert_double_equal(r->bw_bytes_s, 159349.0 * 1024, 0);
    assert_double_equal(r->runtime_s, 180.166, 1e-9);
    /* the namesakes' header (rw=randread, bs 4096) is not this line's: a randread job moves
     * no writes, and 159349 KiB/s at 500 IOPS is no 4 KiB block; so no pattern, no bs */
    assert_null(r->pattern);
    assert_int_equal(r->bs, -1);
    assert_string_equal(r->test, "read");
    assert_non_null(strstr(r->note, "job header of this name in the text does not fit"));
    assert_int_equal(o.n_warns, 0); /* no bw != IOPS x 4096 "disagreement" of the source */
    r = at_line(&o, 25, "write");
    assert_int_equal(r->io_bytes, 28707618LL * 1024);
    assert_double_equal(r->bw_bytes_s, 159339.0 * 1024, 0);
    assert_string_equal(r->test, "write");
    bl_out_free(&o);
}

/* One record of `as` alone at `line`, to compare the merged reading with. */
static void assert_same_as_alone(const char *path, const bl_parse_out *all, const char *as)
{
    bl_parse_out one;
    assert_int_equal(bl_test_parse(path, as, &one), 0);
    assert_int_equal(one.recs.n, 1);
    const bl_record *w = one.recs.v[0], *r = at_line(all, w->line, w->op);
    assert_int_equal(r->io_bytes, w->io_bytes);
    assert_double_equal(r->bw_bytes_s, w->bw_bytes_s, 0);
    assert_double_equal(r->runtime_s, w->runtime_s, 0);
    assert_true(r->io_bytes > 0);
    bl_out_free(&one);
}

/* fixtures/fio/namesakes-3.33.out: three real runs of a job named "test" at 1, 4 and 2 MiB/s
 * in normal, JSON and terse form, prose between. Once only the JSON run was left. */
static void test_namesakes_real_runs_kept(void **state)
{
    (void)state;
    char p[4096];
    const char *path = bl_test_fixture("fio/namesakes-3.33.out", p, sizeof p);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.recs.n, 3);
    assert_int_equal(fu_runs(&o, "fio"), 3);
    assert_same_as_alone(path, &o, "fio");
    assert_same_as_alone(path, &o, "fio-json");
    assert_same_as_alone(path, &o, "fio-terse");
    /* the rates set apart the runs: 1, 4 and 2 MiB/s within 2% */
    static const double rate[] = {1, 4, 2};
    for (size_t i = 0; i < 3; i++)
        assert_true(bl_test_close(o.recs.v[i]->bw_bytes_s, rate[i] * 1048576, 0.02));
    assert_string_equal(bl_record_label(o.recs.v[1], "section"), "New disk, JSON output");
    assert_string_equal(bl_record_label(o.recs.v[2], "section"),
                        "And on the laptop with --minimal");
    bl_out_free(&o);
}

/* The real case of one run printed twice: fio 3.28 --output-format=terse,normal with eight
 * groups gives eight records, the terse lines' (lines 11-18), none from the normal output. */
static void test_terse_plus_normal_deduplicated(void **state)
{
    (void)state;
    char *p = bl_test_corpus("fio-terse/fio-3.28_terse3_plus_normal_8groups.txt");
    if (!p)
        skip();
    bl_parse_out o;
    assert_int_equal(bl_test_parse(p, NULL, &o), 0);
    free(p);
    assert_int_equal(o.recs.n, 8);
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(o.recs.v[i]->line, (int64_t)i + 11);
    /* terse "52883" KiB/s; the normal output's "BW=51.6MiB/s" (54106521.6) is the same run */
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 52883.0 * 1024, 0);
    assert_int_equal(o.recs.v[0]->io_bytes, 1048576LL * 1024);
    assert_double_equal(o.recs.v[0]->runtime_s, 19.828, 1e-9);
    bl_out_free(&o);
}

/* Two runs alike in bytes, bandwidth and runtime (rate-limited, time-based) are still two
 * when their mean completion latency differs: the corpus file with its first terse line's
 * clat mean made 145224 usec where the normal output says "avg=135.22" msec gives nine
 * records, the normal output's Seq1M-Read-Q8 (line 20) among them. */
static void test_latency_tells_runs_apart(void **state)
{
    (void)state;
    char *p = bl_test_corpus("fio-terse/fio-3.28_terse3_plus_normal_8groups.txt");
    if (!p)
        skip();
    char *text = bl_test_slurp(p);
    free(p);
    char *mean = strstr(text, ";135224.217241;");
    assert_non_null(mean);
    mean[2] = '4'; /* 145224.217241 */
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(o.recs.n, 9);
    const bl_record *n = at_line(&o, 20, "read"), *t = at_line(&o, 11, "read");
    assert_double_equal(n->clat_ns.mean, 135.22e6, 1e-3);
    assert_double_equal(t->clat_ns.mean, 145224.217241e3, 1e-3);
    assert_double_equal(n->bw_bytes_s, 51.6 * 1048576, 1e-3);
    assert_double_equal(t->bw_bytes_s, 52883.0 * 1024, 0);
    bl_out_free(&o);
    free(text);
}

/* fixtures/fio/mix-3.33.out: normal, JSON+ and terse of one run: each job direction once. */
static void test_three_forms_of_one_run(void **state)
{
    (void)state;
    char p[4096];
    const char *path = bl_test_fixture("fio/mix-3.33.out", p, sizeof p);
    bl_parse_out all, json;
    assert_int_equal(bl_test_parse(path, NULL, &all), 0);
    assert_int_equal(bl_test_parse(path, "fio-json", &json), 0);
    assert_int_equal(all.recs.n, json.recs.n);
    bl_out_free(&all);
    bl_out_free(&json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_namesakes_in_normal_and_terse_kept),
        cmocka_unit_test(test_namesakes_real_runs_kept),
        cmocka_unit_test(test_terse_plus_normal_deduplicated),
        cmocka_unit_test(test_latency_tells_runs_apart),
        cmocka_unit_test(test_three_forms_of_one_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

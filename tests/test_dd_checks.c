/* dd: bs= in GNU and BSD spellings, bs= against the bytes copied, the printed rate against
 * bytes / seconds, FreeBSD's status=progress lines, zh_CN summaries without a space. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static int parse_str(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("paste", text, NULL, o);
}

/* One run of 1000 MiB in 4.5 s whose command says bs=<bs> count=<count>, in BSD's layout
 * (bsd) or GNU's, with "N+0 records out" when count is a plain number; its bs as read. */
static int64_t bs_of(const char *bs, const char *count, int bsd)
{
    int plain = strspn(count, "0123456789") == strlen(count);
    char text[512];
    snprintf(text, sizeof text, "$ dd if=/dev/zero of=big bs=%s count=%s\n%s%s%s%s%s\n", bs, count,
             plain ? count : "", plain ? "+0 records in\n" : "", plain ? count : "",
             plain ? "+0 records out\n" : "",
             bsd ? "1048576000 bytes transferred in 4.500000 secs (233016888 bytes/sec)"
                 : "1048576000 bytes (1.0 GB, 1000 MiB) copied, 4.5 s, 233 MB/s");
    bl_parse_out o;
    assert_int_equal(parse_str(text, &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_int_equal(r->io_bytes, 1048576000);
    assert_true(bl_test_close(r->bw_bytes_s, 1048576000 / 4.5, 1e-12));
    assert_string_equal(bl_record_label(r, "dd_bs"), bs);
    int64_t v = r->bs;
    if (v > 0)
        assert_null(r->note); /* N x bs = the bytes: nothing to say */
    bl_out_free(&o);
    return v;
}

static void test_bs_suffixes(void **state)
{
    (void)state;
    /* BSD and macOS lower-case suffixes (old code: bs 1) */
    assert_int_equal(bs_of("1m", "1000", 1), 1048576);
    assert_int_equal(bs_of("4k", "256000", 1), 4096);
    assert_int_equal(bs_of("1k*1k", "1000", 1), 1048576);
    assert_int_equal(bs_of("256w", "1024000", 1), 1024); /* BSD's w is an int, 4 bytes */
    /* GNU: products, "xM" = M, SI with B, IEC, blocks, words, bytes */
    assert_int_equal(bs_of("1xM", "1000", 0), 1048576);
    assert_int_equal(bs_of("2x512k", "1000", 0), 1048576);
    assert_int_equal(bs_of("1M", "1000", 0), 1048576);
    assert_int_equal(bs_of("1000k", "1k", 0), 1024000); /* count=1k: 1024 blocks */
    assert_int_equal(bs_of("1MiB", "1000", 0), 1048576);
    assert_int_equal(bs_of("1024000B", "1024", 0), 1024000);
    assert_int_equal(bs_of("1024kB", "1024", 0), 1024000);
    assert_int_equal(bs_of("2000b", "1024", 0), 1024000);
    assert_int_equal(bs_of("512000w", "1024", 0), 1024000);
    /* a suffix dd would refuse is no size (old code: bs 1) */
    assert_int_equal(bs_of("1q", "1000", 0), -1);
    assert_int_equal(bs_of("1MB", "1000", 1), -1);
    assert_int_equal(bs_of("0x100000", "1000", 1), -1); /* BSD's hex: not guessed at */
    assert_int_equal(bs_of("1e", "1000", 1), -1);
}

static void test_one_gib_blocks(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_str("# dd if=/dev/zero of=big bs=1g count=2\n2+0 records in\n"
                               "2+0 records out\n"
                               "2147483648 bytes transferred in 2.000000 secs (1073741824 "
                               "bytes/sec)\n",
                               &o),
                     0);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->bs, 1073741824);
    assert_int_equal(o.recs.v[0]->io_bytes, 2147483648LL);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 1073741824.0, 1e-6);
    bl_out_free(&o);
}

/* records out x bs against bytes: the command's count agreeing with the records line leaves
 * the byte count alone against both (refused); otherwise bs is dropped with a note and a
 * warning. count= alone bounds the bytes from above. */
static void test_blocks_against_bytes(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_str("$ dd if=/dev/zero of=x bs=1M count=10\n"
                               "10+0 records in\n10+0 records out\n"
                               "1048576000 bytes (1.0 GB, 1000 MiB) copied, 4.5 s, 233 MB/s\n"
                               "$ dd if=/dev/zero of=x bs=64k count=1000\n"
                               "64+0 records in\n64+0 records out\n"
                               "67108864 bytes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s\n"
                               "$ dd if=/dev/zero of=x bs=64k count=64\n"
                               "67108864 bytes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s\n"
                               "$ dd if=/dev/zero of=x bs=64k count=1024\n"
                               "67108864 bytes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s\n",
                               &o),
                     1);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 4);
    assert_non_null(strstr(o.diags[0].msg, "10485760 bytes"));
    assert_non_null(strstr(o.diags[0].msg, "not a record"));
    assert_int_equal(o.recs.n, 3);
    for (size_t i = 0; i < 2; i++) {
        const bl_record *r = o.recs.v[i];
        assert_int_equal(r->run, (int64_t)i + 1);
        assert_int_equal(r->io_bytes, 67108864);
        assert_int_equal(r->bs, -1);
        assert_non_null(strstr(r->note, "bs not kept"));
        assert_non_null(strstr(r->note, "4194304 bytes"));
    }
    assert_int_equal(o.recs.v[0]->line, 8);
    assert_int_equal(o.recs.v[1]->line, 10);
    assert_int_equal(o.n_warns, 2);
    assert_int_equal(o.warns[0].line, 8);
    assert_int_equal(o.warns[1].line, 10);
    /* 64 KiB x 1024 >= 64 MiB: a short input, nothing wrong */
    assert_int_equal(o.recs.v[2]->bs, 65536);
    assert_null(o.recs.v[2]->note);
    bl_out_free(&o);
}

/* A rate its own bytes and seconds contradict, GNU's and BSD's (old code: 233016888.9 B/s,
 * rc 0); the good runs around them are kept. */
static void test_rate_contradiction(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_str("1048576000 bytes (1.0 GB, 1000 MiB) copied, 4.5 s, 233 MB/s\n"
                  "1048576000 bytes (1.0 GB, 1000 MiB) copied, 4.5 s, 999 MB/s\n"
                  "1048576000 bytes transferred in 4.500000 secs (999000000 bytes/sec)\n"
                  "1048576000 bytes transferred in 4.500000 secs (233016889 bytes/sec)\n"
                  "1048576000 bytes (1.0 GB, 1000 MiB) copied, 4.5 s, 240 MB/s\n",
                  &o),
        1);
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(o.recs.v[0]->line, 1);
    assert_int_equal(o.recs.v[1]->line, 4);
    assert_true(bl_test_close(o.recs.v[1]->bw_bytes_s, 1048576000 / 4.5, 1e-12));
    assert_int_equal(o.n_diags, 3);
    static const long lines[] = {2, 3, 5};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(o.diags[i].line, lines[i]);
        assert_non_null(strstr(o.diags[i].msg, "retyped or damaged"));
    }
    assert_non_null(strstr(o.diags[0].msg, "233016889 bytes/s"));
    bl_out_free(&o);
}

/* Real rates at the edge of their print precision stay runs: GNU's 2-3 digits and one decimal,
 * "0.0 kB/s" under 1000 bytes, busybox's binary "KB/s" printed without a space. */
static void test_rates_rounded_by_dd(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_str("1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.8 s, 1.3 GB/s\n"
                               "4 bytes copied, 1.00373 s, 0.0 kB/s\n"
                               "8388608 bytes (8.0MB) copied, 10.029590 seconds, 816.8KB/s\n"
                               "1048576000 bytes (1.0GB) copied, 4.500000 seconds, 222.2MB/s\n",
                               &o),
                     0);
    assert_int_equal(o.recs.n, 4);
    assert_true(bl_test_close(o.recs.v[0]->bw_bytes_s, 1073741824 / 0.8, 1e-12));
    assert_true(bl_test_close(o.recs.v[1]->bw_bytes_s, 4 / 1.00373, 1e-12));
    assert_true(bl_test_close(o.recs.v[2]->bw_bytes_s, 8388608 / 10.029590, 1e-12));
    bl_out_free(&o);
}

/* FreeBSD status=progress pasted one a line: progress, not a run; the summary after it is the
 * run and keeps the command (old code: two runs, the summary without labels). */
static void test_freebsd_progress(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_str("# dd if=/dev/zero of=/tank/test bs=1m count=4000 status=progress\n"
                  "  1048576000 bytes (1049 MB, 1000 MiB) transferred 1.001s, 1048 MB/s\n"
                  "  3145728000 bytes (3146 MB, 3000 MiB) transferred 3.002s, 1048 MB/s\n"
                  "4000+0 records in\n4000+0 records out\n"
                  "4194304000 bytes transferred in 4.012345 secs (1045348370 bytes/sec)\n",
                  &o),
        0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_int_equal(r->line, 6);
    assert_int_equal(r->run, 1);
    assert_int_equal(r->io_bytes, 4194304000LL);
    assert_double_equal(r->runtime_s, 4.012345, 1e-12);
    assert_true(bl_test_close(r->bw_bytes_s, 4194304000 / 4.012345, 1e-12));
    assert_string_equal(r->test, "seq-write");
    assert_string_equal(bl_record_label(r, "dd_of"), "/tank/test");
    assert_int_equal(r->bs, 1048576);
    assert_null(r->note);
    bl_out_free(&o);
}

/* A paste cut before FreeBSD's summary: the last progress line is the run, said so in note
 * (old code: a run with no note). */
static void test_freebsd_progress_without_summary(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_str("# dd if=/dev/zero of=/tank/test bs=1m count=4000 status=progress\n"
                  "  3145728000 bytes (3146 MB, 3000 MiB) transferred 3.002s, 1048 MB/s\n",
                  &o),
        0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_int_equal(r->io_bytes, 3145728000LL);
    assert_double_equal(r->runtime_s, 3.002, 1e-12);
    assert_int_equal(r->bs, 1048576);
    assert_non_null(strstr(r->note, "final summary is not in the text"));
    bl_out_free(&o);
}

/* zh_CN of CentOS 6/7 writes "字节" right after the count (old code: no record). */
static void test_zh_cn_without_space(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_str("[root@localhost ~]# dd if=/dev/zero of=test bs=1M count=1024 oflag=direct\n"
                  "记录了1024+0 的读入\n记录了1024+0 的写出\n"
                  "1073741824字节(1.1 GB)已复制，2.10339 秒，510 MB/秒\n"
                  "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.5 s, 307 MB/s\n"
                  "1073741824字节(1.1 GB, 1.0 GiB)已复制，3.5 s，307 MB/s\n",
                  &o),
        0);
    assert_int_equal(o.recs.n, 3);
    const bl_record *r = o.recs.v[0];
    assert_int_equal(r->line, 4);
    assert_int_equal(r->io_bytes, 1073741824);
    assert_double_equal(r->runtime_s, 2.10339, 1e-12);
    assert_true(bl_test_close(r->bw_bytes_s, 1073741824 / 2.10339, 1e-12));
    assert_int_equal(r->bs, 1048576);
    assert_int_equal(r->direct, BL_TRUE);
    assert_string_equal(r->test, "seq-write");
    assert_int_equal(o.recs.v[2]->line, 6);
    assert_double_equal(o.recs.v[2]->runtime_s, 3.5, 1e-12);
    assert_int_equal(o.recs.v[2]->io_bytes, 1073741824);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bs_suffixes),
        cmocka_unit_test(test_one_gib_blocks),
        cmocka_unit_test(test_blocks_against_bytes),
        cmocka_unit_test(test_rate_contradiction),
        cmocka_unit_test(test_rates_rounded_by_dd),
        cmocka_unit_test(test_freebsd_progress),
        cmocka_unit_test(test_freebsd_progress_without_summary),
        cmocka_unit_test(test_zh_cn_without_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

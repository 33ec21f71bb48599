/* The driver's labels from headings: every run stands under the nearest heading above it
 * (its own, or the one the run above stood under), except where that heading said something
 * of the run above only: its test (test_heading) or its tool ("ddで計測"). Prose that
 * introduces a second run of the same tool names it. Figures in bytes/s (dd: bytes / s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static int parse_string(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("s.txt", text, NULL, o);
}

/* The record at `line`, asserted to exist and be the only one there. */
static const bl_record *at_line(const bl_parse_out *o, int64_t line)
{
    const bl_record *found = NULL;
    for (size_t i = 0; i < o->recs.n; i++)
        if (o->recs.v[i]->line == line) {
            assert_null(found);
            found = o->recs.v[i];
        }
    assert_non_null(found);
    return found;
}

static void assert_label(const bl_record *r, const char *key, const char *want)
{
    const char *v = bl_record_label(r, key);
    if (!want) {
        assert_null(v);
        return;
    }
    assert_non_null(v);
    assert_string_equal(v, want);
}

#define DD(cmd, secs, rate)                                                                        \
    "$ " cmd "\n1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB, 1.0 GiB) "        \
    "copied, " secs " s, " rate " MB/s\n"

/* QA h6: the reads once had no section and were pooled across SSD and HDD
 * (587.5 ± 549.6 MB/s, n=2). */
static void test_reads_stand_under_their_heading(void **state)
{
    (void)state;
    const char *text = "SSD results\n"                             /* 1 */
                       "\n"                                        /* 2 */
        DD("dd if=/dev/zero of=x bs=1M count=1024", "2.1", "511")  /* 3-6 */
        "\n"                                                       /* 7 */
        DD("dd if=x of=/dev/null bs=1M count=1024", "1.1", "976")  /* 8-11 */
        "\n"                                                       /* 12 */
        "HDD results\n"                                            /* 13 */
        "\n"                                                       /* 14 */
        DD("dd if=/dev/zero of=x bs=1M count=1024", "6.1", "176")  /* 15-18 */
        "\n"                                                       /* 19 */
        DD("dd if=x of=/dev/null bs=1M count=1024", "5.4", "199"); /* 20-23 */
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(o.recs.n, 4);
    static const struct {
        int64_t line;
        const char *test, *section;
        double secs;
    } want[] = {{6, "seq-write", "SSD results", 2.1},
                {11, "seq-read", "SSD results", 1.1},
                {18, "seq-write", "HDD results", 6.1},
                {23, "seq-read", "HDD results", 5.4}};
    for (size_t i = 0; i < 4; i++) {
        const bl_record *r = at_line(&o, want[i].line);
        assert_string_equal(r->test, want[i].test);
        assert_label(r, "section", want[i].section);
        assert_int_equal(r->io_bytes, 1073741824);
        assert_double_equal(r->bw_bytes_s, 1073741824 / want[i].secs, 1e-3);
    }
    bl_out_free(&o);
}

/* A heading that only names the test of the run under it titles that test: a run below it
 * of the same test stands under it as test_heading; a run of another test stands under
 * nothing (not a section, which would make the title a set-up). */
static void test_inherited_test_title(void **state)
{
    (void)state;
    const char *text = "Sequential read\n"                               /* 1 */
                       "\n"                                              /* 2 */
        DD("dd if=/dev/sda of=/dev/null bs=1M count=1024", "2.0", "537") /* 3-6 */
        "\n"                                                             /* 7 */
        DD("dd if=/dev/sdb of=/dev/null bs=1M count=1024", "4.0", "268") /* 8-11 */
        "\n"                                                             /* 12 */
        DD("dd if=/dev/zero of=/mnt/x bs=1M count=1024", "8.0", "134");  /* 13-16 */
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(o.recs.n, 3);
    const bl_record *r = at_line(&o, 6);
    assert_label(r, "test_heading", "Sequential read");
    assert_label(r, "section", NULL);
    r = at_line(&o, 11);
    assert_string_equal(r->test, "seq-read");
    assert_double_equal(r->bw_bytes_s, 1073741824 / 4.0, 1e-3);
    assert_label(r, "test_heading", "Sequential read");
    assert_label(r, "section", NULL);
    r = at_line(&o, 16);
    assert_string_equal(r->test, "seq-write");
    assert_double_equal(r->bw_bytes_s, 1073741824 / 8.0, 1e-3);
    assert_label(r, "test_heading", NULL);
    assert_label(r, "section", NULL);
    bl_out_free(&o);
}

/* A set-up heading carries over to a run of another tool (QA blog1: dd then hdparm under
 * "Samsung 870 EVO", "and hdparm:" between them); a heading naming the tool of the run under
 * it does not (blog 004: "ddで計測", then fio-cdm after a mkfs). */
static void test_tool_heading(void **state)
{
    (void)state;
    const char *text = "Samsung 870 EVO\n"                                                /* 1 */
                       "\n"                                                               /* 2 */
        DD("dd if=/dev/zero of=/mnt/ssd/t bs=1M count=1024 conv=fdatasync", "2.1", "511") /* 3-6 */
        "\n"                                                                              /* 7 */
        "and hdparm:\n"                                                                   /* 8 */
        "\n"                                                                              /* 9 */
        "$ sudo hdparm -t /dev/sda\n"                                                     /* 10 */
        "\n"                                                                              /* 11 */
        "/dev/sda:\n"                                                                     /* 12 */
        " Timing buffered disk reads: 1596 MB in  3.00 seconds = 531.88 MB/sec\n"         /* 13 */
        "\n"                                                                              /* 14 */
        "dd results\n"                                                                    /* 15 */
        "\n"                                                                              /* 16 */
        DD("dd if=/dev/zero of=/mnt/hdd/t bs=1M count=1024 conv=fdatasync", "6.9",
           "156")                                                                 /* 17-20 */
        "\n"                                                                      /* 21 */
        "$ sudo hdparm -t /dev/sdb\n"                                             /* 22 */
        "\n"                                                                      /* 23 */
        "/dev/sdb:\n"                                                             /* 24 */
        " Timing buffered disk reads: 534 MB in  3.01 seconds = 177.41 MB/sec\n"; /* 25 */
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(o.recs.n, 4);
    assert_label(at_line(&o, 6), "section", "Samsung 870 EVO");
    const bl_record *r = at_line(&o, 13);
    assert_string_equal(r->tool, "hdparm");
    assert_double_equal(r->bw_bytes_s, 531.88 * 1048576, 1e-3);
    assert_label(r, "section", "Samsung 870 EVO");
    assert_label(at_line(&o, 20), "section", "dd results");
    r = at_line(&o, 25);
    assert_double_equal(r->bw_bytes_s, 177.41 * 1048576, 1e-3);
    assert_label(r, "section", NULL);
    assert_label(r, "test_heading", NULL);
    bl_out_free(&o);
}

/* Prose alone before a run that repeats the tests of the run above says what differs and
 * names it (QA b4: "After tuning ..., CSV only:"); a run without any heading above stays
 * unlabelled. */
static void test_intro_names_same_tool_run(void **state)
{
    (void)state;
    const char *text = DD("dd if=/dev/zero of=x bs=1M count=1024", "3.0", "358") /* 1-4 */
        "\n"                                                                     /* 5 */
        "Before tuning\n"                                                        /* 6 */
        "\n"                                                                     /* 7 */
        DD("dd if=/dev/zero of=x bs=1M count=1024", "2.1", "511")                /* 8-11 */
        "\n"                                                                     /* 12 */
        "After tuning (noatime, deadline scheduler):\n"                          /* 13 */
        "\n"                                                                     /* 14 */
        DD("dd if=/dev/zero of=x bs=1M count=1024", "1.9", "565");               /* 15-18 */
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(o.recs.n, 3);
    assert_label(at_line(&o, 4), "section", NULL);
    assert_label(at_line(&o, 11), "section", "Before tuning");
    const bl_record *r = at_line(&o, 18);
    assert_double_equal(r->bw_bytes_s, 1073741824 / 1.9, 1e-3);
    assert_label(r, "section", "After tuning (noatime, deadline scheduler)");
    bl_out_free(&o);
}

/* Prose before the next test of a series titles the test, not a set-up: the reads stay under
 * "SSD results" and "HDD results" rather than both under "Read" (pooled again). */
static void test_intro_of_next_test_continues(void **state)
{
    (void)state;
    const char *text = "SSD results\n"                             /* 1 */
                       "\n"                                        /* 2 */
                       "Write:\n"                                  /* 3 */
                       "\n"                                        /* 4 */
        DD("dd if=/dev/zero of=x bs=1M count=1024", "2.1", "511")  /* 5-8 */
        "\n"                                                       /* 9 */
        "Read:\n"                                                  /* 10 */
        "\n"                                                       /* 11 */
        DD("dd if=x of=/dev/null bs=1M count=1024", "1.1", "976")  /* 12-15 */
        "\n"                                                       /* 16 */
        "HDD results\n"                                            /* 17 */
        "\n"                                                       /* 18 */
        "Write:\n"                                                 /* 19 */
        "\n"                                                       /* 20 */
        DD("dd if=/dev/zero of=x bs=1M count=1024", "6.1", "176")  /* 21-24 */
        "\n"                                                       /* 25 */
        "Read:\n"                                                  /* 26 */
        "\n"                                                       /* 27 */
        DD("dd if=x of=/dev/null bs=1M count=1024", "5.4", "199"); /* 28-31 */
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(o.recs.n, 4);
    assert_label(at_line(&o, 8), "section", "SSD results");
    const bl_record *r = at_line(&o, 15);
    assert_double_equal(r->bw_bytes_s, 1073741824 / 1.1, 1e-3);
    assert_label(r, "section", "SSD results");
    assert_label(at_line(&o, 24), "section", "HDD results");
    r = at_line(&o, 31);
    assert_double_equal(r->bw_bytes_s, 1073741824 / 5.4, 1e-3);
    assert_label(r, "section", "HDD results");
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_stand_under_their_heading),
        cmocka_unit_test(test_inherited_test_title),
        cmocka_unit_test(test_tool_heading),
        cmocka_unit_test(test_intro_names_same_tool_run),
        cmocka_unit_test(test_intro_of_next_test_continues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

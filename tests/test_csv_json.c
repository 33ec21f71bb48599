/* export --csv reads each stored record's JSON text in place (core/csv.h) instead of decoding
 * it: the row must be the one the decoded record gives, for the text benchlog writes and for
 * every text its reader would read otherwise (escapes, repeated keys, numbers at the edges,
 * labels that are not strings, a "99" percentile written two ways), and no row at all where
 * the decoder refuses the text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/csv.h"
#include "../core/jsonl.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The row both ways; returns the direct one (caller frees), NULL when refused. */
static char *both(const char *json)
{
    bl_strbuf direct, decoded;
    bl_strbuf_init(&direct);
    bl_strbuf_init(&decoded);
    int rc = bl_csv_row_json(&direct, json, strlen(json));
    bl_record *r = bl_record_from_json(json, strlen(json), NULL, 0);
    if (r)
        bl_csv_row(&decoded, r);
    bl_record_free(r);
    if (!r) {
        assert_int_equal(rc, -1);
        assert_int_equal(direct.len, 0);
    } else {
        assert_int_equal(rc, 0);
        if (strcmp(direct.s, decoded.s) != 0)
            fail_msg("%s\n direct:  %s decoded: %s", json, direct.s, decoded.s);
    }
    bl_strbuf_free(&decoded);
    return r ? bl_strbuf_take(&direct) : (bl_strbuf_free(&direct), NULL);
}

/* A record as benchlog writes it: fio 3.33's "bw=1879MiB/s (1970MB/s)", clat percentiles. */
static const char fio[] =
    "{\"source\":\"bench/nas00.txt\",\"line\":10,\"run\":1,\"tool\":\"fio\",\"tool_version\":"
    "\"3.33\",\"labels\":{\"host\":\"nas00\",\"section\":\"夜間, \\\"nightly\\\"\"},\"test\":"
    "\"seq-read\",\"op\":\"read\",\"pattern\":\"seq\",\"bs\":1048576,\"iodepth\":8,"
    "\"numjobs\":1,\"direct\":true,\"bw_bytes_s\":1970280000,\"iops\":1877.6472,\"clat_ns\":"
    "{\"mean\":4267420,\"p\":{\"1\":2176384.2,\"50\":4267420,\"99\":6358455.8,\"99.5\":"
    "19139378.700000003}},\"lat_ns\":{\"mean\":0.000123}}";

static void test_as_written(void **state)
{
    (void)state;
    char *row = both(fio);
    assert_non_null(row);
    /* source,line,run,tool,tool_version,labels,test,op,pattern,bs,iodepth,numjobs,... */
    assert_non_null(strstr(row, "bench/nas00.txt,10,1,fio,3.33,"
                                "\"host=nas00; section=夜間, \"\"nightly\"\"\",seq-read,"));
    assert_non_null(strstr(row, ",1048576,8,1,"));
    assert_non_null(strstr(row, ",1970280000,1877.6472,4267420,6358455.8,0.000123,"));
    free(row);
}

static void test_numbers(void **state)
{
    (void)state;
    static const char *const nums[] = {
        "0",
        "-0",
        "12",
        "123456789012345",
        "1234567890123456",
        "999999999999999999",
        "1.5",
        "1.50",
        "0.0001",
        "0.00001",
        "1e3",
        "1E-3",
        "-2.5e+2",
        "1e308",
        "1e309",
        "1e999",
        "1531650000.0000002",
        "1482.9099999999999",
        "0.1",
        "100000000000000.5",
        "null",
        "\"12\"",
        "true",
        "[1]",
        "{\"a\":1}",
        "-",
        "01",
        "1.",
        ".5",
        "1e",
        "123456789012345678901234",
    };
    char json[256];
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        snprintf(json, sizeof json,
                 "{\"bw_bytes_s\":%s,\"bs\":%s,\"clat_ns\":{\"mean\":%s,"
                 "\"p\":{\"99\":%s}}}",
                 nums[i], nums[i], nums[i], nums[i]);
        free(both(json));
    }
}

static void test_strings_and_labels(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"tool\":\"a\\u0062c\",\"note\":\"tab\\there\"}",
        "{\"tool\":\"nul\\u0000\"}",
        "{\"tool\":\"\\ud83d\\ude00\"}",
        "{\"tool\":\"\\ud83d\"}",
        "{\"tool\":\"bad \xff utf-8\"}",
        "{\"tool\":\"overlong \xc0\xaf\"}",
        "{\"tool\":\"raw\ncontrol\"}",
        "{\"tool\":\"a\",\"tool\":\"b\"}",
        "{\"labels\":{\"a\":\"1\",\"b\":2,\"c\":\"3\"}}",
        "{\"labels\":{\"a\":\"1\",\"a\":\"2\"}}",
        "{\"labels\":{\"a\":\"1\"},\"labels\":{\"b\":\"2\"}}",
        "{\"labels\":{\"a\":\"1\"},\"labels\":7}",
        "{\"labels\":[\"a\"]}",
        "{\"labels\":{\"\":\"\",\"k\":\"\"}}",
        "{\"direct\":false,\"unknown\":{\"deep\":[[[[1,2,{\"x\":null}]]]]}}",
        "{\"clat_ns\":{\"p\":{\"99\":1,\"99.0\":2}}}",
        "{\"clat_ns\":{\"p\":{\"99\":1,\"99\":2}}}",
        "{\"clat_ns\":{\"p\":{\"99\":1},\"p\":5}}",
        "{\"clat_ns\":{\"p\":{\"099\":3,\"1\":\"x\"}}}",
        "{\"clat_ns\":{\"p\":{\"9.9e1\":4}}}",
        "{\"clat_ns\":7,\"lat_ns\":{}}",
        "{\"clat_ns\":{\"mean\":1,\"mean\":2}}",
        /* found by fuzz_csv: a negative bin count made the decoder's cast undefined */
        "{\"clat_ns\":{\"mean\":1,\"bins\":[[1000,-5],[2000,3],[3000,1e300]]}}",
        "{}",
        "[]",
        "{\"tool\":\"a\"} trailing",
        "{\"tool\":\"a\",}",
        "{\"tool\" \"a\"}",
        "",
        "{\"tool\":\"a\"",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        free(both(texts[i]));
}

/* Every record of the corpus as the parsers make it, through the JSON text. */
static void test_corpus_records(void **state)
{
    (void)state;
    char *path = bl_test_corpus("blog/001_8562a4b6946fb1ec.txt");
    if (!path)
        bl_skip_because("BENCHLOG_CORPUS is not set");
    static const char *const files[] = {
        "blog/000_bed2622bff3958ce.txt", "blog/001_8562a4b6946fb1ec.txt",
        "blog/003_c0a3f5a42cdf17b6.txt", "blog/004_8160137f383e9f6d.txt"};
    free(path);
    size_t n = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char *p = bl_test_corpus(files[f]);
        bl_parse_out o;
        bl_test_parse(p, NULL, &o);
        for (size_t i = 0; i < o.recs.n; i++, n++) {
            bl_strbuf js;
            bl_strbuf_init(&js);
            bl_record_to_json(o.recs.v[i], &js);
            free(both(js.s));
            bl_strbuf_free(&js);
        }
        bl_out_free(&o);
        free(p);
    }
    assert_true(n > 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_as_written),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_strings_and_labels),
        cmocka_unit_test(test_corpus_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

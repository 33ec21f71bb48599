/* The store's records are read back by a fast reader (core/record_decode.h) that falls back
 * to jansson where unsure: wherever it answers, the record must be the one jansson's path
 * gives, field for field (compared as the JSON each writes back). Every record of fixtures/
 * and of the corpus goes both ways, then hostile texts (escapes, \u0000, surrogates, numbers
 * at the edges of double, -0, repeated keys, deep nesting, cut text). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/fields.h"
#include "../core/jsonl.h"
#include "../core/record_decode.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Parts of a record a pass may want (record_decode.h): the workbook's first walk (where from,
 * labels, devices, which latencies and percentiles), a few scalars and the series, all. */
static const char *const want_names[][12] = {
    {"source", "line", "run", "tool", "tool_version", "labels", "clat_ns", "slat_ns", "lat_ns",
     "sync_ns", "disk_util", NULL},
    {"test", "bs", "labels", "series", "lat_dist", NULL},
    {NULL},
};
#define N_WANTS 4

static bl_decode_want want_of(size_t w)
{
    bl_decode_want want = {0, w != 1};
    if (w == 3)
        want.fields = ~0ULL;
    for (size_t i = 0; w < 3 && want_names[w][i]; i++)
        want.fields |= BL_DECODE_FIELD(bl_field_find(want_names[w][i]) - bl_fields);
    return want;
}

/* A record's JSON as jansson holds it. */
static json_t *tree(const bl_record *r)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_record_to_json(r, &sb);
    json_t *o = json_loads(sb.s, 0, NULL);
    assert_non_null(o);
    bl_strbuf_free(&sb);
    return o;
}

/* jansson's record less what want leaves out (percentile values 0, as pct_keys reads them). */
static json_t *restricted(const bl_record *dom, const bl_decode_want *want)
{
    json_t *o = tree(dom);
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        json_t *v = json_object_get(o, f->name);
        if (!v)
            continue;
        if (!(want->fields & BL_DECODE_FIELD(i))) {
            json_object_del(o, f->name);
        } else if (want->pct_keys && f->kind == BL_FK_LAT) {
            json_object_del(v, "min");
            json_object_del(v, "max");
            json_object_del(v, "stdev");
            json_object_del(v, "bins");
            json_t *p = json_object_get(v, "p"), *x;
            const char *k;
            json_object_foreach(p, k, x) json_object_set_new(p, k, json_integer(0));
        }
    }
    return o;
}

/* Read in part, the record is jansson's less the parts left out (compared as jansson reads
 * both written back), or NULL. */
static void same_in_part(const char *text, size_t len, const bl_record *dom)
{
    for (size_t w = 0; w < N_WANTS; w++) {
        bl_decode_want want = want_of(w);
        bl_record *part = bl_record_decode_want(text, len, &want);
        if (part && !dom)
            fail_msg("read in part what jansson refuses: %.*s", (int)len, text);
        if (part) {
            json_t *a = restricted(dom, &want), *b = tree(part);
            if (!json_equal(a, b)) {
                char *x = json_dumps(a, JSON_COMPACT), *y = json_dumps(b, JSON_COMPACT);
                fail_msg("%.*s\n want %zu, jansson: %s\n in part: %s", (int)len, text, w, x, y);
            }
            json_decref(a);
            json_decref(b);
        }
        bl_record_free(part);
    }
}

typedef struct tally {
    size_t records, fast, fell_back;
} tally;

/* text both ways: the fast answer (or NULL when it falls back) must equal jansson's.
 * Returns 1 when the fast path answered. */
static int same(const char *text, size_t len, tally *t)
{
    bl_record *dom = bl_record_from_json_dom(text, len, NULL, 0);
    bl_record *fast = bl_record_decode_fast(text, len);
    if (fast && !dom)
        fail_msg("fast read what jansson refuses: %.*s", (int)len, text);
    int answered = fast != NULL;
    if (fast) {
        bl_strbuf a, b;
        bl_strbuf_init(&a);
        bl_strbuf_init(&b);
        bl_record_to_json(dom, &a);
        bl_record_to_json(fast, &b);
        if (strcmp(a.s, b.s) != 0)
            fail_msg("%.*s\n jansson: %s\n fast:    %s", (int)len, text, a.s, b.s);
        bl_strbuf_free(&a);
        bl_strbuf_free(&b);
    }
    same_in_part(text, len, dom);
    if (t) {
        t->records++;
        answered ? t->fast++ : t->fell_back++;
    }
    bl_record_free(dom);
    bl_record_free(fast);
    return answered;
}

static int same_str(const char *text)
{
    return same(text, strlen(text), NULL);
}

static void check_file(const char *path, tally *t)
{
    bl_parse_out o;
    bl_out_init(&o, path);
    bl_parse_opts opts = {0};
    bl_parse_source(path, &opts, &o, NULL);
    for (size_t i = 0; i < o.recs.n; i++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_record_to_json(o.recs.v[i], &sb);
        same(sb.s, sb.len, t);
        bl_strbuf_free(&sb);
    }
    bl_out_free(&o);
}

static void walk(const char *dir, tally *t)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char full[2048];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(full, t);
        else if (S_ISREG(st.st_mode))
            check_file(full, t);
    }
    closedir(d);
}

static void test_every_fixture_record(void **state)
{
    (void)state;
    tally t = {0};
    walk("fixtures", &t);
    print_message("fixtures: %zu records, %zu read fast, %zu fell back\n", t.records, t.fast,
                  t.fell_back);
    assert_true(t.records > 500);
    /* what benchlog writes is what the fast reader is for: a fallback there is a slow path
     * taken for nothing (control characters in a label are written \u00XX: those few) */
    assert_true(t.fell_back * 100 <= t.records);
}

static void test_every_corpus_record(void **state)
{
    (void)state;
    const char *corpus = getenv("BENCHLOG_CORPUS");
    struct stat st;
    if (!corpus || stat(corpus, &st) != 0 || !S_ISDIR(st.st_mode))
        bl_skip_because("BENCHLOG_CORPUS is not set or absent");
    tally t = {0};
    walk(corpus, &t);
    print_message("corpus: %zu records, %zu read fast, %zu fell back\n", t.records, t.fast,
                  t.fell_back);
    assert_true(t.records > 0);
    assert_true(t.fell_back * 100 <= t.records);
}

/* A record as benchlog writes it, read fast to its real figures. */
static const char fio[] =
    "{\"source\":\"bench/nas00.txt\",\"line\":10,\"run\":1,\"tool\":\"fio\",\"tool_version\":"
    "\"3.33\",\"labels\":{\"host\":\"nas00\",\"section\":\"夜間, \\\"nightly\\\"\"},\"test\":"
    "\"seq-read\",\"op\":\"read\",\"pattern\":\"seq\",\"bs\":1048576,\"iodepth\":8,"
    "\"numjobs\":1,\"direct\":true,\"bw_bytes_s\":1970280000,\"iops\":1877.6472,\"clat_ns\":"
    "{\"min\":2,\"mean\":4267420,\"p\":{\"1\":2176384.2,\"50\":4267420,\"99\":6358455.8,"
    "\"99.5\":19139378.700000003},\"bins\":[[1000,3],[2000,5]]},\"lat_ns\":{\"mean\":0.000123}}";

static void test_figures(void **state)
{
    (void)state;
    bl_record *r = bl_record_decode_fast(fio, strlen(fio));
    assert_non_null(r);
    assert_string_equal(r->tool, "fio");
    assert_string_equal(bl_record_label(r, "section"), "夜間, \"nightly\"");
    assert_int_equal(r->bs, 1048576);
    assert_true(r->bw_bytes_s == 1970280000.0);
    assert_true(r->iops == 1877.6472);
    assert_int_equal(r->clat_ns.n_pct, 4);
    assert_true(r->clat_ns.pct[2].pct == 99 && r->clat_ns.pct[2].value == 6358455.8);
    assert_true(r->clat_ns.pct[3].value == 19139378.700000003);
    assert_int_equal(r->clat_ns.n_bins, 2);
    assert_true(r->clat_ns.bins[1].value == 2000 && r->clat_ns.bins[1].count == 5);
    assert_true(r->lat_ns.mean == 0.000123);
    bl_record_free(r);
    assert_int_equal(same_str(fio), 1);
}

/* Texts the fast reader answers: they must come out as jansson reads them. */
static void test_answers_as_jansson(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{}",
        " \t\r\n{ \"tool\" : \"dd\" , \"bs\" : 4096 } \n",
        /* -0 is jansson's integer 0; -0.0 a real */
        "{\"bw_bytes_s\":-0,\"iops\":-0.0,\"bs\":-0}",
        "{\"bs\":-5,\"iodepth\":4.0,\"numjobs\":4.5,\"run\":1e3,\"line\":-1.5}",
        /* 17 digits, past 2^53, beyond the fast path's 10^22, near the smallest normal */
        "{\"iops\":2.2250738585072014e-38,\"bw_bytes_s\":123456789012345678e-5}",
        "{\"iops\":0.1,\"bw_bytes_s\":9007199254740993,\"runtime_s\":1.7976931348623157e30}",
        "{\"iops\":0.30000000000000004,\"bw_bytes_s\":4.35e-23,\"runtime_s\":9.5e99}",
        "{\"iops\":1E+22,\"bw_bytes_s\":1e23,\"runtime_s\":0.000000000000000000001}",
        "{\"iops\":123456789012345.6,\"bw_bytes_s\":1234567890123456e-3}",
        /* wrong types are skipped as jsonl.c skips them */
        "{\"tool\":5,\"bs\":\"x\",\"direct\":null,\"clat_ns\":[1],\"labels\":[],\"disks\":{}}",
        "{\"direct\":false,\"clat_ns\":{\"p\":[1],\"bins\":{}},\"lat_ns\":{}}",
        /* percentile keys are read by strtod's prefix: whatever it makes of them */
        "{\"clat_ns\":{\"p\":{\" 50\":1,\"0x10\":2,\"1e500\":3,\"inf\":4,\"50abc\":5,"
        "\"-0\":6,\"1e-5\":7,\"99.900000000000006\":8,\"x\":9,\"\":10,\"1.5E+1\":11}}}",
        "{\"clat_ns\":{\"bins\":[1,[2],[3,\"x\"],[4,-1],[5,2e20],[6,7,8],[\"a\",1]]}}",
        "{\"labels\":{\"a\":\"1\",\"b\":2,\"c\":null,\"\":\"empty\",\"d\":{\"x\":[1,{}]}}}",
        "{\"disks\":[1,\"x\",{\"read_ios\":5,\"util_pct\":99.5},{\"name\":\"sda\",\"read_ios\":1.5}"
        "]}",
        "{\"series\":[{\"name\":\"bw\",\"t\":[1,2,3],\"v\":[4,\"x\",null]},{\"t\":5},7]}",
        /* unknown members of any shape */
        "{\"zzz\":{\"a\":[[[[{}]]]],\"b\":\"\\\"\\\\\\/"
        "\\b\\f\\n\\r\\t\"},\"tool\":\"fio\",\"zzz\":1}",
        "{\"tool\":\"\\\"quoted\\\"\\n\",\"note\":\"é 夜 \xf0\x9f\x98\x80\"}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        if (!same_str(texts[i]))
            fail_msg("fell back on %s", texts[i]);
}

/* Texts where it must give jansson's answer or fall back (NULL) */
static void test_hostile(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"tool\":\"a\\u0000b\"}",
        "{\"tool\":\"\\u00e9\\ud83d\\ude00\"}",
        "{\"tool\":\"\\ud83d\"}",
        "{\"tool\":\"\\ude00x\"}",
        "{\"t\\u006fol\":\"x\"}",
        "{\"labels\":{\"k\\u0000\":\"v\"}}",
        "{\"tool\":\"a\",\"tool\":\"b\"}",
        "{\"labels\":{\"a\":\"1\",\"a\":\"2\"}}",
        "{\"labels\":{\"a\":\"1\"},\"labels\":{\"b\":\"2\"}}",
        "{\"clat_ns\":{\"p\":{\"50\":1,\"50\":2}}}",
        "{\"clat_ns\":{\"p\":{\"50\":1,\"50.0\":2}}}",
        "{\"clat_ns\":{\"min\":1,\"min\":2}}",
        "{\"iops\":1e309}",
        "{\"iops\":4.9406564584124654e-324,\"bw_bytes_s\":2.2250738585072014e-308}",
        "{\"iops\":1e-400,\"bw_bytes_s\":1.7976931348623157e308}",
        "{\"iops\":1000000000000000000000000000000000000000000000000000000000000e99}",
        "{\"iops\":-1e999}",
        "{\"bs\":9223372036854775807}",
        "{\"bs\":9223372036854775808}",
        "{\"bs\":123456789012345678901234567890}",
        "{\"iops\":01}",
        "{\"iops\":1.}",
        "{\"iops\":.5}",
        "{\"iops\":+1}",
        "{\"iops\":NaN}",
        "{\"iops\":1,}",
        "{\"iops\":1} x",
        "{\"iops\":1}{}",
        "{\"direct\":tru}",
        "{\"direct\":truex}",
        "[1]",
        "\"x\"",
        "",
        "{",
        "{\"tool\":\"fio",
        "{\"tool\":\"\xff\"}",
        "{\"tool\":\"\xc0\xaf\"}",
        "{\"tool\":\"\xed\xa0\x80\"}",
        "{\"tool\":\"a\tb\"}",
        ("{\"zzz\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
         "]"
         "}"),
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        same_str(texts[i]);
    /* cut anywhere, the written record is refused or read as jansson reads it */
    for (size_t n = 0; n < strlen(fio); n++)
        assert_int_equal(same(fio, n, NULL), 0);
    /* within the scanner's 300 characters and two-digit exponent, yet past double */
    char big[400] = "{\"iops\":1";
    memset(big + strlen(big), '0', 250);
    strcpy(big + 260, "e99}");
    assert_int_equal(same_str(big), 0);
    /* the same left out, in a field or a percentile's value: still a doubt (jansson refuses) */
    for (size_t w = 0; w < N_WANTS; w++) {
        bl_decode_want want = want_of(w);
        want.fields &= ~BL_DECODE_FIELD(bl_field_find("iops") - bl_fields);
        assert_null(bl_record_decode_want(big, strlen(big), &want));
    }
    char pct[400] = "{\"clat_ns\":{\"p\":{\"99\":1";
    memset(pct + strlen(pct), '0', 250);
    strcpy(pct + strlen(pct), "e99}}}");
    assert_int_equal(same_str(pct), 0);
    bl_decode_want first = want_of(0);
    assert_null(bl_record_decode_want(pct, strlen(pct), &first));
    /* a NUL inside the length */
    static const char nul[] = "{\"tool\":\"a\0b\"}";
    assert_int_equal(same(nul, sizeof nul - 1, NULL), 0);
    /* jansson's answers where the fast reader stands back: the second value, \u decoded */
    bl_record *r = bl_record_from_json("{\"tool\":\"a\",\"tool\":\"b\"}", 23, NULL, 0);
    assert_non_null(r);
    assert_string_equal(r->tool, "b");
    bl_record_free(r);
    const char *u = "{\"tool\":\"\\u00e9\"}";
    r = bl_record_from_json(u, strlen(u), NULL, 0);
    assert_non_null(r);
    assert_string_equal(r->tool, "é");
    bl_record_free(r);
    r = bl_record_from_json("{\"bs\":-0}", 9, NULL, 0);
    assert_non_null(r);
    assert_int_equal(r->bs, 0);
    bl_record_free(r);
}

/* The store's per-row labels (json_extract(json, '$.labels')): read fast, the labels of
 * jansson's reading of {"labels":TEXT}, or NULL. */
static void test_labels(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"host\":\"nas00\",\"section\":\"夜間, \\\"nightly\\\"\"}",
        "{}",
        " {\"a\":1,\"b\":null,\"c\":\"x\",\"d\":[\"y\"]} ",
        "{\"a\":\"1\",\"a\":\"2\"}",
        "{\"a\":\"\\u0001\"}",
        "{\"a\\\"b\":\"c\"}",
        "{\"a\":\"1\"",
        "[\"a\"]",
        "abc",
        "",
    };
    int answered = 0;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        bl_strbuf w;
        bl_strbuf_init(&w);
        bl_strbuf_printf(&w, "{\"labels\":%s}", texts[i]);
        bl_record *dom = bl_record_from_json_dom(w.s, w.len, NULL, 0);
        bl_record *fast = bl_labels_decode_fast(texts[i], strlen(texts[i]));
        if (fast) {
            answered++;
            assert_non_null(dom);
            assert_int_equal(fast->n_labels, dom->n_labels);
            for (size_t k = 0; k < dom->n_labels; k++) {
                assert_string_equal(fast->labels[k].key, dom->labels[k].key);
                assert_string_equal(fast->labels[k].value, dom->labels[k].value);
            }
        }
        bl_record_free(dom);
        bl_record_free(fast);
        bl_strbuf_free(&w);
    }
    assert_int_equal(answered, 3);
    bl_record *r = bl_labels_decode_fast(texts[0], strlen(texts[0]));
    assert_non_null(r);
    assert_string_equal(bl_record_label(r, "section"), "夜間, \"nightly\"");
    bl_record_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figures),
        cmocka_unit_test(test_answers_as_jansson),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_every_fixture_record),
        cmocka_unit_test(test_every_corpus_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

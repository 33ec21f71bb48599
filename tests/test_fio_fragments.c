/* Fragments of fio's normal output, as posts quote them: a result block without its job
 * header, the "Run status group" lines alone. Each gives the records it holds, the same
 * figures as the whole output, said to be fragments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static int parse_str(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("post", text, NULL, o);
}

/* Lines first..last (1-based) of a fixture, after an opening line of prose. */
static char *cut(const char *rel, size_t first, size_t last, bl_text *whole)
{
    char buf[256], err[128];
    assert_int_equal(bl_text_load(whole, bl_test_fixture(rel, buf, sizeof buf), err, sizeof err),
                     0);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "Here is what fio printed here:\n\n");
    for (size_t i = first; i <= last && i <= whole->nlines; i++)
        bl_strbuf_printf(&sb, "%s\n", whole->line[i - 1]);
    return bl_strbuf_take(&sb);
}

static size_t find_line(const bl_text *t, const char *prefix)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (strncmp(t->line[i], prefix, strlen(prefix)) == 0)
            return i + 1;
    fail_msg("no line starting with '%s'", prefix);
    return 0;
}

/* The figures of a record without what only the job header gives (labels, options, test)
 * and without where it stands. */
static char *figures(const bl_record *r)
{
    bl_record *c = bl_record_clone(r);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < c->n_labels; i++) {
        free(c->labels[i].key);
        free(c->labels[i].value);
    }
    free(c->labels);
    c->labels = NULL;
    c->n_labels = 0;
    bl_record_set_str(&c->note, NULL);
    bl_record_set_str(&c->test, NULL);
    bl_record_set_str(&c->pattern, NULL);
    bl_record_set_str(&c->ioengine, NULL);
    bl_record_set_str(&c->tool_version, NULL);
    bl_record_set_str(&c->when, NULL); /* read from the header's date, as the labels are */
    bl_record_set_str(&c->when_from, NULL);
    c->bs = c->iodepth = c->numjobs = -1;
    c->direct = BL_TRI_ABSENT;
    c->line = 0;
    bl_record_to_json(c, &sb);
    bl_record_free(c);
    return bl_strbuf_take(&sb);
}

/* The read and write blocks of randrw without the "mix: (groupid=0...)" line, among prose. */
static void test_block_without_header(void **state)
{
    (void)state;
    bl_text whole;
    const char *rel = "fio/fragments/randrw-3.33.out";
    bl_parse_out all, frag;
    char *text = cut(rel, 1, 1, &whole);
    size_t first = find_line(&whole, "  read: IOPS="), last = find_line(&whole, "Run status");
    size_t disks = find_line(&whole, "Disk stats");
    free(text);
    bl_text_free(&whole);
    text = cut(rel, 1, disks - 1, &whole); /* whole but the devices, which are the run's */
    assert_int_equal(parse_str(text, &all), 0);
    assert_int_equal(all.recs.n, 2);
    free(text);
    bl_text_free(&whole);
    text = cut(rel, first, last - 1, &whole);
    assert_int_equal(parse_str(text, &frag), 0);
    assert_int_equal(frag.recs.n, 2);
    for (size_t i = 0; i < 2; i++) {
        const bl_record *r = frag.recs.v[i];
        assert_string_equal(r->op, i == 0 ? "read" : "write");
        assert_null(bl_record_label(r, "job"));
        assert_non_null(r->note);
        assert_non_null(strstr(r->note, "job header missing"));
        assert_true(r->clat_ns.present && r->clat_ns.n_pct > 5);
        char *a = figures(all.recs.v[i]), *b = figures(r);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    /* its line is its own direction line: 2 lines of prose, then the block */
    assert_int_equal(frag.recs.v[0]->line, 3);
    assert_string_equal(whole.line[first - 1],
                        "  read: IOPS=33, BW=133KiB/s (136kB/s)(280KiB/2113msec)");
    assert_double_equal(frag.recs.v[0]->bw_bytes_s, 133 * 1024, 0);
    assert_int_equal(frag.recs.v[0]->io_bytes, 280 * 1024);
    assert_double_equal(frag.recs.v[0]->runtime_s, 2.113, 1e-12);
    assert_null(frag.recs.v[0]->test); /* nothing in the text says random or sequential */
    free(text);
    bl_out_free(&frag);
    bl_out_free(&all);
    bl_text_free(&whole);
}

/* With the job definition line above, the block's test and options are known. */
static void test_block_with_definition(void **state)
{
    (void)state;
    bl_text whole;
    const char *rel = "fio/fragments/randwrite-3.33.out";
    char *text = cut(rel, 1, 1, &whole);
    size_t first = find_line(&whole, "  write: IOPS="), last = find_line(&whole, "Run status");
    bl_text_free(&whole);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, text);
    free(text);
    text = cut(rel, first, last - 1, &whole);
    bl_strbuf_puts(&sb, "\nand the result block (I left out the header line):\n\n");
    bl_strbuf_puts(&sb, text);
    free(text);
    bl_parse_out o;
    assert_int_equal(parse_str(sb.s, &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->test, "rand-write");
    assert_int_equal(r->bs, 4096);
    assert_string_equal(r->ioengine, "psync");
    assert_double_equal(r->iops, 112e3, 0);
    assert_double_equal(r->bw_bytes_s, 437.0 * 1048576, 0);
    assert_int_equal(r->io_bytes, 896LL * 1048576);
    assert_non_null(strstr(r->note, "job header missing"));
    bl_strbuf_free(&sb);
    bl_out_free(&o);
    bl_text_free(&whole);
}

/* The status lines alone: one group-total record a direction, labelled so. */
static void test_status_group_alone(void **state)
{
    (void)state;
    bl_text whole;
    const char *rel = "fio/fragments/randrw-3.33.out";
    char *text = cut(rel, 1, 1, &whole);
    size_t first = find_line(&whole, "Run status group");
    free(text);
    bl_text_free(&whole);
    text = cut(rel, first, first + 2, &whole);
    bl_parse_out o;
    assert_int_equal(parse_str(text, &o), 0);
    assert_int_equal(o.recs.n, 2);
    static const struct {
        const char *op;
        double bw;
        int64_t io;
    } want[] = {{"read", 133 * 1024, 280 * 1024}, {"write", 138 * 1024, 292 * 1024}};
    for (size_t i = 0; i < 2; i++) {
        const bl_record *r = o.recs.v[i];
        assert_string_equal(r->op, want[i].op);
        assert_double_equal(r->bw_bytes_s, want[i].bw, 0);
        assert_int_equal(r->io_bytes, want[i].io);
        assert_double_equal(r->runtime_s, 2.113, 1e-12);
        assert_string_equal(bl_record_label(r, "scope"), "group total");
        assert_string_equal(bl_record_label(r, "group"), "0");
        assert_null(bl_record_label(r, "job"));
        assert_false(bl_present(r->iops));
        assert_non_null(strstr(r->note, "group total"));
        assert_int_equal(r->line, (long)i + 4);
    }
    free(text);
    bl_out_free(&o);
    bl_text_free(&whole);
    /* the whole output gives its jobs, never the group total beside them */
    char buf[256];
    bl_out_init(&o, "all");
    assert_int_equal(bl_test_parse(bl_test_fixture(rel, buf, sizeof buf), NULL, &o), 0);
    assert_int_equal(o.recs.n, 2);
    for (size_t i = 0; i < 2; i++)
        assert_null(bl_record_label(o.recs.v[i], "scope"));
    bl_out_free(&o);
}

/* fio 2.x's status line (aggrb, maxt), from a corpus file. */
static void test_status_group_2x(void **state)
{
    (void)state;
    char *p = bl_test_corpus("fio-normal/fio-2.2.10_randwrite_8jobs_concat.txt");
    if (!p)
        skip();
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_load(&t, p, err, sizeof err), 0);
    size_t first = find_line(&t, "Run status group");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s\n%s\n", t.line[first - 1], t.line[first]);
    bl_parse_out o;
    assert_int_equal(parse_str(sb.s, &o), 0);
    assert_int_equal(o.recs.n, 1);
    /* "  WRITE: io=4096.0MB, aggrb=70021KB/s, ..., mint=59900msec, maxt=59900msec" */
    assert_string_equal(o.recs.v[0]->op, "write");
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 70021.0 * 1024, 0);
    assert_int_equal(o.recs.v[0]->io_bytes, 4096LL * 1048576);
    assert_double_equal(o.recs.v[0]->runtime_s, 59.9, 1e-12);
    bl_strbuf_free(&sb);
    bl_out_free(&o);
    bl_text_free(&t);
    free(p);
}

/* Two "Run status group 0" blocks pasted apart are two runs: fio prints each group's status
 * once, in order, so one output never holds group 0 twice (QA: they were one run, whose
 * read and write a comparison would show as one set-up's). */
static void test_status_group_pasted_twice(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_str("Here are my results on the new array:\n\n"
                               "Run status group 0 (all jobs):\n"
                               "   READ: io=4096.0MB, aggrb=123456KB/s, minb=30000KB/s, "
                               "maxb=31000KB/s, mint=33975msec, maxt=33975msec\n\n"
                               "Run status group 0 (all jobs):\n"
                               "  WRITE: bw=1171MiB/s (1228MB/s), 1171MiB/s-1171MiB/s "
                               "(1228MB/s-1228MB/s), io=68.6GiB (73.7GB), run=60001-60001msec\n",
                               &o),
                     0);
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(o.recs.v[0]->run, 1);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 123456.0 * 1024, 0);
    assert_int_equal(o.recs.v[1]->run, 2);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 1171.0 * 1048576, 0);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_without_header),
        cmocka_unit_test(test_block_with_definition),
        cmocka_unit_test(test_status_group_alone),
        cmocka_unit_test(test_status_group_2x),
        cmocka_unit_test(test_status_group_pasted_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A big dd text is read in pieces cut between two summaries (parsers/driver.c, bl_format's
 * cut_after): `parse` of 1,000,000 dd summary lines peaks under 64 MB (it held the text and
 * every record: 952 MB), and the records are those of the text read whole, line for line:
 * with records lines, blank lines, CR LF ends, and a command line in the middle after which
 * the rest is read as one text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* dd's line for transfer i: i MiB in 1.5 + i % 7 seconds, at the rate dd prints (kB/s). */
static void dd_line(FILE *f, long i, const char *eol)
{
    long n = i * 1048576L;
    double secs = 1.5 + (double)(i % 7);
    fprintf(f, "%ld bytes copied, %.1f s, %.0f kB/s%s", n, secs, (double)n / secs / 1e3, eol);
}

static void test_million_dd_lines_parse_in_flat_memory(void **state)
{
    (void)state;
    if (!bl_test_memory_measurable())
        bl_skip_because("memory measurement: ASan and valgrind hold memory of their own");
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    char *dir = bl_test_tmpdir(), path[512], cmd[2048];
    snprintf(path, sizeof path, "%s/dd.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (long i = 1; i <= 1000000; i++)
        dd_line(f, i, "\n");
    assert_int_equal(fclose(f), 0);
    /* the records counted, and the last one's figures, by awk over the output */
    snprintf(cmd, sizeof cmd, "'%s' parse '%s' | awk 'END { print NR; print $0 }' > '%s/tail'", bin,
             path, dir);
    int st;
    long kib = bl_test_peak_kib_of(cmd, &st);
    fprintf(stderr, "parse of 1,000,000 dd lines: peak RSS %ld KiB\n", kib);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    snprintf(path, sizeof path, "%s/tail", dir);
    char *tail = bl_test_slurp(path);
    assert_non_null(tail);
    assert_true(strncmp(tail, "1000000\n", 8) == 0);
    /* transfer 1,000,000: 1048576000000 bytes in 1.5 + 1000000 % 7 = 2.5 s, line 1000000,
       run 1000000 */
    assert_non_null(strstr(tail, "\"line\":1000000,\"run\":1000000,"));
    assert_non_null(strstr(tail, "\"io_bytes\":1048576000000"));
    assert_non_null(strstr(tail, "\"bw_bytes_s\":419430400000,"));
    assert_true(kib <= 64 * 1024);
    free(tail);
    free(dir);
}

typedef struct {
    bl_strbuf json;
    int batches;
} collected;

static void collect(void *ctx, bl_parse_out *out)
{
    collected *c = ctx;
    c->batches++;
    for (size_t i = 0; i < out->recs.n; i++) {
        bl_record_to_json(out->recs.v[i], &c->json);
        bl_strbuf_puts(&c->json, "\n");
    }
}

/* 25,000 transfers (1.3 MB) with records lines, blank lines and CR LF ends, a dd command
 * line after 18,000 of them: the pieces give what the whole text gives, record for record. */
static void test_pieces_give_the_whole_texts_records(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512];
    snprintf(path, sizeof path, "%s/mixed.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (long i = 1; i <= 25000; i++) {
        if (i % 10 == 3)
            fprintf(f, "%ld+0 records in\n%ld+0 records out\n", i, i);
        if (i % 10 == 7)
            fputs("\n\n", f);
        if (i == 18000)
            fputs("$ dd if=/dev/zero of=/mnt/x bs=1M count=18000\n", f);
        dd_line(f, i, i % 10 == 8 ? "\r\n" : "\n");
    }
    assert_int_equal(fclose(f), 0);
    bl_parse_opts opts = {0};
    bl_parse_out pieces, whole;
    collected a = {.batches = 0}, b = {.batches = 0};
    bl_strbuf_init(&a.json);
    bl_strbuf_init(&b.json);
    bl_out_init(&pieces, path);
    assert_int_equal(bl_parse_source_each(path, &opts, &pieces, NULL, collect, &a), 0);
    assert_int_equal(pieces.recs.n, 0); /* all handed out */
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_load(&t, path, err, sizeof err), 0);
    bl_out_init(&whole, path);
    assert_int_equal(bl_parse_text(&t, &opts, &whole), 0);
    assert_int_equal(whole.recs.n, 25000);
    collect(&b, &whole);
    assert_int_equal(bl_test_count_lines(a.json.s), 25000);
    assert_string_equal(a.json.s, b.json.s);
    /* two pieces of 8,192 lines and more cut before the command, the rest read as one */
    assert_true(a.batches >= 3);
    /* the transfer after the command is a write of 1 MiB blocks */
    const bl_record *r = whole.recs.v[17999];
    assert_string_equal(r->test, "seq-write");
    assert_int_equal(r->bs, 1048576);
    assert_int_equal(r->io_bytes, 18000L * 1048576L);
    bl_out_free(&pieces);
    bl_out_free(&whole);
    bl_text_free(&t);
    bl_strbuf_free(&a.json);
    bl_strbuf_free(&b.json);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_million_dd_lines_parse_in_flat_memory),
        cmocka_unit_test(test_pieces_give_the_whole_texts_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

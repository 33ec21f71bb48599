/* A big fio normal text is read in pieces cut where a new run starts (fio_normal.c's
 * cutter, parsers/driver_pieces.c): the records, errors and warnings are those of the text
 * read whole, record for record (group totals of numjobs clones, "Run status group" totals
 * of headless groups, disk stats on every record of their run, versions), and `parse` and
 * `import` of 48 MB of it peak under 64 MB (the whole text and its records held: 163 MB).
 *
 * The texts are real fio outputs repeated with the job names varied: the fixtures' normal
 * outputs (JSON left out) and, when BENCHLOG_CORPUS is set, the corpus' fio-normal files. */
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
#include <sys/wait.h>

static const char *const fixtures[] = {
    "fio/two-numjobs-jobs-3.33.out", "fio/clones-3.33.out", "fio/clones-grouped-3.33.out",
    "fio/kb1000-3.33.out",           "fio/sync-3.33.out",   "fio/appended-interrupted-3.33.out",
    "fio/unified-3.33.out",
};

/* The corpus' files read the same way whole and in pieces: no re-wrapped mail text. */
static const char *const corpus[] = {
    "fio-2.0.15_8jobs_no_group_reporting.txt",
    "fio-2.0.1_version_with_space_no_lat.txt",
    "fio-2.1.11_3groups_randrw_diskstats.txt",
    "fio-2.1.13_linux_4groups_diskstats.txt",
    "fio-2.17_512threads_diskstats.txt",
    "fio-2.2.10_randwrite_8jobs_concat.txt",
    "fio-2.99_8jobs_transitional.txt",
    "fio-3.25_fdatasync_sync_percentiles.txt",
    "fio-3.26_8jobs_randwrite.txt",
};

/* Appends the normal-output lines of text to sb: a JSON document ("{" to "}" at the line
 * start) and terse lines are left out; job names on job header, result header and "Laying
 * out" lines get "-K" so that every copy holds other jobs. */
static void add_copy(bl_strbuf *sb, const char *text, long k)
{
    int json = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        const char *next = p + n + (p[n] == '\n');
        if (*p == '{')
            json = 1;
        int skip = json || memchr(p, ';', n);
        if (json && *p == '}')
            json = 0;
        if (!skip) {
            size_t name = strcspn(p, ": <");
            if (name && name < n && p[name] == ':' &&
                (strncmp(p + name, ": (g=", 5) == 0 || strncmp(p + name, ": (groupid=", 11) == 0 ||
                 strncmp(p + name, ": Laying out", 12) == 0)) {
                bl_strbuf_putn(sb, p, name);
                bl_strbuf_printf(sb, "-%ld", k);
                bl_strbuf_putn(sb, p + name, n - name);
            } else {
                bl_strbuf_putn(sb, p, n);
            }
            bl_strbuf_puts(sb, "\n");
        }
        p = next;
    }
}

/* Writes copies of the sources until the file holds `bytes`; returns the copies made. */
static long write_big(const char *path, size_t bytes)
{
    char *texts[32];
    size_t nt = 0;
    char buf[512];
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        texts[nt] = bl_test_slurp(bl_test_fixture(fixtures[i], buf, sizeof buf));
        assert_non_null(texts[nt]);
        nt++;
    }
    const char *dir = getenv("BENCHLOG_CORPUS");
    for (size_t i = 0; dir && i < sizeof corpus / sizeof corpus[0]; i++) {
        snprintf(buf, sizeof buf, "%s/fio-normal/%s", dir, corpus[i]);
        if ((texts[nt] = bl_test_slurp(buf)))
            nt++;
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    size_t written = 0;
    long k = 0;
    while (written < bytes) {
        k++;
        bl_strbuf_reset(&sb);
        for (size_t i = 0; i < nt; i++)
            add_copy(&sb, texts[(i + (size_t)k) % nt], k);
        assert_int_equal(fwrite(sb.s, 1, sb.len, f), sb.len);
        written += sb.len;
    }
    assert_int_equal(fclose(f), 0);
    bl_strbuf_free(&sb);
    for (size_t i = 0; i < nt; i++)
        free(texts[i]);
    return k;
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

static void put_diags(bl_strbuf *sb, const bl_diag *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        bl_strbuf_printf(sb, "%ld: %s\n", v[i].line, v[i].msg);
}

/* The record of job `job`, direction `op`, scope `scope` (NULL: none) in the JSON lines. */
static const char *find_line(const char *json, const char *job, const char *scope)
{
    char key[128];
    snprintf(key, sizeof key, "\"job\":\"%s\"", job);
    for (const char *p = strstr(json, key); p; p = strstr(p + 1, key)) {
        const char *start = p;
        while (start > json && start[-1] != '\n')
            start--;
        const char *end = strchr(p, '\n');
        const char *s = strstr(start, "\"scope\":");
        int has = s && s < end;
        if (!scope ? !has : has && strncmp(s + 9, scope, strlen(scope)) == 0)
            return start;
    }
    return NULL;
}

static void test_pieces_give_the_whole_texts_records(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512];
    snprintf(path, sizeof path, "%s/fio.txt", dir);
    long copies = write_big(path, 3u << 19);
    bl_parse_opts opts = {0};
    bl_parse_out pieces, whole;
    collected a = {.batches = 0}, b = {.batches = 0};
    bl_strbuf_init(&a.json);
    bl_strbuf_init(&b.json);
    bl_out_init(&pieces, path);
    int rc = bl_parse_source_each(path, &opts, &pieces, NULL, collect, &a);
    assert_int_equal(pieces.recs.n, 0); /* all handed out */
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_load(&t, path, err, sizeof err), 0);
    bl_out_init(&whole, path);
    assert_int_equal(bl_parse_text(&t, &opts, &whole), rc);
    collect(&b, &whole);
    assert_true(whole.recs.n > 1000);
    assert_int_equal((size_t)bl_test_count_lines(a.json.s), whole.recs.n);
    assert_string_equal(a.json.s, b.json.s);
    bl_strbuf da, db;
    bl_strbuf_init(&da);
    bl_strbuf_init(&db);
    bl_strbuf_puts(&da, "");
    bl_strbuf_puts(&db, "");
    put_diags(&da, pieces.diags, pieces.n_diags);
    put_diags(&db, whole.diags, whole.n_diags);
    put_diags(&da, pieces.warns, pieces.n_warns);
    put_diags(&db, whole.warns, whole.n_warns);
    assert_string_equal(da.s, db.s);
    /* 1.5 MB: pieces of 8,192 lines or more */
    assert_true(a.batches >= 3);
    /* the last copy's clones of two-numjobs-jobs: two blocks of job a-K in group 0, their
       total as fio's group_reporting would give it: 2 MiB each, 4 MiB together */
    char job[32];
    snprintf(job, sizeof job, "a-%ld", copies);
    const char *tot = find_line(a.json.s, job, "group total");
    assert_non_null(tot);
    assert_non_null(strstr(tot, "\"io_bytes\":4194304,"));
    const char *one = find_line(a.json.s, job, "job 1/2");
    assert_non_null(one);
    assert_non_null(strstr(one, "\"io_bytes\":2097152,"));
    assert_non_null(strstr(one, "\"tool_version\":\"3.33\""));
    bl_out_free(&pieces);
    bl_out_free(&whole);
    bl_text_free(&t);
    bl_strbuf_free(&a.json);
    bl_strbuf_free(&b.json);
    bl_strbuf_free(&da);
    bl_strbuf_free(&db);
    free(dir);
}

/* fio --client text ("<host>" lines) is never cut: its mode holds for the whole text. A
 * client block in the middle of a big text ends the cutting there; the records are still
 * those of the text read whole. */
static void test_client_text_ends_the_cutting(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512], buf[512];
    snprintf(path, sizeof path, "%s/fio.txt", dir);
    write_big(path, 3u << 19);
    char *client = bl_test_slurp(
        bl_test_fixture("fio-client/randread-3hosts-3.33-normal+json.txt", buf, sizeof buf));
    assert_non_null(client);
    char *big = bl_test_slurp(path);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    size_t half = strlen(big) / 2;
    const char *run = strstr(big + half, "\nfio-3.33\n"); /* after a run's version line */
    assert_non_null(run);
    run = strstr(run + 1, "Disk stats");
    run = strstr(run, "\n\n");
    assert_non_null(run);
    bl_strbuf_putn(&sb, big, (size_t)(run + 1 - big));
    add_copy(&sb, client, 0);
    bl_strbuf_puts(&sb, run + 1);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(sb.s, 1, sb.len, f), sb.len);
    assert_int_equal(fclose(f), 0);
    bl_parse_opts opts = {.as = "fio"};
    bl_parse_out pieces, whole;
    collected a = {.batches = 0}, b = {.batches = 0};
    bl_strbuf_init(&a.json);
    bl_strbuf_init(&b.json);
    bl_out_init(&pieces, path);
    int rc = bl_parse_source_each(path, &opts, &pieces, NULL, collect, &a);
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_load(&t, path, err, sizeof err), 0);
    bl_out_init(&whole, path);
    assert_int_equal(bl_parse_text(&t, &opts, &whole), rc);
    collect(&b, &whole);
    assert_string_equal(a.json.s, b.json.s);
    assert_true(a.batches >= 2);
    /* the three servers' records, labelled */
    assert_non_null(strstr(a.json.s, "\"host\":\"vm\""));
    bl_out_free(&pieces);
    bl_out_free(&whole);
    bl_text_free(&t);
    bl_strbuf_free(&a.json);
    bl_strbuf_free(&b.json);
    bl_strbuf_free(&sb);
    free(big);
    free(client);
    free(dir);
}

/* parse and import of 48 MB of fio normal text: peak RSS under 64 MB each. */
static void test_big_text_in_flat_memory(void **state)
{
    (void)state;
    if (!bl_test_memory_measurable())
        bl_skip_because("memory measurement: ASan and valgrind hold memory of their own");
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    char *dir = bl_test_tmpdir(), path[512], cmd[2048];
    snprintf(path, sizeof path, "%s/fio.txt", dir);
    write_big(path, 48u << 20);
    snprintf(cmd, sizeof cmd, "'%s' parse '%s' 2>/dev/null | wc -l > '%s/n'", bin, path, dir);
    int st;
    long kib = bl_test_peak_kib_of(cmd, &st);
    fprintf(stderr, "parse of 48 MB of fio normal text: peak RSS %ld KiB\n", kib);
    assert_true(WIFEXITED(st));
    char n[512];
    snprintf(n, sizeof n, "%s/n", dir);
    char *count = bl_test_slurp(n);
    assert_non_null(count);
    fprintf(stderr, "%ld records\n", atol(count));
    assert_true(atol(count) > 30000);
    assert_true(kib <= 64 * 1024);
    snprintf(cmd, sizeof cmd, "'%s' import -q --db '%s/s.db' '%s' 2>/dev/null", bin, dir, path);
    kib = bl_test_peak_kib_of(cmd, &st);
    fprintf(stderr, "import of 48 MB of fio normal text: peak RSS %ld KiB\n", kib);
    assert_true(WIFEXITED(st));
    assert_true(kib <= 64 * 1024);
    free(count);
    free(dir);
}

/* Records, errors and warnings of path read in pieces are those of its text read whole;
 * returns how many pieces were handed out. */
static int pieces_match_whole(const char *path)
{
    bl_parse_opts opts = {0};
    bl_parse_out pieces, whole;
    collected a = {.batches = 0}, b = {.batches = 0};
    bl_strbuf_init(&a.json);
    bl_strbuf_init(&b.json);
    bl_strbuf_puts(&a.json, "");
    bl_strbuf_puts(&b.json, "");
    bl_out_init(&pieces, path);
    int rc = bl_parse_source_each(path, &opts, &pieces, NULL, collect, &a);
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_load(&t, path, err, sizeof err), 0);
    bl_out_init(&whole, path);
    assert_int_equal(bl_parse_text(&t, &opts, &whole), rc);
    collect(&b, &whole);
    assert_true(whole.recs.n > 1000);
    assert_string_equal(a.json.s, b.json.s);
    put_diags(&a.json, pieces.diags, pieces.n_diags);
    put_diags(&b.json, whole.diags, whole.n_diags);
    put_diags(&a.json, pieces.warns, pieces.n_warns);
    put_diags(&b.json, whole.warns, whole.n_warns);
    assert_string_equal(a.json.s, b.json.s);
    bl_out_free(&pieces);
    bl_out_free(&whole);
    bl_text_free(&t);
    bl_strbuf_free(&a.json);
    bl_strbuf_free(&b.json);
    return a.batches;
}

/* The reader of pieces reads a line where its block of 64 KiB holds it and puts together one
 * that blocks split: CRLF line ends, a 100 KB line that spans two blocks and a last line
 * ended by a lone CR read as the whole text does (bl_text drops the CR). */
static void test_pieces_crlf_long_line_and_last_cr(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512], crlf[512];
    snprintf(path, sizeof path, "%s/fio.txt", dir);
    snprintf(crlf, sizeof crlf, "%s/fio-crlf.txt", dir);
    write_big(path, 3u << 19);
    char *text = bl_test_slurp(path);
    assert_non_null(text);
    FILE *f = fopen(crlf, "wb");
    assert_non_null(f);
    size_t line = 0;
    for (const char *p = text; *p; line++) {
        size_t n = strcspn(p, "\n");
        fwrite(p, 1, n, f);
        fputs("\r\n", f);
        if (line == 9000) { /* past the first piece, not at a block's start */
            for (int k = 0; k < 100000; k++)
                fputc('x', f);
            fputs("\r\n", f);
        }
        p += n + (p[n] == '\n');
    }
    fputs("last line\r", f);
    assert_int_equal(fclose(f), 0);
    assert_true(pieces_match_whole(crlf) >= 3);
    free(text);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces_give_the_whole_texts_records),
        cmocka_unit_test(test_client_text_ends_the_cutting),
        cmocka_unit_test(test_big_text_in_flat_memory),
        cmocka_unit_test(test_pieces_crlf_long_line_and_last_cr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
